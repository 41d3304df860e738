"""load and save: their forms, ASCII files, -append, -struct, errors, atomic writes,
matfile and whos -file."""

from __future__ import annotations

import builtins
import os

import numpy as np
import pytest

from mlang.builtins.files import mat_values
from tests.builtins.files.mat_helpers import same


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def variables(m):
    return m.interp.base.vars


# ------------------------------------------------------------------ forms of load


def test_command_and_function_forms(m, here):
    m.run("a = 1; b = 2; ab = 3; save f.mat; clear; load f.mat a")
    assert set(variables(m)) == {"a"}
    m.run("load('f.mat', 'a', 'b')")
    assert set(variables(m)) == {"a", "b"}
    m.run("load f.mat a*")
    assert set(variables(m)) == {"a", "ab"}
    m.run("load f.mat -regexp ^a.$")
    assert set(variables(m)) == {"ab"}
    m.run("load f")  # .mat added
    assert set(variables(m)) == {"a", "b", "ab"}


def test_load_alone_reads_matlab_mat(m, here):
    m.run("q = 7; save; clear; load")
    assert os.path.isfile(here / "matlab.mat")
    assert variables(m) == {"q": 7.0}


def test_output_is_a_struct(m, here):
    out = m.run("x = [1 2]; y = 'z'; save f.mat; clear; S = load('f.mat', 'x')")
    assert out == "\nS = \n\n  struct with fields:\n\n    x: [1 2]\n\n"


def test_missing_variable_warns(m, here):
    m.run("x = 1; save f.mat x; clear; load f.mat x nope")
    assert variables(m) == {"x": 1.0}
    assert m.err.getvalue() == "Warning: Variable 'nope' not found.\n"
    assert m.interp.lastwarn[1] == "MATLAB:load:variableNotFound"


def test_load_inside_a_function_fills_its_workspace(m, here):
    (here / "f.m").write_text("function y = f()\nload data.mat\ny = v * 2;\nend\n")
    m.run("v = 21; save data.mat v; clear; r = f();")
    assert variables(m) == {"r": 42.0}


# ------------------------------------------------------------------ forms of save


def test_save_named_wildcards_and_regexp(m, here):
    m.run("x1 = 1; x2 = 2; y = 3; save a.mat x*; save('b.mat', '-regexp', '^y'); clear;"
          "A = load('a.mat'); B = load('b.mat');")
    assert variables(m)["A"].fields == ["x1", "x2"]
    assert variables(m)["B"].fields == ["y"]


def test_mat_extension_is_added(m, here):
    m.run("x = 1; save results x; save('other.data', 'x')")
    assert os.path.isfile(here / "results.mat") and os.path.isfile(here / "other.data")
    assert m.value("x = load('other.data', '-mat'); x = x.x;") == 1.0


def test_struct_option(m, here):
    m.run("s.a = 1; s.b = 'two'; s.c = {3}; save('f.mat', '-struct', 's'); clear; load f.mat")
    assert set(variables(m)) == {"a", "b", "c"}
    m.run("s.a = 1; s.b = 'two'; save('g.mat', '-struct', 's', 'b'); clear; load g.mat")
    assert set(variables(m)) == {"b"}


@pytest.mark.parametrize("version", ["-v7", "-v6", "-v7.3", "-v4"])
def test_append_adds_and_replaces(m, here, version):
    m.run(f"a = 1; b = 2; save('f.mat', 'a', 'b', '{version}'); b = 20; c = 30;"
          "save('f.mat', 'b', 'c', '-append'); clear; S = load('f.mat');")
    s = variables(m)["S"]
    assert {f: s.element(0)[f] for f in s.fields} == {"a": 1.0, "b": 20.0, "c": 30.0}
    assert not [p for p in os.listdir(here) if p.endswith(".part")]


def test_append_keeps_variables_mlang_cannot_read(m, here):
    # a stored function handle written by another program survives -append byte for byte
    import scipy.io

    scipy.io.savemat(here / "f.mat", {"keep": np.array([[1.0, 2.0]])})
    m.run("n = 5; save('f.mat', 'n', '-append'); S = load('f.mat');")
    assert variables(m)["S"].fields == ["keep", "n"]


def test_append_creates_a_missing_file(m, here):
    m.run("a = 1; save('new.mat', 'a', '-append'); clear; load new")
    assert variables(m) == {"a": 1.0}


# ------------------------------------------------------------------------- ASCII


def test_ascii_round_trip_and_variable_name(m, here):
    m.run("d = [1 -2.5; 3e10 NaN]; save('1st-data.txt', 'd', '-ascii'); clear; load 1st-data.txt")
    assert list(variables(m)) == ["X1st_data"]
    assert same(variables(m)["X1st_data"], np.array([[1.0, -2.5], [3e10, np.nan]]))
    text = (here / "1st-data.txt").read_text()
    assert text == "   1.0000000e+00  -2.5000000e+00\n   3.0000000e+10             NaN\n"


def test_ascii_double_and_tabs(m, here):
    m.run("d = [1/3 2]; save('a.txt', 'd', '-ascii', '-double', '-tabs')")
    assert (here / "a.txt").read_text() == "3.3333333333333331e-01\t2.0000000000000000e+00\n"


def test_ascii_comments_commas_and_output(m, here):
    (here / "data.txt").write_text("% header\n1, 2 3 % note\n\n4\t5 6\n")
    assert same(m.value("x = load('data.txt');"), np.array([[1.0, 2, 3], [4, 5, 6]]))


def test_ascii_ragged_rows(m, here):
    (here / "bad.txt").write_text("1 2\n3\n")
    exc = m.fails("x = load('bad.txt');")
    assert exc.identifier == "MATLAB:load:numColumnsNotSame"
    assert "Number of columns on line 2" in exc.message


def test_ascii_skips_cells_with_a_warning(m, here):
    m.run("c = {1}; x = 1; save('a.txt', '-ascii')")
    assert "Variable 'c' of class 'cell' not written" in m.err.getvalue()
    assert (here / "a.txt").read_text() == "   1.0000000e+00\n"


# ------------------------------------------------------------------------ errors


def test_missing_file(m, here):
    exc = m.fails("load nosuch.mat")
    assert (exc.identifier, exc.message) == ("MATLAB:load:couldNotReadFile",
                                             "Unable to find file or directory 'nosuch.mat'.")


def test_folder_instead_of_file(m, here):
    os.mkdir(here / "folder.mat")
    assert m.fails("load folder.mat").identifier == "MATLAB:load:couldNotReadFile"


def test_not_a_mat_file(m, here):
    (here / "text.mat").write_text("hello world\n")
    exc = m.fails("load text.mat")
    assert exc.identifier == "MATLAB:load:notBinaryFile"
    assert "Not a binary MAT-file" in exc.message


def test_corrupt_mat_file(m, here):
    m.run("x = rand(50); save f.mat x")
    data = (here / "f.mat").read_bytes()
    (here / "f.mat").write_bytes(data[:200])
    assert m.fails("load f.mat").identifier == "MATLAB:load:unableToReadMatFile"


def test_save_unknown_variable(m, here):
    exc = m.fails("x = 1; save f.mat x nope")
    assert (exc.identifier, exc.message) == ("MATLAB:save:couldNotFindVariable", "Variable 'nope' not found.")
    assert not os.path.exists(here / "f.mat")


def test_save_struct_option_needs_a_scalar_struct(m, here):
    assert m.fails("x = 1; save('f.mat', '-struct', 'x')").identifier == \
        "MATLAB:save:structArgMustBeScalarStructure"


def test_save_into_a_missing_folder(m, here):
    exc = m.fails("x = 1; save nodir/f.mat x")
    assert (exc.identifier, exc.message) == ("MATLAB:save:noParentDir",
                                             "Cannot create 'f.mat' because 'nodir' does not exist.")


def test_save_onto_a_folder(m, here):
    os.mkdir(here / "d.mat")
    assert m.fails("x = 1; save d.mat x").identifier == "MATLAB:save:couldNotWriteFile"


# --------------------------------------------------------------- atomic writes


def test_failure_before_writing_leaves_the_old_file(m, here, monkeypatch):
    m.run("x = 1; save f.mat x")
    before = (here / "f.mat").read_bytes()
    real = mat_values.to_writable
    calls = []

    def failing(value, v4=False, objects=None):
        calls.append(value)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(value, v4, objects)

    monkeypatch.setattr("mlang.builtins.files.mat_load_save.to_writable", failing)
    exc = m.fails("a = 1; b = 2; c = 3; save f.mat")
    assert exc.identifier == "MATLAB:save:couldNotWriteFile"
    assert (here / "f.mat").read_bytes() == before
    assert os.listdir(here) == ["f.mat"]


def test_write_error_during_the_write_leaves_the_old_file(m, here, monkeypatch):
    m.run("x = 1; save f.mat x")
    before = (here / "f.mat").read_bytes()

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("zlib.compress", broken)
    exc = m.fails("x = 2; y = 3; save f.mat")
    assert exc.message == "Unable to write file f.mat: No space left on device."
    assert (here / "f.mat").read_bytes() == before
    assert os.listdir(here) == ["f.mat"]


def test_v73_write_error_leaves_the_old_file(m, here, monkeypatch):
    pytest.importorskip("h5py")
    m.run("x = 1; save('f.mat', 'x', '-v7.3')")
    before = (here / "f.mat").read_bytes()
    from mlang.builtins.files import mat_hdf5

    def broken(self, group, name, value):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(mat_hdf5._Writer, "_cell", broken)
    assert m.fails("x = 2; y = {1}; save('f.mat', '-v7.3')").identifier == "MATLAB:save:couldNotWriteFile"
    assert (here / "f.mat").read_bytes() == before
    assert os.listdir(here) == ["f.mat"]


# ------------------------------------------------------------------ optional h5py


def test_v73_without_h5py(m, here, monkeypatch):
    real_import = builtins.__import__

    def no_h5py(name, *args, **kwargs):
        if name == "h5py":
            raise ImportError("No module named 'h5py'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_h5py)
    exc = m.fails("x = 1; save('f.mat', 'x', '-v7.3')")
    assert "pip install 'mlang[hdf5]'" in exc.message
    assert not os.path.exists(here / "f.mat")


def test_loading_v73_without_h5py(m, here, monkeypatch):
    pytest.importorskip("h5py")
    m.run("x = 1; save('f.mat', 'x', '-v7.3')")
    real_import = builtins.__import__

    def no_h5py(name, *args, **kwargs):
        if name == "h5py":
            raise ImportError("No module named 'h5py'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_h5py)
    assert "pip install 'mlang[hdf5]'" in m.fails("load f.mat").message


# -------------------------------------------------------------- whos, matfile


def test_whos_file(m, here):
    m.run("x = [1 2 3]; c = {1}; save f.mat; clear")
    out = m.run("whos -file f.mat")
    assert out == ("  Name      Size            Bytes  Class     Attributes\n\n"
                   "  c         1x1               120  cell                \n"
                   "  x         1x3                24  double              \n\n")
    assert variables(m) == {}


def test_matfile_reads_variables(m, here):
    m.run("x = magic(3); save f.mat x; clear; mf = matfile('f.mat'); r = mf.x(2,:); src = mf.Properties.Source;")
    assert same(variables(m)["r"], np.array([[3.0, 5.0, 7.0]]))
    assert variables(m)["src"].view(np.uint16).tobytes().decode("utf-16-le") == str(here / "f.mat")
    assert m.fails("mf = matfile('f.mat'); y = mf.nope;").identifier == "MATLAB:MatFile:VariableNotInFile"


def test_unsupported_classes_are_skipped_with_a_warning(m, here):
    m.run("mp = containers.Map(); x = 1; save f.mat; clear; load f.mat")
    assert variables(m) == {"x": 1.0}
    assert m.interp.lastwarn[1] == "MATLAB:save:unsupportedClass"
    assert "class 'containers.Map'" in m.err.getvalue()


def test_whos_file_of_a_missing_file(m, here):
    assert m.fails("whos -file nosuch.mat").identifier == "MATLAB:load:couldNotReadFile"


def test_load_into_a_declared_global(m, here):
    m.run("g = 5; save f.mat g")
    m.run("global g; load f.mat")
    assert m.interp.globals["g"] == 5.0
    m.run("clear global")


def test_save_without_permission(m, here, monkeypatch):
    m.run("x = 1; save f.mat x")
    before = (here / "f.mat").read_bytes()

    def refuse(source, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("os.replace", refuse)
    exc = m.fails("x = 2; save f.mat x")
    assert (exc.identifier, exc.message) == ("MATLAB:save:permissionDenied",
                                             "Unable to write file f.mat: permission denied.")
    assert (here / "f.mat").read_bytes() == before
    assert os.listdir(here) == ["f.mat"]


def test_unknown_option(m, here):
    assert m.fails("x = 1; save -bogus f.mat x").identifier == "MATLAB:save:unknownOption"
