"""Arrays of layers: ``[featureInputLayer(2); fullyConnectedLayer(10); reluLayer]``.

A layer array is a column (or row) of layer objects of any classes (class
``nnet.cnn.layer.Layer``).  One layer is a 1-by-1 array: indexing an array with one
position gives the ``Layer`` itself, and concatenating layers gives a ``LayerArray``.
"""

from __future__ import annotations

from typing import Any

from mlang.builtins.networks.layer import Layer
from mlang.values.objects import MatlabObject


class LayerArray(MatlabObject):
    """Several layers (or none), as a column or a row."""

    __slots__ = ("layers", "column")
    matlab_class = "nnet.cnn.layer.Layer"

    def __init__(self, layers: list[Layer], column: bool = True) -> None:
        self.layers = list(layers)
        self.column = column

    @property
    def shape(self) -> tuple[int, ...]:
        n = len(self.layers)
        return (n, 1) if self.column else (1, n)


def layer_array(layers: list[Layer], column: bool = True) -> Layer | LayerArray:
    """The MATLAB value of a list of layers: the layer itself when there is one."""
    return layers[0] if len(layers) == 1 else LayerArray(layers, column)


def layers_of(value: Any) -> list[Layer] | None:
    """The layers of a layer or a layer array, in order; None for any other value."""
    if isinstance(value, Layer):
        return [value]
    if type(value) is LayerArray:
        return list(value.layers)
    return None
