"""The cells of delimited text files and spreadsheets, and what the readers and writers
share about them: finding and opening the file, its delimiter, the numbers in its fields,
and cell ranges.

A grid is a list of rows, each a list of cells: ``str`` (the text of a field as written,
quotes removed), ``float`` (a number read from a spreadsheet) or None (an empty field).
Text fields are read as numbers only by the reader that wants numbers (``number_of``), so a
text column keeps what was written ('007' stays '007').
"""

from __future__ import annotations

import codecs
import csv
import math
import os
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_list, text_or_none, text_scalar
from mlang.errors import error
from mlang.values.core import to_double_array

Grid = list[list[Any]]

TEXT_EXTENSIONS = (".txt", ".dat", ".csv", "")
SPREADSHEET_EXTENSIONS = (".xls", ".xlsx", ".xlsb", ".xlsm", ".xltm", ".xltx", ".ods")

# Delimiters tried in this order when none is given.
CANDIDATE_DELIMITERS = (",", "\t", ";", "|", " ")
DELIMITER_WORDS = {"comma": ",", "space": " ", "tab": "\t", "semi": ";", "bar": "|",
                   "\\t": "\t", "\\s": " "}

_PLAIN_ENDS = frozenset("0123456789.")
_NUMBER = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?|inf|nan)", re.IGNORECASE)


# ------------------------------------------------------------------ files


def not_found(name: str) -> Exception:
    return error("MATLAB:textio:textio:FileNotFound",
                 f"Unable to find or open '{name}'. Check the path and filename or file permissions.")


def readable_file(name: str) -> str:
    """The path of an existing, readable file (not a folder), or MATLAB's error."""
    if not name or not os.path.isfile(name) or not os.access(name, os.R_OK):
        raise not_found(name)
    return name


def file_kind(name: str, given: Any, id_prefix: str = "MATLAB:readtable") -> str:
    """'text' or 'spreadsheet': the FileType option, else from the file's extension."""
    if given is not None:
        kind = text_scalar(given, "FileType").lower()
        for option in ("text", "delimitedtext", "spreadsheet"):
            if kind and option.startswith(kind):
                return "spreadsheet" if option == "spreadsheet" else "text"
        raise error(f"{id_prefix}:UnrecognizedFileType",
                    f"'{kind}' is not a recognized file type.")
    ext = os.path.splitext(name)[1].lower()
    if ext in TEXT_EXTENSIONS:
        return "text"
    if ext in SPREADSHEET_EXTENSIONS:
        return "spreadsheet"
    raise error(f"{id_prefix}:UnrecognizedFileExtension",
                f"Unrecognized file extension '{ext}'. Use the 'FileType' parameter to specify "
                "the file type.")


def python_encoding(v: Any) -> str:
    """The Python codec of an Encoding option ('system' and 'UTF-8' are UTF-8)."""
    name = text_scalar(v, "Encoding")
    if name.lower() in ("system", "default", ""):
        return "utf-8"
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise error("MATLAB:textio:io:UnsupportedEncoding",
                    f"The encoding '{name}' is not supported.") from None


def read_text(path: str, encoding: str | None = None) -> str:
    """The text of a file (UTF-8 unless told otherwise; a byte-order mark is dropped)."""
    try:
        if encoding in (None, "utf-8"):
            encoding = "utf-8-sig"
        with open(path, encoding=encoding, errors="replace", newline="") as f:
            return f.read()
    except (OSError, LookupError):
        raise not_found(path) from None


# ------------------------------------------------------------- delimiters


def delimiter_option(v: Any) -> str | None:
    """A Delimiter option's character(s); a cell of several keeps the first (the reader
    splits on one)."""
    if v is None:
        return None
    text = text_or_none(v)
    if text is None:
        texts = text_list(v, "Delimiter")
        text = texts[0] if texts else ","
    return DELIMITER_WORDS.get(text.lower(), text.replace("\\t", "\t"))


def detect_delimiter(lines: list[str]) -> str:
    """The delimiter that splits the sample lines most consistently into several fields;
    ',' when none does."""
    sample = [ln for ln in lines if ln.strip()][:100]
    if not sample:
        return ","
    best, best_score = ",", 0.0
    for delim in CANDIDATE_DELIMITERS:
        counts = [len(_split_line(ln, delim)) for ln in sample]
        if max(counts) < 2:
            continue
        mode = max(set(counts), key=counts.count)
        if mode < 2:
            continue
        score = counts.count(mode) / len(counts)
        if score > best_score + 1e-12:
            best, best_score = delim, score
    return best


def _split_line(line: str, delim: str) -> list[str]:
    if delim == " ":
        return line.split()
    return next(csv.reader([line], delimiter=delim, skipinitialspace=True), [])


# ------------------------------------------------------------------ grids


def number_of(cell: Any) -> float | None:
    """The number in a cell: a spreadsheet number, or a text field that is a number."""
    if type(cell) is float:
        return cell
    if type(cell) is str:
        try:
            x = float(cell)  # the common case first; what float reads beyond MATLAB is checked
        except ValueError:
            x = None
        if x is not None and cell[-1] in _PLAIN_ENDS and "_" not in cell and cell.isascii():
            return x
        if _NUMBER.fullmatch(cell):
            return float(cell.replace("d", "e").replace("D", "e"))
    return None


def cell_text(cell: Any) -> str:
    """The text of a cell as written in a text column ('' for an empty one)."""
    if cell is None:
        return ""
    if type(cell) is float:
        return number_text(cell)
    return str(cell)


def number_text(x: float, digits: int = 15) -> str:
    """A number as MATLAB's long g writes it in a file (NaN, Inf, -Inf by name)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    return f"{x:.{digits}g}"


def width(grid: Grid) -> int:
    return max((len(r) for r in grid), default=0)


def padded(grid: Grid) -> Grid:
    """Every row as long as the longest, filled with empty cells."""
    n = width(grid)
    return [r + [None] * (n - len(r)) for r in grid]


# ------------------------------------------------------------------ ranges


@dataclass(slots=True)
class CellRange:
    """Rows and columns to read, zero-based; a stop of None runs to the end."""

    row0: int = 0
    col0: int = 0
    row1: int | None = None
    col1: int | None = None

    def apply(self, grid: Grid) -> Grid:
        stop_row = None if self.row1 is None else self.row1 + 1
        stop_col = None if self.col1 is None else self.col1 + 1
        return [r[self.col0:stop_col] for r in grid[self.row0:stop_row]]


def _column_number(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - ord("A") + 1
    return n - 1


_BAD_RANGE = ("MATLAB:textio:io:InvalidRange",
              "Range must be a character vector or string scalar in Excel notation ('A1', 'A1:C5', "
              "'A:C' or '1:3') or a numeric vector [row col] or [r1 c1 r2 c2].")


def parse_range(v: Any) -> CellRange:
    """A Range option: 'A1' (the start), 'A1:C5', 'A:C' (columns), '2:5' (rows), 'A1..C5',
    or numbers [row col] / [r1 c1 r2 c2] (one-based)."""
    text = text_or_none(v)
    if text is None:
        try:
            a = to_double_array(v).reshape(-1)
        except Exception:
            raise error(*_BAD_RANGE) from None
        if a.size not in (2, 4) or not np.all(np.isfinite(a)) or np.any(a < 1) or np.any(a % 1):
            raise error(*_BAD_RANGE)
        r = [int(x) - 1 for x in a]
        return CellRange(r[0], r[1], *(r[2:] if len(r) == 4 else (None, None)))
    text = text.strip().replace("..", ":")
    # rows are numbered from 1: 'A0' is no cell
    if m := re.fullmatch(r"([A-Za-z]+)([1-9]\d*)(?::([A-Za-z]+)([1-9]\d*))?", text):
        start = CellRange(int(m[2]) - 1, _column_number(m[1]))
        if m[3]:
            start.row1, start.col1 = int(m[4]) - 1, _column_number(m[3])
        return start
    if m := re.fullmatch(r"([A-Za-z]+):([A-Za-z]+)", text):
        return CellRange(0, _column_number(m[1]), None, _column_number(m[2]))
    if m := re.fullmatch(r"([1-9]\d*):([1-9]\d*)", text):
        return CellRange(int(m[1]) - 1, 0, int(m[2]) - 1, None)
    raise error(*_BAD_RANGE)


def column_letters(col: int) -> str:
    """The spreadsheet letters of a zero-based column number."""
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters
