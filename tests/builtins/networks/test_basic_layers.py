"""fullyConnectedLayer, the activation layers, dropoutLayer and flattenLayer: defaults,
options, initialisation (rng reproducibility, Glorot bound, single precision), forward
against NumPy, gradients, descriptions and errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import erf

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.networks.layer import ForwardContext
from mlang.values.core import to_str
from tests.builtins.networks.layer_checks import check_layer_gradients, initialized, layer_outputs

RNG = np.random.default_rng(5)


def data(shape, fmt: str) -> DlArray:
    return DlArray(RNG.standard_normal(shape), fmt)


# ------------------------------------------------------------------ fully connected


def test_fully_connected_defaults(m):
    layer = m.value("L = fullyConnectedLayer(10);", "L")
    v = layer.values
    assert to_str(v["Name"]) == "" and v["OutputSize"] == 10
    assert to_str(v["InputSize"]) == "auto"
    assert np.size(v["Weights"]) == 0 and np.size(v["Bias"]) == 0
    assert to_str(v["WeightsInitializer"]) == "glorot" and to_str(v["BiasInitializer"]) == "zeros"
    assert v["WeightLearnRateFactor"] == 1 and v["BiasLearnRateFactor"] == 1
    assert v["WeightL2Factor"] == 1 and v["BiasL2Factor"] == 0
    assert m.run("disp(class(L))", L=layer).strip() == "nnet.cnn.layer.FullyConnectedLayer"
    assert layer.LAYER_TYPE == "Fully Connected" and layer.DEFAULT_NAME == "fc"
    assert layer.description() == "10 fully connected layer"
    assert layer.LEARNABLES == ("Weights", "Bias")


def test_fully_connected_options(m):
    layer = m.value("L = fullyConnectedLayer(4, 'Name', 'fc1', WeightsInitializer='he', "
                    "BiasInitializer='ones', WeightLearnRateFactor=2, BiasL2Factor=0.5);", "L")
    v = layer.values
    assert to_str(v["Name"]) == "fc1" and to_str(v["WeightsInitializer"]) == "he"
    assert to_str(v["BiasInitializer"]) == "ones"
    assert v["WeightLearnRateFactor"] == 2 and v["BiasL2Factor"] == 0.5
    assert m.run("L.Name = \"other\"; disp(L.Name)", L=layer).strip() == "other"
    assert m.run("L.WeightL2Factor = 3; disp(L.WeightL2Factor)", L=layer).strip() == "3"


def test_fully_connected_forward_matches_numpy(m, ):
    w = RNG.standard_normal((3, 4))
    b = RNG.standard_normal((3, 1))
    layer = m.value("L = fullyConnectedLayer(3, Weights=W, Bias=b);", "L", W=w, b=b)
    x = data((4, 5), "CB")
    (y,) = layer_outputs(m.interp, layer, [x])
    assert y.fmt == "CB"
    np.testing.assert_allclose(y.data, w @ x.data + b, rtol=1e-12)


def test_fully_connected_flattens_spatial_and_channel(m):
    layer = m.value("L = fullyConnectedLayer(2);", "L")
    x = data((2, 3, 2, 4), "SSCB")
    ready = initialized(m.interp, layer, [x])
    assert ready.values["InputSize"] == 12
    assert ready.values["Weights"].shape == (2, 12)
    (y,) = ready.predict([x], ForwardContext(m.interp, False))
    expected = ready.values["Weights"].astype(np.float64) @ x.data.reshape(12, 4, order="F")
    np.testing.assert_allclose(y.data, expected + ready.values["Bias"], rtol=1e-6)
    assert y.fmt == "CB"


def test_fully_connected_sequence_input(m):
    layer = m.value("L = fullyConnectedLayer(2);", "L")
    x = data((3, 2, 4), "CBT")
    (y,) = layer_outputs(m.interp, layer, [x])
    assert y.fmt == "CBT" and y.data.shape == (2, 2, 4)


def test_fully_connected_gradients(m):
    layer = m.value("L = fullyConnectedLayer(3);", "L")
    check_layer_gradients(m.interp, layer, [data((4, 2), "CB")])


def test_fully_connected_initialisation_is_reproducible_single_and_bounded(m):
    layer = m.value("L = fullyConnectedLayer(20);", "L")
    x = DlArray(np.zeros((30, 1), dtype=np.float32), "CB")
    m.run("rng(0)")
    first = initialized(m.interp, layer, [x])
    m.run("rng(0)")
    second = initialized(m.interp, layer, [x])
    w1, w2 = first.values["Weights"], second.values["Weights"]
    assert w1.dtype == np.float32 and first.values["Bias"].dtype == np.float32
    np.testing.assert_array_equal(w1, w2)
    bound = math.sqrt(6 / (30 + 20))
    assert np.abs(w1).max() <= bound and np.abs(w1).max() > 0.8 * bound
    np.testing.assert_array_equal(first.values["Bias"], np.zeros((20, 1), dtype=np.float32))
    # the same draw as MATLAB code would make: bound*(2*rand(20, 30) - 1)
    drawn = m.value("rng(0); r = rand(20, 30);", "r")
    np.testing.assert_allclose(w1, (bound * (2 * drawn - 1)).astype(np.float32), rtol=1e-6)


def test_fully_connected_initializers(m):
    x = DlArray(np.zeros((5, 1), dtype=np.float32), "CB")
    ones = initialized(m.interp, m.value("L = fullyConnectedLayer(2, WeightsInitializer='ones', "
                                         "BiasInitializer='ones');", "L"), [x])
    np.testing.assert_array_equal(ones.values["Weights"], np.ones((2, 5)))
    np.testing.assert_array_equal(ones.values["Bias"], np.ones((2, 1)))
    custom = initialized(m.interp, m.value("L = fullyConnectedLayer(2, "
                                           "WeightsInitializer=@(sz) 3*ones(sz));", "L"), [x])
    np.testing.assert_array_equal(custom.values["Weights"], 3 * np.ones((2, 5)))
    orth = initialized(m.interp, m.value("L = fullyConnectedLayer(3, WeightsInitializer="
                                         "'orthogonal');", "L"), [x])
    w = orth.values["Weights"].astype(np.float64)
    np.testing.assert_allclose(w @ w.T, np.eye(3), atol=1e-5)


def test_fully_connected_keeps_given_weights(m):
    layer = m.value("L = fullyConnectedLayer(2, Weights=ones(2, 3), Bias=[1; 2]);", "L")
    ready = initialized(m.interp, layer, [data((3, 1), "CB")])
    np.testing.assert_array_equal(ready.values["Weights"], np.ones((2, 3)))
    assert ready.values["InputSize"] == 3


def test_fully_connected_errors(m):
    assert m.fails("fullyConnectedLayer(0)").identifier == "MATLAB:validators:mustBePositiveInteger"
    assert m.fails("fullyConnectedLayer(2.5)").identifier == "MATLAB:validators:mustBePositiveInteger"
    assert m.fails("fullyConnectedLayer('a')").identifier == "MATLAB:validators:mustBePositiveInteger"
    err = m.fails("fullyConnectedLayer(2, 'Bogus', 1)")
    assert err.identifier == "MATLAB:InputParser:UnmatchedParameter" and "'Bogus'" in err.message
    assert m.fails("fullyConnectedLayer(2, 'Name')").identifier == "MATLAB:InputParser:ParamMissingValue"
    assert m.fails("fullyConnectedLayer(2, WeightsInitializer='bad')").identifier == \
        "MATLAB:validators:mustBeMember"
    assert m.fails("fullyConnectedLayer(2, Name=3)").identifier == "MATLAB:validators:mustBeTextScalar"
    assert m.fails("fullyConnectedLayer(2, WeightL2Factor=-1)").identifier == \
        "MATLAB:validators:mustBeNonnegative"
    err = m.fails("L = fullyConnectedLayer(2); L.OutputSize = 3;")
    assert err.identifier == "MATLAB:class:SetProhibited" and "'OutputSize'" in err.message
    assert m.fails("L = fullyConnectedLayer(2); L.Nope = 3;").identifier == "MATLAB:noPublicFieldForClass"
    assert m.fails("L = fullyConnectedLayer(2); L.Nope").identifier == "MATLAB:noSuchMethodOrField"


def test_fully_connected_size_mismatch_errors(m):
    layer = m.value("L = fullyConnectedLayer(2, Weights=ones(2, 3));", "L")
    with pytest.raises(Exception) as info:
        initialized(m.interp, layer, [data((4, 1), "CB")])
    assert info.value.identifier == "deep:layer:InvalidWeightsSize"


# ------------------------------------------------------------------ activations


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


ACTIVATIONS = [
    ("reluLayer", lambda x: np.maximum(x, 0), "nnet.cnn.layer.ReLULayer", "ReLU", "ReLU", "relu"),
    ("leakyReluLayer", lambda x: np.where(x > 0, x, 0.01 * x), "nnet.cnn.layer.LeakyReLULayer",
     "Leaky ReLU", "Leaky ReLU with scale 0.01", "leakyrelu"),
    ("leakyReluLayer(0.2)", lambda x: np.where(x > 0, x, 0.2 * x), "nnet.cnn.layer.LeakyReLULayer",
     "Leaky ReLU", "Leaky ReLU with scale 0.2", "leakyrelu"),
    ("eluLayer", lambda x: np.where(x > 0, x, np.exp(x) - 1), "nnet.cnn.layer.ELULayer", "ELU",
     "ELU with Alpha 1", "elu"),
    ("eluLayer(0.5)", lambda x: np.where(x > 0, x, 0.5 * (np.exp(x) - 1)), "nnet.cnn.layer.ELULayer",
     "ELU", "ELU with Alpha 0.5", "elu"),
    ("tanhLayer", np.tanh, "nnet.cnn.layer.TanhLayer", "Tanh", "Hyperbolic tangent", "tanh"),
    ("sigmoidLayer", _sigmoid, "nnet.cnn.layer.SigmoidLayer", "Sigmoid", "sigmoid", "sigmoid"),
    ("swishLayer", lambda x: x * _sigmoid(x), "nnet.cnn.layer.SwishLayer", "Swish", "Swish", "swish"),
    ("geluLayer", lambda x: 0.5 * x * (1 + erf(x / np.sqrt(2))), "nnet.cnn.layer.GELULayer", "GELU",
     "GELU", "gelu"),
    ("geluLayer(Approximation='tanh')",
     lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))),
     "nnet.cnn.layer.GELULayer", "GELU", "GELU", "gelu"),
    ("softmaxLayer", lambda x: np.exp(x) / np.exp(x).sum(axis=0, keepdims=True),
     "nnet.cnn.layer.SoftmaxLayer", "Softmax", "softmax", "softmax"),
]


@pytest.mark.parametrize(("code", "reference", "cls", "kind", "description", "default_name"),
                         ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
def test_activation_layers(m, code, reference, cls, kind, description, default_name):
    layer = m.value(f"L = {code};", "L")
    assert layer.matlab_class == cls and layer.LAYER_TYPE == kind
    assert layer.description() == description and layer.DEFAULT_NAME == default_name
    assert layer.LEARNABLES == () and layer.input_names() == ["in"]
    x = data((3, 4), "CB")
    (y,) = layer_outputs(m.interp, layer, [x])
    assert y.fmt == "CB"
    np.testing.assert_allclose(y.data, reference(x.data), rtol=1e-10, atol=1e-12)
    check_layer_gradients(m.interp, layer, [data((3, 2), "CB")])


def test_activation_options_and_names(m):
    assert to_str(m.value("L = reluLayer(Name='r');", "L").values["Name"]) == "r"
    assert m.value("L = leakyReluLayer(0.3, 'Name', 'k');", "L").values["Scale"] == 0.3
    assert m.value("L = eluLayer(2);", "L").values["Alpha"] == 2
    assert to_str(m.value("L = geluLayer;", "L").values["Approximation"]) == "none"
    assert m.fails("reluLayer('Scale', 2)").identifier == "MATLAB:InputParser:UnmatchedParameter"
    assert m.fails("geluLayer(Approximation='fast')").identifier == "MATLAB:validators:mustBeMember"
    assert m.fails("L = leakyReluLayer; L.Scale = 2;").identifier == "MATLAB:class:SetProhibited"


def test_activations_keep_spatial_format(m):
    layer = m.value("L = reluLayer;", "L")
    x = data((2, 2, 3, 2), "SSCB")
    (y,) = layer_outputs(m.interp, layer, [x])
    assert y.fmt == "SSCB"
    np.testing.assert_array_equal(y.data, np.maximum(x.data, 0))


# ------------------------------------------------------------------ dropout and flatten


def test_dropout_layer(m):
    layer = m.value("L = dropoutLayer;", "L")
    assert layer.values["Probability"] == 0.5 and layer.description() == "50% dropout"
    assert layer.LAYER_TYPE == "Dropout" and layer.matlab_class == "nnet.cnn.layer.DropoutLayer"
    assert m.value("L = dropoutLayer(0.2, Name='d');", "L").description() == "20% dropout"
    x = DlArray(np.ones((50, 40)), "CB")
    (same,) = layer_outputs(m.interp, layer, [x])
    np.testing.assert_array_equal(same.data, x.data)
    m.run("rng(1)")
    (dropped,) = layer_outputs(m.interp, layer, [x], training=True)
    values = set(np.unique(dropped.data).tolist())
    assert values == {0.0, 2.0}
    assert 0.4 < (dropped.data == 0).mean() < 0.6
    m.run("rng(1)")
    (again,) = layer_outputs(m.interp, layer, [x], training=True)
    np.testing.assert_array_equal(again.data, dropped.data)
    mask = m.value("rng(1); k = rand(50, 40) >= 0.5;", "k")
    np.testing.assert_array_equal(dropped.data, 2.0 * mask)
    assert m.fails("dropoutLayer(1)").identifier == "MATLAB:validators:mustBeInRange"


def test_dropout_gradients_in_training(m):
    layer = m.value("L = dropoutLayer(0.3);", "L")
    m.run("rng(2)")
    # each evaluation draws a fresh mask: check prediction (identity) instead
    check_layer_gradients(m.interp, layer, [data((3, 2), "CB")])


def test_flatten_layer(m):
    layer = m.value("L = flattenLayer;", "L")
    assert layer.LAYER_TYPE == "Flatten" and layer.description() == "Flatten"
    x = data((2, 3, 2, 4), "SSCB")
    (y,) = layer_outputs(m.interp, layer, [x])
    assert y.fmt == "CB"
    np.testing.assert_array_equal(y.data, x.data.reshape(12, 4, order="F"))
    seq = data((2, 2, 3, 2, 5), "SSCBT")
    (z,) = layer_outputs(m.interp, layer, [seq])
    assert z.fmt == "CBT" and z.data.shape == (12, 2, 5)
    check_layer_gradients(m.interp, layer, [data((2, 2, 2, 2), "SSCB")])
