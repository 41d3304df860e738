"""Profile one benchmark of bench/matlab/ under mlang with cProfile.

    python bench/profile_mlang.py NAME [--top N] [--sort tottime|cumulative]

Runs bench/matlab/NAME.m in this process and prints the script's own output,
then the N functions with the most time (own time by default).  cProfile
charges a fixed cost to every Python call, so closures that are called
millions of times look heavier than they are; compare the order, not the
absolute seconds, with bench/run.py.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "matlab"


def profile(script: Path, top: int, sort: str) -> tuple[str, str]:
    """(the script's output, the profile report) of one in-process run."""
    from mlang.evaluation.interpreter import Interpreter

    out = io.StringIO()
    interp = Interpreter(stdout=out)
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        interp.run_file(script)
    finally:
        profiler.disable()
    report = io.StringIO()
    stats = pstats.Stats(profiler, stream=report)
    stats.strip_dirs().sort_stats(sort).print_stats(top)
    return out.getvalue(), report.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("name", help="a benchmark in bench/matlab (without .m)")
    p.add_argument("--top", type=int, default=25, help="how many functions to list")
    p.add_argument("--sort", default="tottime", choices=("tottime", "cumulative", "ncalls"))
    opts = p.parse_args(argv)
    script = SCRIPTS / f"{opts.name}.m"
    if not script.is_file():
        print(f"profile_mlang.py: no benchmark {script}", file=sys.stderr)
        return 2
    # The same single-threaded BLAS as bench/run.py; set before NumPy loads.
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"
    output, report = profile(script, opts.top, opts.sort)
    print(output, end="")
    print(report, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
