"""Whole text files: fileread, readlines and writelines.

Files are read and written as bytes decoded or encoded with the encoding asked
for (UTF-8 by default); newlines are kept as they are in the file.  writelines
writes the whole file through ``atomic.py``, so a failure leaves any existing
file as it was.
"""

from __future__ import annotations

import os
from typing import Any

from mlang.builtins.coerce import options, text_list, text_option, text_scalar
from mlang.builtins.files.atomic import atomic_file, os_reason
from mlang.builtins.files.fileio import encoding_name, python_codec
from mlang.builtins.language.introspection import find_file
from mlang.builtins.text.forms import empty_char, object_array
from mlang.builtins.text.printing import unescape
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row
from mlang.values.string import StringArray


def _located(interp: Any, name: str) -> str:
    """A file to read: as named, else on the search path (as fopen finds files)."""
    path = os.path.expanduser(name)
    if os.path.exists(path) or os.path.isabs(path):
        return path
    found = find_file(interp, path, add_m=False)
    return path if found is None else str(found)


def _read_bytes(interp: Any, name: str, identifier: str, message: str) -> bytes:
    """The bytes of a file; the caller's MATLAB error (message formatted with the name
    and the reason) when it cannot be read."""
    path = _located(interp, name)
    try:
        if os.path.isdir(path):
            raise IsADirectoryError(21, "Is a directory")
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise error(identifier, message.format(name=name, reason=os_reason(exc))) from None


def _encoding(v: Any) -> str:
    return python_codec(encoding_name(text_scalar(v, "Encoding")))


@builtin(interp=True)
def fileread(interp: Any, filename: Any, *args: Any) -> Any:
    """text = fileread(filename) returns the contents of a text file as a character row.
    text = fileread(filename, 'Encoding', encoding) reads it in that encoding
    ('UTF-8' by default)."""
    name = text_scalar(filename, "File name")
    opts = options(args, ("Encoding",))
    codec = _encoding(opts["Encoding"]) if "Encoding" in opts else "utf-8"
    data = _read_bytes(interp, name, "MATLAB:fileread:cannotOpenFile",
                       "Could not open file {name}. {reason}.")
    text = data.decode(codec, errors="replace")
    return char_row(text) if text else empty_char()


_LINES_NOT_FOUND = ("Unable to find or open '{name}'. Check the path and filename or file "
                    "permissions.")
_EMPTY_RULES = ("read", "skip", "error")
_WHITESPACE_RULES = ("preserve", "trim", "trimleading", "trimtrailing")


def _line_endings(v: Any) -> list[str]:
    endings = [unescape(t) for t in text_list(v, "LineEnding")]
    if not endings or any(not e for e in endings):
        raise error("MATLAB:textio:io:InvalidLineEnding", "LineEnding must be nonempty text.")
    return endings


def _split_lines(text: str, endings: list[str]) -> list[str]:
    """The lines of ``text``, each line ending being any of ``endings`` (longest first)."""
    ordered = sorted(endings, key=len, reverse=True)
    lines = []
    start = k = 0
    while k < len(text):
        for e in ordered:
            if text.startswith(e, k):
                lines.append(text[start:k])
                k += len(e)
                start = k
                break
        else:
            k += 1
    lines.append(text[start:])
    return lines


def _rule(v: Any, allowed: tuple[str, ...], what: str) -> str:
    rule = text_option(v)
    if rule not in allowed:
        raise error("MATLAB:textio:io:InvalidRule",
                    f"{what} must be one of: " + ", ".join(f"'{a}'" for a in allowed) + ".")
    return rule  # type: ignore[return-value]


@builtin(interp=True)
def readlines(interp: Any, filename: Any, *args: Any) -> StringArray:
    """lines = readlines(filename) returns the lines of a text file as a string column
    vector (a file that ends with a line ending gives a last, empty line).
    readlines(..., Name=Value): 'LineEnding' (text or list; "\\n" and "\\r\\n" by
    default), 'EmptyLineRule' ('read', 'skip' or 'error'), 'WhitespaceRule'
    ('preserve', 'trim', 'trimleading', 'trimtrailing'), 'Encoding' ('UTF-8' by default)."""
    name = text_scalar(filename, "File name")
    opts = options(args, ("LineEnding", "EmptyLineRule", "WhitespaceRule", "Encoding"))
    endings = _line_endings(opts["LineEnding"]) if "LineEnding" in opts else ["\n", "\r\n"]
    empty_rule = _rule(opts.get("EmptyLineRule", char_row("read")), _EMPTY_RULES, "EmptyLineRule")
    space_rule = _rule(opts.get("WhitespaceRule", char_row("preserve")), _WHITESPACE_RULES,
                       "WhitespaceRule")
    codec = _encoding(opts["Encoding"]) if "Encoding" in opts else "utf-8"
    data = _read_bytes(interp, name, "MATLAB:textio:textio:FileNotFound", _LINES_NOT_FOUND)
    text = data.decode(codec, errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = _split_lines(text, endings)
    if space_rule in ("trim", "trimleading"):
        lines = [s.lstrip(" \t") for s in lines]
    if space_rule in ("trim", "trimtrailing"):
        lines = [s.rstrip(" \t") for s in lines]
    if empty_rule == "skip":
        lines = [s for s in lines if s]
    elif empty_rule == "error" and any(not s for s in lines):
        raise error("MATLAB:textio:io:EmptyLine", "Empty line found in file.")
    return StringArray(object_array(lines, (len(lines), 1)))


@builtin(interp=True, max_out=0)
def writelines(interp: Any, lines: Any, filename: Any, *args: Any) -> None:
    """writelines(lines, filename) writes the text in lines (a string array, a
    character vector or a cell array of character vectors) to a file, each followed by
    a line ending.  writelines(..., Name=Value): 'WriteMode' ('overwrite' or 'append'),
    'LineEnding' ("\\n" by default), 'Encoding' ('UTF-8' by default)."""
    texts = text_list(lines, "Lines")
    name = text_scalar(filename, "File name")
    opts = options(args, ("WriteMode", "LineEnding", "Encoding"))
    mode = _rule(opts.get("WriteMode", char_row("overwrite")), ("overwrite", "append"),
                 "WriteMode")
    ending = unescape(text_scalar(opts["LineEnding"], "LineEnding")) if (
        "LineEnding" in opts) else "\n"
    codec = _encoding(opts["Encoding"]) if "Encoding" in opts else "utf-8"
    path = os.path.expanduser(name)
    try:
        before = b""
        if mode == "append" and os.path.exists(path):
            with open(path, "rb") as f:
                before = f.read()
        data = "".join(t + ending for t in texts).encode(codec, errors="replace")
        with atomic_file(path) as f:
            f.write(before + data)
    except OSError as exc:
        raise error("MATLAB:textio:textio:FileNotWritable" if not isinstance(exc, FileNotFoundError)
                    else "MATLAB:textio:textio:FileNotFound",
                    f"Unable to open file '{name}' for writing. {os_reason(exc)}.") from None

