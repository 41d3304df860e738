"""lstm and gru against direct NumPy loops: values, formats, options and errors."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _hard_sigmoid(x):
    return np.clip(0.2 * x + 0.5, 0, 1)


def _softsign(x):
    return x / (1 + np.abs(x))


STATE = {"tanh": np.tanh, "softsign": _softsign, "relu": lambda x: np.maximum(x, 0)}
GATE = {"sigmoid": _sigmoid, "hard-sigmoid": _hard_sigmoid}


def np_lstm(x, h, c, w, r, b, state="tanh", gate="sigmoid"):
    """x: (C, B, T); h, c: (H, B); returns Y (H, B, T), h, c."""
    s, g = STATE[state], GATE[gate]
    n = r.shape[1]
    ys = []
    for t in range(x.shape[2]):
        z = w @ x[:, :, t] + r @ h + b
        i, f, cc, o = g(z[:n]), g(z[n:2 * n]), s(z[2 * n:3 * n]), g(z[3 * n:])
        c = f * c + i * cc
        h = o * s(c)
        ys.append(h)
    return np.stack(ys, axis=2), h, c


def np_gru(x, h, w, r, b, mode="after-multiplication", state="tanh", gate="sigmoid"):
    s, g = STATE[state], GATE[gate]
    n = r.shape[1]
    bw, br = (b[:3 * n], b[3 * n:]) if mode == "recurrent-bias-after-multiplication" else (b, 0 * b)
    ys = []
    for t in range(x.shape[2]):
        px = w @ x[:, :, t] + bw
        rh = r @ h + br
        reset = g(px[:n] + rh[:n])
        update = g(px[n:2 * n] + rh[n:2 * n])
        if mode == "before-multiplication":
            cand = s(px[2 * n:] + r[2 * n:] @ (reset * h))
        else:
            cand = s(px[2 * n:] + reset * rh[2 * n:])
        h = (1 - update) * cand + update * h
        ys.append(h)
    return np.stack(ys, axis=2), h


def _rand(rng, *shape):
    return rng.standard_normal(shape) * 0.7


@pytest.fixture
def lstm_data():
    rng = np.random.default_rng(1)
    C, B, T, H = 3, 4, 5, 2
    return dict(X=_rand(rng, C, B, T), H0=_rand(rng, H, 1), C0=_rand(rng, H, 1),
                W=_rand(rng, 4 * H, C), R=_rand(rng, 4 * H, H), b=_rand(rng, 4 * H, 1))


def _data(v):
    return v.data if type(v) is DlArray else np.asarray(v)


def test_lstm_matches_numpy(m, lstm_data):
    y, hs, cs = m.values("""
    [y, hs, cs] = lstm(dlarray(X, 'CBT'), H0, C0, dlarray(W, 'CU'), dlarray(R, 'CU'), dlarray(b, 'C'));
    """, "y", "hs", "cs", **lstm_data)
    d = lstm_data
    B = d["X"].shape[1]
    want_y, want_h, want_c = np_lstm(d["X"], np.tile(d["H0"], B), np.tile(d["C0"], B), d["W"], d["R"], d["b"])
    assert y.fmt == "CBT" and y.data.shape == (2, 4, 5)
    np.testing.assert_allclose(y.data, want_y, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(_data(hs), want_h, rtol=1e-12)
    np.testing.assert_allclose(_data(cs), want_c, rtol=1e-12)
    # numeric initial states give unformatted states
    assert type(hs) is DlArray and hs.fmt == "" and cs.fmt == ""


def test_lstm_formatted_states_are_cb(m, lstm_data):
    hs, cs = m.values("""
    B = size(X, 2);
    [~, hs, cs] = lstm(dlarray(X, 'CBT'), dlarray(repmat(H0, 1, B), 'CB'), dlarray(C0, 'C'), W, R, b);
    """, "hs", "cs", **lstm_data)
    assert hs.fmt == "CB" and cs.fmt == "CB"
    assert hs.data.shape == (2, 4)


@pytest.mark.parametrize("state", ["softsign", "relu"])
@pytest.mark.parametrize("gate", ["sigmoid", "hard-sigmoid"])
def test_lstm_activation_options(m, lstm_data, state, gate):
    y = m.value(f"""
    y = lstm(dlarray(X, 'CBT'), H0, C0, W, R, b, StateActivationFunction="{state}", ...
             GateActivationFunction='{gate}');
    """, "y", **lstm_data)
    d = lstm_data
    want, _, _ = np_lstm(d["X"], np.tile(d["H0"], 4), np.tile(d["C0"], 4), d["W"], d["R"], d["b"],
                         state, gate)
    np.testing.assert_allclose(y.data, want, rtol=1e-12, atol=1e-14)


def test_lstm_data_format_keeps_the_given_order(m, lstm_data):
    """An unformatted 'CTB' input: output unformatted, channels by time by batch."""
    d = lstm_data
    xtb = np.transpose(d["X"], (0, 2, 1)).copy()
    y = m.value("y = lstm(dlarray(Xtb), H0, C0, W, R, b, 'DataFormat', 'CTB');", "y", Xtb=xtb, **d)
    want, _, _ = np_lstm(d["X"], np.tile(d["H0"], 4), np.tile(d["C0"], 4), d["W"], d["R"], d["b"])
    assert y.fmt == ""
    np.testing.assert_allclose(y.data, np.transpose(want, (0, 2, 1)), rtol=1e-12, atol=1e-14)


def test_lstm_single_step_and_no_batch(m, lstm_data):
    d = lstm_data
    y1, h1 = m.values("[y1, h1] = lstm(dlarray(X(:, :, 1), 'CB'), H0, C0, W, R, b);", "y1", "h1", **d)
    want, _, _ = np_lstm(d["X"][:, :, :1], np.tile(d["H0"], 4), np.tile(d["C0"], 4), d["W"], d["R"], d["b"])
    assert y1.fmt == "CB"
    np.testing.assert_allclose(y1.data, want[:, :, 0], rtol=1e-12)
    np.testing.assert_allclose(h1.data, want[:, :, 0], rtol=1e-12)
    y2 = m.value("y2 = lstm(dlarray(squeeze(X(:, 2, :)), 'CT'), H0, C0, W, R, b);", "y2", **d)
    want2, _, _ = np_lstm(d["X"][:, 1:2, :], d["H0"], d["C0"], d["W"], d["R"], d["b"])
    assert y2.fmt == "CT"
    np.testing.assert_allclose(y2.data, want2[:, 0, :], rtol=1e-12)


def test_lstm_spatial_input_is_flattened_with_channels(m):
    rng = np.random.default_rng(4)
    x = _rand(rng, 2, 3, 4, 2)  # S C B T
    H = 2
    w, r, b = _rand(rng, 4 * H, 6), _rand(rng, 4 * H, H), _rand(rng, 4 * H, 1)
    y = m.value("y = lstm(dlarray(X, 'SCBT'), zeros(2, 1), zeros(2, 1), dlarray(W), R, b);", "y",
                X=x, W=w, R=r, b=b)
    flat = x.reshape(6, 4, 2, order="F")
    want, _, _ = np_lstm(flat, np.zeros((H, 4)), np.zeros((H, 4)), w, r, b)
    assert y.fmt == "CBT"
    np.testing.assert_allclose(y.data, want, rtol=1e-12)


def test_lstm_single_precision(m, lstm_data):
    y, hs = m.values("[y, hs] = lstm(dlarray(single(X), 'CBT'), H0, C0, W, R, b);", "y", "hs", **lstm_data)
    assert y.data.dtype == np.float32 and hs.data.dtype == np.float32
    d = lstm_data
    want, _, _ = np_lstm(d["X"], np.tile(d["H0"], 4), np.tile(d["C0"], 4), d["W"], d["R"], d["b"])
    np.testing.assert_allclose(y.data, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", ["after-multiplication", "before-multiplication",
                                  "recurrent-bias-after-multiplication"])
def test_gru_matches_numpy(m, mode):
    rng = np.random.default_rng(2)
    C, B, T, H = 3, 2, 4, 3
    nb = 6 * H if mode.startswith("recurrent") else 3 * H
    d = dict(X=_rand(rng, C, B, T), H0=_rand(rng, H, B), W=_rand(rng, 3 * H, C), R=_rand(rng, 3 * H, H),
             b=_rand(rng, nb, 1))
    y, hs = m.values(f"[y, hs] = gru(dlarray(X, 'CBT'), H0, W, R, dlarray(b), 'ResetGateMode', '{mode}');",
                     "y", "hs", **d)
    want, want_h = np_gru(d["X"], d["H0"], d["W"], d["R"], d["b"], mode)
    assert y.fmt == "CBT" and hs.fmt == ""
    np.testing.assert_allclose(y.data, want, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(hs.data, want_h, rtol=1e-12, atol=1e-14)


def test_gru_activation_options_and_formatted_state(m):
    rng = np.random.default_rng(3)
    d = dict(X=_rand(rng, 2, 3, 3), H0=_rand(rng, 2, 1), W=_rand(rng, 6, 2), R=_rand(rng, 6, 2),
             b=_rand(rng, 6, 1))
    y, hs = m.values("""[y, hs] = gru(dlarray(X, 'CBT'), dlarray(H0, 'CB'), W, R, b, ...
        StateActivationFunction='softsign', GateActivationFunction='hard-sigmoid');""", "y", "hs", **d)
    want, want_h = np_gru(d["X"], np.tile(d["H0"], 3), d["W"], d["R"], d["b"], state="softsign",
                          gate="hard-sigmoid")
    np.testing.assert_allclose(y.data, want, rtol=1e-12, atol=1e-14)
    assert hs.fmt == "CB"
    np.testing.assert_allclose(hs.data, want_h, rtol=1e-12, atol=1e-14)


def test_documented_sizes(m):
    out = m.run("""
    X = dlarray(randn(10, 32, 64), "CBT");
    H0 = zeros(3, 1); C0 = zeros(3, 1);
    weights = dlarray(randn(12, 10), "CU");
    recurrentWeights = dlarray(randn(12, 3), "CU");
    bias = dlarray(randn(12, 1), "C");
    [Y, hiddenState, cellState] = lstm(X, H0, C0, weights, recurrentWeights, bias);
    disp(size(Y)), disp(dims(Y)), disp(size(hiddenState)), disp(size(cellState))
    [Y, hiddenState] = gru(X, zeros(100, 1), dlarray(randn(300, 10)), randn(300, 100), randn(300, 1));
    disp(size(Y)), disp(dims(Y)), disp(size(hiddenState))
    """)
    assert out == ("     3    32    64\n\nCBT\n     3    32\n\n     3    32\n\n"
                   "   100    32    64\n\nCBT\n   100    32\n\n")


def test_gradients_flow_to_every_input(m, lstm_data):
    """d/dW of sum(Y) through dlfeval equals central differences of the NumPy loop."""
    d = lstm_data
    g = m.value("""
    g = dlfeval(@(w) dlgradient(sum(lstm(dlarray(X, 'CBT'), H0, C0, w, R, b), 'all'), w), dlarray(W));
    """, "g", **d)
    B = d["X"].shape[1]
    eps = 1e-6
    want = np.zeros_like(d["W"])
    for k in range(d["W"].size):
        idx = np.unravel_index(k, d["W"].shape)
        vals = []
        for s in (1, -1):
            w = d["W"].copy()
            w[idx] += s * eps
            vals.append(np_lstm(d["X"], np.tile(d["H0"], B), np.tile(d["C0"], B), w, d["R"], d["b"])[0].sum())
        want[idx] = (vals[0] - vals[1]) / (2 * eps)
    np.testing.assert_allclose(g.data, want, rtol=1e-6, atol=1e-8)


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("code, identifier", [
    ("lstm(randn(3, 2), zeros(2, 1), zeros(2, 1), randn(8, 3), randn(8, 2), randn(8, 1))",
     "MATLAB:UndefinedFunction"),
    ("lstm(dlarray(randn(3, 2)), zeros(2, 1), zeros(2, 1), randn(8, 3), randn(8, 2), randn(8, 1))",
     "deep:dlarray:UnformattedInput"),
    ("lstm(dlarray(randn(3, 2), 'CB'), zeros(2, 1), zeros(2, 1), randn(8, 4), randn(8, 2), randn(8, 1))",
     "deep:lstm:InvalidWeightsSize"),
    ("lstm(dlarray(randn(3, 2), 'CB'), zeros(2, 1), zeros(2, 1), randn(8, 3), randn(7, 2), randn(8, 1))",
     "deep:lstm:InvalidRecurrentWeightsSize"),
    ("lstm(dlarray(randn(3, 2), 'CB'), zeros(2, 1), zeros(2, 1), randn(8, 3), randn(8, 2), randn(6, 1))",
     "deep:lstm:InvalidBiasSize"),
    ("lstm(dlarray(randn(3, 2), 'CB'), zeros(3, 1), zeros(2, 1), randn(8, 3), randn(8, 2), randn(8, 1))",
     "deep:lstm:InvalidStateSize"),
    ("lstm(dlarray(randn(3, 2), 'CB'), zeros(2, 1), zeros(2, 1), randn(8, 3), randn(8, 2), randn(8, 1), "
     "'StateActivationFunction', 'sigmoid')", "deep:lstm:InvalidStateActivationFunction"),
    ("lstm(dlarray(randn(3, 2), 'CB'), zeros(2, 1), zeros(2, 1), randn(8, 3), randn(8, 2), randn(8, 1), "
     "'Bogus', 1)", "MATLAB:InputParser:UnmatchedParameter"),
    ("gru(dlarray(randn(3, 2), 'CB'), zeros(2, 1), randn(6, 3), randn(6, 2), randn(6, 1), "
     "'ResetGateMode', 'sideways')", "deep:gru:InvalidResetGateMode"),
    ("gru(dlarray(randn(3, 2), 'CB'), zeros(2, 1), randn(6, 3), randn(6, 2), randn(6, 1), "
     "'ResetGateMode', 'recurrent-bias-after-multiplication')", "deep:gru:InvalidBiasSize"),
    ("gru(dlarray(randn(3, 2), 'CB'), zeros(2, 1), randn(6, 3), randn(6, 2), randn(6, 1), "
     "'GateActivationFunction', 'tanh')", "deep:gru:InvalidGateActivationFunction"),
])
def test_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier
