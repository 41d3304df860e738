"""The replay of an accelerated function with one first-order dlgradient, called by
dlfeval at the outermost level: computed on the arrays with no trace, it gives exactly
the values and gradients of the function itself, for every input pattern (new sizes,
classes, formats and non-dlarray values make new traces), and its results are untraced."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning import accelerate, trace_cache
from mlang.values.cell import Cell
from mlang.values.struct import Struct


def run_vars(m, text: str) -> dict:
    m.interp.base.vars.clear()
    m.interp.run_source(text, "accelerate_untraced")
    return dict(m.interp.base.vars)


def data(v: object) -> np.ndarray:
    return v.data if type(v) is DlArray else np.asarray(v)


@pytest.fixture
def replays(monkeypatch) -> list:
    """The replays without traces made (each call appends to the list)."""
    made: list = []
    plain = trace_cache.replay_untraced

    def counted(*args: object) -> list:
        made.append(args)
        return plain(*args)

    monkeypatch.setattr(trace_cache, "replay_untraced", counted)
    monkeypatch.setattr(accelerate, "replay_untraced", counted)
    return made


def compare(m, body: str, calls: str, functions: str = "") -> dict:
    """Each of ``calls`` (argument lists, one a line) made through dlfeval of the function
    ``f`` and of dlaccelerate(@f): the results agree exactly; returns the workspace."""
    lines = [c.strip() for c in calls.strip().splitlines()]
    script = ["acc = dlaccelerate(@f);", "P = cell(0, 1); A = cell(0, 1);"]
    for args in lines:
        script.append(f"[p1, p2] = dlfeval(@f, {args}); [a1, a2] = dlfeval(acc, {args});")
        script.append("P{end+1} = {p1, p2}; A{end+1} = {a1, a2};")
    script.append("h = acc.HitRate; o = acc.Occupancy;")
    out = run_vars(m, "\n".join(script) + "\n" + body + functions)
    for k in range(len(lines)):
        plain, fast = out["P"].data.reshape(-1)[k], out["A"].data.reshape(-1)[k]
        for want, got in zip(plain.data.reshape(-1), fast.data.reshape(-1), strict=True):
            for w, g in zip(_leaves(want), _leaves(got), strict=True):
                assert type(g) is type(w)
                if type(w) is DlArray:
                    assert g.node is None and g.fmt == w.fmt
                    assert g.data.dtype == w.data.dtype and g.data.shape == w.data.shape
                np.testing.assert_array_equal(data(g), data(w))
    return out


def _leaves(v: object) -> list:
    if type(v) is Cell:
        return [x for elem in v.data.reshape(-1) for x in _leaves(elem)]
    if type(v) is Struct:
        return [x for elem in v.elems.reshape(-1) for value in elem.values() for x in _leaves(value)]
    return [v]


def test_tanh_model_with_new_sizes_classes_and_constants(m, replays) -> None:
    out = compare(m, """
function [loss, grads] = f(p, X, T)
h = tanh(fullyconnect(X, p.W1, p.b1));
Y = fullyconnect(h, p.W2, p.b2);
loss = mse(Y, T);
grads = dlgradient(loss, p);
end
""", """
struct('W1', dlarray([1 2; 3 4; 5 6] / 7), 'b1', dlarray([0.1; 0.2; 0.3]), 'W2', dlarray([1 -1 2] / 3), 'b2', dlarray(0.5)), dlarray([1 2 3; 4 5 6] / 6, 'CB'), [1 2 3]
struct('W1', dlarray([2 1; 3 4; 5 6] / 7), 'b1', dlarray([0.1; 0.2; 0.3]), 'W2', dlarray([1 -1 2] / 3), 'b2', dlarray(0.5)), dlarray([3 2 1; 4 5 6] / 6, 'CB'), [1 2 3]
struct('W1', dlarray([2 1; 3 4; 5 6] / 7), 'b1', dlarray([0.1; 0.2; 0.3]), 'W2', dlarray([1 -1 2] / 3), 'b2', dlarray(0.5)), dlarray([3 2 1; 4 5 6] / 6, 'CB'), [3 2 1]
struct('W1', dlarray([2 1; 3 4; 5 6] / 7), 'b1', dlarray([0.1; 0.2; 0.3]), 'W2', dlarray([1 -1 2] / 3), 'b2', dlarray(0.5)), dlarray([3 2 1 0; 4 5 6 7] / 6, 'CB'), [3 2 1 0]
struct('W1', dlarray(single([2 1; 3 4; 5 6] / 7)), 'b1', dlarray(single([0.1; 0.2; 0.3])), 'W2', dlarray(single([1 -1 2] / 3)), 'b2', dlarray(single(0.5))), dlarray(single([3 2 1; 4 5 6] / 6), 'CB'), single([3 2 1])
struct('W1', dlarray(single([1 1; 3 4; 5 6] / 7)), 'b1', dlarray(single([0.1; 0.2; 0.3])), 'W2', dlarray(single([1 -1 2] / 3)), 'b2', dlarray(single(0.5))), dlarray(single([3 2 1; 4 5 6] / 6), 'CB'), single([3 2 1])
""")
    assert len(replays) == 2
    # patterns: the first, a new T value, a new batch size, single; each repeated once or not
    assert out["o"] == pytest.approx(8.0) and out["h"] == pytest.approx(200 / 6)


def test_variables_not_reached_intermediates_and_repeats(m, replays) -> None:
    compare(m, """
function [y, g] = f(x, w)
h = sin(x) .* w;
z = h .^ 2;
y = sum(z, 'all') + 0 * sum(w, 'all');
[g1, g2, g3, g4] = dlgradient(y, x, h, x, w);
u = dlarray(zeros(2, 2));
g = {g1, g2, g3, g4, y};
end
""", """
dlarray([1 2; 3 4]), dlarray([1 -1; 2 0.5])
dlarray([0 NaN; Inf -2]), dlarray([1 -1; 2 0.5])
dlarray(zeros(2, 0)), dlarray(zeros(2, 0))
dlarray(zeros(2, 0)), dlarray(zeros(2, 0))
""")
    assert replays  # (the calls that repeat a pattern)



def test_logical_and_complex_data(m, replays) -> None:
    compare(m, """
function [y, g] = f(z, mask)
y = sum(abs(z(mask)) .^ 2 + real(z(mask) .* (mask(mask) + 1)));
g = dlgradient(y, z, 'AllowComplex', true);
end
""", """
dlarray([1+2i 3 4i]), [true false true]
dlarray([2i 1 1+1i]), [true false true]
dlarray([2i 1 1+1i]), [false true true]
dlarray([1 2 3]), [false true true]
""")
    assert replays  # (the calls that repeat a pattern)



def test_broadcast_and_a_variable_used_twice(m, replays) -> None:
    compare(m, """
function [y, g] = f(x, b)
y = sum(x .* x + x .* b + exp(b), 'all') / numel(x);
g = dlgradient(y, b);
end
""", """
dlarray([1 2; 3 4]), dlarray([1 -1])
dlarray([4 2; 3 1]), dlarray([0.5 -1])
dlarray(single([4 2; 3 1])), dlarray(single([0.5 -1]))
""")
    assert replays  # (the calls that repeat a pattern)



def test_retained_trace_and_the_same_step_without_higher_derivatives(m, replays) -> None:
    compare(m, """
function [y, g] = f(x)
y = sum(tanh(x) .* x);
g = dlgradient(y, x, 'RetainData', true, 'EnableHigherDerivatives', false);
y = y + 1;  % an operation after the gradient step
end
""", """
dlarray([1 2 3])
dlarray([-1 0 1])
""")
    assert replays  # (the calls that repeat a pattern)


def test_disabled_and_recorded_calls_through_dlfeval(m, replays) -> None:
    out = run_vars(m, """
acc = dlaccelerate(@f);
acc.Enabled = false;
[y1, g1] = dlfeval(acc, dlarray([1 2]));
acc.Enabled = true;
[y2, g2] = dlfeval(acc, dlarray([1 2]));
[y3, g3] = dlfeval(acc, dlarray([3 4]));
h = acc.HitRate;
function [y, g] = f(x)
y = sum(x .^ 3);
g = dlgradient(y, x);
end
""")
    assert len(replays) == 1 and out["h"] == 50.0
    np.testing.assert_array_equal(out["g1"].data, [[3.0, 12.0]])
    np.testing.assert_array_equal(out["g2"].data, [[3.0, 12.0]])
    np.testing.assert_array_equal(out["g3"].data, [[27.0, 48.0]])
    assert all(out[k].node is None for k in ("y1", "g1", "y2", "g2", "y3", "g3"))
