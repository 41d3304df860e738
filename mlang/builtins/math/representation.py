"""Number representations: rational approximations (rat, rats), single bits of
integer values (bitget, bitset) and the IEEE bits of floating-point numbers as
hexadecimal text (num2hex, hex2num).

The bitwise functions with two operands are in ``integers``; bitget and
bitset read the same assumed types.
"""

from __future__ import annotations

import math

import numpy as np

from mlang.builtins.coerce import checked_shape, integer_scalar, text_list, text_or_none
from mlang.builtins.math.elementwise import ARITHMETIC, FLINTMAX, bad_type, floating, require_real
from mlang.builtins.text.forms import is_char
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import (
    INT_CLASSES,
    char_matrix,
    char_rows,
    class_of,
    result,
    to_array,
    to_double_array,
)
from mlang.values.string import StringArray

# ---------------------------------------------------------------- rat, rats


def _continued_fraction(x: float, tol: float) -> tuple[float, float, list[int]]:
    """The numerator, denominator and continued-fraction terms of the first convergent
    of x within tol."""
    if math.isnan(x):
        return 0.0, 0.0, []
    if math.isinf(x):
        return math.copysign(1.0, x), 0.0, []
    n, d = float(round_half_away(x)), 1.0
    last_n, last_d = 1.0, 0.0
    terms = [int(n)]
    frac = x - n
    for _ in range(64):
        if abs(x - n / d) < tol or x == n / d or frac == 0:
            break
        flip = 1 / frac
        if math.isinf(flip):  # frac is subnormal: no closer convergent is representable
            break
        step = round_half_away(flip)
        frac = flip - step
        n, last_n = n * step + last_n, n
        d, last_d = d * step + last_d, d
        terms.append(int(step))
    return n * math.copysign(1.0, d), abs(d), terms


def round_half_away(x: float) -> float:
    """MATLAB's round: halves go away from zero."""
    return math.copysign(math.floor(abs(x) + 0.5), x)


def _terms_text(x: float, terms: list[int]) -> str:
    """The continued fraction as MATLAB writes it: 3 + 1/(7 + 1/16)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    text = str(terms[0])
    for j, t in enumerate(terms[1:], start=1):
        if j < len(terms) - 1:
            text += f" + 1/({t}"
        else:
            text += f" + 1/({t})" if t < 0 else f" + 1/{t}"
    return text + ")" * max(0, len(terms) - 2)


def _rat_values(name: str, x: object) -> np.ndarray:
    a = floating(name, x)
    require_real(name, a)
    return a


def _norm1(a: np.ndarray) -> float:
    finite = a[np.isfinite(a)]
    return float(np.abs(finite.astype(np.float64)).sum())


def _tolerance(name: str, tol: object) -> float:
    t = to_double_array(tol).ravel()
    if t.size != 1 or t.dtype.kind == "c":
        raise error(f"MATLAB:{name}:invalidTolerance", "Tolerance must be a real scalar.")
    return float(t[0])


@builtin(nargout=True, max_out=2)
def rat(x: object, tol: object = None, *, nargout: int = 1) -> object:
    """S = rat(X)
    S = rat(X,tol)
    [N,D] = rat(___)

    Rational approximation: N./D approximates X within tol (default 1e-6*norm(X(:),1));
    with one output, the continued fraction expansions as text, one row per element."""
    a = _rat_values("rat", x)
    flat = a.ravel(order="F").astype(np.float64)
    t = 1e-6 * _norm1(a) if tol is None else _tolerance("rat", tol)
    parts = [_continued_fraction(float(v), t) for v in flat]
    if nargout < 2:
        return char_matrix([_terms_text(float(v), p[2]) for v, p in zip(flat, parts, strict=True)])
    dtype = np.float32 if a.dtype == np.float32 else np.float64
    num = np.array([p[0] for p in parts], dtype=dtype).reshape(a.shape, order="F")
    den = np.array([p[1] for p in parts], dtype=dtype).reshape(a.shape, order="F")
    return result(num), result(den)


def _fraction_text(x: float, n: float, d: float) -> str:
    if math.isnan(x):
        return "NaN"
    if d == 0:
        return "Inf" if n > 0 else "-Inf"
    if d == 1:
        return str(int(n))
    return f"{int(n)}/{int(d)}"


def _rats_field(text: str, width: int) -> str:
    """One element of rats: a blank, then ``width`` characters with the '/' of a fraction
    (or the last digit of a whole number) in the middle column; '*' when it does not fit."""
    if len(text) > width:
        text = "*"
    middle = math.ceil(width / 2)
    slash = text.find("/")
    start = middle - (slash if slash >= 0 else len(text) - 1)
    start = max(1, min(start, width + 1 - len(text)))
    return " " * start + text + " " * (width + 1 - start - len(text))


@builtin()
def rats(x: object, strlen: object = None) -> object:
    """S = rats(X)
    S = rats(X,strlen)

    Rational approximations of the elements of X as text, each centred in a field of
    strlen characters (13 by default) after a blank; an asterisk marks one that does
    not fit."""
    a = _rat_values("rats", x)
    width = 13
    if strlen is not None:
        width = integer_scalar(strlen, "String length must be a positive integer.",
                               "MATLAB:rats:invalidStrlen")
        if width < 1:
            raise error("MATLAB:rats:invalidStrlen", "String length must be a positive integer.")
    t = min(10 ** (-(width - 1) / 2) * _norm1(a), 0.1)
    grid = a.reshape(a.shape[0], -1, order="F") if a.ndim > 2 else a
    # each element takes a field of width + 1 characters: refuse text too large to make
    checked_shape((grid.shape[0], (width + 1) * grid.shape[1]), "char")
    rows = []
    for r in range(grid.shape[0]):
        line = ""
        for v in grid[r].astype(np.float64):
            n, d, _ = _continued_fraction(float(v), t)
            line += _rats_field(_fraction_text(float(v), n, d), width)
        rows.append(line)
    return char_matrix(rows) if rows and rows[0] else char_matrix([])


# ------------------------------------------------------------- bitget, bitset

_BIT_TYPES = ("uint64", "uint32", "uint16", "uint8", "int64", "int32", "int16", "int8")


def _kind(name: str, a: object, assumed: object) -> tuple[str, int]:
    """The integer type the bits are read in, and its number of usable bits."""
    cls = class_of(a)
    if cls in INT_CLASSES:
        return cls, np.dtype(cls).itemsize * 8
    if cls not in ARITHMETIC or cls == "char":
        raise bad_type(name)
    if assumed is None:
        return "double", 53
    text = text_or_none(assumed) or ""
    if text not in _BIT_TYPES:
        raise error("MATLAB:bitfun:InvalidAssumedType", "ASSUMEDTYPE must be an integer type name.")
    return text, np.dtype(text).itemsize * 8


def _positions(name: str, bit: object, bits: int) -> np.ndarray:
    b = to_double_array(bit)
    require_real(name, b)
    if ((b < 1) | (b > bits) | (b != np.floor(b))).any():
        raise error(f"MATLAB:{name}:outOfRange",
                    f"Bit position must be an integer between 1 and {bits}.")
    return b.astype(np.int64)


def _as_unsigned(name: str, a: object, kind: str) -> np.ndarray:
    """The values as unsigned integers of the type's width (two's complement for signed)."""
    if kind == "double":
        d = to_double_array(a)
        require_real(name, d)
        if ((d < 0) | (d > FLINTMAX) | (d != np.floor(d))).any():
            raise error("MATLAB:bitfun:InvalidDoubleInput",
                        "Double inputs must have integer values in the range of ASSUMEDTYPE.")
        return d.astype(np.uint64)
    if class_of(a) == kind:
        v = to_array(a)
    else:
        d = to_double_array(a)
        require_real(name, d)
        info = np.iinfo(np.dtype(kind))
        if ((d < info.min) | (d > info.max) | (d != np.floor(d))).any():
            raise error("MATLAB:bitfun:InvalidDoubleInput",
                        "Double inputs must have integer values in the range of ASSUMEDTYPE.")
        v = d.astype(np.dtype(kind))
    return v.view(np.dtype(f"u{v.dtype.itemsize}"))


def _aligned(*arrays: np.ndarray) -> list[np.ndarray]:
    nd = max(a.ndim for a in arrays)
    arrays = tuple(a.reshape(a.shape + (1,) * (nd - a.ndim)) for a in arrays)
    for axis in range(nd):
        if len({a.shape[axis] for a in arrays} - {1}) > 1:
            raise error("MATLAB:sizeDimensionsMustMatch",
                        "Arrays have incompatible sizes for this operation.")
    return list(np.broadcast_arrays(*arrays))


def _from_unsigned(values: np.ndarray, a: object, kind: str) -> object:
    cls = class_of(a)
    if kind == "double":
        return result(values.astype(np.float64))
    signed = np.ascontiguousarray(values).view(np.dtype(kind))
    if cls in INT_CLASSES:
        return result(signed)
    return result(signed.astype(np.float32 if cls == "single" else np.float64))


@builtin()
def bitget(a: object, bit: object, assumedtype: object = None) -> object:
    """b = bitget(A,bit)
    b = bitget(A,bit,assumedtype)

    The bit at position bit (1 is the least significant) of each integer in A, as 0 or 1
    of A's class."""
    kind, bits = _kind("bitget", a, assumedtype)
    values, positions = _aligned(_as_unsigned("bitget", a, kind), _positions("bitget", bit, bits))
    out = (values >> (positions - 1).astype(values.dtype)) & values.dtype.type(1)
    cls = class_of(a)
    if cls in INT_CLASSES:
        return result(out.astype(np.dtype(cls)))
    return result(out.astype(np.float32 if cls == "single" else np.float64))


@builtin()
def bitset(a: object, bit: object, v: object = None, assumedtype: object = None) -> object:
    """C = bitset(A,bit)
    C = bitset(A,bit,V)
    C = bitset(___,assumedtype)

    A with the bit at position bit set to 1 (or to V, 0 or 1); for double A, assumedtype
    names the integer type whose bits are meant."""
    if text_or_none(v) is not None and assumedtype is None:
        v, assumedtype = None, v
    kind, bits = _kind("bitset", a, assumedtype)
    values = _as_unsigned("bitset", a, kind)
    positions = _positions("bitset", bit, bits)
    on = np.ones((1, 1)) if v is None else to_double_array(v)
    require_real("bitset", on)
    values, positions, on = _aligned(values, positions, on)
    mask = np.left_shift(values.dtype.type(1), (positions - 1).astype(values.dtype))
    out = np.where(on != 0, values | mask, values & ~mask).astype(values.dtype)
    if kind == "double" and (out > FLINTMAX).any():
        raise error("MATLAB:bitset:outOfRange", "Result would exceed flintmax.")
    return _from_unsigned(out, a, kind)


# ----------------------------------------------------------- num2hex, hex2num


@builtin()
def num2hex(x: object) -> object:
    """hexStr = num2hex(X)

    The IEEE bits of each element of X (double: 16 hexadecimal digits, single: 8), one
    row per element in column-major order."""
    cls = class_of(x)
    if cls not in ("double", "single"):
        raise error("MATLAB:num2hex:invalidInput", "Input must be a double or single array.")
    a = to_array(x)
    if a.dtype.kind == "c":
        raise error("MATLAB:num2hex:complexInput", "Input must be real.")
    dtype = ">f4" if cls == "single" else ">f8"
    raw = a.ravel(order="F").astype(dtype).tobytes()
    size = np.dtype(dtype).itemsize
    return char_matrix([raw[k:k + size].hex() for k in range(0, len(raw), size)])


def _hex_texts(s: object) -> tuple[list[str], tuple[int, int]]:
    if is_char(s):
        rows = char_rows(s) if s.size else []  # type: ignore[union-attr]
        return rows, (len(rows), 1)
    if type(s) is Cell or type(s) is StringArray:
        texts = text_list(s, "Input")
        shape = s.shape if type(s) is Cell else s.data.shape  # type: ignore[union-attr]
        return texts, shape
    raise error("MATLAB:hex2num:InputMustBeString",
                "Input must be a character vector, cell array of character vectors, or string array.")


@builtin()
def hex2num(s: object) -> object:
    """X = hex2num(hexStr)

    The double whose IEEE bits the hexadecimal text gives (fewer than 16 digits are
    padded with zeros on the right); one number per row of a char matrix or element of
    a cell or string array."""
    texts, shape = _hex_texts(s)
    out = np.empty(len(texts))
    for k, text in enumerate(texts):
        digits = text.strip().lower()
        if len(digits) > 16:
            raise error("MATLAB:hex2num:TooManyDigits",
                        "Input must have no more than 16 hexadecimal digits.")
        if any(c not in "0123456789abcdef" for c in digits):
            raise error("MATLAB:hex2num:InvalidInput",
                        "Input must contain only hexadecimal digits.")
        out[k] = np.frombuffer(bytes.fromhex(digits.ljust(16, "0")), dtype=">f8")[0]
    return result(out.reshape(shape, order="F"))
