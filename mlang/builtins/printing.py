"""Printing: disp, display, fprintf, sprintf (MATLAB's format rules)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from mlang.builtins.registry import builtin
from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, is_text, to_str
from mlang.values.string import StringArray

_SPEC = re.compile(r"%(?P<flags>[-+ 0#]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
                   r"(?P<conv>[diouxXfeEgGcs%])")
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
        if type(a) is np.ndarray and a.dtype.kind == "U":
            items.append(to_str(a) if a.ndim == 2 and a.shape[0] <= 1 else
                         "".join(a.ravel(order="F").tolist()))
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


def _num_text(x: float | int, flags: str, width: str, prec: str | None, conv: str) -> str:
    spec = "%" + flags + width + ("." + prec if prec is not None else "")
    if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
        text = "NaN" if x != x else ("Inf" if x > 0 else "-Inf")
        if x == x and x > 0 and "+" in flags:
            text = "+Inf"
        return ("%" + flags.replace("0", "") + width + "s") % text
    if conv in "diu":
        if isinstance(x, float) and not x.is_integer():
            return (spec + "e") % x  # MATLAB shows non-integers given to %d in %e form
        return (spec + "d") % int(x)
    if conv in "oxX":
        if isinstance(x, float) and not x.is_integer():
            return (spec + "e") % x
        return (spec + conv) % int(x)
    if conv == "c":
        return ("%" + flags + width + "s") % chr(int(x))
    return (spec + conv) % x


def format_text(fmt: str, args: list) -> str:
    """MATLAB's sprintf: the format is reused until every argument is consumed."""
    fmt = unescape(fmt)
    items = _flatten_args(args)
    specs = list(_SPEC.finditer(fmt))
    consuming = [m for m in specs if m.group("conv") != "%"]
    if not consuming:
        return fmt
    out: list[str] = []
    pos = 0
    first = True
    while first or pos < len(items):
        first = False
        cursor = 0
        for m in specs:
            out.append(fmt[cursor:m.start()])
            cursor = m.end()
            conv = m.group("conv")
            if conv == "%":
                out.append("%")
                continue
            flags = m.group("flags") or ""
            width = m.group("width") or ""
            prec = m.group("prec")
            if width == "*":
                width = str(int(items[pos])) if pos < len(items) else ""
                pos += 1
            if prec == "*":
                prec = str(int(items[pos])) if pos < len(items) else None
                pos += 1
            if pos >= len(items):
                if items:  # data ran out: stop right before this conversion
                    return "".join(out)
                continue  # no data at all: conversions print nothing

            x = items[pos]
            pos += 1
            if conv == "s":
                if isinstance(x, str):
                    text = x
                elif isinstance(x, float) and not x.is_integer():
                    text = _shortest(x)
                else:
                    text = chr(int(x)) if isinstance(x, (int, float)) and x == x else str(x)
                out.append(("%" + flags + width + ("." + prec if prec else "") + "s") % text)
            elif isinstance(x, str):
                if conv == "c":
                    out.append(("%" + flags + width + "s") % x)
                else:
                    # a text argument to a numeric conversion: its characters, one at a time
                    codes = [float(ord(ch)) for ch in x]
                    items[pos - 1:pos] = codes
                    if not codes:
                        continue
                    out.append(_num_text(codes[0], flags, width, prec, conv))
            else:
                out.append(_num_text(x, flags, width, prec, conv))
        out.append(fmt[cursor:])
        if not items:
            break
    return "".join(out)


def _shortest(x: float) -> str:
    text = f"{x:.15g}"
    if "e" in text:
        mant, exp = text.split("e")
        sign = exp[0] if exp[0] in "+-" else "+"
        digits = exp.lstrip("+-").rjust(2, "0")
        return f"{mant}e{sign}{digits}"
    return text


def _text_arg(v: Any) -> str:
    if not is_text(v):
        raise error("MATLAB:sprintf:InvalidFormat", "Format must be a character vector or string.")
    return to_str(v)


@builtin(interp=True, max_out=1)
def fprintf(interp: Any, *args: Any) -> Any:
    """fprintf(format, A, ...) writes formatted text to the Command Window.

    fprintf(1, format, ...) writes to standard output, fprintf(2, ...) to
    standard error. The format is reused until all of A is written."""
    fid = 1
    if args and not is_text(args[0]):
        fid = int(args[0]) if type(args[0]) is float else int(np.asarray(args[0]).reshape(-1)[0])
        args = args[1:]
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    text = format_text(_text_arg(args[0]), list(args[1:]))
    if fid == 2:
        interp.out.flush()
        interp.err.write(text)
    else:
        interp.write(text)
    return None


@builtin(max_out=1)
def sprintf(fmt: Any, *args: Any) -> Any:
    """str = sprintf(format, A, ...) formats data into a character vector."""
    text = format_text(_text_arg(fmt), list(args))
    if type(fmt) is StringArray:
        return StringArray.scalar(text)
    return char_row(text) if text else np.zeros((1, 0), dtype="<U1")


@builtin(interp=True, max_out=0)
def disp(interp: Any, x: Any) -> None:
    """disp(X) displays the value of X without printing its name."""
    from mlang.display import disp_text

    interp.write(disp_text(interp, x))


@builtin(interp=True, max_out=0)
def display(interp: Any, x: Any) -> None:
    """display(X) shows X as a statement without a semicolon would (named ans)."""
    interp.display("ans", x)
