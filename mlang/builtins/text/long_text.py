"""Long char rows in the text functions: read as Python strings through the fast
Latin-1 conversion, and searched by their character codes without becoming
strings at all."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mlang.builtins.coerce import text_array
from mlang.builtins.text.forms import TextArray, is_char
from mlang.values.core import CHAR, char_codes, char_row
from mlang.values.text import row_text

# Below this length a row is searched as a Python string (str.find is quicker
# than setting up the vectorised search).
VECTOR_SEARCH_FROM = 4096
# Rows are searched and mapped in blocks of this many characters (see _chunk_starts).
SEARCH_BLOCK = 1 << 16
_LETTERS = np.uint16(26)
_CASE_SHIFT = np.uint16(32)
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
    found = list(_chunk_starts(codes, pattern))
    if not found:
        return np.zeros(0, dtype=np.intp)
    return found[0] if len(found) == 1 else np.concatenate(found)


def find_positions(codes: np.ndarray, pattern: np.ndarray) -> np.ndarray:
    """``find_codes`` as 1-based positions in doubles (strfind's answer), each block's
    written straight into the result: an array as long as the most occurrences there can
    be, shortened where it lies (the memory past its end is never touched)."""
    most = codes.size - pattern.size + 1
    if most <= 0:
        return np.zeros(0)
    try:
        out = np.empty(most)
    except MemoryError:  # (memory not promised beyond what is used): the blocks joined
        found = list(_chunk_starts(codes, pattern))
        return np.concatenate(found, dtype=np.float64) + 1.0 if found else np.zeros(0)
    count = 0
    for starts in _chunk_starts(codes, pattern):
        end = count + starts.size
        np.add(starts, 1.0, out=out[count:end])
        count = end
    try:
        out.resize(count)  # (in place: the memory past the end is given back)
    except ValueError:  # pragma: no cover - something else holds the array
        out = out[:count].copy()
    return out


def _chunk_starts(codes: np.ndarray, pattern: np.ndarray) -> Iterator[np.ndarray]:
    """The start offsets of ``pattern``'s occurrences in ``codes``, a block of the row at
    a time (those of blocks with any).  Comparisons of the first few characters over a
    block, in two buffers of a block's size that all blocks share: a long row makes no
    whole-row temporaries (fresh memory costs a page fault per page) and each block is
    compared while it is in the cache; the other characters are checked on the
    candidates left (a long pattern costs no more passes than a short one)."""
    m = pattern.size
    n = codes.size - m + 1
    if n <= 0:
        return
    masked = min(m, 3)
    leading = [pattern[j] for j in range(masked)]
    hits = np.empty(min(n, SEARCH_BLOCK), dtype=bool)
    other = np.empty(hits.size if masked > 1 else 0, dtype=bool)
    for start in range(0, n, SEARCH_BLOCK):
        stop = min(start + SEARCH_BLOCK, n)
        if stop - start < hits.size:  # the last, shorter block
            hits, other = hits[:stop - start], other[:stop - start]
        np.equal(codes[start:stop], leading[0], out=hits)
        for j in range(1, masked):
            np.equal(codes[start + j:stop + j], leading[j], out=other)
            np.logical_and(hits, other, out=hits)
        starts = np.flatnonzero(hits)
        if start:
            starts += start
        for j in range(masked, m):
            if not starts.size:
                break
            starts = starts[codes[starts + j] == pattern[j]]
        if starts.size:
            yield starts


def ascii_case(v: np.ndarray, upper: bool) -> np.ndarray | None:
    """upper or lower of a long char array (any shape, in C order) whose characters are
    all ASCII, where only a-z or A-Z change: shifted by 32 a block at a time with no
    whole-array temporaries; None for other arrays (the general path's)."""
    if v.size < VECTOR_SEARCH_FROM or not v.flags.c_contiguous:
        return None
    codes = char_codes(v).reshape(-1)
    if int(codes.max()) >= 0x80:
        return None
    out = np.empty(v.shape, dtype=CHAR)
    out_codes = char_codes(out).reshape(-1)
    first = np.uint16(ord("a") if upper else ord("A"))
    shift = np.subtract if upper else np.add
    n = codes.size
    offset = np.empty(min(n, SEARCH_BLOCK), dtype=np.uint16)
    letter = np.empty(offset.size, dtype=bool)
    for start in range(0, n, SEARCH_BLOCK):
        stop = min(start + SEARCH_BLOCK, n)
        if stop - start < offset.size:
            offset, letter = offset[:stop - start], letter[:stop - start]
        block = codes[start:stop]
        np.subtract(block, first, out=offset)  # (wraps below the first letter)
        np.less(offset, _LETTERS, out=letter)
        np.multiply(letter, _CASE_SHIFT, out=offset)
        shift(block, offset, out=out_codes[start:stop])
    return out


def replace_in_blocks(v: np.ndarray, old: bytes, new: bytes) -> np.ndarray | None:
    """strrep of a long char row by a pattern ``old`` that cannot overlap itself and a
    replacement ``new`` (both one byte a character), when the row holds characters up to
    U+00FF only and the result can be at most twice as long (else None): bytes.replace a
    block at a time, each block widened straight into the result.  Neither the row's
    one-byte copy nor the replaced one is made whole (fresh memory costs a page fault per
    page); the result is written into an array as long as it can be, then shortened where
    it lies (the memory past its end is never touched)."""
    m = len(old)
    n = v.size
    longest = n + n // m * max(len(new) - m, 0)
    if m > SEARCH_BLOCK // 4 or longest > 2 * n:
        return None
    codes = char_codes(v).reshape(-1)
    if int(codes.max()) > 0xFF:
        return None
    try:
        out = np.empty((1, longest), dtype=CHAR)
    except MemoryError:  # (memory not promised beyond what is used): the general path
        return None
    out_codes = char_codes(out).reshape(-1)
    written = start = 0
    while start < n:
        stop = start + SEARCH_BLOCK
        if stop < n:
            # an occurrence across the cut moves the cut to its start (occurrences of a
            # pattern that cannot overlap itself are apart: all are replaced either way)
            across = codes[stop - m + 1:stop + m - 1].astype(np.uint8).tobytes().find(old)
            if 0 <= across < m - 1:
                stop += across - m + 1
        else:
            stop = n
        data = codes[start:stop].astype(np.uint8).tobytes().replace(old, new)
        end = written + len(data)
        np.copyto(out_codes[written:end], np.frombuffer(data, dtype=np.uint8))
        written = end
        start = stop
    del out_codes
    try:
        out.resize((1, written))  # (in place: the memory past the end is given back)
    except ValueError:  # pragma: no cover - something else holds the array
        out = out[:, :written].copy()
    return out
