"""Plans of plain dlfeval calls (step_plans.py): a model function recorded at its first
call and replayed later gives what running its code gives, bit for bit, over training
loops in single and double with NaN and Inf, on structs and networks; functions whose
code a plan cannot stand for, names that resolve elsewhere, changing inputs and errors
all take the general path (the same runs with plans turned off)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning import step_plans
from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import char_row
from mlang.values.struct import Struct

TANH_LOSS = """function [loss, grads] = tanh_loss(params, X, T)
h = tanh(fullyconnect(X, params.W1, params.b1));
Y = fullyconnect(h, params.W2, params.b2);
loss = mse(Y, T);
grads = dlgradient(loss, params);
end
"""

NET_LOSS = """function [loss, grads] = net_loss(net, X, T)
Y = forward(net, X);
loss = mse(Y, T);
grads = dlgradient(loss, net.Learnables);
end
"""

SETUP = """
rng(3);
params.W1 = dlarray(cast(randn(4, 3), cls)); params.b1 = dlarray(cast(randn(4, 1), cls));
params.W2 = dlarray(cast(randn(1, 4), cls)); params.b2 = dlarray(cast(0.5, cls));
X = dlarray(cast([0.1 -0.5 1 2 0; 0.3 0.2 -1 NaN 1; 1 2 3 4 -Inf], cls), 'CB');
T = cast([1 0 -1 0.5 2], cls);
avg = []; avgSq = [];
"""

LOOP = SETUP + """
losses = zeros(1, 4, cls);
for k = 1:4
    [loss, grads] = dlfeval(fn, params, X(:, 1:3), T(1:3));
    [params, avg, avgSq] = adamupdate(params, grads, avg, avgSq, k);
    losses(k) = extractdata(loss);
end
"""


class Session:
    """An interpreter with a folder of function files on its path."""

    def __init__(self, folder: Path, files: dict[str, str]) -> None:
        for name, text in files.items():
            (folder / f"{name}.m").write_text(text)
        self.out = io.StringIO()
        self.interp = Interpreter(stdout=self.out, stderr=io.StringIO())
        self.interp.path.append(str(folder))
        self.interp.invalidate()

    def values(self, code: str, *names: str, **inputs) -> list:
        self.interp.base.vars.clear()
        self.interp.base.vars.update({k: char_row(v) if type(v) is str else v
                                      for k, v in inputs.items()})
        self.interp.eval(code)
        return [self.interp.base.vars[n] for n in names]


class Replays:
    """Counts the calls a plan replayed."""

    def __init__(self, real) -> None:
        self.real = real
        self.count = 0

    def __call__(self, *args):
        self.count += 1
        return self.real(*args)


def both_ways(tmp_path: Path, monkeypatch, files: dict[str, str], code: str, names: tuple,
              **inputs) -> tuple[list, list, int, str, str]:
    """The values of ``names`` after ``code`` in a fresh session with plans and in another
    with plans turned off; how many calls replayed a plan; the output of each."""
    replays = Replays(step_plans.replay_untraced)
    monkeypatch.setattr(step_plans, "replay_untraced", replays)
    (tmp_path / "planned").mkdir()
    (tmp_path / "general").mkdir()
    planned = Session(tmp_path / "planned", files)
    fast = planned.values(code, *names, **inputs)
    monkeypatch.setattr(step_plans, "planned_call", lambda *args: None)
    general = Session(tmp_path / "general", files)
    slow = general.values(code, *names, **inputs)
    return fast, slow, replays.count, planned.out.getvalue(), general.out.getvalue()


def same(a, b) -> None:
    """Equal values bit for bit (NaN where NaN): dlarrays with their formats and classes,
    structs and cell arrays of them, plain arrays."""
    assert type(a) is type(b)
    if type(a) is float:
        assert a == b or (np.isnan(a) and np.isnan(b))
        return
    if type(a) is Struct:
        assert a.fields == b.fields and a.elems.shape == b.elems.shape
        for x, y in zip(a.elems.reshape(-1), b.elems.reshape(-1), strict=True):
            for name in a.fields:
                same(x[name], y[name])
        return
    if type(a) is DlArray:
        assert a.fmt == b.fmt and a.node is None and b.node is None
        a, b = a.data, b.data
    elif hasattr(a, "data") and type(a.data) is np.ndarray and a.data.dtype == object:
        for x, y in zip(a.data.reshape(-1), b.data.reshape(-1), strict=True):
            same(x, y)
        return
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("cls", ["single", "double"])
def test_a_training_loop_replays_what_the_code_computes(tmp_path, monkeypatch, cls: str) -> None:
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"tanh_loss": TANH_LOSS},
                                          "fn = @tanh_loss;" + LOOP,
                                          ("losses", "params", "avg", "avgSq", "grads"), cls=cls)
    assert replays == 3  # every call after the first
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert fast[0].dtype == np.dtype("float32" if cls == "single" else "float64")
    assert np.all(np.isfinite(fast[0])) and fast[0][0, 0] != fast[0][0, 3]


def test_a_local_function_of_a_script_file_replays(tmp_path, monkeypatch) -> None:
    script = "function out = run_steps(cls)\n" + SETUP.replace("cls", "cls") + """
    for k = 1:3
        [loss, grads] = dlfeval(@local_loss, params, X, T);
        [params, avg, avgSq] = adamupdate(params, grads, avg, avgSq, k);
    end
    out = {extractdata(loss), params, grads};
    end

    function [loss, grads] = local_loss(params, X, T)
    h = sigmoid(fullyconnect(X, params.W1, params.b1));
    h = relu(fullyconnect(h, params.W2, params.b2));
    loss = mse(h, T);
    grads = dlgradient(loss, params);
    end
    """
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"run_steps": script},
                                          "out = run_steps('double');", ("out",))
    assert replays == 2
    same(fast[0], slow[0])


def test_a_network_training_loop_replays(tmp_path, monkeypatch) -> None:
    code = """
    rng(5);
    net = dlnetwork([featureInputLayer(3); fullyConnectedLayer(4); tanhLayer; fullyConnectedLayer(1)]);
    X = dlarray(single([0.1 -0.5 1 2; 0.3 0.2 -1 NaN; 1 2 3 4]), 'CB');
    T = single([1 0 -1 0.5]);
    avg = []; avgSq = [];
    for k = 1:3
        [loss, grads] = dlfeval(@net_loss, net, X(:, 1:3), T(1:3));
        [net, avg, avgSq] = adamupdate(net, grads, avg, avgSq, k);
    end
    values = net.Learnables.Value; averages = avg.Value; gradients = grads.Value;
    """
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"net_loss": NET_LOSS}, code,
                                          ("values", "averages", "gradients", "loss"))
    assert replays == 2
    for a, b in zip(fast, slow, strict=True):
        same(a, b)


# Functions whose code a plan cannot stand for: each runs its code at every call.
DECLINED = {
    "a branch on the data": """function [loss, grads] = f(params, X, T)
        Y = fullyconnect(X, params.W1, params.b1);
        if extractdata(Y(1)) > 0
            Y = tanh(Y);
        end
        loss = mse(fullyconnect(Y, params.W2, params.b2), T);
        grads = dlgradient(loss, params);
        end""",
    "a result shown": """function [loss, grads] = f(params, X, T)
        Y = fullyconnect(tanh(fullyconnect(X, params.W1, params.b1)), params.W2, params.b2);
        loss = mse(Y, T)
        grads = dlgradient(loss, params);
        end""",
    "another builtin": """function [loss, grads] = f(params, X, T)
        Y = fullyconnect(tanh(fullyconnect(X, params.W1, params.b1)), params.W2, params.b2);
        loss = mse(Y, abs(T));
        grads = dlgradient(loss, params);
        end""",
    "a local function named as a builtin": """function [loss, grads] = f(params, X, T)
        Y = fullyconnect(tanh(fullyconnect(X, params.W1, params.b1)), params.W2, params.b2);
        loss = mse(Y, T);
        grads = dlgradient(loss, params);
        end
        function y = tanh(x)
        y = abs(x);
        end""",
    "a variable named as a builtin": """function [loss, grads] = f(params, X, T)
        tanh = fullyconnect(X, params.W1, params.b1);
        Y = fullyconnect(tanh(1:end, :), params.W2, params.b2);
        loss = mse(Y, T);
        grads = dlgradient(loss, params);
        end""",
    "two gradients": """function [loss, grads] = f(params, X, T)
        Y = fullyconnect(tanh(fullyconnect(X, params.W1, params.b1)), params.W2, params.b2);
        loss = mse(Y, T);
        g1 = dlgradient(loss, params.b2, 'RetainData', true);
        grads = dlgradient(loss, params);
        loss = loss + g1;
        end""",
    "higher derivatives": """function [loss, grads] = f(params, X, T)
        Y = fullyconnect(tanh(fullyconnect(X, params.W1, params.b1)), params.W2, params.b2);
        loss = mse(Y, T);
        grads = dlgradient(loss, params, 'EnableHigherDerivatives', true);
        end""",
    "a field written": """function [loss, grads] = f(params, X, T)
        params.b2 = params.b2;
        Y = fullyconnect(tanh(fullyconnect(X, params.W1, params.b1)), params.W2, params.b2);
        loss = mse(Y, T);
        grads = dlgradient(loss, params);
        end""",
}


@pytest.mark.parametrize("case", list(DECLINED))
def test_other_code_runs_every_time(tmp_path, monkeypatch, case: str) -> None:
    fast, slow, replays, out_fast, out_slow = both_ways(
        tmp_path, monkeypatch, {"f": DECLINED[case]}, "fn = @f;" + LOOP,
        ("losses", "params", "avg", "grads"), cls="single")
    assert replays == 0
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert out_fast == out_slow


def test_anonymous_functions_and_changing_targets_run_the_code(tmp_path, monkeypatch) -> None:
    code = SETUP + """
    g = @(p, x, t) dlgradient(mse(fullyconnect(tanh(fullyconnect(x, p.W1, p.b1)), p.W2, p.b2), t), p);
    for k = 1:12
        grads = dlfeval(g, params, X, T);
        % new plain targets at every call: a new pattern each time
        [loss, grads2] = dlfeval(@tanh_loss, params, X, T + k);
        [params, avg, avgSq] = adamupdate(params, grads2, avg, avgSq, k);
    end
    """
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"tanh_loss": TANH_LOSS}, code,
                                          ("grads", "grads2", "params", "loss"), cls="double")
    assert replays == 0
    for a, b in zip(fast, slow, strict=True):
        same(a, b)


def test_a_builtin_shadowed_later_on_the_path_is_called(tmp_path, monkeypatch) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "tanh.m").write_text("function y = tanh(x)\ny = x * 2;\nend\n")
    code = SETUP + f"""
    [l1, g1] = dlfeval(@tanh_loss, params, X(:, 1:3), T(1:3));
    [l2, g2] = dlfeval(@tanh_loss, params, X(:, 1:3), T(1:3));
    addpath('{other}');
    [l3, g3] = dlfeval(@tanh_loss, params, X(:, 1:3), T(1:3));
    """
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"tanh_loss": TANH_LOSS}, code,
                                          ("l1", "l2", "l3", "g3"), cls="double")
    assert replays == 1
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert fast[0].data[0, 0] == fast[1].data[0, 0] != fast[2].data[0, 0]


def test_errors_are_those_of_the_code(tmp_path, monkeypatch) -> None:
    (tmp_path / "planned").mkdir()
    session = Session(tmp_path / "planned", {"tanh_loss": TANH_LOSS})
    good = SETUP + "[loss, grads] = dlfeval(@tanh_loss, params, X, T);"
    session.values(good, "loss", cls="single")
    session.values(good, "loss", cls="single")  # (replayed)
    found = []
    for bad in ("[loss, grads] = dlfeval(@tanh_loss, params, X, T(1:2));",
                "[loss, grads, c] = dlfeval(@tanh_loss, params, X, T);",
                "params = rmfield(params, 'b2'); [loss, grads] = dlfeval(@tanh_loss, params, X, T);"):
        errors = []
        for turned_off in (False, True):
            if turned_off:
                monkeypatch.setattr(step_plans, "planned_call", lambda *args: None)
            with pytest.raises(MatlabError) as info:
                session.values(SETUP + bad, cls="single")
            errors.append((info.value.identifier, info.value.message))
            monkeypatch.undo()
        assert errors[0] == errors[1]
        found.append(errors[0][0])
    assert found[1] == "MATLAB:TooManyOutputs"


def test_an_accelerated_first_order_gradient_replays(tmp_path) -> None:
    (tmp_path / "s").mkdir()
    session = Session(tmp_path / "s", {})
    code = """
    f = dlaccelerate(@(x) dlgradient(sum(tanh(x), 'all'), x, 'EnableHigherDerivatives', false));
    g1 = dlfeval(f, dlarray([1 2 3]));
    g2 = dlfeval(f, dlarray([1 2 NaN]));
    plain = dlfeval(@(x) dlgradient(sum(tanh(x), 'all'), x), dlarray([1 2 NaN]));
    rate = f.HitRate;
    """
    g2, plain, rate = session.values(code, "g2", "plain", "rate")
    assert rate == 50.0
    same(g2, plain)


@pytest.mark.parametrize("cls", ["single", "double"])
@pytest.mark.parametrize("values", ["[NaN -0 Inf -Inf 0.5 -30]", "-0", "[1 2; -3 NaN]", "zeros(2, 0)"])
def test_a_replayed_tanh_is_the_builtins(tmp_path, cls: str, values: str) -> None:
    both = """function [y, g] = tanh_both(x)
    y = tanh(x);
    g = dlgradient(sum(y, 'all'), x);
    end
    """
    (tmp_path / "s").mkdir()
    session = Session(tmp_path / "s", {"tanh_both": both})
    code = f"""
    f = dlaccelerate(@tanh_both);
    x = dlarray(cast({values}, cls));
    [y0, g0] = dlfeval(f, x + 1);
    [y1, g1] = dlfeval(f, x);
    [y2, g2] = dlfeval(@tanh_both, x);
    rate = f.HitRate;
    """
    y1, g1, y2, g2, rate = session.values(code, "y1", "g1", "y2", "g2", "rate", cls=cls)
    assert rate == 50.0
    same(y1, y2)
    same(g1, g2)
