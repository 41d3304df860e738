"""Animated lines: animatedline, addpoints, clearpoints, getpoints.

An ``AnimatedLine`` is a line that grows: ``addpoints`` appends points (the oldest are
dropped beyond ``MaximumNumPoints``), ``getpoints`` reads them back and ``clearpoints``
empties it.  Like ``line``, ``animatedline`` adds to the axes whatever ``hold`` says.
The points live in over-allocated buffers, so a training loop adding one point an
iteration costs O(1) per point; the figure is drawn (or its file written) by
``drawnow``, which throttles file writing (``output.refresh``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.figure_axes import Axes
from mlang.builtins.graphics.figures import current_axes
from mlang.builtins.graphics.handles import GraphicsHandle, Prop, define_properties
from mlang.builtins.graphics.lines import LINE_PROPERTIES
from mlang.builtins.graphics.plot_args import apply_options, leading_axes, option_pairs
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of, to_double_array

DEFAULT_MAXIMUM_POINTS = 1_000_000
_NUMERIC = ("double", "single", "logical")


class AnimatedLine(GraphicsHandle):
    """A line whose points are added over time: ``count`` points in the buffers ``xs``,
    ``ys`` and ``zs`` (``zs`` used in 3-D only), drawn by one matplotlib Line2D."""

    matlab_class = "matlab.graphics.animation.AnimatedLine"
    display_name = "AnimatedLine"
    type_name = "animatedline"
    display_order = ("Color", "LineStyle", "LineWidth", "Marker", "MarkerSize", "MarkerFaceColor",
                     "MaximumNumPoints")
    __slots__ = ("xs", "ys", "zs", "count", "three_d")

    def __init__(self, axes: Axes, color: tuple[float, float, float], three_d: bool) -> None:
        super().__init__(axes)
        self.three_d = three_d
        self.count = 0
        self.xs = np.empty(16)
        self.ys = np.empty(16)
        self.zs = np.empty(16)
        empty = np.zeros(0)
        if three_d:
            (self.artist,) = axes.artist.plot(empty, empty, empty, color=color, linewidth=0.5,
                                              markersize=6, markerfacecolor="none")
        else:
            (self.artist,) = axes.artist.plot(empty, empty, color=color, linewidth=0.5,
                                              markersize=6, markerfacecolor="none")
        self.stored["Color"] = np.array([list(color)])
        self.apply_defaults()

    # ------------------------------------------------------------ the points

    def points(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = self.count
        return self.xs[:n], self.ys[:n], self.zs[:n]

    def add_points(self, x: np.ndarray, y: np.ndarray, z: np.ndarray | None) -> None:
        """Append points, keeping the newest ``MaximumNumPoints``."""
        limit = int(self.get_value("MaximumNumPoints"))
        if x.size > limit:
            x, y = x[-limit:], y[-limit:]
            z = z[-limit:] if z is not None else None
        needed = self.count + x.size
        dropped = needed > limit
        if dropped:  # drop the oldest
            keep = limit - x.size
            start = self.count - keep
            for buffer in (self.xs, self.ys, self.zs):
                buffer[:keep] = buffer[start:self.count].copy()
            self.count = keep
            needed = limit
        if needed > self.xs.size:
            size = max(needed, 2 * self.xs.size)
            self.xs, self.ys, self.zs = (np.resize(b, size) for b in (self.xs, self.ys, self.zs))
        end = self.count + x.size
        self.xs[self.count:end] = x
        self.ys[self.count:end] = y
        self.zs[self.count:end] = z if z is not None else 0.0
        self.count = end
        self.redraw(new=None if dropped else (x, y))

    def clear_points(self) -> None:
        self.count = 0
        self.redraw()

    def trim(self) -> None:
        """A smaller MaximumNumPoints keeps the newest points."""
        limit = int(self.get_value("MaximumNumPoints"))
        if self.count > limit:
            start = self.count - limit
            for buffer in (self.xs, self.ys, self.zs):
                buffer[:limit] = buffer[start:self.count].copy()
            self.count = limit
            self.redraw()

    def redraw(self, new: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        """Give the artist the points and let the axes' automatic limits follow them:
        ``new``, the points just appended, widen the data limits (O(points added));
        otherwise they are measured again.  The view limits are worked out when the axes
        are next drawn or read, so a loop adding a point at a time stays fast."""
        x, y, z = self.points()
        if self.three_d:
            self.artist.set_data_3d(x.copy(), y.copy(), z.copy())
        else:
            self.artist.set_data(x, y)  # (Line2D keeps copies)
        axes = self.axes()
        if axes is not None:
            ax = axes.artist
            if new is not None and not self.three_d:
                finite = np.isfinite(new[0]) & np.isfinite(new[1])
                if finite.any():
                    ax.update_datalim(np.column_stack([new[0][finite], new[1][finite]]))
            else:
                ax.relim()
            request = getattr(ax, "_request_autoscale_view", None)
            if request is not None and not self.three_d:
                request()  # matplotlib's lazy autoscaling: done at the next draw
            else:
                ax.autoscale_view()
        self.changed()


def _set_maximum(h: AnimatedLine, value: Any) -> Any:
    number = pv.positive_number(value, "MaximumNumPoints")
    if number != int(number) or number < 1:
        raise pv.bad_value("MaximumNumPoints", "Value must be a positive integer.")
    h.stored["MaximumNumPoints"] = float(number)
    h.trim()
    return float(number)


define_properties(AnimatedLine, {
    **{name: prop for name, prop in LINE_PROPERTIES.items() if name not in ("XData", "YData", "ZData")},
    "MaximumNumPoints": Prop(set=_set_maximum, default=float(DEFAULT_MAXIMUM_POINTS)),
})


# ---------------------------------------------------------------- reading arguments


def _vector(value: Any, function: str) -> np.ndarray:
    """Point coordinates: a real numeric vector (or scalar) as floats."""
    cls = class_of(value)
    if cls not in _NUMERIC and not cls.startswith(("int", "uint")):
        raise error(f"MATLAB:{function}:InvalidData",
                    "Point coordinates must be numeric vectors.")
    data = to_double_array(value)
    if np.iscomplexobj(data):
        data = data.real  # as plot does: complex coordinates give their real parts
    if data.size and min(data.shape) > 1:
        raise error(f"MATLAB:{function}:InvalidData", "Point coordinates must be vectors.")
    return np.asarray(data, dtype=float).ravel(order="F")


def _coordinates(values: list, function: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """x, y (and z) vectors of equal length."""
    vectors = [_vector(v, function) for v in values]
    if len({v.size for v in vectors}) != 1:
        raise error(f"MATLAB:{function}:MismatchedSizes",
                    "The X, Y (and Z) data must have the same number of points.")
    return vectors[0], vectors[1], vectors[2] if len(vectors) == 3 else None


def _animated_line(value: Any, function: str) -> AnimatedLine:
    if isinstance(value, AnimatedLine):
        if not value.valid:
            raise error("MATLAB:class:InvalidHandle", "Invalid or deleted object.")
        return value
    raise error(f"MATLAB:{function}:InvalidHandle", "First argument must be an animated line.")


# ---------------------------------------------------------------- the functions


@builtin("animatedline", interp=True, nargout=True, max_out=1, dl="data")
def animatedline(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """animatedline  create an animated line.

    an = animatedline creates a line with no points in the current axes; add points
    with addpoints(an, x, y) in a loop and show them with drawnow (or drawnow
    limitrate).  an = animatedline(x, y) and animatedline(x, y, z) start with points;
    animatedline(..., Name, Value) sets properties: Color, LineStyle, LineWidth,
    Marker, MarkerSize, MarkerFaceColor, DisplayName, MaximumNumPoints (default
    1000000: beyond it the oldest points are dropped).  animatedline(ax, ...) uses the
    axes ax.  The line is added to the axes whatever hold says."""
    axes, rest = leading_axes(args)
    data = []
    while rest and len(data) < 3 and not pv.is_text_value(rest[0]):
        data.append(rest.pop(0))
    if len(data) == 1:
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    pairs = option_pairs(rest, "animatedline")
    x, y, z = _coordinates(data, "animatedline") if data else (None, None, None)
    axes = axes or current_axes(interp)
    three_d = z is not None or axes.is_3d
    if three_d:
        axes.ensure_3d()
    line = AnimatedLine(axes, axes.next_color(), three_d)
    # MaximumNumPoints first: it decides how many of the initial points are kept
    pairs.sort(key=lambda pair: pair[0].lower() != "maximumnumpoints")
    apply_options(line, pairs, "animatedline")
    axes.add(line)
    if x is not None:
        line.add_points(x, y, z)
    return line if nargout else None


@builtin("addpoints", max_out=0, dl="data")
def addpoints(an: Any, x: Any, y: Any, z: Any = None) -> None:
    """addpoints  add points to an animated line.

    addpoints(an, x, y) appends the points (x, y) to the animated line an (x and y
    scalars or vectors of the same length); addpoints(an, x, y, z) in 3-D.  Call
    drawnow to show them."""
    line = _animated_line(an, "addpoints")
    values = [x, y] if z is None else [x, y, z]
    px, py, pz = _coordinates(values, "addpoints")
    if pz is None and line.three_d:
        pz = np.zeros_like(px)
    line.add_points(px, py, pz if line.three_d else None)


@builtin("clearpoints", max_out=0, dl="data")
def clearpoints(an: Any) -> None:
    """clearpoints  remove every point of an animated line.

    clearpoints(an) empties the animated line an; the line itself stays."""
    _animated_line(an, "clearpoints").clear_points()


@builtin("getpoints", nargout=True, max_out=3, dl="data")
def getpoints(an: Any, *, nargout: int = 1) -> tuple:
    """getpoints  the points of an animated line.

    [x, y] = getpoints(an) gives the points of the animated line an as row vectors;
    [x, y, z] = getpoints(an) also the z coordinates (zeros in 2-D)."""
    line = _animated_line(an, "getpoints")
    x, y, z = line.points()
    rows = [np.array(v, dtype=float).reshape(1, -1) for v in (x, y, z)]
    return tuple(rows[:max(nargout, 1)])

