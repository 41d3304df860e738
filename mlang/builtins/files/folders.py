"""File names and folders: fullfile, fileparts, filesep, pathsep, isfile, isfolder,
isdir, mkdir, rmdir, delete, tempdir, tempname.

The functions that change the file system follow MATLAB's two modes: called with no
output they warn or raise MATLAB's error; called with outputs they return
``[status, msg, msgID]`` (status a logical, msg and msgID '' on success) and neither
warn nor raise for a failure of the file system.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import uuid
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_array, text_or_none, text_scalar
from mlang.builtins.files.atomic import os_reason
from mlang.builtins.files.folders_listing import expand, has_wildcard
from mlang.builtins.text.forms import TextArray, empty_char, logical_array, row
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_row
from mlang.values.string import StringArray

SEP = os.sep

# --------------------------------------------------------------- outcomes


class Outcome:
    """What a file-system function reports: success, or a message and its identifier,
    either a warning (status stays true) or a failure (status false)."""

    __slots__ = ("ok", "message", "identifier")

    def __init__(self, ok: bool = True, message: str = "", identifier: str = "") -> None:
        self.ok = ok
        self.message = message
        self.identifier = identifier


def report(interp: Any, outcome: Outcome, nargout: int) -> Any:
    """MATLAB's two modes: with outputs, ``status, msg, msgID``; without, a warning for
    a message on success and an error for a failure."""
    if nargout:
        msg = row(outcome.message) if outcome.message else empty_char()
        ident = row(outcome.identifier) if outcome.identifier else empty_char()
        return (outcome.ok, msg, ident)[:max(nargout, 1)]
    if not outcome.ok:
        raise error(outcome.identifier, outcome.message)
    if outcome.message:
        interp.warn(outcome.identifier, outcome.message)
    return None


# --------------------------------------------------------------- names


@builtin()
def filesep() -> np.ndarray:
    """f = filesep is the character that separates folder names in a path ('/' on Linux and macOS)."""
    return char_row(SEP)


@builtin()
def pathsep() -> np.ndarray:
    """c = pathsep is the character that separates the folders of the search path (':' on Linux and macOS)."""
    return char_row(os.pathsep)


def refine_path(path: str) -> str:
    """fullfile's tidying: inner repeated separators collapse to one (leading ones stay),
    and '/./' collapses to '/' (a trailing '/.' and '..' stay)."""
    lead = len(path) - len(path.lstrip(SEP))
    body = re.sub(re.escape(SEP) + "+", SEP, path[lead:])
    dot = SEP + "." + SEP
    while dot in body:
        body = body.replace(dot, SEP)
    if lead and body.startswith("." + SEP):
        body = body[2:]
    return path[:lead] + body


def _join(parts: list[str]) -> str:
    kept = [p for p in parts if p]
    if not kept:
        return ""
    return refine_path(SEP.join(kept))


_FULLFILE_TYPE = ("All inputs must be strings, character vectors, or cell arrays of character "
                  "vectors.")


@builtin()
def fullfile(*parts: Any) -> Any:
    """f = fullfile(filepart1, ..., filepartN) builds a full file name from folder and file
    names, with one file separator between parts.

    Repeated separators inside the result collapse to one (not at its start), and '/./'
    collapses to '/'; a trailing separator stays.  When any part is a cell array or a
    string array the result is one name for each of its elements (a cell array, or a
    string array when any part is a string)."""
    if not parts:
        raise error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    arrays: list[TextArray] = []
    for p in parts:
        if type(p) not in (Cell, StringArray) and text_or_none(p) is None:
            raise error("MATLAB:fullfile:InvalidInputType", _FULLFILE_TYPE)
        arrays.append(text_array(p, "Input"))
    many = [a for a in arrays if a.kind != "char" and len(a.items) != 1 or a.kind == "cell"]
    if not many:
        text = _join([a.items[0] or "" for a in arrays])
        if any(a.kind == "string" for a in arrays):
            return StringArray.scalar(text)
        return row(text) if text else empty_char()
    shape = next((a.shape for a in many if len(a.items) != 1), many[0].shape)
    count = int(np.prod(shape))
    for a in many:
        if len(a.items) != 1 and a.shape != shape:
            raise error("MATLAB:fullfile:CellstrSizeMismatch",
                        "Nonscalar inputs must have the same size.")
    names = []
    for k in range(count):
        names.append(_join([(a.items[k] if len(a.items) != 1 else a.items[0]) or "" for a in arrays]))
    form = "string" if any(a.kind == "string" for a in arrays) else "cell"
    return TextArray(form, shape, names).pack(names)


@builtin(max_out=3)
def fileparts(file: Any) -> tuple:
    """[filepath, name, ext] = fileparts(filename) splits a file name into its folder, name
    and extension; a string input gives strings.

    The extension starts at the last '.' of the name; the folder has no trailing
    separator (except the root folder '/')."""
    text = text_or_none(file)
    if text is None:
        raise error("MATLAB:fileparts:MustBeChar",
                    "Input must be a row vector of characters, or a string scalar.")
    cut = text.rfind(SEP)
    folder = None if cut < 0 else (text[:cut] or SEP)
    rest = text[cut + 1:]
    dot = rest.rfind(".")
    name, ext = (rest, None) if dot < 0 else (rest[:dot], rest[dot:])
    if type(file) is StringArray:
        return tuple(StringArray.scalar(x or "") for x in (folder, name, ext))
    if not text:
        return empty_char(), empty_char(), empty_char()
    as_char = (empty_char() if folder is None else row(folder), row(name),
               empty_char() if ext is None else row(ext))
    return tuple(as_char)


def _tests(names: Any, test: Any) -> Any:
    texts = text_array(names, "Input")
    values = [bool(t) and test(os.path.expanduser(t)) for t in texts.items]
    if texts.kind == "char":
        return values[0]
    return logical_array(values, texts.shape)


@builtin()
def isfile(names: Any) -> Any:
    """tf = isfile(filename) is true when filename is a file (a full or relative path).

    A cell array or string array of names gives a logical array of its size."""
    return _tests(names, os.path.isfile)


@builtin()
def isfolder(names: Any) -> Any:
    """tf = isfolder(folderName) is true when folderName is a folder (a full or relative path).

    A cell array or string array of names gives a logical array of its size."""
    return _tests(names, os.path.isdir)


@builtin()
def isdir(name: Any) -> bool:
    """tf = isdir(folderName) is true when folderName is a folder (isfolder is preferred)."""
    text = text_or_none(name)
    return bool(text) and os.path.isdir(os.path.expanduser(text))


# --------------------------------------------------------------- folders


def _folder_argument(v: Any, what: str = "Folder name") -> str:
    text = text_or_none(v)
    if text is None:
        raise error("MATLAB:invalidInput", f"{what} must be a character vector or string scalar.")
    return os.path.expanduser(text)


def _make_folder(path: str) -> Outcome:
    if os.path.isdir(path):
        return Outcome(True, "Directory already exists.", "MATLAB:MKDIR:DirectoryExists")
    try:
        os.makedirs(path)
    except OSError as exc:
        return Outcome(False, f"Cannot create directory {path}. {os_reason(exc)}.",
                       "MATLAB:MKDIR:OSError")
    return Outcome()


@builtin(interp=True, nargout=True, max_out=3)
def mkdir(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """mkdir(folderName) creates a folder, and any missing folders on its path.

    mkdir(parentFolder, folderName) creates folderName in parentFolder.
    [status, msg, msgID] = mkdir(...) reports instead of warning or raising: status is
    true when the folder was made or already existed (msg 'Directory already exists.')."""
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    if len(args) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    names = [_folder_argument(a) for a in args]
    if not names[-1]:
        raise error("MATLAB:MKDIR:ArgumentIndeterminate", "Folder name must not be empty.")
    path = os.path.join(*names)
    return report(interp, _make_folder(path), nargout)


def _remove_folder(name: str, recursive: bool) -> Outcome:
    path = os.path.expanduser(name)
    if has_wildcard(path):
        targets = [os.path.join(f, n) for n, f in expand(path) if os.path.isdir(os.path.join(f, n))]
    else:
        targets = [path] if os.path.isdir(path) and not os.path.islink(path) else []
    if not targets:
        # MATLAB calls a missing name, or a file, "not a directory" (MathWorks' own code
        # treats MATLAB:RMDIR:NotADirectory as "already removed").
        return Outcome(False, f"{name} is not a folder.", "MATLAB:RMDIR:NotADirectory")
    for target in targets:
        try:
            if recursive:
                shutil.rmtree(target)
            elif os.listdir(target):
                return Outcome(False, f"'{name}' was not removed. The directory must be empty "
                                      "before removing.", "MATLAB:RMDIR:DirectoryNotRemoved")
            else:
                os.rmdir(target)
        except OSError as exc:
            return Outcome(False, f"{name} could not be removed. {os_reason(exc)}.",
                           "MATLAB:RMDIR:OSError")
    return Outcome()


@builtin(interp=True, nargout=True, max_out=3)
def rmdir(interp: Any, folder: Any, flag: Any = None, *, nargout: int = 0) -> Any:
    """rmdir(folderName) removes an empty folder.

    rmdir(folderName, 's') also removes everything in it.
    [status, msg, msgID] = rmdir(...) reports a failure instead of raising it."""
    name = _folder_argument(folder)
    recursive = False
    if flag is not None:
        if (text_or_none(flag) or "").lower() != "s":
            raise error("MATLAB:RMDIR:InvalidOption", "Invalid option. Option must be 's'.")
        recursive = True
    return report(interp, _remove_folder(name, recursive), nargout)


@builtin(name="delete", interp=True, max_out=0)
def delete_(interp: Any, *names: Any) -> None:
    """delete(filename) deletes a file; the name may hold the wildcard * (delete *.txt).

    delete(file1, ..., fileN) deletes several files.  A name that matches no file gives
    the warning "File 'name' not found."; a folder is not removed (use rmdir) and gives a
    warning too."""
    if not names:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    for v in names:
        name = text_scalar(v, "File name")
        found = [os.path.join(f, n) for n, f in expand(name)]
        if has_wildcard(name):
            found = [p for p in found if not os.path.isdir(p) or os.path.islink(p)]
        if not found:
            interp.warn("MATLAB:DELETE:FileNotFound", f"File '{name}' not found.")
            continue
        for path in found:
            if os.path.isdir(path) and not os.path.islink(path):
                # A warning in MATLAB, not an error (scripts turn it off or into an error).
                interp.warn("MATLAB:DELETE:DirectoryDeletion",
                            f"The argument '{name}' is a folder. Use rmdir to delete folders.")
                continue
            try:
                os.remove(path)
            except OSError as exc:
                if os.path.lexists(path):
                    interp.warn("MATLAB:DELETE:Permission",
                                f"File '{name}' could not be deleted: {os_reason(exc)}.")


# --------------------------------------------------------------- temporary names


def temp_folder() -> str:
    """The system's folder for temporary files, with a trailing separator."""
    folder = tempfile.gettempdir()
    return folder if folder.endswith(SEP) else folder + SEP


@builtin()
def tempdir() -> np.ndarray:
    """tmp_folder = tempdir is the system's folder for temporary files (TMPDIR, or /tmp),
    ending in a separator."""
    return char_row(temp_folder())


@builtin()
def tempname(folder: Any = None) -> Any:
    """tmp_name = tempname is a unique file name in the temporary folder (nothing is created).

    tmp_name = tempname(folder) is a unique name in folder; a string folder gives a string."""
    base = temp_folder() if folder is None else text_scalar(folder, "Folder name")
    name = "tp" + str(uuid.uuid4()).replace("-", "_")
    path = os.path.join(base, name)
    if type(folder) is StringArray:
        return StringArray.scalar(path)
    return char_row(path)
