"""[V,M] = var(...) and [S,M] = std(...): the mean as a second output."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.errors import MatlabError
from tests.running import run


def outputs(code: str, *names: str) -> list:
    interp, _ = run(code)
    return [interp.base.vars[n] for n in names]


def test_var_mean_of_columns():
    # MATLAB's documented example
    v, mu = outputs("A = [4 -7 3; 1 4 -2; 10 7 9]; [V,M] = var(A);", "V", "M")
    assert np.allclose(v, [[21, 54 + 1 / 3, 30 + 1 / 3]])
    assert np.allclose(mu, [[5, 4 / 3, 10 / 3]])


def test_weighted_variance_gives_weighted_mean():
    v, mu, s, mu2 = outputs("A = [5 -4 6; 2 3 9; -1 1 2]; w = [0.5 0.25 0.25];"
                            "[V,M] = var(A,w); [S,M2] = std(A,w);", "V", "M", "S", "M2")
    assert np.allclose(v, [[6.1875, 9.5, 6.1875]])
    assert np.allclose(mu, [[2.75, -1, 5.75]])
    assert np.allclose(s, np.sqrt([[6.1875, 9.5, 6.1875]]))
    assert np.allclose(mu2, mu)


def test_dimensions_all_and_vecdim():
    v, mu = outputs("A = [4 -2 1; 9 5 7]; [V,M] = var(A,0,2);", "V", "M")
    assert v.tolist() == [[9], [4]] and mu.tolist() == [[1], [7]]
    v, mu = outputs("[V,M] = var([1 2; 3 4], 1, 'all');", "V", "M")
    assert v == 1.25 and mu == 2.5
    v, mu = outputs("[V,M] = var(cat(3, [1 2; 3 4], [5 6; 7 8]), 0, [1 3]);", "V", "M")
    assert np.allclose(v, [[20 / 3, 20 / 3]]) and mu.tolist() == [[4, 5]]
    s, mu = outputs("[S,M] = std(reshape(1:8, 2, 2, 2), 0, 3);", "S", "M")
    assert np.allclose(s, np.full((2, 2), np.sqrt(8))) and mu.tolist() == [[3, 5], [4, 6]]


def test_nanflag():
    s, mu = outputs("[S,M] = std([1 NaN 3 8], 0, 2, 'omitnan');", "S", "M")
    assert s == pytest.approx(np.sqrt(13)) and mu == 4
    v, mu = outputs("[V,M] = var([1 NaN 3]);", "V", "M")
    assert np.isnan(v) and np.isnan(mu)
    # the weight of an omitted element is dropped too
    v, mu = outputs("[V,M] = var([1 NaN 3], [1 1 2], 'omitnan');", "V", "M")
    assert v == pytest.approx(8 / 9) and mu == pytest.approx(7 / 3)


def test_classes_complex_and_empty():
    s, mu = outputs("[S,M] = std(single([1 2 3 4]));", "S", "M")
    assert s.dtype == np.float32 and mu.dtype == np.float32
    assert float(mu.reshape(-1)[0]) == 2.5
    v, mu = outputs("[V,M] = var([1+2i 3-1i]);", "V", "M")
    assert v == pytest.approx(6.5) and mu == 2 + 0.5j
    v, mu = outputs("[V,M] = var([]);", "V", "M")
    assert np.isnan(v) and np.isnan(mu)
    v, mu = outputs("[V,M] = var(zeros(0, 3));", "V", "M")
    assert v.shape == (1, 3) and np.isnan(mu).all() and mu.shape == (1, 3)
    v, mu = outputs("[V,M] = var(7);", "V", "M")
    assert v == 0 and mu == 7
    v, mu = outputs("[V,M] = var([true false true true]);", "V", "M")
    assert v == 0.25 and mu == 0.75


def test_single_output_unchanged_and_errors():
    interp, _ = run("v = var([1 2 3 4]); s = std([2 4 4 4 5 5 7 9], 1);")
    assert interp.base.vars["v"] == pytest.approx(5 / 3)
    assert interp.base.vars["s"] == 2
    with pytest.raises(MatlabError) as info:
        run("[V,M,X] = var([1 2 3]);")
    assert info.value.identifier == "MATLAB:TooManyOutputs"
    with pytest.raises(MatlabError) as info:
        run("[V,M] = var([1 2 3], [1 -1 1]);")
    assert info.value.identifier == "MATLAB:var:invalidWgts"
