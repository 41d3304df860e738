"""Linear algebra: kron, diag, trace, det, inv, norm, vecnorm, cross, dot,
pagemtimes and the structure tests (issymmetric, ishermitian, bandwidth,
isbanded), with the helpers ``polynomials`` shares (floating-point arguments
and results)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.rules_support import replace, select, sign, top_singular_outer
from mlang.builtins.coerce import checked_shape, dim_argument, integer_scalar, text_option
from mlang.builtins.data.shape import first_nonsingleton, padded
from mlang.builtins.math.extrema import extreme_positions
from mlang.builtins.math.short_rows import SEQUENTIAL_SUM, short_values
from mlang.errors import error, warn
from mlang.registry import builtin
from mlang.values.core import (
    INT_CLASSES,
    char_row,
    class_of,
    fix_shape,
    result,
    to_array,
    to_double_array,
)
from mlang.values.limits import check_array_size
from mlang.values.operators import result_class, to_class
from mlang.values.solve import rcond_estimate, small_one_norm, surely_well_conditioned

_FLOAT_CLASSES = ("double", "single")


def as_floats(x: object, name: str) -> np.ndarray:
    """A numeric argument as float64/complex128 (logical and char allowed)."""
    cls = class_of(x)
    if cls not in ("double", "single", "logical", "char", *INT_CLASSES):
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{name}' for input arguments of type '{cls}'.")
    return to_double_array(x)


def float_result(values: np.ndarray, *inputs: object) -> object:
    """A floating-point result: single when any input is single, double otherwise."""
    if any(class_of(v) == "single" for v in inputs):
        with np.errstate(over="ignore"):  # beyond single's range is Inf, as in MATLAB
            return result(values.astype(np.complex64 if values.dtype.kind == "c" else np.float32))
    return result(values)


def small_and_finite(x: np.ndarray) -> bool:
    """Whether a small real 2-D array has no NaN or Inf entries, told from the sum of a list
    of its rows (a sum that overflows says no: the caller's general path decides then)."""
    return math.isfinite(sum(map(sum, x.tolist())))


def is_vector_array(a: np.ndarray) -> bool:
    """A 2-D array with one row or one column."""
    return a.ndim == 2 and (a.shape[0] == 1 or a.shape[1] == 1)


def _vector_shape(shape: tuple[int, ...]) -> bool:
    return len(shape) == 2 and (shape[0] == 1 or shape[1] == 1)


def _square(a: np.ndarray) -> None:
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise error("MATLAB:square", "Matrix must be square.")


# ------------------------------------------------------------------ matrices


@builtin()
def kron(a: Any, b: Any) -> object:
    """K = kron(A,B)

    Kronecker tensor product."""
    if type(a) is np.ndarray and type(b) is np.ndarray and a.dtype == np.float64 and b.dtype == np.float64 \
            and a.ndim == 2 and b.ndim == 2 and 0 < a.size * b.size <= 4096:
        # two small real double matrices: every product of an element of a and one of b,
        # laid out as np.kron lays them out
        return result((a[:, None, :, None] * b[None, :, None, :])
                      .reshape(a.shape[0] * b.shape[0], a.shape[1] * b.shape[1]))
    cls = result_class(a, b, "kron")
    x, y = as_floats(a, "kron"), as_floats(b, "kron")
    if x.ndim > 2 or y.ndim > 2:
        raise error("MATLAB:kron:NDArray", "Inputs must be 2-D.")
    check_array_size((x.shape[0] * y.shape[0], x.shape[1] * y.shape[1]),
                     np.result_type(x.dtype, y.dtype))
    out = np.kron(x, y)
    if cls in INT_CLASSES:
        return result(to_class(out, cls))
    return float_result(out, a, b)


@builtin()
def diag(v: Any, k: Any = 0.0) -> object:
    """D = diag(v)
    D = diag(v,k)
    x = diag(A)
    x = diag(A,k)

    Square matrix with v on its k-th diagonal, or the k-th diagonal of A as a column."""
    if type(v) is np.ndarray and v.dtype == np.float64 and v.ndim == 2 and v.size and type(k) is float \
            and k == 0.0 and v.size <= 256:
        # the main diagonal of a real double matrix, or a real double vector put on it
        if v.shape[0] == 1 or v.shape[1] == 1:
            n = v.size
            out = np.zeros((n, n))
            out.flat[::n + 1] = v.reshape(-1)
            return result(out)
        return result(v.diagonal().reshape(-1, 1).copy())
    offset = integer_scalar(k, "K-th diagonal input must be an integer scalar.",
                            "MATLAB:diag:kthDiagInputNotInteger")
    a = to_array(v)
    if a.ndim != 2:
        raise error("MATLAB:diag:firstInputNotVectorOrMatrix", "First input must be 2-D.")
    if a.shape == (0, 0):
        return a
    if is_vector_array(a):
        values = a.reshape(-1)
        n = values.size + abs(offset)
        checked_shape((n, n))
        out = np.zeros((n, n), dtype=a.dtype)
        rows = np.arange(values.size) + max(-offset, 0)
        cols = np.arange(values.size) + max(offset, 0)
        out[rows, cols] = values
        return result(out)
    rows, cols = a.shape
    offset = max(min(offset, cols), -rows)  # beyond the matrix: no diagonal elements
    if offset >= 0:
        count = max(min(rows, cols - offset), 0)
        picked = a[np.arange(count), np.arange(count) + offset]
    else:
        count = max(min(rows + offset, cols), 0)
        picked = a[np.arange(count) - offset, np.arange(count)]
    return result(picked.reshape(-1, 1))


@builtin()
def trace(a: Any) -> object:
    """b = trace(A)

    Sum of the diagonal elements of a square matrix."""
    x = to_array(a)
    _square(x)
    values = np.diagonal(x)
    cls = class_of(a)
    if cls in INT_CLASSES:
        return result(to_class(np.array([[values.astype(np.float64).sum()]]), cls))
    return float_result(np.array([[as_floats(a, "trace").diagonal().sum()]]), a)


@builtin()
def det(a: Any) -> object:
    """d = det(A)

    Determinant of a square matrix."""
    x = as_floats(a, "det")
    _square(x)
    if x.size == 0:
        return 1.0
    return float_result(np.array([[np.linalg.det(x)]]), a)


@builtin()
def inv(a: Any) -> object:
    """Y = inv(X)

    Matrix inverse (warns when X is singular or badly conditioned)."""
    if type(a) is np.ndarray and a.dtype == np.float64 and a.ndim == 2 and 0 < a.shape[0] == a.shape[1]:
        quick = _double_inverse(a)
        if quick is not None:
            return quick
    if class_of(a) in INT_CLASSES:
        raise error("MATLAB:inv:integerNotSupported",
                    "Invalid data type. Input matrix must be double or single.")
    x = as_floats(a, "inv")
    _square(x)
    if x.size == 0:
        return float_result(np.zeros(x.shape), a)
    try:
        out = np.linalg.inv(x)
    except np.linalg.LinAlgError:
        warn("MATLAB:singularMatrix", "Matrix is singular to working precision.")
        return float_result(np.full(x.shape, np.inf), a)
    eps = np.finfo(np.float32 if class_of(a) == "single" else np.float64).eps
    _inverse_warning(out, rcond_estimate(x), float(eps))
    return float_result(out, a)


def _double_inverse(a: np.ndarray) -> object:
    """inv of a nonempty real double square matrix: the general path's steps without its
    class tests; None for an exactly singular matrix (the general path warns, gives Inf)."""
    try:
        out = np.linalg.inv(a)
    except np.linalg.LinAlgError:
        return None
    # far from singular (its condition estimate far above eps, its inverse's entries far below
    # overflow): no warning can come
    if not surely_well_conditioned(a):
        _inverse_warning(out, rcond_estimate(a), float(np.finfo(np.float64).eps))
    return result(out)


def _inverse_warning(out: np.ndarray, rcond: float, eps: float) -> None:
    """inv's warning for a singular or badly conditioned matrix (reciprocal condition
    estimate ``rcond``, ``out`` the inverse computed)."""
    if not np.isfinite(out).all() or rcond == 0:
        warn("MATLAB:singularMatrix", "Matrix is singular to working precision.")
    elif rcond < eps:
        warn("MATLAB:nearlySingularMatrix",
             "Matrix is close to singular or badly scaled. Results may be inaccurate. "
             f"RCOND = {rcond: e}.")


def _norm_order(p: Any) -> float | str:
    """The norm type argument of norm: a number (Inf, -Inf allowed) or 'fro'."""
    kind = text_option(p)
    if kind is not None:
        if kind not in ("fro", "inf"):
            raise error("MATLAB:norm:unknownNorm",
                        "The only matrix norms available are 1, 2, inf, and 'fro'.")
        return "fro" if kind == "fro" else math.inf
    value = to_double_array(p)
    if value.size != 1:
        raise error("MATLAB:norm:unknownNorm",
                    "The only matrix norms available are 1, 2, inf, and 'fro'.")
    return float(value.reshape(-1)[0].real)


def _p_norm_gradient(g: Any, y: Any, x: Any, order: float | str, axis: int | None) -> Any:
    """The gradient of the p-norm of vectors: the whole of ``x`` (axis None) or each
    slice along ``axis``; ``g`` and ``y`` have the reduced shape.  Zero where the
    norm is zero (and, for p < 1, at zero elements)."""
    data = ops.data_of(x)
    shape = ops.shape_of(x)
    if order == "fro" or order == 2.0:
        scaled = ops.rdivide(g, replace(y, ops.data_of(y) == 0))
        return ops.times(ops.expand_to(scaled, shape), x)
    if order == 0:
        return np.zeros(shape, dtype=data.dtype)
    signs = sign(x)
    if order == 1.0:
        return ops.times(ops.expand_to(g, shape), signs)
    if order in (math.inf, -math.inf):
        within = (char_row("all"),) if axis is None else (float(axis + 1),)
        positions = extreme_positions(np.abs(data), within, order > 0)
        picked = ops.take(signs, positions, ops.shape_of(g))
        return ops.put(ops.times(g, picked), positions, shape)
    # y = (sum |x|.^p).^(1/p): dy/dx = |x|.^(p-1) .* sign(x) ./ y.^(p-1)
    nonzero = data != 0
    magnitude = replace(ops.call("abs", x), ~nonzero)
    powered = ops.times(ops.call("power", magnitude, order - 1.0), select(signs, nonzero))
    scaled = ops.rdivide(g, ops.call("power", replace(y, ops.data_of(y) == 0), order - 1.0))
    return ops.times(ops.expand_to(scaled, shape), powered)


def _norm_rule(g: Any, y: Any, x: Any, p: Any = 2.0) -> tuple:
    g = ops.real(g)  # the value is real for every input
    def gradient() -> Any:
        data = ops.data_of(x)
        order = _norm_order(p)
        if data.size == 0:
            return np.zeros(data.shape)
        if is_vector_array(data) or order == "fro":
            return _p_norm_gradient(g, y, x, order, None)
        if order == 2.0:
            return ops.times(g, top_singular_outer(x))
        # 1-norm: the largest column sum of |x|; Inf-norm: the largest row sum
        sums = np.abs(data).sum(axis=0 if order == 1.0 else 1)
        k = int(np.argmax(np.where(np.isnan(sums), -np.inf, sums)))
        mask = np.zeros(data.shape, dtype=bool)
        if order == 1.0:
            mask[:, k] = True
        else:
            mask[k, :] = True
        return ops.times(g, select(sign(x), mask))
    return (gradient, None)


@builtin(gradient=_norm_rule)
def norm(x: Any, p: Any = 2.0) -> object:
    """n = norm(v)
    n = norm(v,p)
    n = norm(X)
    n = norm(X,p)
    n = norm(X,'fro')

    Vector p-norm (p may be Inf or -Inf), or matrix 1-, 2-, Inf- or Frobenius norm."""
    if type(p) is float and p == 2.0:
        values = short_values(x)
        if values is not None:
            return _short_norm([abs(e) for e in values])
    if type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 and x.size \
            and (x.shape[0] == 1 or x.shape[1] == 1) and type(p) is float and p == 2.0:
        # the 2-norm of a real double row or column, as _scaled_p_norm computes it (its
        # largest magnitude is NaN when any element is; x*x is NumPy's x**2)
        return _two_norm(x.reshape(-1))
    if type(x) is np.ndarray and x.dtype == np.float64 and x.ndim == 2 and x.size:
        if type(p) is float:
            quick = _double_norm(x, p)
            if quick is not None:
                return quick
        elif text_option(p) == "fro":
            return _two_norm(x.reshape(-1))  # the general path's: of the elements in row order
    a = as_floats(x, "norm")
    if a.ndim > 2:
        raise error("MATLAB:norm:inputMustBe2D", "Input must be 2-D.")
    order = _norm_order(p)
    if a.size == 0:
        return float_result(np.array([[0.0]]), x)
    if is_vector_array(a):
        return float_result(np.array([[_vector_norm(a.reshape(-1), order)]]), x)
    if order == "fro":
        value = _vector_norm(a.reshape(-1), 2.0)
    elif order == 2.0 and not np.all(np.isfinite(a)):
        value = math.nan  # the SVD cannot run on NaN/Inf; MATLAB's 2-norm is NaN then
    elif order in (1.0, 2.0, math.inf):
        value = float(np.linalg.norm(a, ord=order))
    else:
        raise error("MATLAB:norm:unknownNorm",
                    "The only matrix norms available are 1, 2, inf, and 'fro'.")
    return float_result(np.array([[value]]), x)


def _two_norm(flat: np.ndarray) -> float:
    """The 2-norm of real doubles ``flat``, as _scaled_p_norm computes it (its largest
    magnitude is NaN when any element is; x*x is NumPy's x**2)."""
    if flat.size < SEQUENTIAL_SUM:
        return _short_norm([abs(e) for e in flat.tolist()])
    mags = np.abs(flat)
    scale = float(np.maximum.reduce(mags))
    if scale != scale:
        return math.nan
    if scale == 0 or scale == math.inf:
        return float(np.add.reduce(mags * mags)) ** 0.5
    scaled = mags / scale
    return scale * float(np.add.reduce(scaled * scaled)) ** 0.5


def _double_norm(x: np.ndarray, p: float) -> float | None:
    """norm(x, p) of a nonempty real double 2-D array for the common p, computed as the
    general path computes it; None for the cases left to it (NaN and Inf among them)."""
    if x.shape[0] == 1 or x.shape[1] == 1:
        if p == 1.0 or p == math.inf or p == -math.inf:
            if x.size < SEQUENTIAL_SUM:
                mags = [abs(e) for e in x.reshape(-1).tolist()]
                if any(m != m for m in mags):
                    return math.nan
                if p == 1.0:
                    total = 0.0
                    for m in mags:
                        total += m
                    return total
                return max(mags) if p > 0 else min(mags)
            mags_array = np.abs(x.reshape(-1))
            return float(mags_array.sum() if p == 1.0 else mags_array.max() if p > 0 else mags_array.min())
        return None
    if x.size > 64:
        return None
    if p == 2.0:
        if not small_and_finite(x):
            return None
        # the largest singular value, as np.linalg.norm finds it
        singular = np.linalg.svd(x, compute_uv=False)
        top = max(singular.tolist())
        return top if top else float(singular.max())  # (NumPy's choice between 0 and -0)
    if p == 1.0:  # the largest column sum of magnitudes
        return small_one_norm(x)
    if p == math.inf:  # the largest row sum
        return small_one_norm(x.T)
    return None


def _short_norm(mags: list[float]) -> float:
    """_scaled_p_norm's 2-norm of fewer than SEQUENTIAL_SUM magnitudes, in Python floats."""
    scale = 0.0  # the largest magnitude (all are +0 or more)
    for m in mags:
        if m != m:
            return math.nan
        if m > scale:
            scale = m
    total = 0.0
    if scale == 0 or scale == math.inf:
        for m in mags:
            total += m * m
        return total ** 0.5
    for m in mags:
        scaled = m / scale
        total += scaled * scaled
    return scale * total ** 0.5


def _vector_norm(v: np.ndarray, order: float | str) -> float:
    mags = np.abs(v)
    if order == "fro" or order == 2.0:
        return _scaled_p_norm(mags, 2.0)
    if order == math.inf:
        return float(mags.max())
    if order == -math.inf:
        return float(mags.min())
    if order == 1.0:
        return float(mags.sum())
    if order == 0:
        return math.inf if np.any(mags) else 0.0
    return _scaled_p_norm(mags, order)


def _scaled_p_norm(mags: np.ndarray, order: float) -> float:
    """(sum mags.^p)^(1/p) computed as s*(sum (mags/s).^p)^(1/p), s the largest
    magnitude, so that neither huge values overflow nor tiny ones underflow."""
    with np.errstate(all="ignore"):
        if np.isnan(mags).any():
            return math.nan
        scale = mags.max()
        if scale == 0 or not np.isfinite(scale):
            return float((mags ** order).sum() ** (1.0 / order))
        return float(scale * ((mags / scale) ** order).sum() ** (1.0 / order))


@builtin()
def cross(a: Any, b: Any, dim: Any = None) -> object:
    """C = cross(A,B)
    C = cross(A,B,dim)

    Cross product of 3-element vectors (or along the first dimension of length 3)."""
    if dim is None and type(a) is np.ndarray and type(b) is np.ndarray and a.dtype == np.float64 \
            and b.dtype == np.float64 and a.size == 3 and b.size == 3 and is_vector_array(a) \
            and is_vector_array(b):
        # two real double 3-vectors: np.cross's products and differences, in Python floats
        a0, a1, a2 = a.reshape(-1).tolist()
        b0, b1, b2 = b.reshape(-1).tolist()
        out = np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])
        return result(out.reshape(1, 3) if a.shape[0] == 1 and b.shape[0] == 1 else out.reshape(3, 1))
    x, y = as_floats(a, "cross"), as_floats(b, "cross")
    if dim is None and is_vector_array(x) and is_vector_array(y) and x.size == 3 and y.size == 3:
        u, v = x.reshape(-1), y.reshape(-1)
        out = np.cross(u, v)
        both_rows = x.shape[0] == 1 and y.shape[0] == 1
        return _cls_result(out.reshape(1, 3) if both_rows else out.reshape(3, 1), a, b)
    if x.shape != y.shape:
        raise error("MATLAB:cross:InputSizeMismatch", "A and B must be of same size.")
    axis = dim_argument(dim) if dim is not None else next(
        (d for d, n in enumerate(x.shape) if n == 3), -1)
    if axis < 0 or axis >= x.ndim or x.shape[axis] != 3:
        raise error("MATLAB:cross:InvalidDimAorBForCrossProd",
                    "A and B must be of length 3 in the dimension in which the cross product is taken.")
    out = np.cross(x, y, axis=axis)
    return _cls_result(out, a, b)


def _cls_result(values: np.ndarray, a: object, b: object) -> object:
    cls = result_class(a, b, "cross")
    if cls in INT_CLASSES:
        return result(to_class(values, cls))
    return float_result(values, a, b)


def _dot_rule(g: Any, y: Any, a: Any, b: Any, dim: Any = None) -> tuple:
    # y = sum(conj(a).*b): b gets g.*a, and a (conjugated in y) gets conj(g).*b
    if dim is None and _vector_shape(ops.shape_of(a)) and _vector_shape(ops.shape_of(b)):
        return (lambda: ops.reshape_to(ops.times(ops.conj(g), b), ops.shape_of(a)),
                lambda: ops.reshape_to(ops.times(g, a), ops.shape_of(b)), None)
    return (lambda: ops.times(ops.conj(g), b), lambda: ops.times(g, a), None)


@builtin(gradient=_dot_rule)
def dot(a: Any, b: Any, dim: Any = None) -> object:
    """C = dot(A,B)
    C = dot(A,B,dim)

    Scalar (dot) product: sum(conj(A).*B) for vectors, column-wise for matrices."""
    if dim is None:
        first = short_values(a)
        if first is not None:
            second = first if b is a else short_values(b)
            if second is not None and len(first) == len(second):
                # two short real double vectors: the sum of their products, as NumPy adds
                total = 0.0
                for k in range(len(first)):
                    total += first[k] * second[k]
                return total
    if dim is None and type(a) is np.ndarray and type(b) is np.ndarray and a.dtype == np.float64 \
            and b.dtype == np.float64 and a.ndim == 2 and b.ndim == 2 and a.size == b.size \
            and (a.shape[0] == 1 or a.shape[1] == 1) and (b.shape[0] == 1 or b.shape[1] == 1):
        # two real double vectors of one length: the sum of their products (conj is nothing)
        if a.size < SEQUENTIAL_SUM:
            total = 0.0
            for u, w in zip(a.reshape(-1).tolist(), b.reshape(-1).tolist(), strict=True):
                total += u * w
            return total
        return float((a.reshape(-1) * b.reshape(-1)).sum())
    if dim is None and type(a) is np.ndarray and type(b) is np.ndarray and a.dtype == np.float64 \
            and b.dtype == np.float64 and a.ndim == 2 and a.shape == b.shape and a.shape[0] > 1 \
            and a.shape[1] > 1:
        # two real double matrices of one size: the sums of their products down the columns
        return result((a * b).sum(axis=0, keepdims=True))
    x, y = as_floats(a, "dot"), as_floats(b, "dot")
    if dim is None and is_vector_array(x) and is_vector_array(y):
        if x.size != y.size:
            raise error("MATLAB:dot:InputSizeMismatch", "A and B must be same size.")
        return float_result(np.array([[np.sum(np.conj(x.reshape(-1)) * y.reshape(-1))]]), a, b)
    if x.shape != y.shape:
        raise error("MATLAB:dot:InputSizeMismatch", "A and B must be same size.")
    axis = first_nonsingleton(x.shape) if dim is None else dim_argument(dim)
    product = padded(np.conj(x) * y, axis + 1)
    out = product.sum(axis=axis, keepdims=True)
    return float_result(out.reshape(fix_shape(out.shape)), a, b)


def _vecnorm_plan(x: Any, p: Any, dim: Any) -> tuple[np.ndarray, float, int]:
    cls = class_of(x)
    if cls not in _FLOAT_CLASSES:
        raise error("MATLAB:vecnorm:InvalidInput",
                    f"Invalid data type. Input must be single or double, not {cls}.")
    a = to_array(x)
    order = 2.0
    if p is not None:
        value = to_double_array(p) if class_of(p) not in ("char", "string", "cell", "struct") \
            else np.zeros(0)
        if value.size != 1 or value.dtype.kind == "c" or not value.reshape(-1)[0] > 0:
            raise error("MATLAB:vecnorm:unknownNorm",
                        "The only vector norms available are positive real scalars and Inf.")
        order = float(value.reshape(-1)[0])
    axis = first_nonsingleton(a.shape) if dim is None else dim_argument(dim)
    return a, order, axis


def _vecnorm_rule(g: Any, y: Any, x: Any, p: Any = None, dim: Any = None) -> tuple:
    g = ops.real(g)  # the value is real for every input
    def gradient() -> Any:
        _, order, axis = _vecnorm_plan(ops.data_of(x), p, dim)
        return _p_norm_gradient(g, y, x, order, axis)
    return (gradient, None, None)


@builtin(gradient=_vecnorm_rule)
def vecnorm(x: Any, p: Any = None, dim: Any = None) -> object:
    """N = vecnorm(A)
    N = vecnorm(A,p)
    N = vecnorm(A,p,dim)

    The p-norm (default 2; p may be any positive number or Inf) of the vectors along the
    first dimension whose size is not 1, or along dim."""
    a, order, axis = _vecnorm_plan(x, p, dim)
    values = np.moveaxis(padded(a, axis + 1), axis, -1)
    mags = np.abs(values)
    with np.errstate(all="ignore"):
        if values.shape[-1] == 0:
            out = np.zeros(values.shape[:-1], dtype=mags.dtype)
        elif order == math.inf:
            out = mags.max(axis=-1)
            out = np.where(np.isnan(mags).any(axis=-1), np.nan, out)
        elif order == 1.0:
            out = mags.sum(axis=-1)
        else:
            # scaled by the largest magnitude so that huge values do not overflow
            # and tiny ones do not underflow
            scale = mags.max(axis=-1, keepdims=True)
            safe = np.where((scale == 0) | ~np.isfinite(scale), 1, scale)
            sums = ((mags / safe) ** order).sum(axis=-1, keepdims=True)
            out = (safe * (np.sqrt(sums) if order == 2.0 else sums ** (1.0 / order)))[..., 0]
            out = np.where(np.isnan(mags).any(axis=-1), np.nan, out)
    out = np.moveaxis(out[..., None], -1, axis)
    return result(out.reshape(fix_shape(out.shape)))


_TRANSPOSE_OPTIONS = ("none", "transpose", "ctranspose")


def _pagemtimes_args(args: tuple) -> tuple[Any, str, Any, str]:
    if len(args) == 2:
        return args[0], "none", args[1], "none"
    if len(args) != 4:
        raise error("MATLAB:pagemtimes:invalidNumInputs",
                    "Invalid number of input arguments. Specify either both transpose options "
                    "or neither.")
    flags = []
    for v in (args[1], args[3]):
        text = text_option(v)
        if text not in _TRANSPOSE_OPTIONS:
            raise error("MATLAB:pagemtimes:invalidTransposeOption",
                        "Transpose options must be 'none', 'transpose', or 'ctranspose'.")
        flags.append(text)
    return args[0], flags[0], args[2], flags[1]


def _pages(a: np.ndarray, option: str, ndim: int) -> np.ndarray:
    """The pages of ``a`` as a NumPy stack (page dimensions first), transposed as asked."""
    a = padded(a, ndim)
    if option != "none":
        a = np.swapaxes(a, 0, 1)
        if option == "ctranspose" and a.dtype.kind == "c":
            a = a.conj()
    return np.moveaxis(a, (0, 1), (-2, -1))


def _pagemtimes_rule(g: Any, y: Any, x: Any, *args: Any) -> tuple:
    """Per page, Z = op(X)*op(Y): X gets g*op(Y)' and Y gets op(X)'*g, taken back through
    the transpositions, and summed over the pages each operand was expanded along."""
    a, ta, b, tb = _pagemtimes_args((x,) + args)
    none, tr, ctr = (char_row(t) for t in _TRANSPOSE_OPTIONS)
    conj = ops.conj

    def page(*operands: Any) -> Any:
        return ops.call("pagemtimes", *operands)

    def grad_x() -> Any:
        if ta == "none":  # g * op(Y)'
            gx = {"none": lambda: page(g, none, b, ctr), "transpose": lambda: page(g, none, conj(b), none),
                  "ctranspose": lambda: page(g, none, b, none)}[tb]()
        elif ta == "transpose":  # conj(op(Y)) * g.'
            gx = {"none": lambda: page(conj(b), none, g, tr), "transpose": lambda: page(b, ctr, g, tr),
                  "ctranspose": lambda: page(b, tr, g, tr)}[tb]()
        else:  # op(Y) * g'
            gx = page(b, char_row(tb), g, ctr)
        return ops.unbroadcast(gx, a)

    def grad_y() -> Any:
        if tb == "none":  # op(X)' * g
            gy = {"none": lambda: page(a, ctr, g, none), "transpose": lambda: page(conj(a), none, g, none),
                  "ctranspose": lambda: page(a, none, g, none)}[ta]()
        elif tb == "transpose":  # g.' * conj(op(X))
            gy = {"none": lambda: page(g, tr, conj(a), none), "transpose": lambda: page(g, tr, a, ctr),
                  "ctranspose": lambda: page(g, tr, a, tr)}[ta]()
        else:  # g' * op(X)
            gy = page(g, ctr, a, char_row(ta))
        return ops.unbroadcast(gy, b)

    if len(args) == 1:
        return (grad_x, grad_y)
    return (grad_x, None, grad_y, None)


@builtin(gradient=_pagemtimes_rule)
def pagemtimes(x: Any, *args: Any) -> object:
    """Z = pagemtimes(X,Y)
    Z = pagemtimes(X,transpX,Y,transpY)

    Page-wise matrix product: Z(:,:,i) = X(:,:,i)*Y(:,:,i), the pages beyond the first two
    dimensions implicitly expanded; transpX and transpY are 'none', 'transpose' or
    'ctranspose'."""
    a, ta, b, tb = _pagemtimes_args((x,) + args)
    for v in (a, b):
        if class_of(v) not in ("double", "single", "logical", "char"):
            raise error("MATLAB:pagemtimes:invalidInputType",
                        "Inputs must be numeric arrays of type single or double.")
    xa, xb = as_floats(a, "pagemtimes"), as_floats(b, "pagemtimes")
    ndim = max(xa.ndim, xb.ndim)
    pa, pb = _pages(xa, ta, ndim), _pages(xb, tb, ndim)
    if pa.shape[-1] != pb.shape[-2]:
        raise error("MATLAB:innerdim",
                    "Incorrect dimensions for matrix multiplication. Check that the number of "
                    "columns in the first matrix matches the number of rows in the second "
                    "matrix. To operate on each element of the matrix individually, use TIMES "
                    "(.*) for elementwise multiplication.")
    for da, db in zip(pa.shape[:-2], pb.shape[:-2], strict=True):
        if da != db and da != 1 and db != 1:
            raise error("MATLAB:sizeDimensionsMustMatch",
                        "Arrays have incompatible sizes for this operation.")
    out = np.moveaxis(np.matmul(pa, pb), (-2, -1), (0, 1))
    return float_result(out.reshape(fix_shape(out.shape)), a, b)


# ------------------------------------------------------------ matrix structure


def _structure_matrix(a: Any, name: str) -> np.ndarray:
    """A numeric, logical or char argument of the structure tests, as an array."""
    cls = class_of(a)
    if cls not in ("double", "single", "logical", "char", *INT_CLASSES):
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{name}' for input arguments of type '{cls}'.")
    return to_array(a) if cls != "char" else to_double_array(a)


def _symmetry(a: Any, args: tuple, name: str, conjugate: bool) -> bool:
    skew = False
    tol = None
    for v in args:
        word = text_option(v)
        if word is not None:
            if word not in ("skew", "nonskew") or tol is not None:
                raise error(f"MATLAB:{name}:inputFlag", "Second input must be 'skew' or 'nonskew'.")
            skew = word == "skew"
            continue
        value = to_double_array(v) if class_of(v) in ("double", "single") else np.zeros(0)
        if value.size != 1 or value.dtype.kind == "c" or not value.reshape(-1)[0] >= 0:
            raise error(f"MATLAB:{name}:tolerance",
                        "Tolerance must be a nonnegative real scalar.")
        tol = float(value.reshape(-1)[0])
    x = _structure_matrix(a, name)
    if x.ndim != 2 or x.shape[0] != x.shape[1]:
        return False
    t = x.T.conj() if conjugate else x.T
    if tol is None:
        return bool(np.array_equal(x, -t if skew else t))
    x, t = x.astype(np.result_type(x.dtype, np.float64)), t.astype(np.result_type(t.dtype, np.float64))
    with np.errstate(all="ignore"):
        gap = np.abs(x + t if skew else x - t).sum(axis=1).max(initial=0.0)
        size = np.abs(x).sum(axis=1).max(initial=0.0)
        return bool(gap <= tol * size)


@builtin()
def issymmetric(a: Any, *args: Any) -> bool:
    """tf = issymmetric(A)
    tf = issymmetric(A,skewOption)
    tf = issymmetric(A,tol)
    tf = issymmetric(A,skewOption,tol)

    True for a square matrix equal to its transpose (skewOption 'skew': to minus its
    transpose); with tol, norm(A-A.',inf)/norm(A,inf) <= tol (A+A.' for 'skew')."""
    if len(args) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    return _symmetry(a, args, "issymmetric", conjugate=False)


@builtin()
def ishermitian(a: Any, *args: Any) -> bool:
    """tf = ishermitian(A)
    tf = ishermitian(A,skewOption)
    tf = ishermitian(A,tol)
    tf = ishermitian(A,skewOption,tol)

    True for a square matrix equal to its complex conjugate transpose (skewOption 'skew':
    to minus it); with tol, norm(A-A',inf)/norm(A,inf) <= tol (A+A' for 'skew')."""
    if len(args) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    return _symmetry(a, args, "ishermitian", conjugate=True)


def _bandwidths(x: np.ndarray) -> tuple[int, int]:
    rows, cols = np.nonzero(x)
    if rows.size == 0:
        return 0, 0
    return max(int((rows - cols).max()), 0), max(int((cols - rows).max()), 0)


@builtin(nargout=True, max_out=2)
def bandwidth(a: Any, kind: Any = None, *, nargout: int = 1) -> object:
    """[lower,upper] = bandwidth(A)
    B = bandwidth(A,type)

    Lower and upper bandwidth of a matrix: the largest distance below and above the main
    diagonal of a nonzero element; type is 'lower' or 'upper'."""
    x = _structure_matrix(a, "bandwidth")
    if x.ndim != 2:
        raise error("MATLAB:bandwidth:inputMustBe2D", "Input must be 2-D.")
    lower, upper = _bandwidths(x)
    if kind is not None:
        word = text_option(kind)
        if word not in ("lower", "upper"):
            raise error("MATLAB:bandwidth:invalidType",
                        "Second input must be 'lower' or 'upper'.")
        return float(lower if word == "lower" else upper)
    return (float(lower), float(upper)) if nargout >= 2 else float(lower)


@builtin()
def isbanded(a: Any, lower: Any, upper: Any) -> bool:
    """tf = isbanded(A,lower,upper)

    True when every nonzero element of matrix A lies within lower diagonals below and upper
    diagonals above the main diagonal."""
    limits = []
    for v in (lower, upper):
        value = to_double_array(v) if class_of(v) in ("double", "single", *INT_CLASSES) \
            else np.zeros(0)
        if value.size != 1 or value.dtype.kind == "c" \
                or not 0 <= value.reshape(-1)[0] < math.inf \
                or value.reshape(-1)[0] != math.floor(value.reshape(-1)[0]):
            raise error("MATLAB:isbanded:InvalidBandwidth",
                        "Bandwidths must be nonnegative integer scalars.")
        limits.append(float(value.reshape(-1)[0]))
    x = _structure_matrix(a, "isbanded")
    if x.ndim != 2:
        return False
    low, up = _bandwidths(x)
    return low <= limits[0] and up <= limits[1]
