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
  layer"``);
* ``initialize(inputs, ctx)``: a copy with its sizes inferred from example inputs (one
  formatted dlarray per input, batch size 1) and its empty learnable and state
  parameters made with its initialisers (``initializers.py``);
* ``predict(inputs, ctx)`` and, where training differs (dropout, batch normalisation),
  ``forward(inputs, ctx)``: the outputs (formatted dlarrays) for a list of formatted
  dlarray inputs; ``forward`` also returns the new values of its state parameters.
  Computation goes through the functional builtins (``ctx.call("fullyconnect", ...)``)
  so that tracing records it and gradients reach the learnables.

Properties are held in ``values`` (name -> MATLAB value).  Reading, setting (with each
property's check), copying and name=value parsing are done here once for every class.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from mlang.builtins.coerce import text_option
from mlang.errors import error
from mlang.registry import BUILTINS
from mlang.values.core import char_row, to_str
from mlang.values.objects import MatlabObject


@dataclass(frozen=True)
class Prop:
    """One public property of a layer class.

    ``default`` is a MATLAB value, or a function of no arguments making one (for mutable
    or per-instance defaults).  ``check`` validates and converts a value given to the
    constructor or assigned (``layer.Name = 'x'``), raising MATLAB's error; None takes
    values as they are.  ``settable=False`` makes the property read-only after
    construction (set only by the constructor's own code or by ``initialize``).
    ``option=False`` keeps it out of the constructor's name=value options."""

    name: str
    default: Any = None
    group: str = ""
    check: Callable[[Any], Any] | None = None
    settable: bool = True
    option: bool = True

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
        outs = BUILTINS[name].call(self.interp, list(args), nargout)
        return outs[0] if nargout == 1 else outs


class Layer(MatlabObject):
    """Base class of layer objects; see the module's docstring for the contract."""

    __slots__ = ("values",)
    matlab_class = "nnet.cnn.layer.Layer"
    LAYER_TYPE: ClassVar[str] = ""
    DEFAULT_NAME: ClassVar[str] = "layer"
    PROPERTIES: ClassVar[tuple[Prop, ...]] = ()
    LEARNABLES: ClassVar[tuple[str, ...]] = ()
    STATES: ClassVar[tuple[str, ...]] = ()
    IS_INPUT: ClassVar[bool] = False  # an input layer: a network input enters here

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
        if len(args) % 2:
            raise error("MATLAB:InputParser:ParamMissingValue",
                        "Parameter names must be followed by values.")
        by_lower = {p.name.lower(): p for p in cls.PROPERTIES if p.option}
        for k in range(0, len(args), 2):
            name = text_option(args[k])
            prop = by_lower.get(name) if name is not None else None
            if prop is None:
                shown = name if name is not None else "(not text)"
                raise error("MATLAB:InputParser:UnmatchedParameter",
                            f"'{shown}' is not a recognized parameter. For a list of valid "
                            "name-value pair arguments, see the documentation for this "
                            "function.")
            value = args[k + 1]
            layer.values[prop.name] = prop.check(value) if prop.check is not None else value
        return layer

    def copy(self, **changes: Any) -> Layer:
        """A copy of this layer with some property values changed (no checks)."""
        new = type(self).__new__(type(self))
        new.values = dict(self.values)
        new.values.update(changes)
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
            raise error("MATLAB:class:SetProhibited",
                        f"Unable to set the '{name}' property of class "
                        f"'{self.matlab_class.rsplit('.', 1)[-1]}' because it is read-only.")
        return self.copy(**{name: prop.check(value) if prop.check is not None else value})

    # ------------------------------------------------------------ network interface

    def input_names(self) -> list[str]:
        """The names of its inputs ("in", or "in1", "in2", ... for several)."""
        return [] if self.IS_INPUT else ["in"]

    def output_names(self) -> list[str]:
        return ["out"]

    def description(self) -> str:
        return self.LAYER_TYPE

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


def text_value(v: Any) -> Any:
    """A text property value as MATLAB keeps it (a char row)."""
    return char_row(v) if isinstance(v, str) else v
