"""Element-wise arithmetic of double arrays: MATLAB's power (complex where a negative base
meets a fractional exponent), the operator table of ``elementwise``, and the direct paths of a
2-D double array with a double scalar or with a double array of its size, which give the
general path's values without its conversions.

MATLAB code runs with NumPy's floating-point warnings off (``Interpreter.running``): MATLAB
gives Inf, NaN or a saturated integer without a word, so nothing here silences them again."""

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
            return np.power(x, y.dtype.type(p))
    if x.dtype.kind == "f" and y.dtype.kind == "f" and (x.size == 0 or not np.fmin.reduce(x, axis=None) < 0):
        # no negative base (NaN aside), so no complex power: one read of x, not three masks;
        # a single exponent goes as a scalar, as the direct paths pass it (NumPy takes its
        # square root for 0.5 then whatever the base's size: (-0)^0.5 is -0 everywhere)
        return np.power(x, y.dtype.type(y.reshape(-1)[0]) if y.size == 1 else y)
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


FAST_ARITH = {"+": np.add, "-": np.subtract, ".*": np.multiply, "./": np.true_divide}
F64 = np.dtype(np.float64)
SHORT_ROW = 8  # (elements: up to this many, a row is quicker in Python floats than in NumPy)


def quick_double(symbol: str, a: np.ndarray, b: object) -> object:
    """``a <symbol> b`` of a 2-D double array and a double scalar or a double array of its
    shape, as the general path computes it; None when that path is needed."""
    tb = type(b)
    if tb is float:
        fast = FAST_ARITH.get(symbol)
        if fast is not None:
            out = fast(a, b)
        elif symbol == ".^":
            if b != 2.0:
                return _power_of_scalar(a, b)
            out = np.square(a)
        else:
            return None
        return float(out[0, 0]) if out.size == 1 else out
    if tb is np.ndarray and b.dtype is F64 and b.shape == a.shape and symbol == "./":
        out = a / b
        return float(out[0, 0]) if out.size == 1 else out
    return None


def _power_of_scalar(a: np.ndarray, p: float) -> object:
    """a .^ p as power computes it, where the result is real (a whole exponent, or no negative
    element); None otherwise."""
    if not p.is_integer() and _any_negative(a):
        return None
    out = np.power(a, F64.type(p))  # (broadcast as power's 1x1 array is: the same values)
    return float(out[0, 0]) if out.size == 1 else out


def _any_negative(a: np.ndarray) -> bool:
    """Whether an element is below zero (NaN is not), as ``np.fmin.reduce(a) < 0`` tells."""
    if a.size <= SHORT_ROW:
        return any(v < 0.0 for v in a.ravel().tolist())
    return bool(np.fmin.reduce(a, axis=None) < 0)


def quick_scalar_first(symbol: str, a: float, b: np.ndarray) -> object:
    """``a <symbol> b`` of a double scalar and a 2-D double array, as the general path
    computes it; None when that path is needed."""
    fast = FAST_ARITH.get(symbol)
    if fast is not None:  # as NumPy does it
        out = fast(a, b)
        return float(out[0, 0]) if out.size == 1 else out
    if symbol == ".^" and b.size != 1 and not a < 0.0:  # (a scalar exponent: power's own path)
        return np.power(np.array([[a]]), b)  # no negative base: real, as power makes it
    compute = ARITH.get(symbol)
    if compute is None:
        return None
    return result(compute(np.array([[a]]), b))
