"""The trace cache of accelerated functions: a call's operations recorded, then replayed.

A call of an accelerated function is recorded from the derivative trace it leaves: each
operation on traced dlarrays made a node that knows its operation (``node.op``), its
arguments and its parents, and each dlgradient call inside the call is noted by a
``Recorder``.  Walking back from the call's dlarray results to its dlarray inputs gives
the program: operation steps and gradient steps in the order they ran.  Replaying the
program on new inputs of the same pattern computes each operation on the NumPy data and
records it in the trace as the operation itself does (so dlgradient works through the
results), without running the function's code.

As in MATLAB, values that are not dlarrays are constants of the trace, and control flow
follows the recorded call.  A call whose results the program cannot follow is not cached
(its input pattern runs the function every time): a dlarray result not computed from the
inputs through traced operations (an untraced dlarray made inside, an operation that is
not differentiable and so not traced, or one that read a dlarray argument's data as
constants: weights, masks, options, indices, untraced targets; see trace.read_as_constant),
a traced dlarray from outside the call (captured by an anonymous function), or a result
that is neither a dlarray nor a cell, struct or table of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from sys import getrefcount
from types import FunctionType
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray, map_dlarrays, strip
from mlang.autodiff.trace import (
    SOLE_REFERENCE,
    Node,
    Primitive,
    fit_gradient,
    next_number,
    record,
)
from mlang.builtins.deeplearning.dlarrays import RECORDERS, gradients
from mlang.builtins.deeplearning.replay_kernels import computed as _computed
from mlang.builtins.deeplearning.replay_kernels import squared_error_means, step_kernels
from mlang.values.cell import Cell
from mlang.values.core import CHAR, char_text
from mlang.values.struct import Struct
from mlang.values.table import Table

# ------------------------------------------------------------- input patterns

_SCALARS = (float, bool, complex, int, str)


def pattern_key(args: list, nargout: int, traced_context: bool, found: list[DlArray],
                as_traced: bool = False) -> tuple | None:
    """What a cached trace is reused for: the size, class and format of each dlarray
    input (and whether it is traced), the value of every other input, and the number
    of outputs.  None for inputs mlang does not cache traces for (objects, handles).
    The dlarrays met are appended to ``found``, in the order map_dlarrays visits them.
    ``as_traced``: the key of the inputs once dlfeval has traced them."""
    keys = []
    for a in args:
        k = _key(a, found, as_traced)
        if k is None:
            return None
        keys.append(k)
    return (nargout, traced_context, *keys)


def _key(v: Any, found: list[DlArray], as_traced: bool) -> Any:
    t = type(v)
    if t is DlArray:
        found.append(v)
        return ("dlarray", v.data.shape, v.data.dtype, v.fmt, as_traced or v.node is not None)
    if t is np.ndarray:
        if v.dtype.kind == "O":
            return None
        return ("array", v.dtype, v.shape, v.tobytes())
    if t in _SCALARS:
        return (t.__name__, v)
    if t is Cell:
        parts = [_key(e, found, as_traced) for e in v.data.reshape(-1)]
        return None if None in parts else ("cell", v.data.shape, tuple(parts))
    if t is Struct:
        elems = []
        for elem in v.elems.reshape(-1):
            fields = tuple((name, _key(value, found, as_traced)) for name, value in elem.items())
            if any(k is None for _, k in fields):
                return None
            elems.append(fields)
        return ("struct", tuple(v.fields), v.elems.shape, tuple(elems))
    if getattr(t, "matlab_class", None) == "dlnetwork":
        return _network_key(v, found, as_traced)
    return None


# The layer classes whose forward and predict compute only through traced operations on
# their inputs and parameters, with every other value they use held in their properties
# (no random numbers, as dropout's training pass draws, and no statistics of the data
# kept outside the trace): a network of these replays as its recorded call.
_REPLAYABLE_LAYERS = frozenset({
    "nnet.cnn.layer.FeatureInputLayer", "nnet.cnn.layer.ImageInputLayer",
    "nnet.cnn.layer.SequenceInputLayer", "nnet.cnn.layer.InputLayer",
    "nnet.cnn.layer.FullyConnectedLayer", "nnet.cnn.layer.ReLULayer", "nnet.cnn.layer.TanhLayer",
    "nnet.cnn.layer.SigmoidLayer", "nnet.cnn.layer.SoftmaxLayer", "nnet.cnn.layer.SwishLayer",
    "nnet.cnn.layer.LeakyReLULayer", "nnet.cnn.layer.ELULayer", "nnet.cnn.layer.GELULayer",
    "nnet.cnn.layer.AdditionLayer", "nnet.cnn.layer.MultiplicationLayer",
    "nnet.cnn.layer.ConcatenationLayer", "nnet.cnn.layer.DepthConcatenationLayer",
})


def _network_key(net: Any, found: list[DlArray], as_traced: bool) -> tuple | None:
    """``_full_network_key``, with the part that holds for every network sharing this one's
    structure (the copies an optimizer or dlfeval makes, whose layers differ only in their
    parameter values: see DlNetwork.structure_item) worked out once for all of them; only
    the parameters' sizes, classes, formats and traced states are read at each call."""
    architecture = net.structure_item(_ARCHITECTURE, lambda: _network_architecture(net))
    if architecture is _NOT_KEYED:
        return _full_network_key(net, found, as_traced)
    layers, parameter_count = architecture
    start = len(found)

    def note(x: DlArray) -> DlArray:  # (the order in which dlfeval traces the parameters)
        found.append(x)
        return x

    net.map_dlarrays(note)
    if len(found) - start != parameter_count:  # (a parameter that is not a dlarray)
        del found[start:]
        return _full_network_key(net, found, as_traced)
    parameters = tuple([(x.data.shape, x.data.dtype, x.fmt, as_traced or x.node is not None)
                        for x in found[start:]])
    return ("dlnetwork", layers, parameters, tuple(net.output_names), bool(net.initialized))


_ARCHITECTURE = "pattern_key_architecture"  # (a DlNetwork structure item)
_NOT_KEYED = ("not keyed",)  # a network whose key is made in full at every call


def _network_architecture(net: Any) -> tuple:
    """What ``_network_key`` keeps for the networks of one structure: per layer its class
    and every property but its parameters, the connections, and the number of parameters;
    _NOT_KEYED for a network that has no key (see _full_network_key) or a parameter that is
    not a dlarray."""
    layers = []
    count = 0
    for layer in net.layers():
        cls = type(layer)
        if cls.matlab_class not in _REPLAYABLE_LAYERS:
            return _NOT_KEYED
        parameters = cls.LEARNABLES + cls.STATES
        items = []
        for name, value in layer.values.items():
            if name in parameters:
                if type(value) is not DlArray:
                    return _NOT_KEYED
                count += 1
                continue
            inside: list[DlArray] = []
            k = _key(value, inside, False)
            if k is None or inside:  # (a dlarray held elsewhere than in a parameter)
                return _NOT_KEYED
            items.append((name, k))
        layers.append((cls, tuple(items)))
    return (tuple(layers), tuple(net.graph.connections)), count


def _full_network_key(net: Any, found: list[DlArray], as_traced: bool) -> tuple | None:
    """The key of a dlnetwork input: its architecture (per layer its class and every
    property but the values of its learnable and state parameters, the connections, the
    outputs, whether it is initialised) and the size, class, format and traced state of
    each parameter; the parameters are inputs of the trace, read afresh at every call.
    None for a network with a layer not in _REPLAYABLE_LAYERS or a property the key
    cannot hold (a function handle, say)."""
    layers = []
    for layer in net.layers():
        cls = type(layer)
        if cls.matlab_class not in _REPLAYABLE_LAYERS:
            return None
        parameters = cls.LEARNABLES + cls.STATES
        items = []
        for name, value in layer.values.items():
            if type(value) is DlArray:
                if name not in parameters:
                    return None
                items.append((name, "dlarray", value.data.shape, value.data.dtype, value.fmt,
                              as_traced or value.node is not None))
                continue
            inside: list[DlArray] = []
            k = _key(value, inside, as_traced)
            if k is None or inside:  # (a dlarray held elsewhere than in a parameter)
                return None
            items.append((name, k))
        layers.append((cls, tuple(items)))

    def note(x: DlArray) -> DlArray:  # (the order in which dlfeval traces the parameters)
        found.append(x)
        return x

    net.map_dlarrays(note)
    return ("dlnetwork", tuple(layers), tuple(net.graph.connections), tuple(net.output_names),
            bool(net.initialized))


def dlarrays_in(value: Any) -> list[DlArray]:
    """The dlarrays in a value (or a list or tuple of values), in the order map_dlarrays
    visits them."""
    found: list[DlArray] = []

    def note(x: DlArray) -> DlArray:
        found.append(x)
        return x

    for v in value if type(value) in (list, tuple) else (value,):
        map_dlarrays(v, note)
    return found


# ------------------------------------------------------------------ recording


class Unsupported(Exception):
    """The recorded call cannot be replayed (see the module's notes)."""


@dataclass(slots=True)
class GradientCall:
    """A dlgradient call made during a recorded call."""

    y: DlArray
    variables: tuple
    higher: bool
    retain: bool
    outputs: tuple
    start: int  # node numbers of the call's backward pass: start <= number < end
    end: int


class Recorder:
    """Notes the dlgradient calls made while an accelerated function call is recorded."""

    __slots__ = ("calls",)

    def __init__(self) -> None:
        self.calls: list[GradientCall] = []

    def gradient_step(self, y: DlArray, variables: tuple | list, higher: bool, retain: bool,
                      outputs: tuple, start: int, end: int) -> None:
        self.calls.append(GradientCall(y, tuple(variables), higher, retain, outputs, start, end))


@dataclass(slots=True)
class OpStep:
    op: Any  # a builtin or Primitive
    args: tuple  # per argument: (slot, format) for a dlarray, (None, value) for a constant
    out: int
    # whether an argument is logical data (its rule then reads it as double); a class is
    # never a matter of the values, so it is that of every replay of the pattern
    logical: bool = False


@dataclass(slots=True)
class GradientStep:
    y: int
    variables: tuple  # the variables as recorded, their dlarrays replaced at replay
    sources: tuple  # the slots of those dlarrays
    higher: bool
    retain: bool
    outs: tuple  # slots of the gradients' dlarrays
    late: bool  # no later step uses its results (its traced results are only returned)


@dataclass(slots=True)
class FirstOrder:
    """How a program with one gradient step of first derivatives is replayed on the
    arrays alone, when its results' traces are about to be dropped: its operations
    computed on the data, its gradient passed back through their rules, and no trace
    kept (the same arithmetic as the traced replay and dlgradient)."""

    at: int  # the index of the gradient step
    targets: frozenset  # the slots of its variables
    # the operations to pass the gradient back through, users first:
    # (index of the step, its gradient rule, its result's slot, per argument the
    # argument's slot when the gradient goes on to it, else None)
    active: tuple
    kept: frozenset  # indexes of the steps whose arguments the rules read
    # kernels of steps (replay_kernels.step_kernels): by the index of a step, what computes
    # its value from (its arguments' data, the replay's memo), None where it declines ...
    values: dict = field(default_factory=dict)
    # ... and its rule's contributions from (rule, gradient, value, arguments' data, memo)
    rules: dict = field(default_factory=dict)
    logical: frozenset = frozenset()  # indexes of the active steps with logical arguments


@dataclass(slots=True)
class Program:
    inputs: int
    slots: int
    steps: list
    outputs: list  # per result: (template value, ((slot, format), ...))
    first_order: FirstOrder | None = None


def push_recorder(state: dict) -> Recorder:
    recorder = Recorder()
    state.setdefault(RECORDERS, []).append(recorder)
    return recorder


def pop_recorder(state: dict) -> None:
    state[RECORDERS].pop()


def recorded_call(interp: Any, inputs: list[DlArray], call: Callable[[], list]
                  ) -> tuple[list, Program | None]:
    """The results of ``call()``, made while a recorder records its operations, and the
    program of that call, whose dlarray inputs are ``inputs`` (None when it cannot be
    replayed)."""
    state = interp.family_state
    recorder = push_recorder(state)
    start = next_number()
    try:
        outs = call()
    finally:
        pop_recorder(state)
    try:
        return outs, extract(inputs, recorder, outs, start)
    except Unsupported:
        return outs, None


def extract(inputs: list[DlArray], recorder: Recorder, outs: list, start: int) -> Program:
    """The program of a recorded call whose dlarray inputs were ``inputs`` (nodes made
    from ``start`` on), from its results ``outs``; Unsupported when it cannot be replayed.

    A dlgradient call with higher derivatives, other than the last, whose backward pass
    ran only through rules in _PATTERN_RULES is taken in as the operations it recorded
    (inlined): the values that pass left untraced (the seed, ones shaped like y, what
    the rules made of it, the zeros of variables not reached) depend on the sizes,
    classes and constants of the trace alone, so they are constants of the program."""
    input_nodes = {x.node for x in inputs if x.node is not None}
    inlined = _inlined_calls(recorder, input_nodes, start)
    by_object: dict[int, tuple] = {}  # id of a dlarray -> ("slot", k), ("grad", call, k), ("const",)
    by_node: dict[Node, tuple] = {}
    for k, x in enumerate(inputs):
        by_object[id(x)] = ("slot", k)
        if x.node is not None:
            by_node.setdefault(x.node, ("slot", k))
    for c, call in enumerate(recorder.calls):
        for k, g in enumerate(dlarrays_in(call.outputs)):
            if c in inlined:
                if g.node is None:
                    by_object[id(g)] = ("const",)
                continue
            by_object[id(g)] = ("grad", c, k)
            if g.node is not None:
                by_node[g.node] = ("grad", c, k)
    ranges = [(call.start, call.end) for c, call in enumerate(recorder.calls) if c not in inlined]
    inlined_ranges = [(recorder.calls[c].start, recorder.calls[c].end) for c in inlined]
    nodes: set[Node] = set()
    grads: set[int] = set()
    pending: list[DlArray] = []

    def source(a: DlArray) -> tuple:
        found = by_object.get(id(a))
        if found is None and a.node is not None:
            found = by_node.get(a.node)
            if found is not None and found[0] == "slot" and a.data is not inputs[found[1]].data:
                raise Unsupported
        if found is not None:
            return found
        node = a.node
        if node is None or node.op is None or node.number < start or a.data is not node.out \
                or any(lo <= node.number < hi for lo, hi in ranges):
            raise Unsupported
        return ("node", node)

    def constant(a: DlArray, user: Node) -> bool:
        """Whether the untraced dlarray ``a``, an argument of ``user``, is a constant of
        an inlined backward pass."""
        if a.node is not None:
            return False
        found = by_object.get(id(a))
        if found is not None:
            return found[0] == "const"
        return any(lo <= user.number < hi for lo, hi in inlined_ranges)

    def need(a: DlArray) -> None:
        found = source(a)
        if found[0] == "node" and found[1] not in nodes:
            nodes.add(found[1])
            pending.append(a)
        elif found[0] == "grad" and found[1] not in grads:
            grads.add(found[1])
            call = recorder.calls[found[1]]
            need(call.y)
            for v in dlarrays_in(call.variables):
                need(v)

    results = []
    for value in outs:
        if type(value) not in (DlArray, Cell, Struct, Table):
            raise Unsupported
        found = dlarrays_in(value)
        for a in found:
            if source(a)[0] == "const":
                raise Unsupported
            need(a)
        results.append((value, found))
    while pending:
        node = pending.pop().node
        for arg in node.args:
            if type(arg) is DlArray:
                if not constant(arg, node):
                    need(arg)
            elif type(arg) in (list, tuple) and any(type(v) is DlArray for v in arg):
                raise Unsupported
    def constant_argument(a: DlArray) -> bool:  # (the arguments were checked above)
        return a.node is None and by_object.get(id(a), ("const",))[0] == "const"

    return _program(inputs, recorder, nodes, grads, results, source, constant_argument)


# Operations whose gradient rules compute, from the upstream gradient and the operation's
# arguments, only differentiable operations and values fixed by sizes, classes and
# constants (no mask or position read from the data, as relu, abs or max take): a traced
# backward pass through them leaves untraced only values the same for every call of a
# pattern.  sum and mean qualify without 'omitnan' (the rule reads where the NaNs are).
_PATTERN_RULES = frozenset({
    "plus", "minus", "times", "rdivide", "uminus", "mtimes", "power", "tanh", "sum", "mean",
    "index", "fullyconnect", "matmul", "tanh_backward", "tanh_backward_y", "sum_to",
    "expand_to", "reshape_to", "take", "put", "take_line", "put_line",
})


def _inlined_calls(recorder: Recorder, input_nodes: set, start: int) -> set[int]:
    """The dlgradient calls ``extract`` takes in as the operations they recorded: with
    higher derivatives, not the last, their backward pass through _PATTERN_RULES alone."""
    inlined: set[int] = set()
    ranges: list[tuple[int, int]] = []  # those of the calls inlined so far
    for c, call in enumerate(recorder.calls[:-1]):
        if call.higher and call.y.node is not None \
                and _pattern_only(call.y.node, input_nodes, start, ranges):
            inlined.add(c)
            ranges.append((call.start, call.end))
    return inlined


def _pattern_only(root: Node, input_nodes: set, start: int, ranges: list) -> bool:
    """Whether every operation the trace of ``root`` goes back through (to the inputs)
    is one of _PATTERN_RULES, with untraced dlarray arguments only in inlined passes."""
    seen = {root}
    stack = [root]
    while stack:
        node = stack.pop()
        if node in input_nodes:
            continue
        op = node.op
        if op is None or node.number < start or getattr(op, "name", None) not in _PATTERN_RULES:
            return False
        inside = any(lo <= node.number < hi for lo, hi in ranges)
        for k, a in enumerate(node.args):
            if type(a) is DlArray:
                if a.node is None:
                    if not inside:
                        return False
                elif a.node not in seen:
                    seen.add(a.node)
                    stack.append(a.node)
            elif type(a) in (list, tuple):
                if any(type(v) is DlArray for v in a):
                    return False
            elif k and op.name in ("sum", "mean") and not _plain_option(a):
                return False
    return True


def _plain_option(a: Any) -> bool:
    """A dimension or 'all': an option of sum or mean that reads no data."""
    if type(a) is np.ndarray and a.dtype == CHAR and a.size == 3:
        return char_text(a).lower() == "all"
    return type(a) in (float, int) or type(a) is np.ndarray and a.dtype.kind in "fiu"


# Loss operations whose targets, weights and masks enter their node as data: a gradient
# (an untraced dlarray) given as one of them would be a constant of the program, so a
# program with one after a gradient step is not replayed.
_DATA_TAKING_LOSSES = frozenset({"regression_loss", "crossentropy_loss"})


def _program(inputs: list, recorder: Recorder, nodes: set, grads: set, results: list,
             source: Any, constant: Any) -> Program:
    """The steps in the order they ran, each reading earlier steps' slots."""
    order = [(node.number, 0, node) for node in nodes]
    order += [(recorder.calls[c].start, 1, c) for c in grads]
    order.sort(key=lambda item: item[0])
    slot_of_node: dict[Node, int] = {}
    slot_of_grad: dict[tuple[int, int], int] = {}
    slots = len(inputs)

    def slot(a: DlArray) -> int:
        found = source(a)
        if found[0] == "slot":
            return found[1]
        if found[0] == "grad":
            return slot_of_grad[(found[1], found[2])]
        return slot_of_node[found[1]]

    steps: list = []
    last_reads: dict[int, int] = {}  # slot -> index of the last step reading it
    for _, kind, item in order:
        if kind == 0:
            if getattr(item.op, "name", None) in _DATA_TAKING_LOSSES \
                    and any(type(s) is GradientStep for s in steps):
                raise Unsupported
            args = tuple(((None, a.data) if constant(a) else (slot(a), a.fmt))
                         if type(a) is DlArray else (None, a) for a in item.args)
            for s, _fmt in args:
                if s is not None:
                    last_reads[s] = len(steps)
            steps.append(OpStep(item.op, args, slots, any(map(_is_logical, item.args))))
            slot_of_node[item] = slots
            slots += 1
        else:
            call = recorder.calls[item]
            found = dlarrays_in(call.outputs)
            sources = tuple(slot(v) for v in dlarrays_in(call.variables))
            y = slot(call.y)
            for s in (y, *sources):
                last_reads[s] = len(steps)
            outs = tuple(range(slots, slots + len(found)))
            for k in range(len(found)):
                slot_of_grad[(item, k)] = slots + k
            slots += len(found)
            variables = tuple(strip(v) for v in call.variables)
            steps.append(GradientStep(y, variables, sources, call.higher, call.retain, outs, False))
    # (the results kept without their traces, which the cache need not hold on to)
    outputs = [(strip(value), tuple((slot(a), a.fmt) for a in found)) for value, found in results]
    # a gradient step whose results no later step reads, with no gradient step after it
    for k in range(len(steps) - 1, -1, -1):
        step = steps[k]
        if type(step) is GradientStep:
            step.late = all(last_reads.get(s, -1) <= k for s in step.outs)
            break
    program = Program(len(inputs), slots, steps, outputs)
    program.first_order = _first_order(steps, {s for _, found in outputs for s, _fmt in found})
    return program


def _is_logical(a: Any) -> bool:
    data = a.data if type(a) is DlArray else a
    return type(data) is np.ndarray and data.dtype.kind == "b"


def _first_order(steps: list, results: set) -> FirstOrder | None:
    """The plan of the replay without traces, for a program with one gradient step whose
    results need no trace once the call's results are untraced (``results``: the slots the
    call returns); None for other programs."""
    at = [k for k, step in enumerate(steps) if type(step) is GradientStep]
    if len(at) != 1 or steps[at[0]].higher and not steps[at[0]].late:
        return None
    gradient = steps[at[0]]
    targets = frozenset(gradient.sources)
    # slots computed from a variable: the only ones whose gradients are worth passing on
    needed = set(targets)
    for step in steps[:at[0]]:
        if any(s in needed for s, _spec in step.args if s is not None):
            needed.add(step.out)
    reached = {gradient.y}
    active = []
    for k in range(at[0] - 1, -1, -1):
        step = steps[k]
        rule = getattr(step.op, "gradient", None)
        if step.out not in reached or step.out not in needed or rule is None:
            continue
        parents = tuple(s if s is not None and s in needed else None for s, _spec in step.args)
        active.append((k, rule, step.out, parents))
        reached.update(s for s in parents if s is not None)
    values, rules = step_kernels(steps, at[0], results)
    fused, noting, fused_rules = squared_error_means(steps, tuple(active), targets, results)
    if not (noting.keys() & values.keys() or fused_rules.keys() - rules.keys()):
        active = fused  # (each mean's rule had its kernel: _mean_rule, which the fused one calls)
        values.update(noting)
        rules.update(fused_rules)
    return FirstOrder(at[0], targets, tuple(active), frozenset(k for k, *_ in active),
                      values, rules, frozenset(k for k, *_ in active if steps[k].logical))


# -------------------------------------------------------------------- replay


def replay(program: Program, interp: Any, inputs: list[DlArray], outermost: bool) -> list:
    """The results of the recorded call for new ``inputs`` (of the recorded pattern),
    recorded in the trace of those inputs.  ``outermost``: the results' traces are about
    to be dropped, so gradients only returned need not be traced."""
    if outermost and untraced_replay(program, interp):
        return replay_untraced(program, interp, inputs)
    values: list[Any] = [None] * program.slots
    values[:len(inputs)] = inputs
    with np.errstate(all="ignore"):  # 0/0 and overflow give NaN and Inf, as in MATLAB
        for step in program.steps:
            if type(step) is OpStep:
                args = []
                raw = []
                for s, spec in step.args:
                    if s is None:
                        args.append(spec)
                        raw.append(spec)
                        continue
                    v = values[s]
                    if v.fmt != spec:
                        v = DlArray(v.data, spec, v.node)
                    args.append(v)
                    raw.append(v.data)
                op = step.op
                if type(op) is Primitive:
                    out = op.fn(*raw)
                else:
                    out = _computed(op, raw, interp)
                values[step.out] = record(op, tuple(args), raw, out, "")
            else:
                _gradient_step(step, values, interp, outermost)
    results = []
    for template, sources in program.outputs:
        fresh = iter([_formatted(values[s], fmt) for s, fmt in sources])
        results.append(map_dlarrays(template, lambda _x, fresh=fresh: next(fresh)))
    return results


def _formatted(v: DlArray, fmt: str) -> DlArray:
    return v if v.fmt == fmt else DlArray(v.data, fmt, v.node)


def _gradient_step(step: GradientStep, values: list, interp: Any, outermost: bool) -> None:
    leaves = [values[s] for s in step.sources]
    fresh = iter(leaves)
    variables = [map_dlarrays(v, lambda _x: next(fresh)) for v in step.variables]
    higher = step.higher and not (outermost and step.late)
    recorders = interp.family_state.get(RECORDERS)
    start = next_number() if recorders else 0
    outs = gradients(values[step.y], variables, leaves, higher, step.retain,
                     keep_arguments=bool(recorders))
    if recorders:  # an enclosing accelerated call being recorded notes the step too
        for recorder in recorders:
            recorder.gradient_step(values[step.y], variables, higher, step.retain, outs, start,
                                   next_number())
    for s, g in zip(step.outs, dlarrays_in(outs), strict=True):
        values[s] = g


def untraced_replay(program: Program, interp: Any) -> bool:
    """Whether ``replay_untraced`` gives the results of the program when their traces are
    about to be dropped (no enclosing accelerated call being recorded needs its steps)."""
    return program.first_order is not None and not interp.family_state.get(RECORDERS)


def replay_untraced(program: Program, interp: Any, inputs: list[DlArray]) -> list:
    """``replay`` of a program with one first-order gradient step whose results' traces
    are about to be dropped: the same values, computed on the arrays (``inputs``' data,
    traced or not) with no trace."""
    plan = program.first_order
    values: list[Any] = [None] * program.slots
    for k, x in enumerate(inputs):
        values[k] = x.data
    kept: dict[int, list] = {}
    kernels = plan.values
    memo: dict[int, np.ndarray] = {}  # values the kernels share (tanh_replay)
    with np.errstate(all="ignore"):  # 0/0 and overflow give NaN and Inf, as in MATLAB
        for k, step in enumerate(program.steps):
            if k == plan.at:
                _untraced_gradient(step, plan, values, kept, memo)
                continue
            raw = [spec if s is None else values[s] for s, spec in step.args]
            op = step.op
            kernel = kernels.get(k)
            out = None if kernel is None else kernel(raw, memo)
            if out is not None:
                values[step.out] = out
            elif type(op) is Primitive:
                values[step.out] = op.fn(*raw)
            else:
                values[step.out] = _computed(op, raw, interp)
            if k in plan.kept:
                kept[k] = raw
    results = []
    for template, sources in program.outputs:
        fresh = iter([DlArray(values[s], fmt) for s, fmt in sources])
        results.append(map_dlarrays(template, lambda _x, fresh=fresh: next(fresh)))
    return results


def _untraced_gradient(step: GradientStep, plan: FirstOrder, values: list, kept: dict,
                       memo: dict | None = None) -> None:
    """The gradient step of ``_replay_untraced``: what backward computes without higher
    derivatives, on slots instead of nodes (``memo``: the values the forward steps' kernels
    shared)."""
    kernels = plan.rules
    if memo is None:
        memo = {}
    y = values[step.y]
    grads: dict[int, Any] = {step.y: np.ones(y.shape, y.dtype)}
    targets = plan.targets
    summed: set[int] = set()  # slots whose gradient is a sum this pass made: added into in place
    logical = plan.logical
    ndarray = np.ndarray
    for k, rule, out, parents in plan.active:
        g = grads.get(out) if out in targets else grads.pop(out, None)
        if g is None:
            continue
        raw = kept[k]
        if k in logical:  # logical data counts as double
            raw = [v.astype(np.float64) if type(v) is ndarray and v.dtype.kind == "b" else v
                   for v in raw]
        kernel = kernels.get(k)
        contributions = rule(g, values[out], *raw) if kernel is None else \
            kernel(rule, g, values[out], raw, memo)
        for parent, c in zip(parents, contributions, strict=False):
            if c is None or parent is None:
                continue
            if type(c) is FunctionType:  # computed only when needed
                c = c()
            like = values[parent]
            if type(c) is not ndarray or c.shape != like.shape \
                    or (c.dtype is not like.dtype and c.dtype.kind != "c"):
                c = fit_gradient(c, like)
            old = grads.get(parent)
            if old is None:
                grads[parent] = c
            elif parent in summed and type(c) is ndarray and c.dtype == old.dtype:
                old += c
            elif SOLE_REFERENCE and type(c) is ndarray and c is not g and c.base is None \
                    and c.dtype == old.dtype and getrefcount(c) == SOLE_REFERENCE:
                # a new array the rule made for this contribution alone: the sum is
                # written over it (the same sum, without a new array)
                grads[parent] = np.add(old, c, out=c)
                summed.add(parent)
            else:
                grads[parent] = old + c
                summed.add(parent)
    for s, out in zip(step.sources, step.outs, strict=True):
        x = values[s]
        g = grads.get(s)
        if g is None:
            g = np.zeros_like(x)
        elif x.dtype.kind != "c" and g.dtype.kind == "c":
            g = ops.real(g)  # a real variable moves only in real directions
        values[out] = g
