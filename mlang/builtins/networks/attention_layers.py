"""selfAttentionLayer: multi-head self-attention over the time steps of a sequence.

The queries, keys and values are fully connected projections of the input; the
``attention`` builtin combines them head by head and a last projection gives the output.
Every step is a functional builtin (``fullyconnect``, ``attention``), so a traced pass
records it and gradients reach the eight learnable parameters.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import text_option
from mlang.builtins.networks.layer import (
    INIT,
    LEARNABLE,
    RATES,
    ForwardContext,
    Layer,
    Prop,
    checked_name,
    logical_scalar,
    nonnegative_scalar,
    numeric_array,
    positive_integer,
    size_or_auto,
)
from mlang.builtins.networks.recurrent_layers import (
    EMPTY_VALUE,
    LAYER_GROUP,
    as_int,
    check_input_size,
    data_of,
    dropout_probability,
    initializer,
    input_channels,
    made_or_checked,
    names_cell,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, class_of, is_text

_PROJECTIONS = ("Query", "Key", "Value", "Output")
_BIAS_INITIALIZERS = ("zeros", "narrow-normal", "ones")


def _attention_mask(value: Any) -> Any:
    if is_text(value):
        word = text_option(value)
        word = word.lower() if word is not None else None
        if word not in ("none", "causal"):
            raise error("MATLAB:validators:mustBeMember",
                        "Value of 'AttentionMask' must be 'none', 'causal', or a numeric or logical "
                        "array.")
        return char_row(word)
    if class_of(value) not in ("double", "single", "logical"):
        raise error("MATLAB:validators:mustBeMember",
                    "Value of 'AttentionMask' must be 'none', 'causal', or a numeric or logical "
                    "array.")
    return value


def _properties() -> tuple[Prop, ...]:
    learnables = [Prop(f"{p}Weights", lambda: EMPTY_VALUE, LEARNABLE,
                       numeric_array(f"{p}Weights")) for p in _PROJECTIONS]
    learnables += [Prop(f"{p}Bias", lambda: EMPTY_VALUE, LEARNABLE,
                        numeric_array(f"{p}Bias")) for p in _PROJECTIONS]
    hidden = [Prop(f"{p}WeightsInitializer", lambda: char_row("glorot"), INIT,
                   initializer(f"{p}WeightsInitializer"), shown=False) for p in _PROJECTIONS]
    hidden.append(Prop("BiasInitializer", lambda: char_row("zeros"), INIT,
                       initializer("BiasInitializer", _BIAS_INITIALIZERS), shown=False))
    hidden += [Prop(name, 0.0 if name == "BiasL2Factor" else 1.0, RATES, nonnegative_scalar(name),
                    shown=False)
               for name in ("WeightLearnRateFactor", "BiasLearnRateFactor", "WeightL2Factor", "BiasL2Factor")]
    return (
        Prop("NumHeads", 1.0, "", positive_integer("NumHeads"), settable=False, option=False),
        Prop("NumKeyChannels", 1.0, "", positive_integer("NumKeyChannels"), settable=False, option=False),
        Prop("NumValueChannels", lambda: char_row("auto"), "", size_or_auto("NumValueChannels"),
             settable=False),
        Prop("OutputSize", lambda: char_row("auto"), "", size_or_auto("OutputSize"),
             settable=False),
        Prop("HasPaddingMaskInput", False, "", logical_scalar("HasPaddingMaskInput"), settable=False),
        Prop("HasScoresOutput", False, "", logical_scalar("HasScoresOutput"), settable=False),
        Prop("AttentionMask", lambda: char_row("none"), "", _attention_mask, settable=False),
        Prop("DropoutProbability", 0.0, "", dropout_probability("DropoutProbability"), settable=False),
        Prop("Name", char_row(""), "", checked_name),
        *learnables,
        Prop("InputSize", lambda: char_row("auto"), LAYER_GROUP, size_or_auto("InputSize"),
             settable=False, shown=False),
        Prop("InputNames", lambda: names_cell(["in"]), LAYER_GROUP, settable=False, option=False,
             shown=False),
        Prop("OutputNames", lambda: names_cell(["out"]), LAYER_GROUP, settable=False, option=False,
             shown=False),
        Prop("NumInputs", 1.0, LAYER_GROUP, settable=False, option=False,
             shown=False),
        Prop("NumOutputs", 1.0, LAYER_GROUP, settable=False, option=False,
             shown=False),
        *hidden,
    )


class SelfAttentionLayer(Layer):
    """selfAttentionLayer: queries, keys and values from the same sequence."""

    __slots__ = ()
    matlab_class = "nnet.cnn.layer.SelfAttentionLayer"
    LAYER_TYPE = "Self-Attention"
    DEFAULT_NAME = "selfattention"
    LEARNABLES = tuple(f"{p}Weights" for p in _PROJECTIONS) + tuple(f"{p}Bias" for p in _PROJECTIONS)
    PROPERTIES = _properties()

    @classmethod
    def from_options(cls, args: list | tuple, given: dict[str, Any] | None = None) -> Layer:
        layer = super().from_options(args, given)
        heads = as_int(layer.values["NumHeads"])
        for prop in ("NumKeyChannels", "NumValueChannels"):
            value = layer.values[prop]
            if not is_text(value) and as_int(value) % heads:
                raise error("nnet_cnn:layer:SelfAttentionLayer:ChannelsNotDivisible",
                            f"{prop} must be divisible by the number of heads ({heads}).")
        return layer.copy(InputNames=names_cell(layer.input_names()),
                          OutputNames=names_cell(layer.output_names()),
                          NumInputs=float(len(layer.input_names())),
                          NumOutputs=float(len(layer.output_names())))

    def input_names(self) -> list[str]:
        return ["in", "mask"] if self.values["HasPaddingMaskInput"] else ["in"]

    def output_names(self) -> list[str]:
        return ["out", "scores"] if self.values["HasScoresOutput"] else ["out"]

    def description(self) -> str:
        return (f"self-attention with {as_int(self.values['NumHeads'])} heads and "
                f"{as_int(self.values['NumKeyChannels'])} key channels")

    def _sizes(self) -> tuple[int, int, int, int]:
        """Input size, key channels, value channels and output size (after initialisation)."""
        channels = as_int(self.values["InputSize"])
        keys = as_int(self.values["NumKeyChannels"])
        given = self.values["NumValueChannels"]
        values = keys if is_text(given) else as_int(given)
        out = self.values["OutputSize"]
        return channels, keys, values, channels if is_text(out) else as_int(out)

    def initialize(self, inputs: list, ctx: ForwardContext) -> Layer:
        x = inputs[0]
        layer = check_input_size(self, input_channels(x, self, "Self-attention"))
        if "S" in x.fmt:
            raise error("nnet_cnn:layer:InvalidInputFormat",
                        f"Layer '{self.name}': input must be sequence data ('CBT') or feature data "
                        f"('CB'), not '{x.fmt}'.")
        channels, keys, values, out = layer._sizes()
        shapes = {"Query": (keys, channels), "Key": (keys, channels), "Value": (values, channels),
                  "Output": (out, values)}
        changes: dict[str, Any] = {}
        for p, (rows, cols) in shapes.items():
            changes[f"{p}Weights"] = made_or_checked(ctx, layer, f"{p}Weights",
                                                     layer.values[f"{p}WeightsInitializer"], (rows, cols),
                                                     cols, rows)
            changes[f"{p}Bias"] = made_or_checked(ctx, layer, f"{p}Bias", layer.values["BiasInitializer"],
                                                  (rows, 1), cols, rows)
        return layer.copy(**changes)

    def _run(self, inputs: list, ctx: ForwardContext) -> list:
        x = inputs[0]
        if type(x) is not DlArray or not x.fmt:
            raise error("nnet_cnn:layer:InvalidInputFormat",
                        f"Layer '{self.name}': input must be a formatted dlarray.")
        v = self.values
        q, k, val = (ctx.call("fullyconnect", x, v[f"{p}Weights"], v[f"{p}Bias"])
                     for p in ("Query", "Key", "Value"))
        settings: list = [char_row("AttentionMask"), v["AttentionMask"]]
        if ctx.training and float(v["DropoutProbability"]) > 0:
            settings += [char_row("DropoutProbability"), v["DropoutProbability"]]
        if v["HasPaddingMaskInput"]:
            settings += [char_row("PaddingMask"), _padding_mask(inputs[1], x)]
        heads = v["NumHeads"]
        if v["HasScoresOutput"]:
            y, scores = ctx.call("attention", q, k, val, heads, *settings, nargout=2)
        else:
            y, scores = ctx.call("attention", q, k, val, heads, *settings), None
        out = ctx.call("fullyconnect", y, v["OutputWeights"], v["OutputBias"])
        return [out] if scores is None else [out, scores]

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        return self._run(inputs, ctx)

    def forward(self, inputs: list, ctx: ForwardContext) -> tuple[list, dict[str, Any]]:
        return self._run(inputs, ctx), {}


def _padding_mask(mask: Any, x: DlArray) -> Any:
    """The padding mask input, laid out like the keys (a formatted mask keeps its labels)."""
    if type(mask) is DlArray and mask.fmt:
        return DlArray(np.asarray(mask.data), mask.fmt)
    return DlArray(np.asarray(data_of(mask)), x.fmt)


@builtin()
def selfAttentionLayer(num_heads: object, num_key_channels: object, *settings: object) -> object:
    """selfAttentionLayer  multi-head self-attention layer
    layer = selfAttentionLayer(numHeads, numKeyChannels)  numHeads heads sharing
        numKeyChannels query and key channels
    layer = selfAttentionLayer(numHeads, numKeyChannels, Name=Value)  also NumValueChannels
        ('auto': numKeyChannels), OutputSize ('auto': the input size), HasPaddingMaskInput,
        HasScoresOutput, AttentionMask ('none', 'causal' or an array), DropoutProbability,
        the weight initialisers ('glorot'), BiasInitializer ('zeros'), the learnable
        parameters, learning-rate and L2 factors, and Name."""
    given = {"NumHeads": positive_integer("numHeads")(num_heads),
             "NumKeyChannels": positive_integer("numKeyChannels")(num_key_channels)}
    return SelfAttentionLayer.from_options(list(settings), given=given)
