"""Date columns of a file read as datetime: a text column whose every field is a date in
one unambiguous layout (ISO 8601 'yyyy-MM-dd' with or without a time, 'dd-MMM-yyyy',
'yyyy/MM/dd') becomes a datetime column in that format; empty fields are NaT."""

from __future__ import annotations

import math
import re

import numpy as np

from mlang.values.time_datetime import DatetimeArray
from mlang.values.time_parse import parse_datetime

# (gate regex, LDML format) pairs, most specific first.
LAYOUTS = (
    (r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}", "yyyy-MM-dd'T'HH:mm:ss.SSS"),
    (r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}", "yyyy-MM-dd'T'HH:mm:ss"),
    (r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", "yyyy-MM-dd'T'HH:mm"),
    (r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}", "yyyy-MM-dd HH:mm:ss.SSS"),
    (r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", "yyyy-MM-dd HH:mm:ss"),
    (r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", "yyyy-MM-dd HH:mm"),
    (r"\d{4}-\d{2}-\d{2}", "yyyy-MM-dd"),
    (r"\d{4}/\d{2}/\d{2}", "yyyy/MM/dd"),
    (r"\d{2}-[A-Za-z]{3}-\d{4} \d{2}:\d{2}:\d{2}", "dd-MMM-yyyy HH:mm:ss"),
    (r"\d{2}-[A-Za-z]{3}-\d{4}", "dd-MMM-yyyy"),
)
_GATES = [(re.compile(gate), fmt) for gate, fmt in LAYOUTS]


def date_layout(text: str) -> str | None:
    """The LDML format of a date text in one of the layouts read (None: not a date)."""
    for gate, fmt in _GATES:
        if gate.fullmatch(text):
            return fmt
    return None


def date_column(texts: list[str | None]) -> DatetimeArray | None:
    """The datetime column of texts that are all dates in one layout (None otherwise)."""
    present = [t for t in texts if t]
    if not present:
        return None
    fmt = date_layout(present[0])
    if fmt is None or any(date_layout(t) != fmt for t in present):
        return None
    values = []
    for t in texts:
        if not t:
            values.append(math.nan)
            continue
        got = parse_datetime(t, fmt)
        if got is None:
            return None  # a date out of range (month 13): the column stays text
        values.append(got[0])
    return DatetimeArray(np.array(values, dtype=np.float64).reshape(-1, 1), fmt)
