"""The interpreter running in this thread/context, for code far from it (warnings).

A context variable, not a global: two interpreters in one process each set it
while they run.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

CURRENT: ContextVar[Any] = ContextVar("mlang_interpreter", default=None)


def current() -> Any:
    return CURRENT.get()


def warn(identifier: str, message: str) -> None:
    """Issue a MATLAB warning through the running interpreter (if any)."""
    interp = CURRENT.get()
    if interp is not None:
        interp.warn(identifier, message)
