"""Serial date numbers and date vectors: datenum, datestr, datevec, now, clock, date,
etime and weekday.

A date number counts days from the year 0 (datenum(1970,1,1) is 719529); a date
vector is [year month day hour minute second].  datestr formats use their own
letters (yyyy mmm dd HH MM SS FFF PM...), unlike the LDML letters of datetime,
and are written here directly from the calendar fields.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none
from mlang.builtins.data.datetimes import local_now_ms
from mlang.builtins.data.durations import broadcast_numbers, text_argument
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import CHAR, char_matrix, char_row, class_of, result
from mlang.values.time_base import as_matrix
from mlang.values.time_calendar import (
    DATENUM_OF_EPOCH,
    MONTHS,
    MS_LIMIT,
    MS_PER_DAY,
    WEEKDAYS,
    components,
    ms_from_parts,
)
from mlang.values.time_datetime import DatetimeArray, text_to_ms
from mlang.values.time_duration import DurationArray, is_number, numbers
from mlang.values.time_parse import parse_datetime, unparsable_text

# datestr's numbered formats
DATESTR_FORMATS = {
    0: "dd-mmm-yyyy HH:MM:SS", 1: "dd-mmm-yyyy", 2: "mm/dd/yy", 3: "mmm", 4: "m", 5: "mm",
    6: "mm/dd", 7: "dd", 8: "ddd", 9: "d", 10: "yyyy", 11: "yy", 12: "mmmyy", 13: "HH:MM:SS",
    14: "HH:MM:SS PM", 15: "HH:MM", 16: "HH:MM PM", 17: "QQ-YY", 18: "QQ", 19: "dd/mm",
    20: "dd/mm/yy", 21: "mmm.dd,yyyy HH:MM:SS", 22: "mmm.dd,yyyy", 23: "mm/dd/yyyy",
    24: "dd/mm/yyyy", 25: "yy/mm/dd", 26: "yyyy/mm/dd", 27: "QQ-YYYY", 28: "mmmyyyy",
    29: "yyyy-mm-dd", 30: "yyyymmddTHHMMSS", 31: "yyyy-mm-dd HH:MM:SS",
}
_DATESTR_TOKEN = re.compile(r"yyyy|YYYY|yy|YY|mmmm|mmm|mm|m|dddd|ddd|dd|d|HH|MM|SS|FFF|AM|PM|QQ|.", re.S)


def _datestr_tokens(fmt: str) -> list[str]:
    return _DATESTR_TOKEN.findall(fmt)


# ---------------------------------------------------------------- inputs as milliseconds


def _looks_like_datevec(a: np.ndarray) -> bool:
    """Whether a numeric matrix holds date vectors (3 or 6 columns, months and days in range)."""
    if a.ndim != 2 or a.shape[1] not in (3, 6) or a.shape[0] == 0:
        return False
    months, days = a[:, 1], a[:, 2]
    return bool(np.all((months >= 0) & (months <= 12)) and np.all((days >= 0) & (days <= 31))
                and np.all(a[:, 0] == np.floor(a[:, 0])))


def _vectors_ms(a: np.ndarray) -> np.ndarray:
    """Column of milliseconds of the rows of a date-vector matrix."""
    parts = [a[:, [k]] for k in range(a.shape[1])]
    while len(parts) < 6:
        parts.append(np.zeros_like(parts[0]))
    # MATLAB counts month 0 as January in date vectors
    parts[1] = np.maximum(parts[1], 1)
    return as_matrix(ms_from_parts(*parts))


def _datestr_to_ldml(fmt: str) -> str:
    """A datestr/datenum format (yyyy-mm-dd HH:MM:SS) as the LDML pattern that reads it."""
    twelve = "PM" in fmt or "AM" in fmt
    names = {"yyyy": "yyyy", "YYYY": "yyyy", "yy": "yy", "YY": "yy", "mmmm": "MMMM",
             "mmm": "MMM", "mm": "MM", "m": "M", "dddd": "EEEE", "ddd": "EEE", "dd": "dd",
             "d": "d", "HH": "h" if twelve else "HH", "MM": "mm", "SS": "ss", "FFF": "SSS",
             "AM": "a", "PM": "a"}
    out = []
    for token in _datestr_tokens(fmt):
        if token in names:
            out.append(names[token])
        elif token.isalpha():
            out.append(f"'{token}'")
        elif token == "'":
            out.append("''")
        else:
            out.append(token)
    return "".join(out)


def _text_ms(texts: list[str | None], fmt: str | None) -> np.ndarray:
    """Milliseconds of date texts, read with a datestr-style format or recognised."""
    out = []
    for text in texts:
        if text is None:
            out.append(math.nan)
        elif fmt is None:
            out.append(text_to_ms(text, None)[0])
        else:
            got = parse_datetime(text, _datestr_to_ldml(fmt))
            if got is None:
                raise unparsable_text(text, fmt)
            out.append(got[0])
    return np.array(out, dtype=np.float64)


def _as_ms(d: Any, fmt: str | None = None, fn: str = "datestr") -> np.ndarray:
    """Milliseconds of a datetime, date text, date vectors or date numbers, shaped as MATLAB
    gives the result (one value per element; date-vector rows give a column)."""
    if type(d) is DatetimeArray:
        return as_matrix(d.wall())
    texts = text_argument(d)
    if texts is not None:
        values, shape = texts
        return _text_ms(values, fmt).reshape(shape if len(values) == int(np.prod(shape)) else (-1, 1),
                                             order="F")
    if not is_number(d):
        raise error(f"MATLAB:{fn}:InputClass" if fn != "datenum" else "MATLAB:datenum:InputClass",
                    f"Input must be a datetime, a date number, a date vector or date text, "
                    f"not {class_of(d)}.")
    a = numbers(d)
    if _looks_like_datevec(a):
        return _vectors_ms(a)
    return (a - DATENUM_OF_EPOCH) * MS_PER_DAY


def _datenums(ms: np.ndarray) -> np.ndarray:
    return ms / MS_PER_DAY + DATENUM_OF_EPOCH


# ---------------------------------------------------------------- datenum, datevec


@builtin()
def datenum(*args: Any) -> Any:
    """DateNumber = datenum(t) converts datetimes to serial date numbers (days from the
    year 0: datenum(1970,1,1) is 719529).

    datenum(DateVector) takes rows [y m d] or [y m d h mi s];
    datenum(Y, M, D) and datenum(Y, M, D, H, MN, S) take arrays of one size or scalars
    (values out of range carry over); datenum(DateString) and
    datenum(DateString, formatIn) read text (formatIn in datestr letters:
    'yyyy-mm-dd HH:MM:SS')."""
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    if len(args) in (3, 6) and all(is_number(a) for a in args):
        parts = broadcast_numbers(list(args), "datenum")
        while len(parts) < 6:
            parts.append(np.zeros_like(parts[0]))
        return result(_datenums(ms_from_parts(*parts)))
    if len(args) > 3:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    fmt = text_or_none(args[1]) if len(args) >= 2 and text_or_none(args[1]) is not None else None
    if len(args) >= 2 and fmt is None and not is_number(args[1]):
        raise error("MATLAB:datenum:InvalidFormat", "The format must be a character vector or string scalar.")
    d = args[0]
    if is_number(d) and not _looks_like_datevec(numbers(d)):
        return result(numbers(d))
    return result(_datenums(_as_ms(d, fmt, "datenum")))


@builtin(nargout=True, max_out=6)
def datevec(*args: Any, nargout: int = 1) -> Any:
    """DateVector = datevec(t) converts datetimes, date numbers or date text to date
    vectors: one row [year month day hour minute second] per element.

    datevec(DateString, formatIn) reads text written in datestr letters.
    [Y, M, D, H, MN, S] = datevec(...) returns the fields as separate columns."""
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    fmt = text_or_none(args[1]) if len(args) >= 2 else None
    d = args[0]
    if type(d) is DurationArray:
        ms = d.data.reshape(-1, 1, order="F")
        h = np.floor(ms / 3_600_000)
        mi = np.floor((ms - h * 3_600_000) / 60_000)
        s = (ms - h * 3_600_000 - mi * 60_000) / 1000
        fields = [np.zeros_like(h), np.zeros_like(h), np.zeros_like(h), h, mi, s]
    else:
        ms = _as_ms(d, fmt, "datevec") if not is_number(d) or _looks_like_datevec(numbers(d)) \
            else (numbers(d) - DATENUM_OF_EPOCH) * MS_PER_DAY
        flat = ms.reshape(-1, 1, order="F")
        c = components(np.where(np.isfinite(flat), flat, 0.0))
        bad = ~np.isfinite(flat)
        fields = [np.where(bad, np.nan, c[k]) for k in ("year", "month", "day", "hour", "minute", "second")]
    if nargout <= 1:
        return result(np.hstack(fields))
    return tuple(result(f) for f in fields[:max(nargout, 1)])


# ---------------------------------------------------------------- datestr


def _datestr_one(c: dict[str, float], tokens: list[str], twelve: bool) -> str:
    out = []
    for token in tokens:
        if token in ("yyyy", "YYYY"):
            out.append(f"{int(c['year']):04d}")
        elif token in ("yy", "YY"):
            out.append(f"{int(c['year']) % 100:02d}")
        elif token == "mmmm":
            out.append(MONTHS[int(c["month"]) - 1])
        elif token == "mmm":
            out.append(MONTHS[int(c["month"]) - 1][:3])
        elif token == "mm":
            out.append(f"{int(c['month']):02d}")
        elif token == "m":
            out.append(MONTHS[int(c["month"]) - 1][0])
        elif token == "dddd":
            out.append(WEEKDAYS[int(c["weekday"]) - 1])
        elif token == "ddd":
            out.append(WEEKDAYS[int(c["weekday"]) - 1][:3])
        elif token == "dd":
            out.append(f"{int(c['day']):02d}")
        elif token == "d":
            out.append(WEEKDAYS[int(c["weekday"]) - 1][0])
        elif token == "HH":
            h = int(c["hour"])
            out.append(f"{(h + 11) % 12 + 1:2d}" if twelve else f"{h:02d}")
        elif token == "MM":
            out.append(f"{int(c['minute']):02d}")
        elif token == "SS":
            out.append(f"{int(math.floor(c['second'])):02d}")
        elif token == "FFF":
            out.append(f"{int(round((c['second'] - math.floor(c['second'])) * 1000)) % 1000:03d}")
        elif token in ("AM", "PM"):
            out.append("AM" if c["hour"] < 12 else "PM")
        elif token == "QQ":
            out.append(f"Q{int((c['month'] - 1) // 3) + 1}")
        else:
            out.append(token)
    return "".join(out)


@builtin()
def datestr(d: Any, fmt: Any = None, *rest: Any) -> Any:
    """DateString = datestr(t) writes datetimes, date numbers, date vectors or date text
    as text, one row per element: 'dd-mmm-yyyy HH:MM:SS' (format 0), or
    'dd-mmm-yyyy' (format 1) when no element has a time of day, or 'HH:MM PM'
    (format 16) when none has a date.

    datestr(D, formatOut) uses a numbered format (0 to 31) or one written with the
    letters yyyy yy mmmm mmm mm m dddd ddd dd d HH MM SS FFF AM PM QQ
    ('yyyy-mm-dd HH:MM:SS')."""
    ms = _as_ms(d).reshape(-1, order="F")
    if not np.isfinite(ms).all():
        raise error("MATLAB:datestr:ConvertDateNumber",
                    "DATESTR failed converting date number to date vector.")
    if type(fmt) is float or (type(fmt) is np.ndarray and fmt.dtype.kind != "V"):  # V: char
        number = numbers(fmt)
        key = int(number[0, 0]) if number.size == 1 and float(number[0, 0]).is_integer() else -1
        if key not in DATESTR_FORMATS:
            raise error("MATLAB:datestr:IndexOutOfRange" if key >= 0 else "MATLAB:datestr:DateNumber",
                        "Invalid date format number.")
        pattern = DATESTR_FORMATS[key]
    elif fmt is not None:
        text = text_or_none(fmt)
        if text is None:
            raise error("MATLAB:datestr:InvalidFormat", "The format must be a number or text.")
        pattern = text
    else:
        rounded = np.round(ms[np.isfinite(ms)])
        day_part = np.mod(rounded, MS_PER_DAY)
        if rounded.size and np.all(day_part == 0):
            pattern = DATESTR_FORMATS[1]
        elif rounded.size and np.all(np.floor(_datenums(rounded)) == 0):
            pattern = DATESTR_FORMATS[16]
        else:
            pattern = DATESTR_FORMATS[0]
    tokens = _datestr_tokens(pattern)
    twelve = "AM" in tokens or "PM" in tokens
    if "FFF" not in tokens:
        ms = np.round(ms / 1000) * 1000  # whole seconds are shown rounded
    else:
        ms = np.round(ms)
    valid = np.isfinite(ms) & (np.abs(ms) < MS_LIMIT)
    comps = components(np.where(valid, ms, 0.0))
    rows = []
    for i in range(ms.size):
        if not valid[i]:
            rows.append("NaN")
            continue
        rows.append(_datestr_one({k: float(v[i]) for k, v in comps.items()}, tokens, twelve))
    if not rows:
        return np.zeros((0, 0), dtype=CHAR)
    return char_matrix(rows)


# ---------------------------------------------------------------- the clock


@builtin()
def now() -> float:
    """t = now is the current date and time as a serial date number (local time)."""
    return float(local_now_ms() / MS_PER_DAY + DATENUM_OF_EPOCH)


@builtin()
def clock() -> Any:
    """c = clock is the current date and time as a date vector
    [year month day hour minute seconds] (local time, fractional seconds)."""
    c = components(np.array([local_now_ms()]))
    return np.array([[c[k][0] for k in ("year", "month", "day", "hour", "minute", "second")]])


@builtin()
def date() -> Any:
    """c = date is today's date as text in the form 'dd-mmm-yyyy'."""
    c = components(np.array([local_now_ms()]))
    return char_row(_datestr_one({k: float(v[0]) for k, v in c.items()},
                                 _datestr_tokens("dd-mmm-yyyy"), False))


@builtin()
def etime(t1: Any, t0: Any) -> Any:
    """e = etime(t1, t0) is the time in seconds from date vector t0 to date vector t1
    (rows [year month day hour minute second], as clock returns)."""
    a, b = numbers(t1) if is_number(t1) else None, numbers(t0) if is_number(t0) else None
    if a is None or b is None or a.ndim != 2 or b.ndim != 2 or a.shape[1] != 6 or b.shape[1] != 6:
        raise error("MATLAB:etime:InvalidInput",
                    "Inputs must be date vectors with six columns, as clock returns.")
    if a.shape[0] != b.shape[0] and a.shape[0] != 1 and b.shape[0] != 1:
        raise error("MATLAB:dimagree", "Matrix dimensions must agree.")
    return result((_vectors_ms(a) - _vectors_ms(b)) / 1000.0)


@builtin(nargout=True, max_out=2)
def weekday(d: Any, form: Any = None, *, nargout: int = 1) -> Any:
    """[N, S] = weekday(D) is the day of the week of each date (1 is Sunday, 7 Saturday)
    and its three-letter name; weekday(D, 'long') gives full names. D is a datetime,
    date numbers or date text."""
    ms = _as_ms(d, None, "weekday")
    style = text_or_none(form) if form is not None else "short"
    if style not in ("short", "long"):
        raise error("MATLAB:weekday:InvalidForm", "The form must be 'short' or 'long'.")
    days = np.floor(np.round(ms) / MS_PER_DAY)
    finite = np.isfinite(days)
    n = np.full(days.shape, np.nan)
    n[finite] = np.mod(days[finite] + 4, 7) + 1
    if nargout < 2:
        return result(as_matrix(n))
    names = [WEEKDAYS[int(k) - 1] if np.isfinite(k) else "NaN" for k in n.reshape(-1, order="F")]
    return result(as_matrix(n)), char_matrix([w if style == "long" else w[:3] for w in names])

