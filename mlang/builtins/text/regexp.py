"""Regular expressions: regexp, regexpi and regexprep, with MATLAB's pattern
syntax translated to Python's (``translate_regex``, which strsplit also uses)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_array, text_list, text_option, text_scalar
from mlang.builtins.text.forms import (
    cell_of,
    double_array,
    empty_char,
    object_array,
    row,
    strings_of,
    whole_number,
)
from mlang.builtins.text.long_text import read_texts
from mlang.builtins.text.numbers import num2str
from mlang.errors import error
from mlang.evaluation.frame import Frame
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import is_text, result, to_str
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.text import row_text

# MATLAB escapes Python's re does not know, and the ones it spells differently.
_KNOWN_ESCAPES = set("dDwWsSbBnrtfvaAZ0123456789")


def translate_regex(pattern: str, lineanchors: bool) -> str:
    """MATLAB regular-expression syntax in Python's: (?<name>…) groups, \\< and \\>
    word anchors, \\oNNN and \\x{HHHH} character codes, $ as the end of the text."""
    out: list[str] = []
    i, n = 0, len(pattern)
    class_start = -1  # where the open character class began (-1: not in one)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            step, text = _translate_escape(pattern, i, class_start >= 0)
            out.append(text)
            i += step
            continue
        if class_start >= 0:
            if c == "]" and i > class_start + 1 and not (i == class_start + 2 and
                                                         pattern[class_start + 1] == "^"):
                class_start = -1
                out.append(c)
            else:
                # characters Python's re reads as set operations inside a class
                out.append("\\" + c if c in "[&~|" else c)
            i += 1
            continue
        if c == "[":
            class_start = i
            out.append(c)
        elif c == "(" and pattern.startswith("(?<", i) and i + 3 < n and pattern[i + 3] not in "=!":
            out.append("(?P<")
            i += 3
            continue
        elif c == "$" and not lineanchors:
            out.append(r"\Z")  # MATLAB's $ is the end of the text, not before a final newline
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _translate_escape(pattern: str, i: int, in_class: bool) -> tuple[int, str]:
    d = pattern[i + 1]
    rest = pattern[i + 2:]
    if d == "<" and not in_class:
        return 2, r"\b(?=\w)"
    if d == ">" and not in_class:
        return 2, r"\b(?<=\w)"
    if d == "o":
        m = re.match(r"\{([0-7]+)\}|([0-7]{1,3})", rest)
        if m:
            return 2 + m.end(), re.escape(chr(int(m.group(1) or m.group(2), 8)))
    if d == "x":
        m = re.match(r"\{([0-9a-fA-F]+)\}|([0-9a-fA-F]{1,2})", rest)
        if m:
            return 2 + m.end(), re.escape(chr(int(m.group(1) or m.group(2), 16)))
    if d == "e":
        return 2, r"\x1b"
    if d == "k" and rest.startswith("<"):
        end = rest.find(">")
        if end > 0:
            return 3 + end, f"(?P={rest[1:end]})"
    if d in _KNOWN_ESCAPES or not d.isalnum():
        return 2, "\\" + d
    return 2, re.escape(d)  # an unknown letter escape stands for the letter


class RegexOptions:
    """The option words of regexp/regexprep."""

    __slots__ = ("once", "ignorecase", "emptymatch", "dotall", "lineanchors",
                 "freespacing", "force_cell", "nth", "preservecase")

    def __init__(self) -> None:
        self.once = False
        self.ignorecase = False
        self.emptymatch = False
        self.dotall = True
        self.lineanchors = False
        self.freespacing = False
        self.force_cell = False
        self.nth = 0  # regexprep: replace only this match (0: all)
        self.preservecase = False

    def apply(self, word: str) -> bool:
        """Take an option word; False when it is not one."""
        simple = {
            "once": ("once", True), "ignorecase": ("ignorecase", True),
            "matchcase": ("ignorecase", False), "emptymatch": ("emptymatch", True),
            "noemptymatch": ("emptymatch", False), "dotall": ("dotall", True),
            "dotexceptnewline": ("dotall", False), "lineanchors": ("lineanchors", True),
            "stringanchors": ("lineanchors", False), "freespacing": ("freespacing", True),
            "literalspacing": ("freespacing", False), "forcecelloutput": ("force_cell", True),
            "preservecase": ("preservecase", True),
        }
        if word in simple:
            attr, value = simple[word]
            setattr(self, attr, value)
            return True
        return word == "warnings"

    def compile(self, pattern: str, fname: str) -> re.Pattern:
        flags = 0
        if self.ignorecase or self.preservecase:
            flags |= re.IGNORECASE
        if self.dotall:
            flags |= re.DOTALL
        if self.lineanchors:
            flags |= re.MULTILINE
        if self.freespacing:
            flags |= re.VERBOSE
        try:
            return re.compile(translate_regex(pattern, self.lineanchors), flags)
        except re.error as exc:
            raise error(f"MATLAB:{fname}:InvalidPattern",
                        f"Invalid regular expression: {exc}.") from None


_OUTPUT_KEYS = ("start", "end", "tokenextents", "match", "tokens", "names", "split")


def _is_row(v: Any) -> bool:
    """A 1xn char row (the arguments the memoised plans of regexp and regexprep take)."""
    return type(v) is np.ndarray and v.dtype.kind == "V" and v.ndim == 2 and v.shape[0] == 1


def _matches(rx: re.Pattern, text: str, opts: RegexOptions) -> list[re.Match]:
    """The matches MATLAB reports: zero-length ones only with 'emptymatch'."""
    found = []
    for m in rx.finditer(text):
        if m.end() == m.start() and not opts.emptymatch:
            continue
        found.append(m)
        if opts.once:
            break
    return found


def _token_spans(m: re.Match, rx: re.Pattern) -> list[tuple[int, int, str | None]]:
    """(start, end, text) of each token; without groups the whole match is the token."""
    if rx.groups == 0:
        return [(m.start(), m.end(), m.group())]
    spans = []
    for k in range(1, rx.groups + 1):
        if m.start(k) < 0:
            spans.append((m.start(), m.start(), None))  # the group did not take part
        else:
            spans.append((m.start(k), m.end(k), m.group(k)))
    return spans


class _Regexp:
    """Every output of regexp for one text, computed only when asked for."""

    def __init__(self, rx: re.Pattern, text: str, opts: RegexOptions, as_string: bool) -> None:
        self.rx = rx
        self.text = text
        self.opts = opts
        self.as_string = as_string
        self.found = _matches(rx, text, opts)

    def _text(self, s: str | None) -> object:
        if self.as_string:
            return StringArray.scalar(s or "")
        return empty_char() if s is None else row(s)

    def _texts(self, items: list[str]) -> object:
        if self.as_string:
            return strings_of(items)
        return cell_of([row(x) for x in items])

    def output(self, key: str) -> object:
        return getattr(self, "out_" + key)()

    def out_start(self) -> object:
        return self._positions([m.start() + 1 for m in self.found])

    def out_end(self) -> object:
        return self._positions([m.end() for m in self.found])

    def _positions(self, values: list[int]) -> object:
        if self.opts.once:
            return float(values[0]) if values else np.zeros((0, 0))
        return double_array([float(v) for v in values], (1, len(values)))

    def _extents(self, m: re.Match) -> object:
        spans = _token_spans(m, self.rx)
        return result(np.array([[s + 1, e] for s, e, _ in spans], dtype=np.float64)
                      .reshape(len(spans), 2))

    def out_tokenextents(self) -> object:
        if self.opts.once:
            return self._extents(self.found[0]) if self.found else np.zeros((0, 0))
        return cell_of([self._extents(m) for m in self.found])

    def out_match(self) -> object:
        if self.opts.once:
            return self._text(self.found[0].group()) if self.found else \
                (StringArray.scalar("") if self.as_string else empty_char())
        return self._texts([m.group() for m in self.found])

    def _tokens(self, m: re.Match) -> object:
        spans = _token_spans(m, self.rx)
        if self.as_string:
            return strings_of([t or "" for _, _, t in spans])
        return cell_of([self._text(t) for _, _, t in spans])

    def out_tokens(self) -> object:
        if self.opts.once:
            return self._tokens(self.found[0]) if self.found else Cell.empty((1, 0))
        return cell_of([self._tokens(m) for m in self.found])

    def out_names(self) -> object:
        names = sorted(self.rx.groupindex, key=self.rx.groupindex.__getitem__)
        if not names:
            return Struct.scalar({})
        found = self.found[:1] if self.opts.once else self.found
        elems = [{k: self._text(m.group(k)) for k in names} for m in found]
        if not elems:
            return Struct(list(names), np.empty((0, 0), dtype=object))
        shape = (1, 1) if len(elems) == 1 else (1, len(elems))
        return Struct(list(names), object_array(elems, shape))

    def out_split(self) -> object:
        pieces, pos = [], 0
        for m in self.found:
            pieces.append(self.text[pos:m.start()])
            pos = m.end()
        pieces.append(self.text[pos:])
        return self._texts(pieces)


def _regexp_args(args: tuple, fname: str, ignorecase: bool) -> tuple[list[str], RegexOptions]:
    return _option_words([text_scalar(a, "Option") for a in args], fname, ignorecase)


def _option_words(words: list[str], fname: str, ignorecase: bool) -> tuple[list[str], RegexOptions]:
    """The output keywords and the options of regexp's option arguments (their texts)."""
    keys: list[str] = []
    opts = RegexOptions()
    opts.ignorecase = ignorecase
    for given in words:
        word = given.lower()
        if word in _OUTPUT_KEYS:
            keys.append(word)
        elif not opts.apply(word):
            raise error(f"MATLAB:{fname}:UnknownOption", f"Unknown option '{given}'.")
    return keys, opts


def _wanted(keys: list[str], nargout: int) -> list[str]:
    """The outputs asked for: the keywords' in their order, then the others in regexp's."""
    order = keys + [k for k in _OUTPUT_KEYS if k not in keys]
    return order[:max(nargout, 1)]


@functools.lru_cache(maxsize=256)
def _row_plan(fname: str, ignorecase: bool, expr_units: bytes, option_units: tuple[bytes, ...],
              nargout: int) -> tuple[re.Pattern, RegexOptions, list[str]]:
    """The compiled expression, the options and the outputs of regexp on a char row with a
    char row expression and options, given by their UTF-16 code units (memoised: loops match
    with the same few patterns).  The options are only read afterwards."""
    words = [units.decode("utf-16-le", "surrogatepass") for units in option_units]
    keys, opts = _option_words(words, fname, ignorecase)
    return opts.compile(expr_units.decode("utf-16-le", "surrogatepass"), fname), opts, _wanted(keys, nargout)


def _regexp(s: Any, expr: Any, args: tuple, nargout: int, fname: str,
            ignorecase: bool = False) -> Any:
    if _is_row(s) and _is_row(expr) and all(_is_row(a) for a in args):  # char rows only
        rx, opts, wanted = _row_plan(fname, ignorecase, expr.tobytes(), tuple(a.tobytes() for a in args),
                                     nargout)
        run = _Regexp(rx, row_text(s), opts, False)
        outs = [run.output(key) for key in wanted]
        if opts.force_cell:
            outs = [cell_of([v], (1, 1)) for v in outs]
        return tuple(outs) if nargout > 1 else outs[0]
    keys, opts = _regexp_args(args, fname, ignorecase)
    wanted = _wanted(keys, nargout)
    strs, exprs = text_array(s), text_array(expr)
    if len(strs.items) != 1 and len(exprs.items) != 1 and len(strs.items) != len(exprs.items):
        raise error(f"MATLAB:{fname}:CellArraySizeMismatch",
                    "Cell arrays must be the same size.")
    if len(strs.items) != 1 or len(exprs.items) == 1 and strs.kind == "cell":
        many = strs
    else:
        many = exprs
    if not strs.items or not exprs.items:  # an empty cell array: empty cells out
        empty = [Cell.empty(many.shape) for _ in wanted]
        return tuple(empty) if nargout > 1 else empty[0]
    n = max(len(strs.items), len(exprs.items))
    per_text = []
    for k in range(n):
        text = strs.items[k if len(strs.items) > 1 else 0] or ""
        pattern = exprs.items[k if len(exprs.items) > 1 else 0] or ""
        run = _Regexp(opts.compile(pattern, fname), text, opts,
                      strs.kind == "string" or exprs.kind == "string")
        per_text.append([run.output(key) for key in wanted])
    if strs.kind == "char" and exprs.kind == "char" or \
            (n == 1 and strs.kind != "cell" and exprs.kind != "cell"):
        outs = per_text[0]
        if opts.force_cell:
            outs = [cell_of([v], (1, 1)) for v in outs]
    else:
        shape = many.shape
        outs = [Cell(object_array([p[j] for p in per_text], shape)) for j in range(len(wanted))]
    return tuple(outs) if nargout > 1 else outs[0]


@builtin(max_out=7, nargout=True)
def regexp(s: Any, expr: Any, *args: Any, nargout: int = 1) -> Any:
    """[startIndex, endIndex, tokenExtents, match, tokens, names, split] = regexp(str, expr)
    matches a regular expression. Output keywords ('match', 'tokens', 'names', 'split',
    'start', 'end', 'tokenExtents') choose outputs in the order given; options: 'once',
    'ignorecase', 'emptymatch', 'dotexceptnewline', 'lineanchors', 'freespacing'."""
    return _regexp(s, expr, args, nargout, "regexp")


@builtin(max_out=7, nargout=True)
def regexpi(s: Any, expr: Any, *args: Any, nargout: int = 1) -> Any:
    """regexpi(str, expr, ...) is regexp ignoring case."""
    return _regexp(s, expr, args, nargout, "regexpi", ignorecase=True)


_REPLACEMENT_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a",
                        "b": "\b", "\\": "\\", "$": "$", "0": "\0"}


def _parse_replacement(rep: str) -> list:
    """The parts of a replacement: text, token numbers, ('name', n) and ('expr', code)."""
    parts: list = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            parts.append("".join(buf))
            buf.clear()

    i, n = 0, len(rep)
    while i < n:
        c = rep[i]
        if c == "\\" and i + 1 < n:
            buf.append(_REPLACEMENT_ESCAPES.get(rep[i + 1], rep[i + 1]))
            i += 2
        elif c == "$" and i + 1 < n and rep[i + 1].isdigit():
            flush()
            parts.append(int(rep[i + 1]))
            i += 2
        elif c == "$" and rep.startswith("$<", i) and rep.find(">", i) > 0:
            flush()
            end = rep.find(">", i)
            parts.append(("name", rep[i + 2:end]))
            i = end + 1
        elif c == "$" and rep.startswith("${", i) and rep.find("}", i) > 0:
            flush()
            end = rep.find("}", i)
            parts.append(("expr", rep[i + 2:end]))
            i = end + 1
        else:
            buf.append(c)
            i += 1
    flush()
    return parts


def _match_group(m: re.Match, key: int | str) -> str:
    try:
        return m.group(key) or ""
    except (IndexError, re.error):
        return ""


def _dynamic(interp: Any, code: str, m: re.Match) -> str:
    """The text of a ${...} replacement: MATLAB code with $0..$9 standing for the tokens."""
    def token(mm: re.Match) -> str:
        return "'" + _match_group(m, int(mm.group(1))).replace("'", "''") + "'"

    source = re.sub(r"\$(\d)", token, code)
    frame = Frame(interp)
    interp.eval(f"regexprep_value__ = {source};", frame)
    value = frame.vars["regexprep_value__"]
    if is_text(value):
        return to_str(value)
    return to_str(num2str(value))


def _preserve_case(found: str, rep: str) -> str:
    out = []
    for k, c in enumerate(rep):
        if k < len(found) and found[k].isalpha():
            c = c.upper() if found[k].isupper() else c.lower()
        out.append(c)
    return "".join(out)


def _substitute(interp: Any, rx: re.Pattern, text: str, parts: list,
                opts: RegexOptions) -> str:
    found = _matches(rx, text, opts)
    if opts.nth:
        found = found[opts.nth - 1:opts.nth]
    out, pos = [], 0
    for m in found:
        out.append(text[pos:m.start()])
        pieces = []
        for p in parts:
            if isinstance(p, str):
                pieces.append(p)
            elif isinstance(p, int):
                pieces.append(_match_group(m, p))
            elif p[0] == "name":
                pieces.append(_match_group(m, p[1]))
            else:
                pieces.append(_dynamic(interp, p[1], m))
        rep = "".join(pieces)
        out.append(_preserve_case(m.group(), rep) if opts.preservecase else rep)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def _replacer(rx: re.Pattern, parts: list, opts: RegexOptions) -> Callable[[str], str] | None:
    """``re.sub`` doing _substitute's work when every match is replaced by text and
    tokens only (no ${code}, 'preservecase' or Nth match): None otherwise."""
    if opts.nth or opts.preservecase or any(type(p) is tuple and p[0] == "expr" for p in parts):
        return None
    pieces: list[str | int] = []
    for p in parts:
        if type(p) is tuple:  # a named token: its number, or nothing when there is none
            p = rx.groupindex.get(p[1], "")
        elif type(p) is int and p > rx.groups:
            p = ""
        pieces.append(p)
    keep_empty = opts.emptymatch  # otherwise a zero-length match is left as it is

    if all(type(p) is str for p in pieces):
        literal = "".join(pieces)  # type: ignore[arg-type]

        def replace(m: re.Match) -> str:
            return literal if keep_empty or m.end() != m.start() else ""
    else:
        def replace(m: re.Match) -> str:
            if not keep_empty and m.end() == m.start():
                return ""
            return "".join([p if type(p) is str else m.group(p) or "" for p in pieces])
    return functools.partial(rx.sub, replace)


@functools.lru_cache(maxsize=256)
def _row_substitution(expr_units: bytes, rep_units: bytes) -> Callable[[str], str] | None:
    """The substitution regexprep makes of a char row expression and replacement, with no
    options, given by their UTF-16 code units (memoised: loops replace with the same few
    patterns); None when it needs the interpreter (a ${code} replacement)."""
    opts = RegexOptions()
    rx = opts.compile(expr_units.decode("utf-16-le", "surrogatepass"), "regexprep")
    return _replacer(rx, _parse_replacement(rep_units.decode("utf-16-le", "surrogatepass")), opts)


@builtin(interp=True)
def regexprep(interp: Any, s: Any, expr: Any, rep: Any, *args: Any) -> Any:
    """newStr = regexprep(str, expr, replace) replaces the matches of expr with replace,
    where $N is the Nth token, $0 the whole match and ${code} the value of MATLAB code.
    Options: 'once', N (only the Nth match), 'ignorecase', 'preservecase', 'emptymatch'.
    Cell arrays of expressions are applied in turn."""
    if not args and _is_row(s) and _is_row(expr) and _is_row(rep):  # three char rows
        substitute = _row_substitution(expr.tobytes(), rep.tobytes())
        if substitute is not None:
            return row(substitute(row_text(s)))
    opts = RegexOptions()
    for a in args:
        if is_text(a):
            word = text_option(a) or ""
            if not opts.apply(word) or word in ("forcecelloutput",):
                raise error("MATLAB:regexprep:UnknownOption", f"Unknown option '{to_str(a)}'.")
        else:
            opts.nth = whole_number(a, "regexprep", "The match number", 1)
    if opts.once:
        opts.once, opts.nth = False, opts.nth or 1
    t = read_texts(s)
    exprs = text_list(expr)
    reps = text_list(rep)
    if len(reps) == 1:
        reps = reps * len(exprs)
    if len(reps) != len(exprs):
        raise error("MATLAB:regexprep:WrongNumberOfReplacements",
                    "The number of replacements must be one or match the number of expressions.")
    compiled = [(opts.compile(e, "regexprep"), _parse_replacement(r))
                for e, r in zip(exprs, reps, strict=True)]
    substitutions = [_replacer(rx, parts, opts) or functools.partial(_substitute, interp, rx, parts=parts,
                                                                      opts=opts)
                     for rx, parts in compiled]
    out = []
    for text in t.items:
        if text is None:
            out.append(None)
            continue
        for substitute in substitutions:
            text = substitute(text)
        out.append(text)
    return t.pack(out)
