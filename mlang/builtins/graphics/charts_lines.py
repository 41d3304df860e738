"""Line-like charts: the Stair, Stem and ErrorBar objects; stairs, stem and errorbar."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.charts_base import (
    ChartObject,
    choice_prop,
    color_prop,
    handles_value,
    leading_data,
    line_style_prop,
    marker_prop,
    mpl_color,
    mpl_line_style,
    mpl_marker,
    not_enough_inputs,
    number_prop,
    numeric_data,
    prop,
    real_prop,
    row_of,
)
from mlang.builtins.graphics.figures import current_axes
from mlang.builtins.graphics.handles import Prop, define_properties
from mlang.builtins.graphics.plot_args import LineSpec, leading_axes, option_pairs, parse_line_spec
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, is_text


def _data_prop(name: str) -> Prop:
    return prop(name, lambda v, n: row_of(pv.real_vector(v, n)), np.zeros((1, 0)))


def _line_properties() -> dict[str, Prop]:
    """The properties of a line-like chart: colour, style, width, marker."""
    return {
        "XData": _data_prop("XData"), "YData": _data_prop("YData"),
        "Color": color_prop("Color", np.array([list(pv.COLOR_ORDER[0])]), ()),
        "LineStyle": line_style_prop(),
        "LineWidth": number_prop("LineWidth", 0.5),
        "Marker": marker_prop(),
        "MarkerSize": number_prop("MarkerSize", 6.0),
        "MarkerFaceColor": color_prop("MarkerFaceColor", char_row("none"), ("none", "auto")),
        "MarkerEdgeColor": color_prop("MarkerEdgeColor", char_row("auto"), ("none", "auto")),
        "SeriesIndex": number_prop("SeriesIndex", 1.0),
    }


class LineChart(ChartObject):
    """A chart drawn with lines and markers (the common style reading)."""

    def line_style(self) -> dict[str, Any]:
        color = mpl_color(self.get_value("Color"))
        face = mpl_color(self.get_value("MarkerFaceColor"))
        edge = mpl_color(self.get_value("MarkerEdgeColor"))
        return {"color": color, "linestyle": mpl_line_style(self.text("LineStyle")),
                "linewidth": self.number("LineWidth"), "marker": mpl_marker(self.text("Marker")),
                "markersize": self.number("MarkerSize"),
                "markerfacecolor": color if face == "auto" else face,
                "markeredgecolor": color if edge == "auto" else edge}


def _spec_and_options(rest: list, function: str) -> tuple[LineSpec | None, list[str], list[tuple[str, Any]]]:
    """A leading line spec, then flag words ('filled'...) and name=value options."""
    spec = None
    flags: list[str] = []
    while rest and is_text(rest[0]):
        word = pv.text_value(rest[0], "")
        if word.lower() in ("filled", "horizontal", "vertical", "both"):
            flags.append(word.lower())
        elif spec is None and (parsed := parse_line_spec(word)) is not None:
            spec = parsed
        else:
            break
        rest.pop(0)
    return spec, flags, option_pairs(rest, function)


def _apply_spec(obj: ChartObject, spec: LineSpec | None) -> None:
    if spec is None:
        return
    if spec.color is not None:
        obj.set_value("Color", np.array([list(spec.color)]))
    if spec.line_style is not None:
        obj.set_value("LineStyle", char_row(spec.line_style))
    if spec.marker is not None:
        obj.set_value("Marker", char_row(spec.marker))


def _series(data: list, function: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (x, y) pairs of f(y) or f(x, y): one a column of a matrix y."""
    if len(data) == 1:
        y = numeric_data(data[0], function)
        y = y.reshape(-1, 1) if 1 in y.shape else y
        x = np.arange(1.0, y.shape[0] + 1)
        return [(x, y[:, k]) for k in range(y.shape[1])]
    x = numeric_data(data[0], function)
    y = numeric_data(data[1], function)
    if 1 in y.shape:
        y = y.reshape(-1, 1)
    if 1 in x.shape:
        x = x.reshape(-1, 1)
        if x.shape[0] != y.shape[0] and y.shape[1] == x.shape[0]:
            y = y.T
    if x.shape[0] != y.shape[0]:
        raise error(f"MATLAB:{function}:InvalidXY" if function == "stem" else "MATLAB:samelen",
                    "X must be same length as Y." if function == "stem" else
                    "Vectors must be the same length.")
    return [(x[:, min(k, x.shape[1] - 1)], y[:, k]) for k in range(y.shape[1])]


def _draw_series(interp: Any, args: tuple, function: str, cls: type[LineChart]) -> list[LineChart]:
    axes, rest = leading_axes(args)
    data, rest = leading_data(rest)
    if not data:
        raise not_enough_inputs()
    if len(data) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    spec, flags, pairs = _spec_and_options(rest, function)
    series = _series(data, function)
    axes = axes or current_axes(interp)
    axes.prepare_plot()
    made = []
    for x, y in series:
        color = spec.color if spec is not None and spec.color is not None else axes.next_color()
        obj = cls(axes, {"XData": row_of(x), "YData": row_of(y), "Color": np.array([list(color)])})
        obj.drawing = True
        _apply_spec(obj, spec)
        if "filled" in flags:
            obj.set_value("MarkerFaceColor", obj.get_value("Color"))
        obj.finish(pairs)
        axes.add(obj)
        made.append(obj)
    return made


# ---------------------------------------------------------------- stairs


class Stair(LineChart):
    """A stairstep line: each value held until the next x."""

    matlab_class = "matlab.graphics.chart.primitive.Stair"
    display_name = "Stair"
    type_name = "stair"
    display_order = ("Color", "LineStyle", "LineWidth", "Marker", "MarkerSize", "MarkerFaceColor",
                     "XData", "YData")

    def draw(self, ax: Any) -> list[Any]:
        x, y = self.data("XData"), self.data("YData")
        if x.size != y.size:
            return []
        (artist,) = ax.step(x, y, where="post", **self.line_style())
        return [artist]


define_properties(Stair, _line_properties())


@builtin("stairs", interp=True, nargout=True, max_out=1, dl="data")
def stairs(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """stairs  stairstep graph.

    stairs(Y) draws Y as steps against its index (a matrix: one line a column);
    stairs(X, Y) at the x values X; stairs(..., LineSpec) and name=value options set the
    Stair properties (Color, LineStyle, LineWidth, Marker...).  h = stairs(...) returns
    the Stair objects."""
    made = _draw_series(interp, args, "stairs", Stair)
    return handles_value(made) if nargout else None


# ---------------------------------------------------------------- stem


class Stem(LineChart):
    """Stems from the baseline up to each value, each ending with a marker."""

    matlab_class = "matlab.graphics.chart.primitive.Stem"
    display_name = "Stem"
    type_name = "stem"
    display_order = ("Color", "LineStyle", "LineWidth", "Marker", "MarkerSize", "MarkerFaceColor",
                     "BaseValue", "XData", "YData")

    def draw(self, ax: Any) -> list[Any]:
        x, y = self.data("XData"), self.data("YData")
        if x.size != y.size:
            return []
        style = self.line_style()
        base = self.number("BaseValue")
        stems = ax.vlines(x, base, y, colors=[style["color"]], linestyles=style["linestyle"]
                          if style["linestyle"] != "None" else "solid", linewidth=style["linewidth"])
        if style["linestyle"] == "None":
            stems.set_visible(False)
        marker_style = {k: v for k, v in style.items() if k not in ("linestyle", "linewidth")}
        (heads,) = ax.plot(x, y, linestyle="None", **marker_style)
        artists = [heads, stems]
        if self.text("ShowBaseLine") == "on" and x.size:
            (baseline,) = ax.plot([x.min(), x.max()], [base, base], color="k", linewidth=0.5)
            artists.append(baseline)
        return artists


define_properties(Stem, {**_line_properties(), "Marker": marker_prop("o"),
                         "BaseValue": real_prop("BaseValue", 0.0),
                         "ShowBaseLine": choice_prop("ShowBaseLine", ("on", "off"))})


@builtin("stem", interp=True, nargout=True, max_out=1, dl="data")
def stem(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """stem  plot discrete sequence data.

    stem(Y) draws a stem from the baseline to each value of Y, ending in a circle (a
    matrix: one series a column); stem(X, Y) at the x values X; stem(..., 'filled')
    fills the circles; stem(..., LineSpec) and name=value options set the Stem
    properties (Color, LineStyle, Marker, BaseValue...).  h = stem(...) returns the Stem
    objects."""
    made = _draw_series(interp, args, "stem", Stem)
    return handles_value(made) if nargout else None


# ---------------------------------------------------------------- errorbar


class ErrorBar(LineChart):
    """A line through the data with error bars (vertical, horizontal, or both)."""

    matlab_class = "matlab.graphics.chart.primitive.ErrorBar"
    display_name = "ErrorBar"
    type_name = "errorbar"
    display_order = ("Color", "LineStyle", "LineWidth", "Marker", "XData", "YData",
                     "XNegativeDelta", "XPositiveDelta", "YNegativeDelta", "YPositiveDelta")

    def deltas(self, axis: str, size: int) -> np.ndarray | None:
        negative, positive = self.data(f"{axis}NegativeDelta"), self.data(f"{axis}PositiveDelta")
        if not negative.size and not positive.size:
            return None
        negative = negative if negative.size == size else np.zeros(size)
        positive = positive if positive.size == size else np.zeros(size)
        return np.vstack([np.abs(negative), np.abs(positive)])

    def draw(self, ax: Any) -> list[Any]:
        x, y = self.data("XData"), self.data("YData")
        if x.size != y.size:
            return []
        style = self.line_style()
        container = ax.errorbar(x, y, yerr=self.deltas("Y", x.size), xerr=self.deltas("X", x.size),
                                capsize=self.number("CapSize") / 2, ecolor=style["color"],
                                elinewidth=style["linewidth"], **style)
        data_line, caps, bars = container.lines
        ax.containers.remove(container)  # the artists are kept here, not in the container
        return [data_line, *caps, *bars]


define_properties(ErrorBar, {
    **_line_properties(),
    "YNegativeDelta": _data_prop("YNegativeDelta"), "YPositiveDelta": _data_prop("YPositiveDelta"),
    "XNegativeDelta": _data_prop("XNegativeDelta"), "XPositiveDelta": _data_prop("XPositiveDelta"),
    "CapSize": number_prop("CapSize", 6.0, allow_zero=True),
})


@builtin("errorbar", interp=True, nargout=True, max_out=1, dl="data")
def errorbar(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """errorbar  line plot with error bars.

    errorbar(y, err) draws y against its index with a vertical error bar of length
    2*err at each point; errorbar(x, y, err) at x; errorbar(x, y, neg, pos) with the
    lower and upper lengths; errorbar(x, y, yneg, ypos, xneg, xpos) with both
    directions; errorbar(..., ornt) picks 'vertical', 'horizontal' or 'both' for the
    symmetric forms.  errorbar(..., LineSpec) and name=value options set the ErrorBar
    properties (Color, LineStyle, Marker, CapSize...).  h = errorbar(...) returns the
    ErrorBar object."""
    axes, rest = leading_axes(args)
    data, rest = leading_data(rest)
    if len(data) < 2:
        raise not_enough_inputs()
    if len(data) in (5,) or len(data) > 6:
        raise error("MATLAB:TooManyInputs" if len(data) > 6 else "MATLAB:narginchk:notEnoughInputs",
                    "Too many input arguments." if len(data) > 6 else "Not enough input arguments.")
    spec, flags, pairs = _spec_and_options(rest, "errorbar")
    vectors = [numeric_data(d, "errorbar").ravel(order="F") for d in data]
    if len(vectors) == 2:
        vectors = [np.arange(1.0, vectors[0].size + 1), *vectors]
    x, y = vectors[0], vectors[1]
    size = y.size
    deltas = vectors[2:]
    for delta in deltas:
        if delta.size != size:
            raise error("MATLAB:errorbar:InvalidData" if delta.size else "MATLAB:samelen",
                        "Input arguments must be the same size.")
    if x.size != size:
        raise error("MATLAB:samelen", "Vectors must be the same length.")
    orientation = next((f for f in flags if f in ("horizontal", "vertical", "both")), "vertical")
    values: dict[str, Any] = {"XData": row_of(x), "YData": row_of(y)}
    if len(deltas) == 4:
        values.update(YNegativeDelta=row_of(deltas[0]), YPositiveDelta=row_of(deltas[1]),
                      XNegativeDelta=row_of(deltas[2]), XPositiveDelta=row_of(deltas[3]))
    else:
        negative, positive = (deltas[0], deltas[0]) if len(deltas) == 1 else (deltas[0], deltas[1])
        if orientation in ("vertical", "both"):
            values.update(YNegativeDelta=row_of(negative), YPositiveDelta=row_of(positive))
        if orientation in ("horizontal", "both"):
            values.update(XNegativeDelta=row_of(negative), XPositiveDelta=row_of(positive))
    axes = axes or current_axes(interp)
    axes.prepare_plot()
    color = spec.color if spec is not None and spec.color is not None else axes.next_color()
    obj = ErrorBar(axes, {**values, "Color": np.array([list(color)])})
    obj.drawing = True
    _apply_spec(obj, spec)
    obj.finish(pairs)
    axes.add(obj)
    return handles_value([obj]) if nargout else None
