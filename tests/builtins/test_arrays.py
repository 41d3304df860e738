"""Array constructors and shape functions (mlang/builtins/data: construct, rearrange, shape, equality)."""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mlang.values.cell import Cell
from mlang.values.core import char_rows
from mlang.values.struct import Struct


def arr(v) -> np.ndarray:
    return np.asarray(v)


# ------------------------------------------------------------ constructors


def test_zeros_ones_shapes_and_classes(m):
    assert m.value("x = zeros(2, 3);").shape == (2, 3)
    assert m.value("x = zeros(2);").shape == (2, 2)
    assert m.value("x = zeros([2 4]);").shape == (2, 4)
    assert m.value("x = zeros(2, 3, 1);").shape == (2, 3)
    assert m.value("x = zeros(2, 3, 4);").shape == (2, 3, 4)
    assert m.value("x = zeros(2, 0);").shape == (2, 0)
    assert m.value("x = zeros(-1, 3);").shape == (0, 3)
    assert m.value("x = zeros;") == 0.0
    assert m.value("x = ones(1, 1);") == 1.0
    z = m.value("x = zeros(2, 'int8');")
    assert z.dtype == np.int8 and z.shape == (2, 2)
    o = m.value("x = ones(2, 1, 'like', single(3));")
    assert o.dtype == np.float32 and o.tolist() == [[1.0], [1.0]]
    assert m.value("x = ones(2, 'uint16');").dtype == np.uint16


def test_size_inputs_must_be_integer_scalars(m):
    assert "integers" in m.fails("zeros(2.5)").exc.message
    assert "scalar" in m.fails("ones([1 2], 3)").exc.message


def test_eye(m):
    assert m.value("x = eye(3);").tolist() == np.eye(3).tolist()
    assert m.value("x = eye(2, 3);").tolist() == [[1, 0, 0], [0, 1, 0]]
    assert m.value("x = eye([3 2]);").tolist() == [[1, 0], [0, 1], [0, 0]]
    assert m.value("x = eye;") == 1.0
    assert m.value("x = eye(2, 'int32');").dtype == np.int32


@pytest.mark.parametrize("n", [3, 4, 5, 6, 8, 10, 12])
def test_magic_squares_are_magic(m, n):
    a = m.value(f"x = magic({n});")
    target = n * (n * n + 1) / 2
    assert sorted(a.reshape(-1).tolist()) == list(range(1, n * n + 1))
    assert (a.sum(axis=0) == target).all() and (a.sum(axis=1) == target).all()
    assert np.trace(a) == target and np.trace(np.fliplr(a)) == target


def test_magic_known_values(m):
    assert m.value("x = magic(3);").tolist() == [[8, 1, 6], [3, 5, 7], [4, 9, 2]]
    assert m.value("x = magic(4);").tolist() == [[16, 2, 3, 13], [5, 11, 10, 8], [9, 7, 6, 12],
                                                 [4, 14, 15, 1]]
    assert m.value("x = magic(2);").tolist() == [[4, 3], [1, 2]]
    assert m.value("x = magic(1);") == 1.0
    assert m.value("x = magic(0);").shape == (0, 0)


def test_linspace(m):
    assert m.value("x = linspace(0, 1, 5);").tolist() == [[0, 0.25, 0.5, 0.75, 1]]
    assert m.value("x = linspace(0, 1);").shape == (1, 100)
    assert m.value("x = linspace(-1, 1, 3);").tolist() == [[-1, 0, 1]]
    assert m.value("x = linspace(3, 7, 1);") == 7.0
    assert m.value("x = linspace(0, 1, 0);").shape == (1, 0)
    assert m.value("x = linspace(single(0), 1, 3);").dtype == np.float32
    last = m.value("x = linspace(0.1, 0.7, 7);")
    assert last[0, 0] == 0.1 and last[0, -1] == 0.7


def test_logspace(m):
    assert np.allclose(m.value("x = logspace(0, 2, 3);"), [[1, 10, 100]])
    assert np.allclose(m.value("x = logspace(0, pi, 3);"), [[1, np.sqrt(np.pi), np.pi]])
    assert m.value("x = logspace(1, 2);").shape == (1, 50)


def test_meshgrid_and_ndgrid(m):
    m.run("[X, Y] = meshgrid(1:3, 10:10:20);")
    v = m.interp.base.vars
    assert v["X"].tolist() == [[1, 2, 3], [1, 2, 3]]
    assert v["Y"].tolist() == [[10, 10, 10], [20, 20, 20]]
    m.run("[X, Y, Z] = meshgrid(1:2, 1:3, 1:4);")
    assert v["X"].shape == (3, 2, 4) and v["Z"][0, 0, 3] == 4
    m.run("[A, B] = ndgrid(1:3, 1:2);")
    assert v["A"].tolist() == [[1, 1], [2, 2], [3, 3]]
    assert v["B"].tolist() == [[1, 2], [1, 2], [1, 2]]
    assert m.value("x = ndgrid(1:3);").shape == (3, 1)


def test_colon_function(m):
    assert m.value("x = colon(1, 3);").tolist() == [[1, 2, 3]]
    assert m.value("x = colon(10, -3, 1);").tolist() == [[10, 7, 4, 1]]
    assert m.value("x = colon(int8(1), int8(3));").dtype == np.int8


# ------------------------------------------------------------- rearranging


def test_repmat(m):
    assert m.value("x = repmat([1 2], 2, 2);").tolist() == [[1, 2, 1, 2], [1, 2, 1, 2]]
    assert m.value("x = repmat(7, 1, 3);").tolist() == [[7, 7, 7]]
    assert m.value("x = repmat([1; 2], [1 3]);").shape == (2, 3)
    assert m.value("x = repmat(5, 2);").tolist() == [[5, 5], [5, 5]]
    assert m.value("x = repmat([1 2], [1 1 2]);").shape == (1, 2, 2)
    assert char_rows(m.value("x = repmat('ab', 2, 1);")) == ["ab", "ab"]
    assert m.value("x = repmat(int8(3), 1, 2);").dtype == np.int8
    c = m.value("x = repmat({1, 'a'}, 2, 1);")
    assert isinstance(c, Cell) and c.shape == (2, 2)
    s = m.value("x = repmat(struct('a', 1), 1, 3);")
    assert isinstance(s, Struct) and s.shape == (1, 3)


def test_repmat_struct_copies_are_independent(m):
    out = m.run("s = repmat(struct('a', 1), 1, 2); s(2).a = 5; fprintf('%d %d\\n', s(1).a, s(2).a);")
    assert out == "1 5\n"


def test_reshape(m):
    assert m.value("x = reshape(1:6, 2, 3);").tolist() == [[1, 3, 5], [2, 4, 6]]
    assert m.value("x = reshape(1:6, [], 2);").tolist() == [[1, 4], [2, 5], [3, 6]]
    assert m.value("x = reshape(1:6, 3, []);").shape == (3, 2)
    assert m.value("x = reshape(1:12, [2 3 2]);").shape == (2, 3, 2)
    assert m.value("x = reshape(1:12, 2, 3, 2, 1);").shape == (2, 3, 2)
    assert m.value("x = reshape({1, 2, 3, 4}, 2, 2);").shape == (2, 2)


def test_reshape_errors(m):
    assert m.fails("reshape(1:6, 4, 2)").exc.identifier == "MATLAB:getReshapeDims:notSameNumel"
    err = m.fails("reshape(1:6, 4, [])").exc
    assert err.message == ("Product of known dimensions, 4, not divisible into total number of "
                           "elements, 6.")
    assert m.fails("reshape(1:6, [], [])").exc.identifier == "MATLAB:getReshapeDims:unknownDim"


def test_permute_ipermute_squeeze(m):
    assert m.value("x = permute(reshape(1:6, 2, 3), [2 1]);").tolist() == [[1, 2], [3, 4], [5, 6]]
    p = m.value("x = permute(zeros(2, 3, 4), [3 1 2]);")
    assert p.shape == (4, 2, 3)
    assert m.value("x = size(permute(ones(2, 3), [3 2 1]));").tolist() == [[1, 3, 2]]
    assert m.value("x = squeeze(ones(1, 1, 3));").shape == (3, 1)
    assert m.value("x = squeeze(ones(2, 1, 3));").shape == (2, 3)
    assert m.value("x = squeeze([1 2 3]);").shape == (1, 3)
    assert "invalid permutation" in m.fails("permute(ones(2), [1 1])").exc.message
    assert "at least 3" in m.fails("permute(ones(2, 2, 2), [2 1])").exc.message


def test_cat_horzcat_vertcat(m):
    c = m.value("x = cat(3, [1 2], [3 4]);")
    assert c.shape == (1, 2, 2) and c[0, 1, 1] == 4
    assert m.value("x = cat(1, [1 2], [3 4]);").tolist() == [[1, 2], [3, 4]]
    assert m.value("x = horzcat([1 2], 3, [4 5]);").tolist() == [[1, 2, 3, 4, 5]]
    assert m.value("x = vertcat([1 2], [3 4]);").tolist() == [[1, 2], [3, 4]]
    assert m.value("x = numel(horzcat({1}, {2, 3}));") == 3.0
    assert m.value("x = horzcat();").shape == (0, 0)
    assert m.fails("vertcat([1 2], [1 2 3])").exc.identifier == "MATLAB:catenate:dimensionMismatch"


def test_flips_and_rotations(m):
    assert m.value("x = fliplr([1 2; 3 4]);").tolist() == [[2, 1], [4, 3]]
    assert m.value("x = flipud([1 2; 3 4]);").tolist() == [[3, 4], [1, 2]]
    assert m.value("x = flip([1 2 3]);").tolist() == [[3, 2, 1]]
    assert m.value("x = flip([1; 2]);").tolist() == [[2], [1]]
    assert m.value("x = flip([1 2; 3 4], 2);").tolist() == [[2, 1], [4, 3]]
    assert m.value("x = rot90([1 2; 3 4]);").tolist() == [[2, 4], [1, 3]]
    assert m.value("x = rot90([1 2 3; 4 5 6], -1);").tolist() == [[4, 1], [5, 2], [6, 3]]
    assert m.value("x = rot90([1 2; 3 4], 2);").tolist() == [[4, 3], [2, 1]]
    assert char_rows(m.value("x = fliplr('abc');")) == ["cba"]


def test_circshift(m):
    assert m.value("x = circshift([1 2 3 4], 1);").tolist() == [[4, 1, 2, 3]]
    assert m.value("x = circshift([1 2 3 4], -1);").tolist() == [[2, 3, 4, 1]]
    assert m.value("x = circshift([1 2; 3 4; 5 6], 1);").tolist() == [[5, 6], [1, 2], [3, 4]]
    assert m.value("x = circshift([1 2 3; 4 5 6], 1, 2);").tolist() == [[3, 1, 2], [6, 4, 5]]
    assert m.value("x = circshift(magic(3), [1 -1]);").tolist() == [[9, 2, 4], [1, 6, 8], [5, 7, 3]]


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=3, max_side=4),
                  elements=st.integers(-9, 9).map(float)),
       st.integers(-5, 5))
def test_circshift_matches_roll_along_first_nonsingleton(m, a, k):
    if a.ndim == 3 and a.shape[2] == 1:
        a = a[:, :, 0]
    out = m.value("x = circshift(a, k);", a=a, k=float(k))
    axis = next((d for d, n in enumerate(a.shape) if n != 1), 0)
    assert np.array_equal(np.asarray(out).reshape(a.shape), np.roll(a, k, axis=axis))


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=3, max_dims=3, min_side=2, max_side=4),
                  elements=st.integers(-9, 9).map(float)),
       st.permutations([1, 2, 3]))
def test_permute_then_ipermute_round_trips(m, a, order):
    order_arr = np.array([order], dtype=float)
    p = m.value("x = permute(a, p);", a=a, p=order_arr)
    assert p.shape == tuple(a.shape[k - 1] for k in order)
    back = m.value("x = ipermute(permute(a, p), p);", a=a, p=order_arr)
    assert np.array_equal(back, a)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 3))
def test_reshape_keeps_column_major_order(m, r, c, p):
    n = r * c * p
    a = np.arange(1.0, n + 1).reshape(1, n)
    out = m.value("x = reshape(a, r, [], p);", a=a, r=float(r), p=float(p))
    assert np.array_equal(np.asarray(out).reshape(-1, order="F"), a.reshape(-1))


# ------------------------------------------------------------------- sizes


def test_size_forms(m):
    m.run("A = zeros(3, 4, 2); s = size(A); d2 = size(A, 2); d5 = size(A, 5); [r, c] = size(A);"
          " [p, q, w, z] = size(A); v = size(A, [1 3]);")
    v = m.interp.base.vars
    assert v["s"].tolist() == [[3, 4, 2]]
    assert v["d2"] == 4.0 and v["d5"] == 1.0
    assert (v["r"], v["c"]) == (3.0, 8.0)
    assert (v["p"], v["q"], v["w"], v["z"]) == (3.0, 4.0, 2.0, 1.0)
    assert v["v"].tolist() == [[3, 2]]
    assert m.value("x = size(5);").tolist() == [[1, 1]]
    assert m.value("x = size({1, 2; 3, 4});").tolist() == [[2, 2]]
    assert m.value("x = size(struct('a', {1, 2, 3}));").tolist() == [[1, 3]]
    assert m.value("x = size('hello');").tolist() == [[1, 5]]
    assert m.value("x = size(@sin);").tolist() == [[1, 1]]
    assert m.fails("size([1 2], 0)").exc.identifier == "MATLAB:getdimarg:invalidDim"


def test_numel_length_ndims(m):
    assert m.value("x = numel(zeros(3, 4, 2));") == 24.0
    assert m.value("x = numel('text');") == 4.0
    assert m.value("x = numel({1, 2, 3});") == 3.0
    assert m.value("x = length(zeros(3, 7));") == 7.0
    assert m.value("x = length([]);") == 0.0
    assert m.value("x = length(zeros(5, 0));") == 0.0
    assert m.value("x = ndims(5);") == 2.0
    assert m.value("x = ndims(zeros(2, 2, 3));") == 3.0
    assert m.value("x = ndims(zeros(2, 2, 1, 1));") == 2.0


def test_shape_predicates(m):
    out = m.run(
        "fprintf('%d', isscalar(5), isscalar([1 2]), isscalar('a'), isvector([1 2 3]),"
        " isvector([1; 2]), isvector(ones(2)), isvector(zeros(1, 0)), isrow([1 2]), isrow([1; 2]),"
        " iscolumn([1; 2]), iscolumn([1 2]), ismatrix(ones(2, 3)), ismatrix(ones(2, 2, 2)),"
        " isempty(zeros(0, 3)), isempty([]), isempty(''), isempty({}), isempty(5));")
    assert out == "101110110101011110"


# --------------------------------------------------------- index conversion


def test_sub2ind_ind2sub(m):
    assert m.value("x = sub2ind([3 4], [1 2 3], [2 3 4]);").tolist() == [[4, 8, 12]]
    assert m.value("x = sub2ind([2 3 4], 2, 3, 4);") == 24.0
    assert m.value("x = sub2ind([2 3 4], 2, 12);") == 24.0
    m.run("[r, c] = ind2sub([3 4], [7 12]); [i, j, k] = ind2sub([2 3 4], 24); [a, b] = ind2sub([2 3 4], 24);")
    v = m.interp.base.vars
    assert v["r"].tolist() == [[1, 3]] and v["c"].tolist() == [[3, 4]]
    assert (v["i"], v["j"], v["k"]) == (2.0, 3.0, 4.0)
    assert (v["a"], v["b"]) == (2.0, 12.0)
    assert m.fails("sub2ind([2 2], 3, 1)").exc.message == "Out of range subscript."
    assert m.fails("[r, c] = ind2sub([2 2], 5);").exc.message == "Index out of range."


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=2, max_size=4), st.data())
def test_ind2sub_inverts_sub2ind(m, dims, data):
    subs = [data.draw(st.integers(1, n)) for n in dims]
    sz = np.array([dims], dtype=float)
    names = ", ".join(f"s{k}" for k in range(len(dims)))
    inputs = {f"s{k}": float(s) for k, s in enumerate(subs)}
    index = m.value(f"x = sub2ind(sz, {names});", sz=sz, **inputs)
    assert index == float(np.ravel_multi_index([s - 1 for s in subs], dims, order="F") + 1)
    m.run(f"[{names}] = ind2sub(sz, i);", sz=sz, i=index)
    assert [m.interp.base.vars[f"s{k}"] for k in range(len(dims))] == [float(s) for s in subs]


# ------------------------------------------------------------------ isequal


def test_isequal(m):
    out = m.run(
        "fprintf('%d', isequal([1 2], [1 2]), isequal([1 2], [1 2], [1 2]), isequal([1 NaN], [1 NaN]),"
        " isequal('a', 97), isequal(int8(1), 1), isequal([1 2], [1; 2]), isequal({1, 'a'}, {1, 'a'}),"
        " isequal({1, 'a'}, {1, 'b'}), isequal(struct('a', 1, 'b', 2), struct('b', 2, 'a', 1)),"
        " isequal(struct('a', 1), struct('a', 2)), isequal([], zeros(0, 0)), isequal({}, []),"
        " isequal(true, 1), isequal('abc', 'abc'), isequal('abc', 'abd'), isequal(1, 1, 2));")
    assert out == "1101101010101100"


def test_isequal_strings(m):
    assert m.value('x = isequal("abc", "abc");') is True
    assert m.value("x = isequal(\"abc\", 'abc');") is True
    assert m.value('x = isequal(["a" "b"], ["a" "c"]);') is False
