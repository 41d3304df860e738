"""The object protocol (mlang.values.objects) and the Callable interface (mlang.registry):
a value class plugged in by subclassing MatlabObject gets MATLAB's indexing, fields,
methods, operators, concatenation and display through its hooks alone."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import Primitive
from mlang.errors import MatlabError, MException
from mlang.evaluation.functions import ScriptCall, UserFunction
from mlang.evaluation.interpreter import Interpreter
from mlang.registry import Builtin, Callable
from mlang.values.containers_map import MapObject
from mlang.values.core import char_row, char_text
from mlang.values.exception import ExceptionObject
from mlang.values.handle import FunctionHandle
from mlang.values.objects import OBJECT_KINDS, DisplayText, MatlabObject, kind_of


class Gauge(MatlabObject):
    """A made-up value class: a reading with a unit."""

    __slots__ = ("reading", "unit")
    matlab_class = "demo.Gauge"

    def __init__(self, reading: float, unit: str = "bar") -> None:
        self.reading = reading
        self.unit = unit

    def subsref_paren(self, args: list) -> Any:
        return self.reading * args[0]

    def subsasgn_paren(self, args: list, rhs: Any) -> Any:
        return Gauge(rhs, self.unit)

    def property_names(self) -> list[str]:
        return ["Reading", "Unit"]

    def get_property(self, name: str) -> Any:
        if name == "Reading":
            return self.reading
        if name == "Unit":
            return char_row(self.unit)
        return MatlabObject.get_property(self, name)

    def set_property(self, name: str, value: Any) -> Any:
        if name == "Reading":
            return Gauge(value, self.unit)
        return MatlabObject.set_property(self, name, value)

    def method(self, name: str) -> Any:
        if name == "doubled":
            return lambda args: Gauge(self.reading * 2, self.unit)
        return None

    @staticmethod
    def binary_operator(symbol: str, a: Any, b: Any) -> Any:
        if symbol != "+":
            return NotImplemented
        if type(a) is Gauge and type(b) is float:
            return Gauge(a.reading + b, a.unit)
        if type(b) is Gauge and type(a) is float:
            return Gauge(a + b.reading, b.unit)
        return NotImplemented

    def unary_operator(self, symbol: str) -> Any:
        return Gauge(-self.reading, self.unit) if symbol == "-" else NotImplemented

    def display_properties(self) -> list[tuple[str, Any]]:
        return [("Reading", self.reading), ("Unit", DisplayText(self.unit))]


@pytest.fixture
def session() -> tuple[Interpreter, io.StringIO]:
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    interp.base.vars["g"] = Gauge(2.5)
    return interp, out


def run(session: tuple[Interpreter, io.StringIO], code: str) -> dict:
    interp, _ = session
    interp.eval(code)
    return interp.base.vars


def test_a_subclass_is_its_own_kind_and_a_foreign_class_has_a_speaker() -> None:
    assert kind_of(Gauge(1.0)) is Gauge
    assert OBJECT_KINDS[MException] is ExceptionObject
    assert kind_of(DlArray(np.zeros((1, 1)))) is DlArray
    assert kind_of(np.zeros((2, 2))) is None and kind_of(1.0) is None


def test_class_indexing_and_indexed_assignment(session) -> None:
    vars = run(session, "c = class(g); r = g(4); g(1) = 7; after = g.Reading;")
    assert char_text(vars["c"]) == "demo.Gauge"
    assert vars["r"] == 10.0
    assert vars["after"] == 7.0


def test_properties_methods_and_their_errors(session) -> None:
    vars = run(session, "u = g.Unit; g.Reading = 4; d = g.doubled(); dr = d.Reading;")
    assert char_text(vars["u"]) == "bar"
    assert vars["dr"] == 8.0
    with pytest.raises(MatlabError) as info:
        run(session, "g.Pressure")
    assert info.value.identifier == "MATLAB:noSuchMethodOrField"
    assert "'demo.Gauge'" in info.value.message
    with pytest.raises(MatlabError) as info:
        run(session, "g.Unit = 'psi';")
    assert info.value.identifier == "MATLAB:noPublicFieldForClass"


def test_operators_go_to_the_hook_and_fall_back_to_matlab_errors(session) -> None:
    vars = run(session, "a = g + 1; b = 1 + g; n = -g; ar = a.Reading; br = b.Reading; nr = n.Reading;")
    assert (vars["ar"], vars["br"], vars["nr"]) == (3.5, 3.5, -2.5)
    with pytest.raises(MatlabError) as info:
        run(session, "g * 2")
    assert "demo.Gauge" in info.value.message


def test_struct_fieldnames_and_display_use_the_properties(session) -> None:
    interp, out = session
    vars = run(session, "s = struct(g); f = fieldnames(g);")
    assert vars["s"].elems.item(0)["Reading"] == 2.5
    assert len(vars["f"].values()) == 2
    out.truncate(0)
    out.seek(0)
    interp.eval("g")
    assert out.getvalue() == "\ng = \n\n  Gauge with properties:\n\n    Reading: 2.5000\n       Unit: bar\n\n"


def test_mexception_is_a_value_through_its_speaker(session) -> None:
    vars = run(session, "try, error('demo:fail', 'It failed %d times.', 3); catch e, end; "
                        "id = e.identifier; m = e.message; st = e.stack; r = e.getReport();")
    assert char_text(vars["id"]) == "demo:fail"
    assert char_text(vars["m"]) == "It failed 3 times."
    assert "It failed 3 times." in char_text(vars["r"])
    with pytest.raises(MatlabError) as info:
        run(session, "e.nothing")
    assert "'MException'" in info.value.message


def test_every_kind_of_callable_has_the_one_interface(session) -> None:
    interp, _ = session
    interp.eval("h = @(x) x + 1;")
    builtin = interp.builtins["max"]
    handle = interp.base.vars["h"]
    primitive = Primitive("twice", lambda x: 2 * x, lambda g, y, x: (2 * g,))
    for target in (builtin, handle, primitive):
        assert isinstance(target, Callable)
    assert isinstance(builtin, Builtin) and isinstance(handle, FunctionHandle)
    assert interp.invoke(builtin, [np.array([[3.0, 9.0]])], 1) == [9.0]
    assert interp.invoke(handle, [1.0], 1) == [2.0]
    assert primitive.call(interp, [np.array([[2.0]])], 1)[0][0, 0] == 4.0
    for cls in (UserFunction, ScriptCall):
        assert callable(cls.call)


def test_a_builtin_names_itself_in_its_errors(session) -> None:
    interp, _ = session
    with pytest.raises(MatlabError) as info:
        interp.invoke(interp.builtins["zeros"], [char_row("x")], 1)
    assert info.value.exc.function == "zeros"


def test_containers_map_lists_its_properties_through_the_protocol() -> None:
    m = MapObject("char", "double")
    assert [name for name, _ in m.display_properties()] == ["Count", "KeyType", "ValueType"]
    assert m.display_name == "Map"
