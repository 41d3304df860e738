"""Equality of whole values: isequal and isequaln (and ``values_equal``, their rule for two
values)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.data.shape import shape_of
from mlang.registry import BUILTINS, builtin
from mlang.values.cell import Cell
from mlang.values.core import to_double_array
from mlang.values.handle import FunctionHandle
from mlang.values.objects import CALL_ROUTES
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.table import Table
from mlang.values.text import to_string_array


@builtin(dl="data", interp=True)
def isequal(interp: Any, a: Any, b: Any, *rest: Any) -> bool:
    """tf = isequal(A,B)
    tf = isequal(A1,A2,...,An)

    True when the values are equal in size and content (NaN is not equal to
    NaN; numeric classes may differ)."""
    return all(values_equal(a, other, interp=interp) for other in (b, *rest))


@builtin(dl="data", interp=True)
def isequaln(interp: Any, a: Any, b: Any, *rest: Any) -> bool:
    """tf = isequaln(A,B)
    tf = isequaln(A1,A2,...,An)

    True when the values are equal in size and content, NaN equal to NaN (and a
    missing string to a missing string); numeric classes may differ."""
    return all(values_equal(a, other, nan_equal=True, interp=interp) for other in (b, *rest))


def values_equal(a: object, b: object, nan_equal: bool = False, interp: Any = None) -> bool:
    """MATLAB's isequal of two values (isequaln's with ``nan_equal``); ``interp`` lets values
    whose class decides (dlarray, sparse, categorical, datetime...) be compared inside cells,
    structs and tables."""
    ta, tb = type(a), type(b)
    if ta is float and tb is float:
        return a == b or (nan_equal and a != a and b != b)
    if ta is StringArray or tb is StringArray:
        return _strings_equal(a, b, nan_equal)
    if ta is Table or tb is Table:
        return ta is tb and _tables_equal(a, b, nan_equal, interp)
    if shape_of(a) != shape_of(b):
        return False
    if ta is Cell or tb is Cell:
        if ta is not tb:
            return False
        return all(values_equal(x, y, nan_equal, interp) for x, y in zip(a.values(), b.values(), strict=True))
    if ta is Struct or tb is Struct:
        if ta is not tb or set(a.fields) != set(b.fields):
            return False
        for da, db in zip(a.elems.reshape(-1, order="F"), b.elems.reshape(-1, order="F"), strict=True):
            if any(not values_equal(da[f], db[f], nan_equal, interp) for f in a.fields):
                return False
        return True
    if _is_plain_array(a) and _is_plain_array(b):
        return bool(np.array_equal(to_double_array(a), to_double_array(b), equal_nan=nan_equal))
    if ta is FunctionHandle and tb is FunctionHandle:
        return _handles_equal(a, b)
    if interp is not None and (ta in CALL_ROUTES or tb in CALL_ROUTES):
        return _routed_equal(interp, a, b, nan_equal)
    return a is b


def _routed_equal(interp: Any, a: object, b: object, nan_equal: bool) -> bool:
    """isequal(a, b) for values whose class routes the call (met inside a container), asked
    as a call of isequal itself would ask: each class's route in turn."""
    target = BUILTINS["isequaln" if nan_equal else "isequal"]
    declined = None
    for v in (a, b):
        route = CALL_ROUTES.get(type(v))
        if route is not None and route is not declined:
            out = route(target, interp, [a, b], 1)
            if out is not NotImplemented:
                return bool(out[0])
            declined = route
    return a is b


def _handles_equal(a: FunctionHandle, b: FunctionHandle) -> bool:
    """Handles to the same named function are equal (to a nested function, only
    when made in the same call); an anonymous function equals only its copies."""
    if a is b:
        return True
    if a.is_anonymous or b.is_anonymous:
        return False
    return a.name == b.name and a.target is b.target and a.scope is b.scope


def _is_plain_array(v: object) -> bool:
    t = type(v)
    return t is float or t is bool or t is complex or t is np.ndarray


def _strings_equal(a: object, b: object, nan_equal: bool = False) -> bool:
    """A string array equals another string array or a char row with the same text."""
    for v in (a, b):
        if type(v) is not StringArray and not (type(v) is np.ndarray and v.dtype.kind == "V"):
            return False
    x, y = to_string_array(a), to_string_array(b)
    if x.shape != y.shape:
        return False
    xs, ys = x.data.reshape(-1), y.data.reshape(-1)
    return all(p == q if p is not None else nan_equal and q is None
               for p, q in zip(xs, ys, strict=True))


def _tables_equal(a: Table, b: Table, nan_equal: bool = False, interp: Any = None) -> bool:
    """Tables are equal with the same variable names, row names and data."""
    return (a.shape == b.shape and a.names == b.names and a.row_names == b.row_names
            and all(values_equal(x, y, nan_equal, interp)
                    for x, y in zip(a.variables, b.variables, strict=True)))
