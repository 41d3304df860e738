"""Errors that mlang reports to users, rendered in MATLAB's layout."""

from __future__ import annotations

import os
from contextvars import ContextVar
from typing import Any

# MATLAB's wording for the syntax errors users meet most often.
INVALID_EXPRESSION = (
    "Invalid expression. Check for missing multiplication operator, missing or unbalanced "
    "delimiters, or other syntax error. To construct matrices, use brackets instead of parentheses."
)
UNBALANCED = "Unbalanced or unexpected parenthesis or bracket."
INVALID_OPERATOR = "Invalid use of operator."
INVALID_CHARACTER = "The input character is not valid in MATLAB statements or expressions."
MISSING_END = "At least one END is missing: the statement may begin here."
BAD_ASSIGN = (
    "Incorrect use of '=' operator. To assign a value to a variable, use '='. "
    "To compare values for equality, use '=='."
)


# How deeply brackets, blocks and anonymous functions may nest: deeper input is
# refused as a syntax error instead of exhausting the stack of the tree walks.
NESTING_LIMIT = 500


def nesting_too_deep() -> str:
    return f"Nesting of {{, [, and ( cannot exceed a depth of {NESTING_LIMIT}."


def reserved_keyword(word: str) -> str:
    return f'Illegal use of reserved keyword "{word}".'


def parse_error_at(text: str) -> str:
    return f"Parse error at '{text}': usage might be invalid MATLAB syntax."


class MatlabSyntaxError(Exception):
    """A syntax error with the place it was found.

    ``str()`` gives MATLAB's layout: a ``File: … Line: … Column: …`` header
    (for code from a file), the message, then the offending line with a caret.
    """

    def __init__(self, message: str, file: str = "", line: int = 0, col: int = 0,
                 source_line: str | None = None, incomplete: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.source_line = source_line
        self.incomplete = incomplete  # the code stopped short: more lines could finish it

    def __str__(self) -> str:
        parts = []
        if self.file:
            name = os.path.basename(self.file)
            parts.append(f"Error: File: {name} Line: {self.line} Column: {self.col}")
            parts.append(self.message)
        else:
            parts.append(f"Error: {self.message}")
        if self.source_line is not None:
            text = self.source_line.expandtabs(1)
            parts.append(text)
            parts.append(" " * max(self.col - 1, 0) + "^")
        return "\n".join(parts)


# ------------------------------------------------------------ runtime errors


class StackFrame:
    """One entry of an MException's stack: where the error passed."""

    __slots__ = ("file", "name", "line")

    def __init__(self, file: str, name: str, line: int) -> None:
        self.file = file
        self.name = name
        self.line = line


class MException:
    """MATLAB's MException object: identifier, message, stack and causes.

    The error record every layer raises.  Its behaviour as a MATLAB value
    (``ME.identifier``, ``ME.stack``, ``ME.getReport()``, its display) is
    ``mlang.values.exception.ExceptionObject``.
    """

    matlab_class = "MException"

    def __init__(self, identifier: str, message: str) -> None:
        self.identifier = identifier
        self.message = message
        self.stack: list[StackFrame] = []
        self.cause: list[MException] = []
        self._function = ""  # the function named in "Error using ..."
        self.caller_named = False

    @property
    def function(self) -> str:
        return self._function

    @function.setter
    def function(self, name: str) -> None:
        # error()/throw() name the function that called them; the call machinery,
        # which labels errors with the builtin that raised them, must not rename them.
        if not self.caller_named:
            self._function = name

    def name_caller(self, name: str) -> None:
        """Fix the function shown in "Error using ..." (empty: none, as for a script)."""
        self._function = name
        self.caller_named = True

    @property
    def shape(self) -> tuple[int, int]:
        return (1, 1)

    def copy(self) -> MException:
        """A copy with its own stack and cause lists (MException values do not alias)."""
        other = MException(self.identifier, self.message)
        other.stack = list(self.stack)
        other.cause = list(self.cause)
        other._function = self._function
        other.caller_named = self.caller_named
        return other

    def __repr__(self) -> str:
        return f"MException({self.identifier!r}, {self.message!r})"


class MatlabError(Exception):
    """A MATLAB runtime error travelling through Python: carries its MException."""

    def __init__(self, identifier: str | MException, message: str = "") -> None:
        exc = identifier if isinstance(identifier, MException) else MException(identifier, message)
        super().__init__(exc.message)
        self.exc = exc

    @property
    def identifier(self) -> str:
        return self.exc.identifier

    @property
    def message(self) -> str:
        return self.exc.message


def error(identifier: str, message: str) -> MatlabError:
    """A MatlabError to raise: ``raise error('MATLAB:badsubscript', '...')``."""
    return MatlabError(identifier, message)


class InternalError(Exception):
    """A bug in mlang itself surfacing during MATLAB code; reported as an internal error.

    ``original`` is the Python exception, with the frames where it was raised
    (kept apart from ``__cause__``, which ``raise ... from None`` clears).
    """

    original: BaseException | None = None


class ExitRequest(BaseException):
    """``exit`` / ``quit`` ran: the front end ends the session with ``status``.

    A BaseException so that neither MATLAB's try/catch nor internal-error
    handling stops it on its way out.
    """

    def __init__(self, status: int = 0) -> None:
        super().__init__(status)
        self.status = status


def report(exc: MException, read_line: object = None) -> str:
    """MATLAB's layout for an uncaught error.

    ``Error using fn`` (when a function raised it), the message, then one
    ``Error in name (line N)`` frame per caller, each with its source line.
    """
    lines = []
    if exc.function:
        lines.append(f"Error using {exc.function}")
    lines.append(exc.message)
    for frame in exc.stack:
        if not frame.file and not frame.name:
            continue
        lines.append("")
        name = frame.name or os.path.splitext(os.path.basename(frame.file))[0]
        lines.append(f"Error in {name} (line {frame.line})")
        if callable(read_line) and frame.file:
            text = read_line(frame.file, frame.line)
            if text:
                lines.append(text)
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------ warnings

# The interpreter running in this context, for code far from it (warnings).  A context
# variable, not a global: two interpreters in one process each set it while they run.
RUNNING: ContextVar[Any] = ContextVar("mlang_interpreter", default=None)


def running_interpreter() -> Any:
    """The interpreter running MATLAB code in this context (None outside one)."""
    return RUNNING.get()


def warn(identifier: str, message: str) -> None:
    """Issue a MATLAB warning through the running interpreter (if any)."""
    interp = RUNNING.get()
    if interp is not None:
        interp.warn(identifier, message)
