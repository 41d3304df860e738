"""Moving-window statistics and smoothdata (mlang/builtins/math/moving.py): values from
MATLAB's documented examples and GNU Octave's movfun."""

import numpy as np

A = "[4 8 6 -1 -2 -3 -1 3 4 5]"


def near(v, expected, tol=1e-10):
    return np.allclose(np.asarray(v, dtype=np.float64), np.asarray(expected, dtype=np.float64),
                       rtol=tol, atol=tol, equal_nan=True)


def test_documented_examples(m):
    assert near(m.value(f"x = movmean({A}, 3);"),
                [[6, 6, 13 / 3, 1, -2, -2, -1 / 3, 2, 4, 4.5]])
    assert near(m.value(f"x = movmean({A}, [2 0]);"),
                [[4, 6, 6, 13 / 3, 1, -2, -2, -1 / 3, 2, 4]])
    assert m.value(f"x = movsum({A}, 3, 'Endpoints', 'discard');").tolist() == \
        [[18, 13, 3, -6, -6, -1, 6, 12]]
    assert m.value(f"x = movmax({A}, 4);").tolist() == [[8, 8, 8, 8, 6, -1, 3, 4, 5, 5]]
    assert near(m.value(f"x = movmedian({A}, 3);"), [[6, 6, 6, -1, -2, -2, -1, 3, 4, 4.5]])


def test_endpoints_and_windows(m):
    assert near(m.value(f"x = movmin({A}, [0 2], 'Endpoints', 'fill');"),
                [[4, -1, -2, -3, -3, -3, -1, 3, np.nan, np.nan]])
    assert m.value("x = movsum([1 2 3], 3, 'Endpoints', 0);").tolist() == [[0, 6, 0]]
    assert m.value("x = movprod([1 2 3 4], 2);").tolist() == [[1, 2, 6, 12]]
    assert m.value("x = movsum([1 2 3 4], 1);").tolist() == [[1, 2, 3, 4]]
    assert m.value("x = movsum([1 2 3 4], 10);").tolist() == [[10, 10, 10, 10]]
    assert m.value("x = movsum([1 2 3 4], [0 5]);").tolist() == [[10, 9, 7, 4]]
    assert np.isnan(m.value("x = movsum([1 2 3 4], [0 5], 'Endpoints', 'fill');")).all()
    assert m.value("x = movsum([1 2 3 4], [0 5], 'Endpoints', 'discard');").shape == (1, 0)
    assert m.value("x = movsum([1 2; 3 4; 5 6], 2);").tolist() == [[1, 2], [4, 6], [8, 10]]
    assert m.value("x = movsum([1 2; 3 4; 5 6], 2, 2);").tolist() == [[1, 3], [3, 7], [5, 11]]
    assert m.value("x = movsum(zeros(0, 3), 2);").shape == (0, 3)
    assert m.value("x = movsum(ones(2, 2, 3), 3, 3);")[:, :, 1].tolist() == [[3, 3], [3, 3]]


def test_variance_and_std(m):
    assert near(m.value(f"x = movvar({A}, 3);"),
                [[8, 4, 67 / 3, 19, 1, 1, 28 / 3, 7, 1, 0.5]])
    assert near(m.value(f"x = movvar({A}, 3, 1);"),
                [[4, 8 / 3, 134 / 9, 38 / 3, 2 / 3, 2 / 3, 56 / 9, 14 / 3, 2 / 3, 0.25]])
    assert near(m.value(f"x = movstd({A}, 3);"),
                np.sqrt([[8, 4, 67 / 3, 19, 1, 1, 28 / 3, 7, 1, 0.5]]))
    assert m.value("x = movvar([3 3 3], 1);").tolist() == [[0, 0, 0]]
    assert m.fails("movvar([1 2 3], 3, 2)").identifier == "MATLAB:movvar:invalidWeight"


def test_nan_flags(m):
    assert near(m.value("x = movmean([1 NaN 3 4], 3);"), [[np.nan, np.nan, np.nan, 3.5]])
    assert near(m.value("x = movmean([1 NaN 3 4], 3, 'omitnan');"), [[1, 2, 3.5, 3.5]])
    assert near(m.value("x = movmax([1 NaN 3 4], 3, 'omitnan');"), [[1, 3, 4, 4]])
    assert near(m.value("x = movmedian([NaN NaN 3], 2, 'omitnan');"), [[np.nan, np.nan, 3]])


def test_classes_and_errors(m):
    s = m.value("x = movmean(single([1 2 3]), 2);")
    assert s.dtype == np.float32 and near(s, [[1, 1.5, 2.5]])
    i = m.value("x = movmax(int8([1 5 3]), 2);")
    assert i.dtype == np.int8 and i.tolist() == [[1, 5, 5]]
    assert m.fails("movmean([1 2 3], 0)").identifier == "MATLAB:movmean:invalidWindowLength"
    assert m.fails("movmean([1 2 3], [1 2 3])").identifier == "MATLAB:movmean:invalidWindowLength"
    assert m.fails("movmean([1 2 3], 2, 'Endpoints', 'wrap')").identifier == \
        "MATLAB:movmean:invalidEndpoints"
    assert m.fails("movmean({1}, 2)").identifier == "MATLAB:UndefinedFunction"
    assert m.fails("movmean([1 2], 2, 'Colour', 1)").identifier == \
        "MATLAB:InputParser:UnmatchedParameter"


def test_smoothdata(m):
    assert near(m.value("x = smoothdata([1 2 3 4 5], 'movmean', 3);"), [[1.5, 2, 3, 4, 4.5]])
    assert near(m.value("x = smoothdata([1 9 3 4 5], 'movmedian', 3);"), [[5, 3, 4, 4, 4.5]])
    assert near(m.value("x = smoothdata([1 NaN 3], 'movmean', 3);"), [[1, 2, 3]])
    assert near(m.value("x = smoothdata([1 NaN 3], 'movmean', 3, 'includenan');"),
                [[np.nan, np.nan, np.nan]])
    assert near(m.value("x = smoothdata([1 2; 3 4; 5 6], 2, 'movmean', 2);"),
                [[1, 1.5], [3, 3.5], [5, 5.5]])
    b, w = m.values("[b, w] = smoothdata(sin(1:100) + (1:100)/10);", "b", "w")
    assert b.shape == (1, 100) and w >= 1
    assert m.value("x = smoothdata([2 2 2]);").tolist() == [[2, 2, 2]]
    assert m.fails("smoothdata([1 2 3], 'sgolay')").identifier == \
        "MATLAB:smoothdata:methodUnsupported"
