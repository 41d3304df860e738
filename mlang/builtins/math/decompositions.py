"""Matrix decompositions: eig, svd, qr, lu, chol, schur and hess (LAPACK through
SciPy), with the argument checks the linear-algebra functions share."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_option
from mlang.builtins.math.linalg import float_result, small_and_finite
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import INT_CLASSES, class_of, result, to_array

# ------------------------------------------------------------------- helpers


def lapack_matrix(x: Any, name: str) -> np.ndarray:
    """A single or double 2-D argument as float64/complex128: LAPACK-based functions
    refuse integers (with MATLAB's message), logical and char, and N-D arrays."""
    cls = class_of(x)
    if cls in INT_CLASSES:
        raise error(f"MATLAB:{name}:integerNotSupported",
                    "Invalid data type. Input matrix must be double or single.")
    if cls not in ("double", "single"):
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{name}' for input arguments of type '{cls}'.")
    a = to_array(x)
    if a.ndim != 2:
        raise error(f"MATLAB:{name}:inputMustBe2D", "Input must be 2-D.")
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def square(a: np.ndarray) -> None:
    if a.shape[0] != a.shape[1]:
        raise error("MATLAB:square", "Matrix must be square.")


def finite(a: np.ndarray, name: str) -> None:
    """LAPACK's decompositions cannot run on NaN or Inf: MATLAB refuses them."""
    if not np.isfinite(a).all():
        raise error(f"MATLAB:{name}:matrixWithNaNInf",
                    f"Input to {name.upper()} must not contain NaN or Inf.")


def is_hermitian(a: np.ndarray) -> bool:
    """Exactly Hermitian (symmetric when real), as MATLAB tests before eigh-type solvers."""
    return a.shape[0] == a.shape[1] and bool(np.array_equal(a, a.conj().T))


def out(values: np.ndarray, like: tuple) -> object:
    """A result in the floating class of the inputs (single when any is single)."""
    return float_result(np.asarray(values), *like)


def _options(args: tuple, allowed: tuple[str, ...], name: str) -> list[str]:
    words = []
    for v in args:
        word = text_option(v)
        if word not in allowed:
            raise error(f"MATLAB:{name}:unknownOption", "Invalid option.")
        words.append(word)
    return words


def _column(values: np.ndarray) -> np.ndarray:
    return np.asarray(values).reshape(-1, 1)


def _unit_columns(v: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(v, axis=0)
    norms[norms == 0] = 1.0
    return v / norms


# ----------------------------------------------------------------------- eig


@builtin(nargout=True, max_out=3)
def eig(a: Any, *args: Any, nargout: int = 1) -> object:
    """e = eig(A)
    [V,D] = eig(A)
    [V,D,W] = eig(A)
    e = eig(A,B)
    [V,D] = eig(A,B)
    [V,D,W] = eig(A,B)
    [___] = eig(A,balanceOption)
    [___] = eig(A,B,algorithm)
    [___] = eig(___,outputForm)

    Eigenvalues and eigenvectors: A*V = V*D, W'*A = D*W' (or A*V = B*V*D for eig(A,B)).
    balanceOption is 'balance' or 'nobalance', algorithm 'chol' or 'qz', outputForm
    'vector' or 'matrix'.  Hermitian A gives real eigenvalues in ascending order."""
    if not args and nargout <= 2 and type(a) is np.ndarray and a.dtype == np.float64 and a.ndim == 2 \
            and 0 < a.shape[0] == a.shape[1] <= 16:
        quick = _small_eigenvalues(a) if nargout <= 1 else _small_symmetric_eigenvectors(a)
        if quick is not None:
            return quick
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "eig")
    rest = list(args)
    b = None
    inputs: tuple = (a,)
    if rest and text_option(rest[0]) is None:
        b = lapack_matrix(rest.pop(0), "eig")
        inputs = (a, args[0])
    words = _options(tuple(rest), ("balance", "nobalance", "chol", "qz", "vector", "matrix"),
                     "eig")
    form = next((w for w in words if w in ("vector", "matrix")), None)
    if form is None:
        form = "vector" if nargout <= 1 else "matrix"
    square(x)
    finite(x, "eig")
    if b is not None:
        if b.shape != x.shape:
            raise error("MATLAB:eig:unequalSizes", "Inputs must be the same size.")
        finite(b, "eig")
    n = x.shape[0]
    want_v, want_w = nargout >= 2, nargout >= 3
    if n == 0:
        values, v, w = np.zeros(0), np.zeros((0, 0)), np.zeros((0, 0))
    elif b is None and is_hermitian(x):
        values, v = scipy.linalg.eigh(x, driver="evd") if want_v else \
            (scipy.linalg.eigvalsh(x), None)
        w = v
    elif b is not None and "qz" not in words and is_hermitian(x) and is_hermitian(b) \
            and _positive_definite(b):
        # the 'chol' algorithm: real eigenvalues, eigenvectors of unit B-norm
        values, v = scipy.linalg.eigh(x, b) if want_v else (scipy.linalg.eigvalsh(x, b), None)
        w = v
    else:
        with np.errstate(all="ignore"):  # beta = 0: infinite generalized eigenvalues
            found = scipy.linalg.eig(x, b, left=want_w, right=want_v)
        if want_w:
            values, w, v = found
        elif want_v:
            values, v = found
            w = None
        else:
            values, v, w = found, None, None
        if b is not None:
            v = _unit_columns(v) if v is not None else None
            w = _unit_columns(w) if w is not None else None
    d = _column(values) if form == "vector" else np.diag(np.asarray(values).reshape(-1))
    if n == 0:
        d = np.zeros((0, 1)) if form == "vector" else np.zeros((0, 0))
    if nargout <= 1:
        return out(d, inputs)
    outputs = [out(v, inputs), out(d, inputs)]
    if want_w:
        outputs.append(out(w, inputs))
    return tuple(outputs)


def _small_eigenvalues(a: np.ndarray) -> np.ndarray | None:
    """eig(A) of a small real double square matrix: the LAPACK driver scipy.linalg.eigvalsh
    (symmetric) or scipy.linalg.eig (otherwise) runs, called as they call it, with the
    structure read from a list of rows; None when A has NaN or Inf (an error) or its sum
    overflows."""
    if not small_and_finite(a):
        return None
    rows = a.tolist()
    n = len(rows)
    if rows == list(map(list, zip(*rows, strict=True))):
        driver, work = _lapack_driver("syevr", n)
        if work is None:
            return None
        values, _, _, _, info = driver(a=a, overwrite_a=False, lower=True, compute_v=0, **work)
        return result(values.reshape(-1, 1)) if info == 0 else None
    driver, work = _lapack_driver("geev", n)
    if work is None:
        return None
    real, imaginary, _, _, info = driver(a, compute_vl=False, compute_vr=False, overwrite_a=False, **work)
    return result((real + 1j * imaginary).reshape(-1, 1)) if info == 0 else None


def _small_symmetric_eigenvectors(a: np.ndarray) -> tuple | None:
    """[V,D] = eig(A) of a small real symmetric double matrix: the LAPACK driver
    scipy.linalg.eigh(A, driver="evd") runs, called as it calls it; None for other
    matrices (and NaN or Inf)."""
    if not small_and_finite(a):
        return None
    rows = a.tolist()
    if rows != list(map(list, zip(*rows, strict=True))):
        return None
    driver, work = _lapack_driver("syevd", len(rows))
    if work is None:
        return None
    values, vectors, info = driver(a=a, overwrite_a=False, lower=True, compute_v=1, **work)
    return (result(vectors), result(np.diag(values))) if info == 0 else None


@functools.lru_cache(maxsize=64)
def _lapack_driver(name: str, n: int) -> tuple[Any, dict[str, int] | None]:
    """The double LAPACK routine ``name`` (syevr or geev for values only, syevd for vectors
    too, potrf) and the workspace sizes SciPy would give it for an n-by-n matrix (None when
    the workspace query fails)."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg.lapack

    if name == "potrf":
        return scipy.linalg.lapack.get_lapack_funcs((name,), dtype=np.float64)[0], {}
    driver, query = scipy.linalg.lapack.get_lapack_funcs((name, name + "_lwork"), dtype=np.float64)
    if name == "geev":
        *sizes, info = query(n, compute_vl=False, compute_vr=False)
        names = ("lwork",)
    else:
        *sizes, info = query(n=n, lower=True, **({"compute_v": 1} if name == "syevd" else {}))
        names = ("lwork", "liwork")
    # (sizes as SciPy rounds them: down; a failed query leaves the call to the general path)
    return driver, {k: int(size.real) for k, size in zip(names, sizes, strict=True)} if info == 0 else None


def _positive_definite(b: np.ndarray) -> bool:
    import scipy.linalg  # SciPy on first use: keeps start-up fast
    try:
        scipy.linalg.cholesky(b)
    except scipy.linalg.LinAlgError:
        return False
    return True


# ----------------------------------------------------------------------- svd


@builtin(nargout=True, max_out=3)
def svd(a: Any, *args: Any, nargout: int = 1) -> object:
    """S = svd(A)
    [U,S,V] = svd(A)
    [___] = svd(A,"econ")
    [___] = svd(A,0)
    [___] = svd(___,outputForm)

    Singular value decomposition A = U*S*V': singular values in decreasing order (a
    column by default with one output, a diagonal matrix with three); "econ" drops the
    rows or columns of S that are zero, 0 only when A has more rows than columns;
    outputForm is "vector" or "matrix"."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "svd")
    econ = zero = False
    form = None
    for v in args:
        word = text_option(v)
        if word == "econ":
            econ = True
        elif word in ("vector", "matrix"):
            form = word
        elif word is None and class_of(v) in ("double", "single") and to_array(v).size == 1 \
                and to_array(v).reshape(-1)[0] == 0:
            zero = True
        else:
            raise error("MATLAB:svd:invalidOption", "Invalid option.")
    finite(x, "svd")
    m, n = x.shape
    k = min(m, n)
    if form is None:
        form = "vector" if nargout <= 1 else "matrix"
    econ = econ or (zero and m > n)
    if nargout <= 1:
        s = scipy.linalg.svdvals(x) if x.size else np.zeros(0)
        if form == "vector":
            return out(_column(s), (a,))
        rows, cols = (k, k) if econ else (m, n)
        return out(_diagonal(s, rows, cols), (a,))
    if x.size == 0:
        u, s, vh = np.eye(m), np.zeros(0), np.eye(n)
        if econ:
            u, vh = u[:, :k], vh[:k, :]
    else:
        u, s, vh = scipy.linalg.svd(x, full_matrices=not econ, lapack_driver="gesvd")
    rows, cols = u.shape[1], vh.shape[0]
    smat = _column(s) if form == "vector" else _diagonal(s, rows, cols)
    return out(u, (a,)), out(smat, (a,)), out(vh.conj().T, (a,))


def _diagonal(values: np.ndarray, rows: int, cols: int) -> np.ndarray:
    d = np.zeros((rows, cols), dtype=values.dtype)
    k = min(rows, cols, values.size)
    d[np.arange(k), np.arange(k)] = values[:k]
    return d


# ------------------------------------------------------------------------ qr


@builtin(nargout=True, max_out=3)
def qr(a: Any, *args: Any, nargout: int = 1) -> object:
    """R = qr(A)
    [Q,R] = qr(A)
    [Q,R,P] = qr(A)
    [___] = qr(A,"econ")
    [Q,R,P] = qr(A,outputForm)
    [___] = qr(A,0)

    QR decomposition A = Q*R (Q unitary, R upper triangular); with P, column pivoting
    so that A*P = Q*R (A(:,P) = Q*R with outputForm "vector") and abs(diag(R))
    decreases.  "econ" keeps the first n columns of Q and rows of R when m > n;
    qr(A,0) is qr(A,"econ","vector")."""
    if not args and nargout <= 2 and type(a) is np.ndarray and a.dtype == np.float64 and a.ndim == 2 \
            and 0 < a.shape[1] <= a.shape[0] <= 16 and small_and_finite(a):
        quick = _small_qr(a, nargout)
        if quick is not None:
            return quick
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "qr")
    econ = False
    form = "matrix"
    for v in args:
        word = text_option(v)
        if word == "econ":
            econ = True
        elif word in ("vector", "matrix"):
            form = word
        elif word is None and class_of(v) in ("double", "single") and to_array(v).size == 1 \
                and to_array(v).reshape(-1)[0] == 0:
            econ, form = True, "vector"
        else:
            raise error("MATLAB:qr:unknownOption", "Invalid option.")
    finite(x, "qr")
    m, n = x.shape
    k = min(m, n)
    mode = "economic" if econ else "full"
    pivot = nargout >= 3
    if x.size == 0:
        q = np.eye(m)[:, :k] if econ else np.eye(m)
        r = np.zeros((q.shape[1], n))
        perm = np.arange(n)
    elif pivot:
        q, r, perm = scipy.linalg.qr(x, mode=mode, pivoting=True)
    else:
        q, r = scipy.linalg.qr(x, mode=mode)
        perm = None
    if nargout <= 1:
        return out(r, (a,))
    if not pivot:
        return out(q, (a,)), out(r, (a,))
    if form == "vector":
        p = (perm + 1.0).reshape(1, -1)
    else:
        p = np.eye(n)[:, perm]
    return out(q, (a,)), out(r, (a,)), result(p)


def _small_qr(a: np.ndarray, nargout: int) -> object:
    """qr of a small finite real double matrix with no fewer rows than columns: the
    LAPACK calls scipy.linalg.qr(A) makes (geqrf, then orgqr on a square copy), with the
    workspace sizes its queries give; None should LAPACK report an error."""
    m, n = a.shape
    (geqrf, geqrf_work), (orgqr, orgqr_work) = _qr_routines(m, n)
    factors, tau, _, info = geqrf(a, lwork=geqrf_work, overwrite_a=False)
    if info < 0:
        return None
    r = result(np.triu(factors))
    if nargout <= 1:
        return r
    square = np.empty((m, m))
    square[:, :n] = factors
    q, _, info = orgqr(square, tau, lwork=orgqr_work, overwrite_a=1)
    return None if info < 0 else (result(q), r)


@functools.lru_cache(maxsize=64)
def _qr_routines(m: int, n: int) -> tuple[tuple[Any, int], tuple[Any, int]]:
    """LAPACK's double geqrf and orgqr with the workspace sizes their queries give for an
    m-by-n matrix (m >= n), as scipy.linalg.qr asks them."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg.lapack

    geqrf, orgqr = scipy.linalg.lapack.get_lapack_funcs(("geqrf", "orgqr"), dtype=np.float64)
    sample = np.ones((m, n))
    geqrf_work = int(geqrf(sample, lwork=-1)[-2][0].real)
    factors, tau, _, _ = geqrf(sample, lwork=geqrf_work)
    orgqr_work = int(orgqr(np.ones((m, m)), tau, lwork=-1)[-2][0].real)
    return (geqrf, geqrf_work), (orgqr, orgqr_work)


# ------------------------------------------------------------------------ lu


@builtin(nargout=True, max_out=3)
def lu(a: Any, *args: Any, nargout: int = 1) -> object:
    """Y = lu(A)
    [L,U] = lu(A)
    [L,U,P] = lu(A)
    [L,U,P] = lu(A,outputForm)

    LU decomposition with partial pivoting: P*A = L*U (A(P,:) = L*U with outputForm
    'vector'); with two outputs L is the permuted lower triangle (A = L*U); with one,
    Y holds U and the strictly lower part of L."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "lu")
    words = _options(args, ("vector", "matrix"), "lu")
    form = words[-1] if words else "matrix"
    m, n = x.shape
    k = min(m, n)
    if x.size == 0:
        p, lower, upper = np.eye(m), np.eye(m)[:, :k], np.zeros((k, n))
    else:
        with np.errstate(all="ignore"):  # NaN entries spread through the factors
            p, lower, upper = scipy.linalg.lu(x, check_finite=False)
    if nargout <= 1:
        y = upper.astype(np.result_type(upper, lower)).copy()
        if m > k:
            y = np.vstack([y, np.zeros((m - k, n), dtype=y.dtype)])
        y[:, :k] += np.tril(lower, -1)
        return out(y, (a,))
    if nargout == 2:
        return out(p @ lower, (a,)), out(upper, (a,))
    pm = p.T  # SciPy's A = P*L*U; MATLAB's P*A = L*U
    if form == "vector":
        perm = pm.argmax(axis=1) + 1.0 if m else np.zeros(0)
        return out(lower, (a,)), out(upper, (a,)), result(perm.reshape(1, -1))
    return out(lower, (a,)), out(upper, (a,)), result(np.ascontiguousarray(pm))


# ---------------------------------------------------------------------- chol


@builtin(nargout=True, max_out=2)
def chol(a: Any, triangle: Any = None, *, nargout: int = 1) -> object:
    """R = chol(A)
    R = chol(A,triangle)
    [R,flag] = chol(___)

    Cholesky factorization A = R'*R of a Hermitian positive definite matrix, using only
    the upper triangle of A ('lower': A = L*L' from the lower triangle).  With flag, a
    matrix that is not positive definite gives flag = p > 0 and the factor of
    A(1:p-1,1:p-1) instead of an error."""
    if triangle is None and nargout <= 1 and type(a) is np.ndarray and a.dtype == np.float64 \
            and a.ndim == 2 and 0 < a.shape[0] == a.shape[1] <= 16:
        # a small real double matrix: LAPACK's factor, its lower part already zero (clean)
        factor, info = _lapack_driver("potrf", 0)[0](a, lower=False, clean=True)
        if info == 0 and small_and_finite(factor):
            return result(factor)
    # SciPy on first use: keeps start-up fast
    import scipy.linalg.lapack

    x = lapack_matrix(a, "chol")
    lower = False
    if triangle is not None:
        word = text_option(triangle)
        if word not in ("upper", "lower"):
            raise error("MATLAB:chol:invalidOption",
                        "Shape flag must be 'upper' or 'lower'.")
        lower = word == "lower"
    square(x)
    if x.size == 0:
        return (out(x, (a,)), 0.0) if nargout >= 2 else out(x, (a,))
    (potrf,) = scipy.linalg.lapack.get_lapack_funcs(("potrf",), (x,))
    factor, info = potrf(x, lower=lower, clean=True)
    if info < 0:
        raise error("MATLAB:posdef", "Matrix must be positive definite.")
    if info > 0 or not np.isfinite(factor).all():
        if nargout < 2:
            raise error("MATLAB:posdef", "Matrix must be positive definite.")
        p = info if info > 0 else 1
        part = factor[:p - 1, :p - 1]
        part = np.tril(part) if lower else np.triu(part)
        return out(part, (a,)), float(p)
    factor = np.tril(factor) if lower else np.triu(factor)
    return (out(factor, (a,)), 0.0) if nargout >= 2 else out(factor, (a,))


# ---------------------------------------------------------------- schur, hess


@builtin(nargout=True, max_out=2)
def schur(a: Any, flag: Any = None, *, nargout: int = 1) -> object:
    """T = schur(A)
    T = schur(A,flag)
    [U,T] = schur(___)

    Schur decomposition A = U*T*U' (U unitary); T is quasi-triangular with 2-by-2 blocks
    for complex eigenvalue pairs ('real', the default for real A) or triangular
    ('complex')."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "schur")
    output = "complex" if np.iscomplexobj(x) else "real"
    if flag is not None:
        word = text_option(flag)
        if word not in ("real", "complex"):
            raise error("MATLAB:schur:InvalidInput",
                        "Second input must be 'real' or 'complex'.")
        output = "complex" if word == "complex" else output
    return _similarity_form(a, x, "schur", lambda m: scipy.linalg.schur(m, output=output), nargout)


@builtin(nargout=True, max_out=2)
def hess(a: Any, *, nargout: int = 1) -> object:
    """H = hess(A)
    [P,H] = hess(A)

    Hessenberg form A = P*H*P' (P unitary, H zero below the first subdiagonal)."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "hess")
    return _similarity_form(a, x, "hess", lambda m: scipy.linalg.hessenberg(m, calc_q=True), nargout)


def _similarity_form(a: Any, x: np.ndarray, name: str, factor: Any, nargout: int) -> object:
    """T, or [U,T], of a factorisation A = U*T*U' computed by ``factor`` (T, U)."""
    square(x)
    finite(x, name)
    t, u = (x, x) if x.size == 0 else factor(x)
    if nargout <= 1:
        return out(t, (a,))
    return out(u, (a,)), out(t, (a,))


# ------------------------------------------------------------------------ qz


def _unit_largest(v: np.ndarray) -> np.ndarray:
    """Columns scaled (by a positive factor) so that the largest component has
    |real| + |imag| = 1, LAPACK's normalization of generalized eigenvectors."""
    size = np.abs(v.real) + np.abs(v.imag)
    top = size.max(axis=0) if v.size else np.zeros(0)
    top[top == 0] = 1.0
    return v / top


def _matched(vectors: np.ndarray, found: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """The columns of ``vectors`` (for the homogeneous eigenvalues ``found``, 2-by-n)
    reordered to follow the homogeneous eigenvalues ``wanted``."""
    unused = list(range(found.shape[1]))
    order = []
    for a, b in wanted.T:
        # chordal distance: also right for infinite eigenvalues (b = 0)
        dist = [abs(a * found[1, j] - b * found[0, j]) /
                (np.hypot(abs(a), abs(b)) * np.hypot(abs(found[0, j]), abs(found[1, j])) or 1.0)
                for j in unused]
        order.append(unused.pop(int(np.argmin(dist))))
    return vectors[:, order]


@builtin(nargout=True, max_out=6)
def qz(a: Any, b: Any, mode: Any = None, *, nargout: int = 1) -> object:
    """[AA,BB,Q,Z] = qz(A,B)
    [AA,BB,Q,Z,V,W] = qz(A,B)
    [___] = qz(A,B,mode)

    Generalized Schur (QZ) factorization: Q*A*Z = AA and Q*B*Z = BB with Q and Z
    unitary.  mode "real" (the default for real A and B) gives real quasitriangular AA
    (1-by-1 and 2-by-2 diagonal blocks), "complex" triangular AA.  V and W hold the
    right and left generalized eigenvectors (A*V*diag(b) = B*V*diag(a) for a = diag(AA),
    b = diag(BB) when AA is triangular), each scaled so its largest component is 1."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x, y = lapack_matrix(a, "qz"), lapack_matrix(b, "qz")
    square(x)
    square(y)
    if x.shape != y.shape:
        raise error("MATLAB:qz:InputSizeMismatch", "A and B must be the same size.")
    finite(x, "qz")
    finite(y, "qz")
    word = _options(() if mode is None else (mode,), ("real", "complex"), "qz")
    output = word[0] if word else "real"
    if x.dtype.kind == "c" or y.dtype.kind == "c":
        output = "complex"
    n = x.shape[0]
    like = (a, b)
    if n == 0:
        empty = np.zeros((0, 0))
        return tuple(out(empty, like) for _ in range(max(nargout, 1)))
    if output == "complex":
        x, y = x.astype(np.complex128), y.astype(np.complex128)
    # every eigenvalue selected: the factorization unreordered, with its eigenvalues
    aa, bb, alpha, beta, q, z = scipy.linalg.ordqz(
        x, y, sort=lambda al, be: np.ones(np.shape(al), dtype=bool), output=output)
    results = [out(aa, like), out(bb, like), out(q.conj().T, like), out(z, like)]
    if nargout > 4:
        values, left, right = scipy.linalg.eig(x, y, left=True, right=True,
                                               homogeneous_eigvals=True)
        wanted = np.vstack([alpha, beta])
        v = _unit_largest(_matched(right, values, wanted))
        w = _unit_largest(_matched(left, values, wanted))
        results += [out(v, like), out(w, like)]
    return tuple(results[:max(nargout, 1)]) if nargout > 1 else results[0]
