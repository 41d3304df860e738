"""How values look in the Command Window: the one display package (this module; the
settings in ``style``, the numbers of numeric arrays in ``numbers``).

``display(interp, name, value)`` prints ``name = value`` as an unsuppressed
statement does; ``disp_text(interp, value)`` is what ``disp`` prints;
``func2str_text(handle)`` is MATLAB's text of a function handle.

A display is built as a list of lines in which ``BLANK`` marks the blank
lines of ``format loose`` that ``format compact`` drops.  Numbers follow the
Command Window's rules: one format per array (integers; fixed decimals; or
fixed decimals under a common scale factor such as ``1.0e+03 *``), columns
right-aligned in a common width, and ``Columns N through M`` blocks when a
row is wider than the window.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from mlang.display.numbers import (
    _F32,
    _F64,
    _SHORT,
    _complex_grid,
    _double_scalar_lines,
    _int_grid,
    _real_grid,
    _real_num,
    _short_real_lines,
)
from mlang.display.style import BLANK, INDENT, TIMES, Line, Style, style_of
from mlang.display.style import STYLES as STYLES  # (re-exported: the format command's list)
from mlang.display.style import _style as _style
from mlang.errors import MatlabSyntaxError
from mlang.evaluation.interpreter import Interpreter
from mlang.syntax import ast
from mlang.syntax.parser import parse
from mlang.syntax.unparse import COMPACT
from mlang.values.cell import Cell
from mlang.values.core import INT_CLASSES, char_rows, char_text, class_of, size_of, to_array
from mlang.values.handle import FunctionHandle
from mlang.values.layout import column_blocks
from mlang.values.objects import DisplayText, kind_of
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.table_display import use_cell_grid

# ---------------------------------------------------------------- entry points


def display(interp: Any, name: str, value: Any) -> None:
    """Print ``value`` as the statement ``name = value`` without a semicolon does."""
    style = style_of(interp)
    text = render(display_lines(name, value, style), style)
    if style.compact and not interp.at_line_start:
        text = "\n" + text  # end the line a previous fprintf left open
    interp.write(text)


def disp_text(interp: Any, value: Any) -> str:
    """What ``disp(value)`` prints."""
    style = style_of(interp)
    return render(disp_lines(value, style), style)


def render(lines: list[Line], style: Style) -> str:
    """The text of display lines: blank lines kept in format loose, dropped in compact."""
    if style.compact:
        return "".join([line + "\n" for line in lines if line is not None])
    return "\n".join([line or "" for line in lines]) + "\n" if lines else ""


def display_lines(name: str, value: Any, style: Style) -> list[Line]:
    """The lines of a named display, with the blank lines of format loose marked."""
    if type(value) is float:  # the commonest values: as below, without the general tests
        lines = _double_scalar_lines(value, style)
        if lines is not None:
            return [BLANK, f"{name} =", BLANK, *lines, BLANK]
    elif _is_plain_matrix(value):
        return [BLANK, f"{name} =", BLANK, *_array_body(value, style, header=True), BLANK]
    value = _plain(value)
    if _is_paged(value):
        return _paged_lines(name, value, style, header=True)
    own = _own_body(value, style)
    if own is not None:
        return [BLANK, _name_line(name, value), BLANK, *own, BLANK]
    return [BLANK, _name_line(name, value), BLANK, *_body(value, style), BLANK]


def disp_lines(value: Any, style: Style) -> list[Line]:
    """The lines ``disp`` prints: the value without its name or class header."""
    if type(value) is float:  # the most common: as below, without the general tests
        lines = _double_scalar_lines(value, style)
        if lines is not None:
            return [*lines, BLANK]
    elif _is_plain_matrix(value):  # the next commonest: as below, without the general tests
        return [*_array_body(value, style, header=False), BLANK]
    value = _plain(value)
    t = type(value)
    kind = kind_of(value)
    own = None if kind is None else kind.disp_body(value, style,
                                                   lambda a: _array_body(a, style, header=False))
    if own is not None:
        return [*own, BLANK]
    if _numel(value) == 0:
        return []
    if t is np.ndarray and value.dtype.kind == "V" and value.ndim == 2:
        return char_rows(value)
    if t is StringArray:
        if value.data.size == 1:
            text = value.data.reshape(-1)[0]
            return ["<missing>" if text is None else text]
        return _columns(*_string_grid(value.data), style)
    if _is_paged(value):
        return _paged_lines("", value, style, header=False)[1:]
    # Non-text values end with a blank line in format loose, as MATLAB's disp does.
    body = _body(value, style, header=False)
    return [*body, BLANK] if body else []


def _is_plain_matrix(value: Any) -> bool:
    """A nonempty 2-D numeric (real or complex) or logical array: shown by _array_body, as _body
    shows it."""
    return type(value) is np.ndarray and value.ndim == 2 and value.size != 0 and value.dtype.kind in "fbiuc"


def _plain(value: Any) -> Any:
    """Stray NumPy or Python scalars as the value forms the rest of mlang uses."""
    if isinstance(value, np.generic):
        return np.array(value).reshape(1, 1)
    if type(value) is int:
        return float(value)
    return value


def _size(value: Any) -> tuple[int, ...]:
    # Scalar objects (MException, containers.Map) need not carry a shape.
    return size_of(value) if hasattr(value, "shape") or type(value) in (float, bool, complex) else (1, 1)


def _numel(value: Any) -> int:
    return math.prod(_size(value))


def _dims(shape: tuple[int, ...]) -> str:
    return TIMES.join(str(n) for n in shape)


def _name_line(name: str, value: Any) -> str:
    # Structs, strings and objects keep a space after '='; MATLAB's own arrays do not.
    t = type(value)
    if t in (float, bool, complex, np.ndarray, Cell, FunctionHandle):
        return f"{name} ="
    return f"{name} = "


# ---------------------------------------------------------------- N-D pages


def _is_paged(value: Any) -> bool:
    """Arrays with more than two dimensions show one 2-D page at a time."""
    if type(value) not in (np.ndarray, Cell, StringArray):
        return False
    shape = size_of(value)
    return len(shape) > 2 and 0 not in shape


def _paged_lines(name: str, value: Any, style: Style, header: bool) -> list[Line]:
    lines: list[Line] = []
    head = _page_header(value)
    if header and head is not None:
        lines += [BLANK, head]
    for index, page in _pages(value):
        label = f"{name}(:,:,{','.join(str(k) for k in index)})"
        lines += [BLANK, _name_line(label, value), BLANK, *_body(page, style, header=False), BLANK]
    return lines


def _page_header(value: Any) -> str | None:
    """The class line printed once above the pages (double arrays have none)."""
    cls = class_of(value)
    if cls == "double":
        return None
    return f"  {_dims(size_of(value))} {cls} array"


def _pages(value: Any) -> Iterator[tuple[tuple[int, ...], Any]]:
    """Each 2-D page with its 1-based trailing indices, in column-major order."""
    data = value if type(value) is np.ndarray else value.data
    trailing = data.shape[2:]
    for rev in np.ndindex(*reversed(trailing)):
        index = tuple(reversed(rev))
        page = data[(slice(None), slice(None), *index)]
        wrapped = page if type(value) is np.ndarray else type(value)(page)
        yield tuple(k + 1 for k in index), wrapped


# ---------------------------------------------------------------- bodies


def _body(value: Any, style: Style, header: bool = True) -> list[Line]:
    """The lines after ``name =``: a class header (when the class has one) and the data."""
    t = type(value)
    if t is float:
        lines = _double_scalar_lines(value, style)
        if lines is not None:
            return lines
    if t is float or t is bool or t is complex or t is np.ndarray:
        return _array_body(to_array(value), style, header)
    if t is Cell:
        return _cell_body(value, style, header)
    if t is StringArray:
        return _string_body(value, style, header)
    if t is Struct:
        return _struct_body(value, style, header)
    if t is FunctionHandle:
        text = INDENT + func2str_text(value)
        return ["  function_handle with value:", BLANK, text] if header else [text]
    return _object_body(value, style)


def _own_body(value: Any, style: Style) -> list[Line] | None:
    """The lines of an object that displays its own body (a dlarray's data); None otherwise."""
    kind = kind_of(value)
    if kind is None:
        return None
    return kind.display_body(value, style, lambda a: _array_body(a, style, header=False))


def _array_body(a: np.ndarray, style: Style, header: bool) -> list[Line]:
    if (a.dtype is _F64 or a.dtype is _F32) and a.ndim == 2:
        single = a.dtype is _F32
        lines = _short_real_lines(a, single, style)
        if lines is not None:
            return [_array_header(a.shape, "single"), BLANK, *lines] if header and single else lines
    cls = class_of(a)
    if a.size == 0:
        return [_empty_line(a.shape, cls)]
    if cls == "char":
        rows = [f"{INDENT}'{row}'" for row in char_rows(a)]
        if header and a.shape[0] != 1:
            return [f"  {_dims(a.shape)} char array", BLANK, *rows]
        return rows
    body = _short_int_lines(a, cls, style) if cls == "logical" or cls in INT_CLASSES else None
    prelude: list[Line] = []
    if body is None:
        rows, prelude = _array_grid(a, cls, style)
        if cls == "logical" or cls in INT_CLASSES:
            body = _uniform_columns(rows, style)
        else:
            body = _columns(rows, _column_widths(rows), style)
    if header and cls != "double":
        return [_array_header(a.shape, cls), BLANK, *prelude, *body]
    return [*prelude, *body] if prelude else body


def _short_int_lines(a: np.ndarray, cls: str, style: Style) -> list[Line] | None:
    """The rows of a nonempty 2-D logical or integer array of at most _SHORT elements, as
    _array_grid and _uniform_columns make them, each written by one %-template; None for
    the others and for format hex."""
    if a.size > _SHORT or a.ndim != 2 or style.format == "hex":
        return None
    rows = a.tolist()
    if cls == "logical":
        width = 4
    else:
        flat = rows[0] if len(rows) == 1 else [x for row in rows for x in row]
        # (the longest text is that of the largest or of the most negative element)
        width = max(len(str(max(flat))), len(str(min(flat)))) + 3
    full = width * a.shape[1]
    template = f"%{width}d" * a.shape[1]
    lines = [template % tuple(row) for row in rows]
    if full <= style.width:
        return lines  # type: ignore[return-value]
    # Columns blocks, from the cells (each exactly `width` long)
    return column_blocks([[line[k:k + width] for k in range(0, full, width)] for line in lines], style.width)


def _array_header(shape: tuple[int, ...], cls: str) -> str:
    if shape == (1, 1):
        return f"  {cls}"
    return f"  {_dims(shape)} {cls} {_shape_word(shape, cls)}"


def _shape_word(shape: tuple[int, ...], cls: str) -> str:
    """'row vector', 'column vector', 'matrix' or 'array', as the class header names it."""
    if cls in ("logical", "char", "cell", "string") or len(shape) > 2:
        return "array"
    if shape[0] == 1:
        return "row vector"
    if shape[1] == 1:
        return "column vector"
    return "matrix"


def _empty_line(shape: tuple[int, ...], cls: str) -> str:
    if cls == "double" and shape == (0, 0):
        return "     []"
    return f"  {_dims(shape)} empty {cls} {_shape_word(shape, cls)}"


def _array_grid(a: np.ndarray, cls: str, style: Style) -> tuple[list[list[str]], list[Line]]:
    """Right-aligned element texts of a 2-D array, and any scale-factor lines above them."""
    if cls == "logical":
        return [["1".rjust(4) if x else "0".rjust(4) for x in row] for row in a.tolist()], []
    if cls in INT_CLASSES:
        return _int_grid(a, style), []
    if a.dtype.kind == "c":
        return _complex_grid(a, cls == "single", style)
    return _real_grid(a.astype(np.float64), cls == "single", style)


def _column_widths(rows: list[list[str]]) -> list[int]:
    return [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]


def _uniform_columns(rows: list[list[str]], style: Style) -> list[Line]:
    """``_columns`` of rows whose cells all have one width already (logical and integer
    arrays), without measuring each column."""
    if len(rows[0][0]) * len(rows[0]) <= style.width:
        return ["".join(row) for row in rows]
    return column_blocks(rows, style.width)


def _columns(rows: list[list[str]], widths: list[int], style: Style) -> list[Line]:
    """Rows of aligned cells; rows wider than the window split into ``Columns`` blocks."""
    rows = [[cell.rjust(w) for cell, w in zip(row, widths, strict=True)] for row in rows]
    return column_blocks(rows, style.width)


def _inline_scalar(a: np.ndarray, cls: str, style: Style) -> str:
    """A 1×1 numeric or logical value as one short text (struct fields, cell elements)."""
    x = a.reshape(-1)[0].item()
    if cls == "logical":
        return "1" if x else "0"
    if cls in INT_CLASSES:
        return str(x)
    if a.dtype.kind == "c":
        return _complex_grid(a, cls == "single", style)[0][0][0].strip()
    return _real_num(a.astype(np.float64), cls == "single", style, True).text(float(x))


def _inline_row(a: np.ndarray, cls: str, style: Style) -> str | None:
    """A real row vector's elements joined by single spaces; None when not shown inline."""
    if a.dtype.kind == "c":
        return None
    values = a.reshape(-1).tolist()
    if cls == "logical":
        return " ".join("1" if x else "0" for x in values)
    if cls in INT_CLASSES:
        return " ".join(str(x) for x in values)
    single = cls == "single"
    num = _real_num(a.astype(np.float64), single, style, False)
    if num.scale:  # no room for a scale factor: each element in its own scalar form
        return " ".join(_real_num(np.array([[x]]), single, style, True).text(x) for x in values)
    return " ".join(num.text(x) for x in values)


def _is_row(shape: tuple[int, ...]) -> bool:
    return len(shape) == 2 and shape[0] == 1


# ---------------------------------------------------------------- cells and strings


def _cell_body(c: Cell, style: Style, header: bool) -> list[Line]:
    dims = _dims(c.data.shape)
    if c.data.size == 0:
        return [f"  {dims} empty cell array"]
    rows, widths = _cell_grid(c.data, style)
    head: list[Line] = [f"  {dims} cell array", BLANK] if header else []
    return head + _columns(rows, widths, style)


def _cell_grid(data: np.ndarray, style: Style) -> tuple[list[list[str]], list[int]]:
    """Cell elements in braces; each column as wide as its widest element.

    Bracketed numbers are padded inside the brackets on the left (``{[   1]}``),
    anything else after its text (``{'a'  }``).
    """
    items = [[_cell_item(v, style) for v in row] for row in data.tolist()]
    inner = [max(len(items[i][j][0]) for i in range(len(items))) for j in range(len(items[0]))]
    rows = []
    for row in items:
        cells = []
        for (text, bracketed), w in zip(row, inner, strict=True):
            padded = f"[{text[1:-1].rjust(w - 2)}]" if bracketed else text.ljust(w)
            cells.append(f"{INDENT}{{{padded}}}")
        rows.append(cells)
    return rows, [w + 6 for w in inner]


def _cell_item(v: Any, style: Style) -> tuple[str, bool]:
    """One cell element's summary, and whether it is a bracketed value like ``[1 2 3]``."""
    v = _plain(v)
    t = type(v)
    if t is float or t is bool or t is complex or t is np.ndarray:
        a = to_array(v)
        cls = class_of(a)
        if cls == "char":
            if _is_row(a.shape) and a.size:
                return f"'{char_text(a)}'", False
            return f"{_dims(a.shape)} char", False
        if a.size == 1:
            return f"[{_inline_scalar(a, cls, style)}]", True
        # (each element takes at least two characters: a row too long to fit is not formatted)
        if _is_row(a.shape) and a.size and cls != "logical" and 2 * a.size + 7 <= style.width:
            text = _inline_row(a, cls, style)
            if text is not None and len(text) + 8 <= style.width:
                return f"[{text}]", True
        return f"{_dims(a.shape)} {cls}", False
    if t is StringArray and v.data.size == 1:
        return f"[{_string_item(v.data.reshape(-1)[0])}]", True
    if t is FunctionHandle:
        return func2str_text(v), False
    text = _object_scalar_text(v)
    if text is not None:
        return f"[{text}]", True
    return f"{_dims(_size(v))} {class_of(v)}", False


def _object_scalar_text(v: Any) -> str | None:
    """A scalar object's text where it has one (a datetime's date, a duration's ``1 hr``):
    how a cell element or struct field shows it."""
    kind = kind_of(v)
    if kind is None or _numel(v) != 1:
        return None
    texts = kind.text_elements(v)
    return None if texts is None else str(texts.reshape(-1)[0])


def _string_item(text: str | None) -> str:
    return "<missing>" if text is None else f'"{text}"'


def _string_body(s: StringArray, style: Style, header: bool) -> list[Line]:
    dims = _dims(s.data.shape)
    if s.data.size == 0:
        return [f"  {dims} empty string array"]
    if s.data.size == 1 and header:
        return [INDENT + _string_item(s.data.reshape(-1)[0])]
    lines = _columns(*_string_grid(s.data), style)
    return [f"  {dims} string array", BLANK, *lines] if header else lines


def _string_grid(data: np.ndarray) -> tuple[list[list[str]], list[int]]:
    """String elements quoted, each column left-aligned and padded to its widest element."""
    items = [[_string_item(x) for x in row] for row in data.tolist()]
    widths = [max(len(items[i][j]) for i in range(len(items))) for j in range(len(items[0]))]
    rows = [[INDENT + text.ljust(w) for text, w in zip(row, widths, strict=True)] for row in items]
    return rows, [w + len(INDENT) for w in widths]


# ---------------------------------------------------------------- structs and objects


def _struct_body(s: Struct, style: Style, header: bool) -> list[Line]:
    if s.elems.size == 1:
        element = s.element(0)
        lines = _property_lines([(f, element[f]) for f in s.fields], style)
        if not header:
            return lines
        if not s.fields:
            return ["  struct with no fields."]
        return ["  struct with fields:", BLANK, *lines]
    label = f"  {_dims(s.shape)} {'empty ' if s.elems.size == 0 else ''}struct array"
    if not s.fields:
        return [label + " with no fields."]
    return [label + " with fields:", BLANK, *(INDENT + f for f in s.fields)]


def _property_lines(pairs: list[tuple[str, Any]], style: Style) -> list[Line]:
    """``name: value`` lines with the colons aligned (the longest name indented four)."""
    if not pairs:
        return []
    width = max(len(name) for name, _ in pairs)
    lines: list[Line] = []
    for name, value in pairs:
        prefix = f"{' ' * (4 + width - len(name))}{name}: "
        text = value if type(value) is DisplayText else _field_text(value, style, style.width - len(prefix))
        lines.append(prefix + text)
    return lines


def _field_text(v: Any, style: Style, room: int) -> str:
    """A struct field's value on one line: scalars as numbers, small rows inline, else a size."""
    v = _plain(v)
    t = type(v)
    dims = _dims(_size(v))
    if t is float or t is bool or t is complex or t is np.ndarray:
        a = to_array(v)
        cls = class_of(a)
        if cls == "char":
            if a.ndim == 2 and a.shape[0] <= 1:
                return f"'{char_text(a)}'"
            return f"[{dims} char]"
        if a.size == 0:
            return "[]" if cls == "double" and a.shape == (0, 0) else f"[{dims} {cls}]"
        if a.size == 1:
            return _inline_scalar(a, cls, style)
        if _is_row(a.shape):
            text = _inline_row(a, cls, style)
            if text is not None and len(text) + 2 <= room:
                return f"[{text}]"
        return f"[{dims} {cls}]"
    if t is StringArray:
        return _string_item(v.data.reshape(-1)[0]) if v.data.size == 1 else f"[{dims} string]"
    if t is Cell:
        return _cell_field_text(v, style, room)
    if t is FunctionHandle:
        return func2str_text(v)
    text = _object_scalar_text(v)
    if text is not None:
        return text
    return f"[{dims} {class_of(v)}]"


def _cell_field_text(c: Cell, style: Style, room: int) -> str:
    """A cell in a struct field: ``{}``, a small row inline (``{'a'  'b'}``), else ``{2×1 cell}``."""
    if c.data.shape == (0, 0):
        return "{}"
    if _is_row(c.data.shape) and c.data.size:
        items = [_cell_item(v, style)[0] for v in c.data.reshape(-1).tolist()]
        text = "{" + "  ".join(items) + "}"
        if len(text) <= room:
            return text
    return f"{{{_dims(c.data.shape)} cell}}"


def _object_body(obj: Any, style: Style) -> list[Line]:
    """An object: ``Name with properties:`` and its property list (the object protocol's
    ``display_properties`` and ``display_name``), or ``Name with no properties.``"""
    cls = class_of(obj)
    kind = kind_of(obj)
    pairs = kind.display_properties(obj) if kind is not None else []
    name = (kind.display_name if kind is not None else None) or cls.rsplit(".", 1)[-1]
    if not pairs:
        return [f"  {name} with no properties."]
    return [f"  {name} with properties:", BLANK, *_property_lines(pairs, style)]


# ---------------------------------------------------------------- function handles


def func2str_text(handle: FunctionHandle) -> str:
    """MATLAB's text of a function handle: ``@sin``, or ``@(x)x.^2+1`` with no blanks."""
    if not handle.is_anonymous:
        return "@" + handle.name
    node = getattr(handle, "node", None) or _lambda_node(handle.text)
    return handle.text if node is None else COMPACT.expr(node)


def _lambda_node(text: str) -> ast.Lambda | None:
    """The anonymous function's syntax tree, read back from its source text."""
    try:
        program = parse(text)
    except MatlabSyntaxError:
        return None
    if len(program.body) != 1:
        return None
    node = getattr(program.body[0], "expr", None)
    return node if type(node) is ast.Lambda else None


# The evaluator shows unsuppressed results with this module's display.
Interpreter.result_display = display


# Cell variables in a table's display read as a cell array's elements do (the table display
# is in the values layer, below this one).
use_cell_grid(_cell_grid)
