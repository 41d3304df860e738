"""The older readers and writers of delimited numbers: csvread, csvwrite, dlmread,
dlmwrite, and importdata (numbers, with their header text, from text files and
spreadsheets; images and MAT-files through imread and load)."""

from __future__ import annotations

import math
import os
import re
from typing import Any

import numpy as np

from mlang.builtins.coerce import integer_scalar, text_or_none, text_scalar
from mlang.builtins.files.delimited_write import write_text
from mlang.builtins.files.tabular_text import (
    DELIMITER_WORDS,
    CellRange,
    detect_delimiter,
    number_of,
    parse_range,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, char_rows, class_of, result, to_double_array
from mlang.values.limits import MAX_ELEMENTS, check_array_size, too_many_elements

_COMPLEX = re.compile(r"([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)?([+-](?:\d+\.?\d*|\.\d+)?"
                      r"(?:[eE][+-]?\d+)?)[ij]")


# ------------------------------------------------------------------ dlmread


def _escaped_delimiter(text: str) -> str:
    """A delimiter as given to dlmread/dlmwrite: '\\t' is a tab, '' is none."""
    return DELIMITER_WORDS.get(text, text.replace("\\t", "\t").replace("\\n", "\n"))


def _split(line: str, delim: str) -> list[str]:
    if delim in (" ", ""):
        return line.split()
    return [f.strip() for f in line.split(delim)]


def _dlm_number(field: str, row: int, col: int) -> float | complex:
    """A field of dlmread: a number, 0 when empty, else textscan's mismatch error."""
    if not field:
        return 0.0
    x = number_of(field)
    if x is not None:
        return x
    m = _COMPLEX.fullmatch(field)
    if m:
        imag = m[2] if m[2] not in ("+", "-") else m[2] + "1"
        return complex(float(m[1] or 0.0), float(imag))
    raise error("MATLAB:textscan:handleErrorAndShowInfo",
                "Mismatch between file and format character vector.\nTrouble reading 'Numeric' field "
                f"from file (row number {row}, field number {col}) ==> {field}\n")


def _dlm_range(v: Any) -> CellRange:
    """dlmread's range: [R1 C1 R2 C2] counted from 0, or spreadsheet notation 'A1..B7'."""
    if text_or_none(v) is not None:
        return parse_range(v)
    a = to_double_array(v).reshape(-1)
    if a.size != 4 or np.any(a < 0) or np.any(a % 1):
        raise error("MATLAB:dlmread:InvalidRange",
                    "Range must be a numeric vector [R1 C1 R2 C2] or spreadsheet notation 'A1..B7'.")
    r = [int(x) for x in a]
    return CellRange(r[0], r[1], r[2], r[3])


def read_numbers(path: str, delim: str | None, region: CellRange) -> np.ndarray:
    """The numbers of a delimited file inside ``region`` (empty fields read as 0)."""
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        raise error("MATLAB:dlmread:FileNotOpened", f"Could not open file {path}.") from None
    if delim is None:
        delim = detect_delimiter(lines)
        if delim == "," and not any("," in ln for ln in lines):
            delim = " "
    stop = None if region.row1 is None else region.row1 + 1
    rows = []
    for k, line in enumerate(lines[region.row0:stop]):
        if not line.strip():
            continue
        fields = _split(line, delim)
        end = None if region.col1 is None else region.col1 + 1
        rows.append([_dlm_number(f, region.row0 + k + 1, region.col0 + j + 1)
                     for j, f in enumerate(fields[region.col0:end])])
    n = max((len(r) for r in rows), default=0)
    if region.col1 is not None and rows:
        n = region.col1 - region.col0 + 1
    kind = complex if any(type(x) is complex for r in rows for x in r) else float
    out = np.zeros((len(rows), n), dtype=kind)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r[:n]
    return out


@builtin()
def dlmread(filename: Any, delimiter: Any = None, r1: Any = None, c1: Any = None,
            range_: Any = None) -> Any:
    """dlmread  Read ASCII-delimited file of numeric data into matrix.
    M = dlmread(filename) reads the numbers of a delimited file (the delimiter is
    found from the file); empty fields read as 0.
    M = dlmread(filename, delimiter) uses that delimiter ('\\t' for a tab).
    M = dlmread(filename, delimiter, R1, C1) starts at row R1 and column C1 (counted
    from 0).  M = dlmread(filename, delimiter, [R1 C1 R2 C2]) reads that range
    ('A1..B7' spreadsheet notation is also accepted).

    See also dlmwrite, csvread, readmatrix."""
    name = text_scalar(filename, "Filename")
    if not os.path.isfile(name):
        raise error("MATLAB:dlmread:FileNotOpened", f"Could not open file {name}.")
    delim = None
    if delimiter is not None:
        text = text_scalar(delimiter, "Delimiter")
        delim = _escaped_delimiter(text) if text else None
    region = CellRange()
    if r1 is not None and c1 is None:
        region = _dlm_range(r1)
    elif r1 is not None:
        region = CellRange(_offset(r1), _offset(c1))
        if range_ is not None:
            region = _dlm_range(range_)
    return result(read_numbers(name, delim, region))


def _offset(v: Any) -> int:
    message = "Row and column offsets must be nonnegative integers."
    n = integer_scalar(v, message, "MATLAB:dlmread:InvalidOffset")
    if n < 0:
        raise error("MATLAB:dlmread:InvalidOffset", message)
    if n > MAX_ELEMENTS:
        raise too_many_elements()
    check_array_size((n, 1), np.uint8)  # the blank lines or separators written before the data
    return n


@builtin()
def csvread(filename: Any, r1: Any = None, c1: Any = None, range_: Any = None) -> Any:
    """csvread  Read comma-separated value file.
    M = csvread(filename) reads the numbers of a comma-separated file; empty fields
    read as 0.  M = csvread(filename, R1, C1) starts at row R1 and column C1 (counted
    from 0); M = csvread(filename, R1, C1, [R1 C1 R2 C2]) reads that range.

    See also csvwrite, dlmread, readmatrix."""
    name = text_scalar(filename, "Filename")
    if not os.path.isfile(name):
        raise error("MATLAB:csvread:FileNotFound", "File not found.")
    if r1 is not None and c1 is None:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    region = CellRange() if r1 is None else CellRange(_offset(r1), _offset(c1))
    if range_ is not None:
        region = _dlm_range(range_)
    return result(read_numbers(name, ",", region))


# ------------------------------------------------------------------ dlmwrite

_DLMWRITE_NAMES = ("delimiter", "newline", "roffset", "coffset", "precision")


def _format_number(x: Any, precision: str, integer: bool) -> str:
    if type(x) is complex:
        re_, im = _format_number(x.real, precision, integer), _format_number(abs(x.imag), precision, integer)
        return f"{re_}{'-' if x.imag < 0 else '+'}{im}i"
    if integer:
        return str(int(x))
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    try:
        return precision % x
    except (TypeError, ValueError):
        raise error("MATLAB:dlmwrite:InvalidPrecision", f"Invalid precision '{precision}'.") from None


def _precision(v: Any) -> str:
    text = text_or_none(v)
    if text is not None:
        if not text.startswith("%"):
            raise error("MATLAB:dlmwrite:InvalidPrecision",
                        "Precision must be a positive integer or a format starting with %.")
        return text
    message = "Precision must be a positive integer or a format starting with %."
    digits = integer_scalar(v, message, "MATLAB:dlmwrite:InvalidPrecision")
    if digits < 1:
        raise error("MATLAB:dlmwrite:InvalidPrecision", message)
    return f"%.{digits}g"


def _dlmwrite_arguments(args: tuple) -> dict[str, Any]:
    rest = [a for a in args if (text_or_none(a) or "").lower() != "-append"]
    found: dict[str, Any] = {"append": len(rest) != len(args)}
    if rest and text_or_none(rest[0]) is not None and text_or_none(rest[0]).lower() not in _DLMWRITE_NAMES:
        found["delimiter"] = rest.pop(0)
        if len(rest) >= 2 and text_or_none(rest[0]) is None:
            found["roffset"], found["coffset"] = rest.pop(0), rest.pop(0)
    if len(rest) % 2:
        raise error("MATLAB:dlmwrite:InvalidArguments", "Parameter names must be followed by values.")
    for k in range(0, len(rest), 2):
        word = (text_or_none(rest[k]) or "").lower()
        if word not in _DLMWRITE_NAMES:
            raise error("MATLAB:dlmwrite:UnrecognizedOption",
                        f"Invalid attribute tag: {text_or_none(rest[k]) or ''}.")
        found[word] = rest[k + 1]
    return found


@builtin()
def dlmwrite(filename: Any, m: Any, *args: Any) -> None:
    """dlmwrite  Write matrix to ASCII-delimited file.
    dlmwrite(filename, M) writes M with commas between values, numbers with 5
    significant digits.  dlmwrite(filename, M, '-append') adds to the end of the file.
    dlmwrite(filename, M, delimiter, R, C) starts after R empty rows and C empty
    columns.  dlmwrite(filename, M, Name, Value) takes 'delimiter', 'newline' ('pc'
    or 'unix'), 'roffset', 'coffset' and 'precision' (digits, or a format like
    '%.3f').

    See also dlmread, csvwrite, writematrix."""
    name = text_scalar(filename, "Filename")
    given = _dlmwrite_arguments(args)
    delim = _escaped_delimiter(text_scalar(given.get("delimiter", char_row(",")), "Delimiter")) \
        if "delimiter" in given else ","
    newline = "\n"
    if "newline" in given:
        word = text_scalar(given["newline"], "newline").lower()
        if word not in ("pc", "unix"):
            raise error("MATLAB:dlmwrite:InvalidNewline", "The newline must be 'pc' or 'unix'.")
        newline = "\r\n" if word == "pc" else "\n"
    roff = _offset(given["roffset"]) if "roffset" in given else 0
    coff = _offset(given["coffset"]) if "coffset" in given else 0
    precision = _precision(given["precision"]) if "precision" in given else "%.5g"
    text = dlm_text(m, delim, newline, roff, coff, precision)
    write_text(name, text, given["append"], "MATLAB:dlmwrite")


def dlm_text(m: Any, delim: str, newline: str, roff: int, coff: int, precision: str) -> str:
    """The text dlmwrite writes for M."""
    if type(m) is np.ndarray and m.dtype.kind == "V":
        rows = [list(row) for row in char_rows(m)]
    elif type(m) in (float, bool, complex, np.ndarray):
        a = np.asarray(m)
        a = a.reshape(1, 1) if a.ndim == 0 else a.reshape(a.shape[0], int(np.prod(a.shape[1:])), order="F")
        integer = a.dtype.kind in "iub"
        rows = [[_format_number(x, precision, integer) for x in row] for row in a.tolist()]
    else:
        raise error("MATLAB:dlmwrite:InputNotNumeric",
                    f"Input must be a numeric or char array, not a {class_of(m)}.")
    ncols = max((len(r) for r in rows), default=0)
    lines = [delim * (ncols + coff - 1)] * roff if rows else []
    lines += [delim * coff + delim.join(r) for r in rows]
    return "".join(line + newline for line in lines)


@builtin()
def csvwrite(filename: Any, m: Any, r: Any = None, c: Any = None) -> None:
    """csvwrite  Write comma-separated value file.
    csvwrite(filename, M) writes M with commas between values, numbers with 5
    significant digits.  csvwrite(filename, M, R, C) starts after R empty rows and C
    empty columns.

    See also csvread, dlmwrite, writematrix."""
    name = text_scalar(filename, "Filename")
    roff = 0 if r is None else _offset(r)
    coff = 0 if c is None else _offset(c)
    write_text(name, dlm_text(m, ",", "\n", roff, coff, "%.5g"), False, "MATLAB:csvwrite")
