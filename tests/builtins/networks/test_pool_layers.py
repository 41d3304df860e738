"""Pooling layers: max and average pooling (1-D and 2-D) and global pooling (defaults,
options, forward against NumPy loops, gradients, descriptions, errors)."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.networks.layer import ForwardContext
from mlang.values.core import to_str
from tests.builtins.networks.layer_checks import check_layer_gradients, layer_outputs

RNG = np.random.default_rng(5)


def pool_reference(x: np.ndarray, size, stride, pads, how: str) -> np.ndarray:
    """Direct-loop 2-D pooling of x (H, W, C, N); ``how``: 'max', 'avg' (padding counts as
    zeros) or 'mean' (averages over the input elements only)."""
    (t, b), (le, r) = pads
    fill = -np.inf if how == "max" else 0.0
    xp = np.pad(x, ((t, b), (le, r), (0, 0), (0, 0)), constant_values=fill)
    inside = np.pad(np.ones(x.shape[:2]), ((t, b), (le, r)))
    oh = (xp.shape[0] - size[0]) // stride[0] + 1
    ow = (xp.shape[1] - size[1]) // stride[1] + 1
    out = np.zeros((oh, ow) + x.shape[2:])
    for i in range(oh):
        for j in range(ow):
            rows = slice(i * stride[0], i * stride[0] + size[0])
            cols = slice(j * stride[1], j * stride[1] + size[1])
            window = xp[rows, cols]
            if how == "max":
                out[i, j] = window.max(axis=(0, 1))
            elif how == "avg":
                out[i, j] = window.sum(axis=(0, 1)) / (size[0] * size[1])
            else:
                out[i, j] = window.sum(axis=(0, 1)) / inside[rows, cols].sum()
    return out


def data(shape, fmt: str) -> DlArray:
    return DlArray(RNG.standard_normal(shape), fmt)


def outputs(m, layer, x):
    return layer_outputs(m.interp, layer, [x])


# ------------------------------------------------------------------ construction


def test_max_pooling2d_defaults(m):
    layer = m.value("L = maxPooling2dLayer(2);", "L")
    v = layer.values
    np.testing.assert_array_equal(v["PoolSize"], [[2, 2]])
    np.testing.assert_array_equal(v["Stride"], [[1, 1]])
    assert to_str(v["PaddingMode"]) == "manual"
    np.testing.assert_array_equal(v["PaddingSize"], [[0, 0, 0, 0]])
    assert v["HasUnpoolingOutputs"] is False
    assert layer.description() == "2\u00d72 max pooling with stride [1  1] and padding [0  0  0  0]"
    assert layer.LAYER_TYPE == "2-D Max Pooling" and layer.DEFAULT_NAME == "maxpool"
    assert m.run("disp(class(L))", L=layer).strip() == "nnet.cnn.layer.MaxPooling2DLayer"


def test_pooling_options(m):
    layer = m.value("L = maxPooling2dLayer([3 2], 'Stride', 2, 'Padding', 'same', Name='p');", "L")
    np.testing.assert_array_equal(layer.values["PoolSize"], [[3, 2]])
    np.testing.assert_array_equal(layer.values["Stride"], [[2, 2]])
    assert layer.description() == "3\u00d72 max pooling with stride [2  2] and padding 'same'"
    assert to_str(layer.values["Name"]) == "p"
    layer = m.value("L = averagePooling2dLayer(2, Stride=2, Padding=1, PaddingValue='mean');", "L")
    np.testing.assert_array_equal(layer.values["PaddingSize"], [[1, 1, 1, 1]])
    assert to_str(layer.values["PaddingValue"]) == "mean"
    assert layer.description() == "2\u00d72 average pooling with stride [2  2] and padding [1  1  1  1]"
    assert layer.LAYER_TYPE == "2-D Average Pooling"
    layer = m.value("L = maxPooling1dLayer(3, Stride=2, Padding=[1 0]);", "L")
    assert layer.values["PoolSize"] == 3 and layer.values["Stride"] == 2
    np.testing.assert_array_equal(layer.values["PaddingSize"], [[1, 0]])
    assert layer.description() == "3 max pooling with stride 2 and padding [1  0]"
    layer = m.value("L = averagePooling1dLayer(2);", "L")
    assert layer.values["PaddingValue"] == 0 and layer.LAYER_TYPE == "1-D Average Pooling"


def test_global_layers(m):
    for name, cls, kind in [("globalAveragePooling2dLayer", "GlobalAveragePooling2DLayer", "2-D Global Average"),
                            ("globalAveragePooling1dLayer", "GlobalAveragePooling1DLayer", "1-D Global Average"),
                            ("globalMaxPooling2dLayer", "GlobalMaxPooling2DLayer", "2-D Global Max"),
                            ("globalMaxPooling1dLayer", "GlobalMaxPooling1DLayer", "1-D Global Max")]:
        layer = m.value(f"L = {name}(Name='g');", "L")
        assert to_str(layer.values["Name"]) == "g"
        assert m.run("disp(class(L))", L=layer).strip() == f"nnet.cnn.layer.{cls}"
        assert layer.LAYER_TYPE == f"{kind} Pooling"
        assert layer.description() == kind[:4] + kind[4:].lower() + " pooling"


# ------------------------------------------------------------------ forward


@pytest.mark.parametrize("code, how, size, stride, pads", [
    ("maxPooling2dLayer([2 3], Stride=[2 1], Padding=[1 0 1 1])", "max", (2, 3), (2, 1), ((1, 0), (1, 1))),
    ("averagePooling2dLayer(2, Stride=2, Padding=1)", "avg", (2, 2), (2, 2), ((1, 1), (1, 1))),
    ("averagePooling2dLayer(3, Padding=1, PaddingValue='mean')", "mean", (3, 3), (1, 1), ((1, 1), (1, 1))),
    ("maxPooling2dLayer(2, Stride=2, Padding='same')", "max", (2, 2), (2, 2), ((0, 1), (0, 0))),
])
def test_pooling2d_forward(m, code, how, size, stride, pads):
    x = data((5, 4, 2, 3), "SSCB")
    out = outputs(m, m.value(f"L = {code};", "L"), x)[0]
    assert out.fmt == "SSCB"
    np.testing.assert_allclose(out.data, pool_reference(x.data, size, stride, pads, how), rtol=1e-12)


def test_pooling1d_forward_image_and_sequence(m):
    x = data((6, 2, 3), "SCB")
    out = outputs(m, m.value("L = maxPooling1dLayer(2, Stride=2, Padding=[0 1]);", "L"), x)[0]
    expected = pool_reference(x.data[:, None], (2, 1), (2, 1), ((0, 1), (0, 0)), "max")[:, 0]
    assert out.fmt == "SCB"
    np.testing.assert_allclose(out.data, expected)
    x = data((2, 3, 5), "CBT")
    out = outputs(m, m.value("L = averagePooling1dLayer(3, Padding='same');", "L"), x)[0]
    as_image = np.transpose(x.data, (2, 0, 1))[:, None]  # T, 1, C, B
    expected = pool_reference(as_image, (3, 1), (1, 1), ((1, 1), (0, 0)), "avg")[:, 0]
    assert out.fmt == "CBT"
    np.testing.assert_allclose(out.data, np.transpose(expected, (1, 2, 0)))


def test_pooling2d_over_space_and_time(m):
    x = data((4, 2, 1, 6), "SCBT")
    out = outputs(m, m.value("L = maxPooling2dLayer(2, Stride=2);", "L"), x)[0]
    as_image = np.transpose(x.data, (0, 3, 1, 2))  # S, T, C, B
    expected = pool_reference(as_image, (2, 2), (2, 2), ((0, 0), (0, 0)), "max")
    np.testing.assert_allclose(out.data, np.transpose(expected, (0, 2, 3, 1)))


def test_global_forward(m):
    x = data((3, 4, 2, 2), "SSCB")
    out = outputs(m, m.value("L = globalAveragePooling2dLayer;", "L"), x)[0]
    assert out.fmt == "SSCB"
    np.testing.assert_allclose(out.data, x.data.mean(axis=(0, 1), keepdims=True))
    out = outputs(m, m.value("L = globalMaxPooling2dLayer;", "L"), x)[0]
    np.testing.assert_allclose(out.data, x.data.max(axis=(0, 1), keepdims=True))
    x = data((3, 2, 5), "CBT")
    out = outputs(m, m.value("L = globalAveragePooling1dLayer;", "L"), x)[0]
    assert out.fmt == "CB"
    np.testing.assert_allclose(out.data, x.data.mean(axis=2))
    out = outputs(m, m.value("L = globalMaxPooling1dLayer;", "L"), x)[0]
    assert out.fmt == "CB"
    np.testing.assert_allclose(out.data, x.data.max(axis=2))
    x = data((5, 3, 2), "SCB")
    out = outputs(m, m.value("L = globalMaxPooling1dLayer;", "L"), x)[0]
    assert out.fmt == "SCB"
    np.testing.assert_allclose(out.data, x.data.max(axis=0, keepdims=True))


def test_unpooling_outputs(m):
    layer = m.value("L = maxPooling2dLayer(2, Stride=2, HasUnpoolingOutputs=true);", "L")
    assert layer.output_names() == ["out", "indices", "size"]
    assert m.value("n = L.NumOutputs;", "n", L=layer) == 3
    assert m.run("disp(L.OutputNames)", L=layer).split() == ["{'out'}", "{'indices'}", "{'size'}"]
    assert m.value("n = L.NumOutputs;", "n", L=m.value("L = maxPooling2dLayer(2);", "L")) == 1
    x = data((4, 4, 1, 1), "SSCB")
    y, indices, size = layer.predict([x], ForwardContext(m.interp, False))
    flat = x.data.reshape(-1, order="F")
    np.testing.assert_allclose(flat[np.asarray(indices.data, dtype=int).reshape(-1, order="F") - 1],
                               y.data.reshape(-1, order="F"))
    np.testing.assert_array_equal(size, [[4, 4, 1, 1]])


# ------------------------------------------------------------------ gradients


@pytest.mark.parametrize("code, shape, fmt", [
    ("maxPooling2dLayer(2, Stride=1, Padding=[0 1 1 0])", (3, 3, 2, 1), "SSCB"),
    ("averagePooling2dLayer([2 1], Stride=2, Padding='same', PaddingValue='mean')", (3, 3, 1, 2), "SSCB"),
    ("maxPooling1dLayer(2)", (2, 2, 4), "CBT"),
    ("averagePooling1dLayer(2, Padding=1)", (4, 2, 2), "SCB"),
    ("globalAveragePooling2dLayer", (2, 3, 2, 2), "SSCB"),
    ("globalMaxPooling1dLayer", (2, 2, 3), "CBT"),
    ("globalAveragePooling1dLayer", (2, 2, 3), "CBT"),
])
def test_gradients(m, code, shape, fmt):
    check_layer_gradients(m.interp, m.value(f"L = {code};", "L"), [data(shape, fmt)])


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("code, identifier", [
    ("maxPooling2dLayer(0)", "MATLAB:expectedPositive"),
    ("maxPooling2dLayer([1 2 3])", "MATLAB:incorrectNumel"),
    ("maxPooling2dLayer()", "MATLAB:minrhs"),
    ("maxPooling2dLayer(2, 'Padding', 'causal')", "MATLAB:validators:mustBeMember"),
    ("maxPooling2dLayer(2, 'PaddingValue', 0)", "MATLAB:InputParser:UnmatchedParameter"),
    ("averagePooling2dLayer(2, 'PaddingValue', 1)", "MATLAB:validators:mustBeMember"),
    ("averagePooling1dLayer(2, 'PaddingValue', 'max')", "MATLAB:validators:mustBeMember"),
    ("maxPooling1dLayer(2, 'Stride', 0)", "MATLAB:expectedPositive"),
    ("globalAveragePooling2dLayer('Stride', 2)", "MATLAB:InputParser:UnmatchedParameter"),
    ("L = maxPooling2dLayer(2); L.PoolSize = 3", "MATLAB:class:SetProhibited"),
    ("L = maxPooling2dLayer(2); L.HasUnpoolingOutputs = true", "MATLAB:class:SetProhibited"),
])
def test_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier


def test_wrong_input_format(m):
    from mlang.errors import MatlabError

    with pytest.raises(MatlabError) as info:
        outputs(m, m.value("L = maxPooling2dLayer(2);", "L"), data((3, 2), "CB"))
    assert info.value.identifier == "nnet_cnn:internal:cnn:layer:InvalidInputFormat"


# ------------------------------------------------------------------ display


def test_display(m):
    pytest.importorskip("mlang.builtins.networks.layer_display")
    out = m.run("L = averagePooling2dLayer(2, 'Stride', 2)")
    expected = """\
  AveragePooling2DLayer with properties:

            Name: ''

   Hyperparameters
        PoolSize: [2 2]
          Stride: [2 2]
     PaddingMode: 'manual'
     PaddingSize: [0 0 0 0]
    PaddingValue: 0
"""
    assert expected in out
