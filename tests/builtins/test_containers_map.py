"""containers.Map: construction, handle semantics, keys/values/isKey/remove, types."""

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values.cell import Cell
from mlang.values.containers_map import MapObject
from mlang.values.core import char_row, char_text


class Session:
    """One interpreter shared by the module's tests; ``make`` builds a map from MATLAB
    argument text (``containers.Map(...)`` itself needs the evaluator to resolve the
    dotted name, so the builtin is called directly)."""

    def __init__(self) -> None:
        self.out = io.StringIO()
        self.interp = Interpreter(stdout=self.out)

    def make(self, args: str = "", name: str = "m") -> MapObject:
        vars = self.interp.base.vars
        vars.clear()
        self.out.seek(0)
        self.out.truncate()
        self.interp.eval(f"args__ = {{{args}}};")
        made = self.interp.call_value(char_row("containers.Map"), vars.pop("args__").values(), 1)[0]
        vars[name] = made
        return made

    def run(self, code: str) -> tuple[dict, str]:
        self.interp.eval(code)
        return self.interp.base.vars, self.out.getvalue()

    def fails(self, code: str) -> MatlabError:
        with pytest.raises(MatlabError) as info:
            self.run(code)
        return info.value


@pytest.fixture(scope="module")
def ml() -> Session:
    return Session()


def texts(c: Cell) -> list[str]:
    return [char_text(v) for v in c.values()]


def test_empty_map_defaults(ml):
    m = ml.make()
    v, _ = ml.run("c = m.Count; k = m.KeyType; t = m.ValueType; ks = keys(m);")
    assert v["c"] == 0.0
    assert char_text(v["k"]) == "char" and char_text(v["t"]) == "any"
    assert type(v["ks"]) is Cell and v["ks"].shape == (1, 0)
    assert m.shape == (0, 1)


def test_assign_read_and_sorted_keys(ml):
    ml.make()
    v, out = ml.run("m('banana') = 3; m('apple') = 5; m('Cherry') = 1;\n"
                    "m('apple') = m('apple') + 1;\n"
                    "k = keys(m); vs = values(m); fprintf('%d %d\\n', m.Count, m('apple'));")
    assert texts(v["k"]) == ["Cherry", "apple", "banana"]  # by character code
    assert v["vs"].values() == [1.0, 6.0, 3.0]
    assert out == "3 6\n"


def test_handle_semantics_copies_share_entries(ml):
    ml.make()
    v, _ = ml.run("m2 = m; m2('x') = 1; s.inner = m; s.inner('y') = 2; n = m.Count;")
    assert v["n"] == 2.0
    assert v["m"] is v["m2"]


def test_iskey_and_remove(ml):
    ml.make("{'a', 'b', 'c'}, {1, 2, 3}")
    v, _ = ml.run("p = isKey(m, 'b'); q = isKey(m, {'a', 'z'; 'c', 'b'});\n"
                  "remove(m, 'b'); r = isKey(m, 'b'); remove(m, {'a', 'c'}); n = m.Count;")
    assert v["p"] is True and v["r"] is False
    np.testing.assert_array_equal(v["q"], [[True, False], [True, True]])
    assert v["n"] == 0.0


def test_missing_key_errors(ml):
    ml.make("{'a'}, {1}")
    exc = ml.fails("x = m('nope');")
    assert exc.identifier == "MATLAB:Containers:Map:NoKey"
    assert exc.message == "The specified key is not present in this container."
    assert ml.fails("remove(m, 'nope');").identifier == "MATLAB:Containers:Map:NoKey"
    assert ml.fails("x = m(1);").message == (
        "Specified key type does not match the type expected for this container.")


def test_construct_from_keys_and_values(ml):
    m = ml.make("{'x', 'y'}, {10, 20}")
    assert m.value_type == "double" and m.key_type == "char"
    assert ml.run("v = m('y');")[0]["v"] == 20.0
    m = ml.make("{'jan', 'feb'}, [327.2 368.2]")
    assert m.value_type == "double" and m.entries == {"jan": 327.2, "feb": 368.2}
    assert ml.make("{'a', 'b'}, {'one', 'two'}").value_type == "char"
    assert ml.make("{'a', 'b'}, {1, 'two'}").value_type == "any"
    assert ml.make("{'a', 'b'}, {1, 2}, 'UniformValues', false").value_type == "any"
    assert ml.make("'solo', [1 2 3]").value_type == "any"


def test_uniform_value_type_is_enforced(ml):
    ml.make("{'a'}, {1}")
    exc = ml.fails("m('b') = 'text';")
    assert exc.message == "Specified value type does not match the type expected for this container."


def test_numeric_keys_sort_numerically(ml):
    m = ml.make("'KeyType', 'double', 'ValueType', 'any'")
    assert (m.key_type, m.value_type) == ("double", "any")
    v, _ = ml.run("m(10) = 'ten'; m(3) = 'three'; m(-1.5) = 'neg'; k = keys(m); s = m(3);")
    assert v["k"].values() == [-1.5, 3.0, 10.0]
    assert char_text(v["s"]) == "three"
    assert ml.fails("m('a') = 1;").identifier == "MATLAB:Containers:TypeMismatch"


def test_numeric_key_set_gives_numeric_key_type(ml):
    m = ml.make("[3 1 2], {'c', 'a', 'b'}")
    assert m.key_type == "double"
    v, _ = ml.run("vs = values(m); w = values(m, {2, 3});")
    assert texts(v["vs"]) == ["a", "b", "c"]
    assert texts(v["w"]) == ["b", "c"]


def test_mismatched_counts(ml):
    with pytest.raises(MatlabError) as info:
        ml.make("{'a', 'b'}, {1}")
    assert info.value.message == "The number of keys and values must be the same."


def test_properties_are_read_only(ml):
    ml.make()
    assert ml.fails("m.Count = 3;").identifier == "MATLAB:class:SetProhibited"


def test_method_syntax_for_keys_and_iskey(ml):
    ml.make("{'b', 'a'}, {2, 1}")
    v, _ = ml.run("k = m.keys(); t = m.isKey('a'); f = m.isKey('zz');")
    assert texts(v["k"]) == ["a", "b"]
    assert v["t"] is True and v["f"] is False


def test_display_lists_the_map_properties():
    m = MapObject("char", "double")
    m.entries["k"] = 1.0
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    interp.base.vars["m"] = m
    interp.eval("m")
    assert out.getvalue() == ("\nm = \n\n  Map with properties:\n\n        Count: 1\n"
                              "      KeyType: char\n    ValueType: double\n\n")


@given(st.dictionaries(st.text(alphabet="abcXYZ_09", min_size=1, max_size=5),
                       st.integers(-1000, 1000), max_size=12))
@settings(max_examples=30, deadline=None)
def test_keys_sorted_by_character_code_and_values_follow(ml, entries):
    m = ml.make()
    for k, x in entries.items():
        m.subsasgn_paren([char_row(k)], float(x))
    v, _ = ml.run("k = keys(m); vs = values(m);")
    expected = sorted(entries)
    assert texts(v["k"]) == expected
    assert v["vs"].values() == [float(entries[k]) for k in expected]
