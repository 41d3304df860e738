"""Normalisation operations on deep learning data: batchnorm, layernorm, groupnorm,
instancenorm and crosschannelnorm.

Each operation reads its input's layout through ``formats.formatted_input`` (canonical
label order S..., C, B, T, U), computes on the unformatted data and gives the result in
the input's form.  Standardising over a set of dimensions, (x - mean) ./ sqrt(var + eps),
is one differentiable step (``NORMALIZE``) with a hand-written vector-Jacobian product
that is itself written with differentiable operations, so derivatives of every order
work; the per-channel scale and offset are ordinary products and sums.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray, as_data
from mlang.autodiff.rules_support import vecdim
from mlang.autodiff.trace import Primitive, read_as_constant
from mlang.builtins.coerce import options, split_options, text_option, text_or_none
from mlang.builtins.deeplearning.formats import data_format_option, formatted_input, output_like
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of, fix_shape

# ------------------------------------------------- standardising over dimensions


def _padded(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """``x`` viewed with enough dimensions for ``axes`` (MATLAB drops trailing singletons)."""
    ndim = max(x.ndim, max(axes) + 1) if axes else x.ndim
    return x.reshape(x.shape + (1,) * (ndim - x.ndim))


def _statistics(x: np.ndarray, axes: tuple[int, ...], eps: float) -> tuple[np.ndarray, np.ndarray]:
    """The centred data and 1 ./ sqrt(var + eps) (biased variance over ``axes``)."""
    xp = _padded(x, axes)
    centred = xp - xp.mean(axis=axes, keepdims=True)
    variance = np.mean(centred * centred, axis=axes, keepdims=True)
    return centred, 1 / np.sqrt(variance + eps)


def _normalize(x: np.ndarray, axes: tuple[int, ...], eps: float) -> np.ndarray:
    if x.size == 0:
        return x.copy()
    centred, inverse = _statistics(x, axes, eps)
    return (centred * inverse).reshape(x.shape)


def _normalize_rule(g: Any, y: Any, x: Any, axes: tuple[int, ...], eps: float) -> tuple:
    """d/dx of xhat = (x - mean(x)) ./ sqrt(var(x, 1) + eps) over ``axes``:
    inv .* (g - mean(g) - xhat .* mean(g .* xhat))."""
    if not axes:
        return (None, None, None)  # nothing standardised over: xhat is 0 whatever x is
    if type(g) is np.ndarray and type(x) is np.ndarray:  # first derivatives: plain NumPy
        centred, inverse = _statistics(x, axes, eps)
        xhat = centred * inverse
        gp = _padded(g, axes)
        dx = inverse * (gp - gp.mean(axis=axes, keepdims=True)
                        - xhat * np.mean(gp * xhat, axis=axes, keepdims=True))
        return (dx.reshape(x.shape), None, None)
    # traced backward pass: the same formula with differentiable operations
    shape = ops.shape_of(x)
    count = math.prod(shape[k] if k < len(shape) else 1 for k in axes)
    dims = vecdim(list(axes))

    def mean(v: Any) -> Any:
        return ops.times(ops.call("sum", v, dims), 1.0 / count)

    centred = ops.minus(x, mean(x))
    inverse = ops.rdivide(1.0, ops.call("sqrt", ops.plus(mean(ops.times(centred, centred)), eps)))
    xhat = ops.times(centred, inverse)
    inner = ops.minus(ops.minus(g, mean(g)), ops.times(xhat, mean(ops.times(g, xhat))))
    return (ops.times(inverse, inner), None, None)


NORMALIZE = Primitive("normalize_over", _normalize, _normalize_rule)


def standardize(x: Any, axes: list[int], eps: float) -> Any:
    """(x - mean) ./ sqrt(var + eps) with the statistics over the 0-based ``axes``."""
    return ops.apply(NORMALIZE, x, tuple(axes), float(eps))


# ------------------------------------------------------------ arguments


def _unformatted(x: DlArray) -> DlArray:
    return DlArray(x.data, "", x.node)


def _positive_scalar(v: Any, what: str, function: str) -> float:
    data = as_data(v) if class_of(ops.data_of(v)) in ("double", "single", "logical") else None
    if data is None or data.size != 1 or data.dtype.kind == "c" or not float(data.reshape(-1)[0]) > 0:
        raise error(f"deep:{function}:Invalid{what}", f"{what} must be a positive real scalar.")
    return float(data.reshape(-1)[0])


def _real_scalar(v: Any, what: str, function: str, low: float = -math.inf,
                 high: float = math.inf) -> float:
    data = as_data(v) if class_of(ops.data_of(v)) in ("double", "single", "logical") else None
    if data is None or data.size != 1 or data.dtype.kind == "c" \
            or not low <= float(data.reshape(-1)[0]) <= high:
        limits = f" in the range [{low:g}, {high:g}]" if math.isfinite(low) and math.isfinite(high) else ""
        raise error(f"deep:{function}:Invalid{what}", f"{what} must be a real scalar{limits}.")
    return float(data.reshape(-1)[0])


def _epsilon(given: dict[str, Any], function: str) -> float:
    return _positive_scalar(given["Epsilon"], "Epsilon", function) if "Epsilon" in given else 1e-5


def _per_channel(v: Any, channels: int, bshape: tuple[int, ...], what: str, function: str) -> Any:
    """A per-channel argument (offset, scale, statistics) shaped to expand along the
    channel dimension: an unformatted dlarray (its trace kept) or a plain array."""
    data = as_data(v)
    if data.dtype.kind == "b":
        data = data.astype(np.float64)
    if data.size != channels and data.size != 1:  # (a scalar applies to every channel)
        raise error(f"deep:{function}:InvalidParameterSize",
                    f"{what} must have the same number of elements as the channel dimension "
                    f"of the input ({channels}).")
    if data.size == 1:
        bshape = (1, 1)
    if type(v) is DlArray:
        return ops.reshape_to(DlArray(data, "", v.node), bshape)
    return data.reshape(bshape, order="F")


def _channel_shape(xf: DlArray) -> tuple[int, tuple[int, ...]]:
    """The number of channels and the shape that expands a per-channel vector along them."""
    c = xf.fmt.index("C")
    full = xf.shape
    return full[c], fix_shape(tuple(full[c] if k == c else 1 for k in range(len(full))))


def _scale_and_shift(xhat: Any, scale: Any, offset: Any) -> Any:
    return ops.plus(ops.times(xhat, scale), offset)


def _labelled(y: Any, fmt: str) -> DlArray:
    """A computed result given the input's labels (it has the input's layout)."""
    if type(y) is DlArray:
        return DlArray(y.data, fmt, y.node)
    return DlArray(ops.raw(y), fmt)


def _axes(fmt: str, labels: str) -> list[int]:
    return [k for k, label in enumerate(fmt) if label in labels]


# ------------------------------------------------------------ batchnorm

_BATCHNORM_OPTIONS = ("MeanDecay", "VarianceDecay", "Epsilon", "DataFormat")


@builtin(nargout=True, max_out=3, dl="traced")
def batchnorm(x: object, offset: object, scale: object, *rest: object, nargout: int = 1) -> object:
    """Y = batchnorm(X, OFFSET, SCALEFACTOR)  normalise each channel over the S, T, B and U
    dimensions of X with the statistics of X, then scale and offset it
    [Y, popMu, popSigmaSq] = batchnorm(X, OFFSET, SCALEFACTOR)  also the per-channel mean
    and (population) variance of X
    [Y, updatedMu, updatedSigmaSq] = batchnorm(X, OFFSET, SCALEFACTOR, runningMu, runningSigmaSq)
    normalise with the statistics of X and update the running statistics:
    updated = decay*statistic + (1-decay)*running ('MeanDecay', 'VarianceDecay', 0.1 by
    default; the variance statistic is the unbiased one)
    Y = batchnorm(X, OFFSET, SCALEFACTOR, trainedMu, trainedSigmaSq)  normalise with given
    statistics (inference)
    Options: 'Epsilon' (1e-5), 'DataFormat' for unformatted input."""
    positional, given = split_options(rest, _BATCHNORM_OPTIONS)
    for value in positional:
        if text_or_none(value) is not None:  # a name that is not an option
            options((value, None), _BATCHNORM_OPTIONS)
    if len(positional) not in (0, 2):
        raise error("MATLAB:TooManyInputs" if len(positional) > 2 else "MATLAB:minrhs",
                    "Too many input arguments." if len(positional) > 2 else "Not enough input arguments.")
    xf, form = formatted_input(x, data_format_option(given), "batchnorm", required="C")
    eps = _epsilon(given, "batchnorm")
    mean_decay = _real_scalar(given.get("MeanDecay", 0.1), "MeanDecay", "batchnorm", 0.0, 1.0)
    variance_decay = _real_scalar(given.get("VarianceDecay", 0.1), "VarianceDecay", "batchnorm", 0.0, 1.0)
    channels, bshape = _channel_shape(xf)
    shift = _per_channel(offset, channels, bshape, "Offset", "batchnorm")
    factor = _per_channel(scale, channels, bshape, "Scale factor", "batchnorm")
    xu = _unformatted(xf)
    if positional and nargout <= 1:  # inference with trained statistics
        mu = _per_channel(positional[0], channels, bshape, "Mean", "batchnorm")
        sigma_sq = _per_channel(positional[1], channels, bshape, "Variance", "batchnorm")
        inverse = ops.rdivide(1.0, ops.call("sqrt", ops.plus(sigma_sq, eps)))
        y = _scale_and_shift(ops.times(ops.minus(xu, mu), inverse), factor, shift)
        return read_as_constant(output_like(_labelled(y, xf.fmt), form), *given.values())
    c = xf.fmt.index("C")
    axes = [k for k in range(len(xf.fmt)) if k != c]
    y = _scale_and_shift(standardize(xu, axes, eps), factor, shift)
    out = read_as_constant(output_like(_labelled(y, xf.fmt), form), *given.values())
    if nargout <= 1:
        return out
    mu, sigma_sq, count = _channel_statistics(xf.data, c, axes)
    if not positional:
        return out, _column(mu), _column(sigma_sq)
    if count > 1:
        sigma_sq = sigma_sq * (count / (count - 1))  # the running variance is unbiased
    running_mu, running_sigma_sq = positional
    return (out, _updated(running_mu, mu, mean_decay, channels),
            _updated(running_sigma_sq, sigma_sq, variance_decay, channels))


def _channel_statistics(data: np.ndarray, c: int, axes: list[int]) -> tuple[np.ndarray, np.ndarray, int]:
    """Per-channel mean and biased variance of the data, and how many values each has."""
    d = data.astype(np.float64) if data.dtype.kind == "b" else data
    d = _padded(d, (c,) + tuple(axes))
    moved = np.moveaxis(d, c, 0).reshape(d.shape[c], -1)
    mu = moved.mean(axis=1) if moved.shape[1] else np.full(moved.shape[0], np.nan, d.dtype)
    sigma_sq = ((moved - mu[:, None]) ** 2).mean(axis=1) if moved.shape[1] else mu.copy()
    return mu, sigma_sq, moved.shape[1]


def _column(v: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(v.reshape(-1, 1))


def _updated(running: Any, statistic: np.ndarray, decay: float, channels: int) -> Any:
    """decay*statistic + (1-decay)*running, in the shape (and kind) of ``running``."""
    old = as_data(running)
    if old.size != channels:
        raise error("deep:batchnorm:InvalidParameterSize",
                    "Running statistics must have the same number of elements as the channel "
                    f"dimension of the input ({channels}).")
    old_values = old.astype(np.float64) if old.dtype.kind == "b" else old
    new = decay * statistic.reshape(old.shape, order="F") + (1 - decay) * old_values
    dtype = np.result_type(statistic.dtype, old_values.dtype)
    if np.float32 in (statistic.dtype, old_values.dtype):
        dtype = np.float32
    new = np.asarray(new, dtype=dtype)
    return DlArray(new) if type(running) is DlArray else new


# ------------------------------------------------------------ layernorm

_OPERATION_DIMENSIONS = ("auto", "channel-only", "spatial-channel", "batch-excluded")


@builtin(dl="traced")
def layernorm(x: object, offset: object, scale: object, *settings: object) -> object:
    """Y = layernorm(X, OFFSET, SCALEFACTOR)  normalise each observation of X over its
    channels (and spatial dimensions), then scale and offset each channel
    Options: 'OperationDimension' 'auto' (sequence data with a T and no S dimension:
    'channel-only'; otherwise 'spatial-channel'), 'channel-only', 'spatial-channel',
    'batch-excluded' (every dimension but B); 'Epsilon' (1e-5); 'DataFormat'."""
    given = options(settings, ("OperationDimension", "Epsilon", "DataFormat"))
    xf, form = formatted_input(x, data_format_option(given), "layernorm", required="C")
    eps = _epsilon(given, "layernorm")
    mode = text_option(given["OperationDimension"]) if "OperationDimension" in given else "auto"
    if mode not in _OPERATION_DIMENSIONS:
        raise error("deep:layernorm:InvalidOperationDimension",
                    "OperationDimension must be 'auto', 'channel-only', 'spatial-channel' or "
                    "'batch-excluded'.")
    fmt = xf.fmt
    if mode == "auto":
        mode = "channel-only" if "T" in fmt and "S" not in fmt else "spatial-channel"
    labels = {"channel-only": "C", "spatial-channel": "SC", "batch-excluded": "SCTU"}[mode]
    channels, bshape = _channel_shape(xf)
    shift = _per_channel(offset, channels, bshape, "Offset", "layernorm")
    factor = _per_channel(scale, channels, bshape, "Scale factor", "layernorm")
    y = _scale_and_shift(standardize(_unformatted(xf), _axes(fmt, labels), eps), factor, shift)
    return read_as_constant(output_like(_labelled(y, fmt), form), *settings)


# --------------------------------------------------- groupnorm, instancenorm


def _group_count(v: Any, channels: int) -> int:
    text = text_option(v)
    if text == "all-channels":
        return 1
    if text == "channel-wise":
        return max(channels, 1)  # (one empty group for an input of no channels)
    data = as_data(v) if text is None and class_of(v) in ("double", "single") else None
    if data is None or data.size != 1 or data.dtype.kind == "c" \
            or not float(data.reshape(-1)[0]).is_integer() or float(data.reshape(-1)[0]) < 1:
        raise error("deep:groupnorm:InvalidNumGroups",
                    "Number of groups must be a positive integer, 'all-channels' or 'channel-wise'.")
    groups = int(data.reshape(-1)[0])
    if channels % groups:
        raise error("deep:groupnorm:InvalidNumGroups",
                    f"The number of channels of the input ({channels}) must be divisible by "
                    f"the number of groups ({groups}).")
    return groups


@builtin(dl="traced")
def groupnorm(x: object, num_groups: object, offset: object, scale: object, *settings: object) -> object:
    """Y = groupnorm(X, NUMGROUPS, OFFSET, SCALEFACTOR)  normalise each observation of X over
    groups of channels (NUMGROUPS consecutive groups; 'all-channels' is one group,
    'channel-wise' one group a channel) and its S, T and U dimensions, then scale and
    offset each channel
    Options: 'Epsilon' (1e-5), 'DataFormat'."""
    given = options(settings, ("Epsilon", "DataFormat"))
    xf, form = formatted_input(x, data_format_option(given), "groupnorm", required="C")
    eps = _epsilon(given, "groupnorm")
    channels, bshape = _channel_shape(xf)
    groups = _group_count(num_groups, channels)
    shift = _per_channel(offset, channels, bshape, "Offset", "groupnorm")
    factor = _per_channel(scale, channels, bshape, "Scale factor", "groupnorm")
    fmt = xf.fmt
    c = fmt.index("C")
    full = xf.shape
    # the channel dimension split in two: channels within a group, then groups
    split = full[:c] + (channels // groups, groups) + full[c + 1:]
    axes = [k if k < c else k + 1 for k in _axes(fmt, "STU")] + [c]
    xu = _unformatted(xf)
    grouped = standardize(ops.reshape_to(xu, fix_shape(split)), axes, eps)
    y = _scale_and_shift(ops.reshape_to(grouped, xu.data.shape), factor, shift)
    return read_as_constant(output_like(_labelled(y, fmt), form), num_groups, *settings)


@builtin(dl="traced")
def instancenorm(x: object, offset: object, scale: object, *settings: object) -> object:
    """Y = instancenorm(X, OFFSET, SCALEFACTOR)  normalise each channel of each observation
    of X over its S, T and U dimensions, then scale and offset each channel
    Options: 'Epsilon' (1e-5), 'DataFormat'."""
    given = options(settings, ("Epsilon", "DataFormat"))
    xf, form = formatted_input(x, data_format_option(given), "instancenorm", required="C")
    eps = _epsilon(given, "instancenorm")
    channels, bshape = _channel_shape(xf)
    shift = _per_channel(offset, channels, bshape, "Offset", "instancenorm")
    factor = _per_channel(scale, channels, bshape, "Scale factor", "instancenorm")
    y = _scale_and_shift(standardize(_unformatted(xf), _axes(xf.fmt, "STU"), eps), factor, shift)
    return read_as_constant(output_like(_labelled(y, xf.fmt), form), *settings)


# ------------------------------------------------------- crosschannelnorm


def _window_sum(v: np.ndarray, axis: int, before: int, after: int) -> np.ndarray:
    """Sums of ``v`` along ``axis`` over the windows [k - before, k + after] (clipped)."""
    v = _padded(v, (axis,))
    n = v.shape[axis]
    padding = [(0, 0)] * v.ndim
    padding[axis] = (before + 1, after)
    totals = np.cumsum(np.pad(v, padding), axis=axis)
    upper = np.take(totals, np.arange(n) + before + after + 1, axis=axis)
    lower = np.take(totals, np.arange(n), axis=axis)
    return upper - lower


def _window_sum_forward(v: np.ndarray, axis: int, before: int, after: int) -> np.ndarray:
    return _window_sum(v, axis, before, after).reshape(v.shape)


# The sum over a window is linear: its adjoint is the sum over the mirrored window.
WINDOW_SUM = Primitive(
    "channel_window_sum", _window_sum_forward,
    lambda g, y, v, axis, before, after: (ops.apply(WINDOW_SUM, g, axis, after, before), None, None, None))


@builtin(dl="traced")
def crosschannelnorm(x: object, window_size: object, *settings: object) -> object:
    """Y = crosschannelnorm(X, WINDOWSIZE)  local response normalisation across channels:
    Y = X ./ (K + ALPHA*SS/WINDOWSIZE).^BETA, SS the sum of squares of X over a window of
    WINDOWSIZE neighbouring channels centred on each channel
    Options: 'Alpha' (1e-4), 'Beta' (0.75), 'K' (2), 'DataFormat'."""
    given = options(settings, ("Alpha", "Beta", "K", "DataFormat"))
    xf, form = formatted_input(x, data_format_option(given), "crosschannelnorm", required="C")
    size_data = as_data(window_size) if class_of(window_size) in ("double", "single") else None
    if size_data is None or size_data.size != 1 or size_data.dtype.kind == "c" \
            or not float(size_data.reshape(-1)[0]).is_integer() or float(size_data.reshape(-1)[0]) < 1:
        raise error("deep:crosschannelnorm:InvalidWindowSize", "Window size must be a positive integer.")
    n = int(size_data.reshape(-1)[0])
    alpha = _real_scalar(given.get("Alpha", 1e-4), "Alpha", "crosschannelnorm")
    beta = _real_scalar(given.get("Beta", 0.75), "Beta", "crosschannelnorm")
    k = _real_scalar(given.get("K", 2.0), "K", "crosschannelnorm")
    if k < 1e-5:
        raise error("deep:crosschannelnorm:InvalidK",
                    "K must be a real scalar greater than or equal to 1e-05.")
    xu = _unformatted(xf)
    before = (n - 1) // 2
    squares = ops.apply(WINDOW_SUM, ops.times(xu, xu), xf.fmt.index("C"), before, n - 1 - before)
    denominator = ops.call("power", ops.plus(ops.times(squares, alpha / n), k), beta)
    return read_as_constant(output_like(_labelled(ops.rdivide(xu, denominator), xf.fmt), form),
                            window_size, *settings)
