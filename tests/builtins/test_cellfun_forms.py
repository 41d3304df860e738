"""cellfun and arrayfun: 'ErrorHandler' with its error struct, UniformOutput with a handler,
and cellfun's legacy function names."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.values.core import char_text
from tests.running import run

CELLS = "C = {1, [], 'abc', true, {}, 1+2i, zeros(2,3,4), single(3), struct('a', {1, 2})};"


def values(code: str, *names: str) -> list:
    interp, _ = run(code)
    return [interp.base.vars[n] for n in names]


def error_of(code: str) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        run(code)
    return info.value


@pytest.mark.parametrize("name, expected", [
    ("isempty", [0, 1, 0, 0, 1, 0, 0, 0, 0]),
    ("islogical", [0, 0, 0, 1, 0, 0, 0, 0, 0]),
    ("isreal", [1, 1, 1, 1, 0, 0, 1, 1, 0]),
    ("length", [1, 0, 3, 1, 0, 1, 4, 1, 2]),
    ("ndims", [2, 2, 2, 2, 2, 2, 3, 2, 2]),
    ("prodofsize", [1, 0, 3, 1, 0, 1, 24, 1, 2]),
])
def test_legacy_names(name, expected):
    (x,) = values(CELLS + f"x = cellfun('{name}', C);", "x")
    assert x.ravel().tolist() == expected
    assert x.dtype == (np.bool_ if name.startswith("is") else np.float64)


def test_legacy_isreal_agrees_with_the_isreal_function_on_sparse_and_dlarray():
    cells = "C = {sparse([1 0 2]), sparse([1i 0]), dlarray(1), dlarray(1i), 'a', {1}};"
    x, y = values(cells + "x = cellfun('isreal', C); y = cellfun(@isreal, C);", "x", "y")
    assert x.ravel().tolist() == y.ravel().tolist() == [1, 0, 1, 0, 1, 0]


def test_legacy_size_and_isclass():
    x, y, z, w = values(CELLS + "x = cellfun('size', C, 2); y = cellfun('size', C, 3); "
                        "z = cellfun('isclass', C, 'double'); w = cellfun('isclass', C, \"single\");",
                        "x", "y", "z", "w")
    assert x.ravel().tolist() == [1, 0, 3, 1, 0, 1, 3, 1, 2]
    assert y.ravel().tolist() == [1, 1, 1, 1, 1, 1, 4, 1, 1]
    assert z.ravel().tolist() == [1, 1, 0, 0, 0, 1, 1, 0, 0]
    assert w.ravel().tolist() == [0, 0, 0, 0, 0, 0, 0, 1, 0]


def test_legacy_names_keep_shape_and_empty_classes():
    a, b, c = values("a = cellfun('isempty', {}); b = cellfun('length', cell(0, 3)); "
                     "c = cellfun('ndims', {1; [1 2]});", "a", "b", "c")
    assert a.shape == (0, 0) and a.dtype == np.bool_
    assert b.shape == (0, 3) and b.dtype == np.float64
    assert c.tolist() == [[2.0], [2.0]]


def test_legacy_name_with_options_calls_the_function():
    (x,) = values("x = cellfun('isempty', {1, []}, 'UniformOutput', false);", "x")
    assert [bool(v) for v in x.data.ravel()] == [False, True]


def test_error_struct_fields():
    (s,) = values("c = arrayfun(@(x) x(3), [1 2], 'ErrorHandler', @(s, x) s, "
                  "'UniformOutput', false); s = c{2};", "s")
    assert sorted(s.fields) == ["identifier", "index", "message"]
    e = s.element(0)
    assert char_text(e["identifier"]) == "MATLAB:badsubscript"
    assert char_text(e["message"]).startswith("Index exceeds the number of array elements")
    assert e["index"] == 2.0


def test_handler_gets_the_inputs_and_supplies_outputs():
    r, v, n, p, q = values(
        "r = cellfun(@(x) x(3), {[1 2 3], 5, [7 8 9]}, 'ErrorHandler', @(s, x) -x);"
        "v = cellfun(@(x, y) x(3), {[1 2 3], 1}, {1, 2}, 'ErrorHandler', @(s, x, y) 10*y + s.index);"
        "n = cellfun(@(x) x(3), {1, 2}, 'ErrorHandler', @(s, varargin) 1 + numel(varargin));"
        "[p, q] = cellfun(@(x) deal(x(2), x(1)), {[1 2], 1}, 'ErrorHandler', @(s, x) deal(0, -x));",
        "r", "v", "n", "p", "q")
    assert r.tolist() == [[3.0, -5.0, 9.0]]
    assert v.tolist() == [[3.0, 22.0]]
    assert n.tolist() == [[2.0, 2.0]]  # the struct and one input
    assert p.tolist() == [[2.0, 0.0]] and q.tolist() == [[1.0, -1.0]]


def test_arrayfun_handler_index_is_linear():
    (x,) = values("x = arrayfun(@(v) v(2), [1 2; 3 4], 'ErrorHandler', @(s, v) s.index);",
                  "x")
    assert x.tolist() == [[1.0, 3.0], [2.0, 4.0]]


def test_uniform_output_rules_apply_to_the_handler():
    e = error_of("cellfun(@(x) x(3), {1}, 'ErrorHandler', @(s, x) [1 2])")
    assert e.identifier == "MATLAB:cellfun:NotAScalarOutput"
    e = error_of("cellfun(@(x) x(3), {[1 2 3], 1}, 'ErrorHandler', @(s, x) 'a')")
    assert e.identifier == "MATLAB:cellfun:MismatchInOutputTypes"
    e = error_of("arrayfun(@(x) x(3), 1, 'ErrorHandler', @(s, x) {x})")
    assert e.identifier == "MATLAB:arrayfun:UnimplementedOutputArrayType"
    (c,) = values("c = cellfun(@(x) x(3), {[1 2 3], 1}, 'ErrorHandler', @(s, x) s.message, "
                  "'UniformOutput', false);", "c")
    assert c.data[0, 0] == 3.0 and char_text(c.data[0, 1]).startswith("Index exceeds")


def test_handler_errors_and_bad_handlers():
    e = error_of("cellfun(@(x) x(3), {1}, 'ErrorHandler', @(s, x) error('h:h', 'handler'))")
    assert e.identifier == "h:h"
    e = error_of("cellfun(@(x) x(3), {1}, 'ErrorHandler', 5)")
    assert e.identifier == "MATLAB:cellfun:NotAFunctionHandle"
    e = error_of("arrayfun(@(x) x(3), 1, 'ErrorHandler', 'h')")
    assert e.identifier == "MATLAB:arrayfun:NotAFunctionHandle"
    e = error_of("cellfun(@(x) x(3), {1})")
    assert e.identifier == "MATLAB:badsubscript"
    e = error_of("cellfun('size', {1})")
    assert e.identifier == "MATLAB:cellfun:NotEnoughInputs"
    e = error_of("cellfun('isempty', [1 2])")
    assert e.identifier == "MATLAB:cellfun:NotACell"


def test_option_names_abbreviate_in_any_order():
    (w,) = values("w = cellfun(@(x) x(3), {[1 2 3], 1}, 'Uniform', 0, 'Error', @(s, x) -1);",
                  "w")
    assert [w.data[0, 0], w.data[0, 1]] == [3.0, -1.0]


# ------------------------------------------------------------ getfield / setfield


def test_getfield_paths_with_indices():
    v1, v2, v3, g, k, o = values(
        "s(1).a.b = [10 20 30]; s(2).a.b = [1 2];"
        "v1 = getfield(s, {2}, 'a', 'b', {2}); v2 = getfield(s(1), 'a', 'b');"
        "v3 = getfield(s, {1}, 'a', 'b', {1, 2:3}); m.data = magic(4);"
        "g = getfield(m, 'data', {2, ':'}); k = getfield(struct('c', {{1, 'two'}}), 'c', {2});"
        "o = getfield(struct('p', struct('q', {10, 20})), 'p', {2}, \"q\");",
        "v1", "v2", "v3", "g", "k", "o")
    assert v1 == 2.0 and v2.tolist() == [[10.0, 20.0, 30.0]] and v3.tolist() == [[20.0, 30.0]]
    assert g.tolist() == [[5.0, 11.0, 10.0, 8.0]]
    assert char_text(k.data[0, 0]) == "two"  # () indexing of a cell keeps a cell
    assert o == 20.0


def test_setfield_paths_with_indices():
    interp, _ = run(
        "s = struct('a', {1, 2}, 'b', {'x', 'y'});"
        "t = setfield(s, {3}, 'a', 5); u = setfield(s, {2}, 'c', 'd', {1, 3}, 4);"
        "w = setfield(struct(), 'x', 'y', {2, 2}, 5); z = setfield([], 'p', 1);"
        "m.data = magic(3); m2 = setfield(m, 'data', {1, ':'}, [0 0 0]);"
        "n = setfield(struct('a', {{1, 2}}), 'a', {2}, {'z'});")
    v = interp.base.vars
    t = v["t"]
    assert t.shape == (1, 3) and t.element(2)["a"] == 5.0 and t.element(2)["b"].size == 0
    u = v["u"]
    assert u.fields == ["a", "b", "c"]
    assert u.element(1)["c"].element(0)["d"].tolist() == [[0.0, 0.0, 4.0]]
    assert u.element(0)["c"].size == 0
    assert v["w"].element(0)["x"].element(0)["y"].tolist() == [[0.0, 0.0], [0.0, 5.0]]
    assert v["z"].element(0)["p"] == 1.0
    assert v["m2"].element(0)["data"][0].tolist() == [0.0, 0.0, 0.0]
    assert char_text(v["n"].element(0)["a"].data[0, 1]) == "z"


@pytest.mark.parametrize("code, ident", [
    ("getfield(struct('a', 1), 'zz')", "MATLAB:nonExistentField"),
    ("getfield(struct('a', 1), 5)", "MATLAB:getfield:InvalidType"),
    ("getfield(5, 'a')", "MATLAB:structRefFromNonStruct"),
    ("getfield(struct('a', 1), {1}, 'a', {5})", "MATLAB:badsubscript"),
    ("setfield(5, 'a', 1)", "MATLAB:structAssToNonStruct"),
    ("setfield(struct('a', 1), '1bad', 2)", "MATLAB:AddField:InvalidFieldName"),
    ("setfield(struct('a', 1), 'a')", "MATLAB:minrhs"),
])
def test_getfield_setfield_errors(code, ident):
    assert error_of(code).identifier == ident
