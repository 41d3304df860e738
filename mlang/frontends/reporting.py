"""Running code for a front end and reporting what went wrong the way MATLAB does.

The command line, the Command Window and piped input all run code through
``run_reported``: a syntax error, an uncaught MATLAB error, a bug in mlang or
Ctrl-C is printed on the interpreter's error stream and the session stays usable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlang.errors import InternalError, MatlabError, MatlabSyntaxError, report

INTERRUPTED = "Operation terminated by user."


def read_source_line(file: str, line: int) -> str:
    """Line ``line`` of ``file`` (for the ``Error in`` lines of a report); '' when unreadable."""
    try:
        with open(file, encoding="utf-8", errors="replace") as f:
            for i, text in enumerate(f, 1):
                if i == line:
                    return text.rstrip("\n")
    except OSError:
        pass
    return ""


def run_reported(interp: Any, action: Callable[[], object], debug: bool = False) -> BaseException | None:
    """Run ``action``; print any failure in MATLAB's layout on ``interp.err``.

    Returns None when the code finished, else the exception that stopped it
    (a KeyboardInterrupt for Ctrl-C).  ``exit`` (ExitRequest) and a closed
    output pipe pass through to the caller.
    """
    try:
        action()
        return None
    except MatlabSyntaxError as exc:
        _end_output_line(interp)
        _write_error(interp, f"{exc}\n")
        return exc
    except MatlabError as exc:
        _end_output_line(interp)
        # a file that failed to parse as code ran (evaluation's FileSyntaxError): shown
        # in the syntax error's own layout, as when the file itself is run
        syntax = getattr(exc, "syntax", None)
        text = f"{syntax}\n" if isinstance(syntax, MatlabSyntaxError) else report(exc.exc, read_source_line)
        _write_error(interp, text)
        return exc
    except InternalError as exc:
        report_internal_error(interp, exc.original or exc.__cause__ or exc, str(exc), debug)
        return exc
    except KeyboardInterrupt as exc:
        interp.back_at_prompt()
        _end_output_line(interp)
        _write_error(interp, INTERRUPTED + "\n")
        return exc


def report_internal_error(interp: Any, exc: BaseException, what: str, debug: bool = False) -> None:
    """One clearly marked line for a bug in mlang itself (the traceback only with --debug)."""
    _end_output_line(interp)
    _write_error(interp, f"mlang internal error (a bug in mlang, not in your code): {what}\n")
    if debug:
        import traceback  # (only with --debug: a cost at start-up)

        traceback.print_exception(exc, file=interp.err)


def _end_output_line(interp: Any) -> None:
    """Finish a half-written output line so that the error starts on its own line."""
    if not interp.at_line_start:
        interp.write("\n")
    interp.out.flush()


def _write_error(interp: Any, text: str) -> None:
    interp.err.write(text)
    interp.err.flush()
