"""Running one MATLAB program in a forked child, with time and memory limits, and
classifying what happened.

The parent loads mlang once; each program runs in a child made by ``os.fork``
(so no state survives from one program to the next, and nothing a program does
can harm the parent).  The child limits its address space (RLIMIT_AS), CPU time
and file sizes, works in a scratch folder, runs the program through the front
ends' reporting path (``run_reported``) and writes one JSON line on a pipe.
Should it die, ``faulthandler`` has written the Python stack on that pipe
instead.

Outcomes:

* ``ran``: finished (``exit`` included);
* ``matlab_error``: a MATLAB error or syntax error, reported as MATLAB does;
* ``internal_error``: an ``InternalError`` (or the "mlang internal error" line);
* ``traceback``: any other Python exception escaping;
* ``hang``: still inside one operation after the time limit (or unresponsive);
* ``slow``: still running MATLAB code after the time limit (a long loop: not a bug);
* ``crash``: the child died (a signal, or an exit without a result).
"""

from __future__ import annotations

import faulthandler
import gc
import io
import json
import os
import resource
import select
import signal
import sys
import time
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import mlang
from mlang.errors import ExitRequest, InternalError, MatlabError, MatlabSyntaxError

OUTCOMES = ("ran", "matlab_error", "internal_error", "traceback", "hang", "slow", "crash")
FAILURES = ("internal_error", "traceback", "hang", "crash")
INTERNAL_MARKER = "mlang internal error"
MLANG_DIR = str(Path(mlang.__file__).resolve().parent)
EVALUATION_DIR = os.path.join(MLANG_DIR, "evaluation")
# Kept out of every child: they leave the scratch folder or write files where they are told.
BLOCKED_BUILTINS = ("cd", "run", "print", "saveas", "exportgraphics")
SAMPLES = 6  # stack samples taken after the time limit to tell a hang from a long loop
SAMPLE_INTERVAL = 0.05
MiB = 1 << 20


@dataclass(slots=True)
class Limits:
    seconds: float = 5.0  # wall time before the stack is sampled
    memory_mb: int = 1024  # address space a child may add to what the parent uses
    output_chars: int = 1 << 20  # output kept for the report (the rest is counted, not kept)


@dataclass(slots=True)
class Result:
    outcome: str
    exc_type: str = ""
    message: str = ""
    traceback: str = ""
    signature: str = ""
    seconds: float = 0.0
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def is_failure(self) -> bool:
        return self.outcome in FAILURES


@dataclass(slots=True)
class Program:
    """A program to run: ``text`` is run as a script's source; ``as_file`` runs it as a
    .m file instead (through the file reader, with its bytes as they are)."""

    data: bytes
    as_file: bool = False
    label: str = ""


# ------------------------------------------------------------ the child


class _Sink(io.TextIOBase):
    """A text stream that keeps the first ``limit`` characters and counts the rest."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.parts: list[str] = []
        self.kept = 0
        self.total = 0

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.total += len(text)
        if self.kept < self.limit:
            self.parts.append(text[: self.limit - self.kept])
            self.kept += len(self.parts[-1])
        return len(text)

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def getvalue(self) -> str:
        return "".join(self.parts)


def _relative(filename: str) -> str:
    return "mlang" + filename[len(MLANG_DIR):] if filename.startswith(MLANG_DIR) else filename


def innermost_mlang_frame(frames: list[tuple[str, str, int]]) -> str:
    """``mlang/…/file.py:function`` of the innermost frame inside mlang ('' if none)."""
    for filename, function, _line in reversed(frames):
        if filename.startswith(MLANG_DIR):
            return f"mlang{filename[len(MLANG_DIR):]}:{function}"
    return ""


def _tb_frames(exc: BaseException) -> list[tuple[str, str, int]]:
    return [(f.filename, f.name, f.lineno or 0) for f in traceback.extract_tb(exc.__traceback__)]


def _describe(outcome: str, exc: BaseException) -> dict[str, Any]:
    text = "".join(traceback.format_exception(exc))
    frames = _tb_frames(exc)
    return {"outcome": outcome, "exc_type": type(exc).__name__, "message": str(exc)[:2000],
            "traceback": text[-20000:],
            "signature": f"{outcome}:{type(exc).__name__}@{innermost_mlang_frame(frames)}"}


def _stack_of(frame: FrameType | None) -> list[FrameType]:
    stack = []
    while frame is not None:
        stack.append(frame)
        frame = frame.f_back
    stack.reverse()
    return stack


class _Sampler:
    """After the time limit, samples the stack a few times: if the evaluator has not moved
    (the same innermost evaluation frame every time) while something below it runs, one
    operation is stuck (a hang); otherwise MATLAB code is looping (slow, not a bug)."""

    def __init__(self, write: Callable[[dict[str, Any]], None]) -> None:
        self.write = write
        self.snapshots: list[list[FrameType]] = []

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        try:
            self.sample(frame)
        except BaseException as exc:  # noqa: BLE001 - must not leak into the program it stops
            self.write({"outcome": "crash", "exc_type": "fuzzer", "message": repr(exc),
                        "traceback": "".join(traceback.format_exception(exc)),
                        "signature": "crash:fuzzer"})
            os._exit(0)

    def sample(self, frame: FrameType | None) -> None:
        self.snapshots.append(_stack_of(frame))
        if len(self.snapshots) < SAMPLES:
            signal.setitimer(signal.ITIMER_REAL, SAMPLE_INTERVAL)
            return
        evaluator = [self._innermost_evaluation(stack) for stack in self.snapshots]
        last = self.snapshots[-1]
        stuck = evaluator[0] is not None and all(f is evaluator[0] for f in evaluator)
        stuck = stuck and evaluator[0] is not last[-1]  # something called by it is running
        outcome = "hang" if stuck else "slow"
        frames = [(f.f_code.co_filename, f.f_code.co_name, f.f_lineno or 0) for f in last]
        summary = [traceback.FrameSummary(file, line, name) for file, name, line in frames]
        text = "".join(traceback.format_list(summary))
        self.write({"outcome": outcome, "exc_type": "Timeout", "message": "time limit reached",
                    "traceback": text[-20000:],
                    "signature": f"{outcome}:@{innermost_mlang_frame(frames)}"})
        os._exit(0)

    @staticmethod
    def _innermost_evaluation(stack: list[FrameType]) -> FrameType | None:
        for f in reversed(stack):
            if f.f_code.co_filename.startswith(EVALUATION_DIR):
                return f
        return None


def _address_space_in_use() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def _limit(kind: int, value: int) -> None:
    try:
        _, hard = resource.getrlimit(kind)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(kind, (value, hard))
    except (ValueError, OSError):
        pass  # a limit the system does not allow is left as it is


def execute(program: Program, limits: Limits, interpreter_factory: Callable[..., Any],
            prepare: Callable[[Any], None] | None = None) -> dict[str, Any]:
    """Run ``program`` here and now (in the child) and describe what happened."""
    out, err = _Sink(limits.output_chars), _Sink(limits.output_chars)
    interp = interpreter_factory(stdout=out, stderr=err, stdin=io.StringIO(""))
    interp.builtins = {k: v for k, v in interp.builtins.items() if k not in BLOCKED_BUILTINS}
    interp.pause_enabled = False
    if prepare is not None:
        prepare(interp)
    from mlang.frontends.reporting import run_reported  # loaded in the parent already

    if program.as_file:
        path = Path("fuzzprog.m")
        path.write_bytes(program.data)
        action: Callable[[], object] = lambda: interp.run_file(path)  # noqa: E731
    else:
        text = program.data.decode("utf-8", errors="replace")
        action = lambda: interp.run_source(text, "fuzzprog")  # noqa: E731
    try:
        stopped = run_reported(interp, action)
    except ExitRequest:
        stopped = None
    except BaseException as exc:  # anything escaping the reporting path is a bug
        return _describe("traceback", exc)
    if isinstance(stopped, InternalError):
        # the compiler re-raises it "from None", which leaves the original as the context
        original = stopped.__cause__ or stopped.__context__ or stopped
        description = _describe("internal_error", original)
        description["message"] = str(stopped)[:2000]
        return description
    if INTERNAL_MARKER in err.getvalue():
        text = err.getvalue()
        line = next(x for x in text.splitlines() if INTERNAL_MARKER in x)
        return {"outcome": "internal_error", "exc_type": "reported", "message": line[:2000],
                "traceback": text[-20000:], "signature": f"internal_error:reported:{line[:120]}"}
    if isinstance(stopped, MatlabError | MatlabSyntaxError):
        identifier = getattr(stopped, "identifier", "syntax")
        return {"outcome": "matlab_error", "exc_type": type(stopped).__name__,
                "message": f"{identifier}: {stopped}"[:2000]}
    if isinstance(stopped, KeyboardInterrupt):
        return {"outcome": "traceback", "exc_type": "KeyboardInterrupt", "message": "",
                "signature": "traceback:KeyboardInterrupt@"}
    return {"outcome": "ran"}


def _child(program: Program, limits: Limits, write_fd: int, scratch: str,
           interpreter_factory: Callable[..., Any], prepare: Callable[[Any], None] | None) -> None:
    try:
        os.setpgid(0, 0)  # the parent can kill this child and anything it starts together
        pipe = os.fdopen(write_fd, "w", buffering=1, encoding="utf-8")
        faulthandler.enable(file=pipe, all_threads=False)

        def write(description: dict[str, Any]) -> None:
            pipe.write(json.dumps(description) + "\n")
            pipe.flush()

        _limit(resource.RLIMIT_AS, _address_space_in_use() + limits.memory_mb * MiB)
        _limit(resource.RLIMIT_CPU, int(limits.seconds + SAMPLES * SAMPLE_INTERVAL) + 10)
        _limit(resource.RLIMIT_FSIZE, 64 * MiB)
        _limit(resource.RLIMIT_CORE, 0)
        folder = os.path.join(scratch, str(os.getpid()))
        os.makedirs(folder, exist_ok=True)
        os.chdir(folder)
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
        signal.signal(signal.SIGALRM, _Sampler(write))
        signal.setitimer(signal.ITIMER_REAL, limits.seconds)
        leaked: list[str] = []
        warnings.showwarning = lambda message, category, filename, lineno, *_: leaked.append(
            f"{category.__name__} at {_relative(filename)}:{lineno}: {message}")
        description = execute(program, limits, interpreter_factory, prepare)
        signal.setitimer(signal.ITIMER_REAL, 0)
        if leaked:  # Python warnings reaching the user's terminal: noted, not a failure
            description["details"] = {"python_warnings": leaked[:5]}
        write(description)
    except BaseException as exc:  # noqa: BLE001 - the child must never return into the caller
        try:
            write(_describe("traceback", exc))
        except BaseException:  # noqa: BLE001
            pass
    os._exit(0)


# ------------------------------------------------------------ the parent


@dataclass(slots=True)
class Running:
    pid: int
    fd: int
    started: float
    deadline: float
    chunks: list[bytes] = field(default_factory=list)


def warm_up() -> None:
    """Load, in the parent, everything a child would otherwise load again for every program:
    the builtin library, the parser, the reporting path, SciPy's modules that builtins use."""
    import mlang.frontends.reporting  # noqa: F401
    from mlang.evaluation.interpreter import Interpreter
    from mlang.registry import load_all

    load_all()
    Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    for module in ("scipy.special", "scipy.linalg", "scipy.interpolate"):
        try:
            __import__(module)
        except ImportError:
            pass
    # Children would otherwise have the collector walk (and so copy) every object inherited.
    gc.collect()
    gc.freeze()


def start(program: Program, limits: Limits, scratch: str,
          interpreter_factory: Callable[..., Any] | None = None,
          prepare: Callable[[Any], None] | None = None) -> Running:
    """Fork a child that runs ``program``; read its report with ``poll``/``finish``."""
    if interpreter_factory is None:
        from mlang.evaluation.interpreter import Interpreter
        interpreter_factory = Interpreter
    read_fd, write_fd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(program, limits, write_fd, scratch, interpreter_factory, prepare)
        os._exit(0)  # not reached
    os.close(write_fd)
    now = time.monotonic()
    # past the sampling, a child that has not answered is stuck outside Python: killed
    grace = SAMPLES * SAMPLE_INTERVAL + 3.0
    return Running(pid, read_fd, now, now + limits.seconds + grace)


def read_available(job: Running) -> bool:
    """Read what the child wrote; True once it closed its end (finished or died)."""
    data = os.read(job.fd, 65536)
    if data:
        job.chunks.append(data)
        return False
    return True


def finish(job: Running, killed: bool = False) -> Result:
    """Reap the child and classify its outcome."""
    if killed:
        try:
            os.killpg(job.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    _, status = os.waitpid(job.pid, 0)
    os.close(job.fd)
    seconds = time.monotonic() - job.started
    text = b"".join(job.chunks).decode("utf-8", errors="replace")
    last = text.strip().splitlines()[-1] if text.strip() else ""
    if killed:
        return Result("hang", "Timeout", "no answer after the time limit (stuck outside Python?)",
                      text[-20000:], "hang:unresponsive", seconds)
    if last.startswith("{"):
        try:
            described = json.loads(last)
            return Result(seconds=seconds, **described)
        except (ValueError, TypeError):
            pass
    signal_number = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
    if signal_number in (signal.SIGXCPU, signal.SIGKILL):
        return Result("hang", "Timeout", f"killed by signal {signal_number}", text[-20000:],
                      "hang:cpu-limit", seconds)
    where = _innermost_from_faulthandler(text)
    what = (f"signal {signal_number}" if signal_number
            else f"exit status {os.WEXITSTATUS(status)} without a result")
    return Result("crash", f"signal{signal_number}" if signal_number else "exit", what,
                  text[-20000:], f"crash:{what}@{where}", seconds)


def _innermost_from_faulthandler(text: str) -> str:
    """The innermost mlang frame of a faulthandler dump (it lists the innermost first)."""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith('File "') and MLANG_DIR in line:
            filename = line.split('"')[1]
            function = line.rsplit(" in ", 1)[-1]
            return f"mlang{filename[len(MLANG_DIR):]}:{function}"
    return ""


def wait_any(jobs: list[Running], timeout: float) -> list[Running]:
    """The jobs whose pipe has something to read (or has closed), waiting at most ``timeout``."""
    if not jobs:
        return []
    ready, _, _ = select.select([j.fd for j in jobs], [], [], max(0.0, timeout))
    return [j for j in jobs if j.fd in ready]


def run_one(program: Program, limits: Limits, scratch: str,
            interpreter_factory: Callable[..., Any] | None = None,
            prepare: Callable[[Any], None] | None = None) -> Result:
    """Run one program in a child and wait for its result."""
    job = start(program, limits, scratch, interpreter_factory, prepare)
    while True:
        remaining = job.deadline - time.monotonic()
        if remaining <= 0:
            return finish(job, killed=True)
        if wait_any([job], remaining) and read_available(job):
            return finish(job)
