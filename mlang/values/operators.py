"""MATLAB's operators on numeric, logical and char values, with MATLAB's class rules.

* integer op double → integer (computed in double, rounded half away from
  zero, saturated); integers of different classes cannot mix;
* single op double → single; logical and char act as double;
* implicit expansion: dimensions of size 1 stretch (dimensions are aligned
  from the first, as MATLAB does, not from the last as NumPy does);
* complex results whose imaginary parts are all zero become real.

The evaluator handles double scalars (Python floats) inline before calling
these.  binary computes the next commonest operands directly (logical scalars with
doubles, a 2-D double array with a double scalar or with a double array of its size,
products of double matrices, short arrays of the integer classes up to 32 bits) with
exactly the general path's values; everything else takes the general path.  The
double-array and integer paths live in double_arithmetic.py and integer_arithmetic.py.
"""

from __future__ import annotations

import operator as py
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import error
from mlang.values import objects
from mlang.values.cell import Cell
from mlang.values.core import (
    CLASS_OF_DTYPE,
    INT_CLASSES,
    align,  # noqa: F401  (operators.align: MATLAB's dimension alignment)
    char_codes,
    class_of,
    numpy_agrees,
    result,
    to_array,
    to_double_array,
)
from mlang.values.double_arithmetic import (
    ARITH,
    F64,
    FAST_ARITH,
    SHORT_ROW,
    quick_double,
    quick_scalar_first,
)
from mlang.values.integer_arithmetic import (
    EXACT_NARROW,
    INT_LIMITS,
    NARROW_INT_LIMITS,
    check_sizes,
    exact_int64,
    int_clip,
    narrow_int_arithmetic,
    short_narrow_int,
    to_class,
)
from mlang.values.objects import OBJECT_KINDS
from mlang.values.solve import solve
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.text import number_text, string_binary

ARITHMETIC_CLASSES = frozenset({"double", "single", "logical", "char", *INT_CLASSES})


def _not_supported(symbol: str, a: object, b: object | None = None) -> Exception:
    bad = class_of(a) if class_of(a) not in ARITHMETIC_CLASSES or b is None else class_of(b)
    return error("MATLAB:UndefinedFunction",
                 f"Operator '{symbol}' is not supported for operands of type '{bad}'.")


def result_class(a: object, b: object, symbol: str) -> str:
    ca, cb = class_of(a), class_of(b)
    if ca not in ARITHMETIC_CLASSES or cb not in ARITHMETIC_CLASSES:
        raise _not_supported(symbol, a, b)
    a_int = ca in INT_LIMITS
    b_int = cb in INT_LIMITS
    if a_int or b_int:
        if a_int and b_int and ca != cb:
            raise error("MATLAB:mixedClasses",
                        "Integers can only be combined with integers of the same class, "
                        "or scalar doubles.")
        return ca if a_int else cb
    if ca == "single" or cb == "single":
        return "single"
    return "double"


def as_class(v: object, cls: str) -> np.ndarray:
    """The elements of a numeric, logical or char value as an array of class ``cls``
    (MATLAB's conversion rules; the array itself when it already is of that class)."""
    a = to_array(v)
    if class_of(v) == cls:
        return a
    if cls == "char":
        return a if a.dtype.kind == "V" else to_class(a, "char")
    src = char_codes(a).astype(np.float64) if a.dtype.kind == "V" else a
    if cls == "double":
        return src.astype(np.complex128 if src.dtype.kind == "c" else np.float64)
    if cls == "single":
        return src.astype(np.complex64 if src.dtype.kind == "c" else np.float32)
    if cls == "logical":
        return src != 0
    return to_class(src, cls)


def _numbers(v: object, cls: str) -> np.ndarray:
    """Operand values to compute with: float64/complex128, or float32 for single."""
    a = to_double_array(v) if type(v) is not np.ndarray or v.dtype.kind in "Vbiu" else v
    if cls == "single":
        return a.astype(np.complex64 if a.dtype.kind == "c" else np.float32, copy=False)
    if a.dtype == np.float32 or a.dtype == np.complex64:
        return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    return a


# ------------------------------------------------------------ element-wise


def _is_mask(v: object) -> bool:
    return type(v) is np.ndarray and v.dtype == np.bool_


COMPARE = {"==": np.equal, "~=": np.not_equal, "<": np.less, "<=": np.less_equal,
           ">": np.greater, ">=": np.greater_equal}
LOGICAL = {"&": np.logical_and, "|": np.logical_or}
# Double scalars are Python floats: these operators compute two of them directly, where the
# guard (if any) allows and Python neither overflows nor divides by zero; comparisons give a
# Python bool (a logical scalar).
def scalar_power(a: float, b: float) -> float:
    """a ^ b of two double scalars (a real result), by NumPy's power as an array's elements
    are raised: Python's pow can differ from it in the last bit (NumPy's vector loops), and
    x^3 in a loop must equal the elements of v.^3."""
    return float(np.power(a, b))


SCALAR_OPS: dict[str, Callable[[float, float], Any]] = {
    "+": py.add, "-": py.sub, "*": py.mul, ".*": py.mul,
    "/": py.truediv, "./": py.truediv, ".\\": lambda a, b: b / a, "^": scalar_power, ".^": scalar_power,
    "==": py.eq, "~=": py.ne, "<": py.lt, "<=": py.le, ">": py.gt, ">=": py.ge,
}
SCALAR_GUARDS: dict[str, Callable[[float, float], bool]] = {
    "/": lambda a, b: b != 0.0, "./": lambda a, b: b != 0.0, ".\\": lambda a, b: a != 0.0,
    "^": lambda a, b: a >= 0.0 or b.is_integer(), ".^": lambda a, b: a >= 0.0 or b.is_integer(),
}


_MASK = np.dtype(np.bool_)  # (a logical array with a double scalar: NumPy makes it double itself)


def elementwise(symbol: str, a: object, b: object) -> object:
    """``a <symbol> b`` for an element-wise arithmetic operator."""
    if type(a) is np.ndarray and a.dtype is F64 and a.ndim == 2:
        quick = quick_double(symbol, a, b)
        if quick is not None:
            return quick
        compute = ARITH.get(symbol)
        if compute is not None and type(b) is float:  # the general path's steps, no conversions
            return result(compute(a, np.array([[b]])))
    elif type(a) is float and type(b) is np.ndarray and b.dtype is F64 and b.ndim == 2:
        quick = quick_scalar_first(symbol, a, b)
        if quick is not None:
            return quick
    elif (type(a) is np.ndarray and a.dtype in NARROW_INT_LIMITS) \
            or (type(b) is np.ndarray and b.dtype in NARROW_INT_LIMITS):
        quick = short_narrow_int(symbol, a, b)  # short integers, in Python numbers
        if quick is not None:
            return quick
    fast = FAST_ARITH.get(symbol)
    if fast is not None and numpy_agrees(a, b):
        return result(fast(a, b))
    string_result = _string_operator(symbol, a, b)
    if string_result is not None:
        return string_result
    cls = result_class(a, b, symbol)
    if cls == "int64" or cls == "uint64":
        exact = exact_int64(symbol, a, b, cls)
        if exact is not None:
            return exact
    if symbol in EXACT_NARROW and type(a) is np.ndarray and type(b) is np.ndarray \
            and a.dtype == b.dtype and a.dtype.kind in "iu" and a.dtype.itemsize <= 4:
        return narrow_int_arithmetic(symbol, a, b, cls)
    compute = "double" if cls in INT_LIMITS else cls
    if cls == "double" and _is_mask(a) != _is_mask(b):
        # a logical mask times doubles: NumPy promotes bool to float64 itself, sparing a pass
        x, y = align(a if _is_mask(a) else _numbers(a, compute), b if _is_mask(b) else _numbers(b, compute))
    else:
        x, y = align(_numbers(a, compute), _numbers(b, compute))
    check_sizes(x, y)
    values = ARITH[symbol](x, y)
    if cls in INT_LIMITS:
        if values.dtype.kind == "c" and values.imag.any():
            raise error("MATLAB:complexIntegerArithmetic",
                        "Complex integer arithmetic is not supported.")
        return result(to_class(values, cls))
    return result(values)


def compare(symbol: str, a: object, b: object) -> object:
    """``a <symbol> b`` for a relational operator: a logical array."""
    if type(a) is np.ndarray and a.dtype is F64 and a.ndim == 2:  # a double row and a scalar, say
        tb = type(b)
        if tb is float or (tb is np.ndarray and b.dtype is F64 and b.shape == a.shape):
            out = COMPARE[symbol](a, b)
            return bool(out[0, 0]) if out.size == 1 else out
    elif type(a) is float and type(b) is np.ndarray and b.dtype is F64 and b.ndim == 2:
        out = COMPARE[symbol](a, b)
        return bool(out[0, 0]) if out.size == 1 else out
    elif _narrow_ints_compared(a, b):
        # an integer array of at most 32 bits with a double scalar (compared in double, as NumPy
        # promotes them: exact) or with an array of its class and size (exact in the class)
        out = COMPARE[symbol](a, b)
        return bool(out[0, 0]) if out.size == 1 else out
    string_result = _string_operator(symbol, a, b)
    if string_result is not None:
        return string_result
    result_class(a, b, symbol)  # only for the type checks
    x, y = align(_compared(a), _compared(b))
    check_sizes(x, y)
    if symbol not in ("==", "~=") and (x.dtype.kind == "c" or y.dtype.kind == "c"):
        x, y = x.real, y.real  # MATLAB orders complex numbers by their real parts
    return result(COMPARE[symbol](x, y))


def _narrow_ints_compared(a: object, b: object) -> bool:
    """Whether compare's operands are a 2-D array of an integer class of at most 32 bits and a
    double scalar (either way round), or two such arrays of one class and size."""
    ta, tb = type(a), type(b)
    if ta is np.ndarray:
        if a.ndim != 2 or a.dtype not in NARROW_INT_LIMITS:
            return False
        return tb is float or (tb is np.ndarray and b.dtype is a.dtype and b.shape == a.shape)
    return ta is float and tb is np.ndarray and b.ndim == 2 and b.dtype in NARROW_INT_LIMITS


def _compared(v: object) -> np.ndarray:
    """An operand of a relational operator: char as its codes (no conversion to double)."""
    if type(v) is np.ndarray and v.dtype.kind == "V":
        return char_codes(v)
    return to_double_array(v)


def logical_scalar(v: object) -> bool | None:
    """The truth of a double scalar that is not NaN or of a logical scalar (Python float
    or bool); None for anything else (the array path then converts and checks it)."""
    t = type(v)
    if t is bool:
        return v  # type: ignore[return-value]
    if t is float and v == v:
        return v != 0.0
    return None


def logical_op(symbol: str, a: object, b: object) -> object:
    """``a & b`` / ``a | b``: element-wise logical operators."""
    x, y = logical_scalar(a), logical_scalar(b)
    if x is not None and y is not None:  # two scalars: a logical scalar
        return (x and y) if symbol == "&" else (x or y)
    x = _quick_mask(a) if x is None else x
    y = _quick_mask(b) if y is None else y
    if x is not None and y is not None and (type(x) is bool or type(y) is bool or x.shape == y.shape):
        out = LOGICAL[symbol](x, y)  # (a logical scalar broadcasts as the general path's 1x1 does)
        return out.item() if out.size == 1 else out
    x, y = align(to_logical(a, symbol), to_logical(b, symbol))
    check_sizes(x, y)
    return result(LOGICAL[symbol](x, y))


def _quick_mask(v: object) -> np.ndarray | None:
    """A 2-D logical array, or a short 2-D double array without NaN, as an operand of NumPy's
    logical functions (which take nonzero as true, as to_logical does); None for anything else."""
    if type(v) is np.ndarray and v.ndim == 2:
        if v.dtype is _MASK:
            return v
        if v.dtype is F64 and 0 < v.size <= SHORT_ROW and all(x == x for x in v.ravel().tolist()):
            return v
    return None


def to_logical(v: object, symbol: str = "~") -> np.ndarray:
    a = to_array(v) if type(v) is not np.ndarray else v
    if class_of(v) not in ARITHMETIC_CLASSES:
        raise _not_supported(symbol, v)
    if a.dtype == np.bool_:
        return a
    if a.dtype.kind == "V":
        return char_codes(a) != 0
    if a.dtype.kind in "fc" and np.isnan(a).any():
        raise error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
    return a != 0


_ndarray = np.ndarray  # (a module name: binary tests types against it several times a call)

# a 2-D double array and a double scalar, or two of one size: NumPy's values are MATLAB's
# (computed as the element-wise path computes them, with no conversion)
SCALAR_BY_ARRAY_FAST = {"+": np.add, "-": np.subtract, ".*": np.multiply, "*": np.multiply, **COMPARE}
# a 2-D double array and a double scalar: division too (as quick_double divides)
ARRAY_BY_SCALAR_FAST = {**SCALAR_BY_ARRAY_FAST, "/": np.true_divide, "./": np.true_divide}
_SAME_SHAPE_FAST = {"+": np.add, "-": np.subtract, ".*": np.multiply, **COMPARE}
# an array and a double scalar: the matrix operator is the element-wise one
_ARRAY_BY_SCALAR = {"+": "+", "-": "-", ".*": ".*", "*": ".*", "./": "./", "/": "./", ".^": ".^"}


def binary(symbol: str, a: object, b: object) -> object:
    """Any binary operator by its MATLAB symbol."""
    ta, tb = type(a), type(b)
    if (ta is float or ta is bool) and (tb is float or tb is bool):
        # double scalars as the evaluator computes them; a logical scalar acts as a double
        # (true + true is 2), and comparisons give a logical scalar
        scalar = SCALAR_OPS.get(symbol)
        if scalar is not None:
            x = a if ta is float else float(a)
            y = b if tb is float else float(b)
            guard = SCALAR_GUARDS.get(symbol)
            if guard is None or guard(x, y):
                try:
                    return scalar(x, y)
                except (OverflowError, ZeroDivisionError):
                    pass
    elif ta is _ndarray and tb is float:
        dtype = a.dtype
        if dtype is F64 and a.ndim == 2:  # the commonest case, computed here
            fast = ARRAY_BY_SCALAR_FAST.get(symbol)
            if fast is not None:
                out = fast(a, b)
                return out.item() if out.size == 1 else out  # a 1x1 result: a float or a bool
            if symbol == ".^":
                if b == 2.0:  # (as quick_double squares, without its dispatch)
                    out = np.square(a)
                    return out.item() if out.size == 1 else out
                quick = quick_double(symbol, a, b)
                if quick is not None:  # (None: a complex power, the general path's)
                    return quick
        elif dtype is _MASK and a.ndim == 2:
            fast = SCALAR_BY_ARRAY_FAST.get(symbol)
            if fast is not None:
                out = fast(a, b)
                return out.item() if out.size == 1 else out
        scalar_symbol = _ARRAY_BY_SCALAR.get(symbol)
        if scalar_symbol is not None:  # the same as the matrix operator, spared its checks
            if a.dtype in NARROW_INT_LIMITS:
                quick = short_narrow_int(scalar_symbol, a, b)  # (elementwise's first step)
                if quick is not None:
                    return quick
            return elementwise(scalar_symbol, a, b)
    elif ta is _ndarray and tb is _ndarray and a.dtype is F64 and b.dtype is F64 \
            and a.ndim == 2 and b.ndim == 2:
        if a.shape == b.shape:
            fast = _SAME_SHAPE_FAST.get(symbol)  # two double arrays of one size
            if fast is not None:
                out = fast(a, b)
                return out.item() if out.size == 1 else out
            if symbol == "./":
                return quick_double(symbol, a, b)  # (which divides two of one size itself)
        if symbol == "*" and a.shape[1] == b.shape[0] and a.size != 1 and b.size != 1:
            out = matrix_product(a, b)  # mtimes of two double matrices, spared its class checks
            return float(out[0, 0]) if out.size == 1 else out
    elif ta is _ndarray and tb is _ndarray and a.dtype is b.dtype and a.dtype in NARROW_INT_LIMITS:
        # two arrays of one integer class: * and / are element-wise with a scalar (mtimes, mrdivide)
        element_symbol = symbol if symbol != "*" and symbol != "/" else \
            ".*" if symbol == "*" and (a.size == 1 or b.size == 1) else \
            "./" if symbol == "/" and b.size == 1 else None
        if element_symbol is not None:
            quick = short_narrow_int(element_symbol, a, b)  # (elementwise's first step)
            if quick is not None:
                return quick
    elif ta is float and tb is _ndarray:
        if b.dtype is F64 and b.ndim == 2:  # a double scalar and a double array: as NumPy does it
            fast = SCALAR_BY_ARRAY_FAST.get(symbol)
            if fast is not None:
                out = fast(a, b)
                return out.item() if out.size == 1 else out
        elif b.dtype in NARROW_INT_LIMITS and (symbol != "/" or b.size == 1):
            quick = short_narrow_int(_ARRAY_BY_SCALAR.get(symbol, symbol), a, b)  # (as elementwise)
            if quick is not None:
                return quick
        if symbol == "*":
            return elementwise(".*", a, b)  # a double scalar times an array: the same as mtimes
    if ta is StringArray or tb is StringArray:
        fn = _STRING_SCALAR_OPS.get(symbol)
        if fn is not None:  # "item" + i, s == "x": two scalars need no arrays
            quick = _string_scalars(symbol, fn, a, b)
            if quick is not None:
                return quick
    if ta in OBJECT_KINDS or tb in OBJECT_KINDS:
        out = objects.binary_operator(symbol, a, b)
        if out is not NotImplemented:
            return out
    if symbol in ARITH:
        return elementwise(symbol, a, b)
    if symbol in COMPARE:
        return compare(symbol, a, b)
    if symbol in LOGICAL:
        return logical_op(symbol, a, b)
    return MATRIX[symbol](a, b)


# --------------------------------------------------------------- unary


def uminus(a: object) -> object:
    t = type(a)
    if t is float or t is complex:
        return -a
    if t is np.ndarray and a.dtype is F64 and a.ndim == 2 and a.size != 1:
        return -a  # a double array (1x1 arrays take the general path, which makes them floats)
    if t is np.ndarray and a.ndim == 2 and a.dtype in NARROW_INT_LIMITS:
        lo = NARROW_INT_LIMITS[a.dtype][0]  # -intmin saturates to intmax; unsigned classes give 0
        return np.negative(np.maximum(a, lo + 1)) if lo else np.zeros_like(a)
    if t in OBJECT_KINDS:
        out = objects.unary_operator("-", a)
        if out is not NotImplemented:
            return out
    cls = class_of(a)
    if cls not in ARITHMETIC_CLASSES:
        raise _not_supported("-", a)
    if cls in INT_LIMITS:
        # exact negation, saturated: -intmin is intmax
        wide = a.astype(object) if a.dtype.itemsize == 8 else a.astype(np.int64)
        return result(int_clip(-wide, cls))
    if cls in ("double", "single") and t is np.ndarray:
        return result(-a)
    return result(-to_double_array(a))


def uplus(a: object) -> object:
    if type(a) in OBJECT_KINDS:
        out = objects.unary_operator("+", a)
        if out is not NotImplemented:
            return out
    cls = class_of(a)
    if cls not in ARITHMETIC_CLASSES:
        raise _not_supported("+", a)
    if cls in ("logical", "char"):
        return result(to_double_array(a))
    return a


def logical_not(a: object) -> object:
    if type(a) is bool:
        return not a
    if type(a) is float and a == a:
        return a == 0.0
    if type(a) is np.ndarray and a.size != 1:  # (a 1x1 result would be a logical scalar)
        mask = _quick_mask(a)
        if mask is not None:
            return np.logical_not(mask)
    if type(a) in OBJECT_KINDS:
        out = objects.unary_operator("~", a)
        if out is not NotImplemented:
            return out
    return result(~to_logical(a))


def transpose(a: object, conjugate: bool = False) -> object:
    t = type(a)
    if t is np.ndarray and a.dtype is F64 and a.ndim == 2 and a.size != 1:
        return a.T.copy()  # a real double matrix, as below (1x1 arrays become floats there)
    if t is float or t is bool:
        return a
    if t is complex:
        return a.conjugate() if conjugate else a
    if t in OBJECT_KINDS:
        out = objects.unary_operator("'" if conjugate else ".'", a)
        if out is not NotImplemented:
            return out
    if t is Struct:
        if a.elems.ndim > 2:
            raise _nd_transpose()
        return Struct(list(a.fields), a.elems.T.copy())
    if t is not np.ndarray and t is not Cell and t is not StringArray:
        raise _not_supported("'" if conjugate else ".'", a)
    data = a if t is np.ndarray else a.data
    if data.ndim > 2:
        raise _nd_transpose()
    out = data.T.copy()
    if conjugate and out.dtype.kind == "c":
        out = out.conj()
    if t is np.ndarray:
        return result(out)
    return type(a)(out)


def _nd_transpose() -> Exception:
    return error("MATLAB:transpose:NDArray", "Transpose on ND array is not defined. Use PERMUTE instead.")


UNARY = {"-": uminus, "+": uplus, "~": logical_not}


# ----------------------------------------------------------------- matrix


def _is_scalar(v: object) -> bool:
    t = type(v)
    return t is float or t is bool or t is complex or (t is np.ndarray and v.size == 1)


def _matrix_operands(a: object, b: object, symbol: str) -> tuple[np.ndarray, np.ndarray, str]:
    cls = result_class(a, b, symbol)
    if cls in INT_LIMITS:
        raise error("MATLAB:mtimes:integerNotSupported" if symbol == "*" else "MATLAB:integerNotSupported",
                    f"{_MATRIX_NAMES[symbol]} is not fully supported for integer classes. "
                    "At least one argument must be scalar.")
    x, y = _numbers(a, cls), _numbers(b, cls)
    if x.ndim > 2 or y.ndim > 2:
        raise error("MATLAB:mtimes:NDArray" if symbol == "*" else "MATLAB:NDArray",
                    "Arguments must be 2-D, or at least one argument must be scalar. "
                    "Use TIMES (.*) for elementwise multiplication.")
    return x, y, cls


_MATRIX_NAMES = {"*": "MTIMES (*)", "/": "MRDIVIDE (/)", "\\": "MLDIVIDE (\\)", "^": "MPOWER (^)"}


def mtimes(a: object, b: object) -> object:
    if _is_scalar(a) or _is_scalar(b):
        return elementwise(".*", a, b)
    x, y, _ = _matrix_operands(a, b, "*")
    if x.shape[1] != y.shape[0]:
        raise error("MATLAB:innerdim",
                    "Incorrect dimensions for matrix multiplication. Check that the number of "
                    "columns in the first matrix matches the number of rows in the second "
                    "matrix. To operate on each element of the matrix individually, use TIMES "
                    "(.*) for elementwise multiplication.")
    return result(matrix_product(x, y))


OUTER_PRODUCT_MIN = 4096  # (elements: below this the general product is as fast)


def matrix_product(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x @ y for 2-D arrays whose inner dimensions agree.  A real column times a row of one
    class is made by einsum, with the same bits (the product's sum starts from +0, so a -0
    product gives +0): matmul with one inner dimension takes no BLAS route and is several
    times slower."""
    if x.ndim == 2 and x.shape[1] == 1 and y.ndim == 2 and x.shape[0] * y.shape[1] >= OUTER_PRODUCT_MIN \
            and x.dtype is y.dtype and x.dtype.kind == "f":
        out = np.einsum("ij,jk->ik", x, y)
        out += 0.0
        return out
    return x @ y


def _solve(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x \\ y as MATLAB's mldivide computes it (see mlang.values.solve)."""
    if x.shape[0] != y.shape[0]:
        raise error("MATLAB:dimagree", "Matrix dimensions must agree.")
    return solve(x, y)


def _double_matrices(a: object, b: object) -> bool:
    """Whether a and b are 2-D double arrays: _matrix_operands would pass them on as they are."""
    return type(a) is np.ndarray and type(b) is np.ndarray and a.dtype is F64 and b.dtype is F64 \
        and a.ndim == 2 and b.ndim == 2


def mldivide(a: object, b: object) -> object:
    if _double_matrices(a, b) and a.size != 1 and a.shape[0] == b.shape[0]:
        return result(solve(a, b))  # the commonest case, spared the class checks
    if _is_scalar(a):
        return elementwise(".\\", a, b)
    x, y, _ = _matrix_operands(a, b, "\\")
    return result(_solve(x, y))


def mrdivide(a: object, b: object) -> object:
    if _double_matrices(a, b) and b.size != 1 and a.shape[1] == b.shape[1]:
        return result(solve(b.T, a.T).T)  # the commonest case, spared the class checks
    if _is_scalar(b):
        return elementwise("./", a, b)
    x, y, _ = _matrix_operands(a, b, "/")
    if x.shape[1] != y.shape[1]:
        raise error("MATLAB:dimagree", "Matrix dimensions must agree.")
    return result(_solve(y.T, x.T).T)


def mpower(a: object, b: object) -> object:
    if _is_scalar(a) and _is_scalar(b) or (_is_empty(a) and _is_scalar(b)) \
            or (_is_scalar(a) and _is_empty(b)):
        return elementwise(".^", a, b)
    x, y, _ = _matrix_operands(a, b, "^")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        if x.ndim == 2 and x.shape[0] == x.shape[1] and _is_scalar(b) or \
                (_is_scalar(a) and y.ndim == 2 and y.shape[0] == y.shape[1]):
            shape = x.shape if _is_scalar(b) else y.shape
            return result(np.full(shape, np.nan))  # no matrix function of NaN/Inf entries
    if _is_scalar(b) and x.ndim == 2 and x.shape[0] == x.shape[1]:
        p = y.reshape(-1)[0]
        if np.iscomplexobj(p) or not np.isfinite(p):
            return result(_eigen_power(x, complex(p)))
        if p == np.round(p):
            return result(_integer_matrix_power(x, int(p.real)))
        from scipy.linalg import fractional_matrix_power  # scipy is heavy: loaded on first use

        return result(np.asarray(fractional_matrix_power(x, p)))
    if _is_scalar(a) and y.ndim == 2 and y.shape[0] == y.shape[1]:
        return result(_scalar_to_matrix_power(x.reshape(-1)[0], y))
    raise error("MATLAB:mpower:notScalarAndSquareMatrix",
                "Incorrect dimensions for raising a matrix to a power. Check that the matrix is "
                "square and the power is a scalar. To operate on each element of the matrix "
                "individually, use POWER (.^) for elementwise power.")


def _is_empty(v: object) -> bool:
    return type(v) is np.ndarray and v.size == 0


def _eigen_power(x: np.ndarray, p: complex) -> np.ndarray:
    """A^p through the eigendecomposition A = V*D/V, for complex or non-finite p."""
    w, v = np.linalg.eig(x.astype(np.complex128))
    with np.errstate(all="ignore"):
        return v @ np.diag(w ** p) @ np.linalg.pinv(v)


def _scalar_to_matrix_power(s: np.generic, a: np.ndarray) -> np.ndarray:
    """s^A through the eigendecomposition A = V*D/V (as MATLAB computes it), or
    expm(log(s)*A) when A is not diagonalisable."""
    base = s.astype(np.complex128) if s.real < 0 or np.iscomplexobj(s) else s
    w, v = np.linalg.eig(a)
    if np.linalg.cond(v) < 1 / np.finfo(np.float64).eps:
        with np.errstate(all="ignore"):
            return np.linalg.solve(v.T, (v * np.power(base, w)).T).T
    from scipy.linalg import expm  # scipy is heavy: loaded on first use

    return np.asarray(expm(np.log(base) * a))


def _integer_matrix_power(x: np.ndarray, p: int) -> np.ndarray:
    if p >= 0:
        return np.linalg.matrix_power(x, p)
    return np.linalg.matrix_power(_inverse(x), -p)


def _inverse(x: np.ndarray) -> np.ndarray:
    """inv(x), warning like MATLAB when x is singular to working precision."""
    eye = np.eye(x.shape[0], dtype=x.dtype)
    return _solve(x, eye)


MATRIX = {"*": mtimes, "/": mrdivide, "\\": mldivide, "^": mpower}


# ----------------------------------------------------------------- strings


def _string_operator(symbol: str, a: object, b: object) -> object | None:
    """``"a" + "b"`` concatenates and comparisons compare text when a string is involved."""
    sa = getattr(a, "matlab_class", None) == "string"
    sb = getattr(b, "matlab_class", None) == "string"
    if not (sa or sb):
        return None
    fn = _STRING_SCALAR_OPS.get(symbol)
    if fn is not None:  # two scalars (the usual case in loops): no arrays to broadcast
        quick = _string_scalars(symbol, fn, a, b)
        if quick is not None:
            return quick
    return string_binary(symbol, a, b)


def _string_scalars(symbol: str, fn: Callable, a: object, b: object) -> object | None:
    """``a <symbol> b`` of two string scalars, or of a string scalar and a double scalar,
    computed on their texts; None for other operands."""
    x, x_ok = _string_scalar(a)
    if not x_ok:
        return None
    y, y_ok = _string_scalar(b)
    if not y_ok:
        return None
    if symbol == "+":
        return StringArray.scalar(None if x is None or y is None else x + y)  # type: ignore[operator]
    return x is not None and y is not None and fn(x, y)


_STRING_SCALAR_OPS = {"+": py.add, "==": py.eq, "~=": py.ne, "<": py.lt, "<=": py.le,
                      ">": py.gt, ">=": py.ge}


def _string_scalar(v: object) -> tuple[str | None, bool]:
    """(the text, True) of a string scalar or a double scalar as ``string`` sees it (None
    for <missing>); (None, False) for anything else."""
    t = type(v)
    if t is StringArray:
        data = v.data  # type: ignore[attr-defined]
        if data.shape == (1, 1):
            return data[0, 0], True
    elif t is float:
        return number_text(v), True
    return None, False


__all__ = ["CLASS_OF_DTYPE", "binary", "elementwise", "compare", "logical_op", "UNARY",
           "transpose", "mtimes", "mrdivide", "mldivide", "mpower", "SCALAR_GUARDS", "SCALAR_OPS"]
