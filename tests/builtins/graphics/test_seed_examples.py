"""The seeds' plotting examples run headless and draw what they name: the complex-gradient
example (imagesc + colorbar + hold on + quiver + a LaTeX title) and the Rosenbrock
gradient field (quiver + labels + title), each written as a non-trivial PNG."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _non_trivial_png(path: Path) -> np.ndarray:
    with Image.open(path) as image:
        assert image.format == "PNG"
        pixels = np.asarray(image.convert("RGB"))
    assert pixels.shape == (420, 560, 3)
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 50  # a colour image, not a blank page
    return pixels


def _text(value) -> str:
    from mlang.builtins.coerce import text_or_none

    text = text_or_none(value)
    assert text is not None, value
    return text


def test_complex_gradient_example(g, monkeypatch):
    monkeypatch.chdir(EXAMPLES)
    out = g.run("run('dlgradient_complex.m')")
    assert "2.0000 - 3.0000i" in out
    g.run("ax = gca; kids = ax.Children; q = kids(1); im = kids(2);")
    assert _text(g.value("c = class(q);", "c")) == "matlab.graphics.chart.primitive.Quiver"
    assert _text(g.value("c = class(im);", "c")) == "matlab.graphics.primitive.Image"
    # imagesc: the real part of (2+3i)x over [-2, 2]^2, y pointing up (axis xy), scaled colours
    cdata = g.value("C = im.CData;", "C")
    assert cdata.shape == (100, 100)
    np.testing.assert_allclose(g.value("cl = ax.CLim;", "cl"), [[cdata.min(), cdata.max()]])
    np.testing.assert_allclose(g.value("cl = ax.CLim;", "cl"), [[-10, 10]], atol=1e-9)
    np.testing.assert_array_equal(g.value("xd = im.XData;", "xd"), [[-2, 2]])
    assert _text(g.value("yd = ax.YDir;", "yd")) == "normal"
    # colorbar: a second matplotlib axes beside the plot
    assert len(g.state.figures[1].artist.axes) == 2
    # hold on + quiver: the gradient, (2-3i) everywhere, as black arrows at the 11x11 points
    np.testing.assert_allclose(g.value("U = q.UData;", "U"), np.full((11, 11), 2.0))
    np.testing.assert_allclose(g.value("V = q.VData;", "V"), np.full((11, 11), -3.0))
    np.testing.assert_array_equal(g.value("qc = q.Color;", "qc"), [[0, 0, 0]])
    assert _text(g.value("s = ax.XLabel.String;", "s")) == "Real"
    assert _text(g.value("s = ax.YLabel.String;", "s")) == "Imaginary"
    assert _text(g.value("s = ax.Title.String;", "s")) == "Real Value and Gradient"
    assert _text(g.value("s = ax.Title.Interpreter;", "s")) == "latex"
    err = g.finish()
    assert "figure1.png" in err
    _non_trivial_png(g.figures_dir / "figure1.png")


def test_rosenbrock_quiver_example(g, monkeypatch):
    monkeypatch.chdir(EXAMPLES)
    out = g.run("run('rosenbrock_quiver.m')")
    assert out == "largest gradient norm: 447.2\n"
    g.run("ax = gca; q = ax.Children; U = q.UData; V = q.VData; X = q.XData; Y = q.YData;")
    x1 = np.ravel(g.get("X"))
    x2 = np.ravel(g.get("Y"))
    assert x1.size == 100
    np.testing.assert_allclose(np.ravel(g.get("U")), -400 * x1 * (x2 - x1**2) - 2 * (1 - x1), atol=1e-9)
    np.testing.assert_allclose(np.ravel(g.get("V")), 200 * (x2 - x1**2), atol=1e-9)
    assert _text(g.value("s = ax.Title.String;", "s")) == "Gradient of Rosenbrock's function"
    assert _text(g.value("s = ax.XLabel.String;", "s")) == "x_1"
    assert _text(g.value("s = ax.YLabel.String;", "s")) == "x_2"
    assert g.state.figures[1].current_axes.artist.get_title() != ""
    g.finish()
    _non_trivial_png(g.figures_dir / "figure1.png")
