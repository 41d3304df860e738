"""qz (generalized Schur factorization, mlang/builtins/math/decompositions.py) and funm
(a scalar function of a matrix, mlang/builtins/math/funm.py).  Numbers from MATLAB's
documented examples; the rest checked by the defining identities."""

import numpy as np
import scipy.linalg


def close(a, b, tol=1e-4) -> bool:
    return np.allclose(np.asarray(a), np.asarray(b), atol=tol)


# ---------------------------------------------------------------------------- qz


def test_qz_documented_example(m):
    aa, bb, q, z = m.values("A = [1 7 3; 2 9 12; 5 22 7]; B = [3 1 0; 0 3 1; 0 0 3];"
                            "[AA,BB,Q,Z] = qz(A,B);", "AA", "BB", "Q", "Z")
    assert close(aa, [[23.5574, 1.4134, -14.3485], [0, -0.5776, 2.7629], [0, 0, -8.6720]])
    assert close(bb, [[3.5845, -0.1090, -0.6024], [0, 2.7599, 0.8430], [0, 0, 2.7292]])
    assert close(q, [[0.2566, 0.6353, 0.7284], [-0.9477, 0.3134, 0.0604],
                     [-0.1899, -0.7058, 0.6824]])
    assert close(z, [[0.1502, -0.9664, -0.2088], [0.4689, 0.2556, -0.8455],
                     [0.8704, 0.0291, 0.4915]])
    a = np.array([[1, 7, 3], [2, 9, 12], [5, 22, 7.0]])
    assert close(q @ a @ z, aa, 1e-12)


def test_qz_eigenvectors_documented_example(m):
    aa, bb, q, z, v, w = m.values("A = [10 -7; -3 2]; B = [7 3; 12 9];"
                                  "[AA,BB,Q,Z,V,W] = qz(A,B);", "AA", "BB", "Q", "Z", "V", "W")
    assert close(aa, [[11.9600, -4.3532], [0, -0.0836]])
    assert close(bb, [[1.6381, -2.9374], [0, 16.4830]])
    assert close(q, [[-0.9597, 0.2811], [0.2811, 0.9597]])
    assert close(z, [[-0.5752, 0.8180], [0.8180, 0.5752]])
    assert close(v, [[-0.7031, 0.6960], [1.0, 1.0]])
    assert close(w, [[-1.0, 0.2929], [0.4537, 1.0]])


def test_qz_real_and_complex_modes(m):
    aa, bb, q, z = m.values("A = [0 1; -1 0]; [AA,BB,Q,Z] = qz(A, eye(2));",
                            "AA", "BB", "Q", "Z")
    assert aa.dtype == np.float64 and close(aa, [[0, 1], [-1, 0]], 1e-12)  # a 2-by-2 block
    aa, bb, q, z, v = m.values("A = [0 1; -1 0]; [AA,BB,Q,Z,V] = qz(A, eye(2), 'complex');",
                               "AA", "BB", "Q", "Z", "V")
    assert aa.dtype == np.complex128 and abs(aa[1, 0]) < 1e-12
    a = np.array([[0, 1], [-1, 0.0]])
    assert close(q @ a @ z, aa, 1e-12) and close(q @ z, bb, 1e-12)
    lam = np.diag(aa) / np.diag(bb)
    assert close(sorted(lam.imag), [-1, 1], 1e-12)
    assert close(a @ v, v @ np.diag(lam), 1e-12)


def test_qz_complex_input_identities(m):
    aa, bb, q, z, v, w = m.values(
        "A = magic(4); B = [4 1 0 0; 1 4 1 0; 0 1 4 1; 0 0 1 4] + 1i*eye(4);"
        "[AA,BB,Q,Z,V,W] = qz(A,B);", "AA", "BB", "Q", "Z", "V", "W")
    a = np.array([[16, 2, 3, 13], [5, 11, 10, 8], [9, 7, 6, 12], [4, 14, 15, 1.0]])
    b = np.diag([4.0] * 4) + np.diag([1.0] * 3, 1) + np.diag([1.0] * 3, -1) + 1j * np.eye(4)
    assert close(np.tril(aa, -1), 0, 1e-12) and close(np.tril(bb, -1), 0, 1e-12)
    assert close(q @ a @ z, aa, 1e-10) and close(q @ b @ z, bb, 1e-10)
    assert close(q.conj().T @ q, np.eye(4), 1e-12)
    da, db = np.diag(np.diag(aa)), np.diag(np.diag(bb))
    assert close(a @ v @ db, b @ v @ da, 1e-10)
    assert close(db @ w.conj().T @ a, da @ w.conj().T @ b, 1e-10)
    assert close((np.abs(v.real) + np.abs(v.imag)).max(axis=0), 1, 1e-12)


def test_qz_classes_and_errors(m):
    assert m.value("x = class(qz(single([1 2; 3 4]), eye(2)));").tobytes() == \
        m.value("x = 'single';").tobytes()
    assert m.fails("qz([1 2 3], [1 2 3])").exc.identifier == "MATLAB:square"
    assert m.fails("qz(eye(2), eye(3))").exc.identifier == "MATLAB:qz:InputSizeMismatch"
    assert m.fails("qz([1 NaN; 0 1], eye(2))").exc.identifier == "MATLAB:qz:matrixWithNaNInf"
    assert m.fails("qz(eye(2), eye(2), 'fast')").exc.identifier == "MATLAB:qz:unknownOption"
    assert m.fails("qz(int8(eye(2)), eye(2))").exc.identifier == "MATLAB:qz:integerNotSupported"
    aa, q = m.values("[AA,BB,Q,Z] = qz([], []);", "AA", "Q")
    assert np.asarray(aa).shape == (0, 0) and np.asarray(q).shape == (0, 0)


# -------------------------------------------------------------------------- funm


def test_funm_named_functions(m):
    a = np.array([[1, 2], [3, 4.0]])
    for name, ref in (("exp", scipy.linalg.expm), ("sin", scipy.linalg.sinm),
                      ("cos", scipy.linalg.cosm), ("sinh", scipy.linalg.sinhm),
                      ("cosh", scipy.linalg.coshm)):
        f = m.value(f"x = funm([1 2; 3 4], @{name});")
        assert f.dtype == np.float64 and close(f, ref(a), 1e-10), name
    f = m.value("x = funm([4 1; 0 9], @log);")
    assert close(f, scipy.linalg.logm(np.array([[4, 1], [0, 9.0]])), 1e-12)
    # sin of [1 2; 3 4] (the same as sinm)
    assert close(m.value("x = funm([1 2; 3 4], @sin);"), [[-0.4656, -0.1484],
                                                           [-0.2226, -0.6882]])


def test_funm_handle_with_derivatives(m):
    # fun(x, k) is the k-th derivative: exp is its own
    f, flag = m.values("[x, flag] = funm(magic(3)/10, @(x,k) exp(x));", "x", "flag")
    assert flag == 0 and close(f, scipy.linalg.expm(np.array(
        [[8, 1, 6], [3, 5, 7], [4, 9, 2.0]]) / 10), 1e-12)
    # repeated eigenvalues need the derivatives (Taylor series on the block)
    f = m.value("x = funm([2 1 0; 0 2 1; 0 0 2], @(x,k) exp(x));")
    assert close(f, np.exp(2) * np.array([[1, 1, 0.5], [0, 1, 1], [0, 0, 1]]), 1e-12)
    f = m.value("x = funm([0 1 1; 0 0 1; 0 0 0], @(x,k) cos(x + k*pi/2));")
    assert close(f, [[1, 0, -0.5], [0, 1, 0], [0, 0, 1]], 1e-12)
    f = m.value("x = funm([4 1; 0 9], @(x,k) sqrt(x));")
    assert close(f, [[2, 0.2], [0, 3]], 1e-12)


def test_funm_close_eigenvalues_blocked(m):
    c = np.array([[1, 5, 2, 0], [0, 3, 1, 4], [0, 0, 1.02, 7], [0, 0, 0, 3.01]])
    perm = [2, 0, 3, 1]
    c = c[np.ix_(perm, perm)]
    f = m.value("x = funm(C, @(x,k) exp(x));", C=c)
    ref = scipy.linalg.expm(c)
    assert np.linalg.norm(f - ref) / np.linalg.norm(ref) < 1e-12


def test_funm_classes_and_errors(m):
    f = m.value("x = funm(single([1 2; 3 4]), @cos);")
    assert f.dtype == np.float32
    assert m.value("x = funm([], @exp);").shape == (0, 0)
    assert m.fails("funm([1 2 3], @exp)").exc.identifier == "MATLAB:square"
    assert m.fails("funm([1 2; 3 4], 5)").exc.identifier == "MATLAB:funm:InvalidFun"
    assert m.fails("funm([1 Inf; 0 1], @exp)").exc.identifier == "MATLAB:funm:matrixWithNaNInf"
    # a handle that takes one input is called with two, as in MATLAB
    assert m.fails("funm([1 2; 3 4], @(x) x.^2)").exc.identifier == "MATLAB:TooManyInputs"
