"""Piecewise polynomials (mlang/builtins/math/splines.py): spline, pchip, makima, mkpp,
ppval and unmkpp; numbers checked against Octave."""

import numpy as np
import pytest


def close(v, expected) -> bool:
    return np.allclose(np.asarray(v), np.asarray(expected), atol=1e-4)


def test_spline_values(m):
    assert close(m.value("x = spline(0:5, sin(0:5), [0.5 2.5 6]);"), [[0.5012, 0.5967, 0.3409]])
    # three points: the parabola; two points: the line
    assert close(m.value("x = spline([0 1 2], [1 3 2], [0.5 1.5 3]);"), [[2.375, 2.875, -2]])
    assert close(m.value("x = spline([0 1], [1 3], [0.5 2]);"), [[2, 5]])
    # end slopes given: a clamped spline
    assert close(m.value("x = spline(0:3, [1 0 1 0 1 -1], [0.5 1.5 2.5]);"), [[0.6667, 0.4167, 0.6667]])
    # vector-valued data: one row per component
    assert close(m.value("x = spline([0 1], [0 0 1 0], [0.25 0.5]);"), [[0.15625, 0.5]])
    # unsorted sites are sorted with their values; NaN values of a vector are left out
    assert m.value("x = spline([3 1 2 4], [9 1 4 16], 2.5);") == pytest.approx(6.25)
    assert m.value("x = spline(1:5, [1 NaN 9 16 25], 2);") == pytest.approx(4)
    out = m.value("x = spline(0:4, [0 1 0 -1 0; 1 0 1 0 1], [0.5 1.5]);")
    assert close(out, [[0.875, 0.625], [-0.125, 0.625]])
    assert m.value("x = spline(0:5, sin(0:5), [0.5; 1.5]);").shape == (2, 1)
    assert m.value("x = spline(single(0:5), sin(0:5), 1);").dtype == np.float32
    # agrees with interp1's spline
    a, b = m.values("a = spline(0:6, cos(0:6), 0:0.25:6); b = interp1(0:6, cos(0:6), 0:0.25:6, "
                    "'spline');", "a", "b")
    assert np.allclose(a, b)


def test_spline_pp_form(m):
    pp = m.value("x = spline(0:5, sin(0:5));")
    form, breaks, pieces, order, dim = m.values(
        "pp = spline(0:5, sin(0:5)); f = pp.form; b = pp.breaks; n = pp.pieces; k = pp.order; "
        "d = pp.dim;", "f", "b", "n", "k", "d")
    assert pp.fields == ["form", "breaks", "coefs", "pieces", "order", "dim"]
    assert (pieces, order, dim) == (5.0, 4.0, 1.0) and breaks.tolist() == [[0, 1, 2, 3, 4, 5]]
    coefs = m.value("pp = spline(0:5, sin(0:5)); x = pp.coefs;")
    assert coefs.shape == (5, 4)
    assert close(coefs[0], [-0.0432, -0.2571, 1.1418, 0])
    assert m.value("pp = spline([0 1 2], [1 3 2]); x = pp.pieces;") == 1.0


def test_spline_errors(m):
    assert m.fails("spline(1, 1, 1)").exc.identifier == "MATLAB:chckxy:NotEnoughPts"
    assert m.fails("spline([1 2 3], [1 2], 1)").exc.identifier == "MATLAB:chckxy:NumSitesMismatchValues"
    assert m.fails("spline([1 1 3], [1 2 3], 1)").exc.identifier == "MATLAB:chckxy:RepeatedSites"
    assert m.fails("spline([1 NaN 3], [1 2 3], 1)").exc.identifier == "MATLAB:chckxy:NaNx"


def test_pchip_makima(m):
    assert close(m.value("x = pchip([1 2 3 4 5], [1 2 1 3 2], [1.5 2.5 4.2 6]);"),
                 [[1.75, 1.5, 2.976, -3.0]])
    pchip_pp = m.value("pp = pchip(1:5, [1 2 1 3 2]); x = pp.coefs;")
    assert pchip_pp.shape == (4, 4)
    assert close(m.value("x = makima([1 2 3 4 5], [1 2 1 3 2], [1.5 2.5 4.2 6]);"),
                 [[1.6958, 1.4803, 3.0627, 1.1667]])
    assert close(m.value("x = makima([0 1], [0 2], 0.25);"), 0.5)
    a, b = m.values("a = makima(0:6, cos(0:6), 0:0.5:6); b = interp1(0:6, cos(0:6), 0:0.5:6, "
                    "'makima');", "a", "b")
    assert np.allclose(a, b)
    # a pchip of monotone data stays monotone
    assert np.all(np.diff(m.value("x = pchip([0 1 2 3], [0 0.1 5 5.1], 0:0.1:3);")) >= 0)


def test_mkpp_ppval_unmkpp(m):
    assert close(m.value("pp = mkpp([0 1 2], [1 0 0; 0 1 0]); x = ppval(pp, [0.5 1.5 -1 3]);"),
                 [[0.25, 0.5, 1, 2]])
    b, c, n, k, d = m.values("[b, c, n, k, d] = unmkpp(mkpp([0 1 2], [1 0 0; 0 1 0]));",
                             "b", "c", "n", "k", "d")
    assert b.tolist() == [[0, 1, 2]] and c.tolist() == [[1, 0, 0], [0, 1, 0]]
    assert (n, k, d) == (2.0, 3.0, 1.0)
    # a 2-valued pp: the result is 2-by-numel(xq)
    out = m.value("pp = mkpp([0 1], [1 0; 2 1], 2); x = ppval(pp, [0 1 2]);")
    assert out.tolist() == [[0, 1, 2], [1, 3, 5]]
    assert np.isnan(m.value("x = ppval(mkpp([0 1], [1 0]), NaN);"))
    assert m.value("x = ppval(spline(0:3, (0:3).^2), [1 2; 3 0]);").shape == (2, 2)
    assert m.fails("mkpp([0 1 2], [1 2 3])").exc.identifier == "MATLAB:mkpp:PPNumberMismatchCoeffs"
    assert m.fails("ppval(struct('a', 1), 1)").exc.identifier == "MATLAB:unmkpp:inputsNotPP"
    assert m.fails("ppval(mkpp([0 1], [1 0]), 1i)").exc.identifier == "MATLAB:ppval:ComplexXX"


@pytest.mark.parametrize("name", ["spline", "pchip", "makima"])
def test_interpolants_pass_through_the_data(m, name):
    assert close(m.value(f"x = {name}([0 1 3 4 7], [2 -1 0 5 1], [0 1 3 4 7]);"), [[2, -1, 0, 5, 1]])
