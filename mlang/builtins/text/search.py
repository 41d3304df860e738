"""Finding and comparing text: strfind, startsWith, endsWith, contains, strcmp,
strcmpi, strncmp, strncmpi, and the character classes (isletter, isspace,
isstrprop)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, options, text_array, text_list, text_scalar
from mlang.builtins.text.create import codes_to_char
from mlang.builtins.text.forms import (
    cell_of,
    char_test,
    is_char,
    is_space,
    logical_array,
    object_array,
    row,
    whole_number,
)
from mlang.builtins.text.long_text import (
    VECTOR_SEARCH_FROM,
    find_codes,
    find_positions,
    is_long_row,
    read_texts,
    row_codes,
    text_codes,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import CHAR, char_text, result, to_array, to_str
from mlang.values.string import StringArray
from mlang.values.text import row_text


def find_all(text: str, pattern: str) -> np.ndarray:
    """Start offsets of every (possibly overlapping) occurrence of ``pattern``."""
    if len(text) >= VECTOR_SEARCH_FROM and pattern:
        starts = _find_all_codes(text, pattern)
        if starts is not None:
            return starts
    out = []
    k = text.find(pattern)
    while k >= 0:
        out.append(k)
        k = text.find(pattern, k + 1)
    return np.array(out, dtype=np.intp)


def _find_all_codes(text: str, pattern: str) -> np.ndarray | None:
    """find_all over character codes, vectorised (None when a character beyond U+FFFF
    makes code units and characters differ)."""
    units, pat = text_codes(text), text_codes(pattern)
    if units is None or pat is None:
        return None
    return find_codes(units, pat)


def _index_row(positions: np.ndarray, empty_pattern: bool = False) -> object:
    if not positions.size:
        return np.zeros((0, 0) if empty_pattern else (1, 0))
    return result((positions + 1.0).reshape(1, -1))


def _short_row_found(text: str, pat: str) -> object:
    """``_index_row(find_all(text, pat))`` of a short text, its positions found by Python
    and made into a row at once."""
    k = text.find(pat)
    if k < 0:
        return np.zeros((1, 0))
    found = []
    while k >= 0:
        found.append(k + 1.0)
        k = text.find(pat, k + 1)
    return found[0] if len(found) == 1 else np.array([found])


@builtin()
def strfind(text: Any, pattern: Any, *opts: Any) -> Any:
    """k = strfind(str, pat) is the starting index of each occurrence of pat in str
    (overlapping occurrences included). A cell array str gives a cell array."""
    pat = text_scalar(pattern, "Pattern")
    force = option_flag(options(opts, ("ForceCellOutput",)).get("ForceCellOutput", False)) \
        if opts else False
    if pat and not force and type(text) is np.ndarray and text.dtype == CHAR and text.ndim == 2 \
            and text.shape[0] == 1 and text.shape[1] < VECTOR_SEARCH_FROM:
        return _short_row_found(row_text(text), pat)  # a short char row: the common call
    if pat and is_long_row(text):
        codes, pat_codes = row_codes(text), text_codes(pat)
        if codes is not None and pat_codes is not None:  # (no characters beyond U+FFFF)
            positions = find_positions(codes, pat_codes)
            found = result(positions.reshape(1, -1)) if positions.size else np.zeros((1, 0))
            return cell_of([found], (1, 1)) if force else found
    t = read_texts(text)
    found = [_index_row(find_all(s or "", pat) if pat else np.zeros(0), not pat) for s in t.items]
    if t.kind == "char" or (t.kind == "string" and len(found) == 1):
        return cell_of(found, (1, 1)) if force else found[0]
    return Cell(object_array(found, t.shape))


# ----------------------------------------------------------------- comparison


def _cmp_items(v: object) -> tuple[tuple[int, ...], list] | None:
    """Comparison operands: (shape, keys) for arrays of texts, None for a single value."""
    if type(v) is Cell:
        return v.shape, [_cmp_key(x) for x in v.data.ravel(order="F")]
    if type(v) is StringArray and v.data.size != 1:
        return v.shape, list(v.data.ravel(order="F"))
    return None


def _cmp_key(v: object) -> Any:
    """A comparison key: a string's text, (shape, text, is_row) for a char array
    (the shape matters to strcmp), None for anything that is not text."""
    if is_char(v):
        is_row = v.size == 0 or v.shape[0] == 1 and v.ndim == 2
        return tuple(v.shape), to_str(v) if v.size else "", is_row
    if type(v) is StringArray and v.data.size == 1:
        return v.data.reshape(-1)[0]
    return None


def _compare(a: object, b: object, same: Callable[[str, str], bool], fname: str,
             same_size: bool = False) -> object:
    """Compare texts elementwise; ``same_size`` makes two char arrays equal only
    when their sizes are (strcmp's rule, which strncmp relaxes for rows)."""
    ia, ib = _cmp_items(a), _cmp_items(b)

    def test(x: Any, y: Any) -> bool:
        if x is None or y is None:
            return False
        if isinstance(x, tuple) and isinstance(y, tuple):
            if (same_size or not (x[2] and y[2])) and x[0] != y[0]:
                return False
            return same(x[1], y[1])
        if isinstance(x, tuple) or isinstance(y, tuple):  # a char array against a string
            chars, text = (x, y) if isinstance(x, tuple) else (y, x)
            return chars[2] and same(chars[1], text)
        return same(x, y)

    if ia is None and ib is None:
        return test(_cmp_key(a), _cmp_key(b))
    if ia is None or ib is None:
        shape, keys = ia or ib  # type: ignore[misc]
        other = _cmp_key(b if ib is None else a)
        return logical_array([test(k, other) for k in keys], shape)
    if len(ia[1]) == 1 or len(ib[1]) == 1:
        single = ia if len(ia[1]) == 1 else ib
        many = ib if single is ia else ia
        return logical_array([test(k, single[1][0]) for k in many[1]], many[0])
    if ia[0] != ib[0]:
        raise error(f"MATLAB:{fname}:InputsSizeMismatch",
                    "Inputs must be the same size or either one can be a scalar.")
    return logical_array([test(x, y) for x, y in zip(ia[1], ib[1], strict=True)], ia[0])


def _is_char_row(v: Any) -> bool:
    return type(v) is np.ndarray and v.dtype.kind == "V" and v.ndim == 2 and v.shape[0] == 1


def _count(n: Any, fname: str) -> int:
    return whole_number(n, fname, "N")


@builtin()
def strcmp(a: Any, b: Any) -> Any:
    """tf = strcmp(s1, s2) is true when the texts are identical (elementwise for cell
    and string arrays; false for anything that is not text)."""
    if type(a) is np.ndarray and type(b) is np.ndarray and a.dtype.kind == "V" and b.dtype == a.dtype:
        # two char arrays: equal in size and in every code unit (so in their texts)
        return a.shape == b.shape and a.tobytes() == b.tobytes()
    if type(a) is Cell and is_char(b) or type(b) is Cell and is_char(a):
        quick = _cell_and_chars(a, b) if type(a) is Cell else _cell_and_chars(b, a)
        if quick is not None:
            return quick
    return _compare(a, b, lambda x, y: x == y, "strcmp", same_size=True)


def _cell_and_chars(cell: Cell, chars: np.ndarray) -> object:
    """strcmp of a cell array and a char array as _compare gives it: true where an element is
    a char array of that size and those code units; None when an element is a string, which
    compares by its text."""
    units = chars.tobytes()
    same = []
    for x in cell.data.ravel(order="F"):
        if type(x) is np.ndarray:
            same.append(x.dtype == chars.dtype and x.shape == chars.shape and x.tobytes() == units)
        elif type(x) is StringArray:
            return None
        else:
            same.append(False)  # (not text)
    return logical_array(same, cell.shape)


@builtin()
def strcmpi(a: Any, b: Any) -> Any:
    """tf = strcmpi(s1, s2) compares texts ignoring case."""
    if type(a) is np.ndarray and type(b) is np.ndarray and a.dtype.kind == "V" and b.dtype == a.dtype:
        # two char arrays: of one size, and their texts alike but for case
        return a.shape == b.shape and char_text(a).lower() == char_text(b).lower()
    return _compare(a, b, lambda x, y: x.lower() == y.lower(), "strcmpi", same_size=True)


@builtin()
def strncmp(a: Any, b: Any, n: Any) -> Any:
    """tf = strncmp(s1, s2, n) compares the first n characters."""
    if type(n) is float and n >= 0.0 and n.is_integer() and _is_char_row(a) and _is_char_row(b):
        k = int(n)  # two char rows (of any lengths): their first k characters
        return row_text(a)[:k] == row_text(b)[:k]
    k = _count(n, "strncmp")
    return _compare(a, b, lambda x, y: x[:k] == y[:k], "strncmp")


@builtin()
def strncmpi(a: Any, b: Any, n: Any) -> Any:
    """tf = strncmpi(s1, s2, n) compares the first n characters ignoring case."""
    k = _count(n, "strncmpi")
    return _compare(a, b, lambda x, y: x[:k].lower() == y[:k].lower(), "strncmpi")


def _pattern_test(s: Any, pattern: Any, opts: tuple, test: Callable[[str, str], bool]) -> object:
    ignore = option_flag(options(opts, ("IgnoreCase",)).get("IgnoreCase", False))
    t = text_array(s)
    pats = text_list(pattern)
    if ignore:
        pats = [p.lower() for p in pats]
    values = []
    for x in t.items:
        if x is None:
            values.append(False)
            continue
        x = x.lower() if ignore else x
        values.append(any(test(x, p) for p in pats))
    return t.pack_values(values, lambda v: logical_array(v, t.shape))


@builtin()
def startsWith(s: Any, pattern: Any, *opts: Any) -> Any:
    """tf = startsWith(str, pat) is true where str starts with pat (any of several patterns).
    startsWith(..., 'IgnoreCase', true) ignores case."""
    return _pattern_test(s, pattern, opts, str.startswith)


@builtin()
def endsWith(s: Any, pattern: Any, *opts: Any) -> Any:
    """tf = endsWith(str, pat) is true where str ends with pat."""
    return _pattern_test(s, pattern, opts, str.endswith)


@builtin()
def contains(s: Any, pattern: Any, *opts: Any) -> Any:
    """tf = contains(str, pat) is true where str contains pat."""
    return _pattern_test(s, pattern, opts, lambda x, p: p in x)


# ---------------------------------------------------------- character classes


def _is_punct(c: str) -> bool:
    return unicodedata.category(c)[0] in "PS" if c else False


_CLASSES: dict[str, Callable[[str], bool]] = {
    "alpha": str.isalpha,
    "alphanum": lambda c: c.isalpha() or c.isdecimal(),
    "digit": str.isdecimal,
    "lower": str.islower,
    "upper": str.isupper,
    "wspace": lambda c: is_space(c),
    "punct": _is_punct,
    "cntrl": lambda c: unicodedata.category(c) == "Cc",
    "graphic": lambda c: c.isprintable() and not c.isspace(),
    "graph": lambda c: c.isprintable() and not c.isspace(),
    "print": lambda c: c.isprintable(),
    "xdigit": lambda c: c in "0123456789abcdefABCDEF",
    "ascii": lambda c: ord(c) < 128,
}


def _char_test(a: np.ndarray, test: Callable[[str], bool]) -> object:
    return result(char_test(a, test))


def _class_of_chars(x: Any, test: Callable[[str], bool]) -> object:
    if is_char(x):
        return _char_test(x, test)
    if type(x) in (float, bool, complex, np.ndarray):
        return result(np.zeros(to_array(x).shape, dtype=bool))
    return False


@builtin()
def isletter(x: Any) -> Any:
    """tf = isletter(A) is true for the letters of a char array (false for other classes)."""
    return _class_of_chars(x, str.isalpha)


@builtin()
def isspace(x: Any) -> Any:
    """tf = isspace(A) is true for the whitespace characters of a char array."""
    return _class_of_chars(x, is_space)


@builtin()
def isstrprop(s: Any, category: Any, *opts: Any) -> Any:
    """tf = isstrprop(str, category) tests each character: 'alpha', 'alphanum', 'digit',
    'lower', 'upper', 'wspace', 'punct', 'cntrl', 'graphic', 'print', 'xdigit', 'ascii'.
    A cell array gives a cell array of results."""
    name = text_scalar(category, "Category").lower()
    test = _CLASSES.get(name)
    if test is None:
        raise error("MATLAB:isstrprop:InvalidCategory",
                    f"'{name}' is not a valid category.")
    force = option_flag(options(opts, ("ForceCellOutput",)).get("ForceCellOutput", False))
    if type(s) is Cell:
        return Cell(object_array([isstrprop(x, category) for x in s.data.ravel(order="F")], s.shape))
    if type(s) is StringArray:
        if s.data.size == 1:
            value = _char_test(row(s.scalar_text()), test)
        else:
            return Cell(object_array([_char_test(row(x or ""), test)
                                      for x in s.data.ravel(order="F")], s.shape))
    elif is_char(s):
        value = _char_test(s, test)
    elif type(s) in (float, bool, np.ndarray):
        value = _char_test(codes_to_char(to_array(s)), test)
    else:
        raise error("MATLAB:isstrprop:InvalidInput",
                    "Input must be a character array, cell array, string array, or numeric.")
    return cell_of([value], (1, 1)) if force else value
