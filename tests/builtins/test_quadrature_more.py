"""integral3, quad2d, quad, quadl and quadv (mlang/builtins/math/quadrature.py): values
checked against MATLAB's documented examples, closed forms and Octave."""

import math

import numpy as np

from mlang.values.core import char_text


def close(v, expected, tol=1e-6) -> bool:
    return np.allclose(np.asarray(v), np.asarray(expected), atol=tol, rtol=0)


# ------------------------------------------------------------------ integral3


def test_integral3_documented_examples(m):
    # MATLAB: integral3(fun,0,pi,0,1,-1,1) is 2.0000
    q = m.value("f = @(x,y,z) y.*sin(x)+z.*cos(x); x = integral3(f,0,pi,0,1,-1,1);")
    assert close(q, 2.0, 1e-9)
    # MATLAB: over the unit sphere, 0.7796
    q = m.value("f = @(x,y,z) x.*cos(y) + x.^2.*cos(z);"
                "x = integral3(f,-1,1,@(x)-sqrt(1-x.^2),@(x)sqrt(1-x.^2),"
                "@(x,y)-sqrt(1-x.^2-y.^2),@(x,y)sqrt(1-x.^2-y.^2));")
    assert close(q, 0.779555454713, 1e-6)
    # infinite limits: the Gaussian over all of space is pi^(3/2)
    q = m.value("x = integral3(@(x,y,z) exp(-x.^2-y.^2-z.^2),-Inf,Inf,-Inf,Inf,-Inf,Inf);")
    assert close(q, math.pi ** 1.5, 1e-6)
    # reversed limits change the sign, also with infinite ones
    q = m.value("x = integral3(@(x,y,z) exp(-x.^2-y.^2-z.^2),Inf,-Inf,-Inf,Inf,0,Inf);")
    assert close(q, -math.pi ** 1.5 / 2, 1e-6)
    assert close(m.value("x = integral3(@(x,y,z) x+y+z, 1, 0, 0, 1, 0, 1);"), -1.5, 1e-10)


def test_integral3_forms(m):
    q = m.value("x = integral3(@(x,y,z) x.*y.*z, 0, 1, 0, @(x) x, 0, 1);")
    assert close(q, 1 / 16, 1e-10)
    q = m.value("x = integral3(@(x,y,z) exp(x+y+z), 0, 1, 0, 1, 0, 1, 'AbsTol', 1e-12, "
                "'RelTol', 1e-10);")
    assert close(q, (math.e - 1) ** 3, 1e-9)
    q = m.value("x = integral3(@(x,y,z) 1./sqrt(x.*y.*z), 0, 1, 0, 1, 0, 1, 'Method', 'tiled');")
    assert close(q, 8.0, 1e-5)
    q = m.value("x = integral3(@(x,y,z) 1i*x + y.*z, 0, 1, 0, 1, 0, 2);")
    assert close(q, 1 + 1j, 1e-9)
    q = m.value("x = integral3(@(x,y,z) x + y + z, single(0), 1, 0, 1, 0, 1);")
    assert q.dtype == np.float32 and close(q, 1.5, 1e-5)


def test_integral3_errors(m):
    assert m.fails("integral3(1, 0, 1, 0, 1, 0, 1)").exc.identifier == \
        "MATLAB:integral3:funArgNotHandle"
    assert m.fails("integral3(@(x,y,z) x, 0, 1, 0, 1, 0, 1, 'Method', 'x')").exc.identifier == \
        "MATLAB:integral3:invalidMethod"
    assert m.fails("integral3(@(x,y,z) 1, 0, 1, 0, 1, 0, 1)").exc.identifier == \
        "MATLAB:integral3:funSizeMismatch"
    assert m.fails("integral3(@(x,y,z) x, 0, 1, 0, 1, 0, 1, 'AbsTol', -1)").exc.identifier == \
        "MATLAB:integral3:invalidAbsTol"
    assert m.fails("integral3(@(x,y,z) x, 0, 1, 0, 1)").exc.identifier == "MATLAB:minrhs"


# --------------------------------------------------------------------- quad2d


def test_quad2d(m):
    # MATLAB's example: over the triangle 0 <= y <= 1 - x, pi/4 - 1/2
    q, e = m.values("fun = @(x,y) 1./(sqrt(x + y) .* (1 + x + y).^2);"
                    "[q, e] = quad2d(fun, 0, 1, 0, @(x) 1 - x);", "q", "e")
    assert close(q, math.pi / 4 - 0.5, 1e-5) and 0 <= e < 1e-5
    q = m.value("x = quad2d(@(x,y) y.*sin(x)+x.*cos(y), pi, 2*pi, 0, pi);")
    assert close(q, -math.pi ** 2, 1e-8)
    q = m.value("x = quad2d(@(x,y) 1./sqrt(x.*y), 0, 1, 0, 1);")
    assert close(q, 4.0, 1e-5)
    q = m.value("x = quad2d(@(x,y) x.*y, 0, 1, 0, 1, 'AbsTol', 1e-12, 'Singular', false, "
                "'MaxFunEvals', 5000);")
    assert close(q, 0.25, 1e-12)
    assert m.fails("quad2d(@(x,y) x, 0, Inf, 0, 1)").exc.identifier == \
        "MATLAB:quad2d:invalidLimits"
    assert m.fails("quad2d('x', 0, 1, 0, 1)").exc.identifier == "MATLAB:quad2d:invalidFun"
    assert m.fails("quad2d(@(x,y) x, 0, 1, 0, 1, 'Tol', 1)").exc.identifier == \
        "MATLAB:InputParser:UnmatchedParameter"


# ------------------------------------------------------- quad, quadl, quadv


def test_quad_and_quadl(m):
    # MATLAB's example: integral of 1/(x^3-2x-5) over [0, 2] is -0.4605
    exact = -0.460501533846739  # Octave, quadgk to 1e-14
    q, n = m.values("F = @(x)1./(x.^3-2*x-5); [q, n] = quad(F,0,2);", "q", "n")
    assert close(q, exact, 1e-6) and n > 7
    q, n = m.values("F = @(x)1./(x.^3-2*x-5); [q, n] = quadl(F,0,2);", "q", "n")
    assert close(q, exact, 1e-6) and n >= 13
    assert close(m.value("x = quad(@(x) exp(x), 0, 1, 1e-10);"), math.e - 1, 1e-10)
    assert close(m.value("x = quadl(@(x) exp(x), 0, 1, 1e-10);"), math.e - 1, 1e-10)
    # extra parameters after tol and trace go to the function
    assert close(m.value("x = quad(@(x,c) x.^c, 0, 1, [], [], 2);"), 1 / 3, 1e-12)
    assert close(m.value("x = quadl(@(x,c,d) d*x.^c, 0, 1, [], 0, 2, 3);"), 1.0, 1e-12)
    # a function given by name; reversed limits change the sign
    assert close(m.value("x = quad('sin', 0, pi);"), 2.0, 1e-6)
    assert close(m.value("x = quadl(@sin, pi, 0);"), -2.0, 1e-6)


def test_quad_trace_and_warnings(m):
    text = m.run("q = quad(@(x) x.^2, 0, 1, 1e-6, 1);")
    lines = text.strip().splitlines()
    assert lines[0].split() == ["9", "0.0000000000", "2.71580000e-01", "0.0066768573"]
    assert len(lines) == 3
    q = m.value("x = quad(@(x) 1./sqrt(x), 0, 1);")  # the end singularity is stepped around
    assert abs(q - 2) < 0.05
    assert "singularity" in m.err.getvalue()
    m.run("q = quad(@(x) 1./(x - 0.5), 0, 1);")
    assert "Warning" in m.err.getvalue()


def test_quadv(m):
    q, n = m.values("[q, n] = quadv(@(x) 1./((1:3)+x), 0, 1);", "q", "n")
    assert q.shape == (1, 3) and close(q, np.log([2, 1.5, 4 / 3]), 1e-6) and n >= 7
    q = m.value("x = quadv(@(x) [x x.^2; 1 exp(x)], 0, 1, 1e-10);")
    assert q.shape == (2, 2) and close(q, [[0.5, 1 / 3], [1, math.e - 1]], 1e-10)
    q = m.value("x = quadv(@(x,n) x.^n, 0, 1, [], [], [1 2 3]);")
    assert close(q, [[1 / 2, 1 / 3, 1 / 4]], 1e-8)
    assert close(m.value("x = quadv(@(x) x, 0, 2);"), 2.0, 1e-12)


def test_old_rules_on_an_empty_interval(m):
    assert m.value("x = quad(@sin, 1, 1);") == 0.0
    assert m.value("x = quadl(@sin, 1, 1);") == 0.0
    assert m.value("x = quadv(@(x) [x x], 1, 1);").tolist() == [[0, 0]]
    assert m.err.getvalue() == ""


def test_old_rule_errors(m):
    assert m.fails("quad(@(x) 1, 0, 1)").exc.identifier == "MATLAB:quad:FunSizeMismatch"
    assert m.fails("quad(@(x) x, [0 1], 1)").exc.identifier == "MATLAB:quad:invalidLimits"
    assert m.fails("quadl(@(x) x, 0, 1, -1)").exc.identifier == "MATLAB:quadl:invalidTol"
    assert m.fails("quadv(5, 0, 1)").exc.identifier == "MATLAB:quadv:invalidFun"
    assert m.fails("quad(@(x) x, 0)").exc.identifier == "MATLAB:minrhs"
    assert char_text(m.value("x = class(quad(@(x) x, 0, 1));")) == "double"
