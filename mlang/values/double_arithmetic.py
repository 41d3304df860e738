"""Element-wise arithmetic of double arrays: MATLAB's power (complex where a negative base
meets a fractional exponent), the operator table of ``elementwise``, and the direct paths of a
2-D double array with a double scalar or with a double array of its size, which give the
general path's values without its conversions (and without NumPy's error state where no
element can warn)."""

from __future__ import annotations

import numpy as np

from mlang.values.core import result


def power(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x .^ y of two aligned floating arrays, complex only where a negative base has a
    finite fractional exponent."""
    if y.size == 1 and y.dtype.kind == "f" and x.dtype.kind == "f":
        p = y.reshape(-1)[0].item()
        if p == 2.0:
            return np.square(x)  # the most common power: one input stream, the same values as x.*x
        if p.is_integer():  # no complex results possible: a scalar exponent keeps NumPy fast
            with np.errstate(all="ignore"):
                return np.power(x, y.dtype.type(p))
    if x.dtype.kind == "f" and y.dtype.kind == "f" and (x.size == 0 or not np.fmin.reduce(x, axis=None) < 0):
        # no negative base (NaN aside), so no complex power: one read of x, not three masks
        with np.errstate(all="ignore"):
            return np.power(x, y)
    with np.errstate(all="ignore"):
        if x.dtype.kind == "f" and y.dtype.kind == "f":
            # A negative base to a finite non-integer power is complex ((-8)^(1/3));
            # only those elements are computed as complex, so the others stay exact.
            complex_at = (x < 0) & (y != np.trunc(y)) & np.isfinite(y)
            if complex_at.any():
                ctype = np.complex128 if np.float64 in (x.dtype, y.dtype) else np.complex64
                out = np.power(x, y).astype(ctype)
                xb, yb = np.broadcast_arrays(x, y)
                out[complex_at] = np.power(xb[complex_at].astype(ctype), yb[complex_at])
                return out
        return np.power(x, y)


def _ldivide(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x .\\ y: y divided by x."""
    return np.true_divide(y, x)


ARITH = {
    "+": np.add, "-": np.subtract, ".*": np.multiply, "./": np.true_divide,
    ".\\": _ldivide, ".^": power,
}


FAST_ARITH = {"+": np.add, "-": np.subtract, ".*": np.multiply}
F64 = np.dtype(np.float64)
SHORT_ROW = 8  # (elements: up to this many, a row is quicker in Python floats than in NumPy)
LARGEST = float(np.finfo(np.float64).max)
SQUARE_BOUND = 1e154  # (squares of doubles below this in magnitude are finite)


def quick_double(symbol: str, a: np.ndarray, b: object) -> object:
    """``a <symbol> b`` of a 2-D double array and a double scalar or a double array of its
    shape, as the general path computes it; None when that path is needed."""
    tb = type(b)
    if tb is float:
        fast = FAST_ARITH.get(symbol)
        if fast is not None:
            out = fast(a, b)
            return float(out[0, 0]) if out.size == 1 else out
        if symbol == "./":
            if 1.0 <= abs(b) <= LARGEST:  # no division by zero, no overflow, no Inf/Inf
                out = a / b
                return float(out[0, 0]) if out.size == 1 else out
            if b != 0.0 and a.shape[0] == 1 and a.shape[1] <= SHORT_ROW:
                return row_value([x / b for x in a.tolist()[0]])  # Python's quotients never warn
        elif symbol == ".^" and b == 2.0:
            if 0 < a.size <= SHORT_ROW:
                values = a.ravel().tolist()  # (NaN first makes min NaN: the error state below)
                if -SQUARE_BOUND < min(values) and max(values) < SQUARE_BOUND:
                    out = np.square(a)  # no element can overflow, so NumPy warns of nothing
                    return float(out[0, 0]) if out.size == 1 else out
            with np.errstate(over="ignore"):
                out = np.square(a)
            return float(out[0, 0]) if out.size == 1 else out
        elif symbol == ".^":
            return _power_of_scalar(a, b)
        return None
    if tb is np.ndarray and b.dtype is F64 and b.shape == a.shape and symbol == "./":
        if 0 < a.size <= SHORT_ROW:
            # (NaN first makes min or max NaN, which fails these tests: the error state below)
            smallest = min(map(abs, b.ravel().tolist()))
            largest = max(map(abs, a.ravel().tolist()))
            if smallest > 0.0 and largest <= LARGEST and largest <= smallest * 1e307:
                out = a / b  # no zero divisor, no Inf/Inf, no overflow: NumPy warns of nothing
                return float(out[0, 0]) if out.size == 1 else out
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = a / b
        return float(out[0, 0]) if out.size == 1 else out
    return None


def row_value(values: list[float]) -> object:
    """A row of doubles computed in Python as a MATLAB value (one is a double scalar)."""
    return values[0] if len(values) == 1 else np.array([values], dtype=np.float64)


def _power_of_scalar(a: np.ndarray, p: float) -> object:
    """a .^ p as power computes it, where the result is real (a whole exponent, or no negative
    element); None otherwise."""
    whole = p.is_integer()
    if not whole and _any_negative(a):
        return None
    exponent = F64.type(p)  # (broadcast as power's 1x1 array is: the same values)
    if 0 < a.size <= SHORT_ROW and -16.0 <= p <= 16.0 and _quiet_powers(a.ravel().tolist(), [p]):
        out = np.power(a, exponent)
    else:
        with np.errstate(all="ignore"):
            out = np.power(a, exponent)
    return float(out[0, 0]) if out.size == 1 else out


def _any_negative(a: np.ndarray) -> bool:
    """Whether an element is below zero (NaN is not), as ``np.fmin.reduce(a) < 0`` tells."""
    if a.size <= SHORT_ROW:
        return any(v < 0.0 for v in a.ravel().tolist())
    return bool(np.fmin.reduce(a, axis=None) < 0)


def _quiet_powers(bases: list[float], exponents: list[float]) -> bool:
    """Whether NumPy raises every one of these bases (none negative unless the exponents are
    whole) to every one of these exponents without a floating-point warning: with bases of
    magnitude at most 1e15 (at least 1e-15 for a negative exponent) and exponents within
    16 of zero, every power is finite and none divides by zero.  (NaN first in a list makes
    its minimum or maximum NaN, which fails the test; NaN elsewhere never warns.)"""
    low, high = min(exponents), max(exponents)
    if not (-16.0 <= low and high <= 16.0):
        return False
    magnitudes = list(map(abs, bases))
    return max(magnitudes) <= 1e15 and (low >= 0.0 or min(magnitudes) >= 1e-15)


def quick_scalar_first(symbol: str, a: float, b: np.ndarray) -> object:
    """``a <symbol> b`` of a double scalar and a 2-D double array, as the general path
    computes it; None when that path is needed."""
    fast = FAST_ARITH.get(symbol)
    if fast is not None:  # as NumPy does it
        out = fast(a, b)
        return float(out[0, 0]) if out.size == 1 else out
    if symbol == "./" and 0 < b.size <= SHORT_ROW:
        smallest = min(map(abs, b.ravel().tolist()))  # (NaN first: NaN, which fails the test)
        if smallest > 0.0 and abs(a) <= LARGEST and abs(a) <= smallest * 1e307:
            out = a / b  # no zero divisor, no Inf/Inf, no overflow: NumPy warns of nothing
            return float(out[0, 0]) if out.size == 1 else out
    elif symbol == ".^" and b.size != 1 and not a < 0.0:  # (a scalar exponent: power's own path)
        base = np.array([[a]])  # no negative base: real, as power makes it
        if 0 < b.size <= SHORT_ROW and _quiet_powers([a], b.ravel().tolist()):
            return np.power(base, b)
        with np.errstate(all="ignore"):
            return np.power(base, b)
    compute = ARITH.get(symbol)
    if compute is None:
        return None
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        values = compute(np.array([[a]]), b)
    return result(values)
