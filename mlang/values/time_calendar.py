"""Calendar arithmetic and the text forms of dates and elapsed times.

Datetimes are held as milliseconds since 1970-01-01 00:00 on the proleptic
Gregorian (ISO) calendar that MATLAB's datetime uses; NaT is NaN.  The day
numbers and civil dates convert both ways with whole-array integer arithmetic
(no per-element Python loop), so years before 1970 or after 9999 work as well.

Formats are the Unicode LDML patterns MATLAB's ``Format`` property takes
(``dd-MMM-uuuu HH:mm:ss``, ``eeee, MMMM d, yyyy h:mm a``...): runs of one
letter are fields, text in single quotes is literal, other characters are
literal as they stand.  Durations have their own small set of formats:
``hh:mm:ss`` (and ``dd:hh:mm:ss``, ``mm:ss``, ``hh:mm``, each optionally with
``.SSS`` fractional seconds) or one unit (``y``, ``d``, ``h``, ``m``, ``s``).
"""

from __future__ import annotations

import math
import re

import numpy as np

from mlang.errors import error

MS_PER_DAY = 86_400_000.0
MS_PER_YEAR = 365.2425 * MS_PER_DAY  # MATLAB's fixed-length year
DATENUM_OF_EPOCH = 719_529.0  # datenum(1970,1,1)
EXCEL_OF_EPOCH = 25_569.0  # Excel serial day of 1970-01-01 (1900 date system)

# Beyond this (about 280 million years) the calendar arithmetic loses whole days; such
# values show as Inf / -Inf.
MS_LIMIT = 8.64e21

DEFAULT_FORMAT = "dd-MMM-uuuu HH:mm:ss"
DEFAULT_DATE_FORMAT = "dd-MMM-uuuu"
DEFAULT_DURATION_FORMAT = "hh:mm:ss"

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
WEEKDAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")


# ---------------------------------------------------------------- civil dates


def days_from_civil(year: np.ndarray, month: np.ndarray, day: np.ndarray) -> np.ndarray:
    """Days since 1970-01-01 of whole year/month arrays (month may overflow: 14 is next
    February) plus ``day - 1`` (any real number, so day 0 is the last of the month before)."""
    year = np.asarray(year, dtype=np.float64)
    month = np.asarray(month, dtype=np.float64)
    year = year + np.floor((month - 1) / 12)
    month = np.mod(month - 1, 12) + 1
    y = year - (month <= 2)
    era = np.floor(y / 400)
    yoe = y - era * 400
    mp = np.mod(month + 9, 12)
    doy = np.floor((153 * mp + 2) / 5)
    doe = yoe * 365 + np.floor(yoe / 4) - np.floor(yoe / 100) + doy
    return era * 146097 + doe - 719468 + (np.asarray(day, dtype=np.float64) - 1)


def civil_from_days(days: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Year, month and day arrays of whole day numbers since 1970-01-01 (NaN stays NaN)."""
    z = np.asarray(days, dtype=np.float64) + 719468
    era = np.floor(z / 146097)
    doe = z - era * 146097
    yoe = np.floor((doe - np.floor(doe / 1460) + np.floor(doe / 36524) - np.floor(doe / 146096)) / 365)
    doy = doe - (365 * yoe + np.floor(yoe / 4) - np.floor(yoe / 100))
    mp = np.floor((5 * doy + 2) / 153)
    day = doy - np.floor((153 * mp + 2) / 5) + 1
    month = np.where(mp < 10, mp + 3, mp - 9)
    year = yoe + era * 400 + (month <= 2)
    return year, month, day


def _exact_ms(ms: np.ndarray) -> np.ndarray:
    """Milliseconds rounded to the microsecond, so that values computed from day fractions
    (datenum 738950.5) do not show as 11:59:59.999."""
    return np.round(np.asarray(ms, dtype=np.float64) * 1000) / 1000


def components(ms: np.ndarray) -> dict[str, np.ndarray]:
    """Calendar fields of datetimes held as milliseconds: year, month, day, hour, minute,
    second (with its fraction), day of week (1 = Sunday) and day of year."""
    ms = _exact_ms(ms)
    days = np.floor(ms / MS_PER_DAY)
    rest = ms - days * MS_PER_DAY
    year, month, day = civil_from_days(days)
    hour = np.floor(rest / 3_600_000)
    rest = rest - hour * 3_600_000
    minute = np.floor(rest / 60_000)
    second = (rest - minute * 60_000) / 1000
    weekday = np.mod(days + 4, 7) + 1  # 1970-01-01 was a Thursday
    doy = days - days_from_civil(year, np.ones_like(year), np.ones_like(year)) + 1
    return {"year": year, "month": month, "day": day, "hour": hour, "minute": minute,
            "second": second, "weekday": weekday, "dayofyear": doy}


def ms_from_parts(year: np.ndarray, month: np.ndarray, day: np.ndarray, hour: np.ndarray,
                  minute: np.ndarray, second: np.ndarray, millis: np.ndarray | float = 0.0
                  ) -> np.ndarray:
    """Milliseconds of date and time fields (each may overflow into the next)."""
    return (days_from_civil(year, month, day) * MS_PER_DAY + np.asarray(hour) * 3_600_000.0
            + np.asarray(minute) * 60_000.0 + np.asarray(second) * 1000.0 + np.asarray(millis))


# ---------------------------------------------------------------- LDML patterns


_FIELD = re.compile(r"'(?:[^']|'')*'|([A-Za-z])\1*|.", re.S)


def pattern_fields(fmt: str) -> list[tuple[str, str]]:
    """The pattern as (kind, text) pieces: kind 'field' (a run of one letter) or 'literal'."""
    out: list[tuple[str, str]] = []
    for m in _FIELD.finditer(fmt):
        piece = m.group(0)
        if m.group(1):
            out.append(("field", piece))
        elif piece.startswith("'") and len(piece) >= 2:
            inner = piece[1:-1].replace("''", "'")
            out.append(("literal", inner if piece != "''" else "'"))
        else:
            out.append(("literal", piece))
    return out


def _zone_offset_text(offset_minutes: float, colon: bool, z_for_zero: bool) -> str:
    if z_for_zero and offset_minutes == 0:
        return "Z"
    sign = "-" if offset_minutes < 0 else "+"
    h, m = divmod(int(abs(offset_minutes)), 60)
    return f"{sign}{h:02d}:{m:02d}" if colon else f"{sign}{h:02d}{m:02d}"


def _field_text(token: str, c: dict[str, float], zone: str, offset: float) -> str:
    letter, n = token[0], len(token)
    if letter in "yu":
        y = int(c["year"])
        return f"{y % 100:02d}" if n == 2 else (f"{y:0{n}d}" if y >= 0 else str(y))
    if letter in "ML":
        m = int(c["month"])
        if n <= 2:
            return f"{m:0{n}d}"
        name = MONTHS[m - 1]
        return name[:3] if n == 3 else name if n == 4 else name[0]
    if letter == "d":
        return f"{int(c['day']):0{n}d}"
    if letter == "D":
        return f"{int(c['dayofyear']):0{n}d}"
    if letter in "eEc":
        w = int(c["weekday"])
        if letter != "E" and n <= 2:
            return f"{w:0{n}d}"
        name = WEEKDAYS[w - 1]
        return name if n == 4 else name[0] if n == 5 else name[:2] if n == 6 else name[:3]
    if letter == "H":
        return f"{int(c['hour']):0{n}d}"
    if letter == "h":
        return f"{(int(c['hour']) + 11) % 12 + 1:0{n}d}"
    if letter == "k":
        return f"{int(c['hour']) or 24:0{n}d}"
    if letter == "K":
        return f"{int(c['hour']) % 12:0{n}d}"
    if letter == "m":
        return f"{int(c['minute']):0{n}d}"
    if letter == "s":
        return f"{int(math.floor(c['second'])):0{n}d}"
    if letter == "S":
        frac = c["second"] - math.floor(c["second"])
        return f"{int(math.floor(round(frac * 10 ** n, 6))):0{n}d}"[:n]
    if letter == "a":
        return "AM" if c["hour"] < 12 else "PM"
    if letter == "Q":
        q = int((c["month"] - 1) // 3) + 1
        if n <= 2:
            return f"{q:0{n}d}"
        return f"Q{q}" if n == 3 else f"{('1st', '2nd', '3rd', '4th')[q - 1]} quarter"
    if letter == "G":
        return "AD" if c["year"] > 0 else "BC"
    if letter == "z":
        return zone or ""
    if letter == "Z":
        return _zone_offset_text(offset, colon=n >= 4, z_for_zero=False) if zone else ""
    if letter in "xX":
        return _zone_offset_text(offset, colon=n >= 3, z_for_zero=letter == "X") if zone else ""
    raise error("MATLAB:datetime:UnrecognizedDateFormat",
                f"Unrecognized format letter '{letter}'.")


def check_datetime_format(fmt: str) -> None:
    """Errors for a pattern with a letter that is no date or time field."""
    for kind, text in pattern_fields(fmt):
        if kind == "field" and text[0] not in "yuMLdDeEcHhkKmsSaQGzZxX":
            raise error("MATLAB:datetime:UnsupportedSymbolicIdentifier",
                        f"The format '{fmt}' contains an unsupported symbolic identifier '{text[0]}'.")


def format_datetimes(ms: np.ndarray, fmt: str, zone: str = "",
                     offsets: np.ndarray | None = None,
                     abbreviations: list[str] | None = None) -> list[str]:
    """The text of each datetime (flattened column-major) under an LDML pattern; NaT
    is 'NaT' and infinite values 'Inf' / '-Inf'.  ``offsets`` are the zone's minutes
    east of UTC, for the offset fields; ``abbreviations`` the zone's short name at each
    element (EST, CEST...), for the 'z' field."""
    flat = np.asarray(ms, dtype=np.float64).reshape(-1, order="F")
    finite = np.isfinite(flat) & (np.abs(flat) < MS_LIMIT)
    comps = components(np.where(finite, flat, 0.0))
    pieces = pattern_fields(fmt)
    offs = (np.zeros(flat.size) if offsets is None
            else np.asarray(offsets, dtype=np.float64).reshape(-1, order="F"))
    out: list[str] = []
    for i in range(flat.size):
        if not finite[i]:
            x = flat[i]
            out.append("NaT" if math.isnan(x) else ("Inf" if x > 0 else "-Inf"))  # or out of range
            continue
        c = {k: float(v[i]) for k, v in comps.items()}
        name = abbreviations[i] if abbreviations is not None else zone
        out.append("".join(text if kind == "literal" else _field_text(text, c, name, float(offs[i]))
                           for kind, text in pieces))
    return out


def has_time_of_day(ms: np.ndarray) -> bool:
    """Whether any finite datetime is not at midnight."""
    a = _exact_ms(np.asarray(ms, dtype=np.float64))
    a = a[np.isfinite(a)]
    return bool(np.any(np.mod(a, MS_PER_DAY) != 0))


# ---------------------------------------------------------------- durations

DURATION_UNITS = {"y": MS_PER_YEAR, "d": MS_PER_DAY, "h": 3_600_000.0, "m": 60_000.0, "s": 1000.0}
_DIGITAL = re.compile(r"^(dd:hh:mm:ss|hh:mm:ss|mm:ss|hh:mm)(?:\.(S{1,9}))?$")


def check_duration_format(fmt: str) -> None:
    """Errors for a text that is no duration display format."""
    if fmt in DURATION_UNITS:
        return
    m = _DIGITAL.match(fmt)
    if m is None or (m.group(2) and m.group(1) == "hh:mm"):
        raise error("MATLAB:duration:UnrecognizedFormat",
                    f"Invalid duration format '{fmt}'. The format must be 'y', 'd', 'h', 'm', 's', "
                    "'hh:mm:ss', 'dd:hh:mm:ss', 'mm:ss', or 'hh:mm', optionally followed by "
                    "fractional seconds (for example, 'hh:mm:ss.SSS').")


def _unit_text(value: float, unit: str) -> str:
    number = f"{value:.5g}"
    if "e" in number:  # MATLAB writes two exponent digits at least, as %g does
        mantissa, exponent = number.split("e")
        number = f"{mantissa}e{exponent[0]}{int(exponent[1:]):02d}"
    plural = abs(value) != 1
    name = {"y": "yrs" if plural else "yr", "d": "days" if plural else "day",
            "h": "hr", "m": "min", "s": "sec"}[unit]
    return f"{number} {name}"


def format_durations(ms: np.ndarray, fmt: str) -> list[str]:
    """The text of each duration (flattened column-major) under a duration format."""
    flat = np.asarray(ms, dtype=np.float64).reshape(-1, order="F")
    out: list[str] = []
    if fmt in DURATION_UNITS:
        size = DURATION_UNITS[fmt]
        for x in flat.tolist():
            if math.isnan(x):
                out.append("NaN")
            elif math.isinf(x):
                out.append(_unit_text(x, fmt).replace("inf", "Inf"))
            else:
                out.append(_unit_text(x / size, fmt))
        return out
    m = _DIGITAL.match(fmt)
    fields = (m.group(1) if m else "hh:mm:ss").split(":")
    digits = len(m.group(2)) if m and m.group(2) else 0
    sizes = {"dd": MS_PER_DAY, "hh": 3_600_000.0, "mm": 60_000.0, "ss": 1000.0}
    for x in flat.tolist():
        if math.isnan(x):
            out.append("NaN")
            continue
        if math.isinf(x):
            out.append("Inf" if x > 0 else "-Inf")
            continue
        sign = "-" if x < 0 else ""
        # whole units of the last field's precision, truncated (never rounded up)
        step = sizes[fields[-1]] / 1000 if digits and fields[-1] == "ss" else 0
        rest = round(abs(x) * 1e6) / 1e6
        parts = []
        for k, name in enumerate(fields):
            size = sizes[name]
            whole = math.floor(rest / size) if k < len(fields) - 1 else math.floor(rest / size)
            rest -= whole * size
            parts.append(f"{whole:02d}")
        text = ":".join(parts)
        if digits and step:
            frac = math.floor(round(rest / 1000 * 10 ** digits, 6))
            text += "." + f"{frac:0{digits}d}"[:digits]
        out.append(sign + text)
    return out
