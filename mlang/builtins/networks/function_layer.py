"""functionLayer: a layer that applies a MATLAB function (a function handle) to its inputs.

The function is called through the interpreter, so whatever it computes with dlarrays is
traced like any other MATLAB code.  With ``Formattable`` false (the default) it receives
unformatted dlarrays whose dimensions are in the order of the inputs' data format
(S, C, B, T, U) and its outputs are given the format of the first input; with
``Formattable`` true it receives the formatted dlarrays and must return formatted ones.
``Acceleratable`` is accepted and changes nothing: every call computes the same results.
"""

from __future__ import annotations

from typing import Any

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import option_flag, text_list, text_or_none
from mlang.builtins.networks.combine_layers import (
    NAME,
    layer_input_error,
    numbered_names,
    positive_count,
)
from mlang.builtins.networks.layer import ForwardContext, Layer, Prop, read_only_error
from mlang.errors import MatlabError, error
from mlang.registry import BUILTINS, builtin
from mlang.values.core import char_row, to_str
from mlang.values.handle import FunctionHandle
from mlang.values.table import cellstr_row

# Options MATLAB keeps out of the layer's short display ("Show all properties").
HIDDEN_OPTIONS = ("NumInputs", "NumOutputs", "InputNames", "OutputNames", "Description")
SETTABLE_HIDDEN = ("Description",)


def _flag(value: Any) -> bool:
    return option_flag(value, "Value")


class FunctionLayer(Layer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.FunctionLayer"
    LAYER_TYPE = "Function"
    DEFAULT_NAME = "layer"
    PROPERTIES = (
        NAME,
        Prop("PredictFcn", None, "", settable=False, option=False),
        Prop("Formattable", False, "", _flag, settable=False),
        Prop("Acceleratable", False, "", _flag, settable=False),
    )

    @property
    def num_inputs(self) -> int:
        return int(self.values["NumInputs"])

    @property
    def num_outputs(self) -> int:
        return int(self.values["NumOutputs"])

    def input_names(self) -> list[str]:
        return text_list(self.values["InputNames"])

    def output_names(self) -> list[str]:
        return text_list(self.values["OutputNames"])

    def description(self) -> str:
        return to_str(self.values["Description"])

    def set_property(self, name: str, value: Any) -> Layer:
        if name in SETTABLE_HIDDEN:
            return self.copy(**{name: _description(value)})
        if name in HIDDEN_OPTIONS:
            raise read_only_error(self, name)
        return super().set_property(name, value)

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        if len(inputs) != self.num_inputs:
            raise layer_input_error(self, f"Layer requires {self.num_inputs} inputs but "
                                          f"received {len(inputs)}.")
        formattable = bool(self.values["Formattable"])
        if formattable:
            args = list(inputs)
        else:
            # the data in its format's dimension order, without the labels
            args = [ctx.call("stripdims", x) if type(x) is DlArray and x.fmt else x for x in inputs]
        outs = ctx.interp.call_handle(self.values["PredictFcn"], args, self.num_outputs)
        if len(outs) < self.num_outputs:
            raise error("MATLAB:maxlhs", "Too many output arguments.")
        outs = outs[:self.num_outputs]
        if formattable:
            for k, out in enumerate(outs):
                if type(out) is not DlArray or not out.fmt:
                    raise error("deep:functionLayer:OutputNotFormatted",
                                f"Layer '{self.name}': Output {k + 1} of the layer function must "
                                "be a formatted dlarray object because the layer is "
                                "formattable (Formattable is true).")
            return outs
        fmt = inputs[0].fmt if inputs and type(inputs[0]) is DlArray else ""
        return [_with_format(out, fmt, ctx) for out in outs]


def _with_format(out: Any, fmt: str, ctx: ForwardContext) -> Any:
    """A function's output given the data format of the layer's input."""
    if type(out) is DlArray and out.fmt:
        out = ctx.call("stripdims", out)
    if not fmt:
        return out if type(out) is DlArray else ctx.call("dlarray", out)
    return ctx.call("dlarray", out, char_row(fmt))


def _description(value: Any) -> Any:
    text = text_or_none(value)
    if text is None:
        raise error("MATLAB:validators:mustBeTextScalar",
                    "Value must be a string scalar or a character vector.")
    return char_row(text)


def _names(value: Any, what: str) -> list[str]:
    try:
        names = text_list(value, what)
    except MatlabError:
        raise error("MATLAB:validators:mustBeText",
                    f"{what} must be a string array, character vector, or cell array of "
                    "character vectors.") from None
    if any(not n for n in names) or len(set(names)) != len(names):
        raise error("deep:functionLayer:InvalidNames",
                    f"{what} must be nonempty and unique.")
    return names


def _ports(given: dict[str, Any], count_key: str, names_key: str, prefix: str) -> tuple[int, list[str]]:
    """The number of inputs (or outputs) and their names, from the options given."""
    names = _names(given[names_key], names_key) if names_key in given else None
    if count_key in given:
        count = positive_count(given[count_key], None, 1)
        if names is not None and len(names) != count:
            raise error("deep:functionLayer:NamesCountMismatch",
                        f"The number of {names_key} must match {count_key}.")
    else:
        count = len(names) if names is not None else 1
    return count, names if names is not None else numbered_names(prefix, count)


@builtin("functionLayer", interp=True)
def function_layer(interp: Any, fun: Any, *options: Any) -> Layer:
    """layer = functionLayer(fun)  layer applying the function handle fun to its input
    layer = functionLayer(fun, Name=Value)  with options NumInputs, NumOutputs,
    InputNames, OutputNames, Formattable (false: fun receives unformatted dlarrays and its
    outputs get the input's format), Acceleratable, Description and Name"""
    if type(fun) is not FunctionHandle:
        raise error("MATLAB:validation:UnableToConvert",
                    "Invalid argument at position 1. Value must be a function handle.")
    hidden: dict[str, Any] = {}
    shown: list = []
    if len(options) % 2:
        raise error("MATLAB:InputParser:ParamMissingValue",
                    "Parameter names must be followed by values.")
    by_lower = {n.lower(): n for n in HIDDEN_OPTIONS}
    for k in range(0, len(options), 2):
        key = text_or_none(options[k])
        if key is not None and key.lower() in by_lower:
            hidden[by_lower[key.lower()]] = options[k + 1]
        else:
            shown += [options[k], options[k + 1]]
    layer = FunctionLayer.from_options(shown, {"PredictFcn": fun})
    n_in, in_names = _ports(hidden, "NumInputs", "InputNames", "in")
    n_out, out_names = _ports(hidden, "NumOutputs", "OutputNames", "out")
    if "Description" in hidden:
        description = _description(hidden["Description"])
    else:
        description = BUILTINS["func2str"].call(interp, [fun], 1)[0]
    layer.values.update(NumInputs=float(n_in), InputNames=cellstr_row(in_names),
                        NumOutputs=float(n_out), OutputNames=cellstr_row(out_names),
                        Description=description)
    return layer
