"""The dlnetwork value: a graph of layers with their learnable and state parameters.

Python API (used by dlnetwork's builtins, trainnet and the optimizers):

* ``DlNetwork.from_graph(graph, output_names=None)``: an uninitialised network of a
  ``network_graph.Graph`` (build one with ``Graph([], []).with_layers(layers)``, which
  names unnamed layers and connects a layer array in order); layers are sorted
  topologically and their parameters held as dlarrays.  ``DlNetwork(graph,
  output_names=None, initialized=False)`` wraps a graph as it is.  ``output_names``
  None means the layer outputs no connection leaves from.
* ``net.initialize(interp, examples=None)`` -> an initialised copy (example inputs, one
  formatted dlarray per network input, for inputs not fed by an input layer).
* ``net.layers()`` -> the list of ``Layer`` objects in ``net.Layers`` order, with their
  learnable and state values as dlarrays (unformatted; single unless given otherwise;
  ``[]`` while unset); ``net.graph``; ``net.input_names`` / ``net.output_names``
  (lists of str: "input", "add/in2", "fc", "lstm/out"); ``net.initialized``.
* ``net.learnable_keys()`` -> ``[(layer position, parameter name), ...]`` in the order
  of ``net.Learnables``: layers in ``Layers`` order, each layer's ``LEARNABLES`` in
  order.  ``net.learnable_values()`` gives the values in that order and
  ``net.with_learnables(values)`` a new network holding ``values`` (same graph and
  compiled plan: cheap, what every optimizer step makes).  ``state_keys``,
  ``state_values`` and ``with_states`` do the same for ``State``;
  ``learnables_table()`` and ``state_table(values=None)`` make the MATLAB tables.
* ``net.run(interp, inputs, training, outputs=None, stateful=False)`` -> ``(outputs,
  {(layer position, state name): new value})``: one pass over the precomputed plan
  (``Graph.plan``); ``inputs`` are formatted dlarrays in ``InputNames`` order,
  ``outputs`` names the outputs wanted (default ``OutputNames``); ``training`` calls
  each layer's ``forward`` (state updates collected), else ``predict``.
* ``net.map_dlarrays(fn)``: ``fn`` applied to every learnable and state dlarray (how
  ``dlfeval`` traces a network argument).

The optimizers walk a network through the ``ContainerKind`` this module registers in
``deeplearning.containers.CONTAINER_KINDS``: its parameters are its learnables in
``Learnables`` order, and a Learnables-style table (gradients, optimizer states)
matches it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning.containers import CONTAINER_KINDS, ContainerKind, getrefcount, mismatch
from mlang.builtins.networks.layer import ForwardContext, Layer
from mlang.builtins.networks.layer_array import LayerArray, layer_array
from mlang.builtins.networks.network_display import NETWORK_CALLS, network_lines
from mlang.builtins.networks.network_graph import Graph
from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import class_of
from mlang.values.objects import DisplayText, MatlabObject, read_only_property
from mlang.values.string import StringArray
from mlang.values.table import Table, cellstr_column, cellstr_row, texts_of

EMPTY = np.zeros((0, 0))
# the states a recurrent layer updates in inference too (predict's state output)
RECURRENT_STATES = frozenset({"HiddenState", "CellState"})
PARAMETER_TABLE_NAMES = ["Layer", "Parameter", "Value"]


def is_unset(value: Any) -> bool:
    data = value.data if type(value) is DlArray else value
    return np.size(data) == 0


def as_parameter(value: Any) -> Any:
    """A learnable or state value as a network holds it: a dlarray (``[]`` stays ``[]``)."""
    if type(value) is DlArray:
        return value
    if isinstance(value, np.ndarray | float | int) and not is_unset(value):
        data = np.asarray(value)
        return DlArray(data.reshape(data.shape if data.ndim >= 2 else (-1, 1) if data.ndim else (1, 1)))
    return value


def plain_parameter(value: Any) -> Any:
    """A value as a layer of ``net.Layers`` shows it: the data of a dlarray."""
    return value.data if type(value) is DlArray else value


def string_column(texts: list[str]) -> StringArray:
    data = np.empty((len(texts), 1), dtype=object)
    for k, t in enumerate(texts):
        data[k, 0] = t
    return StringArray(data)


def value_column(values: list) -> Cell:
    data = np.empty((len(values), 1), dtype=object)
    for k, v in enumerate(values):
        data[k, 0] = EMPTY if v is None else v
    return Cell(data)


def parameter_table(names: list[str], params: list[str], values: list) -> Table:
    return Table([string_column(names), string_column(params), value_column(values)],
                 list(PARAMETER_TABLE_NAMES), nrows=len(names))


class DlNetwork(MatlabObject):
    """A dlnetwork (see the module docstring for its Python API)."""

    # _structure: what depends only on the layers' names and connections (input ports,
    # layer names), shared by the copies that change only parameter values
    __slots__ = ("graph", "output_names", "initialized", "_learnable_keys", "_state_keys", "_structure")
    matlab_class = "dlnetwork"

    def __init__(self, graph: Graph, output_names: list[str] | None = None,
                 initialized: bool = False) -> None:
        self.graph = graph
        self.output_names = list(output_names) if output_names is not None else graph.default_outputs()
        self.initialized = initialized
        self._learnable_keys: list[tuple[int, str]] | None = None
        self._state_keys: list[tuple[int, str]] | None = None
        self._structure: dict[str, Any] | None = None

    @classmethod
    def from_graph(cls, graph: Graph, output_names: list[str] | None = None) -> DlNetwork:
        """An uninitialised network of ``graph``'s layers, sorted topologically, with their
        parameters as dlarrays."""
        layers = [held_layer(layer) for layer in graph.layers]
        graph = Graph(layers, list(graph.connections)).sorted()
        net = cls(graph, output_names)
        for name in net.output_names:
            graph.output_port(name)
        return net

    def _with(self, graph: Graph, initialized: bool | None = None) -> DlNetwork:
        new = DlNetwork.__new__(DlNetwork)
        new.graph = graph
        new.output_names = self.output_names
        new.initialized = self.initialized if initialized is None else initialized
        new._learnable_keys = self._learnable_keys
        new._state_keys = self._state_keys
        new._structure = None
        return new

    def _with_same_structure(self, layers: list[Layer]) -> DlNetwork:
        """A copy holding ``layers``: this network's layers with other parameter values (same
        names, classes and connections), so the compiled plan and structure stay valid."""
        graph = Graph(layers, self.graph.connections)
        graph._plan = self.graph._plan
        new = self._with(graph)
        if self._structure is None:
            self._structure = {}  # shared from now on, filled by whichever copy needs it first
        new._structure = self._structure
        return new

    def structure_item(self, key: str, make: Callable[[], Any]) -> Any:
        """``make()``, made once for the networks sharing this one's structure (the copies
        that differ only in parameter values: their layers' other properties are the same
        values); ``make`` must not give None."""
        return self._structure_item(key, make)

    def _structure_item(self, key: str, make: Callable[[], Any]) -> Any:
        structure = self._structure
        if structure is None:
            structure = self._structure = {}
        found = structure.get(key)
        if found is None:
            found = structure[key] = make()
        return found

    # ------------------------------------------------------------ Python API

    def layers(self) -> list[Layer]:
        return self.graph.layers

    @property
    def input_names(self) -> list[str]:
        return [name for name, _ in self.input_ports()]

    def input_ports(self) -> list:
        """``graph.input_ports()``, made once for the networks sharing this structure (the
        list is not to be changed)."""
        return self._structure_item("input_ports", self.graph.input_ports)

    def layer_names(self) -> list[str]:
        """The names of the layers in ``Layers`` order (not to be changed)."""
        return self._structure_item("layer_names", self.graph.names)

    def learnable_keys(self) -> list[tuple[int, str]]:
        if self._learnable_keys is None:
            self._learnable_keys = [(k, p) for k, layer in enumerate(self.graph.layers)
                                    for p in layer.LEARNABLES]
        return self._learnable_keys

    def state_keys(self) -> list[tuple[int, str]]:
        if self._state_keys is None:
            self._state_keys = [(k, p) for k, layer in enumerate(self.graph.layers) for p in layer.STATES]
        return self._state_keys

    def learnable_values(self) -> list:
        layers = self.graph.layers
        return [layers[k].values[p] for k, p in self.learnable_keys()]

    def state_values(self) -> list:
        layers = self.graph.layers
        return [layers[k].values[p] for k, p in self.state_keys()]

    def _with_values(self, which: str, keys: list[tuple[int, str]], values: list) -> DlNetwork:
        if len(values) != len(keys):
            raise ValueError(f"{len(values)} values for {len(keys)} parameters")
        layers = list(self.graph.layers)
        for k, names in self._structure_item(which, lambda: _by_layer(keys)):
            layer = layers[k]
            changed = dict(layer.values)
            for p, i in names:
                changed[p] = values[i]
            layers[k] = layer.with_values(changed)
        return self._with_same_structure(layers)

    def with_learnables(self, values: list) -> DlNetwork:
        return self._with_values("learnables_by_layer", self.learnable_keys(), values)

    def with_states(self, values: list) -> DlNetwork:
        return self._with_values("states_by_layer", self.state_keys(), values)

    def learnables_table(self) -> Table:
        # the Layer and Parameter columns are made once per structure: a table's variables are
        # copied before any change in place (values held elsewhere are never written)
        layer_column, parameter_column = self._structure_item("learnables_columns", self._learnables_columns)
        values = self.learnable_values()
        return Table([layer_column, parameter_column, value_column(values)], list(PARAMETER_TABLE_NAMES),
                     nrows=len(values))

    def _learnables_columns(self) -> tuple[StringArray, StringArray]:
        names = self.layer_names()
        keys = self.learnable_keys()
        return string_column([names[k] for k, _ in keys]), string_column([p for _, p in keys])

    def state_table(self, values: list | None = None) -> Table:
        names = self.layer_names()
        keys = self.state_keys()
        return parameter_table([names[k] for k, _ in keys], [p for _, p in keys],
                               self.state_values() if values is None else values)

    def map_dlarrays(self, fn: Callable[[Any], Any]) -> DlNetwork:
        """``fn`` applied to each learnable and state dlarray (dlfeval's tracing)."""
        layers = self.graph.layers
        changed = None
        for k, names in self._structure_item("parameter_names", self._parameter_names):
            layer = layers[k]
            values = layer.values
            new = None
            for p in names:
                v = values[p]
                if type(v) is DlArray:
                    mapped = fn(v)
                    if mapped is not v:
                        if new is None:
                            new = {}
                        new[p] = mapped
            if new:
                if changed is None:
                    changed = list(layers)
                changed[k] = layer.with_values({**values, **new})  # (layer.copy, with no keywords)
        if changed is None:
            return self
        return self._with_same_structure(changed)

    def _parameter_names(self) -> list[tuple[int, tuple[str, ...]]]:
        """Per layer with learnable or state parameters: its index and their names."""
        return [(k, layer.LEARNABLES + layer.STATES) for k, layer in enumerate(self.graph.layers)
                if layer.LEARNABLES or layer.STATES]

    # ------------------------------------------------------------ running

    def run(self, interp: Any, inputs: list, training: bool, outputs: list[str] | None = None,
            stateful: bool = False) -> tuple[list, dict[tuple[int, str], Any]]:
        """The outputs named ``outputs`` (default ``OutputNames``) for formatted inputs, and
        the new state values of a training pass (or, with ``stateful``, of the recurrent
        layers in an inference pass)."""
        plan = self.graph.plan()
        slots: list[Any] = [None] * plan.slot_count
        slots[:len(inputs)] = inputs
        ctx = ForwardContext(interp, training)
        layers = self.graph.layers
        updates: dict[tuple[int, str], Any] = {}
        for k, ins, outs in plan.steps:
            layer = layers[k]
            args = [slots[ins[0]]] if len(ins) == 1 else [slots[s] for s in ins]
            if training and type(layer).forward is Layer.forward:
                got = layer.predict(args, ctx)  # the same outputs in training, and no state
            elif training or stateful and layer.STATES and set(layer.STATES) <= RECURRENT_STATES:
                got, new_state = layer.forward(args, ctx)
                for name, value in new_state.items():
                    updates[(k, name)] = value
            else:
                got = layer.predict(args, ctx)
            if len(outs) == 1 and got:
                slots[outs[0]] = got[0]
            else:
                for s, v in zip(outs, got, strict=False):
                    slots[s] = v
        wanted = self.output_names if outputs is None else outputs
        result = []
        for name in wanted:
            slot = plan.outputs.get(name)
            if slot is None:
                self.graph.output_port(name)  # the error naming what is wrong
                raise error("deep:dlnetwork:InvalidOutputName", f"Invalid output name '{name}'.")
            result.append(slots[slot])
        return result, updates

    def initialize(self, interp: Any, examples: list | None = None) -> DlNetwork:
        """A copy with every unset learnable and state parameter made, sizes inferred from
        the input layers' example inputs (or ``examples``, one per network input)."""
        ports = self.graph.input_ports()
        given = list(examples or [])
        inputs = []
        for k, (name, port) in enumerate(ports):
            if k < len(given):
                inputs.append(given[k])
                continue
            layer = self.graph.layer(port[0])
            if not layer.IS_INPUT:
                raise error("deep:dlnetwork:InitializeNeedsExampleInputs",
                            f"Unable to initialize the network: input '{name}' is not connected "
                            "to an input layer. Specify example inputs for every network input.")
            inputs.append(layer.input_example())
        if len(given) > len(ports):
            raise error("deep:dlnetwork:InitializeTooManyInputs",
                        f"Too many example inputs: the network has {len(ports)} inputs.")
        plan = self.graph.plan()
        slots: list[Any] = [None] * plan.slot_count
        slots[:len(inputs)] = inputs
        ctx = ForwardContext(interp, False)
        layers = list(self.graph.layers)
        for k, ins, outs in plan.steps:
            args = [slots[s] for s in ins]
            layer = held_layer(layers[k].initialize(args, ctx))
            layers[k] = layer
            got = layer.predict(args, ctx)
            for s, v in zip(outs, got, strict=False):
                slots[s] = v
        graph = Graph(layers, self.graph.connections)
        graph._plan = plan
        return self._with(graph, initialized=True)

    # ------------------------------------------------------------ properties

    def property_names(self) -> list[str]:
        return ["Layers", "Connections", "Learnables", "State", "InputNames", "OutputNames",
                "Initialized"]

    def get_property(self, name: str) -> Any:
        if name == "Layers":
            return layers_value(self.graph.layers)
        if name == "Connections":
            return connections_table(self.graph)
        if name == "Learnables":
            return self.learnables_table()
        if name == "State":
            return self.state_table()
        if name == "InputNames":
            return cellstr_row(self.input_names)
        if name == "OutputNames":
            return cellstr_row(self.output_names)
        if name == "Initialized":
            return self.initialized
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> DlNetwork:
        if name == "Learnables":
            return self.with_learnables(_table_values(self, value, self.learnable_keys(),
                                                      self.learnable_values(), "Learnables"))
        if name == "State":
            return self.with_states(_table_values(self, value, self.state_keys(), self.state_values(),
                                                  "State"))
        if name == "OutputNames":
            names = texts_of(value)
            if names is None:
                raise error("MATLAB:validators:mustBeText",
                            "OutputNames must be a cell array of character vectors or a string array.")
            for n in names:
                self.graph.output_port(n)
            new = self._with(self.graph)
            new.output_names = list(names)
            return new
        if name in self.property_names():
            raise read_only_property(name, "dlnetwork")
        return super().set_property(name, value)

    # ------------------------------------------------------------ display and calls

    def display_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        return network_lines(self)

    @staticmethod
    def call_builtin(builtin: Any, interp: Any, args: list, nargout: int) -> Any:
        fn = NETWORK_CALLS.get(builtin.name)
        return NotImplemented if fn is None else fn(interp, args, nargout)


def _by_layer(keys: list[tuple[int, str]]) -> list[tuple[int, tuple[tuple[str, int], ...]]]:
    """Parameter keys (layer position, name) grouped by layer: per layer, its position and
    the names with their positions in ``keys``."""
    groups: dict[int, list[tuple[str, int]]] = {}
    for i, (k, p) in enumerate(keys):
        groups.setdefault(k, []).append((p, i))
    return [(k, tuple(names)) for k, names in groups.items()]


def held_layer(layer: Layer) -> Layer:
    """A layer with its learnable and state values as dlarrays, as a network holds them."""
    names = layer.LEARNABLES + layer.STATES
    changes = {}
    for p in names:
        v = layer.values.get(p)
        held = as_parameter(v)
        if held is not v:
            changes[p] = held
    return layer.copy(**changes) if changes else layer


def shown_layer(layer: Layer) -> Layer:
    """A layer as ``net.Layers`` shows it: parameters as plain numeric arrays."""
    names = layer.LEARNABLES + layer.STATES
    changes = {p: plain_parameter(layer.values[p]) for p in names if type(layer.values.get(p)) is DlArray}
    return layer.copy(**changes) if changes else layer


def layers_value(layers: list[Layer]) -> Any:
    """``net.Layers``: a column layer array (a layer alone when there is one)."""
    shown = [shown_layer(layer) for layer in layers]
    if not shown:
        return LayerArray([], column=True)
    return layer_array(shown, column=True)


def connections_table(graph: Graph) -> Table:
    sources = [graph.source_text(s) for s, _ in graph.connections]
    destinations = [graph.destination_text(d) for _, d in graph.connections]
    return Table([cellstr_column(sources), cellstr_column(destinations)], ["Source", "Destination"],
                 nrows=len(sources))


def _table_values(net: DlNetwork, value: Any, keys: list[tuple[int, str]], current: list,
                  what: str) -> list:
    """The values of an assigned Learnables or State table, in the network's order."""
    ident = f"deep:dlnetwork:Invalid{what}"
    # MATLAB's text, as a forum post quotes it for a State table
    invalid = (f"{what} must be a table with columns 'Layer', 'Parameter', and 'Value'. Each entry "
               "of 'Value' must be a 1-by-1 cell array containing a real-valued finite numeric "
               "array or dlarray object.")
    if type(value) is not Table or value.names[:3] != PARAMETER_TABLE_NAMES:
        raise error(ident, invalid)
    layer_names = texts_of(value.variable("Layer"))
    params = texts_of(value.variable("Parameter"))
    cells = value.variable("Value")
    if layer_names is None or params is None or type(cells) is not Cell:
        raise error(ident, invalid)
    given = {(a, b): v for a, b, v in zip(layer_names, params, cells.data.reshape(-1), strict=True)}
    layers = net.graph.layers
    wanted = [(layers[k].name, p) for k, p in keys]
    if len(given) != len(wanted) or set(given) != set(wanted):
        raise error(ident, f"{what} table must have one row for each {what.lower()} parameter of the "
                    "network, with the same layer and parameter names.")
    out = []
    for key, old in zip(wanted, current, strict=True):
        new = given[key]
        # a state (a recurrent layer's hidden state) takes the batch size of the last pass
        if what == "Learnables" and not is_unset(old) \
                and np.shape(plain_parameter(new)) != np.shape(plain_parameter(old)):
            raise error(ident, f"Size of the value of parameter '{key[1]}' of layer '{key[0]}' must "
                        f"not change.")
        if not is_numeric_parameter(new):
            raise error(ident, invalid)
        out.append(as_parameter(new))
    return out


_NUMERIC_CLASSES = frozenset(("double", "single", "int8", "int16", "int32", "int64", "uint8", "uint16",
                              "uint32", "uint64"))


def is_numeric_parameter(value: Any) -> bool:
    """Whether a value may be a learnable or state parameter: a dlarray or a numeric array
    (not text, logical, a cell or an object)."""
    return type(value) is DlArray or (isinstance(value, np.ndarray | float | int)
                                      and class_of(value) in _NUMERIC_CLASSES)


def display_text(text: str) -> DisplayText:
    return DisplayText(text)


# ------------------------------------------------------------ the optimizers' view


class NetworkKind(ContainerKind):
    """A dlnetwork as a container of parameters: its learnables, in Learnables order.  A
    Learnables-style table (the gradients, an optimizer's state) matches it."""

    name = "dlnetwork"

    def children(self, value: DlNetwork) -> list:
        return value.learnable_values()

    def owned_children(self, value: DlNetwork) -> list | None:
        """The learnables, when every object between the network and them (its graph, the
        layer list, each layer with learnables and its values) is held by the network alone."""
        graph = value.graph
        # references: the network's, `graph`, getrefcount's argument
        if getrefcount(graph) > 3:
            return None
        layers = graph.layers
        if type(layers) is not list or getrefcount(layers) > 3:  # the graph's, `layers`, the argument
            return None
        out = []
        for k, p in value.learnable_keys():
            layer = layers[k]
            # the list's, `layer`, the argument; the layer's values: the layer's, `values`, the argument
            if getrefcount(layer) > 3:
                return None
            values = layer.values
            if getrefcount(values) > 3:
                return None
            out.append(values[p])
        return out

    def rebuild(self, value: DlNetwork, children: list) -> DlNetwork:
        if all(type(v) is DlArray for v in children):  # an optimizer's step
            return value.with_learnables(children)
        if not all(is_numeric_parameter(v) for v in children):  # dlupdate(@(w) 'x', net)
            raise error("deep:dlnetwork:InvalidLearnables",
                        "Each learnable parameter of a dlnetwork must be a numeric array or dlarray "
                        "object.")
        return value.with_learnables([as_parameter(v) for v in children])

    def matching_children(self, template: DlNetwork, other: Any) -> list:
        count = len(template.learnable_keys())
        if type(other) is DlNetwork:
            if len(other.learnable_keys()) != count:
                raise mismatch("networks with different learnable parameters.")
            return other.learnable_values()
        if type(other) is Table:
            names = other.names
            if other.nrows != count or "Value" not in names:
                raise mismatch("a table with one row for each learnable parameter of the network.")
            return other.variables[names.index("Value")].data.ravel().tolist()  # (the cells themselves)
        raise mismatch(f"expected a dlnetwork or a table, not {class_of(other)}.")


CONTAINER_KINDS[DlNetwork] = NetworkKind()
