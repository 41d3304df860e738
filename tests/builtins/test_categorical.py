"""Categorical arrays: construction, categories, comparisons, indexing, assignment,
concatenation, conversions and the library functions' categorical forms."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.values.categorical import CategoricalArray
from mlang.values.cell import Cell
from mlang.values.core import char_rows
from mlang.values.string import StringArray


def names(v: CategoricalArray) -> list[str]:
    return v.element_texts()


def cellstr_items(c: Cell) -> list[str]:
    return ["".join(char_rows(x)) if x.size else "" for x in c.data.ravel(order="F")]


# ------------------------------------------------------------ construction


def test_from_cellstr_sorts_unique_categories(m):
    c = m.value("x = categorical({'dog','cat','dog','bird'});")
    assert type(c) is CategoricalArray
    assert c.names == ["bird", "cat", "dog"]
    assert c.codes.tolist() == [[3, 2, 3, 1]]
    assert not c.ordinal and not c.protected


def test_from_strings_trims_and_leaves_missing_undefined(m):
    c = m.value('x = categorical([" a" "b " "" missing "a"]);')
    assert c.names == ["a", "b"]
    assert names(c) == ["a", "b", "<undefined>", "<undefined>", "a"]


def test_from_char_matrix_one_element_a_row(m):
    c = m.value("x = categorical(['ab'; 'cd'; 'ab']);")
    assert c.shape == (3, 1)
    assert c.names == ["ab", "cd"]


def test_from_numbers_and_logical(m):
    n = m.value("x = categorical([3 1 2 NaN 1]);")
    assert n.names == ["1", "2", "3"]
    assert n.codes.tolist() == [[3, 1, 2, 0, 1]]
    f = m.value("x = categorical([0.5 pi 10]);")
    assert f.names == ["0.5", "3.1416", "10"]
    b = m.value("x = categorical([true false true]);")
    assert b.names == ["false", "true"]


def test_infinite_numbers_name_their_categories(m):
    # (their names had ended in an internal error: found by fuzzing, seed 2904)
    n = m.value("x = categorical([1 -Inf 2 Inf NaN]);")
    assert n.names == ["-Inf", "1", "2", "Inf"]
    assert names(n) == ["1", "-Inf", "2", "Inf", "<undefined>"]
    v = m.value("x = categorical([1 2 Inf], Inf);")
    assert v.names == ["Inf"]
    assert names(v) == ["<undefined>", "<undefined>", "Inf"]


def test_valueset_and_catnames(m):
    c = m.value("x = categorical({'b','z','a'}, {'b','a','c'});")
    assert c.names == ["b", "a", "c"]
    assert names(c) == ["b", "<undefined>", "a"]
    q = m.value("x = categorical([1 2 3 1], [1 2 3], {'lo','mid','hi'});")
    assert names(q) == ["lo", "mid", "hi", "lo"]
    merged = m.value("x = categorical([1 2 3], [1 2 3], {'lo','hi','hi'});")
    assert merged.names == ["lo", "hi"]
    assert merged.codes.tolist() == [[1, 2, 2]]


def test_ordinal_and_protected_flags(m):
    o = m.value("x = categorical({'s','l'}, {'s','m','l'}, 'Ordinal', true);")
    assert o.ordinal and o.protected
    p = m.value("x = categorical({'a'}, 'Protected', true);")
    assert p.protected and not p.ordinal
    assert m.value("x = [isordinal(categorical({'a'}, {'a'}, 'Ordinal', true)), "
                   "isordinal(categorical(1)), iscategorical(categorical(1)), "
                   "iscategorical('a')];").tolist() == [[True, False, True, False]]


def test_categorical_of_categorical_keeps_it(m):
    c = m.value("y = categorical({'b','a'}); x = categorical(y);")
    assert c.names == ["a", "b"]
    assert names(c) == ["b", "a"]
    r = m.value("y = categorical({'b','a'}); x = categorical(y, {'b','a'}, 'Ordinal', true);")
    assert r.names == ["b", "a"] and r.ordinal


def test_empty_categorical(m):
    c = m.value("x = categorical({});")
    assert c.shape == (0, 0) and c.names == []
    assert m.value("x = isempty(categorical());") is True


# ------------------------------------------------------------ categories


def test_categories_is_a_cellstr_column(m):
    c = m.value("x = categories(categorical({'b','a','b'}));")
    assert type(c) is Cell and c.shape == (2, 1)
    assert cellstr_items(c) == ["a", "b"]
    s = m.value("x = categories(categorical({'b','a'}), 'OutputType', 'string');")
    assert type(s) is StringArray and s.data.ravel().tolist() == ["a", "b"]
    e = m.value("x = categories(categorical({}));")
    assert e.shape == (0, 1)


def test_countcats(m):
    assert m.value("x = countcats(categorical({'a','b','a'}));").tolist() == [[2.0, 1.0]]
    assert m.value("x = countcats(categorical({'a';'b';'a'}));").tolist() == [[2.0], [1.0]]
    counts = m.value("x = countcats(categorical({'a','b';'a','a'}));")
    assert counts.tolist() == [[2.0, 1.0], [0.0, 1.0]]
    by_rows = m.value("x = countcats(categorical({'a','b';'a','a'}), 2);")
    assert by_rows.tolist() == [[1.0, 1.0], [2.0, 0.0]]
    # undefined elements are not counted
    assert m.value("x = countcats(categorical({'a','','a'}));") == 2.0


def test_isundefined_and_iscategory(m):
    assert m.value("x = isundefined(categorical({'a','','b'}));").tolist() == [[False, True, False]]
    assert m.value("x = iscategory(categorical({'a','b'}), {'a','q'});").tolist() == [[True, False]]
    assert m.value("x = ismissing(categorical({'a',''}));").tolist() == [[False, True]]


def test_addcats_removecats_renamecats(m):
    a = m.value("x = addcats(categorical({'a','c'}), {'x','y'}, 'After', 'a');")
    assert a.names == ["a", "x", "y", "c"]
    assert names(a) == ["a", "c"]
    r = m.value("x = removecats(categorical({'a','b','a'}), 'a');")
    assert r.names == ["b"]
    assert names(r) == ["<undefined>", "b", "<undefined>"]
    unused = m.value("x = removecats(addcats(categorical({'a'}), 'k'));")
    assert unused.names == ["a"]
    n = m.value("x = renamecats(categorical({'a','b'}), {'A','B'});")
    assert names(n) == ["A", "B"]
    o = m.value("x = renamecats(categorical({'a','b'}), 'b', 'beta');")
    assert o.names == ["a", "beta"]


def test_reordercats_mergecats_setcats(m):
    r = m.value("x = reordercats(categorical({'a','b','c'}), {'c','a','b'});")
    assert r.names == ["c", "a", "b"] and names(r) == ["a", "b", "c"]
    assert r.codes.tolist() == [[2, 3, 1]]
    k = m.value("x = reordercats(categorical({'a','b','c'}), [3 1 2]);")
    assert k.names == ["c", "a", "b"]
    alpha = m.value("x = reordercats(categorical({'b','a'}, {'b','a'}));")
    assert alpha.names == ["a", "b"]
    g = m.value("x = mergecats(categorical({'a','b','c'}), {'a','b'}, 'ab');")
    assert g.names == ["ab", "c"] and names(g) == ["ab", "ab", "c"]
    first = m.value("x = mergecats(categorical({'a','b','c'}), {'b','c'});")
    assert first.names == ["a", "b"] and names(first) == ["a", "b", "b"]
    s = m.value("x = setcats(categorical({'a','b','c'}), {'c','z'});")
    assert s.names == ["c", "z"] and names(s) == ["<undefined>", "<undefined>", "c"]


# ------------------------------------------------------------ comparisons


def test_equality_with_text_and_categoricals(m):
    assert m.value('y = categorical(["cat" "dog" "cat" ""]); x = y == "cat";').tolist() == \
        [[True, False, True, False]]
    assert m.value("y = categorical({'cat','dog',''}); x = y ~= 'cat';").tolist() == \
        [[False, True, True]]
    assert m.value("y = categorical({'a','b'}); x = y == {'a','a'};").tolist() == [[True, False]]
    # categoricals with different categories compare by name
    x = m.value("x = categorical({'a','b','c'}) == categorical({'a','c','c'}, {'c','a'});")
    assert x.tolist() == [[True, False, True]]
    # a name that is no category is simply not equal
    assert m.value("x = categorical({'a'}) == 'zzz';") is False


def test_ordinal_ordering(m):
    m.run("o = categorical({'s','m','l','s'}, {'s','m','l'}, 'Ordinal', true);")
    code = "o = categorical({'s','m','l','s'}, {'s','m','l'}, 'Ordinal', true); "
    assert m.value(code + "x = o > 'm';").tolist() == [[False, False, True, False]]
    assert m.value(code + "x = o(1) < o(2);") is True
    assert m.value(code + "x = o <= o(2);").tolist() == [[True, True, False, True]]
    assert names(m.value(code + "x = max(o);")) == ["l"]
    assert names(m.value(code + "x = min(o);")) == ["s"]


def test_relational_errors(m):
    e = m.fails("c = categorical({'a','b'}); c < c")
    assert e.identifier == "MATLAB:categorical:NotOrdinal"
    e = m.fails("c = categorical({'a','b'}); max(c)")
    assert e.identifier == "MATLAB:categorical:NotOrdinal"
    e = m.fails("o = categorical({'s'}, {'s','m'}, 'Ordinal', true); o < 'xl'")
    assert e.identifier == "MATLAB:categorical:InvalidComparisonCategory"
    e = m.fails("o = categorical({'s'}, {'s','m'}, 'Ordinal', true); "
                "p = categorical({'s'}, {'m','s'}, 'Ordinal', true); o < p")
    assert e.identifier == "MATLAB:categorical:OrdinalCategoriesMismatch"
    e = m.fails("o = categorical({'s'}, {'s','m'}, 'Ordinal', true); o == categorical({'s'})")
    assert e.identifier == "MATLAB:categorical:OrdinalMismatchComparison"
    e = m.fails("c = categorical({'a','b'}); median(c)")
    assert e.identifier == "MATLAB:categorical:median:NotOrdinal"
    e = m.fails("c = categorical({'a'}); c + 1")
    assert e.identifier == "MATLAB:UndefinedFunction"
    assert "'plus'" in e.message
    e = m.fails("c = categorical({'a'}); -c")
    assert e.identifier == "MATLAB:UndefinedFunction"
    e = m.fails("c = categorical({'a'}); c == 1")
    assert e.identifier == "MATLAB:categorical:InvalidComparisonTypes"


def test_isequal(m):
    assert m.value("x = isequal(categorical({'a','b'}), categorical({'a','b'}, {'b','a'}));") is True
    assert m.value("x = isequal(categorical({'a','b'}), categorical({'a','c'}));") is False
    assert m.value("x = isequal(categorical({'a','b'}), {'a','b'});") is True
    assert m.value("x = isequal(categorical({'a',''}), categorical({'a',''}));") is False
    assert m.value("x = isequal(categorical({'a'}), 1);") is False


# ------------------------------------------------------------ indexing and assignment


def test_indexing_keeps_categories(m):
    c = m.value("y = categorical({'a','b','c'}); x = y([3 1]);")
    assert names(c) == ["c", "a"] and c.names == ["a", "b", "c"]
    assert names(m.value("y = categorical({'a','b';'c','d'}); x = y(end, :);")) == ["c", "d"]
    assert names(m.value("y = categorical({'a','b','c'}); x = y(y ~= 'b');")) == ["a", "c"]


def test_assignment_adds_a_category(m):
    c = m.value("x = categorical({'a','b','a'}); x(2) = 'dog';")
    assert names(c) == ["a", "dog", "a"]
    assert c.names == ["a", "b", "dog"]
    s = m.value('x = categorical({\'a\'}); x(2) = "b";')
    assert names(s) == ["a", "b"]
    other = m.value("x = categorical({'a','b'}); x(1) = categorical({'q'});")
    assert names(other) == ["q", "b"] and other.names == ["a", "b", "q"]


def test_growth_deletion_and_undefined_assignment(m):
    g = m.value("x = categorical({'a'}); x(4) = 'b';")
    assert names(g) == ["a", "<undefined>", "<undefined>", "b"]
    d = m.value("x = categorical({'a','b','c'}); x(2) = [];")
    assert names(d) == ["a", "c"]
    u = m.value("x = categorical({'a','b'}); x(1) = '';")
    assert names(u) == ["<undefined>", "b"]
    e = m.value("x = categorical({'a'}); x(end+1) = 'z';")
    assert names(e) == ["a", "z"]


def test_assignment_into_nothing(m):
    k = m.value("k = []; k(2) = categorical({'p'});", "k")
    assert type(k) is CategoricalArray and names(k) == ["<undefined>", "p"]


def test_protected_assignment_errors(m):
    e = m.fails("p = categorical({'a'}, {'a','b'}, 'Protected', true); p(1) = 'z';")
    assert e.identifier == "MATLAB:categorical:ProtectedForAssign"
    assert "'z'" in e.message
    e = m.fails("o = categorical({'s'}, {'s','m'}, 'Ordinal', true); o(2) = 'xl';")
    assert e.identifier == "MATLAB:categorical:ProtectedForAssign"
    ok = m.value("x = categorical({'a'}, {'a','b'}, 'Protected', true); x(2) = 'b';")
    assert names(ok) == ["a", "b"]
    e = m.fails("o = categorical({'s'}, {'s','m'}, 'Ordinal', true); o(1) = categorical({'s'});")
    assert e.identifier == "MATLAB:categorical:OrdinalMismatchAssign"
    e = m.fails("c = categorical({'a'}); c(1) = 5;")
    assert e.identifier == "MATLAB:categorical:InvalidRHS"


def test_brace_indexing_and_truth_errors(m):
    assert m.fails("c = categorical({'a'}); c{1}").identifier == "MATLAB:cellRefFromNonCell"
    assert m.fails("c = categorical({'a'}); if c, end").identifier == "MATLAB:invalidConversion"


# ------------------------------------------------------------ concatenation


def test_concatenation_merges_categories(m):
    c = m.value("x = [categorical({'b','a'}), categorical({'c','a'})];")
    assert names(c) == ["b", "a", "c", "a"]
    assert c.names == ["a", "b", "c"]
    v = m.value("x = [categorical({'a'}); categorical({'z'})];")
    assert v.shape == (2, 1) and names(v) == ["a", "z"]
    t = m.value("x = [categorical({'a'}), 'zz', {'q'}, []];")
    assert names(t) == ["a", "zz", "q"]
    h = m.value("x = horzcat(categorical({'a'}), categorical({'b'}));")
    assert names(h) == ["a", "b"]
    three = m.value("x = cat(3, categorical({'a'}), categorical({'b'}));")
    assert three.shape == (1, 1, 2)


def test_concatenation_errors(m):
    e = m.fails("x = [categorical({'a'}), 1];")
    assert e.identifier == "MATLAB:categorical:cat:TypeMismatch"
    e = m.fails("p = categorical({'a'}, 'Protected', true); x = [p, categorical({'b'})];")
    assert e.identifier == "MATLAB:categorical:ProtectedForCombination"
    e = m.fails("o = categorical({'a'}, {'a'}, 'Ordinal', true); x = [o, categorical({'a'})];")
    assert e.identifier == "MATLAB:categorical:OrdinalMismatchConcatenate"
    e = m.fails("o = categorical({'a'}, {'a','b'}, 'Ordinal', true); "
                "p = categorical({'a'}, {'b','a'}, 'Ordinal', true); x = [o, p];")
    assert e.identifier == "MATLAB:categorical:OrdinalCategoriesMismatch"


# ------------------------------------------------------------ conversions and library forms


def test_numeric_conversions_give_codes(m):
    assert m.value("x = double(categorical({'b','a',''}));").tolist()[0][:2] == [2.0, 1.0]
    assert np.isnan(m.value("x = double(categorical({'b','a',''}));")[0, 2])
    i = m.value("x = int32(categorical({'b','a',''}));")
    assert i.dtype == np.int32 and i.tolist() == [[2, 1, 0]]
    s = m.value("x = single(categorical({'b'}));")
    assert s.dtype == np.float32
    e = m.fails("logical(categorical({'a'}))")
    assert e.identifier == "MATLAB:invalidConversion"


def test_text_conversions(m):
    s = m.value("x = string(categorical({'b',''}));")
    assert type(s) is StringArray and s.data.tolist() == [["b", None]]
    c = m.value("x = cellstr(categorical({'b',''}));")
    assert cellstr_items(c) == ["b", "<undefined>"]
    ch = m.value("x = char(categorical({'ab';'c'}));")
    assert char_rows(ch) == ["ab", "c "]


def test_shape_functions(m):
    m.run("c = categorical({'a','b';'c','a'});")
    assert m.value("c = categorical({'a','b';'c','a'}); x = size(c);").tolist() == [[2.0, 2.0]]
    assert m.value("c = categorical({'a','b','c'}); x = numel(c);") == 3.0
    r = m.value("c = categorical({'a','b';'c','a'}); x = reshape(c, 1, 4);")
    assert names(r) == ["a", "c", "b", "a"]
    t = m.value("c = categorical({'a','b';'c','a'}); x = c';")
    assert names(t) == ["a", "b", "c", "a"]
    rep = m.value("c = categorical({'a','b'}); x = repmat(c, 2, 1);")
    assert rep.shape == (2, 2) and rep.names == ["a", "b"]


def test_unique_sort_ismember(m):
    u, ia, ic = m.values("[u, ia, ic] = unique(categorical({'c','a','c','b'}));", "u", "ia", "ic")
    assert names(u) == ["a", "b", "c"]
    assert ia.ravel().tolist() == [2.0, 4.0, 1.0]
    assert ic.ravel().tolist() == [3.0, 1.0, 3.0, 2.0]
    s, k = m.values("[s, k] = sort(categorical({'c','a','b'}, {'c','b','a'}));", "s", "k")
    assert names(s) == ["c", "b", "a"]  # by the order of the categories
    assert k.tolist() == [[1.0, 3.0, 2.0]]
    tf, loc = m.values("[tf, loc] = ismember(categorical({'a','q','b'}), {'b','a'});", "tf", "loc")
    assert tf.tolist() == [[True, False, True]] and loc.tolist() == [[2.0, 0.0, 1.0]]
    assert m.value("x = ismember('b', categorical({'a','b'}));") is True
    e = m.fails("ismember(categorical({'a'}), 1)")
    assert e.identifier == "MATLAB:categorical:ismember:TypeMismatch"


def test_histcounts_and_mode(m):
    n, cats = m.values("[n, cats] = histcounts(categorical({'a','b','a'}));", "n", "cats")
    assert n.tolist() == [[2.0, 1.0]] and cellstr_items(cats) == ["a", "b"]
    assert names(m.value("x = mode(categorical({'b','a','b'}));")) == ["b"]


def test_table_with_categorical_variable(m):
    out = m.run("T = table(categorical({'m';'f';'m'}), [1;2;3], 'VariableNames', {'Sex','Age'});"
                " x = T.Sex == 'm'; y = T(2:3, :); disp(class(T.Sex))")
    assert out == "categorical\n"
    assert m.value("T = table(categorical({'m';'f';'m'}), [1;2;3], 'VariableNames', "
                   "{'Sex','Age'}); x = T.Sex == 'm';").tolist() == [[True], [False], [True]]
    shown = m.run("T = table(categorical({'m';'f';''}), 'VariableNames', {'Sex'})")
    assert "<undefined>" in shown and "f" in shown


# ------------------------------------------------------------ constructor errors


@pytest.mark.parametrize(("code", "identifier"), [
    ("categorical(struct())", "MATLAB:categorical:InvalidData"),
    ("categorical({'a'}, {'a','a'})", "MATLAB:categorical:DuplicatedValues"),
    ("categorical({'a'}, {'a','b'}, {'x'})", "MATLAB:categorical:WrongNumCategoryNames"),
    ("categorical({'a'}, 'Ordinal', true, 'Protected', false)", "MATLAB:categorical:UnprotectedOrdinal"),
    ("categorical({'a'}, {'<undefined>'})", "MATLAB:categorical:UndefinedLabel"),
    ("categorical([1 2], {'a'})", "MATLAB:categorical:ValuesetClassMismatch"),
    ("renamecats(categorical({'a','b'}), {'x'})", "MATLAB:categorical:renamecats:IncorrectNumNames"),
    ("addcats(categorical({'a'}), 'a')", "MATLAB:categorical:addcats:DuplicatedCatNames"),
    ("addcats(categorical({'a'}, {'a'}, 'Ordinal', true), 'b')", "MATLAB:categorical:addcats:NoBeforeOrAfter"),
    ("mergecats(categorical({'a','b'}), {'a','b'}, '<undefined>')", "MATLAB:categorical:mergecats:UndefinedLabel"),
    ("reordercats(categorical({'a','b'}), {'a'})", "MATLAB:categorical:reordercats:InvalidNeworder"),
    ("mergecats(categorical({'a','b'}), {'a','q'})", "MATLAB:categorical:mergecats:InvalidCategoryName"),
    ("categories(1)", "MATLAB:UndefinedFunction"),
    ("countcats({'a'})", "MATLAB:UndefinedFunction"),
    ("isordinal(1)", "MATLAB:UndefinedFunction"),
])
def test_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier


# ------------------------------------------------------------ display


def test_display_layout(m):
    assert m.run("C = categorical({'a','b','a'})") == (
        "\nC = \n\n  1\u00d73 categorical array\n\n     a      b      a \n\n")
    assert m.run("c = categorical({'a'})") == "\nc = \n\n  categorical\n\n     a \n\n"
    assert m.run("e = categorical({})") == "\ne = \n\n  0\u00d70 empty categorical array\n\n"
    assert m.run("disp(categorical({'xy';''}))") == "     xy          \n     <undefined> \n\n"


def test_display_columns_are_each_as_wide_as_their_widest(m):
    out = m.run("A = categorical({'medium' 'large'; 'small' 'xlarge'})")
    assert out.splitlines()[-3:-1] == ["     medium      large  ", "     small       xlarge "]


def test_summary(m):
    out = m.run("summary(categorical({'a';'bb';'a';''}))")
    assert out == ("     a                2 \n"
                   "     bb               1 \n"
                   "     <undefined>      1 \n")


def test_set_operations_follow_the_order_of_categories(m):
    u = m.value("x = union(categorical({'b','a'}, {'b','a'}), {'z','a'});")
    assert names(u) == ["b", "a", "z"]
    d = m.value("x = setdiff(categorical({'b','a','c'}), 'a');")
    assert names(d) == ["b", "c"]
    c, ia, ib = m.values("[c, ia, ib] = intersect(categorical({'b','a'}), categorical({'b','q'}));",
                         "c", "ia", "ib")
    assert names(c) == ["b"] and ia == 1.0 and ib == 1.0
    assert names(m.value("x = setxor(categorical({'a','b'}), 'b');")) == ["a"]
    e = m.fails("union(categorical({'a'}), 1)")
    assert e.identifier == "MATLAB:categorical:union:TypeMismatch"


def test_num2cell_gives_scalar_categoricals(m):
    c = m.value("x = num2cell(categorical({'b','a'}));")
    assert type(c) is Cell and c.shape == (1, 2)
    assert [names(v) for v in c.data.ravel()] == [["b"], ["a"]]


def test_ordinal_addcats_needs_a_place(m):
    o = m.value("x = addcats(categorical({'s'}, {'s','l'}, 'Ordinal', true), 'm', 'Before', 'l');")
    assert o.names == ["s", "m", "l"] and o.ordinal


def test_summary_of_a_row(m):
    assert m.run("summary(categorical({'a','bb','a'}))") == (
        "     a      bb \n"
        "     2      1  \n")


def test_protected_concatenation_with_text(m):
    e = m.fails("p = categorical({'a'}, 'Protected', true); x = [p, 'b'];")
    assert e.identifier == "MATLAB:categorical:ProtectedForCombination"
    ok = m.value("p = categorical({'a'}, 'Protected', true); x = [p, 'a'];")
    assert names(ok) == ["a", "a"] and ok.protected


def test_large_arrays_stay_vectorised(m):
    counts = m.value("y = categorical(repmat({'cat';'dog';'bird'}, 20000, 1)); x = countcats(y);")
    assert counts.ravel().tolist() == [20000.0, 20000.0, 20000.0]
    assert m.value("y = categorical(mod(0:59999, 7)); x = numel(categories(y));") == 7.0


@pytest.mark.parametrize("call", [
    "sum(C)", "mean(C)", "abs(C)", "find(C)", "any(C)", "isnan(C)", "C * 2", "C.Foo",
    "num2str(C)", "sprintf('%d', C)", "cumsum(C)", "diff(C)", "x = 1:3; x(C)", "max(C, C)",
    "sortrows(C)", "mat2str(C)", "[C, {1}]", "categorical({'a', 1})", "C(1) = {1}",
])
def test_unsupported_uses_give_matlab_errors(m, call):
    m.fails("C = categorical({'a','b'}); " + call)


def test_cat_with_a_categorical_checks_its_dimension_and_stacks_pages(m):
    assert m.fails("cat(NaN, 'rows', categorical({'a'}))").identifier == "MATLAB:catenate:invalidDimension"
    m.run("x = cat(3, categorical({'a'}), categorical({'b'})); y = horzcat(categorical({'a'}), categorical({'b'}));")
    assert m.interp.base.vars["x"].shape == (1, 1, 2)
    assert m.interp.base.vars["y"].shape == (1, 2)


def test_set_functions_with_a_categorical_only_among_the_options_are_left_to_the_builtin(m):
    err = m.fails("[a, b] = setdiff('rows', 'rows', seconds(5), categorical({'a','b','a'}))")
    assert err.identifier.startswith("MATLAB:")
