"""maxpool, maxunpool, avgpool and dlresize: values against direct loops, indices, output
formats, options, display and errors; gradients of every form in single precision."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlang.autodiff.dlarray import DlArray
from tests.autodiff import cases_convolution
from tests.autodiff.gradcheck import Case, Checker
from tests.builtins.deeplearning.test_convolution import check_single

RNG = np.random.default_rng(11)


def rand(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape)


def reference_pool(x: np.ndarray, k: int, size, stride, pads, reduce, pad_value=0.0) -> np.ndarray:
    """Direct loops over x (S..., C, N) with a reduction of each (padded) window."""
    x = np.pad(x, tuple(pads) + ((0, 0),) * (x.ndim - k), constant_values=pad_value)
    out = [(x.shape[i] - size[i]) // stride[i] + 1 for i in range(k)]
    y = np.zeros(tuple(out) + x.shape[k:])
    for o in itertools.product(*[range(n) for n in out]):
        window = x[tuple(slice(o[i] * stride[i], o[i] * stride[i] + size[i]) for i in range(k))]
        y[o] = reduce(window.reshape((-1,) + x.shape[k:]))
    return y


def data(v) -> np.ndarray:
    return v.data if type(v) is DlArray else np.asarray(v)


# ------------------------------------------------------------------ maxpool


def test_maxpool_matches_loops_and_keeps_the_format(m) -> None:
    x = rand(5, 6, 2, 3)
    y = m.value("y = maxpool(dlarray(x, 'SSCB'), [2 3], 'Stride', [1 2]);", "y", x=x)
    assert y.fmt == "SSCB"
    want = reference_pool(x, 2, (2, 3), (1, 2), ((0, 0), (0, 0)), lambda w: w.max(axis=0))
    np.testing.assert_array_equal(y.data, want)


def test_maxpool_same_padding_ignores_the_padding(m) -> None:
    x = -np.abs(rand(5, 5, 1)) - 1  # all negative: zero padding would win
    y = m.value("y = maxpool(dlarray(x, 'SSC'), 2, 'Stride', 2, 'Padding', 'same');", "y", x=x)
    want = reference_pool(x[..., np.newaxis], 2, (2, 2), (2, 2), ((0, 1), (0, 1)),
                          lambda w: w.max(axis=0), pad_value=-np.inf)[..., 0, 0]
    assert y.data.shape == (3, 3)
    np.testing.assert_array_equal(y.data, want)


def test_maxpool_indices_and_maxunpool(m) -> None:
    out = m.run("X = dlarray(magic(4), 'SS');\n[Y, indx, sz] = maxpool(X, 2, 'Stride', 2)\n"
                "Z = maxunpool(Y, indx, sz)")
    # (MATLAB prints "name = " with a trailing blank before a dlarray)
    assert out == "\n".join([
        "", "Y = ", "", "  2(S) × 2(S) dlarray", "", "    16    13", "    14    15", "", "",
        "indx = ", "", "  2(S) × 2(S) dlarray", "", "     1    13", "     8    12", "", "",
        "sz =", "", "     4     4", "", "",
        "Z = ", "", "  4(S) × 4(S) dlarray", "", "    16     0     0    13", "     0     0     0     0",
        "     0     0     0     0", "     0    14    15     0", "", ""])


def test_indices_refer_to_the_input_as_given(m) -> None:
    # DataFormat with the batch first: the indices still index X as the caller holds it
    x = rand(3, 2, 4, 4)  # B, C, S, S
    y, indx, sz = m.values("[y, indx, sz] = maxpool(x, 2, 'DataFormat', 'BCSS', 'Stride', 2);",
                           "y", "indx", "sz", x=x)
    assert y.fmt == "" and y.data.shape == (3, 2, 2, 2)
    np.testing.assert_array_equal(x.reshape(-1, order="F")[indx.data.astype(int) - 1], y.data)
    np.testing.assert_array_equal(data(sz), [[3, 2, 4, 4]])
    z = m.value("z = maxunpool(y, indx, sz, 'DataFormat', 'BCSS');", "z", y=y, indx=indx, sz=sz)
    assert z.data.shape == x.shape
    assert np.count_nonzero(z.data) == y.data.size


def test_maxpool_global_1d_and_3d(m) -> None:
    x = rand(4, 3, 2, 2)
    y = m.value("y = maxpool(dlarray(x, 'SSCB'), 'global');", "y", x=x)
    np.testing.assert_array_equal(y.data, x.max(axis=(0, 1)).reshape(1, 1, 2, 2))
    x1 = rand(7, 2, 3)
    y = m.value("y = maxpool(dlarray(x, 'SCB'), 3, 'Stride', 2);", "y", x=x1)
    np.testing.assert_array_equal(y.data, reference_pool(x1, 1, (3,), (2,), ((0, 0),), lambda w: w.max(axis=0)))
    x3 = rand(4, 4, 4, 2)
    y = m.value("y = maxpool(dlarray(x, 'SSSC'), 2, 'Stride', 2);", "y", x=x3)
    want = reference_pool(x3[..., np.newaxis], 3, (2, 2, 2), (2, 2, 2), ((0, 0),) * 3,
                          lambda w: w.max(axis=0))[..., 0]
    np.testing.assert_array_equal(y.data, want)


def test_maxpool_over_time_with_poolformat(m) -> None:
    x = rand(2, 3, 6)  # C, B, T
    y = m.value("y = maxpool(dlarray(x, 'CBT'), 2, 'PoolFormat', 'T', 'Stride', 2);", "y", x=x)
    assert y.fmt == "CBT" and y.data.shape == (2, 3, 3)
    np.testing.assert_array_equal(y.data, np.maximum(x[:, :, 0::2], x[:, :, 1::2]))


# ------------------------------------------------------------------ avgpool


def test_avgpool_matches_loops(m) -> None:
    x = rand(5, 6, 2, 2)
    y = m.value("y = avgpool(dlarray(x, 'SSCB'), [3 2], 'Stride', 2, 'Padding', [1 0; 1 1]);", "y", x=x)
    want = reference_pool(x, 2, (3, 2), (2, 2), ((1, 1), (0, 1)), lambda w: w.mean(axis=0))
    np.testing.assert_allclose(y.data, want, atol=1e-12)


def test_avgpool_mean_padding_averages_the_input_only(m) -> None:
    x = rand(4, 5, 1)
    y = m.value("y = avgpool(dlarray(x, 'SSC'), 3, 'Padding', 'same', 'PaddingValue', 'mean');", "y", x=x)
    padded = np.pad(x[..., 0], 1, constant_values=np.nan)
    want = np.array([[np.nanmean(padded[i:i + 3, j:j + 3]) for j in range(5)] for i in range(4)])
    np.testing.assert_allclose(y.data, want, atol=1e-12)
    z = m.value("z = avgpool(dlarray(x, 'SSC'), 3, 'Padding', 'same');", "z", x=x)
    np.testing.assert_allclose(z.data, np.array([[padded[i:i + 3, j:j + 3][~np.isnan(
        padded[i:i + 3, j:j + 3])].sum() / 9 for j in range(5)] for i in range(4)]), atol=1e-12)


def test_avgpool_global_and_dataformat(m) -> None:
    x = rand(3, 4, 5, 2)  # S, S, C, B
    y = m.value("y = avgpool(dlarray(x, 'SSCB'), 'global');", "y", x=x)
    np.testing.assert_allclose(y.data, x.mean(axis=(0, 1)).reshape(1, 1, 5, 2), atol=1e-12)
    xt = x.transpose(3, 2, 0, 1)  # B, C, S, S
    y = m.value("y = avgpool(x, 'global', 'DataFormat', 'BCSS');", "y", x=xt)
    assert y.fmt == "" and y.data.shape == (2, 5)
    np.testing.assert_allclose(y.data, x.mean(axis=(0, 1)).T, atol=1e-12)


def test_single_stays_single(m) -> None:
    x = rand(4, 4, 2).astype(np.float32)
    y, z = m.values("y = avgpool(dlarray(x, 'SSC'), 2); z = maxpool(dlarray(x, 'SSC'), 2);", "y", "z", x=x)
    assert y.data.dtype == np.float32 and z.data.dtype == np.float32


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("code, identifier", [
    ("maxpool(ones(4,4), 2)", "deep:dlarray:UnformattedInput"),
    ("maxpool(dlarray(ones(4,4), 'SS'), 5)", "deep:maxpool:PoolTooLarge"),
    ("maxpool(dlarray(ones(4,4), 'SS'), 2, 'Padding', 2)", "deep:maxpool:PaddingTooLarge"),
    ("maxpool(dlarray(ones(4,4), 'SS'), 0)", "deep:maxpool:InvalidPoolSize"),
    ("maxpool(dlarray(ones(4,4), 'SS'), 'local')", "deep:maxpool:InvalidPoolSize"),
    ("maxpool(dlarray(ones(4,4), 'SS'), [2 2 2])", "deep:maxpool:InvalidPoolSize"),
    ("maxpool(dlarray(ones(4,4), 'CB'), 2)", "deep:maxpool:NoSpatialDimension"),
    ("avgpool(dlarray(ones(4,4), 'SS'), 2, 'PaddingValue', 1)", "deep:avgpool:InvalidPaddingValue"),
    ("avgpool(dlarray(ones(4,4), 'SS'), 2, 'Stride', 1.5)", "deep:avgpool:InvalidStride"),
    ("maxunpool(dlarray(ones(2,2), 'SS'), [1 2 3], [4 4])", "deep:maxunpool:InvalidIndices"),
    ("maxunpool(dlarray(ones(2,2), 'SS'), [1 2; 3 17], [4 4])", "deep:maxunpool:InvalidIndices"),
    ("maxunpool(ones(2,2), [1 2; 3 4], [4 4])", "deep:dlarray:UnformattedInput"),
    ("maxpool(dlarray(ones(4,4) * 1i, 'SS'), 2)", "deep:maxpool:ComplexInput"),
    ("avgpool(dlarray(ones(4,4) * 1i, 'SS'), 2)", "deep:avgpool:ComplexInput"),
])
def test_errors(m, code, identifier) -> None:
    assert m.fails(code).identifier == identifier


# ------------------------------------------------------------------ single precision gradients

SINGLE = [c for c in cases_convolution.EXTRAS if c.name in ("maxpool", "maxunpool", "avgpool", "dlresize")]


@pytest.fixture(scope="module")
def checker(tmp_path_factory) -> Checker:
    return Checker(tmp_path_factory.mktemp("gradcheck_pooling"))


@pytest.mark.parametrize("case", SINGLE, ids=[c.id for c in SINGLE])
@settings(max_examples=1, deadline=None, derandomize=True, database=None)
@given(drawn=st.data())
def test_single_precision_gradients(checker: Checker, case: Case, drawn) -> None:
    check_single(checker, case, drawn)


# ------------------------------------------------------------------ dlresize


def test_dlresize_nearest_and_linear(m) -> None:
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    y = m.value("y = dlresize(dlarray(x, 'SS'), 'Scale', 2);", "y", x=x)
    assert y.fmt == "SS"
    np.testing.assert_array_equal(y.data, np.kron(x, np.ones((2, 2))))
    y = m.value("y = dlresize(dlarray(x, 'SS'), 'Scale', 2, 'Method', 'linear');", "y", x=x)
    row = np.array([1.0, 1.25, 1.75, 2.0])
    np.testing.assert_allclose(y.data, np.array([row, row + 0.5, row + 1.5, row + 2.0]), atol=1e-12)


def test_dlresize_modes(m) -> None:
    x = np.arange(1.0, 6.0).reshape(5, 1)
    # asymmetric: source x_out / scale; floor rounding
    y = m.value("y = dlresize(x, 'OutputSize', 3, 'DataFormat', 'SC', 'GeometricTransformMode', "
                "'asymmetric', 'NearestRoundingMode', 'floor');", "y", x=x)
    np.testing.assert_array_equal(y.data.reshape(-1), x[np.floor(np.arange(3) / 0.6).astype(int), 0])
    # half-pixel and round: source (x_out + 0.5) / scale - 0.5, halves away from zero
    y = m.value("y = dlresize(x, 'Scale', 0.5, 'DataFormat', 'SC');", "y", x=x)
    np.testing.assert_array_equal(y.data.reshape(-1), [2.0, 4.0])
    # NaN in OutputSize keeps the aspect ratio
    y = m.value("y = dlresize(dlarray(ones(4, 6), 'SS'), 'OutputSize', [2 NaN]);", "y")
    assert y.data.shape == (2, 3)


def test_dlresize_errors(m) -> None:
    assert m.fails("dlresize(dlarray(ones(2), 'SS'))").identifier == "deep:dlresize:ScaleOrOutputSize"
    assert m.fails("dlresize(dlarray(ones(2), 'SS'), 'Scale', -1)").identifier == "deep:dlresize:InvalidScale"
    assert m.fails("dlresize(dlarray(ones(2), 'SS'), 'Scale', 2, 'Method', 'cubic')").identifier \
        == "deep:dlresize:InvalidMethod"
    assert m.fails("dlresize(dlarray(ones(2), 'CB'), 'Scale', 2)").identifier \
        == "deep:dlresize:NoSpatialDimension"


def test_maxunpool_output_sizes_that_are_no_sizes(m):
    assert m.fails("y = maxunpool(dlarray(zeros(0,3),'CB'), magic(3), Inf)").identifier.startswith("deep:")
    assert m.fails("y = maxunpool(dlarray(zeros(0,3),'CB'), magic(3), [1e300 2])").identifier.startswith("MATLAB:")
