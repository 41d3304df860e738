"""adamupdate writes a training loop's next joint step over the arrays of its last one when
the parameters and both moving averages are donated and nothing else reaches those arrays
(optimizers._rows_owned): the same values as a step into new arrays, bit for bit, and any
value that still holds one of the arrays (a dlarray, its data, a part of it, a copy of a
container, a cell, a caller's variable) keeps what it held."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning import optimizers
from mlang.values.cell import Cell
from mlang.values.core import char_row
from mlang.values.struct import Struct

SETUP = """
p.W = dlarray(cast([1 -2 0.5; 3 4 -1], cls));
p.b = dlarray(cast([0.5; -1], cls), 'CB');
avg = []; avgSq = [];
"""


def gradient(k: str = "k") -> str:
    return (f"g.W = dlarray(cast({k} * [0.1 -0.2 NaN; 1e-3 0 -Inf], cls)); "
            f"g.b = dlarray(cast([{k}; -0.5], cls), 'CB');")


LOOP = SETUP + """
for k = 1:5
    """ + gradient() + """
    [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, k);
end
"""


class Counter:
    def __init__(self, real) -> None:
        self.real = real
        self.owned = 0

    def __call__(self, *args):
        out = self.real(*args)
        self.owned += out
        return out


def both_ways(m, monkeypatch, code: str, names: tuple, cls: str = "single") -> tuple[list, list, int]:
    counter = Counter(optimizers._rows_owned)
    monkeypatch.setattr(optimizers, "_rows_owned", counter)
    in_place = m.values(code, *names, cls=char_row(cls))
    in_place = [_copied(v) for v in in_place]
    monkeypatch.setattr(optimizers, "_rows_owned", lambda *args: False)
    fresh = m.values(code, *names, cls=char_row(cls))
    return in_place, fresh, counter.owned


def _copied(v):
    """A value's arrays copied (a later run must not change what is compared)."""
    if type(v) is DlArray:
        return DlArray(v.data.copy(), v.fmt)
    if type(v) is Struct:
        elems = np.empty(v.elems.shape, dtype=object)
        elems.reshape(-1)[0] = {k: _copied(x) for k, x in v.elems.item().items()}
        return Struct(list(v.fields), elems)
    if type(v) is Cell:
        data = np.empty(v.data.shape, dtype=object)
        data.reshape(-1)[:] = [_copied(x) for x in v.data.reshape(-1)]
        return Cell(data)
    if type(v) is np.ndarray:
        return v.copy()
    return v


def same(a, b) -> None:
    assert type(a) is type(b)
    if type(a) is Struct:
        assert a.fields == b.fields
        for name in a.fields:
            same(a.elems[0, 0][name], b.elems[0, 0][name])
        return
    if type(a) is Cell:
        for x, y in zip(a.data.reshape(-1), b.data.reshape(-1), strict=True):
            same(x, y)
        return
    if type(a) is DlArray:
        assert a.fmt == b.fmt
        a, b = a.data, b.data
    if type(a) in (float, bool):
        assert a == b
        return
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("cls", ["single", "double"])
def test_a_training_loop_steps_in_place_with_the_same_values(m, monkeypatch, cls: str) -> None:
    in_place, fresh, owned = both_ways(m, monkeypatch, LOOP, ("p", "avg", "avgSq"), cls)
    assert owned == 4  # every step after the first (which makes the joint buffer)
    for a, b in zip(in_place, fresh, strict=True):
        same(a, b)


# Values that hold an array of the last step when the next one is made: each keeps its values.
HOLDERS = {
    "a dlarray": ("held = p.W;", "held"),
    "its data": ("held = extractdata(p.W);", "held"),
    "a part of its data": ("d = extractdata(p.W); held = d(1, :);", "held"),
    "a part of its data alone": ("d = extractdata(p.W); held = d(1, :); clear d", "held"),
    "its data reshaped": ("held = reshape(extractdata(avgSq.W), 1, []);", "held"),
    "its data transposed": ("held = extractdata(p.W).';", "held"),
    "a moving average": ("held = avg.b;", "held"),
    "a copy of the parameters": ("held = p;", "held"),
    "a copy of the squared averages": ("held = avgSq;", "held"),
    "a cell": ("held = {p.b, 1};", "held"),
}


@pytest.mark.parametrize("holder", list(HOLDERS))
def test_values_holding_the_arrays_keep_them(m, monkeypatch, holder: str) -> None:
    take, name = HOLDERS[holder]
    first = SETUP + """
    for k = 1:3
        """ + gradient() + """
        [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, k);
    end
    """ + take
    code = first + """
    """ + gradient("4") + """
    [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, 4);
    """ + gradient("5") + """
    [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, 5);
    """
    taken = _copied(m.values(first, name, cls=char_row("single"))[0])
    in_place, fresh, _ = both_ways(m, monkeypatch, code, (name, "p", "avg", "avgSq"))
    same(in_place[0], taken)  # what it held before the two steps
    for a, b in zip(in_place, fresh, strict=True):
        same(a, b)


def test_a_callers_parameters_are_left_as_they_were(m, monkeypatch, tmp_path) -> None:
    (tmp_path / "train_more.m").write_text("""function [p, avg, avgSq] = train_more(p, avg, avgSq, cls)
for k = 3:6
    g.W = dlarray(cast(k * [0.1 -0.2 0.3; 1e-3 0 -1], cls));
    g.b = dlarray(cast([k; -0.5], cls), 'CB');
    [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, k);
end
end
""")
    m.interp.path.append(str(tmp_path))
    m.interp.invalidate()
    code = SETUP + """
    for k = 1:2
        """ + gradient() + """
        [p, avg, avgSq] = adamupdate(p, g, avg, avgSq, k);
    end
    W = extractdata(p.W) + 0;
    [q, a2, s2] = train_more(p, avg, avgSq, cls);
    same_W = isequaln(extractdata(p.W), W);
    """
    try:
        in_place, fresh, _ = both_ways(m, monkeypatch, code, ("q", "a2", "s2", "same_W", "p"))
    finally:
        m.interp.path.remove(str(tmp_path))
        m.interp.invalidate()
    for a, b in zip(in_place, fresh, strict=True):
        same(a, b)
    assert in_place[3] is True


def test_a_network_training_loop_steps_in_place(m, monkeypatch) -> None:
    code = """
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
    held = net.Learnables;
    grads = dlfeval(gradient_of, net, X, T);
    [net, avg, avgSq] = adamupdate(net, grads, avg, avgSq, 5);
    values = net.Learnables.Value; averages = avg.Value; kept = held.Value;
    """
    in_place, fresh, owned = both_ways(m, monkeypatch, code, ("values", "averages", "kept"))
    assert owned == 3  # steps 2 to 4 (at the fifth the Learnables table is held)
    for a, b in zip(in_place, fresh, strict=True):
        for x, y in zip(a.data.reshape(-1), b.data.reshape(-1), strict=True):
            same(x, y)
