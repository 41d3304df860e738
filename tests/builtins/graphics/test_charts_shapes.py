"""stairs, stem, errorbar, fill, patch, rectangle, xline, yline, text and confusionchart."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.colors import to_rgb, to_rgba

BLUE, ORANGE = (0.0, 0.4470, 0.7410), (0.8500, 0.3250, 0.0980)


def text_of(value) -> str:
    return value.tobytes().decode("utf-16-le")


# ---------------------------------------------------------------- stairs, stem, errorbar


def test_stairs_steps_and_spec(g):
    g.run("h = stairs([1 2 3], [4 6 5], 'r--', 'LineWidth', 2);")
    h = g.get("h")
    assert h.matlab_class == "matlab.graphics.chart.primitive.Stair"
    assert h.artist.get_drawstyle() == "steps-post"
    assert np.array_equal(h.artist.get_ydata(), [4, 6, 5])
    assert to_rgb(h.artist.get_color()) == (1.0, 0.0, 0.0)
    assert h.artist.get_linestyle() == "--"
    assert h.artist.get_linewidth() == 2


def test_stairs_matrix_gives_one_object_a_column(g):
    g.run("h = stairs([1 2; 3 4]); n = numel(h);")
    assert g.get("n") == 2
    assert to_rgb(g.get("h").items[1].artist.get_color()) == pytest.approx(ORANGE)


def test_stem_filled_and_base_value(g):
    g.run("h = stem(1:3, [1 -2 3], 'filled'); h.BaseValue = 1;")
    h = g.get("h")
    assert h.matlab_class == "matlab.graphics.chart.primitive.Stem"
    heads = h.artists[0]
    assert heads.get_marker() == "o"
    assert to_rgb(heads.get_markerfacecolor()) == pytest.approx(BLUE)
    segments = h.artists[1].get_segments()
    assert [list(s[:, 1]) for s in segments] == [[1, 1], [1, -2], [1, 3]]
    assert g.value("b = h.BaseValue;", "b") == 1


def test_errorbar_vertical(g):
    g.run("e = errorbar(1:3, [2 3 4], [0.1 0.2 0.3]);")
    e = g.get("e")
    assert e.matlab_class == "matlab.graphics.chart.primitive.ErrorBar"
    bars = e.artists[-1].get_segments()
    assert np.allclose([s[:, 1] for s in bars], [[1.9, 2.1], [2.8, 3.2], [3.7, 4.3]])
    assert np.array_equal(g.value("d = e.YPositiveDelta;", "d"), [[0.1, 0.2, 0.3]])
    assert g.value("d = e.XPositiveDelta;", "d").size == 0


def test_errorbar_both_directions_and_asymmetric(g):
    g.run("e = errorbar(1:2, [5 6], [1 1], [2 2], [3 3], [4 4]); "
          "xn = e.XNegativeDelta; yp = e.YPositiveDelta;")
    assert np.array_equal(g.get("xn"), [[3, 3]])
    assert np.array_equal(g.get("yp"), [[2, 2]])
    g.run("f = errorbar(1:2, [5 6], [0.5 0.5], 'both', 'o'); xp = f.XPositiveDelta; m = f.Marker;")
    assert np.array_equal(g.get("xp"), [[0.5, 0.5]])
    assert text_of(g.get("m")) == "o"
    g.run("f.Color = 'k';")
    assert to_rgb(g.get("f").artists[0].get_color()) == (0.0, 0.0, 0.0)


def test_line_chart_errors(g):
    assert g.fails("errorbar(1:3, 1:3, 1:2)").identifier == "MATLAB:errorbar:InvalidData"
    assert g.fails("errorbar(1:3)").identifier == "MATLAB:narginchk:notEnoughInputs"
    assert g.fails("stem(1:2, 1:3)").identifier == "MATLAB:stem:InvalidXY"
    assert g.fails("h = stairs(1:3); h.LineStyle = 'zz';").identifier == "MATLAB:hg:InvalidPropertyValue"


# ---------------------------------------------------------------- fill, patch, rectangle


def test_fill_polygon_colour(g):
    g.run("p = fill([0 1 1], [0 0 1], 'r'); x = p.XData; c = p.FaceColor;")
    p = g.get("p")
    assert p.matlab_class == "matlab.graphics.primitive.Patch"
    assert np.array_equal(p.artist.get_xy()[:3], [[0, 0], [1, 0], [1, 1]])
    assert to_rgb(p.artist.get_facecolor()) == (1.0, 0.0, 0.0)
    assert np.array_equal(g.get("x"), [[0], [1], [1]])
    assert np.array_equal(g.get("c"), [[1, 0, 0]])


def test_fill_matrix_columns_with_colour_data(g):
    g.run("f = fill([0 1 1; 0 0 1]', [0 0 1; 1 1 0]', [1 2]); n = numel(f); c = f(1).FaceColor;")
    assert g.get("n") == 2
    assert text_of(g.get("c")) == "flat"
    low, high = (item.artist.get_facecolor()[:3] for item in g.get("f").items)
    assert low == pytest.approx((0.2422, 0.1504, 0.6603), abs=1e-3)
    assert high == pytest.approx((0.9769, 0.9839, 0.0805), abs=1e-3)


def test_patch_faces_vertices_and_set(g):
    g.run("p = patch('Faces', [1 2 3 4], 'Vertices', [0 0; 2 0; 2 1; 0 1], 'FaceColor', 'g', "
          "'FaceAlpha', 0.5); p.EdgeColor = 'b'; y = p.YData;")
    artist = g.get("p").artist
    assert to_rgba(artist.get_facecolor()) == pytest.approx((0, 1, 0, 0.5))
    assert to_rgb(artist.get_edgecolor()) == (0.0, 0.0, 1.0)
    assert np.array_equal(g.get("y"), [[0], [0], [1], [1]])


def test_patch_keeps_existing_plot(g):
    g.run("plot(1:3); patch([0 1 1], [0 0 1], 'r'); ax = gca; n = numel(ax.Children);")
    assert g.get("n") == 2


def test_rectangle_position_and_curvature(g):
    g.run("r = rectangle('Position', [1 2 3 4], 'FaceColor', 'b'); r.Curvature = 0.5; c = r.Curvature;")
    r = g.get("r")
    assert r.matlab_class == "matlab.graphics.primitive.Rectangle"
    assert np.array_equal(g.get("c"), [[0.5, 0.5]])
    box = r.artist.get_bbox()
    assert (box.x0, box.y0, box.width, box.height) == (1, 2, 3, 4)
    assert to_rgb(r.artist.get_facecolor()) == (0.0, 0.0, 1.0)
    g.run("r.Curvature = [1 1];")
    assert type(g.get("r").artist).__name__ == "Ellipse"


def test_shape_errors(g):
    assert g.fails("rectangle('Position', [1 2])").identifier == "MATLAB:hg:InvalidPropertyValue"
    assert g.fails("rectangle('Curvature', 3)").identifier == "MATLAB:hg:InvalidPropertyValue"
    assert g.fails("fill([0 1 1], [0 0 1], 'zz')").identifier == "MATLAB:hg:InvalidPropertyValue"
    assert g.fails("fill(1, 2)").identifier == "MATLAB:narginchk:notEnoughInputs"


# ---------------------------------------------------------------- xline, yline, text


def test_xline_with_spec_and_labels(g):
    g.run("plot(1:5); xl = xline([2 4], '--r', {'lo', 'hi'}); s = xl(2).Label; ax = gca; "
          "n = numel(ax.Children);")
    xl = g.get("xl")
    assert xl.items[0].matlab_class == "matlab.graphics.chart.decoration.ConstantLine"
    assert text_of(g.get("s")) == "hi"
    assert g.get("n") == 3  # the plot is kept
    line, label = xl.items[0].artists
    assert line.get_xdata() == [2, 2]
    assert line.get_linestyle() == "--"
    assert to_rgb(line.get_color()) == (1.0, 0.0, 0.0)
    assert label.get_text() == "lo"


def test_yline_defaults_and_set(g):
    g.run("yl = yline(3, 'Label', 'limit'); c = yl.Color; yl.LineWidth = 2; a = yl.InterceptAxis;")
    assert g.get("c") == pytest.approx(np.array([[0.15, 0.15, 0.15]]))
    assert text_of(g.get("a")) == "y"
    line = g.get("yl").artists[0]
    assert line.get_ydata() == [3, 3]
    assert line.get_linewidth() == 2
    assert g.fails("xline(1, 'zz')").identifier == "MATLAB:xline:InvalidLineSpec"


def test_text_objects(g):
    g.run("t = text(1, 2, 'x^2', 'FontSize', 14, 'Color', 'r'); p = t.Position; s = t.String;")
    t = g.get("t")
    assert t.matlab_class == "matlab.graphics.primitive.Text"
    assert np.array_equal(g.get("p"), [[1, 2, 0]])
    assert text_of(g.get("s")) == "x^2"
    assert "$" in t.artist.get_text()  # drawn as TeX (a superscript)
    assert t.artist.get_fontsize() == 14
    assert to_rgb(t.artist.get_color()) == (1.0, 0.0, 0.0)
    g.run("t.String = 'plain';")
    assert g.get("t").artist.get_text() == "plain"


def test_text_several_points(g):
    g.run("t = text([1 2], [3 4], {'a', 'b'}); n = numel(t); s = t(2).String;")
    assert g.get("n") == 2
    assert text_of(g.get("s")) == "b"
    assert g.fails("text(1, 2)").identifier == "MATLAB:narginchk:notEnoughInputs"


# ---------------------------------------------------------------- confusionchart


def test_confusionchart_from_labels(g):
    g.run("cm = confusionchart([1 2 2 3 1], [1 2 3 3 2]); v = cm.NormalizedValues; c = cm.ClassLabels;")
    assert g.get("cm").matlab_class == "mlearnlib.graphics.chart.ConfusionMatrixChart"
    assert np.array_equal(g.get("v"), [[1, 1, 0], [0, 1, 1], [0, 0, 1]])
    assert np.array_equal(g.get("c"), [[1], [2], [3]])
    ax = g.get("cm").axes().artist
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "3"]
    assert ax.get_xlabel() == "Predicted Class" and ax.get_ylabel() == "True Class"
    assert sorted(t.get_text() for t in ax.texts) == ["1"] * 5


def test_confusionchart_text_labels_and_normalization(g):
    g.run("cm = confusionchart({'cat','dog','cat'}, {'cat','cat','cat'}, 'Title', 'Pets'); "
          "c = cm.ClassLabels; cm.Normalization = 'row-normalized'; v = cm.NormalizedValues;")
    labels = g.get("c")
    assert [text_of(x) for x in labels.data.ravel()] == ["cat", "dog"]
    assert np.array_equal(g.get("v"), [[1, 0], [1, 0]])
    assert g.get("cm").axes().artist.get_title() == "Pets"


def test_confusionchart_from_matrix(g):
    g.run("cm = confusionchart([5 1; 2 7], {'x', 'y'}); v = cm.NormalizedValues;")
    assert np.array_equal(g.get("v"), [[5, 1], [2, 7]])
    ax = g.get("cm").axes().artist
    assert [t.get_text() for t in ax.get_yticklabels()] == ["x", "y"]


def test_confusionchart_errors(g):
    assert g.fails("confusionchart([1 2], [1])").identifier == "MATLAB:confusionchart:DifferentLengths"
    assert g.fails("confusionchart([1 -2; 3 4])").identifier == \
        "MATLAB:confusionchart:InvalidConfusionMatrix"
    assert g.fails("cm = confusionchart([1 2], [1 2]); cm.NormalizedValues = 1;").identifier == \
        "MATLAB:class:SetProhibited"


def test_delete_removes_every_artist(g):
    g.run("e = errorbar(1:3, 1:3, [1 1 1]); ax = gca; delete(e); n = numel(ax.Children);")
    assert g.get("n") == 0
    ax = g.get("ax").artist
    assert not ax.lines and not ax.collections


def test_extreme_data_never_escapes_as_a_python_error(g):
    g.run("bar([1e308 -1e308 Inf]); hold on; scatter([1 NaN 3], [1 2 Inf]); xline(Inf); "
          "errorbar([1 2], [1 2], [Inf NaN]); histogram([Inf -Inf]); text(NaN, Inf, 'a');")
    assert g.fails("scatter3(1:2, 1:2, 1:3)").identifier == "MATLAB:scatter3:InvalidXYZData"
