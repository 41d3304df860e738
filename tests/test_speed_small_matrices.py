"""The fast paths of linear algebra and reductions on small matrices (3x3 systems, short
vectors) give exactly what their general paths give: the same class, shape, values bit for
bit (NaN, Inf and the sign of zero included), the same warnings and the same errors.  Each
fast path is compared with the general path, reached with the fast path switched off or
with an argument form the fast path does not take (a 1x1 array for a number, an explicit
default option, a trailing singleton dimension)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from mlang.builtins.math import decompositions, linalg
from mlang.builtins.math.cumulative import cumprod, cumsum, diff
from mlang.builtins.math.decompositions import chol, eig, qr
from mlang.builtins.math.extrema import _extreme, cummax, cummin, max_, min_
from mlang.builtins.math.linalg import cross, diag, dot, inv, kron, norm
from mlang.builtins.math.reductions import all_, any_, mean, median, prod, std, sum_, var
from mlang.errors import MatlabError
from mlang.values import solve as solve_module
from mlang.values.core import char_row, result
from mlang.values.string import StringArray

from .running import run

NAN, INF = math.nan, math.inf


def same(a: object, b: object) -> None:
    """a and b are the same MATLAB value: type, class, shape and bits."""
    assert type(a) is type(b), (a, b)
    if isinstance(a, tuple):
        assert len(a) == len(b)  # type: ignore[arg-type]
        for p, q in zip(a, b, strict=True):  # type: ignore[call-overload]
            same(p, q)
        return
    if type(a) is np.ndarray:
        assert a.dtype == b.dtype and a.shape == b.shape, (a, b)  # type: ignore[union-attr]
        assert a.tobytes(order="F") == b.tobytes(order="F"), (a, b)  # type: ignore[union-attr]
        return
    if type(a) in (float, complex):
        assert np.array(a).tobytes() == np.array(b).tobytes(), (a, b)
        return
    assert a == b, (a, b)


def _square_matrices() -> list[np.ndarray]:
    rng = np.random.default_rng(27)
    out = [
        np.array([[4.0, 1, 0], [1, 5, 2], [0, 2, 6]]),  # symmetric positive definite
        np.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]]),  # general
        np.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]]),  # singular (close, in floating point)
        np.array([[1.0, 2], [2, 4]]),  # exactly singular
        np.array([[0.0, 0], [0, 0]]),
        np.array([[2.0, 0, 0], [1, 3, 0], [4, 5, 6]]),  # lower triangular
        np.array([[2.0, 1, 4], [0, 3, 5], [0, 0, 6]]),  # upper triangular
        np.array([[2.0, 1, 4], [0, 0, 5], [0, 0, 6]]),  # upper, zero on the diagonal
        np.diag([1.0, -2.0, 3.0]),
        np.diag([1.0, 0.0, 3.0]),
        np.array([[-0.0, 1], [1, -0.0]]),
        np.array([[1.0, 2], [2, 1]]),  # symmetric, indefinite: Cholesky fails, LU solves
        np.array([[1e-20, 1], [1, 1]]),
        np.array([[1.0, 1], [1, 1 + 1e-15]]),  # symmetric positive diagonal, nearly singular
        np.array([[1e308, 1e308], [1e308, 1.0]]),  # column sums overflow
        np.array([[NAN, 1], [2, 3]]),
        np.array([[INF, 1], [2, 3]]),
        np.array([[1.0, -INF], [2, 3]]),
        np.array([[1.0, 2], [3, 6 + 1e-14]]),
        np.array([[2.0, 1e-17], [0, 1e-17]]),
        np.array([[5.0]]),
        np.array([[0.0]]),
        np.array([[9e307, 8.9e307], [8.9e307, 9e307]]),  # dominant, barely: 2*diagonal overflows
        np.array([[1.7e308, -1e307], [1e307, 1.7e308]]),
        np.array([[1.0, 1 - 1e-12], [1 - 1e-12, 1.0]]),
        np.array([[1.0, 0.5, 0.5 - 1e-15], [0.0, 1.0, 0.0], [0.0, 0.5, 1.0]]),
        np.array([[1e-300, 0.0], [0.0, 1e-300]]),
        np.array([[1e-320, 1e-321], [0.0, 1e-320]]),
    ]
    for n in range(1, 9):
        g = rng.standard_normal((n, n))
        out += [g, g @ g.T + n * np.eye(n), np.tril(g), np.triu(g), np.asfortranarray(g),
                rng.integers(-2, 3, (n, n)).astype(float)]
    return out


def _rhs(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(n)
    return [np.arange(1.0, n + 1).reshape(n, 1), rng.standard_normal((n, 3)),
            np.array([[NAN]] * n), np.full((n, 1), INF), np.zeros((n, 0)), -np.zeros((n, 1))]


def _general_solve(monkeypatch: pytest.MonkeyPatch, x: np.ndarray, y: np.ndarray) -> tuple:
    with monkeypatch.context() as m:
        m.setattr(solve_module, "_small_double", lambda *args: None)
        return _solve_with_warnings(monkeypatch, x, y)


def _solve_with_warnings(monkeypatch: pytest.MonkeyPatch, x: np.ndarray, y: np.ndarray) -> tuple:
    warnings: list[tuple[str, str]] = []
    with monkeypatch.context() as m:
        m.setattr(solve_module, "warn", lambda ident, message: warnings.append((ident, message)))
        with np.errstate(all="ignore"):
            out = solve_module.solve(x, y)
    return out, warnings


def test_small_solve_matches_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    for x in _square_matrices():
        for y in _rhs(x.shape[0]):
            fast, fast_warnings = _solve_with_warnings(monkeypatch, x, y)
            general, general_warnings = _general_solve(monkeypatch, x, y)
            same(fast, general)
            assert fast_warnings == general_warnings, (x, y)


def test_small_solve_warns_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    _, warnings = _solve_with_warnings(monkeypatch, np.array([[1.0, 2], [2, 4]]), np.ones((2, 1)))
    assert [w[0] for w in warnings] == ["MATLAB:singularMatrix"]
    _, warnings = _solve_with_warnings(monkeypatch, np.array([[1.0, 2], [3, 6 + 1e-14]]), np.ones((2, 1)))
    assert [w[0] for w in warnings] == ["MATLAB:nearlySingularMatrix"]
    assert "RCOND =  1.295260e-16." in warnings[0][1]
    _, warnings = _solve_with_warnings(monkeypatch, np.array([[2.0, 1e-17], [0, 1e-17]]), np.ones((2, 1)))
    assert "RCOND =  5.000000e-18." in warnings[0][1]
    _, warnings = _solve_with_warnings(monkeypatch, np.array([[4.0, 1, 0], [1, 5, 2], [0, 2, 6]]),
                                       np.ones((3, 1)))
    assert warnings == []


def test_small_solve_other_classes_take_the_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    x = np.array([[4.0, 1], [1, 3]])
    y = np.array([[1.0], [2.0]])
    for a, b in ((x.astype(np.float32), y.astype(np.float32)), (x + 1j, y), (x, y + 2j)):
        dtype = np.result_type(a, b)
        fast, _ = _solve_with_warnings(monkeypatch, a.astype(dtype), b.astype(dtype))
        general, _ = _general_solve(monkeypatch, a.astype(dtype), b.astype(dtype))
        same(fast, general)


# ------------------------------------------------------------ reductions


def _matrices() -> list[np.ndarray]:
    """2-D double arrays of many shapes and values, with their int, single, logical, char
    and complex forms (which the fast paths leave to the general path)."""
    rng = np.random.default_rng(28)
    base = [
        np.array([[4.0, 1, 0], [1, 5, 2], [0, 2, 6]]),
        np.array([[0.0, -0.0], [-0.0, 0.0]]),
        np.array([[-0.0, 0.0, -0.0], [0.0, -0.0, -0.0]]),
        np.array([[NAN, 1.0], [2.0, NAN]]),
        np.array([[NAN, NAN], [NAN, 1.0]]),
        np.array([[INF, -INF, 1.0], [NAN, 0.0, -0.0]]),
        np.array([[1e308, 1e308], [1e308, 1e308], [-1e308, 2.0]]),
        np.array([[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]),
        np.array([[3.0, 4.0, 1.0]]),
        np.array([[3.0], [4.0], [1.0]]),
        np.array([[NAN]]),
        np.array([[-0.0]]),
        np.array([[5.0]]),
        np.array([[1.0, NAN, 3.0]]),
        np.array([[NAN], [2.0]]),
        np.array([[1.0, 4.0]]),
        np.array([[2.0], [-5.0]]),
        np.array([[0.0, -0.0, 0.0]]),
        np.array([[-0.0], [0.0]]),
        np.zeros((0, 0)),
        np.zeros((0, 3)),
        np.zeros((3, 0)),
        np.zeros((1, 0)),
        np.arange(24.0).reshape(2, 3, 4),
        np.arange(12.0).reshape(3, 4)[:, ::2],
        np.asfortranarray(np.arange(12.0).reshape(3, 4)),
    ]
    for shape in ((2, 2), (3, 3), (4, 7), (9, 3), (8, 8), (10, 12), (1, 9), (9, 1), (1, 20), (20, 1)):
        base.append(rng.standard_normal(shape))
        base.append(rng.integers(-2, 3, shape).astype(float))  # ties and zeros
        base.append(rng.integers(-2, 3, shape) * rng.standard_normal(shape) * 1e300)
    out = list(base)
    for a in base[:12]:
        if a.ndim == 2 and np.isfinite(a).all():
            out += [a.astype(np.int8), a.astype(np.uint16), a.astype(np.int64), a.astype(np.uint64)]
        out += [a.astype(np.float32), a != 0, a + 1j * a[::-1], a + 0j]
    return out


def _values(x: object) -> list[object]:
    """``x`` and, for 1x1 double arrays, the number MATLAB code would hold."""
    if type(x) is np.ndarray and x.dtype == np.float64 and x.shape == (1, 1):
        return [x, float(x[0, 0])]
    return [x]


def _outcome(f: Any, *args: Any, **kwargs: Any) -> object:
    """f's result, or the identifier of the MATLAB error it raises."""
    try:
        with np.errstate(all="ignore"):
            return f(*args, **kwargs)
    except MatlabError as e:
        return ("error", e.identifier)


def test_sum_and_mean_of_matrices_match_general_path() -> None:
    default = char_row("default")
    for a in _matrices():
        for x in _values(a):
            same(_outcome(sum_, x), _outcome(sum_, x, default))
            same(_outcome(mean, x), _outcome(mean, x, default))
            for d in (1.0, 2.0, 3.0):
                same(_outcome(sum_, x, d), _outcome(sum_, x, np.array([[d]]), default))
                same(_outcome(mean, x, d), _outcome(mean, x, np.array([[d]]), default))


def test_var_and_std_of_vectors_match_general_path() -> None:
    rng = np.random.default_rng(30)
    short = []
    for n in range(1, 12):
        for _ in range(40):
            v = rng.uniform(-1, 1, n) * 10.0 ** rng.integers(-20, 20, n)
            short += [v.reshape(1, n), v.reshape(n, 1)]
        short.append(np.array([[1e308, -1e308, 1e308][:n] + [0.0] * max(n - 3, 0)]))
    for rows in range(2, 9):
        for _ in range(30):
            cols = int(rng.integers(2, 6))
            short.append(rng.uniform(-1, 1, (rows, cols)) * 10.0 ** rng.integers(-20, 20, (rows, cols)))
    for a in short:
        for f in (var, std):
            same(f(a), f(a, 0.0))
    for a in _matrices():
        for x in _values(a):
            for f in (var, std):
                same(_outcome(f, x), _outcome(f, x, 0.0))
                same(_outcome(f, x, nargout=2), _outcome(f, x, 0.0, nargout=2))


def test_cumsum_and_cumprod_along_a_dimension_match_general_path() -> None:
    forward = char_row("forward")
    for a in _matrices():
        for x in _values(a):
            for f in (cumsum, cumprod):
                same(_outcome(f, x), _outcome(f, x, forward))
                for d in (1.0, 2.0, 3.0, 0.0, 1.5, -1.0, NAN):
                    same(_outcome(f, x, d), _outcome(f, x, np.array([[d]]), forward))
                same(_outcome(f, x, char_row("x")), ("error", "MATLAB:invalidOption"))


def test_max_and_min_match_general_path() -> None:
    empty = np.zeros((0, 0))
    for a in _matrices():
        for x in _values(a):
            for f, name, largest in ((max_, "max", True), (min_, "min", False)):
                for nargout in (1, 2):
                    general = _outcome(_extreme, x, (), nargout, largest, name)
                    same(_outcome(f, x, nargout=nargout), general)
                    for d in (1.0, 2.0, 3.0, 0.0, 2.5):
                        same(_outcome(f, x, empty, d, nargout=nargout),
                             _outcome(_extreme, x, (np.array([[d]]),), nargout, largest, name))
                    for word in ("all", "All", "linear", "omitnan"):
                        same(_outcome(f, x, empty, char_row(word), nargout=nargout),
                             _outcome(_extreme, x, (char_row(word),), nargout, largest, name))
                    same(_outcome(f, x, np.zeros((0, 1)), 2.0, nargout=nargout),
                         _outcome(f, x, np.zeros((0, 1)), np.array([[2.0]]), nargout=nargout))
                    same(_outcome(f, x, np.ones((1, 1)), 2.0, nargout=nargout),
                         ("error", f"MATLAB:{name}:secondInputNotEmpty"))


# ------------------------------------------------------------ linear algebra


def _with_warnings(monkeypatch: pytest.MonkeyPatch, module: Any, f: Any, *args: Any, **kwargs: Any) -> tuple:
    warnings: list[tuple[str, str]] = []
    with monkeypatch.context() as m:
        m.setattr(module, "warn", lambda ident, message: warnings.append((ident, message)))
        m.setattr(solve_module, "warn", lambda ident, message: warnings.append((ident, message)))
        return _outcome(f, *args, **kwargs), warnings


def _all_square() -> list[object]:
    out: list[object] = []
    for a in _square_matrices() + _matrices():
        out += _values(a)
        if a.ndim == 2 and a.shape[0] == a.shape[1]:
            out += [a.T, a.T.copy()] + ([-a] if a.dtype != np.bool_ else [])
    return out


def test_eig_of_small_matrices_matches_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    symmetric = [np.array([[2.0, 1], [1, 2]]), np.array([[1.0, -0.0], [0.0, 1]]), np.eye(16),
                 np.ones((17, 17)), np.array([[0.0, 1], [-1, 0]]), np.array([[1.0, 1e308], [1e308, 1]])]
    for x in _all_square() + symmetric:
        for nargout in (1, 2, 3):
            fast = _outcome(eig, x, nargout=nargout)
            with monkeypatch.context() as m:
                m.setattr(decompositions, "_small_eigenvalues", lambda a: None)
                m.setattr(decompositions, "_small_symmetric_eigenvectors", lambda a: None)
                general = _outcome(eig, x, nargout=nargout)
            same(fast, general)


def test_inv_of_small_matrices_matches_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    for x in _all_square() + [np.zeros((2, 3)), np.ones((2, 2, 2))]:
        fast = _with_warnings(monkeypatch, linalg, inv, x)
        with monkeypatch.context() as m:
            m.setattr(linalg, "_double_inverse", lambda a: None)
            general = _with_warnings(monkeypatch, linalg, inv, x)
        same(fast[0], general[0])
        assert fast[1] == general[1], x


def test_norms_match_general_path() -> None:
    rng = np.random.default_rng(33)
    extra = [rng.standard_normal((1, n)) * 10.0 ** rng.integers(-200, 200, n) for n in range(1, 12)]
    extra += [np.array([[NAN, INF, -INF]]), np.array([[-INF, 1.0]]), np.array([[-0.0, -0.0]])]
    for x in _all_square() + _matrices() + extra:
        same(_outcome(norm, x), _outcome(norm, x, np.array([[2.0]])))
        for p in (1.0, 2.0, INF, -INF, 3.0, 0.0, 0.5, NAN):
            same(_outcome(norm, x, p), _outcome(norm, x, np.array([[p]])))
        if type(x) is np.ndarray and x.ndim == 2 and x.dtype == np.float64 and x.size:
            # 'fro': the general path's 2-norm of the elements in row order
            with np.errstate(all="ignore"):
                general = result(np.array([[linalg._vector_norm(x.reshape(-1), 2.0)]]))
            same(_outcome(norm, x, char_row("fro")), general)
            same(_outcome(norm, x, StringArray.scalar("fro")), general)


def test_rcond_estimate_matches_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    for x in _square_matrices() + [a for a in _matrices() if a.ndim == 2 and a.shape[0] == a.shape[1]]:
        if x.size and np.isfinite(x).all():
            assert solve_module.small_one_norm(x) in (None, solve_module._one_norm(x))
        with np.errstate(all="ignore"):
            fast = solve_module.rcond_estimate(x)
            with monkeypatch.context() as m:
                m.setattr(solve_module, "small_one_norm", lambda a: None)
                general = solve_module.rcond_estimate(x)
        assert np.array(fast).tobytes() == np.array(general).tobytes(), x


def test_kron_and_cross_of_double_arrays_match_numpy() -> None:
    pool = [a for a in _matrices() if a.ndim == 2] + [np.array([[1.0, -0.0, NAN]]), np.array([[-0.0], [INF], [2.0]])]
    for a in pool:
        for b in pool[::7]:
            fast = _outcome(kron, a, b)
            if a.dtype == np.float64 and b.dtype == np.float64:
                same(fast, result(np.kron(a, b)))
            else:  # the general path, given the double values as they are
                same(fast, _outcome(kron, a, b))
            if a.dtype == np.float64 and b.dtype == np.float64 and a.size == 3 and b.size == 3 \
                    and 1 in a.shape and 1 in b.shape:
                general = np.cross(a.reshape(-1), b.reshape(-1))
                shape = (1, 3) if a.shape[0] == 1 and b.shape[0] == 1 else (3, 1)
                same(_outcome(cross, a, b), general.reshape(shape))
    same(_outcome(cross, np.ones((1, 3)), np.ones((1, 4))), ("error", "MATLAB:cross:InputSizeMismatch"))


def test_surely_well_conditioned_matrices_are_far_from_singular() -> None:
    rng = np.random.default_rng(29)
    told = 0
    for _ in range(2000):
        n = int(rng.integers(1, 8))
        x = rng.standard_normal((n, n)) * 10.0 ** rng.integers(-5, 6)
        x[np.diag_indices(n)] = np.abs(x).sum(axis=0) * rng.uniform(0.4, 1.2, n)
        if solve_module.surely_well_conditioned(x):
            told += 1
            assert solve_module.rcond_estimate(x) > 1e-12
    assert told > 100


def test_more_reductions_of_double_arrays_match_general_path() -> None:
    default = char_row("default")
    rng = np.random.default_rng(31)
    extra = []
    for n in range(1, 12):
        for _ in range(20):
            v = rng.integers(-3, 4, n) * 10.0 ** rng.integers(-3, 3)  # ties and zeros
            extra += [v.reshape(1, n), v.reshape(n, 1), rng.standard_normal((1, n)) * 1e300]
    extra += [np.array([[-0.0, -0.0]]), np.array([[-0.0, 5.0, -0.0, -3.0]]), np.array([[3.0, NAN, 1.0, 2.0, 5.0]]),
              np.array([[2.0, 1.0, NAN, 4.0]]), np.array([[INF, -INF]]), np.array([[1e308, 1e308]])]
    for a in _matrices() + extra:
        for x in _values(a):
            same(_outcome(prod, x), _outcome(prod, x, default))
            same(_outcome(median, x), _outcome(median, x, default))
            same(_outcome(all_, x), _outcome(all_, x, np.array([[1.0]])) if _is_matrix(x)
                 else _outcome(all_, x))
            same(_outcome(any_, x), _outcome(any_, x, np.array([[1.0]])) if _is_matrix(x)
                 else _outcome(any_, x))
            for d in (1.0, 2.0, 3.0, 0.5):
                same(_outcome(mean, x, d), _outcome(mean, x, np.array([[d]])))
            for f in (var, std):
                same(_outcome(f, x), _outcome(f, x, 0.0))


def _is_matrix(x: object) -> bool:
    """A 2-D array of more than one row (which all/any reduce down the columns)."""
    return type(x) is np.ndarray and x.ndim == 2 and x.shape[0] > 1


def test_chol_of_small_matrices_matches_general_path() -> None:
    rng = np.random.default_rng(32)
    pool = _all_square()
    for n in range(1, 18):
        g = rng.standard_normal((n, n))
        pool += [g @ g.T + 1e-3 * np.eye(n), g @ g.T, np.asfortranarray(g @ g.T + np.eye(n))]
    for x in pool + [np.array([[1.0, NAN], [NAN, 1.0]]), np.array([[1e300, 0], [0, 1e300]])]:
        for nargout in (1, 2):
            same(_outcome(chol, x, nargout=nargout), _outcome(chol, x, char_row("upper"), nargout=nargout))


def test_diag_dot_diff_and_running_extremes_match_general_path() -> None:
    forward = char_row("forward")
    pool = _matrices() + [np.array([[-0.0, NAN, 0.0, -0.0, 1.0]]), np.array([[NAN, NAN, 2.0]])]
    for a in pool:
        for x in _values(a):
            same(_outcome(diag, x), _outcome(diag, x, np.array([[0.0]])))
            same(_outcome(diag, x, -0.0), _outcome(diag, x, np.array([[0.0]])))
            same(_outcome(diff, x), _outcome(diff, x, 1.0))
            same(_outcome(dot, x, x), _outcome(dot, x, x, np.array([[1.0]])) if _is_matrix(x)
                 else _outcome(dot, x, x))
            for f in (cummax, cummin):
                same(_outcome(f, x), _outcome(f, x, forward))
                for d in (1.0, 2.0, 3.0, 0.0):
                    same(_outcome(f, x, d), _outcome(f, x, np.array([[d]]), forward))
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    same(_outcome(dot, a, np.ones((2, 3))), ("error", "MATLAB:dot:InputSizeMismatch"))
    out = diag(a)
    out[0, 0] = 9.0  # the diagonal taken is a copy, never a view of the matrix
    assert a[0, 0] == 1.0


def test_qr_of_small_matrices_matches_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(34)
    pool = _all_square() + [rng.standard_normal(shape) for shape in ((4, 2), (5, 5), (2, 4), (16, 3), (17, 4))]
    pool += [np.asfortranarray(rng.standard_normal((4, 3))), np.zeros((3, 2)), np.array([[0.0, -0.0], [-0.0, 0.0]])]
    for x in pool:
        for nargout in (1, 2, 3):
            fast = _outcome(qr, x, nargout=nargout)
            with monkeypatch.context() as m:
                m.setattr(decompositions, "_small_qr", lambda a, nargout: None)
                general = _outcome(qr, x, nargout=nargout)
            same(fast, general)


def test_small_matrix_code_runs_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run("""
        A = [4 1 0; 1 5 2; 0 2 6]; x = [1; 2; 3];
        y = A \\ x; z = inv(A); e = eig(A); [V, D] = eig(A); R = chol(A); [Q, R2] = qr(A);
        fprintf('%.12g ', y, z * A - eye(3), e, norm(A * V - V * D) < 1e-12, R' * R - A, Q * R2 - A);
        [m, i] = max([3 4 1; 5 0 -0]); [n, j] = min([3 4 1], [], 2);
        fprintf('%g ', m, i, n, j, 1/sum(-0), 1/max([-0 0]), median([4 1 3 2]), std([1 2 4]));
        s = [1 2; 2 4] \\ [1; 2]; t = inv([1 2; 3 6+1e-14]);
    """)
    values = [float(v) for v in out.split()]
    assert np.allclose(values[:3], np.linalg.solve(np.array([[4.0, 1, 0], [1, 5, 2], [0, 2, 6]]), [1, 2, 3]))
    assert np.allclose(values[3:12], 0.0, atol=1e-12)
    assert values[15] == 1.0
    assert np.allclose(values[16:34], 0.0, atol=1e-12)
    assert values[34:45] == [5.0, 4.0, 1.0, 2.0, 1.0, 1.0, 1.0, 3.0, INF, -INF, 2.5]
    assert values[45] == pytest.approx(math.sqrt(7 / 3), rel=1e-5)
    err = capsys.readouterr().err
    assert "Warning: Matrix is singular to working precision." in err
    assert "RCOND =  1.295260e-16." in err
