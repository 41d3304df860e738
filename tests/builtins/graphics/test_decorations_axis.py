"""axis, xlim/ylim/zlim, ticks and tick labels, colororder: artists and values."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.colors import to_rgb

from mlang.builtins.graphics.props import COLOR_ORDER, text_value


def text(value) -> str:
    return text_value(value, "String")


def cell_texts(value) -> list[str]:
    return [text(x) for x in value.data.ravel(order="F")]


def mpl_axes(g):
    return g.value("ax__ = gca;", "ax__").artist


# ---------------------------------------------------------------- limits


def test_xlim_ylim_set_and_get(g):
    g.run("plot(1:10); xlim([2 5]); ylim([0 20]); a = xlim; b = ylim; m = xlim('mode');")
    ax = mpl_axes(g)
    assert ax.get_xlim() == (2.0, 5.0)
    assert ax.get_ylim() == (0.0, 20.0)
    assert np.array_equal(g.get("a"), [[2, 5]])
    assert np.array_equal(g.get("b"), [[0, 20]])
    assert text(g.get("m")) == "manual"


def test_xlim_auto_manual_and_infinite_side(g):
    g.run("plot(1:10); xlim([3 4]); xlim auto; m = xlim('mode'); a = xlim;")
    assert text(g.get("m")) == "auto"
    assert np.array_equal(g.get("a"), [[1, 10]])
    g.run("xlim('manual'); hold on; plot(1:20); a = xlim;")
    assert np.array_equal(g.get("a"), [[1, 10]])
    g.run("xlim([-inf 30]); a = xlim;")
    assert g.get("a")[0, 1] == 30
    assert g.get("a")[0, 0] == 1


def test_limits_of_given_axes(g):
    g.run("a1 = subplot(2, 1, 1); plot(1:3); a2 = subplot(2, 1, 2); plot(1:3); ylim(a1, [0 9]);")
    assert g.get("a1").artist.get_ylim() == (0.0, 9.0)
    assert g.get("a2").artist.get_ylim() != (0.0, 9.0)


def test_zlim_in_3d_and_2d(g):
    g.run("plot3([0 1], [0 1], [0 5]); zlim([-1 7]); z = zlim;")
    assert mpl_axes(g).get_zlim() == (-1.0, 7.0)
    assert np.array_equal(g.get("z"), [[-1, 7]])
    g.run("figure; plot(1:3); z = zlim;")
    assert np.array_equal(g.get("z"), [[-1, 1]])


def test_limit_errors(g):
    g.run("plot(1:3);")
    assert g.fails("xlim([3 1])").identifier == "MATLAB:xlim:IncreasingLimits"
    assert g.fails("ylim([1 2 3])").identifier == "MATLAB:ylim:InvalidInput"
    assert g.fails("xlim('sideways')").identifier == "MATLAB:xlim:InvalidInput"
    assert g.fails("a = xlim([0 1]);").identifier == "MATLAB:TooManyOutputs"
    assert g.fails("xlim([0 1], [2 3])").identifier == "MATLAB:TooManyInputs"


# ---------------------------------------------------------------- axis


def test_axis_limits_and_query(g):
    g.run("plot(1:10, (1:10).^2); axis([2 8 0 50]); lim = axis;")
    ax = mpl_axes(g)
    assert ax.get_xlim() == (2.0, 8.0) and ax.get_ylim() == (0.0, 50.0)
    assert np.array_equal(g.get("lim"), [[2, 8, 0, 50]])


def test_axis_tight_fits_the_data(g):
    g.run("plot([0.5 3.5], [-2 9]); axis tight; lim = axis;")
    assert np.allclose(g.get("lim"), [[0.5, 3.5, -2, 9]])


def test_axis_styles(g):
    g.run("plot(1:3); axis equal;")
    ax = mpl_axes(g)
    assert ax.get_aspect() == 1.0
    g.run("axis normal")
    assert ax.get_aspect() == "auto"
    g.run("axis square")
    assert ax.get_box_aspect() == 1
    g.run("axis image; lim = axis;")
    assert ax.get_aspect() == 1.0
    assert np.allclose(g.get("lim"), [[1, 3, 1, 3]])


def test_axis_directions_and_visibility(g):
    g.run("plot(1:3); axis ij; d = get(gca, 'YDir');")
    ax = mpl_axes(g)
    assert ax.yaxis_inverted()
    assert text(g.get("d")) == "reverse"
    g.run("axis xy")
    assert not ax.yaxis_inverted()
    g.run("axis off")
    assert not ax.axison
    g.run("axis on")
    assert ax.axison


def test_axis_several_options_and_modes(g):
    g.run("plot(1:3); axis('equal', 'tight'); axis manual; m = get(gca, 'XLimMode');")
    assert text(g.get("m")) == "manual"
    g.run("axis('auto x'); m = get(gca, 'XLimMode'); n = get(gca, 'YLimMode');")
    assert text(g.get("m")) == "auto"
    assert text(g.get("n")) == "manual"


def test_axis_in_3d_returns_six_limits(g):
    g.run("plot3([0 1], [0 2], [0 3]); axis([0 1 0 2 -1 4]); lim = axis;")
    assert np.allclose(g.get("lim"), [[0, 1, 0, 2, -1, 4]])
    g.run("axis tight; lim = axis;")
    assert np.allclose(g.get("lim"), [[0, 1, 0, 2, 0, 3]])


def test_axis_errors(g):
    g.run("plot(1:3);")
    assert g.fails("axis([1 2 3])").identifier == "MATLAB:axis:WrongNumberOfElements"
    assert g.fails("axis([2 1 0 1])").identifier == "MATLAB:axis:IncreasingLimits"
    assert g.fails("axis wobbly").identifier == "MATLAB:axis:UnknownOption"


# ---------------------------------------------------------------- ticks


def test_xticks_set_and_query(g):
    g.run("plot(0:10, 0:10); xticks([0 2.5 5 10]); t = xticks; m = xticks('mode');")
    ax = mpl_axes(g)
    assert np.array_equal(ax.get_xticks(), [0, 2.5, 5, 10])
    assert np.array_equal(g.get("t"), [[0, 2.5, 5, 10]])
    assert text(g.get("m")) == "manual"
    assert ax.get_xlim() == (0.0, 10.0)  # the limits stay
    g.run("xticks auto; m = xticks('mode'); t = xticks;")
    assert text(g.get("m")) == "auto"
    assert np.array_equal(g.get("t"), [[0, 2, 4, 6, 8, 10]])


def test_yticks_and_axes_property(g):
    g.run("plot(0:10); yticks(0:5:10); ax = gca; t = ax.YTick; ax.XTick = [1 3];")
    assert np.array_equal(g.get("t"), [[0, 5, 10]])
    assert np.array_equal(mpl_axes(g).get_xticks(), [1, 3])


def test_tick_labels(g):
    g.run("plot(1:3); xticks(1:3); xticklabels({'low', 'mid', 'high'}); l = xticklabels;")
    ax = mpl_axes(g)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["low", "mid", "high"]
    assert cell_texts(g.get("l")) == ["low", "mid", "high"]
    assert g.get("l").data.shape == (3, 1)
    g.run("yticks([1 2 3]); yticklabels([\"a\" \"b\"]);")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", ""]
    g.run("xticklabels('auto'); l = xticklabels;")
    assert cell_texts(g.get("l")) == ["1", "2", "3"]


def test_tick_labels_are_tex(g):
    g.run("plot(1:2); xticks([1 2]); xticklabels({'\\alpha', 'x^2'});")
    assert [t.get_text() for t in mpl_axes(g).get_xticklabels()] == [r"$\alpha$", r"x$^{\text{2}}$"]
    g.run("set(gca, 'TickLabelInterpreter', 'none');")
    assert [t.get_text() for t in mpl_axes(g).get_xticklabels()] == [r"\alpha", "x^2"]


def test_tick_angle(g):
    g.run("plot(1:3); xtickangle(45); a = xtickangle; r = get(gca, 'XTickLabelRotation');")
    assert g.get("a") == 45 and g.get("r") == 45
    assert all(t.get_rotation() == 45 for t in mpl_axes(g).get_xticklabels())


def test_tick_errors(g):
    g.run("plot(1:3);")
    assert g.fails("xticks([3 2 1])").identifier == "MATLAB:xticks:IncreasingTicks"
    assert g.fails("xticks('many')").identifier == "MATLAB:xticks:InvalidInput"
    assert g.fails("xtickangle('steep')").identifier == "MATLAB:xtickangle:InvalidInput"
    assert g.fails("set(gca, 'XTick', [1 1])").identifier == "MATLAB:hg:InvalidPropertyValue"


# ---------------------------------------------------------------- colororder


def line_colors(g, name="h"):
    return [to_rgb(h.artist.get_color()) for h in g.get(name).items]


def test_colororder_before_plotting(g):
    g.run("colororder([1 0 0; 0 0 1]); h = plot([1 2; 3 4; 5 6]);")
    assert line_colors(g) == [(1.0, 0.0, 0.0), (0.0, 0.0, 1.0)]
    g.run("h = plot(rand(3, 3));")
    assert line_colors(g)[2] == (1.0, 0.0, 0.0)  # cycles


def test_colororder_recolors_existing_plots_and_returns(g):
    g.run("h = plot([1 2; 3 4]); colororder({'green', '#FF00FF'}); c = colororder;")
    assert line_colors(g) == [(0.0, 1.0, 0.0), (1.0, 0.0, 1.0)]
    assert np.array_equal(g.get("c"), [[0, 1, 0], [1, 0, 1]])


def test_colororder_palette_names_and_default(g):
    g.run("c = colororder;")
    assert np.allclose(g.get("c"), COLOR_ORDER)
    g.run("colororder('reef'); c = colororder(gcf); ax = gca; o = ax.ColorOrder;")
    assert g.get("c")[0] == pytest.approx([0.866, 0.329, 0.0])
    assert np.allclose(g.get("o"), g.get("c"))


def test_colororder_of_axes_target(g):
    g.run("a1 = subplot(1, 2, 1); a2 = subplot(1, 2, 2); colororder(a1, [0 0 0]);"
          "o1 = a1.ColorOrder; o2 = a2.ColorOrder;")
    assert np.array_equal(g.get("o1"), [[0, 0, 0]])
    assert np.allclose(g.get("o2"), COLOR_ORDER)


def test_colororder_errors(g):
    assert g.fails("colororder([1 0])").identifier == "MATLAB:colororder:InvalidColors"
    assert g.fails("colororder([2 0 0])").identifier == "MATLAB:colororder:InvalidColors"
    assert g.fails("colororder('nosuchpalette')").identifier == "MATLAB:colororder:InvalidColors"
    assert g.fails("colororder(struct('a', 1))").identifier == "MATLAB:colororder:InvalidColors"


# ---------------------------------------------------------------- more axes properties


def test_axes_properties_added(g):
    g.run("plot(1:3); ax = gca; ax.XAxisLocation = 'top'; ax.TickDir = 'out'; ax.XColor = 'r';"
          "ax.FontName = 'Arial'; x = ax.XAxisLocation; z = ax.ZScale; d = ax.DataAspectRatio;")
    ax = mpl_axes(g)
    assert ax.xaxis.get_ticks_position() == "top"
    assert text(g.get("x")) == "top"
    assert text(g.get("z")) == "linear"
    assert g.get("d").shape == (1, 3)
    assert to_rgb(ax.spines["bottom"].get_edgecolor()) == (1.0, 0.0, 0.0)
    assert g.fails("ax.TickDir = 'sideways';").identifier == "MATLAB:hg:InvalidPropertyValue"


def test_axis_equal_with_given_limits_keeps_them(g, capsys):
    g.run("plot(1:3); axis equal; xlim([0 10]); axis tight;")
    ax = mpl_axes(g)
    ax.figure.canvas.draw()
    assert ax.get_adjustable() == "box"
    g.run("figure; plot(1:3); axis([0 10 0 1]); axis equal;")
    ax = mpl_axes(g)
    ax.figure.canvas.draw()
    assert ax.get_xlim() == (0.0, 10.0) and ax.get_ylim() == (0.0, 1.0)
    assert "Ignoring fixed" not in capsys.readouterr().err


def test_ticks_on_a_log_axis_return_to_automatic(g):
    g.run("semilogy(1:10, 10.^(1:10)); yticks([1e2 1e4]); yticklabels({'a', 'b'}); yticks auto;"
          "yticklabels auto; t = yticks;")
    ticks = g.get("t").ravel()
    assert np.allclose(np.log10(ticks), np.round(np.log10(ticks)))
    assert ticks.size >= 3
