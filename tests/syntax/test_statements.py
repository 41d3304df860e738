"""Statements: separators and output display, control flow, declarations,
assignment targets and multiple assignment.

A statement ending with ';' does not display its result (the trailing ' ;' of
the dump); ',' and newline end a statement and leave display on.
"""

from __future__ import annotations

import pytest

from tests.syntax.util import program, tree

CASES: list[tuple[str, str]] = [
    # --- expression statements and display ----------------------------------
    ("x", "(expr x)"),
    ("x;", "(expr x ;)"),
    ("x,", "(expr x)"),
    ("f;", "(expr f ;)"),
    ("f(1);", "(expr (() f 1) ;)"),
    ("1 + 2", "(expr (+ 1 2))"),
    ("'abc'", "(expr 'abc')"),
    ("[a b]", "(expr (matrix (a b)))"),
    # --- assignments and display ----------------------------------------------
    ("x = 1", "(assign x 1)"),
    ("x = 1;", "(assign x 1 ;)"),
    ("x = 1,", "(assign x 1)"),
    ("x=1", "(assign x 1)"),
    ("a =b", "(assign a b)"),
    ("x = 1;;", "(assign x 1 ;)"),
    ("x = 1;   % comment", "(assign x 1 ;)"),
    # --- separators: ',' ';' newline --------------------------------------
    ("x = 1, y = 2", "(assign x 1)\n(assign y 2)"),
    ("x = 1; y = 2;", "(assign x 1 ;)\n(assign y 2 ;)"),
    ("x = 1\ny = 2", "(assign x 1)\n(assign y 2)"),
    ("x = 1;; y = 2", "(assign x 1 ;)\n(assign y 2)"),
    ("x = 1,, y = 2", "(assign x 1)\n(assign y 2)"),
    ("a = b';c = d'", "(assign a (' b) ;)\n(assign c (' d))"),
    (";", ""),
    (",", ""),
    ("\n\n", ""),
    # --- if / elseif / else ----------------------------------------------
    ("if x, y=1; end", "(if (x (assign y 1 ;)))"),
    ("if x; y; end", "(if (x (expr y ;)))"),
    ("if a, end", "(if (a))"),
    ("if x\n a\nelseif y\n b\nelse\n c\nend",
     "(if (x (expr a)) (y (expr b)) (else (expr c)))"),
    ("if a, b, elseif c, d, else, e, end",
     "(if (a (expr b)) (c (expr d)) (else (expr e)))"),
    ("if x\n a\nelseif y\n b\nelseif z\n c\nend",
     "(if (x (expr a)) (y (expr b)) (z (expr c)))"),
    ("if x\nelse if y\n a\nend\nend", "(if (x) (else (if (y (expr a)))))"),
    ("if x > 0\n y = 1;\nend", "(if ((> x 0) (assign y 1 ;)))"),
    ("if(x) y = 1; end", "(if ((paren x) (assign y 1 ;)))"),
    ("if x\n if y\n  a\n end\nend", "(if (x (if (y (expr a)))))"),
    # --- for / parfor -------------------------------------------------------
    ("for k=1:3, disp(k), end", "(for k (: 1 3) (expr (() disp k)))"),
    ("for k = 1:3\n s = s + k;\nend", "(for k (: 1 3) (assign s (+ s k) ;))"),
    ("for (k = 1:n)\n a\nend", "(for k (: 1 n) (expr a))"),
    ("for (k = 1:3) disp(k); end", "(for k (: 1 3) (expr (() disp k) ;))"),
    ("for k = x, end", "(for k x)"),
    ("for k = v'\nend", "(for k (' v))"),
    ("for k = [1 2; 3 4]\nend", "(for k (matrix (1 2) (3 4)))"),
    ("for x = {1, 2}\nend", "(for x (cell (1 2)))"),
    ("for k = 1:3 % loop\nend", "(for k (: 1 3))"),
    ("parfor k = 1:n\n a\nend", "(parfor k (: 1 n) (expr a))"),
    ("parfor (k = 1:n)\n a\nend", "(parfor k (: 1 n) (expr a))"),
    ("parfor (k = 1:n, 4)\n a\nend", "(parfor k (: 1 n) (workers 4) (expr a))"),
    ("parfor (k = 1:n, M)\nend", "(parfor k (: 1 n) (workers M))"),
    # --- while --------------------------------------------------------------
    ("while x > 0\n x = x - 1;\nend", "(while (> x 0) (assign x (- x 1) ;))"),
    ("while k < 3, k = k + 1; end", "(while (< k 3) (assign k (+ k 1) ;))"),
    ("while (x > 0)\nend", "(while (> x 0))"),
    ("while true\n break\nend", "(while true (break))"),
    # --- switch / case / otherwise -----------------------------------------
    ("switch x\n case 1\n a\n case {2, 3}\n b\n otherwise\n c\nend",
     "(switch x (case 1 (expr a)) (case (cell (2 3)) (expr b)) (otherwise (expr c)))"),
    ("switch x, case 1, y = 1; otherwise, y = 2; end",
     "(switch x (case 1 (assign y 1 ;)) (otherwise (assign y 2 ;)))"),
    ("switch x\ncase 1, a = 1;\notherwise a = 2;\nend",
     "(switch x (case 1 (assign a 1 ;)) (otherwise (assign a 2 ;)))"),
    ("switch lower(s)\n case 'a'\n x\nend", "(switch (() lower s) (case 'a' (expr x)))"),
    ("switch s, case'a', x, end", "(switch s (case 'a' (expr x)))"),
    ("switch s\n case {'a', 'b'}\n x\nend", "(switch s (case (cell ('a' 'b')) (expr x)))"),
    ("switch x\nend", "(switch x)"),
    ("switch x\n % comment\n case 1\nend", "(switch x (case 1))"),
    ("switch (x)\ncase 1\nend", "(switch (paren x) (case 1))"),
    # --- try / catch ---------------------------------------------------------
    ("try\n a\ncatch ME\n b\nend", "(try ((expr a)) (catch ME (expr b)))"),
    ("try, x; catch err, y; end", "(try ((expr x ;)) (catch err (expr y ;)))"),
    ("try\n a\ncatch\n b\nend", "(try ((expr a)) (catch (expr b)))"),
    ("try, a, catch, b, end", "(try ((expr a)) (catch (expr b)))"),
    ("try\n a\nend", "(try ((expr a)))"),
    ("try\n x\ncatch\nend", "(try ((expr x)) (catch))"),
    ("try, catch ME, end", "(try () (catch ME))"),
    ("try\ncatch ME\n rethrow(ME)\nend", "(try () (catch ME (expr (() rethrow ME))))"),
    ("try\n x\ncatch ME, disp(ME.message)\nend",
     "(try ((expr x)) (catch ME (expr (() disp (. ME message)))))"),
    ("try\ncatch ME;\nend", "(try () (catch ME))"),
    # --- break / continue / return -----------------------------------------
    ("break", "(break)"),
    ("continue", "(continue)"),
    ("return", "(return)"),
    ("return;", "(return)"),
    ("for k = 1:3\n if k == 2, continue, end\n if k == 3, break; end\nend",
     "(for k (: 1 3) (if ((== k 2) (continue))) (if ((== k 3) (break))))"),
    # --- global / persistent --------------------------------------------------
    ("global a b", "(global a b)"),
    ("global a b;", "(global a b)"),
    ("global g", "(global g)"),
    ("persistent n", "(persistent n)"),
    ("persistent x y", "(persistent x y)"),
    # --- relaxed terminators -------------------------------------------------
    ("if x > 0;\n y = 1;\nend;", "(if ((> x 0) (assign y 1 ;)))"),
    ("for k = 1:3; end;", "(for k (: 1 3))"),
    ("for k = 1:3,\nend,", "(for k (: 1 3))"),
    ("while x;\nend", "(while x)"),
    ("switch x;\ncase 1;\nend;", "(switch x (case 1))"),
    ("try;\ncatch;\nend", "(try () (catch))"),
    ("if x\nelseif y;\nelse;\nend", "(if (x) (y) (else))"),
    # --- assignment targets -------------------------------------------------
    ("x(2,:) = []", "(assign (() x 2 :) (matrix))"),
    ("x(:) = 0", "(assign (() x :) 0)"),
    ("x(end+1) = 1", "(assign (() x (+ end 1)) 1)"),
    ("x{end+1} = 'a'", "(assign ({} x (+ end 1)) 'a')"),
    ("s(3).name = 'a'", "(assign (. (() s 3) name) 'a')"),
    ("c{2}(3) = 5", "(assign (() ({} c 2) 3) 5)"),
    ("a.b.c = 1", "(assign (. (. a b) c) 1)"),
    ("s.a.b(2).c = 1", "(assign (. (() (. (. s a) b) 2) c) 1)"),
    ("x.(name) = v", "(assign (.() x name) v)"),
    ("x.('a b') = 1", "(assign (.() x 'a b') 1)"),
    ("a(1).(f){2} = 3", "(assign ({} (.() (() a 1) f) 2) 3)"),
    ("s.end = 1", "(assign (. s end) 1)"),
    ("f(x) = 1", "(assign (() f x) 1)"),
    # --- multiple assignment ---------------------------------------------------
    ("[a, b] = f(x)", "(assign [a b] (() f x))"),
    ("[a b] = f(x)", "(assign [a b] (() f x))"),
    ("[a, b] = f(x);", "(assign [a b] (() f x) ;)"),
    ("[a b]=f", "(assign [a b] f)"),
    ("[ a , b ] = f", "(assign [a b] f)"),
    ("[a] = f", "(assign [a] f)"),
    ("[~, i] = max(v)", "(assign [~ i] (() max v))"),
    ("[a, ~] = f", "(assign [a ~] f)"),
    ("[~] = f", "(assign [~] f)"),
    ("[s.f] = deal(0)", "(assign [(. s f)] (() deal 0))"),
    ("[s.(f)] = deal(0)", "(assign [(.() s f)] (() deal 0))"),
    ("[c{1:2}] = deal(1, 2)", "(assign [({} c (: 1 2))] (() deal 1 2))"),
    ("[x{:}] = f", "(assign [({} x :)] f)"),
    ("[a(1), b.c] = f", "(assign [(() a 1) (. b c)] f)"),
    ("[a(x == 1), b] = f", "(assign [(() a (== x 1)) b] f)"),
    ("[a{'}'}] = f", "(assign [({} a '}')] f)"),
    ("[x, y,] = f()", "(assign [x y] (() f))"),
    ("[a, ...\n b] = deal(1, 2)", "(assign [a b] (() deal 1 2))"),
    ("[a, b] ...\n = deal(1, 2)", "(assign [a b] (() deal 1 2))"),
    ("if x, [a, b] = f; end", "(if (x (assign [a b] f ;)))"),
    # --- not assignments ------------------------------------------------------
    ("[a b] == c", "(expr (== (matrix (a b)) c))"),
    ("[a, b] == c", "(expr (== (matrix (a b)) c))"),
    ("x == 1", "(expr (== x 1))"),
]


@pytest.mark.parametrize("src, expected", CASES, ids=[src for src, _ in CASES])
def test_tree(src: str, expected: str) -> None:
    assert tree(src) == expected


# ------------------------------------------------------------- node details


def test_show_flags() -> None:
    body = program("x = 1; y = 2, z = 3\n[a, b] = f;").body
    assert [s.show for s in body] == [False, True, True, False]


def test_for_loop_nodes() -> None:
    loop = program("parfor (k = 1:n, 4)\nend").body[0]
    assert loop.parallel is True
    assert loop.var.name == "k"
    assert loop.workers.value == 4
    assert program("for k = 1:n\nend").body[0].parallel is False


def test_try_catch_nodes() -> None:
    t = program("try, x; catch err, y; end").body[0]
    assert t.catch_var == "err"
    assert len(t.body) == 1 and len(t.catch_body) == 1
    no_catch = program("try\n x\nend").body[0]
    assert no_catch.catch_body is None
    no_var = program("try\n x\ncatch\n y\nend").body[0]
    assert no_var.catch_var is None and len(no_var.catch_body) == 1


def test_multi_assign_targets() -> None:
    stmt = program("[~, i] = max(v);").body[0]
    assert [type(t).__name__ for t in stmt.targets] == ["Tilde", "Name"]
    assert stmt.show is False
