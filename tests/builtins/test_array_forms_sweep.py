"""Documented forms of the array functions: sort and sortrows with 'ComparisonMethod'
and 'MissingPlacement' (and sortrows' per-column directions), max/min with
'ComparisonMethod' and nanflags on two arrays, nchoosek on cell arrays and with mixed
classes, factor and isprime for large inputs, and the forms already right (checked
against MATLAB's documented examples or GNU Octave)."""

import math

import numpy as np

from mlang.values.cell import Cell
from mlang.values.core import to_str


def nan_list(a) -> list:
    return ["NaN" if isinstance(v, float) and math.isnan(v) else v
            for v in np.asarray(a, dtype=float).ravel(order="F").tolist()]


# ---------------------------------------------------------------------------- sort


def test_sort_comparison_method(m):
    assert m.value("x = sort([-3 2 1], 'ComparisonMethod', 'abs');").tolist() == [[1, 2, -3]]
    x = m.value("x = sort([1+2i, -3, 2], 'ComparisonMethod', 'real');")
    assert x.tolist() == [[-3, 1 + 2j, 2]]
    x = m.value("x = sort([1+2i, -3, 2], 'ComparisonMethod', 'abs');")
    assert x.tolist() == [[2, 1 + 2j, -3]]
    # equal magnitudes: the phase angle decides (angle(-3) = pi > angle(3) = 0)
    assert m.value("x = sort([-3 3], 'ComparisonMethod', 'abs');").tolist() == [[3, -3]]
    x = m.value("x = sort([3 -3 1], 'descend', 'ComparisonMethod', 'abs');")
    assert x.tolist() == [[-3, 3, 1]]


def test_sort_missing_placement(m):
    x, i = m.values("[x, i] = sort([NaN 3 NaN 1], 'MissingPlacement', 'first');", "x", "i")
    assert nan_list(x) == ["NaN", "NaN", 1, 3] and i.tolist() == [[1, 3, 4, 2]]
    x, i = m.values("[x, i] = sort([NaN 3 NaN 1], 'descend', 'MissingPlacement', 'last');",
                    "x", "i")
    assert nan_list(x) == [3, 1, "NaN", "NaN"] and i.tolist() == [[2, 4, 1, 3]]
    x = m.value("x = sort([NaN 1; 2 NaN], 2, 'MissingPlacement', 'last');")
    assert nan_list(x) == [1, 2, "NaN", "NaN"]
    x = m.value('x = sort(["b" missing "a"], "MissingPlacement", "first");')
    assert list(x.data.ravel()) == [None, "a", "b"]


def test_sort_defaults_unchanged(m):
    assert nan_list(m.value("x = sort([NaN 1 3 2]);")) == [1, 2, 3, "NaN"]
    assert nan_list(m.value("x = sort([NaN 1 3 2], 'descend');")) == ["NaN", 3, 2, 1]
    x, i = m.values("[x, i] = sort([3 1; 1 2], 2, 'descend');", "x", "i")
    assert x.tolist() == [[3, 1], [2, 1]] and i.tolist() == [[1, 2], [2, 1]]


def test_sort_bad_options(m):
    err = m.fails("sort([1 2], 'ComparisonMethod', 'foo')")
    assert err.exc.identifier == "MATLAB:sort:InvalidComparisonMethod"
    err = m.fails("sort([1 2], 'MissingPlacement', 'middle')")
    assert err.exc.identifier == "MATLAB:sort:InvalidMissingPlacement"
    assert m.fails("sort([1 2], 'up')").exc.identifier == "MATLAB:sort:sortDirection"
    err = m.fails("sort([1 2], 'MissingPlacement')")
    assert err.exc.identifier == "MATLAB:InputParser:ParamMissingValue"


# ------------------------------------------------------------------------ sortrows


def test_sortrows_direction_per_column(m):
    x = m.value("x = sortrows([3 1; 1 2; 3 0], [1 2], {'ascend','descend'});")
    assert x.tolist() == [[1, 2], [3, 1], [3, 0]]
    x = m.value("x = sortrows([3 1; 1 2; 3 0], 2, 'descend');")
    assert x.tolist() == [[1, 2], [3, 1], [3, 0]]
    x, i = m.values("[x, i] = sortrows([3 1; 1 2; 3 0], -1);", "x", "i")
    assert x.tolist() == [[3, 1], [3, 0], [1, 2]] and i.ravel().tolist() == [1, 3, 2]
    err = m.fails("sortrows([3 1; 1 2], [1 2], {'ascend'; 'descend'; 'ascend'})")
    assert err.exc.identifier == "MATLAB:sortrows:directionMismatch"


def test_sortrows_options(m):
    x, i = m.values("[x, i] = sortrows([1 NaN; NaN 2; 0 1], 'MissingPlacement', 'first');",
                    "x", "i")
    assert nan_list(x) == ["NaN", 0, 1, 2, 1, "NaN"] and i.ravel().tolist() == [2, 3, 1]
    x = m.value("x = sortrows([1+1i; -2; 1], 'ComparisonMethod', 'real');")
    assert x.ravel().tolist() == [-2, 1, 1 + 1j]
    x, i = m.values("[x, i] = sortrows({'pear';'apple';'fig'}, 'descend');", "x", "i")
    assert type(x) is Cell and [to_str(v) for v in x.data.ravel()] == ["pear", "fig", "apple"]
    assert i.ravel().tolist() == [1, 3, 2]


def test_sortrows_cell_arrays_by_columns(m):
    # a column of numbers in a cell array sorts by value
    x = m.value("x = sortrows({'Q7' 0; 'Q12H' -3; 'Q12G' 0}, 2, 'descend');")
    assert [to_str(v) for v in x.data[:, 0]] == ["Q7", "Q12G", "Q12H"]
    assert [float(v) for v in x.data[:, 1]] == [0, 0, -3]
    x = m.value("x = sortrows({'B','2','X';'A','100','X';'B','10','X';'A','2','Y'});")
    assert [to_str(v) for v in x.data[:, 1]] == ["100", "2", "10", "2"]
    assert [to_str(v) for v in x.data[:, 0]] == ["A", "A", "B", "B"]


def test_sortrows_string_arrays(m):
    x, i = m.values('[x, i] = sortrows(["b";"a";"c"]);', "x", "i")
    assert list(x.data.ravel()) == ["a", "b", "c"] and i.ravel().tolist() == [2, 1, 3]
    x, i = m.values('[x, i] = sortrows(["b" "x";"a" "y"], 2, "descend");', "x", "i")
    assert x.data.tolist() == [["a", "y"], ["b", "x"]] and i.ravel().tolist() == [2, 1]


# ------------------------------------------------------------------------- max, min


def test_max_min_comparison_method(m):
    x, i = m.values("[x, i] = max([1 -5 3], [], 'ComparisonMethod', 'abs');", "x", "i")
    assert x == -5 and i == 2
    x, i = m.values("[x, i] = min([1 -5 3], [], 'ComparisonMethod', 'abs');", "x", "i")
    assert x == 1 and i == 1
    # equal magnitudes: the larger phase angle is the larger
    assert m.value("x = max([5 -5], [], 'ComparisonMethod', 'abs');") == -5
    x = m.value("x = max([1 -5 3], 4, 'ComparisonMethod', 'abs');")
    assert x.tolist() == [[4, -5, 4]]
    x, i = m.values("[x, i] = max([1+1i 1-1i 0.5], [], 'ComparisonMethod', 'real');", "x", "i")
    assert x == 1 + 1j and i == 1
    x, i = m.values("[x, i] = max(int8([-128 127]), [], 'ComparisonMethod', 'abs');", "x", "i")
    assert int(np.asarray(x).ravel()[0]) == -128 and i == 1
    err = m.fails("max([1 2], [], 'ComparisonMethod', 'size')")
    assert err.exc.identifier == "MATLAB:max:InvalidComparisonMethod"


def test_max_two_arrays_with_nanflag(m):
    assert nan_list(m.value("x = max([1 NaN 3], 2, 'includenan');")) == [2, "NaN", 3]
    assert nan_list(m.value("x = max([1 NaN 3], [2 2 NaN], 'includenan');")) == [2, "NaN",
                                                                                 "NaN"]
    assert nan_list(m.value("x = min([1 NaN 3], 2, 'omitnan');")) == [1, 2, 2]
    err = m.fails("[a, b] = max([1 2], [2 1], 'omitnan');")
    assert err.exc.identifier == "MATLAB:max:TwoInTwoOutCaseNotSupported"


def test_max_index_with_all_and_vecdim(m):
    x, i = m.values("[x, i] = max(magic(4), [], 'all');", "x", "i")
    assert x == 16 and i == 1
    x, i = m.values("[x, i] = min(reshape(1:24,2,3,4), [], [1 3]);", "x", "i")
    assert x.tolist() == [[1, 3, 5]] and i.tolist() == [[1, 1, 1]]
    x = m.value("x = max(reshape(1:24,2,3,4), [], [1 2]);")
    assert x.shape == (1, 1, 4) and x.ravel().tolist() == [6, 12, 18, 24]


def test_max_of_two_char_arrays(m):
    x = m.value("x = max('ab', 'ba');")
    assert x.dtype == np.float64 and x.tolist() == [[98, 98]]


def test_cummin_cummax_forms(m):
    assert m.value("x = cummax([1 3 2 5 4], 'reverse');").tolist() == [[5, 5, 5, 5, 4]]
    assert nan_list(m.value("x = cummin([3 NaN 1 2], 'includenan');")) == [3, "NaN", "NaN",
                                                                           "NaN"]
    assert nan_list(m.value("x = cummax([3 5 NaN 9 0 NaN]);")) == [3, 5, 5, 9, 9, 9]
    x = m.value("x = cummax([1 2; 3 0; 2 5], 1, 'reverse');")
    assert x.tolist() == [[3, 5], [3, 5], [2, 5]]


def test_cummax_cummin_complex_compare_magnitude(m):
    # complex elements compare by magnitude, then phase angle
    assert m.value("x = cummax([1 -3i 2]);").tolist() == [[1, -3j, -3j]]
    assert m.value("x = cummin([3 1+1i 2 -1]);").tolist() == [[3, 1 + 1j, 1 + 1j, -1]]
    x = m.value("x = cummin([3+0i 1; 2 5i], 2, 'reverse');")
    assert x.tolist() == [[1, 1], [2, 5j]]


# ------------------------------------------------------------------------ nchoosek


def test_nchoosek_cell_array(m):
    x = m.value("x = nchoosek({1,'a',3}, 2);")
    assert type(x) is Cell and x.shape == (3, 2)
    rows = [[x.data[r, c] for c in range(2)] for r in range(3)]
    assert rows[0][0] == 1.0 and to_str(rows[0][1]) == "a"
    assert rows[1][0] == 1.0 and rows[1][1] == 3.0
    assert to_str(rows[2][0]) == "a" and rows[2][1] == 3.0


def test_nchoosek_classes(m):
    # the documented example: uint16 combinations keep their class
    x = m.value("x = nchoosek(uint16([10 20 30]), uint16(2));")
    assert x.dtype == np.uint16 and x.tolist() == [[10, 20], [10, 30], [20, 30]]
    x = m.value("x = nchoosek(5, int16(2));")
    assert x.dtype == np.int16 and int(x.ravel()[0]) == 10
    assert m.fails("nchoosek(int8(5), int16(2))").exc.identifier == "MATLAB:mixedClasses"
    x = m.value("x = nchoosek(2:2:10, 4);")
    assert x.tolist() == [[2, 4, 6, 8], [2, 4, 6, 10], [2, 4, 8, 10], [2, 6, 8, 10],
                          [4, 6, 8, 10]]


def test_nchoosek_large_coefficient_warns(m):
    out = m.run("x = nchoosek(60, 30);")
    assert m.interp.base.vars["x"] == float(math.comb(60, 30))
    assert "Result may not be exact" in out + m.err.getvalue()
    out = m.run("x = nchoosek(single(30), 15);")
    assert "greater than 1.677722e+07 and is only accurate to 7 digits" in out + m.err.getvalue()
    x = m.value("x = nchoosek(uint64(67), 33);")
    assert int(x.ravel()[0]) == math.comb(67, 33)


# ------------------------------------------------------------- factor and isprime


def test_factor_beyond_two_to_the_32(m):
    assert m.value("x = factor(2^32+1);").tolist() == [[641, 6700417]]
    assert m.value("x = factor(2^52-1);").tolist() == [[3, 5, 53, 157, 1613, 2731, 8191]]
    assert m.value("x = factor(flintmax);").tolist() == [[2] * 53]
    assert m.value("x = factor(flintmax-1);").tolist() == [[6361, 69431, 20394401]]
    err = m.fails("factor(2*flintmax)")
    assert err.exc.identifier == "MATLAB:factor:InputOutOfRange"


def test_factor_uint64(m):
    x = m.value("x = factor(intmax('uint64'));")
    assert x.dtype == np.uint64
    assert x.ravel().tolist() == [3, 5, 17, 257, 641, 65537, 6700417]
    x = m.value("x = factor(intmax('uint64') - 58);")  # 2^64 - 59 is prime
    assert x.ravel().tolist() == [2**64 - 59]
    x = m.value("x = factor(uint64(4294967291) * uint64(4294967279));")
    assert x.ravel().tolist() == [4294967279, 4294967291]


def test_isprime_large_values(m):
    x = m.value("x = isprime([2^53-111, 2^53-113]);")
    assert x.tolist() == [[True, False]]
    assert m.value("x = isprime(intmax('uint64') - 58);") is True
    assert m.value("x = isprime(intmax('uint64'));") is False
    assert m.value("x = isprime(uint16([333 71 99]));").tolist() == [[False, True, False]]
    assert m.fails("isprime(-7)").exc.identifier == "MATLAB:isprime:InputNotPosInt"


# ------------------------------------------------------------- circshift, rot90, flip


def test_rearranging_forms(m):
    x = m.value("x = circshift(reshape(1:8,2,2,2), 1, 3);")
    assert x.ravel(order="F").tolist() == [5, 6, 7, 8, 1, 2, 3, 4]
    assert m.value("x = circshift(magic(3), [1 -1]);").tolist() == [[9, 2, 4], [1, 6, 8],
                                                                      [5, 7, 3]]
    assert m.value("x = circshift(1:5, 7);").tolist() == [[4, 5, 1, 2, 3]]
    assert m.value("x = rot90(magic(3), -1);").tolist() == [[4, 3, 8], [9, 5, 1], [2, 7, 6]]
    assert m.value("x = rot90([1 2; 3 4], 6);").tolist() == [[4, 3], [2, 1]]
    x = m.value("x = flip(reshape(1:8,2,2,2), 3);")
    assert x.ravel(order="F").tolist() == [5, 6, 7, 8, 1, 2, 3, 4]
