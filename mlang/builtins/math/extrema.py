"""Extremes: max and min (of arrays, along dimensions, or of two arrays
element by element) and the running extremes cummax and cummin."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.rules_support import select
from mlang.builtins.coerce import text_option
from mlang.builtins.data.shape import is_placeholder, padded
from mlang.builtins.math.cumulative import cumulative_args
from mlang.builtins.math.elementwise import ARITHMETIC
from mlang.builtins.math.reductions import (
    along_last,
    back_from_last,
    finish,
    gather_slices,
    is_double_vector,
    numbers_of,
    reduce_axes,
    reduction_options,
    shaped,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_codes, char_row, class_of, fix_shape, result, to_double_array, to_str
from mlang.values.operators import result_class


def _extreme_class(x: object) -> str:
    cls = class_of(x)
    return "double" if cls == "char" else cls


def _order_keys(values: np.ndarray) -> np.ndarray:
    """Real keys to compare by: the values, or for complex the magnitude."""
    return np.abs(values) if values.dtype.kind == "c" else values


def _extreme(x: object, args: tuple, nargout: int, largest: bool, name: str) -> object:
    a = numbers_of(x, name)
    dims, flags = reduction_options(args, frozenset({"omitnan", "includenan", "linear"}))
    axes = reduce_axes(a.shape, dims, empty_to_scalar=False)
    flat, out_shape = gather_slices(a, axes)
    cls = _extreme_class(x)
    if flat.shape[-1] == 0:
        shape = tuple(0 if d in axes else n for d, n in enumerate(padded(a, max(axes) + 1).shape))
        out = finish(np.zeros(fix_shape(shape)), cls)
        return out if nargout <= 1 else (out, result(np.zeros(fix_shape(shape))))
    values = flat if flat.dtype.kind != "V" else char_codes(flat).astype(np.float64)
    index = _extreme_index(values, largest, "includenan" in flags)
    picked = np.take_along_axis(values, index[..., None], axis=-1)[..., 0]
    m = finish(shaped(picked, out_shape), cls)
    if nargout <= 1:
        return m
    if "linear" in flags:
        # the same rearrangement applied to linear positions maps the index back to A
        positions, _ = gather_slices(np.arange(a.size).reshape(a.shape, order="F"), axes)
        index = np.take_along_axis(positions, index[..., None], axis=-1)[..., 0]
    return m, result(shaped((index + 1).astype(np.float64), out_shape))


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
        if class_of(v) not in ARITHMETIC:
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
    return finish(out, cls) if cls != "logical" else result(out != 0)


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
    if not args and nargout <= 1 and is_double_vector(x):
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


# ------------------------------------------------------------ cummax, cummin


def _running_extreme(x: object, args: tuple, largest: bool, name: str) -> object:
    a = numbers_of(x, name)
    axis, flags = cumulative_args(a, args, frozenset({"forward", "reverse", "omitnan", "includenan"}))
    cls = _extreme_class(x)
    values = along_last(a, axis)
    if values.dtype.kind == "V":
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
    out = back_from_last(out, axis)
    return result(out) if cls == "logical" else finish(out, cls)


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
