"""Room on CPython's frame stack for the calls of a MATLAB program.

CPython (3.11 on) keeps Python frames in chunks of 16 KiB and frees a chunk as
soon as the stack shrinks back below its start.  A recursion that goes back and
forth across the end of a chunk (a recursive MATLAB function, a call nested a
few levels deep in a loop) then maps and unmaps memory on every call: such
calls cost two to three times more, depending only on how deep the Python stack
happened to be when the program started.  ``with_room`` runs a function from a
frame that reserves a large stack area; CPython gives that frame a chunk of
twice its size, so the frames of the MATLAB calls below it fit in the rest of
that chunk.  The reserved slots are never written, so their pages cost no
memory.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

# the frame's unused stack slots (8 bytes each): 4 MiB, in a chunk of 8 MiB
RESERVED_SLOTS = 1 << 19


def _call(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


_roomy_call = types.FunctionType(
    _call.__code__.replace(co_stacksize=_call.__code__.co_stacksize + RESERVED_SLOTS),
    _call.__globals__, "roomy_call")


def with_room(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, its calls made in a stack chunk of their own (see the module's text)."""
    return _roomy_call(fn, *args)
