"""Rescaling data: rescale (to an interval), normalize (z-scores, norms, ranges,
centering and scaling), clip (to a range) and bounds (smallest and largest
elements).

Results are single for single input and double otherwise (clip keeps the class
of its input); NaN values are ignored by the statistics and stay NaN.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from mlang.builtins.coerce import dim_argument, options, text_option
from mlang.builtins.data.shape import first_nonsingleton
from mlang.errors import error
from mlang.registry import BUILTINS, builtin
from mlang.values.core import EMPTY, class_of, result, to_array, to_double_array
from mlang.values.operators import ARITHMETIC_CLASSES, to_class

_REAL_CLASSES = ARITHMETIC_CLASSES - {"char"}


def _real_data(name: str, a: Any, what: str = "Input") -> np.ndarray:
    """A numeric or logical argument as float64 (float32 for single), real only."""
    cls = class_of(a)
    if cls not in _REAL_CLASSES:
        raise error(f"MATLAB:{name}:InvalidInput", f"{what} must be numeric or logical.")
    x = to_double_array(a) if cls != "single" else to_array(a)
    if x.dtype.kind == "c":
        raise error(f"MATLAB:{name}:ComplexInput", f"{what} must be real.")
    return x


def _float_result(x: np.ndarray, single: bool) -> object:
    return result(x.astype(np.float32) if single else x.astype(np.float64, copy=False))


def _nan_quiet(fn: Any, *args: Any, **kwargs: Any) -> np.ndarray:
    """A NaN-ignoring NumPy reduction without its warnings for all-NaN slices."""
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kwargs)


# -------------------------------------------------------------------- rescale


@builtin()
def rescale(a: Any, *args: Any) -> object:
    """R = rescale(A)
    R = rescale(A,l,u)
    R = rescale(___,'InputMin',inmin,'InputMax',inmax)

    Scale the elements of A to the interval [l,u] (default [0,1]) by the minimum
    and maximum of A (or the input range [inmin,inmax], to which A is clipped
    first): R = l + (A-inmin)./(inmax-inmin).*(u-l). Bounds may be arrays that
    expand against A."""
    single = class_of(a) == "single"
    x = _real_data("rescale", a).astype(np.float64)
    rest = list(args)
    lower, upper = np.float64(0.0), np.float64(1.0)
    if rest and text_option(rest[0]) is None:
        if len(rest) < 2 or text_option(rest[1]) is not None:
            raise error("MATLAB:rescale:MissingUpperBound", "Upper bound must be specified.")
        lower = _real_data("rescale", rest[0], "Lower bound")
        upper = _real_data("rescale", rest[1], "Upper bound")
        rest = rest[2:]
    found = options(rest, ("InputMin", "InputMax"))
    if x.size == 0:
        return _float_result(x, single)
    inmin = _real_data("rescale", found["InputMin"], "InputMin") if "InputMin" in found \
        else np.float64(_nan_quiet(np.nanmin, x))
    inmax = _real_data("rescale", found["InputMax"], "InputMax") if "InputMax" in found \
        else np.float64(_nan_quiet(np.nanmax, x))
    try:
        if np.any(np.asarray(lower > upper)):
            raise error("MATLAB:rescale:LowerBoundGreaterThanUpperBound",
                        "Lower bound must be less than or equal to upper bound.")
        if np.any(np.asarray(inmin > inmax)):
            raise error("MATLAB:rescale:InputMinGreaterThanInputMax",
                        "InputMin must be less than or equal to InputMax.")
        clipped = np.minimum(np.maximum(x, inmin), inmax)
        span = np.asarray(inmax - inmin, dtype=np.float64)
        span = np.where(span == 0, 1.0, span)  # a constant range maps to the lower bound
        with np.errstate(invalid="ignore"):
            out = lower + (clipped - inmin) / span * (upper - lower)
        out = np.where(np.isnan(x), np.nan, out)
        out = np.broadcast_to(out, np.broadcast_shapes(out.shape, x.shape))
    except ValueError:
        raise error("MATLAB:sizeDimensionsMustMatch", "Arrays have incompatible sizes for this "
                    "operation.") from None
    if out.shape != x.shape:
        raise error("MATLAB:rescale:InvalidBoundsSize",
                    "Bounds and input range must be compatible with the size of the input.")
    return _float_result(np.array(out), single)


# ------------------------------------------------------------------ normalize

_METHODS = ("zscore", "norm", "scale", "range", "center", "medianiqr")


def _along(fn: Any, x: np.ndarray, axis: int) -> np.ndarray:
    return _nan_quiet(fn, x, axis=axis, keepdims=True)


def _iqr(x: np.ndarray, axis: int) -> np.ndarray:
    q75 = _nan_quiet(np.nanpercentile, x, 75, axis=axis, keepdims=True, method="hazen")
    q25 = _nan_quiet(np.nanpercentile, x, 25, axis=axis, keepdims=True, method="hazen")
    return q75 - q25


def _mad(x: np.ndarray, axis: int) -> np.ndarray:
    center = _along(np.nanmedian, x, axis)
    return _along(np.nanmedian, np.abs(x - center), axis)


def _std(x: np.ndarray, axis: int) -> np.ndarray:
    n = np.sum(~np.isnan(x), axis=axis, keepdims=True)
    return _nan_quiet(np.nanstd, x, axis=axis, keepdims=True, ddof=1) if x.shape[axis] > 1 \
        else np.where(n > 0, 0.0, np.nan)


def _center(kind: Any, x: np.ndarray, axis: int) -> np.ndarray:
    text = kind if type(kind) is str else text_option(kind)
    if text == "mean":
        return _along(np.nanmean, x, axis)
    if text == "median":
        return _along(np.nanmedian, x, axis)
    if text is None and class_of(kind) in _REAL_CLASSES:
        return to_double_array(kind)
    raise error("MATLAB:normalize:InvalidCenterType",
                "Center type must be 'mean', 'median' or a numeric array.")


def _scale(kind: Any, x: np.ndarray, axis: int) -> np.ndarray:
    text = kind if type(kind) is str else text_option(kind)
    if text == "std":
        return _std(x, axis)
    if text == "mad":
        return _mad(x, axis)
    if text == "iqr":
        return _iqr(x, axis)
    if text == "first":
        return np.take(x, [0], axis=axis) if x.shape[axis] else _along(np.nanmean, x, axis)
    if text is None and class_of(kind) in _REAL_CLASSES:
        return to_double_array(kind)
    raise error("MATLAB:normalize:InvalidScaleType",
                "Scale type must be 'std', 'mad', 'first', 'iqr' or a numeric array.")


@builtin(max_out=3, nargout=True)
def normalize(a: Any, *args: Any, nargout: int = 1) -> object:
    """N = normalize(A)
    N = normalize(A,dim)
    N = normalize(___,method)
    N = normalize(___,method,methodtype)
    N = normalize(___,'center',centertype,'scale',scaletype)
    [N,C,S] = normalize(___)

    Normalize data along the first non-singleton dimension (or dim): by default
    z-scores (center 0, standard deviation 1). Methods: 'zscore' ('std' or
    'robust'), 'norm' (p, default 2), 'scale' ('std', 'mad', 'first', 'iqr' or
    values), 'range' ([a b], default [0 1]), 'center' ('mean', 'median' or
    values), 'medianiqr'. N = (A - C)./S; NaN values are ignored."""
    single = class_of(a) == "single"
    x = _real_data("normalize", a).astype(np.float64)
    rest = list(args)
    axis = None
    if rest and text_option(rest[0]) is None:
        axis = dim_argument(rest.pop(0))
    if axis is None:
        axis = first_nonsingleton(x.shape)
    if axis >= x.ndim:  # every dimension past the last is the same singleton one
        x = x.reshape(x.shape + (1,))
        axis = x.ndim - 1
    center, scale = _normalization(rest, x, axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        try:
            n = (x - center) / scale
        except ValueError:
            raise error("MATLAB:sizeDimensionsMustMatch",
                        "Arrays have incompatible sizes for this operation.") from None
    n = n.reshape(n.shape[:max(2, to_array(a).ndim)]) if n.ndim > to_array(a).ndim else n
    outs = [n, np.asarray(center, dtype=np.float64), np.asarray(scale, dtype=np.float64)]
    return tuple(_float_result(o, single) for o in outs)[:max(nargout, 1)]


def _normalization(rest: list, x: np.ndarray, axis: int) -> tuple[Any, Any]:
    """The centering and scaling values of a normalize call's method arguments."""
    method = text_option(rest[0]) if rest else "zscore"
    if method not in _METHODS:
        raise error("MATLAB:normalize:InvalidMethod",
                    "Method must be 'zscore', 'norm', 'scale', 'range', 'center' or 'medianiqr'.")
    kind = rest[1] if len(rest) > 1 else None
    if method in ("center", "scale"):
        return _center_and_scale(rest, x, axis)
    if len(rest) > 2 or (method == "medianiqr" and len(rest) > 1):
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if method == "zscore":
        robust = kind is not None and text_option(kind) == "robust"
        if kind is not None and text_option(kind) not in ("std", "robust"):
            raise error("MATLAB:normalize:InvalidZscoreType", "Z-score type must be 'std' or 'robust'.")
        if robust:
            return _along(np.nanmedian, x, axis), _mad(x, axis)
        return _along(np.nanmean, x, axis), _std(x, axis)
    if method == "medianiqr":
        return _along(np.nanmedian, x, axis), _iqr(x, axis)
    if method == "norm":
        p = 2.0 if kind is None else float(to_double_array(kind).reshape(-1)[0])
        if not p > 0:
            raise error("MATLAB:normalize:InvalidNormType", "Norm type must be a positive number.")
        present = np.where(np.isnan(x), 0.0, np.abs(x))
        size = np.max(present, axis=axis, keepdims=True, initial=0.0) if np.isinf(p) else \
            np.sum(present ** p, axis=axis, keepdims=True) ** (1 / p)
        return 0.0, size
    interval = np.array([0.0, 1.0]) if kind is None else to_double_array(kind).reshape(-1)
    if interval.size != 2 or not interval[0] < interval[1]:
        raise error("MATLAB:normalize:InvalidRange",
                    "Range must be a 2-element row vector [a b] with a < b.")
    lo, hi = _along(np.nanmin, x, axis), _along(np.nanmax, x, axis)
    scale = (hi - lo) / (interval[1] - interval[0])
    return lo - interval[0] * scale, scale


def _center_and_scale(rest: list, x: np.ndarray, axis: int) -> tuple[Any, Any]:
    """'center' and/or 'scale', each with an optional type, in either order."""
    center: Any = 0.0
    scale: Any = 1.0
    seen: set[str] = set()
    k = 0
    while k < len(rest):
        word = text_option(rest[k])
        if word not in ("center", "scale") or word in seen:
            raise error("MATLAB:normalize:InvalidMethodCombination",
                        "Only the 'center' and 'scale' methods can be combined, each once.")
        seen.add(word)
        kind: Any = "mean" if word == "center" else "std"
        if k + 1 < len(rest) and text_option(rest[k + 1]) not in ("center", "scale"):
            kind = rest[k + 1]
            k += 1
        k += 1
        if word == "center":
            center = _center(kind, x, axis)
        else:
            scale = _scale(kind, x, axis)
    return center, scale


# ---------------------------------------------------------------------- clip


@builtin()
def clip(x: Any, lower: Any, upper: Any) -> object:
    """C = clip(X,lower,upper)

    Clip the values of X to the range [lower,upper]: values below lower become
    lower and values above upper become upper (bounds may be arrays that expand
    against X). C has the size and class of X; NaN values stay NaN."""
    cls = class_of(x)
    for v, what in ((x, "Input"), (lower, "Lower bound"), (upper, "Upper bound")):
        if class_of(v) not in _REAL_CLASSES:
            raise error("MATLAB:clip:InvalidInput", f"{what} must be numeric or logical.")
    data = to_array(x)
    if cls in ("double", "single") or data.dtype.kind == "c":
        values = data
    else:
        values = to_double_array(data)
    lo, hi = to_double_array(lower), to_double_array(upper)
    if np.iscomplexobj(lo) or np.iscomplexobj(hi):
        raise error("MATLAB:clip:ComplexBounds", "Bounds must be real.")
    try:
        shape = np.broadcast_shapes(values.shape, lo.shape, hi.shape)
    except ValueError:
        raise error("MATLAB:sizeDimensionsMustMatch",
                    "Arrays have incompatible sizes for this operation.") from None
    if tuple(shape) != values.shape:
        raise error("MATLAB:clip:BoundsSizeMismatch",
                    "Bounds must be compatible with the size of the input.")
    with np.errstate(invalid="ignore"):
        # a NaN bound sets no limit (fmax/fmin ignore NaN); NaN data stays NaN
        out = np.where(np.isnan(values), values, np.fmin(np.fmax(values, lo), hi)) \
            if values.dtype.kind in "fc" else np.fmin(np.fmax(values, lo), hi)
    if cls == "logical":
        return result(out != 0)
    if cls in ("double", "single"):
        return result(out.astype(data.dtype, copy=False))
    return result(to_class(out, cls))


# -------------------------------------------------------------------- bounds


@builtin(max_out=2, nargout=True)
def bounds(a: Any, *args: Any, nargout: int = 1) -> object:
    """[S,L] = bounds(A)
    [S,L] = bounds(A,'all')
    [S,L] = bounds(A,dim)
    [S,L] = bounds(A,vecdim)
    [S,L] = bounds(___,nanflag)

    Smallest (S) and largest (L) elements of A along the first non-singleton
    dimension (or dim, the dimensions of vecdim, or all of A); NaN values are
    ignored unless nanflag is 'includenan'."""
    if class_of(a) not in ARITHMETIC_CLASSES:
        raise error("MATLAB:bounds:InvalidInput", "Input must be numeric, logical or char.")
    rest = list(args)
    for v in rest:
        text = text_option(v)
        if text is not None and text not in ("all", "omitnan", "includenan", "omitmissing",
                                             "includemissing"):
            raise error("MATLAB:bounds:UnknownOption", f"Unrecognized option '{text}'.")
    extra = (EMPTY, *rest) if rest else ()
    smallest = BUILTINS["min"].fn(a, *extra, nargout=1)
    largest = BUILTINS["max"].fn(a, *extra, nargout=1)
    return (smallest, largest)[:max(nargout, 1)]
