"""Small layer classes for the dlnetwork tests: a feature input, a fully connected layer, tanh,
a two-input addition and a layer with a state updated in training.  They follow the layer
contract (``mlang/builtins/networks/layer.py``) and compute through the functional builtins,
so the network tests do not depend on the layer library."""

from __future__ import annotations

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.networks.initializers import initial_values
from mlang.builtins.networks.layer import Layer, Prop
from mlang.values.core import char_row


class TinyInput(Layer):
    matlab_class = "nettest.TinyInput"
    LAYER_TYPE = "Feature Input"
    DEFAULT_NAME = "input"
    IS_INPUT = True
    PROPERTIES = (Prop("Name", char_row("")), Prop("InputSize", 2.0, "Hyperparameters"))

    def description(self):
        return f"{int(self.values['InputSize'])} features"

    def input_example(self):
        return DlArray(np.zeros((int(self.values["InputSize"]), 1), dtype=np.float32), "CB")

    def predict(self, inputs, ctx):
        return [inputs[0]]


class TinyFC(Layer):
    matlab_class = "nettest.TinyFC"
    LAYER_TYPE = "Fully Connected"
    DEFAULT_NAME = "fc"
    PROPERTIES = (Prop("Name", char_row("")), Prop("OutputSize", 1.0, "Hyperparameters"),
                  Prop("Weights", np.zeros((0, 0)), "Learnable Parameters"),
                  Prop("Bias", np.zeros((0, 0)), "Learnable Parameters"))
    LEARNABLES = ("Weights", "Bias")

    def initialize(self, inputs, ctx):
        n = int(self.values["OutputSize"])
        c = int(np.shape(inputs[0].data)[0])
        changes = {}
        if np.size(getattr(self.values["Weights"], "data", self.values["Weights"])) == 0:
            changes["Weights"] = initial_values(ctx.interp, "glorot", (n, c), c, n)
        if np.size(getattr(self.values["Bias"], "data", self.values["Bias"])) == 0:
            changes["Bias"] = np.zeros((n, 1), dtype=np.float32)
        return self.copy(**changes)

    def predict(self, inputs, ctx):
        return [ctx.call("fullyconnect", inputs[0], self.values["Weights"], self.values["Bias"])]


class TinyTanh(Layer):
    matlab_class = "nettest.TinyTanh"
    LAYER_TYPE = "Tanh"
    DEFAULT_NAME = "tanh"
    PROPERTIES = (Prop("Name", char_row("")),)

    def predict(self, inputs, ctx):
        return [ctx.call("tanh", inputs[0])]


class TinyAdd(Layer):
    matlab_class = "nettest.TinyAdd"
    LAYER_TYPE = "Addition"
    DEFAULT_NAME = "add"
    PROPERTIES = (Prop("Name", char_row("")),)

    def input_names(self):
        return ["in1", "in2"]

    def predict(self, inputs, ctx):
        return [ctx.call("plus", inputs[0], inputs[1])]


class TinyNorm(Layer):
    """A running-mean state, updated in training."""
    matlab_class = "nettest.TinyNorm"
    LAYER_TYPE = "Norm"
    DEFAULT_NAME = "norm"
    PROPERTIES = (Prop("Name", char_row("")), Prop("TrainedMean", np.zeros((0, 0)), "State Parameters"))
    STATES = ("TrainedMean",)

    def initialize(self, inputs, ctx):
        c = int(np.shape(inputs[0].data)[0])
        if np.size(getattr(self.values["TrainedMean"], "data", self.values["TrainedMean"])) == 0:
            return self.copy(TrainedMean=np.zeros((c, 1), dtype=np.float32))
        return self

    def predict(self, inputs, ctx):
        return [ctx.call("minus", inputs[0], self.values["TrainedMean"])]

    def forward(self, inputs, ctx):
        x = inputs[0]
        mean = ctx.call("mean", ctx.call("stripdims", x), 2.0)
        return [ctx.call("minus", x, mean)], {"TrainedMean": mean}


def named(name: str) -> dict:
    return {"Name": char_row(name)} if name else {}


def feature_input(size: int = 2, name: str = "") -> TinyInput:
    return TinyInput({"InputSize": float(size), **named(name)})


def fc(size: int, name: str = "") -> TinyFC:
    return TinyFC({"OutputSize": float(size), **named(name)})


def tanh(name: str = "") -> TinyTanh:
    return TinyTanh(named(name))


def add(name: str = "") -> TinyAdd:
    return TinyAdd(named(name))


def norm(name: str = "") -> TinyNorm:
    return TinyNorm(named(name))
