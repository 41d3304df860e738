"""Workspaces and the signals that carry control flow through compiled code."""

from __future__ import annotations

from typing import Any

# how deep user function calls may nest (MATLAB's default recursion limit)
RECURSION_LIMIT = 500


class Frame:
    """One workspace: the base workspace or a function call's.

    ``vars`` maps names to values.  ``end_stack`` holds what ``end`` refers to
    while index arguments are evaluated; ``persistent`` is the calling
    function's persistent store.  What most calls never set (``growth``,
    ``outer``, ``end_stack``, ``global_names``) is not made for each
    call: a class default, or made on first use.
    """

    __slots__ = ("vars", "interp", "unit", "function", "nargin", "nargout", "persistent", "label",
                 "__dict__")

    growth: dict | None = None  # variables held as views of growth buffers (weak refs)
    outer: Frame | None = None  # for a nested function: its parent's workspace
    line = 0  # the line of the statement running (for error locations)

    def __init__(self, interp: Any, unit: Any = None, function: Any = None,
                 nargin: int = 0, nargout: int = 0, vars: dict[str, Any] | None = None,
                 persistent: dict[str, Any] | None = None, label: str = "") -> None:
        self.vars: dict[str, Any] = {} if vars is None else vars
        self.interp = interp
        self.unit = unit  # the compiled file whose local functions are visible here
        self.function = function  # the UserFunction running in this frame (None: base workspace)
        self.nargin = nargin
        self.nargout = nargout
        self.persistent = persistent
        self.label = label  # the name of a workspace that runs no function (an anonymous one's)

    @property
    def end_stack(self) -> list[tuple[Any, int, int]]:
        try:
            return self._end_stack
        except AttributeError:
            stack = self._end_stack = []
            return stack

    @property
    def global_names(self) -> set[str]:
        try:
            return self._global_names
        except AttributeError:
            names = self._global_names = set()
            return names

    @property
    def name(self) -> str:
        return self.function.name if self.function is not None else self.label


class BreakLoop(Exception):
    pass


class ContinueLoop(Exception):
    pass


class ReturnFromFunction(Exception):
    pass
