"""The replay of an accelerated function computes plus, minus, times and mtimes of real
floating arrays directly: the same results as the builtins, for every class and shape."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mlang.autodiff.trace import result_data
from mlang.builtins.deeplearning import trace_cache
from mlang.registry import BUILTINS


def _operands() -> list:
    rng = np.random.default_rng(4)
    m = rng.standard_normal((3, 4))
    m[0, 0], m[1, 1], m[2, 2] = np.nan, -0.0, np.inf
    return [
        m, m.astype(np.float32), np.asfortranarray(m), rng.standard_normal((1, 4)),
        rng.standard_normal((3, 1)), rng.standard_normal((4, 2)), np.zeros((0, 4)),
        rng.standard_normal((2, 3, 4)), np.array([[2.5]]), 2.5, -0.0,
        m + 1j, np.array([[True, False, True, True]]), np.arange(4, dtype=np.int32).reshape(1, 4),
    ]


_PAIRS = list(itertools.product(range(len(_operands())), repeat=2))


@pytest.mark.parametrize("name", ["plus", "minus", "times", "mtimes"])
@pytest.mark.parametrize("i, j", _PAIRS)
def test_replayed_operators_give_the_builtins_results(name, i, j):
    ops_ = _operands()
    x, y = ops_[i], ops_[j]
    op = BUILTINS[name]
    with np.errstate(all="ignore"):
        try:
            want = result_data(op.invoke(None, [x, y], 1)[0])
        except Exception as exc:  # noqa: BLE001 (the replay raises what the builtin raises)
            with pytest.raises(type(exc)):
                trace_cache._computed(op, [x, y], None)
            return
        got = trace_cache._computed(op, [x, y], None)
    assert type(got) is np.ndarray
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    if got.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


# ------------------------------------- sums of gradient contributions in the replay


def _gradient_of(rule_y, rule_u) -> np.ndarray:
    """The gradient with respect to slot 0 of y (slot 2) = f(u, u), u (slot 1) = h(x, x),
    as the replay's untraced gradient step computes it."""
    x = np.arange(6.0).reshape(2, 3)
    values = [x, x * 2.0, np.array([[1.0]]), None]
    step = trace_cache.GradientStep(2, (), (0,), False, False, (3,), True)
    plan = trace_cache.FirstOrder(1, frozenset({0}), ((1, rule_y, 2, (1, 1)), (0, rule_u, 1, (0, 0))),
                                  frozenset({0, 1}))
    kept = {0: [x, x], 1: [values[1], values[1]]}
    trace_cache._untraced_gradient(step, plan, values, kept)
    return values[3]


def test_contributions_held_elsewhere_are_not_written_over():
    ones = np.ones((2, 3))

    def shared_twice(g, y, u1, u2):  # one array for both arguments, held by the closure
        shared = ones * 2.0
        return (lambda: shared, lambda: shared)

    def new_each(g, y, x1, x2):  # a new array, then the upstream gradient itself
        return (lambda: g * 1.0, lambda: g)

    np.testing.assert_array_equal(_gradient_of(shared_twice, new_each), np.full((2, 3), 8.0))

    def new_arrays(g, y, u1, u2):
        return (lambda: ones * 2.0, lambda: ones * 3.0)

    np.testing.assert_array_equal(_gradient_of(new_arrays, new_each), np.full((2, 3), 10.0))

    kept_result = []

    def remembered(g, y, u1, u2):  # a new array the rule also keeps
        def second():
            kept_result.append(ones * 3.0)
            return kept_result[0]
        return (lambda: ones * 2.0, second)

    np.testing.assert_array_equal(_gradient_of(remembered, new_each), np.full((2, 3), 10.0))
    np.testing.assert_array_equal(kept_result[0], np.full((2, 3), 3.0))
