"""Plans of classifiers written with softmax and crossentropy (step_plans.py): replayed
calls give what running the code gives, bit for bit (single and double, NaN, Inf,
predictions below eps, targets given as dlarrays that change between calls); weights or
a mask passed as variables, and a loss of a gradient after dlgradient, run the code
(the same runs with plans turned off)."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.builtins.deeplearning import step_plans
from tests.builtins.deeplearning.test_step_plans import Session, both_ways, same

CLASSIFIER = """function [loss, grads] = classifier(params, X, T)
H = relu(fullyconnect(X, params.W1, params.b1));
Y = softmax(fullyconnect(H, params.W2, params.b2));
loss = crossentropy(Y, T);
grads = dlgradient(loss, params);
end
"""

SETUP = """
rng(11);
params.W1 = dlarray(cast(randn(6, 4), cls)); params.b1 = dlarray(cast(randn(6, 1), cls));
params.W2 = dlarray(cast(randn(3, 6), cls)); params.b2 = dlarray(cast(randn(3, 1), cls));
X = dlarray(cast(randn(4, 5), cls), 'CB');
T = cast([1 0 0 1 0; 0 1 0 0 1; 0 0 1 0 0], cls);
avg = []; avgSq = [];
"""

LOOP = SETUP + """
losses = zeros(1, 4, cls);
for k = 1:4
    [loss, grads] = dlfeval(fn, params, X, T);
    [params, avg, avgSq] = adamupdate(params, grads, avg, avgSq, k);
    losses(k) = extractdata(loss);
end
"""


@pytest.mark.parametrize("cls", ["single", "double"])
@pytest.mark.parametrize("special", ["none", "nan", "inf", "saturated"])
def test_a_softmax_classifier_replays_what_the_code_computes(tmp_path, monkeypatch, cls: str,
                                                              special: str) -> None:
    change = {"none": "", "nan": "X(2, 3) = NaN;", "inf": "X(1, 2) = Inf; X(3, 4) = -Inf;",
              # logits far apart: probabilities below eps, bounded by crossentropy
              "saturated": "X = X * 400;"}[special]
    code = "fn = @classifier;" + LOOP.replace("avg = []; avgSq = [];", change + " avg = []; avgSq = [];")
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"classifier": CLASSIFIER}, code,
                                          ("losses", "params", "avg", "avgSq", "grads"), cls=cls)
    assert replays == 3  # every call after the first
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert fast[0].dtype == np.dtype("float32" if cls == "single" else "float64")
    if special == "none":
        assert np.all(np.isfinite(fast[0])) and fast[0][0, 0] != fast[0][0, 3]


def test_options_as_literals_replay(tmp_path, monkeypatch) -> None:
    loss = """function [loss, grads] = classifier(params, X, T)
H = relu(fullyconnect(X, params.W1, params.b1));
Y = softmax(fullyconnect(H, params.W2, params.b2));
loss = crossentropy(Y, T, 'NormalizationFactor', 'all-elements', 'ClassificationMode', 'multilabel');
grads = dlgradient(loss, params);
end
"""
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"classifier": loss},
                                          "fn = @classifier;" + LOOP,
                                          ("losses", "params", "grads"), cls="double")
    assert replays == 3
    for a, b in zip(fast, slow, strict=True):
        same(a, b)


def test_targets_as_dlarrays_are_read_at_each_call(tmp_path, monkeypatch) -> None:
    # traced targets are inputs of the program: new values at each call, one pattern
    code = SETUP + """
    for k = 1:4
        Tk = dlarray(circshift(T, k, 2), 'CB');
        [loss, grads] = dlfeval(@classifier, params, X, Tk);
        losses(k) = extractdata(loss);
    end
    """
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"classifier": CLASSIFIER}, code,
                                          ("losses", "grads"), cls="double")
    assert replays == 3
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert len(set(fast[0].reshape(-1).tolist())) > 1


# crossentropy's weights and mask are constants of its operation even when dlarrays, and a
# loss's targets taken from a gradient are its data: such code runs at every call
DECLINED = {
    "weights as a variable": """function [loss, grads] = f(params, X, T, W)
        Y = softmax(fullyconnect(relu(fullyconnect(X, params.W1, params.b1)), params.W2, params.b2));
        loss = crossentropy(Y, T, W);
        grads = dlgradient(loss, params);
        end""",
    "a mask as a variable": """function [loss, grads] = f(params, X, T, W)
        Y = softmax(fullyconnect(relu(fullyconnect(X, params.W1, params.b1)), params.W2, params.b2));
        loss = crossentropy(Y, T, 'Mask', W);
        grads = dlgradient(loss, params);
        end""",
}


@pytest.mark.parametrize("case", list(DECLINED))
def test_weights_and_masks_as_variables_run_the_code(tmp_path, monkeypatch, case: str) -> None:
    code = SETUP + """
    for k = 1:3
        W = dlarray(cast(circshift([1 0 2 1 0], k), cls), 'CB');
        [loss, grads] = dlfeval(@f, params, X, T, W);
        losses(k) = extractdata(loss);
    end
    """
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"f": DECLINED[case]}, code,
                                          ("losses", "grads"), cls="double")
    assert replays == 0
    for a, b in zip(fast, slow, strict=True):
        same(a, b)


@pytest.mark.parametrize("loss", ["mse(y, g)", "crossentropy(softmax(y), softmax(g))"])
def test_a_loss_of_a_gradient_runs_the_code(tmp_path, monkeypatch, loss: str) -> None:
    # the gradient enters the loss's operation as data: a replay would keep the first one
    fn = f"""function [l2, g] = f(x)
        y = x.*x;
        l1 = sum(y, 'all');
        g = dlgradient(l1, x);
        l2 = {loss};
        end"""
    code = """
    for k = 1:3
        x = dlarray([1 2 3; 2 1 0.5] * k, 'CB');
        [l2, g] = dlfeval(@f, x);
        losses(k) = extractdata(l2);
    end
    """
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"f": fn}, code, ("losses", "g"))
    assert replays == 0
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert len(set(fast[0].reshape(-1).tolist())) == 3


LOGICAL = """function [loss, grads] = f(params, X, M, L)
Y = fullyconnect(X, params.W1, params.b1);
Z = Y .* M + params.b1 ./ L - L .* params.b1;
loss = sum(Z .^ 2, 'all') + sum(params.b1 ./ L, 'all');
grads = dlgradient(loss, params);
end
"""


@pytest.mark.parametrize("cls", ["single", "double"])
def test_logical_arguments_count_as_double_in_the_rules(tmp_path, monkeypatch, cls: str) -> None:
    # M: plain logical data (a constant of the program); L: a logical dlarray (an input)
    code = SETUP + """
    M = [true false true false true; false true true false false; true true false true true;
         false false true true false; true false false true true; false true false true false];
    for k = 1:3
        L = dlarray(logical([1; 1; 0; 1; 1; 1]));
        [loss, grads] = dlfeval(@f, params, X, M, L);
        [params, avg, avgSq] = adamupdate(params, grads, avg, avgSq, k);
        losses(k) = extractdata(loss);
    end
    """
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"f": LOGICAL}, code,
                                          ("losses", "grads", "params"), cls=cls)
    assert replays == 2
    for a, b in zip(fast, slow, strict=True):
        same(a, b)


def test_the_steps_with_logical_arguments_are_noted(tmp_path, monkeypatch) -> None:
    # (the replay converts the logical arguments of these steps alone for their rules)
    code = SETUP + """
    M = rand(6, 5) > 0.5;
    L = dlarray(logical([1; 1; 0; 1; 1; 1]));
    [loss, grads] = dlfeval(@f, params, X, M, L);
    """
    (tmp_path / "f.m").write_text(LOGICAL)
    session = Session(tmp_path, {})
    session.values(code, "loss", cls="double")
    plans = session.interp.family_state[step_plans.PLANS]
    (program,) = [p for plan in plans.values() for p in plan.programs.values()]
    last_input = program.inputs - 1  # L's slot
    logical = {k for k, step in enumerate(program.steps)
               if any(type(v) is np.ndarray and v.dtype.kind == "b" if s is None else s == last_input
                      for s, v in getattr(step, "args", ()))}
    assert logical == {1, 2, 4, 8}  # M .* ..., ... ./ L, L .* ..., ... ./ L
    assert program.first_order.logical == logical
