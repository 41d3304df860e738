"""The data of trainnet and minibatchpredict: arrays with their observations on one axis.

Numeric data comes in MATLAB's layout for the network's input (``network_functions.
unformatted_layout``): observations by features ("BC") for feature data, h-w-c-N
("SSCB") for images, c-by-t-by-N ("CTB") for sequences; ``InputDataFormats`` /
``TargetDataFormats`` other than "auto" name the layout instead.  A ``LaidOut`` keeps the
array, its layout and the axis of its observations, and gives the dlarray of any
selection of observations.  Datastores are read whole (``readall``) and their
observations stacked into the same form.  Categorical targets become one-hot columns
in the order of their categories ("CB").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.datastores.datastore import Datastore
from mlang.builtins.networks.network import DlNetwork
from mlang.builtins.networks.network_functions import layout_of, unformatted_layout
from mlang.errors import error
from mlang.registry import BUILTINS
from mlang.values.categorical import CategoricalArray
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of

NUMERIC = ("double", "single", "logical", "int8", "int16", "int32", "int64", "uint8", "uint16",
           "uint32", "uint64")


@dataclass
class LaidOut:
    """An array of observations: ``data`` laid out as ``layout`` says (one letter a
    dimension), the observations along ``layout.index('B')``.  Sequences of different
    lengths (a cell array of them) are kept as a list in ``sequences`` instead, and padded
    to the longest of each mini-batch when one is made."""

    data: np.ndarray | None
    layout: str
    categories: list[str] | None = None  # one-hot targets: the class names, in order
    sequences: list[np.ndarray] | None = None  # each in the layout without 'B'
    padding: tuple[float, str] = (0.0, "right")  # SequencePaddingValue, SequencePaddingDirection

    @property
    def batch_axis(self) -> int:
        return self.layout.index("B")

    @property
    def count(self) -> int:
        if self.sequences is not None:
            return len(self.sequences)
        assert self.data is not None
        return int(self.data.shape[self.batch_axis])

    def batch(self, interp: Any, positions: np.ndarray | None) -> DlArray:
        """The formatted dlarray of the observations at ``positions`` (all when None)."""
        if self.sequences is not None:
            part = self._padded(positions)
        else:
            assert self.data is not None
            part = self.data if positions is None else np.take(self.data, positions,
                                                               axis=self.batch_axis)
        return BUILTINS["dlarray"].call(interp, [part, char_row(self.layout)], 1)[0]

    def _padded(self, positions: np.ndarray | None) -> np.ndarray:
        assert self.sequences is not None
        chosen = self.sequences if positions is None else [self.sequences[k] for k in positions]
        time_axis = self.layout.replace("B", "").index("T")
        longest = max(s.shape[time_axis] for s in chosen)
        value, direction = self.padding
        padded = []
        for s in chosen:
            missing = longest - s.shape[time_axis]
            widths = [(0, 0)] * s.ndim
            widths[time_axis] = (missing, 0) if direction == "left" else (0, missing)
            padded.append(np.pad(s, widths, constant_values=value) if missing else s)
        return np.stack(padded, axis=self.batch_axis)


def formats_option(opts: Any, name: str) -> str | None:
    """A data formats option: None for "auto"."""
    if opts is None:
        return None
    value = opts.values.get(name)
    text = opts.text(name) if value is not None else None
    if text is None or text.lower() == "auto" or text == "":
        return None
    return text


def single_input_layout(net: DlNetwork, given: str | None, function: str) -> str:
    """The layout of numeric data for the network's one input."""
    ports = net.graph.input_ports()
    if len(ports) != 1:
        raise error(f"deep:{function}:MultipleInputsNotSupported",
                    f"{function} supports networks with one input only; this network has "
                    f"{len(ports)} inputs.")
    if given:
        return given.upper()
    layer = net.graph.layer(ports[0][1][0])
    if not layer.IS_INPUT:
        raise error(f"deep:{function}:InputFormatsRequired",
                    "The network input is not connected to an input layer. Specify the layout of "
                    "the data with the InputDataFormats option.")
    return unformatted_layout(layer)


def check_input_size(interp: Any, net: DlNetwork, x: LaidOut, function: str) -> None:
    """An observation must have the size the network's input layer takes (its time
    dimension aside)."""
    ports = net.graph.input_ports()
    if len(ports) != 1 or x.count == 0:
        return
    layer = net.graph.layer(ports[0][1][0])
    sizes = getattr(layer, "sizes", None)
    if not layer.IS_INPUT or sizes is None or any(math.isnan(v) for v in sizes()):
        return
    example = layer.input_example()
    first = x.batch(interp, np.arange(1))
    if first.fmt.replace("T", "") != example.fmt.replace("T", ""):
        return  # a layout the layer reads differently: its own checks apply
    def fixed(a: DlArray) -> tuple[int, ...]:
        shape = a.data.shape + (1,) * (len(a.fmt) - a.data.ndim)
        return tuple(d for d, label in zip(shape, a.fmt, strict=False) if label not in "BT")
    got, wanted = fixed(first), fixed(example)
    if got != wanted:
        times = "\u00d7"
        raise error(f"deep:{function}:InputSizeMismatch",
                    f"Invalid predictors: the size of an observation ({times.join(map(str, got))}) "
                    f"does not match the input size of the network ({times.join(map(str, wanted))}).")


def _numeric(value: Any, what: str, function: str) -> np.ndarray:
    if type(value) is DlArray:
        value = value.data
    if class_of(value) not in NUMERIC:
        raise error(f"deep:{function}:InvalidData",
                    f"Invalid {what}: expected a numeric array, a categorical array or a "
                    f"datastore, not {class_of(value)}.")
    data = np.asarray(value)
    if data.ndim < 2:
        data = data.reshape(1, -1) if data.ndim == 1 else data.reshape(1, 1)
    # single precision, as the network's learnables; complex data stays complex (an input
    # layer with SplitComplexInputs splits it)
    return data.astype(np.complex64 if data.dtype.kind == "c" else np.float32)


def laid_out(value: Any, layout: str, what: str, function: str, interp: Any = None,
             padding: tuple[float, str] = (0.0, "right")) -> LaidOut:
    """Numeric data in ``layout``: trailing singleton dimensions filled in.  A cell array
    holds one observation a cell (sequences may differ in length)."""
    if type(value) is Cell and interp is not None:
        return stacked(interp, list(value.data.reshape(-1, order="F")), layout, what, function,
                       padding=padding)
    data = _numeric(value, what, function)
    if data.ndim > len(layout):
        extra = data.shape[len(layout):]
        if any(d != 1 for d in extra):
            raise error(f"deep:{function}:InvalidDataSize",
                        f"Invalid {what}: the data has {data.ndim} dimensions, but the layout "
                        f"'{layout}' has {len(layout)}.")
        data = data.reshape(data.shape[:len(layout)], order="F")
    if data.ndim < len(layout):
        data = data.reshape(data.shape + (1,) * (len(layout) - data.ndim), order="F")
    return LaidOut(data, layout)


def _target_codes(targets: CategoricalArray, function: str) -> np.ndarray:
    """The category numbers (1-based) of categorical targets, none undefined."""
    codes = targets.codes.reshape(-1, order="F").astype(np.intp)
    if np.any(codes == 0):
        raise error(f"deep:{function}:UndefinedTargets",
                    "Invalid targets: the targets must not contain undefined categorical values.")
    return codes


def one_hot(targets: CategoricalArray, function: str) -> LaidOut:
    """Categorical targets as one-hot columns, classes in the order of the categories."""
    codes = _target_codes(targets, function)
    encoded = np.zeros((len(codes), len(targets.names)), dtype=np.float32)
    encoded[np.arange(len(codes)), codes - 1] = 1
    return LaidOut(encoded, "BC", list(targets.names))


def class_indices(targets: CategoricalArray, function: str) -> LaidOut:
    """Categorical targets as class indices (index-crossentropy), one a column: "CB"
    with one channel."""
    codes = _target_codes(targets, function).astype(np.float32)
    return LaidOut(codes.reshape(-1, 1), "BC", list(targets.names))


def target_layout(output_format: str, given: str | None) -> str:
    return given.upper() if given else layout_of(output_format)


def targets_of(value: Any, output_format: str, given: str | None, function: str,
               indices: bool = False, interp: Any = None,
               padding: tuple[float, str] = (0.0, "right")) -> LaidOut:
    """Targets in the layout of the network output; categorical ones one-hot encoded, or
    as class indices (``indices``)."""
    if type(value) is CategoricalArray:
        return class_indices(value, function) if indices else one_hot(value, function)
    return laid_out(value, target_layout(output_format, given), "targets", function, interp,
                    padding)


def padding_of(opts: Any) -> tuple[float, str]:
    """SequencePaddingValue and SequencePaddingDirection of training options."""
    if opts is None:
        return (0.0, "right")
    return (opts.number("SequencePaddingValue"), opts.text("SequencePaddingDirection") or "right")


# ------------------------------------------------------------------ datastores


def stacked(interp: Any, observations: list[Any], layout: str, what: str, function: str,
            indices: bool = False, padding: tuple[float, str] = (0.0, "right")) -> LaidOut:
    """Observations read from a datastore, stacked along the observation axis (categorical
    ones one-hot encoded, or as class indices with ``indices``)."""
    if observations and all(type(o) is CategoricalArray for o in observations):
        joined = BUILTINS["vertcat"].call(interp, list(observations), 1)[0]
        return class_indices(joined, function) if indices else one_hot(joined, function)
    arrays = [_numeric(o, what, function) for o in observations]
    if layout.replace("B", "") == "C":  # feature data: one vector an observation
        rows = [a.reshape(-1, order="F") for a in arrays]
        if len({r.size for r in rows}) > 1:
            raise error(f"deep:{function}:InconsistentData",
                        f"Invalid {what}: the observations have different sizes.")
        stacked = np.stack(rows, axis=0)
        return LaidOut(stacked if layout.index("B") == 0 else stacked.T, layout)
    b = layout.index("B")
    rank = len(layout) - 1
    shaped = []
    for a in arrays:
        if a.ndim > rank:
            a = a.reshape(a.shape[:rank], order="F") if all(d == 1 for d in a.shape[rank:]) else a
        shaped.append(a.reshape(a.shape + (1,) * (rank - a.ndim), order="F"))
    if len({a.shape for a in shaped}) > 1:
        if "T" in layout:
            t = layout.replace("B", "").index("T")
            others = {a.shape[:t] + a.shape[t + 1:] for a in shaped}
            if len(others) == 1:
                return LaidOut(None, layout, sequences=shaped, padding=padding)
        raise error(f"deep:{function}:InconsistentData",
                    f"Invalid {what}: the observations have different sizes.")
    return LaidOut(np.stack(shaped, axis=b), layout, padding=padding)


def read_datastore(interp: Any, ds: Datastore, function: str, columns: int) -> list[list[Any]]:
    """The observations of a datastore, one list a column of its reads (predictors first)."""
    everything = BUILTINS["readall"].call(interp, [ds], 1)[0]
    if type(everything) is not Cell or everything.data.ndim != 2 or everything.data.shape[1] < columns:
        raise error(f"deep:{function}:InvalidDatastoreOutput",
                    f"Invalid datastore: each read must be a cell array with {columns} "
                    f"column{'s' if columns > 1 else ''} (predictors"
                    f"{' and targets' if columns > 1 else ''}).")
    cells = everything.data
    return [list(cells[:, k]) for k in range(columns)]


def datastore_data(interp: Any, ds: Datastore, input_layout: str, output_format: Callable[[LaidOut], str],
                   target_given: str | None, function: str, indices: bool = False,
                   padding: tuple[float, str] = (0.0, "right")) -> tuple[LaidOut, LaidOut]:
    """Predictors and targets read from a datastore; ``output_format(x)`` gives the format of
    the network output (the targets' layout follows it)."""
    predictors, targets = read_datastore(interp, ds, function, 2)
    x = stacked(interp, predictors, input_layout, "predictors", function, padding=padding)
    t = stacked(interp, targets, target_layout(output_format(x), target_given), "targets", function,
                indices, padding)
    return x, t


def is_datastore(value: Any) -> bool:
    return isinstance(value, Datastore)
