"""Spreadsheet files (.xlsx and its relatives) through openpyxl, an optional extra: the
cells of one sheet as a grid, and cells written into a sheet."""

from __future__ import annotations

import datetime
import math
import os
from typing import Any

from mlang.builtins.coerce import text_or_none
from mlang.builtins.files.atomic import atomic_path, os_reason
from mlang.builtins.files.tabular_text import Grid, not_found
from mlang.errors import error
from mlang.values.core import to_double_array

EXCEL_MISSING = ("Reading and writing spreadsheet files needs the Python package openpyxl: "
                 "pip install 'mlang[excel]'")
OPENPYXL_FORMATS = (".xlsx", ".xlsm", ".xltx", ".xltm")


def openpyxl_module() -> Any:
    """openpyxl, or MATLAB's error naming the pip command when it is not installed."""
    try:
        # openpyxl on first use: keeps start-up fast
        import openpyxl
    except ImportError:
        raise error("MATLAB:spreadsheet:book:noExcelSupport", EXCEL_MISSING) from None
    return openpyxl


def _check_format(path: str) -> None:
    ext = os.path.splitext(path)[1].lower()
    if ext not in OPENPYXL_FORMATS:
        raise error("MATLAB:spreadsheet:book:fileFormat",
                    f"Spreadsheet files of type '{ext}' are not supported; use .xlsx.")


def _unreadable(path: str) -> Exception:
    return error("MATLAB:spreadsheet:book:fileOpen",
                 f"Unable to open file '{path}' as a workbook. Check that the file exists, read "
                 "access is available, and the file is a valid spreadsheet file.")


def _open_book(path: str, **kwargs: Any) -> Any:
    openpyxl = openpyxl_module()
    _check_format(path)
    try:
        return openpyxl.load_workbook(path, **kwargs)
    except OSError:
        raise not_found(path) from None
    except Exception:
        raise _unreadable(path) from None


def _pick_sheet(book: Any, sheet: Any) -> Any:
    """A worksheet named by the Sheet option: a name or a one-based number."""
    if sheet is None:
        return book.worksheets[0]
    name = text_or_none(sheet)
    if name is not None:
        if name in book.sheetnames:
            return book[name]
        raise error("MATLAB:spreadsheet:book:openSheetName", f"Sheet '{name}' not found.")
    number = to_double_array(sheet).reshape(-1)
    if number.size != 1 or number[0] % 1 or not 1 <= number[0] <= len(book.worksheets):
        raise error("MATLAB:spreadsheet:book:openSheetIndex",
                    f"Sheet index must be between 1 and {len(book.worksheets)}.")
    return book.worksheets[int(number[0]) - 1]


def sheet_names(path: str) -> list[str]:
    book = _open_book(path, read_only=True)
    try:
        return list(book.sheetnames)
    finally:
        book.close()


def read_sheet(path: str, sheet: Any = None, trim: bool = True) -> Grid:
    """The used cells of a sheet: numbers as floats, text as str, dates as ISO text,
    empty cells None; empty rows and columns around the data are dropped (with ``trim``
    false, only those after it: the grid then starts at cell A1)."""
    book = _open_book(path, read_only=True, data_only=True)
    try:
        rows = [[_cell(v) for v in row] for row in _pick_sheet(book, sheet).iter_rows(values_only=True)]
    finally:
        book.close()
    while rows and all(c is None for c in rows[-1]):
        rows.pop()
    while trim and rows and all(c is None for c in rows[0]):
        rows.pop(0)
    n = max((len(r) for r in rows), default=0)
    rows = [r + [None] * (n - len(r)) for r in rows]
    used = [k for k in range(n) if any(r[k] is not None for r in rows)]
    if not used:
        return []
    return [r[used[0] if trim else 0:used[-1] + 1] for r in rows]


def _cell(v: Any) -> Any:
    if v is None or type(v) is str and not v.strip():
        return None
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return v.isoformat(sep=" ") if isinstance(v, datetime.datetime) else v.isoformat()
    return str(v)


def write_sheet(path: str, rows: Grid, sheet: Any = None, start: tuple[int, int] = (0, 0),
                mode: str = "inplace") -> None:
    """Write ``rows`` (floats, bools, str or None) into a sheet from the zero-based cell
    ``start``.  mode: 'inplace' (other cells kept), 'overwritesheet' (the sheet cleared),
    'replacefile' (a new workbook), 'append' (below the sheet's last used row).  The file
    is replaced only when the whole write succeeded."""
    openpyxl = openpyxl_module()
    _check_format(path)
    exists = os.path.isfile(path)
    if exists and mode != "replacefile":
        book = _open_book(path)
    else:
        book = openpyxl.Workbook()
        if sheet is not None and text_or_none(sheet) is not None:
            book.active.title = text_or_none(sheet)
    ws = _sheet_for_writing(book, sheet)
    if mode == "overwritesheet" and exists:
        ws.delete_rows(1, ws.max_row)
    row0, col0 = start
    if mode == "append" and exists and ws.max_row >= 1 and any(
            c.value is not None for row in ws.iter_rows() for c in row):
        row0 = ws.max_row
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            if type(value) is float and not math.isfinite(value):
                value = None  # a spreadsheet has no NaN or Inf: the cell stays empty
            ws.cell(row=row0 + i + 1, column=col0 + j + 1, value=value)
    try:
        with atomic_path(path) as temporary:
            book.save(temporary)
    except OSError as exc:
        raise error("MATLAB:spreadsheet:book:fileWrite",
                    f"Unable to write to file '{path}': {os_reason(exc)}.") from None


def _sheet_for_writing(book: Any, sheet: Any) -> Any:
    if sheet is None:
        return book.worksheets[0]
    name = text_or_none(sheet)
    if name is not None:
        return book[name] if name in book.sheetnames else book.create_sheet(name)
    number = to_double_array(sheet).reshape(-1)
    if number.size != 1 or number[0] % 1 or number[0] < 1:
        raise error("MATLAB:spreadsheet:book:openSheetIndex", "Sheet index must be a positive integer.")
    while len(book.worksheets) < int(number[0]):
        book.create_sheet(f"Sheet{len(book.worksheets) + 1}")
    return book.worksheets[int(number[0]) - 1]
