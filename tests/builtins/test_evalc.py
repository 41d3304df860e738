"""evalc: eval that returns what the code would have written to the Command Window."""

from __future__ import annotations

import io

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import char_rows


def _session() -> tuple[Interpreter, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    return Interpreter(stdout=out, stderr=err), out, err


def _text(interp: Interpreter, name: str) -> str:
    value = interp.base.vars[name]
    return "".join(char_rows(value)) if value.size else ""


def test_results_hold_what_display_would_print_and_nothing_reaches_the_window():
    interp, out, _ = _session()
    interp.eval("s = evalc('magic(3)'); x = 4; t = evalc('x');")
    assert _text(interp, "s") == "\nans =\n\n     8     1     6\n     3     5     7\n     4     9     2\n\n"
    assert _text(interp, "t") == "\nx =\n\n     4\n\n"
    assert interp.base.vars["s"].shape[0] == 1  # one char row, lines separated by newlines
    assert out.getvalue() == ""


def test_printing_functions_and_warnings_are_captured():
    interp, out, err = _session()
    interp.eval("s = evalc('fprintf(''%d\\n'', 1:3); disp(''hi''); warning(''my:id'', ''careful'')');")
    assert _text(interp, "s") == "1\n2\n3\nhi\nWarning: careful\n"
    assert out.getvalue() == "" and err.getvalue() == ""
    interp.eval("[msg, id] = lastwarn();")
    assert _text(interp, "id") == "my:id"


def test_quiet_code_gives_an_empty_char_and_runs_in_the_callers_workspace():
    interp, _, _ = _session()
    interp.eval("s = evalc('y = 5;'); c = class(s);")
    assert interp.base.vars["s"].shape == (0, 0)
    assert _text(interp, "c") == "char"
    assert interp.base.vars["y"] == 5.0


def test_outputs_of_the_expression_follow_the_results():
    interp, _, _ = _session()
    interp.eval("[s, m, i] = evalc('max([3 9 2])'); [s2, v] = evalc('numel(''abcd'')');")
    assert interp.base.vars["m"] == 9.0 and interp.base.vars["i"] == 2.0
    assert interp.base.vars["v"] == 4.0
    assert interp.base.vars["s"].shape == (0, 0) and interp.base.vars["s2"].shape == (0, 0)


def test_an_error_propagates_and_output_goes_back_to_the_window():
    interp, out, _ = _session()
    with pytest.raises(MatlabError) as caught:
        interp.eval("evalc('disp(1); error(''a:b'', ''bad'')')")
    assert caught.value.identifier == "a:b"
    interp.eval("disp('after')")
    assert out.getvalue() == "after\n"
    interp.eval("try, evalc('1 +'), catch e, disp(e.identifier), end")
    interp.eval("try, eval('1 +'), catch e, disp(e.identifier), end")
    lines = out.getvalue().splitlines()
    assert lines[0] == "after" and lines[1] == lines[2] and lines[1].startswith("MATLAB:m_")


def test_inside_a_function_the_functions_workspace_is_used(tmp_path):
    (tmp_path / "capture_it.m").write_text(
        "function r = capture_it(v)\n  r = evalc('w = v * 2');\n  r = [r, sprintf('%g', w)];\nend\n")
    interp, _, _ = _session()
    interp.eval(f"addpath('{tmp_path}'); r = capture_it(21);")
    assert _text(interp, "r") == "\nw =\n\n    42\n\n42"


def test_text_must_be_a_char_row_or_string():
    interp, _, _ = _session()
    with pytest.raises(MatlabError):
        interp.eval("evalc(5)")
    interp.eval("s = evalc(\"disp(7)\");")
    assert _text(interp, "s") == "     7\n\n"  # as disp(7) prints it
    assert np.asarray(interp.base.vars["s"]).dtype.kind == "V"
