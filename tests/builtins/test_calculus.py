"""Calculus (mlang/builtins/math: calculus, gridded, and polyder/polyint/polyvalm in
polynomials): gradient, del2, integral, quadgk, integral2, interp2, interpn; numbers
checked against MATLAB's documented examples and Octave."""

import numpy as np
import pytest


def close(v, expected, tol=1e-4) -> bool:
    return np.allclose(np.asarray(v), np.asarray(expected), atol=tol)


# ---------------------------------------------------------------- polynomials


def test_polyder(m):
    assert m.value("x = polyder([1 -2 0 0 11]);").tolist() == [[4, -6, 0, 0]]
    assert m.value("x = polyder([1 -2 0 0 11], [1 -10 15]);").tolist() == \
        [[6, -60, 140, -90, 22, -110]]
    q, d = m.values("[q, d] = polyder([1 0 -3 0 -1], [1 4]);", "q", "d")
    assert q.tolist() == [[3, 16, -3, -24, 1]] and d.tolist() == [[1, 8, 16]]
    assert m.value("x = polyder(5);") == 0.0
    assert m.value("x = polyder([0 0 1 2]);") == 1.0
    assert m.value("x = polyder(single([1 2 3]));").dtype == np.float32
    assert m.fails("polyder(ones(2))").exc.identifier == "MATLAB:polyder:InvalidInput"


def test_polyint_polyvalm(m):
    assert m.value("x = polyint([3 2 1]);").tolist() == [[1, 1, 1, 0]]
    assert m.value("x = polyint([3 2 1], 5);").tolist() == [[1, 1, 1, 5]]
    assert m.value("x = polyint([]);") == 0.0
    assert close(m.value("x = polyint([3 0 -4 10 -25]);"), [[0.6, 0, -4 / 3, 5, -25, 0]])
    assert m.value("x = polyvalm([1 2 3], [1 2; 3 4]);").tolist() == [[12, 14], [21, 33]]
    # the characteristic polynomial of a matrix annihilates it
    assert close(m.value("A = magic(3); x = polyvalm(poly(A), A);"), np.zeros((3, 3)), 1e-9)
    assert m.fails("polyvalm([1 2], [1 2 3])").exc.identifier == "MATLAB:polyvalm:NonSquareMatrix"


def test_cplxpair(m):
    out = m.value("x = cplxpair([2 1+3i 1-3i 1+1i 1-1i -1 5i -5i]);")
    assert close(out, [[-5j, 5j, 1 - 3j, 1 + 3j, 1 - 1j, 1 + 1j, -1, 2]])
    assert close(m.value("x = cplxpair([1+1i; 3; 1-1i]);"), [[1 - 1j], [1 + 1j], [3]])
    assert close(m.value("x = cplxpair([1+2i 3; 1-2i 4]);"), [[1 - 2j, 3], [1 + 2j, 4]])
    assert m.value("x = cplxpair([3 1 2]);").tolist() == [[1, 2, 3]]
    # roots of unity: equal magnitudes, pairs by increasing real part
    out = m.value("x = cplxpair(exp(2i*pi*(0:4)/5));")
    assert close(out.real, [[np.cos(4 * np.pi / 5)] * 2 + [np.cos(2 * np.pi / 5)] * 2 + [1]])
    assert out[0, 0].imag < 0 < out[0, 1].imag
    assert m.fails("cplxpair([1+2i 1-2i; 3 4])").exc.identifier == "MATLAB:cplxpair:ComplexValuesPaired"
    assert m.fails("cplxpair([1+2i 2])").exc.identifier == "MATLAB:cplxpair:ComplexValuesPaired"


def test_residue(m):
    r, p, k = m.values("[r, p, k] = residue([-4 8], [1 6 8]);", "r", "p", "k")
    assert close(r, [[-12], [8]]) and close(p, [[-4], [-2]]) and k.shape == (0, 0)
    r, p, k = m.values("[r, p, k] = residue([2 0 0 1 0], [1 0 1]);", "r", "p", "k")
    assert close(r, [[0.5 - 1j], [0.5 + 1j]]) and close(p, [[1j], [-1j]])
    assert k.tolist() == [[2, 0, -2]]
    # a repeated pole: one residue per power
    r, p = m.values("[r, p] = residue([1 0 1], [1 3 3 1]);", "r", "p")
    assert close(r, [[1], [-2], [2]]) and close(p, [[-1], [-1], [-1]])
    b, a = m.values("[b, a] = residue([-12; 8], [-4; -2], []);", "b", "a")
    assert close(b, [[-4, 8]]) and close(a, [[1, 6, 8]])
    b, a = m.values("[b, a] = residue([0.5-1i; 0.5+1i], [1i; -1i], [2 0 -2]);", "b", "a")
    assert close(b, [[2, 0, 0, 1, 0]]) and close(a, [[1, 0, 1]])


# ------------------------------------------------------------------ gradients


def test_gradient(m):
    fx, fy = m.values("[fx, fy] = gradient([1 2 4; 3 7 12; 0 1 1]);", "fx", "fy")
    assert fx.tolist() == [[1, 1.5, 2], [4, 4.5, 5], [1, 0.5, 0]]
    assert fy.tolist() == [[2, 5, 8], [-0.5, -0.5, -1.5], [-3, -6, -11]]
    assert m.value("x = gradient([1 4 9 16 25], 2);").tolist() == [[1.5, 2, 3, 4, 4.5]]
    assert close(m.value("x = gradient([1 4 9 16 25], [0 1 3 4 6]);"),
                 [[3, 2.6667, 4, 5.3333, 4.5]])
    fx, fy = m.values("[fx, fy] = gradient(magic(3), 2, [1 2 4]);", "fx", "fy")
    assert fx.tolist() == [[-3.5, -0.5, 2.5], [1, 1, 1], [2.5, -0.5, -3.5]]
    assert close(fy, [[-5, 4, 1], [-1.3333, 2.6667, -1.3333], [0.5, 2, -2.5]])
    assert m.value("x = gradient([1; 4; 9]);").tolist() == [[3], [4], [5]]
    assert m.value("x = gradient(7);") == 0.0
    g = m.values("[a, b, c] = gradient(reshape(1:24, 2, 3, 4));", "a", "b", "c")
    assert [float(v.flat[0]) for v in g] == [2, 1, 6]
    assert m.value("x = gradient(single([1 2 4]));").dtype == np.float32


def test_gradient_errors(m):
    assert m.fails("gradient([1 2 3], [1 2])").exc.identifier == "MATLAB:gradient:InvalidGridSpacing"
    assert m.fails("[a, b] = gradient([1 2 3]);").exc.identifier == "MATLAB:TooManyOutputs"


def test_del2(m):
    assert m.value("x = del2(magic(4));").tolist() == [[15, -5.5, -6.5, 9], [0.5, -5, -3, 3.5],
                                                      [-3.5, 3, 5, -0.5], [-9, 6.5, 5.5, -15]]
    assert m.value("x = del2([1 4 9 16 25 36]);").tolist() == [[0.5] * 6]
    assert close(m.value("x = del2(magic(4), 2, 3);")[0], [2.395833, -0.090278, -0.409722, 1.104167])
    assert close(m.value("x = del2([1 4 9 16], [0 1 3 4]);"), [[-0.5, -0.083333, 0.75, 1.166667]])
    # the Laplacian of x^2 + y^2 is 4: del2 gives a quarter of it
    assert close(m.value("[X, Y] = meshgrid(-2:2); x = del2(X.^2 + Y.^2);"), np.ones((5, 5)))
    assert m.value("x = del2([1 2]);").tolist() == [[0, 0]]


# ---------------------------------------------------------------- integration


def test_integral(m):
    assert m.value("x = integral(@(x) x.^2, 0, 1);") == pytest.approx(1 / 3)
    # MATLAB's examples: an improper integral, a contour integral through waypoints
    assert m.value("x = integral(@(x) exp(-x.^2 ).*log(x).^2, 0, Inf);") == \
        pytest.approx(1.9475, abs=1e-4)
    z = m.value("x = integral(@(z) 1./(2*z - 1), 0, 0, 'Waypoints', [1+1i, 1-1i]);")
    assert z == pytest.approx(-3.141592653589793j, abs=1e-8)
    out = m.value("x = integral(@(x) [x, 2*x; x.^2, 1], 0, 1, 'ArrayValued', true);")
    assert close(out, [[0.5, 1], [1 / 3, 1]], 1e-10)
    assert m.value("x = integral(@(x) 1./x, 2, 1);") == pytest.approx(-np.log(2))
    assert m.value("x = integral(@(x) exp(1i*x), 0, pi);") == pytest.approx(2j)
    assert m.value("x = integral(@(x) abs(x - 0.3), 0, 1, 'Waypoints', 0.3, 'RelTol', 1e-12);") \
        == pytest.approx(0.29, abs=1e-12)
    assert m.value("x = integral(@(x) x, 0, 0);") == 0.0
    assert m.value("x = integral(@(x) x, single(0), 1);").dtype == np.float32


def test_integral_warns_when_the_interval_limit_is_reached(m):
    m.run("x = integral(@(x) 1./x, 0, 1);")
    assert m.err.getvalue().startswith("Warning: Reached the limit on the maximum number of "
                                       "intervals in use.")
    m.run("x = quadgk(@(x) 1./x, 0, 1, 'MaxIntervalCount', 20);")
    assert "maximum number of intervals" in m.err.getvalue()


def test_integral_errors(m):
    assert m.fails("integral(@(x) 5, 0, 1)").exc.identifier == "MATLAB:integral:FxNotSameSizeAsX"
    assert m.fails("integral(5, 0, 1)").exc.identifier == "MATLAB:integral:funArgNotHandle"
    assert m.fails("integral(@(x) x, 0, 1, 'Foo', 1)").exc.identifier == \
        "MATLAB:InputParser:UnmatchedParameter"
    assert m.fails("integral(@(x) x, 0, 1, 'AbsTol', -1)").exc.identifier == \
        "MATLAB:integral:invalidAbsTol"
    assert m.fails("integral(@(x) x, [0 1], 1)").exc.identifier == "MATLAB:integral:invalidEndpoint"


def test_quadgk_integral2(m):
    q, err = m.values("[q, err] = quadgk(@(x) log(x), 0, 1);", "q", "err")
    assert q == pytest.approx(-1, abs=1e-6) and 0 <= err < 1e-5
    assert m.value("x = quadgk(@(x) exp(-x.^2), -Inf, Inf);") == pytest.approx(np.sqrt(np.pi))
    assert m.value("x = integral2(@(x,y) x.*y.^2, 0, 1, 0, @(x) x);") == pytest.approx(1 / 15)
    # MATLAB's example: over the triangle 0 <= x <= 1, 0 <= y <= 1 - x
    fun = "@(x,y) 1./(sqrt(x + y) .* (1 + x + y).^2)"
    assert m.value(f"x = integral2({fun}, 0, 1, 0, @(x) 1 - x);") == \
        pytest.approx(np.pi / 4 - 0.5, abs=1e-6)
    assert m.fails("integral2(@(x,y) 1, 0, 1, 0, 1)").exc.identifier == \
        "MATLAB:integral2:funSizeMismatch"


# -------------------------------------------------------------- gridded data


def test_interp2(m):
    setup = "[X, Y] = meshgrid(1:4, 1:3); V = X.^2 + 10*Y; "
    assert close(m.value(setup + "x = interp2(X, Y, V, [1.5 2.5 3.7], [1.2 2.5 2.9]);"),
                 [[14.5, 31.5, 42.9]])
    assert m.value(setup + "x = interp2(V, [1.5 2.5 3.7], [1.2 2.5 2.9], 'nearest');").tolist() \
        == [[14, 39, 46]]
    # cubic convolution reproduces quadratics
    assert m.value(setup + "x = interp2(V, 2.5, 1.5, 'cubic');") == pytest.approx(21.25)
    out = m.value(setup + "x = interp2(1:4, 1:3, V, [0 2], [1 1]);")
    assert np.isnan(out[0, 0]) and out[0, 1] == 14
    assert m.value(setup + "x = interp2(1:4, 1:3, V, [0 2], [1 1], 'linear', -1);").tolist() == \
        [[-1, 14]]
    assert m.value("x = interp2([1 2; 3 4]);").tolist() == [[1, 1.5, 2], [2, 2.5, 3], [3, 3.5, 4]]
    assert m.value("x = interp2([1 2; 3 4], 2);").shape == (5, 5)
    # a row and a column of query points make a grid
    assert m.value(setup + "x = interp2(1:4, 1:3, V, [1.5 2.5], [1.5; 2.5]);").tolist() == \
        [[17.5, 21.5], [27.5, 31.5]]
    assert close(m.value("[X, Y] = meshgrid(1:5); V = sin(X) + cos(Y); "
                         "x = interp2(V, [1.3 2.7 4.1], [1.1 3.3 4.9], 'spline');"),
                 [[1.4383, -0.5639, -0.6448]])
    assert m.value("x = interp2(single([1 2; 3 4]), 1.5, 1.5);").dtype == np.float32


def test_interp2_extrapolation_and_uneven_cubic(m):
    # spline and makima extrapolate unless an extrapolation value is given
    setup = "[X, Y] = meshgrid(1:5); V = X.^3 - Y; "
    assert m.value(setup + "x = interp2(V, 6, 2, 'spline');") == pytest.approx(214)
    assert np.isnan(m.value(setup + "x = interp2(V, 6, 2, 'spline', NaN);"))
    assert np.isfinite(m.value(setup + "x = interp2(V, 6, 2, 'makima');"))
    assert np.isnan(m.value(setup + "x = interp2(V, 6, 2, 'cubic');"))
    # an uneven grid: cubic becomes spline, with MATLAB's warning
    x = m.value("x = interp2([1 2 4 5], 1:4, magic(4), 3, 2.5, 'cubic');")
    assert "Switching the method from 'cubic' to 'spline'" in m.err.getvalue()
    assert x == pytest.approx(m.value("x = interp2([1 2 4 5], 1:4, magic(4), 3, 2.5, 'spline');"))


def test_interp2_errors(m):
    assert m.fails("interp2([1 2; 3 4], 1, 1, 'bogus')").exc.identifier == "MATLAB:interp2:InvalidMethod"
    assert m.fails("interp2(1:3, 1:2, [1 2; 3 4], 1, 1)").exc.identifier == "MATLAB:interp2:gridMismatch"
    assert m.fails("interp2([1 2; 3 4], 1, 1, 'spline')").exc.identifier == \
        "MATLAB:interp2:notEnoughPoints"


@pytest.mark.parametrize("call", ["interp2(magic(3), 40)", "interp2(magic(3), 1e300)",
                                  "interp3(ones(2, 2, 2), 100)", "interpn([3; 0.1; 0], 2.56e302)"])
def test_refinement_too_large_is_refused_before_any_work(m, call):
    # the grid's size is checked before it is made (2 ** 2.56e302 would never finish)
    assert m.fails(call).exc.identifier == "MATLAB:pmaxsize"


def test_refinement_within_the_limit_but_too_many_bytes_is_refused(m):
    assert m.fails("interp2(magic(3), 20)").exc.identifier == "MATLAB:array:SizeLimitExceeded"


def test_interpn(m):
    assert m.value("x = interpn(1:5, [1 4 9 16 25], [1.5 2.5]);").tolist() == [[2.5, 6.5]]
    assert m.value("x = interpn([1 2; 3 4], 1.5, 1.5);") == 2.5
    # ndgrid layout: the first grid vector runs down the rows
    assert m.value("x = interpn(1:2, 1:3, [1 2 3; 10 20 30], 2, 2.5);") == 25
    assert close(m.value("[X, Y] = meshgrid(1:5); V = sin(X) + cos(Y); "
                         "x = interpn(1:5, 1:5, V, [1.5 2.2], [2.5 3.1], 'spline');"),
                 [[0.6477, -0.5407]])
    out = m.value("x = interpn(reshape(1:8, 2, 2, 2), 1.5, 1.5, 1.5);")
    assert out == 4.5
    assert m.value("x = interpn(1:3, [1 2 3], 5, 'linear', 0);") == 0.0
    assert m.value("x = interpn([1 2 3]);").tolist() == [[1, 1.5, 2, 2.5, 3]]
