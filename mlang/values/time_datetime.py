"""MATLAB's datetime: points in time, held as milliseconds since 1970-01-01.

An unzoned datetime (``TimeZone`` '') holds its clock reading; a zoned one
holds the UTC instant and shows it in its zone (UTC, or an IANA zone name such
as 'Europe/Paris', read from the system's zone data).  NaT is NaN.

Arithmetic: datetime ± duration and datetime ± number (fixed-length days) are
datetimes; datetime - datetime is a duration; comparisons take datetimes or
date text.
"""

from __future__ import annotations

import datetime as pydt
import os
from typing import Any

import numpy as np

from mlang.errors import error
from mlang.values.core import char_row, class_of, is_text, result, to_str
from mlang.values.operators import binary
from mlang.values.string import StringArray
from mlang.values.text import string_binary
from mlang.values.time_base import TimeArray, as_matrix
from mlang.values.time_calendar import (
    DEFAULT_DATE_FORMAT,
    DEFAULT_FORMAT,
    MS_PER_DAY,
    check_datetime_format,
    components,
    format_datetimes,
    ms_from_parts,
)
from mlang.values.time_duration import COMPARISONS, DurationArray, is_number, numbers, undefined_operator
from mlang.values.time_parse import guess_format, parse_datetime, unparsable_text, unrecognized_text

PARTS = ("Year", "Month", "Day", "Hour", "Minute", "Second")


# ---------------------------------------------------------------- time zones


def local_zone_name() -> str:
    """The system's time zone as an IANA name (what TimeZone 'local' becomes)."""
    name = os.environ.get("TZ", "").lstrip(":")
    if name:
        return name
    try:
        with open("/etc/timezone", encoding="utf-8") as f:
            text = f.read().strip()
            if text:
                return text
    except OSError:
        pass
    try:
        target = os.path.realpath("/etc/localtime")
        if "zoneinfo/" in target:
            return target.split("zoneinfo/", 1)[1]
    except OSError:
        pass
    return "UTC"


def zone_name(text: str) -> str:
    """A TimeZone value checked and normalised ('' unzoned, 'local' resolved)."""
    if text == "" or text.upper() in ("UTC", "Z", "GMT"):
        return text.upper() if text else ""
    if text.lower() == "local":
        return local_zone_name()
    if text.lower() == "utcleapseconds":
        return "UTCLeapSeconds"
    try:
        _zone(text)
    except Exception:  # noqa: BLE001 (any failure to load the zone is the same MATLAB error)
        raise error("MATLAB:datetime:UnknownTimeZone",
                    f"Unrecognized time zone ID: '{text}'.") from None
    return text


def _zone(name: str) -> Any:
    # zoneinfo on first use: keeps start-up fast
    import zoneinfo

    return zoneinfo.ZoneInfo(name)


UTC_NAMES = ("", "UTC", "GMT", "Z", "UTCLeapSeconds")


def _zone_moments(utc_ms: np.ndarray, zone: str) -> list[Any]:
    """Each instant as a Python datetime in the zone (None for NaT or out of range)."""
    tz = _zone(zone)
    epoch = pydt.datetime(1970, 1, 1, tzinfo=pydt.UTC)
    out: list[Any] = []
    for x in np.asarray(utc_ms, dtype=np.float64).reshape(-1).tolist():
        try:
            out.append((epoch + pydt.timedelta(milliseconds=x)).astimezone(tz) if np.isfinite(x) else None)
        except (OverflowError, ValueError):
            out.append(None)
    return out


def zone_offsets(utc_ms: np.ndarray, zone: str) -> np.ndarray:
    """Minutes east of UTC of a zone at each instant (0 for unzoned and UTC)."""
    if zone in UTC_NAMES:
        return np.zeros(np.shape(utc_ms))
    minutes = []
    for moment in _zone_moments(utc_ms, zone):
        offset = moment.utcoffset() if moment is not None else None
        minutes.append(offset.total_seconds() / 60 if offset is not None else 0.0)
    return np.array(minutes, dtype=np.float64).reshape(np.shape(utc_ms))


def zone_abbreviations(utc_ms: np.ndarray, zone: str) -> list[str]:
    """The zone's short name at each instant, column-major (EST or EDT...)."""
    flat = np.asarray(utc_ms, dtype=np.float64).reshape(-1, order="F")
    if zone in UTC_NAMES:
        return [zone] * flat.size
    return [(moment.tzname() if moment is not None else None) or zone
            for moment in _zone_moments(flat, zone)]


def utc_from_wall(wall_ms: np.ndarray, zone: str) -> np.ndarray:
    """The instants whose clock reading in ``zone`` is ``wall_ms``."""
    first = wall_ms - zone_offsets(wall_ms, zone) * 60_000
    return wall_ms - zone_offsets(first, zone) * 60_000


# ---------------------------------------------------------------- the class


class DatetimeArray(TimeArray):
    """A datetime array: ``data`` milliseconds, ``fmt`` the display format, ``zone`` the
    TimeZone ('' unzoned)."""

    matlab_class = "datetime"
    gap_fill = float("nan")
    __slots__ = ("zone",)

    def __init__(self, data: np.ndarray, fmt: str = DEFAULT_FORMAT, zone: str = "") -> None:
        super().__init__(data, fmt)
        self.zone = zone

    def like(self, data: np.ndarray) -> DatetimeArray:
        return DatetimeArray(data, self.fmt, self.zone)

    def differences(self, steps: np.ndarray) -> DurationArray:
        return DurationArray(steps)

    def wall(self) -> np.ndarray:
        """Clock readings in the array's own zone."""
        if self.zone in ("", "UTC"):
            return self.data
        return self.data + zone_offsets(self.data, self.zone) * 60_000

    def with_wall(self, wall: np.ndarray) -> DatetimeArray:
        data = wall if self.zone in ("", "UTC") else utc_from_wall(wall, self.zone)
        return self.like(as_matrix(data))

    def coerce(self, value: object, what: str) -> DatetimeArray:
        if type(value) is DatetimeArray:
            if (value.zone == "") != (self.zone == ""):
                raise error("MATLAB:datetime:IncompatibleTZ",
                            "Cannot combine or compare a datetime array with a time zone with one "
                            "without a time zone.")
            return value
        if is_text(value) or type(value) is StringArray:
            strings = type(value) is StringArray
            texts = list(value.data.reshape(-1, order="F")) if strings else [to_str(value)]
            shape = value.data.shape if strings else (1, 1)
            ms = [text_to_ms(t, None, self.fmt)[0] if t is not None else np.nan for t in texts]
            wall = np.array(ms, dtype=np.float64).reshape(shape, order="F")
            return self.with_wall(wall)
        if what == "compare":
            raise error("MATLAB:datetime:InvalidComparison",
                        f"Comparison is not defined between datetime and {class_of(value)} arrays.")
        if what == "assign":
            # MATLAB's datetime parenAssign: a number has its own identifier.
            numeric = class_of(value) in ("double", "single", "logical") or class_of(value).startswith(
                ("int", "uint"))
            raise error("MATLAB:datetime:InvalidNumericAssignment" if numeric
                        else "MATLAB:datetime:InvalidAssignment",
                        f"Unable to assign {class_of(value)} values into a datetime array.")
        # MATLAB's datetime concatenation checks its inputs as a comparison does.
        raise error("MATLAB:datetime:InvalidComparison",
                    f"Comparison is not defined between {class_of(value)} and datetime arrays.")

    def element_texts(self) -> list[str]:
        if not self.zone:
            return format_datetimes(self.data, self.fmt)
        names = zone_abbreviations(self.data, self.zone) if "z" in self.fmt else None
        return format_datetimes(self.wall(), self.fmt, self.zone, zone_offsets(self.data, self.zone), names)

    # ------------------------------------------------------- properties

    def property_names(self) -> list[str]:
        return [*PARTS, "Format", "TimeZone", "SystemTimeZone"]

    def parts(self) -> dict[str, np.ndarray]:
        """The calendar fields of each element (NaN for NaT)."""
        wall = self.wall()
        c = components(np.where(np.isfinite(wall), wall, 0.0))
        missing = ~np.isfinite(wall)
        return {k: np.where(missing, np.nan, v) for k, v in c.items()}

    def get_property(self, name: str) -> Any:
        if name in PARTS:
            return result(as_matrix(self.parts()[name.lower()]))
        if name == "Format":
            return char_row(self.fmt)
        if name == "TimeZone":
            return char_row(self.zone)
        if name == "SystemTimeZone":
            return char_row(local_zone_name())
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> DatetimeArray:
        if name == "Format":
            return DatetimeArray(self.data, format_value(value), self.zone)
        if name == "TimeZone":
            if not (is_text(value) or type(value) is StringArray):
                raise error("MATLAB:datetime:InvalidTimeZone",
                            "TimeZone must be a character vector or string scalar.")
            zone = zone_name(to_str(value))
            if self.zone == "" or zone == "":
                # gaining or losing a zone keeps the clock reading
                out = DatetimeArray(self.wall(), self.fmt, zone)
                return out.with_wall(self.wall()) if zone else out
            return DatetimeArray(self.data, self.fmt, zone)
        if name in PARTS:
            if not is_number(value):
                raise error("MATLAB:datetime:InvalidPropertyValue",
                            f"The {name} property must be numeric.")
            c = self.parts()
            fields = [c[p.lower()] for p in PARTS]
            k = PARTS.index(name)
            fields[k] = np.broadcast_to(numbers(value), self.data.shape) if np.size(value) == 1 \
                else numbers(value)
            if fields[k].shape != self.data.shape:
                raise error("MATLAB:datetime:InvalidPropertyValue",
                            f"The {name} property value must be a scalar or the same size as the array.")
            return self.with_wall(ms_from_parts(*fields))
        if name == "SystemTimeZone":
            raise error("MATLAB:class:SetProhibited",
                        "Unable to set the 'SystemTimeZone' property of class 'datetime' because "
                        "it is read-only.")
        return super().set_property(name, value)

    # ------------------------------------------------------- operators

    @staticmethod
    def binary_operator(symbol: str, a: Any, b: Any) -> Any:
        ta, tb = type(a), type(b)
        if ta is StringArray and symbol == "+" or tb is StringArray and symbol == "+":
            return string_binary(symbol, a if ta is StringArray else StringArray(a.text_elements()),
                                 b if tb is StringArray else StringArray(b.text_elements()))
        if ta is not DatetimeArray and tb is not DatetimeArray:
            return NotImplemented
        like = a if ta is DatetimeArray else b
        if symbol in COMPARISONS:
            return binary(symbol, like.coerce(a, "compare").data, like.coerce(b, "compare").data)
        if symbol == "+":
            if ta is DatetimeArray and tb is DatetimeArray:
                raise error("MATLAB:datetime:DatetimeAdditionNotDefined",
                            "Addition is not defined between datetime arrays.")
            other = b if ta is DatetimeArray else a
            return like.like(as_matrix(binary("+", like.data, _as_ms(other, symbol, a, b))))
        if symbol == "-":
            if ta is DatetimeArray and tb is DatetimeArray:
                like.coerce(b, "compare")  # zoned and unzoned do not mix
                return DurationArray(as_matrix(binary("-", a.data, b.data)))
            if ta is not DatetimeArray:
                raise error("MATLAB:datetime:SubtractionNotDefined",
                            f"Subtraction is not defined between {class_of(a)} and datetime arrays.")
            return like.like(as_matrix(binary("-", a.data, _as_ms(b, symbol, a, b))))
        raise undefined_operator(symbol, a, b)

    def unary_operator(self, symbol: str) -> Any:
        if symbol in ("-", "+", "~"):
            raise undefined_operator({"-": "uminus", "+": "uplus", "~": "not"}[symbol], self, self)
        return super().unary_operator(symbol)

    def __repr__(self) -> str:
        return f"DatetimeArray({self.data.tolist()}, {self.fmt!r}, {self.zone!r})"


def _as_ms(v: Any, symbol: str, a: Any, b: Any) -> np.ndarray:
    """A duration or a number of days added to or taken from a datetime, in milliseconds."""
    if type(v) is DurationArray:
        return v.data
    if is_number(v):
        return numbers(v) * MS_PER_DAY
    raise undefined_operator(symbol, a, b)


# ---------------------------------------------------------------- helpers for the builtins


def format_value(value: Any) -> str:
    """A Format property value checked ('default' and 'defaultdate' name MATLAB's defaults)."""
    if not (is_text(value) or type(value) is StringArray):
        raise error("MATLAB:datetime:InvalidFormat",
                    "Format must be a character vector or string scalar.")
    fmt = to_str(value)
    if fmt.lower() == "default":
        return DEFAULT_FORMAT
    if fmt.lower() == "defaultdate":
        return DEFAULT_DATE_FORMAT
    check_datetime_format(fmt)
    return fmt


def text_to_ms(text: str, input_format: str | None, display_format: str | None = None
               ) -> tuple[float, str | None]:
    """Milliseconds (clock reading) of date text, and the format that read it."""
    if text.strip() == "" or text.strip().lower() in ("nat", "nan"):
        return float("nan"), None
    if input_format is not None:
        got = parse_datetime(text, input_format)
        if got is None:
            raise unparsable_text(text, input_format)
        return got[0], input_format
    if display_format is not None:
        got = parse_datetime(text, display_format)
        if got is not None:
            return got[0], display_format
    fmt = guess_format(text)
    if fmt is None:
        raise unrecognized_text(text)
    got = parse_datetime(text, fmt)
    assert got is not None
    return got[0], fmt


def is_date_only(fmt: str | None) -> bool:
    """Whether a pattern shows no time of day (text read with it displays date-only)."""
    return fmt is not None and not any(ch in fmt.replace("'T'", "") for ch in "HhkKmsSa")
