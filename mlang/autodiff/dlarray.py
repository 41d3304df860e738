"""The dlarray value: numeric data, optional dimension labels, and a place in a trace.

A ``DlArray`` holds its data as an ndarray of MATLAB shape (at least two
dimensions, trailing singletons dropped), of class double, single or
logical (complex allowed).  ``fmt`` is the data format: '' when unformatted,
else one label per dimension in MATLAB's canonical order (S..., C, B, T, U...),
and it may name more dimensions than the data has (those are singletons).
``node`` is the array's node in a derivative trace, or None when untraced.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

# The package's __init__ imports ops before this module (ops needs DlArray defined), so
# this import finds ops already under way; its functions are used only at call time.
from mlang.autodiff import ops
from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import class_of, fix_shape, is_true, to_array
from mlang.values.objects import MatlabObject
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.table import Table

LABELS = "SCBTU"
_RANK = {label: rank for rank, label in enumerate(LABELS)}
UNDERLYING = {np.dtype(np.float64): "double", np.dtype(np.float32): "single",
              np.dtype(np.complex128): "double", np.dtype(np.complex64): "single",
              np.dtype(np.bool_): "logical"}


class DlArray(MatlabObject):
    """A deep learning array (MATLAB class ``dlarray``): operators, indexing and
    concatenation go through ``ops``, recorded when the array is traced."""

    matlab_class = "dlarray"
    __slots__ = ("data", "fmt", "node")
    __array_ufunc__ = None  # NumPy operators defer to DlArray instead of boxing it

    def __init__(self, data: np.ndarray, fmt: str = "", node: Any = None) -> None:
        self.data = data
        self.fmt = fmt
        self.node = node

    @property
    def shape(self) -> tuple[int, ...]:
        """MATLAB's size: a formatted array keeps its labelled singleton dimensions."""
        shape = self.data.shape
        extra = len(self.fmt) - len(shape)
        return shape + (1,) * extra if extra > 0 else shape

    @property
    def underlying(self) -> str:
        return UNDERLYING[self.data.dtype]

    # ------------------------------------------------ the object protocol

    def truth(self) -> bool:
        return is_true(self.data)

    def subsref_paren(self, args: list) -> Any:
        return ops.index(self, args) if args else self

    def subsasgn_paren(self, args: list, rhs: Any) -> Any:
        return ops.assign(self, args, rhs)

    @staticmethod
    def assign_into(target: Any, args: list, rhs: Any) -> Any:
        if type(target) is Cell:
            return NotImplemented  # c(k) = {dlarray}: the cell's own rules
        return ops.assign(target, args, rhs)

    @staticmethod
    def concatenate(rows: list[list]) -> Any:
        return ops.concatenate(rows)

    @staticmethod
    def binary_operator(symbol: str, a: Any, b: Any) -> Any:
        return ops.operator(symbol, a, b)

    def unary_operator(self, symbol: str) -> Any:
        if symbol == "-":
            return ops.uminus(self)
        return ops.call(_UNARY[symbol], self)

    def display_body(self, style: Any, array_lines: Any) -> list:
        """Its size (with the format's labels) and class, then its data page by page."""
        shape = self.shape
        if self.fmt:
            size = " \u00d7 ".join(f"{n}({label})" for n, label in zip(shape, self.fmt, strict=True))
        else:
            size = "\u00d7".join(str(n) for n in shape)
        kind = "" if self.underlying == "double" else f"{self.underlying} "
        data = self.data
        if data.size == 0:
            return [f"  {size} empty {kind}dlarray"]
        head = f"  {size} {kind}dlarray"
        if data.ndim <= 2:
            return [head, None, *array_lines(data)]
        lines: list = [head, None]
        trailing = data.shape[2:]
        for reverse in np.ndindex(*reversed(trailing)):
            index = tuple(reversed(reverse))
            page = data[(slice(None), slice(None), *index)]
            label = ",".join(str(k + 1) for k in index)
            lines += [None, f"(:,:,{label}) =", None, *array_lines(page), None]
        return lines[:-1]  # the display's own closing blank line follows

    def __repr__(self) -> str:
        traced = ", traced" if self.node is not None else ""
        return f"DlArray({self.data!r}, fmt={self.fmt!r}{traced})"

    # Python operators, so gradient rules read like formulas (MATLAB semantics).
    def __add__(self, other: Any) -> Any:
        return _op("plus", self, other)

    def __radd__(self, other: Any) -> Any:
        return _op("plus", other, self)

    def __sub__(self, other: Any) -> Any:
        return _op("minus", self, other)

    def __rsub__(self, other: Any) -> Any:
        return _op("minus", other, self)

    def __mul__(self, other: Any) -> Any:
        return _op("times", self, other)

    def __rmul__(self, other: Any) -> Any:
        return _op("times", other, self)

    def __truediv__(self, other: Any) -> Any:
        return _op("rdivide", self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _op("rdivide", other, self)

    def __neg__(self) -> Any:
        return _op("uminus", self)


_UNARY = {"+": "uplus", "~": "not", ".'": "transpose", "'": "ctranspose"}


def _op(name: str, *args: Any) -> Any:
    return getattr(ops, name)(*args)


def as_data(value: Any) -> np.ndarray:
    """The data a value brings into a dlarray: an ndarray of double, single or logical."""
    if type(value) is DlArray:
        return value.data
    cls = "cell" if type(value) is np.ndarray and value.dtype.kind == "O" else class_of(value)
    if cls not in ("double", "single", "logical"):
        raise error("deep:dlarray:InvalidDataType",
                    "Input data must be a numeric or logical array of type single, double, "
                    f"or logical, not {cls}.")
    return to_array(value)


def check_format(fmt: str) -> str:
    """Validate a data format string (upper case, letters S, C, B, T, U)."""
    fmt = fmt.upper()
    for label in fmt:
        if label not in _RANK:
            raise error("deep:dlarray:InvalidFormat",
                        f"Invalid data format '{fmt}'. Format must contain only the dimension "
                        "labels 'S', 'C', 'B', 'T' and 'U'.")
    for label in "CBT":
        if fmt.count(label) > 1:
            raise error("deep:dlarray:InvalidFormat",
                        f"Invalid data format '{fmt}'. Format must contain at most one "
                        f"'{label}' dimension.")
    return fmt


def format_plan(shape: tuple[int, ...], fmt: str) -> tuple[tuple[int, ...], list[int] | None, str]:
    """How data of ``shape`` labelled ``fmt`` (in the data's dimension order) is put in
    MATLAB's canonical label order: the shape to view it as (one dimension per label),
    the permutation of those dimensions (None when there is none), and the labels."""
    fmt = check_format(fmt)
    shape = _matlab_shape(shape)
    if len(fmt) == 1 and len(shape) == 2 and 1 in shape:
        # one label for a vector labels its non-singleton dimension
        shape, fmt = (shape[0] * shape[1], 1), fmt + "U"
    if len(fmt) < len(shape):
        raise error("deep:dlarray:InvalidFormat",
                    f"Number of dimension labels ({len(fmt)}) must be greater than or equal "
                    f"to the number of dimensions of the input data ({len(shape)}).")
    full_shape = shape + (1,) * (len(fmt) - len(shape))
    order = sorted(range(len(fmt)), key=lambda k: _RANK[fmt[k]])
    labels = "".join(fmt[k] for k in order)
    sizes = [full_shape[k] for k in order]
    # singleton 'U' dimensions at the end, after the second, are dropped
    while len(labels) > 2 and labels[-1] == "U" and sizes[len(labels) - 1] == 1:
        labels = labels[:-1]
    return full_shape, (order if order != sorted(order) else None), labels


def formatted(data: np.ndarray, fmt: str) -> tuple[np.ndarray, str]:
    """Data labelled with ``fmt`` (given in the data's dimension order), permuted to
    MATLAB's canonical label order.  Returns the permuted data and the sorted format."""
    full_shape, order, labels = format_plan(data.shape, fmt)
    if order is not None:
        data = np.ascontiguousarray(data.reshape(full_shape, order="F").transpose(order))
    return data.reshape(_matlab_shape(data.shape if order is not None else full_shape),
                        order="F"), labels


def _matlab_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    return fix_shape(shape)


def strip(value: Any) -> Any:
    """``value`` with every dlarray in it untraced (recursing into cells and structs)."""
    t = type(value)
    if t is DlArray:
        return DlArray(value.data, value.fmt) if value.node is not None else value
    if t is Struct and value.elems.size == 1:
        fields = list(value.elems.item().values())
        if set(map(type, fields)) <= _DLARRAY_ONLY and not any(map(_NODE, fields)):
            return value  # untraced dlarrays only (gradients): nothing to strip
    return map_dlarrays(value, _untraced)


def _untraced(x: DlArray) -> DlArray:
    return DlArray(x.data, x.fmt) if x.node is not None else x


_DLARRAY_ONLY = frozenset({DlArray})
_NODE = operator.attrgetter("node")


# Classes of values with no dlarray inside (a Learnables table's Layer and Parameter variables)
HOLDS_NO_DLARRAY = frozenset({np.ndarray, StringArray})


def map_dlarrays(value: Any, fn: Any) -> Any:
    """``value`` with ``fn`` applied to each dlarray in it, through cells, structs,
    tables (a Learnables table's Value variable) and objects with a ``map_dlarrays(fn)``
    method (applying ``fn`` to each value they hold and returning the object, a new one
    when something changed).  Containers are copied only when something in them changed."""
    t = type(value)
    if t is DlArray:
        return fn(value)
    if t is Cell:
        data = value.data
        flat = data.reshape(-1).tolist()  # (a list is walked faster than an object array)
        new = [fn(v) if type(v) is DlArray else map_dlarrays(v, fn) for v in flat]
        if all(map(operator.is_, new, flat)):
            return value
        out = np.empty(data.shape, dtype=object)
        out.reshape(-1)[:] = new
        return Cell(out)
    if t is Struct:
        elems = value.elems
        if elems.size == 1:  # a scalar struct (a model's parameters, their gradients)
            elem = elems.item()
            fields = {name: fn(v) if type(v) is DlArray else map_dlarrays(v, fn)
                      for name, v in elem.items()}
            if all(map(operator.is_, fields.values(), elem.values())):
                return value
            new_elems = np.empty(elems.shape, dtype=object)
            new_elems.reshape(-1)[0] = fields
            return Struct(list(value.fields), new_elems)
        flat = elems.reshape(-1)
        changed = False
        mapped_elems = []
        for elem in flat:
            fields = {}
            for name, v in elem.items():
                mapped = fn(v) if type(v) is DlArray else map_dlarrays(v, fn)
                changed |= mapped is not v
                fields[name] = mapped
            mapped_elems.append(fields)
        if not changed:
            return value
        new_elems = np.empty(elems.shape, dtype=object)
        new_elems.reshape(-1)[:] = mapped_elems
        return Struct(list(value.fields), new_elems)
    if t is Table:
        variables = [v if type(v) in HOLDS_NO_DLARRAY else map_dlarrays(v, fn) for v in value.variables]
        for a, b in zip(variables, value.variables, strict=True):
            if a is not b:
                return value.copy(variables=variables)
        return value
    # an object holding dlarrays (a network...) maps them itself
    mapper = getattr(value, "map_dlarrays", None) if isinstance(value, MatlabObject) else None
    if mapper is None:
        return value
    return mapper(lambda v: fn(v) if type(v) is DlArray else map_dlarrays(v, fn))
