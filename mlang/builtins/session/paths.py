"""The search path and the current folder: addpath, rmpath, pwd, cd, dir, ls.

The folders added belong to the interpreter (``interp.path``), searched after
the running scripts' folders and the current folder.  The current folder is
the process's: cd changes it for every interpreter in the process, and makes
this one resolve names afresh.
"""

from __future__ import annotations

import os
import re
import stat
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_option, text_scalar
from mlang.builtins.files.folders_listing import expand, has_wildcard
from mlang.builtins.session.workspace import columns
from mlang.display import style_of
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_matrix, char_row
from mlang.values.struct import Struct


def _folders(args: tuple) -> tuple[list[str], bool]:
    """The folders named in addpath/rmpath arguments (each may hold several, separated
    by pathsep), and whether '-end' was given."""
    at_end = False
    folders: list[str] = []
    for a in args:
        text = text_scalar(a, "Folder name")
        if text.lower() in ("-end", "-begin", "-frozen"):
            at_end = at_end or text.lower() == "-end"
            continue
        folders += [f for f in text.split(os.pathsep) if f]
    return folders, at_end


def _path_text(interp: Any) -> np.ndarray:
    return char_row(os.pathsep.join(interp.path))


@builtin(interp=True, nargout=True)
def addpath(interp: Any, *args: Any, nargout: int = 0) -> object:
    """addpath(folder1, ..., folderN)  add folders to the top of the search path
    addpath(..., '-end')  add them at the bottom
    oldpath = addpath(...)  also return the path before the change"""
    old = _path_text(interp)
    folders, at_end = _folders(args)
    if not folders:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    added = []
    for folder in folders:
        full = os.path.abspath(folder)
        if not os.path.isdir(full):
            interp.warn("MATLAB:mpath:nameNonexistentOrNotADirectory",
                 f'Name is nonexistent or not a directory: {folder}')
            continue
        if full in interp.path:
            interp.path.remove(full)
        added.append(full)
    interp.path[:] = interp.path + added if at_end else added + interp.path
    interp.invalidate()
    return old if nargout else None


@builtin(interp=True, nargout=True)
def rmpath(interp: Any, *args: Any, nargout: int = 0) -> object:
    """rmpath(folder1, ..., folderN)  remove folders from the search path"""
    old = _path_text(interp)
    folders, _ = _folders(args)
    for folder in folders:
        full = os.path.abspath(folder)
        if full in interp.path:
            interp.path.remove(full)
        else:
            interp.warn("MATLAB:rmpath:DirNotFound", f'"{folder}" not found in path.')
    interp.invalidate()
    return old if nargout else None


@builtin(interp=True, max_out=0)
def rehash(interp: Any, *options: Any) -> None:
    """rehash
    rehash path
    rehash toolbox

    Refresh the function and file caches: files added, removed or saved since a name was
    last resolved are seen by the next call.  The Command Window (and a Python session's
    eval and call) does this before each input; a program that writes a function file and
    calls it before it has finished running uses rehash."""
    for option in options:
        word = text_option(option)
        if word not in ("path", "toolbox", "pathreset", "toolboxreset", "toolboxcache"):
            raise error("MATLAB:rehash:InvalidInput", "Invalid input argument.")
    interp.invalidate()


@builtin()
def pwd() -> np.ndarray:
    """currentFolder = pwd  the current folder"""
    return char_row(os.getcwd())


@builtin(interp=True, nargout=True)
def cd(interp: Any, folder: Any = None, *, nargout: int = 0) -> Any:
    """cd shows the current folder; cd newFolder makes newFolder the current folder
    (a full or relative path; .. is the parent folder, ~ the home folder).

    oldFolder = cd(newFolder) also returns the folder that was current."""
    old = os.getcwd()
    if folder is None:
        if nargout:
            return char_row(old)
        interp.write(old + "\n\n")
        return None
    name = text_scalar(folder, "Folder name")
    try:
        os.chdir(os.path.expanduser(name))
    except (OSError, ValueError):
        raise error("MATLAB:cd:NonExistentFolder",
                    f"Cannot CD to {name} (Name is nonexistent or not a directory).") from None
    interp.invalidate()
    return char_row(old) if nargout else None


def _wildcard(pattern: str) -> re.Pattern[str]:
    """MATLAB's file name wildcard: * stands for any characters, nothing else is special."""
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.DOTALL)


def _listing(name: str | None, dots: bool) -> list[tuple[str, str]] | None:
    """(name, absolute folder) of what dir/ls list for ``name``, sorted by name: a folder's
    entries (with . and .. when ``dots``), the files matching a wildcard, or one file.
    None when ``name`` names nothing (no such file or folder, or a wildcard in no folder)."""
    target = os.path.expanduser(name) if name else "."
    if os.path.isdir(target):
        folder = os.path.abspath(target)
        names = ([".", ".."] if dots else []) + sorted(os.listdir(folder))
        return [(n, folder) for n in names]
    head, pattern = os.path.split(target)
    folder = os.path.abspath(head or ".")
    if "*" in pattern:
        if not os.path.isdir(folder):
            return None
        matcher = _wildcard(pattern)
        return [(n, folder) for n in sorted(os.listdir(folder)) if matcher.fullmatch(n)]
    if os.path.lexists(target):
        return [(pattern, folder)]
    return None


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _entry(name: str, folder: str) -> dict:
    """One element of dir's struct array."""
    path = os.path.join(folder, name)
    try:
        info = os.stat(path)
    except OSError:
        info = os.lstat(path)  # a link to nothing: its own dates
    when = datetime.fromtimestamp(info.st_mtime)
    is_dir = stat.S_ISDIR(info.st_mode)
    midnight = when.replace(hour=0, minute=0, second=0, microsecond=0)
    return {
        "name": char_row(name),
        "folder": char_row(folder),
        "date": char_row(f"{when.day:02d}-{_MONTHS[when.month - 1]}-{when.year} "
                         f"{when.hour:02d}:{when.minute:02d}:{when.second:02d}"),
        "bytes": 0.0 if is_dir else float(info.st_size),
        "isdir": is_dir,
        "datenum": when.toordinal() + 366 + (when - midnight).total_seconds() / 86400,
    }


DIR_FIELDS = ["name", "folder", "date", "bytes", "isdir", "datenum"]


def _dir_listing(name: str | None) -> list[tuple[str, str]] | None:
    """(name, absolute folder) of what dir lists: a folder's entries with . and .., the
    files and folders matching a pattern (* in any part, ** for every folder below), or
    one file.  None when a name without wildcards names nothing."""
    if name is None or not has_wildcard(name):
        return _listing(name, dots=True)
    return expand(name, dots=True)


def _show_groups(interp: Any, found: list[tuple[str, str]]) -> None:
    """dir's display of a recursive search: the names found in each folder, by folder."""
    width = style_of(interp).width
    groups: dict[str, list[str]] = {}
    for n, folder in found:
        groups.setdefault(folder, []).append(n)
    text = ""
    for folder, names in groups.items():
        text += f"\nFiles Found in: {folder}\n\n" + "\n".join(columns(names, width)) + "\n"
    interp.write(text + "\n")


@builtin(name="dir", interp=True, nargout=True)
def dir_(interp: Any, name: Any = None, *, nargout: int = 0) -> Any:
    """dir lists the files and folders in the current folder.

    dir name lists the contents of the folder name, or the files matching name: the
    wildcard * in any part of it (dir *.m, dir data/*/*.csv), and ** for the folder and
    every folder below it (dir **/*.txt).  listing = dir(...) returns a struct array
    with fields name, folder, date, bytes, isdir and datenum."""
    text = text_scalar(name, "Name") if name is not None else None
    found = _dir_listing(text)
    if found is None:
        found = []
        if not nargout:  # with an output, nothing found is just an empty listing
            interp.warn("MATLAB:dir:nonExistentName", f"Name is nonexistent or not a directory: {text}")
    if nargout:
        elems = np.empty((len(found), 1), dtype=object)
        for i, (n, folder) in enumerate(found):
            elems[i, 0] = _entry(n, folder)
        return Struct(list(DIR_FIELDS), elems)
    if found and text is not None and "**" in text:
        _show_groups(interp, found)
    elif found:
        lines = columns([n for n, _ in found], style_of(interp).width)
        interp.write("\n" + "\n".join(lines) + "\n\n")
    return None


@builtin(interp=True, nargout=True)
def ls(interp: Any, name: Any = None, *, nargout: int = 0) -> Any:
    """ls lists the names of the files and folders in the current folder.

    ls name lists a folder's contents or the files matching name (ls *.m).
    list = ls(...) returns the names as the rows of a char matrix."""
    text = text_scalar(name, "Name") if name is not None else None
    found = _listing(text, dots=False)
    if found is None or not found and text is not None and "*" in text:
        # ls runs the system's ls, which fails on a name that matches nothing
        raise error("MATLAB:ls:OSError", f"ls: cannot access '{text}': No such file or directory")
    names = [n for n, _ in found]
    if nargout:
        return char_matrix(names)
    if names:
        interp.write("\n".join(columns(names, style_of(interp).width)) + "\n")
    return None


@builtin(name="run", interp=True, max_out=0)
def run_(interp: Any, script: Any) -> None:
    """run(scriptname) runs a script in the current workspace: a name on the path, or a
    file path (with or without .m), in which case MATLAB changes to the script's folder
    while it runs and changes back afterwards."""
    text = text_scalar(script, "Script name")
    folder, name = os.path.split(text)
    stem, ext = os.path.splitext(name)
    if not folder and not ext:
        target = interp.resolve(stem) if stem.isidentifier() else None
        if target is None:
            raise _cannot_run(text)
        interp.invoke(target, [], 0, interp.frames[-1])
        return
    path = os.path.abspath(text if ext else text + ".m")
    if not os.path.isfile(path) or not stem.isidentifier():
        raise _cannot_run(text)
    here = os.getcwd()
    os.chdir(os.path.dirname(path))
    interp.invalidate()
    try:
        interp.run_unit(interp.unit_for(Path(path)), interp.frames[-1])
    finally:
        os.chdir(here)
        interp.invalidate()


def _cannot_run(text: str) -> Exception:
    return error("MATLAB:run:FileNotFound",
                 f"RUN cannot execute the file '{text}'. RUN requires a valid MATLAB script")
