"""additionLayer, multiplicationLayer, concatenationLayer, depthConcatenationLayer."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.errors import MatlabError
from mlang.values.core import to_str
from tests.builtins.networks.helpers import rand, texts
from tests.builtins.networks.layer_checks import check_layer_gradients, layer_outputs

# ------------------------------------------------------------------ construction


def test_addition_defaults(m):
    layer = m.value("L = additionLayer(3);", "L")
    assert layer.matlab_class == "nnet.cnn.layer.AdditionLayer"
    assert to_str(layer.values["Name"]) == ""
    assert layer.values["NumInputs"] == 3.0
    assert texts(layer.values["InputNames"]) == ["in1", "in2", "in3"]
    assert layer.input_names() == ["in1", "in2", "in3"]
    assert layer.output_names() == ["out"]
    assert layer.LAYER_TYPE == "Addition"
    assert layer.DEFAULT_NAME == "addition"
    assert layer.description() == "Element-wise addition of 3 inputs"
    assert layer.LEARNABLES == () and layer.STATES == ()


def test_read_properties(m):
    n, names, nout, onames = m.values(
        "L = multiplicationLayer(2, Name='mul'); n = L.NumInputs; names = L.InputNames; "
        "nout = L.NumOutputs; onames = L.OutputNames;", "n", "names", "nout", "onames")
    assert n == 2.0 and texts(names) == ["in1", "in2"]
    assert nout == 1.0 and texts(onames) == ["out"]


def test_name_options(m):
    name = m.value("L = additionLayer(2, 'Name', \"add\"); n = L.Name;", "n")
    assert isinstance(name, np.ndarray) and to_str(name) == "add"  # kept as a char row
    assert to_str(m.value("L = depthConcatenationLayer(2, name='dc'); n = L.Name;", "n")) == "dc"
    assert to_str(m.value("L = concatenationLayer(1, 2, Name='c'); L.Name = 'cc'; n = L.Name;",
                          "n")) == "cc"


def test_other_classes(m):
    mul = m.value("L = multiplicationLayer(4);", "L")
    assert mul.matlab_class == "nnet.cnn.layer.MultiplicationLayer"
    assert (mul.LAYER_TYPE, mul.DEFAULT_NAME) == ("Multiplication", "multiplication")
    assert mul.description() == "Element-wise multiplication of 4 inputs"
    cat = m.value("L = concatenationLayer(3, 2);", "L")
    assert cat.matlab_class == "nnet.cnn.layer.ConcatenationLayer"
    assert cat.values["Dim"] == 3.0
    assert (cat.LAYER_TYPE, cat.DEFAULT_NAME) == ("Concatenation", "concat")
    assert cat.description() == "Concatenation of 2 inputs along dimension 3"
    dc = m.value("L = depthConcatenationLayer(2);", "L")
    assert dc.matlab_class == "nnet.cnn.layer.DepthConcatenationLayer"
    assert (dc.LAYER_TYPE, dc.DEFAULT_NAME) == ("Depth concatenation", "depthcat")
    assert dc.description() == "Depth concatenation of 2 inputs"


@pytest.mark.parametrize("code, identifier", [
    ("additionLayer(1)", "MATLAB:validators:mustBeGreaterThanOrEqual"),
    ("additionLayer(2.5)", "MATLAB:validators:mustBeInteger"),
    ("additionLayer()", "MATLAB:minrhs"),
    ("multiplicationLayer(0)", "MATLAB:validators:mustBeGreaterThanOrEqual"),
    ("concatenationLayer(0, 2)", "MATLAB:validators:mustBeGreaterThanOrEqual"),
    ("concatenationLayer(1, 1)", "MATLAB:validators:mustBeGreaterThanOrEqual"),
    ("concatenationLayer(1)", "MATLAB:minrhs"),
    ("depthConcatenationLayer(1)", "MATLAB:validators:mustBeGreaterThanOrEqual"),
    ("additionLayer(2, 'Name')", "MATLAB:InputParser:ParamMissingValue"),
    ("additionLayer(2, 'Size', 3)", "MATLAB:InputParser:UnmatchedParameter"),
    ("additionLayer(2, 'NumInputs', 3)", "MATLAB:InputParser:UnmatchedParameter"),
    ("additionLayer(2, 'Name', 5)", "MATLAB:validators:mustBeTextScalar"),
])
def test_constructor_errors(m, code, identifier):
    assert m.fails(f"L = {code};").identifier == identifier


@pytest.mark.parametrize("prop", ["NumInputs", "InputNames", "NumOutputs", "OutputNames"])
def test_read_only(m, prop):
    err = m.fails(f"L = additionLayer(2); L.{prop} = 3;")
    assert err.identifier == "MATLAB:class:SetProhibited"
    assert err.message == (f"Unable to set the '{prop}' property of class 'AdditionLayer' "
                           "because it is read-only.")


def test_concatenation_dim_read_only(m):
    assert m.fails("L = concatenationLayer(1, 2); L.Dim = 2;").identifier == \
        "MATLAB:class:SetProhibited"


def test_display(m):
    out = m.run("L = additionLayer(2, Name='add')")
    assert out.startswith(
        "\nL = \n\n"
        "  AdditionLayer with properties:\n\n"
        "          Name: 'add'\n"
        "     NumInputs: 2\n"
        "    InputNames: {'in1'  'in2'}\n"
    )
    out = m.run("concat = concatenationLayer(4, 2, Name='concat')")
    assert out.startswith(
        "\nconcat = \n\n"
        "  ConcatenationLayer with properties:\n\n"
        "          Name: 'concat'\n"
        "           Dim: 4\n"
        "     NumInputs: 2\n"
        "    InputNames: {'in1'  'in2'}\n"
    )


# ------------------------------------------------------------------ forward


def test_addition_forward(m):
    layer = m.value("L = additionLayer(3);", "L")
    a, b, c = rand(4, 3, seed=1), rand(4, 3, seed=2), rand(4, 3, seed=3)
    (y,) = layer_outputs(m.interp, layer, [DlArray(a, "CB"), DlArray(b, "CB"), DlArray(c, "CB")])
    assert y.fmt == "CB"
    np.testing.assert_allclose(y.data, a + b + c)


def test_addition_broadcasts_singletons(m):
    layer = m.value("L = additionLayer(2);", "L")
    a, b = rand(3, 4, 2, seed=1), rand(3, 1, 2, seed=2)
    (y,) = layer_outputs(m.interp, layer, [DlArray(a, "SCB"), DlArray(b, "SCB")])
    assert y.fmt == "SCB" and y.data.shape == (3, 4, 2)
    np.testing.assert_allclose(y.data, a + b)


def test_multiplication_forward(m):
    layer = m.value("L = multiplicationLayer(2);", "L")
    a, b = rand(2, 2, 3, 2, seed=4), rand(2, 2, 3, 2, seed=5)
    (y,) = layer_outputs(m.interp, layer, [DlArray(a, "SSCB"), DlArray(b, "SSCB")])
    assert y.fmt == "SSCB"
    np.testing.assert_allclose(y.data, a * b)


def test_concatenation_forward(m):
    layer = m.value("L = concatenationLayer(1, 2);", "L")
    a, b = rand(3, 2, seed=1), rand(5, 2, seed=2)
    (y,) = layer_outputs(m.interp, layer, [DlArray(a, "CB"), DlArray(b, "CB")])
    assert y.fmt == "CB"
    np.testing.assert_allclose(y.data, np.concatenate([a, b], axis=0))
    layer = m.value("L = concatenationLayer(2, 3);", "L")
    xs = [rand(2, k, 3, 2, seed=k) for k in (1, 2, 3)]
    (y,) = layer_outputs(m.interp, layer, [DlArray(x, "SSCB") for x in xs])
    np.testing.assert_allclose(y.data, np.concatenate(xs, axis=1))


def test_depth_concatenation_forward(m):
    layer = m.value("L = depthConcatenationLayer(2);", "L")
    a, b = rand(2, 3, 2, 2, seed=6), rand(2, 3, 4, 2, seed=7)
    (y,) = layer_outputs(m.interp, layer, [DlArray(a, "SSCB"), DlArray(b, "SSCB")])
    assert y.fmt == "SSCB" and y.data.shape == (2, 3, 6, 2)
    np.testing.assert_allclose(y.data, np.concatenate([a, b], axis=2))
    a, b = rand(3, 2, 5, seed=8), rand(1, 2, 5, seed=9)
    (y,) = layer_outputs(m.interp, layer, [DlArray(a, "CBT"), DlArray(b, "CBT")])
    np.testing.assert_allclose(y.data, np.concatenate([a, b], axis=0))


def test_single_precision_kept(m):
    layer = m.value("L = additionLayer(2);", "L")
    x = DlArray(np.ones((2, 2), dtype=np.float32), "CB")
    (y,) = layer_outputs(m.interp, layer, [x, x])
    assert y.data.dtype == np.float32


# ------------------------------------------------------------------ errors


def test_mismatched_formats(m):
    layer = m.value("L = additionLayer(2, Name='add');", "L")
    with pytest.raises(MatlabError) as info:
        layer_outputs(m.interp, layer, [DlArray(rand(3, 2), "CB"), DlArray(rand(3, 2), "SB")])
    assert info.value.identifier == "deep:layers:InvalidLayerInput"
    assert info.value.message.startswith("Layer 'add': Inputs must have the same data format.")


def test_mismatched_sizes(m):
    layer = m.value("L = additionLayer(2);", "L")
    with pytest.raises(MatlabError) as info:
        layer_outputs(m.interp, layer, [DlArray(rand(3, 2), "CB"), DlArray(rand(4, 2), "CB")])
    assert info.value.identifier == "MATLAB:sizeDimensionsMustMatch"
    layer = m.value("L = concatenationLayer(1, 2);", "L")
    with pytest.raises(MatlabError) as info:
        layer_outputs(m.interp, layer, [DlArray(rand(3, 2), "CB"), DlArray(rand(4, 3), "CB")])
    assert info.value.identifier == "MATLAB:catenate:dimensionMismatch"


def test_wrong_input_count(m):
    layer = m.value("L = additionLayer(3);", "L")
    with pytest.raises(MatlabError) as info:
        layer_outputs(m.interp, layer, [DlArray(rand(3, 2), "CB")] * 2)
    assert "Layer requires 3 inputs but received 2." in info.value.message


def test_concatenation_dimension_beyond_format(m):
    layer = m.value("L = concatenationLayer(4, 2);", "L")
    with pytest.raises(MatlabError) as info:
        layer_outputs(m.interp, layer, [DlArray(rand(3, 2), "CB")] * 2)
    assert info.value.identifier == "deep:layers:InvalidLayerInput"


def test_depth_concatenation_needs_channels(m):
    layer = m.value("L = depthConcatenationLayer(2);", "L")
    with pytest.raises(MatlabError) as info:
        layer_outputs(m.interp, layer, [DlArray(rand(3, 2), "SB")] * 2)
    assert info.value.identifier == "deep:layers:InvalidLayerInput"


# ------------------------------------------------------------------ gradients


@pytest.mark.parametrize("code, shapes, fmt", [
    ("additionLayer(2)", [(3, 2), (3, 2)], "CB"),
    ("additionLayer(3)", [(2, 3, 2), (2, 1, 2), (2, 3, 2)], "SCB"),
    ("multiplicationLayer(2)", [(3, 2), (3, 2)], "CB"),
    ("multiplicationLayer(2)", [(2, 3, 2), (2, 1, 2)], "SCB"),
    ("concatenationLayer(1, 2)", [(2, 2), (3, 2)], "CB"),
    ("depthConcatenationLayer(2)", [(2, 2, 1, 2), (2, 2, 3, 2)], "SSCB"),
])
def test_input_gradients(m, code, shapes, fmt):
    layer = m.value(f"L = {code};", "L")
    inputs = [DlArray(rand(*s, seed=k), fmt) for k, s in enumerate(shapes)]
    check_layer_gradients(m.interp, layer, inputs)
