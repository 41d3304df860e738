"""Event location for the ODE solvers: MATLAB's odezero, the Illinois variant of regula
falsi on the solver's interpolant within one step."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import error
from mlang.values.core import result, to_double_array

Interpolant = Callable[[float], np.ndarray]


class EventFunction:
    """A user's event function [value,isterminal,direction] = events(t,y,...)."""

    def __init__(self, interp: Any, fun: Any, extra: list) -> None:
        self.interp = interp
        self.fun = fun
        self.extra = extra

    def __call__(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        out = self.interp.call_value(self.fun, [float(t), result(y.reshape(-1, 1).copy()),
                                                *self.extra], 3)
        if len(out) < 3:
            raise error("MATLAB:odeevents:EventFcnOutputs",
                        "The events function must return three outputs: value, isterminal "
                        "and direction.")
        value = to_double_array(out[0]).real.reshape(-1, order="F")
        terminal = to_double_array(out[1]).real.reshape(-1, order="F")
        direction = to_double_array(out[2]).real.reshape(-1, order="F")
        n = value.size
        return value, np.broadcast_to(terminal, (n,)), np.broadcast_to(direction, (n,))


def locate(events: EventFunction, ntrp: Interpolant, v: np.ndarray, t: float, y: np.ndarray,
           tnew: float, ynew: np.ndarray, t0: float
           ) -> tuple[list[float], list[np.ndarray], list[int], np.ndarray, bool]:
    """The events in the step [t, tnew], in order, up to the first terminal one: their
    times, states and (1-based) indices; the event values at tnew, and whether to stop.
    ``v`` holds the event values at t."""
    tol = 128 * max(np.spacing(abs(t)), np.spacing(abs(tnew)))
    tol = min(tol, abs(tnew - t))
    tout: list[float] = []
    yout: list[np.ndarray] = []
    iout: list[int] = []
    tdir = 1.0 if tnew >= t else -1.0
    stop = False
    rmin = sys.float_info.min
    vnew, isterminal, direction = events(tnew, ynew)
    tL, yL, vL = t, y, v.copy()
    tR, yR, vR = tnew, ynew, vnew.copy()
    ttry, vtry = tR, vR
    ytry = yR

    def crossing(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.flatnonzero((np.sign(a) != np.sign(b)) & (direction * (b - a) >= 0))

    while True:
        lastmoved = 0
        while True:
            indzc = crossing(vL, vR)
            if indzc.size == 0:
                if lastmoved != 0:
                    raise error("MATLAB:odezero:LostEvent",
                                "An event disappeared (internal error).")
                return tout, yout, iout, vnew, stop
            delta = tR - tL
            if abs(delta) <= tol:
                break
            if tL == t and np.any((vL[indzc] == 0) & (vR[indzc] != 0)):
                ttry = tL + tdir * 0.5 * tol
            else:
                change = 1.0
                for j in indzc:
                    change = min(change, _falsi(vL[j], vR[j], vtry[j], ttry, tL, tR, tdir, delta))
                change = change * abs(delta)
                change = max(0.5 * tol, min(change, abs(delta) - 0.5 * tol))
                ttry = tL + tdir * change
            ytry = ntrp(ttry)
            vtry = events(ttry, ytry)[0]
            if crossing(vL, vtry).size:
                tR, ttry = ttry, tR
                yR, ytry = ytry, yR
                vR, vtry = vtry, vR
                if lastmoved == 2:
                    maybe = 0.5 * vL
                    vL = np.where(np.abs(maybe) >= rmin, maybe, vL)
                lastmoved = 2
            else:
                tL, ttry = ttry, tL
                yL, ytry = ytry, yL
                vL, vtry = vtry, vL
                if lastmoved == 1:
                    maybe = 0.5 * vR
                    vR = np.where(np.abs(maybe) >= rmin, maybe, vR)
                lastmoved = 1
        for j in indzc:
            tout.append(float(tR))
            yout.append(np.array(yR, copy=True))
            iout.append(int(j) + 1)
        if np.any(isterminal[indzc]):
            if tL != t0:
                stop = True
            break
        if abs(tnew - tR) <= tol:
            break
        ttry, ytry, vtry = tR, yR, vR
        tL = tR + tdir * 0.5 * tol
        yL = ntrp(tL)
        vL = events(tL, yL)[0]
        tR, yR, vR = tnew, ynew, vnew.copy()
    return tout, yout, iout, vnew, stop


def _falsi(vl: float, vr: float, vt: float, ttry: float, tL: float, tR: float, tdir: float,
           delta: float) -> float:
    """The regula falsi fraction of the bracket for one event (extrapolating from the
    previous try when one end's value is zero)."""
    if vl == 0:
        if tdir * ttry > tdir * tR and vt != vr:
            maybe = 1.0 - vr * (ttry - tR) / ((vt - vr) * delta)
            return 0.5 if maybe < 0 or maybe > 1 else maybe
        return 0.5
    if vr == 0:
        if tdir * ttry < tdir * tL and vt != vl:
            maybe = vl * (tL - ttry) / ((vt - vl) * delta)
            return 0.5 if maybe < 0 or maybe > 1 else maybe
        return 0.5
    return -vl / (vr - vl)
