"""Import options objects: DelimitedTextImportOptions and SpreadsheetImportOptions, what
detectImportOptions finds in a file and readtable, readmatrix and readcell follow.

An options object is a value: assigning a property (``opts.DataLines = [3 Inf]``) or
calling setvartype gives a new object.  The variables it describes are kept as parallel
lists (names, types, the per-variable options) and the selection as positions, so renaming
a variable keeps it selected.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import integer_scalar, option_flag, text_list, text_or_none
from mlang.builtins.data.missing_values import MissingArray
from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, numel, to_double_array
from mlang.values.objects import MatlabObject
from mlang.values.string import StringArray

# Types a variable can be imported as (categorical when that builtin is present).
VARIABLE_TYPES = ("double", "single", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                  "uint64", "logical", "char", "string", "datetime", "categorical")
NUMERIC_TYPES = ("double", "single", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64")

CHOICES = {
    "ConsecutiveDelimitersRule": ("split", "join", "error"),
    "LeadingDelimitersRule": ("keep", "ignore", "error"),
    "TrailingDelimitersRule": ("keep", "ignore", "error"),
    "EmptyLineRule": ("skip", "read", "error"),
    "MissingRule": ("fill", "error", "omitrow", "omitvar"),
    "ImportErrorRule": ("fill", "error", "omitrow", "omitvar"),
    "ExtraColumnsRule": ("addvars", "ignore", "wrap", "error"),
    "VariableNamingRule": ("modify", "preserve"),
    "MergedCellColumnRule": ("placeleft", "placeright", "duplicate", "omitrow", "error"),
    "MergedCellRowRule": ("placetop", "placebottom", "duplicate", "omitvar", "error"),
}
TEXT_PROPERTIES = ("Whitespace", "Encoding", "DataRange", "VariableNamesRange", "RowNamesRange",
                   "VariableUnitsRange", "VariableDescriptionsRange")
LIST_PROPERTIES = ("Delimiter", "LineEnding", "CommentStyle")
LINE_PROPERTIES = ("VariableNamesLine", "RowNamesColumn", "VariableUnitsLine", "VariableDescriptionsLine")
VARIABLE_PROPERTIES = ("VariableNames", "VariableTypes", "SelectedVariableNames", "VariableOptions",
                       "VariableNamingRule")
VARIABLE_GROUP = "Variable Import Properties: Set types by name using setvartype"

TEXT_GROUPS = (
    ("Format Properties", ("Delimiter", "Whitespace", "LineEnding", "CommentStyle",
                           "ConsecutiveDelimitersRule", "LeadingDelimitersRule", "TrailingDelimitersRule",
                           "EmptyLineRule", "Encoding")),
    ("Replacement Properties", ("MissingRule", "ImportErrorRule", "ExtraColumnsRule")),
    (VARIABLE_GROUP, VARIABLE_PROPERTIES),
    ("Location Properties", ("DataLines", *LINE_PROPERTIES)),
)
SHEET_GROUPS = (
    ("Sheet Properties", ("Sheet",)),
    ("Replacement Properties", ("MissingRule", "ImportErrorRule", "MergedCellColumnRule",
                                "MergedCellRowRule")),
    (VARIABLE_GROUP, VARIABLE_PROPERTIES),
    ("Range Properties", ("DataRange", "VariableNamesRange", "RowNamesRange", "VariableUnitsRange",
                          "VariableDescriptionsRange")),
)


def text_defaults() -> dict[str, Any]:
    return {"Delimiter": [","], "Whitespace": "\\b\\t ", "LineEnding": ["\\n", "\\r", "\\r\\n"],
            "CommentStyle": [], "ConsecutiveDelimitersRule": "split", "LeadingDelimitersRule": "keep",
            "TrailingDelimitersRule": "ignore", "EmptyLineRule": "skip", "Encoding": "UTF-8",
            "MissingRule": "fill", "ImportErrorRule": "fill", "ExtraColumnsRule": "addvars",
            "VariableNamingRule": "modify", "DataLines": [(1.0, math.inf)], "VariableNamesLine": 0,
            "RowNamesColumn": 0, "VariableUnitsLine": 0, "VariableDescriptionsLine": 0}


def sheet_defaults() -> dict[str, Any]:
    return {"Sheet": "", "MissingRule": "fill", "ImportErrorRule": "fill",
            "MergedCellColumnRule": "placeleft", "MergedCellRowRule": "placetop",
            "VariableNamingRule": "modify", "DataRange": "A1", "VariableNamesRange": "",
            "RowNamesRange": "", "VariableUnitsRange": "", "VariableDescriptionsRange": ""}


def unknown_variable(name: str) -> Exception:
    return error("MATLAB:textio:io:UnknownVarName", f"Unknown variable name: '{name}'.")


def bad_choice(value: str, choices: tuple[str, ...]) -> Exception:
    listed = ", ".join(f"'{c}'" for c in choices)
    return error("MATLAB:unrecognizedStringChoice", f"Expected input to match one of these values:\n\n"
                 f"{listed}\n\nThe input, '{value}', did not match any of the valid values.")


def check_type(text: str) -> str:
    kind = text.lower()
    if kind not in VARIABLE_TYPES:
        raise error("MATLAB:textio:io:UnsupportedConversionType",
                    f"'{text}' is not a supported data type for import. Supported types are: "
                    f"{', '.join(VARIABLE_TYPES)}.")
    return kind


def default_fill(kind: str) -> Any:
    """The FillValue of a variable of a type, as a Python value (None: missing text/NaT)."""
    if kind in NUMERIC_TYPES:
        return math.nan if kind in ("double", "single") else 0.0
    if kind == "logical":
        return False
    if kind == "char":
        return ""
    return None


def _cellstr_row(texts: list[str]) -> Cell:
    data = np.empty((1, len(texts)), dtype=object)
    for k, t in enumerate(texts):
        data[0, k] = char_row(t)
    return Cell(data)


def _quoted_list(texts: list[str], sep: str = ", ", shown: int | None = 3) -> str:
    if not texts:
        return "{}"
    if shown is None or len(texts) <= shown:
        return "{" + sep.join(f"'{t}'" for t in texts) + "}"
    return "{" + sep.join(f"'{t}'" for t in texts[:shown]) + f" ... and {len(texts) - shown} more}}"


class ImportOptions(MatlabObject):
    """The options of one file format ('text' or 'spreadsheet'): its settings by MATLAB
    property name, and its variables."""

    __slots__ = ("format", "settings", "names", "types", "selected", "var_options")

    def __init__(self, format: str, names: list[str], types: list[str],
                 settings: dict[str, Any] | None = None) -> None:
        self.format = format
        self.settings = (text_defaults() if format == "text" else sheet_defaults()) | (settings or {})
        self.names = list(names)
        self.types = list(types)
        self.selected = list(range(len(names)))
        self.var_options: list[dict[str, Any]] = [{} for _ in names]

    @property
    def matlab_class(self) -> str:  # type: ignore[override]
        return ("matlab.io.text.DelimitedTextImportOptions" if self.format == "text"
                else "matlab.io.spreadsheet.SpreadsheetImportOptions")

    def header_name(self) -> str:
        return "DelimitedTextImportOptions" if self.format == "text" else "SpreadsheetImportOptions"

    def copy(self) -> ImportOptions:
        out = ImportOptions(self.format, self.names, self.types, dict(self.settings))
        out.selected = list(self.selected)
        out.var_options = [dict(o) for o in self.var_options]
        return out

    # ------------------------------------------------------------ variables

    def positions(self, selection: Any) -> list[int]:
        """Variable positions named by a selection: names (text) or numbers."""
        names = text_list_or_none(selection)
        if names is not None:
            out = []
            for name in names:
                if name not in self.names:
                    raise unknown_variable(name)
                out.append(self.names.index(name))
            return out
        if class_of(selection) in (*NUMERIC_TYPES, "logical"):
            a = to_double_array(selection).reshape(-1)
            if class_of(selection) == "logical":
                a = np.flatnonzero(a) + 1.0
            if np.any(a % 1) or np.any(a < 1) or np.any(a > len(self.names)):
                raise error("MATLAB:textio:io:BadVariableIndex",
                            f"Variable indices must be between 1 and {len(self.names)}.")
            return [int(x) - 1 for x in a]
        raise error("MATLAB:textio:io:InvalidSelection", "Variable selection must be a character vector, "
                    "cell array of character vectors, string array, or numeric vector of indices.")

    def fill_value(self, k: int) -> Any:
        return self.var_options[k].get("FillValue", default_fill(self.types[k]))

    def set_type(self, k: int, kind: str) -> None:
        if self.types[k] != kind:
            self.types[k] = kind
            # options of another type do not carry over (a fill value of the old type)
            kept = self.var_options[k].get("TreatAsMissing")
            self.var_options[k] = {} if kept is None else {"TreatAsMissing": kept}

    def resize(self, names: list[str]) -> None:
        """New variable names; a longer list adds char variables, a shorter drops the last."""
        n = len(names)
        while len(self.types) < n:
            self.types.append("char")
            self.var_options.append({})
        del self.types[n:], self.var_options[n:]
        if len(self.names) != n:
            self.selected = [k for k in self.selected if k < n] if n < len(self.names) else \
                self.selected + list(range(len(self.names), n))
        self.names = list(names)

    # ------------------------------------------------------------ properties

    def property_names(self) -> list[str]:
        groups = TEXT_GROUPS if self.format == "text" else SHEET_GROUPS
        return [name for _, names in groups for name in names] + ["PreserveVariableNames"]

    def get_property(self, name: str) -> Any:
        if name not in self.property_names():
            return super().get_property(name)
        if name == "VariableNames":
            return _cellstr_row(self.names)
        if name == "VariableTypes":
            return _cellstr_row(self.types)
        if name == "SelectedVariableNames":
            return _cellstr_row([self.names[k] for k in self.selected])
        if name == "VariableOptions":
            return VariableOptionsArray([(self.names[k], self.types[k], dict(self.var_options[k]))
                                         for k in range(len(self.names))])
        if name == "PreserveVariableNames":
            return self.settings["VariableNamingRule"] == "preserve"
        value = self.settings[name]
        if name in LIST_PROPERTIES:
            return _cellstr_row(value)
        if name == "DataLines":
            return np.array(value, dtype=np.float64).reshape(-1, 2) if len(value) > 1 else \
                np.array([list(value[0])], dtype=np.float64)
        if name in LINE_PROPERTIES:
            return float(value)
        if name == "Sheet" and type(value) is not str:
            return float(value)
        return char_row(value)

    def set_property(self, name: str, value: Any) -> ImportOptions:
        if name not in self.property_names():
            return super().set_property(name, value)
        out = self.copy()
        out.assign(name, value)
        return out

    def assign(self, name: str, value: Any) -> None:
        """Set a property in place, with MATLAB's checks (used on a fresh copy)."""
        if name == "VariableNames":
            names = text_list(value, "VariableNames")
            duplicated = next((n for k, n in enumerate(names) if n in names[:k]), None)
            if duplicated is not None:
                raise error("MATLAB:textio:io:DuplicateVarNames",
                            f"Duplicate variable name: '{duplicated}'.")
            if any(not n for n in names):
                raise error("MATLAB:textio:io:EmptyVarName", "Variable names must be nonempty.")
            self.resize(names)
        elif name == "VariableTypes":
            kinds = [check_type(t) for t in text_list(value, "VariableTypes")]
            if len(kinds) != len(self.names):
                raise error("MATLAB:textio:io:WrongNumberOfTypes",
                            f"The number of types ({len(kinds)}) must match the number of variables "
                            f"({len(self.names)}).")
            for k, kind in enumerate(kinds):
                self.set_type(k, kind)
        elif name == "SelectedVariableNames":
            self.selected = self.positions(value)
        elif name == "VariableOptions":
            if type(value) is not VariableOptionsArray or len(value.items) != len(self.names):
                raise error("MATLAB:textio:io:InvalidVariableOptions",
                            "VariableOptions must be a VariableImportOptions array with one element "
                            "for each variable.")
            self.names = [n for n, _, _ in value.items]
            self.types = [t for _, t, _ in value.items]
            self.var_options = [dict(o) for _, _, o in value.items]
        elif name == "PreserveVariableNames":
            flag = option_flag(value, "PreserveVariableNames")
            self.settings["VariableNamingRule"] = "preserve" if flag else "modify"
        elif name in CHOICES:
            text = _text(value, name)
            choices = CHOICES[name]
            match = next((c for c in choices if c == text.lower()), None)
            if match is None:
                raise bad_choice(text, choices)
            self.settings[name] = match
        elif name in LIST_PROPERTIES:
            texts = [] if type(value) is Cell and value.data.size == 0 else text_list(value, name)
            if name == "Delimiter" and not texts:
                raise error("MATLAB:textio:io:EmptyDelimiter", "Delimiter must be nonempty.")
            self.settings[name] = texts
        elif name == "DataLines":
            self.settings[name] = data_lines(value)
        elif name in LINE_PROPERTIES:
            n = integer_scalar(value, f"'{name}' must be a nonnegative integer scalar.",
                               "MATLAB:textio:io:NonNegativeInteger")
            if n < 0:
                raise error("MATLAB:textio:io:NonNegativeInteger",
                            f"'{name}' must be a nonnegative integer scalar.")
            self.settings[name] = n
        elif name == "Sheet":
            text = text_or_none(value)
            if text is None:
                text = integer_scalar(value, "Sheet must be a sheet name or a positive integer.",
                                      "MATLAB:spreadsheet:book:openSheetIndex")
            self.settings[name] = text
        else:
            self.settings[name] = _text(value, name)

    # ------------------------------------------------------------ display

    def display_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        groups = TEXT_GROUPS if self.format == "text" else SHEET_GROUPS
        width = max(len(name) for _, names in groups for name in names)
        lines: list[Any] = [f"  {self.header_name()} with properties:"]
        for title, names in groups:
            lines += [None, f"   {title}" + ("" if title == VARIABLE_GROUP else ":")]
            for name in names:
                lines.append(f"{' ' * (4 + width - len(name))}{name}: {self.property_text(name)}")
                if name == "VariableOptions":
                    lines.append("\tAccess VariableOptions sub-properties using setvaropts/getvaropts")
        lines.append("\tTo display a preview of the table, use preview")
        return lines

    def property_text(self, name: str) -> str:
        """A property's value as the options display writes it."""
        if name == "VariableNames":
            return _quoted_list(self.names)
        if name == "VariableTypes":
            return _quoted_list(self.types)
        if name == "SelectedVariableNames":
            return _quoted_list([self.names[k] for k in self.selected])
        if name == "VariableOptions":
            return f"Show all {len(self.names)} VariableOptions"
        value = self.settings[name]
        if name in LIST_PROPERTIES:
            return _quoted_list(value, "  ", None)
        if name == "DataLines":
            if len(value) > 1:
                return f"[{len(value)}×2 double]"
            return "[" + " ".join(_number(x) for x in value[0]) + "]"
        if name in LINE_PROPERTIES:
            return str(value)
        if name == "DataRange" and value and ":" not in value:
            return f"'{value}' (Start Cell)"
        if name == "Sheet" and type(value) is not str:
            return str(value)
        return f"'{value}'"

    def __repr__(self) -> str:
        return f"ImportOptions({self.format!r}, {self.names!r}, {self.types!r})"


def _number(x: float) -> str:
    return "Inf" if math.isinf(x) else str(int(x))


def _text(value: Any, name: str) -> str:
    text = text_or_none(value)
    if text is None:
        raise error("MATLAB:textio:io:InvalidPropertyValue",
                    f"'{name}' must be a character vector or string scalar.")
    return text


def text_list_or_none(v: Any) -> list[str] | None:
    """The texts of a text scalar, cellstr or string array; None for other values."""
    if text_or_none(v) is not None or type(v) is Cell or class_of(v) == "string":
        return text_list(v, "Variable selection")
    return None


def data_lines(value: Any) -> list[tuple[float, float]]:
    """A DataLines value: a start line, [start end], or rows of [start end] (end may be Inf)."""
    bad = error("MATLAB:textio:io:InvalidDataLines",
                "DataLines must be a positive scalar integer or an N-by-2 array of positive integers "
                "in increasing order.")
    try:
        a = to_double_array(value)
    except Exception:
        raise bad from None
    if numel(a) == 1:
        a = np.array([[float(a.reshape(-1)[0]), math.inf]])
    if a.ndim != 2 or a.shape[1] != 2 or a.shape[0] < 1:
        raise bad
    flat = a.reshape(-1)
    finite = flat[np.isfinite(flat)]
    if np.any(np.isnan(flat)) or np.any(finite % 1) or np.any(flat < 1) or np.any(np.diff(flat) < 0):
        raise bad
    return [(float(r[0]), float(r[1])) for r in a]


# ------------------------------------------------------------ variable options


VARIABLE_OPTION_CLASSES = {
    **{t: "NumericVariableImportOptions" for t in NUMERIC_TYPES},
    "char": "TextVariableImportOptions", "string": "TextVariableImportOptions",
    "logical": "LogicalVariableImportOptions", "datetime": "DatetimeVariableImportOptions",
    "categorical": "CategoricalVariableImportOptions",
}


class VariableOptionsArray(MatlabObject):
    """The options of variables (matlab.io.VariableImportOptions): Name, Type, FillValue,
    TreatAsMissing and, for datetime, InputFormat.  A 1-by-N array; one element displays
    its properties."""

    __slots__ = ("items",)

    def __init__(self, items: list[tuple[str, str, dict[str, Any]]]) -> None:
        self.items = items

    @property
    def shape(self) -> tuple[int, int]:
        return (1, len(self.items))

    @property
    def matlab_class(self) -> str:  # type: ignore[override]
        if len(self.items) == 1:
            return "matlab.io." + VARIABLE_OPTION_CLASSES[self.items[0][1]]
        return "matlab.io.VariableImportOptions"

    def subsref_paren(self, args: list) -> Any:
        if len(args) != 1:
            return NotImplemented
        a = to_double_array(args[0]).reshape(-1)
        if np.any(a % 1) or np.any(a < 1) or np.any(a > len(self.items)):
            raise error("MATLAB:index:outOfBounds",
                        f"Index exceeds the number of array elements. Index must not exceed "
                        f"{len(self.items)}.")
        return VariableOptionsArray([self.items[int(k) - 1] for k in a])

    def property_names(self) -> list[str]:
        if len(self.items) != 1:
            return []
        names = ["Name", "Type", "FillValue", "TreatAsMissing"]
        if self.items[0][1] == "datetime":
            names.append("InputFormat")
        return names

    def get_property(self, name: str) -> Any:
        if len(self.items) != 1 or name not in self.property_names():
            return super().get_property(name)
        var_name, kind, opts = self.items[0]
        if name == "Name":
            return char_row(var_name)
        if name == "Type":
            return char_row(kind)
        if name == "TreatAsMissing":
            return _cellstr_row(opts.get("TreatAsMissing", [])) if opts.get("TreatAsMissing") \
                else Cell(np.empty((0, 0), dtype=object))
        if name == "InputFormat":
            return char_row(opts.get("InputFormat", ""))
        return fill_as_value(opts.get("FillValue", default_fill(kind)), kind)

    def display_properties(self) -> list[tuple[str, Any]]:
        return [(name, self.get_property(name)) for name in self.property_names()]

    def display_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        if len(self.items) == 1:
            names = self.property_names()
            width = max(len(n) for n in names)
            _, kind, opts = self.items[0]
            texts = {"Name": f"'{self.items[0][0]}'", "Type": f"'{kind}'",
                     "FillValue": _fill_text(opts.get("FillValue", default_fill(kind)), kind),
                     "TreatAsMissing": _quoted_list(opts.get("TreatAsMissing", []), "  ", None),
                     "InputFormat": f"'{opts.get('InputFormat', '')}'"}
            return [f"  {self.matlab_class.rsplit('.', 1)[-1]} with properties:", None,
                    *(f"{' ' * (4 + width - len(n))}{n}: {texts[n]}" for n in names)]
        return [f"  1×{len(self.items)} VariableImportOptions array with properties:", None,
                *(f"    {n}" for n in ("Name", "Type", "FillValue", "TreatAsMissing"))]


def _fill_text(fill: Any, kind: str) -> str:
    if fill is None:
        return "<missing>" if kind == "string" else "NaT" if kind == "datetime" else "<undefined>"
    if type(fill) is str:
        return f"'{fill}'" if kind != "string" else f'"{fill}"'
    if type(fill) is bool:
        return "1" if fill else "0"
    x = float(fill)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    return f"{x:.15g}"


def fill_as_value(fill: Any, kind: str) -> Any:
    """A stored fill value as the MATLAB value FillValue shows."""
    if kind in NUMERIC_TYPES:
        return float(fill) if kind == "double" else np.array([[fill]]).astype(
            "float32" if kind == "single" else kind)
    if kind == "logical":
        return bool(fill)
    if kind == "char":
        return char_row(fill)
    if kind == "string":
        return StringArray.scalar(fill) if fill is not None else StringArray(np.array([[None]], dtype=object))
    if kind == "categorical" and fill is not None:
        return char_row(fill)
    return MissingArray((1, 1)) if fill is None else fill
