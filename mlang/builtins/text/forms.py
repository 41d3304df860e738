"""What the text functions share: the three forms of text (char rows and
matrices, cell arrays of character vectors, string arrays), building results
in each form, MATLAB's whitespace, and whole-number arguments (counts,
widths, bases).

A text array argument is read by ``coerce.text_array`` into a ``TextArray``,
which gives results back in the argument's own form.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import CHAR, char_codes, char_row, result, scalar_value
from mlang.values.string import StringArray
from mlang.values.text import text_row

# MATLAB's whitespace for isspace, strtrim, strtok and strsplit's default delimiter.
WHITESPACE = " \t\n\v\f\r"
# strtrim and deblank also drop NUL; the non-breaking spaces are significant and kept.
_TRIM_EXTRA = "\0"
_NON_BREAKING = "\xa0\u2007\u202f"


def is_char(v: object) -> bool:
    """A char array (of any size)."""
    return type(v) is np.ndarray and v.dtype.kind == "V"


def is_char_row(v: object) -> bool:
    """A char array holding one text: a 1×n row, or empty."""
    return is_char(v) and (v.size == 0 or (v.ndim == 2 and v.shape[0] == 1))


def row(text: str) -> np.ndarray:
    """A 1×n char row (1×0 for the empty text, as MATLAB's string functions return)."""
    if len(text) < 64:  # short texts (most pieces of a split) skip text_row's length test
        return char_row(text) if text else np.zeros((1, 0), dtype=CHAR)
    return text_row(text)


def empty_char() -> np.ndarray:
    """MATLAB's '' (0×0 char)."""
    return np.zeros((0, 0), dtype=CHAR)




def object_array(items: list, shape: tuple[int, ...]) -> np.ndarray:
    """An object array of the given MATLAB shape from items in column-major order."""
    flat = np.fromiter(items, dtype=object, count=len(items))
    return flat.reshape(shape, order="F")


def cell_of(items: list, shape: tuple[int, ...] | None = None) -> Cell:
    """A cell array of the items (a 1×n row unless a shape is given)."""
    return Cell(object_array(items, shape if shape is not None else (1, len(items))))


def strings_of(items: list, shape: tuple[int, ...] | None = None) -> StringArray:
    """A string array of the items (None is <missing>; a 1×n row unless a shape is given)."""
    return StringArray(object_array(items, shape if shape is not None else (1, len(items))))


def logical_array(values: list[bool], shape: tuple[int, ...]) -> object:
    """A logical array of ``shape`` from values in column-major order."""
    return result(np.array(values, dtype=bool).reshape(shape, order="F"))


def double_array(values: list[float], shape: tuple[int, ...]) -> object:
    """A double array of ``shape`` from values in column-major order."""
    return result(np.array(values, dtype=np.float64).reshape(shape, order="F"))


class TextArray:
    """A text argument flattened: ``kind`` is 'char' (one character vector), 'cell' or
    'string'; ``items`` are in column-major order (None is a missing string)."""

    __slots__ = ("kind", "shape", "items")

    def __init__(self, kind: str, shape: tuple[int, ...], items: list) -> None:
        self.kind = kind
        self.shape = shape
        self.items = items

    def pack(self, items: list) -> object:
        """New items (str, or None for <missing>) in this input's form."""
        if self.kind == "char":
            return row(items[0])
        if self.kind == "cell":
            return Cell(object_array([row(x or "") for x in items], self.shape))
        return StringArray(object_array(items, self.shape))

    def pack_values(self, values: list, scalar: Callable[[list], object]) -> object:
        """Per-item results: one value for a char input, an array otherwise."""
        if self.kind == "char":
            return values[0]
        return scalar(values)


# ------------------------------------------------------------------ whitespace


def char_test(a: np.ndarray, test: Callable[[str], bool]) -> np.ndarray:
    """``test`` of each character of a char array, as a logical array of its shape
    (asked once for each distinct character)."""
    if a.size == 0:
        return np.zeros(a.shape, dtype=bool)
    codes, where = np.unique(char_codes(a), return_inverse=True)
    answers = np.array([test(chr(c)) for c in codes.tolist()], dtype=bool)
    return answers[where].reshape(a.shape)


def is_space(c: str) -> bool:
    """MATLAB's isspace of one character (the non-breaking spaces are not space)."""
    if len(c) != 1:
        return False
    return c in WHITESPACE or (c > "\x7f" and c.isspace() and c not in _NON_BREAKING)


def is_trimmed(c: str) -> bool:
    """Whether strtrim and deblank remove the character: whitespace or NUL."""
    return c == _TRIM_EXTRA or is_space(c)


def deblanked(text: str) -> str:
    """``text`` without trailing whitespace and NUL characters (deblank of one text)."""
    end = len(text)
    while end and is_trimmed(text[end - 1]):
        end -= 1
    return text[:end]


# ----------------------------------------------------------- whole numbers


# Longest text built on request (blanks(n), dec2bin(d, n)): longer requests are
# refused with MATLAB's size error rather than exhausting memory.
MAX_TEXT_LENGTH = 2**31


def text_length(n: int) -> int:
    """``n`` as the length of a text to build, or MATLAB's size error when it is too long."""
    if n > MAX_TEXT_LENGTH:
        raise error("MATLAB:array:SizeLimitExceeded",
                    f"Requested 1x{n} array exceeds maximum array size preference.")
    return n


def whole_number(v: object, fname: str, what: str, low: int = 0) -> int:
    """A real, finite, whole scalar argument of at least ``low`` (counts, widths, bases)."""
    count = v.size if type(v) is np.ndarray else 1
    x = scalar_value(v) if type(v) in (float, bool, np.ndarray) and count == 1 else None
    if isinstance(x, bool):
        x = int(x)
    if not isinstance(x, (int, float)) or not math.isfinite(x) or x != int(x) or x < low:
        raise error(f"MATLAB:{fname}:InvalidInput",
                    f"{what} must be an integer scalar of at least {low}.")
    return int(x)
