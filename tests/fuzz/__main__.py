"""``python -m tests.fuzz``: run a fuzzing campaign and print what it found."""

from __future__ import annotations

import argparse
import os
import sys

# One BLAS thread per child: two children on two cores must not fight over them.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--seed", type=int, default=0, help="campaign seed (default 0)")
    parser.add_argument("--programs", type=int, help="how many programs to run")
    parser.add_argument("--minutes", type=float, help="run for this long instead")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="children running at once (default: the number of CPUs)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per program")
    parser.add_argument("--memory", type=int, default=1024, help="MiB of memory per program")
    parser.add_argument("--save", help="folder for the failures (default: a new temp folder)")
    parser.add_argument("--no-minimise", action="store_true", help="save failures as found")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    if args.programs is None and args.minutes is None:
        args.programs = 1000
    os.environ.setdefault("MLANG_CACHE_DIR", os.path.join(
        __import__("tempfile").mkdtemp(prefix="mlang-fuzz-cache-")))

    from pathlib import Path

    from tests.fuzz.campaign import campaign, format_report
    from tests.fuzz.runner import Limits

    report = campaign(seed=args.seed, programs=args.programs, minutes=args.minutes,
                      jobs=args.jobs, limits=Limits(seconds=args.timeout, memory_mb=args.memory),
                      save=Path(args.save) if args.save else None,
                      minimise=not args.no_minimise, log=None if args.quiet else sys.stderr)
    sys.stdout.write(format_report(report, args.seed))
    return 1 if report.failures() else 0


if __name__ == "__main__":
    sys.exit(main())
