"""Polynomials and interpolation: conv, deconv, poly, polyfit, polyval, roots, polyder,
polyint, polyvalm, cplxpair, residue and interp1."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.coerce import checked_shape, dim_argument, integer_scalar, text_option
from mlang.builtins.data.shape import first_nonsingleton, padded
from mlang.builtins.math.linalg import as_floats, float_result, is_vector_array
from mlang.errors import error, warn
from mlang.registry import builtin
from mlang.values.core import class_of, fix_shape, result, to_double_array
from mlang.values.struct import Struct


def _vector(x: object, name: str, message: str, identifier: str) -> np.ndarray:
    a = as_floats(x, name)
    if not (is_vector_array(a) or a.size == 0 and a.ndim == 2):
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
    return float_result(out, u, v)


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
        with np.errstate(all="ignore"):  # NaN/Inf/overflow follow IEEE arithmetic, as in MATLAB
            for k in range(q.size):
                q[k] = rest[k] / d[0]
                rest[k: k + d.size] -= q[k] * d
            r = p - np.convolve(d, q)
    qo = q.reshape(-1, 1) if column else q.reshape(1, -1)
    if nargout <= 1:
        return float_result(qo, y, a)
    return float_result(qo, y, a), float_result(r.reshape(num.shape), y, a)


@builtin(max_out=3, nargout=True)
def polyfit(x: Any, y: Any, n: Any, *, nargout: int = 1) -> object:
    """p = polyfit(x,y,n)
    [p,S] = polyfit(x,y,n)
    [p,S,mu] = polyfit(x,y,n)

    Least-squares polynomial fit of degree n (coefficients in descending powers).
    With mu, x is centred and scaled: (x - mu(1)) / mu(2)."""
    xs, ys = as_floats(x, "polyfit").reshape(-1, order="F"), as_floats(y, "polyfit").reshape(-1, order="F")
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
        rhs = q.conj().T @ ys
        # NaN/Inf data: MATLAB's fit is all NaN (LAPACK would complain on the terminal)
        if not (np.all(np.isfinite(r)) and np.all(np.isfinite(rhs))):
            coeffs = np.full(degree + 1, np.nan)
        else:
            try:
                coeffs = np.linalg.lstsq(r, rhs, rcond=None)[0] if xs.size <= degree else \
                    np.linalg.solve(r, rhs)
            except np.linalg.LinAlgError:
                coeffs = np.full(degree + 1, np.nan)
    if xs.size <= degree:
        warn("MATLAB:polyfit:PolyNotUnique",
             "Polynomial is not unique; degree >= number of data points.")
    p = float_result(coeffs.reshape(1, -1), x, y)
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
    coeffs = as_floats(p, "polyval")
    if not (is_vector_array(coeffs) or coeffs.size == 0):
        raise error("MATLAB:polyval:InvalidP", "Input argument P must be a vector.")
    points = as_floats(x, "polyval")
    if mu is not None:
        m = to_double_array(mu).reshape(-1)
        if m.size < 2:
            raise error("MATLAB:polyval:InvalidMu", "MU must be a two-element vector.")
        points = (points - m[0]) / m[1]
    out = np.zeros(points.shape, dtype=np.result_type(coeffs, points))
    terms = coeffs.reshape(-1)
    if terms.size:
        out[...] = terms[0]  # Horner's rule starts from p(1), so p(1)*Inf is not 0*Inf
    with np.errstate(all="ignore"):  # overflow gives Inf, as in MATLAB
        for c in terms[1:]:
            out = out * points + c
    return float_result(out, p, x)


@builtin()
def roots(c: Any) -> object:
    """r = roots(p)

    Roots of the polynomial p (descending powers) as a column vector."""
    coeffs = as_floats(c, "roots")
    if not (is_vector_array(coeffs) or coeffs.size == 0):
        raise error("MATLAB:roots:NonVectorInput", "Input must be a vector.")
    values = coeffs.reshape(-1)
    if not np.all(np.isfinite(values)):
        raise error("MATLAB:roots:NonFiniteInput", "Input to ROOTS must not contain NaN or Inf.")
    nonzero = np.flatnonzero(values)
    if nonzero.size == 0:
        return float_result(np.zeros((0, 1)), c)
    trailing = values.size - 1 - nonzero[-1]
    values = values[nonzero[0]: nonzero[-1] + 1]
    # A leading coefficient so small that dividing by it overflows is a relative
    # zero: MATLAB drops such leading terms until the quotients are finite.
    with np.errstate(all="ignore"):
        ratios = values[1:] / values[0]
        while not np.all(np.isfinite(ratios)):
            values = values[1:]
            ratios = values[1:] / values[0]
    found = np.zeros(0, dtype=values.dtype)
    if values.size > 1:
        companion = np.diag(np.ones(values.size - 2), -1).astype(values.dtype)
        companion[0, :] = -ratios
        found = np.linalg.eigvals(companion)
    # the roots at zero (from trailing zero coefficients) come first, as in MATLAB
    out = np.concatenate([np.zeros(trailing, dtype=found.dtype), found]).reshape(-1, 1)
    return float_result(out, c)


@builtin()
def poly(r: Any) -> object:
    """p = poly(r)
    p = poly(A)

    Coefficients (descending powers) of the polynomial whose roots are the
    elements of the vector r, or the characteristic polynomial of the square
    matrix A. Infinite and NaN roots are left out."""
    values = as_floats(r, "poly")
    if values.ndim == 2 and values.shape[0] == values.shape[1] and values.size != 1:
        if not np.all(np.isfinite(values)):
            raise error("MATLAB:eig:matrixWithNaNInf", "Input to EIG must not contain NaN or Inf.")
        found = np.linalg.eigvals(values) if values.size else np.zeros(0, dtype=values.dtype)
    elif is_vector_array(values):
        found = values.reshape(-1)
    else:
        raise error("MATLAB:poly:InputSize", "Argument must be a vector or a square matrix.")
    found = found[np.isfinite(found)]
    coeffs = np.zeros(found.size + 1, dtype=np.result_type(found, values))
    coeffs[0] = 1
    with np.errstate(all="ignore"):
        for j, z in enumerate(found, start=1):
            coeffs[1: j + 1] = coeffs[1: j + 1] - z * coeffs[:j]
    if coeffs.dtype.kind == "c":
        upper, lower = found[found.imag > 0], np.conj(found[found.imag < 0])
        # complex-conjugate roots make a real polynomial
        if upper.size == lower.size and np.array_equal(np.sort(upper), np.sort(lower)):
            coeffs = coeffs.real.copy()
    return float_result(coeffs.reshape(1, -1), r)


def _coeff_row(v: object, name: str) -> np.ndarray:
    c = as_floats(v, name)
    if not (is_vector_array(c) or c.size == 0):
        raise error(f"MATLAB:{name}:InvalidInput", "Input arguments must be vectors.")
    return c.reshape(-1)


def _derivative(c: np.ndarray) -> np.ndarray:
    n = c.size
    return c[:-1] * np.arange(n - 1, 0, -1) if n >= 2 else np.zeros(1)


def _strip_leading_zeros(c: np.ndarray) -> np.ndarray:
    nonzero = np.flatnonzero(c != 0)
    return c[nonzero[0]:] if nonzero.size else np.zeros(1, dtype=c.dtype)


@builtin(max_out=2, nargout=True)
def polyder(u: Any, v: Any = None, *, nargout: int = 1) -> object:
    """k = polyder(p)
    k = polyder(a,b)
    [q,d] = polyder(a,b)

    Derivative of the polynomial p, of the product a*b, or (two outputs) of
    the quotient a/b as q/d. Leading zeros are removed."""
    a = _coeff_row(u, "polyder")
    b = np.ones(1) if v is None else _coeff_row(v, "polyder")
    with np.errstate(all="ignore"):  # Inf and NaN coefficients follow IEEE arithmetic
        first = np.convolve(_derivative(a), b) if b.size else np.zeros(0)
        second = np.convolve(a, _derivative(b)) if a.size else np.zeros(0)
        size = max(first.size, second.size)
        first = np.concatenate([np.zeros(size - first.size, dtype=first.dtype), first])
        second = np.concatenate([np.zeros(size - second.size, dtype=second.dtype), second])
        numerator = first - second if nargout >= 2 else first + second
    inputs = (u,) if v is None else (u, v)
    q = float_result(_strip_leading_zeros(numerator).reshape(1, -1), *inputs)
    if nargout < 2:
        return q
    denominator = _strip_leading_zeros(np.convolve(b, b) if b.size else np.zeros(1))
    return q, float_result(denominator.reshape(1, -1), *inputs)


@builtin()
def polyint(p: Any, k: Any = 0.0) -> object:
    """q = polyint(p)
    q = polyint(p,k)

    Integral of the polynomial p (descending powers) with constant of
    integration k (default 0)."""
    c = _coeff_row(p, "polyint")
    constant = as_floats(k, "polyint")
    if constant.size != 1:
        raise error("MATLAB:polyint:InvalidInput", "Constant of integration must be a scalar.")
    out = np.concatenate([c / np.arange(c.size, 0, -1), constant.reshape(-1)])
    return float_result(out.reshape(1, -1), p, k)


@builtin()
def polyvalm(p: Any, x: Any) -> object:
    """Y = polyvalm(p,X)

    Evaluate the polynomial p in the matrix sense: p(1)*X^n + ... + p(n+1)*I
    for a square matrix X."""
    c = as_floats(p, "polyvalm")
    if not (is_vector_array(c) or c.size == 0):
        raise error("MATLAB:polyvalm:InvalidP", "Input argument P must be a vector.")
    m = as_floats(x, "polyvalm")
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise error("MATLAB:polyvalm:NonSquareMatrix", "Matrix must be square.")
    eye = np.eye(m.shape[0])
    out = np.zeros(m.shape, dtype=np.result_type(c, m))
    with np.errstate(all="ignore"):
        for coefficient in c.reshape(-1):  # Horner's rule with matrix products
            out = out @ m + coefficient * eye
    return float_result(out, p, x)


def _paired(z: np.ndarray, tol: float) -> np.ndarray:
    """One vector's values in conjugate pairs (increasing real part, the negative imaginary
    part first), then its real values in increasing order."""
    is_real = np.abs(z.imag) <= tol * np.abs(z)
    reals = np.sort(z.real[is_real])
    rest = z[~is_real]
    rest = rest[np.argsort(rest.real, kind="stable")]
    failure = error("MATLAB:cplxpair:ComplexValuesPaired", "Complex numbers can't be paired.")
    if rest.size % 2:
        raise failure
    pairs = []
    q = 0
    while q < rest.size:
        td = tol * abs(rest[q])
        close = np.abs(rest.real[q:] - rest.real[q]) <= td
        count = int(np.argmin(close)) if not close.all() else close.size
        if count % 2:
            raise failure
        group = rest[q: q + count]
        group = group[np.argsort(group.imag, kind="stable")]
        half = count // 2
        lower, upper = group[:half], group[half:][::-1]
        if np.any(np.abs(lower - np.conj(upper)) > td):
            raise failure
        pairs.append(np.stack([lower, np.conj(lower)], axis=1).reshape(-1))
        q += count
    return np.concatenate([*pairs, reals.astype(z.dtype)])


@builtin()
def cplxpair(a: Any, tol: Any = None, dim: Any = None) -> object:
    """B = cplxpair(A)
    B = cplxpair(A,tol)
    B = cplxpair(A,[],dim)

    Sort complex numbers into complex conjugate pairs: pairs by increasing
    real part, the one with negative imaginary part first, then the real
    numbers. tol (default 100*eps) is relative to abs(A)."""
    values = as_floats(a, "cplxpair")
    single = class_of(a) == "single"
    tolerance = 100 * float(np.finfo(np.float32 if single else np.float64).eps)
    if tol is not None and not (type(tol) is np.ndarray and tol.size == 0):
        t = to_double_array(tol)
        if t.size != 1 or t.dtype.kind == "c" or not 0 <= float(t.reshape(-1)[0]) < 1:
            raise error("MATLAB:cplxpair:InvalidTol", "Tolerance must be a real scalar in [0,1).")
        tolerance = float(t.reshape(-1)[0])
    if values.size == 0:
        return a
    axis = first_nonsingleton(values.shape) if dim is None else dim_argument(dim)
    z = np.moveaxis(padded(values, axis + 1), axis, -1).astype(np.complex128)
    out = np.empty(z.shape, dtype=np.complex128)
    for index in np.ndindex(z.shape[:-1]):
        out[index] = _paired(z[index], tolerance)
    return float_result(np.moveaxis(out, -1, axis).reshape(fix_shape(values.shape)), a)


@builtin(max_out=3, nargout=True)
def residue(b: Any, a: Any, k: Any = None, *, nargout: int = 1) -> object:
    """[r,p,k] = residue(b,a)
    [b,a] = residue(r,p,k)

    Partial fraction expansion of b(s)/a(s): residues r and poles p (columns,
    poles by decreasing magnitude, a repeated pole once per power) and the
    direct term k (a row, [] when there is none); with three inputs, the
    polynomials back from the expansion."""
    # SciPy on first use: keeps start-up fast
    from scipy import signal as sps

    if k is not None:
        r = as_floats(b, "residue").reshape(-1)
        poles = as_floats(a, "residue").reshape(-1)
        direct = as_floats(k, "residue").reshape(-1)
        if r.size != poles.size:
            raise error("MATLAB:residue:InvalidInput", "R and P must be the same length.")
        if r.size == 0:  # no fractions: b/a is the direct term alone
            return float_result((direct if direct.size else np.zeros(1)).reshape(1, -1), b, a, k), \
                float_result(np.ones((1, 1)), b, a, k)
        num, den = sps.invres(r, poles, direct)
        num, den = np.real_if_close(num, tol=1000), np.real_if_close(den, tol=1000)
        return float_result(np.atleast_1d(num).reshape(1, -1), b, a, k), \
            float_result(np.atleast_1d(den).reshape(1, -1), b, a, k)
    num = _coeff_row(b, "residue")
    den = _coeff_row(a, "residue")
    nonzero = np.flatnonzero(den)
    if nonzero.size == 0:
        raise error("MATLAB:residue:InvalidInput", "Denominator must have a nonzero coefficient.")
    r, poles, direct = sps.residue(num, den[nonzero[0]:])
    # MATLAB lists distinct poles by decreasing magnitude; a repeated pole's terms stay together
    groups: list[list[int]] = []
    for j in range(poles.size):
        if groups and poles[j] == poles[groups[-1][0]]:
            groups[-1].append(j)
        else:
            groups.append([j])
    groups.sort(key=lambda g: -abs(poles[g[0]]))
    order = [j for g in groups for j in g]
    r_out = float_result(np.asarray(r)[order].reshape(-1, 1), b, a)
    p_out = float_result(np.asarray(poles)[order].reshape(-1, 1), b, a)
    k_out = float_result(np.asarray(direct).reshape(1, -1) if np.size(direct)
                         else np.zeros((0, 0)), b, a)
    return (r_out, p_out, k_out)[:max(nargout, 1)] if nargout > 1 else r_out


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
        vv = as_floats(v, "interp1")
        n = vv.shape[0] if not is_vector_array(vv) else vv.size
        x = np.arange(1, n + 1, dtype=np.float64)
    elif len(numeric) in (3, 4) and (len(numeric) == 3 or not rest):
        x = as_floats(numeric[0], "interp1").reshape(-1)
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
    vv = as_floats(v, "interp1")
    vector_v = is_vector_array(vv)
    table = (vv.reshape(-1, 1) if vector_v
             else vv.reshape(vv.shape[0], math.prod(vv.shape[1:]), order="F"))
    if table.shape[0] != x.size:
        raise error("MATLAB:interp1:YInvalidNumRows",
                    "The grid vectors do not define a grid of points that match the given values.")
    query = as_floats(xq, "interp1")
    # the sample and query points are coordinates: real, and (the samples) never NaN;
    # the values may be complex
    if x.dtype.kind == "c":
        raise error("MATLAB:interp1:ComplexX", "Input coordinates must be real.")
    if query.dtype.kind == "c":
        raise error("MATLAB:interp1:ComplexInterpPts", "Input coordinates must be real.")
    if np.isnan(x).any():
        raise error("MATLAB:interp1:NaNinX", "NaN is not an appropriate value for X.")
    if x.size < 2:
        raise error("MATLAB:interp1:NotEnoughPts",
                    "Interpolation requires at least two sample points for each grid dimension.")
    order = np.argsort(x, kind="stable")
    x, table = x[order], table[order]
    if np.any(np.diff(x) == 0):
        raise error("MATLAB:interp1:RepeatedValuesX", "The grid vectors must contain unique points.")
    points = query.reshape(-1, order="F")
    if table.dtype.kind == "c" and method not in ("linear", "nearest", "next", "previous"):
        # the real and imaginary parts are interpolated apart (pchip's shape rules
        # compare signs, which complex numbers lack)
        out = _interpolate(x, table.real.copy(), points, method) \
            + 1j * _interpolate(x, table.imag.copy(), points, method)
    else:
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
            if np.iscomplexobj(fill) and fill.imag != 0:
                out = out.astype(np.complex128)  # a complex fill value makes the result complex
    if extrapolate and method == "linear":
        out = _linear(x, table, points, extrapolate=True)
    elif not extrapolate:
        out[(points < x[0]) | (points > x[-1])] = fill
    if vector_v:
        shaped = out.reshape(query.shape, order="F")
    else:
        lead = (points.size,) if is_vector_array(query) else query.shape
        shaped = out.reshape(lead + vv.shape[1:], order="F")
    return float_result(shaped.reshape(fix_shape(shaped.shape)), *inputs)


def _interpolate(x: np.ndarray, table: np.ndarray, points: np.ndarray, method: str) -> np.ndarray:
    if method == "linear":
        return _linear(x, table, points, extrapolate=False)
    if method in ("nearest", "next", "previous"):
        return _stepwise(x, table, points, method)
    if method in ("pchip", "cubic"):
        out = _hermite(x, table, pchip_slopes(x, table), points)
    elif method == "spline" and x.size <= _DENSE_SPLINE_LIMIT:
        out = _spline(x, table, points)
    else:
        # scipy is heavy: imported on first use (only for makima and very long splines)
        from scipy import interpolate

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


def pchip_slopes(x: np.ndarray, y: np.ndarray) -> np.ndarray:
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
