"""inputParser: schema, parsing, results, settings and MATLAB's errors."""

from __future__ import annotations

import pytest

from mlang.values.cell import Cell
from mlang.values.core import char_text
from mlang.values.struct import Struct

SCHEMA = """
p = inputParser;
addRequired(p, 'width', @(x) isnumeric(x) && isscalar(x) && x > 0);
addOptional(p, 'height', 1, @isnumeric);
p.addParameter('units', 'inches', @ischar);
p.addParamValue('shape', 'rectangle');
"""


def names(c: Cell) -> list[str]:
    return [char_text(x) for x in c.data.ravel(order="F")]


def results(m, code: str) -> dict:
    r = m.value(SCHEMA + code + "\nx = p.Results;")
    assert type(r) is Struct
    return r.element(0)


def test_defaults_and_order(m):
    r = results(m, "parse(p, 10);")
    assert r["width"] == 10.0 and r["height"] == 1.0
    assert char_text(r["units"]) == "inches" and char_text(r["shape"]) == "rectangle"
    x = m.value(SCHEMA + "parse(p, 10); x = p.Results;")
    assert x.fields == ["height", "shape", "units", "width"]
    assert names(m.value(SCHEMA + "parse(p, 10); x = p.UsingDefaults;")) == \
        ["height", "units", "shape"]
    assert names(m.value(SCHEMA + "x = p.Parameters;")) == ["height", "shape", "units", "width"]


def test_given_values(m):
    r = results(m, "p.parse(10, 5, 'Units', 'cm');")
    assert (r["width"], r["height"], char_text(r["units"])) == (10.0, 5.0, "cm")
    # a parameter name in the optional position starts the name-value pairs
    r = results(m, "parse(p, 10, 'shape', 'circle');")
    assert r["height"] == 1.0 and char_text(r["shape"]) == "circle"
    # partial matching, case ignored
    r = results(m, "parse(p, 10, 'SHA', 'oval');")
    assert char_text(r["shape"]) == "oval"
    # a struct stands for name-value pairs
    r = results(m, "s.units = 'mm'; s.shape = 'dot'; parse(p, 3, s);")
    assert char_text(r["units"]) == "mm" and char_text(r["shape"]) == "dot"
    # a later value of the same parameter wins
    r = results(m, "parse(p, 3, 'units', 'a', 'units', 'b');")
    assert char_text(r["units"]) == "b"


def test_keep_unmatched(m):
    u = m.value(SCHEMA + "p.KeepUnmatched = true; parse(p, 1, 'foo', 3); x = p.Unmatched;")
    assert u.fields == ["foo"] and u.element(0)["foo"] == 3.0
    u = m.value(SCHEMA + "parse(p, 1); x = p.Unmatched;")
    assert type(u) is Struct and u.fields == [] and u.shape == (1, 1)


def test_settings(m):
    assert m.value("p = inputParser; x = p.PartialMatching;") is True
    assert m.value("p = inputParser; x = p.KeepUnmatched;") is False
    assert m.value("p = inputParser; x = p.StructExpand;") is True
    assert m.value("p = inputParser; x = p.CaseSensitive;") is False
    assert char_text(m.value("p = inputParser; p.FunctionName = 'f'; x = p.FunctionName;")) == "f"
    assert m.value("p = inputParser; x = class(p);").tobytes().decode("utf-16-le") == \
        "inputParser"
    # a handle: a copy of the variable is the same parser
    r = m.value("p = inputParser; q = p; addRequired(q, 'a'); parse(p, 7); x = p.Results.a;")
    assert r == 7.0
    r = m.value("p = inputParser; p.CaseSensitive = true; addParameter(p, 'A', 1); "
                "addParameter(p, 'a', 2); parse(p, 'a', 5); x = [p.Results.A p.Results.a];")
    assert r.tolist() == [[1.0, 5.0]]


def test_validators_without_outputs(m):
    assert m.value("p = inputParser; addRequired(p, 'v', @mustBePositive); parse(p, 4); "
                   "x = p.Results.v;") == 4.0
    e = m.fails("p = inputParser; addRequired(p, 'v', @mustBePositive); parse(p, -1);")
    assert e.identifier == "MATLAB:InputParser:ArgumentFailedValidation"
    assert e.message == "The value of 'v' is invalid. Value must be positive."


def test_validation_messages(m):
    e = m.fails(SCHEMA + "parse(p, -1);")
    assert e.identifier == "MATLAB:InputParser:ArgumentFailedValidation"
    assert e.message == ("The value of 'width' is invalid. It must satisfy the function: "
                         "@(x)isnumeric(x)&&isscalar(x)&&x>0.")
    e = m.fails(SCHEMA + "parse(p, 1, 2, 'units', 5);")
    assert e.message == "The value of 'units' is invalid. It must satisfy the function: ischar."
    e = m.fails(SCHEMA + "p.FunctionName = 'myfun'; parse(p, -1);")
    assert e.exc.function == "myfun"


@pytest.mark.parametrize("code, identifier", [
    ("parse(p)", "MATLAB:minrhs"),
    ("parse(p, 1, 2, 'units')", "MATLAB:InputParser:ParamMissingValue"),
    ("parse(p, 1, 2, 'bogus', 3)", "MATLAB:InputParser:UnmatchedParameter"),
    ("parse(p, 1, 2, 3, 4)", "MATLAB:InputParser:ParamMustBeChar"),
    ("addParameter(p, 'unitsX', 1); parse(p, 1, 'unit', 2)",
     "MATLAB:InputParser:AmbiguousParameter"),
    ("addRequired(p, 'late')", "MATLAB:InputParser:RequiredAfterOptional"),
    ("addOptional(p, 'late', 1)", "MATLAB:InputParser:OptionalAfterParameter"),
    ("addParameter(p, 'Units', 1)", "MATLAB:InputParser:DuplicateParameter"),
    ("addParameter(p, '1bad', 1)", "MATLAB:InputParser:InvalidName"),
    ("addParameter(p, 'v', 1, 5)", "MATLAB:InputParser:ValidationFunctionNotAFunctionHandle"),
    ("p.Results = 1", "MATLAB:class:SetProhibited"),
    ("p.KeepUnmatched = 'yes'", "MATLAB:InputParser:InvalidPropertyValue"),
    ("parse(5)", "MATLAB:UndefinedFunction"),
    ("addParameter(p)", "MATLAB:minrhs"),
])
def test_errors(m, code, identifier):
    assert m.fails(SCHEMA + code).identifier == identifier


def test_too_many_positional(m):
    e = m.fails("p = inputParser; addRequired(p, 'a'); parse(p, 1, 2);")
    assert e.identifier == "MATLAB:TooManyInputs"


# ------------------------------------------------------------ validatestring


@pytest.mark.parametrize("code, expected", [
    ("x = validatestring('app', {'apple', 'pear', 'applesauce'});", "apple"),
    ("x = validatestring('PE', {'apple', 'pear'});", "pear"),
    ("x = validatestring('r', [\"red\", \"green\"], 'myfun', 'color', 2);", "red"),
    ("x = validatestring('Apple', {'apple', 'applesauce'});", "apple"),
])
def test_validatestring(m, code, expected):
    assert char_text(m.value(code)) == expected


def test_validatestring_keeps_string_type(m):
    x = m.value('x = validatestring("gr", ["red", "green"]);')
    assert x.data.tolist() == [["green"]]


@pytest.mark.parametrize("code, identifier, message", [
    ("validatestring('z', {'apple', 'pear'})", "MATLAB:validatestring:unrecognizedStringChoice",
     "Expected input to match one of these values:\n\n'apple', 'pear'\n\n"
     "The input, 'z', did not match any of the valid values."),
    ("validatestring('a', {'apple', 'avocado'}, 'f', 'fruit')", "MATLAB:f:ambiguousStringChoice",
     "Expected fruit to match one of these values:\n\n'apple', 'avocado'\n\n"
     "The input, 'a', matched more than one valid value."),
    ("validatestring('b', {'apple'}, 'f', 'fruit', 3)", "MATLAB:f:unrecognizedStringChoice",
     "Expected input number 3, fruit, to match one of these values:\n\n'apple'\n\n"
     "The input, 'b', did not match any of the valid values."),
    ("validatestring(5, {'apple'})", "MATLAB:validatestring:invalidType",
     "Expected input to be one of these types:\n\nchar, string\n\nInstead its type was double."),
    ("validatestring('a', {})", "MATLAB:validatestring:invalidStringArray",
     "Valid strings must be a cell array of character vectors or a string array."),
    ("validatestring('a', {'a'}, 'f', 'v', 0)", "MATLAB:validatestring:badArgPosition",
     "Input argument position must be a positive integer."),
])
def test_validatestring_errors(m, code, identifier, message):
    e = m.fails(code)
    assert (e.identifier, e.message) == (identifier, message)


# ------------------------------------------------------------ localfunctions


@pytest.fixture
def folder(m, tmp_path):
    m.interp.path.insert(0, str(tmp_path))
    m.interp.invalidate()
    yield tmp_path
    m.interp.path.remove(str(tmp_path))
    m.interp.invalidate()


def test_localfunctions(m, folder):
    (folder / "mainlf.m").write_text(
        "function out = mainlf()\nfs = localfunctions;\nout = cellfun(@(f) f(2), fs);\nend\n"
        "function y = helperA(x)\ny = x * 10;\nend\n"
        "function y = helperB(x)\ny = x + 1;\nend\n")
    assert m.value("x = mainlf();").tolist() == [[20.0], [3.0]]
    (folder / "scriptlf.m").write_text(
        "fs = localfunctions;\nn = numel(fs);\nname = func2str(fs{1});\n"
        "function y = onlyone(x)\ny = x;\nend\n")
    n, name = m.values("scriptlf", "n", "name")
    assert n == 1.0 and char_text(name) == "onlyone"
    assert m.value("x = localfunctions;").shape == (0, 1)


def test_method_calls_without_outputs_show_nothing(m) -> None:
    assert m.run("p = inputParser;\np.addRequired('x')\np.parse(3)\ndisp(p.Results.x)") == "     3\n\n"
