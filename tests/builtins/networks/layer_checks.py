"""Checks shared by the layer tests: a layer's outputs on given inputs, and its gradients
with respect to its learnable parameters and its inputs against central finite
differences (in double precision, on small sizes).

    layer = fully_connected(...)            # a Layer object, e.g. m.value("fullyConnectedLayer(3)", ...)
    x = DlArray(np.random.rand(4, 2), "CB")
    outs = layer_outputs(interp, layer, [x])              # initialised, predict
    check_layer_gradients(interp, layer, [x])             # raises AssertionError on mismatch
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import backward, traced_input
from mlang.builtins.networks.layer import ForwardContext, Layer
from mlang.values.core import char_row


def initialized(interp: Any, layer: Layer, inputs: list[DlArray]) -> Layer:
    """The layer initialised for these inputs (its learnables made where empty)."""
    return layer.initialize(inputs, ForwardContext(interp, training=False))


def layer_outputs(interp: Any, layer: Layer, inputs: list[DlArray], training: bool = False
                  ) -> list[DlArray]:
    """The outputs of the initialised layer (``forward`` when ``training``, else ``predict``)."""
    layer = initialized(interp, layer, inputs)
    ctx = ForwardContext(interp, training)
    return layer.forward(inputs, ctx)[0] if training else layer.predict(inputs, ctx)


def _as_double(v: Any) -> Any:
    if type(v) is DlArray:
        return DlArray(np.asarray(v.data, dtype=np.float64), v.fmt)
    if isinstance(v, np.ndarray) and v.dtype == np.float32:
        return v.astype(np.float64)
    return v


def _loss(interp: Any, layer: Layer, params: dict[str, Any], inputs: list[DlArray],
          weights: list[np.ndarray] | None, training: bool) -> tuple[Any, list[np.ndarray]]:
    """sum over outputs of sum(w .* out) with fixed weights w (made on the first call)."""
    ctx = ForwardContext(interp, training)
    trial = layer.copy(**params)
    outs = trial.forward(inputs, ctx)[0] if training else trial.predict(inputs, ctx)
    if weights is None:
        rng = np.random.default_rng(7)
        weights = [rng.uniform(0.5, 1.5, np.shape(o.data)) for o in outs]
    total: Any = None
    for o, w in zip(outs, weights, strict=True):
        term = ctx.call("sum", ctx.call("times", ctx.call("stripdims", o), w), char_row("all"))
        total = term if total is None else ctx.call("plus", total, term)
    return total, weights


def check_layer_gradients(interp: Any, layer: Layer, inputs: list[DlArray], training: bool = False,
                          rtol: float = 1e-5, atol: float = 1e-7, step: float = 1e-6,
                          check_inputs: bool = True) -> None:
    """Reverse-mode gradients of a weighted sum of the layer's outputs with respect to each
    learnable parameter (and each input) against central finite differences."""
    inputs = [_as_double(x) for x in inputs]
    layer = initialized(interp, layer, inputs)
    params = {name: _as_double(layer.values[name]) for name in layer.LEARNABLES
              if np.size(getattr(layer.values[name], "data", layer.values[name])) > 0}
    names = list(params)
    interp.dl_depth += 1
    try:
        traced_params = {n: traced_input(_as_dl(params[n])) for n in names}
        traced_inputs = [traced_input(x) for x in inputs]
        total, weights = _loss(interp, layer, traced_params, traced_inputs, None, training)
        leaves = [traced_params[n] for n in names] + (traced_inputs if check_inputs else [])
        grads = backward(total, leaves, False, False)
    finally:
        interp.dl_depth -= 1

    def value(p: dict[str, Any], xs: list[DlArray]) -> float:
        got, _ = _loss(interp, layer, p, xs, weights, training)
        return float(np.asarray(got.data if type(got) is DlArray else got).reshape(-1)[0])

    targets = [("param", n) for n in names] + ([("input", k) for k in range(len(inputs))]
                                               if check_inputs else [])
    for (kind, key), g in zip(targets, grads, strict=True):
        base = params[key] if kind == "param" else inputs[key]
        data = np.asarray(base.data if type(base) is DlArray else base, dtype=np.float64)
        numeric = np.zeros(data.shape)
        for i in np.ndindex(data.shape):
            values = []
            for sign in (1, -1):
                moved = data.copy()
                moved[i] += sign * step
                new = DlArray(moved, base.fmt) if type(base) is DlArray else moved
                if kind == "param":
                    values.append(value({**params, key: new}, inputs))
                else:
                    values.append(value(params, [new if j == key else x for j, x in enumerate(inputs)]))
            numeric[i] = (values[0] - values[1]) / (2 * step)
        got = np.asarray(g.data if type(g) is DlArray else g, dtype=np.float64).reshape(data.shape)
        np.testing.assert_allclose(got, numeric, rtol=rtol, atol=atol,
                                   err_msg=f"gradient with respect to {kind} {key}")


def _as_dl(v: Any) -> DlArray:
    return v if type(v) is DlArray else DlArray(np.asarray(v))
