"""Builtins answer double scalars (Python floats) on a short path: the answers equal the
general path's on the same values held as 1-by-1 arrays, special values included."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from mlang.evaluation.interpreter import Interpreter
from mlang.registry import BUILTINS

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 0.5, -0.5, 3.0, 1e308, -1e-300,
           math.inf, -math.inf, math.nan]


def _same(fast: object, general: object) -> None:
    fast_value = np.asarray(fast, dtype=float).reshape(-1)
    general_value = np.asarray(general, dtype=float).reshape(-1)
    assert type(fast) in (float, bool)
    np.testing.assert_array_equal(fast_value, general_value)
    assert np.signbit(fast_value).tolist() == np.signbit(general_value).tolist()


@pytest.mark.parametrize("name", ["max", "min"])
def test_two_scalars_pick_as_arrays_do(name):
    interp = Interpreter()
    entry = BUILTINS[name]
    for x, y in itertools.product(SPECIAL, repeat=2):
        fast = entry.call(interp, [x, y], 1)[0]
        general = entry.call(interp, [np.array([[x]]), np.array([[y]])], 1)[0]
        _same(fast, general)


def test_sum_of_a_logical_vector_counts_as_the_general_path_does():
    interp = Interpreter()
    entry = BUILTINS["sum"]
    rng = np.random.default_rng(1)
    for shape in [(1, 1), (1, 7), (9, 1), (1, 100000)]:
        x = rng.random(shape) > 0.5
        fast = entry.call(interp, [x], 1)[0]
        general = entry.call(interp, [x, 1.0 if shape[0] > 1 else 2.0], 1)[0]
        assert type(fast) is float and fast == float(np.asarray(general).sum()) == x.sum()
