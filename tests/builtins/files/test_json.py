"""jsonencode and jsondecode: MATLAB's mapping both ways, its number formatting, its
options and its errors."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.values.cell import Cell
from mlang.values.core import char_row, char_text
from mlang.values.struct import Struct


def encoded(m, code: str) -> str:
    return char_text(m.value(f"x = jsonencode({code});"))


# ------------------------------------------------------------------ jsonencode


@pytest.mark.parametrize("code, expected", [
    ("3", "3"),
    ("1.5", "1.5"),
    ("-0.25", "-0.25"),
    ("1e20", "1e+20"),
    ("1e-7", "1e-07"),
    ("0.1", "0.1"),
    ("pi", "3.1415926535897931"),
    ("sqrt(2)", "1.4142135623730951"),
    ("2^53", "9007199254740992"),
    ("0", "0"),
    ("int8(-5)", "-5"),
    ("uint64(18446744073709551615)", "18446744073709551615"),
    ("single(0.1)", "0.1"),
    ("true", "true"),
    ("[true false]", "[true,false]"),
    ("NaN", "null"),
    ("[1 NaN Inf -Inf]", "[1,null,null,null]"),
])
def test_encode_scalars_and_numbers(m, code, expected):
    assert encoded(m, code) == expected


def test_encode_inf_and_nan_kept(m):
    assert encoded(m, "[1 NaN Inf -Inf], 'ConvertInfAndNaN', false") == "[1,NaN,Infinity,-Infinity]"


@pytest.mark.parametrize("code, expected", [
    ("[1 2 3]", "[1,2,3]"),
    ("[1; 2; 3]", "[1,2,3]"),
    ("magic(3)", "[[8,1,6],[3,5,7],[4,9,2]]"),
    ("reshape(1:8, 2, 2, 2)", "[[[1,5],[3,7]],[[2,6],[4,8]]]"),
    ("[]", "[]"),
    ("zeros(1, 0)", "[]"),
    ("''", '""'),
    ("'abc'", '"abc"'),
    ("['ab'; 'cd']", '["ab","cd"]'),
    ('"text"', '"text"'),
    ('["a" "b"]', '["a","b"]'),
    ('string(missing)', "null"),
    ("{'one'; 'two'; 'three'}", '["one","two","three"]'),
    ("{1, 'a'; [2 3], {}}", '[1,[2,3],"a",[]]'),
    ("{}", "[]"),
    ("struct('a', 1, 'b', 'x')", '{"a":1,"b":"x"}'),
    ("struct()", "{}"),
    ("struct('a', {1, 2})", '[{"a":1},{"a":2}]'),
    ("struct('a', {})", "[]"),
    ("struct('v', {{1, 2}})", '{"v":[1,2]}'),
    ("containers.Map({'k1', 'k2'}, {1, 'v'})", '{"k1":1,"k2":"v"}'),
])
def test_encode_arrays_and_containers(m, code, expected):
    assert encoded(m, code) == expected


def test_encode_escapes(m):
    assert encoded(m, "['one' newline 'two']") == '"one\\ntwo"'
    assert encoded(m, "sprintf('AB\\tCD')") == '"AB\\tCD"'
    assert encoded(m, "'say \"hi\" \\'") == '"say \\"hi\\" \\\\"'


def test_encode_pretty_print_matches_the_documented_example(m):
    m.run("s.Width = 800; s.Height = 600; s.Title = 'View from the 15th Floor';"
          "s.Animated = false; s.IDs = [116, 943, 234, 38793];")
    m.interp.eval("x = jsonencode(s, PrettyPrint=true);")
    assert char_text(m.interp.base.vars["x"]) == (
        '{\n'
        '  "Width": 800,\n'
        '  "Height": 600,\n'
        '  "Title": "View from the 15th Floor",\n'
        '  "Animated": false,\n'
        '  "IDs": [\n'
        '    116,\n'
        '    943,\n'
        '    234,\n'
        '    38793\n'
        '  ]\n'
        '}')


def test_encode_pretty_print_empty_containers(m):
    assert encoded(m, "struct('a', [], 'b', struct()), 'PrettyPrint', true") == \
        '{\n  "a": [],\n  "b": {}\n}'


def test_encode_errors(m):
    assert m.fails("jsonencode(1+2i)").identifier == "MATLAB:json:UnsupportedComplexDataType"
    assert m.fails("jsonencode(sparse(1))").identifier == "MATLAB:json:UnsupportedSparseDataType"
    assert m.fails("jsonencode(@sin)").identifier == "MATLAB:json:UnsupportedDataType"
    assert m.fails("jsonencode(1, 'Pretty', true)").identifier == "MATLAB:json:UnmatchedParameter"
    assert m.fails("jsonencode(1, 'PrettyPrint')").identifier == "MATLAB:json:ParamMissingValue"
    assert m.fails("jsonencode(1, 'PrettyPrint', 'yes')").identifier == \
        "MATLAB:json:InvalidOptionValue"


# ------------------------------------------------------------------ jsondecode


def decoded(m, json_text: str, *options: str):
    extra = "".join(", " + o for o in options)
    return m.value(f"x = jsondecode(t{extra});", t=char_row(json_text))


def test_decode_scalars(m):
    assert decoded(m, "3") == 3.0
    assert decoded(m, "true") is True
    assert decoded(m, "null").shape == (0, 0)
    assert char_text(decoded(m, '"text"')) == "text"
    assert decoded(m, '""').shape == (0, 0)


def test_decode_documented_example(m):
    x = decoded(m, '["one", "two", "three"]')
    assert type(x) is Cell and x.shape == (3, 1)
    assert [char_text(v) for v in x.data.ravel()] == ["one", "two", "three"]
    assert m.run("x = jsondecode('[\"one\", \"two\", \"three\"]')") == (
        "\nx =\n\n  3×1 cell array\n\n    {'one'  }\n    {'two'  }\n    {'three'}\n\n")


def test_decode_numeric_arrays(m):
    x = decoded(m, "[116,943,234,38793]")
    assert x.shape == (4, 1) and x.ravel().tolist() == [116, 943, 234, 38793]
    y = decoded(m, "[1, null, 3]")
    assert y.shape == (3, 1) and np.isnan(y[1, 0])
    z = decoded(m, "[[1,2],[3,4],[5,6]]")
    assert z.shape == (3, 2) and z.tolist() == [[1, 2], [3, 4], [5, 6]]
    w = decoded(m, "[[[1,2],[3,4]],[[5,6],[7,8]]]")
    assert w.shape == (2, 2, 2) and w[1, 0, 1] == 6
    b = decoded(m, "[true, false]")
    assert b.dtype == bool and b.shape == (2, 1)


def test_decode_ragged_and_mixed_arrays_are_cells(m):
    x = decoded(m, "[[1,2],[3]]")
    assert type(x) is Cell and x.shape == (2, 1)
    assert x.data[0, 0].ravel().tolist() == [1, 2] and x.data[1, 0] == 3.0
    y = decoded(m, '[1, "a", null, true]')
    assert type(y) is Cell and y.shape == (4, 1)
    assert y.data[2, 0].shape == (0, 0) and y.data[3, 0] is True
    assert decoded(m, "[]").shape == (0, 0)


def test_decode_objects(m):
    x = decoded(m, '{"IDs":[116,943,234,38793], "a b": 1, "1x": 2, "a.b": 3, "for": 4, "": 5}')
    assert type(x) is Struct and x.fields == ["IDs", "aB", "x1x", "a_b", "xFor", "x"]
    empty = decoded(m, "{}")
    assert type(empty) is Struct and empty.fields == [] and empty.shape == (1, 1)
    dup = decoded(m, '{"a b": 1, "aB": 2}')
    assert dup.fields == ["aB", "aB_1"]


def test_decode_struct_arrays(m):
    x = decoded(m, '[{"a":1,"b":"x"},{"a":2,"b":"y"}]')
    assert type(x) is Struct and x.shape == (2, 1) and x.element(1)["a"] == 2.0
    y = decoded(m, '[{"a":1},{"b":2}]')
    assert type(y) is Cell and y.shape == (2, 1) and y.data[1, 0].fields == ["b"]


def test_decode_options(m):
    x = decoded(m, '{"a b": 1}', "'makeValidName', false")
    assert x.fields == ["a b"]
    y = decoded(m, '{"1-a": 1}', "'ReplacementStyle', 'delete'", "'Prefix', 'p'")
    assert y.fields == ["p1a"]
    assert m.fails("jsondecode('1', 'nope', 1)").identifier == "MATLAB:json:UnmatchedParameter"


def test_decode_string_input(m):
    assert m.value('x = jsondecode("[1,2]");').ravel().tolist() == [1, 2]


def test_decode_round_trip(m):
    x = m.value("s = struct('name', 'n', 'm', magic(3), 'f', true); "
                "x = jsondecode(jsonencode(s));")
    assert x.fields == ["name", "m", "f"]
    assert x.element(0)["m"].tolist() == [[8, 1, 6], [3, 5, 7], [4, 9, 2]]


@pytest.mark.parametrize("json_text, identifier", [
    ("", "MATLAB:json:ExpectedValueAtEnd"),
    ("[1,", "MATLAB:json:ExpectedValueAtEnd"),
    ("this is not valid JSON { [ }", "MATLAB:json:ExpectedLiteral"),
    ("[1, ]", "MATLAB:json:ExpectedValue"),
    ("[1] 2", "MATLAB:json:ExpectedEnd"),
    ("{ invalid json }", "MATLAB:json:ExpectedNameOrEnd"),
    ('{"a":1, x}', "MATLAB:json:ExpectedName"),
    ("{", "MATLAB:json:ExpectedNameOrEndAtEnd"),
    ('{"a" 1}', "MATLAB:json:ExpectedColon"),
    ('{"a"', "MATLAB:json:ExpectedColonAtEnd"),
    ("[1 2]", "MATLAB:json:ExpectedCommaOrEnd"),
    ("[1", "MATLAB:json:ExpectedCommaOrEndAtEnd"),
    ('"abc', "MATLAB:json:ExpectedQuoteAtEnd"),
    ('"a\\q"', "MATLAB:json:InvalidEscape"),
])
def test_decode_syntax_errors(m, json_text, identifier):
    with pytest.raises(MatlabError) as info:
        m.run("jsondecode(t);", t=char_row(json_text))
    assert info.value.identifier == identifier


def test_decode_error_position(m):
    e = m.fails("jsondecode('[1, ]')")
    assert e.exc.message == "JSON syntax error at line 1, column 5 (character 5): expected value but found ']'."
    e = m.fails("jsondecode('this is not JSON')")
    assert e.exc.message == ("JSON syntax error at line 1, column 1 (character 1): expected 'true' but "
                             "found 'this'.")
    e = m.fails("jsondecode('{\"a\":1 \"b\":2}')")
    assert e.exc.message.endswith("expected ',' or '}' but found '\"'.")
    e = m.fails("jsondecode('[1')")
    assert e.exc.message == "JSON syntax error: expected ',' or ']' but found end of text."


def test_decode_bad_input(m):
    assert m.fails("jsondecode(3)").identifier == "MATLAB:json:InvalidInput"


def test_encode_table_and_datetime(m):
    from mlang.registry import BUILTINS

    if "table2struct" not in BUILTINS or "datetime" not in BUILTINS:
        pytest.skip("tables and datetimes are not in this build")
    assert encoded(m, "table([1;2], {'a';'b'}, 'VariableNames', {'x','y'})") == \
        '[{"x":1,"y":"a"},{"x":2,"y":"b"}]'
    assert encoded(m, "datetime(2024,1,2,3,4,5)") == '"02-Jan-2024 03:04:05"'
