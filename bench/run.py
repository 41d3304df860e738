"""Speed benchmarks of the mlang evaluator, side by side with GNU Octave.

    python bench/run.py [--runs N] [--timeout S] [--no-octave] [--mlang CMD] [NAME ...]

Each script in bench/matlab/ times its measured part with cputime and tic/toc
and prints one line ``name seconds wall``: the CPU seconds, then the elapsed
seconds.  This runner runs every script (or those whose name contains one of
the NAMEs) under mlang and, when ``octave-cli`` is on the PATH, under Octave,
takes the median of N runs (5 by default) and prints a table: benchmark,
mlang CPU seconds, Octave CPU seconds, ratio mlang/Octave.  The NumPy
references (bench/numpy_reference.py: the same work written with NumPy, the floor
for an interpreter over NumPy arrays) of the benchmarks that have one are printed
below the table.

CPU time rather than elapsed time, because the machine may be shared: other
processes slow the clock on the wall, not the CPU time of the measured part.
BLAS and OpenMP are pinned to one thread in every child process, so neither
engine's CPU time includes helper threads.  A benchmark that fails (a missing
builtin, a wrong result) is shown as FAIL with the first line of its error.
"""

from __future__ import annotations

import argparse
import importlib.util
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
NUMPY_REFERENCE = HERE / "numpy_reference.py"
WITH_NUMPY_REFERENCE = ("vectorised", "small_arrays", "builtin_calls")
STARTUP = HERE / "startup.py"

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
    "cellfun_handles",
    "cellfun_nonuniform",
    "prealloc_recurrence",
    "sprintf_loop",
    "nested_calls",
    "while_compound",
    "struct_array_loop",
    "string_array_loop",
    "minibatch_queue",
    "map_loop",
    "small_arrays",
    "builtin_calls",
    "literal_parse",
    "strrep_1e7",
    "regexprep_1e7",
    "strsplit_1e7",
    "deep_nesting",
    "growth_patterns",
)

# Benchmarks GNU Octave cannot run, with the reason shown instead of its time.
OCTAVE_UNSUPPORTED = {"string_array_loop": "Octave has no string class",
                      "minibatch_queue": "Octave has no datastores"}

# --scaling: (benchmark, n) run at n and SCALE_FACTOR*n; each script reads its size from
# the variable n when it is set.  Time linear in n grows by about SCALE_FACTOR.
SCALING = (
    ("strrep_1e7", 2_500_000),
    ("regexprep_1e7", 2_500_000),
    ("strsplit_1e7", 2_500_000),
    ("literal_parse", 250),
    ("deep_nesting", 5000),
    ("growth_patterns", 5000),
)
SCALE_FACTOR = 4

THREAD_PINS = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
OCTAVE_FLAGS = ("--norc", "--quiet", "--no-history")


@dataclass(frozen=True, slots=True)
class Outcome:
    """CPU and elapsed seconds of a benchmark under one engine, or why it failed."""

    seconds: float | None = None
    wall: float | None = None
    error: str | None = None
    not_run: str | None = None  # why the engine cannot run this benchmark at all


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


def sized(command: Sequence[str], eval_flag: str, name: str, size: int) -> list[str]:
    """The command that runs script ``name`` with its size variable n set to ``size``."""
    return [*command, eval_flag, f"n = {size}; {name}"]


def run_once(command: Sequence[str], script: Path, name: str, timeout: float,
             arguments: Sequence[str] | None = None) -> Outcome:
    """Run one script once (``command script``, or ``arguments`` in the script's folder);
    the time it reports, or the error."""
    argv = [*command, str(script)] if arguments is None else list(arguments)
    try:
        done = subprocess.run(argv, cwd=script.parent, env=child_environment(),
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return Outcome(error=f"timed out after {timeout:g} s")
    except OSError as exc:
        return Outcome(error=f"cannot run {command[0]}: {exc.strerror}")
    times = parse_times(name, done.stdout)
    if done.returncode != 0 or times is None:
        return Outcome(error=first_error_line(done.stderr, done.stdout))
    return Outcome(seconds=times[0], wall=times[1])


def measure(command: Sequence[str], script: Path, name: str, runs: int, timeout: float,
            arguments: Sequence[str] | None = None) -> Outcome:
    """Median over ``runs`` runs; stops at the first failure (failures repeat)."""
    outcomes = []
    for _ in range(runs):
        outcome = run_once(command, script, name, timeout, arguments)
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
    if outcome.not_run is not None:
        return "n/a"
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
            if outcome is not None and outcome.not_run is not None:
                lines.append(f"  {name} ({engine}): not run: {outcome.not_run}")
            elif outcome is not None and outcome.error is not None:
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


def growth(small: Outcome | None, large: Outcome | None) -> str:
    if small is None or large is None or small.seconds is None or large.seconds is None:
        return "-"
    if small.seconds <= 0:
        return "-"
    return f"{large.seconds / small.seconds:.1f}"


ScalingRow = tuple[str, int, tuple[Outcome, Outcome], tuple[Outcome, Outcome] | None]


def format_scaling(rows: list[ScalingRow]) -> str:
    """The scaling table: each engine's CPU seconds at n and SCALE_FACTOR*n and their ratio."""
    k = SCALE_FACTOR
    header = ("benchmark", "n", "mlang n", f"mlang {k}n", "mlang growth",
              "Octave n", f"Octave {k}n", "Octave growth")
    body = []
    for name, n, (m1, m4), octave in rows:
        o1, o4 = octave if octave is not None else (None, None)
        body.append((name, f"{n:g}", cell(m1), cell(m4), growth(m1, m4), cell(o1), cell(o4), growth(o1, o4)))
    lines = aligned([header, *body])
    for name, _, (m1, m4), octave in rows:
        for engine, outcome in (("mlang", m1), ("mlang", m4), *(("Octave", o) for o in octave or ())):
            if outcome.error is not None:
                lines.append(f"  {name} ({engine}): {outcome.error}")
    return "\n".join(lines)


def measure_pair(command: list[str], eval_flag: str, name: str, n: int,
                 opts: argparse.Namespace) -> tuple[Outcome, Outcome]:
    """One engine's outcomes for benchmark ``name`` at n and SCALE_FACTOR*n."""
    script = SCRIPTS / f"{name}.m"
    small, large = (measure(command, script, name, opts.runs, opts.timeout,
                            sized(command, eval_flag, name, size)) for size in (n, SCALE_FACTOR * n))
    return small, large


def run_scaling(opts: argparse.Namespace, mlang: list[str], octave: list[str] | None) -> int:
    """Every SCALING case at n and SCALE_FACTOR*n under each engine; prints one table."""
    rows = []
    for name, n in SCALING:
        if opts.names and not any(part in name for part in opts.names):
            continue
        print(f"running {name} at n = {n:g} and {SCALE_FACTOR}n ...", file=sys.stderr, flush=True)
        rows.append((name, n, measure_pair(mlang, "-e", name, n, opts),
                     measure_pair(octave, "--eval", name, n, opts) if octave else None))
    if not rows:
        print("run.py: no scaling benchmark matches", file=sys.stderr)
        return 2
    print(f"median of {opts.runs} run(s); CPU seconds of the measured part at n and {SCALE_FACTOR}n; "
          f"growth = time({SCALE_FACTOR}n) / time(n): about {SCALE_FACTOR} when linear")
    print(format_scaling(rows))
    return 0 if all(m.error is None for _, _, pair_, _ in rows for m in pair_) else 1


def startup_line(runs: int, octave: bool) -> str:
    """The start-up table of bench/startup.py (NumPy import, mlang, Octave)."""
    spec = importlib.util.spec_from_file_location("bench_startup", STARTUP)
    if spec is None or spec.loader is None:
        return "start-up: bench/startup.py not found"
    startup = importlib.util.module_from_spec(spec)
    sys.modules["bench_startup"] = startup  # dataclasses look the module up by name
    spec.loader.exec_module(startup)
    octave_path = shutil.which("octave-cli") if octave else None
    rows = startup.measure_all(runs, startup.mlang_command(None), octave_path)
    return startup.format_rows(rows)


def _arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("names", nargs="*", help="run only benchmarks whose name contains one of these")
    p.add_argument("--runs", type=int, default=5, help="runs per benchmark and engine (median)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds allowed for one run")
    p.add_argument("--no-octave", action="store_true", help="skip Octave even if installed")
    p.add_argument("--mlang", default=f"{shlex.quote(sys.executable)} -m mlang",
                   help="command that runs a MATLAB script with mlang")
    p.add_argument("--octave", default="octave-cli", help="the Octave executable")
    p.add_argument("--scaling", action="store_true",
                   help=f"run the size-scaling cases at n and {SCALE_FACTOR}n and print their growth")
    p.add_argument("--no-startup", action="store_true",
                   help="do not measure start-up under the table (it is measured when no NAME is given)")
    return p


def numpy_reference_line(name: str, m: Outcome, opts: argparse.Namespace) -> str:
    """The NumPy reference of benchmark ``name`` and mlang's ratio to it."""
    ref = measure([sys.executable], NUMPY_REFERENCE, f"{name}_numpy", opts.runs, opts.timeout,
                  [sys.executable, str(NUMPY_REFERENCE), name])
    if ref.seconds is None:
        return f"NumPy reference for {name}: FAIL ({ref.error})"
    return f"NumPy reference for {name}: {ref.seconds:.3f} s (mlang/NumPy {ratio(m, ref)})"


def main(argv: Sequence[str] | None = None) -> int:
    opts = _arguments().parse_args(argv)
    if opts.runs < 1:
        print("run.py: --runs must be at least 1", file=sys.stderr)
        return 2
    mlang = shlex.split(opts.mlang)
    octave_path = None if opts.no_octave else shutil.which(opts.octave)
    octave = [octave_path, *OCTAVE_FLAGS] if octave_path else None
    if opts.scaling:
        return run_scaling(opts, mlang, octave)
    names = selected(opts.names)
    if not names:
        print("run.py: no benchmark matches", file=sys.stderr)
        return 2

    rows: list[tuple[str, Outcome, Outcome | None]] = []
    for name in names:
        script = SCRIPTS / f"{name}.m"
        print(f"running {name} ...", file=sys.stderr, flush=True)
        m = measure(mlang, script, name, opts.runs, opts.timeout)
        if octave and name in OCTAVE_UNSUPPORTED:
            o: Outcome | None = Outcome(not_run=OCTAVE_UNSUPPORTED[name])
        else:
            o = measure(octave, script, name, opts.runs, opts.timeout) if octave else None
        rows.append((name, m, o))

    print(f"median of {opts.runs} run(s); CPU seconds of the measured part; BLAS/OpenMP threads: 1")
    if octave is None:
        print("Octave: not run (octave-cli not found or --no-octave)")
    print(format_table(rows))

    for name in (n for n in WITH_NUMPY_REFERENCE if n in names):
        print(numpy_reference_line(name, next(m for n, m, _ in rows if n == name), opts))
    if not opts.names and not opts.no_startup:
        print(startup_line(opts.runs, octave is not None))
    return 0 if all(m.error is None for _, m, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
