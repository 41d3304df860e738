"""datetime: construction, display, properties, indexing, concatenation, arithmetic,
comparisons, text conversion, NaT and errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlang.values.string import StringArray
from mlang.values.time_datetime import DatetimeArray
from mlang.values.time_duration import DurationArray

# ------------------------------------------------------------------ display


def test_date_only_display(m):
    assert m.run("t = datetime(2024,3,5)") == "\nt = \n\n  datetime\n\n   05-Mar-2024\n\n"


def test_date_and_time_display(m):
    assert m.run("t = datetime(2024,3,5,14,30,15)") == \
        "\nt = \n\n  datetime\n\n   05-Mar-2024 14:30:15\n\n"


def test_row_display(m):
    assert m.run("t = datetime(2024,3,5:7)") == (
        "\nt = \n\n  1\u00d73 datetime array\n\n"
        "   05-Mar-2024   06-Mar-2024   07-Mar-2024\n\n")


def test_column_display(m):
    assert m.run("t = datetime(2024,[1;2],1)") == (
        "\nt = \n\n  2\u00d71 datetime array\n\n   01-Jan-2024\n   01-Feb-2024\n\n")


def test_empty_display(m):
    assert m.run("t = datetime(2024,3,5); t(1) = []") == "\nt = \n\n  1\u00d70 empty datetime array\n\n"


def test_nat_padded_to_common_width(m):
    out = m.run("t = [datetime(2024,1,1) NaT]")
    assert "   01-Jan-2024           NaT" in out


def test_wide_array_splits_into_column_blocks(m):
    out = m.run("t = datetime(2024,1,1:8)")
    assert "  Columns 1 through 5" in out and "  Columns 6 through 8" in out


def test_compact_display(m):
    assert m.run("format compact; t = datetime(2024,3,5), format loose") == \
        "t = \n  datetime\n   05-Mar-2024\n"


# ------------------------------------------------------------------ formats


@pytest.mark.parametrize(("fmt", "text"), [
    ("yyyy-MM-dd", "2024-03-05"),
    ("dd/MM/yyyy", "05/03/2024"),
    ("MMMM d, yyyy", "March 5, 2024"),
    ("eeee, MMMM d, yyyy h:mm a", "Tuesday, March 5, 2024 2:05 PM"),
    ("yyyy-MM-dd''T''HH:mm:ss.SSS", "2024-03-05T14:05:09.250"),
    ("uuuu DDD EEE", "2024 065 Tue"),
    ("yy-M-d H:m:s", "24-3-5 14:5:9"),
    ("hh:mm a", "02:05 PM"),
])
def test_format_letters(m, fmt, text):
    x = m.value(f"t = datetime(2024,3,5,14,5,9.25); t.Format = '{fmt}'; x = string(t);")
    assert x.data[0, 0] == text


def test_format_property_values(m):
    assert m.value("t = datetime(2024,3,5); x = t.Format;").tobytes().decode("utf-16-le") == "dd-MMM-uuuu"
    x = m.value("t = datetime(2024,3,5,1,2,3); t.Format = 'defaultdate'; x = char(t);")
    assert x.tobytes().decode("utf-16-le") == "05-Mar-2024"
    x = m.value("t = datetime(2024,3,5); t.Format = 'default'; x = char(t);")
    assert x.tobytes().decode("utf-16-le") == "05-Mar-2024 00:00:00"


def test_format_option_and_input_format(m):
    x = m.value("t = datetime('03/05/2024', 'InputFormat', 'MM/dd/yyyy'); x = string(t);")
    assert x.data[0, 0] == "03/05/2024"  # InputFormat is the display format when no Format is given
    x = m.value("t = datetime(2024,3,5,'Format','yyyy.MM.dd'); x = string(t);")
    assert x.data[0, 0] == "2024.03.05"


# ------------------------------------------------------------------ construction


def test_components_and_overflow(m):
    year, month, day = m.values("t = datetime(2024,14,31); y = t.Year; mo = t.Month; d = t.Day;",
                                "y", "mo", "d")
    assert (year, month, day) == (2025.0, 3.0, 3.0)  # month 14 is next February; Feb 31 is Mar 3


def test_milliseconds_argument(m):
    assert m.value("t = datetime(2024,1,1,0,0,1,500); x = t.Second;") == 1.5


def test_date_vectors(m):
    x = m.value("t = datetime([2024 1 2; 2024 2 3]); x = t.Day;")
    assert x.tolist() == [[2.0], [3.0]]


def test_text_inputs(m):
    x = m.value("t = datetime({'2024-03-05', '2024-04-01 10:00:00'}); x = t.Month;")
    assert x.tolist() == [[3.0, 4.0]]
    assert m.value("t = datetime('05-Mar-2024 10:11:12'); x = t.Minute;") == 11.0
    x = m.value('t = datetime(["2024-01-01" "2024-01-02"]); x = size(t);')
    assert x.tolist() == [[1.0, 2.0]]


def test_relative_days(m):
    today, tomorrow = m.values("a = datetime('today'); b = datetime('tomorrow'); d = b - a;"
                               "x = hours(d); h = a.Hour;", "x", "h")
    assert (today, tomorrow) == (24.0, 0.0)
    assert type(m.value("x = datetime;")) is DatetimeArray


def test_convert_from(m):
    assert m.value("t = datetime(739316.5, 'ConvertFrom', 'datenum'); x = t.Hour;") == 12.0
    assert m.value("t = datetime(0, 'ConvertFrom', 'posixtime'); x = t.Year;") == 1970.0
    assert m.value("t = datetime(20240305, 'ConvertFrom', 'yyyymmdd'); x = t.Day;") == 5.0
    assert m.value("t = datetime(45356, 'ConvertFrom', 'excel'); x = t.Day;") == 5.0
    assert m.value("t = datetime(2460374.5, 'ConvertFrom', 'juliandate'); x = t.Day;") == 5.0
    x = m.value("t = datetime(90, 'ConvertFrom', 'epochtime', 'Epoch', '2024-03-05', "
                "'TicksPerSecond', 1); x = t.Minute;")
    assert x == 1.0


def test_time_zones(m):
    x = m.value("t = datetime(2024,3,5,12,0,0,'TimeZone','America/New_York');"
                "t.TimeZone = 'UTC'; x = t.Hour;")
    assert x == 17.0
    x = m.value("t = datetime(2024,7,1,12,0,0,'TimeZone','UTC'); t.TimeZone = 'Europe/Paris';"
                "t.Format = 'HH:mm XXX'; x = string(t);")
    assert x.data[0, 0] == "14:00 +02:00"
    assert m.fails("t = datetime(2024,1,1,'TimeZone','Mars/Olympus');").identifier == \
        "MATLAB:datetime:UnknownTimeZone"


def test_nat(m):
    x = m.value("t = NaT(2,3); x = isnat(t);")
    assert x.shape == (2, 3) and x.all()
    assert math.isnan(m.value("x = NaT; x = x.Year;"))
    assert m.value("x = isnat(datetime(2024,1,1));") is False


# ------------------------------------------------------------------ properties


def test_set_component_property(m):
    x = m.value("t = datetime(2024,3,5); t.Year = 2030; x = string(t);")
    assert x.data[0, 0] == "05-Mar-2030"


def test_unknown_property(m):
    assert m.fails("t = datetime(2024,1,1); x = t.Nope;").identifier == "MATLAB:noSuchMethodOrField"


def test_bad_format_letter(m):
    exc = m.fails("t = datetime(2024,1,1); t.Format = 'yyyy-bb';")
    assert exc.identifier == "MATLAB:datetime:UnsupportedSymbolicIdentifier"


# ------------------------------------------------------------------ indexing and shape


def test_indexing_assignment_growth_and_deletion(m):
    x = m.value("t = datetime(2024,1,1:5); t(2) = []; t(2:3) = datetime(2000,1,1);"
                "t(end+1) = datetime(2024,12,31); t(8) = datetime(2025,1,1); x = t.Year;")
    assert x[0, :5].tolist() == [2024.0, 2000.0, 2000.0, 2024.0, 2024.0]
    assert math.isnan(x[0, 5]) and math.isnan(x[0, 6]) and x[0, 7] == 2025.0  # gaps are NaT
    assert m.value("t = datetime(2024,1,1:5); x = numel(t(2:end));") == 4.0


def test_assignment_from_text(m):
    assert m.value("t = datetime(2024,1,1:2); t(2) = '2030-06-01'; x = t(2).Year;") == 2030.0


def test_new_variable_by_indexed_assignment(m):
    x = m.value("t(3) = datetime(2024,1,1); x = isnat(t);")
    assert x.tolist() == [[True, True, False]]


def test_concatenation(m):
    assert m.value("t = [datetime(2024,1,1) datetime(2024,2,1)]; x = size(t);").tolist() == [[1.0, 2.0]]
    assert m.value("t = [datetime(2024,1,1); datetime(2024,2,1)]; x = size(t);").tolist() == [[2.0, 1.0]]
    assert m.value("t = [datetime(2024,1,1), '2024-05-05']; x = t(2).Month;") == 5.0
    # MATLAB's datetime concatenation checks its inputs as a comparison does.
    exc = m.fails("t = [datetime(2024,1,1) 5];")
    assert exc.identifier == "MATLAB:datetime:InvalidComparison"
    assert exc.exc.message == "Comparison is not defined between double and datetime arrays."


def test_assignment_errors(m):
    # MATLAB's datetime parenAssign: a number has its own identifier.
    assert m.fails("t = datetime(2024,1,1:2); t(2) = 5;").identifier == \
        "MATLAB:datetime:InvalidNumericAssignment"
    assert m.fails("t = datetime(2024,1,1:2); t(2) = {1};").identifier == "MATLAB:datetime:InvalidAssignment"


def test_transpose_and_class(m):
    assert m.value("t = datetime(2024,1,1:3)'; x = size(t);").tolist() == [[3.0, 1.0]]
    assert m.value("x = class(datetime(2024,1,1));").tobytes().decode("utf-16-le") == "datetime"
    assert m.value("x = isdatetime(datetime(2024,1,1));") is True
    assert m.value("x = isdatetime(5);") is False


# ------------------------------------------------------------------ arithmetic and comparisons


def test_difference_is_duration(m):
    x = m.value("x = datetime(2024,3,5,14,30,15) - datetime(2024,3,5);")
    assert type(x) is DurationArray and x.data[0, 0] == 52215000.0


def test_plus_duration_and_days(m):
    assert m.value("t = datetime(2024,2,28) + days(2); x = t.Day;") == 1.0
    assert m.value("t = datetime(2024,2,28) + 1; x = t.Day;") == 29.0
    assert m.value("t = hours(36) + datetime(2024,1,1); x = t.Hour;") == 12.0
    assert m.value("t = datetime(2024,1,1) - minutes(1); x = t.Year;") == 2023.0


def test_comparisons(m):
    x = m.value("t = datetime(2024,1,1:3); x = t > datetime(2024,1,2);")
    assert x.tolist() == [[False, False, True]]
    assert m.value("x = datetime(2024,1,1) == '2024-01-01';") is True
    assert m.value("x = NaT == NaT;") is False


def test_arithmetic_errors(m):
    assert m.fails("x = datetime(2024,1,1) + datetime(2024,1,1);").identifier == \
        "MATLAB:datetime:DatetimeAdditionNotDefined"
    assert m.fails("x = datetime(2024,1,1) * 2;").identifier == "MATLAB:UndefinedFunction"
    assert m.fails("x = datetime(2024,1,1) < 5;").identifier == "MATLAB:datetime:InvalidComparison"
    assert m.fails("x = 5 - datetime(2024,1,1);").identifier == "MATLAB:datetime:SubtractionNotDefined"
    assert m.fails("x = -datetime(2024,1,1);").identifier == "MATLAB:UndefinedFunction"
    assert m.fails("if datetime(2024,1,1), end").identifier == "MATLAB:invalidConversion"


# ------------------------------------------------------------------ text


def test_text_conversions(m):
    x = m.value("x = string(datetime(2024,1,1:2));")
    assert type(x) is StringArray and x.data.tolist() == [["01-Jan-2024", "02-Jan-2024"]]
    x = m.value("x = char(datetime(2024,[1;12],1));")
    assert x.shape == (2, 11)
    x = m.value("x = cellstr(datetime(2024,1,1));")
    assert x.data[0, 0].tobytes().decode("utf-16-le") == "01-Jan-2024"
    x = m.value('x = "Today: " + datetime(2024,1,1);')
    assert x.data[0, 0] == "Today: 01-Jan-2024"


def test_parse_errors(m):
    assert m.fails("t = datetime('garbage');").identifier == \
        "MATLAB:datetime:UnrecognizedDateStringSuggestLocale"
    exc = m.fails("t = datetime('2024-03-05', 'InputFormat', 'dd/MM/yyyy');")
    assert exc.identifier == "MATLAB:datetime:ParseErr"
    assert "'2024-03-05'" in exc.message if hasattr(exc, "message") else True
    assert m.fails("t = datetime(1, 'ConvertFrom', 'nope');").identifier == \
        "MATLAB:datetime:UnrecognizedConvertFrom"
    assert m.fails("t = datetime(1, 2);").identifier == "MATLAB:datetime:InvalidDateVectors"
    assert m.fails("t = datetime([1 2], [1 2 3], 1);").identifier == "MATLAB:datetime:InputSizeMismatch"


# ------------------------------------------------------------------ fields


def test_field_functions(m):
    y, mo, d, h, mi, s, q = m.values(
        "t = datetime(2024,8,5,14,30,15.5); y = year(t); mo = month(t); d = day(t);"
        "h = hour(t); mi = minute(t); s = second(t); q = quarter(t);",
        "y", "mo", "d", "h", "mi", "s", "q")
    assert (y, mo, d, h, mi, s, q) == (2024.0, 8.0, 5.0, 14.0, 30.0, 15.5, 3.0)
    assert m.fails("x = year(5);").identifier == "MATLAB:UndefinedFunction"


def test_calendar_round_trip_far_dates():
    from mlang.values.time_calendar import civil_from_days, days_from_civil

    years = np.array([-400.0, 1.0, 1600.0, 1900.0, 2000.0, 2100.0, 9999.0])
    days = days_from_civil(years, np.full(7, 2.0), np.full(7, 29.0))
    y, mo, d = civil_from_days(days)
    leap = (years % 4 == 0) & ((years % 100 != 0) | (years % 400 == 0))
    assert (mo == np.where(leap, 2, 3)).all() and (d == np.where(leap, 29, 1)).all()
    assert y.tolist() == years.tolist()


def test_disp_form_has_no_class_header():
    from mlang.values.time_calendar import DEFAULT_DATE_FORMAT

    t = DatetimeArray(np.array([[0.0, 86_400_000.0]]), DEFAULT_DATE_FORMAT)
    assert t.disp_body(None, lambda a: []) == ["   01-Jan-1970   02-Jan-1970"]
    assert DatetimeArray(np.zeros((0, 0))).disp_body(None, lambda a: []) == []


def test_scalar_times_show_their_text_in_struct_fields_and_cells(m):
    out = m.run("s.when = datetime(2024,1,1); s.took = hours(1); s.many = [hours(1) hours(2)]; s")
    assert "    when: 01-Jan-2024\n    took: 1 hr\n    many: [1×2 duration]\n" in out
    out = m.run("c = {datetime(2024,1,1), hours(1), [hours(1) hours(2)]}")
    assert "{[01-Jan-2024]}    {[1 hr]}    {1×2 duration}" in out


def test_disp_of_a_time_has_no_class_header(m):
    assert m.run("disp(hours(1))").strip() == "1 hr"
