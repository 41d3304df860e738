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
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import (
    char_codes,
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


def sort_keys(values: np.ndarray) -> list[np.ndarray]:
    """Sort keys, most significant last (np.lexsort's convention)."""
    if values.dtype.kind == "c":
        return [np.angle(values), np.abs(values)]
    if values.dtype.kind == "V":
        return [char_codes(values)]
    if values.dtype.kind == "b":
        return [values.astype(np.int8)]
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


@builtin(max_out=2, nargout=True)
def sort(x: Any, *args: Any, nargout: int = 1) -> object:
    """B = sort(A)
    B = sort(A,dim)
    B = sort(___,direction)
    [B,I] = sort(___)

    Sort in ascending (or 'descend'ing) order along the first non-singleton
    dimension; I holds the original positions. Cell arrays of character
    vectors and string arrays sort by text."""
    data = data_of(x)
    axis = None
    descending = False
    for v in args:
        text = text_option(v)
        if text is not None:
            if text not in ("ascend", "descend"):
                raise error("MATLAB:sort:sortDirection", "Sorting direction must be 'ascend' or 'descend'.")
            descending = text == "descend"
        else:
            axis = dim_argument(v)
    if axis is None:
        axis = first_nonsingleton(data.shape)
    if type(x) is Cell or type(x) is StringArray:
        keys_source = text_ranks(data)
        keys = [along_last(keys_source, axis)]
    elif class_of(x) in ARITHMETIC:
        keys = sort_keys(along_last(data, axis))
    else:
        raise error("MATLAB:sort:InputType", f"Invalid data type. Cannot sort values of class {class_of(x)}.")
    moved = along_last(data, axis)
    order = _stable_order(keys, descending) if moved.shape[-1] > 1 else \
        np.zeros(moved.shape, dtype=np.intp)
    ordered = np.take_along_axis(moved, order, axis=-1)
    b = rewrap_shaped(x, np.moveaxis(ordered, -1, axis)) if type(x) is not np.ndarray else \
        result(back_from_last(ordered, axis))
    if nargout <= 1:
        return b
    return b, result(back_from_last((order + 1).astype(np.float64), axis))


def column_ranks(column: np.ndarray) -> np.ndarray:
    """Dense ranks of a column's values (equal values share a rank; NaN ranks last)."""
    keys = sort_keys(column)
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
    """Row keys of a matrix (numeric/char) or of a cellstr (one text per row)."""
    if type(x) is Cell:
        ranks = text_ranks(x.data)
        return ranks.reshape(ranks.shape[0], math.prod(ranks.shape[1:])), True
    a = to_array(x)
    if a.ndim != 2:
        raise error("MATLAB:sortrows:inputDimensionMismatch", "X must be a 2-D matrix.")
    return a, False


@builtin(max_out=2, nargout=True)
def sortrows(x: Any, column: Any = None, direction: Any = None, *, nargout: int = 1) -> object:
    """B = sortrows(A)
    B = sortrows(A,column)
    B = sortrows(___,direction)
    [B,index] = sortrows(___)

    Sort the rows of a matrix (or cell array of character vectors) by the
    given columns; a negative column sorts that column in descending order."""
    rows, _ = rows_of(x)
    ncols = rows.shape[1]
    descending_all = False
    if column is not None and text_option(column) is not None:
        column, direction = None, column
    if direction is not None:
        text = text_option(direction)
        if text not in ("ascend", "descend"):
            raise error("MATLAB:sortrows:sortDirection", "Sorting direction must be 'ascend' or 'descend'.")
        descending_all = text == "descend"
    if column is None or is_placeholder(column):
        spec = [(c, descending_all) for c in range(ncols)]
    else:
        v = to_double_array(column).reshape(-1).real
        if np.any(v == 0) or np.any(np.abs(v) > ncols) or np.any(v != np.floor(v)):
            raise error("MATLAB:sortrows:COLmismatchX",
                        "Column sorting vector must contain integers with magnitude between 1 and "
                        "the number of columns in the first input.")
        spec = [(int(abs(c)) - 1, (c < 0) != descending_all) for c in v]
    keys = []
    for c, desc in reversed(spec):  # lexsort: the last key is the primary one
        ranks = column_ranks(rows[:, c])
        keys.append(-ranks if desc else ranks)
    order = np.lexsort(keys) if keys else np.arange(rows.shape[0])
    data = data_of(x)
    b = rewrap_shaped(x, data[order]) if type(x) is not np.ndarray else result(data[order])
    if nargout <= 1:
        return b
    return b, result((order + 1).astype(np.float64).reshape(-1, 1))


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
