"""The layer contract: what every layer class of the Deep Learning Toolbox provides.

A layer is a value object (``fullyConnectedLayer(10)`` copies like a struct).  A layer
class subclasses ``Layer`` and declares:

* ``matlab_class`` (``nnet.cnn.layer.FullyConnectedLayer``), ``LAYER_TYPE`` (the array
  display's type column: ``"Fully Connected"``) and ``DEFAULT_NAME`` (the base of the
  names a network gives unnamed layers: ``"fc"``);
* ``PROPERTIES``: its public properties in display order, each a ``Prop`` with a default
  and a display group (``"Hyperparameters"``, ``"Learnable Parameters"``, ``"State
  Parameters"``; ``""`` for the ungrouped ones at the top such as ``Name``);
* ``LEARNABLES`` and ``STATES``: the names of its learnable and state parameters, in the
  order a network's ``Learnables`` and ``State`` tables list them;
* ``description()``: the array display's description column (``"10 fully connected
  layer"``); a fixed one can be given as ``DESCRIPTION`` (the default is ``LAYER_TYPE``);
* ``initialize(inputs, ctx)``: a copy with its sizes inferred from example inputs (one
  formatted dlarray per input, batch size 1) and its empty learnable and state
  parameters made with its initialisers (``initializers.py``);
* ``predict(inputs, ctx)`` and, where training differs (dropout, batch normalisation),
  ``forward(inputs, ctx)``: the outputs (formatted dlarrays) for a list of formatted
  dlarray inputs; ``forward`` also returns the new values of its state parameters.
  Computation goes through the functional builtins (``ctx.call("fullyconnect", ...)``)
  so that tracing records it and gradients reach the learnables.

Properties are held in ``values`` (name -> MATLAB value).  Reading, setting (with each
property's check), copying and name=value parsing are done here once for every class, as
are the object hooks every layer shares: indexing and concatenation into layer arrays
(``layer_array.py``) and the ``FullyConnectedLayer with properties:`` display
(``layer_display.py``; a ``Prop`` with ``shown=False`` is left out of it, and
``displayed_properties`` may choose per layer).  The checks at the end of the module
(``checked_name``, ``positive_integer``, ``size_or_auto``...) are the option checks the
layer families share.

The layer modules register their constructors with ``register_constructors`` (a table of
builtin name -> class and help text) and read name=value arguments with
``name_value_pairs`` (MATLAB's errors for a missing value or an unknown name).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import dl_call
from mlang.builtins.coerce import text_option, text_or_none
from mlang.errors import MatlabError, error
from mlang.registry import BUILTINS, builtin
from mlang.values.core import char_row, class_of, is_array, to_array, to_str
from mlang.values.handle import FunctionHandle
from mlang.values.objects import MatlabObject, read_only_property
from mlang.values.string import StringArray

LAYER_BASE_CLASS = "nnet.cnn.layer.Layer"  # the class of a mixed array of layers
# The display groups of properties (the top group is ""): the three a layer's display lists,
# in this order, and the two of the documentation whose properties MATLAB shows only under
# "Show all properties".
HYPER = "Hyperparameters"
LEARNABLE = "Learnable Parameters"
STATE = "State Parameters"
INIT = "Parameters and Initialization"
RATES = "Learning Rate and Regularization"
GROUPS = (HYPER, LEARNABLE, STATE)
T = TypeVar("T")


@dataclass(frozen=True)
class Prop:
    """One public property of a layer class.

    ``default`` is a MATLAB value, or a function of no arguments making one (for mutable
    or per-instance defaults).  ``check`` validates and converts a value given to the
    constructor or assigned (``layer.Name = 'x'``), raising MATLAB's error; None takes
    values as they are.  ``settable=False`` makes the property read-only after
    construction (set only by the constructor's own code or by ``initialize``).
    ``option=False`` keeps it out of the constructor's name=value options; ``shown=False``
    out of the layer's display (MATLAB shows learn-rate factors and initialisers only
    under "Show all properties")."""

    name: str
    default: Any = None
    group: str = ""
    check: Callable[[Any], Any] | None = None
    settable: bool = True
    option: bool = True
    shown: bool = True

    def default_value(self) -> Any:
        return self.default() if callable(self.default) else self.default


class ForwardContext:
    """What a layer's forward or predict needs beyond its inputs: the session (for the
    random stream and for calling builtins) and whether the pass is a training one."""

    __slots__ = ("interp", "training")

    def __init__(self, interp: Any, training: bool) -> None:
        self.interp = interp
        self.training = training

    def call(self, name: str, *args: Any, nargout: int = 1) -> Any:
        """The builtin ``name`` applied to ``args`` as MATLAB code would call it (dlarray
        arguments traced): its one output, or the list of ``nargout`` outputs when
        ``nargout`` is not 1."""
        fn = BUILTINS[name]
        if len(args) == 1 and type(args[0]) is DlArray and fn.min_in <= 1 <= fn.max_in_count \
                and nargout <= fn.max_out_count:
            outs = _dlarray_call(fn, self.interp, list(args), nargout)
        else:
            outs = fn.call(self.interp, list(args), nargout)
        return outs[0] if nargout == 1 else outs


def _dlarray_call(fn: Any, interp: Any, args: list, nargout: int) -> list:
    """``fn.call`` for a lone dlarray argument (an activation layer's call), without the
    dispatch by argument class: the registry routes it so, to the function itself when it
    takes dlarrays (``dl`` native or traced), else through ``dl_call``."""
    try:
        if fn.dl == "native" or fn.dl == "traced":
            return fn.invoke(interp, args, nargout)
        return dl_call(fn, interp, args, nargout)
    except MatlabError as exc:
        if not exc.exc.function:
            exc.exc.function = fn.name
        raise


class Layer(MatlabObject):
    """Base class of layer objects; see the module's docstring for the contract."""

    __slots__ = ("values",)
    matlab_class = LAYER_BASE_CLASS
    LAYER_TYPE: ClassVar[str] = ""
    DEFAULT_NAME: ClassVar[str] = "layer"
    DESCRIPTION: ClassVar[str] = ""  # a fixed description (default: LAYER_TYPE)
    PROPERTIES: ClassVar[tuple[Prop, ...]] = ()
    LEARNABLES: ClassVar[tuple[str, ...]] = ()
    STATES: ClassVar[tuple[str, ...]] = ()
    IS_INPUT: ClassVar[bool] = False  # an input layer: a network input enters here
    # The display of the newer layer classes (sigmoidLayer, swishLayer): the parameter
    # groups are always listed, "No properties." under an empty one, then "Show all
    # properties" (the older ones, reluLayer, show only the groups they have).
    SHOWS_EMPTY_GROUPS: ClassVar[bool] = False

    def __init__(self, values: dict[str, Any] | None = None) -> None:
        self.values = {p.name: p.default_value() for p in self.PROPERTIES}
        if values:
            self.values.update(values)

    # ------------------------------------------------------------ construction

    @classmethod
    def from_options(cls, args: list | tuple, given: dict[str, Any] | None = None) -> Layer:
        """A layer of this class from the constructor's name=value arguments ``args``
        (names matched without regard to case), after the values ``given`` by its
        positional arguments."""
        layer = cls(given)
        by_lower = {p.name.lower(): p for p in cls.PROPERTIES if p.option}
        for prop, value in name_value_pairs(args, lambda name: by_lower.get(name.lower())):
            layer.values[prop.name] = prop.check(value) if prop.check is not None else value
        return layer

    def copy(self, **changes: Any) -> Layer:
        """A copy of this layer with some property values changed (no checks)."""
        new = type(self).__new__(type(self))
        new.values = dict(self.values)
        new.values.update(changes)
        return new

    def with_values(self, values: dict[str, Any]) -> Layer:
        """A layer of this class holding ``values`` (all its property values; no checks)."""
        new = type(self).__new__(type(self))
        new.values = values
        return new

    # ------------------------------------------------------------ properties

    @property
    def name(self) -> str:
        return to_str(self.values.get("Name", ""))

    def property_names(self) -> list[str]:
        return [p.name for p in self.PROPERTIES]

    def get_property(self, name: str) -> Any:
        if name in self.values:
            return self.values[name]
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> Layer:
        prop = next((p for p in self.PROPERTIES if p.name == name), None)
        if prop is None:
            return super().set_property(name, value)
        if not prop.settable:
            raise read_only_error(self, name)
        return self.copy(**{name: prop.check(value) if prop.check is not None else value})

    # ------------------------------------------------------------ arrays of layers

    # layer_array imports this module, so these hooks import it when first called.
    def subsref_paren(self, args: list) -> Any:
        from mlang.builtins.networks.layer_array import index_layers  # imports this module

        return index_layers([self], (1, 1), args)

    def subsasgn_paren(self, args: list, rhs: Any) -> Any:
        from mlang.builtins.networks.layer_array import assign_layers  # imports this module

        return assign_layers([self], (1, 1), args, rhs)

    @staticmethod
    def assign_into(target: Any, args: list, rhs: Any) -> Any:
        from mlang.builtins.networks.layer_array import assign_into_plain  # imports this module

        return assign_into_plain(target, args, rhs)

    @staticmethod
    def concatenate(rows: list[list]) -> Any:
        from mlang.builtins.networks.layer_array import concatenate_layers  # imports this module

        return concatenate_layers(rows)

    @staticmethod
    def call_builtin(builtin: Any, interp: Any, args: list, nargout: int) -> Any:
        from mlang.builtins.networks.layer_array import layer_builtin  # imports this module

        return layer_builtin(builtin, interp, args)

    def unary_operator(self, symbol: str) -> Any:
        return self if symbol in ("'", ".'") else NotImplemented  # a 1-by-1 array

    # ------------------------------------------------------------ display

    def displayed_properties(self) -> list[tuple[str, str]]:
        """The (group, property name) pairs the display lists, in order ("" for the
        ungrouped ones at the top); a class may leave out properties that do not apply
        (an input layer's Mean without normalisation)."""
        return [(p.group, p.name) for p in self.PROPERTIES if p.shown]

    def display_properties(self) -> list[tuple[str, Any]]:
        return [(name, self.values[name]) for group, name in self.displayed_properties()
                if group == "" or group in GROUPS]

    def shows_all_properties_link(self) -> bool:
        """Whether the display ends with "Show all properties" (layers with learnable
        parameters have properties the display leaves out)."""
        return bool(self.LEARNABLES) or self.SHOWS_EMPTY_GROUPS

    def display_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        from mlang.builtins.networks.layer_display import layer_lines  # imports this module

        return layer_lines(self, style)

    # ------------------------------------------------------------ network interface

    def input_names(self) -> list[str]:
        """The names of its inputs ("in", or "in1", "in2", ... for several)."""
        return [] if self.IS_INPUT else ["in"]

    def output_names(self) -> list[str]:
        return ["out"]

    def description(self) -> str:
        return self.DESCRIPTION or self.LAYER_TYPE

    def initialize(self, inputs: list, ctx: ForwardContext) -> Layer:
        """A copy with sizes inferred and empty parameters made (default: nothing to do)."""
        return self

    def predict(self, inputs: list, ctx: ForwardContext) -> list:
        raise NotImplementedError

    def forward(self, inputs: list, ctx: ForwardContext) -> tuple[list, dict[str, Any]]:
        """The outputs of a training pass and the new values of its state parameters
        (default: those of ``predict`` and no state)."""
        return self.predict(inputs, ctx), {}

    def input_example(self) -> Any:
        """For an input layer: a formatted dlarray of batch size 1 shaped as its input,
        from which a network initialises the layers after it."""
        raise NotImplementedError


# ---------------------------------------------------------------- constructors


def name_value_pairs(args: list | tuple, find: Callable[[str], T | None]) -> Iterator[tuple[T, Any]]:
    """The name=value arguments ``args`` one pair at a time (so that an error in one value is
    raised before a later pair is looked at), each name as ``find`` knows it: what it
    returns for the name's text, None for a name it does not know (an error, as for text
    that is no name at all)."""
    if len(args) % 2:
        raise error("MATLAB:InputParser:ParamMissingValue",
                    "Parameter names must be followed by values.")
    for k in range(0, len(args), 2):
        name = text_or_none(args[k])
        found = find(name) if name is not None else None
        if found is None:
            shown = name if name is not None else "(not text)"
            raise error("MATLAB:InputParser:UnmatchedParameter",
                        f"'{shown}' is not a recognized parameter. For a list of valid "
                        "name-value pair arguments, see the documentation for this function.")
        yield found, args[k + 1]


def register_constructors(table: dict[str, tuple[type[Layer], str]], leading: tuple[str, ...] = ()
                          ) -> None:
    """Register layer constructors: builtin name -> (layer class, help text).  With no
    ``leading`` arguments a constructor takes only name=value options (``reluLayer``,
    ``reluLayer(Name="r")``) and calls the class's ``from_options``; with ``leading``
    (``("poolSize",)``) it takes those positional inputs first, all required, and calls
    ``make(*leading_values, options)``."""
    for name, (layer_class, help_text) in table.items():
        builtin(name, help=help_text)(_constructor(name, layer_class, leading))


def _constructor(name: str, layer_class: type[Layer], leading: tuple[str, ...]) -> Callable[..., Layer]:
    count = len(leading)

    def construct(*args: object) -> Layer:
        if not count:
            return layer_class.from_options(args)
        return layer_class.make(*args[:count], args[count:])  # type: ignore[attr-defined]

    # the registry counts the required inputs from the signature
    construct.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(arg, inspect.Parameter.POSITIONAL_ONLY) for arg in leading]
        + [inspect.Parameter("options", inspect.Parameter.VAR_POSITIONAL)])
    construct.__name__ = construct.__qualname__ = name
    # the function list files a builtin under the module of its function: the layer's module
    construct.__module__ = layer_class.__module__
    return construct


def read_only_error(layer: Layer, name: str) -> Exception:
    """MATLAB's error for assigning the read-only property ``name`` of ``layer``."""
    return read_only_property(name, layer.matlab_class.rsplit(".", 1)[-1])


def text_value(v: Any) -> Any:
    """A text property value as MATLAB keeps it (a char row)."""
    return char_row(v) if isinstance(v, str) else v


# ---------------------------------------------------------------- shared option checks


def _is_text(v: Any) -> bool:
    return (type(v) is np.ndarray and class_of(v) == "char" and v.ndim == 2 and v.shape[0] <= 1) \
        or (type(v) is StringArray and v.data.size == 1)


def checked_name(value: Any) -> Any:
    """A layer's Name: a character vector or string scalar, kept as a char row."""
    if not _is_text(value):
        raise error("MATLAB:validators:mustBeTextScalar",
                    "Value must be a character vector or string scalar.")
    return char_row(text_option(value) or "")


def checked_text(name: str, choices: tuple[str, ...]) -> Callable[[Any], Any]:
    """A check for a text option that is one of ``choices`` (matched without regard to
    case, kept in MATLAB's spelling as a char row)."""

    def check(value: Any) -> Any:
        word = text_option(value) if _is_text(value) else None
        found = next((c for c in choices if word is not None and c.lower() == word.lower()), None)
        if found is None:
            listed = ", ".join(f"'{c}'" for c in choices)
            raise error("MATLAB:validators:mustBeMember",
                        f"Value of '{name}' must be one of the following: {listed}.")
        return char_row(found)

    return check


def _numbers(value: Any) -> np.ndarray | None:
    """A real numeric (or logical) value as doubles; None for anything else."""
    if not is_array(value) or class_of(value) == "char":
        return None
    data = to_array(value)
    if data.dtype.kind == "c":
        return None
    return data.astype(np.float64)


def positive_integer(name: str) -> Callable[[Any], float]:
    """A check for a positive integer scalar (an output size, a number of units)."""

    def check(value: Any) -> float:
        data = _numbers(value)
        if data is None or data.size != 1 or not np.isfinite(data).all() \
                or data.reshape(-1)[0] < 1 or data.reshape(-1)[0] != np.round(data.reshape(-1)[0]):
            raise error("MATLAB:validators:mustBePositiveInteger",
                        f"Value of '{name}' must be a positive integer.")
        return float(data.reshape(-1)[0])

    return check


def size_or_auto(name: str, length: int | None = None) -> Callable[[Any], Any]:
    """A check for a size that may be 'auto': positive integers (``length`` of them when
    given), kept as a double scalar or row; 'auto' as the char row 'auto'."""

    def check(value: Any) -> Any:
        if _is_text(value) and (text_option(value) or "").lower() == "auto":
            return char_row("auto")
        data = _numbers(value)
        ok = data is not None and data.size >= 1 and np.isfinite(data).all() \
            and (data >= 1).all() and (data == np.round(data)).all() \
            and (length is None or data.size == length)
        if not ok:
            raise error("MATLAB:validators:mustBePositiveInteger",
                        f"Value of '{name}' must be 'auto' or a positive integer"
                        f"{'' if length is None else f' vector of length {length}'}.")
        row = data.reshape(1, -1)
        return float(row[0, 0]) if row.size == 1 else row

    return check


def nonnegative_scalar(name: str) -> Callable[[Any], float]:
    """A check for a finite nonnegative real scalar (learn-rate and L2 factors)."""

    def check(value: Any) -> float:
        data = _numbers(value)
        if data is None or data.size != 1 or not np.isfinite(data).all() or data.reshape(-1)[0] < 0:
            raise error("MATLAB:validators:mustBeNonnegative",
                        f"Value of '{name}' must be a nonnegative scalar.")
        return float(data.reshape(-1)[0])

    return check


def real_scalar(name: str) -> Callable[[Any], float]:
    """A check for a finite real scalar (a leaky ReLU's scale, an ELU's alpha)."""

    def check(value: Any) -> float:
        data = _numbers(value)
        if data is None or data.size != 1 or not np.isfinite(data).all():
            raise error("MATLAB:validators:mustBeFinite",
                        f"Value of '{name}' must be a finite real scalar.")
        return float(data.reshape(-1)[0])

    return check


def logical_scalar(name: str) -> Callable[[Any], bool]:
    """A check for a true/false option (numeric or logical scalar)."""

    def check(value: Any) -> bool:
        data = _numbers(value)
        if data is None or data.size != 1 or np.isnan(data).any():
            raise error("MATLAB:validators:mustBeNumericOrLogical",
                        f"Value of '{name}' must be a logical scalar.")
        return bool(data.reshape(-1)[0] != 0)

    return check


def numeric_array(name: str) -> Callable[[Any], Any]:
    """A check for a real numeric array (weights, means), kept as given (a double scalar
    as a float; other arrays keep their class)."""

    def check(value: Any) -> Any:
        if type(value) is not float and _numbers(value) is None \
                and type(value) is not DlArray:  # learnables may be dlarrays
            raise error("MATLAB:validators:mustBeNumeric",
                        f"Value of '{name}' must be numeric.")
        return value

    return check


def function_handle_or(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A check that takes a function handle as it is and gives anything else to ``check``."""

    def either(value: Any) -> Any:
        return value if type(value) is FunctionHandle else check(value)

    return either
