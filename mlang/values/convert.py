"""Conversions between MATLAB values and plain Python/NumPy values (the Python API)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.values.cell import Cell
from mlang.values.core import char_row, result, to_str
from mlang.values.string import StringArray
from mlang.values.struct import Struct


def to_python(v: Any) -> Any:
    """float/bool/complex scalars as they are; arrays as ndarrays; char as str;
    cells as nested lists (ndarray of objects for matrices); structs as dicts."""
    t = type(v)
    if t is np.ndarray:
        if v.dtype.kind == "V":
            return to_str(v) if v.ndim == 2 and v.shape[0] <= 1 else v
        return v
    if t is Cell:
        return [to_python(x) for x in v.values()] if min(v.shape) <= 1 else \
            np.vectorize(to_python, otypes=[object])(v.data)
    if t is Struct:
        if v.elems.size == 1:
            return {k: to_python(x) for k, x in v.element(0).items()}
        return [{k: to_python(x) for k, x in d.items()} for d in v.elems.ravel(order="F")]
    if t is StringArray:
        return v.scalar_text() if v.data.size == 1 else v.data.tolist()
    return v


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
        if a.dtype.kind in "iu" and a.dtype.itemsize == 8 and a.dtype.kind == "i":
            a = a.astype(np.float64)
        return result(a)
    raise TypeError(f"cannot convert {type(v).__name__} to a MATLAB value")
