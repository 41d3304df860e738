"""Datetimes: the datetime constructor, isdatetime, isnat, and the calendar fields
year, quarter, month, day, hour, minute and second (the array is
``mlang.values.time_datetime.DatetimeArray``)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from mlang.builtins.coerce import size_arguments, split_options, text_option, text_or_none
from mlang.builtins.data.durations import broadcast_numbers, text_argument
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of, result
from mlang.values.time_base import as_matrix
from mlang.values.time_calendar import (
    DATENUM_OF_EPOCH,
    DEFAULT_DATE_FORMAT,
    DEFAULT_FORMAT,
    EXCEL_OF_EPOCH,
    MS_PER_DAY,
    check_datetime_format,
    days_from_civil,
    ms_from_parts,
)
from mlang.values.time_datetime import (
    DatetimeArray,
    format_value,
    is_date_only,
    text_to_ms,
    utc_from_wall,
    zone_name,
)
from mlang.values.time_duration import is_number, numbers

DATETIME_OPTIONS = ("Format", "InputFormat", "ConvertFrom", "TimeZone", "Locale", "PivotYear",
                    "Epoch", "TicksPerSecond")
RELATIVE_DAYS = {"now": None, "today": 0, "tomorrow": 1, "yesterday": -1}
CONVERSIONS = ("datenum", "posixtime", "excel", "excel1904", "yyyymmdd", "juliandate",
               "modifiedjuliandate", "epochtime")


def local_now_ms() -> float:
    """The local clock's reading now, as milliseconds since 1970-01-01 (no zone)."""
    now = time.time()
    return (now + time.localtime(now).tm_gmtoff) * 1000.0


def utc_now_ms() -> float:
    return time.time() * 1000.0


def _make(wall: np.ndarray, fmt: str, zone: str) -> DatetimeArray:
    """A datetime array from clock readings in ``zone``."""
    data = as_matrix(wall)
    if zone and zone != "UTC":
        data = utc_from_wall(data, zone)
    return DatetimeArray(data, fmt, zone)


def _text_option(given: dict[str, Any], name: str) -> str | None:
    if name not in given:
        return None
    text = text_or_none(given[name])
    if text is None:
        raise error(f"MATLAB:datetime:Invalid{name}",
                    f"{name} must be a character vector or string scalar.")
    return text


@builtin()
def datetime(*args: Any) -> DatetimeArray:
    """t = datetime is the current date and time; datetime('now'), datetime('today'),
    datetime('tomorrow') and datetime('yesterday') name days relative to today.

    t = datetime(Y, M, D) and t = datetime(Y, M, D, H, MI, S) (or with a seventh
    argument, milliseconds) build datetimes from numeric arrays of one size or
    scalars; datetime(DateVectors) takes a matrix with 3 or 6 columns.
    t = datetime(DateStrings) reads text; 'InputFormat', infmt says how it is
    written (LDML letters: yyyy MM dd HH mm ss SSS, MMM for month names...).
    t = datetime(X, 'ConvertFrom', type) converts numbers: 'datenum', 'posixtime',
    'excel', 'excel1904', 'yyyymmdd', 'juliandate', 'modifiedjuliandate',
    'epochtime' (with 'Epoch' and 'TicksPerSecond').
    Options: 'Format' (the display format, 'default' or 'defaultdate' too) and
    'TimeZone' ('' for none, 'UTC', 'local' or a zone name such as 'Europe/Paris')."""
    positional, given = split_options(args, DATETIME_OPTIONS)
    zone = zone_name(_text_option(given, "TimeZone") or "") if "TimeZone" in given else ""
    fmt = format_value(given["Format"]) if "Format" in given else None
    infmt = _text_option(given, "InputFormat")
    if infmt is not None:
        check_datetime_format(infmt)
    if "ConvertFrom" in given:
        if len(positional) != 1:
            raise error("MATLAB:datetime:WrongNumInputs",
                        "When you specify 'ConvertFrom', the first input must be a numeric array.")
        return _convert_from(positional[0], given, fmt, zone)
    if not positional:
        return _relative("now", fmt, zone)
    first = positional[0]
    word = text_option(first)
    if len(positional) == 1 and word in RELATIVE_DAYS:
        return _relative(word, fmt, zone)
    texts = text_argument(first) if len(positional) == 1 else None
    if texts is not None:
        return _from_text(texts, infmt, fmt, zone)
    if len(positional) == 1:
        if type(first) is DatetimeArray:
            out = DatetimeArray(first.data, fmt or first.fmt, first.zone)
            return out.set_property("TimeZone", given["TimeZone"]) if "TimeZone" in given else out
        if not is_number(first):
            raise error("MATLAB:datetime:InvalidInput",
                        f"Unable to create a datetime from a value of class '{class_of(first)}'.")
        vectors = numbers(first)
        if vectors.ndim != 2 or vectors.shape[1] not in (3, 6):
            raise error("MATLAB:datetime:InvalidDateVectors",
                        "Numeric input data must be a matrix with three or six columns, "
                        "or three, six, or seven separate numeric arrays. You can also create "
                        "datetimes from a single numeric array using the 'ConvertFrom' parameter.")
        parts = [vectors[:, [k]] for k in range(vectors.shape[1])]
    elif len(positional) in (3, 6, 7):
        parts = broadcast_numbers(positional, "datetime")
    else:
        raise error("MATLAB:datetime:InvalidDateVectors",
                    "Numeric input data must be a matrix with three or six columns, or three, six, "
                    "or seven separate numeric arrays.")
    date_only = len(parts) == 3
    while len(parts) < 6:
        parts.append(np.zeros_like(parts[0]))
    millis = parts[6] if len(parts) == 7 else 0.0
    wall = ms_from_parts(*parts[:6], millis)
    return _make(wall, fmt or (DEFAULT_DATE_FORMAT if date_only else DEFAULT_FORMAT), zone)


def _relative(word: str, fmt: str | None, zone: str) -> DatetimeArray:
    if zone:
        out = DatetimeArray(np.array([[utc_now_ms()]]), fmt or DEFAULT_FORMAT, zone)
        wall = out.wall()
    else:
        wall = np.array([[local_now_ms()]])
        out = DatetimeArray(wall, fmt or DEFAULT_FORMAT, zone)
    offset = RELATIVE_DAYS[word]
    if offset is None:
        return out
    day = np.floor(wall / MS_PER_DAY) + offset
    return _make(day * MS_PER_DAY, fmt or DEFAULT_DATE_FORMAT, zone)


def _from_text(texts: tuple[list[str | None], tuple[int, ...]], infmt: str | None,
               fmt: str | None, zone: str) -> DatetimeArray:
    values, shape = texts
    ms = []
    with_time = False
    for text in values:
        if text is None:
            ms.append(np.nan)
            continue
        value, found = text_to_ms(text, infmt)
        with_time = with_time or (found is not None and not is_date_only(found))
        ms.append(value)
    wall = np.array(ms, dtype=np.float64).reshape(shape, order="F")
    if fmt is None:
        fmt = infmt or (DEFAULT_FORMAT if with_time else DEFAULT_DATE_FORMAT)
    return _make(wall, fmt, zone)


def _convert_from(x: Any, given: dict[str, Any], fmt: str | None, zone: str) -> DatetimeArray:
    kind = text_option(given["ConvertFrom"])
    if kind not in CONVERSIONS:
        named = f"'{text_or_none(given['ConvertFrom'])}'" if kind is not None else "The value"
        raise error("MATLAB:datetime:UnrecognizedConvertFrom",
                    f"{named} is not a recognized 'ConvertFrom' value.")
    if not is_number(x):
        raise error("MATLAB:datetime:InvalidConvertFromInput",
                    f"Input data must be a numeric array when converting from '{kind}'.")
    a = numbers(x)
    fmt = fmt or DEFAULT_FORMAT
    instant = False  # the numbers name UTC instants (not clock readings)
    if kind == "datenum":
        wall = (a - DATENUM_OF_EPOCH) * MS_PER_DAY
    elif kind == "excel":
        wall = (a - EXCEL_OF_EPOCH) * MS_PER_DAY
    elif kind == "excel1904":
        wall = (a - 24107.0) * MS_PER_DAY
    elif kind == "yyyymmdd":
        y, rest = np.floor(a / 10000), np.mod(a, 10000)
        wall = days_from_civil(y, np.floor(rest / 100), np.mod(rest, 100)) * MS_PER_DAY
    elif kind == "juliandate":
        wall, instant = (a - 2440587.5) * MS_PER_DAY, True
    elif kind == "modifiedjuliandate":
        wall, instant = (a - 40587.0) * MS_PER_DAY, True
    elif kind == "posixtime":
        wall, instant = a * 1000.0, True
    else:
        wall, instant = _epoch_ms(a, given), True
    if instant and zone:
        return DatetimeArray(as_matrix(wall), fmt, zone)
    return _make(wall, fmt, zone)


def _epoch_ms(a: np.ndarray, given: dict[str, Any]) -> np.ndarray:
    epoch = 0.0
    if "Epoch" in given:
        e = given["Epoch"]
        if type(e) is DatetimeArray:
            epoch = float(e.data.reshape(-1)[0])
        elif text_or_none(e) is not None:
            epoch = text_to_ms(text_or_none(e) or "", None)[0]
        else:
            raise error("MATLAB:datetime:InvalidEpoch", "Epoch must be a datetime or date/time text.")
    ticks = 1.0
    if "TicksPerSecond" in given:
        t = given["TicksPerSecond"]
        if not is_number(t) or np.size(t) != 1 or float(numbers(t)[0, 0]) <= 0:
            raise error("MATLAB:datetime:InvalidTicksPerSecond",
                        "TicksPerSecond must be a positive integer scalar.")
        ticks = float(numbers(t)[0, 0])
    return epoch + a / ticks * 1000.0


@builtin(name="NaT")
def nat(*args: Any) -> DatetimeArray:
    """t = NaT is a datetime that is Not-a-Time; NaT(n) is n-by-n, NaT(sz1,...,szN) and
    NaT(sz) have the given size. NaT(..., 'Format', fmt, 'TimeZone', tz) sets the
    display format and time zone."""
    sizes, given = split_options(args, ("Format", "TimeZone"))
    shape = size_arguments(sizes)
    fmt = format_value(given["Format"]) if "Format" in given else DEFAULT_FORMAT
    zone = zone_name(_text_option(given, "TimeZone") or "") if "TimeZone" in given else ""
    return DatetimeArray(np.full(shape, np.nan), fmt, zone)


# ---------------------------------------------------------------- tests and fields


@builtin()
def isdatetime(x: Any) -> bool:
    """tf = isdatetime(X) is true when X is a datetime array."""
    return type(x) is DatetimeArray


@builtin()
def isnat(t: Any) -> Any:
    """tf = isnat(T) is true for each element of the datetime array T that is NaT
    (Not-a-Time)."""
    if type(t) is not DatetimeArray:
        raise error("MATLAB:isnat:InvalidInput",
                    "Input must be a datetime array.")
    return result(np.isnan(t.data))


def _field_function(name: str, key: str, summary: str) -> None:
    def field(t: Any) -> Any:
        if type(t) is not DatetimeArray:
            raise error("MATLAB:UndefinedFunction",
                        f"Undefined function '{name}' for input arguments of type '{class_of(t)}'.")
        return result(as_matrix(t.parts()[key]))

    field.__name__ = name
    builtin(name=name, help=f"{name}  {summary}\n\n"
                            f"v = {name}(t) is the {summary.lower()} of each element of the "
                            "datetime array t (NaN for NaT).")(field)


for _name, _key, _summary in (
        ("year", "year", "Year number"), ("month", "month", "Month number (1 to 12)"),
        ("day", "day", "Day of the month"), ("hour", "hour", "Hour of the day (0 to 23)"),
        ("minute", "minute", "Minute of the hour"),
        ("second", "second", "Second of the minute, with its fraction")):
    _field_function(_name, _key, _summary)


@builtin()
def quarter(t: Any) -> Any:
    """q = quarter(t) is the quarter of the year (1 to 4) of each element of the datetime
    array t."""
    if type(t) is not DatetimeArray:
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function 'quarter' for input arguments of type '{class_of(t)}'.")
    return result(as_matrix(np.ceil(t.parts()["month"] / 3)))
