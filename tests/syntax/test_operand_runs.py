"""Long runs of ``operator number`` pairs read as one token give the trees of the general path.

``Parser(operand_runs=False)`` makes every pair ordinary tokens; with the driver's list
shortcut also off (``_NoCycles``) every pair goes through the tables one token at a time.
The fast path must give equal trees with equal positions, and the same syntax errors.
"""

from __future__ import annotations

import itertools
import random

import pytest

from mlang.errors import MatlabSyntaxError
from mlang.syntax import ast
from mlang.syntax.lexer import needs_more_input, tokenize, tokenize_for_parser
from mlang.syntax.operand_runs import MIN_PAIRS, RUN_KIND, number_node
from mlang.syntax.parser import Parser
from tests.syntax.test_parse_fast_paths import _NoCycles

BINARY = ["+", "-", "*", "/", "\\", "^", ".*", "./", ".\\", ".^", "==", "~=", "<", "<=", ">",
          ">=", "&", "|", "&&", "||", ":"]

FAST = Parser()
NO_RUNS = Parser(operand_runs=False)
GENERAL = Parser(operand_runs=False)
GENERAL._cycles = _NoCycles()


def _lowered_walk(node: ast.Node):
    """``ast.walk`` with each SumRun read as the chain of Binary nodes it means."""
    stack = [node]
    while stack:
        current = stack.pop()
        if type(current) is ast.SumRun:
            current = current.lower()
        yield current
        stack.extend(reversed(list(ast.children(current))))


def _shape(node: ast.Node) -> list:
    """Each node's type, position and fields other than nodes, in walk order (no recursion)."""
    shape = []
    for n in _lowered_walk(node):
        fields = [getattr(n, name) for name in n.__slots__]
        shape.append((type(n).__name__, n.line, n.col, n.file, *(
            (type(f).__name__, f) for f in fields
            if not isinstance(f, ast.Node) and not (type(f) is list and any(
                isinstance(x, (ast.Node, list)) for x in f)))))
    return shape


def _same_as_general(text: str, file: str = "") -> None:
    try:
        expected = GENERAL.parse(text, file)
    except MatlabSyntaxError as exc:
        for parser in (FAST, NO_RUNS):
            with pytest.raises(MatlabSyntaxError) as info:
                parser.parse(text, file)
            got = info.value
            assert (str(got), got.message, got.file, got.line, got.col, got.source_line) == (
                str(exc), exc.message, exc.file, exc.line, exc.col, exc.source_line)
        return
    for parser in (FAST, NO_RUNS):
        got = parser.parse(text, file)
        assert _shape(got) == _shape(expected)
        if len(text) < 1000:
            assert got == expected


def _run(op: str, pairs: int = MIN_PAIRS + 2, number: str = "2") -> str:
    return (op + number) * pairs


def test_long_runs_become_one_token_for_the_parser_only():
    text = "x = 1" + _run("+") + ";"
    kinds = [t.type for t in tokenize_for_parser(text)[0]]
    assert kinds.count(RUN_KIND) == 1
    assert RUN_KIND not in [t.type for t in tokenize(text)]
    parser = Parser()
    parser.parse(text)
    assert any(parser._run_fits_cache.values())  # the run joined the list at once
    short = "x = 1" + _run("+", MIN_PAIRS - 1) + ";"
    assert RUN_KIND not in [t.type for t in tokenize_for_parser(short)[0]]


@pytest.mark.parametrize(("first", "second"), list(itertools.product(BINARY, BINARY)))
def test_every_pair_of_binary_operators_keeps_precedence_and_associativity(first, second):
    # runs of one operator then the other, and the two alternating
    _same_as_general("y = 3" + _run(first) + _run(second) + ";")
    _same_as_general("3" + "".join(op + str(k % 5 + 1) for k, op in
                                   enumerate([first, second] * MIN_PAIRS)))


@pytest.mark.parametrize("text", [
    "1" + _run("+") + "-3",
    "x = -1" + _run("+") + ";",
    "x = ~1" + _run("&") + ";",
    "x = 2*-1" + _run("+") + "*-3;",
    "x = a+1" + _run("-") + "+b;",
    "x = a*1" + _run("+") + "^b';",
    "x = 1" + _run("+") + "';",
    "x = 1" + _run("*") + ".';",
    "x = 1" + _run("^") + "';",
    "x = (1" + _run("+") + ")*2;",
    "x = ((1" + _run("/") + ")+(2" + _run("-") + "));",
    "x = 1" + _run("+") + " % a comment\ny = 2" + _run("-"),
    "x = 1" + _run("+") + " ...\n + 1" + _run("+") + ";",
    "x = 1" + _run("+") + "... more\n" + "+1" + _run("*") + ";",
    "x = 1" + _run("+", number="2.5e-3") + _run("-", number=".5") + _run("*", number="3i") + ";",
    "x = 1" + _run("+", number="2J") + _run("-", number="1E3") + ";",
    "x = 1" + _run(":") + ";",
    "x = 1:2" + _run("+") + ":3;",
    "x = [1" + _run("+") + " 2" + _run("-") + "; -1" + _run("*") + ", 3];",
    "x = {1" + _run("+") + " 2" + _run("-") + "};",
    "f(1" + _run("+") + ", 2" + _run("-") + "){1" + _run("+") + "}",
    "a(end" + _run("-") + ")",
    "if 1" + _run("+") + " > 2" + _run("+") + ", x = 1" + _run("+") + "; end",
    "function r = f(a)\n r = a+1" + _run("+") + ";\nend",
    "q = @(x) x+1" + _run("+") + ";",
    "1" + _run("+") + "\n2" + _run("-") + "\n\n3" + _run("*"),
    "x = 1" + _run("==") + _run("&&") + _run("<") + _run("||") + ";",
    "x = 1" + _run("+", 500) + ";",
    "x = 1" + _run("+") + "2.';",
    "x = 1" + _run("+", number="2.") + "';",
    "x = 1" + _run("+", number="2.") + ".^2;",
    "x = 1" + _run("+") + "== 2;",
    "x = 1" + _run("+") + "~=2" + _run("-") + ";",
    "x = 1" + _run("+") + "+ +2" + _run("+") + ";",
    "x = 1" + _run("+") + "+~2" + _run("+") + ";",
    "x = 1" + _run("-") + "--2" + _run("-") + ";",
    "x = 1" + _run("+") + "*.5e+3i" + _run("/") + ";",
    "x = 1" + _run("+") + "+0x1F" + _run("+") + ";",
    "x = 1" + _run("+") + "+a" + _run("+") + ";",
    "x = [1" + _run("+") + "'" + _run("+") + "];",
    "x = 1" + _run("<") + "=2" + _run(">") + ";",
    "1" + _run("+"),
    "x = [1 +1" + _run("+") + "];",
    "x = [1 -1" + _run("+") + " - 1" + _run("-") + "];",
    "x = [1" + _run("+") + "; 2" + _run("+") + "\n 3" + _run("+") + "];",
    "x.y(1" + _run("+") + ", end" + _run("-") + ").z = {1" + _run("*") + "};",
    "disp 1" + _run("+"),
    "disp('1" + _run("+") + "')",
    "x = '1" + _run("+") + "'; % 1" + _run("+"),
    "x = \"1" + _run("+") + "\" + 1" + _run("+") + ";",
    "%{\n1" + _run("+") + "\n%}\nx = 1" + _run("+"),
    "x = 1" + _run("+") + ";y=2" + _run("+") + ",z=3" + _run("-"),
    "function f\nx = 1" + _run("+") + ";\nfunction g\ny = 2" + _run("+"),
    "x = 1" + _run("+") + "\r\ny = 2" + _run("+") + "\r\n",
    "for k = 1" + _run(":") + "\nend",
    "x = @() 1" + _run("+") + ";",
    "x = -(1" + _run("+") + ")';",
])
def test_runs_in_every_context_parse_as_the_general_path(text):
    _same_as_general(text)
    _same_as_general(text, "some_file.m")


@pytest.mark.parametrize("text", [
    "1" + _run("+") + "+",
    "x = 1" + _run("+") + "+;",
    "x = 1" + _run("+") + " 2",
    "x = 1" + _run("+") + ")",
    "x = (1" + _run("+"),
    "x = 1" + _run("+") + "=2",
    "x = 1" + _run("+") + "2a",
    "x = 1" + _run("+") + "1.2.3",
    "x = 1" + _run("+") + "++",
    "x = 1" + _run("+") + "*",
    "1" + _run("+") + " = 3",
    "x = 1" + _run("+") + "end",
    "x = [1" + _run("+") + "]]",
    "x = 1" + _run("+") + "=2" + _run("+"),
    "x = 1" + _run("+") + "e5",
    "x = 1" + _run("+") + "x",
    "x = 1" + _run("+") + "2.3.4",
    "x = 1" + _run("+", number="2.") + "5.",
    "x = 1" + _run("+") + "+=2",
    "x = 1" + _run("+") + "#",
    "x = 1" + _run("+") + "\n" + "y = 2" + _run("*") + "+",
])
def test_errors_at_and_after_long_runs_are_the_general_paths(text):
    _same_as_general(text)


def test_a_run_of_twenty_thousand_pairs_gives_every_number_its_place():
    text = "1" + "+1" * 19999 + "-3"
    got = FAST.parse(text).body[0].expr
    expected = GENERAL.parse(text).body[0].expr
    assert type(got.left) is ast.SumRun  # (all its pairs but the last)
    while type(got) is ast.Binary or type(got) is ast.SumRun:  # down the chain, not by recursion
        if type(got) is ast.SumRun:
            got = got.lower()
        assert (got.op, got.right, got.line, got.col, got.right.line, got.right.col) == (
            expected.op, expected.right, expected.line, expected.col, expected.right.line,
            expected.right.col)
        got, expected = got.left, expected.left
    assert got == expected and (got.line, got.col) == (expected.line, expected.col)


@pytest.mark.parametrize("text", ["1", "2.5", ".5e-3", "3i", "4J", "1E+3", "0x1F", "0b101s8"])
def test_number_node_is_the_builders(text):
    node = number_node(text, 3, 7, "f.m")
    built = FAST._builder.number([tokenize(text)[0]])
    assert node == built
    assert (node.value, node.cls, node.text) == (built.value, built.cls, built.text)
    assert type(node.value) is type(built.value)



def test_needs_more_input_sees_runs_as_the_command_window_does():
    assert not needs_more_input("x = 1" + _run("+") + ";")
    assert needs_more_input("x = [1" + _run("+"))
    assert needs_more_input("x = 1" + _run("+") + " ...")


def _random_runs(count: int, alphabet: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    endings = ["", ";", " ", ")", "]", "'", ".'", "x", ".", "e", "i", "(2)", " % c", "\n1", ",2"]
    texts = []
    for _ in range(count):
        pairs = [rng.choice(BINARY) + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3)))
                 for _ in range(rng.randint(MIN_PAIRS, 3 * MIN_PAIRS))]
        texts.append("x = [(1" + "".join(pairs) + rng.choice(endings))
    return texts


@pytest.mark.parametrize("text", _random_runs(150, "0123456789", 1) + _random_runs(150, "0123456789.eEij+-~=", 2))
def test_random_runs_read_as_the_general_path(text):
    _same_as_general(text)
    _same_as_general(text + ")]")
