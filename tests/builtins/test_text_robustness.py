"""Text, container, language and display builtins meet awkward inputs.

Every call either works or raises a MATLAB error (``MatlabError``): a Python
exception escaping a builtin would reach users as an internal error.  The
fuzz test calls each builtin of these modules with arguments drawn from a
pool of awkward values, and displays each value under every format.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlang.display import STYLES, disp_text, display
from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.registry import BUILTINS, load_all
from mlang.values.string import StringArray

MODULES = ("numbers", "create", "transform", "search", "split_join", "regexp", "printing", "cells",
           "structs", "maps", "exceptions", "introspection", "evaluation", "validators",
           "display_format", "random", "workspace", "timing", "helptext")
# Builtins that would end the session, or that run or remove code and variables.
LEFT_OUT = {"exit", "quit", "eval", "evalin", "assignin", "clear"}

# Awkward values, written in MATLAB.  Sizes stay small or absurdly large (1e300),
# so that no call builds a huge array before refusing it.
POOL_CODE = [
    "[]", "zeros(1,0)", "zeros(0,3)", "5", "-2.5", "NaN", "Inf", "-Inf", "3+4i", "[1 2;3 4]",
    "[1 NaN -Inf]", "int8([-128 0 127])", "uint16([1;2;3])", "single(2.5)", "true",
    "[true false]", "'abc'", "['ab';'cd']", "''", "\"str\"", "string(zeros(1,0))", "{}",
    "{1,'a';{2},[]}", "cell(0,3)", "struct('a',{1,2})", "struct('x',1,'y','t')", "struct()",
    "struct([])", "@sin", "@(x) x+1", "containers.Map()", "containers.Map({'a','b'},{1,2})",
    "rand(2,2,2)", "zeros(2,0,3)", "int64(9007199254740993)", "uint64(18446744073709551615)",
    "'%d %s\\n'", "'%*d'", "'(a)(b)'", "'[a-'", "0", "1", "2", "-1", "1e300", "'UniformOutput'",
    "false", "'like'", "{'a','b'}", "repmat('a',2,2,2)", "cell(2,2,2)", "char(zeros(0,3))",
    "MException('a:b','msg')", "single(1+2i)", "'all'", "'off'",
]


@pytest.fixture(scope="module")
def pool() -> list[object]:
    load_all()
    it = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    values = []
    for code in POOL_CODE:
        it.eval(f"v = {code};")
        values.append(it.base.vars["v"])
    values.append(StringArray(np.array([["a", None]], dtype=object)))  # ["a" <missing>]
    values.append(StringArray(np.empty((2, 0), dtype=object)))
    return values


def _names() -> list[str]:
    load_all()
    return sorted(name for name, b in BUILTINS.items()
                  if b.fn.__module__.rsplit(".", 1)[-1] in MODULES and name not in LEFT_OUT)


def session() -> Interpreter:
    return Interpreter(stdout=io.StringIO(), stderr=io.StringIO())


def test_the_fuzzed_modules_have_builtins():
    names = _names()
    assert {"sprintf", "strsplit", "cellfun", "validateattributes", "randi", "format"} <= set(names)


@settings(max_examples=250, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow,
                                                                    HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_builtins_raise_only_matlab_errors(pool, data):
    name = data.draw(st.sampled_from(_names()))
    picks = data.draw(st.lists(st.integers(0, len(pool) - 1), max_size=4))
    nargout = data.draw(st.integers(0, 3))
    args = [pool[i] for i in picks]
    try:
        BUILTINS[name].call(session(), args, nargout)
    except MatlabError:
        pass


def test_every_value_displays_under_every_format(pool):
    for style in STYLES:
        for compact in (False, True):
            it = session()
            it.format, it.compact = style, compact
            for value in pool:
                display(it, "x", value)
                assert isinstance(disp_text(it, value), str)


# ------------------------------------------------------------ fixed failures


def error_id(code: str) -> str:
    it = session()
    with pytest.raises(MatlabError) as info:
        it.eval(code)
    return info.value.identifier


@pytest.mark.parametrize("code", [
    "rand(Inf)", "rand(NaN, 2)", "randn(3+4i, 2.5)", "rand(1e300)", "randn({1})",
])
def test_bad_random_sizes_are_matlab_errors(code):
    assert error_id(code).startswith("MATLAB:")


def test_random_sizes_still_work():
    it = session()
    it.eval("a = size(rand(2, 3)); b = size(randn([2 0])); c = size(rand(-1)); d = rand('single');")
    assert it.get("a").tolist() == [[2.0, 3.0]]
    assert it.get("b").tolist() == [[2.0, 0.0]]
    assert it.get("c").tolist() == [[0.0, 0.0]]
    assert 0 < it.get("d") < 1


@pytest.mark.parametrize("code", ["randi(Inf)", "randi([1 NaN])", "randi('a')", "randi([])",
                                  "randi({3})"])
def test_bad_randi_limits(code):
    assert error_id(code) == "MATLAB:randi:invalidLimits"


def test_randperm_and_rng_check_their_numbers():
    assert error_id("randperm(NaN)") == "MATLAB:randperm:inputType"
    assert error_id("randperm(5, 2.5)") == "MATLAB:randperm:inputType"
    assert error_id("randperm(3+4i)") == "MATLAB:randperm:inputType"
    assert error_id("rng(Inf)") == "MATLAB:rng:badSeed"
    assert error_id("rng(struct('Seed', NaN))") == "MATLAB:rng:badSettings"
    it = session()
    it.eval("rng(7); p = randperm(4); rng(7); q = randperm(4); r = randi([3 3], 1, 2);")
    assert sorted(it.get("p").ravel().tolist()) == [1.0, 2.0, 3.0, 4.0]
    assert it.get("p").tolist() == it.get("q").tolist()
    assert it.get("r").tolist() == [[3.0, 3.0]]


def test_huge_text_requests_are_refused():
    assert error_id("blanks(1e12)") == "MATLAB:array:SizeLimitExceeded"
    assert error_id("dec2bin(5, 1e12)") == "MATLAB:array:SizeLimitExceeded"
    assert error_id("sprintf('%*d', 1e12, 5)") == "MATLAB:sprintf:fieldTooLarge"
    assert error_id("sprintf('%*d', NaN, 5)") == "MATLAB:sprintf:InvalidStarArg"
    it = session()
    it.eval("s = sprintf('%*d|', 4, 7); b = blanks(3);")
    assert it.get("s") == "   7|"
    assert it.get("b") == "   "


def test_cell_and_num2cell_sizes():
    assert error_id("cell(0, 1e300)") == "MATLAB:array:SizeLimitExceeded"
    it = session()
    it.eval("c = num2cell([1 2; 3 4], 200); n = size(cell(2+1i, 1));")
    assert it.eval("assert(isequal(c, {1 2; 3 4}))") is None
    assert it.get("n").tolist() == [[2.0, 1.0]]


def test_validators_with_odd_arguments():
    assert error_id("mustBeA(1, {})") == "MATLAB:validators:mustBeA"
    assert error_id("mustBeInRange(5, 'x', 9)") == "MATLAB:validators:mustBeNumeric"
    assert error_id("validateattributes(1, {'char'}, {}, 'f', 'x', [])") == \
        "MATLAB:validateattributes:badArgPosition"
    assert error_id("warning(struct('a', 1))") == "MATLAB:warning:invalidInput"
    assert error_id("setfield(struct('a', 1), {}, 2)") == "MATLAB:setfield:emptySubscript"
    it = session()
    it.eval("mustBeMember(['a'; 'b'], [97 98]);")  # characters compare by code
    with pytest.raises(MatlabError) as info:
        it.eval("mustBeMember(3, [1+2i 4])")
    assert "1+2i" in info.value.message


def test_regexp_with_one_text_and_many_patterns_and_huge_mat2str_precision():
    it = session()
    it.eval("c = regexp({'ab'}, [\"a\" \"b\"; \"x\" \"\"]); s = mat2str(0.5, 1e10);")
    c = it.base.vars["c"]
    assert c.data.shape == (2, 2)
    assert c.data[0, 1] == 2.0 and c.data[0, 0] == 1.0
    assert it.get("s") == "0.5"
