"""Scatter plots: the Scatter object, scatter and scatter3."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.charts_base import (
    ChartObject,
    choice_prop,
    color_prop,
    fraction_prop,
    handles_value,
    leading_data,
    marker_prop,
    mpl_color,
    mpl_marker,
    not_enough_inputs,
    number_prop,
    numeric_data,
    prop,
    row_of,
)
from mlang.builtins.graphics.figures import current_axes
from mlang.builtins.graphics.handles import Prop, define_properties
from mlang.builtins.graphics.images_color import axes_clim, axes_colormap, map_values, refresh_colors
from mlang.builtins.graphics.plot_args import MARKERS, leading_axes, option_pairs
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, is_text

DEFAULT_SIZE = 36.0  # points squared


class Scatter(ChartObject):
    """A scatter series: one marker a point, each with its size and colour."""

    matlab_class = "matlab.graphics.chart.primitive.Scatter"
    display_name = "Scatter"
    type_name = "scatter"
    display_order = ("Marker", "MarkerEdgeColor", "MarkerFaceColor", "SizeData", "LineWidth",
                     "XData", "YData", "ZData", "CData")

    __slots__ = ("mapping",)

    def value_colors(self) -> np.ndarray | None:
        """CData as values mapped through the colormap (None: colours given as RGB)."""
        cdata = np.asarray(self.get_value("CData"), dtype=float)
        count = self.data("XData").size
        if cdata.shape == (1, 3) and (count != 3 or bool(np.all((cdata >= 0) & (cdata <= 1)))):
            return None
        if cdata.ndim == 2 and cdata.shape[1] == 3 and cdata.shape[0] == count:
            return None
        return cdata.ravel() if cdata.size == count else None

    def color_data(self) -> np.ndarray | None:
        return self.value_colors()

    def apply_colors(self, colors: np.ndarray, clim: tuple[float, float]) -> None:
        """Colour the points with the axes' colormap and CLim (when CData holds values)."""
        if self.value_colors() is None:
            return
        self.mapping = (colors, clim)
        self.redraw()

    def update(self, name: str, value: Any) -> Any:
        self.stored[name] = value
        self.redraw()
        axes = self.axes()
        if name == "CData" and not self.drawing and axes is not None:
            refresh_colors(axes)  # the automatic colour limits follow the new values
        return value

    def point_colors(self, count: int) -> np.ndarray:
        """The colour of each point (count×3) from CData: one colour, one a row, or
        values mapped through the colormap and colour limits."""
        values = self.value_colors()
        if values is None:
            cdata = np.asarray(self.get_value("CData"), dtype=float)
            if cdata.size == 3:
                return np.tile(np.clip(cdata, 0, 1).reshape(1, 3), (count, 1))
            if cdata.ndim == 2 and cdata.shape == (count, 3):
                return np.clip(cdata, 0, 1)
            return np.tile(pv.COLOR_ORDER[0], (count, 1))
        mapping = getattr(self, "mapping", None)
        if mapping is None:
            axes = self.axes()
            mapping = (axes_colormap(axes), axes_clim(axes))
        rgb = map_values(values, *mapping)
        missing = np.isnan(values)
        if not missing.any():
            return rgb
        # a NaN colour value draws no point, as in MATLAB: a transparent marker
        rgba = np.column_stack([np.nan_to_num(rgb), np.ones(count)])
        rgba[missing, 3] = 0.0
        return rgba

    def planar(self) -> bool:
        return False  # 3-D axes scatter points themselves (at z = 0 without ZData)

    def draw(self, ax: Any) -> list[Any]:
        x, y, z = self.data("XData"), self.data("YData"), self.data("ZData")
        if x.size != y.size or (z.size and z.size != x.size):
            return []
        count = x.size
        sizes = self.data("SizeData")
        sizes = np.full(count, sizes[0]) if sizes.size == 1 else sizes
        colors = self.point_colors(count)
        face = mpl_color(self.get_value("MarkerFaceColor"))
        edge = mpl_color(self.get_value("MarkerEdgeColor"))
        face_colors = colors if face in ("flat", "auto") else face
        if face == "auto":
            face_colors = np.tile(np.asarray(ax.get_facecolor()[:3]), (count, 1))
        edge_colors = colors if edge == "flat" else edge
        options = {"s": sizes, "marker": mpl_marker(self.text("Marker")),
                   "linewidths": self.number("LineWidth")}
        marker = self.text("Marker")
        if marker in ("+", "x", "*", ".", "_", "|"):
            # matplotlib draws these from their edges: the colour goes there
            options["c"] = colors if edge == "flat" or edge == "none" else [edge] * count
        else:
            options["facecolors"] = face_colors
            options["edgecolors"] = edge_colors
        alpha = self.number("MarkerFaceAlpha")
        if z.size:
            artist = ax.scatter(x, y, z, **options)
        else:
            artist = ax.scatter(x, y, **options)
        if alpha < 1 and not isinstance(face_colors, str):
            artist.set_alpha(alpha)
        return [artist]


def _size_data(value: Any, name: str) -> Any:
    data = pv.real_vector(value, name)
    if data.size == 0 or np.any(data < 0) or not np.all(np.isfinite(data)):
        raise pv.bad_value(name, "Value must be a positive scalar or vector.")
    return float(data[0]) if data.size == 1 else row_of(data)


def _cdata(value: Any, name: str) -> Any:
    if is_text(value):
        return pv.color_value(pv.parse_color(value, name, ()))
    data = numeric_data(value, "scatter", "Color data")
    return data


def _data_prop(name: str) -> Prop:
    return prop(name, lambda v, n: row_of(pv.real_vector(v, n)), np.zeros((1, 0)))


define_properties(Scatter, {
    "XData": _data_prop("XData"), "YData": _data_prop("YData"), "ZData": _data_prop("ZData"),
    "SizeData": prop("SizeData", _size_data, DEFAULT_SIZE),
    "CData": prop("CData", _cdata),
    "Marker": marker_prop("o"),
    "MarkerFaceColor": color_prop("MarkerFaceColor", char_row("none"), ("none", "flat", "auto")),
    "MarkerEdgeColor": color_prop("MarkerEdgeColor", char_row("flat"), ("none", "flat")),
    "MarkerFaceAlpha": fraction_prop("MarkerFaceAlpha", 1.0),
    "MarkerEdgeAlpha": fraction_prop("MarkerEdgeAlpha", 1.0),
    "LineWidth": number_prop("LineWidth", 0.5),
    "SeriesIndex": number_prop("SeriesIndex", 1.0),
    "Jitter": choice_prop("Jitter", ("off", "on")),
})


def draw_scatter(interp: Any, args: tuple, function: str) -> Scatter:
    """scatter(x, y[, sz[, c]]), scatter3(x, y, z[, sz[, c]]), then 'filled', a marker,
    name=value options."""
    dims = 3 if function == "scatter3" else 2
    axes, rest = leading_axes(args)
    data, rest = leading_data(rest)
    if len(data) < dims:
        raise not_enough_inputs()
    color: Any = None
    if len(data) > dims + 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if len(data) == dims + 2:
        color = data.pop()
    sizes = data.pop() if len(data) == dims + 1 else None
    if color is None and rest and is_text(rest[0]) and \
            pv.text_value(rest[0], "").lower() not in ("filled", *MARKERS) and \
            pv.text_value(rest[0], "").lower() in pv.COLOR_NAMES:
        color = rest.pop(0)  # scatter(x, y, sz, 'r')
    filled = False
    marker = None
    while rest and is_text(rest[0]):
        word = pv.text_value(rest[0], "")
        if word.lower() == "filled":
            filled = True
        elif word in MARKERS:
            marker = word
        else:
            break
        rest.pop(0)
    pairs = option_pairs(rest, function)
    columns = [numeric_data(d, function).ravel(order="F") for d in data]
    if len({c.size for c in columns}) > 1:
        raise error(f"MATLAB:{function}:InvalidXYData" if dims == 2 else "MATLAB:scatter3:InvalidXYZData",
                    "X and Y must be vectors of the same length." if dims == 2 else
                    "X, Y and Z must be vectors of the same length.")
    axes = axes or current_axes(interp)
    axes.prepare_plot()
    if dims == 3:
        axes.ensure_3d()
    series_color = axes.next_color()
    values: dict[str, Any] = {
        "XData": row_of(columns[0]), "YData": row_of(columns[1]),
        "ZData": row_of(columns[2]) if dims == 3 else np.zeros((0, 0)),
        "CData": np.array([list(series_color)]),
    }
    obj = Scatter(axes, values)
    obj.drawing = True
    if sizes is not None and np.size(sizes):
        obj.set_value("SizeData", sizes)
    if color is not None:
        obj.set_value("CData", color)
    if marker is not None:
        obj.set_value("Marker", char_row(marker))
    if filled:
        obj.set_value("MarkerFaceColor", char_row("flat"))
    obj.finish(pairs)
    axes.add(obj)
    refresh_colors(axes)
    return obj


@builtin("scatter", interp=True, nargout=True, max_out=1, dl="data")
def scatter(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """scatter  scatter plot.

    scatter(x, y) draws a circle at each point (x, y).  scatter(x, y, sz) gives the marker
    areas in points squared (a scalar, or one a point); scatter(x, y, sz, c) the colours:
    a colour name, an RGB triplet, one RGB row a point, or values mapped through the
    colormap.  scatter(..., 'filled') fills the markers; scatter(..., mkr) picks the
    marker ('o', '+', 's', 'd', ...).  Name=value options set Scatter properties
    (MarkerFaceColor, MarkerEdgeColor, LineWidth, DisplayName...).  h = scatter(...)
    returns the Scatter object."""
    obj = draw_scatter(interp, args, "scatter")
    return handles_value([obj]) if nargout else None


@builtin("scatter3", interp=True, nargout=True, max_out=1, dl="data")
def scatter3(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """scatter3  3-D scatter plot.

    scatter3(x, y, z) draws a circle at each point (x, y, z); the sizes, colours,
    'filled', marker and name=value options are those of scatter.  h = scatter3(...)
    returns the Scatter object."""
    obj = draw_scatter(interp, args, "scatter3")
    return handles_value([obj]) if nargout else None
