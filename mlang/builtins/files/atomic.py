"""Writes that never leave a half-written file.

Every builtin that writes a whole file (save, writetable, imwrite, writelines...)
writes to a temporary file in the target's folder and renames it over the target
only when the write succeeded, so an error halfway -- a value that cannot be
written, a full disk -- leaves any existing file as it was and nothing else behind.
The rename is atomic because both names are in one folder (one file system).

``atomic_path`` suits libraries that write to a name (h5py, Pillow, openpyxl);
``atomic_file`` yields an open file.  Both raise ``OSError`` as Python does: each
caller turns it into its own MATLAB error (``os_reason`` gives MATLAB's wording).
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator
from typing import IO, Any


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[str]:
    """A temporary name in ``path``'s folder to write; renamed to ``path`` on success,
    removed on any error."""
    target = os.fspath(path)
    folder, name = os.path.split(os.path.abspath(target))
    handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=folder)
    os.close(handle)
    try:
        yield temporary
        _keep_mode(target, temporary)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike[str], mode: str = "wb", **open_args: Any) -> Iterator[IO]:
    """An open temporary file that becomes ``path`` when the block ends without error."""
    with atomic_path(path) as temporary, open(temporary, mode, **open_args) as f:
        yield f
        f.flush()
        os.fsync(f.fileno())


def _keep_mode(target: str, temporary: str) -> None:
    """The new file gets the old one's permissions, or the usual ones for a new file
    (mkstemp makes it readable by its owner only)."""
    try:
        mode = os.stat(target).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temporary, mode)


def os_reason(exc: OSError) -> str:
    """MATLAB's wording of why a file operation failed."""
    reasons = {errno.ENOENT: "No such file or directory", errno.EACCES: "Permission denied",
               errno.EPERM: "Permission denied", errno.EISDIR: "Is a directory",
               errno.ENOTDIR: "Not a directory", errno.ENOSPC: "No space left on device",
               errno.EROFS: "Read-only file system", errno.EEXIST: "File exists"}
    return reasons.get(exc.errno or 0, exc.strerror or str(exc))
