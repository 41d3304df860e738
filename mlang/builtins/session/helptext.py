"""Help and source lookup: help, doc, type, which.

A builtin's help is its registry entry's help text; a function or script
written in MATLAB (on the path, in the current folder or in mlang's stdlib)
has as help its first block of ``%`` comment lines: at the top of the file,
or just after the function line.  Names resolve as calls do
(``interp.resolve``): a file on the path shadows a builtin of the same name.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mlang.builtins.coerce import text_scalar
from mlang.builtins.language.introspection import find_file
from mlang.builtins.text.forms import cell_of
from mlang.errors import error
from mlang.evaluation.interpreter import STDLIB
from mlang.registry import Builtin, builtin
from mlang.syntax.cache import read_source
from mlang.values.core import char_row, class_of

HELP_USAGE = (
    "help NAME shows the help text of the function, script or class NAME, for example\n"
    "help sin; for a variable, help shows the help of its class.  doc NAME does the same.\n"
    "type NAME shows the source of a function or script, which NAME tells where it is.\n"
    "Searching the help text of all functions (lookfor) is not available in mlang.\n\n"
)
BUILTIN_INDENT = "    "
COMMENT_INDENT = " "
BUILTIN_PLACE = "built-in (mlang)"
_FUNCTION_LINE = re.compile(r"\s*function\b")


def _caller_variable(interp: Any, name: str) -> tuple[bool, Any]:
    """Whether ``name`` is a variable of the calling workspace, and its value."""
    frame = interp.frames[-1]
    if name in frame.vars:
        return True, frame.vars[name]
    if name in frame.global_names:
        return True, interp.globals.get(name)
    return False, None


def _target(interp: Any, name: str) -> Any:
    """What calling ``name`` would run (a Builtin, a UserFunction, a ScriptCall), or None."""
    return interp.resolve(name) if name.isidentifier() else None


def _target_file(target: Any) -> Path | None:
    """The .m file a function or script comes from (None for a builtin)."""
    unit = getattr(target, "unit", target)  # an UnreadableFile is its own unit
    file = getattr(unit, "file", "")
    return Path(file) if file else None


# ---------------------------------------------------------------------- help


def _comment_block(lines: list[str], i: int) -> list[str]:
    """The comment lines starting at line ``i``, without their ``%``
    (a ``%{ ... %}`` block comment gives its lines as they stand)."""
    block: list[str] = []
    n = len(lines)
    while i < n:
        stripped = lines[i].strip()
        if stripped == "%{":
            i += 1
            while i < n and lines[i].strip() != "%}":
                block.append(lines[i])
                i += 1
            i += 1
        elif stripped.startswith("%"):
            block.append(lines[i].lstrip()[1:])
            i += 1
        else:
            break
    return block


def file_help(path: Path) -> list[str]:
    """The help lines of a .m file: its first comment block, at the top of the
    file or right after the function line."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    block = _comment_block(lines, i)
    if block or i >= len(lines) or not _FUNCTION_LINE.match(lines[i]):
        return block
    while lines[i].split("%", 1)[0].rstrip().endswith("...") and i + 1 < len(lines):
        i += 1  # a function line continued with ...
    i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    return _comment_block(lines, i)


def _help_of_file(path: Path | None, name: str) -> str:
    block = file_help(path) if path is not None else []
    if not block:
        return f"No help found for {name}.\n\n"
    return "".join(COMMENT_INDENT + line + "\n" for line in block) + "\n"


def _help_of_target(target: Any, name: str) -> str:
    if type(target) is not Builtin:
        return _help_of_file(_target_file(target), name)
    if not target.help:
        return f"No help found for {name}.\n\n"
    return "".join((BUILTIN_INDENT + line).rstrip() + "\n" for line in target.help.splitlines()) + "\n"


def help_text(interp: Any, name: str) -> str | None:
    """What ``help name`` prints; None when nothing is called ``name``."""
    is_variable, value = _caller_variable(interp, name)
    if is_variable:
        cls = class_of(value)
        target = _target(interp, cls)
        if target is None:
            return None
        return f"--- help for {cls} ---\n" + _help_of_target(target, cls)
    target = _target(interp, name)
    if target is not None:
        return _help_of_target(target, name)
    path = find_file(interp, name, add_m=False) if name.endswith(".m") else None
    return _help_of_file(path, name) if path is not None else None


@builtin(name="help", interp=True, nargout=True)
def help_(interp: Any, name: Any = None, *, nargout: int = 0) -> Any:
    """help NAME shows the help text of the function or script NAME.

    help alone tells how to use help.  For a variable, help shows the help
    of its class.  txt = help(NAME) returns the text instead of printing it
    ('' when nothing is called NAME)."""
    if name is None:
        text: str | None = HELP_USAGE
    else:
        word = text_scalar(name, "Name")
        text = help_text(interp, word)
        if text is None and not nargout:
            text = f"{word} not found.\n\n"
    if nargout:
        return char_row(text or "")
    interp.write(text or "")
    return None


@builtin(interp=True, max_out=0)
def doc(interp: Any, name: Any = None) -> None:
    """doc NAME shows the documentation of NAME: in mlang, its help text (as help NAME)."""
    help_(interp, name)


# ---------------------------------------------------------------------- type


@builtin(name="type", interp=True, max_out=0)
def type_(interp: Any, *names: Any) -> None:
    """type NAME shows the contents of the file NAME, or of NAME.m when NAME has
    no extension and no such file exists (the source of a function or script).

    type NAME1 ... NAMEN shows each in turn."""
    if not names:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    for arg in names:
        name = text_scalar(arg, "File name")
        path = find_file(interp, name, add_m=False)
        if path is None:
            target = _target(interp, name)
            if type(target) is Builtin:
                interp.write(f"'{name}' is a built-in function.\n")
                continue
            path = _target_file(target) if target is not None else find_file(interp, name)
        if path is None:
            raise error("MATLAB:type:fileNotFound", f"File '{name}' not found.")
        text = read_source(path)
        if text.endswith("\n"):
            text = text[:-1]
        interp.write("\n" + text + "\n\n")


# --------------------------------------------------------------------- which


def _places(interp: Any, name: str, every: bool) -> list[str]:
    """Where ``name`` is found, the one a call would use first: 'variable',
    'built-in (mlang)' or a file's absolute path."""
    found: list[str] = []
    if _caller_variable(interp, name)[0]:
        found.append("variable")
        if not every:
            return found
    target = _target(interp, name)
    if target is not None:
        path = _target_file(target)
        found.append(BUILTIN_PLACE if path is None else str(path.absolute()))
    else:
        path = find_file(interp, name, add_m=False)
        if path is not None:
            found.append(str(path))
    if every and name.isidentifier():
        # in the order resolve looks: the search folders, the builtins, the stdlib
        files = [Path(folder) / f"{name}.m" for folder in interp.search_dirs()]
        places = [str(p.absolute()) for p in files if p.is_file()]
        if name in interp.builtins:
            places.append(BUILTIN_PLACE)
        if (STDLIB / f"{name}.m").is_file():
            places.append(str(STDLIB / f"{name}.m"))
        found += [p for p in dict.fromkeys(places) if p not in found]
    return found


def _place_line(name: str, place: str) -> str:
    return f"{name} is a variable." if place == "variable" else place


@builtin(interp=True, nargout=True)
def which(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """which NAME tells what NAME is: a variable, a built-in function or the full
    path of the file that defines it.

    which NAME -all lists every function or file called NAME, the first one
    being the one a call runs.  s = which(NAME) returns the text ('variable',
    'built-in (mlang)', the path, or '' when nothing is found); with '-all',
    a cell array of them."""
    words = [text_scalar(a, "Name") for a in args]
    every = "-all" in words
    names = [w for w in words if w != "-all"]
    if len(names) != 1:
        raise error("MATLAB:minrhs" if not names else "MATLAB:TooManyInputs",
                    "Not enough input arguments." if not names else "Too many input arguments.")
    name = names[0]
    places = _places(interp, name, every)
    if nargout:
        if not every:
            return char_row(places[0] if places else "")
        return cell_of([char_row(place) for place in places], (len(places), 1))
    if not places:
        interp.write(f"'{name}' not found.\n")
        return None
    lines = [_place_line(name, places[0])]
    lines += [f"{_place_line(name, p)}  % Shadowed" for p in places[1:]]
    interp.write("\n".join(lines) + "\n")
    return None
