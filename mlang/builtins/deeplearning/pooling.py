"""Pooling: maxpool (with the indices of the maxima), maxunpool and avgpool.

Inputs are read and returned as convolution.py does (formatted dlarrays, or DataFormat),
pooling over the 'S' dimensions, and over 'T' too when the PoolFormat option has one
(or when there is no 'S').  maxpool picks elements, so it is a gather (ops.take) whose
gradient scatters (ops.put); avgpool is the AVG primitive of convolution_kernels.py.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray, as_data, check_format
from mlang.autodiff.trace import read_as_constant
from mlang.builtins.coerce import checked_shape, options, text_option, text_scalar
from mlang.builtins.deeplearning import convolution_kernels as kernels
from mlang.builtins.deeplearning.convolution import (
    core_numbers,
    from_core,
    padding_amounts,
    positive_sizes,
    require_real,
    same_padding,
    slid_axes,
    to_core,
)
from mlang.builtins.deeplearning.formats import data_format_option, formatted_input, output_like
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import fix_shape

Ints = tuple[int, ...]


def _pool_time(given: dict) -> bool:
    """Whether the PoolFormat option asks to pool over 'T'."""
    if "PoolFormat" not in given:
        return False
    return "T" in check_format(text_scalar(given["PoolFormat"], "PoolFormat"))


def _pool_plan(x: Any, poolsize: Any, given: dict, function: str) -> tuple:
    """The input in core layout and how to pool it: (core, layout, form, size, stride, pads)."""
    require_real(function, x)
    y, form = formatted_input(x, data_format_option(given), function)
    core, layout = to_core(y, slid_axes(y.fmt, _pool_time(given), function))
    k = layout.k
    in_size = kernels.dims(ops.shape_of(core), k)
    is_global = text_option(poolsize) == "global"
    if is_global:
        size = in_size
    elif text_option(poolsize) is not None:
        raise error(f"deep:{function}:InvalidPoolSize",
                    "Pool size must be 'global' or positive integers.")
    else:
        size = positive_sizes(poolsize, k, "PoolSize", function)
    stride = positive_sizes(given.get("Stride", 1.0), k, "Stride", function)
    pads = padding_amounts(given.get("Padding", 0.0), k, "Padding", function)
    if pads == "same":
        pads = same_padding(in_size, size, stride)
    elif isinstance(pads, str):
        raise error(f"deep:{function}:InvalidPadding", "Padding must be 'same' or nonnegative integers.")
    for n, p, (b, a) in zip(in_size, size, pads, strict=True):
        if b >= p or a >= p:
            raise error(f"deep:{function}:PaddingTooLarge",
                        "Padding must be smaller than the pool size in each pooled dimension.")
        if n + b + a < p:
            raise error(f"deep:{function}:PoolTooLarge",
                        "The pool size must not exceed the size of the padded input data.")
    return core, layout, form, size, stride, pads


# ------------------------------------------------------------------ maxpool


@builtin(dl="traced", nargout=True, max_out=3)
def maxpool(x: object, poolsize: object, *settings: object, nargout: int = 1) -> Any:
    """Y = maxpool(X, poolsize)  pool data to maximum values

    Y = maxpool(X, poolsize)  the maximum of each pooling region of the formatted dlarray X
    over its spatial ('S') dimensions
    Y = maxpool(X, 'global')  the maximum over all spatial positions
    [Y, indx, inputSize] = maxpool(...)  also the linear indices in X of the maxima and the size
    of X, for maxunpool
    Y = maxpool(..., 'Stride', S, 'Padding', P, 'DataFormat', FMT, 'PoolFormat', PF)
    S: 1 (default); P: 0 (default), 'same', a scalar, one value per dimension or [before; after]"""
    given = options(settings, ("Stride", "Padding", "DataFormat", "PoolFormat"))
    core, layout, form, size, stride, pads = _pool_plan(x, poolsize, given, "maxpool")
    k = layout.k
    raw = ops.data_of(core)
    pos, out_shape = kernels.max_positions(raw, k, size, stride, pads)
    out = ops.take(core, pos, fix_shape(out_shape))
    # (the positions of the maxima are read from the data, as constants of the take)
    result = read_as_constant(output_like(from_core(out, layout), form), x, poolsize, *settings)
    if nargout < 2:
        return result
    given_shape = _given_shape(x)
    numbers = core_numbers(layout, given_shape, form.given_order)
    indices = (numbers[pos] + 1.0).reshape(fix_shape(out_shape), order="F")
    indx = output_like(from_core(DlArray(indices), layout), form)
    input_size = np.array([[float(n) for n in given_shape]])
    return result, indx, input_size


def _given_shape(x: Any) -> Ints:
    """The size of an input as the caller sees it (labelled singletons included)."""
    if type(x) is DlArray:
        return tuple(x.shape)
    return tuple(np.shape(as_data(x)))


@builtin(dl="traced")
def maxunpool(x: object, indx: object, output_size: object, *settings: object) -> object:
    """Y = maxunpool(X, indx, outputSize)  unpool the output of maximum pooling

    Y = maxunpool(X, indx, outputSize)  the values of X put back at the positions indx of the
    maxima (from maxpool) in an array of size outputSize, zeros elsewhere
    Y = maxunpool(..., 'DataFormat', FMT)  for unformatted X"""
    given = options(settings, ("DataFormat",))
    data_format = data_format_option(given)
    formatted = type(x) is DlArray and bool(x.fmt)
    if formatted and data_format is not None:
        raise error("deep:dlarray:DataFormatFormattedInput",
                    "Input data must be an unformatted dlarray or numeric array when specifying "
                    "the 'DataFormat' option.")
    if not formatted and data_format is None:
        raise error("deep:dlarray:UnformattedInput",
                    "Input data must be a formatted dlarray, or specify the data format using "
                    "the 'DataFormat' option.")
    require_real("maxunpool", x)
    value = x if type(x) is DlArray else DlArray(as_data(x))
    positions = np.asarray(ops.data_of(indx) if type(indx) is DlArray else as_data(indx), dtype=np.float64)
    shape_data = np.asarray(as_data(output_size), dtype=np.float64).reshape(-1)
    if shape_data.size < 1 or not np.all(np.isfinite(shape_data)) or np.any(shape_data < 0) \
            or np.any(shape_data != np.floor(shape_data)):
        raise error("deep:maxunpool:InvalidOutputSize",
                    "Output size must be a vector of nonnegative integers.")
    shape = fix_shape(checked_shape(tuple(int(n) for n in shape_data)))
    if positions.size != value.data.size:
        raise error("deep:maxunpool:InvalidIndices",
                    "The indices must have one element for each element of the input data.")
    flat = positions.reshape(-1, order="F")
    total = math.prod(shape)
    if flat.size and (np.any(flat < 1) or np.any(flat > total) or np.any(flat != np.floor(flat))):
        raise error("deep:maxunpool:InvalidIndices",
                    "The indices must be positive integers no larger than the number of elements "
                    "of the output.")
    out = ops.put(DlArray(value.data, "", value.node), flat.astype(np.intp) - 1, shape)
    fmt = value.fmt if formatted and len(value.fmt) >= len(shape) else ""
    return read_as_constant(DlArray(out.data, fmt, out.node), indx, output_size)


# ------------------------------------------------------------------ avgpool


@builtin(dl="traced")
def avgpool(x: object, poolsize: object, *settings: object) -> object:
    """Y = avgpool(X, poolsize)  pool data to average values

    Y = avgpool(X, poolsize)  the average of each pooling region of the formatted dlarray X
    over its spatial ('S') dimensions
    Y = avgpool(X, 'global')  the average over all spatial positions
    Y = avgpool(..., 'Stride', S, 'Padding', P, 'PaddingValue', V, 'DataFormat', FMT, 'PoolFormat', PF)
    V: 0 (default: padding counts as zeros) or 'mean' (averages over the input elements only)"""
    given = options(settings, ("Stride", "Padding", "PaddingValue", "DataFormat", "PoolFormat"))
    core, layout, form, size, stride, pads = _pool_plan(x, poolsize, given, "avgpool")
    k = layout.k
    mean_padding = False
    if "PaddingValue" in given:
        word = text_option(given["PaddingValue"])
        value = None if word is not None else np.asarray(as_data(given["PaddingValue"]), dtype=float)
        if word == "mean":
            mean_padding = True
        elif value is None or value.size != 1 or value.reshape(-1)[0] != 0:
            raise error("deep:avgpool:InvalidPaddingValue", "PaddingValue must be 0 or 'mean'.")
    in_size = kernels.dims(ops.shape_of(core), k)
    padded_size = tuple(n + b + a for n, (b, a) in zip(in_size, pads, strict=True))
    out_size = tuple((n - p) // s + 1 for n, p, s in zip(padded_size, size, stride, strict=True))
    if mean_padding:
        ones = np.pad(np.ones(in_size), pads)
        counts = kernels.windows(ones[..., np.newaxis, np.newaxis], k, size, stride, (1,) * k)
        scale = 1.0 / counts.sum(axis=tuple(range(k + 2, 2 * k + 2)))[..., 0, 0]
    else:
        scale = np.full(out_size, 1.0 / math.prod(size))
    out = kernels.avg(kernels.pad(core, k, pads), (k, size, stride), scale)
    return read_as_constant(output_like(from_core(out, layout), form), poolsize, *settings)
