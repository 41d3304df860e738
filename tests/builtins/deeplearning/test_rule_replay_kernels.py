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
