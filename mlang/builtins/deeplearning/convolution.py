"""Deep learning convolution: dlconv and dltranspconv, and the layout and option
helpers the pooling functions share.

An input is read through formats.py (a formatted dlarray, or DataFormat), brought to
the kernels' core layout (convolved dimensions, channels, everything else flattened:
see convolution_kernels.py) by a recorded permute and reshape, convolved, and given
back in the input's form.  The convolved dimensions are the 'S' dimensions (up to
three); data with no 'S' dimension is convolved over its 'T' dimension.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray, as_data, check_format, formatted
from mlang.autodiff.trace import read_as_constant
from mlang.builtins.coerce import options, text_option, text_scalar
from mlang.builtins.deeplearning import convolution_kernels as kernels
from mlang.builtins.deeplearning.formats import data_format_option, formatted_input, output_like
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of, fix_shape

Ints = tuple[int, ...]

# ------------------------------------------------------------------ layout


@dataclass(frozen=True, slots=True)
class Layout:
    """How a canonical formatted input maps to the core layout (S..., C, N) and back."""

    fmt: str
    full_shape: Ints  # the input's size, one entry per label
    axes: tuple[int, ...]  # the dimensions slid over, in order
    channel: bool  # whether the input has a 'C' dimension (else the core has one of size 1)
    perm: tuple[int, ...] | None  # dimensions moved to (slid..., C, rest...); None: none

    @property
    def k(self) -> int:
        return len(self.axes)

    def rest(self) -> Ints:
        order = self.perm if self.perm is not None else tuple(range(len(self.full_shape)))
        return tuple(self.full_shape[p] for p in order[self.k + (1 if self.channel else 0):])


def slid_axes(fmt: str, with_time: bool, function: str) -> tuple[int, ...]:
    """The dimensions an operation slides over: the 'S' ones (up to three), and 'T' when
    ``with_time`` (the filter or pool format has a 'T') or when there is no 'S'."""
    spatial = tuple(i for i, label in enumerate(fmt) if label == "S")
    if len(spatial) > 3:
        raise error(f"deep:{function}:TooManySpatialDimensions",
                    "Input data must have at most three spatial ('S') dimensions.")
    if (with_time or not spatial) and "T" in fmt:
        spatial += (fmt.index("T"),)
    if not spatial:
        raise error(f"deep:{function}:NoSpatialDimension",
                    "Input data must have at least one spatial ('S') or time ('T') dimension.")
    return spatial


def to_core(y: DlArray, axes: tuple[int, ...]) -> tuple[Any, Layout]:
    """The canonical formatted dlarray ``y`` as an unformatted dlarray in core layout,
    sliding over ``axes``."""
    fmt = y.fmt
    full = tuple(y.shape)
    channel = "C" in fmt
    lead = list(axes) + ([fmt.index("C")] if channel else [])
    perm = lead + [i for i in range(len(fmt)) if i not in lead]
    order = None if perm == sorted(perm) else tuple(perm)
    layout = Layout(fmt, full, tuple(axes), channel, order)
    z: Any = DlArray(y.data, "", y.node)
    if order is not None:
        z = ops.call("permute", z, np.array([[p + 1.0 for p in order]]))
    sizes = [full[p] for p in perm]
    k = len(axes)
    head = tuple(sizes[:k]) + ((sizes[k],) if channel else (1,))
    core = fix_shape(head + (math.prod(sizes[len(lead):]),))
    if core != ops.shape_of(z):
        z = ops.reshape_to(z, core)
    return z, layout


def from_core(out: Any, layout: Layout) -> DlArray:
    """A core-layout result (O..., C', N) back in the input's label order, formatted."""
    if type(out) is not DlArray:
        out = DlArray(out)
    k = layout.k
    head = kernels.dims(out.data.shape, k + 1)
    shape = (head if layout.channel else head[:k]) + layout.rest()
    z: Any = out
    if fix_shape(shape) != out.data.shape:
        z = ops.reshape_to(z, fix_shape(shape))
    if layout.perm is not None:
        inverse = np.argsort(layout.perm)
        z = ops.call("permute", z, np.array([[p + 1.0 for p in inverse]]))
    return DlArray(z.data, layout.fmt, z.node)


def core_numbers(layout: Layout, given_shape: Ints, given_order: str) -> np.ndarray:
    """Where each element of the core layout sits in the input as the caller gave it: its
    column-major position there (``given_order``: the DataFormat of an unformatted input)."""
    numbers = np.arange(math.prod(given_shape), dtype=np.float64).reshape(given_shape, order="F")
    if given_order:
        numbers, _ = formatted(numbers, given_order)
    numbers = numbers.reshape(layout.full_shape, order="F")
    if layout.perm is not None:
        numbers = numbers.transpose(layout.perm)
    return numbers.reshape(-1, order="F")


# ------------------------------------------------------------------ options


def _number_array(v: Any, name: str, function: str) -> np.ndarray:
    data = v.data if type(v) is DlArray else v
    if class_of(data) not in ("double", "single", "int8", "int16", "int32", "int64", "uint8",
                              "uint16", "uint32", "uint64", "logical"):
        raise error(f"deep:{function}:Invalid{name}", f"{name} must be numeric.")
    a = np.asarray(as_data(data) if class_of(data) in ("double", "single", "logical") else data,
                   dtype=np.float64)
    return np.atleast_2d(a)


def positive_sizes(v: Any, k: int, name: str, function: str) -> Ints:
    """A Stride, DilationFactor or pool size: a positive integer scalar (every dimension)
    or one per dimension."""
    a = _number_array(v, name, function).reshape(-1)
    if a.size not in (1, k) or not np.all(np.isfinite(a)) or np.any(a < 1) \
            or np.any(a != np.floor(a)):
        raise error(f"deep:{function}:Invalid{name}",
                    f"{name} must be a positive integer scalar or a vector of {k} positive integers.")
    return tuple(int(n) for n in np.broadcast_to(a, (k,)))


def padding_amounts(v: Any, k: int, name: str, function: str) -> tuple | str:
    """A Padding or Cropping value: 'same' (returned as the word), a scalar, one number per
    dimension, a 2-by-k matrix [before; after] or a vector of pairs [before after ...];
    as ((before, after), ...)."""
    word = text_option(v)
    if word is not None:
        return word
    a = _number_array(v, name, function)
    if not np.all(np.isfinite(a)) or np.any(a < 0) or np.any(a != np.floor(a)):
        raise error(f"deep:{function}:Invalid{name}",
                    f"{name} must be 'same' or nonnegative integers.")
    if a.size == 1:
        before = after = np.full(k, a.reshape(-1)[0])
    elif a.size == k and 1 in a.shape:
        before = after = a.reshape(-1)
    elif a.shape == (2, k):
        before, after = a[0], a[1]
    elif a.size == 2 * k and 1 in a.shape:
        # [before after] for each dimension in turn: [t b l r], or [l r] in 1-D
        before, after = a.reshape(-1)[0::2], a.reshape(-1)[1::2]
    else:
        raise error(f"deep:{function}:Invalid{name}",
                    f"{name} must be a scalar, a vector with {k} elements, or a 2-by-{k} matrix.")
    return tuple((int(b), int(e)) for b, e in zip(before, after, strict=True))


def same_padding(size: Ints, spans: Ints, stride: Ints) -> tuple:
    """Padding giving ceil(size/stride) outputs, the odd element at the end."""
    pads = []
    for n, span, s in zip(size, spans, stride, strict=True):
        total = max((math.ceil(n / s) - 1) * s + span - n, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def filter_weights(weights: Any, given: dict, function: str) -> tuple[Any, bool]:
    """The weights as an unformatted value with the filter dimensions first (the 'S' ones,
    then 'T'), then channels, filters and groups; and whether they slide over 'T'.  Their
    labels come from a formatted dlarray or the WeightsFormat option."""
    labels = ""
    if "WeightsFormat" in given:
        if type(weights) is DlArray and weights.fmt:
            raise error(f"deep:{function}:WeightsFormatFormattedWeights",
                        "Weights must be an unformatted dlarray or numeric array when specifying "
                        "the 'WeightsFormat' option.")
        labels = check_format(text_scalar(given["WeightsFormat"], "WeightsFormat"))
    elif type(weights) is DlArray and weights.fmt:
        labels = weights.fmt
    w = _weights_value(weights)
    if not labels:
        return w, False
    shape = ops.shape_of(w)
    if len(labels) < len(shape):
        raise error("deep:dlarray:InvalidFormat",
                    f"Number of dimension labels ({len(labels)}) must be greater than or equal "
                    f"to the number of dimensions of the input data ({len(shape)}).")
    rank = {"S": 0, "T": 1, "C": 2, "B": 3, "U": 3}
    perm = sorted(range(len(labels)), key=lambda i: (rank[labels[i]], i))
    if perm != sorted(perm):
        w = ops.call("permute", w, np.array([[p + 1.0 for p in perm]]))
    return w, "T" in labels


def require_real(function: str, *values: Any) -> None:
    """MATLAB's error for complex data, which these operations do not take."""
    for v in values:
        data = v.data if type(v) is DlArray else v
        if getattr(data, "dtype", None) is not None and data.dtype.kind == "c" or type(data) is complex:
            raise error(f"deep:{function}:ComplexInput", "Input data must be real.")


def _weights_value(w: Any) -> Any:
    """Weights or bias as a value the kernels take: an unformatted dlarray or an array."""
    if type(w) is DlArray:
        return DlArray(w.data, "", w.node) if w.fmt else w
    data = as_data(w)
    return data.astype(np.float64) if data.dtype.kind == "b" else data


def add_bias(out: Any, bias: Any, k: int, filters: int, function: str) -> Any:
    """``out`` (O..., F, N) plus a scalar bias or one bias per filter."""
    b = _weights_value(bias)
    data = b.data if type(b) is DlArray else b
    if type(b) is not DlArray and data.size == 1 and data.reshape(-1)[0] == 0:
        return out
    if data.size == 1:
        return ops.plus(out, b if type(b) is DlArray else float(data.reshape(-1)[0]) if
                        data.dtype == np.float64 else data)
    if data.size != filters:
        raise error(f"deep:{function}:InvalidBias",
                    f"Bias must be a scalar or a vector with {filters} elements, one for each filter.")
    return ops.plus(out, ops.reshape_to(b, fix_shape((1,) * k + (filters,))))


# ------------------------------------------------------------------ dlconv

_DLCONV_OPTIONS = ("Stride", "DilationFactor", "Padding", "PaddingValue", "DataFormat",
                   "WeightsFormat")


def _pad_input(core: Any, k: int, pads: tuple, padding_value: Any, function: str) -> Any:
    mode = text_option(padding_value) if padding_value is not None else None
    if mode is not None:
        if mode not in kernels.MIRROR_MODES:
            raise error(f"deep:{function}:InvalidPaddingValue",
                        "PaddingValue must be a scalar, 'symmetric-include-edge', "
                        "'symmetric-exclude-edge' or 'replicate'.")
        return kernels.pad_mirrored(core, k, pads, mode)
    value = 0.0
    if padding_value is not None:
        a = _number_array(padding_value, "PaddingValue", function)
        if a.size != 1:
            raise error(f"deep:{function}:InvalidPaddingValue", "PaddingValue must be a scalar.")
        value = float(a.reshape(-1)[0])
    return kernels.pad(core, k, pads, value)


@dataclass(frozen=True, slots=True)
class _Convolution:
    """A convolution's prepared input, weights and sizes (see ``_prepare``)."""

    core: Any
    layout: Layout
    form: Any
    weights: Any
    k: int  # the number of convolved dimensions
    filters: int  # filters in all (filters per group times groups)
    groups: int
    stride: tuple
    dilation: tuple
    spans: tuple  # the dilated filter's extent along each convolved dimension
    in_size: tuple


def _prepare(name: str, x: object, weights: object, bias: object, given: dict,
             transposed: bool) -> _Convolution:
    """What dlconv and dltranspconv share: the input in the kernels' layout, the weights and
    their sizes checked against the input's channels (a transposed convolution's weights hold
    the filters before the channels), the stride, the dilation, the dilated filter spans and
    the input's size along the convolved dimensions."""
    require_real(name, x, weights, bias)
    y, form = formatted_input(x, data_format_option(given), name, required="C")
    w, with_time = filter_weights(weights, given, name)
    core, layout = to_core(y, slid_axes(y.fmt, with_time, name))
    k = layout.k
    wshape = ops.shape_of(w)
    if len(fix_shape(wshape)) > k + 3:
        raise error(f"deep:{name}:InvalidWeightsSize",
                    f"Weights must have at most {k + 3} dimensions for {k}-D convolution.")
    wfull = kernels.dims(wshape, k + 3)
    size, groups = wfull[:k], wfull[k + 2]
    per_group, filters_per_group = (wfull[k + 1], wfull[k]) if transposed else (wfull[k], wfull[k + 1])
    channels = kernels.dims(ops.shape_of(core), k + 1)[k]
    if per_group * groups != channels:
        raise error(f"deep:{name}:InvalidWeightsSize",
                    f"The number of channels of the weights ({per_group * groups}) must match the "
                    f"number of channels of the input data ({channels}).")
    stride = positive_sizes(given.get("Stride", 1.0), k, "Stride", name)
    dilation = positive_sizes(given.get("DilationFactor", 1.0), k, "DilationFactor", name)
    spans = tuple((n - 1) * d + 1 for n, d in zip(size, dilation, strict=True))
    in_size = kernels.dims(ops.shape_of(core), k)
    return _Convolution(core, layout, form, w, k, filters_per_group * groups, groups, stride,
                        dilation, spans, in_size)


@builtin(dl="traced")
def dlconv(x: object, weights: object, bias: object, *settings: object) -> object:
    """Y = dlconv(X, weights, bias)  deep learning convolution

    Y = dlconv(X, weights, bias)  convolution of the formatted dlarray X over its spatial
    ('S') dimensions (up to three; also 'T' when the weights have a 'T' dimension, or when
    X has no 'S' dimension)
    weights: filterSize-by-numChannels-by-numFilters, or for grouped convolution
    filterSize-by-numChannelsPerGroup-by-numFiltersPerGroup-by-numGroups
    bias: a scalar or one value per filter
    Y = dlconv(..., 'Stride', S, 'DilationFactor', D, 'Padding', P, 'PaddingValue', V)
    P: 0 (default), 'same', a scalar, one value per dimension or [before; after]
    V: 0 (default), a scalar, 'symmetric-include-edge', 'symmetric-exclude-edge', 'replicate'
    Y = dlconv(..., 'DataFormat', FMT)  for unformatted X
    Y = dlconv(..., 'WeightsFormat', WF)  the labels of unformatted weights ('T' to slide over
    time)"""
    given = options(settings, _DLCONV_OPTIONS)
    c = _prepare("dlconv", x, weights, bias, given, transposed=False)
    core, k, stride, dilation, spans, in_size = c.core, c.k, c.stride, c.dilation, c.spans, c.in_size
    pads = padding_amounts(given.get("Padding", 0.0), k, "Padding", "dlconv")
    if pads == "same":
        pads = same_padding(in_size, spans, stride)
    elif pads == "causal":
        if k != 1:
            raise error("deep:dlconv:InvalidPadding",
                        "Causal padding is supported only for one-dimensional convolution.")
        pads = ((spans[0] - 1, 0),)
    elif isinstance(pads, str):
        raise error("deep:dlconv:InvalidPadding", "Padding must be 'same', 'causal' or nonnegative integers.")
    for n, span, (b, a) in zip(in_size, spans, pads, strict=True):
        if n + b + a < span:
            raise error("deep:dlconv:FilterTooLarge",
                        "The padded input data must be at least as large as the (dilated) filter "
                        "in each convolved dimension.")
    padded = _pad_input(core, k, pads, given.get("PaddingValue"), "dlconv")
    out = kernels.conv(padded, c.weights, (k, stride, dilation, c.groups))
    out = add_bias(out, bias, k, c.filters, "dlconv")
    return read_as_constant(output_like(from_core(out, c.layout), c.form), *settings)


# ------------------------------------------------------------------ dltranspconv


@builtin(dl="traced")
def dltranspconv(x: object, weights: object, bias: object, *settings: object) -> object:
    """Y = dltranspconv(X, weights, bias)  deep learning transposed convolution

    Y = dltranspconv(X, weights, bias)  transposed convolution of the formatted dlarray X over
    its spatial ('S') dimensions
    weights: filterSize-by-numFilters-by-numChannels, or for grouped transposed convolution
    filterSize-by-numFiltersPerGroup-by-numChannelsPerGroup-by-numGroups
    Y = dltranspconv(..., 'Stride', S, 'DilationFactor', D, 'Cropping', C)
    C: 0 (default), 'same' (output size input size times stride), a scalar, one value per
    dimension or [before; after]
    Y = dltranspconv(..., 'DataFormat', FMT)  for unformatted X"""
    given = options(settings, ("Stride", "DilationFactor", "Cropping", "DataFormat", "WeightsFormat"))
    c = _prepare("dltranspconv", x, weights, bias, given, transposed=True)
    core, k, stride, dilation, spans, in_size = c.core, c.k, c.stride, c.dilation, c.spans, c.in_size
    full = tuple((n - 1) * s + span for n, s, span in zip(in_size, stride, spans, strict=True))
    crops = padding_amounts(given.get("Cropping", 0.0), k, "Cropping", "dltranspconv")
    if crops == "same":
        totals = [max(f - n * s, 0) for f, n, s in zip(full, in_size, stride, strict=True)]
        crops = tuple((t // 2, t - t // 2) for t in totals)
    elif isinstance(crops, str):
        raise error("deep:dltranspconv:InvalidCropping", "Cropping must be 'same' or nonnegative integers.")
    for f, (b, a) in zip(full, crops, strict=True):
        if b + a >= f:
            raise error("deep:dltranspconv:InvalidCropping",
                        "Cropping must be smaller than the size of the transposed convolution output.")
    out = kernels.convt(core, c.weights, (k, stride, dilation, c.groups), full)
    out = kernels.crop(out, k, crops)
    out = add_bias(out, bias, k, c.filters, "dltranspconv")
    return read_as_constant(output_like(from_core(out, c.layout), c.form), *settings)
