"""minibatchpredict and scores2label, and predict with numeric data on trained networks."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.values.categorical import CategoricalArray

NET = """
rng(0);
net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(4) tanhLayer fullyConnectedLayer(2)]);
X = rand(10, 3);
W1 = double(extractdata(net.Learnables.Value{1})); b1 = double(extractdata(net.Learnables.Value{2}));
W2 = double(extractdata(net.Learnables.Value{3})); b2 = double(extractdata(net.Learnables.Value{4}));
"""


def by_hand(m) -> np.ndarray:
    v = m.interp.base.vars
    h = np.tanh(v["W1"] @ v["X"].T + v["b1"])
    return (v["W2"] @ h + v["b2"]).T


def test_minibatchpredict_feature_data_is_n_by_outputs(m):
    y = m.value(NET + "Y = minibatchpredict(net, X, MiniBatchSize=3);", "Y")
    assert y.shape == (10, 2)
    assert y.dtype == np.float32
    np.testing.assert_allclose(y, by_hand(m), rtol=1e-5, atol=1e-6)


def test_minibatchpredict_matches_predict(m):
    y, p = m.values(NET + "Y = minibatchpredict(net, X); P = predict(net, X);", "Y", "P")
    np.testing.assert_allclose(y, p, rtol=1e-6)
    assert p.shape == (10, 2)


def test_minibatchpredict_input_data_formats(m):
    y = m.value(NET + 'Y = minibatchpredict(net, X\', InputDataFormats="CB", MiniBatchSize=4);',
                "Y")
    np.testing.assert_allclose(y, by_hand(m), rtol=1e-5, atol=1e-6)


def test_minibatchpredict_output_data_formats(m):
    y = m.value(NET + 'Y = minibatchpredict(net, X, OutputDataFormats="CB");', "Y")
    assert y.shape == (2, 10)
    np.testing.assert_allclose(y, by_hand(m).T, rtol=1e-5, atol=1e-6)


def test_minibatchpredict_outputs_option(m):
    code = NET + """
    net2 = dlnetwork([featureInputLayer(3) fullyConnectedLayer(4, Name="fc1") tanhLayer(Name="t") ...
        fullyConnectedLayer(2, Name="fc2")]);
    [A, B] = minibatchpredict(net2, X, Outputs=["t" "fc2"], MiniBatchSize=4);
    """
    a, b = m.values(code, "A", "B")
    assert a.shape == (10, 4)
    assert b.shape == (10, 2)
    assert np.all(np.abs(a) <= 1)


def test_minibatchpredict_image_data(m):
    code = """
    rng(0);
    net = dlnetwork([imageInputLayer([5 5 2], Normalization="none") convolution2dLayer(3, 4)]);
    X = rand(5, 5, 2, 7);
    Y = minibatchpredict(net, X, MiniBatchSize=2);
    P = predict(net, X);
    """
    y, p = m.values(code, "Y", "P")
    assert y.shape == (3, 3, 4, 7)
    np.testing.assert_allclose(y, p, rtol=1e-6)


def test_minibatchpredict_datastore(m):
    y, p = m.values(NET + """
    Y = minibatchpredict(net, arrayDatastore(X), MiniBatchSize=4);
    P = predict(net, X);
    """, "Y", "P")
    np.testing.assert_allclose(y, p, rtol=1e-6)


def test_minibatchpredict_errors(m):
    assert m.fails("minibatchpredict(5, 1)").identifier == "MATLAB:UndefinedFunction"
    err = m.fails(NET + "minibatchpredict(net, X, MiniBatchSize=0);")
    assert err.identifier == "deep:minibatchpredict:InvalidMiniBatchSize"
    err = m.fails(NET + "minibatchpredict(net, X, X);")
    assert err.identifier == "deep:dlnetwork:WrongNumberOfInputs"
    err = m.fails(NET + "minibatchpredict(net, {'a'});")
    assert err.identifier == "deep:minibatchpredict:InvalidData"
    err = m.fails(NET + "minibatchpredict(net, X(:, 1:2));")
    assert err.identifier == "deep:minibatchpredict:InputSizeMismatch"
    err = m.fails(NET + "[a, b] = minibatchpredict(net, X);")
    assert err.identifier == "MATLAB:TooManyOutputs"


# ------------------------------------------------------------------ scores2label


def labels_of(value: CategoricalArray) -> list[str]:
    return [str(n) for n in value.element_names().reshape(-1, order="F")]


def test_scores2label_rows_of_scores(m):
    code = """
    S = [0.1 0.7 0.2; 0.8 0.1 0.1; 0.2 0.3 0.5; 0.4 0.4 0.2];
    [L, top] = scores2label(S, ["cat" "dog" "fish"]);
    """
    labels, top = m.values(code, "L", "top")
    assert isinstance(labels, CategoricalArray)
    assert labels.shape == (4, 1)
    assert labels.names == ["cat", "dog", "fish"]
    assert labels_of(labels) == ["dog", "cat", "fish", "cat"]  # a tie takes the first class
    np.testing.assert_allclose(top.reshape(-1), [0.7, 0.8, 0.5, 0.4])


def test_scores2label_dimension_and_class_name_forms(m):
    code = """
    S = [0.1 0.8; 0.9 0.2];
    A = scores2label(S, {'a', 'b'}, 1);
    B = scores2label(S, categorical(["a" "b"]));
    C = scores2label(dlarray(single(S), "CB"), ["a" "b"]);
    """
    a, b, c = m.values(code, "A", "B", "C")
    assert a.shape == (1, 2) and labels_of(a) == ["b", "a"]
    assert labels_of(b) == ["b", "a"]
    assert labels_of(c) == ["b", "a"]


@pytest.mark.parametrize("code, ident", [
    ('scores2label([0.1 0.9], ["a" "b" "c"])', "deep:scores2label:ClassNamesMismatch"),
    ('scores2label([0.1 0.9], 5)', "deep:scores2label:InvalidClassNames"),
    ('scores2label({1}, ["a" "b"])', "deep:scores2label:InvalidScores"),
    ('scores2label([0.1 0.9], ["a" "a"])', "deep:scores2label:DuplicateClassNames"),
    ('scores2label([0.1 0.9], ["a" "b"], 0)', "deep:scores2label:InvalidDimension"),
    ('scores2label([0.1 0.9], ["a" "b"], 102)', "deep:scores2label:ClassNamesMismatch"),
])
def test_scores2label_errors(m, code, ident):
    assert m.fails(code).identifier == ident


def test_scores2label_along_a_trailing_singleton_dimension(m):
    # one class along a dimension past the last: every score is its own best; no trailing 1s
    labels, top = m.values('[L, T] = scores2label([0.2 0.8; 0.6 0.4], "a", 102);', "L", "T")
    assert labels.shape == (2, 2) and labels_of(labels) == ["a"] * 4
    np.testing.assert_array_equal(top, [[0.2, 0.8], [0.6, 0.4]])
    (labels,) = m.values('L = scores2label([0.2 0.8; 0.6 0.4], "a", 3);', "L")
    assert labels.shape == (2, 2)


def test_complex_predictors_keep_their_imaginary_part(m):
    # nothing is dropped silently: a network without SplitComplexInputs computes in complex
    y = m.value("net = dlnetwork([featureInputLayer(2) fullyConnectedLayer(1)]);"
                "y = minibatchpredict(net, [1+2i 3]);", "y")
    assert np.iscomplexobj(y) and np.imag(y) != 0
    split = m.value("net = dlnetwork([featureInputLayer(2, SplitComplexInputs=true) "
                    "fullyConnectedLayer(1)]); y = minibatchpredict(net, [1+2i 3]);", "y")
    assert not np.iscomplexobj(split)
