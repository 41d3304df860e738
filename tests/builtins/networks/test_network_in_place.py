"""A dlnetwork's learnables may be updated in place by an optimizer only when nothing but
the network reaches them (NetworkKind.owned_children), and an update in place gives the
values of an update into new arrays."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning.containers import CONTAINER_KINDS, owned_buffers
from mlang.builtins.networks.network import DlNetwork
from tests.builtins.conftest import Session


@pytest.fixture()
def m() -> Session:
    return Session()


def _network(m: Session) -> DlNetwork:
    return m.value("rng(0); net = dlnetwork([featureInputLayer(3); fullyConnectedLayer(4); "
                   "tanhLayer; fullyConnectedLayer(2)]);", "net")


def test_owned_children_of_a_network_held_alone(m):
    net = _network(m)
    kind = CONTAINER_KINDS[DlNetwork]
    children = kind.owned_children(net)
    assert children is not None
    assert [id(v) for v in children] == [id(v) for v in net.learnable_values()]


def test_no_owned_children_when_layers_or_values_are_shared(m):
    net = _network(m)
    kind = CONTAINER_KINDS[DlNetwork]
    same_layers = net.with_states([])  # a copy holding the same layer objects
    assert kind.owned_children(net) is None
    assert kind.owned_children(same_layers) is None
    del same_layers
    assert kind.owned_children(net) is not None
    held = net.graph.layers[1].values  # a second reference to a layer's values
    assert kind.owned_children(net) is None
    del held
    graph = net.graph
    assert kind.owned_children(net) is None
    del graph
    assert kind.owned_children(net) is not None


def test_owned_buffers_skip_arrays_held_elsewhere(m):
    made = _network(m)
    # arrays owning their memory (an optimizer's results), held by the new network alone
    net = made.with_learnables([DlArray(np.array(v.data)) for v in made.learnable_values()])
    del made
    assert owned_buffers(net) == {id(v.data) for v in net.learnable_values()}
    alias = net.graph.layers[1].values["Bias"].data  # an array held once more
    owned = owned_buffers(net)
    assert id(alias) not in owned and len(owned) == 3


def test_updates_in_place_give_the_values_of_new_arrays(m):
    code = """
    rng(0);
    layers = [featureInputLayer(300); fullyConnectedLayer(256); tanhLayer; fullyConnectedLayer(2)];
    net = dlnetwork(layers);
    X = dlarray(rand(300, 5, 'single'), 'CB');
    keep = net;
    w0 = extractdata(keep.Learnables.Value{1});
    a = []; b = [];
    for k = 1:3
        g = dlfeval(@(n, x) dlgradient(sum(forward(n, x), 'all'), n.Learnables), net, X);
        [net, a, b] = adamupdate(net, g, a, b, k);
    end
    netB = keep; aB = []; bB = [];
    for k = 1:3
        g = dlfeval(@(n, x) dlgradient(sum(forward(n, x), 'all'), n.Learnables), netB, X);
        other = netB;  % a second reference: never updated in place
        [netB, aB, bB] = adamupdate(netB, g, aB, bB, k);
    end
    same = true;
    for j = 1:4
        same = same && isequal(extractdata(net.Learnables.Value{j}), extractdata(netB.Learnables.Value{j})) ...
            && isequal(extractdata(a.Value{j}), extractdata(aB.Value{j})) ...
            && isequal(extractdata(b.Value{j}), extractdata(bB.Value{j}));
    end
    kept = isequal(extractdata(keep.Learnables.Value{1}), w0);
    moved = ~isequal(extractdata(net.Learnables.Value{1}), w0);
    cls = isa(extractdata(net.Learnables.Value{1}), 'single');
    v = extractdata(net.Learnables.Value{3});
    """
    same, kept, moved, cls, v = m.values(code, "same", "kept", "moved", "cls", "v")
    assert same is True and kept is True and moved is True and cls is True
    assert np.isfinite(v).all()
