"""ops.apply of a Primitive whose result takes its first argument's format (trace.apply_direct)
gives what the general path gives: ``record`` of the function on the arguments' data."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff import ops
from mlang.autodiff import trace as tr
from mlang.autodiff.dlarray import DlArray
from mlang.registry import BUILTINS


def _general(p: tr.Primitive, args: tuple) -> DlArray:
    raw = [a.data if type(a) is DlArray else a for a in args]
    return tr.record(p, args, raw, tr.result_data(p.fn(*raw)))


def _leaf(data: np.ndarray, fmt: str = "", traced: bool = True) -> DlArray:
    x = DlArray(data, fmt)
    return tr.traced_input(x) if traced else x


def _same(fast: DlArray, general: DlArray) -> None:
    assert type(fast) is DlArray and type(general) is DlArray
    assert fast.fmt == general.fmt
    assert fast.data.dtype == general.data.dtype and fast.data.shape == general.data.shape
    np.testing.assert_array_equal(fast.data, general.data)
    assert (fast.node is None) == (general.node is None)
    if fast.node is not None:
        a, b = fast.node, general.node
        assert a.parents == b.parents and a.rule is b.rule and a.op is b.op
        assert a.args == b.args and len(a.raw) == len(b.raw)
        for u, v in zip(a.raw, b.raw, strict=True):
            assert type(u) is type(v)
            if type(u) is np.ndarray:
                assert u.dtype == v.dtype
                np.testing.assert_array_equal(u, v)
            else:
                assert u == v


DATA = {
    "double": np.array([[1.0, -2.0, np.nan], [0.5, np.inf, 3.0]]),
    "single": np.array([[1.0, -2.0, 4.0], [0.5, 2.0, 3.0]], dtype=np.float32),
    "complex": np.array([[1.0 + 2j, -2.0, 0.5j], [0.5, 1 - 1j, 3.0]]),
    "logical": np.array([[True, False, True], [False, False, True]]),
    "empty": np.zeros((0, 3)),
}


@pytest.mark.parametrize("kind", list(DATA))
@pytest.mark.parametrize("traced", [True, False])
@pytest.mark.parametrize("fmt", ["", "CB"])
def test_matmul_primitive(kind, traced, fmt):
    x = DATA[kind]
    a = _leaf(x, fmt, traced)
    b = x.T.astype(np.float64) if x.dtype.kind == "b" else x.T  # a raw operand
    args = (a, b, False, False)
    _same(tr.apply_direct(ops.MATMUL, args), _general(ops.MATMUL, args))
    args = (b, a, False, False)  # the dlarray second
    _same(tr.apply_direct(ops.MATMUL, args), _general(ops.MATMUL, args))


@pytest.mark.parametrize("kind", list(DATA))
def test_logical_data_counts_as_double_in_the_node(kind):
    x = DATA[kind]
    a = _leaf(x)
    args = (a, (x.shape[0] * x.shape[1], 1))
    fast = tr.apply_direct(ops.RESHAPE_TO, args)
    _same(fast, _general(ops.RESHAPE_TO, args))
    if kind == "logical":
        assert fast.data.dtype == np.bool_ and fast.node.raw[0].dtype == np.float64
    mask = np.array([[True], [False]])  # a raw logical operand
    args = (a, np.array([0] if x.size else [], dtype=np.intp), (1, 1) if x.size else (0, 1), mask)
    p = tr.Primitive("pick", lambda x, pos, shape, m: ops._take(x, pos, shape), ops.TAKE.gradient)
    _same(tr.apply_direct(p, args), _general(p, args))


def test_format_dropped_when_the_result_has_more_dimensions():
    a = _leaf(np.ones((2, 3)), "CB")
    args = (a, (2, 3, 4))
    p = tr.Primitive("grow", lambda x, shape: np.ones(shape), ops.EXPAND_TO.gradient)
    fast = tr.apply_direct(p, args)
    _same(fast, _general(p, args))
    assert fast.fmt == ""


def test_apply_uses_the_same_path_and_gradients_flow():
    assert "sum" in BUILTINS  # (the rules call builtins by name)
    rng = np.random.default_rng(0)
    w = _leaf(rng.standard_normal((3, 4)))
    x = _leaf(rng.standard_normal((4, 2)))
    y = ops.apply(ops.MATMUL, w, x, False, False)
    loss = ops.call("sum", ops.call("sum", y))
    gw, gx = tr.backward(loss, [w, x], False, False)
    np.testing.assert_array_equal(gw, np.ones((3, 2)) @ x.data.T)
    np.testing.assert_array_equal(gx, w.data.T @ np.ones((3, 2)))
