"""The arguments of plot-like calls, read the way MATLAB reads them.

``leading_axes(args)`` takes a leading axes handle off; ``parse_line_spec('r--o')``
reads a line specification; ``xy_groups(args, dims)`` reads the data groups of
``plot(X1, Y1, spec1, X2, Y2, ...)`` and the name=value options after them;
``apply_options(handle, options)`` sets each option through the handle's property
table (unknown names give MATLAB's error).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none
from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.figure_axes import Axes
from mlang.builtins.graphics.handles import GraphicsHandle
from mlang.errors import error
from mlang.values.core import char_row, class_of, is_text, to_double_array

LINE_STYLES = ("--", "-.", "-", ":")
# MATLAB's marker symbols (longest first) -> matplotlib's.
MARKERS = {"square": "s", "diamond": "D", "pentagram": "p", "hexagram": "h",
           "o": "o", "+": "+", "*": "*", ".": ".", "x": "x", "_": "_", "|": "|", "s": "s",
           "d": "D", "^": "^", "v": "v", ">": ">", "<": "<", "p": "p", "h": "h"}
COLOR_LETTERS = "rgbcmykw"


@dataclass(frozen=True)
class LineSpec:
    """A line specification: each part None when the spec does not give it."""

    line_style: str | None = None  # '-', '--', ':', '-.', or 'none' (markers only)
    marker: str | None = None  # MATLAB's symbol ('o', 'square'...)
    color: tuple[float, float, float] | None = None


def parse_line_spec(text: str) -> LineSpec | None:
    """The parts of a line specification ('r--o', 'k.', ':', 'square'); None when the text
    is not one (it may then be an option name)."""
    rest = text
    style = marker = color = None
    while rest:
        found = False
        for candidate in LINE_STYLES:
            if rest.startswith(candidate):
                if style is not None:
                    return None
                style, rest, found = candidate, rest[len(candidate):], True
                break
        if found:
            continue
        for candidate in MARKERS:
            if rest.startswith(candidate):
                if marker is not None:
                    return None
                marker, rest, found = candidate, rest[len(candidate):], True
                break
        if found:
            continue
        if rest[0] in COLOR_LETTERS:
            if color is not None:
                return None
            color, rest = pv.COLOR_NAMES[rest[0]], rest[1:]
            continue
        return None
    if not text:
        return None
    if marker is not None and style is None:
        style = "none"
    return LineSpec(style, marker, color)


def leading_axes(args: list | tuple) -> tuple[Axes | None, list]:
    """A leading axes argument (``plot(ax, ...)``) and the other arguments."""
    args = list(args)
    if args and isinstance(args[0], GraphicsHandle):
        target = args[0]
        if not isinstance(target, Axes):
            raise error("MATLAB:hg:InvalidParent" if target.valid else "MATLAB:class:InvalidHandle",
                        "Axes handle expected." if target.valid else "Invalid or deleted object.")
        if not target.valid:
            raise error("MATLAB:class:InvalidHandle", "Invalid or deleted object.")
        return target, args[1:]
    return None, args


def pop_target(rest: list, kinds: type | tuple[type, ...], identifier: str, message: str) -> Any:
    """Take a leading graphics-handle argument off rest (None when there is none).

    A deleted handle is MATLAB's invalid-handle error; a live one of another class than
    kinds gives the function's own error (identifier, message)."""
    if not rest or not isinstance(rest[0], GraphicsHandle):
        return None
    target = rest.pop(0)
    if not target.valid:
        raise error("MATLAB:class:InvalidHandle", "Invalid or deleted object.")
    if not isinstance(target, kinds):
        raise error(identifier, message)
    return target


@dataclass
class Series:
    """One line's data (float vectors; z None in 2-D) and the spec given with its group."""

    x: np.ndarray
    y: np.ndarray
    z: np.ndarray | None = None
    spec: LineSpec = field(default_factory=LineSpec)


def numeric_data(value: Any, function: str) -> np.ndarray:
    """A data argument as a 2-D float array (complex kept)."""
    cls = class_of(value)
    if cls not in ("double", "single", "logical") and not cls.startswith(("int", "uint")):
        raise error(f"MATLAB:{function}:InvalidData", "Invalid data argument.")
    data = to_double_array(value)
    if data.ndim > 2:
        raise error(f"MATLAB:{function}:InvalidData", "Data must be a 2-D array.")
    return data


def _is_spec_position(value: Any) -> LineSpec | None:
    text = text_or_none(value)
    return None if text is None else parse_line_spec(text)


def xy_groups(args: list, function: str = "plot", dims: int = 2) -> tuple[list[Series], list]:
    """The data groups of ``plot``/``plot3``-like calls: ``Y``, ``X, Y`` (``X, Y, Z`` with
    dims 3), each maybe followed by a line spec, repeated; then name=value options (the
    rest of the arguments, returned as they are)."""
    series: list[Series] = []
    k = 0
    n = len(args)
    while k < n:
        if is_text(args[k]):
            break
        group = []
        while k < n and not is_text(args[k]) and len(group) < dims:
            group.append(args[k])
            k += 1
        spec = LineSpec()
        if k < n and is_text(args[k]):
            parsed = _is_spec_position(args[k])
            if parsed is not None:
                spec = parsed
                k += 1
        series += _expand(group, spec, function, dims)
        if k < n and is_text(args[k]):
            break
    options = args[k:]
    if len(options) == 1:
        raise error(f"MATLAB:{function}:InvalidLineSpec", "Error in color/linetype argument.")
    option_pairs(options, function)  # checked: names followed by values
    return series, options


def _expand(group: list, spec: LineSpec, function: str, dims: int) -> list[Series]:
    """The lines of one group: a matrix gives one line a column (MATLAB's rules)."""
    data = [numeric_data(v, function) for v in group]
    if dims == 3:
        if len(data) != 3:
            raise error("MATLAB:plot3:NotEnoughInputs" if len(data) < 3 else "MATLAB:TooManyInputs",
                        "Not enough input arguments." if len(data) < 3 else "Too many input arguments.")
        xs, ys, zs = _columns_of(data, function)
        return [Series(x, y, z, spec) for x, y, z in zip(xs, ys, zs, strict=True)]
    if len(data) == 1:
        y = data[0]
        if np.iscomplexobj(y):
            xs, ys = _columns_of([y.real, y.imag], function)
            return [Series(x, yy, None, spec) for x, yy in zip(xs, ys, strict=True)]
        y = y.real
        if 1 in y.shape or y.size == 0:
            column = y.ravel(order="F")
            return [Series(np.arange(1.0, column.size + 1), column, None, spec)]
        rows = np.arange(1.0, y.shape[0] + 1)
        return [Series(rows, y[:, c].copy(), None, spec) for c in range(y.shape[1])]
    xs, ys = _columns_of([data[0].real, data[1].real], function)
    return [Series(x, y, None, spec) for x, y in zip(xs, ys, strict=True)]


def _columns_of(data: list[np.ndarray], function: str) -> list[list[np.ndarray]]:
    """Pair up the columns of X, Y (, Z): vectors go with the matching dimension of a
    matrix (its columns when the length matches the number of rows, else its rows)."""
    count = 1
    for a in data:
        if 1 not in a.shape and a.size:
            count = max(count, a.shape[1])
    lengths = {a.size for a in data if 1 in a.shape or a.size == 0}
    matrices = [a for a in data if 1 not in a.shape and a.size]
    out: list[list[np.ndarray]] = []
    if not matrices:
        vectors = [a.real.ravel(order="F").astype(float) for a in data]
        if len({v.size for v in vectors}) > 1:
            raise error("MATLAB:samelen", "Vectors must be the same length.")
        return [[v] for v in vectors]
    shape = matrices[0].shape
    if any(m.shape != shape for m in matrices):
        raise error("MATLAB:samelen", "Vectors must be the same length.")
    rows, cols = shape
    transposed = False
    for length in lengths:
        if length == rows:
            continue
        if length == cols:
            transposed = True
        else:
            raise error("MATLAB:samelen", "Vectors must be the same length.")
    for a in data:
        if 1 in a.shape or a.size == 0:
            v = a.real.ravel(order="F").astype(float)
            out.append([v] * (rows if transposed else cols))
        else:
            m = a.real.T if transposed else a.real
            out.append([m[:, c].astype(float).copy() for c in range(m.shape[1])])
    return out


def option_pairs(options: list | tuple, function: str) -> list[tuple[str, Any]]:
    """name=value option arguments as (name, value) pairs, names checked to be text."""
    if len(options) % 2:
        raise error("MATLAB:InputParser:ParamMissingValue", "Invalid parameter/value pair arguments.")
    pairs = []
    for k in range(0, len(options), 2):
        name = text_or_none(options[k])
        if name is None:
            raise error("MATLAB:InputParser:ParamMissingValue", "Invalid parameter/value pair arguments.")
        pairs.append((name, options[k + 1]))
    return pairs


def apply_options(handle: GraphicsHandle, options: list | tuple | list[tuple[str, Any]],
                  function: str = "plot") -> None:
    """Set name=value options on a handle through its property table, in order."""
    pairs = options if options and isinstance(options[0], tuple) else option_pairs(options, function)
    for name, value in pairs:
        handle.set_value(handle.checked_name(name, reading=False), value)


def apply_spec(handle: GraphicsHandle, spec: LineSpec) -> None:
    """Apply the parts a line spec gives (colour, line style, marker)."""
    if spec.color is not None:
        handle.set_value("Color", np.array([list(spec.color)]))
    if spec.line_style is not None:
        handle.set_value("LineStyle", char_row(spec.line_style))
    if spec.marker is not None:
        handle.set_value("Marker", char_row(spec.marker))
