"""What the chart objects share (scatter, bar, histogram, area, errorbar, stairs, stem,
patch, rectangle, constant lines, confusion charts).

A ``ChartObject`` keeps its MATLAB properties in ``stored`` and draws its matplotlib
artists from them with ``draw``; a property change stores the new value and draws the
object again (``redraw``), so every property works the same way whether it is given at
creation, by ``h.Name = v`` or by ``set``.  The property helpers here (``redrawn``,
``color_prop``, ``choice_prop``...) build such properties.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.figure_axes import Axes
from mlang.builtins.graphics.handles import GraphicsArray, GraphicsHandle, Prop, define_properties, simplify
from mlang.builtins.graphics.plot_args import MARKERS
from mlang.errors import error
from mlang.values.core import char_row, class_of, is_text, to_double_array


class _PlaneAxes:
    """A 3-D matplotlib axes seen as a 2-D one: a 2-D chart drawn into 3-D axes (bar or
    area after surf, under hold) uses the 2-D drawing methods, whose 3-D versions differ."""

    def __init__(self, ax: Any) -> None:
        self._ax = ax

    def __getattr__(self, name: str) -> Any:
        from matplotlib.axes import Axes as PlainAxes  # matplotlib, loaded already

        if name == "barh":  # (the 2-D barh calls bar, which 3-D axes replace)
            return lambda y, width, height=0.8, left=None, **options: PlainAxes.bar(
                self._ax, x=left, height=height, width=width, bottom=y, orientation="horizontal", **options)
        method = getattr(PlainAxes, name, None)
        return method.__get__(self._ax) if callable(method) else getattr(self._ax, name)


def _into_3d(ax: Any) -> None:
    """Lay the 2-D artists of a 3-D axes in the plane z = 0 (a 3-D axes cannot draw 2-D
    collections or patches)."""
    from matplotlib.collections import LineCollection, PolyCollection  # (loaded already)
    from mpl_toolkits.mplot3d import art3d  # matplotlib on first use: keeps start-up fast

    for line in list(ax.lines):
        if not isinstance(line, art3d.Line3D):
            art3d.line_2d_to_3d(line, zs=0)
    for patch in list(ax.patches):
        if not hasattr(patch, "do_3d_projection"):
            art3d.patch_2d_to_3d(patch, z=0)
    for collection in list(ax.collections):
        if hasattr(collection, "do_3d_projection"):
            continue
        if isinstance(collection, PolyCollection):
            art3d.poly_collection_2d_to_3d(collection, zs=0)
        elif isinstance(collection, LineCollection):
            art3d.line_collection_2d_to_3d(collection, zs=0)
        else:
            art3d.patch_collection_2d_to_3d(collection, zs=0)


class ChartObject(GraphicsHandle):
    """A plotted object drawn from its stored properties, with any number of artists
    (``artists``; ``artist`` is the one a legend shows)."""

    __slots__ = ("artists", "drawing")

    def __init__(self, axes: Axes, values: dict[str, Any]) -> None:
        super().__init__(axes)
        self.artists: list[Any] = []
        self.drawing = False  # set while the constructor fills the properties in
        self.stored.update(values)

    def draw(self, ax: Any) -> list[Any]:
        """Make the matplotlib artists from the properties (a subclass does it)."""
        raise NotImplementedError

    def redraw(self) -> None:
        """Draw the object again after a change (or for the first time)."""
        if self.drawing or not self.valid:
            return
        axes = self.axes()
        drawn_before = bool(getattr(self, "artists", []))
        self.remove_artist()
        planar = axes.is_3d and self.planar()
        try:
            self.artists = [a for a in self.draw(_PlaneAxes(axes.artist) if planar else axes.artist)
                            if a is not None]
        except (ValueError, OverflowError):
            # data matplotlib cannot place (huge or infinite extents) draws nothing, as MATLAB
            # leaves out what it cannot show
            self.remove_artist()
        except (TypeError, AttributeError):
            if not planar:
                raise
            self.remove_artist()  # a chart 3-D axes cannot show in their plane (stem) is left out
        finally:
            if planar:
                _into_3d(axes.artist)
        self.artist = self.artists[0] if self.artists else None
        visible = pv.on_off(self.get_value("Visible"), "Visible")
        for artist in self.artists:
            artist.set_visible(visible)
        # a first drawing's artists widen the data limits themselves (relim for each of many
        # new objects would take quadratic time); a redrawing's old extent must go
        if drawn_before:
            try:
                axes.artist.relim()
                axes.artist.autoscale_view()
            except (ValueError, OverflowError):
                pass  # limits too wide for ticks: the figure's drawing reports it
        if axes.legend is not None and axes.legend.valid and any(h is self for h, _ in axes.legend.entries):
            axes.legend.rebuild()

    def to_3d(self) -> None:
        """Draw the object again in its axes, which became 3-D (view(3))."""
        self.redraw()

    def planar(self) -> bool:
        """Whether the object is drawn in a plane: in 3-D axes (under hold), at z = 0."""
        return True

    def remove_artist(self) -> None:
        for artist in getattr(self, "artists", []):
            try:
                artist.remove()
            except (NotImplementedError, ValueError, AttributeError):
                pass
        self.artists = []
        self.artist = None

    def update(self, name: str, value: Any) -> Any:
        """Keep a checked property value and draw again; returns the value to store."""
        self.stored[name] = value
        self.redraw()
        return value

    def text(self, name: str) -> str:
        return pv.text_value(self.get_value(name), name)

    def number(self, name: str) -> float:
        return float(np.asarray(self.get_value(name), dtype=float).ravel()[0])

    def data(self, name: str) -> np.ndarray:
        return np.asarray(self.get_value(name), dtype=float).ravel()

    def finish(self, options: list[tuple[str, Any]]) -> None:
        """Apply the creation options and defaults, then draw once."""
        self.drawing = True
        try:
            for name, value in options:
                self.set_value(self.checked_name(name, reading=False), value)
            self.apply_defaults()
        finally:
            self.drawing = False
        self.redraw()


# ---------------------------------------------------------------- property makers


def prop(name: str, read: Callable[[Any, str], Any], default: Any = None) -> Prop:
    return Prop(set=lambda h, v: h.update(name, read(v, name)), default=default)


def color_prop(name: str, default: Any, keywords: tuple[str, ...] = ("none",)) -> Prop:
    return prop(name, lambda v, n: pv.color_value(pv.parse_color(v, n, keywords)), default)


def choice_prop(name: str, allowed: tuple[str, ...], default: str | None = None) -> Prop:
    return prop(name, lambda v, n: char_row(pv.choice(v, n, allowed)),
                char_row(default if default is not None else allowed[0]))


def number_prop(name: str, default: float, allow_zero: bool = False) -> Prop:
    return prop(name, lambda v, n: pv.positive_number(v, n, allow_zero), default)


def real_prop(name: str, default: float) -> Prop:
    return prop(name, pv.real_number, default)


def fraction_prop(name: str, default: float) -> Prop:
    def read(value: Any, n: str) -> float:
        number = pv.real_number(value, n)
        if not 0 <= number <= 1:
            raise pv.bad_value(n, "Value must be a scalar between 0 and 1.")
        return number
    return prop(name, read, default)


def text_prop(name: str, default: str = "") -> Prop:
    return prop(name, lambda v, n: char_row(pv.text_value(v, n)), char_row(default))


def vector_prop(name: str) -> Prop:
    return prop(name, lambda v, n: row_of(pv.real_vector(v, n)), np.zeros((1, 0)))


def line_style_prop(default: str = "-") -> Prop:
    return choice_prop("LineStyle", ("-", "--", ":", "-.", "none"), default)


def marker_prop(default: str = "none") -> Prop:
    return choice_prop("Marker", ("none", *MARKERS), default)


def display_name_prop() -> Prop:
    def write(h: ChartObject, value: Any) -> Any:
        name = char_row(pv.text_value(value, "DisplayName"))
        h.stored["DisplayName"] = name
        axes = h.axes()
        if axes is not None and axes.legend is not None and axes.legend.valid:
            axes.legend.rename(h, pv.text_value(name, "DisplayName"))
        return name
    return Prop(set=write, default=char_row(""))


def visible_prop() -> Prop:
    return prop("Visible", lambda v, n: pv.on_off_value(pv.on_off(v, n)), char_row("on"))


def base_properties() -> dict[str, Prop]:
    """The properties every chart object has."""
    return {"DisplayName": display_name_prop(), "Visible": visible_prop()}


define_properties(ChartObject, base_properties())


# ---------------------------------------------------------------- values


def row_of(values: Any) -> np.ndarray:
    """A 1×N double row (1×0 when empty)."""
    data = np.asarray(values, dtype=float).ravel()
    return data.reshape(1, -1)


def mpl_color(value: Any) -> Any:
    """A stored colour property for matplotlib: an RGB tuple, or the keyword."""
    if is_text(value):
        return pv.text_value(value, "")
    data = np.asarray(value, dtype=float).ravel()
    return (float(data[0]), float(data[1]), float(data[2]))


def mpl_line_style(style: str) -> str:
    return "None" if style == "none" else style


def mpl_marker(marker: str) -> str:
    return "None" if marker == "none" else MARKERS[marker]


def is_numeric(value: Any) -> bool:
    cls = class_of(value)
    return cls in ("double", "single", "logical") or cls.startswith(("int", "uint"))


def numeric_data(value: Any, function: str, what: str = "Input arguments") -> np.ndarray:
    """A numeric argument as a 2-D float array (its real part), else MATLAB's error."""
    if not is_numeric(value):
        raise error(f"MATLAB:{function}:InvalidData",
                    f"{what} must be numeric, datetime, duration or categorical.")
    data = to_double_array(value)
    data = np.real(data).astype(float)
    return data.reshape(data.shape[0], -1) if data.ndim > 2 else np.atleast_2d(data)


def handles_value(objects: list[GraphicsHandle]) -> Any:
    """The handles a chart function returns: one object, or a row of them."""
    if not objects:
        return GraphicsArray([], (0, 0))
    return simplify(list(objects), (1, len(objects)))


def not_enough_inputs() -> Exception:
    return error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")


def leading_data(args: list) -> tuple[list, list]:
    """The data arguments (those before the first text) and the rest."""
    k = 0
    while k < len(args) and not is_text(args[k]):
        k += 1
    return list(args[:k]), list(args[k:])


# Above this many bars a bar chart or histogram is one collection of polygons: a patch a
# bar takes seconds for 1e4 bins, a collection milliseconds.
MANY_BARS = 100


def bar_rectangles(ax: Any, starts: np.ndarray, sizes: np.ndarray, bottoms: np.ndarray,
                   heights: np.ndarray, horizontal: bool, face: Any, options: dict[str, Any]) -> list[Any]:
    """Bars as matplotlib artists: one Rectangle a bar (few bars), else one PolyCollection.

    A bar runs from ``starts`` to ``starts + sizes`` along the category axis and from
    ``bottoms`` to ``bottoms + heights`` along the value axis; ``face`` is one colour or one
    a bar; ``options`` are edgecolor, linewidth, alpha and linestyle."""
    starts, sizes = np.broadcast_to(starts, heights.shape), np.broadcast_to(sizes, heights.shape)
    bottoms = np.broadcast_to(bottoms, heights.shape)
    if heights.size <= MANY_BARS:
        if horizontal:
            container = ax.barh(starts, heights, height=sizes, left=bottoms, align="edge", color=face,
                                **options)
        else:
            container = ax.bar(starts, heights, width=sizes, bottom=bottoms, align="edge", color=face,
                               **options)
        return list(container.patches)
    from matplotlib.collections import PolyCollection  # matplotlib on first use: keeps start-up fast

    one_colour = all(isinstance(c, str) or np.ndim(c) <= 1 for c in (face, options.get("edgecolor")))
    if one_colour and _side_by_side(starts, sizes, bottoms, heights):
        return _touching_bars(ax, starts, sizes, bottoms[0], heights, horizontal, face, options)
    x0, x1 = starts, starts + sizes
    y0, y1 = bottoms, bottoms + heights
    corners = np.stack([np.stack([x0, y0], -1), np.stack([x0, y1], -1),
                        np.stack([x1, y1], -1), np.stack([x1, y0], -1)], axis=1)
    if horizontal:
        corners = corners[:, :, ::-1]
    collection = PolyCollection(corners, closed=True, facecolors=face,
                                edgecolors=options.get("edgecolor"), linewidths=options.get("linewidth"),
                                linestyles=options.get("linestyle", "-") if options.get("linestyle") != "None"
                                else "solid", alpha=options.get("alpha"))
    if options.get("linestyle") == "None":
        collection.set_linewidth(0)
    _sit_on_base(ax, collection, bottoms[0], horizontal)
    return [collection]


def _sit_on_base(ax: Any, collection: Any, base: float, horizontal: bool) -> None:
    """Add the bars' collection; the value axis sits on the bars' base, with no margin below
    it, as ax.bar does."""
    sticky = collection.sticky_edges.x if horizontal else collection.sticky_edges.y
    sticky.append(float(base))
    ax.add_collection(collection, autolim=True)
    ax.autoscale_view()


def _side_by_side(starts: np.ndarray, sizes: np.ndarray, bottoms: np.ndarray, heights: np.ndarray) -> bool:
    """Whether the bars stand on one base, in order, each ending where the next starts
    (a histogram's bins), all of finite height."""
    if (starts.size < 2 or not np.all(bottoms == bottoms[0]) or not np.all(sizes > 0)
            or not np.all(np.isfinite(heights))):
        return False
    ends = starts + sizes
    span = float(ends[-1] - starts[0])
    return bool(np.isfinite(span) and np.all(np.abs(ends[:-1] - starts[1:]) <= 1e-9 * span))


def _touching_bars(ax: Any, starts: np.ndarray, sizes: np.ndarray, base: float, heights: np.ndarray,
                   horizontal: bool, face: Any, options: dict[str, Any]) -> list[Any]:
    """Side-by-side bars of one colour as a filled outline (one polygon) and their edges as
    one unbroken line (up each bin's left side, across its top, down its right side): a path
    a bar takes seconds to make and draw for 1e6 bins, these two a second at most, and look
    the same."""
    from matplotlib.collections import PolyCollection  # matplotlib, loaded already by the caller
    from matplotlib.lines import Line2D

    edges = np.append(starts, starts[-1] + sizes[-1])
    tops = base + heights
    outline = np.empty((2 * edges.size, 2))
    outline[:, 0] = np.repeat(edges, 2)
    outline[[0, -1], 1] = base
    outline[1:-1, 1] = np.repeat(tops, 2)
    walk = np.empty((4 * heights.size + 1, 2))
    corner_x, corner_y = walk[:-1, 0].reshape(-1, 4), walk[:-1, 1].reshape(-1, 4)
    corner_x[:, :2], corner_x[:, 2:] = edges[:-1, None], edges[1:, None]
    corner_y[:, [0, 3]], corner_y[:, 1:3] = base, tops[:, None]
    walk[-1] = (edges[0], base)
    if horizontal:
        outline, walk = outline[:, ::-1], walk[:, ::-1]
    fill = PolyCollection([outline], closed=True, facecolors=face, edgecolors="none",
                          alpha=options.get("alpha"))
    _sit_on_base(ax, fill, base, horizontal)
    edge, style = options.get("edgecolor"), options.get("linestyle", "-")
    if edge is None or (isinstance(edge, str) and edge == "none") or style == "None":
        return [fill]
    line = Line2D(walk[:, 0], walk[:, 1], color=edge, linewidth=options.get("linewidth"), linestyle=style,
                  alpha=options.get("alpha"), solid_joinstyle="miter")
    ax.add_line(line)
    return [fill, line]


def bars_legend_artist(artists: list[Any]) -> Any:
    """What a legend shows for bars: side-by-side bars drawn as a fill and an edge line
    show as one patch with both."""
    from matplotlib.lines import Line2D  # matplotlib, loaded already by the drawing
    from matplotlib.patches import Patch

    if len(artists) != 2 or not isinstance(artists[1], Line2D):
        return artists[0] if artists else None
    fill, line = artists
    return Patch(facecolor=fill.get_facecolor()[0], edgecolor=line.get_color(),
                 linewidth=line.get_linewidth(), linestyle=line.get_linestyle(), alpha=fill.get_alpha())
