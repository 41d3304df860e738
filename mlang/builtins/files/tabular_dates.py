"""Date columns of a file read as datetime: a text column whose every field is a date in
one unambiguous layout (ISO 8601 'yyyy-MM-dd' with or without a time, 'dd-MMM-yyyy',
'yyyy/MM/dd') is detected as a datetime variable in that format; empty fields are NaT."""

from __future__ import annotations

import re

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


def date_format(texts: list[str]) -> str | None:
    """The one layout that every text is a date in (None: a text that is not a date, two
    layouts, or a date out of range such as month 13)."""
    if not texts:
        return None
    fmt = date_layout(texts[0])
    if fmt is None or any(date_layout(t) != fmt or parse_datetime(t, fmt) is None for t in texts):
        return None
    return fmt
