"""needs_more_input: when the Command Window reads another line before running code."""

from __future__ import annotations

import pytest

from mlang.syntax.lexer import needs_more_input

UNFINISHED = [
    "for i = 1:3",
    "for i = 1:3\n  disp(i)",
    "if x > 0",
    "if x > 0\n  y = 1;\nelse",
    "while true",
    "switch s\n  case 1",
    "try\n  f()\ncatch err",
    "for i = 1:2\n  for j = 1:2\n  end",
    "parfor i = 1:3",
    "x = [1 2",
    "x = [1 2\n3 4",
    "c = {1, 'a'",
    "y = (1 + [2",  # the innermost open bracket decides
    "x = 1 + ...",
    "x = 1 ... a comment after the dots",
    "x = [1, 2, ...",
    "s = struct('a', 1, ...",  # inside ( ) only a continuation may go on
    "y = f(1, ... the second argument follows",
    "%{",
    "%{\nnotes",
]

FINISHED = [
    "",
    "x = 1",
    "x = 1;  % a comment",
    "for i = 1:3, disp(i), end",
    "for i = 1:3\n  disp(i)\nend",
    "x = [1 2\n3 4]",
    "%{\nnotes\n%}",
    "if x, y = 1; end",
    # errors now, not later: more lines cannot repair them
    "x = f(1,",
    "x = (1 + 2",
    "x = 1 +",
    "x = 'abc",
    's = "abc',
    "end",
    "x = 1)",
    # a function definition is reported at once, as MATLAB does at the prompt
    "function y = f(x)",
    "function y = f(x)\n  if x",
]


@pytest.mark.parametrize("code", UNFINISHED)
def test_unfinished_code_asks_for_another_line(code):
    assert needs_more_input(code) is True


@pytest.mark.parametrize("code", FINISHED)
def test_finished_or_broken_code_runs(code):
    assert needs_more_input(code) is False


def test_command_syntax_depends_on_the_workspace():
    # 'x [1' is command syntax, x('[1'), unless x is a variable: then it opens a bracket
    assert needs_more_input("x [1") is False
    assert needs_more_input("x [1", {"x"}) is True


def test_keywords_inside_text_and_comments_open_no_block():
    assert needs_more_input("s = 'for i = 1:3'") is False
    assert needs_more_input("x = 1  % if this were code it would open a block") is False
    assert needs_more_input('disp("while")') is False
