"""Calculus: numerical gradients (gradient, del2) and integration of functions (integral,
quadgk, integral2)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, options, text_or_none
from mlang.builtins.math.linalg import as_floats, float_result, is_vector_array
from mlang.errors import error, warn
from mlang.registry import builtin
from mlang.values.core import class_of, fix_shape, result, to_double_array
from mlang.values.handle import FunctionHandle

# ------------------------------------------------------------------ gradients


def _coordinates(h: object, n: int, name: str) -> np.ndarray:
    """The coordinates of n points from a spacing argument: a scalar step or a vector of
    n coordinates."""
    a = as_floats(h, name)
    if a.dtype.kind == "c":
        a = a.real
    if a.size == 1:
        return float(a.reshape(-1)[0]) * np.arange(n, dtype=np.float64)
    if not is_vector_array(a) or a.size != n:
        raise error(f"MATLAB:{name}:InvalidGridSpacing" if name == "gradient" else
                    "MATLAB:del2:InvalidGridSpacing",
                    "Spacing values must be scalars or vectors of the same length as the "
                    "corresponding dimension of the input.")
    return a.reshape(-1)


def _directions(f: np.ndarray, spacing: tuple, name: str) -> tuple[list[int], list[np.ndarray]]:
    """The axes a gradient runs along (x first: columns, then rows, then the rest) and
    the coordinates of the points along each."""
    if is_vector_array(f) and f.size > 1 or f.ndim == 2 and f.size <= 1:
        axes = [0 if f.shape[1] == 1 and f.shape[0] != 1 else 1]
    else:
        axes = [1, 0, *range(2, f.ndim)]
    if spacing and len(spacing) not in (1, len(axes)):
        raise error("MATLAB:TooManyInputs" if len(spacing) > len(axes) else
                    f"MATLAB:{name}:InvalidGridSpacing",
                    "Too many input arguments." if len(spacing) > len(axes) else
                    "Spacing values must be given for each dimension of the input.")
    coords = []
    for k, ax in enumerate(axes):
        n = f.shape[ax]
        if not spacing:
            coords.append(np.arange(n, dtype=np.float64))
        elif len(spacing) == 1:
            h = spacing[0]
            if len(axes) > 1 and as_floats(h, name).size != 1:
                raise error(f"MATLAB:{name}:InvalidGridSpacing",
                            "Spacing values must be given for each dimension of the input.")
            coords.append(_coordinates(h, n, name))
        else:
            coords.append(_coordinates(spacing[k], n, name))
    return axes, coords


def _first_differences(f: np.ndarray, axis: int, x: np.ndarray) -> np.ndarray:
    """Central differences inside, one-sided ones at the two ends (MATLAB's gradient:
    (f(i+1) - f(i-1)) / (x(i+1) - x(i-1)), also for uneven spacing)."""
    v = np.moveaxis(f, axis, 0)
    n = v.shape[0]
    g = np.zeros(v.shape, dtype=v.dtype)
    if n > 1:
        shape = (-1,) + (1,) * (v.ndim - 1)
        g[0] = (v[1] - v[0]) / (x[1] - x[0])
        g[-1] = (v[-1] - v[-2]) / (x[-1] - x[-2])
        if n > 2:
            g[1:-1] = (v[2:] - v[:-2]) / (x[2:] - x[:-2]).reshape(shape)
    return np.moveaxis(g, 0, axis)


@builtin(max_out=None, nargout=True)
def gradient(f: Any, *spacing: Any, nargout: int = 1) -> object:
    """FX = gradient(F)
    [FX,FY] = gradient(F)
    [FX,FY,FZ,...,FN] = gradient(F)
    [___] = gradient(F,h)
    [___] = gradient(F,hx,hy,...,hN)

    Numerical gradient: central differences inside, one-sided differences at
    the edges. FX runs along the columns (dimension 2), FY down the rows.
    Spacing is a scalar step or a vector of coordinates for each direction."""
    values = as_floats(f, "gradient")
    axes, coords = _directions(values, spacing, "gradient")
    if nargout > len(axes):
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    outs = []
    with np.errstate(all="ignore"):  # Inf - Inf and 0/0 follow IEEE arithmetic
        for ax, x in list(zip(axes, coords, strict=True))[:max(nargout, 1)]:
            g = _first_differences(values, ax, x)
            outs.append(float_result(g.reshape(fix_shape(g.shape)), f, *spacing))
    return outs[0] if nargout <= 1 else tuple(outs)


def _second_differences(f: np.ndarray, axis: int, x: np.ndarray) -> np.ndarray:
    """Half the second derivative along ``axis`` (MATLAB's del2 term): centred inside,
    extrapolated linearly to the edges; zero along a dimension of fewer than 3 points."""
    v = np.moveaxis(f, axis, 0)
    n = v.shape[0]
    g = np.zeros(v.shape, dtype=v.dtype)
    if n < 3:
        return np.moveaxis(g, 0, axis)
    shape = (-1,) + (1,) * (v.ndim - 1)
    h = np.diff(x)
    hr = h.reshape(shape)
    g[1:-1] = ((v[2:] - v[1:-1]) / hr[1:] - (v[1:-1] - v[:-2]) / hr[:-1]) / (hr[1:] + hr[:-1])
    if n > 3:
        g[0] = g[1] * (h[0] + h[1]) / h[1] - g[2] * h[0] / h[1]
        g[-1] = -g[-3] * h[-1] / h[-2] + g[-2] * (h[-1] + h[-2]) / h[-2]
    else:
        g[0] = g[-1] = g[1]
    return np.moveaxis(g, 0, axis)


@builtin()
def del2(u: Any, *spacing: Any) -> object:
    """L = del2(U)
    L = del2(U,h)
    L = del2(U,hx,hy,...,hN)

    Discrete Laplacian: (1/4) times the sum of the second derivatives of a
    matrix (1/(2N) for N dimensions), extrapolated linearly at the edges."""
    values = as_floats(u, "del2")
    axes, coords = _directions(values, spacing, "del2")
    total = np.zeros(values.shape, dtype=values.dtype)
    with np.errstate(all="ignore"):
        for ax, x in zip(axes, coords, strict=True):
            total = total + _second_differences(values, ax, x)
        out = total / max(values.ndim, 2)
    return float_result(out.reshape(fix_shape(out.shape)), u, *spacing)


# ---------------------------------------------------------------- integration

_INTEGRAL_OPTIONS = ("AbsTol", "RelTol", "ArrayValued", "Waypoints", "MaxIntervalCount")


def _handle(fun: object, name: str) -> FunctionHandle:
    if type(fun) is not FunctionHandle:
        raise error(f"MATLAB:{name}:funArgNotHandle", "First input argument must be a function handle.")
    return fun


def _limit(v: object, name: str) -> complex | float:
    a = to_double_array(v) if class_of(v) in ("double", "single") else None
    if a is None or a.size != 1:
        raise error(f"MATLAB:{name}:invalidEndpoint", "Limits must be floating-point scalars.")
    z = complex(a.reshape(-1)[0])
    return z if z.imag else z.real


def _tolerance(v: object, what: str, name: str) -> float:
    a = to_double_array(v) if class_of(v) in ("double", "single") else None
    if a is None or a.size != 1 or a.dtype.kind == "c" or not a.reshape(-1)[0] >= 0:
        raise error(f"MATLAB:{name}:invalid{what}", f"Invalid {what}. Value must be a "
                    "nonnegative, finite, real scalar of class double or single.")
    return float(a.reshape(-1)[0])


class _Integrand:
    """A MATLAB function as a Python function of one real or complex point; checks the
    size of what it returns the way MATLAB does."""

    def __init__(self, interp: Any, fun: FunctionHandle, array_valued: bool, name: str) -> None:
        self.interp, self.fun, self.array_valued, self.name = interp, fun, array_valued, name
        self.shape: tuple[int, ...] | None = None
        self.single = False

    def values(self, x: np.ndarray) -> np.ndarray:
        out = self.interp.call_value(self.fun, [result(x)], 1)
        if not out:
            raise error("MATLAB:integral:FunReturnedNoValue", "The function must return a value.")
        if class_of(out[0]) == "single":
            self.single = True
        return to_double_array(out[0]) if class_of(out[0]) in ("double", "single", "logical") \
            else as_floats(out[0], self.name)

    def check(self, a: complex | float, b: complex | float) -> None:
        """Call the function once with a row of points, as MATLAB's first call does."""
        if self.array_valued:
            self.shape = self.values(np.array([[_interior(a, b)]])).shape
            return
        probe = np.array([[_interior(a, b, t) for t in (0.25, 0.5, 0.75)]])
        got = self.values(probe)
        if got.shape != probe.shape:
            raise error(f"MATLAB:{self.name}:FxNotSameSizeAsX",
                        "Output of the function must be the same size as the input. If FUN is an "
                        "array-valued integrand, set the 'ArrayValued' option to true.")

    def __call__(self, x: float | complex) -> np.ndarray:
        got = self.values(np.array([[x]]))
        if self.array_valued:
            return got
        if got.size != 1:
            raise error(f"MATLAB:{self.name}:FxNotSameSizeAsX",
                        "Output of the function must be the same size as the input. If FUN is an "
                        "array-valued integrand, set the 'ArrayValued' option to true.")
        return got.reshape(())


def _interior(a: complex | float, b: complex | float, t: float = 0.5) -> complex | float:
    """A point strictly inside [a, b] (infinite limits allowed)."""
    if isinstance(a, complex) or isinstance(b, complex):
        return a + t * (b - a)
    lo, hi = float(a), float(b)
    if np.isfinite(lo) and np.isfinite(hi):
        return lo + t * (hi - lo)
    if np.isfinite(lo):
        return lo + t / (1 - t)
    if np.isfinite(hi):
        return hi - t / (1 - t)
    return np.tan(np.pi * (t - 0.5))


def _integrate(fn: _Integrand, points: list, abstol: float, reltol: float,
               max_intervals: int, name: str) -> tuple[np.ndarray, float]:
    """The integral along the path through ``points`` (straight segments; a complex point
    makes a contour integral), and its error estimate."""
    # SciPy on first use: keeps start-up fast
    from scipy import integrate

    complex_path = any(isinstance(p, complex) for p in points)
    total: Any = 0.0
    error_bound = 0.0
    ok = True
    if not complex_path:
        a, b = float(points[0]), float(points[-1])
        sign = 1.0
        inner = [float(p) for p in points[1:-1]]
        if a > b:
            a, b, sign = b, a, -1.0
        if a == b:
            return np.zeros(fn.shape or ()), 0.0
        value, err, info = integrate.quad_vec(
            fn, a, b, epsabs=abstol, epsrel=reltol, norm="max", quadrature="gk15",
            points=inner or None, limit=max_intervals, full_output=True)
        total, error_bound, ok = sign * np.asarray(value), float(err), info.success
    else:
        for p, q in zip(points[:-1], points[1:], strict=True):
            step = complex(q) - complex(p)

            def segment(t: float, p: complex = complex(p), step: complex = step) -> np.ndarray:
                return fn(p + t * step) * step

            value, err, info = integrate.quad_vec(
                segment, 0.0, 1.0, epsabs=abstol, epsrel=reltol, norm="max", quadrature="gk15",
                limit=max_intervals, full_output=True)
            total = total + np.asarray(value)
            error_bound += float(err)
            ok = ok and info.success
    if not ok:
        warn(f"MATLAB:{name}:MaxIntervalCountReached",
             "Reached the limit on the maximum number of intervals in use. Approximate bound on "
             f"error is {error_bound:9.1e}. The integral may not exist, or it may be difficult to "
             "approximate numerically to the requested accuracy.")
    return np.asarray(total), error_bound


def _integration(interp: Any, fun: Any, a: Any, b: Any, rest: tuple, name: str,
                 allowed: tuple[str, ...]) -> tuple[object, float]:
    handle = _handle(fun, name)
    lo, hi = _limit(a, name), _limit(b, name)
    opts = options(rest, allowed)
    single = class_of(a) == "single" or class_of(b) == "single"
    abstol = _tolerance(opts["AbsTol"], "AbsTol", name) if "AbsTol" in opts else \
        (1e-5 if single else 1e-10)
    reltol = _tolerance(opts["RelTol"], "RelTol", name) if "RelTol" in opts else \
        (1e-6 if single else 1e-6)
    array_valued = False
    if "ArrayValued" in opts:
        array_valued = option_flag(opts["ArrayValued"], "ArrayValued")
    waypoints: list = []
    if "Waypoints" in opts:
        w = to_double_array(opts["Waypoints"]).reshape(-1)
        waypoints = [complex(z) if z.imag else float(z.real) for z in w]
        if not all(isinstance(z, complex) for z in waypoints) and any(
                not np.isfinite(complex(z)) for z in waypoints):
            raise error(f"MATLAB:{name}:invalidWaypoints", "Waypoints must be finite.")
    limit = 650
    if "MaxIntervalCount" in opts:
        limit = int(to_double_array(opts["MaxIntervalCount"]).reshape(-1)[0])
    fn = _Integrand(interp, handle, array_valued, name)
    fn.check(lo, hi)
    if waypoints and not any(isinstance(z, complex) for z in [lo, hi, *waypoints]):
        inside = sorted(w for w in waypoints if min(lo, hi) < w < max(lo, hi))
        points = [lo, *(inside if lo <= hi else inside[::-1]), hi]
    else:
        points = [lo, *waypoints, hi]
    value, err = _integrate(fn, points, abstol, reltol, limit, name)
    shaped = value.reshape(fix_shape(fn.shape)) if fn.shape else value.reshape(1, 1)
    out = result(shaped.astype(np.complex64 if shaped.dtype.kind == "c" else np.float32)) \
        if single or fn.single else result(shaped.astype(np.result_type(shaped, np.float64)))
    return out, err


@builtin(interp=True)
def integral(interp: Any, fun: Any, a: Any, b: Any, *rest: Any) -> object:
    """q = integral(fun,xmin,xmax)
    q = integral(fun,xmin,xmax,Name,Value)

    Numerical integration by adaptive Gauss-Kronrod quadrature. fun is a
    vectorized function handle (or, with 'ArrayValued',true, one returning an
    array for a scalar x). Options: 'AbsTol' (1e-10), 'RelTol' (1e-6),
    'ArrayValued', 'Waypoints' (complex waypoints give a contour integral)."""
    return _integration(interp, fun, a, b, rest, "integral",
                        ("AbsTol", "RelTol", "ArrayValued", "Waypoints"))[0]


@builtin(interp=True, nargout=True, max_out=2)
def quadgk(interp: Any, fun: Any, a: Any, b: Any, *rest: Any, nargout: int = 1) -> object:
    """q = quadgk(fun,a,b)
    [q,errbnd] = quadgk(fun,a,b)
    [___] = quadgk(fun,a,b,Name,Value)

    Numerical integration by adaptive Gauss-Kronrod (7, 15) quadrature, with
    an error bound. Options: 'AbsTol', 'RelTol', 'Waypoints',
    'MaxIntervalCount' (650)."""
    q, err = _integration(interp, fun, a, b, rest, "quadgk",
                          ("AbsTol", "RelTol", "Waypoints", "MaxIntervalCount"))
    return q if nargout <= 1 else (q, err)


def _bound(interp: Any, v: object, name: str) -> Any:
    """An inner limit of integral2: a number or a function of x."""
    if type(v) is FunctionHandle:
        def limit(x: float) -> float:
            got = interp.call_value(v, [float(x)], 1)
            if not got:
                raise error(f"MATLAB:{name}:FunReturnedNoValue", "The function must return a value.")
            return float(to_double_array(got[0]).reshape(-1)[0].real)
        return limit
    return float(_limit(v, name).real)


@builtin(interp=True)
def integral2(interp: Any, fun: Any, xmin: Any, xmax: Any, ymin: Any, ymax: Any, *rest: Any) -> object:
    """q = integral2(fun,xmin,xmax,ymin,ymax)
    q = integral2(fun,xmin,xmax,ymin,ymax,Name,Value)

    Double integral of fun(x,y) over xmin <= x <= xmax, ymin(x) <= y <= ymax(x);
    ymin and ymax may be numbers or function handles of x. Options: 'AbsTol'
    (1e-10), 'RelTol' (1e-6), 'Method' ('auto', 'tiled', 'iterated')."""
    handle = _handle(fun, "integral2")
    opts = options(rest, ("AbsTol", "RelTol", "Method"))
    abstol = _tolerance(opts["AbsTol"], "AbsTol", "integral2") if "AbsTol" in opts else 1e-10
    reltol = _tolerance(opts["RelTol"], "RelTol", "integral2") if "RelTol" in opts else 1e-6
    if "Method" in opts and (text_or_none(opts["Method"]) or "").lower() not in (
            "auto", "tiled", "iterated"):
        raise error("MATLAB:integral2:invalidMethod",
                    "Invalid Method. Value must be 'auto', 'tiled', or 'iterated'.")
    a, b = float(_limit(xmin, "integral2").real), float(_limit(xmax, "integral2").real)
    lower, upper = _bound(interp, ymin, "integral2"), _bound(interp, ymax, "integral2")
    # MATLAB calls fun with matrices of points first: the values must match their size
    probe_x = np.array([[_interior(a, b, 0.25), _interior(a, b, 0.75)]] * 2)
    y0 = lower(probe_x[0, 0]) if callable(lower) else lower
    y1 = upper(probe_x[0, 0]) if callable(upper) else upper
    probe_y = np.array([[_interior(y0, y1, 0.25)] * 2, [_interior(y0, y1, 0.75)] * 2])
    got = interp.call_value(handle, [result(probe_x), result(probe_y)], 1)
    if not got or to_double_array(got[0]).shape != (2, 2):
        raise error("MATLAB:integral2:funSizeMismatch",
                    "Integrand output size does not match the input size.")

    def values(y: float, x: float) -> complex:
        out = interp.call_value(handle, [float(x), float(y)], 1)
        if not out:
            raise error("MATLAB:integral2:FunReturnedNoValue", "The function must return a value.")
        return complex(to_double_array(out[0]).reshape(-1)[0])

    # SciPy on first use: keeps start-up fast
    from scipy import integrate

    def part(pick: Any) -> float:
        return integrate.dblquad(lambda y, x: pick(values(y, x)), a, b, lower, upper,
                                 epsabs=abstol, epsrel=reltol)[0]

    total: complex | float = part(lambda z: z.real)
    if to_double_array(got[0]).dtype.kind == "c":
        total = complex(total, part(lambda z: z.imag))
    return float_result(np.array([[total]]), xmin, xmax, ymin, ymax, got[0])
