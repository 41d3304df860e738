"""addpath, rmpath, pwd, cd, dir, ls."""

from __future__ import annotations

import os
import re
from datetime import datetime

import pytest

from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import CHAR, char_rows, to_str
from mlang.values.struct import Struct

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def test_addpath_makes_functions_in_a_folder_callable(m, tmp_path):
    (tmp_path / "triple.m").write_text("function y = triple(x)\ny = 3*x;\nend\n")
    m.fails("y = triple(2);")
    assert m.value(f"addpath('{tmp_path}'); x = triple(2);") == 6.0
    assert m.interp.path[0] == str(tmp_path)
    m.run(f"rmpath('{tmp_path}');")
    m.fails("y = triple(2);")


def test_addpath_puts_folders_first_unless_end(m, tmp_path):
    a, b, c = (tmp_path / name for name in "abc")
    for folder in (a, b, c):
        folder.mkdir()
    m.interp.path.clear()
    m.run(f"addpath('{a}'); addpath('{b}'); addpath('{c}', '-end');")
    assert m.interp.path == [str(b), str(a), str(c)]
    old = m.value(f"x = addpath('{a}');")
    assert to_str(old) == os.pathsep.join([str(b), str(a), str(c)])
    assert m.interp.path == [str(a), str(b), str(c)]  # moved to the top, not duplicated
    m.interp.path.clear()


def test_addpath_of_a_missing_folder_warns(m, tmp_path):
    m.run(f"addpath('{tmp_path / 'missing'}');")
    assert "Name is nonexistent or not a directory" in m.err.getvalue()


def test_two_interpreters_have_their_own_paths(tmp_path):
    first, second = Interpreter(), Interpreter()
    first.eval(f"addpath('{tmp_path}');")
    assert first.path == [str(tmp_path)] and second.path == []


def test_pwd(m):
    assert to_str(m.value("x = pwd;")) == os.getcwd()


# ------------------------------------------------------------------------ cd


def test_cd_alone_shows_the_current_folder(m, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert m.run("cd") == os.getcwd() + "\n\n"
    assert to_str(m.value("x = cd;")) == os.getcwd()


def test_cd_changes_the_current_folder(m, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    start = os.getcwd()
    assert m.run("cd sub") == ""
    assert os.getcwd() == os.path.join(start, "sub")
    m.run("cd('deeper')")
    assert os.getcwd() == os.path.join(start, "sub", "deeper")
    m.run("cd ../..")
    assert os.getcwd() == start
    m.run(f"cd {tmp_path / 'sub'}")
    assert os.getcwd() == os.path.join(start, "sub")
    m.run('cd("..")')
    assert os.getcwd() == start


def test_cd_returns_the_previous_folder(m, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    start = os.getcwd()
    old = m.value("x = cd('sub');")
    assert to_str(old) == start and os.getcwd() == os.path.join(start, "sub")
    m.run("cd(x)", x=old)
    assert os.getcwd() == start


def test_cd_tilde_is_the_home_folder(m, tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(home))
    m.run("cd ~")
    assert os.getcwd() == os.path.realpath(home)


def test_cd_makes_functions_of_the_new_folder_callable(m, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "quadruple.m").write_text("function y = quadruple(x)\ny = 4*x;\nend\n")
    m.fails("y = quadruple(2);")
    assert m.value("cd tools; x = quadruple(2);") == 8.0
    m.run("cd ..")
    m.fails("y = quadruple(2);")


def test_cd_to_a_missing_folder_is_an_error(m, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file.txt").write_text("x")
    err = m.fails("cd no_such_folder")
    assert err.identifier == "MATLAB:cd:NonExistentFolder"
    assert err.message == "Cannot CD to no_such_folder (Name is nonexistent or not a directory)."
    assert m.fails("cd file.txt").identifier == "MATLAB:cd:NonExistentFolder"
    assert os.getcwd() == str(tmp_path)


# ------------------------------------------------------------------- dir, ls


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A current folder holding a.m, bb.txt and an empty folder sub."""
    (tmp_path / "a.m").write_text("x = 1;\n")
    (tmp_path / "bb.txt").write_text("hello")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_dir_lists_the_current_folder_in_columns(m, files):
    assert m.run("dir") == "\n.       ..      a.m     bb.txt  sub     \n\n"
    assert m.run("dir .") == m.run("dir")


def test_dir_of_a_folder_a_pattern_and_a_file(m, files):
    assert m.run("dir sub") == "\n.   ..  \n\n"
    assert m.run("dir *.m") == "\na.m  \n\n"
    assert m.run("dir('*b*')") == "\nbb.txt  sub     \n\n"
    assert m.run("dir bb.txt") == "\nbb.txt  \n\n"
    assert m.run(f"dir {files / '*.txt'}") == "\nbb.txt  \n\n"
    assert m.run("dir nothing*") == ""
    assert m.run("dir no_such_thing") == ""


def test_dir_wraps_long_listings_at_80_columns(m, tmp_path, monkeypatch):
    names = [f"file{k:06d}.dat" for k in range(10)]  # 14 characters: 16 columns, 5 a line
    for n in names:
        (tmp_path / n).write_text("")
    monkeypatch.chdir(tmp_path)
    rows = [".", "..", *names]
    lines = ["".join(n.ljust(16) for n in rows[i:i + 5]) for i in range(0, len(rows), 5)]
    assert m.run("dir") == "\n" + "\n".join(lines) + "\n\n"


def test_dir_returns_a_struct_array(m, files):
    s = m.value("x = dir;")
    assert type(s) is Struct and s.shape == (5, 1)
    assert s.fields == ["name", "folder", "date", "bytes", "isdir", "datenum"]
    entries = {to_str(s.element(k)["name"]): s.element(k) for k in range(5)}
    assert list(entries) == [".", "..", "a.m", "bb.txt", "sub"]
    txt = entries["bb.txt"]
    assert to_str(txt["folder"]) == str(files)
    assert txt["bytes"] == 5.0 and txt["isdir"] is False
    assert entries["sub"]["isdir"] is True and entries["sub"]["bytes"] == 0.0
    assert entries["."]["isdir"] is True
    date = to_str(txt["date"])
    assert re.fullmatch(r"\d\d-[A-Z][a-z]{2}-\d{4} \d\d:\d\d:\d\d", date)
    modified = datetime.fromtimestamp((files / "bb.txt").stat().st_mtime)
    assert date == modified.strftime("%d-") + MONTHS[modified.month - 1] + modified.strftime("-%Y %H:%M:%S")
    expected = modified.toordinal() + 366 + (modified.hour * 3600 + modified.minute * 60
                                              + modified.second + modified.microsecond / 1e6) / 86400
    assert abs(txt["datenum"] - expected) < 1e-6


def test_dir_output_of_a_pattern_and_of_nothing(m, files):
    one = m.value("x = dir('*.m');")
    assert one.shape == (1, 1) and to_str(one.element(0)["name"]) == "a.m"
    none = m.value("x = dir('nothing*');")
    assert type(none) is Struct and none.shape == (0, 1) and "datenum" in none.fields


def test_ls_prints_names_without_dots(m, files):
    assert m.run("ls") == "a.m     bb.txt  sub     \n"
    assert m.run("ls *.txt") == "bb.txt  \n"
    assert m.run("ls sub") == ""


def test_ls_returns_a_char_matrix(m, files):
    names = m.value("x = ls;")
    assert names.dtype == CHAR and names.shape == (3, 6)
    assert char_rows(names) == ["a.m   ", "bb.txt", "sub   "]
    empty = m.value("x = ls('sub');")
    assert empty.shape == (0, 0) and empty.dtype == CHAR


def test_dir_and_ls_need_text(m, files):
    assert m.fails("dir(3)").identifier == "MATLAB:invalidInput"
    assert m.fails("ls({1})").identifier == "MATLAB:invalidInput"


def test_run_a_script_by_path_in_its_folder_then_back(m, tmp_path, monkeypatch):
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "twice.m").write_text("y = 2 * x;\nwhere = pwd;\n")
    monkeypatch.chdir(tmp_path)
    m.run("x = 4; run sub/twice; a = where; run('sub/twice.m'); back = pwd;")
    assert m.interp.get("y") == 8.0
    assert m.interp.get("a") == str(sub)
    assert m.interp.get("back") == str(tmp_path)


def test_run_a_script_by_name_on_the_path(m, tmp_path):
    (tmp_path / "setvals.m").write_text("z = 11;\n")
    m.interp.path.append(str(tmp_path))
    try:
        m.run("run setvals")
        assert m.interp.get("z") == 11.0
    finally:
        m.interp.path.remove(str(tmp_path))
        m.interp.invalidate()


@pytest.mark.parametrize("name", ["nosuch", "nowhere/nosuch.m", "bad-name.m"])
def test_run_something_missing_is_matlabs_error(m, name):
    err = m.fails(f"run('{name}')")
    assert err.identifier == "MATLAB:run:FileNotFound"
    assert err.message == f"RUN cannot execute the file '{name}'. RUN requires a valid MATLAB script"
