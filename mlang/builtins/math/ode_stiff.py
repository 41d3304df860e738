"""ode113, ode15s, ode23s, ode23t and ode23tb over SciPy's solve_ivp (LSODA, BDF and
Radau), and odextend for every solver.

They take MATLAB's arguments, options and outputs, but step with SciPy's methods, so
their step sequences (and the number of output points with tspan = [t0 tf]) differ from
MATLAB's; the values agree within the tolerances.  SciPy does not count rejected steps,
so stats.nfailed is 0.  BDF, MaxOrder, JPattern and Vectorized are not used; NonNegative
only keeps a component at zero from decreasing (the solution is not clipped)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.math.ode import PAIRS, Problem, explicit, solver_outputs
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import EMPTY, char_text, class_of, result, to_double_array
from mlang.values.handle import FunctionHandle
from mlang.values.struct import Struct


def _jacobian(p: Problem) -> Any:
    """The Jacobian option for SciPy: a constant matrix, a function of (t, y), or None."""
    jac = p.opts.get("Jacobian")
    if jac is None:
        return None
    if type(jac) is FunctionHandle or isinstance(jac, str):
        def call(t: float, y: np.ndarray) -> np.ndarray:
            out = p.interp.call_value(jac, [float(t), result(y.reshape(-1, 1).copy()),
                                            *p.extra], 1)
            return to_double_array(out[0]).reshape(p.neq, p.neq)
        return call
    return to_double_array(jac).reshape(p.neq, p.neq)


def _events(p: Problem) -> list:
    """One SciPy event function per component of the user's event function, with the
    terminal flags and directions it returns at t0."""
    if p.events is None:
        return []
    v0, terminal, direction = p.events(p.t0, p.y0)
    found = []
    for k in range(v0.size):
        def g(t: float, y: np.ndarray, k: int = k) -> float:
            return float(p.events(t, y)[0][k])
        g.terminal = bool(terminal[k])  # type: ignore[attr-defined]
        g.direction = float(direction[k])  # type: ignore[attr-defined]
        found.append(g)
    return found


class _Stalled(Exception):
    def __init__(self, t: float) -> None:
        super().__init__(t)
        self.t = t


class _Stall:
    """Passes the time through, counting calls at one time in a row: past ``limit`` the
    solver is stuck (LSODA retries forever once the solution overflows)."""

    def __init__(self, limit: int) -> None:
        self.limit, self.t, self.count = limit, None, 0

    def __call__(self, t: float) -> float:
        self.count = self.count + 1 if t == self.t else 0
        self.t = t
        if self.count > self.limit:
            raise _Stalled(float(t))
        return t


def _implicit(interp: Any, solver: str, method: str, fun: Any, tspan: Any, y0: Any,
              options: Any, extra: tuple, nargout: int) -> Any:
    # SciPy on first use: keeps start-up fast
    from scipy.integrate import solve_ivp
    p = Problem(interp, solver, fun, tspan, y0, options, extra)
    kwargs: dict[str, Any] = {"rtol": p.rtol, "atol": p.atol, "max_step": p.hmax}
    if p.htry is not None:
        kwargs["first_step"] = min(p.htry, abs(p.tfinal - p.t0))
    jac = _jacobian(p)
    if jac is not None and method != "LSODA" and p.mass is None:  # the Jacobian of f, not of M\f
        kwargs["jac"] = jac
    events = _events(p)
    stall = _Stall(max(10000, 100 * p.neq))
    try:
        sol = solve_ivp(lambda t, y: p.f(stall(t), y), (p.t0, p.tfinal), p.y0, method=method,
                        dense_output=True, events=events or None, **kwargs)
    except (ValueError, _Stalled) as exc:  # NaN or Inf in the derivative, Jacobian or mass
        at = exc.t if isinstance(exc, _Stalled) else p.t0
        raise error(f"MATLAB:{solver}:IntegrationTolNotMet",
                    f"Failure at t={at:e}.  Unable to meet integration tolerances without "
                    "reducing the step size below the smallest value allowed.") from None
    if sol.status == -1:
        interp.warn(f"MATLAB:{solver}:IntegrationTolNotMet",
                    f"Failure at t={sol.t[-1]:e}.  Unable to meet integration tolerances "
                    "without reducing the step size below the smallest value allowed.")
    xs, ys = sol.t, sol.y
    t_out, y_out = _output_points(p, sol, xs, ys)
    te: list[float] = []
    ye: list[np.ndarray] = []
    ie: list[int] = []
    if events:
        hits = [(float(t), k + 1, y) for k, (ts, yv) in enumerate(zip(sol.t_events,
                                                                       sol.y_events, strict=True))
                for t, y in zip(ts, yv, strict=True)]
        hits.sort(key=lambda h: p.tdir * h[0])
        te, ie, ye = [h[0] for h in hits], [h[1] for h in hits], [h[2] for h in hits]
    if p.output_fcn is not None:
        p.output(result(np.array([[p.t0, p.tfinal]])), result(p.y0[p.output_sel, None].copy()),
                 "init")
        for k in range(1, t_out.size):
            if p.output(float(t_out[k]), result(y_out[p.output_sel, k:k + 1].copy()), ""):
                t_out, y_out = t_out[:k + 1], y_out[:, :k + 1]
                break
    yp = (np.array([p.f(t, y) for t, y in zip(xs, ys.T, strict=True)]).T
          if nargout == 1 else EMPTY)
    nsteps = xs.size - 1
    run = {"t": t_out, "y": y_out, "x": xs, "ys": ys, "te": te, "ye": ye, "ie": ie,
           "stats": (nsteps, 0, p.nfevals)}
    if p.output_fcn is not None:
        p.output(EMPTY, EMPTY, "done")
    if p.opts.flag("Stats"):
        interp.write(f"{nsteps} successful steps\n0 failed attempts\n"
                     f"{p.nfevals} function evaluations\n")
    return solver_outputs(p, run, {"yp": yp}, nargout)


def _output_points(p: Problem, sol: Any, xs: np.ndarray, ys: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The output of [t,y] = solver(...): the steps (refined when Refine > 1) for a tspan
    of two points, else the tspan points reached (and the stopping point of a terminal
    event)."""
    if p.tspan.size > 2:
        reached = p.tspan[p.tdir * (p.tspan - xs[-1]) <= 0]
        t_out = reached if reached[-1] == xs[-1] else np.append(reached, xs[-1])
        y_out = sol.sol(t_out).reshape(p.neq, -1)
        y_out[:, 0] = p.y0
        return t_out, y_out
    refine = 1 if p.refine is None else max(1, int(to_double_array(p.refine).flat[0]))
    if refine == 1:
        return xs, ys
    parts = [xs[:1]]
    for k in range(xs.size - 1):
        parts.append(xs[k] + (xs[k + 1] - xs[k]) * np.arange(1, refine + 1) / refine)
    t_out = np.concatenate(parts)
    y_out = sol.sol(t_out).reshape(p.neq, -1)
    return t_out, y_out


@builtin(interp=True, nargout=True, max_out=5)
def ode113(interp: Any, odefun: Any, tspan: Any, y0: Any, options: Any = None, *extra: Any,
           nargout: int = 1) -> Any:
    """[t,y] = ode113(odefun,tspan,y0)
    [t,y] = ode113(odefun,tspan,y0,options)
    [t,y,te,ye,ie] = ode113(odefun,tspan,y0,options)
    sol = ode113(___)

    Solve nonstiff differential equations with a variable-order method.
    Steps with SciPy's LSODA (Adams methods, switching to BDF when the
    problem turns stiff) rather than MATLAB's Adams-Bashforth-Moulton PECE
    code: step sequences differ, values agree within RelTol/AbsTol."""
    return _implicit(interp, "ode113", "LSODA", odefun, tspan, y0, options, extra, nargout)


@builtin(interp=True, nargout=True, max_out=5)
def ode15s(interp: Any, odefun: Any, tspan: Any, y0: Any, options: Any = None, *extra: Any,
           nargout: int = 1) -> Any:
    """[t,y] = ode15s(odefun,tspan,y0)
    [t,y] = ode15s(odefun,tspan,y0,options)
    [t,y,te,ye,ie] = ode15s(odefun,tspan,y0,options)
    sol = ode15s(___)

    Solve stiff differential equations with a variable-order method.  Steps
    with SciPy's BDF (orders 1-5, NDF-like error control) rather than
    MATLAB's NDF code: step sequences differ, values agree within the
    tolerances.  Jacobian (a matrix or a function of t, y) is used; a Mass
    matrix must be nonsingular (no differential-algebraic equations)."""
    return _implicit(interp, "ode15s", "BDF", odefun, tspan, y0, options, extra, nargout)


@builtin(interp=True, nargout=True, max_out=5)
def ode23s(interp: Any, odefun: Any, tspan: Any, y0: Any, options: Any = None, *extra: Any,
           nargout: int = 1) -> Any:
    """[t,y] = ode23s(odefun,tspan,y0)
    [t,y] = ode23s(odefun,tspan,y0,options)
    [t,y,te,ye,ie] = ode23s(odefun,tspan,y0,options)
    sol = ode23s(___)

    Solve stiff differential equations with a low-order method.  Steps with
    SciPy's Radau IIA (order 5) rather than MATLAB's modified Rosenbrock
    (2,3) pair: step sequences differ, values agree within the tolerances.
    Jacobian is used; a Mass matrix must be nonsingular."""
    return _implicit(interp, "ode23s", "Radau", odefun, tspan, y0, options, extra, nargout)


@builtin(interp=True, nargout=True, max_out=5)
def ode23t(interp: Any, odefun: Any, tspan: Any, y0: Any, options: Any = None, *extra: Any,
           nargout: int = 1) -> Any:
    """[t,y] = ode23t(odefun,tspan,y0)
    [t,y] = ode23t(odefun,tspan,y0,options)
    [t,y,te,ye,ie] = ode23t(odefun,tspan,y0,options)
    sol = ode23t(___)

    Solve moderately stiff differential equations with the trapezoidal rule.
    Steps with SciPy's Radau IIA rather than MATLAB's trapezoidal rule with
    a free interpolant: step sequences differ, values agree within the
    tolerances.  A Mass matrix must be nonsingular."""
    return _implicit(interp, "ode23t", "Radau", odefun, tspan, y0, options, extra, nargout)


@builtin(interp=True, nargout=True, max_out=5)
def ode23tb(interp: Any, odefun: Any, tspan: Any, y0: Any, options: Any = None, *extra: Any,
            nargout: int = 1) -> Any:
    """[t,y] = ode23tb(odefun,tspan,y0)
    [t,y] = ode23tb(odefun,tspan,y0,options)
    [t,y,te,ye,ie] = ode23tb(odefun,tspan,y0,options)
    sol = ode23tb(___)

    Solve stiff differential equations with a low-order method (TR-BDF2 in
    MATLAB).  Steps with SciPy's BDF: step sequences differ, values agree
    within the tolerances.  A Mass matrix must be nonsingular."""
    return _implicit(interp, "ode23tb", "BDF", odefun, tspan, y0, options, extra, nargout)


METHODS = {"ode113": "LSODA", "ode15s": "BDF", "ode23s": "Radau", "ode23t": "Radau",
           "ode23tb": "BDF"}


@builtin(interp=True)
def odextend(interp: Any, sol: Any, odefun: Any, tfinal: Any, yinit: Any = None,
             options: Any = None) -> Struct:
    """solext = odextend(sol,odefun,tfinal)
    solext = odextend(sol,[],tfinal)
    solext = odextend(sol,odefun,tfinal,y0)
    solext = odextend(sol,odefun,tfinal,y0,options)

    Extend the solution structure of an ODE solver to tfinal, integrating
    from its last point with the same solver (and, for [] arguments, its
    function, final state and options)."""
    if type(sol) is not Struct or not {"solver", "x", "y", "extdata"} <= set(sol.fields):
        raise error("MATLAB:odextend:SolNotFromDiffEqSolver",
                    "SOL must be a structure returned by a differential equation solver.")
    fields = sol.element(0)
    solver = char_text(fields["solver"])
    if solver not in PAIRS and solver not in METHODS:
        raise error("MATLAB:odextend:UnknownSolver", f"Unrecognized solver '{solver}'.")
    ext = fields["extdata"].element(0)
    fun = ext["odefun"] if _empty(odefun) else odefun
    opts = ext["options"] if options is None else options
    extra = tuple(ext["varargin"].data.reshape(-1, order="F")) if type(
        ext.get("varargin")) is Cell else ()
    xs = to_double_array(fields["x"]).reshape(-1)
    ys = to_double_array(fields["y"])
    ys = ys.reshape(ys.shape[0], -1)
    y0 = ys[:, -1:].copy() if _empty(yinit) else yinit
    t_end = float(to_double_array(tfinal).reshape(-1)[0])
    if (t_end - xs[-1]) * (xs[-1] - xs[0]) <= 0:
        raise error("MATLAB:odextend:TfinalNotBeyondEnd",
                    "TFINAL must be beyond the end of the interval where SOL is defined.")
    span = np.array([[xs[-1], t_end]])
    new = (explicit(interp, solver, fun, span, y0, opts, extra, 1) if solver in PAIRS else
           _implicit(interp, solver, METHODS[solver], fun, span, y0, opts, extra, 1))
    return _joined(fields, new.element(0), fun, opts)


def _empty(v: Any) -> bool:
    return v is None or (type(v) is np.ndarray and v.size == 0)


def _cat(a: Any, b: Any) -> np.ndarray:
    """Columns of a, then those of b after its first (the shared point)."""
    first = to_double_array(a)
    return np.concatenate([first.reshape(first.shape[0], -1), to_double_array(b)[:, 1:]],
                          axis=1)


def _joined(old: dict, new: dict, fun: Any, opts: Any) -> Struct:
    """The solution structure over both intervals: the new one's first point (the old
    one's last) appears once."""
    out = dict(old)
    single = class_of(old["y"]) == "single"
    x = _cat(old["x"], new["x"])
    y = _cat(old["y"], new["y"])
    out["x"] = result(x.astype(np.float32) if single else x)
    out["y"] = result(y.astype(np.float32) if single else y)
    out["extdata"] = Struct.scalar({**old["extdata"].element(0), "odefun": fun,
                                    "options": opts})
    for name in ("xe", "ye", "ie"):
        if name in old or name in new:
            parts = [to_double_array(d[name]) for d in (old, new) if name in d]
            rows = max(p.shape[0] for p in parts)
            parts = [p.reshape(rows, -1) if p.size else np.zeros((rows, 0)) for p in parts]
            out[name] = result(np.concatenate(parts, axis=1))
    old_stats, new_stats = old["stats"].element(0), new["stats"].element(0)
    out["stats"] = Struct.scalar({k: float(old_stats[k]) + float(new_stats[k])
                                  for k in old_stats})
    old_data, new_data = old["idata"].element(0), new["idata"].element(0)
    data = dict(new_data)
    if "f3d" in new_data:
        a, b = to_double_array(old_data["f3d"]), to_double_array(new_data["f3d"])
        data["f3d"] = np.concatenate([a.reshape(b.shape[0], b.shape[1], -1),
                                      b.reshape(b.shape[0], b.shape[1], -1)], axis=2)
    else:
        data["yp"] = _cat(old_data["yp"], new_data["yp"])
    out["idata"] = Struct.scalar(data)
    fields = list(old) + [k for k in out if k not in old]
    return Struct.scalar({k: out[k] for k in fields})
