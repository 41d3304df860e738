"""combine and transform: datastores built over other datastores.

``combine(ds1, ds2, ...)`` reads every underlying datastore once a read and puts the
results side by side in one cell (a read that is not a cell is wrapped in one), so
``combine(arrayDatastore(X), arrayDatastore(T))`` reads ``{x_i, t_i}``.
``transform(ds, @fcn)`` applies ``fcn`` to each read (``IncludeInfo=true``: ``[data,
info] = fcn(data, info)``); ``transform(ds1, ..., dsN, @fcn)`` calls ``fcn(d1, ...,
dN)``.  Shuffling a combined datastore permutes every underlying datastore the same
way, so observations stay paired.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, text_option
from mlang.builtins.datastores.datastore import Datastore, no_more_data
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import class_of
from mlang.values.handle import FunctionHandle
from mlang.values.objects import read_only_property


def _as_cell(value: Any) -> Cell:
    if type(value) is Cell:
        return value
    data = np.empty((1, 1), dtype=object)
    data[0, 0] = value
    return Cell(data)


def side_by_side(reads: list[Any]) -> Cell:
    """Reads of several datastores as one cell, horizontally concatenated."""
    cells = [_as_cell(r).data for r in reads]
    rows = {c.shape[0] for c in cells}
    if len(rows) > 1:
        raise error("MATLAB:datastoreio:combineddatastore:dimensionMismatch",
                    "Dimensions of arrays being concatenated are not consistent.")
    return Cell(np.concatenate(cells, axis=1))


def _check_datastore(value: Any, function: str) -> Datastore:
    if not isinstance(value, Datastore):
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{function}' for input arguments of type "
                    f"'{class_of(value)}'.")
    return value


def fresh_copy(ds: Datastore) -> Datastore:
    """The copy of a datastore a new datastore is built on (reading it leaves ``ds`` alone)."""
    twin = ds.copy()
    twin.rewind()
    return twin


def _shared_count(counts: list[int | None]) -> int | None:
    """The count all the underlying datastores agree on; None when they differ or one
    cannot tell."""
    found = set(counts)
    if len(found) != 1 or None in found:
        return None
    return found.pop()


class _OverStores(Datastore):
    """What a datastore built over the datastores ``stores`` shares: it has data while
    they all have, rewinds them all, and shows them as its read-only
    UnderlyingDatastores; its other properties (``property_names``) are read-only too."""

    __slots__ = ("stores",)

    def has_data(self) -> bool:
        return all(ds.has_data() for ds in self.stores)

    def rewind(self) -> None:
        for ds in self.stores:
            ds.rewind()

    def progress_fraction(self) -> float:
        return min(ds.progress_fraction() for ds in self.stores)

    def observation_count(self) -> int | None:
        return _shared_count([ds.observation_count() for ds in self.stores])

    def get_property(self, name: str) -> Any:
        if name == "UnderlyingDatastores":
            return Cell.row(list(self.stores))
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> Any:
        if name in self.property_names():
            raise read_only_property(name, self.display_name)
        return super().set_property(name, value)


class CombinedDatastore(_OverStores):
    """Reads of ``stores`` side by side."""

    matlab_class = "matlab.io.datastore.CombinedDatastore"
    display_name = "CombinedDatastore"
    __slots__ = ()

    def __init__(self, stores: list[Datastore]) -> None:
        self.stores = stores

    def read_block(self, interp: Any) -> tuple[Any, Any]:
        if not self.has_data():
            raise no_more_data()
        reads = [ds.read_block(interp) for ds in self.stores]
        return side_by_side([r[0] for r in reads]), Cell.row([r[1] for r in reads])

    def observations_at_once(self) -> int:
        return min(ds.observations_at_once() for ds in self.stores)

    def read_observations(self, interp: Any, count: int) -> Cell:
        return side_by_side([ds.read_observations(interp, count) for ds in self.stores])

    def copy(self) -> CombinedDatastore:
        return CombinedDatastore([ds.copy() for ds in self.stores])

    def subset(self, order: np.ndarray) -> CombinedDatastore:
        return CombinedDatastore([ds.subset(order) for ds in self.stores])

    def read_all(self, interp: Any) -> Any:
        return side_by_side([ds.read_all(interp) for ds in self.stores])

    def direct_remaining(self) -> int | None:
        return _shared_count([ds.direct_remaining() for ds in self.stores])

    def batch_arrays(self, count: int) -> list[Any]:
        return [array for ds in self.stores for array in ds.batch_arrays(count)]

    def property_names(self) -> list[str]:
        return ["UnderlyingDatastores"]


class TransformedDatastore(_OverStores):
    """Reads of ``stores`` passed through ``transforms`` ((function, include_info) pairs)."""

    matlab_class = "matlab.io.datastore.TransformedDatastore"
    display_name = "TransformedDatastore"
    __slots__ = ("transforms",)

    def __init__(self, stores: list[Datastore], transforms: list[tuple[Any, bool]]) -> None:
        self.stores = stores
        self.transforms = transforms

    def read_block(self, interp: Any) -> tuple[Any, Any]:
        if not self.has_data():
            raise no_more_data()
        reads = [ds.read_block(interp) for ds in self.stores]
        datas = [r[0] for r in reads]
        info = reads[0][1] if len(reads) == 1 else Cell.row([r[1] for r in reads])
        for k, (fn, include_info) in enumerate(self.transforms):
            args = list(datas) if k == 0 else [datas[0]]
            if include_info:
                out = interp.call_value(fn, [*args, info], 2)
                if len(out) < 2:
                    raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
                datas, info = [out[0]], out[1]
            else:
                datas = [interp.call_value(fn, args, 1)[0]]
        return datas[0], info

    def copy(self) -> TransformedDatastore:
        return TransformedDatastore([ds.copy() for ds in self.stores], list(self.transforms))

    def subset(self, order: np.ndarray) -> TransformedDatastore:
        return TransformedDatastore([ds.subset(order) for ds in self.stores], list(self.transforms))

    def property_names(self) -> list[str]:
        return ["UnderlyingDatastores", "Transforms", "IncludeInfo"]

    def get_property(self, name: str) -> Any:
        if name == "Transforms":
            return Cell.row([fn for fn, _ in self.transforms])
        if name == "IncludeInfo":
            flags = [inc for _, inc in self.transforms]
            return flags[0] if len(flags) == 1 else np.array([flags], dtype=bool)
        return super().get_property(name)


@builtin()
def combine(*stores: Any) -> CombinedDatastore:
    """combine  combine data from several datastores

    dsnew = combine(ds1, ds2, ...) reads each datastore once a read and returns the
    data side by side in one cell: {data1, data2, ...}."""
    if not stores:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    found = [_check_datastore(ds, "combine") for ds in stores]
    return CombinedDatastore([fresh_copy(ds) for ds in found])


@builtin()
def transform(*args: Any) -> TransformedDatastore:
    """transform  transform a datastore

    dsnew = transform(ds, @fcn) applies fcn to the data of every read.
    dsnew = transform(ds1, ..., dsN, @fcn) calls fcn(data1, ..., dataN).
    dsnew = transform(___, IncludeInfo=true) calls [data, info] = fcn(data, info)."""
    items = list(args)
    include_info = False
    if len(items) >= 2 and text_option(items[-2]) == "includeinfo":
        include_info = option_flag(items[-1], "IncludeInfo")
        items = items[:-2]
    if len(items) < 2:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    fn = items[-1]
    if type(fn) is not FunctionHandle:
        raise error("MATLAB:datastoreio:transformeddatastore:invalidFunctionHandle",
                    "Transform function must be a function handle.")
    stores = [_check_datastore(ds, "transform") for ds in items[:-1]]
    if len(stores) == 1 and type(stores[0]) is TransformedDatastore \
            and len(stores[0].stores) == 1:
        inner = stores[0]
        return TransformedDatastore([fresh_copy(inner.stores[0])],
                                    [*inner.transforms, (fn, include_info)])
    return TransformedDatastore([fresh_copy(ds) for ds in stores], [(fn, include_info)])
