"""Language builtins: warnings, introspection, evaluation, validators."""

import io
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter


def session() -> tuple[Interpreter, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    return Interpreter(stdout=out, stderr=err), out, err


def run(code: str) -> str:
    it, out, _ = session()
    it.eval(code)
    return out.getvalue()


def failure(code: str) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        session()[0].eval(code)
    return info.value


# ----------------------------------------------------------------- warnings


def test_warning_prints_to_stderr_and_sets_lastwarn():
    it, out, err = session()
    it.eval("warning('my:id', 'value %d', 5); [m, id] = lastwarn; fprintf('%s|%s\\n', m, id);")
    assert err.getvalue() == "Warning: value 5\n"
    assert out.getvalue() == "value 5|my:id\n"


def test_a_lone_warning_message_is_not_formatted():
    it, _, err = session()
    it.eval(r"warning('50%\n done')")
    assert err.getvalue() == "Warning: 50%\\n done\n"


def test_warning_off_and_on_by_identifier():
    it, out, err = session()
    it.eval("warning('off', 'my:id'); warning('my:id', 'hidden');"
            "s = warning('query', 'my:id'); disp(s.state);"
            "warning('on', 'my:id'); warning('my:id', 'shown'); warning('other:id', 'also');")
    assert err.getvalue() == "Warning: shown\nWarning: also\n"
    assert out.getvalue() == "off\n"


def test_warning_off_all_and_restore_saved_state():
    it, _, err = session()
    it.eval("old = warning('off', 'all'); warning('x:y', 'quiet'); warning(old); warning('x:y', 'loud');")
    assert err.getvalue() == "Warning: loud\n"
    assert it.get("old") == {"identifier": "all", "state": "on"}


def test_lastwarn_can_be_set():
    assert run("lastwarn('set by hand', 'a:b'); [m, i] = lastwarn; fprintf('%s %s\\n', m, i);") \
        == "set by hand a:b\n"


# ------------------------------------------------------------ introspection


@pytest.mark.parametrize(("expr", "cls"), [
    ("1", "double"), ("int8(1)", "int8"), ("true", "logical"), ("'a'", "char"),
    ("{}", "cell"), ("struct()", "struct"), ("@sin", "function_handle"), ('"s"', "string"),
    ("MException('a:b', 'c')", "MException"),
])
def test_class(expr, cls):
    assert run(f"disp(class({expr}))") == cls + "\n"


@pytest.mark.parametrize(("expr", "name", "expected"), [
    ("5", "numeric", True), ("int8(5)", "integer", True), ("single(1)", "float", True),
    ("int8(5)", "float", False), ("'a'", "numeric", False), ("true", "numeric", False),
    ("5", "double", True), ("5", "single", False), ("{1}", "cell", True),
    ("uint16(1)", "numeric", True),
])
def test_isa(expr, name, expected):
    it, _, _ = session()
    it.eval(f"r = isa({expr}, '{name}');")
    assert it.get("r") is expected


def test_exist(tmp_path):
    (tmp_path / "helper_fn.m").write_text("function y = helper_fn(x)\ny = x;\nend\n")
    (tmp_path / "data.txt").write_text("hello")
    (tmp_path / "sub").mkdir()
    (tmp_path / "main.m").write_text(
        "v = 1;\n"
        "fprintf('%d ', exist('v'), exist('helper_fn'), exist('disp'), exist('nothing_here'), ...\n"
        "        exist('data.txt'), exist('sub'), exist('v', 'var'), exist('helper_fn', 'var'), ...\n"
        "        exist('disp', 'builtin'), exist('helper_fn', 'builtin'), exist('sub', 'dir'));\n")
    out = io.StringIO()
    Interpreter(stdout=out).run_file(tmp_path / "main.m")
    assert out.getvalue() == "1 2 5 0 2 7 1 0 5 0 7 "


def test_exist_sees_the_callers_workspace(tmp_path):
    (tmp_path / "probe.m").write_text("function r = probe()\nlocal = 3;\nr = [exist('local'), exist('outer')];\nend\n")
    (tmp_path / "main.m").write_text("outer = 1;\nr = probe();\n")
    it = Interpreter(stdout=io.StringIO())
    it.run_file(tmp_path / "main.m")
    assert it.get("r").tolist() == [[1.0, 0.0]]


_SHARED: list[Interpreter] = []


def shared_session() -> Interpreter:
    """One interpreter for property tests (their examples only set and read variables)."""
    if not _SHARED:
        _SHARED.append(Interpreter(stdout=io.StringIO()))
    return _SHARED[0]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abcXYZ019_$ ", min_size=0, max_size=70))
def test_isvarname_matches_the_identifier_rule(text):
    # (the alphabet cannot spell a keyword)
    it = shared_session()
    it.set("s", text)
    it.eval("r = isvarname(s);")
    assert it.get("r") is (re.fullmatch(r"[A-Za-z]\w*", text) is not None and len(text) <= 63)


@pytest.mark.parametrize(("name", "expected"), [
    ("x", True), ("x_1", True), ("_x", False), ("1x", False), ("end", False), ("for", False),
    ("a" * 63, True), ("a" * 64, False), ("", False), ("a b", False),
])
def test_isvarname_cases(name, expected):
    it, _, _ = session()
    it.set("s", name)
    it.eval("r = isvarname(s); q = isvarname(5);")
    assert it.get("r") is expected
    assert it.get("q") is False


def test_nargin_nargout_of_functions(tmp_path):
    (tmp_path / "two.m").write_text("function [a, b] = two(x, y, z)\na = x; b = y;\nend\n")
    (tmp_path / "var.m").write_text("function [a, varargout] = var(x, varargin)\na = x;\nend\n")
    (tmp_path / "main.m").write_text(
        "fprintf('%d ', nargin('two'), nargout('two'), nargin(@var), nargout('var'), ...\n"
        "        nargin(@(p, q) p), nargin(@(varargin) 1), nargin('local_one'));\n"
        "function local_one(a)\nend\n")
    out = io.StringIO()
    Interpreter(stdout=out).run_file(tmp_path / "main.m")
    assert out.getvalue() == "3 2 -2 -2 2 -1 1 "


def test_nargin_outside_a_function_is_an_error():
    assert failure("nargin").identifier == "MATLAB:nargin:notInFunction"
    assert failure("nargin('no_such_function_anywhere')").identifier == \
        "MATLAB:narginout:functionDoesnotExist"


# --------------------------------------------------------------- evaluation


def test_eval_runs_in_the_current_workspace():
    it, out, _ = session()
    it.eval("x = 2; eval('y = x * 3;'); eval('fprintf(''%d\\n'', y)');")
    assert it.get("y") == 6.0
    assert out.getvalue() == "6\n"


def test_eval_with_outputs_and_catch_string(tmp_path):
    (tmp_path / "pair.m").write_text("function [a, b] = pair()\na = 1; b = 2;\nend\n")
    (tmp_path / "main.m").write_text(
        "v = eval('3 + 4');\n[p, q] = eval('pair()');\n"
        "eval('error(''boom'')', 'caught = lasterr_free;');\n"
        "function r = lasterr_free()\nr = 'yes';\nend\n")
    it = Interpreter(stdout=io.StringIO())
    it.run_file(tmp_path / "main.m")
    assert (it.get("v"), it.get("p"), it.get("q"), it.get("caught")) == (7.0, 1.0, 2.0, "yes")


def test_eval_inside_a_function_uses_its_workspace(tmp_path):
    (tmp_path / "inner.m").write_text("function r = inner()\nk = 10;\neval('k = k + 1;');\nr = k;\nend\n")
    (tmp_path / "main.m").write_text("k = 0;\nr = inner();\n")
    it = Interpreter(stdout=io.StringIO())
    it.run_file(tmp_path / "main.m")
    assert (it.get("k"), it.get("r")) == (0.0, 11.0)


def test_eval_with_an_output_sees_declared_globals_and_persistents(tmp_path):
    (tmp_path / "counted.m").write_text(
        "function r = counted()\npersistent P\nif isempty(P), P = 7; end\nP = P + 1;\nr = eval('P');\nend\n")
    it = Interpreter(stdout=io.StringIO())
    it.eval(f"addpath('{tmp_path}'); global G; G = 3; x = eval('G'); a = counted(); b = counted();")
    assert (it.get("x"), it.get("a"), it.get("b")) == (3.0, 8.0, 9.0)
    assert failure("x = eval('G');").identifier == "MATLAB:UndefinedFunction"  # not declared here


def test_evalin_and_assignin(tmp_path):
    (tmp_path / "setter.m").write_text(
        "function setter()\nassignin('caller', 'fromCallee', 5);\nassignin('base', 'inBase', 6);\n"
        "v = evalin('caller', 'seed * 2');\nassignin('caller', 'doubled', v);\n"
        "evalin('base', 'clear seed');\nend\n")
    (tmp_path / "main.m").write_text("seed = 21;\nsetter();\n")
    it = Interpreter(stdout=io.StringIO())
    it.run_file(tmp_path / "main.m")
    assert (it.get("fromCallee"), it.get("inBase"), it.get("doubled")) == (5.0, 6.0, 42.0)
    assert "seed" not in it.base.vars


def test_assignin_rejects_bad_names():
    assert "Invalid variable name" in failure("assignin('base', '1abc', 3)").message


def test_feval_names_handles_and_outputs(tmp_path):
    (tmp_path / "main.m").write_text(
        "a = feval('local_add', 2, 3);\nb = feval(@local_add, 4, 5);\n"
        "[m, i] = feval(@local_two);\nc = feval(@(x) x * 10, 3);\n"
        "function r = local_add(x, y)\nr = x + y;\nend\n"
        "function [p, q] = local_two()\np = 1; q = 2;\nend\n")
    it = Interpreter(stdout=io.StringIO())
    it.run_file(tmp_path / "main.m")
    assert [it.get(n) for n in ("a", "b", "m", "i", "c")] == [5.0, 9.0, 1.0, 2.0, 30.0]


def test_func2str_and_str2func():
    it, _, _ = session()
    it.eval("f = @(x, y) x.^2 + y*3; s1 = func2str(f); s2 = func2str(@sin);"
            "g = str2func('@(t) t + 1'); v = g(2); s3 = func2str(g);"
            "h = str2func('max'); w = h([3 9 2]);")
    assert (it.get("s1"), it.get("s2"), it.get("s3")) == ("@(x,y)x.^2+y*3", "sin", "@(t)t+1")
    assert (it.get("v"), it.get("w")) == (3.0, 9.0)


def test_str2func_anonymous_does_not_see_the_callers_variables():
    err = failure("a = 5; g = str2func('@(t) t + a'); g(1)")
    assert err.identifier == "MATLAB:UndefinedFunction"


@pytest.mark.parametrize(("text", "compact"), [
    ("@(x) x' * y'", "@(x)x'*y'"),
    ("@() disp('a b')", "@()disp('a b')"),
    ("@(s) [s, 'it''s here']", "@(s)[s,'it''s here']"),
    ('@() "two  spaces"', '@()"two  spaces"'),
    ("@(a) a(end - 1) - -a", "@(a)a(end-1)--a"),
])
def test_func2str_compacts_and_keeps_quoted_text(text, compact):
    it, out, _ = session()
    it.eval(f"f = {text}; fprintf('%s', func2str(f))")
    assert out.getvalue() == compact


def test_clear_forms():
    it, _, _ = session()
    it.eval("a1 = 1; a2 = 2; b = 3; keep = 4; clear a*")
    assert sorted(it.base.vars) == ["b", "keep"]
    it.eval("x9 = 1; y9 = 2; clear -regexp ^x\\d")
    assert "x9" not in it.base.vars and "y9" in it.base.vars
    it.eval("clear('b', 'keep')")
    assert sorted(it.base.vars) == ["y9"]
    it.eval("clear")
    assert it.base.vars == {}


def test_clear_all_forgets_globals_and_persistents(tmp_path):
    (tmp_path / "counter.m").write_text(
        "function n = counter()\npersistent k\nif isempty(k), k = 0; end\nk = k + 1;\nn = k;\nend\n")
    (tmp_path / "main.m").write_text(
        "global G\nG = 5;\ncounter(); counter();\nbefore = counter();\n"
        "clear all\nafter = counter();\nglobal G\nisEmptyG = isempty(G);\n")
    it = Interpreter(stdout=io.StringIO())
    it.run_file(tmp_path / "main.m")
    assert (it.get("after"), it.get("isEmptyG")) == (1.0, True)
    assert "before" not in it.base.vars


def test_tic_toc():
    it, out, _ = session()
    it.eval("tic; t = toc; id = tic; e = toc(id); toc")
    assert 0 <= it.get("t") < 5 and 0 <= it.get("e") < 5
    assert re.fullmatch(r"Elapsed time is \d+\.\d{6} seconds\.\n", out.getvalue())
    assert isinstance(it.get("id"), np.ndarray) and it.get("id").dtype == np.uint64


def test_toc_without_tic_is_an_error():
    assert failure("toc").identifier == "MATLAB:toc:callTicFirst"


def test_clc_and_inputname_do_nothing_visible():
    it, out, _ = session()
    it.eval("clc; n = inputname(1);")
    assert out.getvalue() == "" and it.get("n") == ""


# --------------------------------------------------------------- validators


@pytest.mark.parametrize(("call", "identifier", "message"), [
    ("mustBePositive([1 0])", "mustBePositive", "Value must be positive."),
    ("mustBeNonnegative(-1)", "mustBeNonnegative", "Value must be nonnegative."),
    ("mustBeNegative(0)", "mustBeNegative", "Value must be negative."),
    ("mustBeNonpositive(2)", "mustBeNonpositive", "Value must be nonpositive."),
    ("mustBeNonzero([1 0])", "mustBeNonzero", "Value must not be zero."),
    ("mustBeInteger(1.5)", "mustBeInteger", "Value must be integer."),
    ("mustBeInteger(Inf)", "mustBeInteger", "Value must be integer."),
    ("mustBeNumeric('a')", "mustBeNumeric", "Value must be numeric."),
    ("mustBeNumeric(true)", "mustBeNumeric", "Value must be numeric."),
    ("mustBeNumericOrLogical({})", "mustBeNumericOrLogical", "Value must be numeric or logical."),
    ("mustBePositive('a')", "mustBeNumericOrLogical", "Value must be numeric or logical."),
    ("mustBeFinite([1 NaN])", "mustBeFinite", "Value must be finite."),
    ("mustBeNonNan([1 NaN])", "mustBeNonNan", "Value must not be NaN."),
    ("mustBeReal(1i)", "mustBeReal", "Value must be real."),
    ("mustBeNonempty([])", "mustBeNonempty", "Value must not be empty."),
    ("mustBeNonempty('')", "mustBeNonempty", "Value must not be empty."),
    ("mustBeScalarOrEmpty([1 2])", "mustBeScalarOrEmpty", "Value must be scalar or empty."),
    ("mustBeRow([1; 2])", "mustBeRow", "Value must be a row vector."),
    ("mustBeColumn([1 2])", "mustBeColumn", "Value must be a column vector."),
    ("mustBeGreaterThan(3, 3)", "mustBeGreaterThan", "Value must be greater than 3."),
    ("mustBeGreaterThanOrEqual(2, 2.5)", "mustBeGreaterThanOrEqual",
     "Value must be greater than or equal to 2.5."),
    ("mustBeLessThan(3, 3)", "mustBeLessThan", "Value must be less than 3."),
    ("mustBeLessThanOrEqual(4, 3)", "mustBeLessThanOrEqual", "Value must be less than or equal to 3."),
    ("mustBeInRange(255, 0, 1)", "mustBeInRange",
     "Value must be greater than or equal to 0, and less than or equal to 1."),
    ("mustBeInRange(1, 0, 1, 'exclusive')", "mustBeInRange",
     "Value must be greater than 0, and less than 1."),
    ("mustBeInRange(0, 0, 1, 'exclude-lower')", "mustBeInRange",
     "Value must be greater than 0, and less than or equal to 1."),
    ("mustBeText(5)", "mustBeText",
     "Value must be a character vector, string array, or cell array of character vectors."),
    ("mustBeText({'a', 1})", "mustBeText",
     "Value must be a character vector, string array, or cell array of character vectors."),
    ('mustBeTextScalar(["a" "b"])', "mustBeTextScalar",
     "Value must be a character vector or string scalar."),
    ('mustBeNonzeroLengthText("")', "mustBeNonzeroLengthText",
     "Value must be text with one or more characters."),
    ("mustBeMember('red', {'yellow', 'green', 'blue'})", "mustBeMember",
     "Value must be a member of this set:\n    'yellow'\n    'green'\n    'blue'"),
    ("mustBeMember([1 5], [1 2 3])", "mustBeMember",
     "Value must be a member of this set:\n    1\n    2\n    3"),
    ("mustBeA('red', [\"string\", \"uint8\"])", "mustBeA",
     "Value must be of the following types: 'string' or 'uint8'."),
    ("mustBeA(1, {'char', 'cell', 'string'})", "mustBeA",
     "Value must be of the following types: 'char', 'cell', or 'string'."),
])
def test_validator_failures(call, identifier, message):
    err = failure(call)
    assert (err.identifier, err.message) == (f"MATLAB:validators:{identifier}", message)


@pytest.mark.parametrize("call", [
    "mustBePositive([1 2 3])", "mustBeNonnegative(uint8([0 1]))", "mustBeInteger([1 -2 int8(3)])",
    "mustBeNumeric(single(2))", "mustBeNumericOrLogical(true)", "mustBeFinite([])",
    "mustBeNonempty({1})", "mustBeText('')", "mustBeText({'a', 'b'})", 'mustBeText(["a" "b"])',
    "mustBeTextScalar('abc')", 'mustBeTextScalar("x")', "mustBeMember('x', {'x', 'y'})",
    "mustBeMember(2, [1 2 3])", "mustBeInRange([0 0.5 1], 0, 1)", "mustBeA(int8(1), 'int8')",
    "mustBeGreaterThan([4 5], 3)", "mustBeNonzero(-1)", "mustBeReal(3)", "mustBeVector([1 2 3])",
])
def test_validators_accept_valid_values(call):
    assert run(call + "; disp('ok')") == "ok\n"


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=6), st.integers(-5, 0), st.integers(0, 5))
def test_must_be_in_range_agrees_with_comparison(values, lo, hi):
    it = shared_session()
    it.set("v", np.array([values], dtype=float))
    inside = all(lo <= x <= hi for x in values)
    it.eval(f"try, mustBeInRange(v, {lo}, {hi}); ok = true; catch, ok = false; end")
    assert it.get("ok") is inside


def test_validateattributes_messages():
    cases = {
        "validateattributes(-1, {'numeric'}, {'positive'})":
            ("MATLAB:expectedPositive", "Expected input to be positive."),
        "validateattributes([1 2], {'numeric'}, {'scalar'}, 'myfn', 'X')":
            ("MATLAB:myfn:expectedScalar", "Expected X to be a scalar."),
        "validateattributes('a', {'double', 'single'}, {}, 'myfn', 'X', 2)":
            ("MATLAB:myfn:invalidType",
             "Expected input number 2, X, to be one of these types:\n\ndouble, single\n\n"
             "Instead its type was char."),
        "validateattributes([1 2 3], {'numeric'}, {'size', [2 3]})":
            ("MATLAB:incorrectSize", "Expected input to be of size 2x3 when it is actually size 1x3."),
        "validateattributes([1 2 3], {'numeric'}, {'>', 1})":
            ("MATLAB:expectedGreater", "Expected input to be an array with all of the values > 1."),
        "validateattributes(1.5, {'numeric'}, {'integer'})":
            ("MATLAB:expectedInteger", "Expected input to be integer-valued."),
        "validateattributes([3 2], {'numeric'}, {'increasing'})":
            ("MATLAB:expectedIncreasing", "Expected input to be strictly increasing."),
        "validateattributes([1 2], {'numeric'}, {'numel', 3})":
            ("MATLAB:incorrectNumel", "Expected input to be an array with number of elements equal to 3."),
    }
    for call, expected in cases.items():
        err = failure(call)
        assert (err.identifier, err.message) == expected, call


def test_validateattributes_names_the_function_in_reports():
    err = failure("validateattributes(0, {'numeric'}, {'positive'}, 'myfn', 'X')")
    assert err.exc.function == "myfn"


def test_validateattributes_accepts_valid_values():
    assert run("validateattributes([1 2 3], {'numeric'}, {'positive', 'integer', 'row', 'numel', 3,"
               " 'size', [1 NaN], '<=', 3, 'nonempty', 'finite', 'increasing'}); disp('ok')") == "ok\n"


def test_cputime_counts_cpu_seconds():
    it, out, _ = session()
    it.eval("t0 = cputime; s = 0; for k = 1:20000, s = s + k; end; t1 = cputime;")
    assert 0 <= it.get("t0") <= it.get("t1")
