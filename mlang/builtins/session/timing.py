"""Timing: tic, toc and cputime.  tic's start belongs to the interpreter."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import to_array


def _timer_start(interp: Any) -> int | None:
    return getattr(interp, "tic_start", None)


@builtin()
def cputime() -> float:
    """t = cputime is the CPU time in seconds used by this MATLAB session."""
    return time.process_time()


@builtin(interp=True, nargout=True)
def tic(interp: Any, *, nargout: int = 0) -> Any:
    """tic starts a stopwatch timer; toc reads it. t = tic returns an identifier for toc(t)."""
    now = time.perf_counter_ns() // 1000
    if nargout:
        return np.array([[now]], dtype=np.uint64)
    interp.tic_start = now
    return None


@builtin(interp=True, nargout=True)
def toc(interp: Any, start: Any = None, *, nargout: int = 0) -> Any:
    """elapsed = toc is the time in seconds since tic; toc alone prints it.

    toc(t) measures from the tic that returned t."""
    now = time.perf_counter_ns() // 1000
    if start is None:
        begin = _timer_start(interp)
        if begin is None:
            raise error("MATLAB:toc:callTicFirst",
                        "You must call TIC without an output argument before calling "
                        "TOC without an input argument.")
    else:
        stamp = to_array(start) if type(start) in (float, np.ndarray) else None
        if stamp is None or stamp.size != 1 or stamp.dtype.kind not in "iuf" \
                or not np.isfinite(stamp).all():
            raise error("MATLAB:toc:invalidInput",
                        "Input argument must be a timer value returned by TIC.")
        begin = int(stamp.reshape(-1)[0])
    elapsed = (now - begin) / 1e6
    if nargout:
        return elapsed
    interp.write(f"Elapsed time is {elapsed:.6f} seconds.\n")
    return None
