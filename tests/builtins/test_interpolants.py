"""interp3 (mlang/builtins/math/gridded.py) and griddedInterpolant
(mlang/builtins/math/interpolants.py): values checked against Octave's interp3, interp1
and interpn, and against exact values of polynomials each method reproduces."""

import math

import numpy as np

from mlang.values.cell import Cell
from mlang.values.core import char_text


def close(v, expected, tol=1e-9) -> bool:
    return np.allclose(np.asarray(v, dtype=complex), np.asarray(expected, dtype=complex),
                       atol=tol, rtol=0, equal_nan=True)


GRID = "[X,Y,Z] = meshgrid(1:4, 1:5, 1:4); V = X.^2 + 2*Y + 3*Z.^2 + X.*Z;"

# ------------------------------------------------------------------- interp3


def test_interp3_forms(m):
    assert close(m.value(GRID + "x = interp3(X,Y,Z,V,2.5,3.5,1.5);"), 24.75)
    assert close(m.value(GRID + "x = interp3(V,2.5,3.5,1.5);"), 24.75)
    # Octave: interp3(V,[2.5 3.7],[3.5 1.2],[1.5 3.3])
    assert close(m.value(GRID + "x = interp3(V,[2.5 3.7],[3.5 1.2],[1.5 3.3]);"),
                 [[24.75, 61.81]])
    # grid vectors of different orientations make a grid (meshgrid layout)
    out = m.value(GRID + "x = interp3(1:4,1:5,1:4,V,[1.5 2.5],[1 2]',2);")
    assert close(out, [[19.5, 25.5], [21.5, 27.5]])
    out = m.value(GRID + "x = interp3(V,[2.5 3.7],[3.5 1.2],1.5,'nearest');")
    assert close(out, [[35, 44], [29, 38]])
    # spline and cubic reproduce this polynomial exactly (Octave: 23.75)
    assert close(m.value(GRID + "x = interp3(V,2.5,3.5,1.5,'spline');"), 23.75)
    assert close(m.value(GRID + "x = interp3(V,2.5,3.5,1.5,'cubic');"), 23.75)
    assert close(m.value(GRID + "x = interp3(V,2.5,3.5,1.5,'makima');"), 23.75, 0.2)


def test_interp3_extrapolation_and_refinement(m):
    assert math.isnan(m.value(GRID + "x = interp3(V,9,3.5,1.5);"))
    assert close(m.value(GRID + "x = interp3(V,[0 2.5],2,2,'linear',-1);"), [[-1, 27.5]])
    # spline extrapolates by default
    assert close(m.value(GRID + "x = interp3(V,5,2,2,'spline');"), 25 + 4 + 12 + 10)
    assert m.value(GRID + "x = size(interp3(V));").tolist() == [[9, 7, 7]]
    assert m.value(GRID + "x = size(interp3(V, 2));").tolist() == [[17, 13, 13]]
    out = m.value(GRID + "W = interp3(V); x = W(1:2:end, 1:2:end, 1:2:end) - V;")
    assert close(out, np.zeros((5, 4, 4)))
    out = m.value(GRID + "x = interp3(single(V),2.5,3.5,1.5);")
    assert out.dtype == np.float32 and close(out, 24.75, 1e-4)
    out = m.value(GRID + "x = interp3(V + 1i*V,2.5,3.5,1.5);")
    assert close(out, 24.75 + 24.75j)


def test_interp3_errors(m):
    assert m.fails(GRID + "interp3(V,1,1,1,'bogus')").exc.identifier == \
        "MATLAB:interp3:InvalidMethod"
    assert m.fails(GRID + "interp3(V,1,1)").exc.identifier == "MATLAB:interp3:nargin"
    assert m.fails(GRID + "interp3(1:3,1:5,1:4,V,1,1,1)").exc.identifier == \
        "MATLAB:interp3:gridMismatch"
    assert m.fails(GRID + "interp3(V,[1 2],[1 2 3],[1; 2],'linear',[1 2])").exc.identifier == \
        "MATLAB:interp3:InvalidExtrapval"
    assert m.fails("interp3(ones(2,2,2),1,1,1,'spline')").exc.identifier == \
        "MATLAB:interp3:notEnoughPoints"


# -------------------------------------------------------- griddedInterpolant


def test_gridded_interpolant_1d(m):
    code = "F = griddedInterpolant(1:5, (1:5).^2);"
    assert close(m.value(code + "x = F([1.5 2.5 6]);"), [[2.5, 6.5, 34]])
    assert char_text(m.value(code + "x = class(F);")) == "griddedInterpolant"
    assert char_text(m.value(code + "x = F.ExtrapolationMethod;")) == "linear"
    # Octave interp1(1:5, [1 4 2 5 3], xq, method, 'extrap')
    y = "[1 4 2 5 3]"
    assert close(m.value(f"F = griddedInterpolant(1:5, {y}, 'pchip'); x = F([1.5 3.5 6]);"),
                 [[3.1875, 3.5, -5]])
    assert close(m.value(f"F = griddedInterpolant(1:5, {y}, 'spline'); x = F([1.5 3.5 6]);"),
                 [[4.0625, 3.1875, -19]])
    assert close(m.value(f"F = griddedInterpolant(1:5, {y}, 'makima'); x = F([1.5 3.5]);"),
                 m.value(f"x = makima(1:5, {y}, [1.5 3.5]);"))
    assert close(m.value("F = griddedInterpolant([1 2 3 4], [10 20 30 40], 'next');"
                         "x = F([0.5 1.5 4 4.5]);"), [[10, 20, 40, np.nan]])
    assert close(m.value("F = griddedInterpolant([1 2 3 4], [10 20 30 40], 'previous');"
                         "x = F([0.5 1.5 4 4.5]);"), [[np.nan, 10, 40, 40]])
    assert close(m.value("F = griddedInterpolant([1 2 3 4], [10 20 30 40], 'nearest');"
                         "x = F([1.5 2.2 9]);"), [[20, 20, 40]])
    assert close(m.value("F = griddedInterpolant([1 2 3], [1 2 3], 'linear', 'none');"
                         "x = F([0 2.5 NaN]);"), [[np.nan, 2.5, np.nan]])
    assert close(m.value("F = griddedInterpolant([4 5 6]); x = F(2.5);"), 5.5)
    # several value sets: one column each
    assert close(m.value("F = griddedInterpolant((1:4)', [1 2; 3 4; 5 6; 7 8]);"
                         "x = F([1.5; 2.5]);"), [[2, 3], [4, 5]])
    out = m.value("F = griddedInterpolant(1:3, single([1 2 3])); x = F(1.5);")
    assert out.dtype == np.float32 and close(out, 1.5)
    assert close(m.value("F = griddedInterpolant(1:3, [1 2 3]*1i); x = F(2.5);"), 2.5j)


def test_gridded_interpolant_nd(m):
    grid = "[X,Y] = ndgrid(1:4, 1:3); V = X.^2 + Y;"
    assert close(m.value(grid + "F = griddedInterpolant(X, Y, V); x = F(2.5, 1.5);"), 8.0)
    assert close(m.value(grid + "F = griddedInterpolant(X, Y, V, 'cubic'); x = F(2.5, 1.5);"),
                 7.75)
    assert close(m.value("[X,Y] = ndgrid(1:4, 1:4); F = griddedInterpolant({1:4, 1:4}, "
                         "X.^3 + Y.^2, 'spline'); x = F(2.5, 1.5);"), 2.5 ** 3 + 2.25)
    out = m.value(grid + "F = griddedInterpolant({1:4, 1:3}, V); x = F({[1.5 2.5], [1 2 3]});")
    assert out.shape == (2, 3) and close(out, [[3.5, 4.5, 5.5], [7.5, 8.5, 9.5]])
    out = m.value(grid + "F = griddedInterpolant(V); x = F([1.5 1; 2.5 2]);")
    assert close(out, [[3.5], [8.5]])
    out = m.value(grid + "F = griddedInterpolant({1:4, 1:3}, V, 'nearest', 'none');"
                  "x = F([2.4 2.6 5], [1 2 2]);")
    assert close(out, [[5, 11, np.nan]])
    out = m.value(grid + "F = griddedInterpolant(X, Y, V); x = F([1.5 2; 2 3], [1 1; 2 3]);")
    assert close(out, [[3.5, 5], [6, 12]])
    out = m.value("[X,Y,Z] = ndgrid(1:3, 1:3, 1:3); F = griddedInterpolant(X, Y, Z, X+Y+Z);"
                  "x = F(1.5, 2.5, 2);")
    assert close(out, 6.0)


def test_gridded_interpolant_properties(m):
    code = "[X,Y] = ndgrid(1:4, 1:3); V = X.^2 + Y; F = griddedInterpolant(X, Y, V);"
    g = m.value(code + "x = F.GridVectors;")
    assert type(g) is Cell and g.shape == (1, 2)
    assert g.data[0, 1].tolist() == [[1, 2, 3]]
    assert m.value(code + "x = F.Values;").shape == (4, 3)
    assert close(m.value(code + "F.Values = 2*V; x = F(2, 2);"), 12)
    assert close(m.value(code + "F.Method = 'nearest'; x = F(2.4, 2.6);"), 7)
    assert close(m.value(code + "F.GridVectors = {2:5, 1:3}; x = F(3, 2);"), 6)
    assert char_text(m.value(code + "F.ExtrapolationMethod = 'none'; x = F.ExtrapolationMethod;"
                             )) == "none"
    # a copy is a value of its own
    assert close(m.value(code + "G = F; G.Method = 'nearest'; x = F(2.4, 1);"), 7.0)
    text = m.run("F = griddedInterpolant(1:5, (1:5).^2)")
    assert text == ("\nF = \n\n  griddedInterpolant with properties:\n\n"
                    "            GridVectors: {[1 2 3 4 5]}\n"
                    "                 Values: [1 4 9 16 25]\n"
                    "                 Method: 'linear'\n"
                    "    ExtrapolationMethod: 'linear'\n\n")
    empty = m.value("x = griddedInterpolant;")
    assert empty.grids == [] and empty.method == "linear"


def test_gridded_interpolant_errors(m):
    code = "[X,Y] = ndgrid(1:4, 1:3); V = X.^2 + Y; F = griddedInterpolant(X, Y, V);"
    assert m.fails("griddedInterpolant(1:3, [1 2 3], 'bogus')").exc.identifier == \
        "MATLAB:griddedInterpolant:BadInterpTypeErrId"
    assert m.fails("griddedInterpolant(1:3, [1 2 3], 'linear', 'x')").exc.identifier == \
        "MATLAB:griddedInterpolant:BadExtrapTypeErrId"
    assert m.fails("griddedInterpolant(1:3, [1 2 3 4])").exc.identifier == \
        "MATLAB:griddedInterpolant:CompVecValueMismatchErrId"
    assert m.fails("griddedInterpolant([1 3 2], [1 2 3])").exc.identifier == \
        "MATLAB:griddedInterpolant:NonMonotonicCompVecsErrId"
    assert m.fails("griddedInterpolant(1, 1)").exc.identifier == \
        "MATLAB:griddedInterpolant:NotEnoughPtsErrId"
    assert m.fails("griddedInterpolant(1:3, int8([1 2 3]))").exc.identifier == \
        "MATLAB:griddedInterpolant:NonFloatValuesErrId"
    assert m.fails("griddedInterpolant(1:3, [1 2 3], 'spline')").exc.identifier == \
        "MATLAB:griddedInterpolant:NotEnoughPtsErrId"
    assert m.fails(code + "F(1, 2, 3)").exc.identifier == \
        "MATLAB:griddedInterpolant:NumCoordsGridDimMismatchErrId"
    assert m.fails(code + "F([1 2], [1 2 3])").exc.identifier == \
        "MATLAB:griddedInterpolant:QueryPtsSizeMismatchErrId"
    assert m.fails(code + "F.Values = ones(2);").exc.identifier == \
        "MATLAB:griddedInterpolant:CompVecValueMismatchErrId"
    assert m.fails(code + "F.Method = 'bogus';").exc.identifier == \
        "MATLAB:griddedInterpolant:BadInterpTypeErrId"
    assert m.fails(code + "F.Foo = 1;").exc.identifier == "MATLAB:noPublicFieldForClass"
    assert m.fails("F = griddedInterpolant; F(1)").exc.identifier == \
        "MATLAB:griddedInterpolant:EmptyInterpolantErrId"


def test_interpn_of_an_empty_array_is_a_matlab_error(m):
    assert m.fails("x = interpn([]);").identifier.startswith("MATLAB:")


def test_griddedinterpolant_of_empty_grids_is_a_matlab_error(m):
    assert m.fails("g = griddedInterpolant([], 'nearest', []);").identifier.startswith("MATLAB:")
