"""Numeric class conversions, class tests and constants."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlang.builtins.data import types
from mlang.builtins.math import constants
from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import class_of


@pytest.fixture(scope="module")
def it() -> Interpreter:
    return Interpreter(stdout=io.StringIO())


def ev(it: Interpreter, expr: str):
    it.eval(f"r__ = {expr};")
    return it.get("r__")


def fails(it: Interpreter, expr: str) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        it.eval(f"r__ = {expr};")
    return info.value


# ------------------------------------------------------------ conversions


@pytest.mark.parametrize("expr, expected", [
    ("int8(2.5)", 3), ("int8(-2.5)", -3), ("int8(3.5)", 4), ("uint8(2.4999)", 2),
    ("int8(200)", 127), ("int8(-200)", -128), ("uint8(-3)", 0), ("int32(2^31)", 2147483647),
    ("int8(NaN)", 0), ("int8(Inf)", 127), ("uint16(-Inf)", 0), ("int8('a')", 97),
    ("int8(true)", 1), ("uint8(int16(-5))", 0), ("uint16(int32(70000))", 65535),
    ("int64(2^63)", 2**63 - 1), ("uint64(2^64)", 2**64 - 1), ("int64(-2^63)", -2**63),
    ("int64(2^62)", 2**62),
])
def test_integer_conversion(it, expr, expected):
    got = ev(it, expr)
    assert class_of(got) == expr.split("(")[0]
    assert int(got[0, 0]) == expected


@settings(max_examples=60, deadline=None)
@given(st.floats(allow_nan=False, min_value=-1e6, max_value=1e6),
       st.sampled_from(["int8", "uint8", "int16", "uint16", "int32", "uint32"]))
def test_integer_conversion_rounds_and_saturates(x, cls):
    got = types._to_integer(cls, x)
    info = np.iinfo(cls)
    nearest = math.copysign(math.floor(abs(x) + 0.5), x)  # exact here: |x| < 2^52
    assert got.dtype == np.dtype(cls)
    assert int(got[0, 0]) == min(max(nearest, info.min), info.max)
    assert types._to_integer(cls, np.array([[x]])).tolist() == got.tolist()  # array path


def test_double_and_single(it):
    assert ev(it, "double('abc')").tolist() == [[97, 98, 99]]
    assert ev(it, "double(int8(-5))") == -5.0
    assert ev(it, "double(true)") == 1.0
    got = ev(it, "single(1) / 3")
    assert got.dtype == np.float32 and got[0, 0] == np.float32(1) / np.float32(3)
    assert ev(it, "single('a')").dtype == np.float32
    assert ev(it, "single(1+2i)").dtype == np.complex64
    assert ev(it, "double(single(0.1))") == float(np.float32(0.1))
    err = fails(it, "double({1})")
    assert err.identifier == "MATLAB:invalidConversion"
    assert err.exc.message == "Conversion to double from cell is not possible."


def test_double_of_strings(it):
    got = ev(it, 'double(["1.5", "abc", "-2e3"])')
    assert got[0, 0] == 1.5 and math.isnan(got[0, 1]) and got[0, 2] == -2000.0


def test_logical(it):
    assert ev(it, "logical([2 0 -1])").tolist() == [[True, False, True]]
    assert ev(it, "logical(int8(0))") is False
    assert fails(it, "logical(NaN)").identifier == "MATLAB:nologicalnan"
    assert fails(it, "logical([1 NaN])").identifier == "MATLAB:nologicalnan"
    assert fails(it, "logical('a')").exc.message == \
        "Conversion to logical from char is not possible."


@pytest.mark.parametrize("expr, expected", [
    ("isnumeric(5)", True), ("isnumeric(int8(5))", True), ("isnumeric(true)", False),
    ("isnumeric('a')", False), ("isfloat(single(1))", True), ("isfloat(int8(1))", False),
    ("isinteger(int8(1))", True), ("isinteger(5)", False), ("islogical(true)", True),
    ("islogical(1)", False), ("isnumeric({1})", False),
])
def test_class_tests(it, expr, expected):
    assert ev(it, expr) is expected


# ------------------------------------------------------------ constants


def test_integer_limits(it):
    assert ev(it, "intmax").dtype == np.int32 and ev(it, "intmax")[0, 0] == 2**31 - 1
    assert ev(it, "intmin('int8')")[0, 0] == -128
    assert ev(it, "intmax('uint64')")[0, 0] == 2**64 - 1
    assert ev(it, "intmin('int64')")[0, 0] == -2**63
    assert ev(it, "intmax('like', uint8(1))").dtype == np.uint8
    assert fails(it, "intmax('double')").identifier == "MATLAB:intmax:invalidClassName"


def test_float_limits(it):
    assert ev(it, "realmax") == np.finfo(np.float64).max
    assert ev(it, "realmin") == 2.0 ** -1022
    assert ev(it, "flintmax") == 2.0 ** 53
    single_max = ev(it, "realmax('single')")
    assert single_max.dtype == np.float32 and single_max[0, 0] == np.finfo(np.float32).max
    assert ev(it, "flintmax('single')")[0, 0] == 2 ** 24


@pytest.mark.parametrize("expr, expected", [
    ("eps", 2.0 ** -52), ("eps(1)", 2.0 ** -52), ("eps(1000)", 2.0 ** -43),
    ("eps(0)", 5e-324), ("eps(-1)", 2.0 ** -52), ("eps(realmax)", 2.0 ** 971),
    ("eps(0.75)", 2.0 ** -53),
])
def test_eps(it, expr, expected):
    assert ev(it, expr) == expected


def test_eps_single_and_special(it):
    assert ev(it, "eps('single')")[0, 0] == np.float32(2.0 ** -23)
    assert ev(it, "eps(single(1))").dtype == np.float32
    assert math.isnan(ev(it, "eps(Inf)")) and math.isnan(ev(it, "eps(NaN)"))
    fails(it, "eps(int8(1))")


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=1e-300, max_value=1e300))
def test_eps_is_the_gap_to_the_next_double(x):
    assert constants.eps(x) == np.nextafter(x, math.inf) - x


def test_inf_nan_with_sizes(it):
    assert ev(it, "Inf") == math.inf and ev(it, "-inf") == -math.inf
    assert math.isnan(ev(it, "NaN")) and math.isnan(ev(it, "nan"))
    assert ev(it, "Inf(2, 3)").shape == (2, 3)
    assert ev(it, "Inf(2)").shape == (2, 2)
    got = ev(it, "NaN([1 4])")
    assert got.shape == (1, 4) and np.isnan(got).all()
    assert ev(it, "Inf(2, 2, 'single')").dtype == np.float32
    assert ev(it, "NaN(1, 2, 'like', single(1))").dtype == np.float32
    assert ev(it, "nan(0, 3)").shape == (0, 3)
    assert ev(it, "Inf(-1)").shape == (0, 0)
    assert ev(it, "Inf(2, 3, 1)").shape == (2, 3)
    assert fails(it, "Inf(1.5)").identifier == "MATLAB:NonIntegerInput"


def test_pi_imaginary_unit_true_false(it):
    assert ev(it, "pi") == math.pi
    assert ev(it, "i") == 1j and ev(it, "j") == 1j and ev(it, "i * i") == -1
    assert ev(it, "true") is True and ev(it, "false") is False
    got = ev(it, "true(2)")
    assert got.dtype == np.bool_ and got.shape == (2, 2) and got.all()
    got = ev(it, "false([1 3])")
    assert got.shape == (1, 3) and not got.any()
    assert ev(it, "true(1, 2, 'like', false)").dtype == np.bool_
