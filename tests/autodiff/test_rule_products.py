"""Fast paths of the products and shape helpers gradient rules use give what the general
paths give: the outer product of a column and a row (one inner dimension) has matmul's
bits, and a traced gradient of its operand's own shape is passed on as it is."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff import ops
from mlang.autodiff import trace as tr
from mlang.autodiff.dlarray import DlArray
from mlang.registry import BUILTINS
from mlang.values import indexing
from mlang.values.core import char_row
from mlang.values.operators import matrix_product
from mlang.values.operators import mtimes as MTIMES


def _same_bits(fast: np.ndarray, general: np.ndarray) -> None:
    assert fast.dtype == general.dtype and fast.shape == general.shape
    assert fast.flags.c_contiguous == general.flags.c_contiguous
    np.testing.assert_array_equal(fast, general)
    if fast.dtype.kind == "c":
        fast, general = np.stack([fast.real, fast.imag]), np.stack([general.real, general.imag])
    np.testing.assert_array_equal(np.signbit(fast), np.signbit(general))


def _column_and_row(dtype: type, m: int, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Values whose products overflow, underflow to signed zeros, or are NaN."""
    rng = np.random.default_rng(seed)
    with np.errstate(over="ignore"):
        a = (rng.standard_normal((m, 1)) * rng.choice([1.0, 1e-300, 1e300], (m, 1))).astype(dtype)
        b = (rng.standard_normal((1, n)) * rng.choice([1.0, 1e-30, 1e30], (1, n))).astype(dtype)
    for v in (a, b):
        flat = v.reshape(-1)
        for k, special in enumerate([np.nan, np.inf, -np.inf, -0.0, 0.0][:flat.size]):
            flat[(7 * k + seed) % flat.size] = special
    return a, b


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("m, n", [(40, 200), (2000, 1), (1, 5000), (64, 64), (3, 4), (0, 5000),
                                  (5000, 0)])
@pytest.mark.parametrize("seed", range(4))
def test_outer_products_have_the_bits_of_matmul(dtype, m, n, seed):
    a, b = _column_and_row(dtype, m, n, seed)
    with np.errstate(all="ignore"):
        general = a @ b
        _same_bits(ops._matmul(a, b, False, False), general)
        # the same product with transposed operands, as the matmul rules ask for it
        _same_bits(ops._matmul(np.ascontiguousarray(a.T), b, True, False), general)
        _same_bits(ops._matmul(a, np.ascontiguousarray(b.T), False, True), general)
        _same_bits(ops._matmul(np.asfortranarray(a.T), np.asfortranarray(b.T), True, True), general)
        _same_bits(matrix_product(a, b), general)
        _same_bits(as_array(MTIMES(a, b)), general)  # MATLAB's * on plain arrays


def as_array(v: object) -> np.ndarray:
    return np.asarray(v).reshape(np.shape(v) or (1, 1))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_fullyconnect_forward_and_rule_of_a_one_feature_layer_have_matmuls_bits(dtype):
    # a layer with one input feature (a PINN on x alone) and an output layer of one unit:
    # both products have one inner dimension
    from mlang.builtins.deeplearning import basic_ops

    a, b = _column_and_row(dtype, 64, 512, 5)
    bias = np.linspace(-1, 1, 64, dtype=dtype).reshape(64, 1)
    with np.errstate(all="ignore"):
        _same_bits(basic_ops._fully_connect(b, a, bias), a @ b + bias)
        w = a.T.copy()  # 1x64 output weights; the gradient with respect to the input
        g = b  # is w' * g, a 64x512 outer product
        for_x, _, _ = basic_ops._fully_connect_rule(g, None, np.zeros((64, 512), dtype), w,
                                                   np.zeros((1, 1), dtype))
        _same_bits(for_x(), w.T @ g)


def test_products_of_mixed_classes_and_complex_values_take_the_general_path():
    a = np.linspace(-1, 1, 50).reshape(50, 1)
    b = np.linspace(0, 2, 40).reshape(1, 40)
    with np.errstate(all="ignore"):
        mixed = ops._matmul(a.astype(np.float32), b, False, False)
        assert mixed.dtype == np.float64
        np.testing.assert_array_equal(mixed, a.astype(np.float32) @ b)
        z = a * (1 + 2j)
        np.testing.assert_array_equal(ops._matmul(z, b, False, False), z @ b)


def test_the_rule_of_a_traced_matmul_of_a_column_and_a_row_has_its_general_values():
    rng = np.random.default_rng(3)
    w = tr.traced_input(DlArray(rng.standard_normal((1, 30))))
    g = tr.traced_input(DlArray(rng.standard_normal((1, 50))))
    y = ops.matmul(w, g, True, False)  # w' * g: a 30x50 outer product, recorded
    assert type(y) is DlArray and y.node is not None
    np.testing.assert_array_equal(y.data, w.data.T @ g.data)


@pytest.mark.parametrize("fmt", ["", "CB"])
@pytest.mark.parametrize("traced", [False, True])
def test_a_dlarray_gradient_of_the_operands_shape_is_passed_on_as_it_is(fmt, traced):
    g = DlArray(np.arange(6.0).reshape(2, 3), fmt)
    if traced:
        g = tr.traced_input(g)
    like = np.zeros((2, 3))
    assert ops.unbroadcast(g, like) is g
    assert ops.unbroadcast(g, DlArray(like, "CB")) is g
    # a gradient of an expanded operand is still summed down to the operand's shape
    summed = ops.unbroadcast(g, np.zeros((2, 1)))
    assert type(summed) is DlArray and summed.data.shape == (2, 1)
    np.testing.assert_array_equal(summed.data, g.data.sum(axis=1, keepdims=True))
    assert (summed.node is not None) == traced


# ------------------------------------------------ the gradient of a row or column x(i,:)


def _line_cases() -> list:
    cases = []
    for shape in [(2, 1000), (3, 4), (1, 5), (5, 1), (4, 0), (0, 3)]:
        for axis in (0, 1):
            for k in range(min(shape[axis], 2)):
                cases.append((shape, (axis, k)))
    return cases


@pytest.mark.parametrize("shape, line", _line_cases())
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_put_and_take_of_a_line_match_those_of_its_positions(shape, line, dtype):
    rng = np.random.default_rng(5)
    size = shape[1 - line[0]]
    g = rng.standard_normal((1, size) if line[0] == 0 else (size, 1)).astype(dtype)
    flat = g.reshape(-1)
    for k, special in enumerate([-0.0, np.nan, np.inf][:flat.size]):
        flat[k] = special
    pos = ops._line_positions(line, shape)
    with np.errstate(all="ignore"):
        fast, general = ops._put_line(g, line, shape), ops._put(g, pos, shape)
        _same_bits(fast, general)
        x = rng.standard_normal(shape).astype(dtype)
        _same_bits(ops._take_line(x, line, g.shape), ops._take(x, pos, g.shape))


def _second_derivative_of_picked(x0: np.ndarray, subscripts: list) -> np.ndarray:
    """d/dx of sum(dL/dx .* x) for L = sum(x(subscripts).^2), through traced rules."""
    assert "sum" in BUILTINS  # (the rules call builtins by name: the registry hands them over)
    x = tr.traced_input(DlArray(x0))
    picked = ops.index(x, subscripts)
    loss = ops.call("sum", ops.operator(".^", picked, 2.0), char_row("all"))
    (g,) = tr.backward(loss, [x], True, True)
    (h,) = tr.backward(ops.call("sum", ops.operator(".*", g, x), char_row("all")), [x], False, False)
    return h


@pytest.mark.parametrize("line", [(0, 0), (0, 2), (1, 0), (1, 3)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_derivatives_through_a_row_or_column_are_those_through_its_elements(line, dtype):
    x0 = (np.arange(1.0, 13.0).reshape(3, 4) - 6.5).astype(dtype)
    k = float(line[1] + 1)
    subscripts = [k, indexing.COLON] if line[0] == 0 else [indexing.COLON, k]
    positions = ops._line_positions(line, x0.shape) + 1.0  # x(n) for the same elements
    fast = _second_derivative_of_picked(x0, subscripts)
    general = _second_derivative_of_picked(x0, [positions.reshape(1, -1).astype(np.float64)])
    _same_bits(fast, general)
    assert np.count_nonzero(fast) == positions.size


@pytest.mark.parametrize("shape", [(2, 1000), (3, 4), (1, 5), (5, 1), (4, 0), (0, 3)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.bool_])
def test_a_row_or_column_of_dlarray_data_is_what_indexing_gives(shape, dtype):
    c_order = (np.arange(float(np.prod(shape))).reshape(shape) - 3).astype(dtype)
    for x in (c_order, np.asfortranarray(c_order)):
        for i in range(-1, shape[0] + 2):
            _same_picked(x, [float(i), indexing.COLON])
        for j in range(-1, shape[1] + 2):
            _same_picked(x, [indexing.COLON, float(j)])
        _same_picked(x, [1.5, indexing.COLON])


def _same_picked(x: np.ndarray, args: list) -> None:
    try:
        want = ops.raw(indexing.index(x, args))
    except Exception as exc:  # noqa: BLE001 (out of range: the same error)
        with pytest.raises(type(exc)) as got:
            ops._index(x, args)
        assert getattr(got.value, "identifier", None) == getattr(exc, "identifier", None)
        return
    got = ops._index(x, args)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.flags.c_contiguous == want.flags.c_contiguous
    assert got.flags.f_contiguous == want.flags.f_contiguous
    if got.size > 1:
        assert got.strides == want.strides
    np.testing.assert_array_equal(got, want)


# ------------------------------------------------ matrix products of dlarrays


_PRODUCT_OPERANDS = [
    ((3, 4), (4, 5), np.float64, np.float64), ((3, 4), (4, 5), np.float32, np.float32),
    ((3, 4), (4, 5), np.float32, np.float64), ((1, 1), (1, 5), np.float64, np.float64),
    ((3, 1), (1, 5), np.float64, np.float64), ((3, 4), (4, 1), np.float64, np.float64),
    ((3, 0), (0, 2), np.float64, np.float64), ((3, 4), (4, 5), np.complex128, np.float64),
]


@pytest.mark.parametrize("sa, sb, ta, tb", _PRODUCT_OPERANDS)
@pytest.mark.parametrize("traced", [False, True])
def test_the_product_of_two_dlarrays_is_the_builtins(sa, sb, ta, tb, traced):
    rng = np.random.default_rng(6)
    a = DlArray(rng.standard_normal(sa).astype(ta))
    b = DlArray(rng.standard_normal(sb).astype(tb))
    if traced:
        a, b = tr.traced_input(a), tr.traced_input(b)
    fast = ops.operator("*", a, b)
    general = tr.dl_call(BUILTINS["mtimes"], None, [a, b], 1)[0]
    assert fast.data.dtype == general.data.dtype and fast.data.shape == general.data.shape
    np.testing.assert_array_equal(fast.data, general.data)
    assert fast.fmt == general.fmt
    assert (fast.node is None) == (general.node is None)


@pytest.mark.parametrize("sa, sb, ta, tb", _PRODUCT_OPERANDS)
def test_the_gradients_of_a_matrix_product_are_the_products_with_the_transposes(sa, sb, ta, tb):
    rng = np.random.default_rng(7)
    a = rng.standard_normal(sa).astype(ta)
    b = rng.standard_normal(sb).astype(tb)
    y = BUILTINS["mtimes"].invoke(None, [a, b], 1)[0]
    g = rng.standard_normal(np.shape(y)).astype(np.result_type(a, b))
    ga, gb = (f() if callable(f) else f for f in BUILTINS["mtimes"].gradient(g, y, a, b))
    np.testing.assert_allclose(ops.raw(ga), g @ b.conj().T, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ops.raw(gb), a.conj().T @ g, rtol=1e-5, atol=1e-6)
