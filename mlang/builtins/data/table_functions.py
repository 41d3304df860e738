"""Working with tables: head, tail, addvars, removevars, renamevars, movevars,
varfun, rowfun, and sortrows of a table (routed here by the table's call hook)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import integer_scalar, option_flag, text_list, text_option, text_or_none
from mlang.builtins.data.tables import argument_names, name_values, row_values
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.concat import concatenate
from mlang.values.core import char_row, class_of, size_of, to_array
from mlang.values.handle import FunctionHandle
from mlang.values.string import StringArray
from mlang.values.table import TABLE_CALLS, Table, column_value, duplicate_variable, take_rows, texts_of
from mlang.values.table_properties import checked_names


def table_argument(t: Any) -> Table:
    if type(t) is not Table:
        raise error("MATLAB:table:InvalidInput", "Input must be a table.")
    return t


def variable_list(t: Table, v: Any) -> list[int]:
    """0-based positions of the variables a name, names, indices or a logical mask give."""
    if text_or_none(v) is not None or type(v) is Cell or (hasattr(v, "matlab_class") and
                                                           v.matlab_class == "string"):
        return [t.index_of(name) for name in text_list(v, "Variables")]
    positions, _ = t.variable_positions(v)
    return positions


def _count(k: Any) -> int:
    return integer_scalar(k, "Number of rows must be a nonnegative integer scalar.",
                          "MATLAB:table:head:InvalidNumRows")


@builtin()
def head(t: Any, k: Any = 8.0) -> Any:
    """B = head(A) is the first eight rows of a table or array.
    B = head(A,k) is the first k rows."""
    n = size_of(t)[0]
    rows = np.arange(min(max(_count(k), 0), n))
    return t.select_rows(rows) if type(t) is Table else take_rows(t, rows)


@builtin()
def tail(t: Any, k: Any = 8.0) -> Any:
    """B = tail(A) is the last eight rows of a table or array.
    B = tail(A,k) is the last k rows."""
    n = size_of(t)[0]
    rows = np.arange(n - min(max(_count(k), 0), n), n)
    return t.select_rows(rows) if type(t) is Table else take_rows(t, rows)


def _location(t: Table, opts: dict[str, Any]) -> int:
    """The position new or moved variables go to ('Before'/'After' a variable; the end)."""
    if "Before" in opts and "After" in opts:
        raise error("MATLAB:table:addmovevars:BeforeAndAfter",
                    "Specify either 'Before' or 'After', not both.")
    for key, shift in (("Before", 0), ("After", 1)):
        if key in opts:
            positions = variable_list(t, opts[key])
            if len(positions) != 1:
                raise error("MATLAB:table:addmovevars:InvalidLocation",
                            "Specify the location as a single variable name or index.")
            return positions[0] + shift
    return t.width


@builtin(interp=True, argument_names=True)
def addvars(interp: Any, t: Any, *args: Any) -> Table:
    """T2 = addvars(T1,var1,...,varN)
    T2 = addvars(___,'Before',location)
    T2 = addvars(___,'After',location)
    T2 = addvars(___,'NewVariableNames',newNames)

    Add variables to a table (at the end unless a location is given)."""
    given = argument_names(interp, len(args) + 1)[1:]
    t = table_argument(t)
    split = len(args)
    for k in range(len(args)):
        word = text_option(args[k])
        if word in ("before", "after", "newvariablenames") and (len(args) - k) % 2 == 0:
            split = k
            break
    values = list(args[:split])
    opts = name_values(args[split:], ("Before", "After", "NewVariableNames"), "addvars")
    if "NewVariableNames" in opts:
        names = text_list(opts["NewVariableNames"], "NewVariableNames")
        if len(names) != len(values):
            raise error("MATLAB:table:addvars:IncorrectNumberOfVarNames",
                        "The number of new variable names must match the number of variables to "
                        "add.")
    else:
        names = [given[k] or f"Var{t.width + k + 1}" for k in range(len(values))]
    at = _location(t, opts)
    out = t
    for name, value in zip(names, values, strict=True):
        if name in out.names:
            raise duplicate_variable(name)
        out = out.with_variable(name, value)
    order = list(range(t.width))
    order[at:at] = list(range(t.width, out.width))
    return out.select_variables(order)


@builtin()
def removevars(t: Any, variables: Any) -> Table:
    """T2 = removevars(T1,vars) is the table without the variables vars."""
    t = table_argument(t)
    return t.without_variables(variable_list(t, variables))


@builtin()
def renamevars(t: Any, variables: Any, new_names: Any) -> Table:
    """T2 = renamevars(T1,vars,newNames) renames the variables vars."""
    t = table_argument(t)
    positions = variable_list(t, variables)
    names = text_list(new_names, "New names")
    if len(names) != len(positions):
        raise error("MATLAB:table:renamevars:IncorrectNumberOfNames",
                    "The number of new variable names must match the number of variables to "
                    "rename.")
    out = list(t.names)
    for k, name in zip(positions, names, strict=True):
        out[k] = name
    return t.copy(names=checked_names(out, t.width))


@builtin()
def movevars(t: Any, variables: Any, *args: Any) -> Table:
    """T2 = movevars(T1,vars,'Before',location)
    T2 = movevars(T1,vars,'After',location)

    Move variables of a table (to the end when no location is given)."""
    t = table_argument(t)
    moving = variable_list(t, variables)
    opts = name_values(args, ("Before", "After"), "movevars")
    at = _location(t, opts)
    rest = [k for k in range(t.width) if k not in moving]
    at -= sum(1 for k in moving if k < at)
    order = rest[:at] + moving + rest[at:]
    return t.select_variables(order)


# ---------------------------------------------------------------- functions over tables


def _function_name(fn: Any) -> str:
    if type(fn) is FunctionHandle and not fn.is_anonymous and fn.name:
        return fn.name
    return "Fun"


def _output_format(opts: dict[str, Any]) -> str:
    fmt = text_option(opts.get("OutputFormat", char_row("table"))) or ""
    if fmt not in ("table", "uniform", "cell"):
        raise error("MATLAB:table:InvalidOutputFormat",
                    "OutputFormat must be 'table', 'uniform', or 'cell'.")
    return fmt


def _check_function(fn: Any) -> None:
    if type(fn) is not FunctionHandle:
        raise error("MATLAB:table:InvalidFunction", "The first input must be a function handle.")


@builtin(interp=True)
def varfun(interp: Any, fn: Any, t: Any, *args: Any) -> Any:
    """B = varfun(func,A) applies func to each variable of a table.
    B = varfun(___,'InputVariables',vars,'OutputFormat',fmt)

    fmt is 'table' (variables named func_var), 'uniform' (a row vector of
    scalar results) or 'cell'."""
    _check_function(fn)
    t = table_argument(t)
    opts = name_values(args, ("InputVariables", "OutputFormat", "GroupingVariables"), "varfun")
    if "GroupingVariables" in opts:
        raise error("MATLAB:table:varfun:GroupingUnsupported",
                    "varfun with 'GroupingVariables' is not supported; use groupsummary.")
    positions = variable_list(t, opts["InputVariables"]) if "InputVariables" in opts else \
        list(range(t.width))
    fmt = _output_format(opts)
    results = []
    for k in positions:
        out = interp.call_value(fn, [t.variables[k]], 1)
        if not out:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        results.append(out[0])
    if fmt == "cell":
        return Cell.row(results)
    if fmt == "uniform":
        for r in results:
            if size_of(r) != (1, 1):
                raise error("MATLAB:table:varfun:NotAScalarOutput",
                            "The function must return a scalar when 'OutputFormat' is 'uniform'.")
        return concatenate([results]) if results else np.zeros((1, 0))
    prefix = _function_name(fn)
    names = [f"{prefix}_{t.names[k]}" for k in positions]
    heights = {size_of(r)[0] for r in results}
    if len(heights) > 1:
        raise error("MATLAB:table:varfun:UnequalOutputHeights",
                    "The function must return outputs of the same height for every variable.")
    row_names = t.row_names if heights == {t.nrows} else None
    return Table(results, names, row_names, nrows=heights.pop() if heights else 1)


@builtin(interp=True)
def rowfun(interp: Any, fn: Any, t: Any, *args: Any) -> Any:
    """B = rowfun(func,A) calls func on each row of a table, with one argument per
    variable.
    B = rowfun(___,'InputVariables',vars,'OutputVariableNames',names,
               'NumOutputs',n,'OutputFormat',fmt,'ExtractCellContents',tf)"""
    _check_function(fn)
    t = table_argument(t)
    opts = name_values(args, ("InputVariables", "OutputFormat", "NumOutputs", "OutputVariableNames",
                              "ExtractCellContents", "GroupingVariables"), "rowfun")
    if "GroupingVariables" in opts:
        raise error("MATLAB:table:rowfun:GroupingUnsupported",
                    "rowfun with 'GroupingVariables' is not supported; use groupsummary.")
    positions = variable_list(t, opts["InputVariables"]) if "InputVariables" in opts else \
        list(range(t.width))
    fmt = _output_format(opts)
    extract = option_flag(opts["ExtractCellContents"]) if "ExtractCellContents" in opts else False
    names = text_list(opts["OutputVariableNames"], "OutputVariableNames") \
        if "OutputVariableNames" in opts else None
    nout = integer_scalar(opts["NumOutputs"], "NumOutputs must be a nonnegative integer.",
                          "MATLAB:table:rowfun:InvalidNumOutputs") if "NumOutputs" in opts \
        else (len(names) if names else 1)
    columns = []
    for k in positions:
        v = t.variables[k]
        if type(v) is Cell and extract:
            columns.append(row_values(v))
        else:
            columns.append([take_rows(v, np.array([i])) for i in range(t.nrows)])
    outputs: list[list] = [[] for _ in range(nout)]
    for i in range(t.nrows):
        out = interp.call_value(fn, [col[i] for col in columns], nout)
        if len(out) < nout:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        for j in range(nout):
            outputs[j].append(out[j])
    if fmt == "cell":
        data = np.empty((t.nrows, nout), dtype=object)
        for j in range(nout):
            for i in range(t.nrows):
                data[i, j] = outputs[j][i]
        return Cell(data)
    if fmt == "uniform":
        done = []
        for col in outputs:
            if any(size_of(v) != (1, 1) for v in col):
                raise error("MATLAB:table:rowfun:NotAScalarOutput",
                            "The function must return a scalar when 'OutputFormat' is 'uniform'.")
            done.append(concatenate([[v] for v in col]) if col else np.zeros((0, 1)))
        return done[0] if len(done) == 1 else tuple(done)
    names = names or [f"Var{j + 1}" for j in range(nout)]
    if len(names) != nout:
        raise error("MATLAB:table:rowfun:OutputVarNamesWrongLength",
                    "The number of output variable names must match the number of outputs.")
    return Table([column_value(col) if col else np.zeros((0, 1)) for col in outputs], names,
                 t.row_names, nrows=t.nrows)


# ---------------------------------------------------------------- sorting


def _sort_keys(v: Any, descending: bool) -> list[np.ndarray]:
    """Sort keys of each column of a variable: ascending order of a key is the wanted order
    (texts by their ranks in character-code order; NaN last, or first when descending)."""
    rows = size_of(v)[0]
    texts = texts_of(v) if type(v) in (Cell, StringArray) else None
    if texts is not None:
        ranks = {s: r for r, s in enumerate(sorted(set(texts)))}
        columns = np.array([ranks[s] for s in texts], dtype=np.float64).reshape(rows, -1, order="F")
        if type(v) is StringArray:  # missing strings sort last
            missing = np.array([s is None for s in v.data.ravel(order="F")]).reshape(rows, -1, order="F")
            columns[missing] = np.nan
    elif type(v) is Cell:
        raise error("MATLAB:table:sortrows:SortrowsOnVarFailed",
                    "Sorting a cell variable needs it to hold character vectors.")
    else:
        a = to_array(v)
        columns = (a.view(np.uint16) if a.dtype.kind == "V" else a).reshape(rows, -1, order="F")
        if columns.dtype.kind == "c":
            columns = np.abs(columns)
        columns = columns.astype(np.float64)
    out = []
    for j in range(columns.shape[1]):
        col = columns[:, j].copy()
        if descending:
            col = -col
            col[np.isnan(col)] = -np.inf
        else:
            col[np.isnan(col)] = np.inf
        out.append(col)
    return out


def _sort_spec(t: Table, spec: Any) -> tuple[list[int] | None, list[bool]]:
    """The variables a sortrows column argument names (None: by row names), and which of
    them a negative index sorts descending."""
    if text_or_none(spec) is not None or type(spec) is Cell or getattr(spec, "matlab_class", "") == "string":
        texts = text_list(spec, "Variables")
        if len(texts) == 1 and texts[0] in (t.dimension_names[0], "RowNames"):
            return None, []
        return [t.index_of(name) for name in texts], [False] * len(texts)
    cls = class_of(spec)
    if cls not in ("double", "single", "logical") and not cls.startswith(("int", "uint")):
        raise error("MATLAB:table:sortrows:BadVarSpec",
                    "Specify variables to sort by as names, positive or negative indices, or a "
                    "logical vector.")
    if cls == "logical":
        numbers = np.flatnonzero(to_array(spec).reshape(-1)).astype(np.float64) + 1
    else:
        numbers = to_array(spec).astype(np.float64).reshape(-1)
    if not np.all(np.isfinite(numbers)) or np.any(numbers != np.round(numbers)) or np.any(numbers == 0):
        raise error("MATLAB:table:VarIndexOutOfRange", "Variable index exceeds table dimensions.")
    positions = [int(abs(n)) - 1 for n in numbers]
    for k in positions:
        if not 0 <= k < t.width:
            raise error("MATLAB:table:VarIndexOutOfRange", "Variable index exceeds table dimensions.")
    return positions, [bool(n < 0) for n in numbers]


def sort_table_rows(t: Table, args: tuple | list, nargout: int = 1) -> Any:
    """sortrows(T), sortrows(T,vars), sortrows(T,vars,direction), sortrows(T,'RowNames'):
    the table with its rows sorted (and the permutation, as a column, for nargout 2)."""
    rest = list(args)
    positions: list[int] | None = list(range(t.width))
    negative = [False] * t.width
    if rest and text_option(rest[0]) not in ("ascend", "descend"):
        positions, negative = _sort_spec(t, rest.pop(0))
    directions: list[bool] = []
    if rest:
        if type(rest[0]) is Cell:
            directions = [text_option(x) == "descend" for x in rest[0].data.ravel(order="F")]
        else:
            word = text_option(rest[0])
            if word not in ("ascend", "descend"):
                raise error("MATLAB:table:sortrows:UnrecognizedMode",
                            "Sorting direction must be 'ascend' or 'descend'.")
            directions = [word == "descend"]
    if positions is None:  # by row names
        names = t.row_names or []
        index = np.array(sorted(range(len(names)), key=lambda i: names[i],
                                reverse=bool(directions and directions[0])), dtype=np.intp)
    else:
        keys: list[np.ndarray] = []
        for n, k in enumerate(positions):
            descending = directions[min(n, len(directions) - 1)] if directions else \
                (negative[n] if n < len(negative) else False)
            keys.extend(_sort_keys(t.variables[k], descending))
        index = np.lexsort(list(reversed(keys))) if keys else np.arange(t.nrows)
    out = t.select_rows(index)
    if nargout > 1:
        return out, (index + 1).astype(np.float64).reshape(-1, 1)
    return out


def _sortrows_call(interp: Any, args: list, nargout: int) -> Any:
    if not args or type(args[0]) is not Table:
        return NotImplemented
    out = sort_table_rows(args[0], args[1:], nargout)
    return list(out) if type(out) is tuple else [out]


TABLE_CALLS["sortrows"] = _sortrows_call
