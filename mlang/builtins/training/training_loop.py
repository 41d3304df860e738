"""The training loops of trainnet: the mini-batch solvers (adam, sgdm, rmsprop) and L-BFGS.

A ``Problem`` holds the network, the data (``training_data.LaidOut``), the loss and the
options.  ``loss_and_gradients`` runs the network in training mode on traced copies of
its learnables (as ``dlfeval`` would), computes the loss and runs the backward pass;
the updates are then made on the raw single-precision arrays:

* L2 regularisation adds ``L2Regularization * L2Factor * w`` to the gradient of each
  learnable (the layer's ``WeightL2Factor``, ``BiasL2Factor``... : weights 1, biases 0 by
  default), before gradient clipping (``GradientThreshold`` with ``GradientThresholdMethod``
  "l2norm" per learnable, "global-l2norm" over all of them, or "absolute-value");
* each learnable's learning rate is the global one times its ``...LearnRateFactor``;
* each step is that of ``sgdmupdate``, ``rmspropupdate`` or ``adamupdate`` (the same step
  functions of ``deeplearning/optimizers.py``).

Each epoch visits ``floor(N/MiniBatchSize)`` mini-batches (the observations left over
are not used that epoch, as in MATLAB), in an order shuffled once, every epoch or never
with the session's random stream (``randperm``), so ``rng(seed)`` makes a run
reproducible.  L-BFGS works on the whole data set at once through ``lbfgsupdate``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import backward, traced_input
from mlang.builtins.deeplearning.optimizers import adam_step, rmsprop_step, sgdm_step
from mlang.builtins.networks.network import RECURRENT_STATES, DlNetwork
from mlang.builtins.training.output_functions import OutputFunctions
from mlang.builtins.training.training_data import LaidOut
from mlang.builtins.training.training_info import (
    LBFGS_HISTORY,
    STOCHASTIC_HISTORY,
    VALIDATION_HISTORY,
    TrainingInfo,
    VerboseTable,
    history_table,
)
from mlang.builtins.training.training_losses import metric_value
from mlang.errors import error
from mlang.registry import BUILTINS
from mlang.values.core import EMPTY, char_row
from mlang.values.handle import FunctionHandle
from mlang.values.string import StringArray

NAN = math.nan


@dataclass
class Problem:
    interp: Any
    net: DlNetwork
    x: LaidOut
    t: LaidOut
    loss: Any  # losses.LossFunction
    opts: Any  # TrainingOptions
    validation: tuple[LaidOut, LaidOut] | None = None
    metrics: list[str] = field(default_factory=list)  # "Accuracy", "RMSE"
    history: list[tuple[float, ...]] = field(default_factory=list)
    validation_history: list[tuple[float, ...]] = field(default_factory=list)

    def metric_values(self, y: Any, t: Any, prefix: str) -> dict[str, float]:
        return {prefix + name: metric_value(name, y, t) for name in self.metrics}

    def columns(self, head: list[str]) -> list[str]:
        """The verbose table's columns: ``head``, the validation loss, the metrics."""
        columns = list(head)
        if self.validation is not None:
            columns.append("ValidationLoss")
        for name in self.metrics:
            columns.append("Training" + name)
            if self.validation is not None:
                columns.append("Validation" + name)
        return columns


# ------------------------------------------------------------------ one evaluation


def loss_and_gradients(problem: Problem, net: DlNetwork, x: DlArray, t: DlArray
                       ) -> tuple[float, list[np.ndarray], dict, Any]:
    """The loss of one mini-batch in training mode, the gradients of the learnables (raw
    arrays in ``Learnables`` order), the new state values of the pass and the output."""
    interp = problem.interp
    leaves = [traced_input(v if type(v) is DlArray else DlArray(np.asarray(v)))
              for v in net.learnable_values()]
    traced = net.with_learnables(leaves)
    interp.dl_depth += 1
    try:
        outs, updates = traced.run(interp, [x], True)
        value = problem.loss.compute(interp, outs[0], t)
        if type(value) is not DlArray or value.data.size != 1 or value.node is None and leaves:
            raise error("deep:trainnet:InvalidLoss",
                        "The loss function must return a traced scalar dlarray computed from the "
                        "network output.")
        grads = backward(value, leaves, False, False) if leaves else []
    finally:
        interp.dl_depth -= 1
    return float(value.data.reshape(-1)[0]), grads, updates, outs[0]


def inference_loss(problem: Problem, net: DlNetwork, x: LaidOut, t: LaidOut
                   ) -> tuple[float, dict[str, float]]:
    """The loss and the metrics of a whole data set in inference mode (validation)."""
    interp = problem.interp
    outs, _ = net.run(interp, [x.batch(interp, None)], False)
    targets = t.batch(interp, None)
    value = problem.loss.compute(interp, outs[0], targets)
    data = value.data if type(value) is DlArray else value
    return float(np.asarray(data).reshape(-1)[0]), problem.metric_values(outs[0], targets, "")


def _plain_state(net: DlNetwork, updates: dict) -> DlNetwork:
    """The network with the new values of the states a training pass updates, such as
    batch normalisation statistics; recurrent layers start every mini-batch (and the
    trained network) from their initial hidden and cell states, as trainnet does."""
    if not updates:
        return net
    layers = net.graph.layers
    values = []
    for k, p in net.state_keys():
        v = updates.get((k, p), layers[k].values[p]) if p not in RECURRENT_STATES \
            else layers[k].values[p]
        if type(v) is DlArray:
            v = DlArray(v.data, v.fmt)  # untraced
        values.append(v)
    return net.with_states(values)


# ------------------------------------------------------------------ per-learnable factors


def _factor(layer: Any, parameter: str, kind: str, default: float) -> float:
    """A layer's factor for one learnable (``WeightL2Factor`` for ``Weights``,
    ``InputWeightsLearnRateFactor`` for ``InputWeights``...)."""
    names = [parameter + kind]
    if parameter.endswith("s"):
        names.append(parameter[:-1] + kind)
    for name in names:
        value = layer.values.get(name)
        if value is not None:
            try:
                return float(np.asarray(value).reshape(-1)[0])
            except (TypeError, ValueError, IndexError):
                return default
    return default


def learnable_factors(net: DlNetwork, kind: str) -> list[float]:
    layers = net.graph.layers
    out = []
    for k, p in net.learnable_keys():
        default = 1.0 if kind == "LearnRateFactor" or "Weight" in p else 0.0
        out.append(_factor(layers[k], p, kind, default))
    return out


def clipped(grads: list[np.ndarray], threshold: float, method: str) -> list[np.ndarray]:
    if not math.isfinite(threshold):
        return grads
    if method == "absolute-value":
        return [np.clip(g, -threshold, threshold) for g in grads]
    if method == "global-l2norm":
        total = math.sqrt(sum(float(np.sum(np.square(g, dtype=np.float64))) for g in grads))
        if total > threshold:
            return [g * (threshold / total) for g in grads]
        return grads
    out = []
    for g in grads:
        norm = float(np.linalg.norm(g.astype(np.float64).reshape(-1)))
        out.append(g * (threshold / norm) if norm > threshold else g)
    return out


# ------------------------------------------------------------------ the solvers


class Solver:
    """The update rule of a mini-batch solver, with its per-learnable state."""

    def __init__(self, opts: Any, count: int) -> None:
        self.opts = opts
        self.name = opts.solver
        self.first: list[np.ndarray | None] = [None] * count
        self.second: list[np.ndarray | None] = [None] * count
        self.step = 0

    def update(self, params: list[np.ndarray], grads: list[np.ndarray], rates: list[float]
               ) -> list[np.ndarray]:
        self.step += 1
        opts = self.opts
        out = []
        for k, (w, g, lr) in enumerate(zip(params, grads, rates, strict=True)):
            g = g.astype(w.dtype, copy=False)
            if self.name == "sgdm":
                new, self.first[k] = sgdm_step(w, g, self.first[k], lr, opts.number("Momentum"))
            elif self.name == "rmsprop":
                new, self.second[k] = rmsprop_step(w, g, self.second[k], lr,
                                                   opts.number("SquaredGradientDecayFactor"),
                                                   opts.number("Epsilon"))
            else:
                new, self.first[k], self.second[k] = adam_step(
                    w, g, self.first[k], self.second[k], self.step, lr,
                    opts.number("GradientDecayFactor"), opts.number("SquaredGradientDecayFactor"),
                    opts.number("Epsilon"))
            out.append(new)
        return [a.astype(w.dtype, copy=False) for a, w in zip(out, params, strict=True)]


def learn_rate(opts: Any, epoch: int) -> float:
    rate = opts.number("InitialLearnRate")
    schedule = opts.text("LearnRateSchedule")
    if schedule == "piecewise":
        drops = (epoch - 1) // int(opts.number("LearnRateDropPeriod"))
        return rate * opts.number("LearnRateDropFactor") ** drops
    if schedule not in (None, "none"):
        raise error("deep:trainnet:UnsupportedLearnRateSchedule",
                    f"The learning rate schedule '{schedule}' is not supported; use \"none\" or "
                    "\"piecewise\".")
    if schedule is None:
        raise error("deep:trainnet:UnsupportedLearnRateSchedule",
                    "Learning rate schedules given as function handles or objects are not "
                    "supported; use \"none\" or \"piecewise\".")
    return rate


def _randperm(interp: Any, n: int) -> np.ndarray:
    order = BUILTINS["randperm"].call(interp, [float(n)], 1)[0]
    return np.asarray(order, dtype=np.intp).reshape(-1) - 1


# ------------------------------------------------------------------ progress output


class Progress:
    """The verbose table and the training-progress monitor of one run."""

    def __init__(self, problem: Problem, columns: list[str], total: int) -> None:
        opts = problem.opts
        self.interp = problem.interp
        self.table = VerboseTable(self.interp, columns) if opts.flag("Verbose") else None
        self.frequency = int(opts.number("VerboseFrequency"))
        self.total = max(total, 1)
        self.monitor = None
        if opts.text("Plots") == "training-progress":
            metrics = ["TrainingLoss"] + (["ValidationLoss"] if problem.validation else [])
            names = np.empty((1, len(metrics)), dtype=object)
            names[0, :] = metrics
            self.monitor = BUILTINS["trainingProgressMonitor"].call(
                self.interp, [char_row("Metrics"), StringArray(names), char_row("XLabel"),
                              char_row("Iteration")], 1)[0]
        self.functions = OutputFunctions(self.interp, opts.values.get("OutputFcn", EMPTY))
        self.last: dict[str, float | None] = {}
        if self.table is not None:
            self.table.header()

    def begin(self, values: dict[str, float | None]) -> str | None:
        """Before the first iteration: the stop reason when an output function asks to stop."""
        if self.functions.call("start", 0, values):
            return "Stopped by OutputFcn"
        return None

    def row(self, iteration: int, values: dict[str, float | None], force: bool = False) -> str | None:
        """Report an iteration; the stop reason when an output function or the monitor's
        Stop asks to stop."""
        self.last = {"Iteration": float(iteration), **values}
        if self.table is not None and (force or iteration == 1 or iteration % self.frequency == 0):
            self.table.row({"Iteration": float(iteration), **values})
        if self.monitor is not None:
            self.monitor.set_property("Progress", min(100.0, 100.0 * iteration / self.total))
            pairs: list[Any] = []
            for name in ("TrainingLoss", "ValidationLoss"):
                if values.get(name) is not None:
                    pairs += [char_row(name), float(values[name])]  # type: ignore[arg-type]
            if pairs:
                BUILTINS["recordMetrics"].call(self.interp, [self.monitor, float(iteration), *pairs], 0)
        if self.functions.call("iteration", iteration, values):
            return "Stopped by OutputFcn"
        if self.monitor is not None and self.monitor.stop:
            return "Stopped manually"
        return None

    def finish(self, reason: str) -> None:
        if self.table is not None:
            self.table.finish(reason)
        if self.functions:
            last = dict(self.last)
            iteration = int(last.pop("Iteration", 0) or 0)
            last.pop("ValidationLoss", None)
            self.functions.call("done", iteration, last)


# ------------------------------------------------------------------ mini-batch training


def _validate(problem: Problem, net: DlNetwork, iteration: int) -> tuple[float, dict[str, float]]:
    """The validation loss and the validation metrics (by column name), recorded."""
    assert problem.validation is not None
    loss, metrics = inference_loss(problem, net, *problem.validation)
    problem.validation_history.append((float(iteration), loss, *metrics.values()))
    return loss, {"Validation" + name: v for name, v in metrics.items()}


def _histories(problem: Problem, head: tuple[str, ...]) -> tuple[Any, Any]:
    return (history_table(head + tuple(problem.metrics), problem.history),
            history_table(VALIDATION_HISTORY + tuple(problem.metrics), problem.validation_history))


def train_stochastic(problem: Problem) -> tuple[DlNetwork, TrainingInfo]:
    interp, opts = problem.interp, problem.opts
    net = problem.net
    count = problem.x.count
    batch = min(int(opts.number("MiniBatchSize")), count)
    per_epoch = count // batch
    epochs = int(opts.number("MaxEpochs"))
    columns = problem.columns(["Iteration", "Epoch", "TimeElapsed", "LearnRate", "TrainingLoss"])
    progress = Progress(problem, columns, per_epoch * epochs)
    shuffle = opts.text("Shuffle")
    l2 = opts.number("L2Regularization")
    l2_factors = [f * l2 for f in learnable_factors(net, "L2Factor")]
    rate_factors = learnable_factors(net, "LearnRateFactor")
    threshold = opts.number("GradientThreshold")
    method = opts.text("GradientThresholdMethod") or "l2norm"
    solver = Solver(opts, len(rate_factors))
    validation_frequency = int(opts.number("ValidationFrequency"))
    patience = opts.number("ValidationPatience")
    best_net, best_loss, best_iteration, worse = net, math.inf, 0, 0
    wants_best = problem.validation is not None and opts.text("OutputNetwork") in ("auto",
                                                                                  "best-validation")
    if problem.validation is not None:
        best_loss, first = _validate(problem, net, 0)
        if progress.table is not None:
            progress.table.row({"Iteration": 0.0, "Epoch": 0.0, "LearnRate": learn_rate(opts, 1),
                                "ValidationLoss": best_loss, **first})
    order = np.arange(count)
    if shuffle == "once":
        order = _randperm(interp, count)
    iteration = 0
    reason = "Max epochs completed"
    early = progress.begin({"Epoch": 0.0, "LearnRate": learn_rate(opts, 1)})
    stopped = early is not None
    if early:
        reason = early
    for epoch in range(1, epochs + 1) if not stopped else ():
        if shuffle == "every-epoch":
            order = _randperm(interp, count)
        rate = learn_rate(opts, epoch)
        for j in range(per_epoch):
            iteration += 1
            positions = order[j * batch:(j + 1) * batch]
            x = problem.x.batch(interp, positions)
            t = problem.t.batch(interp, positions)
            loss, grads, updates, y = loss_and_gradients(problem, net, x, t)
            params = [v.data if type(v) is DlArray else np.asarray(v) for v in net.learnable_values()]
            if l2:
                grads = [g + f * w if f else g for g, w, f in zip(grads, params, l2_factors, strict=True)]
            grads = clipped(grads, threshold, method)
            new = solver.update(params, grads, [rate * f for f in rate_factors])
            old = net.learnable_values()
            net = net.with_learnables([DlArray(a, v.fmt if type(v) is DlArray else "")
                                       for a, v in zip(new, old, strict=True)])
            net = _plain_state(net, updates)
            metrics = problem.metric_values(y, t, "Training")
            problem.history.append((float(iteration), float(epoch), rate, loss, *metrics.values()))
            values: dict[str, float | None] = {"Epoch": float(epoch), "LearnRate": rate,
                                               "TrainingLoss": loss, **metrics}
            last = epoch == epochs and j == per_epoch - 1
            show = False
            if problem.validation is not None and (iteration % validation_frequency == 0 or last):
                v_loss, v_metrics = _validate(problem, net, iteration)
                values.update(ValidationLoss=v_loss, **v_metrics)
                show = True
                if v_loss < best_loss:
                    best_net, best_loss, best_iteration, worse = net, v_loss, iteration, 0
                else:
                    worse += 1
                    if worse >= patience:
                        reason, stopped = "Met validation criterion", True
            asked = progress.row(iteration, values, force=show or last or stopped)
            if asked and not stopped:
                reason, stopped = asked, True
                if progress.table is not None and not (show or last or iteration == 1
                                                       or iteration % progress.frequency == 0):
                    progress.table.row({"Iteration": float(iteration), **values})
            if stopped:
                break
        if stopped:
            break
    progress.finish(reason)
    final, final_iteration = net, iteration
    if wants_best and best_iteration > 0:
        final, final_iteration = best_net, best_iteration
    info = TrainingInfo(*_histories(problem, STOCHASTIC_HISTORY), final_iteration, reason)
    return final, info


# ------------------------------------------------------------------ L-BFGS


class _FullBatchLoss:
    """``[loss, gradients] = f(net)`` over the whole data set: what lbfgsupdate calls."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.x = problem.x.batch(problem.interp, None)
        self.t = problem.t.batch(problem.interp, None)

    def call(self, interp: Any, args: list, nargout: int, frame: Any = None) -> list:
        net = args[0]
        loss, grads, _, _ = loss_and_gradients(self.problem, net, self.x, self.t)
        old = net.learnable_values()
        gradient_net = net.with_learnables([DlArray(g, v.fmt if type(v) is DlArray else "")
                                            for g, v in zip(grads, old, strict=True)])
        return [DlArray(np.array([[loss]], dtype=np.float32)), gradient_net]


def train_lbfgs(problem: Problem) -> tuple[DlNetwork, TrainingInfo]:
    interp, opts = problem.interp, problem.opts
    net = problem.net
    columns = problem.columns(["Iteration", "TimeElapsed", "TrainingLoss", "GradientNorm",
                               "StepNorm"])
    iterations = int(opts.number("MaxIterations"))
    progress = Progress(problem, columns, iterations)
    handle = FunctionHandle("trainnetLoss", target=_FullBatchLoss(problem))
    method = opts.text("LineSearchMethod") or "weak-wolfe"
    searches = opts.number("MaxNumLineSearchIterations")
    state = BUILTINS["lbfgsState"].call(
        interp, [char_row("HistorySize"), opts.number("HistorySize"),
                 char_row("InitialInverseHessianFactor"),
                 opts.number("InitialInverseHessianFactor")], 1)[0]
    validation_frequency = int(opts.number("ValidationFrequency"))
    reason = "Max iterations completed"
    if problem.validation is not None:
        v0, first = _validate(problem, net, 0)
        if progress.table is not None:
            progress.table.row({"Iteration": 0.0, "ValidationLoss": v0, **first})
    iteration = 0
    early = progress.begin({})
    if early:
        reason, iterations = early, 0
    for iteration in range(1, iterations + 1):
        net, state = BUILTINS["lbfgsupdate"].call(
            interp, [net, handle, state, char_row("LineSearchMethod"), char_row(method),
                     char_row("MaxNumLineSearchIterations"), searches], 2)
        loss_value = state.loss
        loss = float(np.asarray(getattr(loss_value, "data", loss_value)).reshape(-1)[0])
        gradient_norm, step_norm = float(state.gradients_norm), float(state.step_norm)
        metrics = {}
        if problem.metrics:
            outs, _ = net.run(interp, [handle.target.x], False)
            metrics = problem.metric_values(outs[0], handle.target.t, "Training")
        problem.history.append((float(iteration), loss, gradient_norm, step_norm, *metrics.values()))
        values: dict[str, float | None] = {"TrainingLoss": loss, "GradientNorm": gradient_norm,
                                           "StepNorm": step_norm, **metrics}
        if gradient_norm < opts.number("GradientTolerance"):
            reason = "Gradient tolerance met"
        elif step_norm < opts.number("StepTolerance"):
            reason = "Step tolerance met"
        done = reason != "Max iterations completed" or iteration == iterations
        show = False
        if problem.validation is not None and (iteration % validation_frequency == 0 or done):
            v_loss, v_metrics = _validate(problem, net, iteration)
            values.update(ValidationLoss=v_loss, **v_metrics)
            show = True
        asked = progress.row(iteration, values, force=show or done)
        if asked and not done:
            reason, done = asked, True
            if progress.table is not None and not (show or iteration == 1
                                                   or iteration % progress.frequency == 0):
                progress.table.row({"Iteration": float(iteration), **values})
        if done:
            break
    progress.finish(reason)
    info = TrainingInfo(*_histories(problem, LBFGS_HISTORY), iteration, reason)
    return net, info
