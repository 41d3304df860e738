"""eval of text that does not parse raises an error that try/catch catches."""

from __future__ import annotations

import io

from mlang.evaluation.interpreter import Interpreter


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
