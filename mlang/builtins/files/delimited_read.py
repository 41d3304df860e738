"""readtable, readmatrix and readcell: tables, matrices and cell arrays from delimited text
files and spreadsheets.

As MATLAB's, each reader given Name=Value options first detects import options in the
file (detectImportOptions' rules: the delimiter, the header, the data lines, the type of
each column) and then reads with them, the one conversion readtable(filename, opts) makes."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, options, text_list, text_scalar
from mlang.builtins.data.missing_values import MissingArray
from mlang.builtins.files.import_options import ImportOptions, unknown_variable
from mlang.builtins.files.import_options_detect import DETECT_OPTIONS, detect, text_type_option
from mlang.builtins.files.import_options_read import Converted, convert, fitted_rows, raw_data
from mlang.builtins.files.tabular_names import variable_names
from mlang.builtins.files.tabular_text import Grid, cell_text, number_of
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import INT_CLASSES, char_row, result
from mlang.values.string import StringArray
from mlang.values.table import Table

# Options every reader takes: where the cells are and which are missing.
LOCATION_OPTIONS = ("FileType", "Delimiter", "NumHeaderLines", "HeaderLines", "Range", "Sheet",
                    "Encoding", "TreatAsMissing", "TreatAsEmpty", "CommentStyle", "Whitespace",
                    "EmptyLineRule")
TABLE_OPTIONS = (*DETECT_OPTIONS, "ReadRowNames", "Format", "VariableNames", "SelectedVariableNames")
# Options that may follow an import options object.
WITH_OPTIONS = ("ReadVariableNames", "ReadRowNames", "Sheet", "Encoding")
MATRIX_OPTIONS = (*LOCATION_OPTIONS, "OutputType")
CELL_OPTIONS = (*LOCATION_OPTIONS, "TextType")
OUTPUT_TYPES = ("double", "single", *INT_CLASSES, "char", "string")


# ------------------------------------------------------------------ readtable

_NUMERIC_FORMATS = re.compile(r"(?:f|d|n|u|[du](?:8|16|32|64)|f(?:32|64)|b\d*|x\d*)")


def _format_types(fmt: str, text_type: str) -> list[tuple[str, str] | None]:
    """The variable type (and datetime InputFormat) of each field of a Format
    ('%f%s%{dd/MM/yyyy}D%*s...'); None for a skipped field."""
    kinds: list[tuple[str, str] | None] = []
    for skipped, spec in re.findall(r"%(\*?)\d*(?:\.\d+)?(\{[^}]*\}[DT]|[A-Za-z]\d*)", fmt):
        if spec.startswith("{") and spec.endswith("D"):
            kind = ("datetime", spec[1:-2])
        elif spec.startswith("{") or not _NUMERIC_FORMATS.fullmatch(spec):
            kind = (text_type, "")
        else:
            kind = ("double", "")
        kinds.append(None if skipped else kind)
    if not kinds:
        raise error("MATLAB:textio:textio:InvalidFormat", f"Unable to parse the format character vector "
                    f"at position 1 ==> {fmt}\nUnsupported format specifier.")
    return kinds


def _with_format(opts: ImportOptions, fmt: str, text_type: str) -> None:
    """The types a Format gives the variables it covers (a skipped field is not read)."""
    skipped = set()
    for k, kind in enumerate(_format_types(fmt, text_type)[:len(opts.names)]):
        if kind is None:
            skipped.add(k)
            continue
        opts.set_type(k, kind[0])
        if kind[1]:
            opts.var_options[k]["InputFormat"] = kind[1]
    opts.selected = [k for k in opts.selected if k not in skipped]


@builtin(interp=True)
def readtable(interp: Any, filename: Any, *args: Any) -> Table:
    """readtable  Create table from file.
    T = readtable(filename) reads a delimited text file (.csv, .txt, .dat) or a
    spreadsheet (.xlsx) into a table, one variable per column.  A first line of text
    above numeric data names the variables (made valid MATLAB identifiers).
    The types of the variables are those detectImportOptions finds: a column of
    mostly numbers is double (its other text reads as NaN), a column of dates in one
    layout datetime, any other text char.
    T = readtable(filename, Name, Value) takes the options Delimiter,
    ReadVariableNames, ReadRowNames, NumHeaderLines, VariableNamingRule ('modify' or
    'preserve'), TextType ('char' or 'string'), DatetimeType ('datetime' or 'text':
    columns of ISO dates such as 2024-03-15 read as datetime), Format, Range, Sheet,
    FileType, TreatAsMissing, Encoding, CommentStyle, Whitespace, EmptyLineRule,
    MissingRule, ImportErrorRule, ExtraColumnsRule, VariableNames (the names to give
    the variables) and SelectedVariableNames (the variables to keep).
    T = readtable(filename, opts) reads as the import options object opts says (see
    detectImportOptions): its selected variables, their types, its data lines and
    rules for missing and unreadable fields; ReadVariableNames true reads the names
    from its VariableNamesLine, ReadRowNames true the row names from its
    RowNamesColumn; Sheet and Encoding replace those of opts.

    See also detectImportOptions, writetable, readmatrix, readcell."""
    if args and type(args[0]) is ImportOptions:
        given = options(args[1:], WITH_OPTIONS)
        opts = args[0]
        for name in ("Sheet", "Encoding"):  # the options object's own property, for this read
            if name in given and name in opts.settings:
                opts = opts.set_property(name, given[name])
        return _table_with_options(interp, filename, opts, _flag(given, "ReadVariableNames"),
                                   _flag(given, "ReadRowNames"))
    given = options(args, TABLE_OPTIONS)
    opts = detect(filename, given, "table", "readtable", quiet="VariableNames" in given)
    if "Format" in given:
        _with_format(opts, text_scalar(given["Format"], "Format"), text_type_option(given))
    table = _table_with_options(interp, filename, opts, False, _flag(given, "ReadRowNames"))
    return _renamed_and_selected(table, given)


def _flag(given: dict[str, Any], name: str) -> bool:
    return name in given and option_flag(given[name], name)


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


def _table_with_options(interp: Any, filename: Any, opts: ImportOptions, read_names: bool,
                        read_row_names: bool) -> Table:
    """The selected variables of the data lines of a file, converted as the options say;
    ``read_names``: the names from its VariableNamesLine (VariableNamesRange);
    ``read_row_names``: the row names from its RowNamesColumn (the first by default)."""
    raw = raw_data(opts, filename)
    rows, _ = fitted_rows(opts, raw.rows)
    names = list(opts.names)
    if read_names and raw.names_row is not None:
        found = [cell_text(c) for c in raw.names_row[:len(names)]]
        names = variable_names(found + names[len(found):], opts.settings["VariableNamingRule"])
    positions = None
    column = (opts.settings.get("RowNamesColumn", 0) or 1) if read_row_names and opts.names else 0
    if column:
        positions = [k for k in opts.selected if k != column - 1]
    got = convert(opts, rows, interp, positions, names)
    row_names = [cell_text(r[column - 1]) for r in got.rows] if column else None
    return Table(got.values, got.names, row_names)


# ------------------------------------------------------------------ readmatrix

@builtin()
def readmatrix(filename: Any, *args: Any) -> Any:
    """readmatrix  Read matrix from file.
    A = readmatrix(filename) reads the numbers of a delimited text file or a
    spreadsheet into a matrix; header lines of text are skipped and any other text or
    empty field reads as NaN.
    A = readmatrix(filename, Name, Value) takes the options NumHeaderLines,
    Delimiter, Range, Sheet, FileType, Encoding, TreatAsMissing, CommentStyle,
    Whitespace, EmptyLineRule and OutputType ('double', 'single', an integer class,
    'char' or 'string').
    A = readmatrix(filename, opts) reads the selected variables of the data lines of an
    import options object (see detectImportOptions), as the class of their common
    VariableTypes (double when they differ) unless OutputType says otherwise.

    See also detectImportOptions, writematrix, readtable, readcell."""
    with_options = bool(args) and type(args[0]) is ImportOptions
    given = options(args[1:], ("OutputType",)) if with_options else options(args, MATRIX_OPTIONS)
    if with_options and "OutputType" not in given:
        kinds = {args[0].types[k] for k in args[0].selected}
        common = kinds.pop() if len(kinds) == 1 else "double"
        given["OutputType"] = char_row(common if common in OUTPUT_TYPES else "double")
    out_type = text_scalar(given.get("OutputType", char_row("double")), "OutputType").lower()
    if out_type not in OUTPUT_TYPES:
        raise error("MATLAB:textio:io:InvalidOutputType",
                    f"'{out_type}' is not a valid value for 'OutputType'.")
    text = out_type in ("char", "string")
    opts = args[0] if with_options else detect(filename, given, "none" if text else "matrix", "readmatrix")
    if text:
        return _text_matrix(_selected_grid(opts, filename), out_type)
    block = _numbers_with_options(opts, filename)
    if out_type == "double":
        return result(block)
    if out_type == "single":
        return block.astype(np.float32)
    # integer outputs: NaN reads as 0, values round and saturate, as MATLAB's cast
    info = np.iinfo(np.dtype(out_type))
    rounded = np.clip(np.nan_to_num(np.round(block), nan=0.0), info.min, info.max)
    return rounded.astype(out_type)


def _converted(opts: ImportOptions, filename: Any) -> Converted:
    """The selected variables of the data lines an options object names, converted."""
    rows, _ = fitted_rows(opts, raw_data(opts, filename).rows)
    return convert(opts, rows, None)


def _selected_grid(opts: ImportOptions, filename: Any) -> Grid:
    """The fields of the selected variables on the data lines an options object names (a
    TreatAsMissing text is an empty field), the rows that MissingRule or ImportErrorRule
    omit left out."""
    got = _converted(opts, filename)
    missing = [set(opts.var_options[k].get("TreatAsMissing", ())) if k < len(opts.names) else set()
               for k in got.positions]
    return [[None if type(r[k]) is str and r[k] in words else r[k]
             for k, words in zip(got.positions, missing, strict=True)] for r in got.rows]


def _numbers_with_options(opts: ImportOptions, filename: Any) -> np.ndarray:
    """The selected variables of the data lines as a double matrix: numeric and logical
    variables as converted (fill values in place), others as the numbers their text holds."""
    got = _converted(opts, filename)
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


def _elements(grid: Grid, element: Callable[[Any], Any]) -> np.ndarray:
    """An object array of the values ``element`` makes of the cells of a grid."""
    data = np.empty((len(grid), len(grid[0]) if grid else 0), dtype=object)
    for i, r in enumerate(grid):
        for j, c in enumerate(r):
            data[i, j] = element(c)
    return data


def _text_matrix(grid: Grid, out_type: str) -> Any:
    if out_type == "string":
        return StringArray(_elements(grid, lambda c: None if c is None else cell_text(c)))
    return Cell(_elements(grid, lambda c: char_row(cell_text(c))))


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
    Range, Sheet, FileType, Encoding, TreatAsMissing, CommentStyle, Whitespace,
    EmptyLineRule and TextType.
    C = readcell(filename, opts) reads the selected variables of the data lines of an
    import options object (see detectImportOptions).

    See also detectImportOptions, writecell, readtable, readmatrix."""
    with_options = bool(args) and type(args[0]) is ImportOptions
    given = options(args[1:], ("TextType",)) if with_options else options(args, CELL_OPTIONS)
    text_type = text_type_option(given)
    opts = args[0] if with_options else detect(filename, given, "none", "readcell")
    return Cell(_elements(_selected_grid(opts, filename), lambda c: cell_value(c, text_type)))
