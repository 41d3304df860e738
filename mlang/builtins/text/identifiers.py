"""Valid and unique names: matlab.lang.makeValidName and matlab.lang.makeUniqueStrings
(used by the table readers for column headers too)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from mlang.builtins.coerce import options, text_array, text_scalar
from mlang.builtins.language.introspection import KEYWORDS
from mlang.errors import error
from mlang.evaluation.interpreter import NAME_LENGTH_MAX
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, to_array
from mlang.values.string import StringArray

REPLACEMENT_STYLES = ("underscore", "delete", "hex")


def make_valid_name(text: str, style: str = "underscore", prefix: str = "x") -> str:
    """``text`` as a valid MATLAB identifier, as matlab.lang.makeValidName makes it: blanks
    removed (a letter after them capitalised), other invalid characters replaced (by '_',
    removed, or as 0xHH), the prefix before a name that does not start with a letter or is a
    keyword, at most namelengthmax characters."""
    if re.fullmatch(r"[A-Za-z]\w*", text, re.ASCII) and text not in KEYWORDS:
        return text[:NAME_LENGTH_MAX]
    text = re.sub(r"\s+([A-Za-z0-9_]?)", lambda m: m.group(1).upper(), text.strip())
    if style == "underscore":
        text = re.sub(r"[^A-Za-z0-9_]", "_", text)
    elif style == "delete":
        text = re.sub(r"[^A-Za-z0-9_]", "", text)
    else:
        text = re.sub(r"[^A-Za-z0-9_]", lambda m: f"0x{ord(m.group(0)):X}", text)
    if text in KEYWORDS:
        text = prefix + text[0].upper() + text[1:]
    elif not text or not ("a" <= text[0].lower() <= "z"):
        text = prefix + text
    return text[:NAME_LENGTH_MAX]


def make_unique(names: list[str], taken: set[str] | None = None,
                which: list[bool] | None = None, max_length: int | None = None) -> list[str]:
    """Names made distinct as matlab.lang.makeUniqueStrings makes them: a name met again (or
    among ``taken``) gets _1, _2... (the first keeps its name); only the names ``which``
    marks may change, each at most ``max_length`` characters long."""
    which = which if which is not None else [True] * len(names)
    fixed = {n for n, w in zip(names, which, strict=True) if not w}
    avoid = set(taken or ()) | fixed
    pending = [n for n, w in zip(names, which, strict=True) if w]
    seen: set[str] = set()
    out = []
    for name, changeable in zip(names, which, strict=True):
        if not changeable:
            out.append(name)
            continue
        if name not in seen and name not in avoid:
            seen.add(name)
            out.append(name)
            continue
        k = 1
        while True:
            suffix = f"_{k}"
            stem = name if max_length is None else name[:max(max_length - len(suffix), 0)]
            candidate = stem + suffix
            if max_length is not None and len(candidate) > max_length:
                raise error("MATLAB:makeUniqueStrings:cannotMakeUnique",
                            "Cannot make the strings unique within the maximum string length.")
            if candidate not in seen and candidate not in avoid and candidate not in pending:
                break
            k += 1
        seen.add(candidate)
        out.append(candidate)
    return out


def _like_input(texts: list[str], form: Any) -> Any:
    """The texts in the input's form: a char row, a cell array or a string array."""
    if form.kind == "char":
        return char_row(texts[0])
    data = np.empty(len(texts), dtype=object)
    if form.kind == "cell":
        data[:] = [char_row(t) for t in texts]
        return Cell(data.reshape(form.shape, order="F"))
    data[:] = texts
    return StringArray(data.reshape(form.shape, order="F"))


def _modified(before: list, after: list[str], shape: tuple) -> np.ndarray:
    flags = np.array([b != a for b, a in zip(before, after, strict=True)], dtype=bool)
    return flags.reshape(shape, order="F")


@builtin(name="matlab.lang.makeValidName", nargout=True, max_out=2)
def make_valid_name_builtin(names: Any, *args: Any, nargout: int = 1) -> Any:
    """N = matlab.lang.makeValidName(S) makes valid MATLAB identifiers of the texts S.

    [N, modified] = matlab.lang.makeValidName(S) also says which changed.
    Options: 'ReplacementStyle' ('underscore', 'delete' or 'hex') and 'Prefix'
    (default 'x', put before a name that does not start with a letter)."""
    form = text_array(names, "Input")
    given = options(args, ("ReplacementStyle", "Prefix"))
    style = text_scalar(given.get("ReplacementStyle", char_row("underscore")), "ReplacementStyle")
    if style.lower() not in REPLACEMENT_STYLES:
        raise error("MATLAB:makeValidName:invalidReplacementStyle",
                    "ReplacementStyle must be 'underscore', 'delete', or 'hex'.")
    prefix = text_scalar(given.get("Prefix", char_row("x")), "Prefix")
    if not re.fullmatch(r"[A-Za-z]\w*", prefix, re.ASCII):
        raise error("MATLAB:makeValidName:invalidPrefix", "Prefix must be a valid MATLAB identifier.")
    before = [t or "" for t in form.items]
    after = [make_valid_name(t, style.lower(), prefix) for t in before]
    valid = _like_input(after, form)
    return (valid, _modified(before, after, form.shape)) if nargout > 1 else valid


@builtin(name="matlab.lang.makeUniqueStrings", nargout=True, max_out=2)
def make_unique_strings(names: Any, exclusions: Any = None, max_length: Any = None,
                        *, nargout: int = 1) -> Any:
    """U = matlab.lang.makeUniqueStrings(S) makes the texts S distinct by appending _1, _2...
    to repeated ones.

    U = matlab.lang.makeUniqueStrings(S, excludedStrings) also avoids those texts;
    U = matlab.lang.makeUniqueStrings(S, whichStringsIdx) changes only the elements
    indexed (or marked true); a further argument limits the length of the results.
    [U, modified] = ... also says which elements changed."""
    form = text_array(names, "Input")
    before = [t or "" for t in form.items]
    taken: set[str] = set()
    which: list[bool] | None = None
    if exclusions is not None and not (type(exclusions) is np.ndarray and exclusions.size == 0):
        if type(exclusions) in (Cell, StringArray) or class_of(exclusions) == "char":
            taken = {t or "" for t in text_array(exclusions, "Excluded strings").items}
        elif type(exclusions) is np.ndarray and exclusions.dtype == bool:
            which = [bool(x) for x in exclusions.ravel(order="F")][:len(before)]
            which += [False] * (len(before) - len(which))
        else:
            picks = to_array(exclusions).ravel(order="F")
            if picks.size and (np.any(picks < 1) or np.any(picks > len(before))
                               or np.any(picks != np.round(picks))):
                raise error("MATLAB:makeUniqueStrings:invalidIndex",
                            "Indices must be positive integers within the number of strings.")
            which = [False] * len(before)
            for k in picks:
                which[int(k) - 1] = True
    limit = None
    if max_length is not None:
        limit_value = to_array(max_length)
        if limit_value.size != 1 or not limit_value.item() >= 1:
            raise error("MATLAB:makeUniqueStrings:invalidMaxLength",
                        "The maximum string length must be a positive integer scalar.")
        limit = int(limit_value.item())
    after = make_unique(before, taken, which, limit)
    unique = _like_input(after, form)
    return (unique, _modified(before, after, form.shape)) if nargout > 1 else unique
