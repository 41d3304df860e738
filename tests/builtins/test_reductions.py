"""Reductions, cumulative operations, search, sorting and sets (mlang/builtins/math: reductions, extrema, cumulative, find, sorting, sets)."""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mlang.values.cell import Cell
from mlang.values.core import char_text


def rows(v) -> list:
    return np.asarray(v).tolist()


small_matrices = hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=5),
                            elements=st.integers(-20, 20).map(float))

# ------------------------------------------------------------------ sum/prod


def test_sum_dims_and_empties(m):
    m.run("A = [1 2 3; 4 5 6];")
    assert rows(m.value("x = sum([1 2 3; 4 5 6]);")) == [[5, 7, 9]]
    assert rows(m.value("x = sum([1 2 3; 4 5 6], 2);")) == [[6], [15]]
    assert rows(m.value("x = sum([1 2 3; 4 5 6], 3);")) == [[1, 2, 3], [4, 5, 6]]
    assert m.value("x = sum([1 2; 3 4], 'all');") == 10.0
    assert m.value("x = sum([1 2 3]');") == 6.0
    assert m.value("x = sum([]);") == 0.0
    assert m.value("x = prod([]);") == 1.0
    assert rows(m.value("x = sum(zeros(0, 3));")) == [[0, 0, 0]]
    assert m.value("x = sum(zeros(3, 0));").shape == (1, 0)
    assert m.value("x = sum(zeros(1, 0));") == 0.0
    assert rows(m.value("x = sum(ones(2, 3, 4), [1 3]);")) == [[8, 8, 8]]
    assert rows(m.value("x = prod([1 2 3; 4 5 6], 2);")) == [[6], [120]]


def test_sum_classes_and_nan_flags(m):
    s = m.value("x = sum(int8([100 100]));")
    assert s.dtype == np.int8 and s.item() == 127
    assert m.value("x = sum(int8([100 100]), 'double');") == 200.0
    assert m.value("x = sum(single([1 2]));").dtype == np.float32
    assert rows(m.value("x = sum(true(2, 3));")) == [[2, 2, 2]]
    assert m.value("x = sum('ab');") == 195.0
    assert np.isnan(m.value("x = sum([1 NaN 2]);"))
    assert m.value("x = sum([1 NaN 2], 'omitnan');") == 3.0
    p = m.value("x = prod(int16([200 200]));")
    assert p.dtype == np.int16 and p.item() == 32767


@settings(max_examples=40, deadline=None)
@given(small_matrices)
def test_sum_and_prod_match_numpy_along_columns(m, a):
    s = m.value("x = sum(a);", a=a)
    expected = a.sum(axis=0, keepdims=True) if a.shape[0] != 1 else a.sum(axis=1, keepdims=True)
    if a.shape == (0, 0):
        expected = np.zeros((1, 1))
    assert np.array_equal(np.asarray(s).reshape(expected.shape), expected)
    total = m.value("x = sum(a, 'all');", a=a)
    assert total == a.sum()


# ---------------------------------------------------------------- statistics


def test_mean_median_mode(m):
    assert rows(m.value("x = mean([1 2; 3 4; 5 9]);")) == [[3, 5]]
    assert rows(m.value("x = mean([1 2; 3 4; 5 9], 2);")) == [[1.5], [3.5], [7]]
    assert m.value("x = mean([1 2; 3 4], 'all');") == 2.5
    assert np.isnan(m.value("x = mean([]);"))
    assert m.value("x = mean(int8([1 2 4]));") == pytest.approx(7 / 3)
    assert m.value("x = mean([1 NaN 3], 'omitnan');") == 2.0
    assert m.value("x = mean(single([1 2]));").dtype == np.float32
    assert m.value("x = median([3 1 2 5]);") == 2.5
    assert m.value("x = median([3 1 2]);") == 2.0
    assert np.isnan(m.value("x = median([1 NaN 3]);"))
    assert m.value("x = median([1 NaN 3 4], 'omitnan');") == 3.0
    assert rows(m.value("x = median([1 2; 3 4; 5 6]);")) == [[3, 4]]
    assert m.value("x = median(int8([1 2]));").dtype == np.int8
    assert m.value("x = mode([1 2 2 3 3]);") == 2.0
    assert rows(m.value("x = mode([3 3 1 1; 2 2 2 5]);")) == [[2, 2, 1, 1]]
    assert m.value("x = mode([NaN NaN 1]);") == 1.0
    mo, f, c = m.values("[x, f, c] = mode([1 2 2 3 3]);", "x", "f", "c")
    assert mo == 2.0 and f == 2.0 and isinstance(c, Cell) and rows(c.data[0, 0]) == [[2], [3]]


def test_std_var(m):
    assert m.value("x = std([2 4 4 4 5 5 7 9]);") == pytest.approx(2.13808993529939)
    assert m.value("x = std([2 4 4 4 5 5 7 9], 1);") == pytest.approx(2.0)
    assert m.value("x = var([1 2 3 4]);") == pytest.approx(5 / 3)
    assert m.value("x = var([1 2 3 4], 1);") == pytest.approx(1.25)
    assert m.value("x = var([1 2 3 4], [1 1 1 1]);") == pytest.approx(1.25)
    assert rows(m.value("x = var([1 2; 3 5], 0, 2);")) == [[0.5], [2]]
    assert m.value("x = var(5);") == 0.0
    assert np.isnan(m.value("x = var([]);"))
    assert m.value("x = std([1 NaN 3], 0, 'omitnan');") == pytest.approx(np.sqrt(2))


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, st.integers(2, 8), elements=st.floats(-100, 100)))
def test_var_matches_numpy(m, v):
    a = v.reshape(1, -1)
    assert m.value("x = var(a);", a=a) == pytest.approx(np.var(v, ddof=1), rel=1e-9, abs=1e-9)
    assert m.value("x = std(a, 1);", a=a) == pytest.approx(np.std(v), rel=1e-9, abs=1e-9)


# ------------------------------------------------------------------ max/min


def test_max_min_with_indices(m):
    assert m.values("[x, i] = max([3 7 2 7]);", "x", "i") == [7.0, 2.0]
    assert m.values("[x, i] = min([3 7 2 7]);", "x", "i") == [2.0, 3.0]
    assert rows(m.value("x = max([1 8 3; 9 2 4]);")) == [[9, 8, 4]]
    assert rows(m.value("x = max([1 8 3; 9 2 4], [], 2);")) == [[8], [9]]
    mn, i = m.values("[x, i] = min([1 8 3; 9 2 4], [], 2);", "x", "i")
    assert rows(mn) == [[1], [2]] and rows(i) == [[1], [2]]
    assert rows(m.value("x = max([1 8 3; 9 2 4], 5);")) == [[5, 8, 5], [9, 5, 5]]
    assert m.values("[x, i] = max([1 5; 7 2], [], 'all');", "x", "i") == [7.0, 2.0]


def test_max_min_nan_empty_and_classes(m):
    assert m.value("x = max([NaN 2 1]);") == 2.0
    assert m.values("[x, i] = max([NaN 5 NaN 7]);", "x", "i") == [7.0, 4.0]
    mx, i = m.values("[x, i] = max([NaN NaN]);", "x", "i")
    assert np.isnan(mx) and i == 1.0
    assert np.isnan(m.value("x = max([1 NaN], [], 'includenan');"))
    assert rows(m.value("x = max([NaN 1], [2 NaN]);")) == [[2, 1]]
    assert m.value("x = max([]);").shape == (0, 0)
    assert m.value("x = max(zeros(0, 3));").shape == (0, 3)
    assert m.value("x = max(zeros(3, 0));").shape == (1, 0)
    r = m.value("x = max(int8([-5 3]));")
    assert r.dtype == np.int8 and r.item() == 3
    r = m.value("x = min(int8([5 3]), 4.6);")
    assert r.dtype == np.int8 and rows(r) == [[5, 3]]
    assert m.value("x = max('abc');") == 99.0
    assert m.value("x = max([true false]);") is True
    assert m.value("x = max([3+4i 5 -5]);") == -5.0  # equal magnitude: the larger angle wins
    assert "two output" in m.fails("[a, b] = max([1 2], [3 4]);").exc.message


@settings(max_examples=40, deadline=None)
@given(small_matrices.filter(lambda a: a.size > 0))
def test_max_index_points_at_first_maximum(m, a):
    mx, i = m.values("[x, i] = max(a, [], 1);", "x", "i", a=a)
    mx, i = np.asarray(mx).reshape(1, -1), np.asarray(i).reshape(1, -1)
    assert np.array_equal(mx[0], a.max(axis=0))
    assert np.array_equal(i[0] - 1, a.argmax(axis=0))


# ------------------------------------------------------------- cumulative


def test_cumulative(m):
    assert rows(m.value("x = cumsum(1:5);")) == [[1, 3, 6, 10, 15]]
    assert rows(m.value("x = cumprod([1 2 3 4]);")) == [[1, 2, 6, 24]]
    assert rows(m.value("x = cumsum([1 2; 3 4]);")) == [[1, 2], [4, 6]]
    assert rows(m.value("x = cumsum([1 2; 3 4], 2);")) == [[1, 3], [3, 7]]
    assert rows(m.value("x = cumsum(1:4, 'reverse');")) == [[10, 9, 7, 4]]
    assert rows(m.value("x = cumsum([1 NaN 2], 'omitnan');")) == [[1, 1, 3]]
    assert m.value("x = cumsum(int8([100 100]));").dtype == np.int8
    assert rows(m.value("x = cummax([1 3 2 5 4]);")) == [[1, 3, 3, 5, 5]]
    assert rows(m.value("x = cummin([5 3 4 1 2]);")) == [[5, 3, 3, 1, 1]]
    assert rows(m.value("x = cummax([1 NaN 3 2]);")) == [[1, 1, 3, 3]]
    assert rows(m.value("x = cummax([1 3 2], 'reverse');")) == [[3, 3, 2]]
    assert m.value("x = cumsum([]);").shape == (0, 0)


def test_diff(m):
    assert rows(m.value("x = diff([1 4 9 16]);")) == [[3, 5, 7]]
    assert rows(m.value("x = diff([1 4 9 16], 2);")) == [[2, 2]]
    assert rows(m.value("x = diff([1 2; 4 8]);")) == [[3, 6]]
    assert rows(m.value("x = diff([1 2; 4 8], 1, 2);")) == [[1], [4]]
    assert m.value("x = diff([1 2 3], 3);").shape == (1, 0)
    d = m.value("x = diff(uint8([5 3 9]));")
    assert d.dtype == np.uint8 and rows(d) == [[0, 6]]
    assert rows(m.value("x = diff('abd');")) == [[1, 2]]


def test_trapz_cumtrapz(m):
    assert m.value("x = trapz([1 2 3]);") == 4.0
    assert m.value("x = trapz([0 1 2], [0 1 4]);") == 3.0
    assert m.value("x = trapz(0.5, [1 2 3]);") == 2.0
    assert rows(m.value("x = trapz([1 2; 3 4]);")) == [[2, 3]]
    assert rows(m.value("x = trapz([1 2; 3 4], 2);")) == [[1.5], [3.5]]
    assert rows(m.value("x = cumtrapz([1 2 3]);")) == [[0, 1.5, 4]]
    assert rows(m.value("x = cumtrapz([1 2; 3 4; 5 6]);")) == [[0, 0], [2, 3], [6, 8]]


@settings(max_examples=30, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 8), elements=st.integers(-50, 50).map(float)))
def test_cumsum_last_element_is_sum(m, v):
    a = v.reshape(1, -1)
    c = np.asarray(m.value("x = cumsum(a);", a=a)).reshape(-1)
    assert np.array_equal(c, np.cumsum(v))


# -------------------------------------------------------------- any/all/find


def test_any_all_nnz(m):
    assert rows(m.value("x = any([1 0; 1 1]);")) == [[True, True]]
    assert rows(m.value("x = all([1 0; 1 1]);")) == [[True, False]]
    assert rows(m.value("x = all([1 0; 1 1], 2);")) == [[False], [True]]
    assert m.value("x = any([]);") is False
    assert m.value("x = all([]);") is True
    assert m.value("x = any([0 0 NaN]);") is False
    assert m.value("x = all([1 NaN]);") is True
    assert m.value("x = all([1 1; 0 1], 'all');") is False
    assert rows(m.value("x = any(zeros(0, 3));")) == [[False, False, False]]
    assert m.value("x = nnz([1 0 2 0 3]);") == 3.0
    assert m.value("x = nnz(eye(4));") == 4.0


def test_find_forms(m):
    assert rows(m.value("x = find([0 1 0 1 1]);")) == [[2, 4, 5]]
    assert rows(m.value("x = find([1 5; 7 2] > 2);")) == [[2], [3]]
    r, c = m.values("[r, c] = find([1 5; 7 2] > 2);", "r", "c")
    assert rows(r) == [[2], [1]] and rows(c) == [[1], [2]]
    assert m.value("x = find([0 3 0 4 5], 1);") == 2.0
    assert rows(m.value("x = find([0 3 0 4 5], 2);")) == [[2, 4]]
    assert m.value("x = find([0 3 0 4 5], 1, 'last');") == 5.0
    r, c, v = m.values("[r, c, v] = find([0 2; 3 0]);", "r", "c", "v")
    assert rows(r) == [[2], [1]] and rows(c) == [[1], [2]] and rows(v) == [[3], [2]]
    assert m.value("x = find([0 0]);").shape == (1, 0)
    assert m.value("x = find([0; 0]);").shape == (0, 1)
    assert m.value("x = find([]);").shape == (0, 0)
    assert m.value("x = find(0);").shape == (1, 0)
    assert m.value("x = find(zeros(2));").shape == (0, 1)
    assert "first" in m.fails("find([1 2], 1, 'middle')").exc.message


@settings(max_examples=40, deadline=None)
@given(small_matrices)
def test_find_agrees_with_column_major_nonzeros(m, a):
    k = np.asarray(m.value("x = find(a);", a=a)).reshape(-1)
    assert np.array_equal(k - 1, np.flatnonzero(a.reshape(-1, order="F")))


# ------------------------------------------------------------------- sorting


def test_sort(m):
    s, i = m.values("[s, i] = sort([3 1 2]);", "s", "i")
    assert rows(s) == [[1, 2, 3]] and rows(i) == [[2, 3, 1]]
    s, i = m.values("[s, i] = sort([3 1 2], 'descend');", "s", "i")
    assert rows(s) == [[3, 2, 1]] and rows(i) == [[1, 3, 2]]
    assert rows(m.value("x = sort([3 1; 1 2; 2 0]);")) == [[1, 0], [2, 1], [3, 2]]
    assert rows(m.value("x = sort([3 1; 1 2; 2 0], 2);")) == [[1, 3], [1, 2], [0, 2]]
    s, i = m.values("[s, i] = sort([2 1 2 1]);", "s", "i")
    assert rows(i) == [[2, 4, 1, 3]]
    s, i = m.values("[s, i] = sort([1 2 1], 'descend');", "s", "i")
    assert rows(i) == [[2, 1, 3]]  # stable for equal elements
    s = np.asarray(m.value("x = sort([NaN 3 1 NaN 2]);"))
    assert rows(s[:, :3]) == [[1, 2, 3]] and np.isnan(s[0, 3:]).all()
    s = np.asarray(m.value("x = sort([NaN 3 1], 'descend');"))
    assert np.isnan(s[0, 0]) and rows(s[:, 1:]) == [[3, 1]]
    assert char_text(m.value("x = sort('hello');")) == "ehllo"
    assert m.value("x = sort(int8([3 -1 2]));").dtype == np.int8
    assert rows(m.value("x = sort([1+2i 3 -1]);")) == [[-1, 1 + 2j, 3]]
    c = m.value("x = sort({'pear', 'apple', 'fig'});")
    assert [str(char_text(np.asarray(v))) for v in c.values()] == ["apple", "fig", "pear"]


def test_sortrows(m):
    b = "[1 3; 2 1; 1 2]"
    assert rows(m.value(f"x = sortrows({b});")) == [[1, 2], [1, 3], [2, 1]]
    assert rows(m.value(f"x = sortrows({b}, -2);")) == [[1, 3], [1, 2], [2, 1]]
    assert rows(m.value(f"x = sortrows({b}, [1 -2]);")) == [[1, 3], [1, 2], [2, 1]]
    assert rows(m.value(f"[~, x] = sortrows({b}, 2);")) == [[2], [3], [1]]
    assert rows(m.value(f"x = sortrows({b}, 'descend');")) == [[2, 1], [1, 3], [1, 2]]
    c = m.value("x = sortrows({'b'; 'a'; 'c'});")
    assert [char_text(np.asarray(v)) for v in c.values()] == ["a", "b", "c"]
    assert "Column sorting" in m.fails(f"sortrows({b}, 3)").exc.message


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, st.integers(0, 10), elements=st.integers(-5, 5).map(float)),
       st.booleans())
def test_sort_is_a_stable_permutation(m, v, descending):
    a = v.reshape(1, -1)
    mode = "'descend'" if descending else "'ascend'"
    s, i = m.values(f"[s, i] = sort(a, {mode});", "s", "i", a=a)
    s, i = np.asarray(s).reshape(-1), np.asarray(i).reshape(-1).astype(int)
    assert np.array_equal(s, v[i - 1])
    keys = -v if descending else v
    assert np.array_equal(i - 1, np.argsort(keys, kind="stable"))


# ----------------------------------------------------------------------- sets


def test_unique(m):
    assert rows(m.value("x = unique([3 1 2 3 1]);")) == [[1, 2, 3]]
    u, ia, ic = m.values("[u, ia, ic] = unique([30 10 20 30 10]);", "u", "ia", "ic")
    assert rows(u) == [[10, 20, 30]] and rows(ia) == [[2], [3], [1]]
    assert rows(ic) == [[3], [1], [2], [3], [1]]
    assert rows(m.value("x = unique([3 1 2 3 1], 'stable');")) == [[3, 1, 2]]
    assert rows(m.value("x = unique([2; 1; 2]);")) == [[1], [2]]
    assert rows(m.value("x = unique([1 2; 2 1]);")) == [[1], [2]]
    assert rows(m.value("x = unique([1 2; 1 2; 0 5], 'rows');")) == [[0, 5], [1, 2]]
    assert rows(m.value("x = unique([1 2; 1 2; 0 5], 'rows', 'stable');")) == [[1, 2], [0, 5]]
    u, ia = m.values("[u, ia] = unique([5 5 7], 'last');", "u", "ia")
    assert rows(ia) == [[2], [3]]
    n = np.asarray(m.value("x = unique([1 NaN NaN]);"))
    assert n.shape == (1, 3) and np.isnan(n[0, 1:]).all()  # NaNs are all distinct
    assert char_text(m.value("x = unique('hello');")) == "ehlo"
    assert m.value("x = unique(int8([3 3 1]));").dtype == np.int8
    c = m.value("x = unique({'b', 'a', 'b'});")
    assert c.shape == (1, 2) and [char_text(np.asarray(v)) for v in c.values()] == ["a", "b"]
    assert m.value("x = unique([]);").shape == (0, 1)


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 12), elements=st.integers(-4, 4).map(float)),
       st.booleans())
def test_unique_index_identities(m, v, stable):
    a = v.reshape(1, -1)
    option = ", 'stable'" if stable else ""
    u, ia, ic = m.values(f"[u, ia, ic] = unique(a{option});", "u", "ia", "ic", a=a)
    u = np.asarray(u).reshape(-1)
    ia = np.asarray(ia).reshape(-1).astype(int)
    ic = np.asarray(ic).reshape(-1).astype(int)
    assert np.array_equal(u, v[ia - 1])
    assert np.array_equal(u[ic - 1], v)
    if not stable:
        assert np.array_equal(u, np.unique(v))


def test_ismember(m):
    assert m.value("x = ismember(2, [1 2 3]);") is True
    tf, loc = m.values("[tf, loc] = ismember([1 5 2], [2 1 9]);", "tf", "loc")
    assert rows(tf) == [[True, False, True]] and rows(loc) == [[2, 0, 1]]
    assert m.value("x = ismember('b', {'a', 'b'});") is True
    assert rows(m.value("x = ismember({'x', 'a'}, {'a', 'b'});")) == [[False, True]]
    tf, loc = m.values("[tf, loc] = ismember({'b', 'z'}, {'a', 'b', 'c'});", "tf", "loc")
    assert rows(tf) == [[True, False]] and rows(loc) == [[2, 0]]
    assert rows(m.value("x = ismember([1 2; 3 4], [4 1]);")) == [[True, False], [False, True]]
    assert rows(m.value("x = ismember([1 NaN], [NaN 1]);")) == [[True, False]]
    assert rows(m.value("[~, x] = ismember([2 2], [5 2 2]);")) == [[2, 2]]  # lowest index
    tf, loc = m.values("[tf, loc] = ismember([1 2; 3 4], [3 4; 1 2; 1 2], 'rows');", "tf", "loc")
    assert rows(tf) == [[True], [True]] and rows(loc) == [[2], [1]]
    assert rows(m.value("x = ismember('abc', 'cb');")) == [[False, True, True]]


# --------------------------------------------------------------- accumarray


def test_accumarray(m):
    assert rows(m.value("x = accumarray([1; 2; 1; 3], [10; 20; 30; 40]);")) == [[40], [20], [40]]
    assert rows(m.value("x = accumarray([2; 2; 4], 1);")) == [[0], [2], [0], [1]]
    assert rows(m.value("x = accumarray([1; 2; 1], [5; 6; 7], [], @max);")) == [[7], [6]]
    assert rows(m.value("x = accumarray([1 1; 2 2; 1 1], [1 2 3]);")) == [[4, 0], [0, 2]]
    assert rows(m.value("x = accumarray([1; 3], [1; 2], [4 1]);")) == [[1], [0], [2], [0]]
    assert rows(m.value("x = accumarray([1; 3], [5; 6], [], [], -1);")) == [[5], [-1], [6]]
    c = m.value("x = accumarray([1; 2; 1], [1; 2; 3], [], @(v) {v});")
    assert isinstance(c, Cell) and rows(c.data[0, 0]) == [[1], [3]]


def test_max_min_linear_indices(m):
    i = m.value("[~, x] = max([1 8 3; 9 2 4], [], 2, 'linear');")
    assert rows(i) == [[3], [2]]
    i = m.value("[~, x] = min([1 8 3; 9 2 4], [], 1, 'linear');")
    assert rows(i) == [[1, 4, 5]]


def test_vector_fast_paths_keep_nan_rules(m):
    assert m.value("x = max([NaN 1 3]);") == 3.0
    assert m.value("x = min([2 NaN 1]);") == 1.0
    assert np.isnan(m.value("x = sum([1 NaN]);"))
    assert np.isnan(m.value("x = mean([1 NaN]);"))
    assert m.value("x = mean([1; 2; 6]);") == 3.0
