"""Memory allocator settings for the mlang process.

glibc's malloc serves blocks above its mmap threshold (128 KB at start) with
fresh pages from the kernel and returns them on free, so every large NumPy
temporary (a 20x1000 double array is 160 KB) costs page faults.  Array code
makes such temporaries constantly; keeping them in the heap makes it
markedly faster (about 2x on the autodiff benchmark's PINN loss).  The
command line front end applies this; a program using mlang as a library
keeps its own allocator settings unless it calls ``tune_allocator`` itself.
"""

from __future__ import annotations

import ctypes
import sys

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 64 << 20  # blocks up to 64 MB come from the heap
TRIM_THRESHOLD = 256 << 20  # the heap keeps up to 256 MB of free memory for reuse


def tune_allocator() -> bool:
    """Raise glibc's mmap and trim thresholds; False where that is not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False  # not glibc
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
