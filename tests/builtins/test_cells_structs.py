"""cell, cellfun, arrayfun, struct and the struct/cell conversion builtins."""

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values.cell import Cell
from mlang.values.core import CHAR, char_text, fix_shape
from mlang.values.struct import Struct


class Session:
    """One interpreter shared by a module's tests (building one costs a parser); each
    ``run`` starts from an empty workspace and empty output."""

    def __init__(self) -> None:
        self.out = io.StringIO()
        self.interp = Interpreter(stdout=self.out)

    def run(self, code: str, **inputs) -> tuple[dict, str]:
        self.interp.base.vars.clear()
        self.interp.base.vars.update(inputs)
        self.out.seek(0)
        self.out.truncate()
        self.interp.eval(code)
        return self.interp.base.vars, self.out.getvalue()

    def value(self, code: str, name: str = "x"):
        return self.run(code)[0][name]

    def fails(self, code: str) -> MatlabError:
        with pytest.raises(MatlabError) as info:
            self.run(code)
        return info.value


@pytest.fixture(scope="module")
def ml() -> Session:
    return Session()


# ------------------------------------------------------------------- cell


@pytest.mark.parametrize("code, shape", [
    ("x = cell(3);", (3, 3)),
    ("x = cell(2, 4);", (2, 4)),
    ("x = cell([2 5]);", (2, 5)),
    ("x = cell(2, 3, 4);", (2, 3, 4)),
    ("x = cell(2, 3, 1);", (2, 3)),
    ("x = cell(0, 3);", (0, 3)),
    ("x = cell(-2);", (0, 0)),
    ("x = cell();", (0, 0)),
])
def test_cell_sizes(ml, code, shape):
    x = ml.value(code)
    assert type(x) is Cell
    assert x.shape == shape
    assert all(v.shape == (0, 0) and v.dtype == np.float64 for v in x.values())


def test_cell_rejects_fractional_size(ml):
    assert ml.fails("x = cell(1.5);").identifier == "MATLAB:NonIntegerInput"


def test_iscell_isstruct(ml):
    _, out = ml.run("s.a = 1; c = {1}; fprintf('%d%d%d%d\\n', iscell(c), iscell(s), isstruct(s), isstruct(c));")
    assert out == "1010\n"


# ---------------------------------------------------------------- cellfun


def test_cellfun_uniform_numbers_and_logicals(ml):
    v, _ = ml.run("a = cellfun(@(v) v * 2, {1, 2; 3, 4}); b = cellfun(@isempty, {[], 'x', {}});")
    np.testing.assert_array_equal(v["a"], [[2, 4], [6, 8]])
    assert v["b"].dtype == bool
    np.testing.assert_array_equal(v["b"], [[True, False, True]])


def test_cellfun_char_outputs_make_char_array(ml):
    x = ml.value("x = cellfun(@(w) w(1), {'apple', 'kiwi', 'fig'});")
    assert x.dtype == CHAR and char_text(x) == "akf"


def test_cellfun_several_inputs_and_outputs(ml):
    v, _ = ml.run("[lo, hi] = cellfun(@(a, b) deal(a - b, a + b), {5, 7}, {1, 2});")
    np.testing.assert_array_equal(v["lo"], [[4, 5]])
    np.testing.assert_array_equal(v["hi"], [[6, 9]])


def test_cellfun_nonuniform_gives_cells_of_input_shape(ml):
    x = ml.value("x = cellfun(@(v) [v v], {1; 'a'}, 'UniformOutput', false);")
    assert type(x) is Cell and x.shape == (2, 1)
    np.testing.assert_array_equal(x.data[0, 0], [[1, 1]])
    assert char_text(x.data[1, 0]) == "aa"


def test_cellfun_option_names_are_prefixes_case_insensitive(ml):
    x = ml.value("x = cellfun(@(v) v, {1, [2 3]}, 'unif', 0);")
    assert type(x) is Cell and x.shape == (1, 2)


def test_cellfun_empty_input(ml):
    v, _ = ml.run("a = cellfun(@(v) v, cell(0, 3)); b = cellfun(@(v) v, {}, 'UniformOutput', false);")
    assert v["a"].shape == (0, 3) and v["a"].dtype == np.float64
    assert type(v["b"]) is Cell and v["b"].shape == (0, 0)


def test_cellfun_nonscalar_uniform_output_error(ml):
    exc = ml.fails("x = cellfun(@(v) [v v], {1, 2});")
    assert exc.identifier == "MATLAB:cellfun:NotAScalarOutput"
    assert exc.message == ("Non-scalar in Uniform output, at index 1, output 1.\n"
                           "Set 'UniformOutput' to false.")


def test_cellfun_mismatched_output_classes_error(ml):
    exc = ml.fails("x = cellfun(@(v) v, {1, 'a'});")
    assert exc.identifier == "MATLAB:cellfun:MismatchInOutputTypes"
    assert "at index 2, output 1 (char versus double)" in exc.message


def test_cellfun_size_mismatch_error(ml):
    exc = ml.fails("x = cellfun(@(a, b) a, {1, 2}, {1, 2, 3});")
    assert exc.message == ("All of the input arguments must be of the same size and shape.\n"
                           "Previous inputs had size 2 in dimension 2. Input #3 has size 3")


def test_cellfun_requires_cells(ml):
    exc = ml.fails("x = cellfun(@(a) a, [1 2]);")
    assert exc.message == "Input #2 expected to be a cell array, was double instead."


def test_cellfun_error_handler_gets_index_and_message(ml):
    v, _ = ml.run("f = @(v) v(3);\n"
                "x = cellfun(f, {[1 2 3], 1, [4 5 6]}, 'ErrorHandler', @(s, v) -s.index);\n"
                "y = cellfun(f, {1}, 'ErrorHandler', @(s, v) s, 'UniformOutput', false);")
    np.testing.assert_array_equal(v["x"], [[3, -2, 6]])
    info = v["y"].data[0, 0]
    assert type(info) is Struct and info.fields == ["message", "identifier", "index"]
    assert info.element(0)["index"] == 1.0
    assert char_text(info.element(0)["identifier"]) == "MATLAB:badsubscript"


def test_cellfun_errors_propagate_without_handler(ml):
    assert ml.fails("x = cellfun(@(v) v(3), {1});").identifier == "MATLAB:badsubscript"


@pytest.mark.parametrize("code, expected", [
    ("x = cellfun('length', {'ab', [1 2 3], [], ones(4, 2)});", [[2, 3, 0, 4]]),
    ("x = cellfun('prodofsize', {'ab', zeros(2, 3)});", [[2, 6]]),
    ("x = cellfun('ndims', {1, zeros(2, 2, 2)});", [[2, 3]]),
    ("x = cellfun('size', {[1 2 3], zeros(4, 5)}, 1);", [[1, 4]]),
    ("x = cellfun('isclass', {1, 'a', {}}, 'char');", [[False, True, False]]),
    ("x = cellfun('isempty', {1, '', {}});", [[False, True, True]]),
])
def test_cellfun_legacy_names(ml, code, expected):
    np.testing.assert_array_equal(ml.value(code), expected)


def test_cellfun_function_name_string(ml):
    np.testing.assert_array_equal(ml.value("x = cellfun('iscell', {1, {}});"), [[False, True]])


def test_cellfun_without_outputs_calls_for_effect(ml):
    _, out = ml.run("cellfun(@(v) fprintf('<%d>', v), {1, 2, 3}); fprintf('\\n');")
    assert out == "<1><2><3>\n"


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=4),
                  elements=st.floats(-1e6, 1e6)))
@settings(max_examples=30, deadline=None)
def test_cellfun_matches_elementwise_numpy(ml, a):
    c = Cell(np.vectorize(float, otypes=[object])(a) if a.size else np.empty(a.shape, dtype=object))
    x = ml.run("x = cellfun(@(v) v * 3 + 1, c);", c=c)[0]["x"]
    np.testing.assert_allclose(np.asarray(x).reshape(a.shape), a * 3 + 1)


# --------------------------------------------------------------- arrayfun


def test_arrayfun_over_numbers_keeps_shape_and_class(ml):
    v, _ = ml.run("a = arrayfun(@(v) v > 2, [1 2; 3 4]); b = arrayfun(@(v) v + 1, 'ab');")
    np.testing.assert_array_equal(v["a"], [[False, False], [True, True]])
    np.testing.assert_array_equal(v["b"], [[98, 99]])


def test_arrayfun_over_struct_array_and_cells(ml):
    v, _ = ml.run("s = struct('v', {3, 1, 4});\n"
                "a = arrayfun(@(e) e.v * 10, s);\n"
                "b = arrayfun(@(c) iscell(c), {1, 'x'});\n"
                "n = arrayfun(@(e) struct('w', e.v), s);")
    np.testing.assert_array_equal(v["a"], [[30, 10, 40]])
    np.testing.assert_array_equal(v["b"], [[True, True]])
    n = v["n"]
    assert type(n) is Struct and n.shape == (1, 3) and n.element(2)["w"] == 4.0


def test_arrayfun_nonuniform_and_multiple_outputs(ml):
    v, _ = ml.run("r = arrayfun(@(k) 1:k, 1:3, 'UniformOutput', false);\n"
                "[q, w] = arrayfun(@(v) deal(v, -v), [5 6]);")
    r = v["r"]
    assert [np.size(v) for v in r.values()] == [1, 2, 3]
    np.testing.assert_array_equal(v["w"], [[-5, -6]])


def test_arrayfun_nonscalar_error_names_arrayfun(ml):
    exc = ml.fails("x = arrayfun(@(k) 1:k, 1:3);")
    assert exc.identifier == "MATLAB:arrayfun:NotAScalarOutput"
    assert exc.message.startswith("Non-scalar in Uniform output, at index 2, output 1.")


def test_arrayfun_cell_output_not_supported_uniformly(ml):
    exc = ml.fails("x = arrayfun(@(k) {k}, 1:2);")
    assert exc.message == "cell output type is not supported. Set 'UniformOutput' to false."


# ----------------------------------------------------------------- struct


def test_struct_scalar_and_array_forms(ml):
    v, _ = ml.run("a = struct('x', 1, 'y', 'text');\n"
                "b = struct('v', {1, 2, 3}, 'name', 'shared');\n"
                "c = struct('c', {{1, 2}});\n"
                "d = struct(); e = struct([]); f = struct('a', {}); g = struct('a', cell(0, 2));")
    assert v["a"].shape == (1, 1) and v["a"].fields == ["x", "y"]
    assert v["b"].shape == (1, 3)
    assert [v["b"].element(k)["v"] for k in range(3)] == [1.0, 2.0, 3.0]
    assert all(char_text(v["b"].element(k)["name"]) == "shared" for k in range(3))
    assert type(v["c"].element(0)["c"]) is Cell and v["c"].element(0)["c"].shape == (1, 2)
    assert v["d"].shape == (1, 1) and v["d"].fields == []
    assert v["e"].shape == (0, 0) and v["e"].fields == []
    assert v["f"].shape == (0, 0) and v["f"].fields == ["a"]
    assert v["g"].shape == (0, 2)


def test_struct_cell_values_of_column_shape(ml):
    s = ml.value("x = struct('a', {1; 2});")
    assert s.shape == (2, 1)


@pytest.mark.parametrize("code, identifier", [
    ("x = struct('a', {1, 2}, 'b', {1, 2, 3});", "MATLAB:struct:DimensionMismatch"),
    ("x = struct('a');", "MATLAB:struct:FieldValuePairs"),
    ("x = struct('a', 1, 'a', 2);", "MATLAB:DuplicateFieldName"),
    ("x = struct('1a', 1);", "MATLAB:AddField:InvalidFieldName"),
])
def test_struct_errors(ml, code, identifier):
    assert ml.fails(code).identifier == identifier


def test_fieldnames_is_a_column_cell(ml):
    v, _ = ml.run("s.b = 1; s.a = 2; f = fieldnames(s); g = fieldnames(struct());")
    f = v["f"]
    assert f.shape == (2, 1) and [char_text(v) for v in f.values()] == ["b", "a"]
    assert v["g"].shape == (0, 1)
    assert ml.fails("f = fieldnames(5);").message == (
        "Invalid input argument of type 'double'. Input must be a structure or a Java or COM object.")


def test_isfield(ml):
    v, _ = ml.run("s.a = 1; s.b = 2;\n"
                "p = isfield(s, 'a'); q = isfield(s, 'z'); r = isfield(s, {'b', 'z'; 'a', 5});\n"
                "n = isfield(7, 'a');")
    assert v["p"] is True and v["q"] is False and v["n"] is False
    np.testing.assert_array_equal(v["r"], [[True, False], [True, False]])


def test_rmfield(ml):
    v, _ = ml.run("s = struct('a', 1, 'b', 2, 'c', 3); t = rmfield(s, 'b'); u = rmfield(s, {'a', 'c'});")
    assert v["t"].fields == ["a", "c"]
    assert v["u"].fields == ["b"]
    assert v["s"].fields == ["a", "b", "c"]  # the input is unchanged
    exc = ml.fails("s.a = 1; s = rmfield(s, 'zz');")
    assert exc.message == "A field named 'zz' doesn't exist."


def test_setfield_and_getfield_with_paths(ml):
    v, _ = ml.run("s = struct('b', 1);\n"
                "s = setfield(s, 'c', 3);\n"
                "s = setfield(s, 'v', {3}, 7);\n"
                "t = setfield(struct(), 'inner', 'deep', 5);\n"
                "a = getfield(s, 'c'); b = getfield(s, 'v', {3}); d = getfield(t, 'inner', 'deep');")
    assert v["s"].fields == ["b", "c", "v"]
    np.testing.assert_array_equal(v["s"].element(0)["v"], [[0, 0, 7]])
    assert (v["a"], v["b"], v["d"]) == (3.0, 7.0, 5.0)


def test_getfield_of_struct_array_element(ml):
    assert ml.value("s = struct('a', {4, 5, 6}); x = getfield(s, {2}, 'a');") == 5.0


def test_orderfields_forms_and_permutation(ml):
    v, _ = ml.run("s = struct('b', 1, 'a', 2, 'C', 3);\n"
                "[o, p] = orderfields(s);\n"
                "q = orderfields(s, {'a', 'C', 'b'});\n"
                "r = orderfields(s, struct('C', 0, 'b', 0, 'a', 0));\n"
                "t = orderfields(s, [2 3 1]);")
    assert v["o"].fields == ["C", "a", "b"]  # character codes: uppercase first
    np.testing.assert_array_equal(v["p"], [[3], [2], [1]])
    assert v["q"].fields == ["a", "C", "b"]
    assert v["r"].fields == ["C", "b", "a"]
    assert v["t"].fields == ["a", "C", "b"]
    assert v["o"].element(0)["a"] == 2.0 and v["s"].fields == ["b", "a", "C"]


def test_struct2cell_shapes(ml):
    v, _ = ml.run("a = struct2cell(struct('n', 1, 't', 'x'));\n"
                "b = struct2cell(struct('v', {1, 2, 3}, 'w', 0));")
    assert v["a"].shape == (2, 1)
    b = v["b"]
    assert b.shape == (2, 1, 3) and b.data[0, 0, 2] == 3.0 and b.data[1, 0, 1] == 0.0


def test_cell2struct_along_each_dimension(ml):
    v, _ = ml.run("q = cell2struct({7; 'seven'}, {'num', 'word'}, 1);\n"
                "r = cell2struct({1, 2; 3, 4}, {'a', 'b'}, 2);\n"
                "t = cell2struct({1, 2; 3, 4; 5, 6}, {'a'; 'b'; 'c'}, 1);")
    assert v["q"].shape == (1, 1) and v["q"].element(0)["num"] == 7.0
    assert v["r"].shape == (2, 1)
    assert [(v["r"].element(k)["a"], v["r"].element(k)["b"]) for k in range(2)] == [(1, 2), (3, 4)]
    assert v["t"].shape == (2, 1) and v["t"].element(1)["c"] == 6.0
    assert ml.fails("x = cell2struct({1, 2}, {'a'}, 2);").identifier == "MATLAB:cell2struct:ArgMismatch"


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=3),
                  elements=st.floats(-100, 100)))
@settings(max_examples=25, deadline=None)
def test_struct2cell_cell2struct_round_trip(ml, a):
    names = ", ".join(f"'f{i}'" for i in range(a.shape[0]))
    v, _ = ml.run(f"s = cell2struct(c, {{{names}}}, 1); back = struct2cell(s);",
                  c=Cell(np.vectorize(float, otypes=[object])(a)))
    back = v["back"]
    assert back.shape == fix_shape((a.shape[0], *v["s"].shape))
    np.testing.assert_array_equal(back.data.astype(float).reshape(a.shape), a)


# ------------------------------------------------------ num2cell, cell2mat


def test_num2cell_elements_and_slices(ml):
    v, _ = ml.run("a = num2cell([1 2; 3 4]); b = num2cell([1 2; 3 4], 1); c = num2cell([1 2; 3 4], 2);\n"
                "d = num2cell('hi'); e = num2cell({1, 'x'});")
    assert v["a"].shape == (2, 2) and v["a"].data[1, 0] == 3.0
    assert v["b"].shape == (1, 2)
    np.testing.assert_array_equal(v["b"].data[0, 1], [[2], [4]])
    assert v["c"].shape == (2, 1)
    np.testing.assert_array_equal(v["c"].data[1, 0], [[3, 4]])
    assert char_text(v["d"].data[0, 1]) == "i"
    assert type(v["e"].data[0, 0]) is Cell  # each element of a cell becomes a 1x1 cell


def test_cell2mat_joins_blocks(ml):
    v, _ = ml.run("a = cell2mat({[1 2; 3 4], [5; 6]; [7 8], 9}); b = cell2mat({'ab', 'cd'});\n"
                "c = cell2mat({}); d = cell2mat({[1;2], [3;4]});")
    np.testing.assert_array_equal(v["a"], [[1, 2, 5], [3, 4, 6], [7, 8, 9]])
    assert char_text(v["b"]) == "abcd"
    assert v["c"].shape == (0, 0)
    np.testing.assert_array_equal(v["d"], [[1, 3], [2, 4]])


@pytest.mark.parametrize("code, identifier", [
    ("x = cell2mat({1, 'a'});", "MATLAB:cell2mat:MixedDataTypes"),
    ("x = cell2mat({1, {2}});", "MATLAB:cell2mat:UnsupportedCellContent"),
    ("x = cell2mat([1 2]);", "MATLAB:cell2mat:NotACell"),
])
def test_cell2mat_errors(ml, code, identifier):
    assert ml.fails(code).identifier == identifier


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=5),
                  elements=st.floats(-1e3, 1e3)))
@settings(max_examples=30, deadline=None)
def test_num2cell_cell2mat_round_trip(ml, a):
    v, _ = ml.run("c = num2cell(a); b = cell2mat(c);", a=a)
    assert v["c"].shape == a.shape
    b = v["b"]
    if a.size == 0:
        assert np.size(b) == 0
    else:
        np.testing.assert_array_equal(np.asarray(b).reshape(a.shape), a)


# ------------------------------------------------------------------- deal


def test_deal_copies_or_distributes(ml):
    v, _ = ml.run("[a, b, c] = deal(7); [p, q] = deal(1, 'two');")
    assert (v["a"], v["b"], v["c"], v["p"]) == (7.0, 7.0, 7.0, 1.0)
    exc = ml.fails("[a, b] = deal(1, 2, 3);")
    assert exc.identifier == "MATLAB:deal:narginNargoutMismatch"
    assert exc.message == "The number of outputs should match the number of inputs."
