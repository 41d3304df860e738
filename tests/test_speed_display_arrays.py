"""The fast paths of displaying short numeric arrays and of mldivide/mrdivide of double
matrices give exactly what their general paths give: the same lines (byte for byte), and
for the solves the same class, shape, bits, warnings and errors.  Each fast path is
compared with its general path, reached with the fast path switched off."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from mlang import display
from mlang.display import Style
from mlang.display import numbers as display_numbers
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


# ---------------------------------------------------------------- display of short arrays

FORMATS = ["short", "long", "shortE", "longE", "shortG", "longG", "shortEng", "longEng", "hex", "+",
           "bank", "rat"]


def _arrays() -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    doubles = [
        [[1.5, 2, 3]], [[1.0, 2, 3]], [[1.0], [2], [3]], [[16.0, 2, 3, 13], [5, 11, 10, 8]],
        [[NAN, INF, -INF]], [[NAN, 1.5]], [[INF, 2]], [[-0.0, 0.0, 1.5]], [[-0.0]], [[0.0, 0.0]],
        [[1e-4, 5, 7]], [[1e5, 1.5]], [[999.5, 1]], [[1000.5, 1]], [[1e9, 1]], [[1e9 - 1, -1]],
        [[1e10, 1]], [[2.0 ** 53, 3]], [[0.001, 0.002]], [[0.0011, 1]], [[1e-300, 1]], [[5e-324, 1]],
        [[1e300, -1e300]], [[99.99995, 1]], [[-99.99999, 1]], [[1 / 3, 2 / 3], [-1 / 7, 1e-3]],
        [[math.pi * 1e6, 1]], [[12345.678, -0.5]], [[NAN, NAN]], [[INF]], [[2.5]], [[-1e-5]],
        [list(range(1, 33))], [list(range(1, 17)), list(range(17, 33))],
        [[1.5 * k for k in range(1, 21)]],  # wider than the window: Columns blocks
        [[1e5 * k + 0.5 for k in range(1, 9)]],
        [[1e308, 1e308, 0.5]], [[1e308, -1e308]], [[999.99999, 0.5]], [[1000.0, 0.5]], [[0.001, 0.0005]],
        [[99.9999999, 0.5]], [[100.0, 0.5]], [[-0.0, 1.0]], [[0.0, -2.5], [1.25, 3]], [[-999.0, 5]],
        [[-999.99999, 0.5]], [[-99.99999999999999, 0.5]], [[-999999999.0, 1]], [[-0.0011, 0.5]],
        [[1e9 - 0.5, 1]], [[-1e9 + 1, 1]], [[1000.0, 2.0]], [[9999.0, -1.0], [3, 4]], [[0.5, NAN, 0.0]], [[1e-310, 0.5]],
    ]
    out = [np.array(d, dtype=np.float64) for d in doubles]
    out += [rng.standard_normal((3, 4)), rng.standard_normal((5, 5)) * 1e4, rng.standard_normal((6, 6)),
            np.arange(40.0).reshape(5, 8), np.asfortranarray(rng.standard_normal((3, 3))),
            rng.standard_normal((6, 6))[::2, ::3], np.arange(1.0, 101).reshape(10, 10) / 3,
            np.arange(1.0, 101).reshape(10, 10), rng.standard_normal((20, 30)) * 1e5,
            (np.arange(1.0, 11) * 1.5).reshape(1, 10), rng.standard_normal((1, 100)), np.full((25, 40), 7.0),
            np.array([[1e5, 2.5] * 10]), np.array([[NAN, 1.0] * 12]), rng.standard_normal((33, 1))]
    singles = [[[1.5, 2, 3]], [[1.0, 2, 3]], [[NAN, 1.5]], [[1e5, 1.5]], [[1e-5, 1]], [[-0.0, 2.5]], [[99.5, 1]],
               [[-99.99999, 0.5]], [[-999.99999, 0.5]], [[1 / 3, 2 / 3]], [[1e9, 1]], [[1.5] * 12], [[3.0]], [[1e10]]]
    out += [np.array(d, dtype=np.float32) for d in singles]
    out += [np.array([[1, -2, 3]], dtype=t) for t in (np.int8, np.int16, np.int32, np.int64)]
    out += [np.array([[1, 2, 250]], dtype=t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)]
    out += [np.array([[-128, 127], [0, 5]], dtype=np.int8), np.array([[True, False, True]]),
            np.array([[True], [False]]), np.array([[False]]), np.array([[1.5, 2, 3]], dtype=np.float32),
            np.array([[NAN, 1e5]], dtype=np.float32), np.array([[1 + 2j, 3]]), np.array([[True] * 40]),
            (np.arange(30, dtype=np.int16) * 100).reshape(1, 30), np.arange(12, dtype=np.uint8).reshape(3, 4),
            np.array([[np.iinfo(np.int64).min, 0, np.iinfo(np.int64).max]]),
            np.array([[np.iinfo(np.uint64).max, 0]], dtype=np.uint64), np.array([[-5, 3], [100, -1000]], dtype=np.int16),
            np.array([[0, 0]], dtype=np.int32), np.array([[-1]], dtype=np.int8), np.array([[7]], dtype=np.uint32),
            np.array([[True, False], [False, True]]), np.arange(200, dtype=np.int32).reshape(10, 20) - 50,
            np.arange(200, dtype=np.uint8).reshape(20, 10), np.ones((30, 30), dtype=bool), np.array([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]], dtype=np.int64) * 10 ** 9]
    return out


ARRAYS = _arrays()


def _general(monkeypatch: pytest.MonkeyPatch, f: Any, *args: Any) -> list:
    with monkeypatch.context() as m:
        m.setattr(display, "_short_real_lines", lambda a, single, style: None)
        m.setattr(display, "_is_plain_matrix", lambda value: False)
        m.setattr(display, "_short_int_lines", lambda a, cls, style: None)
        m.setattr(display, "_uniform_columns",
                  lambda rows, style: display._columns(rows, display._column_widths(rows), style))
        return f(*args)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("width", [80, 40])
def test_short_arrays_display_as_on_the_general_path(monkeypatch: pytest.MonkeyPatch, fmt: str,
                                                      compact: bool, width: int) -> None:
    style = Style(fmt, compact, width)
    for a in ARRAYS:
        assert display.disp_lines(a, style) == _general(monkeypatch, display.disp_lines, a, style), (a, fmt)
        assert display.display_lines("x", a, style) == \
            _general(monkeypatch, display.display_lines, "x", a, style), (a, fmt)
        if a.size == 1 and a.dtype == np.float64:
            x = float(a[0, 0])
            assert display.display_lines("x", x, style) == \
                _general(monkeypatch, display.display_lines, "x", x, style)


def test_the_short_double_path_is_taken() -> None:
    style = Style("short", False, 80)
    assert display._short_real_lines(np.array([[1.5, 2, 3]]), False, style) == ["    1.5000    2.0000    3.0000"]
    assert display._short_real_lines(np.array([[1.0, -0.0, NAN]]), False, style) == ["     1     0   NaN"]
    assert display._short_real_lines(np.array([[1e5, 1.5]]), False, style) == \
        ["   1.0e+05 *", None, "    1.0000    0.0000"]
    assert display._short_real_lines(np.ones((1, 2000)), False, style) is None  # more than _SHORT
    assert display._short_real_lines(np.array([[1.5]]), False, Style("rat", False, 80)) is None
    assert display._short_real_lines(np.array([[1.5] * 9]), False, style) == \
        ["  Columns 1 through 8", None, "    1.5000" * 8, None, "  Column 9", None, "    1.5000"]


def test_the_plain_matrix_test() -> None:
    assert display._is_plain_matrix(np.array([[1.0]]))
    assert display._is_plain_matrix(np.array([[1]], dtype=np.uint16))
    assert display._is_plain_matrix(np.array([[True]]))
    assert not display._is_plain_matrix(np.zeros((0, 3)))
    assert not display._is_plain_matrix(np.ones((2, 2, 2)))
    assert display._is_plain_matrix(np.array([[1j]]))
    assert not display._is_plain_matrix(np.array([[1.0]]).view(np.dtype("V8")))
    assert not display._is_plain_matrix(1.0)


@pytest.mark.parametrize("compact", [False, True])
def test_render_writes_each_line(compact: bool) -> None:
    style = Style("short", compact, 80)
    for lines in [[], [None], ["a"], ["a", None], [None, "x =", None, "    1", None], ["", None, ""]]:
        expected = "".join((line or "") + "\n" for line in lines if not (compact and line is None))
        assert display.render(lines, style) == expected


def test_styles_are_shared_per_setting() -> None:
    assert display._style("short", False, 80) is display._style("short", False, 80)
    assert display._style("long", True, 100) == Style("long", True, 100)


COMPLEX = [np.array([[1 + 2j, 3]]), np.array([[1 - 2j], [-0.0 - 0.0j]]), np.array([[complex(NAN, 1), complex(1, INF)]]),
           np.array([[1e5 + 1j, 2]]), np.array([[1e-5j, 1]]), np.array([[123.5 + 0.5j]]), np.array([[1e-4 + 1e-4j]]),
           np.array([[complex(INF, NAN)]]), np.array([[2.5 + 1j, -3 - 4j], [5j, 1e3]]),
           np.array([[1 + 2j, 3.5]], dtype=np.complex64), np.array([[1e300 + 1e300j, 1]]),
           np.arange(12.0).reshape(3, 4) * (1 + 1j) / 3, np.array([[0.5 + 200j, 1]]), np.array([[1e-5 + 1e-4j]]),
           np.array([[1 + 1e-5j]]), np.array([[0.5 + 2e5j]])]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("index", range(len(COMPLEX)))
def test_short_complex_arrays_format_as_long_ones(monkeypatch: pytest.MonkeyPatch, fmt: str, index: int) -> None:
    # the numbers looked at with NumPy (no array counts as short) give the same lines
    style = Style(fmt, False, 80)
    z = COMPLEX[index]
    quick = display.disp_lines(z, style), display.display_lines("z", z, style)
    monkeypatch.setattr(display_numbers, "_FEW", -1)
    assert quick == (display.disp_lines(z, style), display.display_lines("z", z, style))
