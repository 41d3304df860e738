"""Normalisation layers: batchNormalizationLayer, layerNormalizationLayer,
groupNormalizationLayer and instanceNormalizationLayer.

They compute through ``batchnorm``, ``layernorm``, ``groupnorm`` and ``instancenorm``.
Their per-channel parameters (Offset and Scale, learnable; a batch normalisation
layer's TrainedMean and TrainedVariance, state) take the shape MATLAB gives them for the
input: NumChannels-by-1 for feature and sequence data, 1-by-NumChannels for 1-D images,
1-by-1-by-NumChannels for 2-D images.  A batch normalisation layer's training pass
normalises with the statistics of the mini-batch and returns its updated running
statistics; prediction uses the trained ones.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import text_option
from mlang.builtins.networks.conv_layers import (
    channels_of,
    empty,
    is_auto,
    learnable_value,
    name_prop,
    nonnegative_scalar,
    numbers_of,
    per_channel_shape,
    positive_integer,
    text_choice,
)
from mlang.builtins.networks.initializers import checked_initializer, initial_values
from mlang.builtins.networks.layer import (
    HYPER,
    INIT,
    LEARNABLE,
    RATES,
    STATE,
    ForwardContext,
    Layer,
    Prop,
    register_constructors,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, class_of

_PARAMETER_INITIALIZERS = ("zeros", "ones", "narrow-normal")


def _real_scalar(what: str, low: float, high: float | None, low_included: bool) -> Any:
    """The check of a real scalar option in [low, high] (or (low, ...) when not included)."""

    def check(value: Any) -> float:
        a = numbers_of(value, what)
        if a.size != 1:
            raise error("MATLAB:expectedScalar", f"Expected {what} to be a scalar.")
        v = float(a[0])
        if v < low or (v == low and not low_included):
            if low == 0 and not low_included:
                raise error("MATLAB:expectedPositive", f"Expected {what} to be positive.")
            raise error("MATLAB:notGreaterEqual", f"Expected {what} to be greater than or equal to {low:g}.")
        if high is not None and v > high:
            raise error("MATLAB:notLessEqual", f"Expected {what} to be less than or equal to {high:g}.")
        return v

    return check


def _norm_props(hyper: tuple[Prop, ...], states: bool) -> tuple[Prop, ...]:
    state_props: tuple[Prop, ...] = ()
    if states:
        state_props = (Prop("TrainedMean", empty, STATE, learnable_value("TrainedMean")),
                       Prop("TrainedVariance", empty, STATE, learnable_value("TrainedVariance")))
    return (name_prop(),
            Prop("NumChannels", lambda: char_row("auto"), "", settable=False, option=False),
            *hyper,
            Prop("Epsilon", 1e-5, HYPER, _real_scalar("Epsilon", 0.0, None, False)),
            Prop("Offset", empty, LEARNABLE, learnable_value("Offset")),
            Prop("Scale", empty, LEARNABLE, learnable_value("Scale")),
            *state_props,
            Prop("OffsetInitializer", lambda: char_row("zeros"), INIT,
                 lambda v: checked_initializer(v, _PARAMETER_INITIALIZERS, "OffsetInitializer")),
            Prop("ScaleInitializer", lambda: char_row("ones"), INIT,
                 lambda v: checked_initializer(v, _PARAMETER_INITIALIZERS, "ScaleInitializer")),
            Prop("OffsetLearnRateFactor", 1.0, RATES, nonnegative_scalar("OffsetLearnRateFactor")),
            Prop("ScaleLearnRateFactor", 1.0, RATES, nonnegative_scalar("ScaleLearnRateFactor")),
            Prop("OffsetL2Factor", 1.0, RATES, nonnegative_scalar("OffsetL2Factor")),
            Prop("ScaleL2Factor", 1.0, RATES, nonnegative_scalar("ScaleL2Factor")))


def _data(v: Any) -> np.ndarray:
    return np.asarray(v.data if type(v) is DlArray else v)


class _NormalizationLayer(Layer):
    """What the normalisation layers share: NumChannels inferred, per-channel Offset and
    Scale (and states) made or reshaped for the input."""

    LEARNABLES = ("Offset", "Scale")
    KIND: ClassVar[str] = "normalization"
    STATE_DEFAULTS: ClassVar[dict[str, float]] = {}

    def description(self) -> str:
        channels = self.values["NumChannels"]
        if is_auto(channels):
            return self.KIND
        return f"{self.KIND} with {int(channels)} channels"

    def _check_channels(self, channels: int) -> None:
        """Further checks of the input's channel count (group normalisation)."""

    def initialize(self, inputs: list, ctx: ForwardContext) -> Layer:
        x = inputs[0]
        channels = channels_of(x, self.name)
        self._check_channels(channels)
        shape = per_channel_shape(x.fmt, channels)
        changes: dict[str, Any] = {"NumChannels": float(channels)}
        for name in self.LEARNABLES + self.STATES:
            value = self.values[name]
            if np.size(_data(value)) == 0:
                if name in self.STATE_DEFAULTS:
                    changes[name] = np.full(shape, self.STATE_DEFAULTS[name], dtype=np.float32)
                else:
                    changes[name] = initial_values(ctx.interp, self.values[f"{name}Initializer"], shape,
                                                   channels, channels)
            elif np.size(_data(value)) != channels:
                raise error("nnet_cnn:internal:cnn:layer:InvalidParameterSize",
                            f"Layer '{self.name}': {name} must have {channels} elements, one for "
                            "each channel of the input data.")
            else:
                changes[name] = _data(value).reshape(shape, order="F")
        return self.copy(**changes)


class BatchNormalizationLayer(_NormalizationLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.BatchNormalizationLayer"
    LAYER_TYPE = "Batch Normalization"
    DEFAULT_NAME = "batchnorm"
    KIND = "Batch normalization"
    STATES = ("TrainedMean", "TrainedVariance")
    STATE_DEFAULTS = {"TrainedMean": 0.0, "TrainedVariance": 1.0}
    PROPERTIES = _norm_props((Prop("MeanDecay", 0.1, HYPER, _real_scalar("MeanDecay", 0.0, 1.0, True)),
                              Prop("VarianceDecay", 0.1, HYPER,
                                   _real_scalar("VarianceDecay", 0.0, 1.0, True))), states=True)

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        v = self.values
        return [ctx.call("batchnorm", inputs[0], v["Offset"], v["Scale"], v["TrainedMean"],
                         v["TrainedVariance"], char_row("Epsilon"), v["Epsilon"])]

    def forward(self, inputs: list, ctx: ForwardContext) -> tuple[list, dict[str, Any]]:
        """Normalises with the mini-batch statistics; the running statistics move towards
        them by MeanDecay and VarianceDecay."""
        v = self.values
        y, mean, variance = ctx.call(
            "batchnorm", inputs[0], v["Offset"], v["Scale"], v["TrainedMean"], v["TrainedVariance"],
            char_row("MeanDecay"), v["MeanDecay"], char_row("VarianceDecay"), v["VarianceDecay"],
            char_row("Epsilon"), v["Epsilon"], nargout=3)
        shape = np.shape(_data(v["TrainedMean"]))
        return [y], {"TrainedMean": _data(mean).reshape(shape, order="F"),
                     "TrainedVariance": _data(variance).reshape(shape, order="F")}


class LayerNormalizationLayer(_NormalizationLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.LayerNormalizationLayer"
    LAYER_TYPE = "Layer Normalization"
    DEFAULT_NAME = "layernorm"
    KIND = "Layer normalization"
    PROPERTIES = _norm_props((Prop("OperationDimension", lambda: char_row("auto"), HYPER,
                                   text_choice("OperationDimension", ("auto", "channel-only",
                                                                      "spatial-channel",
                                                                      "batch-excluded"))),),
                             states=False)

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        v = self.values
        return [ctx.call("layernorm", inputs[0], v["Offset"], v["Scale"], char_row("Epsilon"),
                         v["Epsilon"], char_row("OperationDimension"), v["OperationDimension"])]


def _num_groups(value: Any) -> Any:
    if class_of(value) in ("char", "string"):
        return text_choice("NumGroups", ("all-channels", "channel-wise"))(value)
    return positive_integer(value, "NumGroups")


class GroupNormalizationLayer(_NormalizationLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.GroupNormalizationLayer"
    LAYER_TYPE = "Group Normalization"
    DEFAULT_NAME = "groupnorm"
    KIND = "Group normalization"
    PROPERTIES = _norm_props((Prop("NumGroups", 1.0, HYPER, settable=False, option=False),), states=False)

    def _groups(self, channels: int) -> int:
        groups = self.values["NumGroups"]
        word = text_option(groups) if class_of(groups) in ("char", "string") else None
        if word is not None:
            return 1 if word == "all-channels" else max(channels, 1)  # (none: one empty group)
        return int(groups)

    def _check_channels(self, channels: int) -> None:
        if channels % self._groups(channels):
            raise error("nnet_cnn:internal:cnn:layer:InvalidNumGroups",
                        f"Layer '{self.name}': the number of channels of the input data ({channels}) "
                        f"must be divisible by the number of groups ({self._groups(channels)}).")

    def description(self) -> str:
        channels = self.values["NumChannels"]
        if is_auto(channels):
            return self.KIND
        return (f"{self.KIND} with {int(channels)} channels split into "
                f"{self._groups(int(channels))} groups")

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        v = self.values
        return [ctx.call("groupnorm", inputs[0], v["NumGroups"], v["Offset"], v["Scale"],
                         char_row("Epsilon"), v["Epsilon"])]


class InstanceNormalizationLayer(_NormalizationLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.InstanceNormalizationLayer"
    LAYER_TYPE = "Instance Normalization"
    DEFAULT_NAME = "instancenorm"
    KIND = "Instance normalization"
    PROPERTIES = _norm_props((), states=False)

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        v = self.values
        return [ctx.call("instancenorm", inputs[0], v["Offset"], v["Scale"], char_row("Epsilon"),
                         v["Epsilon"])]


# ------------------------------------------------------------------ constructors


@builtin("groupNormalizationLayer")
def group_normalization_layer(num_groups: object, *options: object) -> Layer:
    """layer = groupNormalizationLayer(numGroups)  group normalization layer

    layer = groupNormalizationLayer(numGroups, Name=Value)
    numGroups: a positive integer dividing the number of channels, 'all-channels' or
    'channel-wise'
    Options: Epsilon (1e-5), Offset, Scale, the initialisers, learning rate and L2 factors,
    Name"""
    return GroupNormalizationLayer.from_options(options, {"NumGroups": _num_groups(num_groups)})


register_constructors({
    "batchNormalizationLayer": (
        BatchNormalizationLayer,
        """layer = batchNormalizationLayer  batch normalization layer

    layer = batchNormalizationLayer(Name=Value)
    Normalises each channel over the mini-batch (and the spatial and time dimensions),
    then scales and offsets it; prediction uses TrainedMean and TrainedVariance, which
    training updates.
    Options: MeanDecay (0.1), VarianceDecay (0.1), Epsilon (1e-5), TrainedMean,
    TrainedVariance, Offset, Scale, OffsetInitializer ('zeros'), ScaleInitializer ('ones'),
    OffsetLearnRateFactor, ScaleLearnRateFactor, OffsetL2Factor, ScaleL2Factor, Name"""),
    "layerNormalizationLayer": (
        LayerNormalizationLayer,
        """layer = layerNormalizationLayer  layer normalization layer

    layer = layerNormalizationLayer(Name=Value)
    Normalises each observation over its channels (and spatial dimensions)
    Options: Epsilon (1e-5), OperationDimension ('auto', 'channel-only', 'spatial-channel',
    'batch-excluded'), Offset, Scale, the initialisers, learning rate and L2 factors, Name"""),
    "instanceNormalizationLayer": (
        InstanceNormalizationLayer,
        """layer = instanceNormalizationLayer  instance normalization layer

    layer = instanceNormalizationLayer(Name=Value)
    Normalises each channel of each observation over its spatial and time dimensions
    Options: Epsilon (1e-5), Offset, Scale, the initialisers, learning rate and L2 factors,
    Name"""),
})
