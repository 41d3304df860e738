"""writetable, writematrix and writecell: tables, arrays and cell arrays to delimited text
files and spreadsheets.  Every write replaces the file only when it succeeded whole."""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, options, text_or_none, text_scalar
from mlang.builtins.data.missing_values import MissingArray
from mlang.builtins.files.atomic import atomic_file, os_reason
from mlang.builtins.files.spreadsheet import write_sheet
from mlang.builtins.files.tabular_text import (
    Grid,
    delimiter_option,
    file_kind,
    number_text,
    parse_range,
    python_encoding,
)
from mlang.errors import error, running_interpreter
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_rows, char_text, class_of
from mlang.values.string import StringArray
from mlang.values.table import Table

WRITE_OPTIONS = ("FileType", "Delimiter", "WriteMode", "QuoteStrings", "Sheet", "Range", "Encoding",
                 "LineEnding")
TABLE_WRITE_OPTIONS = (*WRITE_OPTIONS, "WriteVariableNames", "WriteRowNames")
TEXT_MODES = ("overwrite", "append")
SHEET_MODES = ("inplace", "overwritesheet", "append", "replacefile")


class Number(float):
    """A number cell that is written with ``digits`` significant digits (single: 7)."""

    digits = 15


class Single(Number):
    digits = 7


class ComplexNumber(complex):
    pass


# ------------------------------------------------------------ cells of values


def _number_cells(a: np.ndarray) -> list[list[Any]]:
    """The rows of a numeric or logical matrix as cells."""
    if a.dtype.kind == "c":
        return [[ComplexNumber(x) for x in row] for row in a.tolist()]
    kind = Single if a.dtype == np.float32 else Number
    return [[kind(x) for x in row] for row in a.astype(np.float64).tolist()]


def as_matrix(v: Any) -> np.ndarray:
    """A value as a 2-D array (more dimensions fold into columns, as A(:,:))."""
    a = np.asarray(v) if not isinstance(v, np.ndarray) else v
    if a.ndim == 0:
        a = a.reshape(1, 1)
    if a.ndim > 2:
        a = a.reshape(a.shape[0], -1, order="F")
    return a


def _text_of(v: Any) -> str | None:
    return text_or_none(v)


def scalar_cell(v: Any, what: str) -> Any:
    """One cell of a cell array or table as a written cell: a number, a text, or None."""
    if type(v) in (float, bool, int):
        return Number(float(v))
    if type(v) is complex:
        return ComplexNumber(v)
    if type(v) is MissingArray:
        return None
    text = _text_of(v)
    if text is not None:
        return text
    if type(v) is StringArray and v.data.size == 1:
        return None  # a missing string
    if type(v) is np.ndarray and v.dtype.kind != "V":
        if v.size == 0:
            return None
        if v.size == 1:
            return _number_cells(v.reshape(1, 1))[0][0]
    converted = _as_strings(v)
    if converted is not None and converted.data.size == 1:
        return converted.data.reshape(-1)[0]
    raise error("MATLAB:table:write:UnsupportedType",
                f"{what} contains a value of type '{class_of(v)}' that cannot be written.")


def _as_strings(v: Any) -> StringArray | None:
    """Values of other classes (datetime, duration, categorical...) through string()."""
    interp = running_interpreter()
    convert = interp.builtins.get("string") if interp is not None else None
    if convert is None:
        return None
    try:
        out = convert.call(interp, [v], 1)[0]
    except Exception:
        return None
    return out if type(out) is StringArray else None


def value_columns(v: Any, height: int, what: str) -> list[list[Any]]:
    """The written columns of one table variable (each a list of ``height`` cells)."""
    if type(v) is np.ndarray and v.dtype.kind == "V":
        return [[r for r in char_rows(v)]] if v.shape[0] == height else [[char_text(v)]]
    if type(v) is np.ndarray or type(v) in (float, bool, complex):
        rows = _number_cells(as_matrix(v))
    elif type(v) is Cell:
        rows = [[scalar_cell(x, what) for x in row] for row in as_matrix(v.data).tolist()]
    elif type(v) is StringArray:
        rows = [[x for x in row] for row in as_matrix(v.data).tolist()]
    else:
        converted = _as_strings(v)
        if converted is None:
            raise error("MATLAB:table:write:UnsupportedType",
                        f"Unable to write a variable of type '{class_of(v)}' to a file.")
        rows = [[x for x in row] for row in as_matrix(converted.data).tolist()]
    # a variable with no rows still has its columns (their names are written)
    ncols = len(rows[0]) if rows else math.prod(getattr(v, "shape", (1, 1))[1:])
    return [[row[k] for row in rows] for k in range(ncols)]


def table_grid(t: Table, names: bool, row_names: bool) -> Grid:
    """A table's cells, header row first when ``names``."""
    height = t.variables[0].shape[0] if t.variables else len(t.row_names or [])
    columns: list[list[Any]] = []
    header: list[Any] = []
    if row_names and t.row_names is not None:
        columns.append(list(t.row_names))
        header.append("Row")
    for name, v in zip(t.names, t.variables, strict=True):
        cols = value_columns(v, height, f"Variable '{name}'")
        columns.extend(cols)
        header.extend([name] if len(cols) == 1 else [f"{name}_{k + 1}" for k in range(len(cols))])
    grid = [[col[i] for col in columns] for i in range(height)]
    return [header, *grid] if names else grid


# ------------------------------------------------------------ text output


def _quote_rule(v: Any) -> str:
    if v is None:
        return "minimal"
    word = text_or_none(v)
    if word is not None and word.lower() in ("minimal", "all", "none"):
        return word.lower()
    return "all" if option_flag(v, "QuoteStrings") else "none"


def field_text(cell: Any, delim: str, quoting: str, header: bool = False) -> str:
    """A cell as written in a delimited file."""
    if type(cell) is Number:
        return number_text(cell)
    if cell is None:
        return ""
    if isinstance(cell, ComplexNumber):
        re, im = number_text(cell.real), number_text(abs(cell.imag))
        return f"{re}{'-' if cell.imag < 0 else '+'}{im}i"
    if isinstance(cell, Number):
        return number_text(float(cell), cell.digits)
    text = str(cell)
    special = delim in text or '"' in text or "\n" in text or "\r" in text
    if quoting == "all" and not header or quoting == "minimal" and special:
        return '"' + text.replace('"', '""') + '"'
    return text


def _sheet_value(cell: Any) -> Any:
    if isinstance(cell, ComplexNumber):
        return field_text(cell, ",", "none")
    if isinstance(cell, Number):
        return float(cell)
    return cell


def grid_text(grid: Grid, delim: str, quoting: str, header_rows: int = 0, newline: str = "\n") -> str:
    lines = [delim.join(field_text(c, delim, quoting, k < header_rows) for c in row)
             for k, row in enumerate(grid)]
    return "".join(line + newline for line in lines)


def write_text(path: str, text: str, append: bool, id_prefix: str, encoding: str = "utf-8") -> None:
    """Write (or append) text; the file changes only when the write succeeded."""
    try:
        before = b""
        if append and os.path.isfile(path):
            with open(path, "rb") as f:
                before = f.read()
            if before and not before.endswith(b"\n"):
                before += b"\n"
        with atomic_file(path, "wb") as f:
            f.write(before + text.encode(encoding, errors="replace"))
    except OSError as exc:
        raise error(f"{id_prefix}:FileOpenError",
                    f"Unable to open file '{path}' for writing: {os_reason(exc)}.") from None


def target_name(filename: Any) -> str:
    """The file to write: a name without an extension gets '.txt'."""
    name = text_scalar(filename, "Filename")
    if not os.path.splitext(name)[1]:
        name += ".txt"
    return name


def _write_mode(given: dict[str, Any], kind: str) -> str:
    allowed = SHEET_MODES if kind == "spreadsheet" else TEXT_MODES
    mode = text_scalar(given["WriteMode"], "WriteMode").lower() if "WriteMode" in given else allowed[0]
    if mode not in allowed:
        raise error("MATLAB:table:write:InvalidWriteMode",
                    f"Invalid value for 'WriteMode': '{mode}'. Valid values are "
                    + ", ".join(f"'{m}'" for m in allowed) + ".")
    return mode


def write_grid(name: str, grid: Grid, given: dict[str, Any], header_rows: int, id_prefix: str) -> None:
    """Write a grid of cells to a text file or a spreadsheet, as the options say."""
    kind = file_kind(name, given.get("FileType"), id_prefix)
    mode = _write_mode(given, kind)
    if kind == "spreadsheet":
        start = parse_range(given["Range"]) if "Range" in given else None
        grid = [[_sheet_value(c) for c in row] for row in grid]
        write_sheet(name, grid, given.get("Sheet"),
                    (start.row0, start.col0) if start else (0, 0), mode)
        return
    delim = delimiter_option(given.get("Delimiter")) or ","
    if mode == "append" and header_rows and os.path.isfile(name) and os.path.getsize(name):
        grid, header_rows = grid[header_rows:], 0  # appended rows go under the existing header
    newline = "\n"
    if "LineEnding" in given:
        newline = text_scalar(given["LineEnding"], "LineEnding").replace("\\r", "\r").replace("\\n", "\n")
    text = grid_text(grid, delim, _quote_rule(given.get("QuoteStrings")), header_rows, newline)
    encoding = python_encoding(given["Encoding"]) if "Encoding" in given else "utf-8"
    write_text(name, text, mode == "append", id_prefix, encoding)


# ------------------------------------------------------------------ builtins


@builtin()
def writetable(t: Any, filename: Any = None, *args: Any) -> None:
    """writetable  Write table to file.
    writetable(T, filename) writes table T to a delimited text file (.csv, .txt,
    .dat; a name without extension gets .txt) or a spreadsheet (.xlsx): a row of
    variable names, then one line a row.  A variable of several columns is written
    as name_1, name_2...; numbers with up to 15 significant digits.
    writetable(T, filename, Name, Value) takes the options Delimiter,
    WriteVariableNames, WriteRowNames, QuoteStrings, WriteMode ('overwrite' or
    'append'; for spreadsheets 'inplace', 'overwritesheet', 'append',
    'replacefile'), Sheet, Range and FileType.

    See also readtable, writematrix, writecell."""
    if type(t) is not Table:
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function 'writetable' for input arguments of type '{class_of(t)}'.")
    if filename is None:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    given = options(args, TABLE_WRITE_OPTIONS)
    names = option_flag(given.get("WriteVariableNames", True), "WriteVariableNames")
    rows = option_flag(given.get("WriteRowNames", False), "WriteRowNames")
    grid = table_grid(t, names, rows)
    write_grid(target_name(filename), grid, given, 1 if names else 0, "MATLAB:table:write")


@builtin()
def writematrix(a: Any, filename: Any, *args: Any) -> None:
    """writematrix  Write matrix to file.
    writematrix(A, filename) writes a numeric, logical, char or string array to a
    delimited text file (.csv, .txt, .dat; a name without extension gets .txt) or a
    spreadsheet (.xlsx), one line a row; numbers with up to 15 significant digits.
    writematrix(A, filename, Name, Value) takes the options Delimiter, WriteMode
    ('overwrite' or 'append'), QuoteStrings, Sheet, Range and FileType.

    See also readmatrix, writetable, writecell."""
    given = options(args, WRITE_OPTIONS)
    if type(a) is np.ndarray and a.dtype.kind == "V":
        grid: Grid = [[r] for r in char_rows(as_matrix(a))] if a.size else []
    elif type(a) is StringArray:
        grid = [list(r) for r in as_matrix(a.data).tolist()]
    elif type(a) is np.ndarray or type(a) in (float, bool, complex):
        grid = _number_cells(as_matrix(a)) if np.size(a) else []
    else:
        raise error("MATLAB:writematrix:InvalidInputType",
                    f"Input must be a numeric, logical, string, or char array; use writecell or "
                    f"writetable for a {class_of(a)}.")
    write_grid(target_name(filename), grid, given, 0, "MATLAB:writematrix")


@builtin()
def writecell(c: Any, filename: Any, *args: Any) -> None:
    """writecell  Write cell array to file.
    writecell(C, filename) writes a cell array of numbers, text, logical values and
    missing values to a delimited text file (.csv, .txt, .dat; a name without
    extension gets .txt) or a spreadsheet (.xlsx), one line a row.
    writecell(C, filename, Name, Value) takes the options Delimiter, WriteMode,
    QuoteStrings, Sheet, Range and FileType.

    See also readcell, writetable, writematrix."""
    if type(c) is not Cell:
        raise error("MATLAB:writecell:InvalidInputType", "Input must be a cell array.")
    given = options(args, WRITE_OPTIONS)
    for x in c.data.reshape(-1):
        if type(x) is Cell:
            raise error("MATLAB:writecell:NestedCell", "Nested cell arrays are not supported.")
    grid = [[scalar_cell(x, "Cell array") for x in row] for row in as_matrix(c.data).tolist()]
    write_grid(target_name(filename), grid, given, 0, "MATLAB:writecell")
