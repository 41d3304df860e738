"""adamupdate written over a training loop's arrays gives back its inputs themselves when
they are what its results would be rebuilt as (optimizers._containers_kept): a scalar
struct, a network with its states as the gradients' Learnables tables.  The values are
those of a step into new containers, bit for bit; states that differ from the gradients'
tables in anything but their values, or dlarrays of another format than their
parameter's, are rebuilt as before."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning import optimizers
from mlang.values.cell import Cell
from mlang.values.core import char_row
from mlang.values.table import Table
from tests.builtins.deeplearning.test_step_adam_in_place import LOOP, _copied, same


class Kept:
    """Counts the steps whose inputs were given back."""

    def __init__(self, real) -> None:
        self.real = real
        self.kept = 0

    def __call__(self, *args):
        out = self.real(*args)
        self.kept += out is not None
        return out


def both_ways(m, monkeypatch, code: str, names: tuple, cls: str) -> tuple[list, list, int]:
    kept = Kept(optimizers._containers_kept)
    monkeypatch.setattr(optimizers, "_containers_kept", kept)
    given_back = [_copied(v) for v in m.values(code, *names, cls=char_row(cls))]
    monkeypatch.setattr(optimizers, "_containers_kept", lambda *args: None)
    rebuilt = m.values(code, *names, cls=char_row(cls))
    return given_back, rebuilt, kept.kept


@pytest.mark.parametrize("cls", ["single", "double"])
def test_a_struct_loop_gives_back_its_inputs_with_the_same_values(m, monkeypatch, cls: str) -> None:
    given_back, rebuilt, kept = both_ways(m, monkeypatch, LOOP, ("p", "avg", "avgSq"), cls)
    assert kept == 4  # every step after the first
    for a, b in zip(given_back, rebuilt, strict=True):
        same(a, b)


NETWORK = """
rng(4);
net = dlnetwork([featureInputLayer(3); fullyConnectedLayer(4); tanhLayer; fullyConnectedLayer(1)]);
X = dlarray(cast([0.1 -0.5 1; 0.3 0.2 -1; 1 2 3], cls), 'CB');
T = cast([1 0 -1], cls);
gradient_of = @(net, X, T) dlgradient(mse(forward(net, X), T), net.Learnables);
avg = []; avgSq = [];
for k = 1:4
    grads = dlfeval(gradient_of, net, X, T);
    [net, avg, avgSq] = adamupdate(net, grads, avg, avgSq, k);
end
values = net.Learnables.Value; averages = avg.Value; squares = avgSq.Value;
columns = isequal(avg.Layer, grads.Layer) && isequal(avgSq.Parameter, grads.Parameter);
out = predict(net, X);
"""


def test_a_network_loop_gives_back_its_inputs_with_the_same_values(m, monkeypatch) -> None:
    names = ("values", "averages", "squares", "out", "columns")
    given_back, rebuilt, kept = both_ways(m, monkeypatch, NETWORK, names, "single")
    assert kept == 3  # steps 2 to 4
    for a, b in zip(given_back[:3], rebuilt[:3], strict=True):
        for x, y in zip(a.data.reshape(-1), b.data.reshape(-1), strict=True):
            same(x, y)
    same(given_back[3], rebuilt[3])
    assert given_back[4] is True and rebuilt[4] is True


def _tables() -> tuple[Table, Table]:
    layer = Cell(np.array([["fc"], ["fc"]], dtype=object))
    grad = Table([layer, Cell(np.array([[DlArray(np.ones((2, 2)))], [DlArray(np.ones((2, 1)))]],
                                       dtype=object))], ["Layer", "Value"], nrows=2)
    state = grad.copy(variables=[layer, Cell(np.array([[DlArray(np.zeros((2, 2)))],
                                                        [DlArray(np.zeros((2, 1)))]], dtype=object))])
    return grad, state


def test_states_are_kept_only_as_the_gradients_tables_with_other_values() -> None:
    grad, state = _tables()
    assert optimizers._table_like(state, grad)
    other_layer = state.copy(variables=[Cell(np.array([["fc"], ["fc"]], dtype=object)),
                                        state.variables[1]])
    assert not optimizers._table_like(other_layer, grad)  # (equal, but another column)
    described = state.copy()
    described.description = "mine"
    assert not optimizers._table_like(described, grad)
    named = state.copy()
    named.row_names = ["a", "b"]
    assert not optimizers._table_like(named, grad)
    assert not optimizers._table_like(grad.variables[1], grad)


def test_states_of_another_format_than_their_parameter_are_rebuilt() -> None:
    data = [np.ones((2, 3)), np.zeros((2, 3)), np.full((2, 3), 2.0)]
    p, mean, square = (DlArray(d, "CB") for d in data)
    assert optimizers._held_as_they_are([p], [mean], [square], ([data[0]], [data[1]], [data[2]]))
    other = DlArray(data[1], "")
    assert not optimizers._held_as_they_are([p], [other], [square], ([data[0]], [data[1]], [data[2]]))
    assert not optimizers._held_as_they_are([p], [mean], [square],
                                            ([data[0].copy()], [data[1]], [data[2]]))
