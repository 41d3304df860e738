"""NumPy references for benchmarks of bench/matlab/: the same work written in Python with NumPy.

    python bench/numpy_reference.py NAME        (NAME: vectorised, small_arrays, builtin_calls)

Prints ``NAME_numpy seconds wall`` (CPU and elapsed seconds of the measured part, like the
MATLAB scripts) after checking the result as the MATLAB script does: the floor an
interpreter whose values are NumPy arrays can reach for that benchmark.  Each reference is
the MATLAB loop translated line by line the way a Python programmer would write it: arrays
are NumPy arrays, scalars are Python numbers.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable

import numpy as np


def _clock() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def _since(start: tuple[float, float]) -> tuple[float, float]:
    """CPU and elapsed seconds since ``start``."""
    return time.process_time() - start[0], time.perf_counter() - start[1]


def vectorised(n: int = 1_000_000, repeats: int = 20) -> tuple[float, float]:
    """matlab/vectorised.m: element-wise work on an n-element row, 20 times."""
    x = (np.arange(1, n + 1, dtype=np.float64) / n).reshape(1, n)  # (1:n)/n
    start = _clock()
    acc = 0.0
    for _ in range(repeats):
        y = x**2 + 3 * x - 1
        z = np.sqrt(np.abs(y)) * np.exp(-x)
        w = (z > 0.5) * z / (1 + x)
        acc += float(w.sum())
    seconds = _since(start)
    if not acc > 0:
        raise SystemExit(f"vectorised computed {acc}")
    return seconds


def small_arrays(n: int = 20000) -> tuple[float, float]:
    """matlab/small_arrays.m: operators, indexing and concatenation on 3-element rows."""
    total = 0.0
    count = 0.0
    start = _clock()
    for k in range(1, n + 1):
        v = np.array([[k, k + 1, k - 2]], dtype=float)
        a = v[:, 0:2]
        b = v[:, 1:]
        c = v[:, [0, 2]]
        d = v.reshape(-1, 1)
        e = v / 2
        f = v**2
        g = 2 * v + 1
        h = v > k
        m = np.maximum(v, k)
        r = np.mod(v, 3)
        w = np.vstack((v, v))
        x = np.hstack((a, b, c))
        v[0, 1] = k
        count = count + (k > n / 2) + h[0, 1]
        total = (total + a[0, 0] + b[0, -1] + c[0, 1] + d[2, 0] + e[0, 0] + f[0, 2] + g[0, 1]
                 + m[0, 2] + r[0, 0] + w[1, 2] + x[0, 5] + v[0, 1] + np.sum(h))
    seconds = _since(start)
    ks = np.arange(1, n + 1, dtype=float)
    expect = np.sum(ks + 3 * (ks - 2) + ks / 2 + (ks - 2) ** 2 + (2 * (ks + 1) + 1) + ks
                    + np.mod(ks, 3) + 2 * (ks - 2) + ks + 1)
    if total != expect or count != n + n - math.ceil(n / 2):
        raise SystemExit(f"small_arrays computed {total} (count {count}), expected {expect}")
    return seconds


def builtin_calls(n: int = 20000) -> tuple[float, float]:
    """matlab/builtin_calls.m: common functions on scalars and short rows."""
    total = 0.0
    start = _clock()
    for k in range(1, n + 1):
        v = np.array([[k, k + 1, k - 2]], dtype=float)
        s = -np.sort(-v, axis=1)  # sort(v, 'descend')
        c = np.cumsum(v, axis=1)
        lin = np.linspace(0, k, 3).reshape(1, 3)
        w = np.hstack((v, [[k]])).reshape(2, 2, order="F")
        u = np.vstack((v, v))
        st = {"a": k}
        p = np.prod(v[:, 0:2])
        total = (total + np.any(v > k) + np.all(v != 0) + s[0, 0] + c[0, -1] + np.max(v)
                 + np.min(v) + (np.flatnonzero(v > k)[0] + 1) + lin[0, 1]
                 + np.linalg.norm(v[0, 0:2]) + np.dot(v[0], v[0]) + np.mean(v) + u.size
                 + w.flat[3] + st["a"] + ("a" in st) + math.gcd(k, 12) + k % 7
                 + math.floor(k / 3 + 0.5) + abs(-k) + (v.size == 0) + p + np.sum(np.zeros((1, 2)))
                 + math.atan2(k, k) + math.hypot(3, 4) + np.count_nonzero(v)
                 + len([np.zeros((0, 0))] * 2) + np.eye(2).shape[0])
    seconds = _since(start)
    expect = 0.0
    for k in range(1, n + 1):  # the script's check, written with operators alone
        expect = (expect + 1 + 1 + (k + 1) + (3 * k - 1) + (k + 1) + (k - 2) + 2 + k / 2
                  + math.sqrt(k**2 + (k + 1) ** 2) + (k**2 + (k + 1) ** 2 + (k - 2) ** 2)
                  + (k - 1 / 3) + 6 + k + k + 1 + math.gcd(k, 12) + k % 7
                  + math.floor(k / 3 + 0.5) + k + 0 + k * (k + 1) + 0 + math.pi / 4 + 5 + 3
                  - (k == 2) + 2 + 2)
    if abs(total - expect) > 1e-6 * abs(expect):
        raise SystemExit(f"builtin_calls computed {total}, expected {expect}")
    return seconds


REFERENCES: dict[str, Callable[..., tuple[float, float]]] = {
    "vectorised": vectorised,
    "small_arrays": small_arrays,
    "builtin_calls": builtin_calls,
}


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in REFERENCES:
        print(f"usage: numpy_reference.py {{{','.join(REFERENCES)}}}", file=sys.stderr)
        return 2
    # Like mlang while MATLAB code runs, ask for no huge pages for large arrays (their first
    # touch costs several times as much on a busy machine), so both engines page alike.
    multiarray = (np._core if hasattr(np, "_core") else np.core).multiarray
    getattr(multiarray, "_set_madvise_hugepage", lambda ask: False)(False)
    name = argv[0]
    seconds, wall = REFERENCES[name]()
    print(f"{name}_numpy {seconds:.6f} {wall:.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
