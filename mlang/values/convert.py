"""Conversions between MATLAB values and plain Python/NumPy values (the Python API)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.values.cell import Cell
from mlang.values.core import char_codes, char_from_codes, char_row, result, to_str
from mlang.values.string import StringArray
from mlang.values.struct import Struct


def to_python(v: Any) -> Any:
    """float/bool/complex scalars as they are; arrays as ndarrays; char as str;
    cells as nested lists (ndarray of objects for matrices); structs as dicts."""
    t = type(v)
    if t is np.ndarray:
        if v.dtype.kind == "V":
            if v.ndim == 2 and v.shape[0] <= 1:
                return to_str(v)
            # a char matrix: a NumPy array of one-character strings, of its shape
            return char_codes(v).astype(np.uint32).view("<U1")
        return v
    if t is Cell or t is Struct:
        return _container_to_python(v)
    if t is StringArray:
        return v.scalar_text() if v.data.size == 1 else v.data.tolist()
    return v


def _container_to_python(v: Cell | Struct) -> Any:
    """A cell or struct converted with a stack of its own: cells and structs can nest
    far deeper than Python can recurse (c = {c} in a loop)."""
    top: list = [None]
    stack: list[tuple[Any, Any, Any]] = [(v, top, 0)]  # a value, and where its result goes
    while stack:
        value, holder, key = stack.pop()
        t = type(value)
        if t is Cell:
            if min(value.shape) <= 1:
                items = value.values()
                out: Any = [None] * len(items)
                stack.extend((x, out, i) for i, x in enumerate(items))
            else:
                out = np.empty(value.data.shape, dtype=object)
                stack.extend((x, out, i) for i, x in np.ndenumerate(value.data))
        elif t is Struct:
            if value.elems.size == 1:
                out = _fields_to_python(value.element(0), stack)
            else:
                out = [_fields_to_python(d, stack) for d in value.elems.ravel(order="F")]
        else:
            out = to_python(value)
        holder[key] = out
    return top[0]


def _fields_to_python(element: dict, stack: list) -> dict:
    out = dict.fromkeys(element)  # the fields in their order; the values come from the stack
    stack.extend((x, out, k) for k, x in element.items())
    return out


def from_python(v: Any) -> Any:
    """The MATLAB value for a Python/NumPy value."""
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, np.bool_):
        return float(v)
    if isinstance(v, complex):
        return v
    if isinstance(v, str):
        return char_row(v)
    if isinstance(v, dict):
        return Struct.scalar({k: from_python(x) for k, x in v.items()})
    if isinstance(v, (list, tuple)):
        if all(isinstance(x, (int, float, bool, np.number)) and not isinstance(x, bool)
               for x in v):
            return result(np.array([list(map(float, v))]).reshape(1, len(v)))
        return Cell.row([from_python(x) for x in v])
    if isinstance(v, np.ndarray):
        a = v
        if a.ndim == 0:
            a = a.reshape(1, 1)
        elif a.ndim == 1:
            a = a.reshape(1, -1)
        if a.dtype == np.dtype("<U1"):  # one character an element: a char array
            return char_from_codes(np.ascontiguousarray(a).view(np.uint32))
        if a.dtype.kind == "U":
            return StringArray(a.astype(object))
        if a.dtype.kind in "iu" and a.dtype.itemsize == 8 and a.dtype.kind == "i":
            a = a.astype(np.float64)
        return result(a)
    raise TypeError(f"cannot convert {type(v).__name__} to a MATLAB value")
