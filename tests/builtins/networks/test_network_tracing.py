"""dlfeval's tracing of a dlnetwork (DlNetwork.map_dlarrays, walking the layers with
parameters found once per structure) gives what mapping every layer gives: learnables and
states traced, layers without parameters shared, the network unchanged when nothing is."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import traced_input
from mlang.builtins.networks.network import DlNetwork
from tests.builtins.conftest import Session


@pytest.fixture(scope="module")
def m() -> Session:
    return Session()


def _network(m: Session, layers: str) -> DlNetwork:
    return m.value(f"rng(0); net = dlnetwork({layers});", "net")


def _every_layer_mapped(net: DlNetwork, fn) -> list:
    """What each layer holds after ``fn`` is applied to each learnable and state dlarray."""
    out = []
    for layer in net.graph.layers:
        out.append({p: fn(layer.values[p]) if type(layer.values[p]) is DlArray else layer.values[p]
                    for p in layer.LEARNABLES + layer.STATES})
    return out


@pytest.mark.parametrize("layers", [
    "[featureInputLayer(3); fullyConnectedLayer(4); tanhLayer; fullyConnectedLayer(2)]",
    "[featureInputLayer(3); fullyConnectedLayer(4); batchNormalizationLayer; reluLayer]",
    "[featureInputLayer(3); reluLayer]",
])
def test_map_dlarrays_maps_every_parameter(m, layers):
    net = _network(m, layers)
    expected = _every_layer_mapped(net, lambda v: ("mapped", id(v)))
    traced = net.map_dlarrays(traced_input)
    for k, (layer, want) in enumerate(zip(traced.graph.layers, expected, strict=True)):
        original = net.graph.layers[k]
        if not want:
            assert layer is original  # a layer without parameters is shared
        for p, (_tag, source) in want.items() if want else ():
            v = layer.values[p]
            assert type(v) is DlArray and v.node is not None
            assert v.data is original.values[p].data and id(original.values[p]) == source
    assert traced.learnable_keys() == net.learnable_keys()
    # mapping again through a copy of the same structure (the names found once)
    again = traced.map_dlarrays(lambda v: DlArray(v.data, v.fmt))
    for layer, original in zip(again.graph.layers, net.graph.layers, strict=True):
        for p in layer.LEARNABLES + layer.STATES:
            assert layer.values[p].node is None
            np.testing.assert_array_equal(layer.values[p].data, original.values[p].data)


def test_map_dlarrays_keeps_the_network_when_nothing_changes(m):
    net = _network(m, "[featureInputLayer(3); fullyConnectedLayer(2)]")
    assert net.map_dlarrays(lambda v: v) is net
    plain = _network(m, "[featureInputLayer(3); reluLayer]")
    assert plain.map_dlarrays(traced_input) is plain


def test_gradient_with_respect_to_learnables_of_a_traced_network(m):
    code = """
    rng(0);
    net = dlnetwork([featureInputLayer(3); fullyConnectedLayer(4); tanhLayer; fullyConnectedLayer(1)]);
    X = dlarray(single([0.1 0.2; -0.3 0.4; 0.5 -0.6]), 'CB');
    g = dlfeval(@(net, X) dlgradient(sum(forward(net, X), 'all'), net.Learnables), net, X);
    W1 = extractdata(net.Learnables.Value{1}); b1 = extractdata(net.Learnables.Value{2});
    W2 = extractdata(net.Learnables.Value{3}); b2 = extractdata(net.Learnables.Value{4});
    H = tanh(W1*extractdata(X) + b1); Y = W2*H + b2;
    dY = ones(size(Y), 'single');
    gW2 = dY*H'; gb2 = sum(dY, 2);
    dZ = (W2'*dY).*(1 - H.^2);
    gW1 = dZ*extractdata(X)'; gb1 = sum(dZ, 2);
    err = max([max(abs(extractdata(g.Value{1}) - gW1), [], 'all'), ...
               max(abs(extractdata(g.Value{2}) - gb1), [], 'all'), ...
               max(abs(extractdata(g.Value{3}) - gW2), [], 'all'), ...
               max(abs(extractdata(g.Value{4}) - gb2), [], 'all')]);
    cls = isa(extractdata(g.Value{1}), 'single');
    """
    err, cls = m.values(code, "err", "cls")
    assert err < 1e-5
    assert cls is True
