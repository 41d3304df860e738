"""input, pause, more and beep: reading what the user types while code runs."""

from __future__ import annotations

import io
import time

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter


def session(typed: str) -> tuple[Interpreter, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    return Interpreter(stdout=out, stderr=err, stdin=io.StringIO(typed)), out, err


def test_input_evaluates_the_line_in_the_callers_workspace():
    interp, out, _ = session("base * 2 + 1\n")
    interp.eval("base = 20; v = input('Value? ');")
    assert interp.get("v") == 41.0
    assert out.getvalue() == "Value? "


def test_input_with_s_returns_the_text():
    interp, _, _ = session("hello world\n\n")
    interp.eval("t = input('Name: ', 's'); e = input('Again: ', 's');")
    assert interp.get("t") == "hello world"
    assert interp.base.vars["e"].shape == (0, 0)


def test_enter_alone_gives_an_empty_double():
    interp, _, _ = session("\n")
    interp.eval("v = input('> ');")
    assert interp.base.vars["v"].shape == (0, 0) and interp.base.vars["v"].dtype == np.float64


def test_a_failing_expression_is_reported_and_asked_again():
    interp, out, err = session("undefinedName\n[1 2 3]\n")
    interp.eval("v = input('v = ');")
    assert np.array_equal(interp.get("v"), np.array([[1.0, 2.0, 3.0]]))
    assert out.getvalue() == "v = v = "
    assert err.getvalue() == "Unrecognized function or variable 'undefinedName'.\n"


def test_input_escapes_and_end_of_input():
    interp, out, _ = session("")
    with pytest.raises(MatlabError) as info:
        interp.eval("v = input('first\\nsecond: ');")
    assert out.getvalue() == "first\nsecond: "
    assert info.value.identifier == "MATLAB:input:endOfInput"


def test_input_checks_its_arguments():
    interp, _, _ = session("1\n")
    with pytest.raises(MatlabError) as info:
        interp.eval("v = input('x', 'q');")
    assert info.value.identifier == "MATLAB:input:invalidInput"
    with pytest.raises(MatlabError):
        interp.eval("v = input(3);")


def test_input_inside_a_function_sees_the_functions_workspace(tmp_path):
    (tmp_path / "ask.m").write_text("function y = ask()\n  local = 5;\n  y = input('');\nend\n")
    interp, _, _ = session("local + 1\n")
    interp.path.append(str(tmp_path))
    interp.eval("r = ask();")
    assert interp.get("r") == 6.0


def test_pause_waits_the_given_seconds_and_can_be_turned_off():
    interp, _, _ = session("")
    start = time.perf_counter()
    interp.eval("pause(0.05)")
    assert time.perf_counter() - start >= 0.05
    interp.eval("pause('off'); pause(100)")  # returns at once
    interp.eval("pause('on')")
    assert interp.pause_enabled is True
    for bad in ("pause(-1)", "pause([1 2])", "pause('sometimes')"):
        with pytest.raises(MatlabError):
            interp.eval(bad)


def test_pause_without_a_terminal_does_not_wait_for_a_key():
    interp, out, _ = session("")
    interp.eval("pause")
    assert out.getvalue() == ""


def test_more_and_beep_print_nothing_off_a_terminal():
    interp, out, _ = session("")
    interp.eval("more off; more on; beep")
    assert out.getvalue() == ""
