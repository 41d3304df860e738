"""Absolute value, sign, rounding and remainders: abs, sign, floor, ceil, fix,
round (to digits or significant digits), mod, rem and idivide.

Integer classes keep their class (abs saturates); the remainders follow
MATLAB's rules for non-integer divisors and exact integer values.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from mlang.autodiff import ops, rules_support
from mlang.builtins.coerce import text_option
from mlang.builtins.math.elementwise import (
    ARITHMETIC,
    binary_operands,
    numeric,
    on_parts,
    quiet_result,
    require_real,
    wide_ints,
)
from mlang.builtins.math.short_rows import FLOAT64, short_values
from mlang.errors import error
from mlang.registry import MISSING_LITERAL, builtin
from mlang.values.core import class_of, result, to_array, to_double_array
from mlang.values.integer_arithmetic import NARROW_INT_LIMITS, narrow_int_of
from mlang.values.operators import INT_LIMITS, to_class


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
    if type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 and x.size != 1:
        return np.abs(x)  # a double array: nothing to convert, and abs never warns
    if type(x) is np.ndarray and x.ndim == 2 and x.dtype in NARROW_INT_LIMITS:
        lo = NARROW_INT_LIMITS[x.dtype][0]  # abs(intmin) saturates to intmax; unsigned: itself
        return np.abs(np.maximum(x, lo + 1)) if lo else x
    a, cls = numeric("abs", x)
    if cls in INT_LIMITS:
        if a.dtype.kind == "u":
            return a
        return result(to_class(np.abs(wide_ints(a)), cls))
    return quiet_result(np.abs, a)


@builtin(gradient=no_gradient)
def sign(x: object) -> object:
    """Y = sign(X)  1 for positive, -1 for negative, 0 for zero; X./abs(X) for complex"""
    if type(x) is float:  # (NaN stays NaN; -0 gives 0, as np.sign does)
        return 1.0 if x > 0.0 else -1.0 if x < 0.0 else 0.0 if x == 0.0 else x
    if type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 and x.size != 1:
        return np.sign(x)  # a double array: nothing to convert, and sign never warns
    a, cls = numeric("sign", x)
    if a.dtype.kind == "c":
        with np.errstate(all="ignore"):
            m = np.abs(a)
            return result(np.where(m == 0, 0, a / np.where(m == 0, 1, m)).astype(a.dtype))
    return quiet_result(np.sign, a)


def round_half_away(a: np.ndarray) -> np.ndarray:
    """Round to the nearest integer, ties away from zero (MATLAB's round)."""
    r = np.trunc(a)
    with np.errstate(invalid="ignore"):  # Inf - Inf is NaN, and Inf stays Inf below
        d = a - r  # exact for floating-point numbers
        return np.where(np.abs(d) >= 0.5, r + np.sign(d), r)


def _round_half_away_scalar(x: float) -> float:
    """round_half_away of one double, the same steps without arrays."""
    if x != x or x - x != 0.0:  # NaN, Inf
        return x
    r = math.copysign(float(math.trunc(x)), x)  # np.trunc: the sign of zero kept
    d = x - r
    if abs(d) >= 0.5:
        return r + (1.0 if d > 0.0 else -1.0)
    return r


_SHORT = 8  # (elements: up to this many, rounding one by one in Python floats is quicker)


def _rounding(name: str, fn: Callable, x: object, scalar: Callable | None = None) -> object:
    if type(x) is float:
        return scalar(x) if scalar is not None else float(fn(x))
    if type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 and x.size != 1:
        # a double array: nothing to convert, and no warning (round_half_away quiets its own)
        if scalar is not None and 0 < x.size <= _SHORT and (x.shape[0] == 1 or x.shape[1] == 1):
            values = [scalar(v) for v in x.ravel().tolist()]  # a short row or column
            return np.array([values]) if x.shape[0] == 1 else np.array(values).reshape(x.shape)
        return fn(x)
    a, cls = numeric(name, x)
    if cls in INT_LIMITS:
        return a
    return quiet_result(lambda v: on_parts(fn, v), a)


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
        if type(x) is float:
            return _round_half_away_scalar(x)
        return _rounding("round", round_half_away, x, _round_half_away_scalar)
    digits = _digits_argument(n)
    significant = False
    if kind is not None:
        word = text_option(kind) or ""
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
    return quiet_result(lambda v: on_parts(lambda p: _round_digits(p, digits, significant), v), a)


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


def _short_whole(a: np.ndarray) -> bool:
    """Whether ``a`` is a 2-D double array of 2 to _FEW - 1 whole numbers: there, with a
    positive whole divisor, NumPy's mod takes _few_remainders' exact steps (fmod, then the
    divisor added to a negative remainder; a zero remainder is +0, the divisor's sign)."""
    if a.dtype is FLOAT64 and a.ndim == 2 and 1 < a.size < _FEW:
        for row in a.tolist():
            for x in row:
                if not x.is_integer():
                    return False
        return True
    return False


def _literal_divisor(literals: tuple) -> Callable[[list], object] | None:
    """mod(x, m) with m a positive whole double literal: a short array of whole doubles goes
    to NumPy's mod with m as a 0-d array made once (NumPy converts a float on every call);
    anything else takes mod's own path (see Builtin.specialize)."""
    if len(literals) != 2 or literals[0] is not MISSING_LITERAL or type(literals[1]) is not float \
            or not (literals[1] > 0.0 and literals[1].is_integer()):
        return None
    divisor = np.array(literals[1])

    def whole_by_literal(args: list) -> object:
        a = args[0]
        if type(a) is np.ndarray and _short_whole(a):
            return np.mod(a, divisor)
        return NotImplemented

    return whole_by_literal


@builtin(gradient=_remainder_rule("floor"), specialize=_literal_divisor)
def mod(a: object, m: object) -> object:
    """b = mod(a, m)  remainder after division, with the sign of m: a - m.*floor(a./m)
    mod(a, 0) is a."""
    if type(a) is float and type(m) is float and m and a.is_integer() and m.is_integer():
        r = math.fmod(a, m)  # two whole doubles: _scalar_remainder's exact steps
        if r != 0 and (r < 0) != (m < 0):
            r += m
        return r + 0.0
    if type(m) is float and type(a) is np.ndarray:
        quick = _short_whole_mod(a, m)
        if quick is not None:
            return quick
    return _remainder("mod", a, m, floor_mode=True)


def _short_whole_mod(a: np.ndarray, m: float) -> object:
    """mod of a short real double vector of whole numbers by a nonzero whole double, by the
    exact steps _few_remainders takes for them; None for anything else (fractions, NaN and
    Inf among them)."""
    if m > 0.0 and m.is_integer() and _short_whole(a):
        return np.mod(a, m)
    values = short_values(a)
    if values is None or not m.is_integer() or m == 0:
        return None
    out = []
    for x in values:
        if not x.is_integer():
            return None
        r = math.fmod(x, m)
        if r != 0 and (r < 0) != (m < 0):
            r += m
        out.append(r + 0.0)
    if len(out) == 1:
        return out[0]
    return np.array([out]) if a.shape[0] == 1 else np.array(out).reshape(-1, 1)


@builtin(gradient=_remainder_rule("fix"))
def rem(a: object, b: object) -> object:
    """r = rem(a, b)  remainder after division, with the sign of a: a - b.*fix(a./b)
    rem(a, 0) is NaN."""
    return _remainder("rem", a, b, floor_mode=False)


def _remainder(name: str, a: object, b: object, floor_mode: bool) -> object:
    if type(b) is float and type(a) is np.ndarray and a.ndim == 2 and a.dtype in NARROW_INT_LIMITS \
            and 0 < a.size <= _FEW and (a.shape[0] == 1 or a.shape[1] == 1):
        # a short integer row or column and a double: the double in the class, as
        # binary_operands converts it, then each remainder of two integers
        lo, hi = NARROW_INT_LIMITS[a.dtype]
        divisor = narrow_int_of(b, lo, hi)
        fn = _int_mod if floor_mode else _int_rem
        return np.array([fn(x, divisor) for x in a.ravel().tolist()], dtype=a.dtype).reshape(a.shape)
    if type(b) is float and math.isfinite(b):
        if type(a) is float and math.isfinite(a) and (b == 0 or math.isfinite(a / b)):
            return _scalar_remainder(a, b, floor_mode)
        if type(a) is np.ndarray and a.dtype == np.float64 and a.ndim == 2 and a.size <= _FEW:
            quick = _few_remainders(a, b, floor_mode)
            if quick is not None:
                return quick
    x, y, cls = binary_operands(name, a, b)
    require_real(name, x, y)
    if cls in INT_LIMITS:
        fn = _int_mod if floor_mode else _int_rem
        values = np.frompyfunc(fn, 2, 1)(wide_ints(x).astype(object), wide_ints(y).astype(object))
        return result(to_class(np.asarray(values, dtype=object).reshape(
            np.broadcast_shapes(x.shape, y.shape)), cls))
    with np.errstate(all="ignore"):
        values = _float_remainder(x, y, floor_mode)
    return result(np.asarray(values))


_FEW = 16  # (elements: up to this many, one by one in Python is quicker than the array steps)


def _few_remainders(a: np.ndarray, b: float, floor_mode: bool) -> object:
    """_remainder of a short 2-D double array and a finite double scalar, element by element
    as for two scalars; None when an element needs the array path (NaN, Inf, a/b overflows)."""
    values = []
    whole_divisor = b != 0 and b.is_integer()
    for x in a.ravel().tolist():
        if whole_divisor and x.is_integer():  # _scalar_remainder's exact case, inline
            r = math.fmod(x, b)
            if floor_mode and r != 0 and (r < 0) != (b < 0):
                r += b
            values.append(r + 0.0)
        elif math.isfinite(x) and (b == 0 or math.isfinite(x / b)):
            values.append(_scalar_remainder(x, b, floor_mode))
        else:
            return None
    if len(values) == 1:
        return values[0]
    if a.shape[0] == 1:
        return np.array([values])  # (a row: no reshape)
    return np.array(values, dtype=np.float64).reshape(a.shape)


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
    mode = "fix" if opt is None else (text_option(opt) or "")
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
