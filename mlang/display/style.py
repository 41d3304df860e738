"""The display settings (``format``, ``format compact``, the window's width) and the
line forms every part of the display module shares."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Any

TIMES = "\u00d7"  # the Command Window writes sizes as 2×3
BLANK = None  # a blank line of format loose; format compact leaves it out
Line = str | None
WINDOW_WIDTH = 80  # the width used when output is not a terminal (batch runs, tests)
INDENT = "    "
STYLES = ("short", "long", "shortE", "longE", "shortG", "longG", "shortEng", "longEng",
          "bank", "hex", "rat", "+")


@dataclass(frozen=True, slots=True)
class Style:
    """The display settings in force: numeric format, line spacing, window width."""

    format: str = "short"
    compact: bool = False
    width: int = WINDOW_WIDTH


def style_of(interp: Any) -> Style:
    """The interpreter's current display settings."""
    return _style(interp.format, bool(interp.compact), _window_width(interp.out))


@functools.lru_cache(maxsize=64)
def _style(fmt: str, compact: bool, width: int) -> Style:
    # (Styles are frozen: one made per setting spares a dataclass construction per display)
    return Style(fmt, compact, width)


def _window_width(out: Any) -> int:
    try:
        if out.isatty():
            columns = os.get_terminal_size(out.fileno()).columns
            return columns if columns > 0 else WINDOW_WIDTH  # a terminal that does not say
    except (AttributeError, OSError, ValueError):
        pass
    return WINDOW_WIDTH
