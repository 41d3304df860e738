"""Sets: unique and ismember, for numbers and for texts (cell arrays of character
vectors, string arrays), by elements or by rows."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import text_option
from mlang.builtins.data.shape import rewrap_shaped, shape_of
from mlang.builtins.math.elementwise import ARITHMETIC
from mlang.builtins.math.sorting import column_ranks, text_ranks
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_rows, class_of, result, to_array, to_double_array, to_str
from mlang.values.indexing import data_of
from mlang.values.string import StringArray


def _set_elements(x: object) -> tuple[np.ndarray, str]:
    """Flat (column-major) element keys of a set argument and their kind:
    'number' (float/complex values) or 'text' (Python strings)."""
    t = type(x)
    if t is Cell:
        texts = []
        for v in x.values():
            if not (type(v) is np.ndarray and v.dtype.kind == "V" or type(v) is StringArray):
                raise error("MATLAB:ISMEMBER:InputClass",
                            "Input A of class cell and input B of class cell must be cell arrays of "
                            "character vectors, unless one is a character vector.")
            texts.append(to_str(v) if type(v) is not np.ndarray or v.size else "")
        return np.array(texts, dtype=object), "text"
    if t is StringArray:
        return np.array(list(x.data.reshape(-1, order="F")), dtype=object), "text"
    if class_of(x) not in ARITHMETIC:
        raise error("MATLAB:UndefinedFunction", f"Invalid data type: {class_of(x)}.")
    return to_double_array(x).reshape(-1, order="F"), "number"


def _oriented(values: np.ndarray, row: bool) -> np.ndarray:
    return values.reshape(1, -1) if row else values.reshape(-1, 1)


def _unique_groups(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort order of flat keys and the group number of each sorted position.
    Every NaN is its own group (NaN ~= NaN)."""
    order = np.argsort(keys, kind="stable") if keys.dtype.kind != "c" else \
        np.lexsort([np.angle(keys), np.abs(keys)])
    ordered = keys[order]
    new = np.ones(keys.size, dtype=bool)
    if keys.size > 1:
        with np.errstate(invalid="ignore"):
            new[1:] = ordered[1:] != ordered[:-1]
    return order, np.cumsum(new) - 1


@builtin(max_out=3, nargout=True)
def unique(x: Any, *options: Any, nargout: int = 1) -> object:
    """C = unique(A)
    C = unique(A,setOrder)
    C = unique(A,occurrence)
    C = unique(A,'rows')
    [C,ia,ic] = unique(___)

    Unique values in sorted order (or 'stable' order of first appearance):
    C = A(ia) and A = C(ic)."""
    flags = set()
    for v in options:
        text = text_option(v)
        if text not in ("sorted", "stable", "rows", "first", "last", "legacy"):
            raise error("MATLAB:UNIQUE:UnknownInput", "Unknown input.")
        flags.add(text)
    if "rows" in flags and type(x) is not Cell and type(x) is not StringArray:
        return _unique_rows(x, flags, nargout)
    keys, kind = _set_elements(x)
    if kind == "text":
        keys = text_ranks(keys).astype(np.float64) if keys.size else np.zeros(0)
    order, group = _unique_groups(keys)
    count = int(group[-1]) + 1 if group.size else 0
    pick = "last" if "last" in flags else "first"
    first = np.full(count, keys.size, dtype=np.int64)
    last = np.full(count, -1, dtype=np.int64)
    np.minimum.at(first, group, order)
    np.maximum.at(last, group, order)
    ia = first if pick == "first" else last
    group_order = np.arange(count)
    if "stable" in flags:
        group_order = np.argsort(first, kind="stable")
    ia = ia[group_order]
    shape = shape_of(x)
    row = len(shape) == 2 and shape[0] == 1 and shape[1] >= 1 or shape == (1, 0)
    data = data_of(x).reshape(-1, order="F")
    c_data = _oriented(data[ia], row)
    c = rewrap_shaped(x, c_data) if type(x) is not np.ndarray else result(c_data)
    if nargout <= 1:
        return c
    rank_of_group = np.empty(count, dtype=np.int64)
    rank_of_group[group_order] = np.arange(count)
    ic = np.empty(keys.size, dtype=np.int64)
    ic[order] = rank_of_group[group]
    return (c, result((ia + 1).astype(np.float64).reshape(-1, 1)),
            result((ic + 1).astype(np.float64).reshape(-1, 1)))[:nargout]


def _unique_rows(x: object, flags: set[str], nargout: int) -> object:
    a = to_array(x)
    if a.ndim != 2:
        raise error("MATLAB:UNIQUE:ANotAMatrix", "A must be a 2-D matrix when 'rows' is specified.")
    nrows = a.shape[0]
    ranks = [column_ranks(a[:, c]) for c in range(a.shape[1])]
    nan_rows = np.zeros(nrows, dtype=bool)
    if a.dtype.kind in "fc":
        nan_rows = np.isnan(a).any(axis=1)
    order = np.lexsort(list(reversed(ranks))) if ranks else np.arange(nrows)
    new = np.ones(nrows, dtype=bool)
    if nrows > 1 and ranks:
        stacked = np.stack(ranks, axis=1)[order]
        new[1:] = (stacked[1:] != stacked[:-1]).any(axis=1) | nan_rows[order][1:] | nan_rows[order][:-1]
    group = np.cumsum(new) - 1
    count = int(group[-1]) + 1 if group.size else 0
    first = np.full(count, nrows, dtype=np.int64)
    last = np.full(count, -1, dtype=np.int64)
    np.minimum.at(first, group, order)
    np.maximum.at(last, group, order)
    ia = last if "last" in flags else first
    group_order = np.argsort(first, kind="stable") if "stable" in flags else np.arange(count)
    ia = ia[group_order]
    c = result(a[ia])
    if nargout <= 1:
        return c
    rank_of_group = np.empty(count, dtype=np.int64)
    rank_of_group[group_order] = np.arange(count)
    ic = np.empty(nrows, dtype=np.int64)
    ic[order] = rank_of_group[group]
    return (c, result((ia + 1).astype(np.float64).reshape(-1, 1)),
            result((ic + 1).astype(np.float64).reshape(-1, 1)))[:nargout]


def _member_texts(v: object) -> tuple[list, tuple[int, ...]]:
    """Texts of a char row / cellstr / string array for ismember, with the result shape."""
    if type(v) is np.ndarray and v.dtype.kind == "V":
        if v.ndim == 2 and v.shape[0] > 1:
            return char_rows(v), (v.shape[0], 1)
        return [to_str(v) if v.size else ""], (1, 1)
    keys, _ = _set_elements(v)
    return list(keys), shape_of(v)


@builtin(max_out=2, nargout=True)
def ismember(a: Any, s: Any, rows: Any = None, *, nargout: int = 1) -> object:
    """Lia = ismember(A,B)
    Lia = ismember(A,B,'rows')
    [Lia,Locb] = ismember(___)

    True where elements of A are found in B; Locb is the lowest index in B
    of each. Works on numbers, text in cell arrays and string arrays."""
    by_rows = rows is not None and text_option(rows) == "rows"
    if rows is not None and not by_rows:
        raise error("MATLAB:ISMEMBER:UnknownInput", "Unknown input.")
    text_args = [type(v) is Cell or type(v) is StringArray for v in (a, s)]
    if any(text_args):
        return _ismember_text(a, s, nargout)
    if by_rows:
        return _ismember_rows(a, s, nargout)
    values = to_double_array(a) if class_of(a) in ARITHMETIC else None
    if values is None or class_of(s) not in ARITHMETIC:
        raise error("MATLAB:ISMEMBER:InputClass", "Inputs must be numeric, logical, char, or cell arrays.")
    pool = to_double_array(s).reshape(-1, order="F")
    lookup: dict = {}
    for k in range(pool.size - 1, -1, -1):  # last write wins: the lowest index
        v = pool[k]
        if v == v:
            lookup[v.item()] = k + 1
    flat = values.reshape(-1, order="F")
    loc = np.array([lookup.get(v.item(), 0) if v == v else 0 for v in flat], dtype=np.float64)
    shape = values.shape
    tf = result((loc > 0).reshape(shape, order="F"))
    if nargout <= 1:
        return tf
    return tf, result(loc.reshape(shape, order="F"))


def _ismember_text(a: object, s: object, nargout: int) -> object:
    texts, shape = _member_texts(a)
    pool, _ = _member_texts(s)
    lookup: dict = {}
    for k in range(len(pool) - 1, -1, -1):
        if pool[k] is not None:
            lookup[pool[k]] = k + 1
    loc = np.array([lookup.get(t, 0) if t is not None else 0 for t in texts], dtype=np.float64)
    tf = result((loc > 0).reshape(shape, order="F"))
    if nargout <= 1:
        return tf
    return tf, result(loc.reshape(shape, order="F"))


def _ismember_rows(a: object, s: object, nargout: int) -> object:
    x, y = to_double_array(a), to_double_array(s)
    if x.ndim != 2 or y.ndim != 2 or (x.size and y.size and x.shape[1] != y.shape[1]):
        raise error("MATLAB:ISMEMBER:AandBColnumAgree",
                    "Inputs A and B must be matrices with the same number of columns in the 'rows' case.")
    lookup: dict = {}
    for k in range(y.shape[0] - 1, -1, -1):
        row = y[k]
        if not np.isnan(row).any():
            lookup[tuple(row.tolist())] = k + 1
    loc = np.array([lookup.get(tuple(r.tolist()), 0) for r in x], dtype=np.float64).reshape(-1, 1)
    tf = result(loc > 0)
    if nargout <= 1:
        return tf
    return tf, result(loc)
