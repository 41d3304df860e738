"""Fields over a plane: contour, contourf (the Contour object and MATLAB's contour
matrix) and quiver, quiver3 (the Quiver object).

A contour's lines are found with contourpy (what matplotlib draws contours with) and
drawn as matplotlib contour sets, coloured by level through the colormap (LineColor
'flat') or in one colour.  ``[C, h] = contour(...)`` gives the contour matrix: for each
line a column [level; number of points] followed by its points' x and y.

A quiver draws each arrow as lines (a shaft and a two-stroke head, as MATLAB draws
them), scaled with MATLAB's automatic scaling unless AutoScale is 'off'.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import checked_shape, text_or_none
from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.figure_axes import Axes
from mlang.builtins.graphics.figures import current_axes
from mlang.builtins.graphics.handles import GraphicsHandle, Prop, define_properties
from mlang.builtins.graphics.images_color import map_values, refresh_colors
from mlang.builtins.graphics.plot_args import MARKERS, apply_options, option_pairs, parse_line_spec
from mlang.builtins.graphics.surfaces import DEFAULT_VIEW, set_view, split_surface_args, surface_grids
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, class_of, to_double_array

# ---------------------------------------------------------------- levels


def auto_levels(z: np.ndarray, count: int | None = None) -> np.ndarray:
    """MATLAB's levels for Z: about ten at a round step within its range; ``count`` given,
    that many evenly spaced strictly inside it (linspace(min, max, count + 2) without its
    ends, as MATLAB picks them)."""
    finite = z[np.isfinite(z)]
    if finite.size == 0:
        return np.zeros(0)
    low, high = float(finite.min()), float(finite.max())
    if low == high:
        return np.array([low])
    if count is not None:
        if count <= 0:
            return np.zeros(0)
        return np.linspace(low, high, count + 2)[1:-1]
    from matplotlib.ticker import MaxNLocator  # matplotlib on first use: keeps start-up fast

    ticks = MaxNLocator(nbins=10, steps=[1, 2, 2.5, 5, 10]).tick_values(low, high)
    return ticks[(ticks >= low) & (ticks <= high)]


def contour_matrix(x: np.ndarray, y: np.ndarray, z: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """MATLAB's contour matrix: each line as [level; n] then n columns of [x; y]."""
    import contourpy  # (matplotlib's contouring) on first use: keeps start-up fast

    masked = np.ma.masked_invalid(z)
    generator = contourpy.contour_generator(x, y, masked, line_type=contourpy.LineType.Separate)
    columns = []
    for level in levels:
        for segment in generator.lines(float(level)):
            points = np.asarray(segment, dtype=float)
            columns.append(np.array([[level], [points.shape[0]]], dtype=float))
            columns.append(points.T)
    return np.hstack(columns) if columns else np.zeros((2, 0))


class Contour(GraphicsHandle):
    """A contour plot: its grids (``x``, ``y``, ``z``), whether it is filled, and a
    matplotlib contour set (and one of lines over the filled one)."""

    matlab_class = "matlab.graphics.chart.primitive.Contour"
    display_name = "Contour"
    type_name = "contour"
    display_order = ("LineColor", "LineStyle", "LineWidth", "Fill", "LevelList", "XData", "YData", "ZData")
    __slots__ = ("x", "y", "z", "levels", "count", "sets", "labels")

    def __init__(self, axes: Axes, x: np.ndarray, y: np.ndarray, z: np.ndarray, filled: bool,
                 levels: np.ndarray | None, count: int | None) -> None:
        super().__init__(axes)
        self.x, self.y, self.z = x, y, z
        self.count = count
        self.levels = levels
        self.sets: list[Any] = []
        self.labels: list[Any] = []
        self.stored["Fill"] = pv.on_off_value(filled)
        self.stored["LineColor"] = np.zeros((1, 3)) if filled else char_row("flat")
        self.stored["LevelListMode"] = char_row("auto" if levels is None else "manual")
        self.apply_defaults()

    @property
    def filled(self) -> bool:
        return pv.on_off(self.get_value("Fill"), "Fill")

    def level_list(self) -> np.ndarray:
        if self.levels is not None:
            return self.levels
        return auto_levels(self.z, self.count)

    def color_data(self) -> np.ndarray | None:
        return self.z

    def drawable(self) -> bool:
        """Whether the grids make contours: at least 2-by-2, of one size, some values finite."""
        return (self.z.ndim == 2 and min(self.z.shape) >= 2 and self.x.shape == self.y.shape == self.z.shape
                and bool(np.isfinite(self.z).any()))

    def apply_colors(self, colors: np.ndarray, clim: tuple[float, float]) -> None:
        """Draw the contour sets again with the colormap and limits."""
        self.remove_artist()
        axes = self.axes()
        levels = self.level_list()
        if levels.size == 0 or not self.drawable():
            return
        level_colors = map_values(levels, colors, clim)
        masked = np.ma.masked_invalid(self.z)
        ax = axes.artist
        if self.filled:
            # bands between the levels take the colour of the level below them; the values
            # below the lowest level are filled too, with the colour of the smallest value
            finite = self.z[np.isfinite(self.z)]
            low, high = float(finite.min()), float(finite.max())
            edges = np.concatenate([[min(low, levels[0]) - 1.0], levels, [max(high, levels[-1]) + 1.0]])
            band_colors = np.vstack([map_values(np.array([low]), colors, clim), level_colors])
            self.sets.append(ax.contourf(self.x, self.y, masked, levels=edges,
                                         colors=[tuple(c) for c in band_colors]))
        width = float(self.get_value("LineWidth"))
        style = pv.text_value(self.get_value("LineStyle"), "LineStyle")
        line_color = self.get_value("LineColor")
        word = text_or_none(line_color)
        if word != "none" and style != "none":
            if word == "flat":
                line_colors = [tuple(c) for c in level_colors]
            else:
                line_colors = [tuple(np.asarray(line_color, dtype=float).ravel())] * levels.size
            line_set = ax.contour(self.x, self.y, masked, levels=levels, colors=line_colors,
                                  linewidths=width, linestyles={"-": "solid", "--": "dashed", ":": "dotted",
                                                                "-.": "dashdot"}[style])
            self.sets.append(line_set)
            if pv.on_off(self.get_value("ShowText"), "ShowText") and not axes.is_3d:
                self.labels = list(ax.clabel(line_set, fontsize=8, colors="k"))
        self.artist = self.sets[0] if self.sets else None

    def legend_artist(self) -> Any:
        from matplotlib.patches import Patch  # matplotlib on first use: keeps start-up fast

        if self.sets:
            color = self.sets[0].get_edgecolor() if not self.filled else self.sets[0].get_facecolor()
            if len(color):
                return Patch(facecolor=color[len(color) // 2] if self.filled else "none",
                             edgecolor=color[len(color) // 2])
        return Patch(facecolor="none")

    def remove_artist(self) -> None:
        for artist in self.sets + self.labels:
            try:
                artist.remove()
            except (ValueError, AttributeError, NotImplementedError):
                pass
        self.sets, self.labels = [], []
        self.artist = None

    def update(self) -> None:
        axes = self.axes()
        if axes is not None:
            refresh_colors(axes)


def _contour_data(name: str) -> Prop:
    def read(h: Contour) -> Any:
        return getattr(h, name[0].lower())

    def write(h: Contour, value: Any) -> None:
        data = to_double_array(value).real.astype(float) if class_of(value) in ("double", "single") else None
        if data is None or data.ndim != 2:
            raise pv.bad_value(name, "Value must be a numeric matrix.")
        if name == "ZData":
            if data.shape != h.z.shape:
                h.y, h.x = (np.mgrid[1:data.shape[0] + 1, 1:data.shape[1] + 1]).astype(float)
            h.z = data
        else:
            x, y, _, _ = surface_grids([data, h.y, h.z] if name == "XData" else [h.x, data, h.z], "contour")
            h.x, h.y = x, y
        h.update()

    return Prop(get=read, set=write)


def _set_level_list(h: Contour, value: Any) -> None:
    levels = np.unique(pv.real_vector(value, "LevelList", finite=True))
    h.levels = levels
    h.stored["LevelListMode"] = char_row("manual")
    h.update()


def _set_level_mode(h: Contour, value: Any) -> Any:
    mode = pv.choice(value, "LevelListMode", ("auto", "manual"))
    if mode == "auto":
        h.levels = None
    h.stored["LevelListMode"] = char_row(mode)
    h.update()
    return h.stored["LevelListMode"]


def _contour_redraw(name: str, read: Any, default: Any = None) -> Prop:
    def write(h: Contour, value: Any) -> Any:
        h.stored[name] = read(value)
        h.update()
        return h.stored[name]

    return Prop(set=write, default=default)


define_properties(Contour, {
    "XData": _contour_data("XData"), "YData": _contour_data("YData"), "ZData": _contour_data("ZData"),
    "LevelList": Prop(get=lambda h: pv.row_value(h.level_list()) if h.level_list().size else np.zeros((1, 0)),
                      set=_set_level_list),
    "LevelListMode": Prop(set=_set_level_mode, default=char_row("auto")),
    "ContourMatrix": Prop(get=lambda h: contour_matrix(h.x, h.y, h.z, h.level_list()) if h.drawable()
                          else np.zeros((2, 0))),
    "Fill": _contour_redraw("Fill", lambda v: pv.on_off_value(pv.on_off(v, "Fill"))),
    "ShowText": _contour_redraw("ShowText", lambda v: pv.on_off_value(pv.on_off(v, "ShowText")),
                                char_row("off")),
    "LineColor": _contour_redraw("LineColor", lambda v: pv.color_value(pv.parse_color(v, "LineColor",
                                                                                      ("none", "flat")))),
    "LineStyle": _contour_redraw("LineStyle", lambda v: char_row(pv.choice(v, "LineStyle",
                                                                           ("-", "--", ":", "-.", "none"))),
                                 char_row("-")),
    "LineWidth": _contour_redraw("LineWidth", lambda v: pv.positive_number(v, "LineWidth"), 0.5),
    "DisplayName": Prop(set=lambda h, v: char_row(pv.text_value(v, "DisplayName")), default=char_row("")),
})


def _draw_contour(interp: Any, args: tuple, function: str, filled: bool, nargout: int) -> Any:
    axes, data, options = split_surface_args(args, function)
    levels = count = None
    if len(data) in (2, 4):
        chosen = to_double_array(data.pop()).real.ravel().astype(float)
        if chosen.size == 1:
            if not np.isfinite(chosen[0]) or chosen[0] != np.floor(chosen[0]) or chosen[0] < 0:
                raise error(f"MATLAB:{function}:InvalidLevels", "The number of levels must be a "
                                                                "nonnegative integer.")
            count = int(chosen[0])
            checked_shape((1, count + 2), "double")  # the levels' array: MATLAB's size error when too many
        else:
            levels = np.unique(chosen)
    if len(data) not in (1, 3):
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    spec = None
    if options and len(options) % 2 == 1:
        text = text_or_none(options[0])
        spec = parse_line_spec(text) if text is not None else None
        if spec is None:
            raise error(f"MATLAB:{function}:InvalidLineSpec", "Error in color/linetype argument.")
        options = options[1:]
    pairs = option_pairs(options, function)
    x, y, z, _ = surface_grids(data, function)
    if z.shape[0] < 2 or z.shape[1] < 2:
        raise error(f"MATLAB:{function}:InvalidData", "Z must be at least a 2-by-2 matrix.")
    axes = axes or current_axes(interp)
    axes.prepare_plot()
    item = Contour(axes, x, y, z, filled, levels, count)
    if spec is not None:
        if spec.color is not None:
            item.stored["LineColor"] = np.array([list(spec.color)])
        if spec.line_style is not None:
            item.stored["LineStyle"] = char_row(spec.line_style)
    for name, value in pairs:
        if name.lower() == "levellist":
            levels = np.unique(pv.real_vector(value, "LevelList", finite=True))
            item.levels = levels
            item.stored["LevelListMode"] = char_row("manual")
    apply_options(item, [(n, v) for n, v in pairs if n.lower() != "levellist"], function)
    axes.add(item)
    item.update()
    if nargout == 0:
        return None
    matrix = contour_matrix(x, y, z, item.level_list())
    return (matrix, item) if nargout >= 2 else matrix


@builtin("contour", interp=True, nargout=True, max_out=2, dl="data")
def contour(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """contour  contour plot of a matrix.

    contour(Z) draws lines where the surface Z crosses about ten round levels, coloured
    through the colormap; contour(X, Y, Z) places them over X, Y.  contour(..., n)
    draws n levels, contour(..., v) the levels in the vector v ([k k]: the one level k).
    contour(..., LineSpec) gives the lines one colour and style; name=value options
    set Contour properties (ShowText 'on', LineColor, LineWidth, LevelList...).
    [C, h] = contour(...) returns the contour matrix and the Contour object."""
    return _draw_contour(interp, args, "contour", False, nargout)


@builtin("contourf", interp=True, nargout=True, max_out=2, dl="data")
def contourf(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """contourf  filled contour plot.

    contourf(Z), contourf(X, Y, Z), contourf(..., n) and contourf(..., v) fill the
    regions between the levels with the colour of the level below them and draw the
    level lines in black; options as for contour.  [C, h] = contourf(...) returns the
    contour matrix and the Contour object."""
    return _draw_contour(interp, args, "contourf", True, nargout)


# ---------------------------------------------------------------- quiver


def arrow_segments(x: np.ndarray, y: np.ndarray, u: np.ndarray, v: np.ndarray,
                   head_size: float, heads: bool) -> list[np.ndarray]:
    """The lines of the arrows (x, y) -> (x + u, y + v): each shaft, then the two strokes
    of each head, as MATLAB draws them (head strokes ``head_size`` of the arrow long)."""
    alpha, beta = head_size, head_size  # length and half-width of the head, per arrow length
    tips_x, tips_y = x + u, y + v
    segments = [np.stack([np.stack([x, y], -1), np.stack([tips_x, tips_y], -1)], 1)]
    if heads:
        left = np.stack([tips_x - alpha * (u + beta * v), tips_y - alpha * (v - beta * u)], -1)
        right = np.stack([tips_x - alpha * (u - beta * v), tips_y - alpha * (v + beta * u)], -1)
        tips = np.stack([tips_x, tips_y], -1)
        segments += [np.stack([left, tips], 1), np.stack([right, tips], 1)]
    return [s for part in segments for s in part if np.all(np.isfinite(s))]


def autoscale_factor(x: np.ndarray, y: np.ndarray, u: np.ndarray, v: np.ndarray,
                     factor: float, z: np.ndarray | None = None, w: np.ndarray | None = None) -> float:
    """MATLAB's automatic arrow scale: the longest arrow spans ``factor`` of the mean
    grid spacing."""
    if u.shape != v.shape or w is not None and w.shape != u.shape:
        return factor
    if x.ndim == 2 and 1 not in x.shape:
        rows, cols = x.shape
    else:
        cols = rows = float(np.sqrt(x.size))  # scattered points: a square grid's spacing
    rows, cols = max(rows, 1), max(cols, 1)
    spread = [float(np.nanmax(a) - np.nanmin(a)) if np.isfinite(a).any() else 0.0 for a in (x, y)]
    delta = (spread[0] / cols) ** 2 + (spread[1] / rows) ** 2
    lengths = u ** 2 + v ** 2
    if z is not None and w is not None:
        delta += (float(np.nanmax(z) - np.nanmin(z)) / max(rows, cols)) ** 2 if np.isfinite(z).any() else 0.0
        lengths = lengths + w ** 2
    if delta > 0 and lengths.size and np.isfinite(lengths).any():
        longest = float(np.sqrt(np.nanmax(lengths) / delta))
        if longest > 0:
            return factor / longest
    return factor


class Quiver(GraphicsHandle):
    """Arrows: positions (``x``, ``y``, ``z``), components (``u``, ``v``, ``w``), drawn
    as a matplotlib line collection (3-D for quiver3)."""

    matlab_class = "matlab.graphics.chart.primitive.Quiver"
    display_name = "Quiver"
    type_name = "quiver"
    display_order = ("Color", "LineStyle", "LineWidth", "XData", "YData", "ZData",
                     "UData", "VData", "WData")
    __slots__ = ("x", "y", "z", "u", "v", "w", "marker_artist", "is_3d")

    def __init__(self, axes: Axes, arrays: dict[str, np.ndarray], color: tuple[float, float, float]) -> None:
        super().__init__(axes)
        for name in "xyzuvw":
            setattr(self, name, arrays.get(name, np.zeros(0)))
        self.marker_artist: Any = None
        self.is_3d = "w" in arrays
        self.stored["Color"] = np.array([list(color)])
        self.draw()
        self.apply_defaults()

    @property
    def three_d(self) -> bool:
        return self.is_3d

    def scale(self) -> float:
        if not pv.on_off(self.get_value("AutoScale"), "AutoScale"):
            return 1.0
        factor = float(self.get_value("AutoScaleFactor"))
        if self.three_d:
            return autoscale_factor(self.x, self.y, self.u, self.v, factor, self.z, self.w)
        return autoscale_factor(self.x, self.y, self.u, self.v, factor)

    def draw(self) -> None:
        self.remove_artist()
        axes = self.axes()
        factor = self.scale()
        heads = pv.on_off(self.get_value("ShowArrowHead"), "ShowArrowHead")
        head = float(self.get_value("MaxHeadSize"))
        color = tuple(np.asarray(self.get_value("Color"), dtype=float).ravel())
        width = float(self.get_value("LineWidth"))
        style = pv.text_value(self.get_value("LineStyle"), "LineStyle")
        x, y, u, v = (a.ravel(order="F") for a in (self.x, self.y, self.u * factor, self.v * factor))
        sizes = {x.size, y.size, u.size, v.size} | ({self.z.size, self.w.size} if self.three_d else set())
        if len(sizes) > 1:  # data of different sizes (set one by one): nothing to draw, as in MATLAB
            x = y = u = v = np.zeros(0)
        if self.three_d:
            from mpl_toolkits.mplot3d.art3d import Line3DCollection  # matplotlib on first use

            z, w = self.z.ravel(order="F"), (self.w * factor).ravel(order="F")
            if len(sizes) > 1:
                z = w = np.zeros(0)
            segments = _arrow_segments_3d(x, y, z, u, v, w, head, heads)
            self.artist = Line3DCollection(segments, colors=[color], linewidths=width)
            axes.artist.add_collection3d(self.artist, autolim=False)  # limits: below
            if segments:
                points = np.concatenate(segments)
                axes.artist.auto_scale_xyz(points[:, 0], points[:, 1], points[:, 2],
                                           had_data=len(axes.children) > 1)
        else:
            from matplotlib.collections import LineCollection  # matplotlib on first use

            segments = arrow_segments(x, y, u, v, head, heads)
            self.artist = LineCollection(segments, colors=[color], linewidths=width)
            axes.artist.add_collection(self.artist)
            axes.artist.update_datalim(np.concatenate([np.stack([x, y], -1), np.stack([x + u, y + v], -1)]))
            axes.artist.autoscale_view()
        if style == "none":
            self.artist.set_linewidth(0.0)
        else:
            self.artist.set_linestyle({"-": "solid", "--": "dashed", ":": "dotted", "-.": "dashdot"}[style])
        marker = pv.text_value(self.get_value("Marker"), "Marker")
        if marker != "none" and not self.three_d:
            (self.marker_artist,) = axes.artist.plot(x, y, linestyle="none", marker=MARKERS[marker],
                                                     color=color, markerfacecolor="none")

    def remove_artist(self) -> None:
        super().remove_artist()
        if self.marker_artist is not None:
            self.marker_artist.remove()
            self.marker_artist = None
        self.artist = None


def _arrow_segments_3d(x: np.ndarray, y: np.ndarray, z: np.ndarray, u: np.ndarray, v: np.ndarray,
                       w: np.ndarray, head_size: float, heads: bool) -> list[np.ndarray]:
    """3-D arrows: shafts, and heads in the plane of the arrow and the z-axis."""
    starts = np.stack([x, y, z], -1)
    tips = np.stack([x + u, y + v, z + w], -1)
    segments = list(np.stack([starts, tips], 1))
    if heads:
        direction = tips - starts
        side = np.cross(direction, np.array([0.0, 0.0, 1.0]))
        flat = np.linalg.norm(side, axis=1) < 1e-12
        side[flat] = np.cross(direction[flat], np.array([1.0, 0.0, 0.0]))
        norms = np.linalg.norm(side, axis=1, keepdims=True)
        side = side / np.where(norms > 0, norms, 1.0) * np.linalg.norm(direction, axis=1, keepdims=True)
        back = tips - head_size * direction
        segments += list(np.stack([back + head_size * side, tips], 1))
        segments += list(np.stack([back - head_size * side, tips], 1))
    return [s for s in segments if np.all(np.isfinite(s))]


def _quiver_redraw(name: str, read: Any, default: Any) -> Prop:
    def write(h: Quiver, value: Any) -> Any:
        h.stored[name] = read(value)
        h.draw()
        return h.stored[name]

    return Prop(set=write, default=default)


def _quiver_data(name: str) -> Prop:
    attribute = name[0].lower()

    def read(h: Quiver) -> Any:
        data = getattr(h, attribute)
        return data if data.size else np.zeros((0, 0))

    def write(h: Quiver, value: Any) -> None:
        klass = class_of(value)
        if klass not in ("double", "single", "logical") and not klass.startswith(("int", "uint")):
            raise pv.bad_value(name, "Value must be a numeric array.")
        setattr(h, attribute, to_double_array(value).real.astype(float))
        h.draw()

    return Prop(get=read, set=write)


define_properties(Quiver, {
    **{f"{a}Data": _quiver_data(f"{a}Data") for a in "XYZUVW"},
    "Color": _quiver_redraw("Color", lambda v: pv.color_value(pv.parse_color(v, "Color", ())), None),
    "LineWidth": _quiver_redraw("LineWidth", lambda v: pv.positive_number(v, "LineWidth"), 0.5),
    "LineStyle": _quiver_redraw("LineStyle", lambda v: char_row(pv.choice(v, "LineStyle",
                                                                          ("-", "--", ":", "-.", "none"))),
                                char_row("-")),
    "AutoScale": _quiver_redraw("AutoScale", lambda v: pv.on_off_value(pv.on_off(v, "AutoScale")),
                                char_row("on")),
    "AutoScaleFactor": _quiver_redraw(
        "AutoScaleFactor", lambda v: pv.positive_number(v, "AutoScaleFactor", allow_zero=True), 0.9),
    "MaxHeadSize": _quiver_redraw("MaxHeadSize",
                                  lambda v: pv.positive_number(v, "MaxHeadSize", allow_zero=True), 0.2),
    "ShowArrowHead": _quiver_redraw("ShowArrowHead", lambda v: pv.on_off_value(pv.on_off(v, "ShowArrowHead")),
                                    char_row("on")),
    "Marker": _quiver_redraw("Marker", lambda v: char_row(pv.choice(v, "Marker", ("none", *MARKERS))),
                             char_row("none")),
    "DisplayName": Prop(set=lambda h, v: char_row(pv.text_value(v, "DisplayName")), default=char_row("")),
})


def _quiver_arrays(data: list, function: str, dims: int) -> dict[str, np.ndarray]:
    arrays = []
    for value in data:
        klass = class_of(value)
        if klass not in ("double", "single", "logical") and not klass.startswith(("int", "uint")):
            raise error(f"MATLAB:{function}:InvalidData", "Data inputs must be numeric.")
        arrays.append(to_double_array(value).real.astype(float))
    if dims == 2:
        if len(arrays) == 2:
            u, v = arrays
            rows, cols = u.shape[:2]
            x, y = np.meshgrid(np.arange(1.0, cols + 1), np.arange(1.0, rows + 1))
        elif len(arrays) == 4:
            x, y, u, v = arrays
        else:
            raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
        if u.shape != v.shape:
            raise error(f"MATLAB:{function}:UVSizeMismatch", "U and V must be the same size.")
        x, y = _spread(x, y, u.shape, function)
        return {"x": x, "y": y, "u": u, "v": v}
    if len(arrays) == 4:
        z, u, v, w = arrays
        rows, cols = z.shape[:2]
        x, y = np.meshgrid(np.arange(1.0, cols + 1), np.arange(1.0, rows + 1))
    elif len(arrays) == 6:
        x, y, z, u, v, w = arrays
    else:
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    if not u.shape == v.shape == w.shape:
        raise error(f"MATLAB:{function}:UVWSizeMismatch", "U, V and W must be the same size.")
    x, y = _spread(x, y, u.shape, function)
    if z.shape != u.shape:
        raise error(f"MATLAB:{function}:XYZSizeMismatch", "X, Y and Z must be the size of U.")
    return {"x": x, "y": y, "z": z, "u": u, "v": v, "w": w}


def _spread(x: np.ndarray, y: np.ndarray, shape: tuple, function: str) -> tuple[np.ndarray, np.ndarray]:
    """Vectors X (length n) and Y (length m) over an m-by-n U, as meshgrid makes them."""
    if x.shape != shape or y.shape != shape:
        if len(shape) == 2 and 1 in x.shape and 1 in y.shape and x.size == shape[1] and y.size == shape[0]:
            x, y = np.meshgrid(x.ravel(), y.ravel())
        elif x.size == y.size == int(np.prod(shape)):
            x, y = x.reshape(shape), y.reshape(shape)
        else:
            raise error(f"MATLAB:{function}:XYSizeMismatch", "X and Y must be the size of U.")
    return x, y


def _draw_quiver(interp: Any, args: tuple, function: str, dims: int) -> Quiver:
    axes, data, options = split_surface_args(args, function)
    scale: Any = None
    needed = (2, 4) if dims == 2 else (4, 6)
    if len(data) in (needed[0] + 1, needed[1] + 1):
        scale = data.pop()
    spec = None
    filled = False
    while options:  # leading words: 'off', 'filled', a line spec
        word = text_or_none(options[0]) or ""
        if word.lower() == "off":
            scale = 0.0
        elif word.lower() == "filled":
            filled = True
        elif len(options) % 2 == 1 and parse_line_spec(word) is not None:
            spec = parse_line_spec(word)
        else:
            break
        options = options[1:]
    pairs = option_pairs(options, function)
    arrays = _quiver_arrays(data, function, dims)
    axes = axes or current_axes(interp)
    axes.prepare_plot()
    if dims == 3:
        was_2d = not axes.is_3d
        axes.ensure_3d()
        if was_2d:
            set_view(axes, *DEFAULT_VIEW)
    color = spec.color if spec is not None and spec.color is not None else axes.next_color()
    item = Quiver(axes, arrays, color)
    if scale is not None:
        number = pv.real_number(scale, "AutoScaleFactor")
        if number == 0:
            item.stored["AutoScale"] = char_row("off")
        else:
            item.stored["AutoScaleFactor"] = abs(number)
    if spec is not None:
        if spec.line_style is not None:
            item.stored["LineStyle"] = char_row(spec.line_style)
        if spec.marker is not None:
            item.stored["Marker"] = char_row(spec.marker)
    if filled:
        item.stored["Marker"] = item.stored.get("Marker", char_row("o"))
    apply_options(item, pairs, function)
    item.draw()
    axes.add(item)
    return item


@builtin("quiver", interp=True, nargout=True, max_out=1, dl="data")
def quiver(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """quiver  arrow plot of a vector field.

    quiver(X, Y, U, V) draws an arrow at each point (X, Y) with components (U, V);
    quiver(U, V) places them on the grid of indices.  The arrows are scaled to fit
    the grid (AutoScale); quiver(..., scale) multiplies that scale, quiver(..., 0) or
    quiver(..., 'off') draws them at their true length.  quiver(..., LineSpec) sets
    their colour, style and a marker at the bases ("k", 'r--'); name=value options
    set Quiver properties (LineWidth, MaxHeadSize, ShowArrowHead, AutoScaleFactor...).
    q = quiver(...) returns the Quiver object."""
    item = _draw_quiver(interp, args, "quiver", 2)
    return item if nargout else None


@builtin("quiver3", interp=True, nargout=True, max_out=1, dl="data")
def quiver3(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """quiver3  3-D arrow plot of a vector field.

    quiver3(X, Y, Z, U, V, W) draws an arrow at each point (X, Y, Z) with components
    (U, V, W); quiver3(Z, U, V, W) places them over the grid of Z's indices.  Scaling,
    line specs and options as for quiver.  q = quiver3(...) returns the Quiver object."""
    item = _draw_quiver(interp, args, "quiver3", 3)
    return item if nargout else None
