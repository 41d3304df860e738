"""ASCII data files for load and save: numbers in rows and columns.

load reads a file of numbers separated by blanks, tabs or commas, one row a line, with
``%`` starting a comment; every row must have as many numbers as the first.  The
variable is named after the file (``data.txt`` -> ``data``).  save -ascii writes each
variable's rows with 8 significant digits (16 with -double), separated by blanks (tabs
with -tabs).
"""

from __future__ import annotations

import math
import os
import re
from typing import Any

import numpy as np

from mlang.errors import error, warn
from mlang.values.core import class_of, result
from mlang.values.sparse import is_sparse

_SEPARATOR = re.compile(r"[\s,]+")


def variable_name_for(path: str) -> str:
    """The name load gives the data of an ASCII file: the file name without its extension,
    characters not allowed in a name replaced by underscores, 'X' before a leading
    character that is not a letter."""
    stem = os.path.splitext(os.path.basename(path))[0]
    name = re.sub(r"[^A-Za-z0-9_]", "_", stem)
    if not name or not name[0].isalpha():
        name = "X" + name
    return name[:63]


def _number(word: str) -> float:
    lowered = word.lower()
    if lowered in ("nan", "+nan", "-nan"):
        return math.nan
    if lowered in ("inf", "+inf"):
        return math.inf
    if lowered == "-inf":
        return -math.inf
    return float(word)


def read_ascii(path: str, display_name: str) -> Any:
    """The numbers of an ASCII data file as a double matrix."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        raise error("MATLAB:load:couldNotReadFile",
                    f"Unable to read file '{display_name}'. No such file or directory.") from None
    rows: list[list[float]] = []
    for number, line in enumerate(lines, start=1):
        text = line.split("%", 1)[0].strip().strip(",")
        if not text:
            continue
        try:
            row = [_number(w) for w in _SEPARATOR.split(text) if w]
        except ValueError:
            raise error("MATLAB:load:unableToReadAscii",
                        f"Unable to read file '{display_name}'. Input must be a MAT-file or an ASCII "
                        "file containing numeric data with same number of columns in each row.") from None
        if rows and len(row) != len(rows[0]):
            raise error("MATLAB:load:numColumnsNotSame",
                        f"Number of columns on line {number} of ASCII file {display_name} "
                        "must be the same as previous lines.")
        rows.append(row)
    if not rows:
        return np.zeros((0, 0))
    return result(np.array(rows, dtype=np.float64))


def _format_number(x: float, digits: int, width: int) -> str:
    if math.isnan(x):
        text = "NaN"
    elif math.isinf(x):
        text = "Inf" if x > 0 else "-Inf"
    else:
        text = f"{x:.{digits}e}"
    return text.rjust(width) if width else text


def ascii_text(variables: dict[str, Any], double: bool, tabs: bool) -> str:
    """The text save -ascii writes for the variables (those it cannot write are left out
    after a warning)."""
    digits, width = (16, 25) if double else (7, 16)
    lines: list[str] = []
    for name, value in variables.items():
        if is_sparse(value):
            value = value.full()
        t = type(value)
        if t not in (float, bool, complex, np.ndarray):
            warn("MATLAB:save:unsupportedTypeForAscii",
                 f"Attempt to write an unsupported data type to an ASCII file.\n"
                 f"Variable '{name}' of class '{class_of(value)}' not written to file.")
            continue
        a = np.asarray(value)
        if a.dtype.kind == "V":
            a = a.view(np.uint16)
        if a.dtype.kind == "c":
            warn("MATLAB:save:complexAscii",
                 f"Attempt to write complex data to an ASCII file. Imaginary part of variable "
                 f"'{name}' not written to file.")
            a = a.real
        rows = a.shape[0] if a.ndim else 1
        a = a.astype(np.float64).reshape(rows, a.size // rows if rows else 0, order="F")
        for row in a.tolist():
            if tabs:
                lines.append("\t".join(_format_number(x, digits, 0) for x in row))
            else:
                lines.append("".join(_format_number(x, digits, width) for x in row))
    return "".join(line + "\n" for line in lines)
