"""arrayDatastore: a datastore over an array in memory.

Observations are the slices of the array along ``IterationDimension`` (default 1:
rows).  ``read`` gives ``ReadSize`` of them: with ``OutputType`` 'cell' (the default)
as a ReadSize-by-1 cell holding one slice each, with 'same' as one array of the
input's class (the slices concatenated along the iteration dimension).  A cell array
is read as its own cells.  Any array that can be indexed works: numeric, logical,
char, string, cell, table, and dlarray (a formatted dlarray keeps its format in
every slice).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import integer_scalar, options, text_or_none
from mlang.builtins.datastores.datastore import Datastore, empty_info, no_more_data
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import fix_shape, result, size_of
from mlang.values.handle import FunctionHandle
from mlang.values.indexing import COLON, index
from mlang.values.objects import DisplayText
from mlang.values.string import StringArray

OUTPUT_TYPES = ("cell", "same")


def _positive_integer(v: object, name: str) -> int:
    message = f"Value of '{name}' must be a positive integer scalar."
    k = integer_scalar(v, message, "MATLAB:datastoreio:arraydatastore:invalidPositiveInteger")
    if k < 1:
        raise error("MATLAB:datastoreio:arraydatastore:invalidPositiveInteger", message)
    return k


def _output_type(v: object) -> str:
    text = text_or_none(v)
    if text is None or text.lower() not in OUTPUT_TYPES:
        raise error("MATLAB:datastoreio:arraydatastore:invalidOutputType",
                    "Value of 'OutputType' must be 'cell' or 'same'.")
    return text.lower()


class ArrayDatastore(Datastore):
    """``data`` read along ``iteration_dim`` (1-based), the observations in ``order``."""

    matlab_class = "matlab.io.datastore.ArrayDatastore"
    display_name = "ArrayDatastore"
    __slots__ = ("data", "iteration_dim", "read_size", "output_type", "order", "position")

    def __init__(self, data: Any, iteration_dim: int = 1, read_size: int = 1,
                 output_type: str = "cell", order: np.ndarray | None = None) -> None:
        self.data = data
        self.iteration_dim = iteration_dim
        self.read_size = read_size
        self.output_type = output_type
        self.order = np.arange(self.total_observations(), dtype=np.intp) if order is None else order
        self.position = 0

    # ------------------------------------------------------------ observations

    def total_observations(self) -> int:
        shape = size_of(self.data)
        d = self.iteration_dim - 1
        return shape[d] if d < len(shape) else 1

    def slices(self, positions: np.ndarray) -> Any:
        """The observations at 0-based ``positions``, concatenated along the iteration dimension."""
        data, axis = self.data, self.iteration_dim - 1
        if type(data) is np.ndarray and axis < data.ndim:
            # what index(data, {':', ..., positions + 1}) gives, picked along the axis (not
            # np.take, which copies the whole of an array that is not C-contiguous first)
            picked = data[(slice(None),) * axis + (positions,)]
            return result(picked.reshape(fix_shape(picked.shape), order="F") if picked.ndim > 2
                          else picked)
        ndim = len(size_of(self.data))
        if self.iteration_dim > ndim:
            # the whole array is the one observation (a dimension past the last is a singleton)
            if positions.size == 1:
                return self.data
            ndim = min(self.iteration_dim, ndim + 1)  # no observation: empty in a trailing dimension
        else:
            ndim = max(ndim, self.iteration_dim)
        args: list[Any] = [COLON] * ndim
        args[-1 if self.iteration_dim > len(args) else self.iteration_dim - 1] = \
            (positions.astype(np.float64) + 1.0).reshape(1, -1)
        return index(self.data, args)

    def cell_of(self, positions: np.ndarray) -> Any:
        """The observations as the 'cell' output type gives them."""
        if type(self.data) is Cell:
            block = self.slices(positions)
            if block.data.size == positions.size:  # one cell per observation: a column
                return Cell(block.data.reshape(-1, 1, order="F"))
            return block
        column = np.empty((positions.size, 1), dtype=object)
        if type(self.data) is np.ndarray and self.data.dtype.kind in "biuf" and positions.size > 1:
            # one indexing operation, then NumPy views of each observation
            block = self.slices(positions)
            block = block if type(block) is np.ndarray else np.asarray(block).reshape(1, 1)
            axis = self.iteration_dim - 1
            if block.ndim <= axis:
                block = block.reshape(block.shape + (1,) * (axis + 1 - block.ndim))
            before = (slice(None),) * axis
            for row in range(positions.size):
                column[row, 0] = result(block[(*before, slice(row, row + 1))])
            return Cell(column)
        for row, k in enumerate(positions):
            column[row, 0] = self.slices(np.array([k]))
        return Cell(column)

    def block(self, positions: np.ndarray) -> Any:
        if self.output_type == "same":
            return self.slices(positions)
        return self.cell_of(positions)

    # ------------------------------------------------------------ Datastore

    def read_block(self, interp: Any) -> tuple[Any, Any]:
        if not self.has_data():
            raise no_more_data()
        taken = self.order[self.position:self.position + self.read_size]
        self.position += taken.size
        return self.block(taken), empty_info()

    def has_data(self) -> bool:
        return self.position < self.order.size

    def observations_at_once(self) -> int:
        # reads of one observation each into a cell: a row each, as a block of them gives
        # (a cell array's observations may span several cells: read by read)
        if self.read_size != 1 or self.output_type != "cell" or type(self.data) is Cell:
            return 0
        return self.order.size - self.position

    def read_observations(self, interp: Any, count: int) -> Cell:
        taken = self.order[self.position:self.position + count]
        self.position += taken.size
        return self.cell_of(taken)

    def rewind(self) -> None:
        self.position = 0

    def copy(self) -> ArrayDatastore:
        twin = ArrayDatastore(self.data, self.iteration_dim, self.read_size, self.output_type,
                              self.order)
        twin.position = self.position
        return twin

    def observation_count(self) -> int:
        return int(self.order.size)

    def subset(self, order: np.ndarray) -> ArrayDatastore:
        return ArrayDatastore(self.data, self.iteration_dim, self.read_size, self.output_type,
                              self.order[order])

    def progress_fraction(self) -> float:
        return 1.0 if self.order.size == 0 else self.position / self.order.size

    def read_all(self, interp: Any) -> Any:
        return self.block(self.order)

    def empty_read(self) -> Any:
        return self.block(np.zeros(0, dtype=np.intp))

    def direct_remaining(self) -> int | None:
        """Cutting a batch straight from the data equals collating its observations when each
        observation is a slice whose first singleton dimension is the iteration dimension."""
        if self.output_type != "cell" or type(self.data) is Cell:
            return None
        shape = size_of(self.data)
        axis = self.iteration_dim - 1
        if any(n == 1 for n in shape[:axis]):  # an earlier singleton would take the batch
            return None
        return int(self.order.size - self.position)

    def batch_arrays(self, count: int) -> list[Any]:
        taken = self.order[self.position:self.position + count]
        self.position += taken.size
        return [self.slices(taken)]

    # ------------------------------------------------------------ properties

    def property_names(self) -> list[str]:
        return ["ReadSize", "IterationDimension", "OutputType"]

    def get_property(self, name: str) -> Any:
        if name == "ReadSize":
            return float(self.read_size)
        if name == "IterationDimension":
            return float(self.iteration_dim)
        if name == "OutputType":
            return StringArray.scalar(self.output_type)
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> ArrayDatastore:
        """Properties change in place (a datastore is a handle); changing the iteration
        dimension or the output type resets the datastore, as MATLAB does."""
        if name == "ReadSize":
            self.read_size = _positive_integer(value, "ReadSize")
        elif name == "IterationDimension":
            self.iteration_dim = _positive_integer(value, "IterationDimension")
            self.order = np.arange(self.total_observations(), dtype=np.intp)
            self.rewind()
        elif name == "OutputType":
            self.output_type = _output_type(value)
            self.rewind()
        else:
            return super().set_property(name, value)
        return self

    def display_properties(self) -> list[tuple[str, Any]]:
        return [("ReadSize", float(self.read_size)),
                ("IterationDimension", float(self.iteration_dim)),
                ("OutputType", DisplayText(f'"{self.output_type}"'))]


@builtin("arrayDatastore", dl="native")
def array_datastore(data: Any, *args: Any) -> ArrayDatastore:
    """arrayDatastore  datastore for in-memory data

    ds = arrayDatastore(A) reads A one row at a time: read(ds) returns a 1-by-1 cell
    holding the next row.
    ds = arrayDatastore(A, Name=Value) with the options
      ReadSize            number of observations each read returns (default 1)
      IterationDimension  the dimension observations lie along (default 1)
      OutputType          'cell' (default): a ReadSize-by-1 cell of observations;
                          'same': one array of A's class
    Datastores are handle objects: read(ds) advances ds itself."""
    if type(data) is FunctionHandle or isinstance(data, Datastore):
        raise error("MATLAB:datastoreio:arraydatastore:invalidInput",
                    "Input data must be an array.")
    given = options(args, ("ReadSize", "IterationDimension", "OutputType"))
    read_size = _positive_integer(given["ReadSize"], "ReadSize") if "ReadSize" in given else 1
    dim = (_positive_integer(given["IterationDimension"], "IterationDimension")
           if "IterationDimension" in given else 1)
    output_type = _output_type(given["OutputType"]) if "OutputType" in given else "cell"
    return ArrayDatastore(data, dim, read_size, output_type)
