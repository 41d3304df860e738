"""selfAttentionLayer: properties, options, errors, forward results against NumPy,
masks, dropout in training only, and gradients by finite differences."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.networks.layer import ForwardContext
from mlang.values.core import to_str
from tests.builtins.networks.layer_checks import check_layer_gradients, initialized, layer_outputs

RNG = np.random.default_rng(5)


def np_self_attention(x, p, heads, mask=None):
    """x: (C, B, T); p: the eight parameters; mask: (keys, queries) booleans or None."""
    c, batch, steps = x.shape
    out = []
    for b in range(batch):
        xb = x[:, b, :]
        q = p["Wq"] @ xb + p["bq"]
        k = p["Wk"] @ xb + p["bk"]
        v = p["Wv"] @ xb + p["bv"]
        dk, dv = q.shape[0] // heads, v.shape[0] // heads
        ys = []
        for h in range(heads):
            qh, kh, vh = q[h * dk:(h + 1) * dk], k[h * dk:(h + 1) * dk], v[h * dv:(h + 1) * dv]
            scores = kh.T @ qh / np.sqrt(dk)  # keys by queries
            if mask is not None:
                scores = np.where(mask, scores, -np.inf)
            weights = np.exp(scores - scores.max(axis=0))
            weights /= weights.sum(axis=0)
            ys.append(vh @ weights)
        out.append(p["Wo"] @ np.vstack(ys) + p["bo"])
    return np.stack(out, axis=1)


def parameters(c: int, keys: int, values: int, outputs: int) -> dict:
    shapes = {"Wq": (keys, c), "Wk": (keys, c), "Wv": (values, c), "Wo": (outputs, values),
              "bq": (keys, 1), "bk": (keys, 1), "bv": (values, 1), "bo": (outputs, 1)}
    return {name: RNG.standard_normal(shape) * 0.5 for name, shape in shapes.items()}


GIVEN = ("QueryWeights=Wq, KeyWeights=Wk, ValueWeights=Wv, OutputWeights=Wo, QueryBias=bq, KeyBias=bk, "
         "ValueBias=bv, OutputBias=bo")


def test_defaults(m):
    layer = m.value("L = selfAttentionLayer(8, 256);", "L")
    g = layer.get_property
    assert float(g("NumHeads")) == 8 and float(g("NumKeyChannels")) == 256
    assert to_str(g("NumValueChannels")) == "auto" and to_str(g("OutputSize")) == "auto"
    assert g("HasPaddingMaskInput") is False and g("HasScoresOutput") is False
    assert to_str(g("AttentionMask")) == "none" and float(g("DropoutProbability")) == 0
    assert to_str(g("QueryWeightsInitializer")) == "glorot" and to_str(g("BiasInitializer")) == "zeros"
    assert float(g("BiasL2Factor")) == 0 and float(g("WeightLearnRateFactor")) == 1
    assert layer.LEARNABLES == ("QueryWeights", "KeyWeights", "ValueWeights", "OutputWeights",
                                "QueryBias", "KeyBias", "ValueBias", "OutputBias")
    assert all(np.size(g(name)) == 0 for name in layer.LEARNABLES)
    assert layer.description() == "self-attention with 8 heads and 256 key channels"
    assert layer.LAYER_TYPE == "Self-Attention"
    assert layer.matlab_class == "nnet.cnn.layer.SelfAttentionLayer"
    assert layer.input_names() == ["in"] and layer.output_names() == ["out"]


def test_options_and_ports(m):
    layer = m.value("L = selfAttentionLayer(2, 8, NumValueChannels=4, OutputSize=6, AttentionMask='causal', "
                    "DropoutProbability=0.1, HasPaddingMaskInput=true, HasScoresOutput=true, Name='sa');", "L")
    g = layer.get_property
    assert float(g("NumValueChannels")) == 4 and float(g("OutputSize")) == 6
    assert to_str(g("AttentionMask")) == "causal" and float(g("DropoutProbability")) == 0.1
    assert layer.input_names() == ["in", "mask"] and layer.output_names() == ["out", "scores"]
    assert float(g("NumInputs")) == 2 and float(g("NumOutputs")) == 2
    assert to_str(g("Name")) == "sa"
    assert m.run("L = selfAttentionLayer(2, 8); L.Name = 'x'; disp(L.Name)") == "x\n"


@pytest.mark.parametrize("code, identifier", [
    ("selfAttentionLayer(2)", "MATLAB:minrhs"),
    ("selfAttentionLayer(0, 8)", "MATLAB:validators:mustBePositiveInteger"),
    ("selfAttentionLayer(2, 8.5)", "MATLAB:validators:mustBePositiveInteger"),
    ("selfAttentionLayer(3, 8)", "nnet_cnn:layer:SelfAttentionLayer:ChannelsNotDivisible"),
    ("selfAttentionLayer(2, 8, NumValueChannels=3)", "nnet_cnn:layer:SelfAttentionLayer:ChannelsNotDivisible"),
    ("selfAttentionLayer(2, 8, AttentionMask='future')", "MATLAB:validators:mustBeMember"),
    ("selfAttentionLayer(2, 8, DropoutProbability=1)", "MATLAB:validators:mustBeLessThan"),
    ("selfAttentionLayer(2, 8, DropoutProbability=-0.5)", "MATLAB:validators:mustBeNonnegative"),
    ("selfAttentionLayer(2, 8, OutputSize='big')", "MATLAB:validators:mustBePositiveInteger"),
    ("selfAttentionLayer(2, 8, Name=3)", "MATLAB:validators:mustBeTextScalar"),
    ("selfAttentionLayer(2, 8, HasScoresOutput='yes')", "MATLAB:validators:mustBeNumericOrLogical"),
    ("selfAttentionLayer(2, 8, QueryWeightsInitializer='unit-forget-gate')", "MATLAB:validators:mustBeMember"),
    ("selfAttentionLayer(2, 8, 'Scale', 2)", "MATLAB:InputParser:UnmatchedParameter"),
    ("L = selfAttentionLayer(2, 8); L.NumHeads = 4;", "MATLAB:class:SetProhibited"),
])
def test_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier


def test_initialisation(m):
    layer = m.value("rng(0); L = selfAttentionLayer(2, 4, NumValueChannels=6, OutputSize=5);", "L")
    x = DlArray(RNG.standard_normal((3, 1, 2)), "CBT")
    done = initialized(m.interp, layer, [x])
    shapes = {"QueryWeights": (4, 3), "KeyWeights": (4, 3), "ValueWeights": (6, 3), "OutputWeights": (5, 6),
              "QueryBias": (4, 1), "KeyBias": (4, 1), "ValueBias": (6, 1), "OutputBias": (5, 1)}
    for name, shape in shapes.items():
        assert done.values[name].shape == shape and done.values[name].dtype == np.float32
    assert not np.any(done.values["QueryBias"])
    assert np.all(np.abs(done.values["QueryWeights"]) <= np.sqrt(6 / (3 + 4)))
    assert float(done.values["InputSize"]) == 3
    again = initialized(m.interp, m.value("rng(0); L = selfAttentionLayer(2, 4, NumValueChannels=6, "
                                          "OutputSize=5);", "L"), [x])
    np.testing.assert_array_equal(again.values["OutputWeights"], done.values["OutputWeights"])
    # 'auto' sizes: value channels = key channels, output size = input size
    auto = initialized(m.interp, m.value("L = selfAttentionLayer(2, 4);", "L"), [x])
    assert auto.values["ValueWeights"].shape == (4, 3) and auto.values["OutputWeights"].shape == (3, 4)


def test_input_size_mismatch(m):
    layer = m.value("L = selfAttentionLayer(2, 4, InputSize=5);", "L")
    with pytest.raises(Exception) as info:
        initialized(m.interp, layer, [DlArray(np.zeros((3, 1, 2)), "CBT")])
    assert info.value.identifier == "nnet_cnn:layer:InputSizeMismatch"


@pytest.mark.parametrize("mask", ["none", "causal"])
def test_forward_matches_numpy(m, mask):
    p = parameters(3, 4, 6, 5)
    layer = m.value(f"L = selfAttentionLayer(2, 4, NumValueChannels=6, OutputSize=5, AttentionMask='{mask}', "
                    f"{GIVEN});", "L", **p)
    x = DlArray(RNG.standard_normal((3, 2, 4)), "CBT")
    (y,) = layer_outputs(m.interp, layer, [x])
    causal = np.arange(4)[:, None] <= np.arange(4)[None, :] if mask == "causal" else None
    assert y.fmt == "CBT" and y.shape == (5, 2, 4)
    np.testing.assert_allclose(y.data, np_self_attention(x.data, p, 2, causal), rtol=1e-6, atol=1e-9)


def test_feature_input_single_step(m):
    p = parameters(3, 2, 2, 3)
    layer = m.value(f"L = selfAttentionLayer(1, 2, {GIVEN});", "L", **p)
    x = DlArray(RNG.standard_normal((3, 2)), "CB")
    (y,) = layer_outputs(m.interp, layer, [x])
    assert y.fmt == "CB"
    np.testing.assert_allclose(y.data, np_self_attention(x.data[:, :, None], p, 1)[:, :, 0], rtol=1e-6)


def test_padding_mask_and_scores(m):
    p = parameters(2, 2, 2, 2)
    layer = m.value(f"L = selfAttentionLayer(1, 2, HasPaddingMaskInput=1, HasScoresOutput=1, {GIVEN});",
                    "L", **p)
    x = DlArray(RNG.standard_normal((2, 1, 3)), "CBT")
    pad = DlArray(np.array([1.0, 1.0, 0.0]).reshape(1, 1, 3), "CBT")
    y, scores = layer_outputs(m.interp, layer, [x, pad])
    keys = np.array([True, True, False])[:, None] & np.ones((1, 3), bool)
    np.testing.assert_allclose(y.data, np_self_attention(x.data, p, 1, keys), rtol=1e-6, atol=1e-9)
    w = np.asarray(scores.data).reshape(3, 3)
    np.testing.assert_allclose(w.sum(axis=0), 1.0)
    np.testing.assert_array_equal(w[2], 0.0)  # the padded key gets no weight


def test_dropout_only_in_training(m):
    layer = m.value("L = selfAttentionLayer(1, 2, DropoutProbability=0.5);", "L")
    x = DlArray(RNG.standard_normal((2, 1, 6)), "CBT")
    layer = initialized(m.interp, layer, [x])
    plain = layer.predict([x], ForwardContext(m.interp, training=False))[0]
    again = layer.forward([x], ForwardContext(m.interp, training=False))[0][0]
    np.testing.assert_allclose(plain.data, again.data)
    m.run("rng(3)")
    trained = layer.forward([x], ForwardContext(m.interp, training=True))[0][0]
    assert not np.allclose(trained.data, plain.data)


def test_gradients(m):
    layer = m.value("L = selfAttentionLayer(2, 4, NumValueChannels=2, OutputSize=3, AttentionMask='causal', "
                    "BiasInitializer='narrow-normal');", "L")
    check_layer_gradients(m.interp, layer, [DlArray(RNG.standard_normal((3, 2, 3)), "CBT")])


SELF_ATTENTION_DISPLAY = """
S =\x20

  SelfAttentionLayer with properties:

               NumHeads: 8
         NumKeyChannels: 256
       NumValueChannels: 'auto'
             OutputSize: 'auto'
    HasPaddingMaskInput: 0
        HasScoresOutput: 0
          AttentionMask: 'causal'
     DropoutProbability: 0
                   Name: ''

   Learnable Parameters
           QueryWeights: []
             KeyWeights: []
           ValueWeights: []
          OutputWeights: []
              QueryBias: []
                KeyBias: []
              ValueBias: []
             OutputBias: []

  Show all properties

"""


def test_display(m):
    assert m.run("S = selfAttentionLayer(8, 256, AttentionMask='causal')") == SELF_ATTENTION_DISPLAY
    out = m.run("layers = [selfAttentionLayer(2, 4); selfAttentionLayer(1, 8, Name='sa')]")
    assert out == ("\nlayers = \n\n  2×1 Layer array with layers:\n\n"
                   "     1   ''     Self-Attention   self-attention with 2 heads and 4 key channels\n"
                   "     2   'sa'   Self-Attention   self-attention with 1 heads and 8 key channels\n\n")


def test_input_format_errors(m):
    layer = m.value("L = selfAttentionLayer(1, 2);", "L")
    for fmt, shape in (("SSCB", (2, 2, 3, 1)), ("UB", (3, 2))):
        with pytest.raises(Exception) as info:
            initialized(m.interp, layer, [DlArray(np.zeros(shape), fmt)])
        assert info.value.identifier == "nnet_cnn:layer:InvalidInputFormat"
