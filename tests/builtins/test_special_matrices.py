"""Structured and special matrices (mlang/builtins/data/matrices.py): tril, triu,
blkdiag, toeplitz, hankel, pascal, invhilb, rosser, wilkinson, compan, hadamard.
Values from MATLAB's documentation examples, checked with GNU Octave (hadamard
follows MATLAB's own construction, which differs from Octave's)."""

import numpy as np
import pytest


def rows(v) -> list:
    return np.asarray(v).tolist()


def test_tril_triu(m):
    m.run("A = magic(4);")
    assert rows(m.value("x = tril(magic(4));")) == [[16, 0, 0, 0], [5, 11, 0, 0], [9, 7, 6, 0],
                                                   [4, 14, 15, 1]]
    assert rows(m.value("x = triu(magic(4), 1);")) == [[0, 2, 3, 13], [0, 0, 10, 8], [0, 0, 0, 12],
                                                      [0, 0, 0, 0]]
    assert rows(m.value("x = tril(ones(2, 4), 1);")) == [[1, 1, 0, 0], [1, 1, 1, 0]]
    assert rows(m.value("x = triu(ones(3, 2), -1);")) == [[1, 1], [1, 1], [0, 1]]
    assert rows(m.value("x = tril(ones(2), -5);")) == [[0, 0], [0, 0]]
    x = m.value("x = triu(int8([1 2; 3 4]));")
    assert x.dtype == np.int8 and rows(x) == [[1, 2], [0, 4]]
    assert m.value("x = tril(true(2));").dtype == np.bool_
    assert rows(m.value("x = tril([1i 2; 3 4]);")) == [[1j, 0], [3, 4]]
    assert m.value("x = tril(zeros(0, 3));").shape == (0, 3)
    assert m.value("x = tril(5, -1);") == 0.0
    assert m.fails("tril(ones(2, 2, 2))").exc.identifier == "MATLAB:tril:firstInputMustBe2D"
    assert m.fails("triu(ones(2), 1.5)").exc.identifier == "MATLAB:triu:kthDiagInputNotInteger"
    assert m.fails("tril({1})").exc.identifier == "MATLAB:UndefinedFunction"


def test_blkdiag(m):
    assert rows(m.value("x = blkdiag([1 2; 3 4], 5);")) == [[1, 2, 0], [3, 4, 0], [0, 0, 5]]
    assert rows(m.value("x = blkdiag(1, zeros(0, 2), 2);")) == [[1, 0, 0, 0], [0, 0, 0, 2]]
    x = m.value("x = blkdiag(int8(7), 2);")
    assert x.dtype == np.int8 and rows(x) == [[7, 0], [0, 2]]
    assert m.value("x = blkdiag();").shape == (0, 0)
    assert rows(m.value("x = blkdiag([1 2], 1i);")) == [[1, 2, 0], [0, 0, 1j]]
    assert m.fails("blkdiag(ones(2, 2, 2))").exc.identifier == "MATLAB:blkdiag:NDInput"


def test_toeplitz(m):
    assert rows(m.value("x = toeplitz([1 2 3], [1 4 5 6]);")) == [[1, 4, 5, 6], [2, 1, 4, 5],
                                                                 [3, 2, 1, 4]]
    assert rows(m.value("x = toeplitz([1 2 3]);")) == [[1, 2, 3], [2, 1, 2], [3, 2, 1]]
    x = m.value("x = toeplitz([2 2-1i 3+1i]);")  # Hermitian, r(1) on the diagonal
    assert rows(x) == [[2, 2 - 1j, 3 + 1j], [2 + 1j, 2, 2 - 1j], [3 - 1j, 2 + 1j, 2]]
    x = m.value("x = toeplitz([1+2i 5]);")
    assert rows(x) == [[1 + 2j, 5], [5, 1 + 2j]]
    out = m.run("x = toeplitz([2 2 3], [1 4 5]);")
    assert rows(m.interp.base.vars["x"]) == [[2, 4, 5], [2, 2, 4], [3, 2, 2]]
    assert "Column wins diagonal conflict" in m.err.getvalue() + out
    assert m.value("x = toeplitz(single([1 2]));").dtype == np.float32
    assert m.value("x = toeplitz([]);").shape == (0, 0)
    assert rows(m.value("x = toeplitz([1; 2], 1);")) == [[1], [2]]


def test_hankel(m):
    assert rows(m.value("x = hankel([1 2 3]);")) == [[1, 2, 3], [2, 3, 0], [3, 0, 0]]
    assert rows(m.value("x = hankel([1 2 3], [3 5 6 7]);")) == [[1, 2, 3, 5], [2, 3, 5, 6],
                                                               [3, 5, 6, 7]]
    out = m.run("x = hankel([1 2 3], [4 5 6]);")
    assert rows(m.interp.base.vars["x"]) == [[1, 2, 3], [2, 3, 5], [3, 5, 6]]
    assert "anti-diagonal conflict" in m.err.getvalue() + out
    assert m.value("x = hankel(int16([1 2]));").dtype == np.int16


def test_pascal(m):
    assert rows(m.value("x = pascal(4);")) == [[1, 1, 1, 1], [1, 2, 3, 4], [1, 3, 6, 10],
                                              [1, 4, 10, 20]]
    assert rows(m.value("x = pascal(4, 1);")) == [[1, 0, 0, 0], [1, -1, 0, 0], [1, -2, 1, 0],
                                                 [1, -3, 3, -1]]
    assert rows(m.value("x = pascal(3, 2);")) == [[1, 1, 1], [-2, -1, 0], [1, 0, 0]]
    assert rows(m.value("x = pascal(4, 2);")) == [[-1, -1, -1, -1], [3, 2, 1, 0], [-3, -1, 0, 0],
                                                 [1, 0, 0, 0]]
    assert m.value("p = pascal(5, 2); x = isequal(p^3, eye(5));") is True
    assert m.value("p = pascal(5, 1); x = isequal(p*p, eye(5));") is True
    assert m.value("x = pascal(3, 'single');").dtype == np.float32
    assert m.value("x = pascal(0);").shape == (0, 0)
    assert m.fails("pascal(3, 4)").exc.identifier == "MATLAB:pascal:InvalidK"
    assert m.fails("pascal(3, 'int8')").exc.identifier == "MATLAB:invalidClassName"


def test_invhilb_rosser_wilkinson(m):
    assert rows(m.value("x = invhilb(4);")) == [[16, -120, 240, -140], [-120, 1200, -2700, 1680],
                                               [240, -2700, 6480, -4200],
                                               [-140, 1680, -4200, 2800]]
    assert np.allclose(m.value("x = invhilb(5) * hilb(5);"), np.eye(5), atol=1e-6)
    assert m.value("x = invhilb(2, 'single');").dtype == np.float32
    r = np.asarray(m.value("x = rosser;"))
    assert r.shape == (8, 8) and r[0, 0] == 611 and r[6, 7] == -911 and (r == r.T).all()
    e = np.sort(np.linalg.eigvalsh(r))
    assert np.allclose(e[[0, 3, 4, 7]], [-1020.0490184, 1000, 1000, 1020.0490184])
    assert m.value("x = rosser('single');").dtype == np.float32
    assert rows(m.value("x = wilkinson(3);")) == [[1, 1, 0], [1, 0, 1], [0, 1, 1]]
    assert rows(m.value("x = wilkinson(4);")) == [[1.5, 1, 0, 0], [1, 0.5, 1, 0], [0, 1, 0.5, 1],
                                                 [0, 0, 1, 1.5]]
    assert m.value("x = wilkinson(1);") == 0.0
    assert m.fails("wilkinson(-1)").exc.identifier == "MATLAB:wilkinson:InvalidN"


def test_compan(m):
    assert rows(m.value("x = compan([1 0 -7 6]);")) == [[0, 7, -6], [1, 0, 0], [0, 1, 0]]
    assert rows(m.value("x = compan([2; 4; 6]);")) == [[-2, -3], [1, 0]]
    assert m.value("x = compan(5);").shape == (0, 0)
    assert m.value("x = compan(single([1 2]));").dtype == np.float32
    assert m.fails("compan(ones(2))").exc.identifier == "MATLAB:compan:NeedVectorInput"


@pytest.mark.parametrize("n", [1, 2, 4, 8, 12, 20, 24, 40])
def test_hadamard_orthogonal(m, n):
    h = np.atleast_2d(m.value(f"x = hadamard({n});"))
    assert h.shape == (n, n) and set(np.unique(h)) <= {-1.0, 1.0}
    assert (h.T @ h == n * np.eye(n)).all()


def test_hadamard(m):
    assert rows(m.value("x = hadamard(4);")) == [[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1],
                                                [1, -1, -1, 1]]
    h = np.asarray(m.value("x = hadamard(12);"))
    assert h[1].tolist() == [1, -1, 1, -1, 1, 1, 1, -1, -1, -1, 1, -1]  # MATLAB's Toeplitz core
    assert m.value("x = hadamard(8, 'single');").dtype == np.float32
    assert m.fails("hadamard(6)").exc.identifier == "MATLAB:hadamard:InvalidInput"
    assert m.fails("hadamard(2.5)").exc.identifier == "MATLAB:hadamard:InvalidInput"


def test_perms(m):
    assert rows(m.value("x = perms([2 4 6]);")) == [[6, 4, 2], [6, 2, 4], [4, 6, 2], [4, 2, 6],
                                                   [2, 6, 4], [2, 4, 6]]
    # positions, not values, are in reverse lexicographic order
    assert rows(m.value("x = perms([3 1 2]);")) == [[2, 1, 3], [2, 3, 1], [1, 2, 3], [1, 3, 2],
                                                   [3, 2, 1], [3, 1, 2]]
    from mlang.values.core import char_rows
    assert char_rows(m.value("x = perms('abc');")) == ["cba", "cab", "bca", "bac", "acb", "abc"]
    x = m.value("x = perms(int8([1 2]));")
    assert x.dtype == np.int8 and rows(x) == [[2, 1], [1, 2]]
    assert m.value("x = perms([]);").shape == (1, 0)
    assert m.value("x = perms(7);") == 7.0
    assert m.value("x = perms({1, 'a', 2});").shape == (6, 3)
    assert m.value("x = size(perms(1:5), 1);") == 120.0


def test_complex_and_char_structured(m):
    assert rows(m.value("x = toeplitz([1 2 3], [1 2i 3]);")) == [[1, 2j, 3], [2, 1, 2j], [3, 2, 1]]
    assert rows(m.value("x = hankel([1 2 3], [3 1i 2]);")) == [[1, 2, 3], [2, 3, 1j], [3, 1j, 2]]
    x = m.value("x = blkdiag(single(1), single(2i));")
    assert x.dtype == np.complex64 and x[1, 1] == 2j
    from mlang.values.core import char_rows
    assert char_rows(m.value("x = toeplitz('abc');")) == ["abc", "bab", "cba"]
