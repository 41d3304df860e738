"""``[T1, T2]`` and ``[T1; T2]``: concatenating tables.

Side by side, the tables must have the same height and different variable
names; one above the other, the same variable names (matched by name, in any
order).  A cell array in a vertical concatenation is a row of values for the
table's variables (``[T; {1, 'a'}]``); ``[]`` is ignored.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.concat import concatenate
from mlang.values.core import size_of
from mlang.values.table import Table, column_value, duplicate_variable, take_rows


def _is_nothing(v: Any) -> bool:
    return type(v) is np.ndarray and v.shape == (0, 0)


def horizontal(parts: list) -> Any:
    parts = [p for p in parts if not _is_nothing(p)]
    if not parts:
        return np.zeros((0, 0))
    if any(type(p) is not Table for p in parts):
        if len(parts) == 1:
            return parts[0]
        raise error("MATLAB:table:horzcat:InvalidInput",
                    "Tables can only be concatenated with other tables.")
    first = parts[0]
    if len(parts) == 1:
        return first
    out = first.copy()
    seen = set(out.names)
    for t in parts[1:]:
        if t.nrows != out.nrows:
            raise error("MATLAB:table:horzcat:SizeMismatch",
                        "All tables being horizontally concatenated must have the same number of "
                        "rows.")
        for name in t.names:
            if name in seen:
                raise duplicate_variable(name)
            seen.add(name)
        if out.row_names is None and t.row_names is not None:
            out.row_names = list(t.row_names)
        out.variables += t.variables
        out.names += t.names
        for slot in ("variable_units", "variable_descriptions", "variable_continuity"):
            mine, theirs = getattr(out, slot), getattr(t, slot)
            if mine is not None or theirs is not None:
                fill = "unset" if slot == "variable_continuity" else ""
                setattr(out, slot, (mine or [fill] * (out.width - t.width)) + (theirs or [fill] * t.width))
    return out


def _cell_rows_as_table(c: Cell, like: Table) -> Table:
    data = c.data
    if data.ndim != 2 or data.shape[1] != like.width:
        raise error("MATLAB:table:vertcat:SizeMismatch",
                    "All tables being vertically concatenated must have the same number of "
                    "variables.")
    return Table([column_value(list(data[:, j])) for j in range(like.width)], list(like.names))


def vertical(parts: list) -> Any:
    parts = [p for p in parts if not _is_nothing(p)]
    tables = [p for p in parts if type(p) is Table]
    if not tables:
        return concatenate([[p] for p in parts])
    first = tables[0]
    converted: list[Table] = []
    for p in parts:
        if type(p) is Table:
            converted.append(p)
        elif type(p) is Cell:
            converted.append(_cell_rows_as_table(p, first))
        else:
            raise error("MATLAB:table:vertcat:InvalidInput",
                        "Tables can only be concatenated with other tables or cell arrays.")
    # a table with no variables and no rows (table()) adds nothing
    converted = [t for t in converted if t.width or t.nrows] or converted[:1]
    base = converted[0]
    if len(converted) == 1:
        return base
    columns: list[list] = [[v] for v in base.variables]
    row_names: list[str] | None = list(base.row_names) if base.row_names is not None else None
    for t in converted[1:]:
        if t.width != base.width:
            raise error("MATLAB:table:vertcat:SizeMismatch",
                        "All tables being vertically concatenated must have the same number of "
                        "variables.")
        if set(t.names) != set(base.names):
            raise error("MATLAB:table:vertcat:UnequalVarNames",
                        "All tables being vertically concatenated must have the same variable "
                        "names.")
        for k, name in enumerate(base.names):
            columns[k].append(t.variables[t.names.index(name)])
        if row_names is not None and t.row_names is not None:
            row_names += t.row_names
        else:
            row_names = None
    if row_names is not None and len(set(row_names)) != len(row_names):
        seen: set[str] = set()
        for name in row_names:
            if name in seen:
                raise error("MATLAB:table:DuplicateRowNames", f"Duplicate row name: '{name}'.")
            seen.add(name)
    variables = []
    for col in columns:
        if any(type(v) is Cell for v in col) and not all(type(v) is Cell for v in col):
            col = [v if type(v) is Cell else _as_cell_column(v) for v in col]
        variables.append(concatenate([[v] for v in col]))
    height = sum(t.nrows for t in converted)
    return base.copy(variables=variables, row_names=row_names, nrows=height)


def _as_cell_column(v: Any) -> Cell:
    rows = size_of(v)[0]
    data = np.empty((rows, 1), dtype=object)
    if rows == 1:
        data[0, 0] = v
    else:
        for i in range(rows):
            data[i, 0] = take_rows(v, np.array([i]))
    return Cell(data)


def concatenate_tables(rows: list[list]) -> Any:
    """``[a, b; c, d]`` where some element is a table."""
    return vertical([horizontal(row) for row in rows])
