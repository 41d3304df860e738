"""Confusion matrix charts: the ConfusionMatrixChart object and confusionchart."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.charts_base import (
    ChartObject,
    choice_prop,
    color_prop,
    is_numeric,
    not_enough_inputs,
    number_prop,
    text_prop,
)
from mlang.builtins.graphics.figures import current_axes
from mlang.builtins.graphics.handles import Prop, define_properties
from mlang.builtins.graphics.plot_args import leading_axes, option_pairs
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.categorical import CategoricalArray
from mlang.values.cell import Cell
from mlang.values.core import char_row, char_rows, is_text, numel, to_double_array
from mlang.values.string import StringArray

NORMALIZATIONS = ("absolute", "column-normalized", "row-normalized", "total-normalized")
DIAGONAL = np.array([[0.0, 0.4470, 0.7410]])
OFF_DIAGONAL = np.array([[0.8500, 0.3250, 0.0980]])


class ConfusionMatrixChart(ChartObject):
    """A confusion matrix: one row a true class, one column a predicted class; the
    cells shaded by their value, correct ones (the diagonal) in one colour, the others in
    another, each non-zero cell showing its value."""

    matlab_class = "mlearnlib.graphics.chart.ConfusionMatrixChart"
    display_name = "ConfusionMatrixChart"
    type_name = "confusionmatrixchart"
    display_order = ("NormalizedValues", "ClassLabels")
    __slots__ = ("counts", "labels", "label_texts")

    def __init__(self, axes: Any, counts: np.ndarray, labels: Any, label_texts: list[str]) -> None:
        super().__init__(axes, {})
        self.counts = counts
        self.labels = labels
        self.label_texts = label_texts

    def normalized(self) -> np.ndarray:
        mode = self.text("Normalization")
        counts = self.counts
        with np.errstate(all="ignore"):
            if mode == "column-normalized":
                values = counts / counts.sum(axis=0, keepdims=True)
            elif mode == "row-normalized":
                values = counts / counts.sum(axis=1, keepdims=True)
            elif mode == "total-normalized":
                values = counts / counts.sum()
            else:
                return counts.copy()
        return np.nan_to_num(values)

    def draw(self, ax: Any) -> list[Any]:
        values = self.normalized()
        size = values.shape[0]
        diagonal = np.eye(size, dtype=bool)
        image = np.ones((size, size, 3))
        for mask, name in ((diagonal, "DiagonalColor"), (~diagonal, "OffDiagonalColor")):
            color = np.asarray(self.get_value(name), dtype=float).ravel()
            top = values[mask].max() if mask.any() and values[mask].size else 0.0
            if top > 0:
                weight = (values / top)[..., None]
                blended = 1.0 - weight * (1.0 - color)
                image[mask] = np.where(values[mask][:, None] > 0, blended[mask], 1.0)
        picture = ax.imshow(image, interpolation="nearest", aspect="auto",
                            extent=(0.5, size + 0.5, size + 0.5, 0.5))
        made = [picture]
        font = self.number("FontSize")
        absolute = self.text("Normalization") == "absolute"
        for row in range(size):
            for col in range(size):
                value = values[row, col]
                if value == 0:
                    continue
                shade = image[row, col].mean()
                label = f"{value:g}" if absolute else f"{value:.1%}".replace("%", "%")
                made.append(ax.text(col + 1, row + 1, label, ha="center", va="center", fontsize=font,
                                    color="white" if shade < 0.5 else "black"))
        ax.set_xticks(np.arange(1, size + 1), self.label_texts)
        ax.set_yticks(np.arange(1, size + 1), self.label_texts)
        ax.set_xlim(0.5, size + 0.5)
        ax.set_ylim(size + 0.5, 0.5)
        ax.set_xlabel(self.text("XLabel"))
        ax.set_ylabel(self.text("YLabel"))
        ax.set_title(self.text("Title"), fontweight="bold")
        return made


define_properties(ConfusionMatrixChart, {
    "Parent": Prop(get=lambda h: h.figure()),  # a standalone chart: the figure holds it
    "NormalizedValues": Prop(get=lambda h: h.normalized()),
    "ClassLabels": Prop(get=lambda h: h.labels),
    "Normalization": choice_prop("Normalization", NORMALIZATIONS),
    "Title": text_prop("Title"),
    "XLabel": text_prop("XLabel", "Predicted Class"),
    "YLabel": text_prop("YLabel", "True Class"),
    "FontSize": number_prop("FontSize", 10.0),
    "DiagonalColor": color_prop("DiagonalColor", DIAGONAL, ()),
    "OffDiagonalColor": color_prop("OffDiagonalColor", OFF_DIAGONAL, ()),
    "RowSummary": choice_prop("RowSummary", ("off", "absolute", "row-normalized", "total-normalized")),
    "ColumnSummary": choice_prop("ColumnSummary", ("off", "absolute", "column-normalized",
                                                   "total-normalized")),
})


# ---------------------------------------------------------------- labels


def _label_keys(value: Any, what: str) -> tuple[list[Any], str]:
    """The labels of a vector as comparable keys, and their kind."""
    if isinstance(value, CategoricalArray):
        names = value.element_names().ravel(order="F")
        return [None if n is None else str(n) for n in names], "categorical"
    if isinstance(value, StringArray):
        return [None if s is None else str(s) for s in value.data.ravel(order="F")], "string"
    if isinstance(value, Cell):
        keys = []
        for item in value.data.ravel(order="F"):
            if not is_text(item):
                raise _bad_labels(what)
            keys.append(pv.text_value(item, what))
        return keys, "cell"
    if is_text(value):
        rows = char_rows(value) if np.ndim(value) == 2 else [pv.text_value(value, what)]
        return [r.rstrip() for r in rows], "char"
    if is_numeric(value):
        data = to_double_array(value).real.ravel(order="F")
        return [None if np.isnan(v) else float(v) for v in data], "numeric"
    raise _bad_labels(what)


def _bad_labels(what: str) -> Exception:
    return error("MATLAB:confusionchart:InvalidLabels",
                 f"{what} must be a categorical, numeric, logical, or string vector, a "
                 "character array, or a cell array of character vectors.")


def _label_value(classes: list[Any], kind: str, source: Any) -> Any:
    """The ClassLabels value: a column of the labels' own type."""
    if kind == "numeric":
        return np.array(classes, dtype=float).reshape(-1, 1)
    if kind == "categorical":
        names = list(source.names)
        codes = np.array([names.index(c) + 1 for c in classes], dtype=np.uint32).reshape(-1, 1)
        return source.like(codes)
    if kind == "string":
        return StringArray(np.array(classes, dtype=object).reshape(-1, 1))
    return Cell(np.array([char_row(c) for c in classes] + [None], dtype=object)[:-1].reshape(-1, 1))


def _counts_from_labels(true: Any, predicted: Any) -> tuple[np.ndarray, Any, list[str]]:
    true_keys, kind = _label_keys(true, "True labels")
    predicted_keys, other_kind = _label_keys(predicted, "Predicted labels")
    if len(true_keys) != len(predicted_keys):
        raise error("MATLAB:confusionchart:DifferentLengths" if numel(true) else
                    "MATLAB:confusionchart:EmptyLabels",
                    "True labels and predicted labels must have the same number of elements.")
    if {kind, other_kind} - {"cell", "char", "string"} and kind != other_kind:
        raise error("MATLAB:confusionchart:MismatchedLabelTypes",
                    "True labels and predicted labels must be of the same type.")
    present = {k for k in true_keys + predicted_keys if k is not None}
    if kind == "categorical":
        order = [n for n in true.names if n in present]
        order += [n for n in getattr(predicted, "names", []) if n in present and n not in order]
    else:
        order = sorted(present)
    position = {k: i for i, k in enumerate(order)}
    counts = np.zeros((len(order), len(order)))
    for t, p in zip(true_keys, predicted_keys, strict=True):
        if t is not None and p is not None:
            counts[position[t], position[p]] += 1
    texts = [f"{k:g}" if isinstance(k, float) else str(k) for k in order]
    return counts, _label_value(order, kind, true), texts


@builtin("confusionchart", interp=True, nargout=True, max_out=1, dl="data")
def confusionchart(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """confusionchart  confusion matrix chart for a classification.

    confusionchart(trueLabels, predictedLabels) counts how often each true class was
    predicted as each class (rows: true classes, columns: predicted classes) and draws
    the counts as a matrix of shaded cells; confusionchart(m) draws a confusion matrix
    m; confusionchart(m, classLabels) names its classes.  Name=value options set
    ConfusionMatrixChart properties (Title, Normalization, XLabel, YLabel,
    DiagonalColor...).  cm = confusionchart(...) returns the ConfusionMatrixChart
    object; cm.NormalizedValues gives the matrix and cm.ClassLabels the classes."""
    axes, rest = leading_axes(args)
    if not rest:
        raise not_enough_inputs()
    first = rest.pop(0)
    second = None
    if rest and not (is_text(rest[0]) and len(rest) % 2 == 0):
        second = rest.pop(0)
    pairs = option_pairs(rest, "confusionchart")
    if second is None or (is_numeric(first) and np.ndim(first) == 2 and 1 not in np.shape(first)
                          and np.shape(first)[0] == np.shape(first)[1]):
        if not is_numeric(first):
            raise _bad_labels("Confusion matrix")
        counts = to_double_array(first).real.astype(float)
        if counts.ndim != 2 or counts.shape[0] != counts.shape[1] or np.any(counts < 0) \
                or not np.all(np.isfinite(counts)):
            raise error("MATLAB:confusionchart:InvalidConfusionMatrix",
                        "Confusion matrix must be a square matrix of nonnegative finite values.")
        size = counts.shape[0]
        if second is not None:
            keys, kind = _label_keys(second, "Class labels")
            if len(keys) != size:
                raise error("MATLAB:confusionchart:InvalidClassLabels",
                            "Number of class labels must equal the size of the confusion matrix.")
            labels: Any = second
            texts = [f"{k:g}" if isinstance(k, float) else str(k) for k in keys]
        else:
            labels = np.arange(1.0, size + 1).reshape(-1, 1)
            texts = [str(k) for k in range(1, size + 1)]
    else:
        counts, labels, texts = _counts_from_labels(first, second)
    axes = axes or current_axes(interp)
    axes.reset()  # a standalone chart takes the whole axes, whatever hold says
    chart = ConfusionMatrixChart(axes, counts, labels, texts)
    chart.finish(pairs)
    axes.add(chart)
    return chart if nargout else None
