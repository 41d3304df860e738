"""Array constructors: zeros, ones, eye, magic, linspace, logspace, meshgrid,
ndgrid and colon.

Size arguments are read by ``coerce.size_arguments`` (zeros(2,3),
zeros([2 3]), with MATLAB's checks); a trailing class name or ``'like', p``
by ``coerce.sizes_and_class``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.coerce import checked_shape, size_arguments, sizes_and_class
from mlang.errors import MatlabError, error
from mlang.registry import MISSING_LITERAL, builtin
from mlang.values.core import (
    DTYPE_OF_CLASS,
    NUMERIC_CLASSES,
    char_codes,
    class_of,
    fix_shape,
    result,
    to_array,
    to_double_array,
)
from mlang.values.limits import MAX_ELEMENTS, check_array_size
from mlang.values.ranges import colon_range

# The classes zeros, ones and eye make.
ARRAY_CLASSES = (*NUMERIC_CLASSES, "logical")


# The largest size small_filled reads itself: any array of two such sizes is under
# values/limits.ALWAYS_ALLOWED_BYTES, which no session's size limit refuses.
SMALL_SIZE = 2048


def small_shape(args: tuple) -> tuple[int, int] | None:
    """The size that one or two whole double sizes from 0 to SMALL_SIZE ask for (zeros(1,2),
    cell(3)); None for any other arguments (class names, vectors, negative, NaN or
    fractional sizes), which the general path reads and reports."""
    n = len(args)
    if n == 2:
        rows, cols = args
    elif n == 1:
        rows = cols = args[0]
    else:
        return None
    # the comparisons are False for NaN and refuse Inf; type() refuses logical and int sizes
    if type(rows) is not float or type(cols) is not float or not 0.0 <= rows <= SMALL_SIZE \
            or not 0.0 <= cols <= SMALL_SIZE:
        return None
    shape = (int(rows), int(cols))
    if shape[0] != rows or shape[1] != cols:  # fractional
        return None
    return shape


def small_filled(args: tuple, value: float | bool, dtype: type = np.float64) -> object:
    """The array of ``value`` of a ``small_shape`` size (ones(1,2), zeros(3)), as the general
    path makes it (a scalar as a Python scalar), without its checks; None for any other
    arguments."""
    shape = small_shape(args)
    if shape is None:
        return None
    if shape == (1, 1):
        return bool(value) if dtype is np.bool_ else float(value)
    if not value:
        return np.zeros(shape, dtype=dtype)
    out = np.empty(shape, dtype=dtype)
    out.fill(value)
    return out


def literal_template(make: Any) -> Any:
    """A Builtin.specialize for a constructor whose arguments are all written as literals
    (zeros(1, 2), eye(2)): the value ``make`` gives for them is made once here, and each
    call gets a copy of it (a scalar as it is); None when ``make`` declines (None)."""

    def specialize(literals: tuple) -> Any:
        if any(v is MISSING_LITERAL for v in literals):
            return None
        made = make(literals)
        if made is None:
            return None
        if type(made) is not np.ndarray:
            return lambda args: made
        made.flags.writeable = False  # (only its copies leave here)
        return lambda args: made.copy()

    return specialize


def _filled(args: list, value: float) -> object:
    sizes, cls = sizes_and_class(args, ARRAY_CLASSES)
    shape = fix_shape(size_arguments(sizes, cls))
    dtype = DTYPE_OF_CLASS[cls]
    check_array_size(shape, dtype)
    return result(np.full(shape, value, dtype=dtype))


@builtin(dl="constant", specialize=literal_template(lambda sizes: small_filled(sizes, 0.0)))
def zeros(*args: Any) -> object:
    """Z = zeros(n)
    Z = zeros(sz1,...,szN)
    Z = zeros(sz)
    Z = zeros(___,typename)
    Z = zeros(___,'like',p)

    Array of all zeros."""
    if not args:
        return 0.0
    small = small_filled(args, 0.0)
    return small if small is not None else _filled(list(args), 0)


@builtin(dl="constant", specialize=literal_template(lambda sizes: small_filled(sizes, 1.0)))
def ones(*args: Any) -> object:
    """X = ones(n)
    X = ones(sz1,...,szN)
    X = ones(sz)
    X = ones(___,typename)
    X = ones(___,'like',p)

    Array of all ones."""
    if not args:
        return 1.0
    small = small_filled(args, 1.0)
    return small if small is not None else _filled(list(args), 1)


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


# eye(n) of the smallest n, made once (read-only: each call gets a copy)
_IDENTITIES = [_read_only(np.eye(n)) for n in range(5)]


def _small_identity(args: tuple) -> object:
    """eye of a ``small_shape`` size, as the general path makes it; None for other arguments."""
    shape = small_shape(args)
    if shape is None:
        return None
    if shape == (1, 1):
        return 1.0
    rows, cols = shape
    if rows == cols and rows < len(_IDENTITIES):
        return _IDENTITIES[rows].copy()
    identity = np.zeros(shape)
    identity.flat[:min(rows, cols) * cols:cols + 1] = 1.0  # the diagonal, row-major
    return identity


@builtin(dl="constant", specialize=literal_template(_small_identity))
def eye(*args: Any) -> object:
    """I = eye
    I = eye(n)
    I = eye(n,m)
    I = eye(sz)
    I = eye(___,typename)
    I = eye(___,'like',p)

    Identity matrix."""
    small = _small_identity(args)
    if small is not None:
        return small
    sizes, cls = sizes_and_class(args, ARRAY_CLASSES)
    shape = size_arguments(sizes, cls)
    if len(shape) > 2:
        raise error("MATLAB:eye:ndimsNotSupported", "N-dimensional arrays are not supported.")
    check_array_size(shape, DTYPE_OF_CLASS[cls])
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
    check_array_size(checked_shape((k, k)))
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
    if a.dtype.kind == "V":
        return float(char_codes(a).reshape(-1)[0])
    x = a.reshape(-1)[0]
    return complex(x) if a.dtype.kind == "c" else float(x)


def _literal_start_and_count(literals: tuple) -> Any:
    """linspace(a, b, n) with a moderate double a and a whole n from 2 to 16 written as
    literals: a function giving the points up to a moderate double b as linspace's quick
    path computes them (NotImplemented for any other b), a and n read once here (see
    Builtin.specialize)."""
    if len(literals) != 3:
        return None
    a, n = literals[0], literals[2]
    if type(a) is not float or type(n) is not float or not 2.0 <= n <= 16.0 \
            or not n.is_integer() or not abs(a) < 1e300:
        return None
    count = int(n)
    last = count - 1
    inner = range(1, last)

    def points(args: list) -> Any:
        b = args[1]
        if type(b) is not float or not (abs(b) < 1e300 and abs(b - a) * n < 1e300):
            return NotImplemented
        step = b - a
        return np.array([[a, *[a + k * step / last for k in inner], b]])

    return points


@builtin(specialize=_literal_start_and_count)
def linspace(a: Any, b: Any, n: Any = 100.0) -> object:
    """y = linspace(x1,x2)
    y = linspace(x1,x2,n)

    Row of n (default 100) evenly spaced points from x1 to x2."""
    if type(a) is float and type(b) is float and type(n) is float and 2.0 <= n <= SMALL_SIZE \
            and n.is_integer() and abs(a) < 1e300 and abs(b) < 1e300 and abs(b - a) * n < 1e300:
        # points between two moderate double ends (no overflow to guard against), computed
        # as below
        count = int(n)
        if count <= 16:  # a few points are quicker made one by one, by the same operations
            step = b - a
            points = [a + k * step / (count - 1) for k in range(count)]
            points[0] = a
            points[-1] = b
            return np.array([points])
        y = a + np.arange(count, dtype=np.float64) * (b - a) / (count - 1)
        y[0] = a
        y[-1] = b
        return y.reshape(1, count)
    message = "Inputs must be scalars."
    x1 = _scalar_number(a, message, "MATLAB:linspace:scalarInputs")
    x2 = _scalar_number(b, message, "MATLAB:linspace:scalarInputs")
    count = _scalar_number(n, message, "MATLAB:linspace:scalarInputs")
    if count.real == math.inf:
        raise error("MATLAB:array:SizeLimitExceeded",
                    "Requested array exceeds maximum array size preference.")
    count = int(math.floor(count.real)) if math.isfinite(count.real) else 0
    check_array_size(checked_shape((1, count)))
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
