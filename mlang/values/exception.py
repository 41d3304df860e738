"""MException as a MATLAB value: its properties, methods and display.

The exception record itself is ``mlang.errors.MException`` (the ground floor,
raised by every layer); this kind speaks for it in the values layer.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from mlang.errors import MException, running_interpreter
from mlang.values.cell import Cell
from mlang.values.core import EMPTY, char_row
from mlang.values.handle import FunctionHandle
from mlang.values.objects import DisplayText, MatlabObject
from mlang.values.struct import Struct

PROPERTIES = ("identifier", "message", "cause", "stack", "Correction")
# Methods are the builtins of these names, called with the exception first.
METHODS = ("getReport", "addCause", "throw", "rethrow", "throwAsCaller")
THROWING = ("throw", "rethrow", "throwAsCaller")


class ExceptionObject(MatlabObject):
    """The behaviour of an ``MException`` value (hooks take the MException as ``self``)."""

    represents = MException
    matlab_class = "MException"

    def property_names(self) -> list[str]:
        return list(PROPERTIES)

    def get_property(self: Any, name: str) -> Any:
        if name == "identifier":
            return char_row(self.identifier)
        if name == "message":
            return char_row(self.message)
        if name == "cause":
            return _cell_column(self.cause)
        if name == "stack":
            return stack_struct(self)
        if name == "Correction":
            return EMPTY
        if name in METHODS:
            return _method_value(self, name)
        return MatlabObject.get_property(self, name)

    def display_properties(self: Any) -> list[tuple[str, Any]]:
        causes = f"{{{len(self.cause)}\u00d71 cell}}" if self.cause else "{}"
        return [
            ("identifier", DisplayText(f"'{self.identifier}'")),
            ("message", DisplayText(f"'{self.message}'")),
            ("cause", DisplayText(causes)),
            ("stack", DisplayText(f"[{len(self.stack)}\u00d71 struct]")),
            ("Correction", DisplayText("[]")),
        ]


def stack_struct(exc: MException) -> Struct:
    """``ME.stack``: an n-by-1 struct array with fields file, name and line."""
    frames = [f for f in exc.stack if f.file or f.name]
    elems = np.empty((len(frames), 1), dtype=object)
    for i, f in enumerate(frames):
        name = f.name or os.path.splitext(os.path.basename(f.file))[0]
        elems[i, 0] = {"file": char_row(f.file), "name": char_row(name), "line": float(f.line)}
    return Struct(["file", "name", "line"], elems)


def _cell_column(values: list) -> Cell:
    data = np.empty((len(values), 1), dtype=object)
    for i, v in enumerate(values):
        data[i, 0] = v
    return Cell(data)


def _method_value(exc: MException, name: str) -> Any:
    """``ME.name`` for a method: throwing ones act at once, the others give a handle that
    calls the builtin ``name`` with the exception first (so ``ME.getReport()`` works)."""
    interp = running_interpreter()
    target = interp.builtins[name]
    if name in THROWING:
        target.call(interp, [exc], 0)

    def body(frame: Any, nargout: int) -> list:
        extra = frame.vars["varargin"].values()
        return target.call(interp, [exc, *extra], max(nargout, 1))

    return FunctionHandle(params=["varargin"], body=body, captured={},
                          text=f"@(varargin){name}(ME,varargin{{:}})")
