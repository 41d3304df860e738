"""Normalisation layers: batch, layer, group and instance normalisation (defaults, options,
initialisation, forward and training passes against NumPy, gradients, errors)."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.networks.layer import ForwardContext
from mlang.errors import MatlabError
from mlang.values.core import to_str
from tests.builtins.networks.layer_checks import check_layer_gradients, initialized, layer_outputs

RNG = np.random.default_rng(11)
EPS = 1e-5


def data(shape, fmt: str) -> DlArray:
    return DlArray(RNG.standard_normal(shape) * 2 + 1, fmt)


def normalized(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    mu = x.mean(axis=axes, keepdims=True)
    return (x - mu) / np.sqrt(x.var(axis=axes, keepdims=True) + EPS)


def with_parameters(m, code: str, x: DlArray):
    """The layer of ``code`` initialised for ``x`` with random Offset and Scale."""
    layer = initialized(m.interp, m.value(f"L = {code};", "L"), [x])
    shape = layer.values["Offset"].shape
    return layer.copy(Offset=RNG.standard_normal(shape).astype(np.float32),
                      Scale=RNG.standard_normal(shape).astype(np.float32))


def channel_view(p: np.ndarray, ndim: int, c: int) -> np.ndarray:
    shape = [1] * ndim
    shape[c] = p.size
    return p.astype(np.float64).reshape(shape, order="F")


# ------------------------------------------------------------------ construction


def test_batch_normalization_defaults(m):
    layer = m.value("L = batchNormalizationLayer;", "L")
    v = layer.values
    assert to_str(v["Name"]) == "" and to_str(v["NumChannels"]) == "auto"
    assert v["MeanDecay"] == 0.1 and v["VarianceDecay"] == 0.1 and v["Epsilon"] == 1e-5
    for name in ("Offset", "Scale", "TrainedMean", "TrainedVariance"):
        assert np.size(v[name]) == 0
    assert to_str(v["OffsetInitializer"]) == "zeros" and to_str(v["ScaleInitializer"]) == "ones"
    assert layer.LEARNABLES == ("Offset", "Scale")
    assert layer.STATES == ("TrainedMean", "TrainedVariance")
    assert layer.LAYER_TYPE == "Batch Normalization" and layer.DEFAULT_NAME == "batchnorm"
    assert layer.description() == "Batch normalization"
    assert m.run("disp(class(L))", L=layer).strip() == "nnet.cnn.layer.BatchNormalizationLayer"


def test_batch_normalization_options(m):
    layer = m.value("L = batchNormalizationLayer('Name', 'bn', 'MeanDecay', 0.3, Epsilon=1e-3, "
                    "ScaleInitializer='zeros', TrainedMean=[1 2 3]);", "L")
    v = layer.values
    assert to_str(v["Name"]) == "bn" and v["MeanDecay"] == 0.3 and v["Epsilon"] == 1e-3
    x = DlArray(np.zeros((2, 2, 3, 1)), "SSCB")
    layer = initialized(m.interp, layer, [x])
    assert layer.values["TrainedMean"].shape == (1, 1, 3)
    np.testing.assert_array_equal(layer.values["TrainedMean"].reshape(-1), [1, 2, 3])
    np.testing.assert_array_equal(layer.values["TrainedVariance"], np.ones((1, 1, 3)))
    assert not layer.values["Scale"].any() and layer.values["Scale"].dtype == np.float32
    assert layer.description() == "Batch normalization with 3 channels"
    assert m.value("L = batchNormalizationLayer; L.Epsilon = 0.01; e = L.Epsilon;", "e") == 0.01


def test_parameter_shapes_follow_input(m):
    for shape, fmt, expected in [((4, 2), "CB", (4, 1)), ((4, 2, 3), "CBT", (4, 1)),
                                 ((5, 4, 2), "SCB", (1, 4)), ((3, 3, 4, 1), "SSCB", (1, 1, 4))]:
        layer = initialized(m.interp, m.value("L = layerNormalizationLayer;", "L"),
                            [DlArray(np.zeros(shape), fmt)])
        assert layer.values["Offset"].shape == expected and layer.values["Scale"].shape == expected


def test_other_normalization_defaults(m):
    layer = m.value("L = layerNormalizationLayer(Epsilon=1e-4);", "L")
    assert to_str(layer.values["OperationDimension"]) == "auto" and layer.values["Epsilon"] == 1e-4
    assert layer.LAYER_TYPE == "Layer Normalization" and layer.description() == "Layer normalization"
    layer = m.value("L = groupNormalizationLayer(2);", "L")
    assert layer.values["NumGroups"] == 2 and layer.LAYER_TYPE == "Group Normalization"
    layer = initialized(m.interp, layer, [DlArray(np.zeros((2, 2, 6, 1)), "SSCB")])
    assert layer.description() == "Group normalization with 6 channels split into 2 groups"
    layer = m.value("L = groupNormalizationLayer(\"channel-wise\");", "L")
    assert to_str(layer.values["NumGroups"]) == "channel-wise"
    layer = m.value("L = instanceNormalizationLayer;", "L")
    assert layer.LAYER_TYPE == "Instance Normalization"


# ------------------------------------------------------------------ forward


def test_batch_normalization_predict_uses_trained_statistics(m):
    x = data((3, 2, 4, 5), "SSCB")
    layer = with_parameters(m, "batchNormalizationLayer", x)
    mean = RNG.standard_normal((1, 1, 4)).astype(np.float32)
    variance = RNG.uniform(0.5, 2, (1, 1, 4)).astype(np.float32)
    layer = layer.copy(TrainedMean=mean, TrainedVariance=variance)
    out = layer.predict([x], ForwardContext(m.interp, False))[0]
    v = layer.values
    expected = ((x.data - channel_view(mean, 4, 2)) / np.sqrt(channel_view(variance, 4, 2) + EPS)
                * channel_view(v["Scale"], 4, 2) + channel_view(v["Offset"], 4, 2))
    assert out.fmt == "SSCB"
    np.testing.assert_allclose(out.data, expected, rtol=1e-5, atol=1e-6)


def test_batch_normalization_training_pass(m):
    x = data((3, 6), "CB")
    layer = with_parameters(m, "batchNormalizationLayer(MeanDecay=0.2, VarianceDecay=0.3)", x)
    layer = layer.copy(TrainedMean=np.full((3, 1), 0.5, np.float32),
                       TrainedVariance=np.full((3, 1), 2.0, np.float32))
    outs, states = layer.forward([x], ForwardContext(m.interp, True))
    v = layer.values
    expected = normalized(x.data, (1,)) * v["Scale"].astype(float) + v["Offset"].astype(float)
    np.testing.assert_allclose(outs[0].data, expected, rtol=1e-5, atol=1e-6)
    mu = x.data.mean(axis=1, keepdims=True)
    unbiased = x.data.var(axis=1, ddof=1, keepdims=True)
    np.testing.assert_allclose(states["TrainedMean"], 0.2 * mu + 0.8 * 0.5, rtol=1e-5)
    np.testing.assert_allclose(states["TrainedVariance"], 0.3 * unbiased + 0.7 * 2.0, rtol=1e-5)
    assert states["TrainedMean"].shape == (3, 1)


@pytest.mark.parametrize("code, shape, fmt, axes", [
    ("layerNormalizationLayer", (3, 2, 4, 2), "SSCB", (0, 1, 2)),
    ("layerNormalizationLayer", (4, 2, 3), "CBT", (0,)),
    ("layerNormalizationLayer(OperationDimension='channel-only')", (3, 2, 4, 2), "SSCB", (2,)),
    ("instanceNormalizationLayer", (3, 4, 2, 2), "SSCB", (0, 1)),
])
def test_layer_and_instance_forward(m, code, shape, fmt, axes):
    x = data(shape, fmt)
    layer = with_parameters(m, code, x)
    out = layer.predict([x], ForwardContext(m.interp, False))[0]
    c = fmt.index("C")
    v = layer.values
    expected = (normalized(x.data, axes) * channel_view(v["Scale"], len(shape), c)
                + channel_view(v["Offset"], len(shape), c))
    np.testing.assert_allclose(out.data, expected, rtol=1e-5, atol=1e-6)


def test_group_normalization_forward(m):
    x = data((2, 3, 6, 2), "SSCB")
    layer = with_parameters(m, "groupNormalizationLayer(3)", x)
    out = layer.predict([x], ForwardContext(m.interp, False))[0]
    grouped = x.data.reshape(2, 3, 2, 3, 2, order="F")  # channels within a group, then groups
    expected = normalized(grouped, (0, 1, 2)).reshape(x.data.shape, order="F")
    v = layer.values
    expected = expected * channel_view(v["Scale"], 4, 2) + channel_view(v["Offset"], 4, 2)
    np.testing.assert_allclose(out.data, expected, rtol=1e-5, atol=1e-6)
    for groups, axes in [("'all-channels'", (0, 1, 2)), ("'channel-wise'", (0, 1))]:
        out = layer_outputs(m.interp, m.value(f"L = groupNormalizationLayer({groups});", "L"), [x])[0]
        np.testing.assert_allclose(out.data, normalized(x.data, axes), rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------ gradients


@pytest.mark.parametrize("code, shape, fmt, training", [
    ("batchNormalizationLayer", (2, 2, 3, 2), "SSCB", False),
    ("batchNormalizationLayer", (2, 2, 3, 2), "SSCB", True),
    ("batchNormalizationLayer", (3, 4), "CB", True),
    ("layerNormalizationLayer", (3, 2, 2), "CBT", False),
    ("layerNormalizationLayer", (2, 2, 3, 2), "SSCB", False),
    ("groupNormalizationLayer(2)", (2, 2, 4, 2), "SSCB", False),
    ("instanceNormalizationLayer", (3, 2, 2, 2), "SSCB", False),
])
def test_gradients(m, code, shape, fmt, training):
    x = data(shape, fmt)
    layer = with_parameters(m, code, x)
    if "TrainedVariance" in layer.values:  # double states, so the finite differences are in double
        shape = layer.values["TrainedVariance"].shape
        layer = layer.copy(TrainedMean=np.full(shape, 0.25), TrainedVariance=np.full(shape, 1.5))
    check_layer_gradients(m.interp, layer, [x], training=training, rtol=1e-4, atol=1e-6)


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("code, identifier", [
    ("batchNormalizationLayer('MeanDecay', 2)", "MATLAB:notLessEqual"),
    ("batchNormalizationLayer('VarianceDecay', -0.1)", "MATLAB:notGreaterEqual"),
    ("batchNormalizationLayer('Epsilon', 0)", "MATLAB:expectedPositive"),
    ("batchNormalizationLayer('Epsilon', [1 2])", "MATLAB:expectedScalar"),
    ("batchNormalizationLayer('NumChannels', 3)", "MATLAB:InputParser:UnmatchedParameter"),
    ("batchNormalizationLayer('ScaleInitializer', 'glorot')", "MATLAB:validators:mustBeMember"),
    ("batchNormalizationLayer('Offset', 'a')", "MATLAB:invalidType"),
    ("layerNormalizationLayer('OperationDimension', 'time')", "MATLAB:validators:mustBeMember"),
    ("groupNormalizationLayer(0)", "MATLAB:expectedPositive"),
    ("groupNormalizationLayer('some')", "MATLAB:validators:mustBeMember"),
    ("groupNormalizationLayer()", "MATLAB:minrhs"),
    ("L = groupNormalizationLayer(2); L.NumGroups = 3", "MATLAB:class:SetProhibited"),
    ("L = batchNormalizationLayer; L.NumChannels = 3", "MATLAB:class:SetProhibited"),
])
def test_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier


def test_initialize_errors(m):
    with pytest.raises(MatlabError) as info:
        initialized(m.interp, m.value("L = groupNormalizationLayer(4);", "L"),
                    [DlArray(np.zeros((2, 2, 6, 1)), "SSCB")])
    assert info.value.identifier == "nnet_cnn:internal:cnn:layer:InvalidNumGroups"
    with pytest.raises(MatlabError) as info:
        initialized(m.interp, m.value("L = batchNormalizationLayer(Scale=[1 2]);", "L"),
                    [DlArray(np.zeros((3, 2)), "CB")])
    assert info.value.identifier == "nnet_cnn:internal:cnn:layer:InvalidParameterSize"
    with pytest.raises(MatlabError) as info:
        initialized(m.interp, m.value("L = batchNormalizationLayer;", "L"), [DlArray(np.zeros((3, 2)), "SB")])
    assert info.value.identifier == "nnet_cnn:internal:cnn:layer:InvalidInputFormat"


# ------------------------------------------------------------------ display


def test_display(m):
    pytest.importorskip("mlang.builtins.networks.layer_display")
    out = m.run("L = batchNormalizationLayer")
    expected = """\
  BatchNormalizationLayer with properties:

               Name: ''
        NumChannels: 'auto'

   Hyperparameters
          MeanDecay: 0.1000
      VarianceDecay: 0.1000
            Epsilon: 1.0000e-05

   Learnable Parameters
             Offset: []
              Scale: []

   State Parameters
        TrainedMean: []
    TrainedVariance: []
"""
    assert expected in out
