"""minibatchqueue: batching, collation, formats, casts, handle semantics, display, errors."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.values.cell import Cell

XT = "x = (1:5)'; t = (11:15)';"


def test_pinn_pattern_rows_become_channels_by_batch(m) -> None:
    X = m.value(XT + "ds = arrayDatastore([x t]); mbq = minibatchqueue(ds, MiniBatchSize=2,"
                     "MiniBatchFormat=\"BC\"); X = next(mbq);", "X")
    assert type(X) is DlArray and X.fmt == "CB" and X.data.dtype == np.float32
    np.testing.assert_array_equal(X.data, [[1, 2], [11, 12]])


def test_loop_sizes_partial_return_and_discard(m) -> None:
    sizes = m.value(XT + "mbq = minibatchqueue(arrayDatastore([x t]), MiniBatchSize=2,"
                         "MiniBatchFormat='BC'); s = [];"
                         "while hasdata(mbq), X = next(mbq); s(end+1) = size(X, 2); end", "s")
    np.testing.assert_array_equal(sizes, [[2, 2, 1]])
    sizes = m.value(XT + "mbq = minibatchqueue(arrayDatastore([x t]), MiniBatchSize=2,"
                         "PartialMiniBatch='discard'); s = [];"
                         "while hasdata(mbq), X = next(mbq); s(end+1) = size(X, 1); end", "s")
    np.testing.assert_array_equal(sizes, [[2, 2]])


def test_read_size_does_not_change_the_batches(m) -> None:
    X = m.value(XT + "mbq = minibatchqueue(arrayDatastore([x t], ReadSize=3), MiniBatchSize=4);"
                     "X = next(mbq); X = next(mbq);", "X")
    np.testing.assert_array_equal(X.data, [[5, 15]])


def test_columns_concatenate_along_dimension_2(m) -> None:
    X = m.value(XT + "ds = arrayDatastore([x t]', IterationDimension=2);"
                     "mbq = minibatchqueue(ds, MiniBatchSize=3, MiniBatchFormat='CB', OutputCast='double');"
                     "X = next(mbq);", "X")
    assert X.fmt == "CB" and X.data.dtype == np.float64
    np.testing.assert_array_equal(X.data, [[1, 2, 3], [11, 12, 13]])


def test_scalars_concatenate_along_dimension_1(m) -> None:
    X = m.value(XT + "mbq = minibatchqueue(arrayDatastore(x), MiniBatchSize=3,"
                     "MiniBatchFormat='BC'); X = next(mbq);", "X")
    assert X.fmt == "CB"
    np.testing.assert_array_equal(X.data, [[1, 2, 3]])


def test_images_concatenate_along_dimension_3(m) -> None:
    X = m.value("I = reshape(1:20, 2, 2, 5); ds = arrayDatastore(I, IterationDimension=3, ReadSize=2);"
                "mbq = minibatchqueue(ds, MiniBatchSize=4, MiniBatchFormat='SSB'); X = next(mbq);", "X")
    assert X.fmt == "SSB" and X.data.shape == (2, 2, 4)
    np.testing.assert_array_equal(X.data[:, :, 3], [[13, 15], [14, 16]])


def test_unformatted_and_plain_outputs(m) -> None:
    X = m.value(XT + "mbq = minibatchqueue(arrayDatastore(x), MiniBatchSize=2); X = next(mbq);", "X")
    assert type(X) is DlArray and X.fmt == "" and X.data.shape == (2, 1)
    X = m.value(XT + "mbq = minibatchqueue(arrayDatastore(x), MiniBatchSize=2, OutputAsDlarray=false);"
                     "X = next(mbq);", "X")
    assert type(X) is np.ndarray and X.dtype == np.float32
    X = m.value(XT + "mbq = minibatchqueue(arrayDatastore(int8(x)), MiniBatchSize=2, OutputCast='',"
                     "OutputAsDlarray=0); X = next(mbq);", "X")
    assert X.dtype == np.int8


def test_combined_datastore_two_outputs(m) -> None:
    X, T = m.values(XT + "ds = combine(arrayDatastore(x), arrayDatastore(t));"
                         "mbq = minibatchqueue(ds, MiniBatchSize=4, MiniBatchFormat={'BC', ''},"
                         "OutputAsDlarray=[1 0]); [X, T] = next(mbq);", "X", "T")
    assert X.fmt == "CB"
    np.testing.assert_array_equal(X.data, [[1, 2, 3, 4]])
    assert type(T) is np.ndarray and T.dtype == np.float32
    np.testing.assert_array_equal(T, [[11], [12], [13], [14]])


def test_mini_batch_fcn_receives_cells_of_observations(m) -> None:
    X, T, sz = m.values(XT + "ds = combine(arrayDatastore(x), arrayDatastore(t));"
                             "f = @(a, b) deal(cat(2, a{:}), size(b));"
                             "mbq = minibatchqueue(ds, 2, MiniBatchSize=4, MiniBatchFcn=f,"
                             "MiniBatchFormat=[\"CB\", \"\"], OutputCast=\"double\");"
                             "[X, T] = next(mbq); sz = extractdata(T);", "X", "T", "sz")
    assert X.fmt == "CB" and X.data.dtype == np.float64
    np.testing.assert_array_equal(X.data, [[1, 2, 3, 4]])
    np.testing.assert_array_equal(sz, [[4, 1]])  # each input is a B-by-1 cell


def test_mini_batch_fcn_with_one_input_more_outputs(m) -> None:
    X, T = m.values("ds = arrayDatastore([1 10; 2 20; 3 30]);"
                    "g = @(c) deal(cellfun(@(r) r(1), c), cellfun(@(r) r(2), c));"
                    "mbq = minibatchqueue(ds, 2, MiniBatchSize=3, MiniBatchFcn=g, OutputAsDlarray=false);"
                    "[X, T] = next(mbq);", "X", "T")
    np.testing.assert_array_equal(X, np.array([[1], [2], [3]], dtype=np.float32))
    np.testing.assert_array_equal(T, np.array([[10], [20], [30]], dtype=np.float32))


def test_formatted_dlarray_source(m) -> None:
    X = m.value("D = dlarray(reshape(1:8, 2, 4), 'CB'); ds = arrayDatastore(D, IterationDimension=2);"
                "mbq = minibatchqueue(ds, MiniBatchSize=3); X = next(mbq);", "X")
    assert X.fmt == "CB" and X.data.dtype == np.float32
    np.testing.assert_array_equal(X.data, [[1, 3, 5], [2, 4, 6]])


def test_handle_reset_and_own_datastore_copy(m) -> None:
    X, first = m.values(XT + "ds = arrayDatastore(x); mbq = minibatchqueue(ds, MiniBatchSize=2);"
                             "q = mbq; next(q); X = next(mbq); c = read(ds); first = c{1};",
                        "X", "first")
    np.testing.assert_array_equal(X.data, [[3], [4]])
    assert first == 1.0  # the queue reads its own copy of the datastore
    X = m.value(XT + "mbq = minibatchqueue(arrayDatastore(x), MiniBatchSize=2);"
                     "while hasdata(mbq), next(mbq); end; reset(mbq); X = next(mbq);", "X")
    np.testing.assert_array_equal(X.data, [[1], [2]])


def test_shuffle_every_epoch_reproducible(m) -> None:
    code = (XT + "mbq = minibatchqueue(arrayDatastore(x), MiniBatchSize=5, OutputAsDlarray=false);"
            "rng(5); o = [];"
            "for epoch = 1:2, shuffle(mbq); while hasdata(mbq), o = [o; next(mbq)']; end, end")
    a = m.value(code, "o")
    b = m.value(code, "o")
    np.testing.assert_array_equal(a, b)
    assert a.shape == (2, 5)
    assert sorted(a[0].tolist()) == [1, 2, 3, 4, 5]
    assert a[0].tolist() != a[1].tolist()


def test_partition(m) -> None:
    X = m.value(XT + "mbq = minibatchqueue(arrayDatastore(x), MiniBatchSize=5);"
                     "p = partition(mbq, 2, 2); X = next(p);", "X")
    np.testing.assert_array_equal(X.data, [[3], [4], [5]])


def test_training_loop_with_gradients(m) -> None:
    total = m.value("X = [(1:6)' (7:12)']; mbq = minibatchqueue(arrayDatastore(X), MiniBatchSize=4,"
                    "MiniBatchFormat='BC'); w = dlarray([1 1]); s = 0;"
                    "f = @(w, x) dlgradient(sum(w * x, 'all'), w);"
                    "while hasdata(mbq), x = next(mbq); g = dlfeval(f, w, x); s = s + extractdata(g); end",
                    "s")
    np.testing.assert_allclose(total, [[21, 57]])


def test_properties(m) -> None:
    code = (XT + "ds = combine(arrayDatastore(x), arrayDatastore(t));"
            "mbq = minibatchqueue(ds, MiniBatchSize=4, MiniBatchFormat={'BC', 'BC'});")
    assert m.value(code + "v = mbq.MiniBatchSize;", "v") == 4.0
    assert m.value(code + "v = mbq.NumOutputs;", "v") == 2.0
    assert m.run(code + "disp(mbq.PartialMiniBatch)") == "return\n"
    assert m.run(code + "disp(mbq.MiniBatchFcn)") == "collate\n"
    v = m.value(code + "v = mbq.OutputCast;", "v")
    assert type(v) is Cell and v.shape == (1, 2)
    v = m.value(code + "v = mbq.OutputAsDlarray;", "v")
    np.testing.assert_array_equal(v, [[True, True]])
    assert m.run(code + "disp(class(mbq))") == "minibatchqueue\n"
    assert m.value(code + "v = mbq.hasdata();", "v") is True


def test_display_one_output(m) -> None:
    assert m.run(XT + "mbq = minibatchqueue(arrayDatastore(x))") == (
        "\nmbq = \n\n"
        "  minibatchqueue with 1 output and properties:\n\n"
        "   Mini-batch creation:\n"
        "               MiniBatchSize: 128\n"
        "            PartialMiniBatch: 'return'\n"
        "                MiniBatchFcn: 'collate'\n"
        "    PreprocessingEnvironment: 'serial'\n\n"
        "   Outputs:\n"
        "                  OutputCast: {'single'}\n"
        "             OutputAsDlarray: 1\n"
        "             MiniBatchFormat: {''}\n"
        "           OutputEnvironment: {'auto'}\n\n")


def test_display_two_outputs(m) -> None:
    out = m.run(XT + "ds = combine(arrayDatastore(x), arrayDatastore(t));"
                     "mbq = minibatchqueue(ds, 2, MiniBatchSize=2, MiniBatchFcn=@(a,b) deal(a,b),"
                     "MiniBatchFormat={'BC', 'BC'}, OutputEnvironment='cpu', DispatchInBackground=true)")
    assert "  minibatchqueue with 2 outputs and properties:\n" in out
    assert "                MiniBatchFcn: @(a,b)deal(a,b)\n" in out
    assert "    PreprocessingEnvironment: 'background'\n" in out
    assert "                  OutputCast: {'single'  'single'}\n" in out
    assert "             OutputAsDlarray: [1 1]\n" in out
    assert "             MiniBatchFormat: {'BC'  'BC'}\n" in out
    assert "           OutputEnvironment: {'cpu'  'cpu'}\n" in out


def test_end_of_data_message(m) -> None:
    err = m.fails("mbq = minibatchqueue(arrayDatastore(1)); next(mbq); next(mbq);")
    assert err.identifier == "nnet_cnn:minibatchqueue:EndOfData"
    assert str(err.exc.message).startswith("Unable to provide a mini-batch because end of data reached.")


@pytest.mark.parametrize(("code", "identifier"), [
    ("minibatchqueue(3)", "nnet_cnn:minibatchqueue:InvalidDatastore"),
    ("minibatchqueue(arrayDatastore(1), MiniBatchSize=0)", "MATLAB:InputParser:ArgumentFailedValidation"),
    ("minibatchqueue(arrayDatastore(1), PartialMiniBatch='keep')",
     "MATLAB:InputParser:ArgumentFailedValidation"),
    ("minibatchqueue(arrayDatastore(1), MiniBatchFormat='BX')", "MATLAB:InputParser:ArgumentFailedValidation"),
    ("minibatchqueue(arrayDatastore(1), OutputCast='cell')", "MATLAB:InputParser:ArgumentFailedValidation"),
    ("minibatchqueue(arrayDatastore(1), OutputEnvironment='tpu')",
     "MATLAB:InputParser:ArgumentFailedValidation"),
    ("minibatchqueue(arrayDatastore(1), MiniBatchFormat={'BC','BC'})",
     "MATLAB:InputParser:ArgumentFailedValidation"),
    ("minibatchqueue(arrayDatastore(1), MiniBatchFormat='BC', OutputAsDlarray=false)",
     "nnet_cnn:minibatchqueue:FormatWithoutDlarray"),
    ("minibatchqueue(arrayDatastore(1), 0)", "nnet_cnn:minibatchqueue:InvalidNumOutputs"),
    ("minibatchqueue(arrayDatastore(1), Bogus=1)", "MATLAB:InputParser:UnmatchedParameter"),
    ("mbq = minibatchqueue(arrayDatastore(1), 2); next(mbq)", "nnet_cnn:minibatchqueue:NumOutputsMismatch"),
    ("mbq = minibatchqueue(arrayDatastore(1)); [a, b] = next(mbq);", "MATLAB:TooManyOutputs"),
    ("mbq = minibatchqueue(arrayDatastore(1)); mbq.MiniBatchSize = 2;", "MATLAB:class:SetProhibited"),
    ("next(arrayDatastore(1))", "MATLAB:UndefinedFunction"),
    ("mbq = minibatchqueue(arrayDatastore(1), PartialMiniBatch='discard', MiniBatchSize=2); next(mbq)",
     "nnet_cnn:minibatchqueue:EndOfData"),
])
def test_errors(m, code: str, identifier: str) -> None:
    assert m.fails(code).identifier == identifier


@pytest.mark.parametrize(("make", "dim"), [
    ("[(1:7)' (11:17)']", 1), ("[(1:7); (11:17)]", 2), ("reshape(1:28, 2, 2, 7)", 3),
    ("1:7", 2), ("(1:7)'", 1), ("reshape(1:14, 1, 2, 7)", 3),
])
def test_cut_batches_equal_collated_observations(m, make: str, dim: int) -> None:
    """Batches cut straight from an arrayDatastore's data match those collated one observation
    at a time (a transformed datastore is read observation by observation)."""
    fast, slow = m.values(
        f"A = {make}; q1 = minibatchqueue(arrayDatastore(A, IterationDimension={dim}), MiniBatchSize=3,"
        "OutputAsDlarray=false);"
        f"q2 = minibatchqueue(transform(arrayDatastore(A, IterationDimension={dim}), @(c) c),"
        "MiniBatchSize=3, OutputAsDlarray=false);"
        "fast = {}; slow = {}; while hasdata(q1), fast{end+1} = next(q1); slow{end+1} = next(q2); end;"
        "assert(~hasdata(q2))", "fast", "slow")
    assert fast.shape == slow.shape == (1, 3)
    for a, b in zip(fast.data.reshape(-1), slow.data.reshape(-1), strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
        assert np.shape(a) == np.shape(b)


def test_large_pinn_epochs_are_fast(m) -> None:
    import time

    start = time.perf_counter()
    n = m.value("x = rand(20000, 2); mbq = minibatchqueue(arrayDatastore(x), MiniBatchSize=1000,"
                "MiniBatchFormat='BC'); n = 0; for e = 1:5, shuffle(mbq);"
                "while hasdata(mbq), X = next(mbq); n = n + 1; end, end", "n")
    assert n == 100.0
    assert time.perf_counter() - start < 2.0


def test_table_reads_give_one_output_a_variable(m) -> None:
    a, b = m.values("T = table((1:3)', [4 5 6; 7 8 9; 1 2 3]);"
                    "ds = arrayDatastore(T, OutputType='same', ReadSize=2);"
                    "q = minibatchqueue(ds, MiniBatchSize=3, MiniBatchFormat={'BC', 'BC'}); [a, b] = next(q);",
                    "a", "b")
    np.testing.assert_array_equal(a.data, [[1, 2, 3]])
    np.testing.assert_array_equal(b.data, [[4, 7, 1], [5, 8, 2], [6, 9, 3]])
