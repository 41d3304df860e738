"""A call site that wants one value of a user function given one or two arguments calls it
without lists (``UserFunction.direct_value_of``); it must behave as the general call does:
nargin, unassigned outputs, early return, errors with their locations, recursion's limit,
persistent variables, and a function redefined on the path."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter

FUNCTIONS = {
    "twice.m": "function y = twice(x)\n  y = 2 * x;\nend\n",
    "both.m": "function [s, d] = both(a, b)\n  s = a + b;\n  d = a - b;\nend\n",
    "count_in.m": "function n = count_in(a, b, c)\n  n = nargin * 10 + nargout;\nend\n",
    "maybe.m": "function y = maybe(x)\n  if x > 0\n    y = x;\n  end\nend\n",
    "early.m": "function y = early(x)\n  y = -1;\n  if x < 0, return; end\n  y = sqrt(x);\nend\n",
    "fails.m": "function y = fails(x)\n  y = x;\n  error('my:id', 'bad %d', x);\nend\n",
    "nothing.m": "function nothing(x)\n  disp(x);\nend\n",
    "deep.m": "function y = deep(n)\n  if n == 0, y = 0; else, y = 1 + deep(n - 1); end\nend\n",
    "counter.m": "function c = counter(step)\n  persistent k\n  if isempty(k), k = 0; end\n"
                 "  k = k + step;\n  c = k;\nend\n",
}


@pytest.fixture
def session(tmp_path: Path) -> tuple[Interpreter, io.StringIO]:
    for name, text in FUNCTIONS.items():
        (tmp_path / name).write_text(text)
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    interp.eval(f"addpath('{tmp_path}');")
    return interp, out


def _value(interp: Interpreter, name: str) -> object:
    return interp.base.vars[name]


def test_values_of_one_and_two_arguments(session):
    interp, _ = session
    interp.eval("a = twice(4); b = both(5, 3); c = twice([1 2]); t = 0; "
                "for k = 1:5, t = t + twice(k) + both(k, 1); end")
    assert _value(interp, "a") == 8.0 and _value(interp, "b") == 8.0
    assert _value(interp, "c").tolist() == [[2.0, 4.0]]
    assert _value(interp, "t") == sum(2 * k + k + 1 for k in range(1, 6))


def test_nargin_and_nargout_are_the_sites(session):
    interp, _ = session
    interp.eval("x = count_in(7); y = count_in(7, 8); z = count_in(7, 8, 9);")
    assert [_value(interp, n) for n in "xyz"] == [11.0, 21.0, 31.0]


def test_an_unassigned_output_is_matlabs_error(session):
    interp, _ = session
    interp.eval("ok = maybe(3);")
    assert _value(interp, "ok") == 3.0
    with pytest.raises(MatlabError) as caught:
        interp.eval("v = maybe(-3);")
    assert caught.value.identifier == "MATLAB:unassignedOutputs"
    assert 'Output argument "y"' in str(caught.value)


def test_return_and_errors_inside_the_function(session):
    interp, _ = session
    interp.eval("e1 = early(-4); e2 = early(16);")
    assert _value(interp, "e1") == -1.0 and _value(interp, "e2") == 4.0
    with pytest.raises(MatlabError) as caught:
        interp.eval("w = fails(5);")
    assert caught.value.identifier == "my:id" and "bad 5" in str(caught.value)
    interp.eval("try, w = fails(6); catch err, s = err.stack(1).name; l = err.stack(1).line; end")
    assert "".join(map(chr, _value(interp, "s").view("u2").ravel())) == "fails"
    assert _value(interp, "l") == 3.0


def test_a_function_without_outputs_asked_for_a_value(session):
    interp, out = session
    with pytest.raises(MatlabError) as caught:
        interp.eval("v = nothing(1);")
    assert caught.value.identifier == "MATLAB:TooManyOutputs"
    interp.eval("nothing(2)")
    assert out.getvalue().split() == ["2"]  # (refused before it runs, as MATLAB does)


def test_recursion_counts_toward_the_limit_and_unwinds(session):
    interp, _ = session
    interp.eval("d = deep(200);")
    assert _value(interp, "d") == 200.0
    with pytest.raises(MatlabError) as caught:
        interp.eval("d = deep(5000);")
    assert caught.value.identifier == "MATLAB:recursionLimit"
    assert interp.depth == 0 and len(interp.frames) == 1
    interp.eval("d = deep(3);")
    assert _value(interp, "d") == 3.0


def test_persistent_state_and_a_redefined_function(session, tmp_path):
    interp, _ = session
    interp.eval("c1 = counter(2); c2 = counter(3);")
    assert (_value(interp, "c1"), _value(interp, "c2")) == (2.0, 5.0)
    interp.eval("for k = 1:3, r = twice(k); end")
    (tmp_path / "twice.m").write_text("function y = twice(x)\n  y = 3 * x;\nend\n")
    interp.invalidate()
    interp.eval("for k = 1:3, r = twice(k); end")
    assert _value(interp, "r") == 9.0
