"""MATLAB's table: named variables (columns) of equal height.

``variables[k]`` is the k-th variable, any MATLAB value whose first dimension is
the table's height (a numeric or logical array, a char matrix, a Cell, a
StringArray, a datetime or duration array, a nested table...); ``names[k]`` is its
name.  ``row_names`` is None or one name per row.
"""

from __future__ import annotations

from typing import Any

from mlang.values.objects import MatlabObject


class Table(MatlabObject):
    """A MATLAB table."""

    matlab_class = "table"
    __slots__ = ("variables", "names", "row_names")

    def __init__(self, variables: list[Any], names: list[str],
                 row_names: list[str] | None = None) -> None:
        self.variables = variables
        self.names = names
        self.row_names = row_names
