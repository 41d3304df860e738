"""Dropout and embedding for model functions: dropout (as a dropout layer does it in
training) and embed (numeric indices to embedding vectors)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray, as_data, check_format
from mlang.autodiff.trace import read_as_constant
from mlang.builtins.coerce import options, text_scalar
from mlang.builtins.deeplearning.formats import InputForm, data_format_option, formatted_input, output_like
from mlang.builtins.math.random import generator
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of, fix_shape, result

# ---------------------------------------------------------------- dropout


def _probability(v: Any) -> float:
    data = as_data(v) if class_of(ops.data_of(v)) in ("double", "single", "logical") else None
    if data is None or data.size != 1 or data.dtype.kind == "c" or not 0 <= float(data.reshape(-1)[0]) < 1:
        raise error("deep:dropout:InvalidProbability",
                    "Probability must be a nonnegative real scalar less than 1.")
    return float(data.reshape(-1)[0])


@builtin(interp=True, dl="traced")
def dropout(interp: Any, x: object, probability: object = None) -> object:
    """Y = dropout(X)  randomly zero elements of X with probability 0.5 and scale the
    others by 2, as a dropout layer does in training
    Y = dropout(X, P)  drop with probability P (0 <= P < 1), scaling kept elements by
    1/(1-P); the mask is rand(size(X)) < P, drawn from the session's random stream
    (rng(seed) makes it reproducible).  A dlarray keeps its format and trace."""
    p = 0.5 if probability is None else _probability(probability)
    data = x.data if type(x) is DlArray else None
    if data is None:
        if class_of(x) not in ("double", "single", "logical"):
            raise error("deep:dropout:InvalidInput",
                        "Input data must be a numeric or logical array of type single or double.")
        data = as_data(x)
    dtype = data.dtype if data.dtype.kind in "fc" else np.dtype(np.float64)
    shape = data.shape
    drawn = generator(interp).random_sample(int(np.prod(shape))).reshape(shape, order="F")
    kept = (drawn >= p).astype(dtype) * dtype.type(1 / (1 - p))
    if type(x) is DlArray:
        # recorded when traced: the gradient is the same mask
        return read_as_constant(ops.times(x, kept), probability)
    return result(data.astype(dtype, copy=False) * kept)


# ----------------------------------------------------------------- embed


def _weights_matrix(weights: Any, weights_format: str) -> Any:
    """The embedding weights as an (embedding dimension)-by-(vocabulary) matrix (a dlarray
    keeps its trace)."""
    data = as_data(weights)
    if type(weights) is DlArray and weights.fmt:
        weights_format = weights.fmt
    if data.ndim != 2 or sorted(weights_format) != ["C", "U"]:
        raise error("deep:embed:InvalidWeights",
                    "Weights must be a matrix with format 'CU' (embedding dimension by number "
                    "of words) or 'UC'.")
    if data.dtype.kind not in "fc":  # (complex weights stay complex)
        data = data.astype(np.float64)
    w = DlArray(data, "", weights.node) if type(weights) is DlArray else data
    if weights_format == "UC":
        w = ops.transpose(w)
    return w


def _indices(data: np.ndarray, vocabulary: int) -> np.ndarray:
    values = data.real.astype(np.float64, copy=False)
    if np.iscomplexobj(data) \
            or not np.all((values >= 1) & (values <= vocabulary) & (values == np.round(values))):
        raise error("deep:embed:InvalidIndices",
                    f"Input data must contain positive integers less than or equal to the number "
                    f"of words in the embedding ({vocabulary}).")
    return values.astype(np.intp) - 1


@builtin(dl="traced")
def embed(x: object, weights: object, *settings: object) -> object:
    """Y = embed(X, WEIGHTS)  map the numeric indices of X to the columns of WEIGHTS
    (embedding dimension by number of words): the output has X's format with its
    singleton 'C' dimension (added when X has none) expanded to the embedding dimension
    Options: 'DataFormat' for unformatted X, 'WeightsFormat' ('CU' by default, or 'UC')."""
    given = options(settings, ("DataFormat", "WeightsFormat"))
    weights_format = check_format(text_scalar(given["WeightsFormat"], "WeightsFormat")) \
        if "WeightsFormat" in given else "CU"
    data_format = data_format_option(given)
    if type(x) is not DlArray and class_of(x) not in ("double", "single", "logical"):
        raise error("deep:embed:InvalidInput", "Input data must be numeric indices.")
    xf, form = formatted_input(x, data_format, "embed")
    fmt = xf.fmt
    full = xf.shape
    if "C" in fmt:
        if full[fmt.index("C")] != 1:
            raise error("deep:embed:InvalidInput",
                        "Input data must have a singleton channel ('C') dimension.")
        sizes = [s for k, s in enumerate(full) if fmt[k] != "C"]
        rest = fmt.replace("C", "")
    else:
        sizes, rest = list(full), fmt
    w = _weights_matrix(weights, weights_format)
    dims, vocabulary = ops.shape_of(w)
    index = _indices(xf.data, vocabulary).reshape(-1, order="F")
    # output labels in canonical order: the S labels, then C, then the others
    spatial = rest.count("S")
    out_fmt = rest[:spatial] + "C" + rest[spatial:]
    out_sizes = sizes[:spatial] + [dims] + sizes[spatial:]
    # column-major position of each output element in w: channel e of the word at index
    before = int(np.prod(sizes[:spatial]))
    word = index.reshape(before, 1, -1, order="F")
    channel = np.arange(dims).reshape(1, dims, 1)
    positions = (channel + dims * word).reshape(-1, order="F")
    y = ops.take(w, positions, fix_shape(tuple(out_sizes)))
    out = DlArray(y.data, out_fmt, y.node) if type(y) is DlArray else DlArray(y, out_fmt)
    if not form.was_formatted:
        order = form.given_order if "C" in form.given_order else "C" + form.given_order
        out = output_like(out, InputForm(False, order))
    return read_as_constant(out, x)  # (the indices pick the columns of the weights)
