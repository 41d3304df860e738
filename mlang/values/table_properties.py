"""``T.Properties``: the metadata of a table (class ``matlab.tabular.TableProperties``).

A TableProperties value holds a copy of the table it describes, so that setting
one of its properties (``p.VariableNames = {...}``) is checked against the
table's size exactly as ``T.Properties.VariableNames = {...}`` is; assigning it
back (``T.Properties = p``) copies the metadata onto the table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import EMPTY, char_row
from mlang.values.objects import DisplayText, MatlabObject
from mlang.values.table import (
    Table,
    cellstr_column,
    cellstr_row,
    check_variable_name,
    duplicate_variable,
    texts_of,
)

PROPERTY_NAMES = ("Description", "UserData", "DimensionNames", "VariableNames",
                  "VariableDescriptions", "VariableUnits", "VariableContinuity", "RowNames",
                  "CustomProperties")


class TableProperties(MatlabObject):
    """The properties of a table, read and set by name."""

    matlab_class = "matlab.tabular.TableProperties"
    display_name = "TableProperties"
    __slots__ = ("table",)

    def __init__(self, table: Table) -> None:
        self.table = table

    def property_names(self) -> list[str]:
        return list(PROPERTY_NAMES)

    def get_property(self, name: str) -> Any:
        t = self.table
        if name == "Description":
            return char_row(t.description) if t.description else np.zeros((0, 0), dtype=char_row("").dtype)
        if name == "UserData":
            return t.user_data
        if name == "DimensionNames":
            return cellstr_row(list(t.dimension_names))
        if name == "VariableNames":
            return cellstr_row(t.names)
        if name == "VariableDescriptions":
            return cellstr_row(t.variable_descriptions) if t.variable_descriptions else Cell.empty()
        if name == "VariableUnits":
            return cellstr_row(t.variable_units) if t.variable_units else Cell.empty()
        if name == "VariableContinuity":
            return cellstr_row(t.variable_continuity) if t.variable_continuity else EMPTY
        if name == "RowNames":
            return cellstr_column(t.row_names) if t.row_names is not None else Cell.empty()
        if name == "CustomProperties":
            return EMPTY
        raise error("MATLAB:noSuchMethodOrField",
                    f"Unrecognized method, property, or field '{name}' for class "
                    "'matlab.tabular.TableProperties'.")

    def set_property(self, name: str, value: Any) -> TableProperties:
        if name not in PROPERTY_NAMES or name == "CustomProperties":
            raise error("MATLAB:noPublicFieldForClass",
                        f"Unrecognized property '{name}' for class 'matlab.tabular.TableProperties'.")
        return TableProperties(set_metadata(self.table, name, value))

    def display_properties(self) -> list[tuple[str, Any]]:
        pairs = [(name, self.get_property(name)) for name in PROPERTY_NAMES[:-1]]
        return [*pairs, ("CustomProperties", DisplayText("No custom properties are set."))]

    def __repr__(self) -> str:
        return f"TableProperties({self.table!r})"


def _name_list(value: Any, what: str) -> list[str]:
    texts = texts_of(value)
    if texts is None:
        raise error("MATLAB:table:InvalidPropertyValue" if what != "VariableNames" else
                    "MATLAB:table:InvalidVarNames",
                    f"The {what} property must be a cell array of character vectors or a string "
                    "array.")
    return texts


def checked_names(names: list[str], width: int) -> list[str]:
    if len(names) != width:
        raise error("MATLAB:table:IncorrectNumberOfVarNames",
                    "The VariableNames property must contain one name for each variable in the "
                    "table.")
    seen: set[str] = set()
    for name in names:
        check_variable_name(name)
        if name in seen:
            raise duplicate_variable(name)
        seen.add(name)
    return names


def set_metadata(t: Table, name: str, value: Any) -> Table:
    """The table with one of its properties set (checked as MATLAB checks it)."""
    if name == "VariableNames":
        return t.copy(names=checked_names(_name_list(value, name), t.width))
    if name == "RowNames":
        if _is_empty(value):
            return t.copy(row_names=None)
        names = _name_list(value, name)
        if len(names) != t.nrows:
            raise error("MATLAB:table:IncorrectNumberOfRowNames",
                        "The RowNames property must contain one name for each row in the table.")
        seen: set[str] = set()
        for row in names:
            if not row:
                raise error("MATLAB:table:InvalidRowNames", "Row names must be nonempty.")
            if row in seen:
                raise error("MATLAB:table:DuplicateRowNames", f"Duplicate row name: '{row}'.")
            seen.add(row)
        return t.copy(row_names=names)
    if name == "Description":
        texts = texts_of(value)
        if texts is None or len(texts) != 1 and not (type(value) is np.ndarray and value.size == 0):
            raise error("MATLAB:table:InvalidDescription",
                        "The Description property must be a character vector or string scalar.")
        return t.copy(description=texts[0] if texts else "")
    if name == "UserData":
        return t.copy(user_data=value)
    if name == "DimensionNames":
        names = _name_list(value, name)
        if len(names) != 2:
            raise error("MATLAB:table:IncorrectNumberOfDimNames",
                        "The DimensionNames property must contain two names.")
        for dim in names:
            if dim in t.names:
                raise error("MATLAB:table:DuplicateDimNamesVarNames",
                            f"Duplicate variable name and dimension name: '{dim}'.")
        return t.copy(dimension_names=(names[0], names[1]))
    if name in ("VariableDescriptions", "VariableUnits", "VariableContinuity"):
        slot = {"VariableDescriptions": "variable_descriptions", "VariableUnits": "variable_units",
                "VariableContinuity": "variable_continuity"}[name]
        if _is_empty(value):
            return t.copy(**{slot: None})
        texts = _name_list(value, name)
        if len(texts) != t.width:
            raise error("MATLAB:table:IncorrectNumberOfVarDescriptions" if slot != "variable_units"
                        else "MATLAB:table:IncorrectNumberOfVarUnits",
                        f"The {name} property must contain one entry for each variable in the "
                        "table.")
        return t.copy(**{slot: texts})
    raise error("MATLAB:noPublicFieldForClass",
                f"Unrecognized property '{name}' for class 'matlab.tabular.TableProperties'.")


def apply_properties(t: Table, value: Any) -> Table:
    """``T.Properties = p``: p's metadata copied onto ``t``."""
    if type(value) is not TableProperties:
        raise error("MATLAB:table:InvalidPropertiesAssignment",
                    "The Properties of a table must be assigned a TableProperties object.")
    p = value
    out = t
    for name in ("Description", "UserData", "DimensionNames", "VariableNames", "VariableDescriptions",
                 "VariableUnits", "VariableContinuity", "RowNames"):
        out = set_metadata(out, name, p.get_property(name))
    return out


def _is_empty(value: Any) -> bool:
    """``[]``, ``{}`` or ``''``: what clears an optional property."""
    if type(value) is np.ndarray:
        return value.size == 0
    return type(value) is Cell and value.data.size == 0
