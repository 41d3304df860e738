"""Set operations (mlang/builtins/math/sets.py): union, intersect, setdiff, setxor, and
the 'rows', 'stable' and 'last' forms of unique and ismember.  Values follow the
examples of MATLAB's documentation and agree with GNU Octave."""

import numpy as np

from mlang.values.cell import Cell
from mlang.values.core import char_rows, char_text
from mlang.values.string import StringArray


def rows(v) -> list:
    return np.asarray(v).tolist()


def texts(v) -> list:
    if type(v) is Cell:
        return [char_text(x) for x in v.data.reshape(-1, order="F")]
    assert type(v) is StringArray
    return list(v.data.reshape(-1, order="F"))


# ---------------------------------------------------------------------- union


def test_union_values_indices_and_orientation(m):
    c, ia, ib = m.values("[c, ia, ib] = union([5 7 1], [3 1 1]);", "c", "ia", "ib")
    assert rows(c) == [[1, 3, 5, 7]]
    assert rows(ia) == [[3], [1], [2]] and ib == 1.0
    c, ia, ib = m.values("[c, ia, ib] = union([5 7 1], [3 1 1], 'stable');", "c", "ia", "ib")
    assert rows(c) == [[5, 7, 1, 3]] and rows(ia) == [[1], [2], [3]] and ib == 1.0
    assert rows(m.value("x = union([5 7 1]', [3 1 1]);")) == [[1], [3], [5], [7]]
    assert rows(m.value("x = union([5 7 1], [3; 1]);")) == [[1], [3], [5], [7]]
    assert rows(m.value("x = union([], [3 1]);")) == [[1], [3]]  # [] is not a row
    assert rows(m.value("x = union([1 2; 3 4], 2);")) == [[1], [2], [3], [4]]
    n = np.asarray(m.value("x = union([NaN 1], [NaN 1]);"))
    assert n[0, 0] == 1 and np.isnan(n[0, 1:]).all() and n.shape == (1, 3)


def test_union_classes(m):
    x = m.value("x = union(int8([1 2]), [2.4 3]);")
    assert x.dtype == np.int8 and rows(x) == [[1, 2, 3]]
    assert char_text(m.value("x = union('cab', 'bd');")) == "abcd"
    assert m.value("x = union(single(1), 2);").dtype == np.float32
    assert m.fails("union(int8(1), single(2))").exc.identifier == "MATLAB:UNION:InvalidInputsDataType"


def test_union_rows(m):
    c, ia, ib = m.values("[c, ia, ib] = union([1 2; 3 4; 1 2], [1 2; 5 6], 'rows');",
                         "c", "ia", "ib")
    assert rows(c) == [[1, 2], [3, 4], [5, 6]] and rows(ia) == [[1], [2]] and ib == 2.0
    c = m.value("x = union([3 4; 1 2], [1 2; 0 0], 'rows', 'stable');")
    assert rows(c) == [[3, 4], [1, 2], [0, 0]]
    assert char_rows(m.value("x = union(['ab'; 'cd'], 'ab', 'rows');")) == ["ab", "cd"]
    assert char_rows(m.value("x = union('ab', 'a', 'rows');")) == ["a ", "ab"]  # padded
    assert m.fails("union([1 2], [1 2 3], 'rows')").exc.identifier == "MATLAB:UNION:AandBColnumAgree"


def test_union_texts(m):
    c, ia, ib = m.values("[c, ia, ib] = union({'a', 'b'}, {'c'; 'a'});", "c", "ia", "ib")
    assert texts(c) == ["a", "b", "c"] and c.shape == (3, 1)
    assert rows(ia) == [[1], [2]] and ib == 1.0
    c = m.value("x = union({'z', 'a'}, 'b');")
    assert texts(c) == ["a", "b", "z"] and c.shape == (1, 3)
    c = m.value("x = union(\"a\", {'b', 'a'});")
    assert type(c) is StringArray and texts(c) == ["a", "b"] and c.shape == (1, 2)
    c = m.value("x = union([\"b\" \"a\"], [\"c\" \"a\"], 'stable');")
    assert texts(c) == ["b", "a", "c"]
    assert texts(m.value("x = union({}, {'q'});")) == ["q"]
    assert texts(m.value("x = union([], {'q'});")) == ["q"]
    assert m.fails("union({'a'}, 5)").exc.identifier == "MATLAB:UNION:InputClass"
    assert m.fails("union(\"a\", 5)").exc.identifier == "MATLAB:string:MustBeCharCellArrayOrString"


def test_set_flags(m):
    assert rows(m.value("x = union([2 1], 3, 'stab');")) == [[2, 1, 3]]  # a leading part
    assert rows(m.value("x = union([2 1], 3, \"stable\");")) == [[2, 1, 3]]
    assert m.fails("union(1, 2, 'sorted', 'stable')").exc.identifier == "MATLAB:UNION:SetOrderConflict"
    assert m.fails("union(1, 2, 'bogus')").exc.identifier == "MATLAB:UNION:UnknownFlag"
    assert m.fails("union(1, 2, 'rows', 'rows')").exc.identifier == "MATLAB:UNION:RepeatedFlag"
    assert m.fails("union(1, 2, 3)").exc.identifier == "MATLAB:UNION:UnknownInput"
    assert m.fails("intersect(1, 2, 'bogus')").exc.identifier == "MATLAB:INTERSECT:UnknownFlag"
    assert m.fails("union(1)").exc.identifier == "MATLAB:minrhs"


# ------------------------------------------------------------------ intersect


def test_intersect(m):
    c, ia, ib = m.values("[c, ia, ib] = intersect([7 1 7 7 4], [7 0 4 4 0]);", "c", "ia", "ib")
    assert rows(c) == [[4, 7]] and rows(ia) == [[5], [1]] and rows(ib) == [[3], [1]]
    c, ia, ib = m.values("[c, ia, ib] = intersect([7 1 7 7 4], [7 0 4 4 0], 'stable');",
                         "c", "ia", "ib")
    assert rows(c) == [[7, 4]] and rows(ia) == [[1], [5]] and rows(ib) == [[1], [3]]
    assert rows(m.value("x = intersect([1 2 3], [3; 2]);")) == [[2], [3]]
    assert m.value("x = intersect([1 2], [3 4]);").shape == (1, 0)
    assert m.value("x = intersect([1; 2], [3 4]);").shape == (0, 1)
    assert m.value("x = intersect([NaN 1], [NaN 2]);").shape == (1, 0)  # NaN ~= NaN
    c, ia, ib = m.values("[c, ia, ib] = intersect([1 2; 3 4; 5 6], [5 6; 1 2], 'rows');",
                         "c", "ia", "ib")
    assert rows(c) == [[1, 2], [5, 6]] and rows(ia) == [[1], [3]] and rows(ib) == [[2], [1]]
    c, ia, ib = m.values("[c, ia, ib] = intersect({'a', 'b', 'c'}, {'c', 'x', 'a'});",
                         "c", "ia", "ib")
    assert texts(c) == ["a", "c"] and c.shape == (1, 2)
    assert rows(ia) == [[1], [3]] and rows(ib) == [[3], [1]]
    assert texts(m.value("x = intersect('abc', {'abc', 'x'});")) == ["abc"]
    x = m.value("x = intersect(uint8([1 2 3]), [3 2]);")
    assert x.dtype == np.uint8 and rows(x) == [[2, 3]]


# -------------------------------------------------------------------- setdiff


def test_setdiff(m):
    c, ia = m.values("[c, ia] = setdiff([3 6 2 1 5 1 1], [2 4 6]);", "c", "ia")
    assert rows(c) == [[1, 3, 5]] and rows(ia) == [[4], [1], [5]]
    c, ia = m.values("[c, ia] = setdiff([3 6 2 1 5 1 1], [2 4 6], 'stable');", "c", "ia")
    assert rows(c) == [[3, 1, 5]] and rows(ia) == [[1], [4], [5]]
    assert rows(m.value("x = setdiff([3 1 2], [1; 5]);")) == [[2, 3]]  # A's orientation
    assert rows(m.value("x = setdiff([3; 1; 2], [1 5]);")) == [[2], [3]]
    x = m.value("x = setdiff(int8([1 2 3]), 2);")
    assert x.dtype == np.int8 and rows(x) == [[1, 3]]
    assert m.value("x = setdiff(5, int16(7));") == 5.0
    assert rows(m.value("x = setdiff([1+2i 3 1-2i], 3);")) == [[1 - 2j, 1 + 2j]]
    c, ia = m.values("[c, ia] = setdiff([5 6; 1 2; 5 6], [1 2], 'rows');", "c", "ia")
    assert rows(c) == [[5, 6]] and ia == 1.0
    c = m.value("x = setdiff({'b', 'a', 'c'}, {'a'});")
    assert texts(c) == ["b", "c"] and c.shape == (1, 2)
    c = m.value("x = setdiff([\"b\"; \"a\"], \"b\");")
    assert texts(c) == ["a"]
    assert m.value("x = setdiff([1 2], [1 2]);").shape == (1, 0)
    assert char_rows(m.value("x = setdiff(['ab'; 'cd'], 'abc', 'rows');")) == ["ab ", "cd "]
    x = m.value("x = setdiff(int8([1 2; 3 4]), [1 2], 'rows');")
    assert x.dtype == np.int8 and rows(x) == [[3, 4]]
    assert m.fails("setdiff(int8(1), uint8(2))").exc.identifier == "MATLAB:SETDIFF:InvalidInputsDataType"
    assert m.fails("[a, b, c] = setdiff(1, 2)").exc.identifier == "MATLAB:TooManyOutputs"


# --------------------------------------------------------------------- setxor


def test_setxor(m):
    c, ia, ib = m.values("[c, ia, ib] = setxor([5 1 3 3 3], [4 1 2]);", "c", "ia", "ib")
    assert rows(c) == [[2, 3, 4, 5]] and rows(ia) == [[3], [1]] and rows(ib) == [[3], [1]]
    c, ia, ib = m.values("[c, ia, ib] = setxor([5 1 3 3 3], [4 1 2], 'stable');", "c", "ia", "ib")
    assert rows(c) == [[5, 3, 4, 2]] and rows(ia) == [[1], [3]] and rows(ib) == [[1], [3]]
    c, ia, ib = m.values("[c, ia, ib] = setxor([1 2; 3 4], [1 2; 7 8], 'rows');", "c", "ia", "ib")
    assert rows(c) == [[3, 4], [7, 8]] and ia == 2.0 and ib == 2.0
    assert rows(m.value("x = setxor([1 2], [2; 3]);")) == [[1], [3]]
    c = m.value("x = setxor({'a', 'b'}, {'b', 'c'});")
    assert texts(c) == ["a", "c"]
    ia = m.value("[c, x] = setxor([1 2], [1 2]);")
    assert ia.shape == (0, 1)


# --------------------------------------------------------------- unique, ismember


def test_unique_forms(m):
    c, ia, ic = m.values("[c, ia, ic] = unique([9 2 9 5], 'last');", "c", "ia", "ic")
    assert rows(c) == [[2, 5, 9]] and rows(ia) == [[2], [4], [3]] and rows(ic) == [[3], [1], [3], [2]]
    c, ia, ic = m.values("[c, ia, ic] = unique([9 2 9 5], 'stable');", "c", "ia", "ic")
    assert rows(c) == [[9, 2, 5]] and rows(ia) == [[1], [2], [4]] and rows(ic) == [[1], [2], [1], [3]]
    c, ia, ic = m.values("[c, ia, ic] = unique([1 2; 1 2; 0 5], 'rows', 'last');", "c", "ia", "ic")
    assert rows(c) == [[0, 5], [1, 2]] and rows(ia) == [[3], [2]] and rows(ic) == [[2], [2], [1]]
    c, ia, ic = m.values("[c, ia, ic] = unique({'b'; 'a'; 'b'}, 'stable');", "c", "ia", "ic")
    assert texts(c) == ["b", "a"] and rows(ia) == [[1], [2]] and rows(ic) == [[1], [2], [1]]
    assert char_rows(m.value("x = unique(['ab'; 'cd'; 'ab'], 'rows');")) == ["ab", "cd"]
    c = m.value('s = ["b" "x" "a" "y"]; s([2 4]) = string(NaN); x = unique(s);')
    assert texts(c) == ["a", "b", None, None]  # missing strings are distinct
    c = m.value("v = int64(2)^53; x = unique([v+1 v v+1]);")
    assert rows(c) == [[2**53, 2**53 + 1]]
    assert m.fails("unique([1 2], 'sorted', 'stable')").exc.identifier == "MATLAB:UNIQUE:SetOrderConflict"
    assert m.fails("unique([1 2], 'bad')").exc.identifier == "MATLAB:UNIQUE:UnknownInput"
    assert m.fails("unique({1, 2})").exc.identifier == "MATLAB:UNIQUE:InputClass"


def test_ismember_forms(m):
    tf, loc = m.values("[tf, loc] = ismember([1 NaN 3], [3 NaN 1 1]);", "tf", "loc")
    assert rows(tf) == [[True, False, True]] and rows(loc) == [[3, 0, 1]]
    tf, loc = m.values("[tf, loc] = ismember(['ab'; 'cd'; 'zz'], ['cd'; 'ab'], 'rows');", "tf", "loc")
    assert rows(tf) == [[True], [True], [False]] and rows(loc) == [[2], [1], [0]]
    tf, loc = m.values('m = string(NaN); [tf, loc] = ismember(["a" "b" m], ["b" m]);', "tf", "loc")
    assert rows(tf) == [[False, True, False]] and rows(loc) == [[0, 1, 0]]
    loc = m.value("v = int64(2)^53; [~, x] = ismember(v + 1, [v v+1]);")
    assert loc == 2.0
    tf = m.value("x = ismember({'a'; 'q'}, \"a\");")
    assert rows(tf) == [[True], [False]]
    assert m.fails("ismember([1 2], [1 2 3], 'rows')").exc.identifier == "MATLAB:ISMEMBER:AandBColnumAgree"


# ------------------------------------------------------------ uniquetol, ismembertol


def test_uniquetol(m):
    c = m.value("x = (1:6)'*pi; y = 10.^log10(x); c = uniquetol([x; y]);", "c")
    assert np.allclose(c, np.pi * np.arange(1, 7).reshape(-1, 1))
    assert m.value("x = numel(uniquetol([1 1+1e-13 2]));") == 2.0
    c, ia, ic = m.values("[c, ia, ic] = uniquetol([1 1.05 2 2.1 1.02], 0.03);", "c", "ia", "ic")
    assert np.allclose(c, [[1, 2, 2.1]]) and rows(ia) == [[1], [3], [4]]
    assert rows(ic) == [[1], [1], [2], [3], [1]]
    c = m.value("x = uniquetol([1 1.05 2 2.1 1.02], 0.03, 'highest');")
    assert np.allclose(c, [[1.05, 2, 2.1]])
    c = m.value("A = [0.05 0.11 0.18; 0.18 0.21 0.29; 0.34 0.36 0.41; 0.46 0.52 0.76];"
                "x = uniquetol([A; log10(10.^A)], 'ByRows', true);")
    assert np.asarray(c).shape == (4, 3)
    ia = m.value("[~, x] = uniquetol([1 1.001 3], 0.01, 'OutputAllIndices', true);")
    assert rows(ia.data[0, 0]) == [[1], [2]] and ia.data[1, 0] == 3.0
    assert np.allclose(m.value("x = uniquetol([1 1.5 3], 0.1, 'DataScale', 10);"), [[1, 3]])
    assert m.value("x = uniquetol(single([1 1+1e-7]));").shape == (1, 1)
    c = np.asarray(m.value("x = uniquetol([1 NaN 1 NaN]);"))  # every NaN is distinct
    assert c.shape == (1, 3) and c[0, 0] == 1 and np.isnan(c[0, 1:]).all()
    assert m.value("v = repelem(1:1000, 3) + repmat([0 1e-9 2e-9], 1, 1000);"
                   "x = numel(uniquetol(v, 1e-11));") == 1000.0
    assert m.value("x = uniquetol([]);").shape == (0, 1)
    assert m.fails("uniquetol(int8([1 2]))").exc.identifier == "MATLAB:uniquetol:unsupportedClass"
    assert m.fails("uniquetol([1 2], -1)").exc.identifier == "MATLAB:uniquetol:TolNonNegativeScalar"


def test_ismembertol(m):
    lia = m.value("x = (1:6)'*pi; y = 10.^log10(x); l = ismembertol(x, y);", "l")
    assert rows(lia) == [[True]] * 6
    assert m.value("x = ismember(pi, pi + 1e-13);") is False
    assert m.value("x = ismembertol(pi, pi + 1e-13);") is True  # default tol 1e-12
    lia, loc = m.values("[lia, loc] = ismembertol([1 2.0001 5], [2 1 2], 1e-3);", "lia", "loc")
    assert rows(lia) == [[True, True, False]] and rows(loc) == [[2, 1, 0]]  # lowest index
    lia, loc = m.values("[lia, loc] = ismembertol([1 2; 3 4], [3 4.00001; 9 9], 1e-4, 'ByRows', true);",
                        "lia", "loc")
    assert rows(lia) == [[False], [True]] and rows(loc) == [[0], [1]]
    assert m.value("x = ismembertol(1, 1.5, 0.1, 'DataScale', 10);") is True
    assert m.value("x = ismembertol(NaN, NaN);") is False
    assert m.value("x = sum(ismembertol((1:5000) + 0.5, 1:5000, 1e-6));") == 0.0
    assert m.value("x = ismembertol(1, 1.5, 0.1, 'DataScale', 1);") is False
    loc = m.value("[~, x] = ismembertol([1 7], [1 1.0000001 5], 1e-3, 'OutputAllIndices', true);")
    assert rows(loc.data[0, 0]) == [[1], [2]] and loc.data[0, 1] == 0.0
    assert m.fails("ismembertol([1 2], [1 2 3], 'ByRows', true)").exc.identifier == \
        "MATLAB:ismembertol:AandBColnumAgree"
    assert m.fails("ismembertol({1}, 1)").exc.identifier == "MATLAB:ismembertol:unsupportedClass"


def test_rows_flag_ignored_for_cells(m):
    c = m.value("x = union({'b'}, {'a'}, 'rows');")
    assert texts(c) == ["a", "b"]
    assert "'rows' input is not supported for cell array inputs" in m.err.getvalue() + m.out.getvalue()
    assert texts(m.value("x = unique({'b', 'a', 'b'}, 'rows');")) == ["a", "b"]
    assert m.value("x = ismember({'a'}, {'a'}, 'rows');") is True
