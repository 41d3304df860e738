"""matplotlib, loaded on the first graphics call, and where figures are drawn.

Figures drawn to files (no display, or ``--figures DIR``) are plain
``matplotlib.figure.Figure`` objects on an Agg canvas, made without pyplot, so two
interpreters in one process never share a figure.  Figures shown in windows go through
pyplot, which owns the window loop (one session per process does that: the ``mlang``
command).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import numpy as np


def has_display() -> bool:
    """Whether windows can be shown: a desktop session, and not a CI run."""
    if os.environ.get("CI"):
        return False
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def matplotlib() -> Any:
    """The matplotlib package, imported once, with mlang's look (MATLAB's defaults)."""
    # matplotlib on first use: keeps start-up fast
    import matplotlib as mpl

    if not getattr(mpl, "_mlang_configured", False):
        mpl.rcParams.update({
            "font.size": 10,
            "axes.titlesize": 11,
            "axes.labelsize": 11,
            "axes.titleweight": "bold",
            "axes.linewidth": 0.5,
            # MATLAB's automatic limits: the data's range widened to round tick values
            "axes.xmargin": 0.0,
            "axes.ymargin": 0.0,
            "axes.zmargin": 0.0,
            "axes.autolimit_mode": "round_numbers",
            "axes.formatter.useoffset": False,
            "xtick.direction": "in",
            "ytick.direction": "in",
            "xtick.top": True,
            "ytick.right": True,
            "lines.linewidth": 0.5,
            "lines.markersize": 6,
            "legend.fontsize": 9,
            "legend.fancybox": False,
            "legend.edgecolor": "0.15",
            "legend.framealpha": 1.0,
            "savefig.dpi": 100,
            "figure.dpi": 100,
            "image.cmap": "viridis",
            "mathtext.fontset": "cm",
        })
        mpl._mlang_configured = True  # type: ignore[attr-defined]
    return mpl


def windows_work() -> bool:
    """Whether pyplot found a window toolkit (with none it falls back to Agg)."""
    matplotlib()
    # pyplot on first use of a window: keeps start-up fast
    from matplotlib import pyplot

    return pyplot.get_backend().lower() not in NON_INTERACTIVE


NON_INTERACTIVE = ("agg", "pdf", "ps", "svg", "pgf", "cairo", "template", "module://matplotlib_inline.backend_inline")


def new_figure(width_px: float, height_px: float, windowed: bool, title: str) -> Any:
    """A matplotlib figure of that size in pixels (at 100 dpi): on an Agg canvas, or in a
    pyplot window."""
    matplotlib()
    size = (max(width_px, 1.0) / 100.0, max(height_px, 1.0) / 100.0)
    if windowed:
        # pyplot on first use of a window: keeps start-up fast
        from matplotlib import pyplot

        fig = pyplot.figure(figsize=size, dpi=100)
        manager = getattr(fig.canvas, "manager", None)
        if manager is not None:
            manager.set_window_title(title)
        pyplot.show(block=False)
        return fig
    # matplotlib on first use: keeps start-up fast
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, dpi=100)
    FigureCanvasAgg(fig)
    return fig


def close_window(fig: Any) -> None:
    """Close a figure's window (nothing for an Agg figure)."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close(fig)  # a figure pyplot does not manage is left alone


def set_window_title(fig: Any, title: str) -> None:
    manager = getattr(fig.canvas, "manager", None)
    if manager is not None:
        manager.set_window_title(title)


def refresh_windows(pause: float = 0.001) -> None:
    """Let the window loop draw pending changes (drawnow with windows)."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None and pyplot.get_fignums():
        pyplot.pause(pause)


def wait_with_windows(seconds: float) -> None:
    """pause(n) with windows open: they keep drawing and answering while it waits."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None and pyplot.get_fignums():
        pyplot.pause(seconds)
    else:
        time.sleep(seconds)


def wait_for_windows() -> None:
    """Block until every window is closed."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None and pyplot.get_fignums():
        pyplot.show(block=True)


def render_rgb(fig: Any) -> Any:
    """The figure drawn, as an H×W×3 uint8 array (rows top first)."""
    canvas = fig.canvas
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    return np.ascontiguousarray(rgba[:, :, :3])
