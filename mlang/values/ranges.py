"""The colon operator ``a:b`` / ``a:step:b``."""

from __future__ import annotations

import math

import numpy as np

from mlang.errors import error
from mlang.values.core import CHAR, INT_CLASSES, char_from_codes, class_of, scalar_value, to_double_array
from mlang.values.limits import MAX_ELEMENTS, check_array_size, too_many_elements
from mlang.values.operators import to_class


def colon_range(start: object, step: object, stop: object) -> object:
    """MATLAB's ``start:step:stop`` as a 1×n row (1×0 when empty)."""
    if type(start) is float and type(step) is float and type(stop) is float:
        return _double_range(start, step, stop)
    classes = {class_of(start), class_of(step), class_of(stop)}
    for v in (start, step, stop):
        if type(v) is not float and getattr(v, "size", 1) == 0:
            return np.zeros((1, 0))
    a, s, b = (_first(v) for v in (start, step, stop))
    if isinstance(a, complex) or isinstance(s, complex) or isinstance(b, complex):
        a, s, b = a.real, s.real, b.real  # MATLAB uses the real parts
    count = range_length(a, s, b)
    if count == 0:
        values = np.zeros((1, 0))
    else:
        check_array_size((1, count))
        values = (a + s * np.arange(count, dtype=np.float64)).reshape(1, -1)
        if (s > 0 and values[0, -1] > b) or (s < 0 and values[0, -1] < b):
            values[0, -1] = b
    if "char" in classes and classes <= {"char", "double"}:
        return char_from_codes(values) if values.size else \
            np.zeros((1, 0), dtype=CHAR)
    ints = classes & set(INT_CLASSES)
    if ints:
        return to_class(values, ints.pop())
    if "single" in classes:
        return values.astype(np.float32)
    if values.size == 1:
        return float(values[0, 0])
    return values


def _double_range(a: float, s: float, b: float) -> object:
    """``colon_range`` of three double scalars (what its general path gives them)."""
    count = range_length(a, s, b)
    if count == 0:
        return np.zeros((1, 0))
    if count == 1:
        return a + s * 0.0
    if count <= _SHORT:  # the same products and sums, in Python floats: no arrays to make
        numbers = [a + s * j for j in range(count)]
        last = numbers[-1]
        if (s > 0 and last > b) or (s < 0 and last < b):
            numbers[-1] = b
        return np.array([numbers])
    check_array_size((1, count))
    values = (a + s * np.arange(count, dtype=np.float64)).reshape(1, -1)
    if (s > 0 and values[0, -1] > b) or (s < 0 and values[0, -1] < b):
        values[0, -1] = b
    return values


_SHORT = 16


def double_range_length(a: object, s: object, b: object) -> int | None:
    """How many values a:s:b of finite double scalars has (None: another kind of range,
    made by colon_range)."""
    if type(a) is float and type(s) is float and type(b) is float and s != 0.0 \
            and math.isfinite(a) and math.isfinite(s) and math.isfinite(b):
        return range_length(a, s, b)
    return None


def range_length(a: float, s: float, b: float) -> int:
    """How many elements ``a:s:b`` has (real ends); MATLAB's error when too many to count."""
    if s == 0 or math.isnan(a) or math.isnan(s) or math.isnan(b) or (b - a) / s < 0:
        return 0
    count = (b - a) / s * (1 + 1e-15) + 1e-10  # tolerate rounding in the last step
    if not math.isfinite(count) or count > MAX_ELEMENTS:
        raise too_many_elements()
    return math.floor(count) + 1


def _first(v: object) -> float | complex:
    t = type(v)
    if t is float:
        return v  # type: ignore[return-value]
    if t is bool:
        return float(v)
    x = scalar_value(v) if getattr(v, "size", 1) == 1 else _first_element(v)
    return complex(x) if isinstance(x, complex) else float(x)


def _first_element(v: object) -> float:
    if not hasattr(v, "dtype"):
        raise error("MATLAB:colon:invalidType", f"Colon operands must be numeric, not {class_of(v)}.")
    return float(to_double_array(v).reshape(-1, order="F")[0].real)
