"""Errors and warnings: error, MException and its methods (throw, rethrow,
throwAsCaller, addCause, getReport; ``ME.name`` is mlang.values.exception),
assert, warning (messages and on/off state) and lastwarn."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none, text_scalar
from mlang.builtins.text.printing import format_text
from mlang.errors import MatlabError, MException, error, report
from mlang.registry import builtin
from mlang.values.core import char_row, is_text, is_true, to_str
from mlang.values.struct import Struct

# "component:component[:...]": how error/warning/assert tell an identifier from a message
_IDENTIFIER = re.compile(r"^[A-Za-z][\w-]*(:[\w-]+)+$")


def is_identifier(text: str) -> bool:
    """Is ``text`` a message identifier (``component:mnemonic``)?"""
    return bool(_IDENTIFIER.match(text))


def _identifier_and_message(args: tuple | list) -> tuple[str, str]:
    """error/warning/assert arguments: ``(msg)``, ``(fmt, A...)`` or ``(id, fmt, A...)``.

    A lone argument is the message as it stands; with more than one, the
    message is a format, and a first argument shaped like an identifier is one.
    """
    first = text_scalar(args[0], "Message")
    if len(args) == 1:
        return "", first
    if is_identifier(first):
        return first, format_text(text_scalar(args[1], "Message"), list(args[2:]))
    return "", format_text(first, list(args[1:]))


def _raise(interp: Any, exc: MException, skip_frames: int = 0) -> None:
    """Throw ``exc`` from the calling code (``skip_frames`` 1: from the caller's caller)."""
    frames = interp.frames
    caller = frames[-1 - skip_frames] if len(frames) > skip_frames else frames[0]
    exc.name_caller(caller.name)
    err = MatlabError(exc)
    if skip_frames:
        # The stack starts at the caller's caller: the calling frame records nothing.
        err.located = frames[-1]  # type: ignore[attr-defined]
    raise err


# ------------------------------------------------------------------- errors


@builtin(interp=True, max_out=0, dl="data")
def error_(interp: Any, *args: Any) -> None:
    """error(msg) throws an error with message msg.

    error(fmt, A1, ..., An) formats the message as sprintf does.
    error(errID, fmt, A1, ..., An) also sets the identifier (component:mnemonic).
    error(errorStruct) uses the fields message and identifier.
    An empty message throws nothing."""
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    if type(args[0]) is Struct:
        if len(args) > 1:
            raise error("MATLAB:TooManyInputs", "Too many input arguments.")
        identifier, message = _struct_error(args[0])
    elif type(args[0]) is np.ndarray and args[0].size == 0 and len(args) == 1:
        return None
    else:
        identifier, message = _identifier_and_message(args)
    if not message:
        return None
    _raise(interp, MException(identifier, message))
    return None


def _struct_error(s: Struct) -> tuple[str, str]:
    if s.elems.size == 0:
        return "", ""
    fields = s.element(0)
    return text_or_none(fields.get("identifier")) or "", text_or_none(fields.get("message")) or ""


@builtin(name="MException")
def mexception(identifier: Any, fmt: Any, *args: Any) -> MException:
    """ME = MException(errID, msg, A1, ..., An) creates an exception object.

    The message is formatted as sprintf does; throw(ME) throws it."""
    ident = text_scalar(identifier, "Identifier")
    if ident and not is_identifier(ident):
        raise error("MATLAB:MException:InvalidIdentifier",
                    f"The identifier \"{ident}\" is not a valid message identifier.")
    return MException(ident, format_text(text_scalar(fmt, "Message"), list(args)))


def _exception(v: Any) -> MException:
    if type(v) is MException:
        return v
    if type(v) is Struct:  # rethrow(errorStruct), the pre-MException form
        identifier, message = _struct_error(v)
        return MException(identifier, message)
    raise error("MATLAB:invalidInput", "Input must be an MException object.")


@builtin(interp=True, max_out=0)
def throw(interp: Any, exc: Any) -> None:
    """throw(ME) throws the exception ME; its stack starts where throw is called."""
    thrown = _exception(exc).copy()
    thrown.stack = []
    _raise(interp, thrown)


@builtin(interp=True, max_out=0)
def rethrow(interp: Any, exc: Any) -> None:
    """rethrow(ME) throws ME again, keeping the stack of where it was first thrown."""
    again = _exception(exc).copy()
    err = MatlabError(again)
    # The stack already holds this frame (where the error was caught): do not add it twice.
    err.located = interp.frames[-1]  # type: ignore[attr-defined]
    raise err


@builtin(interp=True, max_out=0)
def throwAsCaller(interp: Any, exc: Any) -> None:
    """throwAsCaller(ME) throws ME as if from the caller of the running function."""
    thrown = _exception(exc).copy()
    thrown.stack = []
    _raise(interp, thrown, skip_frames=1)


@builtin()
def addCause(exc: Any, cause: Any) -> MException:
    """ME = addCause(ME, causeException) records causeException as a cause of ME."""
    if type(exc) is not MException or type(cause) is not MException:
        raise error("MATLAB:invalidInput", "Inputs must be MException objects.")
    out = exc.copy()
    out.cause.append(cause)
    return out


@builtin()
def getReport(exc: Any, *options: Any) -> np.ndarray:
    """msg = getReport(ME) is the error report MATLAB prints for ME.

    getReport(ME, 'basic') gives only the "Error using" line and the message."""
    me = _exception(exc)
    kind = text_scalar(options[0]).lower() if options else "extended"
    if kind == "basic":
        text = (f"Error using {me.function}\n" if me.function else "") + me.message
    else:
        text = report(me).rstrip("\n")
    return char_row(text)


@builtin(name="assert", interp=True, max_out=0, dl="data")
def assert_(interp: Any, cond: Any, *args: Any) -> None:
    """assert(cond) throws an error when cond is false.

    assert(cond, msg), assert(cond, fmt, A1, ..., An) and
    assert(cond, errID, fmt, A1, ..., An) set the message and identifier."""
    if type(cond) not in (bool, float) and not (type(cond) is np.ndarray and cond.dtype.kind in "fiub"):
        raise error("MATLAB:assertion:LogicalScalar",
                    "Condition input must be a scalar logical or a numeric value.")
    if is_true(cond):
        return None
    if args:
        identifier, message = _identifier_and_message(args)
    else:
        identifier, message = "MATLAB:assertion:failed", "Assertion failed."
    raise error(identifier, message)


# ----------------------------------------------------------------- warnings


_WARNING_STATES = ("on", "off", "query")


@builtin(interp=True, max_out=1, nargout=True, dl="data")
def warning(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """warning(msg) displays "Warning: msg" on standard error.

    warning(fmt, A1, ..., An) and warning(warnID, fmt, A1, ..., An) format it.
    warning('off', warnID) and warning('on', warnID) disable and enable a
    warning; warning('off', 'all') disables all of them. warning('query', warnID)
    and s = warning(...) give the state as a struct (identifier, state);
    warning(s) restores a saved state."""
    if not args:
        return _state_struct(interp, ["all"]) if nargout else None
    if type(args[0]) is Struct:
        _restore_states(interp, args[0])
        return None
    first = text_scalar(args[0], "Message")
    if first.lower() in _WARNING_STATES and len(args) <= 2:
        ids = ["all"] if len(args) == 1 else [text_scalar(args[1], "Identifier")]
        previous = _state_struct(interp, ids)
        if first.lower() != "query":
            for ident in ids:
                _set_warning(interp, ident, first.lower())
        elif not nargout:
            state = _warning_state(interp, ids[0])
            interp.write(f"The state of warning '{ids[0]}' is '{state}'.\n" if ids[0] != "all"
                         else f"All warnings have the state '{state}'.\n")
        return previous if nargout else None
    identifier, message = _identifier_and_message(args)
    if message:
        interp.warn(identifier, message)
        interp.err.flush()  # keep the warning in order with the output around it
    return None


def _warning_state(interp: Any, identifier: str) -> str:
    off = interp.warnings_off
    return "off" if "all" in off or identifier in off else "on"


def _set_warning(interp: Any, identifier: str, state: str) -> None:
    if identifier in ("backtrace", "verbose"):
        return  # display modes: mlang prints no backtraces
    off = interp.warnings_off
    if identifier == "all":
        off.clear()
        if state == "off":
            off.add("all")
    elif state == "off":
        off.add(identifier)
    else:
        off.discard(identifier)


def _state_struct(interp: Any, identifiers: list[str]) -> Struct:
    elems = np.empty((len(identifiers), 1), dtype=object)
    for i, ident in enumerate(identifiers):
        elems[i, 0] = {"identifier": char_row(ident), "state": char_row(_warning_state(interp, ident))}
    return Struct(["identifier", "state"], elems)


def _restore_states(interp: Any, states: Struct) -> None:
    if not {"identifier", "state"} <= set(states.fields):
        raise error("MATLAB:warning:invalidInput",
                    "Warning state structure must have fields 'identifier' and 'state'.")
    for fields in states.elems.ravel(order="F"):
        ident, state = fields["identifier"], fields["state"]
        if not (is_text(ident) and is_text(state)):
            raise error("MATLAB:warning:invalidInput",
                        "Warning state structure must contain text values.")
        _set_warning(interp, to_str(ident), to_str(state).lower())


@builtin(interp=True, max_out=2, nargout=True)
def lastwarn(interp: Any, message: Any = None, identifier: Any = None, *, nargout: int = 1) -> Any:
    """[msg, warnID] = lastwarn gives the last warning's message and identifier.

    lastwarn(msg, warnID) sets them."""
    old_message, old_id = interp.lastwarn
    if message is not None:
        interp.lastwarn = (text_scalar(message), text_scalar(identifier) if identifier is not None else "")
    out = (char_row(old_message), char_row(old_id))
    return out if nargout >= 2 else out[0]
