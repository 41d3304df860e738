"""accumarray: values gathered into an array at subscripts, combined by a function."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.coerce import checked_shape
from mlang.builtins.data.shape import is_placeholder, shape_of
from mlang.builtins.math.reductions import finish
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import INT_CLASSES, class_of, fix_shape, result, to_double_array


@builtin(interp=True)
def accumarray(interp: Any, subs: Any, vals: Any, sz: Any = None, fun: Any = None,
               fillval: Any = None, *rest: Any) -> object:
    """A = accumarray(subs,val)
    A = accumarray(subs,val,sz)
    A = accumarray(subs,val,sz,fun)
    A = accumarray(subs,val,sz,fun,fillval)

    Accumulate the values of val into an array at the subscripts in subs
    (each row of subs is one subscript); fun (default @sum) combines the
    values that share a subscript."""
    index = to_double_array(subs).real
    if index.ndim != 2:
        raise error("MATLAB:accumarray:InvalidSubs", "Second input SUBS must be a matrix.")
    if index.size and (np.any(index < 1) or not np.all(np.isfinite(index))
                       or np.any(index != np.floor(index))):
        raise error("MATLAB:accumarray:nonPosIntSubs",
                    "First input SUBS must contain positive integer subscripts.")
    count = index.shape[0]
    values = to_double_array(vals).reshape(-1, order="F")
    if values.size == 1:
        values = np.full(count, values[0])
    elif values.size != count:
        raise error("MATLAB:accumarray:dimMismatch",
                    "Second input VAL must be a vector with one element for each row in SUBS, or "
                    "a scalar.")
    out_shape = checked_shape(_accum_shape(index, sz))
    linear = np.zeros(count, dtype=np.int64)
    stride = 1
    for d in range(index.shape[1]):
        linear += (index[:, d].astype(np.int64) - 1) * stride
        stride *= out_shape[d]
    total = math.prod(out_shape)
    fill = 0.0 if fillval is None or is_placeholder(fillval) else fillval
    if fun is None or is_placeholder(fun):
        out = np.zeros(total, dtype=values.dtype)
        np.add.at(out, linear, values)
        if fill != 0.0:
            present = np.zeros(total, dtype=bool)
            present[linear] = True
            out = np.where(present, out, to_double_array(fill).reshape(-1)[0])
        return result(out.reshape(fix_shape(out_shape), order="F"))
    return _accumulate_with(interp, fun, linear, values, total, out_shape, fill)


def _accum_shape(index: np.ndarray, sz: Any) -> tuple[int, ...]:
    ndim = index.shape[1]
    needed = [int(index[:, d].max()) if index.shape[0] else 0 for d in range(ndim)]
    if sz is None or is_placeholder(sz):
        return (needed[0], 1) if ndim == 1 else tuple(needed)
    given = to_double_array(sz).reshape(-1).real
    if not np.all(np.isfinite(given)) or np.any(given != np.floor(given)) or np.any(given < 0):
        raise error("MATLAB:accumarray:InvalidSize",
                    "Third input SZ must be a full row vector with one element for each column of SUBS.")
    dims = [int(v) for v in given]
    if ndim == 1 and len(dims) == 2 and dims[1] == 1:
        dims = [dims[0], 1]
    elif len(dims) != max(ndim, 2) or any(n < need for n, need in zip(dims, needed, strict=False)):
        raise error("MATLAB:accumarray:InvalidSize",
                    "Third input SZ must be a full row vector with one element for each column of SUBS.")
    return tuple(dims)


def _accumulate_with(interp: Any, fun: Any, linear: np.ndarray, values: np.ndarray, total: int,
                     out_shape: tuple[int, ...], fill: object) -> object:
    groups: dict[int, list] = {}
    for position, v in zip(linear.tolist(), values.tolist(), strict=True):
        groups.setdefault(position, []).append(v)
    outcomes: dict[int, object] = {}
    for position in sorted(groups):
        column = result(np.array(groups[position], dtype=values.dtype).reshape(-1, 1))
        got = interp.call_value(fun, [column], 1)
        if not got:
            raise error("MATLAB:accumarray:FunReturnedNoValue", "The function must return a value.")
        outcomes[position] = got[0]
    if any(type(v) is Cell for v in outcomes.values()):
        data = np.empty(total, dtype=object)
        for k in range(total):
            got = outcomes.get(k, Cell.filled((1, 1)))
            if type(got) is not Cell or got.shape != (1, 1):
                raise error("MATLAB:accumarray:nonscalarFunOutput",
                            "The function FUN must return a scalar.")
            data[k] = got.data[0, 0]  # A(k) = {v}: the cell holds v itself
        return Cell(data.reshape(fix_shape(out_shape), order="F"))
    for v in outcomes.values():
        if shape_of(v) != (1, 1):
            raise error("MATLAB:accumarray:nonscalarFunOutput",
                        "The function FUN must return a scalar.")
    classes = {class_of(v) for v in outcomes.values()}
    fill_value = to_double_array(fill).reshape(-1)[0]
    out = np.full(total, fill_value, dtype=np.complex128 if any(
        to_double_array(v).dtype.kind == "c" for v in outcomes.values()) else np.float64)
    for k, v in outcomes.items():
        out[k] = to_double_array(v).reshape(-1)[0]
    shaped = out.reshape(fix_shape(out_shape), order="F")
    if len(classes) == 1:
        cls = classes.pop()
        if cls == "logical":
            return result(shaped != 0)
        if cls in INT_CLASSES or cls == "single":
            return finish(shaped, cls)
    return result(shaped)
