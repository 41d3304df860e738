"""Conversions between char arrays, string arrays and numbers, and string operators."""

from __future__ import annotations

import codecs

import numpy as np

from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import (
    align,
    char_codes,
    char_row,
    char_rows,
    char_text,
    class_of,
    result,
    to_array,
    to_str,
)
from mlang.values.string import StringArray

# Rows at least this long whose characters all fit in a byte become Python strings
# through one-byte buffers (Latin-1): quicker than UTF-16 decoding from here on.
_NARROW_FROM = 8192
_decode_latin1 = codecs.latin_1_decode


def row_text(a: np.ndarray) -> str:
    """The text of a char row vector (``char_text`` with a fast path for long
    Latin-1 rows)."""
    if a.size >= _NARROW_FROM and a.flags.c_contiguous and a.ndim == 2 and a.shape[0] == 1:
        codes = char_codes(a)
        if int(codes.max()) < 256:
            # the codec reads the one-byte array itself (no bytes copy in between)
            return _decode_latin1(codes.astype(np.uint8))[0]
    return char_text(a)


# A 1×n char row holding a text (0×0 for the empty text): ``char_row``, which has the
# fast paths for short and for long one-byte texts; the name stays for its callers.
text_row = char_row


def to_string_array(v: object) -> StringArray:
    """MATLAB's ``string(v)`` for the common inputs."""
    t = type(v)
    if t is StringArray:
        return v  # type: ignore[return-value]
    if t is np.ndarray and v.dtype.kind == "V":
        if v.ndim == 2 and v.shape[0] > 1:
            rows = char_rows(v)
            data = np.empty((len(rows), 1), dtype=object)
            for i, r in enumerate(rows):
                data[i, 0] = r
            return StringArray(data)
        return StringArray.scalar(to_str(v))
    if t is Cell:
        data = np.empty(v.shape, dtype=object)
        flat_in = v.data.reshape(-1)
        flat_out = data.reshape(-1)
        for i in range(flat_in.size):
            flat_out[i] = to_string_array(flat_in[i]).scalar_text()
        return StringArray(data)
    if t in (float, bool, complex) or t is np.ndarray:
        a = to_array(v)
        data = np.empty(a.shape, dtype=object)
        flat_in = a.reshape(-1)
        flat_out = data.reshape(-1)
        for i in range(flat_in.size):
            flat_out[i] = number_text(flat_in[i])
        return StringArray(data)
    raise error("MATLAB:string:invalidConversion",
                f"Conversion to string from {class_of(v)} is not possible.")


def number_text(x: object) -> str | None:
    """The text ``string`` makes of one number (None for NaN, which becomes <missing>)."""
    if isinstance(x, (float, np.floating)) and x != x:
        return None  # string(NaN) is <missing>
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, (float, np.floating)):
        f = float(x)
        if f.is_integer() and abs(f) < 1e15:
            return str(int(f))
        return f"{f:.5g}" if abs(f) < 1e5 else f"{f:.5g}"
    return str(x)


def string_binary(symbol: str, a: object, b: object) -> object:
    """Operators with a string operand: ``+`` appends, comparisons compare text."""
    sa, sb = to_string_array(a), to_string_array(b)
    try:
        x, y = np.broadcast_arrays(*align(sa.data, sb.data))
    except ValueError:
        raise error("MATLAB:sizeDimensionsMustMatch",
                    "Arrays have incompatible sizes for this operation.") from None
    if symbol == "+":
        out = np.empty(x.shape, dtype=object)
        fo, fx, fy = out.reshape(-1), x.reshape(-1), y.reshape(-1)
        for i in range(fo.size):
            fo[i] = None if fx[i] is None or fy[i] is None else fx[i] + fy[i]
        return StringArray(out)
    compare = {"==": lambda p, q: p == q, "~=": lambda p, q: p != q, "<": lambda p, q: p < q,
               "<=": lambda p, q: p <= q, ">": lambda p, q: p > q, ">=": lambda p, q: p >= q}
    fn = compare.get(symbol)
    if fn is None:
        raise error("MATLAB:UndefinedFunction",
                    f"Operator '{symbol}' is not supported for operands of type 'string'.")
    out_b = np.zeros(x.shape, dtype=bool)
    fo, fx, fy = out_b.reshape(-1), x.reshape(-1), y.reshape(-1)
    for i in range(fo.size):
        fo[i] = fx[i] is not None and fy[i] is not None and fn(fx[i], fy[i])
    return result(out_b)
