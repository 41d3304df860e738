"""Lines: the Line object, plot, plot3, line, semilogx, semilogy, loglog.

A plot function takes the axes (a leading axes argument, else gca), lets the axes
prepare for a new plot (hold off: cleared and reset), makes one ``Line`` a data series
with the next colour of the axes' colour order unless the line spec names one, applies
the spec and the name=value options through the property table, and registers each
line with ``axes.add``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.figure_axes import Axes
from mlang.builtins.graphics.figures import current_axes
from mlang.builtins.graphics.handles import (
    GraphicsArray,
    GraphicsHandle,
    Prop,
    define_properties,
    set_display_name,
    simplify,
)
from mlang.builtins.graphics.plot_args import (
    MARKERS,
    Series,
    apply_options,
    apply_spec,
    leading_axes,
    option_pairs,
    xy_groups,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row


class Line(GraphicsHandle):
    """A line of an axes: its data (``xdata``, ``ydata``, ``zdata`` float vectors; zdata
    empty in 2-D) and a matplotlib Line2D (a 3-D line in 3-D axes)."""

    matlab_class = "matlab.graphics.chart.primitive.Line"
    display_name = "Line"
    type_name = "line"
    display_order = ("Color", "LineStyle", "LineWidth", "Marker", "MarkerSize", "MarkerFaceColor",
                     "XData", "YData", "ZData")
    __slots__ = ("xdata", "ydata", "zdata")

    def __init__(self, axes: Axes, x: np.ndarray, y: np.ndarray, z: np.ndarray | None = None,
                 color: tuple[float, float, float] = tuple(pv.COLOR_ORDER[0])) -> None:  # type: ignore[assignment]
        if z is not None:
            axes.ensure_3d()  # before joining the axes: the change to 3-D deletes its children
        super().__init__(axes)
        self.xdata = np.asarray(x, dtype=float).ravel()
        self.ydata = np.asarray(y, dtype=float).ravel()
        self.zdata = np.asarray(z, dtype=float).ravel() if z is not None else np.zeros(0)
        if z is not None:
            (self.artist,) = axes.artist.plot(self.xdata, self.ydata, self.zdata, color=color,
                                              linewidth=0.5, markersize=6, markerfacecolor="none")
        else:
            (self.artist,) = axes.artist.plot(self.xdata, self.ydata, color=color, linewidth=0.5,
                                              markersize=6, markerfacecolor="none")
        self.stored["Color"] = np.array([list(color)])
        self.stored["MarkerEdgeColor"] = char_row("auto")
        self.apply_defaults()

    def update_data(self) -> None:
        """Give the artist the data again (lengths that differ draw nothing, as in MATLAB)."""
        x, y, z = self.xdata, self.ydata, self.zdata
        axes = self.axes()
        if x.size != y.size or (axes is not None and axes.is_3d and z.size not in (0, x.size)):
            x = y = z = np.zeros(0)
        if axes is not None and axes.is_3d:
            self.artist.set_data_3d(x, y, z if z.size else np.zeros_like(x))
        else:
            self.artist.set_data(x, y)
        if axes is not None:
            axes.artist.relim()
            axes.artist.autoscale_view()

    def to_3d(self) -> None:
        """Draw the line again in its axes, which became 3-D (view(3)): at z = 0 unless
        it has ZData, looking as it did."""
        old = self.artist
        (self.artist,) = self.axes().artist.plot([], [], [])
        copied = ("color", "linestyle", "linewidth", "marker", "markersize", "markerfacecolor",
                  "markeredgecolor", "markeredgewidth", "alpha", "visible", "label", "zorder",
                  "drawstyle", "clip_on")
        self.artist.update({name: getattr(old, f"get_{name}")() for name in copied})
        old.remove()
        self.update_data()


def _data_prop(axis: str) -> Prop:
    def read(h: Line) -> Any:
        data = getattr(h, f"{axis}data")
        return pv.row_value(data) if data.size else np.zeros((1, 0))

    def write(h: Line, value: Any) -> None:
        setattr(h, f"{axis}data", pv.real_vector(value, f"{axis.upper()}Data"))
        h.update_data()

    return Prop(get=read, set=write)


def _set_line_color(h: Line, value: Any) -> Any:
    color = pv.parse_color(value, "Color")
    h.artist.set_color(pv.mpl_color(color))
    if pv.text_value(h.stored.get("MarkerEdgeColor", char_row("auto")), "") == "auto":
        h.artist.set_markeredgecolor(pv.mpl_color(color))
    return pv.color_value(color)


def _set_line_style(h: Line, value: Any) -> Any:
    style = pv.choice(value, "LineStyle", ("-", "--", ":", "-.", "none"))
    h.artist.set_linestyle("None" if style == "none" else style)
    return char_row(style)


def _set_marker(h: Line, value: Any) -> Any:
    marker = pv.choice(value, "Marker", ("none", *MARKERS))
    h.artist.set_marker("None" if marker == "none" else MARKERS[marker])
    return char_row(marker)


def _set_marker_face(h: Line, value: Any) -> Any:
    color = pv.parse_color(value, "MarkerFaceColor", ("none", "auto"))
    if color == "auto":
        h.artist.set_markerfacecolor(h.artist.get_color())
    else:
        h.artist.set_markerfacecolor(pv.mpl_color(color))
    return pv.color_value(color)


def _set_marker_edge(h: Line, value: Any) -> Any:
    color = pv.parse_color(value, "MarkerEdgeColor", ("none", "auto"))
    h.artist.set_markeredgecolor(h.artist.get_color() if color == "auto" else pv.mpl_color(color))
    return pv.color_value(color)


def _set_width(h: Line, value: Any) -> Any:
    width = pv.positive_number(value, "LineWidth")
    h.artist.set_linewidth(width)
    return width


def _set_marker_size(h: Line, value: Any) -> Any:
    size = pv.positive_number(value, "MarkerSize")
    h.artist.set_markersize(size)
    return size


def _set_clipping(h: Line, value: Any) -> Any:
    flag = pv.on_off(value, "Clipping")
    h.artist.set_clip_on(flag)
    return pv.on_off_value(flag)


LINE_PROPERTIES = {
    "XData": _data_prop("x"), "YData": _data_prop("y"), "ZData": _data_prop("z"),
    "Color": Prop(set=_set_line_color),
    "LineStyle": Prop(set=_set_line_style, default=char_row("-")),
    "LineWidth": Prop(set=_set_width, default=0.5),
    "Marker": Prop(set=_set_marker, default=char_row("none")),
    "MarkerSize": Prop(set=_set_marker_size, default=6.0),
    "MarkerFaceColor": Prop(set=_set_marker_face, default=char_row("none")),
    "MarkerEdgeColor": Prop(set=_set_marker_edge, default=char_row("auto")),
    "DisplayName": Prop(set=set_display_name, default=char_row("")),
    "Clipping": Prop(set=_set_clipping, default=char_row("on")),
    "SeriesIndex": Prop(set=lambda h, v: pv.positive_number(v, "SeriesIndex"), default=1.0),
}
define_properties(Line, LINE_PROPERTIES)


# ---------------------------------------------------------------- the functions


def draw_lines(interp: Any, args: tuple, function: str, dims: int = 2,
               scales: tuple[str, str] | None = None) -> list[Line]:
    """What plot, plot3 and the log plots do: one Line a data series, in the target axes."""
    axes, rest = leading_axes(args)
    if not rest:
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    series, options = xy_groups(rest, function, dims)
    pairs = option_pairs(options, function)
    if not series:
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    axes = axes or current_axes(interp)
    was_held = axes.held
    axes.prepare_plot()
    if dims == 3:
        axes.ensure_3d()
    if scales is not None and not was_held:
        axes.set_value("XScale", char_row(scales[0]))
        axes.set_value("YScale", char_row(scales[1]))
    lines = [_new_line(axes, s, pairs) for s in series]
    return lines


def _new_line(axes: Axes, series: Series, pairs: list[tuple[str, Any]]) -> Line:
    color = series.spec.color if series.spec.color is not None else axes.next_color()
    line = Line(axes, series.x, series.y, series.z, color)
    apply_spec(line, series.spec)
    apply_options(line, pairs)
    axes.add(line)
    return line


def lines_value(lines: list[Line]) -> Any:
    """The handles a plot returns: a line, or a column of lines."""
    return simplify(list(lines), (len(lines), 1)) if lines else GraphicsArray([], (0, 1))


@builtin("plot", interp=True, nargout=True, max_out=1, dl="data")
def plot(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """plot  2-D line plot.

    plot(Y) plots the columns of Y against their index; plot(X, Y) plots Y against X
    (a matrix gives one line a column); plot(X1, Y1, LineSpec, X2, Y2, ...) plots several
    pairs, each with an optional line specification such as 'r--o' (colour, line style,
    marker).  Name=value options set line properties: LineWidth, Color, MarkerSize,
    MarkerFaceColor, DisplayName...  plot(ax, ...) plots into the axes ax.  With hold
    off, the plot replaces the axes' content; with hold on it is added, and the colours
    continue the axes' ColorOrder.  h = plot(...) returns the Line objects."""
    lines = draw_lines(interp, args, "plot")
    return lines_value(lines) if nargout else None


@builtin("plot3", interp=True, nargout=True, max_out=1, dl="data")
def plot3(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """plot3  3-D line plot.

    plot3(X, Y, Z) plots a line through the points (X, Y, Z); matrices give one line a
    column.  plot3(X, Y, Z, LineSpec, ...) and name=value options as for plot."""
    lines = draw_lines(interp, args, "plot3", dims=3)
    return lines_value(lines) if nargout else None


def _register_log_plot(name: str, scales: tuple[str, str], axis_words: str, help_end: str) -> None:
    """semilogx, semilogy and loglog: plot with the axes' scales set (unless hold is on)."""

    def log_plot(interp: Any, *args: Any, nargout: int = 0) -> Any:
        lines = draw_lines(interp, args, name, scales=scales)
        return lines_value(lines) if nargout else None

    log_plot.__name__ = name
    builtin(name, interp=True, nargout=True, max_out=1, dl="data", help=(
        f"{name}  plot with {axis_words}.\n\n{help_end}"))(log_plot)


_register_log_plot("semilogx", ("log", "linear"), "a logarithmic x-axis",
                   "semilogx(X, Y, ...) takes plot's arguments; the x-axis is logarithmic unless hold\n"
                   "is on.")
_register_log_plot("semilogy", ("linear", "log"), "a logarithmic y-axis",
                   "semilogy(X, Y, ...) takes plot's arguments; the y-axis is logarithmic unless hold\n"
                   "is on.")
_register_log_plot("loglog", ("log", "log"), "logarithmic x- and y-axes",
                   "loglog(X, Y, ...) takes plot's arguments; both axes are logarithmic unless hold is\n"
                   "on.")


@builtin("line", interp=True, nargout=True, max_out=1, dl="data")
def line(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """line  create a primitive line.

    line(X, Y) and line(X, Y, Z) add a line to the current axes, whatever hold says
    (a matrix gives one line a column); line('XData', x, 'YData', y, ...) gives the data
    as properties; further name=value options set line properties.  Lines made by line
    use the first colour of the colour order."""
    axes, rest = leading_axes(args)
    data = []
    while rest and len(data) < 3 and not pv.is_text_value(rest[0]):
        data.append(rest.pop(0))
    pairs = option_pairs(rest, "line")
    axes = axes or current_axes(interp)
    if len(data) == 1:
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    made: list[Line] = []
    if data:
        series, _ = xy_groups(data, "line", dims=len(data))
        color = tuple(float(c) for c in axes.color_order()[0])
        for s in series:
            made.append(Line(axes, s.x, s.y, s.z, color))  # type: ignore[arg-type]
    else:
        made.append(Line(axes, np.array([0.0, 1.0]), np.array([0.0, 1.0]), None,
                         tuple(float(c) for c in axes.color_order()[0])))  # type: ignore[arg-type]
    for handle in made:
        apply_options(handle, pairs, "line")
        axes.add(handle)
    return lines_value(made) if nargout else None
