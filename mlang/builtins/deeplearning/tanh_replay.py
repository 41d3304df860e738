"""Replay kernels of tanh networks' derivatives: 1 - y.^2 made once per replay.

The derivative of y = tanh(x) is 1 - y.^2, and the steps a tanh network's derivatives
record read it again and again: tanh's gradient rule (g .* (1 - y.^2)), the value of
each tanh_backward step that higher derivatives record (the same product), and that
step's own rule.  A PINN's loss reads each layer's 1 - y.^2 five times.  Each of them
computes it as s = y .* y, then 1 - s, then g .* s; the untraced replay
(trace_cache.replay_untraced) computes s once per tanh result and each product from it:
the same operations on the same values, so the same bits.  Any argument other than real
floating arrays of one shape and class goes to the rule or operation itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.math.elementwise import TANH_BACKWARD

_ndarray = np.ndarray


def slope_steps(steps: list, end: int) -> dict[int, tuple[int, bool]]:
    """Per index of a step before ``end`` whose value or gradient rule reads 1 - y.^2 of
    a tanh result y: the slot of y and whether the step is tanh_backward (tanh steps: y is
    their result; tanh_backward steps: their second argument, when not a constant)."""
    slopes: dict[int, tuple[int, bool]] = {}
    for k, step in enumerate(steps[:end]):
        op = step.op
        if op is TANH_BACKWARD and len(step.args) == 2:
            y_slot = step.args[1][0]
            if y_slot is not None:
                slopes[k] = (y_slot, True)
        elif getattr(op, "name", None) == "tanh" and getattr(op, "gradient", None) is not None \
                and len(step.args) == 1:
            slopes[k] = (step.out, False)
    return slopes


def _slope(memo: dict, y_slot: int, y: np.ndarray) -> np.ndarray:
    """1 - y .* y as the rules compute it (y .* y, then 1 minus it), once per slot."""
    s = memo.get(y_slot)
    if s is None:
        s = y * y
        np.subtract(1.0, s, out=s)
        memo[y_slot] = s
    return s


def _plain(g: Any, y: Any) -> bool:
    """Whether g and y are real floating arrays of one shape and class (where the rules
    compute g .* (1 - y.^2) as y .* y, 1 minus it, times g)."""
    return type(g) is _ndarray and type(y) is _ndarray and y.dtype.kind == "f" \
        and g.dtype == y.dtype and g.shape == y.shape


def step_value(raw: list, y_slot: int, memo: dict) -> np.ndarray | None:
    """The value of a tanh_backward step, g .* (1 - y.^2), for its arguments' data ``raw``
    (None when they are not real floating arrays of one shape and class)."""
    if len(raw) != 2:
        return None
    g, y = raw
    if not _plain(g, y):
        return None
    return np.multiply(g, _slope(memo, y_slot, y))


def rule_contributions(slope: tuple[int, bool], rule: Callable, g: Any, out: Any, raw: list,
                       memo: dict) -> tuple:
    """What ``rule``, the gradient rule of a step of ``slope_steps`` (``slope``: its entry
    there), gives for the upstream gradient ``g``, the step's value ``out`` and its
    arguments' data ``raw``, with 1 - y.^2 taken from ``memo``."""
    y_slot, backward = slope
    if backward:
        contributions = rule(g, out, *raw)
        if len(raw) == 2 and _plain(g, raw[1]):
            y = raw[1]  # (the second contribution, the rule's own, needs no slope)
            return (lambda: np.multiply(g, _slope(memo, y_slot, y)), *contributions[1:])
        return contributions
    if len(raw) == 1 and _plain(g, out):
        return (np.multiply(g, _slope(memo, y_slot, out)),)
    return rule(g, out, *raw)
