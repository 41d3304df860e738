"""The fast paths of cellfun and arrayfun on small inputs and of switch on literal cases
give exactly what the general paths give: the same class, shape, values and errors."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from functools import partial

import numpy as np
import pytest

from mlang.builtins.data.cells import LEGACY_CELLFUN, _check_uniform, _check_uniform_column
from mlang.errors import MatlabError
from mlang.values.cell import Cell
from mlang.values.struct import Struct
from tests.running import run

# ------------------------------------------------------------------ switch

SUBJECTS = [
    "'hello'", "'abc'", "''", "'x'", "['ac'; 'bd']", "['ab'; 'cd']", "'abcd'", "\"hello\"", "\"abc\"",
    "3", "-0", "0", "NaN", "Inf", "2.5", "int8(3)", "true", "false", "[2 3]", "[]", "{}", "{'abc'}",
    "struct('a', 1)", "single(3)", "3 + 2i", "@sin", "'😀'", "string(missing)", "[\"a\" \"b\"]", "\"\"",
    "\"😀\"", "strings(0)",
]
CASES = [
    "'abc'", "\"hello\"", "'hello'", "3", "0", "2.5", "1", "{'abc', 'hello'}", "{2, 3}", "{'x', 3}",
    "{}", "'acbd'", "''", "{'a'; 'b'}", "{0, 'abcd'}", "'😀'", "{\"abc\", 1}",
]


def _switch_value(code: str) -> object:
    try:
        interp, _ = run(code)
    except MatlabError as e:
        return ("error", e.identifier, str(e))
    return interp.base.vars["y"]


@pytest.mark.parametrize("subject", SUBJECTS)
def test_switch_on_literal_cases_is_the_general_comparison(subject: str) -> None:
    for first, second in itertools.permutations(CASES, 2):
        literal = (f"s = {subject};\nswitch s\n case {first}\n y = 1;\n case {second}\n y = 2;\n"
                   " otherwise\n y = 0;\nend")
        # cases held in variables are compared by the general path
        general = (f"s = {subject}; c1 = {first}; c2 = {second};\nswitch s\n case c1\n y = 1;\n"
                   " case c2\n y = 2;\n otherwise\n y = 0;\nend")
        assert _switch_value(literal) == _switch_value(general), (subject, first, second)


def test_switch_literal_cases_mixed_with_other_cases_keep_their_order() -> None:
    code = "f = @() 'b'; s = 'b';\nswitch s\n case 'a'\n y = 1;\n case f()\n y = 2;\n case 'b'\n y = 3;\nend"
    assert _switch_value(code) == 2.0
    code = "f = @() 'b'; s = 'a';\nswitch s\n case {'a'}\n y = 1;\n case f()\n y = 2;\nend"
    assert _switch_value(code) == 1.0
    # a case of literals whose rows do not join is still the error of building it
    assert _switch_value("s = 'a';\nswitch s\n case {'a', 'b'; 'c'}\n y = 1;\nend")[0] == "error"


# ------------------------------------------------------------------ cellfun / arrayfun

def same(x: object, y: object) -> None:
    """x and y are the same MATLAB value: type, dtype, shape and every element."""
    assert type(x) is type(y), (x, y)
    if type(x) is np.ndarray:
        assert x.dtype == y.dtype and x.shape == y.shape, (x, y)
        if x.dtype == object:
            for a, b in zip(x.flat, y.flat, strict=True):
                same(a, b)
        else:
            assert x.tobytes() == y.tobytes(), (x, y)
    elif type(x) is float:
        assert (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y))
    elif type(x) is Cell:
        same(x.data, y.data)
    elif type(x) is Struct:
        assert x.fields == y.fields and x.elems.shape == y.elems.shape, (x, y)
        for a, b in zip(x.elems.flat, y.elems.flat, strict=True):
            for name in x.fields:
                same(a[name], b[name])
    elif type(x) in (bool, complex, str, tuple):
        assert x == y, (x, y)
    else:
        assert repr(x) == repr(y) or x == y, (x, y)


CELLS = [
    "{'a', 'b', 'c'}", "{1, 'a'}", "{}", "cell(0, 3)", "cell(1, 0)", "cell(2, 2)", "{[], '', {}}",
    "{int8(1), single(2)}",
    "{1; 2}", "{struct('a', 1)}", "{\"str\"}", "{1 + 2i}", "{NaN, -0, Inf}", "{true, false}", "{zeros(1, 0)}",
    "{[1 2 3], 'abc'; {1}, @sin}", "{sparse(1), 2}", "{uint64(5), int16([1 2])}", "reshape({1, 2, 3, 4}, 1, 1, 4)",
    "{struct('a', {1, 2})}", "{'x'}", "{1}", "{' 1.5 ', 'abc', \"2e3\", ['ab'; 'cd'], 'x '}", "5", "'abc'", "[1 2]", "{sparse(1i), sparse(2)}",
]
PURE = ["numel", "length", "ndims", "isempty", "isscalar", "isvector", "isrow", "iscolumn", "ismatrix",
        "islogical", "isnumeric", "ischar", "iscell", "isstruct", "isfloat", "isinteger", "isreal",
        "iscellstr", "isstring", "class", "upper", "lower", "strtrim", "deblank", "fliplr", "flipud",
        "str2double"]


def outcomes(code: str, names: list[str]) -> list[object]:
    """The values of the variables ``names`` after running code, or its MATLAB error."""
    try:
        interp, _ = run(code)
    except MatlabError as e:
        return [("error", e.identifier, str(e))]
    return [interp.base.vars[name] for name in names]


def check_same(code: str, fast: str, general: str) -> None:
    """``fast`` and ``general`` (expressions, run after code) give the same value or error."""
    for x, y in zip(outcomes(f"{code}\na = {fast};", ["a"]), outcomes(f"{code}\na = {general};", ["a"]),
                    strict=True):
        same(x, y)


@pytest.mark.parametrize("c", CELLS)
def test_cellfun_on_one_cell_array_is_the_general_call(c: str) -> None:
    for f in PURE:
        # the legacy names ('isempty', 'length', ...) have their own rules (tested below)
        named = () if f in LEGACY_CELLFUN else (f"cellfun('{f}', c)",)
        for fast in (f"cellfun(@{f}, c)", *named):
            # spelt 'Uniform' the options are read by the general path; an anonymous function
            # is called element by element
            check_same(f"c = {c};", fast, f"cellfun(@{f}, c, 'Uniform', true)")
            check_same(f"c = {c};", fast, f"cellfun(@(x) {f}(x), c)")
        check_same(f"c = {c};", f"cellfun(@{f}, c, 'UniformOutput', false)",
                   f"cellfun(@(x) {f}(x), c, 'UniformOutput', false)")
    for flag in ("false", "true", "0", "1", "2", "-0"):
        check_same(f"c = {c};", f"cellfun(@numel, c, 'UniformOutput', {flag})",
                   f"cellfun(@numel, c, 'uniform', {flag})")
        check_same(f"c = {c};", f"cellfun(@(x) [x x], c, 'UniformOutput', {flag})",
                   f"cellfun(@(x) [x x], c, \"UniformOutput\", {flag})")
        check_same(f"c = {c};", f"arrayfun(@(x) x, c, 'UniformOutput', {flag})",
                   f"arrayfun(@(x) x, c, 'Uniform', {flag})")
    for fast in ("cellfun(@(x) x, c)", "cellfun(@(x) [x x], c)", "cellfun(@class, c)", "cellfun(@disp, c)",
                 "cellfun(@(x) x, c, 'UniformOutput', NaN)", "cellfun(@(x) x, c, 'UniformOutput', [1 1])",
                 "cellfun(@(x) x, c, 'UniformOutput', 'no')", "cellfun(@(x) x, c, 'UniformOutpu', false)",
                 "cellfun(@(x) x, c, 'UniformOutput')", "cellfun(@(x) x, c, 'UniformOutput', false, 1)"):
        # options given as a string are read by the general path
        general = fast.replace("'UniformOutput'", '"UniformOutput"') if "'Uniform" in fast \
            else fast[:-1] + ', "UniformOutput", true)'
        check_same(f"c = {c};", fast, general)


def test_cellfun_legacy_names_and_errors() -> None:
    for c in CELLS:
        for name in ("isempty", "islogical", "isreal", "length", "ndims", "prodofsize"):
            check_same(f"c = {c};", f"cellfun('{name}', c)", f"cellfun(\"{name}\", c)")
        # on an empty cell array the legacy names give logical or double empties of their own
        check_same(f"c = {c};", "cellfun('isempty', c)", "cellfun(@(x) isempty(x), c, 'Uniform', 1) | false(size(c))")
        check_same(f"c = {c};", "cellfun('prodofsize', c)", "cellfun(@(x) numel(x), c) + zeros(size(c))")
        for name in ("isreal", "islogical", "length", "ndims"):
            check_same(f"c = {c}; c(end + 1) = {{1}};", f"cellfun('{name}', c)", f"cellfun(@(x) {name}(x), c)")
        for call in ("cellfun('size', c)", "cellfun('isclass', c)", "cellfun('size', c, 2)",
                     "cellfun('isclass', c, 'char')", "cellfun('isempty', c, 1)", "cellfun(5, c)",
                     "cellfun(@numel)", "cellfun('nosuchfunction', c)", "cellfun(@nosuchfunction, c)"):
            check_same(f"c = {c};", call, call)


def test_cellfun_fast_paths_errors_are_matlabs() -> None:
    for call, identifier in [
        ("cellfun(@numel, 5)", "MATLAB:cellfun:NotACell"),
        ("cellfun(5, {1})", "MATLAB:cellfun:InvalidFunction"),
        ("cellfun(@numel)", "MATLAB:minrhs"),
        ("cellfun(@(x) [x x], {1, 2})", "MATLAB:cellfun:NotAScalarOutput"),
        ("cellfun(@(x) x, {1, 'a'})", "MATLAB:cellfun:MismatchInOutputTypes"),
        ("cellfun(@(x) x, {1, {}})", "MATLAB:cellfun:UnimplementedOutputArrayType"),
        ("cellfun(@(x) x, {1, 2}, 'UniformOutput', NaN)", "MATLAB:nologicalnan"),
        ("cellfun('size', {1})", "MATLAB:cellfun:NotEnoughInputs"),
        ("arrayfun(@(x) [x x], [1 2], 'UniformOutput', true)", "MATLAB:arrayfun:NotAScalarOutput"),
    ]:
        got = outcomes(f"a = {call};", ["a"])[0]
        assert type(got) is tuple and got[1] == identifier, (call, got)


def test_cellfun_uniform_column_checks_every_value() -> None:
    # a double first, then a logical, a char, a cell: the error names the first that differs
    for call in ("cellfun(@(x) x, {1, 2, true})", "cellfun(@(x) x, {true, false, 1})",
                 "cellfun(@(x) x, {1, 'a', {}})", "cellfun(@(x) x, {1, 2, [1 2]})",
                 "cellfun(@(x) x, {1, 2, int8(3)})", "cellfun(@(x) x, {1, 2, 3})"):
        check_same("", call, call.replace("})", "}, 'Uniform', 1)"))
    same(outcomes("a = cellfun(@isempty, {1, [], 'a'; '', 2, {}});", ["a"])[0],
         np.array([[False, True, False], [True, False, True]]))
    same(outcomes("a = cellfun(@numel, {1, [1 2], 'abc'});", ["a"])[0], np.array([[1.0, 2.0, 3.0]]))
    same(outcomes("a = cellfun(@numel, {[1 2]});", ["a"])[0], 2.0)
    same(outcomes("a = cellfun('isempty', {[]});", ["a"])[0], True)


def _column_reference(values: list) -> None:
    """_check_uniform_column's checks as written for any column: every value in order."""
    first = values[0] if values else None
    for k, value in enumerate(values):
        _check_uniform("cellfun", value, first if k else None, k + 1, 1)


def test_uniform_column_check_of_scalars_is_the_check_of_each_value() -> None:
    samples = [1.0, -0.0, math.nan, True, False, 1j, np.array([[1.0, 2.0]]), np.zeros((0, 0)),
               np.array([[3]], dtype=np.int8), np.array([[1.0]], dtype=np.float32), Cell.row([1.0])]
    for values in itertools.chain(itertools.product(samples[:4], repeat=2),
                                  itertools.product(samples, samples[:4], samples), [[]]):
        values = list(values)
        assert _column_outcome(partial(_check_uniform_column, "cellfun", values)) == \
            _column_outcome(partial(_column_reference, values)), values


def _column_outcome(check: Callable[[], None]) -> object:
    try:
        check()
    except MatlabError as e:
        return (e.identifier, str(e))
    return None


def test_element_loop_of_one_and_several_inputs() -> None:
    code = ("s = struct('a', {1, 2, 3}); c = {1, 'ab', []}; d = {2, 3, 4};\n"
            "a1 = cellfun(@(x) numel(x), c); a2 = cellfun(@(x, y) numel(x) + y, c, d);\n"
            "[a3, a4] = cellfun(@size, c); a5 = arrayfun(@(t) t.a * 2, s);\n"
            "a6 = arrayfun(@(x, y) x + y, [1 2; 3 4], [5 6; 7 8]); a7 = cellfun(@(x) x, cell(0, 3));\n"
            "a8 = arrayfun(@(x) {x}, 'ab', 'UniformOutput', false); a9 = cellfun(@(x) [x x], c, 'UniformOutput', 0);\n")
    got = outcomes(code, [f"a{k}" for k in range(1, 10)])
    same(got[0], np.array([[1.0, 2.0, 0.0]]))
    same(got[1], np.array([[3.0, 5.0, 4.0]]))
    same(got[2], np.array([[1.0, 1.0, 0.0]]))
    same(got[3], np.array([[1.0, 2.0, 0.0]]))
    same(got[4], np.array([[2.0, 4.0, 6.0]]))
    same(got[5], np.array([[6.0, 8.0], [10.0, 12.0]]))
    same(got[6], np.zeros((0, 3)))
    assert type(got[7]) is Cell and got[7].shape == (1, 2) and type(got[7].data[0, 0]) is Cell
    assert type(got[8]) is Cell and got[8].data[0, 2].shape == (0, 0)
    _, printed = run("cellfun(@(x) fprintf('%d;', x), {1, 2, 3});")
    assert printed == "1;2;3;"


def test_several_outputs_are_checked_in_order() -> None:
    got = outcomes("[a, b] = cellfun(@(x) deal(x, 'a'), {1, 2});", ["a", "b"])
    same(got[0], np.array([[1.0, 2.0]]))
    assert got[1].dtype.kind == "V" and got[1].shape == (1, 2)
    got = outcomes("[a, b] = cellfun(@size, {1, 'ab'; [], {}});", ["a", "b"])
    same(got[0], np.array([[1.0, 1.0], [0.0, 0.0]]))
    same(got[1], np.array([[1.0, 2.0], [0.0, 0.0]]))
    got = outcomes("[a, b] = cellfun(@(x) deal(x, x), {1, 'a'});", ["a"])[0]
    assert got[1] == "MATLAB:cellfun:MismatchInOutputTypes" and "index 2, output 1" in got[2]
    got = outcomes("[a, b] = cellfun(@(x) deal(1, [x x]), {1});", ["a"])[0]
    assert got[1] == "MATLAB:cellfun:NotAScalarOutput" and "index 1, output 2" in got[2]
    got = outcomes("[a, b] = arrayfun(@(x) deal(x, x > 1), [1 2 3]);", ["a", "b"])
    same(got[0], np.array([[1.0, 2.0, 3.0]]))
    same(got[1], np.array([[False, True, True]]))
    _, printed = run("cellfun(@disp, {1, 2});")
    assert printed.split() == ["1", "2"]


def test_arrayfun_over_struct_arrays_passes_each_element_as_indexing_does() -> None:
    for s in ("struct('a', {1, 'x', []})", "struct('a', {1; 2}, 'b', {3; 4})", "struct('a', {})",
              "reshape(struct('a', {1, 2, 3, 4}), 2, 2)", "orderfields(struct('b', {1, 2}, 'a', {3, 4}))", "struct('b', {1, 2}, 'a', {3, 4})",
              "reshape(struct('a', {1, 2, 3, 4}), 1, 1, 4)", "struct('a', 1)"):
        for f in ("@(t) {t}", "@(t) fieldnames(t)", "@(t) setfield(t, 'c', 1)", "@(t) size(t)"):
            fast = f"arrayfun({f}, s, 'UniformOutput', false)"
            general = f"arrayfun(@(k) feval({f}, s(k)), reshape(1:numel(s), size(s)), 'UniformOutput', false)"
            check_same(f"s = {s};", fast, general)
    got = outcomes("s = struct('a', {1, 2}); b = arrayfun(@(t) t.a * 2, s); s(1).a = 5; c = s(2).a;\n"
                   "d = arrayfun(@(t) setfield(t, 'a', 9), s, 'UniformOutput', false); e = s(2).a;",
                   ["b", "c", "e"])
    same(got[0], np.array([[2.0, 4.0]]))
    same(got[1], 2.0)
    same(got[2], 2.0)


def test_uniform_output_after_several_inputs() -> None:
    code = "c = {1, 'ab', []}; d = {2, 3, 4}; e = [1 2 3];"
    for inputs in ("c, d", "c, d, c", "c, 'Uni'", "c, 'ErrorHandler'", "c, \"x\"", "c, 'x'", "c, 5",
                   "c, {1, 2}", "c, true", "c, @sin"):
        for flag in ("false", "true", "0"):
            fast = f"cellfun(@(varargin) numel(varargin), {inputs}, 'UniformOutput', {flag})"
            check_same(code, fast, fast.replace("'UniformOutput'", '"UniformOutput"'))
            fast = f"arrayfun(@(varargin) numel(varargin), e, {inputs.replace('c', 'e', 1)}, 'UniformOutput', {flag})"
            check_same(code, fast, fast.replace("'UniformOutput'", '"UniformOutput"'))


@pytest.mark.parametrize("a", ["[1.5 2 3]", "1:3", "[]", "'abc'", "int8([1 2])", "true", "2", "{1, 2}", "\"ab\"",
                               "[1 NaN; -0 Inf]", "single([1 2])", "'UniformOutput'", "zeros(1, 0)"])
def test_arrayfun_on_one_array_without_options_is_the_general_call(a: str) -> None:
    for f in ("@(t) t*2", "@(t) {t}", "@(k) k^2 + 1", "@(t) class(t)", "@numel", "@(t) t > 1", "@disp"):
        check_same(f"a = {a};", f"arrayfun({f}, a)", f"arrayfun({f}, a, \"UniformOutput\", true)")
