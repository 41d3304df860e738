"""Property values of graphics objects: reading MATLAB values, giving them back.

The property tables of the handle classes (``handles.py``) and the plot functions
share these: colours (letters, names, RGB triplets, hex codes), on/off switches,
numbers, vectors and texts, each with MATLAB's error for a bad value.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none
from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import char_row, char_rows, class_of, is_text, numel, to_double_array
from mlang.values.string import StringArray

# MATLAB's colour letters and names.
COLOR_NAMES: dict[str, tuple[float, float, float]] = {
    "r": (1.0, 0.0, 0.0), "g": (0.0, 1.0, 0.0), "b": (0.0, 0.0, 1.0), "c": (0.0, 1.0, 1.0),
    "m": (1.0, 0.0, 1.0), "y": (1.0, 1.0, 0.0), "k": (0.0, 0.0, 0.0), "w": (1.0, 1.0, 1.0),
    "red": (1.0, 0.0, 0.0), "green": (0.0, 1.0, 0.0), "blue": (0.0, 0.0, 1.0),
    "cyan": (0.0, 1.0, 1.0), "magenta": (1.0, 0.0, 1.0), "yellow": (1.0, 1.0, 0.0),
    "black": (0.0, 0.0, 0.0), "white": (1.0, 1.0, 1.0),
}

# MATLAB's default colour order (the axes' ColorOrder).
COLOR_ORDER = np.array([
    [0.0, 0.4470, 0.7410], [0.8500, 0.3250, 0.0980], [0.9290, 0.6940, 0.1250],
    [0.4940, 0.1840, 0.5560], [0.4660, 0.6740, 0.1880], [0.3010, 0.7450, 0.9330],
    [0.6350, 0.0780, 0.1840]])

# MATLAB's identifier for a property value of the wrong kind.
INVALID_VALUE_ID = "MATLAB:hg:InvalidPropertyValue"

Color = tuple[float, float, float] | str  # an RGB triplet, or 'none' / 'auto' / 'flat'...


def bad_value(name: str, expected: str) -> Exception:
    return error(INVALID_VALUE_ID,
                 f"Error setting property '{name}'. {expected}")


def parse_color(value: Any, name: str = "Color", keywords: tuple[str, ...] = ("none",)) -> Color:
    """An RGB triplet (floats in [0, 1]) from a colour letter, name, hex code ('#FF8800',
    '#F80') or triplet; one of ``keywords`` ('none', 'auto', 'flat'...) as that word."""
    text = text_or_none(value)
    if text is not None:
        word = text.strip().lower()
        if word in COLOR_NAMES:
            return COLOR_NAMES[word]
        if word in keywords:
            return word
        if word.startswith("#") and len(word) in (4, 7):
            digits = word[1:] if len(word) == 7 else "".join(ch * 2 for ch in word[1:])
            try:
                return tuple(int(digits[k:k + 2], 16) / 255.0 for k in (0, 2, 4))  # type: ignore[return-value]
            except ValueError:
                pass
        raise bad_value(name, "Value must be a color name, a hexadecimal color code, or an "
                              "RGB triplet.")
    if class_of(value) in ("double", "single", "logical") or class_of(value).startswith(("int", "uint")):
        data = to_double_array(value).ravel()
        if class_of(value).startswith("uint8"):
            data = data / 255.0
        if data.size == 3 and np.all(np.isfinite(data)) and np.all((data >= 0) & (data <= 1)):
            return (float(data[0]), float(data[1]), float(data[2]))
    raise bad_value(name, "Value must be a color name, a hexadecimal color code, or an RGB "
                          "triplet with values in the range [0, 1].")


def color_value(color: Color) -> Any:
    """A colour as MATLAB gives it back: a 1×3 double, or the keyword as char."""
    if isinstance(color, str):
        return char_row(color)
    return np.array([list(color)], dtype=float)


def mpl_color(color: Color) -> Any:
    """A colour for matplotlib ('none' for none)."""
    return "none" if color == "none" else color


def on_off(value: Any, name: str) -> bool:
    """An on/off property value: 'on'/'off', true/false, 1/0."""
    text = text_or_none(value)
    if text is not None:
        if text.lower() in ("on", "off"):
            return text.lower() == "on"
    elif class_of(value) in ("double", "logical", "single") and numel(value) == 1:
        element = to_double_array(value).ravel()[0]
        number = float(element.real) if element.imag == 0 else -1.0
        if number in (0.0, 1.0):
            return number == 1.0
    raise bad_value(name, "Value must be 'on' or 'off'.")


def on_off_value(flag: bool) -> Any:
    return char_row("on" if flag else "off")


def choice(value: Any, name: str, allowed: tuple[str, ...]) -> str:
    """One of ``allowed`` (case ignored), given as a text scalar."""
    text = text_or_none(value)
    if text is not None:
        for word in allowed:
            if word.lower() == text.lower():
                return word
    raise bad_value(name, "Value must be one of: " + ", ".join(f"'{w}'" for w in allowed) + ".")


# The largest size (points, pixels) a property takes: larger ones cannot be drawn.
LARGEST_SIZE = 1e5


def positive_number(value: Any, name: str, allow_zero: bool = False) -> float:
    """A finite positive (or, with allow_zero, nonnegative) real scalar, at most
    LARGEST_SIZE."""
    if class_of(value) in ("double", "single", "logical") or class_of(value).startswith(("int", "uint")):
        if numel(value) == 1:
            number = float(to_double_array(value).ravel()[0].real)
            if np.isfinite(number) and (number > 0 or allow_zero and number == 0) \
                    and number <= LARGEST_SIZE:
                return number
    raise bad_value(name, "Value must be a " + ("nonnegative" if allow_zero else "positive")
                    + " finite scalar.")


def real_number(value: Any, name: str) -> float:
    if class_of(value) in ("double", "single", "logical") or class_of(value).startswith(("int", "uint")):
        if numel(value) == 1:
            return float(to_double_array(value).ravel()[0].real)
    raise bad_value(name, "Value must be a numeric scalar.")


def real_vector(value: Any, name: str, length: int | None = None, finite: bool = False) -> np.ndarray:
    """A real numeric vector (of ``length`` elements when given), as float64; with
    ``finite``, of finite elements of a size that can be drawn."""
    if class_of(value) in ("double", "single", "logical") or class_of(value).startswith(("int", "uint")):
        data = to_double_array(value).real.ravel(order="F").astype(float)
        if finite and not np.all(np.abs(data) <= 1e12):
            raise bad_value(name, "Value must contain finite values.")
        if length is None or data.size == length:
            return data
    what = f"a {length}-element vector" if length else "a numeric vector"
    raise bad_value(name, f"Value must be {what}.")


def row_value(values: Any) -> Any:
    """A 1×N double row from a sequence of numbers."""
    data = np.asarray(values, dtype=float).ravel()
    return float(data[0]) if data.size == 1 else data.reshape(1, -1)


def text_value(value: Any, name: str) -> str:
    """A text property value: char (rows joined by newlines), string, cell of texts (one
    line each), or a number (shown as text)."""
    text = text_or_none(value)
    if text is not None:
        return text
    if type(value) is np.ndarray and value.dtype.kind == "V":
        return "\n".join(row.rstrip() for row in char_rows(value))
    if type(value) is StringArray:
        return "\n".join("" if s is None else s for s in value.data.ravel(order="F"))
    if type(value) is Cell:
        lines = []
        for item in value.data.ravel(order="F"):
            lines.append(text_value(item, name))
        return "\n".join(lines)
    if class_of(value) in ("double", "single", "logical") or class_of(value).startswith(("int", "uint")):
        data = to_double_array(value).ravel()
        return "\n".join(f"{x:g}" for x in data.real)
    raise bad_value(name, "Value must be a character vector, string, or cell array of "
                          "character vectors.")


def is_text_value(value: Any) -> bool:
    return is_text(value)
