"""Colour mapping: the Colormap of figures and axes, the axes' colour limits (CLim),
colorbar, and the colormap, clim and caxis functions.

An object whose colours come from the colormap (an image, a surface, a contour) has two
methods: ``color_data()`` gives the values it maps through CLim (None: it maps none, or
maps them directly) and ``apply_colors(colors, clim)`` draws it with the colormap (an
m-by-3 array) and the limits.  ``refresh_colors(axes)`` calls them on every child of the
axes, and updates the axes' colorbars, after anything that changes the mapping: a new
object, ``clim``, ``colormap``.  With CLimMode 'auto' the limits span the mapped data of
the children ([0 1] when there is none).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import text_list, text_or_none
from mlang.builtins.graphics import colormaps
from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.figure_axes import Axes, Figure
from mlang.builtins.graphics.figures import current_axes, current_figure
from mlang.builtins.graphics.handles import GraphicsHandle, Prop, Text, add_properties, define_properties
from mlang.builtins.graphics.plot_args import apply_options, option_pairs, pop_target
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, is_text, to_double_array

DEFAULT_CLIM = (0.0, 1.0)


# ---------------------------------------------------------------- colormap values


def colormap_matrix(value: Any, interp: Any = None, length: int | None = None) -> np.ndarray:
    """A colormap given as a name ('jet') or an m-by-3 matrix of values in [0, 1]."""
    name = text_or_none(value)
    if name is not None:
        if not colormaps.is_colormap_name(name):
            raise error("MATLAB:colormap:InvalidInputs",
                        f"'{name}' is not a valid colormap name.")
        return colormaps.colormap_by_name(name, length, interp)
    if class_of(value) not in ("double", "single") and not class_of(value).startswith(("int", "uint")):
        raise error("MATLAB:colormap:InvalidInputs", "Colormap must be a colormap name or an m-by-3 matrix.")
    matrix = to_double_array(value).real
    if class_of(value) == "uint8":
        matrix = matrix / 255.0
    if matrix.ndim != 2 or matrix.shape[1] != 3:
        raise error("MATLAB:colormap:InvalidNumberColumns", "Colormap must have 3 columns: [R,G,B].")
    if matrix.shape[0] == 0 or not np.all((matrix >= 0) & (matrix <= 1)):
        raise error("MATLAB:colormap:InvalidInputRange", "Colormap must have values in [0,1].")
    return matrix.astype(float).copy()


def figure_colormap(figure: Figure | None) -> np.ndarray:
    if figure is None:
        return colormaps.parula_map(colormaps.DEFAULT_LENGTH)
    stored = figure.stored.get("Colormap")
    return stored if stored is not None else colormaps.parula_map(colormaps.DEFAULT_LENGTH)


def axes_colormap(axes: Axes) -> np.ndarray:
    """The colormap an axes draws with: its own, else its figure's."""
    own = axes.stored.get("Colormap")
    return own if own is not None else figure_colormap(axes.figure())


def mapped_children(axes: Axes) -> list[GraphicsHandle]:
    return [c for c in axes.children if c.valid and callable(getattr(c, "apply_colors", None))]


def auto_clim(axes: Axes) -> tuple[float, float]:
    """The colour limits of CLimMode 'auto': the range of the children's mapped data."""
    low, high = np.inf, -np.inf
    for child in mapped_children(axes):
        data = child.color_data()
        if data is None:
            continue
        finite = np.asarray(data, dtype=float)
        finite = finite[np.isfinite(finite)]
        if finite.size:
            low, high = min(low, float(finite.min())), max(high, float(finite.max()))
    if not np.isfinite(low):
        return DEFAULT_CLIM
    if low == high:
        return (low - 1.0, high + 1.0)
    return (low, high)


def axes_clim(axes: Axes) -> tuple[float, float]:
    if pv.text_value(axes.get_value("CLimMode"), "CLimMode") == "manual" and "CLim" in axes.stored:
        stored = np.asarray(axes.stored["CLim"], dtype=float).ravel()
        return (float(stored[0]), float(stored[1]))
    return auto_clim(axes)


def refresh_colors(axes: Axes) -> None:
    """Draw the axes' colour-mapped children and colorbars with its colormap and CLim."""
    if not axes.valid:
        return
    colors = axes_colormap(axes)
    clim = axes_clim(axes)
    for child in mapped_children(axes):
        child.apply_colors(colors, clim)
    for bar in colorbars_of(axes):
        bar.update(colors, clim)
    axes.changed()


def refresh_figure(figure: Figure) -> None:
    for child in list(figure.children):
        if isinstance(child, Axes) and child.valid:
            refresh_colors(child)


def mpl_colormap(colors: np.ndarray) -> Any:
    from matplotlib.colors import ListedColormap  # matplotlib on first use: keeps start-up fast

    cmap = ListedColormap(np.asarray(colors, dtype=float))
    return cmap


# matplotlib works with the span of the colour limits (a colorbar's axis): limits near the
# largest double would overflow it, so they are drawn as at most this large.
LARGEST_DRAWN_LIMIT = float(np.finfo(np.float64).max / 4)


def mpl_norm(clim: tuple[float, float]) -> Any:
    from matplotlib.colors import Normalize  # matplotlib on first use: keeps start-up fast

    low, high = (min(max(v, -LARGEST_DRAWN_LIMIT), LARGEST_DRAWN_LIMIT) for v in clim)
    return Normalize(vmin=low, vmax=high, clip=False)


def map_values(values: np.ndarray, colors: np.ndarray, clim: tuple[float, float]) -> np.ndarray:
    """RGB colours of values through a colormap and limits, as MATLAB indexes it
    (fix((v - cmin) / (cmax - cmin) * m) + 1, clamped); NaN gives NaN."""
    m = colors.shape[0]
    span = clim[1] - clim[0]
    scaled = (np.asarray(values, dtype=float) - clim[0]) / (span if span else 1.0)
    index = np.clip(np.floor(np.nan_to_num(scaled, nan=0.0) * m), 0, m - 1).astype(int)
    rgb = colors[index]
    rgb[np.isnan(values)] = np.nan
    return rgb


def direct_colors(values: np.ndarray, colors: np.ndarray, zero_based: bool) -> np.ndarray:
    """CDataMapping 'direct': values index the colormap (1-based, 0-based for integers)."""
    index = np.floor(np.nan_to_num(np.asarray(values, dtype=float), nan=1.0 - zero_based))
    if not zero_based:
        index = index - 1
    index = np.clip(index, 0, colors.shape[0] - 1).astype(int)
    return colors[index]


# ---------------------------------------------------------------- properties


def _set_axes_colormap(h: Axes, value: Any) -> Any:
    h.stored["Colormap"] = colormap_matrix(value)
    refresh_colors(h)
    return h.stored["Colormap"]


def _set_figure_colormap(h: Figure, value: Any) -> Any:
    h.stored["Colormap"] = colormap_matrix(value)
    refresh_figure(h)
    return h.stored["Colormap"]


def _clim_value(value: Any, name: str = "CLim") -> tuple[float, float]:
    data = pv.real_vector(value, name, 2)
    if not data[0] < data[1] or not np.all(np.isfinite(data)):
        raise pv.bad_value(name, "Value must be a 2-element vector of increasing numeric values.")
    return (float(data[0]), float(data[1]))


def _set_clim(h: Axes, value: Any) -> None:
    low, high = _clim_value(value)
    h.stored["CLim"] = np.array([[low, high]])
    h.stored["CLimMode"] = char_row("manual")
    refresh_colors(h)


def _set_clim_mode(h: Axes, value: Any) -> Any:
    h.stored["CLimMode"] = char_row(pv.choice(value, "CLimMode", ("auto", "manual")))
    if pv.text_value(h.stored["CLimMode"], "") == "manual" and "CLim" not in h.stored:
        h.stored["CLim"] = np.array([list(auto_clim(h))])
    refresh_colors(h)
    return h.stored["CLimMode"]


add_properties(Axes, {
    "Colormap": Prop(get=lambda h: axes_colormap(h), set=_set_axes_colormap),
    "CLim": Prop(get=lambda h: np.array([list(axes_clim(h))]), set=_set_clim),
    "CLimMode": Prop(set=_set_clim_mode, default=char_row("auto")),
})
add_properties(Figure, {
    "Colormap": Prop(get=lambda h: figure_colormap(h), set=_set_figure_colormap),
})


def _figure_colormap_length(interp: Any) -> int | None:
    figure = current_figure(interp, create=False)
    return None if figure is None else int(figure_colormap(figure).shape[0])


colormaps.use_figure_colormap_length(_figure_colormap_length)


# ---------------------------------------------------------------- colorbar

# MATLAB's colorbar locations -> (matplotlib side, inside the axes)
COLORBAR_LOCATIONS = {
    "eastoutside": ("right", False), "westoutside": ("left", False),
    "northoutside": ("top", False), "southoutside": ("bottom", False),
    "east": ("right", True), "west": ("left", True), "north": ("top", True), "south": ("bottom", True),
}
# Where an inside colorbar sits, in axes fractions (x, y, width, height).
_INSIDE_BOUNDS = {"right": (0.90, 0.05, 0.04, 0.90), "left": (0.06, 0.05, 0.04, 0.90),
                  "top": (0.05, 0.90, 0.90, 0.04), "bottom": (0.05, 0.06, 0.90, 0.04)}


class ColorBar(GraphicsHandle):
    """A colorbar: a child of the figure showing an axes' colormap and colour limits
    (``target``), drawn as a matplotlib colorbar of its own scalar mappable."""

    matlab_class = "matlab.graphics.illustration.ColorBar"
    display_name = "ColorBar"
    type_name = "colorbar"
    display_order = ("Location", "Limits", "FontSize", "Position", "Units")
    __slots__ = ("target", "mappable", "label")

    def __init__(self, figure: Figure, target: Axes, location: str) -> None:
        super().__init__(figure)
        self.target = target
        self.stored["Location"] = char_row(location)
        self.mappable: Any = None
        self.label: Text | None = None
        self.draw()
        self.apply_defaults()

    def draw(self) -> None:
        """Make the matplotlib colorbar (again, after the location changed)."""
        import matplotlib.cm as cm  # matplotlib on first use: keeps start-up fast

        if self.artist is not None:
            self.remove_artist()
        colors, clim = axes_colormap(self.target), axes_clim(self.target)
        self.mappable = cm.ScalarMappable(norm=mpl_norm(clim), cmap=mpl_colormap(colors))
        side, inside = COLORBAR_LOCATIONS[pv.text_value(self.stored["Location"], "Location").lower()]
        figure = self.figure().artist
        horizontal = side in ("top", "bottom")
        if inside:
            cax = self.target.artist.inset_axes(_INSIDE_BOUNDS[side])
            self.artist = figure.colorbar(self.mappable, cax=cax,
                                          orientation="horizontal" if horizontal else "vertical")
        else:
            self.artist = figure.colorbar(self.mappable, ax=self.target.artist, location=side,
                                          fraction=0.05, pad=0.04)
        self.artist.outline.set_linewidth(0.5)
        from matplotlib.ticker import MaxNLocator  # matplotlib on first use: keeps start-up fast

        self.artist.locator = MaxNLocator(nbins="auto", steps=[1, 2, 5, 10])  # MATLAB's tick steps
        axis = self.artist.ax.xaxis if horizontal else self.artist.ax.yaxis
        old_label = self.label
        self.label = Text(None, axis.label)
        self.label.parent = self
        if old_label is not None:
            text = old_label.stored.get("String")
            old_label.valid = False
            if text is not None:
                self.label.set_value("String", text)
        self.label.apply_defaults()

    def update(self, colors: np.ndarray, clim: tuple[float, float]) -> None:
        if self.mappable is None:
            return
        self.mappable.set_cmap(mpl_colormap(colors))
        self.mappable.set_norm(mpl_norm(clim))
        self.changed()

    def remove_artist(self) -> None:
        if self.artist is not None:
            try:
                self.artist.remove()
            except (ValueError, AttributeError, KeyError):
                pass
            self.artist = None


def _colorbar_location(h: ColorBar, value: Any) -> Any:
    location = pv.choice(value, "Location", tuple(COLORBAR_LOCATIONS))
    h.stored["Location"] = char_row(location)
    h.draw()
    return h.stored["Location"]


def _colorbar_limits(h: ColorBar) -> Any:
    low, high = h.artist.ax.get_ylim() if _vertical(h) else h.artist.ax.get_xlim()
    return np.array([[float(low), float(high)]])


def _vertical(h: ColorBar) -> bool:
    return h.artist.orientation == "vertical"


def _set_colorbar_limits(h: ColorBar, value: Any) -> None:
    low, high = _clim_value(value, "Limits")
    (h.artist.ax.set_ylim if _vertical(h) else h.artist.ax.set_xlim)(low, high)


def _colorbar_ticks(h: ColorBar) -> Any:
    ticks = np.asarray(h.artist.get_ticks(), dtype=float)
    low, high = _colorbar_limits(h).ravel()
    ticks = ticks[(ticks >= low - 1e-12) & (ticks <= high + 1e-12)]
    return pv.row_value(ticks) if ticks.size else np.zeros((1, 0))


def _set_colorbar_ticks(h: ColorBar, value: Any) -> None:
    h.artist.set_ticks(list(pv.real_vector(value, "Ticks")))


def _set_colorbar_font_size(h: ColorBar, value: Any) -> Any:
    size = pv.positive_number(value, "FontSize")
    h.artist.ax.tick_params(labelsize=size)
    return size


def _set_colorbar_tick_labels(h: ColorBar, value: Any) -> Any:
    labels = text_list(value, "TickLabels")
    ticks = list(np.asarray(h.artist.get_ticks(), dtype=float))[:len(labels)]
    h.artist.set_ticks(ticks, labels=labels[:len(ticks)])
    return value


def _set_colorbar_direction(h: ColorBar, value: Any) -> Any:
    word = pv.choice(value, "Direction", ("normal", "reverse"))
    axis = h.artist.ax.yaxis if _vertical(h) else h.artist.ax.xaxis
    if (word == "reverse") != axis.get_inverted():
        axis.set_inverted(word == "reverse")
    return char_row(word)


def _set_colorbar_visible(h: ColorBar, value: Any) -> Any:
    flag = pv.on_off(value, "Visible")
    h.artist.ax.set_visible(flag)
    return pv.on_off_value(flag)


define_properties(ColorBar, {
    "Location": Prop(set=_colorbar_location, default=char_row("eastoutside")),
    "Limits": Prop(get=_colorbar_limits, set=_set_colorbar_limits),
    "Ticks": Prop(get=_colorbar_ticks, set=_set_colorbar_ticks),
    "TickLabels": Prop(set=_set_colorbar_tick_labels, default=lambda h: _tick_label_cell(h)),
    "Label": Prop(get=lambda h: h.label),
    "FontSize": Prop(set=_set_colorbar_font_size, default=9.0),
    "Direction": Prop(set=_set_colorbar_direction, default=char_row("normal")),
    "Visible": Prop(set=_set_colorbar_visible, default=char_row("on")),
    "Colormap": Prop(get=lambda h: axes_colormap(h.target)),
    "Position": Prop(get=lambda h: np.array([list(h.artist.ax.get_position().bounds)])),
    "Units": Prop(default=char_row("normalized")),
})


def _tick_label_cell(h: ColorBar) -> Any:
    ticks = _colorbar_ticks(h)
    labels = [char_row(f"{t:g}") for t in np.asarray(ticks, dtype=float).ravel()]
    column = Cell.filled((len(labels), 1))
    for k, label in enumerate(labels):
        column.data[k, 0] = label
    return column


def colorbars_of(axes: Axes) -> list[ColorBar]:
    figure = axes.figure()
    if figure is None:
        return []
    return [c for c in figure.children if isinstance(c, ColorBar) and c.valid and c.target is axes]


@builtin("colorbar", interp=True, nargout=True, max_out=1)
def colorbar(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """colorbar  show the colour scale of the current axes.

    colorbar adds a colorbar to the right of the current axes (or shows it again);
    colorbar(location) places it: 'eastoutside' (the default), 'westoutside',
    'northoutside', 'southoutside', or inside the axes 'east', 'west', 'north', 'south'.
    colorbar('off') (or 'delete') removes it.  colorbar(ax, ...) targets the axes ax;
    name=value options set ColorBar properties (Location, Ticks, Direction, FontSize...).
    c = colorbar(...) returns the ColorBar object."""
    rest = list(args)
    target = pop_target(rest, Axes, "MATLAB:colorbar:InvalidTarget", "Target must be an axes.")
    location = "eastoutside"
    if rest and is_text(rest[0]) and len(rest) % 2 == 1:
        word = (text_or_none(rest.pop(0)) or "").lower()
        if word in ("off", "delete", "hide"):
            axes = target or current_axes(interp, create=False)
            if axes is not None:
                for bar in colorbars_of(axes):
                    bar.delete()
            return None
        if word not in COLORBAR_LOCATIONS:
            raise error("MATLAB:colorbar:InvalidLocation", f"Invalid location '{word}'.")
        location = word
    pairs = option_pairs(rest, "colorbar")
    for name, value in pairs:
        if name.lower() == "location":
            location = pv.choice(value, "Location", tuple(COLORBAR_LOCATIONS))
    axes = target or current_axes(interp)
    for bar in colorbars_of(axes):
        bar.delete()
    bar = ColorBar(axes.figure(), axes, location)
    apply_options(bar, [(n, v) for n, v in pairs if n.lower() != "location"], "colorbar")
    axes.changed()
    return bar if nargout else None


# ---------------------------------------------------------------- colormap, clim


@builtin("colormap", interp=True, nargout=True, max_out=1)
def colormap(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """colormap  view and set the colormap.

    colormap(map) sets the current figure's colormap (and the current axes' when they
    have one of their own, as imshow gives them): map is a colormap name ('jet', 'gray',
    'parula'...) or an m-by-3 matrix of RGB values in [0, 1]; colormap default restores
    parula.  colormap(target, map) sets the colormap of a figure or axes.
    c = colormap returns the current colormap (c = colormap(target) that of target)."""
    rest = list(args)
    target = pop_target(rest, (Axes, Figure), "MATLAB:colormap:InvalidTarget",
                        "Target must be a figure or an axes.")
    if len(rest) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if not rest:
        if target is None:
            axes = current_axes(interp)
            return axes_colormap(axes)
        return target.get_value("Colormap")
    value = rest[0]
    if (text_or_none(value) or "").lower() == "default":
        value = colormaps.parula_map(colormaps.DEFAULT_LENGTH)
    matrix = colormap_matrix(value, interp)
    if target is None:
        figure = current_figure(interp)
        figure.set_value("Colormap", matrix)
        # the current axes follow too when they have a colormap of their own (imshow gave one)
        axes = figure.current_axes
        if axes is not None and axes.valid and "Colormap" in axes.stored:
            axes.set_value("Colormap", matrix)
    else:
        target.set_value("Colormap", matrix)
    return matrix if nargout else None


def _clim_function(interp: Any, args: tuple, nargout: int, function: str) -> Any:
    rest = list(args)
    axes = pop_target(rest, Axes, f"MATLAB:{function}:InvalidTarget", "Target must be an axes.")
    axes = axes or current_axes(interp)
    if len(rest) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if not rest:
        return np.array([list(axes_clim(axes))])
    word = text_or_none(rest[0])
    if word is not None:
        word = word.lower()
        if word == "mode":
            return axes.get_value("CLimMode")
        if word in ("auto", "manual"):
            axes.set_value("CLimMode", char_row(word))
            return None
        raise error(f"MATLAB:{function}:InvalidInput", f"Invalid {function} option '{word}'.")
    if class_of(rest[0]) not in ("double", "single") and not class_of(rest[0]).startswith(("int", "uint")):
        raise error(f"MATLAB:{function}:InvalidInput", "Limits must be a 2-element vector of increasing "
                                                      "numeric values.")
    data = to_double_array(rest[0]).real.ravel()
    if data.size != 2 or not data[0] < data[1]:
        raise error(f"MATLAB:{function}:InvalidInput", "Limits must be a 2-element vector of increasing "
                                                      "numeric values.")
    axes.set_value("CLim", np.array([[float(data[0]), float(data[1])]]))
    return np.array([[float(data[0]), float(data[1])]]) if nargout else None


@builtin("clim", interp=True, nargout=True, max_out=1)
def clim(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """clim  set and query the colour limits of the current axes.

    clim([cmin cmax]) maps data values cmin and below to the first colour of the
    colormap and cmax and above to the last; clim('auto') spans the data again (the
    default); clim('manual') keeps the limits where they are; lims = clim returns them;
    m = clim('mode') returns 'auto' or 'manual'.  clim(ax, ...) works on the axes ax."""
    out = _clim_function(interp, args, nargout, "clim")
    return out if (nargout or not args or out is not None and is_text(out)) else None


@builtin("caxis", interp=True, nargout=True, max_out=1)
def caxis(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """caxis  set and query the colour limits (the older name of clim).

    caxis([cmin cmax]), caxis('auto'), caxis('manual'), lims = caxis and caxis(ax, ...)
    work as clim does."""
    out = _clim_function(interp, args, nargout, "caxis")
    return out if (nargout or not args or out is not None and is_text(out)) else None
