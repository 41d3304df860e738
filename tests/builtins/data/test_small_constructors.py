"""zeros and ones read one or two small whole double sizes themselves (ones(1,2), zeros(3)):
each such call gives the value the general size reading gives, and every other size (negative,
NaN, Inf, fractional, logical, integer-class, large, with a class name) still takes the
general path with its errors."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.builtins.data.construct import SMALL_SIZE, _filled, ones, small_filled, zeros
from mlang.errors import MatlabError
from mlang.values.limits import ALWAYS_ALLOWED_BYTES
from tests.running import run

SIZES = [(0.0,), (1.0,), (3.0,), (1.0, 2.0), (2.0, 1.0), (2.0, 2.0), (0.0, 3.0), (3.0, 0.0),
         (-0.0, 2.0), (1.0, 1.0), (float(SMALL_SIZE), 1.0), (5.0, 7.0)]


def same(a: object, b: object) -> bool:
    if type(a) is np.ndarray:
        return type(b) is np.ndarray and a.dtype == b.dtype and a.shape == b.shape \
            and np.array_equal(a, b) and a.flags.writeable == b.flags.writeable
    return type(a) is type(b) and a == b


def test_small_sizes_stay_under_every_size_limit():
    assert SMALL_SIZE * SMALL_SIZE * 8 <= ALWAYS_ALLOWED_BYTES


@pytest.mark.parametrize("sizes", SIZES)
@pytest.mark.parametrize("fill", [0.0, 1.0])
def test_small_sizes_match_the_general_path(sizes, fill):
    fast = small_filled(sizes, fill)
    assert fast is not None
    assert same(fast, _filled(list(sizes), fill))
    assert same((ones if fill else zeros)(*sizes), fast)


@pytest.mark.parametrize("sizes", SIZES[:6])
@pytest.mark.parametrize("fill", [True, False])
def test_small_logical_fill_matches_numpy(sizes, fill):
    fast = small_filled(sizes, fill, np.bool_)
    shape = sizes * 2 if len(sizes) == 1 else sizes
    expected = np.full(tuple(int(n) for n in shape), fill, dtype=bool)
    if expected.size == 1:
        assert fast is fill
    else:
        assert same(fast, expected)


@pytest.mark.parametrize("sizes", [
    (), (-1.0,), (-2.0, 3.0), (float("nan"),), (1.0, float("nan")), (float("inf"),),
    (1.5,), (2.0, 0.5), (True,), (1.0, True), (np.int8(2),), (1j,), (1.0, 2.0, 3.0),
    (float(SMALL_SIZE + 1), 1.0), (1.0, "single"), (2.0, "like"),
])
def test_other_sizes_take_the_general_path(sizes):
    assert small_filled(sizes, 1.0) is None


def outcome(text: str) -> object:
    try:
        interp, _ = run(f"x = {text};")
    except MatlabError as exc:
        return ("error", exc.identifier)
    return interp.base.vars["x"]


@pytest.mark.parametrize(("code", "vector_form"), [
    ("ones(-1)", "ones([-1 -1])"), ("ones(-2, 3)", "ones([-2 3])"), ("zeros(NaN)", "zeros([NaN NaN])"),
    ("zeros(1, NaN)", "zeros([1 NaN])"), ("ones(Inf)", "ones([Inf Inf])"), ("ones(1.5)", "ones([1.5 1.5])"),
    ("zeros(2, 0.5)", "zeros([2 0.5])"), ("ones(1e6, 1e6)", "ones([1e6 1e6])"),
    ("ones(true, 2)", "ones([1 2])"), ("zeros(int8(2), 3)", "zeros(int8([2 3]))"),
    ("ones(1, 2)", "ones([1 2])"), ("zeros(3)", "zeros([3 3])"), ("ones(1)", "ones([1 1])"),
    ("zeros(0, 2)", "zeros([0 2])"), ("ones(2, 3, 4)", "ones([2 3 4])"),
])
def test_mlang_results_and_errors_agree_with_the_size_vector_form(code, vector_form):
    """The same sizes given as one vector always take the general path."""
    got, expected = outcome(code), outcome(vector_form)
    if type(expected) is tuple:
        assert got == expected
    else:
        assert same(got, expected)


@pytest.mark.parametrize(("code", "identifier"), [
    ("ones(1, 2, 'int8')", None), ("zeros(2, 'single')", None), ("ones(1, 2, 'like', single(1))", None),
    ("zeros(2, 'foo')", "MATLAB:invalidClassName"), ("ones('a')", "MATLAB:invalidClassName"),
])
def test_class_arguments_take_the_general_path(code, identifier):
    got = outcome(code)
    if identifier is not None:
        assert got == ("error", identifier)
    else:
        assert type(got) is not tuple
