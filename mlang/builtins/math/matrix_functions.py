"""Matrix functions and the numbers that describe a matrix: expm, logm, sqrtm, null,
orth, rank, pinv, cond, rcond, normest, condest, linsolve and lsqminnorm."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_option
from mlang.builtins.math.decompositions import finite, lapack_matrix, out, square
from mlang.builtins.math.linalg import norm
from mlang.errors import error, warn
from mlang.registry import builtin
from mlang.values.core import class_of, is_true, to_array, to_double_array
from mlang.values.solve import conditioning_warning, rank_warning, rcond_estimate
from mlang.values.solve import qr_solve as _qr_solve
from mlang.values.struct import Struct


def _spacing(x: Any, value: float) -> float:
    """eps(value) in the class of ``x``."""
    dtype = np.float32 if class_of(x) == "single" else np.float64
    return float(np.spacing(dtype(abs(value))))


def _tolerance(v: Any, name: str) -> float:
    t = to_double_array(v) if class_of(v) in ("double", "single") else np.zeros(0)
    if t.size != 1 or t.dtype.kind == "c":
        raise error(f"MATLAB:{name}:invalidTolerance", "Tolerance must be a real scalar.")
    return float(t.reshape(-1)[0])


# ------------------------------------------------------- exponential and logarithm


@builtin()
def expm(a: Any) -> object:
    """Y = expm(X)

    Matrix exponential."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "expm")
    square(x)
    if x.size == 0:
        return out(x, (a,))
    if not np.isfinite(x).all():
        return out(np.full(x.shape, np.nan, dtype=x.dtype), (a,))
    with np.errstate(all="ignore"):  # beyond the range of doubles: Inf, as in MATLAB
        return out(scipy.linalg.expm(x), (a,))


@builtin(nargout=True, max_out=2)
def logm(a: Any, *, nargout: int = 1) -> object:
    """L = logm(A)
    [L,exitflag] = logm(A)

    Principal matrix logarithm (the inverse of expm); warns when A has nonpositive real
    eigenvalues (the result is then not the principal logarithm)."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "logm")
    square(x)
    if x.size == 0:
        return (out(x, (a,)), 0.0) if nargout >= 2 else out(x, (a,))
    finite(x, "logm")
    values = scipy.linalg.eigvals(x)
    if np.any((np.abs(values.imag) <= 0) & (values.real <= 0)):
        warn("MATLAB:logm:nonPosRealEig",
             "Principal matrix logarithm is not defined for A with nonpositive real "
             "eigenvalues. A non-principal matrix logarithm is returned.")
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MATLAB's own warning is given above
        try:
            y = scipy.linalg.logm(x)
        except (ValueError, np.linalg.LinAlgError):
            y = np.full(x.shape, np.nan)
    if isinstance(y, tuple):
        y = y[0]
    return (out(y, (a,)), 0.0) if nargout >= 2 else out(y, (a,))


@builtin(nargout=True, max_out=3)
def sqrtm(a: Any, *, nargout: int = 1) -> object:
    """X = sqrtm(A)
    [X,residual] = sqrtm(A)
    [X,alpha,condx] = sqrtm(A)

    Principal square root of a matrix: X*X = A.  residual is norm(A-X^2,1)/norm(A,1);
    alpha the stability factor norm(X,1)^2/norm(A,1) and condx an estimate of the
    1-norm condition number of the square root.  With one output, warns when A is
    singular (it may have no square root)."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "sqrtm")
    square(x)
    if x.size == 0:
        return (out(x, (a,)), *[0.0] * (max(nargout, 1) - 1))
    finite(x, "sqrtm")
    t, _ = scipy.linalg.schur(x, output="complex")
    if nargout <= 1 and np.any(np.diag(t) == 0):
        warn("MATLAB:sqrtm:SingularMatrix", "Matrix is singular and may not have a square root.")
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MATLAB's own warning is given above
        y = scipy.linalg.sqrtm(x)
        if isinstance(y, tuple):
            y = y[0]
        anorm = np.linalg.norm(x, 1)
        if nargout == 2:
            residual = np.linalg.norm(x - y @ y, 1) / anorm
            return out(y, (a,)), out(np.array([[residual]]), (a,))
        if nargout >= 3:
            ynorm = np.linalg.norm(y, 1)
            alpha = ynorm ** 2 / anorm
            condx = _sqrtm_condition(y) * anorm / ynorm
            return out(y, (a,)), out(np.array([[alpha]]), (a,)), out(np.array([[condx]]), (a,))
    return out(y, (a,))


def _sqrtm_condition(y: np.ndarray) -> float:
    """The 1-norm of the inverse of the Kronecker form of X*L + L*X (the Frechet derivative
    of the square root at A = X^2): exact for small matrices, estimated otherwise."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg
    import scipy.sparse.linalg

    n = y.shape[0]
    kron = np.kron(np.eye(n), y) + np.kron(y.T, np.eye(n)) if n <= 20 else None
    try:
        if kron is not None:
            return float(np.abs(np.linalg.inv(kron)).sum(axis=0).max())

        def solve(v: np.ndarray) -> np.ndarray:
            e = np.asarray(v).reshape(n, n, order="F")
            return scipy.linalg.solve_sylvester(y, y, e).reshape(-1, order="F")

        def solve_adjoint(v: np.ndarray) -> np.ndarray:
            e = np.asarray(v).reshape(n, n, order="F")
            yh = y.conj().T
            return scipy.linalg.solve_sylvester(yh, yh, e).reshape(-1, order="F")

        operator = scipy.sparse.linalg.LinearOperator((n * n, n * n), dtype=y.dtype,
                                                      matvec=solve, rmatvec=solve_adjoint)
        return float(scipy.sparse.linalg.onenormest(operator))
    except (np.linalg.LinAlgError, ValueError):
        return math.inf


# ------------------------------------------------------------- subspaces, rank


def _singular(x: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """U, s, V of the full SVD (empty matrices allowed)."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    finite(x, "svd")
    m, n = x.shape
    if x.size == 0:
        return np.eye(m), np.zeros(0), np.eye(n)
    u, s, vh = scipy.linalg.svd(x, lapack_driver="gesvd")
    return u, s, vh.conj().T


def _default_rank_tol(a: Any, x: np.ndarray, s: np.ndarray) -> float:
    return max(x.shape) * _spacing(a, float(s.max(initial=0.0)))


@builtin()
def null(a: Any, tol: Any = None) -> object:
    """Z = null(A)
    Z = null(A,tol)

    Orthonormal basis for the null space of A (from the SVD): the right singular vectors
    whose singular values are not above tol (default max(size(A))*eps(norm(A)))."""
    x = lapack_matrix(a, "null")
    _, s, v = _singular(x, "null")
    limit = _default_rank_tol(a, x, s) if tol is None else _tolerance(tol, "null")
    r = int(np.sum(s > limit))
    return out(v[:, r:], (a,))


@builtin()
def orth(a: Any, tol: Any = None) -> object:
    """Q = orth(A)
    Q = orth(A,tol)

    Orthonormal basis for the range of A (from the SVD): the left singular vectors whose
    singular values are above tol (default max(size(A))*eps(norm(A)))."""
    x = lapack_matrix(a, "orth")
    u, s, _ = _singular(x, "orth")
    limit = _default_rank_tol(a, x, s) if tol is None else _tolerance(tol, "orth")
    r = int(np.sum(s > limit))
    return out(u[:, :r], (a,))


@builtin()
def rank(a: Any, tol: Any = None) -> object:
    """k = rank(A)
    k = rank(A,tol)

    Number of singular values of A above tol (default max(size(A))*eps(norm(A)))."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "rank")
    if x.size == 0:
        return 0.0
    finite(x, "svd")
    s = scipy.linalg.svdvals(x)
    limit = _default_rank_tol(a, x, s) if tol is None else _tolerance(tol, "rank")
    return float(np.sum(s > limit))


@builtin()
def pinv(a: Any, tol: Any = None) -> object:
    """B = pinv(A)
    B = pinv(A,tol)

    Moore-Penrose pseudoinverse (from the SVD), treating singular values not above tol
    (default max(size(A))*eps(norm(A))) as zero."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "pinv")
    m, n = x.shape
    if x.size == 0:
        return out(np.zeros((n, m), dtype=x.dtype), (a,))
    if not np.isfinite(x).all():
        return out(np.full((n, m), np.nan, dtype=x.dtype), (a,))
    u, s, vh = scipy.linalg.svd(x, full_matrices=False, lapack_driver="gesvd")
    limit = _default_rank_tol(a, x, s) if tol is None else _tolerance(tol, "pinv")
    r = int(np.sum(s > limit))
    v = vh.conj().T[:, :r]
    return out((v / s[:r]) @ u[:, :r].conj().T, (a,))


# ------------------------------------------------------------------ conditioning


@builtin()
def cond(a: Any, p: Any = 2.0) -> object:
    """C = cond(A)
    C = cond(A,p)

    Condition number: the ratio of the largest to the smallest singular value (p = 2), or
    norm(A,p)*norm(inv(A),p) for p = 1, Inf or 'fro' (square A)."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "cond")
    kind = text_option(p)
    order = to_double_array(p) if kind is None else None
    two = order is not None and order.size == 1 and float(order.real.reshape(-1)[0]) == 2
    if x.size == 0:
        return out(np.zeros((1, 1)), (a,))
    if two:
        if not np.isfinite(x).all():
            return out(np.array([[np.nan]]), (a,))
        s = scipy.linalg.svdvals(x)
        with np.errstate(divide="ignore"):
            value = math.inf if np.any(s == 0) else float(s.max() / s.min())
        return out(np.array([[value]]), (a,))
    square(x)
    norm(x, p)  # MATLAB's error for an unknown norm type
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a badly conditioned A: the number says it
            inverse = scipy.linalg.inv(x)
    except (np.linalg.LinAlgError, ValueError):
        return out(np.array([[math.inf]]), (a,))
    value = float(to_double_array(norm(x, p)).reshape(-1)[0]) * \
        float(to_double_array(norm(inverse, p)).reshape(-1)[0])
    return out(np.array([[value]]), (a,))


@builtin()
def rcond(a: Any) -> object:
    """C = rcond(A)

    Estimate of the reciprocal condition number of A in the 1-norm (near 1 for a well
    conditioned matrix, near 0 for a badly conditioned one)."""
    x = lapack_matrix(a, "rcond")
    square(x)
    return out(np.array([[rcond_estimate(x)]]), (a,))


@builtin(nargout=True, max_out=2)
def normest(a: Any, tol: Any = 1e-6, *, nargout: int = 1) -> object:
    """n = normest(S)
    n = normest(S,tol)
    [n,count] = normest(___)

    Estimate of the matrix 2-norm by the power method, to relative tolerance tol
    (default 1e-6); count is the number of iterations."""
    x = lapack_matrix(a, "normest")
    tolerance = _tolerance(tol, "normest")
    with np.errstate(all="ignore"):  # NaN/Inf entries give a NaN/Inf estimate
        e, count = _power_iterations(x, tolerance)
    value = out(np.array([[e]]), (a,))
    return (value, float(count)) if nargout >= 2 else value


def _power_iterations(x: np.ndarray, tolerance: float) -> tuple[float, int]:
    v = np.abs(x).sum(axis=0).astype(x.dtype)
    count = 0
    e = float(np.linalg.norm(v))
    if e == 0 or not math.isfinite(e):
        return e, count
    v = v / e
    e0 = 0.0
    rng = np.random.default_rng(0)
    while abs(e - e0) > tolerance * e:
        e0 = e
        sx = x @ v
        if not np.any(sx):
            sx = rng.random(sx.shape)
        v = x.conj().T @ sx
        size = float(np.linalg.norm(v))
        e = size / float(np.linalg.norm(sx))
        v = v / size
        count += 1
        if count > 100:
            warn("MATLAB:normest:notconverge",
                 f"NORMEST did not converge for 100 iterations with tolerance {tolerance:g}")
            break
    return e, count


@builtin(nargout=True, max_out=2)
def condest(a: Any, t: Any = 2.0, *, nargout: int = 1) -> object:
    """c = condest(A)
    c = condest(A,t)
    [c,v] = condest(___)

    Lower bound for the 1-norm condition number of square A (Higham's block 1-norm
    estimator with t columns, default 2); v satisfies
    norm(A*v,1) = norm(A,1)*norm(v,1)/c."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg
    import scipy.sparse.linalg

    x = lapack_matrix(a, "condest")
    square(x)
    n = x.shape[0]
    columns = _tolerance(t, "condest")
    if not 1 <= columns < math.inf or columns != math.floor(columns):
        raise error("MATLAB:condest:invalidT",
                    "Number of columns T must be a positive integer scalar.")
    anorm = float(np.abs(x).sum(axis=0).max(initial=0.0))
    if n == 0:
        return (0.0, np.zeros((0, 1))) if nargout >= 2 else 0.0
    if not np.isfinite(x).all():
        value = out(np.array([[math.nan]]), (a,))
        return (value, out(np.full((n, 1), np.nan), (a,))) if nargout >= 2 else value
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a singular A is reported by the result, Inf
        factors = scipy.linalg.lu_factor(x, check_finite=False)
    if np.any(np.diag(factors[0]) == 0):
        v = _null_vector(x)
        value = out(np.array([[math.inf]]), (a,))
        return (value, out(v, (a,))) if nargout >= 2 else value
    if n <= _EXACT_CONDEST:  # the exact 1-norm of the inverse costs no more than the LU
        inverse = scipy.linalg.lu_solve(factors, np.eye(n))
        sums = np.abs(inverse).sum(axis=0)
        j = int(np.argmax(sums))
        estimate, w = float(sums[j]), inverse[:, j]
    else:
        operator = scipy.sparse.linalg.LinearOperator(
            (n, n), dtype=x.dtype,
            matvec=lambda b: scipy.linalg.lu_solve(factors, b),
            rmatvec=lambda b: scipy.linalg.lu_solve(factors, b, trans=2 if np.iscomplexobj(x) else 1))
        estimate, _, w = scipy.sparse.linalg.onenormest(operator, t=min(int(columns), n),
                                                        compute_v=True, compute_w=True)
    value = out(np.array([[anorm * estimate]]), (a,))
    if nargout < 2:
        return value
    w = np.asarray(w).reshape(-1, 1)
    return value, out(w / np.abs(w).sum(), (a,))


# Up to this order condest computes the 1-norm of the inverse exactly (the estimate
# MATLAB's normest1 returns is exact for nearly all small matrices).
_EXACT_CONDEST = 200


def _null_vector(x: np.ndarray) -> np.ndarray:
    import scipy.linalg  # SciPy on first use: keeps start-up fast
    v = scipy.linalg.null_space(x)[:, :1] if np.isfinite(x).all() else np.zeros((x.shape[1], 1))
    if v.size == 0:
        return np.zeros((x.shape[1], 1))
    return v / np.abs(v).sum()


# --------------------------------------------------------------- linear systems


_LINSOLVE_FIELDS = ("LT", "UT", "UHESS", "SYM", "POSDEF", "RECT", "TRANSA")
# the combinations of true fields linsolve accepts (TRANSA may join any of them)
_LINSOLVE_KINDS = (frozenset(), frozenset({"LT"}), frozenset({"UT"}), frozenset({"UHESS"}),
                   frozenset({"SYM"}), frozenset({"SYM", "POSDEF"}), frozenset({"RECT"}),
                   frozenset({"LT", "RECT"}), frozenset({"UT", "RECT"}))


def _linsolve_options(opts: Any) -> set[str]:
    if type(opts) is not Struct or not opts.is_scalar():
        raise error("MATLAB:linsolve:InvalidOptionsStructure",
                    "Third input must be a scalar structure.")
    chosen = set()
    for name, value in opts.element(0).items():
        if name not in _LINSOLVE_FIELDS:
            raise error("MATLAB:linsolve:UnrecognizedFieldInOptionsStructure",
                        f"Unrecognized field '{name}' in options structure.")
        if class_of(value) != "logical" or to_array(value).size != 1:
            raise error("MATLAB:linsolve:FieldValueMustBeLogical",
                        f"Field '{name}' of the options structure must be logical scalar.")
        if is_true(value):
            chosen.add(name)
    if frozenset(chosen - {"TRANSA"}) not in _LINSOLVE_KINDS:
        raise error("MATLAB:linsolve:CombinationOfFieldsNotCurrentlySupported",
                    "The combination of fields in the third argument is not currently supported.")
    return chosen


@builtin(nargout=True, max_out=2)
def linsolve(a: Any, b: Any, opts: Any = None, *, nargout: int = 1) -> object:
    """X = linsolve(A,B)
    X = linsolve(A,B,opts)
    [X,r] = linsolve(___)

    Solve A*X = B: LU factorization for square A, QR with column pivoting otherwise.
    opts is a structure of logical fields naming the structure of A to use: LT, UT
    (triangular), UHESS, SYM, POSDEF, RECT and TRANSA (solve A'*X = B).  r is rcond(A)
    for square A and the rank of A otherwise; without r, badly conditioned or rank
    deficient A gives a warning."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x, y = lapack_matrix(a, "linsolve"), lapack_matrix(b, "linsolve")
    kind = _linsolve_options(opts) if opts is not None else set()
    if "TRANSA" in kind:
        x = x.conj().T
    if x.shape[0] != y.shape[0]:
        raise error("MATLAB:dimagree", "Matrix dimensions must agree.")
    m, n = x.shape
    if x.size == 0 or y.size == 0:
        solution = np.zeros((n, y.shape[1]), dtype=np.result_type(x, y))
        r = 0.0 if m != n else math.inf
        return (out(solution, (a, b)), r) if nargout >= 2 else out(solution, (a, b))
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        solution = np.full((n, y.shape[1]), np.nan, dtype=np.result_type(x, y))
        return (out(solution, (a, b)), math.nan) if nargout >= 2 else out(solution, (a, b))
    triangular = kind & {"LT", "UT"}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MATLAB's warnings are given below
        if triangular and m == n:
            lower = ("LT" in kind) != ("TRANSA" in kind)
            tri = np.tril(x) if lower else np.triu(x)
            rc = rcond_estimate(tri)
            if rc == 0:
                solution = np.full((n, y.shape[1]), np.inf)
            else:
                solution = scipy.linalg.solve_triangular(tri, y, lower=lower)
            measure = rc
        elif m == n and "RECT" not in kind:
            rc = rcond_estimate(x)
            assume = "pos" if "POSDEF" in kind else "sym" if "SYM" in kind else "gen"
            try:
                solution = scipy.linalg.solve(x, y, assume_a=assume, check_finite=False)
            except (np.linalg.LinAlgError, ValueError):
                solution = np.linalg.lstsq(x, y, rcond=None)[0] if rc else \
                    np.full((n, y.shape[1]), np.inf)
            measure = rc
        else:
            solution, k, tol = _qr_solve(x, y, a)
            measure = float(k)
    if nargout < 2:
        if m == n and "RECT" not in kind:
            conditioning_warning(measure, a)
        else:
            rank_warning(int(measure), tol, min(m, n))
        return out(solution, (a, b))
    return out(solution, (a, b)), float(measure)


@builtin()
def lsqminnorm(a: Any, b: Any, *args: Any) -> object:
    """X = lsqminnorm(A,B)
    X = lsqminnorm(A,B,tol)
    X = lsqminnorm(___,rankWarn)

    Minimum norm least-squares solution of A*X = B (a complete orthogonal decomposition
    from QR with column pivoting); tol fixes the rank of A, rankWarn is 'nowarn' (the
    default) or 'warn' (warn when A is rank deficient)."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x, y = lapack_matrix(a, "lsqminnorm"), lapack_matrix(b, "lsqminnorm")
    rest = list(args)
    warn_rank = False
    if rest and text_option(rest[-1]) is not None:
        word = text_option(rest.pop())
        if word not in ("warn", "nowarn"):
            raise error("MATLAB:lsqminnorm:InvalidRankWarn",
                        "Rank warning flag must be 'warn' or 'nowarn'.")
        warn_rank = word == "warn"
    if len(rest) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if x.shape[0] != y.shape[0]:
        raise error("MATLAB:dimagree", "Matrix dimensions must agree.")
    m, n = x.shape
    if x.size == 0 or y.size == 0:
        return out(np.zeros((n, y.shape[1]), dtype=np.result_type(x, y)), (a, b))
    finite(x, "lsqminnorm")
    q, r, perm = scipy.linalg.qr(x, mode="economic", pivoting=True)
    diag = np.abs(np.diag(r))
    tol = _tolerance(rest[0], "lsqminnorm") if rest else \
        max(m, n) * _spacing(a, float(diag[0]))
    k = int(np.sum(diag > tol))
    if warn_rank:
        rank_warning(k, tol, min(m, n))
    solution = np.zeros((n, y.shape[1]), dtype=np.result_type(x, y))
    if k:
        # the rows of R beyond the rank are dropped; R(1:k,:)' = Z*T gives the minimum norm
        z, t = scipy.linalg.qr(r[:k, :].conj().T, mode="economic")
        with np.errstate(all="ignore"):  # NaN/Inf in B spread through the solution
            c = q[:, :k].conj().T @ y
            solution[perm] = z @ scipy.linalg.solve_triangular(t.conj().T, c, lower=True,
                                                               check_finite=False)
    return out(solution, (a, b))
