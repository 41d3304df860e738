"""The loss functions trainnet accepts: names and function handles.

As MATLAB documents them, each named loss is normalised by the number of elements of the
network output ("mse", "mae", "huber", "binary-crossentropy") or by its elements that are
not in the channel dimension ("crossentropy", "index-crossentropy"); mse is the plain
mean of squared differences (``l2loss``), not the half of it ``mse`` on dlarrays gives.
A function handle is called as ``loss = f(Y, T)`` with the formatted network output and
targets.  Every loss is computed through the loss builtins, so the trace records it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.errors import error
from mlang.registry import BUILTINS
from mlang.values.core import char_row, class_of, to_str
from mlang.values.handle import FunctionHandle
from mlang.values.table import texts_of

# name -> the loss it is (aliases share one)
LOSS_NAMES = {
    "crossentropy": "crossentropy",
    "index-crossentropy": "index-crossentropy",
    "binary-crossentropy": "binary-crossentropy",
    "mae": "mae", "mean-absolute-error": "mae", "l1loss": "mae",
    "mse": "mse", "mean-squared-error": "mse", "l2loss": "mse",
    "huber": "huber",
}
SHOWN_NAMES = ("crossentropy", "index-crossentropy", "binary-crossentropy", "mae",
               "mean-absolute-error", "l1loss", "mse", "mean-squared-error", "l2loss", "huber")


class LossFunction:
    """A trainnet loss: ``compute(interp, Y, T)`` gives the scalar loss dlarray."""

    def __init__(self, name: str | None, handle: FunctionHandle | None = None) -> None:
        self.name = name
        self.handle = handle

    @property
    def is_classification(self) -> bool:
        return self.name in ("crossentropy", "index-crossentropy", "binary-crossentropy")

    def compute(self, interp: Any, y: Any, t: Any) -> Any:
        if self.handle is not None:
            outs = interp.call_value(self.handle, [y, t], 1)
            return outs[0]
        call = BUILTINS
        normalization = [char_row("NormalizationFactor"), char_row("all-elements")]
        if self.name == "mse":
            return call["l2loss"].call(interp, [y, t, *normalization], 1)[0]
        if self.name == "mae":
            return call["l1loss"].call(interp, [y, t, *normalization], 1)[0]
        if self.name == "huber":
            return call["huber"].call(interp, [y, t, *normalization], 1)[0]
        if self.name == "binary-crossentropy":
            return call["crossentropy"].call(
                interp, [y, t, char_row("ClassificationMode"), char_row("multilabel"),
                         *normalization], 1)[0]
        if self.name == "index-crossentropy":
            return call["indexcrossentropy"].call(interp, [y, t], 1)[0]
        # crossentropy: summed over the channels, divided by the other elements' count
        total = call["crossentropy"].call(
            interp, [y, t, char_row("NormalizationFactor"), char_row("none")], 1)[0]
        channels = y.data.shape[y.fmt.index("C")] if type(y) is DlArray and "C" in y.fmt else 1
        count = max(int(np.prod(y.data.shape)) // max(channels, 1), 1)
        return call["rdivide"].call(interp, [total, float(count)], 1)[0]


def loss_function(value: Any) -> LossFunction:
    """trainnet's lossFcn argument."""
    if type(value) is FunctionHandle:
        return LossFunction(None, value)
    if class_of(value) in ("char", "string"):
        text = to_str(value).lower()
        if text in LOSS_NAMES:
            return LossFunction(LOSS_NAMES[text])
        listed = ", ".join(f"'{n}'" for n in SHOWN_NAMES)
        raise error("MATLAB:trainnet:unrecognizedStringChoice",
                    f"Expected lossFcn to match one of these values:\n\n{listed}\n\n"
                    f"The input, '{to_str(value)}', did not match any of the valid values.")
    raise error("deep:trainnet:InvalidLossFunction",
                "Invalid loss function: specify a loss function name (such as \"mse\" or "
                "\"crossentropy\") or a function handle.")


# ------------------------------------------------------------------ metrics

# metric name (lower case) -> the name its columns and history variables use
METRIC_NAMES = {"accuracy": "Accuracy", "rmse": "RMSE"}


def metric_names(value: Any) -> list[str]:
    """The Metrics training option as metric names ("Accuracy", "RMSE"); [] for none."""
    if type(value) is np.ndarray and value.size == 0 and value.dtype.kind != "V":
        return []
    texts = texts_of(value)
    if texts is None:
        raise error("deep:trainnet:InvalidMetrics",
                    "Invalid Metrics: specify metric names such as \"accuracy\" or \"rmse\".")
    out = []
    for text in texts:
        name = METRIC_NAMES.get(text.lower())
        if name is None:
            raise error("deep:trainnet:UnsupportedMetric",
                        f"The metric '{text}' is not supported; use \"accuracy\" or \"rmse\".")
        out.append(name)
    return out


def metric_value(name: str, y: Any, t: Any) -> float:
    """A metric of predictions ``y`` against targets ``t`` (formatted dlarrays in one
    layout): the percentage of observations whose highest score is the target's class,
    or the root mean squared error over all elements."""
    yd = np.asarray(y.data if type(y) is DlArray else y, dtype=np.float64)
    td = np.asarray(t.data if type(t) is DlArray else t, dtype=np.float64)
    if name == "RMSE":
        return float(np.sqrt(np.mean((yd - td.reshape(yd.shape)) ** 2)))
    fmt = y.fmt if type(y) is DlArray else ""
    axis = fmt.index("C") if "C" in fmt else 0
    if yd.shape[axis] == 1:  # one score: a binary decision at 0.5
        return float(100 * np.mean((yd >= 0.5) == (td.reshape(yd.shape) >= 0.5)))
    if td.size * yd.shape[axis] == yd.size:  # class indices (index-crossentropy)
        predicted = np.argmax(yd, axis=axis).reshape(-1) + 1
        return float(100 * np.mean(predicted == np.round(td.reshape(-1))))
    hits = np.argmax(yd, axis=axis) == np.argmax(td.reshape(yd.shape), axis=axis)
    return float(100 * np.mean(hits))
