"""Recurrent operations on dlarrays: lstm and gru.

The time loop runs in Python, one step at a time, each step vectorised over the batch
and the hidden units.  Every step is made of differentiable operations (matrix
products, the activations, and the block primitives below), so the trace of a call
gives first derivatives and, when the backward pass is traced, higher ones.  A forward
and backward pass of a 64-unit LSTM over 50 steps, batch 32, takes a few tens of
milliseconds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray, as_data
from mlang.autodiff.trace import Primitive
from mlang.builtins.coerce import options, text_option
from mlang.builtins.deeplearning.formats import data_format_option, formatted_input, output_like
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of, fix_shape

# ------------------------------------------------------------ block primitives


def _block(x: np.ndarray, r0: int, r1: int, c0: int, c1: int) -> np.ndarray:
    return x[r0:r1, c0:c1].copy()


def _place(g: np.ndarray, r0: int, r1: int, c0: int, c1: int, shape: tuple[int, ...]) -> np.ndarray:
    out = np.zeros(shape, dtype=g.dtype)
    out[r0:r1, c0:c1] = g
    return out


BLOCK = Primitive("block", _block, lambda g, y, x, r0, r1, c0, c1: (
    place(g, r0, r1, c0, c1, ops.shape_of(x)), None, None, None, None))
PLACE = Primitive("place", _place, lambda g, y, x, r0, r1, c0, c1, shape: (
    block(g, r0, r1, c0, c1), None, None, None, None, None))


def block(x: Any, r0: int, r1: int, c0: int, c1: int) -> Any:
    """Rows r0:r1 and columns c0:c1 (zero-based, end excluded) of a matrix."""
    return ops.apply(BLOCK, x, r0, r1, c0, c1)


def place(g: Any, r0: int, r1: int, c0: int, c1: int, shape: tuple[int, ...]) -> Any:
    """A zero matrix of ``shape`` with ``g`` as its block r0:r1, c0:c1."""
    return ops.apply(PLACE, g, r0, r1, c0, c1, tuple(shape))


def rows(x: Any, r0: int, r1: int) -> Any:
    return block(x, r0, r1, 0, ops.shape_of(x)[1])


def _hcat_rule(g: Any, y: Any, *parts: Any) -> tuple:
    out = []
    start = 0
    height = ops.shape_of(y)[0]
    for part in parts:
        width = ops.shape_of(part)[1]
        out.append(lambda s=start, w=width: block(g, 0, height, s, s + w))
        start += width
    return tuple(out)


HCAT = Primitive("hcat", lambda *parts: np.concatenate(parts, axis=1), _hcat_rule)


def _permute(x: np.ndarray, order: tuple[int, ...]) -> np.ndarray:
    full = x.reshape(x.shape + (1,) * (len(order) - x.ndim)) if x.ndim < len(order) else x
    out = np.ascontiguousarray(full.transpose(order))
    return out.reshape(fix_shape(out.shape))


def _permute_rule(g: Any, y: Any, x: Any, order: tuple[int, ...]) -> tuple:
    inverse = tuple(int(k) for k in np.argsort(order))
    return (lambda: ops.reshape_to(permute(g, inverse), ops.shape_of(x)), None)


PERMUTE = Primitive("permute_axes", _permute, _permute_rule)


def permute(x: Any, order: tuple[int, ...]) -> Any:
    """``x`` with its dimensions (zero-based ``order``, trailing singletons allowed) permuted."""
    return ops.apply(PERMUTE, x, tuple(order))


def reshape(x: Any, shape: tuple[int, ...]) -> Any:
    """``x`` reshaped (column-major) to ``shape`` in MATLAB's form (trailing singletons dropped)."""
    shape = fix_shape(tuple(shape))
    return x if ops.shape_of(x) == shape else ops.reshape_to(x, shape)


# ------------------------------------------------------------ activations


def _hard_sigmoid(x: np.ndarray) -> np.ndarray:
    return np.clip(0.2 * x + 0.5, 0.0, 1.0).astype(x.dtype, copy=False)


def _hard_sigmoid_rule(g: Any, y: Any, x: Any) -> tuple:
    data = ops.data_of(x)
    slope = np.where(np.abs(data) < 2.5, 0.2, 0.0).astype(data.dtype)
    return (ops.times(g, slope),)


HARD_SIGMOID = Primitive("hard_sigmoid", _hard_sigmoid, _hard_sigmoid_rule)


def _softsign(x: np.ndarray) -> np.ndarray:
    return x / (1 + np.abs(x))


def _softsign_rule(g: Any, y: Any, x: Any) -> tuple:
    d = 1 + np.abs(x) if type(x) is np.ndarray else ops.plus(ops.call("abs", x), 1.0)
    return (ops.rdivide(g, ops.times(d, d)),)


SOFTSIGN = Primitive("softsign", _softsign, _softsign_rule)

STATE_ACTIVATIONS = {
    "tanh": lambda x: ops.call("tanh", x),
    "softsign": lambda x: ops.apply(SOFTSIGN, x),
    "relu": lambda x: ops.call("relu", x),
}
GATE_ACTIVATIONS = {
    "sigmoid": lambda x: ops.call("sigmoid", x),
    "hard-sigmoid": lambda x: ops.apply(HARD_SIGMOID, x),
}


def _activation(given: dict, name: str, table: dict, function: str) -> Any:
    if name not in given:
        return next(iter(table.values()))
    kind = text_option(given[name])
    kind = kind.lower() if kind is not None else None
    if kind not in table:
        choices = ", ".join(f"'{k}'" for k in table)
        raise error(f"deep:{function}:Invalid{name}",
                    f"Value of '{name}' must be one of {choices}.")
    return table[kind]


# ------------------------------------------------------------ arguments


def _undefined(function: str, args: tuple) -> Exception:
    return error("MATLAB:UndefinedFunction",
                 f"Undefined function '{function}' for input arguments of type "
                 f"'{class_of(args[0])}'.")


def _plain(v: Any, what: str, function: str) -> DlArray:
    """An argument as an unformatted dlarray (keeping its trace): the computation works on
    plain matrices, labels are given back at the end."""
    if type(v) is DlArray:
        data = v.data
        out = DlArray(data, "", v.node)
    else:
        if class_of(v) not in ("double", "single", "logical"):
            raise error(f"deep:{function}:InvalidInput",
                        f"{what} must be a numeric array or a dlarray of type single or double.")
        data = as_data(v)
        out = DlArray(data)
    if data.dtype.kind == "c":
        raise error(f"deep:{function}:ComplexInput", f"{what} must be real.")
    if data.dtype.kind == "b":
        out = DlArray(data.astype(np.float64), "", None) if out.node is None else ops.call("double", out)
    return out


def _state(v: Any, hidden: int, batch: int, what: str, function: str) -> tuple[DlArray, bool]:
    """An initial state as a hidden-by-batch matrix (a column is used for every observation),
    and whether it was a formatted dlarray."""
    formatted = type(v) is DlArray and bool(v.fmt)
    if formatted:
        fmt = v.fmt
        extra = [n for n, label in zip(v.shape, fmt, strict=False) if label not in "CB"]
        if "C" not in fmt or any(n != 1 for n in extra):
            raise error(f"deep:{function}:InvalidStateFormat",
                        f"{what} must have a channel ('C') dimension and, optionally, a batch "
                        "('B') dimension.")
    h = _plain(v, what, function)
    shape = ops.shape_of(h)
    size = int(np.prod(shape))
    if size == hidden:
        h = reshape(h, (hidden, 1))
    elif len(shape) != 2 or shape[0] != hidden or shape[1] != batch:
        raise error(f"deep:{function}:InvalidStateSize",
                    f"{what} must be a vector with {hidden} elements or a {hidden}-by-{batch} "
                    "matrix (number of hidden units by number of observations).")
    if ops.shape_of(h)[1] != batch:
        h = ops.expand_to(h, (hidden, batch))
    return h, formatted


def _parameters(weights: Any, recurrent: Any, bias: Any, gates: int, inputs: int,
                function: str, bias_gates: int | None = None) -> tuple[DlArray, DlArray, DlArray, int]:
    """The weights (gates*H by inputs), recurrent weights (gates*H by H) and bias (a column),
    checked against each other and the input; H, the number of hidden units."""
    w = _plain(weights, "Weights", function)
    r = _plain(recurrent, "Recurrent weights", function)
    b = _plain(bias, "Bias", function)
    rshape = ops.shape_of(r)
    hidden = rshape[1] if len(rshape) == 2 else 0
    if len(rshape) != 2 or rshape[0] != gates * hidden or hidden == 0:
        raise error(f"deep:{function}:InvalidRecurrentWeightsSize",
                    f"Recurrent weights must be a {gates}*NumHiddenUnits-by-NumHiddenUnits matrix.")
    wshape = ops.shape_of(w)
    if len(wshape) != 2 or wshape != (gates * hidden, inputs):
        raise error(f"deep:{function}:InvalidWeightsSize",
                    f"Weights must be a {gates * hidden}-by-{inputs} matrix "
                    f"({gates}*NumHiddenUnits-by-InputSize).")
    nb = (bias_gates or gates) * hidden
    bshape = ops.shape_of(b)
    if int(np.prod(bshape)) != nb or (len(bshape) == 2 and min(bshape) != 1):
        raise error(f"deep:{function}:InvalidBiasSize",
                    f"Bias must be a vector with {nb} elements.")
    return w, r, reshape(b, (nb, 1)), hidden


class _Sequence:
    """The input sequence as a (channels, batch*time) matrix, column b + B*t for
    observation b at step t, and what the output's labels will be."""

    def __init__(self, x: Any, given: dict, function: str) -> None:
        y, self.form = formatted_input(x, data_format_option(given), function, required="C")
        fmt = y.fmt
        if "U" in fmt:
            raise error(f"deep:{function}:InvalidInputFormat",
                        "Input data must not have unspecified ('U') dimensions.")
        shape = y.shape
        spatial = int(np.prod([shape[k] for k, label in enumerate(fmt) if label == "S"]))
        self.channels = spatial * shape[fmt.index("C")]
        self.batch = shape[fmt.index("B")] if "B" in fmt else 1
        self.steps = shape[fmt.index("T")] if "T" in fmt else 1
        self.labels = "C" + ("B" if "B" in fmt else "") + ("T" if "T" in fmt else "")
        data = _plain(DlArray(y.data, "", y.node), "Input data", function)
        self.matrix = reshape(data, (self.channels, self.batch * self.steps))

    def output(self, hs: list, hidden: int) -> Any:
        """The hidden states of every step as the output Y in the input's form."""
        sizes = {"C": hidden, "B": self.batch, "T": self.steps}
        if not hs:  # a sequence of no time steps: an empty output
            empty = np.zeros(tuple(sizes[label] for label in self.labels), self.matrix.data.dtype)
            return output_like(DlArray(empty, self.labels), self.form)
        joined = ops.apply(HCAT, *hs) if len(hs) > 1 else hs[0]
        y = reshape(joined, tuple(sizes[label] for label in self.labels))
        return output_like(DlArray(y.data, self.labels, y.node), self.form)


def _input_part(w: Any, xm: Any, seq: _Sequence, t: int) -> Any:
    """W * x_t: the input's part of the gates at step t.  (One product per step rather than
    one for the whole sequence: the gradient of a column block of a large matrix is a
    matrix of that large size, and summing one per step would cost more than the products.)"""
    if seq.steps == 1:
        return ops.matmul(w, xm)
    return ops.matmul(w, block(xm, 0, seq.channels, t * seq.batch, (t + 1) * seq.batch))


def _common_dtype(values: list[DlArray]) -> list[DlArray]:
    """Single when any argument is single (MATLAB's rule for mixed single and double)."""
    if any(v.data.dtype == np.float32 for v in values):
        return [v if v.data.dtype == np.float32 else ops.call("single", v) for v in values]
    return values


def _state_output(h: Any, formatted: bool) -> DlArray:
    return DlArray(h.data, "CB" if formatted else "", h.node)


# ------------------------------------------------------------ lstm

_LSTM_OPTIONS = ("DataFormat", "StateActivationFunction", "GateActivationFunction")


@builtin(dl="traced", nargout=True, max_out=3)
def lstm(x: object, h0: object, c0: object, weights: object, recurrent_weights: object,
         bias: object, *settings: object, nargout: int = 1) -> object:
    """Y = lstm(X, H0, C0, weights, recurrentWeights, bias)  long short-term memory
    [Y, hiddenState, cellState] = lstm(...)  also the states after the last time step
    lstm(..., 'DataFormat', FMT)  the dimension labels of an unformatted X
    lstm(..., 'StateActivationFunction', F)  'tanh' (default), 'softsign' or 'relu'
    lstm(..., 'GateActivationFunction', F)  'sigmoid' (default) or 'hard-sigmoid'

    The weights stack the input gate, forget gate, cell candidate and output gate (in that
    order): weights is 4*H-by-InputSize, recurrentWeights 4*H-by-H, bias 4*H-by-1."""
    args = (x, h0, c0, weights, recurrent_weights, bias)
    if not any(type(a) is DlArray for a in args):
        raise _undefined("lstm", args)
    given = options(settings, _LSTM_OPTIONS)
    state_fn = _activation(given, "StateActivationFunction", STATE_ACTIVATIONS, "lstm")
    gate_fn = _activation(given, "GateActivationFunction", GATE_ACTIVATIONS, "lstm")
    seq = _Sequence(x, given, "lstm")
    w, r, b, hidden = _parameters(weights, recurrent_weights, bias, 4, seq.channels, "lstm")
    h, h_formatted = _state(h0, hidden, seq.batch, "Initial hidden state", "lstm")
    c, c_formatted = _state(c0, hidden, seq.batch, "Initial cell state", "lstm")
    xm, w, r, b, h, c = _common_dtype([seq.matrix, w, r, b, h, c])
    n = hidden
    hs = []
    for t in range(seq.steps):
        z = ops.plus(ops.plus(_input_part(w, xm, seq, t), ops.matmul(r, h)), b)
        input_forget = gate_fn(rows(z, 0, 2 * n))
        candidate = state_fn(rows(z, 2 * n, 3 * n))
        output_gate = gate_fn(rows(z, 3 * n, 4 * n))
        c = ops.plus(ops.times(rows(input_forget, n, 2 * n), c),
                     ops.times(rows(input_forget, 0, n), candidate))
        h = ops.times(output_gate, state_fn(c))
        hs.append(h)
    y = seq.output(hs, hidden)
    if nargout <= 1:
        return y
    return y, _state_output(h, h_formatted), _state_output(c, c_formatted)


# ------------------------------------------------------------ gru

_GRU_OPTIONS = ("DataFormat", "ResetGateMode", "StateActivationFunction", "GateActivationFunction")
_RESET_MODES = ("after-multiplication", "before-multiplication", "recurrent-bias-after-multiplication")


def _reset_mode(given: dict) -> str:
    if "ResetGateMode" not in given:
        return "after-multiplication"
    mode = text_option(given["ResetGateMode"])
    mode = mode.lower() if mode is not None else None
    if mode not in _RESET_MODES:
        raise error("deep:gru:InvalidResetGateMode",
                    "Value of 'ResetGateMode' must be one of 'after-multiplication', "
                    "'before-multiplication', 'recurrent-bias-after-multiplication'.")
    return mode


@builtin(dl="traced", nargout=True, max_out=2)
def gru(x: object, h0: object, weights: object, recurrent_weights: object, bias: object,
        *settings: object, nargout: int = 1) -> object:
    """Y = gru(X, H0, weights, recurrentWeights, bias)  gated recurrent unit
    [Y, hiddenState] = gru(...)  also the hidden state after the last time step
    gru(..., 'DataFormat', FMT)  the dimension labels of an unformatted X
    gru(..., 'ResetGateMode', MODE)  'after-multiplication' (default),
        'before-multiplication' or 'recurrent-bias-after-multiplication' (whose bias
        has 6*H elements: the input bias, then the recurrent bias)
    gru(..., 'StateActivationFunction', F)  'tanh' (default), 'softsign' or 'relu'
    gru(..., 'GateActivationFunction', F)  'sigmoid' (default) or 'hard-sigmoid'

    The weights stack the reset gate, update gate and candidate state (in that order):
    weights is 3*H-by-InputSize, recurrentWeights 3*H-by-H."""
    args = (x, h0, weights, recurrent_weights, bias)
    if not any(type(a) is DlArray for a in args):
        raise _undefined("gru", args)
    given = options(settings, _GRU_OPTIONS)
    mode = _reset_mode(given)
    state_fn = _activation(given, "StateActivationFunction", STATE_ACTIVATIONS, "gru")
    gate_fn = _activation(given, "GateActivationFunction", GATE_ACTIVATIONS, "gru")
    seq = _Sequence(x, given, "gru")
    recurrent_bias = mode == "recurrent-bias-after-multiplication"
    w, r, b, hidden = _parameters(weights, recurrent_weights, bias, 3, seq.channels, "gru",
                                  6 if recurrent_bias else None)
    h, h_formatted = _state(h0, hidden, seq.batch, "Initial hidden state", "gru")
    xm, w, r, b, h = _common_dtype([seq.matrix, w, r, b, h])
    n = hidden
    b_input = rows(b, 0, 3 * n) if recurrent_bias else b
    b_recurrent = rows(b, 3 * n, 6 * n) if recurrent_bias else None
    if mode == "before-multiplication":
        r_gates, r_candidate = rows(r, 0, 2 * n), rows(r, 2 * n, 3 * n)
    hs = []
    for t in range(seq.steps):
        px = ops.plus(_input_part(w, xm, seq, t), b_input)
        if mode == "before-multiplication":
            gates = gate_fn(ops.plus(rows(px, 0, 2 * n), ops.matmul(r_gates, h)))
            reset, update = rows(gates, 0, n), rows(gates, n, 2 * n)
            candidate = state_fn(ops.plus(rows(px, 2 * n, 3 * n),
                                          ops.matmul(r_candidate, ops.times(reset, h))))
        else:
            rh = ops.matmul(r, h)
            if b_recurrent is not None:
                rh = ops.plus(rh, b_recurrent)
            gates = gate_fn(ops.plus(rows(px, 0, 2 * n), rows(rh, 0, 2 * n)))
            reset, update = rows(gates, 0, n), rows(gates, n, 2 * n)
            candidate = state_fn(ops.plus(rows(px, 2 * n, 3 * n), ops.times(reset, rows(rh, 2 * n, 3 * n))))
        # h = (1 - z) .* candidate + z .* h
        h = ops.plus(candidate, ops.times(update, ops.minus(h, candidate)))
        hs.append(h)
    y = seq.output(hs, hidden)
    if nargout <= 1:
        return y
    return y, _state_output(h, h_formatted)
