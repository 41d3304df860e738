"""Text builtins: number/text conversion, searching, splitting, comparing, case,
trimming, character classes, base conversion and regular expressions."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values.cell import Cell
from mlang.values.core import char_rows, char_text, class_of, size_of
from mlang.values.string import StringArray
from mlang.values.struct import Struct


@pytest.fixture(scope="module")
def it() -> Interpreter:
    return _shared()


def raw(it: Interpreter, expr: str):
    """The MATLAB value of an expression, as mlang holds it."""
    it.eval(f"r__ = {expr};")
    return it.base.vars["r__"]


def ev(it: Interpreter, expr: str):
    """The value of an expression converted to Python (char rows become str)."""
    it.eval(f"r__ = {expr};")
    return it.get("r__")


def out(it: Interpreter, code: str) -> str:
    """What running code prints."""
    buffer = io.StringIO()
    saved = it.out
    it.out = buffer
    try:
        it.eval(code)
    finally:
        it.out = saved
    return buffer.getvalue()


def rows(value) -> list[str]:
    """The rows of a char matrix."""
    return char_rows(value)


def fails(it: Interpreter, expr: str) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        it.eval(f"r__ = {expr};")
    return info.value


quoted = st.text(alphabet="abcXYZ019 ,;-_", max_size=12)


def lit(text: str) -> str:
    """A MATLAB char literal for text."""
    return "'" + text.replace("'", "''") + "'"


# ------------------------------------------------------------ num2str / int2str / mat2str


@pytest.mark.parametrize("expr, expected", [
    ("num2str(42)", "42"), ("num2str(-7)", "-7"), ("num2str(3.5)", "3.5"),
    ("num2str(pi)", "3.1416"), ("num2str(pi, 8)", "3.1415927"), ("num2str(-0.25)", "-0.25"),
    ("num2str(100.5)", "100.5"), ("num2str(123.456)", "123.456"), ("num2str(0.1)", "0.1"),
    ("num2str(1234.5678)", "1234.5678"), ("num2str(0.000123)", "0.000123"),
    ("num2str(1e10)", "10000000000"), ("num2str(1.5e10)", "15000000000"),
    ("num2str(1e20)", "1e+20"), ("num2str(Inf)", "Inf"), ("num2str(-Inf)", "-Inf"),
    ("num2str(NaN)", "NaN"), ("num2str(true)", "1"), ("num2str(int8(-5))", "-5"),
    ("num2str(uint8(200))", "200"), ("num2str([1 2 3])", "1  2  3"),
    ("num2str([10 200])", "10  200"), ("num2str([1 NaN 3])", "1  NaN    3"),
    ("num2str(int32([1 -20 300]))", "1  -20  300"), ("num2str(1+2i)", "1+2i"),
    ("num2str(1.5-2.25i)", "1.5-2.25i"), ("num2str('text')", "text"),
    ("num2str(3.5, '%8.3f')", "3.500"), ("num2str(42, '%05d')", "00042"),
    ("num2str([1 2], '%d,')", "1,2,"),
])
def test_num2str(it, expr, expected):
    assert ev(it, expr) == expected


def test_num2str_matrix_rows_share_columns(it):
    assert rows(raw(it, "num2str([1 2; 3 4])")) == ["1  2", "3  4"]
    assert rows(raw(it, "num2str([1.5 2; 3 4.25])")) == ["1.5           2", "  3        4.25"]
    assert rows(raw(it, "num2str([10; -5])")) == ["10", "-5"]


def test_num2str_empty_and_errors(it):
    assert size_of(raw(it, "num2str([])")) == (0, 0)
    assert fails(it, "num2str({1})").identifier == "MATLAB:num2str:nonNumericInput"


@given(st.integers(-10**15, 10**15))
@settings(max_examples=40, deadline=None)
def test_num2str_of_whole_numbers_is_exact(n):
    it = _shared()
    assert ev(it, f"num2str({n})") == str(n)
    assert ev(it, f"int2str({n})") == str(n)


@pytest.mark.parametrize("expr, expected", [
    ("int2str(2.5)", "3"), ("int2str(-2.5)", "-3"), ("int2str(2.49)", "2"),
    ("int2str([1.2 3.7])", "1  4"), ("int2str([1.5 -1.5 2.49])", "2 -2  2"),
    ("int2str('a')", "97"), ("int2str(true)", "1"),
])
def test_int2str(it, expr, expected):
    assert ev(it, expr) == expected


@pytest.mark.parametrize("expr, expected", [
    ("mat2str([1 2; 3 4])", "[1 2;3 4]"), ("mat2str([1; 2; 3])", "[1;2;3]"),
    ("mat2str(-5)", "-5"), ("mat2str(true)", "true"),
    ("mat2str(logical([1 0; 0 1]))", "[true false;false true]"),
    ("mat2str(int8([1 -2 3]))", "[1 -2 3]"), ("mat2str([0.5 -1.25])", "[0.5 -1.25]"),
    ("mat2str(pi)", "3.14159265358979"), ("mat2str(pi, 4)", "3.142"),
    ("mat2str([1.5 NaN; Inf -Inf])", "[1.5 NaN;Inf -Inf]"),
    ("mat2str([1+2i 3-4i])", "[1+2i 3-4i]"), ("mat2str(-0)", "0"),
    ("mat2str(int16([1 -1]), 'class')", "int16([1 -1])"),
    ("mat2str([1 2], 'class')", "double([1 2])"), ("mat2str(true(1, 2), 'class')", "[true true]"),
    ("mat2str(single(pi))", "3.141593"), ("mat2str(zeros(2, 0))", "zeros(2,0)"),
    ("mat2str('it''s')", "'it''s'"), ("mat2str(['ab'; 'cd'])", "['ab';'cd']"),
    ("mat2str('')", "''"), ("mat2str(\"a\")", '"a"'), ("mat2str([\"a\" \"b\"])", '["a" "b"]'),
    ("mat2str('abc' == 'abd')", "[true true false]"),
])
def test_mat2str(it, expr, expected):
    assert ev(it, expr) == expected


def test_mat2str_errors(it):
    assert fails(it, "mat2str(ones(2, 2, 2))").identifier == "MATLAB:mat2str:TwoDInput"
    assert fails(it, "mat2str({1})").identifier == "MATLAB:mat2str:NumericInput"


@given(st.lists(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=3, max_size=3),
                min_size=1, max_size=3))
@settings(max_examples=30, deadline=None)
def test_mat2str_evaluates_back(values):
    it = _shared()
    matrix = np.array(values)
    it.set("m__", matrix)
    it.eval("back__ = eval(mat2str(m__, 17));")
    assert np.array_equal(np.atleast_2d(it.get("back__")), matrix)


_INTERP: list[Interpreter] = []


def _shared() -> Interpreter:
    """One interpreter for the property tests (hypothesis cannot take fixtures)."""
    if not _INTERP:
        _INTERP.append(Interpreter(stdout=io.StringIO()))
    return _INTERP[0]


# ------------------------------------------------------------ str2double / str2num


@pytest.mark.parametrize("text, expected", [
    ("3.25", 3.25), ("  -7 ", -7.0), ("1e3", 1000.0), ("1E-3", 0.001), (".5", 0.5),
    ("3.", 3.0), ("1,000", 1000.0), ("+4", 4.0), ("Inf", math.inf), ("-inf", -math.inf),
    ("2.5d2", 250.0),
])
def test_str2double_numbers(it, text, expected):
    assert ev(it, f"str2double({lit(text)})") == expected


@pytest.mark.parametrize("text", ["abc", "1 2", "", "1e", "--1", "1.2.3", "NaN"])
def test_str2double_not_numbers(it, text):
    assert math.isnan(ev(it, f"str2double({lit(text)})"))


@pytest.mark.parametrize("text, expected", [
    ("1+2i", 1 + 2j), ("-3.5i", -3.5j), ("2 - i", 2 - 1j), ("j", 1j), ("1e2-2.5e1j", 100 - 25j),
])
def test_str2double_complex(it, text, expected):
    assert ev(it, f"str2double({lit(text)})") == expected


def test_str2double_arrays(it):
    v = raw(it, "str2double({'1', 'x'; '2.5', '4'})")
    assert v.shape == (2, 2)
    assert v[0, 0] == 1 and math.isnan(v[0, 1]) and v[1, 0] == 2.5 and v[1, 1] == 4
    assert np.isnan(ev(it, "str2double(5)"))
    assert np.isnan(ev(it, "str2double({1})"))
    s = raw(it, 'str2double(["1.5" "x"])')
    assert s[0, 0] == 1.5 and math.isnan(s[0, 1])


@given(st.floats(allow_nan=False, allow_infinity=False))
@settings(max_examples=60, deadline=None)
def test_str2double_reads_what_sprintf_writes(x):
    it = _shared()
    it.set("x__", x)
    assert ev(it, "str2double(sprintf('%.17g', x__))") == x


def test_str2num(it):
    assert ev(it, "str2num('[1 2 3]')").tolist() == [[1, 2, 3]]
    assert ev(it, "str2num('3 + 4')") == 7
    assert ev(it, "str2num('1;2')").tolist() == [[1], [2]]
    it.eval("[x__, ok__] = str2num('undefined_name_here');")
    assert size_of(it.base.vars["x__"]) == (0, 0) and it.get("ok__") is False
    it.eval("[x__, ok__] = str2num('[1 2');")
    assert it.get("ok__") is False


# ------------------------------------------------------------ char, cellstr, string


def test_char_pads_rows(it):
    m = raw(it, "char('a', 'bcd', 'ef')")
    assert rows(m) == ["a  ", "bcd", "ef "]
    assert rows(raw(it, "char({'xy', 'z'})")) == ["xy", "z "]
    assert rows(raw(it, "char('a', '', 'b')")) == ["a", " ", "b"]
    assert rows(raw(it, "char(65, 'bc')")) == ["A ", "bc"]
    assert rows(raw(it, 'char(["a" "bb"])')) == ["a ", "bb"]


def test_char_of_numbers_and_strings(it):
    assert ev(it, "char([72 105])") == "Hi"
    assert ev(it, "char(65.6)") == "B"
    assert ev(it, 'char("hello")') == "hello"
    assert size_of(raw(it, "char()")) == (0, 0)
    assert rows(raw(it, "char([72 105; 72 111])")) == ["Hi", "Ho"]


def test_cellstr(it):
    c = raw(it, "cellstr(['ab ';'c  '])")
    assert c.shape == (2, 1)
    assert [ char_text(x) for x in c.data.ravel()] == ["ab", "c"]
    assert ev(it, "cellstr('x')") == ["x"]
    one = raw(it, "cellstr('')")
    assert one.shape == (1, 1) and one.data[0, 0].size == 0
    assert ev(it, 'cellstr(["p" "q"])') == ["p", "q"]
    assert fails(it, "cellstr({1})").identifier == "MATLAB:cellstr:MustContainText"


@pytest.mark.parametrize("expr, expected", [
    ("iscellstr({'a', 'b'})", True), ("iscellstr({'a', 1})", False), ("iscellstr({})", True),
    ("iscellstr('a')", False), ("ischar('a')", True), ("ischar({'a'})", False),
    ("ischar(\"a\")", False), ("isstring(\"a\")", True), ("isstring('a')", False),
])
def test_type_tests(it, expr, expected):
    assert ev(it, expr) is expected


def test_string_conversion(it):
    s = raw(it, "string({'p', 'q'})")
    assert type(s) is StringArray and s.shape == (1, 2)
    assert ev(it, "string(42)") == "42"
    assert ev(it, "string(true)") == "true"
    assert ev(it, "string('abc')") == "abc"
    assert ev(it, "string()") == ""


def test_strlength(it):
    assert ev(it, "strlength('hello')") == 5
    assert ev(it, "strlength({'abc', ''})").tolist() == [[3, 0]]
    assert ev(it, 'strlength(["x" "yy" "zzz"])').tolist() == [[1, 2, 3]]


def test_blanks_and_newline(it):
    assert ev(it, "blanks(3)") == "   "
    assert size_of(raw(it, "blanks(0)")) == (1, 0)
    assert ev(it, "double(newline)") == 10
    assert fails(it, "blanks(-1)").identifier == "MATLAB:blanks:InvalidInput"


# ------------------------------------------------------------ case and trimming


def test_upper_lower(it):
    assert ev(it, "upper('Hello World 123')") == "HELLO WORLD 123"
    assert ev(it, "lower('MiXeD')") == "mixed"
    assert ev(it, "upper({'ab', 'cd'})") == ["AB", "CD"]
    s = raw(it, 'upper(["ab" "c"])')
    assert type(s) is StringArray and s.data.tolist() == [["AB", "C"]]
    assert rows(raw(it, "upper(['ab'; 'cd'])")) == ["AB", "CD"]
    assert ev(it, "upper(5)") == 5


@given(st.text(alphabet="abcdefXYZ 12", max_size=10))
@settings(max_examples=30, deadline=None)
def test_upper_matches_python_for_ascii(text):
    it = _shared()
    assert ev(it, f"upper({lit(text)})") == text.upper()
    assert ev(it, f"lower({lit(text)})") == text.lower()


def test_strtrim_and_deblank(it):
    assert ev(it, "strtrim('   padded text   ')") == "padded text"
    assert ev(it, "strtrim(sprintf('\\t tabbed \\n'))") == "tabbed"
    assert ev(it, "deblank('trailing    ')") == "trailing"
    assert ev(it, "deblank('  leading kept  ')") == "  leading kept"
    assert ev(it, "strtrim({' a ', 'b  '})") == ["a", "b"]
    assert ev(it, 'strtrim("  x  ")') == "x"
    assert ev(it, "strtrim(['  ab '; '   c '])").tolist() == [["a", "b"], [" ", "c"]]
    assert size_of(raw(it, "strtrim('   ')")) == (1, 0)
    assert ev(it, "strtrim([' a', char(160)])") == "a" + "\xa0"
    assert fails(it, "strtrim(5)").identifier == "MATLAB:strtrim:InputClass"


# ------------------------------------------------------------ find, replace, tokens


def test_strfind(it):
    assert ev(it, "strfind('abcabc', 'bc')").tolist() == [[2, 5]]
    assert ev(it, "strfind('aaaa', 'aa')").tolist() == [[1, 2, 3]]
    assert size_of(raw(it, "strfind('abc', 'z')")) == (1, 0)
    assert ev(it, "strfind('abc', 'c')") == 3
    c = raw(it, "strfind({'abc', 'bcb'}, 'b')")
    assert type(c) is Cell and c.data[0, 0] == 2 and c.data[0, 1].tolist() == [[1, 3]]
    assert type(raw(it, "strfind('ab', 'b', 'ForceCellOutput', true)")) is Cell


def test_strrep(it):
    assert ev(it, "strrep('hello world', 'o', '0')") == "hell0 w0rld"
    assert ev(it, "strrep('a.b.c', '.', '::')") == "a::b::c"
    assert ev(it, "strrep('abc 2 def 22 ghi 222 jkl 2222', '22', '*')") == \
        "abc 2 def * ghi ** jkl ***"
    assert ev(it, "strrep({'aa', 'ba'}, 'a', 'x')") == ["xx", "bx"]
    assert class_of(raw(it, 'strrep("Hello", "o", "0")')) == "string"
    assert size_of(raw(it, "strrep('aa', 'a', '')")) == (1, 0)


@given(quoted, st.sampled_from(["a", "b", ",", "9"]), st.sampled_from(["", "Q", "xy"]))
@settings(max_examples=40, deadline=None)
def test_strrep_single_character_matches_python(text, old, new):
    it = _shared()
    assert ev(it, f"strrep({lit(text)}, {lit(old)}, {lit(new)})") == text.replace(old, new)


def test_strtok(it):
    it.eval("[t__, r__] = strtok('  hello world');")
    assert it.get("t__") == "hello" and it.get("r__") == " world"
    it.eval("[t__, r__] = strtok('a,b,c', ',');")
    assert it.get("t__") == "a" and it.get("r__") == ",b,c"
    it.eval("[t__, r__] = strtok({'a b', ' c d'});")
    assert it.get("t__") == ["a", "c"] and it.get("r__") == [" b", " d"]
    it.eval("[t__, r__] = strtok('');")
    assert size_of(it.base.vars["t__"]) == (0, 0)


def test_strtok_loop_collects_words(it):
    printed = out(it, "s = 'x y z'; n = 0; while ~isempty(s), [t, s] = strtok(s); "
                      "if ~isempty(t), n = n + 1; end, end, fprintf('%d', n);")
    assert printed == "3"


def test_strcat(it):
    assert ev(it, "strcat('con', 'cat', 'enate')") == "concatenate"
    assert ev(it, "strcat('a ', 'b ', ' c')") == "ab c"
    assert ev(it, "strcat({'a '}, 'b ')") == ["a b"]
    assert ev(it, "strcat({'a', 'b'}, 'x')") == ["ax", "bx"]
    assert ev(it, "strcat({'a', 'b'}, {'c', 'd'})") == ["ac", "bd"]
    assert rows(raw(it, "strcat(['a ';'bb'], 'c')")) == ["ac ", "bbc"]
    assert ev(it, 'strcat("a ", \'b \')') == "a b "
    assert ev(it, "strcat('a', 66)") == "aB"
    assert size_of(raw(it, "strcat('', '')")) == (0, 0)


# ------------------------------------------------------------ comparison


@pytest.mark.parametrize("expr, expected", [
    ("strcmp('abc', 'abc')", True), ("strcmp('abc', 'ABC')", False),
    ("strcmpi('abc', 'ABC')", True), ("strcmp('abc', 'abcd')", False),
    ("strcmp('1', 1)", False), ("strcmp(1, 1)", False), ("strcmp('', '')", True),
    ("strcmp(\"abc\", 'abc')", True), ("strcmp(['ab';'cd'], ['ab';'cd'])", True),
    ("strcmp(['ab';'cd'], 'abcd')", False), ("strncmp('hello', 'help', 3)", True),
    ("strncmp('hello', 'help', 4)", False), ("strncmpi('HELLO', 'help', 3)", True),
    ("strncmp('abc', 'abc', 10)", True), ("strncmp('ab', 'abc', 3)", False),
])
def test_strcmp_scalars(it, expr, expected):
    assert ev(it, expr) is expected


def test_strcmp_arrays(it):
    assert ev(it, "strcmp({'a', 'b', 'a'}, 'a')").tolist() == [[True, False, True]]
    assert ev(it, "strcmp({'a', 'b'}, {'a', 'c'})").tolist() == [[True, False]]
    assert ev(it, "strcmp({'a'; 'b'}, {'a'})").tolist() == [[True], [False]]
    assert ev(it, "strcmp({'a', 1}, 'a')").tolist() == [[True, False]]
    assert ev(it, 'strcmp(["a" "b"], "b")').tolist() == [[False, True]]
    assert ev(it, "strncmp({'abc', 'abd', 'x'}, 'ab', 2)").tolist() == [[True, True, False]]
    assert fails(it, "strcmp({'a', 'b'}, {'a', 'b', 'c'})").identifier == \
        "MATLAB:strcmp:InputsSizeMismatch"


@given(quoted, quoted)
@settings(max_examples=40, deadline=None)
def test_strcmp_is_text_equality(a, b):
    it = _shared()
    assert ev(it, f"strcmp({lit(a)}, {lit(b)})") is (a == b)
    assert ev(it, f"strcmpi({lit(a)}, {lit(b)})") is (a.lower() == b.lower())


def test_starts_ends_contains(it):
    assert ev(it, "startsWith('filename.txt', 'file')") is True
    assert ev(it, "endsWith('filename.txt', '.csv')") is False
    assert ev(it, "startsWith({'abc', 'xbc', 'ab'}, 'ab')").tolist() == [[True, False, True]]
    assert ev(it, "endsWith('a.txt', {'.csv', '.txt'})") is True
    assert ev(it, "contains('Hello', 'ELL', 'IgnoreCase', true)") is True
    assert ev(it, "contains('Hello', 'ELL')") is False
    assert ev(it, 'contains(["ab" "cd"], "d")').tolist() == [[False, True]]
    assert ev(it, "contains('abc', '')") is True


# ------------------------------------------------------------ split and join


def test_strsplit(it):
    assert ev(it, "strsplit('a,b,c', ',')") == ["a", "b", "c"]
    assert ev(it, "strsplit('one  two three')") == ["one", "two", "three"]
    assert ev(it, "strsplit('  a b  ')") == ["", "a", "b", ""]
    assert ev(it, "strsplit('a-b_c', {'-', '_'})") == ["a", "b", "c"]
    assert ev(it, "strsplit('a,,b', ',')") == ["a", "b"]
    assert ev(it, "strsplit('a,,b', ',', 'CollapseDelimiters', false)") == ["a", "", "b"]
    assert ev(it, "strsplit('a1b22c', '\\d+', 'DelimiterType', 'RegularExpression')") == \
        ["a", "b", "c"]
    assert ev(it, "strsplit(sprintf('a\\tb'), '\\t')") == ["a", "b"]
    assert ev(it, "strsplit('abc', ',')") == ["abc"]
    it.eval("[p__, m__] = strsplit('a, b,c', {', ', ','});")
    assert it.get("p__") == ["a", "b", "c"] and it.get("m__") == [", ", ","]
    assert class_of(raw(it, 'strsplit("a,b", ",")')) == "string"


@given(st.lists(st.text(alphabet="abc xyz", max_size=4), min_size=1, max_size=5))
@settings(max_examples=40, deadline=None)
def test_strsplit_undoes_strjoin(parts):
    it = _shared()
    cell = "{" + ", ".join(lit(p) for p in parts) + "}"
    joined = ev(it, f"strjoin({cell}, ';')")
    assert joined == ";".join(parts)
    back = ev(it, f"strsplit({lit(joined)}, ';', 'CollapseDelimiters', false)")
    assert back == parts


def test_strjoin(it):
    assert ev(it, "strjoin({'x', 'y', 'z'})") == "x y z"
    assert ev(it, "strjoin({'a', 'b'}, ' | ')") == "a | b"
    assert ev(it, "strjoin({'solo'}, ', ')") == "solo"
    assert ev(it, "strjoin({'a', 'b', 'c'}, {'+', '='})") == "a+b=c"
    assert ev(it, "strjoin({'a', 'b'}, '\\n')") == "a\nb"
    assert ev(it, "strjoin({'a'; 'b'}, ',')") == "a,b"
    assert class_of(raw(it, 'strjoin(["a" "b"], "+")')) == "string"
    assert fails(it, "strjoin('abc')").identifier == "MATLAB:strjoin:InvalidCellType"


def test_split_and_join_strings(it):
    p = raw(it, 'split("a,b,c", ",")')
    assert type(p) is StringArray and p.shape == (3, 1)
    assert raw(it, 'split("a b  c")').data.ravel().tolist() == ["a", "b", "c"]
    m = raw(it, 'split(["a,b"; "c,d"], ",")')
    assert m.data.tolist() == [["a", "b"], ["c", "d"]]
    assert ev(it, 'join(["x" "yy" "zzz"], "-")') == "x-yy-zzz"
    j = raw(it, 'join(["a" "b"; "c" "d"])')
    assert j.data.tolist() == [["a b"], ["c d"]]
    c = raw(it, "join({'a', 'b'}, '-')")
    assert type(c) is Cell and char_text(c.data[0, 0]) == "a-b"
    assert type(raw(it, "split('a b')")) is Cell


def test_replace(it):
    assert ev(it, 'replace("Hello World", "World", "There")') == "Hello There"
    assert ev(it, "replace('abcabc', {'a', 'c'}, 'X')") == "XbXXbX"
    assert ev(it, "replace('abc', {'a', 'b'}, {'1', '2'})") == "12c"
    assert class_of(raw(it, "replace('abc', 'b', 'X')")) == "char"


# ------------------------------------------------------------ base conversion


@pytest.mark.parametrize("expr, expected", [
    ("dec2bin(10)", "1010"), ("dec2bin(5, 8)", "00000101"), ("dec2bin(0)", "0"),
    ("dec2hex(255)", "FF"), ("dec2hex(4095, 6)", "000FFF"), ("dec2base(100, 7)", "202"),
    ("dec2base(35, 36)", "Z"), ("dec2base(5, 'ab')", "bab"), ("dec2bin(-5)", "11111011"),
    ("dec2bin(int8(-1))", "11111111"), ("dec2bin(2.7)", "10"),
])
def test_to_base(it, expr, expected):
    assert ev(it, expr) == expected


def test_to_base_matrix_rows(it):
    assert rows(raw(it, "dec2bin([1 2 10])")) == ["0001", "0010", "1010"]
    assert rows(raw(it, "dec2hex([1; 255])")) == ["01", "FF"]


@pytest.mark.parametrize("expr, expected", [
    ("hex2dec('1F')", 31), ("hex2dec('ff')", 255), ("bin2dec('1101')", 13),
    ("bin2dec('1 1')", 3), ("hex2dec('0x1A')", 26), ("base2dec('zz', 36)", 1295),
    ("base2dec('212', 3)", 23),
])
def test_from_base(it, expr, expected):
    assert ev(it, expr) == expected


def test_from_base_arrays_and_errors(it):
    assert ev(it, "bin2dec(['101'; '011'])").tolist() == [[5], [3]]
    assert ev(it, "hex2dec({'A', 'ff', '10'})").tolist() == [[10], [255], [16]]
    assert fails(it, "bin2dec('12')").identifier == "MATLAB:bin2dec:IllegalInput"
    assert fails(it, "dec2base(5, 40)").identifier == "MATLAB:dec2base:InvalidBase"


@given(st.integers(0, 2**53))
@settings(max_examples=40, deadline=None)
def test_base_round_trips(n):
    it = _shared()
    assert ev(it, f"dec2bin({n})") == format(n, "b")
    assert ev(it, f"bin2dec(dec2bin({n}))") == n
    assert ev(it, f"hex2dec(dec2hex({n}))") == n
    assert ev(it, f"base2dec(dec2base({n}, 29), 29)") == n


# ------------------------------------------------------------ character classes


def test_character_classes(it):
    s = "'a1 B2_c'"
    assert ev(it, f"isspace({s})").tolist() == [[0, 0, 1, 0, 0, 0, 0]]
    assert ev(it, f"isletter({s})").tolist() == [[1, 0, 0, 1, 0, 0, 1]]
    assert ev(it, f"isstrprop({s}, 'digit')").tolist() == [[0, 1, 0, 0, 1, 0, 0]]
    assert ev(it, f"isstrprop({s}, 'upper')").tolist() == [[0, 0, 0, 1, 0, 0, 0]]
    assert ev(it, "isstrprop('a1 B.', 'alphanum')").tolist() == [[1, 1, 0, 1, 0]]
    assert ev(it, "isstrprop('a1 B.', 'punct')").tolist() == [[0, 0, 0, 0, 1]]
    assert ev(it, "isstrprop('a1 F.g', 'xdigit')").tolist() == [[1, 1, 0, 1, 0, 0]]
    assert ev(it, "isstrprop(sprintf('a\\tb'), 'cntrl')").tolist() == [[0, 1, 0]]
    assert ev(it, "isletter(5)") is False
    assert ev(it, "isspace([1 2])").tolist() == [[False, False]]
    c = raw(it, "isstrprop({'a1', 'b'}, 'alpha')")
    assert type(c) is Cell and c.data[0, 0].tolist() == [[True, False]]
    assert fails(it, "isstrprop('a', 'bogus')").identifier == "MATLAB:isstrprop:InvalidCategory"


# ------------------------------------------------------------ regexp


def test_regexp_default_outputs(it):
    it.eval("[s__, e__, te__, m__, t__, nm__, sp__] = regexp('ab12cd345', '(\\d)(\\d+)');")
    assert it.get("s__").tolist() == [[3, 7]]
    assert it.get("e__").tolist() == [[4, 9]]
    te = it.base.vars["te__"]
    assert te.data[0, 1].tolist() == [[7, 7], [8, 9]]
    assert it.get("m__") == ["12", "345"]
    assert it.get("t__") == [["1", "2"], ["3", "45"]]
    assert it.get("sp__") == ["ab", "cd", ""]
    assert type(it.base.vars["nm__"]) is Struct


def test_regexp_selected_outputs(it):
    assert ev(it, "regexp('a1b22c333', '\\d+', 'match')") == ["1", "22", "333"]
    assert ev(it, "regexp('one, two,three', ',\\s*', 'split')") == ["one", "two", "three"]
    first = raw(it, "regexp('x=12, y=5', '\\d+', 'match', 'once')")
    assert class_of(first) == "char" and char_text(first) == "12"
    assert ev(it, "regexp('hello world', 'o')").tolist() == [[5, 8]]
    it.eval("[tok__, mat__] = regexp('ab12cd', '([a-z]+)(\\d+)', 'tokens', 'match');")
    assert it.get("mat__") == ["ab12"] and it.get("tok__") == [["ab", "12"]]
    it.eval("[m__, s__] = regexp('aXbX', 'X', 'match');")  # the rest in default order
    assert it.get("m__") == ["X", "X"] and it.get("s__").tolist() == [[2, 4]]


def test_regexp_tokens(it):
    assert ev(it, "regexp('key=value', '(\\w+)=(\\w+)', 'tokens')") == [["key", "value"]]
    once = raw(it, "regexp('x=5', '(\\w)=(\\d)', 'tokens', 'once')")
    assert type(once) is Cell and once.shape == (1, 2)
    assert ev(it, "isempty(regexp('no match here', '(\\d+)', 'tokens'))") is True
    # without groups the whole match is the token; an unmatched group is empty
    assert ev(it, "regexp('abc', 'b', 'tokens')") == [["b"]]
    unmatched = raw(it, "regexp('abc', '(x)?b', 'tokens')").data[0, 0]
    assert unmatched.shape == (1, 1) and unmatched.data[0, 0].size == 0


def test_regexp_names(it):
    d = raw(it, "regexp('2024-03-15', '(?<year>\\d+)-(?<month>\\d+)-(?<day>\\d+)', 'names')")
    assert type(d) is Struct and d.fields == ["year", "month", "day"] and d.shape == (1, 1)
    assert ev(it, "getfield(regexp('2024-03-15', '(?<y>\\d+)-(?<m>\\d+)', 'names'), 'm')") == "03"
    many = raw(it, "regexp('k1=v1;k2=v2', '(?<key>\\w+)=(?<val>\\w+)', 'names')")
    assert many.shape == (1, 2)
    assert char_text(many.element(1)["val"]) == "v2"
    none = raw(it, "regexp('zz', '(?<d>\\d)', 'names')")
    assert none.shape == (0, 0) and none.fields == ["d"]


def test_regexp_empty_results(it):
    assert size_of(raw(it, "regexp('abc', 'z')")) == (1, 0)
    assert size_of(raw(it, "regexp('abc', 'z', 'match')")) == (1, 0)
    assert size_of(raw(it, "regexp('abc', 'z', 'once')")) == (0, 0)
    assert size_of(raw(it, "regexp('abc', 'z', 'match', 'once')")) == (0, 0)
    assert ev(it, "regexp('abc', 'z', 'split')") == ["abc"]
    # zero-length matches are skipped unless asked for
    assert size_of(raw(it, "regexp('abc', 'x*', 'match')")) == (1, 0)
    assert ev(it, "regexp('ab', 'x*', 'start', 'emptymatch')").tolist() == [[1, 2, 3]]


def test_regexp_options_and_syntax(it):
    assert ev(it, "regexp('aBc', 'b', 'match', 'ignorecase')") == ["B"]
    assert ev(it, "regexpi('aBc', 'b', 'match')") == ["B"]
    assert ev(it, "regexpi('aBc', 'b', 'match', 'matchcase')") == []
    assert ev(it, "numel(regexp(sprintf('a\\nb'), '.', 'match'))") == 3
    assert ev(it, "numel(regexp(sprintf('a\\nb'), '.', 'match', 'dotexceptnewline'))") == 2
    assert ev(it, "numel(regexp(sprintf('a\\nb'), '^b', 'match'))") == 0
    assert ev(it, "numel(regexp(sprintf('a\\nb'), '^b', 'match', 'lineanchors'))") == 1
    assert ev(it, "numel(regexp(sprintf('a\\n'), 'a$', 'match'))") == 0
    assert ev(it, "regexp('hello world', '\\<w')") == 7
    assert ev(it, "regexp('hello world', 'o\\>')") == 5
    assert ev(it, "regexp('a]b', '[]]')") == 2
    assert ev(it, "regexp('a[b', '[[]')") == 2
    assert ev(it, "regexp('xAy', '\\x41')") == 2
    assert ev(it, "regexp('xAy', '\\o101')") == 2
    assert ev(it, "regexp('abab', '(?<p>ab)\\k<p>', 'match')") == ["abab"]
    assert ev(it, "regexp('a b', 'a b', 'match', 'freespacing')") == []
    assert fails(it, "regexp('a', '(', 'match')").identifier == "MATLAB:regexp:InvalidPattern"
    assert fails(it, "regexp('a', 'a', 'bogus')").identifier == "MATLAB:regexp:UnknownOption"


def test_regexp_cell_and_string_inputs(it):
    x = raw(it, "regexp({'a1', 'b22'}, '\\d+', 'match')")
    assert type(x) is Cell and x.shape == (1, 2)
    assert char_text(x.data[0, 1].data[0, 0]) == "22"
    y = raw(it, "regexp('a1b2', {'a', 'b'})")
    assert type(y) is Cell and y.data[0, 1] == 3
    m = raw(it, 'regexp("a1b2", "\\d", "match")')
    assert type(m) is StringArray and m.data.tolist() == [["1", "2"]]


# ------------------------------------------------------------ regexprep


@pytest.mark.parametrize("expr, expected", [
    ("regexprep('hello world', 'o', '0')", "hell0 w0rld"),
    ("regexprep('John Smith', '(\\w+) (\\w+)', '$2, $1')", "Smith, John"),
    ("regexprep('a1b2c3', '\\d', '')", "abc"),
    ("regexprep('Hello HELLO hello', 'hello', 'bye', 'ignorecase')", "bye bye bye"),
    ("regexprep('aaa', 'a', 'b', 'once')", "baa"),
    ("regexprep('aaa', 'a', 'b', 2)", "aba"),
    ("regexprep('  many   spaces  ', '\\s+', ' ')", " many spaces "),
    ("regexprep('abc', '(.)', '<$1>')", "<a><b><c>"),
    ("regexprep('aa bb', '(\\w)\\1', '<$0>')", "<aa> <bb>"),
    ("regexprep('abc', 'x*', '-')", "abc"),
    ("regexprep('abc', 'x*', '-', 'emptymatch')", "-a-b-c-"),
    ("regexprep('abc', {'a', 'b'}, {'1', '2'})", "12c"),
    ("regexprep('a.b', '\\.', '\\n')", "a\nb"),
    ("regexprep('cost', 'cost', '\\$5')", "$5"),
    ("regexprep('ab', '(?<x>a)', '[$<x>]')", "[a]b"),
    ("regexprep('abc', '(\\w)', '${upper($1)}')", "ABC"),
    ("regexprep('Hello', 'hello', 'world', 'preservecase')", "World"),
])
def test_regexprep(it, expr, expected):
    assert ev(it, expr) == expected


def test_regexprep_arrays(it):
    assert ev(it, "regexprep({'ab', 'cb'}, 'b', 'X')") == ["aX", "cX"]
    s = raw(it, 'regexprep("abc", "b", "X")')
    assert type(s) is StringArray and s.scalar_text() == "aXc"
    assert size_of(raw(it, "regexprep('a', 'a', '')")) == (1, 0)


@given(quoted)
@settings(max_examples=40, deadline=None)
def test_regexprep_of_a_literal_matches_python(text):
    it = _shared()
    assert ev(it, f"regexprep({lit(text)}, ',', ';')") == text.replace(",", ";")
    expected = text if "a" not in text else text.replace("a", "A", 1)
    assert ev(it, f"regexprep({lit(text)}, 'a', 'A', 'once')") == expected


def test_regexp_translation_is_not_confused_by_escapes(it):
    # \$ stays a literal dollar; $ alone is the end of the text
    assert ev(it, "regexp('a$b', '\\$', 'start')") == 2
    assert ev(it, "regexp('ab', 'b$', 'start')") == 2
    assert ev(it, "regexp('ab', '(?<=a)b', 'start')") == 2
    assert ev(it, "regexp('ab', '(?<!a)b', 'start')").size == 0


def test_num2str_format_rows_and_int2str_of_large_values(it):
    assert rows(raw(it, "num2str([1 2 3], '%d\\n')")) == ["1", "2", "3"]
    assert rows(raw(it, "num2str([1 2; 3 4], '%d ')")) == ["1 2", "3 4"]
    assert ev(it, "int2str(1e20)") == "100000000000000000000"
    assert ev(it, "int2str([Inf -Inf NaN])") == "Inf -Inf  NaN"
