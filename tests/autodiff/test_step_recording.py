"""Fast paths of a training step's recording and update give what the general paths give:
a function of one dlarray (tanh, exp...) recorded without dl_call's general walk,
fullyconnect and mse recording their operation directly, dlgradient with respect to a
struct of parameters, and adamupdate reading its previous results without copying them."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff import trace
from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning import basic_ops
from mlang.builtins.deeplearning.optimizers import _adam_together
from mlang.registry import BUILTINS
from tests.builtins.conftest import Session

FILES = {
    "fc_fast.m": """function [l, g] = fc_fast(p, x, T)
l = mse(tanh(fullyconnect(x, p.W, p.b)), T);
g = dlgradient(l, p);
end
""",
    "struct_grads.m": """function [g1, g2, g3] = struct_grads(p, c, n)
y = sum(p.a .* p.a, 'all') + sum(p.b, 'all') * p.c;
g1 = dlgradient(y, p, 'RetainData', true);
y2 = sum(c{1} .* c{1}, 'all') + sum(c{2}, 'all') * c{3};
g2 = dlgradient(y2, c);
y3 = sum(n.inner.a .* n.inner.a, 'all') + sum(n.inner.b, 'all') * n.inner.c + n.z;
g3 = dlgradient(y3, n);
end
""",
    "learnables_grads.m": """function [g1, g2] = learnables_grads(net, X)
Y = forward(net, X);
loss = sum(Y .* Y, 'all');
g1 = dlgradient(loss, net.Learnables, 'RetainData', true);
g2 = dlgradient(loss, net.Learnables.Value);
end
""",
}


@pytest.fixture(scope="module")
def m(tmp_path_factory: pytest.TempPathFactory) -> Session:
    folder = tmp_path_factory.mktemp("step_recording")
    for name, text in FILES.items():
        (folder / name).write_text(text)
    session = Session()
    session.interp.path.append(str(folder))
    session.interp.invalidate()
    return session


def _general_one(fn, interp, x):
    """dl_call's general path for one argument, as it was before the one-argument path."""
    raw = [x.data]
    outs = fn.invoke(interp, raw, 1)
    if fn.dl == "data" or not outs:
        return outs
    out = trace.result_data(outs[0])
    outs[0] = trace.record(fn if fn.dl == "differentiable" else None, (x,), raw, out, None)
    return outs


@pytest.mark.parametrize("name", ["tanh", "exp", "sum", "abs", "max", "sqrt", "isnan", "size"])
@pytest.mark.parametrize("data, fmt", [
    (np.array([[0.5, -1.0, np.inf, np.nan]]), ""),
    (np.array([[0.5, -2.0], [3.0, 0.0]], dtype=np.float32), "CB"),
    (np.array([[1 + 2j, -0.5j]]), "CB"),
    (np.array([[True, False]]), ""),
    (np.zeros((0, 3)), "CB"),
    (np.arange(6.0).reshape(1, 2, 3), "SSC"),
])
@pytest.mark.parametrize("traced", [False, True])
def test_one_argument_calls_match_the_general_path(m, name, data, fmt, traced):
    fn = BUILTINS[name]
    x = DlArray(data, fmt)
    if traced:
        x = trace.traced_input(x)
    with np.errstate(all="ignore"):
        got = trace.dl_call(fn, m.interp, [x], 1)
        want = _general_one(fn, m.interp, x)
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        assert type(a) is type(b)
        if type(a) is DlArray:
            assert a.fmt == b.fmt and (a.node is None) == (b.node is None)
            np.testing.assert_array_equal(a.data, b.data)
            assert a.data.dtype == b.data.dtype
            if a.node is not None:
                assert a.node.parents == b.node.parents and a.node.rule is b.node.rule
                assert a.node.op is b.node.op and a.node.args == b.node.args
                for r, s in zip(a.node.raw, b.node.raw, strict=True):
                    np.testing.assert_array_equal(r, s)
                    assert r.dtype == s.dtype
        else:
            np.testing.assert_array_equal(a, b)


def _get(m: Session, name: str):
    return m.interp.base.vars[name]


@pytest.mark.parametrize("cls", ["single", "double"])
def test_fullyconnect_and_mse_fast_paths_match_the_general_paths(m, cls):
    # the general paths: weights given formatted (fullyconnect lays them out) and the
    # targets as a dlarray of the predictions' format (mse lines them up)
    code = f"""
    rng(3); W = {cls}(randn(4, 3)); b = {cls}(randn(4, 1)); X = {cls}(randn(3, 5));
    T = {cls}(randn(4, 5));
    T(2, 3) = NaN;
    p.W = dlarray(W); p.b = dlarray(b);
    q.W = dlarray(W, 'UU'); q.b = dlarray(b, 'CU');
    x = dlarray(X, 'CB');
    [l1, g1] = dlfeval(@fc_fast, p, x, T);
    [l2, g2] = dlfeval(@fc_fast, q, x, dlarray(T, 'CB'));
    l1 = extractdata(l1); l2 = extractdata(l2);
    gW1 = extractdata(g1.W); gW2 = extractdata(g2.W); gb1 = extractdata(g1.b); gb2 = extractdata(g2.b);
    classes = strcmp(class(l1), '{cls}') && strcmp(class(gW1), '{cls}');
    """
    m.run(code)
    for a, b in (("l1", "l2"), ("gW1", "gW2"), ("gb1", "gb2")):
        np.testing.assert_array_equal(_get(m, a), _get(m, b))
    assert _get(m, "classes") is True


def test_fullyconnect_fast_path_records_what_record_makes():
    rng = np.random.default_rng(1)
    for dtype in (np.float64, np.float32, np.bool_):
        xd = rng.standard_normal((3, 4)) > 0 if dtype is np.bool_ else rng.standard_normal((3, 4)).astype(dtype)
        x = trace.traced_input(DlArray(xd, "CB"))
        w = DlArray(rng.standard_normal((2, 3)).astype(np.float32))  # untraced weights
        b = trace.traced_input(DlArray(rng.standard_normal((2, 1))))
        got = basic_ops.fully_connect_features(x, w, b)
        flat = DlArray(x.data, "", x.node)
        want = trace.record(basic_ops.FULLY_CONNECT, (flat, w, b), (x.data, w.data, b.data),
                            basic_ops._fully_connect(x.data, w.data, b.data), "CB")
        assert got.fmt == want.fmt == "CB"
        np.testing.assert_array_equal(got.data, want.data)
        assert got.node.parents == want.node.parents and got.node.rule is want.node.rule
        for r, s in zip(got.node.raw, want.node.raw, strict=True):
            assert r.dtype == s.dtype
            np.testing.assert_array_equal(r, s)
    untraced = basic_ops.fully_connect_features(DlArray(np.ones((3, 2)), "CB"), DlArray(np.ones((1, 3))),
                                                DlArray(np.ones((1, 1))))
    assert untraced.node is None and untraced.fmt == "CB"
    np.testing.assert_array_equal(untraced.data, np.full((1, 2), 4.0))


def test_fullyconnect_rule_matches_ops_products():
    rng = np.random.default_rng(2)
    for dtype in (np.float64, np.float32):
        g = rng.standard_normal((2, 5)).astype(dtype)
        x = np.asfortranarray(rng.standard_normal((3, 5)).astype(dtype))
        w = rng.standard_normal((2, 3)).astype(dtype)
        fast = [c() for c in basic_ops._fully_connect_rule(g, None, x, w, None)]
        want = [w.T @ g, g @ x.T, np.add.reduce(g, axis=1, keepdims=True)]
        for a, b in zip(fast, want, strict=True):
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)
    # complex data takes the general products
    gc = np.array([[1 + 1j, 2.0]])
    xc = np.array([[1.0, 2j]])
    wc = np.array([[3.0]])
    got = [c() for c in basic_ops._fully_connect_rule(gc, None, xc, wc, None)]
    np.testing.assert_array_equal(got[0], wc.T @ gc)
    np.testing.assert_array_equal(got[1], gc @ xc.T)


def test_dlgradient_of_a_struct_matches_a_cell_and_nested_structs(m):
    code = """
    p.a = dlarray(single([1 2; 3 4])); p.b = dlarray([0.5; -1], 'CB'); p.c = dlarray(2);
    c = {p.a, p.b, p.c};
    n.inner = p; n.z = dlarray(3);
    [g1, g2, g3] = dlfeval(@struct_grads, p, c, n);
    same = isequal(extractdata(g1.a), extractdata(g2{1}), extractdata(g3.inner.a)) && ...
           isequal(extractdata(g1.b), extractdata(g2{2}), extractdata(g3.inner.b)) && ...
           isequal(extractdata(g1.c), extractdata(g2{3}), extractdata(g3.inner.c));
    fmts = isequal({dims(g1.a), dims(g1.b), dims(g1.c)}, {'', 'CB', ''});
    cls = strcmp(class(extractdata(g1.a)), 'single');
    names = isequal(fieldnames(g1)', {'a', 'b', 'c'});
    """
    m.run(code)
    assert _get(m, "same") is True
    assert _get(m, "fmts") is True and _get(m, "cls") is True and _get(m, "names") is True


def test_dlgradient_of_a_struct_keeps_its_errors(m):
    err = m.fails("""
    p.a = dlarray(1);
    q.a = dlarray(2);
    dlfeval(@(p) dlgradient(p.a * 2, q), p);
    """)
    assert err.identifier == "deep:dlgradient:VariableNotTraced"
    err = m.fails("""
    p.a = dlarray(1 + 2i);
    dlfeval(@(p) dlgradient(real(p.a) * 2, p, 'AllowComplex', false), p);
    """)
    assert err.identifier == "deep:dlgradient:ComplexNotAllowed"


def _random_inputs(rng, shapes, dtype, first):
    rows = []
    for shape in shapes:
        p, g, mm, v = (rng.standard_normal(shape).astype(dtype) for _ in range(4))
        rows.append((p, g, None if first else mm, None if first else np.abs(v)))
    return rows


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_adam_together_with_remembered_layouts_matches_fresh_concatenation(dtype):
    rng = np.random.default_rng(5)
    shapes = [(3, 2), (3, 1), (1, 1), (2, 3)]
    first = _random_inputs(rng, shapes, dtype, True)
    layouts: dict = {}
    with_layouts = _adam_together(first, 0.9, 0.999, 1e-8, 1e-3, layouts)
    without = _adam_together(first, 0.9, 0.999, 1e-8, 1e-3)
    assert len(layouts) == 1
    for step in range(2, 5):
        grads = [rng.standard_normal(s).astype(dtype) for s in shapes]
        grads[1][0, 0] = np.nan if step == 3 else grads[1][0, 0]
        rows_a = [(p, g, mm, v) for (p, mm, v), g in zip(with_layouts, grads, strict=True)]
        rows_b = [(p, g, mm, v) for (p, mm, v), g in zip(without, grads, strict=True)]
        with_layouts = _adam_together(rows_a, 0.9, 0.999, 1e-8, 1e-3, layouts)
        without = _adam_together(rows_b, 0.9, 0.999, 1e-8, 1e-3)
        assert len(layouts) == 1  # the old layout gives way to the new one
        for a, b in zip(with_layouts, without, strict=True):
            for x, y in zip(a, b, strict=True):
                assert x.shape == y.shape and x.dtype == y.dtype
                np.testing.assert_array_equal(x, y)


def test_adam_together_layouts_ignore_other_arrays():
    rng = np.random.default_rng(6)
    shapes = [(2, 2), (2, 1)]
    layouts: dict = {}
    first = _adam_together(_random_inputs(rng, shapes, np.float64, True), 0.9, 0.999, 1e-8, 1e-3,
                           layouts)
    g = [rng.standard_normal(s) for s in shapes]
    # the same first parameter with another second one, and the states of another step
    other = rng.standard_normal((2, 1))
    rows = [(first[0][0], g[0], first[0][1], first[0][2]), (other, g[1], first[1][1], first[1][2])]
    got = _adam_together(rows, 0.9, 0.999, 1e-8, 1e-3, layouts)
    want = _adam_together(rows, 0.9, 0.999, 1e-8, 1e-3)
    for a, b in zip(got, want, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)
    # parameters of another size under a remembered id are concatenated afresh
    swapped = [(first[0][0], g[0], None, None), (first[1][0], g[1], None, None),
               (np.ones((3, 1)), np.ones((3, 1)), None, None)]
    layouts[id(first[0][0])] = layouts.pop(next(iter(layouts)))
    got = _adam_together(swapped, 0.9, 0.999, 1e-8, 1e-3, layouts)
    want = _adam_together(swapped, 0.9, 0.999, 1e-8, 1e-3)
    for a, b in zip(got, want, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)


def test_training_loop_with_two_models_in_turn_matches_one_at_a_time(m):
    code = """
    rng(4);
    p.W = dlarray(single(randn(3, 2))); p.b = dlarray(single(randn(3, 1)));
    q.W = dlarray(randn(2, 2)); q.b = dlarray(randn(2, 1)); q.c = dlarray(1);
    p1 = p; q1 = q;
    ap = []; sp = []; aq = []; sq = []; ap1 = []; sp1 = []; aq1 = []; sq1 = [];
    for k = 1:4
        gp = dlupdate(@(x) x * 0.5 + k, p); gq = dlupdate(@(x) x - k, q);
        [p, ap, sp] = adamupdate(p, gp, ap, sp, k);
        [q, aq, sq] = adamupdate(q, gq, aq, sq, k);
    end
    for k = 1:4
        gp = dlupdate(@(x) x * 0.5 + k, p1);
        [p1, ap1, sp1] = adamupdate(p1, gp, ap1, sp1, k);
    end
    for k = 1:4
        gq = dlupdate(@(x) x - k, q1);
        [q1, aq1, sq1] = adamupdate(q1, gq, aq1, sq1, k);
    end
    same = isequal(extractdata(p.W), extractdata(p1.W)) && isequal(extractdata(p.b), extractdata(p1.b)) ...
        && isequal(extractdata(q.W), extractdata(q1.W)) && isequal(extractdata(sq.c), extractdata(sq1.c));
    """
    m.run(code)
    assert _get(m, "same") is True


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("traced", [False, True])
def test_mse_recording_matches_the_general_operation(dtype, traced):
    from mlang.autodiff import ops
    from mlang.builtins.deeplearning import losses

    rng = np.random.default_rng(8)
    y = DlArray(rng.standard_normal((2, 3)).astype(dtype), "CB")
    if traced:
        y = trace.traced_input(y)
    t = rng.standard_normal((2, 3)).astype(dtype)
    t[0, 1] = np.nan
    for targets in (t, np.zeros((2, 0), dtype)):
        yy = y if targets.size else DlArray(np.zeros((2, 0), dtype), "CB", y.node)
        with np.errstate(all="ignore"):
            got = losses._recorded_l2(yy, targets, 0.25)
            z = ops.apply(losses.REGRESSION, yy, targets, 0.25, "l2", 0.0, True)
        want = DlArray(z.data, "", z.node)
        assert got.fmt == want.fmt == "" and got.data.dtype == want.data.dtype
        np.testing.assert_array_equal(got.data, want.data)
        assert (got.node is None) == (want.node is None)
        if got.node is not None:
            assert got.node.parents == want.node.parents and got.node.rule is want.node.rule
            gy = got.node.rule(np.ones((1, 1), dtype), got.node.out, *got.node.raw)[0]
            wy = want.node.rule(np.ones((1, 1), dtype), want.node.out, *want.node.raw)[0]
            np.testing.assert_array_equal(gy, wy)


@pytest.mark.parametrize("cls", ["single", "double"])
def test_adamupdate_on_structs_matches_cell_arrays(m, cls):
    # a struct of dlarrays takes the struct step; a cell array the general walk
    code = f"""
    rng(9);
    p.W = dlarray({cls}(randn(3, 2))); p.b = dlarray({cls}(randn(3, 1)), 'CB'); p.s = dlarray({cls}(2));
    c = {{p.W, p.b, p.s}};
    a = []; s = []; ac = []; sc = [];
    for k = 1:3
        g.W = dlarray({cls}(randn(3, 2))); g.b = dlarray({cls}([k; NaN; -k]), 'CB'); g.s = dlarray({cls}(0));
        gc = {{g.W, g.b, g.s}};
        [p, a, s] = adamupdate(p, g, a, s, k);
        [c, ac, sc] = adamupdate(c, gc, ac, sc, k);
    end
    same = isequaln(extractdata(p.W), extractdata(c{{1}})) && isequaln(extractdata(p.b), extractdata(c{{2}})) ...
        && isequaln(extractdata(a.b), extractdata(ac{{2}})) && isequaln(extractdata(s.W), extractdata(sc{{1}})) ...
        && isequaln(extractdata(s.s), extractdata(sc{{3}}));
    formats = isequal(dims(p.b), 'CB') && isequal(dims(a.b), 'CB') && isequal(dims(s.b), 'CB') && isempty(dims(p.W));
    classes = isa(extractdata(p.W), '{cls}') && isa(extractdata(a.s), '{cls}');
    names = isequal(fieldnames(p)', {{'W', 'b', 's'}}) && isequal(fieldnames(s)', {{'W', 'b', 's'}});
    """
    m.run(code)
    for name in ("same", "formats", "classes", "names"):
        assert _get(m, name) is True, name


def test_adamupdate_struct_step_leaves_other_cases_to_the_general_path(m):
    code = """
    p.W = dlarray([1 2; 3 4]); p.b = dlarray([0.5; -1]);
    g.W = dlarray([0.1 0.2; 0.3 0.4]); g.b = dlarray([1; 2]);
    h.b = g.b; h.W = g.W;
    [q1, a1, s1] = adamupdate(p, g, [], [], 1);
    [q2, a2, s2] = adamupdate(p, h, [], [], 1);
    gs.W = single(g.W); gs.b = g.b;
    [q3, a3, s3] = adamupdate(p, gs, [], [], 1);
    same = isequal(extractdata(q1.W), extractdata(q2.W)) && isequal(extractdata(s1.b), extractdata(s2.b)) ...
        && isequal(fieldnames(s2)', {'W', 'b'}) && isa(extractdata(q3.W), 'double');
    """
    m.run(code)
    assert _get(m, "same") is True
    err = m.fails("""
    p.W = dlarray([1 2; 3 4]); p.b = dlarray([0.5; -1]);
    g.W = dlarray([1 2]); g.b = dlarray([1; 2]);
    adamupdate(p, g, [], [], 1);
    """)
    assert err.identifier == "deep:adamupdate:SizeMismatch"
    err = m.fails("""
    p.W = dlarray([1 2; 3 4]); p.b = dlarray([0.5; -1]);
    g.W = dlarray([1 2; 3 4]); g.c = dlarray([1; 2]);
    adamupdate(p, g, [], [], 1);
    """)
    assert err.identifier == "deep:optimizers:MismatchedInputs"


def test_adamupdate_on_a_network_matches_each_parameter_alone(m):
    code = """
    rng(2);
    layers = [featureInputLayer(3); fullyConnectedLayer(4); tanhLayer; fullyConnectedLayer(2)];
    net = dlnetwork(layers);
    values = net.Learnables.Value;
    a = []; s = [];
    alone = values; aa = cell(size(values)); sa = cell(size(values));
    for k = 1:3
        grads = net.Learnables;
        for j = 1:numel(values)
            grads.Value{j} = dlarray(single(randn(size(values{j})) * k));
        end
        [net, a, s] = adamupdate(net, grads, a, s, k);
        for j = 1:numel(values)
            if k == 1
                [alone{j}, aa{j}, sa{j}] = adamupdate(alone{j}, grads.Value{j}, [], [], k);
            else
                [alone{j}, aa{j}, sa{j}] = adamupdate(alone{j}, grads.Value{j}, aa{j}, sa{j}, k);
            end
        end
    end
    same = true;
    for j = 1:numel(values)
        same = same && isequal(extractdata(net.Learnables.Value{j}), extractdata(alone{j})) ...
            && isequal(extractdata(a.Value{j}), extractdata(aa{j})) && isequal(extractdata(s.Value{j}), extractdata(sa{j}));
    end
    tables = istable(a) && istable(s) && isequal(a.Layer, grads.Layer) && isequal(s.Parameter, grads.Parameter);
    kind = isa(net, 'dlnetwork');
    """
    m.run(code)
    for name in ("same", "tables", "kind"):
        assert _get(m, name) is True, name


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_l2_rule_on_raw_data_matches_the_ops_products(dtype):
    from mlang.autodiff import ops
    from mlang.builtins.deeplearning import losses

    rng = np.random.default_rng(4)
    y = rng.standard_normal((2, 5)).astype(dtype)
    t = rng.standard_normal((2, 5)).astype(dtype)
    t[1, 2] = np.nan
    for g in (np.ones((1, 1), dtype), np.full((2, 5), 0.5, dtype)):
        gy, gt, *rest = losses._regression_rule(g, None, y, t, 0.125, "l2", 0.0, True)
        want = ops.times(g, ops.times(0.125, ops.times(2.0, ops.minus(y, t))))
        assert gy.dtype == want.dtype
        np.testing.assert_array_equal(gy, want)
        np.testing.assert_array_equal(gt(), ops.uminus(want))
        assert rest == [None, None, None, None]


def test_dlgradient_of_learnables_matches_their_cells(m):
    code = """
    rng(1);
    net = dlnetwork([featureInputLayer(3); fullyConnectedLayer(4); tanhLayer; fullyConnectedLayer(2)]);
    X = dlarray(single(randn(3, 5)), 'CB');
    [g1, g2] = dlfeval(@learnables_grads, net, X);
    same = istable(g1) && isequal(g1.Layer, net.Learnables.Layer) && isequal(g1.Parameter, net.Learnables.Parameter) ...
        && isequal(size(g1), size(net.Learnables));
    for j = 1:numel(g2)
        same = same && isequal(extractdata(g1.Value{j}), extractdata(g2{j})) && isequal(dims(g1.Value{j}), dims(g2{j}));
    end
    """
    m.run(code)
    assert _get(m, "same") is True


def _dlarrays_in(value) -> list:
    from mlang.autodiff.dlarray import map_dlarrays

    found: list = []
    map_dlarrays(value, lambda x: found.append(x) or x)
    return found


def test_strip_matches_untracing_every_dlarray():
    from mlang.autodiff.dlarray import map_dlarrays, strip
    from mlang.values.cell import Cell
    from mlang.values.struct import Struct

    plain = DlArray(np.ones((2, 2)), "CB")
    traced = trace.traced_input(DlArray(np.arange(4.0).reshape(2, 2)))
    cell = Cell(np.array([[traced, 1.0]], dtype=object))
    values = [
        plain, traced, Struct.scalar({}), Struct.scalar({"a": plain, "b": plain}),
        Struct.scalar({"a": plain, "b": traced}), Struct.scalar({"a": plain, "n": 3.0}),
        Struct.scalar({"a": plain, "s": Struct.scalar({"t": traced})}), cell, 2.5,
    ]
    for value in values:
        got = strip(value)
        want = map_dlarrays(value, lambda x: DlArray(x.data, x.fmt) if x.node is not None else x)
        assert (got is value) == (want is value)
        flat_got, flat_want = _dlarrays_in(got), _dlarrays_in(want)
        assert len(flat_got) == len(flat_want)
        for a, b in zip(flat_got, flat_want, strict=True):
            assert a.node is None and b.node is None and a.fmt == b.fmt
            np.testing.assert_array_equal(a.data, b.data)
