"""Open files: the session's table of file identifiers, fopen and fclose, and the
functions that move in a file or read it by lines (fgetl, fgets, feof, ftell, fseek,
frewind, ferror, fscanf).

Every file is opened in binary mode: on Unix MATLAB translates no newlines, so what
is read and written are exactly the bytes of the file; a function that reads or
writes characters decodes or encodes them with the file's encoding.  The table lives
in ``interp.family_state["files"]`` (identifiers 0, 1 and 2 are standard input,
output and error and are never in it); fprintf and the binary and textscan modules
find files through ``open_file``.
"""

from __future__ import annotations

import codecs
import math
import os
import re
from dataclasses import dataclass
from typing import IO, Any

import numpy as np

from mlang.builtins.coerce import text_or_none, text_scalar
from mlang.builtins.files.atomic import os_reason
from mlang.builtins.language.introspection import find_file
from mlang.builtins.text.forms import empty_char, row
from mlang.builtins.text.scan import sscanf
from mlang.errors import MatlabError, error, warn
from mlang.registry import builtin
from mlang.values.core import CHAR, char_row, class_of, to_double_array

FAMILY = "files"
INVALID_FID = "MATLAB:FileIO:InvalidFid"
_INVALID_FID_MESSAGE = "Invalid file identifier. Use fopen to generate a valid file identifier."
# The standard streams, as fopen(fid) describes them.
_STANDARD = {0: ('"stdin"', "r"), 1: ('"stdout"', "w"), 2: ('"stderr"', "w")}

# MATLAB's names of the encodings people use most, by Python's codec name.
_ENCODING_NAMES = {
    "utf_8": "UTF-8", "latin_1": "ISO-8859-1", "iso8859_1": "ISO-8859-1", "ascii": "US-ASCII",
    "cp1252": "windows-1252", "utf_16": "UTF-16", "utf_16_le": "UTF-16LE",
    "utf_16_be": "UTF-16BE", "utf_32": "UTF-32", "utf_32_le": "UTF-32LE",
    "utf_32_be": "UTF-32BE", "shift_jis": "Shift_JIS", "euc_jp": "EUC-JP", "gbk": "GBK",
    "big5": "Big5", "euc_kr": "EUC-KR", "iso8859_15": "ISO-8859-15", "cp1251": "windows-1251",
    "cp1250": "windows-1250", "koi8_r": "KOI8-R",
}
_MACHINE_FORMATS = {"n": "ieee-le", "native": "ieee-le", "l": "ieee-le", "ieee-le": "ieee-le",
                    "b": "ieee-be", "ieee-be": "ieee-be", "a": "ieee-le.l64",
                    "ieee-le.l64": "ieee-le.l64", "s": "ieee-be.l64", "ieee-be.l64": "ieee-be.l64"}
_PERMISSION = re.compile(r"^([rwaWA])(\+?)([tb]?)(\+?)$")


def encoding_name(text: str) -> str:
    """MATLAB's name of an encoding (case and spelling as MATLAB reports them); an
    encoding Python does not know is MATLAB's warning and UTF-8."""
    if text.lower() in ("system", "default", ""):
        return "UTF-8"
    try:
        codec = codecs.lookup(text).name.replace("-", "_")
    except LookupError:
        warn("MATLAB:iofun:UnsupportedEncoding",
             f"The encoding '{text}' is not supported. See the documentation for FOPEN.")
        return "UTF-8"
    return _ENCODING_NAMES.get(codec, text)


def python_codec(encoding: str) -> str:
    """The Python codec that reads and writes MATLAB's encoding ``encoding``."""
    return "utf-8" if encoding == "UTF-8" else encoding


def machine_format(v: Any) -> str:
    """A machine format argument ('n', 'l', 'b', 'ieee-le', ...) as MATLAB names it."""
    text = text_or_none(v)
    name = _MACHINE_FORMATS.get(text.lower()) if text is not None else None
    if name is None:
        raise error("MATLAB:fopen:InvalidMachineFormat", "Invalid machine format.")
    return name


@dataclass(eq=False)
class OpenFile:
    """One file opened by fopen: what fopen(fid) reports, the stream, and the end-of-file
    and error indicators feof and ferror report."""

    name: str
    permission: str
    machinefmt: str
    encoding: str
    stream: IO[bytes]
    readable: bool
    writable: bool
    eof: bool = False
    message: str = ""
    encoder: Any = None  # one incremental encoder a file: a byte order mark is written once

    @property
    def codec(self) -> str:
        return python_codec(self.encoding)

    @property
    def byte_order(self) -> str:
        return ">" if self.machinefmt.startswith("ieee-be") else "<"

    def write_bytes(self, data: bytes) -> int:
        """Write ``data``; the number of bytes written (0 to a file not open for writing)."""
        if not self.writable:
            self.message = "File not open for writing."
            return 0
        try:
            self.stream.write(data)
        except OSError as exc:
            self.message = os_reason(exc)
            return 0
        return len(data)

    def write_text(self, text: str) -> int:
        """Write characters in the file's encoding (fprintf); the number of bytes written."""
        if self.encoder is None:
            self.encoder = codecs.getincrementalencoder(self.codec)(errors="replace")
        return self.write_bytes(self.encoder.encode(text))

    def read_bytes(self, n: int = -1) -> bytes:
        """Up to ``n`` bytes (all the rest for -1); reading less than asked sets end-of-file."""
        if not self.readable:
            self.message = "File not open for reading."
            return b""
        data = self.stream.read(n) if n >= 0 else self.stream.read()
        if n < 0 or len(data) < n:
            self.eof = True
        return data

    def at_end(self) -> bool:
        """Whether nothing is left to read (the position is at or past the end)."""
        here = self.stream.tell()
        end = self.stream.seek(0, os.SEEK_END)
        self.stream.seek(here)
        return here >= end


def files(interp: Any) -> dict[int, OpenFile]:
    """The session's open files by identifier."""
    table = interp.family_state.get(FAMILY)
    if table is None:
        table = interp.family_state[FAMILY] = {}
    return table


def invalid_fid() -> Exception:
    return error(INVALID_FID, _INVALID_FID_MESSAGE)


def fid_number(v: Any) -> int | None:
    """A file identifier argument as an int; None when it is not an integer scalar."""
    if type(v) is float:
        return int(v) if v.is_integer() else None
    if type(v) is np.ndarray and v.size == 1 and v.dtype.kind in "iuf":
        x = float(v.reshape(-1)[0])
        return int(x) if x.is_integer() else None
    return None


def open_file(interp: Any, v: Any) -> OpenFile:
    """The open file a file identifier names; MATLAB's invalid identifier error otherwise."""
    fid = fid_number(v)
    found = files(interp).get(fid) if fid is not None else None
    if found is None:
        raise invalid_fid()
    return found


def _new_fid(table: dict[int, OpenFile]) -> int:
    """The smallest identifier from 3 up that no open file has: MATLAB reuses them."""
    fid = 3
    while fid in table:
        fid += 1
    return fid


def _found_on_path(interp: Any, name: str) -> str | None:
    """A file opened for reading that is not in the current folder is looked for on
    the search path, as MATLAB does."""
    if os.path.isabs(name) or os.path.exists(name):
        return None
    found = find_file(interp, name, add_m=False)
    return None if found is None else str(found)


# ----------------------------------------------------------------------- fopen


def _permission(v: Any) -> tuple[str, str, str]:
    """A permission argument: the Python mode, the permission fopen(fid) reports, and
    the base letter."""
    text = v if type(v) is str else text_or_none(v)
    m = _PERMISSION.match(text) if text is not None else None
    if m is None or (m.group(2) and m.group(4)):
        raise error("MATLAB:fopen:InvalidPermission", "Invalid permission.")
    base, plus, kind = m.group(1), m.group(2) or m.group(4), m.group(3) or "b"
    python_mode = base.lower() + plus + "b"
    return python_mode, base + kind + plus, base.lower()


def _describe(interp: Any, v: Any, nargout: int) -> tuple:
    """fopen(fid): the file's name, permission, machine format and encoding ('' for
    each when fid names no open file)."""
    fid = fid_number(v)
    if fid in _STANDARD:
        name, permission = _STANDARD[fid]  # type: ignore[index]
        values = (row(name), row(permission), row("ieee-le"), row("UTF-8"))
    else:
        f = files(interp).get(fid) if fid is not None else None
        if f is None:
            values = (empty_char(),) * 4
        else:
            values = (row(f.name), row(f.permission), row(f.machinefmt), row(f.encoding))
    return values[:max(nargout, 1)]


def _all_fids(interp: Any) -> np.ndarray:
    fids = sorted(files(interp))
    if not fids:
        return np.zeros((0, 0))
    return np.array([fids], dtype=np.float64)


@builtin(interp=True, max_out=4, nargout=True)
def fopen(interp: Any, filename: Any, permission: Any = None, machinefmt: Any = None,
          encoding: Any = None, *, nargout: int = 1) -> Any:
    """fileID = fopen(filename) opens a file for binary read access and returns an
    integer file identifier of 3 or more (-1 when the file cannot be opened).
    fileID = fopen(filename, permission) opens it with the access permission:
    'r' read, 'w' write (discarding the contents), 'a' append, 'r+' 'w+' 'a+' read
    and write; 't' (text) or 'b' (binary) may follow, and change nothing on Unix.
    fileID = fopen(filename, permission, machinefmt, encodingIn) also sets the byte
    order of binary data ('n' native, 'l' or 'ieee-le', 'b' or 'ieee-be') and the
    encoding of text ('UTF-8' by default, 'ISO-8859-1', 'windows-1252', ...).
    [fileID, errmsg] = fopen(...) also returns why the file could not be opened.
    fIDs = fopen('all') returns the identifiers of all open files.
    [filename, permission, machinefmt, encodingOut] = fopen(fileID) describes an
    open file."""
    if fid_number(filename) is not None and permission is None:
        return _describe(interp, filename, nargout)
    name = text_or_none(filename)
    if name is None:
        raise error("MATLAB:fopen:InvalidInput", "File name must be a character vector or string scalar.")
    if name.lower() == "all" and permission is None:
        return _all_fids(interp)
    python_mode, reported, base = _permission("r" if permission is None else permission)
    byte_order = "ieee-le" if machinefmt is None else machine_format(machinefmt)
    encoding_text = "UTF-8" if encoding is None else encoding_name(
        text_scalar(encoding, "Encoding"))
    path = os.path.expanduser(name)
    if base == "r":
        path = _found_on_path(interp, path) or path
    try:
        if os.path.isdir(path):
            raise IsADirectoryError(21, "Is a directory")
        stream = open(path, python_mode)  # noqa: SIM115 -- the file stays open until fclose
    except OSError as exc:
        return (-1.0, row(os_reason(exc)))[:max(nargout, 1)]
    if base == "a" and "+" in python_mode:
        stream.seek(0)  # C's a+: reading starts at the beginning, writes still append
    table = files(interp)
    fid = _new_fid(table)
    shown = os.path.abspath(path) if base == "r" else name
    table[fid] = OpenFile(shown, reported, byte_order, encoding_text, stream,
                          readable=base == "r" or "+" in python_mode,
                          writable=base != "r" or "+" in python_mode)
    return (float(fid), empty_char())[:max(nargout, 1)]


@builtin(interp=True)
def fclose(interp: Any, fid: Any) -> float:
    """status = fclose(fileID) closes an open file; status is 0 when it succeeded,
    -1 otherwise.  status = fclose('all') closes all open files."""
    table = files(interp)
    if text_or_none(fid) is not None:
        if text_or_none(fid).lower() != "all":  # type: ignore[union-attr]
            raise invalid_fid()
        status = 0.0
        for number in list(table):
            status = min(status, _close(table, number))
        return status
    number = fid_number(fid)
    if number in _STANDARD:
        return 0.0
    if number is None or number not in table:
        raise invalid_fid()
    return _close(table, number)


def _close(table: dict[int, OpenFile], number: int) -> float:
    f = table.pop(number)
    try:
        f.stream.close()
    except OSError:
        return -1.0
    return 0.0


def close_all(interp: Any) -> None:
    """Close every file the session opened (for a session that ends)."""
    table = files(interp)
    for number in list(table):
        _close(table, number)


# ---------------------------------------------------------------- position


@builtin(interp=True)
def feof(interp: Any, fid: Any) -> float:
    """status = feof(fileID) is 1 when a previous operation reached the end of the
    file, 0 otherwise."""
    return 1.0 if open_file(interp, fid).eof else 0.0


@builtin(interp=True)
def ftell(interp: Any, fid: Any) -> float:
    """position = ftell(fileID) is the number of bytes from the beginning of the file
    to the current position."""
    return float(open_file(interp, fid).stream.tell())


_ORIGINS = {"bof": os.SEEK_SET, "cof": os.SEEK_CUR, "eof": os.SEEK_END,
            -1: os.SEEK_SET, 0: os.SEEK_CUR, 1: os.SEEK_END}


@builtin(interp=True)
def fseek(interp: Any, fid: Any, offset: Any, origin: Any = None) -> float:
    """status = fseek(fileID, offset, origin) moves the position offset bytes from the
    origin: 'bof' or -1 (the beginning), 'cof' or 0 (the current position), 'eof' or 1
    (the end).  status is 0 on success, -1 when the position would be before the
    beginning (ferror tells why)."""
    f = open_file(interp, fid)
    if origin is None:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    text = text_or_none(origin)
    key: Any = text.lower() if text is not None else fid_number(origin)
    if key not in _ORIGINS:
        raise error("MATLAB:fseek:InvalidOrigin", "Origin must be 'bof', 'cof', 'eof', -1, 0 or 1.")
    a = to_double_array(offset)
    if a.size != 1 or not math.isfinite(float(a.reshape(-1)[0].real)):
        raise error("MATLAB:fseek:InvalidOffset", "Offset must be a finite scalar.")
    bytes_offset = int(float(a.reshape(-1)[0].real))
    here = f.stream.tell()
    end = f.stream.seek(0, os.SEEK_END)
    f.stream.seek(here)
    start = {os.SEEK_SET: 0, os.SEEK_CUR: here, os.SEEK_END: end}[_ORIGINS[key]]
    if start + bytes_offset < 0:
        f.message = "Offset is bad - before beginning-of-file."
        return -1.0
    f.stream.seek(start + bytes_offset)
    f.eof = False
    return 0.0


@builtin(interp=True, max_out=0)
def frewind(interp: Any, fid: Any) -> None:
    """frewind(fileID) moves the position to the beginning of the file."""
    f = open_file(interp, fid)
    f.stream.seek(0)
    f.eof = False


@builtin(interp=True, max_out=2, nargout=True)
def ferror(interp: Any, fid: Any, clear: Any = None, *, nargout: int = 1) -> Any:
    """msg = ferror(fileID) is the message of the last error of a file operation on
    the file ('' if none).  [msg, errnum] = ferror(fileID) also returns its number
    (0 if none).  ferror(fileID, 'clear') clears the error."""
    f = open_file(interp, fid)
    message = f.message
    if clear is not None:
        if (text_or_none(clear) or "").lower() != "clear":
            raise error("MATLAB:ferror:InvalidInput", "Second input must be 'clear'.")
        f.message = ""
    outputs = (row(message) if message else empty_char(), -1.0 if message else 0.0)
    return outputs[:max(nargout, 1)]


# ------------------------------------------------------------------- lines


def _read_line(f: OpenFile, limit: int | None = None) -> str | None:
    """The next line with its newline (None at the end of the file); with ``limit``,
    at most that many characters.  Reaching the end sets end-of-file, as MATLAB's
    line readers do."""
    if not f.readable:
        f.message = "File not open for reading."
        return None
    newline = "\n".encode(f.codec.replace("utf-16", "utf-16-le")
                          if f.codec.lower() == "utf-16" else f.codec)
    start = f.stream.tell()
    if len(newline) == 1:
        data = f.stream.readline()
    else:
        data = _read_until(f.stream, newline)
    if not data:
        f.eof = True
        return None
    text = data.decode(f.codec, errors="replace")
    if limit is not None and len(text) > limit:
        text = text[:limit]
        f.stream.seek(start + len(text.encode(f.codec, errors="replace")))
    if f.at_end():
        f.eof = True
    return text


def _read_until(stream: IO[bytes], newline: bytes) -> bytes:
    """Bytes up to and including ``newline`` (a multi-byte unit), or to the end."""
    size = len(newline)
    parts = []
    while True:
        unit = stream.read(size)
        parts.append(unit)
        if len(unit) < size or unit == newline:
            return b"".join(parts)


def _line_value(text: str) -> np.ndarray:
    return char_row(text) if text else np.zeros((1, 0), dtype=CHAR)


def _limit(nchar: Any) -> int:
    a = to_double_array(nchar)
    if a.size != 1 or not a.reshape(-1)[0].real >= 0:
        raise error("MATLAB:fgets:InvalidLength", "Number of characters must be a nonnegative scalar.")
    x = float(a.reshape(-1)[0].real)
    return math.floor(x) if math.isfinite(x) else 2**62


@builtin(interp=True)
def fgetl(interp: Any, fid: Any) -> Any:
    """tline = fgetl(fileID) returns the next line of the file without its newline
    characters, or -1 when there is no line left."""
    text = _read_line(open_file(interp, fid))
    if text is None:
        return -1.0
    if text.endswith("\n"):
        text = text[:-2] if text.endswith("\r\n") else text[:-1]
    return _line_value(text)


@builtin(interp=True, max_out=2, nargout=True)
def fgets(interp: Any, fid: Any, nchar: Any = None, *, nargout: int = 1) -> Any:
    """tline = fgets(fileID) returns the next line of the file with its newline
    characters, or -1 when there is no line left.  tline = fgets(fileID, nchar) reads
    at most nchar characters.  [tline, ltout] = fgets(...) also returns the line
    terminators of tline."""
    f = open_file(interp, fid)
    text = _read_line(f, None if nchar is None else _limit(nchar))
    if text is None:
        return (-1.0, -1.0)[:max(nargout, 1)]
    ending = "\r\n" if text.endswith("\r\n") else "\n" if text.endswith("\n") else ""
    return (_line_value(text), _line_value(ending))[:max(nargout, 1)]


# ------------------------------------------------------------------ fscanf


_SCAN_CHUNK = 1 << 12
_SCAN_MARGIN = 8


def _finite_size(size: Any) -> bool:
    try:
        a = to_double_array(size)
    except MatlabError:
        return False
    return bool(a.size) and bool(np.isfinite(a.real).all())


@builtin(interp=True, max_out=3, nargout=True)
def fscanf(interp: Any, fid: Any, fmt: Any, size: Any = None, *, nargout: int = 1) -> Any:
    """A = fscanf(fileID, formatSpec) reads the data of the file by formatSpec, as
    sscanf reads text: a column vector of the values read (a character row when
    formatSpec has only %c and %s conversions).  A = fscanf(fileID, formatSpec, sizeA)
    reads at most n values (sizeA = n, or Inf) or fills an m-by-n matrix in column
    order (sizeA = [m n], n may be Inf).  [A, count, errmsg] = fscanf(...) also returns
    the number of values read and the message of a matching failure ('' if none).
    Reading goes on from the file's position and leaves it after the last field read."""
    f = open_file(interp, fid)
    text_scalar(fmt, "Format")
    if not f.readable:
        f.message = "File not open for reading."
    start = f.stream.tell()
    # A finite size reads a first piece of the file: loops that read a value at a time
    # would otherwise decode the whole rest of the file on every call.
    chunk = _SCAN_CHUNK if size is not None and _finite_size(size) else -1
    while True:
        data = f.stream.read(chunk) if chunk >= 0 and f.readable else (
            f.stream.read() if f.readable else b"")
        whole = chunk < 0 or len(data) < chunk
        text = data.decode(f.codec, errors="replace")
        args = [char_row(text) if text else np.zeros((1, 0), dtype=CHAR), fmt]
        if size is not None:
            args.append(size)
        a, count, message, next_index = sscanf(*args, nargout=4)
        used = int(next_index) - 1
        # the piece is enough when the reading stopped well before its end
        if whole or used < len(text) - _SCAN_MARGIN:
            break
        f.stream.seek(start)
        chunk = chunk * 16 if chunk < 1 << 24 else -1
    if whole and used >= len(text):
        f.eof = True
        f.stream.seek(start + len(data))
    else:
        f.eof = False
        f.stream.seek(start + len(text[:used].encode(f.codec, errors="replace")))
    if class_of(a) == "char" and a.size == 0:
        a = empty_char()
    return (a, count, message)[:max(nargout, 1)]
