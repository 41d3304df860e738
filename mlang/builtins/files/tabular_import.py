"""importdata: the numbers of a text file or spreadsheet with the text around them (a
matrix, or a struct with data, textdata, colheaders and rowheaders); images and
MAT-files go to imread and load."""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from mlang.builtins.coerce import integer_scalar, text_scalar
from mlang.builtins.files.spreadsheet import read_sheet
from mlang.builtins.files.tabular_text import (
    DELIMITER_WORDS,
    SPREADSHEET_EXTENSIONS,
    Grid,
    cell_text,
    detect_delimiter,
    number_of,
    padded,
    read_text,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_row, result
from mlang.values.struct import Struct

IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".pbm", ".pgm", ".ppm")


def _cellstr(rows: list[list[str]]) -> Cell:
    shape = (len(rows), max((len(r) for r in rows), default=0))
    data = np.empty(shape, dtype=object)
    for i, r in enumerate(rows):
        for j in range(shape[1]):
            data[i, j] = char_row(r[j] if j < len(r) else "")
    return Cell(data)


def _split(line: str, delim: str) -> list[str]:
    if delim == " ":
        return line.split()
    return [f.strip().strip('"') for f in line.split(delim)]


def _numeric_fields(fields: list[str]) -> tuple[str | None, list[float]] | None:
    """A data line's row header (a leading text field, or None) and numbers; None when the
    line is not a line of numbers."""
    head = None
    if fields and fields[0] and number_of(fields[0]) is None:
        head, fields = fields[0], fields[1:]
    numbers = [number_of(f) if f else math.nan for f in fields]
    if not fields or any(x is None for x in numbers) or all(not f for f in fields):
        return None
    return head, numbers  # type: ignore[return-value]


def import_text(text: str, delim: str | None, header_lines: int | None) -> tuple[Any, str, int]:
    """importdata's result for a text file, its delimiter and its number of header lines."""
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if delim is None:
        delim = detect_delimiter(lines[header_lines or 0:])
        if delim == "," and not any("," in ln for ln in lines):
            delim = " "
    start = header_lines
    if start is None:
        start = next((k for k, ln in enumerate(lines) if _numeric_fields(_split(ln, delim))), len(lines))
    if start >= len(lines):  # no numbers: the lines of text
        return _lines_cell(lines), delim, 0
    rows: list[list[float]] = []
    row_heads: list[str] = []
    for line in lines[start:]:
        parsed = _numeric_fields(_split(line, delim)) if line.strip() else None
        if parsed is None:
            if not line.strip():
                continue
            break
        head, numbers = parsed
        if head is not None:
            row_heads.append(head)
        rows.append(numbers)
    if not rows:  # the line after the header lines is text: no numeric data
        return _lines_cell(lines), delim, header_lines or 0
    width = max(len(r) for r in rows)
    data = np.array([r + [math.nan] * (width - len(r)) for r in rows], dtype=np.float64)
    header = lines[:start]
    if not header and not row_heads:
        return result(data), delim, 0
    fields: dict[str, Any] = {"data": result(data)}
    text_rows = [_split(h, delim) for h in header]
    columns = width + (1 if row_heads else 0)
    textdata = [f if len(f) == columns else [h] for f, h in zip(text_rows, header, strict=True)]
    if row_heads:
        textdata += [[r] for r in row_heads]
    fields["textdata"] = _cellstr(textdata)
    if text_rows and len(text_rows[-1]) in (width, columns) and len(text_rows[-1]) > 1 or \
            text_rows and width == 1 and len(text_rows[-1]) == 1:
        last = text_rows[-1]
        fields["colheaders"] = _cellstr([last[-width:]])
    if row_heads:
        fields["rowheaders"] = _cellstr([[r] for r in row_heads])
    return Struct.scalar(fields), delim, len(header)


def _lines_cell(lines: list[str]) -> Cell:
    kept = [ln for ln in lines if ln.strip()]
    data = np.empty((len(kept), 1), dtype=object)
    for k, ln in enumerate(kept):
        data[k, 0] = char_row(ln)
    return Cell(data)


def import_sheet(grid: Grid) -> Any:
    """importdata's result for a spreadsheet: the numbers, and the text above them."""
    grid = padded(grid)
    heads = 0
    while heads < len(grid) and all(number_of(c) is None for c in grid[heads]):
        heads += 1
    body = grid[heads:]
    if not body:
        return _cellstr([[cell_text(c) for c in r] for r in grid])
    data = np.array([[math.nan if number_of(c) is None else number_of(c) for c in r] for r in body])
    numeric = [k for k in range(data.shape[1]) if not np.all(np.isnan(data[:, k]))]
    data = data[:, numeric[0]:numeric[-1] + 1]  # text columns at the sides are not data
    texts = [["" if number_of(c) is not None else cell_text(c) for c in r] for r in grid]
    if not heads and not any(t for r in texts for t in r):
        return result(data)
    fields = {"data": result(data), "textdata": _cellstr(texts)}
    if heads:
        fields["colheaders"] = _cellstr([texts[heads - 1][numeric[0]:numeric[-1] + 1]])
    return Struct.scalar(fields)


@builtin(interp=True, nargout=True, max_out=3)
def importdata(interp: Any, filename: Any, delimiter: Any = None, header_lines: Any = None, *,
               nargout: int = 1) -> Any:
    """importdata  Load data from file.
    A = importdata(filename) reads a text file of numbers into a matrix; when text
    lines head the numbers, A is a struct with fields data, textdata and colheaders
    (and rowheaders for a leading text column).  A file of text only gives a cell
    array of its lines.  Spreadsheets give their numbers and header text, images
    their pixels (imread), MAT-files their variables (load).
    A = importdata(filename, delimiter, headerlines) uses that delimiter and number
    of header lines.  [A, delimiter, headerlines] = importdata(...) also returns
    the delimiter and number of header lines found.

    See also readmatrix, readtable, load."""
    name = text_scalar(filename, "Filename")
    if not os.path.isfile(name):
        raise error("MATLAB:importdata:FileNotFound", "Unable to open file.")
    ext = os.path.splitext(name)[1].lower()
    if ext in IMAGE_EXTENSIONS and "imread" in interp.builtins:
        return interp.builtins["imread"].call(interp, [filename], 1)[0]
    if ext == ".mat" and "load" in interp.builtins:
        return interp.builtins["load"].call(interp, [filename], 1)[0]
    if ext in SPREADSHEET_EXTENSIONS:
        out = import_sheet(read_sheet(name))
        return (out, char_row(""), 0.0)[:nargout] if nargout > 1 else out
    delim = None
    if delimiter is not None:
        text = text_scalar(delimiter, "Delimiter")
        delim = DELIMITER_WORDS.get(text, text.replace("\\t", "\t")) if text else None
    skip = None
    if header_lines is not None:
        skip = integer_scalar(header_lines, "The number of header lines must be a nonnegative integer.",
                              "MATLAB:importdata:InvalidHeaderLines")
        if skip < 0:
            raise error("MATLAB:importdata:InvalidHeaderLines",
                        "The number of header lines must be a nonnegative integer.")
    out, found, heads = import_text(read_text(name), delim, skip)
    if nargout <= 1:
        return out
    return (out, char_row(found), float(heads))[:nargout]
