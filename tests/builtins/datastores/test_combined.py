"""combine and transform: reads side by side, transformed reads, shuffling in step."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.values.cell import Cell
from tests.builtins.datastores.helpers import cells

XT = "x = (1:5)'; t = (11:15)'; dx = arrayDatastore(x); dt = arrayDatastore(t);"


def test_combine_reads_side_by_side(m) -> None:
    c = m.value(XT + "ds = combine(dx, dt); read(ds); x = read(ds);")
    assert c.shape == (1, 2)
    assert cells(c) == [2.0, 12.0]


def test_combine_with_read_size_and_readall(m) -> None:
    c = m.value("dx = arrayDatastore((1:4)', ReadSize=2); dt = arrayDatastore((5:8)', ReadSize=2);"
                "x = read(combine(dx, dt));")
    assert c.shape == (2, 2)
    assert c.data[1, 1] == 6.0
    a = m.value(XT + "x = readall(combine(dx, dt));")
    assert a.shape == (5, 2) and a.data[4, 0] == 5.0 and a.data[4, 1] == 15.0


def test_combine_wraps_non_cell_reads(m) -> None:
    c = m.value("a = arrayDatastore([1 2; 3 4], OutputType='same'); b = arrayDatastore([5; 6]);"
                "x = read(combine(a, b));")
    assert c.shape == (1, 2)
    np.testing.assert_array_equal(cells(c)[0], [[1, 2]])
    assert cells(c)[1] == 5.0


def test_combine_copies_its_datastores(m) -> None:
    x = m.value(XT + "ds = combine(dx, dt); read(ds); read(ds); c = read(dx); x = c{1};")
    assert x == 1.0


def test_combined_hasdata_reset_and_handle(m) -> None:
    h, x = m.values(XT + "ds = combine(dx, dt); d2 = ds; while hasdata(d2), read(d2); end;"
                         "h = hasdata(ds); reset(ds); c = read(ds); x = c{2};", "h", "x")
    assert h is False and x == 11.0


def test_combined_shuffle_keeps_pairs(m) -> None:
    a = m.value(XT + "rng(3); ds = shuffle(combine(dx, dt)); x = readall(ds);")
    left = np.array(cells(Cell(a.data[:, :1])))
    right = np.array(cells(Cell(a.data[:, 1:])))
    np.testing.assert_array_equal(right - left, np.full(5, 10.0))
    assert sorted(left.tolist()) == [1, 2, 3, 4, 5]


def test_combined_partition(m) -> None:
    a = m.value(XT + "x = readall(partition(combine(dx, dt), 2, 2));")
    assert a.shape == (3, 2) and a.data[0, 0] == 3.0 and a.data[0, 1] == 13.0


def test_transform(m) -> None:
    c = m.value(XT + "ds = transform(dx, @(c) {c{1} * 10}); read(ds); x = read(ds);")
    assert cells(c) == [20.0]
    a = m.value(XT + "x = readall(transform(dx, @(c) c{1} + 100));")
    np.testing.assert_array_equal(a, [[101], [102], [103], [104], [105]])


def test_transform_chains_and_leaves_the_source(m) -> None:
    x, y = m.values(XT + "d1 = transform(dx, @(c) c{1} * 2); d2 = transform(d1, @(v) v + 1);"
                         "x = read(d2); c = read(dx); y = c{1};", "x", "y")
    assert x == 3.0 and y == 1.0
    n = m.value(XT + "d2 = transform(transform(dx, @(c) c), @(c) c); x = numel(d2.Transforms);")
    assert n == 2.0


def test_transform_several_datastores(m) -> None:
    x = m.value(XT + "ds = transform(dx, dt, @(a, b) a{1} + b{1}); x = read(ds);")
    assert x == 12.0


def test_transform_include_info_with_anonymous_function(m) -> None:
    x, extra = m.values(XT + "f = @(d, info) deal({d{1} * 3}, setfield(info, 'Extra', 7));"
                             "ds = transform(dx, f, 'IncludeInfo', true); read(ds);"
                             "[c, info] = read(ds); x = c{1}; extra = info.Extra;", "x", "extra")
    assert x == 6.0 and extra == 7.0


def test_transformed_shuffle(m) -> None:
    a = m.value(XT + "rng(0); ds = shuffle(transform(dx, @(c) c{1})); x = readall(ds);")
    assert sorted(a.reshape(-1).tolist()) == [1, 2, 3, 4, 5]


def test_displays(m) -> None:
    assert m.run(XT + "ds = combine(dx, dt)") == (
        "\nds = \n\n  CombinedDatastore with properties:\n\n"
        "    UnderlyingDatastores: {1×2 cell}\n\n")
    assert m.run(XT + "ds = transform(dx, @(c) c{1})") == (
        "\nds = \n\n  TransformedDatastore with properties:\n\n"
        "    UnderlyingDatastores: {1×1 matlab.io.datastore.ArrayDatastore}\n"
        "              Transforms: {@(c)c{1}}\n"
        "             IncludeInfo: 0\n\n")


@pytest.mark.parametrize(("code", "identifier"), [
    ("combine(1, 2)", "MATLAB:UndefinedFunction"),
    (XT + "transform(dx, 3)", "MATLAB:datastoreio:transformeddatastore:invalidFunctionHandle"),
    (XT + "transform(dx)", "MATLAB:minrhs"),
    (XT + "ds = combine(dx, dt); ds.UnderlyingDatastores = {};", "MATLAB:class:SetProhibited"),
    (XT + "ds = combine(dx, dt); while true, read(ds); end",
     "MATLAB:datastoreio:splittabledatastore:noMoreData"),
    ("a = arrayDatastore((1:3)', ReadSize=2); b = arrayDatastore((1:3)', ReadSize=3);"
     "read(combine(a, b))", "MATLAB:datastoreio:combineddatastore:dimensionMismatch"),
    (XT + "ds = combine(dx, arrayDatastore(1:3)); shuffle(ds)",
     "MATLAB:datastoreio:datastore:notShuffleable"),
])
def test_errors(m, code: str, identifier: str) -> None:
    assert m.fails(code).identifier == identifier
