"""Integer fast paths give the values of the computation in double: conversion of double
values to the integer classes of at most 32 bits (rounding half away from zero, saturation,
NaN to 0), and +, - and .* of two arrays of one such class (computed exactly in int64)."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.values import operators as ops

NARROW = ["int8", "uint8", "int16", "uint16", "int32", "uint32"]


def reference_to_int(v: np.ndarray, cls: str) -> np.ndarray:
    """Double values to an integer class, one mask at a time."""
    info = np.iinfo(cls)
    with np.errstate(invalid="ignore"):
        v = np.where(np.isnan(v), 0.0, v)
        v = np.trunc(v + np.copysign(0.5, v))
        too_big, too_small = v >= float(info.max), v <= float(info.min)
        inside = np.where(too_big | too_small, 0.0, v).astype(cls)
    return np.where(too_big, info.max, np.where(too_small, info.min, inside)).astype(cls)


def doubles(cls: str) -> list[np.ndarray]:
    info = np.iinfo(cls)
    lo, hi = float(info.min), float(info.max)
    specials = [np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5,
                0.49999999999999994, -0.49999999999999994, lo, hi, lo - 0.5, hi + 0.5, lo - 0.6,
                hi + 0.4, hi - 0.5, lo + 0.5, 1e300, -1e300, 5e-324]
    rng = np.random.default_rng(11)
    return [np.array([specials]), np.array(specials).reshape(-1, 1), np.zeros((0, 3)),
            np.array([[np.nan]]), (rng.random((3, 4, 2)) - 0.5) * 4 * max(hi, 1.0),
            rng.standard_normal((5, 7)) * 1000]


@pytest.mark.parametrize("cls", NARROW)
def test_to_class_matches_reference(cls):
    for v in doubles(cls):
        got = ops.to_class(v.copy(), cls)
        want = reference_to_int(v, cls)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want)


def integers(cls: str) -> np.ndarray:
    info = np.iinfo(cls)
    rng = np.random.default_rng(5)
    edges = [info.min, info.min + 1, -1, 0, 1, 2, info.max - 1, info.max]
    values = np.concatenate([np.array(edges, dtype=np.int64),
                             rng.integers(info.min, info.max, 24, endpoint=True)])
    return np.clip(values, info.min, info.max).astype(cls).reshape(1, -1)


@pytest.mark.parametrize("cls", NARROW)
@pytest.mark.parametrize("symbol", ["+", "-", ".*"])
def test_narrow_integer_arithmetic_matches_double_computation(cls, symbol):
    fn = {"+": np.add, "-": np.subtract, ".*": np.multiply}[symbol]
    a = integers(cls)
    for x, y in ((a, a[:, ::-1].copy()), (a, a), (a.T.copy(), a), (a[:, :1].copy(), a),
                 (a[:, :0].copy(), a[:, :0].copy())):
        got = ops.elementwise(symbol, x, y)
        want = reference_to_int(fn(x.astype(np.float64), y.astype(np.float64)), cls)
        got = np.asarray(got)
        assert got.dtype == np.dtype(cls)
        assert np.array_equal(got.reshape(want.shape), want)


def test_narrow_integer_scalars_and_saturation():
    assert ops.elementwise("+", np.array([[100]], dtype=np.int8), np.array([[100]], dtype=np.int8)).tolist() \
        == [[127]]
    assert ops.elementwise("-", np.array([[0]], dtype=np.uint8), np.array([[1]], dtype=np.uint8)).tolist() \
        == [[0]]
    big = np.array([[2**31 - 1, -2**31]], dtype=np.int32)
    assert ops.elementwise(".*", big, big).tolist() == [[2**31 - 1, 2**31 - 1]]


def test_narrow_integer_errors():
    with pytest.raises(MatlabError):
        ops.elementwise("+", np.zeros((1, 3), dtype=np.int16), np.zeros((1, 4), dtype=np.int16))
    with pytest.raises(MatlabError):
        ops.elementwise("+", np.zeros((1, 3), dtype=np.int16), np.zeros((1, 3), dtype=np.int8))
