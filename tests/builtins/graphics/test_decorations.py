"""Titles, labels, legends, grid and box: the matplotlib artists and the handles."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.colors import to_rgb
from PIL import Image

from mlang.builtins.graphics.props import text_value


def text(value) -> str:
    return text_value(value, "String")


def mpl_axes(g):
    return g.value("ax__ = gca;", "ax__").artist


# ---------------------------------------------------------------- labels and titles


def test_labels_set_the_axes_texts_and_return_text_objects(g):
    g.run("plot(1:3); h = xlabel('time (s)'); ylabel('loss', 'FontSize', 14); c = class(h);")
    ax = mpl_axes(g)
    assert ax.xaxis.label.get_text() == "time (s)"
    assert ax.yaxis.label.get_text() == "loss"
    assert ax.yaxis.label.get_fontsize() == 14
    assert text(g.get("c")) == "matlab.graphics.primitive.Text"
    assert text(g.value("s = h.String;", "s")) == "time (s)"
    assert text(g.value("s = get(gca, 'XLabel').String;", "s")) == "time (s)"


def test_label_of_given_axes_and_no_output_without_nargout(g):
    out = g.run("a1 = subplot(1, 2, 1); a2 = subplot(1, 2, 2); ylabel(a1, 'left'); xlabel('x')")
    assert out == ""
    assert g.get("a1").artist.yaxis.label.get_text() == "left"
    assert g.get("a2").artist.xaxis.label.get_text() == "x"
    assert g.get("a1").artist.xaxis.label.get_text() == ""


def test_zlabel_in_3d_and_kept_in_2d(g):
    g.run("plot3([1 2], [3 4], [5 6]); zlabel('height');")
    assert mpl_axes(g).zaxis.label.get_text() == "height"
    g.run("figure; plot(1:3); t = zlabel('depth'); s = get(gca, 'ZLabel').String;")
    assert text(g.get("s")) == "depth"


def test_title_returns_text_and_takes_options(g):
    g.run("plot(1:3); t = title('Loss', 'Color', 'r', 'FontWeight', 'normal');")
    ax = mpl_axes(g)
    assert ax.title.get_text() == "Loss"
    assert to_rgb(ax.title.get_color()) == (1.0, 0.0, 0.0)
    assert ax.title.get_fontweight() == "normal"
    assert text(g.value("ax = gca; s = ax.Title.String;", "s")) == "Loss"


def test_title_with_subtitle_and_two_outputs(g):
    g.run("plot(1:3); [t, s] = title('Main', 'second line'); c = class(s); ax = gca; "
          "s2 = ax.Subtitle.String;")
    ax = mpl_axes(g)
    assert ax.title.get_text() == "Main"
    assert text(g.get("s2")) == "second line"
    assert text(g.get("c")) == "matlab.graphics.primitive.Text"
    assert g.get("s").artist.get_text() == "second line"
    assert g.get("s").artist in ax.get_children()


def test_title_of_axes_argument_and_options_with_subtitle(g):
    g.run("ax = axes; plot(ax, 1:3); title(ax, 'A', 'B', 'FontSize', 16);")
    ax = g.get("ax").artist
    assert ax.title.get_fontsize() == 16
    assert text(g.value("s = ax.Subtitle.String;", "s")) == "B"
    assert g.value("f = ax.Subtitle.FontSize;", "f") == 16


def test_subtitle_function(g):
    g.run("plot(1:3); title('T'); s = subtitle('sub', 'Color', 'b');")
    assert g.get("s").artist.get_text() == "sub"
    assert to_rgb(g.get("s").artist.get_color()) == (0.0, 0.0, 1.0)


def test_seed_latex_title_renders(g, tmp_path):
    g.run("[X, Y] = meshgrid(-2:0.5:2); imagesc([-2 2], [-2 2], X + Y); axis xy; hold on;"
          "title(\"Real Value and Gradient\",\"Re$(f(x)) = $ Re$((2+3i)x)$\",\"interpreter\",\"latex\");"
          "saveas(gcf, 'seed.png');")
    ax = mpl_axes(g)
    assert ax.title.get_text() == "Real Value and Gradient"
    assert text(g.value("s = get(gca, 'Subtitle').Interpreter;", "s")) == "latex"
    with Image.open(tmp_path / "seed.png") as image:
        assert image.size[0] > 100 and np.unique(np.asarray(image.convert("L"))).size > 10


def test_title_after_new_plot_is_reset(g):
    g.run("plot(1:3); title('old'); plot(3:-1:1);")
    assert mpl_axes(g).title.get_text() == ""
    g.run("title('a', 'b'); plot(1:2); ax = gca; s = ax.Subtitle.String;")
    assert text(g.get("s")) == ""


def test_sgtitle_is_a_figure_text(g):
    g.run("subplot(2, 1, 1); plot(1:3); subplot(2, 1, 2); plot(1:3); t = sgtitle('All', 'FontSize', 15); "
          "c = class(t);")
    figure = g.value("f = gcf;", "f").artist
    assert figure._suptitle.get_text() == "All"
    assert figure._suptitle.get_fontsize() == 15
    assert text(g.get("c")) == "matlab.graphics.illustration.subplot.Text"
    g.run("t2 = sgtitle('Again'); same = isequal(t, t2);")
    assert figure._suptitle.get_text() == "Again"
    g.run("clf; sgtitle(gcf, 'New');")
    assert figure._suptitle.get_text() == "New"


def test_titles_stay_inside_the_figure(g):
    g.run("plot(1:3); title('Main', 'Subtitle'); sgtitle('Figure');")
    ax = mpl_axes(g)
    figure = ax.figure
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    box = ax.get_tightbbox(renderer).transformed(figure.transFigure.inverted())
    assert box.y1 <= 1.0
    heading = figure._suptitle.get_window_extent(renderer).transformed(figure.transFigure.inverted())
    assert ax.title.get_window_extent(renderer).transformed(figure.transFigure.inverted()).y1 <= heading.y0


def test_label_errors(g):
    assert g.fails("xlabel()").identifier == "MATLAB:narginchk:notEnoughInputs"
    assert g.fails("xlabel('a', 'FontSize')").identifier == "MATLAB:InputParser:ParamMissingValue"
    assert g.fails("title('a', 'Bogus', 1)").identifier == "MATLAB:hg:InvalidProperty"
    assert g.fails("xlabel(struct('a', 1))").identifier == "MATLAB:hg:InvalidPropertyValue"
    assert g.fails("title('a', 'Interpreter', 'html')").identifier == "MATLAB:hg:InvalidPropertyValue"


# ---------------------------------------------------------------- legend


def legend_texts(g):
    legend = mpl_axes(g).get_legend()
    return [t.get_text() for t in legend.get_texts()]


def test_legend_labels_in_plot_order(g):
    g.run("plot(1:3); hold on; plot(3:-1:1); lgd = legend('up', 'down'); c = class(lgd);")
    assert legend_texts(g) == ["up", "down"]
    assert text(g.get("c")) == "matlab.graphics.illustration.Legend"
    s = g.value("s = lgd.String;", "s")
    assert [text(x) for x in s.data.ravel()] == ["up", "down"]


def test_legend_from_cell_and_string_array(g):
    g.run("plot([1 2; 3 4]); legend({'a', 'b'});")
    assert legend_texts(g) == ["a", "b"]
    g.run("legend([\"c\" \"d\"]);")
    assert legend_texts(g) == ["c", "d"]


def test_legend_sets_display_names(g):
    g.run("h = plot([1 2; 3 4]); legend('first', 'second'); d = h(2).DisplayName;")
    assert text(g.get("d")) == "second"


def test_legend_uses_display_names_or_data_n(g):
    g.run("plot(1:3, 'DisplayName', 'train'); hold on; plot(2:4); legend;")
    assert legend_texts(g) == ["train", "data2"]


def test_legend_location_and_options(g):
    g.run("plot(1:3); lgd = legend('a', 'Location', 'southwest', 'FontSize', 12);")
    legend = mpl_axes(g).get_legend()
    assert legend._loc == 3  # matplotlib's 'lower left'
    assert text(g.value("l = lgd.Location;", "l")) == "southwest"
    assert g.value("f = lgd.FontSize;", "f") == 12
    g.run("legend('a', 'Location', 'best');")
    assert mpl_axes(g).get_legend()._loc == 0


def test_legend_location_outside_keeps_the_legend_inside_the_figure(g):
    g.run("plot([1 2; 3 4]); legend('alpha', 'beta', 'Location', 'northeastoutside');")
    ax = mpl_axes(g)
    figure = ax.figure
    figure.canvas.draw()
    box = ax.get_legend().get_window_extent(figure.canvas.get_renderer())
    box = box.transformed(figure.transFigure.inverted())
    assert box.x1 <= 1.0
    assert box.x0 >= ax.get_position().x1
    g.run("legend off;")
    figure.canvas.draw()
    assert ax.get_position().width == pytest.approx(0.775)


def test_legend_subset_and_extra_entries_warning(g):
    g.run("h = plot([1 2; 3 4; 5 6]); legend(h(2), 'only');")
    assert legend_texts(g) == ["only"]
    g.run("figure; plot(1:3); legend('a', 'b');")
    assert legend_texts(g) == ["a"]
    assert "Ignoring extra legend entries." in g.err.getvalue()


def test_legend_commands(g):
    g.run("plot(1:3); legend('a'); legend('boxoff');")
    assert not mpl_axes(g).get_legend().get_frame_on()
    g.run("legend boxon")
    assert mpl_axes(g).get_legend().get_frame_on()
    g.run("legend hide")
    assert not mpl_axes(g).get_legend().get_visible()
    g.run("legend show")
    assert mpl_axes(g).get_legend().get_visible()
    g.run("legend toggle")
    assert not mpl_axes(g).get_legend().get_visible()
    g.run("legend('off'); l = get(gca, 'Legend');")
    assert mpl_axes(g).get_legend() is None
    assert g.get("l").shape == (0, 0)
    g.run("legend show")
    assert legend_texts(g) == ["a"]


def test_legend_on_given_axes_and_latex(g):
    g.run("a1 = subplot(1, 2, 1); plot(1:3); a2 = subplot(1, 2, 2); plot(1:3);"
          "legend(a1, '$x^2$', 'Interpreter', 'latex');")
    assert g.get("a1").artist.get_legend().get_texts()[0].get_text() == "$x^2$"
    assert g.get("a2").artist.get_legend() is None


def test_legend_follows_new_plots_with_hold(g):
    g.run("plot(1:3); hold on; legend('a'); plot(2:4, 'DisplayName', 'b');")
    assert legend_texts(g) == ["a", "b"]


def test_legend_errors(g):
    g.run("plot(1:3);")
    assert g.fails("legend('a', 'Location', 'middle')").identifier == "MATLAB:hg:InvalidPropertyValue"
    assert g.fails("legend(struct('a', 1))").identifier == "MATLAB:legend:InvalidInput"
    assert g.fails("l = legend('off');").identifier == "MATLAB:TooManyOutputs"


# ---------------------------------------------------------------- grid and box


def gridlines_shown(axis) -> bool:
    return any(line.get_visible() for line in axis.get_gridlines())


def test_grid_on_off_toggle(g):
    g.run("plot(1:3); grid on; x = get(gca, 'XGrid'); y = get(gca, 'YGrid');")
    ax = mpl_axes(g)
    assert gridlines_shown(ax.xaxis) and gridlines_shown(ax.yaxis)
    assert text(g.get("x")) == "on" and text(g.get("y")) == "on"
    g.run("grid off")
    assert not gridlines_shown(ax.xaxis)
    g.run("grid")
    assert gridlines_shown(ax.xaxis)
    g.run("grid")
    assert text(g.value("x = get(gca, 'XGrid');", "x")) == "off"


def test_grid_minor_and_given_axes(g):
    g.run("ax = axes; plot(ax, 1:10); grid(ax, 'minor'); m = ax.XMinorGrid;")
    assert text(g.get("m")) == "on"
    ax = g.get("ax").artist
    assert any(line.get_visible() for line in ax.xaxis.get_minorticklines()) or ax.xaxis.get_minor_ticks()
    g.run("grid(ax, 'minor'); m = ax.XMinorGrid;")
    assert text(g.get("m")) == "off"


def test_box_on_off(g):
    g.run("plot(1:3); box off; b = get(gca, 'Box');")
    ax = mpl_axes(g)
    assert not ax.spines["top"].get_visible()
    assert text(g.get("b")) == "off"
    g.run("box on")
    assert ax.spines["right"].get_visible()
    g.run("box")
    assert not ax.spines["right"].get_visible()


def test_grid_and_box_errors(g):
    assert g.fails("grid maybe").identifier == "MATLAB:grid:UnknownOption"
    assert g.fails("box('sometimes')").identifier == "MATLAB:box:UnknownOption"
    assert g.fails("grid(1, 2)").identifier in ("MATLAB:TooManyInputs", "MATLAB:grid:UnknownOption")


def test_axes_properties_through_dot_access(g):
    g.run("plot(1:10); ax = gca; ax.YScale = 'log'; ax.XGrid = 'on'; ax.FontSize = 12;"
          "ax.Title.String = 'T'; ax.XLabel.String = 'X'; s = ax.YScale;")
    ax = g.get("ax").artist
    assert ax.get_yscale() == "log"
    assert ax.title.get_text() == "T"
    assert ax.xaxis.label.get_text() == "X"
    assert text(g.get("s")) == "log"
    assert gridlines_shown(ax.xaxis)


def test_decorations_draw_into_the_figure_file(g, tmp_path):
    g.run("plot(1:3); title('T'); xlabel('x'); legend('a'); grid on; print('-dpng', 'd.png');")
    with Image.open(tmp_path / "d.png") as image:
        pixels = np.asarray(image.convert("L"))
    assert pixels.min() < 100 and pixels.max() > 200


def test_legend_skips_images_and_texts_and_rejects_containers(g):
    g.run("imagesc(magic(3)); hold on; plot(1:3); legend;")
    assert legend_texts(g) == ["data1"]
    assert g.fails("legend(gcf, 'a')").identifier == "MATLAB:legend:InvalidInput"


def test_subtitle_in_3d_axes_draws(g, tmp_path):
    g.run("plot3(1:3, 1:3, 1:3); title('T', 'S'); zlabel('z'); saveas(gcf, 'three.png');")
    assert (tmp_path / "three.png").stat().st_size > 1000
    assert text(g.value("ax = gca; s = ax.Subtitle.String;", "s")) == "S"


def test_subplots_under_sgtitle_keep_their_titles_clear(g):
    g.run("for k = 1:4, subplot(2, 2, k); plot(1:3); title(sprintf('plot %d', k)); end; sgtitle('All');")
    figure = g.value("f = gcf;", "f").artist
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    to_figure = figure.transFigure.inverted()
    heading = figure._suptitle.get_window_extent(renderer).transformed(to_figure)
    for ax in figure.axes:
        assert ax.title.get_window_extent(renderer).transformed(to_figure).y1 <= heading.y0 + 1e-6


def test_a_colorbar_keeps_spanning_the_fitted_axes(g):
    g.run("imagesc(magic(4)); colorbar; title('T', 'S');")
    ax = mpl_axes(g)
    ax.figure.canvas.draw()
    bars = [a for a in ax.figure.axes if getattr(a, "_colorbar_info", None)]
    assert len(bars) == 1
    assert bars[0].get_position().y1 == pytest.approx(ax.get_position().y1)
    assert bars[0].get_position().y0 == pytest.approx(ax.get_position().y0)


def test_legend_colours_and_weight_survive_a_rebuild(g):
    g.run("plot(1:3); lgd = legend('a', 'TextColor', 'r', 'Color', [0 0 0], 'EdgeColor', 'b', "
          "'FontWeight', 'bold', 'LineWidth', 2); hold on; plot(2:4);")
    legend = mpl_axes(g).get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["a", "data2"]
    assert all(to_rgb(t.get_color()) == (1.0, 0.0, 0.0) for t in legend.get_texts())
    assert legend.get_texts()[1].get_fontweight() == "bold"
    assert to_rgb(legend.get_frame().get_facecolor()) == (0.0, 0.0, 0.0)
    assert to_rgb(legend.get_frame().get_edgecolor()) == (0.0, 0.0, 1.0)
    assert legend.get_frame().get_linewidth() == 2
    assert np.array_equal(g.value("c = lgd.TextColor;", "c"), [[1, 0, 0]])
    assert g.fails("lgd.TextColor = 'notacolor';").identifier == "MATLAB:hg:InvalidPropertyValue"


def test_tiled_layout_title_and_shared_labels(g):
    g.run("t = tiledlayout(2, 2); for k = 1:4, nexttile; plot(1:3); end;"
          "h = title(t, 'Layout'); xlabel(t, 'time'); ylabel(t, 'value'); c = class(h);"
          "s = t.Title.String; x = t.XLabel.String;")
    figure = g.value("f = gcf;", "f").artist
    assert figure._suptitle.get_text() == "Layout"
    assert figure._suptitle.get_fontweight() == "bold"
    assert figure._supxlabel.get_text() == "time"
    assert figure._supylabel.get_text() == "value"
    assert text(g.get("c")) == "matlab.graphics.primitive.Text"
    assert text(g.get("s")) == "Layout" and text(g.get("x")) == "time"
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    to_figure = figure.transFigure.inverted()
    shared = figure._supylabel.get_window_extent(renderer).transformed(to_figure)
    for ax in figure.axes:
        assert ax.get_tightbbox(renderer).transformed(to_figure).x0 >= shared.x1
    g.run("tiledlayout(1, 1); nexttile; plot(1:2);")
    assert figure._suptitle is None or figure._suptitle.get_text() == ""
