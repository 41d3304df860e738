"""Awkward arguments of the datastore and minibatchqueue functions found by random calls:
each gives a MATLAB value or a MATLAB error, never a Python exception (one test per
problem found), and the edge cases of a training loop's data."""

from __future__ import annotations

import numpy as np

from mlang.values.cell import Cell


def test_subset_with_text_or_cell_indices_is_a_matlab_error(m) -> None:
    for indices in ("'abc'", '"abc"', "{1, 2}", "1+2i"):
        err = m.fails(f"ds = arrayDatastore(magic(4)); s = subset(ds, {indices});")
        assert err.identifier in ("MATLAB:datastoreio:datastore:invalidSubsetIndices",
                                  "MATLAB:invalidType")


def test_a_huge_number_of_outputs_is_refused_before_allocating(m) -> None:
    err = m.fails("mbq = minibatchqueue(arrayDatastore(magic(4)), 1e18);")
    assert err.identifier in ("MATLAB:pmaxsize", "MATLAB:array:SizeLimitExceeded")


def test_an_iteration_dimension_past_the_last_reads_the_whole_array_once(m) -> None:
    a, n = m.values("ds = arrayDatastore(magic(3), IterationDimension=1e18); a = readall(ds);"
                    "n = 0; while hasdata(ds), read(ds); n = n + 1; end", "a", "n")
    assert type(a) is Cell and a.data.shape == (1, 1) and n == 1
    np.testing.assert_array_equal(a.data[0, 0], [[8, 1, 6], [3, 5, 7], [4, 9, 2]])
    X = m.value("ds = arrayDatastore(magic(3), IterationDimension=1e18);"
                "X = next(minibatchqueue(ds, OutputAsDlarray=false));", "X")
    np.testing.assert_array_equal(X, np.float32([[8, 1, 6], [3, 5, 7], [4, 9, 2]]))


def test_an_iteration_dimension_past_the_last_batches_along_the_next_one(m) -> None:
    X = m.value("X = next(minibatchqueue(arrayDatastore(rand(3,1), IterationDimension=2), "
                "OutputAsDlarray=false));", "X")
    assert X.shape == (3, 1)


def test_readall_of_reads_of_different_widths_is_a_concatenation_error(m) -> None:
    err = m.fails("ds = transform(arrayDatastore(rand(5,3), ReadSize=2), @(x) x'); a = readall(ds);")
    assert err.identifier == "MATLAB:catenate:dimensionMismatch"


def test_minibatchqueue_over_an_empty_datastore(m) -> None:
    assert m.value("mbq = minibatchqueue(arrayDatastore(zeros(0, 3))); x = hasdata(mbq);") is False
    err = m.fails("mbq = minibatchqueue(arrayDatastore(zeros(0, 3))); X = next(mbq);")
    assert err.identifier == "nnet_cnn:minibatchqueue:EndOfData"


def test_mini_batch_larger_than_the_data_returns_all_of_it_once(m) -> None:
    X, more = m.values("mbq = minibatchqueue(arrayDatastore(magic(3)), MiniBatchSize=1e6,"
                       "OutputAsDlarray=false); X = next(mbq); more = hasdata(mbq);", "X", "more")
    assert X.shape == (3, 3) and more is False
    assert m.value("mbq = minibatchqueue(arrayDatastore(magic(3)), MiniBatchSize=1e6,"
                   "PartialMiniBatch='discard'); x = hasdata(mbq);") is False


def test_errors_of_a_mini_batch_function_keep_their_identifier(m, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rejectBatch.m").write_text(
        "function X = rejectBatch(x)\nerror('demo:reject', 'rejected %d', numel(x));\nend\n")
    err = m.fails("mbq = minibatchqueue(arrayDatastore((1:4)'), 1, MiniBatchFcn=@rejectBatch);"
                  "X = next(mbq);")
    assert err.identifier == "demo:reject" and "rejected 4" in err.message
    err = m.fails("ds = transform(arrayDatastore((1:4)'), @rejectBatch); X = read(ds);")
    assert err.identifier == "demo:reject"


def test_a_transform_returning_a_struct_gives_a_cell_of_structs(m) -> None:
    d = m.value("ds = transform(arrayDatastore(magic(3)), @(x) struct('a', x{1}(1)));"
                "X = next(minibatchqueue(ds));", "X")
    assert type(d) is Cell and d.data.shape == (3, 1)


def test_a_transform_returning_function_handles_gives_a_cell_of_them(m) -> None:
    d = m.value("ds = transform(arrayDatastore(magic(3)), @(x) @sin); X = next(minibatchqueue(ds));", "X")
    assert type(d) is Cell and d.data.shape == (3, 1)
