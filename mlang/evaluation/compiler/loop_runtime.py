"""What loops written as Python source (loop_source) call as they run: the element reads
and stores of double arrays, the calls of pure builtins, and the count of an inline
statement's misses.  Each either does what the general path would, or raises _Deopt (or
returns False) before changing anything, so the statement's general path runs instead."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import MatlabError
from mlang.evaluation.compiler.assignment import append_to_growth_view, append_to_start
from mlang.values.cell import Cell
from mlang.values.indexing import owns_storage

getrefcount = sys.getrefcount


class _Deopt(Exception):
    """An inline statement's assumption does not hold: run its general path."""


# what makes an inline statement take its general path (raised before it changes anything)
_FALLBACK = (_Deopt, ZeroDivisionError, OverflowError)
_FLOAT64 = np.dtype(np.float64)
_BOOL = np.dtype(np.bool_)
ndarray = np.ndarray


def element(x: Any, k: Any) -> float:
    """``x(k)`` of a real double array with an in-range double index, else _Deopt."""
    if type(x) is ndarray and type(k) is float and x.dtype is _FLOAT64:
        shape = x.shape
        if len(shape) == 2 and k.is_integer():  # (NaN and Inf are not)
            rows, i = shape[0], int(k) - 1
            if 0 <= i < rows * shape[1]:
                # (a row's linear index is its flat one; a matrix's counts down the columns)
                return x.item(i) if rows == 1 else x.item(i % rows, i // rows)
    raise _Deopt


def number(x: Any, k: Any) -> float:
    """``x(k)`` as an operand of arithmetic or a comparison: as ``element``, and a logical
    array's element too, as 0.0 or 1.0 (what such operators make of a logical)."""
    if type(x) is ndarray and type(k) is float:
        dtype = x.dtype
        if dtype is _FLOAT64 or dtype is _BOOL:
            shape = x.shape
            if len(shape) == 2 and k.is_integer():
                rows, i = shape[0], int(k) - 1
                if 0 <= i < rows * shape[1]:
                    value = x.item(i) if rows == 1 else x.item(i % rows, i // rows)
                    return value if dtype is _FLOAT64 else float(value)
    raise _Deopt


def element2(x: Any, r: Any, c: Any) -> float:
    """``x(r, c)`` of a real double matrix with in-range double subscripts, else _Deopt."""
    if type(x) is np.ndarray and x.dtype is _FLOAT64 and x.ndim == 2 and type(r) is float \
            and type(c) is float:
        i = int(r) if r.is_integer() else 0
        j = int(c) if c.is_integer() else 0
        rows, cols = x.shape
        if i == r and j == c and 1 <= i <= rows and 1 <= j <= cols:
            return x.item(i - 1, j - 1)
    raise _Deopt


def element_at(x: Any, i: int) -> float:
    """``element`` at a literal whole index, given 0-based (``i`` >= 0): the index's checks
    were made as the loop was written."""
    if type(x) is ndarray and x.dtype is _FLOAT64:
        shape = x.shape
        if len(shape) == 2:
            rows = shape[0]
            if i < rows * shape[1]:
                return x.item(i) if rows == 1 else x.item(i % rows, i // rows)
    raise _Deopt


def number_at(x: Any, i: int) -> float:
    """``number`` at a literal whole index, given 0-based (``i`` >= 0)."""
    if type(x) is ndarray:
        dtype = x.dtype
        if dtype is _FLOAT64 or dtype is _BOOL:
            shape = x.shape
            if len(shape) == 2:
                rows = shape[0]
                if i < rows * shape[1]:
                    value = x.item(i) if rows == 1 else x.item(i % rows, i // rows)
                    return value if dtype is _FLOAT64 else float(value)
    raise _Deopt


def element2_at(x: Any, i: int, j: int) -> float:
    """``element2`` at literal whole subscripts, given 0-based (``i``, ``j`` >= 0)."""
    if type(x) is ndarray and x.dtype is _FLOAT64:
        shape = x.shape
        if len(shape) == 2 and i < shape[0] and j < shape[1]:
            return x.item(i, j)
    raise _Deopt


def number_last(x: Any) -> float:
    """``number(x, count_of(x))``: ``x(end)`` as an operand, the last element down the columns."""
    if type(x) is ndarray:
        dtype = x.dtype
        if dtype is _FLOAT64 or dtype is _BOOL:
            shape = x.shape
            if len(shape) == 2 and shape[0] and shape[1]:
                value = x.item(shape[0] - 1, shape[1] - 1)
                return value if dtype is _FLOAT64 else float(value)
    raise _Deopt


def element_last(x: Any) -> float:
    """``element(x, count_of(x))``: ``x(end)`` of a real double array."""
    if type(x) is ndarray and x.dtype is _FLOAT64:
        shape = x.shape
        if len(shape) == 2 and shape[0] and shape[1]:
            return x.item(shape[0] - 1, shape[1] - 1)
    raise _Deopt


def count_of(x: Any) -> float:
    """What ``end`` stands for in ``x(... end ...)`` with one index: the number of
    elements of an array (else _Deopt: the general path decides)."""
    if type(x) is np.ndarray:
        return float(x.size)
    raise _Deopt


def store_element2(vars: dict, name: str, r: float, c: float, v: float) -> bool:
    """``name(r, c) = v`` in place when ``name`` holds an unshared real double matrix and
    the subscripts are in range; False (nothing done) otherwise."""
    base = vars.get(name)
    # references to an unshared array: the variable's, `base`, getrefcount's argument
    if type(base) is np.ndarray and base.dtype is _FLOAT64 and getrefcount(base) <= 3 \
            and base.ndim == 2 and r.is_integer() and c.is_integer() \
            and (base.base is None or owns_storage(base)):
        rows, cols = base.shape
        if 1 <= r <= rows and 1 <= c <= cols:
            base[int(r) - 1, int(c) - 1] = v
            return True
    return False


def store_element_at(vars: dict, name: str, i: int, v: float) -> bool:
    """``store_element`` at a literal whole index, given 0-based (``i`` >= 0)."""
    base = vars.get(name)
    if type(base) is ndarray and base.dtype is _FLOAT64 and getrefcount(base) <= 3 \
            and (base.base is None or owns_storage(base)):
        shape = base.shape
        if len(shape) == 2:
            rows = shape[0]
            if i < rows * shape[1]:
                if rows == 1:
                    base[0, i] = v
                else:
                    base[i % rows, i // rows] = v
                return True
    return False


def store_element(vars: dict, name: str, k: float, v: float) -> bool:
    """``name(k) = v`` in place when ``name`` holds an unshared real double matrix and ``k``
    is in range; False (nothing done) otherwise."""
    base = vars.get(name)
    # references to an unshared array: the variable's, `base`, getrefcount's argument
    if type(base) is ndarray and base.dtype is _FLOAT64 and k.is_integer() \
            and getrefcount(base) <= 3 and (base.base is None or owns_storage(base)):
        shape = base.shape
        if len(shape) == 2:
            rows, i = shape[0], int(k) - 1
            if 0 <= i < rows * shape[1]:
                if rows == 1:
                    base[0, i] = v
                else:
                    base[i % rows, i // rows] = v
                return True
    return False


def append_element(frame: Any, vars: dict, name: str, v: float) -> bool:
    """``name(end+1) = v`` into the room left in the growth buffer of an unshared real
    double vector, or starting one from an empty vector or a scalar (``append_to_start``);
    False (nothing done) otherwise (the general path grows it)."""
    base = vars.get(name)
    if type(base) is np.ndarray and base.dtype is _FLOAT64 and getrefcount(base) <= 3:
        grown = append_to_growth_view(frame, name, base)
        if grown is not None:
            grown[-1, -1] = v
            vars[name] = grown
            return True
    return append_to_start(frame, name, base, v)


def append_cell_element(frame: Any, vars: dict, name: str, v: float) -> bool:
    """``name{end+1} = v`` into the room left in the growth buffer of an unshared cell
    vector; False (nothing done) when there is none (the general path grows it)."""
    base = vars.get(name)
    # references to an unshared cell: the variable's, `base`, getrefcount's argument;
    # to its array: the cell's, `data`, getrefcount's argument
    if type(base) is Cell and getrefcount(base) <= 3:
        data = base.data
        if getrefcount(data) <= 3:
            grown = append_to_growth_view(frame, name, data)
            if grown is not None:
                grown[-1, -1] = v
                base.data = grown
                return True
    return False


# builtins written code may call on its values: no side effects and no warnings, so that a
# call whose value is not a double (or logical) scalar may be made again by the general
# path; name -> the type of the value it gives
_PURE_BUILTINS = {
    **dict.fromkeys(("abs", "floor", "ceil", "round", "fix", "sqrt", "exp", "log", "sin", "cos",
                     "tan", "atan", "atan2", "hypot", "mod", "rem", "max", "min", "sign", "numel",
                     "length", "sum", "prod", "mean"), "float"),
    **dict.fromkeys(("isempty", "any", "all", "isnan", "isinf"), "bool"),
}


def _positional_value(interp: Any, builtin: Any, count: int) -> Callable[..., Any] | None:
    """The builtin's direct value taking ``count`` arguments as they are (its own for one or
    two, else its list-taking one behind a wrapper); None when the count does not fit."""
    positional = builtin.direct_value_of(count)
    if positional is not None:
        return positional
    listed = builtin.direct_value(interp, count)
    return None if listed is None else lambda interp, *args: listed(interp, list(args))


class PureCall:
    """``f(args)`` of a builtin in ``_PURE_BUILTINS`` from written code: the builtin's
    direct value, resolved once per path generation; _Deopt when the name means something
    else now, the arguments do not fit, it fails, or its value is not of ``kind``."""

    # values of another kind in a row after which the site stops calling: its statement
    # works on arrays, and each try would be a second call of the builtin
    MISSES = 4

    def __init__(self, interp: Any, unit: Any, name: str, count: int, kind: type) -> None:
        self.interp, self.unit, self.name, self.count, self.kind = interp, unit, name, count, kind
        self.generation = -1
        # the builtin's own function, called here as its call site would (Builtin.inline_call),
        # the argument classes that route its calls and whether it takes nargout=1; else
        # (fn None) its direct value, value(interp, *args), or None: not called
        self.fn: Callable[..., Any] | None = None
        self.routes: Any = ()
        self.one_output = False
        self.value: Callable[..., Any] | None = None
        self.misses = 0
        self.live = True  # False: stopped calling (checked before the statement's attempt)

    def resolve(self) -> None:
        interp = self.interp
        builtin = interp.builtins.get(self.name)
        self.fn = self.value = None
        if builtin is not None and interp.lookup(self.name, self.unit) is builtin:
            inline = builtin.inline_call(self.count) if self.count in (1, 2) else None
            if inline is not None:
                self.fn, self.routes, self.one_output = inline
            else:
                self.value = _positional_value(interp, builtin, self.count)
        self.generation = interp.generation

    def __call__(self, *args: Any) -> Any:
        if self.generation != self.interp.generation:
            self.resolve()
        fn = self.fn
        try:
            if fn is not None:
                routes = self.routes
                for a in args:
                    if type(a) in routes:  # (a sparse or dlarray argument: the general path)
                        raise _Deopt
                out = fn(*args, nargout=1) if self.one_output else fn(*args)
            elif self.value is not None:
                out = self.value(self.interp, *args)
            else:
                raise _Deopt
        except MatlabError:
            raise _Deopt from None
        if type(out) is not self.kind:
            self.misses += 1
            self.live = self.misses < self.MISSES
            raise _Deopt
        self.misses = 0
        return out


def _empty_row() -> np.ndarray:
    """What a for loop over an empty range leaves in its variable."""
    return np.zeros((1, 0))


class Attempts:
    """Whether a statement written inline is still tried: not after ``MISSES`` tries whose
    values were not what the inline code takes (a statement on arrays), each of which costs
    reading and checking before the general path runs.  (Tries that succeed are not
    counted: that would cost every inline statement a store.)"""

    MISSES = 16
    __slots__ = ("live", "misses")

    def __init__(self) -> None:
        self.live = True
        self.misses = 0

    def missed(self) -> bool:
        """Count a miss; whether the statement is still tried."""
        self.misses += 1
        if self.misses >= self.MISSES:
            self.live = False
        return self.live


# Rows of two to four double scalars, as np.array([[a, b, ...]]) makes them (the same values,
# C-ordered): an empty row filled element by element takes about two thirds of its time.
def row2(a: float, b: float) -> np.ndarray:
    out = _empty((1, 2))
    out[0, 0] = a
    out[0, 1] = b
    return out


def row3(a: float, b: float, c: float) -> np.ndarray:
    out = _empty((1, 3))
    out[0, 0] = a
    out[0, 1] = b
    out[0, 2] = c
    return out


def row4(a: float, b: float, c: float, d: float) -> np.ndarray:
    out = _empty((1, 4))
    out[0, 0] = a
    out[0, 1] = b
    out[0, 2] = c
    out[0, 3] = d
    return out


ROW_MAKERS = {2: "row2", 3: "row3", 4: "row4"}  # (their names in written code)
_empty = np.empty
