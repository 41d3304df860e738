"""Evaluator semantics: workspaces, indexing, assignment, control flow, functions.

Values are checked through the Python API (``Interpreter.get``) so these
tests do not depend on the builtin library.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter


def run(code: str) -> Interpreter:
    it = Interpreter(stdout=io.StringIO())
    it.run_source(code)
    return it


def value(code: str, name: str = "r"):
    return run(code).get(name)


def matrix(code: str, name: str = "r") -> list:
    v = value(code, name)
    return np.atleast_2d(v).tolist()


# ------------------------------------------------------------ indexing


@pytest.mark.parametrize("code, expected", [
    ("x = [10 20 30 40]; r = x(end);", 40.0),
    ("x = [10 20 30 40]; r = x(end-1);", 30.0),
    ("A = [1 2 3; 4 5 6]; r = A(end, end);", 6.0),
    ("A = [1 2 3; 4 5 6]; r = A(end);", 6.0),
    ("A = [1 2 3; 4 5 6]; r = A(2, end-1);", 5.0),
    ("A = [1 2 3; 4 5 6]; r = A(4);", 5.0),  # column-major linear index
    ("c = {1, [7 8 9]}; r = c{end}(end);", 9.0),
    ("x = [5 6 7]; y = [1 2]; r = x(y(end));", 6.0),  # each end refers to its own array
])
def test_scalar_indexing(code, expected):
    assert value(code) == expected


@pytest.mark.parametrize("code, expected", [
    ("A = [1 2 3; 4 5 6; 7 8 9]; r = A(2, :);", [[4, 5, 6]]),
    ("A = [1 2 3; 4 5 6; 7 8 9]; r = A(:, 2);", [[2], [5], [8]]),
    ("A = [1 2 3; 4 5 6; 7 8 9]; r = A(A > 5);", [[7], [8], [6], [9]]),
    ("x = [1 2 3 4]; r = x(x > 2);", [[3, 4]]),  # a row stays a row
    ("x = [1 2 3 4]; r = x([1 1 2]);", [[1, 1, 2]]),
    ("x = [1; 2; 3]; r = x([3 1]);", [[3], [1]]),  # vector source keeps its orientation
    ("A = [1 2; 3 4]; r = A([1 2; 2 1]);", [[1, 3], [3, 1]]),  # matrix index keeps its shape
    ("A = [1 2; 3 4]; r = A(:);", [[1], [3], [2], [4]]),
    ("A = [1 2 3; 4 5 6]; r = A(:, [1 end]);", [[1, 3], [4, 6]]),
    ("A = [1 2 3; 4 5 6]; r = A(2, [true false true]);", [[4, 6]]),
])
def test_array_indexing(code, expected):
    assert matrix(code) == expected


@pytest.mark.parametrize("code, expected", [
    ("r = [1 2 3]; r(2) = [];", [[1, 3]]),
    ("r = [1; 2; 3]; r([1 3]) = [];", [[2]]),
    ("r = [1 2 3; 4 5 6]; r(:, 2) = [];", [[1, 3], [4, 6]]),
    ("r = [1 2 3; 4 5 6]; r(1, :) = [];", [[4, 5, 6]]),
    ("r = [1 2]; r(5) = 9;", [[1, 2, 0, 0, 9]]),  # growth fills with zeros
    ("r = [1; 2]; r(4) = 9;", [[1], [2], [0], [9]]),
    ("r = [1 2; 3 4]; r(3, 3) = 5;", [[1, 2, 0], [3, 4, 0], [0, 0, 5]]),
    ("r(3) = 1;", [[0, 0, 1]]),  # a new variable grows from []
    ("r = []; for k = 1:4, r(end+1) = k*k; end", [[1, 4, 9, 16]]),
    ("r = 1:5; r(r > 2) = 0;", [[1, 2, 0, 0, 0]]),
    ("r = [1 2 3]; r([1 3]) = [7 9];", [[7, 2, 9]]),
    ("r = zeros_like(); r(2, :) = 5; function z = zeros_like(), z = [0 0; 0 0]; end",
     [[0, 0], [5, 5]]),
])
def test_assignment_and_deletion(code, expected):
    assert matrix(code) == expected


def test_assignment_errors():
    with pytest.raises(MatlabError) as info:
        run("x = [1 2 3]; x([1 2]) = [1 2 3];")
    assert info.value.identifier == "MATLAB:subsassignnumelmismatch"
    with pytest.raises(MatlabError) as info:
        run("x = [1 2 3]; y = x(0);")
    assert info.value.message == "Array indices must be positive integers or logical values."
    with pytest.raises(MatlabError) as info:
        run("x = [1 2 3]; y = x(4);")
    assert info.value.message == "Index exceeds the number of array elements. Index must not exceed 3."
    with pytest.raises(MatlabError) as info:
        run("A = [1 2; 3 4]; y = A(1, 3);")
    assert info.value.message == "Index in position 2 exceeds array bounds. Index must not exceed 2."


def test_copy_on_write_keeps_values_independent():
    it = run("a = [1 2 3]; b = a; b(1) = 9; c = {a}; a(2) = 7;")
    assert it.get("a").tolist() == [[1, 7, 3]]
    assert it.get("b").tolist() == [[9, 2, 3]]
    assert it.get("c")[0].tolist() == [[1, 2, 3]]


def test_indexed_assignment_in_a_loop_reuses_the_array():
    it = run("x = [0 0 0 0 0 0 0 0];")
    before = id(it.base.vars["x"])  # an id, not a reference: holding the array would share it
    it.run_source("for i = 1:8, x(i) = i; end")
    assert id(it.base.vars["x"]) == before  # written in place: O(1) per assignment
    assert it.get("x").tolist() == [[1, 2, 3, 4, 5, 6, 7, 8]]


def test_shared_array_is_copied_before_writing():
    it = run("x = [0 0 0]; y = x;")
    it.run_source("x(2) = 5;")
    assert it.base.vars["x"] is not it.base.vars["y"]
    assert it.get("y").tolist() == [[0, 0, 0]]


def test_views_are_not_written_through():
    it = run("a = [1 2; 3 4]; b = a'; b(1) = 100;")
    assert it.get("a").tolist() == [[1, 2], [3, 4]]
    assert it.get("b").tolist() == [[100, 3], [2, 4]]


# ---------------------------------------------------- cells and structs


def test_cells_and_comma_separated_lists():
    it = run("c = {1, 'ab', [5 6 7]}; v = [c{[1 3]}]; [p, q] = c{[1 3]}; n = c{3}(2);")
    assert it.get("v").tolist() == [[1, 5, 6, 7]]
    assert it.get("p") == 1.0
    assert it.get("q").tolist() == [[5, 6, 7]]
    assert it.get("n") == 6.0
    assert it.get("c")[1] == "ab"


def test_struct_arrays_and_nested_fields():
    it = run("s(2).name = 'bob'; s(1).name = 'al'; t = {s.name}; m.a.b.c = 5; m.a.b.d = 6;"
             "q = {}; q{3} = 'x';")
    assert it.get("t") == ["al", "bob"]
    assert it.get("m") == {"a": {"b": {"c": 5.0, "d": 6.0}}}
    assert it.get("s") == [{"name": "al"}, {"name": "bob"}]
    assert len(it.get("q")) == 3


def test_brace_assignment_grows_cells():
    it = run("c = {}; c{2, 2} = 4; r = c{2, 2};")
    assert it.get("r") == 4.0


def test_struct_field_copy_on_write():
    it = run("a.x = 1; b = a; b.x = 2;")
    assert it.get("a") == {"x": 1.0}
    assert it.get("b") == {"x": 2.0}


def test_dynamic_fields():
    assert value("f = 'val'; s.(f) = 3; r = s.(f) + 1;") == 4.0


# ---------------------------------------------------------- control flow


@pytest.mark.parametrize("code, expected", [
    ("r = 0; for col = [1 2; 3 4], r = r + col(1)*10 + col(2); end", 13.0 + 24.0),
    ("r = 0; n = 0; while 1, n = n + 1; if n >= 3, break; end, end, r = n;", 3.0),
    ("r = 0; for k = 1:10, if mod2(k), continue; end, r = r + k; end; "
     "function t = mod2(k), t = k - 2*floor2(k/2); end; function f = floor2(x), f = x - rem1(x); end;"
     "function y = rem1(x), y = 0; while x >= 1, x = x - 1; end, y = x; end", 30.0),
    ("r = 5; for k = 1:0, r = 0; end", 5.0),
    ("r = 0; for k = 10:-3:1, r = r * 100 + k; end", 10070401.0),
    ("r = 0; for k = 0.5:0.5:2, r = r + k; end", 5.0),
    ("switch 3, case 1, r = 1; case {2, 3}, r = 23; otherwise, r = 0; end", 23.0),
    ("switch 'foo', case {'bar', 'foo'}, r = 1; otherwise, r = 0; end", 1.0),
    ("switch 'x', case 'y', r = 1; otherwise, r = 2; end", 2.0),
    ("if [], r = 1; else, r = 2; end", 2.0),  # empty is false
    ("if [1 1 0], r = 1; else, r = 2; end", 2.0),  # all elements must be nonzero
    ("if [1 2 3], r = 1; else, r = 2; end", 1.0),
    ("a = 1; if a == 2, r = 1; elseif a == 1, r = 3; else, r = 4; end", 3.0),
    ("r = 1 || error('never');", True),  # short circuit
])
def test_control_flow(code, expected):
    assert value(code) == expected


def test_loop_variable_after_loop():
    assert value("for k = 1:3, end; r = k;") == 3.0


def test_try_catch_binds_the_exception():
    it = run("try, error('my:id', 'Value %d too big', 7); catch err, m = err.message; "
             "i = err.identifier; end")
    assert it.get("m") == "Value 7 too big"
    assert it.get("i") == "my:id"


def test_try_catch_of_runtime_error():
    it = run("try, x = [1 2 3]; y = x(4); catch e, m = e.message; end")
    assert it.get("m") == "Index exceeds the number of array elements. Index must not exceed 3."


# -------------------------------------------------------------- functions


FUNCTIONS = """
function y = sq(x)
    y = x^2;
end
function r = fact(n)
    if n <= 1
        r = 1;
    else
        r = n * fact(n - 1);
    end
end
function [a, b] = two()
    a = 1; b = 2;
end
function s = vsum(varargin)
    s = 0;
    for i = 1:nargin
        s = s + varargin{i};
    end
end
function varargout = vout()
    for i = 1:nargout
        varargout{i} = i * 10;
    end
end
function [a, b] = count_args(varargin)
    a = nargin; b = nargout;
end
"""


@pytest.mark.parametrize("code, expected", [
    ("h = @sq; r = h(4);", 16.0),
    ("r = fact(5);", 120.0),
    ("[a, b] = two(); r = a * 10 + b;", 12.0),
    ("[~, b] = two(); r = b;", 2.0),
    ("r = vsum(1, 2, 3);", 6.0),
    ("[o1, o2, o3] = vout(); r = o1 + o2 + o3;", 60.0),
    ("[a, b] = count_args(1, 2, 3); r = a * 10 + b;", 32.0),
    ("c = {1, 2, 3}; r = vsum(c{:});", 6.0),
    ("f = @(a, b) a + b; r = f(2, 3);", 5.0),
    ("k = 10; g = @(x) x + k; k = 100; r = g(1);", 11.0),  # captured when created
    ("f = @() two(); [a, b] = f(); r = b;", 2.0),  # nargout passes through a lambda
    ("f = @(x) @(y) x + y; g = f(2); r = g(3);", 5.0),
])
def test_functions(code, expected):
    assert value(code + "\n" + FUNCTIONS) == expected


def test_function_argument_count_errors():
    with pytest.raises(MatlabError) as info:
        run("r = sq(1, 2);\n" + FUNCTIONS)
    assert (info.value.identifier, info.value.message) == ("MATLAB:TooManyInputs", "Too many input arguments.")
    with pytest.raises(MatlabError) as info:
        run("[a, b] = sq(1);\n" + FUNCTIONS)
    assert info.value.message == "Too many output arguments."


def test_undefined_name():
    with pytest.raises(MatlabError) as info:
        run("r = undefined_thing + 1;")
    assert info.value.identifier == "MATLAB:UndefinedFunction"
    assert info.value.message == "Unrecognized function or variable 'undefined_thing'."


def test_a_global_declared_earlier_in_the_workspace_stays_global(tmp_path):
    # statements run one at a time (the Command Window, eval) and a script run later
    (tmp_path / "bump.m").write_text("G = G + 1;\n")
    (tmp_path / "readg.m").write_text("function v = readg()\n  global G\n  v = G;\nend\n")
    it = Interpreter(stdout=io.StringIO())
    it.path.append(str(tmp_path))
    for statement in ["global G", "G = 5;", "bump", "eval('G = G * 10;');", "r = readg();"]:
        it.eval(statement)
    assert it.get("r") == 60.0
    assert it.globals["G"] == 60.0 and "G" not in it.base.vars


def test_eval_in_a_function_sees_its_persistent_variables():
    it = run("a = tick(); b = tick();\n"
             "function n = tick()\n  persistent count\n  if isempty(count), count = 0; end\n"
             "  eval('count = count + 1;');\n  n = count;\nend\n")
    assert (it.get("a"), it.get("b")) == (1.0, 2.0)


def test_deep_recursion_works_from_statements_as_from_files(tmp_path):
    # MATLAB allows 500 nested calls; code run by eval (the Command Window) gets the same room
    (tmp_path / "depth.m").write_text("function n = depth(k)\nif k == 0\n  n = 0;\nelse\n"
                                      "  n = 1 + depth(k - 1);\nend\nend\n")
    it = Interpreter(stdout=io.StringIO())
    it.path.append(str(tmp_path))
    it.eval("r = depth(450);")
    assert it.get("r") == 450.0
    assert it.call("depth", 450.0) == 450.0
    with pytest.raises(MatlabError) as info:
        it.eval("depth(600);")
    assert info.value.identifier == "MATLAB:recursionLimit"


def test_global_variables_are_shared():
    it = run("global G\nG = 5;\nr = readg();\nfunction v = readg()\n  global G\n  v = G * 2;\nend\n")
    assert it.get("r") == 10.0


def test_error_records_the_failing_line():
    it = Interpreter(stdout=io.StringIO())
    with pytest.raises(MatlabError) as info:
        it.run_source("a = 1;\nb = 2;\nc = a(3);\n")
    assert [f.line for f in info.value.exc.stack] == [3]


def test_two_interpreters_do_not_interfere():
    one, two = run("x = 1;"), run("x = 2;")
    one.run_source("x = x + 10;")
    assert (one.get("x"), two.get("x")) == (11.0, 2.0)


def test_growth_is_amortised_and_never_aliases():
    it = run("x = []; for i = 1:100, x(end+1) = i; end; y = x; x(end+1) = 101; y(end+1) = -1; "
             "c = {}; for i = 1:50, c{end+1} = i; end; d = c; c{end+1} = 'new';")
    x, y = it.get("x"), it.get("y")
    assert x.shape == (1, 101) and y.shape == (1, 101)
    assert x[0, -1] == 101 and y[0, -1] == -1 and x[0, :100].tolist() == y[0, :100].tolist()
    assert len(it.get("c")) == 51 and len(it.get("d")) == 50


def test_growing_a_column_vector():
    assert matrix("r = zeros_col(); for i = 1:5, r(end+1) = i; end\n"
                  "function z = zeros_col(), z = [0; 0]; end") == [[0], [0], [1], [2], [3], [4], [5]]


@pytest.mark.parametrize("code, expected", [
    # appending rows keeps copies independent
    ("s = 'ab'; t = s; s = [s 'cd']; r = {s, t};", ["abcd", "ab"]),
    ("x = [1 2]; for k = 1:5, x = [x k]; end; y = x; x = [x 9]; y = [y 8]; r = {x(end), y(end), numel(x)};",
     [9.0, 8.0, 8.0]),
    ("s = ''; for k = 1:30, s = [s sprintf('%d,', k) 'x']; end; r = {numel(s), s(end-2:end)};",
     [111.0, "0,x"]),
    # cell element writes in place never reach a copy
    ("c = {1, 2}; d = c; c{1} = 5; r = {c{1}, d{1}};", [5.0, 1.0]),
    ("c = cell(1, 3); for k = 1:3, c{k} = k; end; d = c; for k = 1:3, c{k} = -k; end; r = {c{3}, d{3}};",
     [-3.0, 3.0]),
    # struct field writes in place never reach a copy, at any depth
    ("a.b.c = 1; q = a; a.b.c = 2; r = {a.b.c, q.b.c};", [2.0, 1.0]),
    ("a.b.c = 1; q = a.b; a.b.c = 3; r = {a.b.c, q.c};", [3.0, 1.0]),
    ("p.x = 0; for k = 1:10, p.x = p.x + k; end; r = {p.x};", [55.0]),
    ("s(2).v = 1; t = s; t(2).v = 7; r = {s(2).v, t(2).v};", [1.0, 7.0]),
])
def test_fast_paths_keep_value_semantics(code, expected):
    assert value(code) == expected


NESTED = """
function r = outer_fn()
    total = 0;
    add(5);
    add(7);
    h = @add;
    h(100);
    c = make_counter();
    a = c(); b = c();
    r = {total, a, b, exist_local()};
    function add(v)
        total = total + v;
        scratch = v;
    end
    function e = exist_local()
        e = 1;
    end
end
function c = make_counter()
    n = 0;
    c = @step;
    function k = step()
        n = n + 1;
        k = n;
    end
end
"""


def test_nested_functions_share_their_parents_variables():
    assert value("r = outer_fn();\n" + NESTED) == [112.0, 1.0, 2.0, 1.0]


def test_several_outputs_into_a_new_or_empty_cell():
    assert value("[r{1:3}] = deal(1, 2, 3);", "r") == [1.0, 2.0, 3.0]
    assert value("r = {}; [r{1:2}] = size(ones(3, 4));", "r") == [3.0, 4.0]
    assert value("r = {0}; [r{2:3}] = deal(5, 6);", "r") == [0.0, 5.0, 6.0]
    code = """
[a, b] = k();
r = [a b];
function varargout = k()
  [varargout{1:2}] = size(ones(3, 4));
end
"""
    assert matrix(code) == [[3.0, 4.0]]


@pytest.mark.parametrize("code", [
    "x = [1 2 3]; y = x(Inf);", "x = [1 2 3]; y = x(NaN);", "x = [1 2; 3 4]; y = x(1, Inf);",
    "x = [1 2; 3 4]; x(NaN) = 1;", "x = [1 2; 3 4]; x(Inf) = 1;", "c = {1, 2}; y = c{Inf};",
    "c = {1, 2}; c{NaN} = 1;", "x = 1:3; x(-Inf) = [];",
])
def test_nan_and_inf_subscripts_are_matlab_errors(code):
    with pytest.raises(MatlabError) as info:
        run(code)
    assert info.value.exc.message == "Array indices must be positive integers or logical values."
