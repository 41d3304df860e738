"""Cumulative and differencing functions: cumsum, cumprod (with their gradient
rules), diff, trapz and cumtrapz."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.rules_support import replace, select
from mlang.builtins.coerce import dim_argument, integer_scalar, text_option
from mlang.builtins.data.shape import first_nonsingleton, is_placeholder, padded, shape_of
from mlang.builtins.math.reductions import (
    along_last,
    back_from_last,
    finish,
    float_values,
    nan_omitted,
    numbers_of,
    sum_class,
)
from mlang.builtins.math.short_rows import running_sums, short_values
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import INT_CLASSES, char_row, class_of, fix_shape, result, to_double_array, to_str


def cumulative_args(a: np.ndarray, args: tuple, flags: frozenset[str]) -> tuple[int, set[str]]:
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


_CUM_FLAGS = frozenset({"forward", "reverse", "omitnan", "includenan", "double", "native", "default"})


def direct_axis(x: object, args: tuple) -> int:
    """For a running function (cumsum, cummax...) of a real double matrix along its first
    non-singleton dimension or dimension 1 or 2, with no other option: that axis, to be
    computed directly; -1 for anything else."""
    if type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 and x.size and len(args) < 2:
        if not args:
            return 1 if x.shape[0] == 1 else 0
        if type(args[0]) is float and (args[0] == 1.0 or args[0] == 2.0):
            return int(args[0]) - 1
    return -1


def _cumulative(x: object, args: tuple, name: str, op: Any, neutral: float) -> object:
    axis = direct_axis(x, args)
    if axis >= 0:
        return result(x.cumsum(axis=axis) if op is np.cumsum else x.cumprod(axis=axis))  # type: ignore[union-attr]
    a = numbers_of(x, name)
    axis, flags = cumulative_args(a, args, _CUM_FLAGS)
    cls = sum_class(class_of(x), flags)
    values = float_values(along_last(a, axis))
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
    return finish(back_from_last(out, axis), cls)


def _cumulative_plan(x: Any, args: tuple) -> tuple[int, set[str], Any]:
    """The axis and flags of a cumulative operation, and the dimension and direction
    arguments that run the adjoint cumulative sum (the opposite direction)."""
    axis, flags = cumulative_args(ops.data_of(x), args, _CUM_FLAGS)
    back = char_row("forward" if "reverse" in flags else "reverse")
    return axis, flags, (float(axis + 1), back)


def _cumsum_rule(g: Any, y: Any, x: Any, *args: Any) -> tuple:
    def gradient() -> Any:
        _, _, adjoint = _cumulative_plan(x, args)
        gx = ops.call("cumsum", g, *adjoint)
        nan = nan_omitted(x, args)
        return gx if nan is None else select(gx, ~nan)
    return (gradient,) + (None,) * len(args)


@builtin(gradient=_cumsum_rule)
def cumsum(x: Any, *args: Any) -> object:
    """B = cumsum(A)
    B = cumsum(A,dim)
    B = cumsum(___,direction)
    B = cumsum(___,nanflag)

    Cumulative sum."""
    if not args:
        values = short_values(x)
        if values is not None:
            if len(values) == 1:
                return values[0]
            sums = running_sums(values)
            return np.array([sums]) if x.shape[0] == 1 else np.array(sums).reshape(-1, 1)
    return _cumulative(x, args, "cumsum", np.cumsum, 0.0)


def _cumprod_rule(g: Any, y: Any, x: Any, *args: Any) -> tuple:
    """dL/dx(j) = sum over k >= j of g(k)*y(k)/x(j) (k runs in the direction of the product).
    With zeros, that formula holds before a slice's first zero z; at z the products taken
    with z as 1 give the gradient; after z the products hold the factor x(z), kept as a
    traced value so second derivatives stay right (up to the second zero)."""
    def gradient() -> Any:
        axis, flags, adjoint = _cumulative_plan(x, args)
        data = ops.data_of(x)
        nan = nan_omitted(x, args)
        clean = x if nan is None else replace(x, nan)  # 'omitnan' takes NaN as 1
        zero = data == 0

        def tail_sum(v: Any) -> Any:  # sum over k >= j of v(k)
            return ops.call("cumsum", v, *adjoint)

        if not zero.any():
            gx = ops.rdivide(tail_sum(ops.times(g, ops.conj(y))), ops.conj(clean))
            return gx if nan is None else select(gx, ~nan)
        reverse = "reverse" in flags
        seen = along_last(zero, axis)  # zeros met so far, in the product's direction
        seen = np.cumsum(seen[..., ::-1] if reverse else seen, axis=-1)
        seen = back_from_last(seen[..., ::-1] if reverse else seen, axis).reshape(data.shape)
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


@builtin()
def diff(x: Any, n: Any = None, dim: Any = None) -> object:
    """Y = diff(X)
    Y = diff(X,n)
    Y = diff(X,n,dim)

    Differences between adjacent elements (n-th order), along the first
    non-singleton dimension or dim."""
    if n is None and dim is None and type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 \
            and x.size > 1:
        # first differences of a real double array along its first non-singleton dimension
        # (as np.diff takes them)
        return result(x[:, 1:] - x[:, :-1] if x.shape[0] == 1 else x[1:] - x[:-1])
    a = numbers_of(x, "diff")
    order = 1
    if n is not None and not is_placeholder(n):
        order = integer_scalar(n, "Difference order N must be a positive integer scalar.",
                               "MATLAB:diff:differenceOrderMustBePositiveInteger")
        if order < 0:
            raise error("MATLAB:diff:differenceOrderMustBePositiveInteger",
                        "Difference order N must be a positive integer scalar.")
    cls = class_of(x)
    out_cls = cls if cls in INT_CLASSES or cls == "single" else "double"
    values = float_values(a).astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    if order == 0:
        return finish(values, out_cls)
    if dim is not None:
        axis = dim_argument(dim)
        values = padded(values, axis + 1)
        for _ in range(order):
            if values.shape[axis] == 0:
                break
            values = np.diff(values, axis=axis)
        return finish(values.reshape(fix_shape(values.shape)), out_cls)
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
    return finish(values.reshape(fix_shape(values.shape)), out_cls)


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
    values = along_last(y, axis)
    k = values.shape[-1]
    h = _spacing(x, k)
    out = (h * (values[..., 1:] + values[..., :-1]) / 2).sum(axis=-1) if k > 1 else \
        np.zeros(values.shape[:-1], dtype=values.dtype)
    return result(back_from_last(out[..., None], axis))


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
    values = along_last(y, axis)
    k = values.shape[-1]
    h = _spacing(x, k)
    with np.errstate(all="ignore"):  # Inf - Inf gives NaN, as in MATLAB
        steps = h * (values[..., 1:] + values[..., :-1]) / 2
    zero = np.zeros(values.shape[:-1] + (min(k, 1),), dtype=values.dtype)
    out = np.concatenate([zero, np.cumsum(steps, axis=-1)], axis=-1)
    return result(back_from_last(out, axis))
