"""Sorting: sort, sortrows and issorted, for numbers and for texts (cell arrays
of character vectors, string arrays), with the ranking helpers ``sets`` shares."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.coerce import dim_argument, text_option
from mlang.builtins.data.shape import first_nonsingleton, is_placeholder, rewrap_shaped
from mlang.builtins.math.elementwise import ARITHMETIC
from mlang.builtins.math.reductions import along_last, back_from_last
from mlang.builtins.math.short_rows import short_values
from mlang.errors import error
from mlang.registry import MISSING_LITERAL, builtin
from mlang.values.cell import Cell
from mlang.values.core import (
    char_codes,
    char_row,
    char_text,
    class_of,
    is_text,
    result,
    to_array,
    to_double_array,
    to_str,
)
from mlang.values.indexing import data_of
from mlang.values.string import StringArray


def text_ranks(data: np.ndarray) -> np.ndarray:
    """Integer ranks of the texts of a cellstr / string array (same shape);
    missing strings rank after every text."""
    flat = data.reshape(-1)
    texts = []
    for v in flat:
        if v is None:
            texts.append(None)
        elif type(v) is str:
            texts.append(v)
        elif type(v) is np.ndarray and v.dtype.kind == "V" and (v.ndim == 2 and v.shape[0] <= 1):
            texts.append(char_text(v))
        else:
            raise error("MATLAB:sort:InputType",
                        "Only cell arrays of character vectors can be sorted.")
    present = sorted({t for t in texts if t is not None})
    rank = {t: k for k, t in enumerate(present)}
    out = np.array([len(present) if t is None else rank[t] for t in texts], dtype=np.int64)
    return out.reshape(data.shape)


def sort_keys(values: np.ndarray, method: str = "auto") -> list[np.ndarray]:
    """Sort keys, most significant last (np.lexsort's convention).  Complex numbers (and,
    with 'abs', real ones) sort by magnitude, then phase angle; with 'real', by real
    part, then imaginary part."""
    if values.dtype.kind == "V":
        return [char_codes(values)]
    if values.dtype.kind == "b":
        return [values.astype(np.int8)]
    if method == "abs" or (method == "auto" and values.dtype.kind == "c"):
        if values.dtype.kind in "iu":
            values = values.astype(np.float64)
        return [np.angle(values), np.abs(values)]
    if values.dtype.kind == "c":
        return [values.imag, values.real]
    return [values]


def _stable_order(keys: list[np.ndarray], descending: bool) -> np.ndarray:
    """Stable ordering along the last axis; descending keeps equal elements in
    their original order and puts NaN first (ascending puts it last)."""
    if descending:
        reversed_keys = [k[..., ::-1] for k in keys]
        order = np.lexsort(reversed_keys, axis=-1) if len(keys) > 1 else \
            np.argsort(reversed_keys[0], axis=-1, kind="stable")
        return (keys[0].shape[-1] - 1 - order)[..., ::-1]
    if len(keys) > 1:
        return np.lexsort(keys, axis=-1)
    return np.argsort(keys[0], axis=-1, kind="stable")


def _sort_options(fname: str, args: tuple) -> tuple[int | None, bool, str, str]:
    """dim, descending, ComparisonMethod and MissingPlacement of sort and sortrows."""
    axis = None
    descending = False
    method = "auto"
    placement = "auto"
    rest = list(args)
    while rest:
        v = rest.pop(0)
        text = text_option(v)
        if text is None:
            axis = dim_argument(v)
        elif text in ("ascend", "descend"):
            descending = text == "descend"
        elif text in ("comparisonmethod", "missingplacement"):
            method, placement = _name_value(fname, text, rest, method, placement)
        else:
            raise error(f"MATLAB:{fname}:sortDirection",
                        "Sorting direction must be 'ascend' or 'descend'.")
    return axis, descending, method, placement


def _name_value(fname: str, name: str, rest: list, method: str, placement: str
                ) -> tuple[str, str]:
    """Read the value of 'ComparisonMethod' or 'MissingPlacement' from rest."""
    if not rest:
        raise error("MATLAB:InputParser:ParamMissingValue",
                    "Parameter names must be followed by values.")
    value = text_option(rest.pop(0))
    if name == "comparisonmethod":
        if value not in ("auto", "real", "abs"):
            raise error(f"MATLAB:{fname}:InvalidComparisonMethod",
                        "Value of 'ComparisonMethod' must be 'auto', 'real', or 'abs'.")
        return value, placement
    if value not in ("auto", "first", "last"):
        raise error(f"MATLAB:{fname}:InvalidMissingPlacement",
                    "Value of 'MissingPlacement' must be 'auto', 'first', or 'last'.")
    return method, value


def _missing_mask(x: object, data: np.ndarray) -> np.ndarray:
    """Where the elements are missing: NaN, or a missing string."""
    if type(x) is StringArray:
        return np.array([v is None for v in data.reshape(-1)], dtype=bool).reshape(data.shape)
    if type(x) is np.ndarray and data.dtype.kind in "fc":
        return np.isnan(data)
    return np.zeros(data.shape, dtype=bool)


def _direction_of(v: object) -> bool | None:
    """Whether a char row 'descend' (True) or 'ascend' (False) is given, read by its bytes;
    None for anything else."""
    if type(v) is np.ndarray and v.dtype.kind == "V" and v.ndim == 2 and v.shape[0] == 1:
        return _SORT_DIRECTIONS.get(v.tobytes())
    return None


def _short_sorted(x: object, descending: bool) -> np.ndarray | None:
    """sort of a real double row or column of 2 to 7 elements without NaN, by Python's sort
    (stable, also in reverse: equal values, 0 and -0 among them, keep their order, as the
    general path keeps them); None for anything else."""
    values = short_values(x)
    if values is None or len(values) < 2:
        return None
    for v in values:
        if v != v:
            return None
    values.sort(reverse=descending)
    return np.array([values]) if x.shape[0] == 1 else np.array(values).reshape(-1, 1)  # type: ignore[union-attr]


# the bytes of the char rows 'ascend' and 'descend' -> whether the order is descending (other
# spellings, 'Descend'..., take the general reading)
_SORT_DIRECTIONS = {char_row("ascend").tobytes(): False, char_row("descend").tobytes(): True}


def _literal_direction(literals: tuple) -> Any:
    """sort(x, 'descend') or sort(x, 'ascend') with the direction written as a literal: a
    function giving ``_short_sorted`` of a short double vector, the direction read once here
    (NotImplemented for anything else: the general call) (see Builtin.specialize).  Whatever
    ``_short_sorted`` takes is a vector sort's quick path takes too."""
    if len(literals) != 2 or literals[0] is not MISSING_LITERAL:
        return None
    descending = _direction_of(literals[1])
    if descending is None:
        return None

    def sorted_vector(args: list) -> Any:
        quick = _short_sorted(args[0], descending)
        return NotImplemented if quick is None else quick

    return sorted_vector


@builtin(max_out=2, nargout=True, specialize=_literal_direction)
def sort(x: Any, *args: Any, nargout: int = 1) -> object:
    """B = sort(A)
    B = sort(A,dim)
    B = sort(___,direction)
    B = sort(___,Name,Value)
    [B,I] = sort(___)

    Sort in ascending (or 'descend'ing) order along the first non-singleton
    dimension; I holds the original positions. Cell arrays of character
    vectors and string arrays sort by text. 'ComparisonMethod' ('auto', 'real',
    'abs') orders numbers; 'MissingPlacement' ('auto', 'first', 'last') places NaN."""
    if type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 and x.size > 1 \
            and (x.shape[0] == 1 or x.shape[1] == 1):
        if nargout <= 1 and len(args) <= 1:
            descending = False if not args else _direction_of(args[0])
            if descending is not None:
                quick = _short_sorted(x, descending)
                if quick is not None:
                    return quick
        quick = _sort_double_vector(x, args, nargout)
        if quick is not None:
            return quick
    data = data_of(x)
    axis, descending, method, placement = _sort_options("sort", args)
    if axis is None:
        axis = first_nonsingleton(data.shape)
    if type(x) is Cell or type(x) is StringArray:
        keys_source = text_ranks(data)
        keys = [along_last(keys_source, axis)]
    elif class_of(x) in ARITHMETIC:
        keys = sort_keys(along_last(data, axis), method)
    else:
        raise error("MATLAB:sort:InputType", f"Invalid data type. Cannot sort values of class {class_of(x)}.")
    moved = along_last(data, axis)
    order = _stable_order(keys, descending) if moved.shape[-1] > 1 else \
        np.zeros(moved.shape, dtype=np.intp)
    if placement != "auto" and moved.shape[-1] > 1:
        missing = np.take_along_axis(along_last(_missing_mask(x, data), axis), order, axis=-1)
        if missing.any():
            # a stable partition of the sorted order: missing elements first or last
            perm = np.argsort(~missing if placement == "first" else missing, axis=-1, kind="stable")
            order = np.take_along_axis(order, perm, axis=-1)
    ordered = np.take_along_axis(moved, order, axis=-1)
    b = rewrap_shaped(x, np.moveaxis(ordered, -1, axis)) if type(x) is not np.ndarray else \
        result(back_from_last(ordered, axis))
    if nargout <= 1:
        return b
    return b, result(back_from_last((order + 1).astype(np.float64), axis))


def _sort_double_vector(x: np.ndarray, args: tuple, nargout: int) -> object:
    """sort of a real double row or column with no option or only a direction: its stable
    order computed on the values themselves, as the general path orders them (None for any
    other options)."""
    descending = False
    if args:
        direction = args[0]
        if len(args) > 1 or type(direction) is not np.ndarray or direction.dtype.kind != "V":
            return None
        text = char_text(direction).lower() if direction.ndim == 2 and direction.shape[0] == 1 else ""
        if text not in ("ascend", "descend"):
            return None
        descending = text == "descend"
    values = x.reshape(-1)
    # _stable_order for one key (any stable order is the same order): descending, the
    # ascending order of the reversed values, backwards, so that NaN comes first and equal
    # values keep their order; positions there count from the end
    if descending:
        values = values[::-1]
        order = values.argsort(kind="stable")[::-1]
    else:
        order = values.argsort(kind="stable")
    ordered = values[order].reshape(x.shape)
    if nargout <= 1:
        return ordered
    positions = float(values.size) - order if descending else order + 1.0
    return ordered, positions.reshape(x.shape)


def column_ranks(column: np.ndarray, method: str = "auto") -> np.ndarray:
    """Dense ranks of a column's values (equal values share a rank; NaN ranks last)."""
    keys = sort_keys(column, method)
    order = np.lexsort(keys) if len(keys) > 1 else np.argsort(keys[0], kind="stable")
    ranks = np.empty(column.size, dtype=np.int64)
    ordered = column[order]
    same = np.zeros(column.size, dtype=bool)
    if column.size > 1:
        with np.errstate(invalid="ignore"):
            same[1:] = ordered[1:] == ordered[:-1]
        if ordered.dtype.kind in "fc":
            same[1:] |= np.isnan(ordered[1:]) & np.isnan(ordered[:-1])
    ranks[order] = np.cumsum(~same) - 1
    return ranks


def rows_of(x: object) -> tuple[np.ndarray, bool]:
    """Row keys of a matrix (numeric/char), of a cellstr or of a string array (text ranks)."""
    if type(x) is Cell:
        data = x.data.reshape(x.data.shape[0], math.prod(x.data.shape[1:]), order="F")
        return np.column_stack([_cell_column_keys(data[:, c]) for c in range(data.shape[1])]) \
            if data.size else np.zeros(data.shape, dtype=np.int64), True
    if type(x) is StringArray:
        ranks = text_ranks(data_of(x))
        return ranks.reshape(ranks.shape[0], math.prod(ranks.shape[1:])), True
    a = to_array(x)
    if a.ndim != 2:
        raise error("MATLAB:sortrows:inputDimensionMismatch", "X must be a 2-D matrix.")
    return a, False


def _cell_column_keys(column: np.ndarray) -> np.ndarray:
    """Sort keys of one column of a cell array: ranks of its texts, or its numbers when
    every element is a real numeric scalar."""
    if all(type(v) in (float, bool) or (type(v) is np.ndarray and v.size == 1 and
                                         v.dtype.kind in "biuf") for v in column):
        return np.array([float(np.asarray(v).reshape(-1)[0]) for v in column])
    return text_ranks(column)


@builtin(max_out=2, nargout=True)
def sortrows(x: Any, *args: Any, nargout: int = 1) -> object:
    """B = sortrows(A)
    B = sortrows(A,column)
    B = sortrows(___,direction)
    B = sortrows(___,Name,Value)
    [B,index] = sortrows(___)

    Sort the rows of a matrix (or cell array of character vectors) by the
    given columns; a negative column sorts that column in descending order.
    direction is 'ascend', 'descend' or a cell array of them, one per column;
    'ComparisonMethod' ('auto', 'real', 'abs') and 'MissingPlacement' ('auto',
    'first', 'last') as for sort."""
    rows, _ = rows_of(x)
    ncols = rows.shape[1]
    rest = list(args)
    column = None
    if rest and text_option(rest[0]) is None and type(rest[0]) is not Cell:
        column = rest.pop(0)
    directions: list[bool] | None = None
    if rest and type(rest[0]) is Cell:
        directions = [_direction(v) for v in rest.pop(0).data.ravel(order="F")]
    elif rest and text_option(rest[0]) in ("ascend", "descend"):
        directions = [text_option(rest.pop(0)) == "descend"]
    _, _, method, placement = _sort_options("sortrows", tuple(_only_name_values(rest)))
    if column is None or is_placeholder(column):
        columns = [float(c + 1) for c in range(ncols)]
    else:
        columns = list(to_double_array(column).reshape(-1).real)
        if any(not math.isfinite(c) or c == 0 or abs(c) > ncols or c != math.floor(c) for c in columns):
            raise error("MATLAB:sortrows:COLmismatchX",
                        "Column sorting vector must contain integers with magnitude between 1 and "
                        "the number of columns in the first input.")
    if directions is None:
        directions = [False]
    if len(directions) == 1:
        directions = directions * len(columns)
    if len(directions) != len(columns):
        raise error("MATLAB:sortrows:directionMismatch",
                    "Sorting direction must be a character vector or a cell array of character "
                    "vectors with one direction for each column to sort.")
    spec = [(int(abs(c)) - 1, (c < 0) != d) for c, d in zip(columns, directions, strict=True)]
    keys = []
    for c, desc in reversed(spec):  # lexsort: the last key is the primary one
        ranks = column_ranks(rows[:, c], method)
        key = -ranks if desc else ranks
        if placement != "auto" and rows.dtype.kind in "fc":
            nan = np.isnan(rows[:, c])
            key = np.where(nan, key.min() - 1 if placement == "first" else key.max() + 1, key)
        keys.append(key)
    order = np.lexsort(keys) if keys else np.arange(rows.shape[0])
    data = data_of(x)
    b = rewrap_shaped(x, data[order]) if type(x) is not np.ndarray else result(data[order])
    if nargout <= 1:
        return b
    return b, result((order + 1).astype(np.float64).reshape(-1, 1))


def _direction(v: object) -> bool:
    text = text_option(v)
    if text not in ("ascend", "descend"):
        raise error("MATLAB:sortrows:sortDirection", "Sorting direction must be 'ascend' or 'descend'.")
    return text == "descend"


def _only_name_values(rest: list) -> list:
    """The name-value arguments left after column and direction."""
    for k in range(0, len(rest), 2):
        if text_option(rest[k]) not in ("comparisonmethod", "missingplacement"):
            raise error("MATLAB:sortrows:sortDirection",
                        "Sorting direction must be 'ascend' or 'descend'.")
    return rest


_DIRECTIONS = ("ascend", "descend", "monotonic", "strictascend", "strictdescend", "strictmonotonic")


def _issorted_options(args: tuple) -> tuple[int | None, str, bool, str, str]:
    """dim, direction, 'rows', MissingPlacement and ComparisonMethod of issorted."""
    axis = None
    direction = "ascend"
    rows = False
    missing = "auto"
    method = "auto"
    rest = list(args)
    while rest:
        v = rest.pop(0)
        text = text_option(v)
        if text is None:
            if is_text(v) or axis is not None:
                raise error("MATLAB:issorted:InvalidOption", "Invalid option.")
            axis = dim_argument(v)
        elif text in _DIRECTIONS:
            direction = text
        elif text == "rows":
            rows = True
        elif text in ("missingplacement", "comparisonmethod"):
            if not rest:
                raise error("MATLAB:issorted:NameValuePairs", "Name-value arguments must come in pairs.")
            choice = text_option(rest.pop(0))
            allowed = ("auto", "first", "last") if text == "missingplacement" else ("auto", "real", "abs")
            if choice not in allowed:
                raise error("MATLAB:issorted:InvalidOption",
                            f"Value of '{to_str(v)}' must be " + ", ".join(f"'{a}'" for a in allowed) + ".")
            if text == "missingplacement":
                missing = choice
            else:
                method = choice
        else:
            raise error("MATLAB:issorted:InvalidOption", f"Invalid option '{to_str(v)}'.")
    return axis, direction, rows, missing, method


def _issorted_keys(x: object, method: str) -> tuple[list[np.ndarray], np.ndarray]:
    """Sort keys (most significant last) and where the elements are missing (NaN)."""
    if type(x) is Cell or type(x) is StringArray:
        data = data_of(x)
        missing = np.array([v is None for v in data.reshape(-1)]).reshape(data.shape)
        return [text_ranks(data)], missing
    if class_of(x) not in ARITHMETIC:
        raise error("MATLAB:issorted:InvalidInput",
                    f"Invalid data type. Cannot check the order of values of class {class_of(x)}.")
    values = to_array(x)
    if values.dtype.kind == "V":
        return [char_codes(values)], np.zeros(values.shape, dtype=bool)
    if values.dtype.kind == "b":
        return [values.astype(np.int8)], np.zeros(values.shape, dtype=bool)
    missing = np.isnan(values) if values.dtype.kind in "fc" else np.zeros(values.shape, dtype=bool)
    if method == "abs" or method == "auto" and values.dtype.kind == "c":
        return [np.angle(values), np.abs(values)], missing
    if values.dtype.kind == "c":
        return [values.imag, values.real], missing
    return [values], missing


def _in_order(keys: list[np.ndarray], missing: np.ndarray, descending: bool, strict: bool,
              placement: str) -> bool:
    """Whether every slice along the last axis is in order (missing values first or last)."""
    if missing.shape[-1] < 2:
        return True
    if placement == "auto":
        placement = "first" if descending else "last"
    before, after = missing[..., :-1], missing[..., 1:]
    if np.any(before & ~after if placement == "last" else ~before & after):
        return False
    both = ~before & ~after
    earlier, later = (1, 0) if descending else (0, 1)
    less = np.zeros(both.shape, dtype=bool)
    equal = np.ones(both.shape, dtype=bool)
    for key in reversed(keys):  # most significant first
        pairs = (key[..., :-1], key[..., 1:])
        a, b = pairs[earlier], pairs[later]
        with np.errstate(invalid="ignore"):
            less |= equal & (a < b)
            equal &= a == b
    good = less if strict else less | equal
    return bool(np.all(good | ~both))


@builtin(dl="data")
def issorted(x: Any, *args: Any) -> bool:
    """TF = issorted(A)
    TF = issorted(A,dim)
    TF = issorted(___,direction)
    TF = issorted(___,Name,Value)
    TF = issorted(A,'rows')

    True when A is sorted along the first dimension whose size is not 1 (or dim):
    direction 'ascend' (default), 'descend', 'monotonic', 'strictascend', 'strictdescend'
    or 'strictmonotonic'; 'MissingPlacement' ('auto', 'first', 'last') places NaN and
    'ComparisonMethod' ('auto', 'real', 'abs') orders complex numbers."""
    axis, direction, rows, missing_at, method = _issorted_options(args)
    if rows:
        keys_rows, _ = rows_of(x)
        ranks = [column_ranks(keys_rows[:, c]) for c in range(keys_rows.shape[1])]
        keys = [r.reshape(1, -1) for r in reversed(ranks)]
        none = np.zeros((1, keys_rows.shape[0]), dtype=bool)
        checks = [direction.replace("monotonic", "ascend"), direction.replace("monotonic", "descend")]
        return any(_in_order(keys, none, "descend" in c, "strict" in c, missing_at) for c in checks)
    keys, missing = _issorted_keys(x, method)
    shape = missing.shape
    if axis is None:
        axis = first_nonsingleton(shape)
    keys = [along_last(k, axis) for k in keys]
    missing = along_last(missing, axis)
    if direction.endswith("monotonic"):
        strict = direction.startswith("strict")
        return (_in_order(keys, missing, False, strict, missing_at)
                or _in_order(keys, missing, True, strict, missing_at))
    return _in_order(keys, missing, "descend" in direction, direction.startswith("strict"), missing_at)
