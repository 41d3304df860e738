"""A session's graphics: its root object, figures by number, the current ones, output.

Everything lives in ``interp.family_state["graphics"]`` (a ``GraphicsState``), so two
interpreters in one process never share a figure.  Making the state imports nothing
heavy: matplotlib loads when the first figure is made.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

FAMILY = "graphics"
DRAWNOW_INTERVAL = 3.0  # seconds between two writes of the figure files by drawnow


@dataclass
class GraphicsState:
    """The graphics of one session.

    * ``figures``: open figures by number; ``current_figure``: gcf (None: none yet);
    * ``windows``: figures open in windows (pyplot) rather than on Agg canvases;
    * ``figures_dir``: where figure files go (None: ``./figures``); ``write_files``:
      whether open figures are written at the end and on drawnow (a front end turns it on
      with ``configure``: a bare interpreter writes no files); ``wait``: whether the end
      of the program waits for windows to close;
    * ``clock``: seconds (monotonic), replaced in tests; ``last_write``: when drawnow last
      wrote the files; ``written``: the files written, in order.
    """

    interp: Any
    root: Any = None
    figures: dict[int, Any] = field(default_factory=dict)
    current_figure: Any = None
    windows: bool = False
    figures_dir: str | None = None
    write_files: bool = False
    wait: bool = True
    interactive: bool = False
    clock: Callable[[], float] = time.monotonic
    last_write: float | None = None
    last_window_draw: float | None = None
    written: list[str] = field(default_factory=list)
    end_registered: bool = False
    drawnow_interval: float = DRAWNOW_INTERVAL
    # the front end named the folder (``--figures DIR``): figures are wanted even with no
    # plot of the program's own (a training monitor draws its plots then)
    figures_requested: bool = False

    def output_dir(self) -> str:
        return self.figures_dir if self.figures_dir is not None else "figures"

    def next_number(self) -> int:
        """The lowest figure number not in use."""
        number = 1
        while number in self.figures:
            number += 1
        return number


def graphics_state(interp: Any) -> GraphicsState:
    """The session's graphics state, made on first use (with its end-of-program action)."""
    state = interp.family_state.get(FAMILY)
    if state is None:
        state = interp.family_state[FAMILY] = GraphicsState(interp)
        wanted = interp.options.get("figures")  # what the front end asked for, if anything
        if wanted is not None:
            configure(interp, **wanted)
    if not state.end_registered:
        state.end_registered = True
        # figures are written (or windows waited for) when the program ends
        from mlang.builtins.graphics.output import after_statement, finish_figures  # (as above)

        interp.at_end.append(lambda: finish_figures(interp))
        interp.after_input.append(lambda: after_statement(interp))
    return state


def configure(interp: Any, figures_dir: str | None = None, wait: bool = True,
              windows: bool | None = False, interactive: bool = False,
              inline: bool = False) -> GraphicsState:
    """How a front end wants figures: in windows (None: when a display is available and
    no ``figures_dir`` is given), or written as files into ``figures_dir`` (``./figures``
    when None); ``wait``: wait at the end for windows to be closed; ``interactive``: a
    Command Window (figures are shown as they are drawn); ``inline``: a notebook takes
    each cell's figures itself (``inline.new_figure_images``) and no file is written.  A
    front end that does not load the graphics puts these in ``interp.options["figures"]``:
    they apply on first use."""
    if windows is None:
        from mlang.builtins.graphics.backend import has_display  # (as above)

        windows = has_display()
    state = graphics_state(interp)
    state.figures_dir = os.path.abspath(figures_dir if figures_dir is not None else "figures")
    state.windows = windows and figures_dir is None
    state.write_files = not state.windows and not inline  # inline: a notebook shows them (inline.py)
    state.figures_requested = figures_dir is not None
    state.wait = wait
    state.interactive = interactive
    if state.windows:
        from mlang.builtins.graphics.backend import wait_with_windows  # (as above)

        interp.wait = wait_with_windows
    return state
