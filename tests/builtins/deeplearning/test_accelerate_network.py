"""dlaccelerate of functions taking a dlnetwork (the custom training loop's model-loss
function): the trace is cached per architecture (layers, their hyperparameters, the
classes and sizes of the learnables), the learnables are read afresh at every call, and
the loss, the Learnables gradient table and the State come out exactly as the function
itself gives them, whatever changes between calls."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning import accelerate, trace_cache
from mlang.values.cell import Cell
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.table import Table


def run_vars(m, text: str) -> dict:
    m.interp.base.vars.clear()
    m.interp.run_source(text, "accelerate_network")
    return dict(m.interp.base.vars)


@pytest.fixture
def replays(monkeypatch) -> dict:
    """The replays made, untraced (dlfeval's outermost call) and traced."""
    made: dict = {"untraced": 0, "traced": 0}
    untraced, traced = accelerate.replay_untraced, accelerate.replay

    def count_untraced(*args: object) -> list:
        made["untraced"] += 1
        return untraced(*args)

    def count_traced(*args: object) -> list:
        made["traced"] += 1
        return traced(*args)

    monkeypatch.setattr(accelerate, "replay_untraced", count_untraced)
    monkeypatch.setattr(accelerate, "replay", count_traced)
    return made


def _leaves(v: object) -> list:
    if type(v) is Cell:
        return [x for elem in v.data.reshape(-1) for x in _leaves(elem)]
    if type(v) is Struct:
        return [x for elem in v.elems.reshape(-1) for value in elem.values() for x in _leaves(value)]
    if type(v) is Table:
        return [("names", tuple(v.names)), *(x for var in v.variables for x in _leaves(var))]
    if type(v) is StringArray:
        return [("strings", v.data.shape, tuple(v.data.reshape(-1).tolist()))]
    return [v]


def assert_same(want: object, got: object, traced: bool = False) -> None:
    assert type(got) is type(want)
    ws, gs = _leaves(want), _leaves(got)
    assert len(ws) == len(gs)
    for w, g in zip(ws, gs, strict=True):
        assert type(g) is type(w)
        if type(w) is DlArray:
            assert g.fmt == w.fmt and g.data.dtype == w.data.dtype and g.data.shape == w.data.shape
            assert (g.node is None) == (w.node is None) or traced
            np.testing.assert_array_equal(g.data, w.data)
        elif type(w) is tuple:
            assert g == w
        else:
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


NETWORK = """
function net = mlp(sizes, act, cls)
layers = featureInputLayer(sizes(1));
for k = 2:numel(sizes)
    W = cast(rand(sizes(k), sizes(k - 1)) - 0.5, cls);
    b = cast(rand(sizes(k), 1) - 0.5, cls);
    layers = [layers; fullyConnectedLayer(sizes(k), Weights=W, Bias=b)]; %#ok<AGROW>
    if k < numel(sizes)
        layers = [layers; act]; %#ok<AGROW>
    end
end
net = dlnetwork(layers);
end
"""

LOSS = """
function [loss, grads, state] = f(net, X, T)
[Y, state] = forward(net, X);
loss = mse(Y, T);
grads = dlgradient(loss, net.Learnables);
end
"""


def compare(m, setups: list[str], functions: str = LOSS) -> dict:
    """For each setup (statements defining net, X and T), the call through dlfeval of ``f``
    and of one dlaccelerate(@f), twice: the results agree exactly."""
    script = ["rng(0); acc = dlaccelerate(@f); P = cell(0, 1); A = cell(0, 1);"]
    for setup in setups:
        script.append(setup)
        for _ in range(2):
            # (each call from one state of the random numbers: dropout draws from it)
            script.append("rng(7); [p1, p2, p3] = dlfeval(@f, net, X, T); "
                          "rng(7); [a1, a2, a3] = dlfeval(acc, net, X, T);")
            script.append("P{end+1} = {p1, p2, p3}; A{end+1} = {a1, a2, a3};")
            # the next call sees other learnable values (an optimizer step)
            script.append("net.Learnables.Value{1} = net.Learnables.Value{1} * 0.9;")
    script.append("h = acc.HitRate; o = acc.Occupancy;")
    out = run_vars(m, "\n".join(script) + "\n" + functions + NETWORK)
    plain, fast = out["P"].data.reshape(-1), out["A"].data.reshape(-1)
    assert len(plain) == 2 * len(setups)
    for k, (want, got) in enumerate(zip(plain, fast, strict=True)):
        print("call", k)  # (shown when a comparison fails)
        assert_same(want, got)
    return out


# (the targets are dlarrays: the value of any other input is part of the input pattern)
X_DOUBLE = "X = dlarray(rand(3, 5), 'CB'); T = dlarray(rand(2, 5), 'CB');"
X_SINGLE = "X = dlarray(rand(3, 5, 'single'), 'CB'); T = dlarray(rand(2, 5, 'single'), 'CB');"


def test_learnables_are_read_afresh_and_the_gradient_table_is_exact(m, replays) -> None:
    out = compare(m, [f"net = mlp([3 4 2], tanhLayer, 'single'); {X_SINGLE}"])
    # two calls of one architecture with other learnable values: the second replays
    assert replays["untraced"] == 1
    assert out["h"] == pytest.approx(50.0) and out["o"] == pytest.approx(2.0)
    grads = out["a2"]
    assert type(grads) is Table and grads.names == ["Layer", "Parameter", "Value"]


def test_structure_changes_make_new_traces(m, replays) -> None:
    out = compare(m, [
        f"net = mlp([3 4 2], tanhLayer, 'single'); {X_SINGLE}",
        # a different network object of the same architecture (other weights): replayed
        f"net = mlp([3 4 2], tanhLayer, 'single'); {X_SINGLE}",
        # a layer replaced
        f"net = mlp([3 4 2], sigmoidLayer, 'single'); {X_SINGLE}",
        # learnables resized
        f"net = mlp([3 6 2], sigmoidLayer, 'single'); {X_SINGLE}",
        # learnables of another class
        f"net = mlp([3 6 2], sigmoidLayer, 'double'); {X_SINGLE}",
        # a hyperparameter changed (the leaky ReLU's scale)
        f"net = mlp([3 6 2], leakyReluLayer(0.1), 'single'); {X_SINGLE}",
        f"net = mlp([3 6 2], leakyReluLayer(0.2), 'single'); {X_SINGLE}",
        # new data of the same pattern, new batch size, new classes
        f"net = mlp([3 6 2], leakyReluLayer(0.2), 'single'); {X_SINGLE}",
        "X = dlarray(rand(3, 8, 'single'), 'CB'); T = dlarray(rand(2, 8, 'single'), 'CB');",
        f"net = mlp([3 6 2], leakyReluLayer(0.2), 'double'); {X_DOUBLE}",
        # layer names differ (a renamed layer is another architecture)
        "net = dlnetwork([featureInputLayer(3); fullyConnectedLayer(2, Name='out')]); " + X_SINGLE,
        "net = dlnetwork([featureInputLayer(3); fullyConnectedLayer(2, Name='other')]); " + X_SINGLE,
    ])
    # new traces: the first, sigmoid, [3 6 2], double weights, scale 0.1, 0.2, batch 8,
    # double data, name 'out', name 'other'; every other call replays
    assert out["o"] == pytest.approx(2.0 * 10)
    assert replays["untraced"] == 24 - 10


def test_networks_the_cache_does_not_replay(m, replays) -> None:
    out = compare(m, [
        # dropout draws new random numbers at every training pass
        "net = dlnetwork([featureInputLayer(3); fullyConnectedLayer(4); dropoutLayer(0.5); "
        "fullyConnectedLayer(2)]); " + X_SINGLE,
        # a normalisation by a function handle runs user code
        "net = dlnetwork([featureInputLayer(3, Normalization=@(x) 2 * x); fullyConnectedLayer(2)]); "
        + X_SINGLE,
    ])
    assert replays == {"untraced": 0, "traced": 0}
    assert out["o"] == pytest.approx(0.0) and out["h"] == pytest.approx(0.0)


def test_a_network_graph_with_addition_and_concatenation(m, replays) -> None:
    setup = """
lg = layerGraph([featureInputLayer(3, Name='in'); fullyConnectedLayer(4, Name='fc1'); tanhLayer(Name='t');
    additionLayer(2, Name='add'); concatenationLayer(1, 2, Name='cat'); fullyConnectedLayer(2, Name='fc2')]);
lg = addLayers(lg, fullyConnectedLayer(4, Name='skip'));
lg = connectLayers(lg, 'in', 'skip');
lg = connectLayers(lg, 'skip', 'add/in2');
lg = connectLayers(lg, 'fc1', 'cat/in2');
net = dlnetwork(lg);
""" + X_SINGLE
    compare(m, [setup, setup])
    assert replays["untraced"] == 3


def test_traced_replay_inside_an_enclosing_dlfeval(m, replays) -> None:
    out = run_vars(m, """
rng(0);
net = mlp([3 4 2], tanhLayer, 'single');
X = dlarray(rand(3, 5, 'single'), 'CB'); T = dlarray(rand(2, 5, 'single'), 'CB');
acc = dlaccelerate(@f);
P = cell(0, 1); A = cell(0, 1);
for k = 1:3
    [p1, p2] = dlfeval(@outer, @f, net, X, T);
    [a1, a2] = dlfeval(@outer, acc, net, X, T);
    P{end+1} = {p1, p2}; A{end+1} = {a1, a2};
    net.Learnables.Value{3} = net.Learnables.Value{3} + 0.25;
end
function [s, g] = outer(fun, net, X, T)
[loss, grads] = fun(net, X, T);
s = loss + sum(grads.Value{1}, 'all');
g = dlgradient(s, net.Learnables);
end
""" + LOSS.replace("net.Learnables)", "net.Learnables, EnableHigherDerivatives=true)") + NETWORK)
    for want, got in zip(out["P"].data.reshape(-1), out["A"].data.reshape(-1), strict=True):
        assert_same(want, got)
    assert replays["traced"] == 2


def test_network_key_covers_the_architecture_not_the_values(m) -> None:
    out = run_vars(m, """
rng(0);
a = mlp([3 4 2], tanhLayer, 'single');
b = mlp([3 4 2], tanhLayer, 'single');
c = mlp([3 4 2], tanhLayer, 'single');
d = mlp([3 5 2], tanhLayer, 'single');
""" + NETWORK)

    def key(net: object) -> tuple:
        found: list = []
        k = trace_cache.pattern_key([net], 1, True, found, as_traced=True)
        assert k is not None and len(found) == 4
        assert all(type(x) is DlArray for x in found)
        return k

    assert key(out["a"]) == key(out["b"]) == key(out["c"])
    assert key(out["a"]) != key(out["d"])
    found: list = []
    trace_cache.pattern_key([out["a"]], 1, True, found)
    assert found[0] is out["a"].learnable_values()[0]
