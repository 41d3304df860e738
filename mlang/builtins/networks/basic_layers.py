"""The fully connected layer, the activation layers, dropout and flatten.

Each layer computes through the functional builtins (``fullyconnect``, ``relu``,
``leakyrelu``, ``gelu``, ``sigmoid``, ``softmax``, ``tanh``, ``dropout``; the ELU and
swish layers from ``exp``, ``relu`` and ``sigmoid``), so a traced pass records it and
gradients reach the weights with no rules of their own.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import text_option
from mlang.builtins.deeplearning.basic_ops import fully_connect_features
from mlang.builtins.networks.initializers import (
    BIAS_INITIALIZERS,
    WEIGHT_INITIALIZERS,
    checked_initializer,
    initial_values,
)
from mlang.builtins.networks.layer import (
    ForwardContext,
    Layer,
    Prop,
    checked_name,
    checked_text,
    nonnegative_scalar,
    numeric_array,
    positive_integer,
    real_scalar,
    register_constructors,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, to_str

NAME = Prop("Name", lambda: char_row(""), "", checked_name)
HIDDEN = dict(shown=False)


def _data(v: Any) -> np.ndarray:
    return np.asarray(v.data if type(v) is DlArray else v)


def _is_empty(v: Any) -> bool:
    return type(v) is not float and _data(v).size == 0


def _feature_count(x: DlArray) -> int:
    """The number of features a fully connected layer sees per observation: the product of
    the sizes of the spatial, channel and unspecified dimensions."""
    shape = x.data.shape + (1,) * (len(x.fmt) - x.data.ndim)
    return math.prod(shape[k] for k, label in enumerate(x.fmt) if label in "SCU")


def _number_text(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


# ---------------------------------------------------------------- fully connected


class FullyConnectedLayer(Layer):
    matlab_class = "nnet.cnn.layer.FullyConnectedLayer"
    LAYER_TYPE = "Fully Connected"
    DEFAULT_NAME = "fc"
    PROPERTIES = (
        NAME,
        Prop("InputSize", lambda: char_row("auto"), "Hyperparameters", settable=False, option=False),
        Prop("OutputSize", 1.0, "Hyperparameters", positive_integer("OutputSize"), settable=False,
             option=False),
        Prop("Weights", lambda: np.zeros((0, 0)), "Learnable Parameters", numeric_array("Weights")),
        Prop("Bias", lambda: np.zeros((0, 0)), "Learnable Parameters", numeric_array("Bias")),
        Prop("WeightsInitializer", lambda: char_row("glorot"), "Hyperparameters",
             lambda v: checked_initializer(v, WEIGHT_INITIALIZERS, "WeightsInitializer"), **HIDDEN),
        Prop("BiasInitializer", lambda: char_row("zeros"), "Hyperparameters",
             lambda v: checked_initializer(v, BIAS_INITIALIZERS, "BiasInitializer"), **HIDDEN),
        Prop("WeightLearnRateFactor", 1.0, "Hyperparameters",
             nonnegative_scalar("WeightLearnRateFactor"), **HIDDEN),
        Prop("BiasLearnRateFactor", 1.0, "Hyperparameters",
             nonnegative_scalar("BiasLearnRateFactor"), **HIDDEN),
        Prop("WeightL2Factor", 1.0, "Hyperparameters", nonnegative_scalar("WeightL2Factor"), **HIDDEN),
        Prop("BiasL2Factor", 0.0, "Hyperparameters", nonnegative_scalar("BiasL2Factor"), **HIDDEN),
    )
    LEARNABLES = ("Weights", "Bias")

    def description(self) -> str:
        return f"{_number_text(self.values['OutputSize'])} fully connected layer"

    def initialize(self, inputs: list, ctx: ForwardContext) -> Layer:
        features = _feature_count(inputs[0])
        outputs = int(self.values["OutputSize"])
        given = self.values["InputSize"]
        if type(given) is float and int(given) != features:
            raise error("deep:layer:InputSizeMismatch",
                        f"Layer '{self.name}': the layer expects inputs with {int(given)} features, "
                        f"but the input has {features}.")
        changes: dict[str, Any] = {"InputSize": float(features)}
        weights, bias = self.values["Weights"], self.values["Bias"]
        if _is_empty(weights):
            changes["Weights"] = initial_values(ctx.interp, self.values["WeightsInitializer"],
                                                (outputs, features), features, outputs)
        elif _data(weights).shape != (outputs, features):
            raise error("deep:layer:InvalidWeightsSize",
                        f"Layer '{self.name}': the Weights must be a {outputs}-by-{features} "
                        "matrix (OutputSize-by-InputSize).")
        if _is_empty(bias):
            changes["Bias"] = initial_values(ctx.interp, self.values["BiasInitializer"],
                                             (outputs, 1), features, outputs)
        elif _data(bias).size != outputs:
            raise error("deep:layer:InvalidBiasSize",
                        f"Layer '{self.name}': the Bias must be a {outputs}-by-1 vector.")
        return self.copy(**changes)

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        values = self.values
        # the usual case computed at once, as the fullyconnect builtin computes it
        y = fully_connect_features(inputs[0], values["Weights"], values["Bias"])
        if y is None:
            y = ctx.call("fullyconnect", inputs[0], values["Weights"], values["Bias"])
        return [y]


@builtin("fullyConnectedLayer")
def fully_connected_layer(output_size: object, *options: object) -> Layer:
    """layer = fullyConnectedLayer(outputSize)  fully connected layer: multiplies its input
    by a weight matrix and adds a bias vector

    layer = fullyConnectedLayer(outputSize, Name=Value)
    Options: Name, WeightsInitializer ('glorot', 'he', 'orthogonal', 'narrow-normal',
    'zeros', 'ones' or a function handle), BiasInitializer ('zeros', 'narrow-normal',
    'ones' or a function handle), Weights (OutputSize-by-InputSize), Bias (OutputSize-by-1),
    WeightLearnRateFactor, BiasLearnRateFactor, WeightL2Factor, BiasL2Factor"""
    size = positive_integer("OutputSize")(output_size)
    return FullyConnectedLayer.from_options(options, {"OutputSize": size})


# ---------------------------------------------------------------- activations


class _ActivationLayer(Layer):
    """A layer applying one function element by element (or over channels for softmax)."""

    PROPERTIES: ClassVar[tuple[Prop, ...]] = (NAME,)
    FUNCTION: ClassVar[str] = ""

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        return [ctx.call(self.FUNCTION, inputs[0])]


class ReLULayer(_ActivationLayer):
    matlab_class = "nnet.cnn.layer.ReLULayer"
    LAYER_TYPE = "ReLU"
    DEFAULT_NAME = "relu"
    FUNCTION = "relu"


class TanhLayer(_ActivationLayer):
    matlab_class = "nnet.cnn.layer.TanhLayer"
    LAYER_TYPE = "Tanh"
    DEFAULT_NAME = "tanh"
    FUNCTION = "tanh"
    SHOWS_EMPTY_GROUPS = True  # as the tanhLayer page shows it
    DESCRIPTION = "Hyperbolic tangent"


class SigmoidLayer(_ActivationLayer):
    matlab_class = "nnet.cnn.layer.SigmoidLayer"
    LAYER_TYPE = "Sigmoid"
    DEFAULT_NAME = "sigmoid"
    FUNCTION = "sigmoid"
    SHOWS_EMPTY_GROUPS = True  # as the sigmoidLayer page shows it
    DESCRIPTION = "sigmoid"


class SoftmaxLayer(_ActivationLayer):
    matlab_class = "nnet.cnn.layer.SoftmaxLayer"
    LAYER_TYPE = "Softmax"
    DEFAULT_NAME = "softmax"
    FUNCTION = "softmax"
    DESCRIPTION = "softmax"


class SwishLayer(_ActivationLayer):
    matlab_class = "nnet.cnn.layer.SwishLayer"
    LAYER_TYPE = "Swish"
    DEFAULT_NAME = "swish"
    SHOWS_EMPTY_GROUPS = True  # as the swishLayer page shows it
    DESCRIPTION = "Swish"  # the swishLayer page's layer array

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        x = inputs[0]
        return [ctx.call("times", x, ctx.call("sigmoid", x))]


class LeakyReLULayer(Layer):
    matlab_class = "nnet.cnn.layer.LeakyReLULayer"
    LAYER_TYPE = "Leaky ReLU"
    DEFAULT_NAME = "leakyrelu"
    PROPERTIES = (NAME, Prop("Scale", 0.01, "Hyperparameters", real_scalar("Scale"), settable=False,
                             option=False))

    def description(self) -> str:
        return f"Leaky ReLU with scale {_number_text(self.values['Scale'])}"

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        return [ctx.call("leakyrelu", inputs[0], self.values["Scale"])]


class ELULayer(Layer):
    matlab_class = "nnet.cnn.layer.ELULayer"
    LAYER_TYPE = "ELU"
    DEFAULT_NAME = "elu"
    # The eluLayer page shows Alpha under Name, then the two empty parameter groups.
    PROPERTIES = (NAME, Prop("Alpha", 1.0, "", real_scalar("Alpha"), settable=False, option=False))
    SHOWS_EMPTY_GROUPS = True

    def description(self) -> str:
        return f"ELU with Alpha {_number_text(self.values['Alpha'])}"

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        # x for x > 0, alpha*(exp(x) - 1) otherwise: relu(x) + alpha*(exp(min(x, 0)) - 1)
        x = inputs[0]
        negative_part = ctx.call("uminus", ctx.call("relu", ctx.call("uminus", x)))
        below = ctx.call("times", self.values["Alpha"],
                         ctx.call("minus", ctx.call("exp", negative_part), 1.0))
        return [ctx.call("plus", ctx.call("relu", x), below)]


class GELULayer(Layer):
    matlab_class = "nnet.cnn.layer.GELULayer"
    LAYER_TYPE = "GELU"
    DEFAULT_NAME = "gelu"
    PROPERTIES = (NAME, Prop("Approximation", lambda: char_row("none"), "Hyperparameters",
                             checked_text("Approximation", ("none", "tanh")), settable=False))

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        how = to_str(self.values["Approximation"])
        if how == "none":
            return [ctx.call("gelu", inputs[0])]
        return [ctx.call("gelu", inputs[0], char_row("Approximation"), char_row(how))]


register_constructors({
    "reluLayer": (
        ReLULayer,
        """layer = reluLayer  rectified linear unit layer: max(x, 0)

    layer = reluLayer(Name=name)"""),
    "tanhLayer": (
        TanhLayer,
        """layer = tanhLayer  hyperbolic tangent layer

    layer = tanhLayer(Name=name)"""),
    "sigmoidLayer": (
        SigmoidLayer,
        """layer = sigmoidLayer  sigmoid layer: 1./(1+exp(-x))

    layer = sigmoidLayer(Name=name)"""),
    "softmaxLayer": (
        SoftmaxLayer,
        """layer = softmaxLayer  softmax layer: the softmax over the channel dimension

    layer = softmaxLayer(Name=name)"""),
    "swishLayer": (
        SwishLayer,
        """layer = swishLayer  swish layer: x.*sigmoid(x)

    layer = swishLayer(Name=name)"""),
    "geluLayer": (
        GELULayer,
        """layer = geluLayer  Gaussian error linear unit layer

    layer = geluLayer(Approximation=how)  'none' (the exact form, default) or 'tanh'
    layer = geluLayer(..., Name=name)"""),
})


def _scalar_then_options(args: tuple, prop: str) -> tuple[dict[str, Any], tuple]:
    """An optional leading numeric argument (a scale or alpha) and the name=value options."""
    if args and not _is_option_name(args[0]):
        return {prop: real_scalar(prop)(args[0])}, args[1:]
    return {}, args


def _is_option_name(v: Any) -> bool:
    return text_option(v) is not None


@builtin("leakyReluLayer")
def leaky_relu_layer(*args: object) -> Layer:
    """layer = leakyReluLayer  leaky ReLU layer: x for x >= 0, scale*x otherwise (scale 0.01)

    layer = leakyReluLayer(scale)
    layer = leakyReluLayer(..., Name=name)"""
    given, options = _scalar_then_options(args, "Scale")
    return LeakyReLULayer.from_options(options, given)


@builtin("eluLayer")
def elu_layer(*args: object) -> Layer:
    """layer = eluLayer  exponential linear unit layer: x for x >= 0, alpha*(exp(x)-1)
    otherwise (alpha 1)

    layer = eluLayer(alpha)
    layer = eluLayer(..., Name=name)"""
    given, options = _scalar_then_options(args, "Alpha")
    return ELULayer.from_options(options, given)


# ---------------------------------------------------------------- dropout and flatten


def _probability(value: Any) -> float:
    p = real_scalar("Probability")(value)
    if not 0 <= p < 1:
        raise error("MATLAB:validators:mustBeInRange",
                    "Value of 'Probability' must be greater than or equal to 0 and less than 1.")
    return p


class DropoutLayer(Layer):
    matlab_class = "nnet.cnn.layer.DropoutLayer"
    LAYER_TYPE = "Dropout"
    DEFAULT_NAME = "dropout"
    PROPERTIES = (NAME, Prop("Probability", 0.5, "Hyperparameters", _probability, settable=False,
                             option=False))

    def description(self) -> str:
        return f"{_number_text(100 * self.values['Probability'])}% dropout"

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        return [inputs[0]]

    def forward(self, inputs: list, ctx: ForwardContext) -> tuple[list, dict[str, Any]]:
        return [ctx.call("dropout", inputs[0], self.values["Probability"])], {}


@builtin("dropoutLayer")
def dropout_layer(*args: object) -> Layer:
    """layer = dropoutLayer  dropout layer: in training, sets input elements to zero with
    probability 0.5 and scales the others by 1/(1-0.5); in prediction, passes the input on

    layer = dropoutLayer(probability)
    layer = dropoutLayer(..., Name=name)"""
    given: dict[str, Any] = {}
    if args and not _is_option_name(args[0]):
        given, args = {"Probability": _probability(args[0])}, args[1:]
    return DropoutLayer.from_options(args, given)


class FlattenLayer(Layer):
    matlab_class = "nnet.cnn.layer.FlattenLayer"
    LAYER_TYPE = "Flatten"
    DEFAULT_NAME = "flatten"
    PROPERTIES = (NAME,)
    DESCRIPTION = "Flatten"

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        x = inputs[0]
        fmt = x.fmt
        # (a one-label format such as 'C' still has two dimensions: its trailing 1 goes)
        shape = (x.data.shape + (1,) * len(fmt))[:len(fmt)]
        # S, C (and U) come first in the canonical order, so a column-major reshape of the
        # data joins them into one channel dimension
        features = math.prod(n for n, label in zip(shape, fmt, strict=True) if label in "SCU")
        rest = [(n, label) for n, label in zip(shape, fmt, strict=True) if label in "BT"]
        sizes = [features, *(n for n, _ in rest)]
        out_fmt = "C" + "".join(label for _, label in rest)
        if len(sizes) < 2:
            sizes.append(1)
        flat = ctx.call("reshape", ctx.call("stripdims", x), np.array([[float(n) for n in sizes]]))
        return [ctx.call("dlarray", flat, char_row(out_fmt))]


register_constructors({
    "flattenLayer": (
        FlattenLayer,
        """layer = flattenLayer  flatten layer: joins the spatial and channel dimensions of its
    input into one channel dimension

    layer = flattenLayer(Name=name)"""),
})
