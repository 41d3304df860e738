"""figure, gcf, gca, close, hold, subplot, tiledlayout, axes, clf, cla."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.values.core import char_text


def test_figure_numbers_and_current_figure(g):
    g.run("f1 = figure; f2 = figure; n = f2.Number; c = gcf; figure(f1); d = gcf; f7 = figure(7);"
          "figure(2); e = get(groot, 'CurrentFigure');")
    assert g.get("n") == 2.0
    assert g.get("c") is g.get("f2")
    assert g.get("d") is g.get("f1")
    assert g.get("f7").number == 7
    assert g.get("e") is g.get("f2")
    assert sorted(g.state.figures) == [1, 2, 7]


def test_figure_options(g):
    g.run("f = figure('Name', 'Loss', 'Position', [10 10 300 200], 'Color', 'w');"
          "nm = f.Name; p = f.Position;")
    assert char_text(g.get("nm")) == "Loss"
    assert np.array_equal(g.get("p"), [[10, 10, 300, 200]])
    assert tuple(g.get("f").artist.get_size_inches()) == (3.0, 2.0)


def test_gca_makes_figure_and_axes(g):
    g.run("ax = gca; p = ax.Position; f = gcf;")
    assert np.allclose(g.get("p"), [[0.13, 0.11, 0.775, 0.815]])
    assert g.get("ax").parent is g.get("f")


def test_close_forms(g):
    g.run("figure; figure; figure(5); close(2); a = sort(cell2mat(get(get(groot, 'Children'), 'Number')))';")
    assert np.array_equal(g.get("a"), [[1, 5]])
    g.run("close; n = numel(get(groot, 'Children'));")
    assert g.get("n") == 1.0 and sorted(g.state.figures) == [1]
    g.run("figure; h = gcf; close(h); v = isvalid(h); close all; m = numel(get(groot, 'Children'));")
    assert g.get("v") is False and g.get("m") == 0.0
    g.run("f = figure('Name', 'keep'); figure; close('keep'); k = isvalid(f);")
    assert g.get("k") is False
    assert g.fails("close(42)").identifier == "MATLAB:close:WindowNotFound"
    assert g.value("figure; s = close(gcf);", "s") == 1.0


def test_closing_the_current_figure_makes_another_current(g):
    g.run("a = figure; b = figure; close(b); c = gcf;")
    assert g.get("c") is g.get("a")


def test_figure_number_errors(g):
    assert g.fails("figure(0)").identifier == "MATLAB:figure:InvalidInput"
    assert g.fails("figure(1.5)").identifier == "MATLAB:figure:InvalidInput"
    assert g.fails("figure('Bogus', 1)").identifier == "MATLAB:hg:InvalidProperty"


def test_hold_and_ishold(g):
    g.run("a = ishold; hold on; b = ishold; hold off; c = ishold; hold; d = ishold; hold all;"
          "e = ishold; np = get(gca, 'NextPlot');")
    assert [g.get(n) for n in "abcde"] == [False, True, False, True, True]
    assert char_text(g.get("np")) == "add"
    assert g.fails("hold maybe").identifier == "MATLAB:hold:UnknownOption"


def test_hold_per_axes(g):
    g.run("a1 = subplot(1, 2, 1); hold on; a2 = subplot(1, 2, 2); x = ishold; y = ishold(a1);")
    assert g.get("x") is False and g.get("y") is True


@pytest.mark.parametrize("m, n, p, position", [
    (2, 1, 1, [0.1300, 0.5838, 0.7750, 0.3412]),
    (2, 1, 2, [0.1300, 0.1100, 0.7750, 0.3412]),
    (1, 2, 2, [0.5703, 0.1100, 0.3347, 0.8150]),
    (2, 2, 1, [0.1300, 0.5838, 0.3347, 0.3412]),
    (1, 3, 3, [0.6916, 0.1100, 0.2134, 0.8150]),
    (3, 1, 1, [0.1300, 0.7093, 0.7750, 0.2157]),
])
def test_subplot_positions_match_matlab(g, m, n, p, position):
    got = g.value(f"ax = subplot({m}, {n}, {p}); p = ax.Position;", "p")
    assert np.allclose(got, [position], atol=6e-4)


def test_subplot_reuses_and_replaces_axes(g):
    g.run("a = subplot(2, 2, 1); b = subplot(2, 2, 2); c = subplot(2, 2, 1); d = subplot(221);")
    assert g.get("c") is g.get("a") and g.get("d") is g.get("a")
    assert g.get("b").valid
    g.run("e = subplot(2, 1, 1); ok = isvalid(a); ok2 = isvalid(b);")
    assert g.get("ok") is False and g.get("ok2") is False
    g.run("s = subplot(2, 2, [3 4]); p = s.Position;")
    assert np.allclose(g.get("p"), [[0.13, 0.11, 0.775, 0.3412]], atol=6e-4)


def test_subplot_errors(g):
    assert g.fails("subplot(2, 2, 5)").identifier == "MATLAB:subplot:SubplotIndexOutOfRange"
    assert g.fails("subplot(2, 0, 1)").identifier == "MATLAB:subplot:InvalidInput"


def test_tiledlayout_and_nexttile(g):
    g.run("t = tiledlayout(2, 2, 'TileSpacing', 'compact'); a = nexttile; b = nexttile; c = nexttile(4);"
          "gs = t.GridSize; cur = gca;")
    assert np.array_equal(g.get("gs"), [[2, 2]])
    pa, pb, pc = (g.get(n).artist.get_position().bounds for n in "abc")
    assert pa[0] < pb[0] and abs(pa[1] - pb[1]) < 1e-9
    assert pc[1] < pa[1]
    assert g.get("cur") is g.get("c")
    assert g.fails("nexttile(9)").identifier == "MATLAB:tiledlayout:InvalidTileIndex"


def test_flow_layout_grows(g):
    g.run("tiledlayout('flow'); a = nexttile; b = nexttile; c = nexttile; t = get(gcf, 'Children');")
    layout = g.state.current_figure.layout
    assert (layout.rows, layout.cols) == (2, 2)
    assert g.get("a").artist.get_position().bounds[1] > g.get("c").artist.get_position().bounds[1]


def test_axes_function(g):
    g.run("a = axes('Position', [0.1 0.1 0.3 0.3]); b = axes; axes(a); c = gca; p = a.Position;")
    assert g.get("c") is g.get("a")
    assert np.allclose(g.get("p"), [[0.1, 0.1, 0.3, 0.3]])


def test_clf_and_cla(g):
    g.run("plot(1:3); ax = gca; hold on; plot(2:4); cla; n = numel(ax.Children); h = ishold;")
    assert g.get("n") == 0.0 and g.get("h") is True
    g.run("cla reset; h2 = ishold;")
    assert g.get("h2") is False
    g.run("plot(1:3); clf; v = isvalid(ax); k = numel(get(gcf, 'Children'));")
    assert g.get("v") is False and g.get("k") == 0.0


def test_axes_properties(g):
    g.run("plot(1:10); ax = gca; ax.YScale = 'log'; ax.XLim = [2 5]; xl = ax.XLim; m = ax.XLimMode;"
          "ax.XDir = 'reverse'; ax.XGrid = 'on'; set(ax, 'FontSize', 12);")
    ax = g.get("ax").artist
    assert ax.get_yscale() == "log"
    assert ax.get_xlim() == (5.0, 2.0)
    assert np.array_equal(g.get("xl"), [[2, 5]])
    assert char_text(g.get("m")) == "manual"
    assert g.fails("ax.XLim = [3 1];").identifier == "MATLAB:hg:InvalidPropertyValue"
    assert g.fails("ax.YScale = 'cubic';").identifier == "MATLAB:hg:InvalidPropertyValue"


def test_color_order_property(g):
    g.run("ax = gca; ax.ColorOrder = [1 0 0; 0 0 1]; hold on; a = plot(1:2); b = plot(1:2); c = plot(1:2);")
    colors = [tuple(g.get(n).artist.get_color()) for n in "abc"]
    assert colors == [(1.0, 0.0, 0.0), (0.0, 0.0, 1.0), (1.0, 0.0, 0.0)]


def test_groot_properties(g):
    g.run("r = groot; s = r.ScreenSize; e = r.CurrentFigure;")
    assert g.get("s").shape == (1, 4)
    assert g.get("e").shape == (0, 0)


def test_root_through_zero_and_defaults(g):
    g.run("s = get(0, 'ScreenSize'); set(0, 'DefaultLineLineWidth', 2);"
          "set(groot, 'defaultAxesFontSize', 14); h = plot(1:3); w = h.LineWidth; d = get(0, 'DefaultLineLineWidth');"
          "fs = get(gca, 'FontSize');")
    assert g.get("s").shape == (1, 4)
    assert g.get("w") == 2.0 and g.get("d") == 2.0
    assert g.get("fs") == 14.0
    assert g.fails("get(0, 'DefaultBogusThing')").identifier == "MATLAB:hg:InvalidProperty"


def test_a_2d_plot_after_a_3d_one_gets_plain_axes(g):
    g.run("plot3(1:3, 1:3, 1:3); ax = gca; plot(1:3);")
    assert not g.get("ax").is_3d
    assert g.get("ax").artist.name == "rectilinear"


def test_two_sessions_do_not_share_figures(tmp_path, monkeypatch):
    from tests.builtins.graphics.conftest import GraphicsSession

    monkeypatch.chdir(tmp_path)
    first, second = GraphicsSession(tmp_path / "a"), GraphicsSession(tmp_path / "b")
    first.run("plot(1:3); h = gcf;")
    second.run("plot(1:5); h = gcf; close all;")
    assert first.get("h").valid and not second.get("h").valid
    assert first.get("h").artist is not second.get("h").artist
    assert first.state.figures and not second.state.figures


def test_default_text_interpreter_reaches_titles(g):
    g.run("set(groot, 'defaultTextInterpreter', 'latex'); plot(1:3); t = get(gca, 'Title');"
          "t.String = '$\\frac{a}{b}$'; i = t.Interpreter;")
    assert char_text(g.get("i")) == "latex"
    assert g.get("t").artist.get_text() == "$\\frac{a}{b}$"
