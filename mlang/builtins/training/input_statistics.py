"""The normalisation statistics trainnet computes for the network's input layer.

With ``ResetInputNormalization`` true (the default), or when the input layer of a layer
array has no statistics yet, trainnet sets the layer's ``Mean``, ``StandardDeviation``,
``Min`` and ``Max`` (those its ``Normalization`` uses) from the training data before
training: per channel for ``NormalizationDimension`` "auto" and "channel", per element
for "element" (over the observations and time steps), one number for "all".  Statistics
are single precision, shaped to broadcast over the layer's input (C-by-1 for feature and
sequence data, 1-by-1-by-C for images).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.networks.input_layers import STATISTICS
from mlang.builtins.networks.network import DlNetwork
from mlang.builtins.networks.network_graph import Graph
from mlang.builtins.training.training_data import LaidOut
from mlang.values.core import to_str
from mlang.values.handle import FunctionHandle


def _normalization(layer: Any) -> str | None:
    how = layer.values.get("Normalization")
    if how is None or type(how) is FunctionHandle:
        return None
    return to_str(how)


def statistics_unset(layer: Any) -> bool:
    """Whether an input layer's statistics are still to be computed."""
    how = _normalization(layer)
    names = STATISTICS.get(how or "", ())
    return any(np.size(layer.values.get(n, np.zeros((0, 0)))) == 0 for n in names)


def _reduce(data: np.ndarray, fmt: str, dimension: str, kind: str) -> np.ndarray:
    if dimension == "all":
        axes = tuple(range(data.ndim))
    elif dimension == "element":
        axes = tuple(k for k, label in enumerate(fmt) if label in "BT")
    else:
        axes = tuple(k for k, label in enumerate(fmt) if label != "C")
    work = data.astype(np.float64)
    if kind == "Mean":
        out = work.mean(axis=axes, keepdims=True)
    elif kind == "StandardDeviation":
        out = work.std(axis=axes, keepdims=True)
    elif kind == "Max":
        out = work.max(axis=axes, keepdims=True)
    else:
        out = work.min(axis=axes, keepdims=True)
    shape = list(out.shape)
    while len(shape) > 2 and shape[-1] == 1:
        shape.pop()
    return out.reshape(shape).astype(np.float32)


def with_input_statistics(interp: Any, net: DlNetwork, x: LaidOut, force: bool) -> DlNetwork:
    """``net`` with the statistics of its input layer computed from ``x`` (when ``force`` or
    when they are unset)."""
    ports = net.graph.input_ports()
    if len(ports) != 1:
        return net
    layer = net.graph.layer(ports[0][1][0])
    how = _normalization(layer)
    names = STATISTICS.get(how or "", ())
    if not layer.IS_INPUT or not names or not (force or statistics_unset(layer)) or x.count == 0:
        return net
    data = x.batch(interp, None)
    dimension = to_str(layer.values.get("NormalizationDimension", "auto")).lower()
    changes = {name: _reduce(data.data, data.fmt, dimension, name) for name in names}
    layers = [item.copy(**changes) if item is layer else item for item in net.graph.layers]
    return DlNetwork(Graph(layers, list(net.graph.connections)), net.output_names,
                     initialized=net.initialized)
