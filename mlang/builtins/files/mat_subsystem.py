"""The subsystem data of a MAT-file: where MATLAB keeps the contents of its objects.

A variable holding an object (a string array, a datetime, a table...) stores only a
reference, uint32 values ``0xDD000000, ndims, dims..., object ids..., class id``; the
objects' properties live in the file's subsystem data, the same for every format: an
opaque ``FileWrapper__`` object of the ``MCOS`` type system holding a cell column:

* cell 1, the linking metadata (uint8): uint32 ``version`` (4), the number of names,
  eight byte offsets of the regions below, then the names (class and property names,
  NUL-terminated, padded to 8 bytes); the regions:

  0. classes: four uint32 a class ``(package name index, class name index, 0, 0)``;
  1. type-1 property lists, 2. objects, 3. type-2 property lists: an object is six
     uint32 ``(class id, 0, 0, type-1 id, type-2 id, dependency id)`` (the dependency
     id orders construction: an object held by another one comes first); a property
     list is ``n`` then ``n`` triples ``(name index, kind, value)``, padded to 8 bytes;
     kind 1: the value is in cell ``3 + value``, kind 0: it is the name ``value``,
     kind 2: it is the number ``value`` itself;
  4. the dynamic properties of each object (``n`` then ``n`` ids, padded to 8 bytes);
  5. and 6. reserved;

  every region of blocks starts with an all-zero block (a property-list region is left
  empty when no object uses it); names, classes and objects are counted from 1;
* cell 2 an empty placeholder, then the property values, then three columns with one
  entry per class and one more (MATLAB's class templates: empty here).

Inside the subsystem, an object held by a property (a string array in a table) is
stored as its bare reference (a uint32 column), not as an opaque object.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.values.cell import Cell
from mlang.values.struct import Struct

OBJECT_MARK = 0xDD000000
METADATA_VERSION = 4
# Classes whose properties MATLAB lists in the type-1 region (the others use type 2).
TYPE1_CLASSES = frozenset({"string"})


class CanonicalEmpty:
    """MATLAB's placeholder in the second cell of the subsystem data: an empty element in a
    version 5 file, an empty dataset of class 'canonical empty' in a version 7.3 file."""

    __slots__ = ()


def is_reference(value: Any) -> bool:
    """Whether a value read from the subsystem is an object reference (a uint32 column
    starting with MATLAB's object mark)."""
    return (type(value) is np.ndarray and value.dtype == np.uint32 and value.ndim == 2
            and value.shape[1] == 1 and value.shape[0] >= 6 and int(value[0, 0]) == OBJECT_MARK)


def parse_reference(words: list[int]) -> tuple[tuple[int, ...], list[int], int] | None:
    """(shape, object ids, class id) of a reference, None if it is not one."""
    if len(words) < 5 or words[0] != OBJECT_MARK:
        return None
    ndims = int(words[1])
    shape = tuple(int(d) for d in words[2:2 + ndims])
    ids = [int(w) for w in words[2 + ndims:-1]]
    if len(shape) != ndims or len(ids) != int(np.prod(shape)):
        return None
    return shape, ids, int(words[-1])


def _padded(n_bytes: int) -> int:
    return (n_bytes + 7) // 8 * 8


# ------------------------------------------------------------------- reading


class Subsystem:
    """The parsed subsystem data of one MAT-file: names, classes, objects and the cells
    holding the property values (``decode`` turns a cell into a MATLAB value)."""

    def __init__(self, metadata: bytes, cells: list,
                 decode: Callable[[Any, frozenset], Any] | None = None) -> None:
        self.metadata = metadata
        self.cells = cells
        # decode(cell, busy): the MATLAB value of a cell (busy: the objects being decoded)
        self.decode = decode or (lambda cell, busy: cell)
        words = np.frombuffer(metadata[:40], dtype="<u4")
        count = int(words[1])
        self.offsets = [int(w) for w in words[2:10]]
        self.names = [n.decode("latin1") for n in metadata[40:self.offsets[0]].split(b"\x00")[:count]]

    def _u32(self, position: int, count: int) -> list[int]:
        return np.frombuffer(self.metadata, dtype="<u4", count=count, offset=position).tolist()

    def class_name(self, class_id: int) -> str:
        package, name, _, _ = self._u32(self.offsets[0] + 16 * class_id, 4)
        text = self.names[name - 1] if 0 < name <= len(self.names) else ""
        return f"{self.names[package - 1]}.{text}" if 0 < package <= len(self.names) else text

    def object_class(self, object_id: int) -> str:
        return self.class_name(self._u32(self.offsets[2] + 24 * object_id, 1)[0])

    def properties(self, object_id: int) -> dict[str, Any]:
        """The stored property values of one object, by property name (cells undecoded)."""
        _, _, _, type1, type2, _ = self._u32(self.offsets[2] + 24 * object_id, 6)
        region, block = (self.offsets[1], type1) if type1 else (self.offsets[3], type2)
        position = region
        for _ in range(block):  # skip the blocks before this object's
            n = self._u32(position, 1)[0]
            position += _padded(4 + 12 * n)
        n = self._u32(position, 1)[0]
        triples = self._u32(position + 4, 3 * n)
        found: dict[str, Any] = {}
        for k in range(n):
            name_index, kind, value = triples[3 * k:3 * k + 3]
            if not 0 < name_index <= len(self.names):
                continue
            name = self.names[name_index - 1]
            if kind == 1 and 2 + value < len(self.cells):
                found[name] = self.cells[2 + value]
            elif kind == 0 and 0 < value <= len(self.names):
                found[name] = ("name", self.names[value - 1])
            elif kind == 2:
                found[name] = ("number", value)
        return found


# ------------------------------------------------------------------- writing


class SubsystemBuilder:
    """Collects the objects of the variables being saved and builds the subsystem cells.

    ``reference(class_name, properties)`` adds one object whose properties are MATLAB
    values; a property value that is itself an object must already be a reference
    (from a nested ``reference`` call), as the subsystem stores it."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        """Forget every object added."""
        self.names: list[str] = []
        self.classes: list[int] = []  # the name index of each class
        self.objects: list[list[int]] = []  # [class id, type-1 id, type-2 id, dependency id]
        self.type1: list[list[tuple[int, int]]] = []
        self.type2: list[list[tuple[int, int]]] = []
        self.values: list[Any] = []

    def __bool__(self) -> bool:
        return bool(self.objects)

    def _name(self, text: str) -> int:
        if text not in self.names:
            self.names.append(text)
        return self.names.index(text) + 1

    def _class(self, text: str) -> int:
        index = self._name(text)
        if index not in self.classes:
            self.classes.append(index)
        return self.classes.index(index) + 1

    def start(self) -> int:
        """Reserve the id of an object whose properties are being converted (an object
        gets its id before the objects it holds, as MATLAB numbers them)."""
        self.objects.append([0, 0, 0, 0])
        return len(self.objects)

    def finish(self, object_id: int, class_name: str, properties: list[tuple[str, Any]]) -> None:
        triples = []
        for name, value in properties:
            triples.append((self._name(name), len(self.values)))
            self.values.append(value)
        class_id = self._class(class_name)
        entry = self.objects[object_id - 1]
        entry[0] = class_id
        if class_name in TYPE1_CLASSES:
            self.type1.append(triples)
            entry[1] = len(self.type1)
        else:
            self.type2.append(triples)
            entry[2] = len(self.type2)
        entry[3] = sum(1 for e in self.objects if e[3]) + 1

    def reference_of(self, object_id: int, class_name: str) -> np.ndarray:
        """The stored reference to one (scalar) object: a uint32 column."""
        words = [OBJECT_MARK, 2, 1, 1, object_id, self._class(class_name)]
        return np.array(words, dtype=np.uint32).reshape(-1, 1)

    def metadata(self) -> bytes:
        names = b"".join(n.encode("latin1") + b"\x00" for n in self.names)
        names += b"\x00" * (_padded(len(names)) - len(names))
        regions = [
            np.array([0, 0, 0, 0] + [w for c in self.classes for w in (0, c, 0, 0)], dtype="<u4").tobytes(),
            self._lists(self.type1),
            np.array([0] * 6 + [w for o in self.objects for w in (o[0], 0, 0, o[1], o[2], o[3])],
                     dtype="<u4").tobytes(),
            self._lists(self.type2),
            np.zeros(2 * (len(self.objects) + 1), dtype="<u4").tobytes(),  # no dynamic properties
            b"",
            np.zeros(2, dtype="<u4").tobytes(),
        ]
        offsets = [40 + len(names)]
        for region in regions:
            offsets.append(offsets[-1] + len(region))
        head = np.array([METADATA_VERSION, len(self.names), *offsets], dtype="<u4").tobytes()
        return head + names + b"".join(regions)

    @staticmethod
    def _lists(lists: list[list[tuple[int, int]]]) -> bytes:
        if not lists:
            return b""
        out = [np.zeros(2, dtype="<u4").tobytes()]
        for triples in lists:
            words = [len(triples)] + [w for name, cell in triples for w in (name, 1, cell)]
            if len(words) % 2:
                words.append(0)
            out.append(np.array(words, dtype="<u4").tobytes())
        return b"".join(out)

    def cells(self) -> list[Any]:
        """The cells of the FileWrapper__ object, as MATLAB values."""
        metadata = np.frombuffer(self.metadata(), dtype=np.uint8).reshape(-1, 1).copy()
        count = len(self.classes) + 1

        def templates() -> Cell:
            items = np.empty((count, 1), dtype=object)
            for k in range(count):
                items[k, 0] = Struct.empty((1, 0), [])
            return Cell(items)

        return [metadata, CanonicalEmpty(), *self.values, templates(),
                np.zeros((count, 1), dtype=np.uint32), templates()]
