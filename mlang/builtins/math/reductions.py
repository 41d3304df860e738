"""Reductions: sum, prod, mean, median, mode, var, std, any, all, nnz and
accumarray, with the scheme and helpers the other reducing functions share.

Reductions share one scheme: the dimensions being reduced are moved to the
end and folded into one axis (in column-major order), the operation runs
along that last axis, and the result is reshaped to the input's size with
the reduced dimensions set to 1.  max and min are in ``extrema``; the
cumulative functions in ``cumulative``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.rules_support import expand_along, keepdims_count, replace, select, vecdim
from mlang.builtins.coerce import dims_argument, text_option
from mlang.builtins.data.shape import first_nonsingleton, is_placeholder, padded
from mlang.builtins.math.elementwise import ARITHMETIC
from mlang.builtins.math.short_rows import (
    FLOAT64,
    sequential_product,
    sequential_sum,
    short_truths,
    short_values,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import (
    INT_CLASSES,
    char_codes,
    char_from_codes,
    char_row,
    char_text,
    class_of,
    fix_shape,
    is_text,
    result,
    to_array,
    to_double_array,
    to_str,
)
from mlang.values.operators import to_class

# ------------------------------------------------------------ shared helpers


def numbers_of(x: object, name: str) -> np.ndarray:
    """The ndarray of a numeric, logical or char argument."""
    if class_of(x) not in ARITHMETIC:
        raise error(f"MATLAB:{name}:wrongInput",
                    "Invalid data type. First argument must be numeric or logical.")
    return to_array(x)


def reduction_options(args: tuple | list, flags: frozenset[str]) -> tuple[list[int] | str | None, set[str]]:
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
            dims = sorted(dims_argument(v))
    return dims, seen


def reduce_axes(shape: tuple[int, ...], dims: list[int] | str | None,
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


def gather_slices(a: np.ndarray, axes: list[int]) -> tuple[np.ndarray, tuple[int, ...]]:
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


def shaped(values: np.ndarray, out_shape: tuple[int, ...]) -> np.ndarray:
    return values.reshape(fix_shape(out_shape), order="F")


def float_values(a: np.ndarray) -> np.ndarray:
    """Values to compute with: single stays single, everything else double."""
    k = a.dtype.kind
    if a.dtype == np.float32 or a.dtype == np.complex64:
        return a
    if k == "V":
        return char_codes(a).astype(np.float64)
    if k == "c":
        return a.astype(np.complex128, copy=False)
    return a.astype(np.float64, copy=False)


def sum_class(cls: str, flags: set[str]) -> str:
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


def finish(values: np.ndarray, cls: str) -> object:
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
    a = numbers_of(x, name)
    dims, flags = reduction_options(args, _SUM_FLAGS)
    cls = sum_class(class_of(x), flags)
    flat, out_shape = gather_slices(a, reduce_axes(a.shape, dims))
    if op is np.sum and flat.dtype == np.bool_:
        # a sum of logicals is a count: exact, and without a copy of the mask in double
        counts = np.count_nonzero(flat, axis=-1)
        return finish(shaped(np.asarray(counts, dtype=np.float64), out_shape), cls)
    values = float_values(flat)
    if values.dtype == np.float32 and cls != "single":
        values = values.astype(np.float64)
    with np.errstate(all="ignore"):
        out = (nan_op if "omitnan" in flags else op)(values, axis=-1)
    return finish(shaped(np.asarray(out), out_shape), cls)


def nan_omitted(x: Any, options: tuple) -> np.ndarray | None:
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
    nan = nan_omitted(x, options) if options else None
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
    if not args:
        values = short_values(x)
        if values is not None:
            return sequential_sum(values)
        truths = short_truths(x)
        if truths is not None:
            return float(truths.count(True))  # (not a double vector: a logical one) a count
    if not args and is_double_vector(x):
        return float(x.sum())  # type: ignore[union-attr]
    if type(x) is float and not args:
        return x + 0.0  # as the general path: a sum starts from +0 (sum(-0) is 0)
    if not args and is_double_matrix(x):
        # down the columns, on the transposed view as the general path runs it
        return result(x.T.sum(axis=-1).reshape(1, x.shape[1]))
    if not args and type(x) is np.ndarray and x.dtype == np.bool_ and x.ndim == 2 and x.size \
            and (x.shape[0] == 1 or x.shape[1] == 1):
        return float(np.count_nonzero(x))  # a logical vector: a count, without a double copy
    if len(args) == 1 and type(x) is np.ndarray and x.dtype.kind == "f" and x.size:
        # sum(X, dim) and sum(X, 'all') of a real double or single array: the common
        # forms in numeric code, computed directly
        d = args[0]
        if type(d) is float and d.is_integer() and 1 <= d <= x.ndim:
            return result(x.sum(axis=int(d) - 1, keepdims=True))
        if type(d) is np.ndarray and d.dtype.kind == "V" and char_text(d).lower() == "all":
            return result(x.sum(keepdims=True).reshape(1, 1))
    return _sum_like(x, args, "sum", np.sum, np.nansum)


def is_double_vector(x: object) -> bool:
    """A nonempty real double row or column: the common case given a fast path."""
    return type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 and x.size > 0 \
        and (x.shape[0] == 1 or x.shape[1] == 1)


def is_double_matrix(x: object) -> bool:
    """A nonempty real double 2-D array of more than one row (reduced down its columns)."""
    return type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 and x.size > 0 \
        and x.shape[0] > 1


def _prod_rule(g: Any, y: Any, x: Any, *options: Any) -> tuple:
    """Each element's gradient is the product of the others: y./x away from zeros.  With
    zeros, it is the product of the nonzero elements times the zeros other than the element
    itself, kept as traced values where that product can have a nonzero derivative (slices
    with one or two zeros)."""
    def gradient() -> Any:
        data = ops.data_of(x)
        shape = ops.shape_of(x)
        zero = data == 0
        nan = nan_omitted(x, options)
        skip = zero if nan is None else zero | nan
        if not skip.any():
            return ops.times(ops.expand_to(g, shape), ops.conj(ops.rdivide(y, x)))
        dims, _ = reduction_options(options, _SUM_FLAGS)
        axes = reduce_axes(data.shape, dims)
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
    if not args:
        values = short_values(x)
        if values is not None:
            return sequential_product(values)
    if not args and is_double_vector(x):
        # the product of a real double row or column, along its length as the general path
        # runs it (a column as its transpose, so that the order of the products is the same)
        return float((x if x.shape[0] == 1 else x.T).prod(axis=-1)[0])
    if not args and is_double_matrix(x):
        # down the columns, on the transposed view as the general path runs it
        return result(x.T.prod(axis=-1).reshape(1, x.shape[1]))
    return _sum_like(x, args, "prod", np.prod, np.nanprod)


_MEAN_FLAGS = frozenset({"double", "native", "default", "omitnan", "includenan"})


def _mean_rule(g: Any, y: Any, x: Any, *options: Any) -> tuple:
    shape = ops.shape_of(x)
    nan = nan_omitted(x, options) if options else None
    if nan is None:
        if math.prod(shape) == 0:  # the mean of nothing (NaN) depends on no element
            return (None,) * (1 + len(options))
        count = math.prod(shape) / math.prod(ops.shape_of(y))
        return (ops.times(ops.expand_to(g, shape), 1 / count),) + (None,) * len(options)
    dims, _ = reduction_options(options, _MEAN_FLAGS)
    axes = reduce_axes(ops.data_of(x).shape, dims)
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
    if not args:
        values = short_values(x)
        if values is not None:
            return sequential_sum(values) / len(values)
    if not args and is_double_vector(x):
        return float(x.sum() / x.size)  # type: ignore[union-attr]
    if not args and is_double_matrix(x):
        # the general path's steps: a copy of the transposed view, summed along its rows
        values = x.T.astype(np.float64)
        return result((values.sum(axis=-1) / values.shape[-1]).reshape(1, x.shape[1]))
    if len(args) == 1 and type(args[0]) is float and (args[0] == 1.0 or args[0] == 2.0) \
            and type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 and x.size:
        # mean(X, 1 or 2) by the general path's steps (its slices as rows, copied, summed)
        values = (x.T if args[0] == 1.0 else x).astype(np.float64)
        means = values.sum(axis=-1) / values.shape[-1]
        return result(means.reshape(1, -1) if args[0] == 1.0 else means.reshape(-1, 1))
    a = numbers_of(x, "mean")
    dims, flags = reduction_options(args, _MEAN_FLAGS)
    cls = class_of(x)
    out_cls = "single" if cls == "single" and "double" not in flags else "double"
    if "native" in flags and cls != "char":
        out_cls = cls
    flat, out_shape = gather_slices(a, reduce_axes(a.shape, dims))
    values = float_values(flat).astype(np.complex128 if flat.dtype.kind == "c" else np.float64)
    with np.errstate(all="ignore"):
        if "omitnan" in flags:
            present = ~np.isnan(values)
            total = np.where(present, values, 0).sum(axis=-1)
            out = total / present.sum(axis=-1)
        else:
            out = values.sum(axis=-1) / values.shape[-1]
    return finish(shaped(np.asarray(out), out_shape), out_cls)


@builtin()
def median(x: Any, *args: Any) -> object:
    """M = median(A)
    M = median(A,'all')
    M = median(A,dim)
    M = median(A,vecdim)
    M = median(___,nanflag)

    Median value (NaN when a slice contains NaN, unless 'omitnan')."""
    if not args and is_double_vector(x) and x.size <= 64:
        # the middle of a short real double vector without NaN, as np.median takes it (the
        # mean of the two middle values of an even count); zeros take the general path,
        # where which of 0 and -0 comes out is NumPy's choice
        values = x.reshape(-1).tolist()
        if not any(v != v for v in values):
            values.sort()
            half = len(values) // 2
            if len(values) % 2:
                if values[half]:
                    return values[half]
            elif values[half - 1] and values[half]:
                return (values[half - 1] + values[half]) / 2
    a = numbers_of(x, "median")
    dims, flags = reduction_options(args, frozenset({"omitnan", "includenan", "double", "native", "default"}))
    cls = class_of(x)
    out_cls = cls if cls in INT_CLASSES or cls == "single" else "double"
    flat, out_shape = gather_slices(a, reduce_axes(a.shape, dims))
    values = float_values(flat)
    values = values.astype(np.complex128 if values.dtype.kind == "c" else np.float64)
    with np.errstate(all="ignore"):
        if values.shape[-1] == 0:
            out = np.full(values.shape[:-1], np.nan)
        elif values.dtype.kind == "c":
            out = _complex_median(values, "omitnan" in flags)
        elif "omitnan" in flags:
            out = _nanmedian(values)
        else:
            out = np.median(values, axis=-1)
    return finish(shaped(np.asarray(out), out_shape), out_cls)


def _complex_median(values: np.ndarray, omit_nan: bool) -> np.ndarray:
    """The median of complex slices in MATLAB's sort order (by abs, then angle)."""
    nan = np.isnan(values)
    order = np.lexsort((np.angle(values), np.where(nan, np.inf, np.abs(values))), axis=-1)
    ordered = np.take_along_axis(values, order, axis=-1)
    counts = (~nan).sum(axis=-1) if omit_nan else np.full(values.shape[:-1], values.shape[-1])
    lo = np.take_along_axis(ordered, np.maximum((counts - 1) // 2, 0)[..., None], axis=-1)[..., 0]
    hi = np.take_along_axis(ordered, np.maximum(counts // 2, 0)[..., None], axis=-1)[..., 0]
    out = (lo + hi) / 2
    missing = (counts == 0) if omit_nan else nan.any(axis=-1)
    out[missing] = complex(np.nan, np.nan) if not omit_nan else np.nan
    return out


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
    a = numbers_of(x, "mode")
    dims, _ = reduction_options(() if dim is None else (dim,), frozenset())
    flat, out_shape = gather_slices(a, reduce_axes(a.shape, dims))
    values = float_values(flat)
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
    m = finish(shaped(modes.reshape(values.shape[:-1]), out_shape), "double" if cls == "char" else cls)
    if type(x) is np.ndarray and x.dtype.kind == "V" and nargout <= 1:
        m = result(char_from_codes(to_double_array(m).astype(np.uint32)))
    if nargout <= 1:
        return m
    f = result(shaped(freqs.reshape(values.shape[:-1]), out_shape))
    cells = np.empty(len(every), dtype=object)
    for k, w in enumerate(every):
        cells[k] = finish(w, "double" if cls == "char" else cls)
    c = Cell(cells.reshape(values.shape[:-1]).reshape(fix_shape(out_shape), order="F"))
    return (m, f, c)[:nargout]


def _variance_plan(x: object, args: tuple, name: str) \
        -> tuple[np.ndarray, list[int], set[str], np.ndarray | None, bool]:
    """The data of a var/std argument, the axes reduced, the flags, the weights (None when
    not a weight vector) and whether to normalise by N."""
    a = numbers_of(x, name)
    weight: Any = None
    rest = list(args)
    if rest and not is_text(rest[0]):
        weight = rest.pop(0)
    dims, flags = reduction_options(rest, frozenset({"omitnan", "includenan"}))
    axes = reduce_axes(a.shape, dims)
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


def _variance(x: object, args: tuple, name: str) \
        -> tuple[np.ndarray, np.ndarray, tuple[int, ...], str]:
    """The variances of ``x`` per slice, the (weighted) means they are taken about, the
    shape of the result and its class."""
    a, axes, flags, weights, normalise_by_n = _variance_plan(x, args, name)
    flat, out_shape = gather_slices(a, axes)
    values = float_values(flat).astype(np.complex128 if flat.dtype.kind == "c" else np.float64)
    present = ~np.isnan(values) if "omitnan" in flags else np.ones(values.shape, dtype=bool)
    kept = np.where(present, values, 0)
    with np.errstate(all="ignore"):
        if weights is not None:
            w = np.where(present, weights, 0.0)
            wsum = w.sum(axis=-1, keepdims=True)
            mu = (kept * w).sum(axis=-1, keepdims=True) / wsum
            out = (np.abs(kept - mu) ** 2 * w).sum(axis=-1) / wsum[..., 0]
        else:
            n = present.sum(axis=-1)
            mu = kept.sum(axis=-1, keepdims=True) / n[..., None]
            dev = np.where(present, np.abs(values - mu) ** 2, 0).sum(axis=-1)
            denom = np.where(normalise_by_n | (n == 1), n, n - 1).astype(np.float64)
            out = np.where(n == 0, np.nan, dev / np.where(denom == 0, 1, denom))
    out_cls = "single" if class_of(x) == "single" else "double"
    return np.asarray(out, dtype=np.float64), mu[..., 0], out_shape, out_cls


def _short_variance(values: list[float] | tuple[float, ...]) -> float:
    """The variance of fewer than 8 doubles by the general path's steps, in Python floats:
    NumPy adds fewer than 8 numbers one after another from 0.0 whatever the memory layout
    (its pairwise summation starts with blocks of 8), and squares by x*x."""
    total = 0.0
    for v in values:
        total += v
    mean = total / len(values)
    squares = 0.0
    for v in values:
        deviation = abs(v - mean)
        squares += deviation * deviation
    return squares / (len(values) - 1 if len(values) > 1 else 1)


def _vector_variance(x: np.ndarray) -> float:
    """The variance of a nonempty real double row or column, by the general path's steps
    (a copy of the values as one row, its mean, the summed squared deviations over N-1)."""
    if x.size < 8:
        return _short_variance(x.reshape(-1).tolist())
    values = (x if x.shape[0] == 1 else x.T).astype(np.float64)
    n = values.shape[-1]
    mu = values.sum(axis=-1, keepdims=True) / n
    deviation = (np.abs(values - mu) ** 2).sum(axis=-1)
    return float(deviation[0] / (n - 1 if n > 1 else n))


def _small_matrix(x: object) -> bool:
    """A real double matrix of 2 to 7 rows and at most 64 elements: var and std down its
    columns are computed in Python floats."""
    return is_double_matrix(x) and x.shape[0] < 8 and x.size <= 64  # type: ignore[union-attr]


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


@builtin(gradient=_var_rule, nargout=True, max_out=2)
def var(x: Any, *args: Any, nargout: int = 1) -> object:
    """V = var(A)
    V = var(A,w)
    V = var(A,w,'all')
    V = var(A,w,dim)
    V = var(A,w,vecdim)
    V = var(___,nanflag)
    [V,M] = var(___)

    Variance (normalised by N-1, or by N when w is 1; w may be weights); M is the mean
    (the weighted mean for weights) of the elements used."""
    if not args and nargout <= 1 and is_double_vector(x):
        return _vector_variance(x)
    if not args and nargout <= 1 and _small_matrix(x):
        return result(np.array([[_short_variance(c) for c in zip(*x.tolist(), strict=True)]]))
    out, mu, out_shape, cls = _variance(x, args, "var")
    v = finish(shaped(out, out_shape), cls)
    return (v, finish(shaped(mu, out_shape), cls)) if nargout >= 2 else v


@builtin(gradient=_std_rule, nargout=True, max_out=2)
def std(x: Any, *args: Any, nargout: int = 1) -> object:
    """S = std(A)
    S = std(A,w)
    S = std(A,w,'all')
    S = std(A,w,dim)
    S = std(A,w,vecdim)
    S = std(___,nanflag)
    [S,M] = std(___)

    Standard deviation (the square root of var); M is the mean (the weighted mean for
    weights) of the elements used."""
    if not args and nargout <= 1 and is_double_vector(x):
        return math.sqrt(_vector_variance(x))
    if not args and nargout <= 1 and _small_matrix(x):
        return result(np.sqrt([[_short_variance(c) for c in zip(*x.tolist(), strict=True)]]))
    out, mu, out_shape, cls = _variance(x, args, "std")
    s = finish(shaped(np.sqrt(out), out_shape), cls)
    return (s, finish(shaped(mu, out_shape), cls)) if nargout >= 2 else s


def along_last(a: np.ndarray, axis: int) -> np.ndarray:
    """``a`` with dimension ``axis`` moved to the end (the axis an operation runs along)."""
    return np.moveaxis(padded(a, axis + 1), axis, -1)


def back_from_last(values: np.ndarray, axis: int) -> np.ndarray:
    """The inverse of ``along_last``, trailing singleton dimensions dropped."""
    out = np.moveaxis(values, -1, axis)
    return out.reshape(fix_shape(out.shape))


# ------------------------------------------------------------- any / all


def nonzero_values(x: object, name: str) -> np.ndarray:
    """The values of an argument whose elements are tested for nonzero (char by code)."""
    a = numbers_of(x, name)
    if a.dtype.kind == "V":
        return char_codes(a) != 0
    return a


def _any_all(x: object, dim: Any, name: str, reducer: Any) -> object:
    if dim is None:
        if type(x) is bool:
            return x
        if type(x) is np.ndarray and x.ndim == 2 and (x.shape[0] == 1 or x.shape[1] == 1):
            # a logical or real double row or column reduces to one truth value, read from
            # counts of nonzero elements (NaN is nonzero: all counts it, any ignores it)
            if x.dtype == np.bool_ or x.dtype == np.float64:
                nonzero = int(np.count_nonzero(x))
                if name == "all":
                    return nonzero == x.size
                if nonzero and x.dtype == np.float64:
                    return nonzero > int(np.count_nonzero(x != x))
                return nonzero > 0
        if type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 and x.size and x.shape[0] > 1:
            # a real double matrix down its columns (NaN is nonzero: all counts it, any not)
            truth = (x != 0).all(axis=0, keepdims=True) if name == "all" else \
                ((x != 0) & (x == x)).any(axis=0, keepdims=True)
            return result(truth)
    a = nonzero_values(x, name)
    dims, _ = reduction_options(() if dim is None else (dim,), frozenset())
    flat, out_shape = gather_slices(a, reduce_axes(a.shape, dims))
    if flat.dtype.kind in "fc":
        # NaN is ignored: for any it counts as zero, for all as nonzero
        nan = np.isnan(flat)
        truth = (flat != 0) & ~nan if name == "any" else (flat != 0) | nan
    else:
        truth = flat != 0
    return result(shaped(reducer(truth, axis=-1), out_shape))


@builtin(dl="data")
def any_(x: Any, dim: Any = None) -> object:
    """B = any(A)
    B = any(A,'all')
    B = any(A,dim)
    B = any(A,vecdim)

    True where any element along the dimension is nonzero (NaN ignored)."""
    if dim is None:
        truths = short_truths(x)
        if truths is not None:
            for v in truths:
                if v and v == v:  # (NaN is true but ignored)
                    return True
            return False
    return _any_all(x, dim, "any", np.any)


@builtin(dl="data")
def all_(x: Any, dim: Any = None) -> object:
    """B = all(A)
    B = all(A,'all')
    B = all(A,dim)
    B = all(A,vecdim)

    True where every element along the dimension is nonzero."""
    if dim is None:
        truths = short_truths(x)
        if truths is not None:
            return 0.0 not in truths  # (NaN is nonzero; False equals 0.0)
    return _any_all(x, dim, "all", np.all)


@builtin(dl="data")
def nnz(x: Any) -> float:
    """N = nnz(X)

    Number of nonzero elements."""
    if type(x) is np.ndarray and (x.dtype is FLOAT64 or x.dtype == np.bool_):
        return float(np.count_nonzero(x))  # (NaN is nonzero)
    a = nonzero_values(x, "nnz")
    return float(np.count_nonzero(a))
