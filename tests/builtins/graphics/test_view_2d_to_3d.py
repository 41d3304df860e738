"""view(3) and view(az, el) on 2-D axes: the axes turn 3-D and keep what they show, the
2-D objects lying in the plane z = 0."""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgb
from mpl_toolkits.mplot3d import art3d


def test_view3_keeps_lines_at_z0_with_their_look(g):
    g.run("p = plot(1:5, [2 4 1 5 3], 'r--o', 'LineWidth', 2, 'MarkerSize', 9); hold on; "
          "q = plot([1 5], [0 6]); title('T'); xlabel('X'); view(3); v = view; ax = gca; n = numel(ax.Children);")
    p = g.get("p")
    assert np.array_equal(np.asarray(g.get("v")), [[-37.5, 30.0]])
    assert g.get("n") == 2 and p.valid and p.axes().is_3d
    assert isinstance(p.artist, art3d.Line3D)
    xs, ys, zs = p.artist.get_data_3d()
    assert np.array_equal(xs, [1, 2, 3, 4, 5]) and np.array_equal(ys, [2, 4, 1, 5, 3]) and not np.any(zs)
    assert to_rgb(p.artist.get_color()) == (1.0, 0.0, 0.0)
    assert p.artist.get_linestyle() == "--" and p.artist.get_linewidth() == 2
    assert p.artist.get_marker() == "o" and p.artist.get_markersize() == 9
    assert p.axes().artist.get_title() == "T" and p.axes().artist.get_xlabel() == "X"
    x0, x1 = p.axes().artist.get_xlim3d()
    assert x0 <= 1 and x1 >= 5
    g.run("p.YData = [1 1 1 1 1]; p.Color = 'g'; y = p.YData;")
    assert np.array_equal(p.artist.get_data_3d()[1], np.ones(5))
    assert to_rgb(p.artist.get_color()) == (0.0, 1.0, 0.0)
    g.run("drawnow; saveas(gcf, 'v3.png');")


def test_view_az_el_keeps_charts_and_legend(g):
    g.run("b = bar(1:3, [3 1 2]); hold on; s = scatter(1:3, [1 2 3]); lg = legend('b', 's'); "
          "view(30, 45); [az, el] = view;")
    assert g.get("az") == 30 and g.get("el") == 45
    b, s = g.get("b"), g.get("s")
    assert b.valid and s.valid and b.artists and s.artists
    assert [t.get_text() for t in b.axes().artist.get_legend().get_texts()] == ["b", "s"]
    g.run("b.FaceColor = 'r'; drawnow;")


def test_view2_and_empty_axes_unchanged(g):
    g.run("plot(1:3); view(2); ax = gca;")
    assert not g.get("ax").is_3d
    g.run("figure; view(3); ax2 = gca;")
    assert g.get("ax2").is_3d


def test_view3_keeps_limits_set_by_hand(g):
    g.run("plot(1:3); xlim([0 10]); view(3); ax = gca;")
    assert tuple(g.get("ax").artist.get_xlim3d()) == (0, 10)
