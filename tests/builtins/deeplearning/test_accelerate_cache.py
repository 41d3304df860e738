"""The trace cache of accelerated functions: a replayed trace gives the values and
gradients of the function itself; hits, new patterns, clearCache, Enabled and CacheSize;
calls that cannot be replayed run the function every time."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray

PINN = """
function [loss, grads] = pinnLoss(params, X, f, g)
u = model(params, X);
du = dlgradient(sum(u, 'all'), X, 'EnableHigherDerivatives', true);
ux = du(1, :);
d2u = dlgradient(sum(ux, 'all'), X, 'EnableHigherDerivatives', true);
uxx = d2u(1, :);
loss = mean((uxx - f).^2) + mean((u - g).^2);
grads = dlgradient(loss, params);
end
function u = model(params, X)
h = tanh(params.W1*X + params.b1);
h = tanh(params.W2*h + params.b2);
u = params.W3*h + params.b3;
end
"""

TANH = """
function [loss, grads] = tanhLoss(params, X, T)
h = tanh(fullyconnect(X, params.W1, params.b1));
h = tanh(fullyconnect(h, params.W2, params.b2));
Y = fullyconnect(h, params.W3, params.b3);
loss = mse(Y, T);
grads = dlgradient(loss, params);
end
"""


def run_vars(m, text: str) -> dict:
    m.interp.base.vars.clear()
    m.interp.run_source(text, "accelerate_cache")
    return dict(m.interp.base.vars)


def data(v: object) -> np.ndarray:
    return v.data if type(v) is DlArray else np.asarray(v)


def same(a: object, b: object, rtol: float = 1e-12) -> None:
    np.testing.assert_allclose(data(a), data(b), rtol=rtol, atol=rtol)


def test_pinn_replay_equals_the_function(m) -> None:
    out = run_vars(m, """
rng(1);
p.W1 = dlarray(randn(5,2)); p.b1 = dlarray(randn(5,1));
p.W2 = dlarray(randn(5,5)); p.b2 = dlarray(randn(5,1));
p.W3 = dlarray(randn(1,5)); p.b3 = dlarray(randn(1,1));
f = randn(1,7); g = randn(1,7);
acc = dlaccelerate(@pinnLoss);
L = zeros(3, 2); G = cell(3, 2);
for k = 1:3
    X = dlarray(randn(2,7));
    [l0, g0] = dlfeval(@pinnLoss, p, X, f, g);
    [l1, g1] = dlfeval(acc, p, X, f, g);
    L(k, :) = [extractdata(l0) extractdata(l1)];
    G{k, 1} = g0; G{k, 2} = g1;
    p.W2 = p.W2 + 0.1;
end
hit = acc.HitRate; occ = acc.Occupancy;
""" + PINN)
    losses = out["L"]
    np.testing.assert_allclose(losses[:, 1], losses[:, 0], rtol=1e-12)
    for k in range(3):
        plain, fast = out["G"].data[k, 0], out["G"].data[k, 1]
        for name in ("W1", "b1", "W2", "b2", "W3", "b3"):
            same(fast.elems[0, 0][name], plain.elems[0, 0][name])
            assert fast.elems[0, 0][name].node is None
    assert out["hit"] == pytest.approx(200 / 3) and out["occ"] == 2.0


@pytest.mark.parametrize("cls", ["double", "single"])
def test_model_function_replay_in_a_training_loop(m, cls: str) -> None:
    out = run_vars(m, f"""
rng(2);
p.W1 = dlarray(randn(6,3,'{cls}')); p.b1 = dlarray(zeros(6,1,'{cls}'));
p.W2 = dlarray(randn(4,6,'{cls}')); p.b2 = dlarray(zeros(4,1,'{cls}'));
p.W3 = dlarray(randn(1,4,'{cls}')); p.b3 = dlarray(zeros(1,1,'{cls}'));
q = p;
acc = dlaccelerate(@tanhLoss);
[a1, a2, b1, b2] = deal([]);
for k = 1:4
    X = dlarray(randn(3,9,'{cls}'), 'CB'); T = dlarray(randn(1,9,'{cls}'), 'CB');
    [l0, g0] = dlfeval(@tanhLoss, p, X, T);
    [p, a1, a2] = adamupdate(p, g0, a1, a2, k);
    [l1, g1] = dlfeval(acc, q, X, T);
    [q, b1, b2] = adamupdate(q, g1, b1, b2, k);
end
hit = acc.HitRate;
""" + TANH)
    rtol = 1e-12 if cls == "double" else 1e-5
    same(out["l1"], out["l0"], rtol)
    for name in ("W1", "b1", "W2", "b2", "W3", "b3"):
        same(out["q"].elems[0, 0][name], out["p"].elems[0, 0][name], rtol)
    assert out["l1"].data.dtype == out["l0"].data.dtype
    assert out["hit"] == 75.0


def test_new_sizes_formats_and_values_make_new_traces(m) -> None:
    out = run_vars(m, """
acc = dlaccelerate(@(x, c) sum(x .* c, 'all'));
y1 = acc(dlarray([1 2 3]), 2);
y2 = acc(dlarray([4 5 6]), 2);
o1 = acc.Occupancy;
y3 = acc(dlarray([1 2 3 4]), 2);
y4 = acc(dlarray([1 2 3], 'CB'), 2);
y5 = acc(dlarray([1 2 3]), 3);
y6 = acc(dlarray(single([1 2 3])), 3);
o2 = acc.Occupancy; h = acc.HitRate;
""")
    assert [float(out[f"y{k}"].data[0, 0]) for k in range(1, 7)] == [12.0, 30.0, 20.0, 12.0, 18.0, 18.0]
    assert out["y6"].data.dtype == np.float32
    assert out["o1"] == 2.0 and out["o2"] == 10.0 and out["h"] == pytest.approx(100 / 6)


def test_clear_cache_and_enabled(m) -> None:
    out = run_vars(m, """
acc = dlaccelerate(@(x) sum(x.^2));
y1 = acc(dlarray([1 2])); y2 = acc(dlarray([2 3]));
h1 = acc.HitRate; o1 = acc.Occupancy;
clearCache(acc);
h2 = acc.HitRate; o2 = acc.Occupancy;
acc.Enabled = false;
y3 = acc(dlarray([3 4])); y4 = acc(dlarray([4 5]));
h3 = acc.HitRate; o3 = acc.Occupancy;
acc.Enabled = true;
y5 = acc(dlarray([5 6])); y6 = acc(dlarray([6 7]));
h4 = acc.HitRate;
""")
    assert [float(out[f"y{k}"].data[0, 0]) for k in range(1, 7)] == [5.0, 13.0, 25.0, 41.0, 61.0, 85.0]
    assert (out["h1"], out["o1"]) == (50.0, 2.0)
    assert (out["h2"], out["o2"]) == (0.0, 0.0)
    assert (out["h3"], out["o3"]) == (0.0, 0.0)
    assert out["h4"] == 50.0


def test_a_full_cache_runs_new_patterns_without_caching_them(m) -> None:
    out = run_vars(m, """
acc = dlaccelerate(@(x) 2 * x);
acc.CacheSize = 1;
a = acc(dlarray(1)); b = acc(dlarray([1 2])); c = acc(dlarray([3 4]));
o = acc.Occupancy; h = acc.HitRate;
""")
    np.testing.assert_allclose(out["c"].data, [[6.0, 8.0]])
    assert out["o"] == 100.0 and out["h"] == 0.0


def test_results_differentiated_outside_the_accelerated_function(m) -> None:
    """A replayed trace is recorded in the trace of the caller's dlfeval."""
    out = run_vars(m, """
acc = dlaccelerate(@(x, w) tanh(w * x));
w = dlarray([1 2; 3 4] / 10);
for k = 1:3
    x = dlarray([1; -1] * k);
    [g0, gw0] = dlfeval(@(x, w) outer(@(x, w) tanh(w * x), x, w), x, w);
    [g1, gw1] = dlfeval(@(x, w) outer(acc, x, w), x, w);
end
h = acc.HitRate;
function [g, gw] = outer(fn, x, w)
y = fn(x, w);
[g, gw] = dlgradient(sum(y .^ 3), x, w);
end
""")
    same(out["g1"], out["g0"])
    same(out["gw1"], out["gw0"])
    assert out["h"] == pytest.approx(200 / 3)


def test_untraced_calls_replay_and_return_untraced_values(m) -> None:
    out = run_vars(m, """
acc = dlaccelerate(@(x) softmax(x));
a = acc(dlarray([1 2 3]', 'CB')); b = acc(dlarray([3 1 2]', 'CB'));
h = acc.HitRate;
""")
    e = np.exp([3.0, 1.0, 2.0])
    np.testing.assert_allclose(out["b"].data.ravel(), e / e.sum(), rtol=1e-12)
    assert out["b"].node is None and out["b"].fmt == "CB" and out["h"] == 50.0


@pytest.mark.parametrize("body, inputs", [
    ("x .* (x > 0)", "dlarray([1 -2 3]), dlarray([-1 2 -3])"),  # an untraced comparison
    ("dlarray(extractdata(x) * 2)", "dlarray([1 2 3]), dlarray([4 5 6])"),
    ("extractdata(sum(x))", "dlarray([1 2 3]), dlarray([4 5 6])"),
])
def test_calls_that_cannot_be_replayed_run_the_function(m, body: str, inputs: str) -> None:
    first, second = inputs.split("), ")
    out = run_vars(m, f"""
fn = @(x) {body};
acc = dlaccelerate(fn);
a = acc({first})); b = acc({second});
a0 = fn({first})); b0 = fn({second});
""")
    same(out["a"], out["a0"])
    same(out["b"], out["b0"])


def test_complex_and_logical_inputs(m) -> None:
    out = run_vars(m, """
acc = dlaccelerate(@(x, mask) sum(abs(x(mask)) .^ 2));
a = acc(dlarray([1+2i 3 4i]), [true false true]);
b = acc(dlarray([2i 1 1+1i]), [true false true]);
c = acc(dlarray([2i 1 1+1i]), [false true true]);
h = acc.HitRate;
""")
    assert float(out["a"].data[0, 0]) == pytest.approx(21.0)
    assert float(out["b"].data[0, 0]) == pytest.approx(6.0)
    assert float(out["c"].data[0, 0]) == pytest.approx(3.0)
    assert out["h"] == pytest.approx(100 / 3)


def test_empty_and_nan_values(m) -> None:
    out = run_vars(m, """
acc = dlaccelerate(@(x) sum(exp(x)));
a = acc(dlarray(zeros(1, 0))); b = acc(dlarray(zeros(1, 0)));
c = acc(dlarray([1 NaN])); d = acc(dlarray([NaN 2]));
h = acc.HitRate;
""")
    assert float(out["b"].data[0, 0]) == 0.0
    assert np.isnan(out["d"].data[0, 0]) and out["h"] == 50.0
