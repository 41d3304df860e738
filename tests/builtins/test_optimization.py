"""Optimisation (mlang/builtins/math/optimization.py): fzero, fminbnd, fminsearch,
lsqnonneg, optimset, optimget.  Reference values come from MATLAB's documented examples
or Octave."""

import numpy as np
import pytest

from mlang.values.core import char_text

# ---------------------------------------------------------------- optimset / optimget


def test_optimset_fields_and_defaults(m):
    o = m.value("x = optimset();")
    assert o.fields == ["Display", "MaxFunEvals", "MaxIter", "TolFun", "TolX", "FunValCheck",
                        "OutputFcn", "PlotFcns"]
    assert all(v.size == 0 for v in o.element(0).values())
    o = m.value("x = optimset('fminsearch');").element(0)
    assert char_text(o["Display"]) == "notify"
    assert char_text(o["MaxIter"]) == "200*numberofvariables"
    assert o["TolX"] == 1e-4 and o["TolFun"] == 1e-4
    o = m.value("x = optimset('fminbnd');").element(0)
    assert o["MaxFunEvals"] == 500.0 and o["MaxIter"] == 500.0
    assert m.value("x = optimset('fzero'); x = x.TolX;") == np.finfo(float).eps
    o = m.value("x = optimset(optimset('TolX', 1), 'display', 'off');").element(0)
    assert o["TolX"] == 1.0 and char_text(o["Display"]) == "off"
    assert m.value("x = optimset(optimset('TolX', 1), optimset('TolFun', 2)); x = x.TolX;") == 1


def test_optimget(m):
    assert m.value("x = optimget(optimset('TolX', 1e-8), 'tolx');") == 1e-8
    assert m.value("x = optimget(optimset(), 'MaxIter', 9);") == 9.0
    assert m.value("x = optimget(optimset(), 'MaxIter');").shape == (0, 0)


def test_optimset_errors(m):
    e = m.fails("optimset('Bogus', 1)")
    assert e.exc.identifier == "MATLAB:optimset:InvalidParamName"
    assert e.exc.message.startswith("Unrecognized parameter name 'Bogus'.")
    e = m.fails("optimset('Tol', 1)")
    assert e.exc.identifier == "MATLAB:optimset:AmbiguousParamName"
    assert m.fails("optimset('TolX', 1, 'MaxIter')").exc.identifier == "MATLAB:optimset:ArgNameValueMismatch"
    assert m.fails("optimset('nosuchsolver')").exc.identifier == \
        "MATLAB:optimset:NoDefaultsForFcn"
    assert m.fails("optimget(3, 'TolX')").exc.identifier == "MATLAB:optimget:Arg1NotStruct"


# ---------------------------------------------------------------------- fzero


def test_fzero_bracket_and_start(m):
    assert m.value("x = fzero(@cos, [1 2]);") == pytest.approx(np.pi / 2, abs=1e-15)
    assert m.value("x = fzero(@sin, 3);") == pytest.approx(np.pi, abs=1e-15)
    # MATLAB's documentation: the root of x^3 - 2x - 5 near 2 is 2.0946
    assert m.value("x = fzero(@(x) x.^3 - 2*x - 5, 2);") == pytest.approx(2.0945514815423265)
    assert m.value("x = fzero(@(x, c) x - c, 0, [], 4);") == pytest.approx(4.0)


def test_fzero_outputs(m):
    # MATLAB's documented example: exp(-exp(-x)) - x on [0 1]
    x, fval, flag, out = m.values("[x, fval, flag, out] = fzero(@(x) exp(-exp(-x)) - x, [0 1]);",
                                  "x", "fval", "flag", "out")
    assert x == pytest.approx(0.567143290409784) and abs(fval) < 1e-15 and flag == 1.0
    f = out.element(0)
    assert (f["intervaliterations"], f["iterations"], f["funcCount"]) == (0.0, 5.0, 7.0)
    assert char_text(f["algorithm"]) == "bisection, interpolation"
    x = m.value("x = fzero(@(x) x - 0.1, 1, optimset('TolX', 1e-3));")
    assert abs(x - 0.1) < 2e-3


def test_fzero_failures(m):
    e = m.fails("fzero(@(x) x.^2 + 1, [0 1])")
    assert e.exc.identifier == "MATLAB:fzero:ValuesAtEndPtsSameSign"
    assert e.exc.message == "The function values at the interval endpoints must differ in sign."
    e = m.fails("fzero(@(x) 1./x, [0 1])")
    assert e.exc.identifier == "MATLAB:fzero:ValuesAtEndPtsComplexOrNotFinite"
    out = m.run("x = fzero(@(x) x.^2 + 1, 1);")
    assert np.isnan(m.interp.base.vars["x"])
    assert out.startswith("Exiting fzero: aborting search for an interval containing a sign change")
    m.run("[x, f, flag] = fzero(@(x) x.^2 + 1, 1, optimset('Display', 'off'));")
    assert m.out.getvalue() == "" and m.interp.base.vars["flag"] == -3.0
    assert m.fails("fzero(@(x) x(3), 1)").exc.identifier == "MATLAB:badsubscript"


# -------------------------------------------------------------------- fminbnd


def test_fminbnd(m):
    # Octave: 3.141594801851406, 7 iterations, 8 evaluations
    x, fval, flag, out = m.values("[x, fval, flag, out] = fminbnd(@cos, 3, 4);",
                                  "x", "fval", "flag", "out")
    assert x == pytest.approx(3.141594801851406, abs=1e-15)
    assert fval == pytest.approx(-0.999999999997693, abs=1e-15)
    assert flag == 1.0
    assert (out.element(0)["iterations"], out.element(0)["funcCount"]) == (7.0, 8.0)
    assert m.value("x = fminbnd(@(x) (x - 2).^2, 0, 5);") == pytest.approx(2.0, abs=1e-4)
    x = m.value("x = fminbnd(@cos, 3, 4, optimset('TolX', 1e-12));")
    assert x == pytest.approx(np.pi, abs=1e-8)
    flag = m.value("[a, b, x] = fminbnd(@cos, 3, 4, optimset('MaxIter', 2, 'Display', 'off'));")
    assert flag == 0.0


def test_fminbnd_bad_bounds(m):
    flag = m.value("[a, b, x] = fminbnd(@cos, 4, 3);")
    assert flag == -2.0 and m.out.getvalue() == "Exiting: The bounds are inconsistent.\n"
    assert m.fails("fminbnd(@cos, [1 2], 3)").exc.identifier == "MATLAB:fminbnd:NonScalarInput"


# ----------------------------------------------------------------- fminsearch


def test_fminsearch_rosenbrock(m):
    # MATLAB's documented example: 85 iterations, 159 function evaluations
    x, fval, flag, out = m.values(
        "fun = @(x) 100*(x(2) - x(1)^2)^2 + (1 - x(1))^2;"
        "[x, fval, flag, out] = fminsearch(fun, [-1.2, 1]);", "x", "fval", "flag", "out")
    assert x.shape == (1, 2) and np.allclose(x, [[1, 1]], atol=1e-4)
    assert fval == pytest.approx(8.1777e-10, rel=1e-4)
    assert flag == 1.0
    f = out.element(0)
    assert (f["iterations"], f["funcCount"]) == (85.0, 159.0)
    assert char_text(f["algorithm"]) == "Nelder-Mead simplex direct search"


def test_fminsearch_shapes_options_and_limits(m):
    x = m.value("x = fminsearch(@(x) sum((x - [1; 2]).^2), [0; 0]);")
    assert x.shape == (2, 1) and np.allclose(x, [[1], [2]], atol=1e-3)
    x = m.value("x = fminsearch(@(x) (x - 3)^2, 0, optimset('TolX', 1e-10, 'TolFun', 1e-10));")
    assert x == pytest.approx(3.0, abs=1e-8)
    x = m.value("x = fminsearch(@(x, a) (x - a)^2, 1, [], 5);")
    assert x == pytest.approx(5.0, abs=1e-3)
    m.run("[x, f, flag, out] = fminsearch(@(x) sum(x.^2), [1 1], optimset('MaxIter', 5));")
    assert m.interp.base.vars["flag"] == 0.0
    assert "Exiting: Maximum number of iterations has been exceeded" in m.out.getvalue()
    assert m.interp.base.vars["out"].element(0)["iterations"] == 5.0


# ------------------------------------------------------------------- lsqnonneg


def test_lsqnonneg(m):
    # MATLAB's documented example
    m.run("C = [0.0372 0.2869; 0.6861 0.7071; 0.6233 0.6245; 0.6344 0.6170];"
          "d = [0.8587; 0.1781; 0.0747; 0.8405];"
          "[x, resnorm, residual, flag, out, lambda] = lsqnonneg(C, d);")
    v = m.interp.base.vars
    assert np.allclose(v["x"], [[0], [0.6929]], atol=1e-4)
    assert v["resnorm"] == pytest.approx(0.8315, abs=1e-4)
    assert v["residual"].shape == (4, 1) and v["flag"] == 1.0
    assert v["lambda"][0, 0] == pytest.approx(-0.150611819, abs=1e-8)
    assert abs(v["lambda"][1, 0]) < 1e-12
    assert v["out"].element(0)["iterations"] == 1.0
    # Octave's numbers
    m.run("[x, resnorm, residual, flag, out, lambda] = lsqnonneg(magic(5), (1:5)' - 3);")
    assert np.allclose(v["x"][:, 0], [0, 0, 4.979253112033195e-02, 0, 0], atol=1e-15)
    assert v["resnorm"] == pytest.approx(7.012448132780082)
    assert np.allclose(v["lambda"][:, 0], [-59.6058091286307, -45.58091286307054, 0,
                                            -45.58091286307053, -59.60580912863071])
    assert m.fails("lsqnonneg([1 2; 3 4], [1; 2; 3])").exc.identifier == \
        "MATLAB:lsqnonneg:InvalidInputSize"
    assert m.fails("lsqnonneg([1i 2], 1)").exc.identifier == "MATLAB:lsqnonneg:ComplexCorD"


def test_iterative_display(m):
    out = m.run("x = fminbnd(@cos, 3, 4, optimset('Display', 'iter'));")
    lines = out.splitlines()
    assert lines[1] == " Func-count     x          f(x)         Procedure"
    assert lines[2] == "     1        3.38197    -0.971249        initial"
    assert lines[3] == "     2        3.61803    -0.888633        golden"
    assert lines[5] == "     4        3.13571    -0.999983        parabolic"
    assert "Optimization terminated:" in out
    out = m.run("x = fminsearch(@(x) (x(1)-1)^2 + x(2)^2, [0 1], optimset('Display', 'iter'));")
    lines = out.splitlines()
    assert lines[1] == " Iteration   Func-count     min f(x)         Procedure"
    assert lines[2].startswith("     0            1                2")
    assert lines[3] == "     1            3           1.9995         initial simplex"
    assert m.run("x = fminsearch(@(x) x^2, 1, optimset('Display', 'off'));") == ""


def test_fun_val_check(m):
    e = m.fails("fminsearch(@(x) sqrt(x), -1, optimset('FunValCheck', 'on'))")
    assert e.exc.identifier == "MATLAB:fminsearch:checkfun:ComplexFval"
    e = m.fails("fminbnd(@(x) NaN, 0, 1, optimset('FunValCheck', 'on'))")
    assert e.exc.identifier == "MATLAB:fminbnd:checkfun:NaNFval"
    e = m.fails("fzero(@(x) 1/x - 1, [0 1], optimset('FunValCheck', 'on'))")
    assert e.exc.identifier == "MATLAB:fzero:checkfun:InfFval"


def test_fzero_iterative_display(m):
    out = m.run("x = fzero(@sin, 3, optimset('Display', 'iter'));")
    lines = out.splitlines()
    assert lines[1] == "Search for an interval around 3 containing a sign change:"
    assert lines[3] == "    1               3       0.14112             3       0.14112   initial interval"
    assert lines[6] == "    7         2.83029      0.306295       3.16971    -0.0281093   search"
    assert lines[8] == "Search for a zero in the interval [2.8303, 3.1697]:"
    assert lines[10] == "     7         3.16971    -0.0281093        initial"
    assert lines[11] == "     8         3.14118   0.000417192        interpolation"
    assert lines[-1] == "Zero found in the interval [2.83029, 3.16971]"
    assert m.run("x = fzero(@cos, [1 2], optimset('Display', 'final'));") == \
        " \nZero found in the interval [1, 2]\n"


def test_output_functions_can_stop(m):
    m.run("o = optimset('OutputFcn', @(x, ov, state) ov.iteration >= 3);"
          "[x, f, flag, out] = fminsearch(@(x) (x(1)-1)^2 + x(2)^2, [0 1], o);")
    v = m.interp.base.vars
    assert v["flag"] == -1.0 and v["out"].element(0)["iterations"] == 3.0
    assert char_text(v["out"].element(0)["message"]) == \
        "Optimization terminated prematurely by user."
    m.run("o = optimset('OutputFcn', {@(x, ov, s) false, @(x, ov, s) ov.funccount > 6});"
          "[x, f, flag, out] = fminsearch(@(x) (x(1)-1)^2 + x(2)^2, [0 1], o);")
    assert v["flag"] == -1.0 and v["out"].element(0)["funcCount"] == 7.0
    m.run("o = optimset('OutputFcn', @(x, ov, state) ov.iteration >= 3);"
          "[x, f, flag, out] = fminbnd(@cos, 3, 4, o);")
    assert v["flag"] == -1.0 and v["out"].element(0)["iterations"] == 3.0


def test_fminsearch_output_functions_example(m):
    # MATLAB's "Optimization Solver Output Functions" example: x = [0.1290 -0.5323],
    # fval = -0.5689
    x, fval = m.values("f = @(x) exp(x(1))*(4*x(1)^2+2*x(2)^2+x(1)*x(2)+2*x(2));"
                       "[x, fval] = fminsearch(f, [-1 1], optimset('OutputFcn', "
                       "@(x, ov, state) false));", "x", "fval")
    assert np.allclose(x, [[0.1290, -0.5323]], atol=5e-5)
    assert fval == pytest.approx(-0.5689, abs=5e-5)


def test_fzero_output_function(m):
    m.run("o = optimset('OutputFcn', @(x, ov, s) strcmp(s, 'iter') && ov.funccount >= 9);"
          "[x, f, flag, out] = fzero(@sin, 3, o);")
    v = m.interp.base.vars
    assert v["flag"] == -1.0 and v["out"].element(0)["funcCount"] == 9.0
    assert abs(v["x"] - np.pi) < 1e-6
    m.run("o = optimset('OutputFcn', @(x, ov, s) ov.intervala > ov.intervalb);"
          "[x, f, flag] = fzero(@sin, [3 4], o);")
    assert v["flag"] == 1.0 and v["x"] == pytest.approx(np.pi, abs=1e-15)
