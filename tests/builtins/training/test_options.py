"""trainingOptions: defaults per solver, name=value options, checks, assignment, display."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlang.builtins.training.options import TrainingOptions
from mlang.values.core import char_text
from mlang.values.string import StringArray

SGDM_DISPLAY = "\noptions = \n" + """
  TrainingOptionsSGDM with properties:

                        Momentum: 0.9000
                InitialLearnRate: 0.0100
                       MaxEpochs: 30
               LearnRateSchedule: 'none'
             LearnRateDropFactor: 0.1000
             LearnRateDropPeriod: 10
                   MiniBatchSize: 128
                         Shuffle: 'once'
             CheckpointFrequency: 1
         CheckpointFrequencyUnit: 'epoch'
                  SequenceLength: 'longest'
        PreprocessingEnvironment: 'serial'
                L2Regularization: 1.0000e-04
         GradientThresholdMethod: 'l2norm'
               GradientThreshold: Inf
                         Verbose: 1
                VerboseFrequency: 50
                  ValidationData: []
             ValidationFrequency: 50
              ValidationPatience: Inf
             ObjectiveMetricName: 'loss'
                  CheckpointPath: ''
            ExecutionEnvironment: 'auto'
                       OutputFcn: []
                         Metrics: []
                           Plots: 'none'
            SequencePaddingValue: 0
        SequencePaddingDirection: 'right'
                InputDataFormats: "auto"
               TargetDataFormats: "auto"
         ResetInputNormalization: 1
    BatchNormalizationStatistics: 'auto'
                   OutputNetwork: 'auto'
                    Acceleration: "auto"

"""

LBFGS_HEAD = "\no = \n" + """
  TrainingOptionsLBFGS with properties:

                   MaxIterations: 1000
                LineSearchMethod: "weak-wolfe"
      MaxNumLineSearchIterations: 20
                     HistorySize: 10
     InitialInverseHessianFactor: 1
               GradientTolerance: 1.0000e-05
                   StepTolerance: 1.0000e-05
"""


def test_sgdm_display(m):
    assert m.run("options = trainingOptions('sgdm')") == SGDM_DISPLAY


def test_lbfgs_display_starts_with_its_own_options(m):
    out = m.run('o = trainingOptions("lbfgs")')
    assert out.startswith(LBFGS_HEAD)
    assert "MiniBatchSize" not in out and "MaxEpochs" not in out


@pytest.mark.parametrize("solver, cls, rate", [
    ("sgdm", "nnet.cnn.TrainingOptionsSGDM", 0.01),
    ("adam", "nnet.cnn.TrainingOptionsADAM", 0.001),
    ("rmsprop", "nnet.cnn.TrainingOptionsRMSProp", 0.001),
])
def test_stochastic_defaults(m, solver, cls, rate):
    o = m.value(f"x = trainingOptions('{solver}');")
    assert isinstance(o, TrainingOptions) and o.solver == solver
    assert m.run(f"disp(class(trainingOptions('{solver}')))") == cls + "\n"
    assert o.number("InitialLearnRate") == rate
    assert o.number("MaxEpochs") == 30 and o.number("MiniBatchSize") == 128
    assert o.text("LearnRateSchedule") == "none"
    assert o.number("LearnRateDropFactor") == 0.1 and o.number("LearnRateDropPeriod") == 10
    assert o.text("Shuffle") == "once" and o.flag("Verbose") is True
    assert o.number("VerboseFrequency") == 50 and o.number("ValidationFrequency") == 50
    assert o.number("L2Regularization") == 1e-4 and o.number("GradientThreshold") == math.inf
    assert o.text("Plots") == "none" and o.text("ExecutionEnvironment") == "auto"
    assert o.text("InputDataFormats") == "auto" and o.text("OutputNetwork") == "auto"


def test_solver_specific_defaults(m):
    adam, rms, sgdm = m.values("a = trainingOptions('adam'); r = trainingOptions('rmsprop'); "
                               "s = trainingOptions('sgdm');", "a", "r", "s")
    assert adam.number("GradientDecayFactor") == 0.9
    assert adam.number("SquaredGradientDecayFactor") == 0.999 and adam.number("Epsilon") == 1e-8
    assert rms.number("SquaredGradientDecayFactor") == 0.9 and "GradientDecayFactor" not in rms.values
    assert sgdm.number("Momentum") == 0.9 and "Epsilon" not in sgdm.values


def test_lbfgs_defaults(m):
    o = m.value("x = trainingOptions('lbfgs');")
    assert o.number("MaxIterations") == 1000 and o.text("LineSearchMethod") == "weak-wolfe"
    assert o.number("HistorySize") == 10 and o.number("GradientTolerance") == 1e-5
    assert "MiniBatchSize" not in o.values


def test_name_value_options(m):
    o = m.value("x = trainingOptions('adam', MaxEpochs=5, miniBatchSize=int32(16), "
                "Shuffle='every', LearnRateSchedule=\"piecewise\", Verbose=false, "
                "Plots='training-progress', InputDataFormats=\"BC\", ValidationData={1, 2});")
    assert o.number("MaxEpochs") == 5 and o.number("MiniBatchSize") == 16
    assert o.text("Shuffle") == "every-epoch" and o.text("LearnRateSchedule") == "piecewise"
    assert o.flag("Verbose") is False and o.text("Plots") == "training-progress"
    assert isinstance(o.values["InputDataFormats"], StringArray)
    assert o.text("InputDataFormats") == "BC"
    assert char_text(o.values["Shuffle"]) == "every-epoch"


def test_solver_name_case_and_string(m):
    assert m.value('x = trainingOptions("ADAM");').solver == "adam"


def test_assignment_copies_and_checks(m):
    out = m.run("a = trainingOptions('sgdm'); b = a; b.MaxEpochs = 5; "
                "disp([a.MaxEpochs b.MaxEpochs]); b.Shuffle = 'never'; disp(b.Shuffle)")
    assert out == "    30     5\n\nnever\n"
    e = m.fails("a = trainingOptions('sgdm'); a.MaxEpochs = 0;")
    assert e.identifier == "MATLAB:trainingOptions:expectedPositive"
    e = m.fails("a = trainingOptions('sgdm'); a.Nope = 1;")
    assert e.identifier == "MATLAB:noPublicFieldForClass"
    assert "nnet.cnn.TrainingOptionsSGDM" in e.message


@pytest.mark.parametrize("code, identifier, words", [
    ("trainingOptions('foo')", "MATLAB:trainingOptions:unrecognizedStringChoice",
     "Expected solverName to match one of these values:\n\n'sgdm', 'rmsprop', 'adam', 'lbfgs'"
     "\n\nThe input, 'foo', did not match any of the valid values."),
    ("trainingOptions('sgdm', MaxEpochs=2.5)", "MATLAB:trainingOptions:expectedInteger",
     "Expected MaxEpochs to be integer-valued."),
    ("trainingOptions('sgdm', MaxEpochs=[1 2])", "MATLAB:trainingOptions:expectedScalar",
     "Expected MaxEpochs to be a scalar."),
    ("trainingOptions('sgdm', MaxEpochs='a')", "MATLAB:trainingOptions:invalidType",
     "Expected MaxEpochs to be one of these types:"),
    ("trainingOptions('sgdm', Momentum=1)", "MATLAB:trainingOptions:expectedLess",
     "Expected Momentum to be an array with all of the values < 1."),
    ("trainingOptions('adam', Momentum=0.5)", "MATLAB:InputParser:UnmatchedParameter",
     "'Momentum' is not a recognized parameter."),
    ("trainingOptions('sgdm', 'MaxEpochs')", "MATLAB:InputParser:ParamMissingValue",
     "Parameter names must be followed by values."),
    ("trainingOptions('sgdm', Shuffle='sometimes')", "MATLAB:trainingOptions:unrecognizedStringChoice",
     "'once', 'never', 'every-epoch'"),
    ("trainingOptions('sgdm', L2Regularization=-1)", "MATLAB:trainingOptions:expectedNonnegative",
     "Expected L2Regularization to be nonnegative."),
    ("trainingOptions('sgdm', Verbose=2)", "MATLAB:trainingOptions:expectedBinary",
     "Expected Verbose to be binary."),
    ("trainingOptions('sgdm', LearnRateDropFactor=2)", "MATLAB:trainingOptions:notLessEqual",
     "Expected LearnRateDropFactor to be an array with all of the values <= 1."),
    ("trainingOptions('sgdm', OutputFcn=3)", "MATLAB:trainingOptions:invalidType",
     "Instead its type was double."),
    ("trainingOptions()", "MATLAB:minrhs", "Not enough input arguments."),
])
def test_errors(m, code, identifier, words):
    e = m.fails(code)
    assert e.identifier == identifier
    assert words in e.message


def test_schedule_function_handle_and_values_accessor(m):
    o = m.value("x = trainingOptions('sgdm', LearnRateSchedule=@(e) 0.1/e, GradientThreshold=1);")
    assert o.text("LearnRateSchedule") is None and o.number("GradientThreshold") == 1
    assert isinstance(o.values["ValidationData"], np.ndarray) and o.values["ValidationData"].size == 0
