"""functionLayer: options, display, calling the function through the interpreter, formats."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.errors import MatlabError
from mlang.values.core import to_str
from tests.builtins.networks.helpers import rand, texts
from tests.builtins.networks.layer_checks import check_layer_gradients, layer_outputs

# ------------------------------------------------------------------ construction


def test_defaults(m):
    layer = m.value("L = functionLayer(@(X) X.^2);", "L")
    assert layer.matlab_class == "nnet.cnn.layer.FunctionLayer"
    assert (layer.LAYER_TYPE, layer.DEFAULT_NAME) == ("Function", "layer")
    assert to_str(layer.values["Name"]) == ""
    assert layer.values["Formattable"] is False and layer.values["Acceleratable"] is False
    assert layer.values["NumInputs"] == 1.0 and layer.values["NumOutputs"] == 1.0
    assert texts(layer.values["InputNames"]) == ["in"]
    assert texts(layer.values["OutputNames"]) == ["out"]
    assert layer.input_names() == ["in"] and layer.output_names() == ["out"]
    assert layer.description() == "@(X)X.^2"
    assert layer.LEARNABLES == () and layer.STATES == ()


def test_options(m):
    layer = m.value("L = functionLayer(@(a, b) deal(a + b, a - b), NumInputs=2, NumOutputs=2, "
                    "Formattable=true, Acceleratable=1, Description='sum and difference', "
                    "Name='pm');", "L")
    assert to_str(layer.values["Name"]) == "pm"
    assert layer.values["Formattable"] is True and layer.values["Acceleratable"] is True
    assert layer.input_names() == ["in1", "in2"]
    assert layer.output_names() == ["out1", "out2"]
    assert layer.description() == "sum and difference"


def test_names_set_the_counts(m):
    layer = m.value("L = functionLayer(@(a, b) a, InputNames=[\"x\" \"y\"], "
                    "OutputNames={'z'});", "L")
    assert layer.values["NumInputs"] == 2.0 and layer.input_names() == ["x", "y"]
    assert layer.values["NumOutputs"] == 1.0 and layer.output_names() == ["z"]


def test_read_properties(m):
    fcn, desc, names = m.values("L = functionLayer(@sin, Description=\"sine\"); fcn = L.PredictFcn; "
                                "desc = L.Description; names = L.OutputNames;",
                                "fcn", "desc", "names")
    assert fcn.name == "sin"
    assert to_str(desc) == "sine" and texts(names) == ["out"]
    assert to_str(m.value("L = functionLayer(@sin); d = L.Description;", "d")) == "sin"


def test_settable_properties(m):
    layer = m.value("L = functionLayer(@sin); L.Name = 'f'; L.Description = 'wave';", "L")
    assert to_str(layer.values["Name"]) == "f" and layer.description() == "wave"


@pytest.mark.parametrize("prop", ["PredictFcn", "Formattable", "Acceleratable", "NumInputs",
                                  "NumOutputs", "InputNames", "OutputNames"])
def test_read_only(m, prop):
    err = m.fails(f"L = functionLayer(@sin); L.{prop} = 1;")
    assert err.identifier == "MATLAB:class:SetProhibited"
    assert err.message == (f"Unable to set the '{prop}' property of class 'FunctionLayer' "
                           "because it is read-only.")


@pytest.mark.parametrize("code, identifier", [
    ("functionLayer('sin')", "MATLAB:validation:UnableToConvert"),
    ("functionLayer()", "MATLAB:minrhs"),
    ("functionLayer(@sin, NumInputs=0)", "MATLAB:validators:mustBeGreaterThanOrEqual"),
    ("functionLayer(@sin, NumOutputs=1.5)", "MATLAB:validators:mustBeInteger"),
    ("functionLayer(@sin, NumInputs=2, InputNames={'a'})", "deep:functionLayer:NamesCountMismatch"),
    ("functionLayer(@sin, InputNames={'a', 'a'})", "deep:functionLayer:InvalidNames"),
    ("functionLayer(@sin, InputNames=3)", "MATLAB:validators:mustBeText"),
    ("functionLayer(@sin, Formattable='yes')", "MATLAB:InputParser:ArgumentFailedValidation"),
    ("functionLayer(@sin, Description=3)", "MATLAB:validators:mustBeTextScalar"),
    ("functionLayer(@sin, Learnables=3)", "MATLAB:InputParser:UnmatchedParameter"),
    ("functionLayer(@sin, 'Name')", "MATLAB:InputParser:ParamMissingValue"),
])
def test_constructor_errors(m, code, identifier):
    assert m.fails(f"L = {code};").identifier == identifier


def test_display(m):
    # the property block; the groups below it (Learnable Parameters...) belong to the
    # shared layer display
    out = m.run("L = functionLayer(@(X) X./(1 + abs(X)), Name='softsign')")
    assert out.startswith(
        "\nL = \n\n"
        "  FunctionLayer with properties:\n\n"
        "             Name: 'softsign'\n"
        "       PredictFcn: @(X)X./(1+abs(X))\n"
        "      Formattable: 0\n"
        "    Acceleratable: 0\n"
    )


# ------------------------------------------------------------------ forward


def test_unformatted_call_gets_format_back(m):
    layer = m.value("L = functionLayer(@(X) X./(1 + abs(X)));", "L")
    x = rand(3, 4)
    (y,) = layer_outputs(m.interp, layer, [DlArray(x, "CB")])
    assert y.fmt == "CB"
    np.testing.assert_allclose(y.data, x / (1 + np.abs(x)))


def test_function_sees_unformatted_data_in_format_order(m):
    # dims(X) is empty and size(X) follows S, C, B, T: the function sees the layout
    layer = m.value("L = functionLayer(@(X) X + 0*numel(dims(X)) + size(X, 3));", "L")
    x = rand(3, 2, 4)
    (y,) = layer_outputs(m.interp, layer, [DlArray(x, "CBT")])
    assert y.fmt == "CBT"
    np.testing.assert_allclose(y.data, x + 4)


def test_output_shape_may_change(m):
    layer = m.value("L = functionLayer(@(X) sum(X, 1));", "L")
    x = rand(3, 5)
    (y,) = layer_outputs(m.interp, layer, [DlArray(x, "CB")])
    assert y.fmt == "CB" and y.data.shape == (1, 5)
    np.testing.assert_allclose(y.data, x.sum(axis=0, keepdims=True))


def test_formattable_receives_formats(m):
    layer = m.value("L = functionLayer(@(X) dlarray(X + numel(dims(X)), 'CB'), "
                    "Formattable=true);", "L")
    x = rand(2, 3)
    (y,) = layer_outputs(m.interp, layer, [DlArray(x, "CB")])
    assert y.fmt == "CB"
    np.testing.assert_allclose(y.data, x + 2)


def test_formattable_may_change_format(m):
    layer = m.value("L = functionLayer(@(X) sum(X, finddim(X, 'S')), Formattable=true);", "L")
    x = rand(4, 3, 2)
    (y,) = layer_outputs(m.interp, layer, [DlArray(x, "SCB")])
    assert y.fmt == "SCB" and y.data.shape == (1, 3, 2)
    np.testing.assert_allclose(y.data, x.sum(axis=0, keepdims=True))


def test_formattable_must_return_formatted(m):
    layer = m.value("L = functionLayer(@(X) stripdims(X), Formattable=true, Name='f');", "L")
    with pytest.raises(MatlabError) as info:
        layer_outputs(m.interp, layer, [DlArray(rand(2, 3), "CB")])
    assert info.value.identifier == "deep:functionLayer:OutputNotFormatted"
    assert info.value.message.startswith("Layer 'f': Output 1 of the layer function")


def test_several_inputs_and_outputs(m):
    layer = m.value("L = functionLayer(@(a, b) deal(a + b, a .* b), NumInputs=2, "
                    "NumOutputs=2);", "L")
    a, b = rand(3, 2, seed=1), rand(3, 2, seed=2)
    y1, y2 = layer_outputs(m.interp, layer, [DlArray(a, "CB"), DlArray(b, "CB")])
    assert y1.fmt == y2.fmt == "CB"
    np.testing.assert_allclose(y1.data, a + b)
    np.testing.assert_allclose(y2.data, a * b)


def test_acceleratable_gives_the_same_results(m):
    plain = m.value("L = functionLayer(@(X) tanh(X) .* X);", "L")
    fast = m.value("L = functionLayer(@(X) tanh(X) .* X, Acceleratable=true);", "L")
    x = [DlArray(rand(3, 3), "CB")]
    np.testing.assert_array_equal(layer_outputs(m.interp, plain, x)[0].data,
                                  layer_outputs(m.interp, fast, x)[0].data)


def test_function_in_a_file(tmp_path, monkeypatch, m):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "halfsquare.m").write_text("function [y, z] = halfsquare(x)\n"
                                           "y = x.^2 / 2;\n"
                                           "z = -x;\n"
                                           "end\n")
    m.run(f"addpath('{tmp_path}');")
    try:
        layer = m.value("L = functionLayer(@halfsquare, NumOutputs=2);", "L")
        assert layer.description() == "halfsquare"
        x = rand(2, 3)
        y, z = layer_outputs(m.interp, layer, [DlArray(x, "CB")])
        np.testing.assert_allclose(y.data, x**2 / 2)
        np.testing.assert_allclose(z.data, -x)
        check_layer_gradients(m.interp, layer, [DlArray(x, "CB")])
    finally:
        m.run(f"rmpath('{tmp_path}');")


def test_errors_from_the_function_propagate(m):
    layer = m.value("L = functionLayer(@(X) [X; ones(3, 3)]);", "L")
    with pytest.raises(MatlabError) as info:
        layer_outputs(m.interp, layer, [DlArray(rand(2, 2), "CB")])
    assert info.value.identifier == "MATLAB:catenate:dimensionMismatch"


def test_too_many_dimensions_for_the_format(m):
    layer = m.value("L = functionLayer(@(X) repmat(X, 1, 1, 3));", "L")
    with pytest.raises(MatlabError):
        layer_outputs(m.interp, layer, [DlArray(rand(2, 2), "CB")])


def test_wrong_input_count(m):
    layer = m.value("L = functionLayer(@(a, b) a + b, NumInputs=2);", "L")
    with pytest.raises(MatlabError) as info:
        layer_outputs(m.interp, layer, [DlArray(rand(2, 2), "CB")])
    assert "Layer requires 2 inputs but received 1." in info.value.message


# ------------------------------------------------------------------ gradients


@pytest.mark.parametrize("code, shapes, fmt", [
    ("functionLayer(@(X) X./(1 + abs(X)))", [(3, 2)], "CB"),
    ("functionLayer(@(X) sum(X.^2, 1))", [(3, 2)], "CB"),
    ("functionLayer(@(X) exp(X) .* X, Formattable=true)", [(2, 3, 2)], "SCB"),
    ("functionLayer(@(a, b) deal(a .* b, a - b), NumInputs=2, NumOutputs=2)", [(2, 2), (2, 2)],
     "CB"),
])
def test_input_gradients(m, code, shapes, fmt):
    layer = m.value(f"L = {code};", "L")
    inputs = [DlArray(rand(*s, seed=k), fmt) for k, s in enumerate(shapes)]
    check_layer_gradients(m.interp, layer, inputs)


@pytest.mark.parametrize("code, identifier", [
    ("functionLayer(@(X) {X})", "deep:dlarray:InvalidDataType"),
    ("functionLayer(@(X) 'abc')", "deep:dlarray:InvalidDataType"),
    ("functionLayer(@(X) X, NumOutputs=2)", "MATLAB:maxlhs"),
])
def test_bad_function_outputs(m, code, identifier):
    layer = m.value(f"L = {code};", "L")
    with pytest.raises(MatlabError) as info:
        layer_outputs(m.interp, layer, [DlArray(rand(2, 2), "CB")])
    assert info.value.identifier == identifier
