"""Interpolation of gridded data: interp2 and interp3 (meshgrid layout) and interpn (ndgrid
layout)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from mlang.builtins.coerce import integer_scalar, text_option
from mlang.builtins.math.linalg import as_floats, float_result, is_vector_array
from mlang.errors import error, warn
from mlang.registry import builtin
from mlang.values.core import fix_shape, to_double_array
from mlang.values.limits import check_array_size, too_many_elements

_METHODS = {
    "interp2": ("linear", "nearest", "cubic", "spline", "makima"),
    "interp3": ("linear", "nearest", "cubic", "spline", "makima"),
    "interpn": ("linear", "nearest", "pchip", "cubic", "spline", "makima"),
}


def _grid_vector(v: np.ndarray, axis: int, n: int, name: str) -> np.ndarray:
    """A grid vector: a vector, or a full grid array (meshgrid/ndgrid) read along ``axis``."""
    if is_vector_array(v) or v.ndim == 2 and v.size == 1:
        g = v.reshape(-1)
    else:
        index = [0] * v.ndim
        index[axis] = slice(None)
        g = v[tuple(index)].reshape(-1)
    if g.size != n:
        raise error(f"MATLAB:{name}:gridMismatch",
                    "The grid vectors do not define a grid of points that match the given values.")
    if g.dtype.kind == "c":
        raise error(f"MATLAB:{name}:complexGrid", "Input coordinates must be real.")
    return g.astype(np.float64)


def is_uniform(g: np.ndarray) -> bool:
    steps = np.diff(g)
    return steps.size == 0 or bool(np.allclose(steps, steps[0], rtol=1e-9, atol=0))


def _extend(v: np.ndarray, axis: int) -> np.ndarray:
    """``v`` with one more point at each end along ``axis``, from the cubic convolution
    boundary condition f(-1) = 3 f(0) - 3 f(1) + f(2)."""
    w = np.moveaxis(v, axis, 0)
    first = 3 * w[0] - 3 * w[1] + w[2]
    last = 3 * w[-1] - 3 * w[-2] + w[-3]
    return np.moveaxis(np.concatenate([first[None], w, last[None]]), 0, axis)


def _cubic_convolution(grids: list[np.ndarray], v: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Keys' cubic convolution (a = -1/2) on a uniform grid, one dimension after another."""
    ext = v
    for axis in range(len(grids)):
        ext = _extend(ext, axis)
    starts, weights = [], []
    for d, g in enumerate(grids):
        t = (points[:, d] - g[0]) / (g[1] - g[0])
        i = np.clip(np.floor(np.nan_to_num(t)), 0, g.size - 2).astype(np.intp)
        s = t - i
        weights.append(np.stack([((2 - s) * s - 1) * s / 2, ((3 * s - 5) * s * s + 2) / 2,
                                 ((4 - 3 * s) * s + 1) * s / 2, (s - 1) * s * s / 2], axis=1))
        starts.append(i)  # the point at offset -1 is index i of the extended grid
    out = np.zeros(points.shape[0], dtype=np.result_type(v, np.float64))
    for offsets in itertools.product(range(4), repeat=len(grids)):
        w = np.ones(points.shape[0])
        for d, k in enumerate(offsets):
            w = w * weights[d][:, k]
        out += w * ext[tuple(starts[d] + k for d, k in enumerate(offsets))]
    return out


def _makima(grids: list[np.ndarray], v: np.ndarray, points: np.ndarray) -> np.ndarray:
    # SciPy on first use: keeps start-up fast
    from scipy import interpolate

    out = np.empty(points.shape[0], dtype=v.dtype)
    for k, p in enumerate(points):
        reduced = v
        for d, g in enumerate(grids):  # one dimension after another, as a tensor product
            if g.size == 2:
                t = (p[d] - g[0]) / (g[1] - g[0])
                reduced = reduced[0] * (1 - t) + reduced[1] * t
            else:
                reduced = interpolate.Akima1DInterpolator(g, reduced, axis=0, method="makima",
                                                          extrapolate=True)(p[d])
        out[k] = reduced
    return out


def _nearest(grids: list[np.ndarray], v: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The value at the nearest grid point; a point halfway goes to the upper one."""
    index = []
    for d, g in enumerate(grids):
        p = np.nan_to_num(points[:, d])
        k = np.clip(np.searchsorted(g, p, side="right") - 1, 0, g.size - 2)
        index.append(np.where(p - g[k] >= g[k + 1] - p, k + 1, k))
    return v[tuple(index)]


def _neighbour(grids: list[np.ndarray], v: np.ndarray, points: np.ndarray,
               side: str) -> np.ndarray:
    """The value at the next (or previous) grid point in every dimension; NaN where there
    is none (past the last or before the first point)."""
    index = []
    none = np.zeros(points.shape[0], dtype=bool)
    for d, g in enumerate(grids):
        p = points[:, d]
        if side == "next":
            k = np.searchsorted(g, np.nan_to_num(p), side="left")
            none |= k >= g.size
        else:
            k = np.searchsorted(g, np.nan_to_num(p), side="right") - 1
            none |= k < 0
        none |= np.isnan(p)
        index.append(np.clip(k, 0, g.size - 1))
    out = v[tuple(index)].astype(np.result_type(v, np.float64))
    out[none] = np.nan
    return out


def real_interpolation(grids: list[np.ndarray], v: np.ndarray, points: np.ndarray,
                       method: str, name: str) -> np.ndarray:
    """Interpolate real values v on increasing grids at points (one row each) by
    ``method``, extrapolating the method's own way outside the grid."""
    if method in ("next", "previous"):
        return _neighbour(grids, v, points, method)
    if method == "cubic":
        return _cubic_convolution(grids, v, points)
    if method == "makima":
        return _makima(grids, v, points)
    if method == "nearest":
        return _nearest(grids, v, points)
    # SciPy on first use: keeps start-up fast
    from scipy import interpolate

    scipy_method = {"spline": "cubic"}.get(method, method)
    if scipy_method in ("cubic", "pchip") and any(g.size < 4 for g in grids):
        raise error(f"MATLAB:{name}:notEnoughPoints",
                    f"Interpolation method '{method}' requires at least 4 points in each dimension.")
    fn = interpolate.RegularGridInterpolator(grids, v, method=scipy_method, bounds_error=False,
                                             fill_value=None)
    return fn(np.nan_to_num(points))


def _interpolate(grids: list[np.ndarray], v: np.ndarray, queries: list[np.ndarray],
                 method: str, fill: Any, name: str) -> np.ndarray:
    """Interpolate v (one axis per grid vector) at the query points (arrays of one
    shape); points outside the grid get ``fill``."""
    if any(g.size < 2 for g in grids):
        raise error(f"MATLAB:{name}:notEnoughPoints",
                    "Interpolation requires at least two sample points in each dimension.")
    for d, g in enumerate(grids):
        steps = np.diff(g)
        if np.all(steps < 0):  # a descending grid: flip it and the values
            grids[d] = g[::-1]
            v = np.flip(v, axis=d)
        elif not np.all(steps > 0):
            raise error(f"MATLAB:{name}:gridNotMonotonic",
                        "The grid vectors must be strictly monotonic increasing.")
    if method == "cubic" and not all(g.size >= 3 and is_uniform(g) for g in grids):
        warn(f"MATLAB:{name}:NonUniformGridCubic",
             "The 'cubic' method requires the grid to have a uniform spacing. Switching the "
             "method from 'cubic' to 'spline' because this condition is not met.")
        method = "spline"
    shape = queries[0].shape
    points = np.stack([q.reshape(-1, order="F") for q in queries], axis=1)
    if v.dtype.kind == "c" and method != "nearest":
        out = real_interpolation(grids, v.real.copy(), points, method, name) \
            + 1j * real_interpolation(grids, v.imag.copy(), points, method, name)
    else:
        out = real_interpolation(grids, v, points, method, name)
    outside = np.zeros(points.shape[0], dtype=bool)
    for d, g in enumerate(grids):
        outside |= ~((points[:, d] >= g[0]) & (points[:, d] <= g[-1]))
    if fill is None and method in ("spline", "makima"):
        outside = np.any(np.isnan(points), axis=1)  # these two extrapolate by default
    out = np.asarray(out)
    fill_value = to_double_array(fill).reshape(-1)[0] if fill is not None else np.nan
    if np.iscomplexobj(fill_value) and fill_value.imag != 0:
        out = out.astype(np.complex128)
    out[outside] = fill_value
    return out.reshape(shape, order="F")


def _split(args: tuple, name: str) -> tuple[list, str, Any]:
    """Numeric arguments, then the method and an extrapolation value."""
    values = list(args)
    k = next((i for i, a in enumerate(values) if text_option(a) is not None), len(values))
    numeric, rest = values[:k], values[k:]
    method = "linear"
    fill = None
    if rest:
        method = text_option(rest[0]) or ""
        if method.startswith("*"):
            method = method[1:]
        if method not in _METHODS[name]:
            raise error(f"MATLAB:{name}:InvalidMethod", "Invalid interpolation method.")
        if len(rest) > 2:
            raise error("MATLAB:TooManyInputs", "Too many input arguments.")
        if len(rest) == 2:
            fill = rest[1]
            if text_option(fill) is not None or to_double_array(fill).size != 1:
                raise error(f"MATLAB:{name}:InvalidExtrapval",
                            "The extrapolation value must be a numeric scalar.")
    return numeric, method, fill


def _refined_grid(sizes: tuple[int, ...], times: int) -> list[np.ndarray]:
    """The query grid of a refinement: ``times`` halvings of the unit spacing along each axis
    of ``sizes`` (no points along an empty axis), refused as MATLAB refuses an array too
    large before any is made (a large factor would otherwise take forever in 2 ** times)."""
    if times > 62 and any(n > 1 for n in sizes):
        raise too_many_elements()
    counts = [(n - 1) * 2 ** times + 1 if n > 1 else n for n in sizes]
    check_array_size(tuple(counts))
    return list(np.meshgrid(*[np.linspace(1, n, c) for n, c in zip(sizes, counts, strict=True)],
                            indexing="ij"))


def _refinement(v: Any, name: str) -> int:
    k = integer_scalar(v, "Refinement factor must be a nonnegative integer scalar.",
                       f"MATLAB:{name}:InvalidRefinement")
    if k < 0:
        raise error(f"MATLAB:{name}:InvalidRefinement",
                    "Refinement factor must be a nonnegative integer scalar.")
    return k


def _query_arrays(queries: list[np.ndarray], grid_layout: str, name: str) -> list[np.ndarray]:
    """The query points as arrays of one shape: vectors of different shapes or
    orientations are grid vectors (expanded with meshgrid or ndgrid)."""
    for q in queries:
        if q.dtype.kind == "c":
            raise error(f"MATLAB:{name}:complexQuery", "Input coordinates must be real.")
    if len(queries) > 1 and all(is_vector_array(q) for q in queries) and \
            len({q.shape for q in queries}) > 1:
        return [g for g in np.meshgrid(*[q.reshape(-1) for q in queries], indexing=grid_layout)]
    try:
        return [np.asarray(q, dtype=np.float64) for q in np.broadcast_arrays(*queries)]
    except ValueError:
        raise error(f"MATLAB:{name}:queryMismatch",
                    "The query coordinates must be of the same size.") from None


@builtin()
def interp2(*args: Any) -> object:
    """Vq = interp2(X,Y,V,Xq,Yq)
    Vq = interp2(V,Xq,Yq)
    Vq = interp2(V)
    Vq = interp2(V,k)
    Vq = interp2(___,method)
    Vq = interp2(___,method,extrapval)

    2-D interpolation of gridded data in meshgrid layout (V(i,j) at X(j),
    Y(i)): 'linear' (default), 'nearest', 'cubic', 'spline' or 'makima'.
    Points outside the grid get extrapval: by default NaN, except that
    'spline' and 'makima' extrapolate. interp2(V,k)
    refines the grid k times (halving the spacing each time)."""
    numeric, method, fill = _split(args, "interp2")
    count = len(numeric)
    if count not in (1, 2, 3, 5):
        raise error("MATLAB:interp2:nargin", "Invalid number of input arguments.")
    v = as_floats(numeric[0] if count < 5 else numeric[2], "interp2")
    if v.ndim != 2:
        raise error("MATLAB:interp2:VNot2D", "V must be a 2-D array.")
    m, n = v.shape
    if count <= 2:
        times = 1 if count == 1 else _refinement(numeric[1], "interp2")
        grids = [np.arange(1.0, m + 1), np.arange(1.0, n + 1)]
        yq, xq = _refined_grid((m, n), times)
    else:
        if count == 3:
            grids = [np.arange(1.0, m + 1), np.arange(1.0, n + 1)]
            xq_value, yq_value = numeric[1], numeric[2]
        else:
            x, y = as_floats(numeric[0], "interp2"), as_floats(numeric[1], "interp2")
            grids = [_grid_vector(y, 0, m, "interp2"), _grid_vector(x, 1, n, "interp2")]
            xq_value, yq_value = numeric[3], numeric[4]
        xq, yq = _query_arrays([as_floats(xq_value, "interp2"), as_floats(yq_value, "interp2")],
                               "xy", "interp2")
    out = _interpolate(grids, v, [yq, xq], method, fill, "interp2")
    return float_result(out.reshape(fix_shape(out.shape)), *numeric)


@builtin()
def interp3(*args: Any) -> object:
    """Vq = interp3(X,Y,Z,V,Xq,Yq,Zq)
    Vq = interp3(V,Xq,Yq,Zq)
    Vq = interp3(V)
    Vq = interp3(V,k)
    Vq = interp3(___,method)
    Vq = interp3(___,method,extrapval)

    3-D interpolation of gridded data in meshgrid layout (V(i,j,k) at X(j),
    Y(i), Z(k)): 'linear' (default), 'nearest', 'cubic', 'spline' or 'makima'.
    Points outside the grid get extrapval: by default NaN, except that
    'spline' and 'makima' extrapolate. interp3(V,k) refines the grid k times
    (halving the spacing each time)."""
    numeric, method, fill = _split(args, "interp3")
    count = len(numeric)
    if count not in (1, 2, 4, 7):
        raise error("MATLAB:interp3:nargin", "Invalid number of input arguments.")
    v = as_floats(numeric[0] if count < 7 else numeric[3], "interp3")
    if v.ndim > 3:
        raise error("MATLAB:interp3:VNot3D", "V must be a 3-D array.")
    v = v.reshape(v.shape + (1,) * (3 - v.ndim))
    m, n, p = v.shape
    if count <= 2:
        times = 1 if count == 1 else _refinement(numeric[1], "interp3")
        grids = [np.arange(1.0, m + 1), np.arange(1.0, n + 1), np.arange(1.0, p + 1)]
        yq, xq, zq = _refined_grid((m, n, p), times)
    else:
        if count == 4:
            grids = [np.arange(1.0, m + 1), np.arange(1.0, n + 1), np.arange(1.0, p + 1)]
            query_values = numeric[1:4]
        else:
            x, y, z = (as_floats(g, "interp3") for g in numeric[:3])
            grids = [_grid_vector(y, 0, m, "interp3"), _grid_vector(x, 1, n, "interp3"),
                     _grid_vector(z, 2, p, "interp3")]
            query_values = numeric[4:7]
        xq, yq, zq = _query_arrays([as_floats(q, "interp3") for q in query_values], "xy",
                                   "interp3")
    out = _interpolate(grids, v, [yq, xq, zq], method, fill, "interp3")
    return float_result(out.reshape(fix_shape(out.shape)), *numeric)


@builtin()
def interpn(*args: Any) -> object:
    """Vq = interpn(X1,X2,...,Xn,V,Xq1,Xq2,...,Xqn)
    Vq = interpn(V,Xq1,Xq2,...,Xqn)
    Vq = interpn(V)
    Vq = interpn(V,k)
    Vq = interpn(___,method)
    Vq = interpn(___,method,extrapval)

    N-D interpolation of gridded data in ndgrid layout: 'linear' (default),
    'nearest', 'pchip', 'cubic', 'spline' or 'makima'. Points outside the
    grid get extrapval: by default NaN, except that 'spline' and 'makima'
    extrapolate."""
    numeric, method, fill = _split(args, "interpn")
    count = len(numeric)
    if count == 0:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    first = as_floats(numeric[0], "interpn")
    first_dims = 1 if is_vector_array(first) else first.ndim
    if count <= 2 and not (count == 2 and first_dims == 1 and first.size > 1
                           and as_floats(numeric[1], "interpn").size > 1):
        times = 1 if count == 1 else _refinement(numeric[1], "interpn")
        v = first.reshape(-1) if first_dims == 1 else first
        grids = [np.arange(1.0, s + 1) for s in v.shape]
        queries = _refined_grid(v.shape, times)
    elif count == first_dims + 1:
        v = first.reshape(-1) if first_dims == 1 else first
        grids = [np.arange(1.0, s + 1) for s in v.shape]
        queries = _query_arrays([as_floats(q, "interpn") for q in numeric[1:]], "ij", "interpn")
    elif count % 2 == 1:
        dims = (count - 1) // 2
        raw = as_floats(numeric[dims], "interpn")
        v = raw.reshape(-1) if dims == 1 else raw
        if v.ndim > dims:
            raise error("MATLAB:interpn:gridMismatch",
                        "The grid vectors do not define a grid of points that match the given "
                        "values.")
        v = v.reshape(v.shape + (1,) * (dims - v.ndim))
        grids = [_grid_vector(as_floats(numeric[d], "interpn"), d, v.shape[d], "interpn")
                 for d in range(dims)]
        queries = _query_arrays([as_floats(q, "interpn") for q in numeric[dims + 1:]], "ij",
                                "interpn")
    else:
        raise error("MATLAB:interpn:nargin", "Wrong number of input arguments.")
    out = _interpolate(grids, v, queries, method, fill, "interpn")
    if first_dims == 1 and count <= 2:  # a refined vector keeps its orientation
        out = out.reshape(-1, 1) if first.shape[1] == 1 else out.reshape(1, -1)
    return float_result(out.reshape(fix_shape(out.shape)), *numeric)
