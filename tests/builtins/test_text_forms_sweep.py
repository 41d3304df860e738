"""Documented forms of the text functions: bin2dec/hex2dec with literal prefixes and
suffixes, join with a dimension and delimiter arrays, split with a dimension and its
matches, str2num with Evaluation="restricted", and the forms already right (checked
against MATLAB's documented examples or GNU Octave)."""

import math

import numpy as np

from mlang.values.cell import Cell
from mlang.values.core import char_rows, to_str
from mlang.values.string import StringArray


def texts(v) -> list:
    """Column-major texts of a cell or string array."""
    if type(v) is Cell:
        return [to_str(x) for x in v.data.ravel(order="F")]
    assert type(v) is StringArray
    return list(v.data.ravel(order="F"))


# ------------------------------------------------------------------ bin2dec, hex2dec


def test_bin2dec_prefix_and_signed_suffix(m):
    # MATLAB: bin2dec('111'), bin2dec('0b111') and bin2dec('0b111s32') all return 7;
    # bin2dec('0b11111111s8') returns -1 (two's complement of the s8 suffix)
    for text in ("'111'", "'0b111'", "'0b111s32'"):
        assert m.value(f"x = bin2dec({text});") == 7.0
    assert m.value("x = bin2dec('0b11111111s8');") == -1.0
    assert m.value("x = bin2dec('0B11111111u8');") == 255.0
    assert m.value("x = bin2dec('10000000s8');") == -128.0


def test_hex2dec_suffixes(m):
    assert m.value("x = hex2dec('FFs8');") == -1.0
    assert m.value("x = hex2dec('0xFFu8');") == 255.0
    assert m.value("x = hex2dec('0x8000s16');") == -32768.0
    assert m.value("x = hex2dec('7FFFs16');") == 32767.0


def test_base_suffix_too_wide_is_refused(m):
    assert m.fails("bin2dec('111111111s8')").exc.identifier == "MATLAB:bin2dec:IllegalInput"
    assert m.fails("bin2dec('1012')").exc.identifier == "MATLAB:bin2dec:IllegalInput"


def test_bin2dec_string_array_keeps_its_shape(m):
    # the documented example: a 1-by-3 string array gives a 1-by-3 row
    x = m.value('x = bin2dec(["1111111111" "1111010" "1110"]);')
    assert x.shape == (1, 3) and x.tolist() == [[1023, 122, 14]]
    x = m.value("x = bin2dec(['101';'111']);")
    assert x.shape == (2, 1) and x.ravel().tolist() == [5, 7]
    x = m.value("x = hex2dec({'ff','10'});")
    assert x.shape == (2, 1) and x.ravel().tolist() == [255, 16]


def test_dec2bin_two_complement_and_min_digits(m):
    assert char_rows(m.value("x = dec2bin(-5);")) == ["11111011"]
    assert char_rows(m.value("x = dec2bin(23, 8);")) == ["00010111"]
    assert char_rows(m.value("x = dec2bin(23, 1);")) == ["10111"]
    assert char_rows(m.value("x = dec2bin([1023 122 14]);")) == ["1111111111", "0001111010",
                                                                 "0000001110"]
    assert char_rows(m.value("x = dec2hex(int16(-1));")) == ["FFFF"]


# ---------------------------------------------------------------------------- join


def test_join_with_dimension_only(m):
    x = m.value('x = join(["a" "b"; "c" "d"], 1);')
    assert x.shape == (1, 2) and texts(x) == ["a c", "b d"]
    x = m.value('x = join(["a" "b"; "c" "d"], 2);')
    assert x.shape == (2, 1) and texts(x) == ["a b", "c d"]


def test_join_delimiter_and_dimension(m):
    x = m.value('x = join(["a" "b"; "c" "d"], ", ", 1);')
    assert texts(x) == ["a, c", "b, d"]
    x = m.value("x = join({'x','y'}, '+');")
    assert type(x) is Cell and texts(x) == ["x+y"]


def test_join_delimiter_arrays(m):
    # one delimiter per gap, and per row for a matrix
    assert texts(m.value('x = join(["a" "b" "c"], ["1" "2"]);')) == ["a1b2c"]
    x = m.value('x = join(["a" "b" "c"; "d" "e" "f"], ["1" "2"; "3" "4"]);')
    assert x.shape == (2, 1) and texts(x) == ["a1b2c", "d3e4f"]
    err = m.fails('join(["a" "b" "c"], ["1" "2" "3"])')
    assert err.exc.identifier == "MATLAB:join:WrongNumberOfDelimiterElements"


# --------------------------------------------------------------------------- split


def test_split_along_a_dimension(m):
    x = m.value('x = split(["a b" "c d"], " ", 1);')
    assert x.shape == (2, 2) and texts(x) == ["a", "b", "c", "d"]
    x = m.value('x = split(["a b c"; "d e f"], " ", 2);')
    assert x.shape == (2, 3) and texts(x) == ["a", "d", "b", "e", "c", "f"]
    x = m.value('x = split(["a,b";"c,d"], ",");')
    assert x.shape == (2, 2) and texts(x) == ["a", "c", "b", "d"]


def test_split_returns_the_matches(m):
    x, match = m.values('[x, y] = split("a1b2c", ["1" "2"]);', "x", "y")
    assert x.shape == (3, 1) and texts(x) == ["a", "b", "c"]
    assert match.shape == (2, 1) and texts(match) == ["1", "2"]
    x, match = m.values("[x, y] = split('a--b-c', '-', 'CollapseDelimiters', false);", "x", "y")
    assert texts(x) == ["a", "", "b", "c"] and texts(match) == ["-", "-", "-"]


def test_split_dimension_must_be_singleton(m):
    err = m.fails('split(["a b"; "c d"], " ", 1)')
    assert err.exc.identifier == "MATLAB:split:InvalidDimension"


def test_strsplit_forms(m):
    assert texts(m.value("x = strsplit('a,b,,c', ',');")) == ["a", "b", "c"]
    assert texts(m.value("x = strsplit('a,b,,c', ',', 'CollapseDelimiters', false);")) == [
        "a", "b", "", "c"]
    assert texts(m.value("x = strsplit('a1b22c', {'1','22'});")) == ["a", "b", "c"]


# ------------------------------------------------------------------------- str2num


def test_str2num_restricted_evaluation(m):
    # MATLAB's documented examples: basic math is accepted, other code gives []
    x, tf = m.values("[x, tf] = str2num('200+2i', 'Evaluation', 'restricted');", "x", "tf")
    assert x == 200 + 2j and tf is True
    x = m.value('x = str2num("exp(2)", Evaluation="restricted");')
    assert math.isclose(x, math.exp(2))
    x, tf = m.values("[x, tf] = str2num('datetime', 'Evaluation', 'restricted');", "x", "tf")
    assert np.asarray(x).size == 0 and tf is False
    x, tf = m.values("[x, tf] = str2num('y = 5', 'Evaluation', 'restricted');", "x", "tf")
    assert np.asarray(x).size == 0 and tf is False
    x = m.value("x = str2num('12e-3 5.9e-3; 5 11.2', 'Evaluation', 'restricted');")
    assert np.allclose(x, [[0.012, 0.0059], [5, 11.2]])


def test_str2num_default_evaluation_and_status(m):
    x, tf = m.values("[x, tf] = str2num('12e-3 m/s, 5.9e-3 m/s');", "x", "tf")
    assert np.asarray(x).size == 0 and tf is False
    x = m.value("x = str2num('false true true false');")
    assert x.dtype == np.bool_ and x.tolist() == [[False, True, True, False]]
    err = m.fails("str2num('1', 'Evaluation', 'some')")
    assert err.exc.identifier == "MATLAB:str2num:InvalidEvaluation"


def test_str2double_cells_and_strings(m):
    x = m.value("x = str2double({'1.5','abc';'2e3','-inf'});")
    assert x.shape == (2, 2)
    assert x[0, 0] == 1.5 and math.isnan(x[0, 1]) and x[1, 0] == 2000 and x[1, 1] == -math.inf
    x = m.value('x = str2double(["1,200.5" "3 - 4i"]);')
    assert x.shape == (1, 2) and x[0, 0] == 1200.5 and x[0, 1] == 3 - 4j


# --------------------------------------------------------------- search and case


def test_contains_family_ignore_case_and_pattern_arrays(m):
    x = m.value('x = contains(["abc" "ABD" "xyz"], ["b" "y"], "IgnoreCase", true);')
    assert x.tolist() == [[True, True, True]]
    assert m.value("x = startsWith('Hello', {'he','x'}, 'IgnoreCase', true);") is True
    x = m.value('x = endsWith(["a.m" "b.M"], ".m");')
    assert x.tolist() == [[True, False]]
    err = m.fails("contains('abc', 'a', 'IgnoreCase')")
    assert err.exc.identifier == "MATLAB:InputParser:ParamMissingValue"


def test_upper_lower_on_cells_and_strings(m):
    assert texts(m.value("x = upper({'ab','cD'});")) == ["AB", "CD"]
    assert texts(m.value('x = lower(["AB" "Cd"]);')) == ["ab", "cd"]
    assert char_rows(m.value("x = lower(['AB';'CD']);")) == ["ab", "cd"]


def test_num2str_matrix_columns_and_precision(m):
    # columns two blanks apart at the widest, common leading blanks removed
    assert char_rows(m.value("x = num2str([1 2 3]);")) == ["1  2  3"]
    assert char_rows(m.value("x = num2str([10 200 -3]);")) == ["10  200   -3"]
    assert char_rows(m.value("x = num2str(pi, 8);")) == ["3.1415927"]
    # MATLAB's documented example (randn values after rng('default'))
    x = m.value("x = num2str([0.5377 -2.2588; 1.8339 0.8622], 3);")
    assert char_rows(x) == ["0.538     -2.26", " 1.83     0.862"]
    assert char_rows(m.value("x = num2str(eps);")) == ["2.2204e-16"]
    assert char_rows(m.value("x = num2str([pi; exp(1)], 4);")) == ["3.142", "2.718"]
    assert char_rows(m.value("x = num2str(pi, '%10.5f');")) == ["3.14159"]


def test_mat2str_precision_and_class(m):
    assert char_rows(m.value("x = mat2str([0.1 pi; 2 3], 3);")) == ["[0.1 3.14;2 3]"]
    assert char_rows(m.value("x = mat2str(int8([1 -2]), 'class');")) == ["int8([1 -2])"]
    assert char_rows(m.value("x = mat2str(single(pi), 'class');")) == ["single(3.141593)"]
    assert char_rows(m.value("x = int2str([1.2 -3.5; 10 2]);")) == [" 1  -4", "10   2"]
