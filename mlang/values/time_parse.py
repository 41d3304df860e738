"""Reading dates and elapsed times from text.

``parse_datetime(text, fmt)`` reads text written in an LDML pattern (the
``InputFormat`` of ``datetime``); without a pattern, ``guess_format`` tries the
formats MATLAB recognises on its own, in its order.  ``parse_duration`` reads
``hh:mm:ss`` and ``dd:hh:mm:ss`` text (fractional seconds allowed).
"""

from __future__ import annotations

import math
import re
import time
from functools import lru_cache

from mlang.errors import error
from mlang.values.time_calendar import MONTHS, WEEKDAYS, ms_from_parts, pattern_fields

# The formats tried in turn for text given without an InputFormat (full date and time
# first, so that the longest reading wins).
GUESSED_FORMATS = (
    "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "yyyy-MM-dd'T'HH:mm:ssXXX",
    "yyyy-MM-dd'T'HH:mm:ss.SSS", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm",
    "yyyy-MM-dd HH:mm:ss.SSS", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd",
    "dd-MMM-yyyy HH:mm:ss.SSS", "dd-MMM-yyyy HH:mm:ss", "dd-MMM-yyyy HH:mm", "dd-MMM-yyyy",
    "MM/dd/yyyy HH:mm:ss.SSS", "MM/dd/yyyy HH:mm:ss", "MM/dd/yyyy HH:mm", "MM/dd/yyyy",
    "yyyy/MM/dd HH:mm:ss.SSS", "yyyy/MM/dd HH:mm:ss", "yyyy/MM/dd HH:mm", "yyyy/MM/dd",
    "dd.MM.yyyy HH:mm:ss", "dd.MM.yyyy", "MMM dd, yyyy HH:mm:ss", "MMMM d, yyyy", "MMM d, yyyy",
    "dd MMM yyyy HH:mm:ss", "dd MMM yyyy", "yyyyMMdd'T'HHmmss", "HH:mm:ss", "HH:mm",
)


def _names_pattern(names: tuple[str, ...], short: bool) -> str:
    words = [n[:3] for n in names] if short else list(names)
    return "(" + "|".join(sorted(words, key=len, reverse=True)) + ")"


def _piece_regex(token: str) -> tuple[str, str | None]:
    """A regular expression for one LDML field, and the component it sets."""
    letter, n = token[0], len(token)
    if letter in "yu":
        return (r"(\d{2})", "year2") if n == 2 else (r"([-+]?\d{1,9})", "year")
    if letter in "ML":
        if n >= 4:
            return _names_pattern(MONTHS, False), "monthname"
        if n == 3:
            return _names_pattern(MONTHS, True), "monthname"
        return (r"(\d{1,2})" if n == 1 else r"(\d{2})"), "month"
    if letter == "d":
        return (r"(\d{1,2})" if n == 1 else r"(\d{2})"), "day"
    if letter == "D":
        return r"(\d{1,3})", "dayofyear"
    if letter in "eEc":
        if n >= 4:
            return _names_pattern(WEEKDAYS, False), None
        if n == 3 or letter == "E":
            return _names_pattern(WEEKDAYS, True), None
        return r"(\d{1,2})", None
    if letter in "Hk":
        return (r"(\d{1,2})" if n == 1 else r"(\d{2})"), "hour"
    if letter in "hK":
        return (r"(\d{1,2})" if n == 1 else r"(\d{2})"), "hour12"
    if letter == "m":
        return (r"(\d{1,2})" if n == 1 else r"(\d{2})"), "minute"
    if letter == "s":
        return (r"(\d{1,2})" if n == 1 else r"(\d{2})"), "second"
    if letter == "S":
        return rf"(\d{{{n}}})", "fraction"
    if letter == "a":
        return r"(AM|PM|am|pm)", "ampm"
    if letter in "XxZ":
        return r"(Z|[-+]\d{2}:?\d{2}|[-+]\d{2})", "offset"
    if letter == "z":
        return r"([A-Za-z_/+\-0-9]+)", None
    if letter == "G":
        return r"(AD|BC)", None
    if letter == "Q":
        return r"(Q?\d)", None
    raise error("MATLAB:datetime:UnsupportedSymbolicIdentifier",
                f"The format contains an unsupported symbolic identifier '{letter}'.")


@lru_cache(maxsize=64)
def _compiled(fmt: str) -> tuple[re.Pattern, tuple[str | None, ...]]:
    parts: list[str] = []
    roles: list[str | None] = []
    for kind, text in pattern_fields(fmt):
        if kind == "literal":
            parts.append(r"\s+" if text.isspace() else re.escape(text))
            continue
        regex, role = _piece_regex(text)
        parts.append(regex)
        roles.append(role)
    return re.compile(r"\s*" + "".join(parts) + r"\s*$", re.I), tuple(roles)


def _offset_minutes(text: str) -> float:
    if text.upper() == "Z":
        return 0.0
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    hours = int(digits[:2])
    minutes = int(digits[2:4]) if len(digits) >= 4 else 0
    return sign * (hours * 60 + minutes)


def parse_datetime(text: str, fmt: str) -> tuple[float, float | None] | None:
    """Milliseconds of a text read with an LDML pattern, and the UTC offset in minutes it
    gave (None: none); None when the text does not fit the pattern."""
    regex, roles = _compiled(fmt)
    m = regex.match(text)
    if m is None:
        return None
    year, month, day, hour, minute, second = 1.0 * _this_year(), 1.0, 1.0, 0.0, 0.0, 0.0
    ampm = None
    offset = None
    day_of_year = None
    for role, value in zip(roles, m.groups(), strict=True):
        if role is None:
            continue
        if role == "year":
            year = float(value)
        elif role == "year2":
            y = int(value)
            year = float(2000 + y if y < 50 else 1900 + y)  # 2-digit years pivot like ICU
        elif role == "monthname":
            key = value[:3].lower()
            month = float([mn[:3].lower() for mn in MONTHS].index(key) + 1)
        elif role == "month":
            month = float(value)
        elif role == "day":
            day = float(value)
        elif role == "dayofyear":
            day_of_year = float(value)
        elif role in ("hour", "hour12"):
            hour = float(value)
        elif role == "minute":
            minute = float(value)
        elif role == "second":
            second = float(value)
        elif role == "fraction":
            second += int(value) / 10 ** len(value)
        elif role == "ampm":
            ampm = value.upper()
        elif role == "offset":
            offset = _offset_minutes(value)
    if ampm is not None:
        hour = hour % 12 + (12 if ampm == "PM" else 0)
    if day_of_year is not None:
        month, day = 1.0, day_of_year
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 25 and minute < 60 and second < 61):
        return None
    ms = float(ms_from_parts(year, month, day, hour, minute, second))
    if offset is not None:
        ms -= offset * 60_000
    return ms, offset


def _this_year() -> int:
    return time.localtime().tm_year


def guess_format(text: str) -> str | None:
    """The first recognised format that reads ``text`` (None: none does)."""
    for fmt in GUESSED_FORMATS:
        if parse_datetime(text, fmt) is not None:
            return fmt
    return None


def unrecognized_text(text: str) -> Exception:
    return error("MATLAB:datetime:UnrecognizedDateStringSuggestLocale",
                 f"Could not recognize the date/time format of '{text}'. You can specify a format "
                 "using the 'InputFormat' parameter. If the date/time text contains day, month, or "
                 "time zone names in a language foreign to the 'en_US' locale, those might not be "
                 "recognized. You can specify a different locale using the 'Locale' parameter.")


def unparsable_text(text: str, fmt: str) -> Exception:
    return error("MATLAB:datetime:ParseErr",
                 f"Unable to convert '{text}' to datetime using the format '{fmt}'.")


def parse_duration(text: str, fmt: str | None = None) -> float:
    """Milliseconds of ``hh:mm:ss``, ``dd:hh:mm:ss`` (or, with ``fmt``, ``mm:ss`` or
    ``hh:mm``) text; NaN for 'NaN' or empty text; errors for anything else."""
    t = text.strip()
    if t == "" or t.lower() == "nan":
        return math.nan
    sign = -1.0 if t.startswith("-") else 1.0
    body = t.lstrip("+-")
    parts = body.split(":")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    layout = (fmt or "").split(".")[0]
    if layout in ("mm:ss", "hh:mm") and len(values) == 2:
        scale = (60_000.0, 1000.0) if layout == "mm:ss" else (3_600_000.0, 60_000.0)
        return sign * (values[0] * scale[0] + values[1] * scale[1])
    if len(values) == 3 and (layout in ("", "hh:mm:ss")):
        return sign * (values[0] * 3_600_000 + values[1] * 60_000 + values[2] * 1000)
    if len(values) == 4 and (layout in ("", "dd:hh:mm:ss")):
        return sign * (values[0] * 86_400_000 + values[1] * 3_600_000 + values[2] * 60_000
                       + values[3] * 1000)
    shown = fmt or "hh:mm:ss"
    raise error("MATLAB:duration:DurationConversionFailed" if fmt else
                "MATLAB:duration:UnrecognizedDurationText",
                f"Unable to convert '{text}' to duration using the format '{shown}'." if fmt else
                f"Unable to convert '{text}' to duration. Text must be in the format 'hh:mm:ss' "
                "or 'dd:hh:mm:ss', or you must specify the format using the 'InputFormat' parameter.")
