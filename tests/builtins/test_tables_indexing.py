"""Tables: indexing, assignment, properties, concatenation and display."""

from __future__ import annotations

import numpy as np

from mlang.display import Style, disp_lines, display_lines, render
from mlang.values.cell import Cell
from mlang.values.core import char_text
from mlang.values.table import Table
from mlang.values.table_properties import TableProperties

SETUP = "T = table([1;2;3], {'a';'bb';'c'}, [true;false;true], 'VariableNames', {'x','y','z'});"


def texts(cell: Cell) -> list[str]:
    return [char_text(x) for x in cell.data.ravel(order="F")]


# ---------------------------------------------------------------- reading


def test_dot_reads_a_variable(m):
    assert np.array_equal(m.value(SETUP + "v = T.x;", "v"), [[1], [2], [3]])
    assert m.value(SETUP + "v = T.x(2);", "v") == 2.0
    assert m.value(SETUP + "v = T.x(end);", "v") == 3.0
    assert char_text(m.value(SETUP + "v = T.y{2};", "v")) == "bb"
    assert np.array_equal(m.value(SETUP + "n = 'x'; v = T.(n);", "v"), [[1], [2], [3]])


def test_paren_gives_a_table(m):
    t = m.value(SETUP + "v = T(2:3, {'x','z'});", "v")
    assert type(t) is Table and t.names == ["x", "z"] and t.height == 2
    t = m.value(SETUP + "v = T(T.x > 1, :);", "v")
    assert t.variable("x").ravel().tolist() == [2, 3]
    t = m.value(SETUP + "v = T(end, end);", "v")
    assert t.shape == (1, 1) and t.names == ["z"]
    t = m.value(SETUP + 'v = T(:, ["y", "x"]);', "v")
    assert t.names == ["y", "x"]
    t = m.value(SETUP + "v = T(:, [false true false]);", "v")
    assert t.names == ["y"]
    t = m.value(SETUP + "v = T([], :);", "v")
    assert t.shape == (0, 3)


def test_braces_give_the_data(m):
    assert np.array_equal(m.value(SETUP + "v = T{:, 'x'};", "v"), [[1], [2], [3]])
    assert m.value(SETUP + "v = T{2, 1};", "v") == 2.0
    c = m.value(SETUP + "v = T{1, 'y'};", "v")
    assert type(c) is Cell and texts(c) == ["a"]
    a = m.value("t = table([1;2], [3 4; 5 6]); v = t{:, :};", "v")
    assert np.array_equal(a, [[1, 3, 4], [2, 5, 6]])


def test_row_names(m):
    setup = "P = table([185;133], 'VariableNames', {'w'}, 'RowNames', {'Harry','Sally'});"
    t = m.value(setup + "v = P('Sally', :);", "v")
    assert t.row_names == ["Sally"] and t.variables[0] == 133
    assert m.value(setup + "v = P{'Harry', 'w'};", "v") == 185.0
    assert texts(m.value(setup + "v = P.Row;", "v")) == ["Harry", "Sally"]
    assert texts(m.value(setup + "v = P.Properties.RowNames;", "v")) == ["Harry", "Sally"]
    err = m.fails(setup + "P('Zed', :)")
    assert err.identifier == "MATLAB:table:UnrecognizedRowName"
    assert err.message == "Unrecognized row name 'Zed'."


def test_reading_errors(m):
    err = m.fails(SETUP + "T.nope")
    assert err.identifier == "MATLAB:table:UnrecognizedVarName"
    assert err.message == "Unrecognized table variable name 'nope'."
    assert m.fails(SETUP + "T(1)").identifier == "MATLAB:table:LinearSubscript"
    assert m.fails(SETUP + "T(1, 1, 1)").identifier == "MATLAB:table:NDSubscript"
    assert m.fails(SETUP + "T(4, :)").identifier == "MATLAB:table:RowIndexOutOfRange"
    assert m.fails(SETUP + "T(:, 4)").identifier == "MATLAB:table:VarIndexOutOfRange"
    assert m.fails(SETUP + "T(0, :)").identifier == "MATLAB:badsubscript"
    assert m.fails(SETUP + "T(:, {'x', 'q'})").identifier == "MATLAB:table:UnrecognizedVarName"
    assert m.fails(SETUP + "T{:, :}").identifier == "MATLAB:table:ExtractDataIncompatibleTypeError"


# ---------------------------------------------------------------- assignment


def test_dot_assignment(m):
    t = m.value(SETUP + "T.w = [4;5;6];", "T")
    assert t.names == ["x", "y", "z", "w"]
    t = m.value(SETUP + "T.w = 7;", "T")
    assert t.variable("w").ravel().tolist() == [7, 7, 7]
    t = m.value(SETUP + "T.x(2) = 20;", "T")
    assert t.variable("x").ravel().tolist() == [1, 20, 3]
    t = m.value(SETUP + "T.y{1} = 'zzz';", "T")
    assert texts(t.variable("y")) == ["zzz", "bb", "c"]
    t = m.value(SETUP + "T.x = [];", "T")
    assert t.names == ["y", "z"]
    t = m.value(SETUP + "n = 'q'; T.(n) = [0;0;0];", "T")
    assert t.names[-1] == "q"
    t = m.value("T = table(); T.a = [1;2;3];", "T")
    assert t.shape == (3, 1)
    assert m.fails(SETUP + "T.x = [1;2]").identifier == "MATLAB:table:RowDimensionMismatch"
    assert m.fails(SETUP + "T.Properties = 5").identifier == "MATLAB:table:InvalidPropertiesAssignment"


def test_the_original_is_not_changed(m):
    u, t = m.values(SETUP + "U = T; U.x(1) = 100; U.y{2} = 'q';", "U", "T")
    assert u.variable("x")[0, 0] == 100 and t.variable("x")[0, 0] == 1
    assert texts(t.variable("y")) == ["a", "bb", "c"]


def test_paren_assignment_and_deletion(m):
    t = m.value(SETUP + "T(2, :) = [];", "T")
    assert t.variable("x").ravel().tolist() == [1, 3]
    t = m.value(SETUP + "T(:, 'y') = [];", "T")
    assert t.names == ["x", "z"]
    t = m.value(SETUP + "T(T.x < 3, :) = [];", "T")
    assert t.height == 1
    t = m.value(SETUP + "T(end+1, :) = {4, 'd', false};", "T")
    assert t.height == 4 and texts(t.variable("y"))[-1] == "d"
    t = m.value(SETUP + "T(end+1, :) = T(1, :);", "T")
    assert t.variable("x").ravel().tolist() == [1, 2, 3, 1]
    t = m.value(SETUP + "T(1, {'x', 'z'}) = {10, false};", "T")
    assert t.variable("x")[0, 0] == 10 and not t.variable("z")[0, 0]
    t = m.value(SETUP + "T(5, 'x') = {9};", "T")
    assert t.variable("x").ravel().tolist() == [1, 2, 3, 0, 9]
    assert m.fails(SETUP + "T(1, 1) = []").identifier == "MATLAB:table:InvalidEmptyAssignment"
    assert m.fails(SETUP + "T(1:2, :) = {1, 'a', true}").identifier == \
        "MATLAB:table:AssignmentDimensionMismatch"


def test_assignment_through_longer_paths(m):
    t = m.value(SETUP + "T(2, :).x = 50;", "T")
    assert t.variable("x").ravel().tolist() == [1, 50, 3]
    t = m.value(SETUP + "T.x(T.x > 1) = 0;", "T")
    assert t.variable("x").ravel().tolist() == [1, 0, 0]
    t = m.value(SETUP + "T.Properties.UserData.note = 'hi';", "T")
    assert char_text(t.user_data.element()["note"]) == "hi"
    t = m.value(SETUP + "T.Properties.VariableNames(3) = {'w'};", "T")
    assert t.names == ["x", "y", "w"]
    # a plain struct path is unchanged
    assert m.value("s.a.b = 1; s.a.c = 2; v = s.a.c;", "v") == 2.0


def test_brace_targets_of_several_outputs(m):
    t = m.value(SETUP + "[a, T{2, 'x'}] = deal(7, 8);", "T")
    assert t.variable("x").ravel().tolist() == [1, 8, 3]
    c = m.value("c = {1, 2}; [c{:}] = deal(3, 4);", "c")
    assert c.values() == [3.0, 4.0]


def test_growing_rows_warns_about_unassigned_variables(m):
    m.run(SETUP + "T{4, 'x'} = 9;")
    assert m.interp.lastwarn[1] == "MATLAB:table:RowsAddedExistingVars"
    assert "did not assign values" in m.err.getvalue()
    m.interp.lastwarn = ("", "")
    m.run(SETUP + "T(4, :) = {4, 'd', true};")
    assert m.interp.lastwarn == ("", "")
    assert "did not assign values" not in m.err.getvalue()


def test_brace_assignment(m):
    t = m.value(SETUP + "T{1, 'x'} = 5;", "T")
    assert t.variable("x")[0, 0] == 5
    t = m.value(SETUP + "T{2, 2} = 'new';", "T")
    assert texts(t.variable("y"))[1] == "new"
    t = m.value(SETUP + "T{4, 1} = 9;", "T")
    assert t.height == 4 and t.variable("y").data[3, 0].size == 0
    t = m.value(SETUP + "T{:, 'x'} = [7;8;9];", "T")
    assert t.variable("x").ravel().tolist() == [7, 8, 9]
    assert m.value(SETUP + "T{end+1, 'x'} = 4; v = T{end, 1};", "v") == 4.0
    # braces on a value without brace hooks are still MATLAB's errors
    assert m.fails("a = 5; a{1} = 2").identifier == "MATLAB:cellAssToNonCell"
    assert m.fails("M = containers.Map(); M{1} = 2").identifier == "MATLAB:cellAssToNonCell"
    assert m.fails("M = containers.Map(); M{1}").identifier == "MATLAB:cellRefFromNonCell"


def test_properties(m):
    p = m.value(SETUP + "v = T.Properties;", "v")
    assert type(p) is TableProperties and p.matlab_class == "matlab.tabular.TableProperties"
    assert texts(m.value(SETUP + "v = T.Properties.VariableNames;", "v")) == ["x", "y", "z"]
    assert char_text(m.value(SETUP + "v = T.Properties.VariableNames{2};", "v")) == "y"
    t = m.value(SETUP + "T.Properties.VariableNames = {'a','b','c'};", "T")
    assert t.names == ["a", "b", "c"]
    t = m.value(SETUP + "T.Properties.VariableNames{2} = 'q';", "T")
    assert t.names == ["x", "q", "z"]
    t = m.value(SETUP + "T.Properties.RowNames = {'r1','r2','r3'};", "T")
    assert t.row_names == ["r1", "r2", "r3"]
    t = m.value(SETUP + "T.Properties.RowNames = {'r1','r2','r3'}; T.Properties.RowNames = {};", "T")
    assert t.row_names is None
    t = m.value(SETUP + "T.Properties.Description = 'demo'; T.Properties.UserData = 42;", "T")
    assert t.description == "demo" and t.user_data == 42
    t = m.value(SETUP + "T.Properties.VariableUnits = {'m', '', 's'};", "T")
    assert t.variable_units == ["m", "", "s"]
    t = m.value(SETUP + "T.Properties.DimensionNames = {'Obs', 'Data'}; T.Properties.RowNames = {'a','b','c'};"
                " v = T.Obs;", "v")
    assert texts(t) == ["a", "b", "c"]
    t = m.value(SETUP + "p = T.Properties; U = table([1;2;3],[4;5;6],[7;8;9]); U.Properties = p;", "U")
    assert t.names == ["x", "y", "z"]
    assert m.fails(SETUP + "T.Properties.VariableNames = {'a'}").identifier == \
        "MATLAB:table:IncorrectNumberOfVarNames"
    assert m.fails(SETUP + "T.Properties.VariableNames = {'a','a','b'}").identifier == \
        "MATLAB:table:DuplicateVarNames"
    assert m.fails(SETUP + "T.Properties.RowNames = {'a','a','b'}").identifier == \
        "MATLAB:table:DuplicateRowNames"
    assert m.fails(SETUP + "T.Properties.Bogus = 1").identifier == "MATLAB:noPublicFieldForClass"


def test_variables_property(m):
    a = m.value("t = table([1;2], [3;4]); v = t.Variables;", "v")
    assert np.array_equal(a, [[1, 3], [2, 4]])
    t = m.value("t = table([1;2], [3;4]); t.Variables = [5 6; 7 8];", "t")
    assert t.variables[1].ravel().tolist() == [6, 8]


# ---------------------------------------------------------------- concatenation


def test_concatenation(m):
    t = m.value(SETUP + "v = [T; T];", "v")
    assert t.height == 6
    t = m.value(SETUP + "U = T(:, {'z', 'x', 'y'}); v = [T; U];", "v")
    assert t.variable("x").ravel().tolist() == [1, 2, 3, 1, 2, 3]
    t = m.value(SETUP + "v = [T; {4, 'd', true}];", "v")
    assert t.height == 4 and texts(t.variable("y"))[3] == "d"
    t = m.value(SETUP + "W = table([7;8;9], 'VariableNames', {'w'}); v = [T W];", "v")
    assert t.names == ["x", "y", "z", "w"]
    t = m.value(SETUP + "v = [table(); T];", "v")
    assert t.height == 3
    assert m.fails(SETUP + "[T T]").identifier == "MATLAB:table:DuplicateVarNames"
    assert m.fails(SETUP + "[T; T(:, 1:2)]").identifier == "MATLAB:table:vertcat:SizeMismatch"
    assert m.fails(SETUP + "U = T; U.Properties.VariableNames{1} = 'q'; [T; U]").identifier == \
        "MATLAB:table:vertcat:UnequalVarNames"
    assert m.fails(SETUP + "[T table([1;2], 'VariableNames', {'w'})]").identifier == \
        "MATLAB:table:horzcat:SizeMismatch"
    assert m.fails(SETUP + "[T 5]").identifier == "MATLAB:table:horzcat:InvalidInput"


# ---------------------------------------------------------------- display


def shown(t: Table, **style) -> str:
    s = Style(**style)
    return render(display_lines("T", t, s), s)


def test_display_layout(m):
    t = m.value("T = table([1;2], {'a';'bcd'}, 'VariableNames', {'Num', 'Text'});", "T")
    assert shown(t) == ("\nT = \n\n  2×2 table\n\n"
                        "    Num     Text  \n"
                        "    ___    _______\n\n"
                        "     1     {'a'  }\n"
                        "     2     {'bcd'}\n\n")
    assert shown(t, compact=True).startswith("T = \n  2×2 table\n    Num")


def test_display_numbers_and_logicals(m):
    t = m.value("T = table([0.5; -12.25; 123456], [true; false; true]);", "T")
    lines = shown(t).splitlines()
    assert lines[8:11] == ["           0.5    true ", "        -12.25    false", "    1.2346e+05    true "]


def test_display_empty_tables(m):
    assert shown(m.value("T = table();", "T")) == "\nT = \n\n  0×0 empty table\n\n"
    assert "0×3 empty table" in shown(m.value("T = array2table(zeros(0, 3));", "T"))


def test_disp_of_a_table(m):
    t = m.value("T = table([1;2]);", "T")
    s = Style()
    text = render(disp_lines(t, s), s)
    assert "Var1" in text and "T =" not in text
    assert m.run("T = table([1;2]); disp(T)") == "    Var1\n    ____\n\n     1  \n     2  \n\n"
    assert m.run("disp(table())") == "  0×0 empty table\n\n"


def test_display_other_classes(m):
    t = m.value("T = table({1; [1 2]}, int16([5; -6]), ['ab'; 'cd'], [1+2i; 3]);", "T")
    text = shown(t)
    assert "{[  1]}" in text and "{[1 2]}" in text
    assert "-6" in text and " ab " in text and "1 + 2i" in text
    nested = m.value("N = table(table([1;2]), [3;4]);", "N")
    assert "1×1 table" in shown(nested)
