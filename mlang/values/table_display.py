"""How a table shows in the Command Window.

Each variable becomes a block of text lines, one per row: numbers in the short
``g`` form (five significant digits; fifteen in format long), right-aligned in
a width common to the variable; logical values as true/false; character
vectors in a cell as ``{'abc'}``, strings as ``"abc"``.  A block and its
variable's name are centred in a column as wide as the wider of the two; the
name is underlined with ``_``, columns are four spaces apart, and row names,
when there are any, come first, left-aligned, without a heading.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.values.cell import Cell
from mlang.values.core import INT_CLASSES, char_rows, class_of, size_of, to_array
from mlang.values.string import StringArray
from mlang.values.table import Table

TIMES = "\u00d7"
GAP = "    "
INDENT = "    "


# How a cell array's elements read in braces (``{'abc'}``, ``{[   1]}``): the display
# module's own rule, which the display module registers as it loads (it sits above this
# layer); this module's simpler rule until then.
CELL_GRID: list[Callable[[np.ndarray, Any], tuple[list[list[str]], list[int]]]] = []


def use_cell_grid(grid: Callable[[np.ndarray, Any], tuple[list[list[str]], list[int]]]) -> None:
    CELL_GRID[:] = [grid]


def _dims(shape: tuple[int, ...]) -> str:
    return TIMES.join(str(n) for n in shape)


def number_text(x: Any, digits: int) -> str:
    """One real number in the g form MATLAB's table display uses."""
    if isinstance(x, (bool, np.bool_)):
        return "1" if x else "0"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(x)
    if np.isnan(x):
        return "NaN"
    if np.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    if x == 0:
        return "0"
    return f"{x:.{digits}g}"


def _complex_text(z: complex, digits: int) -> str:
    re = number_text(z.real, digits)
    im = number_text(abs(z.imag), digits)
    sign = "-" if z.imag < 0 or (z.imag == 0 and np.signbit(z.imag)) else "+"
    return f"{re} {sign} {im}i"


def _as_rows(a: np.ndarray) -> np.ndarray:
    """A variable's data as rows × columns (trailing dimensions folded into columns)."""
    if a.ndim == 2:
        return a
    return a.reshape(a.shape[0], -1, order="F")


def _right_block(grid: list[list[str]]) -> list[str]:
    if not grid:
        return []
    width = max((len(s) for row in grid for s in row), default=0)
    return [GAP.join(s.rjust(width) for s in row) for row in grid]


def _left_columns(grid: list[list[str]]) -> list[str]:
    """Columns each left-aligned to its own width."""
    if not grid:
        return []
    widths = [max(len(row[j]) for row in grid) for j in range(len(grid[0]))]
    return [GAP.join(s.ljust(w) for s, w in zip(row, widths, strict=True)) for row in grid]


def cell_item_text(v: Any, digits: int) -> str:
    """An element of a cell variable, as a cell array shows it (without the braces)."""
    t = type(v)
    if t is np.ndarray and v.dtype.kind == "V" and v.ndim == 2 and v.shape[0] == 1:
        return "'" + "".join(char_rows(v)) + "'"
    if t is StringArray and v.data.size == 1:
        s = v.data.reshape(-1)[0]
        return "<missing>" if s is None else f'"{s}"'
    shape = size_of(v)
    cls = class_of(v)
    if t in (float, bool, complex, np.ndarray) and shape == (1, 1):
        x = to_array(v).reshape(-1)[0]
        if cls == "logical":
            return "[" + ("1" if x else "0") + "]"
        if cls == "char":
            return "'" + "".join(char_rows(to_array(v))) + "'"
        if isinstance(x, (complex, np.complexfloating)):
            return "[" + _complex_text(complex(x), digits) + "]"
        return "[" + number_text(x, digits) + "]"
    return f"{_dims(shape)} {cls}"


def variable_block(v: Any, digits: int, style: Any = None) -> list[str]:
    """The text lines of one variable, one per row, all of one width."""
    t = type(v)
    rows = size_of(v)[0]
    if t is Cell:
        data = _as_rows(v.data)
        if CELL_GRID and data.size and style is not None:
            rows_text, _ = CELL_GRID[0](data, style)
            return [GAP.join(cell[len(INDENT):] for cell in row) for row in rows_text]
        grid = [["{" + cell_item_text(x, digits) for x in row] for row in data]
        if grid and grid[0]:
            widths = [max(len(r[j]) for r in grid) for j in range(len(grid[0]))]
            grid = [[s.ljust(w) + "}" for s, w in zip(r, widths, strict=True)] for r in grid]
        return [GAP.join(r) for r in grid]
    if t is StringArray:
        data = _as_rows(v.data)
        return _left_columns([["<missing>" if s is None else f'"{s}"' for s in row] for row in data])
    if t is Table:
        return [f"1{TIMES}{v.width} table"] * rows
    if t in (float, bool, complex) or t is np.ndarray:
        a = to_array(v)
        cls = class_of(a)
        if cls == "char":
            texts = char_rows(_as_rows(a)) if a.size else [""] * rows
            return [s for s in texts]
        data = _as_rows(a)
        if cls == "logical":
            return _left_columns([["true" if x else "false" for x in row] for row in data.tolist()])
        if cls in INT_CLASSES:
            return _right_block([[str(int(x)) for x in row] for row in data.tolist()])
        if data.dtype.kind == "c":
            return _right_block([[_complex_text(complex(x), digits) for x in row] for row in data])
        return _right_block([[number_text(x, digits) for x in row] for row in data.tolist()])
    texts = getattr(v, "element_texts", None)  # classes that know how their elements read
    if callable(texts):
        flat = list(texts())
        columns = max(len(flat) // rows, 1) if rows else 1
        grid = [[flat[i + j * rows] for j in range(columns)] for i in range(rows)]
        if getattr(v, "matlab_class", "") == "duration":  # amounts line up on the right
            return _right_block(grid)
        return _left_columns(grid)
    cls = getattr(v, "matlab_class", class_of(v))
    return [f"1{TIMES}1 {cls}"] * rows


def _centred(text: str, width: int) -> str:
    pad = width - len(text)
    left = pad // 2
    return " " * left + text + " " * (pad - left)


def table_lines(t: Table, style: Any) -> list:
    """The lines below ``T =``: the size line, the headings, the rows."""
    h, w = t.shape
    if h == 0 or w == 0:
        return [f"  {h}{TIMES}{w} empty table"]
    digits = 15 if str(getattr(style, "format", "short")).startswith("long") else 5
    heads = [INDENT]
    rules = [INDENT]
    body = [INDENT] * h
    if t.row_names is not None:
        rw = max(len(n) for n in t.row_names)
        heads.append(" " * rw + GAP)
        rules.append(" " * rw + GAP)
        body = [body[i] + t.row_names[i].ljust(rw) + GAP for i in range(h)]
    for k, (name, v) in enumerate(zip(t.names, t.variables, strict=True)):
        block = variable_block(v, digits, style)
        data_width = max((len(s) for s in block), default=0)
        width = max(len(name), data_width)
        sep = GAP if k else ""
        heads.append(sep + _centred(name, width))
        rules.append(sep + "_" * width)
        body = [body[i] + sep + _centred(block[i].ljust(data_width), width) for i in range(h)]
    return [f"  {h}{TIMES}{w} table", None, "".join(heads), "".join(rules), None, *body]
