"""Element-wise math builtins: values, result classes, complex results, errors."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mlang.builtins.math import integers, rounding
from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import class_of


@pytest.fixture(scope="module")
def it() -> Interpreter:
    return Interpreter(stdout=io.StringIO())


def ev(it: Interpreter, expr: str):
    it.eval(f"r__ = {expr};")
    return it.get("r__")


def values(it: Interpreter, expr: str) -> list:
    return np.atleast_2d(ev(it, expr)).tolist()


def fails(it: Interpreter, expr: str) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        it.eval(f"r__ = {expr};")
    return info.value


# ------------------------------------------------------------ math functions


@pytest.mark.parametrize("expr, expected", [
    ("sqrt(16)", 4.0),
    ("exp(0)", 1.0),
    ("log(1)", 0.0),
    ("log2(8)", 3.0),
    ("log10(1000)", 3.0),
    ("log1p(0)", 0.0),
    ("expm1(0)", 0.0),
    ("sin(0)", 0.0),
    ("cos(0)", 1.0),
    ("atan(1) * 4", math.pi),
    ("atan2(1, -1)", 3 * math.pi / 4),
    ("asin(1)", math.pi / 2),
    ("acos(1)", 0.0),
    ("cosh(0)", 1.0),
    ("acosh(1)", 0.0),
    ("atanh(0)", 0.0),
    ("sec(0)", 1.0),
    ("csc(pi/2)", 1.0),
    ("cot(0)", math.inf),
    ("hypot(3, 4)", 5.0),
    ("hypot(1e300, 1e300)", math.sqrt(2) * 1e300),
    ("sqrt('a')", math.sqrt(97)),
    ("exp(true)", math.e),
])
def test_real_values(it, expr, expected):
    assert ev(it, expr) == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize("expr, expected", [
    ("sqrt(-4)", 2j),
    ("log(-1)", math.pi * 1j),
    ("log10(-100)", complex(2, math.pi / math.log(10))),
    ("log2(-8)", complex(3, math.pi / math.log(2))),
    ("log1p(-2)", math.pi * 1j),
    ("acosh(0.5)", complex(0, math.acos(0.5))),
    ("atanh(2)", complex(0.5493061443340549, math.pi / 2)),
    ("atanh(-2)", complex(-0.5493061443340549, math.pi / 2)),
    # MATLAB's branch for real arguments beyond +-1
    ("asin(2)", complex(math.pi / 2, -1.3169578969248166)),
    ("asin(-2)", complex(-math.pi / 2, 1.3169578969248166)),
    ("acos(2)", complex(0, 1.3169578969248166)),
    ("acos(-2)", complex(math.pi, -1.3169578969248166)),
    ("exp(1i*pi)", complex(-1, 0)),
])
def test_complex_results(it, expr, expected):
    got = ev(it, expr)
    assert got == pytest.approx(expected, abs=1e-15)


def test_complex_result_only_where_needed(it):
    got = ev(it, "sqrt([4 -9])")
    assert got.dtype == np.complex128
    assert got.tolist() == [[2, 3j]]
    assert ev(it, "sqrt([4 9])").dtype == np.float64


def test_single_stays_single(it):
    for fn in ("sqrt", "exp", "sin", "log", "abs", "floor", "round"):
        got = ev(it, f"{fn}(single(2.5))")
        assert class_of(got) == "single", fn
    got = ev(it, "sqrt(single(-4))")
    assert got.dtype == np.complex64 and complex(got[0, 0]) == 2j


def test_integers_refused_by_transcendental_functions(it):
    err = fails(it, "sqrt(int8(4))")
    assert err.identifier == "MATLAB:UndefinedFunction"
    assert "sqrt" in err.exc.message
    fails(it, "exp({1})")


def test_log2_two_outputs(it):
    it.eval("[f, e] = log2([8 0.75 0 -3]);")
    assert np.atleast_2d(it.get("f")).tolist() == [[0.5, 0.75, 0.0, -0.75]]
    assert np.atleast_2d(it.get("e")).tolist() == [[4.0, 0.0, 0.0, 2.0]]


def test_nthroot(it):
    assert ev(it, "nthroot(27, 3)") == 3.0  # exactly, unlike 27^(1/3)
    assert ev(it, "nthroot(-27, 3)") == -3.0
    assert values(it, "nthroot(-8, [5 3 -1])")[0] == pytest.approx([-1.515716566510398, -2, -0.125])
    assert fails(it, "nthroot(-16, 4)").identifier == "MATLAB:nthroot:NegXNotOddIntegerN"


# ------------------------------------------------------------ abs and sign


def test_abs_saturates_integers(it):
    got = ev(it, "abs(int8([-128 -5 7]))")
    assert got.dtype == np.int8 and got.tolist() == [[127, 5, 7]]
    assert ev(it, "abs(intmin('int64'))")[0, 0] == 2 ** 63 - 1
    assert ev(it, "abs(3+4i)") == 5.0
    assert ev(it, "abs(true)") == 1.0 and ev(it, "abs('a')") == 97.0


def test_sign(it):
    assert values(it, "sign([-2 0 3])") == [[-1, 0, 1]]
    assert math.isnan(ev(it, "sign(NaN)"))
    got = ev(it, "sign(int8([-5 0 5]))")
    assert got.dtype == np.int8 and got.tolist() == [[-1, 0, 1]]
    assert ev(it, "sign(3+4i)") == pytest.approx(0.6 + 0.8j)


# ------------------------------------------------------------ rounding


def test_rounding_functions(it):
    x = "[2.5 -2.5 0.5 -0.5 1.4999 -2.7]"
    assert values(it, f"round({x})") == [[3, -3, 1, -1, 1, -3]]
    assert values(it, f"floor({x})") == [[2, -3, 0, -1, 1, -3]]
    assert values(it, f"ceil({x})") == [[3, -2, 1, -0.0, 2, -2]]
    assert values(it, f"fix({x})") == [[2, -2, 0, -0.0, 1, -2]]
    assert ev(it, "round(1e15 + 0.5) - 1e15") == 1.0
    assert ev(it, "round(0.49999999999999994)") == 0.0


def test_rounding_keeps_integer_class_and_parts(it):
    got = ev(it, "floor(int16([3 -4]))")
    assert got.dtype == np.int16 and got.tolist() == [[3, -4]]
    assert class_of(ev(it, "round(true)")) == "double"
    assert ev(it, "round(2.5 - 3.5i)") == 3 - 4j
    assert ev(it, "floor(2.7 - 1.2i)") == 2 - 2j


@pytest.mark.parametrize("expr, expected", [
    ("round(pi, 2)", 3.14),
    ("round(1234.5678, -2)", 1200.0),
    ("round(-2.5, 0)", -3.0),
    ("round(0.125, 2)", 0.13),
    ("round(123456, 2, 'significant')", 120000.0),
    ("round(0.0012345, 3, 'significant')", 0.00123),
])
def test_round_digits(it, expr, expected):
    assert ev(it, expr) == pytest.approx(expected, rel=1e-15)


@settings(max_examples=60, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e15, max_value=1e15))
def test_round_is_half_away_from_zero(x):
    frac = abs(x) - math.floor(abs(x))
    expected = math.copysign(math.floor(abs(x)) + (1 if frac >= 0.5 else 0), x)
    assert rounding.round_(x) == expected
    assert rounding.round_(np.array([[x, -x]])).tolist() == [[expected, -expected]]


# ------------------------------------------------------------ mod, rem, idivide


@pytest.mark.parametrize("expr, expected", [
    ("mod(-7, 3)", 2.0), ("rem(-7, 3)", -1.0),
    ("mod(7, -3)", -2.0), ("rem(7, -3)", 1.0),
    ("mod(5.5, 2)", 1.5), ("rem(-5.5, 2)", -1.5),
    ("mod(5, 0)", 5.0), ("mod(10, 10)", 0.0),
    ("mod(0.3, 0.1)", 0.0),  # round-off compensation for non-integer divisors
    ("mod(4*pi, 2*pi)", 0.0),
    ("mod(-1, 5)", 4.0),
])
def test_mod_rem_values(it, expr, expected):
    assert ev(it, expr) == expected


def test_mod_rem_special_cases(it):
    assert math.isnan(ev(it, "rem(5, 0)"))
    assert math.isnan(ev(it, "mod(Inf, 3)"))
    assert math.copysign(1, ev(it, "mod(-10, 10)")) == 1  # no negative zero
    assert values(it, "mod([1 -1 7 -7], 3)") == [[1, 2, 1, 2]]
    assert values(it, "rem([1 -1 7 -7], 3)") == [[1, -1, 1, -1]]


def test_mod_rem_integer_classes(it):
    got = ev(it, "mod(int8(-7), int8(3))")
    assert got.dtype == np.int8 and got[0, 0] == 2
    assert ev(it, "rem(int8(-7), 3)")[0, 0] == -1
    assert ev(it, "mod(uint8(200), 7)")[0, 0] == 4
    assert ev(it, "mod(int16(5), int16(0))")[0, 0] == 5
    assert ev(it, "rem(int16(5), int16(0))")[0, 0] == 0
    assert ev(it, "mod(intmax('int64'), int64(10))")[0, 0] == 7
    assert class_of(ev(it, "mod(single(5.5), 2)")) == "single"
    assert fails(it, "mod(int8(1), int16(1))").identifier == "MATLAB:mixedClasses"


def int32(v: int) -> np.ndarray:
    return np.array([[v]], dtype=np.int32)


@settings(max_examples=60, deadline=None)
@given(st.integers(-10**6, 10**6), st.integers(-1000, 1000))
def test_mod_rem_match_integer_arithmetic(a, b):
    m, r = rounding.mod(float(a), float(b)), rounding.rem(float(a), float(b))
    mi, ri = rounding.mod(int32(a), int32(b))[0, 0], rounding.rem(int32(a), int32(b))[0, 0]
    # the array path, not only the scalar fast path
    ma = rounding.mod(np.array([[float(a)]] * 2), float(b))[0, 0]
    if b == 0:
        assert m == a and ma == a and math.isnan(r) and mi == a and ri == 0
        return
    assert m == ma == mi == a % b
    assert r == ri == int(math.fmod(a, b))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.floats(-1e6, 1e6), st.floats(-1e3, 1e3).filter(lambda v: abs(v) > 1e-3))
@example(-5e-324, 2.0)  # x/y underflows to -0
def test_mod_rem_scalar_path_matches_array_path(a, b):
    for fn in (rounding.mod, rounding.rem):
        scalar = fn(a, b)
        array = fn(np.array([[a, a]]), b)[0, 0]
        assert scalar == array
    m = rounding.mod(a, b)
    assert m == 0 or (m > 0) == (b > 0)  # mod takes the sign of the divisor
    assert abs(m) <= abs(b)


@pytest.mark.parametrize("opt, expected", [
    ("'fix'", [3, -3, -3, 3]),
    ("'floor'", [3, -4, -4, 3]),
    ("'ceil'", [4, -3, -3, 4]),
    ("'round'", [4, -4, -4, 4]),
])
def test_idivide(it, opt, expected):
    got = ev(it, f"idivide(int32([7 -7 7 -7]), int32([2 2 -2 -2]), {opt})")
    assert got.dtype == np.int32 and got.tolist() == [expected]


def test_idivide_default_and_errors(it):
    assert ev(it, "idivide(int32(7), int32(2))")[0, 0] == 3
    assert ev(it, "idivide(int16(7), 2)").dtype == np.int16
    assert ev(it, "idivide(int8([5 -5 0]), int8(0))").tolist() == [[127, -128, 0]]
    assert fails(it, "idivide(7, 2)").identifier == "MATLAB:idivide:mustBeInteger"


# ------------------------------------------------------------ complex parts


def test_complex_parts(it):
    assert ev(it, "real(3+4i)") == 3.0
    assert ev(it, "imag(3+4i)") == 4.0
    assert ev(it, "imag(5)") == 0.0
    assert ev(it, "conj(3+4i)") == 3 - 4j
    assert ev(it, "imag(int8(5))").dtype == np.int8
    assert values(it, "angle([1 1i -1])")[0] == pytest.approx([0, math.pi / 2, math.pi])


def test_complex_keeps_zero_imaginary_part(it):
    z = ev(it, "complex(1, 0)")
    assert type(z) is complex and z == 1
    assert ev(it, "isreal(complex(1, 0))") is False
    assert ev(it, "isreal(5)") is True
    assert ev(it, "isreal({1})") is False
    assert ev(it, "complex([1 2], [3 4])").tolist() == [[1 + 3j, 2 + 4j]]
    assert ev(it, "complex(single(1), 2)").dtype == np.complex64


def test_nan_inf_tests(it):
    assert values(it, "isnan([1 NaN Inf])") == [[False, True, False]]
    assert values(it, "isinf([1 -Inf Inf NaN])") == [[False, True, True, False]]
    assert values(it, "isfinite([1 -Inf NaN 0])") == [[True, False, False, True]]
    assert ev(it, "isfinite(int8(5))") is True and ev(it, "isnan('a')") is False
    assert ev(it, "isinf(complex(1, Inf))") is True
    fails(it, "isnan({1})")


# ------------------------------------------------------------ bitwise


def test_bitwise_on_doubles(it):
    assert ev(it, "bitand(12, 10)") == 8.0
    assert ev(it, "bitor(12, 10)") == 14.0
    assert ev(it, "bitxor(12, 10)") == 6.0
    assert ev(it, "bitshift(1, 4)") == 16.0
    assert ev(it, "bitshift(16, -2)") == 4.0
    assert ev(it, "bitshift(1, 60)") == 2.0 ** 60
    assert values(it, "bitand([1 2 3 4 5], 1)") == [[1, 0, 1, 0, 1]]
    assert ev(it, "bitcmp(0, 'uint8')") == 255.0


def test_bitwise_on_integers(it):
    got = ev(it, "bitand(uint8(255), uint8(15))")
    assert got.dtype == np.uint8 and got[0, 0] == 15
    assert ev(it, "bitor(uint16(1), 256)").dtype == np.uint16
    assert ev(it, "bitshift(uint8(255), 1)")[0, 0] == 254
    assert ev(it, "bitshift(uint8(255), -9)")[0, 0] == 0
    assert ev(it, "bitshift(int8(127), 1)")[0, 0] == -2
    assert ev(it, "bitcmp(uint8(0))")[0, 0] == 255
    assert ev(it, "bitxor(int8(-1), int8(5))")[0, 0] == -6


def test_bitwise_errors(it):
    assert fails(it, "bitand(-1, 1)").identifier == "MATLAB:bitfun:InvalidDoubleInput"
    fails(it, "bitand(1.5, 1)")
    assert fails(it, "bitand(uint8(1), int8(1))").identifier == "MATLAB:mixedClasses"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**40), st.integers(0, 2**40), st.integers(-45, 10))
def test_bitwise_match_python(a, b, k):
    assert integers.bitand(float(a), float(b)) == a & b
    assert integers.bitor(float(a), float(b)) == a | b
    assert integers.bitxor(float(a), float(b)) == a ^ b
    expected = (a << k) % 2**64 if k >= 0 else a >> -k
    assert integers.bitshift(float(a), float(k)) == float(expected)


# ------------------------------------------------------------ number theory


def test_factorial_and_nchoosek(it):
    assert values(it, "factorial([0 1 5 10])") == [[1, 1, 120, 3628800]]
    assert ev(it, "factorial(171)") == math.inf
    assert ev(it, "factorial(int8(6))")[0, 0] == 127  # saturated
    assert fails(it, "factorial(-1)").identifier == "MATLAB:factorial:NNegativeInt"
    assert ev(it, "nchoosek(5, 2)") == 10.0
    assert values(it, "nchoosek(1:4, 2)") == [[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]]
    got = ev(it, "nchoosek(uint8([1 2 3]), 2)")
    assert got.dtype == np.uint8 and got.shape == (3, 2)
    assert fails(it, "nchoosek(3, 5)").identifier == "MATLAB:nchoosek:KOutOfRange"


def test_primes_isprime_factor(it):
    assert values(it, "primes(20)") == [[2, 3, 5, 7, 11, 13, 17, 19]]
    assert ev(it, "primes(1)").shape == (1, 0)
    assert ev(it, "primes(uint8(12))").dtype == np.uint8
    assert values(it, "isprime([0 1 2 3 4 5 97 100])") == [[False, False, True, True, False, True,
                                                             True, False]]
    assert ev(it, "isprime(2147483647)") is True
    assert values(it, "factor(200)") == [[2, 2, 2, 5, 5]]
    assert ev(it, "factor(97)") == 97.0
    assert ev(it, "factor(uint16(138))").tolist() == [[2, 3, 23]]
    fails(it, "isprime(-3)")


def test_gcd_lcm(it):
    assert ev(it, "gcd(12, 18)") == 6.0
    assert ev(it, "gcd(-12, 18)") == 6.0
    assert values(it, "gcd([12 15], 9)") == [[3, 3]]
    assert ev(it, "lcm(4, 6)") == 12.0
    assert ev(it, "lcm(int16(4), int16(6))").dtype == np.int16
    it.eval("[g, u, v] = gcd(240, 46);")
    g, u, v = it.get("g"), it.get("u"), it.get("v")
    assert g == 2 and 240 * u + 46 * v == g
    assert fails(it, "lcm(-4, 6)").identifier == "MATLAB:lcm:InputNotPosInt"


@settings(max_examples=60, deadline=None)
@given(st.integers(-10**9, 10**9), st.integers(-10**9, 10**9))
def test_gcd_bezout(a, b):
    g, u, v = integers.gcd(float(a), float(b), nargout=3)
    assert g == math.gcd(a, b)
    assert a * int(u) + b * int(v) == g


# ------------------------------------------------------------ logical and special


def test_logical_functions(it):
    assert values(it, "xor([1 0 1], [1 1 0])") == [[False, True, True]]
    assert values(it, "not([1 0 2])") == [[False, True, False]]
    assert ev(it, "and(1, 0)") is False and ev(it, "or(1, 0)") is True
    assert fails(it, "xor(NaN, 1)").identifier == "MATLAB:nologicalnan"


def test_special_functions(it):
    assert ev(it, "gamma(5)") == pytest.approx(24.0)
    assert ev(it, "gamma(0.5)") == pytest.approx(math.sqrt(math.pi))
    assert values(it, "gamma([0 -1 -2])") == [[math.inf] * 3]
    assert ev(it, "erf(0.5)") == pytest.approx(math.erf(0.5))
    assert ev(it, "erfc(1)") == pytest.approx(math.erfc(1))
    assert ev(it, "erf(erfinv(0.3))") == pytest.approx(0.3)
    assert class_of(ev(it, "gamma(single(5))")) == "single"


# ------------------------------------------------------------ operator functions


@pytest.mark.parametrize("expr, expected", [
    ("plus(1, 2)", 3.0), ("minus(5, 7)", -2.0), ("times(3, 4)", 12.0),
    ("rdivide(1, 4)", 0.25), ("ldivide(4, 1)", 0.25), ("power(2, 10)", 1024.0),
    ("mtimes([1 2], [3; 4])", 11.0), ("mrdivide(6, 3)", 2.0), ("mldivide(2, 8)", 4.0),
    ("mpower(2, 3)", 8.0), ("uminus(4)", -4.0), ("uplus(4)", 4.0),
    ("eq(1, 1)", True), ("ne(1, 1)", False), ("lt(1, 2)", True), ("le(2, 2)", True),
    ("gt(1, 2)", False), ("ge(1, 2)", False),
])
def test_operator_functions(it, expr, expected):
    assert ev(it, expr) == expected


def test_operator_functions_keep_class_rules(it):
    got = ev(it, "minus(int8(5), 10)")
    assert got.dtype == np.int8 and got[0, 0] == -5
    assert ev(it, "ctranspose([1+1i 2])").tolist() == [[1 - 1j], [2]]
    assert ev(it, "transpose([1+1i 2])").tolist() == [[1 + 1j], [2]]
