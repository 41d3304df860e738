"""layerGraph and the editing functions shared with dlnetwork: addLayers, connectLayers,
disconnectLayers, removeLayers, replaceLayer, addInputLayer."""

from __future__ import annotations

import numpy as np

from mlang.builtins.networks.layer_array import LayerArray
from tests.builtins.networks import network_test_layers as t
from tests.builtins.networks.helpers import data, fails


def main_branch() -> LayerArray:
    return LayerArray([t.feature_input(2), t.fc(2), t.add(), t.tanh()])


def connections(m, value) -> list[tuple[str, str]]:
    src, dst = m.values("s = string(c.Connections.Source)'; d = string(c.Connections.Destination)';",
                        "s", "d", c=value)
    return list(zip(src.data.reshape(-1).tolist(), dst.data.reshape(-1).tolist(), strict=True))


GOLDEN_GRAPH = (
    "\n"
    "lg = \n"
    "\n"
    "  LayerGraph with properties:\n"
    "\n"
    "         Layers: [4×1 nnet.cnn.layer.Layer]\n"
    "    Connections: [3×2 table]\n"
    "     InputNames: {'input'}\n"
    "    OutputNames: {1×0 cell}\n"
    "\n"
)


def test_layer_graph_display_and_properties(m):
    assert m.run("lg = layerGraph(layers)", layers=main_branch()) == GOLDEN_GRAPH
    lg = m.value("lg = layerGraph(layers);", "lg", layers=main_branch())
    assert connections(m, lg) == [("input", "fc"), ("fc", "add/in1"), ("add", "tanh")]
    empty = m.value("lg = layerGraph;", "lg")
    assert empty.graph.layers == []
    err = fails(m, "lg = layerGraph(layers); lg.Layers = 1;", layers=main_branch())
    assert err.identifier == "MATLAB:class:SetProhibited"


def test_building_a_residual_network_from_an_empty_one(m):
    m.run("""
    net = dlnetwork;
    net = addLayers(net, branch);
    net = addLayers(net, skip);
    before = net.Initialized;
    net = connectLayers(net, 'input', 'skip');
    net = connectLayers(net, 'skip', 'add/in2');
    net = initialize(net);
    X = dlarray(x, 'CB');
    Y = predict(net, X);
    [A, S] = predict(net, X, Outputs={'fc', 'skip'});
    """, branch=main_branch(), skip=t.fc(2, "skip"), x=np.array([[1.0, -1.0], [0.5, 2.0]]))
    v = m.interp.base.vars
    assert v["before"] is False and v["net"].initialized
    expected = np.tanh(data(v["A"]) + data(v["S"]))
    np.testing.assert_allclose(data(v["Y"]), expected, rtol=1e-6)
    assert ("skip", "add/in2") in connections(m, v["net"])


def test_connect_errors(m):
    lg = m.value("lg = layerGraph(layers);", "lg", layers=main_branch())
    cases = [
        ("connectLayers(lg, 'nothere', 'add/in2')", "deep:dlnetwork:LayerNotFound"),
        ("connectLayers(lg, 'fc', 'add/in7')", "deep:dlnetwork:InvalidDestination"),
        ("connectLayers(lg, 'fc', 'add')", "deep:dlnetwork:AmbiguousDestination"),
        ("connectLayers(lg, 'input', 'add/in1')", "deep:dlnetwork:DestinationAlreadyConnected"),
        ("connectLayers(lg, 'tanh', 'input')", "deep:dlnetwork:InvalidDestination"),
        ("disconnectLayers(lg, 'fc', 'tanh')", "deep:dlnetwork:ConnectionNotFound"),
        ("removeLayers(lg, 'nothere')", "deep:dlnetwork:LayerNotFound"),
        ("addLayers(lg, 5)", "deep:dlnetwork:InvalidLayers"),
    ]
    for code, ident in cases:
        assert fails(m, code, lg=lg).identifier == ident, code


def test_cycle_is_an_error(m):
    err = fails(m, "net = dlnetwork(layers, Initialize=false); net = connectLayers(net, 'tanh', 'add/in2');",
                layers=main_branch())
    assert err.identifier == "deep:dlnetwork:CyclicGraph"


def test_disconnect_remove_and_replace(m):
    lg = m.value("lg = layerGraph(layers); lg = connectLayers(lg, 'fc', 'add/in2');", "lg",
                 layers=main_branch())
    cut = m.value("g = disconnectLayers(lg, 'fc', 'add/in2');", "g", lg=lg)
    assert connections(m, cut) == [("input", "fc"), ("fc", "add/in1"), ("add", "tanh")]
    removed = m.value("g = removeLayers(lg, {'tanh'});", "g", lg=lg)
    assert [layer.name for layer in removed.graph.layers] == ["input", "fc", "add"]
    replaced = m.value("g = replaceLayer(lg, 'tanh', new);", "g", lg=lg,
                       new=LayerArray([t.fc(2, "f2"), t.tanh("t2")]))
    assert [layer.name for layer in replaced.graph.layers] == ["input", "fc", "add", "f2", "t2"]
    assert ("add", "f2") in connections(m, replaced) and ("f2", "t2") in connections(m, replaced)


def test_dlnetwork_from_a_layer_graph_and_back(m):
    m.run("lg = layerGraph(layers); lg = connectLayers(lg, 'fc', 'add/in2'); net = dlnetwork(lg);"
          "back = layerGraph(net); c = class(back);", layers=main_branch())
    v = m.interp.base.vars
    assert v["net"].initialized and v["net"].input_names == ["input"]
    assert v["c"].tobytes().decode("utf-16-le") == "nnet.cnn.LayerGraph"
    assert type(v["back"].graph.layers[1].values["Weights"]) is np.ndarray


def test_add_input_layer(m):
    m.run("net = dlnetwork(layers, Initialize=false); i1 = net.InputNames;"
          "net = addInputLayer(net, inp); i2 = net.InputNames; ok = net.Initialized;",
          layers=LayerArray([t.fc(3), t.tanh()]), inp=t.feature_input(4, "in"))
    v = m.interp.base.vars
    assert v["ok"] is True
    assert data(v["net"].learnable_values()[0]).shape == (3, 4)
    err = fails(m, "net = addInputLayer(net, inp);", net=v["net"], inp=t.feature_input(4, "in2"))
    assert err.identifier == "deep:dlnetwork:NoUnconnectedInputs"
    err = fails(m, "net = dlnetwork(layers, Initialize=false); net = addInputLayer(net, t);",
                layers=LayerArray([t.fc(3)]), t=t.tanh())
    assert err.identifier == "deep:dlnetwork:InvalidInputLayer"


def test_adding_a_taken_name_is_an_error_and_unnamed_layers_are_numbered(m):
    lg = m.value("lg = layerGraph(layers);", "lg", layers=main_branch())
    err = fails(m, "lg = addLayers(lg, new);", lg=lg, new=t.fc(2, "fc"))
    assert err.identifier == "deep:dlnetwork:DuplicateLayerNames"
    more = m.value("lg = addLayers(lg, new);", "lg", lg=lg, new=LayerArray([t.fc(2), t.tanh()]))
    assert [layer.name for layer in more.graph.layers][-2:] == ["fc_1", "tanh_1"]


def test_analyze_a_layer_array(m):
    out = m.run("analyzeNetwork(layers)", layers=main_branch())
    assert out == ("analyzeNetwork is not available (no graphical tools): layer graph with 4 layers, "
                   "3 connections.\n")
