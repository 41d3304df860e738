"""Many side-by-side bars (a histogram's bins, bars of width 1) drawn as one filled outline
and one edge line: the same picture and values as one rectangle a bar."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from mlang.builtins.graphics.charts_base import bar_rectangles  # noqa: E402


def _pixels(draw) -> np.ndarray:
    figure, ax = plt.subplots(figsize=(4, 3), dpi=80)
    draw(ax)
    ax.set_xlim(0, 1)
    ax.set_ylim(-1, 3)
    figure.canvas.draw()
    image = np.asarray(figure.canvas.buffer_rgba(), dtype=float)[..., :3]
    plt.close(figure)
    return image


@pytest.mark.parametrize("horizontal", [False, True])
def test_side_by_side_bars_fill_the_same_area_as_rectangles(horizontal):
    rng = np.random.default_rng(3)
    edges = np.linspace(0, 1, 301)
    heights = rng.integers(0, 3, 300).astype(float)
    starts, sizes = edges[:-1], np.diff(edges)
    options = {"edgecolor": "none", "linewidth": 0.5, "alpha": 1.0, "linestyle": "-"}
    fast = _pixels(lambda ax: bar_rectangles(ax, starts, sizes, np.zeros(300), heights, horizontal, "b", options))
    # a gap between two bars keeps the one-rectangle-a-bar drawing
    gapped = starts.copy()
    gapped[-1] += 1e-3
    general = _pixels(lambda ax: bar_rectangles(ax, gapped, sizes, np.zeros(300), heights, horizontal, "b",
                                                options))
    assert np.mean(np.abs(fast - general)) < 2.0  # (antialiased seams between rectangles only)


def test_general_and_fast_drawings_are_chosen_by_geometry():
    figure, ax = plt.subplots()
    starts, sizes = np.arange(200.0), np.ones(200)
    options = {"edgecolor": (0, 0, 0), "linewidth": 0.5, "alpha": 1.0, "linestyle": "-"}
    fill, line = bar_rectangles(ax, starts, sizes, np.zeros(200), np.ones(200), False, "r", options)
    assert isinstance(fill, PolyCollection) and isinstance(line, Line2D)
    nan_heights = np.ones(200)
    nan_heights[5] = np.nan
    (collection,) = bar_rectangles(ax, starts, sizes, np.zeros(200), nan_heights, False, "r", options)
    assert len(collection.get_paths()) == 200
    stacked = bar_rectangles(ax, starts, sizes, np.arange(200.0), np.ones(200), False, "r", options)
    assert len(stacked) == 1 and len(stacked[0].get_paths()) == 200
    per_bar = bar_rectangles(ax, starts, sizes, np.zeros(200), np.ones(200), False, [(1, 0, 0)] * 200, options)
    assert len(per_bar[0].get_paths()) == 200
    no_edges = bar_rectangles(ax, starts, sizes, np.zeros(200), np.ones(200), False, "r",
                              {**options, "edgecolor": "none"})
    assert len(no_edges) == 1
    plt.close(figure)


def test_many_bin_histogram_values_match_histcounts(g):
    g.run("rng(2); d = randn(1, 5e4); h = histogram(d, 2e4); v = h.Values; e = h.BinEdges; "
          "c = h.BinCounts; [n, e2] = histcounts(d, 2e4);")
    assert np.array_equal(g.get("v"), g.get("n")) and np.array_equal(g.get("e"), g.get("e2"))
    assert np.array_equal(g.get("c"), g.get("n"))
    fill = g.get("h").artists[0]
    (outline,) = fill.get_paths()
    counts = np.asarray(g.get("n")).ravel()
    assert np.array_equal(outline.vertices[1:2 * counts.size + 1:2, 1], counts)


@pytest.mark.parametrize("data", ["int16(randi(500, 1, 3000))", "rand(1, 3000) > 0.5", "[rand(1, 3000) NaN]",
                                  "single(randn(1, 3000))"])
def test_many_bin_histograms_of_other_types(g, data):
    g.run(f"rng(4); d = {data}; h = histogram(d, 400); v = h.Values; n = histcounts(d, 400);")
    assert np.array_equal(g.get("v"), g.get("n"))


def test_many_bin_histogram_styles_and_legend(g):
    g.run("h = histogram(randn(1, 1000), 300, 'EdgeColor', 'r', 'LineWidth', 2); lg = legend('d');")
    h = g.get("h")
    assert len(h.artists) == 2 and h.artists[1].get_color() == (1.0, 0.0, 0.0)
    handle = h.axes().artist.get_legend().legend_handles[0]
    assert tuple(handle.get_edgecolor()[:3]) == (1.0, 0.0, 0.0)
    g.run("h.EdgeColor = 'none';")
    assert len(h.artists) == 1
    g.run("h.EdgeColor = 'k'; h.LineStyle = 'none';")
    assert len(h.artists) == 1
    g.run("h.DisplayStyle = 'stairs';")
    assert len(h.artists) == 1


def test_many_bins_in_3d_axes_and_empty_data(g):
    g.run("surf(magic(5)); hold on; h = histogram(randn(1, 1000), 300); drawnow;")
    assert g.get("h").artists
    g.run("figure; h2 = histogram(zeros(1, 0), 300); v = h2.Values; drawnow;")
    assert np.asarray(g.get("v")).sum() == 0
