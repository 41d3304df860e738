"""Input layers: featureInputLayer, imageInputLayer, sequenceInputLayer and inputLayer
(defaults, options, example inputs, normalisation against NumPy, gradients, errors)."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.networks.layer import ForwardContext
from mlang.values.core import to_str
from tests.builtins.networks.layer_checks import check_layer_gradients, initialized, layer_outputs

RNG = np.random.default_rng(11)


def data(shape, fmt: str) -> DlArray:
    return DlArray(RNG.standard_normal(shape), fmt)


def test_feature_input_defaults(m):
    layer = m.value("L = featureInputLayer(3);", "L")
    v = layer.values
    assert layer.IS_INPUT and layer.input_names() == [] and layer.output_names() == ["out"]
    assert v["InputSize"] == 3 and to_str(v["Name"]) == ""
    assert to_str(v["Normalization"]) == "none" and to_str(v["NormalizationDimension"]) == "auto"
    assert v["SplitComplexInputs"] is False
    assert all(np.size(v[k]) == 0 for k in ("Mean", "StandardDeviation", "Min", "Max"))
    assert layer.matlab_class == "nnet.cnn.layer.FeatureInputLayer"
    assert layer.LAYER_TYPE == "Feature Input" and layer.DEFAULT_NAME == "input"
    assert layer.description() == "3 features"
    example = layer.input_example()
    assert example.fmt == "CB" and example.data.shape == (3, 1) and example.data.dtype == np.float32
    assert not example.data.any()


def test_feature_input_options(m):
    layer = m.value("L = featureInputLayer(2, Name='in', Normalization='zscore', Mean=[1; 2], "
                    "StandardDeviation=[2; 4]);", "L")
    assert to_str(layer.values["Name"]) == "in"
    assert layer.description() == "2 features with 'zscore' normalization"
    x = data((2, 5), "CB")
    (y,) = layer_outputs(m.interp, layer, [x])
    np.testing.assert_allclose(y.data, (x.data - [[1], [2]]) / [[2], [4]])
    assert y.fmt == "CB"
    check_layer_gradients(m.interp, layer, [data((2, 3), "CB")])


@pytest.mark.parametrize(("how", "reference"), [
    ("none", lambda x: x),
    ("zerocenter", lambda x: x - 0.5),
    ("rescale-zero-one", lambda x: (x + 1) / 4),
    ("rescale-symmetric", lambda x: 2 * (x + 1) / 4 - 1),
])
def test_feature_input_normalizations(m, how, reference):
    layer = m.value(f"L = featureInputLayer(2, Normalization='{how}', Mean=0.5, Min=-1, Max=3);", "L")
    x = data((2, 4), "CB")
    (y,) = layer_outputs(m.interp, layer, [x])
    np.testing.assert_allclose(y.data, reference(x.data), rtol=1e-12)


def test_function_handle_normalization(m):
    layer = m.value("L = featureInputLayer(2, Normalization=@(x) 2*x + 1);", "L")
    x = data((2, 3), "CB")
    (y,) = layer_outputs(m.interp, layer, [x])
    np.testing.assert_allclose(y.data, 2 * x.data + 1)
    assert layer.description() == "2 features with 'custom' normalization"


def test_empty_statistics_are_set_by_initialisation(m):
    ctx = ForwardContext(m.interp, False)
    zero = m.value("L = imageInputLayer([2 2 1]);", "L")
    ready = zero.initialize([zero.input_example()], ctx)
    assert ready.values["Mean"] == 0.0
    sym = m.value("L = featureInputLayer(2, Normalization='rescale-symmetric');", "L").initialize([], ctx)
    assert sym.values["Min"] == -1.0 and sym.values["Max"] == 1.0
    one = m.value("L = featureInputLayer(2, Normalization='rescale-zero-one');", "L").initialize([], ctx)
    assert one.values["Min"] == 0.0 and one.values["Max"] == 1.0
    z = m.value("L = featureInputLayer(2, Normalization='zscore');", "L").initialize([], ctx)
    assert z.values["Mean"] == 0.0 and z.values["StandardDeviation"] == 1.0
    x = data((2, 3), "CB")
    (y,) = layer_outputs(m.interp, z, [x])
    np.testing.assert_allclose(y.data, x.data)
    given = m.value("L = featureInputLayer(2, Normalization='zerocenter', Mean=[1;2]);", "L")
    np.testing.assert_array_equal(given.initialize([], ctx).values["Mean"], [[1], [2]])


def test_image_input_layer(m):
    layer = m.value("L = imageInputLayer([4 3]);", "L")
    np.testing.assert_array_equal(layer.values["InputSize"], [[4, 3, 1]])
    assert to_str(layer.values["Normalization"]) == "zerocenter"
    assert to_str(layer.values["DataAugmentation"]) == "none"
    assert layer.LAYER_TYPE == "Image Input" and layer.DEFAULT_NAME == "imageinput"
    assert layer.description() == "4×3×1 images with 'zerocenter' normalization"
    example = layer.input_example()
    assert example.fmt == "SSCB" and example.shape == (4, 3, 1, 1)
    rgb = m.value("L = imageInputLayer([2 2 3], Normalization='none', Name='img');", "L")
    assert rgb.description() == "2×2×3 images"
    mean = RNG.standard_normal((2, 2, 3))
    centred = m.value("L = imageInputLayer([2 2 3], Mean=M);", "L", M=mean)
    x = data((2, 2, 3, 2), "SSCB")
    (y,) = layer_outputs(m.interp, centred, [x])
    np.testing.assert_allclose(y.data, x.data - mean[..., None])
    assert y.fmt == "SSCB"


def test_sequence_input_layer(m):
    layer = m.value("L = sequenceInputLayer(5, MinLength=3);", "L")
    assert layer.values["InputSize"] == 5 and layer.values["MinLength"] == 3
    assert to_str(layer.values["Normalization"]) == "none"
    assert layer.description() == "Sequence input with 5 dimensions"
    assert layer.LAYER_TYPE == "Sequence Input" and layer.DEFAULT_NAME == "sequenceinput"
    example = layer.input_example()
    assert example.fmt == "CBT" and example.shape == (5, 1, 3)
    images = m.value("L = sequenceInputLayer([4 4 2]);", "L")
    assert images.input_example().fmt == "SSCBT"
    assert images.description() == "Sequence input with 4×4×2 dimensions"
    x = data((5, 2, 4), "CBT")
    (y,) = layer_outputs(m.interp, layer, [x])
    np.testing.assert_array_equal(y.data, x.data)


def test_input_layer(m):
    layer = m.value("L = inputLayer([NaN 3], 'BC');", "L")
    assert layer.IS_INPUT and layer.LAYER_TYPE == "Input"
    assert to_str(layer.values["InputFormat"]) == "BC"
    example = layer.input_example()
    assert example.fmt == "CB" and example.shape == (3, 1)
    seq = m.value("L = inputLayer([4 NaN NaN], 'CBT', Name='x');", "L")
    assert seq.input_example().fmt == "CBT" and to_str(seq.values["Name"]) == "x"


def test_input_layer_errors(m):
    assert m.fails("featureInputLayer(0)").identifier == "MATLAB:validators:mustBePositiveInteger"
    assert m.fails("featureInputLayer(2, Normalization='scale')").identifier == \
        "MATLAB:validators:mustBeMember"
    assert m.fails("featureInputLayer(2, NormalizationDimension='x')").identifier == \
        "MATLAB:validators:mustBeMember"
    assert m.fails("featureInputLayer(2, Mean='a')").identifier == "MATLAB:validators:mustBeNumeric"
    assert m.fails("imageInputLayer([2 2 2 2])").identifier == "MATLAB:validators:mustHaveLength"
    assert m.fails("imageInputLayer([2 -1])").identifier == "MATLAB:validators:mustBePositiveInteger"
    assert m.fails("sequenceInputLayer(2, MinLength=0)").identifier == \
        "MATLAB:validators:mustBePositiveInteger"
    assert m.fails("inputLayer([1 2], 'CBX')").identifier == "deep:dlarray:InvalidFormat"
    assert m.fails("inputLayer([1 2 3], 'CB')").identifier == "deep:layer:InputSizeFormatMismatch"
    assert m.fails("L = featureInputLayer(2); L.InputSize = 3;").identifier == "MATLAB:class:SetProhibited"


def test_normalization_property_can_be_read_and_initialised_layer_keeps_format(m):
    layer = m.value("L = featureInputLayer(2, Normalization='zerocenter', Mean=[1;1]);", "L")
    assert m.run("disp(L.Normalization)", L=layer).strip() == "zerocenter"
    ready = initialized(m.interp, layer, [layer.input_example()])
    (y,) = ready.predict([layer.input_example()], ForwardContext(m.interp, False))
    assert y.fmt == "CB" and y.data.dtype == np.float32


def test_split_complex_inputs(m):
    layer = m.value("L = featureInputLayer(2, SplitComplexInputs=true);", "L")
    assert layer.values["SplitComplexInputs"] is True
    z = RNG.standard_normal((2, 3)) + 1j * RNG.standard_normal((2, 3))
    (y,) = layer_outputs(m.interp, layer, [DlArray(z, "CB")])
    assert y.fmt == "CB"
    np.testing.assert_allclose(y.data, np.vstack([z.real, z.imag]))
    image = m.value("L = imageInputLayer([2 2 1], Normalization='none', SplitComplexInputs=1);", "L")
    w = RNG.standard_normal((2, 2, 1, 2)) + 1j * RNG.standard_normal((2, 2, 1, 2))
    (y,) = layer_outputs(m.interp, image, [DlArray(w, "SSCB")])
    np.testing.assert_allclose(y.data, np.concatenate([w.real, w.imag], axis=2))
