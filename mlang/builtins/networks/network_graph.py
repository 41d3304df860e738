"""The graph of a network: its layers by name, their connections, the network's inputs and
outputs, and the order in which a forward pass visits the layers.

A ``Graph`` is immutable: the editing functions (``with_layers``, ``connected``,
``disconnected``, ``without_layers``, ``with_replaced``) return new graphs.  A
connection joins one output of a layer to one input of another, each a
``(layer name, port name)`` pair; the texts MATLAB shows and accepts are ``"fc"`` for
a layer's only output or input and ``"add/in2"`` or ``"lstm/out"`` for a named port.

``plan()`` compiles the graph once into a flat list of steps over numbered value slots
(``Plan``), so a forward pass does no graph work.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from mlang.builtins.networks.layer import Layer
from mlang.errors import error
from mlang.values.core import char_row
from mlang.values.table import texts_of

Port = tuple[str, str]  # (layer name, input or output name)


def _layer_named(layers: list[Layer], name: str) -> Layer | None:
    return next((layer for layer in layers if layer.name == name), None)


def no_such_layer(name: str) -> Exception:
    return error("deep:dlnetwork:LayerNotFound", f"Layer '{name}' does not exist.")


def assign_names(layers: list[Layer], taken: set[str]) -> list[Layer]:
    """The layers with MATLAB's automatic names given to the unnamed ones: a layer class's
    default name (``"fc"``) when one layer takes it, ``"fc_1"``, ``"fc_2"``... when
    several do; a name already ``taken`` moves on to the next free number.  Layers whose
    names repeat (among themselves or ``taken``) are an error."""
    named = [layer.name for layer in layers if layer.name]
    seen = set(taken)
    for name in named:
        if name in seen:
            raise error("deep:dlnetwork:DuplicateLayerNames",
                        f"Layer names must be unique. Duplicate layer name: '{name}'.")
        seen.add(name)
    counts: dict[str, int] = {}
    for layer in layers:
        if not layer.name:
            counts[layer.DEFAULT_NAME] = counts.get(layer.DEFAULT_NAME, 0) + 1
    next_number: dict[str, int] = {}
    out = []
    for layer in layers:
        if layer.name:
            out.append(layer)
            continue
        base = layer.DEFAULT_NAME
        if counts[base] == 1 and base not in seen:
            name = base
        else:
            k = next_number.get(base, 1)
            while f"{base}_{k}" in seen:
                k += 1
            name = f"{base}_{k}"
            next_number[base] = k + 1
        seen.add(name)
        out.append(layer.copy(Name=char_row(name)))
    return out


@dataclass(frozen=True)
class Plan:
    """A forward pass compiled: ``steps`` are (layer position, input slots, output slots)
    in topological order; network input k is slot k; ``outputs`` maps each layer output
    ("fc", "lstm/out") to its slot."""

    steps: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]
    slot_count: int
    outputs: dict[str, int]
    input_count: int


class Graph:
    """Layers (in order) and connections ``(source port, destination port)``."""

    __slots__ = ("layers", "connections", "_plan")

    def __init__(self, layers: list[Layer], connections: list[tuple[Port, Port]]) -> None:
        self.layers = layers
        self.connections = connections
        self._plan: Plan | None = None

    # ------------------------------------------------------------ reading

    def names(self) -> list[str]:
        return [layer.name for layer in self.layers]

    def layer(self, name: str) -> Layer:
        found = _layer_named(self.layers, name)
        if found is None:
            raise no_such_layer(name)
        return found

    def index(self, name: str) -> int:
        for k, layer in enumerate(self.layers):
            if layer.name == name:
                return k
        raise no_such_layer(name)

    def source_text(self, port: Port) -> str:
        layer = _layer_named(self.layers, port[0])
        if layer is not None and len(layer.output_names()) == 1:
            return port[0]
        return f"{port[0]}/{port[1]}"

    def destination_text(self, port: Port) -> str:
        layer = _layer_named(self.layers, port[0])
        if layer is not None and len(layer.input_names()) == 1:
            return port[0]
        return f"{port[0]}/{port[1]}"

    def parse_port(self, text: str, side: str) -> Port:
        """``"add/in2"`` or ``"fc"`` as a (layer, port) pair; ``side`` is ``"source"`` (a
        layer output) or ``"destination"`` (a layer input)."""
        layer = _layer_named(self.layers, text)
        if layer is not None:
            ports = layer.output_names() if side == "source" else layer.input_names()
            if len(ports) == 1:
                return (text, ports[0])
            if not ports:
                raise error("deep:dlnetwork:InvalidDestination",
                            f"Layer '{text}' has no inputs.")
            raise error(f"deep:dlnetwork:Ambiguous{side.capitalize()}",
                        f"Layer '{text}' has several {'outputs' if side == 'source' else 'inputs'}. "
                        f"Specify the {side} as '{text}/{ports[0]}'.")
        head, sep, port = text.rpartition("/")
        layer = _layer_named(self.layers, head) if sep else None
        if layer is None:
            raise no_such_layer(head if sep else text)
        ports = layer.output_names() if side == "source" else layer.input_names()
        if port not in ports:
            what = "output" if side == "source" else "input"
            raise error(f"deep:dlnetwork:Invalid{side.capitalize()}",
                        f"Layer '{head}' does not have an {what} named '{port}'.")
        return (head, port)

    def input_ports(self) -> list[tuple[str, Port]]:
        """The network's inputs in layer order: (name, port entered) -- an input layer
        (its name), or a layer input no connection reaches ("fc", "add/in2")."""
        fed = {dst for _, dst in self.connections}
        out = []
        for layer in self.layers:
            if layer.IS_INPUT:
                out.append((layer.name, (layer.name, "")))
                continue
            for port in layer.input_names():
                if (layer.name, port) not in fed:
                    out.append((self.destination_text((layer.name, port)), (layer.name, port)))
        return out

    def default_outputs(self) -> list[str]:
        """The layer outputs no connection leaves from, in layer order."""
        used = {src for src, _ in self.connections}
        return [self.source_text((layer.name, port)) for layer in self.layers
                for port in layer.output_names() if (layer.name, port) not in used]

    def output_port(self, text: str) -> Port:
        return self.parse_port(text, "source")

    # ------------------------------------------------------------ editing

    def with_layers(self, new: list[Layer], sequential: bool = True) -> Graph:
        """Layers added (named where unnamed); a layer array's layers connected in order."""
        new = assign_names(new, set(self.names()))
        connections = list(self.connections)
        if sequential:
            for a, b in zip(new, new[1:], strict=False):
                outs, ins = a.output_names(), b.input_names()
                if outs and ins:
                    connections.append(((a.name, outs[0]), (b.name, ins[0])))
        return Graph(self.layers + new, connections)

    def connected(self, source: str, destination: str) -> Graph:
        src = self.parse_port(source, "source")
        dst = self.parse_port(destination, "destination")
        if self.layer(dst[0]).IS_INPUT:
            raise error("deep:dlnetwork:InvalidDestination", f"Layer '{dst[0]}' has no inputs.")
        for s, d in self.connections:
            if d == dst:
                raise error("deep:dlnetwork:DestinationAlreadyConnected",
                            f"Unable to connect to '{destination}' because it is already "
                            f"connected to '{self.source_text(s)}'.")
        return Graph(list(self.layers), self.connections + [(src, dst)])

    def disconnected(self, source: str, destination: str) -> Graph:
        src = self.parse_port(source, "source")
        dst = self.parse_port(destination, "destination")
        if (src, dst) not in self.connections:
            raise error("deep:dlnetwork:ConnectionNotFound",
                        f"Connection from '{source}' to '{destination}' does not exist.")
        return Graph(list(self.layers), [c for c in self.connections if c != (src, dst)])

    def without_layers(self, names: list[str]) -> Graph:
        for name in names:
            self.index(name)
        gone = set(names)
        return Graph([layer for layer in self.layers if layer.name not in gone],
                     [(s, d) for s, d in self.connections if s[0] not in gone and d[0] not in gone])

    def with_replaced(self, name: str, new: list[Layer], reconnect: str = "name") -> Graph:
        """Layer ``name`` replaced by the sequence ``new``: the connections into it go to
        the first new layer, those out of it leave from the last (matched by port name
        when ``reconnect`` is "name", by position when "order")."""
        position = self.index(name)
        old = self.layers[position]
        others = set(self.names()) - {name}
        new = assign_names(new, others)
        first, last = new[0], new[-1]
        inner_connections = []
        for a, b in zip(new, new[1:], strict=False):
            if a.output_names() and b.input_names():
                inner_connections.append(((a.name, a.output_names()[0]), (b.name, b.input_names()[0])))

        def moved(port: str, old_ports: list[str], new_ports: list[str]) -> str:
            if reconnect == "order" or port not in new_ports:
                k = old_ports.index(port)
                if k >= len(new_ports):
                    raise error("deep:dlnetwork:ReplaceLayerPorts",
                                f"Unable to replace layer '{name}': the new layers do not have "
                                "enough inputs or outputs.")
                return new_ports[k]
            return port

        connections = []
        for s, d in self.connections:
            if d[0] == name:
                d = (first.name, moved(d[1], old.input_names(), first.input_names()))
            if s[0] == name:
                s = (last.name, moved(s[1], old.output_names(), last.output_names()))
            connections.append((s, d))
        layers = self.layers[:position] + new + self.layers[position + 1:]
        return Graph(layers, connections + inner_connections)

    # ------------------------------------------------------------ order and plan

    def topological_order(self) -> list[int]:
        """Layer positions in an order where every layer comes after those feeding it
        (ties kept in layer order); a cycle is an error."""
        position = {layer.name: k for k, layer in enumerate(self.layers)}
        waiting = [0] * len(self.layers)
        after: list[list[int]] = [[] for _ in self.layers]
        for s, d in self.connections:
            waiting[position[d[0]]] += 1
            after[position[s[0]]].append(position[d[0]])
        ready = [k for k, n in enumerate(waiting) if n == 0]
        heapq.heapify(ready)
        order = []
        while ready:
            k = heapq.heappop(ready)
            order.append(k)
            for j in after[k]:
                waiting[j] -= 1
                if waiting[j] == 0:
                    heapq.heappush(ready, j)
        if len(order) != len(self.layers):
            raise error("deep:dlnetwork:CyclicGraph", "Invalid network: the network contains a cycle.")
        return order

    def plan(self) -> Plan:
        """The compiled forward pass (made once per graph)."""
        if self._plan is not None:
            return self._plan
        inputs = self.input_ports()
        slot_of: dict[Port, int] = {}
        for k, (_, port) in enumerate(inputs):
            slot_of[port] = k  # a network input enters this (layer, input) port
        slots = len(inputs)
        out_slot: dict[Port, int] = {}
        for layer in self.layers:
            for port in layer.output_names():
                out_slot[(layer.name, port)] = slots
                slots += 1
        feeding = {d: out_slot[s] for s, d in self.connections}
        steps = []
        for k in self.topological_order():
            layer = self.layers[k]
            if layer.IS_INPUT:
                ins = (slot_of[(layer.name, "")],)
            else:
                ins = tuple(feeding[(layer.name, p)] if (layer.name, p) in feeding
                            else slot_of[(layer.name, p)] for p in layer.input_names())
            outs = tuple(out_slot[(layer.name, p)] for p in layer.output_names())
            steps.append((k, ins, outs))
        texts = {}
        for port, slot in out_slot.items():
            texts[self.source_text(port)] = slot
            texts[f"{port[0]}/{port[1]}"] = slot
        self._plan = Plan(tuple(steps), slots, texts, len(inputs))
        return self._plan

    def sorted(self) -> Graph:
        """The same graph with its layers in topological order (as a dlnetwork keeps them)."""
        order = self.topological_order()
        if order == list(range(len(self.layers))):
            return self
        return Graph([self.layers[k] for k in order], list(self.connections))


def texts_argument(value: Any, what: str) -> list[str]:
    """Layer or port names given as a char row, a string array or a cell of texts."""
    texts = texts_of(value)
    if texts is None:
        raise error("MATLAB:validators:mustBeText",
                    f"{what} must be a character vector, string array, or cell array of "
                    "character vectors.")
    return texts
