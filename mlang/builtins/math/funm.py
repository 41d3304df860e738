"""funm: a scalar function of a square matrix, by the blocked Schur-Parlett method
(Taylor series on blocks of close eigenvalues, Sylvester equations between them)."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_option
from mlang.builtins.math.decompositions import finite, lapack_matrix, out, square
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import result, to_array, to_double_array
from mlang.values.handle import FunctionHandle
from mlang.values.struct import Struct

# ------------------------------------------------------------------------ funm

# The functions funm evaluates through their own matrix algorithms.
_FUNM_NAMED = {"exp": "expm", "log": "logm", "sin": "sinm", "cos": "cosm", "sinh": "sinhm",
               "cosh": "coshm"}


def _funm_options(options: Any) -> tuple[float, float, int]:
    """TolBlk, TolTay and MaxTerms of an options structure (MATLAB's defaults otherwise)."""
    values = {"TolBlk": 0.1, "TolTay": float(np.finfo(np.float64).eps), "MaxTerms": 250.0}
    if options is not None:
        if type(options) is not Struct:
            raise error("MATLAB:funm:InvalidOptions", "OPTIONS must be a structure.")
        for name, value in (options.element(0) if options.is_scalar() else {}).items():
            if name in values and to_array(value).size:
                values[name] = float(to_double_array(value).reshape(-1)[0].real)
    return values["TolBlk"], values["TolTay"], int(values["MaxTerms"])


def _clusters(eigs: np.ndarray, delta: float) -> list[list[int]]:
    """Positions of the eigenvalues grouped so that eigenvalues closer than delta (and,
    transitively, their neighbours) share a group."""
    groups: list[set[int]] = []
    for i in range(eigs.size):
        near = [g for g in groups if any(abs(eigs[i] - eigs[j]) <= delta for j in g)]
        merged = {i}.union(*near)
        groups = [g for g in groups if g not in near] + [merged]
    return [sorted(g) for g in groups]


def _schur_blocks(t: np.ndarray, u: np.ndarray, delta: float
                  ) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The Schur form reordered so that each group of close eigenvalues is contiguous,
    and the sizes of the groups in their order along the diagonal."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    sizes: list[int] = []
    start = 0
    n = t.shape[0]
    groups = _clusters(t.diagonal(), delta)
    while start < n:
        group = next(g for g in groups if 0 in g)
        if group == list(range(len(group))):  # already together at the top: no reordering
            sizes.append(len(group))
            start += len(group)
            groups = [[k - len(group) for k in g] for g in groups if g is not group]
            continue
        wanted = list(t.diagonal()[start:][group])

        def pick(x: complex, wanted: list = wanted) -> bool:
            # a triangular matrix's eigenvalues are its diagonal, exactly
            if x in wanted:
                wanted.remove(x)
                return True
            return False

        sub_t, sub_u, found = scipy.linalg.schur(t[start:, start:], output="complex", sort=pick)
        t = t.copy()
        t[start:, start:] = sub_t
        t[:start, start:] = t[:start, start:] @ sub_u
        u = u.copy()
        u[:, start:] = u[:, start:] @ sub_u
        found = max(int(found), 1)
        sizes.append(found)
        start += found
        # grouped afresh: reordering recomputes the diagonal entries it moves
        groups = _clusters(t.diagonal()[start:], delta)
    return t, u, sizes


def _taylor_block(interp: Any, fun: Any, block: np.ndarray, tol: float, max_terms: int
                  ) -> tuple[np.ndarray, bool]:
    """f of a triangular block whose eigenvalues are close: the Taylor series about
    their mean, with the derivatives fun(sigma, k)."""
    m = block.shape[0]
    sigma = complex(block.diagonal().mean())
    shifted = block - sigma * np.eye(m)
    total = np.zeros((m, m), dtype=np.complex128)
    power = np.eye(m, dtype=np.complex128)
    small = 0
    for k in range(max_terms + 1):
        coef = complex(to_double_array(_derivative(interp, fun, np.array([[sigma]]), k))
                       .reshape(-1)[0]) / math.factorial(k) if k < 171 else 0.0
        term = coef * power
        total = total + term
        size = np.abs(term).max(initial=0.0)
        small = small + 1 if size <= tol * max(np.abs(total).max(initial=0.0), 1e-300) else 0
        if k >= m and small >= 2:
            return total, True
        power = power @ shifted
    return total, False


def _derivative(interp: Any, fun: Any, x: np.ndarray, k: int) -> Any:
    return interp.call_value(fun, [result(x), float(k)], 1)[0]


@builtin(interp=True, nargout=True, max_out=2)
def funm(interp: Any, a: Any, fun: Any, options: Any = None, *, nargout: int = 1) -> object:
    """F = funm(A,fun)
    F = funm(A,fun,options)
    [F,exitflag] = funm(___)

    f(A) for a square matrix A and a scalar function f (Schur-Parlett algorithm).  fun is
    @exp, @log, @sin, @cos, @sinh or @cosh, or a handle F = fun(x,k) returning the k-th
    derivative of f at the elements of x.  options may set TolBlk (eigenvalue blocking),
    TolTay (Taylor series tolerance) and MaxTerms.  exitflag is 0 on success, 1 when a
    Taylor series did not converge."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    x = lapack_matrix(a, "funm")
    square(x)
    if not (type(fun) is FunctionHandle or text_option(fun) is not None):
        raise error("MATLAB:funm:InvalidFun", "FUN must be a function handle.")
    tol_blk, tol_tay, max_terms = _funm_options(options)
    name = fun.name if type(fun) is FunctionHandle and not fun.is_anonymous else \
        (None if type(fun) is FunctionHandle else text_option(fun))
    if x.size == 0:
        return (out(x, (a,)), 0.0) if nargout > 1 else out(x, (a,))
    finite(x, "funm")
    converged = True
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name in _FUNM_NAMED:
            f = getattr(scipy.linalg, _FUNM_NAMED[name])(x)
            if isinstance(f, tuple):
                f = f[0]
        else:
            f, converged = _schur_parlett(interp, fun, x, tol_blk, tol_tay, max_terms)
    f = np.asarray(f)
    if x.dtype.kind != "c" and f.dtype.kind == "c" and \
            np.abs(f.imag).sum(axis=0).max() <= 10 * x.shape[0] * np.finfo(float).eps * \
            max(np.abs(f).sum(axis=0).max(), 1e-300):
        f = f.real
    result_f = out(f, (a,))
    return (result_f, 0.0 if converged else 1.0) if nargout > 1 else result_f


def _schur_parlett(interp: Any, fun: Any, x: np.ndarray, tol_blk: float, tol_tay: float,
                   max_terms: int) -> tuple[np.ndarray, bool]:
    """f(X) by the blocked Schur-Parlett method: Taylor series on blocks of close
    eigenvalues, Sylvester equations between blocks."""
    # SciPy on first use: keeps start-up fast
    import scipy.linalg

    t, u = scipy.linalg.schur(x.astype(np.complex128), output="complex")
    t, u, sizes = _schur_blocks(t, u, tol_blk)
    edges = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
    n = t.shape[0]
    f = np.zeros((n, n), dtype=np.complex128)
    converged = True
    singles = [k for k in range(len(sizes)) if sizes[k] == 1]
    if singles:
        at = np.array([t[edges[k], edges[k]] for k in singles]).reshape(-1, 1)
        values = to_double_array(_derivative(interp, fun, at, 0)).reshape(-1)
        if values.size != len(singles):
            raise error("MATLAB:funm:FunOutputSize",
                        "FUN must return an array the size of its input.")
        for k, v in zip(singles, values, strict=True):
            f[edges[k], edges[k]] = v
    for k, size in enumerate(sizes):
        if size > 1:
            s = slice(edges[k], edges[k + 1])
            f[s, s], ok = _taylor_block(interp, fun, t[s, s], tol_tay, max_terms)
            converged = converged and ok
    for d in range(1, len(sizes)):  # the block superdiagonals, one after another
        for i in range(len(sizes) - d):
            j = i + d
            si, sj = slice(edges[i], edges[i + 1]), slice(edges[j], edges[j + 1])
            between = slice(edges[i + 1], edges[j])  # the blocks strictly between i and j
            rhs = f[si, si] @ t[si, sj] - t[si, sj] @ f[sj, sj] + \
                f[si, between] @ t[between, sj] - t[si, between] @ f[between, sj]
            if sizes[i] == 1 and sizes[j] == 1:
                f[si, sj] = rhs / (t[si, si] - t[sj, sj])
            else:
                f[si, sj] = scipy.linalg.solve_sylvester(t[si, si], -t[sj, sj], rhs)
    return u @ f @ u.conj().T, converged
