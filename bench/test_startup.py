"""Tests of the start-up benchmark (bench/startup.py): parsing and reporting, not times."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("bench_startup", HERE / "startup.py")
assert _spec is not None and _spec.loader is not None
startup = importlib.util.module_from_spec(_spec)
sys.modules["bench_startup"] = startup  # dataclasses look the module up by name
_spec.loader.exec_module(startup)


IMPORTTIME = """import time: self [us] | cumulative | imported package
import time:       120 |        120 |   _io
import time:      3500 |       9000 | mlang.syntax.ast
import time:        80 |      12000 |     numpy
not an import line
import time:       900 |        950 |   string
"""


def test_slowest_imports_sorts_by_own_time() -> None:
    rows = startup.slowest_imports(IMPORTTIME, count=2)
    assert rows == [(3500, 9000, "mlang.syntax.ast"), (900, 950, "string")]


def test_summary_line_gives_the_ratio_to_the_numpy_floor() -> None:
    rows = [startup.Startup("numpy", seconds=0.1), startup.Startup("mlang", seconds=0.12)]
    assert startup.summary_line(rows).startswith("start-up mlang/numpy: 1.20 ")
    assert "meets the goal" in startup.summary_line(rows)
    slow = [startup.Startup("numpy", seconds=0.1), startup.Startup("mlang", seconds=0.2)]
    assert "misses the goal" in startup.summary_line(slow)
    failed = [startup.Startup("numpy", seconds=0.1), startup.Startup("mlang", error="boom")]
    assert startup.summary_line(failed) == "start-up mlang/numpy: -"


def test_children_do_not_inherit_pythondontwritebytecode(monkeypatch) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert "PYTHONDONTWRITEBYTECODE" not in startup.child_environment()


def test_median_cpu_reports_a_time_or_the_error() -> None:
    ok = startup.median_cpu("pass", [sys.executable, "-c", "pass"], runs=2)
    assert ok.error is None and ok.seconds is not None and ok.seconds >= 0
    bad = startup.median_cpu("fail", [sys.executable, "-c", "import sys; sys.exit('no such thing')"], runs=2)
    assert bad.seconds is None and bad.error == "no such thing"
    lines = startup.format_rows([ok, bad]).splitlines()
    assert lines[3].split()[:2] == ["fail", "FAIL"]


def test_first_prompt_is_timed_when_the_prompt_appears() -> None:
    # a stand-in for mlang that prints a prompt, then waits for "exit"
    fake = [sys.executable, "-c", "import sys; print('>> ', end='', flush=True); sys.stdin.readline()"]
    seconds = startup.first_prompt_seconds(fake, runs=1)
    if seconds is None:  # no pseudo-terminals or no /proc here
        return
    assert 0 <= seconds < 10
    silent = [sys.executable, "-c", "import sys; sys.stdin.readline()"]
    assert startup.first_prompt_seconds(silent, runs=1, wait=0.5) == float("inf")
