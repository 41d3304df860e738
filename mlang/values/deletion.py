"""Deletion: ``x(args...) = []`` (what ``indexing.assign`` does when the value is the empty
``[]`` and the target keeps its class)."""

from __future__ import annotations

import numpy as np

from mlang.errors import error
from mlang.values.core import fix_shape
from mlang.values.subscripts import _index_array, _shape_for, data_of, rewrap


def delete(target: object, args: list) -> object:
    """``target(args...) = []``."""
    data = data_of(target)
    nargs = len(args)
    if nargs == 1:
        n = data.size
        idx = _index_array(args[0], n, None, 1)
        if isinstance(idx, slice):
            return rewrap(target, np.empty((0, 0), dtype=data.dtype) if data.dtype != object
                          else np.empty((0, 0), dtype=object))
        if idx.size == 0:  # deleting nothing keeps the shape
            return target
        keep = np.ones(n, dtype=bool)
        keep[idx] = False
        flat = data.ravel(order="F")[keep]
        column = data.ndim == 2 and data.shape[1] == 1 and data.shape[0] != 1
        return rewrap(target, flat.reshape(-1, 1) if column else flat.reshape(1, -1))
    shape = _shape_for(data, nargs)
    data = data.reshape(shape, order="F")
    idxs = [_index_array(a, n, pos, nargs) for pos, (a, n) in enumerate(zip(args, shape, strict=True), 1)]
    partial = [d for d, i in enumerate(idxs)
               if not (isinstance(i, slice) or np.array_equal(np.unique(i), np.arange(shape[d])))]
    if len(partial) > 1:
        raise error("MATLAB:nullAssignment",
                    "A null assignment can have only one non-colon index.")
    if not partial:  # everything goes: along the one subscript that is not ':', else rows
        named = [d for d, i in enumerate(idxs) if not isinstance(i, slice)]
        new_shape = list(shape)
        new_shape[named[0] if len(named) == 1 else 0] = 0
        return rewrap(target, np.zeros(fix_shape(tuple(new_shape)), dtype=data.dtype)
                      if data.dtype != object else np.empty(fix_shape(tuple(new_shape)), dtype=object))
    d = partial[0]
    keep = np.ones(shape[d], dtype=bool)
    keep[idxs[d]] = False
    out = np.compress(keep, data, axis=d)
    return rewrap(target, out.reshape(fix_shape(out.shape), order="F"))
