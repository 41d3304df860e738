"""Extremes: max and min (of arrays, along dimensions, or of two arrays
element by element) and the running extremes cummax and cummin."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.rules_support import select
from mlang.builtins.coerce import text_option
from mlang.builtins.data.shape import is_placeholder, padded
from mlang.builtins.math.cumulative import cumulative_args, direct_axis
from mlang.builtins.math.elementwise import ARITHMETIC
from mlang.builtins.math.reductions import (
    along_last,
    back_from_last,
    finish,
    gather_slices,
    numbers_of,
    reduce_axes,
    reduction_options,
    shaped,
)
from mlang.builtins.math.short_rows import FLOAT64, largest_of, short_values, smallest_of
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_codes, char_row, class_of, fix_shape, result, to_double_array, to_str
from mlang.values.operators import result_class


def _extreme_class(x: object) -> str:
    cls = class_of(x)
    return "double" if cls == "char" else cls


def _order_keys(values: np.ndarray, method: str = "auto") -> tuple[np.ndarray, np.ndarray | None]:
    """Real keys to compare by, the second breaking ties: the values; for complex values
    (or with 'abs') the magnitude, then the phase angle; with 'real' the real part, then
    the imaginary part."""
    if method == "abs" or (method == "auto" and values.dtype.kind == "c"):
        if values.dtype.kind in "iub":
            values = values.astype(np.float64)  # abs(intmin) would overflow
        return np.abs(values), np.angle(values)
    if values.dtype.kind == "c":
        return values.real, values.imag
    return values, None


def _comparison_method(args: tuple, name: str) -> tuple[tuple, str]:
    """The arguments without 'ComparisonMethod', value, and that value ('auto' if absent)."""
    rest = list(args)
    method = "auto"
    for k, v in enumerate(rest):
        if text_option(v) == "comparisonmethod":
            if k + 1 >= len(rest):
                raise error("MATLAB:InputParser:ParamMissingValue",
                            "Parameter names must be followed by values.")
            method = text_option(rest[k + 1]) or ""
            if method not in ("auto", "real", "abs"):
                raise error(f"MATLAB:{name}:InvalidComparisonMethod",
                            "Value of 'ComparisonMethod' must be 'auto', 'real', or 'abs'.")
            del rest[k:k + 2]
            break
    return tuple(rest), method


def _extreme(x: object, args: tuple, nargout: int, largest: bool, name: str,
             method: str = "auto") -> object:
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
    index = _extreme_index(values, largest, "includenan" in flags, method)
    picked = np.take_along_axis(values, index[..., None], axis=-1)[..., 0]
    m = finish(shaped(picked, out_shape), cls)
    if nargout <= 1:
        return m
    if "linear" in flags:
        # the same rearrangement applied to linear positions maps the index back to A
        positions, _ = gather_slices(np.arange(a.size).reshape(a.shape, order="F"), axes)
        index = np.take_along_axis(positions, index[..., None], axis=-1)[..., 0]
    return m, result(shaped((index + 1).astype(np.float64), out_shape))


def _extreme_index(values: np.ndarray, largest: bool, include_nan: bool,
                   method: str = "auto") -> np.ndarray:
    """Index (along the last axis) of the first largest/smallest element.

    NaN is skipped unless every element is NaN (or 'includenan'); complex
    numbers compare by magnitude, then by phase angle (or as 'ComparisonMethod' says)."""
    kind = values.dtype.kind
    if kind == "b":
        values = values.astype(np.int8)
    nan = np.isnan(values) if kind in "fc" else np.zeros(values.shape, dtype=bool)
    primary, secondary = _order_keys(values, method)
    if kind in "fc":
        primary = np.where(nan, -np.inf if largest else np.inf, primary.astype(np.float64))
    if secondary is None:
        index = np.argmax(primary, axis=-1) if largest else np.argmin(primary, axis=-1)
    else:
        best = primary.max(axis=-1, keepdims=True) if largest else primary.min(axis=-1, keepdims=True)
        tie = np.where(primary == best, secondary, -np.inf if largest else np.inf)
        index = np.argmax(tie, axis=-1) if largest else np.argmin(tie, axis=-1)
    if kind not in "fc":
        return index
    first_nan = np.argmax(nan, axis=-1)
    all_nan = nan.all(axis=-1)
    use_nan = (nan.any(axis=-1) & include_nan) | all_nan
    return np.where(use_nan, first_nan, index)


def _pairwise(a: object, b: object, largest: bool, include_nan: bool, name: str,
              method: str = "auto") -> object:
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
    out = np.where(_second_wins(x, y, largest, include_nan, method), y, x)
    return finish(out, cls) if cls != "logical" else result(out != 0)


def _second_wins(x: np.ndarray, y: np.ndarray, largest: bool, include_nan: bool,
                 method: str = "auto") -> np.ndarray:
    """Where max(x,y) (or min) takes y, for arrays of one size: ties go to x."""
    if x.dtype.kind == "c" or y.dtype.kind == "c":
        x, y = x.astype(np.complex128), y.astype(np.complex128)
    (kx, sx), (ky, sy) = _order_keys(x, method), _order_keys(y, method)
    with np.errstate(invalid="ignore"):
        if sx is not None and sy is not None:
            take_y = (ky > kx) | ((ky == kx) & (sy > sx)) if largest else \
                (ky < kx) | ((ky == kx) & (sy < sx))
        else:
            take_y = ky > kx if largest else ky < kx
    nan_x, nan_y = np.isnan(x), np.isnan(y)
    take_y = (take_y & ~nan_y) | (nan_x & ~nan_y)
    if include_nan:
        take_y = np.where(nan_x, False, take_y | nan_y)
    return take_y


_FLAGS = ("omitnan", "includenan")


def _max_min(x: Any, args: tuple, nargout: int, largest: bool, name: str) -> object:
    if len(args) == 1 and type(x) is float and type(args[0]) is float and nargout <= 1:
        # two double scalars (the common case in loops): _pairwise's rules, ties to x
        y = args[0]
        if y != y:
            return x
        if x != x or (y > x if largest else y < x):
            return y
        return x
    if len(args) == 1 and nargout <= 1:
        quick = _double_and_scalar(x, args[0], largest)
        if quick is not None:
            return quick
    if not args and nargout <= 2 and type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 \
            and x.size:
        # a real double row or column as a whole; a matrix down its columns
        quick = _of_all(x.reshape(-1), nargout, largest) if x.shape[0] == 1 or x.shape[1] == 1 \
            else _along_dimension(x, 0, nargout, largest)
        if quick is not None:
            return quick
    elif len(args) == 2 and nargout <= 2 and type(x) is np.ndarray and x.dtype == np.float64 \
            and x.ndim == 2 and x.size and is_placeholder(args[0]):
        # max(x, [], 1 or 2) and max(x, [], 'all') (or min)
        dim = args[1]
        quick = None
        if type(dim) is float and (dim == 1.0 or dim == 2.0):
            quick = _along_dimension(x, int(dim) - 1, nargout, largest)
        elif text_option(dim) == "all":
            quick = _of_all(x.reshape(-1, order="F"), nargout, largest)
        if quick is not None:
            return quick
    given = len(args)
    args, method = _comparison_method(args, name)
    if not args or (len(args) == 1 and len(args) < given and is_placeholder(args[0])):
        return _extreme(x, (), nargout, largest, name, method)
    second = args[0]
    if len(args) == 2 and not is_placeholder(second) and text_option(args[1]) in _FLAGS:
        if nargout > 1:
            raise _two_outputs(name)
        return _pairwise(x, second, largest, text_option(args[1]) == "includenan", name, method)
    if len(args) >= 2:
        if not is_placeholder(second):
            raise error("MATLAB:max:secondInputNotEmpty" if largest else "MATLAB:min:secondInputNotEmpty",
                        f"{name.upper()} with two matrices to compare and a working dimension is "
                        "not supported.")
        return _extreme(x, args[1:], nargout, largest, name, method)
    if text_option(second) in (*_FLAGS, "all", "linear"):
        raise error("MATLAB:invalidOption", f"Invalid option '{to_str(second)}'.")
    if nargout > 1:
        raise _two_outputs(name)
    return _pairwise(x, second, largest, False, name, method)


def _of_all(flat: np.ndarray, nargout: int, largest: bool) -> object:
    """The largest (or smallest) of the real doubles ``flat`` and, when nargout is 2, its
    1-based position; None when there is NaN (the general path skips NaN)."""
    # argmax/argmin: the first extreme element (of 0 and -0, the first), or the first NaN
    k = int(flat.argmax() if largest else flat.argmin())
    value = float(flat[k])
    if value != value:
        return None
    return value if nargout <= 1 else (value, float(k + 1))


def _along_dimension(x: np.ndarray, axis: int, nargout: int, largest: bool) -> object:
    """max(x, [], dim) (or min) of a nonempty real double 2-D array along dimension 1 or 2
    (``axis`` 0 or 1), with the index when nargout is 2; None when a slice has NaN (the
    general path skips NaN)."""
    # argmax/argmin: the first extreme element (of 0 and -0, the first), or the first NaN
    index = x.argmax(axis=axis, keepdims=True) if largest else x.argmin(axis=axis, keepdims=True)
    if x.size <= 64:  # picked in Python: NumPy's gathers cost more than the whole here
        rows = x.tolist()
        ks = index.reshape(-1).tolist()
        picked = [rows[i][k] for i, k in enumerate(ks)] if axis else [rows[k][j] for j, k in enumerate(ks)]
        if any(v != v for v in picked):
            return None
        m = np.array(picked).reshape(index.shape)
    else:
        m = np.take_along_axis(x, index, axis)
        if np.isnan(m).any():
            return None
    if nargout <= 1:
        return result(m)
    return result(m), result((index + 1).astype(np.float64))


def _double_and_scalar(x: object, y: object, largest: bool) -> object:
    """max(x, y) (or min) of a 2-D double array and a double scalar, either way round, as
    _pairwise computes it (NaN loses, ties go to x); None for other operands."""
    tx, ty = type(x), type(y)
    if tx is np.ndarray and ty is float:
        array, scalar, array_first = x, y, True
    elif tx is float and ty is np.ndarray:
        array, scalar, array_first = y, x, False
    else:
        return None
    if array.dtype is not FLOAT64 or array.ndim != 2:
        return None
    if scalar != scalar:  # a NaN scalar loses everywhere (and a NaN array element is kept)
        out = array.copy()
    elif scalar != 0.0:
        # fmax/fmin: NaN loses; a tie is between equal bits, so which side wins is moot (but
        # not for 0 and -0, where x must win)
        out = np.fmax(array, scalar) if largest else np.fmin(array, scalar)
    elif array_first:  # keep x unless y beats it or x is NaN
        out = np.where(array >= scalar if largest else array <= scalar, array, scalar)
    else:  # keep the scalar x unless y beats it
        out = np.where(array > scalar if largest else array < scalar, array, scalar)
    return float(out[0, 0]) if out.size == 1 else out


def _two_outputs(name: str) -> Exception:
    return error(f"MATLAB:{name}:TwoInTwoOutCaseNotSupported",
                 f"{name.upper()} with two matrices to compare and two output arguments is not "
                 "supported.")


def extreme_positions(a: np.ndarray, options: tuple, largest: bool,
                      method: str = "auto") -> np.ndarray:
    """0-based linear positions in ``a`` of the elements max(a,[],options...) (or min) picks."""
    name = "max" if largest else "min"
    _, index = _extreme(a, tuple(options) + (char_row("linear"),), 2, largest, name, method)
    return (to_double_array(index).reshape(-1, order="F") - 1).astype(np.intp)


def _extreme_rule(largest: bool) -> Any:
    """The gradient of max or min: all of it to the selected element (the first on ties);
    for max(A,B)/min(A,B), to the selected operand, elementwise (A on ties)."""

    def rule(g: Any, y: Any, x: Any, *args: Any) -> tuple:
        rest = (None,) * len(args)
        a = ops.data_of(x)
        options, method = _comparison_method(args, "max" if largest else "min")
        if _pairwise_form(options):
            b = ops.data_of(args[0])
            include_nan = len(options) == 2 and text_option(options[1]) == "includenan"
            fa, fb = to_double_array(a), to_double_array(b)
            fa, fb = padded(fa, fb.ndim), padded(fb, fa.ndim)
            fa, fb = np.broadcast_arrays(fa, fb)
            second = _second_wins(fa, fb, largest, include_nan, method).reshape(ops.shape_of(g))
            return (lambda: ops.unbroadcast(select(g, ~second), x),
                    lambda: ops.unbroadcast(select(g, second), args[0])) + rest[1:]
        positions = extreme_positions(a, tuple(options[1:]), largest, method)
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
    [M,I] = max(A,[],___,'linear')
    C = max(A,B)
    C = max(A,B,nanflag)
    ___ = max(___,'ComparisonMethod',method)

    Largest elements (NaN ignored unless 'includenan'); I gives their index.
    'ComparisonMethod' 'real' or 'abs' says how numbers compare (complex: 'abs')."""
    if len(args) == 1 and nargout <= 1 and type(x) is np.ndarray:  # (spared _max_min's steps)
        quick = _double_and_scalar(x, args[0], True)
        if quick is not None:
            return quick
    if not args and nargout <= 1:
        values = short_values(x)
        if values is not None:
            best = largest_of(values)
            if best is not None:
                return best
    return _max_min(x, args, nargout, True, "max")


@builtin(max_out=2, nargout=True, gradient=_extreme_rule(False))
def min_(x: Any, *args: Any, nargout: int = 1) -> object:
    """M = min(A)
    M = min(A,[],dim)
    M = min(A,[],'all')
    M = min(A,[],vecdim)
    M = min(A,[],___,nanflag)
    [M,I] = min(___)
    [M,I] = min(A,[],___,'linear')
    C = min(A,B)
    C = min(A,B,nanflag)
    ___ = min(___,'ComparisonMethod',method)

    Smallest elements (NaN ignored unless 'includenan'); I gives their index.
    'ComparisonMethod' 'real' or 'abs' says how numbers compare (complex: 'abs')."""
    if len(args) == 1 and nargout <= 1 and type(x) is np.ndarray:  # (spared _max_min's steps)
        quick = _double_and_scalar(x, args[0], False)
        if quick is not None:
            return quick
    if not args and nargout <= 1:
        values = short_values(x)
        if values is not None:
            best = smallest_of(values)
            if best is not None:
                return best
    return _max_min(x, args, nargout, False, "min")


# ------------------------------------------------------------ cummax, cummin


def _running_extreme(x: object, args: tuple, largest: bool, name: str) -> object:
    axis = direct_axis(x, args)
    if axis >= 0:  # (fmax and fmin skip NaN, as cummax and cummin do)
        return result((np.fmax if largest else np.fmin).accumulate(x, axis=axis))
    a = numbers_of(x, name)
    axis, flags = cumulative_args(a, args, frozenset({"forward", "reverse", "omitnan", "includenan"}))
    cls = _extreme_class(x)
    values = along_last(a, axis)
    if values.dtype.kind == "V":
        values = char_codes(values).astype(np.float64)
    reverse = "reverse" in flags
    if reverse:
        values = values[..., ::-1]
    if values.dtype.kind == "c":
        out = _running_complex(values, largest, "includenan" in flags)
    else:
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


def _running_complex(values: np.ndarray, largest: bool, include_nan: bool) -> np.ndarray:
    """Running extremes of complex values along the last axis: by magnitude, then angle."""
    out = values.copy()
    if values.shape[-1] == 0:
        return out
    best = values[..., 0].copy()
    for k in range(1, values.shape[-1]):
        current = values[..., k]
        best = np.where(_second_wins(best, current, largest, include_nan), current, best)
        out[..., k] = best
    return out


@builtin()
def cummax(x: Any, *args: Any) -> object:
    """M = cummax(A)
    M = cummax(A,dim)
    M = cummax(___,direction)
    M = cummax(___,nanflag)

    Cumulative maximum (NaN ignored unless 'includenan'); complex values compare by
    magnitude, then phase angle."""
    return _running_extreme(x, args, True, "cummax")


@builtin()
def cummin(x: Any, *args: Any) -> object:
    """M = cummin(A)
    M = cummin(A,dim)
    M = cummin(___,direction)
    M = cummin(___,nanflag)

    Cumulative minimum (NaN ignored unless 'includenan'); complex values compare by
    magnitude, then phase angle."""
    return _running_extreme(x, args, False, "cummin")
