"""Short real double rows and columns read as Python floats.

A NumPy call on a three-element array costs more than the arithmetic itself, so
the reductions of a row or column of fewer than SEQUENTIAL_SUM elements are done
here on the elements as Python floats, in the order NumPy runs them: its sums
of so few numbers add them one after another to 0.0 (its pairwise summation
starts with blocks of 8), its products multiply them one after another, and
its running sums are always sequential.  The results are the general path's,
bit for bit.
"""

from __future__ import annotations

import numpy as np

FLOAT64 = np.dtype(np.float64)
BOOL = np.dtype(np.bool_)

# NumPy sums fewer numbers than this one after another from 0.0: Python's float
# additions in that order give the same sum.
SEQUENTIAL_SUM = 8


def short_values(x: object) -> list[float] | None:
    """The elements of a real double row or column of 1 to SEQUENTIAL_SUM - 1 elements,
    as Python floats; None for anything else."""
    if type(x) is np.ndarray and x.dtype is FLOAT64 and x.size < SEQUENTIAL_SUM and x.ndim == 2:
        return _vector_elements(x.tolist())
    return None


def _vector_elements(rows: list) -> list | None:
    """The elements of a nonempty row or column given as its list of rows; None for an empty
    or two-dimensional array."""
    if len(rows) == 1:
        return rows[0] or None
    if len(rows) > 1 and len(rows[0]) == 1:
        return [row[0] for row in rows]
    return None


def sequential_sum(values: list[float]) -> float:
    """The sum of a few floats as NumPy adds them: one after another, from 0.0."""
    total = 0.0
    for v in values:
        total += v
    return total


def sequential_product(values: list[float]) -> float:
    """The product of floats as NumPy multiplies them: one after another."""
    total = 1.0
    for v in values:
        total *= v
    return total


def largest_of(values: list[float]) -> float | None:
    """The largest of a few floats, the first of equal ones (of 0 and -0, the first), as
    argmax picks it; None when one is NaN (the general path skips NaN)."""
    best = values[0]
    for v in values:
        if v != v:
            return None
        if v > best:
            best = v
    return best


def smallest_of(values: list[float]) -> float | None:
    """The smallest of a few floats, as ``largest_of`` finds the largest."""
    best = values[0]
    for v in values:
        if v != v:
            return None
        if v < best:
            best = v
    return best


def running_sums(values: list[float]) -> list[float]:
    """The running sums of floats, as NumPy's cumsum adds them (the first as it is)."""
    total = values[0]
    sums = [total]
    for v in values[1:]:
        total += v
        sums.append(total)
    return sums


def short_truths(x: object) -> list | None:
    """The elements of a logical or real double row or column of 1 to SEQUENTIAL_SUM - 1
    elements, as Python bools or floats; None for anything else."""
    if type(x) is np.ndarray and (x.dtype is FLOAT64 or x.dtype is BOOL) \
            and x.size < SEQUENTIAL_SUM and x.ndim == 2:
        return _vector_elements(x.tolist())
    return None
