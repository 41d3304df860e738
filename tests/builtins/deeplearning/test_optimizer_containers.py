"""The optimizers' quick handling of one-level containers (outputs rebuilt with no second walk,
a network's learnables set layer by layer, a double iteration checked as it is) gives what the
general walk gives: the same containers, the same values bit for bit, the same errors."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning import containers, optimizers
from mlang.errors import MatlabError
from mlang.values.cell import Cell
from mlang.values.struct import Struct
from mlang.values.table import Table


def arrays(value: object) -> list[np.ndarray]:
    return [p.data if type(p) is DlArray else np.asarray(p) for p in containers.parameters_of(value)]


def same_values(a: object, b: object) -> bool:
    xs, ys = arrays(a), arrays(b)
    return len(xs) == len(ys) and all(
        x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y, equal_nan=True)
        for x, y in zip(xs, ys, strict=True))


def same_structure(a: object, b: object) -> bool:
    """The same kind of container, laid out alike (fields, sizes, table variables, formats)."""
    if type(a) is not type(b):
        return False
    if type(a) is Struct:
        return a.fields == b.fields and a.elems.shape == b.elems.shape
    if type(a) is Cell:
        return a.data.shape == b.data.shape
    if type(a) is Table:
        return a.names == b.names and a.nrows == b.nrows and a.variables[:2] == b.variables[:2]
    if type(a) is DlArray:
        return a.fmt == b.fmt
    return True


def general(fn, first, *others, nout, shaped_like=(), missing_allowed=True):
    """map_parameter_rows through the general walk (every container walked level by level)."""
    params = containers.parameters_of(first)
    columns = [None if missing_allowed and containers.is_missing(o) else
               containers.matching_parameters(first, o) for o in others]
    rows = list(zip(params, *[[None] * len(params) if c is None else c for c in columns], strict=True))
    outs = list(zip(*fn(rows), strict=True)) if rows else [() for _ in range(nout)]
    inputs = (first, *others)
    return [containers._rebuild(containers._template(first, inputs[shaped_like[j]]) if j < len(shaped_like)
                                else first, iter(list(out))) for j, out in enumerate(outs)]


def scaled(rows):
    out = []
    for row in rows:
        p, g = row[0], row[1]
        pd = p.data if type(p) is DlArray else p
        gd = g.data if type(g) is DlArray else g
        out.append((DlArray(pd - 0.5 * gd, p.fmt if type(p) is DlArray else ""), DlArray(gd * 2.0)))
    return out


NETWORK = """
layers = [featureInputLayer(3); fullyConnectedLayer(4, Weights=single(reshape(1:12, 4, 3)), Bias=single([1;2;3;4]));
          tanhLayer; fullyConnectedLayer(2, Weights=single(reshape(1:8, 2, 4)/7), Bias=single([0;-1]))];
net = dlnetwork(layers);
g = net.Learnables;
g.Value = cellfun(@(v) v/3, g.Value, 'UniformOutput', false);
"""


def containers_of(m, kind: str) -> tuple:
    if kind == "struct":
        p, g = m.values("p.W = dlarray([1 2; 3 4]); p.b = dlarray([5; 6], 'CB'); "
                        "g.b = dlarray([0.5; NaN], 'CB'); g.W = dlarray([1 -1; 2 0]);", "p", "g")
    elif kind == "struct array":
        p, g = m.values("p = struct('W', {dlarray(single([1 2])), dlarray(single(3))}); "
                        "g = struct('W', {dlarray(single([4 5])), dlarray(single(6))});", "p", "g")
    elif kind == "cell":
        p, g = m.values("p = {dlarray([1 2]), [3; 4]; dlarray(5), dlarray(zeros(0, 3))}; "
                        "g = {dlarray([1 1]), [2; 2]; dlarray(3), dlarray(zeros(0, 3))};", "p", "g")
    elif kind == "nested":
        p, g = m.values("p.a.W = dlarray([1 2]); p.b = {dlarray(3)}; "
                        "g.a.W = dlarray([4 5]); g.b = {dlarray(6)};", "p", "g")
    elif kind == "table":
        p, g = m.values("p = table(['a'; 'b'], ['W'; 'b'], {dlarray([1 2]); dlarray(3)}, 'VariableNames', "
                        "{'Layer', 'Parameter', 'Value'}); g = p; g.Value = {dlarray([4 5]); dlarray(6)};",
                        "p", "g")
    else:
        assert kind == "network"
        p, g = m.values(NETWORK, "net", "g")
    return p, g


KINDS = ["struct", "struct array", "cell", "nested", "table", "network"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shaped_like", [(0, 1), (1, 1), (0, 0)])
def test_map_parameter_rows_gives_the_general_walks_containers(m, kind, shaped_like):
    p, g = containers_of(m, kind)
    got = containers.map_parameter_rows(scaled, p, g, nout=2, missing_allowed=True, shaped_like=shaped_like)
    want = general(scaled, p, g, nout=2, shaped_like=shaped_like)
    for a, b in zip(got, want, strict=True):
        assert same_structure(a, b) and same_values(a, b)
        for x, y in zip(containers.parameters_of(a), containers.parameters_of(b), strict=True):
            assert same_structure(x, y)


@pytest.mark.parametrize("kind", KINDS)
def test_map_parameter_rows_with_a_missing_state(m, kind):
    p, g = containers_of(m, kind)
    empty = np.zeros((0, 0))
    rows = lambda rs: [(r[0], DlArray(np.zeros(1)) if r[2] is None else r[2]) for r in rs]  # noqa: E731
    got = containers.map_parameter_rows(rows, p, g, empty, nout=2, missing_allowed=True, shaped_like=(0, 2))
    want = general(rows, p, g, empty, nout=2, shaped_like=(0, 2))
    for a, b in zip(got, want, strict=True):
        assert same_structure(a, b) and same_values(a, b)


def test_struct_fields_in_another_order_are_matched_by_name(m):
    p, g = m.values("p.W = dlarray([1 2]); p.b = dlarray(3); g.b = dlarray(30); g.W = dlarray([10 20]);",
                    "p", "g")
    new_p, new_g = containers.map_parameter_rows(scaled, p, g, nout=2, shaped_like=(0, 1))
    assert new_p.fields == ["W", "b"] and new_g.fields == ["W", "b"]
    assert np.array_equal(new_g.elems.item()["W"].data, [[20.0, 40.0]])


def test_mismatched_one_level_containers_still_fail(m):
    p, g = containers_of(m, "network")
    short = g.copy(variables=[v for v in g.variables], nrows=g.nrows)
    short.nrows = 3
    with pytest.raises(MatlabError):
        containers.map_parameter_rows(scaled, p, short, nout=2)
    with pytest.raises(MatlabError):
        m.run("s.W = dlarray(1); t.V = dlarray(2); [a, b, c] = adamupdate(s, t, [], [], 1);")
    with pytest.raises(MatlabError):
        m.run("adamupdate({dlarray(1), dlarray(2)}, {dlarray(1)}, [], [], 1);")


def test_a_networks_new_learnables_leave_the_old_network_unchanged(m):
    net, g = containers_of(m, "network")
    before = [v.data.copy() for v in net.learnable_values()]
    values = [DlArray(v.data * 2) for v in net.learnable_values()]
    new = net.with_learnables(values)
    assert all(a is b for a, b in zip(new.learnable_values(), values, strict=True))
    assert all(np.array_equal(v.data, b) for v, b in zip(net.learnable_values(), before, strict=True))
    for old_layer, new_layer in zip(net.layers(), new.layers(), strict=True):
        assert type(old_layer) is type(new_layer)
        assert old_layer.values.keys() == new_layer.values.keys()
        for name, value in old_layer.values.items():
            if name not in old_layer.LEARNABLES:
                assert new_layer.values[name] is value


@pytest.mark.parametrize("dtype", ["single", "double"])
def test_adamupdate_of_a_network_matches_a_struct_of_its_learnables(m, dtype):
    code = NETWORK.replace("single(", f"{dtype}(") + """
    s = struct(); gs = struct();
    for k = 1:height(g)
        s.(sprintf('p%d', k)) = net.Learnables.Value{k}; gs.(sprintf('p%d', k)) = g.Value{k};
    end
    a = []; v = []; as = []; vs = [];
    old = net;
    for t = 1:3
        [net, a, v] = adamupdate(net, g, a, v, t);
        [s, as, vs] = adamupdate(s, gs, as, vs, t);
    end
    w = struct2cell(s); aw = struct2cell(as);
    """
    net, s, a, aw, old = m.values(code, "net", "w", "a", "aw", "old")
    got = [x.data for x in net.learnable_values()]
    want = [x.data for x in s.data.reshape(-1)]
    assert all(x.dtype == np.dtype(dtype.replace("single", "float32").replace("double", "float64"))
               and np.array_equal(x, y) for x, y in zip(got, want, strict=True))
    assert all(np.array_equal(x.data, y.data) for x, y in
               zip(a.variables[2].data.reshape(-1), aw.data.reshape(-1), strict=True))
    # the network kept from before the steps still holds its first values
    assert np.array_equal(old.learnable_values()[1].data.reshape(-1), [1, 2, 3, 4])


def test_shapes_changing_between_calls(m):
    code = """
    p = {dlarray([1 2 3]), dlarray(4)}; g = {dlarray([1 1 1]), dlarray(1)};
    [p, a, v] = adamupdate(p, g, [], [], 1);
    q = {dlarray([1; 2]), dlarray([5 6])}; h = {dlarray([1; 1]), dlarray([1 1])};
    [q, b, w] = adamupdate(q, h, [], [], 1);
    [p, a, v] = adamupdate(p, g, a, v, 2);
    """
    p, q, a = m.values(code, "p", "q", "a")
    assert [x.data.shape for x in p.data.reshape(-1)] == [(1, 3), (1, 1)]
    assert [x.data.shape for x in q.data.reshape(-1)] == [(2, 1), (1, 2)]
    one = [optimizers.adam_step(np.array([[1.0, 2, 3]]), np.ones((1, 3)), None, None, 1, 1e-3, 0.9, 0.999, 1e-8)]
    one.append(optimizers.adam_step(one[0][0], np.ones((1, 3)), one[0][1], one[0][2], 2, 1e-3, 0.9, 0.999,
                                    1e-8))
    assert np.array_equal(p.data.reshape(-1)[0].data, one[1][0])
    assert np.array_equal(a.data.reshape(-1)[0].data, one[1][1])


SETTINGS = [dict(positive=True, integer=True), dict(below_one=True), dict(at_most_one=True), dict(positive=True),
            dict()]


@pytest.mark.parametrize("flags", SETTINGS)
@pytest.mark.parametrize("number", [1.0, 3.0, 0.5, 0.0, -2.0, 1.5, float("nan"), float("inf"), -float("inf")])
def test_a_double_setting_is_checked_as_an_array_is(flags, number):
    def outcome(value):
        try:
            return optimizers.hyperparameter(value, "x", 7.0, "adamupdate", **flags)
        except MatlabError as err:
            return err.identifier

    got, want = outcome(number), outcome(np.array([[number]]))
    assert got == want or (got != got and want != want)
