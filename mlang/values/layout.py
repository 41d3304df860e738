"""How arrays of texts are laid out in the Command Window, shared by the display module
and the object classes that show their own elements (datetime, duration, categorical).

Lines are ``str``, or None for a blank line of format loose.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def column_blocks(cells: list[list[str]], width: int) -> list[str | None]:
    """Rows of cells, each cell already padded to its column's width, as lines; rows wider
    than ``width`` are split into MATLAB's ``Columns a through b`` blocks."""
    if not cells:
        return []
    widths = [len(cell) for cell in cells[0]]
    chunks: list[tuple[int, int]] = []
    start = used = 0
    for j, w in enumerate(widths):
        if j > start and used + w > width:
            chunks.append((start, j))
            start, used = j, 0
        used += w
    chunks.append((start, len(widths)))
    if len(chunks) == 1:
        return ["".join(row) for row in cells]
    lines: list[str | None] = []
    for first, stop in chunks:
        if lines:
            lines.append(None)
        lines.append(f"  Columns {first + 1} through {stop}" if stop - first > 1
                     else f"  Column {first + 1}")
        lines.append(None)
        lines.extend("".join(row[first:stop]) for row in cells)
    return lines


def paged_lines(texts: np.ndarray, page_lines: Callable[[np.ndarray], list]) -> list:
    """The lines of an array of texts: a matrix as ``page_lines`` lays it out, an N-D array
    page by page, each under its ``(:,:,k) =``."""
    if texts.ndim <= 2:
        return page_lines(texts)
    lines: list = []
    for reverse in np.ndindex(*reversed(texts.shape[2:])):
        where = tuple(reversed(reverse))
        label = ",".join(str(k + 1) for k in where)
        lines += [None, f"(:,:,{label}) =", None,
                  *page_lines(texts[(slice(None), slice(None), *where)]), None]
    return lines[1:-1]
