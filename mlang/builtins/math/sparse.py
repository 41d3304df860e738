"""Sparse matrices: sparse, full, issparse, nonzeros, nzmax, spones, speye, spalloc,
sprand, sprandn and spdiags, with the sparse forms of nnz, find, sum, double and
logical (``mlang.values.sparse_calls``).  The value class is ``mlang.values.sparse``."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import dim_argument, integer_scalar, text_option
from mlang.builtins.math.find import find_limit
from mlang.builtins.math.random import generator
from mlang.errors import error
from mlang.registry import BUILTINS, builtin
from mlang.values.core import class_of, result, size_of, to_array, to_str
from mlang.values.sparse import SparseMatrix, is_sparse, to_full, wrap
from mlang.values.sparse_calls import SPARSE_AWARE, SPARSE_FORMS

_MAX_SIZE = 2**48 - 1

# ------------------------------------------------------------------ helpers


def _coo(shape: tuple[int, int], rows: np.ndarray, cols: np.ndarray, values: np.ndarray,
         nzmax: int | None = None) -> SparseMatrix:
    """A sparse matrix from 0-based (row, column, value) triplets, duplicates summed
    (logical values: or-ed)."""
    # SciPy on first use: keeps start-up fast
    import scipy.sparse

    if values.dtype == np.bool_:
        # duplicates of a logical sparse matrix combine as "or": sum as numbers, then test
        summed = scipy.sparse.csc_matrix((values.astype(np.float64), (rows, cols)), shape=shape)
        summed.sum_duplicates()
        return wrap(summed != 0, nzmax)
    return wrap(scipy.sparse.csc_matrix((values, (rows, cols)), shape=shape), nzmax)


def _sparse_values(v: object, what: str = "Input matrix") -> np.ndarray:
    """The values of a double or logical argument (full or sparse) as a 2-D array."""
    if is_sparse(v):
        return v.matrix.toarray()  # type: ignore[attr-defined]
    cls = class_of(v)
    if cls not in ("double", "logical"):
        raise error("MATLAB:sparse:invalidType", f"{what} must be double or logical.")
    a = to_array(v)
    if a.ndim > 2:
        raise error("MATLAB:sparse:ndArray", "N-dimensional indexing is not supported for "
                    "sparse matrices.")
    return a


def _size_input(v: object) -> int:
    """One size argument of sparse, speye, spalloc...: a nonnegative integer scalar."""
    message = ("Sparse matrix sizes must be non-negative integers less than MAXSIZE as "
               "defined by COMPUTER. Use HELP COMPUTER for more details.")
    n = integer_scalar(v, message, "MATLAB:sparsfcn:invalidSize")
    if n < 0 or n > _MAX_SIZE:
        raise error("MATLAB:sparsfcn:invalidSize", message)
    return n


def _index_vector(v: object) -> np.ndarray:
    """The 0-based indices of an i or j argument of sparse(i,j,v)."""
    if is_sparse(v):
        v = v.full()  # type: ignore[attr-defined]
    cls = class_of(v)
    if cls not in ("double", "logical", "single", "int8", "uint8", "int16", "uint16",
                   "int32", "uint32", "int64", "uint64"):
        raise error("MATLAB:sparse:invalidIndexType", "Index into matrix must be numeric.")
    a = to_array(v).reshape(-1, order="F")
    if a.dtype.kind == "c":
        raise error("MATLAB:sparse:complexIndex", "Index into matrix must be real.")
    x = a.astype(np.float64)
    if x.size and (np.isnan(x).any() or (x != np.floor(x)).any()):
        raise error("MATLAB:sparse:nonIntegerIndex", "Index into matrix must be an integer.")
    if x.size and x.min() < 1:
        raise error("MATLAB:sparse:nonPosIndex", "Index into matrix must be positive.")
    if x.size and x.max() > _MAX_SIZE:  # the size it implies is beyond any sparse matrix
        _size_input(float(x.max()))
    return x.astype(np.int64) - 1


# ------------------------------------------------------------------- sparse


@builtin()
def sparse(*args: Any) -> object:
    """S = sparse(A)
    S = sparse(m,n)
    S = sparse(m,n,typename)
    S = sparse(i,j,v)
    S = sparse(i,j,v,m,n)
    S = sparse(i,j,v,m,n,nz)

    Sparse matrix: from a full matrix, all zero of size m-by-n, or from triplets with
    S(i(k),j(k)) = v(k) (values at a repeated place are added)."""
    n_args = len(args)
    if n_args == 0:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    if n_args == 1:
        a = args[0]
        if is_sparse(a):
            return a
        values = _sparse_values(a)
        return wrap(values)
    if n_args == 2 or (n_args == 3 and text_option(args[2]) is not None):
        m, n = _size_input(args[0]), _size_input(args[1])
        typename = "double" if n_args == 2 else text_option(args[2])
        if typename not in ("double", "logical"):
            raise error("MATLAB:sparse:invalidType",
                        "Type name must be 'double' or 'logical'.")
        return _coo((m, n), np.zeros(0, np.int64), np.zeros(0, np.int64),
                    np.zeros(0, dtype=bool if typename == "logical" else np.float64))
    if n_args == 4 or n_args > 6:
        raise error("MATLAB:maxrhs" if n_args > 6 else "MATLAB:minrhs",
                    "Too many input arguments." if n_args > 6 else "Not enough input arguments.")
    i = _index_vector(args[0])
    j = _index_vector(args[1])
    values = _sparse_values(args[2], "Values").reshape(-1, order="F")
    count = max(i.size, j.size, values.size)
    parts = []
    for part in (i, j, values):
        if part.size == 1 and count != 1:
            part = np.repeat(part, count)
        elif part.size != count:
            raise error("MATLAB:samelen", "Vectors must be the same length.")
        parts.append(part)
    i, j, values = parts
    if n_args >= 5:
        m, n = _size_input(args[3]), _size_input(args[4])
        if i.size and (i.max() >= m or j.max() >= n):
            raise error("MATLAB:sparse:indexExceedsDims", "Index exceeds array bounds.")
    else:
        m = int(i.max()) + 1 if i.size else 0
        n = int(j.max()) + 1 if j.size else 0
    nzmax = max(values.size, 1)
    if n_args == 6:
        nz = _size_input(args[5])
        nzmax = max(nz, 1)
    return _coo((m, n), i, j, values, nzmax)


@builtin()
def full(x: Any) -> object:
    """A = full(S)

    Full storage: the sparse matrix S as an ordinary array (a full argument is returned
    as it is)."""
    if is_sparse(x):
        return x.full()
    if class_of(x) in ("cell", "struct"):
        raise error("MATLAB:full:invalidType",
                    f"Undefined function 'full' for input arguments of type '{class_of(x)}'.")
    return x


@builtin(dl="data")
def issparse(x: Any) -> bool:
    """tf = issparse(S)

    True when S is stored as a sparse matrix."""
    return is_sparse(x)


@builtin()
def nonzeros(x: Any) -> object:
    """v = nonzeros(A)

    The nonzero elements of A as a column vector, in column-major order."""
    if is_sparse(x):
        mat = x.matrix  # canonical: stored in column-major order, no zeros
        return result(mat.data.reshape(-1, 1).copy())
    cls = class_of(x)
    if cls not in ("double", "single", "logical", "char", "int8", "uint8", "int16", "uint16",
                   "int32", "uint32", "int64", "uint64"):
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function 'nonzeros' for input arguments of type '{cls}'.")
    a = to_array(x).reshape(-1, order="F")
    if a.dtype.kind == "V":
        raise error("MATLAB:UndefinedFunction",
                    "Undefined function 'nonzeros' for input arguments of type 'char'.")
    return result(a[a != 0].reshape(-1, 1))


@builtin()
def nzmax(x: Any) -> float:
    """n = nzmax(S)

    Room allocated for nonzero elements: for a full matrix, its number of elements."""
    if is_sparse(x):
        return float(x.nzmax)
    if class_of(x) in ("cell", "struct"):
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function 'nzmax' for input arguments of type '{class_of(x)}'.")
    return float(math.prod(size_of(x)))


@builtin()
def spones(x: Any) -> SparseMatrix:
    """R = spones(S)

    Ones in place of the nonzero elements of S (a sparse matrix of the same pattern)."""
    if is_sparse(x):
        # SciPy on first use: keeps start-up fast
        import scipy.sparse

        mat = x.matrix
        return wrap(scipy.sparse.csc_matrix((np.ones(mat.nnz), mat.indices, mat.indptr),
                                            shape=mat.shape))
    a = _numeric_2d(x, "spones")
    return wrap((a != 0).astype(np.float64))


def _numeric_2d(x: object, name: str) -> np.ndarray:
    cls = class_of(x)
    if cls not in ("double", "logical"):
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{name}' for input arguments of type '{cls}'.")
    a = to_array(x)
    if a.ndim > 2:
        raise error("MATLAB:sparse:ndArray", "N-dimensional arrays are not supported.")
    return a


def _two_sizes(args: tuple) -> tuple[int, int]:
    """(m, n) from () -> 1×1, (n) -> n×n, ([m n]) or (m, n)."""
    if len(args) == 1 and not isinstance(args[0], float) and to_array(args[0]).size == 2:
        sizes = to_array(args[0]).reshape(-1)
        return _size_input(result(sizes[:1])), _size_input(result(sizes[1:]))
    if len(args) == 1:
        n = _size_input(args[0])
        return n, n
    if not args:
        return 1, 1
    return _size_input(args[0]), _size_input(args[1])


@builtin()
def speye(*args: Any) -> SparseMatrix:
    """S = speye(n)
    S = speye(m,n)
    S = speye(sz)

    Sparse identity matrix: ones on the main diagonal."""
    if len(args) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    m, n = _two_sizes(args)
    k = np.arange(min(m, n))
    return _coo((m, n), k, k, np.ones(k.size))


@builtin()
def spalloc(m: Any, n: Any, nz: Any) -> SparseMatrix:
    """S = spalloc(m,n,nz)

    All-zero m-by-n sparse matrix with room for nz nonzero elements."""
    shape = (_size_input(m), _size_input(n))
    room = _size_input(nz)
    return _coo(shape, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0), max(room, 1))


# ------------------------------------------------------------------ random


def _random_sparse(interp: Any, args: tuple, normal: bool, name: str) -> SparseMatrix:
    # SciPy on first use: keeps start-up fast
    from scipy.special import ndtri

    rng = generator(interp)

    def draw(count: int) -> np.ndarray:
        u = rng.random_sample(count)
        if not normal:
            return u
        u[u == 0.0] = 2.0 ** -54
        return ndtri(u)

    if len(args) == 1:
        s = args[0]
        if is_sparse(s):
            mat = s.matrix.astype(np.float64) if s.matrix.dtype.kind != "c" else s.matrix.real.copy()
        else:
            # SciPy on first use: keeps start-up fast
            import scipy.sparse

            mat = scipy.sparse.csc_matrix(_numeric_2d(s, name) != 0).astype(np.float64)
        mat.sort_indices()
        mat.data = draw(mat.nnz)
        return wrap(mat)
    if len(args) == 4:
        raise error("MATLAB:sprand:rcNotSupported",
                    "The reciprocal condition number form of this function is not supported.")
    if len(args) != 3:
        raise error("MATLAB:minrhs" if len(args) < 3 else "MATLAB:TooManyInputs",
                    "Not enough input arguments." if len(args) < 3 else "Too many input arguments.")
    m, n = _size_input(args[0]), _size_input(args[1])
    density_values = to_array(args[2]) if class_of(args[2]) in ("double", "logical") else None
    if density_values is None or density_values.size != 1 or density_values.dtype.kind == "c":
        raise error(f"MATLAB:{name}:invalidDensity", "Density must be a real scalar.")
    density = float(density_values.reshape(-1)[0])
    if not density >= 0:
        raise error(f"MATLAB:{name}:invalidDensity", "Density must be nonnegative.")
    total = m * n
    wanted = min(int(round(min(density, 1.0) * total)), total)
    if wanted == 0:
        return _coo((m, n), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))
    # places drawn at random (repeats fall together, so there may be fewer than wanted)
    places = np.unique(np.floor(rng.random_sample(wanted) * total).astype(np.int64))
    values = draw(places.size)
    if not normal:
        values[values == 0.0] = 2.0 ** -53  # a drawn place is a nonzero
    return _coo((m, n), places % m, places // m, values, max(wanted, 1))


@builtin(interp=True)
def sprand(interp: Any, *args: Any) -> SparseMatrix:
    """R = sprand(S)
    R = sprand(m,n,density)

    Sparse uniformly distributed random matrix: the pattern of S with random values, or
    m-by-n with about density*m*n nonzeros in (0,1)."""
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    return _random_sparse(interp, args, False, "sprand")


@builtin(interp=True)
def sprandn(interp: Any, *args: Any) -> SparseMatrix:
    """R = sprandn(S)
    R = sprandn(m,n,density)

    Sparse normally distributed random matrix: the pattern of S with random values, or
    m-by-n with about density*m*n nonzeros."""
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    return _random_sparse(interp, args, True, "sprandn")


# ------------------------------------------------------------------ spdiags


def _diagonal_places(m: int, n: int, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows and columns (0-based) of diagonal d of an m-by-n matrix, and the rows of the
    spdiags column that hold them: the column index when m >= n, else the row index."""
    rows = np.arange(max(0, -d), min(m, n - d))
    cols = rows + d
    return rows, cols, (cols if m >= n else rows)


def _diagonal_numbers(v: object) -> np.ndarray:
    if is_sparse(v):
        v = v.full()  # type: ignore[attr-defined]
    a = to_array(v).reshape(-1, order="F") if class_of(v) not in ("cell", "struct") else None
    if a is None or a.dtype.kind in "cV" or (a.size and (np.floor(a.astype(np.float64))
                                                        != a.astype(np.float64)).any()) \
            or not np.isfinite(a.astype(np.float64)).all():
        raise error("MATLAB:spdiags:InvalidDiagonals",
                    "Diagonal indices must be a vector of integers.")
    # a diagonal past every matrix is empty: bounding keeps its number an int64
    return np.clip(a.astype(np.float64), -_MAX_SIZE, _MAX_SIZE).astype(np.int64)


def _all_diagonals(a: np.ndarray | Any) -> np.ndarray:
    """The indices of the diagonals holding a nonzero, in increasing order."""
    if hasattr(a, "tocoo"):
        coo = a.tocoo()
        return np.unique(coo.col.astype(np.int64) - coo.row)
    r, c = np.nonzero(a)
    return np.unique(c.astype(np.int64) - r)


@builtin(nargout=True, max_out=2)
def spdiags(a: Any, d: Any = None, m: Any = None, n: Any = None, *,
            nargout: int = 1) -> object:
    """Bout = spdiags(A)
    [Bout,d] = spdiags(A)
    Bout = spdiags(A,d)
    S = spdiags(Bin,d,A)
    S = spdiags(Bin,d,m,n)

    Diagonals of a matrix: extracts the nonzero diagonals (or those in d) as columns, or
    builds (replaces) the diagonals d of a sparse matrix from the columns of Bin."""
    if m is None:
        return _extract(a, d, nargout)
    if nargout > 1:
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    diagonals = _diagonal_numbers(d)
    b = _sparse_values(a, "Bin")
    if n is None:
        target = m
        base = target.matrix if is_sparse(target) else None
        rows_n, cols_n = (target.shape if is_sparse(target) else _numeric_2d(target, "spdiags").shape)
        if base is None:
            # SciPy on first use: keeps start-up fast
            import scipy.sparse

            base = scipy.sparse.csc_matrix(_numeric_2d(target, "spdiags"))
    else:
        rows_n, cols_n = _size_input(m), _size_input(n)
        base = None
    if b.size == 1 and diagonals.size >= 1:
        b = np.full((max(rows_n, cols_n, 1), diagonals.size), b.reshape(-1)[0])
    if b.ndim != 2 or b.shape[1] != diagonals.size:
        if b.ndim == 2 and min(b.shape) == 1 and b.size and diagonals.size == 1:
            b = b.reshape(-1, 1)
        else:
            raise error("MATLAB:spdiags:InvalidSizeBin",
                        "The number of columns of Bin must equal the number of diagonals.")
    all_rows, all_cols, all_vals = [], [], []
    for k, dk in enumerate(diagonals.tolist()):
        rows, cols, source = _diagonal_places(rows_n, cols_n, dk)
        inside = source < b.shape[0]
        all_rows.append(rows[inside])
        all_cols.append(cols[inside])
        all_vals.append(b[source[inside], k])
    rows = np.concatenate(all_rows) if all_rows else np.zeros(0, np.int64)
    cols = np.concatenate(all_cols) if all_cols else np.zeros(0, np.int64)
    vals = np.concatenate(all_vals) if all_vals else np.zeros(0)
    vals = vals.astype(np.complex128 if vals.dtype.kind == "c" else np.float64)
    built = _coo((rows_n, cols_n), rows, cols, vals)
    if base is None:
        return built
    # replace: the named diagonals of A are cleared, then Bin's values put in
    coo = base.tocoo()
    keep = ~np.isin(coo.col.astype(np.int64) - coo.row, diagonals)
    kept = _coo((rows_n, cols_n), coo.row[keep], coo.col[keep],
                coo.data[keep].astype(np.complex128 if coo.data.dtype.kind == "c" else np.float64))
    return wrap(kept.matrix + built.matrix)


def _extract(a: Any, d: Any, nargout: int) -> object:
    """Bout = spdiags(A), [Bout,d] = spdiags(A), Bout = spdiags(A,d)."""
    if is_sparse(a):
        mat = a.matrix
        rows_n, cols_n = a.shape
        dense = None
    else:
        dense = _numeric_2d(a, "spdiags")
        rows_n, cols_n = dense.shape
        mat = None
    diagonals = _all_diagonals(mat if mat is not None else dense) if d is None else \
        _diagonal_numbers(d)
    if d is not None and nargout > 1:
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    full_a = dense if dense is not None else mat.toarray()
    dtype = np.complex128 if full_a.dtype.kind == "c" else np.float64
    out = np.zeros((min(rows_n, cols_n), diagonals.size), dtype=dtype)
    for k, dk in enumerate(diagonals.tolist()):
        rows, cols, source = _diagonal_places(rows_n, cols_n, dk)
        out[source, k] = full_a[rows, cols]
    bout = result(out)
    if nargout > 1:
        return bout, result(diagonals.astype(np.float64).reshape(-1, 1))
    return bout


# ------------------------------------------- sparse forms of other functions


def _sparse_nnz(x: SparseMatrix) -> float:
    return float(x.nnz)


def _sparse_find(x: SparseMatrix, n: Any = None, direction: Any = None, *,
                 nargout: int = 1) -> object:
    """find(S): positions of the stored entries (canonical, so in column-major order);
    outputs shaped as for a full matrix of S's size."""
    m, cols_n = x.shape
    mat = x.matrix
    cols = np.repeat(np.arange(cols_n, dtype=np.int64), np.diff(mat.indptr))
    rows = mat.indices.astype(np.int64)
    values = mat.data
    if n is not None:
        pick = find_limit(n, direction, rows.size)
        rows, cols, values = rows[pick], cols[pick], values[pick]
    shape = (m, cols_n)
    if shape == (0, 0):
        out_shape: tuple[int, int] = (0, 0)
    elif shape[0] == 1:
        out_shape = (1, rows.size)
    else:
        out_shape = (rows.size, 1)
    if nargout <= 1:
        return result((cols * m + rows + 1).astype(np.float64).reshape(out_shape))
    r = result((rows + 1).astype(np.float64).reshape(out_shape))
    c = result((cols + 1).astype(np.float64).reshape(out_shape))
    if nargout == 2:
        return r, c
    return r, c, result(values.reshape(out_shape).copy())


def _sparse_sum(x: SparseMatrix, *args: Any) -> SparseMatrix:
    """sum(S), sum(S,dim), sum(S,'all'): sparse results ('omitnan' ignores NaN)."""
    dims: Any = None
    omit = False
    for v in args:
        text = text_option(v)
        if text is None:
            dims = dim_argument(v)
        elif text == "all":
            dims = "all"
        elif text in ("omitnan", "includenan"):
            omit = text == "omitnan"
        elif text not in ("double", "default", "native"):
            raise error("MATLAB:invalidOption", f"Invalid option '{to_str(v)}'.")
    mat = x.matrix
    mat = mat.astype(np.float64) if mat.dtype == np.bool_ else mat.copy()
    if omit and mat.dtype.kind in "fc":
        mat.data[np.isnan(mat.data)] = 0
    m, n = x.shape
    if dims is None and (m, n) == (0, 0):
        return wrap(np.zeros((1, 1)))  # sum([]) is 0, as for a full matrix
    if dims is None:
        dims = 0 if m != 1 else 1
    if dims == "all":
        return wrap(np.asarray(mat.sum()).reshape(1, 1))
    if dims > 1:
        return wrap(mat)
    return wrap(np.asarray(mat.sum(axis=dims)).reshape((1, n) if dims == 0 else (m, 1)))


def _sparse_double(x: SparseMatrix) -> SparseMatrix:
    """double(S): a sparse double matrix."""
    mat = x.matrix
    return wrap(mat.astype(np.float64)) if mat.dtype == np.bool_ else x


def _sparse_logical(x: SparseMatrix) -> SparseMatrix:
    """logical(S): a sparse logical matrix (NaN cannot be converted)."""
    data = x.matrix.data
    if data.dtype.kind == "c":
        raise error("MATLAB:nonrealconversion", "Complex values cannot be converted to logicals.")
    if data.dtype.kind == "f" and np.isnan(data).any():
        raise error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
    return wrap(x.matrix != 0)


def _offset(k: Any, name: str) -> int:
    if k is None:
        return 0
    return integer_scalar(k, "K-th diagonal input must be an integer scalar.",
                          f"MATLAB:{name}:kthDiagInputNotInteger")


def _sparse_tril(x: SparseMatrix, k: Any = None) -> SparseMatrix:
    """tril(S), tril(S,k): sparse."""
    # SciPy on first use: keeps start-up fast
    import scipy.sparse

    return wrap(scipy.sparse.tril(x.matrix, _offset(k, "tril")))


def _sparse_triu(x: SparseMatrix, k: Any = None) -> SparseMatrix:
    """triu(S), triu(S,k): sparse."""
    # SciPy on first use: keeps start-up fast
    import scipy.sparse

    return wrap(scipy.sparse.triu(x.matrix, _offset(k, "triu")))


def _sparse_diag(x: SparseMatrix, k: Any = None) -> SparseMatrix:
    """diag(S,k): a sparse vector on the k-th diagonal of a square sparse matrix, or the
    k-th diagonal of a sparse matrix as a sparse column."""
    offset = _offset(k, "diag")
    m, n = x.shape
    if (m, n) == (0, 0):
        return x
    if m == 1 or n == 1:
        coo = x.matrix.tocoo()
        where = (coo.row if n == 1 else coo.col).astype(np.int64)
        size = max(m, n) + abs(offset)
        return _coo((size, size), where + max(-offset, 0), where + max(offset, 0), coo.data)
    if offset >= n or -offset >= m:
        return _coo((0, 1), np.zeros(0, np.int64), np.zeros(0, np.int64),
                    np.zeros(0, dtype=x.matrix.dtype))
    values = x.matrix.diagonal(offset)
    return wrap(values.reshape(-1, 1))


def _form(fn: Callable[..., Any], wants_nargout: bool = False) -> Callable[[list, int], list]:
    """A sparse form taking the call's arguments (the first one sparse; otherwise the
    function's ordinary definition is used on full arguments)."""

    def form(args: list, nargout: int) -> list:
        if not args or not is_sparse(args[0]):
            full_args = [to_full(a) for a in args]
            return BUILTINS[fn.__name__.removeprefix("_sparse_")].invoke(None, full_args, nargout)
        out = fn(*args, nargout=nargout) if wants_nargout else fn(*args)
        return list(out) if type(out) is tuple else [out]

    return form


SPARSE_FORMS.update({
    "nnz": _form(_sparse_nnz),
    "find": _form(_sparse_find, wants_nargout=True),
    "sum": _form(_sparse_sum),
    "double": _form(_sparse_double),
    "tril": _form(_sparse_tril),
    "triu": _form(_sparse_triu),
    "diag": _form(_sparse_diag),
    "logical": _form(_sparse_logical),
})
SPARSE_AWARE.update({"sparse", "full", "issparse", "nonzeros", "nzmax", "spones", "speye",
                     "spalloc", "sprand", "sprandn", "spdiags"})
