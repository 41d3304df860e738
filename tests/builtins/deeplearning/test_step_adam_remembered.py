"""adamupdate's step on a struct whose parameters and moving averages are the arrays its
last step returned (the remembered layout, checked by identity) gives what the general
container step gives, bit for bit: the same loops run with that path turned off, in
single and double, with NaN and Inf in the gradients, gradients of another class or size,
states that are not the last step's and structs of other fields."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning import optimizers
from mlang.errors import MatlabError
from mlang.values.core import char_row
from mlang.values.struct import Struct

SETUP = """
p.W = dlarray(cast([1 -2 0.5; 3 4 -1], cls));
p.b = dlarray(cast([0.5; -1], cls), 'CB');
p.s = dlarray(cast(2, cls));
avg = []; avgSq = [];
"""

LOOP = SETUP + """
for k = 1:4
    g.W = dlarray(cast(k * [0.1 -0.2 NaN; 1e-3 0 -Inf], cls));
    g.b = dlarray(cast([k; -0.5], cls), 'CB');
    g.s = dlarray(cast(-k, cls));
    [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, k);
end
"""


class Counter:
    """Counts the steps the remembered path took (its results not None)."""

    def __init__(self, real) -> None:
        self.real = real
        self.taken = 0

    def __call__(self, *args, **kwargs):
        out = self.real(*args, **kwargs)
        if out is not None:
            self.taken += 1
        return out


def both_ways(m, monkeypatch, code: str, names: tuple, **inputs) -> tuple[list, list, int]:
    """The values of ``names`` after ``code``, with the remembered path and without it, and
    how many steps took it."""
    counter = Counter(optimizers._remembered_step)
    monkeypatch.setattr(optimizers, "_remembered_step", counter)
    fast = m.values(code, *names, **inputs)
    monkeypatch.setattr(optimizers, "_remembered_step", lambda *args: None)
    general = m.values(code, *names, **inputs)
    return fast, general, counter.taken


def same(a, b) -> None:
    """Equal values bit for bit: structs of dlarrays field by field (format, class, shape)."""
    assert type(a) is type(b)
    if type(a) is Struct:
        assert a.fields == b.fields and a.elems.shape == b.elems.shape
        for name in a.fields:
            same(a.elems[0, 0][name], b.elems[0, 0][name])
        return
    assert type(a) is DlArray and a.node is None and b.node is None and a.fmt == b.fmt
    assert a.data.dtype == b.data.dtype and a.data.shape == b.data.shape
    np.testing.assert_array_equal(a.data, b.data)


@pytest.mark.parametrize("cls", ["single", "double"])
def test_a_training_loop_matches_the_general_step(m, monkeypatch, cls: str) -> None:
    fast, general, taken = both_ways(m, monkeypatch, LOOP, ("p", "avg", "avgSq"), cls=char_row(cls))
    assert taken == 3  # every step after the first
    for a, b in zip(fast, general, strict=True):
        same(a, b)
    w = fast[0].elems[0, 0]["W"].data
    assert w.dtype == np.dtype("float32" if cls == "single" else "float64")
    assert np.isnan(w[0, 2]) and fast[0].elems[0, 0]["b"].fmt == "CB"
    # the values themselves: four steps of the formula, one parameter at a time
    alone = m.values(SETUP + """
        for k = 1:4
            gb = dlarray(cast([k; -0.5], cls), 'CB');
            if k == 1
                [b, ab, sb] = adamupdate(p.b, gb, [], [], k);
            else
                [b, ab, sb] = adamupdate(b, gb, ab, sb, k);
            end
        end
        """, "b", "ab", "sb", cls=char_row(cls))
    for got, want in zip(fast, alone, strict=True):
        same(got.elems[0, 0]["b"], want)


DECLINED = {
    # gradients of another class: converted by the general path
    "double gradient": "g.W = dlarray([0.1 0.2 0.3; 0.4 0.5 0.6]);",
    # a plain array among the gradients
    "plain gradient": "g.s = single(3);",
    # moving averages that are not the last step's arrays (same values, new arrays)
    "new averages": "avg.W = avg.W + 0;",
    "new squared averages": "avgSq.b = avgSq.b * 1;",
    # parameters changed between the steps
    "new parameters": "p.W = p.W - 0;",
    # gradient fields in another order
    "field order": "g = orderfields(g, {'s', 'W', 'b'});",
}


@pytest.mark.parametrize("change", list(DECLINED))
def test_other_inputs_take_the_general_step(m, monkeypatch, change: str) -> None:
    code = SETUP + """
    g.W = dlarray(single([0.1 -0.2 0.3; 1e-3 0 -1]));
    g.b = dlarray(single([1; -0.5]), 'CB');
    g.s = dlarray(single(-1));
    [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, 1);
    """ + DECLINED[change] + """
    [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, 2);
    """
    fast, general, taken = both_ways(m, monkeypatch, code, ("p", "avg", "avgSq"), cls=char_row("single"))
    assert taken == 0
    for a, b in zip(fast, general, strict=True):
        same(a, b)


ERRORS = {
    "gradient size": "g.W = dlarray(single([1 2; 3 4]));",
    "missing field": "g = rmfield(g, 's');",
    "cell gradient": "g.W = {1};",
}


@pytest.mark.parametrize("change", list(ERRORS))
def test_errors_are_those_of_the_general_step(m, monkeypatch, change: str) -> None:
    code = SETUP + """
    g.W = dlarray(single([0.1 -0.2 0.3; 1e-3 0 -1]));
    g.b = dlarray(single([1; -0.5]), 'CB');
    g.s = dlarray(single(-1));
    [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, 1);
    """ + ERRORS[change] + """
    [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, 2);
    """
    found = []
    for turned_off in (False, True):
        if turned_off:
            monkeypatch.setattr(optimizers, "_remembered_step", lambda *args: None)
        with pytest.raises(MatlabError) as info:
            m.run(code, cls=char_row("single"))
        found.append((info.value.identifier, info.value.message))
    assert found[0] == found[1]


def test_two_models_trained_in_turn(m, monkeypatch) -> None:
    code = SETUP + """
    q = p; q.W = dlarray(single([2 2 2; -1 -1 -1]));
    aq = []; sq = [];
    for k = 1:3
        g.W = dlarray(cast(k * [0.1 -0.2 0.3; 1e-3 0 -1], cls));
        g.b = dlarray(cast([k; -0.5], cls), 'CB');
        g.s = dlarray(cast(-k, cls));
        [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, k);
        [q, aq, sq] = adamupdate(q, g, aq, sq, k);
    end
    """
    fast, general, taken = both_ways(m, monkeypatch, code, ("p", "avg", "avgSq", "q", "aq", "sq"),
                                     cls=char_row("single"))
    assert taken == 4
    for a, b in zip(fast, general, strict=True):
        same(a, b)


def test_a_network_training_loop_matches_the_general_step(m, monkeypatch) -> None:
    code = """
    rng(4);
    net = dlnetwork([featureInputLayer(3); fullyConnectedLayer(4); tanhLayer; fullyConnectedLayer(1)]);
    X = dlarray(single([0.1 -0.5 1 2; 0.3 0.2 -1 NaN; 1 2 3 4]), 'CB');
    T = single([1 0 -1 0.5]);
    gradient_of = @(net, X, T) dlgradient(mse(forward(net, X), T), net.Learnables);
    avg = []; avgSq = [];
    for k = 1:3
        grads = dlfeval(gradient_of, net, X(:, 1:3), T(1:3));
        [net, avg, avgSq] = adamupdate(net, grads, avg, avgSq, k);
    end
    values = net.Learnables.Value; averages = avg.Value; squares = avgSq.Value;
    """
    fast, general, taken = both_ways(m, monkeypatch, code, ("values", "averages", "squares"))
    assert taken == 2
    for a, b in zip(fast, general, strict=True):
        cells_a, cells_b = a.data.reshape(-1), b.data.reshape(-1)
        assert len(cells_a) == len(cells_b) == 4
        for x, y in zip(cells_a, cells_b, strict=True):
            same(x, y)


def test_a_cell_array_training_loop_matches_the_general_step(m, monkeypatch) -> None:
    code = """
    p = {dlarray(single([1 2; 3 4])), dlarray(single([0.5 -1]))};
    avg = []; avgSq = [];
    for k = 1:3
        g = {dlarray(single(k * [0.1 -0.2; Inf 1e-3])), dlarray(single([k 0]))};
        [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, k);
    end
    """
    fast, general, taken = both_ways(m, monkeypatch, code, ("p", "avg", "avgSq"))
    assert taken == 2
    for a, b in zip(fast, general, strict=True):
        for x, y in zip(a.data.reshape(-1), b.data.reshape(-1), strict=True):
            same(x, y)
