"""readtable and writetable on delimited text files: header detection, delimiters, names,
text types, missing values, quoting, options and errors."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from mlang.builtins.files.tabular_names import make_unique, make_valid_name
from mlang.errors import MatlabError
from mlang.values.cell import Cell
from mlang.values.core import char_row, char_text
from mlang.values.string import StringArray
from mlang.values.table import Table


def texts(v) -> list:
    """A text column as Python strings (None for a missing string)."""
    if type(v) is Cell:
        assert v.shape[1] == 1
        return [char_text(x) for x in v.data[:, 0]]
    assert type(v) is StringArray
    return list(v.data[:, 0])


def numbers(v) -> list:
    assert type(v) is np.ndarray and v.dtype == np.float64 and v.shape[1] == 1
    return [None if math.isnan(x) else x for x in v[:, 0]]


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def read(m, here, content: str, call: str = "readtable('f.csv')", name: str = "f.csv") -> Table:
    (here / name).write_text(content)
    t = m.value(f"T = {call};", "T")
    assert type(t) is Table
    return t


def test_header_row_names_the_variables(m, here):
    t = read(m, here, "Name,Age,Height\nBob,38,71.5\nAlice,42,69\n")
    assert t.names == ["Name", "Age", "Height"]
    assert texts(t.variables[0]) == ["Bob", "Alice"]
    assert numbers(t.variables[1]) == [38.0, 42.0]
    assert numbers(t.variables[2]) == [71.5, 69.0]
    assert t.row_names is None


def test_numeric_file_has_default_names(m, here):
    t = read(m, here, "1,2\n3,4\n5,6\n")
    assert t.names == ["Var1", "Var2"]
    assert numbers(t.variables[0]) == [1.0, 3.0, 5.0]


def test_read_variable_names_false_keeps_the_first_row(m, here):
    t = read(m, here, "a,b\nc,d\n", "readtable('f.csv', 'ReadVariableNames', false)")
    assert t.names == ["Var1", "Var2"]
    assert texts(t.variables[0]) == ["a", "c"]


@pytest.mark.parametrize("delim", ["\t", ";", "|", " "])
def test_delimiter_is_detected(m, here, delim):
    t = read(m, here, f"x{delim}y\n1{delim}2\n3{delim}4\n", name="f.txt",
             call="readtable('f.txt')")
    assert t.names == ["x", "y"]
    assert numbers(t.variables[1]) == [2.0, 4.0]


def test_space_delimited_columns_join_repeated_spaces(m, here):
    t = read(m, here, "  a    b\n  1    2\n 10   20\n", name="f.dat", call="readtable('f.dat')")
    assert numbers(t.variables[0]) == [1.0, 10.0]
    assert numbers(t.variables[1]) == [2.0, 20.0]


def test_delimiter_option(m, here):
    t = read(m, here, "a;b,c\n1;2,5\n", "readtable('f.csv', 'Delimiter', ';')")
    assert t.names == ["a", "b_c"]
    assert texts(t.variables[1]) == ["2,5"]


def test_missing_values_are_nan_and_empty_text(m, here):
    t = read(m, here, "n,s\n1,x\n,\n3,z\n")
    assert numbers(t.variables[0]) == [1.0, None, 3.0]
    assert texts(t.variables[1]) == ["x", "", "z"]


def test_string_text_type_has_missing_strings(m, here):
    t = read(m, here, "n,s\n1,x\n2,\n", "readtable('f.csv', 'TextType', 'string')")
    assert texts(t.variables[1]) == ["x", None]


def test_quoted_fields_keep_delimiters_and_quotes(m, here):
    t = read(m, here, 'id,text\n1,"a, b"\n2,"say ""hi"""\n3,plain\n')
    assert texts(t.variables[1]) == ["a, b", 'say "hi"', "plain"]


def test_mostly_numbers_make_a_numeric_column_and_mostly_text_a_text_column(m, here):
    # as MATLAB's detectImportOptions: the text among mostly numbers reads as NaN
    t = read(m, here, "v\n1\nabc\n007\n")
    assert numbers(t.variables[0]) == [1.0, None, 7.0]
    t = read(m, here, "v\n1\nabc\nxyz\n007x\n")
    assert texts(t.variables[0]) == ["1", "abc", "xyz", "007x"]


def test_special_numbers(m, here):
    t = read(m, here, "v\nNaN\nInf\n-Inf\n1e3\n-2.5\n")
    assert numbers(t.variables[0])[1:] == [math.inf, -math.inf, 1000.0, -2.5]
    assert numbers(t.variables[0])[0] is None


def test_names_are_made_valid_with_a_warning(m, here):
    t = read(m, here, "first name,2nd,a-b,for,,x\n1,2,3,4,5,6\n")
    assert t.names == ["firstName", "x2nd", "a_b", "xFor", "Var5", "x"]
    assert "Column headers from the file were modified" in m.err.getvalue()
    assert m.interp.lastwarn[1] == "MATLAB:table:ModifiedAndSavedVarnames"


def test_preserve_keeps_the_headers(m, here):
    t = read(m, here, "first name,2nd\n1,2\n", "readtable('f.csv', 'VariableNamingRule', 'preserve')")
    assert t.names == ["first name", "2nd"]
    assert m.err.getvalue() == ""


def test_duplicate_headers_are_made_unique(m, here):
    t = read(m, here, "a,a,a\n1,2,3\n")
    assert t.names == ["a", "a_1", "a_2"]


def test_header_lines_are_skipped(m, here):
    t = read(m, here, "some title\nmore text\nx,y\n1,2\n", "readtable('f.csv', 'NumHeaderLines', 2)")
    assert t.names == ["x", "y"]
    assert numbers(t.variables[0]) == [1.0]


def test_read_row_names(m, here):
    t = read(m, here, "Name,Age\nBob,38\nAlice,42\n", "readtable('f.csv', 'ReadRowNames', true)")
    assert t.names == ["Age"]
    assert t.row_names == ["Bob", "Alice"]
    assert numbers(t.variables[0]) == [38.0, 42.0]


def test_format_sets_the_column_types(m, here):
    t = read(m, here, "a,b,c\n1,2,3\n4,5,6\n", "readtable('f.csv', 'Format', '%f%s%*f')")
    assert t.names == ["a", "b"]
    assert numbers(t.variables[0]) == [1.0, 4.0]
    assert texts(t.variables[1]) == ["2", "5"]


def test_range_of_a_text_file(m, here):
    t = read(m, here, "a,b,c\n1,2,3\n4,5,6\n7,8,9\n", "readtable('f.csv', 'Range', 'B1:C3')")
    assert t.names == ["b", "c"]
    assert numbers(t.variables[0]) == [2.0, 5.0]


def test_empty_file_gives_an_empty_table(m, here):
    t = read(m, here, "")
    assert t.variables == [] and t.names == []


def test_blank_lines_are_skipped_and_short_rows_filled(m, here):
    t = read(m, here, "a,b\n1,2\n\n3\n")
    assert numbers(t.variables[0]) == [1.0, 3.0]
    assert numbers(t.variables[1]) == [2.0, None]


def test_byte_order_mark_and_crlf(m, here):
    (here / "f.csv").write_bytes("\ufeffa,b\r\n1,2\r\n".encode())
    t = m.value("T = readtable('f.csv');", "T")
    assert t.names == ["a", "b"]


def test_errors(m, here):
    err = m.fails("readtable('nothere.csv')")
    assert err.exc.identifier == "MATLAB:textio:textio:FileNotFound"
    assert err.exc.message == ("Unable to find or open 'nothere.csv'. Check the path and filename or "
                               "file permissions.")
    (here / "folder.csv").mkdir()
    assert m.fails("readtable('folder.csv')").exc.identifier == "MATLAB:textio:textio:FileNotFound"
    (here / "f.xyz").write_text("1,2\n")
    err = m.fails("readtable('f.xyz')")
    assert err.exc.identifier == "MATLAB:readtable:UnrecognizedFileExtension"
    assert "'.xyz'" in err.exc.message
    (here / "f.csv").write_text("1,2\n")
    assert m.fails("readtable('f.csv', 'Bogus', 1)").exc.identifier == \
        "MATLAB:InputParser:UnmatchedParameter"
    assert m.fails("readtable('f.csv', 'TextType', 'cell')").exc.identifier == \
        "MATLAB:textio:io:InvalidTextType"
    assert m.fails("readtable('f.csv', 'NumHeaderLines', -1)").exc.identifier == \
        "MATLAB:textio:io:NonNegativeInteger"
    assert m.fails("readtable(5)").exc.identifier == "MATLAB:invalidInput"


def test_file_type_option_reads_any_extension(m, here):
    t = read(m, here, "a\n1\n", "readtable('f.log', 'FileType', 'text')", name="f.log")
    assert t.names == ["a"]


# ------------------------------------------------------------------ writetable


def write(m, here, table: Table, call: str, name: str) -> str:
    m.interp.base.vars.clear()
    m.interp.base.vars["T"] = table
    m.interp.eval(call)
    return (here / name).read_text()


def cell_column(items: list) -> Cell:
    data = np.empty((len(items), 1), dtype=object)
    for k, item in enumerate(items):
        data[k, 0] = item
    return Cell(data)


def sample() -> Table:
    names = cell_column([char_row("Bob"), char_row("Al, Jr")])
    return Table([names, np.array([[38.0], [math.nan]]), np.array([[1.0, 2.0], [3.0, 4.5]]),
                  np.array([[True], [False]])], ["Name", "Age", "BP", "Ok"])


def test_writetable_csv(m, here):
    text = write(m, here, sample(), "writetable(T, 'out.csv')", "out.csv")
    assert text == 'Name,Age,BP_1,BP_2,Ok\nBob,38,1,2,1\n"Al, Jr",NaN,3,4.5,0\n'


def test_writetable_options(m, here):
    text = write(m, here, sample(), "writetable(T, 'out.txt', 'Delimiter', '\\t', "
                 "'WriteVariableNames', false, 'QuoteStrings', 'all')", "out.txt")
    assert text == '"Bob"\t38\t1\t2\t1\n"Al, Jr"\tNaN\t3\t4.5\t0\n'


def test_writetable_row_names_and_strings(m, here):
    strings = StringArray(cell_column(["x", None]).data)
    t = Table([strings], ["S"], ["r1", "r2"])
    text = write(m, here, t, "writetable(T, 'out.csv', 'WriteRowNames', true)", "out.csv")
    assert text == "Row,S\nr1,x\nr2,\n"


def test_writetable_without_extension_writes_txt(m, here):
    write(m, here, Table([np.array([[1.0]])], ["a"]), "writetable(T, 'plain')", "plain.txt")
    assert (here / "plain.txt").read_text() == "a\n1\n"


def test_writetable_numbers_use_15_significant_digits(m, here):
    t = Table([np.array([[math.pi], [1e20], [-0.1], [123456789012.0], [1 / 3]])], ["x"])
    text = write(m, here, t, "writetable(T, 'n.csv')", "n.csv")
    assert text.split("\n")[1:-1] == ["3.14159265358979", "1e+20", "-0.1", "123456789012",
                                      "0.333333333333333"]


def test_writetable_append(m, here):
    t = Table([np.array([[1.0]])], ["a"])
    write(m, here, t, "writetable(T, 'a.csv')", "a.csv")
    text = write(m, here, t, "writetable(T, 'a.csv', 'WriteMode', 'append')", "a.csv")
    assert text == "a\n1\n1\n"
    with pytest.raises(MatlabError) as info:
        m.interp.eval("writetable(T, 'a.csv', 'WriteMode', 'sideways')")
    assert info.value.exc.identifier == "MATLAB:table:write:InvalidWriteMode"


def test_write_then_read_round_trip(m, here):
    write(m, here, sample(), "writetable(T, 'rt.csv')", "rt.csv")
    t = m.value("T2 = readtable('rt.csv');", "T2")
    assert t.names == ["Name", "Age", "BP_1", "BP_2", "Ok"]
    assert texts(t.variables[0]) == ["Bob", "Al, Jr"]
    assert numbers(t.variables[1]) == [38.0, None]
    assert numbers(t.variables[3]) == [2.0, 4.5]


def test_writetable_errors(m, here):
    err = m.fails("writetable(magic(3), 'x.csv')")
    assert err.exc.identifier == "MATLAB:UndefinedFunction"
    assert err.exc.message == "Undefined function 'writetable' for input arguments of type 'double'."
    m.interp.base.vars["T"] = sample()
    with pytest.raises(MatlabError) as info:
        m.interp.eval("writetable(T, 'x.json')")
    assert info.value.exc.identifier == "MATLAB:table:write:UnrecognizedFileExtension"
    with pytest.raises(MatlabError) as info:
        m.interp.eval("writetable(T, 'no_such_folder/x.csv')")
    assert info.value.exc.identifier == "MATLAB:table:write:FileOpenError"
    assert not (here / "x.json").exists()


def test_failed_write_leaves_the_old_file(m, here, monkeypatch):
    (here / "keep.csv").write_text("old\n")
    m.interp.base.vars.clear()
    m.interp.base.vars["T"] = sample()

    def full_disk(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", full_disk)  # fails after the data went to the temporary file
    with pytest.raises(MatlabError) as info:
        m.interp.eval("writetable(T, 'keep.csv')")
    monkeypatch.undo()
    assert info.value.exc.identifier == "MATLAB:table:write:FileOpenError"
    assert "No space left on device" in info.value.exc.message
    assert (here / "keep.csv").read_text() == "old\n"
    assert sorted(p.name for p in here.iterdir()) == ["keep.csv"]


# ------------------------------------------------------------------ names


@pytest.mark.parametrize(("text", "valid"), [
    ("abc", "abc"), ("Last name", "LastName"), ("  pad  ", "pad"), ("Height (cm)", "Height_cm_"),
    ("1abc", "x1abc"), ("_a", "x_a"), ("if", "xIf"), ("", "x"), ("a" * 70, "a" * 63),
    ("café", "caf_"),
])
def test_make_valid_name(text, valid):
    assert make_valid_name(text) == valid


def test_make_unique():
    assert make_unique(["a", "b", "a", "a_1"]) == ["a", "b", "a_2", "a_1"]


def test_iso_dates_read_as_datetime(m, here):
    from mlang.values.time_datetime import DatetimeArray
    t = read(m, here, "when,v\n2024-03-15,1\n,2\n1970-01-02,3\n")
    when = t.variables[0]
    assert type(when) is DatetimeArray and when.fmt == "yyyy-MM-dd"
    assert when.data.shape == (3, 1) and math.isnan(when.data[1, 0]) and when.data[2, 0] == 86_400_000.0
    t = read(m, here, "at\n2024-03-15T10:20:30\n", "readtable('f.csv')")
    assert t.variables[0].fmt == "yyyy-MM-dd'T'HH:mm:ss"
    t = read(m, here, "when\n2024-03-15\n", "readtable('f.csv', 'DatetimeType', 'text')")
    assert texts(t.variables[0]) == ["2024-03-15"]
    t = read(m, here, "when\n2024-03-15\n2024-13-01\n")  # not a date: the column stays text
    assert texts(t.variables[0]) == ["2024-03-15", "2024-13-01"]


def test_encoding_and_missing_words(m, here):
    (here / "l.csv").write_bytes("name,v\ncaf\xe9,N/A\n".encode("latin-1"))
    t = m.value("T = readtable('l.csv', 'Encoding', 'ISO-8859-1', 'TreatAsMissing', 'N/A');", "T")
    assert texts(t.variables[0]) == ["café"] and numbers(t.variables[1]) == [None]
    assert m.fails("readtable('l.csv', 'Encoding', 'klingon')").exc.identifier == \
        "MATLAB:textio:io:UnsupportedEncoding"
    m.interp.base.vars["T"] = t
    m.interp.eval("writetable(T, 'out.csv', 'Encoding', 'ISO-8859-1')")
    assert (here / "out.csv").read_bytes() == "name,v\ncaf\xe9,NaN\n".encode("latin-1")


def test_variable_names_and_selected_variable_names_options(m, here):
    t = read(m, here, "a,b,c\n1,2,3\n4,5,6\n",
             "readtable('f.csv', 'VariableNames', {'x','y','z'}, 'SelectedVariableNames', {'z','x'})")
    assert t.names == ["z", "x"]
    assert numbers(t.variables[0]) == [3.0, 6.0] and numbers(t.variables[1]) == [1.0, 4.0]
    t = read(m, here, "1,2\n3,4\n", "readtable('f.csv', 'VariableNames', [\"p\" \"q\"])")
    assert t.names == ["p", "q"]
    assert m.fails("readtable('f.csv', 'VariableNames', {'p','p'})").exc.identifier == \
        "MATLAB:table:DuplicateVarNames"
    assert m.fails("readtable('f.csv', 'VariableNames', {'p'})").exc.identifier == \
        "MATLAB:table:IncorrectNumberOfVarNames"


def test_readtable_with_import_options(m, here):
    (here / "f.csv").write_text("id,score\n1,9.5\n2,\n3,7\n")
    t = m.value("o = detectImportOptions('f.csv'); o.MissingRule = 'omitrow';"
                " o = setvartype(o, 'id', 'uint8'); T = readtable('f.csv', o);", "T")
    assert t.variables[0].dtype == np.uint8 and t.variables[0].reshape(-1).tolist() == [1, 3]
    assert numbers(t.variables[1]) == [9.5, 7.0]


# ------------------------------------------------------------------ one detection rule


def test_na_in_a_numeric_column_reads_as_nan_as_detect_import_options_says(m, here):
    (here / "f.csv").write_text("id,v\n1,2.5\n2,NA\n3,4\n")
    t, types, t2 = m.values("T = readtable('f.csv'); o = detectImportOptions('f.csv'); "
                            "y = o.VariableTypes; T2 = readtable('f.csv', o);", "T", "y", "T2")
    assert [char_text(x) for x in types.data[0]] == ["double", "double"]
    assert numbers(t.variables[1]) == [2.5, None, 4.0] == numbers(t2.variables[1])


def test_treat_as_missing_counts_for_the_types(m, here):
    # without it the column is mostly text; with it, numbers and missing values
    t = read(m, here, "n,s\nNA,x\nNA,NA\n3,z\n")
    assert texts(t.variables[0]) == ["NA", "NA", "3"]
    t = read(m, here, "n,s\nNA,x\nNA,NA\n3,z\n", "readtable('f.csv', 'TreatAsMissing', 'NA')")
    assert numbers(t.variables[0]) == [None, None, 3.0]
    assert texts(t.variables[1]) == ["x", "", "z"]
    t = read(m, here, "n,s\nNA,x\nNA,NA\n3,z\n",
             "readtable('f.csv', 'TreatAsMissing', {'NA'}, 'TextType', 'string')")
    assert texts(t.variables[1]) == ["x", None, "z"]
    opts = m.value("o = detectImportOptions('f.csv', 'TreatAsMissing', 'NA');", "o")
    assert opts.types == ["double", "char"] and opts.var_options[0]["TreatAsMissing"] == ["NA"]


def test_an_empty_column_is_numeric(m, here):
    t = read(m, here, "a,b,c\n1,,x\n2,,y\n")
    assert numbers(t.variables[1]) == [None, None]
    assert texts(t.variables[2]) == ["x", "y"]


def test_dates_and_text_are_typed_as_detected(m, here):
    from mlang.values.time_datetime import DatetimeArray
    (here / "f.csv").write_text("when,who,n\n2024-03-15 10:00,Bob,1\n2024-03-16 11:30,Al,2\n")
    t, types = m.values("T = readtable('f.csv'); o = detectImportOptions('f.csv'); y = o.VariableTypes;",
                        "T", "y")
    assert [char_text(x) for x in types.data[0]] == ["datetime", "char", "double"]
    assert type(t.variables[0]) is DatetimeArray and t.variables[0].fmt == "yyyy-MM-dd HH:mm"
    assert texts(t.variables[1]) == ["Bob", "Al"]
    t = read(m, here, "d\n15-Mar-2024\n", "readtable('f.csv', 'Format', '%s')")
    assert texts(t.variables[0]) == ["15-Mar-2024"]
    t = read(m, here, "d\n15/03/2024\n", "readtable('f.csv', 'Format', '%{dd/MM/yyyy}D')")
    assert type(t.variables[0]) is DatetimeArray and t.variables[0].fmt == "dd/MM/yyyy"


def test_title_lines_above_the_names_are_skipped(m, here):
    (here / "f.csv").write_text("Report of 2024\n\nx,y\n1,2\n3,4\n")
    t, lines, names_line = m.values("T = readtable('f.csv'); o = detectImportOptions('f.csv'); "
                                    "l = o.DataLines; n = o.VariableNamesLine;", "T", "l", "n")
    assert t.names == ["x", "y"] and numbers(t.variables[1]) == [2.0, 4.0]
    assert lines.tolist() == [[4.0, math.inf]] and names_line == 3.0


def test_without_a_header_row_every_row_is_data(m, here):
    t = read(m, here, "x,1\ny,2\n")
    assert t.names == ["Var1", "Var2"] and texts(t.variables[0]) == ["x", "y"]
    t = read(m, here, "a,b\nc,d\n", "readtable('f.csv', 'ReadVariableNames', true)")
    assert t.names == ["a", "b"] and texts(t.variables[1]) == ["d"]


def test_rules_of_import_options_as_name_value_options(m, here):
    t = read(m, here, "a,b\n1,2\n,4\n5,x\n", "readtable('f.csv', 'MissingRule', 'omitrow')")
    assert numbers(t.variables[0]) == [1.0, 5.0] and numbers(t.variables[1]) == [2.0, None]
    t = read(m, here, "a,b\n1,2\n3,4,5\n6,7\n")
    assert t.names == ["a", "b", "ExtraVar1"] and texts(t.variables[2]) == ["", "5", ""]  # char, as MATLAB
    t = read(m, here, "a,b\n1,2\n3,4,5\n6,7\n", "readtable('f.csv', 'ExtraColumnsRule', 'ignore')")
    assert t.names == ["a", "b"]


def test_range_selects_columns_of_a_text_file_for_detection_too(m, here):
    (here / "f.csv").write_text("a,b,c\nx,2,3\ny,5,6\nz,8,9\n")
    t = m.value("T = readtable('f.csv', 'Range', 'B1:C3');", "T")
    assert t.names == ["b", "c"] and numbers(t.variables[1]) == [3.0, 6.0]
    opts = m.value("o = detectImportOptions('f.csv', 'Range', 'B1:C3');", "o")
    assert opts.selected == [1, 2] and opts.settings["DataLines"] == [(2.0, 3.0)]


def test_range_past_the_data_reads_nothing(m, here):
    t = read(m, here, "a,b\n1,2\n", "readtable('f.csv', 'Range', 'F9')")
    assert t.variables == [] and t.names == []
    assert m.value("A = readmatrix('f.csv', 'Range', 'A10:B12');", "A").shape == (0, 0)


def test_reader_option_errors(m, here):
    (here / "f.csv").write_text("a,b\n1,\n")
    cases = {
        "readtable('f.csv', 'Format', 'abc')": "MATLAB:textio:textio:InvalidFormat",
        "readtable('f.csv', 'DatetimeType', 'clock')": "MATLAB:textio:io:InvalidDatetimeType",
        "readtable('f.csv', 'Range', 'nonsense')": "MATLAB:textio:io:InvalidRange",
        "readtable('f.csv', 'MissingRule', 'bogus')": "MATLAB:unrecognizedStringChoice",
        "readtable('f.csv', 'MissingRule', 'error')": "MATLAB:textio:io:MissingData",
        "readtable('f.csv', 'VariableNamingRule', 'keep')": "MATLAB:textio:io:InvalidVariableNamingRule",
        "readcell('nothere.csv')": "MATLAB:textio:textio:FileNotFound",
        "readcell('f.csv', 'TextType', 'cell')": "MATLAB:textio:io:InvalidTextType",
        "readcell('f.csv', 'Format', '%f')": "MATLAB:InputParser:UnmatchedParameter",
        "readmatrix('f.csv', 'HeaderLines', 1.5)": "MATLAB:textio:io:NonNegativeInteger",
        "readtable('f.csv', 'NumHeaderLines', 'x')": "MATLAB:textio:io:NonNegativeInteger",
        "readtable('f.csv', 'Range', 'A0')": "MATLAB:textio:io:InvalidRange",
    }
    for code, identifier in cases.items():
        assert m.fails(code).exc.identifier == identifier, code


def test_writetable_of_a_table_without_rows_writes_the_names(m, here):
    m.run("T = table(zeros(0, 1), cell(0, 1), 'VariableNames', {'a', 'b'}); writetable(T, 'e.csv');")
    assert (here / "e.csv").read_text() == "a,b\n"
    t = m.value("T2 = readtable('e.csv');", "T2")
    assert t.names == ["a", "b"] and t.variables[0].shape == (0, 1)
