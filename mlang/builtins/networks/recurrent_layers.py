"""Recurrent and embedding layers: lstmLayer, gruLayer and embeddingLayer.

The layers compute through the functional builtins ``lstm``, ``gru`` and ``embed``, so a
traced pass records them and gradients reach the learnable parameters.  The recurrent
layers keep their hidden (and cell) state as state parameters: a pass starts from them
and ``forward`` returns the states after the last time step, which a network keeps as
the next pass's initial states.  With ``HasStateInputs`` the initial states come from the
extra inputs "hidden" and "cell" instead; with ``HasStateOutputs`` the final states are
also outputs.

The small property checks shared with the attention layers live here too.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import text_option
from mlang.builtins.networks.initializers import WEIGHT_INITIALIZERS, checked_initializer, initial_values
from mlang.builtins.networks.layer import (
    HYPER,
    INIT,
    LEARNABLE,
    RATES,
    STATE,
    ForwardContext,
    Layer,
    Prop,
    checked_name,
    checked_text,
    logical_scalar,
    nonnegative_scalar,
    numeric_array,
    positive_integer,
    size_or_auto,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import EMPTY, char_row, is_text, to_array, to_str

# One more display group (the others are layer.py's); the properties MATLAB lists only under
# "Show all properties" (initialisers, factors) are declared with shown=False in its
# documentation groups.
LAYER_GROUP = "Layer"
EMPTY_VALUE = EMPTY

# ------------------------------------------------------------ shared property checks


def dropout_probability(what: str) -> Any:
    """A probability in [0, 1) (the attention dropout)."""
    nonnegative = nonnegative_scalar(what)

    def check(value: Any) -> float:
        number = nonnegative(value)
        if number >= 1:
            raise error("MATLAB:validators:mustBeLessThan", f"Value of '{what}' must be less than 1.")
        return number
    return check


def initializer(what: str, names: tuple[str, ...] = WEIGHT_INITIALIZERS) -> Any:
    return lambda value: checked_initializer(value, names, what)


def data_of(value: Any) -> np.ndarray:
    return np.asarray(value.data if type(value) is DlArray else to_array(value))


def is_empty(value: Any) -> bool:
    return data_of(value).size == 0


def as_int(value: Any) -> int:
    return int(round(float(data_of(value).reshape(-1)[0])))


def names_cell(names: list[str]) -> Cell:
    return Cell.row([char_row(n) for n in names])


def input_channels(x: DlArray, layer: Layer, what: str) -> int:
    """The channels a sequence layer sees in its input: the 'S' sizes times the 'C' size."""
    fmt = x.fmt
    if "C" not in fmt or "U" in fmt:
        raise error("nnet_cnn:layer:InvalidInputFormat",
                    f"Layer '{layer.name}': {what} input must be a formatted dlarray with a channel "
                    f"('C') dimension and no unspecified ('U') dimensions, not '{fmt}'.")
    shape = (tuple(x.shape) + (1,) * len(fmt))[:len(fmt)]  # ('C' data is n-by-1)
    return math.prod(n for n, label in zip(shape, fmt, strict=True) if label in "SC")


def check_input_size(layer: Layer, channels: int) -> Layer:
    """The layer with InputSize set from the input (an InputSize given must agree)."""
    given = layer.values.get("InputSize")
    if is_text(given):
        return layer.copy(InputSize=float(channels))
    if as_int(given) != channels:
        raise error("nnet_cnn:layer:InputSizeMismatch",
                    f"Layer '{layer.name}': Input size mismatch. Size of input to this layer is "
                    f"{channels}, but the layer expects input of size {as_int(given)}.")
    return layer


def made_or_checked(ctx: ForwardContext, layer: Layer, prop: str, how: Any, shape: tuple[int, ...],
                    fan_in: int, fan_out: int) -> Any:
    """A learnable's value: made by its initialiser when empty, else checked for its size."""
    value = layer.values[prop]
    if is_empty(value):
        return initial_values(ctx.interp, how, shape, fan_in, fan_out)
    got = tuple(np.shape(data_of(value)))
    if got != shape:
        want = "-by-".join(str(n) for n in shape)
        raise error("nnet_cnn:layer:InvalidParameterSize",
                    f"Layer '{layer.name}': The size of {prop} must be {want}, not "
                    f"{'-by-'.join(str(n) for n in got)}.")
    return value


def labelled(value: Any, fmt: str) -> DlArray:
    """A value as a dlarray labelled ``fmt`` (a dlarray keeps its trace)."""
    if type(value) is DlArray:
        return value if value.fmt == fmt else DlArray(value.data, fmt, value.node)
    return DlArray(np.asarray(to_array(value)), fmt)


def detached(value: Any) -> DlArray:
    """A state value to keep between passes: an unformatted dlarray outside any trace."""
    return DlArray(np.asarray(value.data if type(value) is DlArray else to_array(value)), "")


# ------------------------------------------------------------ recurrent layers

_STATE_ACTIVATIONS = ("tanh", "softsign", "relu")
_GATE_ACTIVATIONS = ("sigmoid", "hard-sigmoid")
_LSTM_BIAS_INITIALIZERS = ("unit-forget-gate", "narrow-normal", "ones")
_GRU_BIAS_INITIALIZERS = ("zeros", "narrow-normal", "ones")
_INITIAL = "_initial_states"  # a key of a layer's values that is no property (no MATLAB name)


def _ports() -> tuple[Prop, ...]:
    return (
        Prop("Name", char_row(""), "", checked_name),
        Prop("InputNames", lambda: names_cell(["in"]), "", settable=False, option=False),
        Prop("OutputNames", lambda: names_cell(["out"]), "", settable=False, option=False),
        Prop("NumInputs", 1.0, "", settable=False, option=False),
        Prop("NumOutputs", 1.0, "", settable=False, option=False),
        Prop("HasStateInputs", False, "", logical_scalar("HasStateInputs"), settable=False),
        Prop("HasStateOutputs", False, "", logical_scalar("HasStateOutputs"), settable=False),
    )


def _factors() -> tuple[Prop, ...]:
    return tuple(Prop(f"{what}{kind}", 0.0 if (what, kind) == ("Bias", "L2Factor") else 1.0, RATES,
                      nonnegative_scalar(f"{what}{kind}"), shown=False)
                 for kind in ("LearnRateFactor", "L2Factor")
                 for what in ("InputWeights", "RecurrentWeights", "Bias"))


class _RecurrentLayer(Layer):
    """What lstmLayer and gruLayer share: gates stacked in their weights, hidden states
    kept between passes, optional state inputs and outputs."""

    __slots__ = ()
    GATES: ClassVar[int] = 4
    FUNCTION: ClassVar[str] = "lstm"
    STATE_PORTS: ClassVar[tuple[str, ...]] = ("hidden", "cell")
    LEARNABLES = ("InputWeights", "RecurrentWeights", "Bias")

    @classmethod
    def from_options(cls, args: list | tuple, given: dict[str, Any] | None = None) -> Layer:
        layer = super().from_options(args, given)
        has_inputs = bool(layer.values["HasStateInputs"])
        if has_inputs and any(not is_empty(layer.values[s]) for s in cls.STATES):
            raise error("nnet_cnn:layer:StatesWithStateInputs",
                        f"When HasStateInputs is true, {' and '.join(cls.STATES)} must be empty.")
        ins = ["in", *cls.STATE_PORTS] if has_inputs else ["in"]
        outs = ["out", *cls.STATE_PORTS] if layer.values["HasStateOutputs"] else ["out"]
        return layer.copy(InputNames=names_cell(ins), OutputNames=names_cell(outs),
                          NumInputs=float(len(ins)), NumOutputs=float(len(outs)))

    def input_names(self) -> list[str]:
        return ["in", *self.STATE_PORTS] if self.values["HasStateInputs"] else ["in"]

    def output_names(self) -> list[str]:
        return ["out", *self.STATE_PORTS] if self.values["HasStateOutputs"] else ["out"]

    @property
    def hidden_units(self) -> int:
        return as_int(self.values["NumHiddenUnits"])

    def description(self) -> str:
        return f"{self.LAYER_TYPE} with {self.hidden_units} hidden units"

    def bias_rows(self) -> int:
        return self.GATES * self.hidden_units

    def initial_bias(self, ctx: ForwardContext, shape: tuple[int, ...], fan_in: int) -> np.ndarray:
        return initial_values(ctx.interp, self.values["BiasInitializer"], shape, fan_in, shape[0])

    def initialize(self, inputs: list, ctx: ForwardContext) -> Layer:
        layer = check_input_size(self, input_channels(inputs[0], self, self.LAYER_TYPE))
        channels, n = as_int(layer.values["InputSize"]), self.hidden_units
        rows = self.GATES * n
        changes = {
            "InputWeights": made_or_checked(ctx, layer, "InputWeights",
                                            layer.values["InputWeightsInitializer"], (rows, channels),
                                            channels, rows),
            "RecurrentWeights": made_or_checked(ctx, layer, "RecurrentWeights",
                                                layer.values["RecurrentWeightsInitializer"], (rows, n),
                                                n, rows),
        }
        if is_empty(layer.values["Bias"]):
            changes["Bias"] = self.initial_bias(ctx, (self.bias_rows(), 1), channels)
        else:
            changes["Bias"] = made_or_checked(ctx, layer, "Bias", None, (self.bias_rows(), 1), 0, 0)
        if not layer.values["HasStateInputs"]:
            for state in self.STATES:
                value = layer.values[state]
                if is_empty(value):
                    changes[state] = np.zeros((n, 1), dtype=np.float32)
                elif data_of(value).shape[0] != n or data_of(value).ndim != 2:
                    raise error("nnet_cnn:layer:InvalidParameterSize",
                                f"Layer '{layer.name}': {state} must have {n} rows "
                                "(number of hidden units).")
            # what resetState goes back to (not a property: no valid MATLAB name)
            changes[_INITIAL] = tuple(changes.get(s, layer.values[s]) for s in self.STATES)
        return layer.copy(**changes)

    def set_property(self, name: str, value: Any) -> Layer:
        layer = super().set_property(name, value)
        initial = layer.values.get(_INITIAL)
        if name in self.STATES and initial is not None:
            # a state assigned to the layer is also where resetState goes back to
            layer.values[_INITIAL] = tuple(layer.values[s] if s == name else v
                                           for s, v in zip(self.STATES, initial, strict=True))
        return layer

    def reset_state(self) -> Layer:
        """The layer with its hidden (and cell) state back to the values it was initialised
        with (``resetState`` of a network)."""
        initial = self.values.get(_INITIAL)
        if initial is None:
            return self
        # held as the current states are (a network holds its parameters as dlarrays)
        return self.copy(**{name: DlArray(np.asarray(data_of(v))) if type(self.values[name]) is DlArray else v
                            for name, v in zip(self.STATES, initial, strict=True)})

    # ---------------------------------------------------------------- passes

    def _settings(self) -> list:
        return [char_row("StateActivationFunction"), self.values["StateActivationFunction"],
                char_row("GateActivationFunction"), self.values["GateActivationFunction"]]

    def _initial_states(self, inputs: list) -> list:
        if self.values["HasStateInputs"]:
            return [labelled(v, "CB") for v in inputs[1:1 + len(self.STATES)]]
        return [labelled(self.values[s], "CB") for s in self.STATES]

    def _run(self, inputs: list, ctx: ForwardContext) -> tuple[list, list]:
        """The layer's outputs and its final states (formatted 'CB')."""
        x = inputs[0]
        if type(x) is not DlArray or not x.fmt:
            raise error("nnet_cnn:layer:InvalidInputFormat",
                        f"Layer '{self.name}': input must be a formatted dlarray.")
        outs = ctx.call(self.FUNCTION, x, *self._initial_states(inputs), self.values["InputWeights"],
                        self.values["RecurrentWeights"], self.values["Bias"], *self._settings(),
                        nargout=1 + len(self.STATES))
        y, states = outs[0], list(outs[1:])
        if to_str(self.values["OutputMode"]) == "last" and "T" in y.fmt:
            y = states[0]  # the hidden state after the last step is the last output
        results = [y, *states] if self.values["HasStateOutputs"] else [y]
        return results, states

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        return self._run(inputs, ctx)[0]

    def forward(self, inputs: list, ctx: ForwardContext) -> tuple[list, dict[str, Any]]:
        outputs, states = self._run(inputs, ctx)
        if self.values["HasStateInputs"]:
            return outputs, {}
        return outputs, {name: detached(v) for name, v in zip(self.STATES, states, strict=True)}


def _recurrent_properties(bias_initializers: tuple[str, ...], bias_default: str,
                          extra_hyper: tuple[Prop, ...], states: tuple[str, ...]) -> tuple[Prop, ...]:
    return (
        *_ports(),
        Prop("InputSize", lambda: char_row("auto"), HYPER, size_or_auto("InputSize"),
             settable=False),
        Prop("NumHiddenUnits", 1.0, HYPER, positive_integer("NumHiddenUnits"), settable=False,
             option=False),
        Prop("OutputMode", lambda: char_row("sequence"), HYPER,
             checked_text("OutputMode", ("sequence", "last")), settable=False),
        Prop("StateActivationFunction", lambda: char_row("tanh"), HYPER,
             checked_text("StateActivationFunction", _STATE_ACTIVATIONS), settable=False),
        Prop("GateActivationFunction", lambda: char_row("sigmoid"), HYPER,
             checked_text("GateActivationFunction", _GATE_ACTIVATIONS), settable=False),
        *extra_hyper,
        Prop("InputWeights", lambda: EMPTY_VALUE, LEARNABLE, numeric_array("InputWeights")),
        Prop("RecurrentWeights", lambda: EMPTY_VALUE, LEARNABLE,
             numeric_array("RecurrentWeights")),
        Prop("Bias", lambda: EMPTY_VALUE, LEARNABLE, numeric_array("Bias")),
        *(Prop(s, lambda: EMPTY_VALUE, STATE, numeric_array(s)) for s in states),
        Prop("InputWeightsInitializer", lambda: char_row("glorot"), INIT,
             initializer("InputWeightsInitializer"), shown=False),
        Prop("RecurrentWeightsInitializer", lambda: char_row("orthogonal"), INIT,
             initializer("RecurrentWeightsInitializer"), shown=False),
        Prop("BiasInitializer", lambda: char_row(bias_default), INIT,
             initializer("BiasInitializer", bias_initializers), shown=False),
        *_factors(),
    )


class LSTMLayer(_RecurrentLayer):
    """lstmLayer: long short-term memory over the time steps of a sequence."""

    __slots__ = ()
    matlab_class = "nnet.cnn.layer.LSTMLayer"
    LAYER_TYPE = "LSTM"
    DEFAULT_NAME = "lstm"
    STATES = ("HiddenState", "CellState")
    PROPERTIES = _recurrent_properties(_LSTM_BIAS_INITIALIZERS, "unit-forget-gate", (), STATES)

    def initial_bias(self, ctx: ForwardContext, shape: tuple[int, ...], fan_in: int) -> np.ndarray:
        how = self.values["BiasInitializer"]
        if text_option(how) == "unit-forget-gate":
            n = self.hidden_units
            bias = np.zeros(shape, dtype=np.float32)
            bias[n:2 * n] = 1  # the forget gate's rows (input, forget, cell, output order)
            return bias
        return super().initial_bias(ctx, shape, fan_in)


class GRULayer(_RecurrentLayer):
    """gruLayer: gated recurrent unit over the time steps of a sequence."""

    __slots__ = ()
    matlab_class = "nnet.cnn.layer.GRULayer"
    LAYER_TYPE = "GRU"
    DEFAULT_NAME = "gru"
    GATES = 3
    FUNCTION = "gru"
    STATE_PORTS = ("hidden",)
    STATES = ("HiddenState",)
    PROPERTIES = _recurrent_properties(
        _GRU_BIAS_INITIALIZERS, "zeros",
        (Prop("ResetGateMode", lambda: char_row("after-multiplication"), HYPER,
              checked_text("ResetGateMode", ("after-multiplication", "before-multiplication",
                                       "recurrent-bias-after-multiplication")), settable=False),),
        STATES)

    def bias_rows(self) -> int:
        # the recurrent bias follows the input bias in this mode
        rows = self.GATES * self.hidden_units
        mode = to_str(self.values["ResetGateMode"])
        return 2 * rows if mode == "recurrent-bias-after-multiplication" else rows

    def _settings(self) -> list:
        return [*super()._settings(), char_row("ResetGateMode"), self.values["ResetGateMode"]]


def _recurrent(cls: type[_RecurrentLayer], num_hidden_units: Any, settings: tuple) -> Layer:
    hidden = positive_integer("numHiddenUnits")(num_hidden_units)
    return cls.from_options(list(settings), given={"NumHiddenUnits": hidden})


@builtin()
def lstmLayer(num_hidden_units: object, *settings: object) -> object:
    """lstmLayer  long short-term memory (LSTM) layer
    layer = lstmLayer(numHiddenUnits)  an LSTM layer with that many hidden units
    layer = lstmLayer(numHiddenUnits, Name=Value)  also OutputMode ('sequence' or 'last'),
        HasStateInputs, HasStateOutputs, StateActivationFunction ('tanh', 'softsign'),
        GateActivationFunction ('sigmoid', 'hard-sigmoid'), InputWeightsInitializer
        ('glorot'), RecurrentWeightsInitializer ('orthogonal'), BiasInitializer
        ('unit-forget-gate', 'narrow-normal', 'ones'), InputWeights, RecurrentWeights, Bias,
        HiddenState, CellState, learning-rate and L2 factors, and Name."""
    return _recurrent(LSTMLayer, num_hidden_units, settings)


@builtin()
def gruLayer(num_hidden_units: object, *settings: object) -> object:
    """gruLayer  gated recurrent unit (GRU) layer
    layer = gruLayer(numHiddenUnits)  a GRU layer with that many hidden units
    layer = gruLayer(numHiddenUnits, Name=Value)  also OutputMode, HasStateInputs,
        HasStateOutputs, StateActivationFunction, GateActivationFunction, ResetGateMode
        ('after-multiplication', 'before-multiplication',
        'recurrent-bias-after-multiplication'), the initialisers (BiasInitializer 'zeros'),
        InputWeights, RecurrentWeights, Bias, HiddenState and Name."""
    return _recurrent(GRULayer, num_hidden_units, settings)


# ------------------------------------------------------------ embedding


def _mask_index(value: Any) -> Any:
    if is_empty(value) and not is_text(value):
        return EMPTY_VALUE
    return positive_integer("MaskIndex")(value)


class EmbeddingLayer(Layer):
    """embeddingLayer: numeric indices (a singleton channel dimension) to learned vectors."""

    __slots__ = ()
    matlab_class = "nnet.cnn.layer.EmbeddingLayer"
    LAYER_TYPE = "Embedding"
    DEFAULT_NAME = "embedding"
    LEARNABLES = ("Weights",)
    PROPERTIES = (
        Prop("Name", char_row(""), "", checked_name),
        Prop("OutputSize", 1.0, HYPER, positive_integer("OutputSize"), settable=False,
             option=False),
        Prop("MaxIndex", 1.0, HYPER, positive_integer("MaxIndex"), settable=False, option=False),
        Prop("MaskIndex", lambda: EMPTY_VALUE, HYPER, _mask_index, settable=False),
        Prop("Weights", lambda: EMPTY_VALUE, LEARNABLE, numeric_array("Weights")),
        Prop("WeightsInitializer", lambda: char_row("narrow-normal"), INIT,
             initializer("WeightsInitializer"), shown=False),
        Prop("WeightLearnRateFactor", 1.0, RATES, nonnegative_scalar("WeightLearnRateFactor"), shown=False),
        Prop("WeightL2Factor", 1.0, RATES, nonnegative_scalar("WeightL2Factor"), shown=False),
    )

    def description(self) -> str:
        return (f"Embedding layer with output size {as_int(self.values['OutputSize'])} and maximum "
                f"index {as_int(self.values['MaxIndex'])}")

    def initialize(self, inputs: list, ctx: ForwardContext) -> Layer:
        x = inputs[0]
        if type(x) is DlArray and "C" in x.fmt and x.shape[x.fmt.index("C")] != 1:
            raise error("nnet_cnn:layer:InvalidInputFormat",
                        f"Layer '{self.name}': input must have a singleton channel ('C') dimension.")
        out, words = as_int(self.values["OutputSize"]), as_int(self.values["MaxIndex"])
        weights = made_or_checked(ctx, self, "Weights", self.values["WeightsInitializer"], (out, words),
                                  words, out)
        return self.copy(Weights=weights)

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        x = inputs[0]
        if type(x) is DlArray and x.data.size and not np.any(x.data):
            # an input layer's all-zero example, from which a network infers the sizes after
            # this layer: zero vectors of the output's size (indices start at 1)
            ones = DlArray(np.ones_like(x.data), x.fmt)
            return [ctx.call("times", ctx.call("embed", ones, self.values["Weights"]), 0.0)]
        y = ctx.call("embed", x, self.values["Weights"])
        mask = self.values["MaskIndex"]
        if not is_empty(mask):
            # observations equal to the mask index give zero vectors
            keep = (data_of(x) != as_int(mask)).astype(data_of(y).dtype)
            y = ctx.call("times", y, keep.reshape(_mask_shape(x, y)))
        return [y]


def _mask_shape(x: DlArray, y: DlArray) -> tuple[int, ...]:
    """The shape of the input's keep-mask broadcast over the output's channel dimension."""
    shape = list(y.shape) + [1] * (len(y.fmt) - len(y.shape))
    shape[y.fmt.index("C")] = 1
    return tuple(shape)


@builtin()
def embeddingLayer(output_size: object, max_index: object, *settings: object) -> object:
    """embeddingLayer  embedding layer: maps indices to learned vectors
    layer = embeddingLayer(outputSize, maxIndex)  vectors of outputSize channels for the
        indices 1 to maxIndex
    layer = embeddingLayer(outputSize, maxIndex, Name=Value)  also MaskIndex, Weights,
        WeightsInitializer ('narrow-normal', 'glorot', 'he', 'orthogonal', 'zeros',
        'ones' or a function handle), WeightLearnRateFactor, WeightL2Factor and Name."""
    given = {"OutputSize": positive_integer("outputSize")(output_size),
             "MaxIndex": positive_integer("maxIndex")(max_index)}
    return EmbeddingLayer.from_options(list(settings), given=given)
