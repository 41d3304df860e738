"""Workspaces and the signals that carry control flow through compiled code."""

from __future__ import annotations

from typing import Any


class Frame:
    """One workspace: the base workspace or a function call's.

    ``vars`` maps names to values.  ``end_stack`` holds what ``end`` refers to
    while index arguments are evaluated; ``persistent`` is the calling
    function's persistent store.
    """

    __slots__ = ("vars", "interp", "unit", "function", "nargin", "nargout", "end_stack",
                 "global_names", "persistent", "line", "growth", "outer", "label")

    def __init__(self, interp: Any, unit: Any = None, function: Any = None,
                 nargin: int = 0, nargout: int = 0) -> None:
        self.vars: dict[str, Any] = {}
        self.interp = interp
        self.unit = unit  # the compiled file whose local functions are visible here
        self.function = function  # the UserFunction running in this frame (None: base workspace)
        self.nargin = nargin
        self.nargout = nargout
        self.end_stack: list[tuple[Any, int, int]] = []
        self.global_names: set[str] = set()
        self.persistent: dict[str, Any] | None = None
        self.line = 0  # the line of the statement running (for error locations)
        self.growth: dict | None = None  # variables held as views of growth buffers (weak refs)
        self.outer: Frame | None = None  # for a nested function: its parent's workspace
        self.label = ""  # the name of a workspace that runs no function (an anonymous one's)

    @property
    def name(self) -> str:
        return self.function.name if self.function is not None else self.label


class BreakLoop(Exception):
    pass


class ContinueLoop(Exception):
    pass


class ReturnFromFunction(Exception):
    pass
