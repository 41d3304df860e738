"""Taking text apart and putting it together: extractBefore, extractAfter,
extractBetween, insertBefore, insertAfter, erase, eraseBetween, strip, pad,
count, reverse, splitlines, strjust, regexptranslate and compose.

Each takes a character vector, a cell array of character vectors or a string
array and answers in the same form; a pattern or position argument is one
value for every element or an array of the text's size.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import (
    checked_shape,
    integer_scalar,
    option_flag,
    options,
    text_array,
    text_list,
    text_option,
)
from mlang.builtins.text.forms import (
    TextArray,
    cell_of,
    double_array,
    empty_char,
    is_char,
    is_space,
    object_array,
    row,
    strings_of,
)
from mlang.builtins.text.long_text import read_texts
from mlang.builtins.text.printing import format_text, unescape
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_matrix, char_rows, class_of, to_double_array
from mlang.values.string import StringArray

_FIRST = "First argument"


def _pack(t: TextArray, items: list) -> object:
    """Results in the input's form; None (no match) is <missing> in a string array and
    a 0×0 char otherwise."""
    if t.kind == "string":
        return StringArray(object_array(items, t.shape))
    chars = [empty_char() if x is None else row(x) for x in items]
    return chars[0] if t.kind == "char" else Cell(object_array(chars, t.shape))


def _size_mismatch() -> Exception:
    return error("MATLAB:string:MustBeSameSize",
                 "Input arguments must be the same size or scalars.")


def _is_position(v: object) -> bool:
    return class_of(v) in ("double", "single", "logical") or (
        type(v) is np.ndarray and v.dtype.kind in "iu")


def _per_item(v: object, n: int, what: str) -> list:
    """A pattern (texts) or position (numbers) argument, one value per text element."""
    if _is_position(v):
        a = to_double_array(v).ravel(order="F")
        if a.dtype.kind == "c":  # a complex position is no integer
            raise error("MATLAB:string:MustBeInteger", "Numeric position must be an integer.")
        values: list = [float(x) for x in a]
    else:
        values = text_array(v, what).items
    if len(values) == 1:
        return values * n
    if len(values) != n:
        raise _size_mismatch()
    return values


def _position(x: float, low: int, high: int) -> int:
    if not math.isfinite(x) or x != math.floor(x):
        raise error("MATLAB:string:MustBeInteger", "Numeric position must be an integer.")
    if x < low or x > high:
        raise error("MATLAB:string:IndexOutOfRange",
                    "Numeric position exceeds the number of characters.")
    return int(x)


def _same_kinds(values: list, what: str) -> bool:
    """Whether the per-item values are positions (all numbers) or patterns (all texts)."""
    numbers = [isinstance(v, float) for v in values]
    if any(numbers) and not all(numbers):
        raise error("MATLAB:string:MixedPositionTypes", f"{what} must all be text or all numbers.")
    return bool(values) and numbers[0]


# ------------------------------------------------------------ extract, insert


@builtin()
def extractBefore(s: Any, pat: Any) -> Any:
    """newStr = extractBefore(str, pat) is the text of str before the first occurrence of pat.
    newStr = extractBefore(str, pos) is the text before position pos.

    str is a character vector, a cell array of character vectors or a string array, and
    newStr has its type. When pat does not occur the result is <missing> (a string) or
    an empty character vector."""
    t = text_array(s, _FIRST)
    pats = _per_item(pat, len(t.items), "Second argument")
    out = []
    for x, p in zip(t.items, pats, strict=True):
        if x is None or p is None:
            out.append(None)
        elif isinstance(p, float):
            out.append(x[:_position(p, 1, len(x) + 1) - 1])
        else:
            k = x.find(p)
            out.append(None if k < 0 else x[:k])
    return _pack(t, out)


@builtin()
def extractAfter(s: Any, pat: Any) -> Any:
    """newStr = extractAfter(str, pat) is the text of str after the first occurrence of pat.
    newStr = extractAfter(str, pos) is the text after position pos."""
    t = text_array(s, _FIRST)
    pats = _per_item(pat, len(t.items), "Second argument")
    out = []
    for x, p in zip(t.items, pats, strict=True):
        if x is None or p is None:
            out.append(None)
        elif isinstance(p, float):
            out.append(x[_position(p, 0, len(x)):])
        else:
            k = x.find(p)
            out.append(None if k < 0 else x[k + len(p):])
    return _pack(t, out)


def _boundaries(args: tuple, default: str) -> bool:
    """The 'Boundaries' option: True for 'inclusive'."""
    found = options(args, ("Boundaries",))
    if "Boundaries" not in found:
        return default == "inclusive"
    word = text_option(found["Boundaries"])
    if word not in ("inclusive", "exclusive"):
        raise error("MATLAB:string:InvalidBoundaries",
                    "'Boundaries' must be 'inclusive' or 'exclusive'.")
    return word == "inclusive"


def _spans(x: str, start: Any, end: Any, inclusive: bool) -> list[tuple[int, int]]:
    """The (begin, stop) spans of x between start and end (texts or 1-based positions)."""
    if isinstance(start, float):
        a = _position(start, 1, len(x) + 1)
        b = _position(end, a - 1, len(x))
        return [(a - 1, b) if inclusive else (a, b - 1) if b - 1 >= a else (a, a)]
    spans = []
    k = 0
    while True:
        i = x.find(start, k)
        if i < 0:
            break
        j = x.find(end, i + len(start))
        if j < 0:
            break
        spans.append((i, j + len(end)) if inclusive else (i + len(start), j))
        k = j + len(end)
    return spans


def _between_args(s: Any, start: Any, end: Any, args: tuple,
                  fname: str) -> tuple[TextArray, list, list, bool]:
    t = text_array(s, _FIRST)
    n = len(t.items)
    starts = _per_item(start, n, "Second argument")
    ends = _per_item(end, n, "Third argument")
    positions = _same_kinds(starts + ends, "Start and end")
    return t, starts, ends, _boundaries(args, "inclusive" if positions else "exclusive")


@builtin()
def extractBetween(s: Any, start: Any, end: Any, *args: Any) -> Any:
    """newStr = extractBetween(str, startPat, endPat) extracts the text between startPat and
    endPat (every such piece, in order).
    newStr = extractBetween(str, startPos, endPos) extracts the characters from startPos to
    endPos (both included).
    newStr = extractBetween(..., 'Boundaries', b) includes ('inclusive') or excludes
    ('exclusive') the boundaries: patterns exclude them by default, positions include them.

    The result is a string array for a string input and a cell array of character vectors
    otherwise; for one text it is a column of all the pieces."""
    t, starts, ends, inclusive = _between_args(s, start, end, args, "extractBetween")
    pieces: list[list] = []
    for x, a, b in zip(t.items, starts, ends, strict=True):
        if x is None or a is None or b is None:
            pieces.append([None])
        else:
            pieces.append([x[i:j] for i, j in _spans(x, a, b, inclusive)])
    return _stacked(t, pieces)


def _stacked(t: TextArray, pieces: list[list]) -> Any:
    """Each element's pieces along a new dimension (the first trailing one of size 1): a
    column for one text, M-by-N for an M-by-1 array, 1-by-M-by-N for a 1-by-M array.
    Every element must give the same number of pieces."""
    counts = {len(p) for p in pieces}
    if len(counts) > 1:
        raise error("MATLAB:string:DifferentNumberOfPieces",
                    "Each element of the first argument must give the same number of pieces.")
    n = counts.pop() if counts else 0
    shape = list(t.shape)
    while len(shape) > 1 and shape[-1] == 1:
        shape.pop()
    if len(pieces) == 1:
        shape = []
    out_shape = tuple(shape) + (n,)
    if len(out_shape) < 2:
        out_shape = out_shape + (1,)
    items = [p[j] for j in range(n) for p in pieces]
    if t.kind == "string":
        return strings_of(items, out_shape)
    return cell_of([empty_char() if x is None else row(x) for x in items], out_shape)


def _insert(s: Any, pat: Any, new: Any, after: bool) -> Any:
    t = text_array(s, _FIRST)
    n = len(t.items)
    pats = _per_item(pat, n, "Second argument")
    news = text_array(new, "Third argument").items
    if len(news) == 1:
        news = news * n
    elif len(news) != n:
        raise _size_mismatch()
    out = []
    for x, p, w in zip(t.items, pats, news, strict=True):
        if x is None or p is None or w is None:
            out.append(None)
        elif isinstance(p, float):
            k = _position(p, 0, len(x)) if after else _position(p, 1, len(x) + 1) - 1
            out.append(x[:k] + w + x[k:])
        elif not p:
            out.append(x)
        else:
            out.append(x.replace(p, p + w) if after else x.replace(p, w + p))
    return t.pack(out)


@builtin()
def insertBefore(s: Any, pat: Any, new: Any) -> Any:
    """newStr = insertBefore(str, pat, newText) inserts newText before every occurrence of pat.
    newStr = insertBefore(str, pos, newText) inserts newText before position pos."""
    return _insert(s, pat, new, after=False)


@builtin()
def insertAfter(s: Any, pat: Any, new: Any) -> Any:
    """newStr = insertAfter(str, pat, newText) inserts newText after every occurrence of pat.
    newStr = insertAfter(str, pos, newText) inserts newText after position pos."""
    return _insert(s, pat, new, after=True)


# ------------------------------------------------------------------- erase


def _erase_text(x: str, pats: list[str]) -> str:
    pats = [p for p in pats if p]
    if not pats:
        return x
    if len(pats) == 1:  # one text: str.replace's leftmost, non-overlapping occurrences
        return x.replace(pats[0], "")
    # left to right; where several start at one place, the first of them wins (as replace)
    rx = re.compile("|".join(re.escape(p) for p in pats))
    return rx.sub("", x)


@builtin()
def erase(s: Any, match: Any) -> Any:
    """newStr = erase(str, match) deletes every occurrence of match (one text or an array of
    texts, all of which are deleted) from str."""
    t = read_texts(s, _FIRST)
    pats = text_list(match, "Second argument")
    return t.pack([None if x is None else _erase_text(x, pats) for x in t.items])


@builtin()
def eraseBetween(s: Any, start: Any, end: Any, *args: Any) -> Any:
    """newStr = eraseBetween(str, startPat, endPat) deletes the text between startPat and
    endPat (every such piece), keeping the boundaries.
    newStr = eraseBetween(str, startPos, endPos) deletes the characters from startPos to
    endPos (both included).
    newStr = eraseBetween(..., 'Boundaries', 'inclusive' | 'exclusive')."""
    t, starts, ends, inclusive = _between_args(s, start, end, args, "eraseBetween")
    out = []
    for x, a, b in zip(t.items, starts, ends, strict=True):
        if x is None or a is None or b is None:
            out.append(None)
            continue
        parts = []
        cursor = 0
        for i, j in _spans(x, a, b, inclusive):
            parts.append(x[cursor:i])
            cursor = j
        parts.append(x[cursor:])
        out.append("".join(parts))
    return t.pack(out)


# -------------------------------------------------------------- strip, pad

_SIDES = {"both": "both", "left": "left", "right": "right", "leading": "left",
          "trailing": "right"}


def _side(v: Any, fname: str) -> str:
    word = text_option(v)
    if word not in _SIDES:
        raise error(f"MATLAB:{fname}:InvalidSide",
                    "Side must be 'left', 'right', or 'both'.")
    return _SIDES[word]


def _one_char(v: Any, fname: str, what: str) -> list[str]:
    """A character argument: one character, or an array of one per text element."""
    items = text_list(v, what)
    if any(len(c) != 1 for c in items):
        raise error(f"MATLAB:{fname}:InvalidCharacter",
                    f"{what} must be a single character.")
    return items


def _pad_char(v: Any) -> str:
    """pad's one pad character (MATLAB's error for none, or for several)."""
    chars = _one_char(v, "pad", "Pad character")
    if len(chars) != 1:
        raise error("MATLAB:pad:InvalidCharacter", "Pad character must be a single character.")
    return chars[0]


@builtin()
def strip(s: Any, *args: Any) -> Any:
    """newStr = strip(str) removes leading and trailing whitespace from str.
    newStr = strip(str, side) removes it from 'left', 'right' or 'both' sides.
    newStr = strip(str, stripCharacter) and strip(str, side, stripCharacter) remove that
    character instead."""
    t = text_array(s, _FIRST)
    if len(args) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    side = "both"
    chars: list | None = None
    if len(args) == 2:
        side = _side(args[0], "strip")
        chars = _one_char(args[1], "strip", "Strip character")
    elif len(args) == 1:
        if text_option(args[0]) in _SIDES:
            side = _side(args[0], "strip")
        else:
            chars = _one_char(args[0], "strip", "Strip character")
    n = len(t.items)
    if chars is not None and len(chars) not in (1, n):
        raise _size_mismatch()
    out = []
    for k, x in enumerate(t.items):
        if x is None:
            out.append(None)
            continue
        test: Callable[[str], bool] = is_space
        if chars is not None:
            c = chars[k if len(chars) > 1 else 0]
            test = c.__eq__
        start, stop = 0, len(x)
        if side in ("both", "left"):
            while start < stop and test(x[start]):
                start += 1
        if side in ("both", "right"):
            while stop > start and test(x[stop - 1]):
                stop -= 1
        out.append(x[start:stop])
    return t.pack(out)


@builtin()
def pad(s: Any, *args: Any) -> Any:
    """newStr = pad(str) pads the elements of str with spaces on the right to the length of
    the longest one.
    newStr = pad(str, numberOfCharacters) pads to that length (longer texts are kept).
    newStr = pad(..., side) pads on the 'left', 'right' or 'both' sides;
    pad(..., padCharacter) pads with that character instead of a space."""
    t = text_array(s, _FIRST)
    if len(args) > 3:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    rest = list(args)
    width = None
    if rest and _is_position(rest[0]):
        message = "Number of characters must be a nonnegative integer scalar."
        width = integer_scalar(rest.pop(0), message, "MATLAB:pad:InvalidNumberOfCharacters")
        if width < 0:
            raise error("MATLAB:pad:InvalidNumberOfCharacters", message)
        checked_shape((1, width), "char")
    side = "right"
    fill = " "
    if len(rest) == 2:
        side = _side(rest[0], "pad")
        fill = _pad_char(rest[1])
    elif len(rest) == 1:
        if text_option(rest[0]) in _SIDES:
            side = _side(rest[0], "pad")
        else:
            fill = _pad_char(rest[0])
    if width is None:
        width = max((len(x) for x in t.items if x is not None), default=0)
    out = []
    for x in t.items:
        if x is None or len(x) >= width:
            out.append(x)
            continue
        extra = width - len(x)
        left = extra if side == "left" else extra // 2 if side == "both" else 0
        out.append(fill * left + x + fill * (extra - left))
    return t.pack(out)


# ---------------------------------------------------------- count, reverse


def _count_text(x: str, pats: list[str]) -> int:
    pats = [p for p in pats if p]
    if not pats:
        return 0
    # left to right, each piece of text matched once; the first pattern wins at one place
    rx = re.compile("|".join(re.escape(p) for p in pats))
    return sum(1 for _ in rx.finditer(x))


@builtin()
def count(s: Any, pat: Any, *args: Any) -> Any:
    """A = count(str, pat) counts the occurrences of pat (any of an array of patterns) in str.
    A = count(str, pat, 'IgnoreCase', true) ignores case.

    A has the size of str (a number for a character vector)."""
    t = text_array(s, _FIRST)
    pats = text_list(pat, "Search term")
    ignore = option_flag(options(args, ("IgnoreCase",)).get("IgnoreCase", False), "IgnoreCase")
    if ignore:
        pats = [p.casefold() for p in pats]
    values = [0.0 if x is None else float(_count_text(x.casefold() if ignore else x, pats))
              for x in t.items]
    if t.kind == "string":
        values = [math.nan if x is None else v for x, v in zip(t.items, values, strict=True)]
    return t.pack_values(values, lambda v: double_array(v, t.shape))


@builtin()
def reverse(s: Any) -> Any:
    """newStr = reverse(str) reverses the order of the characters of each text in str."""
    if is_char(s) and s.size == 0:
        return s
    t = text_array(s, _FIRST)
    return t.pack([None if x is None else x[::-1] for x in t.items])


# ------------------------------------------------------------- splitlines

_LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x85\u2028\u2029]")


@builtin()
def splitlines(s: Any) -> Any:
    """newStr = splitlines(str) splits str at its line breaks (\\n, \\r\\n, \\r, ...).

    The result is a string array for a string input, a cell array of character vectors
    otherwise: a column for one text; for an array, the lines of each element go along
    a new dimension (every element must have as many line breaks)."""
    t = text_array(s, _FIRST)
    return _stacked(t, [[None] if x is None else _LINE_BREAK.split(x) for x in t.items])


# ----------------------------------------------------------------- strjust


def _justify(x: str, side: str) -> str:
    width = len(x)
    body = x.strip(" ")
    if side == "left":
        return body.ljust(width)
    if side == "right":
        return body.rjust(width)
    extra = width - len(body)
    left = extra // 2
    return " " * left + body + " " * (extra - left)


@builtin()
def strjust(s: Any, side: Any = None) -> Any:
    """T = strjust(S) right-justifies the text of each row of char array S, moving its
    trailing spaces to the front.
    T = strjust(S, side) justifies to the 'right', 'left' or 'center'.

    S may also be a cell array of character vectors or a string array."""
    where = "right" if side is None else text_option(side)
    if where not in ("right", "left", "center"):
        raise error("MATLAB:strjust:UnknownJustification",
                    "Justification must be 'left', 'right', or 'center'.")
    if is_char(s):
        if s.size == 0:
            return s
        if s.ndim != 2:
            raise error("MATLAB:strjust:InvalidInput", "Input must be a 2-D character array.")
        return char_matrix([_justify(r, where) for r in char_rows(s)])
    t = text_array(s, _FIRST)
    return t.pack([None if x is None else _justify(x, where) for x in t.items])


# ---------------------------------------------------------- regexptranslate

_REGEX_SPECIAL = re.compile(r"([\\\[\](){}.*+?^$|])")
_WILDCARD = {".": r"\.", "*": ".*", "?": "."}


@builtin()
def regexptranslate(op: Any, s: Any) -> Any:
    """s2 = regexptranslate(op, s1) translates s1 for use in a regular expression:
    'escape' puts a backslash before every special character, 'wildcard' reads s1 as a
    wildcard pattern (* any text, ? one character, . a period)."""
    kind = text_option(op)
    if kind not in ("escape", "wildcard"):
        raise error("MATLAB:regexptranslate:InvalidOp",
                    "Translation type must be 'escape' or 'wildcard'.")
    if kind == "escape":
        def translate(x: str) -> str:
            return _REGEX_SPECIAL.sub(r"\\\1", x)
    else:
        def translate(x: str) -> str:
            return "".join(_WILDCARD.get(c, c) for c in x)
    t = text_array(s, "Second argument")
    return t.pack([None if x is None else translate(x) for x in t.items])


# ---------------------------------------------------------------- compose

# %% (which takes no data) or a conversion that takes a value from the data.
_OPERATOR = re.compile(r"%%|%[-+ 0#]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[lh]?[diouxXfeEgGcs]")
# Stands in for \\ while the other escapes are translated.
_BACKSLASH = "\ue000"


def _operators(fmt: str) -> list[re.Match]:
    """The conversions of a format that take data, in order."""
    return [m for m in _OPERATOR.finditer(fmt) if m.group() != "%%"]


def _escapes_only(fmt: str) -> str:
    """Escape sequences translated except \\\\ and %%, which stay as they are (what
    compose does to text holding operators it leaves unused)."""
    return unescape(fmt.replace("\\\\", _BACKSLASH)).replace(_BACKSLASH, "\\\\")


def _compose_columns(a: Any) -> tuple[int, list[list]]:
    """An argument of compose as rows of items (numbers or texts)."""
    if type(a) is StringArray or type(a) is Cell:
        items = text_array(a, "Data").items
        shape = a.shape
    elif is_char(a):
        rows = char_rows(a) if a.size else [""]
        return len(rows), [[r] for r in rows]
    elif class_of(a) in ("double", "single", "logical") or (
            type(a) is np.ndarray and a.dtype.kind in "iu"):
        arr = a if type(a) is np.ndarray else to_double_array(a)
        shape = arr.shape
        items = [x.item() for x in arr.ravel(order="F")]
    else:
        raise error("MATLAB:compose:InvalidInputType",
                    f"Function is not defined for '{class_of(a)}' inputs.")
    m = shape[0] if shape else 1
    ncols = len(items) // m if m else 0
    return m, [[items[r + c * m] for c in range(ncols)] for r in range(m)]


@builtin()
def compose(fmt: Any, *data: Any) -> Any:
    """str = compose(formatSpec, A) formats the values of A, row by row: each row of A
    gives a row of str; when A has more columns than formatSpec has operators, the format
    is applied again for the next columns, giving more columns of str; operators left
    without data stay in the text unchanged.
    str = compose(formatSpec, A1, ..., AN) formats the columns of A1, ..., AN in turn
    (A1's columns take the first operators, A2's the next ones...).
    str = compose(txt) translates the escape sequences of txt (\\n, \\t...); when txt has
    operators, \\\\ and %% are kept as they are.

    str is a string array when formatSpec is a string and a cell array of character
    vectors otherwise."""
    formats = text_list(fmt, "Format")
    as_string = type(fmt) is StringArray
    if not data:
        out = [_escapes_only(f) if _operators(f) else unescape(f).replace("%%", "%")
               for f in formats]
        shape = fmt.shape if type(fmt) in (StringArray, Cell) else (1, 1)
        return strings_of(out, shape) if as_string else cell_of([row(x) for x in out], shape)
    if len(formats) != 1:
        raise error("MATLAB:compose:FormatSpecMustBeScalar",
                    "Format must be a string scalar or character vector when data is given.")
    spec = formats[0]
    operators = _operators(spec)
    width = max(len(operators), 1)
    tables = [_compose_columns(a) for a in data]
    sizes = {t[0] for t in tables if t[0] != 1}
    if len(sizes) > 1:
        raise error("MATLAB:compose:DimensionMismatch",
                    "Input arrays must have the same number of rows.")
    m = sizes.pop() if sizes else min(t[0] for t in tables)
    rows = []
    for r in range(m):
        values = [x for t in tables if t[0] for x in t[1][r if t[0] > 1 else 0]]
        groups = [values[k:k + width] for k in range(0, len(values), width)] or [[]]
        rows.append([_format_group(spec, operators, g) for g in groups])
    ncols = max((len(r) for r in rows), default=0)
    items = [rows[r][c] if c < len(rows[r]) else "" for c in range(ncols) for r in range(m)]
    shape = (m, ncols)
    return strings_of(items, shape) if as_string else cell_of([row(x) for x in items], shape)


def _format_group(spec: str, operators: list[re.Match], values: list) -> str:
    """One piece of compose's output: the format filled with values; operators beyond
    the values are kept as text."""
    args: list = []
    for v in values:
        if isinstance(v, str):
            args.append(row(v))
        elif v is None:
            args.append(row("<missing>"))
        else:
            args.append(float(v) if isinstance(v, (bool, int)) else v)
    if len(values) >= len(operators):
        return format_text(spec, args)
    cut = operators[len(values)].start()
    return format_text(spec[:cut], args) + _escapes_only(spec[cut:])
