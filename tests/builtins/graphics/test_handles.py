"""Graphics handles: handle semantics, set/get, dot access, deletion, display."""

from __future__ import annotations

import numpy as np

from mlang.values.core import char_text


def text(v) -> str:
    return char_text(v)


def test_handle_semantics_through_every_variable(g):
    g.run("h = plot(1:3); k = h; k.LineWidth = 4; w = h.LineWidth; s = struct('line', h);"
          "s.line.Color = 'r'; c = h.Color;")
    assert g.get("w") == 4.0
    assert g.get("h").artist.get_linewidth() == 4.0
    assert np.array_equal(g.get("c"), [[1, 0, 0]])


def test_set_get_and_case_insensitive_names(g):
    g.run("h = plot(1:3); set(h, 'linewidth', 3, 'LINESTYLE', ':'); w = get(h, 'LineWidth');"
          "s = get(h, 'linestyle'); m = h.marker;")
    assert g.get("w") == 3.0
    assert text(g.get("s")) == ":"
    assert text(g.get("m")) == "none"


def test_get_all_properties_as_struct(g):
    s = g.value("h = plot(1:3); s = get(h);", "s")
    assert {"Color", "LineWidth", "XData", "Type", "Parent"} <= set(s.fields)
    assert text(s.element(0)["Type"]) == "line"


def test_get_of_an_array_and_of_several_names(g):
    g.run("h = plot([1 2; 3 4]); c = get(h, 'LineWidth'); d = get(h(1), {'LineWidth', 'Marker'});")
    c, d = g.get("c"), g.get("d")
    assert c.shape == (2, 1) and c.data[1, 0] == 0.5
    assert d.shape == (1, 2) and text(d.data[0, 1]) == "none"


def test_set_on_an_array_sets_every_object(g):
    g.run("h = plot([1 2; 3 4]); set(h, 'LineWidth', 2);")
    assert [x.artist.get_linewidth() for x in g.get("h").items] == [2, 2]


def test_set_with_a_struct(g):
    g.run("h = plot(1:3); set(h, struct('LineWidth', 5, 'Marker', 'x'));")
    assert g.get("h").artist.get_marker() == "x"
    assert g.get("h").artist.get_linewidth() == 5


def test_parent_children_and_type(g):
    g.run("h = plot(1:3); ax = gca; f = gcf; p = h.Parent; q = ax.Parent; kids = ax.Children;"
          "t = ax.Type; tf = f.Type;")
    assert g.get("p") is g.get("ax")
    assert g.get("q") is g.get("f")
    assert g.get("kids") is g.get("h")
    assert text(g.get("t")) == "axes" and text(g.get("tf")) == "figure"


def test_delete_and_validity(g):
    g.run("h = plot(1:3); hold on; k = plot(2:4); a = isvalid(h); delete(h); b = isvalid(h);"
          "c = isgraphics(h); d = isgraphics(k, 'line'); e = isgraphics(k, 'axes'); n = ishandle(5);"
          "m = numel(get(gca, 'Children'));")
    assert (g.get("a"), g.get("b"), g.get("c"), g.get("d"), g.get("e"), g.get("n")) == \
        (True, False, False, True, False, False)
    assert g.get("m") == 1.0
    assert g.fails("h.LineWidth").identifier == "MATLAB:class:InvalidHandle"
    assert g.fails("set(h, 'LineWidth', 2)").identifier == "MATLAB:class:InvalidHandle"


def test_delete_of_a_file_still_works(g, tmp_path):
    (tmp_path / "old.txt").write_text("x")
    g.run("delete('old.txt')")
    assert not (tmp_path / "old.txt").exists()


def test_equality_and_indexing(g):
    g.run("h = plot([1 2; 3 4]); a = h(1) == h(1); b = h(1) == h(2); c = h(2); d = h(end);"
          "e = [h(2); h(1)];")
    assert g.get("a") is True and g.get("b") is False
    assert g.get("c") is g.get("d")
    assert g.get("e").items[0] is g.get("h").items[1]


def test_property_errors(g):
    g.run("h = plot(1:3);")
    err = g.fails("h.Bogus")
    assert err.identifier == "MATLAB:noSuchMethodOrField"
    err = g.fails("h.Bogus = 1;")
    assert err.identifier == "MATLAB:hg:InvalidProperty"
    assert err.exc.message == "Unrecognized property Bogus for class Line."
    err = g.fails("get(h, 'Bogus')")
    assert err.exc.message == \
        "Unrecognized property Bogus for class matlab.graphics.chart.primitive.Line."
    assert g.fails("h.Type = 'x';").identifier == "MATLAB:class:SetProhibited"
    assert g.fails("h.LineWidth = 'thick';").identifier == "MATLAB:hg:InvalidPropertyValue"
    assert g.fails("set(h, 'LineWidth')").identifier == "MATLAB:class:BadParamValuePairs"
    assert g.fails("set(5, 'LineWidth', 1)").identifier == "MATLAB:class:InvalidHandle"


def test_class_names(g):
    g.run("h = plot(1:3); a = class(h); b = class(gca); c = class(gcf); d = class(groot);")
    assert [text(g.get(n)) for n in "abcd"] == [
        "matlab.graphics.chart.primitive.Line", "matlab.graphics.axis.Axes", "matlab.ui.Figure",
        "matlab.ui.Root"]


def test_line_display(g):
    out = g.run("h = plot([1 2 3], [4 5 6], 'r')")
    assert out == "\n".join([
        "",
        "h = ",
        "",
        "  Line with properties:",
        "",
        "              Color: [1 0 0]",
        "          LineStyle: '-'",
        "          LineWidth: 0.5000",
        "             Marker: 'none'",
        "         MarkerSize: 6",
        "    MarkerFaceColor: 'none'",
        "              XData: [1 2 3]",
        "              YData: [4 5 6]",
        "              ZData: [1×0 double]",
        "",
        ""])


def test_text_handles_of_the_axes(g):
    g.run("plot(1:3); t = get(gca, 'Title'); t.String = 'x^2 \\alpha'; t.FontSize = 14;"
          "xl = get(gca, 'XLabel'); set(xl, 'String', 'time', 'Interpreter', 'none');")
    ax = g.get("t").parent.artist
    assert ax.title.get_text() == "x$^{\\text{2}}$ $\\alpha$"
    assert ax.title.get_fontsize() == 14
    assert ax.xaxis.label.get_text() == "time"


def test_arrays_of_handles_by_assignment(g):
    g.run("h = gobjects(1, 3); a = isgraphics(h); hold on; for k = 1:3, h(k) = plot(1:2, [k k]); end;"
          "b = isgraphics(h); c = class(h); w = get(h, 'YData');")
    assert np.array_equal(g.get("a"), [[False, False, False]])
    assert np.array_equal(g.get("b"), [[True, True, True]])
    assert char_text(g.get("c")) == "matlab.graphics.chart.primitive.Line"
    assert np.array_equal(g.get("w").data[2, 0], [[3, 3]])
    g.run("clear q; q(2) = plot(1:2); n = size(q); ok = isgraphics(q); q(1) = []; m = numel(q);")
    assert np.array_equal(g.get("n"), [[1, 2]])
    assert np.array_equal(g.get("ok"), [[False, True]])
    assert g.get("m") == 1.0
    assert g.value("e = gobjects(0); s = size(e);", "s").tolist() == [[0, 0]]


def test_legend_object_entries_follow_the_axes(g):
    from mlang.builtins.graphics.figure_axes import Legend

    g.run("a = plot(1:3); hold on; b = plot(3:-1:1); ax = gca;")
    axes = g.get("ax")
    legend = Legend(axes, [(g.get("a"), "first"), (g.get("b"), "second")])
    texts = [t.get_text() for t in axes.artist.get_legend().get_texts()]
    assert texts == ["first", "second"]
    g.run("c = plot(1:3, 'DisplayName', 'third'); delete(a); lg = ax.Legend; s = lg.String;"
          "lg.Location = 'southwest';")
    assert g.get("lg") is legend
    assert [char_text(x) for x in g.get("s").data.ravel()] == ["second", "third"]
    assert axes.artist.get_legend()._loc == 3  # lower left
    g.run("c.DisplayName = 'renamed';")
    assert [t.get_text() for t in axes.artist.get_legend().get_texts()] == ["second", "renamed"]
