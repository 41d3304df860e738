"""Axes decoration: titles and labels, legends, grids and the box.

xlabel, ylabel, zlabel, title (with a subtitle), subtitle, sgtitle, legend, grid, box.
The title and labels are the axes' ``Text`` objects (``axes.labels``); a subtitle is one
more, drawn under the title (made on first use).  sgtitle and title/xlabel/ylabel of a
tiled layout are texts of the whole figure (``FigureText``).  Decorated axes shrink when
the figure is drawn so their texts and an outside legend stay in the figure
(``fit_to_figure``, a matplotlib layout engine), as MATLAB keeps them in the axes' outer
position.  Axis limits, ticks and colororder are in ``decorations_axis``; the text markup
(Interpreter 'tex', 'latex', 'none') in ``text_markup``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import text_list, text_or_none
from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.figure_axes import Axes, Figure, Legend
from mlang.builtins.graphics.figures import TiledLayout, current_axes, current_figure
from mlang.builtins.graphics.handles import (
    GraphicsArray,
    GraphicsHandle,
    Prop,
    Text,
    add_properties,
    handle_list,
)
from mlang.builtins.graphics.plot_args import apply_options, leading_axes, option_pairs
from mlang.errors import error, warn
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_row, char_rows
from mlang.values.string import StringArray

TITLE_GAP = 6.0  # points between the axes and the title (matplotlib's default pad)


def _not_enough() -> Exception:
    return error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")


def _check_text(value: Any, function: str) -> Any:
    """A label argument: text (char, string, cell of texts) or a number shown as text."""
    if isinstance(value, GraphicsHandle | GraphicsArray):
        raise error(f"MATLAB:{function}:InvalidText",
                    "Invalid text argument: specify a character vector, string, or cell array.")
    pv.text_value(value, "String")
    return value


# ---------------------------------------------------------------- axis labels


def _label(interp: Any, args: tuple, key: str, function: str, nargout: int) -> Any:
    layout, rest = _layout_target(args)
    if layout is not None and key in _FIGURE_TEXTS:
        return _set_figure_text(layout, key, rest, function, nargout)
    axes, rest = leading_axes(args)
    if not rest:
        raise _not_enough()
    axes = axes or current_axes(interp)
    pairs = option_pairs(rest[1:], function)
    label = label_text(axes, key)
    label.set_value("String", _check_text(rest[0], function))
    apply_options(label, pairs, function)
    fit_to_figure(axes)
    axes.changed()
    return label if nargout else None


def label_text(axes: Axes, key: str) -> Text:
    """The axes' Text object for ``key`` ('Title', 'XLabel', 'YLabel', 'ZLabel',
    'Subtitle'), made when the axes has none yet (a z-label of 2-D axes is kept but not
    drawn)."""
    label = axes.labels.get(key)
    if label is not None and label.valid:
        return label
    if key == "Subtitle":
        return _make_subtitle(axes)
    label = Text(None, None)
    label.parent = axes
    label.stored["HorizontalAlignment"] = char_row("center")
    axes.labels[key] = label
    return label


@builtin("xlabel", interp=True, nargout=True, max_out=1)
def xlabel(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """xlabel  label the x-axis.

    xlabel(txt) labels the x-axis of the current axes; xlabel(ax, txt) of the axes ax.
    xlabel(..., Name, Value) sets text properties (FontSize, Color, Interpreter...).
    t = xlabel(...) returns the Text object."""
    return _label(interp, args, "XLabel", "xlabel", nargout)


@builtin("ylabel", interp=True, nargout=True, max_out=1)
def ylabel(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """ylabel  label the y-axis.

    ylabel(txt), ylabel(ax, txt) and ylabel(..., Name, Value) as xlabel."""
    return _label(interp, args, "YLabel", "ylabel", nargout)


@builtin("zlabel", interp=True, nargout=True, max_out=1)
def zlabel(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """zlabel  label the z-axis.

    zlabel(txt), zlabel(ax, txt) and zlabel(..., Name, Value) as xlabel."""
    return _label(interp, args, "ZLabel", "zlabel", nargout)


# ---------------------------------------------------------------- titles


def _make_subtitle(axes: Axes) -> Text:
    """A subtitle text under the title, centred above the axes (matplotlib has none)."""
    # matplotlib's text and transforms, loaded with matplotlib already
    from matplotlib.text import Text as MplText
    from matplotlib.transforms import offset_copy

    ax = axes.artist
    artist = MplText(0.5, 1.0, "", ha="center", va="bottom", fontsize=11.0,
                     transform=offset_copy(ax.transAxes, fig=ax.figure, y=TITLE_GAP, units="points"))
    ax.add_artist(artist)
    artist.set_clip_on(False)  # above the axes: never clipped to them
    label = Text(None, artist)
    label.parent = axes
    label.stored["HorizontalAlignment"] = char_row("center")
    label.stored["FontSize"] = 11.0
    axes.labels["Subtitle"] = label
    return label


def place_title(axes: Axes) -> None:
    """Lift the title above a subtitle that has text (or lower it back without one)."""
    subtitle = axes.labels.get("Subtitle")
    gap = TITLE_GAP
    if subtitle is not None and subtitle.valid and subtitle.artist is not None:
        text = subtitle.artist.get_text()
        if text:
            size = float(subtitle.artist.get_fontsize())
            gap += (text.count("\n") + 1) * size * 1.3
    set_offset = getattr(axes.artist, "_set_title_offset_trans", None)
    if set_offset is not None:
        set_offset(gap)


@builtin("title", interp=True, nargout=True, max_out=2)
def title(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """title  add a title to the axes.

    title(txt) sets the title of the current axes; title(txt, subtxt) adds a subtitle
    under it; title(ax, ...) titles the axes ax.  title(..., Name, Value) sets text
    properties of the title (and subtitle): FontSize, FontWeight, Color, Interpreter
    ('tex', 'latex', 'none')...  t = title(...) returns the title's Text object and
    [t, s] = title(...) the subtitle's too.  title(t, txt) titles the tiled layout t."""
    layout, rest = _layout_target(args)
    if layout is not None:
        return _set_figure_text(layout, "Title", rest, "title", nargout)
    axes, rest = leading_axes(args)
    if not rest:
        raise _not_enough()
    axes = axes or current_axes(interp)
    has_subtitle = len(rest) % 2 == 0
    options = rest[2:] if has_subtitle else rest[1:]
    pairs = option_pairs(options, "title")
    heading = label_text(axes, "Title")
    heading.set_value("String", _check_text(rest[0], "title"))
    apply_options(heading, pairs, "title")
    subtitle_label = None
    if has_subtitle or nargout > 1:
        subtitle_label = label_text(axes, "Subtitle")
        if has_subtitle:
            subtitle_label.set_value("String", _check_text(rest[1], "title"))
            apply_options(subtitle_label, [(n, v) for n, v in pairs if n.lower() != "fontweight"], "title")
        place_title(axes)
    fit_to_figure(axes)
    axes.changed()
    if nargout > 1:
        return heading, subtitle_label
    return heading if nargout else None


@builtin("subtitle", interp=True, nargout=True, max_out=1)
def subtitle(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """subtitle  add a subtitle under the axes' title.

    subtitle(txt), subtitle(ax, txt) and subtitle(..., Name, Value) as title.
    s = subtitle(...) returns the Text object."""
    axes, rest = leading_axes(args)
    if not rest:
        raise _not_enough()
    axes = axes or current_axes(interp)
    pairs = option_pairs(rest[1:], "subtitle")
    label = label_text(axes, "Subtitle")
    label.set_value("String", _check_text(rest[0], "subtitle"))
    apply_options(label, pairs, "subtitle")
    place_title(axes)
    fit_to_figure(axes)
    axes.changed()
    return label if nargout else None


# The figure-level texts: matplotlib's figure text of each, and its attribute.
_FIGURE_TEXTS = {"Title": ("suptitle", "_suptitle"), "XLabel": ("supxlabel", "_supxlabel"),
                 "YLabel": ("supylabel", "_supylabel")}


class FigureText(Text):
    """A text of a whole figure or tiled layout: the title of all its tiles (title(t, ...),
    sgtitle) or their shared x- or y-label (xlabel(t, ...), ylabel(t, ...))."""

    __slots__ = ("kind",)

    def __init__(self, parent: GraphicsHandle, artist: Any, kind: str) -> None:
        super().__init__(parent, artist)
        self.kind = kind

    def remove_artist(self) -> None:
        figure = self.artist.figure if self.artist is not None else None
        attribute = _FIGURE_TEXTS[self.kind][1]
        if figure is not None and getattr(figure, attribute, None) is self.artist:
            setattr(figure, attribute, None)  # matplotlib would draw a new one into the removed artist
        if figure is not None:
            self.artist.remove()


class SubplotText(FigureText):
    """The title of a figure's grid of subplots (sgtitle)."""

    matlab_class = "matlab.graphics.illustration.subplot.Text"


def figure_text(owner: GraphicsHandle, kind: str) -> FigureText:
    """The figure-level text ``kind`` ('Title', 'XLabel', 'YLabel') of a figure or tiled
    layout (one per figure: sgtitle and title(t, ...) share it), made when missing."""
    figure = owner if isinstance(owner, Figure) else owner.figure()
    for holder in [figure, *figure.children]:
        for child in holder.children:
            if isinstance(child, FigureText) and child.valid and child.kind == kind:
                return child
    method, _ = _FIGURE_TEXTS[kind]
    artist = getattr(figure.artist, method)("", fontsize=11.0)
    made = (SubplotText if isinstance(owner, Figure) else FigureText)(owner, artist, kind)
    made.stored["HorizontalAlignment"] = char_row("center")
    made.stored["FontSize"] = 11.0
    if kind == "Title":
        made.stored["VerticalAlignment"] = char_row("top")
    if kind == "Title" and not isinstance(owner, Figure):  # a layout's title is bold, sgtitle's not
        made.stored["FontWeight"] = char_row("bold")
        artist.set_fontweight("bold")
    return made


def _set_figure_text(owner: GraphicsHandle, kind: str, rest: list, function: str, nargout: int) -> Any:
    """title(t, ...), xlabel(t, ...), ylabel(t, ...) of a tiled layout, and sgtitle."""
    if not rest:
        raise _not_enough()
    pairs = option_pairs(rest[1:], function)
    label = figure_text(owner, kind)
    label.set_value("String", _check_text(rest[0], function))
    apply_options(label, pairs, function)
    fit_figure(label.figure())
    return label if nargout else None


def _layout_target(args: tuple) -> tuple[GraphicsHandle | None, list]:
    """A leading tiled-layout argument (title(t, ...)) and the other arguments."""
    if args and isinstance(args[0], GraphicsHandle) and args[0].type_name == "tiledlayout":
        if not args[0].valid:
            raise error("MATLAB:class:InvalidHandle", "Invalid or deleted object.")
        return args[0], list(args[1:])
    return None, list(args)


@builtin("sgtitle", interp=True, nargout=True, max_out=1)
def sgtitle(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """sgtitle  title of a grid of subplots.

    sgtitle(txt) puts a title above all the subplots of the current figure;
    sgtitle(target, txt) above those of a figure, a tiled layout (or the figure of an
    axes).  sgtitle(..., Name, Value) sets text properties.  t = sgtitle(...) returns
    the Text object."""
    rest = list(args)
    owner: GraphicsHandle | None = None
    if rest and isinstance(rest[0], GraphicsHandle):
        target = rest.pop(0)
        if not target.valid:
            raise error("MATLAB:class:InvalidHandle", "Invalid or deleted object.")
        owner = target if isinstance(target, Figure) or target.type_name == "tiledlayout" \
            else target.figure()
        if owner is None:
            raise error("MATLAB:sgtitle:InvalidTarget", "Target must be a figure or a tiled chart layout.")
    return _set_figure_text(owner or current_figure(interp), "Title", rest, "sgtitle", nargout)


# ---------------------------------------------------------------- legend

_LEGEND_COMMANDS = ("off", "show", "hide", "toggle", "boxoff", "boxon")


# Objects a legend never lists (MATLAB gives them no legend entry).
_NOT_IN_LEGENDS = ("text", "image", "light", "colorbar", "legend", "axes", "figure", "root")


def _legendable(axes: Axes) -> list[GraphicsHandle]:
    """The plotted objects a legend lists, in the order they were made."""
    return [c for c in axes.children
            if c.valid and not isinstance(c, Text) and c.type_name not in _NOT_IN_LEGENDS]


def _label_arguments(args: list) -> tuple[list[str], list]:
    """The labels of a legend call and the name=value options after them: a cell or string
    array of labels, or label texts until a Legend property name followed by a value."""
    labels: list[str] = []
    k = 0
    while k < len(args):
        value = args[k]
        if isinstance(value, Cell | StringArray):
            labels += text_list(value, "legend")
            k += 1
            continue
        text = text_or_none(value)
        if text is None:
            if hasattr(value, "dtype") and value.dtype.kind == "V":  # a char matrix: a label a row
                labels += [row.rstrip() for row in char_rows(value)]
                k += 1
                continue
            raise error("MATLAB:legend:InvalidInput", "Invalid argument. Type 'help legend' for more "
                                                      "information.")
        if k + 1 < len(args) and text.lower() in Legend._by_lower:  # a property name and its value
            break
        labels.append(text)
        k += 1
    return labels, args[k:]


@builtin("legend", interp=True, nargout=True, max_out=1)
def legend(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """legend  add a legend to the axes.

    legend shows a legend of the plotted objects of the current axes, each named by its
    DisplayName (else 'data1', 'data2', ...).  legend(label1, ..., labelN) and
    legend(labels) (a cell or string array) name them in the order they were plotted;
    legend(subset, labels) lists only the objects in subset; legend(ax, ...) the objects
    of the axes ax.  legend(..., 'Location', lcn) places it ('north', 'northeast' (the
    default), 'best', 'northeastoutside', 'bestoutside', 'none'...); other name=value
    options set Legend properties (Orientation, NumColumns, FontSize, Interpreter, Box,
    Title, AutoUpdate...).  legend('off') deletes it, legend('hide'), legend('show') and
    legend('toggle') hide or show it, legend('boxoff') and legend('boxon') remove or add
    its box.  lgd = legend(...) returns the Legend object."""
    rest = list(args)
    axes: Axes | None = None
    if rest and isinstance(rest[0], Legend):
        axes = rest.pop(0).parent
    elif rest and isinstance(rest[0], GraphicsHandle) and isinstance(rest[0], Axes):
        axes, rest = leading_axes(rest)
    subset = None
    if rest and isinstance(rest[0], GraphicsHandle | GraphicsArray):
        subset = [h for h in handle_list(rest.pop(0)) if h.valid]
        if any(isinstance(h, Axes | Figure | Legend) or h.parent is None for h in subset):
            raise error("MATLAB:legend:InvalidInput", "Invalid argument. Type 'help legend' for more "
                                                      "information.")
        if axes is None and subset:
            axes = subset[0].axes()
    axes = axes or current_axes(interp)
    existing = axes.legend if axes.legend is not None and axes.legend.valid else None
    if len(rest) == 1 and subset is None:
        word = text_or_none(rest[0])
        if word is not None and word.lower() in _LEGEND_COMMANDS:
            return _legend_command(axes, existing, word.lower(), nargout)
    labels, options = _label_arguments(rest)
    pairs = option_pairs(options, "legend")
    if existing is not None and subset is None and not labels:
        apply_options(existing, pairs, "legend")
        if not pv.on_off(existing.get_value("Visible"), "Visible"):
            existing.set_value("Visible", char_row("on"))
        fit_to_figure(axes)
        return existing if nargout else None
    objects = subset if subset is not None else _legendable(axes)
    if labels:
        if len(labels) > len(objects):
            warn("MATLAB:legend:IgnoringExtraEntries", "Ignoring extra legend entries.")
        objects = objects[:len(labels)]
        entries = list(zip(objects, labels, strict=False))
    else:
        entries = _default_entries(objects)
    for handle, label in entries:
        if "DisplayName" in type(handle).properties and _display_name(handle) != label:
            handle.stored["DisplayName"] = char_row(label)
    made = Legend(axes, entries)
    apply_options(made, pairs, "legend")
    fit_to_figure(axes)
    axes.changed()
    return made if nargout else None


def _default_entries(objects: list[GraphicsHandle]) -> list[tuple[GraphicsHandle, str]]:
    """Legend entries named by the objects' DisplayName, else 'data1', 'data2', ..."""
    return [(h, _display_name(h) or f"data{k + 1}") for k, h in enumerate(objects)]


def _display_name(handle: GraphicsHandle) -> str:
    if "DisplayName" not in type(handle).properties:
        return ""
    return pv.text_value(handle.get_value("DisplayName"), "DisplayName")


def _legend_command(axes: Axes, existing: Legend | None, word: str, nargout: int) -> Any:
    if word == "off":
        if existing is not None:
            existing.delete()
            fit_to_figure(axes)
        if nargout:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        return None
    if existing is None:  # made from the plotted objects, then changed as asked
        existing = Legend(axes, _default_entries(_legendable(axes)))
        if word in ("show", "toggle"):
            word = ""
    if word in ("boxoff", "boxon"):
        existing.set_value("Box", char_row("on" if word == "boxon" else "off"))
    elif word == "show":
        existing.set_value("Visible", char_row("on"))
    elif word == "hide":
        existing.set_value("Visible", char_row("off"))
    elif word == "toggle":
        shown = pv.on_off(existing.get_value("Visible"), "Visible")
        existing.set_value("Visible", char_row("off" if shown else "on"))
    fit_to_figure(axes)
    axes.changed()
    return existing if nargout else None


# ---------------------------------------------------------------- grid and box


def _switch_arguments(interp: Any, args: tuple, function: str) -> tuple[Axes, str | None]:
    axes, rest = leading_axes(args)
    if len(rest) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    word = None
    if rest:
        word = text_or_none(rest[0])
        if word is None:
            raise error(f"MATLAB:{function}:UnknownOption", "Unknown command option.")
        word = word.lower()
    return axes or current_axes(interp), word


def _axis_names(axes: Axes) -> tuple[str, ...]:
    return ("X", "Y", "Z") if axes.is_3d else ("X", "Y")


@builtin("grid", interp=True, max_out=0)
def grid(interp: Any, *args: Any) -> None:
    """grid  show or hide the axes' grid lines.

    grid on shows the major grid lines of the current axes, grid off hides all grid
    lines, grid minor switches the minor grid lines, and grid alone switches the major
    ones.  grid(ax, ...) acts on the axes ax."""
    axes, word = _switch_arguments(interp, args, "grid")
    names = _axis_names(axes)
    if word is None:
        shown = pv.on_off(axes.get_value("XGrid"), "XGrid")
        word = "off" if shown else "on"
    if word in ("on", "off"):
        for name in names:
            axes.set_value(f"{name}Grid", char_row(word))
        if word == "off":
            for name in names:
                axes.set_value(f"{name}MinorGrid", char_row("off"))
    elif word == "minor":
        shown = pv.on_off(axes.get_value("XMinorGrid"), "XMinorGrid")
        for name in names:
            axes.set_value(f"{name}MinorGrid", char_row("off" if shown else "on"))
    else:
        raise error("MATLAB:grid:UnknownOption", "Unknown command option.")


@builtin("box", interp=True, max_out=0)
def box(interp: Any, *args: Any) -> None:
    """box  show or hide the box outline of the axes.

    box on draws the outline on all four sides of the current axes, box off only on the
    two axis sides, box alone switches it.  box(ax, ...) acts on the axes ax."""
    axes, word = _switch_arguments(interp, args, "box")
    if word is None:
        word = "off" if pv.on_off(axes.get_value("Box"), "Box") else "on"
    if word not in ("on", "off"):
        raise error("MATLAB:box:UnknownOption", "Unknown command option.")
    axes.set_value("Box", char_row(word))


# ---------------------------------------------------------------- room for the decorations

EDGE = 0.01  # figure fraction kept free at the figure's edges


def fit_to_figure(axes: Axes) -> None:
    """Keep the axes' title, labels and legend inside the figure (and under an sgtitle),
    as MATLAB keeps them inside the axes' outer position: the axes shrinks when they would
    stick out.  Done when the figure is drawn (a layout engine of the figure), so a loop
    retitling a plot pays nothing until drawnow."""
    if not axes.valid:
        return
    ax = axes.artist
    ax._mlang_fit = True
    if ax.figure.get_layout_engine() is None:
        ax.figure.set_layout_engine(_layout_engine())


_ENGINE_CLASSES: list[type] = []  # the layout engine class, made when matplotlib is loaded


def _layout_engine() -> Any:
    if not _ENGINE_CLASSES:
        # matplotlib's layout engines, loaded with matplotlib already
        from matplotlib.layout_engine import LayoutEngine

        class DecorationLayout(LayoutEngine):
            """Fits the decorated axes into the figure before each drawing."""

            _adjust_compatible = True
            _colorbar_gridspec = False

            def set(self, **kwargs: Any) -> None:
                return None

            def execute(self, fig: Any) -> None:
                fit_decorations(fig)

        _ENGINE_CLASSES.append(DecorationLayout)
    return _ENGINE_CLASSES[0]()


def fit_decorations(figure: Any) -> None:
    """Fit every decorated 2-D axes of a matplotlib figure (see ``fit_to_figure``)."""
    get_renderer = getattr(figure, "_get_renderer", None) or getattr(figure.canvas, "get_renderer", None)
    renderer = get_renderer() if get_renderer is not None else None
    if renderer is None:
        return
    headed = any(getattr(getattr(figure, attribute, None), "get_text", str)()
                 for _, attribute in _FIGURE_TEXTS.values())
    for ax in list(figure.axes):
        wanted = getattr(ax, "_mlang_fit", False) or (headed and not hasattr(ax, "_colorbar"))
        if wanted and getattr(ax, "name", "") != "3d":
            _fit_axes(ax, renderer)


def _fit_axes(ax: Any, renderer: Any) -> None:
    """The position the axes was given is kept on the matplotlib axes, so fitting again
    starts from it; a position set since the last fit (set(ax, 'Position'), a colorbar)
    becomes the new one."""
    figure = ax.figure
    current = tuple(ax.get_position().bounds)
    requested = getattr(ax, "_mlang_requested", None)
    fitted = getattr(ax, "_mlang_fitted", None)
    if requested is None or fitted is None or not _same_box(current, fitted):
        requested = current
    ax.set_position(requested)
    box = ax.get_tightbbox(renderer)
    if box is None:
        return
    to_figure = figure.transFigure.inverted()
    box = box.transformed(to_figure)
    low_x, low_y, top = EDGE, EDGE, 1.0 - EDGE
    for _, attribute in _FIGURE_TEXTS.values():
        shared = getattr(figure, attribute, None)
        if shared is None or not shared.get_text() or not shared.get_visible():
            continue
        extent = shared.get_window_extent(renderer).transformed(to_figure)
        if attribute == "_suptitle":
            top = min(top, extent.y0 - EDGE)
        elif attribute == "_supxlabel":
            low_y = max(low_y, extent.y1 + EDGE)
        else:
            low_x = max(low_x, extent.x1 + EDGE)
    x, y, width, height = requested
    left = max(0.0, low_x - box.x0)
    right = max(0.0, box.x1 - (1.0 - EDGE))
    bottom = max(0.0, low_y - box.y0)
    over = max(0.0, box.y1 - top)
    new = (x + left, y + bottom, width - left - right, height - bottom - over)
    if new[2] < 0.2 * width or new[3] < 0.2 * height:
        new = requested  # no room to make: MATLAB lets them overflow too
    ax.set_position(new)
    ax._mlang_requested = requested
    ax._mlang_fitted = tuple(ax.get_position().bounds)
    _follow_colorbars(ax)


def _follow_colorbars(ax: Any) -> None:
    """A colorbar beside the axes keeps spanning it (its height, or width when it is above
    or below)."""
    x, y, width, height = ax.get_position().bounds
    for other in ax.figure.axes:
        info = getattr(other, "_colorbar_info", None)
        if not info or list(info.get("parents", ())) != [ax]:
            continue
        box = other.get_position()
        if info.get("location") in ("left", "right"):
            other.set_position((box.x0, y, box.width, height))
        else:
            other.set_position((x, box.y0, width, box.height))


def _same_box(a: tuple, b: tuple) -> bool:
    return all(abs(p - q) < 1e-9 for p, q in zip(a, b, strict=True))


def fit_figure(figure: Figure) -> None:
    for child in figure.children:
        if isinstance(child, Axes):
            fit_to_figure(child)


# ---------------------------------------------------------------- properties


def _minor_grid_prop(axis: str) -> Prop:
    def write(h: Axes, value: Any) -> Any:
        flag = pv.on_off(value, f"{axis.upper()}MinorGrid")
        if axis != "z":
            if flag:
                getattr(h.artist, f"{axis}axis").minorticks_on()
            if flag:
                h.artist.grid(True, which="minor", axis=axis, linewidth=0.3, alpha=0.5)
            else:
                h.artist.grid(False, which="minor", axis=axis)
        return pv.on_off_value(flag)

    return Prop(set=write, default=char_row("off"))


def _z_grid(h: Axes, value: Any) -> Any:
    flag = pv.on_off(value, "ZGrid")
    if h.is_3d:
        h.artist.grid(flag)
    return pv.on_off_value(flag)


add_properties(Axes, {
    "Subtitle": Prop(get=lambda h: label_text(h, "Subtitle")),
    "ZLabel": Prop(get=lambda h: label_text(h, "ZLabel")),
    "XMinorGrid": _minor_grid_prop("x"), "YMinorGrid": _minor_grid_prop("y"),
    "ZMinorGrid": _minor_grid_prop("z"),
    "ZGrid": Prop(set=_z_grid, default=char_row("off")),
})


# ---------------------------------------------------------------- legend properties


def _style_legend(h: Legend) -> None:
    """Apply the colours, weight and line width to the legend matplotlib drew."""
    legend = h.artist
    if legend is None:
        return
    frame = legend.get_frame()
    text_color = pv.mpl_color(pv.parse_color(h.get_value("TextColor"), "TextColor"))
    for label in legend.get_texts():
        label.set_color(text_color)
        label.set_fontweight(pv.text_value(h.get_value("FontWeight"), "FontWeight"))
    frame.set_facecolor(pv.mpl_color(pv.parse_color(h.get_value("Color"), "Color")))
    frame.set_edgecolor(pv.mpl_color(pv.parse_color(h.get_value("EdgeColor"), "EdgeColor")))
    frame.set_linewidth(float(h.get_value("LineWidth")))
    frame.set_alpha(None)


def _legend_color(name: str, default: tuple[float, float, float]) -> Prop:
    def write(h: Legend, value: Any) -> Any:
        h.stored[name] = pv.color_value(pv.parse_color(value, name))
        _style_legend(h)
        return h.stored[name]

    return Prop(set=write, default=lambda h: np.array([list(default)]))


def _set_legend_weight(h: Legend, value: Any) -> Any:
    h.stored["FontWeight"] = char_row(pv.choice(value, "FontWeight", ("normal", "bold")))
    _style_legend(h)
    return h.stored["FontWeight"]


def _set_legend_line_width(h: Legend, value: Any) -> Any:
    h.stored["LineWidth"] = pv.positive_number(value, "LineWidth")
    _style_legend(h)
    return h.stored["LineWidth"]


Legend.after_rebuild.append(_style_legend)
add_properties(Legend, {
    "TextColor": _legend_color("TextColor", (0.0, 0.0, 0.0)),
    "Color": _legend_color("Color", (1.0, 1.0, 1.0)),
    "EdgeColor": _legend_color("EdgeColor", (0.15, 0.15, 0.15)),
    "FontWeight": Prop(set=_set_legend_weight, default=char_row("normal")),
    "LineWidth": Prop(set=_set_legend_line_width, default=0.5),
})
add_properties(TiledLayout, {kind: Prop(get=lambda h, kind=kind: figure_text(h, kind))
                             for kind in _FIGURE_TEXTS})
