"""Pooling layers: maxPooling1dLayer, maxPooling2dLayer, averagePooling1dLayer,
averagePooling2dLayer and the global pooling layers (1-D and 2-D, average and max).

They compute through ``maxpool`` and ``avgpool``.  A 1-D layer pools 1-D images ('SCB')
and 1-D image sequences ('SCBT') over 'S', and sequences ('CBT') over time; a 2-D layer
pools 2-D images over their two 'S' dimensions and 1-D image sequences over 'S' and
'T'.  A 1-D global layer on sequences gives one value per sequence ('CBT' in, 'CB' out).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import option_flag
from mlang.builtins.networks.conv_layers import (
    name_prop,
    number_text,
    numbers_of,
    padding_option,
    positive_integers,
    row,
    size_text,
    split_option,
    text_choice,
)
from mlang.builtins.networks.layer import (
    HYPER,
    ForwardContext,
    Layer,
    Prop,
    register_constructors,
)
from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, to_str


def _check_format(layer: Layer, x: Any, k: int) -> str:
    """The pool format option for the input ('ST' when a 2-D layer pools 'S' and 'T'),
    after checking that the layer can pool this input."""
    fmt = x.fmt if type(x) is DlArray else ""
    spatial = fmt.count("S")
    if k == 2 and spatial == 1 and "T" in fmt:
        return "ST"
    if spatial == k or (k == 1 and spatial == 0 and "T" in fmt):
        return ""
    raise error("nnet_cnn:internal:cnn:layer:InvalidInputFormat",
                f"Layer '{layer.name}': invalid input data format '{fmt}' for a {k}-D pooling layer.")


class _PoolingLayer(Layer):
    """What the windowed pooling layers share; ``K`` is 1 or 2, ``FUNCTION`` the builtin."""

    K: ClassVar[int] = 2
    FUNCTION: ClassVar[str] = "maxpool"
    KIND: ClassVar[str] = "max pooling"

    @classmethod
    def make(cls, pool_size: Any, args: tuple) -> Layer:
        rest, padding = split_option(args, "Padding")
        layer = cls.from_options(rest, {"PoolSize": positive_integers(pool_size, cls.K, "poolSize")})
        if padding is not None:
            mode, size = padding_option(padding, cls.K, ("same",))
            layer = layer.copy(PaddingMode=char_row(mode), PaddingSize=size)
        return layer

    def description(self) -> str:
        mode = to_str(self.values["PaddingMode"])
        padding = f"'{mode}'" if mode != "manual" else number_text(self.values["PaddingSize"])
        return (f"{size_text(self.values['PoolSize'])} {self.KIND} with stride "
                f"{number_text(self.values['Stride'])} and padding {padding}")

    def _options(self, x: Any) -> list:
        pool_format = _check_format(self, x, self.K)
        mode = to_str(self.values["PaddingMode"])
        options = [char_row("Stride"), self.values["Stride"], char_row("Padding"),
                   char_row(mode) if mode != "manual" else self.values["PaddingSize"]]
        if pool_format:
            options += [char_row("PoolFormat"), char_row(pool_format)]
        return options

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        x = inputs[0]
        options = self._options(x)
        value = self.values.get("PaddingValue", 0.0)
        if self.FUNCTION == "avgpool" and not (isinstance(value, float) and value == 0.0):
            options += [char_row("PaddingValue"), value]
        return [ctx.call(self.FUNCTION, x, self.values["PoolSize"], *options)]


def _pool_props(k: int, average: bool) -> tuple[Prop, ...]:
    size = 1.0 if k == 1 else (lambda: row([1.0, 1.0]))
    top: tuple[Prop, ...] = (name_prop(),)
    if not average and k == 2:
        top += (Prop("HasUnpoolingOutputs", False, "", lambda v: option_flag(v, "HasUnpoolingOutputs"),
                     settable=False),
                Prop("NumOutputs", 1.0, "", settable=False, option=False),
                Prop("OutputNames", lambda: Cell.row([char_row("out")]), "", settable=False, option=False))
    tail: tuple[Prop, ...] = ()
    if average:
        tail = (Prop("PaddingValue", 0.0, HYPER, _average_padding_value),)
    return (*top,
            Prop("PoolSize", 2.0 if k == 1 else (lambda: row([2.0, 2.0])), HYPER, settable=False,
                 option=False),
            Prop("Stride", size, HYPER, lambda v: positive_integers(v, k, "Stride")),
            Prop("PaddingMode", lambda: char_row("manual"), HYPER, settable=False, option=False),
            Prop("PaddingSize", lambda: row(np.zeros(2 * k)), HYPER, settable=False, option=False),
            *tail)


def _average_padding_value(value: Any) -> Any:
    if class_of(value) in ("char", "string"):
        return text_choice("PaddingValue", ("mean",))(value)
    a = numbers_of(value, "PaddingValue")
    if a.size != 1 or a[0] != 0:
        raise error("MATLAB:validators:mustBeMember", "Value of 'PaddingValue' must be 0 or 'mean'.")
    return 0.0


class MaxPooling2DLayer(_PoolingLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.MaxPooling2DLayer"
    LAYER_TYPE = "2-D Max Pooling"
    DEFAULT_NAME = "maxpool"
    PROPERTIES = _pool_props(2, False)

    @classmethod
    def make(cls, pool_size: Any, args: tuple) -> Layer:
        layer = super().make(pool_size, args)
        names = layer.output_names()
        return layer.copy(NumOutputs=float(len(names)), OutputNames=Cell.row([char_row(n) for n in names]))

    def output_names(self) -> list[str]:
        # with unpooling outputs, the positions of the maxima and the input size for maxunpool
        return ["out", "indices", "size"] if self.values["HasUnpoolingOutputs"] else ["out"]

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        if not self.values["HasUnpoolingOutputs"]:
            return super().predict(inputs, ctx)
        x = inputs[0]
        return list(ctx.call("maxpool", x, self.values["PoolSize"], *self._options(x), nargout=3))


class MaxPooling1DLayer(_PoolingLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.MaxPooling1DLayer"
    LAYER_TYPE = "1-D Max Pooling"
    DEFAULT_NAME = "maxpool1d"
    K = 1
    PROPERTIES = _pool_props(1, False)


class AveragePooling2DLayer(_PoolingLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.AveragePooling2DLayer"
    LAYER_TYPE = "2-D Average Pooling"
    DEFAULT_NAME = "avgpool"
    FUNCTION = "avgpool"
    KIND = "average pooling"
    PROPERTIES = _pool_props(2, True)


class AveragePooling1DLayer(_PoolingLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.AveragePooling1DLayer"
    LAYER_TYPE = "1-D Average Pooling"
    DEFAULT_NAME = "avgpool1d"
    FUNCTION = "avgpool"
    KIND = "average pooling"
    K = 1
    PROPERTIES = _pool_props(1, True)


class _GlobalPoolingLayer(Layer):
    """Global pooling: the whole of each pooled dimension becomes one value."""

    K: ClassVar[int] = 2
    FUNCTION: ClassVar[str] = "avgpool"
    PROPERTIES = (name_prop(),)

    def description(self) -> str:
        return f"{self.K}-D global {'max' if self.FUNCTION == 'maxpool' else 'average'} pooling"

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        x = inputs[0]
        pool_format = _check_format(self, x, self.K)
        options = [char_row("PoolFormat"), char_row(pool_format)] if pool_format else []
        y = ctx.call(self.FUNCTION, x, char_row("global"), *options)
        if self.K == 1 and "S" not in x.fmt:  # sequences: one value per sequence
            fmt = x.fmt.replace("T", "")
            y = ctx.call("dlarray", ctx.call("stripdims", y), char_row(fmt))
        return [y]


class GlobalAveragePooling2DLayer(_GlobalPoolingLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.GlobalAveragePooling2DLayer"
    LAYER_TYPE = "2-D Global Average Pooling"
    DEFAULT_NAME = "gapool"


class GlobalAveragePooling1DLayer(_GlobalPoolingLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.GlobalAveragePooling1DLayer"
    LAYER_TYPE = "1-D Global Average Pooling"
    DEFAULT_NAME = "gapool1d"
    K = 1


class GlobalMaxPooling2DLayer(_GlobalPoolingLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.GlobalMaxPooling2DLayer"
    LAYER_TYPE = "2-D Global Max Pooling"
    DEFAULT_NAME = "gmpool"
    FUNCTION = "maxpool"


class GlobalMaxPooling1DLayer(_GlobalPoolingLayer):
    __slots__ = ()
    matlab_class = "nnet.cnn.layer.GlobalMaxPooling1DLayer"
    LAYER_TYPE = "1-D Global Max Pooling"
    DEFAULT_NAME = "gmpool1d"
    FUNCTION = "maxpool"
    K = 1


# ------------------------------------------------------------------ constructors


# the windowed layers take the pool size first, then name=value options
register_constructors({
    "maxPooling2dLayer": (
        MaxPooling2DLayer,
        """layer = maxPooling2dLayer(poolSize)  2-D max pooling layer

    layer = maxPooling2dLayer(poolSize, Name=Value)
    poolSize: h or [h w]
    Options: Stride ([1 1]), Padding (0, 'same', [a b] or [t b l r]), Name"""),
    "maxPooling1dLayer": (
        MaxPooling1DLayer,
        """layer = maxPooling1dLayer(poolSize)  1-D max pooling layer

    layer = maxPooling1dLayer(poolSize, Name=Value)
    Pools 1-D images ('SCB') over 'S' and sequences ('CBT') over time
    Options: Stride (1), Padding (0, 'same' or [l r]), Name"""),
    "averagePooling2dLayer": (
        AveragePooling2DLayer,
        """layer = averagePooling2dLayer(poolSize)  2-D average pooling layer

    layer = averagePooling2dLayer(poolSize, Name=Value)
    Options: Stride ([1 1]), Padding (0, 'same', [a b] or [t b l r]), PaddingValue (0, or
    'mean' to average over the input elements only), Name"""),
    "averagePooling1dLayer": (
        AveragePooling1DLayer,
        """layer = averagePooling1dLayer(poolSize)  1-D average pooling layer

    layer = averagePooling1dLayer(poolSize, Name=Value)
    Options: Stride (1), Padding (0, 'same' or [l r]), PaddingValue (0 or 'mean'), Name"""),
}, leading=("poolSize",))


register_constructors({
    "globalAveragePooling2dLayer": (
        GlobalAveragePooling2DLayer,
        """layer = globalAveragePooling2dLayer  2-D global average pooling layer

    layer = globalAveragePooling2dLayer(Name=name)"""),
    "globalAveragePooling1dLayer": (
        GlobalAveragePooling1DLayer,
        """layer = globalAveragePooling1dLayer  1-D global average pooling layer

    layer = globalAveragePooling1dLayer(Name=name)
    Sequences ('CBT') give one value per sequence and channel ('CB')"""),
    "globalMaxPooling2dLayer": (
        GlobalMaxPooling2DLayer,
        """layer = globalMaxPooling2dLayer  2-D global max pooling layer

    layer = globalMaxPooling2dLayer(Name=name)"""),
    "globalMaxPooling1dLayer": (
        GlobalMaxPooling1DLayer,
        """layer = globalMaxPooling1dLayer  1-D global max pooling layer

    layer = globalMaxPooling1dLayer(Name=name)
    Sequences ('CBT') give one value per sequence and channel ('CB')"""),
})
