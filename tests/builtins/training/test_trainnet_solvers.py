"""trainnet's updates against the custom-loop optimizers, L2 regularisation, gradient
clipping, input normalisation statistics, metrics and the output network."""

from __future__ import annotations

import numpy as np
import pytest

LOSS_FILE = """function [loss, g] = lossfun(net, X, T)
Y = forward(net, dlarray(X', "CB"));
loss = l2loss(Y, dlarray(T', "CB"), NormalizationFactor="all-elements");
g = dlgradient(loss, net.Learnables);
end
"""

SETUP = """
rng(0);
net0 = dlnetwork([featureInputLayer(2) fullyConnectedLayer(1)]);
X = single([1 2; 3 4; 5 6]); T = single([1; 2; 3]);
[~, g] = dlfeval(@lossfun, net0, X, T);
"""


@pytest.fixture
def here(m, tmp_path, monkeypatch):
    (tmp_path / "lossfun.m").write_text(LOSS_FILE)
    monkeypatch.chdir(tmp_path)
    m.interp.invalidate()
    return m


def learnables(net) -> list[np.ndarray]:
    return [np.asarray(v.data) for v in net.learnable_values()]


def compare(a, b) -> None:
    for x, y in zip(learnables(a), learnables(b), strict=True):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("solver, update", [
    ("adam", "adamupdate(net0, g, [], [], 1, 0.001)"),
    ("sgdm", "sgdmupdate(net0, g, [], 0.01, 0.9)"),
    ("rmsprop", "rmspropupdate(net0, g, [], 0.001, 0.9, 1e-8)"),
])
def test_one_step_matches_the_custom_loop_optimizer(here, solver, update):
    code = SETUP + f"""
    opts = trainingOptions("{solver}", MaxEpochs=1, MiniBatchSize=3, L2Regularization=0, ...
        Shuffle="never", Verbose=false);
    net1 = trainnet(X, T, net0, "mse", opts);
    net2 = {update};
    """
    net1, net2 = here.values(code, "net1", "net2")
    compare(net1, net2)


def test_two_sgdm_steps_use_the_velocity(here):
    code = SETUP + """
    X = [X; X]; T = [T; T];
    opts = trainingOptions("sgdm", MaxEpochs=1, MiniBatchSize=3, L2Regularization=0, ...
        Shuffle="never", Verbose=false);
    net1 = trainnet(X, T, net0, "mse", opts);
    [a, v] = sgdmupdate(net0, g, [], 0.01, 0.9);
    [~, g2] = dlfeval(@lossfun, a, X(1:3,:), T(1:3));
    net2 = sgdmupdate(a, g2, v, 0.01, 0.9);
    """
    net1, net2 = here.values(code, "net1", "net2")
    compare(net1, net2)


def test_l2_regularization_applies_to_weights_only(here):
    code = SETUP + """
    opts = trainingOptions("sgdm", MaxEpochs=1, MiniBatchSize=3, L2Regularization=0.1, ...
        Shuffle="never", Verbose=false);
    net1 = trainnet(X, T, net0, "mse", opts);
    W0 = extractdata(net0.Learnables.Value{1}); b0 = extractdata(net0.Learnables.Value{2});
    gW = extractdata(g.Value{1}); gb = extractdata(g.Value{2});
    """
    net1, w0, b0, gw, gb = here.values(code, "net1", "W0", "b0", "gW", "gb")
    w1, b1 = learnables(net1)
    np.testing.assert_allclose(w1, w0 - 0.01 * (gw + 0.1 * w0), rtol=1e-5)
    np.testing.assert_allclose(b1, b0 - 0.01 * gb, rtol=1e-5)


def test_gradient_threshold_clips_each_learnable(here):
    code = SETUP + """
    opts = trainingOptions("sgdm", MaxEpochs=1, MiniBatchSize=3, L2Regularization=0, ...
        GradientThreshold=0.5, Shuffle="never", Verbose=false);
    net1 = trainnet(X, T, net0, "mse", opts);
    W0 = extractdata(net0.Learnables.Value{1}); gW = extractdata(g.Value{1});
    """
    net1, w0, gw = here.values(code, "net1", "W0", "gW")
    norm = np.linalg.norm(gw)
    assert norm > 0.5
    np.testing.assert_allclose(learnables(net1)[0], w0 - 0.01 * gw * (0.5 / norm), rtol=1e-5)


def test_absolute_value_threshold(here):
    code = SETUP + """
    opts = trainingOptions("sgdm", MaxEpochs=1, MiniBatchSize=3, L2Regularization=0, ...
        GradientThreshold=0.5, GradientThresholdMethod="absolute-value", Shuffle="never", ...
        Verbose=false);
    net1 = trainnet(X, T, net0, "mse", opts);
    W0 = extractdata(net0.Learnables.Value{1}); gW = extractdata(g.Value{1});
    """
    net1, w0, gw = here.values(code, "net1", "W0", "gW")
    np.testing.assert_allclose(learnables(net1)[0], w0 - 0.01 * np.clip(gw, -0.5, 0.5), rtol=1e-5)


def test_learn_rate_factor_scales_the_step(here):
    code = SETUP + """
    net0 = dlnetwork([featureInputLayer(2) fullyConnectedLayer(1, WeightLearnRateFactor=0)]);
    opts = trainingOptions("sgdm", MaxEpochs=1, MiniBatchSize=3, L2Regularization=0, ...
        Verbose=false);
    net1 = trainnet(X, T, net0, "mse", opts);
    """
    net0, net1 = here.values(code, "net0", "net1")
    np.testing.assert_array_equal(learnables(net1)[0], learnables(net0)[0])
    assert not np.array_equal(learnables(net1)[1], learnables(net0)[1])


# ------------------------------------------------------------------ input statistics


def test_zscore_statistics_come_from_the_training_data(m):
    code = """
    rng(0);
    X = randn(30, 3) .* [1 2 3] + [10 20 30]; T = sum(X, 2);
    layers = [featureInputLayer(3, Normalization="zscore") fullyConnectedLayer(1)];
    opts = trainingOptions("adam", MaxEpochs=1, Verbose=false);
    net = trainnet(X, T, layers, "mse", opts);
    mu = net.Layers(1).Mean; sd = net.Layers(1).StandardDeviation;
    """
    x, mu, sd = m.values(code, "X", "mu", "sd")
    np.testing.assert_allclose(mu.reshape(-1), x.mean(axis=0), rtol=1e-5)
    np.testing.assert_allclose(sd.reshape(-1), x.std(axis=0), rtol=1e-4)
    assert mu.shape == (3, 1)


def test_image_statistics_are_per_channel(m):
    code = """
    X = rand(3, 3, 2, 5); X(:, :, 2, :) = X(:, :, 2, :) + 5;
    layers = [imageInputLayer([3 3 2]) convolution2dLayer(3, 1) fullyConnectedLayer(1)];
    opts = trainingOptions("adam", MaxEpochs=1, Verbose=false);
    net = trainnet(X, squeeze(mean(X, [1 2 3])), layers, "mse", opts);
    mu = net.Layers(1).Mean;
    """
    x, mu = m.values(code, "X", "mu")
    assert mu.shape == (1, 1, 2)
    np.testing.assert_allclose(mu.reshape(-1), x.mean(axis=(0, 1, 3)), rtol=1e-5)


def test_reset_input_normalization_false_keeps_given_statistics(m):
    code = """
    X = rand(10, 2); T = rand(10, 1);
    layers = [featureInputLayer(2, Normalization="zerocenter", Mean=[1; 2]) fullyConnectedLayer(1)];
    opts = trainingOptions("adam", MaxEpochs=1, Verbose=false, ResetInputNormalization=false);
    net = trainnet(X, T, layers, "mse", opts);
    mu = net.Layers(1).Mean;
    """
    np.testing.assert_array_equal(np.asarray(m.value(code, "mu")).reshape(-1), [1, 2])


# ------------------------------------------------------------------ metrics, output network


def test_accuracy_metric_in_history_and_table(m):
    code = """
    rng(1);
    X = [randn(20,2)+2; randn(20,2)-2];
    T = categorical([repmat("a",20,1); repmat("b",20,1)]);
    layers = [featureInputLayer(2) fullyConnectedLayer(2) softmaxLayer];
    opts = trainingOptions("adam", MaxEpochs=20, MiniBatchSize=40, InitialLearnRate=0.05, ...
        Metrics="accuracy", ValidationData={X, T}, ValidationFrequency=10, VerboseFrequency=10);
    [net, info] = trainnet(X, T, layers, "crossentropy", opts);
    h = info.TrainingHistory; v = info.ValidationHistory;
    """
    out = m.run(code)
    h, v = m.interp.base.vars["h"], m.interp.base.vars["v"]
    assert h.names == ["Iteration", "Epoch", "LearnRate", "Loss", "Accuracy"]
    assert v.names == ["Iteration", "Loss", "Accuracy"]
    assert out.splitlines()[0].split() == [
        "Iteration", "Epoch", "TimeElapsed", "LearnRate", "TrainingLoss", "ValidationLoss",
        "TrainingAccuracy", "ValidationAccuracy"]
    acc = np.asarray(h.variable("Accuracy")).reshape(-1)
    assert acc[-1] == 100
    assert np.all((acc >= 0) & (acc <= 100))


def test_unknown_metric_is_an_error(m):
    err = m.fails("""
    x = rand(4, 1);
    opts = trainingOptions("adam", MaxEpochs=1, Verbose=false, Metrics="nope");
    trainnet(x, x, [featureInputLayer(1) fullyConnectedLayer(1)], "mse", opts);
    """)
    assert err.identifier == "deep:trainnet:UnsupportedMetric"


def test_output_network_last_iteration(m):
    code = """
    x = rand(8, 1); y = 2*x;
    opts = trainingOptions("sgdm", MaxEpochs=4, MiniBatchSize=8, ValidationData={x, -y}, ...
        ValidationFrequency=1, OutputNetwork="last-iteration", Verbose=false);
    [~, info] = trainnet(x, y, [featureInputLayer(1) fullyConnectedLayer(1)], "mse", opts);
    """
    assert m.value(code, "info").output_iteration == 4


# ------------------------------------------------------------------ output functions


def test_output_function_stops_training(m, tmp_path, monkeypatch):
    (tmp_path / "stopper.m").write_text(
        "function stop = stopper(info)\nstop = info.Iteration >= 3;\nend\n")
    (tmp_path / "shower.m").write_text(
        'function shower(info)\nfprintf("%s %d\\n", info.State, info.Iteration);\nend\n')
    monkeypatch.chdir(tmp_path)
    m.interp.invalidate()
    code = """
    x = rand(8, 1); y = 2*x;
    opts = trainingOptions("adam", MaxEpochs=10, MiniBatchSize=4, Verbose=false, ...
        OutputFcn={@shower, @stopper});
    [~, info] = trainnet(x, y, [featureInputLayer(1) fullyConnectedLayer(1)], "mse", opts);
    """
    out = m.run(code)
    info = m.interp.base.vars["info"]
    assert info.stop_reason == "Stopped by OutputFcn"
    assert info.output_iteration == 3
    assert out.splitlines() == ["start 0", "iteration 1", "iteration 2", "iteration 3", "done 3"]


def test_output_function_must_be_a_handle(m):
    err = m.fails("""
    x = rand(4, 1);
    opts = trainingOptions("adam", MaxEpochs=1, Verbose=false);
    opts.OutputFcn = {@disp, 3};
    trainnet(x, x, [featureInputLayer(1) fullyConnectedLayer(1)], "mse", opts);
    """)
    assert err.identifier in ("deep:trainnet:InvalidOutputFcn", "MATLAB:trainingOptions:invalidType")
