"""The input pattern of a dlnetwork (trace_cache._network_key), made once per network
structure and completed with the parameters at each call, tells apart what the full key
tells apart: networks of other parameter sizes, classes or traced states, other layer
properties, outputs and initialisation; it finds the same dlarrays in the same order,
and a network whose parameters are not all dlarrays takes the full key."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import traced_input
from mlang.builtins.deeplearning.trace_cache import _full_network_key, _network_key

NETWORK = """
rng(2);
net = dlnetwork([featureInputLayer(3); fullyConnectedLayer(4); tanhLayer; fullyConnectedLayer(1)]);
other = dlnetwork([featureInputLayer(3); fullyConnectedLayer(4); sigmoidLayer; fullyConnectedLayer(1)]);
"""


@pytest.fixture
def nets(m):
    return m.values(NETWORK, "net", "other")


def keys(net, as_traced: bool = False) -> tuple:
    """(the key, its dlarrays), made twice (the second from the structure's part), and the
    full key's dlarrays; the found lists are checked to match."""
    found: list = []
    first = _network_key(net, found, as_traced)
    again: list = []
    second = _network_key(net, again, as_traced)
    full: list = []
    _full_network_key(net, full, as_traced)
    assert first == second
    assert [x is y for x, y in zip(found, full, strict=True)] == [True] * len(full)
    assert [x is y for x, y in zip(again, full, strict=True)] == [True] * len(full)
    return first, found


def test_copies_with_new_values_share_the_key(nets) -> None:
    net, _ = nets
    key, found = keys(net)
    assert len(found) == 4 and key is not None
    stepped = net.with_learnables([DlArray(x.data + 1, x.fmt) for x in found])
    assert keys(stepped)[0] == key
    traced = net.map_dlarrays(traced_input)
    assert keys(traced)[0] != key  # traced parameters
    assert keys(traced, as_traced=True)[0] == keys(net, as_traced=True)[0]


@pytest.mark.parametrize("change", ["size", "class", "format"])
def test_parameters_of_other_sizes_classes_and_formats_change_the_key(nets, change: str) -> None:
    net, _ = nets
    key, found = keys(net)
    values = [DlArray(x.data, x.fmt) for x in found]
    first = values[0].data
    if change == "size":
        values[0] = DlArray(np.zeros((5, 3), first.dtype))
    elif change == "class":
        values[0] = DlArray(first.astype(np.float64 if first.dtype == np.float32 else np.float32))
    else:
        values[0] = DlArray(first, "CB")
    assert keys(net.with_learnables(values))[0] != key


def test_other_layers_and_outputs_change_the_key(m, nets) -> None:
    net, other = nets
    assert keys(net)[0] != keys(other)[0]
    renamed, = m.values(NETWORK + "renamed = dlnetwork([featureInputLayer(3); "
                        "fullyConnectedLayer(4, 'Name', 'x'); tanhLayer; fullyConnectedLayer(1)]);",
                        "renamed")
    assert keys(renamed)[0] != keys(net)[0]


def test_a_plain_parameter_takes_the_full_key(nets) -> None:
    net, _ = nets
    _, found = keys(net)
    values = [DlArray(x.data, x.fmt) for x in found]
    values[1] = values[1].data  # a numeric array where a dlarray was
    plain = net.with_learnables(values)
    got: list = []
    key = _network_key(plain, got, False)
    want: list = []
    assert key == _full_network_key(plain, want, False)
    assert len(got) == len(want) == 3
