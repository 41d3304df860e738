"""Inline figures (graphics/inline.py) in a session, without a kernel: each changed figure
once, as PNG, and no file written."""

from __future__ import annotations

import io

from PIL import Image

import mlang
from mlang.builtins.graphics.inline import inline_options, new_figure_images


def test_changed_figures_once_each_and_no_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    m = mlang.Session()
    interp = m.interpreter
    assert new_figure_images(interp) == []  # no graphics loaded yet
    interp.options["figures"] = inline_options()
    m.eval("plot(1:3); figure; bar(1:2); drawnow;")
    interp.input_done()
    images = new_figure_images(interp)
    assert [n for n, _ in images] == [1, 2]
    for _, png in images:
        assert Image.open(io.BytesIO(png)).format == "PNG"
    assert new_figure_images(interp) == []
    m.eval("figure(1); hold on; plot(3:-1:1);")
    assert [n for n, _ in new_figure_images(interp)] == [1]
    m.eval("f = figure('Visible', 'off'); plot(1:2);")
    assert new_figure_images(interp) == []  # an invisible figure is not shown
    m.close()
    assert list(tmp_path.iterdir()) == []
