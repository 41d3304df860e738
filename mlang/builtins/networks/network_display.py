"""How networks and layer graphs show themselves: the ``dlnetwork with properties:`` display,
``summary(net)``, and the one-line notes of ``plot``, ``analyzeNetwork`` and
``deepNetworkDesigner`` (no graphical tools here)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.errors import error

TIMES = "\u00d7"
BLANK = None  # a blank line (left out by format compact)


def _dims(shape: tuple[int, ...]) -> str:
    return TIMES.join(str(n) for n in shape)


def _names_text(names: list[str]) -> str:
    """A cell row of names as a display shows it inline: {'a'}, {'a'  'b'}, {1×0 cell}."""
    if not names:
        return "{1×0 cell}"
    text = "{" + "  ".join(f"'{n}'" for n in names) + "}"
    return text if len(text) <= 60 else f"{{1{TIMES}{len(names)} cell}}"


def _layers_text(layers: list) -> str:
    if len(layers) == 1:
        return f"[1{TIMES}1 {layers[0].matlab_class}]"
    if not layers:
        return f"[0{TIMES}0 nnet.cnn.layer.Layer]"
    return f"[{len(layers)}{TIMES}1 nnet.cnn.layer.Layer]"


def _property_lines(pairs: list[tuple[str, str]]) -> list:
    width = max(len(name) for name, _ in pairs)
    return [f"{' ' * (4 + width - len(name))}{name}: {text}" for name, text in pairs]


def network_lines(net: Any) -> list:
    """The display of a dlnetwork below ``net =``."""
    layers = net.layers()
    pairs = [
        ("Layers", _layers_text(layers)),
        ("Connections", f"[{len(net.graph.connections)}{TIMES}2 table]"),
        ("Learnables", f"[{len(net.learnable_keys())}{TIMES}3 table]"),
        ("State", f"[{len(net.state_keys())}{TIMES}3 table]"),
        ("InputNames", _names_text(net.input_names)),
        ("OutputNames", _names_text(net.output_names)),
        ("Initialized", "1" if net.initialized else "0"),
    ]
    return ["  dlnetwork with properties:", BLANK, *_property_lines(pairs), BLANK,
            "  View summary with summary.", BLANK]


def graph_lines(lgraph: Any) -> list:
    """The display of a LayerGraph below ``lgraph =``."""
    graph = lgraph.graph
    pairs = [
        ("Layers", _layers_text(graph.layers)),
        ("Connections", f"[{len(graph.connections)}{TIMES}2 table]"),
        ("InputNames", _names_text(lgraph.input_names())),
        ("OutputNames", _names_text([])),
    ]
    return ["  LayerGraph with properties:", BLANK, *_property_lines(pairs)]


def count_text(n: int) -> str:
    """A number of learnables as summary shows it: 41, 1.2k, 84k, 3.5M."""
    for limit, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if n >= limit:
            scaled = n / limit
            return f"{scaled:.1f}{suffix}".replace(".0" + suffix, suffix) if scaled < 10 \
                else f"{round(scaled)}{suffix}"
    return str(n)


def _input_description(layer: Any) -> str:
    """An input as summary describes it: an input layer's own description ("2 features",
    "28×28×1 images"), "unknown" for an input not fed by an input layer."""
    if not layer.IS_INPUT:
        return "unknown"
    return layer.description().split(" with '")[0]  # without the normalisation


def summary_lines(net: Any) -> list[str]:
    lines = [f"   Initialized: {'true' if net.initialized else 'false'}", ""]
    if net.initialized:
        total = 0
        for v in net.learnable_values():
            total += int(np.size(v.data if type(v) is DlArray else v))
        lines += [f"   Number of learnables: {count_text(total)}", ""]
    lines.append("   Inputs:")
    ports = net.graph.input_ports()
    width = max((len(name) for name, _ in ports), default=0) + 2
    for k, (name, port) in enumerate(ports, start=1):
        layer = net.graph.layer(port[0])
        lines.append(f"      {k}   {repr_name(name).ljust(width)}   {_input_description(layer)}")
    return lines


def repr_name(name: str) -> str:
    return f"'{name}'"


def _print(interp: Any, lines: list[str]) -> None:
    for line in lines:
        interp.write(line + "\n")


def one_line(net: Any) -> str:
    """A network in a few words: its layer, connection and learnable counts."""
    layers = net.graph.layers if hasattr(net, "graph") else []
    count = len(layers)
    connections = len(net.graph.connections)
    text = f"{count} layer{'s' if count != 1 else ''}, {connections} connection" \
        f"{'s' if connections != 1 else ''}"
    if hasattr(net, "learnable_values") and net.initialized:
        total = sum(int(np.size(v.data if type(v) is DlArray else v)) for v in net.learnable_values())
        text += f", {count_text(total)} learnables"
    return text


def graphical_note(interp: Any, what: str, net: Any) -> None:
    kind = "dlnetwork" if hasattr(net, "learnable_values") else "layer graph"
    interp.write(f"{what} is not available (no graphical tools): {kind} with {one_line(net)}.\n")


def _summary(interp: Any, args: list, nargout: int) -> list:
    if len(args) != 1 or type(args[0]).__name__ != "DlNetwork":
        return NotImplemented  # type: ignore[return-value]
    if nargout > 0:
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    _print(interp, summary_lines(args[0]))
    return []


def _plot(interp: Any, args: list, nargout: int) -> list:
    if not hasattr(args[0], "graph"):  # a network after other arguments: plot's own errors
        return NotImplemented  # type: ignore[return-value]
    if len(args) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if nargout > 0:
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    graphical_note(interp, "Plotting a network", args[0])
    return []


# builtin name -> how a call with a network or layer graph argument is made
NETWORK_CALLS = {"summary": _summary, "plot": _plot}

