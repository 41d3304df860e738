"""save and load MATLAB objects (string, datetime, duration, table, categorical) and function
handles: round trips in every MAT-file version, the stored layout, append, atomic writes, and a
file written by another program (data/matio_objects_v7.mat, see data/README.md)."""

from __future__ import annotations

import os
import shutil
import struct
from pathlib import Path

import numpy as np
import pytest

from mlang.builtins.files import mat_load_save, mat_objects, mat_values
from mlang.builtins.files.mat_subsystem import OBJECT_MARK, Subsystem, SubsystemBuilder
from mlang.builtins.files.mat_values import read_mat5
from mlang.values.core import char_row
from mlang.values.string import StringArray
from mlang.values.table import Table
from mlang.values.time_calendar import DEFAULT_DATE_FORMAT
from mlang.values.time_datetime import DatetimeArray
from mlang.values.time_duration import DurationArray

DATA = Path(__file__).parent / "data"
VERSIONS = ["-v7", "-v6", "-v7.3"]

VALUES = r"""
s1 = "hello"; s2 = ["ab", "c"; "déf", ""]; s2(2,2) = missing; s0 = strings(0,3); se = strings(0,0);
s3 = strings(2,1,2); s3(2,1,2) = "z😀";
d1 = datetime(2024,1,2,3,4,5.25); d1(2) = NaT; dz = datetime(2024,3,10,12,0,0,'TimeZone','America/New_York');
df = datetime(2024,1,2,'Format','yyyy-MM-dd'); de = NaT(0,3);
du = minutes([1 2; 3 4]); du.Format = 'm'; dd = seconds(1.5);
T = table([1;2], ["x";"y"], 'VariableNames', {'A','B'}, 'RowNames', {'r1','r2'});
T.Properties.VariableUnits = {'m', 's'}; T.Properties.Description = 'desc'; T.Properties.UserData = {1};
T.Properties.VariableDescriptions = {'da', 'db'}; T.Properties.DimensionNames = {'Obs', 'Vars'};
T2 = table(datetime(2020,1,1:2)', seconds([1;2]), {'p';'q'});
T0 = table();
h = @sin; k = categorical({'a','b','a',''}); ko = categorical({'lo','hi'},{'lo','hi'},'Ordinal',true);
c = {s2, 1; d1, {dd}}; st.when = d1; st.t = T2; st.f = @cos;
"""


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _strings(value):
    assert type(value) is StringArray
    return value.data.tolist()


def _check_values(v):
    assert _strings(v["s1"]) == [["hello"]]
    assert _strings(v["s2"]) == [["ab", "c"], ["déf", None]]
    assert v["s0"].shape == (0, 3) and v["se"].shape == (0, 0)
    assert v["s3"].shape == (2, 1, 2) and v["s3"].data[1, 0, 1] == "z😀" and v["s3"].data[0, 0, 0] == ""
    d1 = v["d1"]
    assert type(d1) is DatetimeArray and d1.shape == (1, 2) and d1.zone == ""
    assert d1.data[0, 0] == 1704164645250.0 and np.isnan(d1.data[0, 1])
    assert v["dz"].zone == "America/New_York" and v["dz"].data[0, 0] == 1710086400000.0
    assert v["df"].fmt == "yyyy-MM-dd" and v["de"].shape == (0, 3)
    assert type(v["du"]) is DurationArray and v["du"].fmt == "m"
    assert v["du"].data.tolist() == [[60000.0, 120000.0], [180000.0, 240000.0]]
    assert v["dd"].data.tolist() == [[1500.0]]
    t = v["T"]
    assert type(t) is Table and t.names == ["A", "B"] and t.row_names == ["r1", "r2"]
    assert t.variable_units == ["m", "s"] and t.variable_descriptions == ["da", "db"]
    assert t.description == "desc" and t.dimension_names == ("Obs", "Vars")
    assert t.user_data.data[0, 0] == 1.0
    assert t.variables[0].tolist() == [[1.0], [2.0]] and _strings(t.variables[1]) == [["x"], ["y"]]
    t2 = v["T2"]
    assert t2.names == ["Var1", "Var2", "Var3"] and t2.row_names is None and t2.nrows == 2
    assert type(t2.variables[0]) is DatetimeArray and type(t2.variables[1]) is DurationArray
    assert v["T0"].shape == (0, 0)
    assert v["h"].name == "sin"
    assert v["k"].codes.tolist() == [[1, 2, 1, 0]] and v["k"].names == ["a", "b"] and not v["k"].ordinal
    assert v["ko"].names == ["lo", "hi"] and v["ko"].ordinal and v["ko"].protected
    c = v["c"]
    assert _strings(c.data[0, 0]) == [["ab", "c"], ["déf", None]] and type(c.data[1, 0]) is DatetimeArray
    assert type(c.data[1, 1].data[0, 0]) is DurationArray
    st = v["st"].element(0)
    assert type(st["when"]) is DatetimeArray and type(st["t"]) is Table and st["f"].name == "cos"


@pytest.mark.parametrize("version", VERSIONS)
def test_objects_round_trip(m, here, version):
    if version == "-v7.3":
        pytest.importorskip("h5py")
    m.run(VALUES + f"save('f.mat', '{version}'); clear; load f.mat")
    _check_values(m.interp.base.vars)
    assert m.err.getvalue() == ""  # no warning: nothing is written as something else


def test_loaded_values_work_as_before(m, here):
    m.run(VALUES + "save f.mat")
    out = m.run('load f.mat; disp(T.B(2)); disp(height(T2)); disp(h(0)); disp(s2(1,2) + "!")')
    assert out.split() == ["y", "2", "0", "c!"]


def test_display_of_a_loaded_table(m, here):
    made = m.run("T = table([1;2], [\"x\";\"y\"], 'VariableNames', {'A','B'}); save f.mat T; T")
    assert m.run("load f.mat; T") == made
    assert made.endswith("\n    A     B \n    _    ___\n\n    1    \"x\"\n    2    \"y\"\n\n")


def test_string_saved_as_string_object_without_warning(m, here):
    m.run('s = ["ab" "c"]; save f.mat s; clear s; load f.mat')
    assert _strings(m.interp.base.vars["s"]) == [["ab", "c"]]
    assert m.err.getvalue() == ""


# ------------------------------------------------------------------- the stored layout


def _raw(path):
    found = read_mat5(str(path))
    system = found.get("__function_workspace__")
    return found, None if system is None else np.asarray(system, dtype=np.uint8).tobytes()


def test_stored_reference_and_subsystem_layout(m, here):
    m.run('s = ["ab", "c"]; s(3) = missing; d = datetime(2024,1,2); save f.mat s d')
    found, system = _raw(here / "f.mat")
    # the variable: an opaque MCOS object whose data is the reference
    record = found["s"][0]
    assert bytes(record["s1"]) == b"MCOS" and bytes(record["s2"]) == b"string"
    assert np.asarray(record["arr"]).ravel().tolist() == [OBJECT_MARK, 2, 1, 1, 1, 1]
    assert np.asarray(found["d"][0]["arr"]).ravel().tolist() == [OBJECT_MARK, 2, 1, 1, 2, 2]
    # the header points at the subsystem data, which starts with its own small header
    raw = (here / "f.mat").read_bytes()
    offset = struct.unpack("<Q", raw[116:124])[0]
    assert 128 < offset < len(raw)
    assert system[:8] == b"\x00\x01IM\x00\x00\x00\x00"
    cells = mat_values._subsystem_cells(system)
    metadata = np.asarray(cells[0], dtype=np.uint8).ravel().tobytes()
    assert np.asarray(cells[0]).shape[1] == 1  # a uint8 column
    words = np.frombuffer(metadata, "<u4")
    assert words[0] == 4 and words[1] == 6  # version, number of names
    subsystem = Subsystem(metadata, cells)
    assert subsystem.names == ["any", "string", "data", "tz", "fmt", "datetime"]
    assert subsystem.class_name(1) == "string" and subsystem.class_name(2) == "datetime"
    # objects: (class, 0, 0, type-1 id, type-2 id, dependency): strings are type 1
    objects = np.frombuffer(metadata, "<u4", count=18, offset=int(words[4])).tolist()
    assert objects == [0] * 6 + [1, 0, 0, 1, 0, 1] + [2, 0, 0, 0, 1, 2]
    any_words = np.asarray(subsystem.properties(1)["any"]).ravel().tolist()
    assert any_words == [1, 2, 1, 3, 2, 1, 0xFFFFFFFFFFFFFFFF, 0x63_0062_0061]
    props = subsystem.properties(2)
    assert sorted(props) == ["data", "fmt", "tz"]
    assert np.asarray(props["data"]).tolist() == [[1704153600000.0]]
    assert np.asarray(cells[-2]).ravel().tolist() == [0, 0, 0]  # one per class, plus one
    assert len(cells) == 2 + 4 + 3


def test_nested_object_is_a_bare_reference_in_the_subsystem(m, here):
    m.run('T = table(["x";"y"]); save f.mat T')
    _, system = _raw(here / "f.mat")
    cells = mat_values._subsystem_cells(system)
    metadata = np.asarray(cells[0], dtype=np.uint8).ravel().tobytes()
    data = Subsystem(metadata, cells).properties(1)["data"]
    inner = data.ravel()[0]
    assert inner.dtype == np.uint32 and inner.ravel().tolist() == [OBJECT_MARK, 2, 1, 1, 2, 1]


def test_builder_metadata_offsets():
    builder = SubsystemBuilder()
    first = builder.start()
    builder.finish(first, "duration", [("millis", np.zeros((1, 1))), ("fmt", np.zeros((1, 0)))])
    metadata = builder.metadata()
    words = np.frombuffer(metadata, "<u4")
    offsets = words[2:10].tolist()
    assert offsets == sorted(offsets) and offsets[-1] == len(metadata)
    assert all(o % 8 == 0 for o in offsets)
    assert offsets[1] == offsets[2]  # no type-1 objects: no type-1 region
    # the type-2 region: an empty block, then n = 2 and two (name, 1, cell) triples
    assert np.frombuffer(metadata[offsets[3]:offsets[4]], "<u4").tolist() == [0, 0, 2, 1, 1, 0, 2, 1, 1, 0]


def test_categorical_layout(m, here):
    m.run("k = categorical({'x','y','x'}); save f.mat k")
    _, system = _raw(here / "f.mat")
    cells = mat_values._subsystem_cells(system)
    metadata = np.asarray(cells[0], dtype=np.uint8).ravel().tobytes()
    props = Subsystem(metadata, cells).properties(1)
    assert sorted(props) == ["categoryNames", "codes", "isOrdinal", "isProtected"]
    assert props["codes"].dtype == np.uint8 and props["codes"].tolist() == [[1, 2, 1]]
    assert props["categoryNames"].shape == (2, 1)


def test_function_handle_layout(m, here):
    m.run("h = @sin; save f.mat h")
    found, _ = _raw(here / "f.mat")
    record = np.asarray(found["h"]).reshape(-1)[0]
    assert record.dtype.names == ("matlabroot", "separator", "sentinel", "function_handle")
    inner = np.asarray(record["function_handle"]).reshape(-1)[0]
    assert "".join(inner["function"].ravel()) == "sin" and "".join(inner["type"].ravel()) == "simple"


def test_v73_layout(m, here):
    h5py = pytest.importorskip("h5py")
    m.run('s = "ab"; h = @sin; save f.mat s h -v7.3')
    with h5py.File(here / "f.mat", "r") as f:
        s = f["s"]
        assert s.attrs["MATLAB_class"] == b"string" and s.attrs["MATLAB_object_decode"] == 3
        assert s[()].tolist() == [[OBJECT_MARK, 2, 1, 1, 1, 1]]
        wrapper = f["#subsystem#"]["MCOS"]
        assert wrapper.attrs["MATLAB_class"] == b"FileWrapper__" and wrapper.shape == (1, 6)
        assert f[wrapper[0, 1]].attrs["MATLAB_class"] == b"canonical empty"
        assert f["h"].attrs["MATLAB_class"] == b"function_handle"


# ------------------------------------------------------------------- other programs' files


def test_file_written_by_another_program(m, here):
    shutil.copy(DATA / "matio_objects_v7.mat", here / "o.mat")
    m.run("load o.mat")
    v = m.interp.base.vars
    assert _strings(v["s"]) == [["ab", "c"], ["déf", None]]
    assert v["dt"].data[0, 0] == 1704164645123.0 and np.isnan(v["dt"].data[0, 1])
    assert v["du"].data.ravel().tolist() == [1500.0, 3600000.0]
    t = v["tb"]
    assert t.names == ["A", "B"] and t.row_names == ["r1", "r2"]
    assert t.variables[0].ravel().tolist() == [1.0, 2.0]
    assert m.err.getvalue() == ""


def test_unknown_class_is_skipped_with_a_warning(m, here):
    m.run('s = "ab"; x = 1; save g.mat s x -v6')
    # the variable's class and the subsystem's differ: not a value mlang can trust
    raw = (here / "g.mat").read_bytes().replace(b"string", b"strinG", 1)
    (here / "g.mat").write_bytes(raw)
    m.run("load g.mat")
    assert "s" not in m.interp.base.vars and m.interp.base.vars["x"] == 1.0
    assert m.interp.lastwarn[1] == "MATLAB:load:cannotLoadClass"


# ------------------------------------------------------------------- append


@pytest.mark.parametrize("version", ["-v7", "-v7.3"])
def test_append_objects_to_a_file_with_objects(m, here, version):
    if version == "-v7.3":
        pytest.importorskip("h5py")
    m.run(f'a = "one"; d = datetime(2020,1,1); x = 5; save(\'f.mat\', \'a\', \'d\', \'x\', \'{version}\')')
    m.run('clear; b = ["two" "three"]; a = "ONE"; save f.mat a b -append')
    m.run("clear; load f.mat")
    v = m.interp.base.vars
    assert _strings(v["a"]) == [["ONE"]] and _strings(v["b"]) == [["two", "three"]]
    assert v["d"].data[0, 0] == 1577836800000.0 and v["x"] == 5.0
    assert m.err.getvalue() == ""


@pytest.mark.parametrize("version", ["-v7", "-v7.3"])
def test_append_plain_values_keeps_the_objects(m, here, version):
    if version == "-v7.3":
        pytest.importorskip("h5py")
    m.run(f"T = table([1;2]); save('f.mat', 'T', '{version}'); clear; y = 2; save f.mat y -append")
    m.run("clear; load f.mat")
    assert m.interp.base.vars["T"].nrows == 2 and m.interp.base.vars["y"] == 2.0


def test_append_objects_to_a_file_without_objects(m, here):
    m.run("x = 1; save f.mat x; s = \"new\"; save f.mat s -append; clear; load f.mat")
    assert m.interp.base.vars["x"] == 1.0 and _strings(m.interp.base.vars["s"]) == [["new"]]


def test_append_to_a_file_with_unreadable_objects_keeps_it(m, here):
    m.run('s = "ab"; x = 1; save f.mat s x -v6')
    raw = (here / "f.mat").read_bytes().replace(b"string", b"strinG", 1)
    (here / "f.mat").write_bytes(raw)
    m.run('clear; t = "new"; y = 2; save f.mat t y -append')
    assert m.interp.lastwarn[1] == "MATLAB:save:unsupportedClass"
    assert (here / "f.mat").read_bytes().count(b"strinG") == 1  # the old object kept as it was
    m.run("clear; load f.mat")
    v = m.interp.base.vars
    assert "t" not in v and v["y"] == 2.0 and v["x"] == 1.0


# ------------------------------------------------------------------- atomic writes and errors


def test_failure_while_writing_objects_leaves_the_old_file(m, here, monkeypatch):
    m.run("x = 1; save f.mat x")
    before = (here / "f.mat").read_bytes()

    def failing(objects):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(mat_load_save, "subsystem_bytes", failing)
    exc = m.fails('s = "ab"; save f.mat s')
    assert exc.identifier == "MATLAB:save:couldNotWriteFile"
    assert (here / "f.mat").read_bytes() == before
    assert os.listdir(here) == ["f.mat"]
    exc = m.fails('s = "ab"; save f.mat s -append')
    assert exc.identifier == "MATLAB:save:couldNotWriteFile"
    assert (here / "f.mat").read_bytes() == before and os.listdir(here) == ["f.mat"]


def test_v4_cannot_hold_objects(m, here):
    m.run('s = "ab"; x = 1; save f.mat s x -v4; clear; load f.mat')
    assert "s" not in m.interp.base.vars and m.interp.base.vars["x"] == 1.0
    assert m.interp.lastwarn[1] == "MATLAB:save:unsupportedClass"


def test_anonymous_function_is_not_saved(m, here):
    m.run("f = @(x) x + 1; x = 1; save f.mat; clear; load f.mat")
    assert "f" not in m.interp.base.vars and m.interp.base.vars["x"] == 1.0
    assert "Variable 'f' was not saved" in m.err.getvalue()


def test_whos_file_and_matfile_see_objects(m, here):
    m.run('s = "ab"; T = table(1); save f.mat s T; o = matfile("f.mat"); v = o.s;')
    assert _strings(m.interp.base.vars["v"]) == [["ab"]]


@pytest.mark.parametrize("version", ["-v7", "-v7.3"])
def test_object_holding_a_value_the_file_cannot_hold_is_not_saved(m, here, version):
    if version == "-v7.3":
        pytest.importorskip("h5py")
    m.run(f"T = table({{containers.Map()}}); c = {{\"ok\"}}; save('f.mat', 'T', 'c', '{version}'); clear; load f.mat")
    v = m.interp.base.vars
    assert "T" not in v and _strings(v["c"].data[0, 0]) == [["ok"]]
    assert "Variable 'T' was not saved" in m.err.getvalue()


def test_table_with_an_unreadable_variable_is_skipped(m, here):
    m.run('T = table(["x";"y"]); x = 1; save f.mat T x -v6')
    raw = (here / "f.mat").read_bytes()
    (here / "f.mat").write_bytes(raw.replace(b"string\x00", b"strinG\x00", 1))
    m.run("load f.mat")
    assert "T" not in m.interp.base.vars and m.interp.base.vars["x"] == 1.0
    assert "Cannot load variable 'T': mlang cannot represent values of class 'strinG'." in m.err.getvalue()


def test_datetime_as_newer_releases_store_it(m, here, monkeypatch):
    # the part below a millisecond as the imaginary part, the default format '' and isDateOnly
    def stored(value):
        return [("data", np.array([[1.5e12 + 0.25j]])), ("tz", char_row("")), ("fmt", char_row("")),
                ("isDateOnly", np.array([[True]]))]

    with monkeypatch.context() as patch:
        patch.setattr(mat_objects, "_properties", stored)
        m.run("d = datetime(2020,1,1); save f.mat d")
    m.run("load f.mat")
    d = m.interp.base.vars["d"]
    assert d.data.tolist() == [[1.5e12 + 0.25]] and d.fmt == DEFAULT_DATE_FORMAT and d.zone == ""
