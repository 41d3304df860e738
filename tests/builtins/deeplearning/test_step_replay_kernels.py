"""The replay of a recorded call computes rdivide, mrdivide by a scalar, exp, relu and
tanh of real floating arrays directly: the same results as the builtins (as the
operators on dlarrays compute them) for every class and shape, NaN, Inf and -0."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import result_data
from mlang.builtins.deeplearning import trace_cache
from mlang.registry import BUILTINS


def _operands() -> list:
    rng = np.random.default_rng(5)
    m = rng.standard_normal((3, 4)) * 400
    m[0, 0], m[1, 1], m[2, 2], m[0, 1] = np.nan, -0.0, np.inf, 0.0
    return [
        m, m.astype(np.float32), np.asfortranarray(m), rng.standard_normal((1, 4)),
        rng.standard_normal((3, 1)), rng.standard_normal((4, 2)), np.zeros((0, 4)),
        rng.standard_normal((2, 3, 4)), np.array([[2.5]]), np.array([[-0.0]], np.float32), 2.5,
        -0.0, 0.0, m + 1j, np.array([[True, False, True, True]]),
        np.arange(4, dtype=np.int32).reshape(1, 4), np.array([[1000.0, -1000.0, 88.0, 710.0]]),
    ]


def _same_as_builtin(name: str, args: list) -> None:
    op = BUILTINS[name]
    with np.errstate(all="ignore"):
        try:
            want = result_data(op.invoke(None, list(args), 1)[0])
        except Exception as exc:  # noqa: BLE001 (the replay raises what the builtin raises)
            with pytest.raises(type(exc)):
                trace_cache._computed(op, list(args), None)
            return
        got = trace_cache._computed(op, list(args), None)
    assert type(got) is np.ndarray
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    if got.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


_PAIRS = list(itertools.product(range(len(_operands())), repeat=2))


@pytest.mark.parametrize("name", ["rdivide", "mrdivide"])
@pytest.mark.parametrize("i, j", _PAIRS)
def test_replayed_divisions_give_the_builtins_results(name: str, i: int, j: int) -> None:
    x, y = _operands()[i], _operands()[j]
    _same_as_builtin(name, [x, y])


@pytest.mark.parametrize("name", ["exp", "relu", "tanh"])
@pytest.mark.parametrize("i", range(len(_operands())))
def test_replayed_functions_give_the_builtins_results(name: str, i: int) -> None:
    _same_as_builtin(name, [_operands()[i]])


@pytest.mark.parametrize("symbol", ["./", "/"])
@pytest.mark.parametrize("i, j", _PAIRS)
def test_replayed_divisions_give_what_the_operators_on_dlarrays_give(symbol: str, i: int,
                                                                      j: int) -> None:
    """The general path divides a dlarray by ops.operator: the replay gives its data."""
    x, y = _operands()[i], _operands()[j]
    if type(x) is not np.ndarray or x.dtype.kind not in "fcb":
        return  # (not the data of a dlarray)
    name = "rdivide" if symbol == "./" else "mrdivide"
    with np.errstate(all="ignore"):
        try:
            want = ops.operator(symbol, DlArray(x), y)
        except Exception:  # noqa: BLE001 (errors: compared with the builtins above)
            return
        got = trace_cache._computed(BUILTINS[name], [x, y], None)
    want = want.data if type(want) is DlArray else result_data(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    if got.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_conj_of_a_double_scalar_is_the_builtins() -> None:
    for v in (2.5, -0.0, float("nan"), float("-inf")):
        got = ops.conj(v)
        want = BUILTINS["conj"].invoke(None, [v], 1)[0]
        assert type(got) is type(want) is float
        assert got == want or (np.isnan(got) and np.isnan(want))
        assert np.signbit(got) == np.signbit(want)


def _reduced_operands() -> list:
    rng = np.random.default_rng(6)
    big = rng.standard_normal((20, 1000))
    odd = rng.standard_normal((7, 13)) * 1e8
    odd[2, 3], odd[4, 5] = np.inf, -0.0
    return [big, big.astype(np.float32), np.asfortranarray(big), big[3:4, :], big[:, 5:6],
            big[::2, ::3], big.T, odd, odd.astype(np.float32), np.full((3, 4), -0.0),
            np.array([[np.nan, 1.0]]), np.array([[np.inf, -np.inf]]), np.array([[2.5]]),
            np.array([[2.5]], np.float32), np.zeros((0, 3)), big + 1j, np.ones((2, 3, 4)),
            np.array([[True, False]]), np.arange(6, dtype=np.int16).reshape(2, 3)]


@pytest.mark.parametrize("name", ["sum", "mean"])
@pytest.mark.parametrize("option", ["all", "ALL", "omitnan", 1.0, 2.0, 3.0])
@pytest.mark.parametrize("i", range(len(_reduced_operands())))
def test_replayed_reductions_give_the_builtins_results(name: str, option: object, i: int) -> None:
    from mlang.values.core import char_row

    _same_as_builtin(name, [_reduced_operands()[i], char_row(option) if type(option) is str
                            else option])


@pytest.mark.parametrize("name", ["uminus", "log"])
@pytest.mark.parametrize("i", range(len(_operands())))
def test_replayed_negation_and_log_give_the_builtins_results(name: str, i: int) -> None:
    _same_as_builtin(name, [_operands()[i]])


def test_replayed_log_of_negative_numbers_is_the_builtins_complex_result() -> None:
    for x in (np.array([[-1.0, 2.0, np.nan, 0.0, -0.0]]), np.array([[-np.inf, 1.0]], np.float32),
              np.array([[np.nan, np.inf, 0.0]])):
        _same_as_builtin("log", [x])


@pytest.mark.parametrize("exponent", [2.0, 3.0, -1.0, 0.0, -2.0, 0.5, 2.5])
@pytest.mark.parametrize("i", range(len(_operands())))
def test_replayed_powers_give_the_builtins_and_the_operators_results(exponent: float, i: int) -> None:
    x = _operands()[i]
    _same_as_builtin("power", [x, exponent])
    if type(x) is np.ndarray and x.dtype.kind == "f" and exponent.is_integer():
        with np.errstate(all="ignore"):
            want = ops.operator(".^", DlArray(x), exponent).data
            got = trace_cache._computed(BUILTINS["power"], [x, exponent], None)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
