"""Element-wise math: exponentials and logarithms, trigonometry, rounding,
remainders, complex parts, NaN/Inf tests, bitwise functions, number theory,
special functions and the functional forms of the operators.

Class rules follow MATLAB: the transcendental functions accept only double
and single (logical and char count as double, integers are refused); abs,
sign, the rounding functions, mod, rem and the bitwise functions keep integer
classes (saturating); real inputs outside a function's real domain give
complex results (sqrt(-4), log(-1), asin(2)).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np

from mlang.autodiff import ops, rules_support
from mlang.errors import error, warn
from mlang.registry import builtin
from mlang.values import operators
from mlang.values.core import (
    INT_CLASSES,
    class_of,
    is_text,
    result,
    to_array,
    to_double_array,
    to_str,
)
from mlang.values.operators import INT_LIMITS, align, to_class

NUMERIC = frozenset({"double", "single", *INT_CLASSES})
ARITHMETIC = frozenset({*NUMERIC, "logical", "char"})
FLINTMAX = 2.0 ** 53


# ------------------------------------------------------------------ helpers


def bad_type(name: str) -> Exception:
    return error("MATLAB:UndefinedFunction",
                 "Check for incorrect argument data type or missing argument in call to "
                 f"function '{name}'.")


def floating(name: str, x: object) -> np.ndarray:
    """``x`` as a floating array (single stays single); logical and char become
    double; integer and non-numeric classes are refused, as MATLAB does."""
    cls = class_of(x)
    if cls == "double" or cls == "single":
        return to_array(x)
    if cls == "logical" or cls == "char":
        return to_double_array(x)
    raise bad_type(name)


def numeric(name: str, x: object) -> tuple[np.ndarray, str]:
    """``x`` as an array with its result class (logical and char act as double)."""
    cls = class_of(x)
    if cls in NUMERIC:
        return to_array(x), cls
    if cls == "logical" or cls == "char":
        return to_double_array(x), "double"
    raise bad_type(name)


def wide_ints(a: np.ndarray) -> np.ndarray:
    """Integer values widened so arithmetic cannot wrap: int64, or Python ints
    for the 64-bit classes."""
    return a.astype(object) if a.dtype.itemsize == 8 else a.astype(np.int64)


def complex_dtype(a: np.ndarray) -> type:
    return np.complex64 if a.dtype in (np.float32, np.complex64) else np.complex128


def binary_operands(name: str, a: object, b: object) -> tuple[np.ndarray, np.ndarray, str]:
    """Two operands aligned for implicit expansion, with MATLAB's result class.
    Integer operands are returned as they are, floating ones in the class to compute in."""
    for v in (a, b):
        if class_of(v) not in ARITHMETIC:
            raise bad_type(name)
    cls = operators.result_class(a, b, name)
    if cls in INT_LIMITS:
        x, y = _as_int_class(a, cls), _as_int_class(b, cls)
    else:
        x, y = floating(name, a), floating(name, b)
        if cls == "single":
            x, y = x.astype(complex_dtype(x) if x.dtype.kind == "c" else np.float32), \
                y.astype(complex_dtype(y) if y.dtype.kind == "c" else np.float32)
    x, y = align(x, y)
    _check_expansion(x, y)
    return x, y, cls


def _as_int_class(v: object, cls: str) -> np.ndarray:
    a = to_array(v)
    if class_of(v) == cls:
        return a
    return to_class(to_double_array(a), cls)


def _check_expansion(x: np.ndarray, y: np.ndarray) -> None:
    for dx, dy in zip(x.shape, y.shape, strict=True):
        if dx != dy and dx != 1 and dy != 1:
            raise error("MATLAB:sizeDimensionsMustMatch",
                        "Arrays have incompatible sizes for this operation.")


def _require_real(name: str, *arrays: np.ndarray) -> None:
    if any(a.dtype.kind == "c" for a in arrays):
        raise error(f"MATLAB:{name}:complexArgs", "Input arguments must be real.")


def _apply(fn: Callable, a: np.ndarray) -> object:
    with np.errstate(all="ignore"):
        return result(np.asarray(fn(a)))


def _on_parts(fn: Callable, a: np.ndarray) -> np.ndarray:
    """Apply a real function to the real and imaginary parts of a complex array."""
    if a.dtype.kind != "c":
        return fn(a)
    out = np.empty(a.shape, dtype=a.dtype)
    out.real, out.imag = fn(a.real), fn(a.imag)
    return out


# ------------------------------------------- exponentials, logs, trigonometry


# Python's math module for real double scalars (the common case in loops); it
# raises for results that are complex, infinite or NaN, and then NumPy answers.
_SCALAR_MATH: dict[str, Callable[[float], float]] = {
    "sqrt": math.sqrt, "exp": math.exp, "log": math.log, "log10": math.log10,
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "atan": math.atan,
    "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh,
}


def _math(name: str, fn: Callable, x: object, complex_when: Callable | None = None) -> object:
    if type(x) is float:
        fast = _SCALAR_MATH.get(name)
        if fast is not None:
            try:
                return fast(x)
            except (ValueError, OverflowError):
                pass
    a = floating(name, x)
    if complex_when is not None and a.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            outside = complex_when(a)
        if outside.any():
            a = a.astype(complex_dtype(a))
    return _apply(fn, a)


def _register_math(name: str, fn: Callable, usage: str,
                   complex_when: Callable | None, derivative: Callable) -> None:
    def math_function(x: object) -> object:
        return _math(name, fn, x, complex_when)

    math_function.__name__ = name
    rule = derivative.rule if isinstance(derivative, Rule) else chain_rule(derivative)
    builtin(name, help=usage, gradient=rule)(math_function)


class Rule:
    """A whole gradient rule given in the table in place of a derivative."""

    def __init__(self, rule: Callable) -> None:
        self.rule = rule


def _tanh_backward(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    return g * (1 - y * y)


# g .* (1 - y.^2) as one operation: PINN-style losses differentiate tanh networks
# several times over, and one recorded node here saves three at every level.
TANH_BACKWARD = ops.Primitive(
    "tanh_backward", _tanh_backward,
    lambda gz, z, g, y: (lambda: ops.apply(TANH_BACKWARD, gz, y),
                         lambda: ops.times(-2.0, ops.times(gz, ops.times(g, y)))))


def _tanh_rule(g: object, y: object, x: object) -> tuple:
    if ops.data_of(y).dtype.kind == "c":
        return chain_rule(lambda y, x: ops.minus(1.0, _square(y)))(g, y, x)
    if type(g) is np.ndarray and type(y) is np.ndarray and g.shape == y.shape:
        return (_tanh_backward(g, y),)
    return (ops.apply(TANH_BACKWARD, g, y),)


def chain_rule(derivative: Callable) -> Callable:
    """The gradient rule of y = f(x) given f'(x) as ``derivative(y, x)``: g .* conj(f'(x))."""
    return lambda g, y, x: (ops.times(g, ops.conj(derivative(y, x))),)


def _square(x: object) -> object:
    return ops.times(x, x)


def _sqrt(x: object) -> object:
    return ops.call("sqrt", x)


def _asec_denominator(x: object) -> object:
    """x.^2 .* sqrt(1 - 1./x.^2): asec'(x) is its reciprocal."""
    return ops.times(_square(x), _sqrt(ops.minus(1.0, ops.rdivide(1.0, _square(x)))))


def _asin_real_outside(a: np.ndarray) -> np.ndarray:
    """asin of real x with |x| > 1 on MATLAB's branch: sign(x)*(pi/2 - i*acosh|x|)."""
    s = np.sign(a)
    return s * (np.pi / 2) - 1j * s * np.arccosh(np.abs(a))


def _asin(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "c":
        return np.arcsin(a)
    outside = np.abs(a) > 1
    if not outside.any():
        return np.arcsin(a)
    out = np.arcsin(np.where(outside, 0, a)).astype(complex_dtype(a))
    return np.where(outside, _asin_real_outside(a).astype(out.dtype), out)


def _acos(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "c" or not (np.abs(a) > 1).any():
        return np.arccos(a)
    return (np.pi / 2 - _asin(a)).astype(complex_dtype(a))


def _reciprocal(fn: Callable) -> Callable:
    return lambda a: 1 / fn(a)


def _of_reciprocal(fn: Callable) -> Callable:
    return lambda a: fn(1 / a)


# name, function, help, where real input gives complex output, derivative f'(x) as d(y, x)
_MATH: list[tuple[str, Callable, str, Callable | None, Callable]] = [
    ("sqrt", np.sqrt, "B = sqrt(X)  square root; negative elements give complex results",
     lambda a: a < 0, lambda y, x: ops.rdivide(0.5, y)),
    ("exp", np.exp, "Y = exp(X)  exponential e.^X", None, lambda y, x: y),
    ("expm1", np.expm1, "Y = expm1(X)  exp(X)-1, accurate for small X", None,
     lambda y, x: ops.plus(y, 1.0)),
    ("log", np.log, "Y = log(X)  natural logarithm; negative elements give complex results",
     lambda a: a < 0, lambda y, x: ops.rdivide(1.0, x)),
    ("log10", np.log10, "Y = log10(X)  common (base 10) logarithm", lambda a: a < 0,
     lambda y, x: ops.rdivide(1 / math.log(10), x)),
    ("log1p", np.log1p, "Y = log1p(X)  log(1+X), accurate for small X", lambda a: a < -1,
     lambda y, x: ops.rdivide(1.0, ops.plus(x, 1.0))),
    ("sin", np.sin, "Y = sin(X)  sine of X in radians", None, lambda y, x: ops.call("cos", x)),
    ("cos", np.cos, "Y = cos(X)  cosine of X in radians", None,
     lambda y, x: ops.uminus(ops.call("sin", x))),
    ("tan", np.tan, "Y = tan(X)  tangent of X in radians", None,
     lambda y, x: ops.plus(1.0, _square(y))),
    ("sec", _reciprocal(np.cos), "Y = sec(X)  secant of X in radians", None,
     lambda y, x: ops.times(y, ops.call("tan", x))),
    ("csc", _reciprocal(np.sin), "Y = csc(X)  cosecant of X in radians", None,
     lambda y, x: ops.uminus(ops.times(y, ops.call("cot", x)))),
    ("cot", _reciprocal(np.tan), "Y = cot(X)  cotangent of X in radians", None,
     lambda y, x: ops.uminus(ops.plus(1.0, _square(y)))),
    ("asin", _asin, "Y = asin(X)  inverse sine in radians", None,
     lambda y, x: ops.rdivide(1.0, _sqrt(ops.minus(1.0, _square(x))))),
    ("acos", _acos, "Y = acos(X)  inverse cosine in radians", None,
     lambda y, x: ops.rdivide(-1.0, _sqrt(ops.minus(1.0, _square(x))))),
    ("atan", np.arctan, "Y = atan(X)  inverse tangent in radians", None,
     lambda y, x: ops.rdivide(1.0, ops.plus(1.0, _square(x)))),
    ("acot", _of_reciprocal(np.arctan), "Y = acot(X)  inverse cotangent in radians", None,
     lambda y, x: ops.rdivide(-1.0, ops.plus(1.0, _square(x)))),
    ("asec", _of_reciprocal(_acos), "Y = asec(X)  inverse secant in radians", None,
     lambda y, x: ops.rdivide(1.0, _asec_denominator(x))),
    ("acsc", _of_reciprocal(_asin), "Y = acsc(X)  inverse cosecant in radians", None,
     lambda y, x: ops.rdivide(-1.0, _asec_denominator(x))),
    ("sinh", np.sinh, "Y = sinh(X)  hyperbolic sine", None, lambda y, x: ops.call("cosh", x)),
    ("cosh", np.cosh, "Y = cosh(X)  hyperbolic cosine", None, lambda y, x: ops.call("sinh", x)),
    ("tanh", np.tanh, "Y = tanh(X)  hyperbolic tangent", None, Rule(_tanh_rule)),
    ("sech", _reciprocal(np.cosh), "Y = sech(X)  hyperbolic secant", None,
     lambda y, x: ops.uminus(ops.times(y, ops.call("tanh", x)))),
    ("csch", _reciprocal(np.sinh), "Y = csch(X)  hyperbolic cosecant", None,
     lambda y, x: ops.uminus(ops.times(y, ops.call("coth", x)))),
    ("coth", _reciprocal(np.tanh), "Y = coth(X)  hyperbolic cotangent", None,
     lambda y, x: ops.minus(1.0, _square(y))),
    ("asinh", np.arcsinh, "Y = asinh(X)  inverse hyperbolic sine", None,
     lambda y, x: ops.rdivide(1.0, _sqrt(ops.plus(_square(x), 1.0)))),
    ("acosh", np.arccosh, "Y = acosh(X)  inverse hyperbolic cosine; X < 1 gives complex results",
     lambda a: a < 1,
     lambda y, x: ops.rdivide(1.0, ops.times(_sqrt(ops.minus(x, 1.0)), _sqrt(ops.plus(x, 1.0))))),
    ("atanh", np.arctanh, "Y = atanh(X)  inverse hyperbolic tangent; |X| > 1 gives complex results",
     lambda a: np.abs(a) > 1, lambda y, x: ops.rdivide(1.0, ops.minus(1.0, _square(x)))),
]

for _name, _fn, _usage, _when, _derivative in _MATH:
    _register_math(_name, _fn, _usage, _when, _derivative)


@builtin(max_out=2, nargout=True, gradient=chain_rule(lambda y, x: ops.rdivide(1 / math.log(2), x)))
def log2(x: object, *, nargout: int = 1) -> object:
    """Y = log2(X)  base 2 logarithm
    [F, E] = log2(X)  mantissa and exponent: X = F.*2.^E with 0.5 <= abs(F) < 1"""
    if nargout < 2:
        return _math("log2", np.log2, x, lambda a: a < 0)
    a = floating("log2", x)
    if a.dtype.kind == "c":
        a = a.real
    f, e = np.frexp(a)
    finite = np.isfinite(a)
    f = np.where(finite, f, a)  # MATLAB returns Inf/NaN as the mantissa, 0 as the exponent
    return result(f), result(np.where(finite, e, 0).astype(a.dtype))


def _hypot_rule(g: object, h: object, a: object, b: object) -> tuple:
    g = ops.real(g)  # the value is real for every input
    scale = ops.rdivide(g, h)  # h = 0 gives NaN, as 0/0 does
    return (ops.unbroadcast(ops.times(scale, a), a), ops.unbroadcast(ops.times(scale, b), b))


@builtin(gradient=_hypot_rule)
def hypot(a: object, b: object) -> object:
    """C = hypot(A, B)  sqrt(abs(A).^2 + abs(B).^2) without overflow or underflow"""
    x, y = _float_pair("hypot", a, b)
    return _apply(lambda _: np.hypot(np.abs(x), np.abs(y)), x)


def _atan2_rule(g: object, p: object, y: object, x: object) -> tuple:
    scale = ops.rdivide(g, ops.plus(_square(x), _square(y)))
    return (ops.unbroadcast(ops.times(scale, x), y), ops.unbroadcast(ops.uminus(ops.times(scale, y)), x))


@builtin(gradient=_atan2_rule)
def atan2(y: object, x: object) -> object:
    """P = atan2(Y, X)  four-quadrant inverse tangent, in [-pi, pi]"""
    y_, x_ = _float_pair("atan2", y, x)
    _require_real("atan2", y_, x_)
    return _apply(lambda _: np.arctan2(y_, x_), y_)


def _float_pair(name: str, a: object, b: object) -> tuple[np.ndarray, np.ndarray]:
    x, y = floating(name, a), floating(name, b)
    if x.dtype in (np.float32, np.complex64) or y.dtype in (np.float32, np.complex64):
        x = x.astype(complex_dtype(x) if x.dtype.kind == "c" else np.float32)
        y = y.astype(complex_dtype(y) if y.dtype.kind == "c" else np.float32)
    x, y = align(x, y)
    _check_expansion(x, y)
    return x, y


@builtin()
def nthroot(x: object, n: object) -> object:
    """Y = nthroot(X, N)  real Nth root of X; negative X needs an odd integer N"""
    a, k = _float_pair("nthroot", x, n)
    if a.dtype.kind == "c" or k.dtype.kind == "c":
        raise error("MATLAB:nthroot:ComplexInput", "Both X and N must be real.")
    odd = (k == np.round(k)) & (np.mod(k, 2) == 1)
    if ((a < 0) & ~odd).any():
        raise error("MATLAB:nthroot:NegXNotOddIntegerN",
                    "If X is negative, N must be an odd integer.")
    with np.errstate(all="ignore"):
        y = np.sign(a) * np.abs(a) ** (1 / k)
        # One Newton step removes the rounding error of the power (27^(1/3) is 3, exactly).
        correct = np.isfinite(y) & (y != 0) & np.isfinite(k)
        step = (y ** k - a) / (k * y ** (k - 1))
        y = np.where(correct & np.isfinite(step), y - step, y)
    return result(np.asarray(y))


# ----------------------------------------------------------- abs, sign, round


def no_gradient(g: object, y: object, *args: object) -> tuple:
    """The rule of a piecewise-constant function: zero gradient (no contribution)."""
    return (None,) * len(args)


def _abs_rule(g: object, y: object, x: object) -> tuple:
    # sign(x); for complex x it is x./abs(x), not a constant, and abs is real-valued
    direction = rules_support.sign(x)
    if ops.data_of(x).dtype.kind != "c":
        return (ops.times(g, direction),)
    return (ops.times(ops.real(g), direction),)


@builtin("abs", gradient=_abs_rule)
def abs_(x: object) -> object:
    """Y = abs(X)  absolute value; magnitude of complex numbers (integers saturate)"""
    if type(x) is float:
        return abs(x)
    a, cls = numeric("abs", x)
    if cls in INT_LIMITS:
        if a.dtype.kind == "u":
            return a
        return result(to_class(np.abs(wide_ints(a)), cls))
    return _apply(np.abs, a)


@builtin(gradient=no_gradient)
def sign(x: object) -> object:
    """Y = sign(X)  1 for positive, -1 for negative, 0 for zero; X./abs(X) for complex"""
    a, cls = numeric("sign", x)
    if a.dtype.kind == "c":
        with np.errstate(all="ignore"):
            m = np.abs(a)
            return result(np.where(m == 0, 0, a / np.where(m == 0, 1, m)).astype(a.dtype))
    return _apply(np.sign, a)


def round_half_away(a: np.ndarray) -> np.ndarray:
    """Round to the nearest integer, ties away from zero (MATLAB's round)."""
    r = np.trunc(a)
    d = a - r  # exact for floating-point numbers
    return np.where(np.abs(d) >= 0.5, r + np.sign(d), r)


def _rounding(name: str, fn: Callable, x: object) -> object:
    if type(x) is float:
        return float(fn(x))
    a, cls = numeric(name, x)
    if cls in INT_LIMITS:
        return a
    return _apply(lambda v: _on_parts(fn, v), a)


@builtin(gradient=no_gradient)
def floor(x: object) -> object:
    """Y = floor(X)  round toward minus infinity"""
    return _rounding("floor", np.floor, x)


@builtin(gradient=no_gradient)
def ceil(x: object) -> object:
    """Y = ceil(X)  round toward plus infinity"""
    return _rounding("ceil", np.ceil, x)


@builtin(gradient=no_gradient)
def fix(x: object) -> object:
    """Y = fix(X)  round toward zero"""
    return _rounding("fix", np.trunc, x)


@builtin("round", gradient=no_gradient)
def round_(x: object, n: object = None, kind: object = None) -> object:
    """Y = round(X)  round to the nearest integer, ties away from zero
    Y = round(X, N)  round to N digits after the decimal point (N < 0: left of it)
    Y = round(X, N, 'significant')  round to N significant digits"""
    if n is None:
        return _rounding("round", round_half_away, x)
    digits = _digits_argument(n)
    significant = False
    if kind is not None:
        word = to_str(kind).lower() if is_text(kind) else ""
        if word not in ("significant", "decimals"):
            raise error("MATLAB:round:InvalidRoundType",
                        "Round type must be 'significant' or 'decimals'.")
        significant = word == "significant"
        if significant and digits <= 0:
            raise error("MATLAB:round:InvalidSignificantDigits",
                        "N must be a positive integer when rounding to significant digits.")
    a, cls = numeric("round", x)
    if cls in INT_LIMITS:
        if digits >= 0 and not significant:
            return a
        return result(to_class(_round_digits(a.astype(np.float64), digits, significant), cls))
    return _apply(lambda v: _on_parts(lambda p: _round_digits(p, digits, significant), v), a)


def _digits_argument(n: object) -> int:
    if class_of(n) not in ARITHMETIC or to_array(n).size != 1:
        raise error("MATLAB:round:InvalidDigits", "N must be an integer scalar.")
    value = to_double_array(n).real.reshape(-1)[0]
    if not np.isfinite(value) or value != np.round(value):
        raise error("MATLAB:round:InvalidDigits", "N must be an integer scalar.")
    return int(value)


def _round_digits(a: np.ndarray, digits: int, significant: bool) -> np.ndarray:
    if significant:
        with np.errstate(divide="ignore", invalid="ignore"):
            magnitude = np.floor(np.log10(np.abs(a)))
        places = np.where(np.isfinite(magnitude), digits - 1 - magnitude, 0)
        return _round_places(a, places)
    return _round_places(a, np.full(a.shape, digits, dtype=np.float64))


def _round_places(a: np.ndarray, places: np.ndarray) -> np.ndarray:
    # Dividing by 10^-n (not multiplying by 10^n) keeps powers of ten exact for n < 0.
    with np.errstate(all="ignore"):
        up = places >= 0
        scale = np.power(10.0, np.abs(places))
        scaled = np.where(up, a * scale, a / scale)
        rounded = round_half_away(scaled)
        out = np.where(up, rounded / scale, rounded * scale)
    return np.where(np.isfinite(scaled), out, a).astype(a.dtype)


# --------------------------------------------------------- mod, rem, idivide


def _remainder_rule(rounding: str) -> Callable:
    # a - m.*round(a./m): d/da = 1, d/dm = -round(a./m)
    def rule(g: object, y: object, a: object, m: object) -> tuple:
        q = ops.call(rounding, ops.rdivide(ops.data_of(a), ops.data_of(m)))
        return (ops.unbroadcast(g, a), ops.unbroadcast(ops.uminus(ops.times(g, q)), m))
    return rule


@builtin(gradient=_remainder_rule("floor"))
def mod(a: object, m: object) -> object:
    """b = mod(a, m)  remainder after division, with the sign of m: a - m.*floor(a./m)
    mod(a, 0) is a."""
    return _remainder("mod", a, m, floor_mode=True)


@builtin(gradient=_remainder_rule("fix"))
def rem(a: object, b: object) -> object:
    """r = rem(a, b)  remainder after division, with the sign of a: a - b.*fix(a./b)
    rem(a, 0) is NaN."""
    return _remainder("rem", a, b, floor_mode=False)


def _remainder(name: str, a: object, b: object, floor_mode: bool) -> object:
    if type(a) is float and type(b) is float and math.isfinite(a) and math.isfinite(b) and \
            (b == 0 or math.isfinite(a / b)):
        return _scalar_remainder(a, b, floor_mode)
    x, y, cls = binary_operands(name, a, b)
    _require_real(name, x, y)
    if cls in INT_LIMITS:
        fn = _int_mod if floor_mode else _int_rem
        values = np.frompyfunc(fn, 2, 1)(wide_ints(x).astype(object), wide_ints(y).astype(object))
        return result(to_class(np.asarray(values, dtype=object).reshape(
            np.broadcast_shapes(x.shape, y.shape)), cls))
    with np.errstate(all="ignore"):
        values = _float_remainder(x, y, floor_mode)
    return result(np.asarray(values))


def _int_mod(x: int, y: int) -> int:
    return x if y == 0 else x % y  # Python's % takes the sign of the divisor


def _int_rem(x: int, y: int) -> int:
    if y == 0:
        return 0  # NaN, as an integer
    r = abs(x) % abs(y)
    return -r if x < 0 else r


def _scalar_remainder(x: float, y: float, floor_mode: bool) -> float:
    """_float_remainder for two finite double scalars, in plain Python floats."""
    if y == 0:
        return x if floor_mode else math.nan
    if x.is_integer() and y.is_integer():
        r = math.fmod(x, y)  # exact for integer values
        if floor_mode and r != 0 and (r < 0) != (y < 0):
            r += y
        return r + 0.0
    q = x / y
    whole = math.trunc(q)
    if abs(q - whole) >= 0.5:
        whole += 1 if q > 0 else -1
    if not y.is_integer() and abs(q - whole) <= _EPS * abs(whole):
        return 0.0
    r = x - (math.floor(q) if floor_mode else math.trunc(q)) * y
    if floor_mode and r != 0 and (r < 0) != (y < 0):
        r += y  # q underflowed to 0 (x tiny): the result takes the divisor's sign
        if r == y:
            r = 0.0
    return r


_EPS = 2.0 ** -52


def _float_remainder(x: np.ndarray, y: np.ndarray, floor_mode: bool) -> np.ndarray:
    q = x / y
    whole = round_half_away(q)
    # As MATLAB does: for a non-integer divisor, a quotient within round-off of an
    # integer counts as that integer (so mod(0.3, 0.1) is 0, not 0.1).
    near = (y != np.trunc(y)) & (np.abs(q - whole) <= np.finfo(x.dtype).eps * np.abs(whole))
    n = np.floor(q) if floor_mode else np.trunc(q)
    r = np.where(near, 0, x - n * y)
    if floor_mode:  # q underflowed to 0 (x tiny): the result takes the divisor's sign
        wrong = (r != 0) & ((r < 0) != (y < 0)) & np.isfinite(y)
        if wrong.any():
            r = np.where(wrong, r + y, r)
            r = np.where(wrong & (r == y), 0, r)
    integral = (x == np.trunc(x)) & (y == np.trunc(y)) & (y != 0) & np.isfinite(y)
    if integral.any():  # exact for integer values of any size
        exact = np.fmod(x, np.where(integral, y, 1))
        if floor_mode:
            exact = np.where((exact != 0) & ((exact < 0) != (y < 0)), exact + y, exact)
        r = np.where(integral, exact + 0.0, r)  # + 0.0 turns fmod's -0 into 0
    zero = y == 0
    if zero.any():
        r = np.where(zero, x if floor_mode else np.nan, r)
    return r.astype(np.result_type(x, y))


_IDIVIDE_MODES = ("fix", "round", "floor", "ceil")


@builtin()
def idivide(a: object, b: object, opt: object = None) -> object:
    """C = idivide(A, B)  integer division rounded toward zero
    C = idivide(A, B, OPT)  OPT is 'fix' (default), 'round', 'floor' or 'ceil'"""
    mode = "fix" if opt is None else (to_str(opt).lower() if is_text(opt) else "")
    if mode not in _IDIVIDE_MODES:
        raise error("MATLAB:idivide:InvalidRoundingOption",
                    "Rounding option must be 'fix', 'round', 'floor', or 'ceil'.")
    if class_of(a) not in INT_LIMITS and class_of(b) not in INT_LIMITS:
        raise error("MATLAB:idivide:mustBeInteger",
                    "At least one argument must belong to an integer class.")
    x, y, cls = binary_operands("idivide", a, b)
    lo, hi = INT_LIMITS[cls]

    def divide(p: int, q: int) -> int:
        if q == 0:
            return hi if p > 0 else lo if p < 0 else 0
        quotient, remainder = divmod(p, q)  # floor division
        if remainder == 0 or mode == "floor":
            return quotient
        if mode == "ceil":
            return quotient + 1
        if mode == "fix":
            return quotient + 1 if (p < 0) != (q < 0) else quotient
        twice = 2 * abs(remainder)  # round: ties away from zero
        if twice > abs(q) or (twice == abs(q) and (p < 0) == (q < 0)):
            return quotient + 1
        return quotient

    values = np.frompyfunc(divide, 2, 1)(wide_ints(x).astype(object), wide_ints(y).astype(object))
    return result(to_class(np.asarray(values, dtype=object).reshape(
        np.broadcast_shapes(x.shape, y.shape)), cls))


# ------------------------------------------------------------ complex parts


@builtin(gradient=lambda g, y, z: (ops.real(g),))
def real(z: object) -> object:
    """X = real(Z)  real part"""
    a, _ = numeric("real", z)
    return result(a.real.copy()) if a.dtype.kind == "c" else result(a)


@builtin(gradient=lambda g, y, z: (ops.times(ops.real(g), 1j),))
def imag(z: object) -> object:
    """Y = imag(Z)  imaginary part (zeros for real input)"""
    a, _ = numeric("imag", z)
    return result(a.imag.copy()) if a.dtype.kind == "c" else result(np.zeros_like(a))


@builtin(gradient=lambda g, y, z: (ops.conj(g),))
def conj(z: object) -> object:
    """Zc = conj(Z)  complex conjugate"""
    a, _ = numeric("conj", z)
    return result(np.conj(a)) if a.dtype.kind == "c" else result(a)


@builtin(gradient=lambda g, y, z: (
    ops.times(ops.real(g), ops.rdivide(ops.times(1j, z), _square(ops.call("abs", z)))),))
def angle(z: object) -> object:
    """theta = angle(Z)  phase angle in radians, in [-pi, pi]"""
    a = floating("angle", z)
    return _apply(np.angle, a)


@builtin("complex")
def complex_(a: object, b: object = None) -> object:
    """z = complex(a, b)  a + bi, complex even when b is zero
    z = complex(x)  x as a complex value with zero imaginary part"""
    x = floating("complex", a)
    y = np.zeros_like(x, dtype=x.real.dtype) if b is None else floating("complex", b)
    _require_real("complex", x, y)
    x, y = _float_pair("complex", x, y)
    z = np.empty(np.broadcast_shapes(x.shape, y.shape), dtype=complex_dtype(x))
    z.real, z.imag = x, y  # not x + 1j*y: 1j*Inf would put a NaN in the real part
    # complex() is how MATLAB makes a complex value with a zero imaginary part,
    # so the result is not passed through result() (which would make it real).
    if z.shape == (1, 1) and z.dtype == np.complex128:
        return complex(z[0, 0])
    return z


@builtin(dl="data")
def isreal(x: object) -> bool:
    """tf = isreal(A)  true when A has no imaginary part stored"""
    if type(x) is complex:
        return False
    if class_of(x) in ARITHMETIC:
        return to_array(x).dtype.kind != "c"
    return False


def _test(name: str, fn: Callable, x: object) -> object:
    cls = class_of(x)
    if cls not in ARITHMETIC:
        raise bad_type(name)
    a = to_array(x)
    if a.dtype.kind not in "fc":
        return result(np.full(a.shape, name == "isfinite"))
    return result(fn(a))


@builtin(dl="data")
def isnan(x: object) -> object:
    """TF = isnan(A)  true where A is NaN"""
    return _test("isnan", np.isnan, x)


@builtin(dl="data")
def isinf(x: object) -> object:
    """TF = isinf(A)  true where A is Inf or -Inf"""
    return _test("isinf", np.isinf, x)


@builtin(dl="data")
def isfinite(x: object) -> object:
    """TF = isfinite(A)  true where A is neither Inf, -Inf nor NaN"""
    return _test("isfinite", np.isfinite, x)


# ------------------------------------------------------------------- bitwise


_BIT_TYPES = ("uint64", "uint32", "uint16", "uint8", "int64", "int32", "int16", "int8")


def _assumed_type(arg: object | None) -> str:
    if arg is None:
        return "uint64"
    name = to_str(arg) if is_text(arg) else ""
    if name not in _BIT_TYPES:
        raise error("MATLAB:bitfun:InvalidAssumedType",
                    "ASSUMEDTYPE must be an integer type name.")
    return name


def _bit_operands(name: str, a: object, b: object, assumed: object | None
                  ) -> tuple[np.ndarray, np.ndarray, str, str]:
    """Operands as integer arrays of one type, the type computed in and the result class."""
    for v in (a, b):
        if class_of(v) not in ARITHMETIC:
            raise bad_type(name)
    cls = operators.result_class(a, b, name)
    if cls == "single":
        cls = "double"
    kind = cls if cls in INT_LIMITS else _assumed_type(assumed)
    x, y = align(_bit_values(a, kind), _bit_values(b, kind))
    _check_expansion(x, y)
    return x, y, kind, cls


def _bit_values(v: object, kind: str) -> np.ndarray:
    a = to_array(v)
    if class_of(v) == kind:
        return a
    d = to_double_array(a)
    _require_real("bitfun", d)
    lo, hi = INT_LIMITS[kind]
    if ((d != np.trunc(d)) | (d < lo) | (d > min(hi, FLINTMAX))).any():
        raise error("MATLAB:bitfun:InvalidDoubleInput" if class_of(v) != "single" else
                    "MATLAB:bitfun:InvalidSingleInput",
                    "Double inputs must have integer values in the range of ASSUMEDTYPE.")
    return d.astype(np.dtype(kind))


def _bit_result(values: np.ndarray, cls: str) -> object:
    if cls in INT_LIMITS:
        return result(values)
    return result(values.astype(np.float64))


def _bitwise(name: str, fn: Callable, a: object, b: object, assumed: object | None) -> object:
    if type(a) is float and type(b) is float and assumed is None and \
            _small_natural(a) and _small_natural(b):
        return float(fn(int(a), int(b)))
    x, y, _, cls = _bit_operands(name, a, b, assumed)
    return _bit_result(fn(x, y), cls)


def _small_natural(v: float) -> bool:
    """A double that bit functions take as it is: a non-negative integer up to flintmax."""
    return 0 <= v <= FLINTMAX and v.is_integer()


@builtin()
def bitand(a: object, b: object, assumedtype: object = None) -> object:
    """C = bitand(A, B)  bit-wise AND of non-negative integer values
    C = bitand(A, B, ASSUMEDTYPE)  treat double inputs as that integer type"""
    return _bitwise("bitand", np.bitwise_and, a, b, assumedtype)


@builtin()
def bitor(a: object, b: object, assumedtype: object = None) -> object:
    """C = bitor(A, B)  bit-wise OR
    C = bitor(A, B, ASSUMEDTYPE)"""
    return _bitwise("bitor", np.bitwise_or, a, b, assumedtype)


@builtin()
def bitxor(a: object, b: object, assumedtype: object = None) -> object:
    """C = bitxor(A, B)  bit-wise exclusive OR
    C = bitxor(A, B, ASSUMEDTYPE)"""
    return _bitwise("bitxor", np.bitwise_xor, a, b, assumedtype)


@builtin()
def bitshift(a: object, k: object, assumedtype: object = None) -> object:
    """C = bitshift(A, K)  shift the bits of A left by K (right for negative K);
    bits shifted past the left end of the type are lost
    C = bitshift(A, K, ASSUMEDTYPE)"""
    if type(a) is float and type(k) is float and assumedtype is None and _small_natural(a) \
            and k.is_integer() and abs(k) < 64:
        n = int(k)
        return float((int(a) << n) & 0xFFFFFFFFFFFFFFFF if n >= 0 else int(a) >> -n)
    if class_of(k) not in ARITHMETIC:
        raise bad_type("bitshift")
    cls = class_of(a)
    if cls not in ARITHMETIC:
        raise bad_type("bitshift")
    kind = cls if cls in INT_LIMITS else _assumed_type(assumedtype)
    x = _bit_values(a, kind)
    shift = to_double_array(k)
    _require_real("bitshift", shift)
    if (shift != np.trunc(shift)).any():
        raise error("MATLAB:bitshift:NonIntegerShift", "Shift value must be an integer.")
    x, shift = align(x, shift)
    _check_expansion(x, shift)
    x, shift = np.broadcast_arrays(x, shift)
    bits = x.dtype.itemsize * 8
    # NumPy (like C) leaves shifts by the type's width or more undefined: clamp them.
    left = np.clip(shift, 0, bits - 1).astype(x.dtype)
    right = np.clip(-shift, 0, bits - 1).astype(x.dtype)
    out = np.where(shift >= 0, np.left_shift(x, left), np.right_shift(x, right))
    out = np.where(shift >= bits, 0, out)
    fill = np.where(x < 0, -1, 0) if x.dtype.kind == "i" else 0
    out = np.where(-shift >= bits, fill, out).astype(x.dtype)
    return _bit_result(out, "double" if cls not in INT_LIMITS else cls)


@builtin()
def bitcmp(a: object, assumedtype: object = None) -> object:
    """C = bitcmp(A)  bit-wise complement of A
    C = bitcmp(A, ASSUMEDTYPE)  complement within that integer type (double input)"""
    cls = class_of(a)
    if cls not in ARITHMETIC:
        raise bad_type("bitcmp")
    kind = cls if cls in INT_LIMITS else _assumed_type(assumedtype)
    x = _bit_values(a, kind)
    return _bit_result(np.invert(x), "double" if cls not in INT_LIMITS else cls)


# ------------------------------------------------------------- number theory


def _integer_values(name: str, x: object, message: str, ident: str,
                    allow_negative: bool = False) -> tuple[np.ndarray, str]:
    a, cls = numeric(name, x)
    if a.dtype.kind == "c":
        raise error(ident, message)
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a) | (a != np.trunc(a))
        if not allow_negative:
            bad |= a < 0
        if bad.any():
            raise error(ident, message)
    elif not allow_negative and (a < 0).any():
        raise error(ident, message)
    return a, cls


def _from_ints(values: list | np.ndarray, shape: tuple[int, ...], cls: str) -> object:
    """Python integers (or floats) shaped and converted to ``cls``."""
    arr = np.asarray(values, dtype=object).reshape(shape)
    if cls in INT_LIMITS:
        return result(to_class(arr, cls))
    floats = np.array([_as_float(x) for x in arr.reshape(-1)], dtype=np.float64).reshape(shape)
    return result(floats.astype(np.dtype(cls)))


def _as_float(x: object) -> float:
    """A Python number as a float; integers too large for a double become Inf."""
    try:
        return float(x)  # type: ignore[arg-type]
    except OverflowError:
        return math.inf if x > 0 else -math.inf  # type: ignore[operator]


@builtin()
def factorial(n: object) -> object:
    """f = factorial(n)  product of 1..n for each non-negative integer element"""
    a, cls = _integer_values("factorial", n, "N must be a matrix of non-negative integers.",
                             "MATLAB:factorial:NNegativeInt")
    limit = 170 if cls != "single" else 34  # beyond these the value overflows to Inf

    def fact(k: object) -> object:
        k = int(k)
        if cls in INT_LIMITS:
            return math.factorial(min(k, 25))  # 25! already exceeds every integer type
        return float(math.factorial(k)) if k <= limit else math.inf

    return _from_ints([fact(k) for k in a.ravel(order="F")], a.shape, cls)


@builtin()
def nchoosek(v: object, k: object) -> object:
    """b = nchoosek(n, k)  binomial coefficient, number of combinations of n items taken k at a time
    C = nchoosek(v, k)  all combinations of the elements of vector v taken k at a time, one per row"""
    kv, _ = _integer_values("nchoosek", k, "K must be an integer between 0 and N.",
                            "MATLAB:nchoosek:InvalidArg2")
    if kv.size != 1:
        raise error("MATLAB:nchoosek:InvalidArg2", "K must be an integer between 0 and N.")
    kk = int(kv.reshape(-1)[0])
    arr = to_array(v) if class_of(v) in ARITHMETIC else None
    if arr is None:
        raise bad_type("nchoosek")
    if arr.size == 1:
        nv, cls = _integer_values("nchoosek", v, "N must be a non-negative integer.",
                                  "MATLAB:nchoosek:InvalidArg1")
        nn = int(nv.reshape(-1)[0])
        if kk > nn:
            raise error("MATLAB:nchoosek:KOutOfRange", "K must be an integer between 0 and N.")
        if min(kk, nn - kk) > 1100:  # C(n,k) >= C(2200,1100) > realmax: skip the huge product
            return result(to_class(np.array([[math.inf]]), cls))
        value = math.comb(nn, kk)
        if cls not in INT_LIMITS and value > FLINTMAX:
                warn("MATLAB:nchoosek:LargeCoefficient",
                 "Result may not be exact. Coefficient is greater than 9.007199e+15 and is "
                 "only accurate to 15 digits")
        return _from_ints([value], (1, 1), cls)
    if arr.ndim != 2 or min(arr.shape) != 1:
        raise error("MATLAB:nchoosek:InvalidArg1", "The first input must be a vector.")
    items = arr.ravel(order="F")
    count = math.comb(items.size, kk) if kk <= items.size else 0
    if kk > 2**48 or count * kk > _MAX_SIEVE:
        raise error("MATLAB:array:SizeLimitExceeded",
                    "Requested array exceeds maximum array size preference.")
    rows = list(itertools.combinations(range(items.size), kk)) if count else []
    if kk == 0:
        return result(np.zeros((1, 0), dtype=arr.dtype))
    out = np.empty((len(rows), kk), dtype=arr.dtype)
    for r, picks in enumerate(rows):
        out[r] = items[list(picks)]
    return result(out)


# Largest prime sieve (one byte per number) or combination table built.
_MAX_SIEVE = 2**34


def _sieve(n: int) -> np.ndarray:
    """Boolean table: is_prime[i] for 0 <= i <= n."""
    table = np.ones(max(n + 1, 2), dtype=bool)
    table[:2] = False
    for p in range(2, math.isqrt(n) + 1):
        if table[p]:
            table[p * p::p] = False
    return table[:n + 1]


@builtin()
def primes(n: object) -> object:
    """p = primes(n)  row vector of the prime numbers less than or equal to n"""
    a, cls = numeric("primes", n)
    if a.size != 1 or a.dtype.kind == "c":
        raise error("MATLAB:primes:InputNotScalar", "Input must be a real scalar.")
    limit = float(a.reshape(-1)[0])
    if not np.isfinite(limit):
        raise error("MATLAB:primes:InputNotFinite", "Input must be finite.")
    top = int(math.floor(limit))
    if top > _MAX_SIEVE:
        raise error("MATLAB:array:SizeLimitExceeded",
                    "Requested array exceeds maximum array size preference.")
    found = np.flatnonzero(_sieve(top)) if top >= 2 else np.zeros(0, dtype=np.int64)
    return _from_ints(found.tolist(), (1, found.size), cls)


def _is_prime(k: int) -> bool:
    if k < 2:
        return False
    if k < 4:
        return True
    if k % 2 == 0 or k % 3 == 0:
        return False
    f = 5
    while f * f <= k:
        if k % f == 0 or k % (f + 2) == 0:
            return False
        f += 6
    return True


@builtin()
def isprime(x: object) -> object:
    """TF = isprime(X)  true where the elements of X are prime numbers"""
    a, _ = _integer_values("isprime", x, "All entries must be non-negative integers.",
                           "MATLAB:isprime:InputNotPosInt")
    if a.size == 0:
        return result(np.zeros(a.shape, dtype=bool))
    top = int(np.max(a))
    if top <= 10_000_000:
        table = _sieve(top)
        return result(table[a.astype(np.int64)])
    flags = [_is_prime(int(k)) for k in a.ravel(order="F")]
    return result(np.array(flags, dtype=bool).reshape(a.shape, order="F"))


@builtin()
def factor(n: object) -> object:
    """f = factor(n)  row vector of the prime factors of n (in ascending order)"""
    a, cls = _integer_values("factor", n, "N must be a real non-negative integer scalar.",
                             "MATLAB:factor:InputNotPosInt")
    if a.size != 1:
        raise error("MATLAB:factor:NonScalarInput", "N must be a scalar.")
    k = int(a.reshape(-1)[0])
    if cls not in INT_LIMITS and k > 2 ** 32:
        raise error("MATLAB:factor:InputOutOfRange",
                    "The maximum value of N allowed is 2^32.")
    factors: list[int] = []
    if k < 4:
        factors = [k]
    else:
        p = 2
        while p * p <= k:
            while k % p == 0:
                factors.append(p)
                k //= p
            p += 1 if p == 2 else 2
        if k > 1:
            factors.append(k)
    return _from_ints(factors, (1, len(factors)), cls)


def _gcd_operands(name: str, a: object, b: object) -> tuple[np.ndarray, np.ndarray, str]:
    x, y, cls = binary_operands(name, a, b)
    for arr in (x, y):
        if arr.dtype.kind == "c" or (arr.dtype.kind == "f" and (
                ~np.isfinite(arr) | (arr != np.trunc(arr))).any()):
            raise error(f"MATLAB:{name}:NonIntInputs", "Input arguments must contain only integers.")
    x, y = np.broadcast_arrays(x, y)
    return x, y, cls


def _extended_gcd(p: int, q: int) -> tuple[int, int, int]:
    """g, u, v with g = p*u + q*v and g >= 0."""
    old_r, r, old_s, s, old_t, t = p, q, 1, 0, 0, 1
    while r:
        quotient = old_r // r
        old_r, r = r, old_r - quotient * r
        old_s, s = s, old_s - quotient * s
        old_t, t = t, old_t - quotient * t
    if old_r < 0:
        old_r, old_s, old_t = -old_r, -old_s, -old_t
    return old_r, old_s, old_t


@builtin(max_out=3, nargout=True)
def gcd(a: object, b: object, *, nargout: int = 1) -> object:
    """G = gcd(A, B)  greatest common divisor of corresponding elements (non-negative)
    [G, U, V] = gcd(A, B)  also Bezout coefficients: G = A.*U + B.*V"""
    x, y, cls = _gcd_operands("gcd", a, b)
    pairs = [(int(p), int(q)) for p, q in zip(x.ravel(order="F"), y.ravel(order="F"), strict=True)]
    triples = [_extended_gcd(p, q) for p, q in pairs]
    outs = [_from_ints([t[i] for t in triples], x.shape, cls) for i in range(min(nargout, 3) or 1)]
    return tuple(outs) if len(outs) > 1 else outs[0]


@builtin()
def lcm(a: object, b: object) -> object:
    """L = lcm(A, B)  least common multiple of corresponding positive integers"""
    x, y, cls = _gcd_operands("lcm", a, b)
    if (x < 1).any() or (y < 1).any():
        raise error("MATLAB:lcm:InputNotPosInt", "Input arguments must contain positive integers.")
    values = [math.lcm(int(p), int(q)) for p, q in zip(x.ravel(order="F"), y.ravel(order="F"),
                                                         strict=True)]
    return _from_ints(values, x.shape, cls)


# ---------------------------------------------------------- special functions


def _special(name: str, x: object, fn: Callable) -> object:
    a = floating(name, x)
    _require_real(name, a)
    return _apply(fn, a)


@builtin()
def gamma(x: object) -> object:
    """Y = gamma(X)  gamma function; Inf at 0 and the negative integers"""
    from scipy import special

    def g(a: np.ndarray) -> np.ndarray:
        out = special.gamma(a)
        poles = (a <= 0) & (a == np.trunc(a))
        return np.where(poles, np.inf, out).astype(a.dtype)

    return _special("gamma", x, g)


@builtin(gradient=chain_rule(
    lambda y, x: ops.times(2 / math.sqrt(math.pi), ops.call("exp", ops.uminus(_square(x))))))
def erf(x: object) -> object:
    """Y = erf(X)  error function, 2/sqrt(pi) * integral from 0 to X of exp(-t^2)"""
    from scipy import special

    return _special("erf", x, lambda a: special.erf(a).astype(a.dtype))


@builtin()
def erfc(x: object) -> object:
    """Y = erfc(X)  complementary error function, 1 - erf(X) without cancellation"""
    from scipy import special

    return _special("erfc", x, lambda a: special.erfc(a).astype(a.dtype))


@builtin()
def erfinv(x: object) -> object:
    """X = erfinv(Y)  inverse error function, for -1 <= Y <= 1"""
    from scipy import special

    return _special("erfinv", x, lambda a: special.erfinv(a).astype(a.dtype))


# --------------------------------------------------- functional operator forms


def _operator(name: str, symbol: str, usage: str, gradient: Callable | None) -> None:
    def op(a: object, b: object) -> object:
        return operators.binary(symbol, a, b)

    op.__name__ = name
    builtin(name, help=usage, gradient=gradient, dl=None if gradient else "constant")(op)


def _is_scalar(v: object) -> bool:
    return ops.shape_of(v) == (1, 1)


def _plus_rule(g: object, y: object, a: object, b: object) -> tuple:
    return (lambda: ops.unbroadcast(g, a), lambda: ops.unbroadcast(g, b))


def _minus_rule(g: object, y: object, a: object, b: object) -> tuple:
    return (lambda: ops.unbroadcast(g, a), lambda: ops.unbroadcast(ops.uminus(g), b))


def _times_rule(g: object, y: object, a: object, b: object) -> tuple:
    return (lambda: ops.unbroadcast(ops.times(g, ops.conj(b)), a),
            lambda: ops.unbroadcast(ops.times(g, ops.conj(a)), b))


def _rdivide_rule(g: object, y: object, a: object, b: object) -> tuple:
    return (lambda: ops.unbroadcast(ops.rdivide(g, ops.conj(b)), a),
            lambda: ops.unbroadcast(ops.uminus(ops.times(g, ops.conj(ops.rdivide(y, b)))), b))


def _ldivide_rule(g: object, y: object, a: object, b: object) -> tuple:
    ga, gb = _rdivide_rule(g, y, b, a)
    return (gb, ga)


def _power_rule(g: object, y: object, a: object, b: object) -> tuple:
    def by_base() -> object:
        if _is_scalar(b) and not isinstance(b, ops.DlArray):
            e = float(np.asarray(b).reshape(-1)[0].real) if np.isrealobj(b) else None
            if e == 2.0:
                return ops.unbroadcast(ops.times(g, ops.times(2.0, ops.conj(a))), a)
            if e == 1.0:
                return ops.unbroadcast(g, a)
        slope = ops.times(b, ops.call("power", a, ops.minus(b, 1.0)))
        return ops.unbroadcast(ops.times(g, ops.conj(slope)), a)
    return (by_base, lambda: ops.unbroadcast(ops.times(g, ops.conj(ops.times(y, ops.call("log", a)))), b))


def _mtimes_rule(g: object, y: object, a: object, b: object) -> tuple:
    if _is_scalar(a) or _is_scalar(b):
        return _times_rule(g, y, a, b)
    if ops.data_of(a).dtype.kind == "f" and ops.data_of(b).dtype.kind == "f" \
            and ops.data_of(g).dtype.kind == "f" and ops.data_of(a).ndim == ops.data_of(b).ndim == 2:
        return (lambda: ops.matmul(g, b, False, True), lambda: ops.matmul(a, g, True, False))
    return (lambda: ops.mtimes(g, ops.ctranspose(b)), lambda: ops.mtimes(ops.ctranspose(a), g))


def _mrdivide_rule(g: object, y: object, a: object, b: object) -> tuple:
    if _is_scalar(b):
        return _rdivide_rule(g, y, a, b)
    # y = a/b: ga = g/b', gb = -y'*ga
    ga = ops.call("mrdivide", g, ops.ctranspose(b))
    return (ga, lambda: ops.uminus(ops.mtimes(ops.ctranspose(y), ga)))


def _mldivide_rule(g: object, y: object, a: object, b: object) -> tuple:
    if _is_scalar(a):
        return _ldivide_rule(g, y, a, b)
    # y = a\b: gb = a'\g, ga = -gb*y'
    gb = ops.call("mldivide", ops.ctranspose(a), g)
    return (lambda: ops.uminus(ops.mtimes(gb, ops.ctranspose(y))), gb)


def _mpower_rule(g: object, y: object, a: object, b: object) -> tuple:
    if not (_is_scalar(a) and _is_scalar(b)):
        raise error("deep:dlarray:mpowerNotScalar",
                    "Matrix power of a dlarray is supported only for scalar inputs. Use "
                    "POWER (.^) for elementwise power.")
    return _power_rule(g, y, a, b)


# name, symbol, help, gradient rule (None: a logical result, never differentiated)
_OPERATORS = [
    ("plus", "+", "C = plus(A, B)  A + B", _plus_rule),
    ("minus", "-", "C = minus(A, B)  A - B", _minus_rule),
    ("times", ".*", "C = times(A, B)  A .* B, element-wise product", _times_rule),
    ("rdivide", "./", "C = rdivide(A, B)  A ./ B, element-wise right division", _rdivide_rule),
    ("ldivide", ".\\", "C = ldivide(A, B)  A .\\ B, element-wise left division (B ./ A)",
     _ldivide_rule),
    ("power", ".^", "C = power(A, B)  A .^ B, element-wise power", _power_rule),
    ("mtimes", "*", "C = mtimes(A, B)  A * B, matrix product", _mtimes_rule),
    ("mrdivide", "/", "x = mrdivide(B, A)  B / A, solves x*A = B", _mrdivide_rule),
    ("mldivide", "\\", "x = mldivide(A, B)  A \\ B, solves A*x = B", _mldivide_rule),
    ("mpower", "^", "C = mpower(A, B)  A ^ B, matrix power", _mpower_rule),
    ("eq", "==", "TF = eq(A, B)  A == B", None),
    ("ne", "~=", "TF = ne(A, B)  A ~= B", None),
    ("lt", "<", "TF = lt(A, B)  A < B", None),
    ("le", "<=", "TF = le(A, B)  A <= B", None),
    ("gt", ">", "TF = gt(A, B)  A > B", None),
    ("ge", ">=", "TF = ge(A, B)  A >= B", None),
    ("and", "&", "TF = and(A, B)  A & B, element-wise logical AND", None),
    ("or", "|", "TF = or(A, B)  A | B, element-wise logical OR", None),
]

for _name, _symbol, _usage, _rule in _OPERATORS:
    _operator(_name, _symbol, _usage, _rule)


@builtin(gradient=lambda g, y, a: (ops.uminus(g),))
def uminus(a: object) -> object:
    """B = uminus(A)  -A"""
    return operators.uminus(a)


@builtin(gradient=lambda g, y, a: (g,))
def uplus(a: object) -> object:
    """B = uplus(A)  +A"""
    return operators.uplus(a)


@builtin("not", dl="constant")
def not_(a: object) -> object:
    """B = not(A)  ~A, logical NOT"""
    return operators.logical_not(a)


@builtin(dl="constant")
def xor(a: object, b: object) -> object:
    """C = xor(A, B)  logical exclusive OR: true where exactly one of A and B is nonzero"""
    x, y = align(operators.to_logical(a, "xor"), operators.to_logical(b, "xor"))
    _check_expansion(x, y)
    return result(np.logical_xor(x, y))


@builtin(gradient=lambda g, y, a: (ops.transpose(g),))
def transpose(a: object) -> object:
    """B = transpose(A)  A.', transpose without conjugation"""
    return operators.transpose(a, False)


@builtin(gradient=lambda g, y, a: (ops.ctranspose(g),))
def ctranspose(a: object) -> object:
    """B = ctranspose(A)  A', complex conjugate transpose"""
    return operators.transpose(a, True)


__all__ = ["bad_type", "floating", "numeric", "round_half_away"]
