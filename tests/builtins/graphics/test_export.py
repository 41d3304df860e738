"""Export of animated figures: a GIF animation from getframe + frame2im + imwrite
append, and exportgraphics / saveas / print of a figure holding an animated line."""

from __future__ import annotations

import os
from itertools import pairwise

import numpy as np
import pytest
from PIL import Image, ImageSequence

GIF_LOOP = """
h = animatedline('Color', 'r', 'LineWidth', 2);
axis([0 2*pi -1 1])
x = linspace(0, 2*pi, 40);
for k = 1:8
    addpoints(h, x(5*k-4:5*k), sin(x(5*k-4:5*k)));
    drawnow
    frame = getframe(gcf);
    im = frame2im(frame);
    [A, map] = rgb2ind(im, 256);
    if k == 1
        imwrite(A, map, 'sine.gif', 'gif', 'LoopCount', Inf, 'DelayTime', 0.1);
    else
        imwrite(A, map, 'sine.gif', 'gif', 'WriteMode', 'append', 'DelayTime', 0.1);
    end
end
"""


def test_gif_animation_of_an_animated_line(g, tmp_path):
    g.run(GIF_LOOP)
    path = tmp_path / "sine.gif"
    with Image.open(path) as gif:
        assert gif.format == "GIF"
        assert gif.n_frames == 8
        assert gif.size == (560, 420)
        frames = [np.asarray(f.convert("RGB")) for f in ImageSequence.Iterator(gif)]
    # the curve grows: every frame has more red pixels than the one before
    red = [int(((f[:, :, 0] > 200) & (f[:, :, 1] < 80) & (f[:, :, 2] < 80)).sum()) for f in frames]
    assert all(b > a for a, b in pairwise(red)), red
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".part")]


def test_frame_matches_the_figure_size(g):
    g.run("h = animatedline(1:5, (1:5).^2); F = getframe(gcf); im = frame2im(F);")
    im = g.get("im")
    assert im.shape == (420, 560, 3) and im.dtype == np.uint8
    axes_frame = g.value("G = getframe(gca); a = frame2im(G);", "a")
    assert axes_frame.shape[0] < 420 and axes_frame.shape[1] < 560


@pytest.mark.parametrize("name, magic", [("a.png", b"\x89PNG"), ("a.jpg", b"\xff\xd8"),
                                         ("a.pdf", b"%PDF"), ("a.svg", b"<?xml")])
def test_exportgraphics_of_an_animated_line(g, tmp_path, name, magic):
    g.run(f"h = animatedline(1:10, rand(1, 10)); exportgraphics(gca, '{name}');")
    assert (tmp_path / name).read_bytes().startswith(magic)


def test_exportgraphics_resolution_and_saveas_print(g, tmp_path):
    g.run("h = animatedline(1:10, 1:10); exportgraphics(gcf, 'lo.png', 'Resolution', 50);"
          "exportgraphics(gcf, 'hi.png', 'Resolution', 200); saveas(gca, 'whole.png');"
          "print('-dpng', 'printed'); print(gcf, 'r72.png', '-dpng', '-r72');")
    with Image.open(tmp_path / "lo.png") as lo, Image.open(tmp_path / "hi.png") as hi:
        assert hi.size[0] > 3 * lo.size[0]
    with Image.open(tmp_path / "whole.png") as whole:
        assert whole.size == (560, 420)
    with Image.open(tmp_path / "r72.png") as small:
        assert small.size == (403, 302)
    assert (tmp_path / "printed.png").exists()


def test_export_errors(g, tmp_path):
    g.run("h = animatedline(1:3, 1:3);")
    assert g.fails("exportgraphics(h, 'x.png')").identifier == "MATLAB:exportgraphics:InvalidHandle"
    assert g.fails("saveas(h, 'x.png')").identifier == "MATLAB:saveas:invalidHandle"
    assert g.fails("getframe(h)").identifier == "MATLAB:getframe:InvalidHandle"
    assert g.fails("exportgraphics(gcf, 'x.xyz')").identifier == \
        "MATLAB:exportgraphics:InvalidFileExtension"
    assert g.fails("exportgraphics(gcf, 'nofolder/x.png')").identifier == \
        "MATLAB:exportgraphics:CannotCreateOutputFile"
    assert not (tmp_path / "x.png").exists()


def test_failed_export_keeps_the_old_file(g, tmp_path, monkeypatch):
    g.run("h = animatedline(1:3, 1:3); exportgraphics(gcf, 'keep.png');")
    before = (tmp_path / "keep.png").read_bytes()
    figure = g.state.figures[1]

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(figure.artist, "savefig", broken)
    assert g.fails("addpoints(h, 4, 9); exportgraphics(gcf, 'keep.png')").identifier == \
        "MATLAB:exportgraphics:CannotCreateOutputFile"
    assert (tmp_path / "keep.png").read_bytes() == before
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".part")]
