"""Lexical structure: comments, block comments, continuation, section markers,
quote vs transpose, tabs, CRLF line endings, a UTF-8 BOM, source positions,
and the token stream of ``mlang.syntax.lexer.tokenize``.
"""

from __future__ import annotations

import pytest

from mlang.syntax.lexer import tokenize
from tests.syntax.util import program, syntax_error, tree

CASES: list[tuple[str, str]] = [
    # --- line comments ---------------------------------------------------------
    ("x = 1 % comment", "(assign x 1)"),
    ("% only a comment", ""),
    ("x = 1; % c\ny = 2", "(assign x 1 ;)\n(assign y 2)"),
    ("x = 'it''s' % it's", "(assign x 'it''s')"),
    ("x = 1;   % comment with 'quote", "(assign x 1 ;)"),
    ("x = 5 % c ; y = 2", "(assign x 5)"),
    ("x = 1 % comment ... not a continuation\ny = 2", "(assign x 1)\n(assign y 2)"),
    ("disp('%')", "(expr (() disp '%'))"),
    # --- block comments: markers alone on their line -------------------------
    ("x = 1\n%{\nblock\n%}\ny = 2", "(assign x 1)\n(assign y 2)"),
    ("  %{  \n hidden\n  %}  \ny = 1", "(assign y 1)"),
    ("%{\nx = 1\n%}", ""),
    ("%{\n%{\ninner\n%}\nstill\n%}\nz = 3", "(assign z 3)"),
    ("%{\n%{\n%}\nx = 1\n%}\ny = 2", "(assign y 2)"),
    ("x = 1 %{ text\ny = 2", "(assign x 1)\n(assign y 2)"),
    ("%{ not block\ny = 2", "(assign y 2)"),
    ("%}\nx = 1", "(assign x 1)"),
    ("%{\n a\n%} not end\nx = 1\n%}\ny = 2", "(assign y 2)"),
    ("x = 1\n%{\ny = 2", "(assign x 1)"),
    ("x = 1\n%{", "(assign x 1)"),
    ("\t%{\t\nx\n\t%}\t\ny = 1", "(assign y 1)"),
    ("x = 1\n%{\ny = 2\n%{\n%}\nz = 3", "(assign x 1)"),
    ("if x\n%{\ncomment\n%}\n y = 1;\nend", "(if (x (assign y 1 ;)))"),
    # --- continuation ---------------------------------------------------------
    ("x = 1 + ...\n 2", "(assign x (+ 1 2))"),
    ("x = 1 + ... comment text\n 2", "(assign x (+ 1 2))"),
    ("x = 1 ... \n + 2", "(assign x (+ 1 2))"),
    ("x = 1 ...% text\n + 2", "(assign x (+ 1 2))"),
    ("f(1, ...\n 2)", "(expr (() f 1 2))"),
    ("x = ...\n 1", "(assign x 1)"),
    ("x = [ ...\n 1 2]", "(assign x (matrix (1 2)))"),
    ("x = 1 ...", "(assign x 1)"),
    ("if x > ...\n 0\n y = 1;\nend", "(if ((> x 0) (assign y 1 ;)))"),
    ("for k = ...\n 1:3\nend", "(for k (: 1 3))"),
    ("f = @(x) ...\n x + 1;", "(assign f (@ (x) (+ x 1)) ;)"),
    ("function f(x) % comment\nend", "(function f (in x) (out))"),
    ("if x % comment\n y\nend", "(if (x (expr y)))"),
    ("if x\n y\nelse % comment\n z\nend", "(if (x (expr y)) (else (expr z)))"),
    # --- section markers ------------------------------------------------------
    ("%% Section\nx = 1", "(assign x 1)"),
    ("%% Title\nx = 1\n%% Next\ny = 2", "(assign x 1)\n(assign y 2)"),
    ("%%\nx = 1", "(assign x 1)"),
    # --- quote: transpose after a value, char vector otherwise ---------------
    ("y = x'", "(assign y (' x))"),
    ("y = 'abc'", "(assign y 'abc')"),
    ("disp('x')", "(expr (() disp 'x'))"),
    ("f(x)'", "(expr (' (() f x)))"),
    ("[1 2]'", "(expr (' (matrix (1 2))))"),
    ("c{1}'", "(expr (' ({} c 1)))"),
    ("x.y'", "(expr (' (. x y)))"),
    ("x = 5'", "(assign x (' 5))"),
    ("x = (a)'", "(assign x (' (paren a)))"),
    ("x = a.';", "(assign x (.' a) ;)"),
    ("x = a.'';", "(assign x (' (.' a)) ;)"),
    ("a = b'';", "(assign a (' (' b)) ;)"),
    ("x = y'''", "(assign x (' (' (' y))))"),
    ("s = x.'+y'", "(assign s (+ (.' x) (' y)))"),
    ("y = x' + 'a'", "(assign y (+ (' x) 'a'))"),
    ("x = {'a'}", "(assign x (cell ('a')))"),
    ("f('a')'", "(expr (' (() f 'a')))"),
    ("x(end)'", "(expr (' (() x end)))"),
    ("x(end')", "(expr (() x (' end)))"),
    ("if x'\nend", "(if ((' x)))"),
    ("switch s\ncase'a'\nend", "(switch s (case 'a'))"),
    ("x = {'a', 'b'}'", "(assign x (' (cell ('a' 'b'))))"),
    ("'abc'", "(expr 'abc')"),
    ("x = [a' 'b']", "(assign x (matrix ((' a) 'b')))"),
    # --- tabs --------------------------------------------------------------------
    ("x\t=\t1", "(assign x 1)"),
    ("\tx = 1", "(assign x 1)"),
    ("  \t x = 1", "(assign x 1)"),
    ("x = 1;\t% c", "(assign x 1 ;)"),
    ("if x\n\ty = 1;\nend", "(if (x (assign y 1 ;)))"),
    # --- CRLF, CR and a UTF-8 byte order mark ----------------------------------
    ("\ufeffx = 1\r\ny = 2\r\n", "(assign x 1)\n(assign y 2)"),
    ("x = 1\r\ny = 2", "(assign x 1)\n(assign y 2)"),
    ("x = 1\ry = 2", "(assign x 1)\n(assign y 2)"),
    ("%{\r\ncomment\r\n%}\r\nx = 1\r\n", "(assign x 1)"),
    ("x = [1 2 ...\r\n 3]\r\n", "(assign x (matrix (1 2 3)))"),
    ("x = [1 2\r\n 3 4]\r\n", "(assign x (matrix (1 2) (3 4)))"),
    ("\ufefffunction f\r\nend\r\n", "(function f (in) (out))"),
    ("hold on\r\n", "(command hold 'on')"),
]


@pytest.mark.parametrize("src, expected", CASES, ids=[src for src, _ in CASES])
def test_tree(src: str, expected: str) -> None:
    assert tree(src) == expected


def test_quote_after_whitespace_starts_a_char_vector() -> None:
    # Outside brackets a quote after whitespace is never a transpose.
    err = syntax_error("y = x '")
    assert err.message == "Character vector is not terminated properly."
    assert (err.line, err.col) == (1, 7)


def test_char_vector_does_not_continue() -> None:
    err = syntax_error("x = 'abc ...\n def'")
    assert (err.line, err.col) == (1, 5)


# ------------------------------------------------------------------ positions


def test_statement_positions() -> None:
    p = program("x = 1;\n  y = a + b * c;\nif x\n  z(3) = 2;\nend\n")
    assert [(type(s).__name__, s.line, s.col) for s in p.body] == [
        ("Assign", 1, 1), ("Assign", 2, 3), ("If", 3, 1)]
    assign = p.body[1]
    assert (assign.target.line, assign.target.col) == (2, 3)
    assert (assign.value.right.line, assign.value.right.col) == (2, 11)
    inner = p.body[2].clauses[0][1][0]
    assert (inner.line, inner.col) == (4, 3)


def test_positions_inside_literals() -> None:
    p = program("x = [1 -2];\ndisp hello\n c = {1, @(x) x}")
    m = p.body[0].value
    assert (m.line, m.col) == (1, 5)
    assert [(e.line, e.col) for e in m.rows[0]] == [(1, 6), (1, 8)]
    assert m.rows[0][1].operand.col == 9
    assert (p.body[1].line, p.body[1].col) == (2, 1)
    cell = p.body[2].value
    assert (cell.line, cell.col) == (3, 6)
    assert cell.rows[0][1].col == 10


def test_positions_after_continuation_and_block_comment() -> None:
    p = program("x = 1 + ...\n  2; y = 3")
    assert [(s.line, s.col) for s in p.body] == [(1, 1), (2, 6)]
    assert (p.body[0].value.right.line, p.body[0].value.right.col) == (2, 3)
    p = program("%{\nc\n%}\nx = 1")
    assert (p.body[0].line, p.body[0].col) == (4, 1)


def test_positions_with_bom_crlf_and_tabs() -> None:
    p = program("\ufeffx = 1\r\n  y = 2\r\n")
    assert [(s.line, s.col) for s in p.body] == [(1, 1), (2, 3)]
    p = program("\tx = 1")
    assert (p.body[0].line, p.body[0].col) == (1, 2)


def test_positions_record_the_file() -> None:
    p = program("x = 1\ny = 2")
    assert p.body[1].line == 2
    assert p.body[1].file == "test.m"
    assert p.body[1].value.file == "test.m"


def test_position_of_index_and_field() -> None:
    value = program("a = x'").body[0].value
    assert (value.line, value.col) == (1, 5)
    ref = program("s.a(1).b").body[0].expr
    assert (ref.line, ref.col) == (1, 1)


# -------------------------------------------------------------------- tokens


def types(src: str) -> list[str]:
    return [t.type for t in tokenize(src)]


TOKEN_CASES: list[tuple[str, list[str]]] = [
    # index or call vs grouping paren / cell literal
    ("f(x)", ["NAME", "INDEX_PAREN", "NAME", "RPAREN", "NEWLINE"]),
    ("(x)", ["LPAREN", "NAME", "RPAREN", "NEWLINE"]),
    ("y = f (x)", ["NAME", "ASSIGN", "NAME", "INDEX_PAREN", "NAME", "RPAREN", "NEWLINE"]),
    ("[f (x)]", ["LBRACKET", "NAME", "COMMA", "LPAREN", "NAME", "RPAREN", "RBRACKET", "NEWLINE"]),
    ("[f(x)]", ["LBRACKET", "NAME", "INDEX_PAREN", "NAME", "RPAREN", "RBRACKET", "NEWLINE"]),
    ("c{1}", ["NAME", "INDEX_BRACE", "NUMBER", "RBRACE", "NEWLINE"]),
    ("{1}", ["LBRACE", "NUMBER", "RBRACE", "NEWLINE"]),
    ("{c {1}}", ["LBRACE", "NAME", "COMMA", "LBRACE", "NUMBER", "RBRACE", "RBRACE", "NEWLINE"]),
    ("@(x) x", ["AT", "LPAREN", "NAME", "RPAREN", "NAME", "NEWLINE"]),
    # end as a value inside an index, as a block end outside
    ("x(end)", ["NAME", "INDEX_PAREN", "END_VAL", "RPAREN", "NEWLINE"]),
    ("x([1 end])", ["NAME", "INDEX_PAREN", "LBRACKET", "NUMBER", "COMMA", "END_VAL",
                    "RBRACKET", "RPAREN", "NEWLINE"]),
    ("if x, end", ["IF", "NAME", "COMMA", "END", "NEWLINE"]),
    # transpose vs char vector
    ("y = x'", ["NAME", "ASSIGN", "NAME", "TRANSPOSE", "NEWLINE"]),
    ("y = 'x'", ["NAME", "ASSIGN", "CHAR", "NEWLINE"]),
    ("y = x.'", ["NAME", "ASSIGN", "NAME", "DOTTRANSPOSE", "NEWLINE"]),
    ("[a 'x']", ["LBRACKET", "NAME", "COMMA", "CHAR", "RBRACKET", "NEWLINE"]),
    ("[a' 'x']", ["LBRACKET", "NAME", "TRANSPOSE", "COMMA", "CHAR", "RBRACKET", "NEWLINE"]),
    ("x(end)'", ["NAME", "INDEX_PAREN", "END_VAL", "RPAREN", "TRANSPOSE", "NEWLINE"]),
    # zero-width element separators in literals
    ("[1 -2]", ["LBRACKET", "NUMBER", "COMMA", "MINUS", "NUMBER", "RBRACKET", "NEWLINE"]),
    ("[1 - 2]", ["LBRACKET", "NUMBER", "MINUS", "NUMBER", "RBRACKET", "NEWLINE"]),
    ("[1\n2]", ["LBRACKET", "NUMBER", "SEMI", "NUMBER", "RBRACKET", "NEWLINE"]),
    # '[' of a multiple assignment
    ("[a, b] = f", ["LHS_LBRACKET", "NAME", "COMMA", "NAME", "RBRACKET", "ASSIGN", "NAME", "NEWLINE"]),
    ("[a, b] == f", ["LBRACKET", "NAME", "COMMA", "NAME", "RBRACKET", "EQ", "NAME", "NEWLINE"]),
    ("function [a, b] = f\nend", ["FUNCTION", "LHS_LBRACKET", "NAME", "COMMA", "NAME", "RBRACKET",
                                  "ASSIGN", "NAME", "NEWLINE", "END", "NEWLINE"]),
    # the identifier after catch
    ("try\ncatch e\nend", ["TRY", "NEWLINE", "CATCH", "CATCH_ID", "NEWLINE", "END", "NEWLINE"]),
    ("try, catch e, end", ["TRY", "COMMA", "CATCH", "CATCH_ID", "COMMA", "END", "NEWLINE"]),
    ("try\ncatch\n e\nend", ["TRY", "NEWLINE", "CATCH", "NEWLINE", "NAME", "NEWLINE", "END", "NEWLINE"]),
    # command syntax
    ("hold on", ["COMMAND", "CMDARG", "NEWLINE"]),
    ("format long g;", ["COMMAND", "CMDARG", "CMDARG", "SEMI"]),
    ("a - b", ["NAME", "MINUS", "NAME", "NEWLINE"]),
    ("clc", ["NAME", "NEWLINE"]),
    # arguments block
    ("function f(x)\narguments\nx\nend\nend",
     ["FUNCTION", "NAME", "INDEX_PAREN", "NAME", "RPAREN", "NEWLINE", "ARGUMENTS", "NEWLINE",
      "NAME", "NEWLINE", "END", "NEWLINE", "END", "NEWLINE"]),
]


@pytest.mark.parametrize("src, expected", TOKEN_CASES, ids=[src for src, _ in TOKEN_CASES])
def test_token_types(src: str, expected: list[str]) -> None:
    assert types(src) == expected


def test_command_tokens_values() -> None:
    toks = tokenize("disp 'hello world' ab''cd")
    assert [(t.type, t.value) for t in toks[:3]] == [
        ("COMMAND", "disp"), ("CMDARG", "hello world"), ("CMDARG", "abcd")]


def test_synthetic_end_for_functions_without_end() -> None:
    toks = tokenize("function f\nx\nfunction g\ny")
    assert [(t.type, t.value) for t in toks] == [
        ("FUNCTION", "function"), ("NAME", "f"), ("NEWLINE", "\n"), ("NAME", "x"), ("NEWLINE", "\n"),
        ("END", ""),
        ("FUNCTION", "function"), ("NAME", "g"), ("NEWLINE", "\n"), ("NAME", "y"), ("NEWLINE", ""),
        ("END", ""),
    ]


def test_no_synthetic_end_when_functions_have_end() -> None:
    toks = tokenize("function f\nx\nend\nfunction g\ny\nend")
    ends = [t.value for t in toks if t.type == "END"]
    assert ends == ["end", "end"]


def test_token_positions() -> None:
    toks = tokenize("x = 1;\n  y = [1 -2]")
    y = next(t for t in toks if t.value == "y")
    assert (y.line, y.column) == (2, 3)
    minus = next(t for t in toks if t.type == "MINUS")
    assert (minus.line, minus.column) == (2, 10)
