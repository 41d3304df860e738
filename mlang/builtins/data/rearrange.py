"""Rearranging arrays: repmat, repelem, reshape, permute, ipermute, squeeze,
cat, horzcat, vertcat, flip, fliplr, flipud, rot90 and circshift.

These functions only move elements around, so they work on every array-like
value (numeric, char, logical, cell, struct, string) through the value's
underlying ndarray; their gradient rules follow the elements.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.rules_support import vecdim
from mlang.builtins.coerce import MAX_DIMS, checked_shape, dim_argument, integer_scalar, size_value
from mlang.builtins.data.shape import (
    first_nonsingleton,
    is_placeholder,
    padded,
    padded_shape,
    rewrap_shaped,
    shape_of,
)
from mlang.errors import error
from mlang.registry import MISSING_LITERAL, builtin
from mlang.values.concat import cat as concatenate_values
from mlang.values.concat import concatenate
from mlang.values.core import NUMERIC_CLASSES, class_of, is_text, result, to_double_array
from mlang.values.indexing import data_of
from mlang.values.limits import check_array_size

_FLOAT64 = np.dtype(np.float64)


def _allowed(shape: tuple[int, ...], like: object) -> tuple[int, ...]:
    """``shape`` if an array of it, of the class of ``like``, may be created."""
    checked_shape(shape)
    dtype = like.dtype if type(like) is np.ndarray else \
        np.dtype(object) if class_of(like) in ("cell", "struct", "string") else np.dtype(np.float64)
    check_array_size(shape, dtype)
    return shape


def _replication(args: list) -> tuple[int, ...]:
    for v in args:
        if is_text(v) or not isinstance(v, (float, bool, np.ndarray)):
            raise error("MATLAB:repmat:invalidReplications",
                        "Replication factors must be a row vector of integers or integer scalars.")
    if len(args) == 1:
        a = to_double_array(args[0])
        if a.size == 1:
            n = size_value(a.reshape(-1)[0])
            return (n, n)
        return tuple(size_value(x) for x in a.reshape(-1))
    counts = []
    for v in args:
        a = to_double_array(v)
        if a.size != 1:
            raise error("MATLAB:repmat:invalidReplications",
                        "Replication factors must be a row vector of integers or integer scalars.")
        counts.append(size_value(a.reshape(-1)[0]))
    return tuple(counts)


def _repmat_rule(g: Any, y: Any, a: Any, *reps: Any) -> tuple:
    """Each element of A gets the sum of the gradients of its copies: B reshaped to
    (size(A,1), r1, size(A,2), r2, ...), summed over the r dimensions."""
    def gradient() -> Any:
        counts = _replication(list(reps))
        shape = ops.shape_of(a)
        ndim = max(len(shape), len(counts))
        sizes, copies = padded_shape(shape, ndim), padded_shape(counts, ndim)
        axes = [2 * k + 1 for k in range(ndim) if copies[k] != 1]
        if not axes:
            return ops.reshape_to(g, shape)
        spread = tuple(n for pair in zip(sizes, copies, strict=True) for n in pair)
        summed = ops.call("sum", ops.reshape_to(g, spread), vecdim(axes))
        return ops.reshape_to(summed, shape)
    return (gradient,) + (None,) * len(reps)


@builtin(gradient=_repmat_rule)
def repmat(a: Any, *reps: Any) -> object:
    """B = repmat(A,n)
    B = repmat(A,r1,...,rN)
    B = repmat(A,r)

    Repeat copies of an array."""
    if not reps:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    counts = checked_shape(_replication(list(reps)))
    ndim = max(len(shape_of(a)), len(counts))
    _allowed(tuple(n * c for n, c in zip(padded_shape(shape_of(a), ndim),
                                         padded_shape(counts, ndim), strict=True)), a)
    if type(a) is float and all(c == 1 for c in counts[2:]):
        return result(np.full(counts[:2], a))
    data = data_of(a)
    ndim = max(data.ndim, len(counts))
    counts = counts + (1,) * (ndim - len(counts))
    tiled = np.tile(padded(data, ndim), counts)
    return rewrap_shaped(a, tiled)


def _repetitions(v: object, n: int, which: int) -> np.ndarray:
    """Replication counts for ``n`` elements: a scalar for all, or one count each."""
    if class_of(v) not in NUMERIC_CLASSES and class_of(v) != "logical":
        raise error("MATLAB:repelem:nonNumericReplications", "Replication factors must be numeric.")
    counts = to_double_array(v).reshape(-1).real
    if counts.size == 1:
        counts = np.full(n, counts[0])
    elif counts.size != n:
        raise error("MATLAB:repelem:invalidReplications",
                    f"Replication factor R{which} must be a scalar or a vector with one element "
                    "for each element along that dimension of the input.")
    if np.any(~np.isfinite(counts)) or np.any(counts < 0) or np.any(counts != np.floor(counts)):
        raise error("MATLAB:repelem:invalidReplications",
                    "Replication factors must be nonnegative integers.")
    return counts.astype(np.int64)


@builtin(gradient=ops.moves_elements("repelem", 0, 1))
def repelem(a: Any, *reps: Any) -> object:
    """u = repelem(v,n)
    B = repelem(A,r1,...,rN)

    Repeat each element of the vector v n times (n a scalar, or one count per element),
    or each element of A r1 times along the rows, r2 times along the columns, and so on."""
    if not reps:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    data = data_of(a)
    shape = shape_of(a)
    if len(reps) == 1:
        if len(shape) != 2 or (shape[0] != 1 and shape[1] != 1):
            raise error("MATLAB:repelem:twoInputNonVector",
                        "With two inputs, the first input must be a vector. To repeat the "
                        "elements of a matrix, specify a replication factor for each dimension.")
        counts = _repetitions(reps[0], data.size, 1)
        _allowed((1, int(counts.sum())), a)
        out = np.repeat(data.reshape(-1, order="F"), counts)
        return rewrap_shaped(a, out.reshape((1, -1) if shape[0] == 1 else (-1, 1)))
    ndim = max(len(shape), len(reps))
    work = padded(data, ndim)
    plan = [_repetitions(r, work.shape[d], d + 1) for d, r in enumerate(reps)]
    _allowed(tuple(int(c.sum()) for c in plan) + work.shape[len(plan):], a)
    for d, counts in enumerate(plan):
        work = np.repeat(work, counts, axis=d)
    return rewrap_shaped(a, work)


def _same_elements_rule(g: Any, y: Any, a: Any, *rest: Any) -> tuple:
    """The rule of reshape and squeeze: the gradient takes the input's shape back."""
    return (ops.reshape_to(g, ops.shape_of(a)),) + (None,) * len(rest)


def _literal_sizes(literals: tuple) -> Any:
    """reshape(A, m, n) or reshape(A, [m n]) with the sizes written as literals: a function
    reshaping an array of m*n elements (NotImplemented for anything else), the sizes read
    once here (see Builtin.specialize)."""
    if len(literals) < 2 or any(v is MISSING_LITERAL for v in literals[1:]):
        return None
    sizes = _two_sizes(literals[1:])
    if sizes is None:
        return None
    count = sizes[0] * sizes[1]
    if count == 1:
        return None

    def reshaped(args: list) -> Any:
        a = args[0]
        if type(a) is np.ndarray and a.size == count and a.dtype.kind != "c":
            return a.reshape(sizes, order="F")  # (complex: result() may make it real)
        return NotImplemented

    return reshaped


@builtin(gradient=_same_elements_rule, specialize=_literal_sizes)
def reshape(a: Any, *dims: Any) -> object:
    """B = reshape(A,sz)
    B = reshape(A,sz1,...,szN)

    Reshape an array; one size may be [] to be computed from the others."""
    if type(a) is np.ndarray:
        sizes = _two_sizes(dims)
        if sizes is not None and sizes[0] * sizes[1] == a.size:  # the common case, as below
            return result(a.reshape(sizes, order="F"))
    if not dims:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    data = data_of(a)
    shape = _reshape_dims(list(dims), data.size)
    out = data.reshape(shape, order="F")
    return rewrap_shaped(a, out)


def _two_sizes(dims: tuple) -> tuple[int, int] | None:
    """Two sizes given as (m, n) or ([m n]) of whole non-negative doubles (else None)."""
    if len(dims) == 2:
        m, n = dims
        if type(m) is not float or type(n) is not float:
            return None
    elif len(dims) == 1 and type(dims[0]) is np.ndarray and dims[0].shape == (1, 2) \
            and dims[0].dtype == np.float64:
        m, n = dims[0][0].tolist()
    else:
        return None
    if m.is_integer() and n.is_integer() and m >= 0 and n >= 0:
        return int(m), int(n)
    return None


def _reshape_dims(dims: list, total: int) -> tuple[int, ...]:
    if len(dims) == 1:
        v = to_double_array(dims[0])
        if v.size < 2:
            raise error("MATLAB:getReshapeDims:sizeVector",
                        "Size vector must have at least two elements.")
        sizes: list[int | None] = [size_value(x) for x in v.reshape(-1)]
    else:
        sizes = []
        for d in dims:
            if is_placeholder(d):
                sizes.append(None)
                continue
            v = to_double_array(d)
            if v.size != 1:
                raise error("MATLAB:getReshapeDims:notScalar", "Size arguments must be integer scalars.")
            sizes.append(size_value(v.reshape(-1)[0]))
    unknown = [k for k, s in enumerate(sizes) if s is None]
    if len(unknown) > 1:
        raise error("MATLAB:getReshapeDims:unknownDim", "Size can only have one unknown dimension.")
    known = math.prod(s for s in sizes if s is not None)
    if unknown:
        if known == 0 or total % known:
            raise error("MATLAB:getReshapeDims:notDivisible",
                        f"Product of known dimensions, {known}, not divisible into total number "
                        f"of elements, {total}.")
        sizes[unknown[0]] = total // known
    elif known != total:
        raise error("MATLAB:getReshapeDims:notSameNumel",
                    "Number of elements must not change. Use [] as one of the size inputs to "
                    "automatically calculate the appropriate size for that dimension.")
    return tuple(int(s) for s in sizes)  # type: ignore[arg-type]


def _permutation(order: Any, ndim: int) -> list[int]:
    v = to_double_array(order).reshape(-1)
    if not np.all(np.isfinite(v.real)) or np.any(v.real != np.floor(v.real)):
        raise error("MATLAB:permute:badIndex", "ORDER contains an invalid permutation index.")
    perm = [int(x) - 1 for x in v.real]
    if len(perm) < ndim:
        raise error("MATLAB:permute:tooFewIndices",
                    f"ORDER must have at least {ndim} elements for an {ndim}-D array.")
    if sorted(perm) != list(range(len(perm))) or any(x != math.floor(x) for x in v.real):
        raise error("MATLAB:permute:badIndex", "ORDER contains an invalid permutation index.")
    return perm


@builtin(gradient=lambda g, y, a, order: (ops.call("ipermute", g, order), None))
def permute(a: Any, order: Any) -> object:
    """B = permute(A,dimorder)

    Rearrange the dimensions of an array."""
    data = data_of(a)
    perm = _permutation(order, data.ndim)
    return rewrap_shaped(a, np.transpose(padded(data, len(perm)), perm))


@builtin(gradient=lambda g, y, a, order: (ops.call("permute", g, order), None))
def ipermute(a: Any, order: Any) -> object:
    """A = ipermute(B,dimorder)

    Inverse of permute."""
    data = data_of(a)
    perm = _permutation(order, data.ndim)
    return rewrap_shaped(a, np.transpose(padded(data, len(perm)), list(np.argsort(perm))))


@builtin(gradient=_same_elements_rule)
def squeeze(a: Any) -> object:
    """B = squeeze(A)

    Remove dimensions of length 1 (2-D arrays are unchanged)."""
    data = data_of(a)
    if data.ndim <= 2:
        return a
    shape = tuple(n for n in data.shape if n != 1)
    shape = shape + (1,) * (2 - len(shape)) if len(shape) < 2 else shape
    return rewrap_shaped(a, data.reshape(shape))


@builtin(gradient=ops.moves_elements("cat", 1, None))
def cat(dim: Any, *values: Any) -> object:
    """C = cat(dim,A1,A2,...,An)

    Concatenate arrays along dimension dim."""
    message = "Dimension must be a real, positive, integer scalar."
    d = integer_scalar(dim, message, "MATLAB:catenate:invalidDimension")
    if d < 1:
        raise error("MATLAB:catenate:invalidDimension", message)
    if d > MAX_DIMS:
        raise error("MATLAB:array:SizeLimitExceeded",
                    f"Arrays with more than {MAX_DIMS} dimensions are not supported.")
    if not values:
        return np.zeros((0, 0))
    if d <= 2:  # as [A, B] or [A; B]: objects (tables, datetimes...) join by their own rules
        return concatenate([list(values)] if d == 2 else [[v] for v in values])
    return concatenate_values(list(values), d - 1)


@builtin(gradient=ops.moves_elements("horzcat", 0, None))
def horzcat(*values: Any) -> object:
    """C = horzcat(A1,A2,...,An)

    Concatenate horizontally: [A1, A2, ..., An]."""
    if len(values) == 2:
        a, b = values
        if type(a) is np.ndarray and type(b) is np.ndarray and a.dtype is _FLOAT64 \
                and b.dtype is _FLOAT64 and a.ndim == 2 and b.ndim == 2 and a.size and b.size \
                and a.shape[0] == b.shape[0]:
            return np.concatenate((a, b), axis=1)  # two nonempty double matrices of one height
    if not values:
        return np.zeros((0, 0))
    return concatenate([list(values)])


@builtin(gradient=ops.moves_elements("vertcat", 0, None))
def vertcat(*values: Any) -> object:
    """C = vertcat(A1,A2,...,An)

    Concatenate vertically: [A1; A2; ...; An]."""
    if len(values) == 2:
        a, b = values
        if type(a) is np.ndarray and type(b) is np.ndarray and a.dtype is _FLOAT64 \
                and b.dtype is _FLOAT64 and a.ndim == 2 and b.ndim == 2 and a.size and b.size \
                and a.shape[1] == b.shape[1]:
            return np.concatenate((a, b))  # two nonempty double matrices of one width
    if not values:
        return np.zeros((0, 0))
    return concatenate([[v] for v in values])


def _flip(a: object, axis: int) -> object:
    data = data_of(a)
    if axis >= data.ndim or data.shape[axis] <= 1:
        return a
    return rewrap_shaped(a, np.flip(data, axis).copy())


def _flip_rule(g: Any, y: Any, a: Any, dim: Any = None) -> tuple:
    axis = first_nonsingleton(ops.shape_of(a)) if dim is None else dim_argument(dim)
    return (ops.call("flip", g, float(axis + 1)), None)


@builtin(gradient=_flip_rule)
def flip(a: Any, dim: Any = None) -> object:
    """B = flip(A)
    B = flip(A,dim)

    Reverse the order of elements along the first non-singleton dimension (or dim)."""
    axis = first_nonsingleton(shape_of(a)) if dim is None else dim_argument(dim)
    return _flip(a, axis)


@builtin(gradient=lambda g, y, a: (ops.call("fliplr", g),))
def fliplr(a: Any) -> object:
    """B = fliplr(A)

    Flip an array left to right (reverse the columns)."""
    return _flip(a, 1)


@builtin(gradient=lambda g, y, a: (ops.call("flipud", g),))
def flipud(a: Any) -> object:
    """B = flipud(A)

    Flip an array upside down (reverse the rows)."""
    return _flip(a, 0)


@builtin()
def rot90(a: Any, k: Any = 1.0) -> object:
    """B = rot90(A)
    B = rot90(A,k)

    Rotate an array by 90 degrees counterclockwise (k times)."""
    turns = integer_scalar(k, "K must be an integer scalar.", "MATLAB:rot90:kNonInteger") % 4
    data = data_of(a)
    if turns == 0:
        return a
    return rewrap_shaped(a, np.rot90(data, turns, axes=(0, 1)).copy())


def _circshift_rule(g: Any, y: Any, a: Any, k: Any, dim: Any = None) -> tuple:
    back = result(-to_double_array(k).real)  # shifting back by the same amounts
    return (ops.call("circshift", g, back, *(() if dim is None else (dim,))), None, None)


@builtin(gradient=_circshift_rule)
def circshift(a: Any, k: Any, dim: Any = None) -> object:
    """Y = circshift(A,K)
    Y = circshift(A,K,dim)

    Shift elements circularly: by K positions along the first non-singleton
    dimension, along dim, or by K(i) along dimension i for a vector K."""
    data = data_of(a)
    shifts = to_double_array(k).reshape(-1)
    if shifts.size and (not np.all(np.isfinite(shifts.real))
                        or np.any(shifts.real != np.floor(shifts.real))):
        raise error("MATLAB:circshift:nonInteger", "Invalid shift amount. Shift must be integers.")
    if dim is not None:
        if shifts.size != 1:
            raise error("MATLAB:circshift:nonScalarShift",
                        "Invalid shift amount. When specifying dimension, shift must be a scalar.")
        axes = [dim_argument(dim)]
    elif shifts.size == 1:
        axes = [first_nonsingleton(data.shape)]
    else:
        axes = list(range(shifts.size))
    if not axes:
        return a
    work = padded(data, max(axes) + 1)
    amounts = [int(s) for s in shifts.real]
    out = np.roll(work, amounts, axis=axes)
    return rewrap_shaped(a, out)
