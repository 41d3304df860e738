"""Histograms: the Histogram object and histogram; the older hist.

A Histogram bins its Data the way histcounts does (the same edges and normalizations):
the binning options given (NumBins, BinEdges, BinWidth, BinLimits, BinMethod) are kept,
and setting one of them replaces the ones it contradicts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import checked_shape
from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.charts_bars import BLACK, draw_bars
from mlang.builtins.graphics.charts_base import (
    ChartObject,
    bar_rectangles,
    bars_legend_artist,
    choice_prop,
    color_prop,
    fraction_prop,
    handles_value,
    line_style_prop,
    mpl_color,
    mpl_line_style,
    not_enough_inputs,
    number_prop,
    numeric_data,
    row_of,
)
from mlang.builtins.graphics.figures import current_axes
from mlang.builtins.graphics.handles import Prop, define_properties
from mlang.builtins.graphics.plot_args import leading_axes, option_pairs
from mlang.builtins.math.statistics import histcounts
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, is_text

NORMALIZATIONS = ("count", "probability", "percentage", "countdensity", "cumcount", "pdf", "cdf")
BIN_METHODS = ("auto", "scott", "fd", "integers", "sturges", "sqrt")
# The binning options, and the ones each replaces when set.
_REPLACES = {
    "NumBins": ("BinEdges", "BinWidth", "BinMethod"),
    "BinEdges": ("NumBins", "BinWidth", "BinMethod", "BinLimits"),
    "BinWidth": ("NumBins", "BinEdges", "BinMethod"),
    "BinMethod": ("NumBins", "BinEdges", "BinWidth"),
    "BinLimits": ("BinEdges",),
}


class Histogram(ChartObject):
    """A histogram of its Data: bars (or a stairs outline) of the binned counts."""

    matlab_class = "matlab.graphics.chart.primitive.Histogram"
    display_name = "Histogram"
    type_name = "histogram"
    display_order = ("Data", "Values", "NumBins", "BinEdges", "BinWidth", "BinLimits",
                     "Normalization", "FaceColor", "EdgeColor")
    __slots__ = ("binning", "cache")

    def __init__(self, axes: Any, values: dict[str, Any]) -> None:
        super().__init__(axes, values)
        self.binning: dict[str, Any] = {}
        self.cache: tuple[np.ndarray, np.ndarray] | None = None

    def binned(self) -> tuple[np.ndarray, np.ndarray]:
        """The bin values (normalized) and the bin edges."""
        if self.cache is None:
            options: list[Any] = []
            for name, value in self.binning.items():
                options += [char_row(name), value]
            options += [char_row("Normalization"), self.get_value("Normalization")]
            values, edges = histcounts(self.get_value("Data"), *options, nargout=2)
            self.cache = (np.asarray(values, dtype=float).ravel(), np.asarray(edges, dtype=float).ravel())
        return self.cache

    def set_binning(self, name: str, value: Any) -> None:
        previous = dict(self.binning)
        for other in _REPLACES[name]:
            self.binning.pop(other, None)
        self.binning[name] = value
        self.cache = None
        try:
            self.binned()  # a bad option gives histcounts' error now
        except Exception:
            self.binning = previous
            self.cache = None
            raise
        self.redraw()

    def draw(self, ax: Any) -> list[Any]:
        values, edges = self.binned()
        if not values.size:
            return []
        face = mpl_color(self.get_value("FaceColor"))
        if face == "auto":
            face = mpl_color(self.stored["SeriesColor"])
        edge = mpl_color(self.get_value("EdgeColor"))
        horizontal = self.text("Orientation") == "horizontal"
        width = self.number("LineWidth")
        style = mpl_line_style(self.text("LineStyle"))
        if self.text("DisplayStyle") == "stairs":
            steps = np.concatenate([[0.0], values, [0.0]])
            points = np.concatenate([[edges[0]], edges])
            outline = edge if edge != "none" and "EdgeColor" in self.stored else face
            if horizontal:
                (artist,) = ax.step(steps, points, where="pre", color=outline, linewidth=width,
                                    linestyle=style)
            else:
                (artist,) = ax.step(points, steps, where="post", color=outline, linewidth=width,
                                    linestyle=style)
            return [artist]
        options = {"edgecolor": edge, "linewidth": width, "alpha": self.number("FaceAlpha"),
                   "linestyle": style}
        return bar_rectangles(ax, edges[:-1], np.diff(edges), np.zeros(values.size), values, horizontal,
                              face, options)

    def legend_artist(self) -> Any:
        return bars_legend_artist(self.artists)


def _binning_prop(name: str, read: Any) -> Prop:
    def get(h: Histogram) -> Any:
        values, edges = h.binned()
        return read(values, edges)

    def write(h: Histogram, value: Any) -> None:
        h.set_binning(name, value)

    return Prop(get=get, set=write)


def _set_data(h: Histogram, value: Any) -> Any:
    data = numeric_data(value, "histogram", "Data")
    h.stored["Data"] = data
    h.cache = None
    h.redraw()
    return data


def _set_normalization(h: Histogram, value: Any) -> Any:
    word = char_row(pv.choice(value, "Normalization", NORMALIZATIONS))
    h.stored["Normalization"] = word
    h.cache = None
    h.redraw()
    return word


def _set_bin_method(h: Histogram, value: Any) -> None:
    h.set_binning("BinMethod", char_row(pv.choice(value, "BinMethod", BIN_METHODS)))


def _bin_counts(h: Histogram) -> Any:
    saved = h.stored.get("Normalization")
    h.stored["Normalization"] = char_row("count")
    h.cache = None
    try:
        counts, _ = h.binned()
    finally:
        h.stored["Normalization"] = saved if saved is not None else char_row("count")
        h.cache = None
    return row_of(counts)


define_properties(Histogram, {
    "Data": Prop(set=_set_data, default=np.zeros((0, 0))),
    "Values": Prop(get=lambda h: row_of(h.binned()[0])),
    "BinCounts": Prop(get=_bin_counts),
    "NumBins": _binning_prop("NumBins", lambda v, e: float(v.size)),
    "BinEdges": _binning_prop("BinEdges", lambda v, e: row_of(e)),
    "BinWidth": _binning_prop("BinWidth", lambda v, e: float(np.diff(e)[0]) if e.size > 1 else 0.0),
    "BinLimits": _binning_prop("BinLimits", lambda v, e: row_of([e[0], e[-1]]) if e.size else
                               np.zeros((1, 0))),
    "BinMethod": Prop(get=lambda h: h.binning.get("BinMethod", char_row(
        "auto" if not h.binning else "manual")), set=_set_bin_method),
    "Normalization": Prop(set=_set_normalization, default=char_row("count")),
    "DisplayStyle": choice_prop("DisplayStyle", ("bar", "stairs")),
    "Orientation": choice_prop("Orientation", ("vertical", "horizontal")),
    "FaceColor": color_prop("FaceColor", char_row("auto"), ("none", "auto")),
    "EdgeColor": color_prop("EdgeColor", BLACK, ("none", "auto")),
    "FaceAlpha": fraction_prop("FaceAlpha", 0.6),
    "EdgeAlpha": fraction_prop("EdgeAlpha", 1.0),
    "LineWidth": number_prop("LineWidth", 0.5),
    "LineStyle": line_style_prop(),
    "SeriesIndex": number_prop("SeriesIndex", 1.0),
})


@builtin("histogram", interp=True, nargout=True, max_out=1, dl="data")
def histogram(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """histogram  histogram plot.

    histogram(X) bins the elements of X into automatically chosen uniform bins and
    draws one bar a bin; histogram(X, nbins) uses nbins bins; histogram(X, edges) the
    given bin edges.  Name=value options: NumBins, BinEdges, BinWidth, BinLimits,
    BinMethod, Normalization ('count', 'probability', 'percentage', 'countdensity',
    'pdf', 'cumcount', 'cdf'), DisplayStyle ('bar', 'stairs'), Orientation, FaceColor,
    EdgeColor, FaceAlpha...  h = histogram(...) returns the Histogram object, whose
    Values and BinEdges properties give the result."""
    axes, rest = leading_axes(args)
    if not rest or is_text(rest[0]):
        raise not_enough_inputs()
    data = numeric_data(rest.pop(0), "histogram", "Data")
    bins = rest.pop(0) if rest and not is_text(rest[0]) else None
    pairs = option_pairs(rest, "histogram")
    axes = axes or current_axes(interp)
    axes.prepare_plot()
    obj = Histogram(axes, {"Data": data, "SeriesColor": np.array([list(axes.next_color())])})
    obj.drawing = True
    if bins is not None:
        obj.set_value("NumBins" if np.size(bins) == 1 else "BinEdges", bins)
    obj.finish(pairs)
    axes.add(obj)
    return handles_value([obj]) if nargout else None


# ---------------------------------------------------------------- hist


def hist_counts(y: np.ndarray, bins: Any) -> tuple[np.ndarray, np.ndarray]:
    """hist's counts (one column a column of y) and bin centres."""
    if bins is None or np.size(bins) == 1:
        number = 10.0 if bins is None else pv.real_number(bins, "nbins")
        if not number >= 1 or not np.isfinite(number):  # (NaN too)
            raise error("MATLAB:hist:InvalidInput", "Number of bins must be a positive integer.")
        count = int(number)
        checked_shape((count, 1), "double")  # MATLAB's size error for more bins than memory
        finite = y[np.isfinite(y)]
        low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 0.0)
        if low == high:
            low, high = low - np.floor(count / 2) - 0.5, high + np.ceil(count / 2) - 0.5
        width = (high - low) / count
        centres = low + width * (np.arange(count) + 0.5)
        inner = low + width * np.arange(1, count)
    else:
        centres = np.asarray(numeric_data(bins, "hist"), dtype=float).ravel()
        centres = np.sort(centres)
        inner = (centres[:-1] + centres[1:]) / 2
    edges = np.concatenate([[-np.inf], inner, [np.inf]])
    counts = np.zeros((centres.size, y.shape[1]))
    for column in range(y.shape[1]):
        values = y[:, column]
        values = values[~np.isnan(values)]
        counts[:, column] = np.histogram(values, bins=edges)[0] if values.size else 0
    return counts, centres


@builtin("hist", interp=True, nargout=True, max_out=2, dl="data")
def hist(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """hist  histogram counts, or their bar chart (not recommended: use histogram).

    [counts, centers] = hist(y) counts the elements of y in 10 equally spaced bins (a
    matrix: one column of counts a column); hist(y, nbins) uses nbins bins; hist(y, x)
    the bins centred on the elements of x.  Without outputs, hist draws the counts as a
    bar chart."""
    axes, rest = leading_axes(args)
    if not rest:
        raise not_enough_inputs()
    y = numeric_data(rest[0], "hist")
    if len(rest) > 2 + (0 if len(rest) < 3 or not is_text(rest[2]) else 1):
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    vector = 1 in y.shape
    column_data = y.reshape(-1, 1) if vector else y
    counts, centres = hist_counts(column_data, rest[1] if len(rest) > 1 else None)
    if vector:
        counts = counts.reshape(1, -1)
    if nargout:
        return (counts, centres.reshape(1, -1))[:max(1, nargout)] if nargout > 1 else counts
    target = [axes] if axes is not None else []
    draw_bars(interp, (*target, centres, counts.T if vector else counts, char_row("hist")), "bar")
    return None
