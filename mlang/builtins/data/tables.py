"""Tables: table, array2table, cell2table, struct2table, table2array, table2cell,
table2struct, istable, height, width."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, text_list, text_option, text_or_none
from mlang.errors import error
from mlang.registry import builtin
from mlang.values import indexing
from mlang.values.cell import Cell
from mlang.values.core import CHAR, size_of, to_double_array
from mlang.values.indexing import COLON
from mlang.values.limits import check_array_size
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.table import (
    TABLE_CALLS,
    Table,
    cellstr_column,
    column_value,
    duplicate_variable,
    height_of,
    take_rows,
)
from mlang.values.table_properties import checked_names, set_metadata


def _fieldnames_call(interp: Any, args: list, nargout: int) -> Any:
    """fieldnames(T): the variable names, 'Properties' and the dimension names, in a column."""
    if len(args) != 1 or type(args[0]) is not Table:
        return NotImplemented
    t = args[0]
    return [cellstr_column([*t.names, "Properties", *t.dimension_names])]


TABLE_CALLS["fieldnames"] = _fieldnames_call

TABLE_OPTIONS = ("VariableNames", "RowNames", "DimensionNames", "Size", "VariableTypes")


def argument_names(interp: Any, count: int) -> list[str]:
    """The caller's variable names of the arguments ('' where not a plain variable), when the
    evaluator passed them on (see ARGUMENT_NAMES_WANTED in the compiler)."""
    names = interp.family_state.pop("argument_names", None) if interp is not None else None
    if names is None or len(names) < count:
        return [""] * count
    return list(names[:count])


def option_position(args: tuple | list, names: tuple[str, ...] = TABLE_OPTIONS) -> int:
    """Where the name-value pairs start: the first text argument naming an option from which
    on the arguments pair up."""
    lowered = {n.lower() for n in names}
    for k in range(len(args)):
        word = text_option(args[k])
        if word is not None and word in lowered and (len(args) - k) % 2 == 0:
            return k
    return len(args)


def name_values(args: tuple | list, names: tuple[str, ...], function: str) -> dict[str, Any]:
    """Name-value pairs (names matched without regard to case)."""
    if len(args) % 2:
        raise error("MATLAB:table:parseArgs:WrongNumberArgs",
                    "Wrong number of arguments: name-value arguments must come in pairs.")
    out: dict[str, Any] = {}
    for k in range(0, len(args), 2):
        word = text_option(args[k])
        match = next((n for n in names if word is not None and n.lower() == word), None)
        if match is None:
            shown = text_or_none(args[k])
            raise error("MATLAB:table:parseArgs:BadParamName",
                        f"Invalid parameter name: {shown if shown is not None else '?'}.")
        out[match] = args[k + 1]
    return out


def with_options(t: Table, opts: dict[str, Any]) -> Table:
    """Apply VariableNames, RowNames and DimensionNames options to a new table."""
    if "VariableNames" in opts:
        t = t.copy(names=checked_names(text_list(opts["VariableNames"], "VariableNames"), t.width))
    if "RowNames" in opts:
        t = set_metadata(t, "RowNames", opts["RowNames"])
    if "DimensionNames" in opts:
        t = set_metadata(t, "DimensionNames", opts["DimensionNames"])
    return t


def unique_default_names(names: list[str]) -> list[str]:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise duplicate_variable(name)
        seen.add(name)
    return names


def _preallocated(opts: dict[str, Any]) -> Table:
    """table('Size', sz, 'VariableTypes', types): default-filled variables."""
    size = to_double_array(opts["Size"]).reshape(-1)
    if size.size != 2 or np.any(size < 0) or np.any(size != np.floor(size)):
        raise error("MATLAB:table:InvalidSize",
                    "Specify the size as a two-element vector of nonnegative integers.")
    rows, cols = int(size[0]), int(size[1])
    if "VariableTypes" not in opts:
        raise error("MATLAB:table:MissingVariableTypes",
                    "Specify variable types with the 'VariableTypes' name-value argument when "
                    "preallocating a table with 'Size'.")
    types = text_list(opts["VariableTypes"], "VariableTypes")
    if len(types) != cols:
        raise error("MATLAB:table:VariableTypesAndSizeMismatch",
                    "The number of variable types must match the number of variables specified "
                    "by 'Size'.")
    variables = [_default_variable(kind, rows) for kind in types]
    names = [f"Var{k + 1}" for k in range(cols)]
    t = Table(variables, names, nrows=rows)
    return with_options(t, {k: v for k, v in opts.items() if k not in ("Size", "VariableTypes")})


def _default_variable(kind: str, rows: int) -> Any:
    numeric = ("double", "single", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64")
    if kind in numeric:
        return np.zeros((rows, 1), dtype=np.float64 if kind == "double" else kind)
    if kind == "logical":
        return np.zeros((rows, 1), dtype=bool)
    if kind == "cell" or kind == "cellstr":
        return Cell.filled((rows, 1)) if kind == "cell" else Cell(np.array(
            [[np.zeros((0, 0), dtype=CHAR)] for _ in range(rows)], dtype=object).reshape(rows, 1))
    if kind == "string":
        return StringArray(np.full((rows, 1), None, dtype=object))
    if kind == "char":
        return np.zeros((rows, 0), dtype=CHAR)
    raise error("MATLAB:table:UnsupportedVariableType",
                f"Specify variable types as data types such as 'double' or 'string'. '{kind}' is "
                "not supported.")


@builtin(interp=True, argument_names=True)
def table(interp: Any, *args: Any) -> Table:
    """T = table(var1,...,varN)
    T = table(___,'VariableNames',varNames)
    T = table(___,'RowNames',rowNames)
    T = table('Size',sz,'VariableTypes',varTypes)

    Table array with named variables: each input is a variable (all with the
    same number of rows), named after the input's variable name (VarN when
    the input is not a variable)."""
    given = argument_names(interp, len(args))
    split = option_position(args)
    data, opts = list(args[:split]), name_values(args[split:], TABLE_OPTIONS, "table")
    if "Size" in opts:
        if data:
            raise error("MATLAB:table:InvalidSizeSyntax",
                        "Size and VariableTypes cannot be specified with data inputs.")
        return _preallocated(opts)
    heights = {height_of(v) for v in data}
    if len(heights) > 1:
        raise error("MATLAB:table:UnequalVarLengths",
                    "All table variables must have the same number of rows.")
    names = [given[k] or f"Var{k + 1}" for k in range(len(data))]
    if "VariableNames" not in opts:
        names = unique_default_names(names)
    rows = heights.pop() if heights else None
    if rows is None and "RowNames" in opts:
        rows = len(text_list(opts["RowNames"], "RowNames"))
    return with_options(Table(data, names, nrows=rows or 0), opts)


@builtin(interp=True, argument_names=True)
def array2table(interp: Any, a: Any, *args: Any) -> Table:
    """T = array2table(A)
    T = array2table(A,'VariableNames',varNames,'RowNames',rowNames)

    Table made of the columns of a matrix, one variable each."""
    given = argument_names(interp, 1)[0] or "Var"
    opts = name_values(args, ("VariableNames", "RowNames", "DimensionNames"), "array2table")
    shape = size_of(a)
    if len(shape) != 2:
        raise error("MATLAB:array2table:NDArray", "Input must be a 2-D array.")
    if type(a) in (Table, Struct):
        raise error("MATLAB:array2table:InvalidInput", "Input must be a 2-D array.")
    # one variable (and one name) per column, held as MATLAB holds a cell's elements: an
    # empty matrix of billions of columns is refused, not built
    check_array_size((1, shape[1]), np.dtype(object))
    variables = [indexing.index(a, [COLON, float(j + 1)]) for j in range(shape[1])]
    t = Table(variables, [f"{given}{j + 1}" for j in range(shape[1])], nrows=shape[0])
    return with_options(t, opts)


@builtin()
def cell2table(c: Any, *args: Any) -> Table:
    """T = cell2table(C)
    T = cell2table(C,'VariableNames',varNames,'RowNames',rowNames)

    Table made of the columns of a cell array: a column of text becomes a cell
    array of character vectors, a column of numbers a numeric variable."""
    if type(c) is not Cell or c.data.ndim != 2:
        raise error("MATLAB:cell2table:InvalidInput", "Input must be a 2-D cell array.")
    opts = name_values(args, ("VariableNames", "RowNames", "DimensionNames"), "cell2table")
    rows, cols = c.data.shape
    variables = [column_value(list(c.data[:, j])) if rows else np.zeros((0, 1)) for j in range(cols)]
    return with_options(Table(variables, [f"Var{j + 1}" for j in range(cols)], nrows=rows), opts)


@builtin()
def struct2table(s: Any, *args: Any) -> Table:
    """T = struct2table(S)
    T = struct2table(S,'AsArray',true)

    Table made from a structure: the fields of a scalar structure are the
    variables (all with the same number of rows); for a structure array each
    element is a row."""
    if type(s) is not Struct:
        raise error("MATLAB:struct2table:InvalidInput", "Input must be a structure.")
    opts = name_values(args, ("RowNames", "AsArray", "DimensionNames"), "struct2table")
    as_array = option_flag(opts.pop("AsArray")) if "AsArray" in opts else False
    fields = list(s.fields)
    if s.elems.size == 1 and not as_array:
        element = s.elems.reshape(-1)[0]
        variables = [element[f] for f in fields]
        heights = {height_of(v) for v in variables}
        if len(heights) > 1:
            raise error("MATLAB:table:UnequalFieldLengths",
                        "The fields in a scalar structure must have the same number of rows.")
        t = Table(variables, fields, nrows=heights.pop() if heights else 0)
    else:
        if len(s.shape) != 2 or min(s.shape) > 1:
            raise error("MATLAB:struct2table:NDStructArray", "Input must be a vector of structures.")
        elements = list(s.elems.ravel(order="F"))
        variables = [column_value([e[f] for e in elements]) for f in fields]
        t = Table(variables, fields, nrows=len(elements))
    return with_options(t, opts)


@builtin()
def table2array(t: Any) -> Any:
    """A = table2array(T) is the table's data concatenated into one array."""
    return _table_argument(t, "table2array").contents()


@builtin()
def table2cell(t: Any) -> Cell:
    """C = table2cell(T) is a cell array with one element per row and variable."""
    t = _table_argument(t, "table2cell")
    data = np.empty((t.nrows, t.width), dtype=object)
    for j, v in enumerate(t.variables):
        for i, value in enumerate(row_values(v)):
            data[i, j] = value
    return Cell(data)


def row_values(v: Any) -> list:
    """The value of each row of a variable (a one-column cell gives its elements)."""
    rows = height_of(v)
    if type(v) is Cell and v.data.ndim == 2 and v.data.shape[1] == 1:
        return list(v.data[:, 0])
    return [take_rows(v, np.array([i])) for i in range(rows)]


@builtin()
def table2struct(t: Any, *args: Any) -> Struct:
    """S = table2struct(T) is a structure array with one element per row.
    S = table2struct(T,'ToScalar',true) is a scalar structure with one field per variable."""
    t = _table_argument(t, "table2struct")
    opts = name_values(args, ("ToScalar",), "table2struct")
    if "ToScalar" in opts and option_flag(opts["ToScalar"]):
        return Struct.scalar(dict(zip(t.names, t.variables, strict=True)))
    elems = np.empty((t.nrows, 1), dtype=object)
    columns = [row_values(v) for v in t.variables]
    for i in range(t.nrows):
        elems[i, 0] = {name: col[i] for name, col in zip(t.names, columns, strict=True)}
    return Struct(list(t.names), elems)


def _table_argument(t: Any, function: str) -> Table:
    if type(t) is not Table:
        raise error(f"MATLAB:{function}:InvalidInput" if function else "MATLAB:table:InvalidInput",
                    "Input must be a table.")
    return t


@builtin(dl="native")
def istable(x: Any) -> bool:
    """tf = istable(A) is true when A is a table."""
    return type(x) is Table


@builtin()
def height(t: Any) -> float:
    """H = height(T) is the number of rows of a table (or of any array)."""
    return float(size_of(t)[0])


@builtin()
def width(t: Any) -> float:
    """W = width(T) is the number of variables of a table (or columns of any array)."""
    shape = size_of(t)
    return float(shape[1] if len(shape) > 1 else 1)


