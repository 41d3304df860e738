"""eval of text that does not parse raises an error that try/catch catches."""

from __future__ import annotations

import io

import pytest

from mlang.errors import MatlabSyntaxError
from mlang.evaluation.interpreter import Interpreter
from mlang.syntax import parse
from mlang.syntax.ast import dump


def run(code: str) -> str:
    out = io.StringIO()
    Interpreter(stdout=out, stderr=out).eval(code)
    return out.getvalue()


def test_a_syntax_error_in_eval_is_caught_by_try():
    out = run("try, eval('x = 1+'); catch e, disp('caught'), disp(e.identifier), end")
    assert out == "caught\nMATLAB:m_parse_error\n"


def test_a_syntax_error_in_eval_runs_the_catch_text_and_evalin_too():
    assert run("eval('y = (1', 'disp(5)')").split() == ["5"]
    assert run("try, evalin('base', '1 +* 2'); catch, disp('caught'), end") == "caught\n"
    assert run("try, v = eval('[1 2'); catch e, disp(class(e)), end") == "MException\n"


def test_eval_inside_an_anonymous_function_sees_its_parameters_and_captured_values():
    assert run("f = @(t) eval('2*t'); fprintf('%d\\n', f(21))") == "42\n"
    assert run("a = 3; f = @(t) eval('a*t') + 0*a; fprintf('%d\\n', f(2))") == "6\n"
    assert run("f = @(t) exist('t'); fprintf('%d\\n', f(1))") == "1\n"


def test_eval_inside_an_anonymous_function_does_not_see_the_callers_other_variables():
    out = run("q = 5; f = @(t) eval('q'); try, f(1), catch e, disp(e.message), end")
    assert out == "Unrecognized function or variable 'q'.\n"


def test_an_error_raised_in_an_anonymous_function_is_named_after_its_caller(tmp_path, monkeypatch):
    (tmp_path / "thrower.m").write_text("function thrower()\nf = @(x) error('my:id', 'boom %d', x);\n"
                                        "f(3)\nend\n")
    monkeypatch.chdir(tmp_path)
    out = run("try, thrower, catch e, disp(e.identifier), disp(e.message), disp(e.stack(1).name), end")
    assert out == "my:id\nboom 3\nthrower\n"


def test_str2func_of_text_that_does_not_parse_is_a_catchable_error():
    out = run("try, f = str2func('@(x) x+'); catch e, disp(e.identifier), end")
    assert out == "MATLAB:m_parse_error\n"
    out = run("try, str2func('@(x) (x'); catch e, disp(class(e)), disp(e.message), end")
    assert out == "MException\nUnbalanced or unexpected parenthesis or bracket.\n"


def test_str2func_text_must_be_one_function_handle():
    out = run("try, str2func('@(x) x+1; y = 2'); catch e, disp(e.identifier), end")
    assert out == "MATLAB:str2func:invalidInput\n"
    assert run("f = str2func('@(x, y) x*y'); g = str2func('@sin'); fprintf('%d %d\\n', f(6, 7), g(0))") \
        == "42 0\n"


def test_an_output_or_input_argument_declared_persistent_is_a_syntax_error():
    for source, name in (("function y = f()\n  persistent y\n  y = 1;\nend\n", "y"),
                         ("function f(x)\n  if true\n    persistent x\n  end\nend\n", "x")):
        # Checked when the function is compiled, before any of it runs.
        with pytest.raises(MatlabSyntaxError) as caught:
            Interpreter(stdout=io.StringIO()).run_source(source, "f")
        assert caught.value.message == f"The PERSISTENT declaration must precede any use of the variable {name}."
        assert caught.value.line in (2, 3)


def test_persistent_names_that_are_not_arguments_still_parse():
    program = parse("function y = f(x)\n  persistent n\n  y = x;\n  function g(y)\n    persistent x\n"
                    "  end\nend\n", "f.m")
    assert program.functions[0].name == "f"


def run_file(path) -> str:
    out = io.StringIO()
    Interpreter(stdout=out, stderr=out).run_file(path)
    return out.getvalue()


def test_a_script_may_define_local_functions_between_its_statements(tmp_path):
    script = tmp_path / "middle.m"
    script.write_text("x = 2;\nfunction r = twice(v)\n  r = 2*v;\nend\nfprintf('%d\\n', twice(x))\n"
                      "function show(v)\n  fprintf('<%d>\\n', v);\nend\nshow(thrice(x))\n"
                      "function r = thrice(v)\n  r = 3*v;\nend\n")
    assert run_file(script) == "4\n<6>\n"
    program = parse(script.read_text(), str(script))
    assert program.is_script
    assert [f.name for f in program.functions] == ["twice", "show", "thrice"]
    assert len(program.body) == 3


def test_names_assigned_in_a_scripts_local_function_stay_there(tmp_path):
    program = parse("a = 1;\nfunction f()\n  z = 3;\nend\nz -1\na -1\n", "s.m")
    assert dump(program.body[1]) == "(command z '-1')"
    assert dump(program.body[2]) == "(expr (- a 1))"


def test_a_function_file_still_rejects_statements_after_its_functions():
    with pytest.raises(MatlabSyntaxError) as caught:
        parse("function f()\nend\nx = 1;\n", "f.m")
    assert caught.value.message.startswith("This statement is not inside any function.")


PLAIN_TEXT_LIVE_SCRIPT = """\
%[text] # Temperature conversion
%[text] Convert a temperature from Fahrenheit to Celsius.
%[text:tableOfContents]{"heading":"Contents"}
f = 98.6; %[control:slider:4f2a]{"position":[5,9]}
c = toCelsius(f) %[output:1a2b3c4d]
%%
%[text] ## A local function in the middle
function c = toCelsius(f)
%[text] The formula: $c = \\frac{5}{9}(f-32)$
    c = (f - 32) * 5 / 9;
end
%[text] Statements after the function run too.
for i = 1:2
    fprintf('%d\\n', i); %[output:group:0a1b2c3d] %[output:9c8d7e6f]
end
%[text]

%[appendix]{"version":"1.0"}
%---
%[metadata:view]
%   data: {"layout":"inline","rightPanelPercent":40}
%---
%[output:1a2b3c4d]
%   data: {"dataType":"textualVariable","outputData":{"name":"c","value":"37"}}
%---
"""


def test_a_plain_text_live_script_runs_with_its_markers_and_appendix_as_comments(tmp_path):
    script = tmp_path / "converter.m"
    script.write_text(PLAIN_TEXT_LIVE_SCRIPT)
    assert run_file(script) == "\nc =\n\n    37\n\n1\n2\n"


def test_dir_of_a_missing_name_warns_and_with_an_output_gives_an_empty_listing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("dir nosuch") == "Warning: Name is nonexistent or not a directory: nosuch\n"
    assert run("d = dir('nosuch'); fprintf('%d %d %d\\n', size(d), numel(fieldnames(d)))") == "0 1 6\n"
    assert run("d = dir('nosuch/*.m'); fprintf('%d\\n', isempty(d))") == "1\n"


def test_ls_of_a_missing_name_is_an_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "here.m").write_text("")
    message = "ls: cannot access 'nosuch': No such file or directory"
    assert run("try, ls nosuch, catch e, disp(e.identifier), disp(e.message), end") \
        == f"MATLAB:ls:OSError\n{message}\n"
    assert run("try, x = ls('*.zzz'); catch e, disp(e.message), end") \
        == "ls: cannot access '*.zzz': No such file or directory\n"
    assert run("x = ls('*.m'); disp(x)") == "here.m\n"
