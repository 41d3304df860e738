"""Import options: detectImportOptions, the options objects' properties, display and
checks, setvartype/getvartype/setvaropts/getvaropts, and readtable, readmatrix and readcell
reading as an options object says."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlang.builtins.files.import_options import ImportOptions
from mlang.values.cell import Cell
from mlang.values.core import char_text
from mlang.values.string import StringArray
from mlang.values.table import Table

DATA = ("Name,Age,Height,Label,When\n"
        "Bob,38,71.5,a,2024-01-02\n"
        "Alice,,69,b,2024-02-03\n"
        "Carl,40,NA,a,2024-03-04\n")


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data.csv").write_text(DATA)
    return tmp_path


def texts(v) -> list:
    if type(v) is Cell:
        return [char_text(x) for x in v.data.reshape(-1)]
    assert type(v) is StringArray
    return list(v.data.reshape(-1))


def numbers(v) -> list:
    a = np.asarray(v, dtype=np.float64).reshape(-1)
    return [None if math.isnan(x) else float(x) for x in a]


def table(m, code: str) -> Table:
    t = m.value(code, "T")
    assert type(t) is Table
    return t


# ------------------------------------------------------------------ detection


def test_detected_properties(m, here):
    names, types, delim, lines, names_line, cls = m.values(
        "opts = detectImportOptions('data.csv'); n = opts.VariableNames; t = opts.VariableTypes; "
        "d = opts.Delimiter; l = opts.DataLines; nl = opts.VariableNamesLine; c = class(opts);",
        "n", "t", "d", "l", "nl", "c")
    assert texts(names) == ["Name", "Age", "Height", "Label", "When"]
    # Height holds one 'NA' among numbers: still a double variable ('NA' is an import error)
    assert texts(types) == ["char", "double", "double", "char", "datetime"]
    assert texts(delim) == [","]
    assert lines.tolist() == [[2.0, math.inf]]
    assert names_line == 1.0
    assert char_text(cls) == "matlab.io.text.DelimitedTextImportOptions"


def test_detect_without_header_and_with_header_lines(m, here):
    (here / "n.txt").write_text("title line\n1 2 3\n4 5 6\n")
    names, lines, types = m.values("o = detectImportOptions('n.txt', 'NumHeaderLines', 1); "
                                   "n = o.VariableNames; l = o.DataLines; t = o.VariableTypes;",
                                   "n", "l", "t")
    assert texts(names) == ["Var1", "Var2", "Var3"]
    assert lines.tolist() == [[2.0, math.inf]]
    assert texts(types) == ["double"] * 3


def test_detect_tab_file_with_comments(m, here):
    (here / "tab.txt").write_text("% note\nx\ty\tname\n\n1\t2\tfoo\n% skip\n3\t4\tbar\n")
    m.run("opts = detectImportOptions('tab.txt', 'CommentStyle', '%'); T = readtable('tab.txt', opts);")
    opts = m.interp.base.vars["opts"]
    assert opts.settings["Delimiter"] == ["\\t"]
    assert opts.settings["VariableNamesLine"] == 2
    t = m.interp.base.vars["T"]
    assert t.names == ["x", "y", "name"]
    assert numbers(t.variables[0]) == [1.0, 3.0]
    assert texts(t.variables[2]) == ["foo", "bar"]


DISPLAY = """
opts =<SPACE>

  DelimitedTextImportOptions with properties:

   Format Properties:
                    Delimiter: {','}
                   Whitespace: '\\b\\t '
                   LineEnding: {'\\n'  '\\r'  '\\r\\n'}
                 CommentStyle: {}
    ConsecutiveDelimitersRule: 'split'
        LeadingDelimitersRule: 'keep'
       TrailingDelimitersRule: 'ignore'
                EmptyLineRule: 'skip'
                     Encoding: 'UTF-8'

   Replacement Properties:
                  MissingRule: 'fill'
              ImportErrorRule: 'fill'
             ExtraColumnsRule: 'addvars'

   Variable Import Properties: Set types by name using setvartype
                VariableNames: {'Name', 'Age', 'Height' ... and 2 more}
                VariableTypes: {'char', 'double', 'double' ... and 2 more}
        SelectedVariableNames: {'Name', 'Age'}
              VariableOptions: Show all 5 VariableOptions
\tAccess VariableOptions sub-properties using setvaropts/getvaropts
           VariableNamingRule: 'modify'

   Location Properties:
                    DataLines: [2 Inf]
            VariableNamesLine: 1
               RowNamesColumn: 0
            VariableUnitsLine: 0
     VariableDescriptionsLine: 0
\tTo display a preview of the table, use preview

"""


def test_display_golden(m, here):
    out = m.run("opts = detectImportOptions('data.csv'); opts.SelectedVariableNames = {'Name','Age'};\nopts")
    assert out == DISPLAY.replace("<SPACE>", " ")


def test_variable_options_display(m, here):
    out = m.run("opts = detectImportOptions('data.csv');\n"
                "opts = setvaropts(opts, 'Age', 'FillValue', -1, 'TreatAsMissing', {'NA', '-'});\n"
                "v = getvaropts(opts, 'Age')")
    assert out == ("\nv = \n\n  NumericVariableImportOptions with properties:\n\n"
                   "              Name: 'Age'\n              Type: 'double'\n"
                   "         FillValue: -1\n    TreatAsMissing: {'NA'  '-'}\n\n")


def test_spreadsheet_options(m, here):
    pytest.importorskip("openpyxl")
    m.run("T = readtable('data.csv'); writetable(T, 'x.xlsx');")
    out = m.run("so = detectImportOptions('x.xlsx')")
    assert "  SpreadsheetImportOptions with properties:" in out
    assert "                    DataRange: 'A2' (Start Cell)\n" in out
    assert "           VariableNamesRange: 'A1'\n" in out
    t = table(m, "so = detectImportOptions('x.xlsx'); so.SelectedVariableNames = {'Age','Height'}; "
                 "T = readtable('x.xlsx', so);")
    assert t.names == ["Age", "Height"]
    assert numbers(t.variables[0]) == [38.0, None, 40.0]


# ------------------------------------------------------------------ properties


def test_options_are_values(m, here):
    a, b = m.values("a = detectImportOptions('data.csv'); b = a; b.MissingRule = 'omitrow';", "a", "b")
    assert a.settings["MissingRule"] == "fill"
    assert b.settings["MissingRule"] == "omitrow"


def test_rename_keeps_selection(m, here):
    t = table(m, "opts = detectImportOptions('data.csv'); opts.SelectedVariableNames = [1 3];\n"
                 "opts.VariableNames(3) = {'H'}; T = readtable('data.csv', opts);")
    assert t.names == ["Name", "H"]
    assert numbers(t.variables[1]) == [71.5, 69.0, None]


def test_nested_assignment_of_types(m, here):
    t = table(m, "opts = detectImportOptions('data.csv'); opts.VariableTypes{2} = 'int8';\n"
                 "T = readtable('data.csv', opts);")
    age = t.variables[1]
    assert age.dtype == np.int8 and age.reshape(-1).tolist() == [38, 0, 40]


def test_preserve_variable_names_flag(m, here):
    flag, rule = m.values("o = detectImportOptions('data.csv'); o.PreserveVariableNames = true; "
                          "f = o.PreserveVariableNames; r = o.VariableNamingRule;", "f", "r")
    assert flag is True and char_text(rule) == "preserve"


def test_delimited_text_import_options_constructor(m, here):
    o = m.value("o = delimitedTextImportOptions('NumVariables', 2, 'DataLines', [2 3], "
                "'VariableTypes', {'double', 'string'});", "o")
    assert type(o) is ImportOptions
    assert o.names == ["Var1", "Var2"] and o.types == ["double", "string"]
    assert o.settings["DataLines"] == [(2.0, 3.0)]
    t = table(m, "o = delimitedTextImportOptions('VariableNames', {'a','b','c','d','e'}, "
                 "'DataLines', 2); T = readtable('data.csv', o);")
    assert t.names == ["a", "b", "c", "d", "e"]
    assert texts(t.variables[1]) == ["38", "", "40"]


# ------------------------------------------------------------------ types


def test_setvartype_and_getvartype(m, here):
    types = m.value("o = detectImportOptions('data.csv'); o = setvartype(o, {'Age','Height'}, 'single');"
                    " o = setvartype(o, 1, 'string'); x = getvartype(o);")
    assert texts(types) == ["string", "single", "single", "char", "datetime"]
    t = table(m, "o = detectImportOptions('data.csv'); o = setvartype(o, {'Name','Age'}, {'string','uint8'});"
                 " T = readtable('data.csv', o);")
    assert type(t.variables[0]) is StringArray
    assert t.variables[1].dtype == np.uint8
    one = m.value("o = detectImportOptions('data.csv'); x = getvartype(o, 'When');")
    assert texts(one) == ["datetime"]


def test_all_types_at_once(m, here):
    t = table(m, "o = detectImportOptions('data.csv'); o = setvartype(o, 'char'); T = readtable('data.csv', o);")
    assert all(type(v) is Cell for v in t.variables)
    assert texts(t.variables[4]) == ["2024-01-02", "2024-02-03", "2024-03-04"]


def test_categorical_type(m, here):
    t = table(m, "o = detectImportOptions('data.csv'); o = setvartype(o, 'Label', 'categorical');"
                 " o.SelectedVariableNames = 'Label'; T = readtable('data.csv', o); c = class(T.Label);")
    expected = "categorical" if "categorical" in m.interp.builtins else "cell"
    assert char_text(m.interp.base.vars["c"]) == expected
    assert t.names == ["Label"]


def test_datetime_with_input_format(m, here):
    (here / "d.csv").write_text("day,v\n03/01/2024,1\n04/01/2024,2\n")
    months = m.value("o = detectImportOptions('d.csv'); o = setvartype(o, 'day', 'datetime');\n"
                     "o = setvaropts(o, 'day', 'InputFormat', 'dd/MM/yyyy'); T = readtable('d.csv', o);"
                     " x = month(T.day); c = class(T.day);")
    assert numbers(months) == [1.0, 1.0]
    assert char_text(m.interp.base.vars["c"]) == "datetime"


def test_logical_type(m, here):
    (here / "b.csv").write_text("flag,n\ntrue,1\nfalse,2\n1,3\n")
    t = table(m, "o = detectImportOptions('b.csv'); o = setvartype(o, 'flag', 'logical');"
                 " T = readtable('b.csv', o);")
    assert t.variables[0].dtype == bool
    assert t.variables[0].reshape(-1).tolist() == [True, False, True]


# ------------------------------------------------------------------ rules and lines


def test_data_lines(m, here):
    t = table(m, "o = detectImportOptions('data.csv'); o.DataLines = [2 2; 4 4]; T = readtable('data.csv', o);")
    assert texts(t.variables[0]) == ["Bob", "Carl"]
    t = table(m, "o = detectImportOptions('data.csv'); o.DataLines = 4; T = readtable('data.csv', o);")
    assert texts(t.variables[0]) == ["Carl"]


def test_missing_rule(m, here):
    t = table(m, "o = detectImportOptions('data.csv'); o.MissingRule = 'omitrow'; "
                 "o.SelectedVariableNames = {'Name','Age'}; T = readtable('data.csv', o);")
    assert texts(t.variables[0]) == ["Bob", "Carl"]
    t = table(m, "o = detectImportOptions('data.csv'); o = setvaropts(o, 'Age', 'FillValue', -5);"
                 " T = readtable('data.csv', o);")
    assert numbers(t.variables[1]) == [38.0, -5.0, 40.0]
    t = table(m, "o = detectImportOptions('data.csv'); o.MissingRule = 'omitvar'; T = readtable('data.csv', o);")
    assert t.names == ["Name", "Height", "Label", "When"]
    err = m.fails("o = detectImportOptions('data.csv'); o.MissingRule = 'error'; T = readtable('data.csv', o);")
    assert err.identifier == "MATLAB:textio:io:MissingData"


def test_import_error_rule_and_treat_as_missing(m, here):
    t = table(m, "o = detectImportOptions('data.csv'); o.ImportErrorRule = 'omitrow'; T = readtable('data.csv', o);")
    assert texts(t.variables[0]) == ["Bob", "Alice"]
    err = m.fails("o = detectImportOptions('data.csv'); o.ImportErrorRule = 'error'; T = readtable('data.csv', o);")
    assert err.identifier == "MATLAB:textio:io:ImportError"
    t = table(m, "o = detectImportOptions('data.csv'); o = setvaropts(o, 'Height', 'TreatAsMissing', 'NA',"
                 " 'FillValue', 0); o.ImportErrorRule = 'error'; T = readtable('data.csv', o);")
    assert numbers(t.variables[2]) == [71.5, 69.0, 0.0]


def test_extra_columns_rule(m, here):
    (here / "e.csv").write_text("a,b\n1,2\n3,4,5\n6,7\n")
    t = table(m, "o = detectImportOptions('e.csv'); T = readtable('e.csv', o);")
    assert t.names == ["a", "b", "ExtraVar1"]
    t = table(m, "o = detectImportOptions('e.csv'); o.ExtraColumnsRule = 'ignore'; T = readtable('e.csv', o);")
    assert t.names == ["a", "b"]
    err = m.fails("o = detectImportOptions('e.csv'); o.ExtraColumnsRule = 'error'; T = readtable('e.csv', o);")
    assert err.identifier == "MATLAB:textio:io:ExtraColumns"


def test_read_variable_names_and_row_names(m, here):
    t = table(m, "o = detectImportOptions('data.csv'); o.VariableNames = {'a','b','c','d','e'};\n"
                 "T = readtable('data.csv', o, 'ReadVariableNames', true);")
    assert t.names == ["Name", "Age", "Height", "Label", "When"]
    t = table(m, "o = detectImportOptions('data.csv'); T = readtable('data.csv', o, 'ReadRowNames', true);")
    assert t.row_names == ["Bob", "Alice", "Carl"]
    assert t.names == ["Age", "Height", "Label", "When"]


def test_readmatrix_and_readcell_with_options(m, here):
    x = m.value("o = detectImportOptions('data.csv'); o.SelectedVariableNames = {'Age','Height'};"
                " o = setvaropts(o, 'Height', 'TreatAsMissing', 'NA', 'FillValue', -1); x = readmatrix('data.csv', o);")
    assert x.tolist() == [[38.0, 71.5], [pytest.approx(math.nan, nan_ok=True), 69.0], [40.0, -1.0]]
    x = m.value("o = detectImportOptions('data.csv'); o.SelectedVariableNames = 'Age';"
                " o = setvartype(o, 'Age', 'int16'); o.MissingRule = 'omitrow'; x = readmatrix('data.csv', o);")
    assert x.dtype == np.int16 and x.reshape(-1).tolist() == [38, 40]
    c = m.value("o = detectImportOptions('data.csv'); o.SelectedVariableNames = {'Name','Height'};"
                " o.DataLines = [3 Inf]; x = readcell('data.csv', o);")
    assert c.shape == (2, 2)
    assert char_text(c.data[0, 0]) == "Alice" and c.data[0, 1] == 69.0
    assert char_text(c.data[1, 1]) == "NA"


# ------------------------------------------------------------------ readtable name=value


def test_readtable_variable_names_option(m, here):
    t = table(m, "T = readtable('data.csv', 'VariableNames', {'a','b','c','d','e'},"
                 " 'SelectedVariableNames', {'a','b'});")
    assert t.names == ["a", "b"]
    assert numbers(t.variables[1]) == [38.0, None, 40.0]
    err = m.fails("T = readtable('data.csv', 'VariableNames', {'a','b'});")
    assert err.identifier == "MATLAB:table:IncorrectNumberOfVarNames"
    err = m.fails("T = readtable('data.csv', 'SelectedVariableNames', 'nope');")
    assert err.identifier == "MATLAB:textio:io:UnknownVarName"


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(("code", "identifier"), [
    ("o.SelectedVariableNames = {'Name','foo'};", "MATLAB:textio:io:UnknownVarName"),
    ("o = setvartype(o, 'foo', 'double');", "MATLAB:textio:io:UnknownVarName"),
    ("o = setvartype(o, 'Age', 'banana');", "MATLAB:textio:io:UnsupportedConversionType"),
    ("o = setvartype(o, {'Age','Name'}, {'double','char','char'});", "MATLAB:textio:io:TypesSelectionMismatch"),
    ("o.MissingRule = 'skip';", "MATLAB:unrecognizedStringChoice"),
    ("o.DataLines = [0 3];", "MATLAB:textio:io:InvalidDataLines"),
    ("o.DataLines = [5 2];", "MATLAB:textio:io:InvalidDataLines"),
    ("o.VariableNames = {'a','a','b','c','d'};", "MATLAB:textio:io:DuplicateVarNames"),
    ("o.VariableTypes = {'double'};", "MATLAB:textio:io:WrongNumberOfTypes"),
    ("o.Bogus = 1;", "MATLAB:noPublicFieldForClass"),
    ("x = o.Bogus;", "MATLAB:noSuchMethodOrField"),
    ("o.SelectedVariableNames = 9;", "MATLAB:textio:io:BadVariableIndex"),
    ("o = setvaropts(o, 'Age', 'FillValue', 'x');", "MATLAB:textio:io:InvalidFillValue"),
    ("o = setvaropts(o, 'Age', 'InputFormat', 'yyyy');", "MATLAB:textio:io:UnknownVarOption"),
    ("o = setvaropts(o, 'Age', 'Colour', 1);", "MATLAB:InputParser:UnmatchedParameter"),
    ("x = getvartype(5);", "MATLAB:textio:io:InvalidImportOptions"),
    ("T = readtable('data.csv', o, 'Delimiter', ';');", "MATLAB:InputParser:UnmatchedParameter"),
])
def test_errors(m, here, code, identifier):
    err = m.fails("o = detectImportOptions('data.csv');\n" + code)
    assert err.identifier == identifier


def test_file_errors(m, here):
    (here / "folder.csv").mkdir()
    assert m.fails("o = detectImportOptions('nope.csv');").identifier == "MATLAB:textio:textio:FileNotFound"
    assert m.fails("o = detectImportOptions('folder.csv');").identifier == "MATLAB:textio:textio:FileNotFound"
    assert m.fails("o = detectImportOptions('data.csv'); T = readtable('gone.csv', o);").identifier == \
        "MATLAB:textio:textio:FileNotFound"
    (here / "a.xyz").write_text("1,2\n")
    assert m.fails("o = detectImportOptions('a.xyz');").identifier == \
        "MATLAB:detectImportOptions:UnrecognizedFileExtension"


def test_spreadsheet_without_openpyxl(m, here, monkeypatch):
    import builtins

    (here / "s.xlsx").write_bytes(b"not really a workbook")
    real_import = builtins.__import__

    def no_openpyxl(name, *args, **kwargs):
        if name == "openpyxl" or name.startswith("openpyxl."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_openpyxl)
    err = m.fails("o = detectImportOptions('s.xlsx');")
    assert err.identifier == "MATLAB:spreadsheet:book:noExcelSupport"
    assert "pip install 'mlang[excel]'" in err.message


def test_delimiter_rules(m, here):
    (here / "r.csv").write_text("a,b,c\n1,,2\n3,4,5\n")
    t = table(m, "o = detectImportOptions('r.csv'); o.ConsecutiveDelimitersRule = 'join';"
                 " T = readtable('r.csv', o);")
    assert numbers(t.variables[1]) == [2.0, 4.0] and numbers(t.variables[2]) == [None, 5.0]
    err = m.fails("o = detectImportOptions('r.csv'); o.ConsecutiveDelimitersRule = 'error';"
                  " T = readtable('r.csv', o);")
    assert err.identifier == "MATLAB:textio:io:DelimiterRule"


def test_empty_line_rule(m, here):
    (here / "b.csv").write_text("a,b\n1,2\n\n3,4\n")
    t = table(m, "o = detectImportOptions('b.csv'); o.EmptyLineRule = 'read'; T = readtable('b.csv', o);")
    assert numbers(t.variables[0]) == [1.0, None, 3.0]
    err = m.fails("o = detectImportOptions('b.csv'); o.EmptyLineRule = 'error'; T = readtable('b.csv', o);")
    assert err.identifier == "MATLAB:textio:io:EmptyLineRuleError"


def test_readtable_with_name_value_options_is_detection_then_options(m, here):
    # one rule: the table read directly is the table read with the options detected
    plain, with_opts = m.values("A = readtable('data.csv'); B = readtable('data.csv', "
                                "detectImportOptions('data.csv'));", "A", "B")
    assert plain.names == with_opts.names == ["Name", "Age", "Height", "Label", "When"]
    assert numbers(plain.variables[2]) == numbers(with_opts.variables[2]) == [71.5, 69.0, None]
    assert texts(plain.variables[3]) == texts(with_opts.variables[3]) == ["a", "b", "a"]
    assert plain.variables[4].fmt == with_opts.variables[4].fmt == "yyyy-MM-dd"


def test_detect_with_a_range(m, here):
    pytest.importorskip("openpyxl")
    m.run("T = readtable('data.csv'); writetable(T, 'x.xlsx', 'Range', 'B2');")
    opts = m.value("o = detectImportOptions('x.xlsx', 'Range', 'C2:D5');", "o")
    assert opts.names == ["Age", "Height"] and opts.types == ["double", "double"]
    assert opts.settings["DataRange"] == "C3:D5" and opts.settings["VariableNamesRange"] == "C2"
    t = table(m, "o = detectImportOptions('x.xlsx', 'Range', 'C2:D5'); T = readtable('x.xlsx', o);")
    assert numbers(t.variables[1]) == [71.5, 69.0, None]
    opts = m.value("o = detectImportOptions('x.xlsx');", "o")
    assert opts.settings["DataRange"] == "B3" and opts.names[0] == "Name"
