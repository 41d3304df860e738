"""arrayDatastore: read patterns, handle semantics, shuffle, partition, properties, errors."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.values.string import StringArray
from tests.builtins.datastores.helpers import cells

A = "A = reshape(1:12, 4, 3);"


def test_default_read_is_one_row_in_a_cell(m) -> None:
    c = m.value(A + "ds = arrayDatastore(A); x = read(ds);")
    assert c.shape == (1, 1)
    np.testing.assert_array_equal(cells(c)[0], [[1, 5, 9]])


def test_reads_advance_to_the_end(m) -> None:
    rows = m.value(A + "ds = arrayDatastore(A); x = {};"
                       "while hasdata(ds), x{end+1} = read(ds); end")
    got = [np.asarray(cells(r)[0]) for r in cells(rows)]
    assert len(got) == 4
    np.testing.assert_array_equal(got[3], [[4, 8, 12]])


def test_read_size_gives_a_column_cell(m) -> None:
    c = m.value(A + "ds = arrayDatastore(A, ReadSize=3); x = read(ds);")
    assert c.shape == (3, 1)
    np.testing.assert_array_equal(cells(c)[2], [[3, 7, 11]])
    last = m.value(A + "ds = arrayDatastore(A, ReadSize=3); read(ds); x = read(ds);")
    assert last.shape == (1, 1)


def test_read_size_beyond_the_data_reads_everything(m) -> None:
    assert m.value(A + "ds = arrayDatastore(A, 'ReadSize', 10); x = read(ds);").shape == (4, 1)


def test_output_type_same(m) -> None:
    x = m.value(A + "ds = arrayDatastore(A, ReadSize=3, OutputType='same'); x = read(ds);")
    np.testing.assert_array_equal(x, [[1, 5, 9], [2, 6, 10], [3, 7, 11]])
    x = m.value(A + "ds = arrayDatastore(A, OutputType=\"same\"); x = read(ds);")
    np.testing.assert_array_equal(x, [[1, 5, 9]])


def test_iteration_dimension_2_reads_columns(m) -> None:
    c = m.value(A + "ds = arrayDatastore(A, IterationDimension=2, ReadSize=2); x = read(ds);")
    assert c.shape == (2, 1)
    np.testing.assert_array_equal(cells(c)[1], [[5], [6], [7], [8]])


def test_iteration_dimension_3_reads_pages(m) -> None:
    x, n = m.values("B = reshape(1:12, 2, 2, 3); ds = arrayDatastore(B, IterationDimension=3);"
                    "read(ds); c = read(ds); x = c{1}; n = numpartitions(ds);", "x", "n")
    np.testing.assert_array_equal(x, [[5, 7], [6, 8]])
    assert n == 3


def test_iteration_dimension_beyond_ndims_is_one_observation(m) -> None:
    n = m.value(A + "ds = arrayDatastore(A, IterationDimension=3); x = numpartitions(ds);")
    assert n == 1


def test_readall_and_preview_leave_the_position(m) -> None:
    all_, first, nxt = m.values(A + "ds = arrayDatastore(A); read(ds); all = readall(ds);"
                                    "first = preview(ds); nxt = read(ds);", "all", "first", "nxt")
    assert all_.shape == (4, 1)
    np.testing.assert_array_equal(cells(first)[0], [[1, 5, 9]])
    np.testing.assert_array_equal(cells(nxt)[0], [[2, 6, 10]])
    same = m.value(A + "ds = arrayDatastore(A, OutputType='same'); x = readall(ds);")
    np.testing.assert_array_equal(same, np.arange(1, 13).reshape(3, 4).T)


def test_read_with_info(m) -> None:
    out = m.run(A + "ds = arrayDatastore(A); [d, info] = read(ds); disp(class(info))")
    assert out == "struct\n"


def test_datastore_is_a_handle(m) -> None:
    x = m.value(A + "ds = arrayDatastore(A); ds2 = ds; read(ds2); read(ds2); c = read(ds); x = c{1};")
    np.testing.assert_array_equal(x, [[3, 7, 11]])
    # a function that reads its argument advances the caller's datastore
    x = m.value(A + "ds = arrayDatastore(A); f = @(d) read(d); f(ds); f(ds); f(ds); c = read(ds); x = c{1};")
    np.testing.assert_array_equal(x, [[4, 8, 12]])


def test_reset(m) -> None:
    x = m.value(A + "ds = arrayDatastore(A); read(ds); read(ds); reset(ds); c = read(ds); x = c{1};")
    np.testing.assert_array_equal(x, [[1, 5, 9]])


def test_dot_calls(m) -> None:
    x, h = m.values(A + "ds = arrayDatastore(A); ds.read(); c = ds.read(); x = c{1}; h = ds.hasdata;",
                    "x", "h")
    np.testing.assert_array_equal(x, [[2, 6, 10]])
    assert h is True


def test_properties_are_assignable(m) -> None:
    c = m.value(A + "ds = arrayDatastore(A); ds.ReadSize = 8; x = read(ds);")
    assert c.shape == (4, 1)
    x = m.value(A + "ds = arrayDatastore(A); read(ds); ds.IterationDimension = 2; c = read(ds); x = c{1};")
    np.testing.assert_array_equal(x, [[1], [2], [3], [4]])  # a new dimension starts over
    x = m.value(A + "ds = arrayDatastore(A); read(ds); ds.OutputType = 'same'; x = read(ds);")
    np.testing.assert_array_equal(x, [[1, 5, 9]])
    assert m.value(A + "ds = arrayDatastore(A, ReadSize=4); x = ds.ReadSize;") == 4.0
    assert type(m.value(A + "ds = arrayDatastore(A); x = ds.OutputType;")) is StringArray


def test_class_and_predicates(m) -> None:
    assert m.run(A + "ds = arrayDatastore(A); disp(class(ds))") == \
        "matlab.io.datastore.ArrayDatastore\n"
    assert m.value(A + "ds = arrayDatastore(A); x = isShuffleable(ds) && isPartitionable(ds);") is True


def test_shuffle_is_a_reproducible_copy(m) -> None:
    code = ("ds = arrayDatastore((1:6)'); rng(7); s = shuffle(ds); a = cell2mat(readall(s));"
            "rng(7); t = shuffle(ds); b = cell2mat(readall(t)); c = cell2mat(readall(ds));")
    a, b, c = m.values(code, "a", "b", "c")
    np.testing.assert_array_equal(a, b)
    assert sorted(a.reshape(-1)) == [1, 2, 3, 4, 5, 6]
    np.testing.assert_array_equal(c.reshape(-1), np.arange(1, 7))  # the original is untouched
    perm = m.value("rng(7); x = randperm(6);")
    np.testing.assert_array_equal(a.reshape(-1), perm.reshape(-1))


def test_partition(m) -> None:
    parts = m.value("ds = arrayDatastore((1:7)'); x = {cell2mat(readall(partition(ds, 3, 1))),"
                    "cell2mat(readall(partition(ds, 3, 2))), cell2mat(readall(partition(ds, 3, 3)))};")
    got = [np.asarray(p).reshape(-1).tolist() for p in cells(parts)]
    assert got == [[1, 2], [3, 4], [5, 6, 7]]
    assert m.value("ds = arrayDatastore((1:7)'); x = numpartitions(ds);") == 7.0


def test_string_and_cell_data(m) -> None:
    s = m.value('ds = arrayDatastore(["a"; "b"]); c = read(ds); x = c{1};')
    assert type(s) is StringArray and s.scalar_text() == "a"
    row = m.value("ds = arrayDatastore({1, 'two'; 3, 'four'}); read(ds); x = read(ds);")
    assert row.shape == (1, 2) and cells(row)[0] == 3.0
    col = m.value("ds = arrayDatastore({1; 'two'; [3 4]}, ReadSize=2); x = read(ds);")
    assert col.shape == (2, 1) and cells(col)[0] == 1.0


def test_formatted_dlarray_keeps_its_format(m) -> None:
    x = m.value("X = dlarray(reshape(1:8, 2, 4), 'CB'); ds = arrayDatastore(X, IterationDimension=2);"
                "read(ds); c = read(ds); x = c{1};")
    assert type(x) is DlArray and x.fmt == "CB"
    np.testing.assert_array_equal(x.data, [[3], [4]])
    y = m.value("X = dlarray(reshape(1:8, 2, 4), 'CB');"
                "ds = arrayDatastore(X, IterationDimension=2, ReadSize=3, OutputType='same'); x = read(ds);")
    assert type(y) is DlArray and y.fmt == "CB" and y.data.shape == (2, 3)


def test_display(m) -> None:
    assert m.run(A + "ds = arrayDatastore(A)") == (
        "\nds = \n\n  ArrayDatastore with properties:\n\n"
        "              ReadSize: 1\n"
        "    IterationDimension: 1\n"
        "            OutputType: \"cell\"\n\n")


@pytest.mark.parametrize(("code", "identifier"), [
    ("ds = arrayDatastore(1); read(ds); read(ds);", "MATLAB:datastoreio:splittabledatastore:noMoreData"),
    ("ds = arrayDatastore(zeros(0, 2)); read(ds);", "MATLAB:datastoreio:splittabledatastore:noMoreData"),
    ("arrayDatastore(1, 'ReadSize', 0);", "MATLAB:datastoreio:arraydatastore:invalidPositiveInteger"),
    ("arrayDatastore(1, 'IterationDimension', 1.5);",
     "MATLAB:datastoreio:arraydatastore:invalidPositiveInteger"),
    ("arrayDatastore(1, 'OutputType', 'table');", "MATLAB:datastoreio:arraydatastore:invalidOutputType"),
    ("arrayDatastore(1, 'Bogus', 2);", "MATLAB:InputParser:UnmatchedParameter"),
    ("arrayDatastore(@sin);", "MATLAB:datastoreio:arraydatastore:invalidInput"),
    ("ds = arrayDatastore(1); ds.ReadSize = -1;", "MATLAB:datastoreio:arraydatastore:invalidPositiveInteger"),
    ("ds = arrayDatastore(1); ds.Nope = 1;", "MATLAB:noPublicFieldForClass"),
    ("read(3)", "MATLAB:UndefinedFunction"),
    ("hasdata('x')", "MATLAB:UndefinedFunction"),
    ("ds = arrayDatastore(1:3); partition(ds, 2, 3)",
     "MATLAB:datastoreio:splittabledatastore:invalidPartitionIndex"),
    ("ds = arrayDatastore(1:3); partition(ds, 0, 1)",
     "MATLAB:datastoreio:splittabledatastore:invalidNumPartitions"),
])
def test_errors(m, code: str, identifier: str) -> None:
    assert m.fails(code).identifier == identifier


def test_read_past_end_message(m) -> None:
    err = m.fails("ds = arrayDatastore(1); read(ds); read(ds);")
    assert str(err.exc.message).startswith("No more data to read. Use the reset method")


@pytest.mark.parametrize(("make", "dim"), [
    ("reshape(1:24, 2, 3, 4)", 3), ("reshape(1:24, 2, 3, 4)", 2), ("reshape(1:24, 2, 3, 4)", 1),
    ("reshape(1:6, 2, 3)", 2), ("1:5", 2), ("int8(magic(4))", 1), ("rand(3, 2) > 0.5", 1),
])
def test_reading_several_equals_reading_one_at_a_time(m, make: str, dim: int) -> None:
    many, single = m.values(f"A = {make}; d1 = arrayDatastore(A, IterationDimension={dim}, ReadSize=100);"
                            f"d2 = arrayDatastore(A, IterationDimension={dim}); many = read(d1);"
                            "single = {}; while hasdata(d2), c = read(d2); single{end+1, 1} = c{1}; end",
                            "many", "single")
    assert many.shape == single.shape
    for a, b in zip(cells(many), cells(single), strict=True):
        assert type(a) is type(b)
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
        assert np.asarray(a).dtype == np.asarray(b).dtype


def test_copy_is_independent(m) -> None:
    x, y = m.values("ds = arrayDatastore((1:5)'); read(ds); d2 = copy(ds); read(d2); read(d2);"
                    "c = read(ds); x = c{1}; c = read(d2); y = c{1};", "x", "y")
    assert x == 2.0 and y == 4.0


def test_subset_and_progress(m) -> None:
    a = m.value("ds = arrayDatastore((1:5)'); x = cell2mat(readall(subset(ds, [5 1 3])));")
    np.testing.assert_array_equal(a, [[5], [1], [3]])
    a = m.value("ds = arrayDatastore((1:5)'); x = cell2mat(readall(subset(ds, logical([0 1 0 0 1]))));")
    np.testing.assert_array_equal(a, [[2], [5]])
    p = m.value("ds = arrayDatastore((1:5)', ReadSize=2); read(ds); x = [progress(ds), 0];"
                "read(ds); read(ds); x(2) = progress(ds);")
    np.testing.assert_allclose(p, [[0.4, 1.0]])
    assert m.fails("subset(arrayDatastore(1:3), 2)").identifier == \
        "MATLAB:datastoreio:datastore:invalidSubsetIndices"
    assert m.fails("subset(arrayDatastore((1:3)'), [1 0])").identifier == \
        "MATLAB:datastoreio:datastore:invalidSubsetIndices"


def test_table_data(m) -> None:
    c = m.value("T = table((1:3)', (4:6)'); ds = arrayDatastore(T); read(ds); x = read(ds);")
    t = cells(c)[0]
    assert type(t).__name__ == "Table" and t.height == 1
    t = m.value("T = table((1:3)', (4:6)'); ds = arrayDatastore(T, ReadSize=2, OutputType='same');"
                "x = read(ds);")
    assert t.height == 2
