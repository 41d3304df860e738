"""dlnetwork built from MATLAB code with the layer library's constructors."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.errors import MatlabError
from tests.builtins.networks.helpers import MODEL_LOSS, data

GOLDEN = (
    "\n"
    "net = \n"
    "\n"
    "  dlnetwork with properties:\n"
    "\n"
    "         Layers: [6×1 nnet.cnn.layer.Layer]\n"
    "    Connections: [5×2 table]\n"
    "     Learnables: [6×3 table]\n"
    "          State: [0×3 table]\n"
    "     InputNames: {'input'}\n"
    "    OutputNames: {'fc_3'}\n"
    "    Initialized: 1\n"
    "\n"
    "  View summary with summary.\n"
    "\n"
    "\n"
)

MLP = ("layers = [featureInputLayer(2) fullyConnectedLayer(20) tanhLayer fullyConnectedLayer(20) "
       "tanhLayer fullyConnectedLayer(1)];")


def test_mlp_display_and_names(m):
    assert m.run(MLP + " net = dlnetwork(layers)") == GOLDEN
    net = m.value(MLP + " net = dlnetwork(layers); L = net.Layers; n = L(3).Name;", "net")
    assert [layer.name for layer in net.layers()] == ["input", "fc_1", "tanh_1", "fc_2", "tanh_2", "fc_3"]
    assert m.interp.base.vars["n"].tobytes().decode("utf-16-le") == "tanh_1"


def test_mlp_predict_matches_numpy(m):
    x = np.random.default_rng(0).random((2, 6))
    m.run(MLP + " rng(0); net = dlnetwork(layers); Y = predict(net, dlarray(x, 'CB'));", x=x)
    v = m.interp.base.vars
    w1, b1, w2, b2, w3, b3 = (data(p) for p in v["net"].learnable_values())
    expected = w3 @ np.tanh(w2 @ np.tanh(w1 @ x + b1) + b2) + b3
    np.testing.assert_allclose(data(v["Y"]), expected, rtol=1e-5, atol=1e-6)


def test_initialisation_is_reproducible_under_rng(m):
    a = m.value(MLP + " rng(3); net = dlnetwork(layers); w = extractdata(net.Learnables.Value{3});", "w")
    b = m.value(MLP + " rng(3); net = dlnetwork(layers); w = extractdata(net.Learnables.Value{3});", "w")
    c = m.value(MLP + " rng(4); net = dlnetwork(layers); w = extractdata(net.Learnables.Value{3});", "w")
    assert a.shape == (20, 20) and a.dtype == np.float32
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_residual_network_from_layers(m):
    x = np.random.default_rng(1).random((2, 3))
    m.run("""
    net = dlnetwork;
    net = addLayers(net, [featureInputLayer(2, Name="in") fullyConnectedLayer(2, Name="fc") ...
                          additionLayer(2, Name="add") tanhLayer(Name="th")]);
    net = addLayers(net, fullyConnectedLayer(2, Name="skip"));
    net = connectLayers(net, "in", "skip");
    net = connectLayers(net, "skip", "add/in2");
    net = initialize(net);
    [Y, A, S] = predict(net, dlarray(x, 'CB'), Outputs=["th" "fc" "skip"]);
    """, x=x)
    v = m.interp.base.vars
    np.testing.assert_allclose(data(v["Y"]), np.tanh(data(v["A"]) + data(v["S"])), rtol=1e-6)


def test_batch_normalization_state(m):
    x = np.random.default_rng(2).random((3, 8))
    m.run("""
    rng(0);
    net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(4) batchNormalizationLayer reluLayer]);
    s0 = net.State;
    [Y, st] = forward(net, dlarray(x, 'CB'));
    net.State = st;
    mu = extractdata(net.State.Value{1});
    """, x=x)
    v = m.interp.base.vars
    assert v["s0"].variable("Parameter").data.reshape(-1).tolist() == ["TrainedMean", "TrainedVariance"]
    w, b = (data(p) for p in v["net"].learnable_values()[:2])
    batch_mean = (w @ x + b).mean(axis=1, keepdims=True)
    assert v["mu"].shape == (4, 1)
    # the running mean moves from its initial zero towards the batch mean
    assert np.all(np.sign(v["mu"]) == np.sign(batch_mean))


def test_training_with_layer_constructors(m, tmp_path, monkeypatch):
    (tmp_path / "modelLoss.m").write_text(MODEL_LOSS)
    monkeypatch.chdir(tmp_path)
    m.run("""
    rng(0);
    net = dlnetwork([featureInputLayer(1) fullyConnectedLayer(16) tanhLayer fullyConnectedLayer(1)]);
    X = dlarray(linspace(-1, 1, 40), 'CB');
    T = X.^2;
    avg = []; avgSq = [];
    for it = 1:50
        [loss, grads] = dlfeval(@modelLoss, net, X, T);
        if it == 1, first = double(extractdata(loss)); end
        [net, avg, avgSq] = adamupdate(net, grads, avg, avgSq, it, 0.02);
    end
    last = double(extractdata(dlfeval(@modelLoss, net, X, T)));
    """)
    v = m.interp.base.vars
    assert float(v["last"]) < 0.5 * float(v["first"])


def test_unconnected_input_needs_examples(m):
    with pytest.raises(MatlabError) as info:
        m.run("net = dlnetwork([fullyConnectedLayer(3) reluLayer]);")
    assert info.value.identifier == "deep:dlnetwork:UnconnectedInputs"
    net = m.value("net = dlnetwork([fullyConnectedLayer(3) reluLayer], Initialize=false);"
                  "net = addInputLayer(net, featureInputLayer(5));", "net")
    assert net.initialized and net.input_names == ["input"]
    assert data(net.learnable_values()[0]).shape == (3, 5)
