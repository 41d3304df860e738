"""Changing text: upper, lower, strtrim, deblank, strrep and replace."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_list
from mlang.builtins.text.forms import TextArray, char_test, deblanked, is_char, is_char_row, is_trimmed
from mlang.builtins.text.long_text import (
    ascii_case,
    find_codes,
    is_long_row,
    one_byte_text,
    read_texts,
    replace_in_blocks,
    row_codes,
    text_codes,
)
from mlang.builtins.text.search import find_all
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import CHAR, char_codes, to_str
from mlang.values.string import StringArray
from mlang.values.text import row_text, text_row


def _map_text(x: object, fn: Callable[[str], str]) -> object:
    t = read_texts(x)
    return t.pack([None if s is None else fn(s) for s in t.items])


def _case(x: object, convert: Callable[[str], str]) -> object:
    def each(text: str) -> str:
        changed = convert(text)
        if len(changed) == len(text):  # every character mapped to one character
            return changed
        # keep one character per element ('ß' stays, as in MATLAB)
        return "".join(c2 if len(c2 := convert(c)) == 1 else c for c in text)

    if is_char(x):
        if not x.size:
            return x
        if convert is str.upper or convert is str.lower:
            mapped = ascii_case(x, convert is str.upper)
            if mapped is not None:
                return mapped
        return text_row(each(row_text(x))).reshape(x.shape, order="F")
    if type(x) in (Cell, StringArray):
        return _map_text(x, each)
    return x  # numbers are returned unchanged


@builtin()
def upper(x: Any) -> Any:
    """U = upper(str) converts letters to uppercase (char, cell or string arrays)."""
    return _case(x, str.upper)


@builtin()
def lower(x: Any) -> Any:
    """L = lower(str) converts letters to lowercase (char, cell or string arrays)."""
    return _case(x, str.lower)


def _strtrim_text(text: str) -> str:
    start, end = 0, len(text)
    while start < end and is_trimmed(text[start]):
        start += 1
    while end > start and is_trimmed(text[end - 1]):
        end -= 1
    return text[start:end]


def _blank_columns(a: np.ndarray) -> np.ndarray:
    return char_test(a, is_trimmed).all(axis=0)


@builtin()
def strtrim(x: Any) -> Any:
    """S = strtrim(str) removes leading and trailing whitespace (and NUL characters)."""
    if is_char(x) and x.ndim == 2 and x.shape[0] > 1:
        blank = _blank_columns(x)
        keep = np.flatnonzero(~blank)
        return x[:, keep[0]:keep[-1] + 1] if keep.size else x[:, :0]
    if is_char(x) and x.size == 0:
        return x
    if type(x) in (float, np.ndarray) and not is_char(x):
        raise error("MATLAB:strtrim:InputClass",
                    "Input should be a string, character array, or cell array of "
                    "character vectors.")
    return _map_text(x, _strtrim_text)


@builtin()
def deblank(x: Any) -> Any:
    """S = deblank(str) removes trailing whitespace and NUL characters."""
    if is_char(x) and x.size == 0:
        return x
    if is_char(x) and x.ndim == 2 and x.shape[0] > 1:
        keep = np.flatnonzero(~_blank_columns(x))
        return x[:, :keep[-1] + 1] if keep.size else x[:, :0]
    return _map_text(x, deblanked)


def _strrep_text(text: str, old: str, new: str) -> str:
    """Replace every occurrence, overlapping ones included (each gets its own copy)."""
    if not old:
        return text
    if not _self_overlapping(old):
        return text.replace(old, new)  # occurrences cannot overlap
    starts = find_all(text, old).tolist()
    if not starts:
        return text
    out = []
    covered = 0  # text before this offset has been emitted or replaced
    for k in starts:
        if k > covered:
            out.append(text[covered:k])
        out.append(new)
        covered = k + len(old)
    out.append(text[covered:])
    return "".join(out)


def _elementwise_texts(values: list, fname: str) -> tuple[TextArray, list[list]]:
    """Inputs that may each be one text or an array of texts, expanded to a common size."""
    for v in values:
        if type(v) is not np.ndarray or v.dtype != CHAR or v.ndim != 2 or v.shape[0] != 1:
            break
    else:  # char rows only (the common call): one text each, the result a char row
        texts = [row_text(v) for v in values]
        return TextArray("char", (1, 1), texts[:1]), [[text] for text in texts]
    parsed = [read_texts(v) for v in values]
    sizes = {len(t.items) for t in parsed if len(t.items) != 1}
    if len(sizes) > 1:
        raise error(f"MATLAB:{fname}:SizeMismatch", "Inputs must be the same size or scalars.")
    n = sizes.pop() if sizes else 1
    lead = next((t for t in parsed if t.kind == "string"), None) or \
        next((t for t in parsed if len(t.items) == n and t.kind != "char"), parsed[0])
    if lead.kind == "string" and len(lead.items) != n:
        shape = next(t.shape for t in parsed if len(t.items) == n)
        lead = TextArray("string", shape, [None] * n)
    return lead, [t.items * n if len(t.items) == 1 else t.items for t in parsed]


def _strrep_row(s: np.ndarray, old: str, new: np.ndarray) -> np.ndarray | None:
    """strrep of a long char row by a pattern that cannot overlap itself with a
    replacement as long: the matches overwritten in place of a copy (None when the
    row holds characters beyond U+FFFF)."""
    codes, pattern = row_codes(s), text_codes(old)
    if codes is None or pattern is None:
        return None
    out = codes.copy()
    starts = find_codes(codes, pattern)
    for j, unit in enumerate(char_codes(new).reshape(-1).tolist()):
        out[starts + j] = unit
    return out.view(CHAR).reshape(1, -1)


def _strrep_one_byte_row(s: np.ndarray, old: np.ndarray, new: np.ndarray) -> np.ndarray | None:
    """strrep of a long char row by a pattern that cannot overlap itself, when the row,
    the pattern and the replacement all hold characters up to U+00FF: bytes.replace on
    their one-byte forms, widened back to a char row (None otherwise)."""
    old_bytes, new_bytes = one_byte_text(old), one_byte_text(new)
    if old_bytes is None or new_bytes is None:
        return None
    out = replace_in_blocks(s, bytes(old_bytes), bytes(new_bytes))
    if out is not None:
        return out
    text = one_byte_text(s)
    if text is None:
        return None
    replaced = text.replace(old_bytes, new_bytes)
    del text  # the one-byte copy of a long row is not needed beside the result
    out = np.empty((1, len(replaced)), dtype=CHAR)
    out.view(np.uint16)[0] = np.frombuffer(replaced, dtype=np.uint8)
    return out


def _strrep_overlapping_row(s: np.ndarray, old: str, new: np.ndarray) -> np.ndarray | None:
    """strrep of a long char row by a pattern whose occurrences can overlap, vectorised
    (None when the row or the pattern holds characters beyond U+FFFF).  As in MATLAB,
    every occurrence emits ``new``; the text that no occurrence covers stays in order."""
    codes, pattern = row_codes(s), text_codes(old)
    if codes is None or pattern is None:
        return None
    starts = find_codes(codes, pattern)
    if not starts.size:
        return codes.copy().view(CHAR).reshape(1, -1)
    m, units = pattern.size, char_codes(new).reshape(-1)
    length = units.size
    covered = np.zeros(codes.size, dtype=bool)
    _mark_runs(covered, starts, m)
    kept = codes[~covered]
    # the text kept before each occurrence: the uncovered stretch after the previous one
    ends = starts + m
    gaps = np.maximum(starts - np.concatenate(([0], ends[:-1])), 0)
    blocks = np.cumsum(gaps) + np.arange(starts.size) * length  # where each copy of new goes
    out = np.empty(kept.size + starts.size * length, dtype=np.uint16)
    if length:
        is_new = np.zeros(out.size, dtype=bool)
        _mark_runs(is_new, blocks, length)
        out[~is_new] = kept
        if length <= starts.size:
            for j in range(length):
                out[blocks + j] = units[j]
        else:
            for b in blocks.tolist():
                out[b:b + length] = units
    else:
        out[:] = kept
    return out.view(CHAR).reshape(1, -1)


def _mark_runs(mask: np.ndarray, starts: np.ndarray, length: int) -> None:
    """Set ``mask[k:k + length]`` for every k of ``starts`` (ascending, distinct): a loop
    over the shorter of the run length and the runs when that is short, else a running
    count of the runs open at each position (runs may overlap: no run is walked twice)."""
    if length <= 16 and length <= starts.size:
        for j in range(length):
            mask[starts + j] = True
    elif starts.size <= 16:
        for k in starts.tolist():
            mask[k:k + length] = True
    else:
        opened = np.zeros(mask.size + 1, dtype=np.int32)
        opened[starts] = 1
        opened[starts + length] -= 1
        mask |= np.cumsum(opened[:-1]) > 0


def _self_overlapping(old: str) -> bool:
    """Can two occurrences of ``old`` overlap (a proper suffix that is also a prefix)?"""
    return any(old.startswith(old[k:]) for k in range(1, len(old)))


@builtin()
def strrep(s: Any, old: Any, new: Any) -> Any:
    """newStr = strrep(str, old, new) replaces every occurrence of old with new."""
    if is_long_row(s) and is_char_row(old) and is_char_row(new) and old.size:
        old_text = to_str(old)
        if _self_overlapping(old_text):
            out = _strrep_overlapping_row(s, old_text, new)
        elif old.size == new.size:
            out = _strrep_row(s, old_text, new)
        else:
            out = _strrep_one_byte_row(s, old, new)
        if out is not None:
            return out
    lead, (ss, olds, news) = _elementwise_texts([s, old, new], "strrep")
    out = [None if a is None else _strrep_text(a, b or "", c or "")
           for a, b, c in zip(ss, olds, news, strict=True)]
    return lead.pack(out)


def _replace_text(text: str, olds: list[str], news: list[str]) -> str:
    pairs = [(o, n) for o, n in zip(olds, news, strict=True) if o]
    if not pairs:
        return text
    if len(pairs) == 1:  # one text: str.replace's leftmost, non-overlapping occurrences
        return text.replace(*pairs[0])
    lookup = dict(reversed(pairs))  # the first pair wins for repeated old values
    pattern = re.compile("|".join(re.escape(o) for o, _ in pairs))
    return pattern.sub(lambda m: lookup[m.group()], text)


@builtin()
def replace(s: Any, old: Any, new: Any) -> Any:
    """newStr = replace(str, old, new) replaces every non-overlapping occurrence of old
    (any of several texts) with new (one text, or one per element of old)."""
    t = read_texts(s)
    olds = text_list(old)
    news = text_list(new)
    if len(news) == 1:
        news = news * len(olds)
    if len(news) != len(olds):
        raise error("MATLAB:replace:SizeMismatch",
                    "The replacement must be a single text or have one element per old text.")
    return t.pack([None if x is None else _replace_text(x, olds, news) for x in t.items])
