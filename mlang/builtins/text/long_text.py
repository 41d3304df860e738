"""Long char rows in the text functions: read as Python strings through the fast
Latin-1 conversion, and searched by their character codes without becoming
strings at all."""

from __future__ import annotations

import numpy as np

from mlang.builtins.coerce import text_array
from mlang.builtins.text.forms import TextArray, is_char
from mlang.values.core import char_codes, char_row
from mlang.values.text import row_text

# Below this length a row is searched as a Python string (str.find is quicker
# than setting up the vectorised search).
VECTOR_SEARCH_FROM = 4096
# Code units from here on may be halves of surrogate pairs.
_SURROGATES_FROM = 0xD800


def is_long_row(v: object) -> bool:
    """A 1×n char row long enough for the vectorised paths."""
    return is_char(v) and v.ndim == 2 and v.shape[0] == 1 and v.shape[1] >= VECTOR_SEARCH_FROM


def read_texts(v: object, what: str = "Input") -> TextArray:
    """``coerce.text_array`` with a long char row read through the fast conversion."""
    if is_char(v) and v.ndim == 2 and v.shape[0] == 1:
        return TextArray("char", (1, 1), [row_text(v)])
    return text_array(v, what)


def row_codes(v: np.ndarray) -> np.ndarray | None:
    """The character codes of a long char row as a flat vector, or None when it holds
    surrogates (characters beyond U+FFFF, whose positions differ as text)."""
    codes = char_codes(v).reshape(-1)
    if int(codes.max()) >= _SURROGATES_FROM:
        return None
    return codes


def text_codes(text: str) -> np.ndarray | None:
    """The character codes of ``text``, or None when it has characters beyond U+FFFF."""
    codes = char_codes(char_row(text)).reshape(-1) if text else np.zeros(0, dtype=np.uint16)
    return codes if codes.size == len(text) else None


def one_byte_text(v: np.ndarray) -> bytearray | None:
    """The characters of a char array as one byte each (column-major), or None when
    some character is past U+00FF.  A bytearray: written by NumPy in one pass, and
    searched and replaced by the bytes methods without another copy."""
    codes = char_codes(v).reshape(-1, order="F")
    if codes.size and int(codes.max()) > 0xFF:
        return None
    out = bytearray(codes.size)
    np.copyto(np.frombuffer(out, dtype=np.uint8), codes, casting="unsafe")
    return out


def find_codes(codes: np.ndarray, pattern: np.ndarray) -> np.ndarray:
    """Start offsets (ascending) of every occurrence of ``pattern`` in ``codes``,
    overlapping ones included; ``pattern`` is not empty."""
    m = pattern.size
    n = codes.size - m + 1
    if n <= 0:
        return np.zeros(0, dtype=np.intp)
    # whole-row comparisons for the first few characters, then only the candidates
    # left (a long pattern costs no more whole-row passes than a short one)
    masked = min(m, 3)
    hits = codes[:n] == pattern[0]
    for j in range(1, masked):
        hits &= codes[j:j + n] == pattern[j]
    starts = np.flatnonzero(hits)
    for j in range(masked, m):
        if not starts.size:
            break
        starts = starts[codes[starts + j] == pattern[j]]
    return starts
