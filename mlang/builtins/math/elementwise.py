"""Element-wise math: exponentials and logarithms, trigonometry, hypot, atan2,
nthroot, complex parts, NaN/Inf tests and special functions (gamma, erf,
erfc, erfinv), with the helpers the other element-wise modules share.

Class rules follow MATLAB: the transcendental functions accept only double
and single (logical and char count as double, integers are refused); real
inputs outside a function's real domain give complex results (sqrt(-4),
log(-1), asin(2)).  abs, sign and the rounding functions are in
``rounding``, the bitwise and number-theory functions in ``integers``, the
functional forms of the operators in ``operators``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

import numpy as np

from mlang.autodiff import ops
from mlang.errors import error
from mlang.registry import builtin
from mlang.values import operators
from mlang.values.core import (
    INT_CLASSES,
    class_of,
    result,
    to_array,
    to_double_array,
)
from mlang.values.operators import INT_LIMITS, align, to_class

NUMERIC = frozenset({"double", "single", *INT_CLASSES})
ARITHMETIC = frozenset({*NUMERIC, "logical", "char"})
FLINTMAX = 2.0 ** 53


# ------------------------------------------------------------------ helpers


def bad_type(name: str) -> Exception:
    """MATLAB's error for an argument of a class the function does not take."""
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
    """The complex dtype of ``a``'s precision."""
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
    check_expansion(x, y)
    return x, y, cls


def _as_int_class(v: object, cls: str) -> np.ndarray:
    a = to_array(v)
    if class_of(v) == cls:
        return a
    return to_class(to_double_array(a), cls)


def check_expansion(x: np.ndarray, y: np.ndarray) -> None:
    """MATLAB's error unless the aligned operands' sizes are compatible for implicit expansion."""
    for dx, dy in zip(x.shape, y.shape, strict=True):
        if dx != dy and dx != 1 and dy != 1:
            raise error("MATLAB:sizeDimensionsMustMatch",
                        "Arrays have incompatible sizes for this operation.")


def require_real(name: str, *arrays: np.ndarray) -> None:
    """MATLAB's error when an operand is complex."""
    if any(a.dtype.kind == "c" for a in arrays):
        raise error(f"MATLAB:{name}:complexArgs", "Input arguments must be real.")


def quiet_result(fn: Callable, a: np.ndarray) -> object:
    """``fn(a)`` as a MATLAB value, without NumPy's floating-point warnings."""
    with np.errstate(all="ignore"):
        return result(np.asarray(fn(a)))


def on_parts(fn: Callable, a: np.ndarray) -> np.ndarray:
    """Apply a real function to the real and imaginary parts of a complex array."""
    if a.dtype.kind != "c":
        return fn(a)
    out = np.empty(a.shape, dtype=a.dtype)
    out.real, out.imag = fn(a.real), fn(a.imag)
    return out


# ------------------------------------------- exponentials, logs, trigonometry


_SHORT_ROW = 8  # (elements: up to this many, a row is quicker in Python floats than in NumPy)


# Functions whose real values NumPy computes without a floating-point warning for every
# input (infinities and NaN included), so they need no change of NumPy's error state.
_NEVER_WARN = frozenset({"tanh", "atan"})
# Functions that warn of nothing for doubles in these ranges (NaN never warns): exp
# overflows past log(realmax), about 709.78; sine and cosine of an infinity are invalid.
# The logarithms are real and finite for positive doubles (log(Inf) is Inf, quietly).
_QUIET_RANGE = {"exp": (-math.inf, 709.0), "sin": (-sys.float_info.max, sys.float_info.max),
                "cos": (-sys.float_info.max, sys.float_info.max), "log": (5e-324, math.inf),
                "log10": (5e-324, math.inf)}


def _math(name: str, fn: Callable, x: object, complex_when: Callable | None = None) -> object:
    if type(x) is float and type(fn) is np.ufunc and (complex_when is None or not complex_when(x)):
        # A real double scalar (the common case in loops): NumPy's function on the float is
        # the loop that computes an array's elements (Python's math module can differ from it
        # in the last bit, and exp(x(i)) must equal the i-th element of exp(x)).
        return float(fn(x))
    if name == "sqrt" and type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 \
            and x.shape[0] == 1 and 2 <= x.shape[1] <= _SHORT_ROW:
        try:  # math.sqrt is correctly rounded, as NumPy's sqrt is; it raises for a negative
            return np.array([[math.sqrt(e) for e in x.tolist()[0]]])
        except ValueError:
            pass
    if type(x) is np.ndarray and x.dtype.char in "df" and name in _NEVER_WARN and complex_when is None:
        return result(fn(x))  # a real double or single array: nothing to convert or silence
    if type(x) is np.ndarray and x.dtype == np.float64:
        quiet = _QUIET_RANGE.get(name)
        if quiet is not None and 0 < x.size <= _SHORT_ROW:
            values = x.ravel().tolist()  # (a NaN first makes min or max NaN: the errstate below)
            if quiet[0] <= min(values) and max(values) <= quiet[1]:  # nothing to warn of
                return result(fn(x))  # (and real: as the paths below give it)
        if complex_when is None:
            with np.errstate(all="ignore"):  # quiet_result of a double array: nothing to convert
                return result(np.asarray(fn(x)))
    a = floating(name, x)
    if name in _NEVER_WARN and a.dtype.kind == "f" and complex_when is None:  # nothing to silence
        return result(fn(a))
    if complex_when is not None and a.dtype.kind == "f":
        try:
            # Inputs outside the real domain (negative, -Inf) raise NumPy's invalid flag,
            # so the usual all-real case needs no pass of its own to look for them.
            with np.errstate(invalid="raise", divide="ignore", over="ignore", under="ignore"):
                return result(fn(a))
        except FloatingPointError:
            pass
        with np.errstate(invalid="ignore"):
            outside = complex_when(a)
        if outside.any():
            # complex where the input is outside the real domain only: the other elements
            # keep their real values (the values they have in an array without such inputs)
            values = np.asarray(fn(a)).astype(complex_dtype(a))
            values[outside] = fn(a[outside].astype(complex_dtype(a)))
            return result(values)
    return quiet_result(fn, a)


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
    if type(y) is not np.ndarray or y.dtype.kind != "f":
        return g * (1 - y * y)
    s = y * y
    np.subtract(1.0, s, out=s)  # in place: one temporary for the whole product
    if type(g) is np.ndarray and g.shape == s.shape and g.dtype == s.dtype:
        return np.multiply(g, s, out=s)
    return g * s


def _product_by_minus_two(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    out = a * b  # in place: one temporary
    out *= c
    out *= -2.0
    return out


def _tanh_backward_y(a: object, b: object, c: object) -> object:
    """-2 .* a .* b .* c: the gradient of g .* (1 - y.^2) with respect to y (a the upstream
    gradient), and, being trilinear, every derivative of it, each one operation when the
    three are real arrays of one shape and class."""
    if type(a) is np.ndarray and type(b) is np.ndarray and type(c) is np.ndarray:  # first derivatives
        if a.shape == b.shape == c.shape and a.dtype == b.dtype == c.dtype and a.dtype.kind == "f":
            return _product_by_minus_two(a, b, c)
        return ops.times(-2.0, ops.times(a, ops.times(b, c)))
    da, db, dc = ops.data_of(a), ops.data_of(b), ops.data_of(c)
    if type(da) is np.ndarray and type(db) is np.ndarray and type(dc) is np.ndarray \
            and da.shape == db.shape == dc.shape and da.dtype == db.dtype == dc.dtype \
            and da.dtype.kind == "f" \
            and len({v.fmt for v in (a, b, c) if type(v) is ops.DlArray}) <= 1:
        return ops.apply(TANH_BACKWARD_Y, a, b, c)
    return ops.times(-2.0, ops.times(a, ops.times(b, c)))


def _tanh_backward_y_rule(h: object, out: object, a: object, b: object, c: object) -> tuple:
    if type(h) is np.ndarray and type(a) is np.ndarray and type(b) is np.ndarray \
            and type(c) is np.ndarray and h.shape == a.shape == b.shape == c.shape \
            and h.dtype == a.dtype == b.dtype == c.dtype and h.dtype.kind == "f":
        # first derivatives: the two products that start with h .* a share it (the same
        # operations in the same order as _product_by_minus_two, one pass fewer)
        shared: list[np.ndarray] = []

        def times_h_a(other: np.ndarray) -> np.ndarray:
            if not shared:
                shared.append(h * a)
                product = shared[0] * other
            else:  # the shared product's last use: written over
                product = np.multiply(shared[0], other, out=shared.pop())
            product *= -2.0
            return product

        return (lambda: _product_by_minus_two(h, b, c), lambda: times_h_a(c), lambda: times_h_a(b))
    return (lambda: _tanh_backward_y(h, b, c), lambda: _tanh_backward_y(h, a, c),
            lambda: _tanh_backward_y(h, a, b))


TANH_BACKWARD_Y = ops.Primitive("tanh_backward_y", _product_by_minus_two, _tanh_backward_y_rule)


# g .* (1 - y.^2) as one operation: PINN-style losses differentiate tanh networks
# several times over, and one recorded node here saves three at every level.
def _tanh_backward_rule(gz: object, z: object, g: object, y: object) -> tuple:
    if type(gz) is np.ndarray and type(y) is np.ndarray:  # first derivatives
        return (lambda: _tanh_backward(gz, y), lambda: _tanh_backward_y(gz, g, y))
    return (lambda: ops.apply(TANH_BACKWARD, gz, y), lambda: _tanh_backward_y(gz, g, y))


TANH_BACKWARD = ops.Primitive("tanh_backward", _tanh_backward, _tanh_backward_rule)


def _tanh_rule(g: object, y: object, x: object) -> tuple:
    if type(y) is np.ndarray and type(g) is np.ndarray and y.dtype.kind == "f" \
            and g.shape == y.shape:  # first derivatives of real arrays: the common case
        s = y * y
        np.subtract(1.0, s, out=s)  # in place: one temporary for the whole product
        return (np.multiply(g, s, out=s) if g.dtype == s.dtype else g * s,)
    if ops.data_of(y).dtype.kind == "c":
        return chain_rule(lambda y, x: ops.minus(1.0, square(y)))(g, y, x)
    if type(g) is np.ndarray and type(y) is np.ndarray and g.shape == y.shape:
        return (_tanh_backward(g, y),)
    return (ops.apply(TANH_BACKWARD, g, y),)


def chain_rule(derivative: Callable) -> Callable:
    """The gradient rule of y = f(x) given f'(x) as ``derivative(y, x)``: g .* conj(f'(x))."""
    return lambda g, y, x: (ops.times(g, ops.conj(derivative(y, x))),)


def square(x: object) -> object:
    """x.*x, for gradient rules."""
    return ops.times(x, x)


def _sqrt(x: object) -> object:
    return ops.call("sqrt", x)


def _asec_denominator(x: object) -> object:
    """x.^2 .* sqrt(1 - 1./x.^2): asec'(x) is its reciprocal."""
    return ops.times(square(x), _sqrt(ops.minus(1.0, ops.rdivide(1.0, square(x)))))


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
    if a.dtype.kind == "c":
        return np.arccos(a)
    outside = np.abs(a) > 1
    if not outside.any():
        return np.arccos(a)
    # arccos where it is real (as it is without the others), pi/2 - asin beyond
    out = np.arccos(np.where(outside, 0, a)).astype(complex_dtype(a))
    return np.where(outside, (np.pi / 2 - _asin_real_outside(a)).astype(out.dtype), out)


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
     lambda y, x: ops.plus(1.0, square(y))),
    ("sec", _reciprocal(np.cos), "Y = sec(X)  secant of X in radians", None,
     lambda y, x: ops.times(y, ops.call("tan", x))),
    ("csc", _reciprocal(np.sin), "Y = csc(X)  cosecant of X in radians", None,
     lambda y, x: ops.uminus(ops.times(y, ops.call("cot", x)))),
    ("cot", _reciprocal(np.tan), "Y = cot(X)  cotangent of X in radians", None,
     lambda y, x: ops.uminus(ops.plus(1.0, square(y)))),
    ("asin", _asin, "Y = asin(X)  inverse sine in radians", None,
     lambda y, x: ops.rdivide(1.0, _sqrt(ops.minus(1.0, square(x))))),
    ("acos", _acos, "Y = acos(X)  inverse cosine in radians", None,
     lambda y, x: ops.rdivide(-1.0, _sqrt(ops.minus(1.0, square(x))))),
    ("atan", np.arctan, "Y = atan(X)  inverse tangent in radians", None,
     lambda y, x: ops.rdivide(1.0, ops.plus(1.0, square(x)))),
    ("acot", _of_reciprocal(np.arctan), "Y = acot(X)  inverse cotangent in radians", None,
     lambda y, x: ops.rdivide(-1.0, ops.plus(1.0, square(x)))),
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
     lambda y, x: ops.minus(1.0, square(y))),
    ("asinh", np.arcsinh, "Y = asinh(X)  inverse hyperbolic sine", None,
     lambda y, x: ops.rdivide(1.0, _sqrt(ops.plus(square(x), 1.0)))),
    ("acosh", np.arccosh, "Y = acosh(X)  inverse hyperbolic cosine; X < 1 gives complex results",
     lambda a: a < 1,
     lambda y, x: ops.rdivide(1.0, ops.times(_sqrt(ops.minus(x, 1.0)), _sqrt(ops.plus(x, 1.0))))),
    ("atanh", np.arctanh, "Y = atanh(X)  inverse hyperbolic tangent; |X| > 1 gives complex results",
     lambda a: np.abs(a) > 1, lambda y, x: ops.rdivide(1.0, ops.minus(1.0, square(x)))),
]

for _name, _fn, _usage, _when, _derivative in _MATH:
    _register_math(_name, _fn, _usage, _when, _derivative)


@builtin(max_out=2, nargout=True, gradient=chain_rule(lambda y, x: ops.rdivide(1 / math.log(2), x)))
def log2(x: object, *, nargout: int = 1) -> object:
    """Y = log2(X)  base 2 logarithm
    [F, E] = log2(X)  mantissa and exponent: X = F.*2.^E with 0.5 <= abs(F) < 1"""
    if nargout < 2:
        if type(x) is float and x > 0.0:  # a positive double (or Inf): real, and NumPy stays quiet
            return float(np.log2(x))
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


def _literal_doubles(literals: tuple) -> Callable[[list], float] | None:
    """hypot(3, 4) with both arguments double literals: its value, worked out once (a float,
    which nothing can change) (see Builtin.specialize)."""
    if len(literals) != 2 or type(literals[0]) is not float or type(literals[1]) is not float:
        return None
    value = hypot(*literals)
    return lambda args: value


@builtin(gradient=_hypot_rule, specialize=_literal_doubles)
def hypot(a: object, b: object) -> object:
    """C = hypot(A, B)  sqrt(abs(A).^2 + abs(B).^2) without overflow or underflow"""
    if type(a) is float and type(b) is float:  # NumPy's hypot (not math.hypot: its bits differ)
        return float(np.hypot(abs(a), abs(b)))
    pair = _double_pair(a, b)
    x, y = pair if pair is not None else float_pair("hypot", a, b)
    return quiet_result(lambda _: np.hypot(np.abs(x), np.abs(y)), x)


def _atan2_rule(g: object, p: object, y: object, x: object) -> tuple:
    scale = ops.rdivide(g, ops.plus(square(x), square(y)))
    return (ops.unbroadcast(ops.times(scale, x), y), ops.unbroadcast(ops.uminus(ops.times(scale, y)), x))


@builtin(gradient=_atan2_rule)
def atan2(y: object, x: object) -> object:
    """P = atan2(Y, X)  four-quadrant inverse tangent, in [-pi, pi]"""
    if type(y) is float and type(x) is float:  # NumPy's arctan2 (not math.atan2: its bits differ)
        return float(np.arctan2(y, x))
    pair = _double_pair(y, x)
    if pair is not None:  # (real doubles)
        y_, x_ = pair
    else:
        y_, x_ = float_pair("atan2", y, x)
        require_real("atan2", y_, x_)
    return quiet_result(lambda _: np.arctan2(y_, x_), y_)


def _double_pair(a: object, b: object) -> tuple[np.ndarray, np.ndarray] | None:
    """float_pair of two 2-D double arrays of one size, or of one and a double scalar (as a
    1x1 array, as floating makes it): nothing to convert or check; None for anything else."""
    ta, tb = type(a), type(b)
    if ta is np.ndarray and a.dtype == np.float64 and a.ndim == 2:
        if tb is float:
            return a, np.array([[b]])
        if tb is np.ndarray and b.dtype == np.float64 and b.shape == a.shape:
            return a, b
    elif ta is float and tb is np.ndarray and b.dtype == np.float64 and b.ndim == 2:
        return np.array([[a]]), b
    return None


def float_pair(name: str, a: object, b: object) -> tuple[np.ndarray, np.ndarray]:
    """Two floating operands of one precision, aligned for implicit expansion."""
    x, y = floating(name, a), floating(name, b)
    if x.dtype in (np.float32, np.complex64) or y.dtype in (np.float32, np.complex64):
        x = x.astype(complex_dtype(x) if x.dtype.kind == "c" else np.float32)
        y = y.astype(complex_dtype(y) if y.dtype.kind == "c" else np.float32)
    x, y = align(x, y)
    check_expansion(x, y)
    return x, y


@builtin()
def nthroot(x: object, n: object) -> object:
    """Y = nthroot(X, N)  real Nth root of X; negative X needs an odd integer N"""
    a, k = float_pair("nthroot", x, n)
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
    ops.times(ops.real(g), ops.rdivide(ops.times(1j, z), square(ops.call("abs", z)))),))
def angle(z: object) -> object:
    """theta = angle(Z)  phase angle in radians, in [-pi, pi]"""
    a = floating("angle", z)
    return quiet_result(np.angle, a)


@builtin("complex")
def complex_(a: object, b: object = None) -> object:
    """z = complex(a, b)  a + bi, complex even when b is zero
    z = complex(x)  x as a complex value with zero imaginary part"""
    x = floating("complex", a)
    y = np.zeros_like(x, dtype=x.real.dtype) if b is None else floating("complex", b)
    require_real("complex", x, y)
    x, y = float_pair("complex", x, y)
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


# ---------------------------------------------------------- special functions


def _special(name: str, x: object, fn: Callable) -> object:
    a = floating(name, x)
    require_real(name, a)
    return quiet_result(fn, a)


@builtin()
def gamma(x: object) -> object:
    """Y = gamma(X)  gamma function; Inf at 0 and the negative integers"""
    from scipy import special  # scipy is heavy: imported on first use

    def g(a: np.ndarray) -> np.ndarray:
        out = special.gamma(a)
        poles = (a <= 0) & (a == np.trunc(a))
        return np.where(poles, np.inf, out).astype(a.dtype)

    return _special("gamma", x, g)


@builtin(gradient=chain_rule(
    lambda y, x: ops.times(2 / math.sqrt(math.pi), ops.call("exp", ops.uminus(square(x))))))
def erf(x: object) -> object:
    """Y = erf(X)  error function, 2/sqrt(pi) * integral from 0 to X of exp(-t^2)"""
    from scipy import special  # scipy is heavy: imported on first use

    return _special("erf", x, lambda a: special.erf(a).astype(a.dtype))


@builtin()
def erfc(x: object) -> object:
    """Y = erfc(X)  complementary error function, 1 - erf(X) without cancellation"""
    from scipy import special  # scipy is heavy: imported on first use

    return _special("erfc", x, lambda a: special.erfc(a).astype(a.dtype))


@builtin()
def erfinv(x: object) -> object:
    """X = erfinv(Y)  inverse error function, for -1 <= Y <= 1"""
    from scipy import special  # scipy is heavy: imported on first use

    return _special("erfinv", x, lambda a: special.erfinv(a).astype(a.dtype))
