"""The base of every datastore: a handle object that reads its data a piece at a time.

Datastores are handle objects in MATLAB: ``read(ds)`` advances ``ds`` itself, and
every variable holding the datastore sees the new position.  So, unlike most mlang
values, a ``Datastore`` is mutated in place (as ``containers.Map`` is).

A subclass implements ``read_block`` (the next piece of data and its information),
``has_data``, ``rewind``, ``observation_count`` and ``subset`` (a new datastore over
some of its observations, in a given order: shuffle and partition are built on it),
``copy`` and its properties.  ``readall``, ``preview``, ``shuffled``,
``partitioned`` and the dot-call methods come from here, so later datastores plug
in by implementing those few methods.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import error, running_interpreter
from mlang.registry import BUILTINS
from mlang.values.cell import Cell
from mlang.values.core import class_of
from mlang.values.objects import MatlabObject
from mlang.values.struct import Struct

# Datastore functions by name (read, hasdata, shuffle...), filled by ``functions.py``: what
# a dot call ``ds.read()`` runs.  Each takes (interp, datastore, *args).
DATASTORE_FUNCTIONS: dict[str, Callable[..., Any]] = {}


def no_more_data() -> Exception:
    """The error of a read past the end of a datastore."""
    return error("MATLAB:datastoreio:splittabledatastore:noMoreData",
                 "No more data to read. Use the reset method to reset the datastore to the start "
                 "of the data. Before calling the read method, check if data is available to read "
                 "by using the hasdata method.")


def undefined_function(name: str, value: object) -> Exception:
    """MATLAB's error for a datastore function called on something else."""
    return error("MATLAB:UndefinedFunction",
                 f"Undefined function '{name}' for input arguments of type '{class_of(value)}'.")


def empty_info() -> Struct:
    return Struct.scalar({})


def vertical_cells(parts: list[Any]) -> Any:
    """Cells read one after another, stacked into one cell (readall of cell reads)."""
    rows = [p.data for p in parts if type(p) is Cell and p.data.size]
    if not rows:
        return Cell(np.empty((0, 1), dtype=object))
    if len({r.shape[1:] for r in rows}) > 1:
        raise error("MATLAB:catenate:dimensionMismatch",
                    "Dimensions of arrays being concatenated are not consistent.")
    return Cell(np.concatenate(rows, axis=0))


class Datastore(MatlabObject):
    """A datastore: reading state plus the functions every datastore shares."""

    __slots__ = ()
    matlab_class = "matlab.io.Datastore"

    # ----------------------------------------------------------- to implement

    def read_block(self, interp: Any) -> tuple[Any, Any]:
        """The next piece of data and its information struct (the position advances)."""
        raise NotImplementedError

    def has_data(self) -> bool:
        raise NotImplementedError

    def observations_at_once(self) -> int:
        """How many of the next observations ``read_observations`` can give in one piece, as
        reads one by one would give them (a minibatchqueue takes a mini-batch's so); 0 when
        they come read by read only."""
        return 0

    def read_observations(self, interp: Any, count: int) -> Cell:
        """The next ``count`` observations (at most ``observations_at_once``), a row each."""
        raise NotImplementedError

    def rewind(self) -> None:
        """Back to the start of the data."""
        raise NotImplementedError

    def copy(self) -> Datastore:
        """An independent datastore over the same data, at the same position."""
        raise NotImplementedError

    def observation_count(self) -> int | None:
        """The number of observations, for shuffling and partitioning (None: unknown)."""
        return None

    def subset(self, order: np.ndarray) -> Datastore:
        """A new datastore over the observations ``order`` (0-based), reset."""
        raise error("MATLAB:datastoreio:datastore:notSubsettable",
                    f"The {self.display_name or self.matlab_class} is not subsettable.")

    def progress_fraction(self) -> float:
        """The fraction of the data read so far (0 to 1)."""
        return 0.0 if self.has_data() else 1.0

    def direct_remaining(self) -> int | None:
        """How many observations are left when ``batch_arrays`` can cut mini-batches straight
        from the data (a minibatchqueue's fast path); None when it cannot."""
        return None

    def batch_arrays(self, count: int) -> list[Any]:
        """The next ``count`` observations (fewer at the end) of each variable, concatenated as
        minibatchqueue's default 'collate' concatenates them; the position advances."""
        raise NotImplementedError

    # ------------------------------------------------------------ shared work

    def read_all(self, interp: Any) -> Any:
        """Every observation from the start, leaving this datastore's position as it is."""
        ds = self.copy()
        ds.rewind()
        parts = []
        while ds.has_data():
            parts.append(ds.read_block(interp)[0])
        return self.combine_reads(interp, parts)

    def combine_reads(self, interp: Any, parts: list[Any]) -> Any:
        """The reads of ``readall`` put together (cells are stacked vertically)."""
        if all(type(p) is Cell for p in parts):
            return vertical_cells(parts)
        return BUILTINS["vertcat"].call(interp, parts, 1)[0] if parts else np.zeros((0, 0))

    def preview_data(self, interp: Any) -> Any:
        """What the first read gives, leaving this datastore's position as it is."""
        ds = self.copy()
        ds.rewind()
        if not ds.has_data():
            return ds.empty_read()
        return ds.read_block(interp)[0]

    def empty_read(self) -> Any:
        return Cell(np.empty((0, 1), dtype=object))

    def is_shuffleable(self) -> bool:
        return self.observation_count() is not None

    def shuffled(self, interp: Any) -> Datastore:
        """A shuffled copy, drawn from the session's random stream (``rng`` repeats it)."""
        count = self.observation_count()
        if count is None:
            raise error("MATLAB:datastoreio:datastore:notShuffleable",
                        f"The {self.display_name or self.matlab_class} is not shuffleable.")
        perm = BUILTINS["randperm"].call(interp, [float(count)], 1)[0]
        order = (np.asarray(perm, dtype=np.float64).reshape(-1) - 1).astype(np.intp)
        return self.subset(order)

    def partition_count(self) -> int:
        count = self.observation_count()
        return 1 if count is None else count

    def partitioned(self, parts: int, index: int) -> Datastore:
        """The ``index``-th (1-based) of ``parts`` contiguous pieces, as even as possible."""
        count = self.observation_count()
        if count is None:
            raise error("MATLAB:datastoreio:datastore:notPartitionable",
                        f"The {self.display_name or self.matlab_class} is not partitionable.")
        start = (index - 1) * count // parts
        stop = index * count // parts
        return self.subset(np.arange(start, stop, dtype=np.intp))

    # ------------------------------------------------------- dot-call methods

    def method(self, name: str) -> Callable[[list], Any] | None:
        fn = DATASTORE_FUNCTIONS.get(name)
        if fn is None:
            return None
        return lambda args: fn(running_interpreter(), self, *args)

    def get_property(self, name: str) -> Any:
        """A datastore function called without arguments (``ds.hasdata``); subclasses look
        at their own properties first."""
        fn = self.method(name)
        if fn is not None:
            return fn([])
        return super().get_property(name)
