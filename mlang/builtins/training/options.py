"""trainingOptions: the training options objects of trainnet.

``options = trainingOptions(solverName, Name=Value)`` returns a value object of
MATLAB's class for the solver: ``nnet.cnn.TrainingOptionsSGDM`` ('sgdm'),
``nnet.cnn.TrainingOptionsADAM`` ('adam'), ``nnet.cnn.TrainingOptionsRMSProp``
('rmsprop') or ``nnet.cnn.TrainingOptionsLBFGS`` ('lbfgs'), with MATLAB's properties,
defaults, checks and display.  Options objects copy like structs: ``opts.MaxEpochs = 5``
makes a changed copy (each assignment checked as the constructor checks it).

For Python code (trainnet): a ``TrainingOptions`` object has

* ``solver``: the solver name in lower case (``"sgdm"``, ``"adam"``, ``"rmsprop"``,
  ``"lbfgs"``);
* ``values``: a dict from MATLAB property names (``"MaxEpochs"``, ``"InitialLearnRate"``,
  ``"Shuffle"``...) to the MATLAB values held (numbers as Python floats, flags as
  bools, char options as char rows, string options as string scalars, ``[]`` as an
  empty double array);
* ``number(name)``: a numeric property as a Python float (``Inf`` as ``math.inf``);
* ``text(name)``: a text property as a Python ``str`` (lower case for the choice options:
  ``"once"``, ``"piecewise"``, ``"training-progress"``, ``"auto"``...); None when the
  property holds something else (a function handle schedule, ``[]``);
* ``flag(name)``: a logical property as a Python bool.

Only the properties of the solver exist (``MiniBatchSize`` is not an L-BFGS option,
``Momentum`` only an SGDM one); asking ``values`` for another gives a KeyError.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from mlang.builtins.coerce import NUMERIC_OR_LOGICAL, text_or_none
from mlang.builtins.networks.layer import name_value_pairs
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import EMPTY, char_row, char_text, class_of, is_true, numel, to_array
from mlang.values.handle import FunctionHandle
from mlang.values.objects import MatlabObject
from mlang.values.string import StringArray

SOLVERS = ("sgdm", "rmsprop", "adam", "lbfgs")
NUMERIC_TYPES = "single, double, int8, int16, int32, int64, uint8, uint16, uint32, uint64"

# ------------------------------------------------------------------ checks


def _fail(kind: str, name: str, what: str) -> Exception:
    return error(f"MATLAB:trainingOptions:{kind}", f"Expected {name} to be {what}.")


def _wrong_type(name: str, types: str, v: Any) -> Exception:
    return error("MATLAB:trainingOptions:invalidType",
                 f"Expected {name} to be one of these types:\n\n{types}\n\n"
                 f"Instead its type was {class_of(v)}.")


def _real_scalar(name: str, v: Any) -> float:
    """A real numeric scalar as a float (validateattributes' errors otherwise)."""
    cls = class_of(v)
    if cls not in NUMERIC_OR_LOGICAL or cls == "logical":
        raise _wrong_type(name, NUMERIC_TYPES, v)
    if numel(v) != 1:
        raise _fail("expectedScalar", name, "a scalar")
    x = to_array(v).reshape(-1)[0]
    if np.iscomplexobj(x):
        raise _fail("expectedReal", name, "real")
    x = float(x)
    if math.isnan(x):
        raise _fail("expectedNonNaN", name, "non-NaN")
    return x


# The bound checks, in the order validateattributes applies them: (holds, identifier, what).
_Rule = tuple[Callable[[float], bool], str, str]
_POSITIVE: _Rule = (lambda x: x > 0, "expectedPositive", "positive")
_NONNEGATIVE: _Rule = (lambda x: x >= 0, "expectedNonnegative", "nonnegative")
_FINITE: _Rule = (math.isfinite, "expectedFinite", "finite")
_INTEGER: _Rule = (lambda x: math.isfinite(x) and x == math.floor(x), "expectedInteger", "integer-valued")
_BELOW_ONE: _Rule = (lambda x: x < 1, "expectedLess", "an array with all of the values < 1")
_AT_MOST_ONE: _Rule = (lambda x: x <= 1, "notLessEqual", "an array with all of the values <= 1")


def _bounded(*rules: _Rule) -> Callable[[str, Any], float]:
    """A check for a real scalar meeting ``rules``; the first one broken gives the error."""

    def check(name: str, v: Any) -> float:
        x = _real_scalar(name, v)
        for holds, kind, what in rules:
            if not holds(x):
                raise _fail(kind, name, what)
        return x

    return check


positive_integer = _bounded(_POSITIVE, _INTEGER)
positive_scalar = _bounded(_POSITIVE, _FINITE)
positive_or_inf = _bounded(_POSITIVE)  # GradientThreshold, ValidationPatience
nonnegative_scalar = _bounded(_NONNEGATIVE, _FINITE)
unit_fraction = _bounded(_NONNEGATIVE, _BELOW_ONE)  # in [0, 1): decay factors, momentum
unit_interval = _bounded(_NONNEGATIVE, _AT_MOST_ONE)  # in [0, 1]: LearnRateDropFactor
any_scalar = _bounded()  # SequencePaddingValue


def flag(name: str, v: Any) -> bool:
    """A logical scalar given as true/false or 1/0."""
    if class_of(v) not in NUMERIC_OR_LOGICAL:
        raise _wrong_type(name, f"logical, {NUMERIC_TYPES}", v)
    if numel(v) != 1:
        raise _fail("expectedScalar", name, "a scalar")
    x = to_array(v).reshape(-1)[0]
    if x not in (0, 1):
        raise _fail("expectedBinary", name, "binary")
    return bool(x)


def _match(name: str, v: Any, choices: tuple[str, ...]) -> str:
    """The choice a text value names, as validatestring matches it (case ignored; a
    leading part that names one choice is enough)."""
    text = text_or_none(v)
    if text:
        low = text.lower()
        exact = [c for c in choices if c.lower() == low]
        partial = [c for c in choices if c.lower().startswith(low)]
        if exact or len(partial) == 1:
            return (exact or partial)[0]
    listed = ", ".join(f"'{c}'" for c in choices)
    shown = f"The input, '{text}', did not match" if text is not None else "The input did not match"
    raise error("MATLAB:trainingOptions:unrecognizedStringChoice",
                f"Expected {name} to match one of these values:\n\n{listed}\n\n"
                f"{shown} any of the valid values.")


def choice(*choices: str, string: bool = False) -> Callable[[str, Any], Any]:
    """A check for one of ``choices``, held as a char row (or a string scalar)."""
    def check(name: str, v: Any) -> Any:
        found = _match(name, v, choices)
        return StringArray.scalar(found) if string else char_row(found)
    return check


def text_value(name: str, v: Any) -> Any:
    """Any text scalar, held as a char row (CheckpointPath, ObjectiveMetricName)."""
    text = text_or_none(v)
    if text is None:
        raise _wrong_type(name, "char, string", v)
    return char_row(text)


def data_formats(name: str, v: Any) -> StringArray:
    """"auto", a data format ("CB") or a list of them, held as a string array."""
    if type(v) is StringArray and v.data.size and all(t is not None for t in v.data.reshape(-1)):
        return v
    text = text_or_none(v)
    if text is not None:
        return StringArray.scalar(text)
    if type(v) is Cell and all(text_or_none(x) is not None for x in v.values()):
        data = np.empty(v.data.shape, dtype=object)
        for index, x in np.ndenumerate(v.data):
            data[index] = text_or_none(x)
        return StringArray(data)
    raise _wrong_type(name, "char, string, cell", v)


def sequence_length(name: str, v: Any) -> Any:
    """'longest', 'shortest' or a positive integer."""
    if class_of(v) in ("char", "string"):
        return choice("longest", "shortest")(name, v)
    return positive_integer(name, v)


BUILTIN_SCHEDULES = ("none", "piecewise", "warmup", "polynomial", "exponential", "cosine",
                     "cyclical")


def learn_rate_schedule(name: str, v: Any) -> Any:
    """'none', 'piecewise', a built-in schedule name, a function handle, or a cell array
    of them (kept as given)."""
    if type(v) is FunctionHandle:
        return v
    if type(v) is Cell:
        for x in v.values():
            if type(x) is not FunctionHandle:
                _match(name, x, BUILTIN_SCHEDULES)
        return v
    found = _match(name, v, BUILTIN_SCHEDULES)
    return char_row(found) if found in ("none", "piecewise") else StringArray.scalar(found)


def function_or_empty(name: str, v: Any) -> Any:
    """[] , a function handle or a cell array of function handles (OutputFcn)."""
    if type(v) is FunctionHandle or (type(v) is np.ndarray and v.size == 0):
        return v
    if type(v) is Cell and all(type(x) is FunctionHandle for x in v.values()):
        return v
    raise _wrong_type(name, "function_handle, cell", v)


def as_given(name: str, v: Any) -> Any:
    """Kept as it is (ValidationData, Metrics: checked when training starts)."""
    return v


# ------------------------------------------------------------------ properties


@dataclass(frozen=True)
class Option:
    """A property of an options class: its default (a MATLAB value, or a function making
    one) and the check of a value given for it."""

    name: str
    default: Any
    check: Callable[[str, Any], Any]

    def default_value(self) -> Any:
        return self.default() if callable(self.default) else self.default


def _empty() -> np.ndarray:
    return EMPTY.copy()


def _string(text: str) -> Callable[[], StringArray]:
    return lambda: StringArray.scalar(text)


EXECUTION_ENVIRONMENTS = ("auto", "cpu", "gpu", "multi-gpu", "parallel", "parallel-auto",
                          "parallel-cpu", "parallel-gpu")


def _stochastic(head: tuple[Option, ...], learn_rate: float) -> tuple[Option, ...]:
    """The properties of the mini-batch solvers, after the solver's own ``head``."""
    return (
        *head,
        Option("InitialLearnRate", learn_rate, positive_scalar),
        Option("MaxEpochs", 30.0, positive_integer),
        Option("LearnRateSchedule", lambda: char_row("none"), learn_rate_schedule),
        Option("LearnRateDropFactor", 0.1, unit_interval),
        Option("LearnRateDropPeriod", 10.0, positive_integer),
        Option("MiniBatchSize", 128.0, positive_integer),
        Option("Shuffle", lambda: char_row("once"), choice("once", "never", "every-epoch")),
        Option("CheckpointFrequency", 1.0, positive_integer),
        Option("CheckpointFrequencyUnit", lambda: char_row("epoch"), choice("epoch", "iteration")),
        Option("SequenceLength", lambda: char_row("longest"), sequence_length),
        Option("PreprocessingEnvironment", lambda: char_row("serial"),
               choice("serial", "background", "parallel")),
        Option("L2Regularization", 1e-4, nonnegative_scalar),
        Option("GradientThresholdMethod", lambda: char_row("l2norm"),
               choice("l2norm", "global-l2norm", "absolute-value")),
        Option("GradientThreshold", math.inf, positive_or_inf),
        *COMMON,
    )


# The properties every solver shares, in display order.
COMMON = (
    Option("Verbose", True, flag),
    Option("VerboseFrequency", 50.0, positive_integer),
    Option("ValidationData", _empty, as_given),
    Option("ValidationFrequency", 50.0, positive_integer),
    Option("ValidationPatience", math.inf, positive_or_inf),
    Option("ObjectiveMetricName", lambda: char_row("loss"), text_value),
    Option("CheckpointPath", lambda: char_row(""), text_value),
    Option("ExecutionEnvironment", lambda: char_row("auto"), choice(*EXECUTION_ENVIRONMENTS)),
    Option("OutputFcn", _empty, function_or_empty),
    Option("Metrics", _empty, as_given),
    Option("Plots", lambda: char_row("none"), choice("none", "training-progress")),
    Option("SequencePaddingValue", 0.0, any_scalar),
    Option("SequencePaddingDirection", lambda: char_row("right"), choice("right", "left")),
    Option("InputDataFormats", _string("auto"), data_formats),
    Option("TargetDataFormats", _string("auto"), data_formats),
    Option("ResetInputNormalization", True, flag),
    Option("BatchNormalizationStatistics", lambda: char_row("auto"),
           choice("auto", "population", "moving")),
    Option("OutputNetwork", lambda: char_row("auto"),
           choice("auto", "last-iteration", "best-validation")),
    Option("Acceleration", _string("auto"), choice("auto", "none", string=True)),
)

SGDM = _stochastic((Option("Momentum", 0.9, unit_fraction),), 0.01)
ADAM = _stochastic((Option("GradientDecayFactor", 0.9, unit_fraction),
                    Option("SquaredGradientDecayFactor", 0.999, unit_fraction),
                    Option("Epsilon", 1e-8, positive_scalar)), 0.001)
RMSPROP = _stochastic((Option("SquaredGradientDecayFactor", 0.9, unit_fraction),
                       Option("Epsilon", 1e-8, positive_scalar)), 0.001)
LBFGS = (
    Option("MaxIterations", 1000.0, positive_integer),
    Option("LineSearchMethod", _string("weak-wolfe"),
           choice("weak-wolfe", "strong-wolfe", "backtracking", string=True)),
    Option("MaxNumLineSearchIterations", 20.0, positive_integer),
    Option("HistorySize", 10.0, positive_integer),
    Option("InitialInverseHessianFactor", 1.0, positive_scalar),
    Option("GradientTolerance", 1e-5, positive_scalar),
    Option("StepTolerance", 1e-5, positive_scalar),
    Option("CheckpointFrequency", 1.0, positive_integer),
    *COMMON,
)


# ------------------------------------------------------------------ the objects


class TrainingOptions(MatlabObject):
    """Training options of one solver: ``values`` maps property names to MATLAB values
    (see the module's docstring for the Python accessors)."""

    __slots__ = ("values",)
    matlab_class = "nnet.cnn.TrainingOptions"
    SOLVER: ClassVar[str] = ""
    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, values: dict[str, Any] | None = None) -> None:
        self.values = {o.name: o.default_value() for o in self.OPTIONS}
        if values:
            self.values.update(values)

    @property
    def solver(self) -> str:
        return self.SOLVER

    # ------------------------------------------------------------ Python accessors

    def number(self, name: str) -> float:
        """A numeric property as a float."""
        return float(to_array(self.values[name]).reshape(-1)[0])

    def text(self, name: str) -> str | None:
        """A text property as a str (None when it holds something else)."""
        v = self.values[name]
        if type(v) is np.ndarray and v.dtype.kind == "V":
            return char_text(v)
        if type(v) is StringArray and v.data.size == 1:
            return v.scalar_text()
        return None

    def flag(self, name: str) -> bool:
        return is_true(self.values[name])

    # ------------------------------------------------------------ MATLAB behaviour

    @classmethod
    def option_named(cls, name: str) -> Option | None:
        low = name.lower()
        return next((o for o in cls.OPTIONS if o.name.lower() == low), None)

    def property_names(self) -> list[str]:
        return [o.name for o in self.OPTIONS]

    def get_property(self, name: str) -> Any:
        if name in self.values:
            return self.values[name]
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> TrainingOptions:
        option = next((o for o in self.OPTIONS if o.name == name), None)
        if option is None:
            return super().set_property(name, value)
        new = type(self).__new__(type(self))
        new.values = dict(self.values)
        new.values[name] = option.check(name, value)
        return new

    def display_properties(self) -> list[tuple[str, Any]]:
        return [(o.name, self.values[o.name]) for o in self.OPTIONS]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.SOLVER})"


class TrainingOptionsSGDM(TrainingOptions):
    __slots__ = ()
    matlab_class = "nnet.cnn.TrainingOptionsSGDM"
    SOLVER = "sgdm"
    OPTIONS = SGDM


class TrainingOptionsADAM(TrainingOptions):
    __slots__ = ()
    matlab_class = "nnet.cnn.TrainingOptionsADAM"
    SOLVER = "adam"
    OPTIONS = ADAM


class TrainingOptionsRMSProp(TrainingOptions):
    __slots__ = ()
    matlab_class = "nnet.cnn.TrainingOptionsRMSProp"
    SOLVER = "rmsprop"
    OPTIONS = RMSPROP


class TrainingOptionsLBFGS(TrainingOptions):
    __slots__ = ()
    matlab_class = "nnet.cnn.TrainingOptionsLBFGS"
    SOLVER = "lbfgs"
    OPTIONS = LBFGS


CLASSES: dict[str, type[TrainingOptions]] = {
    "sgdm": TrainingOptionsSGDM, "adam": TrainingOptionsADAM,
    "rmsprop": TrainingOptionsRMSProp, "lbfgs": TrainingOptionsLBFGS,
}


@builtin("trainingOptions", dl="native")
def training_options(solver_name: Any, *args: Any) -> TrainingOptions:
    """trainingOptions  Options for training a deep learning neural network.

    options = trainingOptions(solverName) returns the default training options of the
    solver: "sgdm" (stochastic gradient descent with momentum), "adam", "rmsprop" or
    "lbfgs" (limited-memory BFGS, full batch).
    options = trainingOptions(solverName, Name=Value) sets options such as MaxEpochs,
    MiniBatchSize, InitialLearnRate, LearnRateSchedule ("none" or "piecewise", with
    LearnRateDropFactor and LearnRateDropPeriod), Shuffle ("once", "never",
    "every-epoch"), Verbose, VerboseFrequency, Plots ("none", "training-progress"),
    ValidationData, ValidationFrequency, L2Regularization, GradientThreshold, Momentum,
    GradientDecayFactor, SquaredGradientDecayFactor, Epsilon, ExecutionEnvironment,
    InputDataFormats, TargetDataFormats, Metrics, ObjectiveMetricName and OutputNetwork.
    Properties can also be set afterwards: options.MaxEpochs = 5."""
    cls = CLASSES[_match("solverName", solver_name, SOLVERS)]
    given: dict[str, Any] = {}
    for option, value in name_value_pairs(args, lambda name: cls.option_named(name) if name else None):
        given[option.name] = option.check(option.name, value)
    return cls(given)
