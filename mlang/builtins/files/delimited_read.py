"""readtable, readmatrix and readcell: tables, matrices and cell arrays from delimited text
files and spreadsheets."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mlang.builtins.coerce import integer_scalar, option_flag, options, text_list, text_scalar
from mlang.builtins.data.missing_values import MissingArray
from mlang.builtins.files.import_options import ImportOptions, unknown_variable
from mlang.builtins.files.import_options_read import convert, fitted_rows, raw_data
from mlang.builtins.files.spreadsheet import read_sheet
from mlang.builtins.files.tabular_dates import date_column
from mlang.builtins.files.tabular_names import variable_names
from mlang.builtins.files.tabular_text import (
    Grid,
    cell_text,
    delimiter_option,
    file_kind,
    number_of,
    padded,
    parse_range,
    python_encoding,
    read_text,
    readable_file,
    text_grid,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import INT_CLASSES, char_row, result
from mlang.values.string import StringArray
from mlang.values.table import Table

# Options every reader takes: where the cells are.
LOCATION_OPTIONS = ("FileType", "Delimiter", "NumHeaderLines", "HeaderLines", "Range", "Sheet",
                    "Encoding", "TreatAsMissing", "TreatAsEmpty")
TABLE_OPTIONS = (*LOCATION_OPTIONS, "ReadVariableNames", "ReadRowNames", "VariableNamingRule",
                 "PreserveVariableNames", "TextType", "Format", "DatetimeType", "EmptyLineRule",
                 "VariableNames", "SelectedVariableNames")
# Options that may follow an import options object.
WITH_OPTIONS = ("ReadVariableNames", "ReadRowNames")
MATRIX_OPTIONS = (*LOCATION_OPTIONS, "OutputType")
CELL_OPTIONS = (*LOCATION_OPTIONS, "TextType")


@dataclass(slots=True)
class Source:
    """The cells read from a file, and how they were found."""

    grid: Grid
    delimiter: str = ","
    header: list[str] = field(default_factory=list)  # text lines skipped above the grid


def header_count(given: dict[str, Any]) -> int | None:
    """The NumHeaderLines (or HeaderLines) option: a nonnegative whole number."""
    for name in ("NumHeaderLines", "HeaderLines"):
        if name in given:
            n = integer_scalar(given[name], f"'{name}' value must be a nonnegative integer scalar.",
                               "MATLAB:textio:io:NonNegativeInteger")
            if n < 0:
                raise error("MATLAB:textio:io:NonNegativeInteger",
                            f"'{name}' value must be a nonnegative integer scalar.")
            return n
    return None


def load_cells(filename: Any, given: dict[str, Any], function: str) -> Source:
    """The grid of cells of a file, after its header lines and within its Range (errors
    name ``function``'s identifiers)."""
    name = text_scalar(filename, "Filename")
    kind = file_kind(name, given.get("FileType"), f"MATLAB:{function}")
    path = readable_file(name)
    skip = header_count(given) or 0
    if kind == "spreadsheet":
        source = Source(read_sheet(path, given.get("Sheet"), trim="Range" not in given))
        source.grid = source.grid[skip:]
    else:
        encoding = python_encoding(given["Encoding"]) if "Encoding" in given else None
        grid, delim, header = text_grid(read_text(path, encoding),
                                        delimiter_option(given.get("Delimiter")), skip)
        source = Source(grid, delim, header)
    if "Range" in given:
        source.grid = parse_range(given["Range"]).apply(source.grid)
        source.grid = [r for r in source.grid if any(c is not None for c in r)]
    missing = given.get("TreatAsMissing", given.get("TreatAsEmpty"))
    if missing is not None:
        words = set(text_list(missing, "TreatAsMissing"))
        source.grid = [[None if type(c) is str and c in words else c for c in r] for r in source.grid]
    source.grid = padded(source.grid)
    return source


# ------------------------------------------------------------------ readtable

_NUMERIC_FORMATS = re.compile(r"(?:f|d|n|u|[du](?:8|16|32|64)|f(?:32|64)|b\d*|x\d*)")


def _format_columns(fmt: str) -> list[str | None]:
    """Column kinds of a Format ('%f%s%*s...'): 'number', 'text', or None for a skipped one."""
    kinds: list[str | None] = []
    for skipped, spec in re.findall(r"%(\*?)\d*(?:\.\d+)?(\{[^}]*\}[DT]|[A-Za-z]\d*)", fmt):
        if spec.startswith("{") or not _NUMERIC_FORMATS.fullmatch(spec):
            kind = "text"
        else:
            kind = "number"
        kinds.append(None if skipped else kind)
    if not kinds:
        raise error("MATLAB:textio:textio:InvalidFormat", f"Unable to parse the format character vector "
                    f"at position 1 ==> {fmt}\nUnsupported format specifier.")
    return kinds


def _first_row_is_header(grid: Grid) -> bool:
    """MATLAB's guess: the first row names the variables when it holds text and no numbers."""
    if not grid:
        return False
    first = grid[0]
    return any(c is not None for c in first) and all(c is None or number_of(c) is None for c in first)


def _column_numbers(cells: list[Any]) -> list[float] | None:
    """The numbers of a numeric column (NaN for an empty cell); None for a text column."""
    out = []
    for c in cells:
        if c is None:
            out.append(math.nan)
            continue
        x = number_of(c)
        if x is None:
            return None
        out.append(x)
    return out


def _numeric_column(cells: list[Any]) -> np.ndarray:
    values = [number_of(c) for c in cells]
    return np.array([math.nan if v is None else v for v in values], dtype=np.float64).reshape(-1, 1)


def text_column(texts: list[str | None], text_type: str) -> Any:
    """A column of texts: a cell of char rows ('char'), or a string array ('string', an
    empty field being <missing>)."""
    if text_type == "string":
        data = np.empty((len(texts), 1), dtype=object)
        for k, t in enumerate(texts):
            data[k, 0] = t
        return StringArray(data)
    data = np.empty((len(texts), 1), dtype=object)
    for k, t in enumerate(texts):
        data[k, 0] = char_row(t or "")
    return Cell(data)


def naming_rule_option(given: dict[str, Any]) -> str:
    if "VariableNamingRule" in given:
        rule = text_scalar(given["VariableNamingRule"], "VariableNamingRule").lower()
        if rule not in ("modify", "preserve"):
            raise error("MATLAB:textio:io:InvalidVariableNamingRule",
                        "'VariableNamingRule' must be either 'modify' or 'preserve'.")
        return rule
    if "PreserveVariableNames" in given:
        return "preserve" if option_flag(given["PreserveVariableNames"], "PreserveVariableNames") \
            else "modify"
    return "modify"


def text_type_option(given: dict[str, Any]) -> str:
    text_type = text_scalar(given.get("TextType", char_row("char")), "TextType").lower()
    if text_type not in ("char", "string"):
        raise error("MATLAB:textio:io:InvalidTextType", "'TextType' must be either 'char' or 'string'.")
    return text_type


@builtin(interp=True)
def readtable(interp: Any, filename: Any, *args: Any) -> Table:
    """readtable  Create table from file.
    T = readtable(filename) reads a delimited text file (.csv, .txt, .dat) or a
    spreadsheet (.xlsx) into a table, one variable per column.  A first line of text
    above numeric data names the variables (made valid MATLAB identifiers).
    T = readtable(filename, Name, Value) takes the options Delimiter,
    ReadVariableNames, ReadRowNames, NumHeaderLines, VariableNamingRule ('modify' or
    'preserve'), TextType ('char' or 'string'), DatetimeType ('datetime' or 'text':
    columns of ISO dates such as 2024-03-15 read as datetime), Format, Range, Sheet,
    FileType, TreatAsMissing, Encoding, VariableNames (the names to give the variables)
    and SelectedVariableNames (the variables to keep).
    T = readtable(filename, opts) reads as the import options object opts says (see
    detectImportOptions): its selected variables, their types, its data lines and
    rules for missing and unreadable fields; ReadVariableNames true reads the names
    from its VariableNamesLine, ReadRowNames true the row names from its
    RowNamesColumn.

    See also detectImportOptions, writetable, readmatrix, readcell."""
    if args and type(args[0]) is ImportOptions:
        return _table_with_options(interp, filename, args[0], options(args[1:], WITH_OPTIONS))
    given = options(args, TABLE_OPTIONS)
    rule = naming_rule_option(given)
    text_type = text_type_option(given)
    source = load_cells(filename, given, "readtable")
    grid = source.grid
    if "ReadVariableNames" in given:
        has_names = option_flag(given["ReadVariableNames"], "ReadVariableNames")
    else:
        has_names = _first_row_is_header(grid)
    headers = [cell_text(c) for c in grid[0]] if has_names and grid else []
    rows = grid[1:] if has_names else grid
    ncols = len(grid[0]) if grid else 0
    columns = [[r[k] for r in rows] for k in range(ncols)]
    numbers = [_column_numbers(col) for col in columns]
    kinds: list[str | None] = ["text" if n is None else "number" for n in numbers]
    if "Format" in given:
        wanted = _format_columns(text_scalar(given["Format"], "Format"))
        kinds = [wanted[k] if k < len(wanted) else kinds[k] for k in range(ncols)]
    row_names = None
    if "ReadRowNames" in given and option_flag(given["ReadRowNames"], "ReadRowNames") and ncols:
        row_names = [cell_text(c) for c in columns[0]]
        kinds[0] = None
    if not headers:
        headers = [f"Var{k + 1}" for k in range(ncols)]
    kept = [k for k in range(ncols) if kinds[k] is not None]
    names = variable_names([headers[k] for k in kept], rule)
    dates = dates_wanted(given)
    variables = [(np.array(numbers[k], dtype=np.float64).reshape(-1, 1) if numbers[k] is not None
                  else _numeric_column(columns[k])) if kinds[k] == "number"
                 else _text_variable([None if c is None else cell_text(c) for c in columns[k]],
                                     text_type, dates and "Format" not in given)
                 for k in kept]
    return _renamed_and_selected(Table(variables, names, row_names), given)


def _renamed_and_selected(table: Table, given: dict[str, Any]) -> Table:
    """The VariableNames and SelectedVariableNames options applied to a table read."""
    if "VariableNames" in given:
        names = text_list(given["VariableNames"], "VariableNames")
        if len(names) != len(table.names):
            raise error("MATLAB:table:IncorrectNumberOfVarNames",
                        "The VariableNames property must contain one name for each variable in the "
                        "table.")
        duplicated = next((n for k, n in enumerate(names) if n in names[:k]), None)
        if duplicated is not None:
            raise error("MATLAB:table:DuplicateVarNames", f"Duplicate table variable name: '{duplicated}'.")
        table = table.copy(names=list(names))
    if "SelectedVariableNames" in given:
        chosen = text_list(given["SelectedVariableNames"], "SelectedVariableNames")
        missing = next((n for n in chosen if n not in table.names), None)
        if missing is not None:
            raise unknown_variable(missing)
        table = table.select_variables([table.names.index(n) for n in chosen])
    return table


def _table_with_options(interp: Any, filename: Any, opts: ImportOptions, given: dict[str, Any]) -> Table:
    """readtable(filename, opts, ...): the selected variables of the data lines, converted."""
    raw = raw_data(opts, filename)
    rows, _ = fitted_rows(opts, raw.rows)
    names = list(opts.names)
    if "ReadVariableNames" in given and option_flag(given["ReadVariableNames"], "ReadVariableNames"):
        if raw.names_row is not None:
            found = [cell_text(c) for c in raw.names_row[:len(names)]]
            names = variable_names(found + names[len(found):], opts.settings["VariableNamingRule"])
    positions = None
    row_names = None
    column = opts.settings.get("RowNamesColumn", 0)
    if "ReadRowNames" in given and option_flag(given["ReadRowNames"], "ReadRowNames"):
        column = column or 1
        positions = [k for k in opts.selected if k != column - 1]
    else:
        column = 0
    got = convert(opts, rows, interp, positions, names)
    if column:
        row_names = [cell_text(r[column - 1]) for r in got.rows]
    return Table(got.values, got.names, row_names)


def dates_wanted(given: dict[str, Any]) -> bool:
    """Whether date columns read as datetime (DatetimeType 'datetime', the default) or
    stay text ('text')."""
    if "DatetimeType" not in given:
        return True
    kind = text_scalar(given["DatetimeType"], "DatetimeType").lower()
    if kind not in ("datetime", "text"):
        raise error("MATLAB:textio:io:InvalidDatetimeType",
                    "'DatetimeType' must be 'datetime' or 'text'.")
    return kind == "datetime"


def _text_variable(texts: list[str | None], text_type: str, dates: bool) -> Any:
    if dates:
        column = date_column(texts)
        if column is not None:
            return column
    return text_column(texts, text_type)


# ------------------------------------------------------------------ readmatrix

FLOAT_TYPES = ("double", "single")


def numeric_block(grid: Grid, skip_text_rows: bool) -> np.ndarray:
    """The numbers of a grid as a double matrix (NaN for text or empty cells); with
    ``skip_text_rows``, leading rows holding no number are taken for headers and left out."""
    if skip_text_rows:
        while grid and all(number_of(c) is None for c in grid[0]) and \
                any(number_of(c) is not None for r in grid[1:] for c in r):
            grid = grid[1:]
        if grid and all(number_of(c) is None for r in grid for c in r):
            grid = []
    if not grid:
        return np.zeros((0, 0))
    nan = math.nan
    return np.array([[nan if c is None else (x if (x := number_of(c)) is not None else nan) for c in r]
                     for r in grid], dtype=np.float64)


@builtin()
def readmatrix(filename: Any, *args: Any) -> Any:
    """readmatrix  Read matrix from file.
    A = readmatrix(filename) reads the numbers of a delimited text file or a
    spreadsheet into a matrix; header lines of text are skipped and any other text or
    empty field reads as NaN.
    A = readmatrix(filename, Name, Value) takes the options NumHeaderLines,
    Delimiter, Range, Sheet, FileType and OutputType ('double', 'single', an
    integer class, 'char' or 'string').
    A = readmatrix(filename, opts) reads the selected variables of the data lines of an
    import options object (see detectImportOptions), as the class of their common
    VariableTypes (double when they differ) unless OutputType says otherwise.

    See also detectImportOptions, writematrix, readtable, readcell."""
    with_options = bool(args) and type(args[0]) is ImportOptions
    given = options(args[1:], ("OutputType",)) if with_options else options(args, MATRIX_OPTIONS)
    if with_options and "OutputType" not in given:
        kinds = {args[0].types[k] for k in args[0].selected}
        common = kinds.pop() if len(kinds) == 1 else "double"
        given["OutputType"] = char_row(common if common in (*FLOAT_TYPES, *INT_CLASSES, "char", "string")
                                       else "double")
    out_type = text_scalar(given.get("OutputType", char_row("double")), "OutputType").lower()
    if out_type not in (*FLOAT_TYPES, *INT_CLASSES, "char", "string"):
        raise error("MATLAB:textio:io:InvalidOutputType",
                    f"'{out_type}' is not a valid value for 'OutputType'.")
    if with_options and out_type in ("char", "string"):
        return _text_matrix(_selected_grid(args[0], filename), out_type)
    if with_options:
        block = _numbers_with_options(args[0], filename)
    else:
        source = load_cells(filename, given, "readmatrix")
        if out_type in ("char", "string"):
            return _text_matrix(source.grid, out_type)
        block = numeric_block(source.grid, header_count(given) is None and "Range" not in given)
    if out_type == "double":
        return result(block)
    if out_type == "single":
        return block.astype(np.float32)
    # integer outputs: NaN reads as 0, values round and saturate, as MATLAB's cast
    info = np.iinfo(np.dtype(out_type))
    rounded = np.clip(np.nan_to_num(np.round(block), nan=0.0), info.min, info.max)
    return rounded.astype(out_type)


def _selected_grid(opts: ImportOptions, filename: Any) -> Grid:
    """The fields of the selected variables on the data lines an options object names (a
    TreatAsMissing text is an empty field), the rows that MissingRule or ImportErrorRule
    omit left out."""
    rows, _ = fitted_rows(opts, raw_data(opts, filename).rows)
    got = convert(opts, rows, None)
    missing = [set(opts.var_options[k].get("TreatAsMissing", ())) if k < len(opts.names) else set()
               for k in got.positions]
    return [[None if type(r[k]) is str and r[k] in words else r[k]
             for k, words in zip(got.positions, missing, strict=True)] for r in got.rows]


def _numbers_with_options(opts: ImportOptions, filename: Any) -> np.ndarray:
    """The selected variables of the data lines as a double matrix: numeric and logical
    variables as converted (fill values in place), others as the numbers their text holds."""
    rows, _ = fitted_rows(opts, raw_data(opts, filename).rows)
    got = convert(opts, rows, None)
    columns = []
    for value, k in zip(got.values, got.positions, strict=True):
        if type(value) is np.ndarray and value.dtype.kind in "fiub":
            columns.append(value.astype(np.float64).reshape(-1))
        else:
            columns.append(np.array([math.nan if (x := number_of(r[k])) is None else x for r in got.rows],
                                    dtype=np.float64))
    if not columns or not got.rows:
        return np.zeros((len(got.rows), len(columns)))
    return np.column_stack(columns)


def _text_matrix(grid: Grid, out_type: str) -> Any:
    texts = [[None if c is None else cell_text(c) for c in r] for r in grid]
    shape = (len(texts), len(texts[0]) if texts else 0)
    data = np.empty(shape, dtype=object)
    for i, r in enumerate(texts):
        for j, t in enumerate(r):
            data[i, j] = t if out_type == "string" else char_row(t or "")
    return StringArray(data) if out_type == "string" else Cell(data)


# ------------------------------------------------------------------ readcell


def cell_value(c: Any, text_type: str = "char") -> Any:
    """A grid cell as a MATLAB value: a number, a char row (or string) or 1×1 missing."""
    if c is None:
        return MissingArray((1, 1))
    number = number_of(c)
    if number is not None:
        return number
    return StringArray.scalar(str(c)) if text_type == "string" else char_row(str(c))


@builtin()
def readcell(filename: Any, *args: Any) -> Cell:
    """readcell  Read cell array from file.
    C = readcell(filename) reads every field of a delimited text file or spreadsheet
    into a cell array: numbers as doubles, text as character vectors, empty fields as
    missing.
    C = readcell(filename, Name, Value) takes the options NumHeaderLines, Delimiter,
    Range, Sheet, FileType and TextType.
    C = readcell(filename, opts) reads the selected variables of the data lines of an
    import options object (see detectImportOptions).

    See also detectImportOptions, writecell, readtable, readmatrix."""
    if args and type(args[0]) is ImportOptions:
        given = options(args[1:], ("TextType",))
        text_type = text_type_option(given)
        grid = _selected_grid(args[0], filename)
    else:
        given = options(args, CELL_OPTIONS)
        text_type = text_type_option(given)
        grid = load_cells(filename, given, "readcell").grid
    shape = (len(grid), len(grid[0]) if grid else 0)
    data = np.empty(shape, dtype=object)
    for i, r in enumerate(grid):
        for j, c in enumerate(r):
            data[i, j] = cell_value(c, text_type)
    return Cell(data)
