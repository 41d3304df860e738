"""adamupdate, sgdmupdate, rmspropupdate and dlupdate: each step against the formulas
written out by hand, on every kind of parameter container."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning import containers
from mlang.values.cell import Cell
from mlang.values.struct import Struct
from mlang.values.table import Table

W0 = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]])
B0 = np.array([[0.5], [-1.0]])
GRADS = [np.array([[0.1, -0.2, 0.3], [0.4, -0.5, 0.6]]),
         np.array([[-0.3, 0.1, 0.2], [0.0, 0.7, -0.4]]),
         np.array([[0.05, 0.05, -0.1], [0.2, -0.1, 0.3]])]


def data(v: object) -> np.ndarray:
    return v.data if type(v) is DlArray else np.asarray(v)


def adam_reference(p, grads, lr=0.001, b1=0.9, b2=0.999, eps=1e-8):
    """Adam written out step by step, with the bias-corrected moving averages."""
    m = np.zeros_like(p)
    v = np.zeros_like(p)
    for t, g in enumerate(grads, start=1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat = m / (1 - b1 ** t)
        v_hat = v / (1 - b2 ** t)
        p = p - lr * m_hat / (np.sqrt(v_hat) + eps)
    return p, m, v


# ------------------------------------------------------------ Adam


def test_adam_first_step_moves_each_parameter_by_the_learning_rate(m):
    # at t = 1 the bias-corrected step is lr * g/|g| (up to epsilon)
    p = m.value("[p, a, s] = adamupdate([1 2 3], [0.5 -2 1e-3], [], [], 1);", "p")
    assert np.allclose(p, [[1 - 0.001, 2 + 0.001, 3 - 0.001 * 1e-3 / (1e-3 + 1e-8)]])


def test_adam_three_steps_on_a_struct_of_dlarrays(m):
    code = """
    p.W = dlarray(W0); p.b = dlarray(B0, 'CB');
    a = []; s = [];
    for t = 1:3
        g.W = dlarray(G{t}); g.b = dlarray(G{t}(:,1), 'CB');
        [p, a, s] = adamupdate(p, g, a, s, t);
    end
    """
    cell = Cell.row(GRADS)
    p, a, s = m.values(code, "p", "a", "s", W0=W0, B0=B0, G=cell)
    w, mw, vw = adam_reference(W0, GRADS)
    b, mb, vb = adam_reference(B0, [g[:, :1] for g in GRADS])
    fields = p.elems[0, 0]
    assert np.allclose(data(fields["W"]), w, rtol=1e-13, atol=0)
    assert np.allclose(data(fields["b"]), b, rtol=1e-13, atol=0)
    assert fields["b"].fmt == "CB" and fields["W"].fmt == ""
    assert np.allclose(data(a.elems[0, 0]["W"]), mw) and np.allclose(data(s.elems[0, 0]["W"]), vw)
    assert np.allclose(data(a.elems[0, 0]["b"]), mb) and np.allclose(data(s.elems[0, 0]["b"]), vb)
    assert type(a.elems[0, 0]["W"]) is DlArray and fields["W"].node is None


@pytest.mark.parametrize("layouts", ["CCCC", "FFFF", "CFCF"])
def test_adam_on_large_parameters_in_any_memory_layout(m, layouts):
    # large parameters are updated block by block when their layouts agree; the result is
    # the formula's whatever the layouts
    rng = np.random.default_rng(3)
    shape = (300, 701)  # more than two blocks, not a multiple of the block size
    p0, g1, g2 = (rng.standard_normal(shape) for _ in range(3))
    arrays = [np.asfortranarray(a) if order == "F" else np.ascontiguousarray(a)
              for a, order in zip((p0, g1, g2, p0), layouts, strict=True)]
    p, a, s = m.values("[p, a, s] = adamupdate(P, G1, [], [], 1);"
                       "[p, a, s] = adamupdate(p, G2, a, s, 2);", "p", "a", "s",
                       P=arrays[0], G1=arrays[1], G2=arrays[2])
    want_p, want_m, want_v = adam_reference(p0, [g1, g2])
    assert np.allclose(p, want_p, rtol=1e-13, atol=0)
    assert np.allclose(a, want_m, rtol=1e-13, atol=0) and np.allclose(s, want_v, rtol=1e-13, atol=0)


@pytest.mark.parametrize("settings", [(0.01, 0.8, 0.99, 1e-3), (0.5, 0.0, 0.5, 1.0)])
def test_adam_every_optional_argument(m, settings):
    lr, b1, b2, eps = settings
    code = """
    p = W0; a = []; s = [];
    for t = 1:3
        [p, a, s] = adamupdate(p, G{t}, a, s, t, lr, b1, b2, e);
    end
    """
    p = m.value(code, "p", W0=W0, G=Cell.row(GRADS), lr=lr, b1=b1, b2=b2, e=eps)
    expected, _, _ = adam_reference(W0, GRADS, lr, b1, b2, eps)
    assert type(p) is np.ndarray and np.allclose(p, expected, rtol=1e-13, atol=0)


def test_adam_defaults_match_the_explicit_values(m):
    a, b = m.values("x = adamupdate(W, G, [], [], 2); y = adamupdate(W, G, [], [], 2, 0.001, "
                    "0.9, 0.999, 1e-8);", "x", "y", W=W0, G=GRADS[0])
    assert np.array_equal(a, b)


def test_adam_keeps_single_and_the_format(m):
    p, a = m.values("[p, a] = adamupdate(dlarray(single([1 2; 3 4]), 'CB'), "
                    "dlarray([1 1; 1 1], 'CB'), [], [], 1);", "p", "a")
    assert type(p) is DlArray and p.data.dtype == np.float32 and p.fmt == "CB"
    assert a.data.dtype == np.float32
    assert m.run("disp(class(adamupdate(single(1), 1, [], [], 1)))").strip() == "single"


def test_adam_on_cells_nested_structs_and_tables(m):
    out = m.run("""
    p = {1, {[2 3]}}; [p, a, s] = adamupdate(p, {1, {[1 -1]}}, [], [], 1);
    fprintf('%.4f ', p{1}, p{2}{1}); disp(class(a{2}))
    q.layer.w = 1; q.layer.b = 2; q.c = 3;
    g.c = 1; g.layer.b = -1; g.layer.w = 1;
    q = adamupdate(q, g, [], [], 1);
    fprintf('%.4f ', q.layer.w, q.layer.b, q.c); fprintf('\\n')
    T = table(["fc";"fc"], ["Weights";"Bias"], {dlarray([1 2]); dlarray(3)}, ...
        'VariableNames', {'Layer','Parameter','Value'});
    G = T; G.Value = {dlarray([1 -1]); dlarray(2)};
    [T, M] = adamupdate(T, G, [], [], 1);
    disp(class(T)); disp(T.Layer'); fprintf('%.4f ', extractdata(T.Value{1})); fprintf('\\n');
    fprintf('%.4f\\n', extractdata(M.Value{2}))
    """)
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    assert lines[0] == "0.9990 1.9990 3.0010 cell"
    assert lines[1] == "0.9990 2.0010 2.9990"
    assert lines[2] == "table"
    assert '"fc"' in lines[3]
    assert np.allclose([float(v) for v in lines[4].split()], [0.999, 2.001])
    assert float(lines[5]) == pytest.approx(0.2)


def test_adam_struct_array_and_traced_parameters_come_back_untraced(m):
    out = m.run("""
    s(1).w = 1; s(2).w = 2; g(1).w = 1; g(2).w = -1;
    s = adamupdate(s, g, [], [], 1); fprintf('%.4f %.4f\\n', s(1).w, s(2).w)
    [p, tr] = dlfeval(@(x) deal(adamupdate(x, x, [], [], 1), 0), dlarray(5));
    fprintf('%s %.4f\\n', class(p), extractdata(p))
    """)
    assert out.splitlines() == ["0.9990 2.0010", "dlarray 4.9990"]


# ------------------------------------------------------------ SGDM, RMSProp


def test_sgdm_two_steps_by_hand(m):
    code = """
    v = []; p = W0;
    for t = 1:3
        [p, v] = sgdmupdate(p, G{t}, v, 0.05, 0.8);
    end
    [q, w] = sgdmupdate(W0, G{1}, []);
    """
    p, v, q, w = m.values(code, "p", "v", "q", "w", W0=W0, G=Cell.row(GRADS))
    ep, ev = W0.copy(), np.zeros_like(W0)
    for g in GRADS:
        ev = 0.8 * ev - 0.05 * g
        ep = ep + ev
    assert np.allclose(p, ep, rtol=1e-14) and np.allclose(v, ev, rtol=1e-14)
    assert np.allclose(w, -0.01 * GRADS[0]) and np.allclose(q, W0 - 0.01 * GRADS[0])


def test_rmsprop_by_hand(m):
    code = """
    s = []; p = dlarray(W0, 'SS');
    for t = 1:3
        [p, s] = rmspropupdate(p, dlarray(G{t}, 'SS'), s, 0.02, 0.7, 1e-4);
    end
    [q, r] = rmspropupdate(W0, G{1}, []);
    """
    p, s, q, r = m.values(code, "p", "s", "q", "r", W0=W0, G=Cell.row(GRADS))
    ep, es = W0.copy(), np.zeros_like(W0)
    for g in GRADS:
        es = 0.7 * es + 0.3 * g * g
        ep = ep - 0.02 * g / (np.sqrt(es) + 1e-4)
    assert p.fmt == "SS" and np.allclose(p.data, ep, rtol=1e-13) and np.allclose(s.data, es)
    v1 = 0.1 * GRADS[0] ** 2
    assert np.allclose(r, v1) and np.allclose(q, W0 - 0.001 * GRADS[0] / (np.sqrt(v1) + 1e-8))


# ------------------------------------------------------------ dlupdate


def test_dlupdate_one_input(m):
    out = m.run("""
    p.a = dlarray([1 2]); p.b = {3, dlarray(4)};
    q = dlupdate(@(x) 2*x, p);
    disp(extractdata(q.a)); disp(q.b{1}); disp(extractdata(q.b{2}))
    """)
    assert out.split() == ["2", "4", "6", "8"]


def test_dlupdate_several_inputs_and_outputs(m):
    out = m.run("""
    L1 = @(grad, param) grad + 0.5.*sign(param);
    g.w = [1 1]; g.b = 2; p.b = -3; p.w = [-1 4];
    g = dlupdate(L1, g, p); fprintf('%g ', g.w, g.b); fprintf('\\n')
    [s, d] = dlupdate(@(x, y) deal(x + y, x - y), {1, [2 3]}, {10, [20 30]});
    fprintf('%g ', s{:}, d{:}); fprintf('\\n')
    """)
    assert out.splitlines() == ["0.5 1.5 1.5 ", "11 22 33 -9 -18 -27 "]


def test_dlupdate_passes_nargout_to_the_function(m):
    out = m.run("""
    [a, b, c] = dlupdate(@(x) deal(x, 2*x, 3*x), {1});
    disp([a{1} b{1} c{1}])
    """)
    assert out.split() == ["1", "2", "3"]
    err = m.fails("[a, b] = dlupdate(@(x) x, {1});")
    assert err.identifier.startswith("MATLAB:")


def test_dlupdate_on_a_table(m):
    out = m.run("""
    T = table("fc", "Weights", {dlarray([1 2])}, 'VariableNames', {'Layer','Parameter','Value'});
    T = dlupdate(@(x) x + 1, T); disp(extractdata(T.Value{1})); disp(T.Parameter)
    """)
    assert out.split() == ["2", "3", "Weights"]


# ------------------------------------------------------------ errors


@pytest.mark.parametrize("code, identifier", [
    ("p.a = 1; g.b = 1; adamupdate(p, g, [], [], 1)", "deep:optimizers:MismatchedInputs"),
    ("adamupdate({1, 2}, {1}, [], [], 1)", "deep:optimizers:MismatchedInputs"),
    ("adamupdate({1}, 1, [], [], 1)", "deep:optimizers:MismatchedInputs"),
    ("p.a = 1; adamupdate(p, p, {1}, [], 1)", "deep:optimizers:MismatchedInputs"),
    ("adamupdate([1 2], [1 2 3], [], [], 1)", "deep:adamupdate:SizeMismatch"),
    ("adamupdate(int8(1), 1, [], [], 1)", "deep:adamupdate:InvalidInput"),
    ("adamupdate('a', 1, [], [], 1)", "deep:adamupdate:InvalidInput"),
    ("adamupdate(1, 1, [], [], 0)", "MATLAB:adamupdate:expectedPositive"),
    ("adamupdate(1, 1, [], [], 1.5)", "MATLAB:adamupdate:expectedInteger"),
    ("adamupdate(1, 1, [], [], [1 2])", "MATLAB:adamupdate:expectedScalar"),
    ("adamupdate(1, 1, [], [], 1, -0.1)", "MATLAB:adamupdate:expectedPositive"),
    ("adamupdate(1, 1, [], [], 1, Inf)", "MATLAB:adamupdate:expectedFinite"),
    ("adamupdate(1, 1, [], [], 1, 0.1, 1)", "MATLAB:adamupdate:notLess"),
    ("adamupdate(1, 1, [], [], 1, 0.1, 0.9, -1)", "MATLAB:adamupdate:expectedNonnegative"),
    ("adamupdate(1, 1, [], [], 1, 0.1, 0.9, 0.9, 0)", "MATLAB:adamupdate:expectedPositive"),
    ("adamupdate(1, 1, [], [], 1, 'a')", "MATLAB:adamupdate:invalidType"),
    ("sgdmupdate(1, 1, [], 0.1, 1.5)", "MATLAB:sgdmupdate:notLessEqual"),
    ("rmspropupdate(1, 1, [], 0.1, 1)", "MATLAB:rmspropupdate:notLess"),
    ("T = table(1, 'VariableNames', {'x'}); adamupdate(T, T, [], [], 1)",
     "deep:optimizers:InvalidTable"),
    ("adamupdate(1, 1, [], [])", "MATLAB:minrhs"),
])
def test_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier


def test_error_is_reported_by_the_function(m):
    err = m.fails("adamupdate(1, 1, [], [], 1, -1)")
    assert err.message == "Expected learnRate to be positive."
    assert err.exc.function == "adamupdate"


# ------------------------------------------------------------ the container registry


class Bag:
    """A container class registered from outside, as a network class would be."""

    def __init__(self, items: list) -> None:
        self.items = items


class BagKind(containers.ContainerKind):
    name = "bag"

    def children(self, value: Bag) -> list:
        return list(value.items)

    def rebuild(self, value: Bag, children: list) -> Bag:
        return Bag(children)


def test_a_registered_container_kind_is_walked(monkeypatch):
    monkeypatch.setitem(containers.CONTAINER_KINDS, Bag, BagKind())
    inner = Struct.scalar({"w": 2.0})
    bag = Bag([1.0, inner])
    doubled, halved = containers.map_parameters(lambda p, q: (p + q, p - q), bag,
                                                Bag([10.0, Struct.scalar({"w": 20.0})]), nout=2)
    assert type(doubled) is Bag and doubled.items[0] == 11.0
    assert doubled.items[1].elems[0, 0]["w"] == 22.0 and halved.items[1].elems[0, 0]["w"] == -18.0
    assert containers.parameters_of(bag) == [1.0, 2.0]
    with pytest.raises(Exception) as info:
        containers.map_parameters(lambda p, q: (p,), bag, Bag([1.0]))
    assert "deep:optimizers:MismatchedInputs" in str(info.value.exc.identifier)


def test_table_parameters_are_the_value_cells():
    table = Table([np.array([[1.0], [2.0]]), Cell(np.array([[3.0], [4.0]], dtype=object))],
                  ["Other", "Value"])
    assert containers.parameters_of(table) == [3.0, 4.0]
    rebuilt = containers.with_parameters(table, [5.0, 6.0])
    assert rebuilt.variable("Value").data.reshape(-1).tolist() == [5.0, 6.0]
    assert np.array_equal(rebuilt.variable("Other"), table.variable("Other"))


def test_states_follow_the_parameters_when_fields_are_in_another_order(m):
    out = m.run("""
    p.a = 1; p.b = 2; g.b = -1; g.a = 1;
    [p, v] = sgdmupdate(p, g, [], 0.5, 0);
    fprintf('%g %g %g %g\\n', p.a, p.b, v.a, v.b)
    """)
    assert out == "0.5 2.5 -0.5 0.5\n"


class CellBagKind(BagKind):
    """A kind whose gradients may come as a cell array (as a network's come as a table)."""

    def matching_children(self, template: Bag, other: object) -> list:
        if type(other) is Cell:
            return list(other.data.reshape(-1))
        return super().matching_children(template, other)


def test_outputs_shaped_like_the_gradients_of_another_kind(monkeypatch):
    monkeypatch.setitem(containers.CONTAINER_KINDS, Bag, CellBagKind())
    grads = Cell.row([1.0, 2.0])
    params, states = containers.map_parameters(lambda p, g: (p - g, 2 * g), Bag([5.0, 6.0]),
                                               grads, nout=2, shaped_like=(0, 1))
    assert type(params) is Bag and params.items == [4.0, 4.0]
    assert type(states) is Cell and states.data.reshape(-1).tolist() == [2.0, 4.0]


def test_an_empty_gradient_is_a_matlab_error(m):
    assert m.fails("rmspropupdate(0.0, [], 100.0)").identifier == "deep:rmspropupdate:InvalidInput"
