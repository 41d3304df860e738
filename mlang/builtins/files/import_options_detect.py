"""What detectImportOptions finds in a file: the delimiter, the line of variable names,
the data lines and each variable's type.  readtable, readmatrix and readcell given
Name=Value options detect first and then read with the options found, as MATLAB's do, so
there is one rule for the types of the columns of a file."""

from __future__ import annotations

import math
from typing import Any

from mlang.builtins.coerce import integer_scalar, option_flag, text_list, text_or_none, text_scalar
from mlang.builtins.files.import_options import NUMERIC_TYPES, ImportOptions
from mlang.builtins.files.import_options_read import escaped, numbered_rows, unescaped
from mlang.builtins.files.spreadsheet import read_sheet
from mlang.builtins.files.tabular_dates import date_format
from mlang.builtins.files.tabular_names import variable_names
from mlang.builtins.files.tabular_text import (
    DELIMITER_WORDS,
    CellRange,
    Grid,
    cell_text,
    column_letters,
    detect_delimiter,
    file_kind,
    number_of,
    parse_range,
    python_encoding,
    read_text,
    readable_file,
)
from mlang.errors import error
from mlang.values.core import char_row, class_of, to_double_array

DETECT_OPTIONS = ("FileType", "Delimiter", "NumHeaderLines", "HeaderLines", "ReadVariableNames",
                  "VariableNamingRule", "PreserveVariableNames", "TextType", "DatetimeType", "Sheet",
                  "Range", "Encoding", "TreatAsMissing", "TreatAsEmpty", "CommentStyle", "EmptyLineRule",
                  "MissingRule", "ImportErrorRule", "ExtraColumnsRule", "Whitespace")
# Options of the object that a Name=Value option of the same name sets.
_RULE_OPTIONS = ("MissingRule", "ImportErrorRule", "ExtraColumnsRule", "EmptyLineRule", "Whitespace")

NumberedGrid = list[tuple[int, list[Any]]]


# ------------------------------------------------------------------ option values


def header_count(given: dict[str, Any]) -> int | None:
    """The NumHeaderLines (or HeaderLines) option: a nonnegative whole number."""
    for name in ("NumHeaderLines", "HeaderLines"):
        if name in given:
            if class_of(given[name]) not in NUMERIC_TYPES:  # not a char: 'x' is no count
                raise error("MATLAB:textio:io:NonNegativeInteger",
                            f"'{name}' value must be a nonnegative integer scalar.")
            n = integer_scalar(given[name], f"'{name}' value must be a nonnegative integer scalar.",
                               "MATLAB:textio:io:NonNegativeInteger")
            if n < 0:
                raise error("MATLAB:textio:io:NonNegativeInteger",
                            f"'{name}' value must be a nonnegative integer scalar.")
            return n
    return None


def naming_rule_option(given: dict[str, Any]) -> str:
    if "VariableNamingRule" in given:
        rule = text_scalar(given["VariableNamingRule"], "VariableNamingRule").lower()
        if rule not in ("modify", "preserve"):
            raise error("MATLAB:textio:io:InvalidVariableNamingRule",
                        "'VariableNamingRule' must be either 'modify' or 'preserve'.")
        return rule
    if "PreserveVariableNames" in given:
        return "preserve" if option_flag(given["PreserveVariableNames"], "PreserveVariableNames") \
            else "modify"
    return "modify"


def text_type_option(given: dict[str, Any]) -> str:
    text_type = text_scalar(given.get("TextType", char_row("char")), "TextType").lower()
    if text_type not in ("char", "string"):
        raise error("MATLAB:textio:io:InvalidTextType", "'TextType' must be either 'char' or 'string'.")
    return text_type


def dates_wanted(given: dict[str, Any]) -> bool:
    """Whether date columns read as datetime (DatetimeType 'datetime', the default) or
    stay text ('text')."""
    if "DatetimeType" not in given:
        return True
    kind = text_scalar(given["DatetimeType"], "DatetimeType").lower()
    if kind not in ("datetime", "text"):
        raise error("MATLAB:textio:io:InvalidDatetimeType",
                    "'DatetimeType' must be 'datetime' or 'text'.")
    return kind == "datetime"


def missing_words(given: dict[str, Any]) -> list[str]:
    """The texts of the TreatAsMissing (or TreatAsEmpty) option."""
    missing = given.get("TreatAsMissing", given.get("TreatAsEmpty"))
    return [] if missing is None else text_list(missing, "TreatAsMissing")


# ------------------------------------------------------------------ the rules


def _is_header(row: list[Any]) -> bool:
    """MATLAB's guess: a first row holding text and no numbers names the variables."""
    return any(c is not None for c in row) and all(c is None or number_of(c) is None for c in row)


def _detected_type(cells: list[Any], text_type: str, dates: bool) -> str:
    present = [c for c in cells if c is not None]
    if not present:
        return "double"  # an empty column reads as NaN
    numbers = sum(1 for c in present if number_of(c) is not None)
    if numbers and 2 * numbers >= len(present):
        return "double"  # the text among mostly numbers is an import error (NaN)
    if dates and date_format([cell_text(c) for c in present]) is not None:
        return "datetime"
    return text_type


def _types(rows: Grid, width: int, header_rule: str, text_type: str, dates: bool) -> list[str]:
    """The variables' types: all double for readmatrix, all text for readcell, else each
    column's own."""
    if header_rule == "matrix":
        return ["double"] * width
    if header_rule == "none":
        return [text_type] * width
    return [_detected_type([r[k] for r in rows], text_type, dates) for k in range(width)]


def _usual_width(rows: Grid, header: int) -> int:
    """The number of variables: the header's, or the most common number of fields of the
    data rows when more (a row with more is read by ExtraColumnsRule)."""
    counts = [len(r) for r in rows]
    usual = max(set(counts), key=lambda n: (counts.count(n), n)) if counts else 0
    return max(header, usual, 1)


def _used(row: list[Any]) -> int:
    """The number of fields of a row up to its last nonempty one."""
    return next((k + 1 for k in range(len(row) - 1, -1, -1) if row[k] is not None), 0)


def _title_rows(rows: NumberedGrid) -> int:
    """How many rows above the table are header lines (a title, notes): rows of text with
    fewer fields than most rows, a row of one field or one above another row of text (the
    row of variable names)."""
    counts = [_used(r) for _, r in rows]
    usual = max(set(counts), key=lambda n: (counts.count(n), n)) if counts else 0
    count = 0
    while count + 1 < len(rows) and counts[count] < usual and \
            all(number_of(c) is None for c in rows[count][1]) and \
            (counts[count] == 1 or all(number_of(c) is None for c in rows[count + 1][1])):
        count += 1
    return count


def _leading_text_rows(rows: NumberedGrid) -> int:
    """How many rows above the numbers hold no number (readmatrix skips them); all of them
    when no row holds a number."""
    count = 0
    while count < len(rows) and all(number_of(c) is None for c in rows[count][1]):
        count += 1
    return count


def _sheet_setting(sheet: Any) -> str | int:
    if sheet is None:
        return ""
    text = text_or_none(sheet)
    return text if text is not None else int(to_double_array(sheet).reshape(-1)[0])


# ------------------------------------------------------------------ detection


def _text_rows(path: str, given: dict[str, Any], skip: int) -> tuple[NumberedGrid, list[str], list[str]]:
    """The nonblank rows of a text file below its header lines, numbered by line, with the
    delimiters and comment styles used."""
    encoding = python_encoding(given["Encoding"]) if "Encoding" in given else None
    text = read_text(path, encoding)
    comments = text_list(given["CommentStyle"], "CommentStyle") if "CommentStyle" in given else []
    if "Delimiter" in given:
        delims = [DELIMITER_WORDS.get(d.lower(), unescaped(d))
                  for d in text_list(given["Delimiter"], "Delimiter")]
    else:
        sample = [ln for ln in text.splitlines()[skip:]
                  if not any(ln.lstrip().startswith(c) for c in comments if c)]
        delims = [detect_delimiter(sample)]
    rows = [(n, c) for n, c in numbered_rows(text, delims, comments=comments) if c and n > skip]
    return rows, delims, comments


def _sheet_ranges(first_col: int, start: int, end: tuple[int, int] | None, names_row: int) -> dict[str, str]:
    """The DataRange (a start cell, or start and end cells) and VariableNamesRange of a
    sheet's options; ``end``: the last column and row, zero-based and one-based."""
    letters = column_letters(first_col)
    data_range = f"{letters}{start}" + ("" if end is None else f":{column_letters(end[0])}{end[1]}")
    return {"DataRange": data_range, "VariableNamesRange": f"{letters}{names_row}" if names_row else ""}


def _in_range(rows: NumberedGrid, cells: CellRange) -> NumberedGrid:
    stop = math.inf if cells.row1 is None else cells.row1 + 1
    return [(n, r) for n, r in rows if cells.row0 < n <= stop]


def detect(filename: Any, given: dict[str, Any], header_rule: str = "table",
           function: str = "detectImportOptions", quiet: bool = True) -> ImportOptions:
    """The options detectImportOptions finds for a file, given its Name=Value options.
    ``header_rule``: 'table' (a first row of text names the variables), 'matrix' (rows of
    text above the numbers are skipped, every variable is double) or 'none' (every row is
    data, every variable text); ``quiet`` false warns when names were made valid."""
    naming_rule, text_type, dates = naming_rule_option(given), text_type_option(given), dates_wanted(given)
    skip = header_count(given) or 0
    cells = parse_range(given["Range"]) if "Range" in given else None
    name = text_scalar(filename, "Filename")
    kind = file_kind(name, given.get("FileType"), f"MATLAB:{function}")
    path = readable_file(name)
    delims: list[str] = []
    comments: list[str] = []
    if kind == "text":
        located, delims, comments = _text_rows(path, given, skip)
    else:
        sheet = given.get("Sheet")
        grid = read_sheet(path, sheet, trim=False)
        located = [(i + 1, r) for i, r in enumerate(grid) if any(c is not None for c in r)][skip:]
    last_line = located[-1][0] if located else skip  # data lines start after it when none are found
    first_col, last_col = 0, None
    if cells is not None:
        located = _in_range(located, cells)
        first_col, last_col = cells.col0, cells.col1
    elif kind == "spreadsheet" and located:
        first_col = min(next(k for k, c in enumerate(r) if c is not None) for _, r in located)
    window = slice(first_col, None if last_col is None else last_col + 1)
    if kind == "spreadsheet":  # the sheet's options name the cells read: its DataRange
        located = [(n, r[window]) for n, r in located]
        window = slice(0, None)
    word_list = missing_words(given)
    words = set(word_list)
    if words:  # a TreatAsMissing text is an empty field for the types too
        located = [(n, [None if type(c) is str and c in words else c for c in r]) for n, r in located]
    if skip == 0 and cells is None and header_rule != "none":
        located = located[(_leading_text_rows if header_rule == "matrix" else _title_rows)(located):]
    if header_rule != "table" or not located:
        has_names = False
    elif "ReadVariableNames" in given:
        has_names = option_flag(given["ReadVariableNames"], "ReadVariableNames")
    else:
        has_names = _is_header(located[0][1][window])
    head = located[0] if has_names else None
    body = located[1:] if has_names else located
    if not located:
        width = 0
    elif header_rule == "table":
        width = _usual_width([r for _, r in body], len(head[1]) if head else 0)
    else:
        width = max(len(r) for _, r in body)
    types = _types([r + [None] * (width - len(r)) for _, r in body], width, header_rule, text_type, dates)
    headers = [cell_text(c) for c in head[1]] + [""] * (width - len(head[1])) if head else [""] * width
    selected = list(range(width))[window]
    names = variable_names(headers, naming_rule, quiet=quiet or len(selected) < width)
    if not quiet and len(selected) < width:  # only the names read are checked for the warning
        variable_names([headers[k] for k in selected], naming_rule)
    start = body[0][0] if body else (head[0] + 1 if head else last_line + 1)
    stop = math.inf if cells is None or cells.row1 is None else cells.row1 + 1
    settings: dict[str, Any] = {"VariableNamingRule": naming_rule}
    if kind == "text":
        settings |= {"Delimiter": [escaped(d) for d in delims], "DataLines": [(float(start), float(stop))],
                     "VariableNamesLine": head[0] if head else 0}
        if "Encoding" in given:
            settings["Encoding"] = text_scalar(given["Encoding"], "Encoding")
        if comments:
            settings["CommentStyle"] = comments
        if cells is not None and cells.col1 is not None:
            settings["ExtraColumnsRule"] = "ignore"  # the columns after the range are not read
    else:
        end = None
        if cells is not None and (cells.row1 is not None or cells.col1 is not None):
            end = (first_col + width - 1 if last_col is None else last_col,
                   stop if stop != math.inf else max(last_line, start))
        settings |= _sheet_ranges(first_col, start, end, head[0] if head else 0)
        settings["Sheet"] = _sheet_setting(sheet)
    opts = ImportOptions(kind, names, types, settings)
    opts.selected = selected
    for option in _RULE_OPTIONS:
        if option in given and option in opts.settings:
            opts.assign(option, given[option])
    if words:
        for o in opts.var_options:
            o["TreatAsMissing"] = list(word_list)
    return opts
