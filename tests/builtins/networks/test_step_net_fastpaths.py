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
