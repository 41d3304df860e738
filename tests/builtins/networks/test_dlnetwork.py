"""dlnetwork: construction, naming, properties, display, forward and predict."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.networks.layer_array import LayerArray
from mlang.builtins.networks.network import DlNetwork
from tests.builtins.networks import network_test_layers as t
from tests.builtins.networks.helpers import data, fails


def mlp() -> LayerArray:
    return LayerArray([t.feature_input(2), t.fc(3), t.tanh(), t.fc(1)])


# ------------------------------------------------------------ names and structure


def test_automatic_names(m):
    net = m.value("net = dlnetwork(layers);", "net", layers=mlp())
    assert [layer.name for layer in net.layers()] == ["input", "fc_1", "tanh", "fc_2"]
    one = m.value("net = dlnetwork(layers);", "net",
                  layers=LayerArray([t.feature_input(2), t.fc(3), t.tanh()]))
    assert [layer.name for layer in one.layers()] == ["input", "fc", "tanh"]


def test_automatic_names_skip_taken_names(m):
    layers = LayerArray([t.feature_input(2), t.fc(3, "fc_1"), t.fc(2), t.fc(1)])
    net = m.value("net = dlnetwork(layers);", "net", layers=layers)
    assert [layer.name for layer in net.layers()] == ["input", "fc_1", "fc_2", "fc_3"]


def test_duplicate_names_are_an_error(m):
    err = fails(m, "net = dlnetwork(layers);",
                layers=LayerArray([t.feature_input(2), t.fc(3, "a"), t.fc(1, "a")]))
    assert err.identifier == "deep:dlnetwork:DuplicateLayerNames"
    assert "'a'" in err.message


def test_properties(m):
    m.run("rng(0); net = dlnetwork(layers); c = net.Connections; src = string(c.Source)';"
          "dst = string(c.Destination)'; i = class(net.InputNames); o = net.OutputNames{1};"
          "L = net.Layers; init = net.Initialized; tc = class(c.Source);", layers=mlp())
    v = m.interp.base.vars
    assert v["init"] is True
    assert v["src"].data.tolist() == [["input", "fc_1", "tanh"]]
    assert v["dst"].data.tolist() == [["fc_1", "tanh", "fc_2"]]
    assert m.value("ok = isequal(i, 'cell') && isequal(o, 'fc_2') && isequal(tc, 'cell');", "ok",
                   **dict(v)) is True
    assert len(v["L"].layers) == 4
    # net.Layers shows learnables as plain single arrays
    weights = v["L"].layers[1].values["Weights"]
    assert type(weights) is np.ndarray and weights.dtype == np.float32 and weights.shape == (3, 2)


def test_learnables_table_and_order(m):
    m.run("rng(0); net = dlnetwork(layers); T = net.Learnables; "
          "names = T.Layer; params = T.Parameter; w = T.Value{1};", layers=mlp())
    v = m.interp.base.vars
    assert v["names"].data.reshape(-1).tolist() == ["fc_1", "fc_1", "fc_2", "fc_2"]
    assert v["params"].data.reshape(-1).tolist() == ["Weights", "Bias", "Weights", "Bias"]
    assert type(v["w"]) is DlArray and v["w"].data.dtype == np.float32 and v["w"].fmt == ""


GOLDEN_NET = (
    "\n"
    "net = \n"
    "\n"
    "  dlnetwork with properties:\n"
    "\n"
    "         Layers: [4×1 nnet.cnn.layer.Layer]\n"
    "    Connections: [3×2 table]\n"
    "     Learnables: [4×3 table]\n"
    "          State: [0×3 table]\n"
    "     InputNames: {'input'}\n"
    "    OutputNames: {'fc_2'}\n"
    "    Initialized: 1\n"
    "\n"
    "  View summary with summary.\n"
    "\n"
    "\n"
)

GOLDEN_LEARNABLES = (
    "\n"
    "ans = \n"
    "\n"
    "  4×3 table\n"
    "\n"
    "    Layer     Parameter        Value    \n"
    "    ______    _________    _____________\n"
    "\n"
    '    "fc_1"    "Weights"    {3×2 dlarray}\n'
    '    "fc_1"    "Bias"       {3×1 dlarray}\n'
    '    "fc_2"    "Weights"    {1×3 dlarray}\n'
    '    "fc_2"    "Bias"       {1×1 dlarray}\n'
    "\n"
)


def test_display(m):
    assert m.run("net = dlnetwork(layers)", layers=mlp()) == GOLDEN_NET
    assert m.run("net = dlnetwork(layers); net.Learnables", layers=mlp()) == GOLDEN_LEARNABLES


def test_empty_network_display(m):
    out = m.run("net = dlnetwork")
    assert "Layers: [0×0 nnet.cnn.layer.Layer]" in out
    assert "Connections: [0×2 table]" in out
    assert "InputNames: {1×0 cell}" in out


def test_uninitialized(m):
    m.run("net = dlnetwork(layers, Initialize=false); init = net.Initialized; "
          "T = net.Learnables; w = T.Value{1};", layers=mlp())
    v = m.interp.base.vars
    assert v["init"] is False
    assert np.size(v["w"]) == 0
    err = fails(m, "predict(net, dlarray(rand(2,3), 'CB'))", **dict(m.interp.base.vars))
    assert err.identifier == "deep:dlnetwork:NotInitialized"
    net = m.value("net = dlnetwork(layers, Initialize=false); net = initialize(net);", "net",
                  layers=mlp())
    assert net.initialized and data(net.learnable_values()[0]).shape == (3, 2)


def test_example_inputs(m):
    layers = LayerArray([t.fc(3), t.tanh()])
    err = fails(m, "net = dlnetwork(layers);", layers=layers)
    assert err.identifier == "deep:dlnetwork:UnconnectedInputs"
    net = m.value("net = dlnetwork(layers, dlarray(rand(5,1), 'CB'));", "net", layers=layers)
    assert net.input_names == ["fc"] and data(net.learnable_values()[0]).shape == (3, 5)
    net = m.value("net = dlnetwork(layers, Initialize=false); net = initialize(net, dlarray(rand(4,1), 'CB'));",
                  "net", layers=layers)
    assert data(net.learnable_values()[0]).shape == (3, 4)
    err = fails(m, "net = dlnetwork(layers, rand(4,1));", layers=layers)
    assert err.identifier == "deep:dlnetwork:InvalidExampleInput"


# ------------------------------------------------------------ forward and predict


def reference(net: DlNetwork, x: np.ndarray) -> np.ndarray:
    w1, b1, w2, b2 = (data(v) for v in net.learnable_values())
    return w2 @ np.tanh(w1 @ x + b1) + b2


def test_predict_matches_numpy(m):
    x = np.random.default_rng(1).random((2, 5))
    m.run("rng(0); net = dlnetwork(layers); Y = predict(net, dlarray(x, 'CB'));", layers=mlp(), x=x)
    v = m.interp.base.vars
    assert v["Y"].fmt == "CB"
    np.testing.assert_allclose(data(v["Y"]), reference(v["net"], x), rtol=1e-5)


def test_numeric_input_takes_the_input_layer_layout(m):
    x = np.random.default_rng(2).random((5, 2))  # observations by features
    m.run("rng(0); net = dlnetwork(layers); Y = predict(net, x); U = predict(net, dlarray(x));",
          layers=mlp(), x=x)
    v = m.interp.base.vars
    assert type(v["Y"]) is np.ndarray and v["Y"].dtype == np.float32 and v["Y"].shape == (5, 1)
    np.testing.assert_allclose(v["Y"], reference(v["net"], x.T).T, rtol=1e-5)
    assert type(v["U"]) is DlArray and v["U"].fmt == ""
    np.testing.assert_allclose(data(v["U"]), v["Y"], rtol=1e-6)


def test_unformatted_input_to_a_layer_input_is_an_error(m):
    err = fails(m, "net = dlnetwork(layers, dlarray(rand(2,1), 'CB')); predict(net, dlarray(rand(2,3)))",
                layers=LayerArray([t.fc(3), t.tanh()]))
    assert err.identifier == "deep:dlnetwork:UnformattedInput"


def test_wrong_number_of_inputs(m):
    err = fails(m, "net = dlnetwork(layers); predict(net, dlarray(rand(2,3),'CB'), dlarray(rand(2,3),'CB'))",
                layers=mlp())
    assert err.identifier == "deep:dlnetwork:WrongNumberOfInputs"


def test_outputs_option_and_several_outputs(m):
    x = np.random.default_rng(3).random((2, 4))
    m.run("rng(0); net = dlnetwork(layers); X = dlarray(x, 'CB');"
          "[a, b] = predict(net, X, Outputs=[\"tanh\" \"fc_2\"]);"
          "net.OutputNames = {'fc_1', 'fc_2'}; [c, d] = forward(net, X); o = net.OutputNames;",
          layers=mlp(), x=x)
    v = m.interp.base.vars
    w1, b1, _, _ = (data(p) for p in v["net"].learnable_values())
    np.testing.assert_allclose(data(v["a"]), np.tanh(w1 @ x + b1), rtol=1e-5)
    np.testing.assert_allclose(data(v["b"]), reference(v["net"], x), rtol=1e-5)
    np.testing.assert_allclose(data(v["c"]), w1 @ x + b1, rtol=1e-5)
    np.testing.assert_allclose(data(v["d"]), data(v["b"]), rtol=1e-6)
    err = fails(m, "[a, b, c, d] = predict(net, X);", **dict(m.interp.base.vars))
    assert err.identifier == "MATLAB:TooManyOutputs"
    err = fails(m, "net.OutputNames = {'nothere'};", **dict(m.interp.base.vars))
    assert err.identifier == "deep:dlnetwork:LayerNotFound"


def test_forward_returns_the_state(m):
    layers = LayerArray([t.feature_input(2), t.fc(2), t.norm()])
    x = np.array([[1.0, 2.0, 3.0], [0.0, 1.0, 5.0]])
    m.run("rng(0); net = dlnetwork(layers); X = dlarray(x, 'CB');"
          "[Y, state] = forward(net, X); P = predict(net, X); net.State = state; S = net.State;"
          "[P2, s2] = predict(net, X);", layers=layers, x=x)
    v = m.interp.base.vars
    state = v["state"]
    assert state.variable("Layer").data.reshape(-1).tolist() == ["norm"]
    assert state.variable("Parameter").data.reshape(-1).tolist() == ["TrainedMean"]
    w, b = (data(p) for p in v["net"].learnable_values())
    h = w @ x + b
    mean = h.mean(axis=1, keepdims=True)
    np.testing.assert_allclose(data(v["Y"]), h - mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(data(v["P"]), h, rtol=1e-5)  # the initial mean is zero
    np.testing.assert_allclose(data(v["S"].variable("Value").data[0, 0]), mean, rtol=1e-5)
    np.testing.assert_allclose(data(v["P2"]), h - mean, rtol=1e-5, atol=1e-6)


def test_assigning_learnables(m):
    m.run("rng(0); net = dlnetwork(layers); T = net.Learnables;"
          "T.Value = cellfun(@(v) v*0 + 1, T.Value, 'UniformOutput', false);"
          "net.Learnables = T; Y = predict(net, dlarray([1; 2], 'CB'));", layers=mlp())
    y = data(m.interp.base.vars["Y"])
    np.testing.assert_allclose(y, [[3 * np.tanh(4.0) + 1]], rtol=1e-6)
    err = fails(m, "net.Learnables = T(1:2, :);", **dict(m.interp.base.vars))
    assert err.identifier == "deep:dlnetwork:InvalidLearnables"
    err = fails(m, "net.Learnables = 5;", **dict(m.interp.base.vars))
    assert err.identifier == "deep:dlnetwork:InvalidLearnables"
    # MATLAB's wording (quoted in a forum post for a State table)
    assert err.message == ("Learnables must be a table with columns 'Layer', 'Parameter', and "
                           "'Value'. Each entry of 'Value' must be a 1-by-1 cell array containing a "
                           "real-valued finite numeric array or dlarray object.")
    err = fails(m, "net.State = 5;", **dict(m.interp.base.vars))
    assert err.identifier == "deep:dlnetwork:InvalidState"
    assert err.message.startswith("State must be a table with columns 'Layer', 'Parameter', and 'Value'.")


def test_read_only_properties(m):
    for prop in ("Layers", "Connections", "InputNames", "Initialized"):
        err = fails(m, f"net = dlnetwork(layers); net.{prop} = 1;", layers=mlp())
        assert err.identifier == "MATLAB:class:SetProhibited"


# ------------------------------------------------------------ summary and notes


def test_summary_and_graphical_notes(m):
    out = m.run("net = dlnetwork(layers); summary(net)", layers=mlp())
    assert out == ("   Initialized: true\n\n   Number of learnables: 13\n\n   Inputs:\n"
                   "      1   'input'   2 features\n")
    out = m.run("net = dlnetwork(layers); plot(net); analyzeNetwork(net); deepNetworkDesigner",
                layers=mlp())
    lines = out.splitlines()
    assert len(lines) == 3
    assert "4 layers, 3 connections, 13 learnables" in lines[0]
    assert lines[1].startswith("analyzeNetwork is not available")


@pytest.mark.parametrize("n, text", [(13, "13"), (999, "999"), (1234, "1.2k"), (84060, "84k"),
                                     (3_500_000, "3.5M")])
def test_learnable_count_text(n, text):
    from mlang.builtins.networks.network_display import count_text

    assert count_text(n) == text


# ------------------------------------------------------------ recurrent state


def test_recurrent_state_predict_and_reset(m):
    m.run("""
    rng(0);
    net = dlnetwork(lstmLayer(3), dlarray(rand(2,1,4), 'CBT'));
    s0 = net.State;
    X = dlarray(rand(2,1,4), 'CBT');
    [Y, state] = predict(net, X);
    net.State = state;
    h = extractdata(net.State.Value{1});
    last = extractdata(Y(:, :, end));
    net = resetState(net);
    h0 = extractdata(net.State.Value{1});
    """)
    v = m.interp.base.vars
    assert v["s0"].variable("Parameter").data.reshape(-1).tolist() == ["HiddenState", "CellState"]
    np.testing.assert_allclose(v["h"], v["last"], rtol=1e-6)
    assert np.any(v["h"] != 0)
    np.testing.assert_array_equal(v["h0"], np.zeros((3, 1)))


def test_output_names_option(m):
    net = m.value("net = dlnetwork(layers, OutputNames={'tanh', 'fc_2'});", "net", layers=mlp())
    assert net.output_names == ["tanh", "fc_2"]
    err = fails(m, "net = dlnetwork(layers, OutputNames='none');", layers=mlp())
    assert err.identifier == "deep:dlnetwork:LayerNotFound"


def test_empty_network_and_uninitialized_summary(m):
    err = fails(m, "net = dlnetwork; predict(net, 1)")
    assert err.identifier == "deep:dlnetwork:EmptyNetwork"
    out = m.run("net = dlnetwork(layers, Initialize=false); summary(net)",
                layers=LayerArray([t.fc(3), t.tanh()]))
    assert out == "   Initialized: false\n\n   Inputs:\n      1   'fc'   unknown\n"
    out = m.run("lg = layerGraph(layers); plot(lg)", layers=mlp())
    assert out == ("Plotting a network is not available (no graphical tools): layer graph with "
                   "4 layers, 3 connections.\n")
