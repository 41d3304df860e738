"""Sets: unique, ismember, union, intersect, setdiff and setxor, for numbers and for
texts (cell arrays of character vectors, string arrays), by elements or by rows."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import text_option, text_or_none
from mlang.builtins.data.shape import is_placeholder, rewrap_shaped, shape_of
from mlang.builtins.math.elementwise import ARITHMETIC
from mlang.builtins.text.forms import empty_char, is_char, object_array
from mlang.errors import error, warn
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.concat import concat_class
from mlang.values.core import (
    char_codes,
    char_from_codes,
    char_row,
    char_rows,
    char_text,
    class_of,
    result,
    to_array,
    to_double_array,
)
from mlang.values.indexing import data_of
from mlang.values.operators import as_class
from mlang.values.string import StringArray

# ------------------------------------------------------------ item keys


def dense_keys(values: np.ndarray) -> np.ndarray:
    """Integer keys of flat values in MATLAB's sort order: equal values share a key;
    every NaN (and every missing string) gets a key of its own, after all others, in
    order of appearance.  Values are numbers, char codes or Python strings (None missing)."""
    n = values.size
    kind = values.dtype.kind
    if kind == "O":
        missing = np.array([v is None for v in values], dtype=bool)
        present = np.array([v for v in values if v is not None], dtype=str) \
            if n > missing.sum() else np.zeros(0, dtype=str)
    else:
        if kind == "V":
            values = char_codes(values)
        elif kind == "b":
            values = values.astype(np.uint8)
        missing = np.isnan(values) if kind in "fc" else np.zeros(n, dtype=bool)
        present = values[~missing]
    keys = np.empty(n, dtype=np.int64)
    if present.dtype.kind == "c":
        # complex values sort by modulus, then phase angle
        order = np.lexsort([np.angle(present), np.abs(present)])
        ordered = present[order]
        new = np.ones(present.size, dtype=bool)
        new[1:] = ordered[1:] != ordered[:-1]
        ranks = np.empty(present.size, dtype=np.int64)
        ranks[order] = np.cumsum(new) - 1
    else:
        _, ranks = np.unique(present, return_inverse=True)
    count = int(ranks.max()) + 1 if ranks.size else 0
    keys[~missing] = ranks.reshape(-1)
    keys[missing] = count + np.arange(int(missing.sum()))
    return keys


def _row_keys(rows: np.ndarray) -> np.ndarray:
    """Integer keys of the rows of a matrix (lexicographic order; a row holding NaN is
    distinct from every other row, ranked last in order of appearance)."""
    n, k = rows.shape
    if k == 0:
        return np.zeros(n, dtype=np.int64)
    columns = np.stack([dense_keys(rows[:, j]) for j in range(k)], axis=1)
    missing = np.isnan(rows).any(axis=1) if rows.dtype.kind in "fc" else np.zeros(n, dtype=bool)
    keys = np.empty(n, dtype=np.int64)
    _, ranks = np.unique(columns[~missing], axis=0, return_inverse=True)
    count = int(ranks.max()) + 1 if ranks.size else 0
    keys[~missing] = ranks.reshape(-1)
    keys[missing] = count + np.arange(int(missing.sum()))
    return keys


def _set_elements(x: object, fname: str = "unique") -> np.ndarray:
    """Flat (column-major) elements of a set argument, to key with ``dense_keys``:
    the array's own values, or Python strings (None for a missing string) for a cell
    array of character vectors or a string array."""
    t = type(x)
    if t is Cell:
        texts = []
        for v in x.data.reshape(-1, order="F"):
            if not is_char(v) or v.ndim == 2 and v.shape[0] > 1:
                raise error(f"MATLAB:{fname.upper()}:InputClass",
                            "Input A must be a cell array of character vectors.")
            texts.append(char_text(v))
        return object_array(texts, (len(texts),))
    if t is StringArray:
        return x.data.reshape(-1, order="F")
    if class_of(x) not in ARITHMETIC:
        raise error("MATLAB:UndefinedFunction", f"Invalid data type: {class_of(x)}.")
    return to_array(x).reshape(-1, order="F")


def _groups(keys: np.ndarray, stable: bool, last: bool) -> tuple[np.ndarray, np.ndarray]:
    """For integer item keys: the position of each distinct item (its first, or
    ``last``, occurrence) in sorted or ``stable`` order, and each item's group number
    in that order."""
    n = keys.size
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    picked = first
    if last:
        _, from_end = np.unique(keys[::-1], return_index=True)
        picked = n - 1 - from_end
    if not stable:
        return picked, inverse
    order = np.argsort(first, kind="stable")
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    return picked[order], rank[inverse]


_UNIQUE_FLAGS = ("sorted", "stable", "rows", "first", "last")


@builtin(max_out=3, nargout=True)
def unique(x: Any, *options: Any, nargout: int = 1) -> object:
    """C = unique(A)
    C = unique(A,setOrder)
    C = unique(A,occurrence)
    C = unique(A,'rows')
    [C,ia,ic] = unique(___)

    Unique values in sorted order (or 'stable' order of first appearance):
    C = A(ia) and A = C(ic). NaN values and missing strings are all distinct."""
    flags = set()
    for v in options:
        text = text_option(v)
        if text not in _UNIQUE_FLAGS:
            raise error("MATLAB:UNIQUE:UnknownInput", "Unknown input.")
        if text in flags:
            raise error("MATLAB:UNIQUE:RepeatedFlag", f"Repeated flag: {text}.")
        flags.add(text)
    if {"sorted", "stable"} <= flags:
        raise error("MATLAB:UNIQUE:SetOrderConflict", "Set order flags cannot be combined.")
    if {"first", "last"} <= flags:
        raise error("MATLAB:UNIQUE:OccurrenceConflict", "Occurrence flags cannot be combined.")
    stable, last = "stable" in flags, "last" in flags
    if "rows" in flags and type(x) is Cell:
        _rows_ignored("unique")
    if "rows" in flags and type(x) is not Cell and type(x) is not StringArray:
        a = to_array(x)
        if a.ndim != 2:
            raise error("MATLAB:UNIQUE:ANotAMatrix", "A must be a 2-D matrix when 'rows' is specified.")
        ia, ic = _groups(_row_keys(a), stable, last)
        c = result(a[ia])
    else:
        values = _set_elements(x)
        ia, ic = _groups(dense_keys(values), stable, last)
        shape = shape_of(x)
        row = len(shape) == 2 and shape[0] == 1 and shape[1] >= 1 or shape == (1, 0)
        data = data_of(x).reshape(-1, order="F")[ia]
        c_data = data.reshape(1, -1) if row else data.reshape(-1, 1)
        c = rewrap_shaped(x, c_data) if type(x) is not np.ndarray else result(c_data)
    if nargout <= 1:
        return c
    return c, _indices(ia), _indices(ic)


def _member_values(v: object) -> tuple[np.ndarray, tuple[int, ...]]:
    """Items of an ismember text argument (a char row is one text, a char matrix one
    text per row) and the shape of the result for it."""
    if type(v) is np.ndarray and v.dtype.kind == "V":
        if v.ndim == 2 and v.shape[0] > 1:
            return object_array(char_rows(v), (v.shape[0],)), (v.shape[0], 1)
        return object_array([char_text(v)], (1,)), (1, 1)
    return _set_elements(v, "ismember"), shape_of(v)


def _membership(ka: np.ndarray, ks: np.ndarray, shape: tuple[int, ...], nargout: int) -> object:
    """Lia (and Locb, the lowest index in S) from the keys of A's and S's items."""
    n = ka.size
    keys = np.concatenate([ka, ks])
    loc = _first_in(keys, np.arange(n, keys.size), keys[:n])
    found = loc >= 0
    tf = result(found.reshape(shape, order="F"))
    if nargout <= 1:
        return tf
    return tf, result(np.where(found, loc - n + 1, 0).astype(np.float64).reshape(shape, order="F"))


@builtin(max_out=2, nargout=True)
def ismember(a: Any, s: Any, rows: Any = None, *, nargout: int = 1) -> object:
    """Lia = ismember(A,S)
    Lia = ismember(A,S,'rows')
    [Lia,Locb] = ismember(___)

    True where elements of A are found in S; Locb is the lowest index in S
    of each. Works on numbers, text in cell arrays and string arrays."""
    by_rows = rows is not None and text_option(rows) == "rows"
    if rows is not None and not by_rows:
        raise error("MATLAB:ISMEMBER:UnknownInput", "Unknown input.")
    if any(type(v) is Cell or type(v) is StringArray for v in (a, s)):
        if by_rows and (type(a) is Cell or type(s) is Cell):
            _rows_ignored("ismember")
        values, shape = _member_values(a)
        pool, _ = _member_values(s)
        keys = dense_keys(np.concatenate([values, pool]))
        return _membership(keys[:values.size], keys[values.size:], shape, nargout)
    if class_of(a) not in ARITHMETIC or class_of(s) not in ARITHMETIC:
        raise error("MATLAB:ISMEMBER:InputClass", "Inputs must be numeric, logical, char, or cell arrays.")
    # one class compares in its own values (exact for 64-bit integers); mixed ones as double
    same = class_of(a) == class_of(s)
    x, y = (to_array(a), to_array(s)) if same else (to_double_array(a), to_double_array(s))
    if by_rows:
        if x.ndim != 2 or y.ndim != 2 or (x.size and y.size and x.shape[1] != y.shape[1]):
            raise error("MATLAB:ISMEMBER:AandBColnumAgree",
                        "Inputs A and B must be matrices with the same number of columns in the "
                        "'rows' case.")
        if not y.size:
            y = y.reshape(0, x.shape[1])
        keys = _row_keys(np.concatenate([x, y], axis=0)) if x.shape[1] == y.shape[1] else \
            np.concatenate([np.zeros(x.shape[0], dtype=np.int64), -1 - np.arange(y.shape[0])])
        return _membership(keys[:x.shape[0]], keys[x.shape[0]:], (x.shape[0], 1), nargout)
    keys = dense_keys(np.concatenate([x.reshape(-1, order="F"), y.reshape(-1, order="F")]))
    return _membership(keys[:x.size], keys[x.size:], x.shape, nargout)


# ------------------------------------------------------------ union, intersect, setdiff, setxor

_SET_FLAGS = ("rows", "sorted", "stable", "R2012a")


def _set_options(fname: str, flags: tuple) -> tuple[bool, bool]:
    """'rows' and 'sorted'/'stable' of a set operation (any leading part of a flag
    names it): whether by rows, whether stable."""
    ident = fname.upper()
    found: set[str] = set()
    for v in flags:
        text = text_or_none(v)
        if text is None:
            raise error(f"MATLAB:{ident}:UnknownInput", "Unknown input.")
        matches = [f for f in _SET_FLAGS if text and f.lower().startswith(text.lower())]
        if len(matches) != 1:
            raise error(f"MATLAB:{ident}:UnknownFlag", f"Invalid flag: {text}.")
        if matches[0] in found:
            raise error(f"MATLAB:{ident}:RepeatedFlag", f"Repeated flag: {text}.")
        found.add(matches[0])
    if "sorted" in found and "stable" in found:
        raise error(f"MATLAB:{ident}:SetOrderConflict", "Set order flags cannot be combined.")
    return "rows" in found, "stable" in found


def _rows_ignored(fname: str) -> None:
    warn(f"MATLAB:{fname.upper()}:RowsFlagIgnored",
         "The 'rows' input is not supported for cell array inputs.")


def _is_row(shape: tuple[int, ...]) -> bool:
    return len(shape) == 2 and shape[0] == 1


class _Operands:
    """The two inputs of a set operation as one pool of comparable items (elements, or
    rows with 'rows'): A's items first, then B's; ``keys`` are their integer keys."""

    def __init__(self, fname: str, a: object, b: object, by_rows: bool) -> None:
        self.by_rows = False
        self.text_kind = ""
        if any(type(v) is Cell or type(v) is StringArray for v in (a, b)):
            if by_rows and (type(a) is Cell or type(b) is Cell):
                _rows_ignored(fname)
            self._texts(fname, a, b)
        elif by_rows:
            self._rows(fname, a, b)
        else:
            self._numbers(fname, a, b)

    def _common_class(self, fname: str, a: object, b: object) -> str:
        ca, cb = class_of(a), class_of(b)
        for c in (ca, cb):
            if c not in ARITHMETIC:
                raise error(f"MATLAB:{fname.upper()}:InvalidInputsDataType",
                            f"Inputs of class '{c}' are not supported.")
        if ca != cb and "double" not in (ca, cb):
            raise error(f"MATLAB:{fname.upper()}:InvalidInputsDataType",
                        f"Input A of class {ca} and input B of class {cb} must be the same "
                        "class unless one is double.")
        return concat_class([a, b])

    def _numbers(self, fname: str, a: object, b: object) -> None:
        cls = self._common_class(fname, a, b)
        self.rowvec = _is_row(shape_of(a)) and _is_row(shape_of(b))
        self.row_of_a = _is_row(shape_of(a))
        xa = as_class(a, cls).reshape(-1, order="F")
        xb = as_class(b, cls).reshape(-1, order="F")
        self.na, self.nb = xa.size, xb.size
        self.pool = np.concatenate([xa, xb])
        self.own_a = to_array(a).reshape(-1, order="F")
        self.keys = dense_keys(self.pool)

    def _rows(self, fname: str, a: object, b: object) -> None:
        cls = self._common_class(fname, a, b)
        xa, xb = as_class(a, cls), as_class(b, cls)
        if xa.ndim != 2 or xb.ndim != 2:
            raise error(f"MATLAB:{fname.upper()}:NotAMatrix",
                        "A and B must be 2-D matrices when 'rows' is specified.")
        if cls == "char":  # char rows are padded with blanks to one width
            width = max(xa.shape[1], xb.shape[1])
            xa, xb = (char_from_codes(np.pad(char_codes(x), ((0, 0), (0, width - x.shape[1])),
                                             constant_values=ord(" "))) for x in (xa, xb))
        elif xa.shape[1] != xb.shape[1]:
            raise error(f"MATLAB:{fname.upper()}:AandBColnumAgree",
                        "Inputs A and B must be matrices with the same number of columns in "
                        "the 'rows' case.")
        self.by_rows = True
        self.na, self.nb = xa.shape[0], xb.shape[0]
        self.pool = np.concatenate([xa, xb], axis=0)
        self.own_a = xa if class_of(a) == cls else to_array(a)  # padded char rows too
        self.keys = _row_keys(self.pool)

    def _texts(self, fname: str, a: object, b: object) -> None:
        strings = type(a) is StringArray or type(b) is StringArray
        items = [_text_items(fname, v, strings, which) for which, v in enumerate((a, b))]
        (ia, sa), (ib, sb) = items
        self.text_kind = "string" if strings else "cell"
        self.rowvec = _is_row(sa) and _is_row(sb)
        self.row_of_a = _is_row(sa)
        self.na, self.nb = len(ia), len(ib)
        self.pool = object_array([v for v, _ in ia + ib], (self.na + self.nb,))
        self.own_a = self.pool[:self.na]
        self.keys = dense_keys(object_array([t for _, t in ia + ib], (self.na + self.nb,)))

    def take(self, positions: np.ndarray, row: bool, own: bool = False) -> object:
        """The items at ``positions`` (0-based in the pool) as C: a row vector, a column
        vector or (by rows) a matrix; ``own`` takes A's items in A's own class."""
        source = self.own_a if own else self.pool
        if self.by_rows:
            return result(source[positions])
        data = source[positions]
        data = data.reshape(1, -1) if row else data.reshape(-1, 1)
        if self.text_kind == "cell":
            return Cell(data)
        if self.text_kind == "string":
            return StringArray(data)
        return result(data)


def _text_items(fname: str, v: object, strings: bool, which: int) -> tuple[list, tuple]:
    """(element, text) pairs of a text input of a set operation, and its shape after
    MATLAB's conversion (a char row is one text, a char matrix one text per row)."""
    t = type(v)
    if t is StringArray:
        flat = v.data.reshape(-1, order="F")
        return [(s, s) for s in flat], v.shape
    if t is np.ndarray and v.dtype.kind == "V":
        texts = [char_text(v)] if v.ndim == 2 and v.shape[0] <= 1 else \
            [r.rstrip() for r in char_rows(v)]
        shape = (1, 1) if len(texts) == 1 and v.shape[0] <= 1 else (len(texts), 1)
        if strings:
            return [(s, s) for s in texts], shape
        return [(char_row(s) if s else empty_char(), s) for s in texts], shape
    if t is Cell:
        pairs = []
        for x in v.data.reshape(-1, order="F"):
            if not is_char(x) or (x.ndim == 2 and x.shape[0] > 1):
                break
            pairs.append((char_text(x) if strings else x, char_text(x)))
        else:
            return pairs, v.shape
    elif not strings and is_placeholder(v) and shape_of(v) == (0, 0):
        return [], (0, 0)  # [] stands for an empty cell array
    if strings:
        position = "First" if which == 0 else "Second"
        raise error("MATLAB:string:MustBeCharCellArrayOrString",
                    f"{position} input must be a string array, character vector, or cell "
                    "array of character vectors.")
    raise error(f"MATLAB:{fname.upper()}:InputClass",
                f"Input A of class {class_of(v) if which == 0 else 'cell'} and input B of class "
                f"{class_of(v) if which == 1 else 'cell'} must be cell arrays of character "
                "vectors, unless one is a character vector.")


def _firsts(keys: np.ndarray, positions: np.ndarray, stable: bool) -> np.ndarray:
    """The first position of each distinct key among ``positions``, in key order (or,
    ``stable``, in order of position)."""
    if positions.size == 0:
        return positions
    _, first = np.unique(keys[positions], return_index=True)
    picked = positions[first]
    return np.sort(picked) if stable else picked


def _indices(positions: np.ndarray, offset: int = 0) -> object:
    """1-based column of indices."""
    return result((positions - offset + 1).astype(np.float64).reshape(-1, 1))


@builtin(max_out=3, nargout=True)
def union(a: Any, b: Any, *flags: Any, nargout: int = 1) -> object:
    """C = union(A,B)
    C = union(A,B,setOrder)
    C = union(A,B,___,'rows')
    [C,ia,ib] = union(___)

    Combined values of A and B without repetitions, sorted (or in 'stable' order of
    appearance); C is a row vector when A and B are both row vectors. C = [A(ia); B(ib)]
    in the sorted case; ia and ib are column vectors."""
    by_rows, stable = _set_options("union", flags)
    ops = _Operands("union", a, b, by_rows)
    pos = _firsts(ops.keys, np.arange(ops.na + ops.nb), stable)
    c = ops.take(pos, not by_rows and ops.rowvec)
    from_a = pos < ops.na
    return (c, _indices(pos[from_a]), _indices(pos[~from_a], ops.na))[:max(nargout, 1)]


def _first_in(keys: np.ndarray, among: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """For each key in ``wanted``, the first position in ``among`` with that key (-1 if
    none)."""
    if among.size == 0:
        return np.full(wanted.size, -1, dtype=np.int64)
    values, first = np.unique(keys[among], return_index=True)
    at = np.clip(np.searchsorted(values, wanted), 0, values.size - 1)
    return np.where(values[at] == wanted, among[first[at]], -1)


@builtin(max_out=3, nargout=True)
def intersect(a: Any, b: Any, *flags: Any, nargout: int = 1) -> object:
    """C = intersect(A,B)
    C = intersect(A,B,setOrder)
    C = intersect(A,B,___,'rows')
    [C,ia,ib] = intersect(___)

    Values common to A and B without repetitions, sorted (or in 'stable' order of
    appearance in A); C = A(ia) and C = B(ib). C is a row vector when A and B are
    both row vectors."""
    by_rows, stable = _set_options("intersect", flags)
    ops = _Operands("intersect", a, b, by_rows)
    in_a, in_b = np.arange(ops.na), np.arange(ops.na, ops.na + ops.nb)
    shared = in_a[np.isin(ops.keys[in_a], ops.keys[in_b])]
    pos = _firsts(ops.keys, shared, stable)
    c = ops.take(pos, not by_rows and ops.rowvec)
    if nargout <= 1:
        return c
    return c, _indices(pos), _indices(_first_in(ops.keys, in_b, ops.keys[pos]), ops.na)


@builtin(max_out=2, nargout=True)
def setdiff(a: Any, b: Any, *flags: Any, nargout: int = 1) -> object:
    """C = setdiff(A,B)
    C = setdiff(A,B,setOrder)
    C = setdiff(A,B,___,'rows')
    [C,ia] = setdiff(___)

    Values of A that are not in B, without repetitions, sorted (or in 'stable' order);
    C = A(ia). C is a row vector when A is a row vector, and keeps the class of A."""
    by_rows, stable = _set_options("setdiff", flags)
    ops = _Operands("setdiff", a, b, by_rows)
    in_a = np.arange(ops.na)
    only = in_a[~np.isin(ops.keys[in_a], ops.keys[ops.na:])]
    pos = _firsts(ops.keys, only, stable)
    c = ops.take(pos, not by_rows and ops.row_of_a, own=not ops.text_kind)
    return (c, _indices(pos))[:max(nargout, 1)]


@builtin(max_out=3, nargout=True)
def setxor(a: Any, b: Any, *flags: Any, nargout: int = 1) -> object:
    """C = setxor(A,B)
    C = setxor(A,B,setOrder)
    C = setxor(A,B,___,'rows')
    [C,ia,ib] = setxor(___)

    Values in exactly one of A and B, without repetitions, sorted (or in 'stable'
    order: those of A, then those of B); C = [A(ia); B(ib)] in the sorted case. C is
    a row vector when A and B are both row vectors."""
    by_rows, stable = _set_options("setxor", flags)
    ops = _Operands("setxor", a, b, by_rows)
    keys = ops.keys
    in_a, in_b = np.arange(ops.na), np.arange(ops.na, ops.na + ops.nb)
    only_a = _firsts(keys, in_a[~np.isin(keys[in_a], keys[in_b])], True)
    only_b = _firsts(keys, in_b[~np.isin(keys[in_b], keys[in_a])], True)
    pos = np.concatenate([only_a, only_b])
    if not stable:
        pos = pos[np.argsort(keys[pos], kind="stable")]
    c = ops.take(pos, not by_rows and ops.rowvec)
    from_a = pos < ops.na
    return (c, _indices(pos[from_a]), _indices(pos[~from_a], ops.na))[:max(nargout, 1)]
