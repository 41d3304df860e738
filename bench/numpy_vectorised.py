"""NumPy reference for bench/matlab/vectorised.m: the same element-wise work.

    python bench/numpy_vectorised.py

Prints ``vectorised_numpy seconds wall`` (CPU and elapsed seconds of the
measured part, like the MATLAB scripts): the floor an interpreter built on
NumPy can reach for that benchmark.
"""

from __future__ import annotations

import time

import numpy as np

N = 1_000_000
REPEATS = 20


def work(x: np.ndarray, repeats: int) -> float:
    """The loop of vectorised.m; returns the accumulated sum."""
    acc = 0.0
    for _ in range(repeats):
        y = x**2 + 3 * x - 1
        z = np.sqrt(np.abs(y)) * np.exp(-x)
        w = (z > 0.5) * z / (1 + x)
        acc += float(w.sum())
    return acc


def main() -> None:
    # Like mlang while MATLAB code runs, ask for no huge pages for large arrays (their first
    # touch costs several times as much on a busy machine), so both engines page alike.
    multiarray = (np._core if hasattr(np, "_core") else np.core).multiarray
    getattr(multiarray, "_set_madvise_hugepage", lambda ask: False)(False)
    # A 1xN row, like (1:n)/n in MATLAB.
    x = (np.arange(1, N + 1, dtype=np.float64) / N).reshape(1, N)
    start, start_wall = time.process_time(), time.perf_counter()
    work(x, REPEATS)
    seconds = time.process_time() - start
    wall = time.perf_counter() - start_wall
    print(f"vectorised_numpy {seconds:.6f} {wall:.6f}")


if __name__ == "__main__":
    main()
