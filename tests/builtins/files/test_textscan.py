"""textscan on text and on open files."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlang.values.cell import Cell
from mlang.values.core import char_rows, char_text


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch, m):
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    m.run("fclose('all');")


def cols(c: Cell) -> list:
    return list(c.data.ravel(order="F"))


def texts(c: Cell) -> list[str]:
    return [char_text(x) for x in c.data.ravel(order="F")]


def flat(a) -> list:
    return np.asarray(a).ravel(order="F").tolist()


def test_whitespace_separated_numbers(m):
    c = m.value("x = textscan(sprintf('1 2 3\\n4 5'), '%f %f');")
    a, b = cols(c)
    assert c.shape == (1, 2)
    assert a.shape == (3, 1) and flat(a) == [1.0, 3.0, 5.0]
    assert flat(b) == [2.0, 4.0]


def test_default_format_is_double(m):
    a, = cols(m.value("x = textscan('0.41 8.24 3.57');"))
    assert flat(a) == [0.41, 8.24, 3.57]


def test_classes_of_conversions(m):
    c = cols(m.value("x = textscan('Sally 12.34 45 1.23e10 Inf 5.1+3i', '%s%f32%d8%u%n%f');"))
    assert texts(c[0]) == ["Sally"]
    assert c[1].dtype == np.float32 and c[2].dtype == np.int8 and flat(c[2]) == [45]
    assert c[3].dtype == np.uint32 and flat(c[3]) == [4294967295]
    assert flat(c[4]) == [math.inf]
    assert flat(c[5]) == [complex(5.1, 3)]


def test_int64_exact(m):
    a, = cols(m.value("x = textscan('9007199254740993', '%d64');"))
    assert a.dtype == np.int64 and flat(a) == [9007199254740993]


def test_width_and_skip(m):
    a, = cols(m.value("x = textscan('0.41 8.24 3.57', '%3.1f %*1d');"))
    assert flat(a) == [0.4, 8.2, 3.5]


def test_literals_in_format(m):
    a, b = cols(m.value("x = textscan(sprintf('x=1;y=2\\nx=3;y=4'), 'x=%f;y=%f');"))
    assert flat(a) == [1.0, 3.0] and flat(b) == [2.0, 4.0]


def test_delimiter_and_empty_fields(m):
    c = cols(m.value("x = textscan(sprintf('a b,1,2\\nc,,4\\nd,5,'), '%s %f %d', 'Delimiter', ',');"))
    assert texts(c[0]) == ["a b", "c", "d"]
    assert flat(c[1])[0] == 1.0 and math.isnan(flat(c[1])[1]) and flat(c[1])[2] == 5.0
    assert c[2].dtype == np.int32 and flat(c[2]) == [2, 4, 0]


def test_empty_value_and_treat_as_empty(m):
    a, = cols(m.value("x = textscan('1,,NA,4', '%f', 'Delimiter', ',', 'EmptyValue', -1, "
                      "'TreatAsEmpty', 'NA');"))
    assert flat(a) == [1.0, -1.0, -1.0, 4.0]


def test_multiple_delims_as_one(m):
    a, = cols(m.value("x = textscan('1,,,2;3', '%f', 'Delimiter', {',', ';'}, 'MultipleDelimsAsOne', 1);"))
    assert flat(a) == [1.0, 2.0, 3.0]


def test_header_lines_and_comments(m):
    c = m.value("x = textscan(sprintf('name value\\n%% note\\n1 2\\n3 4 %% end'), '%f %f', "
                "'HeaderLines', 1, 'CommentStyle', '%');")
    assert [flat(v) for v in cols(c)] == [[1.0, 3.0], [2.0, 4.0]]
    c = m.value("x = textscan('1 /* 9 9 */ 2', '%f', 'CommentStyle', {'/*', '*/'});")
    assert flat(cols(c)[0]) == [1.0, 2.0]


def test_collect_output(m):
    c = m.value("x = textscan(sprintf('a 1 2 b c\\nd 3 4 e f'), '%s %f %f %s %s', 'CollectOutput', true);")
    parts = cols(c)
    assert c.shape == (1, 3)
    assert texts(parts[0]) == ["a", "d"]
    assert parts[1].tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert parts[2].shape == (2, 2) and texts(parts[2]) == ["b", "e", "c", "f"]


def test_quoted_and_scan_sets_and_chars(m):
    c = cols(m.value('x = textscan(\'"a, ""b""",12\', \'%q %f\', \'Delimiter\', \',\');'))
    assert texts(c[0]) == ['a, "b"'] and flat(c[1]) == [12.0]
    c = cols(m.value("x = textscan('ab12cd 34', '%[a-z]%d');"))
    assert texts(c[0]) == ["ab", "cd"] and flat(c[1]) == [12, 34]
    c = cols(m.value("x = textscan('key:val', '%[^:]:%s');"))
    assert texts(c[0]) == ["key"] and texts(c[1]) == ["val"]
    ch = cols(m.value("x = textscan('abc def', '%2c %*s');"))[0]
    assert ch.shape == (2, 2) and char_rows(ch) == ["ab", "de"]


def test_repeat_count_and_position(m):
    c, pos = m.values("[c, pos] = textscan('1 2 3 4 5', '%f', 2);", "c", "pos")
    assert flat(cols(c)[0]) == [1.0, 2.0] and pos == 3.0
    c = m.value("x = textscan('1 2 3', '%f', 0);")
    assert cols(c)[0].shape == (0, 1)
    c = m.value("x = textscan('1 2 3', '%f', -1);")
    assert flat(cols(c)[0]) == [1.0, 2.0, 3.0]


def test_stops_at_mismatch_with_message(m):
    c, pos, msg = m.values("[c, pos, msg] = textscan('1 2 x 4', '%f');", "c", "pos", "msg")
    assert flat(cols(c)[0]) == [1.0, 2.0]
    assert pos == 4.0
    assert "Trouble reading 'Numeric' field" in char_text(msg)


def test_return_on_error_false(m):
    exc = m.fails("textscan(sprintf('1 2\\n3 x'), '%f %f', 'ReturnOnError', false)")
    assert exc.identifier == "MATLAB:textscan:handleErrorAndShowInfo"
    assert exc.exc.message.startswith("Mismatch between file and format character vector.\n"
                                      "Trouble reading 'Numeric' field from file (row number 2, "
                                      "field number 2) ==> x")


def test_end_of_line_and_whitespace_options(m):
    c = cols(m.value("x = textscan('1;2|3;4', '%f %f', 'Delimiter', ';', 'EndOfLine', '|');"))
    assert flat(c[0]) == [1.0, 3.0] and flat(c[1]) == [2.0, 4.0]
    c = cols(m.value("x = textscan('a_b c', '%s', 'Whitespace', '_');"))
    assert texts(c[0]) == ["a", "b c"]


def test_reads_from_file_position_and_resumes(m, in_tmp):
    (in_tmp / "d.txt").write_text("head\n1,2\n3,4\n5,6\n")
    a, b, p, t = m.values("""fid = fopen('d.txt'); h = fgetl(fid);
a = textscan(fid, '%f %f', 1, 'Delimiter', ','); p = ftell(fid);
b = textscan(fid, '%f %f', 'Delimiter', ','); t = feof(fid);""", "a", "b", "p", "t")
    assert [flat(v) for v in cols(a)] == [[1.0], [2.0]]
    assert p == 8.0
    assert [flat(v) for v in cols(b)] == [[3.0, 5.0], [4.0, 6.0]]
    assert t == 1.0


def test_file_header_lines(m, in_tmp):
    (in_tmp / "h.txt").write_text("x y\n1 2\n")
    c, pos = m.values("fid = fopen('h.txt'); [c, pos] = textscan(fid, '%f %f', 'HeaderLines', 1);",
                      "c", "pos")
    assert [flat(v) for v in cols(c)] == [[1.0], [2.0]] and pos == 8.0


def test_empty_input_gives_empty_columns(m):
    c = cols(m.value("x = textscan('', '%f %s');"))
    assert c[0].shape == (0, 1) and c[1].shape == (0, 1)


def test_errors(m):
    assert m.fails("textscan('1', '%Q')").identifier == "MATLAB:textscan:BadFormatString"
    assert m.fails("textscan(99, '%f')").identifier == "MATLAB:FileIO:InvalidFid"
    assert m.fails("textscan('1', '%f', 'Bogus', 1)").identifier == "MATLAB:textscan:UnknownOption"
