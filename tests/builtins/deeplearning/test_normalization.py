"""batchnorm, layernorm, groupnorm, instancenorm, crosschannelnorm, dropout and embed:
values against hand-written NumPy formulas, formats, options and errors.  (Gradients of
every order are checked in tests/autodiff/cases_normalization.py.)"""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray

RNG = np.random.default_rng(7)
X_SCB = RNG.standard_normal((2, 3, 4)) * 3 + 1  # 2(S) x 3(C) x 4(B)
OFFSET = np.array([[0.5], [-1.0], [2.0]])
SCALE = np.array([[1.5], [0.5], [2.0]])


def _data(v) -> np.ndarray:
    return v.data if type(v) is DlArray else np.asarray(v)


def _standardize(x: np.ndarray, axes: tuple[int, ...], eps: float = 1e-5) -> np.ndarray:
    mu = x.mean(axis=axes, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=axes, keepdims=True)
    return (x - mu) / np.sqrt(var + eps)


def _affine(xhat: np.ndarray, c: int, offset: np.ndarray, scale: np.ndarray) -> np.ndarray:
    shape = [1] * xhat.ndim
    shape[c] = -1
    return xhat * scale.reshape(shape) + offset.reshape(shape)


# ------------------------------------------------------------------ batchnorm


def test_batchnorm_training_values_and_population_statistics(m) -> None:
    y, mu, var = m.values("[Y, mu, v] = batchnorm(dlarray(X, 'SCB'), o, s);", "Y", "mu", "v",
                          X=X_SCB, o=OFFSET, s=SCALE)
    want = _affine(_standardize(X_SCB, (0, 2)), 1, OFFSET, SCALE)
    assert type(y) is DlArray and y.fmt == "SCB"
    np.testing.assert_allclose(y.data, want, rtol=1e-12)
    np.testing.assert_allclose(mu, X_SCB.mean(axis=(0, 2)).reshape(3, 1), rtol=1e-12)
    np.testing.assert_allclose(var, X_SCB.var(axis=(0, 2)).reshape(3, 1), rtol=1e-12)


def test_batchnorm_hand_computed(m) -> None:
    # one channel, values 1..4: mean 2.5, variance 1.25; eps 0 is refused, so a tiny one
    y = m.value("Y = batchnorm(dlarray([1 2 3 4], 'CB'), 1, 2, 'Epsilon', 1e-12);", "Y")
    np.testing.assert_allclose(y.data, 1 + 2 * (np.array([[1, 2, 3, 4]]) - 2.5) / np.sqrt(1.25),
                               rtol=1e-9)


def test_batchnorm_running_statistics_update(m) -> None:
    code = """[Y, mu, v] = batchnorm(dlarray(X, 'SCB'), o, s, rm, rv, 'MeanDecay', 0.3, ...
        'VarianceDecay', 0.2);"""
    running_mu = np.array([[1.0], [2.0], [3.0]])
    running_var = np.array([[0.5], [1.0], [4.0]])
    y, mu, var = m.values(code, "Y", "mu", "v", X=X_SCB, o=OFFSET, s=SCALE, rm=running_mu,
                          rv=running_var)
    # normalised with the statistics of the data ...
    np.testing.assert_allclose(y.data, _affine(_standardize(X_SCB, (0, 2)), 1, OFFSET, SCALE),
                               rtol=1e-12)
    # ... and the running statistics move towards them (the variance unbiased: 8 values)
    batch_mu = X_SCB.mean(axis=(0, 2)).reshape(3, 1)
    batch_var = X_SCB.var(axis=(0, 2), ddof=1).reshape(3, 1)
    np.testing.assert_allclose(mu, 0.3 * batch_mu + 0.7 * running_mu, rtol=1e-12)
    np.testing.assert_allclose(var, 0.2 * batch_var + 0.8 * running_var, rtol=1e-12)


def test_batchnorm_default_decay(m) -> None:
    mu, var = m.values("[~, mu, v] = batchnorm(dlarray([1 3], 'CB'), 0, 1, 0, 1);", "mu", "v")
    assert mu == pytest.approx(0.1 * 2)
    assert var == pytest.approx(0.1 * 2 + 0.9)  # unbiased variance of [1 3] is 2


def test_batchnorm_inference_uses_given_statistics(m) -> None:
    mu = np.array([[0.5], [1.0], [-1.0]])
    var = np.array([[2.0], [0.5], [1.5]])
    y = m.value("Y = batchnorm(dlarray(X, 'SCB'), o, s, mu, v);", "Y", X=X_SCB, o=OFFSET, s=SCALE,
                mu=mu, v=var)
    want = (X_SCB - mu.reshape(1, 3, 1)) / np.sqrt(var.reshape(1, 3, 1) + 1e-5)
    np.testing.assert_allclose(y.data, _affine(want, 1, OFFSET, SCALE), rtol=1e-12)


def test_batchnorm_data_format_keeps_the_input_order(m) -> None:
    x = RNG.standard_normal((5, 3))  # 5 observations of 3 channels, given as 'BC'
    y = m.value("Y = batchnorm(X, o, s, 'DataFormat', 'BC');", "Y", X=x, o=OFFSET, s=SCALE)
    assert type(y) is DlArray and y.fmt == "" and y.data.shape == (5, 3)
    np.testing.assert_allclose(y.data, _affine(_standardize(x, (0,)), 1, OFFSET, SCALE), rtol=1e-12)


def test_batchnorm_single_stays_single(m) -> None:
    y, mu = m.values("[Y, mu] = batchnorm(dlarray(single(X), 'SCB'), o, s);", "Y", "mu",
                     X=X_SCB, o=OFFSET, s=SCALE)
    assert y.data.dtype == np.float32 and mu.dtype == np.float32
    np.testing.assert_allclose(y.data, _affine(_standardize(X_SCB, (0, 2)), 1, OFFSET, SCALE),
                               rtol=1e-4, atol=1e-5)


def test_batchnorm_gradient_with_respect_to_offset_and_scale(m) -> None:
    code = """[gx, go, gs] = dlfeval(@f, dlarray(X, 'SCB'), dlarray(o), dlarray(s));
    function [gx, go, gs] = f(x, o, s)
        y = batchnorm(x, o, s);
        [gx, go, gs] = dlgradient(sum(y .* y, 'all'), x, o, s);
    end"""
    m.interp.base.vars.clear()
    m.interp.base.vars.update(X=X_SCB, o=OFFSET, s=SCALE)
    m.interp.run_source(code, "bn_grad")
    go, gs = (_data(m.interp.base.vars[k]) for k in ("go", "gs"))
    xhat = _standardize(X_SCB, (0, 2))
    y = _affine(xhat, 1, OFFSET, SCALE)
    np.testing.assert_allclose(go.reshape(-1), (2 * y).sum(axis=(0, 2)), rtol=1e-10)
    np.testing.assert_allclose(gs.reshape(-1), (2 * y * xhat).sum(axis=(0, 2)), rtol=1e-10)


# ------------------------------------------------------------------ layernorm


X_CBT = RNG.standard_normal((3, 2, 4))  # 3(C) x 2(B) x 4(T)


@pytest.mark.parametrize(("mode", "axes"), [("auto", (0,)), ("channel-only", (0,)),
                                            ("spatial-channel", (0,)), ("batch-excluded", (0, 2))])
def test_layernorm_sequence_operation_dimensions(m, mode, axes) -> None:
    y = m.value(f"Y = layernorm(dlarray(X, 'CBT'), o, s, 'OperationDimension', '{mode}');", "Y",
                X=X_CBT, o=OFFSET, s=SCALE)
    assert y.fmt == "CBT"
    np.testing.assert_allclose(y.data, _affine(_standardize(X_CBT, axes), 0, OFFSET, SCALE), rtol=1e-12)


@pytest.mark.parametrize(("mode", "axes"), [("auto", (0, 1)), ("channel-only", (1,)),
                                            ("spatial-channel", (0, 1)), ("batch-excluded", (0, 1))])
def test_layernorm_image_operation_dimensions(m, mode, axes) -> None:
    y = m.value(f"Y = layernorm(X, o, s, 'OperationDimension', \"{mode}\", 'DataFormat', 'SCB');",
                "Y", X=X_SCB, o=OFFSET, s=SCALE)
    np.testing.assert_allclose(y.data, _affine(_standardize(X_SCB, axes), 1, OFFSET, SCALE), rtol=1e-12)


def test_layernorm_epsilon(m) -> None:
    y = m.value("Y = layernorm(dlarray([1; 3], 'CB'), 0, 1, 'Epsilon', 1);", "Y")
    np.testing.assert_allclose(y.data.reshape(-1), [-1 / np.sqrt(2), 1 / np.sqrt(2)], rtol=1e-12)


# ------------------------------------------------------ groupnorm, instancenorm


X_GROUPS = RNG.standard_normal((2, 4, 3))  # 2(S) x 4(C) x 3(B)
OFFSET4 = np.array([[0.0], [1.0], [-1.0], [0.5]])
SCALE4 = np.array([[1.0], [2.0], [0.5], [1.5]])


def test_groupnorm_groups_of_consecutive_channels(m) -> None:
    y = m.value("Y = groupnorm(dlarray(X, 'SCB'), 2, o, s);", "Y", X=X_GROUPS, o=OFFSET4, s=SCALE4)
    grouped = X_GROUPS.reshape(2, 2, 2, 3, order="F")  # S, channel in group, group, B
    xhat = _standardize(grouped, (0, 1)).reshape(2, 4, 3, order="F")
    assert y.fmt == "SCB"
    np.testing.assert_allclose(y.data, _affine(xhat, 1, OFFSET4, SCALE4), rtol=1e-12)


def test_groupnorm_all_channels_and_channel_wise(m) -> None:
    every, each, inst = m.values(
        """A = groupnorm(dlarray(X, 'SCB'), 'all-channels', o, s);
        B = groupnorm(dlarray(X, 'SCB'), "channel-wise", o, s);
        I = instancenorm(dlarray(X, 'SCB'), o, s);""", "A", "B", "I", X=X_GROUPS, o=OFFSET4, s=SCALE4)
    np.testing.assert_allclose(every.data, _affine(_standardize(X_GROUPS, (0, 1)), 1, OFFSET4, SCALE4),
                               rtol=1e-12)
    np.testing.assert_allclose(each.data, _affine(_standardize(X_GROUPS, (0,)), 1, OFFSET4, SCALE4),
                               rtol=1e-12)
    np.testing.assert_allclose(inst.data, each.data, rtol=1e-12)


def test_instancenorm_sequence(m) -> None:
    y = m.value("Y = instancenorm(X, o, s, 'DataFormat', 'CBT');", "Y", X=X_CBT, o=OFFSET, s=SCALE)
    np.testing.assert_allclose(y.data, _affine(_standardize(X_CBT, (2,)), 0, OFFSET, SCALE), rtol=1e-12)


# ------------------------------------------------------------ crosschannelnorm


def _lrn(x: np.ndarray, c: int, n: int, alpha: float, beta: float, k: float) -> np.ndarray:
    out = np.empty_like(x)
    channels = x.shape[c]
    before = (n - 1) // 2
    for j in range(channels):
        lo, hi = max(0, j - before), min(channels, j - before + n)
        window = np.take(x, range(lo, hi), axis=c)
        ss = (window ** 2).sum(axis=c)
        index = [slice(None)] * x.ndim
        index[c] = j
        out[tuple(index)] = x[tuple(index)] / (k + alpha * ss / n) ** beta
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_crosschannelnorm_windows(m, n) -> None:
    x = RNG.standard_normal((2, 5, 3)) * 4
    y = m.value(f"Y = crosschannelnorm(dlarray(X, 'SCB'), {n}, 'Alpha', 0.3, 'Beta', 0.6, 'K', 1.5);",
                "Y", X=x)
    assert y.fmt == "SCB"
    np.testing.assert_allclose(y.data, _lrn(x, 1, n, 0.3, 0.6, 1.5), rtol=1e-12)


def test_crosschannelnorm_defaults(m) -> None:
    x = RNG.standard_normal((4, 3)) * 10
    y = m.value("Y = crosschannelnorm(X, 3, 'DataFormat', 'CB');", "Y", X=x)
    np.testing.assert_allclose(y.data, _lrn(x, 0, 3, 1e-4, 0.75, 2.0), rtol=1e-12)


# ------------------------------------------------------------------ dropout


def test_dropout_matches_the_documented_mask(m) -> None:
    y, want = m.values("""rng(3); Y = dropout(X, 0.3);
        rng(3); W = X .* (rand(size(X)) >= 0.3) / 0.7;""", "Y", "W", X=X_SCB)
    np.testing.assert_allclose(y, want, rtol=1e-15)
    assert 0 < np.count_nonzero(y == 0) < y.size


def test_dropout_default_probability_and_format(m) -> None:
    y, want = m.values("""rng(5); Y = dropout(dlarray(X, 'SCB'));
        rng(5); W = X .* (rand(size(X)) >= 0.5) * 2;""", "Y", "W", X=X_SCB)
    assert type(y) is DlArray and y.fmt == "SCB"
    np.testing.assert_allclose(y.data, want, rtol=1e-15)


def test_dropout_is_reproducible_and_draws_from_the_stream(m) -> None:
    a, b, c = m.values("rng(1); A = dropout(X); B = dropout(X); rng(1); C = dropout(X);", "A", "B", "C",
                       X=X_SCB)
    np.testing.assert_array_equal(a, c)
    assert not np.array_equal(a, b)


def test_dropout_gradient_is_the_scaled_mask(m) -> None:
    code = """rng(11); [y, g] = dlfeval(@f, dlarray(X));
    function [y, g] = f(x)
        y = dropout(x, 0.25);
        g = dlgradient(sum(y, 'all'), x);
    end"""
    m.interp.base.vars.clear()
    m.interp.base.vars.update(X=X_SCB)
    m.interp.run_source(code, "dropout_grad")
    y, g = (_data(m.interp.base.vars[k]) for k in ("y", "g"))
    kept = y != 0
    np.testing.assert_allclose(g, kept / 0.75, rtol=1e-15)


def test_dropout_single_and_zero_probability(m) -> None:
    y, z = m.values("Y = dropout(single(X), 0.2); Z = dropout(X, 0);", "Y", "Z", X=X_SCB)
    assert y.dtype == np.float32
    np.testing.assert_array_equal(z, X_SCB)


# -------------------------------------------------------------------- embed


WEIGHTS = np.arange(1.0, 21.0).reshape(4, 5, order="F")  # embedding dimension 4, 5 words


def test_embed_documented_shape(m) -> None:
    y = m.value("Y = embed(dlarray([2 1 2 1 1]', 'BC'), W);", "Y", W=WEIGHTS)
    assert y.fmt == "CB" and y.data.shape == (4, 5)
    np.testing.assert_array_equal(y.data, WEIGHTS[:, [1, 0, 1, 0, 0]])


def test_embed_sequence_without_channel_dimension(m) -> None:
    idx = np.array([[1.0, 3.0, 5.0], [2.0, 2.0, 4.0]])  # 2(B) x 3(T)
    y = m.value("Y = embed(dlarray(I, 'BT'), W);", "Y", I=idx, W=WEIGHTS)
    assert y.fmt == "CBT" and y.data.shape == (4, 2, 3)
    np.testing.assert_array_equal(y.data, WEIGHTS[:, idx.astype(int) - 1])


def test_embed_spatial_and_weights_format(m) -> None:
    idx = np.array([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 1.0], [2.0, 2.0]]])  # 2(S) x 2(S) x 2(B)
    y = m.value("Y = embed(dlarray(I, 'SSB'), W', 'WeightsFormat', 'UC');", "Y", I=idx, W=WEIGHTS)
    assert y.fmt == "SSCB" and y.data.shape == (2, 2, 4, 2)
    want = np.moveaxis(WEIGHTS[:, idx.astype(int) - 1], 0, 2)
    np.testing.assert_array_equal(y.data, want)


def test_embed_data_format_output_order(m) -> None:
    idx = np.array([[1.0, 3.0, 5.0], [2.0, 2.0, 4.0]])
    y = m.value("Y = embed(I, W, 'DataFormat', 'BT');", "Y", I=idx, W=WEIGHTS)
    assert y.fmt == "" and y.data.shape == (4, 2, 3)


def test_embed_gradient_accumulates_per_word(m) -> None:
    code = """[g] = dlfeval(@f, dlarray(W));
    function g = f(w)
        y = embed(dlarray([2 1 2 4], 'CB'), w);
        g = dlgradient(sum(y, 'all'), w);
    end"""
    m.interp.base.vars.clear()
    m.interp.base.vars.update(W=WEIGHTS)
    m.interp.run_source(code, "embed_grad")
    g = _data(m.interp.base.vars["g"])
    np.testing.assert_array_equal(g, np.tile([1.0, 2.0, 0.0, 1.0, 0.0], (4, 1)))


# ------------------------------------------------------------------- errors


@pytest.mark.parametrize(("code", "identifier"), [
    ("batchnorm([1 2 3], 0, 1)", "deep:dlarray:UnformattedInput"),
    ("batchnorm(dlarray([1 2 3], 'SB'), 0, 1)", "deep:dlarray:MissingDimension"),
    ("batchnorm(dlarray(ones(3, 2), 'CB'), [0 0], ones(3, 1))", "deep:batchnorm:InvalidParameterSize"),
    ("batchnorm(dlarray(ones(3, 2), 'CB'), 0, 1, 'Epsilon', 0)", "deep:batchnorm:InvalidEpsilon"),
    ("batchnorm(dlarray(ones(1, 2), 'CB'), 0, 1, 0, 1, 'MeanDecay', 2)", "deep:batchnorm:InvalidMeanDecay"),
    ("batchnorm(dlarray(ones(1, 2), 'CB'), 0, 1, 0)", "MATLAB:minrhs"),
    ("batchnorm(dlarray(ones(1, 2), 'CB'), 0, 1, 'Foo', 1)", "MATLAB:InputParser:UnmatchedParameter"),
    ("layernorm(dlarray(ones(1, 2), 'CB'), 0, 1, 'OperationDimension', 'all')",
     "deep:layernorm:InvalidOperationDimension"),
    ("groupnorm(dlarray(ones(3, 2), 'CB'), 2, zeros(3, 1), ones(3, 1))", "deep:groupnorm:InvalidNumGroups"),
    ("groupnorm(dlarray(ones(3, 2), 'CB'), 0.5, zeros(3, 1), ones(3, 1))", "deep:groupnorm:InvalidNumGroups"),
    ("instancenorm(dlarray(ones(3, 2), 'CB'), 0, 1, 'DataFormat', 'CB')",
     "deep:dlarray:DataFormatFormattedInput"),
    ("crosschannelnorm(dlarray(ones(3, 2), 'CB'), 0)", "deep:crosschannelnorm:InvalidWindowSize"),
    ("dropout(ones(2), 1)", "deep:dropout:InvalidProbability"),
    ("dropout({1})", "deep:dropout:InvalidInput"),
    ("embed(dlarray([1 6], 'CB'), ones(3, 5))", "deep:embed:InvalidIndices"),
    ("embed(dlarray([1.5 2], 'CB'), ones(3, 5))", "deep:embed:InvalidIndices"),
    ("embed(dlarray([1 2; 1 2], 'CB'), ones(3, 5))", "deep:embed:InvalidInput"),
])
def test_errors(m, code, identifier) -> None:
    assert m.fails(code).identifier == identifier
