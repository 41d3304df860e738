"""The code of one binary operator: double scalars computed inline, a double array with a
double scalar handed to its NumPy function directly, anything else to ``operators.binary``.

Operands that are a plain variable or a constant are read directly instead of through a
closure.  A constant meeting a double array goes to NumPy as a 0-d double array made once:
NumPy converts a Python float on every call (about a third of a short array's operation),
and the double loop it runs is the same, so the values are the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.evaluation.compiler.runtime import Code
from mlang.evaluation.frame import Frame
from mlang.values import operators
from mlang.values.double_arithmetic import F64
from mlang.values.operators import ARRAY_BY_SCALAR_FAST, SCALAR_BY_ARRAY_FAST, SCALAR_GUARDS, SCALAR_OPS

_ndarray = np.ndarray


def _array_by_scalar(op: str, b: float) -> Any:
    """NumPy's function of a 2-D double array and the double constant ``b`` for ``op``, as
    ``operators.binary`` computes it; None when it takes another path."""
    if op == ".^" and b == 2.0:
        return lambda a, _: np.square(a)  # (binary squares for .^2)
    return ARRAY_BY_SCALAR_FAST.get(op)


def binary_code(op: str, left: Code, right: Code, var_l: str | None, var_r: str | None,
                const_l: float | None, const_r: float | None) -> Code:
    """The code of ``left op right`` (``var_*``: the operand's variable name, ``const_*``: its
    double value, when it is one), for an operator of SCALAR_OPS."""
    general = operators.binary
    scalar = SCALAR_OPS[op]
    guard = SCALAR_GUARDS.get(op)
    if const_l is not None and guard is None:
        return _constant_first(op, const_l, var_r, right, scalar)
    if const_r is not None:
        return _constant_second(op, left, var_l, const_r, scalar, guard)
    array_fast = ARRAY_BY_SCALAR_FAST.get(op)
    if var_l is not None and var_r is not None and guard is None:
        def var_var(frame: Frame) -> Any:
            vars = frame.vars
            try:
                a = vars[var_l]
            except KeyError:
                a = left(frame)
            try:
                b = vars[var_r]
            except KeyError:
                b = right(frame)
            if type(b) is float:
                if type(a) is float:
                    return scalar(a, b)
                if type(a) is _ndarray and array_fast is not None and a.dtype is F64 and a.ndim == 2:
                    out = array_fast(a, b)
                    return out.item() if out.size == 1 else out
            return general(op, a, b)
        return var_var
    if var_l is not None and guard is None:
        def var_any(frame: Frame) -> Any:
            try:
                a = frame.vars[var_l]
            except KeyError:
                a = left(frame)
            b = right(frame)
            if type(a) is float and type(b) is float:
                return scalar(a, b)
            return general(op, a, b)
        return var_any
    if guard is None:
        def any_any(frame: Frame) -> Any:
            a = left(frame)
            b = right(frame)
            if type(a) is float and type(b) is float:
                return scalar(a, b)
            return general(op, a, b)
        return any_any

    def guarded(frame: Frame) -> Any:
        a = left(frame)
        b = right(frame)
        if type(a) is float and type(b) is float and guard(a, b):
            try:
                return scalar(a, b)
            except (OverflowError, ZeroDivisionError):
                pass
        return general(op, a, b)
    return guarded


def _constant_first(op: str, const: float, var: str | None, right: Code, scalar: Any) -> Code:
    """``2 * v``: a double constant and an operand (a variable when ``var``), for an
    operator without a guard."""
    general = operators.binary
    fast = SCALAR_BY_ARRAY_FAST.get(op)
    boxed = np.array(const)  # NumPy's 0-d form, made once (see the module's note)
    if var is None:
        def const_any(frame: Frame) -> Any:
            b = right(frame)
            if type(b) is float:
                return scalar(const, b)
            if type(b) is _ndarray and fast is not None and b.dtype is F64 and b.ndim == 2:
                out = fast(boxed, b)
                return out.item() if out.size == 1 else out
            return general(op, const, b)
        return const_any

    def const_var(frame: Frame) -> Any:
        try:
            b = frame.vars[var]
        except KeyError:
            b = right(frame)
        if type(b) is float:
            return scalar(const, b)
        if type(b) is _ndarray and fast is not None and b.dtype is F64 and b.ndim == 2:
            out = fast(boxed, b)
            return out.item() if out.size == 1 else out
        return general(op, const, b)
    return const_var


def _constant_second(op: str, left: Code, var: str | None, const: float, scalar: Any,
                     guard: Any) -> Code:
    """``v / 2``: an operand (a variable when ``var``) and a double constant."""
    general = operators.binary
    fast = _array_by_scalar(op, const)
    boxed = np.array(const)

    def on_scalar(a: float) -> Any:
        if guard is None or guard(a, const):
            try:
                return scalar(a, const)
            except (OverflowError, ZeroDivisionError):
                pass
        return general(op, a, const)

    if var is None:
        def any_const(frame: Frame) -> Any:
            a = left(frame)
            if type(a) is float:
                return scalar(a, const) if guard is None else on_scalar(a)
            if type(a) is _ndarray and fast is not None and a.dtype is F64 and a.ndim == 2:
                out = fast(a, boxed)
                return out.item() if out.size == 1 else out
            return general(op, a, const)
        return any_const

    def var_const(frame: Frame) -> Any:
        try:
            a = frame.vars[var]
        except KeyError:
            a = left(frame)
        if type(a) is float:
            return scalar(a, const) if guard is None else on_scalar(a)
        if type(a) is _ndarray and fast is not None and a.dtype is F64 and a.ndim == 2:
            out = fast(a, boxed)
            return out.item() if out.size == 1 else out
        return general(op, a, const)
    return var_const
