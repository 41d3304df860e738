"""Combining and grouping tables: innerjoin, outerjoin, join (of tables, routed here by
the table's call hook), groupsummary."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, text_list, text_option
from mlang.builtins.data.table_functions import table_argument, variable_list
from mlang.builtins.data.tables import argument_names, name_values
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import CHAR, char_row, class_of, size_of, to_array
from mlang.values.string import StringArray
from mlang.values.table import TABLE_CALLS, Table, lengthen, put_rows, take_rows, texts_of


def row_keys(v: Any) -> list:
    """A hashable, orderable key for each row of a variable."""
    rows = size_of(v)[0]
    if type(v) is Cell:
        texts = texts_of(v)
        if texts is not None and v.data.ndim == 2 and v.data.shape[1] == 1:
            return [(0, s) for s in texts]
        # MATLAB's joinUtil: unique() refuses a cell that is not text.
        raise error("MATLAB:table:join:KeyVarNonStringError",
                    "Key variables must be numeric, logical, text (cell arrays of character "
                    "vectors or strings).")
    if type(v) is StringArray:
        return [(0, "") if s is None else (0, s) for s in v.data.reshape(rows, -1)[:, 0]]
    a = to_array(v)
    if a.dtype.kind == "V":
        return [(0, "".join(chr(c) for c in row)) for row in a.view(np.uint16).reshape(rows, -1)]
    flat = a.reshape(rows, -1).astype(np.float64)
    return [tuple(float(x) for x in row) for row in flat]


def _keys_of(t: Table, positions: list[int]) -> list[tuple]:
    columns = [row_keys(t.variables[k]) for k in positions]
    return [tuple(col[i] for col in columns) for i in range(t.nrows)]


def _join_keys(a: Table, b: Table, opts: dict[str, Any]) -> tuple[list[int], list[int]]:
    if "Keys" in opts:
        names = _key_names(a, opts["Keys"])
        return [a.index_of(n) for n in names], [b.index_of(n) for n in names]
    if "LeftKeys" in opts or "RightKeys" in opts:
        if "LeftKeys" not in opts or "RightKeys" not in opts:
            raise error("MATLAB:table:join:MissingKeyVar",
                        "Specify both 'LeftKeys' and 'RightKeys'.")
        left = variable_list(a, opts["LeftKeys"])
        right = variable_list(b, opts["RightKeys"])
        if len(left) != len(right):
            raise error("MATLAB:table:join:UnequalNumKeyVars",
                        "'LeftKeys' and 'RightKeys' must specify the same number of key variables.")
        return left, right
    common = [n for n in a.names if n in b.names]
    if not common:
        raise error("MATLAB:table:join:CantInferKey",
                    "Cannot find a common table variable to use as a key variable.")
    return [a.index_of(n) for n in common], [b.index_of(n) for n in common]


def _key_names(t: Table, spec: Any) -> list[str]:
    if type(spec) in (Cell, StringArray) or texts_of(spec) is not None:
        return text_list(spec, "Keys")
    return [t.names[k] for k in variable_list(t, spec)]


def _join_tables(a: Any, b: Any) -> tuple[Table, Table]:
    if type(a) is not Table or type(b) is not Table:
        raise error("MATLAB:table:join:InvalidInput", "Both inputs must be tables.")
    return a, b


def _suffixes(interp: Any) -> tuple[str, str]:
    given = argument_names(interp, 2)
    return given[0] or "left", given[1] or "right"


def _selected(t: Table, opts: dict[str, Any], option: str, default: list[int]) -> list[int]:
    return variable_list(t, opts[option]) if option in opts else default


def _unique_names(left: list[str], right: list[str], suffixes: tuple[str, str],
                  keep: set[str]) -> tuple[list[str], list[str]]:
    """Names in both lists (other than merged keys) get the tables' suffixes."""
    clash = (set(left) & set(right)) - keep
    return ([f"{n}_{suffixes[0]}" if n in clash else n for n in left],
            [f"{n}_{suffixes[1]}" if n in clash else n for n in right])


JOIN_OPTIONS = ("Keys", "LeftKeys", "RightKeys", "LeftVariables", "RightVariables")


@builtin(interp=True, nargout=True, max_out=3, argument_names=True)
def innerjoin(interp: Any, a: Any, b: Any, *args: Any, nargout: int = 1) -> Any:
    """C = innerjoin(A,B) joins the rows of two tables whose key variables match
    (the variables with the same names, unless 'Keys' names them), sorted by key.
    C = innerjoin(A,B,'Keys',keys,'LeftVariables',lv,'RightVariables',rv)
    [C,ia,ib] = innerjoin(___) also gives the rows of A and B each row of C came from."""
    suffixes = _suffixes(interp)
    a, b = _join_tables(a, b)
    opts = name_values(args, JOIN_OPTIONS, "innerjoin")
    left_keys, right_keys = _join_keys(a, b, opts)
    right_index: dict[tuple, list[int]] = {}
    for j, key in enumerate(_keys_of(b, right_keys)):
        right_index.setdefault(key, []).append(j)
    pairs = []
    for i, key in enumerate(_keys_of(a, left_keys)):
        for j in right_index.get(key, []):
            pairs.append((key, i, j))
    pairs.sort(key=lambda p: p[0])
    ia = np.array([p[1] for p in pairs], dtype=np.intp)
    ib = np.array([p[2] for p in pairs], dtype=np.intp)
    left_vars = _selected(a, opts, "LeftVariables", list(range(a.width)))
    right_vars = _selected(b, opts, "RightVariables",
                           [k for k in range(b.width) if k not in right_keys])
    left = a.select_variables(left_vars).select_rows(ia)
    right = b.select_variables(right_vars).select_rows(ib)
    left_names, right_names = _unique_names(left.names, right.names, suffixes, set())
    out = Table(left.variables + right.variables, left_names + right_names, nrows=len(pairs))
    if nargout > 1:
        return out, (ia + 1).astype(np.float64).reshape(-1, 1), (ib + 1).astype(np.float64).reshape(-1, 1)
    return out


def _missing_rows(v: Any, n: int) -> Any:
    """``n`` rows of missing values of a variable's class (NaN, '', <missing>, 0)."""
    empty = take_rows(v, np.array([], dtype=np.intp))
    if type(v) is Cell:
        data = np.empty((n, *v.data.shape[1:]), dtype=object)
        data.fill(np.zeros((0, 0), dtype=CHAR) if texts_of(v) is not None else np.zeros((0, 0)))
        return Cell(data)
    grown = lengthen(empty, n)
    if type(grown) is np.ndarray and class_of(grown) in ("double", "single"):
        grown = grown.copy()
        grown[...] = np.nan
    return grown


def _rows_or_missing(t: Table, k: int, index: list[int | None]) -> Any:
    """Rows of variable k at ``index``, missing where the index is None."""
    v = t.variables[k]
    present = [i for i in index if i is not None]
    rows = take_rows(v, np.array(present, dtype=np.intp))
    if len(present) == len(index):
        return rows
    filled = _missing_rows(v, len(index))
    at = np.array([p for p, i in enumerate(index) if i is not None], dtype=np.intp)
    if at.size == 0:
        return filled
    return put_rows(filled, at, rows)


@builtin(interp=True, nargout=True, max_out=3, argument_names=True)
def outerjoin(interp: Any, a: Any, b: Any, *args: Any, nargout: int = 1) -> Any:
    """C = outerjoin(A,B) joins two tables keeping the rows of both that have no match
    (their other variables missing: NaN, '' or <missing>), sorted by key.
    C = outerjoin(A,B,'Type',type) with type 'full', 'left' or 'right'
    C = outerjoin(A,B,'MergeKeys',true) makes one variable of each pair of keys."""
    suffixes = _suffixes(interp)
    a, b = _join_tables(a, b)
    opts = name_values(args, (*JOIN_OPTIONS, "Type", "MergeKeys"), "outerjoin")
    word = text_option(opts.get("Type", char_row("full")))
    # MATLAB's outerjoin takes a leading part of 'inner', 'left', 'right' or 'full'.
    kinds = [k for k in ("inner", "left", "right", "full") if word and k.startswith(word)]
    if not kinds:
        raise error("MATLAB:table:join:InvalidType", "Type must be 'full', 'left', or 'right'.")
    kind = kinds[0]
    merge = option_flag(opts["MergeKeys"]) if "MergeKeys" in opts else False
    left_keys, right_keys = _join_keys(a, b, opts)
    left_rows = _keys_of(a, left_keys)
    right_rows = _keys_of(b, right_keys)
    right_index: dict[tuple, list[int]] = {}
    for j, key in enumerate(right_rows):
        right_index.setdefault(key, []).append(j)
    rows: list[tuple[tuple, int | None, int | None]] = []
    matched_right: set[int] = set()
    for i, key in enumerate(left_rows):
        js = right_index.get(key, [])
        for j in js:
            rows.append((key, i, j))
            matched_right.add(j)
        if not js and kind in ("full", "left"):
            rows.append((key, i, None))
    if kind in ("full", "right"):
        rows += [(key, None, j) for j, key in enumerate(right_rows) if j not in matched_right]
    rows.sort(key=lambda r: r[0])
    ia = [r[1] for r in rows]
    ib = [r[2] for r in rows]
    left_vars = _selected(a, opts, "LeftVariables", list(range(a.width)))
    right_vars = _selected(b, opts, "RightVariables", list(range(b.width)))
    variables, names_left, names_right = [], [], []
    merged_names: set[str] = set()
    for k in left_vars:
        if merge and k in left_keys:
            partner = right_keys[left_keys.index(k)]
            left_part = _rows_or_missing(a, k, ia)
            right_part = _rows_or_missing(b, partner, ib)
            only_right = np.array([p for p, i in enumerate(ia) if i is None], dtype=np.intp)
            value = put_rows(left_part, only_right, take_rows(right_part, only_right)) \
                if only_right.size else left_part
            variables.append(value)
            name = a.names[k] if a.names[k] == b.names[partner] else f"{a.names[k]}_{b.names[partner]}"
            names_left.append(name)
            merged_names.add(name)
        else:
            variables.append(_rows_or_missing(a, k, ia))
            names_left.append(a.names[k])
    right_values = []
    for k in right_vars:
        if merge and k in right_keys:
            continue
        right_values.append(_rows_or_missing(b, k, ib))
        names_right.append(b.names[k])
    names_left, names_right = _unique_names(names_left, names_right, suffixes, merged_names)
    out = Table(variables + right_values, names_left + names_right, nrows=len(rows))
    if nargout > 1:
        def positions(index: list[int | None]) -> np.ndarray:
            return np.array([0.0 if i is None else i + 1.0 for i in index]).reshape(-1, 1)

        return out, positions(ia), positions(ib)
    return out


def join_tables(interp: Any, args: list, nargout: int) -> Any:
    """C = join(A,B), C = join(A,B,'Keys',keys,...): each row of A with the one row of B
    whose keys match, in A's order; [C,ib] = join(...) also gives those rows of B."""
    if len(args) < 2 or type(args[0]) is not Table or type(args[1]) is not Table:
        return NotImplemented
    a, b = args[0], args[1]
    opts = name_values(args[2:], JOIN_OPTIONS, "join")
    left_keys, right_keys = _join_keys(a, b, opts)
    right_index: dict[tuple, int] = {}
    for j, key in enumerate(_keys_of(b, right_keys)):
        if key in right_index:
            raise error("MATLAB:table:join:DuplicateRightKeyVarValues",
                        "The key variables for the right table must have unique values.")
        right_index[key] = j
    ib = []
    for key in _keys_of(a, left_keys):
        if key not in right_index:
            # MATLAB says "Values" with more than one key variable.
            raise error("MATLAB:table:join:LeftKeyValueNotFound" if len(left_keys) == 1
                        else "MATLAB:table:join:LeftKeyValuesNotFound",
                        "The key variables for the right table must contain all values in the key "
                        "variables for the left table.")
        ib.append(right_index[key])
    rows = np.array(ib, dtype=np.intp)
    left_vars = _selected(a, opts, "LeftVariables", list(range(a.width)))
    right_vars = _selected(b, opts, "RightVariables",
                           [k for k in range(b.width) if k not in right_keys])
    left = a.select_variables(left_vars)
    right = b.select_variables(right_vars).select_rows(rows)
    left_names, right_names = _unique_names(left.names, right.names, ("left", "right"), set())
    out = left.copy(variables=left.variables + right.variables, names=left_names + right_names,
                    variable_units=None, variable_descriptions=None, variable_continuity=None)
    return [out, (rows + 1).astype(np.float64).reshape(-1, 1)][:max(nargout, 1)]


TABLE_CALLS["join"] = join_tables


# ---------------------------------------------------------------- groupsummary


def _reduce(method: str, values: np.ndarray) -> np.ndarray:
    """One summary row of a group's rows (missing values left out, as groupsummary does)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if method == "numel":
            return np.full(values.shape[1:], float(values.shape[0]))
        if method == "nnz":
            return np.sum((values != 0) & ~np.isnan(values), axis=0).astype(np.float64)
        if method == "nummissing":
            return np.sum(np.isnan(values), axis=0).astype(np.float64)
        functions = {"mean": np.nanmean, "sum": np.nansum, "min": np.nanmin, "max": np.nanmax,
                     "median": np.nanmedian,
                     "std": lambda x, axis: np.nanstd(x, axis=axis, ddof=1),
                     "var": lambda x, axis: np.nanvar(x, axis=axis, ddof=1),
                     "range": lambda x, axis: np.nanmax(x, axis=axis) - np.nanmin(x, axis=axis)}
        if values.shape[0] == 0:
            return np.full(values.shape[1:], 0.0 if method == "sum" else np.nan)
        return np.asarray(functions[method](values, axis=0), dtype=np.float64)


def _numeric(v: Any) -> bool:
    return class_of(v) in ("double", "single", "logical") or class_of(v).startswith(("int", "uint"))


GROUP_METHODS = ("mean", "sum", "min", "max", "median", "std", "var", "range", "numel", "nnz",
                 "nummissing")


@builtin()
def groupsummary(t: Any, groupvars: Any, *args: Any) -> Table:
    """G = groupsummary(T,groupvars) counts the rows of each group of a table.
    G = groupsummary(T,groupvars,method)
    G = groupsummary(T,groupvars,method,datavars)

    method is 'mean', 'sum', 'min', 'max', 'median', 'std', 'var', 'range',
    'numel', 'nnz', 'nummissing' or a cell array of them; the result has the
    groups' values, GroupCount, and a variable method_datavar for each."""
    t = table_argument(t)
    group_positions = variable_list(t, groupvars)
    methods: list[str] = []
    if args:
        methods = [m.lower() for m in text_list(args[0], "Method")]
        if methods == ["all"]:
            methods = [m for m in GROUP_METHODS if m != "nummissing"]
        for m in methods:
            if m not in GROUP_METHODS:
                raise error("MATLAB:groupsummary:InvalidMethodOption",
                            f"Invalid method '{m}'.")
    if len(args) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if len(args) > 1:
        data_positions = variable_list(t, args[1])
    else:
        data_positions = [k for k in range(t.width)
                          if k not in group_positions and _numeric(t.variables[k])]
    keys = _keys_of(t, group_positions)
    groups: dict[tuple, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    ordered = sorted(groups)
    first_rows = np.array([groups[k][0] for k in ordered], dtype=np.intp)
    out_vars = [take_rows(t.variables[k], first_rows) for k in group_positions]
    out_names = [t.names[k] for k in group_positions]
    out_vars.append(np.array([[float(len(groups[k]))] for k in ordered]).reshape(-1, 1))
    out_names.append("GroupCount")
    for k in data_positions:
        v = t.variables[k]
        if not _numeric(v):
            if methods and methods != ["numel"]:
                raise error("MATLAB:groupsummary:InvalidDataVariables",
                            f"Data variable '{t.names[k]}' must be numeric or logical for method "
                            f"'{methods[0]}'.")
        for m in methods:
            if _numeric(v):
                data = to_array(v).astype(np.float64)
            else:
                data = np.zeros((t.nrows, 1))
            data = data.reshape(t.nrows, -1)
            rows = [_reduce(m, data[groups[key]]) for key in ordered]
            out_vars.append(np.array(rows, dtype=np.float64).reshape(len(ordered), -1))
            out_names.append(f"{m}_{t.names[k]}")
    return Table(out_vars, out_names, nrows=len(ordered))
