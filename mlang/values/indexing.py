"""Indexing, indexed assignment and deletion for every array-like MATLAB value.

Numeric/logical/char arrays, cells (``()`` gives a cell), struct arrays and
string arrays share one implementation over their underlying ndarray
(``data`` / ``elems``).  Indices are MATLAB's: 1-based, column-major linear
indices, logical masks, ``:`` and subscripts (fewer subscripts than
dimensions fold the trailing dimensions into the last one).

Copy-on-write: ``assign`` changes an array in place only when nothing else
can see it (the caller checks the reference count; ``owns_storage`` checks the
memory underneath), so ``x(i) = v`` in a loop costs O(1), while
``b = a; b(1) = 0`` never changes ``a``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import (
    EMPTY,
    INT_CLASSES,
    char_codes,
    char_row,
    char_text,
    class_of,
    fix_shape,
    result,
    to_array,
)
from mlang.values.deletion import delete
from mlang.values.limits import check_array_size
from mlang.values.objects import OBJECT_KINDS
from mlang.values.operators import as_class
from mlang.values.ranges import colon_range, range_length
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.subscripts import (
    COLON,
    COLON_CODE,
    _as_positions,
    _count,
    _index_array,
    _linear_result_shape,
    _shape_for,
    bad_subscript,
    data_of,
    out_of_bounds,
    owns_storage,
    rewrap,
    short_positions,
)

# linear_positions and numel_of are offered here too, as they were before subscripts.py
from mlang.values.subscripts import linear_positions as linear_positions
from mlang.values.subscripts import numel_of as numel_of
from mlang.values.text import to_string_array

# ------------------------------------------------------------------ reading


MAX_SUBSCRIPTS = 64  # NumPy's most dimensions


def _without_trailing_ones(args: list, ndim: int) -> list:
    """Subscripts beyond the array's dimensions that are 1 or ':' select its trailing
    singleton dimensions and change nothing: dropped, so that any number of them works
    (NumPy arrays have at most 64 dimensions)."""
    keep = len(args)
    while keep > max(ndim, 2) and _is_one_or_colon(args[keep - 1]):
        keep -= 1
    if keep > MAX_SUBSCRIPTS:
        raise error("MATLAB:array:SizeLimitExceeded",
                    f"Arrays with more than {MAX_SUBSCRIPTS} dimensions are not supported.")
    return args if keep == len(args) else args[:keep]


def _is_one_or_colon(arg: object) -> bool:
    t = type(arg)
    if t is float or t is bool:
        return arg == 1
    if arg is COLON:
        return True
    if t is np.ndarray and arg.size == 1:
        if arg.dtype.kind == "V":
            return char_codes(arg).reshape(-1)[0] == COLON_CODE
        return arg.dtype.kind in "fiu" and arg.reshape(-1)[0] == 1
    return False


def index(value: object, args: list) -> object:
    """``value(args...)``: a value of the same kind."""
    kind = OBJECT_KINDS.get(type(value))
    if kind is not None:
        out = kind.subsref_paren(value, args)
        if out is not NotImplemented:
            return out
    data = data_of(value)
    nargs = len(args)
    if nargs == 0:
        return value
    if nargs > 3 and nargs > data.ndim:
        args = _without_trailing_ones(args, data.ndim)
        nargs = len(args)
    if nargs == 1:
        arg = args[0]
        n = data.size
        if type(arg) is float and data.ndim == 2:  # x(k): the hot case
            if not arg.is_integer() or arg < 1:
                raise bad_subscript()
            k = int(arg)
            if k > n:
                raise out_of_bounds(k, n, None, 1)
            rows = data.shape[0]
            return _element(value, data, (k - 1) % rows, (k - 1) // rows)
        if type(arg) is np.ndarray and arg.dtype is _BOOL_DTYPE and arg.shape == data.shape \
                and data.ndim == 2 and arg.size > 1:  # x(x > 0): a mask of x's own shape
            picked = data.T[arg.T]  # (transposed: MATLAB's column-major order)
            return rewrap(value, picked.reshape(_linear_result_shape(data.shape, arg, picked.size),
                                                order="F"))
        if type(arg) is np.ndarray and arg.dtype is _FLOAT64 and data.ndim == 2 and arg.ndim == 2 \
                and 0 < arg.size <= 64:
            positions = short_positions(arg.ravel(order="F").tolist(), n)  # x([i j k])
            if positions is not None:  # as below (data.T.take: column-major positions)
                rows, cols = data.shape
                shape = arg.shape
                if (shape[0] == 1) != (shape[1] == 1) and (rows == 1) != (cols == 1):
                    shape = (1, arg.size) if rows == 1 else (arg.size, 1)  # vectors: x's orientation
                return rewrap(value, data.T.take(positions).reshape(shape, order="F"))
        idx = _index_array(arg, n, None, 1)
        count = _count(idx, n)
        positions = _as_positions(idx, n)
        if data.ndim == 2 and data.shape[0] == 1:
            picked = data[0, positions]
        elif data.ndim == 2 and data.shape[1] == 1:
            picked = data[positions, 0]
        else:
            picked = data[np.unravel_index(positions, data.shape, order="F")] if data.size else \
                np.empty(0, dtype=data.dtype)
        shape = _linear_result_shape(data.shape, arg, count)
        return rewrap(value, picked.reshape(shape, order="F"))
    # subscripts
    if nargs == 2 and data.ndim == 2:
        r, c = args
        if type(r) is float and type(c) is float and data.dtype in _SCALAR_DTYPES:  # x(i,j): hot
            i = int(r) if r.is_integer() else 0  # (NaN, Inf: the general path's error)
            j = int(c) if c.is_integer() else 0
            rows, cols = data.shape
            if i == r and j == c and 1 <= i <= rows and 1 <= j <= cols:
                return _element(value, data, i - 1, j - 1)
        rows = _basic_slice(args[0], data.shape[0])
        cols = _basic_slice(args[1], data.shape[1])
        if rows is not None and cols is not None:  # x(i,:), x(:,j): a view (copied on write)
            return rewrap(value, data[rows, cols])
    shape = _shape_for(data, nargs)
    if len(shape) != data.ndim:
        data = data.reshape(shape, order="F")
    if all(type(a) is float for a in args):
        subs = []
        for pos, (a, n) in enumerate(zip(args, shape, strict=True), 1):
            if not a.is_integer() or a < 1:
                raise bad_subscript()
            k = int(a)
            if k > n:
                raise out_of_bounds(k, n, pos, nargs)
            subs.append(k - 1)
        if nargs == 2:
            return _element(value, data, subs[0], subs[1])
        out = data[tuple(np.array([s]) for s in subs)].reshape((1,) * nargs)
        return rewrap(value, out.reshape(fix_shape(out.shape)))
    idxs = [_index_array(a, n, pos, nargs) for pos, (a, n) in enumerate(zip(args, shape, strict=True), 1)]
    if all(isinstance(i, slice) for i in idxs):
        out = data  # sharing is safe: values are copied on write (see assign)
    elif nargs == 2 and type(idxs[0]) is slice:  # x(:, J): the columns, without np.ix_
        out = np.ascontiguousarray(data[:, idxs[1]])  # (laid out as np.ix_ lays it out)
    elif nargs == 2 and type(idxs[1]) is slice:  # x(I, :)
        out = data[idxs[0], :]
    else:
        out = data[np.ix_(*[_as_positions(i, n) for i, n in zip(idxs, shape, strict=True)])]
    return rewrap(value, out.reshape(fix_shape(out.shape), order="F") if out.ndim > 2 else out)


_FLOAT64 = np.dtype(np.float64)
_BOOL_DTYPE = np.dtype(np.bool_)
# the classes whose element ``_element`` gives as a Python scalar, as ``index`` does
_SCALAR_DTYPES = (np.dtype(np.float64), np.dtype(np.bool_), np.dtype(np.complex128))


def fixed_index(literal: np.ndarray) -> Callable[[np.ndarray], object] | None:
    """For an index written as a literal row of whole numbers (``x([1 3])``): a function
    giving ``index(x, [literal])`` for a 2-D double array ``x`` (None when ``literal`` is
    not such a row; the function gives None for an ``x`` it does not cover)."""
    if literal.dtype is not _FLOAT64 or literal.shape[0] != 1 or not 1 < literal.size <= 64:
        return None
    positions = short_positions(literal.ravel().tolist(), sys.maxsize)
    if positions is None:
        return None
    top = int(positions.max()) + 1
    count = positions.size

    def at_positions(data: np.ndarray) -> object:
        if data.dtype is not _FLOAT64 or data.ndim != 2 or data.size < top:
            return None
        rows, cols = data.shape
        if rows == 1:  # (a row's elements in column order are its elements in row order)
            return data.take(positions)[None]  # (a 1 x count view of the taken elements)
        # as ``index``: a column stays a column, anything else takes the index's shape
        return data.T.take(positions).reshape((count, 1) if cols == 1 else (1, count))

    return at_positions


def index_by_range(value: np.ndarray, start: object, step: object, stop: object) -> object:
    """``value(start:step:stop)`` for a 2-D array ``value``: what ``index`` gives for the
    range, taken as a slice when the range is of whole numbers within bounds (no index
    array is made or checked); anything else goes the general way, with its errors."""
    if type(start) is float and type(step) is float and type(stop) is float and value.ndim == 2 \
            and start.is_integer() and step.is_integer() and step:
        count = range_length(start, step, stop)
        first = int(start)
        s = int(step)
        last = first + (count - 1) * s
        n = value.size
        if count and 1 <= min(first, last) and max(first, last) <= n:
            end = last - 1 + (1 if s > 0 else -1)
            positions = slice(first - 1, end if end >= 0 else None, s)
            rows, cols = value.shape
            if rows == 1:
                out = value[:, positions].copy()
            elif cols == 1:
                out = value[positions, :].copy()
            elif value.flags.f_contiguous:  # a matrix: the index's shape, a row
                out = value.reshape(-1, order="F")[positions].reshape(1, count).copy()
            else:
                return index(value, [colon_range(start, step, stop)])
            return result(out) if count == 1 or out.dtype.kind == "c" else out
    return index(value, [colon_range(start, step, stop)])


def index_by_subscripts(value: np.ndarray, subscripts: list) -> object:
    """``value(r, c)`` for an array ``value``, each subscript COLON, a value, or the parts
    (start, step, stop) of a range: a 2-D array's block of whole in-range subscripts is
    sliced (no index array is made); anything else is what ``index`` gives."""
    if value.ndim == 2:
        slices = []
        picked = False  # a range of two or more: the general path's fancy indexing copies
        for sub, n in zip(subscripts, value.shape, strict=True):
            if sub is COLON:
                slices.append(slice(None))
                continue
            if type(sub) is tuple:
                start, step, stop = sub
                if type(start) is float and type(step) is float and type(stop) is float \
                        and start.is_integer() and step.is_integer() and step:
                    count = range_length(start, step, stop)
                    first = int(start)
                    last = first + (count - 1) * int(step)
                    if count and 1 <= min(first, last) and max(first, last) <= n:
                        end = last - 1 + (1 if step > 0 else -1)
                        slices.append(slice(first - 1, end if end >= 0 else None, int(step)))
                        picked = picked or count > 1
                        continue
            elif type(sub) is float and sub.is_integer() and 1 <= sub <= n:
                k = int(sub)
                slices.append(slice(k - 1, k))
                continue
            break
        else:
            out = value[slices[0], slices[1]]
            return result(out.copy() if picked else out)
    return index(value, [colon_range(*sub) if type(sub) is tuple else sub for sub in subscripts])


def index_all(value: np.ndarray) -> object:
    """``value(:)`` for an array ``value``: its elements as a column (what ``index`` gives)."""
    if value.ndim == 2 and value.size > 1 and value.dtype.kind != "c":
        if value.shape[0] == 1:
            return value.T.copy()  # (a row: the same column, without reshape's order argument)
        return value.reshape(-1, 1, order="F").copy()
    return index(value, [COLON])


def _basic_slice(arg: object, n: int) -> slice | None:
    """A subscript that is ':' or an in-range whole number, as a slice (else None)."""
    if arg is COLON:
        return slice(None)
    if type(arg) is float and arg.is_integer() and 1 <= arg <= n:
        k = int(arg)
        return slice(k - 1, k)
    return None


def _element(value: object, data: np.ndarray, r: int, c: int) -> object:
    x = data[r, c]
    t = type(value)
    if t is np.ndarray:
        dt = data.dtype
        if dt == np.float64:
            return float(x)
        if dt == np.bool_:
            return bool(x)
        if dt == np.complex128:
            return complex(x) if x.imag else float(x.real)
        return data[r:r + 1, c:c + 1].copy()
    if t is float or t is bool or t is complex:
        return value
    out = np.empty((1, 1), dtype=object)
    out[0, 0] = x
    if t is Struct:
        out[0, 0] = dict(x)
    return rewrap(value, out)


def brace_index(cell: object, args: list) -> list:
    """``c{args}``: the selected elements, in column-major order (a comma-separated list)."""
    if type(cell) is not Cell:
        kind = OBJECT_KINDS.get(type(cell))
        if kind is not None:
            out = kind.subsref_brace(cell, args)
            if out is not NotImplemented:
                return out
        if type(cell) is StringArray:
            picked = index(cell, args)
            return [char_row(s or "") for s in picked.data.ravel(order="F")]
        raise error("MATLAB:cellRefFromNonCell",
                    "Brace indexing is not supported for variables of this type.")
    if len(args) == 1 and type(args[0]) is float and args[0].is_integer():
        data = cell.data
        k = int(args[0])
        if 1 <= k <= data.size and data.ndim == 2:
            rows = data.shape[0]
            return [data[(k - 1) % rows, (k - 1) // rows]]
    picked = index(cell, args)
    return list(picked.data.ravel(order="F"))


# --------------------------------------------------------------- assignment


def _grown_shape(data: np.ndarray, args: list, nargs: int,
                 rhs_shape: tuple[int, ...] = (1, 1)) -> tuple[tuple[int, ...], list]:
    """The shape ``data`` must grow to for an assignment at ``args``, and the indices.

    In an empty array a ':' over a dimension of length 0 takes its length from
    the right-hand side (``a(1,:) = [1 3]`` on an undefined ``a`` makes it 1×2).
    """
    if nargs == 1:
        n = data.size
        idx = _index_array(args[0], None, None, 1)
        if isinstance(idx, slice):
            return data.shape, [idx]
        need = int(idx.max()) + 1 if idx.size else 0
        if need <= n:
            return data.shape, [idx]
        shape = data.shape
        if data.ndim == 2 and shape[1] == 1 and shape[0] != 1:
            check_array_size((need, 1), data.dtype)
            return (need, 1), [idx]  # a column (also 0x1) grows down
        if data.ndim == 2 and shape[0] <= 1:
            check_array_size((1, need), data.dtype)
            return (1, need), [idx]  # a row, a scalar, [] or 0×n grows to the right
        raise error("MATLAB:indexed:growVector" if n else "MATLAB:subsassigndimmismatch",
                    "Attempt to grow array along ambiguous dimension.")
    shape = _shape_for(data, nargs)
    idxs = []
    new = list(shape)
    for d, a in enumerate(args):
        idx = _index_array(a, None, d + 1, nargs)
        idxs.append(idx)
        if not isinstance(idx, slice) and idx.size:
            new[d] = max(new[d], int(idx.max()) + 1)
    if data.size == 0:
        _size_empty_colons(new, idxs, shape, rhs_shape)
    new_shape = tuple(new)
    if new_shape != shape:
        check_array_size(new_shape, data.dtype)
    return new_shape, idxs


def _size_empty_colons(new: list[int], idxs: list, shape: tuple[int, ...],
                       rhs_shape: tuple[int, ...]) -> None:
    """Lengths for ':' subscripts over empty dimensions, from the right-hand side:
    dimension by dimension when that matches it, else its non-singleton
    dimensions in order (a scalar gives 1)."""
    free = [d for d, i in enumerate(idxs) if isinstance(i, slice) and shape[d] == 0]
    if not free:
        return
    wanted = [n for n in rhs_shape if n != 1]
    positional = list(new)
    for d, n in zip(free, (_fold(rhs_shape, len(new))[d] for d in free), strict=True):
        positional[d] = n
    counts = [positional[d] if isinstance(i, slice) else i.size for d, i in enumerate(idxs)]
    if [c for c in counts if c != 1] == wanted:
        new[:] = positional
        return
    k = 0
    for d, i in enumerate(idxs):
        if d in free:
            new[d] = wanted[k] if k < len(wanted) else 1
            k += 1
        elif i.size != 1 if not isinstance(i, slice) else shape[d] != 1:
            k += 1


def _grow_vector(data: np.ndarray, shape: tuple[int, int], in_place: bool,
                 like: object) -> np.ndarray:
    """``data`` (a vector or empty) grown to ``shape``, over-allocating so that
    growing one element at a time costs O(1) amortised.

    The result is a view into a larger buffer; when the buffer has room and
    nothing else looks into it, the next growth only takes a longer view.
    """
    row = shape[0] == 1
    need = shape[1] if row else shape[0]
    if in_place:
        grown = _longer_in_buffer(data, row, need)
        if grown is not None:
            return grown
    capacity = max(need, 2 * data.size, 8)
    grown = _resize(data.reshape((1, -1) if row else (-1, 1), order="F") if data.size else
                    np.empty((1, 0) if row else (0, 1), dtype=data.dtype),
                    (1, capacity) if row else (capacity, 1), like)
    return grown[:, :need] if row else grown[:need, :]


def _longer_in_buffer(data: np.ndarray, row: bool, need: int) -> np.ndarray | None:
    """The vector ``data`` lengthened to ``need`` elements where it lies, when it is the
    leading slice of a growth buffer (see ``_grow_vector``) with room that nothing else
    looks into; else None.  The caller must hold ``data`` alone."""
    buffer = data.base
    if (buffer is not None and buffer.base is None and buffer.ndim == 2
            and sys.getrefcount(buffer) <= 3 and buffer.dtype == data.dtype
            and (buffer.shape[0] == 1 if row else buffer.shape[1] == 1)
            and (buffer.shape[1] if row else buffer.shape[0]) >= need
            and data.__array_interface__["data"][0] == buffer.__array_interface__["data"][0]):
        return buffer[:, :need] if row else buffer[:need, :]
    return None


def _fill_value(like: object) -> object:
    """What new elements of a grown cell or string array hold."""
    return None if type(like) is StringArray else EMPTY


def _resize(data: np.ndarray, shape: tuple[int, ...], like: object) -> np.ndarray:
    """``data`` placed at the origin of a new array of ``shape``, the rest filled."""
    if data.dtype != object:  # numbers fill with 0, char with char(0)
        out = np.zeros(shape, dtype=data.dtype)
    elif type(like) is Struct:
        out = np.empty(shape, dtype=object)
        flat = out.reshape(-1)
        for i in range(flat.size):
            flat[i] = dict.fromkeys(like.fields, EMPTY)  # type: ignore[attr-defined]
    else:
        out = np.empty(shape, dtype=object)
        out.fill(_fill_value(like))
    if data.size:
        src = data.reshape(data.shape + (1,) * (len(shape) - data.ndim)) if data.ndim < len(shape) else \
            data.reshape(_fold(data.shape, len(shape)), order="F")
        out[tuple(slice(0, d) for d in src.shape)] = src
    return out


def _fold(shape: tuple[int, ...], n: int) -> tuple[int, ...]:
    if len(shape) <= n:
        return shape + (1,) * (n - len(shape))
    folded = 1
    for d in shape[n - 1:]:
        folded *= d
    return shape[: n - 1] + (folded,)


def assignment_class(target: object, rhs: object) -> str:
    """The class of ``target`` after elements of ``rhs`` are stored into it."""
    ct, cr = class_of(target), class_of(rhs)
    if ct == cr:
        return ct
    if ct in INT_CLASSES:
        return ct
    if cr in INT_CLASSES:
        return cr
    if ct == "single" or cr == "single":
        return "single"
    if ct == "char" and cr in ("double", "logical"):
        return "char"
    return "double"


def assign(target: object | None, args: list, rhs: object, in_place: bool = False) -> object:
    """``target(args...) = rhs`` (``target`` None: the variable does not exist yet).

    ``in_place`` says the caller owns ``target`` exclusively (``sys.getrefcount``
    shows no other holder), so its storage may be reused.  Returns the new value.
    """
    kind = OBJECT_KINDS.get(type(target))
    if kind is not None:
        out = kind.subsasgn_paren(target, args, rhs)
        if out is not NotImplemented:
            return out
    kind = OBJECT_KINDS.get(type(rhs))
    if kind is not None:
        out = kind.assign_into(target, args, rhs)
        if out is not NotImplemented:
            return out
    if not args:
        raise error("MATLAB:index:assignmentNoSubscripts",
                    "An indexing expression on the left side of an assignment must have at "
                    "least one subscript.")
    if len(args) > 3:
        args = _without_trailing_ones(args, 2 if target is None else np.ndim(data_of(target)))
    rhs_kind = type(rhs)
    if target is None:
        target = _empty_like(rhs)
        in_place = True
    t = type(target)
    if t is float or t is bool or t is complex:
        target = to_array(target)
        t = np.ndarray
        in_place = True
    # deletion: x(i) = [] (any 0x0 double)
    if rhs_kind is np.ndarray and rhs.shape == (0, 0) and rhs.dtype == np.float64:
        return delete(target, args)
    is_cell = t is Cell
    if is_cell and rhs_kind is not Cell:
        raise error("MATLAB:invalidConversion",
                    f"Conversion to cell from {class_of(rhs)} is not possible.")
    if t is Struct:
        if rhs_kind is not Struct:
            raise error("MATLAB:invalidConversion",
                        f"Conversion to struct from {class_of(rhs)} is not possible.")
        return _assign_struct(target, args, rhs)
    if t is StringArray:
        return _assign_strings(target, args, rhs, in_place)
    if t is np.ndarray and rhs_kind is Cell:
        if target.size == 0:
            return assign(Cell.empty(target.shape), args, rhs, True)
        raise error("MATLAB:invalidConversion", "Conversion to double from cell is not possible.")
    if t is np.ndarray and rhs_kind not in (float, bool, complex, np.ndarray):
        if target.size == 0:
            return assign(_empty_like(rhs), args, rhs, True)
        raise error("MATLAB:invalidConversion",
                    f"Conversion to {class_of(target)} from {class_of(rhs)} is not possible.")

    data = data_of(target)
    # may data be written where it is?  A cell's array may be another cell's too
    # (references: target.data, `data`, getrefcount's argument)
    writable = in_place and owns_storage(data) and (not is_cell or sys.getrefcount(data) <= 3)
    if not is_cell:
        cls = assignment_class(target, rhs)
        if cls != class_of(target):
            data = as_class(target, cls)
            writable = True
        if data.dtype.kind == "f" and (rhs_kind is complex or
                                         (rhs_kind is np.ndarray and rhs.dtype.kind == "c")):
            data = data.astype(np.complex128 if data.dtype == np.float64 else np.complex64)
            writable = True
    else:
        cls = "cell"
    nargs = len(args)
    shape, idxs = _grown_shape(data, args, nargs, rhs.data.shape if is_cell else
                               rhs.shape if rhs_kind is np.ndarray else (1, 1))
    if nargs == 1 and shape != data.shape and data.ndim == 2 and (shape[0] == 1 or shape[1] == 1):
        data = _grow_vector(data, shape, writable, target)
        writable = True
    elif shape != (_shape_for(data, nargs) if nargs > 1 else data.shape):
        data = _resize(data if nargs == 1 else data.reshape(_shape_for(data, nargs), order="F"),
                       shape, target)
        writable = True
    elif nargs > 1 and len(shape) != data.ndim:
        data = data.reshape(shape, order="F")
        writable = writable and data.base is None
    if not writable:
        data = data.copy()
    values = rhs.data if is_cell else as_class(rhs, cls)
    _store(data, idxs, shape, values, nargs)
    if is_cell:
        return Cell(data.reshape(fix_shape(data.shape), order="F") if data.ndim > 2 else data)
    return result(data.reshape(fix_shape(data.shape), order="F") if data.ndim > 2 else data)


def assign_block(target: np.ndarray, subscripts: list, rhs: object, owned: bool) -> object | None:
    """``target(r, c) = rhs`` for a 2-D double array, each subscript ':' or a whole number in
    range, and ``rhs`` a double scalar or a double array with as many elements as the block:
    what ``assign`` gives (in place when ``owned`` and the storage is the target's own);
    None for anything else."""
    if target.dtype is not _FLOAT64 or target.ndim != 2 or not target.size:  # (':' of an empty grows)
        return None
    rows = _basic_slice(subscripts[0], target.shape[0])
    cols = _basic_slice(subscripts[1], target.shape[1])
    if rows is None or cols is None:
        return None
    t = type(rhs)
    if t is not float:
        if t is not np.ndarray or rhs.dtype is not _FLOAT64:  # type: ignore[union-attr]
            return None
        counts = (1 if rows.stop is not None else target.shape[0],
                  1 if cols.stop is not None else target.shape[1])
        if rhs.size != counts[0] * counts[1] or not rhs.size:  # type: ignore[union-attr]
            return None
        rhs = rhs.reshape(counts, order="F")  # type: ignore[union-attr]
    out = target if owned and owns_storage(target) else target.copy()
    out[rows, cols] = rhs
    return result(out)


def assign_masked(target: np.ndarray, mask: object, rhs: object, owned: bool) -> object | None:
    """``target(mask) = rhs`` for a 2-D double array, a logical mask of its shape and a
    double scalar: what ``assign`` gives (in place when ``owned`` and the storage is the
    target's own); None for anything else."""
    if type(rhs) is not float or type(mask) is not np.ndarray or mask.dtype is not _BOOL_DTYPE \
            or target.dtype is not _FLOAT64 or mask.shape != target.shape or target.ndim != 2:
        return None
    out = target if owned and owns_storage(target) else target.copy()
    out[mask] = rhs
    return result(out)


def _store(data: np.ndarray, idxs: list, shape: tuple[int, ...], values: np.ndarray, nargs: int) -> None:
    """Write ``values`` (scalar-expanded) at the positions selected by ``idxs``."""
    if nargs == 1:
        idx = idxs[0]
        n = data.size
        positions = _as_positions(idx, n)
        count = positions.size
        if values.size == 1:
            flat_vals = _repeat(values.reshape(-1)[0], count, data.dtype)
        elif values.size == count:
            flat_vals = values.ravel(order="F")
        else:
            raise error("MATLAB:subsassignnumelmismatch",
                        "Unable to perform assignment because the left and right sides have "
                        "different numbers of elements.")
        if data.ndim == 2 and data.shape[0] == 1:
            data[0, positions] = flat_vals
        elif data.ndim == 2 and data.shape[1] == 1:
            data[positions, 0] = flat_vals
        else:
            data[np.unravel_index(positions, data.shape, order="F")] = flat_vals
        return
    positions = [_as_positions(i, n) for i, n in zip(idxs, shape, strict=True)]
    counts = [p.size for p in positions]
    region = np.ix_(*positions)
    if values.size == 1:
        data[region] = _repeat(values.reshape(-1)[0], int(np.prod(counts)), data.dtype).reshape(
            counts, order="F") if data.dtype == object else values.reshape(-1)[0]
        return
    total = 1
    for c in counts:
        total *= c
    if values.size != total or [c for c in counts if c != 1] != [d for d in values.shape if d != 1]:
        lhs = "-by-".join(str(c) for c in fix_shape(tuple(counts)))
        rhs = "-by-".join(str(d) for d in values.shape)
        if values.size == total:
            data[region] = values.reshape(counts, order="F")
            return
        raise error("MATLAB:subsassigndimmismatch",
                    f"Unable to perform assignment because the size of the left side is {lhs} "
                    f"and the size of the right side is {rhs}.")
    data[region] = values.reshape(counts, order="F")


def _repeat(element: object, count: int, dtype: np.dtype) -> object:
    """One element for ``count`` positions; object arrays must not broadcast an element
    that is itself an array, so it is placed in an object array first."""
    if dtype.kind != "O":
        return element
    out = np.empty(count, dtype=object)
    for k in range(count):
        out[k] = element
    return out


def _empty_like(rhs: object) -> object:
    t = type(rhs)
    if t is Cell:
        return Cell.empty()
    if t is Struct:
        return Struct.empty((0, 0), list(rhs.fields))  # type: ignore[attr-defined]
    if t is StringArray:
        return StringArray(np.empty((0, 0), dtype=object))
    if t is np.ndarray:
        return np.zeros((0, 0), dtype=rhs.dtype)  # type: ignore[union-attr]
    if t is bool:
        return np.zeros((0, 0), dtype=bool)
    if t is float or t is complex:
        return np.zeros((0, 0))
    raise error("MATLAB:invalidConversion",
                f"Indexed assignment of a {class_of(rhs)} value is not supported.")


def _assign_struct(target: Struct, args: list, rhs: Struct) -> Struct:
    fields = list(target.fields)
    for f in rhs.fields:
        if f not in fields:
            fields.append(f)
    if rhs.fields != fields[: len(rhs.fields)] or set(rhs.fields) != set(fields):
        if target.elems.size and set(rhs.fields) != set(target.fields):
            raise error("MATLAB:heterogeneousStrucAssignment",
                        "Subscripted assignment between dissimilar structures.")
    out = target.copy()
    out.fields = fields
    for d in out.elems.reshape(-1):
        for f in fields:
            d.setdefault(f, EMPTY)
    nargs = len(args)
    data, idxs, shape = _prepared(out.elems, args, out, rhs.elems.shape)
    values = np.empty(rhs.elems.shape, dtype=object)
    src = rhs.elems.reshape(-1)
    dst = values.reshape(-1)
    for i in range(src.size):
        dst[i] = {f: src[i].get(f, EMPTY) for f in fields}
    _store(data, idxs, shape, values, nargs)
    return Struct(fields, data.reshape(fix_shape(data.shape), order="F") if data.ndim > 2 else data)


def _prepared(data: np.ndarray, args: list, like: object, rhs_shape: tuple[int, ...],
              writable: bool = False) -> tuple[np.ndarray, list, tuple]:
    """``data`` shaped for ``args`` (grown if they reach past its end), with the indices
    and the shape: the common first step of an indexed store.  The array returned is
    private unless ``writable`` says ``data`` itself may be written; a vector growing at
    its end is grown in an over-allocated buffer (see ``_grow_vector``)."""
    nargs = len(args)
    shape, idxs = _grown_shape(data, args, nargs, rhs_shape)
    indexed = data.shape if nargs == 1 else _shape_for(data, nargs)
    if nargs == 1 and shape != indexed and data.ndim == 2 and (shape[0] == 1 or shape[1] == 1):
        data = _grow_vector(data, shape, writable, like)
    elif shape != indexed:
        data = _resize(data if nargs == 1 else data.reshape(indexed, order="F"), shape, like)
    elif writable and indexed == data.shape:
        pass
    else:
        data = data.reshape(indexed, order="F").copy()
    return data, idxs, shape


def _assign_strings(target: StringArray, args: list, rhs: object, in_place: bool) -> StringArray:
    if type(rhs) is StringArray:
        values = rhs.data
    elif type(rhs) is np.ndarray and rhs.dtype.kind == "V":
        values = np.array([[char_text(rhs)]], dtype=object)
    else:
        values = to_string_array(rhs).data
    data = target.data
    # the caller holds `target` alone; its data may still be another string array's
    # (references: target.data, `data`, getrefcount's argument)
    writable = in_place and sys.getrefcount(data) <= 3 and owns_storage(data)
    data, idxs, shape = _prepared(data, args, target, values.shape, writable)
    _store(data, idxs, shape, values, len(args))
    return StringArray(data.reshape(fix_shape(data.shape), order="F") if data.ndim > 2 else data)
