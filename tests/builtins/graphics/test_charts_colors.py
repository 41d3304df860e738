"""Chart objects coloured through the colormap (scatter, patch, fill, bar with 'flat'
faces), and charts of many bars drawn as one collection."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgb
from PIL import Image

from mlang.builtins.graphics.colormaps import colormap_by_name, parula_map


def gray(length: int = 256) -> np.ndarray:
    return colormap_by_name("gray", length, None)


def mapped(values, table: np.ndarray, low: float, high: float) -> np.ndarray:
    """MATLAB's scaled mapping: fix((v - low) / (high - low) * m) + 1, clamped."""
    m = table.shape[0]
    index = np.clip(np.floor((np.asarray(values, float) - low) / (high - low) * m), 0, m - 1).astype(int)
    return table[index]


# ---------------------------------------------------------------- scatter


def test_scatter_colour_values_follow_colormap_and_clim(g):
    g.run("x = 1:5; s = scatter(x, x, 20, [0 0.25 0.5 0.75 1]); colormap(gray); clim([0 1]);")
    edges = g.get("s").artist.get_edgecolors()[:, :3]
    assert np.allclose(edges, mapped([0, 0.25, 0.5, 0.75, 1], gray(), 0, 1))
    assert np.allclose(g.value("c = clim;", "c"), [[0, 1]])


def test_scatter_auto_clim_spans_the_values_and_caxis_changes_it(g):
    g.run("s = scatter(1:3, 1:3, 36, [10 20 30], 'filled');")
    table = parula_map(256)
    assert np.allclose(g.value("c = clim;", "c"), [[10, 30]])
    faces = g.get("s").artist.get_facecolors()[:, :3]
    assert np.allclose(faces, mapped([10, 20, 30], table, 10, 30))
    g.run("caxis([0 100]);")
    faces = g.get("s").artist.get_facecolors()[:, :3]
    assert np.allclose(faces, mapped([10, 20, 30], table, 0, 100))


def test_scatter_new_cdata_moves_the_automatic_limits(g):
    g.run("s = scatter(1:3, 1:3, 36, [1 2 3]); s.CData = [0 5 10];")
    assert np.allclose(g.value("c = clim;", "c"), [[0, 10]])
    edges = g.get("s").artist.get_edgecolors()[:, :3]
    assert np.allclose(edges, mapped([0, 5, 10], parula_map(256), 0, 10))


def test_scatter_rgb_colours_ignore_the_colormap(g):
    g.run("s = scatter(1:3, 1:3, 36, [1 0 0; 0 1 0; 0 0 1], 'filled'); colormap(gray); clim([0 5]);")
    assert np.allclose(g.get("s").artist.get_facecolors()[:, :3], np.eye(3))
    assert np.allclose(g.value("c = clim;", "c"), [[0, 5]])


def test_scatter_colorbar_shows_the_axes_mapping(g):
    g.run("scatter(1:4, 1:4, 36, [2 4 6 8]); colormap(gray); cb = colorbar;")
    bar = g.get("cb")
    assert bar.mappable.norm.vmin == 2 and bar.mappable.norm.vmax == 8
    assert np.allclose(bar.mappable.cmap.colors, gray())


def test_scatter_nan_colour_value_draws_no_point(g):
    g.run("s = scatter(1:3, 1:3, 36, [1 NaN 3], 'filled');")
    faces = g.get("s").artist.get_facecolors()
    assert faces[1, 3] == 0.0 and faces[0, 3] == 1.0


# ---------------------------------------------------------------- patch and fill


def test_fill_colour_values_share_the_axes_colour_limits(g):
    g.run("f = fill([0 2; 1 3; 1 3], [0 0; 0 0; 1 1], [1 3]); colormap(gray);")
    table = gray()
    patches = g.get("f").items
    assert to_rgb(patches[0].artists[0].get_facecolor()) == pytest.approx(tuple(mapped([1], table, 1, 3)[0]))
    assert to_rgb(patches[1].artists[0].get_facecolor()) == pytest.approx(tuple(mapped([3], table, 1, 3)[0]))
    g.run("clim([0 6]);")
    assert to_rgb(patches[1].artists[0].get_facecolor()) == pytest.approx(tuple(mapped([3], table, 0, 6)[0]))


def test_patch_faces_vertices_flat_colours_follow_colormap(g):
    g.run("v = [0 0; 1 0; 1 1; 0 1; 2 0; 2 1]; f = [1 2 3 4; 2 5 6 3];"
          "p = patch('Faces', f, 'Vertices', v, 'FaceVertexCData', [0; 1], 'CData', [0; 1],"
          " 'FaceColor', 'flat'); colormap(jet(4)); clim([0 1]);")
    table = colormap_by_name("jet", 4, None)
    faces = [to_rgb(a.get_facecolor()) for a in g.get("p").artists]
    assert faces[0] == pytest.approx(tuple(table[0]))
    assert faces[1] == pytest.approx(tuple(table[3]))


def test_patch_rgb_colour_is_not_mapped(g):
    g.run("p = patch([0 1 1], [0 0 1], [1 0 0]); colormap(gray); clim([5 6]);")
    assert to_rgb(g.get("p").artists[0].get_facecolor()) == (1.0, 0.0, 0.0)


# ---------------------------------------------------------------- bar


def test_bar_flat_faces_with_colour_values(g):
    g.run("b = bar([3 1 2]); b.FaceColor = 'flat'; b.CData = [1 2 3]; colormap(gray); clim([1 3]);")
    faces = [to_rgb(r.get_facecolor()) for r in g.get("b").artists]
    assert np.allclose(faces, mapped([1, 2, 3], gray(), 1, 3))


def test_bar_flat_faces_with_rgb_rows(g):
    g.run("b = bar([3 1 2], 'FaceColor', 'flat'); b.CData(2, :) = [1 0 0]; colormap(gray);")
    faces = [to_rgb(r.get_facecolor()) for r in g.get("b").artists]
    assert faces[1] == (1.0, 0.0, 0.0)
    assert faces[0] == pytest.approx((0.0, 0.4470, 0.7410))
    assert g.value("c = b.CData;", "c").shape == (3, 3)


def test_bar_default_faces_ignore_colormap(g):
    g.run("b = bar([3 1 2]); colormap(gray); clim([0 1]);")
    assert to_rgb(g.get("b").artists[0].get_facecolor()) == pytest.approx((0.0, 0.4470, 0.7410))


# ---------------------------------------------------------------- many bars


def test_histogram_of_many_bins_is_one_fill_and_one_edge_line(g, tmp_path):
    g.run("rng(1); h = histogram(randn(1e4, 1), 1000); n = h.Values; e = h.BinEdges;")
    h = g.get("h")
    assert len(h.artists) == 2 and isinstance(h.artists[0], PolyCollection)
    values, edges = np.asarray(g.get("n")).ravel(), np.asarray(g.get("e")).ravel()
    assert values.size == 1000 and values.sum() == 10000
    (outline,) = h.artists[0].get_paths()
    tops = outline.vertices[1:2 * values.size + 1].reshape(-1, 2, 2)  # each bin's top corners
    assert np.allclose(tops[10, :, 0], edges[10:12]) and np.all(tops[10, :, 1] == values[10])
    walk = h.artists[1].get_xydata()[:-1].reshape(-1, 4, 2)  # each bin's edge: up, across, down
    assert np.allclose(walk[10, :, 0], edges[[10, 10, 11, 11]])
    assert np.array_equal(walk[10, :, 1], [0, values[10], values[10], 0])
    ax = h.axes().artist
    assert ax.get_ylim()[0] == 0 and ax.get_ylim()[1] >= values.max()
    g.run("drawnow; saveas(gcf, 'many.png');")
    with Image.open(tmp_path / "many.png") as image:
        assert image.size[0] > 100


def test_horizontal_histogram_and_colour_of_many_bins(g):
    g.run("h = histogram(1:500, 500, 'Orientation', 'horizontal', 'FaceColor', 'r');")
    collection = g.get("h").artists[0]
    assert isinstance(collection, PolyCollection)
    corners = collection.get_paths()[0].vertices[:4]
    assert corners[:, 0].min() == 0 and corners[:, 0].max() == 1  # the count runs along x
    assert to_rgb(tuple(collection.get_facecolors()[0][:3])) == (1.0, 0.0, 0.0)


def test_bar_and_hist_of_many_values(g):
    g.run("b = bar(1:300, mod(1:300, 7));")
    collection = g.get("b").artists[0]
    assert isinstance(collection, PolyCollection) and len(collection.get_paths()) == 300
    corners = collection.get_paths()[6].vertices[:4]
    assert corners[:, 1].max() == 0 and corners[:, 1].min() == 0  # mod(7, 7) = 0
    corners = collection.get_paths()[5].vertices[:4]
    assert corners[:, 0].mean() == pytest.approx(6) and corners[:, 1].max() == 6
    g.run("figure; hist(randn(1, 5000), 400); b2 = gca; k = b2.Children;")
    bars = g.get("k")
    assert isinstance(bars.artists[0], PolyCollection)


def test_many_flat_bars_map_their_values(g):
    g.run("b = bar(1:200, ones(1, 200), 'FaceColor', 'flat'); b.CData = (1:200)'; colormap(gray);")
    faces = g.get("b").artists[0].get_facecolors()[:, :3]
    assert np.allclose(faces, mapped(np.arange(1, 201), gray(), 1, 200))


def test_many_bars_keep_their_legend_entry(g):
    g.run("b = bar(1:300, ones(1, 300), 'FaceColor', 'r'); lg = legend('many');")
    legend = g.get("b").axes().artist.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["many"]


def test_bad_colour_data_is_a_matlab_error(g):
    g.run("b = bar([1 2 3]);")
    assert g.fails("b.CData = {1};").identifier == "MATLAB:bar:InvalidData"
    g.run("s = scatter(1:2, 1:2);")
    assert g.fails("s.CData = {1};").identifier == "MATLAB:scatter:InvalidData"
    assert g.fails("clim([1 0]);").identifier == "MATLAB:clim:InvalidInput"
