"""A\\b and b/A: MATLAB's method choice (triangular, Cholesky, LU, QR with column
pivoting), its warnings and its class rules."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import char_text
from tests.running import run


def solve(code: str) -> tuple[object, str, str]:
    """``x`` after ``code``, the warning text printed and the last warning's identifier."""
    err = io.StringIO()
    interp = Interpreter(stdout=io.StringIO(), stderr=err)
    interp.eval("lastwarn('');\n" + code + "\n[lastmsg__, lastid__] = lastwarn;")
    ident = interp.base.vars["lastid__"]
    return interp.base.vars["x"], err.getvalue(), char_text(ident) if np.size(ident) else ""


def test_square_lu_solution():
    x, text, ident = solve("x = [1 2; 3 4] \\ [5; 6];")
    assert np.allclose(x, [[-4], [4.5]])
    assert text == "" and ident == ""


def test_scalar_divisor_is_elementwise():
    interp, _ = run("x = 2 \\ [4 6]; y = [4 6] / 2; z = int8(2) \\ int8([4 7]);")
    assert interp.base.vars["x"].tolist() == [[2, 3]]
    assert interp.base.vars["y"].tolist() == [[2, 3]]
    assert interp.base.vars["z"].tolist() == [[2, 4]]  # rounded like int8 division


def test_exactly_singular_warns_and_gives_lu_result():
    x, text, ident = solve("x = [1 2; 2 4] \\ [1; 2];")
    assert np.isnan(x).all() and x.shape == (2, 1)
    assert text == "Warning: Matrix is singular to working precision.\n"
    assert ident == "MATLAB:singularMatrix"
    x, _, ident = solve("x = [1 2; 2 4] \\ [1; 3];")
    assert x.reshape(-1).tolist() == [np.inf, -np.inf]
    assert ident == "MATLAB:singularMatrix"


def test_nearly_singular_warns_with_rcond():
    x, text, ident = solve("x = magic(4) \\ [34; 34; 34; 34];")
    assert ident == "MATLAB:nearlySingularMatrix"
    # '% e' formatting, as MATLAB prints it (a space before a positive number)
    assert re.fullmatch(r"Warning: Matrix is close to singular or badly scaled\. Results may be "
                        r"inaccurate\. RCOND =  \d\.\d{6}e-\d\d\.\n", text)
    rc = float(re.search(r"RCOND =  (\S+)\.\n", text).group(1))
    assert 0 < rc < np.finfo(float).eps
    magic4 = np.array([[16, 2, 3, 13], [5, 11, 10, 8], [9, 7, 6, 12], [4, 14, 15, 1]])
    assert np.allclose(magic4 @ x, 34)
    # LAPACK's LU gives this particular solution (Octave's too)
    assert np.allclose(x.reshape(-1), [1.652777777777778, 2.958333333333333,
                                       -0.958333333333333, 0.347222222222222])


def test_well_conditioned_gives_no_warning():
    _, text, ident = solve("x = [1 1e-20; 1 1] \\ [1; 2];")
    assert text == "" and ident == ""


def test_triangular_solves_by_substitution():
    x, text, _ = solve("x = [1 0; 2 3] \\ [1; 2];")
    assert x.reshape(-1).tolist() == [1, 0] and text == ""
    x, _, _ = solve("x = [2 1 1; 0 4 1; 0 0 5] \\ [4; 5; 5];")
    assert np.allclose(x.reshape(-1), [1, 1, 1])
    x, _, ident = solve("x = [1 2; 0 0] \\ [1; 1];")
    assert x.reshape(-1).tolist() == [-np.inf, np.inf]
    assert ident == "MATLAB:singularMatrix"
    x, _, _ = solve("x = [2 0 0; 1 4 0; 0 0 5] \\ [2; 5; NaN];")  # NaN in b spreads forward
    assert x[:2, 0].tolist() == [1, 1] and np.isnan(x[2, 0])


def test_hermitian_positive_definite_and_indefinite():
    x, text, _ = solve("x = [4 1; 1 3] \\ [1; 2];")
    assert np.allclose(x.reshape(-1), [1 / 11, 7 / 11]) and text == ""
    x, _, _ = solve("x = [1 2; 2 1] \\ [1; 1];")  # symmetric, not positive definite: LU
    assert np.allclose(x.reshape(-1), [1 / 3, 1 / 3])
    x, _, _ = solve("x = [2 1i; -1i 2] \\ [1; 1];")
    assert np.allclose(np.array([[2, 1j], [-1j, 2]]) @ x, [[1], [1]])


def test_rectangular_gives_basic_solution_and_rank_warning():
    x, text, ident = solve("x = [1 1; 1 1; 1 1] \\ [1; 2; 3];")
    assert x.reshape(-1).tolist() == pytest.approx([2, 0])
    assert text == "Warning: Rank deficient, rank = 1, tol =  1.153778e-15.\n"
    assert ident == "MATLAB:rankDeficientMatrix"
    # MATLAB's documented underdetermined example: a basic solution with a zero
    x, text, _ = solve("x = [1 2 0; 0 4 3] \\ [8; 18];")
    assert np.allclose(x.reshape(-1), [0, 4, 2 / 3]) and text == ""
    x, _, _ = solve("x = [1 0; 0 1; 1 1] \\ [1; 2; 4];")  # full rank least squares
    assert np.allclose(x.reshape(-1), [4 / 3, 7 / 3])
    x, text, _ = solve("x = zeros(2, 3) \\ [1; 2];")
    assert x.reshape(-1).tolist() == [0, 0, 0]
    assert text == "Warning: Rank deficient, rank = 0, tol =  0.000000e+00.\n"


def test_mrdivide_solves_from_the_right():
    x, text, _ = solve("x = [1 2; 3 4] / [5 6; 7 8];")
    assert np.allclose(x, [[3, -2], [2, -1]]) and text == ""
    x, _, ident = solve("x = [1 2 3] / [1 1 1; 1 1 1];")
    assert ident == "MATLAB:rankDeficientMatrix"
    assert np.allclose(x, [[2, 0]])
    x, _, ident = solve("x = [1 2] / [1 2; 2 4];")
    assert ident == "MATLAB:singularMatrix"


def test_single_in_single_out():
    interp, _ = run("x = single([2 1; 1 3]) \\ [1; 2]; y = [1 2] / single([2 0; 0 4]); "
                    "z = single([1 1; 1 2; 1 3]) \\ single([1; 2; 2]);")
    for name, expected in (("x", [[0.2], [0.6]]), ("y", [[0.5, 0.5]]), ("z", [[2 / 3], [0.5]])):
        value = interp.base.vars[name]
        assert value.dtype == np.float32
        assert np.allclose(value, expected, atol=1e-6)
    _, text, _ = solve("x = single([1 1; 1 1; 1 1]) \\ single([1; 2; 3]);")
    # tol = 3*eps('single')*|R(1,1)|, with R(1,1) = sqrt(3) in single
    assert re.fullmatch(r"Warning: Rank deficient, rank = 1, tol =  6\.1942\d\de-07\.\n", text)


def test_complex_logical_and_char_operands():
    x, _, _ = solve("x = [1+2i 2; 3 4] \\ [1; 1i];")
    assert np.allclose(np.array([[1 + 2j, 2], [3, 4]]) @ x, [[1], [1j]])
    x, _, _ = solve("x = [true false; false true] \\ [3; 4];")
    assert x.dtype == np.float64 and x.reshape(-1).tolist() == [3, 4]
    x, _, _ = solve("x = [2 0; 0 2] \\ ['a'; 'b'];")
    assert x.reshape(-1).tolist() == [48.5, 49]


def test_empty_and_non_finite_operands():
    interp, _ = run("x = zeros(0, 3) \\ zeros(0, 2); y = zeros(3, 0) \\ zeros(3, 1);")
    assert interp.base.vars["x"].shape == (3, 2) and not interp.base.vars["x"].any()
    assert interp.base.vars["y"].shape == (0, 1)
    x, _, _ = solve("x = [1 Inf; 2 3] \\ [1; 2];")
    assert np.isnan(x).all()


def test_errors():
    with pytest.raises(MatlabError) as info:
        run("x = [1 2; 3 4] \\ [1; 2; 3];")
    assert info.value.identifier == "MATLAB:dimagree"
    with pytest.raises(MatlabError) as info:
        run("x = [1 2 3] / [1 2; 3 4];")
    assert info.value.identifier == "MATLAB:dimagree"
    with pytest.raises(MatlabError) as info:
        run("x = int8([1 2; 3 4]) \\ int8([1; 2]);")
    assert info.value.identifier == "MATLAB:integerNotSupported"
    with pytest.raises(MatlabError) as info:
        run("x = ones(2, 2, 2) \\ [1; 2];")
    assert info.value.identifier == "MATLAB:NDArray"


def test_matrix_inverse_power_uses_the_same_solver():
    x, _, ident = solve("x = [1 2; 2 4] ^ -1;")
    assert ident == "MATLAB:singularMatrix"
    x, text, _ = solve("x = [2 0; 0 4] ^ -1;")
    assert np.allclose(x, [[0.5, 0], [0, 0.25]]) and text == ""
