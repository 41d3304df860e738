"""Surfaces: the Surface object, surf, mesh, pcolor, shading and view.

A surface is a grid of quadrilaterals through the points (X(i,j), Y(i,j), Z(i,j)).  In
3-D axes (surf, mesh) it is a matplotlib Poly3DCollection; made by pcolor it lies flat in
2-D axes as a QuadMesh.  Each face takes the colour of its first corner's CData through
the colormap and the axes' CLim (FaceColor 'flat'), or the mean of its corners'
('interp'); edges are black for surf and pcolor, coloured by CData for mesh.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none
from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.figure_axes import Axes
from mlang.builtins.graphics.figures import current_axes
from mlang.builtins.graphics.handles import GraphicsHandle, Prop, add_properties, define_properties
from mlang.builtins.graphics.images_color import direct_colors, map_values, refresh_colors
from mlang.builtins.graphics.plot_args import apply_options, option_pairs, pop_target
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, class_of, is_text, to_double_array

DEFAULT_VIEW = (-37.5, 30.0)  # MATLAB's 3-D view: azimuth, elevation


def set_view(axes: Axes, azimuth: float, elevation: float) -> None:
    """Turn 3-D axes to MATLAB's azimuth (from the negative y-axis, counterclockwise)
    and elevation."""
    axes.artist.view_init(elev=elevation, azim=azimuth - 90.0)
    axes.changed()


def axes_view(axes: Axes) -> tuple[float, float]:
    if not axes.is_3d:
        return (0.0, 90.0)
    azimuth = (float(axes.artist.azim) + 90.0 + 180.0) % 360.0 - 180.0
    return (azimuth, float(axes.artist.elev))


class Surface(GraphicsHandle):
    """A surface: its grids (``x``, ``y``, ``z``, ``c``: m-by-n arrays) and a matplotlib
    collection (3-D polygons, or a flat mesh for pcolor)."""

    matlab_class = "matlab.graphics.chart.primitive.Surface"
    display_name = "Surface"
    type_name = "surface"
    display_order = ("EdgeColor", "LineStyle", "FaceColor", "FaceLighting", "FaceAlpha",
                     "XData", "YData", "ZData", "CData")
    __slots__ = ("x", "y", "z", "c", "flat")

    def __init__(self, axes: Axes, x: np.ndarray, y: np.ndarray, z: np.ndarray, c: np.ndarray,
                 flat: bool = False, face: Any = "flat", edge: Any = (0.0, 0.0, 0.0)) -> None:
        super().__init__(axes)
        self.x, self.y, self.z, self.c = x, y, z, c
        self.flat = flat
        self.stored["FaceColor"] = pv.color_value(face)
        self.stored["EdgeColor"] = pv.color_value(edge)
        self.draw()
        self.apply_defaults()

    def draw(self) -> None:
        """Make the matplotlib collection again (after the data changed)."""
        self.remove_artist()
        axes = self.axes()
        rows, cols = self.z.shape
        if self.flat and not axes.is_3d:  # (pcolor under hold in 3-D axes: 3-D polygons at z = 0)
            from matplotlib.collections import PolyCollection  # matplotlib on first use

            self.artist = PolyCollection(list(self.quads()[:, :, :2]), linewidths=0.5)
            axes.artist.add_collection(self.artist, autolim=True)
            axes.artist.autoscale_view()
        else:
            from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # matplotlib on first use

            self.artist = Poly3DCollection(self.quads(), linewidths=0.5)
            axes.artist.add_collection3d(self.artist, autolim=False)  # limits: below
            finite = np.isfinite(self.z)
            if finite.any():
                axes.artist.auto_scale_xyz(self.x[finite], self.y[finite], self.z[finite],
                                           had_data=len(axes.children) > 1)
        self.apply_style()

    def face_indices(self) -> tuple[np.ndarray, np.ndarray]:
        """The (row, column) of the first corner of each face drawn (faces with a
        NaN corner are left out, as holes)."""
        rows, cols = self.z.shape
        if rows < 2 or cols < 2:
            return np.zeros(0, dtype=int), np.zeros(0, dtype=int)
        i, j = np.meshgrid(np.arange(rows - 1), np.arange(cols - 1), indexing="ij")
        i, j = i.ravel(), j.ravel()
        corners = [(i, j), (i, j + 1), (i + 1, j + 1), (i + 1, j)]
        keep = np.ones(i.size, dtype=bool)
        for a, b in corners:
            keep &= np.isfinite(self.x[a, b]) & np.isfinite(self.y[a, b]) & np.isfinite(self.z[a, b])
        return i[keep], j[keep]

    def quads(self) -> np.ndarray:
        i, j = self.face_indices()
        corners = [(i, j), (i, j + 1), (i + 1, j + 1), (i + 1, j)]
        return np.stack([np.stack([self.x[a, b], self.y[a, b], self.z[a, b]], axis=-1)
                         for a, b in corners], axis=1)

    def color_data(self) -> np.ndarray | None:
        if self.c.ndim == 3 or self.mapping == "direct":
            return None
        return self.c

    @property
    def mapping(self) -> str:
        return pv.text_value(self.stored.get("CDataMapping", char_row("scaled")), "CDataMapping")

    def vertex_colors(self, colors: np.ndarray, clim: tuple[float, float]) -> np.ndarray:
        """An RGB colour for each grid point (m-by-n-by-3)."""
        if self.c.ndim == 3:
            return np.clip(self.c, 0.0, 1.0)
        if self.mapping == "direct":
            return direct_colors(self.c, colors, zero_based=False)
        return map_values(self.c, colors, clim)

    def face_colors(self, rgb: np.ndarray, mode: str) -> np.ndarray:
        i, j = self.face_indices()
        if mode == "interp":
            return np.nanmean(np.stack([rgb[i, j], rgb[i, j + 1], rgb[i + 1, j + 1], rgb[i + 1, j]]), axis=0)
        return rgb[i, j]

    def apply_colors(self, colors: np.ndarray, clim: tuple[float, float]) -> None:
        rgb = np.nan_to_num(self.vertex_colors(colors, clim), nan=1.0)
        alpha = float(self.get_value("FaceAlpha"))
        for part in ("FaceColor", "EdgeColor"):
            value = self.get_value(part)
            word = text_or_none(value)
            if word in ("flat", "interp"):
                color: Any = self.face_colors(rgb, word)
                if self.flat:
                    color = np.concatenate([color, np.full((color.shape[0], 1), alpha)], axis=1)
            elif word == "none":
                color = "none"
            else:
                color = tuple(np.asarray(value, dtype=float).ravel())
            if part == "FaceColor":
                self.artist.set_facecolor(color)
            else:
                self.artist.set_edgecolor(color)
        if not self.flat:
            self.artist.set_alpha(alpha if alpha < 1 else None)

    def apply_style(self) -> None:
        style = pv.text_value(self.get_value("LineStyle"), "LineStyle")
        self.artist.set_linestyle("solid" if style == "none" else style)
        self.artist.set_linewidth(0.0 if style == "none" else float(self.get_value("LineWidth")))

    def update(self) -> None:
        axes = self.axes()
        if axes is not None:
            refresh_colors(axes)


def _grid_prop(name: str) -> Prop:
    attribute = name[0].lower()

    def read(h: Surface) -> Any:
        data = getattr(h, attribute)
        return data[0, 0] if data.shape[:2] == (1, 1) and data.ndim == 2 else data

    def write(h: Surface, value: Any) -> None:
        klass = class_of(value)
        if klass not in ("double", "single", "logical") and not klass.startswith(("int", "uint")):
            raise pv.bad_value(name, "Value must be a numeric matrix.")
        data = to_double_array(value).real.astype(float)
        if name == "CData" and data.ndim == 3 and data.shape[:2] == h.z.shape:
            h.c = data
        else:
            data = data if data.ndim == 2 else data.reshape(1, -1)
            shape = h.z.shape
            if name in ("XData", "YData") and 1 in data.shape and data.size in shape:
                data = _expand_axis(data.ravel(), shape, name == "XData")
            if data.shape != shape and name != "ZData":
                raise pv.bad_value(name, "Value must be the size of ZData.")
            setattr(h, attribute, data)
            if name == "ZData" and data.shape != h.x.shape:
                h.x, h.y = _default_grid(data.shape)
                h.c = data
        h.draw()
        h.update()

    return Prop(get=read, set=write)


def _face_or_edge(name: str) -> Prop:
    def write(h: Surface, value: Any) -> Any:
        color = pv.parse_color(value, name, ("none", "flat", "interp"))
        h.stored[name] = pv.color_value(color)
        h.update()
        return h.stored[name]

    return Prop(set=write)


def _set_surface_style(h: Surface, value: Any) -> Any:
    h.stored["LineStyle"] = char_row(pv.choice(value, "LineStyle", ("-", "--", ":", "-.", "none")))
    h.apply_style()
    return h.stored["LineStyle"]


def _set_surface_width(h: Surface, value: Any) -> Any:
    h.stored["LineWidth"] = pv.positive_number(value, "LineWidth")
    h.apply_style()
    return h.stored["LineWidth"]


def _set_face_alpha(h: Surface, value: Any) -> Any:
    alpha = pv.real_number(value, "FaceAlpha")
    if not 0 <= alpha <= 1:
        raise pv.bad_value("FaceAlpha", "Value must be a scalar in the range [0, 1].")
    h.stored["FaceAlpha"] = alpha
    h.update()
    return alpha


def _set_surface_mapping(h: Surface, value: Any) -> Any:
    h.stored["CDataMapping"] = char_row(pv.choice(value, "CDataMapping", ("scaled", "direct")))
    h.update()
    return h.stored["CDataMapping"]


define_properties(Surface, {
    "XData": _grid_prop("XData"), "YData": _grid_prop("YData"),
    "ZData": _grid_prop("ZData"), "CData": _grid_prop("CData"),
    "FaceColor": _face_or_edge("FaceColor"),
    "EdgeColor": _face_or_edge("EdgeColor"),
    "LineStyle": Prop(set=_set_surface_style, default=char_row("-")),
    "LineWidth": Prop(set=_set_surface_width, default=0.5),
    "FaceAlpha": Prop(set=_set_face_alpha, default=1.0),
    "CDataMapping": Prop(set=_set_surface_mapping, default=char_row("scaled")),
    "FaceLighting": Prop(default=char_row("flat"), set=lambda h, v: char_row(pv.choice(
        v, "FaceLighting", ("flat", "gouraud", "none")))),
    "MeshStyle": Prop(default=char_row("both"), set=lambda h, v: char_row(pv.choice(
        v, "MeshStyle", ("both", "row", "column")))),
    "DisplayName": Prop(set=lambda h, v: char_row(pv.text_value(v, "DisplayName")), default=char_row("")),
})


# ---------------------------------------------------------------- reading the data


def _matrix(value: Any, function: str) -> np.ndarray:
    klass = class_of(value)
    if klass not in ("double", "single", "logical") and not klass.startswith(("int", "uint")):
        raise error(f"MATLAB:{function}:InvalidData", "Data inputs must be numeric.")
    data = to_double_array(value)
    if np.iscomplexobj(data):
        data = data.real
    return data.astype(float)


def _default_grid(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = shape[:2]
    return np.meshgrid(np.arange(1.0, cols + 1), np.arange(1.0, rows + 1))


def _expand_axis(vector: np.ndarray, shape: tuple[int, ...], is_x: bool) -> np.ndarray:
    rows, cols = shape[:2]
    if is_x:
        return np.tile(vector.reshape(1, cols), (rows, 1))
    return np.tile(vector.reshape(rows, 1), (1, cols))


def surface_grids(data: list, function: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """X, Y, Z, C from (Z), (Z, C), (X, Y, Z), (X, Y, Z, C): vectors X (length n) and Y
    (length m) spread over an m-by-n Z."""
    arrays = [_matrix(v, function) for v in data]
    if len(arrays) in (1, 2):
        z = arrays[0]
        x, y = _default_grid(z.shape)
        c = arrays[1] if len(arrays) == 2 else z
    elif len(arrays) in (3, 4):
        x, y, z = arrays[:3]
        c = arrays[3] if len(arrays) == 4 else z
    else:
        raise error("MATLAB:narginchk:tooManyInputs", "Too many input arguments.")
    if z.ndim != 2 or z.shape[0] < 1:
        raise error(f"MATLAB:{function}:NonMatrixData", "Z must be a matrix, not a scalar or vector.")
    rows, cols = z.shape
    if 1 in x.shape and x.shape != z.shape:
        if x.size != cols:
            raise error(f"MATLAB:{function}:XDataSizeMismatch", "Data dimensions must agree.")
        x = _expand_axis(x.ravel(), z.shape, True)
    if 1 in y.shape and y.shape != z.shape:
        if y.size != rows:
            raise error(f"MATLAB:{function}:YDataSizeMismatch", "Data dimensions must agree.")
        y = _expand_axis(y.ravel(), z.shape, False)
    if x.shape != z.shape or y.shape != z.shape:
        raise error(f"MATLAB:{function}:DataSizeMismatch", "Data dimensions must agree.")
    if c.shape[:2] != z.shape or c.ndim == 3 and c.shape[2] != 3:
        raise error(f"MATLAB:{function}:CDataSizeMismatch", "Data dimensions must agree.")
    if class_of(data[-1]) == "uint8" and c.ndim == 3:
        c = c / 255.0
    return x, y, z, c


def split_surface_args(args: tuple, function: str) -> tuple[Axes | None, list, list]:
    rest = list(args)
    axes = pop_target(rest, Axes, "MATLAB:hg:InvalidParent", f"{function} parent must be an axes.")
    data = []
    while rest and not is_text(rest[0]):
        data.append(rest.pop(0))
    if not data:
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    return axes, data, rest


def _draw_surface(interp: Any, args: tuple, function: str, face: Any, edge: Any) -> Surface:
    axes, data, options = split_surface_args(args, function)
    pairs = option_pairs(options, function)
    x, y, z, c = surface_grids(data, function)
    axes = axes or current_axes(interp)
    was_held = axes.held
    axes.prepare_plot()
    axes.ensure_3d()
    if not was_held:
        set_view(axes, *DEFAULT_VIEW)
    surface = Surface(axes, x, y, z, c, face=face, edge=edge)
    apply_options(surface, pairs, function)
    axes.add(surface)
    surface.update()
    return surface


@builtin("surf", interp=True, nargout=True, max_out=1, dl="data")
def surf(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """surf  surface plot.

    surf(Z) draws the matrix Z as a surface of coloured faces over the grid of its
    indices; surf(X, Y, Z) over the points X, Y (matrices, or vectors for the columns
    and rows); surf(..., C) colours it by C instead of Z.  Name=value options set
    Surface properties (FaceColor, EdgeColor, FaceAlpha, LineStyle...).  The axes
    become 3-D (view(3)).  s = surf(...) returns the Surface object."""
    surface = _draw_surface(interp, args, "surf", "flat", (0.0, 0.0, 0.0))
    return surface if nargout else None


@builtin("mesh", interp=True, nargout=True, max_out=1, dl="data")
def mesh(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """mesh  mesh surface plot.

    mesh(Z), mesh(X, Y, Z) and mesh(X, Y, Z, C) draw a wireframe surface: its edges are
    coloured by Z (or C) through the colormap and its faces are white.  Name=value
    options set Surface properties.  s = mesh(...) returns the Surface object."""
    surface = _draw_surface(interp, args, "mesh", (1.0, 1.0, 1.0), "flat")
    return surface if nargout else None


@builtin("pcolor", interp=True, nargout=True, max_out=1, dl="data")
def pcolor(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """pcolor  pseudocolor plot.

    pcolor(C) draws a grid of cells, each coloured by the value at its first corner
    through the colormap (the last row and column of C give no cell); pcolor(X, Y, C)
    places the grid's vertices at X, Y.  s = pcolor(...) returns the Surface object
    (flat in 2-D axes)."""
    axes, data, options = split_surface_args(args, "pcolor")
    pairs = option_pairs(options, "pcolor")
    if len(data) == 2:
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    if len(data) > 3:
        raise error("MATLAB:narginchk:tooManyInputs", "Too many input arguments.")
    x, y, z, c = surface_grids(data, "pcolor")
    axes = axes or current_axes(interp)
    axes.prepare_plot()
    surface = Surface(axes, x, y, np.zeros_like(c) if c.ndim == 2 else np.zeros(c.shape[:2]), c, flat=True)
    apply_options(surface, pairs, "pcolor")
    axes.add(surface)
    surface.update()
    return surface if nargout else None


@builtin("shading", interp=True)
def shading(interp: Any, *args: Any) -> None:
    """shading  set the colour shading of surfaces.

    shading flat colours each face by one value, without edges; shading interp blends
    the colours over the faces; shading faceted is flat with black edges (the default).
    shading(ax, ...) works on the surfaces of the axes ax."""
    rest = list(args)
    axes = rest.pop(0) if rest and isinstance(rest[0], Axes) else None
    if len(rest) != 1 or text_or_none(rest[0]) is None:
        raise error("MATLAB:shading:InvalidInput", "Shading type must be 'flat', 'faceted' or 'interp'.")
    mode = pv.choice(rest[0], "shading", ("flat", "faceted", "interp"))
    axes = axes or current_axes(interp)
    for child in axes.children:
        if isinstance(child, Surface) and child.valid:
            child.stored["FaceColor"] = char_row("interp" if mode == "interp" else "flat")
            child.stored["EdgeColor"] = char_row("none") if mode != "faceted" else np.zeros((1, 3))
    refresh_colors(axes)


# ---------------------------------------------------------------- view


def _set_view_prop(h: Axes, value: Any) -> None:
    data = pv.real_vector(value, "View", 2, finite=True)
    apply_view(h, float(data[0]), float(data[1]))


def apply_view(axes: Axes, azimuth: float, elevation: float) -> None:
    """view(az, el): 3-D axes turn; 2-D axes become 3-D unless the view is from above,
    their plotted objects drawn in the plane z = 0 (axes holding an object that cannot be
    drawn in 3-D axes stay 2-D rather than lose it)."""
    if not axes.is_3d:
        if (azimuth, elevation) == (0.0, 90.0):
            return
        if not all(callable(getattr(child, "to_3d", None)) for child in axes.children):
            return
        axes.ensure_3d(keep_children=True)
    set_view(axes, azimuth, elevation)


add_properties(Axes, {"View": Prop(get=lambda h: np.array([list(axes_view(h))]), set=_set_view_prop)})


@builtin("view", interp=True, nargout=True, max_out=2)
def view(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """view  camera line of sight.

    view(az, el) looks at the current axes from azimuth az (degrees counterclockwise
    from the negative y-axis) and elevation el (degrees above the x-y plane);
    view([az el]) too; view(2) looks from above (az 0, el 90); view(3) is the default
    3-D view (az -37.5, el 30).  [az, el] = view returns the current view (v = view a
    1-by-2 vector).  view(ax, ...) works on the axes ax."""
    rest = list(args)
    axes = None
    if rest and isinstance(rest[0], GraphicsHandle):
        axes = rest.pop(0)
        if not isinstance(axes, Axes) or not axes.valid:
            raise error("MATLAB:view:InvalidFirstArgument", "Target must be an axes.")
    axes = axes or current_axes(interp)
    if len(rest) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if rest:
        if any(is_text(v) or class_of(v) not in ("double", "single") and not class_of(v).startswith("int")
               for v in rest):
            raise error("MATLAB:view:InvalidInputs", "Invalid view: use view(az, el), view([az el]), "
                                                    "view(2) or view(3).")
        numbers = [_matrix(v, "view").ravel() for v in rest]
        flat = np.concatenate(numbers) if numbers else np.zeros(0)
        if len(rest) == 1 and flat.size == 1 and flat[0] in (2.0, 3.0):
            azimuth, elevation = (0.0, 90.0) if flat[0] == 2.0 else DEFAULT_VIEW
        elif flat.size == 2 and np.all(np.isfinite(flat)):
            azimuth, elevation = float(flat[0]), float(flat[1])
        else:
            raise error("MATLAB:view:InvalidInputs", "Invalid view: use view(az, el), view([az el]), "
                                                    "view(2) or view(3).")
        apply_view(axes, azimuth, elevation)
        if not nargout:
            return None
    azimuth, elevation = axes_view(axes)
    if nargout == 2:
        return azimuth, elevation
    return np.array([[azimuth, elevation]])

