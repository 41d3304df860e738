"""Command syntax: ``hold on`` means ``hold('on')``.

MATLAB's rule: a statement that starts with a name which is not a variable,
followed by whitespace, then by something that is neither '(' nor '=' nor a
binary operator followed by whitespace, is a command.  Its arguments are
words separated by whitespace (quotes group, ``''`` in quotes is a quote) up
to ',', ';', '%' or the end of the line; ``...`` continues them.  A name is a
variable when it was assigned earlier in the same scope (plain, indexed or
multiple assignment, ``for``, ``global``/``persistent``, ``catch ID``,
function parameters) or, at the REPL, when it is in the workspace.
"""

from __future__ import annotations

import pytest

from tests.syntax.util import tree

CASES: list[tuple[str, str]] = [
    # --- everyday commands ---------------------------------------------------
    ("hold on", "(command hold 'on')"),
    ("format long g", "(command format 'long' 'g')"),
    ("format long", "(command format 'long')"),
    ("format compact g", "(command format 'compact' 'g')"),
    ("axis xy", "(command axis 'xy')"),
    ("grid on", "(command grid 'on')"),
    ("close all", "(command close 'all')"),
    ("clear all", "(command clear 'all')"),
    ("warning off all", "(command warning 'off' 'all')"),
    ("disp hello", "(command disp 'hello')"),
    ("disp hello world", "(command disp 'hello' 'world')"),
    ("load data.mat x y", "(command load 'data.mat' 'x' 'y')"),
    ("save f.mat a b", "(command save 'f.mat' 'a' 'b')"),
    ("type rosenbrock.m", "(command type 'rosenbrock.m')"),
    ("help sin", "(command help 'sin')"),
    ("cd ..", "(command cd '..')"),
    ("dir *.m", "(command dir '*.m')"),
    ("ls -la", "(command ls '-la')"),
    # --- a name alone is an expression statement -----------------------------
    ("clc", "(expr clc)"),
    ("clc;", "(expr clc ;)"),
    ("hold", "(expr hold)"),
    ("hold   ", "(expr hold)"),
    # --- quoting ---------------------------------------------------------------
    ("disp 'hello world'", "(command disp 'hello world')"),
    ("disp 'a' 'b'", "(command disp 'a' 'b')"),
    ("disp 'a''b'", "(command disp 'a''b')"),
    ("disp ab''cd", "(command disp 'abcd')"),
    ("disp a'b c'", "(command disp 'ab c')"),
    ("disp 'a;b'", "(command disp 'a;b')"),
    ("disp 'a%b'", "(command disp 'a%b')"),
    ("disp 'a,b'", "(command disp 'a,b')"),
    ('disp "x"', "(command disp '\"x\"')"),
    # --- what ends a command ---------------------------------------------------
    ("hold on;", "(command hold 'on' ;)"),
    ("hold on; x = 1", "(command hold 'on' ;)\n(assign x 1)"),
    ("hold on, x = 1", "(command hold 'on')\n(assign x 1)"),
    ("hold on, grid on", "(command hold 'on')\n(command grid 'on')"),
    ("disp a,b", "(command disp 'a')\n(expr b)"),
    ("disp a;b", "(command disp 'a' ;)\n(expr b)"),
    ("cmd a %c", "(command cmd 'a')"),
    ("disp hello % comment", "(command disp 'hello')"),
    ("disp 100%", "(command disp '100')"),
    ("hold on\nx = 1", "(command hold 'on')\n(assign x 1)"),
    ("hold   on  ", "(command hold 'on')"),
    ("hold\ton\t% c", "(command hold 'on')"),
    ("format long;", "(command format 'long' ;)"),
    # --- continuation continues the arguments ------------------------------
    ("legend a ...\n b", "(command legend 'a' 'b')"),
    ("legend a ... first\n b ... second\n c", "(command legend 'a' 'b' 'c')"),
    ("disp a...b\nx = 1", "(command disp 'a' 'x' '=' '1')"),  # the next line is more arguments
    ("disp 'a...b'", "(command disp 'a...b')"),
    # --- brackets keep their whitespace and separators -------------------------
    ("disp a(1, 2)", "(command disp 'a(1, 2)')"),
    ("disp a(1,2)", "(command disp 'a(1,2)')"),
    ("a [1 2]", "(command a '[1 2]')"),
    ("a {1}", "(command a '{1}')"),
    # --- operator after whitespace: command unless the operator is followed by whitespace
    ("a -b", "(command a '-b')"),
    ("a +b", "(command a '+b')"),
    ("a /b", "(command a '/b')"),
    ("a &b", "(command a '&b')"),
    ("a ~b", "(command a '~b')"),
    ("a @b", "(command a '@b')"),
    ("a .5", "(command a '.5')"),
    ("a 'x'", "(command a 'x')"),
    ("disp -x", "(command disp '-x')"),
    ("ls ./d", "(command ls './d')"),
    ("a - b", "(expr (- a b))"),
    ("a + b", "(expr (+ a b))"),
    ("a / b", "(expr (/ a b))"),
    ("a == b", "(expr (== a b))"),
    ("a ~= b", "(expr (~= a b))"),
    ("a & b", "(expr (& a b))"),
    ("a && b", "(expr (&& a b))"),
    ("ls ./ d", "(expr (./ ls d))"),
    # --- no whitespace after the name: never a command -------------------------
    ("ls./d", "(expr (./ ls d))"),
    ("a-b", "(expr (- a b))"),
    ("a(1)", "(expr (() a 1))"),
    ("a{1}", "(expr ({} a 1))"),
    # --- '(' or '=' after whitespace: call or assignment -----------------------
    ("disp (x)", "(expr (() disp x))"),
    ("disp\t(x)", "(expr (() disp x))"),
    ("disp ('a')", "(expr (() disp 'a'))"),
    ("a (1)", "(expr (() a 1))"),
    ("warning('off', 'all')", "(expr (() warning 'off' 'all'))"),
    ("a = b", "(assign a b)"),
    ("a =b", "(assign a b)"),
    # --- names assigned earlier in the same scope are variables ---------------
    ("x = 1; x -1", "(assign x 1 ;)\n(expr (- x 1))"),
    ("x = 1;\nx -1", "(assign x 1 ;)\n(expr (- x 1))"),
    ("x(2) = 1; x -1", "(assign (() x 2) 1 ;)\n(expr (- x 1))"),
    ("x.a = 1; x -1", "(assign (. x a) 1 ;)\n(expr (- x 1))"),
    ("if c\n a = 1;\nend\na -1", "(if (c (assign a 1 ;)))\n(expr (- a 1))"),
    ("for k = 1:3\n k -1\nend", "(for k (: 1 3) (expr (- k 1)))"),
    ("for (k = 1:3)\n k -1\nend", "(for k (: 1 3) (expr (- k 1)))"),
    ("function f(p)\n p -1\nend", "(function f (in p) (out) (expr (- p 1)))"),
    ("[a, b] = deal(1); a -1", "(assign [a b] (() deal 1) ;)\n(expr (- a 1))"),
    ("[a b] = deal(1); b -1", "(assign [a b] (() deal 1) ;)\n(expr (- b 1))"),
    ("[~, i] = max(v); i -1", "(assign [~ i] (() max v) ;)\n(expr (- i 1))"),
    ("global g\ng -1", "(global g)\n(expr (- g 1))"),
    ("persistent p\np -1", "(persistent p)\n(expr (- p 1))"),
    ("try\ncatch err\n err -1\nend", "(try () (catch err (expr (- err 1))))"),
    # ... but only after the assignment, and only in the same function
    ("a -b; a = 1", "(command a '-b' ;)\n(assign a 1)"),
    ("x = 1;\nfunction f\n x -1\nend", "(assign x 1 ;)\n(function f (in) (out) (command x '-1'))"),
    ("function f\n x = 1;\nend\nfunction g\n x -1\nend",
     "(function f (in) (out) (assign x 1 ;))\n(function g (in) (out) (command x '-1'))"),
    # --- commands inside blocks ---------------------------------------------------
    ("if x\n hold on\nend", "(if (x (command hold 'on')))"),
    ("if x, disp hi, end", "(if (x (command disp 'hi')))"),
    ("for k=1:3, hold on, end", "(for k (: 1 3) (command hold 'on'))"),
    ("try disp hi, catch, end", "(try ((command disp 'hi')) (catch))"),
    # --- keywords are never commands ----------------------------------------------
    ("global a b", "(global a b)"),
    ("persistent a b", "(persistent a b)"),
    ("function foo\nend", "(function foo (in) (out))"),
    ("try\ncatch err\nend", "(try () (catch err))"),
]


@pytest.mark.parametrize("src, expected", CASES, ids=[src for src, _ in CASES])
def test_tree(src: str, expected: str) -> None:
    assert tree(src) == expected


# At the REPL the workspace's variables are known before the code runs.
VARIABLE_CASES: list[tuple[str, frozenset[str], str]] = [
    ("a -b", frozenset({"a"}), "(expr (- a b))"),
    ("a -b", frozenset({"b"}), "(command a '-b')"),
    ("hold -1", frozenset({"hold"}), "(expr (- hold 1))"),
    ("x 'abc'", frozenset(), "(command x 'abc')"),
    ("a -1; b -1", frozenset({"b"}), "(command a '-1' ;)\n(expr (- b 1))"),
]


@pytest.mark.parametrize("src, variables, expected", VARIABLE_CASES,
                         ids=[f"{src}|{','.join(sorted(v))}" for src, v, _ in VARIABLE_CASES])
def test_tree_with_workspace(src: str, variables: frozenset[str], expected: str) -> None:
    assert tree(src, variables=variables) == expected


def test_assignment_to_a_command_is_an_error() -> None:
    from tests.syntax.util import syntax_error

    err = syntax_error("y = foo bar")
    assert err.message.startswith("Invalid expression")
    assert (err.line, err.col) == (1, 9)


def test_command_position() -> None:
    from tests.syntax.util import program

    cmd = program("x = 1;\n  hold on").body[1]
    assert (cmd.name, cmd.args, cmd.line, cmd.col) == ("hold", ["on"], 2, 3)
