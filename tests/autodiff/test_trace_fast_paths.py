"""Fast paths of the trace and the backward pass give what the general paths give: the tanh
rule on real arrays, unbroadcast of a gradient of the operand's own shape, record's format
and tracing, and the nodes the backward pass goes through."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff import ops
from mlang.autodiff import trace as tr
from mlang.autodiff.dlarray import DlArray
from mlang.builtins.math import elementwise
from mlang.registry import BUILTINS


def _general_tanh_rule(g, y):
    """The tanh rule as the general path computes it."""
    if ops.data_of(y).dtype.kind == "c":
        return elementwise.chain_rule(lambda y, x: ops.minus(1.0, elementwise.square(y)))(g, y, None)
    return (elementwise._tanh_backward(g, y),)


@pytest.mark.parametrize("g_dtype, y_dtype", [(np.float64, np.float64), (np.float32, np.float32),
                                              (np.float32, np.float64), (np.float64, np.float32),
                                              (np.complex128, np.float64)])
@pytest.mark.parametrize("shape", [(3, 4), (0, 3), (1, 1)])
def test_tanh_rule_on_real_arrays_matches_the_general_path(g_dtype, y_dtype, shape):
    rng = np.random.default_rng(1)
    y = np.tanh(rng.standard_normal(shape)).astype(y_dtype)
    if y.size:
        y.reshape(-1)[0] = np.nan
    g = rng.standard_normal(shape).astype(g_dtype)
    if g_dtype == np.complex128:
        g = g + 1j * rng.standard_normal(shape)
    (fast,) = elementwise._tanh_rule(g.copy(), y.copy(), None)
    (general,) = _general_tanh_rule(g.copy(), y.copy())
    assert fast.dtype == general.dtype and fast.shape == general.shape
    np.testing.assert_array_equal(fast, general)


def test_tanh_rule_of_other_operands_takes_the_general_path():
    y = np.tanh(np.array([[0.5 + 1j, -0.25]]))
    g = np.ones((1, 2))
    np.testing.assert_array_equal(elementwise._tanh_rule(g, y, None)[0], _general_tanh_rule(g, y)[0])
    y = np.tanh(np.array([[0.5, -0.25, 2.0]]))
    (scalar_g,) = elementwise._tanh_rule(np.array([[2.0]]), y, None)  # expanded upstream
    np.testing.assert_array_equal(scalar_g, 2.0 * (1 - y * y))
    traced = elementwise._tanh_rule(DlArray(np.ones((1, 3))), DlArray(y), None)[0]
    assert type(traced) is DlArray
    np.testing.assert_array_equal(traced.data, 1 - y * y)


@pytest.mark.parametrize("g, like", [
    (np.ones((2, 3)), np.zeros((2, 3))),
    (np.ones((2, 3)), np.zeros((1, 3))),
    (np.ones((2, 3)), 2.0),
    (np.ones((2, 3), np.float32), DlArray(np.zeros((2, 1)))),
    (np.ones((2, 3)), DlArray(np.zeros((2, 3)), "CB")),
    (np.ones((0, 3)), np.zeros((0, 3))),
    (np.ones((2, 3, 4)), np.zeros((2, 1, 4))),
])
def test_unbroadcast_matches_sum_to(g, like):
    fast = ops.unbroadcast(g, like)
    general = ops.sum_to(g, ops.shape_of(like))
    assert fast.shape == general.shape and fast.dtype == general.dtype
    np.testing.assert_array_equal(fast, general)


def test_unbroadcast_of_a_traced_gradient_is_recorded():
    g = tr.traced_input(DlArray(np.ones((2, 3))))
    out = ops.unbroadcast(g, np.zeros((1, 3)))
    assert type(out) is DlArray and out.node is not None
    np.testing.assert_array_equal(out.data, [[2.0, 2.0, 2.0]])


def test_record_formats_and_tracing():
    plus = BUILTINS["plus"]
    x = np.ones((2, 3))
    plain = DlArray(x, "CB")
    traced = tr.traced_input(DlArray(x, "CB"))
    y = tr.record(plus, (plain, 1.0), (x, 1.0), x + 1)
    assert y.fmt == "CB" and y.node is None
    y = tr.record(plus, (1.0, traced), (1.0, x), x + 1)
    assert y.fmt == "CB" and y.node is not None and y.node.parents == (None, traced.node)
    y = tr.record(plus, (DlArray(x), traced), (x, x), x + x)  # the first format given
    assert y.fmt == "CB"
    y = tr.record(plus, (traced, traced), (x, x), x + x, "")
    assert y.fmt == "" and y.node is not None
    y = tr.record(None, (traced,), (x,), x)  # never recorded
    assert y.node is None
    y = tr.record(plus, (traced,), (x,), np.ones((2, 3, 4)))  # more dimensions than labels
    assert y.fmt == ""
    mask = np.array([[True, False, True]])
    y = tr.record(plus, (DlArray(mask), traced), (mask, x), x + mask)
    assert y.node.raw[0].dtype == np.float64  # logical data counts as double in the rules
    np.testing.assert_array_equal(y.node.raw[0], [[1.0, 0.0, 1.0]])


def _old_needed_and_active(order, targets):
    needed = set(targets)
    for node in order:
        for p in node.parents:
            if p in needed:
                needed.add(node)
                break
    return needed, [node for node in reversed(order) if node.rule is not None and node in needed]


def test_nodes_of_the_backward_pass():
    x = tr.traced_input(DlArray(np.array([[0.5, -1.0]])))
    w = tr.traced_input(DlArray(np.array([[2.0, 3.0]])))
    a = ops.times(x, w)
    b = ops.call("tanh", a)
    c = ops.plus(b, w)  # w reaches the root two ways
    d = ops.times(c, 2.0)
    unused = ops.call("tanh", w)
    y = ops.call("sum", ops.plus(d, ops.times(unused, 0.0)))
    order = tr._topological(y.node)
    for targets in ({x.node}, {w.node}, {x.node, w.node}, {a.node}, {b.node, x.node}, {y.node}):
        needed, active = tr._needed_and_active(order, targets)
        old_needed, old_active = _old_needed_and_active(order, targets)
        assert needed == old_needed
        assert active == old_active


def test_gradients_through_an_intermediate_and_its_input():
    x = tr.traced_input(DlArray(np.array([[0.5, -1.0, 2.0]])))
    a = ops.call("tanh", x)
    y = ops.call("sum", ops.times(a, a))
    ga, gx = tr.backward(y, [a, x], False, True)
    t = np.tanh(x.data)
    np.testing.assert_allclose(ga, 2 * t)
    np.testing.assert_allclose(gx, 2 * t * (1 - t * t))
    (gx_traced,) = tr.backward(y, [x], True, True)
    np.testing.assert_allclose(gx_traced.data, gx)


def test_map_dlarrays_over_cells():
    from mlang.autodiff.dlarray import map_dlarrays
    from mlang.values.cell import Cell

    def cell(items, shape):
        data = np.empty(shape, dtype=object)
        data.reshape(-1)[:] = items
        return Cell(data)

    x, w = DlArray(np.ones((2, 2)), "CB"), DlArray(np.zeros((1, 3)))
    plain = np.arange(3.0)
    inner = cell([w, plain], (1, 2))
    outer = cell([x, inner, "text", plain], (2, 2))
    assert map_dlarrays(outer, lambda v: v) is outer  # nothing changed: the same cell
    empty = cell([], (0, 0))
    assert map_dlarrays(empty, lambda v: DlArray(v.data)) is empty
    mapped = map_dlarrays(outer, lambda v: DlArray(v.data * 2, v.fmt))
    assert mapped is not outer and mapped.data.shape == (2, 2)
    flat = mapped.data.reshape(-1)
    np.testing.assert_array_equal(flat[0].data, 2 * x.data)
    assert flat[0].fmt == "CB"
    assert flat[2] == "text" and flat[3] is plain  # values that are not dlarrays kept as they are
    assert type(flat[1]) is Cell and flat[1] is not inner
    np.testing.assert_array_equal(flat[1].data.reshape(-1)[0].data, 2 * w.data)
    assert flat[1].data.reshape(-1)[1] is plain
    untouched_inner = cell([plain], (1, 1))
    partly = cell([x, untouched_inner], (1, 2))
    again = map_dlarrays(partly, lambda v: DlArray(v.data, v.fmt))
    assert again.data.reshape(-1)[1] is untouched_inner  # an unchanged nested cell is shared


def _same_dlarray(a, b, fresh_parents=False):
    """``fresh_parents``: each call lines the operands up by label in new recorded steps."""
    assert type(a) is DlArray and type(b) is DlArray
    assert a.fmt == b.fmt and a.data.dtype == b.data.dtype and a.data.shape == b.data.shape
    np.testing.assert_array_equal(a.data, b.data)
    assert (a.node is None) == (b.node is None)
    if a.node is not None:
        assert a.node.op is b.node.op
        if fresh_parents:
            assert [p.op for p in a.node.parents] == [p.op for p in b.node.parents]
        else:
            assert a.node.parents == b.node.parents
        assert len(a.node.raw) == len(b.node.raw)


@pytest.mark.parametrize("make", [
    lambda: (ops.MATMUL, tr.traced_input(DlArray(np.ones((2, 3)), "CB")), np.ones((3, 4)), False, False),
    lambda: (ops.MATMUL, DlArray(np.ones((2, 3), np.float32)), DlArray(np.ones((3, 1), np.float32)),
             False, False),
    lambda: (ops.SUM_TO, tr.traced_input(DlArray(np.ones((2, 3)), "SS")), (1, 3)),
    lambda: (ops.RESHAPE_TO, tr.traced_input(DlArray(np.arange(6.0).reshape(2, 3), "CB")), (3, 2)),
    lambda: (ops.EXPAND_TO, tr.traced_input(DlArray(np.array([[1.0 + 2j]]))), (2, 2)),
    lambda: (elementwise.TANH_BACKWARD, tr.traced_input(DlArray(np.ones((0, 2)))), np.ones((0, 2))),
    lambda: (ops.MATMUL, DlArray(np.array([[True, False]])), tr.traced_input(DlArray(np.ones((2, 2)))),
             False, False),
])
def test_apply_records_as_dl_call_does(make):
    p, *args = make()
    assert p.direct
    fast = ops.apply(p, *args)
    general = tr.dl_call(p, None, list(args), 1)[0]
    _same_dlarray(fast, general)


def test_primitives_named_as_formatting_builtins_take_dl_call():
    p = tr.Primitive("plus", lambda a, b: a + b, lambda g, y, a, b: (g, g))
    assert not p.direct
    a = tr.traced_input(DlArray(np.ones((2, 1)), "CB"))
    b = tr.traced_input(DlArray(np.ones((2, 1)), "SB"))
    _same_dlarray(ops.apply(p, a, b), tr.dl_call(p, None, [a, b], 1)[0], fresh_parents=True)


@pytest.mark.parametrize("dtypes", [(np.float64,) * 3, (np.float32,) * 3,
                                    (np.float64, np.float32, np.float64)])
@pytest.mark.parametrize("shapes", [((2, 3),) * 3, ((2, 3), (1, 3), (2, 3)), ((0, 3),) * 3])
def test_tanh_backward_y_on_arrays_matches_the_general_path(dtypes, shapes):
    rng = np.random.default_rng(2)
    a, b, c = (rng.standard_normal(s).astype(d) for s, d in zip(shapes, dtypes, strict=True))
    fast = elementwise._tanh_backward_y(a, b, c)
    general = ops.times(-2.0, ops.times(a, ops.times(b, c)))
    if shapes[0] == shapes[1] == shapes[2] and dtypes[0] == dtypes[1] == dtypes[2]:
        general = elementwise.TANH_BACKWARD_Y.fn(a, b, c)
    assert fast.dtype == general.dtype and fast.shape == general.shape
    np.testing.assert_array_equal(fast, general)
    traced = elementwise._tanh_backward_y(DlArray(a), b, c)  # a dlarray operand: recorded path
    np.testing.assert_allclose(traced.data, fast, rtol=1e-6)


def test_tanh_of_arrays_matches_the_general_path():
    tanh = BUILTINS["tanh"]
    x = np.array([[0.5, -np.inf, np.nan, 20.0]])
    with np.errstate(all="raise"):
        for v in (x, x.astype(np.float32), np.array([[0.25]]), np.zeros((0, 3)), np.ones((2, 2, 2))):
            (got,) = tanh.call(None, [v], 1)
            want = np.tanh(v)
            if want.size == 1:
                assert type(got) is float and got == float(want.reshape(-1)[0])
            else:
                assert got.dtype == want.dtype and got.shape == want.shape
                np.testing.assert_array_equal(got, want)
    (got,) = tanh.call(None, [np.array([[True, False]])], 1)  # logical: computed in double
    np.testing.assert_array_equal(got, np.tanh([[1.0, 0.0]]))
    (got,) = tanh.call(None, [np.array([[1 + 1j]])], 1)
    assert got == pytest.approx(np.tanh(1 + 1j))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(3, 5), (0, 2), (1, 1)])
def test_tanh_backward_y_rule_shares_a_product_with_the_same_values(dtype, shape):
    rng = np.random.default_rng(3)
    h, a, b, c = (rng.standard_normal(shape).astype(dtype) for _ in range(4))
    if h.size:
        h.reshape(-1)[0], a.reshape(-1)[-1] = np.inf, 1e-30  # Inf and tiny products
    want = (elementwise._tanh_backward_y(h, b, c), elementwise._tanh_backward_y(h, a, c),
            elementwise._tanh_backward_y(h, a, b))
    for order in ((0, 1, 2), (2, 1, 0), (1,), (2,)):
        lazy = elementwise.TANH_BACKWARD_Y.gradient(h, None, a, b, c)
        for k in order:
            got = lazy[k]()
            assert got.dtype == want[k].dtype and got.shape == want[k].shape
            np.testing.assert_array_equal(got, want[k])


def test_tanh_backward_y_rule_of_other_operands():
    h = np.ones((2, 2))
    a, b = np.full((2, 2), 0.5), np.full((1, 2), 2.0)  # shapes differ: the general products
    c = np.full((2, 2), 3.0)
    got = [f() for f in elementwise.TANH_BACKWARD_Y.gradient(h, None, a, b, c)]
    np.testing.assert_array_equal(got[0], -2.0 * h * b * c)
    np.testing.assert_array_equal(got[1], -2.0 * h * a * c)
    np.testing.assert_array_equal(got[2], -2.0 * h * a * b)
    traced = elementwise.TANH_BACKWARD_Y.gradient(DlArray(h), None, a, a, c)[1]()
    assert type(traced) is DlArray
    np.testing.assert_array_equal(traced.data, -2.0 * h * a * c)
