"""Special functions: incomplete gamma and beta functions and their inverses,
gammaln, betaln, beta, psi, expint, erfcx, erfcinv, legendre, the Bessel
and Airy functions and the elliptic integrals and functions.

All are computed with ``scipy.special``, with MATLAB's argument order.  The
inputs are double or single (logical and char count as double, integers are
refused); a single input gives a single result.  Several array inputs combine
by implicit expansion.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from mlang.builtins.coerce import checked_shape, text_option
from mlang.builtins.math.elementwise import floating, require_real
from mlang.errors import MatlabError, error
from mlang.registry import builtin
from mlang.values.core import result, to_str

# ------------------------------------------------------------------ helpers


def _operands(name: str, *values: object, real: bool = True) -> tuple[list[np.ndarray], bool]:
    """The inputs as double (or complex) arrays of one number of dimensions, checked for
    implicit expansion, and whether the result is single."""
    arrays = [floating(name, v) for v in values]
    if real:
        require_real(name, *arrays)
    single = any(a.dtype in (np.float32, np.complex64) for a in arrays)
    nd = max(a.ndim for a in arrays)
    arrays = [a.reshape(a.shape + (1,) * (nd - a.ndim)) for a in arrays]
    for axis in range(nd):
        if len({a.shape[axis] for a in arrays} - {1}) > 1:
            raise error("MATLAB:sizeDimensionsMustMatch",
                        "Arrays have incompatible sizes for this operation.")
    return [a.astype(np.complex128 if a.dtype.kind == "c" else np.float64) for a in arrays], single


def _finish(values: np.ndarray, single: bool) -> object:
    values = np.asarray(values)
    if single:
        values = values.astype(np.complex64 if values.dtype.kind == "c" else np.float32)
    return result(values)


def _compute(fn: Callable, *arrays: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.asarray(fn(*arrays))


def _choice(name: str, v: object, choices: tuple[str, ...], what: str) -> str:
    text = text_option(v)
    if text not in choices:
        quoted = ", ".join(f"'{c}'" for c in choices)
        raise error(f"MATLAB:{name}:InvalidType",
                    f"{what} must be one of {quoted}; got '{to_str(v) if text is not None else ''}'.")
    return text  # type: ignore[return-value]


def _nonnegative(name: str, a: np.ndarray, what: str) -> None:
    if (a < 0).any():
        raise error(f"MATLAB:{name}:NegativeArg", f"{what} must be nonnegative.")


# ----------------------------------------------------------- gamma and beta


@builtin()
def gammainc(x: object, a: object, kind: object = None) -> object:
    """Y = gammainc(X,A)
    Y = gammainc(X,A,type)
    Y = gammainc(X,A,scale)

    Regularized incomplete gamma function P(X,A); type 'lower' (default) or 'upper',
    scale 'scaledlower' or 'scaledupper'."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    which = "lower" if kind is None else _choice(
        "gammainc", kind, ("lower", "upper", "scaledlower", "scaledupper"), "Type")
    (xs, av), single = _operands("gammainc", x, a)
    _nonnegative("gammainc", av, "A")
    if which in ("lower", "upper"):
        fn = special.gammainc if which == "lower" else special.gammaincc
        out = _compute(fn, av, xs)
        if (xs < 0).any():
            out = _negative_x(out, av, xs, which)
    elif which == "scaledlower":
        # P(x,a)*Gamma(a+1)*exp(x)/x^a is Kummer's function 1F1(1; a+1; x)
        out = _compute(lambda p, q: special.hyp1f1(1.0, p + 1.0, q), av, xs)
    else:
        # Q(x,a)*Gamma(a+1)*exp(x)/x^a is a*U(1, a+1, x), Tricomi's function
        out = _compute(lambda p, q: np.where(q == 0, np.inf, p * special.hyperu(1.0, p + 1.0, q)),
                       av, xs)
        out = np.where((av == 0) & (xs > 0), 0.0, out)
    return _finish(out, single)


def _negative_x(out: np.ndarray, a: np.ndarray, x: np.ndarray, which: str) -> np.ndarray:
    """P (or Q = 1-P) at negative x, from P(x,a) = x^a*exp(-x)/Gamma(a+1)*1F1(1;a+1;x):
    real for whole a, complex otherwise."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    a, x = np.broadcast_arrays(a, x)
    with np.errstate(all="ignore"):
        power = np.where(a == np.round(a), (-1.0) ** a * np.abs(x) ** a + 0j,
                         (x + 0j) ** a)
        lower = power * np.exp(-x) / special.gamma(a + 1) * special.hyp1f1(1.0, a + 1.0, x)
    value = lower if which == "lower" else 1 - lower
    return np.where(x < 0, value, out)


@builtin()
def gammaincinv(y: object, a: object, kind: object = None) -> object:
    """X = gammaincinv(Y,A)
    X = gammaincinv(Y,A,type)

    Inverse of the regularized incomplete gamma function: gammainc(X,A,type) is Y;
    type 'lower' (default) or 'upper'."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    which = "lower" if kind is None else _choice("gammaincinv", kind, ("lower", "upper"), "Type")
    (ys, av), single = _operands("gammaincinv", y, a)
    _nonnegative("gammaincinv", av, "A")
    if ((ys < 0) | (ys > 1)).any():
        raise error("MATLAB:gammaincinv:YOutOfRange", "Y must be in the interval [0,1].")
    fn = special.gammaincinv if which == "lower" else special.gammainccinv
    return _finish(_compute(fn, av, ys), single)


@builtin()
def gammaln(a: object) -> object:
    """Y = gammaln(A)

    Logarithm of the gamma function, without the overflow of log(gamma(A));
    Inf for A <= 0."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    (av,), single = _operands("gammaln", a)
    out = _compute(lambda p: np.where(p <= 0, np.inf, special.gammaln(p)), av)
    return _finish(out, single)


_TAILS = ("lower", "upper")


@builtin()
def betainc(x: object, z: object, w: object, tail: object = None) -> object:
    """I = betainc(X,Z,W)
    I = betainc(X,Z,W,tail)

    Regularized incomplete beta function I_X(Z,W); tail 'lower' (default) or 'upper'.
    X must be in [0,1], Z and W nonnegative."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    which = "lower" if tail is None else _choice("betainc", tail, _TAILS, "Tail")
    (xs, zs, ws), single = _operands("betainc", x, z, w)
    if ((xs < 0) | (xs > 1)).any():
        raise error("MATLAB:betainc:XOutOfRange", "X must be in the interval [0,1].")
    _nonnegative("betainc", np.concatenate([zs.ravel(), ws.ravel()]), "Z and W")
    fn = special.betainc if which == "lower" else special.betaincc
    return _finish(_compute(fn, zs, ws, xs), single)


@builtin()
def betaincinv(y: object, z: object, w: object, tail: object = None) -> object:
    """X = betaincinv(Y,Z,W)
    X = betaincinv(Y,Z,W,tail)

    Inverse of the regularized incomplete beta function: betainc(X,Z,W,tail) is Y;
    tail 'lower' (default) or 'upper'."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    which = "lower" if tail is None else _choice("betaincinv", tail, _TAILS, "Tail")
    (ys, zs, ws), single = _operands("betaincinv", y, z, w)
    if ((ys < 0) | (ys > 1)).any():
        raise error("MATLAB:betaincinv:YOutOfRange", "Y must be in the interval [0,1].")
    fn = special.betaincinv if which == "lower" else special.betainccinv
    return _finish(_compute(fn, zs, ws, ys), single)


@builtin()
def betaln(z: object, w: object) -> object:
    """L = betaln(Z,W)

    Logarithm of the beta function, log(beta(Z,W)) without overflow."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    (zs, ws), single = _operands("betaln", z, w)
    return _finish(_compute(special.betaln, zs, ws), single)


@builtin()
def beta(z: object, w: object) -> object:
    """B = beta(Z,W)

    Beta function, gamma(Z)*gamma(W)/gamma(Z+W)."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    (zs, ws), single = _operands("beta", z, w)
    return _finish(_compute(special.beta, zs, ws), single)


@builtin()
def psi(k: object, x: object = None) -> object:
    """Y = psi(X)
    Y = psi(k,X)

    Digamma function of X, or with k its k-th derivative (the polygamma function)."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    if x is None:
        (xs,), single = _operands("psi", k)
        return _finish(_compute(special.digamma, xs), single)
    (ks,), _ = _operands("psi", k)
    if ks.size != 1 or not math.isfinite(ks.ravel()[0]) or ks.ravel()[0] < 0 \
            or ks.ravel()[0] != math.floor(ks.ravel()[0]):
        raise error("MATLAB:psi:NonIntegerDerivative",
                    "K must be a nonnegative integer scalar.")
    n = int(ks.ravel()[0])
    (xs,), single = _operands("psi", x)
    fn = special.digamma if n == 0 else (lambda v: special.polygamma(n, v))
    return _finish(_compute(fn, xs), single)


@builtin()
def expint(x: object) -> object:
    """Y = expint(X)

    Exponential integral E1(X), the integral from X to Inf of exp(-t)/t; complex
    for negative X."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    (xs,), single = _operands("expint", x, real=False)
    if xs.dtype.kind != "c" and (xs < 0).any():
        xs = xs.astype(np.complex128)
    return _finish(_compute(special.exp1, xs), single)


@builtin()
def erfcx(x: object) -> object:
    """Y = erfcx(X)

    Scaled complementary error function, exp(X.^2).*erfc(X) without underflow."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    (xs,), single = _operands("erfcx", x)
    return _finish(_compute(special.erfcx, xs), single)


@builtin()
def erfcinv(x: object) -> object:
    """X = erfcinv(Y)

    Inverse complementary error function, for 0 <= Y <= 2 (NaN outside)."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    (xs,), single = _operands("erfcinv", x)
    return _finish(_compute(special.erfcinv, xs), single)


# ----------------------------------------------------------------- legendre


@builtin()
def legendre(n: object, x: object, normalization: object = None) -> object:
    """P = legendre(n,X)
    P = legendre(n,X,normalization)

    Associated Legendre functions of degree n and orders m = 0..n at each element of X
    (in [-1,1]): a (n+1)-by-size(X) array; normalization 'unnorm' (default), 'sch'
    (Schmidt semi-normalized) or 'norm' (fully normalized)."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    kind = "unnorm" if normalization is None else _choice(
        "legendre", normalization, ("unnorm", "sch", "norm"), "Normalization")
    (ns,), _ = _operands("legendre", n)
    deg = float(ns.ravel()[0]) if ns.size == 1 else -1.0
    if not math.isfinite(deg) or deg < 0 or deg != math.floor(deg):
        raise error("MATLAB:legendre:NeedIntegerDeg", "N must be a positive scalar integer.")
    (xs,), single = _operands("legendre", x)
    if ((xs < -1) | (xs > 1)).any():
        raise error("MATLAB:legendre:OutOfRangeX", "X must be real and in the range (-1,1).")
    nd = int(deg)
    flat = xs.ravel(order="F")
    shape = (nd + 1,) + ((flat.size,) if xs.ndim == 2 and min(xs.shape) == 1 else xs.shape)
    checked_shape(shape, "double")
    orders = np.arange(nd + 1, dtype=np.float64)[:, None]
    with np.errstate(all="ignore"):
        values = special.lpmv(orders, float(nd), flat[None, :])
        if kind != "unnorm":
            # the factors remove the Condon-Shortley phase (-1)^m, as MATLAB's definitions do
            m = np.arange(nd + 1)
            ratio = np.exp(special.gammaln(nd - m + 1) - special.gammaln(nd + m + 1))
            if kind == "sch":
                factor = np.where(m == 0, 1.0, (-1.0) ** m * np.sqrt(2 * ratio))
            else:
                factor = (-1.0) ** m * np.sqrt((nd + 0.5) * ratio)
            values = values * factor[:, None]
    return _finish(values.reshape(shape, order="F"), single)


# ------------------------------------------------------------------- Bessel


def _scaled(name: str, scale: object) -> bool:
    if scale is None:
        return False
    try:
        s = floating(name, scale)
    except MatlabError:
        s = np.array([np.nan])
    if s.size != 1 or s.ravel()[0] not in (0, 1):
        raise error(f"MATLAB:{name}:InvalidScale", "Scale must be 0 or 1.")
    return bool(s.ravel()[0] == 1)


def _bessel(name: str, plain: Callable, scaled: Callable, nu: object, z: object,
            scale: object, needs_complex: Callable, nargout: int) -> object:
    use_scaled = _scaled(name, scale)
    require_real(name, floating(name, nu))
    (nus, zs), single = _operands(name, nu, z, real=False)
    if zs.dtype.kind != "c" and needs_complex(nus, zs).any():
        zs = zs.astype(np.complex128)
    out = _compute(scaled if use_scaled else plain, nus, zs)
    value = _finish(out, single)
    if nargout > 1:
        return value, result(np.zeros(np.shape(out)))
    return value


def _noninteger(nu: np.ndarray) -> np.ndarray:
    return nu != np.floor(nu)


@builtin(nargout=True, max_out=2)
def besselj(nu: object, z: object, scale: object = None, *, nargout: int = 1) -> object:
    """J = besselj(nu,Z)
    J = besselj(nu,Z,scale)
    [J,ierr] = besselj(___)

    Bessel function of the first kind; scale 1 multiplies by exp(-abs(imag(Z)))."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    return _bessel("besselj", special.jv, special.jve, nu, z, scale,
                   lambda n, v: (v < 0) & _noninteger(n), nargout)


@builtin(nargout=True, max_out=2)
def bessely(nu: object, z: object, scale: object = None, *, nargout: int = 1) -> object:
    """Y = bessely(nu,Z)
    Y = bessely(nu,Z,scale)
    [Y,ierr] = bessely(___)

    Bessel function of the second kind; scale 1 multiplies by exp(-abs(imag(Z)))."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    return _bessel("bessely", special.yv, special.yve, nu, z, scale,
                   lambda n, v: v < 0, nargout)


@builtin(nargout=True, max_out=2)
def besseli(nu: object, z: object, scale: object = None, *, nargout: int = 1) -> object:
    """I = besseli(nu,Z)
    I = besseli(nu,Z,scale)
    [I,ierr] = besseli(___)

    Modified Bessel function of the first kind; scale 1 multiplies by exp(-abs(real(Z)))."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    return _bessel("besseli", special.iv, special.ive, nu, z, scale,
                   lambda n, v: (v < 0) & _noninteger(n), nargout)


@builtin(nargout=True, max_out=2)
def besselk(nu: object, z: object, scale: object = None, *, nargout: int = 1) -> object:
    """K = besselk(nu,Z)
    K = besselk(nu,Z,scale)
    [K,ierr] = besselk(___)

    Modified Bessel function of the second kind; scale 1 multiplies by exp(Z)."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    return _bessel("besselk", special.kv, special.kve, nu, z, scale,
                   lambda n, v: v < 0, nargout)


@builtin(nargout=True, max_out=2)
def besselh(nu: object, *args: object, nargout: int = 1) -> object:
    """H = besselh(nu,Z)
    H = besselh(nu,K,Z)
    H = besselh(nu,K,Z,scale)
    [H,ierr] = besselh(___)

    Hankel function of kind K (1, the default, or 2); scale 1 multiplies H1 by
    exp(-1i*Z) and H2 by exp(1i*Z)."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    if len(args) > 3:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    kind: object = 1.0
    scale = None
    if len(args) == 1:
        z = args[0]
    else:
        kind, z = args[0], args[1]
        scale = args[2] if len(args) == 3 else None
    k = floating("besselh", kind)
    if k.size != 1 or k.ravel()[0] not in (1, 2):
        raise error("MATLAB:besselh:InvalidKind", "K must be 1 or 2.")
    if k.ravel()[0] == 1:
        plain, scaled = special.hankel1, special.hankel1e
    else:
        plain, scaled = special.hankel2, special.hankel2e
    return _bessel("besselh", plain, scaled, nu, z, scale,
                   lambda n, v: np.ones(v.shape, dtype=bool), nargout)


@builtin(nargout=True, max_out=2)
def airy(*args: object, nargout: int = 1) -> object:
    """W = airy(Z)
    W = airy(k,Z)
    W = airy(k,Z,scale)
    [W,ierr] = airy(___)

    Airy functions: k = 0 Ai (default), 1 Ai', 2 Bi, 3 Bi'; scale 1 multiplies Ai and
    Ai' by exp(2/3*Z.^(3/2)) and Bi and Bi' by exp(-abs(real(2/3*Z.^(3/2))))."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    if len(args) > 3:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    kind = 0
    z = args[-1] if len(args) < 3 else args[1]
    if len(args) >= 2:
        k = floating("airy", args[0])
        if k.size != 1 or k.ravel()[0] not in (0, 1, 2, 3):
            raise error("MATLAB:airy:InvalidK", "K must be an integer, 0, 1, 2, or 3.")
        kind = int(k.ravel()[0])
    use_scaled = _scaled("airy", args[2]) if len(args) == 3 else False
    (zs,), single = _operands("airy", z, real=False)
    if use_scaled and zs.dtype.kind != "c" and (zs < 0).any():
        zs = zs.astype(np.complex128)  # Z.^(3/2) of a negative Z is complex
    out = _compute(special.airye if use_scaled else special.airy, zs)[kind]
    value = _finish(out, single)
    if nargout > 1:
        return value, result(np.zeros(out.shape))
    return value


# ----------------------------------------------------------------- elliptic


def _parameter(name: str, m: object) -> tuple[np.ndarray, bool]:
    (ms,), single = _operands(name, m)
    if ((ms < 0) | (ms > 1)).any():
        raise error(f"MATLAB:{name}:MOutOfRange", "M must be in the range 0 <= M <= 1.")
    return ms, single


@builtin(nargout=True, max_out=2)
def ellipke(m: object, tol: object = None, *, nargout: int = 1) -> object:
    """K = ellipke(M)
    [K,E] = ellipke(M)
    [K,E] = ellipke(M,tol)

    Complete elliptic integrals of the first (K) and second (E) kind, for 0 <= M <= 1."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    ms, single = _parameter("ellipke", m)
    k = _finish(_compute(special.ellipk, ms), single)
    if nargout < 2:
        return k
    return k, _finish(_compute(special.ellipe, ms), single)


@builtin(nargout=True, max_out=3)
def ellipj(u: object, m: object, tol: object = None, *, nargout: int = 1) -> object:
    """[SN,CN,DN] = ellipj(U,M)
    [SN,CN,DN] = ellipj(U,M,tol)

    Jacobi elliptic functions of U with parameter M (0 <= M <= 1)."""
    from scipy import special  # SciPy on first use: keeps start-up fast

    ms, single = _parameter("ellipj", m)
    (us, ms), single_u = _operands("ellipj", u, ms)
    sn, cn, dn, _ = _compute(lambda a, b: np.stack(special.ellipj(a, b)), us, ms)
    single = single or single_u
    return _finish(sn, single), _finish(cn, single), _finish(dn, single)
