"""The Command Window's view of the session: who, whos, clear, clc, exit, quit.

who and whos list the caller's workspace (``interp.frames[-1]``: builtins run
without a frame of their own): its variables, the globals it declared and,
inside a function, its persistent variables.  ``who global`` / ``whos global``
list the global workspace instead.  Names may be filtered with wildcards
(``who a*``) or, after ``-regexp``, with regular expressions.

clear removes variables (wildcards, -regexp, global) and forgets persistent
variables (clear functions, clear all).

exit and quit raise ``ExitRequest``, which MATLAB's try/catch does not catch:
the front end ends the session with its status.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import text_scalar
from mlang.builtins.files.mat_load_save import file_variables
from mlang.builtins.language.introspection import caller_frame
from mlang.builtins.text.forms import cell_of
from mlang.display import style_of
from mlang.errors import ExitRequest, error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, is_text, size_of, to_array
from mlang.values.handle import FunctionHandle
from mlang.values.string import StringArray
from mlang.values.struct import Struct

# The Bytes column of whos (MATLAB on 64-bit systems; its overheads are approximations).
ELEMENT_HEADER_BYTES = 112  # each element of a cell, each field value of a struct element
FIELD_NAME_BYTES = 64  # each field of a struct
STRING_ELEMENT_BYTES = 132  # each element of a string array, besides 2 bytes a character
FUNCTION_HANDLE_BYTES = 32

# (name, value, attribute): attribute is "", "global" or "persistent"
Entry = tuple[str, Any, str]


def value_bytes(v: Any) -> int:
    """The memory whos reports for a value."""
    t = type(v)
    if t is float:
        return 8
    if t is complex:
        return 16
    if t is bool:
        return 1
    if t is np.ndarray:
        return int(v.nbytes)
    if t is Cell:
        return sum(ELEMENT_HEADER_BYTES + value_bytes(x) for x in v.data.ravel())
    if t is Struct:
        values = sum(ELEMENT_HEADER_BYTES + value_bytes(d.get(f))
                     for d in v.elems.ravel() for f in v.fields)
        return FIELD_NAME_BYTES * len(v.fields) + values
    if t is StringArray:
        return sum(STRING_ELEMENT_BYTES + 2 * len(s or "") for s in v.data.ravel())
    if t is FunctionHandle:
        return FUNCTION_HANDLE_BYTES
    if t is DlArray:
        return value_bytes(v.data)
    return 0


def columns(names: list[str], width: int) -> list[str]:
    """Names laid out as who and dir show them: each padded to the longest plus two,
    as many to a line as fit in ``width`` columns, filled row by row."""
    if not names:
        return []
    cell = max(len(n) for n in names) + 2
    per_line = max(1, width // cell)
    return ["".join(n.ljust(cell) for n in names[i:i + per_line])
            for i in range(0, len(names), per_line)]


def _is_complex(v: Any) -> bool:
    if type(v) is DlArray:
        v = v.data
    return type(v) is complex or (type(v) is np.ndarray and v.dtype.kind == "c")


def _entries(interp: Any, args: tuple) -> list[Entry]:
    """The variables who/whos list for these arguments, sorted by name."""
    words = [text_scalar(a) for a in args]
    global_only = regexp = False
    patterns: list[str] = []
    file_name: str | None = None  # after -file: "" until the name comes
    for w in words:
        if w in ("global", "-global") and not patterns:
            global_only = True
        elif w == "-regexp":
            regexp = True
        elif w == "-file":
            file_name = ""
        elif file_name == "":
            file_name = w
        else:
            patterns.append(w)
    if file_name == "":
        raise error("MATLAB:whos:missingFileName", "The -file option must be followed by a file name.")
    if file_name is not None:
        found: list[Entry] = [(n, v, "") for n, v in file_variables(interp, file_name).items()]
    elif global_only:
        found = [(n, v, "global") for n, v in interp.globals.items()]
    else:
        frame = interp.frames[-1]
        found = [(n, v, "") for n, v in frame.vars.items()]
        found += [(n, interp.globals[n], "global") for n in frame.global_names if n in interp.globals]
        found += [(n, v, "persistent") for n, v in (frame.persistent or {}).items()]
    if patterns:
        if regexp:
            compiled = [re.compile(p) for p in patterns]
            found = [e for e in found if any(p.search(e[0]) for p in compiled)]
        else:
            found = [e for e in found if any(fnmatch.fnmatchcase(e[0], p) for p in patterns)]
    return sorted(found, key=lambda e: e[0])


def _name_column(names: list[str]) -> Cell:
    return cell_of([char_row(n) for n in names], (len(names), 1))


@builtin(interp=True, nargout=True)
def who(interp: Any, *names: Any, nargout: int = 0) -> Any:
    """who lists the names of the variables in the current workspace, in alphabetical order.

    who a* b lists only the variables matching the names (wildcard * allowed);
    who -regexp expr1 ... exprN lists those matching regular expressions;
    who global lists the global variables;
    who -file filename lists the variables of a MAT-file;
    C = who(...) returns the names in a cell array (one column)."""
    found = _entries(interp, names)
    if nargout:
        return _name_column([n for n, _, _ in found])
    if found:
        lines = columns([n for n, _, _ in found], style_of(interp).width)
        interp.write("\nYour variables are:\n\n" + "\n".join(lines) + "\n\n")
    return None


def _attributes(v: Any, attribute: str) -> str:
    parts = [attribute] if attribute else []
    if _is_complex(v):
        parts.append("complex")
    return ", ".join(parts)


def whos_table(found: list[Entry]) -> str:
    """whos's table: Name, Size (aligned on its first 'x'), Bytes, Class, Attributes."""
    sizes = [size_of(v) for _, v, _ in found]
    lefts = [str(s[0]) for s in sizes]
    rights = ["x".join(str(d) for d in s[1:]) for s in sizes]
    byte_texts = [str(value_bytes(v)) for _, v, _ in found]
    classes = [class_of(v) for _, v, _ in found]
    name_width = max(10, max(len(n) for n, _, _ in found) + 6)
    left_width = max(len(s) for s in lefts)
    x_col = 2 + name_width + left_width
    bytes_end = x_col + max(len(s) for s in rights) + 1 + max(17, max(len(b) for b in byte_texts) + 11)
    class_width = max(10, max(len(c) for c in classes) + 2)
    header = ("  Name".ljust(x_col - 1) + "Size").ljust(bytes_end - 4) + "Bytes"
    lines = [header + "  " + "Class".ljust(class_width) + "Attributes", ""]
    for (name, v, attribute), left, right, size_bytes, cls in zip(
            found, lefts, rights, byte_texts, classes, strict=True):
        row = ("  " + name).ljust(2 + name_width) + left.rjust(left_width) + "x" + right
        row = row.ljust(bytes_end + 1 - len(size_bytes)) + size_bytes
        lines.append(row + "  " + cls.ljust(class_width) + _attributes(v, attribute).ljust(10))
    return "\n".join(lines) + "\n\n"


@builtin(interp=True, nargout=True)
def whos(interp: Any, *names: Any, nargout: int = 0) -> Any:
    """whos lists the variables in the current workspace with their sizes, bytes and classes.

    whos a* b, whos -regexp expr1 ... exprN, whos global and whos -file filename
    select as who does.
    S = whos(...) returns a struct array with fields name, size, bytes, class,
    global, sparse, complex, nesting and persistent."""
    found = _entries(interp, names)
    if nargout:
        return _whos_struct(interp.frames[-1].name, found)
    if found:
        interp.write(whos_table(found))
    return None


WHOS_FIELDS = ["name", "size", "bytes", "class", "global", "sparse", "complex", "nesting", "persistent"]


def _whos_struct(function: str, found: list[Entry]) -> Struct:
    elems = np.empty((len(found), 1), dtype=object)
    for i, (name, v, attribute) in enumerate(found):
        elems[i, 0] = {
            "name": char_row(name),
            "size": np.array([[float(d) for d in size_of(v)]]),
            "bytes": float(value_bytes(v)),
            "class": char_row(class_of(v)),
            "global": attribute == "global",
            "sparse": False,
            "complex": _is_complex(v),
            "nesting": Struct.scalar({"function": char_row(function), "level": 1.0}),
            "persistent": attribute == "persistent",
        }
    return Struct(list(WHOS_FIELDS), elems)


# ---------------------------------------------------------------------- clear

_CLEAR_ALL = ("all", "-all")
_CLEAR_VARIABLES = ("variables", "-variables", "var", "-var")
_CLEAR_FUNCTIONS = ("functions", "-functions", "fun", "-fun")
_CLEAR_GLOBALS = ("global", "-global", "globals", "-globals")
_CLEAR_NOTHING = ("classes", "-classes", "import", "-import", "java", "-java", "mex", "-mex")


@builtin(interp=True, max_out=0)
def clear(interp: Any, *items: Any) -> None:
    """clear removes all variables from the current workspace.

    clear name1 ... nameN removes those (wildcards * allowed); clear -regexp
    expr1 ... removes the variables matching the expressions; clear global
    removes global variables; clear functions forgets persistent variables;
    clear all does all of these."""
    frame = caller_frame(interp)
    words = [text_scalar(x) for x in items]
    if not words or (words[0] in _CLEAR_VARIABLES and len(words) == 1):
        frame.vars.clear()
        return
    head = words[0]
    if head in _CLEAR_ALL:
        frame.vars.clear()
        interp.globals.clear()
        frame.global_names.clear()
        _clear_functions(interp)
    elif head in _CLEAR_FUNCTIONS:
        _clear_functions(interp)
    elif head in _CLEAR_GLOBALS:
        names = words[1:]
        for n in list(interp.globals) if not names else _matching(list(interp.globals), names):
            interp.globals.pop(n, None)
            frame.global_names.discard(n)
    elif head == "-regexp":
        patterns = [re.compile(p) for p in words[1:]]
        for n in [n for n in frame.vars if any(p.search(n) for p in patterns)]:
            del frame.vars[n]
    elif head in _CLEAR_NOTHING:
        return
    else:
        names = words[1:] if head in _CLEAR_VARIABLES else words
        for n in _matching(list(frame.vars), names):
            del frame.vars[n]
        for n in _matching(list(frame.global_names), names):
            frame.global_names.discard(n)  # the global itself lives on


def _matching(candidates: list[str], patterns: list[str]) -> list[str]:
    return [c for c in candidates if any(fnmatch.fnmatchcase(c, p) for p in patterns)]


def _clear_functions(interp: Any) -> None:
    """Forget compiled functions' persistent variables and every resolved name."""
    for _, unit in getattr(interp, "_units", {}).values():
        for fn in unit.functions.values():
            fn.persistent.clear()
    interp.invalidate()


CLEAR_SCREEN = "\x1b[H\x1b[2J"  # cursor home, erase the screen


@builtin(interp=True, max_out=0)
def clc(interp: Any) -> None:
    """clc clears the Command Window (in a terminal; elsewhere it does nothing)."""
    out = interp.out
    if interp.is_terminal(out):
        out.write(CLEAR_SCREEN)
        out.flush()
        interp.at_line_start = True


def _exit_status(args: tuple) -> int:
    """The status of exit/quit: a number (default 0), with the options 'force' or 'cancel'."""
    status = 0
    for a in args:
        if is_text(a):
            option = text_scalar(a, "Option").lower()
            if option not in ("force", "cancel"):
                raise error("MATLAB:quit:invalidOption", f"Invalid option '{option}'.")
            continue
        values = to_array(a) if type(a) in (float, bool, np.ndarray) else None
        if values is None or values.size != 1 or values.dtype.kind not in "iufb" \
                or not np.isfinite(values).all():
            raise error("MATLAB:quit:invalidExitCode", "Exit status must be a finite numeric scalar.")
        status = int(values.reshape(-1)[0])
    return status


@builtin(name="exit", max_out=0)
def exit_(*args: Any) -> None:
    """exit ends the session (MATLAB code cannot catch it).

    exit(status) ends it with that process exit status; exit force and
    exit(status, 'force') do the same."""
    raise ExitRequest(_exit_status(args))


@builtin(name="quit", max_out=0)
def quit_(*args: Any) -> None:
    """quit ends the session (MATLAB code cannot catch it).

    quit(status) ends it with that process exit status; quit force and
    quit(status, 'force') do the same."""
    raise ExitRequest(_exit_status(args))
