"""detectImportOptions, delimitedTextImportOptions, spreadsheetImportOptions and the
functions that read and change an options object's variables: setvartype, getvartype,
setvaropts and getvaropts."""

from __future__ import annotations

import math
from typing import Any

from mlang.builtins.coerce import integer_scalar, options, text_list, text_or_none, text_scalar
from mlang.builtins.files.import_options import (
    NUMERIC_TYPES,
    ImportOptions,
    VariableOptionsArray,
    check_type,
    text_list_or_none,
)
from mlang.builtins.files.import_options_detect import DETECT_OPTIONS, detect
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, numel, scalar_value

VARIABLE_OPTION_NAMES = ("FillValue", "TreatAsMissing", "InputFormat", "Type", "DatetimeFormat",
                         "QuoteRule", "WhitespaceRule", "EmptyFieldRule", "Prefixes", "Suffixes",
                         "DecimalSeparator", "ThousandsSeparator", "TrueSymbols", "FalseSymbols",
                         "DatetimeLocale", "TimeZone")


def options_argument(v: Any, function: str) -> ImportOptions:
    if type(v) is not ImportOptions:
        raise error("MATLAB:textio:io:InvalidImportOptions",
                    f"First argument to '{function}' must be an import options object.")
    return v


@builtin()
def detectImportOptions(filename: Any, *args: Any) -> ImportOptions:
    """detectImportOptions  Create import options based on file content.
    opts = detectImportOptions(filename) looks at a delimited text file (.csv, .txt,
    .dat) or a spreadsheet (.xlsx) and returns a DelimitedTextImportOptions (or
    SpreadsheetImportOptions) object: the delimiter, the line of variable names, the
    data lines, and each variable's name and type (double, datetime or char).
    Change its properties (opts.SelectedVariableNames, opts.DataLines, ...) and the
    types with setvartype, then read with readtable(filename, opts), readmatrix or
    readcell.
    opts = detectImportOptions(filename, Name, Value) takes the options FileType,
    Delimiter, NumHeaderLines, ReadVariableNames, VariableNamingRule, TextType,
    DatetimeType, Sheet, Range, Encoding, TreatAsMissing, CommentStyle,
    EmptyLineRule, MissingRule, ImportErrorRule and ExtraColumnsRule.

    See also readtable, setvartype, setvaropts, getvaropts."""
    return detect(filename, options(args, DETECT_OPTIONS))


def _made(format: str, args: tuple) -> ImportOptions:
    if len(args) % 2:
        raise error("MATLAB:InputParser:ParamMissingValue", "Parameter names must be followed by values.")
    pairs = [(text_scalar(args[k], "Parameter name"), args[k + 1]) for k in range(0, len(args), 2)]
    count = 1
    names_given = None
    for name, value in pairs:
        if name.lower() == "numvariables":
            count = integer_scalar(value, "NumVariables must be a positive integer scalar.",
                                   "MATLAB:textio:io:InvalidNumVariables")
            if count < 0:
                raise error("MATLAB:textio:io:InvalidNumVariables",
                            "NumVariables must be a positive integer scalar.")
        elif name.lower() == "variablenames":
            names_given = text_list(value, "VariableNames")
    names = names_given or [f"Var{k + 1}" for k in range(count)]
    opts = ImportOptions(format, names, ["char"] * len(names))
    known = {n.lower(): n for n in opts.property_names()}
    for name, value in pairs:
        if name.lower() in ("numvariables", "variablenames"):
            continue
        if name.lower() not in known:
            raise error("MATLAB:InputParser:UnmatchedParameter", f"'{name}' is not a recognized parameter.")
        opts.assign(known[name.lower()], value)
    return opts


@builtin()
def delimitedTextImportOptions(*args: Any) -> ImportOptions:
    """delimitedTextImportOptions  Import options object for delimited text.
    opts = delimitedTextImportOptions creates options for one variable, Var1, of type
    char; ('NumVariables', n) for n variables; any property given by name and value
    (VariableNames, VariableTypes, Delimiter, DataLines, VariableNamesLine, ...).

    See also detectImportOptions, readtable."""
    return _made("text", args)


@builtin()
def spreadsheetImportOptions(*args: Any) -> ImportOptions:
    """spreadsheetImportOptions  Import options object for spreadsheets.
    opts = spreadsheetImportOptions creates options for one variable, Var1, of type
    char; ('NumVariables', n) for n variables; any property given by name and value
    (VariableNames, VariableTypes, Sheet, DataRange, VariableNamesRange, ...).

    See also detectImportOptions, readtable."""
    return _made("spreadsheet", args)


@builtin()
def setvartype(opts: Any, *args: Any) -> ImportOptions:
    """setvartype  Set variable data types.
    opts = setvartype(opts, type) sets every variable's type; opts = setvartype(opts,
    selection, type) sets the types of the variables selected by name (text, a cell
    array of names or a string array) or by number.  type is one of double, single,
    int8 ... uint64, logical, char, string, datetime and categorical, or a cell array
    with one type for each selected variable.

    See also getvartype, setvaropts, detectImportOptions."""
    opts = options_argument(opts, "setvartype")
    if len(args) not in (1, 2):
        raise error("MATLAB:TooManyInputs" if len(args) > 2 else "MATLAB:minrhs",
                    "Too many input arguments." if len(args) > 2 else "Not enough input arguments.")
    positions = list(range(len(opts.names))) if len(args) == 1 else opts.positions(args[0])
    kinds = [check_type(t) for t in text_list(args[-1], "Type")]
    if len(kinds) == 1:
        kinds = kinds * len(positions)
    elif len(kinds) != len(positions):
        raise error("MATLAB:textio:io:TypesSelectionMismatch",
                    "The number of types must match the number of selected variables.")
    out = opts.copy()
    for k, kind in zip(positions, kinds, strict=True):
        out.set_type(k, kind)
    return out


@builtin()
def getvartype(opts: Any, selection: Any = None) -> Cell:
    """getvartype  Get variable data types.
    types = getvartype(opts) returns the types of all variables of an import options
    object as a cell array; getvartype(opts, selection) those of the selected ones.

    See also setvartype, getvaropts."""
    opts = options_argument(opts, "getvartype")
    positions = list(range(len(opts.names))) if selection is None else opts.positions(selection)
    return Cell.row([char_row(opts.types[k]) for k in positions])


@builtin()
def getvaropts(opts: Any, selection: Any = None) -> VariableOptionsArray:
    """getvaropts  Get variable import options.
    varOpts = getvaropts(opts, selection) returns the import options of the selected
    variables (Name, Type, FillValue, TreatAsMissing, and InputFormat for datetime);
    getvaropts(opts) those of all variables.

    See also setvaropts, getvartype."""
    opts = options_argument(opts, "getvaropts")
    positions = list(range(len(opts.names))) if selection is None else opts.positions(selection)
    return VariableOptionsArray([(opts.names[k], opts.types[k], dict(opts.var_options[k]))
                                 for k in positions])


@builtin()
def setvaropts(opts: Any, *args: Any) -> ImportOptions:
    """setvaropts  Set variable import options.
    opts = setvaropts(opts, Name, Value) sets an option of every variable;
    opts = setvaropts(opts, selection, Name, Value) of the selected variables.  The
    options: FillValue (the value a missing or unreadable field takes), TreatAsMissing
    (texts read as missing), InputFormat (of datetime variables) and Type; the others
    MATLAB has are accepted and kept.

    See also getvaropts, setvartype, readtable."""
    opts = options_argument(opts, "setvaropts")
    if len(args) % 2:
        positions = opts.positions(args[0])
        args = args[1:]
    else:
        positions = list(range(len(opts.names)))
    given = options(args, VARIABLE_OPTION_NAMES)
    out = opts.copy()
    for k in positions:
        if "Type" in given:
            out.set_type(k, check_type(text_scalar(given["Type"], "Type")))
        for name, value in given.items():
            if name == "Type":
                continue
            if name == "FillValue":
                out.var_options[k][name] = _fill(value, out.types[k], out.names[k])
            elif name == "TreatAsMissing":
                out.var_options[k][name] = [] if type(value) is Cell and value.data.size == 0 else \
                    text_list(value, "TreatAsMissing")
            elif name == "InputFormat":
                if out.types[k] != "datetime":
                    raise _not_an_option(name, out, k)
                out.var_options[k][name] = text_scalar(value, "InputFormat")
            else:
                out.var_options[k][name] = value
    return out


def _not_an_option(name: str, opts: ImportOptions, k: int) -> Exception:
    return error("MATLAB:textio:io:UnknownVarOption",
                 f"'{name}' is not an option for variable '{opts.names[k]}' of type '{opts.types[k]}'.")


def _fill(value: Any, kind: str, name: str) -> Any:
    """A FillValue as stored: a number (numeric and logical types), a text, or None for
    missing text and NaT."""
    bad = error("MATLAB:textio:io:InvalidFillValue",
                f"Invalid FillValue for variable '{name}' of type '{kind}'.")
    if kind in NUMERIC_TYPES or kind == "logical":
        if class_of(value) not in (*NUMERIC_TYPES, "logical") or numel(value) != 1:
            raise bad
        x = scalar_value(value)
        if isinstance(x, complex):
            raise bad
        return bool(x) if kind == "logical" else float(x)
    if kind == "datetime":
        if class_of(value) == "double" and numel(value) == 1 and math.isnan(scalar_value(value)):
            return None
        if class_of(value) == "datetime" and numel(value) == 1:
            return float(value.data.reshape(-1)[0])
        raise bad
    text = text_or_none(value)
    if text is None:
        if kind == "string" and class_of(value) == "string":
            return None  # <missing>
        if type(value) is Cell or text_list_or_none(value) is not None:
            raise bad
        raise bad
    return text
