"""Input layers: where a network's data enters, normalised.

``featureInputLayer`` (data 'CB'), ``imageInputLayer`` ('SSCB'), ``sequenceInputLayer``
('CBT', or 'SSCBT' for sequences of images) and ``inputLayer`` (any sizes and format).
Each gives the network an example input of batch size 1 (``input_example``) from which
the layers after it are initialised, and applies its normalisation in ``predict``:
'zerocenter' (x - Mean), 'zscore' ((x - Mean) ./ StandardDeviation), 'rescale-symmetric'
(to [-1, 1] from [Min, Max]), 'rescale-zero-one' (to [0, 1]) or a function handle.
Initialising a network sets statistics that are still empty to values that leave the
data as it is (Mean 0, StandardDeviation 1, Min and Max the ends of the target range),
as dlnetwork does.  With SplitComplexInputs, complex data enters as twice as many
channels (the real parts, then the imaginary parts), normalised after the split.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import text_option
from mlang.builtins.networks.layer import (
    ForwardContext,
    Layer,
    Prop,
    checked_name,
    checked_text,
    function_handle_or,
    logical_scalar,
    numeric_array,
    positive_integer,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, class_of, is_array, to_array, to_str
from mlang.values.handle import FunctionHandle
from mlang.values.limits import check_array_size

NORMALIZATIONS = ("zerocenter", "zscore", "rescale-symmetric", "rescale-zero-one", "none")
DIMENSIONS = ("auto", "channel", "element", "all")
# Normalization 'none' as a layer holds it, and its code units
_NONE = char_row("none")
_NONE_BYTES = _NONE.tobytes()
# The statistics each normalisation uses, in the order the display lists them.
STATISTICS = {"zerocenter": ("Mean",), "zscore": ("Mean", "StandardDeviation"),
              "rescale-symmetric": ("Max", "Min"), "rescale-zero-one": ("Max", "Min")}
TIMES = "\u00d7"


def _empty() -> np.ndarray:
    return np.zeros((0, 0))


def _normalization_prop(default: str) -> Prop:
    return Prop("Normalization", lambda: char_row(default), "Hyperparameters",
                function_handle_or(checked_text("Normalization", NORMALIZATIONS)))


def _statistics_props() -> tuple[Prop, ...]:
    return (
        Prop("NormalizationDimension", lambda: char_row("auto"), "Hyperparameters",
             checked_text("NormalizationDimension", DIMENSIONS)),
        Prop("Mean", _empty, "Hyperparameters", numeric_array("Mean")),
        Prop("StandardDeviation", _empty, "Hyperparameters", numeric_array("StandardDeviation")),
        Prop("Max", _empty, "Hyperparameters", numeric_array("Max")),
        Prop("Min", _empty, "Hyperparameters", numeric_array("Min")),
    )


NAME = Prop("Name", lambda: char_row(""), "", checked_name)
SPLIT = Prop("SplitComplexInputs", False, "", logical_scalar("SplitComplexInputs"), settable=False)


def _size_row(value: Any, what: str, allow_nan: bool = False) -> list[float]:
    """A size vector of positive integers (NaN allowed for an unknown size)."""
    if not is_array(value) or class_of(value) in ("char", "logical") or to_array(value).size == 0 \
            or np.iscomplexobj(to_array(value)):
        raise error("MATLAB:validators:mustBePositiveInteger",
                    f"Value of '{what}' must be a vector of positive integers.")
    data = to_array(value).astype(np.float64).reshape(-1)
    known = data[~np.isnan(data)] if allow_nan else data
    if (not allow_nan and np.isnan(data).any()) or not np.isfinite(known).all() \
            or (known < 1).any() or (known != np.round(known)).any():
        raise error("MATLAB:validators:mustBePositiveInteger",
                    f"Value of '{what}' must be a vector of positive integers.")
    return [float(v) for v in data]


def _size_value(sizes: list[float]) -> Any:
    return sizes[0] if len(sizes) == 1 else np.array([sizes])


def _example(sizes: list[float], fmt: str) -> DlArray:
    """Zeros of these sizes (unknown ones 1) in single precision, as a formatted dlarray."""
    shape = [1 if math.isnan(n) else int(n) for n in sizes]
    while len(shape) > 2 and shape[-1] == 1:
        shape.pop()
    while len(shape) < 2:
        shape.append(1)
    check_array_size(tuple(shape), np.float32)  # (an impossible input size is MATLAB's error)
    return DlArray(np.zeros(tuple(shape), dtype=np.float32), fmt)


def _dims_text(sizes: list[float]) -> str:
    return TIMES.join(str(int(n)) for n in sizes)


class _NormalizingInputLayer(Layer):
    """An input layer that normalises its data."""

    IS_INPUT = True
    DEFAULT_NAME = "input"
    FORMAT: ClassVar[str] = ""

    def normalization(self) -> str | None:
        """The name of the normalisation (None for a function handle)."""
        how = self.values["Normalization"]
        return None if type(how) is FunctionHandle else to_str(how)

    def normalization_text(self) -> str:
        """`` with 'zscore' normalization`` for the description; empty for none."""
        how = self.normalization()
        return "" if how == "none" else f" with '{how if how is not None else 'custom'}' normalization"

    def displayed_properties(self) -> list[tuple[str, str]]:
        statistics = {"Mean", "StandardDeviation", "Max", "Min"}
        used = set(STATISTICS.get(self.normalization() or "", ()))
        shown = [(p.group, p.name) for p in self.PROPERTIES
                 if p.shown and (p.name not in statistics or p.name in used)]
        # the statistics in use follow in MATLAB's order (Max before Min)
        order = STATISTICS.get(self.normalization() or "", ())
        rest = [entry for entry in shown if entry[1] not in used]
        return rest + [("Hyperparameters", name) for name in order]

    def sizes(self) -> list[float]:
        value = self.values["InputSize"]
        return [float(v) for v in np.asarray(value, dtype=np.float64).reshape(-1)]

    def input_example(self) -> DlArray:
        sizes = self.sizes()
        if self.FORMAT.endswith("T"):
            return _example([*sizes, 1.0, 1.0], self.FORMAT)
        return _example([*sizes, 1.0], self.FORMAT)

    def initialize(self, inputs: list, ctx: ForwardContext) -> Layer:
        how = self.normalization()
        neutral = {"Mean": 0.0, "StandardDeviation": 1.0,
                   "Min": -1.0 if how == "rescale-symmetric" else 0.0, "Max": 1.0}
        changes = {name: neutral[name] for name in STATISTICS.get(how or "", ())
                   if type(self.values[name]) is not float and np.size(self.values[name]) == 0}
        return self.copy(**changes) if changes else self

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        x = inputs[0]
        how = self.values["Normalization"]
        # the usual layer (no normalisation), known without making text of it each pass
        if type(how) is np.ndarray and how.shape == (1, 4) and how.dtype == _NONE.dtype \
                and how.tobytes() == _NONE_BYTES and not self.values["SplitComplexInputs"]:
            return [x]
        if self.values["SplitComplexInputs"]:
            # real parts, then imaginary parts, as twice as many channels (normalised after)
            axis = float(x.fmt.index("C") + 1) if type(x) is DlArray and "C" in x.fmt else 1.0
            x = ctx.call("cat", axis, ctx.call("real", x), ctx.call("imag", x))
        how = self.normalization()
        if how is None:
            return [ctx.interp.call_handle(self.values["Normalization"], [x], 1)[0]]
        if how == "none":
            return [x]
        ready = self.initialize(inputs, ctx)
        stat = ready.values
        if how == "zerocenter":
            return [ctx.call("minus", x, stat["Mean"])]
        if how == "zscore":
            return [ctx.call("rdivide", ctx.call("minus", x, stat["Mean"]), stat["StandardDeviation"])]
        span = ctx.call("minus", stat["Max"], stat["Min"])
        scaled = ctx.call("rdivide", ctx.call("minus", x, stat["Min"]), span)
        if how == "rescale-zero-one":
            return [scaled]
        return [ctx.call("minus", ctx.call("times", 2.0, scaled), 1.0)]


class FeatureInputLayer(_NormalizingInputLayer):
    matlab_class = "nnet.cnn.layer.FeatureInputLayer"
    LAYER_TYPE = "Feature Input"
    DEFAULT_NAME = "input"
    FORMAT = "CB"
    PROPERTIES = (
        NAME,
        Prop("InputSize", 1.0, "", settable=False, option=False),
        SPLIT,
        _normalization_prop("none"),
        *_statistics_props(),
    )

    def description(self) -> str:
        return f"{int(self.sizes()[0])} features{self.normalization_text()}"


class ImageInputLayer(_NormalizingInputLayer):
    matlab_class = "nnet.cnn.layer.ImageInputLayer"
    LAYER_TYPE = "Image Input"
    DEFAULT_NAME = "imageinput"
    FORMAT = "SSCB"
    PROPERTIES = (
        NAME,
        Prop("InputSize", lambda: np.array([[1.0, 1.0, 1.0]]), "", settable=False, option=False),
        SPLIT,
        Prop("DataAugmentation", lambda: char_row("none"), "Hyperparameters", settable=False,
             option=False),
        _normalization_prop("zerocenter"),
        *_statistics_props(),
    )

    def description(self) -> str:
        return f"{_dims_text(self.sizes())} images{self.normalization_text()}"


class SequenceInputLayer(_NormalizingInputLayer):
    matlab_class = "nnet.cnn.layer.SequenceInputLayer"
    LAYER_TYPE = "Sequence Input"
    DEFAULT_NAME = "sequenceinput"
    FORMAT = "CBT"
    PROPERTIES = (
        NAME,
        Prop("InputSize", 1.0, "", settable=False, option=False),
        Prop("MinLength", 1.0, "", positive_integer("MinLength"), settable=False),
        SPLIT,
        _normalization_prop("none"),
        *_statistics_props(),
    )

    @property
    def data_format(self) -> str:
        return "CBT" if len(self.sizes()) == 1 else "S" * (len(self.sizes()) - 1) + "CBT"

    def input_example(self) -> DlArray:
        return _example([*self.sizes(), 1.0, self.values["MinLength"]], self.data_format)

    def description(self) -> str:
        return f"Sequence input with {_dims_text(self.sizes())} dimensions"


class InputLayer(Layer):
    matlab_class = "nnet.cnn.layer.InputLayer"
    LAYER_TYPE = "Input"
    DEFAULT_NAME = "input"
    IS_INPUT = True
    PROPERTIES = (
        NAME,
        Prop("InputSize", 1.0, "", settable=False, option=False),
        Prop("InputFormat", lambda: char_row(""), "", settable=False, option=False),
    )

    def description(self) -> str:
        return f"Input data with format '{to_str(self.values['InputFormat'])}'"

    def input_example(self) -> DlArray:
        sizes = [float(v) for v in np.asarray(self.values["InputSize"], dtype=np.float64).reshape(-1)]
        fmt = to_str(self.values["InputFormat"])
        order = sorted(range(len(fmt)), key=lambda k: ("SCBTU".index(fmt[k]), k))
        return _example([sizes[k] for k in order], "".join(fmt[k] for k in order))

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        return [inputs[0]]


# ---------------------------------------------------------------- constructors


@builtin("featureInputLayer")
def feature_input_layer(num_features: object, *options: object) -> Layer:
    """layer = featureInputLayer(numFeatures)  input layer for feature data ('CB'): one
    observation is a vector of numFeatures values

    layer = featureInputLayer(numFeatures, Name=Value)
    Options: Name, Normalization ('none' default, 'zerocenter', 'zscore',
    'rescale-symmetric', 'rescale-zero-one' or a function handle), NormalizationDimension
    ('auto', 'channel', 'element', 'all'), Mean, StandardDeviation, Min, Max,
    SplitComplexInputs"""
    size = positive_integer("InputSize")(num_features)
    return FeatureInputLayer.from_options(options, {"InputSize": size})


@builtin("imageInputLayer")
def image_input_layer(input_size: object, *options: object) -> Layer:
    """layer = imageInputLayer(inputSize)  input layer for 2-D images ('SSCB'); inputSize
    is [h w c] (or [h w] for one channel)

    layer = imageInputLayer(inputSize, Name=Value)
    Options: Name, Normalization ('zerocenter' default, 'zscore', 'rescale-symmetric',
    'rescale-zero-one', 'none' or a function handle), NormalizationDimension, Mean,
    StandardDeviation, Min, Max, SplitComplexInputs"""
    sizes = _size_row(input_size, "InputSize")
    if len(sizes) == 2:
        sizes.append(1.0)
    if len(sizes) != 3:
        raise error("MATLAB:validators:mustHaveLength",
                    "Value of 'InputSize' must be a vector of two or three positive integers.")
    return ImageInputLayer.from_options(options, {"InputSize": np.array([sizes])})


@builtin("sequenceInputLayer")
def sequence_input_layer(input_size: object, *options: object) -> Layer:
    """layer = sequenceInputLayer(inputSize)  input layer for sequences ('CBT'): each time
    step is a vector of inputSize values ([h w c] for sequences of images, 'SSCBT')

    layer = sequenceInputLayer(inputSize, Name=Value)
    Options: Name, MinLength (1), Normalization ('none' default, 'zerocenter', 'zscore',
    'rescale-symmetric', 'rescale-zero-one' or a function handle), NormalizationDimension,
    Mean, StandardDeviation, Min, Max, SplitComplexInputs"""
    sizes = _size_row(input_size, "InputSize")
    return SequenceInputLayer.from_options(options, {"InputSize": _size_value(sizes)})


@builtin("inputLayer")
def input_layer(input_size: object, data_format: object, *options: object) -> Layer:
    """layer = inputLayer(inputSize, format)  input layer for data of any format: inputSize
    gives the size of each dimension of format (NaN for a size not known in advance, such
    as the batch size)

    layer = inputLayer(inputSize, format, Name=name)"""
    sizes = _size_row(input_size, "InputSize", allow_nan=True)
    fmt = text_option(data_format)
    if fmt is None or not fmt or any(c not in "SCBTU" for c in fmt.upper()) \
            or len(set(fmt.upper()) & set("CBT")) != sum(fmt.upper().count(c) for c in "CBT"):
        raise error("deep:dlarray:InvalidFormat",
                    "Data format must be a character vector or string scalar containing only "
                    "the letters 'S', 'C', 'B', 'T' and 'U', with at most one each of 'C', 'B' "
                    "and 'T'.")
    fmt = fmt.upper()
    if len(sizes) != len(fmt):
        raise error("deep:layer:InputSizeFormatMismatch",
                    "The number of elements of the input size must match the number of "
                    "dimensions of the format.")
    return InputLayer.from_options(options, {"InputSize": _size_value(sizes),
                                             "InputFormat": char_row(fmt)})
