"""The backward pass adds a contribution that no one else holds into its own memory: the
gradients are those of plain sums, and contributions held elsewhere (a saved array, the
upstream gradient itself) are left intact."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mlang.autodiff import trace as tr


def _leaf(x):
    return tr.Node((), None, (), (), x)


def _fan_in(x, rules):
    """A leaf x used by one node per rule, and a root summing them: root <- users <- x."""
    leaf = _leaf(x)
    users = [tr.Node((leaf,), rule, (x,), (x,), x) for rule in rules]
    root = tr.Node(tuple(users), lambda g, y, *a: tuple(g for _ in users), tuple(x for _ in users),
                   tuple(x for _ in users), np.zeros((), x.dtype))
    return leaf, users, root


def _backward(leaf, users, root, seed):
    active = [root, *reversed(users)]
    needed = {leaf, *users, root}
    return tr._propagate(active, needed, {leaf}, {root: seed})


@pytest.mark.parametrize("order", list(itertools.permutations(range(4))))
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_contributions_held_elsewhere_are_left_intact(dtype, order):
    x = np.arange(1.0, 7.0).reshape(2, 3).astype(dtype)
    saved = np.full((2, 3), 10.0, dtype)
    saved_copy = saved.copy()
    seen = []

    def upstream(g, y, x):
        seen.append(g)
        return (g,)

    rules = [lambda g, y, x: (x * 2,),  # a new array
             lambda g, y, x: (lambda: saved,),  # a saved array, given lazily
             lambda g, y, x: (lambda: x * 3,),  # a new array, given lazily
             upstream]
    rules = [rules[k] for k in order]  # each contribution in turn comes first, second, ...
    leaf, users, root = _fan_in(x, rules)
    seed = np.ones((2, 3), dtype)
    # each user gets the seed of the root as its gradient
    root.rule = lambda g, y, *a: tuple(np.ones((2, 3), dtype) for _ in users)
    grads = _backward(leaf, users, root, seed)
    np.testing.assert_array_equal(saved, saved_copy)
    np.testing.assert_array_equal(seen[0], np.ones((2, 3), dtype))
    expected = np.ones((2, 3), dtype) + x * 3 + saved_copy + x * 2  # (exact in any order)
    assert grads[leaf].dtype == expected.dtype
    np.testing.assert_array_equal(grads[leaf], expected)


def test_contributions_of_other_types_and_shapes_are_summed_as_before():
    x = np.zeros((2, 2), np.float32)
    rules = [lambda g, y, x: (np.float64(2.0),),  # a scalar: fitted to the variable's shape
             lambda g, y, x: (lambda: np.full((2, 2), 1 + 1j),),  # complex into real
             lambda g, y, x: (lambda: np.full((4, 1), 3.0, np.float32),)]  # reshaped
    leaf, users, root = _fan_in(x, rules)
    root.rule = lambda g, y, *a: tuple(np.ones((2, 2), np.float32) for _ in users)
    grads = _backward(leaf, users, root, np.ones((2, 2), np.float32))
    np.testing.assert_array_equal(grads[leaf], np.full((2, 2), 3.0 + (2.0 + (1 + 1j))))


def test_empty_contributions():
    x = np.zeros((0, 3))
    rules = [lambda g, y, x: (lambda: np.zeros((0, 3)),), lambda g, y, x: (lambda: np.zeros((0, 3)),)]
    leaf, users, root = _fan_in(x, rules)
    root.rule = lambda g, y, *a: tuple(np.zeros((0, 3)) for _ in users)
    grads = _backward(leaf, users, root, np.zeros((0, 3)))
    assert grads[leaf].shape == (0, 3)


def test_the_reference_count_of_a_sole_local_is_known_on_cpython():
    import sys
    if sys.implementation.name == "cpython" and sys.version_info < (3, 14):
        assert tr.SOLE_REFERENCE == 2
