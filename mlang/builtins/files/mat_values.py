"""MATLAB values <-> the objects SciPy's MAT-file reader and writer use (versions 4, 6, 7).

Reading goes through SciPy's version 5 reader, variable by variable (``mat_dtype`` so
that each array keeps its MATLAB class even when MATLAB stored it in a smaller type;
an object variable named by its own stored name, where ``loadmat`` calls them all
'None'), and through ``loadmat`` for version 4.  Writing goes through a small subclass
of SciPy's version 5 writer that stores char data as UTF-16 code units, as MATLAB does
(SciPy's own char writer would lose NUL characters, the size of empty char arrays and
characters beyond U+FFFF), and structs without fields of any size.

Objects (string arrays, datetimes, durations, tables: ``mat_objects``) are written as
opaque MCOS references, their properties collected in a ``SubsystemBuilder`` and written
after the variables as the file's subsystem data (an unnamed uint8 variable holding a
small MAT-file, its position in the file header).

A value the file format cannot hold raises ``Unsupported`` (the caller warns and skips
the variable); a value read that mlang cannot represent (an anonymous function handle,
an object of another class) becomes None with a warning.
"""

from __future__ import annotations

import io
import os
import time
import warnings
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.files.mat_codecs import UNITS_CODECS
from mlang.builtins.files.mat_objects import (
    check_properties,
    is_object,
    load_reference,
    reference_class,
    store,
)
from mlang.builtins.files.mat_subsystem import CanonicalEmpty, Subsystem, SubsystemBuilder, is_reference
from mlang.errors import warn
from mlang.values.cell import Cell
from mlang.values.core import (
    CHAR,
    char_codes,
    char_from_codes,
    char_matrix,
    char_row,
    char_text,
    class_of,
    fix_shape,
    result,
)
from mlang.values.handle import FunctionHandle
from mlang.values.sparse import is_sparse, wrap
from mlang.values.struct import Struct


class Unsupported(Exception):
    """A value of a class that cannot be written to the MAT-file (``args[0]``: its class)."""


class CharData:
    """A char array to write: its UTF-16 code units and MATLAB size."""

    __slots__ = ("codes", "shape")

    def __init__(self, codes: np.ndarray, shape: tuple[int, ...]) -> None:
        self.codes = codes
        self.shape = shape


class FieldlessStruct:
    """A struct array without fields, of any size."""

    __slots__ = ("shape",)

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape


def plain_value(value: Any) -> Any:
    """What a value is saved as: a dlarray as its data, a scalar as a 1×1 array, everything
    else as it is."""
    if type(value) is DlArray:
        value = result(value.data)
    if type(value) in (float, complex, bool):
        return np.array([[value]])
    return value


class HandleData:
    """A function handle to write: MATLAB's struct describing it (see ``handle_fields``)."""

    __slots__ = ("record",)

    def __init__(self, record: Any) -> None:
        self.record = record


def is_simple_handle(value: Any) -> bool:
    """Whether a value is a handle to a named function (``@sin``), which MAT-files hold."""
    return (type(value) is FunctionHandle and value.params is None and value.scope is None
            and value.name.isidentifier())


def handle_fields(value: FunctionHandle) -> Struct:
    """What MATLAB stores for a handle to a named function: a struct of the MATLAB root,
    the file separator, the sentinel '@' and ``function_handle`` (the function's name, the
    kind of handle 'simple' and its file, '' for a function found on the path)."""
    inner = Struct.scalar({"function": char_row(value.name), "type": char_row("simple"),
                           "file": np.zeros((0, 0), dtype=CHAR)})
    return Struct.scalar({"matlabroot": np.zeros((0, 0), dtype=CHAR), "separator": char_row(os.sep),
                          "sentinel": char_row("@"), "function_handle": inner})


def handle_from_fields(record: Any) -> FunctionHandle | None:
    """The handle a struct of ``handle_fields``'s layout describes (None unless it is a
    handle to a named function)."""
    try:
        inner = record.element(0)["function_handle"].element(0)
        kind, function = char_text(inner["type"]), char_text(inner["function"])
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        return None
    return FunctionHandle(name=function) if kind == "simple" and function.isidentifier() else None


class OpaqueData:
    """An object to write: its class name and the reference into the subsystem data
    (``FileWrapper__`` holds the subsystem's cells instead)."""

    __slots__ = ("class_name", "data")

    def __init__(self, class_name: str, data: Any) -> None:
        self.class_name = class_name
        self.data = data


# ------------------------------------------------------------------- writing


def to_writable(value: Any, v4: bool = False, objects: SubsystemBuilder | None = None) -> Any:
    """The object the SciPy writer takes for a MATLAB value (Unsupported if none); the
    objects in it are added to ``objects``."""
    value = plain_value(value)
    t = type(value)
    if t is np.ndarray:
        if value.dtype == CHAR:
            if v4:
                return _char_rows_v4(value)
            return CharData(np.asarray(char_codes(value)), value.shape)
        if v4:
            if value.ndim > 2:
                raise Unsupported(class_of(value))
            return value.astype(np.complex128 if value.dtype.kind == "c" else np.float64)
        return value
    if is_sparse(value):
        return value.matrix.astype(np.float64) if v4 and value.matrix.dtype == np.bool_ else value.matrix
    if v4:
        raise Unsupported(class_of(value))
    if t is Cell:
        out = np.empty(value.data.shape, dtype=object)
        for index, item in np.ndenumerate(value.data):
            out[index] = to_writable(item, objects=objects)
        return out
    if t is Struct:
        if not value.fields:
            return FieldlessStruct(value.shape)
        out = np.empty(value.elems.shape, dtype=[(f, object) for f in value.fields])
        for index, element in np.ndenumerate(value.elems):
            out[index] = tuple(to_writable(element[f], objects=objects) for f in value.fields)
        return out
    if is_object(value) and objects is not None:
        check_properties(value, to_writable)
        return OpaqueData(*store(value, objects))
    if is_simple_handle(value):
        return HandleData(to_writable(handle_fields(value)))
    raise Unsupported(class_of(value))


def subsystem_bytes(objects: SubsystemBuilder) -> np.ndarray:
    """The subsystem data of the objects saved (a uint8 row written as an unnamed
    variable): a MAT-file of its own, a short header and a struct whose field ``MCOS``
    is the ``FileWrapper__`` object holding the subsystem's cells."""
    cells = objects.cells()
    column = np.empty((len(cells), 1), dtype=object)
    for k, cell in enumerate(cells):
        column[k, 0] = cell if type(cell) is CanonicalEmpty else to_writable(cell)
    wrapper = np.empty((1, 1), dtype=[("MCOS", object)])
    wrapper[0, 0] = (OpaqueData("FileWrapper__", column),)
    buffer = io.BytesIO()
    buffer.write(b"\x00\x01IM\x00\x00\x00\x00")
    writer = make_writer(buffer, compress=False)
    writer.put_variables({"": wrapper}, write_header=False)
    return np.frombuffer(buffer.getvalue(), dtype=np.uint8).reshape(1, -1)


def _char_rows_v4(value: np.ndarray) -> np.ndarray:
    """A char matrix as SciPy's version 4 writer takes it: one string a row."""
    if value.ndim > 2:
        raise Unsupported("char")
    rows, width = value.shape
    codes = np.ascontiguousarray(char_codes(value)).astype(np.uint32)
    if width == 0:
        return np.zeros((rows, 0), dtype="<U1")
    return codes.view(f"<U{width}").reshape(rows)


def make_writer(stream: Any, compress: bool) -> Any:
    """A version 5 MAT-file writer (the format of -v6 and -v7) over an open binary file."""
    # SciPy on first use: keeps start-up fast
    from scipy.io.matlab import _mio5, _mio5_params
    from scipy.io.matlab._mio5 import MatFile5Writer, VarWriter5

    class VarWriter(VarWriter5):
        def write(self, arr: Any) -> None:
            if type(arr) is CharData:
                position = self.file_stream.tell()
                self.write_header(arr.shape, _mio5_params.mxCHAR_CLASS)
                # MATLAB's own layout: UTF-16 code units in column-major order
                codes = np.asarray(arr.codes, dtype="<u2").ravel(order="F")
                self.write_element(codes, mdtype=_mio5_params.miUINT16)
                self.update_matrix_tag(position)
            elif type(arr) is CanonicalEmpty:  # an empty matrix element, as MATLAB writes it
                self.write_bytes(np.array([_mio5_params.miMATRIX, 0], dtype="<u4"))
            elif type(arr) is OpaqueData:
                self._write_opaque(arr)
            elif type(arr) is HandleData:  # the function class, holding its struct
                position = self.file_stream.tell()
                self.write_header((1, 1), _mio5_params.mxFUNCTION_CLASS)
                self.write(arr.record)
                self.update_matrix_tag(position)
            elif type(arr) is FieldlessStruct:
                position = self.file_stream.tell()
                self.write_header(arr.shape, _mio5_params.mxSTRUCT_CLASS)
                self.write_element(np.array(1, dtype=np.int32))
                self.write_element(np.array([], dtype=np.int8))
                self.update_matrix_tag(position)
            else:
                super().write(arr)

        def _write_opaque(self, arr: OpaqueData) -> None:
            # MATLAB's layout: flags, the name, the type system, the class name, then the
            # data (no dimensions)
            position = self.file_stream.tell()
            name = self._var_name or b""
            self._var_name = ""
            self._var_is_global = False
            self.write_bytes(self.mat_tag)
            self.write_element(np.array([_mio5_params.mxOPAQUE_CLASS, 0], dtype="<u4"))
            for text in (name, b"MCOS", arr.class_name.encode("ascii")):
                self.write_element(np.frombuffer(text, dtype=np.uint8), mdtype=_mio5_params.miINT8)
            self.write(arr.data)
            self.update_matrix_tag(position)

    class Writer(MatFile5Writer):
        def put_variables(self, mdict: dict, write_header: bool | None = None) -> None:
            if write_header is None:
                write_header = self.file_stream.tell() == 0
            if write_header:
                self.write_file_header()
            self._matrix_writer = VarWriter(self)
            for name, var in mdict.items():
                # an empty name must be '' for SciPy to write it empty (the subsystem data)
                stored_name = name.encode("latin1") if name else ""
                if not self.do_compression:
                    self._matrix_writer.write_top(var, stored_name, False)
                    continue
                buffer = _mio5.BytesIO()
                self._matrix_writer.file_stream = buffer
                self._matrix_writer.write_top(var, stored_name, False)
                packed = _mio5.zlib.compress(buffer.getvalue())
                tag = np.empty((), _mio5.NDT_TAG_FULL)
                tag["mdtype"] = _mio5.miCOMPRESSED
                tag["byte_count"] = len(packed)
                self.file_stream.write(tag.tobytes())
                self.file_stream.write(packed)

    return Writer(stream, do_compression=compress, unicode_strings=True, long_field_names=True)


def header_text() -> bytes:
    """The descriptive text at the start of a MAT-file written by mlang."""
    return f"MATLAB 5.0 MAT-file, Platform: GLNXA64, Created on: {time.asctime()}".encode("ascii")


# ------------------------------------------------------------------- reading




def read_mat5(path: str, names: list[str] | None = None, v4: bool = False) -> dict[str, Any]:
    """The variables of a version 4/6/7 MAT-file as SciPy reads them (name -> object), and
    the subsystem data objects' contents live in (``__function_workspace__``)."""
    options: dict[str, Any] = {"chars_as_strings": False}
    if not v4:
        with open(path, "rb") as f:
            big_endian = f.read(128)[126:128] == b"MI"
        options |= {"struct_as_record": True, "uint16_codec": UNITS_CODECS[">" if big_endian else "<"]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = _read_all(path, names, v4, mat_dtype=True, **options)
    if any(issubclass(w.category, np.exceptions.ComplexWarning) for w in caught):
        # mat_dtype casts complex doubles to real: the complex parts come from a second read
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            raw = _read_all(path, names, v4, mat_dtype=False, **options)
        found = {k: _merge_complex(v, raw.get(k)) for k, v in found.items()}
    return found


def _read_all(path: str, names: list[str] | None, v4: bool, **options: Any) -> dict[str, Any]:
    # SciPy on first use: keeps start-up fast
    import scipy.io
    from scipy.io.matlab._mio5 import MatFile5Reader

    if v4:
        found = scipy.io.loadmat(path, variable_names=names, **options)
        return {k: v for k, v in found.items() if not k.startswith("__")}
    return dict(mat5_entries(path, MatFile5Reader, names, **options))


def mat5_entries(path: str, reader_class: Any, names: list[str] | None, headers_only: bool = False,
                 **options: Any) -> Any:
    """(name, object) for each variable of a version 5 file, read as SciPy's loadmat does,
    except that an object (opaque) variable is named by its own stored name (loadmat calls
    them all 'None'); the unnamed subsystem data comes as ``__function_workspace__``.
    With ``headers_only`` the objects are None (except for objects, whose name needs them)."""
    with open(path, "rb") as f:
        reader = reader_class(f, **options)
        reader.mat_stream.seek(0)
        reader.initialize_read()
        reader.read_file_header()
        while not reader.end_of_stream():
            header, next_position = reader.read_var_header()
            name = None if header.name is None else header.name.decode("latin1")
            if name == "":
                name = "__function_workspace__"
                value = None if headers_only else reader.read_var_array(header, False)
            elif name is None or not (headers_only or (names is not None and name not in names)):
                value = reader.read_var_array(header, True)
                if name is None:
                    name = _opaque_name(value)
            else:
                value = None
            reader.mat_stream.seek(next_position)
            if names is None or name in names or name == "__function_workspace__":
                yield name, value


def mat5_raw_blocks(path: str) -> list[tuple[str, bytes]]:
    """(name, stored bytes) of each variable of a version 5 file, so that save -append can
    keep them exactly, whatever their class; the subsystem data is named ''."""
    # SciPy on first use: keeps start-up fast
    from scipy.io.matlab._mio5 import MatFile5Reader

    blocks = []
    with open(path, "rb") as f:
        reader = MatFile5Reader(f)
        reader.mat_stream.seek(0)
        reader.initialize_read()
        reader.read_file_header()
        while not reader.end_of_stream():
            start = f.tell()
            header, next_position = reader.read_var_header()
            name = None if header.name is None else header.name.decode("latin1")
            if name is None:
                name = _opaque_name(reader.read_var_array(header, True))
            f.seek(start)
            blocks.append((name, f.read(next_position - start)))
            f.seek(next_position)
    return blocks


def _opaque_name(value: Any) -> str:
    try:
        name = value[0]["s0"]
    except (IndexError, KeyError, TypeError, ValueError):
        return "None"
    return name.decode("latin1") if isinstance(name, bytes) else str(name)


def _merge_complex(typed: Any, raw: Any) -> Any:
    """``typed`` (classes right, imaginary parts lost) with the complex values of ``raw``."""
    if type(typed) is not np.ndarray or type(raw) is not np.ndarray:
        return typed
    if raw.dtype.kind == "c":
        target = np.complex64 if typed.dtype == np.float32 else np.complex128
        return raw.astype(target)
    if typed.dtype.fields and raw.dtype.fields:
        out = typed.copy()
        for index in np.ndindex(typed.shape):
            for f in typed.dtype.names:
                out[index][f] = _merge_complex(typed[index][f], raw[index][f])
        return out
    if typed.dtype == object and raw.dtype == object and typed.shape == raw.shape:
        out = typed.copy()
        for index in np.ndindex(typed.shape):
            out[index] = _merge_complex(typed[index], raw[index])
        return out
    return typed


def from_scipy(obj: Any, name: str, context: dict) -> Any:
    """The MATLAB value of an object SciPy read (None, after a warning, if mlang cannot
    represent it)."""
    # SciPy on first use: keeps start-up fast
    import scipy.sparse
    from scipy.io.matlab import MatlabFunction, MatlabObject, MatlabOpaque

    t = type(obj)
    if isinstance(obj, MatlabOpaque):
        value = _load_opaque(obj, context)
        return value if value is not None else _skipped(name, _opaque_class(obj))
    if isinstance(obj, MatlabFunction):
        handle = _simple_handle(obj)
        return handle if handle is not None else _skipped(name, "function_handle")
    if isinstance(obj, MatlabObject):
        return _skipped(name, getattr(obj, "classname", "object"))
    if scipy.sparse.issparse(obj):
        m = obj.tocsc()
        if not m.dtype.isnative:  # a big-endian file
            m = m.astype(m.dtype.newbyteorder("="))
        if m.dtype.kind in "bu":
            m = m.astype(np.bool_)
        return wrap(m)
    if t is not np.ndarray:
        return result(np.asarray(obj).reshape(1, 1)) if np.isscalar(obj) else _skipped(name, "unknown")
    if not obj.dtype.isnative:  # a big-endian file
        obj = obj.astype(obj.dtype.newbyteorder("="))
    shape = fix_shape(obj.shape)
    if obj.dtype.fields:
        fields = list(obj.dtype.names)
        elems = np.empty(obj.shape, dtype=object)
        for index in np.ndindex(obj.shape):
            record = obj[index]
            elems[index] = {f: _or_empty(from_scipy(record[f], name, context)) for f in fields}
        return Struct(fields, elems.reshape(shape, order="F"))
    if obj.dtype == object:
        if obj.shape == (1, 1) and obj.size and obj[0, 0] is None:
            return Struct.scalar({})
        cells = np.empty(obj.shape, dtype=object)
        for index in np.ndindex(obj.shape):
            cells[index] = _or_empty(from_scipy(obj[index], name, context))
        return Cell(cells.reshape(shape, order="F"))
    if obj.dtype.kind == "U":
        return _chars(obj, shape)
    if "busy" in context and is_reference(obj):  # an object held by another one's property
        words, subsystem = obj.ravel().tolist(), context.get("subsystem")
        value = load_reference(words, subsystem, context["busy"])
        return value if value is not None else _skipped(name, reference_class(words, subsystem))
    return result(obj.reshape(shape, order="F"))


def _load_opaque(obj: Any, context: dict) -> Any:
    """The value of a stored object (None if mlang cannot represent it)."""
    try:
        words = np.asarray(obj[0]["arr"]).astype(np.uint64).ravel(order="F").tolist()
    except (IndexError, KeyError, TypeError, ValueError):
        return None
    return load_reference(words, _subsystem(context), context.get("busy", frozenset()), _opaque_class(obj))


def _subsystem(context: dict) -> Subsystem | None:
    """The file's subsystem data, parsed once per read (kept in ``context``)."""
    if "subsystem" in context:
        return context["subsystem"]
    context["subsystem"] = None
    raw = context.get("__function_workspace__")
    if raw is None:
        return None
    try:
        cells = _subsystem_cells(np.asarray(raw, dtype=np.uint8).tobytes())
        metadata = np.asarray(cells[0], dtype=np.uint8).ravel(order="F").tobytes()

        def decode(cell: Any, busy: frozenset) -> Any:
            return from_scipy(cell, context.get("variable", "object"), {**context, "busy": busy})

        context["subsystem"] = Subsystem(metadata, cells, decode)
    except Exception:  # noqa: BLE001 -- an unexpected layout: the objects are skipped with a warning
        context["subsystem"] = None
    return context["subsystem"]


def _subsystem_cells(data: bytes) -> list:
    """The cells of the FileWrapper__ object in the subsystem data (as SciPy reads them)."""
    # SciPy on first use: keeps start-up fast
    from scipy.io.matlab._mio5 import MatFile5Reader

    # a MAT-file of its own with an 8-byte header: give it a full one to read it with SciPy
    header = b"MATLAB 5.0 MAT-file".ljust(116, b" ") + b"\x00" * 8 + b"\x00\x01" + data[2:4]
    codec = UNITS_CODECS["<" if data[2:4] == b"IM" else ">"]
    reader = MatFile5Reader(io.BytesIO(header + data[8:]), chars_as_strings=False,
                            struct_as_record=True, uint16_codec=codec)
    reader.initialize_read()
    reader.mat_stream.seek(128)
    var_header, _ = reader.read_var_header()
    wrapper = reader.read_var_array(var_header, process=True)
    opaque = wrapper[0, 0]["MCOS"]
    return list(np.asarray(opaque[0]["arr"]).ravel(order="F"))


def _or_empty(value: Any) -> Any:
    return np.zeros((0, 0)) if value is None else value


def _chars(obj: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A char array from SciPy's one-character strings (code points, so characters beyond
    U+FFFF become their two UTF-16 code units, as in MATLAB)."""
    if obj.dtype.itemsize != 4:  # strings of several characters: one more dimension
        width = obj.dtype.itemsize // 4
        obj = np.ascontiguousarray(obj).view("<U1").reshape(*obj.shape, width)
        shape = fix_shape(obj.shape)
    points = np.ascontiguousarray(obj).view(np.uint32).reshape(obj.shape)
    if points.size and points.max() > 0xFFFF:
        rows = points.reshape(points.shape[0], -1, order="F")
        texts = ["".join(map(chr, r)) for r in rows.tolist()]
        return char_matrix(texts)
    return char_from_codes(points.astype(np.uint16)).reshape(shape, order="F")


def _simple_handle(obj: Any) -> Any:
    """A stored handle to a named function (``@name``); None for anonymous and nested
    handles, whose captured workspace is stored as an object mlang cannot decode."""
    try:
        record = np.asarray(obj).reshape(-1)[0]["function_handle"]
        record = np.asarray(record).reshape(-1)[0]
        kind = "".join(np.asarray(record["type"]).reshape(-1).tolist())
        function = "".join(np.asarray(record["function"]).reshape(-1).tolist())
    except (IndexError, KeyError, TypeError, ValueError):
        return None
    if kind != "simple" or not function.isidentifier():
        return None
    return FunctionHandle(name=function)


def _opaque_class(obj: Any) -> str:
    try:
        name = obj[0]["s2"]
    except (IndexError, KeyError, TypeError, ValueError):
        return "object"
    return name.decode("latin1") if isinstance(name, bytes) else str(name)


def _skipped(name: str, cls: str) -> None:
    warn("MATLAB:load:cannotLoadClass",
         f"Cannot load variable '{name}': mlang cannot represent values of class '{cls}'.")
    return None
