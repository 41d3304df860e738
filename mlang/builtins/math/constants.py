"""Constants: pi, Inf, NaN, eps, the imaginary unit, true/false, and the limits of
the numeric classes (intmax, intmin, realmax, realmin, flintmax).

Inf, NaN, true and false take size arguments like zeros (``Inf(2,3)``,
``NaN([1 n])``); the floating-point ones also a class name or ``'like', p``.
"""

from __future__ import annotations

import math

import numpy as np

from mlang.builtins.coerce import size_arguments, sizes_and_class, text_option
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import INT_CLASSES, class_of, fix_shape, is_text, result, to_array, to_str
from mlang.values.operators import INT_LIMITS

FLOAT_CLASSES = ("double", "single")


def _filled(value: float, args: tuple) -> object:
    items, cls = sizes_and_class(args, FLOAT_CLASSES)
    shape = fix_shape(size_arguments(items, cls))
    return result(np.full(shape, value, dtype=np.dtype(cls)))


@builtin()
def pi() -> float:
    """p = pi  the ratio of a circle's circumference to its diameter, 3.1415926535897..."""
    return float(np.pi)


@builtin("Inf")
def inf_upper(*args: object) -> object:
    """X = Inf  positive infinity
    X = Inf(n), Inf(m,n,...), Inf([m n ...])  arrays of Inf
    X = Inf(..., 'single'), Inf(..., 'like', p)"""
    return _filled(np.inf, args) if args else math.inf


@builtin("inf")
def inf_lower(*args: object) -> object:
    """X = inf  the same as Inf"""
    return _filled(np.inf, args) if args else math.inf


@builtin("NaN")
def nan_upper(*args: object) -> object:
    """X = NaN  Not-a-Number
    X = NaN(n), NaN(m,n,...), NaN([m n ...])  arrays of NaN
    X = NaN(..., 'single'), NaN(..., 'like', p)"""
    return _filled(np.nan, args) if args else math.nan


@builtin("nan")
def nan_lower(*args: object) -> object:
    """X = nan  the same as NaN"""
    return _filled(np.nan, args) if args else math.nan


@builtin("i")
def imaginary_i() -> complex:
    """z = i  the imaginary unit, sqrt(-1) (1i cannot be shadowed by a variable)"""
    return 1j


@builtin("j")
def imaginary_j() -> complex:
    """z = j  the imaginary unit, the same as i"""
    return 1j


def _logical_filled(value: bool, args: tuple) -> object:
    items = list(args)
    if len(items) >= 2 and text_option(items[-2]) == "like":
        if class_of(items[-1]) != "logical":
            raise error("MATLAB:true:invalidLike", "Class of prototype must be logical.")
        items = items[:-2]
    return result(np.full(fix_shape(size_arguments(items, "logical")), value, dtype=bool))


@builtin("true")
def true_(*args: object) -> object:
    """T = true  logical 1
    T = true(n), true(m,n,...), true([m n ...])  logical arrays of ones"""
    return _logical_filled(True, args) if args else True


@builtin("false")
def false_(*args: object) -> object:
    """F = false  logical 0
    F = false(n), false(m,n,...), false([m n ...])  logical arrays of zeros"""
    return _logical_filled(False, args) if args else False


def _float_class(args: tuple, name: str) -> str:
    """The class named by a builtin's optional 'double'/'single' or 'like', p arguments."""
    if not args:
        return "double"
    if len(args) == 2 and text_option(args[0]) == "like":
        cls = class_of(args[1])
    elif len(args) == 1 and is_text(args[0]):
        cls = to_str(args[0])
    else:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if cls not in FLOAT_CLASSES:
        raise error(f"MATLAB:{name}:invalidClassName", "Class name must be 'double' or 'single'.")
    return cls


def _float_constant(values: dict[str, float], args: tuple, name: str) -> object:
    cls = _float_class(args, name)
    return float(values["double"]) if cls == "double" else np.full((1, 1), values["single"],
                                                                    dtype=np.float32)


@builtin()
def eps(*args: object) -> object:
    """d = eps  distance from 1.0 to the next larger double, 2^-52
    d = eps(x)  distance from abs(x) to the next larger number of the same class
    d = eps('single'), eps('double'), eps('like', p)"""
    if len(args) == 1 and not is_text(args[0]):
        return _spacing(args[0])
    return _float_constant({"double": 2.0 ** -52, "single": 2.0 ** -23}, args, "eps")


def _spacing(x: object) -> object:
    cls = class_of(x)
    if cls not in FLOAT_CLASSES:
        raise error("MATLAB:eps:invalidClassName", "Class must be 'single' or 'double'.")
    a = np.abs(to_array(x))
    a = a.astype(np.float32 if cls == "single" else np.float64)
    info = np.finfo(a.dtype)
    with np.errstate(invalid="ignore"):
        _, exponent = np.frexp(a)
        # 2^(e - p) for a = m*2^e with 0.5 <= m < 1; the smallest subnormal below that.
        spacing = np.ldexp(np.ones_like(a), exponent - info.nmant - 1)
        spacing = np.where(a == 0, 0, spacing)  # frexp(0) has no exponent to speak of
        spacing = np.maximum(spacing, info.smallest_subnormal)
        spacing = np.where(np.isfinite(a), spacing, np.nan).astype(a.dtype)
    return result(spacing)


@builtin()
def realmax(*args: object) -> object:
    """f = realmax  the largest finite double, (2-2^-52)*2^1023
    f = realmax('single'), realmax('like', p)"""
    return _float_constant({"double": np.finfo(np.float64).max,
                            "single": np.finfo(np.float32).max}, args, "realmax")


@builtin()
def realmin(*args: object) -> object:
    """f = realmin  the smallest positive normalized double, 2^-1022
    f = realmin('single'), realmin('like', p)"""
    return _float_constant({"double": 2.0 ** -1022, "single": 2.0 ** -126}, args, "realmin")


@builtin()
def flintmax(*args: object) -> object:
    """f = flintmax  the largest consecutive integer in double precision, 2^53
    f = flintmax('single')  2^24"""
    return _float_constant({"double": 2.0 ** 53, "single": 2.0 ** 24}, args, "flintmax")


def _int_class(args: tuple, name: str) -> str:
    if not args:
        return "int32"
    if len(args) == 2 and text_option(args[0]) == "like":
        cls = class_of(args[1])
    elif len(args) == 1 and is_text(args[0]):
        cls = to_str(args[0])
    elif len(args) == 1:
        raise error(f"MATLAB:{name}:inputMustBeString", "Input must be a string or character vector.")
    else:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if cls not in INT_CLASSES:
        raise error(f"MATLAB:{name}:invalidClassName", "Invalid class name.")
    return cls


@builtin()
def intmax(*args: object) -> np.ndarray:
    """v = intmax  the largest int32 value, 2147483647
    v = intmax(classname)  the largest value of that integer class, e.g. intmax('uint8')
    v = intmax('like', p)"""
    cls = _int_class(args, "intmax")
    return np.full((1, 1), INT_LIMITS[cls][1], dtype=np.dtype(cls))


@builtin()
def intmin(*args: object) -> np.ndarray:
    """v = intmin  the smallest int32 value, -2147483648
    v = intmin(classname)  the smallest value of that integer class
    v = intmin('like', p)"""
    cls = _int_class(args, "intmin")
    return np.full((1, 1), INT_LIMITS[cls][0], dtype=np.dtype(cls))
