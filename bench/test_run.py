"""Tests of the benchmark runner and scripts: ``python -m pytest bench``.

They use a stand-in engine (a small Python script) instead of mlang or
Octave, so they are fast and do not depend on which builtins exist yet.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("bench_run", HERE / "run.py")
assert _spec is not None and _spec.loader is not None
run = importlib.util.module_from_spec(_spec)
sys.modules["bench_run"] = run  # dataclasses look the module up by name
_spec.loader.exec_module(run)


def test_parse_times_reads_cpu_and_wall() -> None:
    out = "warming up\nscalar_loop 0.512300 0.600000\n"
    assert run.parse_times("scalar_loop", out) == (0.5123, 0.6)


def test_parse_times_wall_is_optional() -> None:
    assert run.parse_times("fib", "fib 1.5e-2\n") == (0.015, None)


def test_parse_times_needs_the_exact_name() -> None:
    out = "scalar_loop_2 1.0 1.0\nscalar 2.0\n"
    assert run.parse_times("scalar_loop", out) is None
    assert run.parse_times("scalar", out) == (2.0, None)


@given(st.floats(min_value=0, max_value=1e6, allow_nan=False),
       st.floats(min_value=0, max_value=1e6, allow_nan=False))
def test_parse_times_round_trips_printed_values(cpu: float, wall: float) -> None:
    cpu_seen, wall_seen = run.parse_times("b", f"b {cpu:.6f} {wall:.6f}\n")
    assert cpu_seen == pytest.approx(cpu, abs=1e-6)
    assert wall_seen == pytest.approx(wall, abs=1e-6)


def test_first_error_line_prefers_stderr() -> None:
    assert run.first_error_line("\n  error: 'tic' undefined\nmore\n", "out") == "error: 'tic' undefined"
    assert run.first_error_line("", "only stdout\n") == "only stdout"
    assert run.first_error_line("", "") == "no output"


def test_selected_filters_by_substring_in_table_order() -> None:
    assert run.selected([]) == list(run.BENCHMARKS)
    assert run.selected(["fib", "scalar"]) == ["scalar_loop", "recursion_fib"]
    assert run.selected(["nothing"]) == []


def test_busy_flags_a_long_wait() -> None:
    assert run.busy(run.Outcome(seconds=1.0, wall=2.0))
    assert not run.busy(run.Outcome(seconds=1.0, wall=1.1))
    assert not run.busy(run.Outcome(seconds=1.0))


def test_format_table_shows_times_ratio_and_failures() -> None:
    rows = [
        ("scalar_loop", run.Outcome(seconds=1.0, wall=1.0), run.Outcome(seconds=0.5, wall=0.5)),
        ("cell_access", run.Outcome(error="Undefined function 'tic'."), None),
    ]
    lines = run.format_table(rows).splitlines()
    assert lines[0].split() == ["benchmark", "mlang", "CPU", "s", "Octave", "CPU", "s", "mlang/Octave"]
    assert lines[2].split() == ["scalar_loop", "1.000", "0.500", "2.00"]
    assert lines[3].split() == ["cell_access", "FAIL", "-", "-"]
    assert lines[4] == "  cell_access (mlang): Undefined function 'tic'."
    assert len(lines) == 5


def test_format_table_sums_up_busy_runs_in_one_note() -> None:
    rows = [
        ("scalar_loop", run.Outcome(seconds=1.0, wall=3.0), run.Outcome(seconds=0.5, wall=0.5)),
        ("while_if", run.Outcome(seconds=1.0, wall=1.0), run.Outcome(seconds=0.5, wall=2.0)),
    ]
    lines = run.format_table(rows).splitlines()
    assert lines[-1] == ("note: elapsed time well above CPU time (a busy machine) for 2 of 4: "
                         "scalar_loop (mlang), while_if (Octave)")


FAKE_ENGINE = """
import sys
from pathlib import Path
name = Path(sys.argv[1]).stem
count = Path(sys.argv[1]).with_suffix(".count")
n = int(count.read_text()) if count.exists() else 0
count.write_text(str(n + 1))
if name == "broken":
    sys.exit("error: 'zeros' undefined")
print(f"{name} {[3.0, 1.0, 2.0][n % 3]:.6f} {[3.5, 1.5, 2.5][n % 3]:.6f}")
"""


def test_measure_takes_the_median_and_reports_failures(tmp_path: Path) -> None:
    engine = tmp_path / "engine.py"
    engine.write_text(FAKE_ENGINE)
    command = [sys.executable, str(engine)]
    good = tmp_path / "good.m"
    good.write_text("")
    outcome = run.measure(command, good, "good", runs=3, timeout=60)
    assert outcome == run.Outcome(seconds=2.0, wall=2.5)
    broken = tmp_path / "broken.m"
    broken.write_text("")
    failed = run.measure(command, broken, "broken", runs=3, timeout=60)
    assert failed.seconds is None and failed.error == "error: 'zeros' undefined"
    assert (tmp_path / "broken.count").read_text() == "1"  # a failure is not repeated


def test_every_benchmark_script_parses_and_reports_its_name() -> None:
    from mlang.syntax import parse_file

    for name in run.BENCHMARKS:
        script = run.SCRIPTS / f"{name}.m"
        program = parse_file(str(script))
        assert program.is_script, name
        text = script.read_text()
        assert f"fprintf('{name} %.6f %.6f\\n', cpu, wall);" in text, name
        assert "tic;" in text and "wall = toc;" in text and "cputime" in text, name


def test_unsupported_engine_shows_not_applicable() -> None:
    rows = [("string_array_loop", run.Outcome(seconds=1.0, wall=1.0),
             run.Outcome(not_run="Octave has no string class"))]
    lines = run.format_table(rows).splitlines()
    assert lines[2].split() == ["string_array_loop", "1.000", "n/a", "-"]
    assert lines[3] == "  string_array_loop (Octave): not run: Octave has no string class"


def test_sized_sets_the_size_variable_before_the_script() -> None:
    assert run.sized(["octave-cli", "--norc"], "--eval", "strrep_1e7", 2500) == [
        "octave-cli", "--norc", "--eval", "n = 2500; strrep_1e7"]


def test_format_scaling_shows_growth_per_engine() -> None:
    rows = [
        ("literal_parse", 250, (run.Outcome(seconds=0.5), run.Outcome(seconds=2.0)),
         (run.Outcome(seconds=0.1), run.Outcome(seconds=0.5))),
        ("deep_nesting", 5000, (run.Outcome(seconds=0.5), run.Outcome(error="too deep")), None),
    ]
    lines = run.format_scaling(rows).splitlines()
    assert lines[0].split()[:4] == ["benchmark", "n", "mlang", "n"]
    assert lines[2].split() == ["literal_parse", "250", "0.500", "2.000", "4.0", "0.100", "0.500", "5.0"]
    assert lines[3].split() == ["deep_nesting", "5000", "0.500", "FAIL", "-", "-", "-", "-"]
    assert lines[4] == "  deep_nesting (mlang): too deep"


def test_scaling_cases_are_benchmarks() -> None:
    assert {name for name, _ in run.SCALING} <= set(run.BENCHMARKS)
    assert set(run.OCTAVE_UNSUPPORTED) <= set(run.BENCHMARKS)


# Each benchmark with a size variable n, at a small size: the script checks its own
# result and fails with bench:wrong when it is wrong.
SMALL_SIZES = {
    "cellfun_handles": 200,
    "cellfun_nonuniform": 200,
    "prealloc_recurrence": 500,
    "sprintf_loop": 300,
    "nested_calls": 200,
    "while_compound": 500,
    "struct_array_loop": 200,
    "string_array_loop": 200,
    "minibatch_queue": 100,
    "map_loop": 300,
    "small_arrays": 300,
    "builtin_calls": 300,
    "literal_parse": 20,
    "strrep_1e7": 1000,
    "regexprep_1e7": 1000,
    "strsplit_1e7": 1000,
    "deep_nesting": 400,
    "growth_patterns": 200,
}


def test_small_sizes_cover_the_sized_benchmarks() -> None:
    for name in run.BENCHMARKS:
        sized_script = "if ~exist('n', 'var')" in (run.SCRIPTS / f"{name}.m").read_text()
        assert sized_script == (name in SMALL_SIZES), name


@pytest.mark.parametrize("name", sorted(SMALL_SIZES))
def test_benchmark_runs_correctly_under_mlang_at_a_small_size(name: str) -> None:
    command = [sys.executable, "-m", "mlang"]
    outcome = run.run_once(command, run.SCRIPTS / f"{name}.m", name, timeout=120,
                           arguments=run.sized(command, "-e", name, SMALL_SIZES[name]))
    assert outcome.error is None, outcome.error
    assert outcome.seconds is not None and outcome.seconds >= 0


_ref_spec = importlib.util.spec_from_file_location("bench_numpy_reference",
                                                   HERE / "numpy_reference.py")
assert _ref_spec is not None and _ref_spec.loader is not None
numpy_reference = importlib.util.module_from_spec(_ref_spec)
_ref_spec.loader.exec_module(numpy_reference)


def test_numpy_references_are_the_benchmarks_the_runner_compares() -> None:
    assert set(numpy_reference.REFERENCES) == set(run.WITH_NUMPY_REFERENCE)
    assert set(run.WITH_NUMPY_REFERENCE) <= set(run.BENCHMARKS)


@pytest.mark.parametrize("name, size", [("vectorised", {"n": 1000, "repeats": 2}),
                                        ("small_arrays", {"n": 300}),
                                        ("builtin_calls", {"n": 300})])
def test_numpy_reference_computes_what_its_script_checks(name: str, size: dict) -> None:
    # each reference checks its result as its MATLAB script does (SystemExit when wrong)
    seconds, wall = numpy_reference.REFERENCES[name](**size)
    assert seconds >= 0 and wall >= 0


def test_numpy_reference_rejects_an_unknown_name(capsys: pytest.CaptureFixture) -> None:
    assert numpy_reference.main(["scalar_loop"]) == 2
    assert "usage" in capsys.readouterr().err
