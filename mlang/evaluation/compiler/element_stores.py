"""``s(i).f = v`` on a struct array: the element's field written in place.

The general path builds the new struct array anew (every element's dict
copied) for each such store, which makes a loop filling a struct array
quadratic.  Here, when nothing else can see the array (its ``Struct``, its
element array, the element's dict, all private), the one dict is changed
where it is; one element past the end of a row or column is appended in an
over-allocated buffer of elements, as ``x(end+1) = v`` does for numbers.
Anything else (a new field, a matrix index, a shared array) takes the general
path, with the index values already computed.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.evaluation.frame import Frame
from mlang.values import indexing
from mlang.values.core import EMPTY
from mlang.values.struct import Struct

Store = Callable[[Frame, Any], None]
# the general path: (frame, current value, index values already computed, value) -> new value
GeneralStore = Callable[[Frame, Any, list, Any], Any]


def element_field_store(root: str, fname: str, args: Callable, uses_end: bool,
                        general: GeneralStore) -> Store:
    """``root(k).fname = v`` with one index argument."""
    getrefcount = sys.getrefcount
    owns_storage = indexing.owns_storage
    no_array = np.zeros((0, 0))

    def store_element_field(frame: Frame, v: Any) -> None:
        vars = frame.vars
        base = vars.get(root)
        values = args(frame, base if base is not None else no_array) if uses_end else args(frame)
        # references: the variable's, `base`, getrefcount's argument
        if type(base) is Struct and type(values[0]) is float and getrefcount(base) <= 3 \
                and fname in base.fields:
            elems = base.elems
            k = values[0]
            i = int(k) if k.is_integer() else 0  # (NaN, Inf: the general path's error)
            if i == k and i >= 1 and elems.ndim == 2 and getrefcount(elems) <= 3 \
                    and owns_storage(elems):
                n = elems.size
                if i <= n:
                    rows = elems.shape[0]
                    d = elems[(i - 1) % rows, (i - 1) // rows]
                    if getrefcount(d) <= 3:  # the array's reference, `d`, getrefcount's
                        d[fname] = v
                        return
                elif i == n + 1:
                    grown = _appended_element(frame, root, elems)
                    if grown is not None:
                        element = dict.fromkeys(base.fields, EMPTY)
                        element[fname] = v
                        grown[-1, -1] = element
                        base.elems = grown
                        return
        vars[root] = general(frame, base, values, v)

    return store_element_field


def _appended_element(frame: Frame, root: str, elems: np.ndarray) -> np.ndarray | None:
    """The element array of ``root`` one longer (its last slot to be filled), in a growth
    buffer with room to spare; None when the array is not an empty, a row or a column."""
    rows, cols = elems.shape
    n = rows * cols
    if n == 0:
        if elems.shape != (0, 0) and rows != 1:
            return None
        return np.empty((1, 1), dtype=object)  # a scalar struct owns its elements
    column = cols == 1 and rows > 1
    if rows != 1 and not column:
        return None
    growth = frame.growth
    if growth is None:
        growth = frame.growth = {}
    ref = growth.get(root)
    buffer = elems.base
    if ref is not None and ref() is elems and buffer is not None \
            and buffer.size > n and (buffer.shape[1] == 1 if column else buffer.shape[0] == 1):
        grown = buffer[:n + 1, :] if column else buffer[:, :n + 1]
    else:
        capacity = max(8, 2 * n)
        buffer = np.empty((capacity, 1) if column else (1, capacity), dtype=object)
        flat = buffer.reshape(-1)
        flat[:n] = elems.reshape(-1)
        grown = buffer[:n + 1, :] if column else buffer[:, :n + 1]
    growth[root] = weakref.ref(grown)
    return grown
