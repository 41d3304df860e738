"""How MATLAB values are represented in mlang, and conversions between forms.

Representation (chosen so the common case is cheap):

* a real double scalar is a Python ``float``; a complex double scalar a
  Python ``complex``; a logical scalar a Python ``bool``;
* every other numeric, logical or char value is a NumPy array with at least
  two dimensions (MATLAB's sizes; trailing singleton dimensions beyond the
  second are dropped).  The dtype gives the class: float64/complex128 double,
  float32/complex64 single, int8…uint64, bool logical, ``CHAR`` char (UTF-16
  code units, two bytes a character as in MATLAB, in NumPy's two-byte void
  dtype so that char stays a class of its own beside uint16: compute with
  ``char_codes``, never with the void values);
* cells, structs, strings, function handles and objects are instances of the
  classes in the sibling modules; each has a ``matlab_class`` attribute.

Arrays are used in MATLAB's column-major sense: linear indices run down the
columns (``order='F'``).  A value held by a variable is never mutated while
it is shared (see ``indexing.assign``): copy-on-write by reference count.
"""

from __future__ import annotations

import codecs

import numpy as np

from mlang.errors import error

CHAR = np.dtype("V2")
INT_CLASSES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
NUMERIC_CLASSES = ("double", "single", *INT_CLASSES)

CLASS_OF_DTYPE: dict[np.dtype, str] = {
    np.dtype(np.float64): "double", np.dtype(np.complex128): "double",
    np.dtype(np.float32): "single", np.dtype(np.complex64): "single",
    np.dtype(np.bool_): "logical", CHAR: "char",
    **{np.dtype(name): name for name in INT_CLASSES},
}
DTYPE_OF_CLASS: dict[str, np.dtype] = {
    "double": np.dtype(np.float64), "single": np.dtype(np.float32),
    "logical": np.dtype(np.bool_), "char": CHAR,
    **{name: np.dtype(name) for name in INT_CLASSES},
}
EMPTY = np.zeros((0, 0))
_decode_utf16 = codecs.utf_16_le_decode  # the codecs themselves: no lookup by name per call
_encode_utf16 = codecs.utf_16_le_encode
_frombuffer = np.frombuffer
# Texts at least this long whose characters fit in a byte become char arrays through
# their one-byte form widened by NumPy: past this length the UTF-16 codec's output
# and its copy are the slower way (shorter texts are quicker through the codec).
_WIDEN_FROM = 32768


FLOAT_DTYPES = (np.dtype(np.float64), np.dtype(np.float32))


def numpy_agrees(x: object, y: object) -> bool:
    """Whether NumPy's element-wise arithmetic on ``x`` and ``y`` is MATLAB's: real
    arrays of one floating class (or an array and a double scalar) whose sizes agree
    dimension by dimension or are 1, so broadcasting is MATLAB's implicit expansion."""
    tx, ty = type(x), type(y)
    if tx is np.ndarray:
        if x.dtype not in FLOAT_DTYPES:
            return False
        if ty is float:
            return True
        if ty is not np.ndarray or y.dtype is not x.dtype or y.ndim != x.ndim:
            return False
        xs, ys = x.shape, y.shape
        return xs == ys or all(a == b or a == 1 or b == 1 for a, b in zip(xs, ys, strict=True))
    return tx is float and ty is np.ndarray and y.dtype in FLOAT_DTYPES


def class_of(v: object) -> str:
    """MATLAB's ``class(v)``."""
    t = type(v)
    if t is float or t is complex:
        return "double"
    if t is bool:
        return "logical"
    if t is np.ndarray:
        return CLASS_OF_DTYPE[v.dtype]
    return v.matlab_class  # type: ignore[attr-defined]


def is_array(v: object) -> bool:
    """Numeric, logical or char (held as a scalar or an ndarray)."""
    t = type(v)
    return t is float or t is np.ndarray or t is bool or t is complex


def to_array(v: object) -> np.ndarray:
    """The ndarray form of a numeric, logical or char value (scalars boxed as 1×1)."""
    t = type(v)
    if t is np.ndarray:
        return v  # type: ignore[return-value]
    if t is float:
        return np.array([[v]])
    if t is bool:
        return np.array([[v]], dtype=bool)
    if t is complex:
        return np.array([[v]])
    raise error("MATLAB:invalidType", f"Expected a numeric value, not a {class_of(v)}.")


def fix_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    """MATLAB's size: at least two dimensions, trailing singletons beyond two dropped."""
    n = len(shape)
    if n == 2:
        return shape
    if n < 2:
        return (shape + (1, 1))[:2] if n == 1 else (1, 1)
    while n > 2 and shape[n - 1] == 1:
        n -= 1
    return shape[:n]


def result(a: np.ndarray) -> object:
    """Normalise a computed array: scalars of double/logical become Python scalars,
    complex results with an all-zero imaginary part become real."""
    dt = a.dtype
    if dt.kind == "c" and not a.imag.any():
        a = a.real.copy() if dt == np.complex128 else a.real.astype(np.float32)
        dt = a.dtype
    if a.ndim != 2:
        a = a.reshape(fix_shape(a.shape), order="F") if a.ndim < 2 else a
        if a.ndim > 2 and a.shape[-1] == 1:
            a = a.reshape(fix_shape(a.shape), order="F")
    if a.size == 1 and a.ndim == 2:
        if dt == np.float64:
            return float(a[0, 0])
        if dt == np.bool_:
            return bool(a[0, 0])
        if dt == np.complex128:
            return complex(a[0, 0])
    return a


def to_double_array(v: object) -> np.ndarray:
    """Numeric values as float64 (or complex128); char as character codes."""
    a = to_array(v)
    k = a.dtype.kind
    if k == "V":
        return char_codes(a).astype(np.float64)
    if k == "c":
        return a.astype(np.complex128, copy=False)
    return a.astype(np.float64, copy=False)


def char_codes(a: np.ndarray) -> np.ndarray:
    """Character codes of a char array (same shape, uint16): a view, not a copy, so
    read it or copy it, never write to it."""
    return a.view(np.uint16)


def char_from_codes(codes: np.ndarray) -> np.ndarray:
    """A char array from character codes (same shape); codes outside MATLAB's 0..65535
    saturate, as MATLAB's conversion to char does."""
    codes = np.asarray(codes)
    if codes.dtype != np.uint16:
        codes = np.clip(codes, 0, 65535)
    return codes.astype(np.uint16).view(CHAR)


def char_row(text: str) -> np.ndarray:
    """A 1×n char array holding ``text`` (0×0 for the empty text, as MATLAB's '');
    characters beyond U+FFFF take two code units, as in MATLAB."""
    if not text:
        return np.zeros((0, 0), dtype=CHAR)
    if len(text) >= _WIDEN_FROM:
        try:
            narrow = text.encode("latin-1")
        except UnicodeEncodeError:
            pass
        else:
            out = np.empty((1, len(text)), dtype=CHAR)
            out.view(np.uint16)[0] = _frombuffer(narrow, dtype=np.uint8)
            return out
    # the codec itself, then one copy into an array of its own (the bytes are read-only)
    return _frombuffer(_encode_utf16(text, "surrogatepass")[0], CHAR)[None].copy()


def char_text(a: np.ndarray) -> str:
    """The characters of a char array in column-major order, as one Python string."""
    if not (a.flags.c_contiguous and (a.ndim == 1 or (a.ndim == 2 and a.shape[0] == 1))):
        a = a.tobytes(order="F")
    return _decode_utf16(a, "surrogatepass")[0]


def char_rows(a: np.ndarray) -> list[str]:
    """The rows of a char array as Python strings (higher dimensions run on, as
    MATLAB's reshape to rows × rest)."""
    if a.ndim != 2:
        a = a.reshape(a.shape[0], -1, order="F")
    if a.shape[0] == 1:
        return [char_text(a)]
    if a.shape[1] == 0:
        return [""] * a.shape[0]
    data = np.ascontiguousarray(a).view(np.uint16).tobytes()
    width = 2 * a.shape[1]
    return [data[k:k + width].decode("utf-16-le", "surrogatepass") for k in range(0, len(data), width)]


def char_matrix(rows: list[str]) -> np.ndarray:
    """A char matrix of ``rows``, padded with blanks to the longest (MATLAB's char of
    several rows)."""
    if not rows:
        return np.zeros((0, 0), dtype=CHAR)
    units = [r.encode("utf-16-le", "surrogatepass") for r in rows]
    width = max(len(u) for u in units)
    blank = " ".encode("utf-16-le")
    data = b"".join(u + blank * ((width - len(u)) // 2) for u in units)
    return np.frombuffer(data, dtype=CHAR).reshape(len(rows), width // 2).copy()


def to_str(v: object) -> str:
    """The text of a char row vector (or of a string scalar)."""
    t = type(v)
    if t is np.ndarray and v.dtype.kind == "V":
        return char_text(v)
    if getattr(v, "matlab_class", None) == "string":
        return v.scalar_text()  # type: ignore[attr-defined]
    raise error("MATLAB:invalidType", "Expected a character vector or string scalar.")


def is_text(v: object) -> bool:
    """A char array or a string array."""
    return (type(v) is np.ndarray and v.dtype.kind == "V") or \
        getattr(v, "matlab_class", None) == "string"


def size_of(v: object) -> tuple[int, ...]:
    t = type(v)
    if t is float or t is bool or t is complex:
        return (1, 1)
    if t is np.ndarray:
        return v.shape  # type: ignore[return-value]
    return v.shape  # type: ignore[attr-defined]


def numel(v: object) -> int:
    n = 1
    for d in size_of(v):
        n *= d
    return n


def is_true(v: object) -> bool:
    """MATLAB's truth of a condition: nonempty and every element nonzero."""
    t = type(v)
    if t is bool:
        return v  # type: ignore[return-value]
    if t is float:
        if v != v:
            raise error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        return v != 0
    if t is np.ndarray:
        if v.size == 0:
            return False
        if v.dtype.kind == "V":
            return bool(char_codes(v).all())
        if v.dtype.kind == "f" and np.isnan(v).any():
            raise error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        return bool(v.all())
    if t is complex:
        return v != 0
    truth = getattr(v, "truth", None)  # an object (values.objects.MatlabObject.truth)
    if truth is not None:
        return truth()
    raise error("MATLAB:invalidConversion",
                f"Conversion to logical from {class_of(v)} is not possible.")


def scalar_value(v: object) -> float | complex | int | bool:
    """The single element of a 1×1 value as a Python number."""
    t = type(v)
    if t is float or t is bool or t is complex:
        return v  # type: ignore[return-value]
    if t is np.ndarray and v.size == 1:
        if v.dtype.kind == "V":
            return float(v.view(np.uint16).reshape(-1)[0])
        return v.reshape(-1)[0].item()
    raise error("MATLAB:invalidType", "Expected a scalar.")


def align(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pad the operand with fewer dimensions with trailing singletons (MATLAB alignment)."""
    if x.ndim < y.ndim:
        x = x.reshape(x.shape + (1,) * (y.ndim - x.ndim))
    elif y.ndim < x.ndim:
        y = y.reshape(y.shape + (1,) * (x.ndim - y.ndim))
    return x, y
