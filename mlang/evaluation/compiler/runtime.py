"""What compiled code shares while it runs: locating errors, truth values, markers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.errors import InternalError, MatlabError, MatlabSyntaxError, StackFrame, error
from mlang.evaluation.frame import BreakLoop, ContinueLoop, Frame, ReturnFromFunction
from mlang.values import operators
from mlang.values.core import class_of, is_true, scalar_value
from mlang.values.limits import out_of_memory

Code = Callable[[Frame], Any]
MISSING = object()  # no value: an unset variable, or no array for `end` to measure (a call)
CONTROL = (BreakLoop, ContinueLoop, ReturnFromFunction)


def constant_code(value: Any) -> Code:
    """Code giving ``value`` (the same object) every time; ``constant_of`` knows it."""
    def constant(frame: Frame) -> Any:
        return value

    constant.literal_value = value  # type: ignore[attr-defined]
    return constant


def constant_of(code: Code) -> Any:
    """The value of code made by ``constant_code``, else MISSING."""
    return getattr(code, "literal_value", MISSING)


def locate(exc: BaseException, frame: Frame, line: int) -> None:
    """Record, once per frame, where a MATLAB error passed through this frame."""
    if isinstance(exc, MatlabError):
        if getattr(exc, "located", None) is not frame:
            exc.located = frame  # type: ignore[attr-defined]
            unit = frame.unit
            exc.exc.stack.append(StackFrame(unit.file if unit else "", frame.name or
                                            (unit.name if unit else ""), line))


def _internal(exc: Exception, frame: Frame, line: int) -> InternalError:
    unit = frame.unit
    where = f"{unit.file if unit else '<input>'} (line {line})"
    err = InternalError(f"{type(exc).__name__}: {exc} [at {where}]")
    err.__cause__ = exc
    err.original = exc
    err.line = line  # type: ignore[attr-defined]
    return err


def located(exc: BaseException, frame: Frame, line: int) -> BaseException:
    """What to raise when a statement at ``line`` failed with ``exc``.

    MATLAB errors get their location; control flow passes through; a Python
    exception from inside mlang becomes a clearly marked internal error.
    """
    if isinstance(exc, MatlabError):
        locate(exc, frame, line)
        return exc
    if isinstance(exc, (*CONTROL, InternalError, KeyboardInterrupt, MatlabSyntaxError,
                        BrokenPipeError)):
        return exc  # (a closed output pipe ends the run: the command line handles it)
    if isinstance(exc, MemoryError):  # an allocation no size check foresaw
        err = out_of_memory()
        locate(err, frame, line)
        return err
    if isinstance(exc, RecursionError):
        return error("MATLAB:recursionLimit",
                     "Maximum recursion limit reached. Use set(0,'RecursionLimit',N) to change "
                     "the limit.")
    if isinstance(exc, Exception):
        return _internal(exc, frame, line)
    return exc


def run_statements(stmts: list[Code], lines: list[int], frame: Frame) -> None:
    """Run compiled statements, recording where an error happened."""
    s = None
    try:
        for s in stmts:
            s(frame)
    except BaseException as exc:
        raise located(exc, frame, lines[stmts.index(s)]) from None


def truth(v: Any) -> bool:
    """Is a condition (``if``, ``while``) true?"""
    t = type(v)
    if t is bool:
        return v
    if t is float:
        if v != v:
            raise error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        return v != 0.0
    return is_true(v)


def scalar_truth(v: Any, op: str) -> bool:
    """Operand of && or ||: must be a logical scalar (or convertible)."""
    t = type(v)
    if t is bool:
        return v
    if t is float:
        return truth(v)
    if t is np.ndarray and v.size == 1 and class_of(v) in operators.ARITHMETIC_CLASSES:
        x = v.reshape(-1)[0]
        return truth(scalar_value(v) if v.dtype.kind == "V"
                     else complex(x) if v.dtype.kind == "c" else float(x))
    if t is DlArray:
        return scalar_truth(v.data, op)
    raise error("MATLAB:nonLogicalConditional",
                "Operands to the || and && operators must be convertible to logical scalar values.")
