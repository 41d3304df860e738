"""Making text and telling its kind: char, cellstr, string, strings, strlength, newline,
blanks, and the tests ischar, iscellstr and isstring."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.coerce import size_arguments, text_array
from mlang.builtins.math.rounding import round_half_away
from mlang.builtins.text.forms import (
    cell_of,
    deblanked,
    double_array,
    empty_char,
    is_char,
    is_char_row,
    object_array,
    row,
    text_length,
    whole_number,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import (
    CHAR,
    char_from_codes,
    char_matrix,
    char_rows,
    class_of,
    fix_shape,
    to_array,
)
from mlang.values.objects import kind_of
from mlang.values.string import StringArray
from mlang.values.text import to_string_array


def _object_texts(x: object) -> np.ndarray | None:
    """An object's elements as text (its ``text_elements`` hook: datetime, duration...);
    None for other values."""
    kind = kind_of(x)
    return None if kind is None else kind.text_elements(x)


def _arg_rows(v: object) -> list[str]:
    """The rows an argument of char(...) contributes (an empty one gives a blank row)."""
    if is_char(v):
        return char_rows(v) if v.size else [""]
    if type(v) is Cell:
        out: list[str] = []
        for x in v.data.ravel(order="F"):
            if not is_char(x):
                raise error("MATLAB:char:CellsMustContainText",
                            "Cell elements must be character arrays.")
            out.extend(_arg_rows(x))
        return out
    if type(v) is StringArray:
        return [x or "" for x in v.data.ravel(order="F")]
    if type(v) in (float, bool, np.ndarray):
        return char_rows(codes_to_char(to_array(v)))
    texts = _object_texts(v)
    if texts is not None:
        return [x or "" for x in texts.ravel(order="F")]
    raise error("MATLAB:char:invalidInputType",
                f"Conversion to char from {class_of(v)} is not possible.")


def codes_to_char(a: np.ndarray) -> np.ndarray:
    """Character codes as a char array (rounded, clipped to the valid code points)."""
    if a.dtype == np.float64 and a.ndim == 2 and a.size <= _DIRECT_CODES:
        codes = a.reshape(-1).tolist()  # whole codes of one unit each: taken as they are
        if all(0.0 <= c <= 65535.0 and c == int(c) for c in codes):
            return a.astype(np.uint16).view(CHAR)
    codes = a.real if a.dtype.kind == "c" else a
    codes = round_half_away(codes.astype(np.float64))
    return char_from_codes(np.clip(np.nan_to_num(codes), 0, 0x10FFFF).astype(np.uint32))


_DIRECT_CODES = 64  # (short arrays of codes: checked element by element, no array passes)


@builtin()
def char(*args: Any) -> Any:
    """C = char(A) converts numbers (character codes), strings or a cell array to char.
    C = char(A1, ..., An) stacks the texts as rows padded with blanks."""
    if not args:
        return empty_char()
    if len(args) == 1:
        x = args[0]
        if is_char(x):
            return x
        if type(x) in (float, bool, np.ndarray):
            return codes_to_char(to_array(x))
        if type(x) is StringArray and x.data.size == 1:
            text = x.data.reshape(-1)[0]
            return row(text) if text else empty_char()
    rows: list[str] = []
    for a in args:
        rows.extend(_arg_rows(a))
    return char_matrix(rows)


@builtin()
def cellstr(x: Any) -> Any:
    """C = cellstr(A) converts a char array (one cell per row, trailing blanks removed)
    or a string array to a cell array of character vectors."""
    if is_char(x):
        if x.size == 0 and x.shape[0] == 0:
            return cell_of([empty_char()], (1, 1))
        rows = char_rows(x)
        return cell_of([row(deblanked(r)) if deblanked(r) else empty_char() for r in rows],
                     (len(rows), 1))
    if type(x) is Cell:
        if not all(is_char_row(v) for v in x.data.ravel()):
            raise error("MATLAB:cellstr:MustContainText",
                        "Cell array must contain only character vectors.")
        return x
    if type(x) is StringArray:
        return Cell(object_array([row(s or "") for s in x.data.ravel(order="F")], x.shape))
    texts = _object_texts(x)
    if texts is not None:
        return Cell(object_array([row(s or "") for s in texts.ravel(order="F")], texts.shape))
    raise error("MATLAB:cellstr:InputClass",
                "Input must be a string, character array, or cell array of character vectors.")


@builtin(dl="native")
def iscellstr(x: Any) -> Any:
    """tf = iscellstr(C) is true when C is a cell array whose elements are all char arrays."""
    return type(x) is Cell and all(is_char(v) for v in x.data.ravel())


@builtin(dl="native")
def ischar(x: Any) -> Any:
    """tf = ischar(A) is true for a char array."""
    return is_char(x)


@builtin(dl="native")
def isstring(x: Any) -> Any:
    """tf = isstring(A) is true for a string array."""
    return type(x) is StringArray


@builtin()
def string(*args: Any) -> Any:
    """str = string(A) converts text, numbers, logicals or a cell array to a string array."""
    if not args:
        return StringArray.scalar("")
    if len(args) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if class_of(args[0]) == "missing":  # each missing value is a <missing> string
        data = np.empty(args[0].shape, dtype=object)
        data.fill(None)
        return StringArray(data)
    texts = _object_texts(args[0])
    if texts is not None:
        return StringArray(texts)
    return to_string_array(args[0])


@builtin()
def strings(*sizes: Any) -> Any:
    """str = strings
    str = strings(n)
    str = strings(sz1,...,szN)
    str = strings(sz)

    String array whose elements are all "" (no characters): strings(n) is
    n-by-n, strings(sz1,...,szN) and strings(sz) have the given size."""
    shape = fix_shape(size_arguments(sizes, "string"))
    data = np.empty(shape, dtype=object)
    data.fill("")
    return StringArray(data)


@builtin()
def strlength(s: Any) -> Any:
    """L = strlength(str) is the number of characters of each text (NaN for <missing>)."""
    if type(s) is StringArray and s.data.shape == (1, 1):  # a string scalar: no lists
        text = s.data[0, 0]
        return math.nan if text is None else float(len(text))
    t = text_array(s)
    return t.pack_values([math.nan if x is None else float(len(x)) for x in t.items],
                         lambda v: double_array(v, t.shape))


@builtin()
def newline() -> Any:
    """c = newline is the newline character, char(10)."""
    return row("\n")


@builtin()
def blanks(n: Any) -> Any:
    """b = blanks(n) is a 1-by-n character vector of spaces."""
    return row(" " * text_length(whole_number(n, "blanks", "N")))
