"""MATLAB's table: named variables (columns) of equal height.

``variables[k]`` is the k-th variable, any MATLAB value whose first dimension is
the table's height (a numeric or logical array, a char matrix, a Cell, a
StringArray, a datetime or duration array, a nested table...); ``names[k]`` is its
name.  ``row_names`` is None or one name per row.  The other properties
(Description, UserData, DimensionNames, VariableUnits, VariableDescriptions,
VariableContinuity) have their own slots with MATLAB's defaults.

A table is a value: every operation returns a new table (the variables
themselves are shared, which is safe because MATLAB values are copied on write).
Python code reads and changes tables through ``variable``, ``with_variable``,
``height`` and ``width``; ``T(rows, vars)``, ``T{rows, vars}``, ``T.Var`` and their
assignments go through the object hooks below.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import MatlabError, error, warn
from mlang.values import indexing
from mlang.values.cell import Cell
from mlang.values.concat import concatenate
from mlang.values.core import EMPTY, char_row, char_rows, size_of, to_array
from mlang.values.indexing import COLON
from mlang.values.objects import MatlabObject
from mlang.values.string import StringArray

DEFAULT_DIMENSION_NAMES = ("Row", "Variables")

# Builtins that behave differently for a table argument (sortrows, join...): name ->
# function(interp, args, nargout) returning the list of outputs.  The table functions of
# the builtin library register them when they load (that layer sits above this one).
TABLE_CALLS: dict[str, Callable[[Any, list, int], list]] = {}


# ------------------------------------------------------------------ errors


def unrecognized_variable(name: str) -> MatlabError:
    return error("MATLAB:table:UnrecognizedVarName", f"Unrecognized table variable name '{name}'.")


def duplicate_variable(name: str) -> MatlabError:
    return error("MATLAB:table:DuplicateVarNames", f"Duplicate table variable name: '{name}'.")


def height_mismatch() -> MatlabError:
    return error("MATLAB:table:RowDimensionMismatch",
                 "To assign to or create a variable in a table, the number of rows must match "
                 "the height of the table.")


# ------------------------------------------------------------------ value helpers


def texts_of(v: object) -> list[str] | None:
    """The texts of a char row, a cell array of char rows or a string array; else None."""
    t = type(v)
    if t is np.ndarray and v.dtype.kind == "V":  # type: ignore[union-attr]
        if v.ndim == 2 and v.shape[0] <= 1:  # type: ignore[union-attr]
            return ["".join(char_rows(v))] if v.size else [""]  # type: ignore[union-attr]
        return None
    if t is Cell:
        out = []
        for x in v.data.ravel(order="F"):  # type: ignore[union-attr]
            if not (type(x) is np.ndarray and x.dtype.kind == "V" and x.ndim == 2 and x.shape[0] <= 1):
                return None
            out.append("".join(char_rows(x)) if x.size else "")
        return out
    if t is StringArray:
        return ["" if s is None else s for s in v.data.ravel(order="F")]  # type: ignore[union-attr]
    return None


def cellstr_row(texts: list[str]) -> Cell:
    return Cell.row([char_row(s) for s in texts])


def cellstr_column(texts: list[str]) -> Cell:
    data = np.empty((len(texts), 1), dtype=object)
    for i, s in enumerate(texts):
        data[i, 0] = char_row(s)
    return Cell(data)


def height_of(v: object) -> int:
    return size_of(v)[0]


def take_rows(v: object, positions: np.ndarray) -> object:
    """The rows of a variable at 0-based ``positions``."""
    idx = (np.asarray(positions, dtype=np.float64) + 1).reshape(-1, 1)
    return indexing.index(v, [idx, *[COLON] * (len(size_of(v)) - 1)])


def put_rows(v: object, positions: np.ndarray, rhs: object) -> object:
    """``v(positions, :, ...) = rhs`` (0-based positions; grows ``v`` as needed)."""
    idx = (np.asarray(positions, dtype=np.float64) + 1).reshape(-1, 1)
    return indexing.assign(v, [idx, *[COLON] * (len(size_of(v)) - 1)], rhs)


def drop_rows(v: object, positions: np.ndarray) -> object:
    keep = np.ones(height_of(v), dtype=bool)
    keep[positions] = False
    return take_rows(v, np.flatnonzero(keep))


def lengthen(v: object, n: int) -> object:
    """A variable grown to ``n`` rows with its class's default fill (0, false, blanks,
    ``[]`` cells, missing strings)."""
    h = height_of(v)
    if n <= h:
        return v
    t = type(v)
    if t is Cell:
        shape = (n - h, *v.shape[1:])  # type: ignore[attr-defined]
        return Cell(np.concatenate([v.data, Cell.filled(shape).data], axis=0))  # type: ignore[attr-defined]
    if t is StringArray:
        extra = np.empty((n - h, *v.shape[1:]), dtype=object)  # type: ignore[attr-defined]
        return StringArray(np.concatenate([v.data, extra], axis=0))  # type: ignore[attr-defined]
    if t is Table:
        return v.lengthened(n)  # type: ignore[union-attr]
    if t in (float, bool, complex, np.ndarray):
        a = to_array(v)
        if a.dtype.kind == "V":
            fill = np.full((n - h, *a.shape[1:]), char_row(" ")[0, 0], dtype=a.dtype)
        else:
            fill = np.zeros((n - h, *a.shape[1:]), dtype=a.dtype)
        return np.concatenate([a, fill], axis=0)
    # another class of value: repeat its last row (a class-specific fill is its own business)
    return put_rows(v, np.arange(h, n), take_rows(v, np.array([h - 1] * (n - h))))


def is_empty_double(v: object) -> bool:
    """``[]``: what deletes rows or variables when assigned."""
    return type(v) is np.ndarray and v.dtype == np.float64 and v.shape == (0, 0)


# ------------------------------------------------------------------ the table


# The changes ``Table.copy`` makes without going through the constructor.
_QUICK_CHANGES = frozenset({"variables", "nrows"})


class Table(MatlabObject):
    """A MATLAB table."""

    matlab_class = "table"
    __slots__ = ("variables", "names", "row_names", "description", "user_data", "dimension_names",
                 "variable_units", "variable_descriptions", "variable_continuity", "nrows")

    def __init__(self, variables: list[Any], names: list[str],
                 row_names: list[str] | None = None, *, nrows: int | None = None,
                 description: str = "", user_data: Any = None,
                 dimension_names: tuple[str, str] = DEFAULT_DIMENSION_NAMES,
                 variable_units: list[str] | None = None,
                 variable_descriptions: list[str] | None = None,
                 variable_continuity: list[str] | None = None) -> None:
        self.variables = variables
        self.names = names
        self.row_names = row_names
        if nrows is None:
            nrows = height_of(variables[0]) if variables else len(row_names or [])
        self.nrows = nrows
        self.description = description
        self.user_data = EMPTY if user_data is None else user_data
        self.dimension_names = tuple(dimension_names)
        self.variable_units = variable_units
        self.variable_descriptions = variable_descriptions
        self.variable_continuity = variable_continuity

    # ------------------------------------------------------------ Python API

    @property
    def height(self) -> int:
        return self.nrows

    @property
    def width(self) -> int:
        return len(self.variables)

    @property
    def shape(self) -> tuple[int, int]:
        return (self.nrows, len(self.variables))

    def index_of(self, name: str) -> int:
        """The position of variable ``name`` (an error naming it when there is none)."""
        try:
            return self.names.index(name)
        except ValueError:
            raise unrecognized_variable(name) from None

    def variable(self, name: str) -> Any:
        return self.variables[self.index_of(name)]

    def copy(self, **changes: Any) -> Table:
        """A table sharing this one's variables, with some attributes changed."""
        if changes.keys() <= _QUICK_CHANGES and changes.get("nrows", 0) is not None:
            # the frequent copies (an optimizer's tables each step): attributes copied as
            # the constructor would keep them
            new = Table.__new__(Table)
            new.variables = list(changes["variables"] if "variables" in changes else self.variables)
            new.names = list(self.names)
            new.row_names = None if self.row_names is None else list(self.row_names)
            new.nrows = changes["nrows"] if "nrows" in changes else self.nrows
            new.description = self.description
            new.user_data = self.user_data
            new.dimension_names = self.dimension_names
            new.variable_units = self.variable_units
            new.variable_descriptions = self.variable_descriptions
            new.variable_continuity = self.variable_continuity
            return new
        fields = {slot: getattr(self, slot) for slot in Table.__slots__}
        fields.update(changes)
        variables = list(fields.pop("variables"))
        names = list(fields.pop("names"))
        row_names = fields.pop("row_names")
        return Table(variables, names, None if row_names is None else list(row_names), **fields)

    def with_variable(self, name: str, value: Any) -> Table:
        """The table with variable ``name`` set to ``value`` (added at the end when new); a
        one-row value is repeated to the table's height."""
        rows = height_of(value)
        if self.variables or self.row_names:
            if rows != self.nrows:
                if rows == 1 and len(size_of(value)) == 2 and size_of(value)[1] == 1:
                    value = take_rows(value, np.zeros(self.nrows, dtype=np.intp))
                else:
                    raise height_mismatch()
        out = self.copy(nrows=rows if not (self.variables or self.row_names) else self.nrows)
        if name in out.names:
            out.variables[out.names.index(name)] = value
        else:
            out.variables.append(value)
            out.names.append(name)
            out._extend_metadata(1)
        return out

    def without_variables(self, positions: list[int]) -> Table:
        keep = [k for k in range(self.width) if k not in set(positions)]
        return self.select_variables(keep)

    def select_variables(self, positions: list[int]) -> Table:
        def pick(meta: list[str] | None) -> list[str] | None:
            return None if meta is None else [meta[k] for k in positions]

        return self.copy(variables=[self.variables[k] for k in positions],
                         names=[self.names[k] for k in positions],
                         variable_units=pick(self.variable_units),
                         variable_descriptions=pick(self.variable_descriptions),
                         variable_continuity=pick(self.variable_continuity))

    def select_rows(self, positions: np.ndarray) -> Table:
        positions = np.asarray(positions, dtype=np.intp)
        return self.copy(variables=[take_rows(v, positions) for v in self.variables],
                         row_names=None if self.row_names is None else
                         [self.row_names[k] for k in positions], nrows=len(positions))

    def lengthened(self, n: int) -> Table:
        if n <= self.nrows:
            return self
        row_names = None if self.row_names is None else \
            self.row_names + [f"Row{k + 1}" for k in range(self.nrows, n)]
        return self.copy(variables=[lengthen(v, n) for v in self.variables], row_names=row_names,
                         nrows=n)

    def _extend_metadata(self, count: int) -> None:
        for slot in ("variable_units", "variable_descriptions"):
            meta = getattr(self, slot)
            if meta is not None:
                setattr(self, slot, meta + [""] * count)
        if self.variable_continuity is not None:
            self.variable_continuity = self.variable_continuity + ["unset"] * count

    def contents(self) -> Any:
        """The variables concatenated side by side (``T{:,:}``, ``table2array``)."""
        if not self.variables:
            return np.zeros((self.nrows, 0))
        if len(self.variables) == 1:
            return self.variables[0]
        try:
            return concatenate([list(self.variables)])
        except MatlabError:
            raise error("MATLAB:table:ExtractDataIncompatibleTypeError",
                        "Unable to concatenate the specified table variables.") from None

    # ------------------------------------------------------------ subscripts

    def row_positions(self, arg: Any, growing: bool = False) -> np.ndarray:
        """0-based row positions a row subscript names (beyond the end only when ``growing``)."""
        n = self.nrows
        if arg is COLON:
            return np.arange(n)
        texts = texts_of(arg)
        if texts is not None:
            if texts == [":"] and type(arg) is np.ndarray:
                return np.arange(n)
            lookup = {name: k for k, name in enumerate(self.row_names or [])}
            out = []
            for text in texts:
                if text not in lookup:
                    raise error("MATLAB:table:UnrecognizedRowName", f"Unrecognized row name '{text}'.")
                out.append(lookup[text])
            return np.array(out, dtype=np.intp)
        return self._numeric_positions(arg, n, growing, "Row", "MATLAB:table:RowIndexOutOfRange")

    def variable_positions(self, arg: Any, growing: bool = False) -> tuple[list[int], list[str]]:
        """0-based variable positions a variable subscript names, and the names of new
        variables it creates (only when ``growing``; they come after the existing ones)."""
        if arg is COLON:
            return list(range(self.width)), []
        texts = texts_of(arg)
        if texts is not None:
            if texts == [":"] and type(arg) is np.ndarray:
                return list(range(self.width)), []
            out, new = [], []
            for text in texts:
                if text in self.names:
                    out.append(self.names.index(text))
                elif growing:
                    if text not in new:
                        new.append(text)
                    out.append(self.width + new.index(text))
                else:
                    raise unrecognized_variable(text)
            return out, new
        positions = self._numeric_positions(arg, self.width, growing, "Variable",
                                            "MATLAB:table:VarIndexOutOfRange")
        new = [f"Var{k + 1}" for k in range(self.width, int(positions.max(initial=-1)) + 1)]
        if new and not set(range(self.width, self.width + len(new))) <= set(positions.tolist()):
            raise error("MATLAB:table:DiscontiguousVars",
                        "New variables must be created next to the existing ones: the variable "
                        "subscripts leave a gap.")
        return [int(k) for k in positions], new

    @staticmethod
    def _numeric_positions(arg: Any, n: int, growing: bool, what: str, identifier: str) -> np.ndarray:
        a = to_array(arg) if type(arg) in (float, bool) or type(arg) is np.ndarray else None
        if a is None or a.dtype.kind not in "biuf":
            raise error("MATLAB:table:InvalidSubscript" if what == "Row" else
                        "MATLAB:table:InvalidVarSubscript",
                        f"{'Row' if what == 'Row' else 'Variable'} subscripts must be real "
                        "positive integers, logicals, or names.")
        flat = a.reshape(-1, order="F")
        if a.dtype == np.bool_:
            positions = np.flatnonzero(flat)
            if positions.size and positions[-1] >= n and not growing:
                raise error(identifier, f"{what} index exceeds table dimensions.")
            return positions
        values = flat.astype(np.float64)
        if values.size and (np.any(values < 1) or np.any(values != np.floor(values))
                            or not np.all(np.isfinite(values))):
            raise error("MATLAB:badsubscript",
                        "Array indices must be positive integers or logical values.")
        positions = values.astype(np.intp) - 1
        if positions.size and positions.max() >= n and not growing:
            raise error(identifier, f"{what} index exceeds table dimensions.")
        return positions

    @staticmethod
    def _two_subscripts(args: list) -> None:
        if len(args) == 2:
            return
        if len(args) < 2:
            raise error("MATLAB:table:LinearSubscript",
                        "Subscripting into a table using one subscript (as in t(i)) is not "
                        "supported. Specify a row subscript and a variable subscript, as in "
                        "t(rows,vars).")
        raise error("MATLAB:table:NDSubscript",
                    "Subscripting into a table using three or more subscripts (as in t(i,j,k)) is "
                    "not supported. Always specify a row subscript and a variable subscript, as in "
                    "t(rows,vars).")

    # ------------------------------------------------------------ indexing

    def subsref_paren(self, args: list) -> Table:
        """``T(rows, vars)``: a table."""
        self._two_subscripts(args)
        rows = self.row_positions(args[0])
        positions, _ = self.variable_positions(args[1])
        out = self.select_variables(positions)
        return out if args[0] is COLON else out.select_rows(rows)

    def subsref_brace(self, args: list) -> list:
        """``T{rows, vars}``: the selected data, concatenated."""
        return [self.subsref_paren(args).contents()]

    def subsasgn_paren(self, args: list, rhs: Any) -> Table:
        """``T(rows, vars) = rhs`` (a table, a cell array, or ``[]`` to delete)."""
        self._two_subscripts(args)
        if is_empty_double(rhs):
            return self._delete(args)
        rows = self.row_positions(args[0], growing=True)
        positions, new_names = self.variable_positions(args[1], growing=True)
        if type(rhs) is Table:
            values = self._table_columns(rhs, len(rows), len(positions))
        elif type(rhs) is Cell:
            values = self._cell_columns(rhs, len(rows), len(positions))
        else:
            values = self._array_columns(rhs, len(rows), len(positions))
        return self._store(rows, positions, new_names, values)

    def subsasgn_brace(self, args: list, rhs: Any) -> Table:
        """``T{rows, vars} = rhs``: the data of the selected variables."""
        self._two_subscripts(args)
        rows = self.row_positions(args[0], growing=True)
        positions, new_names = self.variable_positions(args[1], growing=True)
        if len(positions) == 1:
            k = positions[0]
            if k < self.width and type(self.variables[k]) is Cell and type(rhs) is not Cell:
                wrapped = Cell(np.empty((1, 1), dtype=object))
                wrapped.data[0, 0] = rhs
                rhs = wrapped
            values = [rhs]
        else:
            values = self._array_columns(rhs, len(rows), len(positions))
        return self._store(rows, positions, new_names, values)

    def _store(self, rows: np.ndarray, positions: list[int], new_names: list[str],
               values: list) -> Table:
        out = self.copy()
        for name in new_names:
            out.names.append(name)
            out.variables.append(None)
        out._extend_metadata(len(new_names))
        target_height = max(self.nrows, int(rows.max(initial=-1)) + 1)
        for k, value in zip(positions, values, strict=True):
            current = out.variables[k]
            whole = len(rows) == target_height and np.array_equal(rows, np.arange(target_height))
            if current is None and whole:
                out.variables[k] = value
                continue
            if current is None:  # a new variable: the rows not assigned get the default fill
                current = take_rows(value, np.array([], dtype=np.intp))
            out.variables[k] = put_rows(current, rows, value)
        if target_height > self.nrows and self.width and \
                not set(range(self.width)) <= set(positions):
            warn("MATLAB:table:RowsAddedExistingVars",
                 "The assignment added rows to the table, but did not assign values to all of the "
                 "table's existing variables. Those variables are extended with rows containing "
                 "default values.")
        if target_height > self.nrows and out.row_names is not None:
            out.row_names = out.row_names + [f"Row{k + 1}" for k in range(self.nrows, target_height)]
        out.nrows = target_height
        out.variables = [lengthen(v, target_height) for v in out.variables]
        return out

    def _delete(self, args: list) -> Table:
        rows_all = args[0] is COLON
        vars_all = args[1] is COLON
        if vars_all:
            rows = np.unique(self.row_positions(args[0]))
            keep = np.setdiff1d(np.arange(self.nrows), rows)
            return self.select_rows(keep)
        if rows_all:
            positions, _ = self.variable_positions(args[1])
            return self.without_variables(positions)
        raise error("MATLAB:table:InvalidEmptyAssignment",
                    "At least one subscript must be ':' when you delete rows or variables by "
                    "assigning [].")

    def _table_columns(self, rhs: Table, nrows: int, nvars: int) -> list:
        if rhs.width != nvars or (rhs.nrows != nrows and rhs.nrows != 1):
            raise error("MATLAB:table:AssignmentDimensionMismatch",
                        f"The right hand side of the assignment is {rhs.nrows}-by-{rhs.width}; "
                        f"it must be {nrows}-by-{nvars}.")
        if rhs.nrows != nrows:
            rhs = rhs.select_rows(np.zeros(nrows, dtype=np.intp))
        return list(rhs.variables)

    @staticmethod
    def _cell_columns(rhs: Cell, nrows: int, nvars: int) -> list:
        data = rhs.data
        if data.ndim != 2 or data.shape not in ((nrows, nvars), (1, 1)):
            raise error("MATLAB:table:AssignmentDimensionMismatch",
                        f"The right hand side of the assignment is {data.shape[0]}-by-"
                        f"{data.shape[1]}; it must be {nrows}-by-{nvars}.")
        if data.shape != (nrows, nvars):
            data = np.full((nrows, nvars), None, dtype=object)
            for i in range(nrows):
                for j in range(nvars):
                    data[i, j] = rhs.data[0, 0]
        return [column_value(list(data[:, j])) for j in range(nvars)]

    @staticmethod
    def _array_columns(rhs: Any, nrows: int, nvars: int) -> list:
        shape = size_of(rhs)
        if nvars == 1:
            return [rhs]
        if len(shape) != 2 or shape[1] != nvars:
            raise error("MATLAB:table:AssignmentDimensionMismatch",
                        "The right hand side of the assignment must have one column per table "
                        "variable.")
        return [indexing.index(rhs, [COLON, float(j + 1)]) for j in range(nvars)]

    # ------------------------------------------------------------ properties

    def property_names(self) -> list[str]:
        return list(self.names)

    def get_property(self, name: str) -> Any:
        """``T.Var``, ``T.Properties``, ``T.Row`` (the row names), ``T.Variables``."""
        if name in self.names:
            return self.variables[self.names.index(name)]
        if name == "Properties":
            # imported here: that module builds on this one
            from mlang.values.table_properties import TableProperties
            return TableProperties(self)
        if name == self.dimension_names[0]:
            return cellstr_column(self.row_names) if self.row_names is not None else Cell.empty()
        if name == self.dimension_names[1]:
            return self.contents()
        raise unrecognized_variable(name)

    def set_property(self, name: str, value: Any) -> Table:
        """``T.Var = value`` (``[]`` deletes it), ``T.Properties = p``, ``T.Row = names``."""
        if name == "Properties":
            # imported here: that module builds on this one
            from mlang.values.table_properties import apply_properties
            return apply_properties(self, value)
        if name == self.dimension_names[0]:
            return self.with_metadata("RowNames", value)
        if name == self.dimension_names[1] and name not in self.names:
            return self._set_all_data(value)
        if is_empty_double(value) and name in self.names and self.nrows != 0:
            return self.without_variables([self.names.index(name)])
        check_variable_name(name)
        return self.with_variable(name, value)

    def _set_all_data(self, value: Any) -> Table:
        shape = size_of(value)
        if shape[0] != self.nrows or len(shape) != 2 or shape[1] != self.width:
            raise error("MATLAB:table:VariablesAssignmentSizeMismatch",
                        "The assigned value must have one column per table variable and one row "
                        "per table row.")
        return self.copy(variables=[indexing.index(value, [COLON, float(j + 1)])
                                    for j in range(self.width)])

    def with_metadata(self, name: str, value: Any) -> Table:
        """The table with property ``name`` (VariableNames, RowNames, ...) set."""
        # imported here: that module builds on this one
        from mlang.values.table_properties import set_metadata
        return set_metadata(self, name, value)

    def method(self, name: str) -> Callable[[list], Any] | None:
        return None

    @staticmethod
    def call_builtin(builtin: Any, interp: Any, args: list, nargout: int) -> Any:
        """``sortrows(T)``, ``join(A, B)``, ``fieldnames(T)``: the table's own forms."""
        fn = TABLE_CALLS.get(builtin.name)
        return NotImplemented if fn is None else fn(interp, args, nargout)

    # ------------------------------------------------------------ concatenation

    @staticmethod
    def concatenate(rows: list[list]) -> Any:
        # imported here: that module builds on this one
        from mlang.values.table_concat import concatenate_tables
        return concatenate_tables(rows)

    # ------------------------------------------------------------ display

    def display_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        # imported here: that module builds on this one
        from mlang.values.table_display import table_lines
        return table_lines(self, style)

    def disp_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        """disp(T): the table without its size line (which only the named display shows)."""
        lines = self.display_body(style, array_lines) or []
        return lines if self.nrows == 0 or self.width == 0 else lines[2:]

    def __repr__(self) -> str:
        return f"Table({self.nrows}x{self.width}, {self.names})"


def check_variable_name(name: str) -> None:
    if not name or len(name) > 63:
        raise error("MATLAB:table:VariableNameLengthMax" if name else "MATLAB:table:InvalidVarName",
                    f"'{name}' is not a valid variable name.")
    if name in ("Properties", "RowNames", "VariableNames", ":"):
        raise error("MATLAB:table:ReservedVarName",
                    f"The variable name '{name}' is reserved for tables.")


def column_value(values: list) -> Any:
    """The variable made from one value per row (a cell column of the values when they are
    text or do not stack, else their vertical concatenation)."""
    if not values:
        return np.zeros((0, 1))
    if all(texts_of(v) is not None and type(v) is np.ndarray for v in values) or \
            any(type(v) is Cell for v in values):
        if all(type(v) is Cell for v in values):
            return concatenate([[v] for v in values])
        data = np.empty((len(values), 1), dtype=object)
        for i, v in enumerate(values):
            data[i, 0] = v
        return Cell(data)
    if all(size_of(v)[0] == 1 for v in values):
        try:
            return concatenate([[v] for v in values])
        except MatlabError:
            pass
    data = np.empty((len(values), 1), dtype=object)
    for i, v in enumerate(values):
        data[i, 0] = v
    return Cell(data)
