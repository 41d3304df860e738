"""surf, mesh, pcolor, shading, view, contour, contourf, quiver and quiver3."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.colors import to_rgb, to_rgba_array

from mlang.builtins.graphics.colormaps import parula_map

PARULA = parula_map(256)


def text(value) -> str:
    return value.tobytes().decode("utf-16-le") if hasattr(value, "tobytes") else str(value)


# ---------------------------------------------------------------- surf, mesh, pcolor


def test_surf_faces_and_colours(g):
    g.run("s = surf([1 2 3; 4 5 6]); cls = class(s); z = s.ZData; x = s.XData; lims = clim;"
          "ax = gca; v = ax.View;")
    s = g.get("s")
    assert text(g.get("cls")) == "matlab.graphics.chart.primitive.Surface"
    assert np.array_equal(g.get("x"), [[1, 2, 3], [1, 2, 3]])
    assert np.array_equal(g.get("lims"), [[1, 6]])
    assert np.allclose(g.get("v"), [[-37.5, 30]])
    assert s.parent.is_3d
    faces = s.artist._facecolor3d  # in face order (get_facecolor sorts them by depth)
    assert len(faces) == 2  # (2-1) x (3-1) quadrilaterals
    assert np.allclose(faces[0][:3], PARULA[0])  # the first corner's value, 1
    assert np.allclose(faces[1][:3], PARULA[int(1 / 5 * 256)])  # value 2
    assert np.allclose(to_rgba_array(s.artist.get_edgecolor())[0][:3], [0, 0, 0])


def test_surf_with_vectors_and_colour_data(g):
    g.run("s = surf(1:3, [10 20], [1 2 3; 4 5 6], [0 0 0; 0 0 9]); y = s.YData; c = s.CData; lims = clim;")
    assert np.array_equal(g.get("y"), [[10, 10, 10], [20, 20, 20]])
    assert np.array_equal(g.get("lims"), [[0, 9]])
    assert np.allclose(g.get("s").artist._facecolor3d[1][:3], PARULA[0])


def test_surf_options_and_properties(g):
    g.run("s = surf(magic(3), 'FaceColor', 'r', 'EdgeColor', 'none', 'FaceAlpha', 0.5); s.LineWidth = 2;")
    s = g.get("s")
    assert np.allclose(s.artist.get_facecolor()[0][:3], [1, 0, 0])
    assert len(s.artist.get_edgecolor()) == 0 or s.artist.get_edgecolor()[0][3] == 0
    assert s.artist.get_linewidth()[0] == 2
    assert g.fails("s.FaceColor = 'sideways';").identifier == "MATLAB:hg:InvalidPropertyValue"
    g.run("s.ZData = [1 2; 3 4]; x = s.XData;")
    assert np.array_equal(g.get("x"), [[1, 2], [1, 2]])


def test_surf_nan_makes_a_hole(g):
    g.run("s = surf([1 2 3; 4 NaN 6; 7 8 9]); t = surf([NaN 2 3; 4 5 6; 7 8 9]);")
    assert len(g.get("s").quads()) == 0  # every face touches the middle
    assert len(g.get("t").quads()) == 3 and len(g.get("t").artist._facecolor3d) == 3


def test_mesh_has_white_faces_and_coloured_edges(g):
    g.run("m = mesh([1 2; 3 4]); f = m.FaceColor; e = m.EdgeColor;")
    assert np.array_equal(g.get("f"), [[1, 1, 1]])
    assert text(g.get("e")) == "flat"
    m = g.get("m")
    assert np.allclose(m.artist.get_facecolor()[0][:3], [1, 1, 1])
    assert np.allclose(m.artist.get_edgecolor()[0][:3], PARULA[0])


def test_pcolor_is_flat_with_one_cell_per_corner(g):
    g.run("p = pcolor([1 2 3; 4 5 6; 7 8 9]); lims = clim; ax = gca;")
    p = g.get("p")
    assert not p.parent.is_3d
    assert np.array_equal(g.get("lims"), [[1, 9]])
    colors = p.artist.get_facecolor()
    assert len(colors) == 4
    assert np.allclose(colors[0][:3], PARULA[0])
    assert np.allclose(colors[3][:3], PARULA[int(4 / 8 * 256)])  # the cell at (2, 2): value 5
    assert not g.get("ax").artist.yaxis_inverted()


def test_shading(g):
    g.run("s = surf(magic(3)); shading interp; f = s.FaceColor; e = s.EdgeColor;")
    assert text(g.get("f")) == "interp" and text(g.get("e")) == "none"
    g.run("shading faceted; e = s.EdgeColor;")
    assert np.array_equal(g.get("e"), [[0, 0, 0]])
    assert g.fails("shading sideways").identifier == "MATLAB:hg:InvalidPropertyValue"


def test_surface_errors(g):
    assert g.fails("surf(1:3, 1:2, magic(3))").identifier == "MATLAB:surf:YDataSizeMismatch"
    assert g.fails("surf({1})").identifier == "MATLAB:surf:InvalidData"
    assert g.fails("surf()").identifier == "MATLAB:narginchk:notEnoughInputs"
    assert g.fails("surf(magic(3), 'Nope', 1)").identifier == "MATLAB:hg:InvalidProperty"


# ---------------------------------------------------------------- view


def test_view(g):
    g.run("v = view; plot(1:3); w = view;")
    assert np.array_equal(g.get("v"), [[0, 90]]) and np.array_equal(g.get("w"), [[0, 90]])
    g.run("surf(magic(3)); view(45, 20); [az, el] = view;")
    assert g.get("az") == pytest.approx(45) and g.get("el") == pytest.approx(20)
    assert g.get("az") == pytest.approx(45)
    ax = g.value("ax = gca;", "ax").artist
    assert ax.azim == pytest.approx(-45) and ax.elev == pytest.approx(20)
    g.run("view(2); v = view;")
    assert np.allclose(g.get("v"), [[0, 90]])
    g.run("view([10 5]); v = view; ax = gca; ax.View = [30 40]; w = ax.View; view(3); u = view;")
    assert np.allclose(g.get("v"), [[10, 5]]) and np.allclose(g.get("w"), [[30, 40]])
    assert np.allclose(g.get("u"), [[-37.5, 30]])
    assert g.fails("view('x')").identifier == "MATLAB:view:InvalidInputs"
    assert g.fails("view(1, 2, 3)").identifier == "MATLAB:TooManyInputs"


def test_view_3_makes_empty_axes_3d(g):
    g.run("figure; view(3); ax = gca;")
    assert g.get("ax").is_3d


# ---------------------------------------------------------------- contour


def test_contour_matrix_as_matlab_gives_it(g):
    g.run("[C, h] = contour([1 2; 3 4], [2.5 2.5]); lv = h.LevelList; cls = class(h);")
    assert np.allclose(g.get("C"), [[2.5, 1, 2], [2, 1.75, 1.25]])
    assert g.get("lv") == 2.5
    assert text(g.get("cls")) == "matlab.graphics.chart.primitive.Contour"
    g.run("C = contour([1 2 3; 4 5 6; 7 8 9], 2);")
    assert np.allclose(g.get("C"), [[11 / 3, 1, 2, 3, 19 / 3, 1, 2, 3],
                                    [3, 17 / 9, 14 / 9, 11 / 9, 3, 25 / 9, 22 / 9, 19 / 9]])


def test_contour_levels_and_colours(g):
    g.run("[X, Y] = meshgrid(-2:0.5:2); Z = X.^2 + Y.^2; [C, h] = contour(X, Y, Z); lv = h.LevelList;"
          "m = h.LevelListMode; lc = h.LineColor;")
    assert np.allclose(g.get("lv"), [np.arange(0, 9, 1.0)])  # a round step over [0, 8]
    assert text(g.get("m")) == "auto" and text(g.get("lc")) == "flat"
    h = g.get("h")
    colors = h.sets[0].get_edgecolor()
    assert np.allclose(colors[0][:3], PARULA[0])
    g.run("[C, h] = contour(X, Y, Z, [1 4], 'k', 'LineWidth', 2); lv = h.LevelList;")
    assert np.array_equal(g.get("lv"), [[1, 4]])
    h = g.get("h")
    assert all(np.allclose(c[:3], 0) for c in h.sets[0].get_edgecolor())
    assert h.sets[0].get_linewidth()[0] == 2
    g.run("h.LevelList = 2; C = h.ContourMatrix;")
    assert g.get("C")[0, 0] == 2


def test_contour_show_text_and_count(g):
    g.run("[C, h] = contour(magic(4), 3, 'ShowText', 'on'); lv = h.LevelList;")
    assert np.allclose(g.get("lv"), [[1 + 15 / 4, 1 + 15 / 2, 1 + 45 / 4]])
    assert len(g.get("h").labels) > 0


def test_contourf_fills_with_black_lines(g):
    g.run("[C, h] = contourf(peaks_like(), 4); f = h.Fill; lc = h.LineColor;".replace(
        "peaks_like()", "[1 2 3; 2 3 4; 3 4 5]"))
    h = g.get("h")
    assert text(g.get("f")) == "on"
    assert np.array_equal(g.get("lc"), [[0, 0, 0]])
    assert np.allclose(g.get("h").level_list(), np.linspace(1, 5, 6)[1:-1])
    filled, lines = h.sets
    assert len(filled.get_paths()) == 5  # below the first level, between them, above the last
    assert np.allclose(filled.get_facecolor()[0][:3], PARULA[0])
    assert all(np.allclose(c[:3], 0) for c in lines.get_edgecolor())


def test_contour_errors(g):
    assert g.fails("contour([1 2 3])").identifier == "MATLAB:contour:InvalidData"
    assert g.fails("contour(magic(3), 2.5)").identifier == "MATLAB:contour:InvalidLevels"
    assert g.fails("contour(magic(3), 'q')").identifier == "MATLAB:contour:InvalidLineSpec"


# ---------------------------------------------------------------- quiver


def test_quiver_autoscale_and_true_length(g):
    g.run("q = quiver([0 1], [0 0], [1 2], [0 0]); cls = class(q); u = q.UData;")
    q = g.get("q")
    assert text(g.get("cls")) == "matlab.graphics.chart.primitive.Quiver"
    assert np.array_equal(g.get("u"), [[1, 2]])
    shafts = q.artist.get_segments()[:2]
    # scattered points: the x spread 1 over sqrt(2) columns; the longest arrow is 0.9 of that
    assert shafts[1][1][0] - shafts[1][0][0] == pytest.approx(0.9 / np.sqrt(2))
    assert len(q.artist.get_segments()) == 6
    assert to_rgb(q.artist.get_colors()[0]) == pytest.approx((0.0, 0.447, 0.741))
    g.run("figure; q = quiver(0, 0, 3, 4, 0);")
    assert np.allclose(g.get("q").artist.get_segments()[0], [[0, 0], [3, 4]])
    g.run("figure; q = quiver(0, 0, 3, 4, 'off', 'r', 'LineWidth', 2); a = q.AutoScale;")
    q = g.get("q")
    assert text(g.get("a")) == "off"
    assert np.allclose(q.artist.get_segments()[0], [[0, 0], [3, 4]])
    assert to_rgb(q.artist.get_colors()[0]) == (1.0, 0.0, 0.0) and q.artist.get_linewidth()[0] == 2


def test_quiver_scale_factor_and_properties(g):
    g.run("q = quiver([0 1], [0 0], [1 2], [0 0], 2); f = q.AutoScaleFactor;")
    assert g.get("f") == 2
    assert g.get("q").artist.get_segments()[1][1][0] - 1 == pytest.approx(2 / np.sqrt(2))
    g.run("q.ShowArrowHead = 'off'; n = numel(q.XData);")
    assert len(g.get("q").artist.get_segments()) == 2
    g.run("q.AutoScale = 'off'; q.Color = 'g';")
    assert g.get("q").artist.get_segments()[1][1][0] == pytest.approx(3.0)
    assert to_rgb(g.get("q").artist.get_colors()[0]) == (0.0, 1.0, 0.0)


def test_quiver_grid_form_and_hold(g):
    g.run("plot(1:2); hold on; q = quiver([1 0; 0 1], [0 1; 1 0]); ax = gca; n = numel(ax.Children);")
    assert g.get("n") == 2
    starts = [s[0] for s in g.get("q").artist.get_segments()[:4]]
    assert sorted(map(tuple, np.round(starts, 6))) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    # the second series of the colour order, under hold
    assert to_rgb(g.get("q").artist.get_colors()[0]) == pytest.approx((0.85, 0.325, 0.098))


def test_quiver3(g):
    g.run("q = quiver3(0, 0, 0, 1, 2, 3, 0); w = q.WData; ax = gca;")
    assert g.get("ax").is_3d and g.get("w") == 3
    segment = g.get("q").artist._segments3d[0]  # (get_segments: projected, after drawing)
    assert np.allclose(segment, [[0, 0, 0], [1, 2, 3]])


def test_quiver_errors(g):
    assert g.fails("quiver([1 2], [1 2 3])").identifier == "MATLAB:quiver:UVSizeMismatch"
    assert g.fails("quiver(1:3, 1:2, [1 2 3], [1 2 3])").identifier == "MATLAB:quiver:XYSizeMismatch"
    assert g.fails("quiver(1)").identifier == "MATLAB:narginchk:notEnoughInputs"
    assert g.fails("quiver({1}, 2)").identifier == "MATLAB:quiver:InvalidData"
    assert g.fails("q = quiver(1, 1, 1, 1); q.LineWidth = -1;").identifier == "MATLAB:hg:InvalidPropertyValue"
