"""Numeric class conversions (double, single, int8 … uint64, logical) and class
tests (isnumeric, isfloat, isinteger, islogical).

Conversions to integer classes round half away from zero and saturate; NaN
becomes 0.  Char converts through its character codes.
"""

from __future__ import annotations

import math
import re

import numpy as np

from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import INT_CLASSES, class_of, result, to_array, to_double_array
from mlang.values.operators import INT_LIMITS, to_class

NUMERIC = frozenset({"double", "single", *INT_CLASSES})
CONVERTIBLE = frozenset({*NUMERIC, "logical", "char"})


def _cannot_convert(target: str, v: object) -> Exception:
    return error("MATLAB:invalidConversion",
                 f"Conversion to {target} from {class_of(v)} is not possible.")


# A number as str2double reads it (real only): optional sign, digits with an
# optional fraction and exponent, or Inf/NaN.
_NUMBER = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?|inf|nan)", re.IGNORECASE)


def _text_to_double(text: str | None) -> float:
    if text is None:
        return float("nan")
    t = text.strip().replace(",", "")
    if not _NUMBER.fullmatch(t):
        return float("nan")
    return float(t.replace("d", "e").replace("D", "e"))


@builtin(gradient=lambda g, y, x: (g,))
def double(x: object) -> object:
    """Y = double(X)  convert to double precision; char gives character codes and
    a string array is read as numbers (like str2double)"""
    t = type(x)
    if t is float or t is complex:
        return x
    cls = class_of(x)
    if cls == "string":
        values = [_text_to_double(s) for s in x.data.ravel(order="F")]  # type: ignore[attr-defined]
        return result(np.array(values, dtype=np.float64).reshape(x.data.shape, order="F"))  # type: ignore[attr-defined]
    if cls == "missing":  # MATLAB's standard missing value is NaN as a number
        return result(np.full(x.shape, np.nan))  # type: ignore[attr-defined]
    if cls not in CONVERTIBLE:
        raise _cannot_convert("double", x)
    return result(to_double_array(x))


@builtin(gradient=lambda g, y, x: (g,))
def single(x: object) -> object:
    """Y = single(X)  convert to single precision"""
    cls = class_of(x)
    if cls == "missing":
        return np.full(x.shape, np.nan, dtype=np.float32)  # type: ignore[attr-defined]
    if cls not in CONVERTIBLE:
        raise _cannot_convert("single", x)
    if cls == "single":
        return x
    a = to_double_array(x)
    return a.astype(np.complex64 if a.dtype.kind == "c" else np.float32)


def _to_integer(cls: str, x: object) -> np.ndarray:
    if type(x) is float:  # the common case, without array machinery
        lo, hi = INT_LIMITS[cls]
        if x != x:
            v = 0
        elif x >= hi:
            v = hi
        elif x <= lo:
            v = lo
        else:
            v = math.trunc(x)
            if abs(x - v) >= 0.5:
                v += 1 if x > 0 else -1
        return np.full((1, 1), v, dtype=np.dtype(cls))
    source = class_of(x)
    if source not in CONVERTIBLE:
        raise _cannot_convert(cls, x)
    if source == cls:
        return x  # type: ignore[return-value]
    a = to_array(x)
    if a.dtype.kind == "c":
        raise error("MATLAB:invalidConversion", "Complex integer values are not supported.")
    if a.dtype.kind in "iub":
        return to_class(a, cls)
    return to_class(to_double_array(a), cls)


def _register_integer(cls: str) -> None:
    def convert(x: object) -> np.ndarray:
        return _to_integer(cls, x)

    convert.__name__ = cls
    low, high = np.iinfo(cls).min, np.iinfo(cls).max
    builtin(cls, help=f"Y = {cls}(X)  convert to {cls}: values round to the nearest integer "
                      f"(ties away from zero) and saturate to [{low}, {high}]; NaN becomes 0")(convert)


for _cls in INT_CLASSES:
    _register_integer(_cls)


@builtin(dl="constant")
def logical(x: object) -> object:
    """L = logical(A)  convert numeric values to logical: nonzero is true (NaN is an error)"""
    t = type(x)
    if t is bool:
        return x
    if t is float:
        if x != x:
            raise error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        return x != 0
    cls = class_of(x)
    if cls == "logical":
        return x
    if cls not in NUMERIC:
        raise _cannot_convert("logical", x)
    a = to_array(x)
    if a.dtype.kind == "c":
        raise error("MATLAB:logical:complexConversion",
                    "Complex values cannot be converted to logicals.")
    if a.dtype.kind == "f" and np.isnan(a).any():
        raise error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
    return result(a != 0)


@builtin(dl="data")
def isnumeric(x: object) -> bool:
    """tf = isnumeric(A)  true for double, single and the integer classes"""
    return class_of(x) in NUMERIC


@builtin(dl="data")
def isfloat(x: object) -> bool:
    """tf = isfloat(A)  true for double and single"""
    return class_of(x) in ("double", "single")


@builtin(dl="data")
def isinteger(x: object) -> bool:
    """tf = isinteger(A)  true for the integer classes (int8 … uint64), not for
    integer-valued doubles"""
    return class_of(x) in INT_CLASSES


@builtin(dl="data")
def islogical(x: object) -> bool:
    """tf = islogical(A)  true for logical values"""
    return class_of(x) == "logical"
