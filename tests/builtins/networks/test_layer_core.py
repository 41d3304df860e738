"""The layer core: layer arrays (concatenation, indexing, indexed assignment, class, size),
the shared option checks of layer.py and the contract's name=value parsing."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.builtins.networks.layer import (
    checked_name,
    logical_scalar,
    nonnegative_scalar,
    positive_integer,
    size_or_auto,
)
from mlang.builtins.networks.layer_array import LayerArray, layer_array, layers_of
from mlang.errors import MatlabError
from mlang.values.core import char_row, to_str

MIXED = "layers = [featureInputLayer(2); fullyConnectedLayer(3, Name='fc'); reluLayer];"


def names(value) -> list[str]:
    return [to_str(layer.values["Name"]) for layer in layers_of(value)]


def kinds(value) -> list[str]:
    return [layer.LAYER_TYPE for layer in layers_of(value)]


# ------------------------------------------------------------------ concatenation


def test_vertical_and_horizontal_concatenation(m):
    col = m.value(MIXED, "layers")
    assert type(col) is LayerArray and col.shape == (3, 1)
    assert kinds(col) == ["Feature Input", "Fully Connected", "ReLU"]
    row = m.value("layers = [reluLayer tanhLayer sigmoidLayer];", "layers")
    assert row.shape == (1, 3)
    assert kinds(m.value(f"{MIXED} more = [layers; tanhLayer];", "more")) == \
        ["Feature Input", "Fully Connected", "ReLU", "Tanh"]


def test_concatenation_with_empty_double(m):
    assert type(m.value("x = [[] reluLayer];", "x")).__name__ == "ReLULayer"
    assert type(m.value("x = [reluLayer []];", "x")).__name__ == "ReLULayer"
    assert m.value("x = [[]; reluLayer; []; tanhLayer];", "x").shape == (2, 1)


def test_concatenation_builtins(m):
    assert m.value("x = vertcat(reluLayer, tanhLayer);", "x").shape == (2, 1)
    assert m.value("x = horzcat(reluLayer, tanhLayer);", "x").shape == (1, 2)
    assert m.value("x = cat(1, reluLayer, tanhLayer, sigmoidLayer);", "x").shape == (3, 1)
    assert m.value("x = cat(2, reluLayer, tanhLayer);", "x").shape == (1, 2)


def test_growing_in_a_loop(m):
    layers = m.value("layers = featureInputLayer(3);\n"
                     "for i = 1:3, layers = [layers; fullyConnectedLayer(8); tanhLayer]; end\n"
                     "layers = [layers; fullyConnectedLayer(1)];", "layers")
    assert kinds(layers) == ["Feature Input"] + ["Fully Connected", "Tanh"] * 3 + ["Fully Connected"]
    assert m.run("disp(numel(layers))", layers=layers).strip() == "8"


def test_concatenation_errors(m):
    err = m.fails("x = [reluLayer, 1];")
    assert err.identifier == "MATLAB:invalidConversion"
    assert err.message == "Conversion to nnet.cnn.layer.Layer from double is not possible."
    assert m.fails("x = [reluLayer; 'a'];").identifier == "MATLAB:invalidConversion"
    assert m.fails("x = [reluLayer, {1}];").identifier == "MATLAB:invalidConversion"
    assert m.fails("x = [reluLayer tanhLayer; sigmoidLayer];").identifier == \
        "MATLAB:catenate:dimensionMismatch"


# ------------------------------------------------------------------ class, size, isa


def test_class_size_and_isa(m):
    out = m.run(MIXED + "\nfprintf('%s|%s|%d|%d|%d|%d|%d|%d\\n', class(layers), class(layers(2)), "
                "numel(layers), length(layers), isempty(layers), "
                "isa(layers, 'nnet.cnn.layer.Layer'), isa(layers(2), 'nnet.cnn.layer.Layer'), "
                "isa(layers(2), 'nnet.cnn.layer.FullyConnectedLayer'))")
    assert out.strip() == "nnet.cnn.layer.Layer|nnet.cnn.layer.FullyConnectedLayer|3|3|0|1|1|1"
    assert m.run(MIXED + "\ndisp(size(layers))").split() == ["3", "1"]
    assert m.run("disp(isa(reluLayer, 'double'))").strip() == "0"
    assert m.run("disp(class([reluLayer; reluLayer]))").strip() == "nnet.cnn.layer.ReLULayer"
    assert m.run("disp(size(reluLayer))").split() == ["1", "1"]


# ------------------------------------------------------------------ indexing


def test_indexing(m):
    m.run(MIXED)
    assert m.value(MIXED + " x = layers(2);", "x").LAYER_TYPE == "Fully Connected"
    assert m.value(MIXED + " x = layers(end);", "x").LAYER_TYPE == "ReLU"
    assert kinds(m.value(MIXED + " x = layers(2:3);", "x")) == ["Fully Connected", "ReLU"]
    assert kinds(m.value(MIXED + " x = layers([1 3]);", "x")) == ["Feature Input", "ReLU"]
    assert kinds(m.value(MIXED + " x = layers(logical([1 0 1]));", "x")) == ["Feature Input", "ReLU"]
    assert m.value(MIXED + " x = layers([]);", "x").shape[0] == 0
    assert m.value("x = reluLayer; y = x(1);", "y").LAYER_TYPE == "ReLU"
    assert m.run(MIXED + " disp(layers(2).Name)").strip() == "fc"
    assert m.run(MIXED + " disp(layers(2).OutputSize)").strip() == "3"


def test_indexing_errors(m):
    assert m.fails(MIXED + " layers(4)").identifier == "MATLAB:badsubscript"
    assert m.fails("x = reluLayer; x(2)").identifier == "MATLAB:badsubscript"
    assert m.run(MIXED + " layers.Name").count("ans =") == 3  # a comma-separated list, as MATLAB shows
    assert m.fails(MIXED + " layers.Nope").identifier == "MATLAB:noSuchMethodOrField"


def test_indexed_assignment(m):
    renamed = m.value(MIXED + " layers(2).Name = 'x';", "layers")
    assert names(renamed) == ["", "x", ""]
    grown = m.value(MIXED + " layers(end+1) = sigmoidLayer;", "layers")
    assert kinds(grown) == ["Feature Input", "Fully Connected", "ReLU", "Sigmoid"]
    assert grown.shape == (4, 1)
    deleted = m.value(MIXED + " layers(2) = [];", "layers")
    assert kinds(deleted) == ["Feature Input", "ReLU"]
    replaced = m.value(MIXED + " layers(3) = fullyConnectedLayer(5);", "layers")
    assert replaced.layers[2].values["OutputSize"] == 5
    many = m.value(MIXED + " layers(2:3) = [tanhLayer; eluLayer];", "layers")
    assert kinds(many) == ["Feature Input", "Tanh", "ELU"]
    single = m.value("x = reluLayer; x(2) = tanhLayer;", "x")
    assert kinds(single) == ["ReLU", "Tanh"] and single.shape == (1, 2)
    fresh = m.value("clear y; y(1) = reluLayer;", "y")
    assert fresh.LAYER_TYPE == "ReLU"
    from_empty = m.value("z = []; z(1) = reluLayer; z(2) = tanhLayer;", "z")
    assert kinds(from_empty) == ["ReLU", "Tanh"]
    one_left = m.value(MIXED + " layers([1 2]) = [];", "layers")
    assert one_left.LAYER_TYPE == "ReLU"


def test_assignment_leaves_the_original_alone(m):
    original, changed = m.values(MIXED + " other = layers; other(2).Name = 'changed';",
                                 "layers", "other")
    assert names(original) == ["", "fc", ""] and names(changed) == ["", "changed", ""]


def test_indexed_assignment_errors(m):
    assert m.fails(MIXED + " layers(2) = 5;").identifier == "MATLAB:invalidConversion"
    assert m.fails(MIXED + " layers(6) = reluLayer;").identifier == \
        "MATLAB:heterogeneous:InvalidDefaultObject"
    assert m.fails(MIXED + " layers(2).OutputSize = 4;").identifier == "MATLAB:class:SetProhibited"
    assert m.fails(MIXED + " layers(2).Name = 4;").identifier == "MATLAB:validators:mustBeTextScalar"
    assert m.fails("x = 1:3; x(2) = reluLayer;").identifier == "MATLAB:invalidConversion"


# ------------------------------------------------------------------ helpers and checks


def test_layer_array_helpers(m):
    relu = m.value("x = reluLayer;", "x")
    assert layer_array([relu]) is relu
    both = layer_array([relu, relu], column=False)
    assert type(both) is LayerArray and both.shape == (1, 2)
    assert layers_of(relu) == [relu] and layers_of(both) == [relu, relu]
    assert layers_of(1.0) is None
    assert LayerArray([]).shape == (0, 1)


def test_shared_checks():
    assert to_str(checked_name(char_row("a"))) == "a"
    with pytest.raises(MatlabError) as info:
        checked_name(3.0)
    assert info.value.identifier == "MATLAB:validators:mustBeTextScalar"
    assert positive_integer("N")(4.0) == 4.0
    for bad in (0.0, 1.5, np.array([[1.0, 2.0]]), char_row("a"), float("inf")):
        with pytest.raises(MatlabError):
            positive_integer("N")(bad)
    assert to_str(size_or_auto("InputSize")(char_row("AUTO"))) == "auto"
    assert size_or_auto("InputSize")(3.0) == 3.0
    np.testing.assert_array_equal(size_or_auto("S", 2)(np.array([[2.0, 3.0]])), [[2, 3]])
    with pytest.raises(MatlabError):
        size_or_auto("S", 2)(3.0)
    assert nonnegative_scalar("F")(0.0) == 0.0
    with pytest.raises(MatlabError):
        nonnegative_scalar("F")(-1.0)
    assert logical_scalar("B")(True) is True and logical_scalar("B")(0.0) is False


def test_name_value_parsing_is_case_insensitive_and_accepts_strings(m):
    layer = m.value('x = fullyConnectedLayer(2, "name", "a", WEIGHTL2FACTOR=2);', "x")
    assert to_str(layer.values["Name"]) == "a" and layer.values["WeightL2Factor"] == 2


def test_transpose_and_isequal(m):
    row = m.value(MIXED + " x = layers';", "x")
    assert row.shape == (1, 3) and kinds(row) == ["Feature Input", "Fully Connected", "ReLU"]
    assert m.value(MIXED + " x = layers.';", "x").shape == (1, 3)
    assert m.value("x = reluLayer';", "x").LAYER_TYPE == "ReLU"
    out = m.run("fprintf('%d', isequal(reluLayer, reluLayer), isequal([reluLayer; tanhLayer], "
                "[reluLayer; tanhLayer]), isequal(reluLayer, tanhLayer), "
                "isequal(fullyConnectedLayer(2), fullyConnectedLayer(3)), isequal(reluLayer, 1), "
                "isequal([reluLayer tanhLayer], [reluLayer; tanhLayer]))")
    assert out == "110000"


def test_two_dimensional_layer_arrays(m):
    grid = m.value("x = [reluLayer tanhLayer; eluLayer geluLayer];", "x")
    assert grid.shape == (2, 2) and kinds(grid) == ["ReLU", "ELU", "Tanh", "GELU"]
    assert kinds(m.value("x = [reluLayer tanhLayer; eluLayer geluLayer]'; ", "x")) == \
        ["ReLU", "Tanh", "ELU", "GELU"]
    assert kinds(m.value("x = [reluLayer tanhLayer; eluLayer geluLayer]; y = x(2, :);", "y")) == \
        ["ELU", "GELU"]
    assert m.value("x = [reluLayer tanhLayer; eluLayer geluLayer]; y = x(:);", "y").shape == (4, 1)
    assert m.value("x = [reluLayer tanhLayer; eluLayer geluLayer]; y = x([]);", "y").shape == (0, 0)


def test_a_for_loop_takes_each_layer_of_a_row_array(m):
    out = m.run("for l = [reluLayer tanhLayer sigmoidLayer]\n disp(class(l))\nend")
    assert out.split() == ["nnet.cnn.layer.ReLULayer", "nnet.cnn.layer.TanhLayer",
                           "nnet.cnn.layer.SigmoidLayer"]


def test_dot_access_on_a_layer_array_is_a_comma_separated_list(m):
    names = m.value("L = [reluLayer(Name='a'); tanhLayer(Name='b')]; n = {L.Name};", "n")
    assert [to_str(v) for v in names.values()] == ["a", "b"]
    assert m.fails("L = [reluLayer(Name='a'); tanhLayer(Name='b')]; x = L.Name + 1;").identifier \
        == "MATLAB:index:expected_one_output_from_expression"


def test_repmat_and_flip_rearrange_the_layers_of_an_array(m):
    layers = m.value("b = [fullyConnectedLayer(4); tanhLayer]; L = [featureInputLayer(2); "
                     "repmat(b, [3 1]); fullyConnectedLayer(1)];", "L")
    assert kinds(layers) == ["Feature Input"] + ["Fully Connected", "Tanh"] * 3 + ["Fully Connected"]
    assert layers.shape == (8, 1)
    flipped = m.value("b = [fullyConnectedLayer(4); tanhLayer]; f = flipud(b);", "f")
    assert kinds(flipped) == ["Tanh", "Fully Connected"]
    assert m.value("r = repmat(reluLayer, 1, 3);", "r").shape == (1, 3)
