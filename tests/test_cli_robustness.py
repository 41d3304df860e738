"""Front-end robustness: internal errors keep their Python frames for --debug."""

from __future__ import annotations

import io

from mlang.evaluation.compiler import expressions
from mlang.evaluation.interpreter import Interpreter
from mlang.frontends.reporting import run_reported


def test_debug_traceback_shows_where_the_python_exception_was_raised(monkeypatch):
    def broken_colon_range(*args: object) -> None:
        raise ZeroDivisionError("deliberately broken")

    monkeypatch.setattr(expressions, "colon_range", broken_colon_range)
    err = io.StringIO()
    interp = Interpreter(stdout=io.StringIO(), stderr=err)
    stopped = run_reported(interp, lambda: interp.eval("x = 1:3;"), debug=True)
    assert stopped is not None
    report = err.getvalue()
    assert report.startswith("mlang internal error (a bug in mlang, not in your code): "
                             "ZeroDivisionError: deliberately broken")
    assert "in broken_colon_range" in report
    assert 'raise ZeroDivisionError("deliberately broken")' in report
