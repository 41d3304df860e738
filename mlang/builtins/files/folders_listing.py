"""What a file name with wildcards names: the matching (name, folder) pairs that dir,
delete, copyfile and movefile work on.

MATLAB's wildcards: ``*`` in any part of a name stands for any characters, and a part
that is just ``**`` stands for the folder and all the folders below it (dir's recursive
search).  Names are listed in code-point order, as MATLAB does on Linux.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache


@lru_cache(maxsize=64)
def wildcard(pattern: str) -> re.Pattern[str]:
    """MATLAB's file name wildcard as a regular expression: * is any characters."""
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.DOTALL)


def has_wildcard(name: str) -> bool:
    return "*" in name


def _entries(folder: str) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def _below(folder: str) -> list[str]:
    """``folder`` and every folder below it, each before its own subfolders."""
    found = [folder]
    for name in _entries(folder):
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not os.path.islink(path):
            found += _below(path)
    return found


def _split(target: str) -> tuple[str, list[str]]:
    """The folder a pattern starts from and its parts (empty parts dropped)."""
    start = os.sep if os.path.isabs(target) else "."
    return start, [p for p in target.split(os.sep) if p]


def matching_folders(parts: list[str], start: str) -> list[str]:
    """The folders that the folder parts of a pattern name, starting from ``start``."""
    folders = [start]
    for part in parts:
        step: list[str] = []
        for folder in folders:
            if part == "**":
                step += _below(folder)
            elif has_wildcard(part):
                matcher = wildcard(part)
                step += [os.path.join(folder, n) for n in _entries(folder)
                         if matcher.fullmatch(n) and os.path.isdir(os.path.join(folder, n))]
            elif os.path.isdir(os.path.join(folder, part)):
                step.append(os.path.join(folder, part))
        folders = step
    return folders


def expand(name: str, dots: bool = False) -> list[tuple[str, str]]:
    """The files and folders a name with wildcards matches, as (name, absolute folder)
    pairs; a name without wildcards matches itself when it exists.  '.' and '..' match
    a wildcard only with ``dots`` (dir lists them, delete and copyfile never touch them)."""
    target = os.path.expanduser(name)
    if not has_wildcard(target):
        if os.path.lexists(target):
            head, tail = os.path.split(os.path.normpath(target))
            return [(tail, os.path.abspath(head or "."))]
        return []
    start, parts = _split(target)
    if not parts:
        return []
    *folder_parts, last = parts
    found: list[tuple[str, str]] = []
    for folder in matching_folders(folder_parts, start):
        extra = [".", ".."] if dots else []
        if last == "**":
            for below in _below(folder):
                found += [(n, os.path.abspath(below)) for n in extra + _entries(below)]
            continue
        matcher = wildcard(last)
        found += [(n, os.path.abspath(folder)) for n in extra + _entries(folder)
                  if matcher.fullmatch(n)]
    return found
