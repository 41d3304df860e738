"""The direct paths of a training step give what the general paths give, bit for bit:
``mse`` of formatted predictions and targets of their layout (against the same loss through
the 'DataFormat' option), a network's fully connected and activation layers (against the
fullyconnect and activation builtins called on unformatted data): values, gradients,
formats and classes, in single and double, with NaN and a batch of one."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.values.core import char_row

SHAPES = {"CB": (3, 4), "SCB": (2, 3, 4), "CBT": (3, 4, 2), "SSCB": (2, 2, 3, 4)}


def data(shape: tuple, dtype: str, seed: int, nan: bool = False) -> np.ndarray:
    a = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    if nan and a.size:
        a.reshape(-1)[1] = np.nan
    return a


def same(a: object, b: object) -> None:
    """Equal dlarrays bit for bit (NaN where NaN), of one format and class."""
    assert type(a) is DlArray and type(b) is DlArray
    assert a.fmt == b.fmt and a.node is None and b.node is None
    assert a.data.dtype == b.data.dtype and a.data.shape == b.data.shape
    np.testing.assert_array_equal(a.data, b.data)


MSE_BOTH_WAYS = """
    Yf = dlarray(Y, fmt);
    direct = mse(Yf, T);
    general = mse(stripdims(Yf), T, 'DataFormat', fmt);
    gd = dlfeval(@(y, t) dlgradient(mse(y, t), y), Yf, T);
    gg = dlfeval(@(y, t) dlgradient(mse(stripdims(y), t, 'DataFormat', fmt), y), Yf, T);
"""


@pytest.mark.parametrize("fmt", list(SHAPES))
@pytest.mark.parametrize(("ydtype", "tdtype"), [("float64", "float64"), ("float32", "float32"),
                                                ("float32", "float64"), ("float64", "float32")])
def test_mse_of_plain_targets_matches_the_general_path(m, fmt: str, ydtype: str, tdtype: str) -> None:
    shape = SHAPES[fmt]
    direct, general, gd, gg = m.values(MSE_BOTH_WAYS, "direct", "general", "gd", "gg",
                                       Y=data(shape, ydtype, 1), T=data(shape, tdtype, 2),
                                       fmt=char_row(fmt))
    same(direct, general)
    same(gd, gg)
    assert direct.data.dtype == np.dtype(ydtype if tdtype == ydtype else "float32")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_mse_with_nan_and_dlarray_targets(m, dtype: str) -> None:
    shape = SHAPES["CB"]
    code = "T = dlarray(T, fmt);" + MSE_BOTH_WAYS
    direct, general, gd, gg = m.values(code, "direct", "general", "gd", "gg",
                                       Y=data(shape, dtype, 3, nan=True), T=data(shape, dtype, 4),
                                       fmt=char_row("CB"))
    same(direct, general)
    same(gd, gg)
    assert np.isnan(direct.data).all()


def test_mse_targets_of_another_layout_still_checked(m) -> None:
    err = m.fails("mse(dlarray(ones(3, 4), 'CB'), ones(4, 3))")
    assert err.identifier == "deep:dlarray:LossSizeMismatch"
    err = m.fails("mse(dlarray(ones(3, 4), 'CB'), dlarray(ones(3, 4), 'SB'))")
    assert err.identifier == "deep:dlarray:LossDescriptorMismatch"
    err = m.fails("mse(dlarray(ones(3, 4), 'CB'), true(3, 4))")
    assert err.identifier == "deep:dlarray:LogicalsNotSupported"
    err = m.fails("mse(dlarray(ones(3, 4), 'CB'), complex(ones(3, 4), 1))")
    assert err.identifier == "deep:dlarray:ComplexNotSupported"


# ------------------------------------------------------------ network layers

NETWORK_BOTH_WAYS = """
    layers = [featureInputLayer(3)
              fullyConnectedLayer(4, Weights=W1, Bias=b1)
              ACT
              fullyConnectedLayer(2, Weights=W2, Bias=b2)];
    net = dlnetwork(layers);
    Xf = dlarray(X, 'CB');
    direct = forward(net, Xf);
    Xu = stripdims(Xf);
    h = ACTFN(fullyconnect(Xu, net.Learnables.Value{1}, net.Learnables.Value{2}, 'DataFormat', 'CB'));
    general = fullyconnect(h, net.Learnables.Value{3}, net.Learnables.Value{4}, 'DataFormat', 'CB');
    general = dlarray(extractdata(general), 'CB');
    [~, gd] = dlfeval(@(n, x) deal(0, dlgradient(sum(forward(n, x), 'all'), n.Learnables)), net, Xf);
    [~, gg] = dlfeval(@(w, x) deal(0, dlgradient(sum(fullyconnect(ACTFN(fullyconnect(x, w{1}, ...
        w{2}, 'DataFormat', 'CB')), w{3}, w{4}, 'DataFormat', 'CB'), 'all'), w)), ...
        net.Learnables.Value, stripdims(Xf));
"""


@pytest.mark.parametrize("activation", ["tanh", "relu", "sigmoid"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("batch", [5, 1])
def test_network_layers_match_the_builtins(m, activation: str, dtype: str, batch: int) -> None:
    layer = {"tanh": "tanhLayer", "relu": "reluLayer", "sigmoid": "sigmoidLayer"}[activation]
    code = NETWORK_BOTH_WAYS.replace("ACTFN", activation).replace("ACT", layer)
    X = data((3, batch), dtype, 5, nan=dtype == "float64")
    direct, general, gd, gg = m.values(
        code, "direct", "general", "gd", "gg", X=X, W1=data((4, 3), "float32", 6),
        b1=data((4, 1), "float32", 7), W2=data((2, 4), "float32", 8), b2=data((2, 1), "float32", 9))
    same(direct, general)
    values = gd.variable("Value").data.reshape(-1)
    expected = gg.data.reshape(-1)
    assert len(values) == len(expected) == 4
    for a, b in zip(values, expected, strict=True):
        assert type(a) is DlArray and type(b) is DlArray
        assert a.data.dtype == b.data.dtype and a.data.shape == b.data.shape
        np.testing.assert_array_equal(a.data, b.data)


def test_layer_errors_still_name_the_function(m) -> None:
    err = m.fails("net = dlnetwork([featureInputLayer(3); fullyConnectedLayer(2); tanhLayer]); "
                  "forward(net, dlarray(ones(4, 2), 'CB'))")
    assert err.identifier == "deep:fullyconnect:InvalidWeightsSize"
