"""Helpers shared by the datastore tests."""

from __future__ import annotations

from mlang.values.cell import Cell


def cells(c: Cell) -> list:
    """The elements of a cell array (asserted to be one), in column-major order."""
    assert type(c) is Cell
    return list(c.data.reshape(-1, order="F"))
