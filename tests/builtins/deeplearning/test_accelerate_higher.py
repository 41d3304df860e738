"""The replay of an accelerated function whose dlgradient calls with higher derivatives
feed later operations (a PINN-style loss): the traced backward passes are taken in as
recorded operations, so the whole call replays on the arrays alone.  The values and
gradients are exactly those of the function itself, for new sizes and classes too, and
a backward pass through a rule that reads the data (relu's mask) is never replayed from
stale values."""

from __future__ import annotations

import numpy as np
import pytest

from tests.builtins.deeplearning import test_accelerate_untraced as untraced

compare = untraced.compare
replays = untraced.replays  # (the fixture counting the replays on the arrays alone)

PINN = """
function [loss, grads] = f(p, X)
u = model(p, X);
du = dlgradient(sum(u, 'all'), X, 'EnableHigherDerivatives', true);
ux = du(1, :);
d2u = dlgradient(sum(ux, 'all'), X, 'EnableHigherDerivatives', true);
uxx = d2u(1, :);
loss = mean((uxx - sin(1:size(X, 2))).^2) + mean((u - 1).^2, 'all');
grads = dlgradient(loss, p);
end
function u = model(p, X)
h = tanh(p.W1*X + p.b1);
h = tanh(p.W2*h + p.b2);
u = p.W3*h + p.b3;
end
"""

PARAMS = ("struct('W1', dlarray({s}([1 2; 3 4; 5 6] / {d})), 'b1', dlarray({s}([0.1; 0.2; 0.3])), "
          "'W2', dlarray({s}([1 -1 2; 0 1 1] / 3)), 'b2', dlarray({s}([0.5; -1])), "
          "'W3', dlarray({s}([2 -1] / 3)), 'b3', dlarray({s}(0.25)))")


def _params(cls: str = "double", d: int = 7) -> str:
    return PARAMS.format(s=cls, d=d)


def test_pinn_loss_replays_on_the_arrays_exactly(m, replays) -> None:
    out = compare(m, "", f"""
{_params()}, dlarray([1 2 3; 4 5 6] / 6)
{_params(d=5)}, dlarray([3 2 1; 4 5 6] / 6)
{_params(d=5)}, dlarray([3 2 1 0; 4 5 6 7] / 6)
{_params(d=3)}, dlarray([3 2 1 0; 4 5 6 7] / 6)
{_params('single')}, dlarray(single([1 2 3; 4 5 6] / 6))
{_params('single', 3)}, dlarray(single([1 2 -3; 4 5 6] / 6))
""", PINN)
    # patterns: the first, a new batch size, single; each repeated once
    assert len(replays) == 3
    assert out["h"] == pytest.approx(50.0)


def test_fullyconnect_pinn(m, replays) -> None:
    compare(m, "", f"""
{_params()}, dlarray([1 2 3; 4 5 6] / 6)
{_params(d=3)}, dlarray([1 -2 3; 4 5 6] / 6)
""", PINN.replace("tanh(p.W1*X + p.b1)", "tanh(fullyconnect(X, p.W1, p.b1, 'DataFormat', 'CB'))")
            .replace("tanh(p.W2*h + p.b2)", "tanh(fullyconnect(h, p.W2, p.b2, 'DataFormat', 'CB'))")
            .replace("p.W3*h + p.b3", "fullyconnect(h, p.W3, p.b3, 'DataFormat', 'CB')"))
    assert len(replays) == 1


def test_relu_in_the_differentiated_pass_is_not_replayed_from_stale_masks(m, replays) -> None:
    # the second call's relu mask differs from the first's
    compare(m, "", """
dlarray([1 -2 3]), dlarray([0.5 1 -1])
dlarray([-1 2 -3]), dlarray([0.5 1 -1])
dlarray([-1 2 -3]), dlarray([-0.5 -1 1])
""", """
function [y, g] = f(x, w)
v = relu(x .* w) .* x;
dv = dlgradient(sum(v), x, 'EnableHigherDerivatives', true);
y = sum(dv .* x);
g = dlgradient(y, w);
end
""")
    assert not replays  # (relu's pass is differentiated again at every call)


def test_second_derivative_of_a_function_of_two_variables(m, replays) -> None:
    compare(m, "", """
dlarray([1 2 3]), dlarray([0.5 1 -1])
dlarray([4 -2 3]), dlarray([2 1 -1])
dlarray(single([4 -2 3])), dlarray(single([2 1 -1]))
dlarray(single([1 -2 3])), dlarray(single([2 1 1]))
""", """
function [y, g] = f(x, t)
u = sum(tanh(x .* t) .* x.^2 + t .* x, 'all');
ux = dlgradient(u, x, 'EnableHigherDerivatives', true);
uxx = dlgradient(sum(ux), x, 'EnableHigherDerivatives', true);
y = sum(uxx.^2);
[gx, gt] = dlgradient(y, x, t);
g = {gx, gt, uxx};
end
""")
    assert len(replays) == 2


def test_mixed_derivative_and_a_variable_not_reached(m, replays) -> None:
    compare(m, "", """
dlarray([1 2 3]), dlarray([0.5 1 -1]), dlarray([1 1 1])
dlarray([4 -2 3]), dlarray([2 1 -1]), dlarray([2 0 1])
""", """
function [y, g] = f(x, t, z)
u = sum(tanh(x .* t) + x .* t.^2);
[ux, uz] = dlgradient(u, x, z, 'EnableHigherDerivatives', true);
uxt = dlgradient(sum(ux), t, 'EnableHigherDerivatives', true);
y = sum(uxt .* x) + sum(uz .* z);
[gx, gt] = dlgradient(y, x, t);
g = {gx, gt, uxt, ux};
end
""")
    assert len(replays) == 1


def test_first_derivative_of_a_sum_is_a_constant_of_the_pattern(m, replays) -> None:
    # d(sum(x))/dx is untraced (ones): a constant, the same for every call of a pattern
    compare(m, "", """
dlarray([1 2 3]), dlarray([0.5 1 -1])
dlarray([4 -2 3]), dlarray([2 1 -1])
dlarray([4 -2]), dlarray([2 1])
dlarray([1 -2]), dlarray([3 1])
""", """
function [y, g] = f(x, w)
d = dlgradient(sum(x .* 2, 'all'), x, 'EnableHigherDerivatives', true);
y = sum(d .* w .* x);
g = dlgradient(y, w);
end
""")
    assert len(replays) == 2


def test_omitnan_is_not_replayed_from_stale_positions(m, replays) -> None:
    compare(m, "", """
dlarray([1 NaN 3]), dlarray([0.5 1 -1])
dlarray([NaN 2 3]), dlarray([0.5 1 -1])
""", """
function [y, g] = f(x, w)
d = dlgradient(sum(x .^ 2 .* w, 'omitnan'), x, 'EnableHigherDerivatives', true);
y = sum(d .* w, 'omitnan');
g = dlgradient(y, w);
end
""")
    assert not replays


def test_formatted_inputs_replay_as_the_function_computes(m, replays) -> None:
    # (the recording call itself differentiates with higher derivatives, as dlgradient
    # does by default inside an accelerated function: only the replays are compared)
    script = ["acc = dlaccelerate(@f);"]
    for d, x in ((7, "[1 2 3; 4 5 6] / 6"), (5, "[3 2 1; 4 5 -6] / 6"), (3, "[3 2 1; 4 5 6] / 5")):
        script.append(f"p = {_params(d=d)}; X = dlarray({x}, 'CB');")
        script.append("[a1, a2] = dlfeval(acc, p, X); [p1, p2] = dlfeval(@f, p, X);")
    m.interp.base.vars.clear()
    m.interp.run_source("\n".join(script) + "\n" + PINN, "accelerate_higher")
    out = m.interp.base.vars
    assert len(replays) == 2
    np.testing.assert_array_equal(out["a1"].data, out["p1"].data)
    for name in ("W1", "b1", "W2", "b2", "W3", "b3"):
        got, want = out["a2"].elems[0, 0][name], out["p2"].elems[0, 0][name]
        assert got.fmt == want.fmt and got.node is None
        np.testing.assert_array_equal(got.data, want.data)
