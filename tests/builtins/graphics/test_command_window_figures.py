"""Figures in the Command Window: written as they are drawn, after each input."""

from __future__ import annotations

import io
from pathlib import Path

from mlang.builtins.graphics.state import configure
from mlang.evaluation.interpreter import Interpreter
from mlang.frontends.repl import run_stream


def test_each_input_writes_the_figures_it_changed(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    err = io.StringIO()
    interp = Interpreter(stdout=io.StringIO(), stderr=err)
    configure(interp, figures_dir=str(tmp_path / "figs"), wait=False, interactive=True)
    png = tmp_path / "figs" / "figure1.png"
    assert run_stream(interp, io.StringIO("plot(1:3)\n")) == 0
    assert png.is_file()  # written after the input, before the session ends
    first = png.stat().st_mtime_ns, png.read_bytes()
    assert run_stream(interp, io.StringIO("hold on; plot([3 2 1])\n")) == 0
    assert png.read_bytes() != first[1]  # rewritten: the second line is drawn
    interp.finish()
    assert err.getvalue().count("figure1.png") == 1  # named once, when first written
