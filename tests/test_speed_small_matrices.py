"""The fast paths of linear algebra and reductions on small matrices (3x3 systems, short
vectors) give exactly what their general paths give: the same class, shape, values bit for
bit (NaN, Inf and the sign of zero included), the same warnings and the same errors.  Each
fast path is compared with the general path, reached with the fast path switched off or
with an argument form the fast path does not take (a 1x1 array for a number, an explicit
default option, a trailing singleton dimension)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlang.values import solve as solve_module

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
