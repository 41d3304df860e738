"""Figures shown inline by a notebook: after each cell, the PNG of every open figure that
the cell drew or changed.

A notebook front end (mlang.kernel) asks for inline figures before the graphics load
(``inline_options``); then no figure file is written and no window opens, and
``new_figure_images`` hands it the images to display.
"""

from __future__ import annotations

import io
from typing import Any

from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.state import FAMILY

# Pixels per inch of the images: a default figure (560 by 420 pixels) stays that size.
INLINE_DPI = 100.0


def inline_options() -> dict[str, Any]:
    """What ``interp.options["figures"]`` holds for a notebook (see state.configure)."""
    return {"figures_dir": None, "windows": False, "wait": False, "interactive": True,
            "inline": True}


def new_figure_images(interp: Any) -> list[tuple[int, bytes]]:
    """``(figure number, PNG bytes)`` for each open, visible figure changed since the last
    call, in figure-number order; each is then marked as shown."""
    state = interp.family_state.get(FAMILY)
    if state is None:
        return []
    images = []
    for number in sorted(state.figures):
        figure = state.figures[number]
        if not (figure.valid and figure.dirty and pv.on_off(figure.get_value("Visible"), "Visible")):
            continue
        page = figure.artist.get_facecolor() if "Color" in figure.stored else "white"
        buffer = io.BytesIO()
        figure.artist.savefig(buffer, format="png", dpi=INLINE_DPI, facecolor=page)
        figure.dirty = False
        images.append((number, buffer.getvalue()))
    return images
