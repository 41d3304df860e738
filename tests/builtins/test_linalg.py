"""Linear algebra, polynomials and interpolation (mlang/builtins/math: linalg, polynomials)."""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp


def rows(v) -> list:
    return np.asarray(v).tolist()


# ------------------------------------------------------------------ matrices


def test_kron(m):
    assert rows(m.value("x = kron([1 2], [1; 1]);")) == [[1, 2], [1, 2]]
    assert rows(m.value("x = kron(eye(2), [1 2; 3 4]);")) == [[1, 2, 0, 0], [3, 4, 0, 0],
                                                              [0, 0, 1, 2], [0, 0, 3, 4]]
    assert m.value("x = kron(int8([1 2]), 3);").dtype == np.int8


def test_diag(m):
    assert rows(m.value("x = diag([1 2 3]);")) == [[1, 0, 0], [0, 2, 0], [0, 0, 3]]
    assert rows(m.value("x = diag(magic(3));")) == [[8], [5], [2]]
    assert rows(m.value("x = diag([5 6], 1);")) == [[0, 5, 0], [0, 0, 6], [0, 0, 0]]
    assert rows(m.value("x = diag([5 6], -1);")) == [[0, 0, 0], [5, 0, 0], [0, 6, 0]]
    assert rows(m.value("x = diag(magic(3), -1);")) == [[3], [9]]
    assert m.value("x = diag(magic(3), 2);") == 6.0
    assert m.value("x = diag(magic(3), 5);").shape == (0, 1)
    assert m.value("x = diag(7);") == 7.0
    assert m.value("x = diag([]);").shape == (0, 0)
    assert m.value("x = diag(int8([1 2]));").dtype == np.int8


def test_trace_det_inv(m):
    assert m.value("x = trace(magic(3));") == 15.0
    assert m.value("x = trace(eye(5));") == 5.0
    assert m.value("x = det([1 2; 3 4]);") == pytest.approx(-2.0)
    assert m.value("x = det([4 1 2; 1 3 0; 2 1 5]);") == pytest.approx(45.0)
    assert m.value("x = det(eye(4) * 2);") == pytest.approx(16.0)
    assert m.value("x = det([]);") == 1.0
    assert np.allclose(m.value("x = inv([1 2; 3 4]);"), [[-2, 1], [1.5, -0.5]])
    for name in ("trace", "det", "inv"):
        assert m.fails(f"{name}([1 2 3])").exc.message == "Matrix must be square."


def test_inv_warns_for_singular_matrices(m):
    x = m.value("x = inv([1 2; 2 4]);")
    assert np.isinf(x).all()
    assert m.err.getvalue() == "Warning: Matrix is singular to working precision.\n"
    m.value("x = inv([1 1; 1 1+1e-17]);")
    assert "singular" in m.err.getvalue()


@settings(max_examples=30, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 4)).map(lambda t: (t[0], t[0])),
                  elements=st.integers(-9, 9).map(float)))
def test_inv_times_matrix_is_identity(m, a):
    if abs(np.linalg.det(a)) < 1e-3 or np.linalg.cond(a) > 1e8:
        return
    x = m.value("x = inv(a) * a;", a=a)
    assert np.allclose(x, np.eye(a.shape[0]), atol=1e-8)
    assert m.value("x = det(a);", a=a) == pytest.approx(np.linalg.det(a))


def test_norm(m):
    assert m.value("x = norm([3 4]);") == 5.0
    assert m.value("x = norm([1 2; 3 4]);") == pytest.approx(5.464985704219043)
    assert m.value("x = norm([1 2; 3 4], 1);") == 6.0
    assert m.value("x = norm([1 2; 3 4], inf);") == 7.0
    assert m.value("x = norm([1 2; 3 4], 'inf');") == 7.0
    assert m.value("x = norm([1 2; 3 4], 'fro');") == pytest.approx(np.sqrt(30))
    assert m.value("x = norm([1 -2 2], 1);") == 5.0
    assert m.value("x = norm([1 -5 2], inf);") == 5.0
    assert m.value("x = norm([1 -5 2], -inf);") == 1.0
    assert m.value("x = norm([1 2 3], 3);") == pytest.approx(36 ** (1 / 3))
    assert m.value("x = norm([]);") == 0.0
    assert m.value("x = norm([1e200 1e200]);") == pytest.approx(np.sqrt(2) * 1e200)
    assert "only matrix norms" in m.fails("norm(magic(3), 3)").exc.message


def test_cross_dot(m):
    assert rows(m.value("x = cross([1 0 0], [0 1 0]);")) == [[0, 0, 1]]
    assert rows(m.value("x = cross([1 2 3], [4 5 6]);")) == [[-3, 6, -3]]
    assert rows(m.value("x = cross([1; 0; 0], [0; 1; 0]);")) == [[0], [0], [1]]
    assert rows(m.value("x = cross([1 2 3; 4 5 6]', [7 8 9; 1 2 3]');")) == [[-6, 3], [12, -6], [-6, 3]]
    assert m.value("x = dot([1 2 3], [4 5 6]);") == 32.0
    assert m.value("x = dot([1; 2], [3; 4]);") == 11.0
    assert m.value("x = dot([1 2 3], [4; 5; 6]);") == 32.0
    assert rows(m.value("x = dot([1 2; 3 4], [1 2; 3 4]);")) == [[10, 20]]
    assert m.value("x = dot([1+2i 3], [1 1]);") == 4 - 2j
    assert "length 3" in m.fails("cross([1 2], [3 4])").exc.message


# ------------------------------------------------------------- polynomials


def test_conv_deconv(m):
    assert rows(m.value("x = conv([1 1], [1 -1]);")) == [[1, 0, -1]]
    assert rows(m.value("x = conv([1 2 3], [1 1 1], 'same');")) == [[3, 6, 5]]
    assert rows(m.value("x = conv([1 2 3 4], [1 1], 'valid');")) == [[3, 5, 7]]
    assert m.value("x = conv([1; 2], [1 2 3]);").shape == (1, 4)  # follows the longer input
    assert m.value("x = conv([1 2], [1; 2; 3]);").shape == (4, 1)
    q, r = m.values("[q, r] = deconv([1 3 2], [1 1]);", "q", "r")
    assert rows(q) == [[1, 2]] and rows(r) == [[0, 0, 0]]
    q, r = m.values("[q, r] = deconv([1 4 6 5], [1 2]);", "q", "r")
    assert rows(q) == [[1, 2, 2]] and rows(r) == [[0, 0, 0, 1]]
    q, r = m.values("[q, r] = deconv([1 2], [1 2 3]);", "q", "r")
    assert q == 0.0 and rows(r) == [[1, 2]]
    assert "non-zero" in m.fails("deconv([1 2], [0 1])").exc.message


@settings(max_examples=30, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 5), elements=st.integers(-5, 5).map(float)),
       hnp.arrays(np.float64, st.integers(1, 4), elements=st.integers(1, 5).map(float)))
def test_deconv_inverts_conv(m, q, d):
    y = np.convolve(q, d).reshape(1, -1)
    got = m.value("x = deconv(y, d);", y=y, d=d.reshape(1, -1))
    assert np.allclose(np.asarray(got).reshape(-1), q)


def test_polyval_polyfit_roots(m):
    assert m.value("x = polyval([1 2 3], 2);") == 11.0
    assert rows(m.value("x = polyval([1 0 -1], [0 1 2]);")) == [[-1, 0, 3]]
    assert rows(m.value("x = polyval([1 2 3], [1 2; 3 4]);")) == [[6, 11], [18, 27]]
    assert np.allclose(m.value("x = polyfit([0 1 2], [1 3 5], 1);"), [[2, 1]])
    assert np.allclose(m.value("x = polyfit([1 2 3 4], [1 4 9 16], 2);"), [[1, 0, 0]], atol=1e-10)
    p, s, mu = m.values("[p, s, mu] = polyfit([1 2 3], [2 4 6], 1);", "p", "s", "mu")
    assert np.allclose(rows(mu), [[2], [1]]) and np.allclose(p, [[2, 4]])
    assert s.fields == ["R", "df", "normr"]
    assert np.allclose(sorted(np.asarray(m.value("x = roots([1 -3 2]);")).reshape(-1)), [1, 2])
    assert rows(m.value("x = roots([1 0 0]);")) == [[0], [0]]
    assert m.value("x = roots([0 0 1 -1]);") == pytest.approx(1.0)
    r = np.asarray(m.value("x = roots([1 0 1]);")).reshape(-1)
    assert sorted(r.imag) == [-1, 1] and np.allclose(r.real, 0)
    assert m.value("x = roots(5);").shape == (0, 1)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-4, 4), min_size=1, max_size=4, unique=True))
def test_roots_of_product_polynomial(m, zeros):
    p = np.poly(zeros).reshape(1, -1)
    r = np.asarray(m.value("x = roots(p);", p=p)).reshape(-1)
    assert np.allclose(sorted(r.real), sorted(zeros), atol=1e-6)


# ------------------------------------------------------------- interpolation


def test_interp1_methods(m):
    assert m.value("x = interp1([1 2 3], [10 20 30], 2.5);") == 25.0
    assert rows(m.value("x = interp1([0 10], [0 100], [2 5 8]);")) == [[20, 50, 80]]
    out = np.asarray(m.value("x = interp1([1 2 3], [4 5 6], [0 1.5 4]);"))
    assert np.isnan(out[0, 0]) and out[0, 1] == 4.5 and np.isnan(out[0, 2])
    assert rows(m.value("x = interp1([1 2 3], [4 5 6], [0 4], 'linear', 'extrap');")) == [[3, 7]]
    assert rows(m.value("x = interp1([1 2 3], [4 5 6], [0 4], 'linear', 0);")) == [[0, 0]]
    assert rows(m.value("x = interp1([1 2 3], [4 5 6], [1.4 1.5 2.6], 'nearest');")) == [[4, 5, 6]]
    assert rows(m.value("x = interp1([1 2 3], [4 5 6], [1.5 2.5], 'previous');")) == [[4, 5]]
    assert rows(m.value("x = interp1([1 2 3], [4 5 6], [1.5 2.5], 'next');")) == [[5, 6]]
    assert rows(m.value("x = interp1([10 20 30], [1.5 2.5]);")) == [[15, 25]]
    assert np.allclose(m.value("x = interp1([1 2 3], [1 4 9], [1.5 2.5], 'spline');"), [[2.25, 6.25]])
    assert np.allclose(m.value("x = interp1([1 2 3 4], [1 4 9 16], [1.5 2.5], 'pchip');"),
                       [[2.28125, 6.2395833333]])
    assert rows(m.value("x = interp1([1 2 3]', [1 2; 3 4; 5 6], [1.5; 2.5]);")) == [[2, 3], [4, 5]]
    assert m.value("x = interp1([3 1 2], [30 10 20], 2.5);") == 25.0  # unsorted x
    assert m.value("x = interp1([1 2 3], [4 5 6], [1.5; 2.5]);").shape == (2, 1)
    assert "unique" in m.fails("interp1([1 1 2], [1 2 3], 1.5)").exc.message


@settings(max_examples=30, deadline=None)
@given(st.floats(0, 10), st.floats(-5, 5), st.floats(-5, 5))
def test_interp1_linear_reproduces_lines(m, q, slope, offset):
    x = np.array([[0.0, 2.5, 5.0, 10.0]])
    v = slope * x + offset
    got = m.value("x = interp1(xs, v, q);", xs=x, v=v, q=q)
    assert got == pytest.approx(slope * q + offset, abs=1e-9)
