"""Running MATLAB code in a fresh interpreter, for tests."""

from __future__ import annotations

import io

from mlang.evaluation.interpreter import Interpreter


def run(code: str) -> tuple[Interpreter, str]:
    """The interpreter after running ``code``, and what it printed."""
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    interp.eval(code)
    return interp, out.getvalue()
