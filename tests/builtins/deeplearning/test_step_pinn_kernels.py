"""Kernels of an untraced replay's steps (replay_kernels.step_kernels): the outer product of
a layer's weights and a seed of ones, and the rules of sum and mean with options that omit
nothing, give what the operation and the rules give, bit for bit (values, class, shape and
memory order), and decline other arguments; a PINN written with operators replays what its
code computes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mlang.autodiff.ops import MATMUL
from mlang.builtins.deeplearning import replay_kernels, trace_cache
from mlang.registry import BUILTINS
from mlang.values.core import char_row
from tests.builtins.deeplearning.test_step_plans import both_ways, same

PINN = """function [loss, grads] = pinn_gradient(params, X, f, g)
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

PINN_LOOP = """
rng(4);
params.W1 = dlarray(cast(randn(30, 2), cls)); params.b1 = dlarray(cast(randn(30, 1), cls));
params.W2 = dlarray(cast(randn(30, 30), cls)); params.b2 = dlarray(cast(randn(30, 1), cls));
params.W3 = dlarray(cast(randn(1, 30), cls)); params.b3 = dlarray(cast(0.1, cls));
X = dlarray(cast([linspace(-1, 1, 150); linspace(0, 1, 150)], cls));
f = cast(sin(1:150), cls); g = cast(cos(1:150), cls);
avg = []; avgSq = [];
for k = 1:3
    [loss, grads] = dlfeval(@pinn_gradient, params, X, f, g);
    [params, avg, avgSq] = adamupdate(params, grads, avg, avgSq, k);
end
"""


@pytest.mark.parametrize("cls", ["single", "double"])
@pytest.mark.parametrize("special", ["", "params.W3(3) = -0; params.W3(5) = NaN; X(1, 7) = Inf;"])
def test_a_pinn_with_operators_replays_what_its_code_computes(tmp_path, monkeypatch, cls: str,
                                                             special: str) -> None:
    outer = []
    real = replay_kernels._outer_product_by_ones
    monkeypatch.setattr(replay_kernels, "_outer_product_by_ones",
                        lambda raw, ones: outer.append(ones) or real(raw, ones))
    code = PINN_LOOP.replace("avg = []; avgSq = [];", special + " avg = []; avgSq = [];")
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"pinn_gradient": PINN}, code,
                                          ("loss", "params", "avg", "avgSq", "grads"), cls=cls)
    assert replays == 2
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert outer == [1, 1]  # (W3' times the seed of ones, 30 x 150 elements)
    if not special:
        assert np.isfinite(fast[0].data).all()


# ------------------------------------------------------ outer products by ones


def _factors() -> list:
    rng = np.random.default_rng(8)
    w = rng.standard_normal((1, 70))
    w[0, :4] = [-0.0, np.nan, np.inf, 0.0]
    return [w, np.asfortranarray(w), w.astype(np.float32), w[:, :3], np.ones((1, 70)),
            np.ones((70, 1)), np.ones((1, 80)), np.asfortranarray(np.ones((1, 80))),
            np.ones((1, 80), np.float32), np.ones((2, 80)), w.T.copy(), np.ones((1, 160))[:, ::2]]


@pytest.mark.parametrize("i, j", list(itertools.product(range(len(_factors())), repeat=2)))
@pytest.mark.parametrize("ta, tb", [(True, False), (False, False), (False, True), (True, True)])
def test_outer_products_by_ones_are_matmuls(i: int, j: int, ta: bool, tb: bool) -> None:
    a, b = _factors()[i], _factors()[j]
    for ones, args in ((1, ((0, ""), (None, b), (None, ta), (None, tb))),
                       (0, ((None, a), (0, ""), (None, ta), (None, tb)))):
        found = replay_kernels._ones_operand(args)
        constant = b if ones == 1 else a
        assert (found == ones) == bool((constant == 1.0).all())
        if found != ones:
            continue
        with np.errstate(all="ignore"):
            got = replay_kernels._outer_product_by_ones([a, b, ta, tb], ones)
            if got is None:
                continue
            want = MATMUL.fn(a, b, ta, tb)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.flags.c_contiguous == want.flags.c_contiguous
        assert got.flags.f_contiguous == want.flags.f_contiguous
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_outer_products_are_taken_at_the_einsum_size_only() -> None:
    w = np.arange(1.0, 5.0).reshape(1, 4)
    assert replay_kernels._outer_product_by_ones([w, np.ones((1, 1024)), True, False], 1) is not None
    assert replay_kernels._outer_product_by_ones([w, np.ones((1, 1023)), True, False], 1) is None
    assert replay_kernels._outer_product_by_ones([w, np.ones((4, 1000)), False, False], 1) is None
    steps = [trace_cache.OpStep(MATMUL, ((0, ""), (None, np.ones((1, 9))), (None, True),
                                         (None, False)), 1),
             trace_cache.OpStep(MATMUL, ((0, ""), (None, np.full((1, 9), 2.0)), (None, True),
                                         (None, False)), 2),
             trace_cache.OpStep(MATMUL, ((None, np.ones((1, 9))), (None, np.ones((9, 1))),
                                         (None, False), (None, False)), 3)]
    values, rules = replay_kernels.step_kernels(steps, 3)
    assert list(values) == [0] and not rules


# ------------------------------------------------------ rules of sum and mean


def _reduced() -> list:
    rng = np.random.default_rng(9)
    m = rng.standard_normal((3, 4))
    m[0, 0], m[1, 1] = np.nan, -0.0
    return [m, m.astype(np.float32), m[:1, :], m[:, :1], np.zeros((0, 4)), np.array([[2.0]])]


_OPTIONS = [(), (char_row("all"),), (1.0,), (2.0,), (char_row("All"),), (char_row("double"),),
            (char_row("all"), char_row("includenan")), (char_row("omitnan"),)]


@pytest.mark.parametrize("name", ["sum", "mean"])
@pytest.mark.parametrize("i", range(len(_reduced())))
@pytest.mark.parametrize("options", range(len(_OPTIONS)))
def test_rules_of_sum_and_mean_are_the_rules(name: str, i: int, options: int) -> None:
    op = BUILTINS[name]
    x, opts = _reduced()[i], _OPTIONS[options]
    args = ((0, ""),) + tuple((None, v) for v in opts)
    plain = replay_kernels._plain_options(args)
    assert plain == (options != len(_OPTIONS) - 1)
    values, rules = replay_kernels.step_kernels([trace_cache.OpStep(op, args, 1)], 1)
    all_option = len(opts) == 1 and type(opts[0]) is np.ndarray and opts[0].size == 3 \
        and opts[0].view(np.uint16).tobytes().decode("utf-16-le").lower() == "all"
    assert (0 in values) == (name == "mean" and (all_option or not opts)) and (0 in rules) == plain
    if not plain:
        return
    with np.errstate(all="ignore"):
        y = np.asarray(trace_cache._computed(op, [x, *opts], None))
        g = np.full(y.shape, 3.0, y.dtype)
        want = op.gradient(g, y, x, *opts)
        got = rules[0](op.gradient, g, y, [x, *opts], {})
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        if b is None:
            assert a is None
            continue
        assert type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)


def _means_of() -> list:
    rng = np.random.default_rng(10)
    m = rng.standard_normal((3, 5)) * 1e3
    m[0, 1], m[2, 2] = -0.0, 1e-310
    big = rng.standard_normal((120, 110))
    return [m, np.asfortranarray(m), m[:, ::2], m[:1, :], m[:, :1], m.T, big, np.asfortranarray(big),
            big[::3, :], m.astype(np.float32), np.zeros((0, 3)), np.array([[-0.0]]),
            np.full((2, 2), np.nan), np.array([[np.inf, -np.inf, 1.0]]), rng.standard_normal((2, 3, 2)),
            np.array([[True, False]]), m + 1j]


@pytest.mark.parametrize("i", range(len(_means_of())))
def test_means_of_all_are_the_builtins(i: int) -> None:
    x = _means_of()[i]
    op = BUILTINS["mean"]
    steps = [trace_cache.OpStep(op, ((0, ""), (None, char_row("all"))), 1),
             trace_cache.OpStep(op, ((0, ""), (None, char_row("ALL"))), 2),
             trace_cache.OpStep(op, ((0, ""), (None, 2.0)), 3)]
    values, _ = replay_kernels.step_kernels(steps, 3)
    assert sorted(values) == [0, 1]
    with np.errstate(all="ignore"):
        got = values[0]([x, char_row("all")], {})
        want = trace_cache._computed(op, [x, char_row("all")], None)
    if got is None:
        assert not (x.dtype == np.float64 and x.ndim == 2 and x.size)
        return
    assert got.dtype == want.dtype and got.shape == want.shape == (1, 1)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def _vectors() -> list:
    rng = np.random.default_rng(11)
    row = rng.standard_normal((1, 1000)) * 1e5
    row[0, 3], row[0, 9] = -0.0, 1e-310
    return [row, row.T.copy(), np.asfortranarray(row), row[:, ::3], row[:, :8], row[:, :7],
            row[:, :1], -np.zeros((1, 9)), np.array([[np.nan] + [1.0] * 9]),
            np.array([[np.inf, -np.inf] * 5]), row.astype(np.float32), np.zeros((1, 0)),
            rng.standard_normal((3, 9)), row + 2j, np.ones((1, 9), bool)]


@pytest.mark.parametrize("i", range(len(_vectors())))
def test_means_of_vectors_are_the_builtins(i: int) -> None:
    x = _vectors()[i]
    op = BUILTINS["mean"]
    values, _ = replay_kernels.step_kernels([trace_cache.OpStep(op, ((0, ""),), 1)], 1)
    with np.errstate(all="ignore"):
        got = values[0]([x], {})
        want = trace_cache._computed(op, [x], None)
    if got is None:
        assert not (x.dtype == np.float64 and x.size >= 8 and 1 in x.shape)
        return
    assert got.dtype == want.dtype and got.shape == want.shape == (1, 1)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


# ------------------------------------------------------ W*x + b written over W*x

REUSED = """function [loss, grads] = reused_gradient(params, X)
Z = params.W1*X;
H = tanh(Z + params.b1) + Z;
P = params.W2*H;
loss = sum(P + params.b2, 'all') + sum(P, 'all');
grads = dlgradient(loss, params);
end
"""

REUSED_LOOP = """
rng(5);
params.W1 = dlarray(randn(4, 3)); params.b1 = dlarray(randn(4, 1));
params.W2 = dlarray(randn(2, 4)); params.b2 = dlarray(randn(2, 1));
X = dlarray(randn(3, 6));
for k = 1:3
    [loss, grads] = dlfeval(@reused_gradient, params, X);
    params.W1 = params.W1 - 0.1 * grads.W1;
end
"""


def test_products_read_elsewhere_are_not_written_over(tmp_path, monkeypatch) -> None:
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"reused_gradient": REUSED},
                                          REUSED_LOOP, ("loss", "params", "grads"))
    assert replays == 2
    for a, b in zip(fast, slow, strict=True):
        same(a, b)


def test_sums_over_products_that_nothing_else_reads() -> None:
    mtimes, plus, tanh = BUILTINS["mtimes"], BUILTINS["plus"], BUILTINS["tanh"]
    steps = [trace_cache.OpStep(mtimes, ((0, ""), (1, "")), 3),      # 0: a product read once
             trace_cache.OpStep(plus, ((3, ""), (2, "")), 4),        # 1: written over
             trace_cache.OpStep(mtimes, ((0, ""), (4, "")), 5),      # 2: a product read twice
             trace_cache.OpStep(plus, ((5, ""), (2, "")), 6),        # 3
             trace_cache.OpStep(tanh, ((5, ""),), 7),                # 4
             trace_cache.OpStep(MATMUL, ((0, ""), (7, ""), (None, False), (None, False)), 8),
             trace_cache.OpStep(plus, ((8, ""), (2, "")), 9),        # 6: not a product of mtimes
             trace_cache.OpStep(mtimes, ((0, ""), (9, "")), 10),     # 7: a result
             trace_cache.OpStep(plus, ((10, ""), (2, "")), 11),      # 8
             trace_cache.OpStep(mtimes, ((0, ""), (11, "")), 12),    # 9: read by the gradient
             trace_cache.OpStep(plus, ((2, ""), (12, "")), 13),      # 10: the product second
             trace_cache.GradientStep(13, (), (0,), False, False, (14,), True)]
    values, _ = replay_kernels.step_kernels(steps, 11, {10})
    assert [k for k, v in values.items() if v is replay_kernels._added_in_place] == [1]


def _sums() -> list:
    rng = np.random.default_rng(12)
    x = rng.standard_normal((3, 4))
    x[0, 0], x[1, 1] = -0.0, np.nan
    b = rng.standard_normal((3, 1))
    b[2, 0] = -0.0
    return [(x, b), (x, b.T[:, :1].T), (x, rng.standard_normal((1, 4))), (x, x * 2.0),
            (x.astype(np.float32), b.astype(np.float32)), (x, b.astype(np.float32)),
            (x[:, :1], b), (b, x), (x, 2.5), (x, np.array([[np.inf]])), (x + 1j, b),
            (np.ones((3, 4), bool), b), (x, rng.standard_normal((3, 4, 1)))]


@pytest.mark.parametrize("i", range(len(_sums())))
def test_sums_written_over_products_are_the_sums(i: int) -> None:
    x, b = _sums()[i]
    x = x.copy() if type(x) is np.ndarray else x
    with np.errstate(all="ignore"):
        want = trace_cache._computed(BUILTINS["plus"], [x, b], None) if not (
            type(b) is np.ndarray and b.ndim == 3) else None
        got = replay_kernels._added_in_place([x, b], {})
    if got is None:
        return
    assert got is x  # (written over)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_views_and_read_only_products_are_not_written_over() -> None:
    x = np.arange(12.0).reshape(3, 4)
    b = np.ones((3, 1))
    assert replay_kernels._added_in_place([x.copy(), b], {}) is not None
    assert replay_kernels._added_in_place([x[:, :2], b], {}) is None
    x.flags.writeable = False
    assert replay_kernels._added_in_place([x, b], {}) is None
    assert replay_kernels._added_in_place([np.ones((3, 4)), np.ones((3, 4, 1))], {}) is None
