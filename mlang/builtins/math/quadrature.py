"""More numerical integration: triple integrals (integral3), quad2d, and MATLAB's older
adaptive rules quad (Simpson), quadl (Lobatto) and quadv (Simpson, array-valued)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, options, text_or_none
from mlang.builtins.math.calculus import _handle, _limit, _tolerance
from mlang.builtins.math.linalg import float_result
from mlang.errors import error, warn
from mlang.registry import builtin
from mlang.values.core import class_of, fix_shape, result, to_double_array
from mlang.values.handle import FunctionHandle

# ------------------------------------------------------- adaptive cubature on boxes


def _call(interp: Any, fun: Any, args: list[np.ndarray], name: str) -> np.ndarray:
    """fun at arrays of points (column vectors): its values, one per point."""
    out = interp.call_value(fun, [result(a.reshape(-1, 1)) for a in args], 1)
    if not out:
        raise error(f"MATLAB:{name}:FunReturnedNoValue", "The function must return a value.")
    v = to_double_array(out[0])
    if v.size != args[0].size:
        raise error(f"MATLAB:{name}:funSizeMismatch",
                    "Integrand output size does not match the input size.")
    return v.reshape(-1)


def _unit_map(lo: float, hi: float) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """A map from (0, 1) onto (lo, hi), infinite ends allowed, with its derivative."""
    if lo > hi:  # reversed limits: the same points, with the sign in the derivative
        forward = _unit_map(hi, lo)
        return lambda u: (forward(u)[0], -forward(u)[1])
    if math.isfinite(lo) and math.isfinite(hi):
        return lambda u: (lo + (hi - lo) * u, np.full(u.shape, hi - lo))
    if math.isfinite(lo):
        return lambda u: (lo + u / (1 - u), 1 / (1 - u) ** 2)
    if math.isfinite(hi):
        return lambda u: (hi - (1 - u) / u, 1 / u ** 2)
    return lambda u: (np.tan(np.pi * (u - 0.5)), np.pi / np.cos(np.pi * (u - 0.5)) ** 2)


def _cubature(fn: Callable[[np.ndarray], np.ndarray], dims: int, abstol: float, reltol: float,
              order: int, max_evals: int) -> tuple[complex, float, int, bool]:
    """Adaptive cubature of fn (points of the unit box, one row each) over (0, 1)^dims by
    tiles: a tile's value is a tensor-product Gauss rule summed over its 2^dims halves,
    its error estimate the change from the rule on the whole tile.  Tiles whose error
    exceeds their share (by volume) of the tolerance are refined.  Returns the integral,
    an error bound, the number of evaluations and whether the tolerance was met."""
    x, w = np.polynomial.legendre.leggauss(order)
    nodes = np.array(list(itertools.product((x + 1) / 4, repeat=dims)))  # on a half tile
    weights = np.prod(np.array(list(itertools.product(w / 2, repeat=dims))), axis=1)
    corners = np.array(list(itertools.product((0.0, 0.5), repeat=dims)))
    children = 2 ** dims
    per_tile = children * nodes.shape[0]

    def halves(lows: np.ndarray, width: float) -> np.ndarray:
        """The rule on each half of each tile: one row of 2^dims values per tile."""
        starts = (lows[:, None, :] + width * corners[None, :, :]).reshape(-1, dims)
        pts = (starts[:, None, :] + width * nodes[None, :, :]).reshape(-1, dims)
        vals = fn(pts).reshape(starts.shape[0], -1)
        return (vals @ weights * (width / 2) ** dims).reshape(lows.shape[0], children)

    lows = np.zeros((1, dims))
    width = 1.0
    parts = halves(lows, width)
    evals = per_tile
    lows = (lows[:, None, :] + width * corners[None, :, :]).reshape(-1, dims)
    parents, width = parts.reshape(-1), width / 2
    done_value: complex = 0.0
    done_error = 0.0
    while True:
        parts = halves(lows, width)
        evals += per_tile * lows.shape[0]
        values = parts.sum(axis=1)
        errs = np.abs(values - parents)
        total = done_value + complex(np.sum(values))
        bound = done_error + float(np.sum(errs))
        tol = max(abstol, reltol * abs(total))
        if not np.isfinite(total) or bound <= tol:
            return total, bound, evals, bool(np.isfinite(total))
        bad = errs > tol * width ** dims
        room = (max_evals - evals) // (per_tile * children)
        if not bad.any() or room < 1:
            return total, bound, evals, False
        if bad.sum() > room:  # the budget refines only the worst tiles
            worst = np.argsort(np.where(bad, errs, -1.0))[::-1][:room]
            bad = np.zeros(bad.shape, dtype=bool)
            bad[worst] = True
        done_value += complex(np.sum(values[~bad]))
        done_error += float(np.sum(errs[~bad]))
        lows = (lows[bad][:, None, :] + width * corners[None, :, :]).reshape(-1, dims)
        parents, width = parts[bad].reshape(-1), width / 2


def _bound_values(interp: Any, v: Any, args: list[np.ndarray], name: str) -> np.ndarray:
    """A limit at points: a number, or a function of the outer variables."""
    if type(v) is FunctionHandle:
        out = interp.call_value(v, [result(a.reshape(-1, 1)) for a in args], 1)
        if not out:
            raise error(f"MATLAB:{name}:FunReturnedNoValue", "The function must return a value.")
        got = to_double_array(out[0]).real.reshape(-1)
        return np.broadcast_to(got, args[0].shape[:1]) if got.size == 1 else got
    return np.full(args[0].shape[0], float(_limit(v, name).real))


def _scalar_result(value: complex, *inputs: object) -> object:
    z = complex(value)
    return float_result(np.array([[z if z.imag else z.real]]), *inputs)


def _iterated(interp: Any, fun: Any, limits: list, abstol: float, reltol: float,
              name: str, order: int = 7, max_evals: int = 4_000_000,
              singular: bool = False) -> tuple[complex, float, int, bool]:
    """The integral of fun over x in (a, b), y in (ymin(x), ymax(x)) and, for three
    variables, z in (zmin(x,y), zmax(x,y)), mapped onto the unit box."""
    a, b = limits[0]
    outer = _unit_map(a, b)
    dims = len(limits)
    # inner limits that are numbers (maybe infinite) map like the outer ones
    fixed = {d: _unit_map(float(_limit(lo, name).real), float(_limit(hi, name).real))
             for d, (lo, hi) in enumerate(limits) if d and type(lo) is not FunctionHandle
             and type(hi) is not FunctionHandle}

    def integrand(u: np.ndarray) -> np.ndarray:
        if singular:  # weakens singularities at the edges (Jacobian 6 t (1 - t))
            jac = np.prod(6 * u * (1 - u), axis=1)
            u = u * u * (3 - 2 * u)
        else:
            jac = np.ones(u.shape[0])
        x, dx = outer(u[:, 0])
        coords = [x]
        jac = jac * dx
        for d in range(1, dims):
            if d in fixed:
                t, dt = fixed[d](u[:, d])
                coords.append(t)
                jac = jac * dt
                continue
            lo = _bound_values(interp, limits[d][0], coords, name)
            hi = _bound_values(interp, limits[d][1], coords, name)
            coords.append(lo + (hi - lo) * u[:, d])
            jac = jac * (hi - lo)
        f = _call(interp, fun, coords, name)
        with np.errstate(all="ignore"):
            values = f * jac
        values[(f == 0) | (jac == 0)] = 0  # no contribution, even beside an infinite Jacobian
        return values

    return _cubature(integrand, dims, abstol, reltol, order, max_evals)


# ------------------------------------------------------------------ integral3

_METHOD_MESSAGE = "Invalid Method. Value must be 'auto', 'tiled', or 'iterated'."


@builtin(interp=True)
def integral3(interp: Any, fun: Any, xmin: Any, xmax: Any, ymin: Any, ymax: Any, zmin: Any,
              zmax: Any, *rest: Any) -> object:
    """q = integral3(fun,xmin,xmax,ymin,ymax,zmin,zmax)
    q = integral3(fun,xmin,xmax,ymin,ymax,zmin,zmax,Name,Value)

    Triple integral of fun(x,y,z) over xmin <= x <= xmax, ymin(x) <= y <= ymax(x),
    zmin(x,y) <= z <= zmax(x,y). fun takes arrays of points (element-wise
    operators); the y and z limits may be numbers or function handles. Options:
    'AbsTol' (1e-10), 'RelTol' (1e-6), 'Method' ('auto', 'tiled', 'iterated')."""
    handle = _handle(fun, "integral3")
    opts = options(rest, ("AbsTol", "RelTol", "Method"))
    single = any(class_of(v) == "single" for v in (xmin, xmax, ymin, ymax, zmin, zmax))
    abstol = _tolerance(opts["AbsTol"], "AbsTol", "integral3") if "AbsTol" in opts else \
        (1e-5 if single else 1e-10)
    reltol = _tolerance(opts["RelTol"], "RelTol", "integral3") if "RelTol" in opts else 1e-6
    if "Method" in opts and (text_or_none(opts["Method"]) or "").lower() not in (
            "auto", "tiled", "iterated"):
        raise error("MATLAB:integral3:invalidMethod", _METHOD_MESSAGE)
    a, b = float(_limit(xmin, "integral3").real), float(_limit(xmax, "integral3").real)
    limits = [(a, b), (ymin, ymax), (zmin, zmax)]
    for v in (ymin, ymax, zmin, zmax):
        if type(v) is not FunctionHandle:
            _limit(v, "integral3")
    value, bound, _, ok = _iterated(interp, handle, limits, abstol, reltol, "integral3", order=7,
                                    singular=True)
    if not ok:
        warn("MATLAB:integral3:maxFunEvalsFail",
             "Reached the maximum number of function evaluations (4000000). The result fails "
             f"the global error test. Approximate bound on error is {bound:9.1e}.")
    return _scalar_result(value, xmin, xmax, ymin, ymax, zmin, zmax)


# ---------------------------------------------------------------------- quad2d


@builtin(interp=True, nargout=True, max_out=2)
def quad2d(interp: Any, fun: Any, a: Any, b: Any, c: Any, d: Any, *rest: Any,
           nargout: int = 1) -> object:
    """q = quad2d(fun,a,b,c,d)
    [q,E] = quad2d(fun,a,b,c,d)
    [___] = quad2d(fun,a,b,c,d,Name,Value)

    Double integral of fun(x,y) over a <= x <= b, c(x) <= y <= d(x) by adaptive
    cubature on tiles; c and d may be numbers or function handles of x. E is an
    error bound. Options: 'AbsTol' (1e-5), 'RelTol' (100*eps), 'MaxFunEvals'
    (2000), 'Singular' (true: transform to weaken edge singularities),
    'FailurePlot' (accepted)."""
    if type(fun) is not FunctionHandle:
        raise error("MATLAB:quad2d:invalidFun", "FUN must be a function handle.")
    opts = options(rest, ("AbsTol", "RelTol", "MaxFunEvals", "FailurePlot", "Singular"))
    abstol = _tolerance(opts["AbsTol"], "AbsTol", "quad2d") if "AbsTol" in opts else 1e-5
    reltol = _tolerance(opts["RelTol"], "RelTol", "quad2d") if "RelTol" in opts else \
        100 * np.finfo(float).eps
    max_evals = 2000
    if "MaxFunEvals" in opts:
        m = to_double_array(opts["MaxFunEvals"])
        if m.size != 1 or not m.reshape(-1)[0] >= 1:
            raise error("MATLAB:quad2d:invalidMaxFunEvals",
                        "Invalid MaxFunEvals. Value must be a positive integer scalar.")
        max_evals = int(m.reshape(-1)[0])
    singular = option_flag(opts["Singular"], "Singular") if "Singular" in opts else True
    if "FailurePlot" in opts:
        option_flag(opts["FailurePlot"], "FailurePlot")
    lo, hi = _limit(a, "quad2d"), _limit(b, "quad2d")
    if isinstance(lo, complex) or isinstance(hi, complex) or not (
            math.isfinite(lo) and math.isfinite(hi)):
        raise error("MATLAB:quad2d:invalidLimits", "A and B must be finite, real scalars.")
    for v in (c, d):
        if type(v) is not FunctionHandle:
            z = _limit(v, "quad2d")
            if isinstance(z, complex) or not math.isfinite(z):
                raise error("MATLAB:quad2d:invalidLimits",
                            "C and D must be finite, real scalars or function handles.")
    value, bound, _, ok = _iterated(interp, fun, [(lo, hi), (c, d)], abstol, reltol, "quad2d",
                                    order=7, max_evals=max_evals, singular=singular)
    if not ok:
        warn("MATLAB:quad2d:maxFunEvalsFail",
             f"Reached the maximum number of function evaluations ({max_evals}). The result "
             "fails the global error test.")
    q = _scalar_result(value, a, b, c, d)
    return q if nargout <= 1 else (q, bound)


# ------------------------------------------------------- quad, quadl, quadv

_MAX_COUNT = 10000


class _OldRule:
    """What quad, quadl and quadv share: calling fun with extra parameters, counting the
    calls, the trace lines and the three warnings."""

    def __init__(self, interp: Any, fun: Any, params: tuple, trace: bool, name: str,
                 array_valued: bool = False) -> None:
        if type(fun) is not FunctionHandle and text_or_none(fun) is None:
            raise error(f"MATLAB:{name}:invalidFun", "FUN must be a function handle.")
        self.interp, self.fun, self.params = interp, fun, list(params)
        self.trace, self.name, self.array_valued = trace, name, array_valued
        self.count = 0
        self.flags = [False, False, False]  # minimum step, too many calls, Inf or NaN
        self.shape: tuple[int, ...] = (1, 1)
        self.single = False

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """fun at the points x: one value per point (an array per point for quadv)."""
        if self.array_valued:
            return np.stack([self._one(float(p)) for p in x])
        out = self.interp.call_value(self.fun, [result(x.reshape(1, -1)), *self.params], 1)
        self.count += x.size
        if not out:
            raise error(f"MATLAB:{self.name}:FunReturnedNoValue",
                        "The function must return a value.")
        if class_of(out[0]) == "single":
            self.single = True
        v = to_double_array(out[0]).reshape(-1)
        if v.size != x.size:
            raise error(f"MATLAB:{self.name}:FunSizeMismatch",
                        "The integrand function must return an output vector of the same "
                        "length as the input vector.")
        return v

    def _one(self, x: float) -> np.ndarray:
        out = self.interp.call_value(self.fun, [x, *self.params], 1)
        self.count += 1
        if not out:
            raise error(f"MATLAB:{self.name}:FunReturnedNoValue",
                        "The function must return a value.")
        if class_of(out[0]) == "single":
            self.single = True
        v = to_double_array(out[0])
        self.shape = v.shape
        return v.reshape(-1, order="F")

    def show(self, a: float, h: float, q: Any) -> None:
        if self.trace:
            value = float(np.real(np.ravel(q)[0]))
            self.interp.write(f"{self.count:8.0f} {a:16.10f} {h:18.8e} {value:16.10f}\n")

    def warnings(self) -> None:
        if self.flags[0]:
            warn(f"MATLAB:{self.name}:MinStepSize",
                 "Minimum step size reached; singularity possible.")
        if self.flags[1]:
            warn(f"MATLAB:{self.name}:MaxFcnCount",
                 "Maximum function count exceeded; singularity likely.")
        if self.flags[2]:
            warn(f"MATLAB:{self.name}:ImproperFcnValue",
                 "Infinite or Not-a-Number function value encountered.")

    def output(self, q: Any, a: Any, b: Any) -> object:
        q = np.asarray(q)
        shaped = q.reshape(fix_shape(self.shape), order="F") if self.array_valued \
            else q.reshape(1, 1)
        if self.single:
            return float_result(shaped, np.float32(0).reshape(1, 1))
        return float_result(shaped, a, b)


def _old_arguments(a: Any, b: Any, rest: tuple, name: str) -> tuple[float, float, float, bool,
                                                                     tuple]:
    lo, hi = (float(to_double_array(v).reshape(-1)[0].real) if to_double_array(v).size == 1
              else None for v in (a, b))
    if lo is None or hi is None:
        raise error(f"MATLAB:{name}:invalidLimits", "A and B must be scalars.")
    tol = 1e-6
    if rest and to_double_array(rest[0]).size:
        t = to_double_array(rest[0])
        if t.size != 1 or not t.reshape(-1)[0].real >= 0:
            raise error(f"MATLAB:{name}:invalidTol", "TOL must be a nonnegative scalar.")
        tol = float(t.reshape(-1)[0].real)
    trace = len(rest) > 1 and to_double_array(rest[1]).size > 0 and \
        bool(np.any(to_double_array(rest[1]) != 0))
    return lo, hi, tol, trace, tuple(rest[2:])


def _norm(v: Any) -> float:
    return float(np.max(np.abs(v))) if np.size(v) else 0.0


def _fudged(rule: _OldRule, x: np.ndarray) -> np.ndarray:
    """fun at the first points; an infinite value at an end is replaced by the value just
    inside it (a step of eps times the length), which integrable end singularities allow."""
    y = rule(x)
    span = x[-1] - x[0]
    for k, inward in ((0, 1), (-1, -1)):
        if not np.all(np.isfinite(y[k])):
            y[k] = rule(np.array([x[k] + inward * np.finfo(float).eps * span]))[0]
    return y


def _simpson(rule: _OldRule, a: float, b: float, tol: float) -> Any:
    """Adaptive Simpson quadrature with one step of Richardson extrapolation (quad, quadv):
    three panels from seven points, then recursive halving."""
    h = 0.13579 * (b - a)
    x = np.array([a, a + h, a + 2 * h, (a + b) / 2, b - 2 * h, b - h, b])
    y = _fudged(rule, x)
    if a == b:
        return 0 * y[0]
    hmin = np.spacing(abs(b - a)) / 1024

    def step(a: float, b: float, fa: Any, fc: Any, fb: Any, tol: float) -> Any:
        h = b - a
        c = (a + b) / 2
        if abs(h) < hmin or c == a or c == b:
            rule.flags[0] = True
            return h * fc
        fd, fe = rule(np.array([(a + c) / 2, (c + b) / 2]))
        if rule.count > _MAX_COUNT:
            rule.flags[1] = True
            return h * fc
        q1 = (h / 6) * (fa + 4 * fc + fb)
        q2 = (h / 12) * (fa + 4 * fd + 2 * fc + 4 * fe + fb)
        q = q2 + (q2 - q1) / 15
        if not np.all(np.isfinite(q)):
            rule.flags[2] = True
            return q
        rule.show(a, h, q)
        if _norm(q2 - q) <= tol:
            return q
        return step(a, c, fa, fd, fc, tol / 2) + step(c, b, fc, fe, fb, tol / 2)

    with np.errstate(all="ignore"):
        return (step(x[0], x[2], y[0], y[1], y[2], tol) + step(x[2], x[4], y[2], y[3], y[4], tol)
                + step(x[4], x[6], y[4], y[5], y[6], tol))


@builtin(interp=True, nargout=True, max_out=2)
def quad(interp: Any, fun: Any, a: Any, b: Any, *rest: Any, nargout: int = 1) -> object:
    """q = quad(fun,a,b)
    q = quad(fun,a,b,tol)
    q = quad(fun,a,b,tol,trace)
    q = quad(fun,a,b,tol,trace,p1,p2,...)
    [q,fcnt] = quad(___)

    Numerical integration by recursive adaptive Simpson quadrature to an
    absolute error of tol (1e-6). fun is vectorized; trace nonzero shows
    [fcnt a h Q] for each step; p1,p2,... are passed on to fun. fcnt is the
    number of function evaluations."""
    lo, hi, tol, trace, params = _old_arguments(a, b, rest, "quad")
    rule = _OldRule(interp, fun, params, trace, "quad")
    q = _simpson(rule, lo, hi, tol)
    rule.warnings()
    out = rule.output(q, a, b)
    return out if nargout <= 1 else (out, float(rule.count))


@builtin(interp=True, nargout=True, max_out=2)
def quadv(interp: Any, fun: Any, a: Any, b: Any, *rest: Any, nargout: int = 1) -> object:
    """Q = quadv(fun,a,b)
    Q = quadv(fun,a,b,tol)
    Q = quadv(fun,a,b,tol,trace)
    Q = quadv(fun,a,b,tol,trace,p1,p2,...)
    [Q,fcnt] = quadv(___)

    Vectorized adaptive Simpson quadrature: fun returns an array for a scalar
    x, and Q is the array of integrals (every element to within tol, 1e-6)."""
    lo, hi, tol, trace, params = _old_arguments(a, b, rest, "quadv")
    rule = _OldRule(interp, fun, params, trace, "quadv", array_valued=True)
    q = _simpson(rule, lo, hi, tol)
    rule.warnings()
    out = rule.output(q, a, b)
    return out if nargout <= 1 else (out, float(rule.count))


# Gander and Gautschi's adaptive Lobatto rule: the 13-point Kronrod extension of the
# 7-point Gauss-Lobatto rule, used once to scale the tolerance.
_ALPHA, _BETA = math.sqrt(2 / 3), 1 / math.sqrt(5)
_X1, _X2, _X3 = 0.942882415695480, 0.641853342345781, 0.236383199662150
_S = [0.0158271919734802, 0.094273840218850, 0.155071987336585, 0.188821573960182,
      0.199773405226859, 0.224926465333340]
_KRONROD13 = np.array([*_S, 0.242611071901408, *_S[::-1]])


def _lobatto(rule: _OldRule, a: float, b: float, tol: float) -> float:
    m, h = (a + b) / 2, (b - a) / 2
    x = np.array([a, m - _X1 * h, m - _ALPHA * h, m - _X2 * h, m - _BETA * h, m - _X3 * h, m,
                  m + _X3 * h, m + _BETA * h, m + _X2 * h, m + _ALPHA * h, m + _X1 * h, b])
    y = _fudged(rule, x)
    if a == b:
        return 0.0
    q1 = (h / 6) * np.dot([1, 5, 5, 1], y[0:13:4])
    q2 = (h / 1470) * np.dot([77, 432, 625, 672, 625, 432, 77], y[0:13:2])
    q0 = h * float(np.dot(_KRONROD13, y))
    r = abs(q2 - q0) / abs(q1 - q0 + np.finfo(float).tiny)
    if 0 < r < 1:
        tol = tol / r  # the rule refines well: a looser step test reaches the same accuracy
    hmin = np.spacing(abs(b - a)) / 1024

    def step(a: float, b: float, fa: float, fb: float) -> float:
        h, m = (b - a) / 2, (a + b) / 2
        mll, ml, mr, mrr = m - _ALPHA * h, m - _BETA * h, m + _BETA * h, m + _ALPHA * h
        if abs(h) < hmin or mll <= a or b <= mrr:
            rule.flags[0] = True
            return h * (fa + fb)
        fmll, fml, fm, fmr, fmrr = rule(np.array([mll, ml, m, mr, mrr]))
        if rule.count > _MAX_COUNT:
            rule.flags[1] = True
            return h * (fa + fb)
        q1 = (h / 6) * (fa + fb + 5 * (fml + fmr))
        q = (h / 1470) * (77 * (fa + fb) + 432 * (fmll + fmrr) + 625 * (fml + fmr) + 672 * fm)
        if not np.isfinite(q):
            rule.flags[2] = True
            return q
        rule.show(a, b - a, q)
        if abs(q - q1) <= tol:
            return q
        return (step(a, mll, fa, fmll) + step(mll, ml, fmll, fml) + step(ml, m, fml, fm)
                + step(m, mr, fm, fmr) + step(mr, mrr, fmr, fmrr) + step(mrr, b, fmrr, fb))

    with np.errstate(all="ignore"):
        return step(a, b, y[0], y[12])


@builtin(interp=True, nargout=True, max_out=2)
def quadl(interp: Any, fun: Any, a: Any, b: Any, *rest: Any, nargout: int = 1) -> object:
    """q = quadl(fun,a,b)
    q = quadl(fun,a,b,tol)
    q = quadl(fun,a,b,tol,trace)
    q = quadl(fun,a,b,tol,trace,p1,p2,...)
    [q,fcnt] = quadl(___)

    Numerical integration by recursive adaptive Lobatto quadrature to an
    absolute error of tol (1e-6). fun is vectorized; trace nonzero shows
    [fcnt a h Q] for each step; p1,p2,... are passed on to fun."""
    lo, hi, tol, trace, params = _old_arguments(a, b, rest, "quadl")
    rule = _OldRule(interp, fun, params, trace, "quadl")
    q = _lobatto(rule, lo, hi, tol) if lo <= hi else -_lobatto(rule, hi, lo, tol)
    rule.warnings()
    out = rule.output(q, a, b)
    return out if nargout <= 1 else (out, float(rule.count))
