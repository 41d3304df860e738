"""Images: the Image object, image, imagesc and imshow.

An image is drawn as a matplotlib AxesImage whose pixel centres are at XData and YData
(the first and last columns and rows: ``imagesc(x, y, C)`` spreads the pixels between
them).  Its colours come from CData: an m-by-n-by-3 array is true colour; an m-by-n one
is mapped through the colormap, scaled by the axes' CLim (CDataMapping 'scaled', imagesc)
or used as indices (CDataMapping 'direct', image).  A new image in axes that are not held
turns the y-axis down (YDir 'reverse', as MATLAB shows images) and fits the limits to it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none
from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.colormaps import gray_map
from mlang.builtins.graphics.figure_axes import Axes
from mlang.builtins.graphics.figures import current_axes
from mlang.builtins.graphics.handles import GraphicsHandle, Prop, define_properties
from mlang.builtins.graphics.images_color import (
    colormap_matrix,
    direct_colors,
    map_values,
    refresh_colors,
)
from mlang.builtins.graphics.plot_args import apply_options, option_pairs, pop_target
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, class_of, is_text, to_double_array

_INTEGER_RANGES = {"uint8": 255.0, "uint16": 65535.0, "int8": 127.0, "int16": 32767.0}
# imshow's default display range of a grayscale image, by class
_DISPLAY_RANGES = {"uint8": (0.0, 255.0), "uint16": (0.0, 65535.0), "int8": (-128.0, 127.0),
                   "int16": (-32768.0, 32767.0), "uint32": (0.0, 4294967295.0),
                   "int32": (-2147483648.0, 2147483647.0)}


class Image(GraphicsHandle):
    """An image: its colour data (``cdata``, as given), where its pixel centres go
    (``xdata``, ``ydata``: first and last), and a matplotlib AxesImage."""

    matlab_class = "matlab.graphics.primitive.Image"
    display_name = "Image"
    type_name = "image"
    display_order = ("CData", "CDataMapping")
    __slots__ = ("cdata", "xdata", "ydata", "cclass")

    def __init__(self, axes: Axes, cdata: Any, xdata: np.ndarray | None = None,
                 ydata: np.ndarray | None = None, mapping: str = "direct") -> None:
        self.set_cdata(cdata)  # checked before the image joins the axes: bad data leaves no image
        super().__init__(axes)
        self.stored["CDataMapping"] = char_row(mapping)
        rows, cols = self.cdata.shape[:2]
        self.xdata = xdata if xdata is not None else np.array([1.0, float(max(cols, 1))])
        self.ydata = ydata if ydata is not None else np.array([1.0, float(max(rows, 1))])
        ax = axes.artist
        y_inverted = ax.yaxis_inverted()
        self.artist = ax.imshow(np.zeros((max(rows, 1), max(cols, 1), 3)), origin="lower",
                                aspect="auto", interpolation="nearest", extent=self.extent())
        if y_inverted != ax.yaxis_inverted():
            ax.invert_yaxis()
        self.apply_defaults()

    def set_cdata(self, value: Any) -> None:
        klass = class_of(value)
        if klass not in ("double", "single", "logical") and not klass.startswith(("int", "uint")):
            raise error("MATLAB:hg:InvalidCData", "Image CData must be numeric or logical.")
        data = to_double_array(value).real
        if data.ndim == 3 and data.shape[2] != 3 or data.ndim > 3:
            raise error("MATLAB:hg:InvalidCData", "Image CData must be an m-by-n or m-by-n-by-3 array.")
        self.cdata = data.astype(float) if data.ndim != 1 else data.reshape(1, -1).astype(float)
        self.cclass = klass

    def extent(self) -> tuple[float, float, float, float]:
        """The image's edges: half a pixel beyond the first and last pixel centres."""
        rows, cols = self.cdata.shape[:2]

        def edges(data: np.ndarray, count: int) -> tuple[float, float]:
            first, last = float(data[0]), float(data[-1])
            step = (last - first) / (count - 1) if count > 1 and last != first else 1.0
            return first - step / 2, last + step / 2

        left, right = edges(self.xdata, max(cols, 1))
        bottom, top = edges(self.ydata, max(rows, 1))
        if not np.all(np.isfinite([left, right, bottom, top])):
            # coordinates too wide to place (1e308 apart, NaN): the pixels' own positions
            return (0.5, max(cols, 1) + 0.5, 0.5, max(rows, 1) + 0.5)
        return (left, right, bottom, top)

    @property
    def mapping(self) -> str:
        return pv.text_value(self.stored.get("CDataMapping", char_row("direct")), "CDataMapping")

    def color_data(self) -> np.ndarray | None:
        if self.cdata.ndim == 3 or self.mapping != "scaled":
            return None
        return self.cdata

    def apply_colors(self, colors: np.ndarray, clim: tuple[float, float]) -> None:
        """Draw the pixels: true colour as it is, else through the colormap."""
        data = self.cdata
        if data.size == 0:
            rgb = np.zeros((1, 1, 4))
        elif data.ndim == 3:
            scale = _INTEGER_RANGES.get(self.cclass, 1.0)
            rgb = np.clip(np.nan_to_num(data / scale), 0.0, 1.0)
        elif self.mapping == "scaled":
            # NaN shows as the first colour of the colormap, as MATLAB draws it
            rgb = map_values(np.where(np.isnan(data), -np.inf, data), colors, clim)
        else:
            zero_based = self.cclass.startswith(("int", "uint")) or self.cclass == "logical"
            rgb = direct_colors(data, colors, zero_based)
        self.artist.set_data(rgb)
        self.artist.set_extent(self.extent())

    def update(self) -> None:
        axes = self.axes()
        if axes is not None:
            inverted = axes.artist.yaxis_inverted()
            refresh_colors(axes)
            if inverted != axes.artist.yaxis_inverted():
                axes.artist.invert_yaxis()


def _cdata_get(h: Image) -> Any:
    data = h.cdata
    return data[0, 0] if data.shape[:2] == (1, 1) and data.ndim == 2 else data


def _set_cdata(h: Image, value: Any) -> None:
    h.set_cdata(value)
    h.update()


def _position_prop(axis: str) -> Prop:
    def read(h: Image) -> Any:
        return pv.row_value(getattr(h, f"{axis}data"))

    def write(h: Image, value: Any) -> None:
        data = pv.real_vector(value, f"{axis.upper()}Data", finite=True)
        if data.size == 0:
            raise pv.bad_value(f"{axis.upper()}Data", "Value must be a numeric vector.")
        setattr(h, f"{axis}data", np.array([data[0], data[-1]]))
        h.update()

    return Prop(get=read, set=write)


def _set_mapping(h: Image, value: Any) -> None:
    h.stored["CDataMapping"] = char_row(pv.choice(value, "CDataMapping", ("direct", "scaled")))
    h.update()


def _set_alpha(h: Image, value: Any) -> Any:
    alpha = np.nan_to_num(pv.real_vector(value, "AlphaData"), nan=0.0)
    if alpha.size == 1:
        h.artist.set_alpha(float(np.clip(alpha[0], 0.0, 1.0)))
        return float(alpha[0])
    rows, cols = h.cdata.shape[:2]
    if alpha.size != rows * cols:
        raise pv.bad_value("AlphaData", "Value must be a scalar or the size of CData.")
    grid = np.clip(alpha.reshape((rows, cols), order="F"), 0, 1)
    h.artist.set_alpha(grid)
    return grid


define_properties(Image, {
    "CData": Prop(get=_cdata_get, set=_set_cdata),
    "XData": _position_prop("x"),
    "YData": _position_prop("y"),
    "CDataMapping": Prop(get=lambda h: char_row(h.mapping), set=_set_mapping),
    "AlphaData": Prop(set=_set_alpha, default=1.0),
    "Interpolation": Prop(default=char_row("nearest"), set=lambda h, v: char_row(pv.choice(
        v, "Interpolation", ("nearest", "bilinear")))),
    "DisplayName": Prop(set=lambda h, v: char_row(pv.text_value(v, "DisplayName")), default=char_row("")),
})


# ---------------------------------------------------------------- the functions


def _numeric_argument(value: Any, function: str) -> bool:
    klass = class_of(value)
    return klass in ("double", "single", "logical") or klass.startswith(("int", "uint"))


def _split_image_args(args: tuple, function: str) -> tuple[Axes | None, list, list]:
    """(axes, data arguments, name=value options) of image, imagesc, imshow."""
    rest = list(args)
    axes = pop_target(rest, Axes, "MATLAB:hg:InvalidParent", "Image parent must be an axes.")
    data: list = []
    while rest and not is_text(rest[0]):
        value = rest.pop(0)
        if not _numeric_argument(value, function):
            raise error(f"MATLAB:{function}:InvalidData", "Image data must be numeric or logical.")
        data.append(value)
    return axes, data, rest


def _take_option(pairs: list[tuple[str, Any]], name: str) -> tuple[Any, list[tuple[str, Any]]]:
    """The value of one option (the last one given) and the other options."""
    found = None
    others = []
    for key, value in pairs:
        if key.lower() == name.lower():
            found = value
        else:
            others.append((key, value))
    return found, others


def _coordinates(value: Any, name: str) -> np.ndarray:
    data = to_double_array(value).real.ravel(order="F").astype(float)
    if data.size == 0 or not np.all(np.isfinite(data)):
        raise error("MATLAB:image:InvalidData", f"{name} must be a vector of finite values.")
    return np.array([data[0], data[-1]])


def draw_image(interp: Any, args: tuple, function: str, mapping: str) -> Image:
    """What image and imagesc do: image(C), image(x, y, C), options, in the target axes."""
    axes, data, options = _split_image_args(args, function)
    pairs = option_pairs(options, function)
    cdata, pairs = _take_option(pairs, "CData")
    xdata, pairs = _take_option(pairs, "XData")
    ydata, pairs = _take_option(pairs, "YData")
    limits = None
    if function == "imagesc" and len(data) in (2, 4):
        limits = data.pop()
    if len(data) == 3:
        xdata, ydata, cdata = data
    elif len(data) == 1:
        cdata = data[0]
    elif data:
        raise error("MATLAB:narginchk:tooManyInputs" if len(data) > 3 else "MATLAB:narginchk:notEnoughInputs",
                    "Too many input arguments." if len(data) > 3 else "Not enough input arguments.")
    if cdata is None:
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    axes = axes or current_axes(interp)
    was_held = axes.held
    axes.prepare_plot()
    image = Image(axes, cdata,
                  _coordinates(xdata, "XData") if xdata is not None else None,
                  _coordinates(ydata, "YData") if ydata is not None else None, mapping)
    apply_options(image, pairs, function)
    axes.add(image)
    if not was_held:
        _fit_axes(axes, image)
    if limits is not None:
        axes.set_value("CLim", limits)
    image.update()
    return image


def _fit_axes(axes: Axes, image: Image) -> None:
    """A new image in axes that are not held: limits at its edges, y-axis down."""
    left, right, bottom, top = image.extent()
    axes.artist.set_xlim(min(left, right), max(left, right))
    axes.artist.set_ylim(max(bottom, top), min(bottom, top))
    axes.artist.set_autoscale_on(True)  # later objects under hold still widen the limits


@builtin("imagesc", interp=True, nargout=True, max_out=1, dl="data")
def imagesc(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """imagesc  display an image with scaled colours.

    imagesc(C) shows the matrix C as an image whose colours span the colormap: the
    smallest value gets the first colour and the largest the last (CDataMapping
    'scaled', the axes' CLim).  imagesc(x, y, C) places the centres of the first and
    last pixels at x(1), x(end) and y(1), y(end) ([xmin xmax] ranges).  imagesc(...,
    clims) sets the colour limits; name=value options set Image properties.  In axes
    that are not held the first row is at the top (YDir 'reverse'; axis xy turns it).
    im = imagesc(...) returns the Image object."""
    image = draw_image(interp, args, "imagesc", "scaled")
    return image if nargout else None


@builtin("image", interp=True, nargout=True, max_out=1, dl="data")
def image(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """image  display an image.

    image(C) shows C: an m-by-n-by-3 array as true colours (double in [0, 1], uint8 in
    [0, 255]); an m-by-n matrix as indices into the colormap (CDataMapping 'direct').
    image(x, y, C) places the pixel centres; image('CData', C, ...) and name=value
    options set Image properties.  im = image(...) returns the Image object."""
    image_ = draw_image(interp, args, "image", "direct")
    return image_ if nargout else None


@builtin("imshow", interp=True, nargout=True, max_out=1, dl="data")
def imshow(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """imshow  display an image with its own aspect ratio and no axes.

    imshow(I) shows a grayscale image (double in [0, 1], uint8 in [0, 255]) in gray;
    imshow(I, [low high]) maps low to black and high to white ([] spans the data);
    imshow(RGB) shows a true-colour m-by-n-by-3 image; imshow(X, map) an indexed image
    with its colormap; imshow(filename) reads the image file first.  The pixels are
    square (axis image) and the axes hidden.  im = imshow(...) returns the Image."""
    axes, data, options = _split_image_args(args, "imshow")
    if not data and options and text_or_none(options[0]) is not None and len(options) % 2 == 1:
        data = [_read_image_file(interp, options.pop(0))]
    if not data:
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    if len(data) > 2:
        raise error("MATLAB:narginchk:tooManyInputs", "Too many input arguments.")
    pairs = option_pairs(options, "imshow")
    cdata = data[0]
    klass = class_of(cdata)
    values = to_double_array(cdata).real
    if values.ndim > 3 or values.ndim == 3 and values.shape[2] != 3:
        raise error("MATLAB:images:imshow:invalidImage", "Image data must be 2-D or m-by-n-by-3.")
    colormap = None
    display_range = None
    if len(data) == 2:
        second = to_double_array(data[1]).real
        if second.ndim == 2 and second.shape[1] == 3 and second.shape[0] > 1:
            colormap = colormap_matrix(data[1])
        elif second.size == 0:
            finite = values[np.isfinite(values)]
            low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
            display_range = (low, high if high > low else low + 1.0)
        elif second.size == 2 and second.ravel()[0] < second.ravel()[1]:
            display_range = (float(second.ravel()[0]), float(second.ravel()[1]))
        else:
            raise error("MATLAB:images:imshow:invalidDisplayRange",
                        "Display range must be [] or a 2-element vector [LOW HIGH] with LOW < HIGH.")
    range_option, pairs = _take_option(pairs, "DisplayRange")
    if range_option is not None:
        low, high = pv.real_vector(range_option, "DisplayRange", 2)
        if not low < high:
            raise error("MATLAB:images:imshow:invalidDisplayRange",
                        "Display range must be [] or a 2-element vector [LOW HIGH] with LOW < HIGH.")
        display_range = (float(low), float(high))
    indexed = colormap is not None
    map_option, pairs = _take_option(pairs, "Colormap")
    if map_option is not None:
        colormap = colormap_matrix(map_option)
    parent, pairs = _take_option(pairs, "Parent")
    if parent is not None:
        if not isinstance(parent, Axes) or not parent.valid:
            raise error("MATLAB:hg:InvalidParent", "Image parent must be an axes.")
        axes = parent
    for ignored in ("InitialMagnification", "Border", "Reduce"):  # window sizing: nothing to do here
        _, pairs = _take_option(pairs, ignored)
    axes = axes or current_axes(interp)
    axes.prepare_plot()
    image_ = Image(axes, cdata, None, None, "direct" if indexed or values.ndim == 3 else "scaled")
    apply_options(image_, pairs, "imshow")
    axes.add(image_)
    if values.ndim == 2:
        axes.set_value("Colormap", colormap if colormap is not None else gray_map(256))
        if not indexed:
            if display_range is None:
                display_range = _DISPLAY_RANGES.get(klass, (0.0, 1.0))
            axes.set_value("CLim", np.array([list(display_range)]))
    _fit_axes(axes, image_)
    axes.artist.set_aspect("equal", adjustable="box")
    axes.set_value("Visible", char_row("off"))
    image_.update()
    return image_ if nargout else None


def _read_image_file(interp: Any, name: Any) -> Any:
    """imshow(filename): the image imread gives."""
    return interp.invoke(interp.resolve("imread"), [name], 1)[0]
