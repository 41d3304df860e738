"""Explicit Runge-Kutta ODE solvers (ode45, ode23) and deval.

The stepping, error control, initial step, output refinement and event location follow
MATLAB's solvers as described in Shampine & Reichelt, "The MATLAB ODE Suite": ode45 is
the Dormand-Prince (4,5) pair with its continuous extension, ode23 the Bogacki-Shampine
(2,3) pair; both advance with the higher order (local extrapolation)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mlang.builtins.coerce import checked_shape, integer_scalar
from mlang.builtins.math.ode_events import EventFunction, locate
from mlang.builtins.math.ode_options import OdeOptions
from mlang.display import func2str_text
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import CHAR, EMPTY, char_row, char_text, class_of, result, to_double_array
from mlang.values.handle import FunctionHandle
from mlang.values.struct import Struct


@dataclass(frozen=True)
class Pair:
    """An embedded Runge-Kutta pair: nodes A (the last is 1), stage weights B (column j
    builds stage j+2; the last column is the solution), error weights E, the
    interpolation matrix BI, the error exponent and the first-failure step factor."""

    A: np.ndarray
    B: np.ndarray
    E: np.ndarray
    BI: np.ndarray
    power: float
    shrink: float
    refine: int


DORMAND_PRINCE = Pair(
    A=np.array([1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1]),
    B=np.array([
        [1 / 5, 3 / 40, 44 / 45, 19372 / 6561, 9017 / 3168, 35 / 384],
        [0, 9 / 40, -56 / 15, -25360 / 2187, -355 / 33, 0],
        [0, 0, 32 / 9, 64448 / 6561, 46732 / 5247, 500 / 1113],
        [0, 0, 0, -212 / 729, 49 / 176, 125 / 192],
        [0, 0, 0, 0, -5103 / 18656, -2187 / 6784],
        [0, 0, 0, 0, 0, 11 / 84],
        [0, 0, 0, 0, 0, 0]]),
    E=np.array([71 / 57600, 0, -71 / 16695, 71 / 1920, -17253 / 339200, 22 / 525, -1 / 40]),
    BI=np.array([
        [1, -183 / 64, 37 / 12, -145 / 128],
        [0, 0, 0, 0],
        [0, 1500 / 371, -1000 / 159, 1000 / 371],
        [0, -125 / 32, 125 / 12, -375 / 64],
        [0, 9477 / 3392, -729 / 106, 25515 / 6784],
        [0, -11 / 7, 11 / 3, -55 / 28],
        [0, 3 / 2, -4, 5 / 2]]),
    power=1 / 5, shrink=0.1, refine=4)

BOGACKI_SHAMPINE = Pair(
    A=np.array([1 / 2, 3 / 4, 1]),
    B=np.array([
        [1 / 2, 0, 2 / 9],
        [0, 3 / 4, 1 / 3],
        [0, 0, 4 / 9],
        [0, 0, 0]]),
    E=np.array([-5 / 72, 1 / 12, 1 / 9, -1 / 8]),
    BI=np.array([
        [1, -4 / 3, 5 / 9],
        [0, 1, -2 / 3],
        [0, 4 / 3, -8 / 9],
        [0, -1, 1]]),
    power=1 / 3, shrink=0.5, refine=1)

PAIRS = {"ode45": DORMAND_PRINCE, "ode23": BOGACKI_SHAMPINE}


def interpolate(pair: Pair, s_t: np.ndarray, t: float, y: np.ndarray, h: float,
                f: np.ndarray, nonneg: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """The continuous extension on the step from (t, y) of size h with stages f: the
    solution and its derivative at the times s_t (one column each); the components
    ``nonneg`` held at zero where they would be negative."""
    s = (np.asarray(s_t, dtype=np.float64) - t) / h
    k = np.arange(1, pair.BI.shape[1] + 1)[:, None]
    powers = s[None, :] ** k
    dpowers = k * s[None, :] ** (k - 1)
    yint = y[:, None] + f @ (h * pair.BI) @ powers
    ypint = f @ pair.BI @ dpowers
    if nonneg is not None and nonneg.size:
        negative = yint[nonneg] < 0
        if negative.any():
            yint[nonneg] = np.where(negative, 0.0, yint[nonneg])
            ypint[nonneg] = np.where(negative, 0.0, ypint[nonneg])
    return yint, ypint


# ------------------------------------------------------------------ arguments


class Problem:
    """An ODE problem as the solvers see it: the derivative function, tspan, y0 and the
    options, checked as MATLAB's odearguments checks them."""

    def __init__(self, interp: Any, solver: str, fun: Any, tspan: Any, y0: Any, options: Any,
                 extra: tuple) -> None:
        self.interp = interp
        self.solver = solver
        self.fun = fun
        self.extra = list(extra)
        self.options_value = EMPTY if options is None else options
        self.opts = OdeOptions(self.options_value, solver)
        classes = (class_of(tspan), class_of(y0))
        if any(c not in ("double", "single") for c in classes):
            raise error("MATLAB:datatypes:superiorfloat",
                        "Inputs must be floats, namely single or double.")
        self.single = "single" in classes
        span = to_double_array(tspan).real.reshape(-1, order="F")
        if span.size == 0 or to_double_array(y0).size == 0:
            raise error("MATLAB:odearguments:TspanOrY0NotSupplied",
                        f"When the first argument to {solver} is a function handle, the tspan "
                        "and y0 arguments must be supplied.")
        if span.size < 2:
            raise error("MATLAB:odearguments:SizeTspan",
                        "The input tspan must have two or more elements.")
        if not np.isfinite(span).all():  # an endless or undefined interval is never covered
            raise error("MATLAB:odearguments:TspanNotFinite", "The entries in tspan must be finite.")
        if span[0] == span[-1]:
            raise error("MATLAB:odearguments:TspanEndpointsNotDistinct",
                        "The first and last entries in tspan must be different.")
        self.tdir = float(np.sign(span[-1] - span[0]))
        if np.any(self.tdir * np.diff(span) <= 0):
            raise error("MATLAB:odearguments:TspanNotMonotonic",
                        "The entries in tspan must strictly increase or decrease.")
        self.tspan = span
        self.t0, self.tfinal = float(span[0]), float(span[-1])
        y = to_double_array(y0).reshape(-1, order="F")
        self.y0 = y.astype(np.complex128 if y.dtype.kind == "c" else np.float64)
        self.neq = self.y0.size
        self.nfevals = 0
        self.nonneg = self._nonnegative()
        self.mass = self.opts.get("Mass")
        dependence = self.opts.get("MStateDependence")
        self.mass_of_t_only = dependence is not None and char_text(dependence).lower() == "none"
        f0 = self.f(self.t0, self.y0, first=True)
        self.f0 = f0
        rtol = self.opts.number("RelTol", 1e-3)
        if rtol < 100 * np.finfo(float).eps:
            rtol = 100 * np.finfo(float).eps
            interp.warn("MATLAB:odearguments:RelTolIncrease",
                        f"RelTol has been increased to {rtol:e}.")
        self.rtol = rtol
        self.atol = self.opts.vector("AbsTol", 1e-6, self.neq)
        self.normcontrol = self.opts.flag("NormControl")
        if self.normcontrol and self.atol.size:
            self.atol = self.atol[:1].copy()
        self.threshold = self.atol / rtol
        span_len = abs(self.tfinal - self.t0)
        self.hmax = min(span_len, abs(self.opts.number("MaxStep", 0.1 * span_len)))
        htry = self.opts.get("InitialStep")
        self.htry = None if htry is None else abs(self.opts.number("InitialStep", 0.0))
        self.refine = self.opts.get("Refine")
        if self.refine is not None:
            message = "Refine must be a positive integer."
            refine = integer_scalar(self.refine, message, "MATLAB:odearguments:RefineNotPosInteger")
            if refine < 1:
                raise error("MATLAB:odearguments:RefineNotPosInteger", message)
            checked_shape((1, refine), "double")  # the points put in each step
        events = self.opts.get("Events")
        self.events = None if events is None else EventFunction(interp, events, self.extra)
        self.output_fcn = self.opts.get("OutputFcn")
        sel = self.opts.get("OutputSel")
        self.output_sel = (np.arange(self.neq) if sel is None
                           else to_double_array(sel).real.reshape(-1).astype(int) - 1)

    def _nonnegative(self) -> np.ndarray | None:
        given = self.opts.get("NonNegative")
        if given is None:
            return None
        idx = to_double_array(given).real.reshape(-1)
        if np.any(idx != np.floor(idx)) or np.any(idx < 1) or np.any(idx > self.neq):
            raise error("MATLAB:odenonnegative:NonNegativeIndicesInvalid",
                        "Invalid indices in the NonNegative option.")
        return np.unique(idx.astype(int) - 1)

    def f(self, t: float, y: np.ndarray, first: bool = False) -> np.ndarray:
        """The derivative at (t, y), from the user's function."""
        self.nfevals += 1
        out = self.interp.call_value(self.fun, [float(t), result(y.reshape(-1, 1).copy()),
                                                *self.extra], 1)
        if not out:
            raise error("MATLAB:odearguments:NoOutput",
                        "The ODE function must return a column vector.")
        raw = to_double_array(out[0])
        v = raw.reshape(-1, order="F")
        if first and raw.ndim == 2 and raw.shape[1] != 1 and raw.size > 1:
            raise error("MATLAB:odearguments:FoMustReturnCol",
                        f"{_fun_name(self.fun)} must return a column vector.")
        if first and v.size != self.neq:
            name = _fun_name(self.fun)
            raise error("MATLAB:odearguments:SizeIC",
                        f"{name} returns a vector of length {v.size}, but the length of initial "
                        f"conditions vector is {self.neq}. The vector returned by {name} and the "
                        "initial conditions vector must have the same number of elements.")
        if v.size != self.neq:
            raise error("MATLAB:odearguments:SizeIC",
                        "The ODE function must return a vector of the initial conditions' length.")
        if v.dtype.kind == "c" and self.y0.dtype.kind != "c":
            self.y0 = self.y0.astype(np.complex128)
        if self.mass is not None:
            v = self.solve_mass(t, y, v)
        if self.nonneg is not None:
            # A component at or below zero may not decrease further.
            held = self.nonneg[y[self.nonneg] <= 0]
            if held.size:
                v = v.copy()
                v[held] = np.maximum(v[held], 0)
        return v

    def solve_mass(self, t: float, y: np.ndarray, v: np.ndarray) -> np.ndarray:
        """M \\ f for the problem M(t,y)*y' = f(t,y) (a nonsingular mass matrix)."""
        M = self.mass
        if type(M) is FunctionHandle:
            args = [float(t)] if self.mass_of_t_only else [
                float(t), result(y.reshape(-1, 1).copy())]
            M = self.interp.call_value(M, [*args, *self.extra], 1)[0]
        M = to_double_array(M)
        if M.shape != (self.neq, self.neq):
            raise error("MATLAB:odearguments:MassMatrixSize",
                        f"The mass matrix must be {self.neq}-by-{self.neq}.")
        try:
            return np.linalg.solve(M, v)
        except np.linalg.LinAlgError:
            raise error("MATLAB:odearguments:MassSingular",
                        f"The mass matrix is singular: {self.solver} cannot solve "
                        "differential-algebraic equations.") from None

    def output(self, t: Any, y: Any, flag: str) -> bool:
        """Call the OutputFcn; True when it asks to stop."""
        text = char_row(flag) if flag else np.zeros((0, 0), dtype=CHAR)
        out = self.interp.call_value(self.output_fcn, [t, y, text], 1 if flag == "" else 0)
        if flag == "" and out:
            v = to_double_array(out[0])
            return bool(v.size and np.all(v != 0))
        return False


def _fun_name(fun: Any) -> str:
    """func2str of the ODE function, as MATLAB's messages show it."""
    if type(fun) is FunctionHandle:
        return func2str_text(fun) if fun.is_anonymous else fun.name
    return char_text(fun) if class_of(fun) == "char" else "The ODE function"


# ---------------------------------------------------------------- the stepper


def _norm_err(p: Problem, pair: Pair, f: np.ndarray, y: np.ndarray, ynew: np.ndarray,
              absh: float, normy: float, normynew: float) -> float:
    if p.normcontrol:
        errwt = max(max(normy, normynew), float(p.threshold[0]))
        return absh * float(np.linalg.norm(f @ pair.E)) / errwt
    scale = np.maximum(np.maximum(np.abs(y), np.abs(ynew)), p.threshold)
    return absh * float(np.max(np.abs((f @ pair.E) / scale))) if y.size else 0.0


def integrate(p: Problem, pair: Pair) -> dict[str, Any]:
    """Integrate from tspan(1) to tspan(end): the output times and states, the step data
    for deval, the events and the statistics."""
    t, y, tfinal, tdir = p.t0, p.y0.copy(), p.tfinal, p.tdir
    neq, rtol, power, nonneg = p.neq, p.rtol, pair.power, p.nonneg
    refine = pair.refine if p.refine is None else max(1, int(to_double_array(p.refine).flat[0]))
    ntspan = p.tspan.size
    at = "requested" if ntspan > 2 else ("refined" if refine > 1 else "steps")
    S = np.arange(1, refine) / refine
    stages = pair.A.size + 1
    f = np.zeros((neq, stages), dtype=y.dtype)
    f[:, 0] = p.f0
    nsteps = nfailed = 0
    hmin = 16 * np.spacing(abs(t))
    if p.htry is None:
        absh = min(p.hmax, abs(tfinal - t))
        if p.normcontrol:
            rh = (np.linalg.norm(p.f0) / max(np.linalg.norm(y), p.threshold[0])) / (
                0.8 * rtol ** power)
        else:
            rh = (float(np.max(np.abs(p.f0 / np.maximum(np.abs(y), p.threshold))))
                  if neq else 0.0) / (0.8 * rtol ** power)
        if absh * rh > 1:
            absh = 1 / rh
        absh = max(absh, hmin)
    else:
        absh = min(p.hmax, max(hmin, p.htry))
    normy = float(np.linalg.norm(y)) if p.normcontrol else 0.0
    tout, yout = [np.array([t])], [y[:, None].copy()]
    steps_x, steps_y, steps_f = [t], [y.copy()], []
    te: list[float] = []
    ye: list[np.ndarray] = []
    ie: list[int] = []
    nxt = 1
    valt = None
    if p.events is not None:
        valt = p.events(t, y)[0]
    if p.output_fcn is not None:
        p.output(result(np.array([[t, tfinal]])), result(y[p.output_sel, None].copy()), "init")
    done = False
    while not done:
        hmin = 16 * np.spacing(abs(t))
        absh = min(p.hmax, max(hmin, absh))
        h = tdir * absh
        if 1.1 * absh >= abs(tfinal - t):
            h = tfinal - t
            absh = abs(h)
            done = True
        nofailed = True
        while True:
            hB = h * pair.B
            for j in range(1, stages - 1):
                f[:, j] = p.f(t + h * pair.A[j - 1], y + f @ hB[:, j - 1])
            tnew = tfinal if done else t + h * pair.A[-1]
            h = tnew - t
            ynew = y + f @ hB[:, -1]
            f[:, -1] = p.f(tnew, ynew)
            normynew = float(np.linalg.norm(ynew)) if p.normcontrol else 0.0
            err = _norm_err(p, pair, f, y, ynew, absh, normy, normynew)
            nn_reject = False
            if nonneg is not None and err <= rtol and np.any(ynew[nonneg] < 0):
                below = np.maximum(0, -ynew[nonneg])
                err_nn = (float(np.linalg.norm(below)) / max(normy, normynew, p.threshold[0])
                          if p.normcontrol else float(np.max(below / p.threshold[nonneg])))
                if err_nn > rtol:
                    err, nn_reject = err_nn, True
            if err > rtol:
                nfailed += 1
                if absh <= hmin:
                    p.interp.warn(f"MATLAB:{p.solver}:IntegrationTolNotMet",
                                  f"Failure at t={t:e}.  Unable to meet integration tolerances "
                                  f"without reducing the step size below the smallest value "
                                  f"allowed ({hmin:e}) at time t.")
                    return _finish(p, tout, yout, steps_x, steps_y, steps_f, te, ye, ie,
                                   nsteps, nfailed)
                if nofailed:
                    nofailed = False
                    absh = max(hmin, 0.5 * absh if nn_reject else
                               absh * max(pair.shrink, 0.8 * (rtol / err) ** power))
                else:
                    absh = max(hmin, 0.5 * absh)
                h = tdir * absh
                done = False
            else:
                break
        reset_last = False
        if nonneg is not None and np.any(ynew[nonneg] < 0):
            ynew = ynew.copy()
            ynew[nonneg] = np.maximum(ynew[nonneg], 0)
            normynew = float(np.linalg.norm(ynew)) if p.normcontrol else 0.0
            reset_last = True
        nsteps += 1
        stop = False
        if p.events is not None:
            fs = f.copy()
            found = locate(p.events, lambda s, t=t, y=y, h=h, fs=fs:
                           interpolate(pair, np.array([s]), t, y, h, fs, nonneg)[0][:, 0],
                           valt, t, y, tnew, ynew, p.t0)
            tev, yev, iev, valt, stop = found
            te += tev
            ye += yev
            ie += iev
            if stop:
                taux = t + (tev[-1] - t) * pair.A
                f[:, 1:] = interpolate(pair, taux, t, y, h, f, nonneg)[1]
                tnew, ynew = tev[-1], yev[-1]
                h = tnew - t
                done = True
        steps_x.append(tnew)
        steps_y.append(ynew.copy())
        steps_f.append(f.copy())
        if at == "steps":
            tnew_out, ynew_out = np.array([tnew]), ynew[:, None]
        elif at == "refined":
            tref = t + (tnew - t) * S
            tnew_out = np.append(tref, tnew)
            ynew_out = np.hstack([interpolate(pair, tref, t, y, h, f, nonneg)[0], ynew[:, None]])
        else:
            ts, ys = [], []
            while nxt < ntspan:
                tn = p.tspan[nxt]
                if tdir * (tnew - tn) < 0:
                    if stop:
                        ts.append(tnew)
                        ys.append(ynew.copy())
                    break
                ts.append(tn)
                ys.append(ynew.copy() if tn == tnew else
                          interpolate(pair, np.array([tn]), t, y, h, f, nonneg)[0][:, 0])
                nxt += 1
            tnew_out = np.array(ts)
            ynew_out = np.array(ys).T if ys else np.zeros((neq, 0), dtype=y.dtype)
        if tnew_out.size:
            tout.append(tnew_out)
            yout.append(ynew_out)
            if p.output_fcn is not None and p.output(
                    result(tnew_out[None, :].copy()),
                    result(ynew_out[p.output_sel, :].copy()), ""):
                done = True
        if done:
            break
        if nofailed:
            temp = 1.25 * (err / rtol) ** power
            absh = absh / temp if temp > 0.2 else 5.0 * absh
        t, y = tnew, ynew
        normy = normynew
        if reset_last:
            # The last stage interpolated the unclipped solution: restart from the clipped one.
            f[:, -1] = p.f(tnew, ynew)
        f[:, 0] = f[:, -1]
    return _finish(p, tout, yout, steps_x, steps_y, steps_f, te, ye, ie, nsteps, nfailed)


def _finish(p: Problem, tout: list, yout: list, steps_x: list, steps_y: list, steps_f: list,
            te: list, ye: list, ie: list, nsteps: int, nfailed: int) -> dict[str, Any]:
    if p.output_fcn is not None:
        p.output(EMPTY, EMPTY, "done")
    if p.opts.flag("Stats"):
        p.interp.write(f"{nsteps} successful steps\n{nfailed} failed attempts\n"
                       f"{p.nfevals} function evaluations\n")
    return {"t": np.concatenate(tout), "y": np.hstack(yout), "x": np.array(steps_x),
            "ys": np.array(steps_y).T, "f": steps_f, "te": te, "ye": ye, "ie": ie,
            "stats": (nsteps, nfailed, p.nfevals)}


# ---------------------------------------------------------------------- outputs


def _value(a: np.ndarray, single: bool) -> Any:
    return result(a.astype(np.float32 if a.dtype.kind == "f" else np.complex64) if single
                  else a)


def _event_outputs(p: Problem, run: dict) -> tuple[Any, Any, Any]:
    if p.events is None:
        return EMPTY, EMPTY, EMPTY
    te = np.array(run["te"]).reshape(-1, 1)
    ye = (np.array(run["ye"]) if run["ye"] else np.zeros((0, p.neq))).reshape(-1, p.neq)
    ie = np.array(run["ie"], dtype=np.float64).reshape(-1, 1)
    return _value(te, p.single), _value(ye, p.single), result(ie)


def solution_struct(p: Problem, run: dict, idata: dict) -> Struct:
    """The solution structure sol = solver(...), which deval reads."""
    extdata = Struct.scalar({"odefun": p.fun, "options": p.options_value,
                             "varargin": Cell.row(p.extra) if p.extra else
                             Cell.empty((0, 0))})
    fields: dict[str, Any] = {"solver": char_row(p.solver), "extdata": extdata,
                              "x": _value(run["x"][None, :], p.single),
                              "y": _value(run["ys"], p.single)}
    if p.events is not None:
        fields["xe"] = _value(np.array(run["te"], dtype=np.float64).reshape(1, -1), p.single)
        ye = np.array(run["ye"]).T if run["ye"] else np.zeros((p.neq, 0))
        fields["ye"] = _value(ye.reshape(p.neq, -1), p.single)
        fields["ie"] = result(np.array(run["ie"], dtype=np.float64).reshape(1, -1))
    nsteps, nfailed, nfevals = run["stats"]
    fields["stats"] = Struct.scalar({"nsteps": float(nsteps), "nfailed": float(nfailed),
                                     "nfevals": float(nfevals)})
    fields["idata"] = Struct.scalar(idata)
    return Struct.scalar(fields)


def solver_outputs(p: Problem, run: dict, idata: dict, nargout: int) -> Any:
    """What a solver returns for nargout outputs: nothing, sol, or [t,y,te,ye,ie]."""
    if nargout == 0:
        return None
    if nargout == 1:
        return solution_struct(p, run, idata)
    t = _value(run["t"].reshape(-1, 1), p.single)
    y = _value(run["y"].T.copy(), p.single)
    if nargout == 2:
        return t, y
    return (t, y, *_event_outputs(p, run))[:nargout]


def explicit(interp: Any, solver: str, fun: Any, tspan: Any, y0: Any, options: Any,
             extra: tuple, nargout: int) -> Any:
    """Solve with one of the explicit pairs (ode45, ode23)."""
    p = Problem(interp, solver, fun, tspan, y0, options, extra)
    pair = PAIRS[solver]
    run = integrate(p, pair)
    f3d = (np.stack(run["f"], axis=2) if run["f"]
           else np.zeros((p.neq, pair.A.size + 1, 0)))
    idx = EMPTY if p.nonneg is None else (p.nonneg + 1.0).reshape(-1, 1)
    return solver_outputs(p, run, {"f3d": f3d, "idxNonNegative": result(idx)}, nargout)


@builtin(interp=True, nargout=True, max_out=5)
def ode45(interp: Any, odefun: Any, tspan: Any, y0: Any, options: Any = None, *extra: Any,
          nargout: int = 1) -> Any:
    """[t,y] = ode45(odefun,tspan,y0)
    [t,y] = ode45(odefun,tspan,y0,options)
    [t,y,te,ye,ie] = ode45(odefun,tspan,y0,options)
    sol = ode45(___)

    Solve nonstiff differential equations y' = odefun(t,y) with the explicit
    Dormand-Prince (4,5) pair (medium order).  With tspan = [t0 tf] the
    output holds every step refined by options.Refine (default 4); with more
    points, the solution at exactly those points.  Options (odeset): RelTol
    (1e-3), AbsTol (1e-6), NormControl, MaxStep (0.1*|tf-t0|), InitialStep,
    Refine, Events, OutputFcn, OutputSel, Stats, NonNegative, Mass (a
    nonsingular matrix or a function of t, or of (t,y)) with
    MStateDependence.  Vectorized is not used."""
    return explicit(interp, "ode45", odefun, tspan, y0, options, extra, nargout)


@builtin(interp=True, nargout=True, max_out=5)
def ode23(interp: Any, odefun: Any, tspan: Any, y0: Any, options: Any = None, *extra: Any,
          nargout: int = 1) -> Any:
    """[t,y] = ode23(odefun,tspan,y0)
    [t,y] = ode23(odefun,tspan,y0,options)
    [t,y,te,ye,ie] = ode23(odefun,tspan,y0,options)
    sol = ode23(___)

    Solve nonstiff differential equations with the explicit Bogacki-Shampine
    (2,3) pair (low order).  Options as for ode45; Refine defaults to 1."""
    return explicit(interp, "ode23", odefun, tspan, y0, options, extra, nargout)


# ------------------------------------------------------------------------ deval


@builtin(nargout=True, max_out=2)
def deval(a: Any, b: Any, idx: Any = None, *, nargout: int = 1) -> Any:
    """y = deval(sol,x)
    y = deval(x,sol)
    y = deval(___,idx)
    [y,yp] = deval(___)

    Evaluate the solution structure of an ODE solver at the points x (one
    column per point), with its derivative yp; idx selects components."""
    sol, x = (a, b) if type(a) is Struct else (b, a)
    if type(sol) is not Struct or not {"solver", "x", "y"} <= set(sol.fields):
        raise error("MATLAB:deval:SolNotFromDiffEqSolver",
                    "SOL must be a structure returned by a differential equation solver.")
    fields = sol.element(0)
    solver = char_text(fields["solver"])
    xs = to_double_array(fields["x"]).reshape(-1)
    ys = to_double_array(fields["y"])
    ys = ys.reshape(ys.shape[0], -1)
    pts = to_double_array(x).real.reshape(-1, order="F")
    lo, hi = min(xs[0], xs[-1]), max(xs[0], xs[-1])
    if pts.size and (pts.min() < lo or pts.max() > hi):
        raise error("MATLAB:deval:SolOutsideInterval",
                    f"Attempting to evaluate the solution outside the interval [{xs[0]:e}, "
                    f"{xs[-1]:e}] where it is defined.")
    rows = (np.arange(ys.shape[0]) if idx is None
            else to_double_array(idx).real.reshape(-1).astype(int) - 1)
    if rows.size and (rows.min() < 0 or rows.max() >= ys.shape[0]):
        raise error("MATLAB:badsubscript", "Index in position 1 exceeds array bounds. Index "
                    f"must not exceed {ys.shape[0]}.")
    idata = fields["idata"].element(0) if type(fields.get("idata")) is Struct else {}
    yv = np.zeros((ys.shape[0], pts.size), dtype=ys.dtype)
    ypv = np.zeros_like(yv)
    if solver in PAIRS:
        pair = PAIRS[solver]
        given = idata.get("idxNonNegative", EMPTY)
        nonneg = to_double_array(given).real.reshape(-1).astype(int) - 1
        f3d = to_double_array(idata["f3d"])
        f3d = f3d.reshape(f3d.shape[0], f3d.shape[1] if f3d.ndim > 1 else 1, -1)
        seg = _segments(xs, pts)
        for k in np.unique(seg):
            sel = seg == k
            h = xs[k + 1] - xs[k]
            yv[:, sel], ypv[:, sel] = interpolate(pair, pts[sel], xs[k], ys[:, k], h,
                                                  f3d[:, :, k], nonneg)
    else:
        # SciPy on first use: keeps start-up fast
        from scipy.interpolate import CubicHermiteSpline
        yp = to_double_array(idata["yp"]).reshape(ys.shape)
        order = np.argsort(xs) if xs[0] > xs[-1] else slice(None)
        spline = CubicHermiteSpline(xs[order], ys[:, order], yp[:, order], axis=1)
        yv, ypv = spline(pts), spline(pts, 1)
    single = class_of(fields["y"]) == "single"
    out = _value(yv[rows], single)
    return (out, _value(ypv[rows], single)) if nargout > 1 else out


def _segments(xs: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """The step (0-based) each point falls in; the end point in the last step."""
    n = xs.size - 1
    if xs[-1] >= xs[0]:
        seg = np.searchsorted(xs, pts, side="right") - 1
    else:
        seg = np.array([_seg_down(xs, v) for v in pts], dtype=int)
    return np.clip(seg, 0, max(n - 1, 0))


def _seg_down(xs: np.ndarray, v: float) -> int:
    for k in range(xs.size - 1):
        if xs[k] >= v >= xs[k + 1]:
            return k
    return xs.size - 2
