"""Structured and special matrices: triangular parts (tril, triu), block diagonal
matrices (blkdiag), Toeplitz and Hankel matrices, the test matrices pascal,
invhilb, rosser, wilkinson, compan and hadamard, and perms.

tril, triu, blkdiag, toeplitz and hankel keep the class of their input (the
concatenation class of several inputs); the test matrices are double unless a
class name ('double' or 'single') is given.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from mlang.builtins.coerce import checked_shape, integer_scalar, sizes_and_class
from mlang.builtins.data.shape import rewrap_shaped, shape_of
from mlang.errors import error, warn
from mlang.registry import builtin
from mlang.values.concat import concat_class
from mlang.values.core import DTYPE_OF_CLASS, class_of, result, to_array
from mlang.values.indexing import data_of
from mlang.values.limits import check_array_size
from mlang.values.operators import ARITHMETIC_CLASSES, as_class

# ------------------------------------------------------------- triangular parts


def _triangle(name: str, a: Any, k: Any, lower: bool) -> object:
    cls = class_of(a)
    if cls not in ARITHMETIC_CLASSES:
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{name}' for input arguments of type '{cls}'.")
    x = to_array(a)
    if x.ndim != 2:
        raise error(f"MATLAB:{name}:firstInputMustBe2D", "First input must be 2D.")
    diagonal = 0
    if k is not None:
        diagonal = integer_scalar(k, "K-th diagonal input must be an integer scalar.",
                                  f"MATLAB:{name}:kthDiagInputNotInteger")
    rows = np.arange(x.shape[0]).reshape(-1, 1)
    cols = np.arange(x.shape[1]).reshape(1, -1)
    keep = cols - rows <= diagonal if lower else cols - rows >= diagonal
    out = x.copy()
    out[~keep] = np.zeros(1, dtype=x.dtype)[0]  # zero of the class (char code 0 too)
    return result(out)


@builtin()
def tril(a: Any, k: Any = None) -> object:
    """L = tril(A)
    L = tril(A,k)

    Lower triangular part of a matrix: the elements on and below the k-th
    diagonal (k > 0 above the main diagonal, k < 0 below it); the rest are zero."""
    return _triangle("tril", a, k, lower=True)


@builtin()
def triu(a: Any, k: Any = None) -> object:
    """U = triu(A)
    U = triu(A,k)

    Upper triangular part of a matrix: the elements on and above the k-th
    diagonal (k > 0 above the main diagonal, k < 0 below it); the rest are zero."""
    return _triangle("triu", a, k, lower=False)


# ---------------------------------------------------------------- block diagonal


@builtin()
def blkdiag(*blocks: Any) -> object:
    """B = blkdiag(A1,...,AN)

    Block diagonal matrix with the matrices A1,...,AN on its diagonal; the
    class is that of concatenating the inputs."""
    if not blocks:
        return result(np.zeros((0, 0)))
    for v in blocks:
        if class_of(v) not in ARITHMETIC_CLASSES:
            raise error("MATLAB:UndefinedFunction",
                        f"Undefined function 'blkdiag' for input arguments of type '{class_of(v)}'.")
        if len(shape_of(v)) != 2:
            raise error("MATLAB:blkdiag:NDInput", "Inputs must be 2-D.")
    cls = concat_class(list(blocks))
    parts = [as_class(v, cls) for v in blocks]
    rows = sum(p.shape[0] for p in parts)
    cols = sum(p.shape[1] for p in parts)
    # the float classes keep any complex part; the others have one dtype
    dtype = np.result_type(*[p.dtype for p in parts]) if cls in ("double", "single") \
        else parts[0].dtype
    out = np.zeros((rows, cols), dtype=dtype)
    r = c = 0
    for p in parts:
        out[r:r + p.shape[0], c:c + p.shape[1]] = p
        r, c = r + p.shape[0], c + p.shape[1]
    return result(out)


# ------------------------------------------------------------ Toeplitz and Hankel


def _vector_pair(name: str, args: tuple) -> tuple[list[np.ndarray], str]:
    for v in args:
        if class_of(v) not in ARITHMETIC_CLASSES:
            raise error("MATLAB:UndefinedFunction",
                        f"Undefined function '{name}' for input arguments of type '{class_of(v)}'.")
    cls = concat_class(list(args))
    return [as_class(v, cls).reshape(-1, order="F") for v in args], cls


@builtin()
def toeplitz(c: Any, r: Any = None) -> object:
    """T = toeplitz(c,r)
    T = toeplitz(r)

    Toeplitz matrix with first column c and first row r (the column wins a
    conflict on the diagonal, with a warning). With one argument, the symmetric
    (Hermitian, for complex r) Toeplitz matrix whose first row is r."""
    from scipy import linalg  # SciPy on first use: keeps start-up fast

    if r is None:
        (row,), _ = _vector_pair("toeplitz", (c,))
        col = np.conj(row) if row.dtype.kind == "c" else row.copy()
        if col.size:
            col[0] = row[0]  # the diagonal keeps r(1) itself, complex or not
    else:
        (col, row), _ = _vector_pair("toeplitz", (c, r))
        if col.size and row.size and not _same_element(col[0], row[0]):
            warn("MATLAB:toeplitz:DiagonalConflict",
                 "First element of input column does not match first element of input row. "
                 "\n         Column wins diagonal conflict.")
    dtype = _common_dtype(col, row)
    if col.size == 0 or row.size == 0:
        return result(np.zeros((col.size, row.size), dtype=dtype))
    return result(linalg.toeplitz(col, row).astype(dtype, copy=False))


def _common_dtype(col: np.ndarray, row: np.ndarray) -> np.dtype:
    """One class for both vectors; a complex one keeps its imaginary parts."""
    return np.result_type(col, row) if col.dtype.kind in "fc" else col.dtype


def _same_element(x: Any, y: Any) -> bool:
    if isinstance(x, np.void):
        return bytes(x) == bytes(y)
    return bool(x == y) or (x != x and y != y)


@builtin()
def hankel(c: Any, r: Any = None) -> object:
    """H = hankel(c)
    H = hankel(c,r)

    Hankel matrix with first column c and last row r (the column wins a conflict
    on the anti-diagonal, with a warning); with one argument, the elements below
    the first anti-diagonal are zero."""
    from scipy import linalg  # SciPy on first use: keeps start-up fast

    if r is None:
        (col,), _ = _vector_pair("hankel", (c,))
        row = np.zeros(col.size, dtype=col.dtype)
    else:
        (col, row), _ = _vector_pair("hankel", (c, r))
        if col.size and row.size and not _same_element(col[-1], row[0]):
            warn("MATLAB:hankel:AntiDiagonalConflict",
                 "Last element of input column does not match first element of input row. "
                 "\n         Column wins anti-diagonal conflict.")
    dtype = _common_dtype(col, row)
    if col.size == 0 or row.size == 0:
        return result(np.zeros((col.size, row.size), dtype=dtype))
    return result(linalg.hankel(col, row).astype(dtype, copy=False))


# ------------------------------------------------------------------ test matrices

_FLOATS = ("double", "single")


def _order_and_class(name: str, args: tuple) -> tuple[list, str]:
    """The numeric arguments of a test matrix and its class ('double' or 'single')."""
    rest, cls = sizes_and_class(args, _FLOATS)
    return rest, cls


def _order(name: str, v: Any, cls: str) -> int:
    """The order n of an n-by-n test matrix of class ``cls``, refused if too large to make."""
    n = integer_scalar(v, "N must be a nonnegative integer scalar.", f"MATLAB:{name}:InvalidN")
    if n < 0:
        raise error(f"MATLAB:{name}:InvalidN", "N must be a nonnegative integer scalar.")
    checked_shape((n, n), cls)
    return n


def _as(values: np.ndarray, cls: str) -> object:
    return result(values.astype(DTYPE_OF_CLASS[cls]))


@builtin()
def pascal(*args: Any) -> object:
    """P = pascal(n)
    P = pascal(n,1)
    P = pascal(n,2)
    P = pascal(___,classname)

    Pascal matrix: symmetric positive definite with P(i,j) = nchoosek(i+j-2,j-1);
    pascal(n,1) is its lower triangular Cholesky factor up to column signs
    (involutory), pascal(n,2) a transposed and permuted version (a cube root of
    the identity)."""
    rest, cls = _order_and_class("pascal", args)
    if not 1 <= len(rest) <= 2:
        raise error("MATLAB:minrhs" if not rest else "MATLAB:TooManyInputs",
                    "Not enough input arguments." if not rest else "Too many input arguments.")
    n = _order("pascal", rest[0], cls)
    kind = 0
    if len(rest) == 2:
        kind = integer_scalar(rest[1], "K must be 0, 1 or 2.", "MATLAB:pascal:InvalidK")
        if kind not in (0, 1, 2):
            raise error("MATLAB:pascal:InvalidK", "K must be 0, 1 or 2.")
    if n == 0:
        return _as(np.zeros((0, 0)), cls)
    # one row from the one before (Pascal's rule), as NumPy operations on rows
    p = np.zeros((n, n))
    p[0, 0] = 1.0
    if kind == 0:  # P(i,j) = nchoosek(i+j-2,j-1): each row is the running sum of the one above
        p[0] = 1.0
        for i in range(1, n):
            p[i] = np.cumsum(p[i - 1])
        return _as(p, cls)
    # the Cholesky factor up to signs: P(i,j) = (-1)^(j-1) nchoosek(i-1,j-1)
    for i in range(1, n):
        p[i, 0] = 1.0
        p[i, 1:i + 1] = p[i - 1, 1:i + 1] + p[i - 1, :i]
    p *= np.where(np.arange(n) % 2, -1.0, 1.0)
    if kind == 2:
        p = np.rot90(p, 3)
        if n % 2 == 0:
            p = -p
    return _as(p + 0.0, cls)


@builtin()
def invhilb(n: Any, *classname: Any) -> object:
    """H = invhilb(n)
    H = invhilb(n,classname)

    Exact inverse of the Hilbert matrix of order n (exact in double for n < 15;
    beyond, the entries are rounded and overflow for large n)."""
    _, cls = _order_and_class("invhilb", classname)
    size = _order("invhilb", n, cls)
    h = np.zeros((size, size))
    # MATLAB's recurrence in doubles, one column at a time over the rows above the
    # diagonal: each row i runs r = p(i)^2, then r = -((n-j+1)*r*(n+j-1))/(j-1)^2
    p = np.empty(size)
    if size:
        p[0] = size
    for i in range(1, size):
        p[i] = ((size - i) * p[i - 1] * (size + i)) / (i * i)
    with np.errstate(all="ignore"):
        r = p * p
        index = np.arange(1, size + 1)
        h[index - 1, index - 1] = r / (2 * index - 1)
        for j in range(2, size + 1):
            above = slice(0, j - 1)
            r[above] = -((size - j + 1) * r[above] * (size + j - 1)) / ((j - 1) ** 2)
            h[above, j - 1] = h[j - 1, above] = r[above] / (index[above] + j - 1)
    return _as(h, cls)


_ROSSER = [[611, 196, -192, 407, -8, -52, -49, 29],
           [196, 899, 113, -192, -71, -43, -8, -44],
           [-192, 113, 899, 196, 61, 49, 8, 52],
           [407, -192, 196, 611, 8, 44, 59, -23],
           [-8, -71, 61, 8, 411, -599, 208, 208],
           [-52, -43, 49, 44, -599, 411, 208, 208],
           [-49, -8, 8, 59, 208, 208, 99, -911],
           [29, -44, 52, -23, 208, 208, -911, 99]]


@builtin()
def rosser(*classname: Any) -> object:
    """R = rosser
    R = rosser(classname)

    Rosser's 8-by-8 symmetric test matrix for eigenvalue solvers: a double
    eigenvalue, three nearly equal ones, dominant ones of opposite sign, a zero
    and a small nonzero one."""
    _, cls = _order_and_class("rosser", classname)
    if _:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    return _as(np.array(_ROSSER, dtype=np.float64), cls)


@builtin()
def wilkinson(n: Any, *classname: Any) -> object:
    """W = wilkinson(n)
    W = wilkinson(n,classname)

    Wilkinson's eigenvalue test matrix: symmetric tridiagonal with ones beside
    the diagonal and abs(-m:m), m = (n-1)/2, on it; its eigenvalues come in
    nearly equal pairs."""
    _, cls = _order_and_class("wilkinson", classname)
    size = _order("wilkinson", n, cls)
    m = (size - 1) / 2
    w = np.diag(np.abs(np.arange(size) - m)) + np.diag(np.ones(max(size - 1, 0)), 1) \
        + np.diag(np.ones(max(size - 1, 0)), -1)
    return _as(w.reshape(size, size), cls)


@builtin()
def compan(u: Any) -> object:
    """A = compan(u)

    Companion matrix of the polynomial with coefficients u: its first row is
    -u(2:n)/u(1), ones lie below the diagonal, and its eigenvalues are the roots
    of the polynomial."""
    cls = class_of(u)
    if cls not in ("double", "single"):
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function 'compan' for input arguments of type '{cls}'.")
    x = to_array(u)
    if x.ndim != 2 or min(x.shape) > 1 or x.size == 0 and x.shape != (1, 0) and x.shape != (0, 1):
        raise error("MATLAB:compan:NeedVectorInput", "Input argument must be a vector.")
    c = x.reshape(-1)
    n = c.size
    if n <= 1:
        return result(np.zeros((0, 0), dtype=x.dtype))
    a = np.zeros((n - 1, n - 1), dtype=x.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        a[0] = -c[1:] / c[0]
    a[np.arange(1, n - 1), np.arange(n - 2)] = 1
    return result(a)


# the first columns/rows of the 12- and 20-order cores (Paley's constructions)
_H12 = ([-1, -1, 1, -1, -1, -1, 1, 1, 1, -1, 1], [-1, 1, -1, 1, 1, 1, -1, -1, -1, 1, -1])
_H20 = ([-1, -1, 1, 1, -1, -1, -1, -1, 1, -1, 1, -1, 1, 1, 1, 1, -1, -1, 1],
        [1, -1, -1, 1, 1, -1, -1, -1, -1, 1, -1, 1, -1, 1, 1, 1, 1, -1, -1])


_HADAMARD_ORDER = "n must be an integer and n, n/12 or n/20 must be a power of 2."


@builtin()
def hadamard(n: Any, *classname: Any) -> object:
    """H = hadamard(n)
    H = hadamard(n,classname)

    Hadamard matrix of order n (n, n/12 or n/20 a power of 2): entries 1 and -1
    with mutually orthogonal columns, H'*H = n*eye(n)."""
    from scipy import linalg  # SciPy on first use: keeps start-up fast

    _, cls = _order_and_class("hadamard", classname)
    size = integer_scalar(n, _HADAMARD_ORDER, "MATLAB:hadamard:InvalidInput")
    checked_shape((max(size, 0), max(size, 0)), cls)
    base = next((b for b in (1, 12, 20) if size % b == 0 and size // b >= 1
                 and (size // b) & (size // b - 1) == 0), None)
    if base is None:
        raise error("MATLAB:hadamard:InvalidInput", _HADAMARD_ORDER)
    if base == 1:
        h = np.ones((1, 1))
    else:
        col, row = _H12 if base == 12 else _H20
        core = linalg.toeplitz(col, row) if base == 12 else linalg.hankel(col, row)
        h = np.block([[np.ones((1, base))], [np.ones((base - 1, 1)), core]])
    for _ in range((size // base).bit_length() - 1):
        h = np.block([[h, h], [h, -h]])
    return _as(h.astype(np.float64), cls)


# ------------------------------------------------------------------ permutations


@builtin()
def perms(v: Any) -> object:
    """P = perms(v)

    All permutations of the elements of v, one per row, in reverse
    lexicographic order of their positions in v (n! rows); the class of v is
    kept (numbers, logical, char, cell and string arrays)."""
    data = data_of(v)
    flat = data.reshape(-1, order="F")
    n = flat.size
    check_array_size((math.factorial(n), n), flat.dtype)
    if n == 0:
        return rewrap_shaped(v, flat.reshape(1, 0))
    # permutations of the reversed positions come out in lexicographic order of
    # that sequence, which is reverse lexicographic order of the positions
    index = np.array(list(itertools.permutations(range(n - 1, -1, -1))), dtype=np.intp)
    return rewrap_shaped(v, flat[index])
