"""Start-up time of mlang against the floor of importing NumPy, and GNU Octave.

    python bench/startup.py [--runs N] [--mlang CMD] [--importtime]

Runs each command N times (9 by default) after one warm-up run (so that the
.pyc files exist) and prints the median CPU seconds (user + system of the
child process) of: ``python -c "import numpy"`` (the floor), ``mlang -e "1;"``,
``mlang -e "x = 1"`` (with display), ``mlang startup_script.m`` (a script file, its tree
from the AST cache) and, when installed,
``octave-cli --norc --quiet --eval "1;"``; then the ratio mlang/NumPy
(goal: at most 1.3), and the time from starting ``mlang`` on a terminal
to its Command Window's first prompt, in CPU seconds (goal: under 0.4 s; Linux).
PYTHONDONTWRITEBYTECODE is removed from the children's environment: with it
every start would compile every module again.

``--importtime`` prints instead the 15 modules with the largest own import
time in ``python -X importtime -m mlang -e "1;"``.
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

GOAL = 1.3
SCRIPT = Path(__file__).resolve().parent / "startup_script.m"  # (a script file to start)
IMPORT_LINE = re.compile(r"^import time:\s*(\d+)\s*\|\s*(\d+)\s*\|\s*(.*?)\s*$")


@dataclass(frozen=True, slots=True)
class Startup:
    """Median child CPU seconds of one command, or why it failed."""

    label: str
    seconds: float | None = None
    error: str | None = None


def child_environment() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env.update({"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"})
    return env


def run_child(command: Sequence[str], timeout: float = 120.0) -> None:
    """Run ``command`` once and wait for it; RuntimeError with its first message if it fails."""
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=child_environment())
    try:
        _, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise RuntimeError(f"timed out after {timeout:g} s") from None
    if process.returncode != 0:
        first = next((ln.strip() for ln in stderr.decode(errors="replace").splitlines() if ln.strip()),
                     f"exit status {process.returncode}")
        raise RuntimeError(first[:120])


def median_cpu(label: str, command: Sequence[str], runs: int) -> Startup:
    """Median CPU of ``runs`` runs after one warm-up run.  A reaped child's CPU time is
    added to this process's RUSAGE_CHILDREN, so the difference around one run is its own."""
    import resource  # POSIX only; the benchmark is run on Linux

    def used() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    samples = []
    try:
        run_child(command)
        for _ in range(runs):
            before = used()
            run_child(command)
            samples.append(used() - before)
    except (RuntimeError, OSError) as exc:
        return Startup(label, error=str(exc))
    return Startup(label, seconds=statistics.median(samples))


PROMPT_GOAL = 0.4


def first_prompt_seconds(mlang: Sequence[str], runs: int, wait: float = 60.0) -> float | None:
    """Median CPU seconds (user + system, from /proc) that ``mlang`` started on a new
    pseudo-terminal has used when its Command Window's first ``>>`` prompt appears: CPU
    rather than elapsed time, as for the other rows, because the machine may be shared.
    Infinity when no prompt comes within ``wait`` seconds; None where there are no
    pseudo-terminals or no /proc."""
    try:
        import pty  # POSIX only
        import select
    except ImportError:
        return None
    if not os.path.isdir("/proc/self"):
        return None
    ticks = os.sysconf("SC_CLK_TCK")

    def cpu_of(pid: int) -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime

    def once() -> float:
        pid, fd = pty.fork()
        if pid == 0:  # the child: become mlang
            os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
            os.execvp(mlang[0], [*mlang])
        seen, used = b"", float("inf")
        try:
            while b">>" not in seen:
                ready, _, _ = select.select([fd], [], [], wait)
                if not ready:
                    break
                seen += os.read(fd, 4096)
            else:
                used = cpu_of(pid)
            os.write(fd, b"exit\r")
        except OSError:
            pass
        finally:
            os.waitpid(pid, 0)
            os.close(fd)
        return used

    once()  # warm-up
    return statistics.median(once() for _ in range(runs))


def mlang_command(option: str | None) -> list[str]:
    """The installed ``mlang`` script beside this Python, else ``python -m mlang``."""
    if option:
        return shlex.split(option)
    script = Path(sys.executable).parent / "mlang"
    return [str(script)] if script.exists() else [sys.executable, "-m", "mlang"]


def measure_all(runs: int, mlang: Sequence[str], octave: str | None) -> list[Startup]:
    rows = [
        median_cpu('python -c "import numpy"', [sys.executable, "-c", "import numpy"], runs),
        median_cpu('mlang -e "1;"', [*mlang, "-e", "1;"], runs),
        median_cpu('mlang -e "x = 1"', [*mlang, "-e", "x = 1"], runs),
        median_cpu("mlang startup_script.m", [*mlang, str(SCRIPT)], runs),
    ]
    if octave:
        rows.append(median_cpu('octave-cli --eval "1;"',
                               [octave, "--norc", "--quiet", "--no-history", "--eval", "1;"], runs))
    return rows


def summary_line(rows: Sequence[Startup]) -> str:
    """One line: the ratio of ``mlang -e "1;"`` to the NumPy import, against the goal."""
    floor, plain = rows[0], rows[1]
    if floor.seconds is None or plain.seconds is None or floor.seconds <= 0:
        return "start-up mlang/numpy: -"
    value = plain.seconds / floor.seconds
    verdict = "meets" if value <= GOAL else "misses"
    return (f"start-up mlang/numpy: {value:.2f} ({plain.seconds:.3f} s / {floor.seconds:.3f} s; "
            f"{verdict} the goal <= {GOAL})")


def format_rows(rows: Sequence[Startup]) -> str:
    width = max(len(r.label) for r in rows)
    lines = [f"{'command'.ljust(width)}  median CPU s", f"{'-' * width}  ------------"]
    for r in rows:
        value = f"{r.seconds:12.3f}" if r.seconds is not None else f"FAIL ({r.error})"
        lines.append(f"{r.label.ljust(width)}  {value}")
    lines.append(summary_line(rows))
    return "\n".join(lines)


def slowest_imports(stderr: str, count: int = 15) -> list[tuple[int, int, str]]:
    """(self us, cumulative us, module) of the ``count`` largest own import times."""
    found = []
    for line in stderr.splitlines():
        match = IMPORT_LINE.match(line)
        if match:
            found.append((int(match.group(1)), int(match.group(2)), match.group(3).strip()))
    return sorted(found, reverse=True)[:count]


def import_times(mlang_module_command: Sequence[str]) -> str:
    env = child_environment()
    subprocess.run(mlang_module_command, env=env, capture_output=True, check=False)  # warm-up: .pyc files
    done = subprocess.run([sys.executable, "-X", "importtime", *mlang_module_command[1:]], env=env,
                          capture_output=True, text=True, check=False)
    rows = slowest_imports(done.stderr)
    lines = [f"{'self ms':>8}  {'cumul. ms':>9}  module"]
    lines += [f"{own / 1000:8.1f}  {total / 1000:9.1f}  {name}" for own, total, name in rows]
    return "\n".join(lines)


def _arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=9, help="runs per command (median)")
    p.add_argument("--mlang", default=None, help="command that starts mlang (default: the mlang script)")
    p.add_argument("--no-octave", action="store_true", help="skip Octave even if installed")
    p.add_argument("--importtime", action="store_true",
                   help='print the 15 slowest modules of python -X importtime -m mlang -e "1;"')
    return p


def main(argv: Sequence[str] | None = None) -> int:
    opts = _arguments().parse_args(argv)
    if opts.runs < 1:
        print("startup.py: --runs must be at least 1", file=sys.stderr)
        return 2
    if opts.importtime:
        print(import_times([sys.executable, "-m", "mlang", "-e", "1;"]))
        return 0
    octave = None if opts.no_octave else shutil.which("octave-cli")
    rows = measure_all(opts.runs, mlang_command(opts.mlang), octave)
    print(f"median of {opts.runs} run(s) after one warm-up; CPU seconds (user + system) of the process")
    print(format_rows(rows))
    prompt = first_prompt_seconds(mlang_command(opts.mlang), opts.runs)
    if prompt is not None:
        verdict = "meets" if prompt < PROMPT_GOAL else "misses"
        print(f"Command Window first prompt: {prompt:.3f} s CPU ({verdict} the goal < {PROMPT_GOAL} s)")
    return 0 if all(r.error is None for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
