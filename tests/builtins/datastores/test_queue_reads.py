"""The quick reads of an arrayDatastore give what the general reads give.

* ``ArrayDatastore.slices`` of a numeric array picks the observations along the iteration
  dimension directly: the value ``index(data, {':', ..., k})`` gives, for every class,
  layout and iteration dimension;
* a minibatchqueue over an arrayDatastore of ReadSize 1, or a combination of them, reads
  the observations a mini-batch still wants in one piece (``read_observations``): the
  batches, the order after shuffle and the end of the data are those of reading them one
  by one.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from mlang.builtins.datastores.array_datastore import ArrayDatastore
from mlang.builtins.datastores.datastore import Datastore
from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import char_row
from mlang.values.indexing import COLON, index


def _arrays() -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    out = []
    for shape in [(4, 6), (1, 7), (7, 1), (3, 4, 5), (2, 3, 2, 4), (3, 1, 4), (5, 2, 1, 3)]:
        a = rng.standard_normal(shape)
        out += [a, np.asfortranarray(a), a.astype(np.float32), a > 0, (a * 10).astype(np.int8),
                a + 1j * a]
    out.append(np.concatenate([char_row("abcdef"), char_row("ghijkl")], axis=0))
    return out


@pytest.mark.parametrize("data", _arrays(), ids=lambda a: f"{a.dtype}-{a.shape}")
def test_slices_are_what_indexing_gives(data: np.ndarray) -> None:
    rng = np.random.default_rng(data.size)
    for dim in range(1, data.ndim + 1):
        count = data.shape[dim - 1]
        store = ArrayDatastore(data, dim)
        for positions in (np.array([0]), np.array([count - 1]), rng.permutation(count)[:3],
                          np.arange(count)):
            args = [COLON] * data.ndim
            args[dim - 1] = (positions.astype(np.float64) + 1.0).reshape(1, -1)
            want = index(data, args)
            got = store.slices(positions.astype(np.intp))
            assert type(got) is type(want)
            if type(want) is np.ndarray:
                assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


QUEUES = [
    "mbq = minibatchqueue(ds, 'MiniBatchSize', 4);",
    "mbq = minibatchqueue(ds, 'MiniBatchSize', 3, 'MiniBatchFcn', @(x) cat(2, x{:}), "
    "'MiniBatchFormat', 'CB');",
    "mbq = minibatchqueue(ds, 'MiniBatchSize', 4, 'MiniBatchFcn', @(x) cat(2, x{:}), "
    "'PartialMiniBatch', 'discard');",
    "mbq = minibatchqueue(ds, 'MiniBatchSize', 5, 'MiniBatchFcn', @(x) sum(cat(2, x{:}), 2));",
]


def _batches(queue: str, datastore: str, one_by_one: bool, monkeypatch) -> list:
    if one_by_one:  # every read through read_block, as a datastore without the quick read
        monkeypatch.setattr(ArrayDatastore, "observations_at_once", Datastore.observations_at_once)
    interp = Interpreter(stdout=io.StringIO())
    interp.eval(f"rng(7); X = reshape(1:2*11, 2, 11); Y = categorical(mod(1:11, 3)); "
                f"{datastore} {queue} out = {{}};"
                "for epoch = 1:2, shuffle(mbq); while hasdata(mbq), b = next(mbq); "
                "out{end+1} = extractdata(dlarray(b)); end, end; left = hasdata(ds);")
    monkeypatch.undo()
    cells = interp.base.vars["out"].data.reshape(-1).tolist()
    return [np.asarray(c).tolist() for c in cells] + [interp.base.vars["left"]]


ONE_VARIABLE = ["ds = arrayDatastore(X, 'IterationDimension', 2);", "ds = arrayDatastore(X');",
                "ds = arrayDatastore(X', 'ReadSize', 3);"]
SEVERAL = ["ds = combine(arrayDatastore(X', 'OutputType', 'same'), arrayDatastore(X'));",
           "ds = combine(arrayDatastore(X, 'IterationDimension', 2), arrayDatastore(Y'), "
           "arrayDatastore(X'));"]
CASES = [(d, q) for d in ONE_VARIABLE for q in QUEUES] + [(d, QUEUES[0]) for d in SEVERAL]


@pytest.mark.parametrize("datastore, queue", CASES)
def test_queue_batches_are_those_of_reads_one_by_one(datastore: str, queue: str, monkeypatch) -> None:
    quick = _batches(queue, datastore, False, monkeypatch)
    general = _batches(queue, datastore, True, monkeypatch)
    assert len(quick) >= 5  # (two epochs of two or more batches, and the end)
    assert quick == general
