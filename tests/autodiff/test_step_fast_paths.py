"""Fast paths of a training step give what the general paths give: tanh and atan without
a change of NumPy's error state, scalar structs walked by map_dlarrays and by the
optimizers' containers, and adamupdate's joint step of several parameters."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray, map_dlarrays
from mlang.builtins.deeplearning import containers
from mlang.builtins.deeplearning.adam_steps import adam_arrays
from mlang.builtins.deeplearning.optimizers import _adam_together
from mlang.errors import MatlabError
from mlang.values.cell import Cell
from mlang.values.struct import Struct
from tests.builtins.conftest import Session

SPECIAL = np.array([[np.inf, -np.inf, np.nan, 0.0, -0.0, 1e308, -1e308, 1e-320, 0.5, -3.0]])


@pytest.fixture(scope="module")
def m() -> Session:
    return Session()


@pytest.mark.parametrize("name, fn", [("tanh", np.tanh), ("atan", np.arctan)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_tanh_and_atan_of_special_values_without_warnings(m, name, fn, dtype):
    with np.errstate(over="ignore"):  # 1e308 becomes Inf in single
        x = SPECIAL.astype(dtype)
    with np.errstate(all="raise"):  # a warning silenced before would now raise
        y = m.value(f"y = {name}(x);", "y", x=x)
    assert y.dtype == dtype
    np.testing.assert_array_equal(y, fn(x))


@pytest.mark.parametrize("name, fn", [("tanh", np.tanh), ("atan", np.arctan)])
def test_tanh_and_atan_of_other_classes(m, name, fn):
    assert m.value(f"y = {name}(0.5);", "y") == pytest.approx(fn(0.5))
    z = m.value(f"y = {name}([1+2i, -0.5i]);", "y")
    assert z.dtype == np.complex128
    assert m.value(f"y = {name}(true);", "y") == pytest.approx(m.value(f"y = {name}(1);", "y"))
    assert m.value(f"y = isa({name}(single([])), 'single');", "y") is True
    assert m.fails(f"{name}(int8(3))").identifier


def test_tanh_gradient_of_a_dlarray_with_nan_and_inf(m):
    code = """
    x = dlarray(single([0.5 -1 Inf NaN]));
    [y, g] = dlfeval(@(x) deal(sum(tanh(x)), dlgradient(sum(tanh(x)), x)), x);
    g = extractdata(g);
    """
    g = m.value(code, "g")
    x = np.array([[0.5, -1, np.inf, np.nan]], dtype=np.float32)
    np.testing.assert_allclose(g, 1 - np.tanh(x) ** 2, rtol=1e-6)


def _scalar_struct(fields: dict) -> Struct:
    return Struct.scalar(fields)


def test_map_dlarrays_on_a_scalar_struct():
    a, b = DlArray(np.ones((2, 2))), DlArray(np.zeros((1, 3)), "CB")
    inner = Cell.row([DlArray(np.ones((1, 1))), 3.0])
    s = _scalar_struct({"a": a, "x": 2.0, "c": inner, "b": b})
    assert map_dlarrays(s, lambda v: v) is s  # nothing changed: the same struct
    doubled = map_dlarrays(s, lambda v: DlArray(2 * v.data, v.fmt))
    assert doubled is not s and doubled.fields == s.fields and doubled.elems.shape == (1, 1)
    fields = doubled.elems[0, 0]
    np.testing.assert_array_equal(fields["a"].data, 2 * np.ones((2, 2)))
    assert fields["b"].fmt == "CB" and fields["x"] == 2.0
    assert fields["c"].data[0, 0].data[0, 0] == 2.0
    assert s.elems[0, 0]["a"] is a  # the original untouched
    empty = Struct.empty((0, 0), ["a"])
    assert map_dlarrays(empty, lambda v: DlArray(2 * v.data)) is empty


def test_struct_containers_scalar_and_arrays_agree():
    kind = containers.CONTAINER_KINDS[Struct]
    s = _scalar_struct({"w": 1.0, "b": 2.0})
    other = _scalar_struct({"b": 20.0, "w": 10.0})  # fields matched by name
    assert kind.children(s) == [1.0, 2.0]
    assert kind.matching_children(s, other) == [10.0, 20.0]
    rebuilt = kind.rebuild(s, [5.0, 6.0])
    assert rebuilt.fields == ["w", "b"] and rebuilt.elems[0, 0] == {"w": 5.0, "b": 6.0}
    arr = Struct(["w"], np.empty((1, 2), dtype=object))
    arr.elems[0, 0], arr.elems[0, 1] = {"w": 1.0}, {"w": 2.0}
    assert kind.children(arr) == [1.0, 2.0]
    again = kind.rebuild(arr, [3.0, 4.0])
    assert again.elems.shape == (1, 2) and again.elems[0, 1] == {"w": 4.0}
    with pytest.raises(MatlabError):
        kind.matching_children(s, _scalar_struct({"w": 1.0, "c": 2.0}))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("first", [True, False])
def test_adam_together_matches_each_parameter_alone(dtype, first):
    rng = np.random.default_rng(7)
    shapes = [(3, 2), (3, 1), (1, 1), (2, 3)]
    inputs = []
    for k, shape in enumerate(shapes):
        arrays = [rng.standard_normal(shape).astype(dtype) for _ in range(4)]
        arrays[3] = np.abs(arrays[3])
        if k == 0:  # a column-major parameter with row-major states
            arrays[0] = np.asfortranarray(arrays[0])
        if k == 1:
            arrays[1][0, 0] = np.nan
        if first:
            arrays[2] = arrays[3] = None
        inputs.append(tuple(arrays))
    together = _adam_together(inputs, 0.9, 0.999, 1e-8, 1e-3)
    assert together is not None
    for row, got in zip(inputs, together, strict=True):
        want = adam_arrays(*row, 0.9, 0.999, 1e-8, 1e-3)
        for a, b in zip(got, want, strict=True):
            assert a.shape == b.shape and a.dtype == b.dtype == dtype
            np.testing.assert_array_equal(a, b)


def test_adamupdate_on_a_struct_matches_one_parameter_at_a_time(m):
    code = """
    p.W = dlarray(single([1 2; 3 4])); p.b = dlarray(single([0.5; -1]), 'CB'); p.s = dlarray(single(2));
    g.b = dlarray(single([0.1; NaN]), 'CB'); g.W = dlarray(single([-1 0; 2 1e-3])); g.s = dlarray(single(0));
    [q, a, s] = adamupdate(p, g, [], [], 1);
    [q, a, s] = adamupdate(q, g, a, s, 2);
    [w, aw, sw] = adamupdate(p.W, g.W, [], [], 1);
    [w, aw, sw] = adamupdate(w, g.W, aw, sw, 2);
    [b, ab, sb] = adamupdate(p.b, g.b, [], [], 1);
    [b, ab, sb] = adamupdate(b, g.b, ab, sb, 2);
    """
    q, a, s, w, aw, sw, b, ab, sb = m.values(code, "q", "a", "s", "w", "aw", "sw", "b", "ab", "sb")
    assert q.fields == ["W", "b", "s"] and a.fields == ["W", "b", "s"]
    for got, want in ((q, w), (a, aw), (s, sw)):
        assert got.elems[0, 0]["W"].data.dtype == np.float32
        np.testing.assert_array_equal(got.elems[0, 0]["W"].data, want.data)
    for got, want in ((q, b), (a, ab), (s, sb)):
        assert got.elems[0, 0]["b"].fmt == "CB"
        np.testing.assert_array_equal(got.elems[0, 0]["b"].data, want.data)


def test_logical_operands_count_as_double_in_the_rules(m):
    code = """
    x = dlarray([1 -2 3]);
    mask = [true false true];
    [y, g] = dlfeval(@(x) deal(sum(x .* mask + mask ./ (x + 4)), ...
                               dlgradient(sum(x .* mask + mask ./ (x + 4)), x)), x);
    g = extractdata(g);
    """
    g = m.value(code, "g")
    x = np.array([[1.0, -2.0, 3.0]])
    mask = np.array([[1.0, 0.0, 1.0]])
    np.testing.assert_allclose(g, mask - mask / (x + 4) ** 2)
    assert g.dtype == np.float64
