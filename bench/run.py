"""Speed benchmarks of the mlang evaluator, side by side with GNU Octave.

    python bench/run.py [--runs N] [--timeout S] [--no-octave] [--mlang CMD] [NAME ...]

Each script in bench/matlab/ times its measured part with cputime and tic/toc
and prints one line ``name seconds wall``: the CPU seconds, then the elapsed
seconds.  This runner runs every script (or those whose name contains one of
the NAMEs) under mlang and, when ``octave-cli`` is on the PATH, under Octave,
takes the median of N runs (5 by default) and prints a table: benchmark,
mlang CPU seconds, Octave CPU seconds, ratio mlang/Octave.  The NumPy
reference for the vectorised benchmark (bench/numpy_vectorised.py) is printed
below the table.

CPU time rather than elapsed time, because the machine may be shared: other
processes slow the clock on the wall, not the CPU time of the measured part.
BLAS and OpenMP are pinned to one thread in every child process, so neither
engine's CPU time includes helper threads.  A benchmark that fails (a missing
builtin, a wrong result) is shown as FAIL with the first line of its error.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "matlab"
NUMPY_REFERENCE = HERE / "numpy_vectorised.py"

# In table order; helper function files (bench_*.m) live beside them.
BENCHMARKS = (
    "scalar_loop",
    "while_if",
    "function_calls",
    "recursion_fib",
    "array_growth",
    "preallocated",
    "vectorised",
    "string_building",
    "large_text",
    "struct_fields",
    "cell_access",
)

THREAD_PINS = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
OCTAVE_FLAGS = ("--norc", "--quiet", "--no-history")


@dataclass(frozen=True, slots=True)
class Outcome:
    """CPU and elapsed seconds of a benchmark under one engine, or why it failed."""

    seconds: float | None = None
    wall: float | None = None
    error: str | None = None


NUMBER = r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"


def parse_times(name: str, output: str) -> tuple[float, float | None] | None:
    """(CPU seconds, elapsed seconds or None) from the line ``name seconds [wall]``."""
    pattern = re.compile(rf"^\s*{re.escape(name)}\s+({NUMBER})(?:\s+({NUMBER}))?\s*$")
    for line in output.splitlines():
        match = pattern.match(line)
        if match:
            wall = match.group(2)
            return float(match.group(1)), (float(wall) if wall is not None else None)
    return None


def first_error_line(stderr: str, stdout: str) -> str:
    """The first meaningful line of a failed run's messages."""
    for text in (stderr, stdout):
        for line in text.splitlines():
            line = line.strip()
            if line:
                return line[:120]
    return "no output"


def child_environment() -> dict[str, str]:
    return {**os.environ, **THREAD_PINS}


def run_once(command: Sequence[str], script: Path, name: str, timeout: float) -> Outcome:
    """Run one script once; the time it reports, or the error."""
    try:
        done = subprocess.run([*command, str(script)], cwd=script.parent, env=child_environment(),
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return Outcome(error=f"timed out after {timeout:g} s")
    except OSError as exc:
        return Outcome(error=f"cannot run {command[0]}: {exc.strerror}")
    times = parse_times(name, done.stdout)
    if done.returncode != 0 or times is None:
        return Outcome(error=first_error_line(done.stderr, done.stdout))
    return Outcome(seconds=times[0], wall=times[1])


def measure(command: Sequence[str], script: Path, name: str, runs: int, timeout: float) -> Outcome:
    """Median over ``runs`` runs; stops at the first failure (failures repeat)."""
    outcomes = []
    for _ in range(runs):
        outcome = run_once(command, script, name, timeout)
        if outcome.error is not None:
            return outcome
        outcomes.append(outcome)
    walls = [o.wall for o in outcomes if o.wall is not None]
    return Outcome(seconds=statistics.median(o.seconds for o in outcomes),
                   wall=statistics.median(walls) if walls else None)


def ratio(a: Outcome, b: Outcome | None) -> str:
    if b is None or a.seconds is None or b.seconds is None or b.seconds <= 0:
        return "-"
    return f"{a.seconds / b.seconds:.2f}"


def cell(outcome: Outcome | None) -> str:
    if outcome is None:
        return "-"
    if outcome.seconds is None:
        return "FAIL"
    return f"{outcome.seconds:.3f}"


def format_table(rows: list[tuple[str, Outcome, Outcome | None]]) -> str:
    """The results table, one line per failure with its message, and a note on busy runs."""
    header = ("benchmark", "mlang CPU s", "Octave CPU s", "mlang/Octave")
    body = [(name, cell(m), cell(o), ratio(m, o)) for name, m, o in rows]
    lines = aligned([header, *body])
    waited = []
    for name, m, o in rows:
        for engine, outcome in (("mlang", m), ("Octave", o)):
            if outcome is not None and outcome.error is not None:
                lines.append(f"  {name} ({engine}): {outcome.error}")
            elif outcome is not None and busy(outcome):
                waited.append(f"{name} ({engine})")
    if waited:
        lines.append(f"note: elapsed time well above CPU time (a busy machine) for {len(waited)} of "
                     f"{sum(2 if o is not None else 1 for _, _, o in rows)}: {', '.join(waited)}")
    return "\n".join(lines)


def aligned(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows of cells as lines of columns: the first column left-aligned, the others
    right-aligned, a rule under the first row (the header)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join([r[0].ljust(widths[0])] + [r[i].rjust(widths[i]) for i in range(1, len(r))])
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines


def busy(outcome: Outcome) -> bool:
    """Did the run wait much longer than it computed (other processes competing)?"""
    if outcome.seconds is None or outcome.wall is None:
        return False
    return outcome.wall > 1.25 * outcome.seconds + 0.05


def selected(names: Sequence[str]) -> list[str]:
    if not names:
        return list(BENCHMARKS)
    return [b for b in BENCHMARKS if any(n in b for n in names)]


def _arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("names", nargs="*", help="run only benchmarks whose name contains one of these")
    p.add_argument("--runs", type=int, default=5, help="runs per benchmark and engine (median)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds allowed for one run")
    p.add_argument("--no-octave", action="store_true", help="skip Octave even if installed")
    p.add_argument("--mlang", default=f"{shlex.quote(sys.executable)} -m mlang",
                   help="command that runs a MATLAB script with mlang")
    p.add_argument("--octave", default="octave-cli", help="the Octave executable")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    opts = _arguments().parse_args(argv)
    if opts.runs < 1:
        print("run.py: --runs must be at least 1", file=sys.stderr)
        return 2
    mlang = shlex.split(opts.mlang)
    octave_path = None if opts.no_octave else shutil.which(opts.octave)
    octave = [octave_path, *OCTAVE_FLAGS] if octave_path else None
    names = selected(opts.names)
    if not names:
        print("run.py: no benchmark matches", file=sys.stderr)
        return 2

    rows: list[tuple[str, Outcome, Outcome | None]] = []
    for name in names:
        script = SCRIPTS / f"{name}.m"
        print(f"running {name} ...", file=sys.stderr, flush=True)
        m = measure(mlang, script, name, opts.runs, opts.timeout)
        o = measure(octave, script, name, opts.runs, opts.timeout) if octave else None
        rows.append((name, m, o))

    print(f"median of {opts.runs} run(s); CPU seconds of the measured part; BLAS/OpenMP threads: 1")
    if octave is None:
        print("Octave: not run (octave-cli not found or --no-octave)")
    print(format_table(rows))

    if "vectorised" in names:
        ref = measure([sys.executable], NUMPY_REFERENCE, "vectorised_numpy", opts.runs, opts.timeout)
        m = next(m for n, m, _ in rows if n == "vectorised")
        if ref.seconds is None:
            print(f"NumPy reference for vectorised: FAIL ({ref.error})")
        else:
            print(f"NumPy reference for vectorised: {ref.seconds:.3f} s "
                  f"(mlang/NumPy {ratio(m, ref)})")
    return 0 if all(m.error is None for _, m, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
