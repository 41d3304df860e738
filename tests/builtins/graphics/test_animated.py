"""animatedline, addpoints, clearpoints, getpoints, and drawnow with them."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from PIL import Image

from mlang.builtins.graphics import output
from mlang.builtins.graphics.animated import AnimatedLine


def test_empty_line_in_the_current_axes(g):
    g.run("h = animatedline;")
    h = g.get("h")
    assert isinstance(h, AnimatedLine)
    assert g.run("disp(class(h))") == "matlab.graphics.animation.AnimatedLine\n"
    assert g.run("disp(h.Type)") == "animatedline\n"
    assert g.value("[x, y] = getpoints(h);", "x").shape == (1, 0)
    assert g.value("n = numel(gca().Children);", "n") == 1.0
    assert g.value("m = h.MaximumNumPoints;", "m") == 1_000_000.0
    np.testing.assert_allclose(g.value("c = h.Color;", "c"), [[0, 0.447, 0.741]])


def test_addpoints_and_getpoints(g):
    g.run("h = animatedline([1 2], [3 4]); addpoints(h, 3, 5); addpoints(h, [4; 5], [6 7]);"
          "[x, y] = getpoints(h); [a, b, c] = getpoints(h);")
    np.testing.assert_array_equal(g.get("x"), [[1, 2, 3, 4, 5]])
    np.testing.assert_array_equal(g.get("y"), [[3, 4, 5, 6, 7]])
    np.testing.assert_array_equal(g.get("c"), [[0, 0, 0, 0, 0]])
    artist = g.get("h").artist
    np.testing.assert_array_equal(artist.get_xdata(), [1, 2, 3, 4, 5])
    np.testing.assert_array_equal(artist.get_ydata(), [3, 4, 5, 6, 7])
    lo, hi = g.get("h").axes().artist.get_ylim()
    assert lo <= 3 and hi >= 7  # the limits follow the points


def test_name_value_options(g):
    g.run("h = animatedline('Color', 'r', 'LineWidth', 3, 'Marker', 'o', 'LineStyle', '--');")
    artist = g.get("h").artist
    assert artist.get_color() == (1.0, 0.0, 0.0)
    assert artist.get_linewidth() == 3.0
    assert artist.get_marker() == "o"
    assert artist.get_linestyle() == "--"
    np.testing.assert_array_equal(g.value("c = h.Color;", "c"), [[1, 0, 0]])
    g.run("h.Color = [0 0 1]; set(h, 'LineWidth', 1);")
    assert artist.get_color() == (0.0, 0.0, 1.0)
    assert artist.get_linewidth() == 1.0


def test_maximum_number_of_points_keeps_the_newest(g):
    g.run("h = animatedline('MaximumNumPoints', 100); for k = 1:250, addpoints(h, k, -k); end;"
          "[x, y] = getpoints(h);")
    np.testing.assert_array_equal(g.get("x"), [np.arange(151, 251)])
    np.testing.assert_array_equal(g.get("y"), [-np.arange(151, 251)])
    lo, hi = g.get("h").axes().artist.get_xlim()
    assert 100 <= lo <= 151 and hi >= 250  # the limits follow the points kept
    g.run("h.MaximumNumPoints = 10; [x, y] = getpoints(h);")
    np.testing.assert_array_equal(g.get("x"), [np.arange(241, 251)])
    g.run("h2 = animatedline(1:20, 1:20, 'MaximumNumPoints', 5); [x2, ~] = getpoints(h2);")
    np.testing.assert_array_equal(g.get("x2"), [[16, 17, 18, 19, 20]])


def test_clearpoints(g):
    g.run("h = animatedline(1:3, 4:6); clearpoints(h); [x, y] = getpoints(h);")
    assert g.get("x").shape == (1, 0)
    assert len(g.get("h").artist.get_xdata()) == 0
    assert g.get("h").valid
    g.run("addpoints(h, 7, 8); [x, y] = getpoints(h);")
    np.testing.assert_array_equal(g.get("x"), [[7]])


def test_three_d_line(g):
    g.run("h = animatedline(1, 2, 3); addpoints(h, 4, 5, 6); [x, y, z] = getpoints(h);")
    np.testing.assert_array_equal(g.get("z"), [[3, 6]])
    assert g.get("h").axes().is_3d
    xs, ys, zs = g.get("h").artist.get_data_3d()
    np.testing.assert_array_equal(zs, [3, 6])


def test_adds_to_the_axes_whatever_hold_says(g):
    g.run("plot(1:3); h1 = animatedline; h2 = animatedline('Color', 'k');"
          "n = numel(gca().Children);")
    assert g.get("n") == 3.0
    g.run("ax = axes(); h3 = animatedline(ax, 1, 1);")
    assert g.get("h3").parent is g.get("ax")


def test_delete_removes_the_line(g):
    g.run("h = animatedline(1:3, 1:3); ax = gca; delete(h); n = numel(ax.Children);")
    assert g.get("n") == 0.0
    err = g.fails("addpoints(h, 1, 1)")
    assert err.identifier == "MATLAB:class:InvalidHandle"


def test_errors(g):
    assert g.fails("addpoints(1, 2, 3)").identifier == "MATLAB:addpoints:InvalidHandle"
    assert g.fails("h = animatedline; addpoints(h, [1 2], 3)").identifier == \
        "MATLAB:addpoints:MismatchedSizes"
    assert g.fails("addpoints(h, 'a', 1)").identifier == "MATLAB:addpoints:InvalidData"
    assert g.fails("addpoints(h, ones(2), ones(2))").identifier == "MATLAB:addpoints:InvalidData"
    assert g.fails("addpoints(h)").identifier == "MATLAB:minrhs"
    assert g.fails("getpoints(plot(1:3))").identifier == "MATLAB:getpoints:InvalidHandle"
    assert g.fails("clearpoints(5)").identifier == "MATLAB:clearpoints:InvalidHandle"
    assert g.fails("animatedline(1)").identifier == "MATLAB:narginchk:notEnoughInputs"
    assert g.fails("animatedline('Color')").identifier == "MATLAB:InputParser:ParamMissingValue"
    assert g.fails("animatedline('Nope', 1)").identifier == "MATLAB:hg:InvalidProperty"
    assert g.fails("animatedline('MaximumNumPoints', 0)").identifier.startswith("MATLAB:")
    assert g.fails("animatedline('MaximumNumPoints', 2.5)").identifier.startswith("MATLAB:")
    g.run("h = animatedline;")
    assert g.fails("h.XData").identifier == "MATLAB:noSuchMethodOrField"
    assert g.fails("[a, b, c, d] = getpoints(h)").identifier == "MATLAB:TooManyOutputs"


def test_display(g):
    out = g.run("h = animatedline('Color', 'r', 'LineWidth', 2)")
    assert out == (
        "\nh = \n\n"
        "  AnimatedLine with properties:\n\n"
        "               Color: [1 0 0]\n"
        "           LineStyle: '-'\n"
        "           LineWidth: 2\n"
        "              Marker: 'none'\n"
        "          MarkerSize: 6\n"
        "     MarkerFaceColor: 'none'\n"
        "    MaximumNumPoints: 1000000\n\n")


TRAINING_LOOP = """
figure;
h = animatedline('Color', 'b', 'LineWidth', 1.5);
xlabel('Iteration'); ylabel('Loss');
for it = 1:100
    loss = exp(-it/30) + 0.01*sin(it);
    addpoints(h, it, loss);
    drawnow
end
[x, y] = getpoints(h);
"""


def test_training_loss_loop_headless(g, monkeypatch):
    """100 iterations with drawnow each: the line holds every point, the figure file is
    written at the end, and files are written only every few seconds of the clock."""
    writes = []
    real_write = output.write_figure

    def counting(figure, path, *args, **kwargs):
        writes.append(g.clock.now)
        return real_write(figure, path, *args, **kwargs)

    monkeypatch.setattr(output, "write_figure", counting)
    # each iteration takes a tenth of a second on the test's clock: addpoints moves it on
    real_add = AnimatedLine.add_points

    def add_and_tick(self, *args):
        g.clock.now += 0.1
        return real_add(self, *args)

    monkeypatch.setattr(AnimatedLine, "add_points", add_and_tick)
    g.run(TRAINING_LOOP)
    np.testing.assert_array_equal(g.get("x"), [np.arange(1, 101)])
    assert g.get("y").shape == (1, 100)
    # 10 s of loop, a write at most every 3 s: 4 writes at most, not 100
    assert 1 <= len(writes) <= 4
    assert all(b - a >= 3.0 for a, b in pairwise(writes))
    err = g.finish()
    path = g.figures_dir / "figure1.png"
    assert path.exists()
    assert "figure1.png" in err
    with Image.open(path) as image:
        pixels = np.asarray(image.convert("RGB"))
    assert pixels.shape == (420, 560, 3)
    blue = (pixels[:, :, 2] > 200) & (pixels[:, :, 0] < 60) & (pixels[:, :, 1] < 60)
    assert blue.sum() > 200  # the loss curve is drawn


def test_drawnow_limitrate_with_an_animated_line(g):
    g.run("h = animatedline; for k = 1:50, addpoints(h, k, k^2); drawnow limitrate; end")
    assert len(g.get("h").artist.get_xdata()) == 50


@pytest.mark.parametrize("code", ["animatedline(gcf)", "animatedline(1, 2, 3, 4)"])
def test_bad_leading_arguments(g, code):
    assert g.fails(code).identifier.startswith("MATLAB:")
