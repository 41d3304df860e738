"""Golden scripts of the datastore, minibatchqueue, training monitor and training options
functions: each ``golden/NAME.m`` runs in a fresh interpreter and its standard output
must equal ``golden/NAME.out`` byte for byte.

The scripts follow the examples of MathWorks' reference pages (the minibatchqueue
display and the ``next`` example of the minibatchqueue pages, the ``while hasdata``
epoch loop with ``shuffle``, the end-of-data error) and the uses of public training
scripts (``combine(arrayDatastore(X), arrayDatastore(T))``, ``transform``, a
``MiniBatchFcn`` with several outputs, ``trainingProgressMonitor`` in a loop).
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from tests.test_display import run_script

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.m"))


def test_golden_cases_exist() -> None:
    assert len(CASES) >= 8
    for name in CASES:
        assert (GOLDEN / f"{name}.out").exists(), name


@pytest.mark.parametrize("name", CASES)
def test_golden(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    expected = (GOLDEN / f"{name}.out").read_text(encoding="utf-8")
    with contextlib.redirect_stderr(io.StringIO()):  # a monitor's progress lines go to stderr
        printed = run_script(GOLDEN / f"{name}.m")
    assert printed == expected
