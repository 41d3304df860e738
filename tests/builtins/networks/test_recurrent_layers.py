"""lstmLayer, gruLayer and embeddingLayer: properties, options, errors, forward results
against NumPy, states carried between passes, and gradients by finite differences."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.networks.layer import ForwardContext
from mlang.values.core import to_str
from tests.builtins.networks.layer_checks import check_layer_gradients, initialized, layer_outputs

RNG = np.random.default_rng(3)


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-z))


def np_lstm(x, w, r, b, h, c, state=np.tanh, gate=sigmoid):
    """Hidden states of every step (H, B, T) and the final hidden and cell states."""
    n = r.shape[1]
    hs = []
    for t in range(x.shape[2]):
        z = w @ x[:, :, t] + r @ h + b
        i, f, g, o = gate(z[:n]), gate(z[n:2 * n]), state(z[2 * n:3 * n]), gate(z[3 * n:])
        c = f * c + i * g
        h = o * state(c)
        hs.append(h)
    return np.stack(hs, axis=2), h, c


def np_gru(x, w, r, b, h, mode="after-multiplication"):
    n = r.shape[1]
    hs = []
    for t in range(x.shape[2]):
        px = w @ x[:, :, t] + b[:3 * n]
        if mode == "before-multiplication":
            gates = sigmoid(px[:2 * n] + r[:2 * n] @ h)
            reset, update = gates[:n], gates[n:]
            cand = np.tanh(px[2 * n:] + r[2 * n:] @ (reset * h))
        else:
            rh = r @ h + (b[3 * n:] if mode == "recurrent-bias-after-multiplication" else 0)
            gates = sigmoid(px[:2 * n] + rh[:2 * n])
            reset, update = gates[:n], gates[n:]
            cand = np.tanh(px[2 * n:] + reset * rh[2 * n:])
        h = (1 - update) * cand + update * h
        hs.append(h)
    return np.stack(hs, axis=2), h


def sequence(c: int = 3, b: int = 2, t: int = 4) -> DlArray:
    return DlArray(RNG.standard_normal((c, b, t)), "CBT")


def lstm_parts(c: int = 3, n: int = 2) -> dict:
    return {"W": RNG.standard_normal((4 * n, c)) * 0.5, "R": RNG.standard_normal((4 * n, n)) * 0.5,
            "b": RNG.standard_normal((4 * n, 1)) * 0.5}


# ------------------------------------------------------------ lstmLayer: construction


def test_lstm_defaults(m):
    layer = m.value("L = lstmLayer(100);", "L")
    g = layer.get_property
    assert float(g("NumHiddenUnits")) == 100
    assert to_str(g("OutputMode")) == "sequence"
    assert to_str(g("InputSize")) == "auto"
    assert to_str(g("StateActivationFunction")) == "tanh"
    assert to_str(g("GateActivationFunction")) == "sigmoid"
    assert to_str(g("InputWeightsInitializer")) == "glorot"
    assert to_str(g("RecurrentWeightsInitializer")) == "orthogonal"
    assert to_str(g("BiasInitializer")) == "unit-forget-gate"
    assert g("HasStateInputs") is False and g("HasStateOutputs") is False
    assert np.size(g("InputWeights")) == 0 and np.size(g("HiddenState")) == 0
    assert float(g("BiasL2Factor")) == 0 and float(g("InputWeightsL2Factor")) == 1
    assert layer.input_names() == ["in"] and layer.output_names() == ["out"]
    assert layer.description() == "LSTM with 100 hidden units"
    assert layer.LAYER_TYPE == "LSTM" and layer.matlab_class == "nnet.cnn.layer.LSTMLayer"
    assert m.run("L = lstmLayer(5); fprintf('%s %d', class(L), isempty(L.Name))") == "nnet.cnn.layer.LSTMLayer 1"


def test_lstm_options(m):
    out = m.run("L = lstmLayer(4, Name='lstm1', OutputMode='last', StateActivationFunction='softsign', "
                "GateActivationFunction='hard-sigmoid', BiasInitializer='ones'); "
                "disp(L.Name), disp(L.OutputMode), disp(L.StateActivationFunction), "
                "disp(L.GateActivationFunction), disp(L.BiasInitializer)")
    assert out == "lstm1\nlast\nsoftsign\nhard-sigmoid\nones\n"
    out = m.run("L = lstmLayer(4, 'HasStateInputs', true, 'HasStateOutputs', 1); disp(L.InputNames); "
                "disp(L.OutputNames); disp([L.NumInputs L.NumOutputs])")
    assert out == ("    {'in'}    {'hidden'}    {'cell'}\n\n    {'out'}    {'hidden'}    {'cell'}\n\n"
                   "     3     3\n\n")


def test_lstm_property_assignment(m):
    assert m.run("L = lstmLayer(2); L.Name = 'rnn'; disp(L.Name)") == "rnn\n"
    assert m.run("L = lstmLayer(2); L.InputWeights = ones(8, 3); disp(size(L.InputWeights))") == "     8     3\n\n"
    err = m.fails("L = lstmLayer(2); L.NumHiddenUnits = 3;")
    assert err.identifier == "MATLAB:class:SetProhibited"
    err = m.fails("L = lstmLayer(2); L.OutputMode = 'last';")
    assert err.identifier == "MATLAB:class:SetProhibited"


@pytest.mark.parametrize("code, identifier", [
    ("lstmLayer()", "MATLAB:minrhs"),
    ("lstmLayer(0)", "MATLAB:validators:mustBePositiveInteger"),
    ("lstmLayer(2.5)", "MATLAB:validators:mustBePositiveInteger"),
    ("lstmLayer('a')", "MATLAB:validators:mustBePositiveInteger"),
    ("lstmLayer(3, OutputMode='all')", "MATLAB:validators:mustBeMember"),
    ("lstmLayer(3, StateActivationFunction='sigmoid')", "MATLAB:validators:mustBeMember"),
    ("lstmLayer(3, BiasInitializer='glorot')", "MATLAB:validators:mustBeMember"),
    ("lstmLayer(3, 'Foo', 1)", "MATLAB:InputParser:UnmatchedParameter"),
    ("lstmLayer(3, 'Name')", "MATLAB:InputParser:ParamMissingValue"),
    ("lstmLayer(3, HasStateInputs=true, HiddenState=zeros(3,1))", "nnet_cnn:layer:StatesWithStateInputs"),
    ("lstmLayer(3, InputWeightsL2Factor=-1)", "MATLAB:validators:mustBeNonnegative"),
    ("lstmLayer(3, InputWeights='abc')", "MATLAB:validators:mustBeNumeric"),
    ("lstmLayer(3, HasStateOutputs='x')", "MATLAB:validators:mustBeNumericOrLogical"),
    ("lstmLayer(3, Name=5)", "MATLAB:validators:mustBeTextScalar"),
    ("gruLayer(3, ResetGateMode='never')", "MATLAB:validators:mustBeMember"),
    ("gruLayer(0)", "MATLAB:validators:mustBePositiveInteger"),
    ("embeddingLayer(3, 4, MaskIndex=0)", "MATLAB:validators:mustBePositiveInteger"),
    ("embeddingLayer(3)", "MATLAB:minrhs"),
    ("embeddingLayer(3, -1)", "MATLAB:validators:mustBePositiveInteger"),
])
def test_constructor_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier


# ------------------------------------------------------------ lstmLayer: initialisation


def test_lstm_initialisation_is_reproducible_and_single(m):
    code = "rng(0); L = lstmLayer(2);"
    x = sequence(3, 1, 2)
    a = initialized(m.interp, m.value(code, "L"), [x])
    b = initialized(m.interp, m.value(code, "L"), [x])
    for name in ("InputWeights", "RecurrentWeights", "Bias"):
        np.testing.assert_array_equal(a.values[name], b.values[name])
        assert a.values[name].dtype == np.float32
    assert a.values["InputWeights"].shape == (8, 3) and float(a.values["InputSize"]) == 3
    bound = np.sqrt(6 / (3 + 8))
    assert np.all(np.abs(a.values["InputWeights"]) <= bound)
    recurrent = a.values["RecurrentWeights"].astype(np.float64)
    # orthogonal: the 8-by-2 matrix has orthonormal columns
    np.testing.assert_allclose(recurrent.T @ recurrent, np.eye(2), atol=1e-6)
    np.testing.assert_array_equal(a.values["Bias"].ravel(), [0, 0, 1, 1, 0, 0, 0, 0])
    np.testing.assert_array_equal(a.values["HiddenState"], np.zeros((2, 1), np.float32))
    np.testing.assert_array_equal(a.values["CellState"], np.zeros((2, 1), np.float32))


def test_lstm_input_size_mismatch(m):
    layer = m.value("L = lstmLayer(2, InputSize=5);", "L")
    with pytest.raises(Exception) as info:
        initialized(m.interp, layer, [sequence(3, 1, 2)])
    assert info.value.identifier == "nnet_cnn:layer:InputSizeMismatch"
    layer = m.value("L = lstmLayer(2, InputWeights=ones(8, 4));", "L")
    with pytest.raises(Exception) as info:
        initialized(m.interp, layer, [sequence(3, 1, 2)])
    assert info.value.identifier == "nnet_cnn:layer:InvalidParameterSize"


# ------------------------------------------------------------ lstmLayer: forward


@pytest.mark.parametrize("mode", ["sequence", "last"])
def test_lstm_forward_matches_numpy(m, mode):
    p = lstm_parts()
    layer = m.value(f"L = lstmLayer(2, OutputMode='{mode}', InputWeights=W, RecurrentWeights=R, Bias=b);",
                    "L", **p)
    x = sequence()
    (y,) = layer_outputs(m.interp, layer, [x])
    zeros = np.zeros((2, 2))
    hs, h, _ = np_lstm(x.data, p["W"], p["R"], p["b"], zeros, zeros)
    if mode == "sequence":
        assert y.fmt == "CBT"
        np.testing.assert_allclose(y.data, hs, rtol=1e-5, atol=1e-6)
    else:
        assert y.fmt == "CB"
        np.testing.assert_allclose(y.data, h, rtol=1e-5, atol=1e-6)


def test_lstm_activation_options_match_numpy(m):
    p = lstm_parts()
    layer = m.value("L = lstmLayer(2, InputWeights=W, RecurrentWeights=R, Bias=b, "
                    "StateActivationFunction='softsign', GateActivationFunction='hard-sigmoid');", "L", **p)
    x = sequence()
    (y,) = layer_outputs(m.interp, layer, [x])
    zeros = np.zeros((2, 2))
    hs, _, _ = np_lstm(x.data, p["W"], p["R"], p["b"], zeros, zeros,
                       state=lambda z: z / (1 + np.abs(z)), gate=lambda z: np.clip(0.2 * z + 0.5, 0, 1))
    np.testing.assert_allclose(y.data, hs, rtol=1e-5, atol=1e-6)


def test_lstm_single_step_feature_input(m):
    p = lstm_parts()
    layer = m.value("L = lstmLayer(2, InputWeights=W, RecurrentWeights=R, Bias=b);", "L", **p)
    x = DlArray(RNG.standard_normal((3, 2)), "CB")
    (y,) = layer_outputs(m.interp, layer, [x])
    zeros = np.zeros((2, 2))
    _, h, _ = np_lstm(x.data[:, :, None], p["W"], p["R"], p["b"], zeros, zeros)
    assert y.fmt == "CB"
    np.testing.assert_allclose(y.data, h, rtol=1e-5, atol=1e-6)


def test_lstm_states_carry_over_between_passes(m):
    """forward returns the final states; starting the next pass from them continues the sequence."""
    p = lstm_parts()
    layer = m.value("L = lstmLayer(2, InputWeights=W, RecurrentWeights=R, Bias=b);", "L", **p)
    x = sequence(3, 2, 5)
    layer = initialized(m.interp, layer, [x])
    ctx = ForwardContext(m.interp, training=True)
    (whole,), _ = layer.forward([x], ctx)
    (first,), states = layer.forward([DlArray(x.data[:, :, :2], "CBT")], ctx)
    assert set(states) == {"HiddenState", "CellState"}
    assert states["HiddenState"].shape == (2, 2)
    zeros = np.zeros((2, 2))
    _, h, c = np_lstm(x.data[:, :, :2], p["W"], p["R"], p["b"], zeros, zeros)
    np.testing.assert_allclose(states["HiddenState"].data, h, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(states["CellState"].data, c, rtol=1e-5, atol=1e-6)
    rest = layer.copy(**states).predict([DlArray(x.data[:, :, 2:], "CBT")], ctx)[0]
    np.testing.assert_allclose(np.concatenate([first.data, rest.data], axis=2), whole.data, rtol=1e-5,
                               atol=1e-6)


def test_lstm_state_inputs_and_outputs(m):
    p = lstm_parts()
    layer = m.value("L = lstmLayer(2, InputWeights=W, RecurrentWeights=R, Bias=b, HasStateInputs=1, "
                    "HasStateOutputs=1);", "L", **p)
    assert layer.input_names() == ["in", "hidden", "cell"]
    assert layer.output_names() == ["out", "hidden", "cell"]
    x = sequence()
    h0 = DlArray(RNG.standard_normal((2, 2)), "CB")
    c0 = DlArray(RNG.standard_normal((2, 2)), "CB")
    y, h, c = layer_outputs(m.interp, layer, [x, h0, c0])
    hs, hn, cn = np_lstm(x.data, p["W"], p["R"], p["b"], h0.data, c0.data)
    assert (y.fmt, h.fmt, c.fmt) == ("CBT", "CB", "CB")
    np.testing.assert_allclose(y.data, hs, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h.data, hn, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c.data, cn, rtol=1e-5, atol=1e-6)
    layer = initialized(m.interp, layer, [x, h0, c0])
    assert np.size(layer.values["HiddenState"]) == 0  # the states come from the inputs
    assert layer.forward([x, h0, c0], ForwardContext(m.interp, True))[1] == {}


# ------------------------------------------------------------ gradients


def test_lstm_gradients(m):
    layer = m.value("L = lstmLayer(2, HiddenState=[0.1; -0.2], CellState=[0.3; 0]);", "L")
    check_layer_gradients(m.interp, layer, [sequence(3, 2, 3)])


def test_lstm_last_gradients(m):
    layer = m.value("L = lstmLayer(2, OutputMode='last', HiddenState=zeros(2,1), CellState=zeros(2,1));", "L")
    check_layer_gradients(m.interp, layer, [sequence(2, 2, 3)])


def test_lstm_state_input_gradients(m):
    layer = m.value("L = lstmLayer(2, HasStateInputs=1, HasStateOutputs=1);", "L")
    inputs = [sequence(2, 2, 3), DlArray(RNG.standard_normal((2, 2)), "CB"),
              DlArray(RNG.standard_normal((2, 2)), "CB")]
    check_layer_gradients(m.interp, layer, inputs)


@pytest.mark.parametrize("mode", ["after-multiplication", "before-multiplication",
                                  "recurrent-bias-after-multiplication"])
def test_gru_gradients(m, mode):
    layer = m.value(f"L = gruLayer(2, ResetGateMode='{mode}', HiddenState=[0.2; -0.1]);", "L")
    check_layer_gradients(m.interp, layer, [sequence(3, 2, 3)])


# ------------------------------------------------------------ gruLayer


def test_gru_defaults(m):
    layer = m.value("L = gruLayer(10);", "L")
    g = layer.get_property
    assert to_str(g("ResetGateMode")) == "after-multiplication"
    assert to_str(g("BiasInitializer")) == "zeros"
    assert layer.STATES == ("HiddenState",) and layer.LEARNABLES == ("InputWeights", "RecurrentWeights", "Bias")
    assert layer.description() == "GRU with 10 hidden units"
    assert layer.DEFAULT_NAME == "gru" and layer.matlab_class == "nnet.cnn.layer.GRULayer"
    assert m.value("L = gruLayer(3, HasStateInputs=true); n = L.InputNames;", "n").data.shape == (1, 2)
    done = initialized(m.interp, layer, [sequence(4, 1, 2)])
    assert done.values["InputWeights"].shape == (30, 4) and done.values["Bias"].shape == (30, 1)
    assert not np.any(done.values["Bias"])
    wide = initialized(m.interp, m.value("L = gruLayer(2, ResetGateMode='recurrent-bias-after-multiplication');",
                                         "L"), [sequence(4, 1, 2)])
    assert wide.values["Bias"].shape == (12, 1)


@pytest.mark.parametrize("mode", ["after-multiplication", "before-multiplication",
                                  "recurrent-bias-after-multiplication"])
def test_gru_forward_matches_numpy(m, mode):
    n, c = 2, 3
    rows = 6 * n if mode == "recurrent-bias-after-multiplication" else 3 * n
    p = {"W": RNG.standard_normal((3 * n, c)) * 0.5, "R": RNG.standard_normal((3 * n, n)) * 0.5,
         "b": RNG.standard_normal((rows, 1)) * 0.5}
    layer = m.value(f"L = gruLayer(2, ResetGateMode='{mode}', InputWeights=W, RecurrentWeights=R, Bias=b);",
                    "L", **p)
    x = sequence()
    ctx = ForwardContext(m.interp, training=True)
    layer = initialized(m.interp, layer, [x])
    (y,), states = layer.forward([x], ctx)
    hs, h = np_gru(x.data, p["W"], p["R"], p["b"], np.zeros((2, 2)), mode)
    np.testing.assert_allclose(y.data, hs, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(states["HiddenState"].data, h, rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------ embeddingLayer


def test_embedding_defaults_and_initialisation(m):
    layer = m.value("rng(1); E = embeddingLayer(4, 10, Name='emb');", "E")
    g = layer.get_property
    assert float(g("OutputSize")) == 4 and float(g("MaxIndex")) == 10
    assert to_str(g("WeightsInitializer")) == "narrow-normal" and to_str(g("Name")) == "emb"
    assert np.size(g("MaskIndex")) == 0
    assert layer.LEARNABLES == ("Weights",)
    x = DlArray(np.array([[[1.0, 2.0]]]), "CBT")
    done = initialized(m.interp, layer, [x])
    w = done.values["Weights"]
    assert w.shape == (4, 10) and w.dtype == np.float32
    assert 0.001 < float(np.std(w)) < 0.05  # standard deviation 0.01
    again = initialized(m.interp, m.value("rng(1); E = embeddingLayer(4, 10);", "E"), [x])
    np.testing.assert_array_equal(again.values["Weights"], w)
    err = m.fails("E = embeddingLayer(4, 10); E.MaxIndex = 3;")
    assert err.identifier == "MATLAB:class:SetProhibited"


def test_embedding_forward_matches_numpy(m):
    w = RNG.standard_normal((3, 5))
    layer = m.value("E = embeddingLayer(3, 5, Weights=W);", "E", W=w)
    idx = np.array([[1, 4, 2], [5, 5, 3]], dtype=float)  # batch 2, 3 steps
    x = DlArray(idx.reshape(1, 2, 3), "CBT")
    (y,) = layer_outputs(m.interp, layer, [x])
    assert y.fmt == "CBT" and y.shape == (3, 2, 3)
    expected = w[:, idx.astype(int) - 1]  # (3, 2, 3)
    np.testing.assert_allclose(y.data, expected)


def test_embedding_mask_index(m):
    w = RNG.standard_normal((2, 4))
    layer = m.value("E = embeddingLayer(2, 4, Weights=W, MaskIndex=4);", "E", W=w)
    idx = np.array([[1.0, 4.0, 2.0]])
    (y,) = layer_outputs(m.interp, layer, [DlArray(idx.reshape(1, 1, 3), "CBT")])
    expected = w[:, [0, 3, 1]]
    expected[:, 1] = 0
    np.testing.assert_allclose(y.data.reshape(2, 3), expected)


def test_embedding_gradients_and_bad_indices(m):
    layer = m.value("E = embeddingLayer(3, 4);", "E")
    x = DlArray(np.array([1.0, 3.0, 3.0, 2.0]).reshape(1, 2, 2), "CBT")
    check_layer_gradients(m.interp, layer, [x], check_inputs=False)
    with pytest.raises(Exception) as info:
        layer_outputs(m.interp, layer, [DlArray(np.array([1.0, 7.0]).reshape(1, 1, 2), "CBT")])
    assert info.value.identifier == "deep:embed:InvalidIndices"
    assert layer.description() == "Embedding layer with output size 3 and maximum index 4"


def test_reset_state_returns_to_the_initial_states(m):
    layer = m.value("L = lstmLayer(2, HiddenState=[1; 2]);", "L")
    assert layer.reset_state() is layer  # not initialised: nothing to reset
    x = sequence(3, 1, 3)
    layer = initialized(m.interp, layer, [x])
    _, states = layer.forward([x], ForwardContext(m.interp, training=False))
    moved = layer.copy(**states)
    assert not np.allclose(np.asarray(moved.values["HiddenState"].data).ravel(), [1, 2])
    back = moved.reset_state()
    # held as dlarrays, as the states it replaces were
    assert type(back.values["HiddenState"]) is DlArray
    np.testing.assert_array_equal(back.values["HiddenState"].data.ravel(), [1, 2])
    np.testing.assert_array_equal(back.values["CellState"].data, np.zeros((2, 1), np.float32))
    # assigning a state to the layer also sets where resetState goes back to
    again = moved.set_property("CellState", np.array([[3.0], [4.0]])).reset_state()
    np.testing.assert_array_equal(np.asarray(again.values["CellState"]).ravel(), [3, 4])
    np.testing.assert_array_equal(again.values["HiddenState"].data.ravel(), [1, 2])


# ------------------------------------------------------------ displays

LSTM_DISPLAY = """
L =\x20

  LSTMLayer with properties:

                       Name: 'lstm1'
                 InputNames: {'in'}
                OutputNames: {'out'}
                  NumInputs: 1
                 NumOutputs: 1
             HasStateInputs: 0
            HasStateOutputs: 0

   Hyperparameters
                  InputSize: 'auto'
             NumHiddenUnits: 100
                 OutputMode: 'sequence'
    StateActivationFunction: 'tanh'
     GateActivationFunction: 'sigmoid'

   Learnable Parameters
               InputWeights: []
           RecurrentWeights: []
                       Bias: []

   State Parameters
                HiddenState: []
                  CellState: []

  Show all properties

"""

GRU_DISPLAY = """
G =\x20

  GRULayer with properties:

                       Name: ''
                 InputNames: {'in'  'hidden'}
                OutputNames: {'out'}
                  NumInputs: 2
                 NumOutputs: 1
             HasStateInputs: 1
            HasStateOutputs: 0

   Hyperparameters
                  InputSize: 'auto'
             NumHiddenUnits: 10
                 OutputMode: 'last'
    StateActivationFunction: 'tanh'
     GateActivationFunction: 'sigmoid'
              ResetGateMode: 'after-multiplication'

   Learnable Parameters
               InputWeights: []
           RecurrentWeights: []
                       Bias: []

   State Parameters
                HiddenState: []

  Show all properties

"""

EMBEDDING_DISPLAY = """
E =\x20

  EmbeddingLayer with properties:

          Name: 'emb'

   Hyperparameters
    OutputSize: 300
      MaxIndex: 5000
     MaskIndex: []

   Learnable Parameters
       Weights: []

  Show all properties

"""

ARRAY_DISPLAY = """
layers =\x20

  3×1 Layer array with layers:

     1   ''      LSTM        LSTM with 100 hidden units
     2   'gru'   GRU         GRU with 10 hidden units
     3   ''      Embedding   Embedding layer with output size 3 and maximum index 4

"""


def test_displays(m):
    assert m.run("L = lstmLayer(100, Name='lstm1')") == LSTM_DISPLAY
    assert m.run("G = gruLayer(10, OutputMode='last', HasStateInputs=true)") == GRU_DISPLAY
    assert m.run("E = embeddingLayer(300, 5000, Name=\"emb\")") == EMBEDDING_DISPLAY
    assert m.run("layers = [lstmLayer(100); gruLayer(10, Name='gru'); embeddingLayer(3, 4)]") == ARRAY_DISPLAY


def test_initialised_layer_display_shows_sizes(m):
    layer = initialized(m.interp, m.value("L = lstmLayer(4);", "L"), [sequence(3, 1, 2)])
    out = m.run("disp(L)", L=layer)
    assert "               InputWeights: [16×3 single]\n" in out
    assert "                  InputSize: 3\n" in out
    assert "                HiddenState: [4×1 single]\n" in out


# ------------------------------------------------------------ in a network


def test_lstm_in_a_network(m):
    code = """
    rng(0);
    X = dlarray(rand(3, 2, 5), 'CBT');
    net = dlnetwork(lstmLayer(4, OutputMode='last'), X);
    [Y, state] = forward(net, X);
    names = state.Parameter;
    hidden = extractdata(state.Value{1});
    net2 = resetState(net);
    Y2 = predict(net2, X);
    [loss, g] = dlfeval(@(n, x) deal(sum(forward(n, x), 'all'), dlgradient(sum(forward(n, x), 'all'), ...
        n.Learnables)), net, X);
    gsize = size(g.Value{2});
    """
    y, names, hidden, y2, gsize = m.values(code, "Y", "names", "hidden", "Y2", "gsize")
    assert y.fmt == "CB" and y.shape == (4, 2)
    assert [str(n) for n in names.data.ravel()] == ["HiddenState", "CellState"]
    np.testing.assert_allclose(hidden, y.data)  # the last hidden state is the 'last' output
    np.testing.assert_allclose(y2.data, y.data)
    assert tuple(np.ravel(gsize)) == (16, 4)


def test_embedding_and_gru_in_a_network_from_an_input_layer(m):
    """The network initialises from the input layer's all-zero example (not valid indices)."""
    code = """
    rng(2);
    net = dlnetwork([sequenceInputLayer(1); embeddingLayer(4, 10); gruLayer(3, OutputMode='last')]);
    X = dlarray([1 5 10; 2 2 7], 'BT');
    X = dlarray(reshape(extractdata(X), 1, 2, 3), 'CBT');
    Y = predict(net, X);
    W = net.Learnables.Value{1};
    """
    y, w = m.values(code, "Y", "W")
    assert y.fmt == "CB" and y.shape == (3, 2)
    assert w.shape == (4, 10)
    err = m.fails("E = embeddingLayer(4, 10); net = dlnetwork([sequenceInputLayer(1); E]); "
                  "predict(net, dlarray(zeros(1, 1, 2) + 11, 'CBT'))")
    assert err.identifier == "deep:embed:InvalidIndices"


def test_input_format_errors_and_spatial_input(m):
    layer = m.value("L = lstmLayer(2);", "L")
    with pytest.raises(Exception) as info:
        initialized(m.interp, layer, [DlArray(np.zeros((3, 2)), "UB")])
    assert info.value.identifier == "nnet_cnn:layer:InvalidInputFormat"
    done = initialized(m.interp, layer, [DlArray(np.zeros((2, 3, 1, 4)), "SCBT")])
    assert float(done.values["InputSize"]) == 6  # spatial sizes times channels
    with pytest.raises(Exception) as info:
        done.predict([np.zeros((6, 1))], ForwardContext(m.interp, False))
    assert info.value.identifier == "nnet_cnn:layer:InvalidInputFormat"


def test_a_forward_pass_state_is_assigned_back_to_the_network(m):
    # MATLAB's custom loops write the recurrent state of the last batch back: net.State = state
    code = """
    rng(0);
    net = dlnetwork([sequenceInputLayer(3); lstmLayer(4, OutputMode="last")]);
    X = dlarray(rand(3, 5, 7), 'CBT');
    [Y, state] = forward(net, X);
    net.State = state;
    h = extractdata(net.State.Value{1});
    """
    h, y = m.values(code, "h", "Y")
    assert h.shape == (4, 5)
    assert np.allclose(h, y.data)  # the last hidden state is the 'last' output
