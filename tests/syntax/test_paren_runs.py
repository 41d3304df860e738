"""Runs of grouping ``(`` (``((((x))))``) are read in one loop of the tokenizer: the tokens,
the trees and the errors (the nesting limit at its exact place) are punctuation's."""

from __future__ import annotations

import pytest

from mlang.errors import NESTING_LIMIT, MatlabSyntaxError
from mlang.syntax import lexer
from mlang.syntax.parser import Parser

TEXTS = [
    "x = ((1+2))*3;", "((((a))))", "((((", "x = (((", "f(((1)), ((2)))", "a(((1)))",
    "a ((1))", "x = @((y)) 1", "x = @(y)((y+1));", "x = @() ((3));", "c = {((1)) ((2))};",
    "m = [ ((1)) -((2)) ; ((3))' ];", "disp ((1))", "if ((a)), b = ((1)); end",
    "x = ((1 ...\n + 2));", "x = (( % c\n1));", "x = ((\n1));", "a = ((b))'", "x = [a ((1))]",
    "z = -((1))", "q = ~((a))", "x = (((1))", "x = ((1)))", "((@(x) x)(1))", "x = ((('a')))",
    "x = ((\"s\"))", "x = ((1:3))", "x = (( 1 ))", "x = (((1)+(2)))",
    "(" * (NESTING_LIMIT - 1) + "1" + ")" * (NESTING_LIMIT - 1),
    "(" * NESTING_LIMIT + "1" + ")" * NESTING_LIMIT,
    "(" * (NESTING_LIMIT + 1) + "1" + ")" * (NESTING_LIMIT + 1),
    "x = " + "(" * (NESTING_LIMIT - 1) + "1" + ")" * (NESTING_LIMIT - 1),
    "x = " + "(" * NESTING_LIMIT + "1" + ")" * NESTING_LIMIT,
    "x = " + "(" * 600 + "1" + ")" * 600,
    "x = [" + "(" * (NESTING_LIMIT - 1) + "1" + ")" * (NESTING_LIMIT - 1) + "]",
    "x = [" + "(" * NESTING_LIMIT + "1" + ")" * NESTING_LIMIT + "]",
    "x = f(" + "(" * (NESTING_LIMIT - 2) + "1" + ")" * (NESTING_LIMIT - 1),
    "x = f(" + "(" * (NESTING_LIMIT - 1) + "1" + ")" * NESTING_LIMIT,
    "x = " + "(" * 300 + "1" + "+1)" * 300 + ";\ny = " + "(" * 20 + "2" + ")" * 20,
    # a binary operator and a number right after a )
    "x = (a)+1", "x = (a)+1*2", "x = (a)+1-2", "x = (a)-1.5e3'", "x = (a)+1.'", "x = (a)+1x",
    "x = (a)+0x1F", "x = (a)+2i", "x = (a)*.5", "x = (a)+1.", "x = (a)+1..2", "x = [(1)+2 (3) -4]",
    "x = [(1) +2]", "x = {(1)+2, (3)-4}", "f = @(x)+1", "f = @(x)-1;", "f = @(x)+1'", "x = (a)+1'*2", "x = [(a)+1 'b']", "x = f(x)+1", "x = c{1}+1",
    "x = (a)+1" + "+1" * 20, "x = (a)+1" + "-2" * 20 + "*3", "x = (a)==1", "x = (a)&&1",
    "x = (a)~=1", "x = (a)<=1", "x = (a):1:5", "x = (a)+1;(b)-2\n(c)*3", "x = (a)+1 % c",
    "x = (a)+1...\n+2", "x = ((a)+1)+2", "(a)+1", "x = (a)+1)", "x = (a)+1(2)", "x = (a)+1'",
    "x = (a)+1=2", "disp (a)+1", "x = a((1)+2, end)", "x = (a)^2^3", "x = (a).^2",
]


def _tokens(text: str) -> object:
    try:
        return [(t.type, t.value, t.start_pos, t.end_pos, t.line, t.column, t.end_column)
                for t in lexer.tokenize(text)]
    except MatlabSyntaxError as exc:
        return ("error", exc.message, exc.line, exc.col, exc.source_line)


def _tree(text: str) -> object:
    try:
        return Parser().parse(text, "f.m")
    except MatlabSyntaxError as exc:
        return ("error", exc.message, exc.line, exc.col, exc.source_line)


@pytest.mark.parametrize("text", TEXTS)
def test_runs_of_parentheses_tokenize_and_parse_as_punctuation_does(monkeypatch, text):
    fast_tokens, fast_tree = _tokens(text), _tree(text)
    with monkeypatch.context() as patched:
        patched.setattr(lexer._Lexer, "fast_parentheses", False)
        general_tokens, general_tree = _tokens(text), _tree(text)
    assert fast_tokens == general_tokens
    assert fast_tree == general_tree


def test_the_parenthesis_past_the_limit_is_the_one_reported():
    text = "x = " + "(" * (NESTING_LIMIT + 3) + "1" + ")" * (NESTING_LIMIT + 3)
    with pytest.raises(MatlabSyntaxError) as caught:
        lexer.tokenize(text)
    assert caught.value.col == len("x = ") + NESTING_LIMIT + 1
