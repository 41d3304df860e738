"""Reductions, cumulative operations, searching, sorting and sets.

sum, prod, mean, median, mode, std, var, max, min, any, all, nnz, cumsum,
cumprod, cummax, cummin, diff, trapz, cumtrapz, find, sort, sortrows, issorted,
unique, ismember and accumarray.

Reductions share one scheme: the dimensions being reduced are moved to the
end and folded into one axis (in column-major order), the operation runs
along that last axis, and the result is reshaped to the input's size with
the reduced dimensions set to 1.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.rules_support import expand_along, keepdims_count, replace, select, vecdim
from mlang.builtins.arrays import (
    checked_shape,
    dim_argument,
    first_nonsingleton,
    integer_scalar,
    is_placeholder,
    padded,
    rewrap_shaped,
    shape_of,
    text_option,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import (
    INT_CLASSES,
    char_codes,
    char_from_codes,
    char_row,
    class_of,
    fix_shape,
    is_text,
    result,
    to_array,
    to_double_array,
    to_str,
)
from mlang.values.indexing import data_of
from mlang.values.operators import result_class, to_class
from mlang.values.string import StringArray

_NUMERIC_OR_LOGICAL = frozenset({"double", "single", "logical", "char", *INT_CLASSES})
_DIMS_MESSAGE = ("Dimension argument must be a positive integer scalar or a vector of unique "
                 "positive integers.")

# ------------------------------------------------------------ shared helpers


def _numbers(x: object, name: str) -> np.ndarray:
    """The ndarray of a numeric, logical or char argument."""
    if class_of(x) not in _NUMERIC_OR_LOGICAL:
        raise error(f"MATLAB:{name}:wrongInput",
                    "Invalid data type. First argument must be numeric or logical.")
    return to_array(x)


def _dims_value(v: object) -> list[int]:
    """A dimension or vector of dimensions as sorted 0-based axes."""
    a = to_double_array(v).reshape(-1)
    if a.size == 0 or a.dtype.kind == "c":
        raise error("MATLAB:getdimarg:invalidDim", _DIMS_MESSAGE)
    dims = []
    for x in a:
        if not math.isfinite(x) or x < 1 or x != math.floor(x):
            raise error("MATLAB:getdimarg:invalidDim", _DIMS_MESSAGE)
        dims.append(int(x) - 1)
    if len(set(dims)) != len(dims):
        raise error("MATLAB:getdimarg:invalidDim", _DIMS_MESSAGE)
    return sorted(dims)


def _options(args: tuple | list, flags: frozenset[str]) -> tuple[list[int] | str | None, set[str]]:
    """Split reduction options into dimensions (axes, 'all' or None) and text flags."""
    dims: list[int] | str | None = None
    seen: set[str] = set()
    for v in args:
        text = text_option(v)
        if text is not None:
            if text == "all":
                dims = "all"
            elif text in flags:
                seen.add(text)
            else:
                raise error("MATLAB:invalidOption", f"Invalid option '{to_str(v)}'.")
        elif is_text(v):
            raise error("MATLAB:invalidOption", "Options must be character vectors or string scalars.")
        else:
            dims = _dims_value(v)
    return dims, seen


def _reduce_axes(shape: tuple[int, ...], dims: list[int] | str | None,
                 empty_to_scalar: bool = True) -> list[int]:
    """The axes a reduction runs over.  By default the first non-singleton
    dimension; MATLAB reduces a 0-by-0 input to a scalar (sum([]) is 0)."""
    if dims == "all":
        return list(range(len(shape)))
    if dims is None:
        if empty_to_scalar and shape == (0, 0):
            return [0, 1]
        return [first_nonsingleton(shape)]
    return list(dims)


def _gather(a: np.ndarray, axes: list[int]) -> tuple[np.ndarray, tuple[int, ...]]:
    """``a`` rearranged as kept-dims × K (reduced dims folded, column-major), and
    the shape of the reduction's result."""
    if a.ndim == 2 and len(axes) == 1 and axes[0] < 2:  # the common matrix case
        if axes[0] == 0:
            return a.T, (1, a.shape[1])
        return a, (a.shape[0], 1)
    a = padded(a, max(axes) + 1)
    nd = a.ndim
    kept = [d for d in range(nd) if d not in axes]
    out_shape = tuple(1 if d in axes else a.shape[d] for d in range(nd))
    moved = np.transpose(a, kept + axes)
    k = math.prod(a.shape[d] for d in axes)
    flat = moved.reshape(tuple(a.shape[d] for d in kept) + (k,), order="F")
    return flat, out_shape


def _shaped(values: np.ndarray, out_shape: tuple[int, ...]) -> np.ndarray:
    return values.reshape(fix_shape(out_shape), order="F")


def _float_values(a: np.ndarray) -> np.ndarray:
    """Values to compute with: single stays single, everything else double."""
    k = a.dtype.kind
    if a.dtype == np.float32 or a.dtype == np.complex64:
        return a
    if k == "U":
        return char_codes(a).astype(np.float64)
    if k == "c":
        return a.astype(np.complex128, copy=False)
    return a.astype(np.float64, copy=False)


def _sum_class(cls: str, flags: set[str]) -> str:
    """Class of sum/prod/cumsum: integers and single keep their class, others give double."""
    if "double" in flags:
        return "double"
    if "native" in flags:
        if cls == "char":
            raise error("MATLAB:sum:nativeChar", "'native' is not supported for char inputs.")
        return cls
    if cls in INT_CLASSES or cls == "single":
        return cls
    return "double"


def _finish(values: np.ndarray, cls: str) -> object:
    """Cast computed values to the result class (saturating for integers)."""
    if cls in INT_CLASSES or cls == "logical":
        return result(to_class(values.astype(np.float64) if values.dtype.kind != "c" else values, cls))
    if cls == "single":
        return result(values.astype(np.complex64 if values.dtype.kind == "c" else np.float32))
    if values.dtype.kind == "c":
        return result(values.astype(np.complex128, copy=False))
    return result(values.astype(np.float64, copy=False))


_SUM_FLAGS = frozenset({"double", "native", "default", "omitnan", "includenan"})


def _sum_like(x: object, args: tuple, name: str, op: Any, nan_op: Any) -> object:
    a = _numbers(x, name)
    dims, flags = _options(args, _SUM_FLAGS)
    cls = _sum_class(class_of(x), flags)
    flat, out_shape = _gather(a, _reduce_axes(a.shape, dims))
    values = _float_values(flat)
    if values.dtype == np.float32 and cls != "single":
        values = values.astype(np.float64)
    with np.errstate(all="ignore"):
        out = (nan_op if "omitnan" in flags else op)(values, axis=-1)
    return _finish(_shaped(np.asarray(out), out_shape), cls)


def _nan_omitted(x: Any, options: tuple) -> np.ndarray | None:
    """Where ``x`` is NaN when the options include 'omitnan' (None when nothing is omitted)."""
    if not any(text_option(v) == "omitnan" for v in options):
        return None
    data = ops.data_of(x)
    if data.dtype.kind not in "fc":
        return None
    nan = np.isnan(data)
    return nan if nan.any() else None


def _sum_rule(g: Any, y: Any, x: Any, *options: Any) -> tuple:
    gx = ops.expand_to(g, ops.shape_of(x))
    nan = _nan_omitted(x, options) if options else None
    if nan is not None:
        gx = select(gx, ~nan)
    return (gx,) + (None,) * len(options)


@builtin("sum", gradient=_sum_rule)
def sum_(x: Any, *args: Any) -> object:
    """S = sum(A)
    S = sum(A,'all')
    S = sum(A,dim)
    S = sum(A,vecdim)
    S = sum(___,outtype)
    S = sum(___,nanflag)

    Sum of elements along the first non-singleton dimension (or dim)."""
    if not args and _is_double_vector(x):
        return float(x.sum())  # type: ignore[union-attr]
    if type(x) is float and not args:
        return x
    if len(args) == 1 and type(x) is np.ndarray and x.dtype.kind == "f" and x.size:
        # sum(X, dim) and sum(X, 'all') of a real double or single array: the common
        # forms in numeric code, computed directly
        d = args[0]
        if type(d) is float and d == int(d) and 1 <= d <= x.ndim:
            return result(x.sum(axis=int(d) - 1, keepdims=True))
        if type(d) is np.ndarray and d.dtype.kind == "U" and "".join(d.reshape(-1)).lower() == "all":
            return result(x.sum(keepdims=True).reshape(1, 1))
    return _sum_like(x, args, "sum", np.sum, np.nansum)


def _is_double_vector(x: object) -> bool:
    """A nonempty real double row or column: the common case given a fast path."""
    return type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 and x.size > 0 \
        and (x.shape[0] == 1 or x.shape[1] == 1)


def _prod_rule(g: Any, y: Any, x: Any, *options: Any) -> tuple:
    """Each element's gradient is the product of the others: y./x away from zeros.  With
    zeros, it is the product of the nonzero elements times the zeros other than the element
    itself, kept as traced values where that product can have a nonzero derivative (slices
    with one or two zeros)."""
    def gradient() -> Any:
        data = ops.data_of(x)
        shape = ops.shape_of(x)
        zero = data == 0
        nan = _nan_omitted(x, options)
        skip = zero if nan is None else zero | nan
        if not skip.any():
            return ops.times(ops.expand_to(g, shape), ops.conj(ops.rdivide(y, x)))
        dims, _ = _options(options, _SUM_FLAGS)
        axes = _reduce_axes(data.shape, dims)
        zeros = expand_along(keepdims_count(zero, axes, ops.shape_of(y)), axes, shape)
        ones = replace(x, skip)  # zeros (and omitted NaN) become 1
        nonzero = ops.times(g, ops.conj(ops.call("prod", ones, *options)))
        share = ops.rdivide(ops.expand_to(nonzero, shape), ops.conj(ones))
        # the slice's zeros (value 0, traced), and the product of the zeros but the element
        zsum = ops.expand_to(ops.call("sum", select(x, zero & (zeros <= 2)), vecdim(axes)), shape)
        one_zero = ~skip & (zeros == 1)
        other_zero = zero & (zeros == 2)
        plain = (~skip & (zeros == 0)) | (zero & (zeros == 1))
        factor = ops.plus(ops.plus(select(zsum, one_zero), select(ops.minus(zsum, x), other_zero)),
                          plain * 1.0)
        return select(ops.times(share, ops.conj(factor)), plain | one_zero | other_zero)
    return (gradient,) + (None,) * len(options)


@builtin(gradient=_prod_rule)
def prod(x: Any, *args: Any) -> object:
    """B = prod(A)
    B = prod(A,'all')
    B = prod(A,dim)
    B = prod(A,vecdim)
    B = prod(___,outtype)
    B = prod(___,nanflag)

    Product of elements."""
    return _sum_like(x, args, "prod", np.prod, np.nanprod)


_MEAN_FLAGS = frozenset({"double", "native", "default", "omitnan", "includenan"})


def _mean_rule(g: Any, y: Any, x: Any, *options: Any) -> tuple:
    shape = ops.shape_of(x)
    nan = _nan_omitted(x, options) if options else None
    if nan is None:
        if math.prod(shape) == 0:  # the mean of nothing (NaN) depends on no element
            return (None,) * (1 + len(options))
        count = math.prod(shape) / math.prod(ops.shape_of(y))
        return (ops.times(ops.expand_to(g, shape), 1 / count),) + (None,) * len(options)
    dims, _ = _options(options, _MEAN_FLAGS)
    axes = _reduce_axes(ops.data_of(x).shape, dims)
    counts = keepdims_count(~nan, axes, ops.shape_of(y))
    gx = ops.expand_to(ops.rdivide(g, counts), shape)
    return (select(gx, ~nan),) + (None,) * len(options)


@builtin(gradient=_mean_rule)
def mean(x: Any, *args: Any) -> object:
    """M = mean(A)
    M = mean(A,'all')
    M = mean(A,dim)
    M = mean(A,vecdim)
    M = mean(___,outtype)
    M = mean(___,nanflag)

    Average of elements."""
    if not args and _is_double_vector(x):
        return float(x.sum() / x.size)  # type: ignore[union-attr]
    a = _numbers(x, "mean")
    dims, flags = _options(args, _MEAN_FLAGS)
    cls = class_of(x)
    out_cls = "single" if cls == "single" and "double" not in flags else "double"
    if "native" in flags and cls != "char":
        out_cls = cls
    flat, out_shape = _gather(a, _reduce_axes(a.shape, dims))
    values = _float_values(flat).astype(np.complex128 if flat.dtype.kind == "c" else np.float64)
    with np.errstate(all="ignore"):
        if "omitnan" in flags:
            present = ~np.isnan(values)
            total = np.where(present, values, 0).sum(axis=-1)
            out = total / present.sum(axis=-1)
        else:
            out = values.sum(axis=-1) / values.shape[-1]
    return _finish(_shaped(np.asarray(out), out_shape), out_cls)


@builtin()
def median(x: Any, *args: Any) -> object:
    """M = median(A)
    M = median(A,'all')
    M = median(A,dim)
    M = median(A,vecdim)
    M = median(___,nanflag)

    Median value (NaN when a slice contains NaN, unless 'omitnan')."""
    a = _numbers(x, "median")
    dims, flags = _options(args, frozenset({"omitnan", "includenan", "double", "native", "default"}))
    cls = class_of(x)
    out_cls = cls if cls in INT_CLASSES or cls == "single" else "double"
    flat, out_shape = _gather(a, _reduce_axes(a.shape, dims))
    values = _float_values(flat).astype(np.float64)
    with np.errstate(all="ignore"):
        if values.shape[-1] == 0:
            out = np.full(values.shape[:-1], np.nan)
        elif "omitnan" in flags:
            out = _nanmedian(values)
        else:
            out = np.median(values, axis=-1)
    return _finish(_shaped(np.asarray(out), out_shape), out_cls)


def _nanmedian(values: np.ndarray) -> np.ndarray:
    present = ~np.isnan(values)
    counts = present.sum(axis=-1)
    ordered = np.sort(values, axis=-1)  # NaN sorts last
    out = np.full(values.shape[:-1], np.nan)
    rows = counts > 0
    lo = np.take_along_axis(ordered, np.maximum((counts - 1) // 2, 0)[..., None], axis=-1)[..., 0]
    hi = np.take_along_axis(ordered, np.maximum(counts // 2, 0)[..., None], axis=-1)[..., 0]
    out[rows] = ((lo + hi) / 2)[rows]
    return out


@builtin(max_out=3, nargout=True)
def mode(x: Any, dim: Any = None, *, nargout: int = 1) -> object:
    """M = mode(A)
    M = mode(A,'all')
    M = mode(A,dim)
    [M,F,C] = mode(___)

    Most frequent value (the smallest of equally frequent ones; NaN ignored).
    F is the frequency, C a cell of all most frequent values."""
    a = _numbers(x, "mode")
    dims, _ = _options(() if dim is None else (dim,), frozenset())
    flat, out_shape = _gather(a, _reduce_axes(a.shape, dims))
    values = _float_values(flat)
    rows = values.reshape(math.prod(values.shape[:-1]), values.shape[-1])
    modes = np.empty(rows.shape[0], dtype=values.dtype)
    freqs = np.zeros(rows.shape[0])
    every = []
    for r, row in enumerate(rows):
        row = row[~np.isnan(row)] if row.dtype.kind in "fc" else row
        if row.size == 0:
            modes[r] = np.nan
            every.append(np.full((1, 1), np.nan))
            continue
        uniq, counts = np.unique(row, return_counts=True)
        best = counts.max()
        winners = uniq[counts == best]
        modes[r] = winners[0]
        freqs[r] = best
        every.append(winners.reshape(-1, 1))
    cls = class_of(x)
    m = _finish(_shaped(modes.reshape(values.shape[:-1]), out_shape), "double" if cls == "char" else cls)
    if type(x) is np.ndarray and x.dtype.kind == "U" and nargout <= 1:
        m = result(char_from_codes(to_double_array(m).astype(np.uint32)))
    if nargout <= 1:
        return m
    f = result(_shaped(freqs.reshape(values.shape[:-1]), out_shape))
    cells = np.empty(len(every), dtype=object)
    for k, w in enumerate(every):
        cells[k] = _finish(w, "double" if cls == "char" else cls)
    c = Cell(cells.reshape(values.shape[:-1]).reshape(fix_shape(out_shape), order="F"))
    return (m, f, c)[:nargout]


def _variance_plan(x: object, args: tuple, name: str) \
        -> tuple[np.ndarray, list[int], set[str], np.ndarray | None, bool]:
    """The data of a var/std argument, the axes reduced, the flags, the weights (None when
    not a weight vector) and whether to normalise by N."""
    a = _numbers(x, name)
    weight: Any = None
    rest = list(args)
    if rest and not is_text(rest[0]):
        weight = rest.pop(0)
    dims, flags = _options(rest, frozenset({"omitnan", "includenan"}))
    axes = _reduce_axes(a.shape, dims)
    k = math.prod(padded(a, max(axes) + 1).shape[d] for d in axes)
    weights = None
    normalise_by_n = False
    if weight is not None and not is_placeholder(weight):
        w = to_double_array(weight).reshape(-1).real
        if w.size == 1 and w[0] in (0.0, 1.0):
            normalise_by_n = w[0] == 1.0
        elif w.size == k and np.all(w >= 0):
            weights = w
        else:
            raise error("MATLAB:var:invalidWgts",
                        "W must be a vector of nonnegative weights, or a scalar 0 or 1.")
    return a, axes, flags, weights, normalise_by_n


def _variance(x: object, args: tuple, name: str) -> tuple[np.ndarray, tuple[int, ...], str]:
    a, axes, flags, weights, normalise_by_n = _variance_plan(x, args, name)
    flat, out_shape = _gather(a, axes)
    values = _float_values(flat).astype(np.complex128 if flat.dtype.kind == "c" else np.float64)
    with np.errstate(all="ignore"):
        if weights is not None:
            wsum = weights.sum()
            mu = (values * weights).sum(axis=-1, keepdims=True) / wsum
            out = (np.abs(values - mu) ** 2 * weights).sum(axis=-1) / wsum
        else:
            present = ~np.isnan(values) if "omitnan" in flags else np.ones(values.shape, dtype=bool)
            n = present.sum(axis=-1)
            mu = np.where(present, values, 0).sum(axis=-1, keepdims=True) / n[..., None]
            dev = np.where(present, np.abs(values - mu) ** 2, 0).sum(axis=-1)
            denom = np.where(normalise_by_n | (n == 1), n, n - 1).astype(np.float64)
            out = np.where(n == 0, np.nan, dev / np.where(denom == 0, 1, denom))
    out_cls = "single" if class_of(x) == "single" else "double"
    return np.asarray(out, dtype=np.float64), out_shape, out_cls


def _variance_gradient(g: Any, x: Any, args: tuple, name: str) -> Any:
    """The gradient of var: 2*w.*(x - mean)./denominator, with g given per slice."""
    a, axes, flags, weights, normalise_by_n = _variance_plan(ops.data_of(x), args, name)
    shape = ops.shape_of(x)
    dims = vecdim(axes)
    if weights is not None:
        ndim = max(len(shape), max(axes) + 1)
        full = [1] * ndim
        for d in axes:
            full[d] = padded(a, ndim).shape[d]
        w = weights.reshape([full[d] for d in axes], order="F").reshape(fix_shape(tuple(full)))
        wsum = float(weights.sum())
        mu = ops.rdivide(ops.call("sum", ops.times(x, w), dims), wsum)
        deviation = ops.times(ops.minus(x, ops.expand_to(mu, shape)), w * (2.0 / wsum))
        return ops.times(ops.expand_to(g, shape), deviation)
    omit = "omitnan" in flags and a.dtype.kind in "fc"
    present = ~np.isnan(a) if omit else np.ones(a.shape, dtype=bool)
    n = keepdims_count(present, axes, ops.shape_of(g))
    denom = np.where(normalise_by_n | (n == 1), n, n - 1)
    mu = ops.call("mean", x, dims, char_row("omitnan")) if omit else ops.call("mean", x, dims)
    gx = ops.times(ops.expand_to(ops.rdivide(g, denom / 2.0), shape),
                   ops.minus(x, ops.expand_to(mu, shape)))
    return select(gx, present) if omit and not present.all() else gx


def _var_rule(g: Any, y: Any, x: Any, *args: Any) -> tuple:
    g = ops.real(g)  # the value is real for every input
    return (lambda: _variance_gradient(g, x, args, "var"),) + (None,) * len(args)


def _std_rule(g: Any, y: Any, x: Any, *args: Any) -> tuple:
    g = ops.real(g)  # the value is real for every input
    def gradient() -> Any:
        # d sqrt(v) = dv/(2*sqrt(v)); a constant slice (std 0) gets no gradient
        flat = ops.data_of(y) == 0
        return _variance_gradient(ops.rdivide(g, ops.times(replace(y, flat), 2.0)), x, args, "std")
    return (gradient,) + (None,) * len(args)


@builtin(gradient=_var_rule)
def var(x: Any, *args: Any) -> object:
    """V = var(A)
    V = var(A,w)
    V = var(A,w,'all')
    V = var(A,w,dim)
    V = var(A,w,vecdim)
    V = var(___,nanflag)

    Variance (normalised by N-1, or by N when w is 1; w may be weights)."""
    out, out_shape, cls = _variance(x, args, "var")
    return _finish(_shaped(out, out_shape), cls)


@builtin(gradient=_std_rule)
def std(x: Any, *args: Any) -> object:
    """S = std(A)
    S = std(A,w)
    S = std(A,w,'all')
    S = std(A,w,dim)
    S = std(A,w,vecdim)
    S = std(___,nanflag)

    Standard deviation (the square root of var)."""
    out, out_shape, cls = _variance(x, args, "std")
    return _finish(_shaped(np.sqrt(out), out_shape), cls)


# ------------------------------------------------------------------ max/min


def _extreme_class(x: object) -> str:
    cls = class_of(x)
    return "double" if cls == "char" else cls


def _order_keys(values: np.ndarray) -> np.ndarray:
    """Real keys to compare by: the values, or for complex the magnitude."""
    return np.abs(values) if values.dtype.kind == "c" else values


def _extreme(x: object, args: tuple, nargout: int, largest: bool, name: str) -> object:
    a = _numbers(x, name)
    dims, flags = _options(args, frozenset({"omitnan", "includenan", "linear"}))
    axes = _reduce_axes(a.shape, dims, empty_to_scalar=False)
    flat, out_shape = _gather(a, axes)
    cls = _extreme_class(x)
    if flat.shape[-1] == 0:
        shape = tuple(0 if d in axes else n for d, n in enumerate(padded(a, max(axes) + 1).shape))
        out = _finish(np.zeros(fix_shape(shape)), cls)
        return out if nargout <= 1 else (out, result(np.zeros(fix_shape(shape))))
    values = flat if flat.dtype.kind != "U" else char_codes(flat).astype(np.float64)
    index = _extreme_index(values, largest, "includenan" in flags)
    picked = np.take_along_axis(values, index[..., None], axis=-1)[..., 0]
    m = _finish(_shaped(picked, out_shape), cls)
    if nargout <= 1:
        return m
    if "linear" in flags:
        # the same rearrangement applied to linear positions maps the index back to A
        positions, _ = _gather(np.arange(a.size).reshape(a.shape, order="F"), axes)
        index = np.take_along_axis(positions, index[..., None], axis=-1)[..., 0]
    return m, result(_shaped((index + 1).astype(np.float64), out_shape))


def _extreme_index(values: np.ndarray, largest: bool, include_nan: bool) -> np.ndarray:
    """Index (along the last axis) of the first largest/smallest element.

    NaN is skipped unless every element is NaN (or 'includenan'); complex
    numbers compare by magnitude, then by phase angle."""
    kind = values.dtype.kind
    if kind in "fc":
        nan = np.isnan(values)
        keys = _order_keys(values).astype(np.float64)
        fill = -np.inf if largest else np.inf
        keys = np.where(nan, fill, keys)
        if kind == "c":
            best = keys.max(axis=-1, keepdims=True) if largest else keys.min(axis=-1, keepdims=True)
            angle = np.where(keys == best, np.angle(values), -np.inf if largest else np.inf)
            index = np.argmax(angle, axis=-1) if largest else np.argmin(angle, axis=-1)
        else:
            index = np.argmax(keys, axis=-1) if largest else np.argmin(keys, axis=-1)
        first_nan = np.argmax(nan, axis=-1)
        all_nan = nan.all(axis=-1)
        use_nan = (nan.any(axis=-1) & include_nan) | all_nan
        return np.where(use_nan, first_nan, index)
    if kind == "b":
        values = values.astype(np.int8)
    return np.argmax(values, axis=-1) if largest else np.argmin(values, axis=-1)


def _pairwise(a: object, b: object, largest: bool, include_nan: bool, name: str) -> object:
    for v in (a, b):
        if class_of(v) not in _NUMERIC_OR_LOGICAL:
            raise error("MATLAB:UndefinedFunction",
                        f"Invalid data type. Arguments to {name} must be numeric or logical.")
    cls = result_class(a, b, name)
    if class_of(a) == "logical" and class_of(b) == "logical":
        cls = "logical"
    x, y = to_double_array(a), to_double_array(b)
    x, y = padded(x, y.ndim), padded(y, x.ndim)
    for dx, dy in zip(x.shape, y.shape, strict=True):
        if dx != dy and dx != 1 and dy != 1:
            raise error("MATLAB:sizeDimensionsMustMatch",
                        "Arrays have incompatible sizes for this operation.")
    x, y = np.broadcast_arrays(x, y)
    out = np.where(_second_wins(x, y, largest, include_nan), y, x)
    return _finish(out, cls) if cls != "logical" else result(out != 0)


def _second_wins(x: np.ndarray, y: np.ndarray, largest: bool, include_nan: bool) -> np.ndarray:
    """Where max(x,y) (or min) takes y, for arrays of one size: ties go to x."""
    kx, ky = _order_keys(x), _order_keys(y)
    with np.errstate(invalid="ignore"):
        if x.dtype.kind == "c" or y.dtype.kind == "c":
            ax, ay = np.angle(x), np.angle(y)
            take_y = (ky > kx) | ((ky == kx) & (ay > ax)) if largest else \
                (ky < kx) | ((ky == kx) & (ay < ax))
        else:
            take_y = ky > kx if largest else ky < kx
    nan_x, nan_y = np.isnan(kx), np.isnan(ky)
    take_y = (take_y & ~nan_y) | (nan_x & ~nan_y)
    if include_nan:
        take_y = take_y | nan_y
    return take_y


def _max_min(x: Any, args: tuple, nargout: int, largest: bool, name: str) -> object:
    if not args and nargout <= 1 and _is_double_vector(x):
        value = x.max() if largest else x.min()
        if value == value:  # with NaN present, take the general path (NaN is skipped)
            return float(value)
    if not args:
        return _extreme(x, (), nargout, largest, name)
    second = args[0]
    if len(args) == 2 and not is_placeholder(second) and text_option(args[1]) in ("omitnan", "includenan"):
        return _pairwise(x, second, largest, text_option(args[1]) == "includenan", name)
    if len(args) >= 2 or is_placeholder(second) and len(args) >= 2:
        if not is_placeholder(second):
            raise error("MATLAB:max:secondInputNotEmpty" if largest else "MATLAB:min:secondInputNotEmpty",
                        f"{name.upper()} with two matrices to compare and a working dimension is "
                        "not supported.")
        return _extreme(x, args[1:], nargout, largest, name)
    if text_option(second) is not None:
        raise error("MATLAB:invalidOption", f"Invalid option '{to_str(second)}'.")
    if nargout > 1:
        raise error(f"MATLAB:{name}:TwoInTwoOutCaseNotSupported",
                    f"{name.upper()} with two matrices to compare and two output arguments is not "
                    "supported.")
    return _pairwise(x, second, largest, False, name)


def extreme_positions(a: np.ndarray, options: tuple, largest: bool) -> np.ndarray:
    """0-based linear positions in ``a`` of the elements max(a,[],options...) (or min) picks."""
    name = "max" if largest else "min"
    _, index = _extreme(a, tuple(options) + (char_row("linear"),), 2, largest, name)
    return (to_double_array(index).reshape(-1, order="F") - 1).astype(np.intp)


def _extreme_rule(largest: bool) -> Any:
    """The gradient of max or min: all of it to the selected element (the first on ties);
    for max(A,B)/min(A,B), to the selected operand, elementwise (A on ties)."""

    def rule(g: Any, y: Any, x: Any, *args: Any) -> tuple:
        rest = (None,) * len(args)
        a = ops.data_of(x)
        if _pairwise_form(args):
            b = ops.data_of(args[0])
            include_nan = len(args) == 2 and text_option(args[1]) == "includenan"
            fa, fb = to_double_array(a), to_double_array(b)
            fa, fb = padded(fa, fb.ndim), padded(fb, fa.ndim)
            fa, fb = np.broadcast_arrays(fa, fb)
            second = _second_wins(fa, fb, largest, include_nan).reshape(ops.shape_of(g))
            return (lambda: ops.unbroadcast(select(g, ~second), x),
                    lambda: ops.unbroadcast(select(g, second), args[0])) + rest[1:]
        positions = extreme_positions(a, tuple(args[1:]), largest)
        return (lambda: ops.put(g, positions, ops.shape_of(x)),) + rest

    return rule


def _pairwise_form(args: tuple) -> bool:
    """Whether max/min arguments after the first are the two-array form (B[, nanflag])."""
    if len(args) == 1:
        return text_option(args[0]) is None
    return len(args) == 2 and not is_placeholder(args[0]) and \
        text_option(args[1]) in ("omitnan", "includenan")


@builtin(max_out=2, nargout=True, gradient=_extreme_rule(True))
def max_(x: Any, *args: Any, nargout: int = 1) -> object:
    """M = max(A)
    M = max(A,[],dim)
    M = max(A,[],'all')
    M = max(A,[],vecdim)
    M = max(A,[],___,nanflag)
    [M,I] = max(___)
    C = max(A,B)

    Largest elements (NaN ignored unless 'includenan'); I gives their index."""
    return _max_min(x, args, nargout, True, "max")


@builtin(max_out=2, nargout=True, gradient=_extreme_rule(False))
def min_(x: Any, *args: Any, nargout: int = 1) -> object:
    """M = min(A)
    M = min(A,[],dim)
    M = min(A,[],'all')
    M = min(A,[],vecdim)
    M = min(A,[],___,nanflag)
    [M,I] = min(___)
    C = min(A,B)

    Smallest elements (NaN ignored unless 'includenan'); I gives their index."""
    return _max_min(x, args, nargout, False, "min")


# ------------------------------------------------------------ cumulative


def _cumulative_args(a: np.ndarray, args: tuple, flags: frozenset[str]) -> tuple[int, set[str]]:
    axis = None
    seen: set[str] = set()
    for v in args:
        text = text_option(v)
        if text is not None:
            if text not in flags:
                raise error("MATLAB:invalidOption", f"Invalid option '{to_str(v)}'.")
            seen.add(text)
        else:
            axis = dim_argument(v)
    return (first_nonsingleton(a.shape) if axis is None else axis), seen


def _along_last(a: np.ndarray, axis: int) -> np.ndarray:
    return np.moveaxis(padded(a, axis + 1), axis, -1)


def _back(values: np.ndarray, axis: int) -> np.ndarray:
    out = np.moveaxis(values, -1, axis)
    return out.reshape(fix_shape(out.shape))


_CUM_FLAGS = frozenset({"forward", "reverse", "omitnan", "includenan", "double", "native", "default"})


def _cumulative(x: object, args: tuple, name: str, op: Any, neutral: float) -> object:
    a = _numbers(x, name)
    axis, flags = _cumulative_args(a, args, _CUM_FLAGS)
    cls = _sum_class(class_of(x), flags)
    values = _float_values(_along_last(a, axis))
    if values.dtype == np.float32 and cls != "single":
        values = values.astype(np.float64)
    if "omitnan" in flags:
        values = np.where(np.isnan(values), neutral, values)
    reverse = "reverse" in flags
    if reverse:
        values = values[..., ::-1]
    with np.errstate(all="ignore"):
        out = op(values, axis=-1)
    if reverse:
        out = out[..., ::-1]
    return _finish(_back(out, axis), cls)


def _cumulative_plan(x: Any, args: tuple) -> tuple[int, set[str], Any]:
    """The axis and flags of a cumulative operation, and the dimension and direction
    arguments that run the adjoint cumulative sum (the opposite direction)."""
    axis, flags = _cumulative_args(ops.data_of(x), args, _CUM_FLAGS)
    back = char_row("forward" if "reverse" in flags else "reverse")
    return axis, flags, (float(axis + 1), back)


def _cumsum_rule(g: Any, y: Any, x: Any, *args: Any) -> tuple:
    def gradient() -> Any:
        _, _, adjoint = _cumulative_plan(x, args)
        gx = ops.call("cumsum", g, *adjoint)
        nan = _nan_omitted(x, args)
        return gx if nan is None else select(gx, ~nan)
    return (gradient,) + (None,) * len(args)


@builtin(gradient=_cumsum_rule)
def cumsum(x: Any, *args: Any) -> object:
    """B = cumsum(A)
    B = cumsum(A,dim)
    B = cumsum(___,direction)
    B = cumsum(___,nanflag)

    Cumulative sum."""
    return _cumulative(x, args, "cumsum", np.cumsum, 0.0)


def _cumprod_rule(g: Any, y: Any, x: Any, *args: Any) -> tuple:
    """dL/dx(j) = sum over k >= j of g(k)*y(k)/x(j) (k runs in the direction of the product).
    With zeros, that formula holds before a slice's first zero z; at z the products taken
    with z as 1 give the gradient; after z the products hold the factor x(z), kept as a
    traced value so second derivatives stay right (up to the second zero)."""
    def gradient() -> Any:
        axis, flags, adjoint = _cumulative_plan(x, args)
        data = ops.data_of(x)
        nan = _nan_omitted(x, args)
        clean = x if nan is None else replace(x, nan)  # 'omitnan' takes NaN as 1
        zero = data == 0

        def tail_sum(v: Any) -> Any:  # sum over k >= j of v(k)
            return ops.call("cumsum", v, *adjoint)

        if not zero.any():
            gx = ops.rdivide(tail_sum(ops.times(g, ops.conj(y))), ops.conj(clean))
            return gx if nan is None else select(gx, ~nan)
        reverse = "reverse" in flags
        seen = _along_last(zero, axis)  # zeros met so far, in the product's direction
        seen = np.cumsum(seen[..., ::-1] if reverse else seen, axis=-1)
        seen = _back(seen[..., ::-1] if reverse else seen, axis).reshape(data.shape)
        live = ~nan if nan is not None else np.ones(data.shape, dtype=bool)
        first = zero & (seen == 1)
        second = zero & (seen == 2)
        between = ~zero & (seen == 1) & live
        direction = char_row("reverse" if reverse else "forward")
        divisor = ops.conj(replace(clean, zero))
        before = ops.rdivide(tail_sum(ops.times(g, ops.conj(y))), divisor)
        without = ops.call("cumprod", replace(clean, first), adjoint[0], direction)
        with_first = tail_sum(ops.times(g, ops.conj(without)))
        gx = ops.plus(select(before, (seen == 0) & live), select(with_first, first))
        if not (between.any() or second.any()):
            return gx
        z = ops.conj(ops.expand_to(ops.call("sum", select(x, first), adjoint[0]), data.shape))
        gx = ops.plus(gx, select(ops.times(z, ops.rdivide(with_first, divisor)), between))
        if second.any():
            without2 = ops.call("cumprod", replace(clean, first | second), adjoint[0], direction)
            with_both = tail_sum(ops.times(g, ops.conj(without2)))
            gx = ops.plus(gx, select(ops.times(z, with_both), second))
        return gx
    return (gradient,) + (None,) * len(args)


@builtin(gradient=_cumprod_rule)
def cumprod(x: Any, *args: Any) -> object:
    """B = cumprod(A)
    B = cumprod(A,dim)
    B = cumprod(___,direction)
    B = cumprod(___,nanflag)

    Cumulative product."""
    return _cumulative(x, args, "cumprod", np.cumprod, 1.0)


def _running_extreme(x: object, args: tuple, largest: bool, name: str) -> object:
    a = _numbers(x, name)
    axis, flags = _cumulative_args(a, args, frozenset({"forward", "reverse", "omitnan", "includenan"}))
    cls = _extreme_class(x)
    values = _along_last(a, axis)
    if values.dtype.kind == "U":
        values = char_codes(values).astype(np.float64)
    reverse = "reverse" in flags
    if reverse:
        values = values[..., ::-1]
    if values.dtype.kind == "f":
        ufunc = (np.maximum if largest else np.minimum) if "includenan" in flags else \
            (np.fmax if largest else np.fmin)  # fmax/fmin skip NaN
    else:
        ufunc = np.maximum if largest else np.minimum
    out = ufunc.accumulate(values, axis=-1) if values.shape[-1] else values
    if reverse:
        out = out[..., ::-1]
    out = _back(out, axis)
    return result(out) if cls == "logical" else _finish(out, cls)


@builtin()
def cummax(x: Any, *args: Any) -> object:
    """M = cummax(A)
    M = cummax(A,dim)
    M = cummax(___,direction)
    M = cummax(___,nanflag)

    Cumulative maximum (NaN ignored unless 'includenan')."""
    return _running_extreme(x, args, True, "cummax")


@builtin()
def cummin(x: Any, *args: Any) -> object:
    """M = cummin(A)
    M = cummin(A,dim)
    M = cummin(___,direction)
    M = cummin(___,nanflag)

    Cumulative minimum (NaN ignored unless 'includenan')."""
    return _running_extreme(x, args, False, "cummin")


@builtin()
def diff(x: Any, n: Any = None, dim: Any = None) -> object:
    """Y = diff(X)
    Y = diff(X,n)
    Y = diff(X,n,dim)

    Differences between adjacent elements (n-th order), along the first
    non-singleton dimension or dim."""
    a = _numbers(x, "diff")
    order = 1
    if n is not None and not is_placeholder(n):
        order = integer_scalar(n, "Difference order N must be a positive integer scalar.",
                               "MATLAB:diff:differenceOrderMustBePositiveInteger")
        if order < 0:
            raise error("MATLAB:diff:differenceOrderMustBePositiveInteger",
                        "Difference order N must be a positive integer scalar.")
    cls = class_of(x)
    out_cls = cls if cls in INT_CLASSES or cls == "single" else "double"
    values = _float_values(a).astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    if order == 0:
        return _finish(values, out_cls)
    if dim is not None:
        axis = dim_argument(dim)
        values = padded(values, axis + 1)
        for _ in range(order):
            if values.shape[axis] == 0:
                break
            values = np.diff(values, axis=axis)
        return _finish(values.reshape(fix_shape(values.shape)), out_cls)
    start = first_nonsingleton(values.shape)
    for _ in range(order):
        # Along the first non-singleton dimension; once it is down to one
        # element, MATLAB carries on along the next non-singleton one, and
        # with none left the result is empty.
        axis = first_nonsingleton(values.shape)
        if values.shape[axis] == 1:
            shape = list(values.shape)
            shape[start] = 0
            values = np.zeros(shape, dtype=values.dtype)
            break
        if values.shape[axis] == 0:
            break
        values = np.diff(values, axis=axis)
    return _finish(values.reshape(fix_shape(values.shape)), out_cls)


# ----------------------------------------------------------- integration


def _trapz_args(args: tuple) -> tuple[np.ndarray | None, np.ndarray, int | None]:
    if len(args) == 1:
        return None, to_double_array(args[0]), None
    if len(args) == 2:
        first, second = args
        if shape_of(second) == (1, 1) and shape_of(first) != (1, 1):
            return None, to_double_array(first), dim_argument(second)
        return to_double_array(first), to_double_array(second), None
    if len(args) == 3:
        return to_double_array(args[0]), to_double_array(args[1]), dim_argument(args[2])
    raise error("MATLAB:TooManyInputs", "Too many input arguments.")


def _spacing(x: np.ndarray | None, k: int) -> np.ndarray:
    if x is None:
        return np.ones(max(k - 1, 0))
    if x.size == 1:
        return np.full(max(k - 1, 0), x.reshape(-1)[0])
    if x.size != k:
        raise error("MATLAB:trapz:LengthXMismatchY",
                    "Length of X must match the length of Y in the dimension of integration.")
    return np.diff(x.reshape(-1))


@builtin()
def trapz(*args: Any) -> object:
    """Q = trapz(Y)
    Q = trapz(X,Y)
    Q = trapz(___,dim)

    Trapezoidal numerical integration."""
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    x, y, axis = _trapz_args(args)
    if axis is None:
        axis = first_nonsingleton(y.shape)
    values = _along_last(y, axis)
    k = values.shape[-1]
    h = _spacing(x, k)
    out = (h * (values[..., 1:] + values[..., :-1]) / 2).sum(axis=-1) if k > 1 else \
        np.zeros(values.shape[:-1], dtype=values.dtype)
    return result(_back(out[..., None], axis))


@builtin()
def cumtrapz(*args: Any) -> object:
    """Q = cumtrapz(Y)
    Q = cumtrapz(X,Y)
    Q = cumtrapz(___,dim)

    Cumulative trapezoidal numerical integration."""
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    x, y, axis = _trapz_args(args)
    if axis is None:
        axis = first_nonsingleton(y.shape)
    values = _along_last(y, axis)
    k = values.shape[-1]
    h = _spacing(x, k)
    with np.errstate(all="ignore"):  # Inf - Inf gives NaN, as in MATLAB
        steps = h * (values[..., 1:] + values[..., :-1]) / 2
    zero = np.zeros(values.shape[:-1] + (min(k, 1),), dtype=values.dtype)
    out = np.concatenate([zero, np.cumsum(steps, axis=-1)], axis=-1)
    return result(_back(out, axis))


# ------------------------------------------------------------- any / all


def _truth(x: object, name: str) -> np.ndarray:
    a = _numbers(x, name)
    if a.dtype.kind == "U":
        return char_codes(a) != 0
    return a


def _any_all(x: object, dim: Any, name: str, reducer: Any) -> object:
    if type(x) is bool and dim is None:
        return x
    a = _truth(x, name)
    dims, _ = _options(() if dim is None else (dim,), frozenset())
    flat, out_shape = _gather(a, _reduce_axes(a.shape, dims))
    if flat.dtype.kind in "fc":
        # NaN is ignored: for any it counts as zero, for all as nonzero
        nan = np.isnan(flat)
        truth = (flat != 0) & ~nan if name == "any" else (flat != 0) | nan
    else:
        truth = flat != 0
    return result(_shaped(reducer(truth, axis=-1), out_shape))


@builtin(dl="data")
def any_(x: Any, dim: Any = None) -> object:
    """B = any(A)
    B = any(A,'all')
    B = any(A,dim)
    B = any(A,vecdim)

    True where any element along the dimension is nonzero (NaN ignored)."""
    return _any_all(x, dim, "any", np.any)


@builtin(dl="data")
def all_(x: Any, dim: Any = None) -> object:
    """B = all(A)
    B = all(A,'all')
    B = all(A,dim)
    B = all(A,vecdim)

    True where every element along the dimension is nonzero."""
    return _any_all(x, dim, "all", np.all)


@builtin(dl="data")
def nnz(x: Any) -> float:
    """N = nnz(X)

    Number of nonzero elements."""
    a = _truth(x, "nnz")
    return float(np.count_nonzero(a))


# ------------------------------------------------------------------ find


@builtin(max_out=3, nargout=True, dl="data")
def find(x: Any, n: Any = None, direction: Any = None, *, nargout: int = 1) -> object:
    """k = find(X)
    k = find(X,n)
    k = find(X,n,direction)
    [row,col] = find(___)
    [row,col,v] = find(___)

    Indices of nonzero elements: the first (or, with 'last', the last) n of them."""
    a = _truth(x, "find")
    positions = np.flatnonzero(a.reshape(-1, order="F"))
    if n is not None:
        message = "Second argument must be a positive scalar integer."
        count = integer_scalar(n, message, "MATLAB:find:nonIntegerNumberOfElements")
        if count < 1:
            raise error("MATLAB:find:nonIntegerNumberOfElements", message)
        where = "first" if direction is None else text_option(direction)
        if where not in ("first", "last"):
            raise error("MATLAB:find:invalidDirection", "Direction must be 'first' or 'last'.")
        positions = positions[:count] if where == "first" else positions[-count:]
    shape = a.shape
    # a row (or scalar) input gives rows, [] gives [], anything else columns
    if shape == (0, 0):
        out_shape: tuple[int, int] = (0, 0)
    elif len(shape) == 2 and shape[0] == 1:
        out_shape = (1, positions.size)
    else:
        out_shape = (positions.size, 1)
    if nargout <= 1:
        return result((positions + 1).astype(np.float64).reshape(out_shape))
    height = max(shape[0], 1)
    r = result((positions % height + 1).astype(np.float64).reshape(out_shape))
    c = result((positions // height + 1).astype(np.float64).reshape(out_shape))
    if nargout == 2:
        return r, c
    picked = to_array(x).reshape(-1, order="F")[positions].reshape(out_shape)
    return r, c, result(picked)


# ------------------------------------------------------------------- sorting


def _text_ranks(data: np.ndarray) -> np.ndarray:
    """Integer ranks of the texts of a cellstr / string array (same shape);
    missing strings rank after every text."""
    flat = data.reshape(-1)
    texts = []
    for v in flat:
        if v is None:
            texts.append(None)
        elif type(v) is str:
            texts.append(v)
        elif type(v) is np.ndarray and v.dtype.kind == "U" and (v.ndim == 2 and v.shape[0] <= 1):
            texts.append("".join(v.reshape(-1).tolist()))
        else:
            raise error("MATLAB:sort:InputType",
                        "Only cell arrays of character vectors can be sorted.")
    present = sorted({t for t in texts if t is not None})
    rank = {t: k for k, t in enumerate(present)}
    out = np.array([len(present) if t is None else rank[t] for t in texts], dtype=np.int64)
    return out.reshape(data.shape)


def _sort_keys(values: np.ndarray) -> list[np.ndarray]:
    """Sort keys, most significant last (np.lexsort's convention)."""
    if values.dtype.kind == "c":
        return [np.angle(values), np.abs(values)]
    if values.dtype.kind == "U":
        return [char_codes(values)]
    if values.dtype.kind == "b":
        return [values.astype(np.int8)]
    return [values]


def _stable_order(keys: list[np.ndarray], descending: bool) -> np.ndarray:
    """Stable ordering along the last axis; descending keeps equal elements in
    their original order and puts NaN first (ascending puts it last)."""
    if descending:
        reversed_keys = [k[..., ::-1] for k in keys]
        order = np.lexsort(reversed_keys, axis=-1) if len(keys) > 1 else \
            np.argsort(reversed_keys[0], axis=-1, kind="stable")
        return (keys[0].shape[-1] - 1 - order)[..., ::-1]
    if len(keys) > 1:
        return np.lexsort(keys, axis=-1)
    return np.argsort(keys[0], axis=-1, kind="stable")


@builtin(max_out=2, nargout=True)
def sort(x: Any, *args: Any, nargout: int = 1) -> object:
    """B = sort(A)
    B = sort(A,dim)
    B = sort(___,direction)
    [B,I] = sort(___)

    Sort in ascending (or 'descend'ing) order along the first non-singleton
    dimension; I holds the original positions. Cell arrays of character
    vectors and string arrays sort by text."""
    data = data_of(x)
    axis = None
    descending = False
    for v in args:
        text = text_option(v)
        if text is not None:
            if text not in ("ascend", "descend"):
                raise error("MATLAB:sort:sortDirection", "Sorting direction must be 'ascend' or 'descend'.")
            descending = text == "descend"
        else:
            axis = dim_argument(v)
    if axis is None:
        axis = first_nonsingleton(data.shape)
    if type(x) is Cell or type(x) is StringArray:
        keys_source = _text_ranks(data)
        keys = [_along_last(keys_source, axis)]
    elif class_of(x) in _NUMERIC_OR_LOGICAL:
        keys = _sort_keys(_along_last(data, axis))
    else:
        raise error("MATLAB:sort:InputType", f"Invalid data type. Cannot sort values of class {class_of(x)}.")
    moved = _along_last(data, axis)
    order = _stable_order(keys, descending) if moved.shape[-1] > 1 else \
        np.zeros(moved.shape, dtype=np.intp)
    ordered = np.take_along_axis(moved, order, axis=-1)
    b = rewrap_shaped(x, np.moveaxis(ordered, -1, axis)) if type(x) is not np.ndarray else \
        result(_back(ordered, axis))
    if nargout <= 1:
        return b
    return b, result(_back((order + 1).astype(np.float64), axis))


def _column_ranks(column: np.ndarray) -> np.ndarray:
    """Dense ranks of a column's values (equal values share a rank; NaN ranks last)."""
    keys = _sort_keys(column)
    order = np.lexsort(keys) if len(keys) > 1 else np.argsort(keys[0], kind="stable")
    ranks = np.empty(column.size, dtype=np.int64)
    ordered = column[order]
    same = np.zeros(column.size, dtype=bool)
    if column.size > 1:
        with np.errstate(invalid="ignore"):
            same[1:] = ordered[1:] == ordered[:-1]
        if ordered.dtype.kind in "fc":
            same[1:] |= np.isnan(ordered[1:]) & np.isnan(ordered[:-1])
    ranks[order] = np.cumsum(~same) - 1
    return ranks


def _rows_of(x: object) -> tuple[np.ndarray, bool]:
    """Row keys of a matrix (numeric/char) or of a cellstr (one text per row)."""
    if type(x) is Cell:
        ranks = _text_ranks(x.data)
        return ranks.reshape(ranks.shape[0], math.prod(ranks.shape[1:])), True
    a = to_array(x)
    if a.ndim != 2:
        raise error("MATLAB:sortrows:inputDimensionMismatch", "X must be a 2-D matrix.")
    return a, False


@builtin(max_out=2, nargout=True)
def sortrows(x: Any, column: Any = None, direction: Any = None, *, nargout: int = 1) -> object:
    """B = sortrows(A)
    B = sortrows(A,column)
    B = sortrows(___,direction)
    [B,index] = sortrows(___)

    Sort the rows of a matrix (or cell array of character vectors) by the
    given columns; a negative column sorts that column in descending order."""
    rows, _ = _rows_of(x)
    ncols = rows.shape[1]
    descending_all = False
    if column is not None and text_option(column) is not None:
        column, direction = None, column
    if direction is not None:
        text = text_option(direction)
        if text not in ("ascend", "descend"):
            raise error("MATLAB:sortrows:sortDirection", "Sorting direction must be 'ascend' or 'descend'.")
        descending_all = text == "descend"
    if column is None or is_placeholder(column):
        spec = [(c, descending_all) for c in range(ncols)]
    else:
        v = to_double_array(column).reshape(-1).real
        if np.any(v == 0) or np.any(np.abs(v) > ncols) or np.any(v != np.floor(v)):
            raise error("MATLAB:sortrows:COLmismatchX",
                        "Column sorting vector must contain integers with magnitude between 1 and "
                        "the number of columns in the first input.")
        spec = [(int(abs(c)) - 1, (c < 0) != descending_all) for c in v]
    keys = []
    for c, desc in reversed(spec):  # lexsort: the last key is the primary one
        ranks = _column_ranks(rows[:, c])
        keys.append(-ranks if desc else ranks)
    order = np.lexsort(keys) if keys else np.arange(rows.shape[0])
    data = data_of(x)
    b = rewrap_shaped(x, data[order]) if type(x) is not np.ndarray else result(data[order])
    if nargout <= 1:
        return b
    return b, result((order + 1).astype(np.float64).reshape(-1, 1))


_DIRECTIONS = ("ascend", "descend", "monotonic", "strictascend", "strictdescend", "strictmonotonic")


def _issorted_options(args: tuple) -> tuple[int | None, str, bool, str, str]:
    """dim, direction, 'rows', MissingPlacement and ComparisonMethod of issorted."""
    axis = None
    direction = "ascend"
    rows = False
    missing = "auto"
    method = "auto"
    rest = list(args)
    while rest:
        v = rest.pop(0)
        text = text_option(v)
        if text is None:
            if is_text(v) or axis is not None:
                raise error("MATLAB:issorted:InvalidOption", "Invalid option.")
            axis = dim_argument(v)
        elif text in _DIRECTIONS:
            direction = text
        elif text == "rows":
            rows = True
        elif text in ("missingplacement", "comparisonmethod"):
            if not rest:
                raise error("MATLAB:issorted:NameValuePairs", "Name-value arguments must come in pairs.")
            choice = text_option(rest.pop(0))
            allowed = ("auto", "first", "last") if text == "missingplacement" else ("auto", "real", "abs")
            if choice not in allowed:
                raise error("MATLAB:issorted:InvalidOption",
                            f"Value of '{to_str(v)}' must be " + ", ".join(f"'{a}'" for a in allowed) + ".")
            if text == "missingplacement":
                missing = choice
            else:
                method = choice
        else:
            raise error("MATLAB:issorted:InvalidOption", f"Invalid option '{to_str(v)}'.")
    return axis, direction, rows, missing, method


def _issorted_keys(x: object, method: str) -> tuple[list[np.ndarray], np.ndarray]:
    """Sort keys (most significant last) and where the elements are missing (NaN)."""
    if type(x) is Cell or type(x) is StringArray:
        data = data_of(x)
        missing = np.array([v is None for v in data.reshape(-1)]).reshape(data.shape)
        return [_text_ranks(data)], missing
    if class_of(x) not in _NUMERIC_OR_LOGICAL:
        raise error("MATLAB:issorted:InvalidInput",
                    f"Invalid data type. Cannot check the order of values of class {class_of(x)}.")
    values = to_array(x)
    if values.dtype.kind == "U":
        return [char_codes(values)], np.zeros(values.shape, dtype=bool)
    if values.dtype.kind == "b":
        return [values.astype(np.int8)], np.zeros(values.shape, dtype=bool)
    missing = np.isnan(values) if values.dtype.kind in "fc" else np.zeros(values.shape, dtype=bool)
    if method == "abs" or method == "auto" and values.dtype.kind == "c":
        return [np.angle(values), np.abs(values)], missing
    if values.dtype.kind == "c":
        return [values.imag, values.real], missing
    return [values], missing


def _in_order(keys: list[np.ndarray], missing: np.ndarray, descending: bool, strict: bool,
              placement: str) -> bool:
    """Whether every slice along the last axis is in order (missing values first or last)."""
    if missing.shape[-1] < 2:
        return True
    if placement == "auto":
        placement = "first" if descending else "last"
    before, after = missing[..., :-1], missing[..., 1:]
    if np.any(before & ~after if placement == "last" else ~before & after):
        return False
    both = ~before & ~after
    earlier, later = (1, 0) if descending else (0, 1)
    less = np.zeros(both.shape, dtype=bool)
    equal = np.ones(both.shape, dtype=bool)
    for key in reversed(keys):  # most significant first
        pairs = (key[..., :-1], key[..., 1:])
        a, b = pairs[earlier], pairs[later]
        with np.errstate(invalid="ignore"):
            less |= equal & (a < b)
            equal &= a == b
    good = less if strict else less | equal
    return bool(np.all(good | ~both))


@builtin(dl="data")
def issorted(x: Any, *args: Any) -> bool:
    """TF = issorted(A)
    TF = issorted(A,dim)
    TF = issorted(___,direction)
    TF = issorted(___,Name,Value)
    TF = issorted(A,'rows')

    True when A is sorted along the first dimension whose size is not 1 (or dim):
    direction 'ascend' (default), 'descend', 'monotonic', 'strictascend', 'strictdescend'
    or 'strictmonotonic'; 'MissingPlacement' ('auto', 'first', 'last') places NaN and
    'ComparisonMethod' ('auto', 'real', 'abs') orders complex numbers."""
    axis, direction, rows, missing_at, method = _issorted_options(args)
    if rows:
        keys_rows, _ = _rows_of(x)
        ranks = [_column_ranks(keys_rows[:, c]) for c in range(keys_rows.shape[1])]
        keys = [r.reshape(1, -1) for r in reversed(ranks)]
        none = np.zeros((1, keys_rows.shape[0]), dtype=bool)
        checks = [direction.replace("monotonic", "ascend"), direction.replace("monotonic", "descend")]
        return any(_in_order(keys, none, "descend" in c, "strict" in c, missing_at) for c in checks)
    keys, missing = _issorted_keys(x, method)
    shape = missing.shape
    if axis is None:
        axis = first_nonsingleton(shape)
    keys = [_along_last(k, axis) for k in keys]
    missing = _along_last(missing, axis)
    if direction.endswith("monotonic"):
        strict = direction.startswith("strict")
        return (_in_order(keys, missing, False, strict, missing_at)
                or _in_order(keys, missing, True, strict, missing_at))
    return _in_order(keys, missing, "descend" in direction, direction.startswith("strict"), missing_at)


# ------------------------------------------------------------------ sets


def _set_elements(x: object) -> tuple[np.ndarray, str]:
    """Flat (column-major) element keys of a set argument and their kind:
    'number' (float/complex values) or 'text' (Python strings)."""
    t = type(x)
    if t is Cell:
        texts = []
        for v in x.values():
            if not (type(v) is np.ndarray and v.dtype.kind == "U" or type(v) is StringArray):
                raise error("MATLAB:ISMEMBER:InputClass",
                            "Input A of class cell and input B of class cell must be cell arrays of "
                            "character vectors, unless one is a character vector.")
            texts.append(to_str(v) if type(v) is not np.ndarray or v.size else "")
        return np.array(texts, dtype=object), "text"
    if t is StringArray:
        return np.array(list(x.data.reshape(-1, order="F")), dtype=object), "text"
    if class_of(x) not in _NUMERIC_OR_LOGICAL:
        raise error("MATLAB:UndefinedFunction", f"Invalid data type: {class_of(x)}.")
    return to_double_array(x).reshape(-1, order="F"), "number"


def _oriented(values: np.ndarray, row: bool) -> np.ndarray:
    return values.reshape(1, -1) if row else values.reshape(-1, 1)


def _unique_groups(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort order of flat keys and the group number of each sorted position.
    Every NaN is its own group (NaN ~= NaN)."""
    order = np.argsort(keys, kind="stable") if keys.dtype.kind != "c" else \
        np.lexsort([np.angle(keys), np.abs(keys)])
    ordered = keys[order]
    new = np.ones(keys.size, dtype=bool)
    if keys.size > 1:
        with np.errstate(invalid="ignore"):
            new[1:] = ordered[1:] != ordered[:-1]
    return order, np.cumsum(new) - 1


@builtin(max_out=3, nargout=True)
def unique(x: Any, *options: Any, nargout: int = 1) -> object:
    """C = unique(A)
    C = unique(A,setOrder)
    C = unique(A,occurrence)
    C = unique(A,'rows')
    [C,ia,ic] = unique(___)

    Unique values in sorted order (or 'stable' order of first appearance):
    C = A(ia) and A = C(ic)."""
    flags = set()
    for v in options:
        text = text_option(v)
        if text not in ("sorted", "stable", "rows", "first", "last", "legacy"):
            raise error("MATLAB:UNIQUE:UnknownInput", "Unknown input.")
        flags.add(text)
    if "rows" in flags and type(x) is not Cell and type(x) is not StringArray:
        return _unique_rows(x, flags, nargout)
    keys, kind = _set_elements(x)
    if kind == "text":
        keys = _text_ranks(keys).astype(np.float64) if keys.size else np.zeros(0)
    order, group = _unique_groups(keys)
    count = int(group[-1]) + 1 if group.size else 0
    pick = "last" if "last" in flags else "first"
    first = np.full(count, keys.size, dtype=np.int64)
    last = np.full(count, -1, dtype=np.int64)
    np.minimum.at(first, group, order)
    np.maximum.at(last, group, order)
    ia = first if pick == "first" else last
    group_order = np.arange(count)
    if "stable" in flags:
        group_order = np.argsort(first, kind="stable")
    ia = ia[group_order]
    shape = shape_of(x)
    row = len(shape) == 2 and shape[0] == 1 and shape[1] >= 1 or shape == (1, 0)
    data = data_of(x).reshape(-1, order="F")
    c_data = _oriented(data[ia], row)
    c = rewrap_shaped(x, c_data) if type(x) is not np.ndarray else result(c_data)
    if nargout <= 1:
        return c
    rank_of_group = np.empty(count, dtype=np.int64)
    rank_of_group[group_order] = np.arange(count)
    ic = np.empty(keys.size, dtype=np.int64)
    ic[order] = rank_of_group[group]
    return (c, result((ia + 1).astype(np.float64).reshape(-1, 1)),
            result((ic + 1).astype(np.float64).reshape(-1, 1)))[:nargout]


def _unique_rows(x: object, flags: set[str], nargout: int) -> object:
    a = to_array(x)
    if a.ndim != 2:
        raise error("MATLAB:UNIQUE:ANotAMatrix", "A must be a 2-D matrix when 'rows' is specified.")
    nrows = a.shape[0]
    ranks = [_column_ranks(a[:, c]) for c in range(a.shape[1])]
    nan_rows = np.zeros(nrows, dtype=bool)
    if a.dtype.kind in "fc":
        nan_rows = np.isnan(a).any(axis=1)
    order = np.lexsort(list(reversed(ranks))) if ranks else np.arange(nrows)
    new = np.ones(nrows, dtype=bool)
    if nrows > 1 and ranks:
        stacked = np.stack(ranks, axis=1)[order]
        new[1:] = (stacked[1:] != stacked[:-1]).any(axis=1) | nan_rows[order][1:] | nan_rows[order][:-1]
    group = np.cumsum(new) - 1
    count = int(group[-1]) + 1 if group.size else 0
    first = np.full(count, nrows, dtype=np.int64)
    last = np.full(count, -1, dtype=np.int64)
    np.minimum.at(first, group, order)
    np.maximum.at(last, group, order)
    ia = last if "last" in flags else first
    group_order = np.argsort(first, kind="stable") if "stable" in flags else np.arange(count)
    ia = ia[group_order]
    c = result(a[ia])
    if nargout <= 1:
        return c
    rank_of_group = np.empty(count, dtype=np.int64)
    rank_of_group[group_order] = np.arange(count)
    ic = np.empty(nrows, dtype=np.int64)
    ic[order] = rank_of_group[group]
    return (c, result((ia + 1).astype(np.float64).reshape(-1, 1)),
            result((ic + 1).astype(np.float64).reshape(-1, 1)))[:nargout]


def _member_texts(v: object) -> tuple[list, tuple[int, ...]]:
    """Texts of a char row / cellstr / string array for ismember, with the result shape."""
    if type(v) is np.ndarray and v.dtype.kind == "U":
        if v.ndim == 2 and v.shape[0] > 1:
            return ["".join(r) for r in v.tolist()], (v.shape[0], 1)
        return [to_str(v) if v.size else ""], (1, 1)
    keys, _ = _set_elements(v)
    return list(keys), shape_of(v)


@builtin(max_out=2, nargout=True)
def ismember(a: Any, s: Any, rows: Any = None, *, nargout: int = 1) -> object:
    """Lia = ismember(A,B)
    Lia = ismember(A,B,'rows')
    [Lia,Locb] = ismember(___)

    True where elements of A are found in B; Locb is the lowest index in B
    of each. Works on numbers, text in cell arrays and string arrays."""
    by_rows = rows is not None and text_option(rows) == "rows"
    if rows is not None and not by_rows:
        raise error("MATLAB:ISMEMBER:UnknownInput", "Unknown input.")
    text_args = [type(v) is Cell or type(v) is StringArray for v in (a, s)]
    if any(text_args):
        return _ismember_text(a, s, nargout)
    if by_rows:
        return _ismember_rows(a, s, nargout)
    values = to_double_array(a) if class_of(a) in _NUMERIC_OR_LOGICAL else None
    if values is None or class_of(s) not in _NUMERIC_OR_LOGICAL:
        raise error("MATLAB:ISMEMBER:InputClass", "Inputs must be numeric, logical, char, or cell arrays.")
    pool = to_double_array(s).reshape(-1, order="F")
    lookup: dict = {}
    for k in range(pool.size - 1, -1, -1):  # last write wins: the lowest index
        v = pool[k]
        if v == v:
            lookup[v.item()] = k + 1
    flat = values.reshape(-1, order="F")
    loc = np.array([lookup.get(v.item(), 0) if v == v else 0 for v in flat], dtype=np.float64)
    shape = values.shape
    tf = result((loc > 0).reshape(shape, order="F"))
    if nargout <= 1:
        return tf
    return tf, result(loc.reshape(shape, order="F"))


def _ismember_text(a: object, s: object, nargout: int) -> object:
    texts, shape = _member_texts(a)
    pool, _ = _member_texts(s)
    lookup: dict = {}
    for k in range(len(pool) - 1, -1, -1):
        if pool[k] is not None:
            lookup[pool[k]] = k + 1
    loc = np.array([lookup.get(t, 0) if t is not None else 0 for t in texts], dtype=np.float64)
    tf = result((loc > 0).reshape(shape, order="F"))
    if nargout <= 1:
        return tf
    return tf, result(loc.reshape(shape, order="F"))


def _ismember_rows(a: object, s: object, nargout: int) -> object:
    x, y = to_double_array(a), to_double_array(s)
    if x.ndim != 2 or y.ndim != 2 or (x.size and y.size and x.shape[1] != y.shape[1]):
        raise error("MATLAB:ISMEMBER:AandBColnumAgree",
                    "Inputs A and B must be matrices with the same number of columns in the 'rows' case.")
    lookup: dict = {}
    for k in range(y.shape[0] - 1, -1, -1):
        row = y[k]
        if not np.isnan(row).any():
            lookup[tuple(row.tolist())] = k + 1
    loc = np.array([lookup.get(tuple(r.tolist()), 0) for r in x], dtype=np.float64).reshape(-1, 1)
    tf = result(loc > 0)
    if nargout <= 1:
        return tf
    return tf, result(loc)


# --------------------------------------------------------------- accumarray


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
            return _finish(shaped, cls)
    return result(shaped)
