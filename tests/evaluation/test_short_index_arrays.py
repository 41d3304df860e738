"""Short floating index arrays (up to 16 elements) are checked as Python floats, and
``x(:, J)`` / ``x(I, :)`` pick without np.ix_: the values, shapes and errors are those of
the general checks (which a longer index takes)."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.values.indexing import index
from mlang.values.subscripts import COLON, _index_array

RNG = np.random.default_rng(5)
DATA = [RNG.standard_normal((4, 7)), np.asfortranarray(RNG.standard_normal((5, 3))),
        RNG.standard_normal((3, 4, 2)), RNG.standard_normal((1, 9)) > 0,
        (RNG.standard_normal((6, 2)) * 9).astype(np.int16)]


def _index(n: int, length: int, shape: tuple[int, int]) -> np.ndarray:
    return RNG.integers(1, n + 1, length).astype(np.float64).reshape(shape)


@pytest.mark.parametrize("data", DATA, ids=lambda a: f"{a.dtype}-{a.shape}")
def test_subscripts_with_short_and_long_indices_pick_numpys_elements(data):
    rows, cols = data.shape[0], int(np.prod(data.shape[1:]))
    folded = data.reshape(rows, cols, order="F")
    for length in (1, 2, 5, 16, 17, 40):
        for shape in ((1, length), (length, 1)):
            j, i = _index(cols, length, shape), _index(rows, length, shape)
            cols_picked = index(data, [COLON, j])
            rows_picked = index(data, [i, COLON])
            both = index(data, [i, j])
            want_cols = folded[:, j.ravel().astype(int) - 1]
            want_rows = folded[i.ravel().astype(int) - 1, :]
            want_both = folded[np.ix_(i.ravel().astype(int) - 1, j.ravel().astype(int) - 1)]
            for got, want in ((cols_picked, want_cols), (rows_picked, want_rows), (both, want_both)):
                got = np.asarray(got)
                assert got.dtype == want.dtype
                np.testing.assert_array_equal(got.reshape(want.shape), want)


POSITIVE = "Array indices must be positive integers or logical values."
BEYOND = "Index in position 1 exceeds array bounds. Index must not exceed 4."


@pytest.mark.parametrize("bad, message", [
    ([[0.0]], POSITIVE), ([[1.5]], POSITIVE), ([[np.nan]], POSITIVE), ([[-1.0]], POSITIVE),
    ([[np.inf]], POSITIVE), ([[2.0, 8.0]], BEYOND), ([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]], BEYOND),
])
def test_bad_short_indices_give_the_general_errors(bad, message):
    x = np.arange(28.0).reshape(4, 7)
    short = np.array(bad, dtype=np.float64)
    long = np.concatenate([short.ravel(), np.ones(20)]).reshape(1, -1)  # past the short checks
    for idx in (short, long):
        with pytest.raises(MatlabError) as caught:
            index(x, [idx, COLON])
        assert caught.value.identifier == "MATLAB:badsubscript"
        assert str(caught.value) == message


def test_short_index_positions_and_assignment_growth():
    np.testing.assert_array_equal(_index_array(np.array([[3.0, 1.0], [2.0, 5.0]]), 10, 1, 1), [2, 1, 0, 4])
    np.testing.assert_array_equal(_index_array(np.array([[12.0]]), None, None, 1), [11])  # may grow
    with pytest.raises(MatlabError):
        _index_array(np.array([[12.0]]), 10, 1, 1)
    assert _index_array(np.array([[2.0]], dtype=np.float32), 3, 1, 1).tolist() == [1]
