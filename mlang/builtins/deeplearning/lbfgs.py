"""The limited-memory BFGS solver of custom training loops: lbfgsState and lbfgsupdate.

``lbfgsupdate(params, lossFcn, solverState)`` takes one L-BFGS step: the search
direction comes from the two-loop recursion over the last HistorySize steps and
gradient differences, and a line search along it (weak Wolfe, strong Wolfe or
backtracking) picks the step length, calling ``[loss, gradients] = lossFcn(params)``
at each trial point.  The parameters may sit in any parameter container
(``containers``); the solver works on them as one flat vector.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import options, text_option, text_scalar
from mlang.builtins.deeplearning.containers import (
    is_missing,
    matching_parameters,
    parameters_of,
    with_parameters,
)
from mlang.builtins.deeplearning.optimizers import hyperparameter, parameter_data
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import EMPTY, class_of, result
from mlang.values.handle import FunctionHandle
from mlang.values.objects import MatlabObject
from mlang.values.string import StringArray

# Sufficient decrease and curvature constants of the Wolfe conditions.
ARMIJO = 1e-4
CURVATURE = 0.9
LINE_SEARCHES = ("weak-wolfe", "strong-wolfe", "backtracking")

_STATE_PROPERTIES = ("InitialInverseHessianFactor", "InitialStepSize", "HistorySize",
                     "StepHistory", "GradientsDifferenceHistory", "HistoryIndices", "Loss",
                     "Gradients", "AdditionalLossFunctionOutputs", "GradientsNorm", "StepNorm",
                     "LineSearchStatus")


class LbfgsState(MatlabObject):
    """The state of the L-BFGS solver (MATLAB's lbfgsState object).  A value: each
    lbfgsupdate returns a new one.  The history is kept as flat vectors (oldest first);
    StepHistory and GradientsDifferenceHistory show them in the parameters' container."""

    matlab_class = "deep.LBFGSState"
    display_name = "LBFGSState"
    __slots__ = ("history_size", "factor", "initial_step", "steps", "differences", "template",
                 "loss", "gradients", "gradient_vector", "extras", "gradients_norm",
                 "step_norm", "status")

    def __init__(self, history_size: int = 10, factor: float = 1.0,
                 initial_step: float | None = None) -> None:
        self.history_size = history_size
        self.factor = factor
        self.initial_step = initial_step  # None: "auto"
        self.steps: list[np.ndarray] = []
        self.differences: list[np.ndarray] = []
        self.template: Any = None
        self.loss: Any = EMPTY
        self.gradients: Any = EMPTY
        self.gradient_vector: np.ndarray | None = None
        self.extras: list = []
        self.gradients_norm: Any = EMPTY
        self.step_norm: Any = EMPTY
        self.status = ""

    def copy(self) -> LbfgsState:
        out = LbfgsState(self.history_size, self.factor, self.initial_step)
        for slot in LbfgsState.__slots__:
            setattr(out, slot, getattr(self, slot))
        out.steps = list(self.steps)
        out.differences = list(self.differences)
        return out

    def property_names(self) -> list[str]:
        return list(_STATE_PROPERTIES)

    def _history(self, vectors: list[np.ndarray]) -> Cell:
        data = np.empty((1, len(vectors)), dtype=object)
        for k, vector in enumerate(vectors):
            data[0, k] = with_parameters(self.template, _pieces(vector, self.template))
        return Cell(data) if vectors else Cell(np.empty((0, 0), dtype=object))

    def get_property(self, name: str) -> Any:
        if name == "InitialInverseHessianFactor":
            return self.factor
        if name == "InitialStepSize":
            return StringArray.scalar("auto") if self.initial_step is None else self.initial_step
        if name == "HistorySize":
            return float(self.history_size)
        if name == "StepHistory":
            return self._history(self.steps)
        if name == "GradientsDifferenceHistory":
            return self._history(self.differences)
        if name == "HistoryIndices":
            return result(np.arange(1.0, len(self.steps) + 1).reshape(1, -1))
        if name == "Loss":
            return self.loss
        if name == "Gradients":
            return self.gradients
        if name == "AdditionalLossFunctionOutputs":
            return Cell.row(list(self.extras))
        if name == "GradientsNorm":
            return self.gradients_norm
        if name == "StepNorm":
            return self.step_norm
        if name == "LineSearchStatus":
            return StringArray.scalar(self.status)
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> Any:
        if name in _STATE_PROPERTIES:
            raise error("MATLAB:class:SetProhibited",
                        f"Unable to set the '{name}' property of class 'LBFGSState' because it "
                        "is read-only.")
        return super().set_property(name, value)


# ------------------------------------------------------------ lbfgsState


def _positive_integer(value: Any, name: str, function: str) -> int:
    if is_missing(value):
        raise _not_scalar(name, function)
    return int(hyperparameter(value, name, 0.0, function, positive=True, integer=True))


def _not_scalar(name: str, function: str) -> Exception:
    return error(f"MATLAB:{function}:expectedScalar", f"Expected {name} to be a scalar.")


@builtin("lbfgsState", dl="native")
def lbfgs_state(*args: object) -> LbfgsState:
    """solverState = lbfgsState  the state of the L-BFGS solver, for lbfgsupdate: a history
    of 10 steps and an initial inverse Hessian factor of 1
    lbfgsState('HistorySize', N, 'InitialInverseHessianFactor', F, 'InitialStepSize', S)
    sets the number of steps kept, the factor of the approximate inverse Hessian used
    before there is any history, and the first trial step of each line search ("auto":
    1)"""
    given = options(args, ("HistorySize", "InitialInverseHessianFactor", "InitialStepSize"))
    size = 10
    if "HistorySize" in given:
        size = _positive_integer(given["HistorySize"], "HistorySize", "lbfgsState")
    factor = 1.0
    if "InitialInverseHessianFactor" in given:
        value = given["InitialInverseHessianFactor"]
        if is_missing(value):
            raise _not_scalar("InitialInverseHessianFactor", "lbfgsState")
        factor = hyperparameter(value, "InitialInverseHessianFactor", 1.0, "lbfgsState",
                                positive=True)
    step: float | None = None
    if "InitialStepSize" in given:
        value = given["InitialStepSize"]
        if text_option(value) != "auto":
            if is_missing(value) or class_of(value) in ("char", "string"):
                raise error("MATLAB:lbfgsState:InvalidInitialStepSize",
                            'InitialStepSize must be "auto" or a positive finite scalar.')
            step = hyperparameter(value, "InitialStepSize", 1.0, "lbfgsState", positive=True)
    return LbfgsState(size, factor, step)


# ------------------------------------------------------------ flat vectors


def _flatten(params: list, what: str) -> np.ndarray:
    """One flat vector of the parameters' data, column-major (single when all are)."""
    arrays = [parameter_data(p, what, "lbfgsupdate") for p in params]
    if not arrays:
        return np.zeros(0)
    dtype = np.result_type(*arrays)
    return np.concatenate([a.reshape(-1, order="F").astype(dtype, copy=False) for a in arrays])


def _pieces(vector: np.ndarray, template: Any) -> list:
    """The flat vector cut back into parameters shaped (and typed) like ``template``'s."""
    out = []
    start = 0
    for p in parameters_of(template):
        data = p.data if type(p) is DlArray else parameter_data(p, "Parameters", "lbfgsupdate")
        piece = vector[start:start + data.size].reshape(data.shape, order="F").astype(data.dtype)
        start += data.size
        out.append(DlArray(piece, p.fmt) if type(p) is DlArray else result(piece))
    return out


def two_loop_direction(gradient: np.ndarray, steps: list[np.ndarray],
                       differences: list[np.ndarray], factor: float) -> np.ndarray:
    """The L-BFGS search direction -H*g by the two-loop recursion: H is the inverse Hessian
    approximation built from the step and gradient-difference pairs (oldest first) on
    H0 = factor*I."""
    q = gradient.copy()
    alphas = []
    for s, y in zip(reversed(steps), reversed(differences), strict=True):
        rho = 1 / np.dot(y, s)
        alpha = rho * np.dot(s, q)
        q -= alpha * y
        alphas.append((rho, alpha))
    r = q * factor
    for (s, y), (rho, alpha) in zip(zip(steps, differences, strict=True), reversed(alphas),
                                    strict=True):
        beta = rho * np.dot(y, r)
        r += (alpha - beta) * s
    return -r


# ------------------------------------------------------------ lbfgsupdate


@dataclass(slots=True)
class _Point:
    """A trial point of the line search: parameters, loss, gradients and extra outputs."""

    x: np.ndarray
    loss: float
    loss_value: Any
    gradient: np.ndarray
    gradients: Any
    extras: list


def _evaluate(interp: Any, loss_fcn: Any, template: Any, x: np.ndarray, nout: int) -> _Point:
    params = with_parameters(template, _pieces(x, template))
    outs = interp.call_value(loss_fcn, [params], nout)
    if len(outs) < 2:
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    loss_value, gradients = outs[0], outs[1]
    loss_data = loss_value.data if type(loss_value) is DlArray else loss_value
    if class_of(loss_data) not in ("double", "single") or np.size(loss_data) != 1 \
            or np.iscomplexobj(loss_data):
        raise error("deep:lbfgsupdate:InvalidLoss",
                    "Loss must be a real numeric scalar or dlarray scalar.")
    loss = float(np.asarray(loss_data).reshape(-1)[0])
    gradient = _flatten(matching_parameters(template, gradients), "Gradients").astype(
        x.dtype, copy=False)
    return _Point(x, loss, loss_value, gradient, gradients, list(outs[2:]))


def _line_search(evaluate: Any, start: _Point, direction: np.ndarray, first_step: float,
                 method: str, max_iterations: int) -> tuple[_Point | None, bool]:
    """The accepted point and whether the line search met its conditions; when it did
    not, the lowest point found below the start (None when there was none)."""
    slope = float(np.dot(start.gradient, direction))
    lo, hi = 0.0, math.inf
    eta = first_step
    best: _Point | None = None
    for _ in range(max_iterations):
        trial = evaluate(start.x + eta * direction)
        if math.isfinite(trial.loss) and trial.loss < start.loss and (
                best is None or trial.loss < best.loss):
            best = trial
        sufficient = math.isfinite(trial.loss) and trial.loss <= start.loss + ARMIJO * eta * slope
        if method == "backtracking":
            if sufficient:
                return trial, True
            eta *= 0.5
            continue
        new_slope = float(np.dot(trial.gradient, direction))
        if not sufficient:
            hi = eta
        elif new_slope < CURVATURE * slope:
            lo = eta  # still descending steeply: go further
        elif method == "strong-wolfe" and new_slope > -CURVATURE * slope:
            hi = eta  # overshot the minimum along the line
        else:
            return trial, True
        eta = (lo + hi) / 2 if math.isfinite(hi) else 2 * lo
    return best, False


def _norm(v: np.ndarray) -> float:
    return float(np.linalg.norm(v.astype(np.float64, copy=False)))


@builtin(interp=True, max_out=2, dl="native")
def lbfgsupdate(interp: Any, params: object, loss_fcn: object, solver_state: object,
                *args: object) -> tuple:
    """[params, solverState] = lbfgsupdate(params, lossFcn, solverState)  one step of the
    limited-memory BFGS solver
    PARAMS is a dlarray, numeric array, struct, cell array or Learnables table (or a
    network); LOSSFCN is called as [loss, gradients] = lossFcn(params) (usually through
    dlfeval); SOLVERSTATE is an lbfgsState, or [] on the first call.
    Options: 'LineSearchMethod' "weak-wolfe" (default), "strong-wolfe" or "backtracking";
    'MaxNumLineSearchIterations' (20); 'NumLossFunctionOutputs' (2: the outputs after the
    second go to solverState.AdditionalLossFunctionOutputs)."""
    given = options(args, ("LineSearchMethod", "MaxNumLineSearchIterations",
                           "NumLossFunctionOutputs"))
    method = "weak-wolfe"
    if "LineSearchMethod" in given:
        text = text_scalar(given["LineSearchMethod"], "LineSearchMethod").lower()
        if text not in LINE_SEARCHES:
            raise error("deep:lbfgsupdate:InvalidLineSearchMethod",
                        'LineSearchMethod must be "weak-wolfe", "strong-wolfe", or '
                        '"backtracking".')
        method = text
    max_iterations = 20
    if "MaxNumLineSearchIterations" in given:
        max_iterations = _positive_integer(given["MaxNumLineSearchIterations"],
                                           "MaxNumLineSearchIterations", "lbfgsupdate")
    nout = 2
    if "NumLossFunctionOutputs" in given:
        nout = _positive_integer(given["NumLossFunctionOutputs"], "NumLossFunctionOutputs",
                                 "lbfgsupdate")
        if nout < 2:
            raise error("MATLAB:lbfgsupdate:notGreaterEqual",
                        "Expected NumLossFunctionOutputs to be greater than or equal to 2.")
    if type(loss_fcn) is not FunctionHandle:
        raise error("deep:lbfgsupdate:InvalidLossFunction",
                    "Loss function must be a function handle.")
    if is_missing(solver_state):
        state = LbfgsState()
    elif type(solver_state) is LbfgsState:
        state = solver_state.copy()
    else:
        raise error("deep:lbfgsupdate:InvalidSolverState",
                    "Solver state must be an lbfgsState object or [].")

    x = _flatten(parameters_of(params), "Parameters")

    def evaluate(at: np.ndarray) -> _Point:
        return _evaluate(interp, loss_fcn, params, at, nout)

    if state.gradient_vector is None or state.gradient_vector.shape != x.shape:
        start = evaluate(x)
        state.steps, state.differences = [], []
    else:
        start = _Point(x, float(np.asarray(getattr(state.loss, "data", state.loss)).reshape(-1)[0]),
                       state.loss, state.gradient_vector.astype(x.dtype, copy=False),
                       state.gradients, state.extras)
    if state.steps:
        s, y = state.steps[-1], state.differences[-1]
        factor = float(np.dot(s, y) / np.dot(y, y))
    else:
        factor = state.factor
    direction = two_loop_direction(start.gradient, state.steps, state.differences, factor)
    if not np.dot(direction, start.gradient) < 0:
        # not a descent direction (or a zero gradient): steepest descent, history dropped
        direction = -state.factor * start.gradient
        state.steps, state.differences = [], []
    first_step = 1.0 if state.initial_step is None else state.initial_step
    if np.any(start.gradient):
        accepted, completed = _line_search(evaluate, start, direction, first_step, method,
                                           max_iterations)
    else:
        accepted, completed = start, True  # already at a stationary point
    if accepted is None:
        accepted = start
    step = accepted.x - x
    difference = accepted.gradient - start.gradient
    if accepted is not start and np.dot(step, difference) > 0:
        state.steps.append(step)
        state.differences.append(difference)
        del state.steps[:-state.history_size], state.differences[:-state.history_size]
    state.template = params
    state.loss = accepted.loss_value
    state.gradients = accepted.gradients
    state.gradient_vector = accepted.gradient
    state.extras = accepted.extras
    state.gradients_norm = _norm(accepted.gradient)
    state.step_norm = _norm(step)
    state.status = "completed" if completed else "failed"
    updated = params if accepted is start else with_parameters(params, _pieces(accepted.x, params))
    return updated, state
