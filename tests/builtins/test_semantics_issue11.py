"""MATLAB semantics of library functions: polynomial edge cases, text comparison
of sizes, function-handle equality, exist(''), shapes kept by element-wise
integer functions, and norms of very large and very small values."""

import io

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter


def rows(v) -> list:
    return np.asarray(v).tolist()


# ------------------------------------------------------------------ polynomials


def test_roots_drops_relatively_zero_leading_coefficients(m):
    # dividing by 1e-200 overflows, so MATLAB drops that leading term
    assert m.value("x = roots([1e-200, -1e200, 1]);") == 1e-200
    assert rows(m.value("x = roots([1e-300 0 1e300]);")) == []
    assert m.value("x = roots([1e-300 0 1e300]);").shape == (0, 1)
    r = np.asarray(m.value("x = roots([1e-300 1e300 1e300 1]);")).reshape(-1)
    assert r.size == 2 and r[0] == pytest.approx(-1.0)


def test_roots_puts_the_zero_roots_first(m):
    r = np.asarray(m.value("x = roots([1 -3 2 0 0]);")).reshape(-1)
    assert r[:2].tolist() == [0.0, 0.0]
    assert sorted(r[2:].tolist()) == pytest.approx([1.0, 2.0])


def test_roots_rejects_nonfinite_input(m):
    assert m.fails("x = roots([1 NaN 2]);").identifier == "MATLAB:roots:NonFiniteInput"
    assert m.fails("x = roots([Inf 1]);").identifier == "MATLAB:roots:NonFiniteInput"


def test_poly_from_roots_and_from_a_matrix(m):
    assert rows(m.value("x = poly([2 -3]);")) == [[1.0, 1.0, -6.0]]
    assert rows(m.value("x = poly([1+2i 1-2i]);")) == [[1.0, -2.0, 5.0]]
    assert np.isrealobj(m.value("x = poly([1+2i 1-2i]);"))
    assert np.allclose(m.value("x = poly([1 2 3; 4 5 6; 7 8 0]);"), [[1, -6, -72, -27]])
    assert rows(m.value("x = poly([1 Inf NaN 2]);")) == [[1.0, -3.0, 2.0]]  # non-finite roots left out
    assert m.value("x = poly([]);") == 1.0
    assert m.value("x = poly(single([1 2]));").dtype == np.float32


def test_poly_errors(m):
    assert m.fails("x = poly(ones(2,3));").identifier == "MATLAB:poly:InputSize"
    assert m.fails("x = poly([1 NaN; 1 1]);").identifier == "MATLAB:eig:matrixWithNaNInf"


def test_polyfit_of_nonfinite_data_is_nan_without_lapack_noise(m, capfd):
    assert np.isnan(m.value("x = polyfit(NaN, NaN, 2);")).all()
    assert np.isnan(m.value("x = polyfit([1 2 3], [1 Inf 3], 1);")).all()
    assert "DLASCL" not in capfd.readouterr().out


HOSTILE = ["[]", "zeros(1,0)", "NaN", "Inf", "[1 NaN]", "[1e-300 1e300 1]", "[1e308 1e308]",
           "[1+2i 3-1i]", "0", "[0 0]", "single([1 2])", "[1 2;3 4]", "1e-320", "'ab'"]


@pytest.mark.parametrize("call", [
    *(f"roots({a})" for a in HOSTILE),
    *(f"poly({a})" for a in HOSTILE),
    *(f"polyval({a}, {b})" for a in HOSTILE for b in HOSTILE[:8]),
    *(f"conv({a}, {b})" for a in HOSTILE for b in HOSTILE[:8]),
    *(f"deconv({a}, {b})" for a in HOSTILE for b in HOSTILE[:8]),
    *(f"polyfit({a}, {b}, 1)" for a in HOSTILE for b in HOSTILE[:8]),
    *(f"interp1({a}, {b}, 1.5)" for a in HOSTILE for b in HOSTILE[:8]),
])
def test_polynomial_functions_never_fail_inside_python(m, call):
    try:
        m.run(f"x = {call};")
    except MatlabError:
        pass


# ------------------------------------------------------------------ text comparison


def test_strcmp_needs_equal_sizes_of_char_arrays(m):
    assert not m.value("x = strcmp('', char(zeros(0,2)));")
    assert not m.value("x = strcmp('', char(zeros(1,0)));")
    assert not m.value("x = strcmpi('', char(zeros(0,2)));")
    assert m.value("x = strcmp('', '');")
    assert m.value("x = strcmp(['ab';'cd'], ['ab';'cd']);")
    assert not m.value("x = strcmp(['ab';'cd'], 'abcd');")
    assert m.value("x = strcmpi(['ab';'cd'], ['AB';'CD']);")


def test_strcmp_of_an_empty_char_and_an_empty_string(m):
    assert m.value("x = strcmp('', \"\");")
    assert m.value("x = strcmp(char(zeros(1,0)), \"\");")


def test_strcmp_cell_elements_keep_their_sizes(m):
    assert rows(m.value("x = strcmp({'', 'a', char(zeros(1,0))}, '');")) == [[True, False, False]]


def test_strncmp_compares_content_only(m):
    # identical "up to the end or the first n characters, whichever comes first"
    assert m.value("x = strncmp('', char(zeros(0,2)), 1);")
    assert m.value("x = strncmpi('', char(zeros(1,0)), 3);")
    assert m.value("x = strncmp('ab', 'abc', 2);")
    assert m.value("x = strncmpi('AB', 'abc', 2);")


# ------------------------------------------------------------------ function handles


def test_handles_to_the_same_named_function_are_equal(m):
    assert m.value("x = isequal(@sin, @sin);")
    assert m.value("x = isequal(@sin, @sin, @sin);")
    assert not m.value("x = isequal(@sin, @cos);")
    assert m.value("x = isequal({@sin}, {@sin});")
    assert m.value("x = isequal(struct('f', @sin), struct('f', @sin));")


def test_anonymous_functions_equal_only_their_copies(m):
    assert m.value("f = @(x) x; g = f; x = isequal(f, g);")
    assert not m.value("x = isequal(@(x) x, @(x) x);")
    assert not m.value("A = 5; f = @(x) A*x; g = @(x) A*x; x = isequal(f, g);")
    assert not m.value("x = isequal(@(x) sin(x), @sin);")


def test_handles_to_a_nested_function_are_equal_within_one_call(tmp_path):
    (tmp_path / "make_pair.m").write_text(
        "function [h1, h2] = make_pair()\nh1 = @inner;\nh2 = @inner;\n"
        "    function z = inner()\n        z = 1;\n    end\nend\n")
    (tmp_path / "main.m").write_text(
        "[a, b] = make_pair();\n[c, d] = make_pair();\nsame = isequal(a, b);\nother = isequal(a, c);\n")
    it = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    it.run_file(tmp_path / "main.m")
    assert it.base.vars["same"]
    assert not it.base.vars["other"]


# ------------------------------------------------------------------ exist


def test_exist_of_an_empty_name_is_zero(m):
    assert m.value("x = exist('');") == 0.0
    assert m.value("x = exist('', 'dir');") == 0.0
    assert m.value("x = exist(\"\");") == 0.0
    assert m.value("x = exist('.');") == 7.0  # the current folder still is one


# ------------------------------------------------------------------ integer functions keep shapes


def test_factorial_keeps_the_input_shape(m):
    assert rows(m.value("x = factorial([1 2; 3 4]);")) == [[1, 2], [6, 24]]
    assert rows(m.value("x = factorial(int8([1 2; 3 4]));")) == [[1, 2], [6, 24]]
    assert rows(m.value("x = factorial([0 1 2; 3 4 5]);")) == [[1, 1, 2], [6, 24, 120]]
    assert m.value("x = factorial(single([3; 4; 5]));").tolist() == [[6], [24], [120]]


def test_gcd_and_lcm_of_matrices_keep_positions(m):
    assert rows(m.value("x = gcd([2 4; 6 8], [4 6; 9 12]);")) == [[2, 2], [3, 4]]
    g, u, v = m.values("[g, u, v] = gcd([2 4; 6 8], 6);", "g", "u", "v")
    assert rows(g) == [[2, 2], [6, 2]]
    assert rows(u) == [[1, -1], [0, 1]] and rows(v) == [[0, 1], [1, -1]]
    assert rows(m.value("x = lcm([2 4; 6 8], [3 6; 4 5]);")) == [[6, 12], [12, 40]]
    assert rows(m.value("x = lcm(int16([2 4; 6 8]), int16(3));")) == [[6, 12], [6, 24]]


def test_isprime_and_nchoosek_keep_shapes(m):
    assert rows(m.value("x = isprime([2 4; 5 9]);")) == [[True, False], [True, False]]
    assert rows(m.value("x = nchoosek([1 2 3], 2);")) == [[1, 2], [1, 3], [2, 3]]


# ------------------------------------------------------------------ norms without overflow or underflow


@pytest.mark.parametrize("scale", [1e-300, 1e300])
def test_frobenius_norm_is_scaled(m, scale):
    assert m.value(f"x = norm({scale}*[1 2; 3 4], 'fro');") == pytest.approx(scale * np.sqrt(30))
    assert m.value(f"x = norm({scale}*[3 4]);") == pytest.approx(5 * scale)
    assert m.value(f"x = norm({scale}*[3 4], 3);") == pytest.approx(scale * 91 ** (1 / 3))
    assert m.value(f"x = norm({scale}*[1 2; 3 4]);") == pytest.approx(scale * 5.464985704219043)


@pytest.mark.parametrize("scale", [1e-300, 1e300])
def test_vecnorm_is_scaled(m, scale):
    two = np.asarray(m.value(f"x = vecnorm({scale}*[3 4; 4 3]);")) / scale
    assert np.allclose(two, [[5, 5]])
    three = np.asarray(m.value(f"x = vecnorm({scale}*[3 4; 4 3], 3);")) / scale
    assert np.allclose(three, [[91 ** (1 / 3)] * 2])


def test_norms_of_nonfinite_values(m):
    assert np.isnan(m.value("x = norm([1 NaN Inf], 3);"))
    assert m.value("x = norm([1 Inf 2], 3);") == np.inf
    assert np.isnan(m.value("x = norm([1 NaN; 2 3], 'fro');"))
    assert rows(m.value("x = vecnorm([1 2 NaN; 3 Inf 1], 3);"))[0][1] == np.inf
    assert m.value("x = hypot(1e300, 1e300);") == pytest.approx(np.sqrt(2) * 1e300)


def test_polyval_at_infinity(m):
    assert m.value("x = polyval([1 2], Inf);") == np.inf
    values = rows(m.value("x = polyval([1 0 0], [Inf -Inf NaN]);"))[0]
    assert values[:2] == [np.inf, np.inf] and np.isnan(values[2])
    assert rows(m.value("x = polyval([], [1 2]);")) == [[0.0, 0.0]]
    assert rows(m.value("x = polyval([1 2 3], [1 2; 3 4]);")) == [[6, 11], [18, 27]]
