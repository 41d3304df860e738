"""The fast paths of reductions, sorting, searching and construction builtins on short
double and logical vectors give exactly what their general paths give: the same class,
shape, values (NaN, Inf and the sign of zero included), order of ties and the same errors.
Each fast path is compared with a call the fast path does not take (an explicit dimension
or option, a 1x1 array instead of a number, a cell around a value), which computes the
same answer the general way."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlang.builtins.data.cells import cell
from mlang.builtins.data.construct import eye, linspace
from mlang.builtins.data.structs import struct
from mlang.builtins.math.cumulative import cumprod, cumsum
from mlang.builtins.math.find import find
from mlang.builtins.math.linalg import dot, norm
from mlang.builtins.math.reductions import all_, any_, prod
from mlang.builtins.math.sorting import sort
from mlang.errors import MatlabError
from mlang.values.cell import Cell
from mlang.values.core import char_row
from mlang.values.string import StringArray
from mlang.values.struct import Struct

from .running import run

NAN, INF = math.nan, math.inf


def _vectors() -> list[np.ndarray]:
    rows = [
        [3.0, 4.0, 1.0],
        [5.0, 6.0, 3.0, 5.0, 6.0],
        [0.0, -0.0, 0.0, -0.0],
        [NAN, 1.0, NAN, -1.0, 0.0],
        [INF, -INF, NAN, 2.0, -0.0, 1e308, 1e308],
        [1e308, 1e308, 10.0],
        [1e-310, -1e-310, 1e-300, 2.0],
        [NAN],
        [-0.0],
        [7.0],
        [0.0, 0.0],
        [2.0, 2.0, 2.0],
        [1.0, NAN],
        [-3.5, 2.25, 1e200, -1e200, 4.0, 4.0, -0.0, 0.0, 9.0, NAN, 1.5],
    ]
    rng = np.random.default_rng(26)
    for n in (2, 3, 4, 5, 6, 7, 8, 9, 17, 40):
        rows.append(list(rng.integers(-3, 4, n).astype(float)))  # many ties and zeros
        rows.append(list(rng.standard_normal(n)))
    out = []
    for r in rows:
        row = np.array([r], dtype=np.float64)
        out += [row, row.T.copy(), row.T]  # a column, contiguous and as a view
    matrix = np.arange(12.0).reshape(3, 4)
    out += [matrix[:, 1:2], matrix[1:2, ::2], np.asfortranarray(np.array([[1.0, 0.0, 3.0]])),
            np.zeros((1, 0)), np.zeros((0, 1))]
    return out


VECTORS = _vectors()
LOGICAL_VECTORS = [v != 0 for v in VECTORS] + [np.array([[True]]), np.array([[False], [False]]),
                                                (np.arange(12.0).reshape(3, 4) > 4)[:, 1:2],
                                                (np.arange(12.0).reshape(3, 4) > 6)[1:2, ::-1]]
IDS = [f"v{k}" for k in range(len(VECTORS))]


def same(x: object, y: object) -> None:
    """x and y are the same MATLAB value: type, dtype, shape and every bit of every element."""
    assert type(x) is type(y), (x, y)
    if type(x) is tuple:
        assert len(x) == len(y)
        for a, b in zip(x, y, strict=True):
            same(a, b)
    elif type(x) is np.ndarray:
        assert x.dtype == y.dtype and x.shape == y.shape, (x, y)
        if x.dtype.kind in "fc":
            numbers = ~np.isnan(x.real)  # (the sign of a NaN carries no meaning)
            assert np.array_equal(np.signbit(x.real)[numbers], np.signbit(y.real)[numbers]), (x, y)
            assert np.array_equal(x, y, equal_nan=True), (x, y)
        else:
            assert np.array_equal(x, y), (x, y)
    elif type(x) is float:
        assert (math.isnan(x) and math.isnan(y)) or \
            (x == y and math.copysign(1, x) == math.copysign(1, y)), (x, y)
    elif type(x) is complex:
        same(x.real, y.real)
        same(x.imag, y.imag)
    elif type(x) is Struct:
        assert x.fields == y.fields and x.elems.shape == y.elems.shape
        for a, b in zip(x.elems.reshape(-1), y.elems.reshape(-1), strict=True):
            assert list(a) == list(b)
            for name in a:
                same(a[name], b[name])
    elif type(x) is Cell:
        assert x.data.shape == y.data.shape
        for a, b in zip(x.data.reshape(-1), y.data.reshape(-1), strict=True):
            same(a, b)
    else:
        assert x == y, (x, y)


def outcome(fn, *args: object, **kwargs: object) -> object:
    """fn's value, or its MATLAB error identifier."""
    try:
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)
    except MatlabError as e:
        return ("error", e.identifier)


def dim_of(v: np.ndarray) -> float:
    """The dimension the default form of a reduction runs along (MATLAB's first non-singleton)."""
    return float(next((k + 1 for k, n in enumerate(v.shape) if n != 1), 1))


def other_types(v: np.ndarray) -> list[object]:
    """The same values in classes and shapes no fast path takes."""
    whole = np.clip(np.where(np.isfinite(v), v, 0.0), -100.0, 100.0)
    with np.errstate(all="ignore"):
        return [whole.astype(np.int8), np.abs(whole).astype(np.uint64), v.astype(np.float32),
                v + 0j, v + 1j, v.reshape(v.shape + (1,))]


# ------------------------------------------------------------ sort


@pytest.mark.parametrize("v", VECTORS, ids=IDS)
@pytest.mark.parametrize("direction", [None, "ascend", "descend", "DESCEND"])
def test_sort_of_a_double_vector_matches_the_general_path(v, direction):
    options = () if direction is None else (char_row(direction),)
    general = (dim_of(v), *options)
    same(outcome(sort, v, *options), outcome(sort, v, *general))
    same(outcome(sort, v, *options, nargout=2), outcome(sort, v, *general, nargout=2))
    for w in other_types(v):
        same(outcome(sort, w, *options, nargout=2), outcome(sort, w, *general, nargout=2))


def test_sort_keeps_ties_in_order_and_places_nan():
    v = np.array([[2.0, NAN, -0.0, 2.0, 0.0, NAN, 1.0]])
    b, i = sort(v, nargout=2)
    assert i.tolist() == [[3.0, 5.0, 7.0, 1.0, 4.0, 2.0, 6.0]]
    assert np.signbit(b[0, 0]) and not np.signbit(b[0, 1])
    b, i = sort(v, char_row("descend"), nargout=2)
    assert i.tolist() == [[2.0, 6.0, 1.0, 4.0, 7.0, 3.0, 5.0]]


@pytest.mark.parametrize("option", ["up", "Descending", "descend1"])
def test_sort_with_a_bad_direction_is_matlabs_error(option):
    v = np.array([[3.0, 1.0, 2.0]])
    assert outcome(sort, v, char_row(option)) == ("error", "MATLAB:sort:sortDirection")
    assert outcome(sort, v, 2.0, char_row(option)) == ("error", "MATLAB:sort:sortDirection")


def test_sort_with_other_options_takes_the_general_path():
    v = np.array([[NAN, 3.0, -1.0, 1.0]])
    placement = (char_row("MissingPlacement"), char_row("last"))
    b = sort(v, char_row("descend"), *placement)
    assert np.isnan(b[0, -1]) and b[0, :3].tolist() == [3.0, 1.0, -1.0]
    same(sort(v, StringArray(np.array([["descend"]], dtype=object))),
         sort(v, 2.0, char_row("descend")))


# ------------------------------------------------------------ cumsum, cumprod, prod


MATRICES = [np.array([[1.0, -0.0], [NAN, 3.0], [1e308, 1e308]]), np.arange(6.0).reshape(2, 3),
            np.asfortranarray(np.arange(6.0).reshape(3, 2)), np.zeros((0, 3)), np.zeros((2, 0))]


@pytest.mark.parametrize("v", VECTORS + MATRICES)
@pytest.mark.parametrize("fn", [cumsum, cumprod, prod])
def test_cumulative_and_prod_match_the_general_path(v, fn):
    same(outcome(fn, v), outcome(fn, v, dim_of(v)))
    for w in other_types(v):
        same(outcome(fn, w), outcome(fn, w, dim_of(w)))


def test_prod_and_cumsum_of_empty_and_scalar_arrays():
    same(prod(np.zeros((1, 0))), 1.0)
    same(prod(np.zeros((0, 1))), 1.0)
    same(prod(np.array([[-0.0]])), -0.0)
    same(cumsum(np.array([[-0.0]])), -0.0)
    same(cumsum(np.zeros((0, 3))), np.zeros((0, 3)))


# ------------------------------------------------------------ any, all, find


@pytest.mark.parametrize("v", VECTORS + LOGICAL_VECTORS)
@pytest.mark.parametrize("fn", [any_, all_])
def test_any_and_all_of_a_vector_match_the_general_path(v, fn):
    same(outcome(fn, v), outcome(fn, v, dim_of(v)))
    if v.dtype == np.float64:
        for w in other_types(v):
            same(outcome(fn, w), outcome(fn, w, dim_of(w)))


def test_any_ignores_nan_and_all_counts_it():
    assert any_(np.array([[NAN, 0.0]])) is False
    assert all_(np.array([[NAN, 1.0]])) is True
    assert any_(np.zeros((1, 0))) is False and all_(np.zeros((0, 1))) is True


@pytest.mark.parametrize("v", VECTORS + LOGICAL_VECTORS)
def test_find_of_a_vector_matches_the_general_path(v):
    everything = float(max(v.size, 1))
    first = char_row("first")
    same(outcome(find, v), outcome(find, v, everything, first))
    for n in (1.0, 2.0, 3.0, 1e300):
        same(outcome(find, v, n), outcome(find, v, n, first))
    if v.dtype == np.float64:
        for w in other_types(v)[:-1]:  # (an n-d array's positions form a column)
            same(outcome(find, w), outcome(find, w, everything, first))


@pytest.mark.parametrize("n", [0.0, -1.0, 1.5, NAN, INF, -INF])
def test_find_with_a_bad_count_is_matlabs_error(n):
    v = np.array([[0.0, 2.0, 3.0]])
    assert outcome(find, v, n) == ("error", "MATLAB:find:nonIntegerNumberOfElements")
    assert outcome(find, v, n, char_row("first")) == outcome(find, v, n)
    assert outcome(find, v, 1.0, char_row("middle")) == ("error", "MATLAB:find:invalidDirection")
    same(find(v, True), 2.0)


def test_find_keeps_the_shape_of_rows_and_columns():
    same(find(np.array([[0.0, 5.0, NAN, 0.0]])), np.array([[2.0, 3.0]]))
    same(find(np.array([[0.0], [5.0], [NAN]])), np.array([[2.0], [3.0]]))
    same(find(np.array([[False, True]])), 2.0)
    same(find(np.zeros((1, 3)), 1.0), np.zeros((1, 0)))
    same(find(np.zeros((3, 1))), np.zeros((0, 1)))


# ------------------------------------------------------------ norm, dot


@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_norm_of_a_vector_matches_the_general_path(v):
    same(outcome(norm, v), outcome(norm, v, np.array([[2.0]])))
    same(outcome(norm, v, 2.0), outcome(norm, v, char_row("fro")))
    for w in other_types(v)[:-1]:
        same(outcome(norm, w), outcome(norm, w, np.array([[2.0]])))


def test_norm_of_extreme_vectors():
    same(norm(np.array([[NAN, INF]])), NAN)
    same(norm(np.array([[INF, -1.0]])), INF)
    same(norm(np.array([[-0.0, 0.0]])), 0.0)
    same(norm(np.array([[1e308, 1e308]])), norm(np.array([[1e308, 1e308]]), char_row("fro")))
    assert norm(np.array([[3.0, 4.0]])) == 5.0


def _dot_general(a: np.ndarray, b: np.ndarray) -> object:
    """dot of two vectors through its dimension form (b shaped as a)."""
    return outcome(dot, a, b.reshape(a.shape), dim_of(a))


@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_dot_of_two_vectors_matches_the_general_path(v):
    w = np.flip(v).copy()
    for a, b in ((v, v), (v, w), (v, w.T), (v.T, w)):
        same(outcome(dot, a, b), _dot_general(a, b))
    for x in other_types(v)[:-1]:
        same(outcome(dot, x, v), _dot_general(x, v))


def test_norm_and_dot_of_many_short_vectors_add_as_numpy_does():
    """Short vectors are summed in Python floats, in the order NumPy adds them: the last bit
    of every sum must agree, over vectors of very different magnitudes."""
    rng = np.random.default_rng(8)
    for _ in range(3000):
        n = int(rng.integers(1, 11))
        a = rng.standard_normal((1, n)) * 10.0 ** rng.integers(-8, 8, (1, n))
        b = rng.standard_normal((1, n)) * 10.0 ** rng.integers(-8, 8, (1, n))
        same(norm(a), norm(a, np.array([[2.0]])))
        same(dot(a, b), _dot_general(a, b))
        same(dot(a.T, b), _dot_general(a.T, b))
    same(dot(np.array([[-0.0]]), np.array([[1.0]])), _dot_general(np.array([[-0.0]]), np.array([[1.0]])))
    same(dot(np.array([[-0.0, -0.0]]), np.array([[1.0, 1.0]])),
         _dot_general(np.array([[-0.0, -0.0]]), np.array([[1.0, 1.0]])))


def test_dot_of_vectors_of_different_lengths_is_matlabs_error():
    a, b = np.array([[1.0, 2.0]]), np.array([[1.0, 2.0, 3.0]])
    assert outcome(dot, a, b) == ("error", "MATLAB:dot:InputSizeMismatch")
    assert outcome(dot, a, b.T) == ("error", "MATLAB:dot:InputSizeMismatch")
    same(dot(a, a, 1.0), np.array([[1.0, 4.0]]))


# ------------------------------------------------------------ linspace, eye, cell, struct


ENDS = [0.0, -0.0, 1.0, -3.0, 2.5, 1e-310, 1e299, -1e299, 1e300, 1e308, -1e308, INF, -INF, NAN]


@pytest.mark.parametrize("a", ENDS)
@pytest.mark.parametrize("b", ENDS)
def test_linspace_matches_the_general_path(a, b):
    for n in (2.0, 3.0, 7.0, 16.0, 17.0, 100.0):
        same(outcome(linspace, a, b, n), outcome(linspace, np.array([[a]]), b, np.array([[n]])))


@pytest.mark.parametrize("n", [0.0, 1.0, 2.0, 3.0, 2.5, -1.0, NAN, INF, 2048.0, 2049.0, True])
def test_linspace_counts_match_the_general_path(n):
    same(outcome(linspace, 0.0, 5.0, n), outcome(linspace, np.array([[0.0]]), 5.0, np.array([[n]])))
    same(outcome(linspace, 0.0, 5.0), outcome(linspace, np.array([[0.0]]), 5.0))


SIZES = [0.0, 1.0, 2.0, 3.0, 5.0, -1.0, -0.0, 1.5, NAN, INF, True]


@pytest.mark.parametrize("r", [*SIZES, 2048.0, 2049.0])
@pytest.mark.parametrize("c", [None, *SIZES])
def test_eye_and_cell_of_whole_sizes_match_the_general_path(r, c):
    if c is None and r > 5:
        c = 1.0  # (the square forms are tried small: comparing 4M cells is slow)
    sizes = (r,) if c is None else (r, c)
    size_vector = np.array([list(sizes)], dtype=np.float64)
    same(outcome(eye, *sizes), outcome(eye, *sizes, char_row("double")))
    same(outcome(cell, *sizes), outcome(cell, size_vector if c is not None else np.array([[r]])))


def test_eye_and_cell_other_forms():
    same(eye(), 1.0)
    same(eye(2.0, 3.0, char_row("int8")), np.eye(2, 3, dtype=np.int8))
    same(cell(), Cell.filled((0, 0)))
    same(cell(2.0, 1.0, 2.0), Cell.filled((2, 1, 2)))


VALUES = [3.0, NAN, -0.0, True, 1 + 2j, np.array([[1.0, 2.0]]), char_row("text"), np.zeros((0, 0)),
          Struct.scalar({"b": 1.0}), Cell.filled((1, 2)), Cell.filled((1, 1)), Cell.filled((0, 0))]


@pytest.mark.parametrize("value", VALUES, ids=[f"value{k}" for k in range(len(VALUES))])
@pytest.mark.parametrize("name", ["a", "field_2", "X", "a_b_c_d_e_f"])
def test_struct_of_one_field_matches_the_general_path(name, value):
    as_string = StringArray(np.array([[name]], dtype=object))
    same(outcome(struct, char_row(name), value), outcome(struct, as_string, value))
    if type(value) is not Cell:
        same(outcome(struct, char_row(name), value), outcome(struct, as_string, Cell.row([value])))


@pytest.mark.parametrize("name", ["1a", "_a", "a b", "a-b", ""])
def test_struct_with_a_bad_field_name_is_matlabs_error(name):
    expected = outcome(struct, StringArray(np.array([[name]], dtype=object)), 1.0)
    assert expected[0] == "error"
    assert outcome(struct, char_row(name), 1.0) == expected


def test_struct_field_name_must_be_a_char_row():
    two_rows = np.concatenate([char_row("ab"), char_row("cd")])
    assert outcome(struct, two_rows, 1.0) == ("error", "MATLAB:struct:FieldNameNotChar")
    assert outcome(struct, 1.0, 1.0) == ("error", "MATLAB:struct:FieldNameNotChar")


# ------------------------------------------------------------ in MATLAB code


def test_fast_paths_in_matlab_code():
    _, out = run("""
        v = [3, 4, 1];
        [s, i] = sort(v, 'descend'); disp([s; i])
        disp(cumsum(v)); disp(cumprod(v')); disp(prod(v))
        disp([any(v > 3), all(v), find(v > 3, 1)])
        fprintf('%.15g %.15g\\n', norm(v), dot(v, v));
        disp(linspace(0, 3, 3)); disp(eye(2))
        c = cell(1, 2); disp(size(c)); st = struct('a', 3); disp(st.a)
    """)
    assert out.split() == ("4 3 1 2 1 3  3 7 8  3 12 12  12  1 1 2  5.09901951359278 26  0 1.5000 3.0000  1 0 0 1  "
                           "1 2  3").split()
