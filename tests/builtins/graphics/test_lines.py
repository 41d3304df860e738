"""plot and the other line functions: the matplotlib artists they make."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.colors import to_rgb

ORDER = [(0.0, 0.4470, 0.7410), (0.8500, 0.3250, 0.0980), (0.9290, 0.6940, 0.1250)]


def artist(g, name="h"):
    return g.get(name).artist


def test_plot_xy_data_and_default_style(g):
    g.run("h = plot([1 2 3], [4 5 7]);")
    line = artist(g)
    assert np.array_equal(line.get_xdata(), [1, 2, 3])
    assert np.array_equal(line.get_ydata(), [4, 5, 7])
    assert to_rgb(line.get_color()) == pytest.approx(ORDER[0])
    assert line.get_linewidth() == 0.5
    assert g.value("w = h.LineWidth;", "w") == 0.5
    assert np.array_equal(g.value("c = h.Color;", "c"), [ORDER[0]])


def test_plot_y_only_uses_the_index(g):
    g.run("h = plot([3 1 2]);")
    assert np.array_equal(artist(g).get_xdata(), [1, 2, 3])
    assert np.array_equal(g.value("x = h.XData;"), [[1, 2, 3]])


def test_matrix_columns_are_lines_in_colour_order(g):
    g.run("h = plot([1 2; 3 4; 5 6]);")
    h = g.get("h")
    assert h.shape == (2, 1)
    assert np.array_equal(h.items[1].artist.get_ydata(), [2, 4, 6])
    assert [to_rgb(x.artist.get_color()) for x in h.items] == [pytest.approx(c) for c in ORDER[:2]]


def test_vector_against_matrix_rows_when_lengths_match_columns(g):
    g.run("h = plot(1:3, [1 2 3; 4 5 6]);")
    h = g.get("h")
    assert len(h.items) == 2
    assert np.array_equal(h.items[1].artist.get_ydata(), [4, 5, 6])


def test_line_spec_and_options(g):
    g.run("h = plot(1:3, [2 4 8], 'r--o', 'LineWidth', 2, 'MarkerSize', 9, "
          "'MarkerFaceColor', '#00FF00', 'DisplayName', 'growth');")
    line = artist(g)
    assert to_rgb(line.get_color()) == (1.0, 0.0, 0.0)
    assert line.get_linestyle() == "--"
    assert line.get_marker() == "o"
    assert line.get_linewidth() == 2
    assert line.get_markersize() == 9
    assert to_rgb(line.get_markerfacecolor()) == (0.0, 1.0, 0.0)
    assert g.value("d = h.DisplayName;", "d").tobytes().decode("utf-16-le") == "growth"


def test_marker_only_spec_draws_no_line(g):
    g.run("h = plot(1:3, 'k.');")
    assert artist(g).get_linestyle() == "None"
    assert artist(g).get_marker() == "."
    assert to_rgb(artist(g).get_color()) == (0.0, 0.0, 0.0)


def test_several_pairs_with_specs(g):
    g.run("h = plot(1:2, [1 2], 'g:', 1:3, [3 2 1], 1:2, [5 5]);")
    items = g.get("h").items
    assert items[0].artist.get_linestyle() == ":"
    assert to_rgb(items[0].artist.get_color()) == (0.0, 1.0, 0.0)
    # a line with its own colour does not use up the colour order
    assert to_rgb(items[1].artist.get_color()) == pytest.approx(ORDER[0])
    assert to_rgb(items[2].artist.get_color()) == pytest.approx(ORDER[1])


def test_color_forms(g):
    g.run("a = plot(1:2, 'Color', [0.5 0.25 1]); hold on; b = plot(1:2, 'Color', 'magenta');"
          "c = plot(1:2, 'Color', '#F80');")
    assert to_rgb(artist(g, "a").get_color()) == (0.5, 0.25, 1.0)
    assert to_rgb(artist(g, "b").get_color()) == (1.0, 0.0, 1.0)
    assert to_rgb(artist(g, "c").get_color()) == pytest.approx((1.0, 0.5333, 0.0), abs=1e-3)


def test_hold_off_replaces_and_hold_on_adds(g):
    g.run("h1 = plot(1:3); h2 = plot(3:-1:1);")
    assert not g.get("h1").valid
    ax = g.value("ax = gca;", "ax")
    assert len(ax.artist.lines) == 1
    # with hold off the colour order starts again
    assert to_rgb(artist(g, "h2").get_color()) == pytest.approx(ORDER[0])
    g.run("hold on; h3 = plot(1:3); h4 = plot(2:4);")
    assert len(ax.artist.lines) == 3
    assert to_rgb(artist(g, "h3").get_color()) == pytest.approx(ORDER[1])
    assert to_rgb(artist(g, "h4").get_color()) == pytest.approx(ORDER[2])
    g.run("hold off; plot(1:2);")
    assert len(ax.artist.lines) == 1


def test_plot_without_hold_clears_the_title(g):
    g.run("plot(1:3); title_text = get(gca, 'Title'); set(title_text, 'String', 'T'); plot(1:2);"
          "t = get(get(gca, 'Title'), 'String');")
    assert g.get("t").size == 0


def test_log_plots_set_scales_unless_held(g):
    g.run("semilogx(1:10, 1:10); a = gca; xs = a.XScale; ys = a.YScale;")
    assert g.get("a").artist.get_xscale() == "log"
    assert g.get("a").artist.get_yscale() == "linear"
    g.run("semilogy(1:10, 1:10); ys = get(gca, 'YScale');")
    assert g.get("a").artist.get_yscale() == "log"
    assert g.get("a").artist.get_xscale() == "linear"
    g.run("loglog(1:10, 1:10);")
    assert (g.get("a").artist.get_xscale(), g.get("a").artist.get_yscale()) == ("log", "log")
    g.run("figure; hold on; semilogy(1:10, 1:10); b = gca;")
    assert g.get("b").artist.get_yscale() == "linear"


def test_plot3_makes_3d_axes(g):
    g.run("h = plot3([1 2 3], [4 5 6], [7 8 10], 'b'); ax = gca; z = h.ZData;")
    assert g.get("ax").is_3d
    assert g.get("ax").artist.name == "3d"
    assert np.array_equal(g.get("z"), [[7, 8, 10]])
    assert np.array_equal(artist(g).get_data_3d()[2], [7, 8, 10])


def test_line_adds_regardless_of_hold(g):
    g.run("plot(1:3); h = line([0 1], [1 0]); k = line('XData', [1 2 3], 'YData', [3 3 3], "
          "'Color', 'r'); n = numel(get(gca, 'Children'));")
    assert g.get("n") == 3
    assert np.array_equal(artist(g, "k").get_ydata(), [3, 3, 3])
    assert to_rgb(artist(g, "k").get_color()) == (1.0, 0.0, 0.0)


def test_plot_into_given_axes(g):
    g.run("a1 = subplot(2, 1, 1); a2 = subplot(2, 1, 2); h = plot(a1, 1:4);")
    assert artist(g).axes is g.get("a1").artist
    assert g.get("a2").children == []


def test_complex_data_plots_real_against_imaginary(g):
    g.run("h = plot([1+2i, 3+4i]);")
    assert np.array_equal(artist(g).get_xdata(), [1, 3])
    assert np.array_equal(artist(g).get_ydata(), [2, 4])


def test_changing_data_through_the_handle(g):
    g.run("h = plot(1:3, 1:3); h.YData = [5 6 7]; set(h, 'XData', [0 1 2]);")
    assert np.array_equal(artist(g).get_ydata(), [5, 6, 7])
    assert np.array_equal(artist(g).get_xdata(), [0, 1, 2])


@pytest.mark.parametrize("code, identifier", [
    ("plot(1:3, 1:4)", "MATLAB:samelen"),
    ("plot(1:3, 'Bogus', 2)", "MATLAB:hg:InvalidProperty"),
    ("plot(1:3, 'LineWidth', -1)", "MATLAB:hg:InvalidPropertyValue"),
    ("plot(1:3, 'Color', 'purpleish')", "MATLAB:hg:InvalidPropertyValue"),
    ("plot(1:3, 'LineWidth')", "MATLAB:plot:InvalidLineSpec"),
    ("plot({1, 2})", "MATLAB:plot:InvalidData"),
    ("plot()", "MATLAB:narginchk:notEnoughInputs"),
])
def test_errors(g, code, identifier):
    assert g.fails(code).identifier == identifier


def test_unknown_option_message(g):
    err = g.fails("plot(1:3, 'Bogus', 2)")
    assert err.exc.message == "Unrecognized property Bogus for class Line."
