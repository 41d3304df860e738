"""Reading formatted data from text: sscanf.

The format is read as C's scanf reads it: a whitespace character matches any
run of whitespace (none included), other literal characters must match
exactly, and each conversion (%d %i %u %f %e %g %x %o %s %c %[...], with an
optional * to skip the field and a width that limits how many characters it
reads) takes one value.  The format is applied again until the text, the
size limit or a matching failure ends the reading.
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

import numpy as np

from mlang.builtins.coerce import read_size, text_scalar
from mlang.builtins.text.forms import WHITESPACE, empty_char, row
from mlang.builtins.text.printing import unescape
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import CHAR, char_from_codes, char_row

_CONVERSION = re.compile(r"%(?P<skip>\*)?(?P<width>\d+)?(?P<size>[lhL])?"
                         r"(?P<conv>[diuoxXfeEgGsc%]|\[\^?\]?[^\]]*\])")

# What each numeric conversion may read (the width limits the text it is tried on).
_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eEdD][+-]?\d+)?")
_FLOAT = re.compile(r"[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eEdD][+-]?\d+)?|inf(?:inity)?|nan)",
                    re.IGNORECASE)
_HEX = re.compile(r"[+-]?(?:0[xX])?[0-9a-fA-F]+")
_OCTAL = re.compile(r"[+-]?[0-7]+")
_INTEGER_C = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)")

_MATCH_FAILURE = "Matching failure in format."


class _Field(NamedTuple):
    """One piece of a format: whitespace, a literal character or a conversion."""

    kind: str  # "space", "literal" or "conv"
    text: str = ""  # the literal, or the conversion letter or [set]
    skip: bool = False
    width: int | None = None
    size: str = ""  # the length modifier: l (64-bit integers), h, L


def _fields(fmt: str) -> list[_Field]:
    out: list[_Field] = []
    k = 0
    while k < len(fmt):
        c = fmt[k]
        if c in WHITESPACE:
            while k < len(fmt) and fmt[k] in WHITESPACE:
                k += 1
            out.append(_Field("space"))
            continue
        if c == "%":
            m = _CONVERSION.match(fmt, k)
            if m is None:
                raise error("MATLAB:sscanf:InvalidFormat", "Invalid format.")
            conv = m.group("conv")
            if conv == "%":
                out.append(_Field("literal", "%"))
            else:
                width = m.group("width")
                out.append(_Field("conv", conv, bool(m.group("skip")),
                                  int(width) if width else None, m.group("size") or ""))
            k = m.end()
            continue
        out.append(_Field("literal", c))
        k += 1
    return out


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in WHITESPACE:
        pos += 1
    return pos


def _char_set(spec: str) -> re.Pattern:
    """A %[...] scan set as a pattern for one or more of its characters."""
    body = spec[1:-1]
    negate = body.startswith("^")
    if negate:
        body = body[1:]
    members = re.escape(body).replace(r"\-", "-") if "-" in body[1:-1] else re.escape(body)
    return re.compile(f"[{'^' if negate else ''}{members}]+")


def _number(conv: str, token: str) -> float | int | None:
    """The value a numeric conversion reads from its token (None: a matching failure);
    whole numbers written as such stay exact Python ints (for the 64-bit classes)."""
    if conv in "du":
        if token.lstrip("+-").isdigit():
            return int(token)
        x = float(token.replace("d", "e").replace("D", "e"))
        return x if not math.isfinite(x) or x == math.floor(x) else None
    if conv in "ix":
        sign = -1 if token.startswith("-") else 1
        digits = token.lstrip("+-")
        if digits[:2] in ("0x", "0X"):
            return sign * int(digits[2:], 16)
        if conv == "x":
            return sign * int(digits, 16)
        return sign * int(digits, 8 if len(digits) > 1 and digits[0] == "0" else 10)
    if conv == "o":
        return int(token, 8)
    return float(token.replace("d", "e").replace("D", "e"))


def _integer_class(fields: list[_Field]) -> str | None:
    """int64 when every conversion that keeps its value is %ld or %li, uint64 when every
    one is %lu, %lo or %lx; None (double) otherwise."""
    kept = [f for f in fields if f.kind == "conv" and not f.skip]
    if not kept or any(f.size != "l" for f in kept):
        return None
    if all(f.text in "di" for f in kept):
        return "int64"
    if all(f.text in "uoxX" for f in kept):
        return "uint64"
    return None


_PATTERNS = {"d": _DECIMAL, "u": _DECIMAL, "i": _INTEGER_C, "x": _HEX, "X": _HEX,
             "o": _OCTAL}


class _Scan:
    """The state of one sscanf: position in the text, values read, the error met."""

    def __init__(self, text: str, limit: int | None) -> None:
        self.text = text
        self.pos = 0
        self.values: list = []  # numbers, or one-character strings
        self.count = 0
        self.limit = limit
        self.message = ""

    def full(self) -> bool:
        return self.limit is not None and len(self.values) >= self.limit

    def field(self, f: _Field) -> bool:
        """Read one field; False stops the reading (end of text or a matching failure)."""
        text = self.text
        if f.kind == "space":
            self.pos = _skip_space(text, self.pos)
            return True
        if f.kind == "literal":
            if self.pos >= len(text):
                return False
            if text[self.pos] != f.text:
                self.message = _MATCH_FAILURE
                return False
            self.pos += 1
            return True
        conv = f.text
        if conv == "c":
            n = f.width or 1
            if self.pos >= len(text):
                return False
            piece = text[self.pos:self.pos + n]
            self.pos += len(piece)
            self._store(f, list(piece))
            return True
        start = self.pos if conv.startswith("[") else _skip_space(text, self.pos)
        if start >= len(text):
            self.pos = start
            return False
        stop = len(text) if f.width is None else start + f.width
        if conv == "s":
            end = start
            while end < stop and text[end] not in WHITESPACE:
                end += 1
            self.pos = end
            self._store(f, list(text[start:end]))
            return True
        if conv.startswith("["):
            m = _char_set(conv).match(text[:stop], start)
            if m is None:
                self.message = _MATCH_FAILURE
                return False
            self.pos = m.end()
            self._store(f, list(m.group()))
            return True
        m = _PATTERNS.get(conv, _FLOAT).match(text[:stop], start)
        value = None if m is None else _number(conv.lower() if conv != "X" else "x", m.group())
        if value is None:
            self.pos = start
            self.message = _MATCH_FAILURE
            return False
        self.pos = m.end()  # type: ignore[union-attr]
        self._store(f, [value])
        return True

    def _store(self, f: _Field, items: list) -> None:
        if f.skip:
            return
        if self.limit is not None:
            items = items[:self.limit - len(self.values)]
        self.values.extend(items)
        self.count += 1

    def run(self, fields: list[_Field]) -> None:
        if not any(f.kind == "conv" for f in fields):
            for f in fields:
                if not self.field(f):
                    return
            return
        while self.pos < len(self.text) and not self.full():
            before = self.pos
            for f in fields:
                if f.kind == "conv" and self.full():
                    return
                if not self.field(f):
                    return
            if self.pos == before:
                return


def _size_argument(v: Any) -> tuple[int | None, int | None, bool]:
    return read_size(v, "sscanf", "Size must be a two-element vector whose first element is finite.")


@builtin(max_out=4, nargout=True)
def sscanf(s: Any, fmt: Any, size: Any = None, *, nargout: int = 1) -> Any:
    """A = sscanf(str, formatSpec) reads data from str by formatSpec, a column vector of the
    values read (a character row when formatSpec has only %c and %s conversions).
    A = sscanf(str, formatSpec, sizeA) reads at most n values (sizeA = n, or Inf), or
    fills an m-by-n matrix in column order (sizeA = [m n], n may be Inf).
    [A, n, errmsg, nextindex] = sscanf(...) also returns the number of fields read, the
    error message of a matching failure ('' if none) and the index of the next character.

    Conversions: %d %i %u (integers), %f %e %g (floating point), %x (hexadecimal),
    %o (octal), %s (text up to whitespace), %c (characters, whitespace included),
    %[...] (a scan set); %*d skips a field, and a width (%3d) limits the characters read.
    Whitespace in the format matches any whitespace; other text must match exactly.
    A is int64 when every conversion is %ld or %li, uint64 when every one is %lu, %lo or
    %lx, and double otherwise."""
    text = text_scalar(s, "First argument")
    fields = _fields(unescape(text_scalar(fmt, "Format")))
    rows, cols, matrix = (None, None, False) if size is None else _size_argument(size)
    limit = None if rows is None else rows * cols if matrix and cols is not None else rows
    if matrix and cols is None:
        limit = None
    scan = _Scan(text, limit)
    scan.run(fields)
    values = scan.values
    as_text = all(f.kind != "conv" or f.skip or f.text in ("s", "c") or f.text.startswith("[")
                  for f in fields) and any(f.kind == "conv" for f in fields)
    a = _result(values, as_text, rows if matrix else None, cols if matrix else None,
                _integer_class(fields))
    if nargout <= 1:
        return a
    outputs = (a, float(scan.count), row(scan.message) if scan.message else empty_char(),
               float(scan.pos + 1))
    return outputs[:max(nargout, 2)]


def _result(values: list, as_text: bool, rows: int | None, cols: int | None,
            int_class: str | None = None) -> Any:
    if as_text and rows is None:
        return char_row("".join(values)) if values else np.zeros((0, 0), dtype=CHAR)
    if as_text:
        codes = [ord(v) for v in values]
    else:
        codes = [float(ord(v)) if isinstance(v, str) else v for v in values]
    dtype = np.dtype(np.uint16 if as_text else int_class or np.float64)
    if not codes:
        return np.zeros((0, 0), dtype=CHAR if as_text else dtype)
    if int_class is not None:
        info = np.iinfo(dtype)  # out-of-range values saturate, as MATLAB's integers do
        codes = [min(max(int(x), info.min), info.max) for x in codes]
    flat = np.array(codes, dtype=dtype)
    if rows is not None and len(codes) < rows:
        shaped = flat.reshape((-1, 1))  # not even one full column: only what was read
    elif rows is not None:
        n = cols if cols is not None else -(-len(codes) // max(rows, 1))
        full = np.zeros(rows * n, dtype=flat.dtype)
        full[:len(codes)] = flat[:rows * n]
        shaped = full.reshape((rows, n), order="F")
    else:
        shaped = flat.reshape((-1, 1))
    if as_text:
        return char_from_codes(shaped)
    return shaped if shaped.size != 1 or int_class else float(shaped[0, 0])
