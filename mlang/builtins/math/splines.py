"""Piecewise polynomials: spline, pchip, makima, mkpp, ppval and unmkpp.

A piecewise polynomial is MATLAB's pp struct: form 'pp', breaks (a row),
coefs (one row of descending-power coefficients in the local variable
x - breaks(i) for each component of each piece, components varying
fastest), pieces, order and dim."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.math.linalg import as_floats, float_result, is_vector_array
from mlang.builtins.math.polynomials import pchip_slopes
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, fix_shape, result, to_double_array, to_str
from mlang.values.struct import Struct


def _pp(breaks: np.ndarray, coefs: np.ndarray, dim: tuple[int, ...], *inputs: object) -> Struct:
    pieces = breaks.size - 1
    return Struct.scalar({
        "form": char_row("pp"),
        "breaks": float_result(breaks.reshape(1, -1), *inputs),
        "coefs": float_result(coefs, *inputs),
        "pieces": float(pieces),
        "order": float(coefs.shape[1]),
        "dim": result(np.array([dim], dtype=np.float64)) if len(dim) > 1 else float(dim[0]),
    })


def _sites_and_values(x: Any, y: Any, name: str, extra: int = 0) -> tuple[np.ndarray, np.ndarray,
                                                                         tuple[int, ...], bool]:
    """The data sites (sorted) and the values as a (components, sites + ends) table, with
    the component dimensions; ``extra`` more values than sites are allowed (end slopes).
    Returns whether that many extra values were given."""
    sites = as_floats(x, name)
    values = as_floats(y, name)
    if not (is_vector_array(sites) or sites.size == 0):
        raise error("MATLAB:chckxy:XNotVector", "Data sites X must be a vector.")
    sites = sites.reshape(-1)
    if sites.dtype.kind == "c":
        raise error("MATLAB:chckxy:XComplex", "The data sites should be real.")
    if np.isnan(sites).any():
        raise error("MATLAB:chckxy:NaNx", "The data sites should not contain NaN.")
    n = sites.size
    if is_vector_array(values):
        dims: tuple[int, ...] = (1,)
        table = values.reshape(1, -1)
    else:
        dims = values.shape[:-1]
        table = values.reshape(math.prod(dims), values.shape[-1], order="F")
    if n < 2:
        raise error("MATLAB:chckxy:NotEnoughPts", "There should be at least two data points.")
    count = table.shape[1]
    if count not in (n, n + extra):
        raise error("MATLAB:chckxy:NumSitesMismatchValues",
                    f"The number of sites, {n}, is incompatible with the number of values, {count}.")
    ends = count == n + extra and extra > 0
    inner = table[:, 1:-1] if ends else table
    order = np.argsort(sites, kind="stable")
    sites = sites[order]
    inner = inner[:, order]
    if np.any(np.diff(sites) == 0):
        raise error("MATLAB:chckxy:RepeatedSites", "The data sites should be distinct.")
    if dims == (1,) and not ends and np.isnan(inner).any():
        keep = ~np.isnan(inner[0])  # MATLAB ignores NaN values of a vector
        sites, inner = sites[keep], inner[:, keep]
        if sites.size < 2:
            raise error("MATLAB:chckxy:NotEnoughPts", "There should be at least two data points.")
    table = np.concatenate([table[:, :1], inner, table[:, -1:]], axis=1) if ends else inner
    return sites, table, dims, ends


def _from_scipy(c: np.ndarray) -> np.ndarray:
    """SciPy's (order, pieces, components) coefficients as MATLAB's coefs rows."""
    return np.transpose(c, (1, 2, 0)).reshape(c.shape[1] * c.shape[2], c.shape[0])


def _spline_pp(x: Any, y: Any) -> Struct:
    sites, table, dims, ends = _sites_and_values(x, y, "spline", extra=2)
    n = sites.size
    # SciPy on first use: keeps start-up fast
    from scipy import interpolate

    if ends:
        slopes, values = table[:, [0, -1]], table[:, 1:-1]
        fn = interpolate.CubicSpline(sites, values.T, bc_type=((1, slopes[:, 0]), (1, slopes[:, 1])))
        return _pp(sites, _from_scipy(fn.c), dims, x, y)
    if n == 2:  # a straight line
        slope = (table[:, 1] - table[:, 0]) / (sites[1] - sites[0])
        return _pp(sites, np.stack([slope, table[:, 0]], axis=1), dims, x, y)
    if n == 3:  # the parabola through the three points, as one piece
        d1 = (table[:, 1] - table[:, 0]) / (sites[1] - sites[0])
        d2 = (table[:, 2] - table[:, 1]) / (sites[2] - sites[1])
        curve = (d2 - d1) / (sites[2] - sites[0])
        coefs = np.stack([curve, d1 - curve * (sites[1] - sites[0]), table[:, 0]], axis=1)
        return _pp(sites[[0, 2]], coefs, dims, x, y)
    fn = interpolate.CubicSpline(sites, table.T, bc_type="not-a-knot")
    return _pp(sites, _from_scipy(fn.c), dims, x, y)


def _values_or_pp(pp: Struct, xq: Any) -> object:
    return pp if xq is None else _evaluate(pp, xq)


@builtin()
def spline(x: Any, y: Any, xq: Any = None) -> object:
    """s = spline(x,y,xq)
    pp = spline(x,y)

    Cubic spline interpolation with not-a-knot end conditions; when y has two
    more values than x, its first and last values are the end slopes (a
    clamped spline). Without xq, the piecewise polynomial for ppval."""
    return _values_or_pp(_spline_pp(x, y), xq)


@builtin()
def pchip(x: Any, y: Any, xq: Any = None) -> object:
    """p = pchip(x,y,xq)
    pp = pchip(x,y)

    Piecewise cubic Hermite interpolating polynomial that preserves the shape
    of the data (monotone between monotone data, flat at local extrema)."""
    sites, table, dims, _ = _sites_and_values(x, y, "pchip")
    if table.dtype.kind == "c":
        raise error("MATLAB:pchip:ComplexY", "Y must be real.")
    values = table.T
    slopes = pchip_slopes(sites, values)
    return _values_or_pp(_pp(sites, _hermite_coefs(sites, values, slopes), dims, x, y), xq)


def _hermite_coefs(x: np.ndarray, y: np.ndarray, slopes: np.ndarray) -> np.ndarray:
    """MATLAB coefs rows of the cubic Hermite pieces through (x, y) with the given slopes
    (y and slopes: one row per site, one column per component)."""
    h = np.diff(x)[:, None]
    delta = (y[1:] - y[:-1]) / h
    d0, d1 = slopes[:-1], slopes[1:]
    c = np.stack([(d0 - 2 * delta + d1) / h ** 2, (3 * delta - 2 * d0 - d1) / h, d0, y[:-1]])
    return _from_scipy(c)


@builtin()
def makima(x: Any, y: Any, xq: Any = None) -> object:
    """yq = makima(x,y,xq)
    pp = makima(x,y)

    Modified Akima piecewise cubic Hermite interpolation: fewer overshoots
    than spline, less flattening than pchip."""
    sites, table, dims, _ = _sites_and_values(x, y, "makima")
    values = table.T
    if sites.size == 2:  # a straight line
        slope = (values[1] - values[0]) / (sites[1] - sites[0])
        pp = _pp(sites, _hermite_coefs(sites, values, np.stack([slope, slope])), dims, x, y)
        return _values_or_pp(pp, xq)
    # SciPy on first use: keeps start-up fast
    from scipy import interpolate

    if values.dtype.kind == "c":  # the real and imaginary parts apart, as MATLAB does
        c = interpolate.Akima1DInterpolator(sites, values.real, method="makima").c \
            + 1j * interpolate.Akima1DInterpolator(sites, values.imag, method="makima").c
    else:
        c = interpolate.Akima1DInterpolator(sites, values, method="makima").c
    return _values_or_pp(_pp(sites, _from_scipy(c), dims, x, y), xq)


# ------------------------------------------------------------------- pp forms


@builtin()
def mkpp(breaks: Any, coefs: Any, d: Any = None) -> object:
    """pp = mkpp(breaks,coefs)
    pp = mkpp(breaks,coefs,d)

    Make a piecewise polynomial from its breaks and coefficients (one row of
    descending-power coefficients per piece, or per component and piece when
    the polynomial is d-valued)."""
    b = as_floats(breaks, "mkpp").reshape(-1)
    c = as_floats(coefs, "mkpp")
    pieces = b.size - 1
    if pieces < 1:
        raise error("MATLAB:mkpp:BreaksLessThanTwo", "There must be at least two breaks.")
    dv = np.ones(1) if d is None else to_double_array(d).reshape(-1).real
    if dv.size == 0:  # prod([]) is 1: one component
        dv = np.ones(1)
    # dimensions that are not positive whole numbers match no coefficient array
    valid = bool(np.all(np.isfinite(dv) & (dv >= 1) & (dv == np.floor(dv))))
    dims = tuple(int(v) for v in dv) if valid else (1,)
    rows = math.prod(dims) * pieces
    order = c.size // rows if rows > 0 else 0
    if not valid or order <= 0 or rows * order != c.size:
        raise error("MATLAB:mkpp:PPNumberMismatchCoeffs",
                    f"The requested number of polynomial pieces, {pieces}, is incompatible with "
                    f"the proposed size of the coefficient array, {c.size}.")
    return _pp(b, c.reshape(rows, order, order="F"), dims, breaks, coefs)


def _pp_parts(pp: Any) -> tuple[np.ndarray, np.ndarray, int, int, tuple[int, ...]]:
    if type(pp) is not Struct or not pp.is_scalar() or not {"breaks", "coefs"} <= set(pp.fields):
        raise error("MATLAB:unmkpp:inputsNotPP", "The input array does not seem to describe a pp function.")
    fields = pp.element(0)
    if "form" in fields and to_str(fields["form"]) != "pp":
        raise error("MATLAB:unmkpp:inputsNotPP", "The input array does not seem to describe a pp function.")
    b = to_double_array(fields["breaks"]).reshape(-1)
    c = to_double_array(fields["coefs"])
    dv = to_double_array(fields.get("dim", 1.0)).reshape(-1).real
    if dv.size == 0 or not np.all(np.isfinite(dv) & (dv >= 1) & (dv == np.floor(dv))) \
            or math.prod(int(v) for v in dv) > c.size:
        raise error("MATLAB:unmkpp:inputsNotPP", "The input array does not seem to describe a pp function.")
    return b, c, b.size - 1, c.shape[1], tuple(int(v) for v in dv)


@builtin(max_out=5, nargout=True)
def unmkpp(pp: Any, *, nargout: int = 1) -> object:
    """[breaks,coefs,l,k,d] = unmkpp(pp)

    The parts of a piecewise polynomial: breaks, coefficients, number of
    pieces, order and dimension."""
    b, c, pieces, order, dims = _pp_parts(pp)
    fields = pp.element(0)
    outs = (fields["breaks"], fields["coefs"], float(pieces), float(order), fields.get("dim", 1.0))
    return outs[0] if nargout <= 1 else outs[:nargout]


def _evaluate(pp: Any, xq: Any) -> object:
    b, c, pieces, order, dims = _pp_parts(pp)
    query = as_floats(xq, "ppval")
    if query.dtype.kind == "c":
        raise error("MATLAB:ppval:ComplexXX", "Evaluation points must be real.")
    points = query.reshape(-1, order="F")
    # the first and last pieces extend outwards; NaN stays NaN
    k = np.clip(np.searchsorted(b, points, side="right") - 1, 0, pieces - 1)
    d = math.prod(dims)
    table = c.reshape(pieces, d, order)  # piece, component, power
    local = (points - b[k])[:, None]
    with np.errstate(all="ignore"):
        out = np.broadcast_to(table[k, :, 0], (points.size, d)).astype(c.dtype)
        for j in range(1, order):
            out = out * local + table[k, :, j]
    out[np.isnan(points)] = np.nan
    if d == 1 and dims == (1,):
        shaped = out.reshape(query.shape, order="F")
    else:
        lead = (points.size,) if is_vector_array(query) else query.shape
        shaped = out.T.reshape(dims + lead, order="F")
    return float_result(shaped.reshape(fix_shape(shaped.shape), order="F"),
                        pp.element(0)["coefs"], xq)


@builtin()
def ppval(pp: Any, xq: Any) -> object:
    """v = ppval(pp,xq)

    Evaluate the piecewise polynomial pp at the points xq (the end pieces
    extrapolate). For a d-valued pp the result is d-by-size(xq)."""
    return _evaluate(pp, xq)
