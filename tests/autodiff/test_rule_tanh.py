"""The tanh rules' first derivatives on real arrays give what their general forms give,
whatever order their gradients are asked for in and however often."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray
from mlang.builtins.math import elementwise


def _operands(dtype: type, shape: tuple[int, ...], count: int) -> list[np.ndarray]:
    rng = np.random.default_rng(9)
    arrays = [rng.standard_normal(shape).astype(dtype) for _ in range(count)]
    if arrays[0].size:
        arrays[0].reshape(-1)[0], arrays[1].reshape(-1)[-1] = np.nan, -0.0
    return arrays


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(20, 30), (0, 2), (1, 1)])
@pytest.mark.parametrize("order", [(1, 2), (2, 1), (1, 1, 2), (2, 2, 1, 1), (0, 1, 0, 2)])
def test_the_shared_product_of_the_second_order_rule_is_never_read_stale(dtype, shape, order):
    h, a, b, c = _operands(dtype, shape, 4)
    want = (elementwise._tanh_backward_y(h, b, c), elementwise._tanh_backward_y(h, a, c),
            elementwise._tanh_backward_y(h, a, b))
    lazy = elementwise.TANH_BACKWARD_Y.gradient(h, None, a, b, c)
    results = []
    for k in order:
        results.append((k, lazy[k]()))
    for k, got in results:  # (an earlier result is not written over by a later one)
        assert got.dtype == want[k].dtype and got.shape == want[k].shape
        np.testing.assert_array_equal(got, want[k])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(20, 30), (0, 2), (1, 1)])
def test_the_first_order_rule_of_tanh_backward_is_its_recorded_form(dtype, shape):
    gz, g, y = _operands(dtype, shape, 3)
    fast = [f() for f in elementwise.TANH_BACKWARD.gradient(gz, None, g, y)]
    general = [ops.apply(elementwise.TANH_BACKWARD, gz, y), elementwise._tanh_backward_y(gz, g, y)]
    for got, want in zip(fast, general, strict=True):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    traced = elementwise.TANH_BACKWARD.gradient(DlArray(gz), None, g, DlArray(y))
    np.testing.assert_array_equal(traced[0]().data, general[0])
    np.testing.assert_array_equal(traced[1]().data, general[1])
