"""Convolution layers: convolution1dLayer, convolution2dLayer, transposedConv1dLayer and
transposedConv2dLayer (defaults, options, initialisation, forward against NumPy loops,
gradients, descriptions, errors)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.values.core import to_str
from tests.builtins.networks.layer_checks import check_layer_gradients, initialized, layer_outputs

RNG = np.random.default_rng(3)


def conv_reference(x: np.ndarray, w: np.ndarray, b: np.ndarray, stride, dilation, pads) -> np.ndarray:
    """Direct-loop 2-D cross-correlation of x (H, W, C, N) with w (h, w, C, F)."""
    (t, bo), (le, r) = pads
    xp = np.pad(x, ((t, bo), (le, r), (0, 0), (0, 0)))
    h, wd, _, f = w.shape
    span_h, span_w = (h - 1) * dilation[0] + 1, (wd - 1) * dilation[1] + 1
    oh = (xp.shape[0] - span_h) // stride[0] + 1
    ow = (xp.shape[1] - span_w) // stride[1] + 1
    out = np.zeros((oh, ow, f, x.shape[3]))
    for i in range(oh):
        for j in range(ow):
            for p in range(h):
                for q in range(wd):
                    patch = xp[i * stride[0] + p * dilation[0], j * stride[1] + q * dilation[1]]  # C, N
                    out[i, j] += np.einsum("cn,cf->fn", patch, w[p, q])
    return out + b.reshape(1, 1, -1, 1)


def transposed_reference(x: np.ndarray, w: np.ndarray, b: np.ndarray, stride, crops) -> np.ndarray:
    """Direct-loop transposed 2-D convolution of x (H, W, C, N) with w (h, w, F, C)."""
    h, wd, f, _ = w.shape
    full = np.zeros(((x.shape[0] - 1) * stride[0] + h, (x.shape[1] - 1) * stride[1] + wd, f, x.shape[3]))
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            for p in range(h):
                for q in range(wd):
                    full[i * stride[0] + p, j * stride[1] + q] += np.einsum("cn,fc->fn", x[i, j], w[p, q])
    (t, bo), (le, r) = crops
    full = full[t:full.shape[0] - bo, le:full.shape[1] - r]
    return full + b.reshape(1, 1, -1, 1)


def data(shape, fmt: str) -> DlArray:
    return DlArray(RNG.standard_normal(shape), fmt)


# ------------------------------------------------------------------ construction


def test_convolution2d_defaults(m):
    layer = m.value("L = convolution2dLayer(3, 16);", "L")
    v = layer.values
    assert to_str(v["Name"]) == ""
    np.testing.assert_array_equal(v["FilterSize"], [[3, 3]])
    assert v["NumFilters"] == 16
    assert to_str(v["NumChannels"]) == "auto"
    np.testing.assert_array_equal(v["Stride"], [[1, 1]])
    np.testing.assert_array_equal(v["DilationFactor"], [[1, 1]])
    assert to_str(v["PaddingMode"]) == "manual"
    np.testing.assert_array_equal(v["PaddingSize"], [[0, 0, 0, 0]])
    assert v["PaddingValue"] == 0
    assert np.size(v["Weights"]) == 0 and np.size(v["Bias"]) == 0
    assert to_str(v["WeightsInitializer"]) == "glorot"
    assert to_str(v["BiasInitializer"]) == "zeros"
    assert v["WeightL2Factor"] == 1 and v["BiasL2Factor"] == 0
    assert m.run("disp(class(L))", L=layer).strip() == "nnet.cnn.layer.Convolution2DLayer"
    assert layer.LAYER_TYPE == "2-D Convolution" and layer.DEFAULT_NAME == "conv"


def test_convolution2d_options(m):
    layer = m.value("L = convolution2dLayer([2 3], 4, 'Stride', 2, 'Padding', 'same', "
                    "Name='c1', DilationFactor=[1 2], NumChannels=3);", "L")
    v = layer.values
    np.testing.assert_array_equal(v["FilterSize"], [[2, 3]])
    np.testing.assert_array_equal(v["Stride"], [[2, 2]])
    np.testing.assert_array_equal(v["DilationFactor"], [[1, 2]])
    assert to_str(v["PaddingMode"]) == "same" and to_str(v["Name"]) == "c1"
    assert v["NumChannels"] == 3
    pads = m.value("L = convolution2dLayer(3, 4, 'Padding', [1 2]); p = L.PaddingSize;", "p")
    np.testing.assert_array_equal(pads, [[1, 1, 2, 2]])
    pads = m.value("L = convolution2dLayer(3, 4, 'padding', [1 2 3 4]); p = L.PaddingSize;", "p")
    np.testing.assert_array_equal(pads, [[1, 2, 3, 4]])
    assert m.value("L = convolution2dLayer(3, 4); L.Stride = 3; s = L.Stride;", "s").tolist() == [[3, 3]]
    assert to_str(m.value("L = convolution2dLayer(3, 4); L.Name = \"x\"; n = L.Name;", "n")) == "x"


def test_convolution1d_defaults_and_causal(m):
    layer = m.value("L = convolution1dLayer(3, 8, Padding='causal');", "L")
    v = layer.values
    assert v["FilterSize"] == 3 and v["Stride"] == 1 and v["DilationFactor"] == 1
    assert to_str(v["PaddingMode"]) == "causal"
    np.testing.assert_array_equal(v["PaddingSize"], [[0, 0]])
    assert layer.description() == "8 3 convolutions with stride 1 and padding 'causal'"
    assert layer.LAYER_TYPE == "1-D Convolution"
    pads = m.value("L = convolution1dLayer(3, 8, Padding=[2 1]); p = L.PaddingSize;", "p")
    np.testing.assert_array_equal(pads, [[2, 1]])


def test_descriptions(m):
    layer = m.value("L = convolution2dLayer(5, 20);", "L")
    assert layer.description() == "20 5\u00d75 convolutions with stride [1  1] and padding [0  0  0  0]"
    layer = m.value("L = convolution2dLayer(3, 8, Padding='same', NumChannels=3);", "L")
    assert layer.description() == "8 3\u00d73\u00d73 convolutions with stride [1  1] and padding 'same'"
    layer = m.value("L = transposedConv2dLayer(4, 6, Stride=2, Cropping=1);", "L")
    assert layer.description() == ("6 4\u00d74 transposed convolutions with stride [2  2] and "
                                   "cropping [1  1  1  1]")
    layer = m.value("L = transposedConv1dLayer(3, 2, Cropping='same');", "L")
    assert layer.description() == "2 3 transposed convolutions with stride 1 and cropping 'same'"


def test_transposed_defaults(m):
    layer = m.value("L = transposedConv2dLayer([3 2], 5);", "L")
    v = layer.values
    assert to_str(v["CroppingMode"]) == "manual"
    np.testing.assert_array_equal(v["CroppingSize"], [[0, 0, 0, 0]])
    assert "DilationFactor" not in v and "PaddingMode" not in v
    assert layer.LAYER_TYPE == "2-D Transposed Convolution"
    assert to_str(m.value("L = transposedConv1dLayer(3, 5); c = class(L);", "c")) == \
        "nnet.cnn.layer.TransposedConvolution1DLayer"


# ------------------------------------------------------------------ initialisation


def test_initialize_glorot_single_and_reproducible(m):
    layer = m.value("L = convolution2dLayer([2 3], 4);", "L")
    x = DlArray(np.zeros((6, 7, 5, 1), dtype=np.float32), "SSCB")
    m.run("rng(0)")
    a = initialized(m.interp, layer, [x])
    m.run("rng(0)")
    b = initialized(m.interp, layer, [x])
    w = a.values["Weights"]
    assert w.shape == (2, 3, 5, 4) and w.dtype == np.float32
    np.testing.assert_array_equal(w, b.values["Weights"])
    bound = math.sqrt(6 / (6 * 5 + 6 * 4))
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.5 * bound
    assert a.values["Bias"].shape == (1, 1, 4) and not a.values["Bias"].any()
    assert a.values["NumChannels"] == 5
    assert a.description() == "4 2\u00d73\u00d75 convolutions with stride [1  1] and padding [0  0  0  0]"


def test_initialize_shapes_1d_and_transposed(m):
    x = DlArray(np.zeros((7, 3, 1)), "SCB")
    layer = initialized(m.interp, m.value("L = convolution1dLayer(2, 4);", "L"), [x])
    assert layer.values["Weights"].shape == (2, 3, 4) and layer.values["Bias"].shape == (1, 4)
    layer = initialized(m.interp, m.value("L = transposedConv1dLayer(2, 4);", "L"), [x])
    assert layer.values["Weights"].shape == (2, 4, 3) and layer.values["Bias"].shape == (1, 4)
    x = DlArray(np.zeros((5, 5, 3, 1)), "SSCB")
    layer = initialized(m.interp, m.value("L = transposedConv2dLayer(2, 4, WeightsInitializer='ones');",
                                          "L"), [x])
    assert layer.values["Weights"].shape == (2, 2, 4, 3) and layer.values["Weights"].all()


def test_given_weights_kept(m):
    layer = m.value("L = convolution2dLayer(2, 3, Weights=ones(2,2,1,3), Bias=[1 2 3]);", "L")
    x = DlArray(np.ones((3, 3, 1, 1)), "SSCB")
    out = layer_outputs(m.interp, layer, [x])[0]
    np.testing.assert_allclose(out.data, np.broadcast_to(np.array([5.0, 6.0, 7.0]), (2, 2, 3)))


# ------------------------------------------------------------------ forward


def test_convolution2d_forward(m):
    layer = m.value("L = convolution2dLayer([2 3], 4, Stride=[1 2], DilationFactor=[2 1], "
                    "Padding=[1 0 2 1], BiasInitializer='narrow-normal');", "L")
    x = data((5, 6, 2, 3), "SSCB")
    layer = initialized(m.interp, layer, [x])
    out = layer.predict([x], _ctx(m))[0]
    assert out.fmt == "SSCB"
    w, b = layer.values["Weights"].astype(float), layer.values["Bias"].astype(float)
    expected = conv_reference(x.data, w, b, (1, 2), (2, 1), ((1, 0), (2, 1)))
    np.testing.assert_allclose(out.data, expected, rtol=1e-5, atol=1e-5)


def test_convolution2d_same_padding_size(m):
    layer = m.value("L = convolution2dLayer(3, 2, Padding='same', Stride=2);", "L")
    out = layer_outputs(m.interp, layer, [data((5, 6, 1, 2), "SSCB")])[0]
    assert out.data.shape == (3, 3, 2, 2)


def test_convolution1d_forward_image_and_sequence(m):
    layer = m.value("L = convolution1dLayer(3, 2, Padding='causal', DilationFactor=2);", "L")
    x = data((4, 6, 2), "CBT")  # C, B, T: convolves over time
    layer = initialized(m.interp, layer, [x])
    out = layer.predict([x], _ctx(m))[0]
    assert out.fmt == "CBT" and out.data.shape == (2, 6, 2)
    w, b = layer.values["Weights"].astype(float), layer.values["Bias"].astype(float)
    as_image = np.transpose(x.data, (2, 0, 1))[:, None]  # T, 1, C, B
    expected = conv_reference(as_image, w[:, None], b, (1, 1), (2, 1), ((4, 0), (0, 0)))
    np.testing.assert_allclose(out.data, np.transpose(expected[:, 0], (1, 2, 0)), rtol=1e-5, atol=1e-5)

    layer = m.value("L = convolution1dLayer(2, 3, Stride=2, Padding=[1 0]);", "L")
    x = data((7, 2, 2), "SCB")
    layer = initialized(m.interp, layer, [x])
    out = layer.predict([x], _ctx(m))[0]
    w, b = layer.values["Weights"].astype(float), layer.values["Bias"].astype(float)
    expected = conv_reference(x.data[:, None], w[:, None], b, (2, 1), (1, 1), ((1, 0), (0, 0)))
    assert out.fmt == "SCB"
    np.testing.assert_allclose(out.data, expected[:, 0], rtol=1e-5, atol=1e-5)


def test_convolution2d_over_space_and_time(m):
    layer = m.value("L = convolution2dLayer([2 2], 3);", "L")
    x = data((4, 2, 1, 5), "SCBT")
    layer = initialized(m.interp, layer, [x])
    out = layer.predict([x], _ctx(m))[0]
    assert out.fmt == "SCBT" and out.data.shape == (3, 3, 1, 4)
    w, b = layer.values["Weights"].astype(float), layer.values["Bias"].astype(float)
    as_image = np.transpose(x.data, (0, 3, 1, 2))  # S, T, C, B
    expected = conv_reference(as_image, w, b, (1, 1), (1, 1), ((0, 0), (0, 0)))
    np.testing.assert_allclose(out.data, np.transpose(expected, (0, 2, 3, 1)), rtol=1e-5, atol=1e-5)


def test_transposed_forward(m):
    layer = m.value("L = transposedConv2dLayer([3 2], 2, Stride=[2 1], Cropping=[1 0 0 1], "
                    "BiasInitializer='ones');", "L")
    x = data((3, 4, 3, 2), "SSCB")
    layer = initialized(m.interp, layer, [x])
    out = layer.predict([x], _ctx(m))[0]
    w, b = layer.values["Weights"].astype(float), layer.values["Bias"].astype(float)
    expected = transposed_reference(x.data, w, b, (2, 1), ((1, 0), (0, 1)))
    np.testing.assert_allclose(out.data, expected, rtol=1e-5, atol=1e-5)
    layer = m.value("L = transposedConv2dLayer(3, 2, Stride=2, Cropping='same');", "L")
    assert layer_outputs(m.interp, layer, [x])[0].data.shape == (6, 8, 2, 2)


def test_transposed_1d_forward(m):
    layer = m.value("L = transposedConv1dLayer(3, 2, Stride=2);", "L")
    x = data((4, 3, 2), "SCB")
    layer = initialized(m.interp, layer, [x])
    out = layer.predict([x], _ctx(m))[0]
    w, b = layer.values["Weights"].astype(float), layer.values["Bias"].astype(float)
    expected = transposed_reference(x.data[:, None], w[:, None], b, (2, 1), ((0, 0), (0, 0)))
    np.testing.assert_allclose(out.data, expected[:, 0], rtol=1e-5, atol=1e-5)


# ------------------------------------------------------------------ gradients


@pytest.mark.parametrize("code, shape, fmt", [
    ("convolution2dLayer([2 3], 2, Stride=[2 1], Padding=[1 0 0 1], BiasInitializer='narrow-normal')",
     (4, 4, 2, 2), "SSCB"),
    ("convolution2dLayer(2, 2, Padding='same', PaddingValue='replicate')", (3, 3, 1, 2), "SSCB"),
    ("convolution1dLayer(2, 3, Padding='causal', DilationFactor=2)", (2, 2, 4), "CBT"),
    ("convolution1dLayer(3, 2, Padding='same')", (4, 2, 2), "SCB"),
    ("transposedConv2dLayer(2, 2, Stride=2, Cropping=[1 0 0 1])", (2, 3, 2, 2), "SSCB"),
    ("transposedConv1dLayer(3, 2, Cropping='same')", (3, 2, 2), "SCB"),
    ("convolution2dLayer(2, 2, Stride=[1 2])", (3, 2, 1, 4), "SCBT"),
    ("transposedConv2dLayer([2 1], 2)", (2, 2, 1, 3), "SCBT"),
    ("transposedConv1dLayer(2, 2, Stride=2)", (2, 1, 3), "CBT"),
])
def test_gradients(m, code, shape, fmt):
    layer = m.value(f"L = {code};", "L")
    check_layer_gradients(m.interp, layer, [data(shape, fmt)])


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("code, identifier", [
    ("convolution2dLayer(0, 3)", "MATLAB:expectedPositive"),
    ("convolution2dLayer(2.5, 3)", "MATLAB:expectedInteger"),
    ("convolution2dLayer([1 2 3], 3)", "MATLAB:incorrectNumel"),
    ("convolution2dLayer(3, 'a')", "MATLAB:invalidType"),
    ("convolution2dLayer(3)", "MATLAB:minrhs"),
    ("convolution2dLayer(3, 2, 'Padding', 'causal')", "MATLAB:validators:mustBeMember"),
    ("convolution2dLayer(3, 2, 'Padding', [1 2 3])", "MATLAB:incorrectNumel"),
    ("convolution2dLayer(3, 2, 'Padding', -1)", "MATLAB:expectedNonnegative"),
    ("convolution2dLayer(3, 2, 'Bogus', 1)", "MATLAB:InputParser:UnmatchedParameter"),
    ("convolution2dLayer(3, 2, 'Stride')", "MATLAB:InputParser:ParamMissingValue"),
    ("convolution2dLayer(3, 2, 'WeightsInitializer', 'bad')", "MATLAB:validators:mustBeMember"),
    ("convolution2dLayer(3, 2, 'PaddingValue', 'mean')", "MATLAB:validators:mustBeMember"),
    ("convolution1dLayer(3, 2, 'Stride', [1 2])", "MATLAB:incorrectNumel"),
    ("L = convolution2dLayer(3, 2); L.FilterSize = 4", "MATLAB:class:SetProhibited"),
    ("L = convolution2dLayer(3, 2); L.PaddingSize = 1", "MATLAB:class:SetProhibited"),
    ("L = convolution2dLayer(3, 2); L.Name = 3", "MATLAB:invalidType"),
])
def test_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier


def test_initialize_errors(m):
    from mlang.errors import MatlabError

    layer = m.value("L = convolution2dLayer(2, 3, NumChannels=4);", "L")
    with pytest.raises(MatlabError) as info:
        initialized(m.interp, layer, [DlArray(np.zeros((3, 3, 2, 1)), "SSCB")])
    assert info.value.identifier == "nnet_cnn:internal:cnn:layer:InvalidNumChannels"
    layer = m.value("L = convolution2dLayer(2, 3);", "L")
    with pytest.raises(MatlabError) as info:
        initialized(m.interp, layer, [DlArray(np.zeros((3, 2, 1)), "CBT")])
    assert info.value.identifier == "nnet_cnn:internal:cnn:layer:InvalidInputFormat"
    layer = m.value("L = convolution2dLayer(2, 3, Weights=ones(2,2,2,2));", "L")
    with pytest.raises(MatlabError) as info:
        initialized(m.interp, layer, [DlArray(np.zeros((3, 3, 2, 1)), "SSCB")])
    assert info.value.identifier == "nnet_cnn:internal:cnn:layer:InvalidWeightsSize"


def _ctx(m):
    from mlang.builtins.networks.layer import ForwardContext

    return ForwardContext(m.interp, training=False)


# ------------------------------------------------------------------ display


def test_display(m):
    pytest.importorskip("mlang.builtins.networks.layer_display")
    out = m.run("L = convolution2dLayer(3, 16, 'Padding', 'same', 'Name', 'conv1')")
    expected = """\
  Convolution2DLayer with properties:

              Name: 'conv1'

   Hyperparameters
        FilterSize: [3 3]
       NumChannels: 'auto'
        NumFilters: 16
            Stride: [1 1]
    DilationFactor: [1 1]
       PaddingMode: 'same'
       PaddingSize: [0 0 0 0]
      PaddingValue: 0

   Learnable Parameters
           Weights: []
              Bias: []
"""
    assert expected in out


def test_given_bias_takes_matlab_shape(m):
    layer = m.value("L = convolution2dLayer(1, 3, Bias=[1 2 3], Weights=ones(1,1,2,3));", "L")
    assert layer.values["Weights"].dtype == np.float64  # given weights keep their class
    layer = initialized(m.interp, layer, [DlArray(np.ones((2, 2, 2, 1)), "SSCB")])
    assert layer.values["Bias"].shape == (1, 1, 3)
    layer = m.value("L = convolution1dLayer(1, 2, Bias=int8([1; 2]));", "L")
    assert layer.values["Bias"].dtype == np.float32
    layer = initialized(m.interp, layer, [DlArray(np.ones((3, 2, 1)), "SCB")])
    assert layer.values["Bias"].shape == (1, 2)
