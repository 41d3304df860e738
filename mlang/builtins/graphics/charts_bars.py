"""Bar and area charts: the Bar and Area objects, bar, barh and area."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.charts_base import (
    ChartObject,
    bar_rectangles,
    bars_legend_artist,
    choice_prop,
    color_prop,
    fraction_prop,
    handles_value,
    leading_data,
    line_style_prop,
    mpl_color,
    mpl_line_style,
    not_enough_inputs,
    number_prop,
    numeric_data,
    prop,
    real_prop,
    row_of,
)
from mlang.builtins.graphics.figures import current_axes
from mlang.builtins.graphics.handles import Prop, define_properties
from mlang.builtins.graphics.images_color import axes_clim, axes_colormap, map_values, refresh_colors
from mlang.builtins.graphics.plot_args import leading_axes, option_pairs
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, is_text

BLACK = np.array([[0.0, 0.0, 0.0]])


def _data_prop(name: str) -> Prop:
    return prop(name, lambda v, n: row_of(pv.real_vector(v, n)), np.zeros((1, 0)))


def _x_y_matrix(data: list, function: str) -> tuple[np.ndarray, np.ndarray]:
    """The x positions and the y matrix (one column a series) of bar(y), bar(x, y),
    area(y), area(x, y)."""
    if len(data) == 1:
        y = numeric_data(data[0], function)
        if 1 in y.shape:
            y = y.reshape(-1, 1)
        return np.arange(1.0, y.shape[0] + 1), y
    x = numeric_data(data[0], function).ravel(order="F")
    y = numeric_data(data[1], function)
    if 1 in y.shape and y.size == x.size:
        y = y.reshape(-1, 1)
    elif y.shape[0] != x.size:
        if y.shape[1] == x.size:
            y = y.T
        else:
            raise error(f"MATLAB:{function}:XLengthMismatch" if function != "area" else
                        "MATLAB:area:XLengthMismatch",
                        "X must be same length as Y." if function != "area"
                        else "X must be the same length as Y.")
    return x, y


# ---------------------------------------------------------------- bar


class Bar(ChartObject):
    """A bar series: one bar an x position, beside (grouped) or on top of (stacked) the
    other series made by the same call (``group``)."""

    matlab_class = "matlab.graphics.chart.primitive.Bar"
    display_name = "Bar"
    type_name = "bar"
    display_order = ("BarLayout", "BarWidth", "FaceColor", "EdgeColor", "BaseValue", "XData", "YData")
    __slots__ = ("group", "mapping")

    def __init__(self, axes: Any, values: dict[str, Any]) -> None:
        super().__init__(axes, values)
        self.group: list[Bar] = [self]

    def geometry(self) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
        """The bars' centres, their bottoms, their width and their tops."""
        x, y = self.data("XData"), self.data("YData")
        if x.size != y.size:
            return np.zeros(0), np.zeros(0), 0.0, np.zeros(0)
        series = [b for b in self.group if b.valid]
        count = len(series)
        position = series.index(self) if self in series else 0
        spacing = float(np.min(np.diff(np.sort(x)))) if x.size > 1 else 1.0
        spacing = spacing if spacing > 0 else 1.0
        width = self.number("BarWidth")
        base = self.number("BaseValue")
        stacked = self.text("BarLayout") == "stacked"
        if stacked or count == 1:
            bar_width = width * spacing
            if not stacked or position == 0:
                return x, np.full(x.size, base), bar_width, y
            below = np.zeros(x.size)  # the earlier series' values of the same sign
            for other in series[:position]:
                values = other.data("YData")
                if values.size == y.size:
                    below = below + np.where(np.sign(values) == np.sign(y), values, 0.0)
            return x, below, bar_width, below + y
        group_width = min(0.8, count / (count + 1.5)) * spacing
        bar_width = group_width / count * width
        centres = x - group_width / 2 + (position + 0.5) * group_width / count
        return centres, np.full(x.size, base), bar_width, y

    def update(self, name: str, value: Any) -> Any:
        """A change may move the other series of the group (stacked, or the spacing)."""
        self.stored[name] = value
        for member in self.group:
            if member.valid:
                member.redraw()
        axes = self.axes()
        if name in ("CData", "FaceColor", "EdgeColor") and not self.drawing and axes is not None:
            refresh_colors(axes)  # the automatic colour limits follow the new values
        return value

    def color_values(self) -> np.ndarray | None:
        """CData as values (one a bar) mapped through the colormap, when the faces or edges
        are 'flat'; None for RGB colour data."""
        if "flat" not in (mpl_color(self.get_value("FaceColor")), mpl_color(self.get_value("EdgeColor"))):
            return None
        cdata = np.asarray(self.get_value("CData"), dtype=float)
        count = self.data("XData").size
        if cdata.ndim == 2 and cdata.shape[1] == 3 and cdata.shape[0] in (1, count):
            in_range = bool(np.all((cdata >= 0) & (cdata <= 1)))
            if cdata.shape[0] != 1 or count != 3 or in_range:
                return None  # RGB: one row a bar, or one for all
        return cdata.ravel() if cdata.size else None

    def color_data(self) -> np.ndarray | None:
        return self.color_values()

    def apply_colors(self, colors: np.ndarray, clim: tuple[float, float]) -> None:
        if self.color_values() is None:
            return
        self.mapping = (colors, clim)
        self.redraw()

    def flat_colors(self, count: int) -> list[tuple[float, ...]]:
        """Each bar's colour from CData: RGB rows, or values through the colormap and CLim."""
        values = self.color_values()
        if values is None:
            cdata = np.clip(np.asarray(self.get_value("CData"), dtype=float).reshape(-1, 3), 0, 1)
            return [tuple(cdata[k % len(cdata)]) for k in range(count)]
        mapping = getattr(self, "mapping", None)
        if mapping is None:
            axes = self.axes()
            mapping = (axes_colormap(axes), axes_clim(axes))
        rgb = map_values(values, *mapping)
        return [(0.0, 0.0, 0.0, 0.0) if np.isnan(rgb[k % len(rgb)]).any() else tuple(rgb[k % len(rgb)])
                for k in range(count)]

    def draw(self, ax: Any) -> list[Any]:
        centres, bottoms, width, tops = self.geometry()
        face = mpl_color(self.get_value("FaceColor"))
        if face == "flat":
            face = self.flat_colors(centres.size)
        edge = mpl_color(self.get_value("EdgeColor"))
        options = {"edgecolor": self.flat_colors(centres.size) if edge == "flat" else edge,
                   "linewidth": self.number("LineWidth"), "alpha": self.number("FaceAlpha"),
                   "linestyle": mpl_line_style(self.text("LineStyle"))}
        made = bar_rectangles(ax, centres - width / 2, np.full(centres.size, width), bottoms, tops - bottoms,
                              self.text("Horizontal") == "on", face, options)
        return made or [None]

    def legend_artist(self) -> Any:
        return bars_legend_artist(self.artists)


def _end_points(axis: str) -> Prop:
    def read(h: Bar) -> Any:
        centres, _, _, tops = h.geometry()
        return row_of(centres if axis == "x" else tops)
    return Prop(get=read)


def _bar_width(value: Any, name: str) -> float:
    number = pv.real_number(value, name)
    if not 0 < number <= 1:
        raise pv.bad_value(name, "Value must be a scalar between 0 and 1.")
    return number


def _set_bar_layout(h: Bar, value: Any) -> Any:
    layout = char_row(pv.choice(value, "BarLayout", ("grouped", "stacked")))
    for member in h.group:  # the layout is the group's
        member.stored["BarLayout"] = layout
        member.redraw()
    return layout


define_properties(Bar, {
    "XData": _data_prop("XData"), "YData": _data_prop("YData"),
    "XEndPoints": _end_points("x"), "YEndPoints": _end_points("y"),
    "BarWidth": prop("BarWidth", _bar_width, 0.8),
    "BarLayout": Prop(set=_set_bar_layout, default=char_row("grouped")),
    "BaseValue": real_prop("BaseValue", 0.0),
    "Horizontal": choice_prop("Horizontal", ("off", "on")),
    "FaceColor": color_prop("FaceColor", np.array([list(pv.COLOR_ORDER[0])]), ("none", "flat")),
    "EdgeColor": color_prop("EdgeColor", BLACK, ("none", "flat")),
    "FaceAlpha": fraction_prop("FaceAlpha", 1.0),
    "EdgeAlpha": fraction_prop("EdgeAlpha", 1.0),
    "LineWidth": number_prop("LineWidth", 0.5),
    "LineStyle": line_style_prop(),
    "CData": prop("CData", lambda v, n: numeric_data(v, "bar", "Color data")),
    "SeriesIndex": number_prop("SeriesIndex", 1.0),
    "ShowBaseLine": choice_prop("ShowBaseLine", ("on", "off")),
})

_LAYOUTS = ("grouped", "stacked", "hist", "histc")


def draw_bars(interp: Any, args: tuple, function: str) -> list[Bar]:
    """bar(y), bar(x, y), then width, layout, colour, name=value options."""
    axes, rest = leading_axes(args)
    data, rest = leading_data(rest)
    if not data:
        raise not_enough_inputs()
    width = None
    if len(data) == 3 or (len(data) == 2 and np.size(data[1]) == 1 and np.size(data[0]) > 1):
        width = data.pop()
    if len(data) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    layout = "grouped"
    color = None
    while rest and is_text(rest[0]):
        word = pv.text_value(rest[0], "").lower()
        if word in _LAYOUTS:
            layout = "stacked" if word == "stacked" else "grouped"
            width = 1.0 if word in ("hist", "histc") else width
        elif word in pv.COLOR_NAMES:
            color = word
        else:
            break
        rest.pop(0)
    pairs = option_pairs(rest, function)
    x, y = _x_y_matrix(data, function)
    if width is not None:
        _bar_width(width, "BarWidth")
    axes = axes or current_axes(interp)
    axes.prepare_plot()
    group: list[Bar] = []
    for column in range(y.shape[1]):
        values = {"XData": row_of(x), "YData": row_of(y[:, column]),
                  "BarLayout": char_row(layout),
                  "Horizontal": char_row("on" if function == "barh" else "off"),
                  "FaceColor": np.array([list(axes.next_color())])}
        bar_object = Bar(axes, values)
        bar_object.group = group
        group.append(bar_object)
        bar_object.drawing = True
        bar_object.stored["CData"] = np.tile(bar_object.stored["FaceColor"], (max(x.size, 1), 1))
        if width is not None:
            bar_object.set_value("BarWidth", width)
        if color is not None:
            bar_object.set_value("FaceColor", char_row(color))
        bar_object.drawing = False
    for bar_object in group:
        bar_object.finish(pairs)
        axes.add(bar_object)
    refresh_colors(axes)
    return group


@builtin("bar", interp=True, nargout=True, max_out=1, dl="data")
def bar(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """bar  bar graph.

    bar(y) draws one bar an element of y (a matrix: one group a row, one series a
    column); bar(x, y) places them at x.  bar(..., width) sets the bar width (a fraction
    of the space, 0.8 by default); bar(..., 'stacked') stacks the series instead of
    grouping them; bar(..., color) colours them.  Name=value options set Bar properties
    (FaceColor, EdgeColor, BarWidth, LineWidth, DisplayName...).  b = bar(...) returns
    the Bar objects, one a series."""
    made = draw_bars(interp, args, "bar")
    return handles_value(made) if nargout else None


@builtin("barh", interp=True, nargout=True, max_out=1, dl="data")
def barh(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """barh  horizontal bar graph.

    barh(y), barh(x, y) and the options of bar, with the bars drawn horizontally.
    b = barh(...) returns the Bar objects."""
    made = draw_bars(interp, args, "barh")
    return handles_value(made) if nargout else None


# ---------------------------------------------------------------- area


class Area(ChartObject):
    """A filled area under a curve, stacked on the areas made before it by the same call."""

    matlab_class = "matlab.graphics.chart.primitive.Area"
    display_name = "Area"
    type_name = "area"
    display_order = ("FaceColor", "EdgeColor", "LineStyle", "LineWidth", "BaseValue", "XData", "YData")
    __slots__ = ("group", "mapping")

    def __init__(self, axes: Any, values: dict[str, Any]) -> None:
        super().__init__(axes, values)
        self.group: list[Area] = [self]

    def bottom_top(self) -> tuple[np.ndarray, np.ndarray]:
        """The area's lower and upper edges: the first area of a call starts at the base
        value, the others on top of the ones before them."""
        y = self.data("YData")
        below = np.zeros(y.size)
        members = [a for a in self.group if a.valid]
        position = members.index(self) if self in members else 0
        for other in members[:position]:
            values = other.data("YData")
            if values.size == y.size:
                below = below + values
        bottom = below if position else np.full(y.size, self.number("BaseValue"))
        return bottom, below + y

    def draw(self, ax: Any) -> list[Any]:
        x, y = self.data("XData"), self.data("YData")
        if x.size != y.size:
            return []
        bottom, top = self.bottom_top()
        edge = mpl_color(self.get_value("EdgeColor"))
        fill = ax.fill_between(x, bottom, top, facecolor=mpl_color(self.get_value("FaceColor")),
                               edgecolor=edge, linewidth=self.number("LineWidth"),
                               linestyle=mpl_line_style(self.text("LineStyle")),
                               alpha=self.number("FaceAlpha"))
        return [fill]


define_properties(Area, {
    "XData": _data_prop("XData"), "YData": _data_prop("YData"),
    "BaseValue": real_prop("BaseValue", 0.0),
    "FaceColor": color_prop("FaceColor", np.array([list(pv.COLOR_ORDER[0])]), ("none", "flat")),
    "EdgeColor": color_prop("EdgeColor", BLACK, ("none", "flat")),
    "FaceAlpha": fraction_prop("FaceAlpha", 1.0),
    "EdgeAlpha": fraction_prop("EdgeAlpha", 1.0),
    "LineWidth": number_prop("LineWidth", 0.5),
    "LineStyle": line_style_prop(),
    "SeriesIndex": number_prop("SeriesIndex", 1.0),
})


@builtin("area", interp=True, nargout=True, max_out=1, dl="data")
def area(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """area  filled area plot.

    area(y) fills the area under y (a matrix: one area a column, stacked); area(x, y)
    plots against x; area(..., basevalue) fills down to basevalue instead of 0.
    Name=value options set Area properties (FaceColor, EdgeColor, FaceAlpha, LineWidth,
    DisplayName...).  h = area(...) returns the Area objects."""
    axes, rest = leading_axes(args)
    data, rest = leading_data(rest)
    if not data:
        raise not_enough_inputs()
    base = None
    if len(data) == 3 or (len(data) == 2 and np.size(data[1]) == 1 and np.size(data[0]) > 1):
        base = pv.real_number(data.pop(), "BaseValue")
    pairs = option_pairs(rest, "area")
    x, y = _x_y_matrix(data, "area")
    axes = axes or current_axes(interp)
    axes.prepare_plot()
    group: list[Area] = []
    for column in range(y.shape[1]):
        values = {"XData": row_of(x), "YData": row_of(y[:, column]),
                  "FaceColor": np.array([list(axes.next_color())])}
        if base is not None:
            values["BaseValue"] = base
        obj = Area(axes, values)
        obj.group = group
        group.append(obj)
    for obj in group:
        obj.finish(pairs)
        axes.add(obj)
    return handles_value(group) if nargout else None
