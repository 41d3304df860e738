"""Matrix functions, conditioning, linear systems and structure tests
(mlang/builtins/math/matrix_functions.py; issymmetric, ishermitian, bandwidth and
isbanded in linalg.py).  Numbers from MATLAB's documented examples or GNU Octave."""

import numpy as np
import pytest


def close(a, b, tol=1e-4) -> bool:
    return np.allclose(np.asarray(a), np.asarray(b), atol=tol)


# ------------------------------------------------------- exponential and logarithm


def test_expm(m):
    y = m.value("x = expm([1 1 0; 0 0 2; 0 0 -1]);")
    assert close(y, [[2.718281828459045, 1.718281828459045, 1.086161269630487],
                     [0, 1, 1.264241117657115], [0, 0, 0.367879441171442]], 1e-12)
    assert close(m.value("x = expm(zeros(2));"), np.eye(2), 0)
    assert m.value("x = expm(single([1 0; 0 1]));").dtype == np.float32
    assert m.value("x = expm([]);").shape == (0, 0)
    assert m.fails("expm([1 2 3])").exc.identifier == "MATLAB:square"


def test_logm(m):
    assert close(m.value("x = logm([1 1; 0 1]);"), [[0, 1], [0, 0]], 1e-12)
    assert close(m.value("x = logm(expm([1 2; 0 3]));"), [[1, 2], [0, 3]], 1e-10)
    x, flag = m.values("[x, f] = logm(eye(2));", "x", "f")
    assert close(x, np.zeros((2, 2)), 0) and flag == 0.0
    y = m.value("x = logm([-1 0; 0 1]);")
    assert close(y, [[np.pi * 1j, 0], [0, 0]], 1e-12)
    assert m.err.getvalue() == ("Warning: Principal matrix logarithm is not defined for A with "
                                "nonpositive real eigenvalues. A non-principal matrix logarithm "
                                "is returned.\n")


def test_sqrtm(m):
    a = "[5 -4 1 0 0; -4 6 -4 1 0; 1 -4 6 -4 1; 0 1 -4 6 -4; 0 0 1 -4 5]"
    expected = 2 * np.eye(5) - np.eye(5, k=1) - np.eye(5, k=-1)
    assert close(m.value(f"x = sqrtm({a});"), expected, 1e-10)
    x, res = m.values("[x, r] = sqrtm([1 2; 3 4]);", "x", "r")
    assert close(x, [[0.5537 + 0.4644j, 0.8070 - 0.2124j], [1.2104 - 0.3186j, 1.7641 + 0.1458j]])
    assert res < 1e-12
    assert close(m.value("x = sqrtm([4 0; 0 9]);"), [[2, 0], [0, 3]], 1e-12)
    m.value("x = sqrtm([0 1; 0 0]);")
    assert m.err.getvalue() == "Warning: Matrix is singular and may not have a square root.\n"
    m.value("[x, r] = sqrtm([0 1; 0 0]);")
    assert m.err.getvalue() == ""  # no warning with the residual
    x, alpha, condx = m.values("[x, a, c] = sqrtm([4 0; 0 9]);", "x", "a", "c")
    assert close(x, [[2, 0], [0, 3]], 1e-12)
    assert alpha == pytest.approx(1.0) and condx == pytest.approx(0.25 * 9 / 3)


# ------------------------------------------------------------- subspaces, rank


def test_null_orth(m):
    z = m.value("x = null(magic(4));")
    assert close(z, [[-0.2236], [-0.6708], [0.6708], [0.2236]])
    z = m.value("x = null([1 1]);")
    assert close(abs(z), [[0.7071], [0.7071]])
    assert m.value("x = null(eye(3));").shape == (3, 0)
    assert m.value("x = null(zeros(0, 3));").tolist() == np.eye(3).tolist()
    assert m.value("x = null(diag([1 1e-5]), 1e-3);").shape == (2, 1)
    q = m.value("x = orth([1 1; 1 1]);")
    assert close(abs(q), [[0.7071], [0.7071]])
    assert m.value("x = orth(magic(4));").shape == (4, 3)
    assert m.value("x = orth(diag([1 1e-5]), 1e-3);").shape == (2, 1)


def test_rank(m):
    assert m.value("x = rank(magic(4));") == 3.0
    assert m.value("x = rank(eye(3));") == 3.0
    assert m.value("x = rank(magic(4), 100);") == 0.0
    assert m.value("x = rank([]);") == 0.0
    assert m.value("x = rank(zeros(2));") == 0.0
    assert m.value("x = rank([1 2; 2 4.0000001], 1e-3);") == 1.0
    assert m.fails("rank([1 NaN])").exc.identifier == "MATLAB:svd:matrixWithNaNInf"


def test_pinv(m):
    x = m.value("x = pinv([1 2; 3 4; 5 6]);")
    assert close(x, [[-1.333333333333334, -0.333333333333333, 0.666666666666667],
                     [1.083333333333334, 0.333333333333333, -0.416666666666667]], 1e-12)
    assert close(m.value("x = pinv([1 2; 2 4]);"), [[0.04, 0.08], [0.08, 0.16]], 1e-12)
    assert close(m.value("x = pinv(diag([1 1e-5]), 1e-3);"), [[1, 0], [0, 0]], 1e-12)
    assert m.value("x = pinv(zeros(2, 0));").shape == (0, 2)
    assert np.isnan(m.value("x = pinv([1 NaN]);")).all()
    assert m.value("x = pinv(single(2));").dtype == np.float32


# ------------------------------------------------------------------ conditioning


def test_cond(m):
    assert m.value("x = cond([4 -7; 3 5]);") == pytest.approx(1.883789182846764)
    assert m.value("x = cond([4 -7; 3 5], 1);") == pytest.approx(3.219512195121951)
    assert m.value("x = cond([4 -7; 3 5], 'fro');") == \
        pytest.approx(2.414634146341464)
    assert m.value("x = cond([4 -7; 3 5], inf);") == pytest.approx(3.219512195121951)
    assert m.value("x = cond(zeros(2));") == np.inf
    assert m.value("x = cond([1 1; 1 1], 1);") == np.inf
    assert m.value("x = cond([]);") == 0.0
    assert m.value("x = cond([1 2; 3 4; 5 6]);") == pytest.approx(18.521305341258, rel=1e-9)
    assert m.fails("cond([1 2; 3 4; 5 6], 1)").exc.identifier == "MATLAB:square"
    assert m.fails("cond(magic(3), 3)").exc.identifier == "MATLAB:norm:unknownNorm"


def test_rcond(m):
    assert m.value("x = rcond([4 -7; 3 5]);") == pytest.approx(0.310606060606061)
    assert m.value("x = rcond(magic(4));") < 1e-16
    assert m.value("x = rcond([1 1; 1 1]);") == 0.0
    assert m.value("x = rcond(eye(3));") == 1.0
    assert m.value("x = rcond([]);") == np.inf
    assert np.isnan(m.value("x = rcond([1 NaN; 1 1]);"))
    assert m.fails("rcond([1 2 3])").exc.identifier == "MATLAB:square"


def test_normest_condest(m):
    n, count = m.values("[n, c] = normest(magic(4));", "n", "c")
    assert abs(n - 34) < 34e-6 and count >= 1
    assert abs(m.value("x = normest([1 2; 3 4], 1e-12);") - 5.464985704219043) < 1e-9
    assert m.value("x = normest(zeros(3));") == 0.0
    assert m.value("x = condest(magic(5));") == pytest.approx(6.85)
    assert m.value("x = condest(hilb(4));") == pytest.approx(28375, rel=1e-9)
    c, v = m.values("[c, v] = condest([1 2; 3 4]);", "c", "v")
    a = np.array([[1, 2], [3, 4]])
    assert c == pytest.approx(21)
    assert np.abs(a @ v).sum() == pytest.approx(6 * np.abs(v).sum() / c)
    assert m.value("x = condest([1 1; 1 1]);") == np.inf


# --------------------------------------------------------------- linear systems


def test_linsolve_general_and_structured(m):
    assert close(m.value("x = linsolve([1 2; 3 4], [5; 6]);"), [[-4], [4.5]], 1e-12)
    x = m.value("o.UT = true; x = linsolve([1 2; 0 4], [5; 8], o);")
    assert close(x, [[1], [2]], 1e-12)
    x = m.value("o.LT = true; x = linsolve([1 99; 2 4], [1; 10], o);")  # upper part unused
    assert close(x, [[1], [2]], 1e-12)
    x = m.value("o.UT = true; o.TRANSA = true; x = linsolve([1 2; 0 4], [5; 8], o);")
    assert close(x, [[5], [-0.5]], 1e-12)
    x = m.value("o.SYM = true; o.POSDEF = true; x = linsolve([4 2; 2 3], [2; 1], o);")
    assert close(x, [[0.5], [0]], 1e-12)
    x, r = m.values("[x, r] = linsolve([1 2; 3 4; 5 6], [1; 2; 3]);", "x", "r")
    assert close(x, [[0], [0.5]], 1e-12) and r == 2.0
    x, r = m.values("[x, r] = linsolve([4 -7; 3 5], [1; 2]);", "x", "r")
    assert r == pytest.approx(0.310606060606061)
    assert m.err.getvalue() == ""


def test_linsolve_warnings_and_errors(m):
    m.value("x = linsolve([1 1; 1 1], [1; 2]);")
    assert m.err.getvalue() == "Warning: Matrix is singular to working precision.\n"
    m.value("x = linsolve([1e-20 0; 0 1], [1; 1]);")
    assert m.err.getvalue() == ("Warning: Matrix is close to singular or badly scaled. Results may "
                                "be inaccurate. RCOND =  1.000000e-20.\n")
    x = m.value("x = linsolve([1 1; 1 1; 1 1], [1; 2; 3]);")
    assert close(x, [[2], [0]], 1e-12)
    assert m.err.getvalue().startswith("Warning: Rank deficient, rank = 1, tol = ")
    assert m.fails("linsolve([1 2; 3 4], [1; 2; 3])").exc.identifier == "MATLAB:dimagree"
    err = m.fails("o.LT = true; o.UT = true; linsolve(eye(2), [1; 2], o)").exc
    assert err.identifier == "MATLAB:linsolve:CombinationOfFieldsNotCurrentlySupported"
    err = m.fails("o.LT = 1; linsolve(eye(2), [1; 2], o)").exc
    assert err.identifier == "MATLAB:linsolve:FieldValueMustBeLogical"
    err = m.fails("o.XX = true; linsolve(eye(2), [1; 2], o)").exc
    assert err.identifier == "MATLAB:linsolve:UnrecognizedFieldInOptionsStructure"


def test_lsqminnorm(m):
    assert close(m.value("x = lsqminnorm([2 3], 8);"), [[1.2308], [1.8462]])
    assert close(m.value("x = lsqminnorm([1 1; 1 1], [2; 2]);"), [[1], [1]], 1e-12)
    assert m.err.getvalue() == ""
    m.value("x = lsqminnorm([1 1; 1 1], [2; 2], 'warn');")
    assert m.err.getvalue().startswith("Warning: Rank deficient, rank = 1, tol = ")
    x = m.value("x = lsqminnorm([1 2; 3 4; 5 6], [1; 2; 3]);")
    assert close(x, [[0], [0.5]], 1e-12)
    x = m.value("x = lsqminnorm(diag([1 1e-5]), [1; 1], 1e-3);")
    assert close(x, [[1], [0]], 1e-12)
    x = m.value("x = lsqminnorm([1 2 3; 2 4 6], [1 2; 2 4]);")
    assert close(x, np.linalg.pinv(np.array([[1, 2, 3], [2, 4, 6]])) @ [[1, 2], [2, 4]], 1e-12)
    assert m.fails("lsqminnorm([1 2], [1; 2])").exc.identifier == "MATLAB:dimagree"
    err = m.fails("lsqminnorm(1, 1, 'loud')").exc
    assert err.identifier == "MATLAB:lsqminnorm:InvalidRankWarn"


# ---------------------------------------------------------- structure tests


def test_issymmetric_ishermitian(m):
    assert m.value("x = issymmetric([1 2; 2 1]);") is True
    assert m.value("x = issymmetric([1 2; 3 1]);") is False
    assert m.value("x = issymmetric([0 2; -2 0], 'skew');") is True
    assert m.value("x = issymmetric([1 2; 2 1], 'skew');") is False
    assert m.value("x = issymmetric([1 2; 2.0001 1], 1e-3);") is True
    assert m.value("x = issymmetric([1 2; 2.1 1], 'nonskew', 1e-3);") is False
    assert m.value("x = issymmetric(ones(2, 3));") is False
    assert m.value("x = issymmetric(int8([1 2; 2 1]));") is True
    assert m.value("x = issymmetric([1 1i; -1i 2]);") is False
    assert m.value("x = ishermitian([1 1i; -1i 2]);") is True
    assert m.value("x = ishermitian([1i 2; -2 0], 'skew');") is True
    assert m.value("x = ishermitian([1 1i; 1i 2]);") is False
    assert m.value("x = issymmetric([]);") is True
    assert m.fails("issymmetric(1, 'diagonal')").exc.identifier == "MATLAB:issymmetric:inputFlag"
    assert m.fails("ishermitian(1, -1)").exc.identifier == "MATLAB:ishermitian:tolerance"
    assert m.fails("issymmetric({1})").exc.identifier == "MATLAB:UndefinedFunction"


def test_bandwidth_isbanded(m):
    lower, upper = m.values("[l, u] = bandwidth([1 2 0; 0 3 4; 5 0 6]);", "l", "u")
    assert (lower, upper) == (2.0, 1.0)
    assert m.value("x = bandwidth([1 2 3; 0 4 5; 0 0 6], 'upper');") == 2.0
    assert m.value("x = bandwidth([1 2 3; 0 4 5; 0 0 6], 'lower');") == 0.0
    assert m.value("x = bandwidth([1 2 3; 0 4 5; 0 0 6]);") == 0.0
    assert m.values("[l, u] = bandwidth(zeros(3));", "l", "u") == [0.0, 0.0]
    assert m.values("[l, u] = bandwidth([0 0; 7 0; 0 0]);", "l", "u") == [1.0, 0.0]
    assert m.value("x = isbanded([1 2 0; 0 3 4; 0 0 6], 0, 1);") is True
    assert m.value("x = isbanded([1 2 0; 0 3 4; 5 0 6], 1, 1);") is False
    assert m.value("x = isbanded(eye(3), 0, 0);") is True
    assert m.fails("bandwidth(eye(2), 'middle')").exc.identifier == "MATLAB:bandwidth:invalidType"
    assert m.fails("isbanded(eye(2), -1, 0)").exc.identifier == "MATLAB:isbanded:InvalidBandwidth"
    assert m.fails("isbanded(eye(2), 0.5, 0)").exc.identifier == "MATLAB:isbanded:InvalidBandwidth"
