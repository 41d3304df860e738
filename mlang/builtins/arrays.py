"""Array constructors and shape functions.

zeros, ones, eye, magic, linspace, logspace, meshgrid, ndgrid, colon, repmat,
repelem, reshape, permute, ipermute, squeeze, cat, horzcat, vertcat, flip, fliplr,
flipud, rot90, circshift, size, numel, length, ndims, the is* shape
predicates, sub2ind, ind2sub and isequal.

Functions that only move elements around (repmat, reshape, permute, flip, ...)
work on every array-like value (numeric, char, logical, cell, struct, string)
through the value's underlying ndarray.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.rules_support import vecdim
from mlang.errors import MatlabError, error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.concat import cat as concatenate_values
from mlang.values.core import (
    DTYPE_OF_CLASS,
    NUMERIC_CLASSES,
    class_of,
    fix_shape,
    is_text,
    result,
    to_array,
    to_double_array,
    to_str,
)
from mlang.values.indexing import data_of, rewrap
from mlang.values.ranges import colon_range
from mlang.values.string import StringArray
from mlang.values.struct import Struct

# ------------------------------------------------------------ shared helpers


def shape_of(v: object) -> tuple[int, ...]:
    """MATLAB's size of any value (objects without a shape count as 1×1)."""
    t = type(v)
    if t is np.ndarray:
        return v.shape  # type: ignore[return-value]
    if t is float or t is bool or t is complex:
        return (1, 1)
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
    return type(v) is np.ndarray and v.size == 0 and v.dtype.kind != "U"


def text_option(v: object) -> str | None:
    """The lowercased text of a char row / string scalar option, else None."""
    if is_text(v) and (type(v) is not np.ndarray or v.ndim == 2 and v.shape[0] <= 1):
        try:
            return to_str(v).lower()
        except MatlabError:  # a string array with several elements is not an option
            return None
    return None


def integer_scalar(v: object, message: str, identifier: str = "MATLAB:badArgument") -> int:
    """A real integer-valued scalar argument as a Python int."""
    try:
        a = to_double_array(v)
    except MatlabError:
        raise error(identifier, message) from None
    if a.size != 1 or a.dtype.kind == "c":
        raise error(identifier, message)
    x = float(a.reshape(-1)[0])
    if not math.isfinite(x) or x != math.floor(x):
        raise error(identifier, message)
    return int(x)


def dim_argument(v: object) -> int:
    """A dimension argument (positive integer scalar) as a 0-based axis."""
    message = "Dimension argument must be a positive integer scalar within indexing range."
    d = integer_scalar(v, message, "MATLAB:getdimarg:invalidDim")
    if d < 1 or d > 2**48:
        raise error("MATLAB:getdimarg:invalidDim", message)
    return d - 1


# NumPy's limit on the number of dimensions of an array.
MAX_DIMS = 64
# Largest number of elements an array may have before creating it is refused
# (MATLAB refuses arrays beyond its maximum array size preference).
MAX_ELEMENTS = 2**40


def checked_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` if an array of that size can be created, else MATLAB's size error."""
    if len(shape) > MAX_DIMS:
        raise error("MATLAB:array:SizeLimitExceeded",
                    f"Arrays with more than {MAX_DIMS} dimensions are not supported.")
    if math.prod(shape) > MAX_ELEMENTS or any(n > 2**48 for n in shape):
        dims = "x".join(str(n) for n in shape)
        raise error("MATLAB:array:SizeLimitExceeded",
                    f"Requested {dims} array exceeds maximum array size preference.")
    return shape


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


# --------------------------------------------------------------- constructors

_SIZE_NOT_INT = "Size inputs must be integers."
_SIZE_NOT_SCALAR = "Size inputs must be scalar."


def size_arguments(args: list) -> tuple[int, ...]:
    """Dimensions from MATLAB size inputs: (), (n), (m, n, ...) or ([m n ...])."""
    return checked_shape(_size_dims(args))


def _size_dims(args: list) -> tuple[int, ...]:
    if not args:
        return (1, 1)
    for v in args:
        if type(v) is not float and (is_text(v) or not isinstance(v, (bool, complex, np.ndarray))):
            raise error("MATLAB:validateattributes:expectedNumeric", "Size inputs must be numeric.")
    if all(type(v) is float and v == v // 1 for v in args):  # the common case: plain counts
        dims = tuple(max(int(v), 0) for v in args)
        return dims if len(dims) > 1 else dims * 2
    if len(args) == 1:
        a = to_double_array(args[0])
        if a.size == 1:
            n = _size_value(a.reshape(-1)[0])
            return (n, n)
        if a.size == 0:
            return (0, 0)
        if a.ndim != 2 or min(a.shape) != 1:
            raise error("MATLAB:NonVectorInput", "Size vector must be a row vector with real elements.")
        dims = tuple(_size_value(x) for x in a.reshape(-1))
        return dims if len(dims) >= 2 else dims + (1,)
    dims = []
    for v in args:
        a = to_double_array(v)
        if a.size != 1:
            raise error("MATLAB:NonScalarInput", _SIZE_NOT_SCALAR)
        dims.append(_size_value(a.reshape(-1)[0]))
    return tuple(dims)


def _size_value(x: Any) -> int:
    if isinstance(x, complex) or np.iscomplexobj(x):
        x = x.real
    x = float(x)
    if not math.isfinite(x) or x != math.floor(x):
        raise error("MATLAB:NonIntegerInput", _SIZE_NOT_INT)
    return max(int(x), 0)


def _class_and_sizes(args: list, allow_logical: bool = False) -> tuple[list, str]:
    """Split trailing class arguments (``'int8'`` or ``'like', p``) from size arguments."""
    allowed = set(NUMERIC_CLASSES) | ({"logical"} if allow_logical else set())
    if len(args) >= 2 and text_option(args[-2]) == "like":
        cls = class_of(args[-1])
        if cls == "char":
            cls = "double"
        if cls not in allowed:
            raise error("MATLAB:UndefinedFunction",
                        f"Undefined function for input arguments of type '{cls}'.")
        return list(args[:-2]), cls
    if args and is_text(args[-1]):
        name = to_str(args[-1])
        if name not in allowed:
            raise error("MATLAB:invalidClassName",
                        "Class name must be a numeric class such as 'double', 'single' or 'int8'.")
        return list(args[:-1]), name
    return list(args), "double"


def _filled(args: list, value: float) -> object:
    sizes, cls = _class_and_sizes(args, allow_logical=True)
    shape = fix_shape(size_arguments(sizes))
    return result(np.full(shape, value, dtype=DTYPE_OF_CLASS[cls]))


@builtin(dl="constant")
def zeros(*args: Any) -> object:
    """Z = zeros(n)
    Z = zeros(sz1,...,szN)
    Z = zeros(sz)
    Z = zeros(___,typename)
    Z = zeros(___,'like',p)

    Array of all zeros."""
    if not args:
        return 0.0
    return _filled(list(args), 0)


@builtin(dl="constant")
def ones(*args: Any) -> object:
    """X = ones(n)
    X = ones(sz1,...,szN)
    X = ones(sz)
    X = ones(___,typename)
    X = ones(___,'like',p)

    Array of all ones."""
    if not args:
        return 1.0
    return _filled(list(args), 1)


@builtin(dl="constant")
def eye(*args: Any) -> object:
    """I = eye
    I = eye(n)
    I = eye(n,m)
    I = eye(sz)
    I = eye(___,typename)
    I = eye(___,'like',p)

    Identity matrix."""
    sizes, cls = _class_and_sizes(list(args), allow_logical=True)
    shape = size_arguments(sizes)
    if len(shape) > 2:
        raise error("MATLAB:eye:ndimsNotSupported", "N-dimensional arrays are not supported.")
    return result(np.eye(shape[0], shape[1], dtype=DTYPE_OF_CLASS[cls]))


@builtin()
def magic(n: Any) -> object:
    """M = magic(n)

    Magic square: an n-by-n matrix of the integers 1..n^2 with equal row,
    column and diagonal sums (n >= 3)."""
    x = _scalar_number(n, "Input must be a scalar.", "MATLAB:magic:invalidInput")
    k = int(math.floor(x.real)) if math.isfinite(x.real) else 0
    if k < 1:
        return np.zeros((0, 0))
    checked_shape((k, k))
    return result(_magic(k).astype(np.float64))


def _magic(n: int) -> np.ndarray:
    """The classic construction: siamese for odd n, complement pattern for
    doubly even n, and four odd squares (LUX-style swaps) for singly even n."""
    if n % 2 == 1:
        j, i = np.meshgrid(np.arange(1, n + 1), np.arange(1, n + 1))
        a = np.mod(i + j - (n + 3) // 2, n)
        b = np.mod(i + 2 * j - 2, n)
        return n * a + b + 1
    if n % 4 == 0:
        j, i = np.meshgrid(np.arange(1, n + 1), np.arange(1, n + 1))
        keep = (np.mod(i, 4) // 2) == (np.mod(j, 4) // 2)
        m = np.arange(1, n * n + 1).reshape(n, n)  # row-major: M(i,j) = (i-1)*n + j
        return np.where(keep, n * n + 1 - m, m)
    p = n // 2
    q = _magic(p)
    m = np.block([[q, q + 2 * p * p], [q + 3 * p * p, q + p * p]])
    k = (n - 2) // 4
    rows = np.arange(p)
    cols = list(range(k)) + list(range(n - k + 1, n))
    for c in cols:
        top = m[rows, c].copy()
        m[rows, c] = m[rows + p, c]
        m[rows + p, c] = top
    for c in sorted({0, k}):  # one swap per column, also when k is 0 (n = 2)
        top = m[k, c]
        m[k, c] = m[k + p, c]
        m[k + p, c] = top
    return m


def _scalar_number(v: object, message: str, identifier: str) -> float | complex:
    a = to_array(v)
    if a.size != 1:
        raise error(identifier, message)
    x = a.reshape(-1)[0]
    if a.dtype.kind == "U":
        return float(ord(x))
    return complex(x) if a.dtype.kind == "c" else float(x)


@builtin()
def linspace(a: Any, b: Any, n: Any = 100.0) -> object:
    """y = linspace(x1,x2)
    y = linspace(x1,x2,n)

    Row of n (default 100) evenly spaced points from x1 to x2."""
    message = "Inputs must be scalars."
    x1 = _scalar_number(a, message, "MATLAB:linspace:scalarInputs")
    x2 = _scalar_number(b, message, "MATLAB:linspace:scalarInputs")
    count = _scalar_number(n, message, "MATLAB:linspace:scalarInputs")
    if count.real == math.inf:
        raise error("MATLAB:array:SizeLimitExceeded",
                    "Requested array exceeds maximum array size preference.")
    count = int(math.floor(count.real)) if math.isfinite(count.real) else 0
    checked_shape((1, count))
    single = "single" in (class_of(a), class_of(b))
    if count < 1:
        return np.zeros((1, 0), dtype=np.float32 if single else np.float64)
    if count == 1:
        y = np.array([[x2]])
    else:
        n1 = count - 1
        steps = np.arange(count, dtype=np.float64)
        with np.errstate(all="ignore"):
            y = x1 + steps * (x2 - x1) / n1
            if not np.all(np.isfinite(y)) and np.isfinite(x1) and np.isfinite(x2):
                y = x1 + (x2 / n1) * steps - (x1 / n1) * steps  # avoid overflow of x2 - x1
        y[0] = x1
        y[-1] = x2
        y = y.reshape(1, count)
    if single:
        y = y.astype(np.complex64 if y.dtype.kind == "c" else np.float32)
    return result(y)


@builtin()
def logspace(a: Any, b: Any, n: Any = 50.0) -> object:
    """y = logspace(a,b)
    y = logspace(a,b,n)

    Row of n (default 50) logarithmically spaced points from 10^a to 10^b
    (to pi when b is pi)."""
    x2 = _scalar_number(b, "Inputs must be scalars.", "MATLAB:logspace:scalarInputs")
    if x2 == math.pi:
        b = math.log10(math.pi)
    y = to_double_array(linspace(a, b, n))
    with np.errstate(all="ignore"):
        return result(np.power(10.0, y))


def _grid_vector(v: object) -> np.ndarray:
    a = to_array(v)
    return a.reshape(-1, order="F")


@builtin(max_out=3, nargout=True)
def meshgrid(x: Any, *rest: Any, nargout: int = 1) -> object:
    """[X,Y] = meshgrid(x,y)
    [X,Y] = meshgrid(x)
    [X,Y,Z] = meshgrid(x,y,z)
    [X,Y,Z] = meshgrid(x)

    2-D and 3-D grids: X varies along the rows' direction, Y down the columns."""
    if len(rest) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    vectors = [x, *rest]
    three = len(vectors) == 3 or (len(vectors) == 1 and nargout == 3)
    if len(vectors) == 1:
        vectors = [x, x, x] if three else [x, x]
    elif len(vectors) == 2 and nargout == 3:
        raise error("MATLAB:meshgrid:NotEnoughInputs", "Not enough input arguments.")
    xs, ys = _grid_vector(vectors[0]), _grid_vector(vectors[1])
    if not three:
        out = (np.tile(xs.reshape(1, -1), (ys.size, 1)), np.tile(ys.reshape(-1, 1), (1, xs.size)))
    else:
        zs = _grid_vector(vectors[2])
        shape = (ys.size, xs.size, zs.size)
        out = (np.broadcast_to(xs.reshape(1, -1, 1), shape).copy(),
               np.broadcast_to(ys.reshape(-1, 1, 1), shape).copy(),
               np.broadcast_to(zs.reshape(1, 1, -1), shape).copy())
    values = tuple(result(o.reshape(fix_shape(o.shape))) for o in out)
    return values[: max(nargout, 1)]


@builtin(max_out=None, nargout=True)
def ndgrid(*args: Any, nargout: int = 1) -> object:
    """[X1,X2,...,Xn] = ndgrid(x1,x2,...,xn)
    [X1,X2,...,Xn] = ndgrid(xg)

    N-D grids: output k varies along dimension k."""
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    count = max(nargout, 1)
    vectors = [_grid_vector(v) for v in args]
    if len(vectors) == 1:
        if count == 1:
            return result(vectors[0].reshape(-1, 1))
        vectors = vectors * count
    elif len(vectors) < count:
        raise error("MATLAB:ndgrid:NotEnoughInputs", "Not enough input arguments.")
    shape = tuple(v.size for v in vectors)
    outs = []
    for k, v in enumerate(vectors[:count]):
        view = v.reshape((1,) * k + (-1,) + (1,) * (len(shape) - k - 1))
        grid = np.broadcast_to(view, shape).copy()
        outs.append(result(grid.reshape(fix_shape(grid.shape))))
    return tuple(outs)


@builtin()
def colon(a: Any, b: Any, c: Any = None) -> object:
    """y = colon(j,k)
    y = colon(j,i,k)

    The function form of j:k and j:i:k."""
    start, step, stop = (a, 1.0, b) if c is None else (a, b, c)
    _check_range_length(start, step, stop)
    return colon_range(start, step, stop)


def _check_range_length(start: object, step: object, stop: object) -> None:
    """Refuse ranges too long to create (and NaN/Inf ends that NumPy cannot count)."""
    try:
        ends = [to_double_array(v).reshape(-1) for v in (start, step, stop)]
    except MatlabError:
        return  # colon_range reports the bad operand
    if any(e.size == 0 for e in ends):
        return
    lo, by, hi = (float(np.real(e[0])) for e in ends)
    if any(math.isnan(x) for x in (lo, by, hi)) or by == 0 or (hi - lo) / by < 0:
        return
    count = (hi - lo) / by
    if not math.isfinite(count) or count > MAX_ELEMENTS:
        raise error("MATLAB:array:SizeLimitExceeded",
                    "Requested array exceeds maximum array size preference.")


# ------------------------------------------------------------- rearranging


def padded_shape(shape: tuple[int, ...], ndim: int) -> tuple[int, ...]:
    """``shape`` with trailing singleton dimensions up to ``ndim``."""
    return shape + (1,) * max(0, ndim - len(shape))


def _replication(args: list) -> tuple[int, ...]:
    for v in args:
        if is_text(v) or not isinstance(v, (float, bool, np.ndarray)):
            raise error("MATLAB:repmat:invalidReplications",
                        "Replication factors must be a row vector of integers or integer scalars.")
    if len(args) == 1:
        a = to_double_array(args[0])
        if a.size == 1:
            n = _size_value(a.reshape(-1)[0])
            return (n, n)
        return tuple(_size_value(x) for x in a.reshape(-1))
    counts = []
    for v in args:
        a = to_double_array(v)
        if a.size != 1:
            raise error("MATLAB:repmat:invalidReplications",
                        "Replication factors must be a row vector of integers or integer scalars.")
        counts.append(_size_value(a.reshape(-1)[0]))
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
    checked_shape(tuple(n * c for n, c in zip(padded_shape(shape_of(a), ndim),
                                              padded_shape(counts, ndim), strict=True)))
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
        checked_shape((1, int(counts.sum())))
        out = np.repeat(data.reshape(-1, order="F"), counts)
        return rewrap_shaped(a, out.reshape((1, -1) if shape[0] == 1 else (-1, 1)))
    ndim = max(len(shape), len(reps))
    work = padded(data, ndim)
    plan = [_repetitions(r, work.shape[d], d + 1) for d, r in enumerate(reps)]
    checked_shape(tuple(int(c.sum()) for c in plan) + work.shape[len(plan):])
    for d, counts in enumerate(plan):
        work = np.repeat(work, counts, axis=d)
    return rewrap_shaped(a, work)


def _same_elements_rule(g: Any, y: Any, a: Any, *rest: Any) -> tuple:
    """The rule of reshape and squeeze: the gradient takes the input's shape back."""
    return (ops.reshape_to(g, ops.shape_of(a)),) + (None,) * len(rest)


@builtin(gradient=_same_elements_rule)
def reshape(a: Any, *dims: Any) -> object:
    """B = reshape(A,sz)
    B = reshape(A,sz1,...,szN)

    Reshape an array; one size may be [] to be computed from the others."""
    if not dims:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    data = data_of(a)
    shape = _reshape_dims(list(dims), data.size)
    out = data.reshape(shape, order="F")
    return rewrap_shaped(a, out)


def _reshape_dims(dims: list, total: int) -> tuple[int, ...]:
    if len(dims) == 1:
        v = to_double_array(dims[0])
        if v.size < 2:
            raise error("MATLAB:getReshapeDims:sizeVector",
                        "Size vector must have at least two elements.")
        sizes: list[int | None] = [_size_value(x) for x in v.reshape(-1)]
    else:
        sizes = []
        for d in dims:
            if is_placeholder(d):
                sizes.append(None)
                continue
            v = to_double_array(d)
            if v.size != 1:
                raise error("MATLAB:getReshapeDims:notScalar", "Size arguments must be integer scalars.")
            sizes.append(_size_value(v.reshape(-1)[0]))
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
    return concatenate_values(list(values), d - 1)


@builtin(gradient=ops.moves_elements("horzcat", 0, None))
def horzcat(*values: Any) -> object:
    """C = horzcat(A1,A2,...,An)

    Concatenate horizontally: [A1, A2, ..., An]."""
    if not values:
        return np.zeros((0, 0))
    return concatenate_values(list(values), 1)


@builtin(gradient=ops.moves_elements("vertcat", 0, None))
def vertcat(*values: Any) -> object:
    """C = vertcat(A1,A2,...,An)

    Concatenate vertically: [A1; A2; ...; An]."""
    if not values:
        return np.zeros((0, 0))
    return concatenate_values(list(values), 0)


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


# ------------------------------------------------------------------- sizes


@builtin(max_out=None, nargout=True, dl="data")
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
    picked = []
    message = ("Dimension argument must be a positive integer scalar or a vector of positive "
               "integers.")
    for d in dims:
        v = to_double_array(d).reshape(-1)
        if v.size == 0 or len(dims) > 1 and v.size != 1:
            raise error("MATLAB:getdimarg:invalidDim", message)
        for x in v.real:
            if not math.isfinite(x) or x < 1 or x != math.floor(x):
                raise error("MATLAB:getdimarg:invalidDim", message)
            k = int(x) - 1
            picked.append(shape[k] if k < len(shape) else 1)
    return picked


@builtin(dl="data")
def numel(x: Any, *index: Any) -> float:
    """n = numel(A)

    Number of elements."""
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


# ----------------------------------------------------------------- isequal


@builtin(dl="data")
def isequal(a: Any, b: Any, *rest: Any) -> bool:
    """tf = isequal(A,B)
    tf = isequal(A1,A2,...,An)

    True when the values are equal in size and content (NaN is not equal to
    NaN; numeric classes may differ)."""
    first = a
    for other in (b, *rest):
        if not values_equal(first, other):
            return False
    return True


def values_equal(a: object, b: object) -> bool:
    """MATLAB's isequal of two values."""
    ta, tb = type(a), type(b)
    if ta is float and tb is float:
        return a == b
    if ta is StringArray or tb is StringArray:
        return _strings_equal(a, b)
    if shape_of(a) != shape_of(b):
        return False
    if ta is Cell or tb is Cell:
        if ta is not tb:
            return False
        return all(values_equal(x, y) for x, y in zip(a.values(), b.values(), strict=True))
    if ta is Struct or tb is Struct:
        if ta is not tb or set(a.fields) != set(b.fields):
            return False
        for da, db in zip(a.elems.reshape(-1, order="F"), b.elems.reshape(-1, order="F"), strict=True):
            if any(not values_equal(da[f], db[f]) for f in a.fields):
                return False
        return True
    if _is_plain_array(a) and _is_plain_array(b):
        return bool(np.array_equal(to_double_array(a), to_double_array(b)))
    if hasattr(a, "equals"):
        return bool(a.equals(b))
    return a is b


def _is_plain_array(v: object) -> bool:
    t = type(v)
    return t is float or t is bool or t is complex or t is np.ndarray


def _strings_equal(a: object, b: object) -> bool:
    """A string array equals another string array or a char row with the same text."""
    from mlang.values.text import to_string_array

    for v in (a, b):
        if type(v) is not StringArray and not (type(v) is np.ndarray and v.dtype.kind == "U"):
            return False
    x, y = to_string_array(a), to_string_array(b)
    if x.shape != y.shape:
        return False
    xs, ys = x.data.reshape(-1), y.data.reshape(-1)
    return all(p is not None and p == q for p, q in zip(xs, ys, strict=True))
