"""The largest array a session may create: MATLAB's maximum array size preference.

Every path that can be asked for a huge array (constructors, ranges,
replication, indexed growth, concatenation) checks the request here before
allocating, so an impossible size is MATLAB's ``SizeLimitExceeded`` error
rather than NumPy's ``MemoryError``.  The limit is the running interpreter's
``max_array_bytes``; without one running, the default below.
"""

from __future__ import annotations

import math
import os

import numpy as np

from mlang.errors import MatlabError, error, running_interpreter

GIB = 2 ** 30
# Half of physical memory by default: NumPy's pages are committed only when
# written, so an allocation near all of memory would end the process instead
# of failing cleanly.
DEFAULT_MEMORY_FRACTION = 0.5
# Requests below this many bytes are never refused (spares the lookup on hot paths).
ALWAYS_ALLOWED_BYTES = 2 ** 26
# No array may have more elements than this, whatever the memory.
MAX_ELEMENTS = 2 ** 48


def _physical_memory() -> int:
    """Bytes of memory this process can use: the machine's, or a cgroup's smaller limit."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        total = 16 * GIB
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as f:
            text = f.read().strip()
        if text.isdigit():
            total = min(total, int(text))
    except OSError:
        pass
    return total


DEFAULT_MAX_ARRAY_BYTES = int(_physical_memory() * DEFAULT_MEMORY_FRACTION)


def max_array_bytes() -> int:
    """The running interpreter's maximum array size in bytes (the default when none runs)."""
    interp = running_interpreter()
    limit = getattr(interp, "max_array_bytes", None)
    return DEFAULT_MAX_ARRAY_BYTES if limit is None else int(limit)


def bytes_per_element(dtype: np.dtype | str) -> int:
    """MATLAB's storage per element: cells and structs take a pointer."""
    dtype = np.dtype(dtype)
    if dtype.kind == "O":
        return 8
    return dtype.itemsize


def size_limit_exceeded(shape: tuple[int, ...], nbytes: float, limit: int) -> MatlabError:
    dims = "x".join(str(int(d)) for d in shape)
    return error("MATLAB:array:SizeLimitExceeded",
                 f"Requested {dims} ({nbytes / GIB:.1f}GB) array exceeds maximum array size "
                 f"preference ({limit / GIB:.1f}GB). This might cause MATLAB to become "
                 "unresponsive.")


def too_many_elements() -> MatlabError:
    return error("MATLAB:pmaxsize", "Maximum variable size allowed by the program is exceeded.")


def check_array_size(shape: tuple[int, ...], dtype: np.dtype | str = np.float64) -> None:
    """Refuse an array of ``shape`` and ``dtype`` larger than the session allows."""
    elements = math.prod(shape)
    nbytes = elements * bytes_per_element(dtype)
    if nbytes <= ALWAYS_ALLOWED_BYTES:
        return
    if elements > MAX_ELEMENTS:
        raise too_many_elements()
    limit = max_array_bytes()
    if nbytes > limit:
        raise size_limit_exceeded(shape, nbytes, limit)


def out_of_memory() -> MatlabError:
    """MATLAB's error for an allocation the system refused."""
    return error("MATLAB:nomem", "Out of memory.")
