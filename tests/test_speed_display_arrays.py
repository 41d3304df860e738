"""The fast paths of displaying short numeric arrays and of mldivide/mrdivide of double
matrices give exactly what their general paths give: the same lines (byte for byte), and
for the solves the same class, shape, bits, warnings and errors.  Each fast path is
compared with its general path, reached with the fast path switched off."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.values import operators
from mlang.values import solve as solve_module

NAN, INF = math.nan, math.inf


def same(a: object, b: object) -> None:
    """a and b are the same MATLAB value: type, class, shape and bits (or the same error)."""
    assert type(a) is type(b), (a, b)
    if type(a) is np.ndarray:
        assert a.dtype == b.dtype and a.shape == b.shape, (a, b)  # type: ignore[union-attr]
        assert a.tobytes(order="F") == b.tobytes(order="F"), (a, b)  # type: ignore[union-attr]
        return
    if type(a) in (float, complex):
        assert np.array(a).tobytes() == np.array(b).tobytes(), (a, b)
        return
    assert a == b, (a, b)


# ---------------------------------------------------------------- mldivide / mrdivide


def _outcome(monkeypatch: pytest.MonkeyPatch, f: Any, a: object, b: object, general: bool) -> tuple:
    """f(a, b) (or the identifier of its error) and the warnings it gave."""
    warnings: list[tuple[str, str]] = []
    with monkeypatch.context() as m:
        m.setattr(solve_module, "warn", lambda ident, message: warnings.append((ident, message)))
        if general:
            m.setattr(operators, "_double_matrices", lambda a, b: False)
        try:
            out: object = f(a, b)
        except MatlabError as e:
            out = e.identifier
    return out, warnings


def _left_matrices() -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    return [
        np.array([[4.0, 1, 0], [1, 5, 2], [0, 2, 6]]),
        np.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]]),
        np.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]]),  # nearly singular: warns
        np.array([[1.0, 2], [2, 4]]),  # exactly singular: warns
        np.zeros((2, 2)),
        np.array([[2.0, 0, 0], [1, 3, 0], [4, 5, 6]]),
        np.array([[2.0, 1, 4], [0, 0, 5], [0, 0, 6]]),
        np.array([[NAN, 1], [2, 3]]),
        np.array([[INF, 1], [2, 3]]),
        np.array([[-0.0, 1], [1, -0.0]]),
        np.array([[1.0, 2, 3]]),  # 1x3: least squares (rank warning paths)
        np.array([[1.0], [2.0], [3.0]]),
        np.array([[1.0, 2], [2, 4], [3, 6]]),  # rank deficient
        rng.standard_normal((4, 3)),
        rng.standard_normal((3, 5)),
        rng.standard_normal((10, 10)),
        np.asfortranarray(rng.standard_normal((3, 3))),
        rng.standard_normal((6, 6))[::2, ::2],  # a strided view
        np.zeros((0, 0)),
        np.zeros((0, 3)),
        np.zeros((3, 0)),
    ]


def _right_sides(rows: int) -> list[np.ndarray]:
    rng = np.random.default_rng(rows)
    return [np.arange(1.0, rows + 1).reshape(rows, 1), rng.standard_normal((rows, 2)),
            np.full((rows, 1), NAN), np.full((rows, 1), -0.0), np.zeros((rows, 0)),
            np.array([[INF]] * rows).reshape(rows, 1) if rows else np.zeros((0, 1))]


def test_mldivide_of_double_matrices_matches_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    for a in _left_matrices():
        for b in [*_right_sides(a.shape[0]), *_right_sides(a.shape[0] + 1), np.ones((a.shape[0], 1, 1))]:
            fast = _outcome(monkeypatch, operators.mldivide, a, b, general=False)
            general = _outcome(monkeypatch, operators.mldivide, a, b, general=True)
            same(fast[0], general[0])
            assert fast[1] == general[1], (a, b)


def test_mrdivide_of_double_matrices_matches_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    for a in _left_matrices():
        for b in [*_right_sides(a.shape[1]), *_right_sides(a.shape[1] + 1)]:
            b = b.T
            fast = _outcome(monkeypatch, operators.mrdivide, b, a, general=False)
            general = _outcome(monkeypatch, operators.mrdivide, b, a, general=True)
            same(fast[0], general[0])
            assert fast[1] == general[1], (a, b)


def test_other_operand_forms_take_the_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    a = np.array([[4.0, 1], [1, 5]])
    for other in [np.array([[2.0]]), 2.0, np.array([[1.0], [2.0]], dtype=np.float32),
                  np.array([[1 + 2j], [3.0]]), np.array([[1], [2]], dtype=np.int8), np.array([[True], [False]]),
                  np.ones((2, 1, 2))]:
        for f, x, y in [(operators.mldivide, a, other), (operators.mldivide, other, a),
                        (operators.mrdivide, other, a), (operators.mrdivide, a, other)]:
            y2 = y.T if f is operators.mrdivide and type(y) is np.ndarray and y.ndim == 2 and y is other else y
            fast = _outcome(monkeypatch, f, x, y2, general=False)
            general = _outcome(monkeypatch, f, x, y2, general=True)
            same(fast[0], general[0])
            assert fast[1] == general[1]


def test_solves_give_their_results_and_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    out, warnings = _outcome(monkeypatch, operators.mldivide, np.array([[2.0, 0], [0, 4]]), np.array([[2.0], [8]]),
                             general=False)
    same(out, np.array([[1.0], [2.0]]))
    assert warnings == []
    out, warnings = _outcome(monkeypatch, operators.mrdivide, np.array([[1.0, 1]]), np.array([[1.0, 1]]),
                             general=False)
    assert type(out) is float and abs(out - 1.0) < 1e-12  # a 1x1 result is a double scalar
    _, warnings = _outcome(monkeypatch, operators.mldivide, np.array([[1.0, 2], [2, 4]]), np.ones((2, 1)),
                           general=False)
    assert [w[0] for w in warnings] == ["MATLAB:singularMatrix"]
    out, _ = _outcome(monkeypatch, operators.mldivide, np.ones((2, 2)), np.ones((3, 1)), general=False)
    assert out == "MATLAB:dimagree"
    out, _ = _outcome(monkeypatch, operators.mrdivide, np.ones((1, 3)), np.ones((2, 2)), general=False)
    assert out == "MATLAB:dimagree"
