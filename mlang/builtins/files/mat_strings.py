"""MATLAB string arrays in MAT-files: the ``any`` property of a ``string`` object.

MATLAB saves a string array as one object of class ``string`` (see ``mat_subsystem``)
whose one property, ``any``, is a uint64 row: ``version (1), ndims, dims..., the length
of each string (column-major; all ones for <missing>), then the UTF-16 code units of
all the strings packed four to a value`` (little-endian, the last value padded with 0).
"""

from __future__ import annotations

import numpy as np

from mlang.values.string import StringArray

STRING_VERSION = 1
MISSING_LENGTH = 0xFFFFFFFFFFFFFFFF


def words_from_strings(value: StringArray) -> np.ndarray:
    """The ``any`` property of a string array (a uint64 row)."""
    shape = value.data.shape
    texts = value.data.ravel(order="F").tolist()
    units = b"".join(t.encode("utf-16-le", "surrogatepass") for t in texts if t is not None)
    units += b"\x00" * (-len(units) % 8)
    lengths = [MISSING_LENGTH if t is None else len(t.encode("utf-16-le", "surrogatepass")) // 2
               for t in texts]
    head = np.array([STRING_VERSION, len(shape), *shape, *lengths], dtype=np.uint64)
    return np.concatenate([head, np.frombuffer(units, dtype="<u8").astype(np.uint64)]).reshape(1, -1)


def strings_from_words(words: np.ndarray) -> StringArray | None:
    """Decode the ``any`` property of a string object (None if it is not one)."""
    values = words.tolist()
    if len(values) < 2:
        return None
    ndims = int(values[1])
    shape = tuple(int(d) for d in values[2:2 + ndims])
    count = int(np.prod(shape)) if shape else 0
    lengths = values[2 + ndims:2 + ndims + count]
    if len(shape) != ndims or len(lengths) != count:
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
