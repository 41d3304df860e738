"""Derivative traces: recording operations on traced dlarrays, and the backward pass.

A traced dlarray points at the ``Node`` that made it.  A node keeps the
function's gradient rule, the arguments it was called with (traced dlarrays
keep their own nodes, so the graph hangs together through them) and its raw
output.  Untraced operations record nothing.

A gradient rule is ``rule(g, y, *args) -> tuple`` with one entry per
argument (None where there is no gradient): the vector-Jacobian product for
upstream gradient ``g`` and output ``y``.  An entry may be a function of no
arguments, called only when that argument needs its gradient.  Rules are written with the
differentiable operations of ``mlang.autodiff.ops``, so the same rule runs on
raw arrays (first derivatives, fast) and on traced dlarrays (the backward pass
is itself traced when higher derivatives are enabled).

Complex values follow MATLAB's convention (Wirtinger calculus): for a real
loss L of z = a + ib the gradient is dL/da + i dL/db, so a rule for a
holomorphic f returns ``g .* conj(f'(z))``, and a rule for a function whose
values are always real (real, abs, norm...) starts from ``real(g)``.

A result takes the data format of its first formatted argument, with two
exceptions: element-wise functions of formatted operands with different
formats line the operands up by label first (``align_formats``: singleton
dimensions added at the end of each block of same-labelled dimensions, the
result labelled with the union), and functions that reorder dimensions
(reshape, permute, transpose, squeeze) keep only the labels that still fit.
"""

from __future__ import annotations

import itertools
import operator
import sys
from collections.abc import Callable
from types import FunctionType
from typing import Any

import numpy as np

# ops imports this module; the package's __init__ orders the two (see dlarray.py).
from mlang.autodiff import ops
from mlang.autodiff.dlarray import LABELS, DlArray
from mlang.errors import error
from mlang.values.core import class_of, fix_shape

_numbering = itertools.count()  # creation order of nodes: a node comes after its parents


def _references_of_a_local() -> int:
    c = np.empty(0)  # (held by one local name only, as a new contribution in _propagate)
    return sys.getrefcount(c)


# How many references sys.getrefcount reports for an array held by one local name alone
# (0: not known, on Python implementations and versions whose counts are not exact): a
# gradient contribution with no other reference can take the sum in its own memory.
SOLE_REFERENCE = _references_of_a_local() \
    if sys.implementation.name == "cpython" and sys.version_info < (3, 14) else 0


class Node:
    """One recorded operation (or a leaf: a traced input of dlfeval)."""

    __slots__ = ("parents", "rule", "args", "raw", "out", "number", "op")

    def __init__(self, parents: tuple, rule: Callable | None, args: tuple, raw: tuple,
                 out: np.ndarray, op: Any = None) -> None:
        self.number = next(_numbering)
        self.op = op  # the builtin or Primitive computed (None for a leaf or identity)
        self.parents = parents  # per argument: the argument's Node, or None
        self.rule = rule  # None for a leaf; RELEASED once a backward pass discarded it
        self.args = args  # the arguments as given (dlarrays keep their trace)
        self.raw = raw  # the same with dlarrays replaced by their data
        self.out = out


def _identity_rule(g: Any, y: Any, x: Any) -> tuple:
    return (g,)


def _released(g: Any, y: Any, *args: Any) -> tuple:
    raise error("deep:dlgradient:TraceDiscarded",
                "The derivative trace of the value to differentiate has been discarded by a "
                "previous call to dlgradient. To compute more than one gradient from the same "
                "trace, call dlgradient with 'RetainData' set to true.")


RELEASED = _released


def traced_input(x: DlArray) -> DlArray:
    """A dlfeval input: a fresh leaf of the trace.  An input already traced by an
    enclosing dlfeval stays connected to its trace through the new leaf."""
    if x.node is None:
        return DlArray(x.data, x.fmt, Node((), None, (), (), x.data))
    return DlArray(x.data, x.fmt, Node((x.node,), _identity_rule, (x,), (x.data,), x.data))


def read_as_constant(result: Any, *read: Any) -> Any:
    """``result``, a dlarray an operation computed reading the data of ``read`` as
    constants (weights, masks, targets or options given as dlarrays, whose values a
    recorded operation would keep).  When a dlarray is among them, a traced result comes
    back through an identity node of no operation (``op`` None, as for operations that are
    not differentiable: its own node may be an input's, when nothing was computed), which
    a trace cache or dlfeval plan cannot replay: they run the code again instead of
    reusing the values of the call they recorded.  The values and gradients are the same."""
    if type(result) is DlArray and result.node is not None:
        for a in read:
            if type(a) is DlArray:
                data = result.data
                return DlArray(data, result.fmt, Node((result.node,), _identity_rule, (result,),
                                                      (data,), data))
    return result


class Primitive:
    """A differentiable operation used by gradient rules that is not a MATLAB function."""

    __slots__ = ("name", "fn", "gradient", "direct")
    dl = "differentiable"

    def __init__(self, name: str, fn: Callable, gradient: Callable) -> None:
        self.name = name
        self.fn = fn
        self.gradient = gradient
        # a result formatted as its first formatted argument (no lining up of formats, no
        # reordered labels): ops.apply records it without dl_call's format rules
        self.direct = name not in ELEMENTWISE and name not in REORDERS

    def invoke(self, interp: Any, args: list, nargout: int) -> list:
        return [self.fn(*args)]

    def call(self, interp: Any, args: list, nargout: int, frame: Any = None) -> list:
        for a in args:
            if type(a) is DlArray:
                return dl_call(self, interp, args, nargout)
        return self.invoke(interp, args, nargout)


def undefined_for_dlarray(name: str) -> Exception:
    return error("MATLAB:UndefinedFunction",
                 f"Undefined function '{name}' for input arguments of type 'dlarray'.")


def result_data(value: Any) -> np.ndarray:
    """A builtin's result as dlarray data: single, double or logical values only."""
    t = type(value)
    if t is np.ndarray and value.dtype.kind in "fcb":
        return value
    if t is float or t is bool or t is complex:
        return np.array([[value]])
    raise error("deep:dlarray:InvalidDataType",
                f"A dlarray cannot hold a value of class {class_of(value)}: dlarray supports "
                "data of type single, double or logical.")


def dl_call(fn: Any, interp: Any, args: list, nargout: int) -> list:
    """Call a builtin (or Primitive) with dlarray arguments: compute on their data,
    return dlarrays, and record the call when an argument is traced."""
    mode = fn.dl
    if mode is None:
        raise undefined_for_dlarray(fn.name)
    fmt = None
    name = fn.name
    if len(args) == 1 and name not in REORDERS:
        return _dl_call_one(fn, mode, interp, args[0], nargout)
    if name in ELEMENTWISE:
        args, fmt = align_formats(args)
    raw = [a.data if type(a) is DlArray else a for a in args]
    outs = fn.invoke(interp, raw, nargout)
    if mode == "data" or not outs:
        return outs
    out = result_data(outs[0])
    if fmt:
        fmt = trimmed_format(fmt, out.shape)
    elif name in REORDERS:
        fmt = _reordered_format(name, args, out)
    outs[0] = record(fn if mode == "differentiable" else None, tuple(args), raw, out, fmt)
    return outs


def _dl_call_one(fn: Any, mode: str, interp: Any, x: DlArray, nargout: int) -> list:
    """``dl_call`` of a function of one argument (a dlarray) that keeps its format
    (tanh, exp, sum...): what the general path makes of it, with one argument to look at."""
    data = x.data
    outs = fn.invoke(interp, [data], nargout)
    if mode == "data" or not outs:
        return outs
    out = result_data(outs[0])
    fmt = x.fmt
    if fmt and out.ndim > len(fmt):
        fmt = ""
    node = x.node
    if node is None or mode != "differentiable":
        outs[0] = DlArray(out, fmt)
        return outs
    if data.dtype.kind == "b":  # logical data counts as double in the rules, as in arithmetic
        data = data.astype(np.float64)
    outs[0] = DlArray(out, fmt, Node((node,), fn.gradient, (x,), (data,), out, fn))
    return outs


def record(fn: Any, args: tuple, raw: list | tuple, out: np.ndarray,
           fmt: str | None = None) -> DlArray:
    """The dlarray result ``out`` of ``fn`` applied to ``args`` (their data: ``raw``),
    recorded in the trace when an argument is traced (``fn`` None: never recorded).
    The result takes the format ``fmt`` or, when None, the first data format among
    the arguments, if it fits."""
    traced = False
    first = ""
    for a in args:
        if type(a) is DlArray:
            if a.node is not None:
                traced = True
            if not first:
                first = a.fmt
    if fmt is None:
        fmt = first
    if fmt and out.ndim > len(fmt):
        fmt = ""
    if not traced or fn is None:
        return DlArray(out, fmt)
    parents = tuple([a.node if type(a) is DlArray else None for a in args])
    for a in raw:
        if type(a) is np.ndarray and a.dtype.kind == "b":
            # logical data counts as double in the rules, as it does in arithmetic
            raw = tuple([a.astype(np.float64) if type(a) is np.ndarray and a.dtype.kind == "b"
                         else a for a in raw])
            break
    return DlArray(out, fmt, Node(parents, fn.gradient, args, tuple(raw), out, fn))


def apply_direct(p: Primitive, args: tuple) -> DlArray:
    """``p`` (a Primitive whose result takes its first argument format: ``p.direct``)
    applied to ``args``, a dlarray among them: what ``record`` makes of
    ``p.fn`` on their data, with the arguments looked at once."""
    raw = []
    keep = raw.append
    parents = []
    parent = parents.append
    traced = logical = False
    first = ""
    for a in args:
        if type(a) is DlArray:
            data = a.data
            node = a.node
            if node is not None:
                traced = True
            if not first:
                first = a.fmt
            keep(data)
            parent(node)
            if data.dtype.kind == "b":
                logical = True
        else:
            keep(a)
            parent(None)
            if type(a) is np.ndarray and a.dtype.kind == "b":
                logical = True
    out = result_data(p.fn(*raw))
    fmt = first
    if fmt and out.ndim > len(fmt):
        fmt = ""
    if not traced:
        return DlArray(out, fmt)
    if logical:  # logical data counts as double in the rules, as it does in arithmetic
        raw = [a.astype(np.float64) if type(a) is np.ndarray and a.dtype.kind == "b" else a
               for a in raw]
    return DlArray(out, fmt, Node(tuple(parents), p.gradient, args, tuple(raw), out, p))


def next_number() -> int:
    """A number greater than those of every node made so far and smaller than those of
    every node made later: brackets the nodes one computation makes."""
    return next(_numbering)


# ------------------------------------------------------- formats of results

# Element-wise functions of several arrays: formatted operands meet label by label.
ELEMENTWISE = frozenset({
    "plus", "minus", "times", "rdivide", "ldivide", "power", "eq", "ne", "lt", "le", "gt",
    "ge", "and", "or", "xor", "max", "min", "atan2", "hypot", "mod", "rem",
})
# Functions whose result's dimensions are not the input's: reshape forgets the labels,
# permute and transpose keep them only when each dimension keeps its label, squeeze
# drops the labels of the dimensions it removes.
REORDERS = frozenset({"reshape", "permute", "transpose", "ctranspose", "squeeze"})


def aligned_format(formats: list[str]) -> str:
    """The format of the result of an element-wise operation on arrays of ``formats``
    (each in canonical order): every label as many times as the most any operand has."""
    return "".join(label * max(f.count(label) for f in formats) for label in LABELS)


def aligned_shape(x: DlArray, target: str) -> tuple[int, ...]:
    """The shape of ``x`` with singleton dimensions added at the end of each block of
    same-labelled dimensions, so that its labels line up with ``target``'s."""
    shape = x.shape
    sizes: list[int] = []
    k = 0
    for label in LABELS:
        have = x.fmt.count(label)
        sizes += shape[k:k + have]
        sizes += [1] * (target.count(label) - have)
        k += have
    return fix_shape(tuple(sizes))


def align_formats(args: list) -> tuple[list, str | None]:
    """The arguments of an element-wise operation with their dimensions lined up by label
    (MATLAB's implicit expansion of formatted dlarrays), and the result's format; the
    arguments as they are and None when at most one data format is among them."""
    formats = [a.fmt for a in args if type(a) is DlArray and a.fmt]
    if len(formats) < 2 or all(f == formats[0] for f in formats):
        return args, None
    target = aligned_format(formats)
    aligned = []
    for a in args:
        if type(a) is DlArray and a.fmt:
            shape = aligned_shape(a, target)
            if a.node is None:
                a = DlArray(a.data.reshape(shape, order="F"), "")
            else:  # recorded, so the gradient finds its way back to the operand's shape
                a = ops.reshape_to(DlArray(a.data, "", a.node), shape)
        aligned.append(a)
    return aligned, target


def trimmed_format(fmt: str, shape: tuple[int, ...]) -> str:
    """``fmt`` without the singleton 'U' dimensions at its end after the second."""
    full = shape + (1,) * (len(fmt) - len(shape))
    while len(fmt) > 2 and fmt[-1] == "U" and full[len(fmt) - 1] == 1:
        fmt = fmt[:-1]
    return fmt


def _reordered_format(name: str, args: list, out: np.ndarray) -> str:
    """The format of the result of reshape, permute or transpose of a dlarray."""
    x = args[0]
    fmt = x.fmt if type(x) is DlArray else ""
    if not fmt or name == "reshape":
        return ""
    if name == "squeeze":
        shape = x.shape
        if len(shape) <= 2:
            return fmt
        kept = "".join(label for label, n in zip(fmt, shape, strict=True) if n != 1)
        if len(kept) == 1 and out.ndim == 2 and out.shape[1] == 1:
            return kept + "U"  # one labelled column, as dlarray labels a vector
        return kept if len(kept) >= 2 else ""
    if name == "permute":
        try:
            order = [int(k) for k in np.asarray(args[1]).reshape(-1)]
        except (TypeError, ValueError):
            return ""
        padded = fmt + " " * max(0, max(order, default=0) - len(fmt))
        moved = "".join(padded[k - 1] for k in order).rstrip()
        return fmt if moved == fmt else ""
    return fmt if len(fmt) == 2 and fmt[0] == fmt[1] else ""


# ------------------------------------------------------------------ backward


def _topological(root: Node) -> list[Node]:
    """Nodes reachable from ``root``, each after all of its parents (creation order)."""
    seen = {root, None}  # (None: an argument that is not traced)
    add = seen.add
    stack = [root]
    pop = stack.pop
    push = stack.append
    nodes = []
    keep = nodes.append
    while stack:
        node = pop()
        if node.rule is RELEASED:
            RELEASED(None, None)
        keep(node)
        for p in node.parents:
            if p not in seen:
                add(p)
                push(p)
    nodes.sort(key=_number)
    return nodes


_number = operator.attrgetter("number")  # a node's creation order


def _needed(order: list[Node], targets: set[Node]) -> set[Node]:
    """Nodes on some path to a target: the only ones worth propagating through."""
    return _needed_and_active(order, targets)[0]


def _needed_and_active(order: list[Node], targets: set[Node]) -> tuple[set[Node], list[Node]]:
    """The nodes on some path to a target (the only ones worth propagating through), and
    those of them with a rule, users first (the order of the backward pass)."""
    needed = set(targets)
    add = needed.add
    active = []
    keep = active.append
    for node in order:  # parents come first
        if node in needed:  # a target
            if node.rule is not None:
                keep(node)
            continue
        for p in node.parents:
            if p in needed:  # (None never is)
                add(node)
                keep(node)  # (a node with parents has a rule)
                break
    active.reverse()
    return needed, active


def backward(y: DlArray, xs: list[DlArray], higher: bool, retain: bool,
             keep_arguments: bool = False) -> list[Any]:
    """Gradients of the traced scalar ``y`` with respect to the traced ``xs``: raw
    arrays, or traced dlarrays when ``higher`` (the backward pass is recorded).
    ``keep_arguments``: a trace discarded (``retain`` false) keeps its nodes' arguments,
    for a recording of the call (trace_cache.extract) to read; its rules are released
    all the same."""
    with np.errstate(all="ignore"):  # 0/0 and overflow give NaN and Inf, as in MATLAB
        return _backward(y, xs, higher, retain, keep_arguments)


def _backward(y: DlArray, xs: list[DlArray], higher: bool, retain: bool,
              keep_arguments: bool = False) -> list[Any]:
    root = y.node
    order = _topological(root)
    targets = {x.node for x in xs}
    needed, active = _needed_and_active(order, targets)
    seed = np.ones(y.data.shape, y.data.dtype)
    if higher:
        grads = _propagate_traced(active, needed, targets, {root: DlArray(seed)})
    else:
        grads = _propagate(active, needed, targets, {root: seed})
        if not retain:
            for node in order:
                if node.rule is not None:
                    node.rule = RELEASED
                    if not keep_arguments:
                        node.args = node.raw = ()
    out = []
    for x in xs:
        g = grads.get(x.node)
        if g is None:
            g = np.zeros_like(x.data)
            g = DlArray(g) if higher else g
        elif x.data.dtype.kind != "c" and (g.data if higher else g).dtype.kind == "c":
            g = ops.real(g)  # a real variable moves only in real directions
        out.append(g)
    return out


def _propagate(active: list[Node], needed: set[Node], targets: set[Node], grads: dict) -> dict:
    """The gradients of the nodes, as raw arrays, passed back from the root's in ``grads``."""
    # nodes whose gradient is an array this pass made (a sum) and nothing else holds:
    # further contributions are added into it in place
    summed: set[Node] = set()
    ndarray = np.ndarray
    sole = SOLE_REFERENCE
    getrefcount = sys.getrefcount
    get = grads.get
    pop = grads.pop
    for node in active:
        # a node's gradient is complete when its turn comes (its users come after it):
        # dropped once passed on, so that its memory serves the next ones while in cache
        g = get(node) if node in targets else pop(node, None)
        if g is None:
            continue
        for parent, c in zip(node.parents, node.rule(g, node.out, *node.raw), strict=False):
            if c is None or parent not in needed:  # (None never is)
                continue
            if type(c) is FunctionType:  # computed only when needed
                c = c()
            like = parent.out
            if type(c) is not ndarray or c.shape != like.shape \
                    or (c.dtype is not like.dtype and c.dtype.kind != "c"):
                c = _fit(c, like, False, ops)
            old = get(parent)
            if old is None:
                grads[parent] = c
            elif parent in summed and type(c) is ndarray and c.dtype == old.dtype:
                old += c
            elif sole and type(c) is ndarray and c is not g and c.base is None \
                    and c.dtype == old.dtype and c.shape == old.shape and getrefcount(c) == sole:
                # a new array made for this contribution alone (a rule may return a saved
                # array or g itself, which are held elsewhere): the same sum written over it
                grads[parent] = np.add(old, c, out=c)
                summed.add(parent)
            else:
                grads[parent] = old + c
                summed.add(parent)
    return grads


def _propagate_traced(active: list[Node], needed: set[Node], targets: set[Node], grads: dict) -> dict:
    """The same as traced dlarrays: the backward pass is itself recorded."""
    for node in active:
        g = grads.get(node) if node in targets else grads.pop(node, None)
        if g is None:
            continue
        contributions = node.rule(g, DlArray(node.out, "", node), *node.args)
        for parent, c in zip(node.parents, contributions, strict=False):
            if c is None or parent not in needed:
                continue
            if type(c) is FunctionType:
                c = c()
            like = parent.out
            if type(c) is not DlArray or c.data.shape != like.shape \
                    or (c.data.dtype is not like.dtype and c.data.dtype.kind != "c"):
                c = _fit(c, like, True, ops)
            old = grads.get(parent)
            grads[parent] = c if old is None else ops.plus(old, c)
    return grads


def fit_gradient(c: Any, like: np.ndarray) -> Any:
    """A raw gradient contribution in the shape and type of the array it is for, as the
    backward pass without higher derivatives makes it."""
    return _fit(c, like, False, ops)


def _fit(c: Any, like: np.ndarray, higher: bool, ops: Any) -> Any:
    """A gradient contribution in the shape and type of the value it is for.

    A complex contribution to a real value stays complex: the value may be real
    only at this point (z.*z at imaginary z).  Functions whose values are real for
    every input (real, abs, ...) take the real part in their own rules, and the
    gradient of a real variable is made real at the end of the pass."""
    if higher:
        if type(c) is not DlArray:
            c = DlArray(_fit(c, like, False, ops))
            return c
        if c.data.shape != like.shape:
            c = ops.reshape_to(c, like.shape)
        if c.data.dtype != like.dtype and like.dtype.kind != "b" and c.data.dtype.kind != "c":
            c = DlArray(c.data.astype(like.dtype), c.fmt, c.node)
        return c
    if type(c) is not np.ndarray:
        c = np.asarray(c)
    if c.shape != like.shape:
        c = np.full(like.shape, c.reshape(-1)[0]) if c.size == 1 else c.reshape(like.shape, order="F")
    if c.dtype != like.dtype and like.dtype.kind != "b" and c.dtype.kind != "c":
        c = c.astype(like.dtype)
    return c
