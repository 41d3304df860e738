"""Linear solves as MATLAB's mldivide does them, and the condition and rank warnings
that mldivide, mrdivide, linsolve and lsqminnorm share.

A square A is solved by the first method that fits its structure: triangular ->
substitution, Hermitian with a positive real diagonal -> Cholesky (LU when that
fails), otherwise LU with partial pivoting.  LAPACK's estimate of the reciprocal
condition number from the factorization decides the warnings.  A rectangular A is
solved by QR with column pivoting, which gives the basic solution (at most rank(A)
non-zero entries)."""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Iterable
from typing import Any

import numpy as np

from mlang.errors import warn
from mlang.values.core import class_of

_DOUBLE_EPS = float(np.finfo(np.float64).eps)


def _eps(a: Any) -> float:
    """eps of the class of ``a`` (a MATLAB value or an array of its class)."""
    if type(a) is np.ndarray and a.dtype == np.float64:
        return _DOUBLE_EPS
    return float(np.finfo(np.float32 if class_of(a) == "single" else np.float64).eps)


@functools.lru_cache(maxsize=32)
def _lapack(names: tuple[str, ...], dtype: np.dtype) -> tuple:
    """The LAPACK routines ``names`` for arrays of ``dtype`` (looked up once per class)."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg.lapack

    return tuple(scipy.linalg.lapack.get_lapack_funcs(names, dtype=dtype))


@functools.lru_cache(maxsize=8)
def _trsm(dtype: np.dtype) -> Any:
    """BLAS's triangular solve for arrays of ``dtype``."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg.blas

    return scipy.linalg.blas.get_blas_funcs(("trsm",), dtype=dtype)[0]


def _one_norm(x: np.ndarray) -> float:
    return float(np.abs(x).sum(axis=0).max())


@functools.lru_cache(maxsize=64)
def _strictly_lower(n: int) -> np.ndarray:
    """The mask of the entries below the diagonal of a small matrix (np.tril/np.triu
    cost more than the whole solve of a small system)."""
    return np.tri(n, n, -1, dtype=bool)


def _hermitian_positive_diagonal(x: np.ndarray) -> bool:
    """The test that sends a matrix to Cholesky: Hermitian, real positive diagonal."""
    diagonal = x.diagonal()
    if x.dtype.kind == "c":
        if diagonal.imag.any() or not (diagonal.real > 0).all():
            return False
        return bool((x == x.conj().T).all())
    return bool((diagonal > 0).all() and (x == x.T).all())


def rcond_estimate(x: np.ndarray) -> float:
    """LAPACK's estimate of the reciprocal 1-norm condition number of square ``x`` (what
    MATLAB's rcond and its singular-matrix warnings report)."""
    if x.size == 0:
        return math.inf
    anorm = small_one_norm(x) if x.dtype == np.float64 and x.size <= 64 else None
    if anorm is None:
        if not np.isfinite(x).all():
            return math.nan
        anorm = _one_norm(x)
    getrf, gecon = _lapack(("getrf", "gecon"), x.dtype)
    factors, _, info = getrf(x)
    if info > 0:
        return 0.0
    if anorm == 0:
        return 0.0
    value, _ = gecon(factors, anorm, norm="1")
    return float(value)


def conditioning_warning(rc: float, a: Any) -> None:
    """MATLAB's warning for a square system that is singular or badly conditioned; ``a``
    gives the class whose eps is the threshold."""
    if rc == 0 or math.isnan(rc):
        warn("MATLAB:singularMatrix", "Matrix is singular to working precision.")
    elif rc < _eps(a):
        # MATLAB formats the number with '% e' (a space for the sign)
        warn("MATLAB:nearlySingularMatrix",
             "Matrix is close to singular or badly scaled. Results may be inaccurate. "
             f"RCOND = {rc: e}.")


def rank_warning(r: int, tol: float, columns: int) -> None:
    """MATLAB's warning for a rank-deficient least-squares system."""
    if r < columns:
        warn("MATLAB:rankDeficientMatrix", f"Rank deficient, rank = {r}, tol = {tol: e}.")


def qr_solve(x: np.ndarray, y: np.ndarray, a: Any) -> tuple[np.ndarray, int, float]:
    """The basic least-squares solution by QR with column pivoting (as mldivide gives for
    a rectangular matrix), the numerical rank and the tolerance used; ``a`` gives the
    class whose eps sets the tolerance."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    m, n = x.shape
    q, r, perm = scipy.linalg.qr(x, mode="economic", pivoting=True, check_finite=False)
    diag = np.abs(np.diag(r))
    tol = max(m, n) * _eps(a) * float(diag[0]) if diag.size else 0.0
    k = int(np.sum(diag > tol))
    solution = np.zeros((n, y.shape[1]), dtype=np.result_type(x, y))
    if k:
        with np.errstate(all="ignore"):  # NaN/Inf in y spread through the solution
            c = q[:, :k].conj().T @ y
        solution[perm[:k]] = scipy.linalg.solve_triangular(r[:k, :k], c, check_finite=False)
    return solution, k, tol


def solve(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x \\ y for 2-D float arrays with as many rows, with MATLAB's method choice and
    warnings; the result has their common floating class."""
    dtype = np.result_type(x, y)
    if dtype.kind not in "fc":
        dtype = np.dtype(np.float64)
    m, n = x.shape
    if m == n and 0 < n < 8 and dtype == np.float64 and x.dtype == dtype and y.dtype == dtype and y.size:
        quick = _small_double(x, y, n)
        if quick is not None:
            return quick
    if x.size == 0 or y.size == 0:
        return np.zeros((n, y.shape[1]), dtype=dtype)
    if not np.isfinite(x).all():
        # no factorization of NaN/Inf entries (LAPACK would complain on stderr)
        return np.full((n, y.shape[1]), np.nan, dtype=dtype)
    x = x.astype(dtype, copy=False)
    y = y.astype(dtype, copy=False)
    if m != n:
        solution, k, tol = qr_solve(x, y, x)
        rank_warning(k, tol, min(m, n))
        return solution
    if n <= 64:
        below = _strictly_lower(n)
        lower = not x.T[below].any()
        triangular = lower or not x[below].any()
    else:
        lower = not np.triu(x, 1).any()
        triangular = lower or not np.tril(x, -1).any()
    if triangular:
        return _triangular(x, y, lower)
    if _hermitian_positive_diagonal(x):
        solution = _cholesky(x, y)
        if solution is not None:
            return solution
    return _lu(x, y)


def _abs_column_sums(columns: Iterable[Iterable[float]]) -> list[float]:
    """The sums of the magnitudes of columns shorter than 8, added one after another as
    NumPy adds them (sum() may compensate, so it is not used)."""
    return [functools.reduce(operator.add, map(abs, column)) for column in columns]


def _dominant(rows: list[list[float]], sums: list[float], anorm: float) -> bool:
    """Whether a square matrix (its rows, its column sums of magnitudes, its one-norm) is
    strictly diagonally dominant by columns with a margin g above 1e-10*anorm.  The 1-norm
    of its inverse is then at most 1/g, so its condition estimate is at least g/anorm, far
    above eps: no conditioning warning can come."""
    if not 1e-100 < anorm < 1e100:  # far from under- and overflow in the estimate's steps
        return False
    # (the diagonal entry less the other magnitudes, so that nothing overflows)
    margins = [abs(rows[j][j]) - (sums[j] - abs(rows[j][j])) for j in range(len(rows))]
    return min(margins) > 1e-10 * anorm


def small_one_norm(x: np.ndarray) -> float | None:
    """The one-norm of a nonempty 2-D double array of fewer than 8 rows, summed as NumPy
    sums it; None when x has NaN or Inf entries or its column sums overflow."""
    if not 0 < x.shape[0] < 8 or not x.shape[1]:
        return None
    sums = _abs_column_sums(zip(*x.tolist(), strict=True))
    return max(sums) if math.isfinite(sum(sums)) else None  # (any sum will do as a test)


def surely_well_conditioned(x: np.ndarray) -> bool:
    """Whether a real double square matrix of fewer than 8 rows is finite and so far from
    singular that no conditioning warning can come for it (see _dominant); False when
    that cannot be told cheaply."""
    if x.dtype != np.float64 or x.ndim != 2 or not 0 < x.shape[0] == x.shape[1] < 8:
        return False
    rows = x.tolist()
    sums = _abs_column_sums(zip(*rows, strict=True))
    return math.isfinite(sum(sums)) and _dominant(rows, sums, max(sums))


def _small_double(x: np.ndarray, y: np.ndarray, n: int) -> np.ndarray | None:
    """x \\ y for a small real double square x, its structure read from a list of its rows
    (NumPy's per-call cost outweighs the whole solve here); None when x has NaN/Inf entries
    or its column sums overflow, which the general path handles."""
    rows = x.tolist()
    columns = list(zip(*rows, strict=True))
    norms = _abs_column_sums(columns)
    if not math.isfinite(sum(norms)):  # (any sum will do as a test)
        return None
    anorm = max(norms)
    estimate = not _dominant(rows, norms, anorm)
    lower = True  # nothing above the diagonal
    upper = True  # nothing below it
    for i in range(n - 1):
        if lower and any(rows[i][i + 1:]):
            lower = False
        if upper and any(columns[i][i + 1:]):
            upper = False
    if lower or upper:
        return _triangular(x, y, lower, estimate)
    if columns == list(map(tuple, rows)) and all(rows[i][i] > 0 for i in range(n)):
        solution = _cholesky(x, y, anorm, estimate)
        if solution is not None:
            return solution
    return _lu(x, y, anorm, estimate)


def _triangular(x: np.ndarray, y: np.ndarray, lower: bool, estimate: bool = True) -> np.ndarray:
    """Substitution; a zero on the diagonal gives MATLAB's Inf/NaN entries (``estimate``:
    whether the condition can be bad enough to warn)."""
    trsm = _trsm(x.dtype)
    if estimate:
        trcon, = _lapack(("trcon",), x.dtype)
        if (x.diagonal() == 0).any():
            rc = 0.0
        else:
            rc = float(trcon(x, norm="1", uplo="L" if lower else "U")[0])
        conditioning_warning(rc, x)
    return trsm(1.0, x, y, lower=int(lower))


def _cholesky(x: np.ndarray, y: np.ndarray, anorm: float | None = None,
              estimate: bool = True) -> np.ndarray | None:
    """Solve by Cholesky, or None when x is not positive definite (``anorm``: x's one-norm,
    when known; ``estimate``: whether the condition can be bad enough to warn)."""
    potrf, potrs, pocon = _lapack(("potrf", "potrs", "pocon"), x.dtype)
    factor, info = potrf(x)
    if info != 0:
        return None
    if estimate:
        conditioning_warning(float(pocon(factor, _one_norm(x) if anorm is None else anorm)[0]), x)
    return potrs(factor, y)[0]


def _lu(x: np.ndarray, y: np.ndarray, anorm: float | None = None, estimate: bool = True) -> np.ndarray:
    """LU with partial pivoting; an exactly singular x gives LU's Inf/NaN entries
    (``anorm``: x's one-norm, when known; ``estimate``: whether the condition can be bad
    enough to warn)."""
    getrf, getrs, gecon = _lapack(("getrf", "getrs", "gecon"), x.dtype)
    factors, pivots, info = getrf(x)
    if info > 0:
        rc = 0.0
    elif estimate:
        anorm = _one_norm(x) if anorm is None else anorm
        rc = float(gecon(factors, anorm, norm="1")[0]) if anorm else 0.0
    else:
        return getrs(factors, pivots, y)[0]
    conditioning_warning(rc, x)
    return getrs(factors, pivots, y)[0]


__all__ = ["rcond_estimate", "small_one_norm", "surely_well_conditioned", "conditioning_warning",
           "rank_warning", "qr_solve", "solve"]
