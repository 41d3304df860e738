"""readmatrix, readcell, writematrix, writecell, csvread, csvwrite, dlmread, dlmwrite and
importdata on delimited text files."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from mlang.builtins.data.missing_values import MissingArray
from mlang.errors import MatlabError
from mlang.values.cell import Cell
from mlang.values.core import char_text
from mlang.values.string import StringArray
from mlang.values.struct import Struct


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def same(a, b) -> bool:
    return np.array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float), equal_nan=True)


def plain(v):
    """A cell element as a Python value."""
    if type(v) is np.ndarray and v.dtype.kind == "V":
        return char_text(v)
    if type(v) is MissingArray:
        return "<missing>"
    return v


# ------------------------------------------------------------------ readmatrix


def test_readmatrix_skips_the_header_and_reads_text_as_nan(m, here):
    (here / "f.csv").write_text("a,b,c\n1,2,3\n4,x,\n")
    assert same(m.value("A = readmatrix('f.csv');", "A"), [[1, 2, 3], [4, math.nan, math.nan]])


def test_readmatrix_options(m, here):
    (here / "f.txt").write_text("t\n1;2\n3;4\n5;6\n")
    assert same(m.value("A = readmatrix('f.txt', 'NumHeaderLines', 2);", "A"), [[3, 4], [5, 6]])
    assert same(m.value("A = readmatrix('f.txt', 'Range', 'B2:B3');", "A"), [[2], [4]])
    assert same(m.value("A = readmatrix('f.txt', 'Range', [3 1]);", "A"), [[3, 4], [5, 6]])
    a = m.value("A = readmatrix('f.txt', 'OutputType', 'int16');", "A")
    assert a.dtype == np.int16 and a.tolist() == [[1, 2], [3, 4], [5, 6]]
    assert m.value("A = readmatrix('f.txt', 'OutputType', 'single');", "A").dtype == np.float32
    s = m.value("A = readmatrix('f.txt', 'OutputType', 'string', 'NumHeaderLines', 1);", "A")
    assert type(s) is StringArray and s.data.tolist() == [["1", "2"], ["3", "4"], ["5", "6"]]


def test_readmatrix_space_delimited_and_ragged(m, here):
    (here / "f.dat").write_text("1 2 3\n4 5\n")
    assert same(m.value("A = readmatrix('f.dat');", "A"), [[1, 2, 3], [4, 5, math.nan]])


def test_readmatrix_scalar_and_empty(m, here):
    (here / "one.csv").write_text("7\n")
    assert m.value("A = readmatrix('one.csv');", "A") == 7.0
    (here / "none.csv").write_text("")
    assert m.value("A = readmatrix('none.csv');", "A").shape == (0, 0)


def test_readmatrix_errors(m, here):
    assert m.fails("readmatrix('missing.csv')").exc.identifier == "MATLAB:textio:textio:FileNotFound"
    (here / "f.csv").write_text("1\n")
    assert m.fails("readmatrix('f.csv', 'OutputType', 'table')").exc.identifier == \
        "MATLAB:textio:io:InvalidOutputType"
    assert m.fails("readmatrix('f.csv', 'Range', 'nonsense')").exc.identifier == \
        "MATLAB:textio:io:InvalidRange"


# ------------------------------------------------------------------ readcell


def test_readcell_keeps_every_field(m, here):
    (here / "f.csv").write_text('name,n\n"a,b",1\nc,\n')
    c = m.value("C = readcell('f.csv');", "C")
    assert type(c) is Cell and c.shape == (3, 2)
    assert [[plain(x) for x in row] for row in c.data] == [["name", "n"], ["a,b", 1.0],
                                                            ["c", "<missing>"]]


def test_readcell_string_text(m, here):
    (here / "f.csv").write_text("x,1\n")
    c = m.value("C = readcell('f.csv', 'TextType', 'string');", "C")
    assert type(c.data[0, 0]) is StringArray and c.data[0, 0].scalar_text() == "x"


# ------------------------------------------------------------------ writers


def test_writematrix_long_g_numbers(m, here):
    m.run("writematrix([1 2.5; pi NaN; -Inf 1e-20], 'w.csv')")
    assert (here / "w.csv").read_text() == "1,2.5\n3.14159265358979,NaN\n-Inf,1e-20\n"


def test_writematrix_kinds(m, here):
    m.run("writematrix(single(pi), 's.csv'); writematrix(int8([1 -2]), 'i.csv');"
          "writematrix([true false], 'l.csv'); writematrix([\"a\" \"b,c\"], 'str.csv');"
          "writematrix(['ab';'cd'], 'ch.csv'); writematrix([1+2i 3-4i], 'z.csv')")
    assert (here / "s.csv").read_text() == "3.141593\n"
    assert (here / "i.csv").read_text() == "1,-2\n"
    assert (here / "l.csv").read_text() == "1,0\n"
    assert (here / "str.csv").read_text() == 'a,"b,c"\n'
    assert (here / "ch.csv").read_text() == "ab\ncd\n"
    assert (here / "z.csv").read_text() == "1+2i,3-4i\n"


def test_writematrix_options(m, here):
    m.run("writematrix([1 2; 3 4], 'w.txt', 'Delimiter', 'tab');"
          "writematrix([5 6], 'w.txt', 'Delimiter', '\\t', 'WriteMode', 'append');"
          "writematrix(7, 'noext')")
    assert (here / "w.txt").read_text() == "1\t2\n3\t4\n5\t6\n"
    assert (here / "noext.txt").read_text() == "7\n"


def test_writematrix_errors(m, here):
    assert m.fails("writematrix({1}, 'w.csv')").exc.identifier == "MATLAB:writematrix:InvalidInputType"
    assert m.fails("writematrix(1, 'w.bad')").exc.identifier == "MATLAB:writematrix:UnrecognizedFileExtension"
    assert m.fails("writematrix(1, 'w.csv', 'Nope', 1)").exc.identifier == \
        "MATLAB:InputParser:UnmatchedParameter"
    assert not list(here.iterdir())


def test_writecell(m, here):
    m.run("writecell({1, 'a,b', \"s\"; true, [], missing}, 'c.csv')")
    assert (here / "c.csv").read_text() == '1,"a,b",s\n1,,\n'
    m.run("writecell({'x', 2.5}, 'c.txt', 'Delimiter', ' ', 'QuoteStrings', true)")
    assert (here / "c.txt").read_text() == '"x" 2.5\n'
    assert m.fails("writecell({{1}}, 'n.csv')").exc.identifier == "MATLAB:writecell:NestedCell"
    assert m.fails("writecell(5, 'n.csv')").exc.identifier == "MATLAB:writecell:InvalidInputType"


def test_writecell_readcell_round_trip(m, here):
    m.run("writecell({'name', 'v'; 'a', 1.5; 'b', -2}, 'r.csv')")
    c = m.value("C = readcell('r.csv');", "C")
    assert [[plain(x) for x in row] for row in c.data] == [["name", "v"], ["a", 1.5], ["b", -2.0]]


# ------------------------------------------------------------ csv and dlm


def test_csvwrite_and_csvread(m, here):
    m.run("csvwrite('c.csv', [1.23456789 2; 3 4])")
    assert (here / "c.csv").read_text() == "1.2346,2\n3,4\n"
    assert same(m.value("M = csvread('c.csv');", "M"), [[1.2346, 2], [3, 4]])
    assert same(m.value("M = csvread('c.csv', 1, 0);", "M"), [[3, 4]])
    assert same(m.value("M = csvread('c.csv', 0, 0, [0 1 1 1]);", "M"), [[2], [4]])
    m.run("csvwrite('o.csv', [1 2], 1, 2)")
    assert (here / "o.csv").read_text() == ",,,\n,,1,2\n"


def test_csvread_empty_fields_are_zero(m, here):
    (here / "e.csv").write_text("1,,3\n4,5\n")
    assert same(m.value("M = csvread('e.csv');", "M"), [[1, 0, 3], [4, 5, 0]])


def test_dlmwrite_forms(m, here):
    m.run("dlmwrite('d.txt', magic(3)*pi, 'delimiter', '\\t', 'precision', 3)")
    assert (here / "d.txt").read_text() == "25.1\t3.14\t18.8\n9.42\t15.7\t22\n12.6\t28.3\t6.28\n"
    m.run("dlmwrite('e.txt', [1 2]); dlmwrite('e.txt', [3 4], '-append');"
          "dlmwrite('e.txt', [5 6], '-append', 'precision', '%.2f', 'newline', 'pc')")
    assert (here / "e.txt").read_bytes() == b"1,2\n3,4\n5.00,6.00\r\n"
    m.run("dlmwrite('f.txt', [1 2], ';', 1, 1)")
    assert (here / "f.txt").read_text() == ";;\n;1;2\n"
    m.run("dlmwrite('g.txt', [123456 0.5])")
    assert (here / "g.txt").read_text() == "1.2346e+05,0.5\n"
    m.run("dlmwrite('h.txt', int32([123456 7]))")
    assert (here / "h.txt").read_text() == "123456,7\n"


def test_dlmread_forms(m, here):
    (here / "d.txt").write_text("1\t2\t3\n4\t5\t6\n7\t8\t9\n")
    assert same(m.value("M = dlmread('d.txt');", "M"), [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    assert same(m.value("M = dlmread('d.txt', '\\t', 1, 1);", "M"), [[5, 6], [8, 9]])
    assert same(m.value("M = dlmread('d.txt', '\\t', [0 0 1 1]);", "M"), [[1, 2], [4, 5]])
    assert same(m.value("M = dlmread('d.txt', '\\t', 'B2..C3');", "M"), [[5, 6], [8, 9]])
    (here / "z.txt").write_text("1+2i,3\n")
    z = m.value("M = dlmread('z.txt');", "M")
    assert z.tolist() == [[1 + 2j, 3 + 0j]]


def test_dlmread_and_csvread_errors(m, here):
    assert m.fails("dlmread('nope.txt')").exc.identifier == "MATLAB:dlmread:FileNotOpened"
    assert m.fails("csvread('nope.csv')").exc.identifier == "MATLAB:csvread:FileNotFound"
    (here / "h.csv").write_text("a,b\n1,2\n")
    err = m.fails("csvread('h.csv')")
    assert err.exc.identifier == "MATLAB:textscan:handleErrorAndShowInfo"
    assert "(row number 1, field number 1) ==> a" in err.exc.message
    assert same(m.value("M = csvread('h.csv', 1, 0);", "M"), [[1, 2]])
    assert m.fails("dlmwrite('x.txt', {1})").exc.identifier == "MATLAB:dlmwrite:InputNotNumeric"
    assert m.fails("dlmwrite('x.txt', 1, 'precision', 4, 'bogus', 2)").exc.identifier == "MATLAB:dlmwrite:UnrecognizedOption"
    assert m.fails("csvread('h.csv', -1, 0)").exc.identifier == "MATLAB:dlmread:InvalidOffset"


# ------------------------------------------------------------------ importdata


def test_importdata_numbers_only(m, here):
    (here / "n.txt").write_text("1 2 3\n4 5 6\n")
    a, d, h = m.values("[A, d, h] = importdata('n.txt');", "A", "d", "h")
    assert same(a, [[1, 2, 3], [4, 5, 6]])
    assert char_text(d) == " " and h == 0.0


def test_importdata_column_headers(m, here):
    (here / "h.csv").write_text("Day1,Day2\n95.01,76.21\n23.11,45.65\n")
    a, d, h = m.values("[A, d, h] = importdata('h.csv');", "A", "d", "h")
    assert type(a) is Struct and a.fields == ["data", "textdata", "colheaders"]
    fields = a.element()
    assert same(fields["data"], [[95.01, 76.21], [23.11, 45.65]])
    assert [plain(x) for x in fields["colheaders"].data[0]] == ["Day1", "Day2"]
    assert [plain(x) for x in fields["textdata"].data[0]] == ["Day1", "Day2"]
    assert char_text(d) == "," and h == 1.0


def test_importdata_title_lines_and_row_headers(m, here):
    (here / "t.txt").write_text("My title\nname\tx\ty\na\t1\t2\nb\t3\t4\n")
    a = m.value("A = importdata('t.txt');", "A")
    fields = a.element()
    assert same(fields["data"], [[1, 2], [3, 4]])
    assert [[plain(x) for x in row] for row in fields["textdata"].data] == [
        ["My title", "", ""], ["name", "x", "y"], ["a", "", ""], ["b", "", ""]]
    assert [plain(x) for x in fields["rowheaders"].data[:, 0]] == ["a", "b"]
    assert [plain(x) for x in fields["colheaders"].data[0]] == ["x", "y"]


def test_importdata_with_delimiter_and_header_count(m, here):
    (here / "p.txt").write_text("skip me\n1;2\n3;4\n")
    a = m.value("A = importdata('p.txt', ';', 1);", "A")
    assert same(a.element()["data"], [[1, 2], [3, 4]])


def test_importdata_text_only_gives_lines(m, here):
    (here / "w.txt").write_text("hello world\n\nsecond line\n")
    a = m.value("A = importdata('w.txt');", "A")
    assert type(a) is Cell and [plain(x) for x in a.data[:, 0]] == ["hello world", "second line"]


def test_importdata_missing_file(m, here):
    err = m.fails("importdata('none.txt')")
    assert err.exc.identifier == "MATLAB:importdata:FileNotFound"


def test_append_to_a_read_only_file_fails_cleanly(m, here):
    if os.geteuid() == 0:
        pytest.skip("root ignores file permissions")
    (here / "ro").mkdir()
    (here / "ro" / "a.csv").write_text("1\n")
    os.chmod(here / "ro", 0o500)
    try:
        with pytest.raises(MatlabError) as info:
            m.run("writematrix(2, 'ro/a.csv', 'WriteMode', 'append')")
        assert info.value.exc.identifier == "MATLAB:writematrix:FileOpenError"
        assert (here / "ro" / "a.csv").read_text() == "1\n"
    finally:
        os.chmod(here / "ro", 0o700)


def test_display_of_what_was_read(m, here):
    (here / "h.csv").write_text("Day1,Day2\n95.01,76.21\n23.11,45.65\n")
    assert m.run("A = importdata('h.csv')") == (
        "\nA = \n\n  struct with fields:\n\n"
        "          data: [2×2 double]\n"
        "      textdata: {'Day1'  'Day2'}\n"
        "    colheaders: {'Day1'  'Day2'}\n\n")
    assert m.run("C = readcell('h.csv')") == (
        "\nC =\n\n  3×2 cell array\n\n"
        "    {'Day1'   }    {'Day2'   }\n"
        "    {[95.0100]}    {[76.2100]}\n"
        "    {[23.1100]}    {[45.6500]}\n\n")
    assert m.run("M = readmatrix('h.csv')") == (
        "\nM =\n\n   95.0100   76.2100\n   23.1100   45.6500\n\n")


def test_importdata_hands_mat_files_and_images_on(m, here):
    if "load" not in m.interp.builtins or "imwrite" not in m.interp.builtins:
        pytest.skip("load or imwrite not available")
    a = m.value("x = 5; y = [1 2]; save('v.mat', 'x', 'y'); A = importdata('v.mat');", "A")
    assert type(a) is Struct and a.element()["x"] == 5.0
    b = m.value("imwrite(uint8(magic(4)), 'p.png'); B = importdata('p.png');", "B")
    assert b.dtype == np.uint8 and b.tolist()[0] == [16, 2, 3, 13]


def test_readmatrix_and_readcell_detect_as_readtable_does(m, here):
    (here / "f.csv").write_text("Report\n\nx,y\n1,NA\n3,4\n")
    assert same(m.value("A = readmatrix('f.csv');", "A"), [[1, math.nan], [3, 4]])
    c = m.value("C = readcell('f.csv', 'TreatAsMissing', 'NA');", "C")
    assert [[plain(x) for x in row] for row in c.data] == [
        ["Report", "<missing>"], ["x", "y"], [1.0, "<missing>"], [3.0, 4.0]]
    a = m.value("A = readmatrix('f.csv', 'OutputType', 'string', 'NumHeaderLines', 2);", "A")
    assert a.data.tolist() == [["x", "y"], ["1", "NA"], ["3", "4"]]
    (here / "g.csv").write_text("a;b\n# note\n1;2\n")
    assert same(m.value("A = readmatrix('g.csv', 'CommentStyle', '#', 'Delimiter', ';');", "A"), [[1, 2]])
