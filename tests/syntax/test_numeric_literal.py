"""The short way for big ``[...]`` literals of plain numbers (syntax/matrix_literal.py):
every tree, position and error is the one of the general path."""

from __future__ import annotations

import io
import pickle

import numpy as np
import pytest

from mlang.errors import MatlabSyntaxError
from mlang.evaluation.interpreter import Interpreter
from mlang.syntax import Parser, ast
from mlang.syntax.matrix_literal import MIN_ELEMENTS
from mlang.syntax.unparse import unparse

FAST = Parser()
GENERAL = Parser(fast_literals=False)

ROW = " ".join(str(k) for k in range(MIN_ELEMENTS))  # enough elements for the short way
SIGNED = " ".join(f"{'-+'[k % 2]}{k}.5e-{k % 3}" for k in range(MIN_ELEMENTS))


def flat(node: ast.Node) -> list[tuple]:
    """Every node of the tree with its position, a NumericMatrix read as its Matrix."""
    out: list[tuple] = []
    for n in ast.walk(node):
        if type(n) is ast.NumericMatrix:
            out.extend(flat(n.lower()))
        else:
            out.append((type(n).__name__, n.line, n.col, n.file, ast.dump(n)))
    return out


def numeric_matrices(program: ast.Program) -> list[ast.NumericMatrix]:
    return [n for n in ast.walk(program) if type(n) is ast.NumericMatrix]


def same_as_general(src: str) -> ast.Program:
    fast = FAST.parse(src, "t.m")
    general = GENERAL.parse(src, "t.m")
    assert fast == general
    assert ast.dump(fast) == ast.dump(general)
    assert flat(fast) == flat(general)
    return fast


SHORT_WAY = [
    f"x = [{ROW}];",
    f"x = [{SIGNED}]",
    f"x = [{ROW}; {SIGNED}];\ny = 2",
    f"x = [{ROW}\n{ROW}\n\n;;{ROW};]'",
    f"x = [ {ROW} ... a comment\n {ROW} % another\n   {SIGNED} ];\nz = 1 + 2",
    f"x = [{ROW.replace(' ', ', ')}];",
    f"x = [{ROW.replace(' ', ' ,  ')}; {ROW.replace(' ', chr(9))}];",
    f"x = [-0 +0 1. .5 1e5 1E+5 2.5e-300 1e999 {ROW}];",
    f"f([{ROW}], [{ROW}])",
    f"x = {{[{ROW}], 'a'}};",
    f"x = [[{ROW}] [{ROW}]];",
    f"x = [{ROW}];  y = [{ROW}]; [{ROW}]",
    f"if true\n  x = [{ROW} ...\n   {ROW}];\nend\nw = 3;",
    f"x = [{ROW}; 1 2 3];",  # rows of different lengths: an error when it runs
    f"x = [{ROW}] % ] [ 'a'\n",
]

GENERAL_WAY = [
    "x = [1 2 3];",  # too small
    f"x = [{ROW} 1 - 2];",
    f"x = [{ROW} 1-2];",
    f"x = [{ROW} a];",
    f"x = [{ROW} 3i];",
    f"x = [{ROW} 0xFF];",
    f"x = [{ROW} 1'];",
    f"x = [, {ROW}];",
    f"x = [{ROW},];",
    f"x = [{ROW},, 1];",
    f"x = [{ROW} 1...\n];",
    f"x = [{ROW}\n%{{\n5\n%}}\n];",
    f"x = [{ROW} - 1];",
    f"x = [{ROW} +-1];",
    f"x = [{ROW} 1 end];",
    f"x = [{ROW} '1'];",
    f"x = [{ROW}, ...\n 1];",
    f"[{ROW}] = f()",
]


@pytest.mark.parametrize("src", SHORT_WAY)
def test_short_way_gives_the_general_tree(src: str) -> None:
    program = same_as_general(src)
    assert numeric_matrices(program)


@pytest.mark.parametrize("src", GENERAL_WAY)
def test_other_brackets_take_the_general_way(src: str) -> None:
    try:
        program = FAST.parse(src, "t.m")
    except MatlabSyntaxError as fast_error:
        with pytest.raises(MatlabSyntaxError) as info:
            GENERAL.parse(src, "t.m")
        general_error = info.value
        assert (str(fast_error), fast_error.line, fast_error.col) == \
            (str(general_error), general_error.line, general_error.col)
        return
    assert not numeric_matrices(program)
    same_as_general(src)


def test_values_are_those_of_the_numbers() -> None:
    node = numeric_matrices(FAST.parse(f"x = [{SIGNED}; {ROW}];"))[0]
    expected = [[float(t) for t in SIGNED.split()], [float(t) for t in ROW.split()]]
    assert node.values == expected
    assert str(node.values[0][0]) == "-0.5"


@pytest.mark.parametrize("tail", ["x = = 1", "x = [1 2", "y = (1 + 2", "z = 1 +", f"[{ROW}](3)",
                                  f"[{ROW}] [{ROW}]", f"[{ROW}]'a'"])
def test_errors_after_a_literal_point_at_the_same_place(tail: str) -> None:
    src = f"a = [{ROW}\n{ROW} ...\n{ROW}]; b = 1;\n{tail}\n"
    with pytest.raises(MatlabSyntaxError) as fast:
        FAST.parse(src, "t.m")
    with pytest.raises(MatlabSyntaxError) as general:
        GENERAL.parse(src, "t.m")
    assert (str(fast.value), fast.value.line, fast.value.col, fast.value.source_line) == \
        (str(general.value), general.value.line, general.value.col, general.value.source_line)


def test_unparse_and_pickle_keep_the_literal() -> None:
    program = same_as_general(f"x = [{SIGNED}; {ROW}];")
    assert unparse(program) == unparse(GENERAL.parse(f"x = [{SIGNED}; {ROW}];"))
    copy = pickle.loads(pickle.dumps(program))
    assert flat(copy) == flat(program)


def run(code: str) -> Interpreter:
    interp = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    interp.eval(code)
    return interp


def test_a_big_literal_evaluates_to_its_values() -> None:
    interp = run(f"x = [{SIGNED}; {ROW}]; y = [{ROW}]';")
    expected = np.array([[float(t) for t in SIGNED.split()], [float(t) for t in ROW.split()]])
    assert np.array_equal(np.asarray(interp.get("x")), expected)
    assert np.asarray(interp.get("y")).shape == (MIN_ELEMENTS, 1)


def test_rows_of_different_lengths_are_matlabs_concatenation_error() -> None:
    out = io.StringIO()
    interp = Interpreter(stdout=out, stderr=out)
    interp.eval(f"try, x = [{ROW}; 1 2 3]; catch e, disp(e.message), end")
    general = io.StringIO()
    interp = Interpreter(stdout=general, stderr=general)
    interp.eval("try, x = [1 2 3; 1 2]; catch e, disp(e.message), end")
    assert out.getvalue() == general.getvalue()
    assert "consistent" in out.getvalue()
