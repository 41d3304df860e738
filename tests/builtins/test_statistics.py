"""cov, corrcoef, histc and histcounts (mlang/builtins/math/statistics.py): values from
MATLAB's documented examples and GNU Octave."""

import numpy as np


def near(v, expected, tol=1e-10):
    return np.allclose(np.asarray(v), np.asarray(expected), rtol=tol, atol=tol, equal_nan=True)


def test_cov_forms(m):
    assert near(m.value("x = cov([1 2 3 4]);"), 5 / 3)
    assert near(m.value("x = cov([1 2 3 4]');"), 5 / 3)
    assert near(m.value("x = cov([1 2; 3 4; 5 7]);"), [[4, 5], [5, 19 / 3]])
    assert near(m.value("x = cov([1 2; 3 4; 5 7], 1);"), [[8 / 3, 10 / 3], [10 / 3, 38 / 9]])
    assert near(m.value("x = cov([1 2 3], [1 2 4]);"), [[1, 1.5], [1.5, 7 / 3]])
    assert near(m.value("x = cov([1 2 3], [1 2 4], [1 1 2]);"), [[0.6875, 1.0625], [1.0625, 1.6875]])
    assert m.value("x = cov(5);") == 0.0
    assert np.isnan(m.value("x = cov([]);"))
    assert m.value("x = cov(single([1 2 4]));").dtype == np.float32


def test_cov_nan_flags(m):
    assert np.isnan(m.value("x = cov([1 NaN; 3 4; 5 7]);")).any()
    assert near(m.value("x = cov([1 NaN; 3 4; 5 7], 'omitrows');"), [[2, 3], [3, 4.5]])
    c = m.value("x = cov([1 NaN; 3 4; 5 7; 2 2], 'partialrows');")
    assert near(c, [[35 / 12, 23 / 6], [23 / 6, 19 / 3]])


def test_cov_complex_and_errors(m):
    assert near(m.value("x = cov([1+1i 2 3-1i]);"), 2)
    assert m.fails("cov(ones(2, 2, 2))").identifier == "MATLAB:cov:InputDim"
    assert m.fails("cov([1 2 3], [1 2])").identifier == "MATLAB:cov:XYlengthMismatch"
    assert m.fails("cov([1 2 3], 'bad')").identifier == "MATLAB:cov:unknownFlag"
    assert m.fails("cov([1 2 3], [1 2 3], [1 2])").identifier == "MATLAB:cov:invalidWgts"


def test_corrcoef(m):
    r, p = m.values("[r, p] = corrcoef([1 2 3 4 5], [2 4 5 4 5]);", "r", "p")
    assert near(r, [[1, 0.774596669241483], [0.774596669241483, 1]])
    assert near(p, [[1, 0.124027062657555], [0.124027062657555, 1]])
    r2 = m.value("x = corrcoef([1 2; 2 4; 3 5; 4 4; 5 5]);")
    assert near(r2, r)
    rl, ru = m.values("[r, p, rl, ru] = corrcoef([1 2; 2 4; 3 5; 4 4; 5 5]);", "rl", "ru")
    z, half = np.arctanh(0.774596669241483), 1.95996398454005 / np.sqrt(2)
    assert near(rl[0, 1], np.tanh(z - half)) and near(ru[0, 1], np.tanh(z + half))
    assert near(m.value("x = corrcoef([1 NaN; 2 4; 3 5; 4 4; 5 5], 'Rows', 'pairwise');"),
                [[1, 0.447213595499958], [0.447213595499958, 1]])
    assert near(m.value("x = corrcoef([1 NaN; 2 4; 3 5; 4 4; 5 5], 'Rows', 'complete');"),
                [[1, 0.447213595499958], [0.447213595499958, 1]])
    assert m.value("x = corrcoef([1 2 3]);") == 1.0
    assert m.fails("corrcoef([1 2], 'Rows', 'some')").identifier == "MATLAB:corrcoef:invalidRowChoice"
    assert m.fails("corrcoef([1 2], 'Colour', 1)").identifier == \
        "MATLAB:InputParser:UnmatchedParameter"


def test_histc(m):
    n, b = m.values("[n, b] = histc([1 2 2 3 5], [1 2 3 4 5]);", "n", "b")
    assert n.tolist() == [[1, 2, 1, 0, 1]] and b.tolist() == [[1, 2, 2, 3, 5]]
    assert m.value("x = histc([1; 2; 2; 7], [1 2 3]);").tolist() == [[1], [2], [0]]
    assert m.value("x = histc([1 2; 2 3; 5 1], [1 2 3]);").tolist() == [[1, 1], [1, 1], [0, 1]]
    n, b = m.values("[n, b] = histc([1 2; 2 3; 5 1], [1 2 3], 2);", "n", "b")
    assert n.tolist() == [[1, 1, 0], [0, 1, 1], [1, 0, 0]]
    assert b.tolist() == [[1, 2], [2, 3], [0, 1]]
    assert m.value("x = histc([1 2 2], [1 2 2]);").tolist() == [[1, 0, 2]]
    assert m.value("x = histc([-Inf NaN 0.5], [-Inf 0 Inf]);").tolist() == [[1, 1, 0]]
    assert m.fails("histc(1, [3 2 1])").identifier == "MATLAB:histc:InvalidEdges"


def test_histcounts_documented_examples(m):
    n, e = m.values("[n, e] = histcounts([2 3 5 7 11 13 17 19 23 29], 6);", "n", "e")
    assert n.tolist() == [[2, 2, 2, 2, 1, 1]]
    assert near(e, [[0, 4.9, 9.8, 14.7, 19.6, 24.5, 29.4]])
    n, e = m.values("[n, e] = histcounts(primes(100), 'Normalization', 'probability');", "n", "e")
    assert near(n, [[0.4, 0.28, 0.28, 0.04]]) and e.tolist() == [[0, 30, 60, 90, 120]]


def test_histcounts_automatic_bins(m):
    n, e, b = m.values("[n, e, b] = histcounts([1 2 2 3]);", "n", "e", "b")
    assert n.tolist() == [[1, 2, 1]] and e.tolist() == [[0.5, 1.5, 2.5, 3.5]]
    assert b.tolist() == [[1, 2, 2, 3]]
    n, e = m.values("[n, e] = histcounts(0.1:0.1:10);", "n", "e")
    assert e.tolist() == [[0, 2, 4, 6, 8, 10]] and n.sum() == 100
    n, e = m.values("[n, e] = histcounts([5 5 5]);", "n", "e")
    assert n == 3.0 and e.tolist() == [[4.5, 5.5]]
    b = m.value("[n, e, x] = histcounts([1 NaN 3; 2 2 8]);")
    assert b.shape == (2, 3) and b[0, 1] == 0


def test_histcounts_options(m):
    n, e = m.values("[n, e] = histcounts([1 2 2 3 10 12], 'BinWidth', 5);", "n", "e")
    assert n.tolist() == [[4, 0, 2]] and e.tolist() == [[0, 5, 10, 15]]
    n, e = m.values("[n, e] = histcounts([1 2 3 4 5], [0 2 4 6], 'Normalization', 'pdf');",
                    "n", "e")
    assert near(n, [[0.1, 0.2, 0.2]])
    x = "[1 2 3 4 5 9]"
    assert m.value(f"x = histcounts({x}, [0 5 10]);").tolist() == [[4, 2]]
    assert m.value(f"x = histcounts({x}, [0 5 10], 'Normalization', 'cumcount');").tolist() == [[4, 6]]
    assert near(m.value(f"x = histcounts({x}, [0 5 10], 'Normalization', 'cdf');"), [[4 / 6, 1]])
    assert near(m.value(f"x = histcounts({x}, [0 5 10], 'Normalization', 'countdensity');"),
                [[0.8, 0.4]])
    assert m.value(f"x = histcounts({x}, 'BinLimits', [0 4], 'NumBins', 2);").tolist() == [[1, 3]]
    assert m.value(f"x = histcounts({x}, 'BinEdges', [0 5 10]);").tolist() == [[4, 2]]
    assert m.value(f"x = histcounts({x}, 'NumBins', 3);").sum() == 6
    assert m.fails("histcounts([1 2], 'Normalization', 'area')").identifier == \
        "MATLAB:histcounts:InvalidNormalization"
    assert m.fails("histcounts([1 2], 0)").identifier == "MATLAB:histcounts:InvalidInput"
    assert m.fails("histcounts({1})").identifier == "MATLAB:histcounts:NonNumericX"


def test_median_of_complex_values_orders_by_magnitude_then_angle(m):
    m.run("a = median([1+1i, 3, -2i]); b = median([1+1i, 3, -2i, 4]); "
          "c = median([1+1i; NaN; 2]); d = median([1+1i; NaN; 2], 'omitnan');")
    v = m.interp.base.vars
    assert v["a"] == complex(0, -2) and v["b"] == complex(1.5, -1)
    assert np.isnan(v["c"].real if isinstance(v["c"], complex) else v["c"])
    assert v["d"] == complex(1.5, 0.5)
