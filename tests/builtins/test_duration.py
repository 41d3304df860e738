"""duration: construction, unit functions, display formats, indexing, arithmetic,
comparisons, text conversion and errors."""

from __future__ import annotations

import math

import pytest

from mlang.values.string import StringArray
from mlang.values.time_duration import DurationArray


def text_of(m, code: str) -> list:
    return m.value(code + " x = string(d);").data.tolist()


# ------------------------------------------------------------------ display


def test_scalar_display(m):
    assert m.run("d = duration(1,30,45)") == "\nd = \n\n  duration\n\n   01:30:45\n\n"


def test_row_display_of_units(m):
    assert m.run("D = hours(1:3)") == "\nD = \n\n  1\u00d73 duration array\n\n   1 hr   2 hr   3 hr\n\n"


def test_column_display_with_unit_format(m):
    out = m.run("D = duration(magic(3), 'Format', 'h')")
    assert out == ("\nD = \n\n  3\u00d71 duration array\n\n"
                   "   8.0183 hr\n   3.0853 hr\n   4.1506 hr\n\n")


def test_minutes_row_display(m):
    assert m.run("D = duration(1,30:33,0)") == (
        "\nD = \n\n  1\u00d74 duration array\n\n   01:30:00   01:31:00   01:32:00   01:33:00\n\n")


@pytest.mark.parametrize(("code", "texts"), [
    ("d = duration(25,0,0.5);", [["25:00:00"]]),
    ("d = duration(25,0,0.5,'Format','dd:hh:mm:ss.SSS');", [["01:01:00:00.500"]]),
    ("d = duration(1,2,3,'Format','mm:ss');", [["62:03"]]),
    ("d = duration(1,2,59,'Format','hh:mm');", [["01:02"]]),
    ("d = duration(0,0,59.99);", [["00:00:59"]]),
    ("d = -duration(1,30,0);", [["-01:30:00"]]),
    ("d = -minutes(90);", [["-90 min"]]),
    ("d = seconds(pi);", [["3.1416 sec"]]),
    ("d = minutes(90); d.Format = 'h';", [["1.5 hr"]]),
    ("d = days([1 2]);", [["1 day", "2 days"]]),
    ("d = years([1 2]);", [["1 yr", "2 yrs"]]),
    ("d = seconds(123456);", [["1.2346e+05 sec"]]),
    ("d = milliseconds(5);", [["0.005 sec"]]),
    ("d = seconds([NaN Inf -Inf]); d.Format = 'hh:mm:ss';", [["NaN", "Inf", "-Inf"]]),
])
def test_formats(m, code, texts):
    assert text_of(m, code) == texts


def test_format_property(m):
    fmt = m.value("d = hours(1); x = d.Format;")
    assert fmt.tobytes().decode("utf-16-le") == "h"
    assert m.fails("d = hours(1); d.Format = 'xx';").identifier == "MATLAB:duration:UnrecognizedFormat"


# ------------------------------------------------------------------ construction


def test_constructor_forms(m):
    assert m.value("d = duration(1,2,3,4); x = milliseconds(d);") == 3723004.0
    x = m.value("d = duration([1 0 0; 0 1 0]); x = seconds(d);")
    assert x.tolist() == [[3600.0], [60.0]]
    x = m.value("d = duration(1, [0 30], 0); x = minutes(d);")
    assert x.tolist() == [[60.0, 90.0]]
    assert m.value("d = duration(int8(2), 0, 0); x = hours(d);") == 2.0


def test_text_constructor(m):
    x = m.value("d = duration({'01:00:00', '1:02:03:04'}); x = seconds(d);")
    assert x.tolist() == [[3600.0, 93784.0]]
    assert m.value("d = duration('05:30', 'InputFormat', 'mm:ss'); x = seconds(d);") == 330.0
    assert m.fails("d = duration('abc');").identifier == "MATLAB:duration:UnrecognizedDurationText"


def test_unit_round_trips(m):
    assert m.value("x = hours(minutes(90));") == 1.5
    assert m.value("x = days(hours(36));") == 1.5
    assert m.value("x = years(days(365.2425));") == 1.0
    assert m.value("x = milliseconds(seconds(2));") == 2000.0
    assert m.fails("x = hours('a');").identifier == "MATLAB:UndefinedFunction"


def test_constructor_errors(m):
    assert m.fails("d = duration(1, 2);").identifier == "MATLAB:duration:InvalidNumericMatrix"
    assert m.fails("d = duration([1 2], [1 2 3], 0);").identifier == "MATLAB:duration:InputSizeMismatch"
    assert m.fails("d = duration({1}, 0, 0);").identifier == "MATLAB:duration:InputMustBeNumeric"


# ------------------------------------------------------------------ the training-loop line


def test_toc_duration_line(m):
    out = m.run('start = tic; D = duration(0,0,toc(start),Format="hh:mm:ss"); s = "Elapsed: " + string(D);'
                'disp(s)')
    assert out == "Elapsed: 00:00:00\n"
    x = m.value('D = duration(0,0,3725,Format="hh:mm:ss"); x = "Elapsed: " + D;')
    assert type(x) is StringArray and x.data[0, 0] == "Elapsed: 01:02:05"
    x = m.value('D = seconds(5); x = D + " left";')
    assert x.data[0, 0] == "5 sec left"


def test_char_and_cellstr(m):
    x = m.value("x = char(duration(1,2,3));")
    assert x.tobytes().decode("utf-16-le") == "01:02:03"
    x = m.value("x = cellstr(seconds([1 2]));")
    assert [v.tobytes().decode("utf-16-le") for v in x.data.reshape(-1)] == ["1 sec", "2 sec"]
    x = m.value("x = ['t = ' char(hours(2))];")
    assert x.tobytes().decode("utf-16-le") == "t = 2 hr"


# ------------------------------------------------------------------ arithmetic


def test_arithmetic(m):
    assert m.value("x = seconds(hours(1) + minutes(30));") == 5400.0
    assert m.value("x = hours(hours(1) + 1);") == 25.0  # a number is a count of days
    assert m.value("x = minutes(2 * minutes(3));") == 6.0
    assert m.value("x = minutes(minutes(3) .* [1 2]);").tolist() == [[3.0, 6.0]]
    assert m.value("x = minutes(minutes(3) / 3);") == 1.0
    assert m.value("x = hours(3) / minutes(30);") == 6.0
    assert m.value("x = seconds(-seconds(4));") == -4.0
    assert m.value("x = seconds(+seconds(4));") == 4.0
    d = m.value("x = hours(1) - minutes(15);")
    assert type(d) is DurationArray and d.fmt == "h"


def test_arithmetic_errors(m):
    assert m.fails("x = hours(1) * hours(1);").identifier == \
        "MATLAB:duration:DurationMultiplicationNotDefined"
    assert m.fails("x = 2 / hours(1);").identifier == "MATLAB:duration:NumericDividedByDuration"
    assert m.fails("x = hours(1) ^ 2;").identifier == "MATLAB:UndefinedFunction"
    assert m.fails("x = [hours(1) {2}];").identifier == "MATLAB:duration:InvalidComparison"
    assert m.fails("x = hours(1:2); x(2) = {5};").identifier == "MATLAB:duration:InvalidAssignment"
    # text that is not a duration, assigned: MATLAB:duration:InvalidAssignment
    assert m.fails("x = hours(1:2); x(2) = 'abc';").identifier == "MATLAB:duration:InvalidAssignment"


def test_numbers_count_as_days(m):
    # MATLAB's compareUtil, isequalUtil and parenAssign read a number as fixed-length days.
    assert m.value("x = hours(1) < 2;") is True
    assert m.value("x = [hours(1) 2]; x = hours(x);").tolist() == [[1.0, 48.0]]
    assert m.value("x = hours(1:2); x(2) = 0.5; x = hours(x);").tolist() == [[1.0, 12.0]]


def test_comparisons(m):
    x = m.value("x = minutes([30 60 90]) >= hours(1);")
    assert x.tolist() == [[False, True, True]]
    assert m.value("x = seconds(60) == minutes(1);") is True
    assert m.value("x = hours(1) == '01:00:00';") is True


# ------------------------------------------------------------------ indexing


def test_indexing(m):
    x = m.value("d = seconds(1:5); d(2) = []; d(end+1) = minutes(1); d(8) = seconds(9); x = seconds(d);")
    assert x.tolist() == [[1.0, 3.0, 4.0, 5.0, 60.0, 0.0, 0.0, 9.0]]  # duration gaps are zero
    x = m.value("d = [seconds(1); minutes(1)]; x = size(d');")
    assert x.tolist() == [[1.0, 2.0]]
    assert m.value("d = seconds([1 2; 3 4]); x = seconds(d(2, 1));") == 3.0
    assert m.value("x = isduration(seconds(1));") is True
    assert m.value("x = isduration(1);") is False


def test_nan_duration(m):
    assert math.isnan(m.value("x = seconds(seconds(NaN) + seconds(1));"))


def test_library_functions_run_on_the_milliseconds_and_keep_the_class(m):
    m.run("d = [minutes(5) seconds(30) hours(1)]; [s, k] = sort(d); total = sum(d); "
          "[mx, at] = max(d); t = datetime(2024,1,1) + days(0:2); dt = diff(t); "
          "late = max(t); r = reshape(d, 3, 1); gone = isnan(d);")
    v = m.interp.base.vars
    assert v["s"].matlab_class == "duration"
    assert v["s"].data.ravel().tolist() == [30e3, 300e3, 3600e3]
    assert v["k"].ravel().tolist() == [2, 1, 3]
    assert v["total"].data.item() == 3930e3
    assert (v["mx"].data.item(), float(v["at"])) == (3600e3, 3.0)
    assert v["dt"].matlab_class == "duration" and v["dt"].data.ravel().tolist() == [864e5, 864e5]
    assert v["late"].matlab_class == "datetime"
    assert v["r"].shape == (3, 1)
    assert v["gone"].dtype == bool and not v["gone"].any()


def test_sums_of_datetimes_are_refused(m):
    err = m.fails("sum(datetime(2024,1,1) + days(0:2))")
    assert err.identifier == "MATLAB:UndefinedFunction"


def test_horzcat_vertcat_and_cat_join_times_by_their_own_rules(m):
    m.run("x = horzcat(hours(1), hours(2)); y = cat(1, datetime(2024,1,1), datetime(2024,1,2)); "
          "z = vertcat(minutes(1), seconds(30));")
    v = m.interp.base.vars
    assert v["x"].matlab_class == "duration" and v["x"].shape == (1, 2)
    assert v["y"].matlab_class == "datetime" and v["y"].shape == (2, 1)
    assert v["z"].data.ravel().tolist() == [60e3, 30e3]
    assert m.fails("horzcat('descend', [datetime(2024,1,2) NaT])").identifier.startswith("MATLAB:datetime")


def test_complex_numbers_are_refused_as_arrays_as_they_are_as_scalars(m):
    scalar = m.fails("x = hours(1) ./ 1i;")
    array = m.fails("x = hours(1) ./ [1i 2];")
    assert scalar.identifier == array.identifier
    assert "not supported" in array.message
