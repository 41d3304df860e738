"""Comparisons for the MAT-file tests: values equal in class, size, complexity and data."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.values.cell import Cell
from mlang.values.sparse import is_sparse
from mlang.values.struct import Struct


def same(a: Any, b: Any) -> bool:
    """Whether two MATLAB values are the same value of the same class and size."""
    if type(a) is not type(b):
        return False
    if type(a) is np.ndarray:
        return a.dtype == b.dtype and a.shape == b.shape and bool(
            np.array_equal(a.view(np.uint16) if a.dtype.kind == "V" else a,
                           b.view(np.uint16) if b.dtype.kind == "V" else b, equal_nan=a.dtype.kind in "fc"))
    if type(a) is Cell:
        return a.shape == b.shape and all(same(x, y) for x, y in zip(a.data.ravel(), b.data.ravel(), strict=True))
    if type(a) is Struct:
        return (a.fields == b.fields and a.shape == b.shape
                and all(same(x[f], y[f]) for x, y in zip(a.elems.ravel(), b.elems.ravel(), strict=True)
                        for f in a.fields))
    if is_sparse(a):
        return a.matrix.dtype == b.matrix.dtype and a.shape == b.shape and (a.matrix != b.matrix).nnz == 0
    return a == b
