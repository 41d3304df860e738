"""The untraced replay of a tanh network's derivatives makes 1 - y.^2 once per tanh
result (tanh_replay.py): tanh's rule, the tanh_backward steps that higher derivatives
record and their rules give the bits they give without it, for single and double, NaN,
Inf and -0, and hand other arguments (other shapes, classes, complex) to the rule."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mlang.builtins.deeplearning import replay_kernels, tanh_replay, trace_cache
from mlang.builtins.math.elementwise import TANH_BACKWARD
from mlang.registry import BUILTINS
from tests.builtins.deeplearning.test_step_plans import both_ways, same

# the benchmark's PINN: two tanh layers, second x-derivatives, mean squared residuals
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
h = tanh(fullyconnect(h, params.W2, params.b2));
u = fullyconnect(h, params.W3, params.b3);
end
"""

PINN_LOOP = """
rng(3);
params.W1 = dlarray(cast(randn(5, 2), cls)); params.b1 = dlarray(cast(randn(5, 1), cls));
params.W2 = dlarray(cast(randn(4, 5), cls)); params.b2 = dlarray(cast(randn(4, 1), cls));
params.W3 = dlarray(cast(randn(1, 4), cls)); params.b3 = dlarray(cast(0.1, cls));
X = dlarray(cast([0.1 0.5 -1 2 0.3 -0.7; 0.2 -0.3 1 0 0.7 0.4], cls), 'CB');
f = cast([1 2 3 4 5 6], cls); g = cast([0 -1 0.5 2 1 -2], cls);
avg = []; avgSq = [];
for k = 1:4
    [loss, grads] = dlfeval(@pinn_loss, params, X, f, g);
    [params, avg, avgSq] = adamupdate(params, grads, avg, avgSq, k);
end
"""

SPECIALS = {
    "": "",
    "a NaN and an Inf": "X(1, 2) = NaN; X(2, 5) = Inf;",
    "saturated units": "params.W1 = params.W1 * 1e3;",
    "-0 weights": "params.W3(2) = -0; params.W2(1, :) = -0;",
}


@pytest.mark.parametrize("cls", ["single", "double"])
@pytest.mark.parametrize("special", list(SPECIALS))
def test_a_pinn_replays_what_its_code_computes(tmp_path, monkeypatch, cls: str, special: str) -> None:
    slopes_made = []
    real_slope = tanh_replay._slope

    def slope(memo, y_slot, y):
        slopes_made.append(y_slot not in memo)
        return real_slope(memo, y_slot, y)

    monkeypatch.setattr(tanh_replay, "_slope", slope)
    code = PINN_LOOP.replace("avg = []; avgSq = [];", SPECIALS[special] + " avg = []; avgSq = [];")
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"pinn_loss": PINN}, code,
                                          ("loss", "params", "avg", "avgSq", "grads"), cls=cls)
    assert replays == 3
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert fast[0].data.dtype == np.dtype("float32" if cls == "single" else "float64")
    # per replay, each layer's 1 - y.^2 made once and read four more times
    assert slopes_made == [True, True, False, False, False, False, False, False, False, False] * 3
    if not special:
        assert np.isfinite(fast[0].data).all() and fast[4].fields == ["W1", "b1", "W2", "b2",
                                                                      "W3", "b3"]


def _arrays() -> list:
    rng = np.random.default_rng(6)
    y = np.tanh(rng.standard_normal((3, 4)) * 3)
    y[0, 0], y[1, 1], y[2, 2], y[0, 3] = np.nan, -0.0, 1.0, -1.0
    g = rng.standard_normal((3, 4)) * 1e300
    g[0, 1], g[1, 2], g[2, 0] = np.inf, -0.0, np.nan
    with np.errstate(over="ignore"):  # (single infinities)
        g32 = g.astype(np.float32)
    return [y, g, y.astype(np.float32), g32, np.asfortranarray(y), y[:, :1],
            y[:1, :], y + 0.5j, np.zeros((0, 4)), np.array([[0.25]]), 0.5, y.T]


_PAIRS = list(itertools.product(range(len(_arrays())), repeat=2))


def _same_bits(got, want) -> None:
    assert type(got) is type(want)
    if type(got) is np.ndarray:
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        if got.dtype.kind == "f":
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    else:
        assert got == want


def _forced(c):
    return c() if callable(c) else c


@pytest.mark.parametrize("i, j", _PAIRS)
def test_tanh_backward_values_are_the_operations(i: int, j: int) -> None:
    g, y = _arrays()[i], _arrays()[j]
    with np.errstate(all="ignore"):
        memo: dict = {}
        got = tanh_replay.step_value([g, y], 7, memo)
        if got is None:  # declined: the operation computes it
            assert not tanh_replay._plain(g, y) and not memo
            return
        want = TANH_BACKWARD.fn(g, y)
        _same_bits(got, want)
        _same_bits(tanh_replay.step_value([g, y], 7, memo), want)  # (from the memo)
        assert list(memo) == [7]


@pytest.mark.parametrize("i, j", _PAIRS)
def test_tanh_backward_rules_give_the_rules_contributions(i: int, j: int) -> None:
    gz, y = _arrays()[i], _arrays()[j]
    g = _arrays()[1]
    with np.errstate(all="ignore"):
        try:
            want = [_forced(c) for c in TANH_BACKWARD.gradient(gz, None, g, y)]
        except Exception as exc:  # noqa: BLE001 (the kernel raises what the rule raises)
            with pytest.raises(type(exc)):
                [_forced(c) for c in tanh_replay.rule_contributions(
                    (1, True), TANH_BACKWARD.gradient, gz, None, [g, y], {})]
            return
        memo = {1: 1 - y * y} if tanh_replay._plain(gz, y) else {}
        for trial in ({}, memo):
            got = [_forced(c) for c in tanh_replay.rule_contributions(
                (1, True), TANH_BACKWARD.gradient, gz, None, [g, y], dict(trial))]
            for a, b in zip(got, want, strict=True):
                _same_bits(a, b)


@pytest.mark.parametrize("i, j", _PAIRS)
def test_tanh_rules_give_the_rules_contributions(i: int, j: int) -> None:
    g, y = _arrays()[i], _arrays()[j]
    rule = BUILTINS["tanh"].gradient
    x = np.arctanh(y) if type(y) is np.ndarray else y
    with np.errstate(all="ignore"):
        try:
            want = [_forced(c) for c in rule(g, y, x)]
        except Exception as exc:  # noqa: BLE001 (the kernel raises what the rule raises)
            with pytest.raises(type(exc)):
                tanh_replay.rule_contributions((2, False), rule, g, y, [x], {})
            return
        got = [_forced(c) for c in tanh_replay.rule_contributions((2, False), rule, g, y, [x], {})]
    for a, b in zip(got, want, strict=True):
        _same_bits(a, b)


def test_constant_tanh_backward_arguments_take_no_slope() -> None:
    steps = [trace_cache.OpStep(TANH_BACKWARD, ((0, ""), (None, np.ones((2, 2)))), 1),
             trace_cache.OpStep(TANH_BACKWARD, ((0, ""), (1, "")), 2),
             trace_cache.OpStep(BUILTINS["tanh"], ((2, ""),), 3),
             trace_cache.OpStep(BUILTINS["exp"], ((3, ""),), 4)]
    assert tanh_replay.slope_steps(steps, 4) == {1: (1, True), 2: (3, False)}
    assert tanh_replay.slope_steps(steps, 2) == {1: (1, True)}


def test_a_slope_read_once_takes_no_kernel() -> None:
    """A first-order pass through tanh reads 1 - y.^2 once: its rule makes it itself."""
    once = [trace_cache.OpStep(BUILTINS["tanh"], ((0, ""),), 1),
            trace_cache.OpStep(BUILTINS["tanh"], ((1, ""),), 2)]
    assert replay_kernels.step_kernels(once, 2) == ({}, {})
    twice = once + [trace_cache.OpStep(TANH_BACKWARD, ((0, ""), (2, "")), 3)]
    values, rules = replay_kernels.step_kernels(twice, 3)
    assert list(values) == [2] and sorted(rules) == [1, 2]
