"""Random loops of scalar and short-array statements give the same workspace written as
Python source (loop_source) as through their compiled closures alone.

The statements mix what written code takes inline (double scalars, elements, logical
operands, calls of pure builtins, nested range loops) with what it must leave to the
general path (arrays, other classes, errors), so that tries that fail, builtin call
sites that stop being tried, and statements that change kind midway are all exercised.
"""

from __future__ import annotations

import random

import pytest

from mlang.evaluation.compiler import loop_source
from tests.test_fast_paths import outcome

SCALARS = ["s", "t", "k", "1", "2.5", "-0", "x(mod(k, 4) + 1)", "x(end)", "h(mod(k, 3) + 1)",
           "A(mod(k, 3) + 1, 2)", "numel(x)", "mod(k, 3)", "abs(s - t)", "max(s, k)", "floor(t / 2)",
           "(s > t)", "sum(h)", "x(1)", "x(k)"]
VALUES = ["x", "h", "int8(3)", "NaN", "Inf", "[1 2 3 4]", "true", "A", "'a'"]
OPS = ["+", "-", "*", "/", ".*", "<", ">=", "=="]
NAMES = ["x", "h", "A", "k", "s", "t", "r", "w", "c", "i", "j"]


def _expression(rng: random.Random, depth: int = 0) -> str:
    if depth > 2 or rng.random() < 0.35:
        return rng.choice(SCALARS if rng.random() < 0.85 else VALUES)
    return f"({_expression(rng, depth + 1)} {rng.choice(OPS)} {_expression(rng, depth + 1)})"


def _statement(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if roll < 0.35:
        return f"{rng.choice(['s', 't', 'r'])} = {_expression(rng)};"
    if roll < 0.5:
        return f"x({rng.choice(['k', '2', 'end', 'end+1', 'k+1'])}) = {_expression(rng)};"
    if roll < 0.58:
        return f"A({rng.choice(['k', '1', '2'])}, {rng.choice(['1', '2', 'k'])}) = {_expression(rng)};"
    if roll < 0.66:
        return f"if {_expression(rng)}, s = s + 1; else, t = t - 1; end"
    if roll < 0.72:
        return f"h = x > {rng.choice(['k', 's', '2'])};"
    if roll < 0.78:
        return rng.choice(["w = [x, k];", "w = [x; x];", "c = {x};", "x = x(1:3);", "r = x([1 3]);"])
    if roll < 0.84 and depth == 0:
        body = " ".join(_statement(rng, depth + 1) for _ in range(rng.randint(1, 3)))
        return f"for j = 1:{rng.choice(['2', 'k', '0', 'numel(x)'])}, {body} end"
    if roll < 0.9:
        return rng.choice(["if s > 40, break; end", "if t < -40, continue; end", "k = k + 0;"])
    return f"{rng.choice(['s', 'x', 'A', 'h'])} = {rng.choice(VALUES)};"


def _program(seed: int) -> str:
    rng = random.Random(seed)
    body = " ".join(_statement(rng) for _ in range(rng.randint(2, 6)))
    return ("s = 0; t = 1; r = 0; x = [1 2 3 4]; h = x > 2; A = magic(3); "
            f"for k = 1:{rng.randint(1, 24)}, {body} end")


@pytest.mark.parametrize("seed", range(400))
def test_random_loops_as_the_general_path(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    code = _program(seed)
    written = outcome(code, NAMES)
    with monkeypatch.context() as m:
        m.setattr(loop_source, "range_loop", lambda compiler, node, var: None)
        m.setattr(loop_source, "while_loop", lambda compiler, node: None)
        general = outcome(code, NAMES)
    assert written == general, code
