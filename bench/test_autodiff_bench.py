"""Tests of the autodiff benchmark: ``python -m pytest bench``.

They run every benchmark's code path once on small networks and check that
mlang computes the same losses and gradients as the hand-written NumPy
reference, and that the reference itself agrees with finite differences.
"""

from __future__ import annotations

import importlib.util
import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("bench_autodiff", HERE / "autodiff.py")
assert _spec is not None and _spec.loader is not None
ad = importlib.util.module_from_spec(_spec)
sys.modules["bench_autodiff"] = ad  # dataclasses look the module up by name
_spec.loader.exec_module(ad)
ref = ad.reference


@pytest.fixture(scope="module")
def small_table() -> dict[str, dict[str, Any]]:
    """Every benchmark, one run of one call, under mlang and NumPy."""
    return ad.run_benchmarks(ad.BENCHMARKS, ref.SMALL, runs=1, scale=1e-9, engines=("mlang", "NumPy"))


def test_every_benchmark_runs_under_mlang_and_numpy(small_table: dict) -> None:
    for bench in ad.BENCHMARKS:
        row = small_table[bench.name]
        for engine in ("mlang", "NumPy"):
            measured = row[engine] if engine == "mlang" or bench.kind != "mlp_traced" else None
            if measured is None:
                continue
            assert measured.outcome.error is None, (bench.name, engine, measured.outcome.error)
            assert measured.calls == 1 and measured.outcome.seconds is not None
            assert measured.wrong is None, (bench.name, engine, measured.wrong)


def test_mlang_results_equal_the_reference(small_table: dict) -> None:
    cache: dict = {}
    for bench in ad.BENCHMARKS:
        data = ad.data_for(bench, ref.SMALL, cache)
        want_value, want_grads = ref.expected(ad._reference_kind(bench.kind), data)
        value, grads = small_table[bench.name]["mlang"].result
        rtol = 1e-8 if bench.dtype == "float64" else 1e-4
        atol_fraction = rtol * max(1e-2, bench.near_zero * 0.1)
        assert np.asarray(value).dtype == np.dtype(bench.dtype), bench.name
        np.testing.assert_allclose(np.asarray(value).reshape(()), want_value, rtol=rtol)
        if want_grads is None:
            assert grads is None, bench.name
            continue
        assert sorted(grads) == sorted(want_grads), bench.name
        for name, want in want_grads.items():
            got = np.asarray(grads[name])
            if got.ndim == 0:  # a 1x1 double comes back as a Python float
                got = got.reshape(1, 1)
            assert got.shape == want.shape and got.dtype == want.dtype, (bench.name, name)
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol_fraction * np.abs(want).max(),
                                       err_msg=f"{bench.name}: d/d{name}")


def _finite_differences(loss: Any, params: dict[str, np.ndarray], step: float = 1e-6) -> dict:
    grads = {}
    for name, p in params.items():
        g = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            saved = p[i]
            p[i] = saved + step
            up = loss()
            p[i] = saved - step
            down = loss()
            p[i] = saved
            g[i] = (up - down) / (2 * step)
        grads[name] = g
    return grads


@pytest.mark.parametrize("kind", ["mlp_gradient", "pinn"])
def test_reference_gradients_equal_finite_differences(kind: str) -> None:
    data = ref.mlp_data(ref.SMALL) if kind == "mlp_gradient" else ref.pinn_data(ref.SMALL)
    value, grads = ref.NUMPY[kind](data)
    numeric = _finite_differences(lambda: ref.NUMPY[kind](data)[0], data["params"])
    assert value == ref.NUMPY[kind](data)[0]
    for name, want in numeric.items():
        np.testing.assert_allclose(grads[name], want, rtol=1e-5, atol=1e-7 * np.abs(want).max(),
                                   err_msg=name)


def test_training_reference_gradient_equals_the_gradient_reference() -> None:
    data = ref.mlp_data(ref.SMALL)
    value, grads = ref._mlp_train_gradient(data["params"], data["X"], data["T"])
    want_value, want_grads = ref.mlp_gradient_numpy(data)
    np.testing.assert_allclose(value, want_value, rtol=1e-13)
    for name, want in want_grads.items():
        np.testing.assert_allclose(grads[name], want, rtol=1e-12, atol=1e-15, err_msg=name)


def _numpy_steps(kind: str, data: dict, steps: int) -> tuple[float, dict]:
    """``steps`` Adam steps written out with the reference's parts."""
    gradient = ref._mlp_gradient_for_training if kind == "mlp_train" else ref.pinn_gradient_numpy
    adam = ref._Adam(data["params"])
    for _ in range(steps):
        loss, grads = gradient({**data, "params": adam.params})
        adam.step(grads)
    return loss, adam.state()


@pytest.mark.parametrize("kind", ["mlp_train", "pinn_train"])
def test_mlang_training_steps_carry_the_adam_state(kind: str) -> None:
    data = ref.mlp_data(ref.SMALL) if kind == "mlp_train" else ref.pinn_data(ref.SMALL)
    first = ref.expected(kind, data)
    want_loss, want_state = _numpy_steps(kind, data, 3)
    assert not np.allclose(want_state["W1"], first[1]["W1"])  # the steps moved on
    _, _, (loss, state) = ad.Mlang().run(kind, data, 3)
    np.testing.assert_allclose(loss, want_loss, rtol=1e-10)
    assert sorted(state) == sorted(want_state)
    for name, want in want_state.items():
        np.testing.assert_allclose(np.asarray(state[name]).reshape(want.shape), want, rtol=1e-9,
                                   atol=1e-12, err_msg=name)


def test_numpy_trainer_goes_on_from_its_last_step() -> None:
    data = ref.mlp_data(ref.SMALL)
    step = ref.engines()["NumPy"]["mlp_train"]
    first_loss, first_state = step(data)
    second_loss, second_state = step(data)
    assert second_state is None and second_loss < first_loss  # state copied on the first step only
    np.testing.assert_allclose(second_loss, _numpy_steps("mlp_train", data, 2)[0], rtol=1e-13)
    np.testing.assert_array_equal(ref.expected("mlp_train", data)[1]["W1"], first_state["W1"])


def test_reference_rosenbrock() -> None:
    value, grads = ref.rosenbrock_numpy(ref.rosenbrock_data())
    assert value == 104.0  # 100*(2 - 1)^2 + (1 + 1)^2
    np.testing.assert_array_equal(grads["x"], [[396.0, 200.0]])


def test_autograd_agrees_with_the_reference() -> None:
    pytest.importorskip("autograd")
    table = ad.run_benchmarks(ad.BENCHMARKS, ref.SMALL, runs=1, scale=1e-9, engines=("autograd",))
    for bench in ad.BENCHMARKS:
        if "autograd" in table[bench.name]:
            assert table[bench.name]["autograd"].wrong is None, bench.name


def test_torch_agrees_with_the_reference_on_training_steps() -> None:
    pytest.importorskip("torch")
    benchmarks = [b for b in ad.BENCHMARKS if b.kind.endswith("_train")]
    table = ad.run_benchmarks(benchmarks, ref.SMALL, runs=1, scale=1e-9, engines=("torch",))
    for bench in benchmarks:
        assert table[bench.name]["torch"].wrong is None, (bench.name, table[bench.name]["torch"].wrong)


def test_mismatch_reports_a_wrong_gradient() -> None:
    expected = (1.0, {"W": np.array([[1.0, 2.0]])})
    assert ad.mismatch((1.0, {"W": np.array([[1.0, 2.0 + 1e-12]])}), expected, 1e-8) is None
    assert ad.mismatch((1.0, {"W": np.array([[1.0, 2.1]])}), expected, 1e-8) == \
        "W: relative difference 5.00e-02"
    assert ad.mismatch((1.5, {"W": np.array([[1.0, 2.0]])}), expected, 1e-8).startswith("value")
    assert ad.mismatch((1.0, {"V": np.array([[1.0, 2.0]])}), expected, 1e-8).startswith("gradients")


def _measured(ms: float | None, error: str | None = None) -> Any:
    outcome = ad.Outcome(error=error) if ms is None else ad.Outcome(seconds=ms / 1e3, wall=ms / 1e3)
    return ad.Measured(outcome, 1, difference=0.0 if ms is not None else None)


def test_format_table_shows_goals_and_gradient_over_forward() -> None:
    names = ("rosenbrock value+gradient", "mlp gradient float64", "mlp forward float64")
    benchmarks = [b for b in ad.BENCHMARKS if b.name in names]
    table = {
        names[0]: {"mlang": _measured(0.2), "NumPy": _measured(0.01)},
        names[1]: {"mlang": _measured(3.0), "NumPy": _measured(2.0), "autograd": _measured(4.0)},
        names[2]: {"mlang": _measured(None, "Undefined function 'relu'."), "NumPy": _measured(1.0)},
    }
    lines = ad.format_table(benchmarks, table).splitlines()
    assert lines[0].split()[:6] == ["benchmark", "calls", "mlang", "ms", "NumPy", "ms"]
    assert lines[2].split() == ["rosenbrock", "value+gradient", "1", "0.2", "0.01", "-", "-", "20.00",
                                "<=", "0.25", "ms", "yes", "0.0e+00"]
    assert lines[3].split()[-5:] == ["<=", "1.3x", "NumPy", "no", "0.0e+00"]
    assert lines[4].split()[3:6] == ["1", "FAIL", "1"]
    assert lines[5].split()[:6] == ["mlp", "gradient/forward", "float64", "-", "-", "2.00x"]
    assert lines[6] == "  mlp forward float64 (mlang): Undefined function 'relu'."


def test_format_table_checks_the_rival_engine() -> None:
    bench = next(b for b in ad.BENCHMARKS if b.name == "mlp train step float64")
    for torch_ms, met in ((2.0, "no"), (4.0, "yes")):
        row = {"mlang": _measured(3.0), "NumPy": _measured(3.0), "torch": _measured(torch_ms)}
        lines = ad.format_table([bench], {bench.name: row}).splitlines()
        assert lines[2].split()[-8:] == ["1.00", "<=", "1.3x", "NumPy,", "<", "torch", met, "0.0e+00"]
    slow = {"mlang": _measured(4.0), "NumPy": _measured(3.0), "torch": _measured(5.0)}
    assert ad.format_table([bench], {bench.name: slow}).splitlines()[2].split()[-2] == "no"


def test_main_prints_the_table() -> None:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = ad.main(["--small", "--runs", "1", "--scale", "1e-9", "--engines", "mlang,NumPy",
                          "rosenbrock"])
    assert status == 0, out.getvalue()
    text = out.getvalue()
    assert "CPU milliseconds per call" in text
    assert "rosenbrock value+gradient" in text and "mlp" not in text
    assert "running rosenbrock" in err.getvalue()


def test_format_table_flags_wrong_results_and_busy_runs() -> None:
    bench = ad.BENCHMARKS[0]
    wrong = ad.Measured(ad.Outcome(seconds=1.0, wall=1.0), 10, wrong="x: relative difference 1.00e-01")
    busy = ad.Measured(ad.Outcome(seconds=1.0, wall=3.0), 10)
    lines = ad.format_table([bench], {bench.name: {"mlang": wrong, "NumPy": busy}}).splitlines()
    assert lines[-2] == f"  {bench.name} (mlang): WRONG RESULT, x: relative difference 1.00e-01"
    assert lines[-1] == "note: elapsed time well above CPU time (a busy machine) for 1 of 2 measurements"


def test_accelerated_rows_are_also_timed_traced(small_table: dict) -> None:
    accelerated = [b for b in ad.BENCHMARKS if b.kind.endswith("_accel")]
    assert accelerated
    for bench in accelerated:
        traced = small_table[bench.name][ad.TRACED]
        assert traced.outcome.error is None and traced.wrong is None, bench.name
    lines = ad.format_table(accelerated, {b.name: small_table[b.name] for b in accelerated},
                            ("mlang", "NumPy")).splitlines()
    rows = [line for line in lines if "accelerated/traced" in line]
    assert len(rows) == len(ad.ACCELERATED_OVER_PLAIN)
    assert all(row.split()[-4:-2] == ["<", "1"] for row in rows)


@pytest.mark.parametrize("kind", ["tanhfn_train", "tanhnet_train", "pinn", "mlp_train"])
def test_plans_off_traces_every_call_with_the_same_results(kind: str, monkeypatch) -> None:
    from mlang.builtins.deeplearning import step_plans

    replays = []
    replay = step_plans.replay_untraced
    monkeypatch.setattr(step_plans, "replay_untraced", lambda *args: replays.append(1) or replay(*args))
    bench = next(b for b in ad.BENCHMARKS if b.kind == kind)
    data = ad.data_for(bench, ref.SMALL)
    _, _, planned = ad.Mlang().run(kind, data, 3)
    assert len(replays) >= 2  # the plain loop replays its plans ...
    replays.clear()
    with ad.plans_off():
        _, _, traced = ad.Mlang().run(kind, data, 3)
    assert not replays  # ... which the switch turns off, and nothing else
    assert step_plans.planned_call is not None and step_plans.planned_call.__name__ == "planned_call"
    (loss, state), (loss_traced, state_traced) = planned, traced
    np.testing.assert_array_equal(np.asarray(loss), np.asarray(loss_traced))
    assert sorted(state) == sorted(state_traced)
    for name in state:
        np.testing.assert_array_equal(np.asarray(state[name]), np.asarray(state_traced[name]))
