"""Indexing and assignment shapes: empty logical masks, index orientation,
growth of empty arrays with ':' subscripts, deletion, class of concatenations."""

from __future__ import annotations

import io

import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter


def run(code: str) -> Interpreter:
    it = Interpreter(stdout=io.StringIO())
    it.run_source(code)
    return it


def size_of(code: str, name: str = "r") -> tuple[int, ...]:
    it = run(code + f"\nsize_result = size({name});")
    return tuple(int(d) for d in it.get("size_result").reshape(-1))


def evaluated(code: str, name: str = "r") -> object:
    return run(code).get(name)


# ------------------------------------------------ a false mask selects nothing


@pytest.mark.parametrize("code, expected", [
    ("a = 1; r = a(false);", (0, 0)),
    ("s = struct('x', 1); r = s(false);", (0, 0)),
    ("c = {1}; r = c(false);", (0, 0)),
    ("q = \"ab\"; r = q(false);", (0, 0)),
    ("ch = 'a'; r = ch(false);", (0, 0)),
    ("a = true; r = a(false);", (0, 0)),
    ("rest = 5; pivot = 3; r = rest(rest < pivot);", (0, 0)),
    ("v = [1 2 3]; r = v(false(1, 3));", (1, 0)),
    ("m = ones(2); r = m(false);", (0, 0)),
    ("m = ones(2); r = m(true);", (1, 1)),
])
def test_false_mask_on_any_value_gives_an_empty_result(code, expected):
    assert size_of(code) == expected


def test_false_mask_keeps_the_class():
    it = run("s = struct('x', 1); t = s(false); c = class(t); n = isempty(t);")
    assert it.get("c") == "struct"
    assert it.get("n") is True


@pytest.mark.parametrize("code, expected", [
    ("a = 1; a(false) = 5; r = a;", 1.0),
    ("a = 1; a(false) = []; r = numel(a);", 1.0),
    ("c = {1}; c(false) = {2}; r = numel(c);", 1.0),
    ("s = struct('x', 1); s(false) = struct('x', 2); r = s.x;", 1.0),
])
def test_assignment_through_a_false_mask_changes_nothing(code, expected):
    assert evaluated(code) == expected


# ------------------------------------------------ result orientation of x(I)


@pytest.mark.parametrize("code, expected", [
    # a logical mask acts as find(mask): a row mask on a matrix gives a row
    ("a = [9 8; 7 6]; r = a(logical([0 1 1 0]));", (1, 2)),
    ("a = [9 8; 7 6]; r = a(logical([0; 1; 1; 0]));", (2, 1)),
    ("a = [9 8; 7 6]; r = a(logical([0 1; 1 0]));", (2, 1)),
    ("c = (1:3)'; r = c(logical([1 0 1]));", (2, 1)),
    ("v = 1:3; r = v(logical([1; 0; 1]));", (1, 2)),
    # a vector source indexed by a vector (in any dimension) keeps its orientation
    ("v = 1:6; r = v(reshape([1 3 5], 1, 1, 3));", (1, 3)),
    ("c = (1:6)'; r = c(reshape([1 3 5], 1, 1, 3));", (3, 1)),
    ("z = reshape(1:7, 1, 1, 7); r = z([2 3]);", (1, 1, 2)),
    # otherwise the result has the shape of the index
    ("v = 1:6; r = v([1 2; 3 4]);", (2, 2)),
    ("v = 1:6; r = v([]);", (0, 0)),
    ("v = 1:6; r = v(zeros(0, 1));", (1, 0)),
    ("m = ones(2); r = m(zeros(1, 0));", (1, 0)),
    ("s = 5; r = s([1 1 1]');", (3, 1)),
])
def test_linear_index_result_shape(code, expected):
    assert size_of(code) == expected


def test_row_mask_on_matrix_picks_column_major_elements():
    r = evaluated("a = [9 8; 7 6]; r = a(logical([0 1 1 0]));")
    assert r.tolist() == [[7.0, 8.0]]


def test_error_from_false_mask_is_catchable():
    it = run("a = 1; try, b = a(false); ok = 1; catch, ok = 0; end")
    assert it.get("ok") == 1.0
    with pytest.raises(MatlabError):
        run("a = 1; b = a(2);")


# ------------------------------------------------ growing an empty array with ':'


@pytest.mark.parametrize("code, expected", [
    ("clear a; a(1, :) = [1 3]; r = a;", [[1.0, 3.0]]),
    ("clear a; a(:, 1) = [1; 2]; r = a;", [[1.0], [2.0]]),
    ("clear a; a(2, :) = 5; r = a;", [[0.0], [5.0]]),
    ("a = []; a(:, 2) = [1; 2]; r = a;", [[0.0, 1.0], [0.0, 2.0]]),
    ("clear a; a(:, :) = [1 2; 3 4]; r = a;", [[1.0, 2.0], [3.0, 4.0]]),
    ("clear a; a(1, :) = [1; 2]; r = a;", [[1.0, 2.0]]),
    ("a = zeros(0, 3); a(:, 1) = [1; 2]; r = a;", [[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]),
])
def test_colon_over_an_empty_dimension_takes_the_right_side_size(code, expected):
    assert evaluated(code).tolist() == expected


@pytest.mark.parametrize("code, expected", [
    ("clear a; a(:, :, 2) = [1 2]; r = a;", (1, 2, 2)),
    ("c = {}; c(1, :) = {1, 2}; r = c;", (1, 2)),
    ("clear s; s(1, :) = struct('x', {1, 2}); r = s;", (1, 2)),
    ("clear q; q(1, :) = [\"a\" \"b\"]; r = q;", (1, 2)),
    ("x = ones(0, 3); x(2) = 2; r = x;", (1, 2)),
])
def test_colon_growth_sizes(code, expected):
    assert size_of(code) == expected


def test_linear_growth_of_an_ambiguous_empty_is_an_error():
    with pytest.raises(MatlabError, match="Attempt to grow array along ambiguous dimension."):
        run("x = ones(2, 0); x(1) = 2;")
    with pytest.raises(MatlabError, match="different numbers of elements"):
        run("clear a; a(:) = 1:3;")


# ------------------------------------------------ deletion


@pytest.mark.parametrize("code, expected", [
    ("x = ones(2, 2); x([]) = []; r = x;", (2, 2)),
    ("x = ones(2, 2); x(false(2)) = []; r = x;", (2, 2)),
    ("a = ones(3); a(:, 1:3) = []; r = a;", (3, 0)),
    ("a = ones(3); a(1:3, :) = []; r = a;", (0, 3)),
    ("a = ones(3); a(:, :) = []; r = a;", (0, 3)),
    ("a = ones(3); a(:) = []; r = a;", (0, 0)),
    ("a = 1:3; a([]) = []; r = a;", (1, 3)),
    ("x = ones(2, 2); x(1) = []; r = x;", (1, 3)),
])
def test_deletion_shapes(code, expected):
    assert size_of(code) == expected


# ------------------------------------------------ classes of results


@pytest.mark.parametrize("code, expected", [
    ("r = class([int8(65) 'a']);", "char"),
    ("r = class(['a' int16(66)]);", "char"),
    ("r = class(['' 65 66]);", "char"),
    ("r = class([single([]) 1]);", "single"),
    ("r = class([zeros(1, 0, 'int8') 2.7]);", "int8"),
    ("r = class([[] true]);", "logical"),
    ("r = class([true int8(1)]);", "int8"),
    ("r = class([Inf 0; 0 0] \\ single([1; 1]));", "single"),
    ("r = class(single([1 2; 3 4]) \\ [Inf; 1]);", "single"),
])
def test_result_class(code, expected):
    assert evaluated(code) == expected


def test_char_and_integer_concatenate_to_text():
    assert evaluated("r = ['' 65 66];") == "AB"
    assert evaluated("r = [int8(65) 'a'];") == "Aa"


# ------------------------------------------------ [s(i).f] = ... creates struct arrays


def test_field_of_a_selection_creates_a_struct_array():
    it = run("clear s; [s(1:2).x] = deal(1, 3); n = size(s); v = [s.x];")
    assert it.get("n").tolist() == [[1.0, 2.0]]
    assert it.get("v").tolist() == [[1.0, 3.0]]


def test_field_of_a_selection_keeps_other_elements_and_fields():
    it = run("t = struct('x', {1, 2, 3}, 'y', {4, 5, 6}); [t([1 3]).x] = deal(10, 30);"
             "[t(2:4).y] = deal(7, 8, 9); x = [t(1:3).x]; y = [t.y]; e = isempty(t(4).x);")
    assert it.get("x").tolist() == [[10.0, 2.0, 30.0]]
    assert it.get("y").tolist() == [[4.0, 7.0, 8.0, 9.0]]
    assert it.get("e") is True


# ------------------------------------------------ huge indices


@pytest.mark.parametrize("code", ["x = [1 2]; x([1 NaN]) = 3;", "x = [1 2]; y = x([1 Inf]);"])
def test_non_finite_indices_are_bad_subscripts(code):
    with pytest.raises(MatlabError, match="Array indices must be positive integers"):
        run(code)


def test_huge_index_when_reading_is_out_of_bounds():
    with pytest.raises(MatlabError, match="Index exceeds the number of array elements"):
        run("x = [1 2]; y = x([1 1e20]);")


def test_for_loop_over_a_range_counts_like_the_range():
    it = run("n = 0; for k = 0:0.1:1, n = n + 1; end; m = numel(0:0.1:1);")
    assert it.get("n") == it.get("m") == 11.0
