"""A big literal of plain numbers is compiled to one double matrix: its value equals the
general path's, and stores into a variable holding it never reach the literal."""

from __future__ import annotations

import io

import numpy as np

from mlang.evaluation.interpreter import Interpreter

ROW = " ".join(str(k) for k in range(1, 41))


def _run(code: str) -> Interpreter:
    interp = Interpreter(stdout=io.StringIO())
    interp.eval(code)
    return interp


def test_a_big_literal_has_the_general_paths_value():
    interp = _run(f"a = [{ROW}; {ROW}];"
                  f"c = [-1.5e3 2 .5 1e-3 {ROW}]; d = [-1.5e3, 2, .5, 1e-3, {ROW.replace(' ', ', ')}];")
    a, c, d = interp.get("a"), interp.get("c"), interp.get("d")
    assert a.shape == (2, 40) and a.dtype == np.float64
    assert np.array_equal(a[1], np.arange(1, 41))
    assert np.array_equal(c, d) and c[0, :4].tolist() == [-1500.0, 2.0, 0.5, 0.001]


def test_stores_into_a_variable_do_not_change_the_literal():
    interp = _run(f"for k = 1:3, y = [{ROW}]; y(1) = y(1) + k; y(end+1) = k; r(k) = y(1); end")
    assert interp.get("r").tolist() == [[2.0, 3.0, 4.0]]


def test_rows_of_different_lengths_give_matlabs_error():
    interp = _run(f"try, z = [{ROW}; 1 2]; catch e, id = e.identifier; end")
    assert interp.get("id") == "MATLAB:catenate:dimensionMismatch"
