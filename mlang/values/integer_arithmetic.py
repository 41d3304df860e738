"""MATLAB's integer classes in arithmetic: conversion of computed values to a class (rounded
half away from zero, saturated, NaN as 0) and the exact paths of integer operands.

int64 and uint64 hold more digits than a double, so their arithmetic is exact on Python
integers; two arrays of one narrower class add, subtract and multiply exactly in 64 bits.
"""

from __future__ import annotations

import operator as py
from math import copysign

import numpy as np

from mlang.errors import error
from mlang.values.core import (
    DTYPE_OF_CLASS,
    INT_CLASSES,
    align,
    char_codes,
    char_from_codes,
    result,
    to_array,
)

INT_LIMITS = {name: (np.iinfo(name).min, np.iinfo(name).max) for name in INT_CLASSES}


def check_sizes(x: np.ndarray, y: np.ndarray) -> None:
    """MATLAB's implicit expansion check for two aligned operands."""
    for dx, dy in zip(x.shape, y.shape, strict=True):
        if dx != dy and dx != 1 and dy != 1:
            raise error("MATLAB:sizeDimensionsMustMatch",
                        "Arrays have incompatible sizes for this operation.")


def to_class(values: np.ndarray, cls: str) -> np.ndarray:
    """Cast computed values to ``cls`` with MATLAB's conversion rules: integers
    round half away from zero and saturate, NaN becomes 0."""
    if cls == "double":
        return values
    if cls == "single":
        return values.astype(np.complex64 if values.dtype.kind == "c" else np.float32)
    if cls == "logical":
        return values != 0
    if cls == "char":
        # in double, so the bounds fit every class (logical and uint8 codes included)
        codes = np.nan_to_num(np.round(values.real.astype(np.float64, copy=False)), nan=0.0)
        return char_from_codes(np.clip(codes, 0, 65535).astype(np.uint32))
    if values.dtype.kind in "iu":
        return _int_to_int(values, cls)
    if values.dtype.kind == "O":  # Python ints from exact integer arithmetic
        return int_clip(values, cls)
    if values.dtype.kind == "b":
        return values.astype(DTYPE_OF_CLASS[cls])
    return _float_to_int(values.real if values.dtype.kind == "c" else values, cls)


def _float_to_int(v: np.ndarray, cls: str) -> np.ndarray:
    lo, hi = INT_LIMITS[cls]
    dt = DTYPE_OF_CLASS[cls]
    if v.dtype == np.float64 and dt.itemsize <= 4:
        return _double_to_narrow_int(v, lo, hi, dt)
    with np.errstate(invalid="ignore"):
        v = np.where(np.isnan(v), 0.0, v)
        v = np.trunc(v + np.copysign(0.5, v))  # round half away from zero
        # float(hi) of a 64-bit class is 2**63 or 2**64, one past the largest
        # value, so compare before casting: the cast itself would wrap around.
        too_big = v >= float(hi)
        too_small = v <= float(lo)
        inside = np.where(too_big | too_small, 0.0, v).astype(dt)
    return np.where(too_big, dt.type(hi), np.where(too_small, dt.type(lo), inside))


def _double_to_narrow_int(v: np.ndarray, lo: int, hi: int, dt: np.dtype) -> np.ndarray:
    """_float_to_int for classes of at most 32 bits, whose limits are exact doubles: the
    same values, computed in place in one temporary."""
    rounded = np.copysign(0.5, v)
    rounded += v
    np.trunc(rounded, out=rounded)  # round half away from zero
    np.clip(rounded, lo, hi, out=rounded)  # saturate (NaN stays NaN)
    nan = np.isnan(v)
    if nan.any():
        rounded[nan] = 0.0
    return rounded.astype(dt)


def int_clip(v: np.ndarray, cls: str) -> np.ndarray:
    """Integers (int64 or Python ints in an object array) saturated into ``cls``."""
    lo, hi = INT_LIMITS[cls]
    return np.clip(v, lo, hi).astype(DTYPE_OF_CLASS[cls]) if v.size else v.astype(DTYPE_OF_CLASS[cls])


def _int_to_int(v: np.ndarray, cls: str) -> np.ndarray:
    """Exact integer-to-integer conversion with saturation (no detour through double)."""
    lo, hi = INT_LIMITS[cls]
    dt = DTYPE_OF_CLASS[cls]
    src = np.iinfo(v.dtype)
    if src.min >= lo and src.max <= hi:
        return v.astype(dt)
    return int_clip(v.astype(object), cls)


EXACT_NARROW = {"+": np.add, "-": np.subtract, ".*": np.multiply}


def narrow_int_arithmetic(symbol: str, a: np.ndarray, b: np.ndarray, cls: str) -> object:
    """``a + b``, ``a - b`` or ``a .* b`` of two arrays of one integer class of at most 32
    bits, in 64-bit integers: exact, so saturating it gives what the computation in double gives."""
    x, y = align(a, b)
    check_sizes(x, y)
    # uint32 products reach 2**64 - 2**33 + 1: past int64, within uint64
    wide_type = np.uint64 if symbol == ".*" and a.dtype == np.uint32 else np.int64
    wide = EXACT_NARROW[symbol](x, y, dtype=wide_type)
    lo, hi = INT_LIMITS[cls]
    np.clip(wide, lo, hi, out=wide)
    return result(wide.astype(a.dtype))


def _exact_operand(v: object) -> np.ndarray | None:
    """An operand as an object array of Python ints, or None if it has a fraction/NaN/Inf."""
    a = to_array(v)
    k = a.dtype.kind
    if k in "iub":
        return a.astype(np.int64 if k == "b" else a.dtype).astype(object)
    if k == "V":
        return char_codes(a).astype(np.int64).astype(object)
    if k != "f" or not np.isfinite(a).all() or (a != np.trunc(a)).any():
        return None
    return _TO_INT(a) if a.size else a.astype(object)


def _round_div(x: int, y: int, lo: int, hi: int) -> int:
    """x / y rounded half away from zero; division by zero saturates (0/0 is 0)."""
    if y == 0:
        return hi if x > 0 else lo if x < 0 else 0
    q, r = divmod(abs(x), abs(y))
    if 2 * r >= abs(y):
        q += 1
    return q if (x < 0) == (y < 0) else -q


def _int_pow(x: int, y: int, lo: int, hi: int) -> int:
    if y < 0:
        if x == 0:
            return hi  # 1/0 is Inf, which saturates
        if abs(x) == 1:
            return x if y % 2 else 1
        # |1/x^n| <= 1/2: only exactly 1/2 rounds away from zero
        return (1 if x > 0 else -1) if (y == -1 and abs(x) == 2) else 0
    if abs(x) >= 2 and y > 128:  # far beyond every limit; only the sign matters
        return hi if x > 0 or y % 2 == 0 else lo
    return x ** y


_TO_INT = np.frompyfunc(int, 1, 1)


def exact_int64(symbol: str, a: object, b: object, cls: str) -> object | None:
    """int64/uint64 arithmetic on exact integers, since a double holds only 53 bits.
    None when an operand is not integer-valued (then the double path is used)."""
    if symbol not in ("+", "-", ".*", "./", ".\\", ".^"):
        return None
    x, y = _exact_operand(a), _exact_operand(b)
    if x is None or y is None:
        return None
    x, y = align(x, y)
    check_sizes(x, y)
    lo, hi = INT_LIMITS[cls]
    if symbol == ".\\":
        x, y, symbol = y, x, "./"
    if symbol == "./":
        values = np.frompyfunc(lambda p, q: _round_div(p, q, lo, hi), 2, 1)(x, y)
    elif symbol == ".^":
        values = np.frompyfunc(lambda p, q: _int_pow(p, q, lo, hi), 2, 1)(x, y)
    else:
        values = EXACT_NARROW[symbol](x, y)
    values = np.asarray(values, dtype=object).reshape(np.broadcast_shapes(x.shape, y.shape))
    return result(int_clip(values, cls))


# ------------------------------------------------- short operands in Python numbers

# dtypes of the integer classes of at most 32 bits: their values and limits are exact doubles
NARROW_INT_LIMITS = {np.dtype(name): INT_LIMITS[name]
                     for name in ("int8", "uint8", "int16", "uint16", "int32", "uint32")}
_SHORT = 16  # (elements: up to this many, Python numbers are quicker than NumPy's passes)
_SHORT_OPS = {"+": py.add, "-": py.sub, ".*": py.mul, "./": py.truediv, ".\\": lambda x, y: y / x}
_EXACT_OPS = (py.add, py.sub, py.mul)  # (on two Python ints: exact)


def narrow_int_of(v: float, lo: int, hi: int) -> int:
    """A double converted to an integer class of at most 32 bits (limits lo, hi) as to_class
    converts it: rounded half away from zero (int truncates, as np.trunc does), saturated,
    NaN as 0."""
    return hi if v >= hi else lo if v <= lo else 0 if v != v else int(v + copysign(0.5, v))


def short_narrow_int(symbol: str, a: object, b: object) -> np.ndarray | None:
    """``a <symbol> b`` for + - .* ./ .\\ of a scalar, row or column of at most 16 elements of
    an integer class of at most 32 bits with a double scalar (a Python float), or with a scalar
    or an array of its size of that class.  Computed on Python numbers with the general path's
    values: in double (Python's float operations are IEEE's, as NumPy's are; int / int is
    rounded once), or exactly for + - .* of integers and whole doubles (a result within the
    class's limits is exact in double too, and one beyond them saturates either way).  None for
    anything else, and for a division by zero."""
    op = _SHORT_OPS.get(symbol)
    if op is None:
        return _short_power(a, b) if symbol == ".^" else None
    ta, tb = type(a), type(b)
    if tb is float and ta is np.ndarray and a.shape == (1, 1):  # the commonest case, first
        limits = NARROW_INT_LIMITS.get(a.dtype)
        if limits is not None:
            lo, hi = limits
            try:
                v = op(a.item(), b)
            except ZeroDivisionError:
                return None
            out = np.empty((1, 1), a.dtype)
            out[0, 0] = hi if v >= hi else lo if v <= lo else 0 if v != v else int(v + copysign(0.5, v))
            return out  # (as for two scalars below)
    if ta is np.ndarray:
        dt, shape = a.dtype, a.shape
        if tb is np.ndarray:
            if b.dtype is not dt:
                return None
            if b.shape != shape:
                if a.size == 1:
                    shape = b.shape  # an integer scalar and an array of its class
                elif b.size != 1:
                    return None  # (implicit expansion: the general path)
        elif tb is not float:
            return None
    elif ta is float and tb is np.ndarray:
        dt, shape = b.dtype, b.shape
    else:
        return None
    limits = NARROW_INT_LIMITS.get(dt)
    if limits is None or len(shape) != 2:
        return None
    lo, hi = limits
    try:
        if shape == (1, 1):  # two scalars: the commonest case
            v = op(a.item() if ta is np.ndarray else a, b.item() if tb is np.ndarray else b)
            out = np.empty(shape, dt)
            # saturated; an integer is exact, a double is rounded half away from zero (int
            # truncates, as np.trunc does) and NaN is 0, as to_class converts it
            out[0, 0] = hi if v >= hi else lo if v <= lo else v if type(v) is int else 0 if v != v \
                else int(v + copysign(0.5, v))
            return out
        # a row or a column (its C and F orders are one order) of a few elements
        if (shape[0] != 1 and shape[1] != 1) or not 0 < shape[0] * shape[1] <= _SHORT:
            return None
        xs = a.ravel().tolist() if ta is np.ndarray else [a]
        ys = b.ravel().tolist() if tb is np.ndarray else [b]
        exact = op in _EXACT_OPS
        if exact and ta is not tb:  # a whole double scalar: as its integer
            d = a if ta is float else b
            if d.is_integer():
                xs, ys = ([int(d)], ys) if ta is float else (xs, [int(d)])
            else:
                exact = False
        if len(xs) != len(ys):  # one of them is a scalar
            xs, ys = (xs * len(ys), ys) if len(xs) == 1 else (xs, ys * len(xs))
        if exact:  # + - .* of integers: exact, so only saturated
            values = [hi if v > hi else lo if v < lo else v for v in map(op, xs, ys)]
        else:  # computed in double, converted as for two scalars
            values = [hi if v >= hi else lo if v <= lo else 0 if v != v else int(v + copysign(0.5, v))
                      for v in map(op, xs, ys)]
    except ZeroDivisionError:
        return None
    if shape[0] == 1:
        return np.array([values], dtype=dt)
    return np.array(values, dtype=dt).reshape(shape)


_LARGEST_WHOLE_POWER = 64.0  # (2**64 is past every limit: larger powers saturate just the same)


def _short_power(a: object, p: object) -> np.ndarray | None:
    """``a .^ p`` of a scalar, row or column of at most 16 elements of an integer class of at
    most 32 bits and a whole double exponent from 0 to 64, in exact Python integers: the
    general path's power in double is within half of the exact integer where that is in the
    class's limits (so it rounds to it) and past the limits where it is (so it saturates
    alike).  None for anything else."""
    if type(a) is not np.ndarray or type(p) is not float or not 0.0 <= p <= _LARGEST_WHOLE_POWER \
            or not p.is_integer() or a.ndim != 2:
        return None
    limits = NARROW_INT_LIMITS.get(a.dtype)
    shape = a.shape
    if limits is None or (shape[0] != 1 and shape[1] != 1) or not 0 < a.size <= _SHORT:
        return None
    lo, hi = limits
    n = int(p)
    values = [hi if v > hi else lo if v < lo else v for v in (x ** n for x in a.ravel().tolist())]
    return np.array(values, dtype=a.dtype).reshape(shape)
