"""The fast paths of indexing and concatenation of short arrays give exactly what the
general paths give: the same class, dtype, shape, values (NaN, Inf and the sign of zero
included), an array of their own, and the same errors."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from mlang.builtins.data.rearrange import reshape
from mlang.errors import MatlabError
from mlang.values import concat, indexing
from mlang.values.core import char_row
from mlang.values.ranges import colon_range
from mlang.values.subscripts import COLON, owns_storage
from tests.running import run


def same(x: object, y: object) -> None:
    """x and y are the same MATLAB value: type, dtype, shape and every bit of every element."""
    assert type(x) is type(y), (x, y)
    if type(x) is np.ndarray:
        assert x.dtype == y.dtype and x.shape == y.shape, (x, y)
        assert x.flags.c_contiguous == y.flags.c_contiguous, (x, y)
        assert x.flags.f_contiguous == y.flags.f_contiguous, (x, y)
        if x.dtype.kind in "fc":
            numbers = ~np.isnan(x.real)
            assert np.array_equal(np.signbit(x.real)[numbers], np.signbit(y.real)[numbers])
            assert np.array_equal(x, y, equal_nan=True), (x, y)
        elif x.dtype == object:
            assert all(a is b or repr(a) == repr(b) for a, b in zip(x.flat, y.flat, strict=True)), (x, y)
        else:
            assert x.tobytes() == y.tobytes(), (x, y)
    elif type(x) is float:
        assert (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y))
    else:
        assert x == y, (x, y)


def outcome(fn, *args: object) -> object:
    """fn's value, or its MATLAB error identifier and message."""
    try:
        with np.errstate(all="ignore"):
            return fn(*args)
    except MatlabError as e:
        return ("error", e.identifier, str(e))


def same_outcome(x: object, y: object) -> None:
    if type(x) is tuple or type(y) is tuple:
        assert x == y
    else:
        same(x, y)


ROW = np.array([[0.0, -0.0, math.nan, math.inf, -math.inf, 1e308, -2.5, 7.0]])
ARRAYS = [
    ROW,
    ROW.T.copy(),
    np.array([[1.0, 2.0, 3.0]]),
    np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -0.0]]),
    np.asfortranarray(np.arange(12.0).reshape(3, 4)),
    np.arange(12.0).reshape(3, 4),  # C order: the general path
    np.array([[1.0 + 2j, 3.0, 4.0 - 1j]]),
    np.array([[1.0 + 0j, 3.0 + 1j], [2.0, 5.0]]),
    np.array([[True, False, True]]),
    np.array([[1, 2, 3, 4]], dtype=np.int8),
    np.array([[1], [2], [255]], dtype=np.uint8),
    np.array([[5, -7, 9]], dtype=np.int16),
    np.array([[1, 2, 3]], dtype=np.uint16),
    np.array([[1, -2, 3]], dtype=np.int32),
    np.array([[1, 2, 3]], dtype=np.uint32),
    np.array([[-(2 ** 63), 2, 2 ** 62]], dtype=np.int64),
    np.array([[2 ** 64 - 1, 2, 3]], dtype=np.uint64),
    np.array([[1.5, -0.0, np.nan]], dtype=np.float32),
    char_row("hello"),
    np.array([[7]], dtype=np.int8),
    np.zeros((1, 0)),
    np.zeros((0, 3)),
    np.zeros((0, 0)),
    np.arange(24.0).reshape(2, 3, 4, order="F"),
]
ENDS = [1.0, 2.0, 3.0, 4.0, 0.0, -1.0, -0.0, 2.5, 8.0, 9.0, 12.0, 13.0, math.nan, math.inf, -math.inf]
STEPS = [1.0, 2.0, -1.0, -2.0, 3.0, 0.0, 0.5, -0.5, math.nan]


def general_range(value: np.ndarray, a: object, s: object, b: object) -> object:
    return indexing.index(value, [colon_range(a, s, b)])


@pytest.mark.parametrize("value", ARRAYS, ids=lambda v: f"{v.dtype}{v.shape}")
def test_range_index_as_general(value: np.ndarray) -> None:
    for a, s, b in itertools.product(ENDS, STEPS, ENDS):
        fast = outcome(indexing.index_by_range, value, a, s, b)
        same_outcome(fast, outcome(general_range, value, a, s, b))
        if type(fast) is np.ndarray:
            assert owns_storage(fast) and not np.shares_memory(fast, value)


@pytest.mark.parametrize("value", ARRAYS, ids=lambda v: f"{v.dtype}{v.shape}")
def test_range_index_of_other_classes_of_ends(value: np.ndarray) -> None:
    for a, s, b in [(True, 1.0, 2.0), (1.0, 1.0, np.array([[2.0]])), (np.array([[1]], dtype=np.int8), 1.0, 2.0),
                    (1.0, 1.0, char_row("a")), (1.0 + 1j, 1.0, 2.0), (np.zeros((1, 0)), 1.0, 2.0)]:
        same_outcome(outcome(indexing.index_by_range, value, a, s, b), outcome(general_range, value, a, s, b))


@pytest.mark.parametrize("value", ARRAYS, ids=lambda v: f"{v.dtype}{v.shape}")
def test_colon_index_as_general(value: np.ndarray) -> None:
    fast = outcome(indexing.index_all, value)
    same_outcome(fast, outcome(indexing.index, value, [COLON]))
    if type(fast) is np.ndarray and fast.size:
        assert owns_storage(fast) and not np.shares_memory(fast, value)


SOURCES = ["[3 4 1]", "[3; 4; 1]", "[1 2; 3 4]", "'abc'", "int8([1 2 3])", "single([1 NaN -0])",
           "[true false true]", "[1+2i 3 4]", "zeros(1, 0)", "[]", "5", "int16(5)", "{1, 'a', 3}",
           "struct('a', {1, 2, 3})", "[\"a\" \"b\" \"c\"]", "reshape(1:8, 2, 2, 2)"]
INDICES = ["1:2", "2:end", "end:-1:1", "1:end-1", "a:b", "b:-1:a", "1:2:end", "0:1", "1:4", "2:1",
           "1.5:2", "-1:1", "1:NaN", "1:Inf", ":", "a:2*b", "(1):b", "end", "-a:b"]


def _y(code: str) -> object:
    """``y`` after running ``code``, or the error (identifier and message)."""
    try:
        interp, _ = run(code)
    except MatlabError as e:
        return ("error", e.identifier, str(e))
    return interp.get("y")


def _same_y(fast: object, slow: object, fast_code: str, slow_code: str) -> None:
    if type(fast) is tuple or type(slow) is tuple:
        assert fast == slow, fast_code
    elif type(fast) is np.ndarray or type(fast) in (float, bool, complex):
        same(fast, slow)
    else:  # cells, structs, strings: compared as shown
        shown = " disp(class(y)); disp(size(y)); disp(y)"
        assert run(fast_code + shown)[1] == run(slow_code + shown)[1], fast_code


@pytest.mark.parametrize("source", SOURCES)
def test_range_index_in_code_as_general(source: str) -> None:
    """``v(range)`` and ``v(:)`` compiled (fast) and with the range made first (general) agree."""
    for index in INDICES:
        fast = f"a = 1; b = 2; v = {source}; y = v({index});"
        if index == ":":
            slow = f"a = 1; b = 2; v = {source}; y = subsref(v, substruct('()', {{':'}}));"
        else:
            slow = f"a = 1; b = 2; v = {source}; r = {index.replace('end', 'numel(v)')}; y = v(r);"
        _same_y(_y(fast), _y(slow), fast, slow)


@pytest.mark.parametrize("code, expected", [
    ("y = numel(1:3);", 3.0),
    ("y = sum(2:4);", 9.0),
    ("y = sum(:);", 58.0),
    ("y = sum(2:end);", ("error", "MATLAB:badEnd")),
    ("c = {5, 6, 7}; y = c(2:3); y = y{2};", 7.0),
    ("f = @(x) x * 2; y = f(1:2); y = y(2);", 4.0),
    ("y = undefined_thing(1:2);", ("error", "MATLAB:UndefinedFunction")),
])
def test_range_index_of_what_is_not_an_array(code: str, expected: object) -> None:
    """Functions, handles and cells with a range argument take their usual paths."""
    got = _y(code)
    if type(expected) is tuple:
        assert type(got) is tuple and got[:len(expected)] == expected, got
    else:
        same(got, expected)


def test_range_index_with_end_in_ends() -> None:
    interp, _ = run("v = [1 2 3 4 5]; y = v(end-2:end); z = v(v(1):v(end)-2); w = v(end:-2:1);")
    same(interp.get("y"), np.array([[3.0, 4.0, 5.0]]))
    same(interp.get("z"), np.array([[1.0, 2.0, 3.0]]))
    same(interp.get("w"), np.array([[5.0, 3.0, 1.0]]))


# ------------------------------------------------------------ concatenation

def general_concatenate(rows: list[list]) -> object:
    """``concatenate`` by its general path: each row joined, then the rows."""
    joined = [concat.cat(r, 1) for r in rows]
    return joined[0] if len(joined) == 1 else concat.cat(joined, 0)


PIECES = [3.0, -0.0, math.nan, math.inf, np.array([[1.0, -0.0, math.nan]]), np.array([[4.0], [5.0]]),
          np.array([[1.0, 2.0], [3.0, 4.0]]), np.asfortranarray(np.array([[1.0, 2.0], [3.0, 4.0]])),
          np.array([[7.0, 8.0]]), np.zeros((1, 0)), np.zeros((0, 0)), np.zeros((2, 0)),
          np.array([[1.0, 2.0]], dtype=np.float32), np.array([[1, 2]], dtype=np.int8), True,
          np.array([[True, False]]), 1 + 2j, np.array([[1.0 + 1j, 2.0]]), char_row("ab"),
          np.arange(8.0).reshape(2, 2, 2)]


def _layouts() -> list[list[list]]:
    shapes = []
    for a, b in itertools.product(PIECES, repeat=2):
        shapes += [[[a, b]], [[a], [b]], [[a, b], [b, a]], [[a, b, a]], [[a], [b], [a]], [[a]], [[a], []]]
    return shapes


def test_concatenation_as_general() -> None:
    for rows in _layouts():
        fast = outcome(concat.concatenate, rows)
        same_outcome(fast, outcome(general_concatenate, rows))


def test_concatenation_makes_a_new_array() -> None:
    v = np.array([[1.0, 2.0, 3.0]])
    for rows in ([[v], [v]], [[v, 4.0]], [[v, v]]):
        out = concat.concatenate(rows)
        assert not np.shares_memory(out, v) and owns_storage(out)


@pytest.mark.parametrize("fast, slow", [
    ("y = [v; v];", "y = [[], v; v];"), ("y = [v, 4];", "y = [[], v, 4];"),
    ("y = vertcat(v, v, v);", "y = vertcat([], v, v, v);"), ("y = horzcat(v, 4, v);", "y = horzcat([], v, 4, v);"),
    ("y = [v; 1 2];", "y = [[], v; 1 2];"), ("y = [v', [1 2]];", "y = [[], v', [1 2]];"),
    ("y = vertcat(v, [1 2]);", "y = vertcat([], v, [1 2]);"), ("y = [1 2; 3 4; 5 6];", "y = [[], 1 2; 3 4; 5 6];"),
    ("y = [v; v, 1];", "y = [[], v; v, 1];"), ("y = [v', v'];", "y = [[], v', v'];"),
])
def test_concatenation_in_code_as_general(fast: str, slow: str) -> None:
    """The same values or errors as the general path (which an empty [] operand takes)."""
    fast, slow = "v = [1 -0 NaN];" + fast, "v = [1 -0 NaN];" + slow
    _same_y(_y(fast), _y(slow), fast, slow)


# ------------------------------------------------------------------ reshape

def _reshape(*args: object) -> object:
    return reshape(*args)


RESHAPED = [np.array([[1.0, -0.0, math.nan, math.inf]]), np.array([[1.0], [2.0], [3.0], [4.0]]),
            np.asfortranarray(np.arange(6.0).reshape(2, 3)), np.arange(6.0).reshape(2, 3),
            np.array([[1, 2, 3, 4]], dtype=np.uint8), np.array([[True, False, True, True]]),
            np.array([[1 + 1j, 2.0, 3.0, 4.0]]), char_row("abcd"), np.array([[5.0]]),
            np.array([[5]], dtype=np.int32), np.zeros((1, 0)), np.zeros((0, 0)),
            np.arange(8.0).reshape(2, 2, 2)]
SIZES = [0.0, -0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0, -1.0, -2.0, 2.5, math.nan, math.inf]


@pytest.mark.parametrize("value", RESHAPED, ids=lambda v: f"{v.dtype}{v.shape}")
def test_reshape_as_general(value: np.ndarray) -> None:
    """reshape(a, m, n) and reshape(a, [m n]) as with a trailing size 1 (the general path)."""
    for m, n in itertools.product(SIZES, repeat=2):
        fast = outcome(_reshape, value, m, n)
        slow = outcome(_reshape, value, m, n, 1.0)
        same_outcome(fast, slow)
        if type(fast) is np.ndarray:
            assert np.shares_memory(fast, value) == np.shares_memory(slow, value)
        same_outcome(outcome(_reshape, value, np.array([[m, n]])), outcome(_reshape, value, np.array([[m, n, 1.0]])))
    for args in ([], [2.0], [np.array([[2.0, 2.0]], dtype=np.float32)], [np.array([[2.0], [2.0]])],
                 [np.zeros((0, 0)), 2.0], [2.0, np.array([[2.0, 1.0]])], [np.array([[2.0]]), 2.0]):
        outcome(_reshape, value, *args)  # (the general path's values and errors)


# ------------------------------------------------------- short index vectors

INDEX_VALUES = [1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 0.0, -0.0, -1.0, 1.5, 9.0, 13.0, math.nan, math.inf, -math.inf]


def _index_vectors() -> list[np.ndarray]:
    vectors = [np.array([[k]]) for k in INDEX_VALUES]
    vectors += [np.array([[a, b]]) for a, b in itertools.product(INDEX_VALUES, repeat=2)]
    vectors += [np.array([[a], [b]]) for a, b in itertools.product(INDEX_VALUES[:6], repeat=2)]
    vectors += [np.array([[1.0, 2.0], [3.0, 1.0]]), np.array([[2.0, 2.0, 2.0]]), np.ones((1, 64)),
                np.ones((1, 65)), np.ones((2, 2, 2)), np.zeros((1, 0)), np.zeros((0, 0)), np.ones((3, 1))]
    return vectors


@pytest.mark.parametrize("value", ARRAYS + [np.array([[{"a": 1}], [{"a": 2}]], dtype=object)],
                         ids=lambda v: f"{v.dtype}{v.shape}")
def test_short_index_vector_as_general(value: np.ndarray) -> None:
    """x([i j ...]) as with the same indices as int32 (the general path)."""
    for k in _index_vectors():
        fast = outcome(indexing.index, value, [k])
        same_outcome(fast, outcome(indexing.index, value, [k.astype(np.int32)])
                     if np.isfinite(k).all() and (k == np.round(k)).all() else
                     outcome(indexing.index, value, [np.require(k, requirements="W").copy().reshape(k.shape)]))
        if type(fast) is np.ndarray and fast.size:
            assert owns_storage(fast) and not np.shares_memory(fast, value)


@pytest.mark.parametrize("source", SOURCES)
def test_short_index_vector_in_code_as_general(source: str) -> None:
    for index in ["[1 2]", "[2 1 2]", "[1; 2]", "[1 2; 2 1]", "[0 1]", "[1 1.5]", "[1 99]", "[NaN 1]"]:
        fast = f"v = {source}; y = v({index});"
        slow = f"v = {source}; y = v(int32({index}));" if "." not in index and "N" not in index else fast
        _same_y(_y(fast), _y(slow), fast, slow)


# ------------------------------------------------------------ x(i, j), x(end)

SUBSCRIPTS = [1.0, 2.0, 3.0, 4.0, 0.0, -0.0, -1.0, 1.5, math.nan, math.inf, 25.0]


@pytest.mark.parametrize("value", ARRAYS, ids=lambda v: f"{v.dtype}{v.shape}")
def test_two_subscripts_as_general(value: np.ndarray) -> None:
    """x(i, j) as with i given as a 1x1 array (the general path)."""
    for r, c in itertools.product(SUBSCRIPTS, repeat=2):
        same_outcome(outcome(indexing.index, value, [r, c]), outcome(indexing.index, value, [np.array([[r]]), c]))


@pytest.mark.parametrize("source", SOURCES)
def test_element_and_end_in_code_as_general(source: str) -> None:
    cases = [("y = v(end);", "y = v(numel(v));"), ("y = v(a, b);", "y = v(int32(a), b);"),
             ("y = v(b, a);", "y = v(int32(b), a);"), ("y = v(a, a);", "y = v([a], a);"),
             ("y = v(a + 1, 1);", "y = v([a + 1], 1);"), ("y = v(0, 1);", "y = v([0], 1);"),
             ("y = v(1.5, 1);", "y = v([1.5], 1);"), ("y = v(a, 9);", "y = v([a], 9);")]
    for fast, slow in cases:
        fast, slow = f"a = 1; b = 2; v = {source}; {fast}", f"a = 1; b = 2; v = {source}; {slow}"
        _same_y(_y(fast), _y(slow), fast, slow)


@pytest.mark.parametrize("code, expected", [
    ("y = max(3, 4);", 4.0), ("y = zeros(1, 2); y = numel(y);", 2.0), ("y = sum(end);", ("error", "MATLAB:badEnd")),
    ("f = @(x, y) x + y; y = f(1, 2);", 3.0), ("c = {5, 6; 7, 8}; y = c(2, 1); y = y{1};", 7.0),
    ("s = 'abc'; y = s(end); y = double(y);", 99.0),
])
def test_element_and_end_of_what_is_not_a_double_array(code: str, expected: object) -> None:
    got = _y(code)
    if type(expected) is tuple:
        assert type(got) is tuple and got[:len(expected)] == expected, got
    else:
        same(got, expected)
