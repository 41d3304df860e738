"""trainnet: train a neural network with a named or custom loss and trainingOptions.

``[net, info] = trainnet(X, T, layers_or_net, lossFcn, options)`` with numeric
predictors in MATLAB's layout for the network's input and numeric or categorical
targets, or ``trainnet(ds, layers_or_net, lossFcn, options)`` with a datastore whose
reads hold predictors and targets side by side (``combine(arrayDatastore(X),
arrayDatastore(T))``).  A layer array or layer graph becomes an initialised dlnetwork
first (no output layer needed); an uninitialised dlnetwork is initialised.  The loops
are in ``training_loop.py``, the data handling in ``training_data.py``, the losses in
``training_losses.py``, and the TrainingInfo result with the verbose table in
``training_info.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.networks.layer_array import layers_of
from mlang.builtins.networks.layer_graph import LayerGraph
from mlang.builtins.networks.network import DlNetwork
from mlang.builtins.training.input_statistics import statistics_unset, with_input_statistics
from mlang.builtins.training.options import TrainingOptions
from mlang.builtins.training.training_data import (
    LaidOut,
    check_input_size,
    datastore_data,
    formats_option,
    is_datastore,
    laid_out,
    padding_of,
    single_input_layout,
    targets_of,
)
from mlang.builtins.training.training_info import TrainingInfo
from mlang.builtins.training.training_loop import Problem, train_lbfgs, train_stochastic
from mlang.builtins.training.training_losses import LossFunction, loss_function, metric_names
from mlang.errors import error
from mlang.registry import BUILTINS, builtin
from mlang.values.categorical import CategoricalArray
from mlang.values.cell import Cell
from mlang.values.core import class_of


def network_to_train(interp: Any, value: Any) -> DlNetwork:
    """The initialised dlnetwork trainnet starts from."""
    if type(value) is DlNetwork:
        if not value.graph.layers:
            raise error("deep:dlnetwork:EmptyNetwork", "Network must have at least one layer.")
        return value if value.initialized else BUILTINS["initialize"].call(interp, [value], 1)[0]
    if layers_of(value) is not None or type(value) is LayerGraph:
        return BUILTINS["dlnetwork"].call(interp, [value], 1)[0]
    raise error("deep:trainnet:InvalidNetwork",
                "Invalid network: specify a layer array, a layer graph or a dlnetwork object, "
                f"not {class_of(value)}.")


def first_output(interp: Any, net: DlNetwork, x: LaidOut) -> Any:
    """The network output for the first observation (its format and size)."""
    if len(net.output_names) != 1:
        raise error("deep:trainnet:MultipleOutputsNotSupported",
                    "trainnet supports networks with one output only; this network has "
                    f"{len(net.output_names)} outputs.")
    outs, _ = net.run(interp, [x.batch(interp, np.arange(min(x.count, 1)))], False)
    return outs[0]


def output_format(interp: Any, net: DlNetwork, x: LaidOut) -> str:
    return getattr(first_output(interp, net, x), "fmt", "") or "CB"


def _check_target_size(interp: Any, net: DlNetwork, x: LaidOut, t: LaidOut, what: str) -> None:
    """Targets of one observation must have the size of the network output for one."""
    if x.count == 0 or "B" not in t.layout:
        return
    y = first_output(interp, net, x)
    if getattr(y, "fmt", "") == "" or "T" in y.fmt:
        return  # sequences may differ in length; the loss checks them
    target = t.batch(interp, np.arange(1))
    y_shape = tuple(d for d in np.shape(y.data) if d != 1)
    t_shape = tuple(d for d in np.shape(target.data) if d != 1)
    if y_shape != t_shape:
        raise error("deep:trainnet:TargetSizeMismatch",
                    f"Invalid {what}: the size of the targets of an observation "
                    f"({_size_text(t_shape)}) must match the size of the network output "
                    f"({_size_text(y_shape)}).")


def _size_text(shape: tuple[int, ...]) -> str:
    if not shape:
        return "1"
    return "\u00d7".join(str(d) for d in shape)


def _data_pair(value: Any, what: str) -> tuple[Any, Any]:
    """ValidationData given as {X, T}."""
    if type(value) is Cell and value.data.size == 2:
        cells = value.data.reshape(-1, order="F")
        return cells[0], cells[1]
    raise error("deep:trainnet:InvalidValidationData",
                f"Invalid {what}: specify a cell array {{X, T}} of predictors and targets, or a "
                "datastore.")


def _check_targets(x: LaidOut, t: LaidOut, what: str) -> None:
    if x.count != t.count:
        raise error("deep:trainnet:SizeMismatch",
                    f"Invalid {what}: the number of observations in the predictors ({x.count}) "
                    f"and the targets ({t.count}) must be the same.")


def _data(interp: Any, net: DlNetwork, sources: tuple, opts: TrainingOptions, loss: LossFunction,
          what: str) -> tuple[LaidOut, LaidOut]:
    input_layout = single_input_layout(net, formats_option(opts, "InputDataFormats"), "trainnet")
    target_given = formats_option(opts, "TargetDataFormats")
    padding = padding_of(opts)

    def checked_output_format(x: LaidOut) -> str:
        """The format of the network output, once the predictors are known to fit."""
        if x.count == 0:
            raise error("deep:trainnet:EmptyData", f"Invalid {what}: there are no observations.")
        check_input_size(interp, net, x, "trainnet")
        return output_format(interp, net, x)

    if len(sources) == 1:
        x, t = datastore_data(interp, sources[0], input_layout, checked_output_format, target_given,
                              "trainnet", indices=loss.name == "index-crossentropy",
                              padding=padding)
    else:
        x = laid_out(sources[0], input_layout, "predictors", "trainnet", interp, padding)
        fmt = checked_output_format(x)
        if type(sources[1]) is CategoricalArray and not loss.is_classification \
                and loss.handle is None:
            raise error("deep:trainnet:CategoricalTargetsNeedClassificationLoss",
                        "Categorical targets need a classification loss such as \"crossentropy\".")
        t = targets_of(sources[1], fmt, target_given, "trainnet",
                       indices=loss.name == "index-crossentropy", interp=interp, padding=padding)
    _check_targets(x, t, what)
    if loss.handle is None and loss.name != "index-crossentropy":
        _check_target_size(interp, net, x, t, what)
    return x, t


@builtin(interp=True, nargout=True, max_out=2, dl="native")
def trainnet(interp: Any, *args: Any, nargout: int = 1) -> tuple:
    """trainnet  Train a neural network.

    [net, info] = trainnet(X, T, layers, lossFcn, options) trains the network given by a
    layer array, a layer graph or a dlnetwork on predictors X and targets T.  Numeric X
    is laid out as the network's input layer expects: N-by-numFeatures for feature data,
    h-by-w-by-c-by-N for images, c-by-t-by-N sequences; T is numeric in the layout of
    the network output (N-by-numResponses) or categorical (one-hot encoded in the order
    of its categories).
    [net, info] = trainnet(ds, layers, lossFcn, options) reads predictors and targets
    from a datastore (for example combine(arrayDatastore(X), arrayDatastore(T))).
    lossFcn: "mse" (or "mean-squared-error", "l2loss"), "mae" ("mean-absolute-error",
    "l1loss"), "huber", "crossentropy", "binary-crossentropy", "index-crossentropy", or
    a function handle @(Y, T) returning the loss.
    options: trainingOptions("adam" | "sgdm" | "rmsprop" | "lbfgs", ...).
    info is a TrainingInfo object with TrainingHistory, ValidationHistory,
    OutputNetworkIteration and StopReason."""
    if len(args) < 4:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    if len(args) > 5:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if len(args) == 4:
        if not is_datastore(args[0]):
            raise error("deep:trainnet:InvalidData",
                        "Invalid training data: with four input arguments, the first must be a "
                        f"datastore, not {class_of(args[0])}.")
        sources: tuple = (args[0],)
    else:
        sources = (args[0], args[1])
    network, loss_value, opts = args[-3], args[-2], args[-1]
    if not isinstance(opts, TrainingOptions):
        raise error("deep:trainnet:InvalidTrainingOptions",
                    "Invalid training options: specify a training options object made with "
                    f"trainingOptions, not {class_of(opts)}.")
    loss = loss_function(loss_value)
    given_layers = layers_of(network) or []
    unset = any(layer.IS_INPUT and statistics_unset(layer) for layer in given_layers)
    net = network_to_train(interp, network)
    x, t = _data(interp, net, sources, opts, loss, "training data")
    net = with_input_statistics(interp, net, x, opts.flag("ResetInputNormalization") or unset)
    validation = None
    given = opts.values.get("ValidationData")
    if given is not None and not (type(given) is np.ndarray and given.size == 0):
        pair = (given,) if is_datastore(given) else _data_pair(given, "validation data")
        validation = _data(interp, net, pair, opts, loss, "validation data")
    problem = Problem(interp, net, x, t, loss, opts, validation,
                      metric_names(opts.values.get("Metrics", np.zeros((0, 0)))))
    trained: DlNetwork
    info: TrainingInfo
    if opts.solver == "lbfgs":
        trained, info = train_lbfgs(problem)
    else:
        trained, info = train_stochastic(problem)
    return (trained, info)[:max(nargout, 1)]
