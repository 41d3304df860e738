"""Linear algebra, polynomials and interpolation.

kron, diag, trace, det, inv, norm, cross, dot, conv, deconv, polyfit,
polyval, roots and interp1.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.rules_support import replace, select, sign, top_singular_outer
from mlang.builtins.arrays import (
    checked_shape,
    dim_argument,
    first_nonsingleton,
    integer_scalar,
    padded,
    text_option,
)
from mlang.builtins.reductions import extreme_positions
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
from mlang.values.operators import result_class, to_class
from mlang.values.struct import Struct

_FLOAT_CLASSES = ("double", "single")


def _floats(x: object, name: str) -> np.ndarray:
    """A numeric argument as float64/complex128 (logical and char allowed)."""
    cls = class_of(x)
    if cls not in ("double", "single", "logical", "char", *INT_CLASSES):
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{name}' for input arguments of type '{cls}'.")
    return to_double_array(x)


def _float_result(values: np.ndarray, *inputs: object) -> object:
    """A floating-point result: single when any input is single, double otherwise."""
    if any(class_of(v) == "single" for v in inputs):
        return result(values.astype(np.complex64 if values.dtype.kind == "c" else np.float32))
    return result(values)


def _is_vector(a: np.ndarray) -> bool:
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
    cls = result_class(a, b, "kron")
    x, y = _floats(a, "kron"), _floats(b, "kron")
    if x.ndim > 2 or y.ndim > 2:
        raise error("MATLAB:kron:NDArray", "Inputs must be 2-D.")
    out = np.kron(x, y)
    if cls in INT_CLASSES:
        return result(to_class(out, cls))
    return _float_result(out, a, b)


@builtin()
def diag(v: Any, k: Any = 0.0) -> object:
    """D = diag(v)
    D = diag(v,k)
    x = diag(A)
    x = diag(A,k)

    Square matrix with v on its k-th diagonal, or the k-th diagonal of A as a column."""
    offset = integer_scalar(k, "K-th diagonal input must be an integer scalar.",
                            "MATLAB:diag:kthDiagInputNotInteger")
    a = to_array(v)
    if a.ndim != 2:
        raise error("MATLAB:diag:firstInputNotVectorOrMatrix", "First input must be 2-D.")
    if a.shape == (0, 0):
        return a
    if _is_vector(a):
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
    return _float_result(np.array([[_floats(a, "trace").diagonal().sum()]]), a)


@builtin()
def det(a: Any) -> object:
    """d = det(A)

    Determinant of a square matrix."""
    x = _floats(a, "det")
    _square(x)
    if x.size == 0:
        return 1.0
    return _float_result(np.array([[np.linalg.det(x)]]), a)


@builtin()
def inv(a: Any) -> object:
    """Y = inv(X)

    Matrix inverse (warns when X is singular or badly conditioned)."""
    if class_of(a) in INT_CLASSES:
        raise error("MATLAB:inv:integerNotSupported",
                    "Invalid data type. Input matrix must be double or single.")
    x = _floats(a, "inv")
    _square(x)
    if x.size == 0:
        return _float_result(np.zeros(x.shape), a)
    try:
        out = np.linalg.inv(x)
    except np.linalg.LinAlgError:
        warn("MATLAB:singularMatrix", "Matrix is singular to working precision.")
        return _float_result(np.full(x.shape, np.inf), a)
    with np.errstate(all="ignore"):
        rcond = 1.0 / (np.linalg.norm(x, 1) * np.linalg.norm(out, 1))
    eps = np.finfo(np.float32 if class_of(a) == "single" else np.float64).eps
    if not np.isfinite(out).all() or rcond == 0:
        warn("MATLAB:singularMatrix", "Matrix is singular to working precision.")
    elif rcond < eps:
        warn("MATLAB:nearlySingularMatrix",
             "Matrix is close to singular or badly scaled. Results may be inaccurate. "
             f"RCOND = {rcond: e}.")
    return _float_result(out, a)


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
        if _is_vector(data) or order == "fro":
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
    a = _floats(x, "norm")
    if a.ndim > 2:
        raise error("MATLAB:norm:inputMustBe2D", "Input must be 2-D.")
    order = _norm_order(p)
    if a.size == 0:
        return _float_result(np.array([[0.0]]), x)
    if _is_vector(a):
        return _float_result(np.array([[_vector_norm(a.reshape(-1), order)]]), x)
    if order == "fro":
        value = float(np.sqrt((np.abs(a) ** 2).sum()))
    elif order == 2.0 and not np.all(np.isfinite(a)):
        value = math.nan  # the SVD cannot run on NaN/Inf; MATLAB's 2-norm is NaN then
    elif order in (1.0, 2.0, math.inf):
        value = float(np.linalg.norm(a, ord=order))
    else:
        raise error("MATLAB:norm:unknownNorm",
                    "The only matrix norms available are 1, 2, inf, and 'fro'.")
    return _float_result(np.array([[value]]), x)


def _vector_norm(v: np.ndarray, order: float | str) -> float:
    mags = np.abs(v)
    if order == "fro" or order == 2.0:
        scale = mags.max()
        if scale == 0 or not np.isfinite(scale):
            return float(np.sqrt((mags ** 2).sum()))
        return float(scale * np.sqrt(((mags / scale) ** 2).sum()))  # no overflow for huge values
    if order == math.inf:
        return float(mags.max())
    if order == -math.inf:
        return float(mags.min())
    if order == 1.0:
        return float(mags.sum())
    if order == 0:
        return math.inf if np.any(mags) else 0.0
    with np.errstate(all="ignore"):
        return float((mags ** order).sum() ** (1.0 / order))


@builtin()
def cross(a: Any, b: Any, dim: Any = None) -> object:
    """C = cross(A,B)
    C = cross(A,B,dim)

    Cross product of 3-element vectors (or along the first dimension of length 3)."""
    x, y = _floats(a, "cross"), _floats(b, "cross")
    if dim is None and _is_vector(x) and _is_vector(y) and x.size == 3 and y.size == 3:
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
    return _float_result(values, a, b)


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
    x, y = _floats(a, "dot"), _floats(b, "dot")
    if dim is None and _is_vector(x) and _is_vector(y):
        if x.size != y.size:
            raise error("MATLAB:dot:InputSizeMismatch", "A and B must be same size.")
        return _float_result(np.array([[np.sum(np.conj(x.reshape(-1)) * y.reshape(-1))]]), a, b)
    if x.shape != y.shape:
        raise error("MATLAB:dot:InputSizeMismatch", "A and B must be same size.")
    axis = first_nonsingleton(x.shape) if dim is None else dim_argument(dim)
    product = padded(np.conj(x) * y, axis + 1)
    out = product.sum(axis=axis, keepdims=True)
    return _float_result(out.reshape(fix_shape(out.shape)), a, b)


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
        elif order == 2.0:
            # scaled by the largest magnitude so that huge values do not overflow
            scale = mags.max(axis=-1, keepdims=True)
            safe = np.where((scale == 0) | ~np.isfinite(scale), 1, scale)
            out = (safe * np.sqrt(((mags / safe) ** 2).sum(axis=-1, keepdims=True)))[..., 0]
            out = np.where(np.isnan(mags).any(axis=-1), np.nan, out)
        else:
            out = (mags ** order).sum(axis=-1) ** (1.0 / order)
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
    xa, xb = _floats(a, "pagemtimes"), _floats(b, "pagemtimes")
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
    return _float_result(out.reshape(fix_shape(out.shape)), a, b)


# -------------------------------------------------------------- polynomials


def _vector(x: object, name: str, message: str, identifier: str) -> np.ndarray:
    a = _floats(x, name)
    if not (_is_vector(a) or a.size == 0 and a.ndim == 2):
        raise error(identifier, message)
    return a


@builtin()
def conv(u: Any, v: Any, shape: Any = None) -> object:
    """w = conv(u,v)
    w = conv(u,v,shape)

    Convolution of two vectors (polynomial multiplication); shape is 'full'
    (default), 'same' or 'valid'."""
    message = "A and B must be vectors."
    x = _vector(u, "conv", message, "MATLAB:conv:AorBNotVector")
    y = _vector(v, "conv", message, "MATLAB:conv:AorBNotVector")
    mode = "full" if shape is None else text_option(shape)
    if mode not in ("full", "same", "valid"):
        raise error("MATLAB:conv:unknownShapeParameter", "Shape must be 'full', 'same', or 'valid'.")
    p, q = x.reshape(-1), y.reshape(-1)
    full = np.convolve(p, q) if p.size and q.size else np.zeros(0)
    if mode == "full":
        values = full
        longer = x if x.size > y.size else y  # the output follows the longer input
        column = longer.shape[1] == 1 and longer.shape[0] != 1
    elif mode == "same":
        start = q.size // 2  # the central part, as long as u
        values = full[start: start + p.size] if full.size else np.zeros(p.size)
        column = x.shape[1] == 1 and x.shape[0] != 1
    else:
        count = max(p.size - q.size + 1, 0) if q.size else 0
        values = full[q.size - 1: q.size - 1 + count] if count else np.zeros(0)
        column = x.shape[1] == 1 and x.shape[0] != 1
    out = values.reshape(-1, 1) if column else values.reshape(1, -1)
    return _float_result(out, u, v)


@builtin(max_out=2, nargout=True)
def deconv(y: Any, a: Any, *, nargout: int = 1) -> object:
    """[q,r] = deconv(y,a)

    Polynomial division (deconvolution): y = conv(a,q) + r."""
    message = "A and B must be vectors."
    num = _vector(y, "deconv", message, "MATLAB:deconv:NotVector")
    den = _vector(a, "deconv", message, "MATLAB:deconv:NotVector")
    p, d = num.reshape(-1), den.reshape(-1)
    if d.size == 0 or d[0] == 0:
        raise error("MATLAB:deconv:ZeroCoef1", "First coefficient of A must be non-zero.")
    column = num.shape[1] == 1 and num.shape[0] != 1
    if d.size > p.size:
        q = np.zeros(1)
        r = p.copy()
    else:
        q = np.zeros(p.size - d.size + 1, dtype=np.result_type(p, d))
        rest = p.astype(q.dtype).copy()
        for k in range(q.size):
            q[k] = rest[k] / d[0]
            rest[k: k + d.size] -= q[k] * d
        r = p - np.convolve(d, q)
    qo = q.reshape(-1, 1) if column else q.reshape(1, -1)
    if nargout <= 1:
        return _float_result(qo, y, a)
    return _float_result(qo, y, a), _float_result(r.reshape(num.shape), y, a)


@builtin(max_out=3, nargout=True)
def polyfit(x: Any, y: Any, n: Any, *, nargout: int = 1) -> object:
    """p = polyfit(x,y,n)
    [p,S] = polyfit(x,y,n)
    [p,S,mu] = polyfit(x,y,n)

    Least-squares polynomial fit of degree n (coefficients in descending powers).
    With mu, x is centred and scaled: (x - mu(1)) / mu(2)."""
    xs, ys = _floats(x, "polyfit").reshape(-1, order="F"), _floats(y, "polyfit").reshape(-1, order="F")
    if xs.size != ys.size:
        raise error("MATLAB:polyfit:XYSizeMismatch",
                    "The first two inputs must have the same number of elements.")
    degree = integer_scalar(n, "N must be a nonnegative integer scalar.", "MATLAB:polyfit:invalidN")
    if degree < 0:
        raise error("MATLAB:polyfit:invalidN", "N must be a nonnegative integer scalar.")
    checked_shape((xs.size, degree + 1))
    mu = None
    if nargout >= 3:
        centre = xs.mean()
        spread = xs.std(ddof=1) if xs.size > 1 else 0.0
        mu = (centre, spread)
        xs = (xs - centre) / spread
    vander = np.vander(xs, degree + 1)
    q, r = np.linalg.qr(vander)
    with np.errstate(all="ignore"):
        try:
            coeffs = np.linalg.lstsq(r, q.conj().T @ ys, rcond=None)[0] if xs.size <= degree else \
                np.linalg.solve(r, q.conj().T @ ys)
        except np.linalg.LinAlgError:  # NaN/Inf data: MATLAB's fit is all NaN
            coeffs = np.full(degree + 1, np.nan)
    if xs.size <= degree:
        warn("MATLAB:polyfit:PolyNotUnique",
             "Polynomial is not unique; degree >= number of data points.")
    p = _float_result(coeffs.reshape(1, -1), x, y)
    if nargout <= 1:
        return p
    residual = ys - vander @ coeffs
    s = Struct.scalar({
        "R": result(r),
        "df": float(max(0, ys.size - (degree + 1))),
        "normr": float(np.linalg.norm(residual)),
    })
    if nargout == 2:
        return p, s
    return p, s, result(np.array([[mu[0]], [mu[1]]]))  # type: ignore[index]


@builtin()
def polyval(p: Any, x: Any, s: Any = None, mu: Any = None) -> object:
    """y = polyval(p,x)
    y = polyval(p,x,[],mu)

    Evaluate the polynomial p (descending powers) at each element of x."""
    coeffs = _floats(p, "polyval")
    if not (_is_vector(coeffs) or coeffs.size == 0):
        raise error("MATLAB:polyval:InvalidP", "Input argument P must be a vector.")
    points = _floats(x, "polyval")
    if mu is not None:
        m = to_double_array(mu).reshape(-1)
        if m.size < 2:
            raise error("MATLAB:polyval:InvalidMu", "MU must be a two-element vector.")
        points = (points - m[0]) / m[1]
    out = np.zeros(points.shape, dtype=np.result_type(coeffs, points))
    for c in coeffs.reshape(-1):
        out = out * points + c
    return _float_result(out, p, x)


@builtin()
def roots(c: Any) -> object:
    """r = roots(p)

    Roots of the polynomial p (descending powers) as a column vector."""
    coeffs = _floats(c, "roots")
    if not (_is_vector(coeffs) or coeffs.size == 0):
        raise error("MATLAB:roots:NonVectorInput", "Input must be a vector.")
    values = coeffs.reshape(-1)
    if not np.all(np.isfinite(values)):
        raise error("MATLAB:roots:NonFiniteInput", "Input to ROOTS must not contain NaN or Inf.")
    nonzero = np.flatnonzero(values)
    if nonzero.size == 0:
        return np.zeros((0, 1))
    trailing = values.size - 1 - nonzero[-1]
    values = values[nonzero[0]: nonzero[-1] + 1]
    n = values.size
    found = np.zeros(0)
    if n > 1:
        companion = np.diag(np.ones(n - 2), -1).astype(values.dtype)
        companion[0, :] = -values[1:] / values[0]
        found = np.linalg.eigvals(companion)
    out = np.concatenate([found, np.zeros(trailing)]).reshape(-1, 1)
    return _float_result(out, c)


# ------------------------------------------------------------ interpolation

_METHODS = ("linear", "nearest", "next", "previous", "pchip", "cubic", "spline", "makima")


@builtin()
def interp1(*args: Any) -> object:
    """vq = interp1(x,v,xq)
    vq = interp1(x,v,xq,method)
    vq = interp1(x,v,xq,method,extrapolation)
    vq = interp1(v,xq)
    vq = interp1(v,xq,method)

    1-D interpolation: 'linear' (default), 'nearest', 'next', 'previous',
    'pchip', 'spline' or 'makima'. Points outside x give NaN unless
    'extrap' or an extrapolation value is given (pchip/spline/makima
    extrapolate by default)."""
    values = list(args)
    texts = [k for k, v in enumerate(values) if text_option(v) is not None]
    numeric = values[: texts[0]] if texts else values
    rest = values[len(numeric):]
    if len(numeric) == 2:
        v, xq = numeric
        vv = _floats(v, "interp1")
        n = vv.shape[0] if not _is_vector(vv) else vv.size
        x = np.arange(1, n + 1, dtype=np.float64)
    elif len(numeric) in (3, 4) and (len(numeric) == 3 or not rest):
        x = _floats(numeric[0], "interp1").reshape(-1)
        v, xq = numeric[1], numeric[2]
        if len(numeric) == 4:
            rest = [None, numeric[3]]
    else:
        raise error("MATLAB:interp1:nargin", "Invalid number of input arguments.")
    method = "linear"
    extrap: Any = None
    if rest:
        if rest[0] is not None:
            method = text_option(rest[0]) or ""
            if method.startswith("*"):
                method = method[1:]
            if method not in _METHODS:
                raise error("MATLAB:interp1:InvalidMethod", "Invalid interpolation method.")
        if len(rest) > 1:
            extrap = rest[1]
    return _interp1(x, v, xq, method, extrap, args)


def _interp1(x: np.ndarray, v: object, xq: object, method: str, extrap: Any, inputs: tuple) -> object:
    vv = _floats(v, "interp1")
    vector_v = _is_vector(vv)
    table = (vv.reshape(-1, 1) if vector_v
             else vv.reshape(vv.shape[0], math.prod(vv.shape[1:]), order="F"))
    if table.shape[0] != x.size:
        raise error("MATLAB:interp1:YInvalidNumRows",
                    "The grid vectors do not define a grid of points that match the given values.")
    if x.size < 2:
        raise error("MATLAB:interp1:NotEnoughPts",
                    "Interpolation requires at least two sample points for each grid dimension.")
    order = np.argsort(x, kind="stable")
    x, table = x[order], table[order]
    if np.any(np.diff(x) == 0):
        raise error("MATLAB:interp1:RepeatedValuesX", "The grid vectors must contain unique points.")
    query = _floats(xq, "interp1")
    points = query.reshape(-1, order="F").real
    out = _interpolate(x, table, points, method)
    extrapolate = method in ("pchip", "cubic", "spline", "makima")
    fill = np.nan
    if extrap is not None:
        option = text_option(extrap)
        if option is not None and option != "extrap":
            raise error("MATLAB:interp1:InvalidExtrap", "Invalid extrapolation option.")
        extrapolate = option == "extrap"
        if option is None:
            fill = to_double_array(extrap).reshape(-1)[0]
    if extrapolate and method == "linear":
        out = _linear(x, table, points, extrapolate=True)
    elif not extrapolate:
        out[(points < x[0]) | (points > x[-1])] = fill
    if vector_v:
        shaped = out.reshape(query.shape, order="F")
    else:
        lead = (points.size,) if _is_vector(query) else query.shape
        shaped = out.reshape(lead + vv.shape[1:], order="F")
    return _float_result(shaped.reshape(fix_shape(shaped.shape)), *inputs)


def _interpolate(x: np.ndarray, table: np.ndarray, points: np.ndarray, method: str) -> np.ndarray:
    if method == "linear":
        return _linear(x, table, points, extrapolate=False)
    if method in ("nearest", "next", "previous"):
        return _stepwise(x, table, points, method)
    if method in ("pchip", "cubic"):
        out = _hermite(x, table, _pchip_slopes(x, table), points)
    elif method == "spline" and x.size <= _DENSE_SPLINE_LIMIT:
        out = _spline(x, table, points)
    else:
        from scipy import interpolate  # only for makima and very long splines

        if method == "makima":
            fn = interpolate.Akima1DInterpolator(x, table, axis=0, method="makima", extrapolate=True)
        else:
            fn = interpolate.CubicSpline(x, table, axis=0, bc_type="not-a-knot", extrapolate=True)
        out = np.asarray(fn(points), dtype=table.dtype)
    out[np.isnan(points)] = np.nan
    return out


_DENSE_SPLINE_LIMIT = 400


def _interval(x: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Index of the interval of each point (end intervals extend outwards)."""
    return np.clip(np.searchsorted(x, points, side="right") - 1, 0, x.size - 2)


def _hermite(x: np.ndarray, y: np.ndarray, slopes: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Evaluate the piecewise cubic Hermite interpolant with the given end slopes."""
    k = _interval(x, np.nan_to_num(points))
    h = np.diff(x)[k][:, None]
    delta = ((y[1:] - y[:-1]) / np.diff(x)[:, None])[k]
    d0, d1 = slopes[k], slopes[k + 1]
    c = (3 * delta - 2 * d0 - d1) / h
    b = (d0 - 2 * delta + d1) / h ** 2
    t = (points - x[k])[:, None]
    return y[k] + t * (d0 + t * (c + t * b))


def _pchip_slopes(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Shape-preserving slopes (Fritsch-Carlson): zero at local extrema, a weighted
    harmonic mean of the neighbouring secants elsewhere, one-sided at the ends."""
    h = np.diff(x)[:, None]
    delta = (y[1:] - y[:-1]) / h
    slopes = np.zeros(y.shape, dtype=np.float64)
    if x.size == 2:
        slopes[:] = delta[0]
        return slopes
    w1 = 2 * h[1:] + h[:-1]
    w2 = h[1:] + 2 * h[:-1]
    same_sign = np.sign(delta[:-1]) * np.sign(delta[1:]) > 0
    with np.errstate(all="ignore"):
        mean = (w1 + w2) / (w1 / delta[:-1] + w2 / delta[1:])
    slopes[1:-1] = np.where(same_sign, mean, 0.0)
    slopes[0] = _pchip_end(h[0], h[1], delta[0], delta[1])
    slopes[-1] = _pchip_end(h[-1], h[-2], delta[-1], delta[-2])
    return slopes


def _pchip_end(h0: np.ndarray, h1: np.ndarray, d0: np.ndarray, d1: np.ndarray) -> np.ndarray:
    slope = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1)
    slope = np.where(np.sign(slope) != np.sign(d0), 0.0, slope)
    too_steep = (np.sign(d0) != np.sign(d1)) & (np.abs(slope) > np.abs(3 * d0))
    return np.where(too_steep, 3 * d0, slope)


def _spline(x: np.ndarray, y: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Cubic spline with not-a-knot ends (a parabola through three points, a line through two)."""
    n = x.size
    if n < 4:
        coeffs = [np.polyfit(x, y[:, j], n - 1) for j in range(y.shape[1])]
        return np.stack([np.polyval(c, points) for c in coeffs], axis=1)
    h = np.diff(x)
    delta = (y[1:] - y[:-1]) / h[:, None]
    system = np.zeros((n, n))
    rhs = np.zeros(y.shape)
    for i in range(1, n - 1):  # continuity of the first derivative
        system[i, i - 1: i + 2] = (h[i - 1], 2 * (h[i - 1] + h[i]), h[i])
        rhs[i] = 6 * (delta[i] - delta[i - 1])
    # not-a-knot: the third derivative is continuous at the second and last-but-one points
    system[0, :3] = (h[1], -(h[0] + h[1]), h[0])
    system[-1, -3:] = (h[-1], -(h[-2] + h[-1]), h[-2])
    second = np.linalg.solve(system, rhs)  # second derivatives at the knots
    k = _interval(x, np.nan_to_num(points))
    t = (points - x[k])[:, None]
    hk = h[k][:, None]
    m0, m1 = second[k], second[k + 1]
    slope = delta[k] - hk * (2 * m0 + m1) / 6
    return y[k] + t * (slope + t * (m0 / 2 + t * (m1 - m0) / (6 * hk)))


def _linear(x: np.ndarray, table: np.ndarray, points: np.ndarray, extrapolate: bool) -> np.ndarray:
    k = np.clip(np.searchsorted(x, points, side="right") - 1, 0, x.size - 2)
    x0, x1 = x[k], x[k + 1]
    with np.errstate(all="ignore"):
        t = ((points - x0) / (x1 - x0))[:, None]
        out = table[k] * (1 - t) + table[k + 1] * t
        exact = points == x1
        out[exact] = table[k + 1][exact]
    out[np.isnan(points)] = np.nan
    if not extrapolate:
        out[(points < x[0]) | (points > x[-1])] = np.nan
    return out


def _stepwise(x: np.ndarray, table: np.ndarray, points: np.ndarray, method: str) -> np.ndarray:
    out = np.full((points.size, table.shape[1]), np.nan, dtype=table.dtype)
    inside = (points >= x[0]) & (points <= x[-1])
    p = points[inside]
    if method == "nearest":
        k = np.clip(np.searchsorted(x, p, side="right") - 1, 0, x.size - 2)
        # halfway points go to the upper neighbour
        pick = np.where(p - x[k] >= x[k + 1] - p, k + 1, k)
    elif method == "previous":
        pick = np.searchsorted(x, p, side="right") - 1
    else:
        pick = np.searchsorted(x, p, side="left")
    out[inside] = table[pick]
    return out
