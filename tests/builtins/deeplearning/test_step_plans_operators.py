"""Plans of model functions written with operators, subscripts, sum/mean/exp/log/size and
calls of other functions of files (step_plans.py): the replayed calls give what running
the code gives, bit for bit (single and double, NaN and Inf, higher derivatives taken in
as operations); code a plan cannot stand for, matrix division, a last dlgradient with
higher derivatives and functions that come to mean another function take the general
path (the same runs with plans turned off)."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.builtins.deeplearning import step_plans
from mlang.errors import MatlabError
from tests.builtins.deeplearning.test_step_plans import Session, both_ways, same

# a softmax classifier written with operators, its loss in a local function
MLP = """function [loss, grads] = mlp_gradient(params, X, T)
loss = mlp_loss(params, X, T);
grads = dlgradient(loss, params);
end

function loss = mlp_loss(params, X, T)
H = relu(params.W1*X + params.b1);
Z = params.W2*H + params.b2;
E = exp(Z);
P = E ./ sum(E, 1);
loss = -sum(T.*log(P), 'all') / size(X, 2);
end
"""

MLP_SETUP = """
rng(7);
params.W1 = dlarray(cast(randn(5, 4), cls)); params.b1 = dlarray(cast(randn(5, 1), cls));
params.W2 = dlarray(cast(randn(3, 5), cls)); params.b2 = dlarray(cast(randn(3, 1), cls));
X = dlarray(cast(randn(4, 6), cls));
T = cast([1 0 0 1 0 0; 0 1 0 0 1 0; 0 0 1 0 0 1], cls);
avg = []; avgSq = [];
"""

MLP_LOOP = MLP_SETUP + """
losses = zeros(1, 4, cls);
for k = 1:4
    [loss, grads] = dlfeval(@mlp_gradient, params, X, T);
    [params, avg, avgSq] = adamupdate(params, grads, avg, avgSq, k);
    losses(k) = extractdata(loss);
end
"""

# a PINN: second derivatives through two dlgradient calls, subscripts, .^ and mean
PINN = """function [loss, grads] = pinn_loss(params, X, f, g)
u = model(params, X);
du = dlgradient(sum(u, 'all'), X, 'EnableHigherDerivatives', true);
ux = du(1, :);
d2u = dlgradient(sum(ux, 'all'), X, 'EnableHigherDerivatives', true);
uxx = d2u(1, :);
loss = mean((uxx - f).^2, 'all') + mean((u - g).^2, 'all');
grads = dlgradient(loss, params);
end

function u = model(params, X)
h = tanh(fullyconnect(X, params.W1, params.b1));
u = fullyconnect(h, params.W2, params.b2);
end
"""

PINN_LOOP = """
rng(2);
params.W1 = dlarray(randn(4, 2)); params.b1 = dlarray(randn(4, 1));
params.W2 = dlarray(randn(1, 4)); params.b2 = dlarray(0.1);
X = dlarray([0.1 0.5 -1 2 0.3; 0.2 -0.3 1 0 0.7], 'CB');
f = [1 2 3 4 5]; g = [0 -1 0.5 2 1];
avg = []; avgSq = [];
for k = 1:4
    [loss, grads] = dlfeval(@pinn_loss, params, X, f, g);
    [params, avg, avgSq] = adamupdate(params, grads, avg, avgSq, k);
end
"""


@pytest.mark.parametrize("cls", ["single", "double"])
@pytest.mark.parametrize("special", ["", "X(2, 3) = NaN; X(1, 1) = Inf;"])
def test_operators_and_a_local_function_replay(tmp_path, monkeypatch, cls: str, special: str) -> None:
    code = MLP_LOOP.replace("avg = []; avgSq = [];", special + " avg = []; avgSq = [];")
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"mlp_gradient": MLP}, code,
                                          ("losses", "params", "avg", "avgSq", "grads"), cls=cls)
    assert replays == 3  # every call after the first
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert fast[0].dtype == np.dtype("float32" if cls == "single" else "float64")
    if not special:
        assert np.all(np.isfinite(fast[0])) and fast[0][0, 0] != fast[0][0, 3]


def test_higher_derivatives_taken_in_replay(tmp_path, monkeypatch) -> None:
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"pinn_loss": PINN}, PINN_LOOP,
                                          ("loss", "params", "avg", "avgSq", "grads"))
    assert replays == 3
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert np.isfinite(fast[0].data).all() and fast[4].fields == ["W1", "b1", "W2", "b2"]


def test_a_function_of_another_file_replays(tmp_path, monkeypatch) -> None:
    loss_file = MLP.split("\n\n")[1]
    fast, slow, replays, _, _ = both_ways(
        tmp_path, monkeypatch, {"mlp_gradient": MLP.split("\n\n")[0], "mlp_loss": loss_file},
        MLP_LOOP, ("losses", "params", "grads"), cls="double")
    assert replays == 3
    for a, b in zip(fast, slow, strict=True):
        same(a, b)


# Code a plan cannot stand for: each call runs the code.
DECLINED = {
    "a matrix division": MLP.replace("/ size(X, 2)", "/ (params.b2' * params.b2)"),
    "a comparison": MLP.replace("P = E ./ sum(E, 1);", "P = E ./ sum(E, 1) + (E > 1);"),
    "a matrix power": MLP.replace("E = exp(Z);", "E = exp(Z) + Z(1)^2;"),
    "a subscript with end": MLP.replace("P = E ./ sum(E, 1);", "P = E(1:end, :) ./ sum(E, 1);"),
    "a local function calling another builtin": MLP.replace("E = exp(Z);", "E = abs(Z);"),
    "a result shown by a local function": MLP.replace("E = exp(Z);", "E = exp(Z)"),
    "a last gradient with higher derivatives": MLP.replace(
        "grads = dlgradient(loss, params);",
        "grads = dlgradient(loss, params, 'EnableHigherDerivatives', true);"),
    "a local function with a branch": MLP.replace("E = exp(Z);", "E = exp(Z);\nif nargin > 9\nE = Z;\nend"),
}


@pytest.mark.parametrize("case", list(DECLINED))
def test_other_code_runs_every_time(tmp_path, monkeypatch, case: str) -> None:
    fast, slow, replays, out_fast, out_slow = both_ways(
        tmp_path, monkeypatch, {"mlp_gradient": DECLINED[case]}, MLP_LOOP,
        ("losses", "params", "avg", "grads"), cls="double")
    assert replays == 0
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert out_fast == out_slow


def test_a_function_shadowed_later_on_the_path_is_called(tmp_path, monkeypatch) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "mlp_loss.m").write_text("function loss = mlp_loss(params, X, T)\n"
                                      "loss = sum(params.W1 * X, 'all');\nend\n")
    code = MLP_SETUP + f"""
    [l1, g1] = dlfeval(@mlp_gradient, params, X, T);
    [l2, g2] = dlfeval(@mlp_gradient, params, X, T);
    addpath('{other}');
    [l3, g3] = dlfeval(@mlp_gradient, params, X, T);
    [l4, g4] = dlfeval(@mlp_gradient, params, X, T);
    """
    files = {"mlp_gradient": MLP.split("\n\n")[0], "mlp_loss": MLP.split("\n\n")[1]}
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, files, code,
                                          ("l1", "l2", "l3", "g3", "l4", "g4"), cls="double")
    assert replays == 2  # the second and the fourth call
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert fast[0].data[0, 0] == fast[1].data[0, 0] != fast[2].data[0, 0] == fast[4].data[0, 0]


def test_errors_are_those_of_the_code(tmp_path, monkeypatch) -> None:
    (tmp_path / "planned").mkdir()
    session = Session(tmp_path / "planned", {"mlp_gradient": MLP})
    good = MLP_SETUP + "[loss, grads] = dlfeval(@mlp_gradient, params, X, T);"
    session.values(good, "loss", cls="single")
    session.values(good, "loss", cls="single")  # (replayed)
    found = []
    for bad in ("[loss, grads] = dlfeval(@mlp_gradient, params, X, T(1:2, :));",
                "[loss, grads] = dlfeval(@mlp_gradient, params, X(1:3, :), T);",
                "params = rmfield(params, 'b2'); [loss, grads] = dlfeval(@mlp_gradient, params, X, T);"):
        errors = []
        for turned_off in (False, True):
            if turned_off:
                monkeypatch.setattr(step_plans, "planned_call", lambda *args: None)
            with pytest.raises(MatlabError) as info:
                session.values(MLP_SETUP + bad, cls="single")
            errors.append((info.value.identifier, info.value.message))
            monkeypatch.undo()
        assert errors[0] == errors[1]
        found.append(errors[0][0])
    assert found == ["MATLAB:sizeDimensionsMustMatch", "MATLAB:innerdim", "MATLAB:nonExistentField"]


def test_a_function_declined_alone_is_planned_inside_another(tmp_path, monkeypatch) -> None:
    """dlfeval of the loss alone (no gradient: nothing to replay untraced) stops trying
    plans for it, without reading its inputs' pattern again; the gradient function that
    calls it still replays."""
    keys = []
    real_key = step_plans.pattern_key
    monkeypatch.setattr(step_plans, "pattern_key", lambda *args, **kw: keys.append(1) or real_key(*args, **kw))
    files = {"mlp_gradient": MLP.split("\n\n")[0], "mlp_loss": MLP.split("\n\n")[1]}
    code = MLP_SETUP + """
    for k = 1:3
        l0 = dlfeval(@mlp_loss, params, X, T);
    end
    """ + MLP_LOOP.removeprefix(MLP_SETUP)
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, files, code,
                                          ("l0", "losses", "params", "grads"), cls="single")
    assert replays == 3
    assert len(keys) == 1 + 4  # the loss alone once; the gradient function at each call
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
