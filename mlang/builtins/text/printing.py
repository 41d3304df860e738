"""Printing: sprintf and fprintf (MATLAB's format rules, ``format_text``, and its
escape sequences, ``unescape``), disp and display."""

from __future__ import annotations

import functools
import math
import re
from typing import Any, NamedTuple

import numpy as np

from mlang.display import disp_text
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import CHAR, FLOAT_DTYPES, char_text, class_of, is_text, to_str
from mlang.values.string import StringArray
from mlang.values.text import text_row

_SPEC = re.compile(r"%(?P<flags>[-+ 0#]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
                   r"[lh]?(?P<conv>[diouxXfeEgGcs%])")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "r": "\r", "a": "\a", "b": "\b", "f": "\f",
            "v": "\v", "0": "\0"}


def unescape(fmt: str) -> str:
    """Process MATLAB's escape sequences in a format (\\n, \\t, \\\\, \\xHH, octal)."""
    if "\\" not in fmt:
        return fmt
    out = []
    i = 0
    n = len(fmt)
    while i < n:
        c = fmt[i]
        if c == "\\" and i + 1 < n:
            d = fmt[i + 1]
            if d == "x":
                m = re.match(r"[0-9a-fA-F]+", fmt[i + 2:])
                if m:
                    out.append(chr(int(m.group(), 16)))
                    i += 2 + m.end()
                    continue
            if d in "01234567" and d != "0" or (d == "0" and i + 2 < n and fmt[i + 2] in "01234567"):
                m = re.match(r"[0-7]{1,3}", fmt[i + 1:])
                out.append(chr(int(m.group(), 8)))  # type: ignore[union-attr]
                i += 1 + m.end()  # type: ignore[union-attr]
                continue
            if d in _ESCAPES:
                out.append(_ESCAPES[d])
                i += 2
                continue
            out.append(d)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _flatten_args(args: list) -> list:
    """Arguments as a flat list of items: numbers, or whole strings for char/string args."""
    items: list = []
    for a in args:
        if type(a) is np.ndarray and a.dtype.kind == "V":
            items.append(char_text(a))
        elif type(a) is StringArray:
            items.extend("" if s is None else s for s in a.data.ravel(order="F"))
        elif type(a) is float:
            items.append(a)
        elif type(a) is bool:
            items.append(1.0 if a else 0.0)
        elif type(a) is complex:
            items.append(a.real)
        elif type(a) is np.ndarray:
            flat = a.ravel(order="F")
            if flat.dtype.kind == "c":
                flat = flat.real
            if flat.dtype.kind in "iu":
                items.extend(int(x) for x in flat)
            else:
                items.extend(float(x) for x in flat)
        elif type(a) is Cell:
            raise error("MATLAB:sprintf:InvalidInputType",
                        "Function is not defined for 'cell' inputs.")
        else:
            raise error("MATLAB:sprintf:InvalidInputType",
                        f"Function is not defined for '{class_of(a)}' inputs.")
    return items


def _special(x: float, flags: str, width: str) -> str:
    """Inf and NaN under any conversion: the words, padded like text."""
    text = "NaN" if x != x else ("Inf" if x > 0 else "-Inf")
    if x == x and x > 0 and "+" in flags:
        text = "+Inf"
    return ("%" + flags.replace("0", "") + width + "s") % text


def _num_text(x: float | int, flags: str, width: str, prec: str | None, conv: str) -> str:
    spec = "%" + flags + width + ("." + prec if prec is not None else "")
    if isinstance(x, float) and (x != x or x in (math.inf, -math.inf)):
        return _special(x, flags, width)
    if conv in "diuoxXcs" and isinstance(x, float) and not x.is_integer():
        # a value the conversion cannot show exactly: MATLAB switches to %e
        return (spec + "e") % x
    if conv in "diu":
        return (spec + "d") % int(x)
    if conv == "o" and "#" in flags:
        # C's alternate octal form is a leading 0 (Python would write 0o)
        n = int(x)
        digits = ("-0" if n < 0 else "0") + f"{abs(n):o}" if n else "0"
        return ("%" + flags.replace("#", "") + width + "s") % digits
    if conv in "oxX":
        return (spec + conv) % int(x)
    if conv in "cs":
        code = int(x)
        if not 0 <= code <= 0x10FFFF:  # not a character code: show the number
            return (spec + "d") % code
        return ("%" + flags + width + ("." + prec if prec is not None and conv == "s" else "")
                + "s") % chr(code)
    return (spec + conv) % x


def _literal(fmt: str, specs: tuple[Spec, ...]) -> str:
    """A format without conversions that take data: only %% becomes %."""
    out = []
    cursor = 0
    for m in specs:
        out.append(fmt[cursor:m.start])
        out.append("%" if m.conv == "%" else "")
        cursor = m.end
    out.append(fmt[cursor:])
    return "".join(out)


def _next_item(items: list, pos: int, conv: str) -> object:
    """The item at pos for this conversion, or None when the data has run out.

    Text is one item for %s; any other conversion takes its characters one at a
    time (as characters for %c, as character codes for numeric conversions)."""
    while pos < len(items):
        x = items[pos]
        if not isinstance(x, str) or conv == "s" or (conv == "c" and len(x) == 1):
            return x
        items[pos:pos + 1] = list(x) if conv == "c" else [float(ord(ch)) for ch in x]
    return None


def _star(items: list, pos: int) -> tuple[str | None, int]:
    """A * width or precision: taken from the data."""
    if pos < len(items) and not isinstance(items[pos], str):
        x = items[pos]
        if isinstance(x, float) and (not math.isfinite(x) or x != math.floor(x)):
            raise error("MATLAB:sprintf:InvalidStarArg",
                        "Field width and precision taken from the data must be integers.")
        return str(int(x)), pos + 1
    return None, pos + 1


# Widest field or longest precision a conversion may ask for: a larger one
# would try to build gigabytes of padding.
MAX_FIELD = 2**24


def _field_size(text: str | None) -> None:
    if text and text.lstrip("-").isdigit() and int(text.lstrip("-")) > MAX_FIELD:
        raise error("MATLAB:sprintf:fieldTooLarge",
                    "Field width or precision is too large.")


def _convert(x: object, spec: Spec, flags: str, width: str, prec: str | None) -> str:
    conv = spec.conv
    _field_size(width)
    _field_size(prec)
    if isinstance(x, str):
        if conv == "c":
            return ("%" + flags + width + "s") % x
        return ("%" + flags + width + ("." + prec if prec is not None else "") + "s") % x
    return _num_text(x, flags, width, prec, conv)  # type: ignore[arg-type]


class Spec(NamedTuple):
    """One conversion of a format: where it is and its parts."""

    start: int
    end: int
    conv: str
    flags: str
    width: str
    prec: str | None


@functools.lru_cache(maxsize=512)
def _parsed_format(fmt: str) -> tuple[str, tuple[Spec, ...]]:
    """A format with its escapes processed, and its conversion specs (memoised: loops
    print with the same few formats over and over)."""
    text = unescape(fmt)
    return text, tuple(Spec(m.start(), m.end(), m.group("conv"), m.group("flags") or "",
                            m.group("width") or "", m.group("prec"))
                       for m in _SPEC.finditer(text))


# How a one-pass plan reads each argument: a whole number, any finite double, or text.
_PLAN_KIND = {"d": "whole", "i": "whole", "u": "whole", "x": "whole", "X": "whole",
              "f": "finite", "e": "finite", "E": "finite", "g": "finite", "G": "finite", "s": "text"}


@functools.lru_cache(maxsize=512)
def _one_pass_plan(fmt: str) -> tuple[str, tuple[str, ...]] | None:
    """A Python %-template and the kind of argument each conversion reads, for a format
    whose conversions are all plain (no * sizes, no %c, %o, no huge fields); None
    otherwise. With one argument per conversion, each a double or a char row of its
    kind, the template gives format_text's text (the same Python conversions)."""
    text, specs = _parsed_format(fmt)
    parts: list[str] = []
    kinds: list[str] = []
    cursor = 0
    for m in specs:
        parts.append(text[cursor:m.start].replace("%", "%%"))
        cursor = m.end
        if m.conv == "%":
            parts.append("%%")
            continue
        kind = _PLAN_KIND.get(m.conv)
        if kind is None or "*" in (m.width, m.prec) or any(
                f and int(f) > MAX_FIELD for f in (m.width, m.prec)):
            return None
        conv = "d" if m.conv in "diu" else m.conv
        prec = "." + m.prec if m.prec is not None else ""
        parts.append("%" + m.flags + m.width + prec + conv)
        kinds.append(kind)
    parts.append(text[cursor:].replace("%", "%%"))
    return "".join(parts), tuple(kinds)


@functools.lru_cache(maxsize=512)
def _row_format_plan(units: bytes) -> tuple[str, tuple[str, ...]] | None:
    """``_one_pass_plan`` of a char row format given by its UTF-16 code units (the
    array's bytes key the memo without decoding the format on every call)."""
    return _one_pass_plan(units.decode("utf-16-le", "surrogatepass"))


_ONE_WHOLE = ("whole",)  # the plan of a format with one integer conversion


def _plan_values(kinds: tuple[str, ...], args: tuple | list) -> tuple | None:
    """The Python values a one-pass plan formats, one per conversion; None when an
    argument is not a double or char row of its conversion's kind."""
    if len(args) == 1:  # the common sprintf('%d,', i): no list to build
        a = args[0]
        kind = kinds[0]
        if type(a) is float:
            if kind == "whole" and a.is_integer():
                return (int(a),)
            if kind == "finite" and a - a == 0.0:
                return (a,)
            return None
        if kind == "text" and type(a) is np.ndarray and a.dtype.kind == "V":
            return (char_text(a),)
        return None
    values: list = []
    for a, kind in zip(args, kinds, strict=True):
        if type(a) is float:
            if kind == "whole" and a.is_integer():
                values.append(int(a))
            elif kind == "finite" and a - a == 0.0:  # neither Inf nor NaN
                values.append(a)
            else:
                return None
        elif kind == "text" and type(a) is np.ndarray and a.dtype.kind == "V":
            values.append(char_text(a))
        else:
            return None
    return tuple(values)


def _one_pass(fmt: str, args: list) -> str | None:
    """format_text of a plain format with one double or char row per conversion (the
    common sprintf('%d,', i)); None when the general rules are needed."""
    plan = _one_pass_plan(fmt)
    if plan is None or len(args) != len(plan[1]):
        return None
    values = _plan_values(plan[1], args)
    return None if values is None else plan[0] % values


# Below this many numbers the per-item loop is as quick as the vectorised checks.
_ROUNDS_FROM = 64


def _whole_rounds(fmt: str, args: list) -> str | None:
    """format_text of a plain numeric format over real double arrays whose elements
    fill whole rounds of the format, each element of its conversion's kind: the
    template repeated once a round and filled in one % (None otherwise)."""
    plan = _one_pass_plan(fmt)
    if plan is None or not plan[1] or "text" in plan[1]:
        return None
    template, kinds = plan
    parts = []
    for a in args:
        if type(a) is float:
            parts.append(np.array([a]))
        elif type(a) is np.ndarray and a.dtype in FLOAT_DTYPES and a.size:
            parts.append(a.ravel(order="F"))
        else:
            return None
    flat = np.concatenate(parts).astype(np.float64, copy=False) if len(parts) > 1 else \
        parts[0].astype(np.float64, copy=False)
    k = len(kinds)
    if flat.size < _ROUNDS_FROM or flat.size % k or not np.isfinite(flat).all():
        return None
    whole = [j for j, kind in enumerate(kinds) if kind == "whole"]
    for j in whole:
        column = flat[j::k]
        if not (column == np.trunc(column)).all():
            return None
    values = flat.tolist()
    if whole:
        small = bool((np.abs(flat) < 2.0**53).all())  # exact as int64, converted at once
        ints = flat.astype(np.int64).tolist() if small else [int(x) for x in values]
        if len(whole) == k:
            values = ints
        else:
            for j in whole:
                values[j::k] = ints[j::k]
    return (template * (flat.size // k)) % tuple(values)


def _short_rounds(plan: tuple[str, tuple[str, ...]], args: tuple | list) -> str | None:
    """format_text of a plain numeric format, given by its one-pass plan, over double
    scalars and real double arrays of fewer than _ROUNDS_FROM elements in all that fill
    whole rounds of the format, each element of its conversion's kind (sprintf('%d,', v)):
    _whole_rounds's text, checked element by element; None otherwise."""
    template, kinds = plan
    if not kinds or "text" in kinds:
        return None
    values: list = []
    for a in args:
        if type(a) is float:
            values.append(a)
        elif type(a) is np.ndarray and a.dtype in FLOAT_DTYPES and 0 < a.size < _ROUNDS_FROM:
            values += a.ravel(order="F").tolist()
        else:
            return None
    k = len(kinds)
    if len(values) >= _ROUNDS_FROM or len(values) % k:
        return None
    for j, kind in enumerate(kinds):
        column = values[j::k] if k > 1 else values
        if kind == "whole":  # (is_integer is False for Inf and NaN)
            if not all(v.is_integer() for v in column):
                return None  # MATLAB switches to %e, or writes Inf/NaN
            values[j::k] = [int(v) for v in column]
        elif not all(v - v == 0.0 for v in column):  # Inf or NaN
            return None
    return (template * (len(values) // k)) % tuple(values)


def format_text(fmt: str, args: list) -> str:
    """MATLAB's sprintf: the format is reused until every argument is consumed;
    output stops right before the first conversion that finds no data left."""
    quick = _one_pass(fmt, args) if args else None
    if quick is None and args:
        quick = _whole_rounds(fmt, args)
        if quick is None:
            plan = _one_pass_plan(fmt)
            quick = None if plan is None else _short_rounds(plan, args)
    if quick is not None:
        return quick
    fmt, specs = _parsed_format(fmt)
    items = _flatten_args(args)
    if all(m.conv == "%" for m in specs):
        return _literal(fmt, specs)
    out: list[str] = []
    pos = 0
    while True:
        start = pos
        cursor = 0
        for m in specs:
            out.append(fmt[cursor:m.start])
            cursor = m.end
            conv = m.conv
            if conv == "%":
                out.append("%")
                continue
            flags = m.flags
            width: str | None = m.width
            prec = m.prec
            if width == "*":
                width, pos = _star(items, pos)
            if prec == "*":
                prec, pos = _star(items, pos)
            x = _next_item(items, pos, conv)
            if x is None:
                if items:  # data ran out: stop right before this conversion
                    return "".join(out)
                continue  # no data at all: conversions print nothing
            pos += 1
            out.append(_convert(x, m, flags, width or "", prec))
        out.append(fmt[cursor:])
        if pos >= len(items) or pos == start:
            return "".join(out)


def _text_arg(v: Any) -> str:
    if not is_text(v):
        raise error("MATLAB:sprintf:InvalidFormat", "Format must be a character vector or string.")
    return to_str(v)


def _file_id(v: Any) -> int:
    """fprintf's file identifier: 1 (standard output), 2 (standard error), or a file
    opened by fopen (an integer scalar; checked against the open files when written)."""
    if type(v) is float and v.is_integer():
        return int(v)
    if type(v) is np.ndarray and v.size == 1 and v.dtype.kind in "iuf" and float(v.item()).is_integer():
        return int(v.item())
    raise _invalid_fid()


def _invalid_fid() -> Exception:
    return error("MATLAB:FileIO:InvalidFid",
                 "Invalid file identifier. Use fopen to generate a valid file identifier.")


@builtin(interp=True, max_out=1, nargout=True, dl="data")
def fprintf(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """fprintf(format, A, ...) writes formatted text to the Command Window.

    fprintf(fileID, format, ...) writes to a file opened by fopen (in the file's
    encoding); fprintf(1, format, ...) writes to standard output, fprintf(2, ...) to
    standard error. The format is reused until all of A is written.
    nbytes = fprintf(...) also returns the number of bytes written."""
    fid = 1
    if args and not is_text(args[0]):
        fid = _file_id(args[0])
        args = args[1:]
    # files opened by fopen: the session's table (mlang/builtins/files/fileio.py)
    open_file = interp.family_state.get("files", {}).get(fid) if fid not in (1, 2) else None
    if fid not in (1, 2) and open_file is None:
        raise _invalid_fid()
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    text = format_text(_text_arg(args[0]), list(args[1:]))
    if open_file is not None:
        nbytes = open_file.write_text(text)
        return float(nbytes) if nargout else None
    if fid == 2:
        interp.out.flush()
        interp.err.write(text)
    else:
        interp.write(text)
    return float(len(text.encode("utf-8"))) if nargout else None


def _literal_format(literals: tuple) -> Any:
    """sprintf(format, x) with ``format`` a literal char row of one integer conversion (as
    '%d,'): a function giving the text of a whole double ``x`` at once, its format planned
    here, and NotImplemented for anything else (see Builtin.specialize)."""
    if len(literals) != 2:
        return None
    fmt = literals[0]
    if type(fmt) is not np.ndarray or fmt.dtype.kind != "V" or fmt.ndim != 2 or fmt.shape[0] != 1:
        return None
    plan = _row_format_plan(fmt.tobytes())
    if plan is None or plan[1] != _ONE_WHOLE:
        return None
    template = plan[0]

    def whole(args: list) -> Any:
        a = args[1]
        if type(a) is float and a.is_integer():
            text = template % int(a)
            if text:
                return text_row(text)
        return NotImplemented

    return whole


@builtin(max_out=2, nargout=True, dl="data", specialize=_literal_format)
def sprintf(fmt: Any, *args: Any, nargout: int = 1) -> Any:
    """str = sprintf(format, A, ...) formats data into a character vector (a string
    scalar when the format is a string). [str, errmsg] = sprintf(...) also returns
    an error message, empty when formatting succeeded."""
    text = None
    if type(fmt) is np.ndarray and fmt.dtype.kind == "V" and fmt.shape[0] == 1 and fmt.ndim == 2:
        # a char row format: its plan is found by its bytes, without decoding it
        plan = _row_format_plan(fmt.tobytes())
        if plan is not None and len(args) == len(plan[1]):
            template, kinds = plan
            a = args[0] if kinds == _ONE_WHOLE else None
            if type(a) is float and a.is_integer():  # sprintf('%d,', i): no tuple of values
                text = template % int(a)
            else:
                values = _plan_values(kinds, args)
                text = template % values if values is not None else _short_rounds(plan, args)
    if text is None:
        char_format = type(fmt) is np.ndarray and fmt.dtype.kind == "V"
        text = format_text(char_text(fmt) if char_format else _text_arg(fmt), list(args))
    if type(fmt) is StringArray:
        value: Any = StringArray.scalar(text)
    else:
        value = text_row(text) if text else np.zeros((1, 0), dtype=CHAR)
    return (value, np.zeros((1, 0), dtype=CHAR)) if nargout > 1 else value


@builtin(interp=True, max_out=0, dl="native")
def disp(interp: Any, x: Any) -> None:
    """disp(X) displays the value of X without printing its name."""
    interp.write(disp_text(interp, x))


@builtin(interp=True, max_out=0, dl="native")
def display(interp: Any, x: Any) -> None:
    """display(X) shows X as a statement without a semicolon would (named ans)."""
    interp.display("ans", x)
