"""The short-row fast paths of common builtins (mlang/builtins/math/short_rows.py and the
functions that use it) give exactly what the same functions give with the fast path turned
off: the same class, shape and bits (NaN, Inf, the sign of zero, the order of a sum), and
the same errors.  Each case runs twice, once as it is and once with the module's
``short_values``/``short_truths`` declining everything (the general path)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlang.builtins.data import construct, rearrange, shape, structs
from mlang.builtins.math import cumulative, extrema, find, linalg, reductions, rounding, short_rows, sorting
from mlang.errors import MatlabError
from mlang.registry import BUILTINS, MISSING_LITERAL
from mlang.values.cell import Cell
from mlang.values.concat import concatenate
from mlang.values.core import char_row

from .running import run
from .test_speed_small_builtins import same

NAN, INF = math.nan, math.inf


def _rows() -> list[list[float]]:
    rows = [
        [3.0, 4.0, 1.0], [5.0, 6.0, 3.0], [0.0, -0.0], [-0.0, 0.0], [-0.0, -0.0, -0.0], [-0.0],
        [0.0], [7.0], [NAN], [NAN, 1.0], [1.0, NAN, 3.0], [INF, -INF], [INF, 1.0, INF],
        [-INF, NAN, 2.0], [1e308, 1e308, -1e308], [1e16, 1.0, 1.0], [1.0, 1.0, 1e16],
        [1e-310, -1e-310, 1e-300], [2.0, 2.0, 2.0], [1e200, 1e200], [1e-200, 1e-200],
        [-3.5, 2.25, 1e200, -1e200, 4.0, 4.0, -0.0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7],
    ]
    rng = np.random.default_rng(28)
    for n in range(1, 10):  # (8 and 9 elements: past the fast paths, declined)
        for _ in range(4):
            rows.append(list(rng.standard_normal(n) * 10.0 ** rng.integers(-8, 17, n)))
        rows.append(list(rng.integers(-2, 3, n).astype(float)))  # ties and zeros
    return rows


def _vectors() -> list[np.ndarray]:
    out = []
    for r in _rows():
        row = np.array([r], dtype=np.float64)
        out += [row, row.T.copy(), row.T]  # a column, contiguous and as a view
    grid = np.arange(12.0).reshape(3, 4)
    out += [grid[:, 1:2], grid[1:2, ::2], grid[:2, :2], np.zeros((1, 0)), np.zeros((0, 1)),
            np.zeros((0, 0)), np.array([[1.0, 2.0]], dtype=np.float32),
            np.array([[1, 0, 2]], dtype=np.int8), np.array([[1.0, 2.0]]) + 1j,
            np.array([[1.0, 2.0]]).reshape(1, 2, 1), char_row("ab"), 3.0, -0.0, True]
    return out


VECTORS = _vectors()
LOGICAL_VECTORS = [v != 0 for v in VECTORS if type(v) is np.ndarray and v.dtype == np.float64]
ALL = VECTORS + LOGICAL_VECTORS


def outcome(fn, *args: object) -> object:
    """fn's value, or its MATLAB error identifier."""
    try:
        with np.errstate(all="ignore"):
            return fn(*args)
    except MatlabError as e:
        return ("error", e.identifier)


def both_ways(monkeypatch: pytest.MonkeyPatch, module: object, fn, *args: object) -> None:
    """fn(*args) as it is, and with ``module``'s short-row readers declining, are the same."""
    got = outcome(fn, *args)
    with monkeypatch.context() as m:
        for name in ("short_values", "short_truths"):
            if hasattr(module, name):
                m.setattr(module, name, lambda x: None)
        want = outcome(fn, *args)
    same(got, want)


def test_the_readers_take_only_short_double_or_logical_vectors() -> None:
    assert short_rows.short_values(np.array([[1.0, -0.0, 3.0]])) == [1.0, -0.0, 3.0]
    assert short_rows.short_values(np.array([[1.0], [2.0]])) == [1.0, 2.0]
    assert short_rows.short_values(np.array([[5.0]])) == [5.0]
    assert short_rows.short_truths(np.array([[True, False]])) == [True, False]
    declined = [np.zeros((1, 8)), np.zeros((8, 1)), np.zeros((2, 2)), np.zeros((1, 0)),
                np.zeros((0, 1)), np.zeros((0, 0)), np.zeros((1, 2), dtype=np.float32),
                np.zeros((1, 2), dtype=np.int8), np.zeros((1, 2), dtype=np.complex128),
                np.zeros((1, 2, 1)), np.zeros(3), char_row("ab"), 3.0, True, [1.0, 2.0]]
    for x in declined:
        assert short_rows.short_values(x) is None, x
        assert short_rows.short_truths(x) is None, x
    assert short_rows.short_values(np.array([[True, False]])) is None


@pytest.mark.parametrize("name", ["sum_", "prod", "mean"])
def test_sum_prod_mean(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    fn = getattr(reductions, name)
    for x in ALL:
        both_ways(monkeypatch, reductions, fn, x)


def test_the_sum_of_a_short_row_is_numpy_order() -> None:
    # the order matters: 1e16 + 1 + 1 left to right is 1e16, 1 + 1 + 1e16 is 1e16 + 2
    assert reductions.sum_(np.array([[1e16, 1.0, 1.0]])) == 1e16
    assert reductions.sum_(np.array([[1.0, 1.0, 1e16]])) == 1e16 + 2
    assert math.copysign(1, reductions.sum_(np.array([[-0.0, -0.0]]))) == 1  # from +0
    assert math.copysign(1, reductions.prod(np.array([[-0.0, 1.0]]))) == -1
    assert reductions.mean(np.array([[1.0, 2.0, 4.0]])) == 7 / 3


@pytest.mark.parametrize("name", ["any_", "all_"])
def test_any_all_nnz(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    fn = getattr(reductions, name)
    for x in ALL:
        both_ways(monkeypatch, reductions, fn, x)
    assert reductions.any_(np.array([[NAN, 0.0]])) is False  # NaN is ignored by any
    assert reductions.all_(np.array([[NAN, 1.0]])) is True  # and nonzero for all
    assert reductions.all_(np.array([[1.0, -0.0]])) is False
    assert reductions.nnz(np.array([[NAN, -0.0, 2.0]])) == 2.0


def test_nnz_of_any_double_or_logical_array_counts_nonzeros() -> None:
    x = np.array([[0.0, NAN, -0.0], [INF, 1.0, 0.0]])
    assert reductions.nnz(x) == 3.0
    assert reductions.nnz(x != 0) == 3.0
    for v in ALL + [x, x != 0, np.ones((3, 4, 2))]:
        # the general path: the count of the nonzero values it reads
        same(outcome(reductions.nnz, v),
             outcome(lambda a: float(np.count_nonzero(reductions.nonzero_values(a, "nnz"))), v))
    assert reductions.nnz(char_row("a\0b")) == 2.0  # (char: by code, the general path)
    same(outcome(reductions.nnz, run("s = struct('a', 1);")[0].base.vars["s"]),
         ("error", "MATLAB:nnz:wrongInput"))


@pytest.mark.parametrize("name", ["max_", "min_"])
def test_max_min(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    fn = getattr(extrema, name)
    for x in ALL:
        both_ways(monkeypatch, extrema, fn, x)
    assert math.copysign(1, extrema.max_(np.array([[0.0, -0.0]]))) == 1  # the first of ties
    assert math.copysign(1, extrema.max_(np.array([[-0.0, 0.0]]))) == -1
    assert extrema.max_(np.array([[1.0, NAN, 3.0]])) == 3.0  # (NaN: the general path)
    assert extrema.min_(np.array([[NAN, 1.0, -3.0]])) == -3.0


def test_max_min_with_two_outputs_or_more_arguments_take_the_general_path() -> None:
    v = np.array([[3.0, 7.0, 7.0]])
    same(extrema.max_(v, nargout=2), (7.0, 2.0))
    same(extrema.min_(v, np.zeros((0, 0)), 2.0), 3.0)
    same(extrema.max_(v, 5.0), np.array([[5.0, 7.0, 7.0]]))


def test_find_first(monkeypatch: pytest.MonkeyPatch) -> None:
    for x in ALL:
        both_ways(monkeypatch, find, find.find, x, 1.0)
        both_ways(monkeypatch, find, find.find, x)
        both_ways(monkeypatch, find, find.find, x, 2.0)
    assert find.find(np.array([[0.0, NAN, 1.0]]), 1.0) == 2.0  # NaN is nonzero
    assert find.find(np.array([[-0.0, 0.0, 5.0]]), 1.0) == 3.0
    same(find.find(np.array([[0.0, -0.0]]), 1.0), np.zeros((1, 0)))
    same(find.find(np.array([[False], [False]]), 1.0), np.zeros((0, 1)))
    same(find.find(np.array([[False, True, True]]), 1.0, char_row("last")), 3.0)
    assert find.find(np.array([[0.0, 3.0]]), 1.0, nargout=2) == (1.0, 2.0)
    same(outcome(find.find, np.array([[1.0, 3.0]]), 0.0),
         ("error", "MATLAB:find:nonIntegerNumberOfElements"))


def test_dot_and_norm(monkeypatch: pytest.MonkeyPatch) -> None:
    for x in ALL:
        both_ways(monkeypatch, linalg, linalg.norm, x)
        both_ways(monkeypatch, linalg, linalg.norm, x, 1.0)
        for y in (x, VECTORS[0], VECTORS[1], VECTORS[-5]):
            both_ways(monkeypatch, linalg, linalg.dot, x, y)
    for a, b in zip(VECTORS[:60], VECTORS[60:120], strict=True):
        both_ways(monkeypatch, linalg, linalg.dot, a, b)
    assert linalg.dot(np.array([[1e16, 1.0, 1.0]]), np.array([[1.0, 1.0, 1.0]])) == 1e16
    assert math.isnan(linalg.norm(np.array([[INF, NAN]])))
    assert linalg.norm(np.array([[INF, 1.0]])) == INF
    assert linalg.norm(np.array([[1e200, 1e200]])) == 1e200 * math.sqrt(2)
    same(outcome(linalg.dot, np.array([[1.0, 2.0]]), np.array([[1.0, 2.0, 3.0]])),
         ("error", "MATLAB:dot:InputSizeMismatch"))


def test_cumsum(monkeypatch: pytest.MonkeyPatch) -> None:
    for x in ALL:
        both_ways(monkeypatch, cumulative, cumulative.cumsum, x)
        both_ways(monkeypatch, cumulative, cumulative.cumsum, x, 2.0)
    same(cumulative.cumsum(np.array([[-0.0, -0.0]])), np.array([[-0.0, -0.0]]))
    same(cumulative.cumsum(np.array([[1e16], [1.0], [1.0]])), np.array([[1e16], [1e16], [1e16]]))


def _general_concat(blocks: list[list]) -> object:
    return concatenate(blocks)


@pytest.mark.parametrize("a", VECTORS[:40:3] + VECTORS[-14:], ids=lambda v: repr(v)[:30])
def test_vertcat_and_horzcat_of_two_arrays(a: object) -> None:
    for b in (a, VECTORS[0], VECTORS[1], np.zeros((1, 0)), np.array([[1.0, 2.0], [3.0, 4.0]]), 5.0):
        same(outcome(rearrange.vertcat, a, b), outcome(_general_concat, [[a], [b]]))
        same(outcome(rearrange.horzcat, a, b), outcome(_general_concat, [[a, b]]))
    same(rearrange.vertcat(a), outcome(_general_concat, [[a]]))


def test_vertcat_makes_a_new_array() -> None:
    v = np.array([[1.0, 2.0]])
    u = rearrange.vertcat(v, v)
    u[0, 0] = 9.0
    assert v[0, 0] == 1.0
    same(outcome(rearrange.vertcat, v, np.array([[1.0, 2.0, 3.0]])),
         outcome(_general_concat, [[v], [np.array([[1.0, 2.0, 3.0]])]]))


def test_the_builtins_in_a_loop_as_the_benchmark_calls_them() -> None:
    interp, _ = run(
        "total = 0; for k = 1:6\n v = [k, k + 1, k - 2];\n"
        " total = total + any(v > k) + all(v) + max(v) + min(v) + find(v > k, 1) + sum(v)"
        " + norm(v(1:2)) + dot(v, v) + mean(v) + nnz(v) + prod(v(1:2));\n"
        " c = cumsum(v); u = vertcat(v, v); h = horzcat(v, v);\nend\n")
    expect = sum(1 + (k != 2) + (k + 1) + (k - 2) + 2 + (3 * k - 1)
                 + math.sqrt(k * k + (k + 1) ** 2) + (k * k + (k + 1) ** 2 + (k - 2) ** 2)
                 + (k - 1 / 3) + 3 - (k == 2) + k * (k + 1) for k in range(1, 7))
    assert abs(interp.base.vars["total"] - expect) < 1e-9 * expect
    same(interp.base.vars["c"], np.array([[6.0, 13.0, 17.0]]))
    same(interp.base.vars["u"], np.array([[6.0, 7.0, 4.0], [6.0, 7.0, 4.0]]))
    same(interp.base.vars["h"], np.array([[6.0, 7.0, 4.0, 6.0, 7.0, 4.0]]))


# ------------------------------------------------ calls specialized on their literal arguments


def specialized(name: str, *literals: object):
    """The function the builtin ``name`` specializes for a call site with these literals
    (MISSING_LITERAL for an argument that is not one), or None."""
    return BUILTINS[name].specialize(tuple(literals))


def literal_and_general(name: str, literals: tuple, args: tuple) -> None:
    """The specialized call on ``args`` gives the general call's value, or declines."""
    common = specialized(name, *literals)
    assert common is not None
    b = BUILTINS[name]
    general = outcome(lambda *a: b.fn(*a, nargout=1) if b.wants_nargout else b.fn(*a), *args)
    got = outcome(common, list(args))
    if got is not NotImplemented:
        same(got, general)


def test_sort_of_a_short_vector(monkeypatch: pytest.MonkeyPatch) -> None:
    directions = [char_row("descend"), char_row("ascend"), char_row("Descend"), char_row("descend").T,
                  char_row("up"), 1.0]
    for x in ALL:
        both_ways(monkeypatch, sorting, sorting.sort, x)
        for direction in directions:
            both_ways(monkeypatch, sorting, sorting.sort, x, direction)
    same(sorting.sort(np.array([[0.0, 3.0, -0.0, 3.0]]), char_row("descend")),
         np.array([[3.0, 3.0, 0.0, -0.0]]))
    same(sorting.sort(np.array([[-0.0], [1.0], [0.0]]), char_row("descend")),
         np.array([[1.0], [-0.0], [0.0]]))
    same(sorting.sort(np.array([[1.0, NAN, -1.0]]), char_row("descend")), np.array([[NAN, 1.0, -1.0]]))
    assert sorting._direction_of(char_row("descend")) is True
    assert sorting._direction_of(char_row("ascend")) is False
    for other in (char_row("descend").T, char_row("Descend"), char_row("descending"), 1.0, None):
        assert sorting._direction_of(other) is None


def test_struct_and_isfield_with_a_literal_name() -> None:
    s = run("s = struct('a', 1, 'b', 2);")[0].base.vars["s"]
    values = [5.0, np.array([[1.0, 2.0]]), char_row("x"), s, Cell.filled((1, 2)), Cell.filled((1, 1)),
              Cell.filled((0, 0))]
    for name in ("a", "b_2", "x1"):
        for value in values:
            literal_and_general("struct", (char_row(name), MISSING_LITERAL), (char_row(name), value))
            literal_and_general("isfield", (MISSING_LITERAL, char_row(name)), (value, char_row(name)))
    for bad in ("1a", "_a", "", "a b"):
        assert specialized("struct", char_row(bad), MISSING_LITERAL) is None
    assert specialized("struct", MISSING_LITERAL, MISSING_LITERAL) is None
    assert specialized("isfield", MISSING_LITERAL, MISSING_LITERAL) is None
    common = specialized("struct", char_row("a"), MISSING_LITERAL)
    one, two = common([None, 1.0]), common([None, 1.0])
    assert one.fields == ["a"] and one.elems[0, 0] == {"a": 1.0}
    assert one.fields is not two.fields and one.elems is not two.elems  # each a new struct
    assert common([None, Cell.filled((1, 2))]) is NotImplemented
    assert specialized("isfield", MISSING_LITERAL, char_row("a"))([s, None]) is True
    assert specialized("isfield", MISSING_LITERAL, char_row("c"))([s, None]) is False
    assert specialized("isfield", MISSING_LITERAL, char_row("a"))([5.0, None]) is NotImplemented


def test_isfield_of_each_kind_of_name() -> None:
    s = run("s = struct('a', 1, 'b', 2);")[0].base.vars["s"]
    assert structs.isfield(s, char_row("b")) is True
    assert structs.isfield(s, char_row("c")) is False
    assert structs.isfield(s, np.array([[1.0]])) is False
    assert structs.isfield(5.0, char_row("a")) is False
    same(structs.isfield(s, run("c = {'a', 'z'; 'b', 5};")[0].base.vars["c"]),
         np.array([[True, False], [True, False]]))


def test_numel_and_size_of_cells_and_structs() -> None:
    s = run("s(2, 3).a = 1;")[0].base.vars["s"]
    assert shape.numel(Cell.filled((2, 3))) == 6.0 and shape.numel(s) == 6.0
    same(shape.size(Cell.filled((2, 3))), np.array([[2.0, 3.0]]))
    same(shape.size(s), np.array([[2.0, 3.0]]))
    assert shape.numel(np.zeros((2, 0, 3))) == 0.0 and shape.numel(np.zeros((2, 3, 4))) == 24.0


def test_reshape_with_literal_sizes() -> None:
    arrays = [np.arange(4.0).reshape(1, 4), np.arange(4.0).reshape(2, 2), np.arange(4.0).reshape(4, 1).T,
              np.arange(6.0).reshape(1, 6), np.array([[1.0, 2.0, 3.0, 4.0]]) + 0j,
              np.array([[1.0, 2.0, 3.0, 4.0]]) + 1j, np.array([[True, False, True, False]]),
              char_row("abcd"), np.arange(4, dtype=np.int8).reshape(1, 4), 4.0]
    for literals in ((2.0, 2.0), (4.0, 1.0), (1.0, 4.0), (np.array([[2.0, 2.0]]),), (3.0, 2.0)):
        for a in arrays:
            literal_and_general("reshape", (MISSING_LITERAL, *literals), (a, *literals))
    for literals in ((1.0, 1.0), (2.5, 2.0), (np.zeros((0, 0)), 2.0), (2.0, 2.0, 1.0), (MISSING_LITERAL, 2.0)):
        assert specialized("reshape", MISSING_LITERAL, *literals) is None
    common = specialized("reshape", MISSING_LITERAL, 2.0, 2.0)
    same(common([np.array([[1.0, 2.0, 3.0, 4.0]]), None, None]), np.array([[1.0, 3.0], [2.0, 4.0]]))
    assert common([np.array([[1.0, 2.0, 3.0]]), None, None]) is NotImplemented


def test_linspace_with_a_literal_start_and_count() -> None:
    ends = [5.0, -5.0, 0.0, -0.0, 1e-300, 1e299, -1e299, 1e300, NAN, INF, 3.0 + 0j, np.array([[1.0, 2.0]]),
            2.5, True]
    for a in (0.0, -0.0, 1.5, -1e299, 1e299):
        for n in (2.0, 3.0, 7.0, 16.0):
            for b in ends:
                literal_and_general("linspace", (a, MISSING_LITERAL, n), (a, b, n))
    for literals in ((0.0, MISSING_LITERAL, 17.0), (0.0, MISSING_LITERAL, 1.0), (0.0, MISSING_LITERAL, 2.5),
                     (1e300, MISSING_LITERAL, 3.0), (NAN, MISSING_LITERAL, 3.0), (MISSING_LITERAL, 1.0, 3.0),
                     (0.0, MISSING_LITERAL)):
        assert specialized("linspace", *literals) is None
    same(specialized("linspace", 0.0, MISSING_LITERAL, 3.0)([0.0, 5.0, 3.0]), np.array([[0.0, 2.5, 5.0]]))


def test_mod_of_a_short_whole_vector(monkeypatch: pytest.MonkeyPatch) -> None:
    wide = [np.array([[2.0 ** 53, -2.0 ** 53 + 1, 1e15, -0.0]]), np.array([[-5.0, 4.0, 9.0], [0.0, -0.0, -12.0]]),
            np.array([[-1e300, 7.0]]), np.arange(-7.0, 8.0).reshape(1, -1)]
    for x in [*ALL, *wide]:
        for m in (3.0, -3.0, 1.0, 0.0, 2.5, NAN, INF, 1e17, 2.0 ** 52, 7.0):
            got = outcome(rounding.mod, x, m)
            with monkeypatch.context() as patched:
                patched.setattr(rounding, "_short_whole_mod", lambda a, m: None)
                same(got, outcome(rounding.mod, x, m))
    same(rounding.mod(np.array([[-7.0, 7.0, -0.0, 0.0]]), 3.0), np.array([[2.0, 1.0, 0.0, 0.0]]))
    same(rounding.mod(np.array([[-7.0], [7.0]]), -3.0), np.array([[-1.0], [-2.0]]))


def test_literal_sites_in_a_loop_give_what_other_sites_give() -> None:
    interp, _ = run(
        "d = 'descend'; one = 1; two = 2; three = 3; nm = 'a';\n"
        "for k = -2:3\n v = [k, k + 1, k - 2];\n"
        " a1 = sort(v, 'descend'); a2 = sort(v, d);\n"
        " b1 = linspace(0, k, 3); b2 = linspace(0, k, three);\n"
        " c1 = reshape([v, k], 2, 2); c2 = reshape([v, k], two, two);\n"
        " e1 = size(eye(2), 1); e2 = size(eye(two), one);\n"
        " f1 = numel(cell(1, 2)); f2 = numel(cell(one, two));\n"
        " g1 = struct('a', k); g2 = struct(nm, k);\n"
        " h1 = isfield(g1, 'a'); h2 = isfield(g2, nm);\n"
        " z1 = zeros(1, 2); z2 = zeros(one, two); z1(2) = k;\n"
        " if ~isequal(a1, a2) || ~isequal(b1, b2) || ~isequal(c1, c2) || e1 ~= e2 || f1 ~= f2 ...\n"
        "    || ~isequal(g1, g2) || h1 ~= h2 || ~isequal(z2, [0 0]), error('t:differ', 'differ'); end\n"
        "end\n")
    same(interp.base.vars["a1"], np.array([[4.0, 3.0, 1.0]]))
    same(interp.base.vars["z1"], np.array([[0.0, 3.0]]))


SCALARS = [0.0, -0.0, 1.0, -1.0, 7.0, -7.0, 12.0, 2.5, -2.5, 0.5, -0.5, 1e17, -1e17, 1e300, 5e-324,
           2.0 ** 53, 2.0 ** 53 + 2, NAN, INF, -INF, 4503599627370495.5, 0.49999999999999994]


def test_mod_and_round_of_double_scalars() -> None:
    for a in SCALARS:
        same(rounding.round_(a), float(rounding.round_half_away(np.array(a))))
        for m in SCALARS:
            same(outcome(rounding.mod, a, m), outcome(rounding._remainder, "mod", a, m, True))


def test_eye_of_small_sizes_is_a_new_array_each_call() -> None:
    for sizes in ((0.0,), (1.0,), (2.0,), (3.0,), (4.0,), (5.0,), (2.0, 3.0), (3.0, 2.0), (0.0, 2.0)):
        got = construct.eye(*sizes)
        same(got, construct.eye(*sizes, char_row("double")))  # (a class name: the general path)
        if type(got) is np.ndarray and got.size:
            again = construct.eye(*sizes)
            got[0, 0] = 7.0
            assert again[0, 0] == 1.0 and construct.eye(*sizes)[0, 0] == 1.0


@pytest.mark.parametrize("name", ["zeros", "ones", "eye", "cell"])
def test_constructors_with_literal_sizes(name: str) -> None:
    for sizes in ((1.0, 2.0), (2.0,), (3.0, 1.0), (1.0, 1.0), (0.0, 3.0), (2.0, 0.0), (4.0, 2.0)):
        common = specialized(name, *sizes)
        assert common is not None
        one, two = common([]), BUILTINS[name].fn(*sizes)
        same(one, two)
        if type(one) is np.ndarray:
            assert one.flags.writeable and one is not common([])  # a new array each call
        elif type(one) is Cell:
            assert one.data.flags.writeable and one.data is not common([]).data
    for sizes in ((1.5, 2.0), (-1.0, 2.0), (NAN,), (1.0, 2.0, 3.0), (char_row("a"),),
                  (2.0, char_row("int8")), (np.array([[1.0, 2.0]]),), (MISSING_LITERAL, 2.0), ()):
        assert specialized(name, *sizes) is None


def test_size_with_a_literal_dimension() -> None:
    for d in (1.0, 2.0, 3.0, 7.0):
        for x in ALL + [np.zeros((2, 3, 4)), Cell.filled((2, 3))]:
            literal_and_general("size", (MISSING_LITERAL, d), (x, d))
    for d in (0.0, 1.5, -1.0, NAN, INF, np.array([[1.0, 2.0]]), char_row("a")):
        assert specialized("size", MISSING_LITERAL, d) is None
    assert specialized("size", MISSING_LITERAL, 2.0)([np.zeros((2, 3, 4)), None]) == 3.0
    assert specialized("size", MISSING_LITERAL, 4.0)([np.zeros((2, 3, 4)), None]) == 1.0
    assert specialized("size", MISSING_LITERAL, 2.0)([Cell.filled((2, 3)), None]) is NotImplemented


def test_find_with_a_literal_one() -> None:
    for x in ALL:
        literal_and_general("find", (MISSING_LITERAL, 1.0), (x, 1.0))
    for n in (2.0, 0.0, 1.5, True, np.array([[1.0]]), MISSING_LITERAL):
        assert specialized("find", MISSING_LITERAL, n) is None
    assert specialized("find", MISSING_LITERAL, 1.0, char_row("last")) is None
    common = specialized("find", MISSING_LITERAL, 1.0)
    assert common([np.array([[0.0, NAN, 1.0]]), None]) == 2.0
    assert common([np.array([[False], [True]]), None]) == 2.0
    assert common([np.array([[0.0, -0.0]]), None]) is NotImplemented  # (none: the general path)


def test_sites_without_literals_keep_the_positional_call() -> None:
    # a function that specializes on literals takes its arguments as they are at sites the
    # specialization does not cover (and is called there by the site itself), and gives the
    # specialized call's value where it does
    for name, literals in (("size", (MISSING_LITERAL, 1.0)), ("find", (MISSING_LITERAL, 1.0)),
                           ("zeros", (1.0, 2.0))):
        builtin = BUILTINS[name]
        assert builtin.direct_value_of(len(literals), literals).__name__ == "specialized_two"
        assert builtin.inline_call(len(literals), literals) is None
        unspecialized = (MISSING_LITERAL,) * len(literals)
        assert builtin.direct_value_of(len(literals), unspecialized).__name__ == "two"
        assert builtin.inline_call(len(literals), unspecialized)[0] is builtin.fn
    _, out = run("x = [0 0 3 4]; for k = 1:3, a = size(x, 1); b = size(x, k); c = find(x, 1); "
                 "d = zeros(1, 2); e = zeros(1, k); end; disp([a b c size(d) size(e)])")
    assert out.split() == ["1", "1", "3", "1", "2", "1", "3"]


def test_sort_with_a_literal_direction() -> None:
    for direction in (char_row("descend"), char_row("ascend")):
        for x in ALL + [np.array([[3.0, 1.0]], dtype=np.float32), Cell.filled((1, 2))]:
            literal_and_general("sort", (MISSING_LITERAL, direction), (x, direction))
        common = specialized("sort", MISSING_LITERAL, direction)
        assert common([np.array([[1.0, NAN]]), direction]) is NotImplemented
        assert common([np.zeros((2, 2)), direction]) is NotImplemented
    same(specialized("sort", MISSING_LITERAL, char_row("descend"))([np.array([[0.0, 3.0, -0.0, 3.0]]), None]),
         np.array([[3.0, 3.0, 0.0, -0.0]]))
    same(specialized("sort", MISSING_LITERAL, char_row("ascend"))([np.array([[2.0], [-0.0], [0.0]]), None]),
         np.array([[-0.0], [0.0], [2.0]]))
    for literals in ((MISSING_LITERAL, char_row("Descend")), (MISSING_LITERAL, MISSING_LITERAL),
                     (MISSING_LITERAL, 1.0), (MISSING_LITERAL, char_row("descend").T),
                     (np.array([[1.0, 2.0]]), char_row("descend")), (MISSING_LITERAL,)):
        assert specialized("sort", *literals) is None
    _, out = run("v = [3 NaN 1]; w = [2 -0 0]; for k = 1:3, a = sort(v, 'descend'); b = sort(w, 'ascend'); "
                 "c = sort(int8(w), 'descend'); end; disp(a); disp(1 ./ b); disp(class(c))")
    assert out.split() == ["NaN", "3", "1", "-Inf", "Inf", "0.5000", "int8"]


def test_max_and_min_of_an_array_and_a_double_scalar(monkeypatch: pytest.MonkeyPatch) -> None:
    """max(x, y) and min(x, y) of an array and a double scalar: the direct path
    (_double_and_scalar) gives what _pairwise gives, for every scalar (NaN, zeros, Inf)."""
    from mlang.builtins.math import extrema

    matrices = [np.array([[1.0, -0.0, NAN], [0.0, 5.0, -INF]]), np.arange(40.0).reshape(5, 8) - 20.0]
    for x in [*ALL, *matrices]:
        for y in (3.0, -3.0, 0.0, -0.0, NAN, INF, -INF, 1e-310, 5.0):
            for fn in (extrema.max_, extrema.min_):
                for nargout in (1, 2):
                    def call(fn=fn, x=x, y=y, nargout=nargout):
                        return fn(x, y, nargout=nargout)
                    got = outcome(call)
                    with monkeypatch.context() as patched:
                        patched.setattr(extrema, "_double_and_scalar", lambda *a: None)
                        same(got, outcome(call))


def test_mod_by_a_literal_positive_whole_divisor(monkeypatch: pytest.MonkeyPatch) -> None:
    """mod(x, 3) at a call site: the specialized call gives what mod's general path gives
    (its short-vector path declining), or declines."""
    wide = [np.array([[2.0 ** 53, -2.0 ** 53 + 1, 1e15, -0.0]]), np.array([[-5.0, 4.0, 9.0], [0.0, -0.0, -12.0]]),
            np.array([[-1e300, 7.0]]), np.arange(-7.0, 8.0).reshape(1, -1), np.arange(-8.0, 8.0).reshape(1, -1)]
    for m in (3.0, 1.0, 7.0, 2.0 ** 52, 1e15):
        common = specialized("mod", MISSING_LITERAL, m)
        taken = 0
        for x in [*ALL, *wide]:
            got = outcome(common, [x, m])
            if got is NotImplemented:
                continue
            taken += 1
            with monkeypatch.context() as patched:
                patched.setattr(rounding, "_short_whole_mod", lambda a, m: None)
                same(got, outcome(rounding.mod, x, m))
        assert taken > 20
    same(specialized("mod", MISSING_LITERAL, 3.0)([np.array([[-7.0, 7.0, -0.0, 0.0]]), 3.0]),
         np.array([[2.0, 1.0, 0.0, 0.0]]))
    for literals in ((MISSING_LITERAL, -3.0), (MISSING_LITERAL, 2.5), (MISSING_LITERAL, 0.0),
                     (MISSING_LITERAL, NAN), (MISSING_LITERAL, INF), (3.0, MISSING_LITERAL), (MISSING_LITERAL,),
                     (MISSING_LITERAL, MISSING_LITERAL)):
        assert specialized("mod", *literals) is None
