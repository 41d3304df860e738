"""Parsed ASTs cached on disk, keyed on path, size and mtime.

Like Python's ``__pycache__``, a second run of an unchanged file loads its
tree instead of parsing it again.  The cache lives in the user's cache folder
(``$MLANG_CACHE_DIR``, else ``$XDG_CACHE_HOME/mlang/ast``, else
``~/.cache/mlang/ast``); ``MLANG_NO_CACHE=1`` turns it off.  Any failure to
read or write the cache falls back to parsing: the cache is only ever a
shortcut.
"""

from __future__ import annotations

import gc
import os
import sys
import zlib
from functools import cache
from pathlib import Path

from mlang.errors import MatlabError
from mlang.syntax import ast
from mlang.syntax.parser import Parser, default_parser


@cache
def _front_end_fingerprint() -> str:
    """Changes whenever the front end's code changes, so stale trees are never loaded."""
    crc, size = 0, 0
    here = Path(__file__).parent
    for name in ("ast.py", "build.py", "lalr_tables.py", "lexer.py", "literals.py", "matlab.lark",
                 "matrix_literal.py", "operand_runs.py", "parser.py", "patterns.py", "tokens.py"):
        data = (here / name).read_bytes()
        crc, size = zlib.crc32(data, crc), size + len(data)
    return f"{crc:08x}{size:x}"


def cache_dir() -> Path | None:
    if os.environ.get("MLANG_NO_CACHE"):
        return None
    root = os.environ.get("MLANG_CACHE_DIR")
    if root:
        return Path(root)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "mlang" / "ast"


def _cache_path(path: Path, st: os.stat_result) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    # 64 bits of checksums name the entry: zlib loads in a fraction of a millisecond, where
    # hashlib's first import costs about as much as the rest of a short script's start
    key = f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0{_front_end_fingerprint()}".encode()
    return folder / f"{zlib.crc32(key):08x}{zlib.adler32(key):08x}.ast"


def parse_file(path: str | os.PathLike[str], parser: Parser | None = None) -> ast.Program:
    """The AST of a ``.m`` file, from the cache when the file is unchanged.

    A file that cannot be read (no permission, gone, a folder) is a MATLAB error."""
    given = path
    path = Path(path).resolve()
    try:
        st = path.stat()
    except OSError as exc:
        raise unreadable_file(given, exc) from None
    cached = _cache_path(path, st)
    if cached is not None:
        import pickle  # here, not at the top: a run that reads no file need not load it
        # (the cyclic collector pauses while the tree's nodes are made, as in a parse)
        collecting = gc.isenabled()
        gc.disable()
        try:
            with open(cached, "rb") as f:
                program = pickle.load(f)
            if type(program) is ast.Program:
                return program
        except Exception:  # a missing, stale or damaged entry: parse instead
            pass
        finally:
            if collecting:
                gc.enable()
    text = read_source(given)
    program = (parser or default_parser()).parse(text, str(path))
    if cached is not None:
        _store(cached, program)
    return program


def read_source(path: str | os.PathLike[str]) -> str:
    """The text of a source file; a MATLAB error naming the file when it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise unreadable_file(path, exc) from None


class FileReadError(MatlabError):
    """A source file that exists by name but cannot be read (resolution tells it apart);
    ``reason`` is the system's word for why ("Permission denied")."""

    reason = ""


def unreadable_file(path: str | os.PathLike[str], exc: OSError) -> FileReadError:
    problem = FileReadError("MATLAB:unableToReadFile",
                            f"Unable to read file '{os.fspath(path)}'. "
                            f"{exc.strerror or type(exc).__name__}.")
    problem.reason = exc.strerror or type(exc).__name__
    return problem


# pickle.dump recurses on the C stack, one level per level of the tree: a deeper
# tree (a long operator chain) is not cached, rather than risk the C stack.
PICKLE_DEPTH = 4000


def _store(cached: Path, program: ast.Program) -> None:
    import pickle  # here, not at the top: only a run that parses a file needs them
    import tempfile
    tmp = ""
    limit = sys.getrecursionlimit()
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        data = b""
        sys.setrecursionlimit(PICKLE_DEPTH)
        try:
            data = pickle.dumps(program, protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            sys.setrecursionlimit(limit)
        fd, tmp = tempfile.mkstemp(dir=cached.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, cached)
    except Exception:  # a read-only or full disk, a tree too deep: only costs the shortcut
        try:
            os.unlink(tmp)
        except Exception:
            pass
