"""The evaluator's fast paths give what the general paths give.

Each case runs twice: as written, where the fast path applies, and with the
fast path switched off (the module's reference counter made to report a
shared value, or the compiled shortcut left out), so the general path runs;
values, classes and errors must agree.
"""

from __future__ import annotations

import io
import types
from collections.abc import Callable

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.evaluation.compiler import assignment, element_stores, loop_source
from mlang.evaluation.compiler.calls_and_indexing import ReferenceCompiler
from mlang.evaluation.functions import UserFunction
from mlang.evaluation.interpreter import Interpreter
from mlang.values import indexing, operators
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, to_str
from mlang.values.ranges import colon_range
from mlang.values.string import StringArray
from mlang.values.text import string_binary

ALWAYS_SHARED = types.SimpleNamespace(getrefcount=lambda obj: 1000)


def outcome(code: str, names: list[str]) -> tuple:
    """(the named variables' classes and values, or the error identifier) after ``code``."""
    interp = Interpreter(stdout=io.StringIO())
    try:
        interp.run_source(code)
    except MatlabError as exc:
        return ("error", exc.identifier, [frame.line for frame in exc.exc.stack])
    found = []
    for name in names:
        v = interp.base.vars.get(name)
        found.append((class_of(v) if v is not None else None, _plain(v)))
    return tuple(found)


def _plain(v: object) -> object:
    """A comparable form of a value (struct arrays as shape and field dicts)."""
    fields = getattr(v, "fields", None)
    if fields is not None and hasattr(v, "elems"):
        return (tuple(v.elems.shape), list(fields),
                [{k: _plain(d[k]) for k in fields} for d in v.elems.reshape(-1, order="F")])
    if type(v) is np.ndarray:
        return (v.shape, str(v.dtype), v.tolist() if v.dtype == object else v.tobytes())
    return repr(v)


def both_ways(monkeypatch: pytest.MonkeyPatch, module: types.ModuleType, code: str,
              names: list[str]) -> tuple:
    fast = outcome(code, names)
    with monkeypatch.context() as m:
        m.setattr(module, "sys", ALWAYS_SHARED)
        general = outcome(code, names)
    assert fast == general
    return fast


STRUCT_CASES = [
    "s = struct('a', {}, 'b', {}); for i = 1:20, s(i).a = i; s(i).b = s(i).a * 2; end",
    "s = struct('a', {1; 2}); for i = 1:5, s(i).a = -i; end",  # a column grows as a column
    "s = struct('a', {}); s(1).a = 'x'; s(2).a = {1}; s(3).a = int8(4); s(2).a = NaN;",
    "s = struct('a', {1 2 3}); t = s; s(2).a = 9; r = t(2).a;",  # a shared array is not changed
    "s = struct('a', {1 2 3}); s(2).b = 5;",  # a new field: every element has it
    "s = struct('a', {1 2; 3 4}); s(3).a = 0;",
    "s = struct('a', {1 2; 3 4}); s(5).a = 0;",  # ambiguous growth: the error
    "s = struct('a', {1 2}); s(0).a = 1;",
    "s = struct('a', {1 2}); s(1.5).a = 1;",
    "s = struct('a', {1 2}); s(NaN).a = 1;",
    "s = struct('a', {1 2}); s(4).a = 1;",  # a gap: filled with empty elements
    "s = struct('a', {1 2}); s(end+1).a = 3; s(end).a = 4;",
    "s = struct('a', {1 2}); r = reshape(s, 2, 1); r(1).a = 7;",  # a view of shared elements
    "s = struct('a', {1 2 3}); for e = s, e.a = 0; end",
    "s = 5; s(2).a = 1;",  # not a struct
    "clear s; s(3).a = 1;",
    "s = struct('a', {1 2}); q = s(1:2); q(1).a = 42;",
]


@pytest.mark.parametrize("code", STRUCT_CASES)
def test_struct_element_field_stores(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    both_ways(monkeypatch, element_stores, code, ["s", "t", "r", "q", "e"])


def test_struct_array_filled_in_a_loop_is_right() -> None:
    found = outcome("s = struct('a', {}); for i = 1:50, s(i).a = i; end; "
                    "t = s; s(10).a = -1; n = numel(s); r = t(10).a; u = s(10).a;",
                    ["n", "r", "u"])
    assert [v for _, v in found] == ["50.0", "10.0", "-1.0"]


CALL_AND_INDEX_CASES = [
    "x = [1 2 3; 4 5 6]; r = [x(1) x(2) x(5) x(6)];",  # column-major order
    "x = int8([1 2 3]); r = x(2);",
    "x = [true false]; r = x(1);",
    "x = [1+2i 3]; r = x(1); q = x(2);",
    "x = 'abc'; r = x(2);",
    "x = single([1 2]); r = x(2);",
    "x = [1 NaN Inf]; r = x(2); q = x(3);",
    "x = [1 2 3]; r = x(4);",
    "x = [1 2 3]; r = x(0);",
    "x = [1 2 3]; r = x(1.5);",
    "x = [1 2 3]; r = x(NaN);",
    "x = [1 2 3]; r = x(-1);",
    "x = [1 2 3]; r = x(true);",
    "x = [1 2 3]; r = x([1 3]);",
    "x = zeros(2, 2, 2); x(7) = 5; r = x(7);",
    "x = {1, 'a'}; r = x(2);",
    "f = @(a, b) a + b; r = f(1, 2);",
    "f = @sin; r = f(0);",
    "r = max(3, 4); q = min([4 2 8]);",
    "r = numel(1, 2, 3, 4);",
    "r = undefined_function_xyz(1);",
    "x = 1:5; k = 2; r = x(k) + x(k + 1);",
    "r = zeros(1, 3); r(2) = 1;",
]


@pytest.mark.parametrize("code", CALL_AND_INDEX_CASES)
def test_plain_calls_and_indexing(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    fast = outcome(code, ["r", "q"])
    with monkeypatch.context() as m:
        m.setattr(ReferenceCompiler, "_plain_call_site", lambda self, node: None)
        m.setattr(ReferenceCompiler, "plain_arg_codes", lambda self, nodes: None)
        general = outcome(code, ["r", "q"])
    assert fast == general


FUNCTION_FILE = """
function t = fast_paths_main()
t = {one(2), two(3, 4), noout_count(), early(5), early(-5), twoouts(1)};
[a, b] = twoouts(7);
t{end + 1} = [a b];
t{end + 1} = fib(10);
t{end + 1} = nargs_seen(1);
t{end + 1} = nargs_seen();
try
    one(1, 2);
catch err
    t{end + 1} = err.identifier;
end
try
    [a, b, c] = twoouts(1);
catch err
    t{end + 1} = err.identifier;
end
try
    unset_output();
    t{end + 1} = 'no error without outputs';
    v = unset_output();
catch err
    t{end + 1} = err.identifier;
end
end
function y = one(x)
y = x * 2;
end
function y = two(a, b)
y = a - b;
end
function n = noout_count()
n = nargout;
end
function y = early(x)
y = 1;
if x < 0
    return
end
y = x;
end
function [a, b] = twoouts(x)
a = x;
b = -x;
end
function r = fib(n)
if n < 2
    r = n;
else
    r = fib(n - 1) + fib(n - 2);
end
end
function s = nargs_seen(a, b)
s = [nargin exist('a', 'var') exist('b', 'var')];
end
function y = unset_output()
end
"""


def test_user_function_calls(tmp_path) -> None:
    (tmp_path / "fast_paths_main.m").write_text(FUNCTION_FILE)
    interp = Interpreter(stdout=io.StringIO())
    interp.eval(f"addpath('{tmp_path}'); r = fast_paths_main();")
    found = [to_str(v) if class_of(v) == "char" else _plain(v)
             for v in interp.base.vars["r"].data.reshape(-1, order="F")]
    assert found == [repr(4.0), repr(-1.0), repr(1.0), repr(5.0), repr(1.0), repr(1.0),
                     _plain(np.array([[7.0, -7.0]])), repr(55.0),
                     _plain(np.array([[1.0, 1.0, 0.0]])), _plain(np.array([[0.0, 0.0, 0.0]])),
                     "MATLAB:TooManyInputs", "MATLAB:TooManyOutputs", "no error without outputs",
                     "MATLAB:unassignedOutputs"]


@pytest.mark.parametrize("a, s, b", [
    (1.0, 1.0, 5.0), (0.0, 0.1, 1.0), (5.0, -1.0, 1.0), (1.0, 1.0, 0.0), (1.0, 0.0, 3.0),
    (-0.0, 1.0, 0.5), (2.0, 1.0, 2.0), (0.0, 0.3, 0.9), (float("nan"), 1.0, 3.0),
    (1.0, -0.0, 3.0), (-1.5, 0.5, 1.0), (1e15, 1.0, 1e15 + 3), (3.0, -0.0, 1.0),
])
def test_double_ranges_as_the_general_path(a: float, s: float, b: float) -> None:
    fast = colon_range(a, s, b)
    general = colon_range(np.array([[a]]), np.array([[s]]), np.array([[b]]))
    assert type(fast) is type(general)
    if type(fast) is float:
        assert repr(fast) == repr(general)
    else:
        assert fast.shape == general.shape and fast.dtype == general.dtype
        assert fast.tobytes() == general.tobytes()


def test_double_range_errors_as_the_general_path() -> None:
    for args in [(1.0, 1.0, float("inf")), (0.0, 1e-300, 1.0)]:
        with pytest.raises(MatlabError) as fast:
            colon_range(*args)
        with pytest.raises(MatlabError) as general:
            colon_range(*(np.array([[v]]) for v in args))
        assert fast.value.identifier == general.value.identifier


ANONYMOUS_CASES = [
    ("f = @(x) x * 2 + 1; r = cellfun(f, {1, 2, 3});", [3.0, 5.0, 7.0]),
    ("r = arrayfun(@(x) x:x+2, 1:2, 'UniformOutput', false); r = [r{:}];", [1, 2, 3, 2, 3, 4]),
    ("k = 3; f = @(x, y) x + y + k; k = 100; r = f(1, 2);", 6.0),  # captured when made
    ("f = @(varargin) numel(varargin); r = [f() f(1) f(1, 2, 3)];", [0, 1, 3]),
    ("f = @(x, varargin) x + numel(varargin); r = f(10, 'a', 'b');", 12.0),
    ("f = @(~, y) y; r = f(1, 2);", 2.0),
    ("f = @() 42; r = f();", 42.0),
    ("f = @(x) x; r = f(1, 2);", "MATLAB:TooManyInputs"),
    ("f = @(x, y) nargin; r = f(1);", "MATLAB:nargin:notInFunction"),  # as before
    ("f = @(x, y) y; r = f(1);", "MATLAB:UndefinedFunction"),
    ("g = @(x) @(y) x + y; h = g(10); r = h(5);", 15.0),
    ("f = @(x) error('my:id', 'bad %d', x); f(3);", "my:id"),
]


@pytest.mark.parametrize("code, expected", ANONYMOUS_CASES)
def test_anonymous_function_calls(code: str, expected: object) -> None:
    interp = Interpreter(stdout=io.StringIO())
    try:
        interp.run_source(code)
    except MatlabError as exc:
        assert exc.identifier == expected
        return
    r = interp.base.vars["r"]
    assert np.array_equal(np.asarray(r, dtype=float).reshape(-1), np.asarray(expected).reshape(-1))


LOOP_CASES = [
    "s = 0; for i = 1:1000, s = s + i*0.5; end",
    "k = 0; s = 0; c = 0;\nwhile k < 500\n k = k + 1;\n if s >= 100\n  s = s - 97;\n"
    " elseif s < 50\n  s = s + 3;\n else\n  s = s + 7; c = c + 1;\n end\nend",
    "x = zeros(1, 10); for i = 1:10, x(i) = i; end",
    "x = zeros(1, 10); for i = 2:10, x(i) = x(i-1)*0.5 + i; end",
    "x = zeros(3, 4); for i = 1:12, x(i) = -i; end",
    "x = zeros(1, 3); for i = 1:5, x(i) = i; end",  # grows past the end
    "x = []; for i = 1:5, x(i) = i; end",
    "x = zeros(1, 3); y = x; for i = 1:3, x(i) = i; end",  # shared: y keeps its zeros
    "x = int8(zeros(1, 3)); for i = 1:3, x(i) = i * 100; end",  # saturation
    "x = zeros(1, 3, 'single'); for i = 1:3, x(i) = i / 3; end",
    "x = false(1, 3); for i = 1:3, x(i) = i > 1; end",
    "x = 'abc'; for i = 1:3, x(i) = x(i) + 1; end",
    "x = [1 2 3]; for i = 1:3, x(i) = x(i) * 1i; end",  # complex
    "x = zeros(1, 3); for i = 1:3, x(i) = NaN; end",
    "s = 0; for i = 1:3, s = s / 0; end",
    "s = -8; for i = 1:2, s = s ^ 2; end",
    "s = 0; for i = 1:2, s = s ^ -1; end",  # 0^-1: Inf
    "s = 1e308; for i = 1:3, s = s * 10; end",
    "s = int32(5); for i = 1:3, s = s + i; end",
    "s = true; for i = 1:3, s = s + 1; end",
    "s = 0; for i = 1:3, s = s + pi; end",
    "i = 0; for k = 1:3, i = i + 1; end",
    "s = 0; for k = 1:10, if k == 5, break; end, s = s + k; end",
    "s = 0; for k = 1:10, if mod(k, 2) == 0, continue; end, s = s + k; end",
    "s = 0; for k = 1:3, for j = 1:3, if j > k, break; end, s = s + j; end, end",
    "s = NaN; c = 0; for k = 1:2, if s > 1, c = 1; end, end",
    "s = NaN; for k = 1:2\n if s\n  c = 1;\n end\nend",  # NaN condition: the error
    "s = [1 2]; for k = 1:2, if s > 1, c = 1; end, end",
    "s = 1; for k = 1:2, if s > 0 && k > 5 || s == 1, s = s + 1; end, end",
    "x = [1 2 3]; s = 0; for k = 1:4\n s = s + x(k);\nend",  # out of range: error at line 2
    "x = [1 2 3]; s = 0; for k = 1:3, s = s + x(k + 0.5); end",
    "s = 0; for k = 1:3\n s = s + undefined_thing;\nend",
    "s = 0; for k = 1:3, s = s + k; disp(s); end",
    "s = 0; for k = 3:-1:1, s = s * 10 + k; end",
    "s = 0; for k = 0.5:0.25:1.5, s = s + k; end",
    "s = 0; for k = 1:0, s = 1; end",
    "k = 0; while k < 10 && k ~= 7, k = k + 1; end",
    "k = 0; while true, k = k + 1; if k > 4, break; end, end",
    "k = 0; w = 0; while k < 5, k = k + 1; if k == 2, continue; end, w = w + k; end",
    "k = int8(0); while k < 3, k = k + 1; end",
    "k = 0; while k < 3\n k = k + 1;\n if k == 2\n  error('my:id', 'stop');\n end\nend",
    "x = zeros(1, 5); for k = 1:5, x(k) = k; y = x; end",
    "s = struct('a', 1); for k = 1:3, s.a = s.a + k; end",
    "c = cell(1, 3); for k = 1:3, c{k} = k; end",
    "x = zeros(2); for k = 1:2, x(k, k) = k; end",
    "x = zeros(1, 3); for k = 1:3, x(end) = k; end",
    "s = 0; for k = 1:3, s = -s + (k - 1) * 2 / 4; end",
    "s = 0; for k = 1:3, r = k >= 2; end",
    "x = []; for k = 1:40, x(end+1) = k * 2; end",
    "x = zeros(0, 1); for k = 1:20, x(end+1) = k; end",
    "x = zeros(3, 1); for k = 1:20, x(end+1) = k; end",
    "x = zeros(2, 2); for k = 1:3, x(end+1) = k; end",
    "x = []; for k = 1:20, x(end+1) = k; if k == 10, y = x; end, end",
    "x = int8([]); for k = 1:20, x(end+1) = k * 10; end",
    "x = ''; for k = 1:5, x(end+1) = 64 + k; end",
    "x = {}; for k = 1:5, x(end+1) = k; end",
    # logical operands, end, two subscripts, calls of builtins
    "h = [true false true]; c = 0; for k = 1:3, c = c + (k > 1) + h(k); end",
    "h = [true false]; for k = 1:2, s = h(1) + h(2); r = h(k) * -0; w = h(k) == 1; end",
    "for k = 1:2, s = (k > 1) + (k > 0); r = (k > 1) - (k > 0); w = (k > 1) * -0; end",
    "for k = 1:2, s = (k > 1) / (k > 5); end",
    "h = int8([1 2]); for k = 1:2, s = 1 + h(k); end",
    "h = [true false]; for k = 1:2, s = h(k); end",
    "h = [true false]; for k = 1:2, s = -h(k); end",
    "x = [1 2 3]; for k = 1:3, s = x(end) + x(end - 1) * k; end",
    "x = [1 2 3]; y = [3 2 1]; for k = 1:3, s = x(y(end)) + y(x(k)); end",
    "x = {1, 2}; for k = 1:2, s = 1 + x(end); end",
    "x = reshape(1:8, 2, 2, 2); for k = 1:2, s = x(end) + k; end",
    "x = [1 2; 3 4]; for k = 1:2, s = x(k, 2) + x(2, k); end",
    "x = [1 2; 3 4]; for k = 1:3, s = x(k, 2); end",
    "x = [1 2; 3 4]; for k = 1:2, s = x(k, 0.5); end",
    "x = [true false; true true]; for k = 1:2, s = x(k, 2) + 1; end",
    "x = zeros(2); for k = 1:2, x(k, 3 - k) = k; y = x; x(1, 1) = -1; end",
    "x = zeros(2); for k = 1:3, x(k, k) = k; end",
    "x = zeros(2); for k = 1:2, x(k, 1.5) = k; end",
    "x = int8(zeros(2)); for k = 1:2, x(k, k) = k * 100; end",
    "x = zeros(2); for k = 1:2, x(k, 1) = NaN; x(1, k) = -0; end",
    "s = 0; for k = 1:6, s = s + mod(k, 3) + abs(-k) + floor(k / 2) + rem(-k, 4); end",
    "v = [1 2; 3 4]; for k = 1:6, s = sum(v); end",
    "v = [1 2 3]; for k = 1:6, s = sum(v) + numel(v) + max(v, k); end",
    "h = [true false true]; for k = 1:3, s = sum(h) + any(h); r = isempty(h) || k > 2; end",
    "for k = 1:3, s = sqrt(-k); end",
    "sum = 5; for k = 1:3, s = sum(1); end",
    "for k = 1:3, s = mod(k); end",
    "for k = 1:3, s = mod(k, undefined_thing); end",
    "x = 1:3; for k = 1:3, s = max(x(k), 2) + min(k, 2) + hypot(k, 1) + atan2(k, 2); end",
    "c = {1}; for k = 1:3, s = numel(c) + isempty(c); end",
    "for k = 1:3, s = isnan(k) + isinf(k / 0); end",
    "x = int8([1 2]); for k = 1:3, s = sum(x) + k; end",
    "for k = 1:3, s = round(k / 2) + fix(-k / 2) + ceil(k / 3) + sign(k - 2); end",
    "v = [4 NaN]; for k = 1:2, s = max(v(k), 1) + min(NaN, k); end",
    # statements on arrays for a while (no longer tried inline), then on scalars
    "x = [1 2]; r = 0; for k = 1:20, if k == 12, x = 5; end, s = x * 2; r = r + s(1); end",
    "x = [1 2]; c = 0; for k = 1:20, if k > 15, x = k; end, if x > 1, c = c + 1; end, end",
    "s = 0; for k = 1:20, x = 1:k; s = s + sum(x) + max(x, 3); end",
    # appends that start a vector
    "for i = 1:3, x = []; x(end+1) = i; x(end+1) = -0; x(end+1) = NaN; end",
    "for i = 1:3, x = zeros(1, 0); x(end+1) = i; end",
    "for i = 1:3, x = zeros(0, 1); x(end+1) = i; x(end+1) = 2; end",
    "for i = 1:3, x = zeros(0, 3); x(end+1) = i; end",
    "for i = 1:3, x = int8([]); x(end+1) = i; end",
    "for i = 1:3, x = 5; y = x; x(end+1) = i; x(end+1) = 1; end",
    "for i = 1:3, x = ''; x(end+1) = 65; end",
    "for i = 1:3, x = single([]); x(end+1) = i; end",
    # range loops inside written loops
    "s = 0; for i = 1:3, for j = 1:i, s = s + i * j; end, end",
    "s = 0; for i = 1:3, for j = 1:3, if j > i, break; end, s = s + j; end, end",
    "s = 0; for i = 1:3, for j = 1:3, if j == 2, continue; end, s = s + j; end, end",
    "s = 0; for i = 1:3, for j = 3:-1:1, s = s * 10 + j; end, end",
    "s = 0; for i = 1:2, for j = 1:0, s = 1; end, end",
    "s = 0; for i = 1:2, for j = int8(1):int8(3), s = s + j; end, end",
    "s = 0; for i = 1:2, for j = 0.5:0.5:1.5, s = s + j; end, end",
    "s = 0; for i = 1:2, for j = 1:NaN, s = 1; end, end",
    "s = 0; for i = 1:2, for j = 1:Inf, s = s + 1; if s > 5, break; end, end, end",
    "for i = 1:2, for i = 1:3, s = i; end, w = i; end",
    "s = 0; for i = 1:3, for j = 1:3, for k = 1:2, s = s + i*j*k; end, end, end",
    "x = zeros(3); for i = 1:3, for j = 1:3, x(i, j) = i + j; end, end",
    "s = 0; for i = 1:3\n for j = 1:3\n  if j == 2\n   c = 1;\n   break\n  end\n end\n s = s + j;\nend",
    "s = 0; for i = 1:2\n for j = 1:2\n  s = s + undefined_q;\n end\nend",
    "s = 0; for i = 1:2\n for j = 1:undefined_r\n  s = s + 1;\n end\nend",
    "for i = 1:2, for j = 'a':'c', s = j; end, end",
    "for i = 1:2, for j = {1, 2}, s = j; end, end",
    "for i = 1:2, for j = 1:i:5, s = j; end, end",
    "s = 0; for i = 1:3, for j = 1:2, s = s + j; c = {j}; r = c{1}; end, end",
    "s = 0; for i = 1:3, for j = [1 2], s = s + j; end, end",
    "k = 0; for i = 1:2, while k < 3 * i, k = k + 1; end, end",
]


@pytest.mark.parametrize("code", LOOP_CASES)
def test_written_loops(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    names = ["s", "x", "y", "c", "k", "i", "w", "r"]
    written = outcome(code, names)
    with monkeypatch.context() as m:
        m.setattr(loop_source, "range_loop", lambda compiler, node, var: None)
        m.setattr(loop_source, "while_loop", lambda compiler, node: None)
        general = outcome(code, names)
    assert written == general


def test_loops_in_functions_are_written_and_locate_errors(tmp_path) -> None:
    (tmp_path / "loop_lines.m").write_text(
        "function r = loop_lines(n)\nr = 0;\nx = zeros(1, 3);\nfor k = 1:n\n"
        "    x(k) = k;\n    r = r + x(k + 1);\nend\nend\n")
    interp = Interpreter(stdout=io.StringIO())
    interp.eval(f"addpath('{tmp_path}'); a = loop_lines(2);")
    assert interp.base.vars["a"] == 0.0
    with pytest.raises(MatlabError) as caught:
        interp.eval("b = loop_lines(3);")
    assert caught.value.identifier == "MATLAB:badsubscript"
    assert [(f.name, f.line) for f in caught.value.exc.stack][0] == ("loop_lines", 6)


def test_loops_of_scalar_statements_are_written(monkeypatch: pytest.MonkeyPatch) -> None:
    made = []
    original = loop_source.range_loop

    def counting(compiler, node, var):  # noqa: ANN001, ANN202
        made.append(original(compiler, node, var))
        return made[-1]

    monkeypatch.setattr(loop_source, "range_loop", counting)
    assert outcome("s = 0; for i = 1:3, s = s + i; end", ["s"]) == (("double", "6.0"),)
    assert made and made[0] is not None


STRUCT_READ_CASES = [
    "s = struct('a', {1, 'x', {2}}); r = {s(1).a, s(2).a, s(3).a};",
    "s = struct('a', {1 2; 3 4}); r = [s(2).a s(3).a s(4).a];",
    "s = struct('a', {1 2}); r = s(3).a;",
    "s = struct('a', {1 2}); r = s(0).a;",
    "s = struct('a', {1 2}); r = s(1.5).a;",
    "s = struct('a', {1 2}); r = s(1).b;",
    "s = struct('a', {1 2}); r = s(true).a;",
    "s = struct('a', {1 2}); r = s([1 2]).a;",
    "s = 5; r = s(1).a;",
    "c = {struct('a', 3)}; r = c(1).a;",
    "s = struct('a', 7); k = 1; r = s(k).a + s(k + 0).a;",
]


@pytest.mark.parametrize("code", STRUCT_READ_CASES)
def test_struct_element_field_reads(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    fast = outcome(code, ["r"])
    with monkeypatch.context() as m:
        m.setattr(ReferenceCompiler, "_element_field", lambda self, node: None)
        general = outcome(code, ["r"])
    assert fast == general


@pytest.mark.parametrize("start, term", [
    ("1", "+1"), ("1", "/0"), ("-8", "*-2"), ("0", "-NaN"), ("int8(1)", "+100"), ("1", "<2"),
    ("2", "^0.5"), ("(-2)", "^0.5"), ("1", "/3"), ("true", "+1"), ("1", "+2i"), ("0", "./0"),
    ("1e308", "*10"), ("'a'", "+0.25"), ("single(1)", "+1e-3"), ("[1 2]", "-0"),
    ("1", "&&1"), ("0", "||0"), ("1", "&&0"), ("0", "||2"),
])
def test_long_operator_chains_as_nested_operations(start: str, term: str) -> None:
    n = 70  # past LONG_CHAIN: a loop, not nested closures
    chain = f"r = {start}{term * n};"
    nested = f"r = {'(' * n}{start}{(term + ')') * n};"
    assert outcome(chain, ["r"]) == outcome(nested, ["r"])


STRING_AND_CELL_STORE_CASES = [
    "s = strings(1, 4); for i = 1:4, s(i) = \"item\" + i; end",
    "s = strings(1, 3); t = s; s(2) = \"x\";",  # a shared array is not changed
    "s = [\"a\" \"b\" \"c\"]; t = s'; s(1) = \"z\";",  # nor one whose data a transpose shares
    "s = [\"a\" \"b\"; \"c\" \"d\"]; t = reshape(s, 1, 4); s(2) = \"z\"; t(1) = \"y\";",
    "s = strings(1, 0); for i = 1:40, s(end+1) = \"v\" + i; end; t = s; s(end+1) = \"w\";",
    "s = strings(0, 1); for i = 1:20, s(end+1) = string(i); end; t = s; t(3) = \"q\";",
    "s = \"a\"; s(4) = \"d\";",  # the gap holds <missing>
    "s = strings(1, 2); s(2) = 'chars'; s(1) = 5; s(3) = true;",
    "s = strings(1, 2); s(0) = \"x\";",
    "s = strings(1, 2); s(1.5) = \"x\";",
    "s = strings(1, 2); s(NaN) = \"x\";",
    "s = strings(2, 2); s(6) = \"x\";",  # ambiguous growth: the error
    "s = strings(2, 2); s(2, 3) = \"x\"; t = s; s(1, 1) = \"y\";",
    "s = strings(1, 3); for i = 1:3, s(i) = missing; end",
    "s = strings(1, 2); k = 0; for i = 1:5, k = k + 1; s(k) = \"v\" + i; end",  # grows past the end
    "s = strings(1, 2); s(2) = [\"a\" \"b\"];",  # the sizes differ: the error
    "s = strings(1, 2); s(-1) = \"a\";",
    "s = strings(1, 2); s(Inf) = \"a\";",
    "s = strings(1, 2); t = {s}; s(1) = \"a\";",  # held by a cell too
    "s = strings(2, 2); n = 0; s(numel(s) + 1 - 2) = \"z\";",
    "c = {1, 2}; t = c; c(1) = {5}; c(end+1) = {'x'};",
    "c = {}; for i = 1:30, c(end+1) = {i}; end; t = c; c(2) = {[]};",
    "c = {1, 2, 3}; t = c'; c(1) = {0};",
]


CELL_APPEND_CASES = [
    "c = {}; for i = 1:30, c{end+1} = i; if i == 10, t = c; end; end",  # t keeps 10 elements
    "c = {}; for i = 1:30, c{end+1} = i * 0.5; t = c; end; c{end+1} = 'x';",
    "c = cell(3, 1); for i = 1:20, c{end+1} = i; end",  # a column grows as a column
    "c = cell(2, 2); for i = 1:2, c{end+1} = i; end",  # a matrix cannot grow so: the error
    "c = {1}; for i = 1:5, c{end+1} = i; c{2} = -i; end",
    "c = {}; for i = 1:5, c{end+1} = i; end; t = c'; c{end+1} = 9; t{end+1} = 8;",
    "c = {}; for i = 1:9, c{end+1} = i; end; t = c(2:4); c{end+1} = 0; t{end+1} = 1;",
    "c = {}; c{end+1} = 'a'; c{end+1} = [1 2]; c{end+1} = {3}; t = c; c{end+1} = int8(4);",
    "c = {}; for i = 1:4, c{end+1} = NaN; c{end+1} = i == 2; end",
    "c = 5; for i = 1:3, c{end+1} = i; end",  # not a cell: the error
    "c = zeros(1, 0); for i = 1:3, c{end+1} = i; end",
]


@pytest.mark.parametrize("code", STRING_AND_CELL_STORE_CASES + CELL_APPEND_CASES)
def test_string_and_cell_array_stores(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    fast = outcome(code, ["s", "t", "c"])
    with monkeypatch.context() as m:
        m.setattr(assignment, "sys", ALWAYS_SHARED)
        m.setattr(indexing, "sys", ALWAYS_SHARED)
        m.setattr(loop_source, "getrefcount", ALWAYS_SHARED.getrefcount)
        general = outcome(code, ["s", "t", "c"])
    assert fast == general


def test_cell_filled_in_a_loop_is_right() -> None:
    found = outcome("c = {}; for i = 1:50, c{end+1} = i; if i == 20, t = c; end; end; "
                    "n = numel(c); m = numel(t); r = t{20}; u = c{50}; z = size(c, 1);",
                    ["n", "m", "r", "u", "z"])
    assert [v for _, v in found] == ["50.0", "20.0", "20.0", "50.0", "1.0"]


def test_string_array_filled_in_a_loop_is_right() -> None:
    found = outcome("s = strings(1, 0); for i = 1:100, s(end+1) = \"n\" + i; end; "
                    "t = s; s(10) = \"changed\"; n = numel(s); r = t(10); u = s(10); v = s(100);",
                    ["n", "r", "u", "v"])
    assert [v for _, v in found] == ["100.0", "StringArray([['n10']])", "StringArray([['changed']])",
                                     "StringArray([['n100']])"]


CALL_FILE = """
function t = fast_calls_main()
t = {zero(), one(5), two(1, 2), three(1, 2, 3), four(1, 2, 3, 4), three(1), two(), ...
     nargs_seen(7), nargs_seen(), cleared(3), deep(40)};
[p, q] = pair(2, 3);
t{end + 1} = [p q];
try
    bad(2);
catch err
    t{end + 1} = {err.identifier, err.stack(1).name, err.stack(1).line, err.stack(2).line};
end
try
    deep(1000);
catch err
    t{end + 1} = err.identifier;
end
t{end + 1} = deep(3);
end
function y = zero()
y = 10;
end
function y = one(a)
y = a + 1;
end
function y = two(a, b)
y = nargin;
if nargin == 2
    y = a * b;
end
end
function y = three(a, b, c)
y = nargin * 100;
if nargin == 3
    y = a + b + c;
end
end
function y = four(a, b, c, d)
y = [a b c d nargin nargout];
end
function s = nargs_seen(a, b)
s = [nargin exist('a', 'var') exist('b', 'var')];
end
function y = cleared(a)
clear a
y = exist('a', 'var');
end
function n = deep(k)
if k <= 0
    n = 0;
else
    n = deep(k - 1) + 1;
end
end
function [a, b] = pair(x, y)
a = x + y;
b = x * y;
end
function y = bad(x)
y = x;
y = undefined_thing_xyz(x);
end
"""


def _call_file_results(tmp_path: object) -> list:
    (tmp_path / "fast_calls_main.m").write_text(CALL_FILE)  # type: ignore[operator]
    interp = Interpreter(stdout=io.StringIO())
    interp.eval(f"addpath('{tmp_path}'); r = fast_calls_main();")

    def shown(v: object) -> object:
        if type(v) is Cell:
            return [shown(e) for e in v.data.reshape(-1, order="F")]
        return to_str(v) if class_of(v) == "char" else _plain(v)

    return [shown(v) for v in interp.base.vars["r"].data.reshape(-1, order="F")]


def test_simple_calls_as_the_general_path(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _call_file_results(tmp_path)
    with monkeypatch.context() as m:
        m.setattr(UserFunction, "_call_simple",
                  lambda self, interp, args, nargout: self._call_general(interp, args, nargout, None))
        general = _call_file_results(tmp_path)
    assert fast == general
    assert fast[0] == repr(10.0) and fast[4] == _plain(np.array([[1.0, 2.0, 3.0, 4.0, 4.0, 1.0]]))
    assert fast[-3] == ["MATLAB:UndefinedFunction", "bad", repr(60.0), repr(8.0)]
    assert fast[-2] == "MATLAB:recursionLimit" and fast[-1] == repr(3.0)


def _string_operands() -> list:
    missing = StringArray.scalar(None)  # type: ignore[arg-type]
    pair = StringArray(np.array([["a", "b"]], dtype=object))
    return [StringArray.scalar("item"), StringArray.scalar(""), missing, pair, 7.0, -0.5,
            float("nan"), 1e20, True, np.array([[1.0, 2.0]]), np.array([[3]], dtype=np.int8), char_row("ab")]


def _operator_outcome(fn: Callable, symbol: str, a: object, b: object) -> object:
    try:
        out = fn(symbol, a, b)
    except MatlabError as exc:
        return ("error", exc.identifier)
    return (type(out), class_of(out), _plain(out.data) if type(out) is StringArray else _plain(out))


@pytest.mark.parametrize("symbol", ["+", "==", "~=", "<", "<=", ">", ">=", "-"])
def test_string_scalar_operators_as_the_general_path(symbol: str) -> None:
    operands = _string_operands()
    for a in operands:
        for b in operands:
            if type(a) is StringArray or type(b) is StringArray:
                assert _operator_outcome(operators._string_operator, symbol, a, b) == \
                    _operator_outcome(string_binary, symbol, a, b), (symbol, a, b)


def test_string_store_index_is_evaluated_once(tmp_path) -> None:
    (tmp_path / "counted_index.m").write_text(
        "function k = counted_index()\nglobal calls\ncalls = calls + 1;\nk = 1;\nend\n")
    code = (f"addpath('{tmp_path}'); global calls; calls = 0; s = strings(1, 2); "
            "s(counted_index()) = \"x\"; s(counted_index() + 5) = \"y\"; n = calls;")
    assert [v for _, v in outcome(code, ["n"])] == [repr(2.0)]
    assert outcome(code, ["s"]) == outcome("s = strings(1, 2); s(1) = \"x\"; s(6) = \"y\";", ["s"])


def test_written_function_bodies_as_the_general_path(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    written = _call_file_results(tmp_path)
    with monkeypatch.context() as m:
        m.setattr(loop_source, "function_body", lambda compiler, stmts: None)
        general = _call_file_results(tmp_path)
    assert written == general


BODY_FILE = """
function r = body_cases(x, y)
if x < y
    r = x * 2 + y;
elseif x == y
    r = -x;
else
    r = x - y / 3;
end
if r > 100
    r = r - 100;
end
end
"""

BODY_ARGUMENTS = ["1, 2", "2, 2", "5, 1", "NaN, 1", "int8(3), 4", "1+2i, 3", "[1 2], 3", "'a', 1",
                  "true, 2", "[], 1", "300, 1", "1", "single(2), 3", "0, 0", "-0, 0",
                  "undefined_xyz, 1", "{1}, 2"]


def _body_outcomes(tmp_path: object) -> list:
    (tmp_path / "body_cases.m").write_text(BODY_FILE)  # type: ignore[operator]
    interp = Interpreter(stdout=io.StringIO())
    interp.eval(f"addpath('{tmp_path}');")
    found = []
    for arguments in BODY_ARGUMENTS:
        try:
            interp.eval(f"r = body_cases({arguments});")
        except MatlabError as exc:
            found.append(("error", exc.identifier, [(f.name, f.line) for f in exc.exc.stack]))
            continue
        v = interp.base.vars["r"]
        found.append((class_of(v), _plain(v)))
    return found


def test_written_function_bodies_on_every_kind_of_value(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    written = _body_outcomes(tmp_path)
    with monkeypatch.context() as m:
        m.setattr(loop_source, "function_body", lambda compiler, stmts: None)
        general = _body_outcomes(tmp_path)
    assert written == general
    assert written[0] == ("double", repr(4.0)) and written[3][0] == "double"
    assert written[11][:2] == ("error", "MATLAB:minrhs")
    assert written[11][2][0] == ("body_cases", 3)  # (the file starts with an empty line)


def test_function_bodies_with_scalar_statements_are_written(tmp_path) -> None:
    made = []
    original = loop_source.function_body

    def counting(compiler, stmts):  # noqa: ANN001, ANN202
        made.append(original(compiler, stmts))
        return made[-1]

    (tmp_path / "body_cases.m").write_text(BODY_FILE)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(loop_source, "function_body", counting)
        interp = Interpreter(stdout=io.StringIO())
        interp.eval(f"addpath('{tmp_path}'); r = body_cases(1, 2);")
    assert made and made[0] is not None and interp.base.vars["r"] == 4.0


def _long_elseif(n: int) -> str:
    clauses = "".join(f"elseif x == {k}\n  r = x + {k};\n" for k in range(1, n))
    return f"if x == 0\n  r = 0;\n{clauses}else\n  r = -1;\nend\n"


def test_long_elseif_chains_in_written_code(tmp_path) -> None:
    # each elseif nests one level deeper in written source: a long chain stays a closure
    (tmp_path / "many_elseif.m").write_text(f"function r = many_elseif(x)\n{_long_elseif(150)}end\n")
    interp = Interpreter(stdout=io.StringIO())
    interp.eval(f"addpath('{tmp_path}'); a = many_elseif(140); b = many_elseif(500);\n"
                f"s = 0; for x = 1:3\n{_long_elseif(150)}s = s + r; end")
    assert [interp.base.vars[n] for n in ("a", "b", "s")] == [280.0, -1.0, 12.0]


DIRECT_CALL_CASES = [
    "r = abs(-3); q = max(3, 4);",
    "r = max(1, 2, 3);",  # more inputs than the builtin takes
    "r = numel();",  # fewer
    "r = disp(1);",  # a builtin with no output asked for one
    "disp(1); r = 1;",
    "[r, q] = max([3 1 2]);",
    "r = sin(int8(2)); q = sin(single(1));",
    "r = abs('a'); q = abs(true);",
    "r = abs(dlarray(-2)); q = class(r);",
    "r = abs(sparse(-2)); q = class(r);",
    "r = abs({1});",  # the builtin's own error, labelled with its name
    "r = str2double('x'); q = upper('ab');",
    "r = sprintf('%d,', 3); q = num2str(NaN);",
    "r = zeros(1, 0); q = size(r, 2);",
]


def _direct_outcome(code: str) -> tuple:
    interp = Interpreter(stdout=io.StringIO())
    try:
        interp.run_source(code)
    except MatlabError as exc:
        return ("error", exc.identifier, exc.exc.function, [f.line for f in exc.exc.stack])
    return tuple((class_of(v), _plain(v)) for v in (interp.base.vars.get(n) for n in ("r", "q"))
                 if v is not None)


@pytest.mark.parametrize("code", DIRECT_CALL_CASES)
def test_direct_calls_as_the_general_path(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    from mlang.registry import Builtin

    direct = _direct_outcome(code)
    with monkeypatch.context() as m:
        m.setattr(Builtin, "direct_call", lambda self, interp, count, nargout: None)
        m.setattr(UserFunction, "direct_call", lambda self, interp, count, nargout: None)
        general = _direct_outcome(code)
    assert direct == general


def test_deep_recursion_from_every_entry_point() -> None:
    interp = Interpreter(stdout=io.StringIO())
    interp.run_source("a = 1;\nfunction r = down(n)\nif n <= 0\n r = 0;\nelse\n r = down(n - 1) + 1;\nend\nend")
    assert interp.in_stack_room is False
    with pytest.raises(MatlabError) as caught:
        interp.run_source("r = down(10000);\nfunction r = down(n)\nif n <= 0\n r = 0;\nelse\n"
                          " r = down(n - 1) + 1;\nend\nend")
    assert caught.value.identifier == "MATLAB:recursionLimit"
    interp.run_source("r = down(400);\nfunction r = down(n)\nif n <= 0\n r = 0;\nelse\n"
                      " r = down(n - 1) + 1;\nend\nend")
    assert interp.base.vars["r"] == 400.0 and interp.in_stack_room is False


ROW_APPEND_CASES = [
    "s = 'a'; for i = 1:200, s = [s sprintf('%d,', i) 'x']; end",  # growth across many appends
    "s = 'a'; for i = 1:40, s = [s '' 'b' '']; end",  # empty pieces
    "s = 'a'; for i = 1:20, s = [s zeros(0, 0) 'b']; end",
    "s = 'a'; for i = 1:20, s = [s char(zeros(1, 0)) 'b']; end",
    "s = 'ab'; for i = 1:20, s = [s 'é€' char(55357) char(56832)]; t = s; end",  # non-ASCII
    "s = 'ab'; for i = 1:20, s = [s 'cd']; if i == 5, t = s; end; end",  # a shared value kept
    "s = 'ab'; for i = 1:20, s = [s 'cd']; t = s(1:end-1); end",
    "s = 'ab'; for i = 1:5, s = [s 65 'c']; end",  # a double piece: the general rules
    "s = 'ab'; for i = 1:5, s = [s ['c'; 'd']]; end",  # a column: the error
    "s = 'ab'; for i = 1:5, s = [s {1}]; end",
    "s = 'ab'; for i = 1:5, s = [s \"x\"]; end",
    "s = [1 2]; for i = 1:30, s = [s i NaN -Inf]; end",
    "s = [1 2]; for i = 1:30, s = [s [i 1i] 2]; end",
    "s = 1i; for i = 1:30, s = [s [i 2i]]; end",
    "s = int8([1 2]); for i = 1:30, s = [s int8(i) int8([3 4])]; end",
    "s = uint16([1 2]); for i = 1:30, s = [s uint16(i) 7]; end",
    "s = true; for i = 1:30, s = [s false [true true]]; end",
    "s = single(1); for i = 1:30, s = [s single(i) single(NaN)]; end",
    "s = zeros(1, 0); for i = 1:30, s = [s i*ones(1, 3000)]; end",  # long pieces
    "s = 'ab'; s = [s repmat('x', 1, 5000)]; t = s; s = [s 'y'];",
]


@pytest.mark.parametrize("code", ROW_APPEND_CASES)
def test_row_appends(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    both_ways(monkeypatch, assignment, code, ["s", "t"])


def test_row_append_of_dates_takes_the_joined_bytes() -> None:
    frame = types.SimpleNamespace(growth=None)
    cur = np.array([["2020-01-01"]], dtype="datetime64[D]")
    piece = np.array([["2021-02-03", "2022-03-04"]], dtype="datetime64[D]")
    new = assignment._append_row(frame, "d", cur, [piece, piece[:, :0]])  # type: ignore[arg-type]
    assert new is not None
    assert new.tolist() == np.concatenate([cur, piece], axis=1).tolist()
    again = assignment._append_row(frame, "d", new, [piece])  # type: ignore[arg-type]
    assert again is not None and again.base is new.base
    assert again.tolist() == np.concatenate([cur, piece, piece], axis=1).tolist()
