"""Version 7.3 MAT-files: HDF5 files in MATLAB's layout, through h5py (an optional extra).

The layout, as MATLAB writes it:

* a 512-byte user block whose first 128 bytes are the MAT-file header (descriptive
  text, version 0x0200, the endian mark ``IM``);
* each variable at the root, each value carrying the attribute ``MATLAB_class``;
  arrays are stored with their dimensions reversed (HDF5 is row-major, MATLAB
  column-major), so the stored data is the transpose;
* char as uint16 code units (``MATLAB_int_decode`` 2), logical as uint8, complex as a
  compound of ``real`` and ``imag``;
* an empty array as its dimensions (uint64) with ``MATLAB_empty`` 1;
* a cell as an array of object references to values in the group ``#refs#``;
* a scalar struct as a group of its fields (``MATLAB_fields`` lists their order); a
  struct array as a group holding, for each field, an array of references;
* a sparse matrix as a group with ``MATLAB_sparse`` (the number of rows) and the
  datasets ``jc`` (column starts), ``ir`` (row indices) and ``data``;
* an object as its reference (uint32, ``MATLAB_class`` its class,
  ``MATLAB_object_decode`` 3) into the subsystem data: the group ``#subsystem#``, a
  struct whose field ``MCOS`` (class ``FileWrapper__``) lists references to the
  subsystem's cells (``mat_subsystem``).
"""

from __future__ import annotations

import itertools
import time
from typing import Any

import numpy as np

from mlang.builtins.files.mat_objects import (
    check_properties,
    contains_object,
    is_object,
    load_reference,
    reference_class,
    store,
)
from mlang.builtins.files.mat_subsystem import CanonicalEmpty, Subsystem, SubsystemBuilder, is_reference
from mlang.builtins.files.mat_values import (
    Unsupported,
    handle_fields,
    handle_from_fields,
    is_simple_handle,
    plain_value,
)
from mlang.errors import RUNNING, error, warn
from mlang.values.cell import Cell
from mlang.values.core import CHAR, char_codes, char_from_codes, class_of, fix_shape, result
from mlang.values.sparse import is_sparse, wrap
from mlang.values.struct import Struct

USER_BLOCK = 512
HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
INSTALL_HINT = "pip install 'mlang[hdf5]'"


def h5py_module() -> Any:
    """h5py, or MATLAB's kind of error naming the package to install."""
    try:
        # h5py on first use: keeps start-up fast
        import h5py
    except ImportError:
        raise error("MATLAB:mlang:missingHDF5",
                    "Version 7.3 MAT-files need the h5py package. "
                    f"Install it with: {INSTALL_HINT}") from None
    return h5py


def mat_header(version: bytes = b"\x00\x02") -> bytes:
    """The 128 bytes that start a version 7.3 MAT-file."""
    text = (f"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: {time.asctime()} "
            "HDF5 schema 1.00 .").encode("ascii")
    return text.ljust(116, b" ") + b"\x00" * 8 + version + b"IM"


def is_hdf5(path: str) -> bool:
    """Whether the file is an HDF5 file (a version 7.3 MAT-file)."""
    try:
        with open(path, "rb") as f:
            head = f.read(USER_BLOCK + 8)
    except OSError:
        return False
    return head[:8] == HDF5_SIGNATURE or head[USER_BLOCK:USER_BLOCK + 8] == HDF5_SIGNATURE


# ------------------------------------------------------------------- writing


def check_writable(value: Any) -> None:
    """Raise Unsupported if a value (or anything inside it) cannot be written."""
    value = plain_value(value)
    t = type(value)
    if t in (float, complex, bool, np.ndarray) or is_sparse(value):
        return
    if is_object(value):
        check_properties(value, check_writable)
        return
    if is_simple_handle(value):
        return
    if t is Cell:
        for item in value.data.ravel():
            check_writable(item)
        return
    if t is Struct:
        for element in value.elems.ravel():
            for item in element.values():
                check_writable(item)
        return
    raise Unsupported(class_of(value))


def write_v73(path: str, variables: dict[str, Any], append: bool = False) -> None:
    """Write the variables to ``path`` (a new file, or with ``append`` an existing 7.3 file
    whose variables of the same names are replaced)."""
    h5py = h5py_module()
    if append and any(contains_object(v) for v in variables.values()):
        with h5py.File(path, "r") as f:
            has_objects = "#subsystem#" in f
            kept = [n for n in variable_names(f) if n not in variables]
        if has_objects:  # one subsystem must hold all the objects: the file is written again
            token = RUNNING.set(None)  # reading quietly: what cannot be read is handled below
            try:
                old = read_v73(path, kept)
            finally:
                RUNNING.reset(token)
            if all(n in old for n in kept):
                variables, append = {n: old[n] for n in kept} | variables, False
            else:
                variables = _without_objects(path, variables)
    if append:
        with h5py.File(path, "a") as f:
            writer = _Writer(f)
            for name, value in variables.items():
                if name in f:
                    del f[name]
                writer.write(f, name, value)
            writer.write_subsystem()
        return
    with h5py.File(path, "w", userblock_size=USER_BLOCK, libver="earliest") as f:
        writer = _Writer(f)
        for name, value in variables.items():
            writer.write(f, name, value)
        writer.write_subsystem()
    with open(path, "r+b") as f:
        f.write(mat_header())


def _without_objects(path: str, variables: dict[str, Any]) -> dict[str, Any]:
    """The variables without those holding objects (each left out with a warning)."""
    out = {}
    for name, value in variables.items():
        if contains_object(value):
            warn("MATLAB:save:unsupportedClass",
                 f"Variable '{name}' was not saved: mlang cannot add objects to '{path}', "
                 "which holds objects of classes it cannot read.")
        else:
            out[name] = value
    return out


class _Writer:
    def __init__(self, f: Any) -> None:
        self.file = f
        self.counter = itertools.count()
        self.h5py = h5py_module()
        self.objects = SubsystemBuilder()

    def write_subsystem(self) -> None:
        """The subsystem data of the objects written (nothing when there are none)."""
        if not self.objects:
            return
        cells = self.objects.cells()
        refs = np.empty((len(cells), 1), dtype=self.h5py.ref_dtype)
        for k, cell in enumerate(cells):
            if type(cell) is CanonicalEmpty:
                ds = self._empty(self.refs(), self._free_name(), "canonical empty", (0, 0))
                refs[k, 0] = ds.ref
            else:
                refs[k, 0] = self.reference(cell)
        if "#subsystem#" in self.file:
            del self.file["#subsystem#"]
        group = self.file.create_group("#subsystem#")
        group.attrs["MATLAB_class"] = np.bytes_("struct")
        group.attrs["MATLAB_fields"] = self._field_names(["MCOS"])
        ds = group.create_dataset("MCOS", data=np.transpose(refs))
        ds.attrs["MATLAB_class"] = np.bytes_("FileWrapper__")
        ds.attrs["MATLAB_object_decode"] = np.int32(3)

    def refs(self) -> Any:
        return self.file.require_group("#refs#")

    def _free_name(self) -> str:
        refs = self.refs()
        while True:
            name = format(next(self.counter), "x")
            if name not in refs:
                return name

    def reference(self, value: Any) -> Any:
        """A reference to ``value`` written into #refs#."""
        name = self._free_name()
        self.write(self.refs(), name, value)
        return self.refs()[name].ref

    def write(self, group: Any, name: str, value: Any) -> None:
        value = plain_value(value)
        t = type(value)
        if t is np.ndarray:
            self._array(group, name, value)
        elif is_sparse(value):
            self._sparse(group, name, value)
        elif t is Cell:
            self._cell(group, name, value)
        elif t is Struct:
            self._struct(group, name, value)
        elif is_simple_handle(value):
            self._struct(group, name, handle_fields(value))
            group[name].attrs["MATLAB_class"] = np.bytes_("function_handle")
            group[name].attrs["MATLAB_object_decode"] = np.int32(1)
        elif is_object(value):
            class_name, reference = store(value, self.objects)
            ds = group.create_dataset(name, data=np.transpose(reference))
            ds.attrs["MATLAB_class"] = np.bytes_(class_name)
            ds.attrs["MATLAB_object_decode"] = np.int32(3)
        else:
            raise Unsupported(class_of(value))

    def _empty(self, group: Any, name: str, cls: str, shape: tuple[int, ...]) -> Any:
        ds = group.create_dataset(name, data=np.array(shape, dtype=np.uint64))
        ds.attrs["MATLAB_class"] = np.bytes_(cls)
        ds.attrs["MATLAB_empty"] = np.uint8(1)
        return ds

    def _array(self, group: Any, name: str, a: np.ndarray) -> None:
        cls = class_of(a)
        if a.size == 0:
            ds = self._empty(group, name, cls, a.shape)
            if cls == "char":
                ds.attrs["MATLAB_int_decode"] = np.int32(2)
            return
        if cls == "char":
            data = np.asarray(char_codes(a))
        elif cls == "logical":
            data = a.astype(np.uint8)
        elif a.dtype.kind == "c":
            part = a.real.dtype
            data = np.empty(a.shape, dtype=[("real", part), ("imag", part)])
            data["real"], data["imag"] = a.real, a.imag
        else:
            data = a
        ds = group.create_dataset(name, data=np.transpose(data))
        ds.attrs["MATLAB_class"] = np.bytes_(cls)
        if cls == "char":
            ds.attrs["MATLAB_int_decode"] = np.int32(2)

    def _sparse(self, group: Any, name: str, value: Any) -> None:
        m = value.matrix
        g = group.create_group(name)
        g.attrs["MATLAB_class"] = np.bytes_(class_of(value))
        g.attrs["MATLAB_sparse"] = np.uint64(m.shape[0])
        g.create_dataset("jc", data=m.indptr.astype(np.uint64))
        if m.nnz:
            g.create_dataset("ir", data=m.indices.astype(np.uint64))
            data = m.data
            if data.dtype == np.bool_:
                data = data.astype(np.uint8)
            elif data.dtype.kind == "c":
                parts = np.empty(data.shape, dtype=[("real", np.float64), ("imag", np.float64)])
                parts["real"], parts["imag"] = data.real, data.imag
                data = parts
            g.create_dataset("data", data=data)

    def _cell(self, group: Any, name: str, value: Cell) -> None:
        if value.data.size == 0:
            self._empty(group, name, "cell", value.shape)
            return
        refs = np.empty(value.shape, dtype=self.h5py.ref_dtype)
        for index, item in np.ndenumerate(value.data):
            refs[index] = self.reference(item)
        ds = group.create_dataset(name, data=np.transpose(refs))
        ds.attrs["MATLAB_class"] = np.bytes_("cell")

    def _field_names(self, fields: list[str]) -> np.ndarray:
        names = np.empty(len(fields), dtype=self.h5py.vlen_dtype(np.dtype("S1")))
        for k, f in enumerate(fields):
            names[k] = np.array(list(f.encode("ascii")), dtype=np.uint8).view("S1")
        return names

    def _struct(self, group: Any, name: str, value: Struct) -> None:
        if value.elems.size == 0 or not value.fields:  # MATLAB's layout: its size only
            ds = self._empty(group, name, "struct", value.shape)
            if value.fields:
                ds.attrs["MATLAB_fields"] = self._field_names(value.fields)
            return
        g = group.create_group(name)
        g.attrs["MATLAB_class"] = np.bytes_("struct")
        if value.fields:
            g.attrs["MATLAB_fields"] = self._field_names(value.fields)
        if value.elems.size == 1:
            element = value.element(0)
            for f in value.fields:
                self.write(g, f, element[f])
            return
        for f in value.fields:
            refs = np.empty(value.shape, dtype=self.h5py.ref_dtype)
            for index, element in np.ndenumerate(value.elems):
                refs[index] = self.reference(element[f])
            g.create_dataset(f, data=np.transpose(refs))


# ------------------------------------------------------------------- reading


def read_v73(path: str, names: list[str] | None = None) -> dict[str, Any]:
    """The variables of a version 7.3 MAT-file (only ``names`` when given), in file order;
    a value mlang cannot represent is left out after a warning."""
    h5py = h5py_module()
    out: dict[str, Any] = {}
    try:
        f = h5py.File(path, "r")
    except OSError:
        raise error("MATLAB:load:unableToReadMatFile",
                    f"Unable to read MAT-file {path}. File might be corrupt.") from None
    context: dict[str, Any] = {}
    with f:
        for name in variable_names(f):
            if names is not None and name not in names:
                continue
            context["variable"] = name
            try:
                value = _read(f, f[name], name, context)
            except (KeyError, ValueError, TypeError, OSError):  # a damaged or foreign layout
                raise error("MATLAB:load:unableToReadMatFile",
                            f"Unable to read MAT-file {path}. File might be corrupt.") from None
            if value is not None:
                out[name] = value
    return out


def variable_names(f: Any) -> list[str]:
    """The variables of an open 7.3 file (HDF5 lists them by name)."""
    names = list(f.keys())
    return [n for n in names if not n.startswith("#")]


def _text_attr(obj: Any, key: str) -> str | None:
    value = obj.attrs.get(key)
    if value is None:
        return None
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[0] if value.size else b""
    return value.decode("ascii", "replace") if isinstance(value, bytes) else str(value)


def _fields(obj: Any) -> list[str] | None:
    raw = obj.attrs.get("MATLAB_fields")
    if raw is None:
        return None
    return [b"".join(np.asarray(n).astype("S1").tolist()).decode("ascii") for n in raw]


def _skip(name: str, cls: str) -> None:
    warn("MATLAB:load:cannotLoadClass",
         f"Cannot load variable '{name}': mlang cannot represent values of class '{cls}'.")


def _read(f: Any, obj: Any, name: str, context: dict) -> Any:
    h5py = h5py_module()
    cls = _text_attr(obj, "MATLAB_class")
    if isinstance(obj, h5py.Group):
        if "MATLAB_sparse" in obj.attrs:
            return _read_sparse(obj, cls or "double")
        if cls == "struct":
            return _read_struct(f, obj, name, context)
        if cls == "function_handle":
            handle = handle_from_fields(_read_struct(f, obj, name, context))
            if handle is not None:
                return handle
        _skip(name, cls or "unknown")
        return None
    if "MATLAB_object_decode" in obj.attrs or cls is None:
        if cls is None and "busy" in context:  # a subsystem cell stored without its class
            return np.transpose(obj[()])
        value = _read_object(f, obj, cls, context) if cls is not None else None
        if value is None:
            _skip(name, cls or "unknown")
        return value
    if obj.attrs.get("MATLAB_empty", 0):
        dims = np.asarray(obj[()]).astype(np.int64).reshape(-1).tolist()
        if cls == "struct" and len(dims) >= 2 and 0 not in dims:  # a struct without fields
            return _fieldless(fix_shape(tuple(dims)))
        shape = fix_shape(tuple(dims)) if len(dims) >= 2 and 0 in dims else (0, 0)
        return _empty_of(cls, shape, _fields(obj))
    data = np.transpose(obj[()])
    if data.ndim < 2:
        data = data.reshape(fix_shape(data.shape))
    if cls == "cell":
        cells = np.empty(data.shape, dtype=object)
        for index, ref in np.ndenumerate(data):
            item = _read(f, f[ref], name, context)
            cells[index] = np.zeros((0, 0)) if item is None else item
        return Cell(cells)
    if cls == "char":
        return char_from_codes(data.astype(np.uint16))
    if cls == "logical":
        return result(data.astype(np.bool_))
    if data.dtype.names and "real" in data.dtype.names:
        data = data["real"] + 1j * data["imag"]
    wanted = {"double": np.float64, "single": np.float32}.get(cls)
    if wanted is not None and data.dtype.kind != "c":
        data = data.astype(wanted)
    elif cls in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"):
        data = data.astype(cls)
        if "busy" in context and is_reference(data):  # an object held by another one's property
            words = data.ravel().tolist()
            value = load_reference(words, context.get("subsystem"), context["busy"])
            if value is None:
                _skip(name, reference_class(words, context.get("subsystem")))
            return value
    elif wanted is None:
        _skip(name, cls)
        return None
    return result(np.ascontiguousarray(data))


def _read_object(f: Any, obj: Any, cls: str, context: dict) -> Any:
    """A stored object of class ``cls``: its reference into the subsystem data
    (#subsystem#/MCOS)."""
    try:
        reference = np.transpose(obj[()]).astype(np.uint64).ravel(order="F").tolist()
    except (TypeError, ValueError, OSError):
        return None
    return load_reference(reference, _subsystem(f, context), context.get("busy", frozenset()), cls)


def _subsystem(f: Any, context: dict) -> Subsystem | None:
    """The file's subsystem data, parsed once per read (kept in ``context``)."""
    if "subsystem" not in context:
        context["subsystem"] = None
        try:
            wrapper = f["#subsystem#"]["MCOS"]
            cells = [f[ref] for ref in np.transpose(wrapper[()]).ravel(order="F")]
            metadata = np.asarray(np.transpose(cells[0][()]), dtype=np.uint8).ravel(order="F").tobytes()

            def decode(cell: Any, busy: frozenset) -> Any:
                return _read(f, cell, context.get("variable", "object"), {**context, "busy": busy})

            context["subsystem"] = Subsystem(metadata, cells, decode)
        except (KeyError, IndexError, TypeError, ValueError, OSError):
            pass
    return context["subsystem"]


def _fieldless(shape: tuple[int, ...]) -> Struct:
    elems = np.empty(shape, dtype=object)
    for index in np.ndindex(shape):
        elems[index] = {}
    return Struct([], elems)


def _empty_of(cls: str, shape: tuple[int, ...], fields: list[str] | None) -> Any:
    if cls == "cell":
        return Cell.empty(shape)
    if cls == "struct":
        return Struct.empty(shape, fields)
    if cls == "char":
        return np.zeros(shape, dtype=CHAR)
    if cls == "logical":
        return np.zeros(shape, dtype=np.bool_)
    try:
        return np.zeros(shape, dtype=np.dtype(cls if cls != "double" else np.float64))
    except TypeError:
        return np.zeros(shape)


def _read_sparse(g: Any, cls: str) -> Any:
    # SciPy on first use: keeps start-up fast
    import scipy.sparse

    rows = int(np.asarray(g.attrs["MATLAB_sparse"]).reshape(-1)[0])
    jc = np.asarray(g["jc"][()]).astype(np.int64).reshape(-1)
    cols = len(jc) - 1
    if "ir" in g and len(jc) and jc[-1] > 0:
        ir = np.asarray(g["ir"][()]).astype(np.int64).reshape(-1)
        data = g["data"][()]
        if data.dtype.names:
            data = data["real"] + 1j * data["imag"]
        data = data.astype(np.bool_) if cls == "logical" else data.astype(
            np.complex128 if data.dtype.kind == "c" else np.float64)
    else:
        ir = np.zeros(0, dtype=np.int64)
        data = np.zeros(0, dtype=np.bool_ if cls == "logical" else np.float64)
    return wrap(scipy.sparse.csc_matrix((data, ir, jc), shape=(rows, cols)))


def _read_struct(f: Any, g: Any, name: str, context: dict) -> Struct:
    h5py = h5py_module()
    fields = _fields(g) or [k for k in g.keys()]
    members = {k: g[k] for k in fields if k in g}
    array_field = next((ds for ds in members.values()
                        if isinstance(ds, h5py.Dataset) and ds.dtype == h5py.ref_dtype
                        and "MATLAB_class" not in ds.attrs), None)
    if array_field is None:  # a scalar struct: its fields are values
        values = {}
        for k in fields:
            item = _read(f, members[k], name, context) if k in members else None
            values[k] = np.zeros((0, 0)) if item is None else item
        s = Struct.scalar(values)
        s.fields = list(fields)
        return s
    shape = fix_shape(np.transpose(array_field[()]).shape)
    elems = np.empty(shape, dtype=object)
    for index in np.ndindex(shape):
        elems[index] = {}
    for k in fields:
        refs = np.transpose(members[k][()]).reshape(shape)
        for index, ref in np.ndenumerate(refs):
            item = _read(f, f[ref], name, context)
            elems[index][k] = np.zeros((0, 0)) if item is None else item
    return Struct(list(fields), elems)
