"""The search path: addpath, rmpath, pwd.

The folders added belong to the interpreter (``interp.path``), searched after
the running scripts' folders and the current folder.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from mlang.builtins.registry import builtin
from mlang.errors import error
from mlang.values.core import char_row, is_text, to_str


def _folders(args: tuple) -> tuple[list[str], bool]:
    """The folders named in addpath/rmpath arguments (each may hold several, separated
    by pathsep), and whether '-end' was given."""
    at_end = False
    folders: list[str] = []
    for a in args:
        if not is_text(a):
            raise error("MATLAB:addpath:InvalidInput", "Arguments must be character vectors or strings.")
        text = to_str(a)
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


@builtin()
def pwd() -> np.ndarray:
    """currentFolder = pwd  the current folder"""
    return char_row(os.getcwd())
