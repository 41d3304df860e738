"""cellfun and arrayfun call fn on each element in one loop for every kind of input: the
elements of double and logical arrays as Python scalars, others indexed one at a time; one
output collected apart from several. Each gives the values the element-by-element
definition gives (here written as an explicit loop), and errors in MATLAB's order."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.values.cell import Cell
from tests.running import run


def same(a: object, b: object) -> bool:
    if type(a) is Cell:
        return type(b) is Cell and a.shape == b.shape and all(
            same(x, y) for x, y in zip(a.data.flat, b.data.flat, strict=True))
    if type(a) is np.ndarray:
        return type(b) is np.ndarray and a.dtype == b.dtype and a.shape == b.shape \
            and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    if type(a) is float and a != a:
        return type(b) is float and b != b
    return type(a) is type(b) and a == b


INPUTS = ["[1 -0 -Inf 2.5]", "[true false true]", "int8([1 -2; 3 4])", "'abc'", "single([1 2])",
          "[1+2i 3]", "zeros(1, 0)", "zeros(0, 3)", "reshape(1:8, 2, 2, 2)", "{1, 'a', []}",
          "struct('a', {1, 2})", "[\"x\" \"yz\"]", "uint16(7)", "5", "true", "2i"]


@pytest.mark.parametrize("a", INPUTS)
@pytest.mark.parametrize("body", ["@(x) {x}", "@(x) class(x)", "@(x) [size(x) 0]", "@(x) x"])
def test_arrayfun_non_uniform_matches_a_loop(a, body):
    interp, _ = run(f"A = {a}; f = {body};\n"
                    "r = arrayfun(f, A, 'UniformOutput', false);\n"
                    "e = cell(size(A)); for k = 1:numel(A), e{k} = f(A(k)); end\n"
                    "classes = @(c) cellfun(@class, c, 'UniformOutput', false);\n"
                    "ok = isequal(r, e) && isequal(classes(r), classes(e));")
    assert interp.base.vars["ok"] is True


@pytest.mark.parametrize("a", ["[1 -0 -Inf 2.5]", "[true false true]", "int8([1 -2; 3 4])", "'abc'",
                               "zeros(0, 3)", "reshape(1:8, 2, 2, 2)", "single([1 2])"])
def test_arrayfun_uniform_with_two_inputs_matches_a_loop(a):
    interp, _ = run(f"A = {a}; B = reshape(1:numel(A), size(A));\n"
                    "r = arrayfun(@(x, y) x + y, A, B);\n"
                    "e = zeros(size(A)); for k = 1:numel(A), e(k) = A(k) + B(k); end\n"
                    "same = isequal(r, e) && strcmp(class(r), class(A(1:0) + B(1:0)));")
    assert interp.base.vars["same"] is True


def test_cellfun_with_several_inputs_and_outputs():
    interp, _ = run("[m, i] = cellfun(@max, {[1 5 2], [7 3], 4}, 'UniformOutput', false);\n"
                    "[a, b] = arrayfun(@(x, y) deal(x * y, x + y), [1 2 3], [4 5 6]);\n"
                    "c = cellfun(@(x, y) [x y], {1, 'a'}, {2, 'b'}, 'UniformOutput', false);")
    v = interp.base.vars
    assert same(v["m"], Cell(np.array([5.0, 7.0, 4.0], dtype=object).reshape(1, 3)))
    assert same(v["i"], Cell(np.array([2.0, 1.0, 1.0], dtype=object).reshape(1, 3)))
    assert same(v["a"], np.array([[4.0, 10.0, 18.0]]))
    assert same(v["b"], np.array([[5.0, 7.0, 9.0]]))
    assert same(v["c"].data[0, 0], np.array([[1.0, 2.0]]))


def test_error_handler_gets_the_index_and_the_element():
    interp, _ = run("h = @(s, x) {s.index, s.identifier, x};\n"
                    "r = arrayfun(@(x) error('my:id', 'no %d', x), [7 8], 'ErrorHandler', h, "
                    "'UniformOutput', false);")
    r = interp.base.vars["r"]
    assert r.data[0, 1].data[0, 0] == 2.0 and r.data[0, 1].data[0, 2] == 8.0


def test_errors_stop_at_the_first_failing_element():
    with pytest.raises(MatlabError) as info:
        run("r = arrayfun(@(x) [x x] + (1:x), [2 2 3], 'UniformOutput', false);")
    assert info.value.identifier == "MATLAB:sizeDimensionsMustMatch"
    with pytest.raises(MatlabError) as info:
        run("r = arrayfun(@(x) [x x], [1 2]);")
    assert info.value.identifier == "MATLAB:arrayfun:NotAScalarOutput"
    assert "at index 1" in info.value.message


def test_no_output_functions_are_called_for_their_effects():
    _, out = run("arrayfun(@(x) fprintf('%d;', x), [1 2 3]); cellfun(@disp, {4, 'z'});")
    assert "1;2;3;" in out and "4" in out and "z" in out


# anonymous functions scaling a row of ones or zeros, taken at once for double inputs
ROW_BODIES = ["@(k) k*ones(1, 2)", "@(k) ones(1, 3)*k", "@(k) (k - 1).*ones(1, 2)",
              "@(k) zeros(1, 2)*k", "@(k) -k*zeros(1, 4)", "@(k) (k > 0)*ones(1, 2)",
              "@(k) k*ones(2, 2)", "@(k) k*ones(1, 1)", "@(k) k*ones(1, 2, 'single')",
              "@(k) k*ones(1, 0)", "@(k) ones(1, 2)*2"]


@pytest.mark.parametrize("body", ROW_BODIES)
@pytest.mark.parametrize("a", ["[1 -2 0 -0 NaN Inf -Inf 0.5]", "[3; 4]", "zeros(1, 0)", "int8([1 2])",
                               "[true false]", "single([1 -2])", "[1+2i 3]"])
def test_scaled_rows_match_a_loop(body, a):
    interp, _ = run(f"A = {a}; f = {body};\n"
                    "r = arrayfun(f, A, 'UniformOutput', false);\n"
                    "c = cellfun(f, num2cell(A), 'UniformOutput', false);\n"
                    "e = cell(size(A)); for k = 1:numel(A), e{k} = f(A(k)); end")
    v = interp.base.vars
    for got in (v["r"], v["c"]):
        assert type(got) is Cell and got.shape == v["e"].shape
        for x, y in zip(got.data.flat, v["e"].data.flat, strict=True):
            assert same(x, y)
            if type(x) is np.ndarray and x.dtype.kind == "f":  # the signs of zeros agree
                assert np.array_equal(np.signbit(x), np.signbit(y))


def test_scaled_rows_are_not_uniform_outputs_and_bad_sizes_error():
    with pytest.raises(MatlabError) as info:
        run("r = arrayfun(@(k) k*ones(1, 2), [1 2]);")
    assert info.value.identifier == "MATLAB:arrayfun:NotAScalarOutput"
    with pytest.raises(MatlabError) as info:
        run("r = arrayfun(@(k) k*ones(1, 2.5), [1 2], 'UniformOutput', false);")
    assert info.value.identifier == "MATLAB:NonIntegerInput"


def test_a_captured_variable_named_ones_is_indexed():
    interp, _ = run("ones = [5 6 7]; r = arrayfun(@(k) k*ones(1, 2), [1 2], 'UniformOutput', false);")
    assert same(interp.base.vars["r"].data[0, 1], 12.0)


def test_a_local_function_named_ones_is_called(tmp_path):
    (tmp_path / "scaled_rows.m").write_text(
        "function r = scaled_rows()\n"
        "r = arrayfun(@(k) k*ones(1, 2), [1 2], 'UniformOutput', false);\n"
        "end\n"
        "function y = ones(a, b)\n"
        "y = [7 8];\n"
        "end\n")
    interp, _ = run(f"addpath('{tmp_path}'); r = scaled_rows();")
    assert same(interp.base.vars["r"].data[0, 1], np.array([[14.0, 16.0]]))
