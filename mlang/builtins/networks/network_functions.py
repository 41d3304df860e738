"""The functions of dlnetwork and layerGraph: dlnetwork, forward, predict, initialize,
resetState, the editing functions (addLayers, connectLayers, disconnectLayers,
removeLayers, replaceLayer, addInputLayer), analyzeNetwork and deepNetworkDesigner.
``summary(net)`` and ``plot(net)`` reach ``network_display`` through the network's
``call_builtin`` route."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.coerce import option_flag, split_options, text_option, text_scalar
from mlang.builtins.networks.layer_array import layers_of
from mlang.builtins.networks.layer_graph import LayerGraph
from mlang.builtins.networks.network import RECURRENT_STATES, DlNetwork, held_layer, is_unset
from mlang.builtins.networks.network_display import graphical_note
from mlang.builtins.networks.network_graph import Graph, texts_argument
from mlang.errors import error
from mlang.registry import BUILTINS, builtin
from mlang.values.core import char_row, class_of


def _layers_argument(value: Any, function: str) -> list:
    layers = layers_of(value)
    if layers is None:
        raise error("deep:dlnetwork:InvalidLayers",
                    f"Invalid argument to {function}: layers must be a layer array, not "
                    f"{class_of(value)}.")
    return layers


def _all_set(net: DlNetwork) -> bool:
    return not any(is_unset(v) for v in net.learnable_values() + net.state_values())


def _auto_initializable(net: DlNetwork) -> bool:
    return all(net.graph.layer(port[0]).IS_INPUT for _, port in net.graph.input_ports())


# ------------------------------------------------------------ dlnetwork


@builtin(interp=True, dl="native")
def dlnetwork(interp: Any, *args: object) -> DlNetwork:
    """net = dlnetwork  an empty network (add layers with addLayers)
    net = dlnetwork(layers)  a network of a layer array (connected in order) or a layer graph,
    its learnable parameters initialised from the sizes of its input layers
    net = dlnetwork(layers, X1, ..., XN)  initialised from example inputs X1, ..., XN (formatted
    dlarrays), for networks whose inputs are not all input layers
    dlnetwork(..., Initialize=tf)  whether to initialise (default true)
    dlnetwork(..., OutputNames=names)  the layer outputs that are the network's outputs"""
    positional, given = split_options(args, ("Initialize", "OutputNames"))
    if not positional:
        if given:
            raise error("MATLAB:minrhs", "Not enough input arguments.")
        return DlNetwork(Graph([], []), initialized=True)
    source, examples = positional[0], positional[1:]
    if type(source) is LayerGraph:
        graph = Graph(list(source.graph.layers), list(source.graph.connections))
    elif type(source) is DlNetwork:
        graph = source.graph
    else:
        graph = Graph([], []).with_layers(_layers_argument(source, "dlnetwork"))
    outputs = None
    if "OutputNames" in given:
        outputs = texts_argument(given["OutputNames"], "OutputNames")
    net = DlNetwork.from_graph(graph, outputs)
    for x in examples:
        if type(x) is not DlArray or not x.fmt:
            raise error("deep:dlnetwork:InvalidExampleInput",
                        "Example inputs must be formatted dlarray objects.")
    wanted = option_flag(given["Initialize"], "Initialize") if "Initialize" in given else True
    if not wanted:
        if examples:
            raise error("deep:dlnetwork:ExampleInputsWithoutInitialize",
                        "Example inputs require Initialize=true.")
        net.initialized = False
        return net
    if not examples and not _auto_initializable(net):
        missing = [name for name, port in net.graph.input_ports() if not net.graph.layer(port[0]).IS_INPUT]
        raise error("deep:dlnetwork:UnconnectedInputs",
                    f"Unable to initialize the network: input '{missing[0]}' is not connected to an "
                    "input layer. Specify example inputs, add input layers, or create the network "
                    "with Initialize=false.")
    if examples and len(examples) != len(net.input_names):
        raise error("deep:dlnetwork:WrongNumberOfExampleInputs",
                    f"Number of example inputs ({len(examples)}) must match the number of network "
                    f"inputs ({len(net.input_names)}).")
    return net.initialize(interp, list(examples))


@builtin(interp=True, dl="native")
def initialize(interp: Any, net: object, *examples: object) -> DlNetwork:
    """net = initialize(net)  initialise the unset learnable and state parameters of a dlnetwork
    from the sizes of its input layers
    net = initialize(net, X1, ..., XN)  from example inputs (formatted dlarrays)"""
    _network(net, "initialize")
    for x in examples:
        if type(x) is not DlArray or not x.fmt:
            raise error("deep:dlnetwork:InvalidExampleInput",
                        "Example inputs must be formatted dlarray objects.")
    if not examples and not _auto_initializable(net):
        raise error("deep:dlnetwork:UnconnectedInputs",
                    "Unable to initialize the network: it has inputs not connected to input layers. "
                    "Specify example inputs for every network input.")
    return net.initialize(interp, list(examples))


def _network(value: Any, function: str) -> DlNetwork:
    if type(value) is not DlNetwork:
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{function}' for input arguments of type '{class_of(value)}'.")
    return value


# ------------------------------------------------------------ forward and predict


def _network_inputs(interp: Any, net: DlNetwork, xs: list) -> tuple[list, bool]:
    """The inputs as the layers receive them (formatted dlarrays), and whether they were
    given as numeric arrays ("numeric") or unformatted dlarrays ("unformatted"): the outputs
    are then given back in the same form, laid out as the input layers lay out data."""
    ports = net.input_ports()
    if len(xs) != len(ports):
        raise error("deep:dlnetwork:WrongNumberOfInputs",
                    f"Incorrect number of input arguments. The network has {len(ports)} input"
                    f"{'s' if len(ports) != 1 else ''}, but {len(xs)} "
                    f"{'were' if len(xs) != 1 else 'was'} given.")
    plain = ""
    out = []
    for x, (name, port) in zip(xs, ports, strict=True):
        if type(x) is DlArray and x.fmt:
            out.append(x)
            continue
        if type(x) is not DlArray:
            if class_of(x) not in ("double", "single") and class_of(x) != "logical" \
                    and not class_of(x).startswith(("int", "uint")):
                raise error("deep:dlnetwork:InvalidInput",
                            f"Invalid network input '{name}': input data must be a dlarray or a "
                            f"numeric array, not {class_of(x)}.")
            plain = "numeric"
        elif not plain:
            plain = "unformatted"
        layer = net.graph.layer(port[0])
        if not layer.IS_INPUT:
            raise error("deep:dlnetwork:UnformattedInput",
                        f"Invalid network input '{name}': input data for inputs not connected to "
                        "an input layer must be a formatted dlarray object.")
        fmt = unformatted_layout(layer)
        out.append(BUILTINS["dlarray"].call(interp, [x, char_row(fmt)], 1)[0])
    return out, plain


def unformatted_layout(layer: Any) -> str:
    """The dimension order in which an input layer takes numeric or unformatted data: that of
    its ``data_layout()`` when it defines one, else MATLAB's layouts -- observations by
    features ("BC") for feature data, time before batch for sequences ("CTB"), and the
    canonical order otherwise ("SSCB")."""
    own = getattr(layer, "data_layout", None)
    if own is not None:
        return own()
    return layout_of(layer.input_example().fmt)


def _split_outputs(args: tuple) -> tuple[list, list[str] | None]:
    if all(type(a) is DlArray for a in args):  # a training step's inputs: no option names
        return list(args), None
    xs, given = split_options(args, ("Outputs", "Acceleration"), start=0)
    outputs = texts_argument(given["Outputs"], "Outputs") if "Outputs" in given else None
    return xs, outputs


def _ready(net: DlNetwork) -> None:
    if not net.graph.layers:
        raise error("deep:dlnetwork:EmptyNetwork", "Network must have at least one layer.")
    if not net.initialized:
        raise error("deep:dlnetwork:NotInitialized",
                    "Uninitialized dlnetwork object. Initialize the network using the initialize "
                    "function before calling forward or predict.")


def layout_of(fmt: str) -> str:
    """MATLAB's layout of numeric data in a format: observations by features ("BC") for
    feature data, time before batch for sequences ("CTB"), else the format itself."""
    if fmt == "CB":
        return "BC"
    if "T" in fmt and "B" in fmt:
        return fmt.replace("B", "").replace("T", "TB")
    return fmt


def _plain_outputs(interp: Any, outs: list, plain: str) -> list:
    """Outputs for inputs given without a format: laid out as data of their format is, as
    numeric arrays (numeric inputs) or unformatted dlarrays."""
    result = []
    for o in outs:
        if type(o) is DlArray and o.fmt:
            o = BUILTINS["stripdims"].call(interp, [o, char_row(layout_of(o.fmt))], 1)[0]
        if plain == "numeric" and type(o) is DlArray:
            o = o.data
        result.append(o)
    return result


def _state_output(net: DlNetwork, updates: dict) -> Any:
    layers = net.graph.layers
    values = []
    for k, p in net.state_keys():
        v = updates.get((k, p), layers[k].values[p])
        values.append(v if type(v) is DlArray or is_unset(v) else DlArray(np.asarray(v)))
    return net.state_table(values)


def _pass(interp: Any, net: DlNetwork, args: tuple, training: bool, nargout: int) -> tuple:
    """forward and predict: the outputs wanted, then the state when one more is asked for."""
    xs, outputs = _split_outputs(args)
    inputs, plain = _network_inputs(interp, net, xs)
    wanted = outputs if outputs is not None else net.output_names
    if nargout > len(wanted) + 1:
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    with_state = nargout == len(wanted) + 1
    outs, updates = net.run(interp, inputs, training, outputs,
                            stateful=with_state and not training)
    if plain:
        outs = _plain_outputs(interp, outs, plain)
    if not with_state:
        return tuple(outs[:max(nargout, 1)])
    return (*outs, _state_output(net, updates))


@builtin(interp=True, nargout=True, max_out=None, dl="native")
def forward(interp: Any, net: object, *args: object, nargout: int = 1) -> tuple:
    """[Y1, ..., YM, state] = forward(net, X1, ..., XN)  the outputs of a dlnetwork in
    training mode (dropout active, batch normalisation on the batch statistics) and its
    updated state (a table like net.State)
    forward(..., Outputs=names)  the outputs of the named layers ("fc", "lstm/out")"""
    net = _network(net, "forward")
    _ready(net)
    return _pass(interp, net, args, True, nargout)


@builtin(interp=True, nargout=True, max_out=None, dl="native")
def predict(interp: Any, net: object, *args: object, nargout: int = 1) -> tuple:
    """[Y1, ..., YM, state] = predict(net, X1, ..., XN)  the outputs of a dlnetwork in
    inference mode, and the updated state of its recurrent layers
    predict(..., Outputs=names)  the outputs of the named layers ("fc", "lstm/out")
    Inputs are formatted dlarrays, or unformatted dlarrays and numeric arrays laid out as
    the input layers expect ("BC" for features, "SSCB" for images, "CTB" for sequences):
    the outputs then come in the same form and layout."""
    net = _network(net, "predict")
    _ready(net)
    return _pass(interp, net, args, False, nargout)


def _is_recurrent(layer: Any) -> bool:
    return bool(layer.STATES) and set(layer.STATES) <= RECURRENT_STATES


@builtin()
def resetState(net: object) -> DlNetwork:
    """net = resetState(net)  reset the state parameters of the network's recurrent layers
    (hidden and cell states) to zero"""
    net = _network(net, "resetState")
    layers = list(net.graph.layers)
    changed = False
    for k, layer in enumerate(layers):
        reset = getattr(layer, "reset_state", None)
        if reset is not None:
            layers[k] = held_layer(reset())
            changed = True
        elif _is_recurrent(layer):
            zeros = {}
            for p in layer.STATES:
                v = layer.values[p]
                if not is_unset(v):
                    data = v.data if type(v) is DlArray else np.asarray(v)
                    zeros[p] = DlArray(np.zeros_like(data))
            if zeros:
                layers[k] = layer.copy(**zeros)
                changed = True
    if not changed:
        return net
    graph = Graph(layers, net.graph.connections)
    graph._plan = net.graph._plan
    return net._with(graph)


# ------------------------------------------------------------ editing


def _edited(original: Any, graph: Graph) -> Any:
    """The edited network or layer graph: a dlnetwork is re-sorted and counts as initialised
    when every parameter is set."""
    if type(original) is LayerGraph:
        return LayerGraph(graph)
    net = DlNetwork.from_graph(graph)
    net.initialized = _all_set(net) and original.initialized
    return net


def _graph_of(value: Any, function: str) -> Graph:
    if type(value) is DlNetwork or type(value) is LayerGraph:
        return value.graph
    raise error("MATLAB:UndefinedFunction",
                f"Undefined function '{function}' for input arguments of type '{class_of(value)}'.")


@builtin()
def addLayers(net: object, layers: object) -> Any:
    """net = addLayers(net, layers)  add layers to a dlnetwork or layer graph; the layers of
    an array are connected in order"""
    graph = _graph_of(net, "addLayers")
    new = graph.with_layers(_layers_argument(layers, "addLayers"))
    result = _edited(net, new)
    if type(result) is DlNetwork:
        result.initialized = _all_set(result)
    return result


@builtin()
def connectLayers(net: object, source: object, destination: object) -> Any:
    """net = connectLayers(net, s, d)  connect the output s ("relu" or "lstm/out") to the
    input d ("fc" or "add/in2")"""
    graph = _graph_of(net, "connectLayers")
    return _edited(net, graph.connected(text_scalar(source, "Source"),
                                        text_scalar(destination, "Destination")))


@builtin()
def disconnectLayers(net: object, source: object, destination: object) -> Any:
    """net = disconnectLayers(net, s, d)  remove the connection from s to d"""
    graph = _graph_of(net, "disconnectLayers")
    return _edited(net, graph.disconnected(text_scalar(source, "Source"),
                                           text_scalar(destination, "Destination")))


@builtin()
def removeLayers(net: object, names: object) -> Any:
    """net = removeLayers(net, layerNames)  remove layers and their connections"""
    graph = _graph_of(net, "removeLayers")
    return _edited(net, graph.without_layers(texts_argument(names, "Layer names")))


@builtin()
def replaceLayer(net: object, name: object, layers: object, *options: object) -> Any:
    """net = replaceLayer(net, layerName, layers)  replace a layer by a layer array
    replaceLayer(..., ReconnectBy="order")  reconnect by input and output position instead of
    by name ("name")"""
    graph = _graph_of(net, "replaceLayer")
    given = split_options(options, ("ReconnectBy",))[1] if options else {}
    how = "name"
    if "ReconnectBy" in given:
        how = text_option(given["ReconnectBy"]) or ""
        if how not in ("name", "order"):
            raise error("MATLAB:validators:mustBeMember",
                        "ReconnectBy must be 'name' or 'order'.")
    new = _layers_argument(layers, "replaceLayer")
    if not new:
        raise error("deep:dlnetwork:InvalidLayers",
                    "Invalid argument to replaceLayer: layers must not be empty.")
    result = _edited(net, graph.with_replaced(text_scalar(name, "Layer name"), new, how))
    if type(result) is DlNetwork:
        result.initialized = _all_set(result)
    return result


@builtin(interp=True)
def addInputLayer(interp: Any, net: object, layer: object, *args: object) -> DlNetwork:
    """net = addInputLayer(net, layer)  connect an input layer to the first input of the network
    not connected to an input layer, and initialise the network when it can be
    addInputLayer(net, layer, inputName)  to the named input
    addInputLayer(..., Initialize=tf)  whether to initialise"""
    net = _network(net, "addInputLayer")
    positional, given = split_options(args, ("Initialize",))
    layers = _layers_argument(layer, "addInputLayer")
    if len(layers) != 1 or not layers[0].IS_INPUT:
        raise error("deep:dlnetwork:InvalidInputLayer", "Layer must be an input layer.")
    open_inputs = [(name, port) for name, port in net.graph.input_ports()
                   if not net.graph.layer(port[0]).IS_INPUT]
    if not open_inputs:
        raise error("deep:dlnetwork:NoUnconnectedInputs", "Network has no unconnected inputs.")
    target = open_inputs[0]
    if positional:
        wanted = text_scalar(positional[0], "Input name")
        match = [entry for entry in open_inputs if entry[0] == wanted]
        if not match:
            raise error("deep:dlnetwork:InvalidInputName",
                        f"Network does not have an unconnected input named '{wanted}'.")
        target = match[0]
    graph = net.graph.with_layers(layers, sequential=False)
    added = graph.layers[-1]
    graph = graph.connected(added.name, net.graph.destination_text(target[1]))
    result = DlNetwork.from_graph(graph)
    initialize_now = option_flag(given["Initialize"], "Initialize") if "Initialize" in given else True
    if initialize_now and _auto_initializable(result):
        return result.initialize(interp)
    result.initialized = _all_set(result) and _auto_initializable(result)
    return result


# ------------------------------------------------------------ graphical tools (notes only)


@builtin(interp=True, max_out=0)
def analyzeNetwork(interp: Any, net: object, *more: object) -> None:
    """analyzeNetwork(net)  the graphical network analyser is not available: prints a one-line
    summary of the network (a dlnetwork, a layer graph or a layer array) instead"""
    if type(net) not in (DlNetwork, LayerGraph):
        net = LayerGraph(Graph([], []).with_layers(_layers_argument(net, "analyzeNetwork")))
    graphical_note(interp, "analyzeNetwork", net)


@builtin(interp=True, max_out=0)
def deepNetworkDesigner(interp: Any, *args: object) -> None:
    """deepNetworkDesigner  the graphical network designer is not available: prints a note
    (and a one-line summary of a network given)"""
    if args and type(args[0]) in (DlNetwork, LayerGraph):
        graphical_note(interp, "deepNetworkDesigner", args[0])
    else:
        interp.write("deepNetworkDesigner is not available (no graphical tools).\n")
