"""The untraced replay's rule for mean((s - c).^2, 'all') (replay_kernels.squared_error_means):
a plan whose loss has such terms replays what running the code computes, bit for bit,
where the rule is fused (double data, NaN and Inf among it) and where it is not (single
data, a NaN gradient, the difference read elsewhere, the constant first, a term of s
between the rules), over training loops (plans on and off)."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.builtins.deeplearning import replay_kernels
from tests.builtins.deeplearning.test_step_plans import both_ways, same

LOSS = """function [loss, grads] = squared(params, X, f, g)
u = fullyconnect(tanh(fullyconnect(X, params.W1, params.b1)), params.W2, params.b2);
du = dlgradient(sum(u, 'all'), X, 'EnableHigherDerivatives', true);
ux = du(1, :);
loss = TERMS;
grads = dlgradient(loss, params);
end
"""

SETUP = """
rng(4);
params.W1 = dlarray(cast(randn(5, 2), cls)); params.b1 = dlarray(cast(randn(5, 1), cls));
params.W2 = dlarray(cast(randn(1, 5), cls)); params.b2 = dlarray(cast(0.25, cls));
X = dlarray(cast(randn(2, 6), cls), 'CB');
f = cast(randn(1, 6), cls); g = cast(randn(1, 6), cls);
CHANGE
avg = []; avgSq = [];
losses = zeros(1, 4, cls);
for k = 1:4
    [loss, grads] = dlfeval(@squared, params, X, f, g);
    [params, avg, avgSq] = adamupdate(params, grads, avg, avgSq, k);
    losses(k) = extractdata(loss);
end
"""

FUSED = "mean((ux - f).^2, 'all') + mean((u - g).^2, 'all')"


def _run(tmp_path, monkeypatch, terms: str, cls: str = "double", change: str = "") -> tuple:
    fused_rules = []
    real = replay_kernels.squared_error_rule

    def counted(*args):
        fused_rules.append(1)
        return real(*args)

    monkeypatch.setattr(replay_kernels, "squared_error_rule", counted)
    code = SETUP.replace("CHANGE", change)
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch,
                                          {"squared": LOSS.replace("TERMS", terms)}, code,
                                          ("losses", "params", "avg", "avgSq", "grads"), cls=cls)
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert replays == 3
    return fast, len(fused_rules)


@pytest.mark.parametrize("change", ["", "f(3) = NaN;", "g(2) = Inf; g(5) = -Inf;", "X = X * 1e155;"],
                         ids=["plain", "nan", "inf", "overflow"])
def test_fused_squared_errors_replay_what_the_code_computes(tmp_path, monkeypatch, change) -> None:
    fast, fused = _run(tmp_path, monkeypatch, FUSED, change=change)
    assert fused == 2 * 3  # both terms, at each replayed call
    if not change:
        assert np.all(np.isfinite(fast[0])) and len(set(fast[0].reshape(-1).tolist())) == 4


@pytest.mark.parametrize("terms, fused", [
    ("mean((ux - f).^2, 'all') + mean((u - g).^2, 'all') + sum(u, 'all')", 6),  # s read again
    ("mean((f - ux).^2, 'all') + mean((u - g).^2, 'all')", 3),  # the constant first
    ("mean((ux - f).^3, 'all')", 0),  # not a square
    ("0; d = ux - f; loss = mean(d.^2, 'all') + sum(d, 'all')", 0),  # the difference read again
    ("0; p = (ux - f).^2; loss = mean(p, 'all') + sum(p, 'all')", 0),  # the square read again
    ("mean((ux - f).^2, 'all') + sum(ux - f, 'all')", 3),  # (two differences: one read once)
    ("mean((ux - f).^2)", 0),  # no 'all'
    ("mean((ux - 2).^2, 'all')", 0),  # a scalar constant: ux's shape and the difference's agree
])
def test_other_losses_replay_what_the_code_computes(tmp_path, monkeypatch, terms, fused) -> None:
    _, calls = _run(tmp_path, monkeypatch, terms)
    assert calls == fused


def test_a_nan_gradient_takes_the_rules_one_by_one(tmp_path, monkeypatch) -> None:
    general = []
    real = replay_kernels._mean_rule
    monkeypatch.setattr(replay_kernels, "_mean_rule", lambda *args: general.append(1) or real(*args))
    fast, calls = _run(tmp_path, monkeypatch, "mean((ux - f).^2, 'all') .* g(1)", change="g(1) = NaN;")
    assert calls == 3 and len(general) >= 3 and np.isnan(fast[0]).all()


def test_single_data_take_the_rules_one_by_one(tmp_path, monkeypatch) -> None:
    fast, calls = _run(tmp_path, monkeypatch, FUSED, cls="single")
    assert calls == 6 and fast[0].dtype == np.float32


def test_the_fused_rule_is_what_breaking_it_would_change(tmp_path, monkeypatch) -> None:
    # (the comparisons above catch a rule that differs in the last bit)
    real = replay_kernels.squared_error_rule

    def off_by_a_bit(*args):
        out = real(*args)
        return (None if out[0] is None else np.nextafter(out[0], np.inf), None)

    monkeypatch.setattr(replay_kernels, "squared_error_rule", off_by_a_bit)
    fast, slow, _, _, _ = both_ways(tmp_path, monkeypatch, {"squared": LOSS.replace("TERMS", FUSED)},
                                    SETUP.replace("CHANGE", ""),
                                    ("losses", "params", "avg", "avgSq", "grads"), cls="double")
    assert not _equal(fast, slow)


def _equal(fast: list, slow: list) -> bool:
    try:
        for a, b in zip(fast, slow, strict=True):
            same(a, b)
    except AssertionError:
        return False
    return True

