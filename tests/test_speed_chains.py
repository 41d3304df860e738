"""Long operator chains: the tokenizer's integer runs and the compiler's folded constants
give what the general paths give.

Integer runs of one-character operators are cut apart without a regular expression
(``operand_runs._integer_run``); a chain's consecutive double constants after +, - or *
are added, subtracted or multiplied in one call on a double (``binary_chain``).  Both
are compared here with the paths they stand in for: the parser without runs, and the
same chain compiled as nested closures, one operation each (LONG_CHAIN out of reach).
"""

from __future__ import annotations

import io
import random

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.evaluation.compiler import expressions
from mlang.evaluation.interpreter import Interpreter
from mlang.syntax.lexer import OPERATORS
from mlang.syntax.operand_runs import MIN_PAIRS, _integer_run, read_run
from mlang.values.core import class_of
from tests.syntax.test_operand_runs import _same_as_general

ONE_CHARACTER = ["+", "-", "*", "/", "\\", "^", "<", ">", ":", "&", "|"]
TWO_CHARACTER = ["==", "~=", "<=", ">=", "&&", "||"]


def _regex_split(text: str, j: int, end: int) -> tuple[list[str], list[str]] | None:
    """What _integer_run gives, by the regular expression split it had before."""
    import re  # only this reference needs it

    pieces = re.split(r"(==|~=|<=|>=|&&|\|\||[-+*/\\^<>&|:])", text[j:end])
    numbers = pieces[2::2]
    if pieces[0] or "" in numbers or not "".join(numbers).isdigit():
        return None
    return pieces[1::2], numbers


def test_integer_runs_cut_as_the_regular_expression_cuts_them():
    rng = random.Random(7)
    numbers = ["1", "0", "23", "007", "4567", "", "1.5", "2e3", "3i"]
    for _ in range(3000):
        ops = rng.choice([["+"], ONE_CHARACTER, ONE_CHARACTER + TWO_CHARACTER, ["-", "*"]])
        pairs = rng.randint(1, 3 * MIN_PAIRS)
        body = "".join(rng.choice(ops) + rng.choice(numbers[:rng.choice([5, 6, 9])])
                       for _ in range(pairs))
        text = "x=1" + body + rng.choice(["", ";", ")", " ", "'"])
        assert _integer_run(text, 3, 3 + len(body)) == _regex_split(text, 3, 3 + len(body)), text


@pytest.mark.parametrize("op", ONE_CHARACTER + TWO_CHARACTER)
def test_integer_runs_of_every_operator_parse_as_the_general_path(op):
    run = "".join(f"{op}{k % 13}" for k in range(3 * MIN_PAIRS))
    _same_as_general("x = 1" + run + ";")
    _same_as_general("x = 10" + run.replace(op, "+", 3) + ";\ny = 2" + run + "+z;")


def test_a_run_gives_each_number_its_own_node():
    text = "1" + "+1" * (2 * MIN_PAIRS) + "-25"
    run = read_run(text, 1, 1, 0, "", OPERATORS)
    nodes = run.items[1::2]
    assert len({id(node) for node in nodes}) == len(nodes)
    assert [node.col for node in nodes] == list(range(3, 2 * len(nodes) + 3, 2))
    assert (nodes[-1].value, nodes[-1].text, type(nodes[-1].value)) == (25.0, "25", float)


def _value(code: str) -> tuple:
    interp = Interpreter(stdout=io.StringIO())
    try:
        interp.run_source(code)
    except MatlabError as exc:
        return ("error", exc.identifier, exc.message)
    v = interp.base.vars["r"]
    if type(v) is np.ndarray:
        return (class_of(v), v.shape, str(v.dtype), v.tobytes())
    return (class_of(v), type(v).__name__, repr(v))


def _chain_and_general(monkeypatch: pytest.MonkeyPatch, code: str) -> tuple[tuple, tuple]:
    """The value of ``code`` compiled with chains in a loop, then as nested closures."""
    fast = _value(code)
    with monkeypatch.context() as patched:
        patched.setattr(expressions, "LONG_CHAIN", 10**9)
        general = _value(code)
    return fast, general


STARTS = ["1", "0.1", "-0", "NaN", "Inf", "-Inf", "1e308", "int8(100)", "uint8(3)", "single(0.1)",
          "true", "'a'", "1+2i", "[1 2 3]", "[]", "zeros(0, 3)", "x", "int32(-5)"]


@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("op", ["+", "-", "*", ".*"])
def test_folded_constants_give_the_nested_operations_value(monkeypatch, start, op):
    terms = [f"{op}{c}" for c in ["0.1", "3", "1e-17", "2", "0.7", "0.3", "1.1", "5e15"] * 10 + ["1e300"]]
    fast, general = _chain_and_general(monkeypatch, f"x = 0.3; r = {start}{''.join(terms)};")
    assert fast == general


@pytest.mark.parametrize("start", STARTS)
def test_chains_mixing_folded_runs_with_other_operands(monkeypatch, start):
    rng = random.Random(start)
    pieces = ["+0.1", "-0.7", "*1.1", "+0.3", "-1e-16", "/2", "/0", "^2", ".^0.5", "+x", "-y",
              "*x", "+2i", "+int8(1)", "==1", "<3", "+0x10", "&1", "|0", "+single(2)", "-1e308"]
    for _ in range(3):
        terms = [rng.choice(pieces[:5]) if rng.random() < 0.7 else rng.choice(pieces) for _ in range(90)]
        code = f"x = 0.3; y = [1 2 3]; r = {start}{''.join(terms)};"
        fast, general = _chain_and_general(monkeypatch, code)
        assert fast == general, code


@pytest.mark.parametrize("start", ["1", "0", "x", "[]"])
def test_short_circuits_between_folded_runs(monkeypatch, start):
    terms = ["+1"] * 40 + ["&&1"] + ["-1"] * 40 + ["||0"] + ["*2"] * 10
    fast, general = _chain_and_general(monkeypatch, f"x = 2; r = {start}{''.join(terms)};")
    assert fast == general


def test_a_chain_of_twenty_thousand_terms_by_eval():
    interp = Interpreter(stdout=io.StringIO())
    interp.run_source("r = eval(['1' repmat('+1', 1, 19999) '-3']); "
                      "s = eval(['0.1' repmat('+0.1', 1, 9999)]);")
    assert interp.base.vars["r"] == 19997.0
    total = 0.1
    for _ in range(9999):
        total += 0.1
    assert interp.base.vars["s"] == total


PAREN_TEXTS = [
    "x = (1+2)*3;", "(1)+2", "((((a))))", "f((1), (2))", "a (1)", "a(1)(2)", "x = @(y) (y+1);",
    "x = @(y)(y)", "x = @() (3);", "c = {(1) (2)};", "m = [ (1) -(2) ; (3)' ];", "disp (1)",
    "y = x.f(1).g((2));", "if (a), b = (1); end", "for k = (1:3), end", "while (x > (1)), end",
    "s = '(';", "x = (1 ...\n + 2);", "x = (1 % c\n);", "a = (b)'", "x = [a (1)]", "f (x)",
    "z = -(1)", "q = ~(a)", "x(end) = (y(end));", "x = ((1)", "x = (1))", "(",
    "(" * 40 + "1" + ")" * 40, "x = " + "(" * 600 + "1" + ")" * 600,
]


@pytest.mark.parametrize("text", PAREN_TEXTS)
def test_parentheses_tokenize_as_punctuation_does(monkeypatch, text):
    from mlang.errors import MatlabSyntaxError
    from mlang.syntax import lexer

    def tokens() -> object:
        try:
            return [(t.type, t.value, t.start_pos, t.end_pos, t.line, t.column, t.end_column)
                    for t in lexer.tokenize(text)]
        except MatlabSyntaxError as exc:
            return ("error", exc.message, exc.line, exc.col)

    fast = tokens()
    with monkeypatch.context() as patched:
        patched.setattr(lexer._Lexer, "fast_parentheses", False)
        general = tokens()
    assert fast == general
