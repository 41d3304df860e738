"""fullyconnect, the activations (sigmoid, relu, leakyrelu, gelu, softmax) and the one-hot
encoding of labels, against hand-written NumPy formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import erf

from mlang.autodiff.dlarray import DlArray
from mlang.values.categorical import CategoricalArray


def _dl(m, code: str, name: str = "y", **inputs) -> DlArray:
    v = m.value(code, name, **inputs)
    assert type(v) is DlArray, f"{name} is {type(v).__name__}"
    return v


RNG = np.random.default_rng(7)

# ------------------------------------------------------------ fullyconnect


def test_fullyconnect_documentation_example(m) -> None:
    # MathWorks' example: 12x12x32 image, ten outputs with weights and bias of ones
    out = m.run("X = dlarray(0.5 * ones(12, 12, 32, 1), 'SSCB');"
                "Y = fullyconnect(X, ones(10, 12, 12, 32), ones(10, 1))")
    y = m.interp.base.vars["Y"]
    assert y.fmt == "CB"
    np.testing.assert_array_equal(y.data, np.full((10, 1), 0.5 * 12 * 12 * 32 + 1))
    assert out.startswith("\nY = \n\n  10(C) \u00d7 1(B) dlarray\n\n        2305\n")


def test_fullyconnect_of_channels_and_batch(m) -> None:
    x = RNG.standard_normal((3, 5))
    w = RNG.standard_normal((4, 3))
    b = RNG.standard_normal((4, 1))
    y = _dl(m, "y = fullyconnect(dlarray(x, 'CB'), w, b);", x=x, w=w, b=b)
    assert y.fmt == "CB"
    np.testing.assert_allclose(y.data, w @ x + b)


def test_fullyconnect_flattens_spatial_and_channel_dimensions(m) -> None:
    x = RNG.standard_normal((2, 3, 4, 5))  # S S C B
    w = RNG.standard_normal((6, 2, 3, 4))
    b = RNG.standard_normal((6, 1))
    y = _dl(m, "y = fullyconnect(dlarray(x, 'SSCB'), w, b);", x=x, w=w, b=b)
    want = np.einsum("ohwc,hwcn->on", w, x) + b
    np.testing.assert_allclose(y.data, want)
    # the same weights as an outputs-by-features matrix
    y2 = _dl(m, "y = fullyconnect(dlarray(x, 'SSCB'), reshape(w, 6, []), b');", x=x, w=w, b=b)
    np.testing.assert_allclose(y2.data, want)


def test_fullyconnect_keeps_the_time_dimension(m) -> None:
    x = RNG.standard_normal((3, 2, 4))  # C B T
    w = RNG.standard_normal((5, 3))
    b = RNG.standard_normal((5, 1))
    y = _dl(m, "y = fullyconnect(dlarray(x, 'CBT'), w, b);", x=x, w=w, b=b)
    assert y.fmt == "CBT"
    assert y.data.shape == (5, 2, 4)
    np.testing.assert_allclose(y.data, np.einsum("oc,cbt->obt", w, x) + b[:, :, None])


def test_fullyconnect_counts_unspecified_dimensions_as_features(m) -> None:
    x = RNG.standard_normal((2, 3, 4))  # C B U (stored in that order)
    w = RNG.standard_normal((5, 8))
    b = np.zeros((5, 1))
    y = _dl(m, "y = fullyconnect(dlarray(x, 'CBU'), w, b);", x=x, w=w, b=b)
    assert y.fmt == "CB"
    features = x.transpose(0, 2, 1).reshape(8, 3, order="F")  # C and U, then B
    np.testing.assert_allclose(y.data, w @ features)


def test_fullyconnect_without_a_batch_dimension_has_one_observation(m) -> None:
    y = _dl(m, "y = fullyconnect(dlarray([1; 2; 3], 'C'), [1 1 1; 1 0 -1], [0; 1]);")
    assert y.fmt == "CB"
    np.testing.assert_array_equal(y.data, [[6], [-1]])


def test_fullyconnect_with_data_format_gives_unformatted_output_in_that_order(m) -> None:
    x = RNG.standard_normal((5, 3))  # B C
    w = RNG.standard_normal((4, 3))
    b = RNG.standard_normal((4, 1))
    y = _dl(m, "y = fullyconnect(x, w, b, 'DataFormat', 'BC');", x=x, w=w, b=b)
    assert y.fmt == ""
    np.testing.assert_allclose(y.data, (w @ x.T + b).T)
    y = _dl(m, "y = fullyconnect(dlarray(x'), w, b, 'DataFormat', 'CB');", x=x, w=w, b=b)
    np.testing.assert_allclose(y.data, w @ x.T + b)


def test_fullyconnect_single_in_single_out(m) -> None:
    y = _dl(m, "y = fullyconnect(dlarray(single([1; 2]), 'CB'), [1 2], 0.5);")
    assert y.data.dtype == np.float32
    assert y.data[0, 0] == pytest.approx(5.5)


def test_fullyconnect_gradients(m) -> None:
    x = RNG.standard_normal((3, 4))
    w = RNG.standard_normal((2, 3))
    b = RNG.standard_normal((2, 1))
    m.interp.base.vars.clear()
    m.interp.base.vars.update(x=x, w=w, b=b)
    m.interp.run_source("""
[gx, gw, gb] = dlfeval(@f, dlarray(x, 'CB'), dlarray(w), dlarray(b));
function [gx, gw, gb] = f(x, w, b)
    y = fullyconnect(x, w, b);
    [gx, gw, gb] = dlgradient(sum(y .^ 2, 'all'), x, w, b);
end
""", "fc_gradients")
    v = m.interp.base.vars
    dy = 2 * (w @ x + b)
    np.testing.assert_allclose(v["gx"].data, w.T @ dy)
    np.testing.assert_allclose(v["gw"].data, dy @ x.T)
    np.testing.assert_allclose(v["gb"].data, dy.sum(axis=1, keepdims=True))
    assert v["gx"].fmt == "CB"


@pytest.mark.parametrize(("code", "identifier"), [
    ("fullyconnect(dlarray(ones(3, 2), 'CB'), ones(2, 3))", "MATLAB:minrhs"),
    ("fullyconnect(dlarray(ones(3, 2), 'CB'), ones(2, 4), ones(2, 1))",
     "deep:fullyconnect:InvalidWeightsSize"),
    ("fullyconnect(dlarray(ones(3, 2), 'CB'), ones(2, 3), ones(3, 1))",
     "deep:fullyconnect:InvalidBiasSize"),
    ("fullyconnect(dlarray(ones(3, 2)), ones(2, 3), ones(2, 1))", "deep:dlarray:UnformattedInput"),
    ("fullyconnect(dlarray(ones(3, 2), 'CB'), ones(2, 3), ones(2, 1), 'DataFormat', 'CB')",
     "deep:dlarray:DataFormatFormattedInput"),
    ("fullyconnect(dlarray(ones(3, 2), 'CB'), {1}, ones(2, 1))", "deep:fullyconnect:InvalidInput"),
])
def test_fullyconnect_errors(m, code: str, identifier: str) -> None:
    assert m.fails(f"y = {code};").identifier == identifier


# ------------------------------------------------------------ activations

X = np.array([[-2.0, -0.5, 0.0], [0.25, 1.0, 3.0]])


def test_sigmoid_relu_leakyrelu_keep_the_format(m) -> None:
    for fn, want in [("sigmoid", 1 / (1 + np.exp(-X))), ("relu", np.maximum(X, 0)),
                     ("leakyrelu", np.where(X > 0, X, 0.01 * X))]:
        y = _dl(m, f"y = {fn}(dlarray(x, 'CB'));", x=X)
        assert y.fmt == "CB"
        np.testing.assert_allclose(y.data, want)
    y = _dl(m, "y = leakyrelu(dlarray(x, 'CB'), 0.2);", x=X)
    np.testing.assert_allclose(y.data, np.where(X > 0, X, 0.2 * X))


def test_gelu_both_approximations(m) -> None:
    exact = 0.5 * X * (1 + erf(X / math.sqrt(2)))
    tanh = 0.5 * X * (1 + np.tanh(math.sqrt(2 / math.pi) * (X + 0.044715 * X ** 3)))
    np.testing.assert_allclose(_dl(m, "y = gelu(dlarray(x, 'CB'));", x=X).data, exact)
    np.testing.assert_allclose(
        _dl(m, "y = gelu(dlarray(x, 'CB'), 'Approximation', 'tanh');", x=X).data, tanh)


def _softmax(a: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(a - a.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def test_softmax_over_channels(m) -> None:
    y = _dl(m, "y = softmax(dlarray(x, 'CB'));", x=X)
    assert y.fmt == "CB"
    np.testing.assert_allclose(y.data, _softmax(X, 0))


def test_softmax_with_a_data_format(m) -> None:
    y = _dl(m, "y = softmax(x, 'DataFormat', 'BC');", x=X)
    assert y.fmt == ""
    np.testing.assert_allclose(y.data, _softmax(X, 1))
    y = _dl(m, "y = softmax(dlarray(x), 'DataFormat', 'CBT');", x=X)
    np.testing.assert_allclose(y.data, _softmax(X, 0))


def test_softmax_with_time_and_spatial_dimensions(m) -> None:
    a = RNG.standard_normal((2, 3, 4))
    y = _dl(m, "y = softmax(dlarray(a, 'SCT'));", a=a)
    assert y.fmt == "SCT"
    np.testing.assert_allclose(y.data, _softmax(a, 1))


def test_softmax_errors(m) -> None:
    assert m.fails("y = softmax(dlarray(ones(2), 'SB'));").identifier == "deep:softmax:NoChannelDimension"
    assert m.fails("y = softmax(dlarray(ones(2)));").identifier == "deep:dlarray:UnformattedInput"
    assert m.fails("y = softmax(dlarray(ones(2), 'CB'), 'DataFormat', 'CB');").identifier == \
        "deep:dlarray:DataFormatFormattedInput"


# ------------------------------------------------------------ one-hot labels


def test_onehotencode_of_categorical_labels(m) -> None:
    b = m.value('x = onehotencode(categorical(["red"; "green"; "blue"; "red"]), 2);')
    # categories are sorted: blue, green, red
    np.testing.assert_array_equal(b, [[0, 0, 1], [0, 1, 0], [1, 0, 0], [0, 0, 1]])


def test_onehotencode_along_the_first_dimension_with_class_names_and_type(m) -> None:
    b = m.value('x = onehotencode(categorical(["b" "a" "c"]), 1, "single", '
                '"ClassNames", ["c" "b" "a"]);')
    assert b.dtype == np.float32
    np.testing.assert_array_equal(b, [[0, 0, 1], [1, 0, 0], [0, 1, 0]])


def test_onehotencode_of_undefined_labels_is_nan(m) -> None:
    b = m.value('x = onehotencode(categorical(["a"; "b"; ""]), 2);')
    np.testing.assert_array_equal(b[:2], [[1, 0], [0, 1]])
    assert np.isnan(b[2]).all()


def test_onehotencode_of_numbers_needs_class_names(m) -> None:
    b = m.value("x = onehotencode([3; 1], 2, 'ClassNames', [1 2 3]);")
    np.testing.assert_array_equal(b, [[0, 0, 1], [1, 0, 0]])
    assert m.fails("x = onehotencode([3; 1], 2);").identifier == \
        "deep:onehotencode:ClassNamesRequired"


def test_onehotencode_feature_dimension_must_be_singleton(m) -> None:
    assert m.fails('x = onehotencode(categorical(["a"; "b"]), 1);').identifier == \
        "deep:onehotencode:FeatureDimNotSingleton"


def test_onehotdecode_to_categorical(m) -> None:
    a = m.value("x = onehotdecode([0.1 0.7 0.2; 0.6 0.3 0.1]', [\"cat\" \"dog\" \"fox\"], 1);")
    assert type(a) is CategoricalArray
    assert a.names == ["cat", "dog", "fox"]
    assert a.codes.tolist() == [[2, 1]]


def test_onehotdecode_round_trip_and_dlarray_input(m) -> None:
    out = m.run('A = categorical(["x"; "y"; "x"]); B = dlarray(onehotencode(A, 2));'
                'C = onehotdecode(B, categories(A), 2); tf = isequal(C, A)')
    assert "tf =\n\n  logical\n\n   1\n" in out


def test_onehotdecode_to_numbers(m) -> None:
    a = m.value("x = onehotdecode([0 1; 1 0; 0.2 0.1], [10 20], 2, 'double');")
    np.testing.assert_array_equal(a, [[20], [10], [10]])


def test_onehotdecode_class_count_must_match(m) -> None:
    assert m.fails("x = onehotdecode(eye(3), [1 2], 1);").identifier == \
        "deep:onehotdecode:ClassesSizeMismatch"


def test_onehotencode_labels_of_other_classes_are_zeros(m) -> None:
    b = m.value('x = onehotencode(categorical(["a"; "b"; "c"]), 2, "ClassNames", ["b" "a"]);')
    np.testing.assert_array_equal(b, [[0, 1], [1, 0], [0, 0]])


def test_onehotencode_of_a_table(m) -> None:
    out = m.run('T = table(categorical(["b"; "a"; "b"]), VariableNames="Label"); '
                'U = onehotencode(T); names = U.Properties.VariableNames, a = U.a; b = U.b;')
    assert "{'a'}    {'b'}" in out
    np.testing.assert_array_equal(m.interp.base.vars["a"], [[0], [1], [0]])
    np.testing.assert_array_equal(m.interp.base.vars["b"], [[1], [0], [1]])
