"""The quick paths of a dlnetwork training step give what the general paths give:
forward with dlarray inputs only (no option names looked for), a feature input layer with
no normalisation (its text not made each pass), dlgradient on a Learnables table."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.values.table import Table
from tests.builtins.conftest import Session
from tests.builtins.networks.helpers import data, fails


@pytest.fixture(scope="module")
def m() -> Session:
    return Session()


NET = ("rng(0); net = dlnetwork([featureInputLayer(3, Normalization={norm}); fullyConnectedLayer(4); "
       "tanhLayer; fullyConnectedLayer(2, Name='out')]);")


@pytest.mark.parametrize("norm", ["'none'", '"none"', "'zerocenter'", "'zscore'", "@(x) 2*x"])
@pytest.mark.parametrize("cls", ["single", "double"])
def test_forward_with_and_without_options(m, norm, cls):
    y, named, pred, plain = m.values(
        NET.format(norm=norm)
        + f"X = dlarray({cls}(reshape(1:15, 3, 5)) / 7, 'CB');"
        "y = forward(net, X); named = forward(net, X, Outputs='out'); pred = predict(net, X);"
        "plain = forward(net, extractdata(X)');",
        "y", "named", "pred", "plain")
    assert type(y) is DlArray and y.fmt == "CB" and y.data.dtype == named.data.dtype
    np.testing.assert_array_equal(y.data, named.data)
    np.testing.assert_array_equal(y.data, pred.data)
    np.testing.assert_array_equal(data(plain), y.data.T)


def test_input_layer_none_matches_function_normalisation(m):
    a, b = m.values(NET.format(norm="'none'") + "n1 = net; "
                    + NET.format(norm="@(x) x") + "X = dlarray(single([1 -2; NaN 4; 0 Inf]), 'CB');"
                    "a = forward(n1, X); b = forward(net, X);", "a", "b")
    np.testing.assert_array_equal(a.data, b.data)


def test_empty_batch_and_errors(m):
    y = m.value(NET.format(norm="'none'") + "y = forward(net, dlarray(single(zeros(3, 0)), 'CB'));", "y")
    assert y.data.shape == (2, 0)
    err = fails(m, NET.format(norm="'none'") + "forward(net, dlarray(single(ones(3, 2)), 'CB'), 'Outputs');")
    assert err.identifier
    err = fails(m, NET.format(norm="'none'") + "forward(net, dlarray(single(ones(3, 2)), 'CB'), "
                   "dlarray(single(1), 'CB'));")
    assert err.identifier == "deep:dlnetwork:WrongNumberOfInputs"


def test_gradient_of_learnables_table_matches_cells(m):
    m.run("")
    grads, cells = m.values(
        NET.format(norm="'none'")
        + "X = dlarray(single(reshape(1:12, 3, 4)) / 5, 'CB'); T = single(ones(2, 4));"
        "[grads, cells] = dlfeval(@(n) deal(dlgradient(mse(forward(n, X), T), n.Learnables), "
        "dlgradient(mse(forward(n, X), T), n.Learnables.Value)), net);",
        "grads", "cells")
    assert type(grads) is Table
    values = grads.variable("Value").data.reshape(-1)
    assert len(values) == 4
    for g, c in zip(values, cells.data.reshape(-1), strict=True):
        assert type(g) is DlArray and g.data.dtype == np.float32
        np.testing.assert_array_equal(g.data, c.data)


@pytest.mark.parametrize("update", [
    "adamupdate({p}, {g}, {a}, {s}, {k})",
    "rmspropupdate({p}, {g}, {s})",
    "sgdmupdate({p}, {g}, {a})",
])
def test_network_and_table_updates_match_cell_updates(m, update):
    """Two steps on a network with Learnables tables (its gradients and states) give what
    the same steps give on cell arrays of the values, and on a table of them."""
    code = NET.format(norm="'none'") + (
        "X = dlarray(single(reshape(1:12, 3, 4)) / 5, 'CB'); T = single([1 NaN 0 2; 1 1 -1 0]);"
        "[~, G] = dlfeval(@(n) deal(0, dlgradient(mse(forward(n, X), T), n.Learnables)), net);"
        "G.Value{2}(1) = NaN;"
        "c = net.Learnables.Value; gc = G.Value; L = net.Learnables;"
        "a = []; s = []; ac = []; sc = []; at = []; st = [];"
        "for k = 1:2,"
        " [net, a, s] = UPDATE_NET; [c, ac, sc] = UPDATE_CELL; [L, at, st] = UPDATE_TABLE;"
        "end")
    fill = {"adamupdate": 3, "rmspropupdate": 2, "sgdmupdate": 2}[update.split("(")[0]]
    outs = ["{p}", "{a}", "{s}"] if fill == 3 else ["{p}", "{s}"] if "rmsprop" in update else ["{p}", "{a}"]

    def call(p, g, a, s):
        text = update.format(p=p, g=g, a=a, s=s, k="k")
        lhs = ", ".join(o.format(p=p, a=a, s=s) for o in outs)
        return f"[{lhs}] = {text}"
    code = code.replace("[net, a, s] = UPDATE_NET", call("net", "G", "a", "s"))
    code = code.replace("[c, ac, sc] = UPDATE_CELL", call("c", "gc", "ac", "sc"))
    code = code.replace("[L, at, st] = UPDATE_TABLE", call("L", "G", "at", "st"))
    state = "s" if "rmsprop" in update else "a"
    v_net, v_cell, v_table, st_net, st_cell, st_table = m.values(
        code + f"; v_net = net.Learnables.Value; v_table = L.Value; st_net = {state}.Value;"
        f"st_cell = {state}c; st_table = {state}t.Value;",
        "v_net", "c", "v_table", "st_net", "st_cell", "st_table")
    for a, b, c in zip(v_net.data.ravel(), v_cell.data.ravel(), v_table.data.ravel(), strict=True):
        assert type(a) is DlArray and a.data.dtype == np.float32
        np.testing.assert_array_equal(a.data, b.data)
        np.testing.assert_array_equal(a.data, c.data)
    for a, b, c in zip(st_net.data.ravel(), st_cell.data.ravel(), st_table.data.ravel(), strict=True):
        np.testing.assert_array_equal(a.data, b.data)
        np.testing.assert_array_equal(a.data, c.data)
