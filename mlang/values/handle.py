"""Function handles: named (``@sin``) and anonymous (``@(x) x.^2``)."""

from __future__ import annotations

from typing import Any

from mlang.values.objects import MatlabObject


class FunctionHandle(MatlabObject):
    """A callable MATLAB value.

    A named handle resolves ``name`` when called (``target`` caches the
    function found where the handle was made, for local functions). An
    anonymous one holds its parameters, its compiled body and the values of
    the variables it captured when it was created.
    """

    matlab_class = "function_handle"
    __slots__ = ("name", "target", "params", "body", "captured", "text", "node", "scope")

    def __init__(self, name: str = "", target: Any = None, params: list[str | None] | None = None,
                 body: Any = None, captured: dict | None = None, text: str = "",
                 node: Any = None, scope: Any = None) -> None:
        self.name = name
        self.target = target
        self.params = params
        self.body = body
        self.captured = captured
        self.text = text  # the source of an anonymous function
        self.node = node  # its syntax tree (ast.Lambda), for func2str and display
        self.scope = scope  # for a handle to a nested function: the frame it was made in

    @property
    def shape(self) -> tuple[int, int]:
        return (1, 1)

    def call(self, interp: Any, args: list, nargout: int, frame: Any = None) -> list:
        """Call the handle (the Callable interface)."""
        return interp.call_handle(self, args, nargout)

    @property
    def is_anonymous(self) -> bool:
        return self.params is not None

    def __repr__(self) -> str:
        return f"FunctionHandle({self.text or '@' + self.name})"
