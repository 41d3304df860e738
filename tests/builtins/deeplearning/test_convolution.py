"""dlconv and dltranspconv: values against direct loops and scipy.signal.correlate, output
formats and sizes, options, errors; gradients of every form in single precision."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlang.autodiff.dlarray import DlArray
from tests.autodiff import cases_convolution
from tests.autodiff.gradcheck import Case, Checker, as_dlarray, assert_close, draw_point

RNG = np.random.default_rng(7)


def rand(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape)


def reference_conv(x: np.ndarray, w: np.ndarray, k: int, stride=None, dilation=None,
                   pads=None, groups: int = 1, pad_mode="constant", pad_value=0.0) -> np.ndarray:
    """Direct loops: x (S..., C, N), w (K..., Cg, Fg[, G]) -> (O..., F, N)."""
    stride = stride or (1,) * k
    dilation = dilation or (1,) * k
    pads = pads or ((0, 0),) * k
    width = tuple(pads) + ((0, 0),) * 2
    if pad_mode == "constant":
        x = np.pad(x, width, constant_values=pad_value)
    else:
        x = np.pad(x, width, mode=pad_mode)
    w = w.reshape(w.shape + (1,) * (k + 3 - w.ndim))
    size, cg, fg = w.shape[:k], w.shape[k], w.shape[k + 1]
    out_size = [(x.shape[i] - (size[i] - 1) * dilation[i] - 1) // stride[i] + 1 for i in range(k)]
    n = x.shape[k + 1]
    y = np.zeros(tuple(out_size) + (fg * groups, n))
    for o in itertools.product(*[range(m) for m in out_size]):
        for g in range(groups):
            for f in range(fg):
                total = np.zeros(n)
                for t in itertools.product(*[range(m) for m in size]):
                    where = tuple(o[i] * stride[i] + t[i] * dilation[i] for i in range(k))
                    for c in range(cg):
                        total += x[where + (g * cg + c,)] * w[t + (c, f, g)]
                y[o + (g * fg + f,)] = total
    return y


def reference_transposed(x: np.ndarray, w: np.ndarray, k: int, stride, dilation=None,
                         groups: int = 1) -> np.ndarray:
    """Direct loops of a transposed convolution: each input element spreads its filter."""
    dilation = dilation or (1,) * k
    w = w.reshape(w.shape + (1,) * (k + 3 - w.ndim))
    size, fg, cg = w.shape[:k], w.shape[k], w.shape[k + 1]
    in_size = x.shape[:k]
    n = x.shape[k + 1]
    out_size = [(in_size[i] - 1) * stride[i] + (size[i] - 1) * dilation[i] + 1 for i in range(k)]
    y = np.zeros(tuple(out_size) + (fg * groups, n))
    for p in itertools.product(*[range(m) for m in in_size]):
        for t in itertools.product(*[range(m) for m in size]):
            where = tuple(p[i] * stride[i] + t[i] * dilation[i] for i in range(k))
            for g in range(groups):
                for c in range(cg):
                    for f in range(fg):
                        y[where + (g * fg + f,)] += x[p + (g * cg + c,)] * w[t + (f, c, g)]
    return y


def data(v) -> np.ndarray:
    return v.data if type(v) is DlArray else np.asarray(v)


# ------------------------------------------------------------------ dlconv values


def test_2d_matches_scipy_correlate(m) -> None:
    from scipy.signal import correlate

    x, w, b = rand(5, 6, 3, 2), rand(3, 2, 3, 4), rand(1, 4)
    y = m.value("y = dlconv(dlarray(x, 'SSCB'), w, b);", "y", x=x, w=w, b=b)
    assert type(y) is DlArray and y.fmt == "SSCB" and y.data.shape == (3, 5, 4, 2)
    for n in range(2):
        for f in range(4):
            want = sum(correlate(x[:, :, c, n], w[:, :, c, f], mode="valid") for c in range(3)) + b[0, f]
            np.testing.assert_allclose(y.data[:, :, f, n], want, atol=1e-12)


def test_stride_dilation_padding_match_loops(m) -> None:
    x, w = rand(7, 6, 2, 3), rand(3, 2, 2, 2)
    y = m.value("y = dlconv(dlarray(x, 'SSCB'), w, 0, 'Stride', [2 1], 'DilationFactor', [1 2], "
                "'Padding', [1 0; 2 1]);", "y", x=x, w=w)
    want = reference_conv(x, w, 2, (2, 1), (1, 2), ((1, 2), (0, 1)))
    np.testing.assert_allclose(y.data, want, atol=1e-12)


@pytest.mark.parametrize("stride, size, dilation", [(1, 3, 1), (2, 3, 1), (3, 2, 2), (2, 4, 1)])
def test_same_padding_gives_ceil_of_size_over_stride(m, stride, size, dilation) -> None:
    x, w = rand(7, 8, 1), rand(size, size)
    y = m.value(f"y = dlconv(dlarray(x, 'SSC'), w, 0, 'Padding', 'same', 'Stride', {stride}, "
                f"'DilationFactor', {dilation});", "y", x=x, w=w)
    assert y.data.shape[:2] == (math.ceil(7 / stride), math.ceil(8 / stride))
    span = (size - 1) * dilation + 1
    pads = []
    for n in (7, 8):
        total = max((math.ceil(n / stride) - 1) * stride + span - n, 0)
        pads.append((total // 2, total - total // 2))  # the odd element at the end
    want = reference_conv(x[..., np.newaxis], w[..., np.newaxis, np.newaxis], 2, (stride,) * 2,
                          (dilation,) * 2, tuple(pads))
    np.testing.assert_allclose(y.data, want[:, :, 0, 0], atol=1e-12)


@pytest.mark.parametrize("value, mode", [("0.5", "constant"), ("'replicate'", "edge"),
                                         ("'symmetric-include-edge'", "symmetric"),
                                         ("'symmetric-exclude-edge'", "reflect")])
def test_padding_values(m, value, mode) -> None:
    x, w = rand(4, 5, 2), rand(3, 3, 2)
    y = m.value(f"y = dlconv(x, w, 0, 'DataFormat', 'SSC', 'Padding', 2, 'PaddingValue', {value});",
                "y", x=x, w=w)
    want = reference_conv(x[..., np.newaxis], w[..., np.newaxis], 2, pads=((2, 2), (2, 2)),
                          pad_mode=mode, pad_value=0.5)
    np.testing.assert_allclose(data(y), want[:, :, 0, 0], atol=1e-12)


def test_padding_forms_scalar_vector_matrix(m) -> None:
    x, w = rand(4, 5), rand(2, 2)
    a, b, c = m.values("a = dlconv(x, w, 0, 'DataFormat', 'SSC', 'Padding', 1);"
                       "b = dlconv(x, w, 0, 'DataFormat', 'SSC', 'Padding', [1 1]);"
                       "c = dlconv(x, w, 0, 'DataFormat', 'SSC', 'Padding', [1 1; 1 1]);",
                       "a", "b", "c", x=x, w=w)
    np.testing.assert_array_equal(data(a), data(b))
    np.testing.assert_array_equal(data(a), data(c))
    assert data(a).shape == (5, 6)
    # pairs [t b l r] equal the matrix [t l; b r]; in 1-D, [l r]
    d, e = m.values("d = dlconv(x, w, 0, 'DataFormat', 'SSC', 'Padding', [1 2 0 3]);"
                    "e = dlconv(x, w, 0, 'DataFormat', 'SSC', 'Padding', [1 0; 2 3]);", "d", "e", x=x, w=w)
    np.testing.assert_array_equal(data(d), data(e))
    f = m.value("f = dlconv(x, w, 0, 'DataFormat', 'SC', 'Padding', [2 1]);", "f", x=x, w=rand(2, 5, 1))
    assert data(f).shape == (6, 1)


def test_grouped_and_channel_wise(m) -> None:
    x, w, b = rand(4, 4, 6, 2), rand(2, 3, 2, 3, 3), rand(9, 1)
    y = m.value("y = dlconv(dlarray(x, 'SSCB'), w, b, 'Padding', 1);", "y", x=x, w=w, b=b)
    want = reference_conv(x, w, 2, pads=((1, 1), (1, 1)), groups=3) + b.reshape(1, 1, 9, 1)
    np.testing.assert_allclose(y.data, want, atol=1e-12)
    # channel-wise: one group per channel, two filters each
    wc = rand(3, 3, 1, 2, 6)
    y = m.value("y = dlconv(dlarray(x, 'SSCB'), w, 0);", "y", x=x, w=wc)
    np.testing.assert_allclose(y.data, reference_conv(x, wc, 2, groups=6), atol=1e-12)


def test_1d_3d_and_time(m) -> None:
    x, w = rand(9, 2, 3), rand(3, 2, 4)
    y = m.value("y = dlconv(dlarray(x, 'SCB'), w, 0, 'Stride', 2, 'DilationFactor', 2);", "y", x=x, w=w)
    assert y.fmt == "SCB"
    np.testing.assert_allclose(y.data, reference_conv(x, w, 1, (2,), (2,)), atol=1e-12)
    # causal: the padding all before
    y = m.value("y = dlconv(dlarray(x, 'SCB'), w, 0, 'Padding', 'causal');", "y", x=x, w=w)
    np.testing.assert_allclose(y.data, reference_conv(x, w, 1, pads=((2, 0),)), atol=1e-12)
    # over 'T': data C x B x T, weights with a 'T' dimension
    xt = rand(2, 3, 9)  # C, B, T
    y = m.value("y = dlconv(dlarray(x, 'CBT'), w, 0, 'WeightsFormat', 'TCU');", "y", x=xt, w=w)
    assert y.fmt == "CBT" and y.data.shape == (4, 3, 7)
    want = reference_conv(xt.transpose(2, 0, 1), w, 1)  # (T, C, B) -> (T', F, B)
    np.testing.assert_allclose(y.data, want.transpose(1, 2, 0), atol=1e-12)
    # formatted weights with a 'T' label, stored in canonical order (C, T, U)
    y2 = m.value("y = dlconv(dlarray(x, 'CBT'), dlarray(w, 'TCU'), 0);", "y", x=xt, w=w)
    np.testing.assert_allclose(data(y2), y.data, atol=1e-12)
    x3, w3 = rand(4, 3, 5, 2), rand(2, 2, 3, 2, 3)
    y = m.value("y = dlconv(dlarray(x, 'SSSC'), w, 1);", "y", x=x3, w=w3)
    want = reference_conv(x3[..., np.newaxis], w3, 3)[..., 0] + 1
    np.testing.assert_allclose(y.data, want, atol=1e-12)


def test_dataformat_keeps_the_input_order(m) -> None:
    x, w = rand(2, 3, 5, 6), rand(3, 3, 3, 4)  # B, C, S, S
    y = m.value("y = dlconv(x, w, 0, 'DataFormat', 'BCSS');", "y", x=x, w=w)
    assert type(y) is DlArray and y.fmt == "" and y.data.shape == (2, 4, 3, 4)
    want = reference_conv(x.transpose(2, 3, 1, 0), w, 2).transpose(3, 2, 0, 1)
    np.testing.assert_allclose(y.data, want, atol=1e-12)


def test_single_in_single_out(m) -> None:
    x, w = rand(4, 4, 2).astype(np.float32), rand(2, 2, 2, 3)
    y = m.value("y = dlconv(dlarray(x, 'SSC'), w, 0);", "y", x=x, w=w)
    assert y.data.dtype == np.float32
    y = m.value("y = dlconv(dlarray(x, 'SSC'), single(w), [1 2 3]);", "y", x=x.astype(np.float64), w=w)
    assert y.data.dtype == np.float32


# ------------------------------------------------------------------ dltranspconv values


def test_transposed_matches_loops(m) -> None:
    x, w, b = rand(3, 4, 2, 2), rand(3, 2, 5, 2), rand(1, 5)
    y = m.value("y = dltranspconv(dlarray(x, 'SSCB'), w, b, 'Stride', [2 3], 'DilationFactor', [1 2]);",
                "y", x=x, w=w, b=b)
    want = reference_transposed(x, w, 2, (2, 3), (1, 2)) + b.reshape(1, 1, 5, 1)
    assert y.fmt == "SSCB"
    np.testing.assert_allclose(y.data, want, atol=1e-12)


def test_transposed_grouped_and_cropping(m) -> None:
    x, w = rand(3, 3, 4), rand(2, 2, 3, 2, 2)
    y = m.value("y = dltranspconv(dlarray(x, 'SSC'), w, 0, 'Stride', 2, 'Cropping', [1 0; 0 2]);",
                "y", x=x, w=w)
    full = reference_transposed(x[..., np.newaxis], w, 2, (2, 2), groups=2)[..., 0]
    np.testing.assert_allclose(y.data, full[1:, :-2], atol=1e-12)
    y = m.value("y = dltranspconv(dlarray(x, 'SSC'), w, 0, 'Stride', 2, 'Cropping', 'same');", "y",
                x=x, w=w)
    assert y.data.shape == (6, 6, 6)


def test_transposed_is_the_adjoint_of_dlconv(m) -> None:
    # <dlconv(x, w), g> == <x, dltranspconv(g, w)> for stride and dilation without padding
    x, w = rand(7, 7, 3), rand(3, 2, 3, 4)
    y, t = m.values("y = dlconv(dlarray(x, 'SSC'), w, 0, 'Stride', 2, 'DilationFactor', [1 2]);"
                    "t = dltranspconv(dlarray(g, 'SSC'), w, 0, 'Stride', 2, 'DilationFactor', [1 2]);",
                    "y", "t", x=x, w=w, g=rand(3, 3, 4))
    g = m.interp.base.vars["g"]
    assert t.data.shape == x.shape
    np.testing.assert_allclose(np.sum(y.data * g), np.sum(x * t.data), rtol=1e-12)


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("code, identifier", [
    ("dlconv(dlarray(ones(4,4,3), 'SSC'), ones(2,2,2,1), 0)", "deep:dlconv:InvalidWeightsSize"),
    ("dlconv(ones(4,4,3), ones(2,2,3,1), 0)", "deep:dlarray:UnformattedInput"),
    ("dlconv(dlarray(ones(4,4,3), 'SSC'), ones(2,2,3,1), 0, 'DataFormat', 'SSC')",
     "deep:dlarray:DataFormatFormattedInput"),
    ("dlconv(dlarray(ones(4,4,3), 'SSC'), ones(2,2,3,1), 0, 'Stride', 0)", "deep:dlconv:InvalidStride"),
    ("dlconv(dlarray(ones(4,4,3), 'SSC'), ones(2,2,3,1), 0, 'Padding', -1)", "deep:dlconv:InvalidPadding"),
    ("dlconv(dlarray(ones(4,4,3), 'SSC'), ones(2,2,3,1), 0, 'Padding', 'full')", "deep:dlconv:InvalidPadding"),
    ("dlconv(dlarray(ones(2,2,3), 'SSC'), ones(3,3,3,1), 0)", "deep:dlconv:FilterTooLarge"),
    ("dlconv(dlarray(ones(4,4,3), 'SSC'), ones(2,2,3,2), [1 2 3])", "deep:dlconv:InvalidBias"),
    ("dlconv(dlarray(ones(4,4,3), 'SSC'), ones(2,2,3), 0, 'PaddingValue', 'wrap')",
     "deep:dlconv:InvalidPaddingValue"),
    ("dlconv(dlarray(ones(4,3), 'CB'), ones(2,4,1), 0)", "deep:dlconv:NoSpatialDimension"),
    ("dlconv(dlarray(ones(4,4), 'SS'), ones(2,2), 0)", "deep:dlarray:MissingDimension"),
    ("dlconv(dlarray(ones(4,4,3), 'SSC'), ones(2,2,3), 0, 'Bogus', 1)", "MATLAB:InputParser:UnmatchedParameter"),
    ("dlconv(dlarray(ones(4,4,3) + 1i, 'SSC'), ones(2,2,3), 0)", "deep:dlconv:ComplexInput"),
    ("dlconv(dlarray(ones(4,4,3), 'SSC'), ones(2,2,3) * 1i, 0)", "deep:dlconv:ComplexInput"),
    ("dltranspconv(dlarray(ones(4,4,3), 'SSC'), ones(2,2,1,3), 1i)", "deep:dltranspconv:ComplexInput"),
    ("dltranspconv(dlarray(ones(4,4,3), 'SSC'), ones(2,2,1,2), 0)", "deep:dltranspconv:InvalidWeightsSize"),
    ("dltranspconv(dlarray(ones(2,2,1), 'SSC'), ones(2,2), 0, 'Cropping', 3)",
     "deep:dltranspconv:InvalidCropping"),
])
def test_errors(m, code, identifier) -> None:
    assert m.fails(code).identifier == identifier


# ------------------------------------------------------------------ single precision gradients

SINGLE = [c for c in cases_convolution.EXTRAS if c.name in ("dlconv", "dltranspconv")]


@pytest.fixture(scope="module")
def checker(tmp_path_factory) -> Checker:
    return Checker(tmp_path_factory.mktemp("gradcheck_convolution"))


@pytest.mark.parametrize("case", SINGLE, ids=[c.id for c in SINGLE])
@settings(max_examples=1, deadline=None, derandomize=True, database=None)
@given(drawn=st.data())
def test_single_precision_gradients(checker: Checker, case: Case, drawn) -> None:
    """Every form: single inputs give single gradients that agree with double's."""
    check_single(checker, case, drawn)


def check_single(checker: Checker, case: Case, drawn) -> None:
    xs = drawn.draw(draw_point(case), label="point")
    _, loss, _ = checker.functions(case, xs, 3, False)
    _, want = checker.gradients(loss, xs)
    singles = [np.asarray(x, dtype=np.float32) for x in xs]
    outs = checker.feval(checker.helpers["gc_vg"], loss, *[as_dlarray(x) for x in singles],
                         nargout=1 + len(xs))
    assert outs[0].data.dtype == np.float32
    for k, g in enumerate(outs[1:]):
        assert g.data.dtype == np.float32
        assert_close(g.data, want[k], 1e-3, 1e-3, f"{case.id} single d/dx{k + 1}")
