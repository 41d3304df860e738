"""Axis limits, aspect and ticks, and the colour order.

axis, xlim, ylim, zlim, xticks, yticks, zticks, xticklabels, yticklabels, zticklabels,
xtickangle, ytickangle, ztickangle, colororder; and the axes properties behind them
(ZLim, XTick, XTickLabel, XTickLabelRotation, TickLabelInterpreter, DataAspectRatio...),
added to the core's Axes property table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import text_list, text_or_none
from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.decorations import fit_to_figure
from mlang.builtins.graphics.figure_axes import Axes, Figure, matlab_ticks
from mlang.builtins.graphics.figures import current_axes, current_figure
from mlang.builtins.graphics.handles import GraphicsArray, GraphicsHandle, Prop, add_properties
from mlang.builtins.graphics.plot_args import leading_axes
from mlang.builtins.graphics.text_markup import mpl_text
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, to_double_array
from mlang.values.string import StringArray

AXIS_NAMES = ("x", "y", "z")


def _too_many_outputs() -> Exception:
    return error("MATLAB:TooManyOutputs", "Too many output arguments.")


def _numeric(value: Any) -> bool:
    cls = class_of(value)
    return cls in ("double", "single", "logical") or cls.startswith(("int", "uint"))


# ---------------------------------------------------------------- limits


def _z_limits(h: Axes) -> tuple[float, float]:
    if h.is_3d:
        low, high = h.artist.get_zlim()
        return float(low), float(high)
    stored = h.stored.get("ZLim")
    return (float(stored[0, 0]), float(stored[0, 1])) if stored is not None else (-1.0, 1.0)


def _set_z_limits(h: Axes, value: Any) -> Any:
    data = pv.real_vector(value, "ZLim", 2)
    if not data[0] < data[1]:
        raise pv.bad_value("ZLim", "Value must be a 2-element vector of increasing numeric values.")
    low, high = _z_limits(h)
    low = low if np.isneginf(data[0]) else float(data[0])
    high = high if np.isposinf(data[1]) else float(data[1])
    if h.is_3d:
        h.artist.set_zlim(low, high)
    h.stored["ZLimMode"] = char_row("manual")
    return np.array([[low, high]])


def _set_z_mode(h: Axes, value: Any) -> Any:
    mode = pv.choice(value, "ZLimMode", ("auto", "manual"))
    if mode == "auto":
        h.stored.pop("ZLim", None)
        if h.is_3d:
            h.artist.set_autoscalez_on(True)
            h.artist.autoscale_view()
    return char_row(mode)


def _axes_and_argument(interp: Any, args: tuple) -> tuple[Axes, Any]:
    """The target axes (a leading ax, else the current axes) and the one setting argument
    of xlim, xticks, xticklabels, xtickangle and their kin (None when they are queried)."""
    axes, rest = leading_axes(args)
    if len(rest) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    return axes or current_axes(interp), rest[0] if rest else None


def _limits_word(axes: Axes, name: str, word: str, nargout: int) -> Any:
    """xlim('auto'), xlim('manual'), m = xlim('mode')."""
    upper = name.upper()
    if word == "mode":
        return axes.get_value(f"{upper}LimMode")
    if nargout:
        raise _too_many_outputs()
    if word == "auto":
        axes.set_value(f"{upper}LimMode", char_row("auto"))
    elif word == "manual":
        axes.set_value(f"{upper}Lim", axes.get_value(f"{upper}Lim"))
    else:
        raise error(f"MATLAB:{name}lim:InvalidInput",
                    "Specify limits as 'auto', 'manual', 'mode', or a two-element vector.")
    return None


def _limits(interp: Any, args: tuple, name: str, nargout: int) -> Any:
    axes, value = _axes_and_argument(interp, args)
    upper = name.upper()
    if value is None:
        return axes.get_value(f"{upper}Lim")
    word = text_or_none(value)
    if word is not None:
        return _limits_word(axes, name, word.lower(), nargout)
    if nargout:
        raise _too_many_outputs()
    data = to_double_array(value).real.ravel() if _numeric(value) else np.zeros(0)
    if data.size != 2 or np.any(np.isnan(data)) or not data[0] < data[1]:
        reason = "IncreasingLimits" if data.size == 2 else "InvalidInput"
        raise error(f"MATLAB:{name}lim:{reason}",
                    "Limits must be a 2-element vector of increasing numeric values.")
    keep_limits_with_aspect(axes)
    axes.set_value(f"{upper}Lim", data.reshape(1, 2))
    return None


@builtin("xlim", interp=True, nargout=True, max_out=1)
def xlim(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """xlim  set or query the x-axis limits.

    xlim([xmin xmax]) sets the limits of the current axes (-Inf or Inf: that limit is
    chosen automatically); xlim('auto') and xlim('manual') set the limit mode;
    L = xlim returns the limits and m = xlim('mode') the mode.  xlim(ax, ...) acts
    on the axes ax."""
    return _limits(interp, args, "x", nargout)


@builtin("ylim", interp=True, nargout=True, max_out=1)
def ylim(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """ylim  set or query the y-axis limits.

    ylim([ymin ymax]), ylim('auto'), ylim('manual'), L = ylim, m = ylim('mode') and
    ylim(ax, ...) as xlim."""
    return _limits(interp, args, "y", nargout)


@builtin("zlim", interp=True, nargout=True, max_out=1)
def zlim(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """zlim  set or query the z-axis limits.

    zlim([zmin zmax]), zlim('auto'), zlim('manual'), L = zlim, m = zlim('mode') and
    zlim(ax, ...) as xlim."""
    return _limits(interp, args, "z", nargout)


# ---------------------------------------------------------------- axis


def _current_limits(axes: Axes) -> np.ndarray:
    names = ("X", "Y", "Z") if axes.is_3d else ("X", "Y")
    values = [np.asarray(axes.get_value(f"{n}Lim"), dtype=float).ravel() for n in names]
    return np.concatenate(values).reshape(1, -1)


def _data_limits(axes: Axes) -> list[tuple[float, float] | None]:
    """The range of the plotted data along x and y (and z in 3-D); None where empty."""
    ax = axes.artist
    ax.relim()
    if axes.is_3d:
        pairs = [tuple(ax.xy_dataLim.intervalx), tuple(ax.xy_dataLim.intervaly),
                 tuple(ax.zz_dataLim.intervalx)]
    else:
        pairs = [tuple(ax.dataLim.intervalx), tuple(ax.dataLim.intervaly)]
    ranges: list[tuple[float, float] | None] = []
    for low, high in pairs:
        ok = np.isfinite(low) and np.isfinite(high) and low <= high
        if ok and low == high:
            low, high = low - 1.0, high + 1.0  # a single value: MATLAB widens it
        ranges.append((float(low), float(high)) if ok else None)
    return ranges


def keep_limits_with_aspect(axes: Axes) -> None:
    """Limits given with equal data units (axis equal): the plot box changes shape to
    keep both, as in MATLAB (matplotlib would otherwise move the limits)."""
    ax = axes.artist
    if not axes.is_3d and ax.get_aspect() != "auto" and ax.get_adjustable() == "datalim":
        ax.set_adjustable("box")


def _tight(axes: Axes) -> None:
    keep_limits_with_aspect(axes)
    for name, span in zip(("X", "Y", "Z"), _data_limits(axes), strict=False):
        if span is not None:
            axes.set_value(f"{name}Lim", np.array([span]))


def _set_aspect(axes: Axes, style: str) -> None:
    ax = axes.artist
    if axes.is_3d:
        if style in ("equal", "image"):
            ax.set_aspect("equal")
        elif style == "square":
            ax.set_box_aspect((1, 1, 1))
        else:
            ax.set_aspect("auto")
        return
    if style == "equal":
        manual = any(pv.text_value(axes.get_value(f"{n}LimMode"), "") == "manual" for n in ("X", "Y"))
        ax.set_aspect("equal", adjustable="box" if manual else "datalim")
    elif style == "image":
        ax.set_aspect("equal", adjustable="box")
    elif style == "square":
        ax.set_aspect("auto")
        ax.set_box_aspect(1)
    else:  # normal, fill
        ax.set_aspect("auto")
        ax.set_box_aspect(None)
    axes.stored["DataAspectRatioMode"] = char_row("manual" if style in ("equal", "image") else "auto")


def _axis_word(axes: Axes, word: str) -> None:
    names = ("X", "Y", "Z") if axes.is_3d else ("X", "Y")
    if word in ("auto", "normal") or word.startswith("auto "):
        chosen = names if word in ("auto", "normal") else tuple(c.upper() for c in word[5:] if c in "xyz")
        for name in chosen:
            axes.set_value(f"{name}LimMode", char_row("auto"))
        if word == "normal":
            _set_aspect(axes, "normal")
    elif word == "manual":
        for name in names:
            axes.set_value(f"{name}Lim", axes.get_value(f"{name}Lim"))
    elif word == "tight":
        _tight(axes)
    elif word in ("equal", "square", "fill"):
        _set_aspect(axes, word)
    elif word == "image":
        _tight(axes)
        _set_aspect(axes, "image")
    elif word in ("xy", "ij"):
        axes.set_value("YDir", char_row("normal" if word == "xy" else "reverse"))
    elif word in ("on", "off"):
        axes.set_value("Visible", char_row(word))
    elif word in ("vis3d", "padded", "tickaligned"):
        axes.changed()  # accepted: matplotlib's limits already leave room
    else:
        raise error("MATLAB:axis:UnknownOption", f"Unknown command option '{word}'.")


def _axis_limits(axes: Axes, value: Any) -> None:
    data = to_double_array(value).real.ravel() if _numeric(value) else np.zeros(0)
    if data.size not in (4, 6, 8):
        raise error("MATLAB:axis:WrongNumberOfElements",
                    "Vector must have 4, 6, or 8 elements.")
    keep_limits_with_aspect(axes)
    for k, name in enumerate(("X", "Y", "Z", "C")[:data.size // 2]):
        low, high = data[2 * k], data[2 * k + 1]
        if np.isnan(low) or np.isnan(high) or not low < high:
            raise error("MATLAB:axis:IncreasingLimits",
                        "Limits must be a 2-element vector of increasing numeric values.")
        proper = axes.property_name(f"{name}Lim")
        if proper is not None:
            axes.set_value(proper, np.array([[low, high]]))
    if data.size >= 6 and not axes.is_3d:
        axes.changed()


@builtin("axis", interp=True, nargout=True, max_out=1)
def axis(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """axis  set axis limits and aspect ratio.

    axis([xmin xmax ymin ymax]) sets the limits of the current axes ([... zmin zmax] in
    3-D, [... cmin cmax] the colour limits; -Inf and Inf: chosen automatically).
    axis style: 'tight' (limits fit the data), 'equal' (equal data units), 'image'
    (equal and tight), 'square', 'normal', 'fill'.  axis mode: 'auto', 'manual',
    'auto x', 'auto y', 'auto xy'...  axis xy puts the origin at the lower left, axis ij
    at the upper left; axis off hides the axes' lines and background, axis on shows
    them.  lim = axis returns the limits ([xmin xmax ymin ymax], with z in 3-D);
    axis(ax, ...) acts on the axes ax."""
    axes, rest = leading_axes(args)
    axes = axes or current_axes(interp)
    for value in rest:
        word = text_or_none(value)
        if word is not None:
            _axis_word(axes, " ".join(word.lower().split()))
        else:
            _axis_limits(axes, value)
    return _current_limits(axes) if nargout or not rest else None


# ---------------------------------------------------------------- ticks


def _axis_object(h: Axes, name: str) -> Any:
    return getattr(h.artist, f"{name}axis") if name != "z" or h.is_3d else None


def _visible_ticks(h: Axes, name: str) -> np.ndarray:
    axis_object = _axis_object(h, name)
    if axis_object is None:
        stored = h.stored.get("ZTick")
        return stored.ravel() if stored is not None else np.array([-1.0, 0.0, 1.0])
    if pv.text_value(h.get_value(f"{name.upper()}TickMode"), "TickMode") == "manual":
        return np.asarray(h.stored.get(f"{name.upper()}Tick"), dtype=float).ravel()
    ticks = np.asarray(axis_object.get_majorticklocs(), dtype=float)
    low, high = sorted(axis_object.get_view_interval())
    span = (high - low) * 1e-9
    return ticks[(ticks >= low - span) & (ticks <= high + span)]


def _tick_prop(name: str) -> Prop:
    upper = name.upper()

    def read(h: Axes) -> Any:
        ticks = _visible_ticks(h, name)
        return ticks.reshape(1, -1) if ticks.size else np.zeros((1, 0))

    def write(h: Axes, value: Any) -> None:
        data = np.sort(pv.real_vector(value, f"{upper}Tick", finite=True))
        if data.size > 1 and np.any(np.diff(data) == 0):
            raise pv.bad_value(f"{upper}Tick", "Value must be a vector of increasing values.")
        axis_object = _axis_object(h, name)
        h.stored[f"{upper}Tick"] = data.reshape(1, -1)
        h.stored[f"{upper}TickMode"] = char_row("manual")
        if axis_object is not None:
            limits = axis_object.get_view_interval()
            axis_object.set_ticks(data)
            axis_object.set_view_interval(*limits, ignore=True)  # ticks never move the limits
            _apply_tick_labels(h, name)

    return Prop(get=read, set=write)


def _tick_mode_prop(name: str, what: str) -> Prop:
    upper = name.upper()

    def write(h: Axes, value: Any) -> Any:
        mode = pv.choice(value, f"{upper}{what}Mode", ("auto", "manual"))
        axis_object = _axis_object(h, name)
        if mode == "auto" and axis_object is not None:
            if what == "Tick":
                limits = axis_object.get_view_interval()
                matlab_ticks(h.artist)
                if name == "z" or axis_object.get_scale() != "linear":
                    from matplotlib.ticker import AutoLocator, LogLocator  # matplotlib on first use

                    log = axis_object.get_scale() == "log"
                    axis_object.set_major_locator(LogLocator() if log else AutoLocator())
                axis_object.set_view_interval(*limits, ignore=True)
            h.stored[f"{upper}{what}Mode"] = char_row("auto")
            if what == "TickLabel" or h.stored.get(f"{upper}TickLabelMode") is None:
                h.stored.pop(f"{upper}TickLabel", None)
            _apply_tick_labels(h, name, automatic=what == "TickLabel")
        elif mode == "manual" and what == "Tick":
            h.stored[f"{upper}Tick"] = np.asarray(_visible_ticks(h, name)).reshape(1, -1)
        return char_row(mode)

    return Prop(set=write, default=char_row("auto"))


def _tick_texts(value: Any, name: str) -> list[str]:
    """Tick labels: a cell or string array, a char matrix (a label a row), or numbers."""
    if isinstance(value, Cell | StringArray):
        return text_list(value, name)
    if _numeric(value):
        return [f"{x:g}" for x in to_double_array(value).real.ravel(order="F")]
    text = pv.text_value(value, name)
    return text.split("\n") if text else []


def _apply_tick_labels(h: Axes, name: str, automatic: bool = False) -> None:
    """Draw the manual tick labels (one a tick; missing ones blank) or matplotlib's own."""
    axis_object = _axis_object(h, name)
    if axis_object is None:
        return
    upper = name.upper()
    labels = h.stored.get(f"{upper}TickLabel")
    if labels is None or automatic:
        from matplotlib.ticker import LogFormatterSciNotation, ScalarFormatter  # matplotlib on first use

        log = axis_object.get_scale() == "log"
        axis_object.set_major_formatter(LogFormatterSciNotation() if log else ScalarFormatter())
        return
    texts = _tick_texts(labels, f"{upper}TickLabel")
    ticks = _visible_ticks(h, name)
    limits = axis_object.get_view_interval()
    axis_object.set_ticks(ticks)
    interpreter = pv.text_value(h.get_value("TickLabelInterpreter"), "TickLabelInterpreter")
    shown = [mpl_text(texts[k], interpreter) if k < len(texts) else "" for k in range(len(ticks))]
    axis_object.set_ticklabels(shown)
    axis_object.set_view_interval(*limits, ignore=True)


def _tick_label_prop(name: str) -> Prop:
    upper = name.upper()

    def read(h: Axes) -> Any:
        labels = h.stored.get(f"{upper}TickLabel")
        if labels is not None:
            texts = _tick_texts(labels, f"{upper}TickLabel")
        else:
            texts = [_tick_text(t) for t in _visible_ticks(h, name)]
        return _column_cell(texts)

    def write(h: Axes, value: Any) -> None:
        texts = _tick_texts(value, f"{upper}TickLabel")
        h.stored[f"{upper}TickLabel"] = _column_cell(texts)
        h.stored[f"{upper}TickLabelMode"] = char_row("manual")
        if pv.text_value(h.get_value(f"{upper}TickMode"), "TickMode") == "auto":
            h.stored[f"{upper}Tick"] = _visible_ticks(h, name).reshape(1, -1)
            h.stored[f"{upper}TickMode"] = char_row("manual")
        _apply_tick_labels(h, name)

    return Prop(get=read, set=write)


def _column_cell(texts: list[str]) -> Cell:
    """Texts as a column cell array of char rows (how MATLAB gives tick labels)."""
    cell = Cell.empty((len(texts), 1))
    for k, text in enumerate(texts):
        cell.data[k, 0] = char_row(text)
    return cell


def _tick_text(value: float) -> str:
    text = f"{value:.4g}"
    return "0" if text == "-0" else text


def _rotation_prop(name: str) -> Prop:
    upper = name.upper()

    def write(h: Axes, value: Any) -> Any:
        angle = pv.real_number(value, f"{upper}TickLabelRotation")
        if not np.isfinite(angle):
            raise pv.bad_value(f"{upper}TickLabelRotation", "Value must be a finite scalar.")
        if name != "z" or h.is_3d:
            h.artist.tick_params(axis=name, labelrotation=angle)
        return angle

    return Prop(set=write, default=0.0)


def _ticks(interp: Any, args: tuple, name: str, nargout: int) -> Any:
    axes, value = _axes_and_argument(interp, args)
    upper = name.upper()
    if value is None:
        return axes.get_value(f"{upper}Tick")
    word = (text_or_none(value) or "").lower()
    if word == "mode":
        return axes.get_value(f"{upper}TickMode")
    if word in ("auto", "manual"):
        axes.set_value(f"{upper}TickMode", char_row(word))
    elif text_or_none(value) is not None or not _numeric(value):
        raise error(f"MATLAB:{name}ticks:InvalidInput",
                    "Specify ticks as 'auto', 'manual', 'mode', or a vector of increasing values.")
    else:
        data = to_double_array(value).real.ravel()
        if np.any(np.diff(data) <= 0) or not np.all(np.isfinite(data)):
            raise error(f"MATLAB:{name}ticks:IncreasingTicks",
                        "Tick values must be a vector of increasing numeric values.")
        axes.set_value(f"{upper}Tick", data.reshape(1, -1))
    if nargout:
        raise _too_many_outputs()
    return None


def _tick_labels(interp: Any, args: tuple, name: str, nargout: int) -> Any:
    axes, value = _axes_and_argument(interp, args)
    upper = name.upper()
    if value is None:
        return axes.get_value(f"{upper}TickLabel")
    word = text_or_none(value)
    if word is not None and word.lower() in ("auto", "manual", "mode") and not isinstance(value, StringArray):
        if word.lower() == "mode":
            return axes.get_value(f"{upper}TickLabelMode")
        axes.set_value(f"{upper}TickLabelMode", char_row(word.lower()))
    else:
        axes.set_value(f"{upper}TickLabel", value)
    fit_to_figure(axes)
    if nargout:
        raise _too_many_outputs()
    return None


def _tick_angle(interp: Any, args: tuple, name: str, nargout: int) -> Any:
    axes, value = _axes_and_argument(interp, args)
    prop = f"{name.upper()}TickLabelRotation"
    if value is None:
        return axes.get_value(prop)
    if not _numeric(value) or to_double_array(value).size != 1:
        raise error(f"MATLAB:{name}tickangle:InvalidInput", "Angle must be a numeric scalar.")
    axes.set_value(prop, value)
    fit_to_figure(axes)
    if nargout:
        raise _too_many_outputs()
    return None


def _register_tick_functions(name: str) -> None:
    def ticks(interp: Any, *args: Any, nargout: int = 0) -> Any:
        return _ticks(interp, args, name, nargout)

    def labels(interp: Any, *args: Any, nargout: int = 0) -> Any:
        return _tick_labels(interp, args, name, nargout)

    def angle(interp: Any, *args: Any, nargout: int = 0) -> Any:
        return _tick_angle(interp, args, name, nargout)

    upper = name.upper()
    ticks.__name__, labels.__name__, angle.__name__ = f"{name}ticks", f"{name}ticklabels", f"{name}tickangle"
    builtin(f"{name}ticks", interp=True, nargout=True, max_out=1, help=(
        f"{name}ticks  set or query the {name}-axis tick values.\n\n"
        f"{name}ticks(ticks) places the ticks of the current axes at the increasing values\n"
        f"ticks; {name}ticks('auto') lets the axes choose them again, {name}ticks('manual')\n"
        f"freezes them; t = {name}ticks returns them and m = {name}ticks('mode') the mode\n"
        f"({upper}TickMode).  {name}ticks(ax, ...) acts on the axes ax."))(ticks)
    builtin(f"{name}ticklabels", interp=True, nargout=True, max_out=1, help=(
        f"{name}ticklabels  set or query the {name}-axis tick labels.\n\n"
        f"{name}ticklabels(labels) labels the ticks of the current axes (a cell or string\n"
        f"array, one label a tick; ticks without one are blank); {name}ticklabels('auto')\n"
        f"labels them with their values again; L = {name}ticklabels returns the labels as\n"
        f"a column cell array.  {name}ticklabels(ax, ...) acts on the axes ax."))(labels)
    builtin(f"{name}tickangle", interp=True, nargout=True, max_out=1, help=(
        f"{name}tickangle  rotate the {name}-axis tick labels.\n\n"
        f"{name}tickangle(angle) rotates the tick labels of the current axes by angle degrees\n"
        f"(counterclockwise); a = {name}tickangle returns the angle.  {name}tickangle(ax, ...)\n"
        f"acts on the axes ax."))(angle)


for _name in AXIS_NAMES:
    _register_tick_functions(_name)


# ---------------------------------------------------------------- colororder

# Named palettes (orderedcolors): the ones whose values are known.
PALETTES: dict[str, np.ndarray] = {
    "gem": pv.COLOR_ORDER,
    "reef": np.array([[0.8660, 0.3290, 0.0], [0.3290, 0.7130, 1.0], [0.0660, 0.4430, 0.7450],
                      [0.9960, 0.5640, 0.2620], [0.4540, 0.9210, 0.8540], [0.0, 0.6390, 0.6390]]),
}


def _palette(value: Any) -> np.ndarray:
    """New colours: an m×3 RGB matrix, a palette name, or colour names / hex codes."""
    invalid = error("MATLAB:colororder:InvalidColors",
                    "Specify the colors as a three-column matrix of RGB triplets, a palette name, "
                    "or an array of color names or hexadecimal color codes.")
    if _numeric(value):
        matrix = to_double_array(value).real
        if matrix.ndim != 2 or matrix.shape[1] != 3 or matrix.shape[0] == 0:
            raise invalid
        if class_of(value) == "uint8":
            matrix = matrix / 255.0
        if not np.all(np.isfinite(matrix)) or np.any((matrix < 0) | (matrix > 1)):
            raise invalid
        return matrix.astype(float)
    word = text_or_none(value)
    if word is not None and word.lower() in PALETTES:
        return PALETTES[word.lower()].copy()
    try:
        names = text_list(value, "colororder")
    except Exception:
        raise invalid from None
    rows = []
    for name in names:
        try:
            color = pv.parse_color(char_row(name), "ColorOrder", ())
        except Exception:
            raise invalid from None
        rows.append(list(color))
    if not rows:
        raise invalid
    return np.array(rows, dtype=float)


def _recolor(axes: Axes, old: np.ndarray, new: np.ndarray) -> None:
    """Plotted objects that took their colour from the old order take the new one."""
    index = 0
    for child in axes.children:
        if not child.valid or "Color" not in type(child).properties:
            continue
        color = child.get_value("Color")
        if _numeric(color) and np.size(color) == 3:
            if np.allclose(np.ravel(color), old[index % len(old)]):
                child.set_value("Color", new[index % len(new)].reshape(1, 3))
        index += 1


@builtin("colororder", interp=True, nargout=True, max_out=1)
def colororder(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """colororder  set or query the colour order (palette) of plots.

    colororder(newcolors) sets the palette of the current figure and of its axes:
    newcolors is an m-by-3 matrix of RGB triplets, an array of colour names or
    hexadecimal codes, or a palette name ('gem', the default, or 'reef').  The plots
    drawn next cycle through these colours, and plotted objects that had colours of the
    old order take the new ones.  colororder(target, newcolors) sets the palette of a
    figure or axes; C = colororder and C = colororder(target) return it."""
    rest = list(args)
    target: GraphicsHandle | None = None
    if rest and isinstance(rest[0], GraphicsHandle | GraphicsArray):
        target = rest.pop(0)
        if not isinstance(target, Figure | Axes) or not target.valid:
            raise error("MATLAB:colororder:InvalidTarget", "Target must be a figure or axes.")
    target = target or current_figure(interp)
    if len(rest) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if not rest:
        if isinstance(target, Axes):
            return target.color_order()
        order = target.color_order
        return (order if order is not None else pv.COLOR_ORDER).copy()
    colors = _palette(rest[0])
    axes_list = [target] if isinstance(target, Axes) else \
        [c for c in target.children if isinstance(c, Axes) and c.valid]
    previous = [axes.color_order() for axes in axes_list]
    if isinstance(target, Figure):
        target.color_order = colors
    for axes, old in zip(axes_list, previous, strict=True):
        index = axes.color_index
        axes.set_value("ColorOrder", colors)
        axes.color_index = index  # the next plot goes on from where the order was
        _recolor(axes, old, colors)
    target.changed()
    return colors.copy() if nargout else None


# ---------------------------------------------------------------- more axes properties


def _z_scale(h: Axes, value: Any) -> Any:
    scale = pv.choice(value, "ZScale", ("linear", "log"))
    if h.is_3d:
        h.artist.set_zscale(scale)
    return char_row(scale)


def _z_dir(h: Axes, value: Any) -> Any:
    word = pv.choice(value, "ZDir", ("normal", "reverse"))
    if h.is_3d and (word == "reverse") != h.artist.zaxis_inverted():
        h.artist.invert_zaxis()
    return char_row(word)


def _data_aspect(h: Axes) -> Any:
    aspect = h.artist.get_aspect()
    if aspect == "auto" or h.is_3d:
        low_x, high_x = h.artist.get_xlim()
        low_y, high_y = h.artist.get_ylim()
        width, height = h.artist.get_position().size
        x_unit = abs(high_x - low_x) / max(width, 1e-12)
        y_unit = abs(high_y - low_y) / max(height, 1e-12)
        scale = min(x_unit, y_unit) or 1.0
        return np.array([[x_unit / scale, y_unit / scale, 1.0]])
    return np.array([[1.0, float(aspect) if aspect != "equal" else 1.0, 1.0]])


def _axis_location(name: str, allowed: tuple[str, ...]) -> Prop:
    def write(h: Axes, value: Any) -> Any:
        where = pv.choice(value, name, allowed)
        axis_object = h.artist.xaxis if name.startswith("X") else h.artist.yaxis
        if where in ("top", "bottom", "left", "right"):
            axis_object.set_ticks_position(where)
            axis_object.set_label_position(where)
        return char_row(where)

    return Prop(set=write, default=char_row(allowed[0]))


def _set_tick_dir(h: Axes, value: Any) -> Any:
    word = pv.choice(value, "TickDir", ("in", "out", "both", "none"))
    h.artist.tick_params(direction="inout" if word == "both" else ("in" if word == "none" else word),
                         length=0 if word == "none" else 3.5)
    return char_row(word)


def _set_tick_interpreter(h: Axes, value: Any) -> Any:
    h.stored["TickLabelInterpreter"] = char_row(pv.choice(value, "TickLabelInterpreter",
                                                          ("tex", "latex", "none")))
    for name in AXIS_NAMES:
        if f"{name.upper()}TickLabel" in h.stored:
            _apply_tick_labels(h, name)
    return h.stored["TickLabelInterpreter"]


def _axis_color(name: str) -> Prop:
    def write(h: Axes, value: Any) -> Any:
        color = pv.parse_color(value, name)
        which = name[0].lower()
        if which != "z" or h.is_3d:
            h.artist.tick_params(axis=which, colors=pv.mpl_color(color))
            if not h.is_3d:
                for side in (("bottom", "top") if which == "x" else ("left", "right")):
                    h.artist.spines[side].set_color(pv.mpl_color(color))
        return pv.color_value(color)

    return Prop(set=write, default=lambda h: np.array([[0.15, 0.15, 0.15]]))


def _set_font_name(h: Axes, value: Any) -> Any:
    name = char_row(pv.text_value(value, "FontName"))
    for label in h.labels.values():
        label.set_value("FontName", name)
    return name


def _set_axes_font_weight(h: Axes, value: Any) -> Any:
    word = pv.choice(value, "FontWeight", ("normal", "bold"))
    for tick in h.artist.get_xticklabels() + h.artist.get_yticklabels():
        tick.set_fontweight(word)
    return char_row(word)


add_properties(Axes, {
    "ZLim": Prop(get=lambda h: np.array([list(_z_limits(h))]), set=_set_z_limits),
    "ZLimMode": Prop(set=_set_z_mode, default=char_row("auto")),
    "ZScale": Prop(get=lambda h: char_row(h.artist.get_zscale() if h.is_3d else
                                          pv.text_value(h.stored.get("ZScale", char_row("linear")), "")),
                   set=_z_scale),
    "ZDir": Prop(set=_z_dir, default=char_row("normal")),
    **{f"{n.upper()}Tick": _tick_prop(n) for n in AXIS_NAMES},
    **{f"{n.upper()}TickMode": _tick_mode_prop(n, "Tick") for n in AXIS_NAMES},
    **{f"{n.upper()}TickLabel": _tick_label_prop(n) for n in AXIS_NAMES},
    **{f"{n.upper()}TickLabelMode": _tick_mode_prop(n, "TickLabel") for n in AXIS_NAMES},
    **{f"{n.upper()}TickLabelRotation": _rotation_prop(n) for n in AXIS_NAMES},
    "TickLabelInterpreter": Prop(set=_set_tick_interpreter, default=char_row("tex")),
    "TickDir": Prop(set=_set_tick_dir, default=char_row("in")),
    "XAxisLocation": _axis_location("XAxisLocation", ("bottom", "top", "origin")),
    "YAxisLocation": _axis_location("YAxisLocation", ("left", "right", "origin")),
    "XColor": _axis_color("XColor"), "YColor": _axis_color("YColor"), "ZColor": _axis_color("ZColor"),
    "FontName": Prop(set=_set_font_name, default=char_row("Helvetica")),
    "FontWeight": Prop(set=_set_axes_font_weight, default=char_row("normal")),
    "DataAspectRatio": Prop(get=_data_aspect),
    "DataAspectRatioMode": Prop(default=char_row("auto"), set=lambda h, v: char_row(pv.choice(
        v, "DataAspectRatioMode", ("auto", "manual")))),
    "TitleFontSizeMultiplier": Prop(default=1.1, set=lambda h, v: pv.positive_number(
        v, "TitleFontSizeMultiplier")),
    "LabelFontSizeMultiplier": Prop(default=1.1, set=lambda h, v: pv.positive_number(
        v, "LabelFontSizeMultiplier")),
})
