"""Class conversion and element-wise application: cast (to a class by name or
'like' a prototype), typecast (the same bytes read as another class), bsxfun (a
binary function with singleton expansion) and shiftdim (dimensions shifted)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import integer_scalar, text_option, text_or_none
from mlang.builtins.data.shape import padded, rewrap_shaped, shape_of
from mlang.errors import error
from mlang.registry import BUILTINS, builtin
from mlang.values.core import (
    DTYPE_OF_CLASS,
    NUMERIC_CLASSES,
    class_of,
    fix_shape,
    result,
    to_array,
)
from mlang.values.handle import FunctionHandle
from mlang.values.indexing import data_of
from mlang.values.operators import ARITHMETIC_CLASSES

# ---------------------------------------------------------------------- cast

_CAST_CLASSES = (*NUMERIC_CLASSES, "logical", "char")


@builtin()
def cast(a: Any, *spec: Any) -> object:
    """B = cast(A,newclass)
    B = cast(A,'like',p)

    Convert A to the class newclass ('double', 'single', 'int8', ..., 'uint64',
    'logical' or 'char'), with the rules of the conversion function of that class
    (integers round to nearest and saturate); with 'like', to the class and
    complexity of p."""
    if len(spec) == 2 and text_option(spec[0]) == "like":
        prototype = spec[1]
        cls = class_of(prototype)
        if cls not in _CAST_CLASSES:
            raise error("MATLAB:cast:UnsupportedPrototype",
                        f"Unsupported prototype class '{cls}'.")
        out = BUILTINS[cls].fn(a)
        if cls in ("double", "single") and to_array(prototype).dtype.kind == "c":
            # a complex prototype makes the result complex, with zero imaginary parts
            x = to_array(out)
            return x.astype(np.complex64 if cls == "single" else np.complex128)
        return out
    if len(spec) != 1:
        raise error("MATLAB:minrhs" if not spec else "MATLAB:TooManyInputs",
                    "Not enough input arguments." if not spec else "Too many input arguments.")
    name = text_or_none(spec[0])
    if name is None:
        raise error("MATLAB:cast:ClassNameMustBeText",
                    "Class name must be a character vector or string scalar.")
    if name not in _CAST_CLASSES:
        raise error("MATLAB:cast:UnsupportedClass", f"Unsupported data type '{name}'.")
    return BUILTINS[name].fn(a)


# ------------------------------------------------------------------ typecast


@builtin()
def typecast(x: Any, *spec: Any) -> object:
    """Y = typecast(X,newtype)
    Y = typecast(X,'like',p)

    Reinterpret the bytes of the numeric scalar or vector X as the numeric class
    newtype (or the class and complexity of p), without changing them
    (little-endian, as on every platform MATLAB runs on; complex values are
    their interleaved real and imaginary parts). A column vector gives a column
    vector, a row or scalar a row; the bytes must fill whole elements of the new
    type."""
    complex_out = False
    if len(spec) == 2 and text_option(spec[0]) == "like":
        name = class_of(spec[1])
        complex_out = name in NUMERIC_CLASSES and to_array(spec[1]).dtype.kind == "c"
    elif len(spec) == 1:
        name = text_or_none(spec[0])
    else:
        raise error("MATLAB:minrhs" if not spec else "MATLAB:TooManyInputs",
                    "Not enough input arguments." if not spec else "Too many input arguments.")
    if class_of(x) not in NUMERIC_CLASSES:
        raise error("MATLAB:typecast:nonNumericInput",
                    "The first input argument must be a full numeric value.")
    if name not in NUMERIC_CLASSES:
        raise error("MATLAB:typecast:unsupportedOutputClass",
                    "The new type must be a numeric class name: 'single', 'double', 'int8', "
                    "'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64' or 'uint64'.")
    target = DTYPE_OF_CLASS[name]
    if complex_out:
        if target.kind != "f":
            raise error("MATLAB:typecast:complexInteger", "Complex integer types are not supported.")
        target = np.dtype(np.complex64 if name == "single" else np.complex128)
    a = to_array(x)
    if a.ndim != 2 or min(a.shape) > 1:
        raise error("MATLAB:typecast:inputMustBeVector", "The first input argument must be a vector.")
    raw = np.ascontiguousarray(a.reshape(-1)).astype(a.dtype.newbyteorder("<"), copy=False)
    if raw.nbytes % target.itemsize:
        raise error("MATLAB:typecast:notEnoughInputElements",
                    "Too few input values to make output type.")
    values = raw.view(target.newbyteorder("<")).astype(target)
    column = a.shape[1] == 1 and a.shape[0] != 1
    shaped = values.reshape(-1, 1) if column else values.reshape(1, -1)
    return shaped if complex_out else result(shaped)


# -------------------------------------------------------------------- bsxfun

# Functions that already apply element by element with implicit expansion: called
# once with the inputs as they are.
_EXPANDING = frozenset({
    "plus", "minus", "times", "rdivide", "ldivide", "power", "max", "min", "rem", "mod",
    "atan2", "atan2d", "hypot", "eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor",
})


@builtin(interp=True)
def bsxfun(interp: Any, fn: Any, a: Any, b: Any) -> object:
    """C = bsxfun(fun,A,B)

    Apply the element-wise binary function fun (a function handle) to A and B,
    expanding their singleton dimensions to match: each dimension of A and B
    must be equal or 1."""
    if type(fn) is not FunctionHandle:
        raise error("MATLAB:bsxfun:invalidFunction", "First argument must be a function handle.")
    for v in (a, b):
        if class_of(v) not in ARITHMETIC_CLASSES:
            raise error("MATLAB:bsxfun:invalidInputType",
                        f"Operands must be numeric, logical or char arrays, not {class_of(v)}.")
    sa, sb = shape_of(a), shape_of(b)
    ndim = max(len(sa), len(sb))
    sa, sb = sa + (1,) * (ndim - len(sa)), sb + (1,) * (ndim - len(sb))
    if any(x != y and x != 1 and y != 1 for x, y in zip(sa, sb, strict=True)):
        raise error("MATLAB:bsxfun:arrayDimensionsMustMatch",
                    "Non-singleton dimensions of the two input arrays must match each other.")
    shape = tuple(0 if 0 in (x, y) else max(x, y) for x, y in zip(sa, sb, strict=True))
    if not fn.is_anonymous and fn.name in _EXPANDING:
        return interp.call_value(fn, [a, b], 1)[0]
    full = [result(np.broadcast_to(padded(to_array(v), ndim), shape).copy()) for v in (a, b)]
    out = interp.call_value(fn, full, 1)
    if not out:
        raise error("MATLAB:bsxfun:NoOutput", "The function must return an output.")
    if fix_shape(shape_of(out[0])) != fix_shape(shape):
        raise error("MATLAB:bsxfun:invalidOutputSize",
                    "The function must return an output of the expanded size of the inputs.")
    return out[0]


# ------------------------------------------------------------------ shiftdim


@builtin(max_out=2, nargout=True)
def shiftdim(a: Any, n: Any = None, *, nargout: int = 1) -> object:
    """B = shiftdim(A,n)
    [B,m] = shiftdim(A)

    Shift dimensions: a positive n moves the first n dimensions to the end
    (wrapping around), a negative n prepends -n singleton dimensions; without n,
    leading singleton dimensions are removed and m is how many."""
    data = data_of(a)
    if n is None:
        shifts = next((k for k, d in enumerate(data.shape) if d != 1), 0)
        shifted = _shifted(a, data, shifts)
        return (shifted, float(shifts)) if nargout > 1 else shifted
    count = integer_scalar(n, "Number of dimensions to shift must be an integer scalar.",
                           "MATLAB:shiftdim:InvalidShift")
    shifted = _shifted(a, data, count)
    return (shifted, float(count)) if nargout > 1 else shifted


def _shifted(a: Any, data: np.ndarray, count: int) -> object:
    if count == 0:
        return a
    if count < 0:
        if data.ndim - count > 64:  # before making the shape: -count may be huge
            raise error("MATLAB:array:SizeLimitExceeded",
                        "Arrays with more than 64 dimensions are not supported.")
        return rewrap_shaped(a, data.reshape((1,) * -count + data.shape))
    ndim = data.ndim
    count %= ndim
    order = list(range(count, ndim)) + list(range(count))
    return rewrap_shaped(a, np.transpose(data, order))
