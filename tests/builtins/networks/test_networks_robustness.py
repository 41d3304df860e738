"""Awkward arguments of the layer constructors and the dlnetwork and layerGraph functions:
each gives a MATLAB value or a MATLAB error, never a Python exception.  One test per
problem that random calls found, then a derandomised sweep of calls from a pool of good
and bad values (layers, layer arrays, networks, tables, dlarrays of every format) and of
short MATLAB programs editing layer arrays and networks."""

from __future__ import annotations

import io
import random
import time

import numpy as np
import pytest

from mlang.errors import RUNNING, MatlabError, MatlabSyntaxError
from mlang.evaluation.interpreter import Interpreter
from mlang.registry import load_all
from mlang.values.core import to_str

# ------------------------------------------------------------------ found by random calls


def test_a_sequence_of_no_time_steps_through_recurrent_layers_is_empty(m) -> None:
    y = m.value("net = dlnetwork([sequenceInputLayer(3) lstmLayer(2) fullyConnectedLayer(4)]);"
                "y = predict(net, dlarray(rand(3,2,0),'CBT'));", "y")
    assert y.fmt == "CBT" and y.data.shape == (4, 2, 0)
    y = m.value("net = dlnetwork([sequenceInputLayer(3) gruLayer(2) selfAttentionLayer(1,2)"
                " layerNormalizationLayer]); y = forward(net, dlarray(rand(3,1,0),'CBT'));", "y")
    assert y.fmt == "CBT" and y.data.shape[0] == 2 and y.data.size == 0


def test_functional_lstm_and_gru_of_no_time_steps(m) -> None:
    y, h = m.values("x = dlarray(rand(3,2,0),'CBT');"
                    "[y,h] = lstm(x,zeros(2,2),zeros(2,2),rand(8,3),rand(8,2),rand(8,1));", "y", "h")
    assert y.fmt == "CBT" and y.data.shape == (2, 2, 0)
    np.testing.assert_array_equal(h.data, np.zeros((2, 2)))  # the initial state, unchanged
    y = m.value("y = gru(dlarray(rand(3,2,0),'CBT'),zeros(2,2),rand(6,3),rand(6,2),rand(6,1));", "y")
    assert y.data.shape == (2, 2, 0)


def test_attention_over_no_keys_is_empty(m) -> None:
    y = m.value("q = dlarray(rand(2,1,0),'CBT'); y = attention(q,q,q,1);", "y")
    assert y.data.shape == (2, 1, 0)


def test_plot_of_a_network_after_other_arguments_is_not_a_crash(m) -> None:
    err = m.fails("net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2)]); plot(net, 'f');")
    assert err.identifier == "MATLAB:TooManyInputs"
    for code in ("plot('f', net)", "plot(@sin, 'x', net)", "plot(char([]), layerGraph(net))"):
        try:
            m.run(f"net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2)]); {code};")
        except MatlabError:
            pass
    out = m.run("net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2)]); plot(net);")
    assert out.startswith("Plotting a network is not available")


def test_replace_layer_by_an_empty_array_is_an_error(m) -> None:
    err = m.fails("net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2,Name='fc')]);"
                  "net = replaceLayer(net, 'fc', repmat(reluLayer, 1, 0));")
    assert err.identifier == "deep:dlnetwork:InvalidLayers"
    err = m.fails("lg = layerGraph([featureInputLayer(3) fullyConnectedLayer(2,Name='fc')]);"
                  "lg = replaceLayer(lg, 'fc', repmat(reluLayer, 0, 1));")
    assert err.identifier == "deep:dlnetwork:InvalidLayers"


def test_a_huge_number_of_inputs_is_refused_at_once(m) -> None:
    start = time.perf_counter()
    for code in ("additionLayer(1e10)", "multiplicationLayer(1e12)", "depthConcatenationLayer(1e10)",
                 "concatenationLayer(1, 1e10)", "functionLayer(@(x) x, NumInputs=1e10)"):
        assert m.fails(f"L = {code};").identifier == "MATLAB:nomem"
    assert time.perf_counter() - start < 2
    assert m.value("L = additionLayer(5); n = L.NumInputs;", "n") == 5


def test_empty_layer_arrays_vanish_in_concatenation(m) -> None:
    c, n = m.values("A = repmat(reluLayer,0,1); B = [A tanhLayer A]; c = class(B); n = numel(B);", "c", "n")
    assert to_str(c) == "nnet.cnn.layer.TanhLayer" and n == 1
    size = m.value("A = repmat(reluLayer,0,1); B = [A; A]; s = size(B);", "s")
    np.testing.assert_array_equal(size, [[0, 1]])
    n = m.value("A = repmat(reluLayer,1,0); B = [A, reluLayer; tanhLayer, A]; n = numel(B);", "n")
    assert n == 2


def test_huge_convolution_padding_is_a_size_error(m) -> None:
    err = m.fails("net = dlnetwork([imageInputLayer([4 4 2]) convolution2dLayer(3,2,Padding=1e10)]);")
    assert err.identifier in ("MATLAB:pmaxsize", "MATLAB:array:SizeLimitExceeded")
    err = m.fails("y = dlconv(dlarray(rand(4,4,2,1),'SSCB'), rand(3,3,2,2), 0, 'Padding', 1e10);")
    assert err.identifier in ("MATLAB:pmaxsize", "MATLAB:array:SizeLimitExceeded")
    err = m.fails("y = dlconv(dlarray(rand(4,4,2,1),'SSCB'), rand(3,3,2,2), 0, 'Padding', 1e10,"
                  "'PaddingValue', 'symmetric-exclude-edge');")
    assert err.identifier in ("MATLAB:pmaxsize", "MATLAB:array:SizeLimitExceeded")


def test_channel_wise_group_normalization_of_no_channels(m) -> None:
    y = m.value("y = groupnorm(dlarray(zeros(6,6,0,1),'SSCB'), 'channel-wise', zeros(0,1), zeros(0,1));", "y")
    assert y.data.shape == (6, 6, 0)
    s = m.value("net = dlnetwork([groupNormalizationLayer('channel-wise') globalAveragePooling2dLayer],"
                "dlarray(zeros(6,6,0,1),'SSCB')); s = size(predict(net, dlarray(zeros(6,6,0,2),'SSCB')));", "s")
    np.testing.assert_array_equal(s, [[1, 1, 0, 2]])


def test_complex_input_sizes_are_refused(m) -> None:
    for code in ("imageInputLayer([4 4 2]+1i)", "sequenceInputLayer(complex(3,0))",
                 "inputLayer([NaN 3]+1i, 'BC')", "featureInputLayer(1+2i)"):
        assert m.fails(f"L = {code};").identifier == "MATLAB:validators:mustBePositiveInteger"


def test_complex_data_is_not_silently_made_real(m) -> None:
    y = m.value("net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2)]);"
                "y = predict(net, dlarray(complex(ones(3,2),1),'CB'));", "y")
    assert y.data.dtype == np.complex64 and np.all(y.data.imag != 0)
    y = m.value("y = fullyconnect(dlarray(rand(3,2),'CB'), single(ones(2,3)), [1i;1i]);", "y")
    np.testing.assert_allclose(y.data.imag, np.ones((2, 2)))
    b = m.value("net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2, BiasInitializer=@(sz) zeros(sz)+1i)]);"
                "b = net.Learnables.Value{2};", "b")
    np.testing.assert_array_equal(b.data, np.full((2, 1), 1j, dtype=np.complex64))
    mean = m.value("L = batchNormalizationLayer(TrainedMean=[1;2]+1i); mean = L.TrainedMean;", "mean")
    assert np.iscomplexobj(mean)


def test_complex_embedding_indices_are_an_error(m) -> None:
    err = m.fails("y = embed(dlarray([1 2+1i],'CB'), rand(3,5));")
    assert err.identifier == "deep:embed:InvalidIndices"
    err = m.fails("net = dlnetwork([sequenceInputLayer(1) embeddingLayer(3,5)]); y = predict(net, 1+2i);")
    assert err.identifier == "deep:embed:InvalidIndices"


def test_layers_take_data_of_one_label(m) -> None:
    # 'C' data is n-by-1: the trailing 1 has no label
    net = m.value("net = dlnetwork([sequenceInputLayer(3) gruLayer(2) selfAttentionLayer(1,2)"
                  " layerNormalizationLayer], dlarray(rand(4,4,2),'SSC'));", "net")
    assert net.initialized
    y = m.value("net = dlnetwork(flattenLayer, dlarray(rand(4,1),'C')); y = predict(net, dlarray(rand(3,1),'C'));",
                "y")
    assert y.fmt.startswith("C") and y.data.shape[0] == 3


def test_learnables_made_text_are_refused(m) -> None:
    err = m.fails("net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2)]); net = dlupdate(@(w) 'glorot', net);")
    assert err.identifier == "deep:dlnetwork:InvalidLearnables"
    err = m.fails("net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2)]); net.Learnables.Value{2} = 'ab';")
    assert err.identifier == "deep:dlnetwork:InvalidLearnables"
    w = m.value("net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2)]); net = dlupdate(@(w) w*0, net);"
                "w = net.Learnables.Value{1};", "w")
    np.testing.assert_array_equal(w.data, np.zeros((2, 3)))


def test_complex_embedding_weights_stay_complex(m) -> None:
    y = m.value("y = embed(dlarray([1 2],'CB'), [1 2; 3 4]*1i);", "y")
    np.testing.assert_array_equal(y.data, [[1j, 2j], [3j, 4j]])


def test_impossible_input_and_parameter_sizes_are_size_errors(m) -> None:
    for layers in ("sequenceInputLayer(3, MinLength=1e10) lstmLayer(2)", "imageInputLayer([4e5 4e5 3]) reluLayer",
                   "featureInputLayer(3) fullyConnectedLayer(1e10, WeightsInitializer='zeros')",
                   "inputLayer([1e6 1e6 NaN], 'SCB') reluLayer"):
        err = m.fails(f"net = dlnetwork([{layers}]);")
        assert err.identifier in ("MATLAB:array:SizeLimitExceeded", "MATLAB:pmaxsize"), layers


# ------------------------------------------------------------------ derandomised sweep

VALUES = ["zeros(0,0)", "5", "-1", "0", "0.5", "NaN", "Inf", "1e10", "[1 2 3]", "[3 3]", "magic(3)", "true",
          "[true false]", "1+2i", "single(3)", "int8(2)", "2", "3", "[2 2]", "rand(2,2,2)", "zeros(1,0)",
          "'auto'", "'same'", "'fc'", "'none'", "'sequence'", "'last'", "'zscore'", "'glorot'", "''", "\"fc\"",
          "[\"fc\" \"relu\"]", "'causal'", "'CB'", "{'fc','relu'}", "{1,'a'}", "{}", "@sin", "@(x) x.^2",
          "@(x,y) x+y", "@(sz) rand(sz)", "@(sz) 'abc'", "categorical({'a','b'})", "table([1;2])",
          "struct('a',1)"]
INPUTS = ["dlarray(rand(3,4),'CB')", "dlarray(single(rand(3,2)),'CB')", "dlarray(rand(4,4,2,3),'SSCB')",
          "dlarray(rand(3,2,5),'CBT')", "dlarray(rand(5,3,2),'TCB')", "dlarray([1 2 3])", "rand(4,3)",
          "dlarray(zeros(0,3),'CB')", "dlarray(zeros(3,0),'CB')", "dlarray(complex(rand(3,2),1),'CB')",
          "dlarray(rand(3,2,4),'SCB')", "dlarray(rand(3,2),'UU')", "dlarray(rand(3,2,0),'CBT')",
          "dlarray(rand(3,5),'CT')", "int8(rand(3,2))", "dlarray(randi(5,1,3,4),'CBT')", "rand(3,5)",
          "dlarray(rand(6,6,2,1),'SSCB')", "dlarray(rand(2,2,2,2,2),'SSSCB')"]
LAYERS = ["featureInputLayer(3,Name='in')", "fullyConnectedLayer(2)", "reluLayer(Name='relu')",
          "fullyConnectedLayer(4,Name='fc')", "additionLayer(2,Name='add')", "imageInputLayer([4 4 2])",
          "convolution2dLayer(3,2)", "sequenceInputLayer(3)", "lstmLayer(2,Name='lstm')", "softmaxLayer",
          "functionLayer(@(x,y) x+y, NumInputs=2, Name='f')", "selfAttentionLayer(2,4)", "embeddingLayer(3,5)",
          "lstmLayer(2,HasStateInputs=1,HasStateOutputs=1)", "inputLayer([NaN 3],'BC')", "batchNormalizationLayer"]
ARRAYS = ["[featureInputLayer(3,Name='in') fullyConnectedLayer(4,Name='fc') reluLayer(Name='relu')]",
          "[imageInputLayer([4 4 2]) convolution2dLayer(3,2,Padding='same') batchNormalizationLayer reluLayer]",
          "[sequenceInputLayer(3) lstmLayer(2,OutputMode='last') fullyConnectedLayer(2)]",
          "[fullyConnectedLayer(2) reluLayer]", "[reluLayer(Name='a') reluLayer(Name='a')]",
          "[featureInputLayer(3) additionLayer(2)]", "repmat(reluLayer,1,0)"]
# each network with an input it takes
NETS_AND_INPUTS = [
    ("dlnetwork([featureInputLayer(3,Name='in') fullyConnectedLayer(4,Name='fc') reluLayer(Name='relu')])",
     "dlarray(rand(3,4),'CB')"),
    ("dlnetwork([imageInputLayer([4 4 2],Normalization='none') convolution2dLayer(3,2) batchNormalizationLayer])",
     "dlarray(rand(4,4,2,3),'SSCB')"),
    ("dlnetwork([sequenceInputLayer(3) lstmLayer(2) fullyConnectedLayer(2)])", "dlarray(rand(3,2,5),'CBT')"),
    ("dlnetwork([fullyConnectedLayer(4,Name='fc') reluLayer(Name='relu')], Initialize=false)",
     "dlarray(rand(3,4),'CB')"),
    ("dlnetwork", "rand(4,3)"),
    ("dlnetwork([sequenceInputLayer(3) gruLayer(2) selfAttentionLayer(1,2) layerNormalizationLayer])",
     "dlarray(rand(3,2,0),'CBT')"),
    ("dlnetwork(functionLayer(@(x,y) x+y, NumInputs=2, Name='f'), Initialize=false)", "dlarray(rand(3,4),'CB')"),
    ("dlnetwork([fullyConnectedLayer(4,Name='fc') reluLayer(Name='relu')], dlarray(rand(3,1),'CB'))", "rand(3,5)"),
    ("dlnetwork([sequenceInputLayer(1) embeddingLayer(3,5) lstmLayer(2,OutputMode='last')])",
     "dlarray(randi(5,1,3,4),'CBT')"),
    ("dlnetwork([imageInputLayer([6 6 2]) maxPooling2dLayer(2,Stride=2) flattenLayer fullyConnectedLayer(2)])",
     "rand(6,6,2,3)"),
    ("dlnetwork([featureInputLayer(3) dropoutLayer(0.3) functionLayer(@(x) x.*2) softmaxLayer])", "rand(2,3)"),
]
NETS = [net for net, _ in NETS_AND_INPUTS]
GRAPHS = ["layerGraph([featureInputLayer(3,Name='in') fullyConnectedLayer(4,Name='fc') reluLayer(Name='relu')])",
          "layerGraph", "addLayers(layerGraph(featureInputLayer(3,Name='in')), additionLayer(2,Name='add'))"]
PORTS = ["'fc'", "'relu'", "'in'", "'add'", "'fc/in'", "'relu/out'", "'add/in1'", "'add/in2'", "'add/in3'",
         "'nope'", "'fc/nope'", "'/'", "'fc/'", "'lstm/hidden'", "'f/in2'", "{'fc','relu'}", "{}", "'a/b/c'"]
POOLS = {"V": VALUES, "X": INPUTS, "L": LAYERS, "A": ARRAYS, "W": NETS, "G": GRAPHS, "P": PORTS}

# The argument kinds of each network function (one letter per pool, chosen at random).
NETWORK_CALLS = {"forward": "W", "predict": "W", "initialize": "W", "addLayers": "WG", "connectLayers": "WG",
                 "disconnectLayers": "WG", "removeLayers": "WG", "replaceLayer": "WG", "addInputLayer": "W",
                 "resetState": "W", "dlnetwork": "LAGW", "layerGraph": "LAW", "analyzeNetwork": "WGA"}
REST_KINDS = {"forward": "XXXXVP", "predict": "XXXXVP", "initialize": "XXV", "addLayers": "LAV",
              "connectLayers": "PPV", "disconnectLayers": "PPV", "removeLayers": "PV", "replaceLayer": "PLA",
              "addInputLayer": "LPV", "resetState": "V", "dlnetwork": "XV", "layerGraph": "V",
              "analyzeNetwork": "V"}
OPTIONS = ["'Outputs'", "'Initialize'", "'OutputNames'", "'ReconnectBy'", "'Name'", "'Foo'"]


def _sweep_session() -> tuple[Interpreter, dict[str, str]]:
    interp = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    names = {}
    sources = dict.fromkeys(s for pool in POOLS.values() for s in pool)
    for k, src in enumerate(sources):
        interp.eval(f"v{k} = {src};")
        names[src] = f"v{k}"
    return interp, names


def _option_names(interp: Interpreter, name: str) -> tuple[list[str], list[str]]:
    """Positional arguments (sources) a layer constructor takes and the name=value options
    of its class (found by building one)."""
    for sources in ([], ["2"], ["2", "2"], ["@sin"], ["[4 4 2]"], ["[NaN 3]", "'BC'"]):
        try:
            interp.eval(f"tmp__ = {name}({', '.join(sources)});")
        except MatlabError:
            continue
        layer = interp.base.vars["tmp__"]
        return sources, [p.name for p in type(layer).PROPERTIES if p.option] + ["Name", "Foo"]
    raise AssertionError(f"no way to build {name}")


def _calls(rng: random.Random, options: dict[str, tuple[list[str], list[str]]], count: int) -> list:
    """(builtin, argument sources, nargout) of each call of the sweep."""
    calls = []
    constructors = sorted(options)
    for _ in range(count):
        if rng.random() < 0.2:
            name = rng.choice(("forward", "predict"))
            net, x = rng.choice(NETS_AND_INPUTS)
            args = [net, x if rng.random() < 0.8 else rng.choice(INPUTS)]
            if rng.random() < 0.2:
                args += ["'Outputs'", rng.choice(PORTS)]
        elif rng.random() < 0.4:
            name = rng.choice(sorted(NETWORK_CALLS))
            args = [rng.choice(POOLS[rng.choice(NETWORK_CALLS[name])])]
            for _ in range(rng.choice((0, 1, 1, 2, 3))):
                args.append(rng.choice(POOLS[rng.choice(REST_KINDS[name])]))
            if rng.random() < 0.2:
                args += [rng.choice(OPTIONS), rng.choice(POOLS[rng.choice("VP")])]
        else:
            name = rng.choice(constructors)
            args = list(options[name][0]) if rng.random() < 0.5 else \
                [rng.choice(VALUES) for _ in range(rng.choice((0, 0, 1, 1, 2, 3)))]
            for _ in range(rng.choice((0, 1, 1, 2))):
                args += [f"'{rng.choice(options[name][1])}'", rng.choice(VALUES + LAYERS)]
        calls.append((name, args, rng.choice((0, 1, 1, 2, 3))))
    return calls


@pytest.mark.filterwarnings("error::numpy.exceptions.ComplexWarning")  # no silent loss of imaginary parts
def test_random_calls_of_the_network_functions_give_only_matlab_errors() -> None:
    registry = load_all()
    interp, names = _sweep_session()
    constructors = [k for k, b in registry.items() if b.fn.__module__.startswith("mlang.builtins.networks")
                    and k.endswith("Layer") and k not in ("addInputLayer", "replaceLayer")]
    options = {name: _option_names(interp, name) for name in constructors}
    problems = []
    token = RUNNING.set(interp)
    try:
        calls = _calls(random.Random(15), options, 3000)
        succeeded = 0
        for name, sources, nargout in calls:
            args = [_value(interp, names, s) for s in sources]
            try:
                registry[name].call(interp, args, nargout)
                succeeded += 1
            except MatlabError:
                pass
            except Exception as exc:  # noqa: BLE001 (any other exception is what the test reports)
                problems.append(f"{name}({', '.join(sources)}) nargout={nargout}: {type(exc).__name__}: {exc}")
    finally:
        RUNNING.reset(token)
    assert problems == []
    assert len(calls) == 3000 and succeeded > 300  # (the sweep reaches past the argument checks)


def _value(interp: Interpreter, names: dict[str, str], source: str):
    if source not in names:
        names[source] = f"v{len(names)}"
        interp.eval(f"{names[source]} = {source};")
    return interp.base.vars[names[source]]


# MATLAB programs editing layer arrays and networks; %V is a value, %L a layer, %I an index.
PROGRAMS = [
    "L = %L; L.%P = %V; disp(L); x = L.%P;",
    "A = %A; A(%I) = []; disp(A);",
    "A = %A; A(%I) = %L; disp(A);",
    "A = %A; A(%I) = %V;",
    "A = %A; B = A(%I); disp(B);",
    "A = %A; B = [A, %V]; disp(B);",
    "A = %A; B = [A; %L]; disp(B);",
    "A = %A; B = [%V; A];",
    "A = %A; A(%I).Name = %V;",
    "A = %A; x = {A.Name}; A.Name = %V;",
    "A = %A; A = reshape(A, %V); A = repmat(A, %V);",
    "A = %A; x = A{1};",
    "A = %A; x = isequal(A, %V); y = A == %V;",
    "net = %W; net.Learnables = %T; y = predict(net, %X);",
    "net = %W; net.Learnables.Value{1} = %V; y = predict(net, %X);",
    "net = %W; net.State = %T; [y, s] = forward(net, %X);",
    "net = %W; net.Learnables(1,:) = []; y = predict(net, %X);",
    "net = %W; net.Layers(1) = %L;",
    "net = %W; net.%P = %V;",
    "net = %W; net = initialize(initialize(net)); y = predict(net, %X);",
    "net = %W; net = dlupdate(@(w) %V, net); y = predict(net, %X);",
    "net = %W; [y, s] = predict(net, %X, Outputs=%I); net.State = s;",
    "net = dlnetwork([featureInputLayer(3) functionLayer(%F, Formattable=true)]); y = predict(net, %X);",
    "net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2, WeightsInitializer=%F)]);",
    "net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2, Weights=%V)]); y = predict(net, %X);",
    "net = dlnetwork([sequenceInputLayer(3) lstmLayer(2)]); net.State.Value{1} = %V; y = predict(net, %X);",
    "net = dlnetwork([imageInputLayer([4 4 2]) convolution2dLayer(%V, 2, Stride=%V, Padding=%V)]);",
    "net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2)]); [net, a, b] = adamupdate(net, %T, [], [], 1);",
    "net = dlnetwork([featureInputLayer(3) fullyConnectedLayer(2)]); g = dlfeval(@(n, x) dlgradient("
    "sum(forward(n, x), 'all'), n.Learnables), net, %X);",
]
PROGRAM_PARTS = {
    "%L": LAYERS + ["reluLayer", "tanhLayer", "flattenLayer"],
    "%A": ARRAYS + ["reluLayer", "[reluLayer tanhLayer; sigmoidLayer eluLayer]"],
    "%V": VALUES + ["rand(4,3)", "dlarray(rand(4,3))", "rand(4,1)", "reluLayer"],
    "%I": ["1", "0", "5", ":", "end", "[1 1]", "true", "1.5", "-1", "{1}", "'a'", "1,1", "2,2", "[]", "end+1",
           "1,:", "1,1,1", "NaN", "'fc'", "1e10", "{'fc','relu'}"],
    "%P": ["Name", "NumInputs", "InputNames", "OutputSize", "InputSize", "Weights", "Bias", "NumHiddenUnits",
           "OutputMode", "Stride", "Padding", "Mean", "Normalization", "HiddenState", "Learnables", "State",
           "Layers", "InputNames", "OutputNames", "Initialized", "Foo", "WeightsInitializer", "PredictFcn"],
    "%W": NETS,
    "%T": ["table({'a'},{'b'},{1},'VariableNames',{'Layer','Parameter','Value'})", "table([1;2])", "table()",
           "net.Learnables(1,:)", "net.Learnables([],:)", "net.State", "net.Learnables(:,[1 3])", "1",
           "[net.Learnables; net.Learnables]"],
    "%X": INPUTS,
    "%F": ["@(x) x", "@(x) error('u:v','w')", "@(x) [x x]", "@(x) 'abc'", "@(x) {x}", "@(x) stripdims(x)",
           "@(x) x(1)", "@(x) reluLayer", "@(x) []", "@() 1", "@(sz) rand(sz)", "@(sz) 'x'", "@(sz) ones(2)"],
}


def _program(rng: random.Random) -> str:
    code = rng.choice(PROGRAMS)
    while "%" in code:
        start = code.index("%")
        part = code[start:start + 2]
        code = code[:start] + rng.choice(PROGRAM_PARTS[part]) + code[start + 2:]
    return code


@pytest.mark.filterwarnings("error::numpy.exceptions.ComplexWarning")
def test_random_programs_editing_layers_and_networks_give_only_matlab_errors() -> None:
    rng = random.Random(1515)
    interp = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    problems = []
    for _ in range(1500):
        code = _program(rng)
        try:
            interp.eval(code)
        except (MatlabError, MatlabSyntaxError):  # (an index such as "1,1" inside a call)
            pass
        except Exception as exc:  # noqa: BLE001 (any other exception is what the test reports)
            problems.append(f"{code}: {type(exc).__name__}: {exc}")
    assert problems == []
