"""Array shape: the shape helpers the other builtins share, the size functions
(size, numel, length, ndims) and shape tests (isempty, isscalar, isvector,
isrow, iscolumn, ismatrix), and conversion between subscripts and linear
indices (sub2ind, ind2sub).

The shape helpers work on every array-like value (numeric, char, logical,
cell, struct, string) through the value's underlying ndarray.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.coerce import MAX_DIMS, dim_argument, dims_argument, text_option
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import fix_shape, result, to_double_array
from mlang.values.indexing import rewrap
from mlang.values.struct import Struct

# ------------------------------------------------------------ shared helpers


def shape_of(v: object) -> tuple[int, ...]:
    """MATLAB's size of any value (objects without a shape count as 1×1)."""
    t = type(v)
    if t is np.ndarray:
        return v.shape  # type: ignore[return-value]
    if t is float or t is bool or t is complex:
        return (1, 1)
    if t is Cell:
        return v.data.shape  # type: ignore[attr-defined]
    if t is Struct:
        return v.elems.shape  # type: ignore[attr-defined]
    shape = getattr(v, "shape", None)
    if shape is None:
        return (1, 1)
    return tuple(int(d) for d in shape)


def first_nonsingleton(shape: tuple[int, ...]) -> int:
    """The 0-based first dimension whose size is not 1 (0 when there is none)."""
    for d, n in enumerate(shape):
        if n != 1:
            return d
    return 0


def is_placeholder(v: object) -> bool:
    """``[]`` given where MATLAB accepts an empty placeholder argument."""
    return type(v) is np.ndarray and v.size == 0 and v.dtype.kind != "V"


def padded(a: np.ndarray, ndim: int) -> np.ndarray:
    """``a`` viewed with at least ``ndim`` dimensions (trailing singletons added)."""
    if a.ndim >= ndim:
        return a
    if ndim > MAX_DIMS:
        raise error("MATLAB:array:SizeLimitExceeded",
                    f"Arrays with more than {MAX_DIMS} dimensions are not supported.")
    return a.reshape(a.shape + (1,) * (ndim - a.ndim))


def rewrap_shaped(like: object, data: np.ndarray) -> object:
    """``rewrap`` after dropping trailing singleton dimensions."""
    shape = fix_shape(data.shape)
    if shape != data.shape:
        data = data.reshape(shape)
    if type(like) is Struct:
        return Struct(list(like.fields), data).copy()
    return rewrap(like, data)


def double_row(values: list[int] | tuple[int, ...]) -> object:
    """A 1×n double row of the given numbers (a float for one number)."""
    return result(np.array([list(values)], dtype=np.float64).reshape(1, len(values)))


def padded_shape(shape: tuple[int, ...], ndim: int) -> tuple[int, ...]:
    """``shape`` with trailing singleton dimensions up to ``ndim``."""
    return shape + (1,) * max(0, ndim - len(shape))


# ------------------------------------------------------------------- sizes


def _literal_dimension(literals: tuple) -> Any:
    """size(A, dim) with a whole dim of 1 or more written as a literal: a function giving the
    size of a double scalar or an array along it (NotImplemented for anything else), the
    dimension read once here (see Builtin.specialize)."""
    if len(literals) != 2:
        return None
    d = literals[1]
    if type(d) is not float or not (d >= 1 and d == d // 1):
        return None
    k = int(d) - 1

    def size_along(args: list) -> Any:
        x = args[0]
        if type(x) is np.ndarray:
            shape = x.shape
            return float(shape[k]) if k < len(shape) else 1.0
        if type(x) is float:
            return 1.0
        return NotImplemented

    return size_along


@builtin(max_out=None, nargout=True, dl="data", specialize=_literal_dimension)
def size(x: Any, *dims: Any, nargout: int = 1) -> object:
    """sz = size(A)
    szdim = size(A,dim)
    szdim = size(A,dim1,dim2,...,dimN)
    [sz1,...,szN] = size(___)

    Array size; with several outputs the last one folds the remaining dimensions."""
    shape = shape_of(x)
    if len(dims) == 1 and type(dims[0]) is float and nargout <= 1:
        d = dims[0]
        if d >= 1 and d == d // 1:
            k = int(d) - 1
            return float(shape[k]) if k < len(shape) else 1.0
    if dims:
        picked = _picked_dims(dims, shape)
        if nargout <= 1:
            return float(picked[0]) if len(picked) == 1 else double_row(picked)
        if nargout != len(picked):
            raise error("MATLAB:TooManyOutputs" if nargout > len(picked) else "MATLAB:badArgument",
                        "Too many output arguments." if nargout > len(picked) else
                        "Number of requested dimensions must equal the number of outputs.")
        return tuple(float(n) for n in picked)
    if nargout <= 1:
        return double_row(shape)
    values = list(shape[: nargout - 1]) + [1] * max(0, nargout - 1 - len(shape))
    values.append(math.prod(shape[nargout - 1:]) if len(shape) >= nargout else 1)
    return tuple(float(n) for n in values)


def _picked_dims(dims: tuple, shape: tuple[int, ...]) -> list[int]:
    """The sizes of the dimensions size(A, dim) or size(A, dim1, ..., dimN) asks for."""
    axes = dims_argument(dims[0], repeats=True) if len(dims) == 1 else \
        [dim_argument(d) for d in dims]
    return [shape[k] if k < len(shape) else 1 for k in axes]


@builtin(dl="data")
def numel(x: Any, *index: Any) -> float:
    """n = numel(A)

    Number of elements."""
    if type(x) is np.ndarray and not index:
        return float(x.size)
    shape = shape_of(x)
    if not index:
        return float(math.prod(shape))
    count = 1
    for k, idx in enumerate(index):
        if text_option(idx) == ":":
            if k == len(index) - 1:
                count *= math.prod(shape[k:])
            else:
                count *= shape[k] if k < len(shape) else 1
        else:
            count *= math.prod(shape_of(idx))
    return float(count)


@builtin(dl="data")
def length(x: Any) -> float:
    """L = length(X)

    Length of the largest dimension (0 for an empty array)."""
    shape = shape_of(x)
    return 0.0 if 0 in shape else float(max(shape))


@builtin(dl="data")
def ndims(x: Any) -> float:
    """N = ndims(A)

    Number of dimensions (always at least 2)."""
    return float(len(shape_of(x)))


@builtin(dl="data")
def isempty(x: Any) -> bool:
    """TF = isempty(A)

    True when A has no elements (some dimension is 0)."""
    return 0 in shape_of(x)


@builtin(dl="data")
def isscalar(x: Any) -> bool:
    """TF = isscalar(A)

    True when A is 1-by-1."""
    return shape_of(x) == (1, 1)


@builtin(dl="data")
def isvector(x: Any) -> bool:
    """TF = isvector(A)

    True when A is 1-by-N or N-by-1."""
    shape = shape_of(x)
    return len(shape) == 2 and (shape[0] == 1 or shape[1] == 1)


@builtin(dl="data")
def isrow(x: Any) -> bool:
    """TF = isrow(A)

    True when A is 1-by-N."""
    shape = shape_of(x)
    return len(shape) == 2 and shape[0] == 1


@builtin(dl="data")
def iscolumn(x: Any) -> bool:
    """TF = iscolumn(A)

    True when A is N-by-1."""
    shape = shape_of(x)
    return len(shape) == 2 and shape[1] == 1


@builtin(dl="data")
def ismatrix(x: Any) -> bool:
    """TF = ismatrix(A)

    True when A has two dimensions."""
    return len(shape_of(x)) == 2


# --------------------------------------------------------- index conversion


def _size_vector(sz: Any) -> list[int]:
    v = to_double_array(sz).reshape(-1)
    if (v.size == 0 or not np.all(np.isfinite(v.real)) or np.any(v.real < 0)
            or np.any(v.real != np.floor(v.real))):
        raise error("MATLAB:sub2ind:invalidSize", "Size vector must have at least two elements "
                    "and contain nonnegative integers.")
    dims = [int(x) for x in v.real]
    return dims if len(dims) >= 2 else dims + [1]


@builtin()
def sub2ind(sz: Any, *subs: Any) -> object:
    """ind = sub2ind(sz,row,col)
    ind = sub2ind(sz,I1,I2,...,In)

    Linear indices from subscripts."""
    dims = _size_vector(sz)
    if not subs:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    arrays = [to_double_array(s) for s in subs]
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays[1:]):
        raise error("MATLAB:sub2ind:SubscriptVectorSize",
                    "The subscript vectors must all be of the same size.")
    if len(arrays) < len(dims):  # the last subscript spans the folded trailing dimensions
        dims = dims[: len(arrays) - 1] + [math.prod(dims[len(arrays) - 1:])]
    dims = dims + [1] * (len(arrays) - len(dims))
    index = np.zeros(shape, dtype=np.float64)
    stride = 1
    for a, n in zip(arrays, dims, strict=True):
        values = a.real
        if np.any(values < 1) or np.any(values != np.floor(values)):
            raise error("MATLAB:sub2ind:IndexOutOfRange", "Out of range subscript.")
        if np.any(values > n):
            raise error("MATLAB:sub2ind:IndexOutOfRange", "Out of range subscript.")
        index = index + (values - 1) * stride
        stride *= n
    return result(index + 1)


@builtin(max_out=None, nargout=True)
def ind2sub(sz: Any, ind: Any, *, nargout: int = 1) -> object:
    """[row,col] = ind2sub(sz,ind)
    [I1,I2,...,In] = ind2sub(sz,ind)

    Subscripts from linear indices (the last output folds trailing dimensions)."""
    dims = _size_vector(sz)
    count = max(nargout, 1)
    if len(dims) < count:
        dims = dims + [1] * (count - len(dims))
    elif len(dims) > count:
        dims = dims[: count - 1] + [math.prod(dims[count - 1:])]
    values = to_double_array(ind).real
    total = math.prod(dims)
    total = float(total) if total.bit_length() < 1024 else math.inf  # beyond any double
    if values.size and (np.any(values < 1) or np.any(values > total)
                        or np.any(values != np.floor(values))):
        raise error("MATLAB:ind2sub:IndexOutOfRange", "Index out of range.")
    rest = values - 1
    outs = []
    for n in dims[:-1]:
        outs.append(result(np.mod(rest, n) + 1 if n else rest + 1))
        rest = np.floor_divide(rest, n) if n else rest
    outs.append(result(rest + 1))
    return tuple(outs)
