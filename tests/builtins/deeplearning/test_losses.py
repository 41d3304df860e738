"""The loss functions against hand-written NumPy formulas: every normalisation factor,
weights ('C', 'B', per element), masks, unreduced losses, formats and data types, the
MathWorks documentation's worked numbers where a page shows them, and the errors."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray

EPS64 = np.finfo(np.float64).eps

Y = np.array([[0.1, 0.7, 0.3, 0.9], [0.5, 0.2, 0.8, 0.4], [0.4, 0.1, 0.9, 0.6]])
T = np.array([[0.3, 0.2, 0.6, 1.0], [0.1, 0.9, 0.4, 0.2], [0.7, 0.3, 0.1, 0.5]])
MASK = np.array([[1, 0, 1, 1], [1, 1, 0, 1], [0, 1, 1, 1]], dtype=bool)
CLASS_W = np.array([1.0, 2.0, 3.0])
OBS_W = np.array([1.0, 0.5, 2.0, 4.0])


def scalar(v) -> float:
    """A loss's value: a 1x1 unformatted dlarray."""
    assert type(v) is DlArray and v.fmt == "" and v.data.shape == (1, 1), v
    return float(v.data[0, 0])


def run_loss(m, call: str, **inputs) -> DlArray:
    return m.value(f"x = {call};", "x", Y=Y, T=T, M=MASK, **inputs)


# ------------------------------------------------------------------ mse


def test_mse_is_half_the_summed_squares_over_observations(m) -> None:
    got = scalar(run_loss(m, "mse(dlarray(Y, 'CB'), T)"))
    assert got == pytest.approx(((Y - T) ** 2).sum() / 2 / 4, rel=1e-14)


@pytest.mark.parametrize("call, expected", [
    ("mse(dlarray(zeros(3, 0), 'CB'), zeros(3, 0))", "nan"),
    ("mse(zeros(3, 0), dlarray(zeros(3, 0)), 'DataFormat', 'CB')", "nan"),
    ("l1loss(dlarray(zeros(3, 0), 'CB'), zeros(3, 0))", "nan"),
    ("huber(dlarray(zeros(3, 0), 'CB'), zeros(3, 0))", "nan"),
    ("crossentropy(dlarray(zeros(3, 0), 'CB'), zeros(3, 0))", "nan"),
    ("l2loss(dlarray(zeros(3, 0), 'CB'), zeros(3, 0), 'NormalizationFactor', 'none')", "0"),
])
def test_losses_of_an_empty_batch_divide_zero_by_no_observations(m, call, expected) -> None:
    got = scalar(run_loss(m, call))
    assert np.isnan(got) if expected == "nan" else got == 0.0


def test_mse_data_format_and_permuted_labels(m) -> None:
    assert scalar(run_loss(m, "mse(Y, T, 'DataFormat', 'CB')")) == pytest.approx(
        ((Y - T) ** 2).sum() / 8, rel=1e-14)
    # 'BC': three observations of four responses
    assert scalar(run_loss(m, "mse(Y, T, 'DataFormat', 'BC')")) == pytest.approx(
        ((Y - T) ** 2).sum() / 6, rel=1e-14)
    # without a 'B' dimension: one observation
    assert scalar(run_loss(m, "mse(dlarray(Y, 'SS'), T)")) == pytest.approx(
        ((Y - T) ** 2).sum() / 2, rel=1e-14)


def test_mse_documentation_example_shape(m) -> None:
    """The MathWorks example: 6x6 spatial, one channel, one observation, against ones."""
    rng = np.random.default_rng(3)
    x = rng.random((6, 6))
    got = scalar(m.value("x = mse(dlarray(X, 'SSCB'), ones(6, 6, 1, 1));", X=x))
    assert got == pytest.approx(((x - 1) ** 2).sum() / 2, rel=1e-14)


def test_mse_targets_formatted_dlarray_in_other_order(m) -> None:
    got = scalar(run_loss(m, "mse(dlarray(Y, 'CB'), dlarray(T', 'BC'))"))
    assert got == pytest.approx(((Y - T) ** 2).sum() / 8, rel=1e-14)


def test_mse_numeric_predictions_with_dlarray_targets(m) -> None:
    got = scalar(run_loss(m, "mse(Y, dlarray(T), 'DataFormat', 'CB')"))
    assert got == pytest.approx(((Y - T) ** 2).sum() / 8, rel=1e-14)


def test_mse_single_stays_single(m) -> None:
    v = run_loss(m, "mse(dlarray(single(Y), 'CB'), T)")
    assert v.data.dtype == np.float32
    assert m.run("disp(underlyingType(mse(dlarray(single(Y), 'CB'), T)))", Y=Y, T=T).strip() == "single"


# ------------------------------------------------------------------ l2loss / l1loss


@pytest.mark.parametrize("kind, f", [("l2loss", lambda d: d * d), ("l1loss", np.abs)])
def test_normalization_factors(m, kind, f) -> None:
    e = f(Y - T)
    cases = {
        "": e.sum() / 4,
        ", 'NormalizationFactor', 'batch-size'": e.sum() / 4,
        ", 'NormalizationFactor', 'Batch'": e.sum() / 4,  # a leading part is enough
        ", 'NormalizationFactor', 'all-elements'": e.sum() / 12,
        ", 'NormalizationFactor', 'none'": e.sum(),
        ", 'Mask', M": (e * MASK).sum() / 4,
        ", 'Mask', M, 'NormalizationFactor', 'mask-included'": ((e * MASK).sum(axis=0)
                                                                 / MASK.sum(axis=0)).sum(),
        ", 'Mask', M, 'NormalizationFactor', 'all-elements'": (e * MASK).sum() / 12,
    }
    for options, want in cases.items():
        got = scalar(run_loss(m, f"{kind}(dlarray(Y, 'CB'), T{options})"))
        assert got == pytest.approx(want, rel=1e-13), options


@pytest.mark.parametrize("kind, f", [("l2loss", lambda d: d * d), ("l1loss", np.abs)])
def test_weights(m, kind, f) -> None:
    e = f(Y - T)
    cls = scalar(run_loss(m, f"{kind}(dlarray(Y, 'CB'), T, W, 'WeightsFormat', 'C')", W=CLASS_W))
    assert cls == pytest.approx((CLASS_W[:, None] * e).sum() / 4, rel=1e-13)
    formatted = scalar(run_loss(m, f"{kind}(dlarray(Y, 'CB'), T, dlarray(W, 'C'))", W=CLASS_W))
    assert formatted == pytest.approx(cls, rel=1e-14)
    obs = scalar(run_loss(m, f"{kind}(dlarray(Y, 'CB'), T, dlarray(W, 'B'))", W=OBS_W))
    assert obs == pytest.approx((OBS_W[None, :] * e).sum() / 4, rel=1e-13)
    # an unformatted vector: its length says which dimension it weights
    inferred = scalar(run_loss(m, f"{kind}(dlarray(Y, 'CB'), T, W)", W=OBS_W))
    assert inferred == pytest.approx(obs, rel=1e-14)
    element = np.arange(1.0, 13.0).reshape(3, 4)
    each = scalar(run_loss(m, f"{kind}(dlarray(Y, 'CB'), T, W)", W=element))
    assert each == pytest.approx((element * e).sum() / 4, rel=1e-13)
    both = scalar(run_loss(m, f"{kind}(dlarray(Y, 'CB'), T, W, 'WeightsFormat', 'C', 'Mask', M)",
                           W=CLASS_W))
    assert both == pytest.approx((CLASS_W[:, None] * e * MASK).sum() / 4, rel=1e-13)


def test_l2loss_is_not_halved_and_mse_is(m) -> None:
    l2 = scalar(run_loss(m, "l2loss(dlarray(Y, 'CB'), T)"))
    half = scalar(run_loss(m, "mse(dlarray(Y, 'CB'), T)"))
    assert l2 == pytest.approx(2 * half, rel=1e-14)


def test_reduction_none_keeps_the_format(m) -> None:
    v = run_loss(m, "l2loss(dlarray(Y, 'CB'), T, 'Reduction', 'none')")
    assert v.fmt == "CB"
    np.testing.assert_allclose(v.data, (Y - T) ** 2, rtol=1e-14)
    # normalisation has no effect on unreduced values; weights and masks apply
    v = run_loss(m, "l1loss(dlarray(Y, 'CB'), T, W, 'WeightsFormat', 'C', 'Reduction', 'none', "
                    "'NormalizationFactor', 'all-elements', 'Mask', M)", W=CLASS_W)
    np.testing.assert_allclose(v.data, CLASS_W[:, None] * np.abs(Y - T) * MASK, rtol=1e-14)


def test_reduction_none_unformatted_in_data_format_order(m) -> None:
    v = run_loss(m, "l2loss(Y, T, 'DataFormat', 'BC', 'Reduction', 'none')")
    assert v.fmt == "" and v.data.shape == (3, 4)
    np.testing.assert_allclose(v.data, (Y - T) ** 2, rtol=1e-14)
    v = run_loss(m, "l2loss(dlarray(Y, 'BC'), T', 'Reduction', 'none')")
    assert v.fmt == "CB" and v.data.shape == (4, 3)


def test_mask_included_without_batch_dimension(m) -> None:
    got = scalar(run_loss(m, "l2loss(dlarray(Y, 'SC'), T, 'Mask', M, "
                             "'NormalizationFactor', 'mask-included')"))
    assert got == pytest.approx(((Y - T) ** 2 * MASK).sum() / MASK.sum(), rel=1e-13)


def test_mask_expands_over_dimensions_of_size_one(m) -> None:
    got = scalar(run_loss(m, "l2loss(dlarray(Y, 'CB'), T, 'Mask', logical([1 0 1 1]))"))
    assert got == pytest.approx(((Y - T) ** 2 * np.array([1, 0, 1, 1])).sum() / 4, rel=1e-13)


def test_sequences_normalise_by_observations_not_time_steps(m) -> None:
    rng = np.random.default_rng(1)
    y = rng.random((2, 3, 5))
    t = rng.random((2, 3, 5))
    got = scalar(m.value("x = l2loss(dlarray(A, 'CBT'), B);", A=y, B=t))
    assert got == pytest.approx(((y - t) ** 2).sum() / 3, rel=1e-13)
    got = scalar(m.value("x = l2loss(dlarray(A, 'CBT'), B, 'NormalizationFactor', 'all-elements');",
                         A=y, B=t))
    assert got == pytest.approx(((y - t) ** 2).sum() / 30, rel=1e-13)


# ------------------------------------------------------------------ huber


def _huber(d: np.ndarray, delta: float = 1.0) -> np.ndarray:
    a = np.abs(d)
    return np.where(a <= delta, 0.5 * d * d, delta * (a - 0.5 * delta))


def test_huber(m) -> None:
    y = 3 * Y
    assert scalar(run_loss(m, "huber(dlarray(3 * Y, 'CB'), T)")) == pytest.approx(
        _huber(y - T).sum() / 4, rel=1e-13)
    assert scalar(run_loss(m, "huber(dlarray(3 * Y, 'CB'), T, 'TransitionPoint', 0.4)")) == \
        pytest.approx(_huber(y - T, 0.4).sum() / 4, rel=1e-13)
    got = scalar(run_loss(m, "huber(dlarray(3 * Y, 'CB'), T, W, 'WeightsFormat', 'C', 'Mask', M, "
                             "'NormalizationFactor', 'mask-included', 'TransitionPoint', 0.5)",
                          W=CLASS_W))
    e = CLASS_W[:, None] * _huber(y - T, 0.5) * MASK
    assert got == pytest.approx((e.sum(axis=0) / MASK.sum(axis=0)).sum(), rel=1e-13)
    v = run_loss(m, "huber(dlarray(3 * Y, 'CB'), T, 'Reduction', 'none')")
    np.testing.assert_allclose(v.data, _huber(y - T), rtol=1e-14)


# ------------------------------------------------------------------ crossentropy

P = np.array([[0.2, 0.5, 0.1, 0.6], [0.3, 0.25, 0.7, 0.3], [0.5, 0.25, 0.2, 0.1]])
ONEHOT = np.array([[1, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0]], dtype=float)


def run_ce(m, call: str, **inputs) -> DlArray:
    return m.value(f"x = {call};", "x", P=P, T=ONEHOT, M=MASK, **inputs)


def test_crossentropy_single_label(m) -> None:
    e = -ONEHOT * np.log(P)
    assert scalar(run_ce(m, "crossentropy(dlarray(P, 'CB'), T)")) == pytest.approx(e.sum() / 4,
                                                                                   rel=1e-13)
    assert scalar(run_ce(m, "crossentropy(P, T, 'DataFormat', 'CB')")) == pytest.approx(
        e.sum() / 4, rel=1e-13)
    got = scalar(run_ce(m, "crossentropy(P', T', 'DataFormat', 'BC')"))
    assert got == pytest.approx(e.sum() / 4, rel=1e-13)


def test_crossentropy_normalizations(m) -> None:
    e = -ONEHOT * np.log(P)
    cases = {
        "'NormalizationFactor', 'all-elements'": e.sum() / 12,
        "'NormalizationFactor', 'none'": e.sum(),
        "'Mask', M": (e * MASK).sum() / 4,
        "'Mask', M, 'NormalizationFactor', 'mask-included'": ((e * MASK).sum(axis=0)
                                                              / MASK.sum(axis=0)).sum(),
    }
    for options, want in cases.items():
        got = scalar(run_ce(m, f"crossentropy(dlarray(P, 'CB'), T, {options})"))
        assert got == pytest.approx(want, rel=1e-13), options


def test_crossentropy_weights(m) -> None:
    e = -ONEHOT * np.log(P)
    got = scalar(run_ce(m, "crossentropy(dlarray(P, 'CB'), T, dlarray(W, 'C'))", W=CLASS_W))
    assert got == pytest.approx((CLASS_W[:, None] * e).sum() / 4, rel=1e-13)
    got = scalar(run_ce(m, "crossentropy(dlarray(P, 'CB'), T, W, 'WeightsFormat', 'B')", W=OBS_W))
    assert got == pytest.approx((OBS_W[None, :] * e).sum() / 4, rel=1e-13)


def test_crossentropy_multilabel(m) -> None:
    t = np.array([[1, 0, 1, 1], [0, 0, 1, 0], [1, 1, 0, 0]], dtype=float)
    e = -(t * np.log(P) + (1 - t) * np.log(1 - P))
    for options in ("'ClassificationMode', 'multilabel'", "'TargetCategories', 'independent'",
                    "'ClassificationMode', 'multi'"):
        got = scalar(run_ce(m, f"crossentropy(dlarray(P, 'CB'), L, {options})", L=t))
        assert got == pytest.approx(e.sum() / 4, rel=1e-13)
    single = scalar(run_ce(m, "crossentropy(dlarray(P, 'CB'), T, 'TargetCategories', 'exclusive')"))
    assert single == pytest.approx(-(ONEHOT * np.log(P)).sum() / 4, rel=1e-13)


def test_crossentropy_bounds_predictions_away_from_zero(m) -> None:
    p = np.array([[0.0, 1.0], [1.0, 0.0]])
    t = np.array([[1.0, 0.0], [0.0, 1.0]])
    got = scalar(m.value("x = crossentropy(dlarray(A, 'CB'), B);", A=p, B=t))
    assert got == pytest.approx(-np.log(EPS64), rel=1e-14)
    got = scalar(m.value("x = crossentropy(dlarray(A, 'CB'), B, 'ClassificationMode', 'multilabel');",
                         A=p, B=t))
    assert got == pytest.approx(-2 * np.log(EPS64), rel=1e-14)
    single = m.value("x = crossentropy(dlarray(single(A), 'CB'), B);", A=p, B=t)
    assert single.data.dtype == np.float32
    assert float(single.data[0, 0]) == pytest.approx(-np.log(np.finfo(np.float32).eps), rel=1e-6)


def test_crossentropy_gradient_is_finite_at_zero(m) -> None:
    code = """
    p = dlarray([0 0.5; 1 0.5], 'CB');
    g = dlfeval(@(p) dlgradient(crossentropy(p, [1 0; 0 1]), p), p);
    x = extractdata(g);
    """
    g = m.value(code)
    assert np.all(np.isfinite(g))
    np.testing.assert_allclose(g, [[0.0, 0.0], [0.0, -1.0]])  # bounded value: no slope


def test_crossentropy_reduction_none(m) -> None:
    v = run_ce(m, "crossentropy(dlarray(P, 'CB'), T, 'Reduction', 'none')")
    assert v.fmt == "CB"
    np.testing.assert_allclose(v.data, -ONEHOT * np.log(P), rtol=1e-14)


def test_crossentropy_gradient_formula(m) -> None:
    code = """
    [x, g] = dlfeval(@lossAndGradient, dlarray(P, 'CB'), T);
    function [loss, g] = lossAndGradient(p, t)
    loss = crossentropy(p, t);
    g = extractdata(dlgradient(loss, p));
    end
    """
    m.interp.base.vars.clear()
    m.interp.base.vars.update(P=P, T=ONEHOT)
    m.interp.run_source(code, "losses_gradient")
    g = m.interp.base.vars["g"]
    np.testing.assert_allclose(g, -ONEHOT / P / 4, rtol=1e-13)


# ------------------------------------------------------------------ indexcrossentropy


def test_indexcrossentropy_matches_one_hot(m) -> None:
    index = np.array([[1.0, 3.0, 2.0, 1.0]])
    e = -np.log(P[index[0].astype(int) - 1, np.arange(4)])
    assert scalar(run_ce(m, "indexcrossentropy(dlarray(P, 'CB'), I)", I=index)) == pytest.approx(
        e.sum() / 4, rel=1e-13)
    got = scalar(run_ce(m, "indexcrossentropy(P, I, W, 'DataFormat', 'CB', 'WeightsFormat', 'C')",
                        I=index, W=CLASS_W))
    assert got == pytest.approx((CLASS_W[index[0].astype(int) - 1] * e).sum() / 4, rel=1e-13)
    v = run_ce(m, "indexcrossentropy(dlarray(P, 'CB'), I, 'Reduction', 'none')", I=index)
    assert v.fmt == "CB" and v.data.shape == (1, 4)
    np.testing.assert_allclose(v.data[0], e, rtol=1e-14)


def test_indexcrossentropy_formatted_targets_without_channel(m) -> None:
    index = np.array([[1.0, 3.0, 2.0, 1.0]])
    got = scalar(run_ce(m, "indexcrossentropy(dlarray(P, 'CB'), dlarray(I, 'UB'))", I=index))
    want = scalar(run_ce(m, "indexcrossentropy(dlarray(P, 'CB'), I)", I=index))
    assert got == pytest.approx(want, rel=1e-14)


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("code, identifier", [
    ("mse(dlarray(Y), T)", "deep:dlarray:UnformattedInput"),
    ("mse(dlarray(Y, 'CB'), T, 'DataFormat', 'CB')", "deep:dlarray:DataFormatFormattedInput"),
    ("mse(dlarray(Y, 'CB'), T(:, 1:2))", "deep:dlarray:LossSizeMismatch"),
    ("mse(dlarray(Y, 'CB'), dlarray(T, 'CT'))", "deep:dlarray:LossDescriptorMismatch"),
    ("l2loss(dlarray(Y, 'CB'), T, 'Reduction', 'mean')", "MATLAB:l2loss:unrecognizedStringChoice"),
    ("l1loss(dlarray(Y, 'CB'), T, 'NormalizationFactor', 'observations')",
     "MATLAB:l1loss:unrecognizedStringChoice"),
    ("l2loss(dlarray(Y, 'CB'), T, 'NormalizationFactor', 'mask-included')",
     "deep:l2loss:MaskIncludedWithoutMask"),
    ("l2loss(dlarray(Y, 'CB'), T, [1 2])", "deep:dlarray:LossWeightsSizeMismatch"),
    ("l2loss(dlarray(Y, 'CB'), T, 'Mask', true(2, 4))", "deep:dlarray:LossWeightsSizeMismatch"),
    ("l2loss(dlarray(Y, 'CB'), T, 'Bogus', 1)", "MATLAB:InputParser:UnmatchedParameter"),
    ("l2loss(dlarray(Y, 'CB'), T, 'Reduction')", "MATLAB:InputParser:ParamMissingValue"),
    ("huber(dlarray(Y, 'CB'), T, 'TransitionPoint', -1)", "deep:huber:InvalidTransitionPoint"),
    ("crossentropy(dlarray(Y, 'SB'), T)", "deep:dlarray:MissingDimension"),
    ("crossentropy(dlarray(Y, 'CB'), T, 'ClassificationMode', 'multilabel', "
     "'TargetCategories', 'independent')", "deep:dlarray:ClassificationModeTargetCategoriesClash"),
    ("crossentropy(dlarray(Y, 'CB'), T, 'ClassificationMode', 'binary')",
     "MATLAB:crossentropy:unrecognizedStringChoice"),
    ("crossentropy(dlarray(Y, 'CB'), T > 0.5)", "deep:dlarray:LogicalsNotSupported"),
    ("crossentropy(dlarray(Y, 'CB'), T + 1i)", "deep:dlarray:ComplexNotSupported"),
    ("crossentropy(dlarray(Y > 0.5, 'CB'), T)", "deep:dlarray:LogicalsNotSupported"),
    ("indexcrossentropy(dlarray(Y > 0.5, 'CB'), [1 2 3 1])", "deep:dlarray:LogicalsNotSupported"),
    ("l2loss(dlarray(Y + 1i, 'CB'), T)", "deep:dlarray:ComplexNotSupported"),
    ("indexcrossentropy(dlarray(Y, 'CB'), [1 2 4 1])", "deep:indexcrossentropy:InvalidTargets"),
    ("indexcrossentropy(dlarray(Y, 'CB'), [1 2 1.5 1])", "deep:indexcrossentropy:InvalidTargets"),
    ("indexcrossentropy(dlarray(Y, 'CB'), [1 2 3])", "deep:dlarray:LossSizeMismatch"),
    ("mse(dlarray(Y, 'CB'))", "MATLAB:minrhs"),
    ("l2loss(dlarray(Y, 'CB'))", "MATLAB:minrhs"),
    ("l2loss(dlarray(Y, 'CB'), T, 1, 2)", "MATLAB:TooManyInputs"),
])
def test_errors(m, code, identifier) -> None:
    m.interp.base.vars.clear()
    m.interp.base.vars.update(Y=Y, T=T)
    from mlang.errors import MatlabError

    with pytest.raises(MatlabError) as info:
        m.interp.eval(f"x = {code};")
    assert info.value.identifier == identifier, info.value.message


# ------------------------------------------------------------------ documented numbers


def test_documented_mse_example(m) -> None:
    """The mse reference page: rand(6,6,1,1) against ones gives 5.2061."""
    v = m.value("rng default; Y = dlarray(rand(6, 6, 1, 1), 'SSCB'); x = mse(Y, ones(6, 6, 1, 1));")
    assert round(scalar(v), 4) == 5.2061


def test_documented_l2loss_example(m) -> None:
    """The l2loss reference page: 10 responses, 12 observations of rand gives 1.4748."""
    v = m.value("rng default; Y = dlarray(rand(10, 12), 'CB'); T = rand(10, 12); x = l2loss(Y, T);")
    assert round(scalar(v), 4) == 1.4748


# ------------------------------------------------------------------ numeric mse


def test_mse_of_numeric_arrays_is_the_plain_mean(m) -> None:
    assert m.value("x = mse([1 2 3], [1 2 5]);") == pytest.approx(4 / 3, rel=1e-15)
    # integers are compared as numbers (no saturation), NaN values are left out
    assert m.value("x = mse(uint8([0 255]), uint8([255 0]));") == pytest.approx(255.0 ** 2)
    single = m.value("x = mse(single([1 NaN 2]), 3);")
    assert single.dtype == np.float32 and float(single[0, 0]) == pytest.approx(2.5)
    assert m.fails("x = mse([1 2 3], [1 2]);").identifier == "MATLAB:sizeDimensionsMustMatch"
    assert m.fails("x = mse({1}, 2);").identifier == "MATLAB:mse:InvalidInput"
