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


@pytest.mark.parametrize("code", [
    "S = sparse([0 2]); s = 0; for k = 1:3, s = s + sum(S); end",  # a routed argument
    "d = dlarray(3); s = 0; for k = 1:3, s = s + abs(d); end",
    "s = 0; q = -2; for k = 1:6, s = s + abs(q); if k == 3, q = int8(-4); end, end",
    "s = 0; for k = 1:5, s = s + max(k, 3) + mod(k, 2) + floor(k / 2); end",
    "s = 0; for k = 1:4, s = s + numel(k); if k == 2, numel = 7; end, end",  # shadowed midway
    "s = 0; x = [1 2]; for k = 1:3, s = s + sum(x); x = 'ab'; end",
    "s = 0; for k = 1:3, s = s + mod(k, {1}); end",  # an error: the general path's
])
def test_pure_calls_in_written_loops_as_the_general_path(code: str) -> None:
    written = outcome(code, ["s", "k"])
    original = loop_source.range_loop
    loop_source.range_loop = lambda compiler, node, var: None
    try:
        general = outcome(code, ["s", "k"])
    finally:
        loop_source.range_loop = original
    assert written == general, code


def test_pure_call_gives_floats_and_declines_the_rest() -> None:
    import io

    import numpy as np

    from mlang.evaluation.compiler import loop_runtime
    from mlang.evaluation.interpreter import Interpreter

    interp = Interpreter(stdout=io.StringIO())
    interp.run_source("S = sparse([0 -2]); d = dlarray(-3);")
    call = loop_runtime.PureCall(interp, None, "abs", 1, float)
    assert call(-2.5) == 2.5 and call(-0.0) == 0.0
    for routed in (interp.get("S"), interp.get("d")):  # (sparse, dlarray: the general path)
        with pytest.raises(loop_runtime._Deopt):
            call(routed)
    assert call.live
    for declined in (np.array([[-1.0, 2.0]]), np.array([[-3]], dtype=np.int8)) * 2:
        with pytest.raises(loop_runtime._Deopt):
            call(declined)
    assert not call.live  # four values of another kind in a row: the site stops calling
    mod = loop_runtime.PureCall(interp, None, "mod", 2, float)
    assert mod(7.0, 3.0) == 1.0 and mod(-7.0, 3.0) == 2.0
    with pytest.raises(loop_runtime._Deopt):
        mod(1.0, interp.get("S"))  # (routed: the general path)
    with pytest.raises(loop_runtime._Deopt):
        mod(7.0, np.array([[1.0, 2.0]]))  # an array result
    interp.run_source("abs = 5;")  # a variable of its name: resolved again, and declined
    interp.invalidate()
    with pytest.raises(loop_runtime._Deopt):
        loop_runtime.PureCall(interp, None, "nosuchfunction", 1, float)(1.0)


@pytest.mark.parametrize("target", ["magic(3)", "[1 2 3 4]", "[1; 2; 3; 4]", "zeros(2, 3)", "[5 6]",
                                    "int8([1 2 3 4])", "'abcd'", "[1+2i 3 4 5]", "{1, 2, 3, 4}"])
def test_stores_at_literal_indices_as_the_general_path(target: str) -> None:
    code = (f"A = {target}; B = A; s = 0; for k = 1:3, A(2) = k; A(4) = -k; s = s + k; "
            "if k == 2, C = A; end, end")
    written = outcome(code, ["A", "B", "C", "s"])
    original = loop_source.range_loop
    loop_source.range_loop = lambda compiler, node, var: None
    try:
        general = outcome(code, ["A", "B", "C", "s"])
    finally:
        loop_source.range_loop = original
    assert written == general, code
