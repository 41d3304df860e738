"""Expressions: operators and MATLAB precedence, transposes, indexing, fields,
function handles, anonymous functions, name=value arguments, parentheses.

Precedence follows MathWorks' "Operator Precedence" table, highest first:
  1. transpose ' .'  power ^ .^            (left to right: 2^3^2 is (2^3)^2)
  2. unary + - ~ right after ^ or .^       (2^-2 is 2^(-2))
  3. unary + - ~                           (-2^2 is -(2^2))
  4. * / \\ .* ./ .\\
  5. + -
  6. :
  7. < <= > >= == ~=
  8. &    9. |    10. &&    11. ||
"""

from __future__ import annotations

import pytest

from tests.syntax.util import program, tree

CASES: list[tuple[str, str]] = [
    # --- unary minus and power ---------------------------------------------
    ("-2^2", "(expr (- (^ 2 2)))"),
    ("2^-2", "(expr (^ 2 (- 2)))"),
    ("2^3^2", "(expr (^ (^ 2 3) 2))"),
    ("2^-2^2", "(expr (^ (^ 2 (- 2)) 2))"),
    ("-2^-2", "(expr (- (^ 2 (- 2))))"),
    ("a.^b.^c", "(expr (.^ (.^ a b) c))"),
    ("-a.^2", "(expr (- (.^ a 2)))"),
    ("~a.^b", "(expr (~ (.^ a b)))"),
    ("2.^-x", "(expr (.^ 2 (- x)))"),
    ("a * -b ^ c", "(expr (* a (- (^ b c))))"),
    ("a ^ -b * c", "(expr (* (^ a (- b)) c))"),
    # --- transpose shares power's level, left to right ----------------------
    ("-a'", "(expr (- (' a)))"),
    ("a^b'", "(expr (' (^ a b)))"),
    ("a.^b'", "(expr (' (.^ a b)))"),
    ("a'^b", "(expr (^ (' a) b))"),
    ("x.^2'", "(expr (' (.^ x 2)))"),
    ("a*b'", "(expr (* a (' b)))"),
    ("x'*y", "(expr (* (' x) y))"),
    ("x' * y'", "(expr (* (' x) (' y)))"),
    ("(a + b)'", "(expr (' (+ a b)))"),
    # --- unary operators ----------------------------------------------------
    ("+a", "(expr (+ a))"),
    ("--a", "(expr (- (- a)))"),
    ("-+a", "(expr (- (+ a)))"),
    ("~~a", "(expr (~ (~ a)))"),
    ("-a * b", "(expr (* (- a) b))"),
    ("-a + b", "(expr (+ (- a) b))"),
    ("a * -b", "(expr (* a (- b)))"),
    ("a - -b", "(expr (- a (- b)))"),
    ("a + +b", "(expr (+ a (+ b)))"),
    ("~a == b", "(expr (== (~ a) b))"),
    ("~a & b", "(expr (& (~ a) b))"),
    # --- multiplicative / additive, left associative -------------------------
    ("a + b * c", "(expr (+ a (* b c)))"),
    ("(a + b) * c", "(expr (* (+ a b) c))"),
    ("a - b - c", "(expr (- (- a b) c))"),
    ("a - b + c", "(expr (+ (- a b) c))"),
    ("a * b / c", "(expr (/ (* a b) c))"),
    ("a / b * c", "(expr (* (/ a b) c))"),
    (r"a \ b * c", r"(expr (* (\ a b) c))"),
    (r"a .* b ./ c .\ d", r"(expr (.\ (./ (.* a b) c) d))"),
    # --- every binary operator ---------------------------------------------
    ("a + b", "(expr (+ a b))"),
    ("a - b", "(expr (- a b))"),
    ("a * b", "(expr (* a b))"),
    ("a .* b", "(expr (.* a b))"),
    ("a / b", "(expr (/ a b))"),
    ("a ./ b", "(expr (./ a b))"),
    (r"a \ b", r"(expr (\ a b))"),
    (r"a .\ b", r"(expr (.\ a b))"),
    ("a ^ b", "(expr (^ a b))"),
    ("a .^ b", "(expr (.^ a b))"),
    ("a == b", "(expr (== a b))"),
    ("a ~= b", "(expr (~= a b))"),
    ("a < b", "(expr (< a b))"),
    ("a <= b", "(expr (<= a b))"),
    ("a > b", "(expr (> a b))"),
    ("a >= b", "(expr (>= a b))"),
    ("a & b", "(expr (& a b))"),
    ("a | b", "(expr (| a b))"),
    ("a && b", "(expr (&& a b))"),
    ("a || b", "(expr (|| a b))"),
    ("a+b", "(expr (+ a b))"),
    ("a==b", "(expr (== a b))"),
    # --- colon ranges: below + -, above comparisons --------------------------
    ("1:3+1", "(expr (: 1 (+ 3 1)))"),
    ("a:b:c", "(expr (: a b c))"),
    ("a:b:c:d", "(expr (: (: a b c) d))"),
    ("a+b:c*d", "(expr (: (+ a b) (* c d)))"),
    ("a:b+c:d", "(expr (: a (+ b c) d))"),
    ("1:n-1", "(expr (: 1 (- n 1)))"),
    ("-1:1", "(expr (: (- 1) 1))"),
    ("a:-b", "(expr (: a (- b)))"),
    ("~a:b", "(expr (: (~ a) b))"),
    ("a:b'", "(expr (: a (' b)))"),
    ("(a:b)'", "(expr (' (: a b)))"),
    ("1:0.5:2", "(expr (: 1 0.5 2))"),
    ("a < b:c", "(expr (< a (: b c)))"),
    ("a == b:c", "(expr (== a (: b c)))"),
    # --- comparisons, left associative --------------------------------------
    ("a < b < c", "(expr (< (< a b) c))"),
    ("a == b ~= c", "(expr (~= (== a b) c))"),
    ("a <= b >= c", "(expr (>= (<= a b) c))"),
    ("a + b == c * d", "(expr (== (+ a b) (* c d)))"),
    # --- logical: & above | above && above || --------------------------------
    ("a | b & c", "(expr (| a (& b c)))"),
    ("a & b | c & d", "(expr (| (& a b) (& c d)))"),
    ("a | b && c | d", "(expr (&& (| a b) (| c d)))"),
    ("a || b && c", "(expr (|| a (&& b c)))"),
    ("a && b || c && d", "(expr (|| (&& a b) (&& c d)))"),
    ("a || b || c", "(expr (|| (|| a b) c))"),
    ("a | b & c || d && e", "(expr (|| (| a (& b c)) (&& d e)))"),
    ("a < b & c > d", "(expr (& (< a b) (> c d)))"),
    # --- transposes ---------------------------------------------------------
    ("x'", "(expr (' x))"),
    ("x.'", "(expr (.' x))"),
    ("x''", "(expr (' (' x)))"),
    ("x'''", "(expr (' (' (' x))))"),
    ("x.''", "(expr (' (.' x)))"),
    ("x'.'", "(expr (.' (' x)))"),
    ("x.'.'", "(expr (.' (.' x)))"),
    ("s.a'", "(expr (' (. s a)))"),
    ("x(:)'", "(expr (' (() x :)))"),
    ("x{:}'", "(expr (' ({} x :)))"),
    # --- call-or-index, brace indexing, chains -------------------------------
    ("f()", "(expr (() f))"),
    ("f(x)", "(expr (() f x))"),
    ("f(x, y)", "(expr (() f x y))"),
    ("f(a -1)", "(expr (() f (- a 1)))"),
    ("c{1}", "(expr ({} c 1))"),
    ("c{1, 2}", "(expr ({} c 1 2))"),
    ("c{1}{2}", "(expr ({} ({} c 1) 2))"),
    ("c{1}(2)", "(expr (() ({} c 1) 2))"),
    ("c{1}.f", "(expr (. ({} c 1) f))"),
    ("x(1).y(2)", "(expr (() (. (() x 1) y) 2))"),
    ("f(x).y", "(expr (. (() f x) y))"),
    ("s.a(1).b{2}.c", "(expr (. ({} (. (() (. s a) 1) b) 2) c))"),
    ("x.y{3}.z(4)", "(expr (() (. ({} (. x y) 3) z) 4))"),
    # --- bare colon and end in indexing --------------------------------------
    ("x(:)", "(expr (() x :))"),
    ("x( : )", "(expr (() x :))"),
    ("x(:, 1)", "(expr (() x : 1))"),
    ("x(:, :)", "(expr (() x : :))"),
    ("x{:}", "(expr ({} x :))"),
    ("x(1, :, end)", "(expr (() x 1 : end))"),
    ("x(end)", "(expr (() x end))"),
    ("x(end-1, end)", "(expr (() x (- end 1) end))"),
    ("x(end+1)", "(expr (() x (+ end 1)))"),
    ("x(1:end)", "(expr (() x (: 1 end)))"),
    ("x(end:-1:1)", "(expr (() x (: end (- 1) 1)))"),
    ("x(end)'", "(expr (' (() x end)))"),
    ("c{end}(end)", "(expr (() ({} c end) end))"),
    ("a{end}{end}", "(expr ({} ({} a end) end))"),
    ("x(f(end))", "(expr (() x (() f end)))"),
    ("x([1 end])", "(expr (() x (matrix (1 end))))"),
    ("x([end 1])", "(expr (() x (matrix (end 1))))"),
    ("x({end})", "(expr (() x (cell (end))))"),
    # --- fields, dynamic fields, keywords as field names ---------------------
    ("s.name", "(expr (. s name))"),
    ("a.b.c", "(expr (. (. a b) c))"),
    ("s.(name)", "(expr (.() s name))"),
    ("s.('a')", "(expr (.() s 'a'))"),
    ('x.("a")', '(expr (.() x "a"))'),
    ("s.(n)(2)", "(expr (() (.() s n) 2))"),
    ("s.(n).m", "(expr (. (.() s n) m))"),
    ("a.b.('c')(2)", "(expr (() (.() (. a b) 'c') 2))"),
    ("s.end", "(expr (. s end))"),
    ("s.if", "(expr (. s if))"),
    ("s.function.for", "(expr (. (. s function) for))"),
    ("x(end).end", "(expr (. (() x end) end))"),
    ("x(s.end)", "(expr (() x (. s end)))"),
    # --- function handles ----------------------------------------------------
    ("@sin", "(expr @sin)"),
    ("@pkg.fn", "(expr @pkg.fn)"),
    ("@pkg.sub.fn", "(expr @pkg.sub.fn)"),
    ("f = @sin;", "(assign f @sin ;)"),
    # --- anonymous functions --------------------------------------------------
    ("@(x) x.^2", "(expr (@ (x) (.^ x 2)))"),
    ("@() disp(1)", "(expr (@ () (() disp 1)))"),
    ("@()disp(1)", "(expr (@ () (() disp 1)))"),
    ("@(~, y) y", "(expr (@ (~ y) y))"),
    ("@(x, y) x + y", "(expr (@ (x y) (+ x y)))"),
    ("x = @(a,b)a+b;", "(assign x (@ (a b) (+ a b)) ;)"),
    ("@(x) x'", "(expr (@ (x) (' x)))"),
    ("@(x) x(1)", "(expr (@ (x) (() x 1)))"),
    ("@(x) x == 1 || x", "(expr (@ (x) (|| (== x 1) x)))"),
    ("f = @(x) @(y) x + y", "(assign f (@ (x) (@ (y) (+ x y))))"),
    ("@(varargin) f(varargin{:})", "(expr (@ (varargin) (() f ({} varargin :))))"),
    ("@(x) [x 1]", "(expr (@ (x) (matrix (x 1))))"),
    ("g(@(x) x, 2)", "(expr (() g (@ (x) x) 2))"),
    ("h = @()'a'", "(assign h (@ () 'a'))"),
    # --- name=value arguments ----------------------------------------------
    ("plot(x, y, LineWidth=2)", "(expr (() plot x y (= LineWidth 2)))"),
    ("f(Name=1, Other='a')", "(expr (() f (= Name 1) (= Other 'a')))"),
    ("f(LineWidth = 2)", "(expr (() f (= LineWidth 2)))"),
    ("a.b(Name=1)", "(expr (() (. a b) (= Name 1)))"),
    ("f(Name = @(x) x)", "(expr (() f (= Name (@ (x) x))))"),
    ("f(x, 'Name', 1)", "(expr (() f x 'Name' 1))"),
    # --- parentheses: a parenthesised reference is a value -------------------
    ("(x)", "(expr (paren x))"),
    ("(a(1))", "(expr (paren (() a 1)))"),
    ("(a.b)", "(expr (paren (. a b)))"),
    ("(c{1})", "(expr (paren ({} c 1)))"),
    ("((a))", "(expr (paren a))"),
    ("(1)", "(expr 1)"),
    ("(a + b)", "(expr (+ a b))"),
    ("(a)'", "(expr (' (paren a)))"),
    ("x = (a)", "(assign x (paren a))"),
    ("a == (b)", "(expr (== a (paren b)))"),
    ("f((a))", "(expr (() f (paren a)))"),
    ("(1 + 2) * 3", "(expr (* (+ 1 2) 3))"),
    ("((1 + 2))", "(expr (+ 1 2))"),
]


@pytest.mark.parametrize("src, expected", CASES, ids=[src for src, _ in CASES])
def test_tree(src: str, expected: str) -> None:
    assert tree(src) == expected


def test_binary_node_takes_left_operand_position() -> None:
    expr = program("y = a + b * c").body[0].value
    assert (expr.line, expr.col) == (1, 5)
    assert (expr.right.line, expr.right.col) == (1, 9)
    assert (expr.right.right.line, expr.right.right.col) == (1, 13)


def test_named_argument_value() -> None:
    call = program("plot(x, LineWidth=2)").body[0].expr
    named = call.args[1]
    assert named.name == "LineWidth"
    assert named.value.value == 2


def test_lambda_ignored_parameter_is_none() -> None:
    lam = program("f = @(~, y) y;").body[0].value
    assert lam.params == [None, "y"]
