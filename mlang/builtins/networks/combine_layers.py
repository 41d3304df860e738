"""Combination layers: additionLayer, multiplicationLayer, concatenationLayer and
depthConcatenationLayer.

Each takes ``NumInputs`` inputs (named "in1", "in2", ...) and gives one output.  Addition and
multiplication are element-wise, with singleton dimensions expanded as MATLAB's operators
expand them; the concatenations join their inputs along one dimension.  All the computing
goes through the builtins (``plus``, ``times``, ``cat``), so a trace records it.
"""

from __future__ import annotations

from typing import Any

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import integer_scalar, text_or_none
from mlang.builtins.networks.layer import ForwardContext, Layer, Prop, read_only_error
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row
from mlang.values.table import cellstr_row

# ------------------------------------------------------------------ shared checks


MAX_PORTS = 1_000_000  # the most inputs or outputs a layer may have


def check_layer_name(value: Any) -> Any:
    """A layer's Name: a text scalar, kept as a char row."""
    text = text_or_none(value)
    if text is None:
        raise error("MATLAB:validators:mustBeTextScalar",
                    "Value must be a string scalar or a character vector.")
    return char_row(text)


def positive_count(value: Any, position: int | None, smallest: int) -> int:
    """A count argument (NumInputs, Dim): an integer scalar of at least ``smallest``;
    ``position`` names a positional argument in the message (None for an option)."""
    where = f"Invalid argument at position {position}. " if position is not None else ""
    n = integer_scalar(value, f"{where}Value must be integer.", "MATLAB:validators:mustBeInteger")
    if n < smallest:
        raise error("MATLAB:validators:mustBeGreaterThanOrEqual",
                    f"{where}Value must be greater than or equal to {smallest}.")
    return n


def numbered_names(prefix: str, count: int) -> list[str]:
    """Port names: ``prefix`` alone for one port, else prefix1, prefix2, ..."""
    if count > MAX_PORTS:  # a name per port: more would not fit in memory
        raise error("MATLAB:nomem", "Out of memory.")
    return [prefix] if count == 1 else [f"{prefix}{k}" for k in range(1, count + 1)]


def layer_input_error(layer: Layer, message: str) -> Exception:
    shown = layer.name
    return error("deep:layers:InvalidLayerInput", f"Layer '{shown}': {message}")


NAME = Prop("Name", lambda: char_row(""), "", check_layer_name)

# Properties MATLAB keeps out of the short display ("Show all properties"): readable,
# never settable.
HIDDEN_READ_ONLY = ("NumOutputs", "OutputNames")


class CombinationLayer(Layer):
    """A layer of NumInputs inputs and one output."""

    __slots__ = ()
    DEFAULT_NAME = "combine"
    PROPERTIES = (
        NAME,
        Prop("NumInputs", 2.0, "", settable=False, option=False),
        Prop("InputNames", lambda: cellstr_row(["in1", "in2"]), "", settable=False, option=False),
    )

    @classmethod
    def build(cls, num_inputs: int, args: list | tuple, given: dict[str, Any] | None = None
              ) -> Layer:
        values = {"NumInputs": float(num_inputs),
                  "InputNames": cellstr_row(numbered_names("in", num_inputs)),
                  **(given or {})}
        layer = cls.from_options(args, values)
        layer.values["NumOutputs"] = 1.0
        layer.values["OutputNames"] = cellstr_row(["out"])
        return layer

    @property
    def num_inputs(self) -> int:
        return int(self.values["NumInputs"])

    def input_names(self) -> list[str]:
        return numbered_names("in", self.num_inputs)

    def set_property(self, name: str, value: Any) -> Layer:
        if name in HIDDEN_READ_ONLY:
            raise read_only_error(self, name)
        return super().set_property(name, value)

    def checked_inputs(self, inputs: list) -> list[DlArray]:
        """The inputs, after checking their count and that they share one data format."""
        if len(inputs) != self.num_inputs:
            raise layer_input_error(self, f"Layer requires {self.num_inputs} inputs but "
                                          f"received {len(inputs)}.")
        formats = [x.fmt if type(x) is DlArray else "" for x in inputs]
        if any(f != formats[0] for f in formats[1:]):
            shown = ", ".join(f"'{f}'" for f in formats)
            raise layer_input_error(self, f"Inputs must have the same data format. The input "
                                          f"formats are {shown}.")
        return inputs


class ElementwiseLayer(CombinationLayer):
    """Inputs combined element-wise by one binary builtin (singleton expansion allowed)."""

    __slots__ = ()
    OPERATION = "plus"
    WORD = "addition"

    def description(self) -> str:
        return f"Element-wise {self.WORD} of {self.num_inputs} inputs"

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        xs = self.checked_inputs(inputs)
        out = xs[0]
        for x in xs[1:]:
            out = ctx.call(self.OPERATION, out, x)
        return [out]


class AdditionLayer(ElementwiseLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.AdditionLayer"
    LAYER_TYPE = "Addition"
    DEFAULT_NAME = "addition"
    OPERATION = "plus"
    WORD = "addition"


class MultiplicationLayer(ElementwiseLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.MultiplicationLayer"
    LAYER_TYPE = "Multiplication"
    DEFAULT_NAME = "multiplication"
    OPERATION = "times"
    WORD = "multiplication"


def concatenated(layer: CombinationLayer, inputs: list, axis: int, ctx: ForwardContext) -> list:
    """The inputs joined along dimension ``axis`` (1-based) by ``cat``."""
    return [ctx.call("cat", float(axis), *inputs)]


class ConcatenationLayer(CombinationLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.ConcatenationLayer"
    LAYER_TYPE = "Concatenation"
    DEFAULT_NAME = "concat"
    PROPERTIES = (
        NAME,
        Prop("Dim", 1.0, "", settable=False, option=False),
        *CombinationLayer.PROPERTIES[1:],
    )

    def description(self) -> str:
        return f"Concatenation of {self.num_inputs} inputs along dimension {int(self.values['Dim'])}"

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        xs = self.checked_inputs(inputs)
        dim = int(self.values["Dim"])
        fmt = xs[0].fmt if type(xs[0]) is DlArray else ""
        if fmt and dim > len(fmt):
            raise layer_input_error(self, f"Concatenation dimension {dim} exceeds the number of "
                                          f"dimensions of the input data format '{fmt}'.")
        return concatenated(self, xs, dim, ctx)


class DepthConcatenationLayer(CombinationLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.DepthConcatenationLayer"
    LAYER_TYPE = "Depth concatenation"
    DEFAULT_NAME = "depthcat"

    def description(self) -> str:
        return f"Depth concatenation of {self.num_inputs} inputs"

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        xs = self.checked_inputs(inputs)
        fmt = xs[0].fmt if type(xs[0]) is DlArray else ""
        if "C" not in fmt:
            raise layer_input_error(self, "Input data must have a channel ('C') dimension.")
        return concatenated(self, xs, fmt.index("C") + 1, ctx)


# ------------------------------------------------------------------ constructors


@builtin("additionLayer")
def addition_layer(num_inputs: Any, *options: Any) -> Layer:
    """layer = additionLayer(numInputs)  addition layer: adds numInputs inputs element-wise
    layer = additionLayer(numInputs, Name=name)  with a name
    The inputs are named "in1", "in2", ..., "inN"."""
    return AdditionLayer.build(positive_count(num_inputs, 1, 2), options)


@builtin("multiplicationLayer")
def multiplication_layer(num_inputs: Any, *options: Any) -> Layer:
    """layer = multiplicationLayer(numInputs)  multiplication layer: multiplies numInputs
    inputs element-wise
    layer = multiplicationLayer(numInputs, Name=name)  with a name"""
    return MultiplicationLayer.build(positive_count(num_inputs, 1, 2), options)


@builtin("concatenationLayer")
def concatenation_layer(dim: Any, num_inputs: Any, *options: Any) -> Layer:
    """layer = concatenationLayer(dim, numInputs)  concatenation layer: joins numInputs inputs
    along dimension dim
    layer = concatenationLayer(dim, numInputs, Name=name)  with a name"""
    dim_value = positive_count(dim, 1, 1)
    return ConcatenationLayer.build(positive_count(num_inputs, 2, 2), options,
                                    {"Dim": float(dim_value)})


@builtin("depthConcatenationLayer")
def depth_concatenation_layer(num_inputs: Any, *options: Any) -> Layer:
    """layer = depthConcatenationLayer(numInputs)  depth concatenation layer: joins numInputs
    inputs along the channel dimension
    layer = depthConcatenationLayer(numInputs, Name=name)  with a name"""
    return DepthConcatenationLayer.build(positive_count(num_inputs, 1, 2), options)
