"""The training progress monitor's figure: its metrics drawn as they are recorded.

When figures are being produced, a ``trainingProgressMonitor`` draws its metrics in a
figure of its own: one subplot a panel of ``monitor.subplots()`` (a ``groupSubPlot``
group, or an ungrouped metric), one line a metric, the panel's y scale (``yscale``), the
monitor's ``XLabel``, and a line of text with the progress, the status and the ``Info``
values.  The figure is brought up to date at most once a second (the monitor's clock),
at once when the monitor forces its progress line (Progress reaching 100, a new Status,
Stop), and when the program ends; then the graphics core shows it (windows) or writes it
(files, throttled by the core as drawnow is).  The progress line on stderr is printed as
without graphics.

THE RULE (when a monitor draws): figures are being produced when the session's graphics
were configured by the front end to show windows (a display) or to write into a folder
it was given (``mlang --figures DIR``).  In the default headless mode (no display, no
``--figures``), ``./figures`` is written only for figures the program makes itself, so a
monitor draws nothing there, and a session without graphics (a bare interpreter) never
draws: matplotlib is not imported for a monitor unless figures are on.

The figure does not become the current figure (``gcf`` stays the program's own), has
HandleVisibility 'off' and the Name 'Training Progress', and takes the lowest free
figure number from ``FIRST_NUMBER`` on, so the program's own ``figure(1)``... stay free.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.graphics.figure_axes import Axes, Legend
from mlang.builtins.graphics.figures import new_figure
from mlang.builtins.graphics.lines import Line
from mlang.builtins.graphics.output import refresh
from mlang.builtins.graphics.state import FAMILY as GRAPHICS_FAMILY
from mlang.builtins.graphics.state import graphics_state
from mlang.values.core import char_row

UPDATE_INTERVAL = 1.0  # seconds between two updates of the figure
FIRST_NUMBER = 100  # the monitor's figure number, or the next free one after it


def figures_on(interp: Any) -> bool:
    """Whether the session produces figures a monitor should draw in (the module's rule),
    decided from the graphics core's state without making it."""
    state = interp.family_state.get(GRAPHICS_FAMILY)
    if state is None:
        return False
    return bool(state.windows or (state.write_files and state.figures_requested))


def attach(interp: Any, monitor: Any) -> MonitorPlots | None:
    """The plots of a new monitor, or None when figures are off."""
    return MonitorPlots(interp, monitor) if figures_on(interp) else None


class MonitorPlots:
    """A monitor's figure: made on the first update, rebuilt when the panels change,
    never remade once the user closed it."""

    def __init__(self, interp: Any, monitor: Any) -> None:
        self.interp = interp
        self.monitor = monitor
        self.figure: Any = None
        self.closed = False
        self.layout: list[tuple[str, list[str], str]] = []
        self.axes: list[Any] = []
        self.lines: dict[str, Any] = {}
        self.info_text: Any = None
        self.last_update: float | None = None
        self.pending = False
        self.updates = 0  # how many times the figure was brought up to date
        # the last values are drawn before the core writes the figures at the end
        interp.at_end.insert(0, self.flush)

    # ------------------------------------------------------------ when

    def changed(self, force: bool = False) -> None:
        """The monitor changed: update now, or within a second."""
        if self.closed or not self.monitor.visible:
            return
        now = self.monitor.clock()
        if force or self.last_update is None or now - self.last_update >= UPDATE_INTERVAL:
            self.update(now)
        else:
            self.pending = True

    def flush(self) -> None:
        if self.pending and not self.closed and self.monitor.visible:
            self.update(self.monitor.clock())

    # ------------------------------------------------------------ drawing

    def update(self, now: float) -> None:
        """Bring the figure up to date with the monitor, then let the core show or write it."""
        self.last_update = now
        self.pending = False
        if self.figure is not None and not self.figure.valid:
            self.closed = True  # closed by the user: not drawn again
            return
        if self.figure is None:
            self.figure = self._new_figure()
        panels = self.monitor.subplots()
        if panels != self.layout:
            self._build(panels)
        history = self.monitor.history()
        for name, line in self.lines.items():
            points = history.get(name, [])
            line.xdata = np.array([p[0] for p in points], dtype=float)
            line.ydata = np.array([p[1] for p in points], dtype=float)
            line.update_data()
        for axes in self.axes:
            axes.labels["XLabel"].set_value("String", char_row(self.monitor.xlabel))
        if self.info_text is not None:  # a monitor without metrics has no panels yet
            self.info_text.set_text(self._info_line())
        self.figure.changed()
        self.updates += 1
        refresh(self.interp)

    def _new_figure(self) -> Any:
        state = graphics_state(self.interp)
        previous = state.current_figure
        number = FIRST_NUMBER
        while number in state.figures:
            number += 1
        figure = new_figure(self.interp, number)
        state.current_figure = previous  # the program's gcf stays its own
        figure.set_value("Name", char_row("Training Progress"))
        figure.set_value("NumberTitle", char_row("off"))
        figure.set_value("HandleVisibility", char_row("off"))
        return figure

    def _build(self, panels: list[tuple[str, list[str], str]]) -> None:
        """One axes a panel (two columns beyond two panels), one line a metric."""
        figure = self.figure
        current = figure.current_axes
        for axes in self.axes:
            axes.delete()
        self.axes, self.lines, self.layout = [], {}, panels
        cols = 1 if len(panels) <= 2 else 2
        rows = max(1, math.ceil(len(panels) / cols))
        left, bottom, width, height = 0.1, 0.17, 0.85, 0.74  # room below for the info line
        gap_x, gap_y = 0.12, 0.2  # room for a panel's x-label above the title below
        cell_w = (width - (cols - 1) * gap_x) / cols
        cell_h = (height - (rows - 1) * gap_y) / rows
        for k, (title, metrics, scale) in enumerate(panels):
            row, col = divmod(k, cols)
            position = (left + col * (cell_w + gap_x), bottom + (rows - 1 - row) * (cell_h + gap_y),
                        cell_w, cell_h)
            axes = Axes(figure, position)
            axes.labels["Title"].set_value("String", char_row(title))
            axes.labels["Title"].set_value("Interpreter", char_row("none"))
            axes.artist.grid(True, linewidth=0.3, alpha=0.5)
            made = []
            for metric in metrics:
                line = Line(axes, np.zeros(0), np.zeros(0), color=axes.next_color())
                line.set_value("LineWidth", 1.0)
                line.set_value("DisplayName", char_row(metric))
                axes.add(line)
                self.lines[metric] = line
                made.append((line, metric))
            if scale == "log":
                axes.set_value("YScale", char_row("log"))
            if len(made) > 1:
                Legend(axes, made)
            self.axes.append(axes)
        figure.current_axes = current if current is not None and current.valid else None
        if self.info_text is None:
            self.info_text = figure.artist.text(0.01, 0.012, "", fontsize=8, ha="left", va="bottom")

    def _info_line(self) -> str:
        """Progress, status and the latest Info values, as one line of text."""
        monitor = self.monitor
        parts = [f"Progress: {monitor.progress:.0f}%", f"Status: {monitor.status}"]
        if monitor.stop:
            parts.append("Stop requested")
        infos = monitor.info_history()
        for name in monitor.info:
            values = infos.get(name)
            if values:
                value = values[-1]
                parts.append(f"{name}: {value if isinstance(value, str) else f'{value:.4g}'}")
        return "    ".join(parts)
