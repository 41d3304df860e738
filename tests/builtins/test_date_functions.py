"""datenum, datestr, datevec, now, clock, date, etime and weekday (numbers checked
against GNU Octave)."""

from __future__ import annotations

import time

import pytest


def chars(a) -> str:
    return a.tobytes().decode("utf-16-le")


def rows(a) -> list[str]:
    return ["".join(chr(c) for c in row) for row in a.view("uint16").tolist()]


def test_datenum_forms(m):
    assert m.value("x = datenum(2024,3,5);") == 739316.0
    assert m.value("x = datenum(2024,3,5,12,0,0);") == 739316.5
    assert m.value("x = datenum([2024 3 5 12 0 0]);") == 739316.5
    assert m.value("x = datenum(2024,14,31);") == 739679.0  # months and days carry over
    assert m.value("x = datenum(1970,1,1);") == 719529.0
    x = m.value("x = datenum([2024 3 5; 2024 3 6]);")
    assert x.tolist() == [[739316.0], [739317.0]]
    assert m.value("x = datenum(2024,1,[1 2]);").tolist() == [[739252.0, 739253.0]]


def test_datenum_text(m):
    assert m.value("x = datenum('2024-03-05 06:00:00', 'yyyy-mm-dd HH:MM:SS');") == 739316.25
    assert m.value("x = datenum('05-Mar-2024');") == 739316.0
    assert m.value("x = datenum('03/05/2024', 'mm/dd/yyyy');") == 739316.0
    assert m.value("x = datenum({'2024-03-05', '2024-03-06'});").tolist() == [[739316.0, 739317.0]]
    assert m.fails("x = datenum('2024-03-05', 'dd/mm/yyyy');").identifier == "MATLAB:datetime:ParseErr"


def test_datenum_of_datetime_and_numbers(m):
    assert m.value("x = datenum(datetime(2024,3,5,18,0,0));") == 739316.75
    assert m.value("x = datenum(739316.5);") == 739316.5


@pytest.mark.parametrize(("code", "text"), [
    ("datestr(739316)", "05-Mar-2024"),
    ("datestr(739316.5)", "05-Mar-2024 12:00:00"),
    ("datestr(0.25, 'HH:MM:SS.FFF')", "06:00:00.000"),
    ("datestr(739316.65, 16)", " 3:36 PM"),
    ("datestr(739316.65, 14)", " 3:36:00 PM"),
    ("datestr(739316, 'dddd mmmm d yy')", "Tuesday March T 24"),
    ("datestr(739316.5, 31)", "2024-03-05 12:00:00"),
    ("datestr(739316.5, 30)", "20240305T120000"),
    ("datestr(739316.5, 21)", "Mar.05,2024 12:00:00"),
    ("datestr(739316.5, 17)", "Q1-24"),
    ("datestr(739316.5, 'yyyy-mm-dd HH:MM:SS')", "2024-03-05 12:00:00"),
    ("datestr([2024 3 5 1 2 3])", "05-Mar-2024 01:02:03"),
    ("datestr(datetime(2024,3,5,1,2,3), 29)", "2024-03-05"),
    ("datestr('2024-03-05 10:00:00', 'dd.mm.yyyy HH:MM')", "05.03.2024 10:00"),
    ("datestr(739316 + 59.6/86400, 13)", "00:01:00"),
])
def test_datestr(m, code, text):
    assert chars(m.value(f"x = {code};")) == text


def test_datestr_rows(m):
    x = m.value("x = datestr([739316; 739317.5]);")
    assert rows(x) == ["05-Mar-2024 00:00:00", "06-Mar-2024 12:00:00"]


def test_datestr_bad_format_number(m):
    assert m.fails("x = datestr(1, 99);").identifier == "MATLAB:datestr:IndexOutOfRange"


def test_datevec(m):
    assert m.value("x = datevec(739316.75);").tolist() == [[2024.0, 3.0, 5.0, 18.0, 0.0, 0.0]]
    y, mo, d = m.values("[y, mo, d] = datevec('2024-03-05');", "y", "mo", "d")
    assert (y, mo, d) == (2024.0, 3.0, 5.0)
    x = m.value("x = datevec(datetime(2024,3,[5 6]));")
    assert x[:, 2].tolist() == [5.0, 6.0]
    x = m.value("x = datevec('10:30', 'HH:MM');")
    assert x[0, 3:].tolist() == [10.0, 30.0, 0.0]


def test_weekday(m):
    assert m.value("x = weekday(739316);") == 3.0
    n, s = m.values("[n, s] = weekday(739316, 'long');", "n", "s")
    assert n == 3.0 and chars(s) == "Tuesday"
    n, s = m.values("[n, s] = weekday(datetime(2024,3,[9 10]));", "n", "s")
    assert n.tolist() == [[7.0, 1.0]] and rows(s) == ["Sat", "Sun"]


def test_etime(m):
    assert m.value("x = etime([2024 3 5 0 0 0], [2024 3 4 23 59 0]);") == 60.0
    assert m.fails("x = etime([1 2 3], [1 2 3]);").identifier == "MATLAB:etime:InvalidInput"


def test_clock_now_date(m):
    before = time.localtime()
    c = m.value("x = clock;")
    assert c.shape == (1, 6) and c[0, 0] == before.tm_year
    n = m.value("x = now;")
    assert 739000 < n < 800000
    assert m.value("x = floor(now) == datenum(datetime('today'));") in (True, 1.0)
    d = chars(m.value("x = date;"))
    assert len(d) == 11 and d[2] == "-" and d[6] == "-"
