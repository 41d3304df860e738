"""Talking with the user while code runs: input, pause, more, beep."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import text_option, text_or_none, text_scalar
from mlang.builtins.language.evaluation import run_code
from mlang.builtins.language.introspection import caller_frame
from mlang.builtins.text.printing import unescape
from mlang.errors import MatlabError, error, report
from mlang.registry import builtin
from mlang.values.core import CHAR, char_row, to_array


def _prompt_text(prompt: Any) -> str:
    return unescape(text_scalar(prompt, "Prompt"))  # \n starts a new line, \\ is a backslash


@builtin(interp=True)
def input(interp: Any, prompt: Any, mode: Any = None) -> Any:  # noqa: A001 (MATLAB's name)
    """x = input(prompt) shows prompt, waits for a line and evaluates it as MATLAB code in
    the caller's workspace (Enter alone gives []). An expression that fails is reported
    and the prompt comes again.

    txt = input(prompt, 's') returns the line as text without evaluating it."""
    text = _prompt_text(prompt)
    as_text = mode is not None
    if as_text and text_or_none(mode) != "s":
        raise error("MATLAB:input:invalidInput", "The second argument to INPUT must be 's'.")
    while True:
        line = interp.read_line(text)
        if line is None:
            raise error("MATLAB:input:endOfInput", "Input ended before a value was entered.")
        if as_text:
            return char_row(line) if line else np.empty((0, 0), dtype=CHAR)
        if not line.strip():
            return np.empty((0, 0))
        try:
            return run_code(interp, line, caller_frame(interp), 1)
        except MatlabError as exc:
            interp.err.write(report(exc.exc))
            interp.err.flush()


@builtin(interp=True, max_out=0)
def pause(interp: Any, what: Any = None) -> None:
    """pause waits for the user to press Enter (when there is a user to ask);
    pause(n) waits n seconds; pause('on'), pause('off') turn pausing on and off."""
    state = text_option(what)
    if state is not None:
        if state not in ("on", "off", "query"):
            raise error("MATLAB:pause:InvalidInput", "Input must be 'on', 'off' or 'query'.")
        if state != "query":
            interp.pause_enabled = state == "on"
        return None
    if not interp.pause_enabled:
        return None
    if what is None:
        if interp.is_terminal(interp.inp):
            interp.read_line()
        return None
    seconds = to_array(what)
    if seconds.size != 1 or not np.isrealobj(seconds) or np.isnan(seconds).any() or seconds.item() < 0:
        raise error("MATLAB:pause:InvalidInput", "Input must be a nonnegative real scalar.")
    if np.isinf(seconds).any():
        while True:  # pause(Inf): until Ctrl-C
            interp.wait(3600.0)
    interp.wait(float(seconds.item()))
    return None


@builtin(max_out=0)
def more(*args: Any) -> None:
    """more on / more off pages Command Window output in MATLAB; mlang never pages."""
    return None


@builtin(interp=True, max_out=0)
def beep(interp: Any, *args: Any) -> None:
    """beep sounds the terminal bell."""
    if interp.is_terminal(interp.out):
        interp.out.write("\a")  # no output of its own: the line is not touched
        interp.out.flush()
    return None
