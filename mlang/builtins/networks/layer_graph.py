"""layerGraph: a graph of layers without parameters of its own (the older way of assembling
a network before ``dlnetwork``).  It shares the graph code of dlnetwork
(``network_graph.Graph``) and its editing functions (``network_functions.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlang.builtins.networks.layer_array import layers_of
from mlang.builtins.networks.network import DlNetwork, connections_table, layers_value, shown_layer
from mlang.builtins.networks.network_display import NETWORK_CALLS, graph_lines
from mlang.builtins.networks.network_graph import Graph
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.objects import MatlabObject, read_only_property
from mlang.values.table import cellstr_row


class LayerGraph(MatlabObject):
    """``nnet.cnn.LayerGraph``: layers in the order added and their connections."""

    __slots__ = ("graph",)
    matlab_class = "nnet.cnn.LayerGraph"

    def __init__(self, graph: Graph) -> None:
        self.graph = graph

    def input_names(self) -> list[str]:
        return [layer.name for layer in self.graph.layers if layer.IS_INPUT]

    def property_names(self) -> list[str]:
        return ["Layers", "Connections", "InputNames", "OutputNames"]

    def get_property(self, name: str) -> Any:
        if name == "Layers":
            return layers_value(self.graph.layers)
        if name == "Connections":
            return connections_table(self.graph)
        if name == "InputNames":
            return cellstr_row(self.input_names())
        if name == "OutputNames":
            return cellstr_row([])
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> Any:
        if name in self.property_names():
            raise read_only_property(name, "LayerGraph")
        return super().set_property(name, value)

    def display_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        return graph_lines(self)

    @staticmethod
    def call_builtin(builtin: Any, interp: Any, args: list, nargout: int) -> Any:
        fn = NETWORK_CALLS.get(builtin.name) if builtin.name == "plot" else None
        return NotImplemented if fn is None else fn(interp, args, nargout)


@builtin()
def layerGraph(value: object = None) -> LayerGraph:
    """lgraph = layerGraph  an empty layer graph
    lgraph = layerGraph(layers)  a layer graph of a layer array, its layers connected in order
    lgraph = layerGraph(net)  the layer graph of a dlnetwork (its layers and connections)"""
    if value is None:
        return LayerGraph(Graph([], []))
    if type(value) is DlNetwork:
        return LayerGraph(Graph([shown_layer(layer) for layer in value.graph.layers],
                                list(value.graph.connections)))
    if type(value) is LayerGraph:
        return value
    layers = layers_of(value)
    if layers is None:
        raise error("deep:layerGraph:InvalidLayers", "Input must be a layer array or a dlnetwork object.")
    return LayerGraph(Graph([], []).with_layers(layers))
