"""Reading a file the way an import options object says: the rows of its DataLines (or
DataRange), its variables converted to their VariableTypes, MissingRule and ImportErrorRule
applied."""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_scalar
from mlang.builtins.files.import_options import NUMERIC_TYPES, ImportOptions
from mlang.builtins.files.spreadsheet import read_sheet
from mlang.builtins.files.tabular_dates import date_layout
from mlang.builtins.files.tabular_text import (
    DELIMITER_WORDS,
    Grid,
    cell_text,
    number_of,
    parse_range,
    python_encoding,
    read_text,
    readable_file,
)
from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import char_row
from mlang.values.string import StringArray
from mlang.values.time_datetime import DatetimeArray
from mlang.values.time_parse import parse_datetime

MISSING = object()  # a field that is empty or one of TreatAsMissing
FAILED = object()  # a field that does not convert to its variable's type

NumberedRows = list[tuple[int, list[str | None]]]
_ESCAPES = {"\\t": "\t", "\\b": "\b", "\\n": "\n", "\\r": "\r", "\\\\": "\\"}


def unescaped(text: str) -> str:
    """A text written with MATLAB's escapes ('\\t', '\\b') as the characters it stands for."""
    for escape, char in _ESCAPES.items():
        text = text.replace(escape, char)
    return text


def escaped(text: str) -> str:
    """A character as the options object writes it ('\\t' for a tab)."""
    return text.replace("\t", "\\t").replace("\b", "\\b")


def _delimiter_chars(opts: ImportOptions) -> list[str]:
    return [DELIMITER_WORDS.get(d.lower(), unescaped(d)) for d in opts.settings["Delimiter"]]


# ------------------------------------------------------------------ text rows


def numbered_rows(text: str, delimiters: list[str], whitespace: str = " \b\t",
                  comments: list[str] | tuple[str, ...] = (),
                  rules: tuple[str, str, str] = ("split", "keep", "ignore")) -> NumberedRows:
    """The rows of a delimited text, each with the (one-based) number of the line it starts
    on; a blank or comment line is a row with no fields.  ``rules``: the consecutive,
    leading and trailing delimiters rules ('join' or 'ignore' drop the empty fields they
    make; 'error' refuses them)."""
    lines = text.splitlines()
    first = delimiters[0] if delimiters else ","
    if comments:
        lines = ["" if any(ln.lstrip().startswith(c) for c in comments if c) else ln for ln in lines]
    if len(first) == 1:
        for other in delimiters[1:]:
            lines = [ln.replace(other, first) for ln in lines]
    else:  # a delimiter of several characters: split on a character that is not in the text
        lines = [ln.replace(first, "\x1f") for ln in lines]
        first = "\x1f"
    strip = whitespace.replace(first, "")
    if first == " ":
        lines = [ln.strip() for ln in lines]
    reader = csv.reader(lines, delimiter=first, skipinitialspace=True)
    rows: NumberedRows = []
    previous = 0
    try:
        for fields in reader:
            number = previous + 1
            previous = reader.line_num
            cells = [f.strip(strip) or None for f in fields]
            if all(c is None for c in cells) and len(cells) <= 1:
                cells = []
            elif first != " " and rules != ("split", "keep", "keep"):
                cells = _delimiter_rules(cells, rules, number)
            rows.append((number, cells))
    except csv.Error as exc:
        raise error("MATLAB:textio:textio:CorruptFile", f"Unable to read the file: {exc}.") from None
    return rows


def _delimiter_rules(cells: list[str | None], rules: tuple[str, str, str], line: int) -> list[str | None]:
    consecutive, leading, trailing = rules
    if leading != "keep" and len(cells) > 1 and cells[0] is None:
        if leading == "error":
            raise _delimiter_error("leading", line)
        cells = cells[1:]
    if trailing != "keep" and len(cells) > 1 and cells[-1] is None:
        if trailing == "error":
            raise _delimiter_error("trailing", line)
        cells = cells[:-1]
    if consecutive != "split" and None in cells[1:-1]:
        if consecutive == "error":
            raise _delimiter_error("consecutive", line)
        cells = [cells[0], *(c for c in cells[1:-1] if c is not None), cells[-1]]
    return cells


def _delimiter_error(kind: str, line: int) -> Exception:
    return error("MATLAB:textio:io:DelimiterRule",
                 f"Found {kind} delimiters on line {line}, and the {kind.capitalize()}DelimitersRule is "
                 "'error'.")


def _in_lines(number: int, ranges: list[tuple[float, float]]) -> bool:
    return any(start <= number <= stop for start, stop in ranges)


@dataclass(slots=True)
class RawData:
    """The fields an options object selects from a file: data rows and the names row."""

    rows: Grid
    names_row: list[Any] | None = None


def text_data(opts: ImportOptions, path: str) -> RawData:
    s = opts.settings
    encoding = python_encoding(char_row(s["Encoding"])) if s["Encoding"] else None
    rules = (s["ConsecutiveDelimitersRule"], s["LeadingDelimitersRule"], s["TrailingDelimitersRule"])
    rows = numbered_rows(read_text(path, encoding), _delimiter_chars(opts), unescaped(s["Whitespace"]),
                         s["CommentStyle"], rules)
    data: Grid = []
    for number, cells in rows:
        if not _in_lines(number, s["DataLines"]):
            continue
        if not cells:
            if s["EmptyLineRule"] == "skip":
                continue
            if s["EmptyLineRule"] == "error":
                raise error("MATLAB:textio:io:EmptyLineRuleError",
                            f"Empty line found on line {number}, and EmptyLineRule is 'error'.")
        data.append(list(cells))
    names_line = s["VariableNamesLine"]
    names_row = next((cells for number, cells in rows if number == names_line), None) if names_line else None
    return RawData(data, names_row)


def sheet_data(opts: ImportOptions, path: str) -> RawData:
    s = opts.settings
    sheet = s["Sheet"]  # a name or a number, as the Sheet option of read_sheet
    grid = read_sheet(path, None if sheet == "" else char_row(sheet) if type(sheet) is str else float(sheet),
                      trim=False)
    if s["DataRange"]:
        grid_range = parse_range(char_row(s["DataRange"]))
        data = grid_range.apply(grid)
    else:
        data = grid
    data = [r for r in data if any(c is not None for c in r)]
    names_row = None
    if s["VariableNamesRange"]:
        cell = parse_range(char_row(s["VariableNamesRange"]))
        if cell.row0 < len(grid):
            names_row = grid[cell.row0][cell.col0:]
    return RawData(data, names_row)


def raw_data(opts: ImportOptions, filename: Any) -> RawData:
    path = readable_file(text_scalar(filename, "Filename"))
    return text_data(opts, path) if opts.format == "text" else sheet_data(opts, path)


def fitted_rows(opts: ImportOptions, rows: Grid) -> tuple[Grid, list[str]]:
    """Rows cut or padded to the variables (ExtraColumnsRule), and the names of the extra
    variables added."""
    n = len(opts.names)
    wide = max((len(r) for r in rows), default=0)
    extra: list[str] = []
    if wide > n:
        rule = opts.settings.get("ExtraColumnsRule", "ignore")
        if rule == "error":
            raise error("MATLAB:textio:io:ExtraColumns",
                        f"Found {wide} columns of data, but only {n} variables were expected.")
        if rule == "addvars":
            extra = [f"ExtraVar{k + 1}" for k in range(wide - n)]
            n = wide
    return [(r + [None] * (n - len(r)))[:n] for r in rows], extra


# ------------------------------------------------------------------ conversions


def _column_fields(cells: list[Any], kind: str, var_opts: dict[str, Any]) -> tuple[list[Any], str]:
    """Each field converted for a variable of a type (MISSING, FAILED or the value), and the
    datetime format found ('' for other types)."""
    treat = set(var_opts.get("TreatAsMissing", ()))
    out: list[Any] = []
    fmt = ""
    if kind == "datetime":
        fmt = var_opts.get("InputFormat", "")
        if not fmt:
            present = [cell_text(c) for c in cells if c is not None and cell_text(c) not in treat]
            fmt = next((f for f in map(date_layout, present) if f), "") or "yyyy-MM-dd"
    for c in cells:
        if c is None or (type(c) is str and c in treat):
            out.append(MISSING)
        elif kind in NUMERIC_TYPES:
            x = number_of(c)
            out.append(FAILED if x is None else x)
        elif kind == "logical":
            out.append(_logical(c))
        elif kind == "datetime":
            got = parse_datetime(cell_text(c), fmt)
            out.append(FAILED if got is None else got[0])
        else:
            out.append(cell_text(c))
    return out, fmt


def _logical(c: Any) -> Any:
    x = number_of(c)
    if x is not None:
        return FAILED if math.isnan(x) else x != 0
    word = str(c).strip().lower()
    if word in ("true", "t"):
        return True
    if word in ("false", "f"):
        return False
    return FAILED


def _column_value(values: list[Any], kind: str, fmt: str, interp: Any) -> Any:
    """A table variable from converted fields (fill values already in place)."""
    n = len(values)
    if kind in NUMERIC_TYPES:
        a = np.array([math.nan if v is None else float(v) for v in values], dtype=np.float64).reshape(n, 1)
        if kind == "double":
            return a
        if kind == "single":
            return a.astype(np.float32)
        info = np.iinfo(np.dtype(kind))
        return np.clip(np.nan_to_num(np.round(a), nan=0.0), info.min, info.max).astype(kind)
    if kind == "logical":
        return np.array([bool(v) for v in values], dtype=bool).reshape(n, 1)
    if kind == "datetime":
        data = np.array([math.nan if v is None else v for v in values], dtype=np.float64).reshape(n, 1)
        return DatetimeArray(data, fmt)
    if kind == "string":
        data = np.empty((n, 1), dtype=object)
        for k, v in enumerate(values):
            data[k, 0] = v
        return StringArray(data)
    cells = np.empty((n, 1), dtype=object)
    for k, v in enumerate(values):
        cells[k, 0] = char_row(v or "")
    column = Cell(cells)
    if kind == "categorical" and interp is not None and "categorical" in interp.builtins:
        return interp.builtins["categorical"].call(interp, [column], 1)[0]
    return column


@dataclass(slots=True)
class Converted:
    """The selected variables of a file read with options: names and values."""

    names: list[str]
    values: list[Any]
    positions: list[int]  # each variable's column in the fitted rows
    rows: Grid  # the fitted rows kept (after omitrow)


def convert(opts: ImportOptions, rows: Grid, interp: Any, positions: list[int] | None = None,
            names: list[str] | None = None) -> Converted:
    """The variables at ``positions`` (default: the selected ones) of fitted rows, converted
    and with MissingRule and ImportErrorRule applied."""
    all_names = (names or opts.names) + [f"ExtraVar{k + 1}" for k in
                                         range(max(0, (len(rows[0]) if rows else 0) - len(opts.names)))]
    if positions is None:
        positions = list(opts.selected) + list(range(len(opts.names), len(all_names)))
    kinds = [opts.types[k] if k < len(opts.types) else "char" for k in positions]
    var_opts = [opts.var_options[k] if k < len(opts.var_options) else {} for k in positions]
    fields, formats = [], []
    for k, kind, vo in zip(positions, kinds, var_opts, strict=True):
        values, fmt = _column_fields([r[k] for r in rows], kind, vo)
        fields.append(values)
        formats.append(fmt)
    keep_rows = np.ones(len(rows), dtype=bool)
    keep_vars = [True] * len(positions)
    for marker, rule_name in ((FAILED, "ImportErrorRule"), (MISSING, "MissingRule")):
        rule = opts.settings[rule_name]
        for j, values in enumerate(fields):
            bad = [i for i, v in enumerate(values) if v is marker]
            if not bad:
                continue
            if rule == "error":
                what = "convert" if marker is FAILED else "read a missing value in"
                raise error(f"MATLAB:textio:io:{'ImportError' if marker is FAILED else 'MissingData'}",
                            f"Unable to {what} variable '{all_names[positions[j]]}' in data row "
                            f"{bad[0] + 1} ({rule_name} is 'error').")
            if rule == "omitrow":
                keep_rows[bad] = False
            elif rule == "omitvar":
                keep_vars[j] = False
            fill = opts.fill_value(positions[j]) if positions[j] < len(opts.names) else ""
            for i in bad:
                values[i] = fill
    chosen = [j for j in range(len(positions)) if keep_vars[j]]
    kept = np.flatnonzero(keep_rows)
    out_values = [_column_value([fields[j][i] for i in kept], kinds[j], formats[j], interp) for j in chosen]
    return Converted([all_names[positions[j]] for j in chosen], out_values, [positions[j] for j in chosen],
                     [rows[i] for i in kept])
