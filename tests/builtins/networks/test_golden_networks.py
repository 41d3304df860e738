"""Golden runs of layer, layer-array, dlnetwork and layerGraph examples.

Each ``golden/NAME.m`` beside this file reproduces an example of a MathWorks reference
page (the page is named in the script's first comment lines) and runs in a fresh
interpreter; its standard output must equal ``golden/NAME.out`` byte for byte.  The
expected outputs are the pages' printed results (layer displays, layer arrays, the
dlnetwork display, Learnables tables, summary) in the Command Window's layout.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_display import run_script

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.m"))


def test_golden_cases_exist() -> None:
    assert len(CASES) >= 12
    for name in CASES:
        assert (GOLDEN / f"{name}.out").exists(), name
        first = (GOLDEN / f"{name}.m").read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("%"), f"{name}.m names the example it reproduces"


@pytest.mark.parametrize("name", CASES)
def test_golden(name: str) -> None:
    expected = (GOLDEN / f"{name}.out").read_text(encoding="utf-8")
    assert run_script(GOLDEN / f"{name}.m") == expected
