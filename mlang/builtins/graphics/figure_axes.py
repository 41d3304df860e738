"""The containers of the graphics tree: the root (groot), figures, axes, and legends.

A ``Figure`` holds a matplotlib figure; an ``Axes`` a matplotlib axes, swapped for a 3-D
one by ``ensure_3d`` (plot3, surf, view(3)).  ``Axes.add(child)`` makes a plot object a
child of the axes (a legend that updates itself gains its entry);
``Axes.prepare_plot()`` is what a plot function calls first: with ``NextPlot`` 'replace'
(hold off) the axes are cleared and reset, with 'add' (hold on) they are kept.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from mlang.builtins.coerce import text_list
from mlang.builtins.graphics import backend
from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.handles import (
    GraphicsArray,
    GraphicsHandle,
    Prop,
    Text,
    define_properties,
    mpl_text,
    simplify,
)
from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import char_row, to_double_array

DEFAULT_FIGURE_POSITION = (680.0, 458.0, 560.0, 420.0)  # pixels: left bottom width height
DEFAULT_AXES_POSITION = (0.13, 0.11, 0.775, 0.815)  # normalized


# ---------------------------------------------------------------- root


class Root(GraphicsHandle):
    """``groot``: the graphics root of a session; its children are the figures."""

    matlab_class = "matlab.ui.Root"
    display_name = "Graphics Root"
    type_name = "root"
    display_order = ("CurrentFigure", "ScreenPixelsPerInch", "ScreenSize", "MonitorPositions", "Units")

    __slots__ = ("state", "defaults")

    def __init__(self, state: Any) -> None:
        super().__init__(None)
        self.state = state
        # Default values of new objects: lowercased '<type><property>' -> value
        self.defaults: dict[str, Any] = {}

    def property_name(self, name: str) -> str | None:
        proper = super().property_name(name)
        if proper is None and name.lower().startswith("default") and len(name) > 7:
            return "Default" + name[7:]
        return proper

    def get_value(self, name: str) -> Any:
        if name.startswith("Default") and name not in type(self).properties:
            key = name[7:].lower()
            if key not in self.defaults:
                raise error("MATLAB:hg:InvalidProperty",
                            f"Unrecognized property {name} for class {self.matlab_class}.")
            return self.defaults[key]
        return super().get_value(name)

    def set_value(self, name: str, value: Any) -> None:
        if name.startswith("Default") and name not in type(self).properties:
            self.defaults[name[7:].lower()] = value
            return
        super().set_value(name, value)

    def delete(self) -> None:
        raise error("MATLAB:hg:root:CannotDelete", "Root object cannot be deleted.")


def _current_figure_value(root: Root) -> Any:
    figure = root.state.current_figure
    return figure if figure is not None else GraphicsArray([], (0, 0))


def _set_current_figure(root: Root, value: Any) -> None:
    if not isinstance(value, Figure) or not value.valid:
        raise pv.bad_value("CurrentFigure", "Value must be a figure.")
    root.state.current_figure = value


define_properties(Root, {
    "CurrentFigure": Prop(get=_current_figure_value, set=_set_current_figure),
    "ScreenPixelsPerInch": Prop(get=lambda h: 96.0),
    "ScreenSize": Prop(get=lambda h: np.array([[1.0, 1.0, 1920.0, 1080.0]])),
    "MonitorPositions": Prop(get=lambda h: np.array([[1.0, 1.0, 1920.0, 1080.0]])),
    "Units": Prop(default=char_row("pixels"), set=lambda h, v: char_row(pv.choice(
        v, "Units", ("pixels", "normalized", "inches", "centimeters", "points", "characters")))),
    "RecursionLimit": Prop(default=500.0, set=lambda h, v: pv.positive_number(v, "RecursionLimit")),
    "ShowHiddenHandles": Prop(default=char_row("off"),
                              set=lambda h, v: pv.on_off_value(pv.on_off(v, "ShowHiddenHandles"))),
})


# ---------------------------------------------------------------- figure


class Figure(GraphicsHandle):
    """A figure: ``number``, the matplotlib figure (``artist``), its current axes, and
    whether it changed since its file was last written (``dirty``)."""

    matlab_class = "matlab.ui.Figure"
    display_name = "Figure"
    type_name = "figure"
    display_order = ("Number", "Name", "Color", "Position", "Units")
    __slots__ = ("number", "current_axes", "dirty", "layout", "color_order")

    def __init__(self, root: Root, number: int, windowed: bool) -> None:
        super().__init__(root)
        self.number = number
        self.current_axes: Axes | None = None
        self.dirty = True
        self.layout: Any = None  # a tiled layout, when tiledlayout made one
        # The figure's colour order (colororder(fig, ...)): new axes and reset axes take it
        self.color_order: np.ndarray | None = None
        width, height = DEFAULT_FIGURE_POSITION[2:]
        self.artist = backend.new_figure(width, height, windowed, f"Figure {number}")
        self.stored["Position"] = np.array([list(DEFAULT_FIGURE_POSITION)])
        self.apply_defaults()

    def window_title(self) -> str:
        name = pv.text_value(self.get_value("Name"), "Name")
        numbered = pv.on_off(self.get_value("NumberTitle"), "NumberTitle")
        if numbered:
            return f"Figure {self.number}" + (f": {name}" if name else "")
        return name

    def clear(self) -> None:
        """clf: delete every child (axes, layouts) and clear the matplotlib figure."""
        for child in list(self.children):
            child.delete()
        self.artist.clear()
        self.current_axes = None
        self.layout = None
        self.changed()

    def remove_artist(self) -> None:
        backend.close_window(self.artist)

    def delete(self) -> None:
        state = self.parent.state if isinstance(self.parent, Root) else None
        super().delete()
        if state is not None:
            state.figures.pop(self.number, None)
            if state.current_figure is self:
                remaining = list(state.figures.values())
                state.current_figure = remaining[-1] if remaining else None


def _set_figure_name(h: Figure, value: Any) -> Any:
    h.stored["Name"] = char_row(pv.text_value(value, "Name"))
    backend.set_window_title(h.artist, h.window_title())
    return h.stored["Name"]


def _set_number_title(h: Figure, value: Any) -> Any:
    h.stored["NumberTitle"] = pv.on_off_value(pv.on_off(value, "NumberTitle"))
    backend.set_window_title(h.artist, h.window_title())
    return h.stored["NumberTitle"]


def _set_figure_color(h: Figure, value: Any) -> Any:
    color = pv.parse_color(value, "Color")
    h.artist.set_facecolor(pv.mpl_color(color))
    return pv.color_value(color)


def _set_figure_position(h: Figure, value: Any) -> Any:
    data = pv.real_vector(value, "Position", 4, finite=True)
    if not 0 < data[2] <= pv.LARGEST_SIZE or not 0 < data[3] <= pv.LARGEST_SIZE:
        raise pv.bad_value("Position", "Width and height must be positive.")
    h.artist.set_size_inches(data[2] / 100.0, data[3] / 100.0, forward=True)
    return data.reshape(1, 4)


def _current_axes_value(h: Figure) -> Any:
    return h.current_axes if h.current_axes is not None else GraphicsArray([], (0, 0))


def _set_current_axes(h: Figure, value: Any) -> None:
    if not isinstance(value, Axes) or not value.valid or value.figure() is not h:
        raise pv.bad_value("CurrentAxes", "Value must be an axes in this figure.")
    h.current_axes = value


define_properties(Figure, {
    "Number": Prop(get=lambda h: float(h.number)),
    "Name": Prop(set=_set_figure_name, default=char_row("")),
    "NumberTitle": Prop(set=_set_number_title, default=char_row("on")),
    "Color": Prop(set=_set_figure_color, default=lambda h: np.array([[0.94, 0.94, 0.94]])),
    "Position": Prop(set=_set_figure_position),
    "Units": Prop(default=char_row("pixels"), set=lambda h, v: char_row(pv.choice(
        v, "Units", ("pixels", "normalized", "inches", "centimeters", "points", "characters")))),
    "CurrentAxes": Prop(get=_current_axes_value, set=_set_current_axes),
    "NextPlot": Prop(default=char_row("add"), set=lambda h, v: char_row(pv.choice(
        v, "NextPlot", ("add", "new", "replace", "replacechildren")))),
    "WindowStyle": Prop(default=char_row("normal"), set=lambda h, v: char_row(pv.choice(
        v, "WindowStyle", ("normal", "modal", "docked")))),
    "Resize": Prop(default=char_row("on"), set=lambda h, v: pv.on_off_value(pv.on_off(v, "Resize"))),
    "MenuBar": Prop(default=char_row("figure"), set=lambda h, v: char_row(pv.choice(
        v, "MenuBar", ("figure", "none")))),
    "ToolBar": Prop(default=char_row("auto"), set=lambda h, v: char_row(pv.choice(
        v, "ToolBar", ("auto", "figure", "none")))),
    "PaperPositionMode": Prop(default=char_row("auto"), set=lambda h, v: char_row(pv.choice(
        v, "PaperPositionMode", ("auto", "manual")))),
    "InvertHardcopy": Prop(default=char_row("on"),
                           set=lambda h, v: pv.on_off_value(pv.on_off(v, "InvertHardcopy"))),
})


# ---------------------------------------------------------------- axes


class Axes(GraphicsHandle):
    """Axes: the matplotlib axes (``artist``), the text objects of its title and labels,
    its legend, and where the colour order has got to."""

    matlab_class = "matlab.graphics.axis.Axes"
    display_name = "Axes"
    type_name = "axes"
    display_order = ("XLim", "YLim", "XScale", "YScale", "GridLineStyle", "Position", "Units")
    __slots__ = ("labels", "legend", "color_index", "is_3d", "cell")

    def __init__(self, figure: Figure, position: tuple[float, float, float, float] | None = None,
                 artist: Any = None) -> None:
        super().__init__(figure)
        self.artist = artist if artist is not None else \
            figure.artist.add_axes(position or DEFAULT_AXES_POSITION)
        _tolerant_autoscale(self.artist)
        self.is_3d = getattr(self.artist, "name", "") == "3d"
        self.legend: Legend | None = None
        self.color_index = 0  # the next colour of the colour order (0-based)
        self.cell: Any = None  # the subplot or tile it occupies (a key of its layout)
        self.labels: dict[str, Text] = {}
        self._make_labels()
        matlab_ticks(self.artist)
        figure.current_axes = self
        self.apply_defaults()

    def _make_labels(self) -> None:
        """Text objects for the title and axis labels, over matplotlib's own."""
        for label in self.labels.values():
            label.valid = False
            if label in self.children:
                self.children.remove(label)
        ax = self.artist
        artists = {"Title": ax.title, "XLabel": ax.xaxis.label, "YLabel": ax.yaxis.label}
        if self.is_3d:
            artists["ZLabel"] = ax.zaxis.label
        self.labels = {}
        for name, artist in artists.items():
            text = Text(None, artist)
            text.parent = self  # not a child: Children lists plotted objects only
            text.stored["HorizontalAlignment"] = char_row("center")
            if name == "Title":
                text.stored["FontWeight"] = char_row("bold")
                text.stored["FontSize"] = 11.0
            text.apply_defaults()
            self.labels[name] = text

    # ------------------------------------------------------------ plotting

    def prepare_plot(self) -> None:
        """What a plot function does first: with hold off (NextPlot 'replace') the axes
        are cleared and reset; with hold on they are kept."""
        if pv.text_value(self.get_value("NextPlot"), "NextPlot") == "replace":
            self.reset()

    @property
    def held(self) -> bool:
        return pv.text_value(self.get_value("NextPlot"), "NextPlot") == "add"

    def add(self, child: GraphicsHandle) -> GraphicsHandle:
        """Make ``child`` (made with this axes as its parent) known: a legend that
        updates itself gains an entry for it."""
        if child not in self.children:
            self.children.append(child)
        child.parent = self
        if self.legend is not None and self.legend.valid and self.legend.auto_update:
            self.legend.add_entry(child)
        self.changed()
        return child

    def child_removed(self, child: GraphicsHandle) -> None:
        legend = self.legend
        if legend is not None and legend.valid and any(h is child for h, _ in legend.entries):
            legend.entries = [(h, label) for h, label in legend.entries if h is not child]
            legend.rebuild()

    def next_color(self) -> tuple[float, float, float]:
        """The next colour of the colour order (advancing it)."""
        order = self.color_order()
        color = order[self.color_index % len(order)]
        self.color_index += 1
        return (float(color[0]), float(color[1]), float(color[2]))

    def color_order(self) -> np.ndarray:
        return np.asarray(self.get_value("ColorOrder"), dtype=float).reshape(-1, 3)

    def clear(self) -> None:
        """cla: delete the plotted objects (the axes' properties stay)."""
        for child in list(self.children):
            child.delete()
        if self.legend is not None:
            self.legend.delete()
        self.color_index = 0
        self.changed()

    def reset(self) -> None:
        """cla reset, and what a plot does with hold off: delete the plotted objects and
        reset every property but Position and Units."""
        self.clear()
        position = self.artist.get_position().bounds
        kept = {k: v for k, v in self.stored.items() if k in ("Position", "Units")}
        if self.is_3d:  # a 2-D plot after a 3-D one: plain axes again
            self.artist.remove()
            self.artist = self.figure().artist.add_axes(position)
            _tolerant_autoscale(self.artist)
            self.is_3d = False
        else:
            self.artist.cla()
            self.artist.set_position(position)
        matlab_ticks(self.artist)
        self.stored = kept
        self._make_labels()
        self.apply_defaults()

    def ensure_3d(self, keep_children: bool = False) -> None:
        """Make the axes 3-D (for plot3, surf, mesh, view(3)): a matplotlib 3-D axes takes
        the place of the 2-D one.  Its children are deleted, or with ``keep_children``
        (view(3) of a 2-D plot) drawn again in the plane z = 0 by their ``to_3d``."""
        if self.is_3d:
            return
        figure = self.figure()
        old = self.artist
        position = old.get_position().bounds
        if not keep_children:
            for child in list(self.children):
                child.delete()
        old.remove()
        self.artist = figure.artist.add_axes(position, projection="3d")
        _tolerant_autoscale(self.artist)
        self.is_3d = True
        self.artist.view_init(elev=30, azim=-37.5 - 90.0)  # MATLAB az -37.5 (matplotlib counts from y)
        old_labels = self.labels
        self._make_labels()
        if keep_children:
            self._keep_2d_parts(old, old_labels)

    def _keep_2d_parts(self, old: Any, old_labels: dict[str, Any]) -> None:
        """After the change to 3-D: the children, labels, limits set by hand and legend of
        the 2-D axes ``old`` in the new 3-D axes."""
        for name, label in old_labels.items():
            if name in self.labels:
                self.labels[name].artist.update_from(label.artist)
                self.labels[name].artist.set_text(label.artist.get_text())
                self.labels[name].stored.update(label.stored)
        for child in list(self.children):
            child.to_3d()
        if self.children:  # the 3-D axes scale to the 2-D data, lying at z = 0
            limits = old.dataLim
            self.artist.auto_scale_xyz(limits.intervalx, limits.intervaly, np.zeros(2), had_data=False)
        for axis in ("x", "y"):
            if not getattr(old, f"get_autoscale{axis}_on")():
                getattr(self.artist, f"set_{axis}lim")(getattr(old, f"get_{axis}lim")())
        if self.legend is not None and self.legend.valid:
            self.legend.rebuild()

    def remove_artist(self) -> None:
        for label in self.labels.values():
            label.valid = False
        super().remove_artist()
        figure = self.figure()
        if figure is not None and figure.current_axes is self:
            others = [c for c in figure.children if isinstance(c, Axes) and c is not self and c.valid]
            figure.current_axes = others[-1] if others else None


def _tolerant_autoscale(ax: Any) -> None:
    """Axes scale their limits to the data (a 3-D one as data is added, a 2-D one when the
    limits are read or drawn); data too wide for ticks (1e308) makes matplotlib's locator
    fail there, so such data keeps the limits the axes had instead."""
    original = ax.autoscale_view

    def autoscale_view(*args: Any, **kwargs: Any) -> None:
        try:
            original(*args, **kwargs)
        except (ValueError, OverflowError):
            pass

    ax.autoscale_view = autoscale_view


def matlab_ticks(ax: Any) -> None:
    """Tick steps of 1, 2 or 5 times a power of ten on linear axes, as MATLAB chooses."""
    # matplotlib's ticker, loaded with matplotlib already
    from matplotlib.ticker import MaxNLocator

    for axis in (ax.xaxis, ax.yaxis):
        if axis.get_scale() == "linear":
            axis.set_major_locator(MaxNLocator(nbins="auto", steps=[1, 2, 5, 10]))


def _limit_prop(axis: str) -> Prop:
    def read(h: Axes) -> Any:
        low, high = getattr(h.artist, f"get_{axis}lim")()
        return np.array([[float(low), float(high)]])

    def write(h: Axes, value: Any) -> None:
        data = pv.real_vector(value, f"{axis.upper()}Lim", 2)
        if not data[0] < data[1]:
            raise pv.bad_value(f"{axis.upper()}Lim", "Value must be a 2-element vector of "
                                                     "increasing numeric values.")
        low = None if np.isneginf(data[0]) else data[0]
        high = None if np.isposinf(data[1]) else data[1]
        getattr(h.artist, f"set_{axis}lim")(low, high)
        h.stored[f"{axis.upper()}LimMode"] = char_row("manual")

    return Prop(get=read, set=write)


def _limit_mode_prop(axis: str) -> Prop:
    def write(h: Axes, value: Any) -> Any:
        mode = pv.choice(value, f"{axis.upper()}LimMode", ("auto", "manual"))
        if mode == "auto":
            getattr(h.artist, f"set_autoscale{axis}_on")(True)
            h.artist.autoscale_view()
        return char_row(mode)

    return Prop(set=write, default=char_row("auto"))


def _scale_prop(axis: str) -> Prop:
    def read(h: Axes) -> Any:
        scale = getattr(h.artist, f"get_{axis}scale")()
        return char_row("log" if scale == "log" else "linear")

    def write(h: Axes, value: Any) -> None:
        scale = pv.choice(value, f"{axis.upper()}Scale", ("linear", "log"))
        with warnings.catch_warnings():  # data with no positive values: MATLAB says nothing
            warnings.simplefilter("ignore")
            getattr(h.artist, f"set_{axis}scale")(scale)
        matlab_ticks(h.artist)

    return Prop(get=read, set=write)


def _grid_prop(axis: str) -> Prop:
    def write(h: Axes, value: Any) -> Any:
        flag = pv.on_off(value, f"{axis.upper()}Grid")
        h.artist.grid(flag, axis=axis)
        return pv.on_off_value(flag)

    return Prop(set=write, default=char_row("off"))


def _dir_prop(axis: str) -> Prop:
    def read(h: Axes) -> Any:
        inverted = getattr(h.artist, f"{axis}axis_inverted")()
        return char_row("reverse" if inverted else "normal")

    def write(h: Axes, value: Any) -> None:
        word = pv.choice(value, f"{axis.upper()}Dir", ("normal", "reverse"))
        if (word == "reverse") != getattr(h.artist, f"{axis}axis_inverted")():
            getattr(h.artist, f"invert_{axis}axis")()

    return Prop(get=read, set=write)


def _axes_position(h: Axes) -> Any:
    return np.array([list(h.artist.get_position().bounds)])


def _set_axes_position(h: Axes, value: Any) -> None:
    data = pv.real_vector(value, "Position", 4, finite=True)
    if data[2] <= 0 or data[3] <= 0:
        raise pv.bad_value("Position", "Width and height must be positive.")
    h.artist.set_position(tuple(data))


def _set_next_plot(h: Axes, value: Any) -> Any:
    return char_row(pv.choice(value, "NextPlot", ("replace", "add", "replacechildren", "replaceall")))


def _set_color_order(h: Axes, value: Any) -> Any:
    pv.real_vector(value, "ColorOrder")  # numeric
    matrix = to_double_array(value).real
    if matrix.ndim != 2 or matrix.shape[1] != 3 or matrix.shape[0] == 0 \
            or np.any((matrix < 0) | (matrix > 1)):
        raise pv.bad_value("ColorOrder", "Value must be an m-by-3 matrix of RGB triplets.")
    h.color_index = 0
    return matrix.astype(float).copy()


def _figure_color_order(h: Axes) -> np.ndarray:
    figure = h.figure()
    order = figure.color_order if figure is not None else None
    return (order if order is not None else pv.COLOR_ORDER).copy()


def _set_box(h: Axes, value: Any) -> Any:
    flag = pv.on_off(value, "Box")
    for side in ("top", "right"):
        h.artist.spines[side].set_visible(flag)
    h.artist.tick_params(top=flag, right=flag)
    return pv.on_off_value(flag)


def _set_axes_color(h: Axes, value: Any) -> Any:
    color = pv.parse_color(value, "Color")
    h.artist.set_facecolor(pv.mpl_color(color))
    return pv.color_value(color)


def _set_axes_font_size(h: Axes, value: Any) -> Any:
    size = pv.positive_number(value, "FontSize")
    h.artist.tick_params(labelsize=size)
    for label in h.labels.values():
        label.set_value("FontSize", size * 1.1)  # MATLAB's LabelFontSizeMultiplier
    return size


def _set_axes_visible(h: Axes, value: Any) -> Any:
    flag = pv.on_off(value, "Visible")
    h.artist.axis("on" if flag else "off")
    return pv.on_off_value(flag)


def _set_color_order_index(h: Axes, value: Any) -> None:
    number = pv.positive_number(value, "ColorOrderIndex")
    h.color_index = int(number) - 1


def _legend_value(h: Axes) -> Any:
    return h.legend if h.legend is not None and h.legend.valid else GraphicsArray([], (0, 0))


define_properties(Axes, {
    "XLim": _limit_prop("x"), "YLim": _limit_prop("y"),
    "XLimMode": _limit_mode_prop("x"), "YLimMode": _limit_mode_prop("y"),
    "XScale": _scale_prop("x"), "YScale": _scale_prop("y"),
    "XGrid": _grid_prop("x"), "YGrid": _grid_prop("y"),
    "XDir": _dir_prop("x"), "YDir": _dir_prop("y"),
    "Title": Prop(get=lambda h: h.labels["Title"]),
    "XLabel": Prop(get=lambda h: h.labels["XLabel"]),
    "YLabel": Prop(get=lambda h: h.labels["YLabel"]),
    "ZLabel": Prop(get=lambda h: h.labels.get("ZLabel", GraphicsArray([], (0, 0)))),
    "Position": Prop(get=_axes_position, set=_set_axes_position),
    "Units": Prop(default=char_row("normalized"), set=lambda h, v: char_row(pv.choice(
        v, "Units", ("normalized", "pixels", "inches", "centimeters", "points", "characters")))),
    "NextPlot": Prop(set=_set_next_plot, default=char_row("replace")),
    "ColorOrder": Prop(set=_set_color_order, default=lambda h: _figure_color_order(h)),
    "ColorOrderIndex": Prop(get=lambda h: float(h.color_index + 1), set=_set_color_order_index),
    "Box": Prop(set=_set_box, default=char_row("on")),
    "Color": Prop(set=_set_axes_color, default=lambda h: np.array([[1.0, 1.0, 1.0]])),
    "FontSize": Prop(set=_set_axes_font_size, default=10.0),
    "Visible": Prop(set=_set_axes_visible, default=char_row("on")),
    "GridLineStyle": Prop(default=char_row("-"), set=lambda h, v: char_row(pv.choice(
        v, "GridLineStyle", ("-", "--", ":", "-.", "none")))),
    "Legend": Prop(get=_legend_value),
    "LineWidth": Prop(default=0.5, set=lambda h, v: pv.positive_number(v, "LineWidth")),
})


# ---------------------------------------------------------------- legend

# MATLAB's legend locations -> matplotlib's loc (and bbox_to_anchor outside the axes).
LEGEND_LOCATIONS: dict[str, tuple[str, tuple[float, float] | None]] = {
    "north": ("upper center", None), "south": ("lower center", None),
    "east": ("center right", None), "west": ("center left", None),
    "northeast": ("upper right", None), "northwest": ("upper left", None),
    "southeast": ("lower right", None), "southwest": ("lower left", None),
    "best": ("best", None), "none": ("upper right", None),
    "northoutside": ("lower center", (0.5, 1.02)), "southoutside": ("upper center", (0.5, -0.12)),
    "eastoutside": ("center left", (1.02, 0.5)), "westoutside": ("center right", (-0.12, 0.5)),
    "northeastoutside": ("upper left", (1.02, 1.0)), "northwestoutside": ("upper right", (-0.12, 1.0)),
    "southeastoutside": ("lower left", (1.02, 0.0)), "southwestoutside": ("lower right", (-0.12, 0.0)),
    "bestoutside": ("upper left", (1.02, 1.0)),
}


class Legend(GraphicsHandle):
    """A legend: its entries (plot objects and their labels), drawn as a matplotlib
    legend made again whenever they or its properties change (``rebuild``)."""

    matlab_class = "matlab.graphics.illustration.Legend"
    display_name = "Legend"
    type_name = "legend"
    display_order = ("String", "Location", "Orientation", "FontSize", "Position", "Units")
    __slots__ = ("entries", "auto_update")
    # Functions applying more properties to each new matplotlib legend (other modules add them)
    after_rebuild: ClassVar[list[Callable[[Legend], None]]] = []

    def __init__(self, axes: Axes, entries: list[tuple[GraphicsHandle, str]]) -> None:
        super().__init__(None)
        self.parent = axes  # beside the axes in MATLAB; never among its plotted children
        if axes.legend is not None and axes.legend.valid:
            axes.legend.delete()
        axes.legend = self
        self.entries = list(entries)
        self.auto_update = True
        self.apply_defaults()
        self.rebuild()

    def add_entry(self, child: GraphicsHandle) -> None:
        name = child.get_value("DisplayName") if "DisplayName" in type(child).properties else None
        label = pv.text_value(name, "DisplayName") if name is not None else ""
        self.entries.append((child, label or f"data{len(self.entries) + 1}"))
        self.rebuild()

    def rename(self, child: GraphicsHandle, label: str) -> None:
        """A plot object's DisplayName changed: its entry shows the new name."""
        self.entries = [(h, label if h is child else text) for h, text in self.entries]
        self.rebuild()

    def labels(self) -> list[str]:
        return [label for _, label in self.entries]

    def rebuild(self) -> None:
        """Draw the legend again from its entries and properties."""
        axes = self.parent
        if self.artist is not None:
            self.remove_artist()
            self.artist = None
        alive = [(h, label) for h, label in self.entries if h.valid and h.artist is not None]
        if not alive:
            return
        location = pv.text_value(self.get_value("Location"), "Location")
        loc, anchor = LEGEND_LOCATIONS.get(location.lower(), ("upper right", None))
        placed = self.stored.get("Position")  # set by hand: the lower left corner, in figure units
        if placed is not None:
            loc, anchor = "lower left", (float(placed[0, 0]), float(placed[0, 1]))
        columns = int(self.get_value("NumColumns"))
        horizontal = pv.text_value(self.get_value("Orientation"), "Orientation") == "horizontal"
        interpreter = pv.text_value(self.get_value("Interpreter"), "Interpreter")
        legend = axes.artist.legend(
            [legend_artist(h) for h, _ in alive], [mpl_text(label, interpreter) for _, label in alive],
            loc=loc, bbox_to_anchor=anchor,
            bbox_transform=axes.artist.figure.transFigure if placed is not None else None,
            borderaxespad=0.0 if placed is not None else 0.5, ncols=len(alive) if horizontal else columns,
            fontsize=self.get_value("FontSize"),
            frameon=pv.on_off(self.get_value("Box"), "Box"))
        legend.set_visible(pv.on_off(self.get_value("Visible"), "Visible"))
        title = pv.text_value(self.get_value("Title"), "Title") if "Title" in self.stored else ""
        if title:
            legend.set_title(title)
        self.artist = legend
        for apply in self.after_rebuild:
            apply(self)
        self.changed()

    def remove_artist(self) -> None:
        axes = self.parent
        if self.artist is not None and getattr(axes.artist, "legend_", None) is self.artist:
            axes.artist.legend_ = None
        elif self.artist is not None:
            super().remove_artist()

    def delete(self) -> None:
        super().delete()
        axes = self.parent
        if isinstance(axes, Axes) and axes.legend is self:
            axes.legend = None
            axes.changed()


def legend_artist(h: GraphicsHandle) -> Any:
    """The matplotlib artist a legend shows for a plot object (its ``legend_artist``
    method when it has one: a bar series, a contour)."""
    chooser = getattr(h, "legend_artist", None)
    return chooser() if callable(chooser) else h.artist


def _legend_string(h: Legend) -> Any:
    return Cell.row([char_row(label) for label in h.labels()])


def _set_legend_string(h: Legend, value: Any) -> None:
    labels = text_list(value, "String")
    for k, label in enumerate(labels):
        if k < len(h.entries):
            h.entries[k] = (h.entries[k][0], label)
    h.rebuild()


def _legend_choice(name: str, allowed: tuple[str, ...]) -> Prop:
    def write(h: Legend, value: Any) -> Any:
        h.stored[name] = char_row(pv.choice(value, name, allowed))
        if name == "Location":
            h.stored.pop("Position", None)  # a named place replaces one set by hand
        h.rebuild()
        return h.stored[name]

    return Prop(set=write, default=char_row(allowed[0]))


def _legend_number(name: str, default: float) -> Prop:
    def write(h: Legend, value: Any) -> Any:
        h.stored[name] = pv.positive_number(value, name)
        h.rebuild()
        return h.stored[name]

    return Prop(set=write, default=default)


def _legend_flag(name: str) -> Prop:
    def write(h: Legend, value: Any) -> Any:
        h.stored[name] = pv.on_off_value(pv.on_off(value, name))
        if name == "AutoUpdate":
            h.auto_update = pv.on_off(value, name)
        h.rebuild()
        return h.stored[name]

    return Prop(set=write, default=char_row("on"))


def _legend_position(h: Legend) -> Any:
    """Where the legend is, [left bottom width height] in figure units (zeros: not drawn)."""
    if h.artist is None:
        return np.zeros((1, 4))
    figure = h.artist.figure
    box = h.artist.get_window_extent(figure.canvas.get_renderer()).transformed(
        figure.transFigure.inverted())
    return np.array([[box.x0, box.y0, box.width, box.height]])


def _set_legend_position(h: Legend, value: Any) -> None:
    data = pv.real_vector(value, "Position", 4, finite=True)
    h.stored["Position"] = data.reshape(1, 4)
    h.rebuild()


def _set_legend_title(h: Legend, value: Any) -> Any:
    h.stored["Title"] = char_row(pv.text_value(value, "Title"))
    h.rebuild()
    return h.stored["Title"]


define_properties(Legend, {
    "String": Prop(get=_legend_string, set=_set_legend_string),
    "Location": _legend_choice("Location", ("northeast", *[k for k in LEGEND_LOCATIONS if k != "northeast"])),
    "Orientation": _legend_choice("Orientation", ("vertical", "horizontal")),
    "Interpreter": _legend_choice("Interpreter", ("tex", "latex", "none")),
    "FontSize": _legend_number("FontSize", 9.0),
    "NumColumns": _legend_number("NumColumns", 1.0),
    "Box": _legend_flag("Box"),
    "Visible": _legend_flag("Visible"),
    "AutoUpdate": _legend_flag("AutoUpdate"),
    "Title": Prop(set=_set_legend_title, default=char_row("")),
    "Units": Prop(default=char_row("normalized")),
    "Position": Prop(get=_legend_position, set=_set_legend_position),
})


def handles_of_axes(axes: Axes) -> Any:
    """The plotted objects of an axes, newest first, as MATLAB lists Children."""
    return simplify(list(reversed(axes.children)), (len(axes.children), 1))
