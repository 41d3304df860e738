"""Binary files: fread and fwrite, with MATLAB's precision strings.

A precision names the class of the values in the file ('uint8', 'int16',
'float32', 'char', ...) and, after '=>', the class of the values returned
('int16=>int16'; '*int16' says the same).  fread returns doubles unless told
otherwise.  'N*precision' reads or writes N values before each skip.  The byte
order is the file's (fopen's machinefmt) unless the call gives one.
"""

from __future__ import annotations

import codecs
import math
import re
from typing import Any

import numpy as np

from mlang.builtins.coerce import read_size, text_or_none
from mlang.builtins.files.fileio import OpenFile, fid_number, invalid_fid, machine_format, open_file
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import CHAR, char_from_codes, char_text, class_of, result, to_array
from mlang.values.operators import to_class

# Each source type: the NumPy type of one value in the file, and the class '*source' returns.
_SOURCES: dict[str, tuple[str, str]] = {}
for _names, _code, _cls in (
        (("uint8", "uchar", "unsigned char"), "u1", "uint8"),
        (("int8", "schar", "signed char", "integer*1"), "i1", "int8"),
        (("uint16", "ushort", "unsigned short"), "u2", "uint16"),
        (("int16", "short", "integer*2"), "i2", "int16"),
        (("uint32", "uint", "unsigned int"), "u4", "uint32"),
        (("int32", "int", "integer*4"), "i4", "int32"),
        # long is 64 bits on the 64-bit Linux and macOS builds of MATLAB
        (("ulong", "unsigned long", "uint64"), "u8", "uint64"),
        (("long", "int64", "integer*8"), "i8", "int64"),
        (("single", "float32", "real*4", "float"), "f4", "single"),
        (("double", "float64", "real*8"), "f8", "double"),
        (("char*1",), "u1", "char"),
        (("char",), "text", "char")):
    for _name in _names:
        _SOURCES[_name] = (_code, _cls)

_OUTPUT_CLASSES = ("double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32",
                   "int64", "uint64", "char", "logical")
_REPEAT = re.compile(r"^\s*(\d+)\s*\*\s*(.+)$")


class Precision:
    """A parsed precision string: the source type, the output class, the block size."""

    def __init__(self, text: str, default_output: str) -> None:
        spec = text.strip()
        self.block = 0  # values before each skip; 0: every value
        m = _REPEAT.match(spec)
        if m:
            self.block = int(m.group(1))
            spec = m.group(2)
        output = None
        if spec.startswith("*"):
            spec = spec[1:].strip()
            output = "same"
        elif "=>" in spec:
            spec, output = (part.strip() for part in spec.split("=>", 1))
        source = _SOURCES.get(spec.lower()) or _bit_source(spec.lower())
        if source is None or (output not in (None, "same") and output not in _OUTPUT_CLASSES):
            raise error("MATLAB:fread:InvalidPrecision", "Invalid precision.")
        self.code, source_class = source
        self.output = source_class if output == "same" else output or default_output

    def dtype(self, byte_order: str) -> np.dtype:
        return np.dtype(byte_order + self.code)


_BITS = re.compile(r"^(u?)bit(\d+)$")


def _bit_source(spec: str) -> tuple[str, str] | None:
    """'bitN' and 'ubitN' (1 <= N <= 64): N-bit signed or unsigned integers."""
    m = _BITS.match(spec)
    if m is None or not 1 <= int(m.group(2)) <= 64:
        return None
    bits = int(m.group(2))
    size = next(n for n in (8, 16, 32, 64) if bits <= n)
    return f"{m.group(1)}bit{bits}", ("u" if m.group(1) else "") + f"int{size}"


def _unpack_bits(data: bytes, bits: int, signed: bool, wanted: int | None,
                 byte_order: str) -> np.ndarray:
    """N-bit values packed in ``data``: with little-endian order the first value takes the
    low bits of the first byte, with big-endian the high bits."""
    order = "little" if byte_order == "<" else "big"
    stream = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder=order)
    count = stream.size // bits if wanted is None else min(wanted, stream.size // bits)
    groups = stream[:count * bits].reshape((count, bits)).astype(np.uint64)
    weights = (np.uint64(1) << np.arange(bits, dtype=np.uint64)) if order == "little" else (
        np.uint64(1) << np.arange(bits - 1, -1, -1, dtype=np.uint64))
    values = (groups * weights).sum(axis=1, dtype=np.uint64) if count else np.zeros(0, np.uint64)
    if not signed:
        return values
    out = values.astype(object)
    return np.array([int(v) - (1 << bits) if int(v) >> (bits - 1) else int(v) for v in out],
                    dtype=np.int64)


def _pack_bits(values: np.ndarray, bits: int, signed: bool, byte_order: str) -> bytes:
    """The inverse of ``_unpack_bits``: values saturated to N bits, packed."""
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    whole = [0 if x != x else min(max(int(np.round(x)) if math.isfinite(x) else (
        high if x > 0 else low), low), high) for x in values.astype(np.float64)]
    order = "little" if byte_order == "<" else "big"
    shifts = range(bits) if order == "little" else range(bits - 1, -1, -1)
    stream = np.array([(v & ((1 << bits) - 1)) >> k & 1 for v in whole for k in shifts], dtype=np.uint8)
    return np.packbits(stream, bitorder=order).tobytes()


def _precision(v: Any, default_output: str) -> Precision:
    text = text_or_none(v)
    if text is None:
        raise error("MATLAB:fread:InvalidPrecision", "Precision must be a character vector or string.")
    return Precision(text, default_output)


def _count_argument(v: Any, what: str) -> int:
    a = to_array(v)
    if a.size != 1 or a.dtype.kind not in "iufb":
        raise error(f"MATLAB:{what}:InvalidSkip", "Skip must be a nonnegative integer scalar.")
    x = float(a.reshape(-1)[0])
    if not math.isfinite(x) or x < 0 or x != math.floor(x):
        raise error(f"MATLAB:{what}:InvalidSkip", "Skip must be a nonnegative integer scalar.")
    return int(x)


def _byte_order(f: OpenFile | None, machinefmt: Any) -> str:
    name = machine_format(machinefmt) if machinefmt is not None else (
        f.machinefmt if f is not None else "ieee-le")
    return ">" if name.startswith("ieee-be") else "<"


# ----------------------------------------------------------------------- fread


def _size_argument(v: Any) -> tuple[int | None, int | None, bool]:
    return read_size(v, "fread", "Only the last dimension of size can be Inf.")


def _read_values(f: OpenFile, p: Precision, wanted: int | None, skip: int,
                 byte_order: str) -> np.ndarray:
    """Up to ``wanted`` values (all for None) as a flat array of the source type (char
    codes for 'char')."""
    if p.code == "text":
        return _read_chars(f, wanted, skip, p.block)
    if "bit" in p.code:
        bits = int(p.code.split("bit")[1])
        data = f.read_bytes(-1 if wanted is None else -(-wanted * bits // 8))
        return _unpack_bits(data, bits, not p.code.startswith("u"), wanted, byte_order)
    dtype = p.dtype(byte_order)
    size = dtype.itemsize
    if skip == 0:
        data = f.read_bytes(-1 if wanted is None else wanted * size)
        return np.frombuffer(data[:len(data) // size * size], dtype=dtype)
    block = p.block or 1
    parts = []
    got = 0
    while wanted is None or got < wanted:
        n = block if wanted is None else min(block, wanted - got)
        data = f.read_bytes(n * size)
        values = np.frombuffer(data[:len(data) // size * size], dtype=dtype)
        parts.append(values)
        got += values.size
        if values.size < n:
            break
        f.stream.seek(skip, 1)
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def _read_chars(f: OpenFile, wanted: int | None, skip: int, block: int) -> np.ndarray:
    """Characters decoded with the file's encoding (one byte each in a one-byte
    encoding), as UTF-16 code units."""
    if wanted is None and skip == 0:
        text = f.read_bytes(-1).decode(f.codec, errors="replace")
    else:
        decoder = codecs.getincrementaldecoder(f.codec)(errors="replace")
        chars: list[str] = []
        in_block = 0
        while wanted is None or len(chars) < wanted:
            byte = f.read_bytes(1)
            if not byte:
                break
            piece = decoder.decode(byte)
            chars.extend(piece)
            in_block += len(piece)
            if skip and piece and in_block >= (block or 1):
                f.stream.seek(skip, 1)
                in_block = 0
        text = "".join(chars)
    units = np.frombuffer(text.encode("utf-16-le", errors="surrogatepass"), dtype="<u2")
    return units.astype(np.uint16)


def _shaped(values: np.ndarray, rows: int | None, cols: int | None, matrix: bool) -> np.ndarray:
    n = values.size
    if not matrix:
        return values.reshape((n, 1)) if n else values.reshape((0, 0))
    rows = rows or 0
    if rows == 0:
        return values[:0].reshape((0, 0))
    columns = -(-n // rows)
    if cols is not None:
        columns = min(columns, cols)
    full = np.zeros(rows * columns, dtype=values.dtype)
    full[:n] = values[:rows * columns]
    return full.reshape((rows, columns), order="F")


def _converted(values: np.ndarray, source_text: bool, output: str) -> Any:
    if output == "char":
        codes = values if source_text else np.clip(np.nan_to_num(values.astype(np.float64)), 0,
                                                   65535)
        return char_from_codes(codes.astype(np.uint32)) if values.size else np.zeros(
            values.shape, dtype=CHAR)
    if output == "logical":
        return values != 0
    as_double = values.astype(np.float64)
    if output == "double":
        return result(as_double) if values.dtype.kind != "f" else result(values.astype(np.float64))
    if values.dtype.kind in "iu" and output not in ("single",):
        return to_class(values, output)
    return to_class(as_double, output)


@builtin(interp=True, max_out=2, nargout=True)
def fread(interp: Any, fid: Any, *args: Any, nargout: int = 1) -> Any:
    """A = fread(fileID) reads the rest of a binary file as bytes (uint8), returned as
    a column vector of doubles.
    A = fread(fileID, sizeA) reads at most n values (sizeA = n or Inf), or fills an
    m-by-n matrix in column order (sizeA = [m n], n may be Inf; the last column is
    padded with zeros).
    A = fread(fileID, sizeA, precision) reads values of the precision: 'uint8' 'int8'
    'uint16' 'int16' 'uint32' 'int32' 'uint64' 'int64' 'single' 'double' 'char'
    ('uchar' 'schar' 'float32' 'float64' 'char*1' ... too), 'bitN' or 'ubitN' (N-bit
    integers, N from 1 to 64, packed without gaps).  'source=>output' returns
    the class output, '*source' the class of the source; 'N*source' reads N values
    before each skip.
    A = fread(fileID, sizeA, precision, skip, machinefmt) skips bytes after each
    value (or block of N) and reads with the byte order 'n', 'l' ('ieee-le') or
    'b' ('ieee-be').  [A, count] = fread(...) also returns the number of values read."""
    f = open_file(interp, fid)
    size = args[0] if args else None
    if len(args) > 4:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if size is not None and text_or_none(size) is not None and len(args) <= 3:
        # fread(fid, precision, skip, machinefmt): sizeA left out
        args = (None, *args)
        size = None
    precision = _precision(args[1], "double") if len(args) > 1 else Precision("uint8", "double")
    skip = _count_argument(args[2], "fread") if len(args) > 2 else 0
    byte_order = _byte_order(f, args[3] if len(args) > 3 else None)
    rows, cols, matrix = (None, None, False) if size is None else _size_argument(size)
    wanted = rows if not matrix else (None if cols is None else rows * cols)  # type: ignore[operator]
    values = _read_values(f, precision, wanted, skip, byte_order)
    count = float(values.size)
    a = _converted(_shaped(values, rows, cols, matrix), precision.code == "text", precision.output)
    return (a, count)[:max(nargout, 1)]


# ---------------------------------------------------------------------- fwrite


def _values_to_write(a: Any) -> tuple[np.ndarray, str | None]:
    """The elements of A in column order, and its text for a char array."""
    cls = class_of(a)
    if cls == "char":
        return np.asarray(to_array(a)).view(np.uint16).ravel(order="F"), char_text(
            np.asarray(a).reshape(1, -1, order="F")) if np.asarray(a).size else ""
    if cls not in _OUTPUT_CLASSES:
        raise error("MATLAB:fwrite:InvalidInput", f"Cannot write value: unsupported class {cls}")
    values = to_array(a)
    if values.dtype.kind == "c":
        values = values.real
    return values.ravel(order="F"), None


def _encoded(values: np.ndarray, text: str | None, p: Precision, f: OpenFile | None,
             byte_order: str) -> list[bytes] | tuple[bytes, int]:
    """The bytes of each character for 'char'; else all the bytes and the size of one value."""
    if p.code == "text":
        codec = f.codec if f is not None else "utf-8"
        chars = text if text is not None else "".join(
            chr(int(min(max(x, 0), 0x10FFFF))) for x in np.nan_to_num(values.astype(np.float64)))
        return [ch.encode(codec, errors="replace") for ch in chars]
    if "bit" in p.code:
        bits = int(p.code.split("bit")[1])
        return _pack_bits(values, bits, not p.code.startswith("u"), byte_order), 0
    dtype = p.dtype(byte_order)
    target = {"u1": "uint8", "i1": "int8", "u2": "uint16", "i2": "int16", "u4": "uint32",
              "i4": "int32", "u8": "uint64", "i8": "int64", "f4": "single", "f8": "double"}[p.code]
    source = values if values.dtype.kind in "iu" else values.astype(np.float64)
    converted = np.asarray(to_class(source, target) if target != "double" else source)
    return converted.astype(dtype).tobytes(), dtype.itemsize


@builtin(interp=True)
def fwrite(interp: Any, fid: Any, a: Any, precision: Any = None, skip: Any = None,
           machinefmt: Any = None) -> float:
    """fwrite(fileID, A) writes the elements of A to a binary file as bytes (uint8),
    in column order; values are rounded and saturated to the precision.
    fwrite(fileID, A, precision) writes values of the precision ('uint8' 'int16'
    'double' 'char' ... as in fread).  fwrite(fileID, A, precision, skip) skips bytes
    before each value (or block of N for 'N*precision'); fwrite(..., machinefmt) sets
    the byte order.  count = fwrite(...) returns the number of values written."""
    number = fid_number(fid)
    f = None if number in (1, 2) else open_file(interp, fid)
    if number is None:
        raise invalid_fid()
    p = _precision(precision, "double") if precision is not None else Precision("uint8", "double")
    gap = _count_argument(skip, "fwrite") if skip is not None else 0
    values, text = _values_to_write(a)
    encoded = _encoded(values, text, p, f, _byte_order(f, machinefmt))
    if isinstance(encoded, tuple) and not encoded[1]:  # bits: written as a whole
        if f is None or gap:
            raise error("MATLAB:fwrite:InvalidPrecision",
                        "Bit precisions cannot be used with a skip or a standard stream.")
        f.write_bytes(encoded[0])
        return float(values.size)
    if isinstance(encoded, tuple):
        data, itemsize = encoded
        pieces = [data[k:k + itemsize] for k in range(0, len(data), itemsize)] if gap else [data]
        total = len(data) // itemsize
    else:
        pieces, total, itemsize = encoded, len(encoded), 0
    if f is None:  # standard output or error: the bytes as characters
        shown = b"".join(pieces).decode("latin-1")
        if number == 2:
            interp.out.flush()
            interp.err.write(shown)
        else:
            interp.write(shown)
        return float(total)
    if not gap and itemsize:
        return float(f.write_bytes(pieces[0]) // itemsize)
    written = 0
    block = p.block or 1
    for k in range(0, len(pieces), block):
        if gap:
            f.stream.seek(gap, 1)
        chunk = pieces[k:k + block]
        data = b"".join(chunk)
        if f.write_bytes(data) < len(data):
            break
        written += len(chunk)
    return float(written)
