"""cellfun and arrayfun take shorter paths for common calls (a builtin handle looked up once,
a builtin without side effects applied to each cell directly, double and logical outputs
joined at once): each gives the values, classes and errors of the general path, which an
anonymous wrapper such as @(x) numel(x) still takes."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.builtins.data.cells import LEGACY_CELLFUN
from mlang.errors import MatlabError
from mlang.values.cell import Cell
from tests.running import run

# every class a cell can hold, empty and non-scalar ones among them
CELLS = ("C = {1, [], 'abc', '', true, false(2, 0), {}, {1, 2}, 1+2i, NaN, zeros(2,3,4), "
         "single(3), int8([1 2 3]), uint16(7), struct('a', {1, 2}), struct(), \"str\", "
         "[\"a\" \"b\"], @sin, containers.Map(), dlarray([1 2])};")

PURE = ["numel", "length", "ndims", "isempty", "isscalar", "isvector", "isrow", "iscolumn",
        "ismatrix", "islogical", "isnumeric", "ischar", "iscell", "isstruct", "isfloat",
        "isinteger", "isreal", "iscellstr", "isstring"]


def values(code: str, *names: str) -> list:
    interp, _ = run(code)
    return [interp.base.vars[n] for n in names]


def error_of(code: str) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        run(code)
    return info.value


def same(a: object, b: object) -> bool:
    if type(a) is Cell:
        return type(b) is Cell and a.shape == b.shape and all(
            same(x, y) for x, y in zip(a.data.flat, b.data.flat, strict=True))
    if type(a) is np.ndarray:
        return type(b) is np.ndarray and a.dtype == b.dtype and a.shape == b.shape \
            and np.array_equal(a, b)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("name", PURE)
@pytest.mark.parametrize("contents", [
    CELLS,
    "C = {1, 2, NaN, -Inf, 1+2i};",
    "C = {int32(1), uint8([1 2]), single([]), true, 'x'};",
    "C = cell(0, 3);",
    "C = cell(2, 0, 3);",
    "C = num2cell(reshape(1:24, 2, 3, 4));",
])
def test_pure_builtins_match_the_general_path(name, contents):
    fast, by_name, general, fast_cells, general_cells = values(
        contents + f"a = cellfun(@{name}, C); b = cellfun('{name}', C); "
        f"c = cellfun(@(x) {name}(x), C); d = cellfun(@{name}, C, 'UniformOutput', false); "
        f"e = cellfun(@(x) {name}(x), C, 'UniformOutput', false);",
        "a", "b", "c", "d", "e")
    assert same(fast, general)
    if name not in LEGACY_CELLFUN:  # the legacy names keep their own rules
        assert same(by_name, general)
    assert same(fast_cells, general_cells)


def test_a_user_function_of_a_builtin_name_is_called(tmp_path):
    (tmp_path / "numel.m").write_text("function n = numel(x)\n  n = 42;\nend\n")
    (x,) = values(f"addpath('{tmp_path}'); x = cellfun(@numel, {{1, 2}}); rmpath('{tmp_path}');", "x")
    assert x.tolist() == [[42.0, 42.0]]


@pytest.mark.parametrize("code, identifier", [
    ("cellfun(@isempty, {1, 2}, {3, 4})", "MATLAB:TooManyInputs"),
    ("[a, b] = cellfun(@numel, {1, 2})", "MATLAB:TooManyOutputs"),
    ("cellfun(@numel, {1, 2}, {3})", "MATLAB:cellfun:ArgumentMismatch"),
    ("cellfun(@nosuchfunctionanywhere, {1, 2})", "MATLAB:UndefinedFunction"),
    ("cellfun('nosuchfunctionanywhere', {1, 2})", "MATLAB:UndefinedFunction"),
    ("cellfun(@(x) x, {1, 'a'})", "MATLAB:cellfun:MismatchInOutputTypes"),
    ("cellfun(@(x) x, {1, true})", "MATLAB:cellfun:MismatchInOutputTypes"),
    ("cellfun(@(x) x, {true, 1})", "MATLAB:cellfun:MismatchInOutputTypes"),
    ("cellfun(@(x) x, {1, [1 2]})", "MATLAB:cellfun:NotAScalarOutput"),
    ("cellfun(@(x) x, {1, {}})", "MATLAB:cellfun:UnimplementedOutputArrayType"),
    ("arrayfun(@(x) [x x], 1:3)", "MATLAB:arrayfun:NotAScalarOutput"),
    ("arrayfun(@(x) x > 1, [1 2], 'UniformOutput', true) + cellfun(@(x) x, {1, 1i, true})",
     "MATLAB:cellfun:MismatchInOutputTypes"),
])
def test_errors_are_unchanged(code, identifier):
    assert error_of(code).identifier == identifier


def test_error_handler_with_a_builtin_handle():
    (x,) = values("x = cellfun(@(x) error('a:b', 'no'), {1, 2}, 'ErrorHandler', @(s, v) s.index);",
                  "x")
    assert x.tolist() == [[1.0, 2.0]]
    (y,) = values("y = cellfun(@str2func, {'sin', 3}, 'ErrorHandler', @(s, v) 0, "
                  "'UniformOutput', false);", "y")
    assert y.data[0, 1] == 0.0


@pytest.mark.parametrize("body", ["x*2", "x > 1", "x + 1i", "single(x)", "int8(x)", "{x}", "[x x]",
                                  "char(x + 64)", "struct('v', x)", "string(x)"])
def test_collected_outputs_keep_their_classes(body):
    uniform = body not in ("{x}", "[x x]")
    code = f"c = num2cell([1 2; 3 -4]); b = cellfun(@(x) {body}, c, 'UniformOutput', false); " \
           f"d = arrayfun(@(x) {body}, [1 2; 3 -4], 'UniformOutput', false); ok = isequal(b, d);"
    if uniform:
        code += f" a = cellfun(@(x) {body}, c); ok = ok && isequal(a, [b{{1}} b{{3}}; b{{2}} b{{4}}]) " \
                f"&& strcmp(class(a), class(b{{1}}));"
    (ok,) = values(code, "ok")
    assert ok is True


def test_outputs_in_cells_are_held_as_they_are():
    (b,) = values("b = cellfun(@(x) x, {[1 2], {3}, 'ab'; [], 1, true}, 'UniformOutput', false);", "b")
    assert b.shape == (2, 3)
    assert b.data[0, 0].tolist() == [[1.0, 2.0]]
    assert type(b.data[0, 1]) is Cell
    assert b.data[1, 2] is True


def test_several_outputs_and_no_outputs():
    a, b = values("[a, b] = cellfun(@size, {zeros(2, 3), 1});", "a", "b")
    assert a.tolist() == [[2.0, 1.0]] and b.tolist() == [[3.0, 1.0]]
    interp, out = run("cellfun(@disp, {1, 'x'});")
    assert out.split() == ["1", "x"]


def same_nan(a: object, b: object) -> bool:
    """same(), with NaN equal to NaN and -0 told from 0."""
    if type(a) is Cell:
        return type(b) is Cell and a.shape == b.shape and all(
            same_nan(x, y) for x, y in zip(a.data.flat, b.data.flat, strict=True))
    if type(a) is not type(b):
        return False
    x, y = np.asarray(a), np.asarray(b)
    if x.dtype != y.dtype or x.shape != y.shape:
        return False
    if x.dtype.kind == "c":
        return same_nan(x.real.copy(), y.real.copy()) and same_nan(x.imag.copy(), y.imag.copy())
    if x.dtype.kind == "f":
        return bool(np.all((x == y) & (np.signbit(x) == np.signbit(y)) | (np.isnan(x) & np.isnan(y))))
    return bool(np.array_equal(x, y))


ARITHMETIC_BODIES = ["x*2", "2*x", "x/4", "-x + 1", "x./0", "x/0", "0/x", "x - 3 > 0", "x >= -0",
                     "(x ~= 3) + (x == 1)", "-(x < 2)", "(x > 1) - (x > 2)", "x .* y", "x*y - y",
                     "(x)*(-1)", "x*x", "x^2", "x <= Inf", "x + 1i", "x + int8(1)", "x + true",
                     "5", "y", "x.^2", "(-x)^2", "x^3", "[x x]", "[x, 2*x, 1]", "[x x > 1]", "[x]",
                     "[x; x]", "[1 2]", "[x -x/0]"]
ARITHMETIC_INPUTS = ["[1 -2 0 -0 NaN Inf -Inf 3.5]", "[1 2; 3 4]", "zeros(1, 0)", "7", "zeros(2, 2, 2)",
                     "[1 2 3] > 1", "int8([1 2])", "single([1 2])", "[1+2i 3]"]


@pytest.mark.parametrize("body", ARITHMETIC_BODIES)
@pytest.mark.parametrize("data", ARITHMETIC_INPUTS)
def test_arithmetic_bodies_match_the_general_path(body, data):
    code = (f"y = 2.5; f = @(x) {body}; g = @(x) f(x); A = {data}; C = num2cell(A); "
            "C2 = C; if ~isempty(C2), C2{1} = single(1); end\n")
    calls = {"af": "arrayfun({}, A)", "cf": "cellfun({}, C)", "cf2": "cellfun({}, C2)",
             "afn": "arrayfun({}, A, 'UniformOutput', false)",
             "cfn": "cellfun({}, C, 'UniformOutput', false)"}
    for name, call in calls.items():
        code += (f"try, {name}_fast = {call.format('f')}; catch e, {name}_fast = e.identifier; end\n"
                 f"try, {name}_slow = {call.format('g')}; catch e, {name}_slow = e.identifier; end\n")
    interp, _ = run(code)
    got = interp.base.vars
    for name in calls:
        assert same_nan(got[name + "_fast"], got[name + "_slow"]), name
