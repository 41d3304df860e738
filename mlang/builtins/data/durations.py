"""Durations: the duration constructor, the unit functions (seconds, minutes, hours,
days, years, milliseconds) that make durations from numbers and numbers from
durations, and isduration (the array is ``mlang.values.time_duration.DurationArray``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import split_options, text_or_none
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_rows, class_of, is_text, result
from mlang.values.string import StringArray
from mlang.values.time_base import as_matrix
from mlang.values.time_calendar import (
    DEFAULT_DURATION_FORMAT,
    DURATION_UNITS,
    check_duration_format,
)
from mlang.values.time_duration import DurationArray, is_number, numbers
from mlang.values.time_parse import parse_duration

DURATION_OPTIONS = ("Format", "InputFormat")


def broadcast_numbers(args: list, fn: str) -> list[np.ndarray]:
    """Numeric arguments of equal size, or scalars expanded to the others' size."""
    arrays = []
    for a in args:
        if not is_number(a):
            raise error(f"MATLAB:{fn}:InputMustBeNumeric" if fn == "duration" else
                        f"MATLAB:{fn}:InvalidInput",
                        f"Input data must be a numeric array{', or text' if fn == 'datetime' else ''}.")
        arrays.append(numbers(a))
    shapes = {a.shape for a in arrays if a.size != 1}
    if len(shapes) > 1:
        raise error(f"MATLAB:{fn}:InputSizeMismatch",
                    "Numeric input data must all be the same size, or any of them can be a scalar.")
    shape = shapes.pop() if shapes else (1, 1)
    return [np.broadcast_to(a.reshape(()) if a.size == 1 else a, shape).astype(np.float64)
            for a in arrays]


def _format_option(given: dict[str, Any], default: str) -> str:
    if "Format" not in given:
        return default
    fmt = text_or_none(given["Format"])
    if fmt is None:
        raise error("MATLAB:duration:InvalidFormat", "Format must be a character vector or string scalar.")
    check_duration_format(fmt)
    return fmt


def text_argument(v: Any) -> tuple[list[str | None], tuple[int, ...]] | None:
    """The texts of a text argument (char rows, a cell array of them, a string array) and
    the shape of the result; None for anything else."""
    if type(v) is StringArray:
        return list(v.data.reshape(-1, order="F")), v.data.shape
    if is_text(v):
        rows = char_rows(v) if v.size else [""]
        return list(rows), (len(rows), 1)
    if type(v) is Cell and all(is_text(x) for x in v.data.reshape(-1)):
        return [char_rows(x)[0] if x.size else "" for x in v.data.reshape(-1, order="F")], v.data.shape
    return None


@builtin()
def duration(*args: Any) -> DurationArray:
    """D = duration(H, MI, S) is a duration array of hours, minutes and seconds
    (numeric arrays of one size, or scalars).

    D = duration(H, MI, S, MS) adds milliseconds. D = duration(X) takes the rows
    of a matrix with three ([h mi s]) or four ([h mi s ms]) columns.
    D = duration(T) reads text in the form 'hh:mm:ss' or 'dd:hh:mm:ss'.
    D = duration(..., 'Format', fmt) sets the display format: 'hh:mm:ss' (the
    default), 'dd:hh:mm:ss', 'mm:ss', 'hh:mm' (each optionally with fractional
    seconds, 'hh:mm:ss.SSS'), or one unit 'y', 'd', 'h', 'm' or 's'."""
    positional, given = split_options(args, DURATION_OPTIONS)
    fmt = _format_option(given, DEFAULT_DURATION_FORMAT)
    if not positional:
        return DurationArray(np.zeros((1, 1)), fmt)
    if len(positional) == 1:
        texts = text_argument(positional[0])
        if texts is not None:
            infmt = text_or_none(given["InputFormat"]) if "InputFormat" in given else None
            values, shape = texts
            ms = np.array([parse_duration(t or "", infmt) for t in values], dtype=np.float64)
            return DurationArray(ms.reshape(shape, order="F"), fmt)
        x = positional[0]
        if type(x) is DurationArray:
            return DurationArray(x.data, fmt if "Format" in given else x.fmt)
        if not is_number(x):
            raise error("MATLAB:duration:InvalidInput",
                        f"Unable to create a duration from a value of class '{class_of(x)}'.")
        a = numbers(x)
        if a.ndim != 2 or a.shape[1] not in (3, 4):
            raise error("MATLAB:duration:InvalidNumericMatrix",
                        "Numeric input data must be a matrix with three or four columns, "
                        "or three or four separate numeric arrays.")
        parts = [a[:, [k]] for k in range(a.shape[1])]
    elif len(positional) in (3, 4):
        parts = broadcast_numbers(positional, "duration")
    else:
        raise error("MATLAB:duration:InvalidNumericMatrix",
                    "Numeric input data must be a matrix with three or four columns, "
                    "or three or four separate numeric arrays.")
    ms = parts[0] * 3_600_000.0 + parts[1] * 60_000.0 + parts[2] * 1000.0
    if len(parts) == 4:
        ms = ms + parts[3]
    return DurationArray(as_matrix(np.array(ms, dtype=np.float64)), fmt)


def _unit_function(name: str, unit: str, scale: float) -> Any:
    def convert(x: Any) -> Any:
        if type(x) is DurationArray:
            return result(x.data / scale)
        if not is_number(x):
            raise error("MATLAB:UndefinedFunction",
                        f"Undefined function '{name}' for input arguments of type '{class_of(x)}'.")
        return DurationArray(as_matrix(numbers(x) * scale), unit)

    convert.__name__ = name
    return convert


_UNIT_HELP = "{name}  Duration in {word}, or the number of {word} of a duration.\n\n" \
             "D = {name}(X) is a duration array of X {word} (numbers), shown in {word}.\n" \
             "X = {name}(D) is the number of {word} in each element of the duration D."

for _name, _unit, _scale, _word in (
        ("years", "y", DURATION_UNITS["y"], "fixed-length years (365.2425 days)"),
        ("days", "d", DURATION_UNITS["d"], "fixed-length days (24 hours)"),
        ("hours", "h", DURATION_UNITS["h"], "hours"),
        ("minutes", "m", DURATION_UNITS["m"], "minutes"),
        ("seconds", "s", DURATION_UNITS["s"], "seconds"),
        ("milliseconds", "s", 1.0, "milliseconds")):
    builtin(name=_name, help=_UNIT_HELP.format(name=_name, word=_word))(
        _unit_function(_name, _unit, _scale))


@builtin()
def isduration(x: Any) -> bool:
    """tf = isduration(X) is true when X is a duration array."""
    return type(x) is DurationArray
