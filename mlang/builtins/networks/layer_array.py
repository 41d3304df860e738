"""Arrays of layers: ``[featureInputLayer(2); fullyConnectedLayer(10); reluLayer]``.

A layer array is a column (or row) of layer objects of any classes (class
``nnet.cnn.layer.Layer``, or the layers' own class when they are all of one class, as
MATLAB's heterogeneous arrays give it).  One layer is a 1-by-1 array: indexing an array
with one position gives the ``Layer`` itself, and concatenating layers gives a
``LayerArray``.  Indexing, indexed assignment (``layers(2) = []``, ``layers(end+1) =
reluLayer``, ``layers(2).Name = 'x'``) and concatenation work on the positions of the
layers with the ordinary array rules, so their errors are MATLAB's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_scalar
from mlang.builtins.networks.layer import LAYER_BASE_CLASS, Layer
from mlang.builtins.networks.layer_display import array_lines
from mlang.errors import error
from mlang.values.concat import cat
from mlang.values.core import class_of, size_of
from mlang.values.indexing import COLON, assign, index
from mlang.values.objects import MatlabObject


class LayerArray(MatlabObject):
    """Several layers (or none), as a column or a row."""

    # No __slots__: ``matlab_class`` is set per array (the layers' common class).
    matlab_class = LAYER_BASE_CLASS
    display_name = "Layer"

    def __init__(self, layers: list[Layer], column: bool = True,
                 dims: tuple[int, ...] | None = None) -> None:
        self.layers = list(layers)
        self.column = column
        # an array that is neither a column nor a row ([a b; c d], or 0-by-0) keeps its
        # size here; its layers are listed in column-major order
        self.dims = dims
        self.matlab_class = common_class(self.layers)  # type: ignore[misc]

    @property
    def shape(self) -> tuple[int, ...]:
        if self.dims is not None:
            return self.dims
        n = len(self.layers)
        return (n, 1) if self.column else (1, n)

    # ------------------------------------------------------------ indexing

    def subsref_paren(self, args: list) -> Any:
        return index_layers(self.layers, self.shape, args)

    def subsasgn_paren(self, args: list, rhs: Any) -> Any:
        return assign_layers(self.layers, self.shape, args, rhs)

    @staticmethod
    def assign_into(target: Any, args: list, rhs: Any) -> Any:
        return assign_into_plain(target, args, rhs)

    @staticmethod
    def concatenate(rows: list[list]) -> Any:
        return concatenate_layers(rows)

    @staticmethod
    def call_builtin(builtin: Any, interp: Any, args: list, nargout: int) -> Any:
        return layer_builtin(builtin, interp, args)

    def unary_operator(self, symbol: str) -> Any:
        if symbol in ("'", ".'"):  # a column becomes a row and back
            if self.dims is None:
                return LayerArray(self.layers, column=not self.column)
            order = _positions(len(self.layers), self.dims).T
            return _as_array(self.layers, order)
        return NotImplemented

    def get_property(self, name: str) -> Any:
        if not self.layers or name not in self.layers[0].property_names():
            raise error("MATLAB:noSuchMethodOrField",
                        f"Unrecognized method, property, or field '{name}' for class "
                        f"'{self.matlab_class}'.")
        raise error("MATLAB:index:expected_one_output_from_expression",
                    "Expected one output from a curly brace or dot indexing expression, but "
                    f"there were {len(self.layers)} results.")

    def property_names(self) -> list[str]:
        return self.layers[0].property_names() if self.layers else []

    def property_list(self, name: str) -> list:
        """``layers.Name``: one value per layer, in column order (``{layers.Name}``)."""
        if not self.layers or name not in self.layers[0].property_names():
            return [self.get_property(name)]  # its error
        return [layer.get_property(name) for layer in self.layers]  # kept in column order

    def columns(self) -> list:
        """``for layer = layers``: each column (one layer each for a row array)."""
        shape = self.shape
        return [index_layers(self.layers, shape, [COLON, float(j + 1)])
                for j in range(int(np.prod(shape[1:])))]

    # ------------------------------------------------------------ display

    def display_body(self, style: Any, data_lines: Callable[[Any], list]) -> list | None:
        return array_lines(self.layers, self.shape)


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


def common_class(layers: list[Layer]) -> str:
    """``class`` of an array of these layers: their class when all share one, else the base
    class ``nnet.cnn.layer.Layer``."""
    classes = {layer.matlab_class for layer in layers}
    return classes.pop() if len(classes) == 1 else LAYER_BASE_CLASS


# ---------------------------------------------------------------- positions


def _positions(count: int, shape: tuple[int, ...]) -> np.ndarray:
    """The layer numbers 1..count shaped as the array (doubles, so the array rules apply)."""
    return np.arange(1, count + 1, dtype=np.float64).reshape(shape, order="F")


def index_layers(layers: list[Layer], shape: tuple[int, ...], args: list) -> Any:
    """``layers(args...)``: one layer, or an array of them."""
    return _as_array(layers, index(_positions(len(layers), shape), args))


def _is_plain_empty(v: Any) -> bool:
    """``[]`` or any empty numeric array: deletion on assignment, ignored when concatenated."""
    return type(v) is np.ndarray and v.size == 0 and v.dtype.kind in "fiub"


def _conversion_error(value: Any) -> Exception:
    return error("MATLAB:invalidConversion",
                 f"Conversion to {LAYER_BASE_CLASS} from {class_of(value)} is not possible.")


def assign_layers(layers: list[Layer], shape: tuple[int, ...], args: list, rhs: Any) -> Any:
    """``layers(args...) = rhs``: deletion with ``[]``, replacement and growth with layers."""
    data = _positions(len(layers), shape)
    if _is_plain_empty(rhs):
        kept = assign(data, args, np.zeros((0, 0)))
        return _as_array(layers, kept)
    new = layers_of(rhs)
    if new is None:
        raise _conversion_error(rhs)
    pool = list(layers) + new
    codes = np.arange(len(layers) + 1, len(pool) + 1, dtype=np.float64)
    value: Any = float(codes[0]) if len(new) == 1 else codes.reshape(size_of(rhs), order="F")
    grown = np.asarray(assign(data, args, value), dtype=np.float64)
    if np.any(grown == 0):  # a gap: there is no default layer to fill it with
        raise error("MATLAB:heterogeneous:InvalidDefaultObject",
                    f"Unable to create a default object of class {LAYER_BASE_CLASS} to fill "
                    "the gap in the array; assign a layer to every position.")
    return _as_array(pool, grown)


def _as_array(pool: list[Layer], numbers: Any) -> Any:
    """The layer value for an array of layer numbers (always an array, even of one, unless it
    is exactly one layer)."""
    data = np.asarray(numbers, dtype=np.float64)
    shape = size_of(numbers)
    chosen = [pool[int(k) - 1] for k in data.reshape(-1, order="F")]
    if len(chosen) == 1:
        return chosen[0]
    if len(shape) == 2 and shape[1] == 1 and shape[0] != 1:
        return LayerArray(chosen, column=True)
    if len(shape) == 2 and shape[0] == 1:
        return LayerArray(chosen, column=False)
    return LayerArray(chosen, dims=tuple(shape))


def assign_into_plain(target: Any, args: list, rhs: Any) -> Any:
    """``x(args...) = layer`` where ``x`` does not exist yet or is ``[]``."""
    if target is None or _is_plain_empty(target):
        return assign_layers([], (0, 0), args, rhs)
    raise error("MATLAB:invalidConversion",
                f"Conversion to {class_of(target)} from {class_of(rhs)} is not possible.")


def concatenate_layers(rows: list[list]) -> Any:
    """``[a, b; c]`` where some element is a layer or layer array: the layers in order
    (``[]`` left out); anything else that is not a layer is an error."""
    blocks: list[np.ndarray] = []
    pool: list[Layer] = []
    empty = None  # the first empty layer array: the result when all are empty
    for row in rows:
        parts = []
        for v in row:
            if _is_plain_empty(v):
                continue
            got = layers_of(v)
            if got is None:
                raise _conversion_error(v)
            if not got:  # an empty layer array adds nothing, whatever its size
                empty = v if empty is None else empty
                continue
            start = len(pool)
            pool.extend(got)
            parts.append(np.arange(start + 1, len(pool) + 1, dtype=np.float64)
                         .reshape(size_of(v), order="F"))
        if parts:
            blocks.append(np.asarray(cat(parts, 1), dtype=np.float64).reshape(
                _row_shape(parts)))
    if not blocks:
        return empty if empty is not None else np.zeros((0, 0))
    joined = cat(blocks, 0) if len(blocks) > 1 else blocks[0]
    return _as_array(pool, np.asarray(joined, dtype=np.float64).reshape(size_of(joined)))


def _row_shape(parts: list[np.ndarray]) -> tuple[int, ...]:
    """The shape of a row of position blocks joined side by side."""
    rows = parts[0].shape[0]
    return (rows, sum(p.shape[1] for p in parts))


def layer_builtin(builtin: Any, interp: Any, args: list) -> Any:
    """Builtins with a layer among their arguments that answer differently for layers:
    ``isa(layer, 'nnet.cnn.layer.Layer')`` is true for every layer (the base class), and
    ``isequal`` compares layers by class, size and property values."""
    if builtin.name == "isa" and len(args) == 2 and layers_of(args[0]) is not None:
        name = text_scalar(args[1], "Class name")
        return [name in (class_of(args[0]), LAYER_BASE_CLASS)]
    if builtin.name in ("isequal", "isequaln") and len(args) >= 2:
        first = args[0]
        return [all(_equal_layers(builtin, interp, first, other) for other in args[1:])]
    layers = layers_of(args[0]) if args else None
    if builtin.name in _MOVING_ELEMENTS and layers is not None:
        # the function moves the layers' numbers, which then pick the layers
        numbers = builtin.invoke(interp, [_positions(len(layers), size_of(args[0])), *args[1:]], 1)
        return [_as_array(layers, numbers[0])]
    return NotImplemented


# Functions that only rearrange elements: on a layer array they rearrange its layers
# (``repmat(fcBlock, [numBlocks 1])``).
_MOVING_ELEMENTS = frozenset(("repmat", "repelem", "reshape", "flip", "fliplr", "flipud", "circshift",
                              "permute", "rot90", "squeeze", "transpose", "ctranspose"))


def _equal_layers(builtin: Any, interp: Any, a: Any, b: Any) -> bool:
    left, right = layers_of(a), layers_of(b)
    if left is None or right is None or size_of(a) != size_of(b) or len(left) != len(right):
        return False
    for x, y in zip(left, right, strict=True):
        if type(x) is not type(y) or x.values.keys() != y.values.keys():
            return False
        for name, value in x.values.items():
            if not builtin.invoke(interp, [value, y.values[name]], 1)[0]:
                return False
    return True
