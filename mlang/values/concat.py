"""Concatenation: matrix literals ``[a, b; c, d]``, and cell literals ``{...}``.

The result class follows MATLAB: any cell → cell; any string → string; any
struct → struct array; otherwise char beats numbers, an integer class beats
double, single beats double, and logical stays logical only with logicals.
Empty arrays are skipped.
"""

from __future__ import annotations

import numpy as np

from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import (
    CHAR,
    INT_CLASSES,
    class_of,
    result,
)
from mlang.values.limits import check_array_size
from mlang.values.objects import OBJECT_KINDS
from mlang.values.operators import as_class
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.text import to_string_array

_SMALL = 1 << 20  # joined sizes (elements) below any limit check_array_size enforces


def _inconsistent() -> Exception:
    return error("MATLAB:catenate:dimensionMismatch",
                 "Dimensions of arrays being concatenated are not consistent.")


def _is_empty(v: object) -> bool:
    t = type(v)
    if t is float or t is bool or t is complex:
        return False
    shape = v.shape  # type: ignore[attr-defined]
    return 0 in shape


def concat_class(values: list) -> str:
    classes = [class_of(v) for v in values]
    kinds = set(classes)
    if "cell" in kinds:
        return "cell"
    if "string" in kinds:
        return "string"
    if "struct" in kinds:
        if kinds != {"struct"}:
            raise error("MATLAB:concatenation:structAndNonStruct",
                        "Concatenation of a struct with a non-struct value is not allowed.")
        return "struct"
    bad = kinds - {"double", "single", "logical", "char", *INT_CLASSES}
    if bad:
        raise error("MATLAB:concatenation:unsupported",
                    f"Concatenation of values of class '{bad.pop()}' is not supported.")
    if "char" in kinds:  # char beats every numeric class, integers included
        return "char"
    for c in classes:  # the leftmost integer class wins
        if c in INT_CLASSES:
            return c
    if "single" in kinds:
        return "single"
    if kinds == {"logical"}:
        return "logical"
    return "double"


def cat(values: list, axis: int) -> object:
    """Concatenate along ``axis`` (0: vertically, 1: horizontally, or higher)."""
    kept = [v for v in values if not _is_empty(v)]
    if not kept:
        if not values:
            return np.zeros((0, 0))
        first = values[0]
        return first if len(values) == 1 else _empty_result(values)
    # an empty array of another class still decides the class (['' 65] is char),
    # except the neutral 0x0 double []
    deciding = kept if len(kept) == len(values) else \
        [v for v in values if not _is_empty(v) or _decides_class(v)]
    if len(kept) == 1 and len(deciding) == 1:
        return kept[0]
    cls = concat_class(deciding)
    if len(kept) == 1 and cls in ("cell", "string", "struct"):
        return kept[0]
    if cls == "cell":
        arrays = [v.data if type(v) is Cell else _wrap_cell(v) for v in kept]
        return Cell(_join(arrays, axis))
    if cls == "string":
        arrays = [to_string_array(v).data for v in kept]
        return StringArray(_join(arrays, axis))
    if cls == "struct":
        fields = list(kept[0].fields)
        for s in kept[1:]:
            if set(s.fields) != set(fields):
                raise error("MATLAB:catenate:structFieldBad",
                            "Concatenation of structures requires that the fields be the same.")
        return Struct(fields, _join([s.copy().elems for s in kept], axis))
    arrays = [as_class(v, cls) for v in kept]
    if cls == "double" and any(a.dtype.kind == "c" for a in arrays):
        arrays = [a.astype(np.complex128) for a in arrays]
    return result(_join(arrays, axis))


def _decides_class(v: object) -> bool:
    """Whether an empty operand of a concatenation still takes part in choosing its class."""
    return type(v) is np.ndarray and v.dtype != np.float64 and v.dtype != object


def _empty_result(values: list) -> object:
    cls = concat_class(values)
    if cls == "char":
        return np.zeros((0, 0), dtype=CHAR)
    if cls == "cell":
        return Cell.empty()
    return values[0]


def _wrap_cell(v: object) -> np.ndarray:
    data = np.empty((1, 1), dtype=object)
    data[0, 0] = v
    return data


def _concatenate(arrays: list[np.ndarray], axis: int) -> np.ndarray:
    """The arrays joined along ``axis`` (where every join of arrays allocates)."""
    return np.concatenate(arrays, axis=axis)


def _join(arrays: list[np.ndarray], axis: int) -> np.ndarray:
    if axis < 2:  # 2-D arrays (the common case): as below
        across = 1 - axis
        width = arrays[0].shape[across]
        size = 0
        for a in arrays:
            if a.ndim != 2:
                break
            if a.shape[across] != width:
                raise _inconsistent()
            size += a.size
        else:
            if size >= _SMALL:
                joined_shape = [width, width]
                joined_shape[axis] = sum(a.shape[axis] for a in arrays)
                check_array_size(tuple(joined_shape), arrays[0].dtype)
            return _concatenate(arrays, axis)
    ndim = max(max(a.ndim for a in arrays), axis + 1)
    padded = [a.reshape(a.shape + (1,) * (ndim - a.ndim)) if a.ndim < ndim else a for a in arrays]
    ref = padded[0].shape
    for a in padded[1:]:
        if any(a.shape[d] != ref[d] for d in range(ndim) if d != axis):
            raise _inconsistent()
    if len(padded) > 1:
        joined = list(ref)
        joined[axis] = sum(a.shape[axis] for a in padded)
        check_array_size(tuple(joined), padded[0].dtype)
    return _concatenate(padded, axis)


_FLOAT64 = np.dtype(np.float64)


def _doubles_joined(rows: list[list]) -> np.ndarray | None:
    """``concatenate`` of double scalars and non-empty 2-D double arrays of consistent
    sizes, two or more of them: what the general path gives (None for anything else)."""
    joined = []
    total = 0
    for row in rows:
        parts = []
        height = -1
        for v in row:
            t = type(v)
            if t is float:
                v = np.array([[v]])
            elif t is not np.ndarray or v.dtype is not _FLOAT64 or v.ndim != 2 or not v.size:
                return None
            h = v.shape[0]
            if h != height:
                if height >= 0:
                    return None
                height = h
            parts.append(v)
            total += v.size
        if not parts:
            return None
        joined.append(parts[0] if len(parts) == 1 else _join(parts, 1))
    if total >= _SMALL or (len(joined) == 1 and len(rows[0]) == 1):
        return None
    if len(joined) == 1:
        return joined[0]
    width = joined[0].shape[1]
    for part in joined:
        if part.shape[1] != width:
            return None
    return _join(joined, 0)


def short_double_row(values: list) -> np.ndarray | None:
    """``[a, b, ...]`` of two or more double scalars and short non-empty double rows: what
    ``concatenate`` gives, made from their numbers at once (None for anything else)."""
    numbers: list = []
    for v in values:
        t = type(v)
        if t is float:
            numbers.append(v)
        elif t is np.ndarray and v.dtype is _FLOAT64 and v.ndim == 2 and v.shape[0] == 1 \
                and 0 < v.shape[1] <= _SHORT_ROW:
            numbers += v[0].tolist()
        else:
            return None
    return np.array([numbers]) if len(values) > 1 else None


_SHORT_ROW = 16  # (longer rows: joining the arrays is faster than going through their numbers)


def joined_arrays(values: list, axis: int) -> np.ndarray | None:
    """``[a, b, ...]`` (``axis`` 1) or ``[a; b; ...]`` (``axis`` 0) of two or more non-empty
    2-D arrays of one class, double, char or logical, whose sizes agree: what
    ``concatenate`` gives (None for anything else)."""
    first = values[0]
    if type(first) is not _ndarray:
        return None
    dtype = first.dtype
    if dtype is not _FLOAT64 and dtype is not _LOGICAL and dtype != CHAR:
        return None
    total = 0
    for v in values:
        if type(v) is not _ndarray or (v.dtype is not dtype and v.dtype != dtype):
            return None
        size = v.size
        if not size:
            return None
        total += size
    if total >= _SMALL:
        return None
    # sizes and dimensions NumPy checks as it joins: arrays that do not fit (the general
    # path's error) or are not all 2-D are left to the general path
    try:
        joined = _concatenate(values, axis)
    except ValueError:
        return None
    return joined if joined.ndim == 2 else None


def joined_pair(a: np.ndarray, b: np.ndarray, axis: int) -> np.ndarray | None:
    """``joined_arrays([a, b], axis)`` of two arrays, the common classes (double, logical)
    checked without the list."""
    dtype = a.dtype
    if (dtype is _FLOAT64 or dtype is _LOGICAL) and b.dtype is dtype:
        n, m = a.size, b.size
        if not n or not m or n + m >= _SMALL:
            return None
        try:
            joined = _concatenate((a, b), axis)
        except ValueError:
            return None
        return joined if joined.ndim == 2 else None
    return joined_arrays([a, b], axis)


_LOGICAL = np.dtype(np.bool_)
_ndarray = np.ndarray  # (a module name: joined_arrays tests each value's type against it)


def concatenate(rows: list[list]) -> object:
    """``[row1; row2; ...]`` where each row is a list of values."""
    doubles = _doubles_joined(rows)
    if doubles is not None:
        return doubles
    for row in rows:
        for v in row:
            kind = OBJECT_KINDS.get(type(v))
            if kind is not None:
                out = kind.concatenate(rows)
                if out is not NotImplemented:
                    return out
    joined = [cat(r, 1) for r in rows]
    if len(joined) == 1:
        return joined[0]
    return cat(joined, 0)


def make_cell(rows: list[list]) -> Cell:
    """``{a, b; c, d}``: each value becomes one element."""
    rows = [r for r in rows if r]
    if not rows:
        return Cell.empty()
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise _inconsistent()
    data = np.empty((len(rows), width), dtype=object)
    for i, r in enumerate(rows):
        for j, v in enumerate(r):
            data[i, j] = v
    return Cell(data)
