"""dlode45: the neural ODE operation, y' = odefun(t, y, theta) solved on dlarray data with
the Dormand-Prince (4,5) pair, as ode45 does.

The step sizes are chosen on the values alone (error control on the raw data), and every
step is made of differentiable operations on the dlarrays, so a traced Y0 or theta gives
a solution whose gradient is that of the steps taken: MATLAB's 'direct' gradient mode.
'adjoint' is accepted and gives the same gradients (the adjoint ODE solved backwards
agrees with them to within the solver's tolerance).  The solver lands on every time of
tspan (no interpolation between steps).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray, as_data
from mlang.autodiff.trace import read_as_constant
from mlang.builtins.coerce import options as parse_options
from mlang.builtins.coerce import text_scalar
from mlang.builtins.deeplearning.dlarrays import dlarray as make_dlarray
from mlang.builtins.deeplearning.formats import data_format_option
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, fix_shape, to_double_array

# The Dormand-Prince tableau (the 5th-order solution is propagated; the difference from the
# 4th-order one estimates the error).
_C = (0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0)
_A = ((),
      (1 / 5,),
      (3 / 40, 9 / 40),
      (44 / 45, -56 / 15, 32 / 9),
      (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
      (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656))
_B = (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84)
_E = (71 / 57600, 0.0, -71 / 16695, 71 / 1920, -17253 / 339200, 22 / 525, -1 / 40)

_OPTIONS = ("DataFormat", "GradientMode", "RelativeTolerance", "AbsoluteTolerance")
_MAX_STEPS = 100000


def _data(v: Any) -> np.ndarray:
    return v.data if type(v) is DlArray else np.asarray(v)


def _combine(y: Any, h: float, coefficients: tuple, ks: list) -> Any:
    """y + h * sum(c_i k_i) over the nonzero coefficients, with differentiable operations."""
    total = None
    for c, k in zip(coefficients, ks, strict=False):
        if c == 0.0:
            continue
        term = k * (h * c)
        total = term if total is None else total + term
    return y if total is None else y + total


def _tolerance(value: Any, name: str, default: float) -> float:
    if value is None:
        return default
    a = to_double_array(value.data if type(value) is DlArray else value)
    if a.size != 1 or a.dtype.kind == "c" or not np.isfinite(a.reshape(-1)[0]) or a.reshape(-1)[0] <= 0:
        raise error("MATLAB:validators:mustBePositive", f"{name} must be a positive scalar.")
    return float(a.reshape(-1)[0])


def _times(tspan: object) -> np.ndarray:
    t = to_double_array(tspan.data if type(tspan) is DlArray else tspan).reshape(-1).astype(float)
    if t.size < 2 or not np.all(np.isfinite(t)):
        raise error("deep:dlode45:InvalidTspan",
                    "Time interval must be a vector with at least two finite elements.")
    steps = np.diff(t)
    if not (np.all(steps > 0) or np.all(steps < 0)):
        raise error("deep:dlode45:InvalidTspan",
                    "Time interval must be strictly increasing or strictly decreasing.")
    return t


@builtin(interp=True, dl="traced")
def dlode45(interp: Any, odefun: object, tspan: object, y0: object, theta: object,
            *options: object) -> DlArray:
    """Y = dlode45(ODEFUN, TSPAN, Y0, THETA)  solve the ODE y' = ODEFUN(t, y, THETA) from
    TSPAN(1) with initial value Y0 (a formatted dlarray), returning the solution at the
    times TSPAN(2:end): with the format of Y0 for a two-element TSPAN, else with a time
    dimension 'T' added
    Y = dlode45(..., 'DataFormat', FMT)  labels of an unformatted Y0
    Y = dlode45(..., 'GradientMode', 'direct'|'adjoint')  how gradients are computed
    Y = dlode45(..., 'RelativeTolerance', R, 'AbsoluteTolerance', A)  error tolerances
    (defaults 1e-3 and 1e-6)"""
    given = parse_options(options, _OPTIONS)
    data_format = data_format_option(given)
    mode = text_scalar(given["GradientMode"], "GradientMode").lower() if "GradientMode" in given else "direct"
    if mode not in ("direct", "adjoint"):
        raise error("deep:dlode45:InvalidGradientMode",
                    "GradientMode must be 'direct' or 'adjoint'.")
    rtol = _tolerance(given.get("RelativeTolerance"), "RelativeTolerance", 1e-3)
    atol = _tolerance(given.get("AbsoluteTolerance"), "AbsoluteTolerance", 1e-6)
    y = y0 if type(y0) is DlArray else DlArray(as_data(y0))
    if y.fmt and data_format is not None:
        raise error("deep:dlarray:DataFormatFormattedInput",
                    "Input data must be an unformatted dlarray or numeric array when "
                    "specifying the 'DataFormat' option.")
    if not y.fmt and data_format is None:
        raise error("deep:dlarray:UnformattedInput",
                    "Input data must be a formatted dlarray, or specify the data format "
                    "using the 'DataFormat' option.")
    labels = y.fmt or data_format or ""
    if "T" in labels:
        raise error("deep:dlode45:TimeDimension",
                    "Initial conditions must not have a time ('T') dimension.")
    times = _times(tspan)

    def f(t: float, state: Any) -> Any:
        out = interp.call_value(odefun, [t, state, theta], 1)
        if not out:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        k = out[0]
        if _data(k).shape != _data(state).shape:
            raise error("deep:dlode45:SizeMismatch",
                        "The output of the ODE function must have the same size as the "
                        "initial conditions.")
        return k

    solutions = _integrate(f, y, times, rtol, atol)
    # (the steps taken depend on the values of every input and option)
    read = (tspan, y0, theta, *options)
    if len(solutions) == 1:
        return read_as_constant(solutions[0], *read)
    return read_as_constant(_with_time(solutions, y, labels), *read)


def _integrate(f: Any, y: Any, times: np.ndarray, rtol: float, atol: float) -> list:
    """The solution at times[1:], by adaptive Dormand-Prince steps landing on each time."""
    threshold = atol / rtol
    t = float(times[0])
    direction = 1.0 if times[-1] > times[0] else -1.0
    k1 = f(t, y)
    hmax = 0.1 * float(abs(times[-1] - times[0]))  # ode45's default MaxStep
    h = _initial_step(_data(y), _data(k1), hmax, rtol, threshold)
    out = []
    steps = 0
    for target in times[1:]:
        while direction * (target - t) > 0:
            steps += 1
            if steps > _MAX_STEPS:
                raise error("deep:dlode45:TooManySteps",
                            "Unable to meet integration tolerances without reducing the step "
                            "size below the smallest value allowed.")
            last = abs(target - t) <= 1.1 * h
            step = float(abs(target - t)) if last else float(h)
            ks = [k1]
            for stage in range(1, 6):
                ks.append(f(float(t + direction * step * _C[stage]),
                            _combine(y, direction * step, _A[stage], ks)))
            y_new = _combine(y, direction * step, _B, ks)
            k7 = f(float(t + direction * step), y_new)
            err = _error(ks + [k7], _data(y), _data(y_new), step, threshold)
            if err <= rtol or step <= 16 * np.spacing(abs(t)):
                t = float(target) if last else t + direction * step
                y, k1 = y_new, k7
                grow = 5.0 if err == 0 else min(5.0, 0.9 * (rtol / err) ** 0.2)
                h = min(hmax, max(step * max(grow, 1.0), h if last else 0.0))
            else:
                h = step * max(0.1, 0.8 * (rtol / err) ** 0.2)
        out.append(y)
    return out


def _initial_step(y: np.ndarray, slope: np.ndarray, hmax: float, rtol: float,
                  threshold: float) -> float:
    """ode45's first step: small enough for the initial slope, at most ``hmax``."""
    scale = np.maximum(np.abs(y), threshold)
    rate = float(np.max(np.abs(slope) / scale)) / (0.8 * rtol ** 0.2) if slope.size else 0.0
    h = hmax if rate * hmax <= 1 else 1 / rate
    return max(h, 16 * np.spacing(10 * hmax))


def _error(ks: list, y: np.ndarray, y_new: np.ndarray, h: float, threshold: float) -> float:
    estimate = sum(e * _data(k).astype(np.float64) for e, k in zip(_E, ks, strict=True) if e)
    scale = np.maximum(np.maximum(np.abs(y), np.abs(y_new)), threshold)
    if not np.size(estimate):
        return 0.0
    return float(h * np.max(np.abs(estimate) / scale))


def _with_time(solutions: list, y0: DlArray, labels: str) -> DlArray:
    """The solutions stacked along a new 'T' dimension, after the dimensions of Y0 (then
    put in canonical label order for a formatted Y0, the trace kept)."""
    ndim = max(len(labels), y0.data.ndim)
    shape = y0.data.shape + (1,) * (ndim - y0.data.ndim)
    columns = [ops.reshape_to(s, (s.data.size, 1)) for s in solutions]
    stacked = ops.reshape_to(ops.call("horzcat", *columns), fix_shape((*shape, len(solutions))))
    if not y0.fmt:
        return stacked
    return make_dlarray(DlArray(stacked.data, "", stacked.node), char_row(labels + "T"))
