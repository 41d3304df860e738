"""Shapes and annotations: the Patch, Rectangle and ConstantLine objects; fill, patch,
rectangle, xline, yline and text."""

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
    is_numeric,
    leading_data,
    line_style_prop,
    mpl_color,
    mpl_line_style,
    not_enough_inputs,
    number_prop,
    numeric_data,
    prop,
    row_of,
)
from mlang.builtins.graphics.figures import current_axes
from mlang.builtins.graphics.handles import Prop, Text, define_properties
from mlang.builtins.graphics.images_color import axes_clim, axes_colormap, map_values, refresh_colors
from mlang.builtins.graphics.patch_shading import interpolated_faces
from mlang.builtins.graphics.plot_args import apply_options, leading_axes, option_pairs, parse_line_spec
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_row, is_text
from mlang.values.string import StringArray

BLACK = np.array([[0.0, 0.0, 0.0]])


# ---------------------------------------------------------------- patch


class Patch(ChartObject):
    """Filled polygons: from XData/YData (one polygon a column) or Faces/Vertices (one
    polygon a row of Faces, indexing the rows of Vertices)."""

    matlab_class = "matlab.graphics.primitive.Patch"
    display_name = "Patch"
    type_name = "patch"
    display_order = ("FaceColor", "FaceAlpha", "EdgeColor", "LineStyle", "Faces", "Vertices")

    def vertex_points(self) -> np.ndarray:
        vertices = np.asarray(self.get_value("Vertices"), dtype=float)
        return vertices.reshape(-1, vertices.shape[-1]) if vertices.ndim == 2 else vertices.reshape(-1, 2)

    def face_indices(self) -> list[np.ndarray]:
        """Each face as the 0-based indices of its corners in Vertices (NaN indices in
        Faces end a face; a face indexing past Vertices is left out)."""
        faces = np.asarray(self.get_value("Faces"), dtype=float)
        vertices = self.vertex_points()
        if faces.size == 0 or vertices.size == 0:
            return []
        faces = faces.reshape(1, -1) if faces.ndim == 1 else faces
        found = []
        for row in faces:
            indices = row[~np.isnan(row)].astype(int) - 1
            if indices.size and indices.min() >= 0 and indices.max() < vertices.shape[0]:
                found.append(indices)
        return found

    def polygons(self) -> list[np.ndarray]:
        """Each face as an n×2 array of its corners."""
        vertices = self.vertex_points()
        return [vertices[indices, :2] for indices in self.face_indices()]

    def vertex_colors(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The colour data one a vertex, for interpolated faces: (values, None) or
        (None, RGB rows) from FaceVertexCData or CData; (None, None) when there is none."""
        count = self.vertex_points().shape[0]
        by_vertex = np.asarray(self.get_value("FaceVertexCData"), dtype=float)
        if by_vertex.ndim == 2 and by_vertex.shape[0] == count and count:
            if by_vertex.shape[1] == 3:
                return None, by_vertex
            if by_vertex.shape[1] == 1:
                return by_vertex.ravel(), None
        values = self.face_values()
        if values is not None and values.size == count and count:
            return values, None
        return None, None

    __slots__ = ("mapping",)

    def face_values(self) -> np.ndarray | None:
        """The colour data as values (one a face or one a vertex) mapped through the
        colormap, or None when the colours are not mapped (RGB, no colour data)."""
        if mpl_color(self.get_value("FaceColor")) not in ("flat", "interp") and \
                mpl_color(self.get_value("EdgeColor")) not in ("flat", "interp"):
            return None
        cdata = np.asarray(self.get_value("CData"), dtype=float)
        if cdata.size == 0:  # the colour data given as FaceVertexCData (one value a row)
            by_vertex = np.asarray(self.get_value("FaceVertexCData"), dtype=float)
            if by_vertex.ndim == 2 and by_vertex.shape[1:] == (1,):
                return by_vertex.ravel()
        if cdata.size == 0 or cdata.shape[-1:] == (3,) and cdata.size == 3 or cdata.ndim == 3:
            return None
        return cdata.ravel(order="F")

    def color_data(self) -> np.ndarray | None:
        return self.face_values()

    def apply_colors(self, colors: np.ndarray, clim: tuple[float, float]) -> None:
        """Colour the faces with the axes' colormap and CLim (when CData holds values)."""
        if self.face_values() is None:
            return
        self.mapping = (colors, clim)
        self.redraw()

    def update(self, name: str, value: Any) -> Any:
        self.stored[name] = value
        self.redraw()
        axes = self.axes()
        if name in ("CData", "FaceColor", "EdgeColor") and not self.drawing and axes is not None:
            refresh_colors(axes)  # the automatic colour limits follow the new values
        return value

    def mapped_colors(self, count: int) -> list[Any]:
        """Each face's colour from the colour data (flat, interp: the mean of its vertices')."""
        cdata = np.asarray(self.get_value("CData"), dtype=float)
        if cdata.shape[-1:] == (3,) and cdata.size == 3:
            return [tuple(np.clip(cdata.ravel(), 0, 1))] * count
        if cdata.ndim == 3 and cdata.shape[-1] == 3:  # truecolour: one RGB a vertex or face
            rgb = np.clip(cdata.reshape(-1, 3), 0, 1)
            return [tuple(rgb[min(k, len(rgb) - 1)]) for k in range(count)]
        values = self.face_values()
        if values is None:
            return [(0.0, 0.0, 0.0)] * count
        if values.size != count:  # one value a vertex: the face takes their mean
            faces = np.asarray(self.get_value("Faces"), dtype=float).reshape(count, -1)
            per_vertex = np.resize(values, int(np.nanmax(faces)) if faces.size else 1)
            values = np.array([np.nanmean(per_vertex[row[~np.isnan(row)].astype(int) - 1])
                               for row in faces])
        mapping = getattr(self, "mapping", None)
        if mapping is None:
            axes = self.axes()
            mapping = (axes_colormap(axes), axes_clim(axes))
        rgb = map_values(values, *mapping)
        # a NaN colour value leaves the face unfilled, as in MATLAB
        return ["none" if np.isnan(row).any() else tuple(row) for row in rgb]

    def face_colors(self, count: int) -> list[Any]:
        """Each face's colour: the FaceColor, or the colour data mapped (flat, interp)."""
        face = mpl_color(self.get_value("FaceColor"))
        if face not in ("flat", "interp"):
            return [face] * count
        return self.mapped_colors(count)

    def draw(self, ax: Any) -> list[Any]:
        from matplotlib.patches import Polygon  # matplotlib on first use: keeps start-up fast

        polygons = self.polygons()
        colors = self.face_colors(len(polygons))
        edge = mpl_color(self.get_value("EdgeColor"))
        edges = self.mapped_colors(len(polygons)) if edge in ("flat", "interp") else [edge] * len(polygons)
        made = []
        shading = self.interpolated(ax)
        if shading is not None:
            made.append(shading)
            colors = ["none"] * len(polygons)  # the polygons give the edges only
        for corners, color, edge_color in zip(polygons, colors, edges, strict=True):
            polygon = Polygon(corners, closed=True, facecolor=color, edgecolor=edge_color,
                              linewidth=self.number("LineWidth"),
                              linestyle=mpl_line_style(self.text("LineStyle")))
            if isinstance(color, tuple):  # FaceAlpha applies to the face only
                polygon.set_facecolor((*color, self.number("FaceAlpha")))
            ax.add_patch(polygon)
            made.append(polygon)
        ax.autoscale_view()
        return made

    def interpolated(self, ax: Any) -> Any:
        """The faces shaded from their corners' colours (FaceColor 'interp' with colour
        data a vertex, in 2-D axes), or None."""
        if mpl_color(self.get_value("FaceColor")) != "interp" or getattr(ax, "name", "") == "3d":
            return None
        values, rgb = self.vertex_colors()
        if values is None and rgb is None:
            return None
        mapping = getattr(self, "mapping", None)
        if values is not None and mapping is None:
            axes = self.axes()
            mapping = (axes_colormap(axes), axes_clim(axes))
        return interpolated_faces(ax, self.vertex_points()[:, :2], self.face_indices(), values, rgb, mapping,
                                  self.number("FaceAlpha"))


def _xy_faces(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Faces and Vertices from X and Y matrices (one polygon a column)."""
    rows, cols = x.shape
    vertices = np.column_stack([x.ravel(order="F"), y.ravel(order="F")])
    faces = np.arange(1.0, rows * cols + 1).reshape(cols, rows)
    return faces, vertices


def _coordinates(h: Patch, axis: int) -> Any:
    faces = np.asarray(h.get_value("Faces"), dtype=float)
    vertices = np.asarray(h.get_value("Vertices"), dtype=float)
    if faces.size == 0 or vertices.size == 0 or vertices.ndim != 2 or vertices.shape[1] <= axis:
        return np.zeros((0, 0))
    faces = faces.reshape(1, -1) if faces.ndim == 1 else faces
    out = np.full(faces.T.shape, np.nan)
    for k, row in enumerate(faces):
        for j, index in enumerate(row):
            if not np.isnan(index) and 1 <= index <= vertices.shape[0]:
                out[j, k] = vertices[int(index) - 1, axis]
    return out


def _set_coordinates(axis: int) -> Any:
    def write(h: Patch, value: Any) -> None:
        data = numeric_data(value, "patch", "XData")
        data = data.reshape(-1, 1) if 1 in data.shape else data
        other = np.asarray(_coordinates(h, 1 - axis), dtype=float)
        if other.shape != data.shape:
            other = np.zeros(data.shape)
        x, y = (data, other) if axis == 0 else (other, data)
        faces, vertices = _xy_faces(x, y)
        h.stored["Faces"], h.stored["Vertices"] = faces, vertices
        h.redraw()
    return write


def _matrix(name: str) -> Prop:
    return prop(name, lambda v, n: numeric_data(v, "patch", n), np.zeros((0, 0)))


define_properties(Patch, {
    "XData": Prop(get=lambda h: _coordinates(h, 0), set=_set_coordinates(0)),
    "YData": Prop(get=lambda h: _coordinates(h, 1), set=_set_coordinates(1)),
    "Faces": _matrix("Faces"),
    "Vertices": _matrix("Vertices"),
    "CData": _matrix("CData"),
    "FaceVertexCData": _matrix("FaceVertexCData"),
    "FaceColor": color_prop("FaceColor", BLACK, ("none", "flat", "interp")),
    "EdgeColor": color_prop("EdgeColor", BLACK, ("none", "flat", "interp")),
    "FaceAlpha": fraction_prop("FaceAlpha", 1.0),
    "EdgeAlpha": fraction_prop("EdgeAlpha", 1.0),
    "LineWidth": number_prop("LineWidth", 0.5),
    "LineStyle": line_style_prop(),
})


def _color_argument(value: Any, function: str) -> dict[str, Any]:
    """The properties a colour argument C of fill/patch gives: a colour, or colour data."""
    if is_text(value):
        text = pv.text_value(value, "")
        spec = parse_line_spec(text)
        if spec is not None and spec.color is not None:
            return {"FaceColor": np.array([list(spec.color)])}
        return {"FaceColor": pv.color_value(pv.parse_color(value, "FaceColor"))}
    data = numeric_data(value, function, "Color data")
    if data.size == 3 and data.shape[-1] == 3 and np.all((data >= 0) & (data <= 1)):
        return {"FaceColor": data.reshape(1, 3)}
    return {"FaceColor": char_row("flat" if data.size == 1 else "interp"), "CData": data}


def _new_patch(axes: Any, x: Any, y: Any, color: Any, function: str) -> Patch:
    xs, ys = numeric_data(x, function, "X"), numeric_data(y, function, "Y")
    xs = xs.reshape(-1, 1) if 1 in xs.shape else xs
    ys = ys.reshape(-1, 1) if 1 in ys.shape else ys
    if xs.shape != ys.shape:
        if xs.shape[0] == ys.shape[0] and 1 in (xs.shape[1], ys.shape[1]):
            xs, ys = np.broadcast_arrays(xs, ys)
        else:
            raise error("MATLAB:hg:dt_conv:Matrix_to_HObject:BadHandle" if function == "patch" else
                        "MATLAB:fill:InvalidXYSize", "Vectors must be the same length.")
    faces, vertices = _xy_faces(np.asarray(xs, float), np.asarray(ys, float))
    values: dict[str, Any] = {"Faces": faces, "Vertices": vertices}
    if color is not None:
        values.update(_color_argument(color, function))
        if "CData" in values and values["CData"].size == faces.shape[0]:
            values["FaceColor"] = char_row("flat")  # one colour a face
    return Patch(axes, values)


@builtin("fill", interp=True, nargout=True, max_out=1, dl="data")
def fill(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """fill  filled 2-D polygons.

    fill(X, Y, C) fills the polygon whose corners are (X, Y) with the colour C (a colour
    name or letter, an RGB triplet, or colour data mapped through the colormap);
    matrices X and Y give one polygon a column.  fill(X1, Y1, C1, X2, Y2, C2, ...) fills
    several; name=value options set Patch properties (EdgeColor, FaceAlpha, LineWidth...).
    h = fill(...) returns the Patch objects."""
    axes, rest = leading_axes(args)
    groups = []
    while len(rest) >= 3 and not is_text(rest[0]) and not is_text(rest[1]):
        groups.append(rest[:3])
        rest = rest[3:]
    if not groups:
        raise not_enough_inputs()
    pairs = option_pairs(rest, "fill")
    axes = axes or current_axes(interp)
    axes.prepare_plot()
    made = []
    for x, y, color in groups:
        xs, ys = numeric_data(x, "fill", "X"), numeric_data(y, "fill", "Y")
        columns = max(1 if 1 in xs.shape else xs.shape[1], 1 if 1 in ys.shape else ys.shape[1])
        if any(1 not in data.shape and data.shape[1] != columns for data in (xs, ys)):
            # matrices of different widths, or an empty one beside a vector
            raise error("MATLAB:fill:InvalidXYSize", "Vectors must be the same length.")
        colors = [color] * columns
        if columns > 1 and not is_text(color) and np.size(color) == columns:
            colors = [float(v) for v in numeric_data(color, "fill", "Color data").ravel(order="F")]
        elif columns > 1 and not is_text(color) and np.shape(color) == (columns, 3):
            colors = [row.reshape(1, 3) for row in numeric_data(color, "fill", "Color data")]
        for k in range(columns):  # one polygon (and one Patch) a column, coloured together
            x_k = xs if 1 in xs.shape else xs[:, [k]]
            y_k = ys if 1 in ys.shape else ys[:, [k]]
            obj = _new_patch(axes, x_k, y_k, colors[k], "fill")
            obj.finish(pairs)
            axes.add(obj)
            made.append(obj)
    refresh_colors(axes)  # the colour limits now cover every new patch
    return handles_value(made) if nargout else None


@builtin("patch", interp=True, nargout=True, max_out=1, dl="data")
def patch(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """patch  create filled polygons.

    patch(X, Y, C) adds the polygon with corners (X, Y) coloured by C to the current
    axes (whatever hold says; matrices: one polygon a column); patch('Faces', F,
    'Vertices', V, ...) gives the polygons as rows of F indexing the rows of V.  Further
    name=value options set Patch properties (FaceColor, EdgeColor, FaceAlpha...).
    p = patch(...) returns the Patch object."""
    axes, rest = leading_axes(args)
    data, rest = leading_data(rest)
    if len(data) in (2, 3) and len(rest) % 2 == 1:
        data.append(rest.pop(0))  # patch(X, Y, 'r'): the colour is a name
    pairs = option_pairs(rest, "patch")
    if len(data) in (1, 2) or len(data) > 4:
        raise not_enough_inputs() if len(data) < 3 else error("MATLAB:TooManyInputs",
                                                              "Too many input arguments.")
    axes = axes or current_axes(interp)
    if data:
        obj = _new_patch(axes, data[0], data[1], data[-1], "patch")
    else:
        obj = Patch(axes, {})
    obj.finish(pairs)
    axes.add(obj)
    refresh_colors(axes)
    return obj if nargout else None


# ---------------------------------------------------------------- rectangle


class Rectangle(ChartObject):
    """A rectangle (rounded by its Curvature: [0 0] square corners, [1 1] an ellipse)."""

    matlab_class = "matlab.graphics.primitive.Rectangle"
    display_name = "Rectangle"
    type_name = "rectangle"
    display_order = ("FaceColor", "EdgeColor", "LineWidth", "LineStyle", "Curvature", "Position")

    def draw(self, ax: Any) -> list[Any]:
        from matplotlib.patches import Ellipse, FancyBboxPatch  # matplotlib on first use: keeps start-up fast

        x, y, width, height = self.data("Position")
        curve_x, curve_y = self.data("Curvature")
        options = {"facecolor": mpl_color(self.get_value("FaceColor")),
                   "edgecolor": mpl_color(self.get_value("EdgeColor")),
                   "linewidth": self.number("LineWidth"),
                   "linestyle": mpl_line_style(self.text("LineStyle"))}
        if curve_x >= 1 and curve_y >= 1:
            shape = Ellipse((x + width / 2, y + height / 2), width, height, **options)
        else:
            radius = min(curve_x * width, curve_y * height) / 2
            style = f"round,pad=0,rounding_size={radius}" if radius > 0 else "square,pad=0"
            shape = FancyBboxPatch((x, y), width, height, boxstyle=style, **options)
        ax.add_patch(shape)
        ax.update_datalim([(x, y), (x + width, y + height)])
        ax.autoscale_view()
        return [shape]


def _position(value: Any, name: str) -> Any:
    data = pv.real_vector(value, name, 4, finite=True)
    if data[2] < 0 or data[3] < 0:
        raise pv.bad_value(name, "Value must be a 4-element vector with nonnegative width and height.")
    return row_of(data)


def _curvature(value: Any, name: str) -> Any:
    data = pv.real_vector(value, name)
    if data.size not in (1, 2) or np.any(data < 0) or np.any(data > 1):
        raise pv.bad_value(name, "Value must be a scalar or 2-element vector with values between 0 and 1.")
    return row_of(np.resize(data, 2))


define_properties(Rectangle, {
    "Position": prop("Position", _position, np.array([[0.0, 0.0, 1.0, 1.0]])),
    "Curvature": prop("Curvature", _curvature, np.array([[0.0, 0.0]])),
    "FaceColor": color_prop("FaceColor", char_row("none")),
    "EdgeColor": color_prop("EdgeColor", BLACK),
    "LineWidth": number_prop("LineWidth", 0.5),
    "LineStyle": line_style_prop(),
})


@builtin("rectangle", interp=True, nargout=True, max_out=1, dl="data")
def rectangle(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """rectangle  rectangle with sharp or curved corners.

    rectangle('Position', [x y w h]) draws a rectangle in the current axes;
    'Curvature', [cx cy] rounds its corners (a fraction of the width and height: [1 1]
    draws an ellipse).  Other name=value options: FaceColor, EdgeColor, LineWidth,
    LineStyle.  r = rectangle(...) returns the Rectangle object."""
    axes, rest = leading_axes(args)
    pairs = option_pairs(rest, "rectangle")
    axes = axes or current_axes(interp)
    obj = Rectangle(axes, {})
    obj.finish(pairs)
    axes.add(obj)
    return obj if nargout else None


# ---------------------------------------------------------------- xline, yline


class ConstantLine(ChartObject):
    """A vertical (xline) or horizontal (yline) line across the axes, with its label."""

    matlab_class = "matlab.graphics.chart.decoration.ConstantLine"
    display_name = "ConstantLine"
    type_name = "constantline"
    display_order = ("InterceptAxis", "Value", "Color", "LineStyle", "LineWidth", "Label", "DisplayName")

    def draw(self, ax: Any) -> list[Any]:
        vertical = self.text("InterceptAxis") == "x"
        value = self.number("Value")
        style = {"color": mpl_color(self.get_value("Color")), "linewidth": self.number("LineWidth"),
                 "linestyle": mpl_line_style(self.text("LineStyle"))}
        line = ax.axvline(value, **style) if vertical else ax.axhline(value, **style)
        made = [line]
        label = self.text("Label")
        if label:
            horizontal = self.text("LabelHorizontalAlignment")
            vertical_align = self.text("LabelVerticalAlignment")
            if vertical:
                where = {"top": 1.0, "middle": 0.5, "bottom": 0.0}[vertical_align]
                text = ax.text(value, where, label, transform=ax.get_xaxis_transform(), rotation=90,
                               ha="right" if horizontal == "left" else "left" if horizontal == "right"
                               else "center", va=vertical_align.replace("middle", "center"),
                               color=style["color"])
            else:
                where = {"right": 1.0, "center": 0.5, "left": 0.0}[horizontal]
                text = ax.text(where, value, label, transform=ax.get_yaxis_transform(), ha=horizontal,
                               va="bottom" if vertical_align == "top" else "top" if vertical_align == "bottom"
                               else "center", color=style["color"])
            made.append(text)
        return made


define_properties(ConstantLine, {
    "Value": prop("Value", pv.real_number, 0.0),
    "InterceptAxis": Prop(get=lambda h: h.stored["InterceptAxis"]),
    "Color": color_prop("Color", np.array([[0.15, 0.15, 0.15]]), ()),
    "LineStyle": line_style_prop(),
    "LineWidth": number_prop("LineWidth", 0.5),
    "Label": prop("Label", lambda v, n: v if isinstance(v, Cell) else char_row(pv.text_value(v, n)),
                  char_row("")),
    "LabelHorizontalAlignment": choice_prop("LabelHorizontalAlignment", ("right", "left", "center")),
    "LabelVerticalAlignment": choice_prop("LabelVerticalAlignment", ("top", "middle", "bottom")),
    "LabelOrientation": choice_prop("LabelOrientation", ("aligned", "horizontal")),
    "FontSize": number_prop("FontSize", 9.0),
    "Alpha": fraction_prop("Alpha", 0.7),
})


def _labels(value: Any, count: int) -> list[Any]:
    if isinstance(value, (Cell, StringArray)):
        items = [char_row(pv.text_value(v, "Label")) for v in
                 (value.data.ravel(order="F") if isinstance(value, Cell) else
                  [("" if s is None else s) for s in value.data.ravel(order="F")])]
        if len(items) == count:
            return items
        if len(items) == 1:
            return items * count
        raise error("MATLAB:xline:LabelSizeMismatch", "Number of labels must equal the number of lines.")
    return [char_row(pv.text_value(value, "Label"))] * count


def constant_lines(interp: Any, args: tuple, axis: str) -> list[ConstantLine]:
    function = f"{axis}line"
    axes, rest = leading_axes(args)
    if not rest or is_text(rest[0]):
        raise not_enough_inputs()
    values = numeric_data(rest.pop(0), function, "Value").ravel(order="F")
    spec = None
    if rest and is_text(rest[0]) and ConstantLine._by_lower.get(pv.text_value(rest[0], "").lower()) is None:
        spec = parse_line_spec(pv.text_value(rest[0], ""))
        if spec is None and len(rest) % 2 == 1:
            raise error(f"MATLAB:{function}:InvalidLineSpec",
                        "Invalid line specification or name-value pair argument.")
        if spec is not None:
            rest.pop(0)
    labels = None
    if spec is not None and rest and len(rest) % 2 == 1:
        labels = _labels(rest.pop(0), values.size)
    pairs = option_pairs(rest, function)
    axes = axes or current_axes(interp)
    made = []
    for k, value in enumerate(values):
        obj = ConstantLine(axes, {"Value": float(value), "InterceptAxis": char_row(axis)})
        obj.drawing = True
        if spec is not None:
            if spec.color is not None:
                obj.set_value("Color", np.array([list(spec.color)]))
            if spec.line_style is not None:
                obj.set_value("LineStyle", char_row(spec.line_style))
        if labels is not None:
            obj.set_value("Label", labels[k])
        obj.finish(pairs)
        axes.add(obj)
        made.append(obj)
    return made


@builtin("xline", interp=True, nargout=True, max_out=1, dl="data")
def xline(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """xline  vertical line with a constant x-value.

    xline(x) draws a vertical line across the current axes at each value of x;
    xline(x, LineSpec) sets its style and colour; xline(x, LineSpec, label) labels it (a
    cell array: one label a line).  Name=value options set ConstantLine properties
    (Color, LineWidth, Label, LabelHorizontalAlignment...).  xl = xline(...) returns the
    ConstantLine objects."""
    made = constant_lines(interp, args, "x")
    return handles_value(made) if nargout else None


@builtin("yline", interp=True, nargout=True, max_out=1, dl="data")
def yline(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """yline  horizontal line with a constant y-value.

    yline(y) draws a horizontal line across the current axes at each value of y;
    yline(y, LineSpec) and yline(y, LineSpec, label) as for xline; name=value options
    set ConstantLine properties.  yl = yline(...) returns the ConstantLine objects."""
    made = constant_lines(interp, args, "y")
    return handles_value(made) if nargout else None


# ---------------------------------------------------------------- text


def _strings(value: Any, count: int) -> list[Any]:
    """The text of each of ``count`` text objects (a cell or string array: one each)."""
    if isinstance(value, Cell) and count > 1 and value.data.size == count:
        return list(value.data.ravel(order="F"))
    if isinstance(value, StringArray) and count > 1 and value.data.size == count:
        return [char_row("" if s is None else s) for s in value.data.ravel(order="F")]
    return [value] * count


@builtin("text", interp=True, nargout=True, max_out=1, dl="data")
def text(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """text  add text to the axes.

    text(x, y, str) writes str at the point (x, y) of the current axes (vectors x and y
    write one text a point, a cell array str giving each its own); text(x, y, z, str) in
    3-D.  Name=value options set Text properties (FontSize, Color, Interpreter,
    HorizontalAlignment, Units...).  t = text(...) returns the Text objects."""
    axes, rest = leading_axes(args)
    data = []
    while rest and is_numeric(rest[0]) and len(data) < 4:
        data.append(rest.pop(0))
    if len(data) == 4:  # a numeric text (text(x, y, z, 5)) is written as its digits
        rest.insert(0, data.pop())
    if len(data) not in (2, 3) or not rest:
        raise not_enough_inputs()
    string = rest.pop(0)
    pv.text_value(string, "String")
    pairs = option_pairs(rest, "text")
    coords = [numeric_data(d, "text", "Position").ravel(order="F") for d in data]
    if len({c.size for c in coords}) > 1:
        raise error("MATLAB:samelen",
                    "Vectors must be the same length.")
    axes = axes or current_axes(interp)
    count = coords[0].size
    made = []
    for k, string_k in enumerate(_strings(string, count)):
        if len(coords) == 3 and axes.is_3d:
            artist = axes.artist.text(coords[0][k], coords[1][k], coords[2][k], "", fontsize=10.0)
        else:
            artist = axes.artist.text(coords[0][k], coords[1][k], "", fontsize=10.0,
                                      va="center", ha="left")
        obj = Text(axes, artist)
        obj.set_value("String", string_k)
        obj.apply_defaults()
        apply_options(obj, pairs, "text")
        axes.changed()
        made.append(obj)
    return handles_value(made) if nargout else None
