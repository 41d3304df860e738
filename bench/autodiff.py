"""Speed of mlang's automatic differentiation, side by side with NumPy, PyTorch and autograd.

    python bench/autodiff.py [--runs N] [--scale F] [--small] [NAME ...]

The benchmarks (MATLAB code in bench/autodiff/, run by mlang in this process):

(a) rosenbrock: value and gradient of the Rosenbrock function through
    dlfeval/dlgradient, 10,000 calls;
(b) mlp: the gradient of a 784-256-10 relu MLP with a softmax cross-entropy
    loss at batch 128, in double and single, and its forward pass alone (the
    loss on untraced dlarrays, outside dlfeval; the "traced" row is the same
    loss inside dlfeval without dlgradient);
(c) pinn: a PINN-style loss on 1,000 points of a 2-20-20-1 tanh MLP, with
    d2u/dx2 from dlgradient with 'EnableHigherDerivatives', then its gradient
    with respect to the weights;
(d) mlp train: training steps of the same MLP written with fullyconnect, relu,
    softmax and crossentropy: dlfeval/dlgradient then adamupdate on a struct of
    dlarray parameters, in double and single;
(e) pinn train: training steps of the PINN of (c) written with fullyconnect and
    tanh: its loss and gradient, then adamupdate;
(f) tanh mlp: training steps (forward, mse, dlgradient, adamupdate) of an
    8-64-64-64-1 tanh MLP at batch 512 in single precision, built as a dlnetwork
    from layers (gradients with respect to net.Learnables, adamupdate on the
    network) and written as a model function over a struct of parameters.

Each is timed in CPU seconds of the measured calls only (the MATLAB
functions time their loop with cputime and tic/toc), with BLAS/OpenMP pinned
to one thread, the median of N runs after one warm-up call.  The same
computations in plain NumPy with hand-written gradients
(bench/autodiff_reference.py), and with PyTorch on the CPU and HIPS autograd
when they are installed, are timed the same way.  Every engine's result is
checked against the NumPy reference (relative 1e-8 in double, 1e-3 in single);
a wrong result is reported and makes the exit status 1.

The process uses the allocator settings of the `mlang` command
(mlang/frontends/allocator.py: large temporaries stay in the heap), for every
engine alike; --default-malloc keeps glibc's defaults instead.

The table shows CPU milliseconds per call, mlang/NumPy, and the goals:
(a) at most 0.25 ms per call; (b) at most 1.3x NumPy, and gradient/forward at
most 2.5; (c) at most 2x NumPy; (d), (e) and (f) (the training steps) at most 1.3x NumPy
and faster than PyTorch.  The accelerated rows (the same losses through
dlaccelerate) are shown over the plain rows ("accelerated/plain", no goal: about 1,
since dlfeval replays those model functions too, through its plans) and over the plain
computation with dlfeval's plans turned off in this process, each call traced
("accelerated/traced": the gain of dlaccelerate's replays, goal < 1).  A training step's
result (checked) is the loss and the parameters and gradient moving averages after
the first step; the timed calls
go on training from there.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
MATLAB = HERE / "autodiff"


def _load(name: str, path: Path) -> ModuleType:
    """A module of bench/ by file (bench is not a package), loaded once."""
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look the module up by name
        spec.loader.exec_module(module)
    return module


run = _load("bench_run", HERE / "run.py")
if __name__ == "__main__":
    os.environ.update(run.THREAD_PINS)  # before NumPy (and its BLAS) is loaded

import numpy as np  # noqa: E402

reference = _load("bench_autodiff_reference", HERE / "autodiff_reference.py")
Outcome = run.Outcome
Result = tuple[Any, dict[str, np.ndarray] | None]


@dataclass(frozen=True, slots=True)
class Benchmark:
    """One row of the table: what is computed, how many calls a run makes, the goal."""

    name: str
    kind: str  # rosenbrock, mlp_gradient, mlp_forward, mlp_traced, pinn, mlp_train, pinn_train
    dtype: str  # float64 or float32
    calls: int
    goal_ms: float | None = None  # mlang milliseconds per call at most
    goal_ratio: float | None = None  # mlang/NumPy at most
    faster_than: str | None = None  # an engine mlang must also beat, when it ran
    near_zero: float = 0.01  # entries near zero agree within near_zero*rtol*(array's largest)


BENCHMARKS = (
    Benchmark("rosenbrock value+gradient", "rosenbrock", "float64", 10_000, goal_ms=0.25),
    Benchmark("mlp gradient float64", "mlp_gradient", "float64", 200, goal_ratio=1.3),
    Benchmark("mlp gradient float32", "mlp_gradient", "float32", 200, goal_ratio=1.3),
    Benchmark("mlp forward float64", "mlp_forward", "float64", 200, goal_ratio=1.3),
    Benchmark("mlp forward float32", "mlp_forward", "float32", 200, goal_ratio=1.3),
    Benchmark("mlp forward traced float64", "mlp_traced", "float64", 200),
    Benchmark("pinn loss+gradient", "pinn", "float64", 100, goal_ratio=2.0),
    Benchmark("mlp train step float64", "mlp_train", "float64", 200, goal_ratio=1.3,
              faster_than="torch"),
    # in single, an Adam step g/(|g| + epsilon) amplifies rounding where |g| is near
    # epsilon: parameters agree within 1e-3 of the largest, not relatively
    Benchmark("mlp train step float32", "mlp_train", "float32", 200, goal_ratio=1.3,
              faster_than="torch", near_zero=1.0),
    Benchmark("pinn train step", "pinn_train", "float64", 100, goal_ratio=1.3,
              faster_than="torch"),
    # a 3-hidden-layer tanh MLP with mse, in single (a dlnetwork's learnables are single)
    Benchmark("tanh mlp step dlnetwork", "tanhnet_train", "float32", 200, goal_ratio=1.3,
              faster_than="torch", near_zero=1.0),
    Benchmark("tanh mlp step model fn", "tanhfn_train", "float32", 200, goal_ratio=1.3,
              faster_than="torch", near_zero=1.0),
    # model-function losses called through dlaccelerate (a replayed trace)
    Benchmark("pinn loss+gradient accelerated", "pinn_accel", "float64", 100, goal_ratio=2.0),
    Benchmark("tanh mlp step model fn accelerated", "tanhfn_accel", "float32", 200, near_zero=1.0),
    Benchmark("tanh mlp step dlnetwork accelerated", "tanhnet_accel", "float32", 200, near_zero=1.0),
    # the classifier's loss is replayed by dlfeval's plans too (softmax and crossentropy)
    Benchmark("mlp train step float32 accelerated", "mlp_train_accel", "float32", 200, near_zero=1.0),
)

# (accelerated row, plain row): the gain of dlaccelerate is shown for mlang.  The plain
# model functions here are all replayed by dlfeval's plans too (step_plans.py), so about 1x
# is expected: dlaccelerate gains only over code a plan does not stand for.  Its gain over
# tracing every call shows in the "accelerated/traced" rows: the plain computation timed
# with the plans turned off (plans_off).
ACCELERATED_OVER_PLAIN = (("pinn loss+gradient accelerated", "pinn loss+gradient"),
                          ("tanh mlp step model fn accelerated", "tanh mlp step model fn"),
                          ("tanh mlp step dlnetwork accelerated", "tanh mlp step dlnetwork"),
                          ("mlp train step float32 accelerated", "mlp train step float32"))

# (gradient row, forward row) whose time ratio per engine is shown, and its goal for mlang.
GRADIENT_OVER_FORWARD = (("mlp gradient float64", "mlp forward float64"),
                         ("mlp gradient float32", "mlp forward float32"))
GRADIENT_OVER_FORWARD_GOAL = 2.5

ENGINES = ("mlang", "NumPy", "torch", "autograd")
# the table's key of mlang's measurement of an accelerated row's plain computation with
# dlfeval's plans turned off (every call traced)
TRACED = "mlang traced"
RTOL = {"float64": 1e-8, "float32": 1e-3}


@dataclass(frozen=True, slots=True)
class Measured:
    """An engine's median CPU and elapsed seconds over the runs (totals of ``calls``
    calls, or why it failed) and the result of its warm-up call."""

    outcome: Outcome
    calls: int
    result: Result | None = None
    wrong: str | None = None  # how the result differs from the NumPy reference
    difference: float | None = None  # largest relative difference from it

    @property
    def ms(self) -> float | None:
        if self.outcome.seconds is None:
            return None
        return 1e3 * self.outcome.seconds / self.calls


# -------------------------------------------------------------------- data


def data_for(bench: Benchmark, sizes: reference.Sizes, cache: dict | None = None) -> dict[str, Any]:
    """The inputs of a benchmark (shared between benchmarks of one problem and type)."""
    problem = bench.kind.split("_")[0]  # mlp, pinn, rosenbrock, tanhnet or tanhfn
    key = (problem, bench.dtype, sizes)
    if cache is not None and key in cache:
        return cache[key]
    if problem == "rosenbrock":
        data = reference.rosenbrock_data()
    elif problem == "mlp":
        data = reference.mlp_data(sizes, np.dtype(bench.dtype).type)
    elif problem.startswith("tanh"):
        data = reference.tanh_data(sizes)
    else:
        data = reference.pinn_data(sizes)
    if cache is not None:
        cache[key] = data
    return data


# ------------------------------------------------------------------- mlang


class Mlang:
    """One mlang session with bench/autodiff on its path."""

    def __init__(self) -> None:
        from mlang.evaluation.interpreter import Interpreter

        self.interp = Interpreter(stdout=io.StringIO())
        self.interp.path.append(str(MATLAB))
        self.interp.invalidate()

    def run(self, kind: str, data: dict[str, Any], calls: int) -> tuple[float, float, Result]:
        """CPU and elapsed seconds of ``calls`` calls, as the MATLAB function measured
        them, and the result of the last call."""
        call = self.interp.call
        n = float(calls)
        if kind == "rosenbrock":
            cpu, wall, y, g = call("ad_rosenbrock", data["x"], n, nargout=4)
            return cpu, wall, (y, {"x": g})
        if kind in ("mlp_train", "mlp_train_accel"):
            extra = (True,) if kind.endswith("_accel") else ()
            cpu, wall, loss, state = call("ad_train_mlp", data["params"], data["X"], data["T"], n,
                                          *extra, nargout=4)
            return cpu, wall, (loss, state)
        if kind in ("tanhnet_train", "tanhfn_train", "tanhfn_accel", "tanhnet_accel"):
            script = "ad_train_tanh_net" if kind.startswith("tanhnet") else "ad_train_tanh_fn"
            extra = (True,) if kind.endswith("_accel") else ()
            cpu, wall, loss, state = call(script, data["params"], data["X"], data["T"], n,
                                          *extra, nargout=4)
            return cpu, wall, (loss, state)
        if kind == "pinn_train":
            cpu, wall, loss, state = call("ad_train_pinn", data["params"], data["X"], data["f"],
                                          data["g"], n, nargout=4)
            return cpu, wall, (loss, state)
        if kind.startswith("mlp"):
            mode = kind.removeprefix("mlp_")
            cpu, wall, loss, grads = call("ad_mlp", data["params"], data["X"], data["T"], n,
                                          mode, nargout=4)
            return cpu, wall, (loss, grads if isinstance(grads, dict) else None)
        if kind in ("pinn", "pinn_accel"):
            cpu, wall, loss, grads = call("ad_pinn", data["params"], data["X"], data["f"],
                                          data["g"], n, kind == "pinn_accel", nargout=4)
            return cpu, wall, (loss, grads)
        raise ValueError(f"no mlang benchmark of kind {kind!r}")


def measure_mlang(session: Mlang, bench: Benchmark, data: dict[str, Any], calls: int,
                  runs: int) -> Measured:
    """One warm-up call (its result is the one checked), then the median of ``runs`` runs."""
    from mlang.errors import MatlabError

    try:
        _, _, result = session.run(bench.kind, data, 1)
        times = [session.run(bench.kind, data, calls)[:2] for _ in range(runs)]
    except MatlabError as exc:
        return Measured(Outcome(error=f"{exc.identifier}: {exc.message}".lstrip(": ")), calls)
    return Measured(_median(times), calls, result)


@contextmanager
def plans_off() -> Iterator[None]:
    """dlfeval without its plans (step_plans.py) while inside: every call runs the model
    function's code and traces it.  (The benchmark's switch, a stand-in for the plan
    lookup dlfeval makes at each call; no option of mlang's.)"""
    from mlang.builtins.deeplearning import step_plans

    lookup = step_plans.planned_call
    step_plans.planned_call = lambda *args: None
    try:
        yield
    finally:
        step_plans.planned_call = lookup


# ------------------------------------------------------ the other engines


def measure_python(fn: Callable[[dict[str, Any]], Result], data: dict[str, Any], calls: int,
                   runs: int) -> Measured:
    """The same for an implementation in Python: a warm-up call, then ``runs`` loops."""
    try:
        result = fn(data)
        times = []
        for _ in range(runs):
            cpu0, wall0 = time.process_time(), time.perf_counter()
            for _ in range(calls):
                fn(data)
            times.append((time.process_time() - cpu0, time.perf_counter() - wall0))
    except Exception as exc:  # an optional engine failing is reported, not fatal
        return Measured(Outcome(error=f"{type(exc).__name__}: {exc}"), calls)
    return Measured(_median(times), calls, result)


def _median(times: list[tuple[float, float]]) -> Outcome:
    return Outcome(seconds=statistics.median(t[0] for t in times),
                   wall=statistics.median(t[1] for t in times))


# --------------------------------------------------------------- checking


def mismatch(result: Result, expected: Result, rtol: float, near_zero: float = 0.01) -> str | None:
    """Where ``result`` differs from ``expected`` by more than ``rtol`` (for entries near
    zero, ``near_zero*rtol`` relative to each array's largest entry); None when they agree."""
    value, grads = result
    want_value, want_grads = expected
    pairs = [("value", value, want_value)]
    if want_grads is not None:
        if grads is None or set(grads) != set(want_grads):
            return f"gradients {sorted(grads or ())} instead of {sorted(want_grads)}"
        pairs += [(k, grads[k], want_grads[k]) for k in sorted(want_grads)]
    for name, got, want in pairs:
        got = np.asarray(got, dtype=np.float64)
        want = np.asarray(want, dtype=np.float64)
        if got.size != want.size:
            return f"{name}: {got.size} elements instead of {want.size}"
        got = got.reshape(want.shape)
        scale = float(np.abs(want).max()) if want.size else 0.0
        if not np.allclose(got, want, rtol=rtol, atol=near_zero * rtol * scale):
            worst = float(np.abs(got - want).max()) / (scale or 1.0)
            return f"{name}: relative difference {worst:.2e}"
    return None


def largest_difference(result: Result, expected: Result) -> float:
    """Largest difference of any value or gradient entry, relative to its array's largest entry."""
    value, grads = result
    want_value, want_grads = expected
    pairs = [(value, want_value)] + [(grads[k], want_grads[k]) for k in (want_grads or {})
                                     if grads is not None and k in grads]
    worst = 0.0
    for got, want in pairs:
        got = np.asarray(got, dtype=np.float64).ravel()
        want = np.asarray(want, dtype=np.float64).ravel()
        scale = float(np.abs(want).max()) or 1.0
        worst = max(worst, float(np.abs(got - want).max()) / scale)
    return worst


# ----------------------------------------------------------------- running


def run_benchmarks(benchmarks: Sequence[Benchmark], sizes: reference.Sizes, runs: int,
                   scale: float, engines: Sequence[str] = ENGINES,
                   progress: Callable[[str], None] | None = None) -> dict[str, dict[str, Measured]]:
    """Every benchmark under every engine asked for and available: name -> engine -> Measured."""
    implementations = reference.engines()
    session = Mlang() if "mlang" in engines else None
    cache: dict = {}
    table: dict[str, dict[str, Measured]] = {}
    for bench in benchmarks:
        if progress is not None:
            progress(bench.name)
        data = data_for(bench, sizes, cache)
        calls = max(1, round(bench.calls * scale))
        row: dict[str, Measured] = {}
        if session is not None:
            row["mlang"] = measure_mlang(session, bench, data, calls, runs)
            if bench.kind.endswith("_accel"):  # the plain computation, traced at each call
                with plans_off():
                    row[TRACED] = measure_mlang(session, replace(bench, kind=_reference_kind(bench.kind)),
                                                data, calls, runs)
        kind = bench.kind
        if kind.endswith("_accel"):  # the other engines run the plain computation, afresh
            kind = _reference_kind(kind)
            implementations = reference.engines()
        for engine in engines:
            fns = implementations.get(engine)
            if engine == "mlang" or fns is None or kind not in fns:
                continue
            row[engine] = measure_python(fns[kind], data, calls, runs)
        expected = reference.expected(_reference_kind(bench.kind), data)
        table[bench.name] = {engine: checked(m, expected, RTOL[bench.dtype], bench.near_zero)
                             for engine, m in row.items()}
    return table


def checked(measured: Measured, expected: Result, rtol: float, near_zero: float = 0.01) -> Measured:
    """``measured`` with its result compared with the reference's."""
    if measured.result is None:
        return measured
    return replace(measured, wrong=mismatch(measured.result, expected, rtol, near_zero),
                   difference=largest_difference(measured.result, expected))


def _reference_kind(kind: str) -> str:
    if kind.endswith("_accel"):  # the same computation as the plain call
        return {"pinn_accel": "pinn", "tanhfn_accel": "tanhfn_train", "tanhnet_accel": "tanhnet_train",
                "mlp_train_accel": "mlp_train"}[kind]
    return "mlp_forward" if kind == "mlp_traced" else kind


# ------------------------------------------------------------------ output


def _ms(measured: Measured | None) -> str:
    if measured is None:
        return "-"
    ms = measured.ms
    return "FAIL" if ms is None else f"{ms:.3g}"


def _ratio(a: float | None, b: float | None, suffix: str = "") -> str:
    if a is None or b is None or b <= 0:
        return "-"
    return f"{a / b:.2f}{suffix}"


def format_table(benchmarks: Sequence[Benchmark], table: dict[str, dict[str, Measured]],
                 engines: Sequence[str] = ENGINES) -> str:
    """The results: CPU ms per call per engine, mlang/NumPy, the goal and whether mlang
    meets it; then gradient/forward ratios, failures and busy runs."""
    header = ("benchmark", "calls", *(f"{e} ms" for e in engines), "mlang/NumPy", "goal", "met",
              "mlang vs ref")
    rows: list[tuple[str, ...]] = [header]
    for bench in benchmarks:
        row = table[bench.name]
        mlang, numpy_ = row.get("mlang"), row.get("NumPy")
        m_ms = mlang.ms if mlang else None
        n_ms = numpy_.ms if numpy_ else None
        calls = next((str(m.calls) for m in row.values()), "-")
        goal, met = "-", "-"
        if bench.goal_ms is not None:
            goal = f"<= {bench.goal_ms:g} ms"
            met = "-" if m_ms is None else ("yes" if m_ms <= bench.goal_ms else "no")
        elif bench.goal_ratio is not None:
            goal = f"<= {bench.goal_ratio:g}x NumPy"
            if m_ms is not None and n_ms:
                met = "yes" if m_ms <= bench.goal_ratio * n_ms else "no"
        if bench.faster_than is not None:
            goal += f", < {bench.faster_than}"
            rival = row.get(bench.faster_than)
            if rival is not None and rival.ms is not None and m_ms is not None and met != "-":
                met = "yes" if met == "yes" and m_ms < rival.ms else "no"
        diff = "-" if mlang is None or mlang.difference is None else f"{mlang.difference:.1e}"
        rows.append((bench.name, calls, *(_ms(row.get(e)) for e in engines), _ratio(m_ms, n_ms),
                     goal, met, diff))
    for grad_name, fwd_name in GRADIENT_OVER_FORWARD:
        if grad_name not in table or fwd_name not in table:
            continue
        grad, fwd = table[grad_name], table[fwd_name]
        cells = []
        for e in engines:
            g, f = grad.get(e), fwd.get(e)
            cells.append(_ratio(g.ms if g else None, f.ms if f else None, "x"))
        mg, mf = grad.get("mlang"), fwd.get("mlang")
        r = (mg.ms / mf.ms) if mg and mf and mg.ms is not None and mf.ms else None
        met = "-" if r is None else ("yes" if r <= GRADIENT_OVER_FORWARD_GOAL else "no")
        name = grad_name.replace("gradient", "gradient/forward")
        rows.append((name, "-", *cells, "-", f"<= {GRADIENT_OVER_FORWARD_GOAL:g}", met, "-"))
    for accel_name, plain_name in ACCELERATED_OVER_PLAIN:
        accel, plain = table.get(accel_name, {}).get("mlang"), table.get(plain_name, {}).get("mlang")
        if accel is None or plain is None:
            continue
        name = accel_name.replace("accelerated", "accelerated/plain")
        # (no goal: both replay, so about 1; the gain is the "accelerated/traced" row's)
        rows.append((name, "-", _ratio(accel.ms, plain.ms, "x"), *("-" for _ in engines[1:]),
                     "-", "-", "-", "-"))
    for accel_name, _ in ACCELERATED_OVER_PLAIN:
        accel, traced = table.get(accel_name, {}).get("mlang"), table.get(accel_name, {}).get(TRACED)
        if accel is None or traced is None:
            continue
        name = accel_name.replace("accelerated", "accelerated/traced")
        rows.append((name, "-", _ratio(accel.ms, traced.ms, "x"), *("-" for _ in engines[1:]),
                     "-", "< 1", "-" if accel.ms is None or traced.ms is None
                     else ("yes" if accel.ms < traced.ms else "no"), "-"))
    lines = run.aligned(rows)
    waited = total = 0
    for bench in benchmarks:
        for engine, measured in table[bench.name].items():
            total += 1
            if measured.outcome.error is not None:
                lines.append(f"  {bench.name} ({engine}): {measured.outcome.error}")
            elif measured.wrong is not None:
                lines.append(f"  {bench.name} ({engine}): WRONG RESULT, {measured.wrong}")
            elif run.busy(measured.outcome):
                waited += 1
    if waited:
        lines.append(f"note: elapsed time well above CPU time (a busy machine) for {waited} of "
                     f"{total} measurements")
    return "\n".join(lines)


def selected(names: Sequence[str]) -> list[Benchmark]:
    if not names:
        return list(BENCHMARKS)
    return [b for b in BENCHMARKS if any(n in b.name for n in names)]


def _arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("names", nargs="*", help="run only benchmarks whose name contains one of these")
    p.add_argument("--runs", type=int, default=5, help="runs per benchmark and engine (median)")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every number of calls by this")
    p.add_argument("--small", action="store_true", help="small networks (a quick smoke run)")
    p.add_argument("--engines", default=",".join(ENGINES),
                   help=f"comma-separated engines to run, of {','.join(ENGINES)}")
    p.add_argument("--default-malloc", action="store_true",
                   help="keep glibc's allocator defaults (the mlang command raises its mmap threshold)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    opts = _arguments().parse_args(argv)
    if opts.runs < 1 or opts.scale <= 0:
        print("autodiff.py: --runs must be at least 1 and --scale positive", file=sys.stderr)
        return 2
    engines = [e for e in ENGINES if e in opts.engines.split(",")]
    benchmarks = selected(opts.names)
    if not benchmarks or not engines:
        print("autodiff.py: no benchmark or engine matches", file=sys.stderr)
        return 2
    sizes = reference.SMALL if opts.small else reference.FULL
    tuned = False
    if not opts.default_malloc:
        from mlang.frontends.allocator import tune_allocator

        tuned = tune_allocator()
    table = run_benchmarks(benchmarks, sizes, opts.runs, opts.scale, engines,
                           progress=lambda name: print(f"running {name} ...", file=sys.stderr,
                                                       flush=True))
    print(f"median of {opts.runs} run(s); CPU milliseconds per call; BLAS/OpenMP threads: 1; "
          f"allocator: {'as the mlang command' if tuned else 'glibc defaults'}")
    missing = [e for e in ("torch", "autograd") if e in engines and not reference.have(e)]
    if missing:
        print(f"not installed: {', '.join(missing)}")
    print(format_table(benchmarks, table, engines))
    failed = any(m.outcome.error is not None or m.wrong is not None
                 for row in table.values() for e, m in row.items() if e in ("mlang", "NumPy", TRACED))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
