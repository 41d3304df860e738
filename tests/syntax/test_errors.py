"""Syntax errors look like MATLAB's and point at the place.

Every error is a MatlabSyntaxError (never a Lark exception) with a message in
MATLAB's words, the 1-based line and column of the offending place, and the
source line; ``str()`` gives MATLAB's layout::

    Error: File: test.m Line: 1 Column: 5
    Unbalanced or unexpected parenthesis or bracket.
    x = (1 + 2
        ^

Octave-only syntax is an error with a clear message.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlang.errors import MatlabSyntaxError
from mlang.syntax import parse
from tests.syntax.util import program, syntax_error, tree

UNBALANCED = "Unbalanced or unexpected parenthesis or bracket."
INVALID = "Invalid expression."
MISSING_END = "At least one END is missing"
BAD_ASSIGN = "Incorrect use of '=' operator."
BAD_CHAR = "The input character is not valid in MATLAB statements or expressions."
BAD_OPERATOR = "Invalid use of operator."
PAREN_LAST = "Indexing with parentheses '()' must appear as the last operation"

# Look-alikes of errors that are valid MATLAB.
CASES: list[tuple[str, str]] = [
    (r'x = "a\nb"', r'(assign x "a\nb")'),  # no escapes in MATLAB: not an error, raw text
    (r"fprintf('%d\n', x)", r"(expr (() fprintf '%d\n' x))"),
    ("y = x++ + 1", "(assign y (+ x (+ (+ 1))))"),  # x + (+(+1))
    ("a = 1; a ++b", "(assign a 1 ;)\n(expr (+ a (+ b)))"),
    ("x = 1;\nendfunction = 2", "(assign x 1 ;)\n(assign endfunction 2)"),
    ("x.endif = 1", "(assign (. x endif) 1)"),
    ("x = [3,]", "(assign x (matrix (3)))"),
    ("x(1).y(2)", "(expr (() (. (() x 1) y) 2))"),
]


@pytest.mark.parametrize("src, expected", CASES, ids=[src for src, _ in CASES])
def test_tree(src: str, expected: str) -> None:
    assert tree(src) == expected


# (source, message fragment or None, line, column)
ERRORS: list[tuple[str, str | None, int, int]] = [
    # --- unbalanced delimiters: point at the bracket --------------------------
    ("x = (1 + 2", UNBALANCED, 1, 5),
    ("x = [1 2", UNBALANCED, 1, 5),
    ("x = {1 2", UNBALANCED, 1, 5),
    ("x(", UNBALANCED, 1, 2),
    ("y = )", UNBALANCED, 1, 5),
    ("x = }", UNBALANCED, 1, 5),
    ("x = [1 2)", UNBALANCED, 1, 9),
    ("x = [1 2]]", UNBALANCED, 1, 10),
    ("x = (1))", UNBALANCED, 1, 8),
    ("f(1,\n2)", UNBALANCED, 1, 2),
    ("[f(1,\n2)]", UNBALANCED, 1, 3),
    ("x = 1;\ny = f(1, [2 3)", UNBALANCED, 2, 14),
    # --- invalid expressions ------------------------------------------------
    ("x = 1 +", INVALID, 1, 8),
    ("x = 1 1", INVALID, 1, 7),
    ("x = a b", INVALID, 1, 7),
    ("y = foo bar", INVALID, 1, 9),
    ("x = 'a' 'b'", INVALID, 1, 9),
    ("x = a(1 2)", INVALID, 1, 9),
    ("2x", INVALID, 1, 2),
    ("x = 1e", INVALID, 1, 6),
    ("1.1.1", INVALID, 1, 4),
    ("x = 1.2.3", INVALID, 1, 8),
    ("x = a.1", INVALID, 1, 6),
    ("f(1; 2)", INVALID, 1, 4),
    ("x = a' b'", INVALID, 1, 8),
    ("[,,3]", None, 1, 3),
    ("[3,,]", None, 1, 4),
    ("x = :", None, 1, 5),
    # --- indexing rules -----------------------------------------------------
    ("f(x)(2)", PAREN_LAST, 1, 5),
    ("x{1}(2)(3)", PAREN_LAST, 1, 8),
    ("x(1){2}", PAREN_LAST, 1, 5),
    ("x.y(1)(2) = 3", PAREN_LAST, 1, 7),
    ("(a)(1)", None, 1, 4),
    ("x = [1 2](1)", None, 1, 10),
    ("f(x, Name=1, 2)", "Name-value arguments must come after all other arguments", 1, 14),
    ("x{Name=1}", None, 1, 3),
    # --- bad assignments -------------------------------------------------------
    ("a = 1 = 2", BAD_ASSIGN, 1, 7),
    ("x + 1 = 2", BAD_ASSIGN, 1, 7),
    ("(x) = 1", BAD_ASSIGN, 1, 5),
    ("1 = x", BAD_ASSIGN, 1, 3),
    ("x = [a, b] = f", BAD_ASSIGN, 1, 12),
    ("[a' b] = f", None, 1, 3),
    # --- keywords and blocks --------------------------------------------------
    ("end", 'Illegal use of reserved keyword "end".', 1, 1),
    ("x = 1\nend", 'Illegal use of reserved keyword "end".', 2, 1),
    ("else", 'Illegal use of reserved keyword "else".', 1, 1),
    ("case 1", 'Illegal use of reserved keyword "case".', 1, 1),
    ("catch", 'Illegal use of reserved keyword "catch".', 1, 1),
    ("x = end'", 'Illegal use of reserved keyword "end".', 1, 5),
    ("[a(end) end]", 'Illegal use of reserved keyword "end".', 1, 9),
    ("if x\nelse\nelse\nend", 'Illegal use of reserved keyword "else".', 3, 1),
    ("switch x\n otherwise\n a\n case 1\nend", 'Illegal use of reserved keyword "case".', 4, 2),
    ("if x\n y = 1", MISSING_END, 1, 1),
    ("if", MISSING_END, 1, 1),
    ("for k = 1:3\n", MISSING_END, 1, 1),
    ("x = 1;\nwhile x\n  if y\n    z = 1;\n  end\n", MISSING_END, 2, 1),
    ("global a(1)", None, 1, 9),
    # --- unterminated text ------------------------------------------------------
    ("x = 'abc", "Character vector is not terminated properly.", 1, 5),
    ('x = "abc', "String is not terminated properly.", 1, 5),
    ("x = 1;\ny = ['abc', 'de]", "Character vector is not terminated properly.", 2, 13),
    ("disp 'abc", "not terminated properly", 1, 6),
    # --- integer literals -------------------------------------------------------
    ("x = 0x", INVALID, 1, 6),
    ("x = 0x1FFs8", None, 1, 5),
    ("x = 0xFFFFFFFFFFFFFFFFF", None, 1, 5),
    # --- Octave-only syntax -----------------------------------------------------
    ("# comment", BAD_CHAR, 1, 1),
    ("x = 1 # c", BAD_CHAR, 1, 7),
    ("x = 'a' ; # comment", BAD_CHAR, 1, 11),
    ("\u00e9 = 1", BAD_CHAR, 1, 1),  # a shell escape in MATLAB
    ("x = 1; x != y", BAD_CHAR, 1, 10),
    ("z = a != b", BAD_CHAR, 1, 7),
    ("if a != b\nend", BAD_CHAR, 1, 6),
    ("if x\n y\nendif", "'endif'", 3, 1),
    ("for k=1:2\nendfor", "'endfor'", 2, 1),
    ("while x\nendwhile", "'endwhile'", 2, 1),
    ("function f\nendfunction", "'endfunction'", 2, 1),
    ("switch x\nendswitch", "'endswitch'", 2, 1),
    ("try\nend_try_catch", "'end_try_catch'", 2, 1),
    ("x++;", BAD_OPERATOR, 1, 2),
    ("x--", BAD_OPERATOR, 1, 2),
    ("y = a++", BAD_OPERATOR, 1, 6),
    ("a = b--;", BAD_OPERATOR, 1, 6),
    ("x = 1; x += 1", BAD_OPERATOR, 1, 10),
    ("x = 1; x -= 1", BAD_OPERATOR, 1, 10),
    ("x = 1; x *= 2", BAD_OPERATOR, 1, 10),
    ("x = 1; x /= 2", BAD_OPERATOR, 1, 10),
    ("a.b = 1; a.b += 1", BAD_OPERATOR, 1, 14),
    # --- program structure ---------------------------------------------------------
    ("function f\nend\nx = 1", "not inside any function", 3, 1),
    ("function f\nend\n\ny = f();\nz = 2", "not inside any function", 4, 1),
    ("x = 1;\nfunction f\n y", "All functions in a script must be closed with an 'end'.", 2, 1),
    ("x = 1;\nfunction f\nx = 2;\nfunction g\n", "All functions in a script must be closed with an 'end'.", 2, 1),
    ("function f\nend\nfunction g\n x", None, 3, 1),
    ("function f\n x\nfunction g\n y\nend", None, 1, 1),
    ("if x\n function f\n end\nend", "Function definitions are not supported in this context", 2, 2),
    ("function f(x)\n y = 1;\n arguments\n  x\n end\nend", None, 3, 2),
    ("classdef Foo\nend", "not supported yet", 1, 1),
    ("spmd\nend", "not supported yet", 1, 1),
]


@pytest.mark.parametrize("src, message, line, col", ERRORS, ids=[src for src, *_ in ERRORS])
def test_error(src: str, message: str | None, line: int, col: int) -> None:
    err = syntax_error(src)
    if message is not None:
        assert message in err.message
    assert err.message
    assert (err.line, err.col) == (line, col)
    assert err.source_line == src.replace("\r\n", "\n").split("\n")[line - 1]


def test_ignored_output_needs_a_comma_or_space_free_tilde() -> None:
    # [~ x] is the matrix [~x], which cannot be assigned to.
    err = syntax_error("[~ x] = f()")
    assert err.line == 1 and err.col in (2, 4)


# ------------------------------------------------------------------- layout


def test_layout() -> None:
    err = syntax_error("x = (1 + 2")
    assert str(err) == (
        "Error: File: test.m Line: 1 Column: 5\n"
        "Unbalanced or unexpected parenthesis or bracket.\n"
        "x = (1 + 2\n"
        "    ^"
    )


def test_layout_on_a_later_line() -> None:
    err = syntax_error("a = 1;\n  y = )")
    assert str(err).split("\n") == [
        "Error: File: test.m Line: 2 Column: 7",
        UNBALANCED,
        "  y = )",
        "      ^",
    ]


def test_layout_missing_end() -> None:
    err = syntax_error("if x\n y = 1")
    lines = str(err).split("\n")
    assert lines[0] == "Error: File: test.m Line: 1 Column: 1"
    assert lines[1].startswith(MISSING_END)
    assert lines[2:] == ["if x", "^"]


def test_layout_caret_under_column_with_tabs() -> None:
    err = syntax_error("x = 1;\n\tz = 1 +* 2")
    assert (err.line, err.col) == (2, 9)
    lines = str(err).split("\n")
    assert lines[0] == "Error: File: test.m Line: 2 Column: 9"
    source, caret = lines[2], lines[3]
    assert caret.index("^") == err.col - 1
    assert source[err.col - 1] == "*"


def test_layout_with_crlf_and_bom() -> None:
    err = syntax_error("\ufeffx = 1\r\ny = )\r\n")
    assert (err.line, err.col) == (2, 5)
    assert str(err).split("\n")[2:] == ["y = )", "    ^"]


def test_layout_without_file() -> None:
    with pytest.raises(MatlabSyntaxError) as info:
        parse("x = (1 + 2")
    assert str(info.value).split("\n") == ["Error: " + UNBALANCED, "x = (1 + 2", "    ^"]


def test_variables_workspace_error() -> None:
    # With 'hold' a variable, 'hold on' is an expression: two values side by side.
    with pytest.raises(MatlabSyntaxError) as info:
        parse("hold on", "test.m", frozenset({"hold"}))
    assert (info.value.line, info.value.col) == (1, 6)


def test_valid_program_after_error_fix() -> None:
    # the parser keeps no state from a failed parse
    syntax_error("x = (1 + 2")
    assert tree("x = (1 + 2)") == "(assign x (+ 1 2))"
    assert program("x = 1").is_script


# ------------------------------------------------------- never a traceback

_PIECES = [
    "x", "y", "f", "a1", "0", "1.5", "3i", "0x1F", " ", "  ", "\t", "\n", ",", ";", ":", ".",
    "'", '"', "(", ")", "[", "]", "{", "}", "+", "-", "*", "/", "\\", "^", ".^", ".'", "~",
    "=", "==", "~=", "<", ">=", "&", "|", "&&", "||", "@", "%", "%{\n", "%}\n", "...",
    "...\n", "end", "if ", "else", "elseif ", "for ", "while ", "switch ", "case ", "otherwise",
    "try", "catch ", "function ", "return", "global ", "arguments", "hold on", "!", "#",
    "\r\n", "endif", "++", "+=",
]


@settings(max_examples=400, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=25).map("".join))
def test_garbage_gives_a_matlab_syntax_error(src: str) -> None:
    try:
        parse(src, "test.m")
    except MatlabSyntaxError as err:
        assert err.message
        assert err.line >= 1 and err.col >= 1
        assert err.source_line is not None
        assert str(err).startswith(f"Error: File: test.m Line: {err.line} Column: {err.col}\n")
