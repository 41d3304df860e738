"""How layers and layer arrays display: golden text in MATLAB's layout."""

from __future__ import annotations

# disp(fullyConnectedLayer(10, Name='fc1')); the display of a variable adds its name
FC_DISP = """  FullyConnectedLayer with properties:

          Name: 'fc1'

   Hyperparameters
     InputSize: 'auto'
    OutputSize: 10

   Learnable Parameters
       Weights: []
          Bias: []

  Show all properties

"""
FC = "\nlayer = \n\n" + FC_DISP


def test_fully_connected_display(m):
    assert m.run("layer = fullyConnectedLayer(10, Name='fc1')") == FC


def test_single_property_layer_display(m):
    assert m.run("r = reluLayer") == "\nr = \n\n  ReLULayer with properties:\n\n    Name: ''\n\n"


EMPTY_GROUPS = """
   Learnable Parameters
    No properties.

   State Parameters
    No properties.

  Show all properties

"""


def test_newer_layers_list_their_empty_parameter_groups(m):
    # the sigmoidLayer, tanhLayer and swishLayer pages show both groups, empty
    for code, title in (("sigmoidLayer", "SigmoidLayer"), ("tanhLayer", "TanhLayer"),
                        ("swishLayer", "SwishLayer")):
        shown = m.run(f"L = {code}(Name='a')")
        assert shown == f"\nL = \n\n  {title} with properties:\n\n    Name: 'a'\n" + EMPTY_GROUPS


def test_elu_shows_alpha_beside_its_name(m):
    shown = m.run("L = eluLayer(0.5, Name='elu1')")
    assert shown == ("\nL = \n\n  ELULayer with properties:\n\n     Name: 'elu1'\n"
                     "    Alpha: 0.5000\n" + EMPTY_GROUPS)


def test_older_layers_show_only_the_groups_they_have(m):
    # reluLayer and dropoutLayer: no empty groups and no "Show all properties" line
    assert "No properties." not in m.run("r = reluLayer")
    shown = m.run("d = dropoutLayer(0.2)")
    assert "Show all properties" not in shown and "   Hyperparameters\n    Probability: 0.2000\n" in shown


def test_grouped_names_align_across_groups(m):
    expected = "\nL = \n" + """
  LeakyReLULayer with properties:

     Name: 'lk'

   Hyperparameters
    Scale: 0.2000

"""
    assert m.run("L = leakyReluLayer(0.2, Name='lk')") == expected


def test_input_layer_display_shows_the_statistics_in_use(m):
    expected = "\nL = \n" + """
  SequenceInputLayer with properties:

                      Name: ''
                 InputSize: 4
                 MinLength: 1
        SplitComplexInputs: 0

   Hyperparameters
             Normalization: 'rescale-symmetric'
    NormalizationDimension: 'auto'
                       Max: []
                       Min: []

"""
    assert m.run("L = sequenceInputLayer(4, Normalization='rescale-symmetric')") == expected
    plain = m.run("L = featureInputLayer(2)")
    assert "Mean" not in plain and "Normalization: 'none'" in plain
    zscore = m.run("L = featureInputLayer(2, Normalization='zscore')")
    assert "                      Mean: []\n         StandardDeviation: []\n" in zscore


def test_initialised_layer_shows_parameter_sizes(m):
    out = m.run("rng(0); L = fullyConnectedLayer(3); L = L; W = single(ones(3, 2)); "
                "L.Weights = W; L.Bias = single([1; 2; 3])")
    assert "       Weights: [3×2 single]\n          Bias: [3×1 single]\n" in out


def test_disp_of_a_layer(m):
    assert m.run("disp(fullyConnectedLayer(10, Name='fc1'))") == FC_DISP


ARRAY = "\nlayers = \n" + """
  3×1 Layer array with layers:

     1   ''     Feature Input     2 features
     2   'fc'   Fully Connected   10 fully connected layer
     3   ''     ReLU              ReLU

"""


def test_layer_array_display(m):
    assert m.run("layers = [featureInputLayer(2); fullyConnectedLayer(10, Name='fc'); reluLayer]") \
        == ARRAY


def test_layer_array_disp_and_compact(m):
    body = ARRAY.split("\n\n", 2)[2]
    assert m.run("disp([featureInputLayer(2); fullyConnectedLayer(10, Name='fc'); reluLayer])") == \
        "  3×1 Layer array with layers:\n\n" + body
    compact = m.run("format compact; x = [reluLayer tanhLayer]; x, format loose")
    assert compact == ("x = \n  1×2 Layer array with layers:\n     1   ''   ReLU   ReLU\n"
                       "     2   ''   Tanh   Hyperbolic tangent\n")


def test_long_array_numbers_right_aligned(m):
    out = m.run("layers = featureInputLayer(1); for i = 1:10, layers = [layers; tanhLayer]; end\n"
                "layers")
    lines = out.splitlines()
    assert lines[3] == "  11×1 Layer array with layers:"
    assert lines[5] == "     1   ''   Feature Input   1 features"
    assert lines[14] == "    10   ''   Tanh            Hyperbolic tangent"
    assert lines[15] == "    11   ''   Tanh            Hyperbolic tangent"


def test_empty_layer_array_display(m):
    assert m.run("z = reluLayer; z(1) = []") == "\nz = \n\n  1×0 Layer array with layers:\n\n"


def test_descriptions_in_an_array(m):
    out = m.run("x = [imageInputLayer([28 28 3]); dropoutLayer; eluLayer; geluLayer; sigmoidLayer; "
                "softmaxLayer; swishLayer; flattenLayer; leakyReluLayer; sequenceInputLayer(12)]")
    assert "     1   ''   Image Input      28×28×3 images with 'zerocenter' normalization\n" in out
    assert "     2   ''   Dropout          50% dropout\n" in out
    assert "     3   ''   ELU              ELU with Alpha 1\n" in out
    assert "     9   ''   Leaky ReLU       Leaky ReLU with scale 0.01\n" in out
    assert "    10   ''   Sequence Input   Sequence input with 12 dimensions\n" in out
