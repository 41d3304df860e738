"""The tokenizer's and parser's inline fast paths give what their general paths give.

The tokenizer reads a plain number or a binary operator inline when no rule of
``_Lexer.number`` / ``_Lexer.operator`` applies; ``_GeneralLexer`` sends every number
and operator through those methods, and the tokens must come out the same.  The
parser's driver reduces one-symbol ?rules and self-extending helper lists without
calls; the trees must still be those of the grammar.
"""

from __future__ import annotations

import pytest

from mlang import errors
from mlang.errors import MatlabSyntaxError
from mlang.syntax import ast, parse
from mlang.syntax.lexer import _Lexer, tokenize
from mlang.syntax.parser import Parser
from mlang.syntax.patterns import TOKEN
from mlang.syntax.tokens import Token, make_token


class _GeneralLexer(_Lexer):
    def run(self) -> list:
        text = self.text
        i = 0
        while i < len(text):
            m = TOKEN.match(text, i)
            if m is None or m.lastgroup not in ("num", "op"):
                raise AssertionError("the reference takes numbers, operators and spaces only")
            j = m.end()
            if m.lastgroup == "num":
                self.number(m.group(), i, j)
            else:
                self.operator(m.group(), i, j)
            i = j
        return self.finish(len(text))


def _shape(tokens: list) -> list:
    return [(t.type, t.value, t.start_pos, t.line, t.column, t.end_line, t.end_column, t.end_pos)
            for t in tokens]


@pytest.mark.parametrize("text", [
    "1+2", "1-2", "1*2/3\\4^5", "1.5.*2./3.\\4.^5", "1==2~=3<4<=5>6>=7", "1&2|3&&4||5",
    "1:2:3", "3i-1", "2.5e-3j+1", "0x1F+1", "0b101u8*2", "1e3+.5", "7", "1+", "-1", "+1",
    "1-+2", "1+-2", "1*-2", "1^-2", "1.'+2", "1:-1:0",
    "1+0x1F", "1+0b11-2", "1+2.5e3i*3", "1-.5", "1<=2~=3>=4==5", "1+2.*3./4.^5", "1.*2",
    "1+2:3", "1&&2||3&4|5", "1+2e+3-4E-5", "1+2.-3", "1+2i-3J", "1+2+", "1+2+3" * 50,
])
def test_numbers_and_operators_tokenize_as_the_general_path(text):
    assert _shape(tokenize(text)) == _shape(_GeneralLexer(text, "", frozenset()).run())


@pytest.mark.parametrize(("text", "message", "column"), [
    ("x++", errors.INVALID_OPERATOR, 2), ("x--;", errors.INVALID_OPERATOR, 2),
    ("x+=1", errors.INVALID_OPERATOR, 2), ("x^=2", errors.INVALID_OPERATOR, 2),
    ("1x", errors.INVALID_EXPRESSION, 2), ("1_", errors.INVALID_EXPRESSION, 2),
    ("1.2.3", errors.INVALID_EXPRESSION, 4), ("1+2+)", errors.UNBALANCED, 5),
])
def test_rules_the_fast_path_leaves_to_the_general_path_still_apply(text, message, column):
    with pytest.raises(MatlabSyntaxError) as info:
        parse(text)
    assert info.value.message == message
    assert (info.value.line, info.value.col) == (1, column)


def test_literal_elements_are_separated_as_before():
    assert [t.type for t in tokenize("[1 -2 - 3, 4 +5]")] == [
        "LBRACKET", "NUMBER", "COMMA", "MINUS", "NUMBER", "MINUS", "NUMBER", "COMMA",
        "NUMBER", "COMMA", "PLUS", "NUMBER", "RBRACKET", "NEWLINE"]


def _chain(values: list[str], ops: list[str]) -> ast.Node:
    node: ast.Node = ast.Number(*_value(values[0]))
    for op, text in zip(ops, values[1:], strict=True):
        node = ast.Binary(op, node, ast.Number(*_value(text)))
    return node


def _value(text: str) -> tuple:
    if text.startswith("0x"):
        return 31, "uint8"
    if text[-1] == "i":
        return complex(0, float(text[:-1])), "double"
    return float(text), "double"


def test_a_long_chain_is_left_associative_with_every_number():
    values = [str(k % 7) for k in range(150)] + ["2.5", "2i", "0x1F", "1e3"]
    ops = ["+" if k % 3 else "-" for k in range(len(values) - 1)]
    text = values[0] + "".join(op + v for op, v in zip(ops, values[1:], strict=True))
    statement = parse(text).body[0]
    assert statement.expr == _chain(values, ops)
    assert (statement.expr.line, statement.expr.col) == (1, 1)
    last = statement.expr.right
    assert (last.line, last.col) == (1, len(text) - len(values[-1]) + 1)


def test_helper_lists_grow_in_the_tree():
    prog = parse("a = 1; b = 2, c = 3\nfunction f\nend\nfunction g\nend")
    assert [s.target.name for s in prog.body] == ["a", "b", "c"]
    assert [f.name for f in prog.functions] == ["f", "g"]
    assert parse("x = {1, 2; 3, 4};").body[0].value.rows == [
        [ast.Number(1.0), ast.Number(2.0)], [ast.Number(3.0), ast.Number(4.0)]]


class _NoCycles(dict):
    """A Parser._cycles that never lets the driver add pairs to a list at once."""

    def get(self, key: object, default: object = None) -> None:
        return None

    def __setitem__(self, key: object, value: object) -> None:
        pass


def _positions(node: ast.Node) -> list:
    return [(type(n).__name__, n.line, n.col) for n in ast.walk(node)]


@pytest.mark.parametrize("text", [
    "x = 1+2-3*4/5+6^7-8;",
    "y = a+b-c+d.*e+f(1)+g{2}+h.k+'s'+\"t\"+[1 2]+{3}+@sin+(4)-end_+9'+x.'",
    "z = -1+-2-~3+4:5:6+7==8&9|10&&11||12",
    "v = 1+2+3\nw = 4-5-6;, u = [1+2+3, 4-5-6; 7*8*9 10]",
    "f(1+2+3, a-b-c){1+1+1}",
    "if a+b+c > 1+1+1, x = 1+1; end",
    "function r = f(a)\n r = a+a+a+a;\nend",
    "q = @(x) x+x+x+1+2+3;",
    "n = 1+2+3+",
    "m = 1+2+3+)",
    "k = 1+2 3",
    "c = {1+2+3 4+5+6};",
])
def test_operator_chains_parse_as_without_the_list_shortcut(text):
    general = Parser()
    general._cycles = _NoCycles()
    try:
        expected = general.parse(text)
    except MatlabSyntaxError as exc:
        with pytest.raises(MatlabSyntaxError) as info:
            Parser().parse(text)
        assert (str(info.value), info.value.line, info.value.col) == (str(exc), exc.line, exc.col)
        return
    got = Parser().parse(text)
    assert got == expected
    assert _positions(got) == _positions(expected)
    every_literal_by_grammar = Parser(fast_literals=False)
    every_literal_by_grammar._cycles = _NoCycles()
    assert Parser(fast_literals=False).parse(text) == every_literal_by_grammar.parse(text)


def test_a_chain_of_twenty_thousand_terms_parses_to_the_same_tree():
    text = "1" + "+1" * 19999 + "-3"
    general = Parser()
    general._cycles = _NoCycles()
    got, expected = Parser().parse(text).body[0].expr, general.parse(text).body[0].expr
    while type(got) is ast.Binary or type(got) is ast.SumRun:  # down the chain, not by recursion
        if type(got) is ast.SumRun:  # (a long run of + and -: the chain it means)
            got = got.lower()
        assert (got.op, got.right, got.line, got.col, got.right.col) == (
            expected.op, expected.right, expected.line, expected.col, expected.right.col)
        got, expected = got.left, expected.left
    assert got == expected


def test_make_token_makes_what_the_token_class_makes():
    fast = make_token("NUMBER", "12", 4, 2, 3, 6)
    general = Token("NUMBER", "12", 4, 2, 3, 2, 5, 6)
    assert type(fast) is Token and fast == general
    assert _shape([fast]) == _shape([general])
