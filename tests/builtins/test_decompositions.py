"""Matrix decompositions (mlang/builtins/math/decompositions.py): eig, svd, qr, lu, chol,
schur, hess.  Numbers from MATLAB's documented examples or GNU Octave."""

import numpy as np
import pytest


def close(a, b, tol=1e-4) -> bool:
    return np.allclose(np.asarray(a), np.asarray(b), atol=tol)


# ----------------------------------------------------------------------- eig


def test_eig_values_and_vectors(m):
    e = m.value("x = eig([1 2; 3 4]);")
    assert e.shape == (2, 1) and close(e, [[-0.3723], [5.3723]])
    v, d = m.values("[V, D] = eig([1 2; 3 4]);", "V", "D")
    assert close(v, [[-0.8246, -0.4160], [0.5658, -0.9094]])
    assert close(d, [[-0.3723, 0], [0, 5.3723]])
    v, d, w = m.values("A = [1 2; 3 4]; [V, D, W] = eig(A);", "V", "D", "W")
    a = np.array([[1, 2], [3, 4]])
    assert close(a @ v, v @ d, 1e-12) and close(w.conj().T @ a, d @ w.conj().T, 1e-12)
    assert close(np.linalg.norm(w, axis=0), [1, 1], 1e-12)


def test_eig_symmetric_is_real_and_sorted(m):
    e = m.value("x = eig([2 -1 0; -1 2 -1; 0 -1 2]);")
    assert close(e.ravel(), [2 - np.sqrt(2), 2, 2 + np.sqrt(2)], 1e-12)
    v, d = m.values("[V, D] = eig([2 0; 0 1]);", "V", "D")
    assert v.tolist() == [[0, 1], [1, 0]] and d.tolist() == [[1, 0], [0, 2]]
    v = m.value("[x, D] = eig([2 1+1i; 1-1i 3]);")
    assert close(v.conj().T @ v, np.eye(2), 1e-12)
    d = m.value("[V, x] = eig([2 1+1i; 1-1i 3]);")
    assert d.dtype == np.float64 and close(np.diag(d), [1, 4], 1e-12)


def test_eig_complex_and_output_forms(m):
    e = m.value("x = eig([0 1; -1 0]);")
    assert close(e, [[1j], [-1j]], 1e-12)
    assert close(m.value("x = eig([1 2; 3 4], 'matrix');"), [[-0.3723, 0], [0, 5.3723]])
    d = m.value("[V, x] = eig([2 0; 0 1], 'vector');")
    assert d.tolist() == [[1], [2]]
    assert close(m.value("x = eig([1 2; 3 4], 'nobalance');"), [[-0.3723], [5.3723]])
    assert m.value("x = eig(single([1 2; 3 4]));").dtype == np.float32
    assert m.value("x = eig([]);").shape == (0, 1)
    assert m.value("x = eig(5);") == 5.0


def test_eig_generalized(m):
    e = m.value("x = eig([1 2; 3 4], [2 0; 0 1]);")
    assert close(e, [[-0.2122], [4.7122]])
    v, d = m.values("A = [1 2; 3 4]; B = [2 1; 0 1]; [V, D] = eig(A, B);", "V", "D")
    a, b = np.array([[1, 2], [3, 4]]), np.array([[2, 1], [0, 1]])
    assert close(np.diag(d), [-0.3028, 3.3028]) and close(a @ v, b @ v @ d, 1e-12)
    assert close(np.linalg.norm(v, axis=0), [1, 1], 1e-12)
    # Hermitian A and positive definite B: the 'chol' algorithm, eigenvectors of unit B-norm
    v = m.value("[x, D] = eig([2 1; 1 2], [2 0; 0 1]);")
    assert close(v.T @ np.diag([2, 1]) @ v, np.eye(2), 1e-12)
    e = m.value("x = eig([2 1; 1 2], [2 0; 0 1], 'qz');")
    assert close(np.sort(e.ravel()), [0.6340, 2.3660])


def test_eig_errors(m):
    assert m.fails("eig([1 2 3])").exc.identifier == "MATLAB:square"
    err = m.fails("eig([1 NaN; 1 1])").exc
    assert err.identifier == "MATLAB:eig:matrixWithNaNInf"
    assert err.message == "Input to EIG must not contain NaN or Inf."
    assert m.fails("eig(int8([1 2; 3 4]))").exc.message == \
        "Invalid data type. Input matrix must be double or single."
    assert m.fails("eig({1})").exc.identifier == "MATLAB:UndefinedFunction"
    assert m.fails("eig([1 2; 3 4], 'bogus')").exc.identifier == "MATLAB:eig:unknownOption"
    assert m.fails("[a, b, c, d] = eig(1)").exc.identifier == "MATLAB:TooManyOutputs"


# ----------------------------------------------------------------------- svd


def test_svd_documented_example(m):
    s = m.value("x = svd([1 2; 3 4; 5 6; 7 8]);")
    assert close(s, [[14.2691], [0.6268]])
    u, s, v = m.values("[U, S, V] = svd([1 2; 3 4; 5 6; 7 8]);", "U", "S", "V")
    assert close(u, [[-0.1525, -0.8226, -0.3945, -0.3800], [-0.3499, -0.4214, 0.2428, 0.8007],
                     [-0.5474, -0.0201, 0.6979, -0.4614], [-0.7448, 0.3812, -0.5462, 0.0407]])
    assert close(s, [[14.2691, 0], [0, 0.6268], [0, 0], [0, 0]])
    assert close(v, [[-0.6414, 0.7672], [-0.7672, -0.6414]])


def test_svd_economy_and_forms(m):
    u, s, v = m.values("[U, S, V] = svd([1 2; 3 4; 5 6; 7 8], 'econ');", "U", "S", "V")
    assert u.shape == (4, 2) and s.shape == (2, 2) and v.shape == (2, 2)
    u, s, v = m.values("[U, S, V] = svd([1 2; 3 4; 5 6; 7 8]', 'econ');", "U", "S", "V")
    assert u.shape == (2, 2) and s.shape == (2, 2) and v.shape == (4, 2)
    u, s, v = m.values("[U, S, V] = svd([1 2; 3 4; 5 6; 7 8]', 0);", "U", "S", "V")
    assert u.shape == (2, 2) and s.shape == (2, 4) and v.shape == (4, 4)  # 0: only m > n
    s = m.value("[U, x, V] = svd([1 2; 3 4; 5 6; 7 8], 'vector');")
    assert close(s, [[14.2691], [0.6268]])
    assert close(m.value("x = svd([3 0; 0 4], 'matrix');"), [[4, 0], [0, 3]], 1e-12)
    assert m.value("x = svd(single(magic(3)));").dtype == np.float32
    assert m.value("x = svd(zeros(0, 3));").shape == (0, 1)
    u, s, v = m.values("[U, S, V] = svd(zeros(0, 3));", "U", "S", "V")
    assert u.shape == (0, 0) and s.shape == (0, 3) and v.tolist() == np.eye(3).tolist()
    err = m.fails("svd([1 Inf])").exc
    assert err.identifier == "MATLAB:svd:matrixWithNaNInf"
    assert err.message == "Input to SVD must not contain NaN or Inf."


# ------------------------------------------------------------------------ qr


def test_qr_documented_example(m):
    r = m.value("x = qr(magic(5));")
    assert close(r[0], [-32.4808, -26.6311, -21.3973, -23.7063, -25.8615])
    assert close(np.diag(r), [-32.4808, 19.8943, -24.3985, -20.0982, -16.0005])
    assert np.allclose(np.tril(r, -1), 0)


def test_qr_forms(m):
    q, r = m.values("A = magic(3); [Q, R] = qr(A);", "Q", "R")
    a = np.array([[8, 1, 6], [3, 5, 7], [4, 9, 2]])
    assert close(q @ r, a, 1e-12) and close(q.T @ q, np.eye(3), 1e-12)
    q, r = m.values("[Q, R] = qr([1 2; 3 4; 5 6], 'econ');", "Q", "R")
    assert q.shape == (3, 2) and r.shape == (2, 2)
    q, r, p = m.values("[Q, R, P] = qr([1 2 3; 4 5 6; 7 8 10]);", "Q", "R", "P")
    a = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 10]])
    assert p.tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]]
    assert close(a @ p, q @ r, 1e-12)
    assert np.all(np.diff(np.abs(np.diag(r))) <= 0)
    p = m.value("[Q, R, x] = qr([1 2 3; 4 5 6; 7 8 10], 'vector');")
    assert p.tolist() == [[3, 1, 2]]
    q, r, p = m.values("[Q, R, P] = qr([1 2; 3 4; 5 6], 0);", "Q", "R", "P")
    assert q.shape == (3, 2) and p.tolist() == [[2, 1]]
    p = m.value("[Q, R, x] = qr([1 2; 3 4; 5 6], 'econ');")
    assert p.tolist() == [[0, 1], [1, 0]]
    assert m.fails("qr([1 2], 'bogus')").exc.identifier == "MATLAB:qr:unknownOption"
    assert m.fails("qr(int8(1))").exc.identifier == "MATLAB:qr:integerNotSupported"


# ------------------------------------------------------------------------ lu


def test_lu_forms(m):
    a = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 0]])
    lower, upper = m.values("[L, U] = lu([1 2 3; 4 5 6; 7 8 0]);", "L", "U")
    assert close(lower, [[0.1429, 1, 0], [0.5714, 0.5, 1], [1, 0, 0]])
    assert close(upper, [[7, 8, 0], [0, 0.8571, 3], [0, 0, 4.5]])
    assert close(lower @ upper, a, 1e-12)
    lower, upper, p = m.values("[L, U, P] = lu([1 2 3; 4 5 6; 7 8 0]);", "L", "U", "P")
    assert p.tolist() == [[0, 0, 1], [1, 0, 0], [0, 1, 0]]
    assert close(lower, [[1, 0, 0], [0.1429, 1, 0], [0.5714, 0.5, 1]])
    p = m.value("[L, U, x] = lu([1 2 3; 4 5 6; 7 8 0], 'vector');")
    assert p.tolist() == [[3, 1, 2]]
    y = m.value("x = lu([1 2 3; 4 5 6; 7 8 0]);")
    assert close(y, [[7, 8, 0], [0.1429, 0.8571, 3], [0.5714, 0.5, 4.5]])
    y = m.value("x = lu([1 2; 3 4; 5 6]);")
    assert close(y, [[5, 6], [0.2, 0.8], [0.6, 0.5]])
    lower, upper = m.values("[L, U] = lu([1 2 3; 4 5 6]);", "L", "U")
    assert lower.shape == (2, 2) and upper.shape == (2, 3)
    assert close(lower @ upper, [[1, 2, 3], [4, 5, 6]], 1e-12)
    assert m.fails("lu(magic(3), 'bogus')").exc.identifier == "MATLAB:lu:unknownOption"


# ---------------------------------------------------------------------- chol


def test_chol(m):
    r = m.value("x = chol([2 -1 0; -1 2 -1; 0 -1 2]);")
    assert close(r, [[1.4142, -0.7071, 0], [0, 1.2247, -0.8165], [0, 0, 1.1547]])
    lower = m.value("x = chol([2 -1 0; -1 2 -1; 0 -1 2], 'lower');")
    assert close(lower, r.T, 1e-12)
    assert close(m.value("x = chol([4 12; 99 37]);"), [[2, 6], [0, 1]], 1e-12)  # upper only
    r, flag = m.values("[R, flag] = chol([1 2 3; 2 1 4; 3 4 1]);", "R", "flag")
    assert r == 1.0 and flag == 2.0
    r, flag = m.values("[R, flag] = chol([4 2 3; 2 5 4; 3 4 1]);", "R", "flag")
    assert close(r, [[2, 1], [0, 2]], 1e-12) and flag == 3.0
    r, flag = m.values("[R, flag] = chol([4 2; 2 5]);", "R", "flag")
    assert flag == 0.0 and close(r, [[2, 1], [0, 2]], 1e-12)
    assert m.value("x = chol(single(4));").dtype == np.float32
    err = m.fails("chol([1 2; 2 1])").exc
    assert err.identifier == "MATLAB:posdef" and err.message == "Matrix must be positive definite."
    assert m.fails("chol([1 2 3])").exc.identifier == "MATLAB:square"
    assert m.fails("chol(eye(2), 'sideways')").exc.identifier == "MATLAB:chol:invalidOption"


# -------------------------------------------------------------- schur, hess


def test_schur(m):
    a = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 10]], dtype=float)
    u, t = m.values("[U, T] = schur([1 2 3; 4 5 6; 7 8 10]);", "U", "T")
    assert close(u @ t @ u.T, a, 1e-10) and np.allclose(np.tril(t, -1), 0, atol=1e-12)
    t = m.value("x = schur([1 2; -3 1]);")
    assert t.dtype == np.float64 and close(sorted(np.linalg.eigvals(t).imag), [-2.4495, 2.4495])
    u, t = m.values("[U, T] = schur([1 2; -3 1], 'complex');", "U", "T")
    assert np.iscomplexobj(t) and abs(t[1, 0]) < 1e-12
    assert close(u @ t @ u.conj().T, [[1, 2], [-3, 1]], 1e-12)
    assert m.fails("schur([1 2], 'real')").exc.identifier == "MATLAB:square"
    assert m.fails("schur(1, 'bogus')").exc.identifier == "MATLAB:schur:InvalidInput"


def test_hess(m):
    p, h = m.values("[P, H] = hess(magic(4));", "P", "H")
    a = np.array([[16, 2, 3, 13], [5, 11, 10, 8], [9, 7, 6, 12], [4, 14, 15, 1]], dtype=float)
    assert close(p @ h @ p.T, a, 1e-10) and np.allclose(np.tril(h, -2), 0)
    assert close(h[0], [16, -8.0577, 8.8958, 6.1595])
    assert m.value("x = hess(5);") == 5.0
    assert m.fails("hess(ones(2, 3))").exc.identifier == "MATLAB:square"


@pytest.mark.parametrize("name", ["eig", "svd", "qr", "lu", "chol", "schur", "hess"])
def test_decompositions_refuse_nd_and_text(m, name):
    assert m.fails(f"{name}(ones(2, 2, 2))").exc.identifier == f"MATLAB:{name}:inputMustBe2D"
    assert m.fails(f"{name}('ab')").exc.identifier == "MATLAB:UndefinedFunction"
