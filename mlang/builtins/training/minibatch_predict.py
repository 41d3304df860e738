"""minibatchpredict and scores2label: predictions of a trained network, and their labels.

``Y = minibatchpredict(net, X)`` runs the network in inference mode over mini-batches of
the observations of X (numeric data in the layout of the network's input layer, or a
datastore) and returns the outputs joined along the observation dimension, as numeric
arrays in MATLAB's layout for their format: N-by-K for feature outputs ("CB"),
h-by-w-by-c-by-N for images, c-by-t-by-N for sequences (``OutputDataFormats`` names
another layout).  ``scores2label(scores, classNames)`` gives the label of the highest
score along the channel dimension.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import integer_scalar, split_options, text_list
from mlang.builtins.networks.network import DlNetwork
from mlang.builtins.networks.network_functions import layout_of, unformatted_layout
from mlang.builtins.networks.network_graph import texts_argument
from mlang.builtins.training.training_data import (
    LaidOut,
    check_input_size,
    is_datastore,
    laid_out,
    read_datastore,
    single_input_layout,
    stacked,
)
from mlang.errors import error
from mlang.registry import BUILTINS, builtin
from mlang.values.categorical import CategoricalArray
from mlang.values.core import char_row, class_of, fix_shape
from mlang.values.table import texts_of

OPTIONS = ("MiniBatchSize", "Outputs", "InputDataFormats", "OutputDataFormats", "UniformOutput",
           "ExecutionEnvironment", "Acceleration", "SequenceLength", "SequencePaddingValue",
           "SequencePaddingDirection")


def _padding(given: dict[str, Any]) -> tuple[float, str]:
    value = 0.0
    if "SequencePaddingValue" in given:
        v = given["SequencePaddingValue"]
        if class_of(v) not in ("double", "single") or np.size(v) != 1:
            raise error("deep:minibatchpredict:InvalidSequencePaddingValue",
                        "SequencePaddingValue must be a numeric scalar.")
        value = float(np.asarray(v).reshape(-1)[0])
    direction = "right"
    if "SequencePaddingDirection" in given:
        texts = texts_of(given["SequencePaddingDirection"])
        if texts is None or len(texts) != 1 or texts[0].lower() not in ("left", "right"):
            raise error("deep:minibatchpredict:InvalidSequencePaddingDirection",
                        'SequencePaddingDirection must be "right" or "left".')
        direction = texts[0].lower()
    return value, direction


def _inputs(interp: Any, net: DlNetwork, data: list, given: list[str] | None,
            padding: tuple[float, str]) -> list[LaidOut]:
    ports = net.graph.input_ports()
    if len(data) == 1 and is_datastore(data[0]):
        layout = single_input_layout(net, given[0] if given else None, "minibatchpredict")
        predictors = read_datastore(interp, data[0], "minibatchpredict", 1)[0]
        return [stacked(interp, predictors, layout, "predictors", "minibatchpredict",
                        padding=padding)]
    if len(data) != len(ports):
        raise error("deep:dlnetwork:WrongNumberOfInputs",
                    f"Incorrect number of input arguments. The network has {len(ports)} input"
                    f"{'s' if len(ports) != 1 else ''}, but {len(data)} "
                    f"{'were' if len(data) != 1 else 'was'} given.")
    out = []
    for k, x in enumerate(data):
        if type(x) is DlArray and x.fmt:
            layout = layout_of(x.fmt)
            x = BUILTINS["stripdims"].call(interp, [x, char_row(layout)], 1)[0].data
        elif given and k < len(given) and given[k].lower() != "auto":
            layout = given[k].upper()
        else:
            layer = net.graph.layer(ports[k][1][0])
            if not layer.IS_INPUT:
                raise error("deep:minibatchpredict:InputFormatsRequired",
                            "The network input is not connected to an input layer. Specify the "
                            "layout of the data with the InputDataFormats option.")
            layout = unformatted_layout(layer)
        out.append(laid_out(x, layout, "input data", "minibatchpredict", interp, padding))
    counts = {x.count for x in out}
    if len(counts) > 1:
        raise error("deep:minibatchpredict:InconsistentObservations",
                    "The inputs must have the same number of observations.")
    return out


def _joined(parts: list[DlArray]) -> tuple[np.ndarray, str]:
    fmt = parts[0].fmt
    if "B" not in fmt:
        return parts[0].data, fmt
    axis = fmt.index("B")
    datas = []
    for p in parts:
        d = p.data
        if d.ndim < len(fmt):
            d = d.reshape(d.shape + (1,) * (len(fmt) - d.ndim), order="F")
        datas.append(d)
    return np.concatenate(datas, axis=axis), fmt


@builtin(interp=True, nargout=True, max_out=None, dl="native")
def minibatchpredict(interp: Any, net: Any, *args: Any, nargout: int = 1) -> tuple:
    """minibatchpredict  Predictions of a neural network over mini-batches.

    Y = minibatchpredict(net, X) runs the dlnetwork NET in inference mode on the
    observations of X (numeric data laid out as the input layer expects, for example
    N-by-numFeatures for feature data, or a datastore) a mini-batch at a time and returns
    the outputs as numeric arrays, observations joined: N-by-numOutputs for feature data.
    [Y1, ..., YN] = minibatchpredict(net, X1, ..., XM) for several inputs and outputs.
    Options: MiniBatchSize (128), Outputs (layer outputs to return), InputDataFormats,
    OutputDataFormats ("auto": N-by-C for "CB" outputs), SequencePaddingValue (0) and
    SequencePaddingDirection ("right" or "left": sequences of a cell array are padded to
    the longest of their mini-batch)."""
    if type(net) is not DlNetwork:
        raise error("MATLAB:UndefinedFunction",
                    "Undefined function 'minibatchpredict' for input arguments of type "
                    f"'{class_of(net)}'.")
    if not net.initialized:
        raise error("deep:dlnetwork:NotInitialized",
                    "Uninitialized dlnetwork object. Initialize the network using the initialize "
                    "function before calling minibatchpredict.")
    data, given = split_options(args, OPTIONS)
    if not data:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    size = 128
    if "MiniBatchSize" in given:
        size = integer_scalar(given["MiniBatchSize"], "MiniBatchSize must be a positive integer.",
                              "deep:minibatchpredict:InvalidMiniBatchSize")
        if size < 1:
            raise error("deep:minibatchpredict:InvalidMiniBatchSize",
                        "MiniBatchSize must be a positive integer.")
    outputs = texts_argument(given["Outputs"], "Outputs") if "Outputs" in given else None
    in_formats = texts_argument(given["InputDataFormats"], "InputDataFormats") \
        if "InputDataFormats" in given else None
    out_formats = texts_argument(given["OutputDataFormats"], "OutputDataFormats") \
        if "OutputDataFormats" in given else None
    wanted = outputs if outputs is not None else net.output_names
    if nargout > len(wanted):
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    inputs = _inputs(interp, net, list(data), in_formats, _padding(given))
    check_input_size(interp, net, inputs[0], "minibatchpredict")
    count = inputs[0].count
    pieces: list[list[DlArray]] = [[] for _ in wanted]
    for start in range(0, max(count, 1), size):
        positions = np.arange(start, min(start + size, count))
        batch = [x.batch(interp, positions) for x in inputs]
        outs, _ = net.run(interp, batch, False, outputs)
        for k, o in enumerate(outs):
            pieces[k].append(o if type(o) is DlArray else DlArray(np.asarray(o)))
    results = []
    for k, parts in enumerate(pieces[:max(nargout, 1)]):
        data_k, fmt = _joined(parts)
        if not fmt:
            results.append(data_k)
            continue
        layout = layout_of(fmt)
        if out_formats and k < len(out_formats) and out_formats[k].lower() != "auto":
            layout = out_formats[k].upper()
        joined = DlArray(data_k, fmt)
        results.append(BUILTINS["stripdims"].call(interp, [joined, char_row(layout)], 1)[0].data)
    return tuple(results)


# ------------------------------------------------------------------ scores2label


def _class_names(value: Any) -> list[str]:
    if type(value) is CategoricalArray:
        names = value.element_names().reshape(-1, order="F")
        return [str(n) for n in names]
    try:
        return text_list(value, "classNames")
    except Exception:  # noqa: BLE001 -- any non-text value: the documented error below
        raise error("deep:scores2label:InvalidClassNames",
                    "classNames must be a categorical vector, a string array, or a cell array "
                    "of character vectors.") from None


@builtin(nargout=True, max_out=2, dl="native")
def scores2label(scores: Any, class_names: Any, dim: Any = None, *, nargout: int = 1) -> tuple:
    """scores2label  Convert prediction scores to labels.

    labels = scores2label(scores, classNames) gives the label of the highest score in
    the channel dimension: 'C' of a formatted dlarray, else the second dimension when its
    size is numel(classNames) (N-by-K scores), else the first dimension of that size.
    labels = scores2label(scores, classNames, dim) names the channel dimension.
    [labels, topScores] = scores2label(...) also returns the highest scores."""
    names = _class_names(class_names)
    fmt = ""
    if type(scores) is DlArray:
        fmt = scores.fmt
        data = scores.data
    else:
        if class_of(scores) not in ("double", "single"):
            raise error("deep:scores2label:InvalidScores",
                        "scores must be a numeric array or a dlarray object.")
        data = np.asarray(scores)
    if data.ndim < 2:
        data = data.reshape(1, -1)
    if dim is not None:
        axis = integer_scalar(dim, "dim must be a positive integer.",
                              "deep:scores2label:InvalidDimension") - 1
        if axis < 0:
            raise error("deep:scores2label:InvalidDimension", "dim must be a positive integer.")
    elif "C" in fmt:
        axis = fmt.index("C")
    elif data.shape[1] == len(names):
        axis = 1
    else:
        matching = [k for k, d in enumerate(data.shape) if d == len(names)]
        if not matching:
            raise error("deep:scores2label:ClassNamesMismatch",
                        "The number of classes must match the size of the channel dimension of "
                        "the scores.")
        axis = matching[0]
    if axis >= data.ndim:  # a trailing singleton dimension: one class, each score its own best
        if len(names) != 1:
            raise error("deep:scores2label:ClassNamesMismatch",
                        "The number of classes must match the size of the channel dimension of "
                        "the scores.")
        axis = data.ndim
        data = data.reshape(data.shape + (1,), order="F")
    if data.shape[axis] != len(names):
        raise error("deep:scores2label:ClassNamesMismatch",
                    "The number of classes must match the size of the channel dimension of the "
                    "scores.")
    best = np.argmax(data, axis=axis)
    top = np.max(data, axis=axis)
    # (trailing singleton dimensions dropped, as MATLAB's sizes drop them)
    best = np.expand_dims(best, axis)
    best = best.reshape(fix_shape(best.shape), order="F")
    top = np.expand_dims(top, axis)
    top = top.reshape(fix_shape(top.shape), order="F")
    # the channel dimension stays as a singleton one: a column of labels for N-by-K scores
    codes = best.astype(np.uint32) + 1
    unique = list(dict.fromkeys(names))
    if len(unique) != len(names):
        raise error("deep:scores2label:DuplicateClassNames", "classNames must be unique.")
    labels = CategoricalArray(codes, names)
    if nargout < 2:
        return (labels,)
    return (labels, top)
