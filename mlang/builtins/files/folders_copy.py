"""copyfile and movefile: files and folders, with the wildcard *, the 'f' flag, and
MATLAB's two modes (raise, or ``[status, msg, msgID]`` with outputs)."""

from __future__ import annotations

import os
import shutil
import stat
from typing import Any

from mlang.builtins.coerce import text_or_none, text_scalar
from mlang.builtins.files.atomic import atomic_path, os_reason
from mlang.builtins.files.folders import Outcome, report
from mlang.builtins.files.folders_listing import expand, has_wildcard
from mlang.errors import error
from mlang.registry import builtin


def _make_writable(path: str) -> None:
    """'f': a read-only target is overwritten all the same."""
    if os.path.lexists(path) and not os.access(path, os.W_OK):
        os.chmod(path, os.stat(path).st_mode | stat.S_IWUSR)


def _copy_one(source: str, target: str, force: bool) -> None:
    """Copy a file to a file name, or a folder's contents into a folder (merged)."""
    if os.path.isdir(source) and not os.path.islink(source):
        os.makedirs(target, exist_ok=True)
        for name in sorted(os.listdir(source)):
            _copy_one(os.path.join(source, name), os.path.join(target, name), force)
        return
    if force:
        _make_writable(target)
    if os.path.islink(source):
        shutil.copy2(source, target, follow_symlinks=False)
        return
    _atomic_copy(source, target)


def _atomic_copy(source: str, target: str) -> str:
    """Copy a file so that an error halfway leaves an existing target as it was, and no
    partial file behind."""
    with atomic_path(target) as temporary:
        shutil.copy2(source, temporary)
    return target


def _move_one(source: str, target: str, force: bool) -> None:
    if force:
        _make_writable(target)
    if os.path.isdir(source) and os.path.isdir(target):
        # a folder moved onto an existing folder: its contents merge in
        for name in sorted(os.listdir(source)):
            _move_one(os.path.join(source, name), os.path.join(target, name), force)
        os.rmdir(source)
        return
    # a move to another file system copies: atomically, as copyfile does
    shutil.move(source, target, copy_function=_atomic_copy)


def _inside(target: str, folder: str) -> bool:
    """Whether ``target`` is ``folder`` or lies below it (copying would never end)."""
    inner, outer = os.path.realpath(target), os.path.realpath(folder)
    return inner == outer or inner.startswith(outer.rstrip(os.sep) + os.sep)


def _transfer(what: str, source: Any, destination: Any, flag: Any) -> Outcome:
    """Copy (``what`` 'COPYFILE') or move ('MOVEFILE') the files ``source`` names."""
    src = os.path.expanduser(text_scalar(source, "Source"))
    if destination is None:
        dst = "."
    else:
        dst = os.path.expanduser(text_scalar(destination, "Destination"))
    force = False
    if flag is not None:
        if (text_or_none(flag) or "").lower() != "f":
            raise error(f"MATLAB:{what}:InvalidFlag", "Invalid flag. Flag must be 'f'.")
        force = True
    matches = [os.path.join(folder, name) for name, folder in expand(src)]
    if not matches:
        return Outcome(False, f"No matching files named {src} were found.",
                       f"MATLAB:{what}:FileNotFound")
    into_folder = os.path.isdir(dst) or has_wildcard(src) and len(matches) > 1
    copying = what == "COPYFILE"
    try:
        if into_folder:
            os.makedirs(dst, exist_ok=True)
        for path in matches:
            folder_contents = copying and os.path.isdir(path) and not has_wildcard(src)
            target = dst if (not into_folder or folder_contents) else \
                os.path.join(dst, os.path.basename(path))
            if os.path.abspath(target) == os.path.abspath(path) or (
                    os.path.exists(target) and os.path.samefile(target, path)):
                return Outcome(False, "Cannot copy or move a file or directory onto itself.",
                               f"MATLAB:{what}:SourceAndDestinationSame")
            if os.path.isdir(path) and _inside(target, path):
                return Outcome(False, "Cannot copy or move a directory into itself.",
                               f"MATLAB:{what}:OSError")
            if copying:
                _copy_one(path, target, force)
            else:
                _move_one(path, target, force)
    except OSError as exc:
        return Outcome(False, f"{os_reason(exc)}.", f"MATLAB:{what}:OSError")
    return Outcome()


@builtin(interp=True, nargout=True, max_out=3)
def copyfile(interp: Any, source: Any, destination: Any = None, flag: Any = None, *,
             nargout: int = 0) -> Any:
    """copyfile(source, destination) copies a file or folder (a folder's contents, with its
    subfolders) to destination.

    source may hold the wildcard * (copyfile *.m backup): several matches go into the
    folder destination, made if needed.  copyfile(source) copies into the current folder;
    copyfile(source, destination, 'f') also overwrites read-only files.
    [status, msg, msgID] = copyfile(...) reports a failure instead of raising it."""
    return report(interp, _transfer("COPYFILE", source, destination, flag), nargout)


@builtin(interp=True, nargout=True, max_out=3)
def movefile(interp: Any, source: Any, destination: Any = None, flag: Any = None, *,
             nargout: int = 0) -> Any:
    """movefile(source, destination) moves or renames a file or folder.

    source may hold the wildcard * (movefile *.txt archive): several matches go into the
    folder destination, made if needed.  movefile(source) moves into the current folder;
    movefile(source, destination, 'f') also overwrites read-only files.
    [status, msg, msgID] = movefile(...) reports a failure instead of raising it."""
    return report(interp, _transfer("MOVEFILE", source, destination, flag), nargout)
