"""Convolution layers: convolution1dLayer, convolution2dLayer, transposedConv1dLayer and
transposedConv2dLayer, and the option checks the pooling and normalisation layers share.

A convolution layer holds its weights in MATLAB's layout (``h x w x NumChannels x
NumFilters`` for 2-D convolution, ``h x w x NumFilters x NumChannels`` for transposed
2-D convolution; the 1-D layers drop ``w``) and computes through ``dlconv`` and
``dltranspconv``, so a traced pass records it.  What a layer slides over follows its
input: the 'S' dimensions (a 1-D layer on 1-D images, a 2-D layer on 2-D images), the
time dimension of sequences ('CBT' for the 1-D layers), and 'S' and 'T' together for a
2-D layer on 1-D image sequences ('SCBT').
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import text_option, text_or_none
from mlang.builtins.networks.initializers import (
    BIAS_INITIALIZERS,
    WEIGHT_INITIALIZERS,
    checked_initializer,
    initial_values,
)
from mlang.builtins.networks.layer import (
    HYPER,
    INIT,
    LEARNABLE,
    RATES,
    ForwardContext,
    Layer,
    Prop,
    register_constructors,
)
from mlang.errors import error
from mlang.values.core import char_row, class_of, to_str

_NUMERIC = ("double", "single", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
            "uint64", "logical")


# ------------------------------------------------------------------ shared checks


def numbers_of(value: Any, what: str) -> np.ndarray:
    """The real finite numbers of a numeric option value (a flat float array)."""
    if type(value) is DlArray or class_of(value) not in _NUMERIC:
        raise error("MATLAB:invalidType", f"Expected {what} to be numeric.")
    a = np.asarray(value, dtype=np.complex128 if np.iscomplexobj(value) else np.float64).reshape(-1)
    if np.iscomplexobj(a):
        raise error("MATLAB:expectedReal", f"Expected {what} to be real.")
    if not np.all(np.isfinite(a)):
        raise error("MATLAB:expectedFinite", f"Expected {what} to be finite.")
    return a


def row(values: Any) -> np.ndarray:
    """A MATLAB row vector of doubles."""
    return np.asarray(values, dtype=np.float64).reshape(1, -1)


def positive_integers(value: Any, k: int, what: str) -> Any:
    """A size option: a positive integer scalar (the same for every dimension) or ``k`` of
    them; as MATLAB keeps it (a scalar for k = 1, else a 1-by-k row)."""
    a = numbers_of(value, what)
    if a.size not in (1, k):
        raise error("MATLAB:incorrectNumel", f"Expected {what} to be a scalar or a vector with "
                    f"{k} elements." if k > 1 else f"Expected {what} to be a scalar.")
    if np.any(a != np.floor(a)):
        raise error("MATLAB:expectedInteger", f"Expected {what} to be integer-valued.")
    if np.any(a < 1):
        raise error("MATLAB:expectedPositive", f"Expected {what} to be positive.")
    a = np.broadcast_to(a, (k,))
    return float(a[0]) if k == 1 else row(a)


def positive_integer(value: Any, what: str) -> float:
    """A positive integer scalar (NumFilters, NumChannels...)."""
    a = numbers_of(value, what)
    if a.size != 1:
        raise error("MATLAB:expectedScalar", f"Expected {what} to be a scalar.")
    return positive_integers(a, 1, what)


def size_or_auto(what: str) -> Any:
    """The check of a size that may be 'auto' (NumChannels)."""

    def check(value: Any) -> Any:
        if text_option(value) == "auto":
            return char_row("auto")
        return positive_integer(value, what)

    return check


def nonnegative_scalar(what: str) -> Any:
    """The check of a learning rate or L2 factor: a nonnegative real scalar."""

    def check(value: Any) -> float:
        a = numbers_of(value, what)
        if a.size != 1:
            raise error("MATLAB:expectedScalar", f"Expected {what} to be a scalar.")
        if a[0] < 0:
            raise error("MATLAB:expectedNonnegative", f"Expected {what} to be nonnegative.")
        return float(a[0])

    return check


def text_name(value: Any) -> np.ndarray:
    """The check of a layer Name: a character vector or string scalar."""
    text = text_or_none(value)
    if text is None:
        raise error("MATLAB:invalidType", "Expected Name to be a character vector or string scalar.")
    return char_row(text)


def text_choice(what: str, choices: tuple[str, ...]) -> Any:
    """The check of a text option with a fixed set of values (kept in MATLAB's spelling)."""

    def check(value: Any) -> np.ndarray:
        word = text_option(value)
        if word not in choices:
            listed = ", ".join(f"'{c}'" for c in choices)
            raise error("MATLAB:validators:mustBeMember", f"Value of '{what}' must be one of {listed}.")
        return char_row(word)

    return check


def learnable_value(what: str) -> Any:
    """The check of a learnable or state parameter given by the user: a numeric array
    (single or double as given, other classes made single); [] while unset."""

    def check(value: Any) -> Any:
        data = value.data if type(value) is DlArray else value
        if class_of(data) not in _NUMERIC:
            raise error("MATLAB:invalidType", f"Expected {what} to be numeric.")
        a = np.atleast_2d(np.asarray(data))
        if a.size == 0:
            return np.zeros((0, 0), dtype=np.float32)
        # single and double (real or complex) are kept as given; integers and logicals become single
        return a if a.dtype in (np.float32, np.float64, np.complex64, np.complex128) \
            else a.astype(np.float32)

    return check


def name_prop() -> Prop:
    return Prop("Name", lambda: char_row(""), "", text_name)


def empty() -> np.ndarray:
    return np.zeros((0, 0))


def is_auto(value: Any) -> bool:
    return text_option(value) == "auto" if class_of(value) in ("char", "string") else False


def number_text(value: Any) -> str:
    """A size as num2str shows it in a description: 3, or [1  1] for a vector."""
    a = np.asarray(value, dtype=np.float64).reshape(-1)
    parts = [f"{int(n)}" if float(n).is_integer() else f"{n:g}" for n in a]
    return parts[0] if len(parts) == 1 else "[" + "  ".join(parts) + "]"


def size_text(*sizes: Any) -> str:
    """Sizes joined as MATLAB writes them in descriptions: 3×3×16."""
    flat = [n for s in sizes for n in np.asarray(s, dtype=np.float64).reshape(-1)]
    return "\u00d7".join(str(int(n)) for n in flat)


def padding_option(value: Any, k: int, words: tuple[str, ...], what: str = "Padding"
                   ) -> tuple[str, np.ndarray]:
    """A Padding (or Cropping) option as (mode, size): 'same' (or a word of ``words``) with
    zero size, or 'manual' with [t b l r] in 2-D, [l r] in 1-D."""
    word = text_option(value) if class_of(value) in ("char", "string") else None
    if word is not None:
        if word not in words:
            listed = " or ".join(f"'{w}'" for w in words)
            raise error("MATLAB:validators:mustBeMember",
                        f"Value of '{what}' must be {listed}, or nonnegative integers.")
        return word, row(np.zeros(2 * k))
    a = numbers_of(value, what)
    if np.any(a != np.floor(a)) or np.any(a < 0):
        raise error("MATLAB:expectedNonnegative", f"Expected {what} to be nonnegative integers.")
    if a.size == 1:
        sizes = np.full(2 * k, a[0])
    elif a.size == 2 and k == 2:  # [vertical horizontal]
        sizes = np.array([a[0], a[0], a[1], a[1]])
    elif a.size == 2 * k:
        sizes = a
    else:
        raise error("MATLAB:incorrectNumel",
                    f"Expected {what} to be a scalar or a vector with {2 * k} elements." if k == 1
                    else f"Expected {what} to be a scalar, a vector with 2 elements or a vector "
                    "with 4 elements.")
    return "manual", row(sizes)


def split_option(args: list | tuple, name: str) -> tuple[list, Any]:
    """The name=value arguments without the option ``name`` (matched without regard to
    case, the last one counting), and its value (None when absent)."""
    rest: list = []
    found = None
    for k in range(0, len(args) - 1, 2):
        if text_option(args[k]) == name.lower() if class_of(args[k]) in ("char", "string") else False:
            found = args[k + 1]
        else:
            rest += [args[k], args[k + 1]]
    if len(args) % 2:
        rest.append(args[-1])
    return rest, found


def channels_of(x: DlArray, layer: str) -> int:
    """The size of the 'C' dimension of a layer's formatted input."""
    if type(x) is not DlArray or "C" not in x.fmt:
        raise error("nnet_cnn:internal:cnn:layer:InvalidInputFormat",
                    f"Layer '{layer}': input data must have a channel ('C') dimension.")
    return int(x.shape[x.fmt.index("C")])


def per_channel_shape(fmt: str, channels: int) -> tuple[int, ...]:
    """The shape of a per-channel parameter for inputs of format ``fmt``: C-by-1 for
    feature and sequence data, 1-by-C for 1-D images, 1-by-1-by-C for 2-D images..."""
    spatial = fmt.count("S")
    return (1,) * spatial + (channels,) if spatial else (channels, 1)


def check_count(layer: Layer, x: DlArray, what: str, given: Any) -> int:
    """The input's channel count, checked against a numeric NumChannels."""
    channels = channels_of(x, layer.name)
    if not is_auto(given) and int(given) != channels:
        raise error("nnet_cnn:internal:cnn:layer:InvalidNumChannels",
                    f"Layer '{layer.name}': the {what} of the layer ({int(given)}) must match the "
                    f"number of channels of the input data ({channels}).")
    return channels


# ------------------------------------------------------------------ the layers


def _rate_props(weight: str, bias: str, bias_l2: float) -> tuple[Prop, ...]:
    return (Prop(f"{weight}LearnRateFactor", 1.0, RATES, nonnegative_scalar(f"{weight}LearnRateFactor")),
            Prop(f"{bias}LearnRateFactor", 1.0, RATES, nonnegative_scalar(f"{bias}LearnRateFactor")),
            Prop(f"{weight}L2Factor", 1.0, RATES, nonnegative_scalar(f"{weight}L2Factor")),
            Prop(f"{bias}L2Factor", bias_l2, RATES, nonnegative_scalar(f"{bias}L2Factor")))


def _padding_value(value: Any) -> Any:
    word = text_option(value) if class_of(value) in ("char", "string") else None
    if word is not None:
        return text_choice("PaddingValue", ("symmetric-include-edge", "symmetric-exclude-edge",
                                            "replicate"))(value)
    a = numbers_of(value, "PaddingValue")
    if a.size != 1:
        raise error("MATLAB:expectedScalar", "Expected PaddingValue to be a scalar.")
    return float(a[0])


class _ConvolutionLayer(Layer):
    """What the four convolution layers share; ``K`` is 1 or 2, ``TRANSPOSED`` picks
    dltranspconv (weights with filters before channels, Cropping instead of Padding)."""

    K: ClassVar[int] = 2
    TRANSPOSED: ClassVar[bool] = False
    EDGE: ClassVar[str] = "Padding"  # or "Cropping"
    EDGE_WORDS: ClassVar[tuple[str, ...]] = ("same",)
    LEARNABLES = ("Weights", "Bias")

    @classmethod
    def make(cls, filter_size: Any, num_filters: Any, args: tuple) -> Layer:
        rest, edge = split_option(args, cls.EDGE)
        given = {"FilterSize": positive_integers(filter_size, cls.K, "filterSize"),
                 "NumFilters": positive_integer(num_filters, "numFilters")}
        layer = cls.from_options(rest, given)
        if edge is not None:
            mode, size = padding_option(edge, cls.K, cls.EDGE_WORDS, cls.EDGE)
            layer = layer.copy(**{f"{cls.EDGE}Mode": char_row(mode), f"{cls.EDGE}Size": size})
        return layer

    # the layer's numbers

    def _filter(self) -> tuple[int, ...]:
        return tuple(int(n) for n in np.asarray(self.values["FilterSize"]).reshape(-1))

    def _weights_shape(self, channels: int) -> tuple[int, ...]:
        filters = int(self.values["NumFilters"])
        tail = (filters, channels) if self.TRANSPOSED else (channels, filters)
        return self._filter() + tail

    def _bias_shape(self) -> tuple[int, ...]:
        return (1,) * self.K + (int(self.values["NumFilters"]),)

    def description(self) -> str:
        channels = self.values["NumChannels"]
        size = size_text(self.values["FilterSize"], *(() if is_auto(channels) else (channels,)))
        kind = "transposed convolutions" if self.TRANSPOSED else "convolutions"
        mode = to_str(self.values[f"{self.EDGE}Mode"])
        edge = f"'{mode}'" if mode != "manual" else number_text(self.values[f"{self.EDGE}Size"])
        return (f"{int(self.values['NumFilters'])} {size} {kind} with stride "
                f"{number_text(self.values['Stride'])} and {self.EDGE.lower()} {edge}")

    def _slides(self, x: DlArray) -> str:
        """Checks the input's format; the labels of the weights when the layer slides over
        'S' and 'T' together (else '')."""
        spatial = x.fmt.count("S")
        if self.K == 2 and spatial == 1 and "T" in x.fmt:
            return "STCU"
        if spatial == self.K or (self.K == 1 and spatial == 0 and "T" in x.fmt):
            return ""
        raise error("nnet_cnn:internal:cnn:layer:InvalidInputFormat",
                    f"Layer '{self.name}': invalid input data format '{x.fmt}' for a "
                    f"{self.K}-D {'transposed ' if self.TRANSPOSED else ''}convolution layer.")

    def initialize(self, inputs: list, ctx: ForwardContext) -> Layer:
        x = inputs[0]
        self._slides(x)
        channels = check_count(self, x, "number of channels", self.values["NumChannels"])
        filters = int(self.values["NumFilters"])
        area = math.prod(self._filter())
        fan_in, fan_out = area * channels, area * filters
        if self.TRANSPOSED:
            fan_in, fan_out = fan_out, fan_in
        changes: dict[str, Any] = {"NumChannels": float(channels)}
        wshape = self._weights_shape(channels)
        weights = self.values["Weights"]
        if np.size(weights) == 0:
            changes["Weights"] = initial_values(ctx.interp, self.values["WeightsInitializer"], wshape,
                                                fan_in, fan_out)
        elif _padded_shape(weights, len(wshape)) != wshape:
            raise error("nnet_cnn:internal:cnn:layer:InvalidWeightsSize",
                        f"Layer '{self.name}': the size of the weights must be "
                        f"{size_text(wshape)}.")
        bias = self.values["Bias"]
        if np.size(bias) == 0:
            changes["Bias"] = initial_values(ctx.interp, self.values["BiasInitializer"],
                                             self._bias_shape(), fan_in, fan_out)
        elif np.size(bias) != filters:
            raise error("nnet_cnn:internal:cnn:layer:InvalidBiasSize",
                        f"Layer '{self.name}': the bias must have {filters} elements.")
        elif type(bias) is not DlArray:
            changes["Bias"] = np.asarray(bias).reshape(self._bias_shape(), order="F")
        return self.copy(**changes)

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        x = inputs[0]
        labels = self._slides(x)
        options: list = [char_row("Stride"), self.values["Stride"]]
        if labels:
            options += [char_row("WeightsFormat"), char_row(labels)]
        mode = to_str(self.values[f"{self.EDGE}Mode"])
        edge = char_row(mode) if mode != "manual" else self.values[f"{self.EDGE}Size"]
        options += [char_row(self.EDGE), edge]
        if self.TRANSPOSED:
            return [ctx.call("dltranspconv", x, self.values["Weights"], self.values["Bias"], *options)]
        options += [char_row("DilationFactor"), self.values["DilationFactor"]]
        padding_value = self.values["PaddingValue"]
        if not (isinstance(padding_value, float) and padding_value == 0.0):
            options += [char_row("PaddingValue"), padding_value]
        return [ctx.call("dlconv", x, self.values["Weights"], self.values["Bias"], *options)]


def _padded_shape(value: Any, n: int) -> tuple[int, ...]:
    shape = tuple(np.shape(value.data if type(value) is DlArray else value))
    return shape + (1,) * (n - len(shape)) if len(shape) < n else shape


def _conv_props(k: int, transposed: bool) -> tuple[Prop, ...]:
    size = 1.0 if k == 1 else (lambda: row([1.0, 1.0]))
    if transposed:
        edge = (Prop("CroppingMode", lambda: char_row("manual"), HYPER, settable=False, option=False),
                Prop("CroppingSize", lambda: row(np.zeros(2 * k)), HYPER, settable=False, option=False))
        dilation: tuple[Prop, ...] = ()
    else:
        edge = (Prop("PaddingMode", lambda: char_row("manual"), HYPER, settable=False, option=False),
                Prop("PaddingSize", lambda: row(np.zeros(2 * k)), HYPER, settable=False, option=False),
                Prop("PaddingValue", 0.0, HYPER, _padding_value))
        dilation = (Prop("DilationFactor", size, HYPER,
                         lambda v: positive_integers(v, k, "DilationFactor")),)
    return (name_prop(),
            Prop("FilterSize", size, HYPER, settable=False, option=False),
            Prop("NumChannels", lambda: char_row("auto"), HYPER, size_or_auto("NumChannels")),
            Prop("NumFilters", 1.0, HYPER, settable=False, option=False),
            Prop("Stride", size, HYPER, lambda v: positive_integers(v, k, "Stride")),
            *dilation, *edge,
            Prop("Weights", empty, LEARNABLE, learnable_value("Weights")),
            Prop("Bias", empty, LEARNABLE, learnable_value("Bias")),
            Prop("WeightsInitializer", lambda: char_row("glorot"), INIT,
                 lambda v: checked_initializer(v, WEIGHT_INITIALIZERS, "WeightsInitializer")),
            Prop("BiasInitializer", lambda: char_row("zeros"), INIT,
                 lambda v: checked_initializer(v, BIAS_INITIALIZERS, "BiasInitializer")),
            *_rate_props("Weight", "Bias", 0.0))


class Convolution2DLayer(_ConvolutionLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.Convolution2DLayer"
    LAYER_TYPE = "2-D Convolution"
    DEFAULT_NAME = "conv"
    PROPERTIES = _conv_props(2, False)


class Convolution1DLayer(_ConvolutionLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.Convolution1DLayer"
    LAYER_TYPE = "1-D Convolution"
    DEFAULT_NAME = "conv1d"
    K = 1
    EDGE_WORDS = ("same", "causal")
    PROPERTIES = _conv_props(1, False)


class TransposedConvolution2DLayer(_ConvolutionLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.TransposedConvolution2DLayer"
    LAYER_TYPE = "2-D Transposed Convolution"
    DEFAULT_NAME = "transposed-conv"
    TRANSPOSED = True
    EDGE = "Cropping"
    PROPERTIES = _conv_props(2, True)


class TransposedConvolution1DLayer(_ConvolutionLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.TransposedConvolution1DLayer"
    LAYER_TYPE = "1-D Transposed Convolution"
    DEFAULT_NAME = "transposed-conv1d"
    K = 1
    TRANSPOSED = True
    EDGE = "Cropping"
    PROPERTIES = _conv_props(1, True)


# ------------------------------------------------------------------ constructors


# each takes the filter size and the number of filters first, then name=value options
register_constructors({
    "convolution2dLayer": (
        Convolution2DLayer,
        """layer = convolution2dLayer(filterSize, numFilters)  2-D convolutional layer

    layer = convolution2dLayer(filterSize, numFilters, Name=Value)
    filterSize: h or [h w]; weights h-by-w-by-NumChannels-by-numFilters
    Options: Stride ([1 1]), DilationFactor ([1 1]), Padding (0, 'same', [a b] or
    [t b l r]), PaddingValue (0, 'symmetric-include-edge', 'symmetric-exclude-edge',
    'replicate'), NumChannels ('auto'), WeightsInitializer ('glorot'), BiasInitializer
    ('zeros'), Weights, Bias, WeightLearnRateFactor, BiasLearnRateFactor, WeightL2Factor,
    BiasL2Factor, Name"""),
    "convolution1dLayer": (
        Convolution1DLayer,
        """layer = convolution1dLayer(filterSize, numFilters)  1-D convolutional layer

    layer = convolution1dLayer(filterSize, numFilters, Name=Value)
    Convolves 1-D images ('SCB') over 'S' and sequences ('CBT') over time; weights
    filterSize-by-NumChannels-by-numFilters
    Options: Stride (1), DilationFactor (1), Padding (0, 'same', 'causal' or [l r]),
    PaddingValue, NumChannels, WeightsInitializer, BiasInitializer, Weights, Bias, the
    learning rate and L2 factors, Name"""),
    "transposedConv2dLayer": (
        TransposedConvolution2DLayer,
        """layer = transposedConv2dLayer(filterSize, numFilters)  transposed 2-D convolution layer

    layer = transposedConv2dLayer(filterSize, numFilters, Name=Value)
    weights h-by-w-by-numFilters-by-NumChannels
    Options: Stride ([1 1]), Cropping (0, 'same', [a b] or [t b l r]), NumChannels,
    WeightsInitializer, BiasInitializer, Weights, Bias, the learning rate and L2 factors,
    Name"""),
    "transposedConv1dLayer": (
        TransposedConvolution1DLayer,
        """layer = transposedConv1dLayer(filterSize, numFilters)  transposed 1-D convolution layer

    layer = transposedConv1dLayer(filterSize, numFilters, Name=Value)
    weights filterSize-by-numFilters-by-NumChannels
    Options: Stride (1), Cropping (0, 'same' or [l r]), NumChannels, WeightsInitializer,
    BiasInitializer, Weights, Bias, the learning rate and L2 factors, Name"""),
}, leading=("filterSize", "numFilters"))
