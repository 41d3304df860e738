"""Fast paths of element-wise work on large arrays give the values of the general path.

* sqrt, log, log10 and log1p of real arrays compute the real result first and compute the
  complex result only of the elements outside the real domain (the others keep their real
  values);
* x.^2 of a real floating array is NumPy's square, the same values as x.*x.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import class_of, result

# name, NumPy function, where a real input has a complex result
DOMAIN_FUNCTIONS = [
    ("sqrt", np.sqrt, lambda a: a < 0),
    ("log", np.log, lambda a: a < 0),
    ("log10", np.log10, lambda a: a < 0),
    ("log1p", np.log1p, lambda a: a < -1),
]

SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, -5e-324, 1.0, -1.0, -1.5, 2.0, 1e300, -1e-300]


@pytest.fixture(scope="module")
def it() -> Interpreter:
    return Interpreter(stdout=io.StringIO())


def call(it: Interpreter, name: str, value: object) -> object:
    it.set("a__", value)
    it.eval(f"r__ = {name}(a__);")
    return it.get("r__")


def general(fn, outside, a: np.ndarray) -> object:
    """The result as computed by looking for elements outside the real domain first: where
    there are some, those elements complex and the others their real values."""
    with np.errstate(all="ignore"):
        beyond = outside(a)
        if not beyond.any():
            return result(np.asarray(fn(a)))
        ctype = np.complex64 if a.dtype == np.float32 else np.complex128
        values = np.asarray(fn(a)).astype(ctype)
        values[beyond] = fn(a[beyond].astype(ctype))
        return result(values)


def same(got: object, want: object) -> None:
    assert type(got) is type(want)
    assert class_of(got) == class_of(want)
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape and g.dtype == w.dtype
    assert np.array_equal(g, w, equal_nan=True)
    assert np.array_equal(np.signbit(g.real), np.signbit(w.real))


def arrays(dtype: type) -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    with np.errstate(over="ignore"):  # 1e300 is Inf in single
        out = [np.array([[v]], dtype=dtype) for v in SPECIALS]
        out.append(np.array([SPECIALS], dtype=dtype))
    out.append(np.zeros((0, 3), dtype=dtype))
    out.append(np.zeros((1, 0), dtype=dtype))
    big = rng.random((1, 10_001)).astype(dtype)
    out.append(big)
    for at in (0, 5000, 10_000):  # one element outside the domain, anywhere in a long row
        for bad in (-2.0, -np.inf, -1e-30):
            b = big.copy()
            b[0, at] = bad
            out.append(b)
    out.append((rng.random((3, 4, 2)) - 0.5).astype(dtype))
    return out


@pytest.mark.parametrize("name,fn,outside", DOMAIN_FUNCTIONS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_domain_functions_match_general_path(it, name, fn, outside, dtype):
    for a in arrays(dtype):
        want = general(fn, outside, a)
        same(call(it, name, result(a.copy())), want)


@pytest.mark.parametrize("name,fn,outside", DOMAIN_FUNCTIONS)
def test_domain_functions_of_complex_logical_and_char(it, name, fn, outside):
    z = np.array([[1 + 2j, -3 - 0.5j, np.nan + 1j, 0j, -4 + 0j]])
    same(call(it, name, z), general(fn, outside, z))
    mask = np.array([[True, False, True]])
    same(call(it, name, mask), general(fn, outside, mask.astype(np.float64)))
    it.eval("r__ = " + name + "('ab');")
    same(it.get("r__"), general(fn, outside, np.array([[97.0, 98.0]])))


@pytest.mark.parametrize("name", [name for name, _, _ in DOMAIN_FUNCTIONS])
def test_domain_functions_refuse_integers(it, name):
    with pytest.raises(MatlabError):
        call(it, name, np.array([[4, -4]], dtype=np.int8))


def test_sqrt_of_negative_row_is_complex(it):
    got = call(it, "sqrt", np.array([[4.0, -4.0, np.nan, -np.inf]]))
    assert got.dtype == np.complex128
    assert np.array_equal(got, np.array([[2, 2j, complex(np.nan, 0), complex(0, np.inf)]]), equal_nan=True)


def test_log_of_zero_is_minus_infinity_and_real(it):
    got = call(it, "log", np.array([[0.0, 1.0, np.inf]]))
    assert got.dtype == np.float64
    assert got.tolist() == [[-np.inf, 0.0, np.inf]]


def power_two(it: Interpreter, value: object) -> object:
    it.set("a__", value)
    it.eval("r__ = a__.^2;")
    return it.get("r__")


def times_self(it: Interpreter, value: object) -> object:
    it.set("a__", value)
    it.eval("r__ = a__.*a__;")
    return it.get("r__")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_square_matches_times_self(it, dtype):
    for a in arrays(dtype):
        same(power_two(it, result(a.copy())), times_self(it, result(a.copy())))


def test_square_of_large_values_overflows_to_infinity(it):
    got = power_two(it, np.array([[1e200, -1e200, 1e-200]]))
    assert got.tolist() == [[np.inf, np.inf, 0.0]]
    single = power_two(it, np.array([[1e20, 3.0]], dtype=np.float32))
    assert single.dtype == np.float32 and single.tolist() == [[np.inf, 9.0]]


def test_square_of_other_classes(it):
    z = np.array([[1 + 2j, -3 - 0.5j, np.nan + 1j]])
    same(power_two(it, z), times_self(it, z))
    ints = np.array([[100, -100, 3, 0]], dtype=np.int8)
    assert power_two(it, ints).tolist() == [[127, 127, 9, 0]]
    assert power_two(it, ints).dtype == np.int8
    mask = np.array([[True, False, True]])
    same(power_two(it, mask), np.array([[1.0, 0.0, 1.0]]))
    it.eval("r__ = 'ab'.^2;")
    same(it.get("r__"), np.array([[97.0 ** 2, 98.0 ** 2]]))
    same(power_two(it, np.zeros((0, 2))), np.zeros((0, 2)))


def general_power(x: np.ndarray, y: np.ndarray) -> object:
    """x.^y of real arrays with the complex elements found by a mask first; a single
    exponent is a scalar (NumPy takes its square root for 0.5 then, whatever the base's
    size: (-0)^0.5 is -0, for a double scalar too)."""
    if y.size == 1:
        y = y.dtype.type(y.reshape(-1)[0])
    with np.errstate(all="ignore"):
        complex_at = (x < 0) & (y != np.trunc(y)) & np.isfinite(y)
        if complex_at.any():
            ctype = np.complex128 if np.float64 in (x.dtype, y.dtype) else np.complex64
            out = np.power(x, y).astype(ctype)
            xb, yb = np.broadcast_arrays(x, y)
            out[complex_at] = np.power(xb[complex_at].astype(ctype), yb[complex_at])
            return result(out)
        return result(np.power(x, y))


def power(it: Interpreter, x: object, y: object) -> object:
    it.set("a__", x)
    it.set("b__", y)
    it.eval("r__ = a__.^b__;")
    return it.get("r__")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_power_matches_general_path(it, dtype):
    bases = arrays(dtype)
    exponents = [0.5, -0.5, 1.5, 3.0, -2.0, 0.0, np.nan, np.inf, -np.inf, 1 / 3]
    with np.errstate(all="ignore"):
        for x in bases:
            for p in exponents:
                y = np.array([[p]], dtype=dtype)
                same(power(it, result(x.copy()), result(y)), general_power(x, y))
        row = np.array([SPECIALS], dtype=dtype)
        for y in (row, -row, row * 0.5, np.full(row.shape, 2.5, dtype=dtype)):
            for x in (row, np.abs(row), np.array([[-2.0]], dtype=dtype), np.array([[np.nan]], dtype=dtype)):
                same(power(it, result(x.copy()), result(y.copy())), general_power(x, y))


def test_power_of_negative_infinity_to_a_fraction_is_complex(it):
    got = power(it, np.array([[-np.inf, 4.0]]), 0.5)
    assert np.asarray(got).dtype == np.complex128
    same(got, general_power(np.array([[-np.inf, 4.0]]), np.array([[0.5]])))


def test_power_of_nan_bases_stays_real(it):
    same(power(it, np.array([[np.nan, np.nan]]), 0.5), np.array([[np.nan, np.nan]]))
    assert power(it, np.array([[np.nan, np.nan]]), 0.0).tolist() == [[1.0, 1.0]]


SUM_FORMS = ["sum(m__)", "sum(m__, 1)", "sum(m__, 2)", "sum(m__, 3)", "sum(m__, 'all')",
             "sum(m__, [1 2])", "sum(m__, 'native')", "sum(m__, 'double')", "sum(m__, 'omitnan')",
             "sum(m__, 2, 'native')"]


def test_sum_of_logicals_matches_sum_of_doubles(it):
    rng = np.random.default_rng(3)
    masks = [rng.random((4, 5)) > 0.5, rng.random((1, 7)) > 0.5, rng.random((6, 1)) > 0.5,
             rng.random((2, 3, 4)) > 0.5, np.zeros((0, 3), dtype=bool), np.zeros((3, 0), dtype=bool),
             np.zeros((0, 0), dtype=bool), np.ones((1, 1), dtype=bool), np.ones((3, 3), dtype=bool)]
    for mask in masks:
        for form in SUM_FORMS:
            it.set("m__", result(mask.copy()))
            it.eval("r__ = " + form + ";")
            got = it.get("r__")
            it.set("m__", result(mask.astype(np.float64)))
            it.eval("r__ = " + form + ";")
            want = it.get("r__")
            if "native" in form:  # the native class of a logical sum is logical
                assert class_of(got) == "logical"
                assert np.array_equal(np.asarray(got), np.asarray(want) != 0)
            else:
                same(got, want)
