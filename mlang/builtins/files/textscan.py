"""textscan: formatted data from text or an open file into a cell array of columns.

The format is applied again and again (each application is one row) until the
text ends, the format does not match, or N rows are read.  Without a
'Delimiter', fields are separated by whitespace and line endings alike; with
one, a field ends at a delimiter or at the end of its line, and an empty field
is read as 'EmptyValue' (NaN).  Each conversion that is not skipped (%*...)
gives one column: numeric column vectors (%f %n double, %d int32, %d8..%d64,
%u uint32, %u8..%u64, %f32 single), cell columns of character vectors (%s %q
%[...]) or a char array (%c).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, options, text_list, text_or_none, text_scalar
from mlang.builtins.files.fileio import fid_number, open_file
from mlang.builtins.text.forms import object_array
from mlang.builtins.text.printing import unescape
from mlang.errors import MatlabError, error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import CHAR, char_matrix, char_row, to_double_array
from mlang.values.operators import INT_LIMITS

_CONVERSION = re.compile(
    r"%(?P<skip>\*)?(?P<width>\d+)?(?:\.(?P<prec>\d+))?"
    r"(?P<conv>[dui](?:8|16|32|64)?|f(?:32|64)?|n|s|q|c|\[\^?\]?[^\]]*\]|[DT](?:\{[^}]*\})?)")
_NUMBER = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?|inf(?:inity)?|nan)",
                     re.IGNORECASE)
_IMAGINARY = re.compile(r"[+-](?:(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?|inf|nan)?[ij](?![A-Za-z0-9])",
                        re.IGNORECASE)
_CLASSES = {"d": "int32", "d8": "int8", "d16": "int16", "d32": "int32", "d64": "int64",
            "i": "int32", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
            "u": "uint32", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
            "f": "double", "f64": "double", "f32": "single", "n": "double"}
_NAMES = ("Delimiter", "HeaderLines", "EndOfLine", "Whitespace", "CommentStyle",
          "MultipleDelimsAsOne", "TreatAsEmpty", "EmptyValue", "ReturnOnError",
          "CollectOutput", "BufSize", "ExpChars", "DateLocale")


@dataclass
class _Item:
    """One piece of a format: a conversion (``conv``) or literal text."""

    conv: str = ""  # 'f' 'd8' 's' 'q' 'c' '[...]' ...; '' for a literal
    literal: str = ""
    skip: bool = False
    width: int | None = None

    @property
    def kind(self) -> str:
        if self.conv in _CLASSES:
            return "number"
        return "text" if self.conv in ("s", "q") or self.conv.startswith("[") else self.conv


def _items(fmt: str) -> list[_Item]:
    out: list[_Item] = []
    k = 0
    literal: list[str] = []

    def flush() -> None:
        if literal:
            out.append(_Item(literal="".join(literal)))
            literal.clear()

    while k < len(fmt):
        c = fmt[k]
        if c == "%":
            if fmt.startswith("%%", k):
                literal.append("%")
                k += 2
                continue
            m = _CONVERSION.match(fmt, k)
            if m is None or m.group("conv")[0] in "DT":
                raise error("MATLAB:textscan:BadFormatString", "Badly formed format string.")
            flush()
            width = m.group("width")
            out.append(_Item(conv=m.group("conv"), skip=bool(m.group("skip")),
                             width=int(width) if width else None))
            k = m.end()
        elif c in " \t\b\n\r":
            flush()
            k += 1
        else:
            literal.append(c)
            k += 1
    flush()
    if not any(it.conv for it in out):
        raise error("MATLAB:textscan:BadFormatString", "Badly formed format string.")
    return out


class _Options:
    """textscan's name=value options, read once."""

    def __init__(self, opts: dict[str, Any]) -> None:
        self.delimiters = ([unescape(d) for d in text_list(opts["Delimiter"], "Delimiter")]
                           if "Delimiter" in opts else [])
        self.delimiters = sorted((d for d in self.delimiters if d), key=len, reverse=True)
        self.whitespace = (unescape(text_scalar(opts["Whitespace"], "Whitespace"))
                           if "Whitespace" in opts else " \b\t")
        self.whitespace = "".join(c for c in self.whitespace if c not in "".join(self.delimiters))
        eol = unescape(text_scalar(opts["EndOfLine"], "EndOfLine")) if "EndOfLine" in opts else None
        self.eols = [eol] if eol else ["\r\n", "\n", "\r"]
        self.header_lines = _count(opts.get("HeaderLines", 0.0), "HeaderLines")
        comments = text_list(opts["CommentStyle"], "CommentStyle") if "CommentStyle" in opts else []
        self.comment = (comments[0], comments[1] if len(comments) > 1 else None) if comments else None
        self.multiple = option_flag(opts["MultipleDelimsAsOne"]) if (
            "MultipleDelimsAsOne" in opts) else False
        self.empty_texts = set(text_list(opts["TreatAsEmpty"], "TreatAsEmpty")) if (
            "TreatAsEmpty" in opts) else set()
        empty = to_double_array(opts.get("EmptyValue", math.nan))
        if empty.size != 1:
            raise error("MATLAB:textscan:InvalidEmptyValue", "EmptyValue must be a numeric scalar.")
        self.empty_value = float(empty.reshape(-1)[0].real)
        self.return_on_error = option_flag(opts["ReturnOnError"]) if "ReturnOnError" in opts else True
        self.collect = option_flag(opts["CollectOutput"]) if "CollectOutput" in opts else False


def _count(v: Any, what: str) -> int:
    a = to_double_array(v)
    if a.size != 1 or not a.reshape(-1)[0].real >= 0:
        raise error("MATLAB:textscan:InvalidOption", f"{what} must be a nonnegative integer.")
    x = float(a.reshape(-1)[0].real)
    return 2**62 if math.isinf(x) else int(x)


class _Mismatch(Exception):
    """A field that does not match its conversion."""

    def __init__(self, kind: str, field: int) -> None:
        super().__init__(kind)
        self.kind = kind
        self.field = field


class _Scanner:
    """The position in the text and the helpers that move it."""

    def __init__(self, text: str, o: _Options) -> None:
        self.text = text
        self.pos = 0
        self.o = o

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def eol_at(self, k: int) -> str | None:
        for e in self.o.eols:
            if self.text.startswith(e, k):
                return e
        return None

    def delimiter_at(self, k: int) -> str | None:
        for d in self.o.delimiters:
            if self.text.startswith(d, k):
                return d
        return None

    def skip_comment(self) -> bool:
        c = self.o.comment
        if c is None or not self.text.startswith(c[0], self.pos):
            return False
        if c[1] is None:
            while not self.at_end() and self.eol_at(self.pos) is None:
                self.pos += 1
        else:
            end = self.text.find(c[1], self.pos + len(c[0]))
            self.pos = len(self.text) if end < 0 else end + len(c[1])
        return True

    def skip_space(self, lines: bool) -> None:
        """Whitespace and comments; with ``lines``, line endings too."""
        text, ws = self.text, self.o.whitespace
        while self.pos < len(text):
            if text[self.pos] in ws:
                self.pos += 1
            elif lines and (e := self.eol_at(self.pos)) is not None:
                self.pos += len(e)
            elif not self.skip_comment():
                return

    def skip_lines(self, n: int) -> None:
        for _ in range(n):
            while not self.at_end() and self.eol_at(self.pos) is None:
                self.pos += 1
            e = self.eol_at(self.pos)
            if e is None:
                return
            self.pos += len(e)

    def field_end(self, start: int, width: int | None, stop_at_space: bool) -> int:
        """Where a field starting at ``start`` ends: a delimiter, a line ending, whitespace
        (without delimiters) or the width."""
        text = self.text
        limit = len(text) if width is None else min(len(text), start + width)
        k = start
        while k < limit:
            c = text[k]
            if (stop_at_space and c in self.o.whitespace) or self.eol_at(k) is not None:
                break
            if self.o.delimiters and self.delimiter_at(k) is not None:
                break
            k += 1
        return k

    def after_field(self) -> bool:
        """Past the delimiter that ends a field (all of a run with MultipleDelimsAsOne);
        whether one was there."""
        if not self.o.delimiters:
            return False
        self.skip_space(False)
        d = self.delimiter_at(self.pos)
        if d is None:
            return False
        self.pos += len(d)
        while self.o.multiple:
            here = self.pos
            self.skip_space(False)
            d = self.delimiter_at(self.pos)
            if d is None:
                self.pos = here
                break
            self.pos += len(d)
        return True


def _read_number(s: _Scanner, item: _Item, field: int) -> int | float | complex:
    """A number, EmptyValue for an empty field (None: no field left)."""
    o = s.o
    text = s.text
    start = s.pos
    end_of_field = s.field_end(start, None, False) if o.delimiters else s.field_end(start, None, True)
    if o.delimiters and end_of_field == start:
        return o.empty_value
    token = text[start:end_of_field].rstrip(o.whitespace)
    if token in o.empty_texts:
        s.pos = end_of_field
        return o.empty_value
    limit = len(text) if item.width is None else start + item.width
    m = _NUMBER.match(text[:limit], start)
    if m is None:
        raise _Mismatch("Numeric", field)
    s.pos = m.end()
    if item.conv[0] in "diu" and m.group().lstrip("+-").isdigit():
        return int(m.group())  # exact, for the 64-bit classes
    value: float | complex = _float(m.group())
    if item.conv in ("f", "n", "f64"):
        # a complex number: 5.1+3i, 2-.5j, 4i
        if s.pos < limit and text[s.pos] in "ij" and not text[s.pos + 1:s.pos + 2].isalnum():
            s.pos += 1
            return complex(0.0, value)
        tail = _IMAGINARY.match(text[:limit], s.pos)
        if tail is not None:
            s.pos = tail.end()
            return complex(value, _float(tail.group()[:-1]))
    return value


def _whole(v: int | float | complex) -> int | float:
    """A value read for an integer conversion as a whole number: rounded half away from
    zero, NaN as 0, infinities kept (to saturate)."""
    if isinstance(v, int):
        return v
    x = v.real if isinstance(v, complex) else v
    if x != x:
        return 0
    if math.isinf(x):
        return x
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def _float(word: str) -> float:
    return float(word.lower().replace("d", "e").replace("infinity", "inf"))


def _read_text(s: _Scanner, item: _Item) -> str:
    text = s.text
    start = s.pos
    if item.conv == "q" and text.startswith('"', start):
        out = []
        k = start + 1
        while k < len(text):
            if text[k] == '"':
                if text.startswith('""', k):
                    out.append('"')
                    k += 2
                    continue
                k += 1
                break
            out.append(text[k])
            k += 1
        s.pos = k
        rest_end = s.field_end(k, None, not s.o.delimiters)
        out.append(text[k:rest_end])
        s.pos = rest_end
        return "".join(out)
    if item.conv.startswith("["):
        body = item.conv[1:-1]
        negate = body.startswith("^")
        members = set(_set_members(body[1:] if negate else body))
        limit = len(text) if item.width is None else min(len(text), start + item.width)
        k = start
        while k < limit and ((text[k] in members) != negate):
            k += 1
        s.pos = k
        return text[start:k]
    end = s.field_end(start, item.width, not s.o.delimiters)
    s.pos = end
    value = text[start:end]
    return value.rstrip(s.o.whitespace) if s.o.delimiters else value


def _set_members(body: str) -> str:
    """The characters of a scan set body, ranges (a-z) expanded and escapes processed."""
    body = unescape(body)
    out = []
    k = 0
    while k < len(body):
        if k + 2 < len(body) and body[k + 1] == "-":
            out.extend(chr(c) for c in range(ord(body[k]), ord(body[k + 2]) + 1))
            k += 3
        else:
            out.append(body[k])
            k += 1
    return "".join(out)


def _scan(text: str, items: list[_Item], o: _Options, passes: int) -> tuple[list[list], int, str]:
    """Columns of values (one list a kept conversion), the characters consumed, and the
    error message of a mismatch (ReturnOnError)."""
    s = _Scanner(text, o)
    s.skip_lines(o.header_lines)
    columns: list[list] = [[] for it in items if it.conv and not it.skip]
    row = 0
    while row < passes:
        s.skip_space(True)
        if s.at_end():
            break
        before = s.pos
        column = 0
        after_delimiter = False
        try:
            for number, item in enumerate(items, 1):
                if not item.conv:
                    s.skip_space(not o.delimiters)
                    if not s.text.startswith(item.literal, s.pos):
                        raise _Mismatch("Literal", number)
                    s.pos += len(item.literal)
                    continue
                if item.kind != "c":
                    s.skip_space(not o.delimiters)
                at_line_end = s.at_end() or (bool(o.delimiters) and s.eol_at(s.pos) is not None)
                if s.at_end() and not after_delimiter:
                    return columns, s.pos, ""
                if at_line_end and o.delimiters:
                    value: Any = o.empty_value if item.kind == "number" else ""
                elif item.kind == "number":
                    value = _read_number(s, item, number)
                elif item.kind == "c":
                    width = item.width or 1
                    value = s.text[s.pos:s.pos + width]
                    s.pos += len(value)
                else:
                    value = _read_text(s, item)
                if not item.skip:
                    columns[column].append(value)
                    column += 1
                after_delimiter = s.after_field()
        except _Mismatch as exc:
            if not o.return_on_error:
                raise error("MATLAB:textscan:handleErrorAndShowInfo",
                            _mismatch_message(s, exc, row + 1)) from None
            return columns, s.pos, _mismatch_message(s, exc, row + 1)
        row += 1
        if s.pos == before:
            break
    return columns, s.pos, ""


def _mismatch_message(s: _Scanner, exc: _Mismatch, row: int) -> str:
    end = s.pos
    while end < len(s.text) and s.eol_at(end) is None:
        end += 1
    rest = s.text[s.pos:end] + ("\\n" if end < len(s.text) else "")
    return ("Mismatch between file and format character vector.\n"
            f"Trouble reading '{exc.kind}' field from file (row number {row}, field number "
            f"{exc.field}) ==> {rest}\n")


def _column(values: list, item: _Item, o: _Options) -> Any:
    if item.kind == "number":
        cls = _CLASSES[item.conv]
        complex_values = any(isinstance(v, complex) for v in values)
        a = np.array(values, dtype=np.complex128 if complex_values else np.float64).reshape((-1, 1))
        if cls == "double":
            return a
        if cls == "single":
            return a.astype(np.complex64 if complex_values else np.float32)
        low, high = INT_LIMITS[cls]
        return np.array([[min(max(_whole(v), low), high)] for v in values],
                        dtype=cls).reshape((-1, 1))
    if item.kind == "c":
        width = item.width or 1
        if not values:
            return np.zeros((0, width), dtype=CHAR)
        return char_matrix([v.ljust(width) for v in values])
    return Cell(object_array([char_row(v) if v else np.zeros((1, 0), dtype=CHAR) for v in values],
                             (len(values), 1)))


def _collected(columns: list[Any]) -> list[Any]:
    """CollectOutput: neighbouring columns of one class become one array."""
    out: list[Any] = []
    for c in columns:
        last = out[-1] if out else None
        if last is not None and type(last) is type(c) and (
                type(c) is Cell or last.dtype == c.dtype) and _rows(last) == _rows(c):
            if type(c) is Cell:
                out[-1] = Cell(np.concatenate([last.data, c.data], axis=1))
            else:
                out[-1] = np.concatenate([last, c], axis=1)
        else:
            out.append(c)
    return out


def _rows(v: Any) -> int:
    return v.data.shape[0] if type(v) is Cell else v.shape[0]


def _textscan_options(rest: list) -> dict[str, Any]:
    """The name-value pairs; an unknown name is MATLAB:textscan:UnknownOption (MATLAB's
    readtable tells its own parameters from textscan's by that identifier)."""
    try:
        return options(rest, _NAMES)
    except MatlabError as exc:
        if exc.identifier != "MATLAB:InputParser:UnmatchedParameter":
            raise
        known = {n.lower() for n in _NAMES}
        name = next(t for t in (text_or_none(rest[k]) for k in range(0, len(rest), 2))
                    if t is not None and t.lower() not in known)
        raise error("MATLAB:textscan:UnknownOption", f"Unknown option '{name}'.") from None


@builtin(interp=True, max_out=3, nargout=True)
def textscan(interp: Any, source: Any, fmt: Any = None, *args: Any, nargout: int = 1) -> Any:
    """C = textscan(fileID, formatSpec) reads data from an open text file into a cell
    array with one column per conversion of formatSpec (continuing from the file's
    position); C = textscan(chr, formatSpec) reads from text.  C = textscan(...,
    formatSpec, N) applies the format at most N times (-1 or Inf: until the data ends).
    [C, position, errmsg] = textscan(...) also returns the number of characters (of
    a file: its position in bytes) read and the message of a mismatch.

    Conversions: %f %n (double), %f32 (single), %d %d8 %d16 %d32 %d64 (integers),
    %u %u8 ... %u64 (unsigned), %s (text up to a delimiter or whitespace), %q (text,
    maybe in double quotes), %c (characters), %[...] and %[^...] (a scan set); %*...
    skips the field, a width (%5f) limits the characters read, other text in the
    format must match the data.
    Options (Name=Value): 'Delimiter', 'HeaderLines', 'EndOfLine', 'Whitespace',
    'CommentStyle', 'MultipleDelimsAsOne', 'TreatAsEmpty', 'EmptyValue',
    'ReturnOnError', 'CollectOutput'."""
    passes = 2**62
    rest = list(args)
    if rest and text_or_none(rest[0]) is None:
        n = to_double_array(rest.pop(0))
        if n.size != 1:
            raise error("MATLAB:textscan:InvalidN", "N must be a scalar.")
        value = float(n.reshape(-1)[0].real)
        if value != value or (math.isfinite(value) and value != math.floor(value)):
            raise error("MATLAB:textscan:InvalidN", "N must be an integer.")
        passes = 2**62 if value < 0 or math.isinf(value) else int(value)
    o = _Options(_textscan_options(rest))
    format_text = "%f" if fmt is None else text_scalar(fmt, "Format")
    items = _items(unescape(format_text))
    f = open_file(interp, source) if fid_number(source) is not None else None
    if f is None:
        text = text_scalar(source, "First input")
        start = 0
    else:
        start = f.stream.tell()
        data = f.read_bytes(-1)
        text = data.decode(f.codec, errors="replace")
    columns, used, message = _scan(text, items, o, passes)
    kept = [it for it in items if it.conv and not it.skip]
    cells = [_column(values, item, o) for values, item in zip(columns, kept, strict=True)]
    if o.collect:
        cells = _collected(cells)
    if f is not None:
        f.stream.seek(start + len(text[:used].encode(f.codec, errors="replace")))
        f.eof = used >= len(text)
        position = float(f.stream.tell())
    else:
        position = float(used)
    result = Cell(object_array(cells, (1, len(cells))))
    shown = char_row(message) if message else np.zeros((0, 0), dtype=CHAR)
    return (result, position, shown)[:max(nargout, 1)]
