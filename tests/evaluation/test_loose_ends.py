"""Robustness: syntax errors in files loaded while code runs, deep nesting (compile time,
cells, structs, reference chains), the Command Window on an unfinished line, NumPy
warnings, and interp1's inputs."""

from __future__ import annotations

import io
import math
import os
import warnings

import numpy as np
import pytest

from mlang import errors
from mlang.errors import MatlabError
from mlang.evaluation.compiler.facts import TreeFacts
from mlang.evaluation.interpreter import Interpreter
from mlang.frontends.repl import run_stream
from mlang.frontends.reporting import run_reported
from mlang.syntax import ast
from mlang.syntax.lexer import needs_more_input
from tests.evaluation.test_fuzz_findings import run
from tests.frontends.conftest import Console

# ------------------------------------------------- syntax errors in files run by code

BAD_FUNCTION = "function y = bad()\n y = 1 +\nend\n"


def _in_folder(tmp_path, files: dict[str, str]) -> Interpreter:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    interp = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    interp.path.append(str(tmp_path))
    return interp


def test_a_syntax_error_in_a_called_function_file_is_caught_by_try(tmp_path) -> None:
    interp = _in_folder(tmp_path, {"bad.m": BAD_FUNCTION})
    interp.eval("try, bad(), catch e, disp(e.message), disp(e.identifier), end; disp(7)")
    assert interp.out.getvalue().splitlines() == [
        "File: bad.m Line: 2 Column: 9", errors.INVALID_EXPRESSION, "MATLAB:m_parse_error", "     7", ""]


def test_run_of_a_script_with_a_syntax_error_is_caught_by_try(tmp_path) -> None:
    interp = _in_folder(tmp_path, {"broken.m": "x = (1 + \n"})
    path = tmp_path / "broken.m"
    interp.eval(f"try, run('{path}'), catch e, m1 = e.message; i1 = e.identifier; end\n"
                "try, broken, catch e, m2 = e.message; end")
    assert interp.get("m1") == "File: broken.m Line: 1 Column: 5\n" + errors.UNBALANCED
    assert interp.get("i1") == "MATLAB:m_parse_error"
    assert interp.get("m2") == interp.get("m1")


def test_an_uncaught_syntax_error_in_a_called_file_is_shown_in_its_own_layout(tmp_path) -> None:
    interp = _in_folder(tmp_path, {"bad.m": BAD_FUNCTION})
    assert isinstance(run_reported(interp, lambda: interp.eval("x = bad() + 1")), MatlabError)
    assert interp.err.getvalue() == (f"Error: File: bad.m Line: 2 Column: 9\n{errors.INVALID_EXPRESSION}\n"
                                     " y = 1 +\n        ^\n")


def test_a_file_with_a_syntax_error_exists_and_runs_once_fixed(tmp_path) -> None:
    interp = _in_folder(tmp_path, {"bad.m": BAD_FUNCTION})
    interp.eval("e = exist('bad'); try, bad(); ok = 1; catch, ok = 0; end")
    assert (interp.get("e"), interp.get("ok")) == (2.0, 0.0)
    fixed = tmp_path / "bad.m"
    fixed.write_text("function y = bad()\n y = 1 + 41;\nend\n")
    st = fixed.stat()
    os.utime(fixed, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # a new modification time
    interp.eval("y = bad();")
    assert interp.get("y") == 42.0


# ------------------------------------------------------------- compile time and depth

DEPTH = 499  # brackets and anonymous functions nest at most errors.NESTING_LIMIT deep


def test_the_deepest_allowed_nestings_compile_and_give_the_right_values() -> None:
    interp, _ = run("x = " + "abs(" * DEPTH + "-3" + ")" * DEPTH + ";\n"
                    "f = " + "@() " * DEPTH + "5; g = f; for k = 1:" + str(DEPTH) + ", g = g(); end\n"
                    "v = 10:10:50; w = v(" + "abs(" * DEPTH + "end" + ")" * DEPTH + ");\n"
                    "h = " + "@(a) " * DEPTH + "a + y;")
    assert (interp.get("x"), interp.get("g"), interp.get("w")) == (3.0, 5.0, 50.0)


def test_subtree_facts_are_worked_out_once_per_node() -> None:
    # asked at every level of a 100000-deep tree: a rescan per level would never finish
    n = 100_000
    index: ast.Node = ast.End()
    for _ in range(n):
        index = ast.Index(ast.Name("abs"), [index])
    facts = TreeFacts()
    node, answers = index, 0
    while type(node) is ast.Index:
        answers += facts.contains_end(node)
        node = node.args[0]
    assert answers == n
    lam: ast.Node = ast.Binary("+", ast.Name("x"), ast.Name("y"))
    for k in range(n):
        lam = ast.Lambda(["x"] if k % 2 else [], lam)
    free = set()
    node = lam
    while type(node) is ast.Lambda:
        free.add(facts.free_names(node))
        node = node.body
    assert free == {frozenset({"y"}), frozenset({"x", "y"})}
    assert facts.free_names(lam) == frozenset({"y"})


@pytest.mark.parametrize("code, name, value", [
    ("s = 1; for k = 1:20000, s = struct('a', s); end; y = s" + ".a" * 20000 + ";", "y", 1.0),
    ("c = 2; for k = 1:20000, c = {c}; end; y = c" + "{1}" * 20000 + ";", "y", 2.0),
    ("y = [1 2i]" + "'" * 20001 + ";", "y", np.array([[1], [-2j]])),
    ("y = 2" + "^-1" * 30000 + ";", "y", 2.0),
])
def test_long_reference_and_operator_chains_compile_and_run(code: str, name: str, value) -> None:
    interp, _ = run(code)
    assert np.array_equal(interp.get(name), value)


def test_a_long_field_path_is_assigned_and_read_back() -> None:
    path = ".a" * 30000
    interp, _ = run(f"s{path} = 1; s{path} = s{path} + 1; t = s; t.a.a.b = 5; y = s{path};")
    assert interp.get("y") == 2.0
    depth, node = 0, interp.get("s")
    while isinstance(node, dict):
        node, depth = node["a"], depth + 1
    assert (depth, node) == (30000, 2.0)


def test_code_too_deep_to_compile_is_a_matlab_error() -> None:
    with pytest.raises(MatlabError) as info:
        run("x = 1:" + ":".join(["1"] * 30000) + ";")
    assert info.value.identifier == "MATLAB:recursionLimit"


# ------------------------------------------------------------ deeply nested values

DEEP = "c = {}; for k = 1:100000, c = {c}; end\n"


def _outcome(interp: Interpreter, code: str) -> str:
    """The output of ``code``, or the identifier of the MATLAB error it raised."""
    start = interp.out.tell()
    try:
        interp.eval(code)
    except MatlabError as exc:
        return exc.identifier
    return interp.out.getvalue()[start:]


def test_a_deeply_nested_cell_is_shown_measured_compared_and_converted() -> None:
    interp, _ = run(DEEP)
    assert _outcome(interp, "c") == "\nc =\n\n  1×1 cell array\n\n    {1×1 cell}\n\n"
    assert _outcome(interp, "disp(class(c)), disp(size(c))") == "cell\n     1     1\n\n"
    assert _outcome(interp, "disp(cellfun(@isempty, c)), n = num2cell(c); disp(class(n{1}))") == \
        "   0\n\ncell\n"
    assert _outcome(interp, "d = c; d{1} = 5; disp(d{1})") == "     5\n\n"
    # comparing walks the nesting: it works, or it is MATLAB's recursion error
    assert _outcome(interp, "disp(isequal(c, c))") in ("   1\n\n", "MATLAB:recursionLimit")
    value, depth = interp.get("c"), 0
    while value:
        value, depth = value[0], depth + 1
    assert (depth, value) == (100000, [])


def test_a_deeply_nested_struct_is_shown_and_converted() -> None:
    interp, _ = run("s = 7; for k = 1:10000, s = struct('a', s); end")
    assert _outcome(interp, "disp(size(s))") == "     1     1\n\n"
    assert _outcome(interp, "s") == "\ns = \n\n  struct with fields:\n\n    a: [1×1 struct]\n\n"
    value, depth = interp.get("s"), 0
    while isinstance(value, dict):
        value, depth = value["a"], depth + 1
    assert (depth, value) == (10000, 7.0)


def test_cells_and_structs_convert_to_python_in_order() -> None:
    interp, _ = run("a = {1, {2, 'x'}}; m = {1 2; 3 {4}}; s = struct('q', {{1}}, 'p', struct('r', 3));"
                    "t = struct('v', {1, 2});")
    assert interp.get("a") == [1.0, [2.0, "x"]]
    m = interp.get("m")
    assert m.shape == (2, 2) and m[0, 1] == 2.0 and m[1, 1] == [4.0]
    assert list(interp.get("s")) == ["q", "p"] and interp.get("s") == {"q": [1.0], "p": {"r": 3.0}}
    assert interp.get("t") == [{"v": 1.0}, {"v": 2.0}]


# ------------------------------------------------------ an unfinished line at the prompt

def test_a_trailing_operator_is_a_syntax_error_at_once_not_a_continuation() -> None:
    assert not needs_more_input("x = 1+")
    assert needs_more_input("x = 1+ ...")
    interp = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    status = run_stream(interp, io.StringIO("x = 1+\nx = 2;\ndisp(x)\n"))
    assert status == 1
    assert interp.err.getvalue() == f"Error: {errors.INVALID_EXPRESSION}\nx = 1+\n      ^\n"
    assert interp.out.getvalue() == "     2\n\n"


def test_the_command_window_reports_a_trailing_operator_when_enter_is_pressed() -> None:
    console = Console()
    console.session(["x = 1+\r", "y = 3;\r", "fprintf('%d\\n', y)\r"])
    assert console.out.getvalue() == f"Error: {errors.INVALID_EXPRESSION}\nx = 1+\n      ^\n3\n"


# ------------------------------------------------------------------ NumPy warnings

@pytest.mark.parametrize("code, expected", [
    ("a = 1/0;", math.inf), ("a = log(0);", -math.inf), ("a = int8(200)*2;", 127),
    ("a = exp(1000);", math.inf), ("a = [0 0]./[0 0];", [[math.nan, math.nan]]),
    ("a = [1 2]./[0 0];", [[math.inf, math.inf]]), ("a = [1e308 -1e308]*10;", [[math.inf, -math.inf]]),
    ("a = [Inf -Inf] - [Inf -Inf];", [[math.nan, math.nan]]), ("a = single([1e39 1]);", [[math.inf, 1]]),
    ("a = int8([100 -100]) * 2;", [[127, -128]]), ("a = log([0 1]);", [[-math.inf, 0]]),
])
def test_arithmetic_edge_cases_give_matlab_results_and_no_python_warning(code: str, expected) -> None:
    interp = Interpreter(stdout=io.StringIO())
    with np.errstate(all="warn"), warnings.catch_warnings():  # a Python caller's defaults
        before = np.geterr()
        warnings.simplefilter("error")
        interp.eval(code)
        log0 = interp.call("log", 0.0)
        assert np.geterr() == before  # nothing outside the run changed
    assert log0 == -math.inf
    np.testing.assert_array_equal(np.asarray(interp.get("a"), dtype=float), np.asarray(expected, dtype=float))


# ------------------------------------------------------------------------- interp1

def test_interp1_interpolates_complex_values_by_parts() -> None:
    interp, _ = run("x = 1:5; v = [1+1i 2+4i 3 2i 1]; q = [1.5 2.5 4.2];"
                    "for m = {'linear', 'pchip', 'spline', 'makima', 'nearest'}\n"
                    "  a.(m{1}) = interp1(x, v, q, m{1});\n"
                    "  b.(m{1}) = interp1(x, real(v), q, m{1}) + 1i*interp1(x, imag(v), q, m{1});\n"
                    "end")
    a, b = interp.get("a"), interp.get("b")
    for method in ("linear", "pchip", "spline", "makima", "nearest"):
        assert np.iscomplexobj(a[method])
        np.testing.assert_allclose(a[method], b[method], rtol=1e-12)
    np.testing.assert_allclose(a["linear"], [[1.5 + 2.5j, 2.5 + 2j, 0.2 + 1.6j]])


def test_interp1_sorts_unordered_points_and_keeps_complex_fill_values() -> None:
    interp, _ = run("a = interp1([3 1 2], [30 10 20], [1.5 2.5]);"
                    "b = interp1([1 2 3], [1 2 3], [0 2 4], 'linear', 1+2i);")
    np.testing.assert_array_equal(interp.get("a"), [[15.0, 25.0]])
    np.testing.assert_array_equal(interp.get("b"), [[1 + 2j, 2, 1 + 2j]])


@pytest.mark.parametrize("code, identifier, message", [
    ("interp1([1 NaN 3], [1 2 3], 2)", "MATLAB:interp1:NaNinX", "NaN is not an appropriate value for X."),
    ("interp1([1 2 2], [1 2 3], 1.5)", "MATLAB:interp1:RepeatedValuesX",
     "The grid vectors must contain unique points."),
    ("interp1([1 2 3], [1 2 3], 1+1i)", "MATLAB:interp1:ComplexInterpPts", "Input coordinates must be real."),
    ("interp1([1 2 3]*1i, [1 2 3], 1)", "MATLAB:interp1:ComplexX", "Input coordinates must be real."),
])
def test_interp1_refuses_bad_sample_points(code: str, identifier: str, message: str) -> None:
    with pytest.raises(MatlabError) as info:
        run(code)
    assert (info.value.identifier, info.value.message) == (identifier, message)
