"""nargin/nargout of handles, names and files; func2str/str2func round trips."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlang.errors import MatlabError
from mlang.values.core import char_text
from mlang.values.handle import FunctionHandle
from tests.running import run

FILES = {
    "varfun.m": "function [a, b, varargout] = varfun(x, y, varargin)\na = 1; b = 2;\nend\n",
    "three.m": "function [a, b] = three(x, y, z)\na = x; b = y;\nend\n",
    "noout.m": "function noout(x)\ndisp(x)\nend\n",
    "ascript.m": "disp(1)\n",
}


@pytest.fixture()
def folder(tmp_path: Path) -> str:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    return str(tmp_path)


def vars_of(code: str) -> dict:
    interp, _ = run(code)
    return interp.base.vars


def error_of(code: str) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        run(code)
    return info.value


def test_nargin_nargout_of_anonymous_functions():
    v = vars_of("a = nargin(@(x, y) x + y); b = nargin(@(varargin) 1); "
                "c = nargin(@(p, varargin) 1); d = nargin(@() 1); e = nargout(@(x) x);")
    assert (v["a"], v["b"], v["c"], v["d"]) == (2.0, -1.0, -2.0, 0.0)
    assert v["e"] == -1.0  # an anonymous function returns what its expression returns


def test_nargin_nargout_of_files_by_name_handle_and_path(folder):
    v = vars_of(f"addpath('{folder}'); a = nargin('varfun'); b = nargout('varfun'); "
                "c = nargin(@three); d = nargout(@three); e = nargin(\"three\"); "
                "f = nargout('noout'); g = nargin('noout'); "
                f"h = nargin('{folder}/three.m'); k = nargout('{folder}/varfun.m'); "
                "m = nargin('three.m');")
    assert (v["a"], v["b"]) == (-3.0, -3.0)  # varargin / varargout count negative
    assert (v["c"], v["d"], v["e"]) == (3.0, 2.0, 3.0)
    assert (v["f"], v["g"]) == (0.0, 1.0)
    assert (v["h"], v["k"], v["m"]) == (3.0, -3.0, 3.0)


def test_nargin_nargout_of_builtins():
    v = vars_of("a = nargin(@sin); b = nargout('sin'); c = nargin('plus');")
    assert (v["a"], v["b"], v["c"]) == (1.0, 1.0, 2.0)


def test_nargin_inside_a_function_counts_the_call(folder):
    (Path(folder) / "count.m").write_text(
        "function [n, m] = count(varargin)\nn = nargin; m = nargout;\nend\n")
    v = vars_of(f"addpath('{folder}'); [a, b] = count(1, 2, 3); c = count();")
    assert (v["a"], v["b"], v["c"]) == (3.0, 2.0, 0.0)


def test_nargin_errors(folder):
    assert error_of("nargin('nosuchfunction')").identifier == \
        "MATLAB:narginout:functionDoesnotExist"
    assert error_of(f"nargin('{folder}/missing.m')").identifier == \
        "MATLAB:narginout:functionDoesnotExist"
    assert error_of(f"addpath('{folder}'); nargin('ascript')").identifier == \
        "MATLAB:nargin:isScript"
    assert error_of("nargin").identifier == "MATLAB:nargin:notInFunction"
    assert error_of("nargout(@(x) x, 2)").identifier == "MATLAB:TooManyInputs"


def test_func2str_texts():
    v = vars_of("a = 2; f = @(x) a*x + 1; s1 = func2str(f); s2 = func2str(@sin); "
                "s3 = func2str(@(x, y) x.^2 + y); s4 = func2str(@() disp('hi there')); "
                "s5 = func2str(@(s) s.a{1}(2)); s6 = func2str(@(x) x');")
    assert char_text(v["s1"]) == "@(x)a*x+1"  # captured values are not substituted
    assert char_text(v["s2"]) == "sin"  # a named handle's text has no @
    assert char_text(v["s3"]) == "@(x,y)x.^2+y"
    assert char_text(v["s4"]) == "@()disp('hi there')"
    assert char_text(v["s5"]) == "@(s)s.a{1}(2)"
    assert char_text(v["s6"]) == "@(x)x'"


def test_str2func_round_trips():
    v = vars_of("g = str2func('@(x) x+1'); a = g(3); t = func2str(g); "
                "h = str2func('sin'); u = func2str(h); k = str2func('@sin'); w = func2str(k); "
                "m = str2func(\"@(v) sum(v)\"); b = m([1 2 3]); "
                "f = @(x, y) x - y; r = str2func(func2str(f)); c = r(5, 2); "
                "n = nargin(str2func('@(p, q, varargin) p'));")
    assert v["a"] == 4.0 and char_text(v["t"]) == "@(x)x+1"
    assert char_text(v["u"]) == "sin" and char_text(v["w"]) == "sin"
    assert type(v["k"]) is FunctionHandle and not v["k"].is_anonymous
    assert v["b"] == 6.0 and v["c"] == 3.0 and v["n"] == -3.0


def test_str2func_sees_no_caller_variables():
    e = error_of("a = 2; f = @(x) a*x; g = str2func(func2str(f)); g(1)")
    assert e.identifier == "MATLAB:UndefinedFunction"


def test_func2str_str2func_errors():
    assert error_of("func2str('sin')").identifier == "MATLAB:func2str:InputNotFunctionHandle"
    assert error_of("str2func(5)").identifier == "MATLAB:invalidInput"
    assert error_of("str2func('@(x')").identifier == "MATLAB:m_parse_error"
