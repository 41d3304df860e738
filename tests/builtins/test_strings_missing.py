"""strings (text/create.py) and missing / ismissing (data/missing_values.py): sizes,
classes, conversion of missing to each class's standard missing value, display, errors."""

import math

import numpy as np

from mlang.values.core import char_text
from mlang.values.string import StringArray

# ------------------------------------------------------------------- strings


def test_strings_sizes(m):
    s = m.value("x = strings;")
    assert type(s) is StringArray and s.shape == (1, 1) and s.data[0, 0] == ""
    assert m.value("x = strings(3);").shape == (3, 3)
    s = m.value("x = strings(2, 4);")
    assert s.shape == (2, 4) and all(v == "" for v in s.data.ravel())
    assert m.value("x = strings([2 0]);").shape == (2, 0)
    assert m.value("x = strings(0);").shape == (0, 0)
    assert m.value("x = size(strings(2, 1, 3));").tolist() == [[2, 1, 3]]
    assert m.value("x = size(strings(2, 3, 1));").tolist() == [[2, 3]]
    assert m.value("x = strings(-1, 2);").shape == (0, 2)
    assert m.value("x = strlength(strings(1, 2));").tolist() == [[0, 0]]
    assert m.value('s = strings(1, 2); s(2) = "ab"; x = s == "";').tolist() == [[True, False]]


def test_strings_display_and_errors(m):
    assert m.run("s = strings(1, 2)") == '\ns = \n\n  1×2 string array\n\n    ""    ""\n\n'
    assert m.fails("strings('a')").exc.identifier == "MATLAB:NonNumericInput"
    assert m.fails("strings(1.5)").exc.identifier == "MATLAB:NonIntegerInput"
    assert m.fails("strings([1 2], 3)").exc.identifier == "MATLAB:NonScalarInput"


# ------------------------------------------------------------------- missing


def test_missing_class_and_display(m):
    assert char_text(m.value("x = class(missing);")) == "missing"
    assert char_text(m.value("x = class(strings(2));")) == "string"
    assert m.run("m = missing") == "\nm = \n\n  missing\n\n    <missing>\n\n"
    assert m.run("m = [missing missing]") == \
        "\nm = \n\n  1×2 missing array\n\n    <missing>    <missing>\n\n"
    assert m.value("m = [missing; missing]; x = size(m);").tolist() == [[2, 1]]


def test_missing_becomes_nan_and_missing_string(m):
    x = m.value("x = [1 2 3]; x(2) = missing;")
    assert x[0, 0] == 1 and math.isnan(x[0, 1]) and x[0, 2] == 3
    x = m.value("x = single([1 2]); x(1) = missing;")
    assert x.dtype == np.float32 and math.isnan(x[0, 0]) and x[0, 1] == 2
    x = m.value('x = ["a" "b" "c"]; x(3) = missing;')
    assert type(x) is StringArray and list(x.data[0]) == ["a", "b", None]
    x = m.value("x = [missing 1 2];")
    assert math.isnan(x[0, 0]) and x[0, 1:].tolist() == [1, 2]
    x = m.value('x = [missing "a"];')
    assert type(x) is StringArray and list(x.data[0]) == [None, "a"]
    x = m.value("x = 5; x = missing;")
    assert type(x).__name__ == "MissingArray"
    # a missing array grows as one, and turns into the class of a value assigned into it
    assert m.value("m = missing; m(3) = missing; x = size(m);").tolist() == [[1, 3]]
    x = m.value("x = missing; x(2) = 5;")
    assert math.isnan(x[0, 0]) and x[0, 1] == 5
    assert m.value("q(2) = missing; x = size(q);").tolist() == [[1, 2]]
    x = m.value("x = [missing missing missing]; x(2) = [];")
    assert type(x).__name__ == "MissingArray" and x.shape == (1, 2)
    x = m.value("x = NaN(1, 3); x(:) = missing;")
    assert np.isnan(x).all() and x.shape == (1, 3)
    x = m.value("x = [1 2; missing 3];")
    assert math.isnan(x[1, 0]) and x[1, 1] == 3
    assert m.value("m = missing; m(2, 2) = missing; x = size(m);").tolist() == [[2, 2]]
    assert m.value("m = [missing missing]; x = m(2);").shape == (1, 1)


def test_string_of_missing(m):
    x = m.value("x = string(missing);")
    assert type(x) is StringArray and x.shape == (1, 1) and x.data[0, 0] is None
    x = m.value("x = string([missing; missing]);")
    assert x.shape == (2, 1) and all(v is None for v in x.data.ravel())
    assert m.value("x = ismissing(string(missing));") is True


def test_missing_errors(m):
    assert m.fails("x = int8([1 2]); x(1) = missing;").exc.identifier == \
        "MATLAB:invalidConversion"
    assert m.fails("x = {1, 2}; x(1) = missing;").exc.identifier == "MATLAB:invalidConversion"
    assert m.fails("missing(1)").exc.identifier == "MATLAB:TooManyInputs"


def test_ismissing(m):
    assert m.value("x = ismissing(missing);") is True
    assert m.value("x = ismissing([3 NaN 5 6 7 NaN NaN 9]);").tolist() == \
        [[False, True, False, False, False, True, True, False]]
    assert m.value('x = ismissing(["a" "" missing]);').tolist() == [[False, False, True]]
    assert m.value("x = ismissing({'a', ''; 'b', 'c'});").tolist() == \
        [[False, True], [False, False]]
    assert m.value("x = ismissing('a b');").tolist() == [[False, True, False]]
    assert m.value("x = ismissing(int8([1 2]));").tolist() == [[False, False]]
    assert m.value("x = ismissing([1 -99 0 NaN], [0 -99]);").tolist() == \
        [[False, True, True, False]]
    assert m.value('x = ismissing(["a" "NA" "b"], "NA");').tolist() == [[False, True, False]]
    assert m.value("x = ismissing({'a', 'NA'}, {'NA'});").tolist() == [[False, True]]
    assert m.value("x = ismissing(zeros(0, 3));").shape == (0, 3)
    assert m.fails("ismissing({1, 2})").exc.identifier == "MATLAB:ismissing:CellNotCellstr"


def test_missing_converts_to_nan(m):
    m.run("a = double(missing); b = single([missing missing]);")
    v = m.interp.base.vars
    assert np.isnan(v["a"]) and v["b"].dtype == np.float32 and v["b"].shape == (1, 2)
    assert np.isnan(v["b"]).all()


def test_ismissing_of_char_with_a_numeric_indicator_compares_codes(m):
    assert m.value("x = ismissing('abc', 98);").tolist() == [[False, True, False]]
    assert not m.value("x = ismissing('%5.2f|', 4.0);").any()
