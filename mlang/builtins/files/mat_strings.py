"""MATLAB string arrays in MAT-files (reading).

MATLAB saves a string array as an object of class ``string`` (an "opaque" MCOS
object).  The variable itself holds only a reference: uint32 values
``0xDD000000, ndims, dims..., object ids..., class id``.  The object's contents live
in the file's subsystem data (SciPy hands it over as ``__function_workspace__``): a
small MAT-file whose one struct has a field ``MCOS``, an opaque ``FileWrapper__``
object holding a cell column:

* cell 1: linking metadata (uint8): a version, the number of names, eight byte
  offsets of its regions, then the class and property names (NUL-terminated); the
  region at offset 3 has six uint32 values an object ``(class id, 0, 0, type-1 id,
  type-2 id, dependency)``; the regions at offsets 2 and 4 list, for each type-1 /
  type-2 object, ``n`` then ``n`` triples ``(name index, kind, value)``, each block
  padded to 8 bytes; kind 1 means the property's value is in cell ``3 + value``;
  the first block of each region is a dummy, and name indices count from 1;
* the following cells: property values.

A string object has one property, ``any``: uint64 values ``version, ndims, dims...,
the length of each string (column-major; all ones for <missing>), then the UTF-16 code
units of all the strings packed four to a value``.

Writing string objects is not implemented: save writes string arrays as cell arrays
of character vectors (with a warning).
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from mlang.builtins.files.mat_codecs import UNITS_CODECS
from mlang.values.string import StringArray

OBJECT_MARK = 0xDD000000
MISSING_LENGTH = 0xFFFFFFFFFFFFFFFF


class Subsystem:
    """The parsed subsystem data of one MAT-file: the names, the regions, the cells."""

    def __init__(self, metadata: bytes, cells: list) -> None:
        self.metadata = metadata
        self.cells = cells
        words = np.frombuffer(metadata[:40], dtype="<u4")
        count = int(words[1])
        self.offsets = [int(w) for w in words[2:10]]
        self.names = metadata[40:self.offsets[0]].split(b"\x00")[:count]

    def _u32(self, position: int, count: int) -> list[int]:
        return np.frombuffer(self.metadata, dtype="<u4", count=count, offset=position).tolist()

    def properties(self, object_id: int) -> dict[str, Any]:
        """The stored property values of one object, by property name."""
        class_id, _, _, type1, type2, _ = self._u32(self.offsets[2] + 24 * object_id, 6)
        region, block = (self.offsets[1], type1) if type1 else (self.offsets[3], type2)
        position = region
        for _ in range(block):  # skip the blocks before this object's
            n = self._u32(position, 1)[0]
            position += ((4 + 12 * n + 7) // 8) * 8
        n = self._u32(position, 1)[0]
        triples = self._u32(position + 4, 3 * n)
        found = {}
        for k in range(n):
            name_index, kind, value = triples[3 * k:3 * k + 3]
            if kind == 1 and 0 < name_index <= len(self.names) and 2 + value < len(self.cells):
                found[self.names[name_index - 1].decode("latin1")] = self.cells[2 + value]
        return found


def _subsystem(context: dict) -> Subsystem | None:
    """The file's subsystem, parsed once per read (kept in ``context``)."""
    if "subsystem" in context:
        return context["subsystem"]
    context["subsystem"] = None
    raw = context.get("__function_workspace__")
    if raw is None:
        return None
    try:
        context["subsystem"] = _parse_subsystem(np.asarray(raw, dtype=np.uint8).tobytes())
    except Exception:  # noqa: BLE001 -- an unexpected layout: the objects are skipped with a warning
        context["subsystem"] = None
    return context["subsystem"]


def _parse_subsystem(data: bytes) -> Subsystem | None:
    # SciPy on first use: keeps start-up fast
    from scipy.io.matlab._mio5 import MatFile5Reader

    # a MAT-file of its own with an 8-byte header: give it a full one to read it with SciPy
    header = b"MATLAB 5.0 MAT-file".ljust(116, b" ") + b"\x00" * 8 + b"\x00\x01" + data[2:4]
    codec = UNITS_CODECS["<" if data[2:4] == b"IM" else ">"]
    reader = MatFile5Reader(io.BytesIO(header + data[8:]), chars_as_strings=False,
                            struct_as_record=True, uint16_codec=codec)
    reader.initialize_read()
    reader.mat_stream.seek(128)
    var_header, _ = reader.read_var_header()
    wrapper = reader.read_var_array(var_header, process=True)
    opaque = wrapper[0, 0]["MCOS"]
    cells = list(np.asarray(opaque[0]["arr"]).ravel(order="F"))
    metadata = np.asarray(cells[0], dtype=np.uint8).ravel(order="F").tobytes()
    return Subsystem(metadata, cells)


def decode_strings(opaque: Any, context: dict) -> Any:
    """The string array held by a stored MATLAB ``string`` object, or None when it is not
    one that mlang can decode."""
    try:
        record = opaque[0]
        if bytes(record["s2"]) != b"string":
            return None
        reference = np.asarray(record["arr"]).astype(np.uint64).ravel(order="F").tolist()
    except (IndexError, KeyError, TypeError, ValueError):
        return None
    return string_from_reference(reference, _subsystem(context))


def string_from_reference(reference: list[int], subsystem: Subsystem | None) -> StringArray | None:
    """The string array an object reference points to (None if it cannot be decoded)."""
    if subsystem is None or len(reference) < 5 or reference[0] != OBJECT_MARK:
        return None
    ndims = int(reference[1])
    ids = reference[2 + ndims:-1]
    if len(ids) != 1:  # an array of string objects: not how MATLAB stores strings
        return None
    stored = subsystem.properties(int(ids[0])).get("any")
    if stored is None:
        return None
    return strings_from_words(np.asarray(stored).astype(np.uint64).ravel(order="F"))


def strings_from_words(words: np.ndarray) -> StringArray | None:
    """Decode the ``any`` property of a string object."""
    values = words.tolist()
    if len(values) < 2:
        return None
    ndims = int(values[1])
    shape = tuple(int(d) for d in values[2:2 + ndims])
    count = int(np.prod(shape)) if shape else 0
    lengths = values[2 + ndims:2 + ndims + count]
    if len(lengths) != count:
        return None
    units = words[2 + ndims + count:].astype("<u8").tobytes()
    texts: list[str | None] = []
    position = 0
    for length in lengths:
        if length == MISSING_LENGTH:
            texts.append(None)
            continue
        chunk = units[position:position + 2 * int(length)]
        position += 2 * int(length)
        texts.append(chunk.decode("utf-16-le", "surrogatepass"))
    data = np.empty(count, dtype=object)
    data[:] = texts
    return StringArray(data.reshape(shape, order="F"))
