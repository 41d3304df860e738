"""Operators with MATLAB's class rules: integer rounding and saturation (exact for
64-bit integers), single and double, char and logical promotion, division by
zero, NaN/Inf, complex results and matrix operators."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values import operators as ops
from mlang.values.core import class_of


@pytest.fixture(scope="module")
def it() -> Interpreter:
    return Interpreter(stdout=io.StringIO())


def ev(it: Interpreter, expr: str):
    it.eval(f"r__ = {expr};")
    return it.get("r__")


def ints(values: list[int], cls: str) -> np.ndarray:
    return np.array([values], dtype=np.dtype(cls))


# ------------------------------------------------------------ to_class


def test_to_class_rounds_half_away_and_saturates():
    got = ops.to_class(np.array([[2.5, -2.5, 127.5, -128.6, np.nan, np.inf, -np.inf]]), "int8")
    assert got.tolist() == [[3, -3, 127, -128, 0, 127, -128]]


def test_to_class_64_bit_limits_do_not_wrap():
    # 2^63 as a double is one past intmax('int64'); a plain cast would wrap to intmin
    got = ops.to_class(np.array([[2.0 ** 63, -2.0 ** 63, 1e30, -1e30]]), "int64")
    assert got.tolist() == [[2**63 - 1, -2**63, 2**63 - 1, -2**63]]
    got = ops.to_class(np.array([[2.0 ** 64, -1.0, 2.0 ** 63]]), "uint64")
    assert got.tolist() == [[2**64 - 1, 0, 2**63]]


def test_to_class_between_integer_classes_is_exact():
    assert ops.to_class(ints([2**63 - 1, -5], "int64"), "uint64").tolist() == [[2**63 - 1, 0]]
    assert ops.to_class(ints([300, -300], "int16"), "uint8").tolist() == [[255, 0]]
    assert ops.to_class(ints([2**64 - 1], "uint64"), "int64").tolist() == [[2**63 - 1]]


@settings(max_examples=60, deadline=None)
@given(st.integers(-2**63, 2**63 - 1), st.sampled_from(["int8", "uint16", "int32", "uint64"]))
def test_to_class_from_int64_clips(v, cls):
    info = np.iinfo(cls)
    assert ops.to_class(ints([v], "int64"), cls)[0, 0] == min(max(v, info.min), info.max)


# ------------------------------------------------------------ integer arithmetic


@pytest.mark.parametrize("expr, cls, expected", [
    ("int8(127) + 1", "int8", 127),
    ("int8(-128) - 1", "int8", -128),
    ("uint8(250) + 10", "uint8", 255),
    ("uint8(5) - 10", "uint8", 0),
    ("int16(300) * 200", "int16", 32767),
    ("-int8(-128)", "int8", 127),
    ("int32(7) / int32(2)", "int32", 4),
    ("int32(-7) / 2", "int32", -4),
    ("int32(10) / 4", "int32", 3),
    ("uint8(7) / uint8(2)", "uint8", 4),
    ("int32(2) / 3", "int32", 1),
    ("int32(5) / 0", "int32", 2**31 - 1),
    ("int32(-5) / 0", "int32", -2**31),
    ("int32(0) / 0", "int32", 0),
    ("int8(2) .^ 7", "int8", 127),
    ("int8(-2) .^ 7", "int8", -128),
    ("uint8(1) + true", "uint8", 2),
    ("int8(5) + 'a'", "int8", 102),
    ("2.5 * int16(3)", "int16", 8),
    ("single(2) * int8(3)", "int8", 6),
])
def test_integer_results(it, expr, cls, expected):
    got = ev(it, expr)
    assert class_of(got) == cls
    assert int(got[0, 0]) == expected


@pytest.mark.parametrize("expr, expected", [
    ("intmax('int64') - 1", 2**63 - 2),
    ("intmax('int64') + 1", 2**63 - 1),
    ("intmin('int64') - 1", -2**63),
    ("int64(9007199254740992) + 1", 2**53 + 1),
    ("intmax('uint64') - 1", 2**64 - 2),
    ("intmax('uint64') / 2", 2**63),  # 2^64-1 over 2, ties away from zero
    ("intmax('int64') / int64(2)", 2**62),
    ("int64(3) ^ 39", 3**39),
    ("int64(2) ^ -1", 1),
    ("-intmin('int64')", 2**63 - 1),
    ("int64(5) * 0.5", 3),  # a fraction takes the double path
])
def test_64_bit_integer_arithmetic_is_exact(it, expr, expected):
    assert int(ev(it, expr)[0, 0]) == expected


@settings(max_examples=60, deadline=None)
@given(st.integers(-2**62, 2**62), st.integers(-2**62, 2**62))
def test_int64_add_multiply_saturate_exactly(a, b):
    lo, hi = -2**63, 2**63 - 1
    x, y = ints([a], "int64"), ints([b], "int64")
    assert ops.elementwise("+", x, y)[0, 0] == min(max(a + b, lo), hi)
    assert ops.elementwise("-", x, y)[0, 0] == min(max(a - b, lo), hi)
    assert ops.elementwise(".*", x, y)[0, 0] == min(max(a * b, lo), hi)


def test_integer_class_errors(it):
    with pytest.raises(MatlabError) as info:
        ev(it, "int8(1) + int16(1)")
    assert info.value.identifier == "MATLAB:mixedClasses"
    with pytest.raises(MatlabError):
        ev(it, "uint8(3) .* int8(2)")
    with pytest.raises(MatlabError) as info:
        ev(it, "int8([1 2; 3 4]) * int8([1 0; 0 1])")
    assert info.value.identifier == "MATLAB:mtimes:integerNotSupported"
    with pytest.raises(MatlabError):
        ev(it, "int8(1) + 1i")


def test_integer_with_double_arrays(it):
    assert ev(it, "int8([1 2]) + [1.5 2.5]").tolist() == [[3, 5]]
    got = ev(it, "uint8([100 200]) * 2")
    assert got.dtype == np.uint8 and got.tolist() == [[200, 255]]


# ------------------------------------------------------------ other classes


def test_result_classes(it):
    assert class_of(ev(it, "single(1) + 1")) == "single"
    assert class_of(ev(it, "true + true")) == "double" and ev(it, "true + true") == 2
    assert class_of(ev(it, "'a' + 1")) == "double" and ev(it, "'a' + 1") == 98
    assert ev(it, "'abc' - 'a'").tolist() == [[0, 1, 2]]
    assert ev(it, "-true") == -1.0
    assert ev(it, "single(16777216) + 1")[0, 0] == 16777216


def test_division_by_zero_and_nan_rules(it):
    assert ev(it, "1/0") == math.inf and ev(it, "-1/0") == -math.inf
    assert math.isnan(ev(it, "0/0")) and math.isnan(ev(it, "Inf - Inf"))
    assert math.isnan(ev(it, "0 * Inf"))
    assert ev(it, "[1 2] ./ 0").tolist() == [[math.inf, math.inf]]
    assert ev(it, "0 ^ -1") == math.inf
    assert ev(it, "NaN ^ 0") == 1.0 and ev(it, "0 ^ 0") == 1.0
    assert ev(it, "2 ^ Inf") == math.inf


def test_complex_powers(it):
    assert ev(it, "(-8) ^ (1/3)") == pytest.approx(1 + math.sqrt(3) * 1j)
    got = ev(it, "[-8 8] .^ (1/3)")
    assert got.dtype == np.complex128 and got[0, 1] == pytest.approx(2)
    assert ev(it, "(-2) .^ [1 2 3]").tolist() == [[-2, 4, -8]]
    assert ev(it, "(1 + 2i) * (3 - 1i)") == 5 + 5j
    assert ev(it, "(1 + 1i) / (1 - 1i)") == pytest.approx(1j)


# ------------------------------------------------------------ matrix operators


def test_matrix_power(it):
    assert ev(it, "[1 1; 1 0] ^ 10").tolist() == [[89, 55], [55, 34]]
    assert ev(it, "[2 0; 0 4] ^ -1").tolist() == [[0.5, 0], [0, 0.25]]
    assert ev(it, "[1 2; 3 4] ^ 0").tolist() == [[1, 0], [0, 1]]
    assert np.allclose(ev(it, "[4 0; 0 9] ^ 0.5"), [[2, 0], [0, 3]])


def test_scalar_to_matrix_power(it):
    got = ev(it, "2 ^ [1 2; 3 4]")
    expected = np.array([[10.482739389629, 14.151878828305], [21.227818242481, 31.710557632111]])
    assert np.allclose(got, expected, rtol=1e-11)
    assert np.allclose(ev(it, "2 ^ [1 1; 0 1]"), [[2, 2 * math.log(2)], [0, 2]])


def test_matrix_division(it):
    assert ev(it, "[4 0; 0 2] \\ [8; 6]").tolist() == [[2], [3]]
    assert ev(it, "[8 6] / [4 0; 0 2]").tolist() == [[2, 3]]
    assert ev(it, "2 \\ 4") == 2.0
    with pytest.raises(MatlabError) as info:
        ev(it, "[1 2; 3 4] ^ [1 2]")
    assert info.value.identifier == "MATLAB:mpower:notScalarAndSquareMatrix"
