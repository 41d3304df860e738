"""Runtime errors from MATLAB code: error, MException objects, try/catch, rethrow, reports."""

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlang.errors import MatlabError, report
from mlang.evaluation.interpreter import Interpreter


def run(code: str) -> str:
    out = io.StringIO()
    Interpreter(stdout=out, stderr=io.StringIO()).eval(code)
    return out.getvalue()


def failure(code: str) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        Interpreter(stdout=io.StringIO(), stderr=io.StringIO()).eval(code)
    return info.value


def run_files(tmp_path, files: dict[str, str], script: str) -> str:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "main.m").write_text(script)
    out = io.StringIO()
    Interpreter(stdout=out, stderr=io.StringIO()).run_file(tmp_path / "main.m")
    return out.getvalue()


# ------------------------------------------------------------------- error()


def test_a_lone_message_is_taken_as_it_stands():
    err = failure(r"error('100% sure\n')")
    assert err.message == r"100% sure\n"
    assert err.identifier == ""


def test_a_lone_identifier_shaped_argument_is_a_message():
    err = failure("error('abc:def')")
    assert (err.identifier, err.message) == ("", "abc:def")


def test_identifier_and_format_arguments():
    err = failure("error('pkg:sub:bad', 'got %d of %s\\n', 3, 'xy')")
    assert err.identifier == "pkg:sub:bad"
    assert err.message == "got 3 of xy\n"


def test_two_arguments_format_the_message_even_without_values():
    assert failure("error('a:b', 'literal 100%% sure')").message == "literal 100% sure"


def test_a_format_with_spaces_is_not_an_identifier():
    err = failure("error('Value: %d is bad', 7)")
    assert (err.identifier, err.message) == ("", "Value: 7 is bad")


def test_error_from_a_struct():
    err = failure("s.message = 'from struct'; s.identifier = 'st:id'; error(s)")
    assert (err.identifier, err.message) == ("st:id", "from struct")


@pytest.mark.parametrize("code", ["error('')", "error([])", "error('a:b', '')",
                                  "s.message = ''; s.identifier = 'a:b'; error(s)"])
def test_an_empty_message_throws_nothing(code):
    assert run(code + "; disp('after')") == "after\n"


@settings(max_examples=40, deadline=None)
@given(st.integers(-10**6, 10**6), st.text(alphabet="abcxyz ", max_size=8))
def test_error_formats_like_sprintf(n, word):
    code = f"try, error('my:id', '%d and %s', {n}, '{word}'); catch e, disp(e.message); end"
    assert run(code) == f"{n} and {word}\n"


def test_error_in_a_function_is_reported_under_its_name(tmp_path):
    files = {"twice.m": "function y = twice(x)\n  if x < 0\n    error('neg:x', 'negative %d', x);\n  end\n  y = 2*x;\nend\n"}
    with pytest.raises(MatlabError) as info:
        run_files(tmp_path, files, "a = 1;\nb = twice(-4);\n")
    exc = info.value.exc
    assert exc.function == "twice"
    text = report(exc)
    assert text.splitlines()[:2] == ["Error using twice", "negative -4"]
    assert "Error in twice (line 3)" in text and "Error in main (line 2)" in text


def test_error_in_a_script_names_no_function(tmp_path):
    with pytest.raises(MatlabError) as info:
        run_files(tmp_path, {}, "x = 1;\nerror('stop here');\n")
    assert info.value.exc.function == ""
    assert report(info.value.exc).startswith("stop here\n\nError in main (line 2)")


# ---------------------------------------------------------------- try/catch


def test_caught_exception_properties():
    out = run("try, error('a:b', 'msg %d', 5); catch err, "
              "fprintf('%s|%s|%s|%d\\n', err.identifier, err.message, class(err), isa(err, 'MException')); end")
    assert out == "a:b|msg 5|MException|1\n"


def test_errors_of_builtins_are_caught_with_their_identifier():
    out = run("try, x = [1 2 3]; y = x(5); catch err, disp(err.identifier); end")
    assert out == "MATLAB:index:outOfBounds\n" or out.startswith("MATLAB:")


def test_stack_of_a_caught_error(tmp_path):
    files = {"inner.m": "function inner()\n  error('in:ner', 'deep');\nend\n"}
    script = ("try\n  inner();\ncatch e\n  s = e.stack;\n"
              "  fprintf('%d %s %d\\n', numel(s), s(1).name, s(1).line);\n"
              "  fprintf('%s %d\\n', s(2).name, s(2).line);\nend\n")
    assert run_files(tmp_path, files, script) == "2 inner 2\nmain 2\n"


def test_cause_is_an_empty_column_cell_when_none():
    assert run("try, error('x:y', 'z'); catch e, fprintf('%d %d\\n', size(e.cause)); disp(class(e.cause)); end") \
        == "0 1\ncell\n"


def test_unknown_property_of_an_exception():
    err = failure("try, error('x:y', 'z'); catch e, e.nothing, end")
    assert err.identifier == "MATLAB:noSuchMethodOrField"
    assert "'nothing'" in err.message


# ------------------------------------------------------------------ rethrow


def test_rethrow_keeps_identifier_message_and_original_stack(tmp_path):
    files = {"inner.m": "function inner()\n  error('in:ner', 'deep');\nend\n"}
    script = ("try\n  try\n    inner();\n  catch e1\n    rethrow(e1);\n  end\ncatch e2\n"
              "  fprintf('%s %s\\n', e2.identifier, e2.message);\n"
              "  for k = 1:numel(e2.stack)\n    fprintf('%s:%d\\n', e2.stack(k).name, e2.stack(k).line);\n  end\nend\n")
    assert run_files(tmp_path, files, script) == "in:ner deep\ninner:2\nmain:3\n"


def test_rethrow_of_an_error_struct():
    err = failure("s.message = 'old style'; s.identifier = 'old:id'; rethrow(s)")
    assert (err.identifier, err.message) == ("old:id", "old style")


def test_rethrow_does_not_change_the_caught_object():
    out = run("try, error('a:b', 'c'); catch e, end\n"
              "n = numel(e.stack);\n"
              "try, rethrow(e); catch e2, end\n"
              "fprintf('%d\\n', numel(e.stack) == n);")
    assert out == "1\n"


# -------------------------------------------------------------- MException


def test_mexception_constructor_formats_and_throw():
    out = run("ME = MException('mod:bad', 'Value %d is bad', 7);\n"
              "fprintf('%s|%s|%s\\n', ME.identifier, ME.message, class(ME));\n"
              "try, throw(ME); catch err, fprintf('%s|%s\\n', err.identifier, err.message); end")
    assert out == "mod:bad|Value 7 is bad|MException\nmod:bad|Value 7 is bad\n"


def test_mexception_rejects_a_bad_identifier():
    assert failure("ME = MException('not an id', 'x');").identifier == \
        "MATLAB:MException:InvalidIdentifier"


def test_add_cause_returns_a_new_object():
    out = run("try\n  try, error('low:level', 'disk'); catch inner\n"
              "    outer = MException('app:wrap', 'Could not save %s', 'f.txt');\n"
              "    outer2 = addCause(outer, inner);\n"
              "    fprintf('%d %d\\n', numel(outer.cause), numel(outer2.cause));\n"
              "    throw(outer2);\n  end\n"
              "catch err\n  fprintf('%s|%s|%s\\n', err.identifier, err.message, err.cause{1}.identifier);\nend")
    assert out == "0 1\napp:wrap|Could not save f.txt|low:level\n"


def test_method_call_syntax():
    out = run("ME = MException('a:b', 'hello');\n"
              "ME = ME.addCause(MException('c:d', 'inner'));\n"
              "fprintf('%d\\n', numel(ME.cause));\n"
              "fprintf('[%s]\\n', ME.getReport());\n"
              "try, ME.throw(); catch e, disp(e.identifier); end\n"
              "try, ME.rethrow; catch e, disp(e.message); end")
    assert out == "1\n[hello]\na:b\nhello\n"


def test_get_report_basic_and_extended(tmp_path):
    files = {"boom.m": "function boom()\n  error('b:m', 'kaboom');\nend\n"}
    script = ("try\n  boom();\ncatch e\n  fprintf('<%s>\\n', getReport(e, 'basic'));\n"
              "  r = getReport(e);\n  fprintf('%d %d\\n', contains(r, 'Error in boom (line 2)'), "
              "contains(r, 'kaboom'));\nend\n")
    out = run_files(tmp_path, files, script)
    assert out.startswith("<Error using boom\nkaboom>\n")
    assert out.endswith("1 1\n")


def test_throw_as_caller_reports_from_the_caller(tmp_path):
    files = {"check.m": "function check(x)\n  if x < 0\n    ME = MException('chk:neg', 'negative');\n"
                        "    throwAsCaller(ME);\n  end\nend\n",
             "outer.m": "function outer(x)\n  check(x);\nend\n"}
    script = ("try\n  outer(-1);\ncatch e\n  fprintf('%s %s:%d\\n', e.identifier, e.stack(1).name, e.stack(1).line);\nend\n")
    assert run_files(tmp_path, files, script) == "chk:neg outer:2\n"


# -------------------------------------------------------------------- assert


def test_assert_passes_and_fails():
    assert run("assert(true); assert([1 1 1]); disp('ok')") == "ok\n"
    err = failure("assert(1 == 2)")
    assert (err.identifier, err.message) == ("MATLAB:assertion:failed", "Assertion failed.")


def test_assert_message_forms():
    assert failure("assert(false, 'plain %d')").message == "plain %d"
    err = failure("assert(false, 'my:check', 'x is %d', 4)")
    assert (err.identifier, err.message) == ("my:check", "x is 4")


def test_assert_condition_must_be_logical_or_numeric():
    assert failure("assert('yes')").identifier == "MATLAB:assertion:LogicalScalar"
