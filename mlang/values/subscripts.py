"""Subscripts: MATLAB's indices (1-based, column-major, logical masks, ``:``) as
0-based positions, the errors for bad ones, and the ndarray underneath every
array-like value (``data_of`` / ``rewrap``), shared by indexing, assignment and
deletion (``indexing``) and sparse matrices."""

from __future__ import annotations

import math
import sys

import numpy as np

from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import (
    char_codes,
    class_of,
    result,
    to_array,
)
from mlang.values.limits import MAX_ELEMENTS, too_many_elements
from mlang.values.objects import OBJECT_KINDS
from mlang.values.string import StringArray
from mlang.values.struct import Struct


class _Colon:
    """The ``:`` index."""

    __slots__ = ()

    def __repr__(self) -> str:
        return ":"


COLON = _Colon()
COLON_CODE = ord(":")  # the char ':' as a subscript means all elements


def bad_subscript() -> Exception:
    return error("MATLAB:badsubscript",
                 "Array indices must be positive integers or logical values.")


def out_of_bounds(k: int, n: int, position: int | None, nargs: int) -> Exception:
    if nargs <= 1:
        return error("MATLAB:badsubscript",
                     f"Index exceeds the number of array elements. Index must not exceed {n}.")
    return error("MATLAB:badsubscript",
                 f"Index in position {position} exceeds array bounds. Index must not exceed {n}.")


# ------------------------------------------------------------- containers


def data_of(v: object) -> np.ndarray:
    """The ndarray that holds a value's elements."""
    t = type(v)
    if t is np.ndarray:
        return v  # type: ignore[return-value]
    if t is Cell or t is StringArray:
        return v.data  # type: ignore[attr-defined]
    if t is Struct:
        return v.elems  # type: ignore[attr-defined]
    if t is float or t is bool or t is complex:
        return to_array(v)
    raise error("MATLAB:index:notIndexable",
                f"Indexing into a value of class '{class_of(v)}' is not supported.")


def rewrap(like: object, data: np.ndarray) -> object:
    """A value of the same kind as ``like`` holding ``data``."""
    t = type(like)
    if t is Cell:
        return Cell(data)
    if t is StringArray:
        return StringArray(data)
    if t is Struct:
        return Struct(list(like.fields), data)  # type: ignore[attr-defined]
    return result(data)


def numel_of(v: object) -> int:
    """Number of elements of any value."""
    t = type(v)
    if t is float or t is bool or t is complex:
        return 1
    if t is np.ndarray:
        return v.size  # type: ignore[union-attr]
    if t in OBJECT_KINDS:
        return math.prod(v.shape)  # type: ignore[attr-defined]
    return data_of(v).size


def owns_storage(data: np.ndarray) -> bool:
    """Can ``data`` be written without anyone else seeing it (given its holder is private)?

    True for an array owning its memory, and for a view of a growth buffer
    (see ``_grow_vector``) that nothing else looks into.
    """
    base = data.base
    # references to the buffer: the view's, the local name, getrefcount's argument
    return base is None or (sys.getrefcount(base) <= 3 and base.base is None
                            and data.flags.writeable)


def _index_array(v: object, n: int | None, position: int | None, nargs: int) -> np.ndarray | slice:
    """0-based indices (or a slice for ':') along a dimension of length ``n``.

    ``n`` is None for assignment, where indices beyond the end are allowed.
    """
    t = type(v)
    if t is float:
        if not v.is_integer() or v < 1:
            raise bad_subscript()
        k = int(v)
        if n is not None and k > n:
            raise out_of_bounds(k, n, position, nargs)
        if k > MAX_ELEMENTS:
            raise too_many_elements()
        return np.array([k - 1])
    if v is COLON:
        return slice(None)
    if t is bool:
        if v and n == 0:
            raise out_of_bounds(1, n, position, nargs)
        return np.array([0] if v else [], dtype=np.intp)
    if t is np.ndarray:
        kind = v.dtype.kind
        if kind == "b":
            flat = v.ravel(order="F")
            idx = np.flatnonzero(flat)
            if n is not None and idx.size and idx[-1] >= n:
                raise out_of_bounds(int(idx[-1]) + 1, n, position, nargs)
            return idx
        if kind == "V":
            if v.size == 1 and char_codes(v).reshape(-1)[0] == COLON_CODE:
                return slice(None)
            vals = char_codes(v).ravel(order="F").astype(np.float64)
        elif kind == "c":
            raise error("MATLAB:badsubscript", "Subscript indices must be real.")
        else:
            vals = v.ravel(order="F")
            if kind == "f" and vals.size <= _SHORT_INDEX:
                short = short_positions(vals.tolist(), n)
                if short is not None:
                    return short
        if vals.dtype.kind == "f":
            if vals.size and not vals.max() <= MAX_ELEMENTS:  # NaN, Inf, or too large
                if not np.isfinite(vals).all() or vals.min() < 1:
                    raise bad_subscript()
                if n is not None:
                    raise out_of_bounds(int(vals.max()), n, position, nargs)
                raise too_many_elements()
            ints = vals.astype(np.intp)
            if vals.size and ((ints != vals).any() or ints.min() < 1):
                raise bad_subscript()
        else:
            ints = vals.astype(np.intp)
            if ints.size and ints.min() < 1:
                raise bad_subscript()
        if n is not None and ints.size and ints.max() > n:
            raise out_of_bounds(int(ints.max()), n, position, nargs)
        return ints - 1
    if t is complex:
        raise error("MATLAB:badsubscript", "Subscript indices must be real.")
    raise error("MATLAB:badsubscript",
                f"Unable to use a value of type {class_of(v)} as an index.")


_SHORT_INDEX = 16  # (elements: a shorter floating index is checked as Python floats)


def short_positions(values: list[float], n: int | None) -> np.ndarray | None:
    """0-based positions of a short floating index whose elements are whole numbers from 1
    to ``n`` (to MAX_ELEMENTS when ``n`` is None); None otherwise (the general checks give
    the error)."""
    top = MAX_ELEMENTS if n is None else n
    for k in values:
        if not (1.0 <= k <= top and k.is_integer()):  # (NaN fails the comparison)
            return None
    return np.array(values, dtype=np.intp) - 1


def linear_positions(index: object, n: int) -> np.ndarray:
    """0-based positions a single (linear) index names in an array of ``n`` elements,
    also beyond its end (where an assignment would grow it)."""
    return _as_positions(_index_array(index, None, None, 1), n)


def _count(idx: np.ndarray | slice, n: int) -> int:
    return n if isinstance(idx, slice) else idx.size


def _as_positions(idx: np.ndarray | slice, n: int) -> np.ndarray:
    return np.arange(n) if isinstance(idx, slice) else idx


def _shape_for(data: np.ndarray, nargs: int) -> tuple[int, ...]:
    """The shape indexed by ``nargs`` subscripts: trailing dimensions folded or padded."""
    shape = data.shape
    if nargs >= len(shape):
        return shape + (1,) * (nargs - len(shape))
    folded = 1
    for d in shape[nargs - 1:]:
        folded *= d
    return shape[: nargs - 1] + (folded,)


def _is_vector(shape: tuple[int, ...]) -> bool:
    """Exactly one dimension that is not 1 (a 1×0 array is a vector, 0×0 and 1×1 are not)."""
    return sum(d != 1 for d in shape) == 1


def _linear_result_shape(source: tuple[int, ...], index: object, count: int) -> tuple[int, ...]:
    """MATLAB's shape of ``x(I)`` for a single index ``I``.

    A logical mask acts as ``find(mask)``: a row for a row mask, a column
    otherwise, 0×0 for a scalar false.  When both ``x`` and the index are
    vectors the result takes the orientation of ``x``, else the shape of the index.
    """
    t = type(index)
    if index is COLON:
        return (count, 1)
    if t is bool or (t is np.ndarray and index.dtype == np.bool_):
        mask_shape = index.shape if t is np.ndarray else (1, 1)
        if mask_shape == (1, 1):
            ishape = (count, count)
        elif len(mask_shape) == 2 and mask_shape[0] == 1:
            ishape = (1, count)
        else:
            ishape = (count, 1)
    elif t is np.ndarray:
        if index.dtype.kind == "V" and index.size == 1 and char_codes(index).reshape(-1)[0] == COLON_CODE:
            return (count, 1)
        ishape = index.shape
    else:
        return (1, 1)
    if _is_vector(source) and _is_vector(ishape):
        return tuple(count if d != 1 else 1 for d in source)
    return ishape
