"""The fast paths of element-wise operators and math builtins on short double arrays and
scalars give exactly what the general paths give: the same class, shape, values (NaN, Inf
and the sign of zero included) and the same errors."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.values import operators

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.5, -3.0, 7.0, 1e-300, 1e300, -1e308, math.inf, -math.inf, math.nan]
ROWS = [
    np.array([[5.0, 6.0, 3.0]]),
    np.array([[0.0, -0.0, math.nan, math.inf, -math.inf, 1e308, -2.5, 1e-310]]),
    np.array([[1.0], [-2.0], [0.5]]),
    np.array([[1.0, -2.0], [3.0, -0.0]]),
    np.array([[4.0]]),
    np.zeros((0, 3)),
    np.zeros((1, 0)),
]


def same(x: object, y: object) -> None:
    """x and y are the same MATLAB value: type, dtype, shape and every bit of every element."""
    assert type(x) is type(y), (x, y)
    if type(x) is np.ndarray:
        assert x.dtype == y.dtype and x.shape == y.shape, (x, y)
        if x.dtype.kind in "fc":
            numbers = ~np.isnan(x.real)  # (the sign of a NaN carries no meaning)
            assert np.array_equal(np.signbit(x.real)[numbers], np.signbit(y.real)[numbers])
            assert np.array_equal(x, y, equal_nan=True), (x, y)
        else:
            assert np.array_equal(x, y), (x, y)
    elif type(x) is float:
        assert (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y)), (x, y)
    elif type(x) is complex:
        same(x.real, y.real)
        same(x.imag, y.imag)
    else:
        assert x == y, (x, y)


def outcome(fn, *args: object) -> object:
    """fn's value, or its MATLAB error identifier."""
    try:
        with np.errstate(all="ignore"):
            return fn(*args)
    except MatlabError as e:
        return ("error", e.identifier)


def same_outcome(x: object, y: object) -> None:
    if type(x) is tuple or type(y) is tuple:
        assert x == y
    else:
        same(x, y)


def slow_forms(v: object) -> list[object]:
    """Forms of a value the fast paths do not take but that mean the same: a 1x1 array for a
    scalar, an array with a trailing singleton dimension."""
    if type(v) is float:
        return [np.full((1, 1), v)]
    if type(v) is bool:
        return [np.full((1, 1), v)]
    if type(v) is np.ndarray:
        return [v.reshape(v.shape + (1,))]
    return []


SYMBOLS = ["+", "-", "*", ".*", "/", "./", ".\\", "^", ".^", "==", "~=", "<", "<=", ">", ">="]


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_array_and_scalar_operators_match_general_path(symbol: str) -> None:
    for v, s in itertools.product(ROWS, SPECIAL + [True, False]):
        for a, b in ((v, s), (s, v)):
            if symbol in ("^",) and type(a) is np.ndarray and a.shape[0] != a.shape[1]:
                continue
            fast = outcome(operators.binary, symbol, a, b)
            for slow_a in [a, *slow_forms(a)]:
                for slow_b in [b, *slow_forms(b)]:
                    if slow_a is a and slow_b is b:
                        continue
                    if symbol in ("*", "/", "^", "\\") and (
                            (type(slow_a) is np.ndarray and slow_a.ndim > 2)
                            or (type(slow_b) is np.ndarray and slow_b.ndim > 2)):
                        continue
                    slow = outcome(operators.binary, symbol, slow_a, slow_b)
                    if type(slow) is np.ndarray and slow.ndim == 2 and slow.size == 1 \
                            and slow.dtype == np.float64:
                        slow = float(slow[0, 0])
                    same_outcome(fast, slow)


@pytest.mark.parametrize("symbol", ["+", "-", ".*", "./", ".^", "==", "<", ">="])
def test_two_double_arrays_match_general_path(symbol: str) -> None:
    for v in ROWS:
        for w in (v, v[::-1].copy(), np.full(v.shape, 2.0), np.full(v.shape, -0.0)):
            fast = outcome(operators.binary, symbol, v, w)
            slow = outcome(operators.binary, symbol, v.reshape(v.shape + (1,)), w)
            if type(slow) is np.ndarray and slow.size == 1:
                slow = slow.reshape(1, 1)
                slow = float(slow[0, 0]) if slow.dtype == np.float64 else bool(slow[0, 0])
            same_outcome(fast, slow)


def test_mismatched_shapes_keep_their_error() -> None:
    a, b = np.ones((1, 3)), np.ones((1, 2))
    for symbol in ("./", ".^", "+", ">", "=="):
        assert outcome(operators.binary, symbol, a, b) == ("error", "MATLAB:sizeDimensionsMustMatch")


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_logical_and_double_scalars(symbol: str) -> None:
    for a, b in itertools.product(SPECIAL + [True, False], repeat=2):
        if type(a) is float and type(b) is float:
            continue
        fast = outcome(operators.binary, symbol, a, b)
        slow = outcome(operators.binary, symbol, np.full((1, 1), a), np.full((1, 1), b))
        same_outcome(fast, slow)


def test_true_plus_true_is_a_double() -> None:
    out = operators.binary("+", True, True)
    assert type(out) is float and out == 2.0
    assert operators.binary(">", True, 0.5) is True
    assert type(operators.binary("-", False, True)) is float


def test_other_classes_keep_their_rules() -> None:
    v = np.array([[1.0, 2.0, 3.0]])
    assert operators.binary("./", v.astype(np.float32), 2.0).dtype == np.float32
    assert operators.binary("./", v.astype(np.int8), 2.0).dtype == np.int8
    assert operators.binary(".^", v.astype(np.uint16), 2.0).dtype == np.uint16
    assert operators.binary(">", v.astype(np.int8), 2.0).dtype == np.bool_
    out = operators.binary(".^", np.array([[-8.0, 4.0]]), 0.5)
    assert out.dtype == np.complex128
    same(operators.binary("./", np.array([[1.0, 0.0, -1.0]]), 0.0), np.array([[math.inf, math.nan, -math.inf]]))
