"""Program units: scripts, function files, local and nested functions, function
signatures, and ``arguments`` validation blocks.

``tree`` prints a script's statements first, then its functions; a function
dumps as ``(function NAME (in PARAMS) (out OUTPUTS) ARGUMENTS... BODY... NESTED...)``.
"""

from __future__ import annotations

import pytest

from tests.syntax.util import program, syntax_error, tree

CASES: list[tuple[str, str]] = [
    # --- function files ------------------------------------------------------
    ("function f\n x = 1;\nend", "(function f (in) (out) (assign x 1 ;))"),
    ("function f\n x = 1;", "(function f (in) (out) (assign x 1 ;))"),
    ("function f\nend", "(function f (in) (out))"),
    ("function f()\nend", "(function f (in) (out))"),
    ("function f % comment\nend", "(function f (in) (out))"),
    ("% header\nfunction f\nend", "(function f (in) (out))"),
    ("\n\nfunction f\nend\n\n", "(function f (in) (out))"),
    ("function y = f(x)\n y = x;\nend\nfunction z = g()\n z = 1;\nend",
     "(function f (in x) (out y) (assign y x ;))\n(function g (in) (out z) (assign z 1 ;))"),
    ("function y = f(x)\n y = g(x);\nfunction z = g(x)\n z = x;",
     "(function f (in x) (out y) (assign y (() g x) ;))\n(function g (in x) (out z) (assign z x ;))"),
    ("function f\nend\n% trailing comment\n", "(function f (in) (out))"),
    # --- signatures ----------------------------------------------------------
    ("function varargout = f(varargin)\nend", "(function f (in varargin) (out varargout))"),
    ("function f(varargin)\nend", "(function f (in varargin) (out))"),
    ("function f(~, x)\nend", "(function f (in ~ x) (out))"),
    ("function f(x, ~)\nend", "(function f (in x ~) (out))"),
    ("function f(~)\nend", "(function f (in ~) (out))"),
    ("function [a, b] = f()\nend", "(function f (in) (out a b))"),
    ("function [a b] = f()\nend", "(function f (in) (out a b))"),
    ("function [a,b]=f(x)\nend", "(function f (in x) (out a b))"),
    ("function [y] = f(x)\nend", "(function f (in x) (out y))"),
    ("function [] = f()\nend", "(function f (in) (out))"),
    ("function y=f\nend", "(function f (in) (out y))"),
    ("function f(x);\n y = x;\nend", "(function f (in x) (out) (assign y x ;))"),
    ("function y = f(x), y = 1; end", "(function f (in x) (out y) (assign y 1 ;))"),
    ("function [a, ...\n b] = f(x, ...\n y)\nend", "(function f (in x y) (out a b))"),
    # --- scripts with local functions -----------------------------------------
    ("x = 1;\nfunction f\nend", "(assign x 1 ;)\n(function f (in) (out))"),
    ("x = f(2)\nfunction y = f(x)\n y = 2 * x;\nend\nfunction g\nend",
     "(assign x (() f 2))\n(function f (in x) (out y) (assign y (* 2 x) ;))\n(function g (in) (out))"),
    # --- nested functions -------------------------------------------------------
    ("function outer\n x = 1;\n function inner\n  x = 2;\n end\n inner;\nend",
     "(function outer (in) (out) (assign x 1 ;) (expr inner ;) (function inner (in) (out) (assign x 2 ;)))"),
    ("function a\n function b\n  function c\n  end\n end\nend\nfunction d\nend",
     "(function a (in) (out) (function b (in) (out) (function c (in) (out))))\n(function d (in) (out))"),
    # --- arguments blocks ------------------------------------------------------
    ("function f(x)\n arguments\n  x (1,:) double {mustBePositive} = 1\n end\nend",
     "(function f (in x) (out) (arguments (x (size 1 :) (class double) (validators mustBePositive) (default 1))))"),
    ("function f(x)\n arguments\n  x\n end\nend", "(function f (in x) (out) (arguments (x)))"),
    ("function f\n arguments\n end\nend", "(function f (in) (out) (arguments))"),
    ("function f(x)\n arguments\n  x (3,3)\n end\nend",
     "(function f (in x) (out) (arguments (x (size 3 3))))"),
    ("function f(x)\n arguments\n  x(1,1) double\n end\nend",
     "(function f (in x) (out) (arguments (x (size 1 1) (class double))))"),
    ("function f(x)\n arguments\n  x logical\n end\nend",
     "(function f (in x) (out) (arguments (x (class logical))))"),
    ("function f(x)\n arguments\n  x (:,:) matlab.lang.OnOffSwitchState\n end\nend",
     "(function f (in x) (out) (arguments (x (size : :) (class matlab.lang.OnOffSwitchState))))"),
    ("function f(x)\n arguments\n  x (1,:) {mustBeNumeric, mustBeFinite}\n end\nend",
     "(function f (in x) (out) (arguments (x (size 1 :) (validators mustBeNumeric mustBeFinite))))"),
    ("function f(x)\n arguments\n  x (1,1) double {mustBeInRange(x, 0, 1)}\n end\nend",
     "(function f (in x) (out) (arguments (x (size 1 1) (class double) (validators (() mustBeInRange x 0 1)))))"),
    ("function f(x)\n arguments\n  x (1,:) char {mustBeMember(x, {'a', 'b'})} = 'a'\n end\nend",
     "(function f (in x) (out) (arguments (x (size 1 :) (class char) "
     "(validators (() mustBeMember x (cell ('a' 'b')))) (default 'a'))))"),
    ("function f(x)\n arguments\n  x (1,1) {mustBePositive(x)} = 2*pi\n end\nend",
     "(function f (in x) (out) (arguments (x (size 1 1) (validators (() mustBePositive x)) (default (* 2 pi)))))"),
    ("function f(x)\n arguments\n  x (1,1) double {mustBePositive} = 1; % c\n end\nend",
     "(function f (in x) (out) (arguments (x (size 1 1) (class double) (validators mustBePositive) (default 1))))"),
    # defaults are ordinary expressions, calls and indexing included
    ("function f(x)\n arguments\n  x (1,3) double = zeros(1, 3)\n end\nend",
     "(function f (in x) (out) (arguments (x (size 1 3) (class double) (default (() zeros 1 3)))))"),
    ("function f(x, y)\n arguments\n  x\n  y = size(x, 1)\n end\nend",
     "(function f (in x y) (out) (arguments (x) (y (default (() size x 1)))))"),
    ("function f(x, y)\n arguments\n  x\n  y = x(end)\n end\nend",
     "(function f (in x y) (out) (arguments (x) (y (default (() x end)))))"),
    ("function f(x)\n arguments\n  x cell = {}\n end\nend",
     "(function f (in x) (out) (arguments (x (class cell) (default (cell)))))"),
    ("function f(a, b)\n arguments\n  a\n  % comment\n  b = a + 1 % trailing\n end\n disp(b)\nend",
     "(function f (in a b) (out) (arguments (a) (b (default (+ a 1)))) (expr (() disp b)))"),
    # name-value options
    ("function f(x, opts)\n arguments\n  x\n  opts.Name (1,1) string = \"a\"\n"
     "  opts.Size {mustBeInteger, mustBePositive} = 3\n end\nend",
     "(function f (in x opts) (out) (arguments (x) (opts.Name (size 1 1) (class string) (default \"a\")) "
     "(opts.Size (validators mustBeInteger mustBePositive) (default 3))))"),
    ("function f(opts)\n arguments\n  opts.Color = [1 0 0]\n end\nend",
     "(function f (in opts) (out) (arguments (opts.Color (default (matrix (1 0 0))))))"),
    # attributes, several blocks
    ("function f(varargin)\n arguments (Repeating)\n  varargin double\n end\nend",
     "(function f (in varargin) (out) (arguments Repeating (varargin (class double))))"),
    ("function f(x, y)\n arguments (Repeating)\n  x (1,:) double\n  y (1,:) double\n end\nend",
     "(function f (in x y) (out) (arguments Repeating (x (size 1 :) (class double)) (y (size 1 :) (class double))))"),
    ("function r = f(x)\n arguments (Input)\n  x\n end\n arguments (Output)\n  r double\n end\n r = x;\nend",
     "(function f (in x) (out r) (arguments Input (x)) (arguments Output (r (class double))) (assign r x ;))"),
    ("function f(x)\n  arguments\n   x\n  end\n  arguments\n   x\n  end\nend",
     "(function f (in x) (out) (arguments (x)) (arguments (x)))"),
    # comments and blank lines may come before the block
    ("function f(x)\n% help\n arguments\n  x\n end\nend", "(function f (in x) (out) (arguments (x)))"),
    ("function f(x)\n\n arguments\n  x\n end\nend", "(function f (in x) (out) (arguments (x)))"),
    ("function f(x)\n %{\n help\n %}\n arguments\n  x\n end\nend", "(function f (in x) (out) (arguments (x)))"),
    # in nested and script-local functions; continuation inside a spec line
    ("function a\n function b(x)\n  arguments\n   x double\n  end\n end\nend",
     "(function a (in) (out) (function b (in x) (out) (arguments (x (class double)))))"),
    ("y = 1;\nfunction b(x)\n arguments\n  x double\n end\nend",
     "(assign y 1 ;)\n(function b (in x) (out) (arguments (x (class double))))"),
    ("function f(x)\n arguments\n  x (1,1) ...\n    double\n end\nend",
     "(function f (in x) (out) (arguments (x (size 1 1) (class double))))"),
    ("function b(x)\n arguments\n  x double\n end\n x -1\nend",
     "(function b (in x) (out) (arguments (x (class double))) (expr (- x 1)))"),
    # 'arguments' is an ordinary name elsewhere
    ("function f\n arguments = 3;\nend", "(function f (in) (out) (assign arguments 3 ;))"),
    ("arguments = 1", "(assign arguments 1)"),
]


@pytest.mark.parametrize("src, expected", CASES, ids=[src for src, _ in CASES])
def test_tree(src: str, expected: str) -> None:
    assert tree(src) == expected


# ------------------------------------------------------------ program kind


@pytest.mark.parametrize("src, is_script", [
    ("", True),
    ("% just a comment", True),
    ("x = 1", True),
    ("x = 1;\nfunction f\nend", True),
    ("function f\nend", False),
    ("% header comment\nfunction f\nend", False),
    ("%{\nblock\n%}\nfunction f\nend", False),
    ("\n\nfunction f\nend", False),
    ("function f\nx\nfunction g\ny", False),
    ("\ufefffunction f\r\nend\r\n", False),
])
def test_is_script(src: str, is_script: bool) -> None:
    assert program(src).is_script is is_script


def test_script_with_local_functions() -> None:
    p = program("x = f(2);\ndisp(x)\nfunction y = f(x)\n y = 2 * x;\nend\nfunction g\nend\n")
    assert p.is_script
    assert len(p.body) == 2
    assert [f.name for f in p.functions] == ["f", "g"]
    assert all(f.has_end for f in p.functions)


def test_function_file_with_end() -> None:
    p = program("function y = f(x)\n y = g(x);\nend\nfunction z = g(x)\n z = x;\nend\n")
    assert not p.is_script
    assert p.body == []
    assert [(f.name, f.has_end) for f in p.functions] == [("f", True), ("g", True)]
    f = p.functions[0]
    assert f.params == ["x"] and f.outputs == ["y"]


def test_function_file_without_end() -> None:
    p = program("function y = f(x)\n y = g(x);\nfunction z = g(x)\n z = x;\n")
    assert [(f.name, f.has_end) for f in p.functions] == [("f", False), ("g", False)]
    assert len(p.functions[0].body) == 1 and len(p.functions[1].body) == 1


def test_nested_functions() -> None:
    p = program("function outer\n x = 1;\n function inner\n  x = 2;\n end\n"
                " function inner2\n end\n inner;\nend\nfunction local\nend\n")
    outer, local = p.functions
    assert [g.name for g in outer.functions] == ["inner", "inner2"]
    assert len(outer.body) == 2  # the nested functions are not statements
    assert outer.functions[0].has_end
    assert local.functions == []


def test_ignored_inputs() -> None:
    f = program("function f(~, x, ~)\nend").functions[0]
    assert f.params == [None, "x", None]


def test_arguments_block_nodes() -> None:
    f = program("function f(x, opts)\n arguments\n  x (1,:) double {mustBePositive} = 1\n"
                "  opts.Name string\n end\n arguments (Repeating)\n end\n y = 1;\nend").functions[0]
    assert len(f.arguments) == 2
    first, second = f.arguments
    assert first.attributes == [] and second.attributes == ["Repeating"]
    x, name = first.specs
    assert x.name == ["x"]
    assert [type(d).__name__ for d in x.size] == ["Number", "Colon"]
    assert x.cls == "double"
    assert [v.name for v in x.validators] == ["mustBePositive"]
    assert x.default.value == 1
    assert name.name == ["opts", "Name"] and name.cls == "string"
    assert name.size is None and name.default is None
    assert len(f.body) == 1


def test_function_positions() -> None:
    p = program("function f\nend\n\nfunction g\nend")
    assert [(f.name, f.line, f.col) for f in p.functions] == [("f", 1, 1), ("g", 4, 1)]


def test_classdef_not_supported() -> None:
    err = syntax_error("classdef Foo\n properties\n  x\n end\nend")
    assert "classdef" in err.message
    assert "not supported yet" in err.message
    assert (err.line, err.col) == (1, 1)
