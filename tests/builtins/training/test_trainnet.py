"""trainnet: the solvers lower the loss, reproducibly; data layouts, losses, verbose table,
TrainingInfo and errors."""

from __future__ import annotations

import re

import numpy as np
import pytest

from mlang.builtins.training.training_info import TrainingInfo, number_text
from mlang.values.table import Table

SINE = """
rng(0);
x = linspace(-3, 3, 40)';
y = sin(x);
layers = [featureInputLayer(1) fullyConnectedLayer(16) tanhLayer fullyConnectedLayer(1)];
opts = trainingOptions("adam", MaxEpochs=200, MiniBatchSize=40, InitialLearnRate=0.02, ...
    Verbose=false);
[net, info] = trainnet(x, y, layers, "mse", opts);
yp = predict(net, x);
err = mean((double(yp) - y).^2);
loss = info.TrainingHistory.Loss;
"""

CLASSES = """
rng(1);
X = [randn(40,2)+1.5; randn(40,2)-1.5];
T = categorical([repmat("pos",40,1); repmat("neg",40,1)]);
layers = [featureInputLayer(2) fullyConnectedLayer(8) reluLayer fullyConnectedLayer(2) softmaxLayer];
"""


def history(info: TrainingInfo, name: str) -> np.ndarray:
    table = info.training_history
    assert isinstance(table, Table)
    return np.asarray(table.variable(name)).reshape(-1)


def test_sine_regression_reaches_a_low_loss(m):
    err, loss, info = m.values(SINE, "err", "loss", "info")
    assert err < 0.01
    assert loss.shape == (200, 1)
    assert loss[-1, 0] < 0.01 < loss[0, 0]
    assert info.stop_reason == "Max epochs completed"
    assert info.output_iteration == 200
    assert history(info, "Epoch")[-1] == 200
    assert history(info, "LearnRate")[0] == pytest.approx(0.02)


def test_rng_makes_a_run_reproducible(m):
    first = m.value(SINE, "loss")
    second = m.value(SINE, "loss")
    np.testing.assert_array_equal(first, second)


def test_learnables_are_single_and_network_initialized(m):
    net = m.value(SINE, "net")
    assert net.initialized
    assert all(v.data.dtype == np.float32 for v in net.learnable_values())


@pytest.mark.parametrize("solver, extra", [
    ("sgdm", ", InitialLearnRate=0.05"),
    ("rmsprop", ", InitialLearnRate=0.01"),
    ("adam", ", InitialLearnRate=0.01"),
])
def test_classification_with_categorical_targets(m, solver, extra):
    code = CLASSES + f"""
    opts = trainingOptions("{solver}", MaxEpochs=15, MiniBatchSize=20, Verbose=false{extra});
    [net, info] = trainnet(X, T, layers, "crossentropy", opts);
    scores = minibatchpredict(net, X);
    acc = mean(scores2label(scores, categories(T)) == T);
    """
    info, acc, scores = m.values(code, "info", "acc", "scores")
    loss = history(info, "Loss")
    assert len(loss) == 15 * 4  # 80 observations, mini-batches of 20
    assert loss[-4:].mean() < loss[:4].mean()
    assert acc > 0.9
    assert scores.shape == (80, 2)
    np.testing.assert_allclose(scores.sum(axis=1), 1, rtol=1e-5)


def test_one_hot_order_follows_categories(m):
    # a network whose output is its input: the loss is lowest when the columns match
    # the categories in order ("a" then "b"), whatever order the data lists them in
    code = """
    T = categorical(["b"; "a"; "b"], ["a" "b"]);
    X = single([0.1 0.9; 0.9 0.1; 0.1 0.9]);
    net = dlnetwork([featureInputLayer(2) softmaxLayer]);
    opts = trainingOptions("sgdm", MaxEpochs=1, MiniBatchSize=3, Verbose=false);
    [~, info] = trainnet(X, T, net, "crossentropy", opts);
    """
    info = m.value(code, "info")
    x = np.array([[0.1, 0.9], [0.9, 0.1], [0.1, 0.9]])
    p = np.exp(x) / np.exp(x).sum(axis=1, keepdims=True)
    expected = -np.mean(np.log([p[0, 1], p[1, 0], p[2, 1]]))
    assert history(info, "Loss")[0] == pytest.approx(expected, rel=1e-5)


def test_mse_is_the_mean_of_squared_errors(m):
    code = """
    net = dlnetwork([featureInputLayer(2) fullyConnectedLayer(2)]);
    X = [1 2; 3 4; 5 6];
    T = [0 1; 1 0; 2 2];
    Y0 = predict(net, X);
    opts = trainingOptions("sgdm", MaxEpochs=1, MiniBatchSize=3, Verbose=false);
    [~, info] = trainnet(X, T, net, "mse", opts);
    """
    y0, info = m.values(code, "Y0", "info")
    t = np.array([[0, 1], [1, 0], [2, 2]])
    expected = np.mean((np.asarray(y0, dtype=np.float64) - t) ** 2)
    assert history(info, "Loss")[0] == pytest.approx(expected, rel=1e-5)


def test_function_handle_loss(m):
    code = """
    rng(0);
    x = linspace(-1, 1, 20)'; y = 2*x;
    layers = [featureInputLayer(1) fullyConnectedLayer(1)];
    f = @(Y, T) sum((Y - T).^2, 'all') / size(Y, 2);
    opts = trainingOptions("adam", MaxEpochs=100, MiniBatchSize=20, InitialLearnRate=0.05, ...
        Verbose=false);
    [net, info] = trainnet(x, y, layers, f, opts);
    loss = info.TrainingHistory.Loss;
    """
    loss = m.value(code, "loss")
    assert loss[-1, 0] < 0.05 * loss[0, 0]


def test_lbfgs_lowers_the_loss_and_reports_norms(m):
    code = """
    rng(0);
    x = linspace(-2, 2, 30)'; y = x.^2;
    layers = [featureInputLayer(1) fullyConnectedLayer(8) tanhLayer fullyConnectedLayer(1)];
    opts = trainingOptions("lbfgs", MaxIterations=40, Verbose=false);
    [net, info] = trainnet(x, y, layers, "mse", opts);
    h = info.TrainingHistory;
    """
    info, h = m.values(code, "info", "h")
    assert h.names == ["Iteration", "Loss", "GradientNorm", "StepNorm"]
    loss = history(info, "Loss")
    assert loss[-1] < 0.2 * loss[0]
    assert info.stop_reason in ("Max iterations completed", "Gradient tolerance met",
                                "Step tolerance met")


def test_lbfgs_gradient_tolerance_stops_training(m):
    code = """
    rng(0);
    x = linspace(-1, 1, 10)'; y = 3*x + 1;
    layers = [featureInputLayer(1) fullyConnectedLayer(1)];
    opts = trainingOptions("lbfgs", MaxIterations=200, GradientTolerance=1e-3, Verbose=false);
    [net, info] = trainnet(x, y, layers, "mse", opts);
    """
    info = m.value(code, "info")
    assert info.stop_reason == "Gradient tolerance met"
    assert info.output_iteration < 200
    assert history(info, "GradientNorm")[-1] < 1e-3


def test_piecewise_schedule_drops_the_rate(m):
    code = """
    rng(0);
    x = rand(8, 1); y = x;
    layers = [featureInputLayer(1) fullyConnectedLayer(1)];
    opts = trainingOptions("sgdm", MaxEpochs=5, MiniBatchSize=4, LearnRateSchedule="piecewise", ...
        LearnRateDropPeriod=2, LearnRateDropFactor=0.5, Verbose=false);
    [~, info] = trainnet(x, y, layers, "mse", opts);
    """
    info = m.value(code, "info")
    np.testing.assert_allclose(history(info, "LearnRate"),
                               [0.01, 0.01, 0.01, 0.01, 0.005, 0.005, 0.005, 0.005, 0.0025, 0.0025])
    np.testing.assert_array_equal(history(info, "Epoch"), [1, 1, 2, 2, 3, 3, 4, 4, 5, 5])


def test_partial_mini_batch_is_left_out(m):
    code = """
    x = rand(10, 1); y = x;
    opts = trainingOptions("adam", MaxEpochs=2, MiniBatchSize=4, Verbose=false);
    [~, info] = trainnet(x, y, [featureInputLayer(1) fullyConnectedLayer(1)], "mse", opts);
    """
    info = m.value(code, "info")
    np.testing.assert_array_equal(history(info, "Iteration"), [1, 2, 3, 4])


def test_datastore_input(m):
    code = CLASSES + """
    ds = combine(arrayDatastore(X), arrayDatastore(T));
    opts = trainingOptions("adam", MaxEpochs=10, MiniBatchSize=20, InitialLearnRate=0.01, ...
        Verbose=false);
    [net, info] = trainnet(ds, layers, "crossentropy", opts);
    acc = mean(scores2label(minibatchpredict(net, X), categories(T)) == T);
    """
    acc, info = m.values(code, "acc", "info")
    assert len(history(info, "Loss")) == 40
    assert acc > 0.9


def test_image_data_in_h_w_c_n_layout(m):
    code = """
    rng(0);
    X = rand(4, 4, 1, 12);
    T = squeeze(mean(X, [1 2 3]));
    layers = [imageInputLayer([4 4 1], Normalization="none") convolution2dLayer(2, 3) reluLayer ...
        fullyConnectedLayer(1)];
    opts = trainingOptions("adam", MaxEpochs=30, MiniBatchSize=6, InitialLearnRate=0.01, ...
        Verbose=false);
    [net, info] = trainnet(X, T, layers, "mse", opts);
    Y = minibatchpredict(net, X, MiniBatchSize=5);
    loss = info.TrainingHistory.Loss;
    """
    y, loss = m.values(code, "Y", "loss")
    assert y.shape == (12, 1)
    assert loss[-1, 0] < loss[0, 0]


def test_validation_data_and_best_network(m):
    code = CLASSES + """
    opts = trainingOptions("adam", MaxEpochs=6, MiniBatchSize=20, InitialLearnRate=0.01, ...
        ValidationData={X, T}, ValidationFrequency=5, Verbose=false);
    [net, info] = trainnet(X, T, layers, "crossentropy", opts);
    v = info.ValidationHistory;
    """
    info, v = m.values(code, "info", "v")
    assert v.names == ["Iteration", "Loss"]
    iterations = np.asarray(v.variable("Iteration")).reshape(-1)
    np.testing.assert_array_equal(iterations, [0, 5, 10, 15, 20, 24])
    losses = np.asarray(v.variable("Loss")).reshape(-1)
    assert info.output_iteration == int(iterations[1:][np.argmin(losses[1:])])


def test_validation_patience_stops_training(m):
    code = """
    x = rand(8, 1); y = rand(8, 1);
    opts = trainingOptions("sgdm", MaxEpochs=50, MiniBatchSize=8, ValidationData={x, -y}, ...
        ValidationFrequency=1, ValidationPatience=2, InitialLearnRate=0.5, Verbose=false);
    [~, info] = trainnet(x, y, [featureInputLayer(1) fullyConnectedLayer(1)], "mse", opts);
    """
    info = m.value(code, "info")
    assert info.stop_reason == "Met validation criterion"
    assert len(history(info, "Loss")) < 50


# ------------------------------------------------------------------ verbose output


def test_verbose_table_layout(m):
    code = """
    rng(0);
    x = rand(20, 1); y = 2*x;
    opts = trainingOptions("adam", MaxEpochs=12, MiniBatchSize=10, VerboseFrequency=5);
    [~, info] = trainnet(x, y, [featureInputLayer(1) fullyConnectedLayer(1)], "mse", opts);
    loss = info.TrainingHistory.Loss;
    """
    out = m.run(code)
    loss = m.interp.base.vars["loss"].reshape(-1)
    lines = out.splitlines()
    assert lines[0] == "    Iteration    Epoch    TimeElapsed    LearnRate    TrainingLoss"
    assert lines[1] == "    _________    _____    ___________    _________    ____________"
    assert lines[-1] == "Training stopped: Max epochs completed"
    rows = lines[2:-1]
    shown = [1, 5, 10, 15, 20, 24]
    assert len(rows) == len(shown)
    for line, it in zip(rows, shown, strict=True):
        assert re.fullmatch(r" {4}[ \d]{9} {4}[ \d]{5} {4} {3}\d\d:\d\d:\d\d {4}[ \d.e-]{9} {4}.{12}",
                            line), line
        cells = line.split()
        assert cells[0] == str(it)
        assert cells[1] == str((it + 1) // 2)
        assert cells[3] == "0.001"
        assert cells[4] == number_text(float(np.float32(loss[it - 1])))


def test_verbose_with_validation_columns(m):
    code = """
    x = rand(20, 1); y = 2*x;
    opts = trainingOptions("sgdm", MaxEpochs=2, MiniBatchSize=10, ValidationData={x, y}, ...
        ValidationFrequency=3);
    trainnet(x, y, [featureInputLayer(1) fullyConnectedLayer(1)], "mse", opts);
    """
    lines = m.run(code).splitlines()
    assert lines[0].split() == ["Iteration", "Epoch", "TimeElapsed", "LearnRate", "TrainingLoss",
                                "ValidationLoss"]
    assert lines[1].endswith("    ______________")
    first = lines[2].split()
    assert first[:2] == ["0", "0"] and first[3] == "0.01"
    assert len(first) == 5  # no training loss at iteration 0
    assert [ln.split()[0] for ln in lines[2:-1]] == ["0", "1", "3", "4"]
    assert len(lines[3].split()) == 5 and len(lines[4].split()) == 6
    assert lines[-1] == "Training stopped: Max epochs completed"


def test_verbose_lbfgs_columns(m):
    code = """
    x = rand(10, 1); y = 2*x;
    opts = trainingOptions("lbfgs", MaxIterations=3, VerboseFrequency=1);
    trainnet(x, y, [featureInputLayer(1) fullyConnectedLayer(1)], "mse", opts);
    """
    lines = m.run(code).splitlines()
    assert lines[0] == "    Iteration    TimeElapsed    TrainingLoss    GradientNorm    StepNorm"
    assert lines[-1].startswith("Training stopped: ")


def test_verbose_false_prints_nothing(m):
    assert m.run(SINE) == ""


def test_number_text():
    assert number_text(0.001) == "0.001"
    assert number_text(1.23456789) == "1.2346"
    assert number_text(2.5e-5) == "2.5e-05"
    assert number_text(12.0) == "12"
    assert number_text(None) == ""


def test_training_progress_plot_uses_the_monitor(m):
    code = """
    x = rand(10, 1); y = 2*x;
    opts = trainingOptions("adam", MaxEpochs=2, MiniBatchSize=10, Verbose=false, ...
        Plots="training-progress");
    trainnet(x, y, [featureInputLayer(1) fullyConnectedLayer(1)], "mse", opts);
    """
    assert m.run(code) == ""
    err = m.err.getvalue()
    assert "TrainingLoss" in err and "Progress 100%" in err


# ------------------------------------------------------------------ TrainingInfo


def test_training_info_display_and_properties(m):
    code = """
    x = rand(10, 1); y = 2*x;
    opts = trainingOptions("adam", MaxEpochs=3, MiniBatchSize=5, Verbose=false);
    [~, info] = trainnet(x, y, [featureInputLayer(1) fullyConnectedLayer(1)], "mse", opts);
    info
    c = class(info);
    r = info.StopReason;
    """
    out = m.run(code)
    assert "  TrainingInfo with properties:\n" in out
    assert "           TrainingHistory: [6×4 table]\n" in out
    assert "    OutputNetworkIteration: 6\n" in out
    assert '                StopReason: "Max epochs completed"\n' in out
    assert m.interp.base.vars["c"].tobytes().decode("utf-16-le") == "deep.TrainingInfo"


def test_training_info_is_read_only(m):
    err = m.fails("""
    x = rand(4, 1);
    opts = trainingOptions("adam", MaxEpochs=1, Verbose=false);
    [~, info] = trainnet(x, x, [featureInputLayer(1) fullyConnectedLayer(1)], "mse", opts);
    info.StopReason = "x";
    """)
    assert err.identifier == "MATLAB:class:SetProhibited"


# ------------------------------------------------------------------ errors


BASE = """
x = rand(6, 1); y = rand(6, 1);
layers = [featureInputLayer(1) fullyConnectedLayer(1)];
opts = trainingOptions("adam", MaxEpochs=1, Verbose=false);
"""


@pytest.mark.parametrize("call, ident", [
    ('trainnet(x, y, layers, "nope", opts)', "MATLAB:trainnet:unrecognizedStringChoice"),
    ('trainnet(x, y, layers, 3, opts)', "deep:trainnet:InvalidLossFunction"),
    ('trainnet(x, y, layers, "mse", 5)', "deep:trainnet:InvalidTrainingOptions"),
    ('trainnet(x, y, 7, "mse", opts)', "deep:trainnet:InvalidNetwork"),
    ('trainnet(x, y(1:3), layers, "mse", opts)', "deep:trainnet:SizeMismatch"),
    ('trainnet(x, [y y], layers, "mse", opts)', "deep:trainnet:TargetSizeMismatch"),
    ('trainnet(x, layers, "mse", opts)', "deep:trainnet:InvalidData"),
    ('trainnet({x}, y, layers, "mse", opts)', "deep:trainnet:InputSizeMismatch"),
    ('trainnet({"a"}, y, layers, "mse", opts)', "deep:trainnet:InvalidData"),
    ('trainnet([x x], y, layers, "mse", opts)', "deep:trainnet:InputSizeMismatch"),
    ('trainnet(x([]), y([]), layers, "mse", opts)', "deep:trainnet:EmptyData"),
    ('trainnet(x, y, layers)', "MATLAB:minrhs"),
    ('trainnet(x, y, layers, "mse", opts, 1)', "MATLAB:TooManyInputs"),
    ('trainnet(x, categorical(y > 0.5), layers, "mse", opts)',
     "deep:trainnet:CategoricalTargetsNeedClassificationLoss"),
    ('trainnet(x, y, layers, "mse", trainingOptions("adam", ValidationData=5, Verbose=false))',
     "deep:trainnet:InvalidValidationData"),
    ('trainnet(x, y, layers, "mse", trainingOptions("adam", LearnRateSchedule="cosine", '
     'Verbose=false))', "deep:trainnet:UnsupportedLearnRateSchedule"),
])
def test_errors(m, call, ident):
    assert m.fails(BASE + call + ";").identifier == ident


def test_bad_loss_function_output(m):
    err = m.fails(BASE + 'trainnet(x, y, layers, @(Y, T) 3, opts);')
    assert err.identifier == "deep:trainnet:InvalidLoss"


# ------------------------------------------------------------------ more losses and data


TWO = """
rng(2);
X = [randn(20,2)+2; randn(20,2)-2];
C = categorical([repmat("a",20,1); repmat("b",20,1)]);
y = double(C == "a");
opts = trainingOptions("adam", MaxEpochs=8, MiniBatchSize=10, Verbose=false, InitialLearnRate=0.05);
"""


@pytest.mark.parametrize("layers, targets, loss", [
    ("[featureInputLayer(2) fullyConnectedLayer(2) softmaxLayer]", "C", "index-crossentropy"),
    ("[featureInputLayer(2) fullyConnectedLayer(1) sigmoidLayer]", "y", "binary-crossentropy"),
    ("[featureInputLayer(2) fullyConnectedLayer(1)]", "y", "huber"),
    ("[featureInputLayer(2) fullyConnectedLayer(1)]", "y", "mae"),
    ("[featureInputLayer(2) fullyConnectedLayer(1)]", "y", "mean-squared-error"),
])
def test_named_losses_lower_the_loss(m, layers, targets, loss):
    info = m.value(TWO + f'[~, info] = trainnet(X, {targets}, {layers}, "{loss}", opts);', "info")
    values = history(info, "Loss")
    assert values[-4:].mean() < 0.7 * values[:4].mean()


def test_index_crossentropy_equals_crossentropy(m):
    code = TWO + """
    net = dlnetwork([featureInputLayer(2) fullyConnectedLayer(2) softmaxLayer]);
    opts = trainingOptions("sgdm", MaxEpochs=1, MiniBatchSize=40, Verbose=false);
    [~, a] = trainnet(X, C, net, "index-crossentropy", opts);
    [~, b] = trainnet(X, C, net, "crossentropy", opts);
    """
    a, b = m.values(code, "a", "b")
    assert history(a, "Loss")[0] == pytest.approx(history(b, "Loss")[0], rel=1e-5)


def test_sequence_data_with_lstm(m):
    code = """
    rng(0);
    X = rand(1, 6, 12);
    T = squeeze(sum(X, 2));
    layers = [sequenceInputLayer(1) lstmLayer(6, OutputMode="last") fullyConnectedLayer(1)];
    opts = trainingOptions("adam", MaxEpochs=15, MiniBatchSize=6, Verbose=false, ...
        InitialLearnRate=0.05);
    [net, info] = trainnet(X, T, layers, "mse", opts);
    Y = minibatchpredict(net, X, MiniBatchSize=5);
    """
    info, y = m.values(code, "info", "Y")
    loss = history(info, "Loss")
    assert loss[-1] < 0.2 * loss[0]
    assert y.shape == (12, 1)


def test_cell_array_of_sequences_padded_per_mini_batch(m):
    code = """
    rng(0);
    X = cell(12, 1); T = zeros(12, 1);
    for k = 1:12
        X{k} = rand(2, 2 + mod(k, 3));
        T(k) = sum(X{k}(:));
    end
    layers = [sequenceInputLayer(2) lstmLayer(6, OutputMode="last") fullyConnectedLayer(1)];
    opts = trainingOptions("adam", MaxEpochs=20, MiniBatchSize=4, Verbose=false, ...
        InitialLearnRate=0.05, SequencePaddingDirection="left");
    [net, info] = trainnet(X, T, layers, "mse", opts);
    Y = minibatchpredict(net, X, MiniBatchSize=5, SequencePaddingDirection="left");
    Y1 = minibatchpredict(net, X(1), SequencePaddingDirection="left");
    P1 = predict(net, X{1});
    """
    info, y, y1, p1 = m.values(code, "info", "Y", "Y1", "P1")
    loss = history(info, "Loss")
    assert loss[-1] < 0.3 * loss[0]
    assert y.shape == (12, 1)
    # left padding with zeros changes nothing for a sequence that is not padded
    np.testing.assert_allclose(y1, p1, rtol=1e-5)
