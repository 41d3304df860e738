"""Long runs of ``+`` and ``-`` with plain decimal numbers are one SumRun node.

The node must mean exactly the left-deep chain of Binary and Number nodes the general
path makes (``lower()``, with every position), print and dump as that chain, and compute
what that chain computes, bit for bit, left to right (not pairwise, not compensated).
"""

from __future__ import annotations

import io

import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.syntax import ast, sexpr
from mlang.syntax.operand_runs import SUM_RUN_PAIRS
from mlang.syntax.parser import Parser
from mlang.syntax.unparse import unparse
from tests.syntax.test_operand_runs import _same_as_general

FAST = Parser()
GENERAL = Parser(operand_runs=False)
LONG = SUM_RUN_PAIRS + 6


def _sum_runs(node: ast.Node) -> list[ast.SumRun]:
    return [n for n in ast.walk(node) if type(n) is ast.SumRun]


def _run(pairs: int = LONG, ops: str = "+", number: str = "1") -> str:
    return "".join(ops[k % len(ops)] + number for k in range(pairs))


@pytest.mark.parametrize("text", [
    "x = 1" + _run() + ";",
    "x = 1" + _run(ops="+-") + ";",
    "x = 1" + _run(ops="++--+") + "-3;",
    "x = a*2" + _run() + ";",
    "x = a+2" + _run(ops="-") + "+b;",
    "x = -1" + _run() + ";",
    "x = ~1" + _run() + ";",
    "x = 2^1" + _run() + ";",
    "x = 1" + _run() + "*3;",
    "x = 1" + _run() + "^2;",
    "x = 1" + _run() + "';",
    "x = 1" + _run() + ".';",
    "x = 1" + _run() + "==4;",
    "x = 1:1" + _run() + ":3;",
    "x = 1" + _run() + ":3;",
    "x = (1" + _run() + ")*2;",
    "x = -(1" + _run(ops="-") + ")';",
    "x = [1" + _run() + " 2" + _run(ops="-") + "];",
    "x = {1" + _run() + "};",
    "f(1" + _run() + ", a(end" + _run(ops="-") + "))",
    "x = 1" + _run(number="0.1") + _run(ops="-", number="2.5e-3") + ";",
    "x = 1" + _run(number="1E3") + _run(number=".5") + ";",
    "x = 1" + _run(number="2.") + "';",
    "x = 1" + _run(number="3i") + ";",
    "x = 1" + _run(number="2") + "+3i" + _run() + ";",
    "x = 1" + _run(ops="+*") + ";",
    "x = 1" + _run(SUM_RUN_PAIRS - 2) + ";",
    "x = 1" + _run(SUM_RUN_PAIRS - 1) + ";",
    "x = 1" + _run(SUM_RUN_PAIRS) + ";",
    "x = 1" + _run(SUM_RUN_PAIRS + 1) + ";",
    "x = 1" + _run(SUM_RUN_PAIRS + 2) + ";",
    "x = 1" + _run() + ";\n  y = 2" + _run(ops="-") + "+z",
    "function r = f(a)\n  r = a+1" + _run() + ";\nend",
    "q = @(x) x+1" + _run() + ";",
    "if 1" + _run() + " > 2" + _run() + ", x = 1" + _run() + "; end",
    "x = 1" + _run() + " ...\n + 1" + _run() + ";",
])
def test_long_sum_runs_parse_as_the_general_path(text):
    _same_as_general(text)
    _same_as_general(text, "a_file.m")


@pytest.mark.parametrize("text", [
    "x = 1" + _run() + "+;",
    "x = 1" + _run() + " 2",
    "x = 1" + _run() + ")",
    "x = (1" + _run(),
    "x = 1" + _run() + "2a",
    "x = 1" + _run() + "1.2.3",
    "x = 1" + _run() + "++",
    "x = 1" + _run() + "=2",
    "x = 1" + _run() + "#",
    "y = 3;\nx = 1" + _run() + "end",
])
def test_errors_after_long_sum_runs_are_the_general_paths(text):
    _same_as_general(text)


def test_a_long_run_of_plus_and_minus_is_one_node_and_others_are_not():
    run = _sum_runs(FAST.parse("x = a*2" + _run(ops="+--") + "*b;"))
    assert len(run) == 1
    # the pairs but the first few (read before the operator list grows) and the last
    # (which binds to the * after it)
    ops = _run(ops="+--")[::2]
    skipped = len(ops) - 1 - len(run[0].ops)
    assert 0 < skipped <= 2 and run[0].ops == ops[skipped:-1]
    assert len(run[0].values) == len(run[0].ops)
    first = run[0].first
    while first.op != "*":
        first = first.left
    assert unparse(first) == "a * 2"
    for declined in ["x = 1" + _run(number="3i") + ";", "x = 1" + _run(ops="+*") + ";",
                     "x = 1" + _run(SUM_RUN_PAIRS - 2) + ";", "x = 1" + " +1" * LONG + ";"]:
        assert not _sum_runs(FAST.parse(declined)), declined
    assert not _sum_runs(GENERAL.parse("x = 1" + _run() + ";"))


def test_lower_gives_every_number_its_place():
    text = "x = 12" + _run(ops="+-", number="345") + ";"
    (run,) = _sum_runs(FAST.parse(text))
    lowered = run.lower()
    numbers = []
    while type(lowered) is ast.Binary:
        numbers.append((lowered.op, lowered.right.text, lowered.right.col, lowered.col))
        lowered = lowered.left
    assert numbers[::-1] == [(op, "345", 8 + 4 * k, 5) for k, op in
                             enumerate(_run(LONG - 1, ops="+-", number="")[::1])]
    assert lowered.text == "12" and lowered.col == 5


def test_a_sum_run_equals_the_chain_it_means_and_not_another():
    text = "x = 1" + _run(ops="+-") + ";"
    fast, general = FAST.parse(text), GENERAL.parse(text)
    assert fast == general and general == fast
    assert fast != GENERAL.parse("x = 1" + _run(ops="-+") + ";")
    assert fast != GENERAL.parse("x = 2" + _run(ops="+-") + ";")
    (run,) = _sum_runs(fast)
    assert run == run.lower() and run.lower() == run
    assert run != FAST.parse("x = 2" + _run(ops="+-") + ";").body[0].value.left


@pytest.mark.parametrize("text", [
    "x = (1" + _run() + ")*3;",
    "x = 2^(1" + _run(ops="-") + ");",
    "x = -(1" + _run() + ")';",
    "x = [1" + _run() + " (2" + _run() + ")'];",
    "x = 1:(2" + _run() + ");",
    "x = a - (1" + _run(ops="+-", number="0.25") + ");",
])
def test_unparse_and_dump_read_a_sum_run_as_its_chain(text):
    fast, general = FAST.parse(text), GENERAL.parse(text)
    assert unparse(fast) == unparse(general)
    assert GENERAL.parse(unparse(fast)) == general
    assert sexpr.dump_tree(fast) == sexpr.dump_tree(general)


# -------------------------------------------------------------------- evaluation


def _outcome(code: str, parser: Parser) -> tuple:
    interp = Interpreter(stdout=io.StringIO())
    interp.parser = parser
    try:
        interp.run_source(code)
    except MatlabError as exc:
        return ("error", exc.identifier, exc.message, getattr(exc, "line", None),
                getattr(exc, "col", None))
    x = interp.get("x")
    return ("value", type(x).__name__, getattr(x, "dtype", None), getattr(x, "shape", None),
            repr(x) if type(x) is float else (x.tobytes() if hasattr(x, "tobytes") else repr(x)))


def _varied(pairs: int = LONG, ops: str = "+") -> str:
    """A run whose numbers differ (so the order of the additions shows in the rounding)."""
    return "".join(f"{ops[k % len(ops)]}{k % 97}.{k % 13}e-{k % 3}" for k in range(pairs))


@pytest.mark.parametrize("code", [
    "x = 1e16" + _varied() + ";",
    "x = 0.1" + _varied(3000, ops="++-+--") + ";",
    "x = 1" + _varied(500, ops="-") + ";",
    "a = [0.1 1e16]; x = a" + _varied(300, ops="+-") + ";",
    "a = single(1e7); x = a" + _varied(300) + ";",
    "x = 1" + _run(number="0.1") + ";",
    "x = 0.1" + _run(2000, ops="+-+", number="0.7") + ";",
    "x = 1e16" + _run(number="1") + _run(ops="-", number="1") + ";",
    "x = 1" + _run(number="1e308") + _run(ops="-", number="1e308") + ";",
    "x = -0" + _run(ops="-", number="0") + ";",
    "x = 0" + _run(number="0") + ";",
    "a = 0.7; x = a*2" + _run(ops="+-", number="0.3") + "*a;",
    "a = int8(100); x = a" + _run(number="1") + ";",
    "a = int8(-100); x = a" + _run(ops="-", number="1.5") + ";",
    "a = uint8(3); x = a" + _run(ops="-+", number="2.5") + ";",
    "a = single(0.1); x = a" + _run(number="0.1") + ";",
    "a = [1 NaN Inf -Inf]; x = a" + _run(ops="+-", number="0.1") + ";",
    "a = [1+2i 3]; x = a" + _run(number="0.5") + ";",
    "a = true; x = a" + _run(number="1") + ";",
    "a = 'abc'; x = a" + _run(number="1") + ";",
    "a = \"abc\"; x = a" + _run(number="1") + ";",
    "a = {1}; x = a" + _run(number="1") + ";",
    "a = struct('f', 1); x = a" + _run(number="1") + ";",
    "a = int8(1); b = int16(1); x = a" + _run() + "+b;",
    "a = 1; x = a:1" + _run(number="0.5") + ";",
    "x = (1" + _run(ops="+-", number="0.1") + ")^2;",
    "x = NaN" + _run(number="1") + ";",
    "f = @(y) y+1" + _run(ops="+-", number="0.5") + "; x = f(2);",
    "f = @(y) y+1" + _run(ops="+-", number="0.5") + "; x = func2str(f);",
    "k = 3; f = @() k*2" + _run(number="1") + "; x = f();",
    "a = 1:200; x = a(end-1" + _run(ops="-", number="1") + ");",
    "a = 1:200; x = a(1" + _run(number="1") + ":end);",
    "x = zeros(1, 3); x(1" + _run(number="0") + ") = 7;",
    "a = 1:3; x = a(1" + _run(number="1") + ");",
    "x = 1" + _run(number="1") + "; x = x;",
])
def test_sum_runs_compute_what_the_chain_computes(code):
    assert _sum_runs(FAST.parse(code))
    assert _outcome(code, FAST) == _outcome(code, GENERAL)


def test_sum_runs_add_left_to_right():
    # 1 + 1e-16 + 1e-16 + ... rounds back to 1 at every step, left to right; a pairwise
    # or compensated sum would give more
    code = "x = 1" + _run(1000, number="1e-16") + ";"
    assert _outcome(code, FAST)[-1] == repr(1.0)
    code = "x = 0" + _run(3000, ops="+", number="0.1") + ";"
    expected = 0.0
    for _ in range(3000):
        expected += 0.1
    assert _outcome(code, FAST)[-1] == repr(expected)
