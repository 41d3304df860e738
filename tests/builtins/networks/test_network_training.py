"""Training a dlnetwork: gradients through dlfeval and dlgradient(loss, net.Learnables), and
the optimizers taking and returning networks."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.networks.layer_array import LayerArray
from mlang.errors import MatlabError
from mlang.values.table import Table
from tests.builtins.networks import network_test_layers as t
from tests.builtins.networks.helpers import MODEL_LOSS, data

TWO_NETWORKS = """
function [loss, gE, gU] = twoLoss(netE, netU, X)
    Z = forward(netE, X);
    Y = forward(netU, Z);
    loss = sum(Y.^2, 'all');
    [gE, gU] = dlgradient(loss, netE.Learnables, netU.Learnables);
end
"""


@pytest.fixture
def files(tmp_path, monkeypatch):
    (tmp_path / "modelLoss.m").write_text(MODEL_LOSS)
    (tmp_path / "twoLoss.m").write_text(TWO_NETWORKS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def mlp(hidden: int = 8) -> LayerArray:
    return LayerArray([t.feature_input(1), t.fc(hidden), t.tanh(), t.fc(1)])


def test_adam_training_lowers_the_loss(m, files):
    m.run("""
    rng(0);
    net = dlnetwork(layers);
    X = dlarray(linspace(-1, 1, 30), 'CB');
    T = sin(3*X);
    avg = []; avgSq = [];
    for it = 1:50
        [loss, grads] = dlfeval(@modelLoss, net, X, T);
        if it == 1, first = extractdata(loss); end
        [net, avg, avgSq] = adamupdate(net, grads, avg, avgSq, it, 0.05);
    end
    last = extractdata(dlfeval(@modelLoss, net, X, T));
    """, layers=mlp())
    v = m.interp.base.vars
    first, last = (float(np.asarray(v[k]).reshape(-1)[0]) for k in ("first", "last"))
    assert last < 0.5 * first
    assert type(v["net"]).__name__ == "DlNetwork" and v["net"].initialized
    assert type(v["avg"]) is Table and v["avg"].height == 4
    w = v["net"].learnable_values()[0]
    assert type(w) is DlArray and w.data.dtype == np.float32 and w.node is None


def test_gradients_match_finite_differences(m, files):
    m.run("rng(1); net = dlnetwork(layers); X = dlarray(linspace(-1, 1, 7), 'CB'); T = cos(2*X);",
          layers=mlp(3))
    v = dict(m.interp.base.vars)
    net = v["net"]
    net = net.with_learnables([DlArray(data(p)) for p in net.learnable_values()])  # double
    grads = m.value("[~, g] = dlfeval(@modelLoss, net, X, T);", "g", net=net, X=v["X"], T=v["T"])
    assert grads.variable("Layer").data.reshape(-1).tolist() == ["fc_1", "fc_1", "fc_2", "fc_2"]
    got = [data(g) for g in grads.variable("Value").data.reshape(-1)]

    def loss(values):
        trial = net.with_learnables([DlArray(p) for p in values])
        out = m.value("L = extractdata(mse(predict(net, X), T));", "L", net=trial, X=v["X"], T=v["T"])
        return float(np.asarray(out).reshape(-1)[0])

    base = [data(p) for p in net.learnable_values()]
    step = 1e-6
    for k, param in enumerate(base):
        numeric = np.zeros(param.shape)
        for i in np.ndindex(param.shape):
            up = [p.copy() for p in base]
            down = [p.copy() for p in base]
            up[k][i] += step
            down[k][i] -= step
            numeric[i] = (loss(up) - loss(down)) / (2 * step)
        np.testing.assert_allclose(got[k], numeric, rtol=1e-5, atol=1e-8)


def test_other_optimizers_and_dlupdate_return_networks(m, files):
    m.run("""
    rng(0);
    net = dlnetwork(layers);
    X = dlarray(linspace(-1, 1, 5), 'CB');
    [~, grads] = dlfeval(@modelLoss, net, X, X);
    [n1, vel] = sgdmupdate(net, grads, [], 0.1);
    [n2, sq] = rmspropupdate(net, grads, []);
    n3 = dlupdate(@(p) 2*p, net);
    n4 = dlupdate(@(p, g) p - 0.5*g, net, grads);
    """, layers=mlp(2))
    v = m.interp.base.vars
    net, grads = v["net"], v["grads"]
    g = [data(x) for x in grads.variable("Value").data.reshape(-1)]
    p = [data(x) for x in net.learnable_values()]
    for name in ("n1", "n2", "n3", "n4"):
        assert type(v[name]).__name__ == "DlNetwork"
    assert type(v["vel"]) is Table and type(v["sq"]) is Table
    for k in range(4):
        np.testing.assert_allclose(data(v["n1"].learnable_values()[k]), p[k] - 0.1 * g[k], rtol=1e-5,
                                   atol=1e-7)
        np.testing.assert_allclose(data(v["n3"].learnable_values()[k]), 2 * p[k], rtol=1e-6)
        np.testing.assert_allclose(data(v["n4"].learnable_values()[k]), p[k] - 0.5 * g[k], rtol=1e-5,
                                   atol=1e-7)


def test_two_networks_and_a_struct_of_both(m, files):
    m.run("""
    rng(0);
    netE = dlnetwork(enc);
    netU = dlnetwork(dec, dlarray(zeros(2, 1), 'CB'));
    X = dlarray(rand(3, 4), 'CB');
    [loss, gE, gU] = dlfeval(@twoLoss, netE, netU, X);
    params.E = netE; params.U = netU;
    grads.E = gE; grads.U = gU;
    [params, avg, avgSq] = adamupdate(params, grads, [], [], 1);
    [params2, avg2, avgSq2] = adamupdate(params, grads, avg, avgSq, 2);
    cE = class(params2.E);
    """, enc=LayerArray([t.feature_input(3), t.fc(2)]), dec=LayerArray([t.fc(2, "dec"), t.tanh()]))
    v = m.interp.base.vars
    assert type(v["gE"]) is Table and v["gE"].height == 2
    assert v["gU"].variable("Layer").data.reshape(-1).tolist() == ["dec", "dec"]
    assert v["cE"].tobytes().decode("utf-16-le") == "dlnetwork"
    before = data(v["netE"].learnable_values()[0])
    after = data(v["params"].elems.reshape(-1)[0]["E"].learnable_values()[0])
    np.testing.assert_allclose(np.abs(after - before), 0.001, rtol=1e-3)  # Adam's first step


def test_mismatched_gradients_are_an_error(m, files):
    with pytest.raises(MatlabError) as info:
        m.run("net = dlnetwork(layers); T = net.Learnables; adamupdate(net, T(1:2, :), [], [], 1);",
              layers=mlp(2))
    assert info.value.identifier == "deep:optimizers:MismatchedInputs"


def test_traced_network_outside_dlfeval_is_plain(m, files):
    m.run("net = dlnetwork(layers); [l, g] = dlfeval(@modelLoss, net, dlarray(1, 'CB'), dlarray(0, 'CB'));",
          layers=mlp(2))
    v = m.interp.base.vars
    assert all(x.node is None for x in v["g"].variable("Value").data.reshape(-1))
    assert all(x.node is None for x in v["net"].learnable_values())


def test_lbfgs_and_accelerated_loss_over_a_network(m, files):
    m.run("""
    rng(0);
    net = dlnetwork(layers);
    X = dlarray(linspace(-1, 1, 10), 'CB'); T = X.^2;
    first = double(extractdata(dlfeval(@modelLoss, net, X, T)));
    lossFcn = @(n) dlfeval(@modelLoss, n, X, T);
    solverState = lbfgsState;
    for it = 1:15
        [net, solverState] = lbfgsupdate(net, lossFcn, solverState);
    end
    last = double(extractdata(solverState.Loss));
    acc = dlaccelerate(@modelLoss);
    [l1, g1] = dlfeval(acc, net, X, T);
    [l2, g2] = dlfeval(@modelLoss, net, X, T);
    """, layers=mlp(6))
    v = m.interp.base.vars
    assert type(v["net"]).__name__ == "DlNetwork"
    assert float(np.asarray(v["last"]).reshape(-1)[0]) < 0.1 * float(np.asarray(v["first"]).reshape(-1)[0])
    for a, b in zip(v["g1"].variable("Value").data.reshape(-1), v["g2"].variable("Value").data.reshape(-1),
                    strict=True):
        np.testing.assert_allclose(data(a), data(b), rtol=1e-4, atol=1e-6)
