"""jsondecode: JSON text as MATLAB values, with MATLAB's mapping.

* null is [] (NaN inside an array of numbers), true/false a logical scalar, a number a
  double, a string a character vector;
* an object is a scalar struct, its names made valid field names (makeValidName);
* an array of numbers (and nulls) is a column vector, of booleans a logical column, of
  strings a column cell array of character vectors, of objects with the same names a
  column struct array; arrays of equal-sized numeric or logical arrays stack into a
  matrix (or an N-D array); any other array is a column cell array.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none
from mlang.builtins.language.introspection import KEYWORDS
from mlang.builtins.text.forms import empty_char, object_array, row
from mlang.errors import error
from mlang.evaluation.interpreter import NAME_LENGTH_MAX
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import EMPTY, class_of
from mlang.values.struct import Struct

# ------------------------------------------------------------ valid names


def make_valid_name(name: str, style: str = "underscore", prefix: str = "x") -> str:
    """matlab.lang.makeValidName: whitespace removed (the letter after it capitalised),
    other characters replaced (or deleted, or written in hex), a prefix before a name
    that does not start with a letter or is a keyword."""
    if re.fullmatch(r"[A-Za-z]\w*", name, re.ASCII) and name not in KEYWORDS \
            and len(name) <= NAME_LENGTH_MAX:
        return name
    text = name.strip()
    text = re.sub(r"\s+(\S?)", lambda m: m.group(1).upper(), text)
    if style == "delete":
        text = re.sub(r"[^A-Za-z0-9_]", "", text)
    elif style == "hex":
        text = re.sub(r"[^A-Za-z0-9_]", lambda m: f"0x{ord(m.group()):02X}", text)
    else:
        text = re.sub(r"[^A-Za-z0-9_]", "_", text)
    if text in KEYWORDS:
        text = prefix + text[:1].upper() + text[1:]
    elif not re.match(r"[A-Za-z]", text):
        text = prefix + text
    return text[:NAME_LENGTH_MAX]


def _unique(names: list[str]) -> list[str]:
    """matlab.lang.makeUniqueStrings: a repeated name gets _1, _2, ..."""
    seen: set[str] = set()
    out = []
    for name in names:
        candidate, k = name, 0
        while candidate in seen:
            k += 1
            candidate = f"{name}_{k}"
        seen.add(candidate)
        out.append(candidate)
    return out


# ------------------------------------------------------------ decoding


class Decoder:
    def __init__(self, valid_names: bool, style: str, prefix: str) -> None:
        self.valid_names = valid_names
        self.style = style
        self.prefix = prefix

    def names(self, keys: list[str]) -> list[str]:
        if not self.valid_names:
            return _unique(keys)
        return _unique([make_valid_name(k, self.style, self.prefix) for k in keys])

    def value(self, v: Any) -> Any:
        if v is None:
            return EMPTY
        if v is True or v is False:
            return v
        if isinstance(v, (int, float)):
            return float(v)
        if isinstance(v, str):
            return row(v) if v else empty_char()
        if isinstance(v, tuple):  # an object: its (name, value) pairs
            return self.struct_of([v])
        return self.array(v)

    def struct_of(self, objects: list[tuple]) -> Struct:
        fields = self.names([k for k, _ in objects[0]])
        elems = object_array([{f: self.value(x) for f, (_, x) in zip(fields, pairs, strict=True)}
                              for pairs in objects], (len(objects), 1))
        return Struct(fields, elems)

    def array(self, items: list) -> Any:
        if not items:
            return EMPTY
        numeric = _numeric_block(items)
        if numeric is not None:
            return _matlab_shape(numeric)
        if all(isinstance(x, str) for x in items):
            return Cell(object_array([self.value(x) for x in items], (len(items), 1)))
        if all(isinstance(x, tuple) for x in items):
            keys = [k for k, _ in items[0]]
            if all([k for k, _ in x] == keys for x in items):
                return self.struct_of(items)
        return Cell(object_array([self.value(x) for x in items], (len(items), 1)))


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _numeric_block(items: list) -> np.ndarray | None:
    """The array a JSON array of numbers (nulls as NaN) or of booleans is, in JSON's
    shape (the outermost array first); arrays of equal-shaped blocks stack.  None when
    it is not such a block."""
    if all(_is_number(x) or x is None for x in items):
        return np.array([np.nan if x is None else float(x) for x in items], dtype=np.float64)
    if all(x is True or x is False for x in items):
        return np.array(items, dtype=bool)
    if all(isinstance(x, list) and x for x in items):
        blocks = [_numeric_block(x) for x in items]
        if any(b is None for b in blocks):
            return None
        first = blocks[0]
        if all(b.shape == first.shape and b.dtype == first.dtype for b in blocks):
            return np.stack(blocks)
    return None


def _matlab_shape(block: np.ndarray) -> Any:
    """A JSON-shaped block as a MATLAB value: a flat array is a column."""
    if block.ndim == 1:
        block = block.reshape(-1, 1)
    if block.size == 1:
        x = block.reshape(-1)[0]
        return bool(x) if block.dtype == bool else float(x)
    return np.asfortranarray(block)


# ------------------------------------------------------------ parsing


def _position(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line}, column {column} (character {pos + 1})"


def _open_bracket(text: str, pos: int) -> str:
    """The innermost bracket open at pos ('{', '[' or ''), skipping string contents."""
    stack: list[str] = []
    in_string = escaped = False
    for ch in text[:pos]:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append(ch)
        elif ch in "}]" and stack:
            stack.pop()
    return stack[-1] if stack else ""


# The words a value may start with, as jsondecode reads them.
_LITERALS = {"t": "true", "f": "false", "n": "null", "N": "NaN", "I": "Infinity"}


def _syntax_error(text: str, exc: json.JSONDecodeError) -> Exception:
    """MATLAB's error for text the JSON reader refused: "JSON syntax error at line L,
    column C (character N): expected ... but found 'x'.", or, when the text ends
    early, "JSON syntax error: expected ... but found end of text." with the
    identifier ending in AtEnd (MATLAB:json:ExpectedNameOrEnd and friends)."""
    pos, reason = exc.pos, exc.msg
    if reason.startswith("Illegal trailing comma"):
        pos = len(text) - len(text[pos + 1:].lstrip()) if pos < len(text) else pos
        reason = "Expecting property name" if _open_bracket(text, pos) == "{" else "Expecting value"
    if reason.startswith("Unterminated string"):
        return error("MATLAB:json:ExpectedQuoteAtEnd",
                     "JSON syntax error: expected '\"' but found end of text.")
    at_end = not text[pos:].strip()
    found = text[pos:pos + 1]

    def fail(identifier: str, expected: str, where: int = pos, what: str | None = None) -> Exception:
        if at_end:
            return error(identifier + "AtEnd", f"JSON syntax error: expected {expected} but found end "
                                               "of text.")
        what = what if what is not None else f"expected {expected} but found '{found}'."
        return error(identifier, f"JSON syntax error at {_position(text, where)}: {what}")

    if reason.startswith("Expecting value"):
        word = re.match(r"-?[A-Za-z]*", text[pos:]).group()
        if not at_end and word.lstrip("-")[:1] in _LITERALS and word != "-":
            literal = _LITERALS[word.lstrip("-")[0]]
            return fail("MATLAB:json:ExpectedLiteral", f"'{literal}'",
                        what=f"expected '{literal}' but found '{word.lstrip('-')}'.")
        return fail("MATLAB:json:ExpectedValue", "value")
    if reason.startswith("Expecting property name"):
        before = text[:pos].rstrip()
        if before.endswith("{"):
            return fail("MATLAB:json:ExpectedNameOrEnd", "quoted name or '}'")
        return fail("MATLAB:json:ExpectedName", "quoted name")
    if reason.startswith("Expecting ':'"):
        return fail("MATLAB:json:ExpectedColon", "':'")
    if reason.startswith("Expecting ','"):
        closing = "}" if _open_bracket(text, pos) == "{" else "]"
        return fail("MATLAB:json:ExpectedCommaOrEnd", f"',' or '{closing}'")
    if reason.startswith("Invalid \\escape") or reason.startswith("Invalid \\u"):
        backslash = text.rfind("\\", 0, pos + 1)
        return error("MATLAB:json:InvalidEscape",
                     f"JSON syntax error at {_position(text, backslash)}: invalid escape sequence.")
    if reason.startswith("Extra data"):
        return error("MATLAB:json:ExpectedEnd",
                     f"JSON syntax error at {_position(text, pos)}: expected end of text but found "
                     "more text.")
    return error("MATLAB:json:InvalidSyntax",
                 f"JSON syntax error at {_position(text, pos)}: {reason.lower()}.")


def _parse(text: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=tuple)
    except json.JSONDecodeError as exc:
        raise _syntax_error(text, exc) from None
    except RecursionError:
        raise error("MATLAB:json:TooDeep", "JSON text is nested too deeply.") from None


# ------------------------------------------------------------ the builtin


def _decode_options(args: tuple) -> tuple[bool, str, str]:
    if len(args) % 2:
        raise error("MATLAB:json:ParamMissingValue", "Parameter names must be followed by values.")
    valid, style, prefix = True, "underscore", "x"
    for k in range(0, len(args), 2):
        name = (text_or_none(args[k]) or "").lower()
        value = args[k + 1]
        if name == "makevalidname":
            if class_of(value) not in ("logical", "double") or np.size(value) != 1:
                raise error("MATLAB:json:InvalidOptionValue",
                            "Value of 'makeValidName' must be a logical scalar.")
            valid = bool(np.asarray(value).reshape(-1)[0])
        elif name == "replacementstyle":
            style = (text_or_none(value) or "").lower()
            if style not in ("underscore", "delete", "hex"):
                raise error("MATLAB:json:InvalidOptionValue",
                            "ReplacementStyle must be 'underscore', 'delete' or 'hex'.")
        elif name == "prefix":
            prefix = text_or_none(value) or ""
            if not re.fullmatch(r"[A-Za-z]\w*", prefix, re.ASCII):
                raise error("MATLAB:json:InvalidOptionValue",
                            "Prefix must be a valid variable name.")
        else:
            raise error("MATLAB:json:UnmatchedParameter",
                        f"'{text_or_none(args[k]) or ''}' is not a recognized parameter. For a list "
                        "of valid name-value pair arguments, see the documentation for this function.")
    return valid, style, prefix


@builtin()
def jsondecode(txt: Any, *options: Any) -> Any:
    """value = jsondecode(txt) is the MATLAB value of JSON text (a character vector or string).

    Objects become structs, arrays of numbers column vectors, arrays of equal-length
    arrays of numbers matrices, arrays of objects with the same names struct arrays, and
    other arrays cell arrays; null is [] (NaN in an array of numbers).
    jsondecode(txt, 'makeValidName', false) keeps object names that are not valid field
    names as they are ('ReplacementStyle' and 'Prefix' as for makeValidName)."""
    text = text_or_none(txt)
    if text is None:
        raise error("MATLAB:json:InvalidInput",
                    "JSON text must be a character vector or a string scalar.")
    valid, style, prefix = _decode_options(options)
    return Decoder(valid, style, prefix).value(_parse(text))
