"""Gradient rules of reductions (sum, mean, prod, cumsum, cumprod, max, min, var, std),
linear algebra (norm, dot, vecnorm, pagemtimes) and shape functions (reshape, permute,
repmat, repelem, cat, flip, circshift...): exact values on small cases, and first and
second derivatives against central finite differences."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.errors import MatlabError
from mlang.values.core import char_text
from tests.builtins.conftest import Session


@pytest.fixture(scope="module")
def m() -> Session:
    return Session()


def row(*values: float) -> np.ndarray:
    return np.array([values], dtype=float)


def col(*values: float) -> np.ndarray:
    return np.array([values], dtype=float).T


def matlab(a: np.ndarray | float) -> object:
    """A test array as a MATLAB value (a 1×1 array becomes a double scalar)."""
    a = np.asarray(a)
    return a.item() if a.size == 1 and a.ndim <= 2 and a.dtype.kind != "c" else a


def names(count: int) -> str:
    return ", ".join(f"x{k + 1}" for k in range(count))


def gradients(m: Session, expr: str, *xs: np.ndarray, w: np.ndarray | float = 1.0) -> list[np.ndarray]:
    """dlgradient of sum((expr).*w, 'all') with respect to each x, at xs."""
    args = names(len(xs))
    outs = ", ".join(f"g{k + 1}" for k in range(len(xs)))
    dls = ", ".join(f"dlarray(x{k + 1})" for k in range(len(xs)))
    inputs = {f"x{k + 1}": matlab(x) for k, x in enumerate(xs)}
    m.run(f"[{outs}] = dlfeval(@({args}) dlgradient(sum(({expr}) .* w, 'all'), {args}), {dls});",
          w=matlab(w), **inputs)
    got = []
    for k in range(len(xs)):
        g = m.interp.base.vars[f"g{k + 1}"]
        assert type(g) is DlArray
        got.append(g.data)
    return got


def gradient(m: Session, expr: str, x: np.ndarray, w: np.ndarray | float = 1.0) -> np.ndarray:
    return gradients(m, expr, x, w=w)[0]


def hessian_times(m: Session, expr: str, x: np.ndarray, w: np.ndarray | float,
                  v: np.ndarray) -> np.ndarray:
    """The derivative of sum(gradient .* v) (a Hessian-vector product), through
    'EnableHigherDerivatives'."""
    inner = f"dlgradient(sum(({expr}) .* w, 'all'), x1, 'EnableHigherDerivatives', true)"
    m.run(f"h = dlfeval(@(x1) dlgradient(sum({inner} .* v, 'all'), x1), dlarray(x1));",
          x1=matlab(x), w=matlab(w), v=matlab(v))
    h = m.interp.base.vars["h"]
    assert type(h) is DlArray
    return h.data


def value(m: Session, expr: str, *xs: np.ndarray) -> np.ndarray:
    inputs = {f"x{k + 1}": matlab(x) for k, x in enumerate(xs)}
    m.run(f"y = {expr};", **inputs)
    return np.asarray(m.interp.base.vars["y"])


def numeric_gradient(m: Session, expr: str, xs: list[np.ndarray], w: np.ndarray | float, k: int,
                     step: float = 1e-6) -> np.ndarray:
    x = xs[k]
    flat = x.reshape(-1, order="F")
    out = np.zeros(flat.size)
    for j in range(flat.size):
        moved = []
        for sign in (1.0, -1.0):
            shifted = flat.copy()
            shifted[j] += sign * step
            args = list(xs)
            args[k] = shifted.reshape(x.shape, order="F")
            moved.append(float(np.sum(value(m, expr, *args) * w)))
        out[j] = (moved[0] - moved[1]) / (2 * step)
    return out.reshape(x.shape, order="F")


def check_first(m: Session, expr: str, *xs: np.ndarray, seed: int = 0) -> None:
    xs_list = list(xs)
    y = value(m, expr, *xs_list)
    w = np.random.default_rng(seed).uniform(-1, 1, y.shape) if y.ndim >= 2 else 0.7
    got = gradients(m, expr, *xs_list, w=w)
    for k in range(len(xs_list)):
        want = numeric_gradient(m, expr, xs_list, w, k)
        np.testing.assert_allclose(got[k].reshape(want.shape), want, rtol=1e-5, atol=1e-6)


def check_second(m: Session, expr: str, x: np.ndarray, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    y = value(m, expr, x)
    w = rng.uniform(-1, 1, y.shape) if y.ndim >= 2 else 0.7
    v = rng.uniform(-1, 1, x.shape)
    got = hessian_times(m, expr, x, w, v)
    step = 1e-5
    plus = gradient(m, expr, x + step * v, w)
    minus = gradient(m, expr, x - step * v, w)
    np.testing.assert_allclose(got, (plus - minus) / (2 * step), rtol=1e-4, atol=1e-5)


GENERIC = np.array([[0.8, -1.3, 0.4, 2.1], [1.7, 0.6, -0.9, -0.5], [-1.1, 1.4, 0.3, 0.9]])
POSITIVE = np.abs(GENERIC) + 0.2
CUBE = np.arange(1.0, 25.0).reshape(2, 3, 4) / 7.0 - 1.4


# ------------------------------------------------------------------ sum and mean


def test_sum_over_all_and_vecdim_spreads_the_gradient(m: Session) -> None:
    np.testing.assert_array_equal(gradient(m, "sum(x1, 'all')", CUBE), np.ones(CUBE.shape))
    w = np.array([[1.0, 2.0, 3.0]])
    g = gradient(m, "sum(x1, [1 3])", CUBE, w)
    np.testing.assert_array_equal(g, np.broadcast_to(w.reshape(1, 3, 1), CUBE.shape))


def test_mean_over_vecdim_divides_by_the_count(m: Session) -> None:
    np.testing.assert_allclose(gradient(m, "mean(x1, [1 3])", CUBE), np.full(CUBE.shape, 1 / 8))
    np.testing.assert_allclose(gradient(m, "mean(x1, 'all')", GENERIC), np.full((3, 4), 1 / 12))


def test_omitnan_gives_nothing_to_nan_and_counts_the_rest(m: Session) -> None:
    x = row(1.0, np.nan, 3.0)
    np.testing.assert_array_equal(gradient(m, "mean(x1, 'omitnan')", x), row(0.5, 0.0, 0.5))
    np.testing.assert_array_equal(gradient(m, "sum(x1, 'omitnan')", x), row(1.0, 0.0, 1.0))
    y = np.array([[1.0, np.nan], [3.0, 4.0]])
    np.testing.assert_array_equal(gradient(m, "mean(x1, 2, 'omitnan')", y), [[1.0, 0.0], [0.5, 0.5]])


# ------------------------------------------------------------------------ prod


def test_prod_gradient_is_the_product_of_the_others(m: Session) -> None:
    np.testing.assert_array_equal(gradient(m, "prod(x1)", row(2, 3, 4)), row(12, 8, 6))
    np.testing.assert_array_equal(gradient(m, "prod(x1)", row(2, 0, 4)), row(0, 8, 0))
    np.testing.assert_array_equal(gradient(m, "prod(x1)", row(0, 0, 4)), row(0, 0, 0))
    x = np.array([[2.0, 0.0, 5.0], [1.0, 3.0, 2.0]])
    np.testing.assert_array_equal(gradient(m, "prod(x1, 2)", x), [[0, 10, 0], [6, 2, 3]])
    np.testing.assert_array_equal(gradient(m, "prod(x1)", x), [[1, 3, 2], [2, 0, 5]])
    np.testing.assert_array_equal(gradient(m, "prod(x1, 'all')", row(2, 3, 4)), row(12, 8, 6))
    np.testing.assert_array_equal(gradient(m, "prod(x1, 'omitnan')", row(2, np.nan, 4)), row(4, 0, 2))


def test_prod_matches_finite_differences(m: Session) -> None:
    for expr in ("prod(x1)", "prod(x1, 2)", "prod(x1, [1 2])", "prod(x1, 3)"):
        check_first(m, expr, POSITIVE)
        check_second(m, expr, POSITIVE)
    zeros = GENERIC.copy()
    zeros[0, 1] = zeros[1, 2] = zeros[2, 2] = 0.0  # one zero in a column, two in another
    check_first(m, "prod(x1)", zeros)
    check_second(m, "prod(x1)", zeros)
    check_second(m, "prod(x1, 2)", zeros)


# ----------------------------------------------------------- cumsum and cumprod


def test_cumsum_gradient_is_the_reverse_cumulative_sum(m: Session) -> None:
    np.testing.assert_array_equal(gradient(m, "cumsum(x1)", row(5, 6, 7)), row(3, 2, 1))
    np.testing.assert_array_equal(gradient(m, "cumsum(x1, 'reverse')", row(5, 6, 7)), row(1, 2, 3))
    np.testing.assert_array_equal(gradient(m, "cumsum(x1, 2)", GENERIC, row(1, 2, 3, 4)),
                                  np.tile(row(10, 9, 7, 4), (3, 1)))
    np.testing.assert_array_equal(gradient(m, "cumsum(x1, 'omitnan')", row(1, np.nan, 2)), row(3, 0, 1))
    check_first(m, "cumsum(x1, 3)", CUBE)
    check_second(m, "cumsum(x1 .^ 2, 2, 'reverse')", GENERIC)


def test_cumprod_gradient_with_and_without_zeros(m: Session) -> None:
    np.testing.assert_array_equal(gradient(m, "cumprod(x1)", row(2, 3, 4)), row(16, 10, 6))
    np.testing.assert_array_equal(gradient(m, "cumprod(x1)", row(2, 0, 4)), row(1, 10, 0))
    np.testing.assert_array_equal(gradient(m, "cumprod(x1, 'reverse')", row(2, 0, 4)), row(0, 12, 1))
    np.testing.assert_array_equal(gradient(m, "cumprod(x1, 'omitnan')", row(2, np.nan, 4)), row(6, 0, 2))


def test_cumprod_matches_finite_differences(m: Session) -> None:
    zeros = np.array([[1.5, 0.0, 2.0, 0.0, 3.0, 0.0, 1.2]])
    for expr in ("cumprod(x1)", "cumprod(x1, 'reverse')"):
        check_first(m, expr, zeros)
        check_second(m, expr, zeros)
    for expr in ("cumprod(x1)", "cumprod(x1, 2)", "cumprod(x1, 2, 'reverse')"):
        check_first(m, expr, GENERIC)
        check_second(m, expr, GENERIC)


# ----------------------------------------------------------------- max and min


def test_max_gives_the_gradient_to_the_first_largest(m: Session) -> None:
    np.testing.assert_array_equal(gradient(m, "max(x1)", row(1, 3, 3, 2)), row(0, 1, 0, 0))
    np.testing.assert_array_equal(gradient(m, "min(x1, [], 2)", np.array([[1.0, 1, 3], [2, 0, 0]])),
                                  [[1, 0, 0], [0, 1, 0]])
    np.testing.assert_array_equal(gradient(m, "max(x1, [], 'all')", GENERIC),
                                  (GENERIC == GENERIC.max()) * 1.0)
    np.testing.assert_array_equal(gradient(m, "max(x1)", row(1, np.nan, 4)), row(0, 0, 1))
    np.testing.assert_array_equal(gradient(m, "max(x1, [], 'includenan')", row(1, np.nan, 4)),
                                  row(0, 1, 0))
    g = gradient(m, "max(x1, [], [1 3])", CUBE, row(1, 2, 3))
    want = np.zeros(CUBE.shape)
    want[1, :, 3] = [1, 2, 3]
    np.testing.assert_array_equal(g, want)


def test_max_of_two_arrays_picks_the_operand_ties_to_the_first(m: Session) -> None:
    ga, gb = gradients(m, "max(x1, x2)", row(1, 3, 2), row(1, 2, 5))
    np.testing.assert_array_equal(ga, row(1, 1, 0))
    np.testing.assert_array_equal(gb, row(0, 0, 1))
    ga, gb = gradients(m, "min(x1, x2)", row(1, 3, 2, 0), col(2, 0))
    np.testing.assert_array_equal(ga, row(1, 0, 1, 2))  # 2 < 2 and 0 < 0 are ties: x1 wins
    np.testing.assert_array_equal(gb, col(1, 3))
    check_first(m, "max(x1, x2)", GENERIC, col(0.35, -0.2, 0.1))
    check_first(m, "min(x1, 0.5)", GENERIC)


def test_max_index_output_stays_plain(m: Session) -> None:
    m.run("[M, I] = max(dlarray([1 5 3; 7 2 9]), [], 2);")
    assert type(m.interp.base.vars["M"]) is DlArray
    np.testing.assert_array_equal(m.interp.base.vars["I"], col(2, 3))


# ------------------------------------------------------------------ var and std


def test_var_and_std_gradients(m: Session) -> None:
    x = row(1, 2, 3, 4)
    np.testing.assert_allclose(gradient(m, "var(x1)", x), row(-1, -1 / 3, 1 / 3, 1))
    np.testing.assert_allclose(gradient(m, "var(x1, 1)", x), row(-0.75, -0.25, 0.25, 0.75))
    s = np.sqrt(5 / 3)
    np.testing.assert_allclose(gradient(m, "std(x1)", x), (x - 2.5) / (3 * s))
    # weights [1 1 2 0]: mean 9/4, gradient 2*w.*(x - 9/4)/sum(w)
    np.testing.assert_allclose(gradient(m, "var(x1, [1 1 2 0])", x), row(-0.625, -0.125, 0.75, 0))
    np.testing.assert_array_equal(gradient(m, "std(x1)", row(2, 2, 2)), row(0, 0, 0))


def test_var_and_std_match_finite_differences(m: Session) -> None:
    for f in ("var", "std"):
        for args in ("", ", 1", ", 0, 2", ", 1, 'all'", ", [], [1 3]", ", [1 2 3]"):
            x = CUBE if "[1 3]" in args else GENERIC
            check_first(m, f"{f}(x1{args})", x)
        check_second(m, f"{f}(x1, 0, 2)", GENERIC)
        nan = GENERIC.copy()
        nan[1, 1] = np.nan
        g = gradient(m, f"{f}(x1, 0, 1, 'omitnan')", nan)
        assert g[1, 1] == 0 and np.all(np.isfinite(g))
        kept = np.delete(GENERIC[:, 1], 1)
        want = (kept - kept.mean()) * (2 if f == "var" else 1 / np.std(kept, ddof=1))
        np.testing.assert_allclose(g[[0, 2], 1], want)


# ------------------------------------------------------------------------- norm


def test_norm_of_vectors(m: Session) -> None:
    np.testing.assert_allclose(gradient(m, "norm(x1)", row(3, 4)), row(0.6, 0.8))
    np.testing.assert_array_equal(gradient(m, "norm(x1, 1)", row(3, -4, 0)), row(1, -1, 0))
    np.testing.assert_array_equal(gradient(m, "norm(x1, Inf)", row(3, -4, 4)), row(0, -1, 0))
    np.testing.assert_array_equal(gradient(m, "norm(x1, -Inf)", row(3, -4, 1)), row(0, 0, 1))
    np.testing.assert_array_equal(gradient(m, "norm(x1)", row(0, 0, 0)), row(0, 0, 0))
    x = col(1.0, -2.0, 3.0)
    np.testing.assert_allclose(gradient(m, "norm(x1, 3)", x),
                               np.sign(x) * np.abs(x) ** 2 / np.sum(np.abs(x) ** 3) ** (2 / 3))
    for p in ("", ", 1", ", Inf", ", 3", ", 1.5", ", 'fro'"):
        check_first(m, f"norm(x1{p})", GENERIC[:1, :])
    for p in ("", ", 3", ", 1.5", ", -2", ", 'fro'"):  # the others are piecewise linear
        check_second(m, f"norm(x1{p})", GENERIC[:, 1:2])


def test_norm_of_matrices(m: Session) -> None:
    np.testing.assert_allclose(gradient(m, "norm(x1)", np.diag([3.0, 1.0])), [[1, 0], [0, 0]], atol=1e-15)
    np.testing.assert_allclose(gradient(m, "norm(x1, 'fro')", np.array([[3.0, 0], [0, 4]])),
                               [[0.6, 0], [0, 0.8]])
    x = np.array([[1.0, -5.0], [2.0, 3.0]])
    np.testing.assert_array_equal(gradient(m, "norm(x1, 1)", x), [[0, -1], [0, 1]])
    np.testing.assert_array_equal(gradient(m, "norm(x1, Inf)", x), [[1, -1], [0, 0]])
    np.testing.assert_array_equal(gradient(m, "norm(x1)", np.zeros((2, 2))), np.zeros((2, 2)))
    check_first(m, "norm(x1)", GENERIC)
    check_second(m, "norm(x1)", GENERIC)
    check_second(m, "norm(x1)", GENERIC.T)


def test_norm_of_complex_values(m: Session) -> None:
    z = np.array([[3 + 4j, 1 - 2j]])
    g = gradient(m, "norm(x1)", z)
    np.testing.assert_allclose(g, z / np.linalg.norm(z))
    big = np.array([[1 + 1j, 2], [0.5j, -1]])
    u, s, vh = np.linalg.svd(big)
    np.testing.assert_allclose(gradient(m, "norm(x1)", big), np.outer(u[:, 0], vh[0]), atol=1e-12)


def test_complex_second_derivatives(m: Session) -> None:
    """d/dz of real(sum(gradient .* v)), against finite differences along the real and the
    imaginary directions of each element (MATLAB's convention: dL/da + 1i*dL/db)."""
    rng = np.random.default_rng(4)
    for expr, shape in (("norm(x1)", (3, 2)), ("norm(x1)", (2, 3)), ("vecnorm(x1, 3)", (3, 2)),
                        ("prod(x1)", (3, 1)), ("dot(x1, x1 .^ 2)", (3, 1))):
        z = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
        v = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
        inner = f"dlgradient(real(sum({expr}, 'all')), x1, 'EnableHigherDerivatives', true)"
        m.run(f"h = dlfeval(@(x1) dlgradient(sum(real({inner} .* v), 'all'), x1), dlarray(x1));",
              x1=z, v=v)
        got = m.interp.base.vars["h"].data

        def loss(point: np.ndarray, expr: str = expr, v: np.ndarray = v) -> float:
            g = gradient(m, f"real(sum({expr}, 'all'))", point)
            return float(np.sum(np.real(g * v)))

        want = np.zeros(z.size, dtype=complex)
        step = 1e-6
        for j in range(z.size):
            for unit in (1.0, 1j):
                moved = []
                for sign in (1.0, -1.0):
                    point = z.reshape(-1, order="F").copy()
                    point[j] += sign * step * unit
                    moved.append(loss(point.reshape(shape, order="F")))
                want[j] += unit * (moved[0] - moved[1]) / (2 * step)
        np.testing.assert_allclose(got, want.reshape(shape, order="F"), rtol=1e-4, atol=1e-5)


# ------------------------------------------------------------------ dot, vecnorm


def test_dot_gradients(m: Session) -> None:
    ga, gb = gradients(m, "dot(x1, x2)", row(1, 2, 3), col(4, 5, 6))
    np.testing.assert_array_equal(ga, row(4, 5, 6))
    np.testing.assert_array_equal(gb, col(1, 2, 3))
    x, y = GENERIC, GENERIC ** 2
    ga, gb = gradients(m, "dot(x1, x2, 2)", x, y, w=col(1, 2, 3))
    np.testing.assert_allclose(ga, y * col(1, 2, 3))
    np.testing.assert_allclose(gb, x * col(1, 2, 3))
    check_first(m, "dot(x1, x2)", CUBE, CUBE + 1)
    check_first(m, "dot(x1, x2, 3)", CUBE, CUBE * 2)


def test_vecnorm_values(m: Session) -> None:
    np.testing.assert_allclose(value(m, "vecnorm([3 4; 0 0])"), row(3, 4))
    assert value(m, "vecnorm([1 -2 3], 1)") == 6
    np.testing.assert_array_equal(value(m, "vecnorm([1 2; 3 -4], Inf, 2)"), col(2, 4))
    np.testing.assert_allclose(value(m, "vecnorm([1 2 2], 3)"), 17 ** (1 / 3))
    np.testing.assert_array_equal(value(m, "vecnorm([1 -2], 2, 3)"), row(1, 2))
    np.testing.assert_allclose(value(m, "vecnorm([3+4i 0])"), 5)
    np.testing.assert_array_equal(value(m, "vecnorm(zeros(0, 3))"), np.zeros((1, 3)))
    assert char_text(value(m, "class(vecnorm(single([3 4])))")) == "single"
    assert np.isnan(value(m, "vecnorm([1 NaN 2])"))
    big = value(m, "vecnorm([1e200 1e200])")
    np.testing.assert_allclose(big, np.sqrt(2) * 1e200)


@pytest.mark.parametrize("code", ["vecnorm([1 2], 0)", "vecnorm([1 2], -1)", "vecnorm([1 2], [1 2])",
                                  "vecnorm(int8([1 2]))", "vecnorm([1 2], 2, 0)"])
def test_vecnorm_errors(m: Session, code: str) -> None:
    m.fails(f"y = {code};")


def test_vecnorm_gradients(m: Session) -> None:
    np.testing.assert_allclose(gradient(m, "vecnorm(x1)", np.array([[3.0, 0], [4, 0]])),
                               [[0.6, 0], [0.8, 0]])
    np.testing.assert_array_equal(gradient(m, "vecnorm(x1, Inf, 2)", np.array([[1.0, -3], [2, 1]])),
                                  [[0, -1], [1, 0]])
    for p in ("", ", 1", ", Inf", ", 3"):
        for d in ("", ", 2", ", 3"):
            if d and not p:
                continue
            check_first(m, f"vecnorm(x1{p}{d})", CUBE)
    check_second(m, "vecnorm(x1, 2, 2)", GENERIC)
    check_second(m, "vecnorm(x1, 3)", GENERIC)


# ------------------------------------------------------------------- pagemtimes


def _pages(a: np.ndarray) -> np.ndarray:
    return np.moveaxis(a, (0, 1), (-2, -1))


def test_pagemtimes_multiplies_pages_with_expansion(m: Session) -> None:
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((2, 3, 4)), rng.standard_normal((3, 2, 4))
    want = np.moveaxis(_pages(x) @ _pages(y), (-2, -1), (0, 1))
    np.testing.assert_allclose(value(m, "pagemtimes(x1, x2)", x, y), want)
    a = rng.standard_normal((2, 3))
    np.testing.assert_allclose(value(m, "pagemtimes(x1, x2)", a, y),
                               np.stack([a @ y[:, :, k] for k in range(4)], axis=2))
    p, q = rng.standard_normal((2, 3, 1, 2)), rng.standard_normal((3, 2, 3))
    got = value(m, "pagemtimes(x1, x2)", p, q)
    assert got.shape == (2, 2, 3, 2)
    np.testing.assert_allclose(got[:, :, 2, 1], p[:, :, 0, 1] @ q[:, :, 2])
    z = rng.standard_normal((3, 2, 2)) + 1j * rng.standard_normal((3, 2, 2))
    np.testing.assert_allclose(value(m, "pagemtimes(x1, 'ctranspose', x2, 'none')", z, z)[:, :, 1],
                               z[:, :, 1].conj().T @ z[:, :, 1])
    np.testing.assert_allclose(value(m, "pagemtimes(x1, 'transpose', x2, 'transpose')", x, y)[:, :, 0],
                               x[:, :, 0].T @ y[:, :, 0].T)


@pytest.mark.parametrize("code", ["pagemtimes(ones(2,3), ones(2,3))",
                                  "pagemtimes(ones(2,2,2), ones(2,2,3))",
                                  "pagemtimes(ones(2), 'none', ones(2))",
                                  "pagemtimes(ones(2), 'flip', ones(2), 'none')"])
def test_pagemtimes_errors(m: Session, code: str) -> None:
    m.fails(f"y = {code};")


def test_pagemtimes_gradients(m: Session) -> None:
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal((2, 3, 2)), rng.standard_normal((3, 2, 2))
    check_first(m, "pagemtimes(x1, x2)", x, y)
    check_first(m, "pagemtimes(x1, x2)", x[:, :, 0], y)  # one matrix for every page
    check_first(m, "pagemtimes(x1, x2)", x, rng.standard_normal((3, 2, 1, 3)))
    options = ("'none'", "'transpose'", "'ctranspose'")
    for i, tx in enumerate(options):
        for j, ty in enumerate(options):
            a = x if i == 0 else np.swapaxes(x, 0, 1).copy()
            b = rng.standard_normal((3, 4, 2)) if j == 0 else rng.standard_normal((4, 3, 2))
            check_first(m, f"pagemtimes(x1, {tx}, x2, {ty})", a, b)
    check_second(m, "pagemtimes(x1, x1 .^ 2)", rng.standard_normal((2, 2, 3)))


# ---------------------------------------------------------------- shape functions


def test_reshape_squeeze_permute_take_the_shape_back(m: Session) -> None:
    w = np.arange(1.0, 13.0).reshape(2, 6, order="F")
    np.testing.assert_array_equal(gradient(m, "reshape(x1, 2, 6)", GENERIC, w),
                                  w.reshape(3, 4, order="F"))
    np.testing.assert_array_equal(gradient(m, "permute(x1, [2 1])", GENERIC, GENERIC.T), GENERIC)
    w3 = np.arange(24.0).reshape(4, 2, 3)
    np.testing.assert_array_equal(gradient(m, "permute(x1, [3 1 2])", CUBE, w3),
                                  np.transpose(w3, (1, 2, 0)))
    np.testing.assert_array_equal(gradient(m, "ipermute(x1, [3 1 2])", np.transpose(CUBE, (2, 0, 1)),
                                           CUBE), np.transpose(CUBE, (2, 0, 1)))
    s = np.arange(6.0).reshape(3, 1, 2)
    np.testing.assert_array_equal(gradient(m, "squeeze(x1)", s, np.ones((3, 2)) * 2), np.full((3, 1, 2), 2.0))
    check_second(m, "reshape(x1, [], 2) .^ 3", GENERIC)


def test_repmat_sums_the_copies(m: Session) -> None:
    w = np.arange(1.0, 13.0).reshape(2, 6)
    np.testing.assert_array_equal(gradient(m, "repmat(x1, 2, 3)", row(5, 6), w),
                                  row(w[:, 0::2].sum(), w[:, 1::2].sum()))
    np.testing.assert_array_equal(gradient(m, "repmat(x1, [1 1 3])", GENERIC), np.full((3, 4), 3.0))
    np.testing.assert_array_equal(gradient(m, "repmat(x1, 0, 2)", GENERIC, 1.0), np.zeros((3, 4)))
    check_first(m, "repmat(x1, 2)", CUBE)
    check_second(m, "repmat(x1, 2, 1, 2) .^ 2", GENERIC)


def test_repelem_values(m: Session) -> None:
    np.testing.assert_array_equal(value(m, "repelem([1 2 3], 2)"), row(1, 1, 2, 2, 3, 3))
    np.testing.assert_array_equal(value(m, "repelem([1; 2], 2)"), col(1, 1, 2, 2))
    np.testing.assert_array_equal(value(m, "repelem(5, 3)"), row(5, 5, 5))
    np.testing.assert_array_equal(value(m, "repelem([1 2 3], [1 0 2])"), row(1, 3, 3))
    np.testing.assert_array_equal(value(m, "repelem([1 2; 3 4], 2, [1 2])"),
                                  [[1, 2, 2], [1, 2, 2], [3, 4, 4], [3, 4, 4]])
    assert value(m, "size(repelem([1 2; 3 4], 1, 2, 2))").tolist() == [[2, 4, 2]]
    assert char_text(value(m, "repelem('ab', 2)")) == "aabb"
    m.run("c = repelem({1, 'x'}, 2);")
    assert m.interp.base.vars["c"].shape == (1, 4)


@pytest.mark.parametrize(("code", "identifier"), [
    ("repelem([1 2; 3 4], 2)", "MATLAB:repelem:twoInputNonVector"),
    ("repelem([1 2 3], [1 2])", "MATLAB:repelem:invalidReplications"),
    ("repelem([1 2 3], -1)", "MATLAB:repelem:invalidReplications"),
    ("repelem([1 2 3], 1.5)", "MATLAB:repelem:invalidReplications"),
    ("repelem([1 2 3], 'a')", "MATLAB:repelem:nonNumericReplications"),
])
def test_repelem_errors(m: Session, code: str, identifier: str) -> None:
    assert m.fails(f"y = {code};").identifier == identifier


def test_repelem_gradient_sums_the_repeats(m: Session) -> None:
    np.testing.assert_array_equal(gradient(m, "repelem(x1, 2)", row(1, 2), row(1, 2, 3, 4)), row(3, 7))
    np.testing.assert_array_equal(gradient(m, "repelem(x1, [2 0 1])", row(1, 2, 3), row(1, 2, 3)),
                                  row(3, 0, 3))
    check_first(m, "repelem(x1, 2, [1 2 0 1])", GENERIC)
    check_second(m, "repelem(x1, 1, 2) .^ 2", GENERIC)


def test_concatenation_splits_the_gradient(m: Session) -> None:
    ga, gb = gradients(m, "[x1, x2]", row(1, 2), row(3), w=row(10, 20, 30))
    np.testing.assert_array_equal(ga, row(10, 20))
    np.testing.assert_array_equal(gb, 30.0 * np.ones((1, 1)))
    ga, gb = gradients(m, "cat(3, x1, x2)", GENERIC, GENERIC + 1,
                       w=np.concatenate([np.ones((3, 4, 1)), 2 * np.ones((3, 4, 1))], axis=2))
    np.testing.assert_array_equal(ga, np.ones((3, 4)))
    np.testing.assert_array_equal(gb, np.full((3, 4), 2.0))
    ga, gb = gradients(m, "vertcat(x1, x2)", row(1, 2), GENERIC[:, :2], w=np.arange(8.0).reshape(4, 2))
    np.testing.assert_array_equal(ga, row(0, 1))
    np.testing.assert_array_equal(gb, np.arange(2.0, 8.0).reshape(3, 2))
    check_first(m, "horzcat(x1, x2 .^ 2, x1)", GENERIC, GENERIC + 1)
    check_second(m, "[x1; 2; x1 .^ 2]", GENERIC[:, :1])


def test_flip_and_circshift_move_the_gradient_back(m: Session) -> None:
    w = row(1, 2, 3)
    np.testing.assert_array_equal(gradient(m, "flip(x1)", row(7, 8, 9), w), row(3, 2, 1))
    np.testing.assert_array_equal(gradient(m, "fliplr(x1)", GENERIC, GENERIC), GENERIC[:, ::-1])
    np.testing.assert_array_equal(gradient(m, "flipud(x1)", GENERIC, GENERIC), GENERIC[::-1, :])
    np.testing.assert_array_equal(gradient(m, "flip(x1, 3)", CUBE, CUBE), CUBE[:, :, ::-1])
    np.testing.assert_array_equal(gradient(m, "circshift(x1, 1)", row(7, 8, 9), w), row(2, 3, 1))
    np.testing.assert_array_equal(gradient(m, "circshift(x1, -1, 2)", GENERIC, GENERIC),
                                  np.roll(GENERIC, 1, axis=1))
    np.testing.assert_array_equal(gradient(m, "circshift(x1, [1 2])", GENERIC, GENERIC),
                                  np.roll(GENERIC, (-1, -2), axis=(0, 1)))
    check_second(m, "circshift(x1 .^ 2, [0 1 1])", CUBE)


# -------------------------------------------------------------------- dl modes


def test_eye_like_a_dlarray_and_shape_queries(m: Session) -> None:
    m.run("e = eye(2, 'like', dlarray(1)); t = isvector(dlarray([1 2])); n = numel(dlarray(ones(2)));")
    e = m.interp.base.vars["e"]
    assert type(e) is DlArray and e.node is None
    np.testing.assert_array_equal(e.data, np.eye(2))
    assert m.interp.base.vars["t"] is True
    assert m.interp.base.vars["n"] == 4.0


def test_traced_relabelling_goes_through_permute(m: Session) -> None:
    m.run("g = dlfeval(@(x) dlgradient(sum(stripdims(dlarray(x, 'CS')) .* [1 2; 3 4; 5 6], 'all'), x), "
          "dlarray([1 2 3; 4 5 6]));")
    np.testing.assert_array_equal(m.interp.base.vars["g"].data, [[1, 3, 5], [2, 4, 6]])


def test_a_plain_shape_error_is_not_hidden(m: Session) -> None:
    with pytest.raises(MatlabError):
        m.run("y = dlfeval(@(x) dlgradient(sum(permute(x, [2 1]), 'all'), x), dlarray(ones(2, 2, 2)));")


@pytest.mark.parametrize(("code", "expected"), [
    ("issorted([5 12 33 39 78 90 95 107])", True),
    ("issorted(magic(5), 2, 'descend')", False),
    ("issorted(sort(magic(5), 2, 'descend'), 2, 'descend')", True),
    ("issorted([1 2 2 3])", True),
    ("issorted([1 2 2 3], 'strictascend')", False),
    ("issorted([3 2 1], 'monotonic')", True),
    ("issorted([1 3 2], 'monotonic')", False),
    ("issorted([1 2 NaN])", True),
    ("issorted([NaN 1 2])", False),
    ("issorted([NaN 1 2], 'MissingPlacement', 'first')", True),
    ("issorted([NaN 3 2], 'descend')", True),
    ("issorted([1 -2 3], 'ComparisonMethod', 'abs')", True),
    ("issorted([1+1i, 1-1i])", False),
    ("issorted([1-1i, 1+1i])", True),
    ("issorted({'a', 'b', 'c'})", True),
    ("issorted({'b', 'a'})", False),
    ("issorted('abc')", True),
    ("issorted([1 2; 0 3])", False),
    ("issorted([1 2; 0 3], 2)", True),
    ("issorted([1 2; 1 3; 2 0], 'rows')", True),
    ("issorted([1 2; 1 1], 'rows')", False),
    ("issorted([])", True),
    ("issorted(dlarray([1 3 2]))", False),
])
def test_issorted(m: Session, code: str, expected: bool) -> None:
    assert m.value(f"x = {code};") is expected


def test_issorted_errors(m: Session) -> None:
    assert m.fails("x = issorted([1 2], 'bogus');").identifier == "MATLAB:issorted:InvalidOption"
    m.fails("x = issorted([1 2], 'MissingPlacement');")
    m.fails("x = issorted([1 2], 'ComparisonMethod', 'size');")
