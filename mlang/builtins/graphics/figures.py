"""Figures and axes: figure, gcf, gca, groot, clf, cla, close, hold, ishold, subplot,
tiledlayout, nexttile, axes, drawnow, shg, set, get, isgraphics, ishandle, isvalid.

For Python code: ``current_figure(interp)`` and ``current_axes(interp)`` give gcf and
gca (made when there is none), ``new_figure(interp)`` a new figure, ``root(interp)`` the
session's groot.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.coerce import size_arguments, text_list, text_or_none
from mlang.builtins.graphics import backend
from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.figure_axes import DEFAULT_AXES_POSITION, Axes, Figure, Root
from mlang.builtins.graphics.handles import (
    GraphicsArray,
    GraphicsHandle,
    GraphicsPlaceholder,
    Prop,
    define_properties,
    handle_list,
    invalid_handle,
    is_graphics,
    simplify,
)
from mlang.builtins.graphics.state import graphics_state
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, numel, to_double_array
from mlang.values.struct import Struct

# ---------------------------------------------------------------- the session's objects


def root(interp: Any) -> Root:
    """The session's graphics root (groot)."""
    state = graphics_state(interp)
    if state.root is None:
        state.root = Root(state)
    return state.root


def new_figure(interp: Any, number: int | None = None) -> Figure:
    """A new figure (the lowest free number unless given), made current."""
    state = graphics_state(interp)
    number = number if number is not None else state.next_number()
    if state.windows and not backend.windows_work():
        state.windows, state.write_files = False, True  # no window toolkit: files instead
    figure = Figure(root(interp), number, state.windows)
    state.figures[number] = figure
    state.current_figure = figure
    return figure


def current_figure(interp: Any, create: bool = True) -> Figure | None:
    """gcf: the current figure (made when there is none, unless ``create`` is false)."""
    state = graphics_state(interp)
    figure = state.current_figure
    if figure is not None and figure.valid:
        return figure
    return new_figure(interp) if create else None


def current_axes(interp: Any, create: bool = True) -> Axes | None:
    """gca: the current figure's current axes (figure and axes made when missing)."""
    figure = current_figure(interp, create)
    if figure is None:
        return None
    axes = figure.current_axes
    if axes is not None and axes.valid:
        return axes
    if not create:
        return None
    if figure.layout is not None:
        return figure.layout.next_axes()
    return Axes(figure)


def make_current(interp: Any, axes: Axes) -> Axes:
    figure = axes.figure()
    figure.current_axes = axes
    graphics_state(interp).current_figure = figure
    return axes


def _no_output(nargout: int) -> None:
    if nargout:
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")


# ---------------------------------------------------------------- figure


def _figure_number(value: Any) -> int | None:
    if class_of(value) in ("double", "single") or class_of(value).startswith(("int", "uint")):
        if numel(value) == 1:
            x = float(to_double_array(value).ravel()[0].real)
            if math.isfinite(x) and x == int(x) and x >= 1:
                return int(x)
    return None


@builtin("figure", interp=True, nargout=True, max_out=1)
def figure(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """figure  create a figure or make one current.

    figure makes a new figure and makes it current; figure(n) makes figure n current,
    making it when it does not exist; figure(f) makes the figure f current;
    figure(Name=Value) sets properties of the new figure (Name, Color, Position...).
    f = figure(...) returns the Figure object."""
    state = graphics_state(interp)
    options = list(args)
    target: Figure | None = None
    if options and not text_or_none(options[0]):
        first = options.pop(0)
        if isinstance(first, Figure):
            if not first.valid:
                raise invalid_handle()
            target = first
        else:
            number = _figure_number(first)
            if number is None:
                raise error("MATLAB:figure:InvalidInput",
                            "Single input must be an existing figure value or a scalar integer "
                            "value greater than zero.")
            target = state.figures.get(number) or new_figure(interp, number)
    if target is None:
        target = new_figure(interp)
    state.current_figure = target
    _set_pairs(target, options, "figure")
    return target if nargout else None


@builtin("gcf", interp=True)
def gcf(interp: Any) -> Figure:
    """gcf  the current figure (made when there is none)."""
    return current_figure(interp)


@builtin("gca", interp=True)
def gca(interp: Any) -> Axes:
    """gca  the current axes of the current figure (made when there are none)."""
    return current_axes(interp)


@builtin("groot", interp=True)
def groot(interp: Any) -> Root:
    """groot  the graphics root object: its properties hold the current figure
    (CurrentFigure), the screen size and the figures (Children)."""
    return root(interp)


def _figure_argument(value: Any, function: str) -> Figure:
    if isinstance(value, Figure) and value.valid:
        return value
    if isinstance(value, GraphicsHandle) and not value.valid:
        raise invalid_handle()
    raise error(f"MATLAB:{function}:InvalidFigureHandle", "Invalid figure handle.")


@builtin("clf", interp=True, nargout=True, max_out=1)
def clf(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """clf  clear the current figure.

    clf deletes the axes and everything else in the current figure; clf(f) clears the
    figure f; clf reset also resets its properties.  f = clf(...) returns the figure."""
    target = None
    for arg in args:
        word = text_or_none(arg)
        if word is not None and word.lower() == "reset":
            continue
        target = _figure_argument(arg, "clf")
    target = target or current_figure(interp)
    target.clear()
    return target if nargout else None


@builtin("cla", interp=True, nargout=True, max_out=1)
def cla(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """cla  clear the current axes.

    cla deletes the plotted objects of the current axes; cla(ax) those of ax; cla reset
    also resets the axes' properties (title, labels, limits, scales, hold)."""
    target = None
    reset = False
    for arg in args:
        word = text_or_none(arg)
        if word is not None and word.lower() == "reset":
            reset = True
        elif isinstance(arg, Axes) and arg.valid:
            target = arg
        else:
            raise error("MATLAB:cla:InvalidAxes", "Invalid axes handle.")
    target = target or current_axes(interp)
    if reset:
        target.reset()
        target.stored.pop("NextPlot", None)
    else:
        target.clear()
    return target if nargout else None


@builtin("close", interp=True, nargout=True, max_out=1)
def close(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """close  close figures.

    close closes the current figure; close(n) or close(f) the figure with number n or
    the figure f (an array of them: each); close all and close('all') every figure;
    close(name) the figure whose Name is name.  status = close(...) is 1 when figures
    were closed."""
    state = graphics_state(interp)
    targets: list[Figure] = []
    if not args:
        if state.current_figure is not None and state.current_figure.valid:
            targets.append(state.current_figure)
    for arg in args:
        word = text_or_none(arg)
        if word is not None:
            if word.lower() in ("all", "all hidden", "all force"):
                targets += list(state.figures.values())
            elif word.lower() in ("force", "hidden"):
                continue
            else:
                named = [f for f in state.figures.values()
                         if pv.text_value(f.get_value("Name"), "Name") == word]
                if not named:
                    raise error("MATLAB:close:WindowNotFound", "Specified window does not exist.")
                targets += named
        elif is_graphics(arg):
            for handle in handle_list(arg):
                if not handle.valid:
                    raise invalid_handle()
                if not isinstance(handle, Figure):
                    raise error("MATLAB:close:InvalidFigureHandle", "Invalid figure handle.")
                targets.append(handle)
        else:
            for value in to_double_array(arg).ravel() if numel(arg) else []:
                number = _figure_number(float(value.real))
                if number is None or number not in state.figures:
                    raise error("MATLAB:close:WindowNotFound", "Specified window does not exist.")
                targets.append(state.figures[number])
    for target in targets:
        target.delete()
    return 1.0 if nargout else None


# ---------------------------------------------------------------- hold


@builtin("hold", interp=True, max_out=0)
def hold(interp: Any, *args: Any) -> None:
    """hold  keep or replace the axes' content on the next plot.

    hold on keeps what the axes show, so plots are added (their colours continue the
    colour order); hold off lets the next plot replace them; hold with no argument
    toggles; hold(ax, ...) acts on the axes ax.  hold all is hold on."""
    rest = list(args)
    axes = None
    if rest and isinstance(rest[0], Axes):
        axes = rest.pop(0)
        if not axes.valid:
            raise invalid_handle()
    if len(rest) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    axes = axes or current_axes(interp)
    if not rest:
        on = not axes.held
    else:
        word = text_or_none(rest[0])
        if word is None or word.lower() not in ("on", "off", "all"):
            raise error("MATLAB:hold:UnknownOption", "Unknown command option.")
        on = word.lower() != "off"
    axes.set_value("NextPlot", char_row("add" if on else "replace"))


@builtin("ishold", interp=True)
def ishold(interp: Any, *args: Any) -> bool:
    """ishold  whether hold is on for the current axes (or for ishold(ax))."""
    if args:
        if not isinstance(args[0], Axes) or not args[0].valid:
            raise error("MATLAB:ishold:InvalidInput", "Input must be an axes handle.")
        return args[0].held
    axes = current_axes(interp, create=False)
    return axes.held if axes is not None else False


# ---------------------------------------------------------------- subplot, axes

# MATLAB's gaps between subplots, as fractions of a subplot's width and height.
SUBPLOT_GAP_X = 0.3157
SUBPLOT_GAP_Y = 0.3886


def subplot_position(rows: int, cols: int, cells: list[int]) -> tuple[float, float, float, float]:
    """MATLAB's position of a subplot covering the 1-based cells (numbered row by row)."""
    left0, bottom0, width0, height0 = DEFAULT_AXES_POSITION
    width = width0 / (cols + (cols - 1) * SUBPLOT_GAP_X)
    height = height0 / (rows + (rows - 1) * SUBPLOT_GAP_Y)
    boxes = []
    for cell in cells:
        row, col = divmod(cell - 1, cols)
        left = left0 + col * width * (1 + SUBPLOT_GAP_X)
        bottom = bottom0 + (rows - 1 - row) * height * (1 + SUBPLOT_GAP_Y)
        boxes.append((left, bottom, left + width, bottom + height))
    left = min(b[0] for b in boxes)
    bottom = min(b[1] for b in boxes)
    return (left, bottom, max(b[2] for b in boxes) - left, max(b[3] for b in boxes) - bottom)


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    tolerance = 1e-6
    return (a[0] < b[0] + b[2] - tolerance and b[0] < a[0] + a[2] - tolerance
            and a[1] < b[1] + b[3] - tolerance and b[1] < a[1] + a[3] - tolerance)


def _whole_numbers(value: Any, function: str) -> list[int]:
    """A numeric argument's elements as integers (cells, tiles, spans)."""
    cls = class_of(value)
    if cls not in ("double", "single", "logical") and not cls.startswith(("int", "uint")):
        raise error(f"MATLAB:{function}:InvalidInput", "Expected numeric input.")
    data = to_double_array(value).real.ravel(order="F") if numel(value) else np.zeros(0)
    if not np.all(np.isfinite(data)) or np.any(data != np.round(data)):
        raise error(f"MATLAB:{function}:InvalidInput", "Index must be a positive integer.")
    return [int(x) for x in data]


def _positive_integer(value: Any, what: str) -> int:
    number = _figure_number(value)
    if number is None:
        raise error("MATLAB:subplot:InvalidInput", f"{what} must be a positive integer.")
    return number


def _select_axes(interp: Any, axes: Axes, nargout: int) -> Axes | None:
    """subplot(ax) and axes(ax): make existing axes (and their figure) current."""
    if not axes.valid:
        raise invalid_handle()
    make_current(interp, axes)
    return axes if nargout else None


@builtin("subplot", interp=True, nargout=True, max_out=1)
def subplot(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """subplot  axes in a grid of the current figure.

    subplot(m, n, p) divides the figure into an m-by-n grid and makes the p-th cell
    (counted along rows) the current axes, making them when needed (axes they overlap
    are deleted); p may be a vector of cells to span.  subplot(mnp) is
    subplot(m, n, p) for one-digit numbers; subplot(ax) makes ax current;
    subplot('Position', [left bottom width height]) places new axes.  ax =
    subplot(...) returns the axes."""
    if len(args) == 1 and isinstance(args[0], Axes):
        return _select_axes(interp, args[0], nargout)
    options = list(args)
    figure_ = current_figure(interp)
    if options and text_or_none(options[0]) is not None and text_or_none(options[0]).lower() == "position":
        position = tuple(pv.real_vector(options[1], "Position", 4))
        axes = Axes(figure_, position)  # type: ignore[arg-type]
        _set_pairs(axes, options[2:], "subplot")
        return axes if nargout else None
    if len(options) == 1 or (len(options) > 1 and text_or_none(options[1]) is not None):
        code = _positive_integer(options.pop(0), "Subplot number")
        if not 111 <= code <= 999:
            raise error("MATLAB:subplot:InvalidInput", "Unknown command option.")
        rows, cols, cells = code // 100, code // 10 % 10, [code % 10]
    elif len(options) >= 3:
        rows = _positive_integer(options.pop(0), "Number of rows")
        cols = _positive_integer(options.pop(0), "Number of columns")
        cells = _whole_numbers(options.pop(0), "subplot")
    else:
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    if not cells or any(c < 1 or c > rows * cols for c in cells):
        raise error("MATLAB:subplot:SubplotIndexOutOfRange", "Index exceeds number of subplots.")
    key = (rows, cols, tuple(sorted(cells)))
    position = subplot_position(rows, cols, cells)
    existing = None
    for child in list(figure_.children):
        if isinstance(child, Axes) and child.valid:
            if child.cell == key:
                existing = child
            elif _overlaps(tuple(child.artist.get_position().bounds), position):
                child.delete()
    axes = existing or Axes(figure_, position)
    axes.cell = key
    make_current(interp, axes)
    _set_pairs(axes, [o for o in options if (text_or_none(o) or "").lower() not in ("replace", "align")],
               "subplot")
    return axes if nargout else None


@builtin("axes", interp=True, nargout=True, max_out=1)
def axes(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """axes  create axes or make axes current.

    axes makes new axes in the current figure; axes(Name=Value) sets their properties
    (Position...); axes(f, ...) makes them in the figure f; axes(ax) makes ax the
    current axes (and its figure the current figure).  ax = axes(...) returns them."""
    if len(args) == 1 and isinstance(args[0], Axes):
        return _select_axes(interp, args[0], nargout)
    options = list(args)
    figure_ = _figure_argument(options.pop(0), "axes") if options and is_graphics(options[0]) else \
        current_figure(interp)
    made = Axes(figure_)
    make_current(interp, made)
    _set_pairs(made, options, "axes")
    return made if nargout else None


# ---------------------------------------------------------------- tiled layouts


class TiledLayout(GraphicsHandle):
    """A tiled chart layout: a grid (fixed, or 'flow': growing as tiles are added) whose
    tiles nexttile fills with axes."""

    matlab_class = "matlab.graphics.layout.TiledChartLayout"
    display_name = "TiledChartLayout"
    type_name = "tiledlayout"
    display_order = ("TileArrangement", "GridSize", "TileSpacing", "Padding")
    __slots__ = ("rows", "cols", "flow", "tiles", "next_tile")

    def __init__(self, figure_: Figure, rows: int, cols: int, flow: bool) -> None:
        super().__init__(figure_)
        self.rows, self.cols, self.flow = rows, cols, flow
        self.tiles: dict[tuple[int, int, int], Axes] = {}  # (tile, row span, col span) -> axes
        self.next_tile = 1
        figure_.layout = self

    def tile_position(self, tile: int, span: tuple[int, int]) -> tuple[float, float, float, float]:
        spacing = pv.text_value(self.get_value("TileSpacing"), "TileSpacing")
        padding = pv.text_value(self.get_value("Padding"), "Padding")
        gap = {"loose": 0.09, "compact": 0.05, "tight": 0.02, "none": 0.0}[spacing]
        margin = {"loose": 0.08, "compact": 0.05, "tight": 0.02}[padding]
        width = (1 - 2 * margin - (self.cols - 1) * gap) / self.cols
        height = (1 - 2 * margin - (self.rows - 1) * gap) / self.rows
        row, col = divmod(tile - 1, self.cols)
        left = margin + col * (width + gap)
        top = 1 - margin - row * (height + gap)
        full_width = span[1] * width + (span[1] - 1) * gap
        full_height = span[0] * height + (span[0] - 1) * gap
        return (left + 0.04, top - full_height + 0.03, max(full_width - 0.05, 0.01),
                max(full_height - 0.06, 0.01))

    def grow(self, tiles: int) -> None:
        """A flow layout holds ``tiles`` tiles: the grid grows, tiles move to their places."""
        if not self.flow or tiles <= self.rows * self.cols:
            return
        self.cols = math.ceil(math.sqrt(tiles))
        self.rows = math.ceil(tiles / self.cols)
        for (tile, rspan, cspan), axes in self.tiles.items():
            if axes.valid:
                axes.artist.set_position(self.tile_position(tile, (rspan, cspan)))

    def axes_at(self, tile: int, span: tuple[int, int]) -> Axes:
        self.grow(tile)
        if tile < 1 or tile > self.rows * self.cols:
            raise error("MATLAB:tiledlayout:InvalidTileIndex", "Tile index out of range.")
        key = (tile, span[0], span[1])
        existing = self.tiles.get(key)
        if existing is not None and existing.valid:
            return existing
        made = Axes(self.parent, self.tile_position(tile, span))  # type: ignore[arg-type]
        made.cell = key
        self.tiles[key] = made
        self.next_tile = max(self.next_tile, tile + 1)
        return made

    def next_axes(self) -> Axes:
        return self.axes_at(self.next_tile, (1, 1))


define_properties(TiledLayout, {
    "GridSize": Prop(get=lambda h: np.array([[float(h.rows), float(h.cols)]])),
    "TileArrangement": Prop(get=lambda h: char_row("flow" if h.flow else "fixed")),
    "TileSpacing": Prop(set=lambda h, v: char_row(pv.choice(v, "TileSpacing",
                                                            ("loose", "compact", "tight", "none"))),
                        default=char_row("loose")),
    "Padding": Prop(set=lambda h, v: char_row(pv.choice(v, "Padding", ("loose", "compact", "tight"))),
                    default=char_row("loose")),
})


@builtin("tiledlayout", interp=True, nargout=True, max_out=1)
def tiledlayout(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """tiledlayout  a tiled chart layout in the current figure.

    tiledlayout(m, n) makes an m-by-n grid of tiles; tiledlayout('flow') a grid that
    grows as tiles are filled; tiledlayout(f, ...) uses the figure f.  Options:
    TileSpacing ('loose', 'compact', 'tight', 'none') and Padding ('loose', 'compact',
    'tight').  nexttile makes the axes of the next tile.  t = tiledlayout(...) returns
    the layout."""
    options = list(args)
    figure_ = _figure_argument(options.pop(0), "tiledlayout") if options and is_graphics(options[0]) \
        else current_figure(interp)
    word = text_or_none(options[0]) if options else None
    if word is not None and word.lower() in ("flow", "vertical", "horizontal"):
        options.pop(0)
        rows, cols, flow = 1, 1, True
    elif len(options) >= 2 and text_or_none(options[0]) is None:
        rows = _positive_integer(options.pop(0), "Number of rows")
        cols = _positive_integer(options.pop(0), "Number of columns")
        flow = False
    elif not options or text_or_none(options[0]) is not None:
        rows, cols, flow = 1, 1, True
    else:
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    figure_.clear()
    layout = TiledLayout(figure_, rows, cols, flow)
    _set_pairs(layout, options, "tiledlayout")
    graphics_state(interp).current_figure = figure_
    return layout if nargout else None


@builtin("nexttile", interp=True, nargout=True, max_out=1)
def nexttile(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """nexttile  the axes of the next tile of the current tiled layout.

    nexttile makes axes in the next empty tile (a layout is made when the figure has
    none); nexttile(k) the k-th tile (along rows); nexttile(span) or nexttile(k, span)
    a tile spanning span = [rows cols] tiles; nexttile(t, ...) uses the layout t.
    ax = nexttile(...) returns the axes."""
    options = list(args)
    layout = options.pop(0) if options and isinstance(options[0], TiledLayout) else None
    if layout is None:
        figure_ = current_figure(interp)
        layout = figure_.layout if figure_.layout is not None and figure_.layout.valid else \
            TiledLayout(figure_, 1, 1, True)
    tile = layout.next_tile
    span = (1, 1)
    numbers = [_whole_numbers(o, "nexttile") for o in options if text_or_none(o) is None]
    if numbers and len(numbers[0]) == 1:
        tile = numbers.pop(0)[0]
    if numbers and len(numbers[0]) == 2:
        span = (numbers[0][0], numbers[0][1])
        if min(span) < 1:
            raise error("MATLAB:tiledlayout:InvalidTileIndex", "Tile span must be positive.")
    made = layout.axes_at(tile, span)
    make_current(interp, made)
    return made if nargout else None


# ---------------------------------------------------------------- drawing


@builtin("drawnow", interp=True, max_out=0)
def drawnow(interp: Any, *args: Any) -> None:
    """drawnow  draw the figures now.

    With windows, pending changes are drawn.  When figures are written as files, they
    are written again, at most once every few seconds (a loop calling drawnow each
    iteration stays fast); the program's end writes them in any case.  drawnow
    limitrate, drawnow nocallbacks, drawnow update and drawnow expose are accepted."""
    words = []
    for arg in args:
        word = text_or_none(arg)
        if word is None or word.lower() not in ("limitrate", "nocallbacks", "update", "expose"):
            raise error("MATLAB:drawnow:InvalidInput", "Invalid input argument.")
        words.append(word.lower())
    from mlang.builtins.graphics.output import refresh  # (this package; output imports this one)

    refresh(interp, limit_rate="limitrate" in words)


@builtin("shg", interp=True, max_out=0)
def shg(interp: Any) -> None:
    """shg  show the current figure (brings its window to the front)."""
    figure_ = current_figure(interp, create=False)
    if figure_ is not None:
        backend.refresh_windows()


# ---------------------------------------------------------------- set and get


def _set_pairs(target: GraphicsHandle, options: list, function: str) -> None:
    if len(options) % 2:
        raise error("MATLAB:class:BadParamValuePairs", "Invalid parameter/value pair arguments.")
    for k in range(0, len(options), 2):
        name = text_or_none(options[k])
        if name is None:
            raise error("MATLAB:class:BadParamValuePairs", "Invalid parameter/value pair arguments.")
        target.set_value(target.checked_name(name, reading=False), options[k + 1])


def _graphics_target(interp: Any, target: Any) -> Any:
    """A handle argument of set/get: 0 is the root (set(0, 'DefaultAxesFontSize', 12))."""
    if class_of(target) == "double" and numel(target) == 1 and to_double_array(target).ravel()[0] == 0:
        return root(interp)
    if not is_graphics(target):
        raise error("MATLAB:class:InvalidHandle", "Invalid or deleted object.")
    return target


@builtin("set", interp=True, max_out=0)
def set_(interp: Any, target: Any, *args: Any) -> None:
    """set  set properties of graphics objects.

    set(h, Name, Value, ...) sets properties of the object h (every object of an array
    of them); set(h, s) sets the fields of the structure s as properties.  Names are
    matched ignoring case.  set(groot, 'DefaultLineLineWidth', 2) (or set(0, ...)) sets
    the value new objects get."""
    handles = handle_list(_graphics_target(interp, target))
    options = list(args)
    if len(options) == 1 and type(options[0]) is Struct:
        s = options[0]
        if not s.is_scalar():
            raise error("MATLAB:class:BadParamValuePairs", "Invalid parameter/value pair arguments.")
        options = [item for name in s.fields for item in (char_row(name), s.element(0)[name])]
    if len(options) == 1 and text_or_none(options[0]) is not None:
        raise error("MATLAB:class:BadParamValuePairs", "Invalid parameter/value pair arguments.")
    for handle in handles:
        _set_pairs(handle, options, "set")


@builtin("get", interp=True, nargout=True)
def get(interp: Any, target: Any, *args: Any, nargout: int = 1) -> Any:
    """get  properties of graphics objects.

    v = get(h, Name) is a property of h; get(h, {Name1, Name2}) a cell array of them;
    s = get(h) a structure of every property.  For an array of objects, the values form
    a cell array with one row an object.  get(0, ...) reads the root (groot)."""
    handles = handle_list(_graphics_target(interp, target))
    if len(args) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if not args:
        if len(handles) != 1:
            raise error("MATLAB:get:ArrayInput", "get with no property name needs one object.")
        handle = handles[0]
        if not handle.valid:
            raise invalid_handle()
        return Struct.scalar({name: handle.get_value(name) for name in handle.property_names()})
    names = text_list(args[0], "Property name")
    single = text_or_none(args[0]) is not None
    values = [[h.get_value(h.checked_name(name, reading=True)) for name in names] for h in handles]
    if single and len(handles) == 1:
        return values[0][0]
    cell = Cell.empty((len(handles), len(names)))
    for r, row in enumerate(values):
        for c, value in enumerate(row):
            cell.data[r, c] = value
    return cell


def _flags(value: Any, test: Any) -> Any:
    """A logical value shaped like ``value``: ``test(h)`` for each graphics object."""
    if isinstance(value, GraphicsHandle):
        return bool(test(value))
    if isinstance(value, GraphicsArray):
        flags = np.array([bool(test(h)) for h in value.items], dtype=bool)
        out = flags.reshape(value.dims, order="F")
        return bool(out[0, 0]) if out.size == 1 else out
    if class_of(value) in ("double", "single") and numel(value):
        return np.zeros(np.shape(to_double_array(value)), dtype=bool) if numel(value) > 1 else False
    if numel(value) == 0:
        return np.zeros((0, 0), dtype=bool)
    return False


@builtin("isgraphics", dl="data")
def isgraphics(value: Any, kind: Any = None) -> Any:
    """isgraphics  true for valid graphics objects.

    isgraphics(h) is true where h is a graphics object that has not been deleted;
    isgraphics(h, type) also asks that its Type be type ('line', 'axes', 'figure'...)."""
    wanted = None if kind is None else text_or_none(kind)
    if kind is not None and wanted is None:
        raise error("MATLAB:isgraphics:InvalidType", "Type must be a character vector or string.")
    return _flags(value, lambda h: _real(h) and (wanted is None or h.type_name == wanted.lower()))


@builtin("ishandle", dl="data")
def ishandle(value: Any) -> Any:
    """ishandle  true for valid graphics objects (deleted ones are false)."""
    return _flags(value, _real)


@builtin("isvalid", dl="data")
def isvalid(value: Any) -> Any:
    """isvalid  true for handle objects that have not been deleted."""
    if not is_graphics(value):
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function 'isvalid' for input arguments of type '{class_of(value)}'.")
    return _flags(value, _real)


def _real(h: GraphicsHandle) -> bool:
    """A graphics object that exists (not deleted, not a placeholder)."""
    return h.valid and not isinstance(h, GraphicsPlaceholder)


@builtin("gobjects")
def gobjects(*args: Any) -> Any:
    """gobjects  an array of graphics placeholders, to fill with graphics objects.

    h = gobjects(n) is n-by-n, gobjects(m, n) m-by-n, gobjects(0) empty; assign objects
    into it with h(k) = plot(...)."""
    shape = size_arguments(args)
    if len(shape) != 2:
        raise error("MATLAB:gobjects:TooManyDimensions", "Graphics arrays have two dimensions.")
    rows, cols = shape
    items: list[GraphicsHandle] = [GraphicsPlaceholder(None) for _ in range(rows * cols)]
    return items[0] if rows * cols == 1 else GraphicsArray(items, (rows, cols))


__all__ = ["current_axes", "current_figure", "new_figure", "root", "make_current", "simplify"]
