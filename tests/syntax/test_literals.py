"""Literals: numbers, char vectors, strings, and the whitespace rules of
matrix ``[]`` and cell ``{}`` literals.

Inside brackets whitespace separates elements, except around a binary
operator: ``[1 -2]`` is two elements (a sign that touches its operand starts
a new element) while ``[1 - 2]``, ``[1-2]`` and ``[a- b]`` are one.  A quote
right after a value is a transpose, after whitespace it starts a char vector.
"""

from __future__ import annotations

import pytest

from tests.syntax.util import program, tree

CASES: list[tuple[str, str]] = [
    # --- decimal numbers --------------------------------------------------
    ("1", "(expr 1)"),
    ("1.", "(expr 1)"),
    (".5", "(expr 0.5)"),
    ("0.1", "(expr 0.1)"),
    ("007", "(expr 7)"),
    ("1e3", "(expr 1000)"),
    ("1E3", "(expr 1000)"),
    ("1e-3", "(expr 0.001)"),
    ("1e+3", "(expr 1000)"),
    ("1.5E+3", "(expr 1500)"),
    ("1.e3", "(expr 1000)"),
    (".5e1", "(expr 5)"),
    ("x = .5", "(assign x 0.5)"),
    # --- imaginary numbers ------------------------------------------------
    ("3i", "(expr 3i)"),
    ("2.5j", "(expr 2.5i)"),
    ("1e3i", "(expr 1000i)"),
    ("1i", "(expr 1i)"),
    ("3I", "(expr 3i)"),
    ("4J", "(expr 4i)"),
    ("1.5e-3j", "(expr 0.0015i)"),
    ("i", "(expr i)"),
    # --- hexadecimal and binary integers -----------------------------------
    ("0x1F", "(expr 31:uint8)"),
    ("0X1f", "(expr 31:uint8)"),
    ("0b101", "(expr 5:uint8)"),
    ("0B11", "(expr 3:uint8)"),
    ("0x100", "(expr 256:uint16)"),
    ("0b1111111111111111", "(expr 65535:uint16)"),
    ("0xFFFFFFFFFFFFFFFF", "(expr 18446744073709551615:uint64)"),
    ("0xFFs8", "(expr -1:int8)"),
    ("0x7Fs8", "(expr 127:int8)"),
    ("0xFFu16", "(expr 255:uint16)"),
    ("0x8000s16", "(expr -32768:int16)"),
    ("0b1u64", "(expr 1:uint64)"),
    ("0b11111111s8", "(expr -1:int8)"),
    # --- a dot after a number: operator or decimal point --------------------
    ("1./x", "(expr (./ 1 x))"),
    ("1.*x", "(expr (.* 1 x))"),
    (r"1.\x", r"(expr (.\ 1 x))"),
    ("2.^x", "(expr (.^ 2 x))"),
    ("1.^2", "(expr (.^ 1 2))"),
    ("3.'", "(expr (.' 3))"),
    ("3.''", "(expr (' (.' 3)))"),
    ("1. / x", "(expr (/ 1 x))"),
    ("1.5./x", "(expr (./ 1.5 x))"),
    # --- char vectors ---------------------------------------------------------
    ("'abc'", "(expr 'abc')"),
    ("''", "(expr '')"),
    ("'it''s'", "(expr 'it''s')"),
    ("''''", "(expr '''')"),
    ("'a'''", "(expr 'a''')"),
    ("'100%'", "(expr '100%')"),
    ("'a % b'", "(expr 'a % b')"),
    ("'a...b'", "(expr 'a...b')"),
    ("'a\"b'", "(expr 'a\"b')"),
    (r"'a\nb'", r"(expr 'a\nb')"),
    ("x = 'a%b'", "(assign x 'a%b')"),
    ("x = 'h\u00e9llo'", "(assign x 'h\u00e9llo')"),
    # --- strings --------------------------------------------------------------
    ('"abc"', '(expr "abc")'),
    ('""', '(expr "")'),
    ('"say ""hi"""', '(expr "say ""hi""")'),
    ('"a\'b"', '(expr "a\'b")'),
    ('"100%"', '(expr "100%")'),
    ('"a...b"', '(expr "a...b")'),
    (r'"a\nb"', r'(expr "a\nb")'),
    (r'x = "a\tb"', r'(assign x "a\tb")'),
    # --- elements separated by whitespace or commas -------------------------
    ("[]", "(expr (matrix))"),
    ("{}", "(expr (cell))"),
    ("[1 2]", "(expr (matrix (1 2)))"),
    ("[ 1 2 ]", "(expr (matrix (1 2)))"),
    ("[1\t2]", "(expr (matrix (1 2)))"),
    ("[1,2]", "(expr (matrix (1 2)))"),
    ("[1 ,2]", "(expr (matrix (1 2)))"),
    ("[1 , 2]", "(expr (matrix (1 2)))"),
    ("{1, 'a'; \"s\", []}", "(expr (cell (1 'a') (\"s\" (matrix))))"),
    ("[ [1 2] [3] ]", "(expr (matrix ((matrix (1 2)) (matrix (3)))))"),
    ("[{1} {2}]", "(expr (matrix ((cell (1)) (cell (2)))))"),
    # --- signs: [1 -2] is two elements, [1 - 2] one ------------------------
    ("[1 -2]", "(expr (matrix (1 (- 2))))"),
    ("[a -b]", "(expr (matrix (a (- b))))"),
    ("[1 +2]", "(expr (matrix (1 (+ 2))))"),
    ("[a +b]", "(expr (matrix (a (+ b))))"),
    ("[+1 -1]", "(expr (matrix ((+ 1) (- 1))))"),
    ("[-1]", "(expr (matrix ((- 1))))"),
    ("[1 - 2]", "(expr (matrix ((- 1 2))))"),
    ("[1-2]", "(expr (matrix ((- 1 2))))"),
    ("[a - b]", "(expr (matrix ((- a b))))"),
    ("[a- b]", "(expr (matrix ((- a b))))"),
    ("[a + b]", "(expr (matrix ((+ a b))))"),
    ("[a+ b]", "(expr (matrix ((+ a b))))"),
    ("[a -  b]", "(expr (matrix ((- a b))))"),
    ("[1 - -2]", "(expr (matrix ((- 1 (- 2)))))"),
    ("[1 ++ 2]", "(expr (matrix (1 (+ (+ 2)))))"),
    ("[a(1) -b(2)]", "(expr (matrix ((() a 1) (- (() b 2)))))"),
    ("[1\t-2]", "(expr (matrix (1 (- 2))))"),
    ("f([a -b])", "(expr (() f (matrix (a (- b)))))"),
    # --- quotes: transpose after a value, char after whitespace -------------
    ("[a' b']", "(expr (matrix ((' a) (' b))))"),
    ("[a 'str']", "(expr (matrix (a 'str')))"),
    ("[a' 'str']", "(expr (matrix ((' a) 'str')))"),
    ("[x.' y']", "(expr (matrix ((.' x) (' y))))"),
    ("[a.' b.']", "(expr (matrix ((.' a) (.' b))))"),
    ("[a' ,b']", "(expr (matrix ((' a) (' b))))"),
    ("[x' ]", "(expr (matrix ((' x))))"),
    ("['a' 'b']", "(expr (matrix ('a' 'b')))"),
    ('["a" "b"]', '(expr (matrix ("a" "b")))'),
    ("[f(1) ']']", "(expr (matrix ((() f 1) ']')))"),
    ("['[' 'x']", "(expr (matrix ('[' 'x')))"),
    ("{a', 'b'}", "(expr (cell ((' a) 'b')))"),
    # --- parens and braces after whitespace start a new element -------------
    ("[f (1)]", "(expr (matrix (f 1)))"),
    ("[f(1)]", "(expr (matrix ((() f 1))))"),
    ("[a(1) (2)]", "(expr (matrix ((() a 1) 2)))"),
    ("[a(1, 2) 3]", "(expr (matrix ((() a 1 2) 3)))"),
    ("[a{1} b]", "(expr (matrix (({} a 1) b)))"),
    ("[a {1}]", "(expr (matrix (a (cell (1)))))"),
    ("{c{1} 2}", "(expr (cell (({} c 1) 2)))"),
    ("{c {1}}", "(expr (cell (c (cell (1)))))"),
    ("[a.b c]", "(expr (matrix ((. a b) c)))"),
    ("[s.(f) 1]", "(expr (matrix ((.() s f) 1)))"),
    ("[x{:}]", "(expr (matrix (({} x :))))"),
    ("{x{:}}", "(expr (cell (({} x :))))"),
    # --- other operators: a leading dot number vs element-wise operators ----
    ("[1 .5]", "(expr (matrix (1 0.5)))"),
    ("[1 .* 2]", "(expr (matrix ((.* 1 2))))"),
    ("[a ~b]", "(expr (matrix (a (~ b))))"),
    ("[a ~= b]", "(expr (matrix ((~= a b))))"),
    ("[1 ~=2]", "(expr (matrix ((~= 1 2))))"),
    ("[1 : 3]", "(expr (matrix ((: 1 3))))"),
    ("[1 :3]", "(expr (matrix ((: 1 3))))"),
    ("[1e3 2]", "(expr (matrix (1000 2)))"),
    ("[1.e3 2]", "(expr (matrix (1000 2)))"),
    # --- function handles and lambdas as elements --------------------------
    ("[1 @sin]", "(expr (matrix (1 @sin)))"),
    ("{@sin @cos}", "(expr (cell (@sin @cos)))"),
    ("{@(x) x+1 @(y) y}", "(expr (cell ((@ (x) (+ x 1)) (@ (y) y))))"),
    ("{@(x) x +1}", "(expr (cell ((@ (x) x) (+ 1))))"),
    ("{@(x) x 1}", "(expr (cell ((@ (x) x) 1)))"),
    ("{@(x, y) x}", "(expr (cell ((@ (x y) x))))"),
    # --- rows: ';' and newlines ---------------------------------------------
    ("[1 2;3 4]", "(expr (matrix (1 2) (3 4)))"),
    ("[1 2\n3 4]", "(expr (matrix (1 2) (3 4)))"),
    ("[1 2;\n3 4]", "(expr (matrix (1 2) (3 4)))"),
    ("[1 2\n;3 4]", "(expr (matrix (1 2) (3 4)))"),
    ("[1 2\n\n3 4]", "(expr (matrix (1 2) (3 4)))"),
    ("[1 2 ;\n 3 4]", "(expr (matrix (1 2) (3 4)))"),
    ("[\n1 2\n]", "(expr (matrix (1 2)))"),
    ("x = [a b\n c d];", "(assign x (matrix (a b) (c d)) ;)"),
    ("x = {\n 'a'\n 'b'\n}", "(assign x (cell ('a') ('b')))"),
    ("[;]", "(expr (matrix))"),
    ("[1;]", "(expr (matrix (1)))"),
    ("[;1]", "(expr (matrix (1)))"),
    ("[1;;2]", "(expr (matrix (1) (2)))"),
    ("[1,2;;;\n ,3 4,;]", "(expr (matrix (1 2) (3 4)))"),
    ("[1, 2,\n 3]", "(expr (matrix (1 2) (3)))"),
    ("[1,\n2]", "(expr (matrix (1) (2)))"),
    # --- continuation inside a literal: whitespace, no new row ---------------
    ("[1 2 ...\n 3]", "(expr (matrix (1 2 3)))"),
    ("x = [1 2 ... comment\n 3 4]", "(assign x (matrix (1 2 3 4)))"),
    ("{1 2 ...\n 3}", "(expr (cell (1 2 3)))"),
    ("[1 ...\n -2]", "(expr (matrix (1 (- 2))))"),
    ("[1 ...\n - 2]", "(expr (matrix ((- 1 2))))"),
    ("[a ...\n b]", "(expr (matrix (a b)))"),
    ("[a ...\n 'b']", "(expr (matrix (a 'b')))"),
    # --- comments inside multi-line literals ---------------------------------
    ("[1 2 % c\n 3 4]", "(expr (matrix (1 2) (3 4)))"),
    ("x = [1, 2 % a\n 3, 4 % b\n]", "(assign x (matrix (1 2) (3 4)))"),
    ("x = {1, ... % one\n 2}", "(assign x (cell (1 2)))"),
    ("x = [1 2\n%{\n3 4\n%}\n5 6]", "(assign x (matrix (1 2) (5 6)))"),
    ("x = [1 2 %{\n 3]", "(assign x (matrix (1 2) (3)))"),
    # --- literals followed by a transpose; comparisons of literals -----------
    ("[1 2]'", "(expr (' (matrix (1 2))))"),
    ("[1 2].'", "(expr (.' (matrix (1 2))))"),
    ("x = [1,2,3]';", "(assign x (' (matrix (1 2 3))) ;)"),
    ("x = {'a', 'b'}'", "(assign x (' (cell ('a' 'b'))))"),
    ("[1 2]==[1 2]", "(expr (== (matrix (1 2)) (matrix (1 2))))"),
    ("[a b] == c", "(expr (== (matrix (a b)) c))"),
]


@pytest.mark.parametrize("src, expected", CASES, ids=[src for src, _ in CASES])
def test_tree(src: str, expected: str) -> None:
    assert tree(src) == expected


# ---------------------------------------------------------------- values


@pytest.mark.parametrize("src, value", [
    ("x = 'it''s'", "it's"),
    ("x = ''''", "'"),
    ('x = "say ""hi"""', 'say "hi"'),
    ('x = "a\'b"', "a'b"),
    (r'x = "a\nb"', "a\\nb"),  # MATLAB has no escapes in literals: the backslash stays
    (r"x = 'a\tb'", "a\\tb"),
    ("x = '100%'", "100%"),
    ("x = 'a...b'", "a...b"),
])
def test_text_value(src: str, value: str) -> None:
    assert program(src).body[0].value.value == value


@pytest.mark.parametrize("src, value, cls", [
    ("x = 0xFFs8", -1, "int8"),
    ("x = 0x1F", 31, "uint8"),
    ("x = 0b101", 5, "uint8"),
    ("x = 0x100", 256, "uint16"),
    ("x = 1e-3", 0.001, "double"),
    ("x = 2.5j", 2.5j, "double"),
])
def test_number_value(src: str, value: object, cls: str) -> None:
    number = program(src).body[0].value
    assert number.value == value
    assert number.cls == cls


def test_matrix_shape() -> None:
    m = program("x = [1,2;;;\n ,3 4,;]").body[0].value
    assert [len(row) for row in m.rows] == [2, 2]
