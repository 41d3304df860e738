"""``[p, m, v] = adamupdate(p, g, m, v, k)`` (and sgdmupdate, rmspropupdate) write the new
parameters and states into the old arrays when nothing else can observe them: the values
are those of the general path bit for bit, and every other holder of an old array (another
variable, a struct field, a cell, an anonymous function, a global) still sees it unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning import containers
from mlang.values.cell import Cell
from mlang.values.struct import Struct
from mlang.values.table import Table


def leaves(value: object) -> list[np.ndarray]:
    """The arrays of a container's parameters, in walking order."""
    return [p.data if type(p) is DlArray else np.asarray(p) for p in containers.parameters_of(value)]


def snapshot(value: object) -> list[np.ndarray]:
    return [a.copy() for a in leaves(value)]


def same(a: object, b: object) -> bool:
    """Bit for bit the same parameters (NaN where NaN), of the same classes."""
    xs, ys = leaves(a), leaves(b)
    return len(xs) == len(ys) and all(
        x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y, equal_nan=True)
        for x, y in zip(xs, ys, strict=True))


def rng_data(shape: tuple, dtype: str, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def params_code(kind: str) -> str:
    """MATLAB making P (the parameters) and G{1..3} (gradients) of one kind of container
    from the arrays A, B (and gradients GA{t}, GB{t})."""
    if kind == "struct":
        return "P.W = dlarray(A); P.b = dlarray(B, 'CB'); mk = @(t) struct('W', dlarray(GA{t}), " \
               "'b', dlarray(GB{t}, 'CB'));"
    if kind == "unformatted":
        return "P.W = dlarray(A); P.b = dlarray(B); mk = @(t) struct('W', dlarray(GA{t}), " \
               "'b', dlarray(GB{t}));"
    if kind == "struct array":
        return "P = struct('W', {dlarray(A), dlarray(B)}); " \
               "mk = @(t) struct('W', {dlarray(GA{t}), dlarray(GB{t})});"
    if kind == "cell":
        return "P = {dlarray(A), dlarray(B)}; mk = @(t) {dlarray(GA{t}), dlarray(GB{t})};"
    if kind == "nested":
        return "P.layer.W = dlarray(A); P.b = {dlarray(B)}; " \
               "mk = @(t) struct('layer', struct('W', dlarray(GA{t})), 'b', {{dlarray(GB{t})}});"
    if kind == "table":
        return "P = table(['a'; 'b'], ['W'; 'b'], {dlarray(A); dlarray(B)}, 'VariableNames', " \
               "{'Layer', 'Parameter', 'Value'}); " \
               "mk = @(t) table(['a'; 'b'], ['W'; 'b'], {dlarray(GA{t}); dlarray(GB{t})}, " \
               "'VariableNames', {'Layer', 'Parameter', 'Value'});"
    if kind == "dlarray":
        return "P = dlarray(A); mk = @(t) dlarray(GA{t});"
    assert kind == "numeric"
    return "P = A; mk = @(t) GA{t};"


STEPS = {
    "adam": ("a = []; s = [];", "[p, a, s] = adamupdate(p, mk(t), a, s, t);",
             "[q, a2, s2] = adamupdate(p, mk(t), a, s, t); p = q; a = a2; s = s2;", ("p", "a", "s")),
    "adam options": ("a = []; s = [];", "[p, a, s] = adamupdate(p, mk(t), a, s, t, 0.01, 0.8, 0.99, 1e-3);",
                     "[q, a2, s2] = adamupdate(p, mk(t), a, s, t, 0.01, 0.8, 0.99, 1e-3); "
                     "p = q; a = a2; s = s2;", ("p", "a", "s")),
    "sgdm": ("v = [];", "[p, v] = sgdmupdate(p, mk(t), v, 0.05, 0.7);",
             "[q, v2] = sgdmupdate(p, mk(t), v, 0.05, 0.7); p = q; v = v2;", ("p", "v")),
    "rmsprop": ("v = [];", "[p, v] = rmspropupdate(p, mk(t), v, 0.01, 0.8, 1e-6);",
                "[q, v2] = rmspropupdate(p, mk(t), v, 0.01, 0.8, 1e-6); p = q; v = v2;", ("p", "v")),
}


def run_steps(m, kind: str, step: str, in_place: bool, shapes: tuple, dtype: str,
              nan: bool = False) -> list:
    init, donating, general, names = STEPS[step]
    a_shape, b_shape = shapes
    ga = [rng_data(a_shape, dtype, 10 + t) for t in range(3)]
    if nan and ga[1].size:
        ga[1].reshape(-1)[0] = np.nan
    inputs = {"A": rng_data(a_shape, dtype, 1), "B": rng_data(b_shape, dtype, 2),
              "GA": Cell.row(ga), "GB": Cell.row([rng_data(b_shape, dtype, 20 + t) for t in range(3)])}
    body = donating if in_place else general
    code = f"{params_code(kind)} p = P; {init} for t = 1:3, {body} end"
    return m.values(code, *names, **inputs)


@pytest.mark.parametrize("step", list(STEPS))
@pytest.mark.parametrize("kind", ["struct", "struct array", "cell", "nested", "table", "dlarray",
                                  "numeric"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_in_place_steps_give_the_general_path_values(m, step, kind, dtype):
    shapes = ((300, 701), (5, 1))  # a parameter updated block by block, and a small one
    want = run_steps(m, kind, step, False, shapes, dtype)
    got = run_steps(m, kind, step, True, shapes, dtype)
    for w, g in zip(want, got, strict=True):
        assert type(w) is type(g) and same(w, g)


@pytest.mark.parametrize("step", list(STEPS))
@pytest.mark.parametrize("shapes", [((4, 3, 2), (2, 2, 2, 2)), ((0, 3), (3, 0)), ((1, 1), (1, 7)),
                                    ((200, 40, 30), (1, 1))])
def test_in_place_steps_on_nd_empty_and_scalar_parameters(m, step, shapes):
    want = run_steps(m, "unformatted", step, False, shapes, "float64")
    got = run_steps(m, "unformatted", step, True, shapes, "float64")
    for w, g in zip(want, got, strict=True):
        assert same(w, g)


@pytest.mark.parametrize("step", list(STEPS))
def test_in_place_steps_with_a_nan_gradient(m, step):
    want = run_steps(m, "struct", step, False, ((30, 20), (5, 1)), "float64", nan=True)
    got = run_steps(m, "struct", step, True, ((30, 20), (5, 1)), "float64", nan=True)
    assert np.isnan(leaves(got[0])[0]).any()
    for w, g in zip(want, got, strict=True):
        assert same(w, g)


SETUP = """
rng(7);
p.W = dlarray(rand(300, 300)); p.b = dlarray(rand(3, 1), 'CB');
g.W = dlarray(rand(300, 300)); g.b = dlarray(rand(3, 1), 'CB');
a = []; s = [];
[p, a, s] = adamupdate(p, g, a, s, 1);
"""


def test_the_arrays_are_reused_when_nothing_else_holds_them(m):
    m.run(SETUP)
    vars = m.interp.base.vars
    before = [id(x) for name in "pas" for x in leaves(vars[name])]
    m.interp.eval("[p, a, s] = adamupdate(p, g, a, s, 2);")
    assert [id(x) for name in "pas" for x in leaves(vars[name])] == before
    assert vars["p"].elems[0, 0]["b"].fmt == "CB"


@pytest.mark.parametrize("holder, held", [
    ("keep = a;", "keep"),                          # another variable
    ("keep = p;", "keep"),
    ("keep.x = p.W;", "keep"),                      # a field of another struct
    ("keep = p; keep.b = 1;", "keep"),              # a struct sharing the other field
    ("keep = {s};", "keep"),                        # a cell
    ("keep = {p.W, 1};", "keep"),
    ("f = @() p; keep = 0;", "f"),                  # an anonymous function's workspace
    ("keep = p.W;", "keep"),
])
def test_an_array_held_elsewhere_is_not_overwritten(m, holder, held):
    m.run(SETUP + holder)
    vars = m.interp.base.vars
    if held == "f":
        before = snapshot(vars["p"])
    else:
        before = snapshot(vars[held])
    m.interp.eval("[p, a, s] = adamupdate(p, g, a, s, 2);")
    if held == "f":
        m.interp.eval("fp = f();")
    after = vars["fp" if held == "f" else held]
    assert all(np.array_equal(x, y) for x, y in zip(before, leaves(after), strict=True))
    # and the step itself is the general path's
    m.run(SETUP + "[p2, a2, s2] = adamupdate(p, g, a, s, 2);")
    want = [m.interp.base.vars[n] for n in ("p2", "a2", "s2")]
    m.run(SETUP + holder + "[p, a, s] = adamupdate(p, g, a, s, 2);")
    got = [m.interp.base.vars[n] for n in "pas"]
    for w, x in zip(want, got, strict=True):
        assert same(w, x)


def test_the_same_variable_passed_twice_is_not_overwritten(m):
    m.run("p = dlarray(rand(100, 100)); a = dlarray(rand(100, 100)); s = a;"
          "[p2, a2, s2] = adamupdate(p, a, a, s, 2);"
          "[p, a, s] = adamupdate(p, a, a, s, 2);")
    vars = m.interp.base.vars
    for x, y in (("p", "p2"), ("a", "a2"), ("s", "s2")):
        assert same(vars[x], vars[y])


def test_a_global_is_updated_as_a_value(m):
    m.run("global GP; rng(3); GP = dlarray(rand(200, 300)); g = dlarray(rand(200, 300)); init = GP;"
          "a = []; s = []; [GP, a, s] = adamupdate(GP, g, a, s, 1); keep = GP;"
          "[GP, a, s] = adamupdate(GP, g, a, s, 2); out = GP;"
          "[q, b, t] = adamupdate(init, g, [], [], 1); q1 = q; [q, b, t] = adamupdate(q, g, b, t, 2);")
    vars = m.interp.base.vars
    assert same(vars["out"], vars["q"]) and same(vars["keep"], vars["q1"])
    assert not same(vars["keep"], vars["out"])
    m.run("clear global GP")


def test_in_place_inside_a_function_and_a_loop(m, tmp_path):
    (tmp_path / "train_steps.m").write_text(
        "function [p, a, s] = train_steps(p, g, n)\n"
        "a = []; s = [];\n"
        "for k = 1:n\n    [p, a, s] = adamupdate(p, g, a, s, k);\nend\nend\n")
    m.run(f"addpath('{tmp_path}'); w.x = dlarray(rand(300, 300)); g.x = dlarray(rand(300, 300));"
          "w0 = w; [p, a, s] = train_steps(w, g, 3);"
          "q = w0; b = []; t = []; for k = 1:3, [q2, b, t] = adamupdate(q, g, b, t, k); q = q2; end")
    vars = m.interp.base.vars
    assert same(vars["p"], vars["q"]) and same(vars["w"], vars["w0"])
    assert not same(vars["w"], vars["p"])


@pytest.mark.parametrize("bad", [
    "[p, a, s] = adamupdate(p, g, a, s, 1.5);",               # a setting
    "g.b = dlarray(rand(4, 1)); [p, a, s] = adamupdate(p, g, a, s, 2);",  # the second parameter
    "s.b = single(s.b); s.W = 'x'; [p, a, s] = adamupdate(p, g, a, s, 2);",
    "[p, a, s] = adamupdate(p, g, a, {1}, 2);",
])
def test_an_error_leaves_every_variable_unchanged(m, bad):
    m.run(SETUP)
    vars = m.interp.base.vars
    before = {name: snapshot(vars[name]) for name in "pas"}
    with pytest.raises(Exception):  # noqa: B017 (any MATLAB error)
        m.interp.eval(bad)
    for name in "pas":
        if name == "s" and "s.W" in bad:
            continue  # the statement before the call changed s
        assert all(np.array_equal(x, y) for x, y in zip(before[name], leaves(vars[name]), strict=True))


def test_sgdm_and_rmsprop_errors_leave_the_variables_unchanged(m):
    m.run("p = dlarray(rand(300, 300)); g = dlarray(rand(300, 300)); v = [];"
          "[p, v] = sgdmupdate(p, g, v);")
    vars = m.interp.base.vars
    before = [snapshot(vars["p"]), snapshot(vars["v"])]
    with pytest.raises(Exception):  # noqa: B017
        m.interp.eval("[p, v] = sgdmupdate(p, g, v, 0.1, 2);")
    with pytest.raises(Exception):  # noqa: B017
        m.interp.eval("[p, v] = rmspropupdate(p, dlarray(rand(3)), v);")
    assert np.array_equal(before[0][0], leaves(vars["p"])[0])
    assert np.array_equal(before[1][0], leaves(vars["v"])[0])


def test_traced_and_view_parameters_are_not_overwritten(m):
    # a parameter whose array is a view of another array (a reshaped slice) keeps the other
    # array as it was
    m.run("B = rand(100, 200); p = dlarray(B(:, 1:100)); g = dlarray(rand(100, 100)); a = []; s = [];"
          "[p, a, s] = adamupdate(p, g, a, s, 1); keep = B;"
          "[p, a, s] = adamupdate(p, g, a, s, 2);")
    vars = m.interp.base.vars
    assert np.array_equal(vars["B"], vars["keep"])


def test_a_function_variable_named_like_the_optimizer_is_called(m):
    m.run("adamupdate = @(p, g, a, s, k) deal(p + 1, a, s); p = 1; a = 2; s = 3;"
          "[p, a, s] = adamupdate(p, 0, a, s, 1);")
    assert m.interp.base.vars["p"] == 2.0


def test_owned_buffers_of_each_container():
    shared = DlArray(np.zeros(3))
    struct = Struct.scalar({"a": DlArray(np.ones((2, 2))), "b": shared, "c": np.ones(2)})
    owned = containers.owned_buffers(struct)
    assert owned == {id(struct.elems[0, 0]["a"].data), id(struct.elems[0, 0]["c"])}
    cell = Cell.row([DlArray(np.ones(2)), shared])
    assert containers.owned_buffers(cell) == {id(cell.data[0, 0].data)}
    table = Table([Cell(np.array([[DlArray(np.ones(2))]], dtype=object))], ["Value"])
    assert containers.owned_buffers(table) == {id(table.variable("Value").data[0, 0].data)}
    copy = table.copy()  # shares its variables: nothing is owned by either
    assert containers.owned_buffers(copy) == set()
    del copy
    view = np.ones((4, 4))[:2]
    assert containers.owned_buffers(Struct.scalar({"v": DlArray(view)})) == set()
    ints = Struct.scalar({"i": np.ones(3, dtype=np.int32)})
    assert containers.owned_buffers(ints) == set()
    assert shared.data is not None


@pytest.mark.parametrize("step", list(STEPS))
@pytest.mark.parametrize("kind", ["struct", "struct array", "cell", "nested", "table", "dlarray",
                                  "numeric"])
def test_every_container_kind_is_updated_in_place(m, step, kind):
    init, donating, _, names = STEPS[step]
    # (parameters this large are updated one by one: small ones together, in a new buffer)
    inputs = {"A": rng_data((300, 250), "float64", 1), "B": rng_data((5, 1), "float64", 2),
              "GA": Cell.row([rng_data((300, 250), "float64", 3)] * 3),
              "GB": Cell.row([rng_data((5, 1), "float64", 4)] * 3)}
    m.run(f"{params_code(kind)} p = P; {init} t = 1; {donating}", **inputs)
    vars = m.interp.base.vars
    before = [id(x) for name in names for x in leaves(vars[name])]
    m.interp.eval(f"t = 2; {donating}")
    assert [id(x) for name in names for x in leaves(vars[name])] == before


def test_a_state_not_asked_for_is_not_overwritten(m):
    m.run(SETUP)
    vars = m.interp.base.vars
    before = snapshot(vars["s"])
    m.interp.eval("[p, a] = adamupdate(p, g, a, s, 2);")
    assert all(np.array_equal(x, y) for x, y in zip(before, leaves(vars["s"]), strict=True))
    m.interp.eval("[p2, a2, s2] = adamupdate(p, g, a, s, 3); [p, a, s] = adamupdate(p, g, a, s, 3);")
    for x, y in (("p", "p2"), ("a", "a2"), ("s", "s2")):
        assert same(vars[x], vars[y])


def test_a_user_function_with_outputs_named_like_its_inputs(m, tmp_path):
    (tmp_path / "bump_both.m").write_text("function [a, b] = bump_both(a, b)\na = a + 1;\nb = b * 2;\nend\n")
    m.run(f"addpath('{tmp_path}'); x = [1 2]; y = 3; keep = x; [x, y] = bump_both(x, y);")
    vars = m.interp.base.vars
    assert vars["x"].tolist() == [[2.0, 3.0]] and vars["y"] == 6.0 and vars["keep"].tolist() == [[1.0, 2.0]]


@pytest.mark.parametrize("bad", ["int8([1 2; 3 4])", "[1 2; 3 4] > 2", "[1 2; 3 4] + 1i", "'ab'", "{1}"])
def test_a_parameter_of_a_wrong_class_leaves_the_variables_unchanged(m, bad):
    m.run(SETUP + f"p.b = {bad};")
    vars = m.interp.base.vars
    before = {name: snapshot(vars[name]) for name in "as"}
    w_before = vars["p"].elems[0, 0]["W"].data.copy()
    with pytest.raises(Exception):  # noqa: B017 (any MATLAB error)
        m.interp.eval("[p, a, s] = adamupdate(p, g, a, s, 2);")
    assert np.array_equal(vars["p"].elems[0, 0]["W"].data, w_before)
    for name in "as":
        assert all(np.array_equal(x, y) for x, y in zip(before[name], leaves(vars[name]), strict=True))


def test_traced_parameters_inside_dlfeval(m, tmp_path):
    (tmp_path / "step_traced.m").write_text(
        "function [p, a, s, q] = step_traced(p, g, a, s)\n"
        "q = p;\n"
        "[p, a, s] = adamupdate(p, g, a, s, 2);\n"
        "end\n")
    m.run(f"addpath('{tmp_path}'); rng(5); w = dlarray(rand(300, 300)); g = dlarray(rand(300, 300));"
          "[w1, a, s] = adamupdate(w, g, [], [], 1);"
          "[p, a2, s2, q] = dlfeval(@step_traced, w1, g, a, s);"
          "[p0, a0, s0] = adamupdate(w1, g, a, s, 2);")
    vars = m.interp.base.vars
    assert same(vars["p"], vars["p0"]) and same(vars["a2"], vars["a0"]) and same(vars["s2"], vars["s0"])
    assert same(vars["q"], vars["w1"]) and vars["p"].node is None
