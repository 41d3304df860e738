"""Splitting and joining text: strtok, strcat, strsplit, strjoin, split and join."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, options, text_array, text_list, text_option, text_scalar
from mlang.builtins.text.create import codes_to_char
from mlang.builtins.text.forms import (
    WHITESPACE,
    TextArray,
    cell_of,
    empty_char,
    is_char,
    is_char_row,
    object_array,
    row,
    strings_of,
    whole_number,
)
from mlang.builtins.text.printing import unescape
from mlang.builtins.text.regexp import translate_regex
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_matrix, char_rows, to_array
from mlang.values.string import StringArray
from mlang.values.text import row_text


def _strtok_text(text: str, delims: str) -> tuple[str, str]:
    i = 0
    while i < len(text) and text[i] in delims:
        i += 1
    j = i
    while j < len(text) and text[j] not in delims:
        j += 1
    return text[i:j], text[j:]


@builtin(max_out=2, nargout=True)
def strtok(s: Any, delimiters: Any = None, *, nargout: int = 1) -> Any:
    """[token, remain] = strtok(str, delimiters) is the first token of str after leading
    delimiters (whitespace by default); remain starts at the delimiter that ended it."""
    delims = WHITESPACE if delimiters is None else \
        "".join(char_rows(delimiters)) if is_char(delimiters) else \
        text_scalar(delimiters, "Delimiters")
    if is_char(s) and s.size == 0:
        return (s, s) if nargout > 1 else s
    t = text_array(s)
    pairs = [_strtok_text(x or "", delims) for x in t.items]
    token = t.pack([p[0] for p in pairs])
    remain = t.pack([p[1] for p in pairs])
    return (token, remain) if nargout > 1 else token


# -------------------------------------------------------------- concatenation


def _strcat_char_rows(v: object) -> list[str]:
    if is_char(v):
        return [_rstrip_ascii(r) for r in char_rows(v)] if v.size else []
    if type(v) in (float, bool, np.ndarray):
        return [_rstrip_ascii(r) for r in char_rows(codes_to_char(to_array(v)))]
    raise error("MATLAB:strcat:InvalidInputType",
                "Inputs must be character arrays, cell arrays of character vectors, "
                "or string arrays.")


def _rstrip_ascii(text: str) -> str:
    return text.rstrip(WHITESPACE)


def _strcat_items(v: object, trim: bool) -> list:
    """TextArray of one strcat argument in cell or string mode. Only char arguments lose
    trailing whitespace, and only next to cells (string arrays keep everything)."""
    if type(v) is Cell or type(v) is StringArray:
        return text_array(v).items
    if not is_char(v):
        v = codes_to_char(to_array(v))
    text = "".join(char_rows(v)) if v.size else ""
    return [_rstrip_ascii(text) if trim else text]


@builtin()
def strcat(*args: Any) -> Any:
    """s = strcat(s1, ..., sN) concatenates texts horizontally. Char arguments lose their
    trailing whitespace; cell and string arguments are joined element by element."""
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    arrays = [a for a in args if type(a) in (Cell, StringArray)]
    if arrays:
        is_string = any(type(a) is StringArray for a in args)
        parts = [_strcat_items(a, not is_string) for a in args]
        n = max(len(p) for p in parts)
        if any(len(p) not in (1, n) for p in parts):
            raise error("MATLAB:strcat:InvalidInputSize",
                        "All the inputs must be the same size or scalars.")
        shape = next(a.shape for a in arrays if _numel(a) == n) if n != 1 else (1, 1)
        joined: list = []
        for k in range(n):
            pieces = [p[k if len(p) > 1 else 0] for p in parts]
            joined.append(None if any(x is None for x in pieces) else "".join(pieces))
        return TextArray("string" if is_string else "cell", shape, joined).pack(joined)
    rows_per_arg = [_strcat_char_rows(a) for a in args]
    height = max((len(r) for r in rows_per_arg), default=0)
    if any(len(r) not in (0, 1, height) for r in rows_per_arg):
        raise error("MATLAB:strcat:NumberOfInputRows",
                    "All the character arrays must have the same number of rows.")
    if height == 0:
        return empty_char()
    lines = ["".join(r[k if len(r) > 1 else 0] for r in rows_per_arg if r) for k in range(height)]
    return char_matrix(lines) if height > 1 else row(lines[0])


# ------------------------------------------------------------- split and join


def _split_regex(delims: list[str], collapse: bool, regex: bool = False) -> re.Pattern:
    parts = [d if regex else re.escape(d) for d in sorted(delims, key=len, reverse=True)]
    body = "|".join(parts)
    return re.compile(f"(?:{body})+" if collapse else f"(?:{body})")


def _split_text(text: str, pattern: re.Pattern) -> tuple[list[str], list[str]]:
    pieces, matches = [], []
    pos = 0
    for m in pattern.finditer(text):
        if m.end() == m.start():
            continue
        pieces.append(text[pos:m.start()])
        matches.append(m.group())
        pos = m.end()
    pieces.append(text[pos:])
    return pieces, matches


def _split_simple(text: str, delims: list[str], collapse: bool) -> list[str]:
    """The pieces _split_text gives for literal, non-empty delimiters, by str.split (one
    delimiter) or re.split (several): a run of delimiters leaves empty pieces between
    them, which collapsing drops."""
    if len(delims) > 1:
        return _split_regex(delims, collapse).split(text)
    pieces = text.split(delims[0])
    if collapse and len(pieces) > 2:
        pieces = [pieces[0], *[p for p in pieces[1:-1] if p], pieces[-1]]
    return pieces


@builtin(max_out=2, nargout=True)
def strsplit(s: Any, *args: Any, nargout: int = 1) -> Any:
    """C = strsplit(str) splits str at whitespace; strsplit(str, delimiter) at delimiter
    (a text or a cell array of texts; escape sequences such as \\t are understood).
    Options: 'CollapseDelimiters' (default true), 'DelimiterType' ('Simple' or
    'RegularExpression'). [C, matches] = strsplit(...) also returns the delimiters found."""
    text = row_text(s) if is_char_row(s) and s.size else text_scalar(s, "First input")
    names = ("CollapseDelimiters", "DelimiterType")
    delimiter = None
    if args and (len(args) % 2 == 1 or text_option(args[0]) not in {n.lower() for n in names}):
        delimiter, args = args[0], args[1:]
    opts = options(args, names)
    collapse = option_flag(opts.get("CollapseDelimiters", True))
    kind = text_option(opts.get("DelimiterType", row("Simple")))
    if kind not in ("simple", "regularexpression"):
        raise error("MATLAB:strsplit:InvalidDelimiterType",
                    "DelimiterType must be 'Simple' or 'RegularExpression'.")
    if delimiter is None:
        delims = list(WHITESPACE)
    else:
        delims = text_list(delimiter)
        if kind == "simple":
            delims = [unescape(d) for d in delims]
    if kind == "regularexpression":
        delims = [translate_regex(d, False) for d in delims]
    if kind == "simple" and nargout < 2 and all(delims):
        pieces, matches = _split_simple(text, delims, collapse), []
    else:
        pieces, matches = _split_text(text, _split_regex(delims, collapse, kind != "simple"))
    make = strings_of if type(s) is StringArray else (lambda xs: cell_of([row(x) for x in xs]))
    out = make(pieces)
    return (out, make(matches)) if nargout > 1 else out


@builtin()
def strjoin(c: Any, delimiter: Any = None) -> Any:
    """str = strjoin(C) joins the texts of C with spaces; strjoin(C, delimiter) with
    delimiter (escape sequences understood), or with each element of a cell delimiter."""
    items = [x or "" for x in text_array(c).items]
    if type(c) is not Cell and type(c) is not StringArray:
        raise error("MATLAB:strjoin:InvalidCellType",
                    "First input must be a 1-by-N cell array of character vectors or string array.")
    if delimiter is None:
        seps = [" "] * max(len(items) - 1, 0)
    elif type(delimiter) in (Cell, StringArray) and _numel(delimiter) != 1:
        seps = text_list(delimiter)
        if len(seps) != max(len(items) - 1, 0):
            raise error("MATLAB:strjoin:WrongNumberOfDelimiterElements",
                        "The number of delimiters must be one less than the number of "
                        "elements to join.")
    else:
        seps = [unescape(text_list(delimiter)[0])] * max(len(items) - 1, 0)
    out = items[0] if items else ""
    for sep, item in zip(seps, items[1:], strict=True):
        out += sep + item
    if type(c) is StringArray:
        return StringArray.scalar(out)
    return row(out)


def _numel(v: object) -> int:
    return int(np.prod(v.shape))  # type: ignore[attr-defined]


@builtin(max_out=2, nargout=True)
def split(s: Any, delimiter: Any = None, *opts: Any, nargout: int = 1) -> Any:
    """newStr = split(str) splits text at whitespace into a column; split(str, delimiter)
    at any of the delimiters. 'CollapseDelimiters' defaults to true.
    newStr = split(str, delimiter, dim) puts the pieces along dimension dim.
    [newStr, match] = split(...) also returns the delimiters found."""
    if text_option(delimiter) == "collapsedelimiters" and not opts:
        raise error("MATLAB:InputParser:ParamMissingValue",
                    "Parameter names must be followed by values.")
    dim = None
    if opts and type(opts[0]) in (float, bool, np.ndarray) and not is_char(opts[0]):
        dim = whole_number(opts[0], "split", "Dimension", 1) - 1
        opts = opts[1:]
    collapse = option_flag(options(opts, ("CollapseDelimiters",)).get("CollapseDelimiters", True))
    delims = list(WHITESPACE) if delimiter is None else text_list(delimiter)
    pattern = _split_regex(delims, collapse)
    t = text_array(s)
    parts = [_split_text(x or "", pattern) for x in t.items]
    pieces = [p[0] for p in parts]
    counts = {len(p) for p in pieces}
    if len(counts) > 1:
        raise error("MATLAB:split:InconsistentPieces",
                    "Unable to split. Each element must split into the same number of pieces.")
    n = counts.pop() if counts else 0
    if dim is None:
        if len(pieces) == 1:
            dim = 0
        elif len(t.shape) == 2 and t.shape[1] == 1:
            dim = 1
        else:
            dim = len(t.shape)
    base = list(t.shape) + [1] * max(dim + 1 - len(t.shape), 0)
    if base[dim] != 1:
        raise error("MATLAB:split:InvalidDimension",
                    "Size of input along dimension to split must be 1.")
    out = _split_pack(t, pieces, base, dim, n)
    if nargout < 2:
        return out
    return out, _split_pack(t, [p[1] for p in parts], base, dim, max(n - 1, 0))


def _split_pack(t: TextArray, pieces: list[list[str]], base: list[int], dim: int, n: int) -> Any:
    """The k-th piece of every element along dimension dim, in the form of t."""
    shape = list(base)
    shape[dim] = n
    if n:
        stacked = np.stack([object_array([p[k] for p in pieces], tuple(base))
                            for k in range(n)], axis=dim).reshape(shape)
    else:
        stacked = np.empty(shape, dtype=object)
    while len(shape) > 2 and shape[-1] == 1:
        shape.pop()
    flat = list(stacked.reshape(shape).ravel(order="F"))
    if t.kind == "string":
        return strings_of(flat, tuple(shape))
    return cell_of([row(x) for x in flat], tuple(shape))


@builtin()
def join(s: Any, delimiter: Any = None, dim: Any = None) -> Any:
    """newStr = join(str) joins the elements of a string array or cell array with spaces
    along its last dimension that is not 1.
    newStr = join(str, delimiter) joins with delimiter (a text, or an array of texts one
    smaller than str along the dimension: a delimiter per gap).
    newStr = join(str, dim) and join(str, delimiter, dim) join along dimension dim."""
    t = text_array(s)
    if t.kind == "char":
        t = TextArray("cell", (1, 1), t.items)
    if dim is None and delimiter is not None and type(delimiter) in (float, bool, np.ndarray) \
            and not is_char(delimiter):
        delimiter, dim = None, delimiter  # join(str, dim)
    data = object_array(t.items, t.shape)
    if dim is None:
        axis = max((k for k, d in enumerate(t.shape) if d != 1), default=1)
    else:
        axis = whole_number(dim, "join", "Dimension", 1) - 1
    # every dimension past the last is a singleton: joining along one is joining along any
    axis = min(axis, data.ndim)
    if axis >= data.ndim:
        data = data.reshape(data.shape + (1,) * (axis + 1 - data.ndim))
    n = data.shape[axis]
    moved = np.moveaxis(data, axis, -1)
    seps = _join_delimiters(delimiter, data.shape, axis, n)
    out = np.empty(moved.shape[:-1], dtype=object)
    for idx in np.ndindex(out.shape):
        pieces = moved[idx]
        gaps = seps[idx] if seps.ndim > 1 else seps
        if any(x is None for x in pieces) or any(x is None for x in gaps):
            out[idx] = None
            continue
        text = pieces[0] if n else ""
        for sep, item in zip(gaps, pieces[1:], strict=True):
            text += sep + item
        out[idx] = text
    shape = list(data.shape)
    shape[axis] = 1
    out = np.expand_dims(out, axis)
    while len(shape) > 2 and shape[-1] == 1:
        shape.pop()
    joined = list(out.reshape(shape).ravel(order="F"))
    return TextArray(t.kind, tuple(shape), joined).pack(joined)


def _join_delimiters(delimiter: Any, shape: tuple[int, ...], axis: int, n: int) -> np.ndarray:
    """The delimiters of join as an array: one row of n-1 gaps, or (an array of delimiters)
    one row of gaps per joined element, indexed like the moved data."""
    gaps = max(n - 1, 0)
    if delimiter is None:
        return np.array([" "] * gaps, dtype=object)
    d = text_array(delimiter, "Delimiter")
    if len(d.items) == 1:
        return np.array([d.items[0]] * gaps, dtype=object)
    want = list(shape)
    want[axis] = gaps
    have = list(d.shape) + [1] * (len(want) - len(d.shape))
    if have == want:
        return np.moveaxis(object_array(d.items, tuple(have)), axis, -1)
    if len(d.items) == gaps and sum(1 for x in have if x != 1) <= 1 and have[axis] == gaps:
        return np.array(d.items, dtype=object)
    raise error("MATLAB:join:WrongNumberOfDelimiterElements",
                "The number of delimiters must be one less than the number of elements.")
