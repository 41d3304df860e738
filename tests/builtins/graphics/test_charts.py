"""scatter, scatter3, bar, barh, area, histogram and hist: their objects and artists."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.colors import to_rgb, to_rgba
from PIL import Image

BLUE, ORANGE, YELLOW = (0.0, 0.4470, 0.7410), (0.8500, 0.3250, 0.0980), (0.9290, 0.6940, 0.1250)


def text_of(value) -> str:
    return value.tobytes().decode("utf-16-le")


# ---------------------------------------------------------------- scatter


def test_scatter_default_points_and_properties(g):
    g.run("s = scatter([1 2 3], [4 5 6]);")
    s = g.get("s")
    assert s.matlab_class == "matlab.graphics.chart.primitive.Scatter"
    assert np.array_equal(s.artist.get_offsets(), [[1, 4], [2, 5], [3, 6]])
    assert np.array_equal(s.artist.get_sizes(), [36, 36, 36])
    assert s.artist.get_facecolors().size == 0  # MarkerFaceColor 'none'
    assert to_rgb(tuple(s.artist.get_edgecolors()[0][:3])) == pytest.approx(BLUE)
    assert g.value("m = s.Marker;", "m").tobytes().decode("utf-16-le") == "o"
    assert g.value("z = s.SizeData;", "z") == 36.0
    assert text_of(g.value("c = class(s);", "c")) == "matlab.graphics.chart.primitive.Scatter"


def test_scatter_sizes_colours_filled_and_marker(g):
    g.run("s = scatter(1:3, 1:3, [10 20 30], [1 0 0; 0 1 0; 0 0 1], 'filled', 'd');")
    artist = g.get("s").artist
    assert np.array_equal(artist.get_sizes(), [10, 20, 30])
    faces = artist.get_facecolors()[:, :3]
    assert np.allclose(faces, np.eye(3))
    assert artist.get_paths()[0] is not None
    assert text_of(g.value("m = s.Marker;", "m")) == "d"
    assert text_of(g.value("f = s.MarkerFaceColor;", "f")) == "flat"


def test_scatter_colour_values_use_the_colormap(g):
    g.run("s = scatter(1:3, 1:3, [], [1 2 3], 'filled');")
    faces = g.get("s").artist.get_facecolors()[:, :3]
    assert faces[0] == pytest.approx([0.2422, 0.1504, 0.6603], abs=1e-3)  # parula's ends
    assert faces[2] == pytest.approx([0.9769, 0.9839, 0.0805], abs=1e-3)


def test_scatter_properties_settable(g):
    g.run("s = scatter(1:3, 1:3, 'r'); s.LineWidth = 2; set(s, 'SizeData', 50); "
          "s.MarkerFaceColor = 'g';")
    artist = g.get("s").artist
    assert artist.get_linewidths()[0] == 2
    assert np.array_equal(artist.get_sizes(), [50, 50, 50])
    assert to_rgb(tuple(artist.get_facecolors()[0][:3])) == (0.0, 1.0, 0.0)
    assert to_rgb(tuple(artist.get_edgecolors()[0][:3])) == (1.0, 0.0, 0.0)
    assert np.array_equal(g.value("c = s.CData;", "c"), [[1, 0, 0]])


def test_scatter3_makes_3d_axes(g):
    g.run("s = scatter3([1 2], [3 4], [5 6], 'filled'); ax = gca;")
    assert g.get("ax").is_3d
    assert np.array_equal(g.value("z = s.ZData;", "z"), [[5, 6]])


def test_scatter_errors(g):
    assert g.fails("scatter(1:3, 1:2)").identifier == "MATLAB:scatter:InvalidXYData"
    assert g.fails("scatter(1:3)").identifier == "MATLAB:narginchk:notEnoughInputs"
    assert g.fails("scatter(1:3, 1:3, -1)").identifier == "MATLAB:hg:InvalidPropertyValue"
    assert g.fails("s = scatter(1:3, 1:3); s.MarkerFaceColor = 'nope';").identifier == \
        "MATLAB:hg:InvalidPropertyValue"
    assert g.fails("s = scatter(1:3, 1:3, 'Bogus', 1);").identifier == "MATLAB:hg:InvalidProperty"


# ---------------------------------------------------------------- bar


def test_bar_single_series(g):
    g.run("b = bar([3 1 2]);")
    b = g.get("b")
    assert b.matlab_class == "matlab.graphics.chart.primitive.Bar"
    rects = b.artists
    assert [r.get_height() for r in rects] == [3, 1, 2]
    assert [r.get_x() + r.get_width() / 2 for r in rects] == pytest.approx([1, 2, 3])
    assert rects[0].get_width() == pytest.approx(0.8)
    assert to_rgb(rects[0].get_facecolor()) == pytest.approx(BLUE)
    assert to_rgb(rects[0].get_edgecolor()) == (0, 0, 0)
    assert g.value("w = b.BarWidth;", "w") == 0.8


def test_bar_grouped_series_and_end_points(g):
    g.run("b = bar([1 2 3; 4 5 6]); n = numel(b); x = b(1).XEndPoints; y = b(3).YEndPoints;")
    assert g.get("n") == 3
    assert g.get("x") == pytest.approx(np.array([[0.7778, 1.7778]]), abs=1e-4)
    assert np.array_equal(g.get("y"), [[3, 6]])
    b = g.get("b")
    assert to_rgb(b.items[1].artists[0].get_facecolor()) == pytest.approx(ORANGE)
    assert to_rgb(b.items[2].artists[0].get_facecolor()) == pytest.approx(YELLOW)


def test_bar_stacked(g):
    g.run("b = bar([1 2 3; 4 5 6], 'stacked'); y = b(3).YEndPoints;")
    assert np.array_equal(g.get("y"), [[6, 15]])
    top = g.get("b").items[2].artists
    assert [r.get_y() for r in top] == [3, 9]
    assert [r.get_height() for r in top] == [3, 6]


def test_bar_width_colour_and_set(g):
    g.run("b = bar(1:3, [2 4 6], 0.5, 'r'); b.FaceColor = 'g'; set(b, 'BarWidth', 0.4); "
          "b.EdgeColor = [0 0 1]; b.LineWidth = 2;")
    rect = g.get("b").artists[0]
    assert rect.get_width() == pytest.approx(0.4)
    assert to_rgb(rect.get_facecolor()) == (0.0, 1.0, 0.0)
    assert to_rgb(rect.get_edgecolor()) == (0.0, 0.0, 1.0)
    assert rect.get_linewidth() == 2
    assert np.array_equal(g.value("c = b.FaceColor;", "c"), [[0, 1, 0]])


def test_barh_is_horizontal(g):
    g.run("b = barh([3 1]);")
    rects = g.get("b").artists
    assert [r.get_width() for r in rects] == [3, 1]
    assert text_of(g.value("h = b.Horizontal;", "h")) == "on"


def test_bar_errors(g):
    assert g.fails("bar(1:3, [1 2])").identifier == "MATLAB:bar:XLengthMismatch"
    assert g.fails("b = bar(1:3); b.BarWidth = 2;").identifier == "MATLAB:hg:InvalidPropertyValue"
    assert g.fails("bar({1})").identifier == "MATLAB:bar:InvalidData"


def test_hold_keeps_bars_and_colours_continue(g):
    g.run("bar([1 2]); hold on; b = bar([3 4]); ax = gca; n = numel(ax.Children);")
    assert g.get("n") == 2
    assert to_rgb(g.get("b").artists[0].get_facecolor()) == pytest.approx(ORANGE)


# ---------------------------------------------------------------- area


def test_area_stacks_columns(g):
    g.run("a = area([1 2; 3 4]);")
    a = g.get("a")
    assert a.items[0].matlab_class == "matlab.graphics.chart.primitive.Area"
    top = a.items[1].artist.get_paths()[0].vertices[:, 1]
    assert top.max() == 7  # 3 + 4
    assert to_rgba(a.items[1].artist.get_facecolor()[0])[:3] == pytest.approx(ORANGE)
    assert np.array_equal(g.value("y = a(2).YData;", "y"), [[2, 4]])


def test_area_base_value(g):
    g.run("a = area(1:3, [2 3 4], -1); v = a.BaseValue;")
    assert g.get("v") == -1
    assert g.get("a").artist.get_paths()[0].vertices[:, 1].min() == -1


# ---------------------------------------------------------------- histogram


def test_histogram_values_and_edges(g):
    g.run("h = histogram([1 2 2 3 3 3 4.5]); v = h.Values; e = h.BinEdges; n = h.NumBins;")
    assert g.get("h").matlab_class == "matlab.graphics.chart.primitive.Histogram"
    assert np.array_equal(g.get("v"), [[1, 5, 1]])
    assert np.array_equal(g.get("e"), [[0, 2, 4, 6]])
    assert g.get("n") == 3
    rects = g.get("h").artists
    assert [r.get_height() for r in rects] == [1, 5, 1]
    assert rects[0].get_alpha() == 0.6
    assert to_rgb(rects[0].get_facecolor()) == pytest.approx(BLUE)


def test_histogram_num_bins_and_normalization(g):
    g.run("h = histogram([1 2 2 3 3 3 4.5], 3); e = h.BinEdges; "
          "h.Normalization = 'probability'; v = h.Values; c = h.BinCounts;")
    assert g.get("e") == pytest.approx(np.array([[1, 2.2, 3.4, 4.6]]))
    assert g.get("v") == pytest.approx(np.array([[3, 3, 1]]) / 7)
    assert np.array_equal(g.get("c"), [[3, 3, 1]])
    assert [r.get_height() for r in g.get("h").artists] == pytest.approx([3 / 7, 3 / 7, 1 / 7])


def test_histogram_edges_pdf_and_colour(g):
    g.run("h = histogram([0.5 1.5 1.5 2.5], 'BinEdges', 0:3, 'Normalization', 'pdf', "
          "'FaceColor', 'r'); v = h.Values; m = h.BinMethod; w = h.BinWidth;")
    assert g.get("v") == pytest.approx(np.array([[0.25, 0.5, 0.25]]))
    assert text_of(g.get("m")) == "manual"
    assert g.get("w") == 1
    assert to_rgb(g.get("h").artists[0].get_facecolor()) == (1.0, 0.0, 0.0)


def test_histogram_stairs_style_and_set_bins(g):
    g.run("h = histogram(1:10, 'DisplayStyle', 'stairs'); set(h, 'NumBins', 2); v = h.Values;")
    assert np.array_equal(g.get("v"), [[4, 6]])  # the edges histcounts picks: 0 5 10
    assert g.get("h").artist.get_ydata().max() == 6


def test_histogram_errors(g):
    assert g.fails("histogram({1})").identifier == "MATLAB:histogram:InvalidData"
    assert g.fails("h = histogram(1:3); h.Normalization = 'zz';").identifier == \
        "MATLAB:hg:InvalidPropertyValue"
    assert g.fails("h = histogram(1:3); h.NumBins = -1;").identifier == "MATLAB:histcounts:InvalidInput"
    assert g.fails("h = histogram(1:3); h.Values = 1;").identifier == "MATLAB:class:SetProhibited"


# ---------------------------------------------------------------- hist


def test_hist_counts_and_centres(g):
    g.run("[c, x] = hist([1 2 2 3 3 3 4.5]);")
    assert np.array_equal(g.get("c"), [[1, 0, 2, 0, 0, 3, 0, 0, 0, 1]])
    assert g.get("x")[0, :3] == pytest.approx([1.175, 1.525, 1.875])


def test_hist_matrix_and_centres(g):
    assert np.array_equal(g.value("c = hist([1 2; 3 4; 5 6], 3);", "c"), np.ones((3, 2)))
    assert np.array_equal(g.value("c = hist(1:7, [2 5]);", "c"), [[3, 4]])


def test_hist_without_outputs_draws_bars(g):
    g.run("hist([1 2 2 3], 3); ax = gca; k = ax.Children;")
    bar = g.get("k")
    assert bar.matlab_class == "matlab.graphics.chart.primitive.Bar"
    assert [r.get_height() for r in bar.artists] == [1, 2, 1]


def test_charts_render_to_png(g):
    g.run("subplot(2,2,1); scatter(1:5, (1:5).^2, 'filled'); subplot(2,2,2); bar(magic(3)); "
          "subplot(2,2,3); histogram(sin(1:200)); subplot(2,2,4); area([1 3 2]);")
    g.finish()
    with Image.open(g.figures_dir / "figure1.png") as image:
        pixels = np.asarray(image.convert("RGB"))
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 20


def test_stacked_bars_follow_a_change_below_them(g):
    g.run("b = bar([1 2; 3 4], 'stacked'); b(1).YData = [10 10];")
    top = g.get("b").items[1].artists
    assert [r.get_y() for r in top] == [10, 10]


def test_bar_base_value(g):
    g.run("b = bar(1:3, [3 4 5], 'BaseValue', 1);")
    rects = g.get("b").artists
    assert [(r.get_y(), r.get_y() + r.get_height()) for r in rects] == [(1, 3), (1, 4), (1, 5)]


def test_bar_display(g):
    assert g.run("b = bar([1 2 3])") == (
        "\nb = \n\n  Bar with properties:\n\n"
        "    BarLayout: 'grouped'\n"
        "     BarWidth: 0.8000\n"
        "    FaceColor: [0 0.4470 0.7410]\n"
        "    EdgeColor: [0 0 0]\n"
        "    BaseValue: 0\n"
        "        XData: [1 2 3]\n"
        "        YData: [1 2 3]\n\n")


def test_histogram_display(g):
    assert g.run("h = histogram([1 2 2 3])") == (
        "\nh = \n\n  Histogram with properties:\n\n"
        "             Data: [1 2 2 3]\n"
        "           Values: [1 2 1]\n"
        "          NumBins: 3\n"
        "         BinEdges: [0.5000 1.5000 2.5000 3.5000]\n"
        "         BinWidth: 1\n"
        "        BinLimits: [0.5000 3.5000]\n"
        "    Normalization: 'count'\n"
        "        FaceColor: 'auto'\n"
        "        EdgeColor: [0 0 0]\n\n")
