"""The shell escape: ``!command`` at the start of a statement hands the rest of its line,
as it is, to the operating system's shell (``system``), showing the output and not the
status."""

from __future__ import annotations

import io
import sys

import pytest

from mlang.evaluation.interpreter import Interpreter
from mlang.syntax.ast import Command
from mlang.syntax.unparse import unparse
from tests.syntax.util import program, syntax_error, tree


@pytest.mark.parametrize("src, expected", [
    ("!ls -l", "(command ! 'ls -l')"),
    ("  !echo a; echo b % not a comment", "(command ! 'echo a; echo b % not a comment')"),
    ('!echo "quoted" \'single\'', "(command ! 'echo \"quoted\" ''single''')"),
    ("!", "(command !)"),
    ("x = 1;\n!echo x", "(assign x 1 ;)\n(command ! 'echo x')"),
    ("if x, !echo in\nend", "(if (x (command ! 'echo in')))"),
])
def test_parses_as_a_command(src, expected):
    assert tree(src) == expected


def test_the_line_is_kept_whole():
    node = program("!echo a ,b;c...\ny = 2").body[0]
    assert type(node) is Command and node.name == "!" and node.args == ["echo a ,b;c..."]
    assert len(program("!echo a ,b;c...\ny = 2").body) == 2


def test_unparse_round_trip():
    src = "!echo a; echo  b\nx = 1;\n"
    prog = program(src)
    assert unparse(prog).splitlines()[0] == "!echo a; echo  b"
    assert program(unparse(prog)) == prog


@pytest.mark.parametrize("src, column", [
    ("x = !y", 5),
    ("x = [1 !2]", 8),
    ("f(!a)", 3),
])
def test_not_at_statement_start_is_still_an_error(src, column):
    err = syntax_error(src)
    assert err.col == column
    assert "Use '~' for NOT" in err.message


@pytest.mark.skipif(sys.platform.startswith("win"), reason="a POSIX shell")
def test_runs_through_system_and_shows_no_status():
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    interp.eval("!echo hello; echo there\n!exit 3\ndisp('done')")
    assert out.getvalue() == "hello\nthere\ndone\n"
    assert "ans" not in interp.base.vars
