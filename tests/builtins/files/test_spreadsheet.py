"""Spreadsheets (.xlsx through openpyxl): readtable, readmatrix, readcell, importdata,
writetable, writematrix, writecell; sheets, ranges, write modes, and the errors (openpyxl
missing, a corrupt file, a missing sheet)."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.values.cell import Cell
from mlang.values.core import char_text
from mlang.values.table import Table

openpyxl = pytest.importorskip("openpyxl")


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def book(path, sheets: dict[str, list[list]]) -> None:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    wb.save(path)


def sheet_rows(path, sheet=None) -> list[list]:
    wb = openpyxl.load_workbook(path)
    ws = wb[sheet] if sheet else wb.worksheets[0]
    return [list(r) for r in ws.iter_rows(values_only=True)]


def texts(v) -> list[str]:
    return [char_text(x) for x in v.data[:, 0]]


def same(a, b) -> bool:
    return np.array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float), equal_nan=True)


def test_readtable_of_a_sheet(m, here):
    book(here / "b.xlsx", {"S1": [["Name", "Age"], ["Bob", 38], ["Al", None]], "S2": [["x"], [1.5]]})
    t = m.value("T = readtable('b.xlsx');", "T")
    assert type(t) is Table and t.names == ["Name", "Age"]
    assert texts(t.variables[0]) == ["Bob", "Al"]
    assert same(t.variables[1], [[38], [math.nan]])
    t2 = m.value("T = readtable('b.xlsx', 'Sheet', 'S2');", "T")
    assert t2.names == ["x"] and same(t2.variables[0], [[1.5]])
    t3 = m.value("T = readtable('b.xlsx', 'Sheet', 2);", "T")
    assert t3.names == ["x"]


def test_data_away_from_the_corner_and_ranges(m, here):
    book(here / "r.xlsx", {"S": [[], [None, "a", "b"], [None, 1, 2], [None, 3, 4]]})
    t = m.value("T = readtable('r.xlsx');", "T")
    assert t.names == ["a", "b"] and same(t.variables[1], [[2], [4]])
    assert same(m.value("A = readmatrix('r.xlsx');", "A"), [[1, 2], [3, 4]])
    assert same(m.value("A = readmatrix('r.xlsx', 'Range', 'C3:C4');", "A"), [[2], [4]])
    t = m.value("T = readtable('r.xlsx', 'Range', 'B2:B4');", "T")
    assert t.names == ["a"] and same(t.variables[0], [[1], [3]])


def test_readcell_of_a_sheet(m, here):
    book(here / "c.xlsx", {"S": [["t", 1], [True, None]]})
    c = m.value("C = readcell('c.xlsx');", "C")
    assert type(c) is Cell and char_text(c.data[0, 0]) == "t" and c.data[0, 1] == 1.0
    assert c.data[1, 0] == 1.0 and type(c.data[1, 1]).__name__ == "MissingArray"


def test_writetable_round_trip(m, here):
    (here / "in.csv").write_text("Name,Score\nBob,1.5\n\"A, B\",\n")
    m.run("T = readtable('in.csv'); writetable(T, 'o.xlsx', 'Sheet', 'Data');"
          "T2 = readtable('o.xlsx', 'Sheet', 'Data');")
    assert sheet_rows(here / "o.xlsx", "Data") == [["Name", "Score"], ["Bob", 1.5], ["A, B", None]]
    t = m.interp.base.vars["T2"]
    assert t.names == ["Name", "Score"] and texts(t.variables[0]) == ["Bob", "A, B"]


def test_write_modes(m, here):
    m.run("writematrix([1 2; 3 4], 'w.xlsx');")
    assert sheet_rows(here / "w.xlsx") == [[1, 2], [3, 4]]
    m.run("writematrix(9, 'w.xlsx');")  # in place: the other cells stay
    assert sheet_rows(here / "w.xlsx") == [[9, 2], [3, 4]]
    m.run("writematrix([5 6], 'w.xlsx', 'WriteMode', 'append');")
    assert sheet_rows(here / "w.xlsx") == [[9, 2], [3, 4], [5, 6]]
    m.run("writematrix(7, 'w.xlsx', 'WriteMode', 'overwritesheet');")
    assert sheet_rows(here / "w.xlsx") == [[7]]
    m.run("writematrix(8, 'w.xlsx', 'Sheet', 'Other'); writematrix(1, 'w.xlsx', 'Range', 'C2', "
          "'Sheet', 'Other')")
    assert sheet_rows(here / "w.xlsx", "Other") == [[8, None, None], [None, None, 1]]
    m.run("writematrix(3, 'w.xlsx', 'WriteMode', 'replacefile');")
    assert openpyxl.load_workbook(here / "w.xlsx").sheetnames == ["Sheet"]


def test_writecell_and_nan(m, here):
    m.run("writecell({'a', NaN; true, 2}, 'c.xlsx')")
    assert sheet_rows(here / "c.xlsx") == [["a", None], [1, 2]]


def test_importdata_of_a_sheet(m, here):
    book(here / "i.xlsx", {"S": [["x", "y"], [1, 2], [3, 4]]})
    a = m.value("A = importdata('i.xlsx');", "A")
    fields = a.element()
    assert same(fields["data"], [[1, 2], [3, 4]])
    assert [char_text(x) for x in fields["colheaders"].data[0]] == ["x", "y"]


def test_spreadsheet_errors(m, here):
    book(here / "b.xlsx", {"S": [[1]]})
    err = m.fails("readtable('b.xlsx', 'Sheet', 'Nope')")
    assert err.exc.identifier == "MATLAB:spreadsheet:book:openSheetName"
    assert m.fails("readtable('b.xlsx', 'Sheet', 5)").exc.identifier == \
        "MATLAB:spreadsheet:book:openSheetIndex"
    (here / "bad.xlsx").write_text("not a zip file")
    assert m.fails("readmatrix('bad.xlsx')").exc.identifier == "MATLAB:spreadsheet:book:fileOpen"
    (here / "old.xls").write_bytes(b"\xd0\xcf\x11\xe0")
    assert m.fails("readmatrix('old.xls')").exc.identifier == "MATLAB:spreadsheet:book:fileFormat"
    assert m.fails("readmatrix('none.xlsx')").exc.identifier == "MATLAB:textio:textio:FileNotFound"


def test_failed_spreadsheet_write_keeps_the_old_file(m, here, monkeypatch):
    m.run("writematrix(1, 'k.xlsx')")
    before = (here / "k.xlsx").read_bytes()

    def broken_save(self, filename):
        with open(filename, "wb") as f:
            f.write(b"half")
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(openpyxl.Workbook, "save", broken_save)
    with pytest.raises(MatlabError) as info:
        m.run("writematrix(2, 'k.xlsx')")
    assert info.value.exc.identifier == "MATLAB:spreadsheet:book:fileWrite"
    assert (here / "k.xlsx").read_bytes() == before
    assert sorted(p.name for p in here.iterdir()) == ["k.xlsx"]


def test_openpyxl_missing_names_the_extra(m, here, monkeypatch):
    book(here / "b.xlsx", {"S": [[1]]})
    monkeypatch.setitem(sys.modules, "openpyxl", None)  # import openpyxl now raises ImportError
    for code in ("readtable('b.xlsx')", "writematrix(1, 'n.xlsx')"):
        err = m.fails(code)
        assert err.exc.identifier == "MATLAB:spreadsheet:book:noExcelSupport"
        assert "pip install 'mlang[excel]'" in err.exc.message
    assert not (here / "n.xlsx").exists()


def test_mostly_numeric_sheet_column_reads_as_double(m, here):
    # MATLAB's documented example: text among mostly numbers is NaN, numbers among text are text
    book(here / "x.xlsx", {"S": [["COL_1", "COL_2"], ["TEXT_1", 2], ["TEXT_2", "TEXT"], [-1, 2]]})
    t, t2, types = m.values("T = readtable('x.xlsx'); o = detectImportOptions('x.xlsx'); "
                            "T2 = readtable('x.xlsx', o); y = o.VariableTypes;", "T", "T2", "y")
    assert [char_text(x) for x in types.data[0]] == ["char", "double"]
    assert texts(t.variables[0]) == ["TEXT_1", "TEXT_2", "-1"] == texts(t2.variables[0])
    assert same(t.variables[1], [[2], [math.nan], [2]]) and same(t2.variables[1], [[2], [math.nan], [2]])


def test_sheet_options_read_a_named_sheet(m, here):
    book(here / "b.xlsx", {"S1": [["a"], [1.0]], "S2": [["x", "y"], [1.5, "NA"], [2.5, 3]]})
    t = m.value("o = detectImportOptions('b.xlsx', 'Sheet', 'S2'); T = readtable('b.xlsx', o);", "T")
    assert t.names == ["x", "y"] and same(t.variables[1], [[math.nan], [3]])
    t = m.value("T = readtable('b.xlsx', 'Sheet', 'S2', 'TreatAsMissing', 'NA', 'Range', 'B1:B3');", "T")
    assert t.names == ["y"] and same(t.variables[0], [[math.nan], [3]])
    c = m.value("C = readcell('b.xlsx', 'Sheet', 2, 'TreatAsMissing', 'NA');", "C")
    assert c.shape == (3, 2) and type(c.data[1, 1]).__name__ == "MissingArray"


def test_sheet_option_after_import_options(m, here):
    book(here / "b.xlsx", {"S1": [["a"], [1.0]], "S2": [["a"], [2.0], [3.0]]})
    t = m.value("o = detectImportOptions('b.xlsx'); T = readtable('b.xlsx', o, 'Sheet', 'S2');", "T")
    assert same(t.variables[0], [[2], [3]])
