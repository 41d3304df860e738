"""The datastore and minibatchqueue functions: read, readall, hasdata, reset, preview,
shuffle, partition, numpartitions, copy, subset, progress, isShuffleable,
isPartitionable and next.

Each function sends its first argument to the object's own behaviour (a ``Datastore``
subclass or a ``MiniBatchQueue``), so a later datastore class gets them all by
subclassing ``Datastore``.  The same functions answer the dot calls ``ds.read()``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import integer_scalar
from mlang.builtins.datastores.datastore import (
    DATASTORE_FUNCTIONS,
    Datastore,
    undefined_function,
)
from mlang.builtins.datastores.minibatchqueue import METHODS, MiniBatchQueue
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import to_array


def _datastore(value: Any, name: str) -> Datastore:
    if not isinstance(value, Datastore):
        raise undefined_function(name, value)
    return value


def _partition_arguments(parts: Any, index: Any) -> tuple[int, int]:
    message = "Number of partitions must be a positive integer."
    n = integer_scalar(parts, message, "MATLAB:datastoreio:splittabledatastore:invalidNumPartitions")
    if n < 1:
        raise error("MATLAB:datastoreio:splittabledatastore:invalidNumPartitions", message)
    k = integer_scalar(index, "Partition index must be a positive integer.",
                       "MATLAB:datastoreio:splittabledatastore:invalidPartitionIndex")
    if k < 1 or k > n:
        raise error("MATLAB:datastoreio:splittabledatastore:invalidPartitionIndex",
                    f"Partition index must be a positive integer less than or equal to the number "
                    f"of partitions ({n}).")
    return n, k


@builtin(interp=True, nargout=True, max_out=2)
def read(interp: Any, ds: Any, *, nargout: int = 1) -> Any:
    """read  read data from a datastore

    data = read(ds) returns the next block of data of ds and advances ds (a datastore
    is a handle: every variable holding it sees the new position).
    [data, info] = read(ds) also returns information about the data."""
    data, info = _datastore(ds, "read").read_block(interp)
    return (data, info) if nargout > 1 else data


@builtin(interp=True)
def readall(interp: Any, ds: Any, *args: Any) -> Any:
    """readall  read all data of a datastore

    data = readall(ds) returns every observation of ds from the start; the position of
    ds does not change.  readall(ds, UseParallel=tf) is accepted (read serially)."""
    return _datastore(ds, "readall").read_all(interp)


@builtin(interp=True)
def preview(interp: Any, ds: Any) -> Any:
    """preview  preview the data of a datastore

    data = preview(ds) returns what the first read of ds gives, without moving ds."""
    return _datastore(ds, "preview").preview_data(interp)


@builtin(interp=True)
def hasdata(interp: Any, ds: Any) -> bool:
    """hasdata  whether data is left to read

    tf = hasdata(ds) is true while read(ds) has data to return.
    tf = hasdata(mbq) is true while next(mbq) has a mini-batch to return."""
    if type(ds) is MiniBatchQueue:
        return ds.has_data(interp)
    return _datastore(ds, "hasdata").has_data()


@builtin(name="reset")
def reset_(ds: Any) -> None:
    """reset  back to the start of the data

    reset(ds) makes the next read(ds) start again from the first observation.
    reset(mbq) does the same for a minibatchqueue."""
    if type(ds) is MiniBatchQueue:
        ds.reset()
        return
    _datastore(ds, "reset").rewind()


@builtin(interp=True, nargout=True)
def shuffle(interp: Any, ds: Any, *args: Any, nargout: int = 1) -> Any:
    """shuffle  shuffle the observations

    dsnew = shuffle(ds) returns a copy of ds with its observations in random order (the
    session's random stream: rng(seed) repeats it); ds itself is unchanged.
    shuffle(mbq) shuffles the data of a minibatchqueue in place and resets it."""
    if type(ds) is MiniBatchQueue:
        ds.shuffle(interp)
        return ds if nargout else None
    return _datastore(ds, "shuffle").shuffled(interp)


@builtin()
def partition(ds: Any, parts: Any, index: Any) -> Any:
    """partition  one part of a datastore

    subds = partition(ds, n, k) is the k-th of n contiguous parts of ds.
    submbq = partition(mbq, n, k) is a minibatchqueue over that part of mbq's data."""
    n, k = _partition_arguments(parts, index)
    if type(ds) is MiniBatchQueue:
        return ds.with_source(ds.source.partitioned(n, k))
    return _datastore(ds, "partition").partitioned(n, k)


@builtin()
def numpartitions(ds: Any, pool: Any = None) -> float:
    """numpartitions  number of parts a datastore can be partitioned into

    n = numpartitions(ds) is the largest useful n for partition(ds, n, k): the number of
    observations of an arrayDatastore.  numpartitions(ds, pool) is accepted."""
    return float(_datastore(ds, "numpartitions").partition_count())


@builtin()
def copy(ds: Any) -> Datastore:
    """copy  an independent copy of a datastore

    ds2 = copy(ds) reads the same data from the same position; reading one does not move
    the other (ds2 = ds instead names the same datastore)."""
    return _datastore(ds, "copy").copy()


@builtin()
def subset(ds: Any, indices: Any) -> Datastore:
    """subset  a datastore over some of the observations

    subds = subset(ds, indices) reads the observations INDICES (positive integers, in the
    order given, or a logical vector) of ds, from the start."""
    store = _datastore(ds, "subset")
    count = store.observation_count()
    if count is None:
        return store.subset(np.zeros(0, dtype=np.intp))  # the datastore's own error
    a = to_array(indices)
    if a.dtype.kind not in "biuf":  # text, cells, objects: not indices
        raise error("MATLAB:datastoreio:datastore:invalidSubsetIndices",
                    f"Indices must be positive integers less than or equal to the number of "
                    f"observations ({count}).")
    if a.dtype == np.bool_:
        if a.size != count:
            raise error("MATLAB:datastoreio:datastore:invalidSubsetIndices",
                        f"Logical indices must have {count} elements.")
        return store.subset(np.flatnonzero(a.reshape(-1, order="F")))
    flat = a.reshape(-1, order="F").astype(np.float64) if a.size else np.zeros(0)
    if a.dtype.kind not in "iuf" or (flat != np.floor(flat)).any() or (flat < 1).any() \
            or (flat > count).any():
        raise error("MATLAB:datastoreio:datastore:invalidSubsetIndices",
                    f"Indices must be positive integers less than or equal to the number of "
                    f"observations ({count}).")
    return store.subset(flat.astype(np.intp) - 1)


@builtin()
def progress(ds: Any) -> float:
    """progress  how much of a datastore has been read

    p = progress(ds) is the fraction of the data read so far, from 0 to 1."""
    return float(_datastore(ds, "progress").progress_fraction())


@builtin("isShuffleable")
def is_shuffleable(ds: Any) -> bool:
    """isShuffleable  whether shuffle works on a datastore

    tf = isShuffleable(ds)"""
    return _datastore(ds, "isShuffleable").is_shuffleable()


@builtin("isPartitionable")
def is_partitionable(ds: Any) -> bool:
    """isPartitionable  whether partition works on a datastore

    tf = isPartitionable(ds)"""
    return _datastore(ds, "isPartitionable").observation_count() is not None


@builtin(name="next", interp=True, nargout=True, max_out=None)
def next_(interp: Any, mbq: Any, *, nargout: int = 1) -> Any:
    """next  the next mini-batch of a minibatchqueue

    [X1,...,Xn] = next(mbq) returns the next mini-batch, one output for each output of
    mbq, and advances mbq."""
    if type(mbq) is not MiniBatchQueue:
        raise undefined_function("next", mbq)
    out = mbq.next_batch(interp, nargout)
    return tuple(out) if nargout > 1 else out[0]


# Dot calls: ds.read(), ds.hasdata(), mbq.next()...
DATASTORE_FUNCTIONS.update({
    "read": lambda interp, ds, *a: read(interp, ds, *a),
    "readall": readall,
    "preview": preview,
    "hasdata": hasdata,
    "reset": lambda interp, ds, *a: reset_(ds, *a),
    "shuffle": shuffle,
    "partition": lambda interp, ds, *a: partition(ds, *a),
    "numpartitions": lambda interp, ds, *a: numpartitions(ds, *a),
    "isShuffleable": lambda interp, ds: is_shuffleable(ds),
    "copy": lambda interp, ds: copy(ds),
    "subset": lambda interp, ds, *a: subset(ds, *a),
    "progress": lambda interp, ds: progress(ds),
    "isPartitionable": lambda interp, ds: is_partitionable(ds),
})
METHODS.update({
    "next": lambda interp, mbq, *a: next_(interp, mbq, *a),
    "hasdata": hasdata,
    "reset": lambda interp, mbq, *a: reset_(mbq, *a),
    "shuffle": lambda interp, mbq, *a: shuffle(interp, mbq, *a, nargout=0),
    "partition": lambda interp, mbq, *a: partition(mbq, *a),
})
