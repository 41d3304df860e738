"""The ``format`` command: how the Command Window shows numbers, and its line spacing."""

from __future__ import annotations

from typing import Any

from mlang.builtins.coerce import text_scalar
from mlang.display import STYLES
from mlang.errors import error
from mlang.registry import builtin

# Style names are matched without regard to case; the older two-word forms
# (format long g, format short e) name the same styles.
_STYLE_OF = {name.lower(): name for name in STYLES}
_SPACING = {"compact": True, "loose": False}


@builtin(interp=True, max_out=0)
def format_(interp: Any, *args: Any) -> None:
    """format STYLE sets how numbers are displayed in the Command Window.

    format short     4 decimals (the default); format long: 15 (7 for single)
    format shortE    and longE: exponent notation
    format shortG    and longG: fixed or exponent, whichever is shorter
    format shortEng  and longEng: exponent a multiple of three
    format bank, format hex, format rat, format +
    format compact   leaves out blank lines; format loose puts them back
    format           alone resets to short and loose."""
    words = [_word(a) for a in args]
    if not words or words == ["default"]:
        interp.format = "short"
        interp.compact = False
        return
    key = "".join(words)
    if key in _SPACING:
        interp.compact = _SPACING[key]
    elif key in _STYLE_OF:
        interp.format = _STYLE_OF[key]
    else:
        raise error("MATLAB:format:UnknownStyle", f"Unknown display format '{' '.join(words)}'.")


def _word(arg: Any) -> str:
    return text_scalar(arg, "Display format").strip().lower()
