"""File names and folders: fullfile, fileparts, isfile/isfolder, mkdir, rmdir, delete,
copyfile, movefile, tempdir, tempname, dir and exist."""

from __future__ import annotations

import os

import numpy as np
import pytest

from mlang.values.cell import Cell
from mlang.values.core import char_text
from mlang.values.string import StringArray


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def text(v) -> str:
    if type(v) is StringArray:
        return v.scalar_text()
    return char_text(v)


def cell_texts(v: Cell) -> list[str]:
    return [char_text(x) for x in v.data.ravel(order="F")]


# ------------------------------------------------------------------ names


def test_fullfile_joins_with_one_separator(m):
    assert text(m.value("x = fullfile('myfolder','mysubfolder','myfile.m');")) == \
        "myfolder/mysubfolder/myfile.m"
    assert text(m.value("x = fullfile('a/', '/b', 'c');")) == "a/b/c"


def test_fullfile_keeps_leading_and_trailing_separators(m):
    assert text(m.value("x = fullfile('/home','u', filesep);")) == "/home/u/"
    assert text(m.value("x = fullfile('//server', 'share');")) == "//server/share"


def test_fullfile_collapses_inner_dot_but_not_double_dot(m):
    assert text(m.value("x = fullfile('/f1', './f2', '../f3/.');")) == "/f1/f2/../f3/."


def test_fullfile_skips_empty_parts(m):
    assert text(m.value("x = fullfile('', 'a', '', 'b');")) == "a/b"
    assert m.value("x = fullfile('', '');").shape == (0, 0)


def test_fullfile_cell_gives_cell_of_its_shape(m):
    x = m.value("x = fullfile('/m', {'f1.m';'f2.m'});")
    assert type(x) is Cell and x.shape == (2, 1)
    assert cell_texts(x) == ["/m/f1.m", "/m/f2.m"]


def test_fullfile_string_gives_string(m):
    x = m.value('x = fullfile("a", \'b\');')
    assert type(x) is StringArray and x.scalar_text() == "a/b"
    y = m.value('x = fullfile("d", ["a.m" "b.m"]);')
    assert type(y) is StringArray and list(y.data.ravel()) == ["d/a.m", "d/b.m"]


def test_fullfile_bad_input(m):
    assert m.fails("fullfile('a', struct())").identifier == "MATLAB:fullfile:InvalidInputType"
    e = m.fails("fullfile({'a','b'}, {'c';'d';'e'})")
    assert e.identifier == "MATLAB:fullfile:CellstrSizeMismatch"


def test_fileparts_char(m):
    p, n, e = m.values("[p, n, e] = fileparts('/home/user4/matlab/myfile.txt');", "p", "n", "e")
    assert (text(p), text(n), text(e)) == ("/home/user4/matlab", "myfile", ".txt")
    p, n, e = m.values("[p, n, e] = fileparts('myfile');", "p", "n", "e")
    assert p.shape == (0, 0) and text(n) == "myfile" and e.shape == (0, 0)
    p, n, e = m.values("[p, n, e] = fileparts('/a.b/file.tar.gz');", "p", "n", "e")
    assert (text(p), text(n), text(e)) == ("/a.b", "file.tar", ".gz")


def test_fileparts_root_and_hidden_file(m):
    p, n, e = m.values("[p, n, e] = fileparts('/x.m');", "p", "n", "e")
    assert (text(p), text(n), text(e)) == ("/", "x", ".m")
    p, n, e = m.values("[p, n, e] = fileparts('.bashrc');", "p", "n", "e")
    assert text(n) == "" and text(e) == ".bashrc"


def test_fileparts_string_gives_strings(m):
    p, n, e = m.values('[p, n, e] = fileparts("data.csv");', "p", "n", "e")
    assert all(type(v) is StringArray for v in (p, n, e))
    assert (p.scalar_text(), n.scalar_text(), e.scalar_text()) == ("", "data", ".csv")


def test_fileparts_bad_input(m):
    assert m.fails("fileparts(3)").identifier == "MATLAB:fileparts:MustBeChar"


def test_separators(m):
    assert text(m.value("x = filesep;")) == os.sep
    assert text(m.value("x = pathsep;")) == os.pathsep


def test_isfile_isfolder(m, here):
    (here / "f.txt").write_text("x")
    (here / "d").mkdir()
    assert m.value("x = isfile('f.txt');") is True
    assert m.value("x = isfile('d');") is False
    assert m.value("x = isfolder('d');") is True
    assert m.value("x = isfolder('f.txt');") is False
    assert m.value("x = isdir('d');") is True
    x = m.value("x = isfile({'f.txt', 'd', 'none'});")
    assert x.tolist() == [[True, False, False]]
    y = m.value('x = isfolder(["d"; "f.txt"]);')
    assert y.tolist() == [[True], [False]]


# ------------------------------------------------------------------ mkdir, rmdir


def test_mkdir_creates_nested_folders(m, here):
    m.run("mkdir a/b/c")
    assert (here / "a" / "b" / "c").is_dir()
    m.run("mkdir('p', 'q')")
    assert (here / "p" / "q").is_dir()


def test_mkdir_outputs(m, here):
    s, msg, ident = m.values("[s, msg, id] = mkdir('new');", "s", "msg", "id")
    assert s is True and msg.shape == (0, 0) and ident.shape == (0, 0)
    s, msg, ident = m.values("[s, msg, id] = mkdir('new');", "s", "msg", "id")
    assert s is True and text(msg) == "Directory already exists."
    assert text(ident) == "MATLAB:MKDIR:DirectoryExists"


def test_mkdir_existing_warns(m, here):
    (here / "d").mkdir()
    out = m.run("mkdir d")
    assert out == ""
    assert m.err.getvalue() == "Warning: Directory already exists.\n"
    assert m.interp.lastwarn == ("Directory already exists.", "MATLAB:MKDIR:DirectoryExists")


def test_mkdir_over_a_file_fails(m, here):
    (here / "f").write_text("x")
    assert m.fails("mkdir f").identifier == "MATLAB:MKDIR:OSError"
    s = m.value("s = mkdir('f');", "s")
    assert s is False


def test_rmdir(m, here):
    (here / "e").mkdir()
    m.run("rmdir e")
    assert not (here / "e").exists()


def test_rmdir_not_empty(m, here):
    (here / "full").mkdir()
    (here / "full" / "x.txt").write_text("x")
    e = m.fails("rmdir full")
    assert e.identifier == "MATLAB:RMDIR:DirectoryNotRemoved"
    assert e.exc.message == "'full' was not removed. The directory must be empty before removing."
    s, msg, ident = m.values("[s, msg, id] = rmdir('full');", "s", "msg", "id")
    assert s is False and text(ident) == "MATLAB:RMDIR:DirectoryNotRemoved"
    s = m.value("s = rmdir('full', 's');", "s")
    assert s is True and not (here / "full").exists()


def test_rmdir_missing(m, here):
    # MathWorks' code treats MATLAB:RMDIR:NotADirectory as "already removed".
    assert m.fails("rmdir nothing").identifier == "MATLAB:RMDIR:NotADirectory"
    (here / "plain.txt").write_text("x")
    s, ident = m.values("[s, ~, id] = rmdir('plain.txt');", "s", "id")
    assert s is False and text(ident) == "MATLAB:RMDIR:NotADirectory"
    assert (here / "plain.txt").is_file()
    assert m.fails("rmdir('x', 'q')").identifier == "MATLAB:RMDIR:InvalidOption"


# ------------------------------------------------------------------ delete


def test_delete_files_and_wildcards(m, here):
    for name in ("a.txt", "b.txt", "c.m", "d.m"):
        (here / name).write_text("x")
    m.run("delete a.txt")
    assert not (here / "a.txt").exists()
    m.run("delete *.m")
    assert sorted(os.listdir(here)) == ["b.txt"]
    (here / "e.dat").write_text("x")
    m.run("delete('b.txt', 'e.dat')")
    assert os.listdir(here) == []


def test_delete_missing_warns(m, here):
    m.run("delete nothing.txt")
    assert m.err.getvalue() == "Warning: File 'nothing.txt' not found.\n"
    assert m.interp.lastwarn == ("File 'nothing.txt' not found.", "MATLAB:DELETE:FileNotFound")


def test_delete_folder_warns(m, here):
    # MATLAB:DELETE:DirectoryDeletion is a warning (scripts turn it off, or into an error).
    (here / "d").mkdir()
    (here / "f.txt").write_text("x")
    m.run("delete('d', 'f.txt')")
    assert m.interp.lastwarn[1] == "MATLAB:DELETE:DirectoryDeletion"
    assert (here / "d").is_dir() and not (here / "f.txt").exists()


# ------------------------------------------------------------------ copy and move


def test_copyfile_file_and_into_folder(m, here):
    (here / "a.txt").write_text("alpha")
    (here / "out").mkdir()
    m.run("copyfile a.txt b.txt")
    assert (here / "b.txt").read_text() == "alpha"
    m.run("copyfile('a.txt', 'out')")
    assert (here / "out" / "a.txt").read_text() == "alpha"


def test_copyfile_wildcard_makes_folder(m, here):
    for name in ("x.m", "y.m", "z.txt"):
        (here / name).write_text(name)
    s = m.value("s = copyfile('*.m', 'backup');", "s")
    assert s is True
    assert sorted(os.listdir(here / "backup")) == ["x.m", "y.m"]


def test_copyfile_folder_copies_contents(m, here):
    (here / "src" / "deep").mkdir(parents=True)
    (here / "src" / "deep" / "f.txt").write_text("f")
    m.run("copyfile src dst")
    assert (here / "dst" / "deep" / "f.txt").read_text() == "f"


def test_copyfile_force_overwrites_read_only(m, here):
    (here / "a.txt").write_text("new")
    target = here / "b.txt"
    target.write_text("old")
    target.chmod(0o444)
    m.run("copyfile('a.txt', 'b.txt', 'f')")
    assert target.read_text() == "new"


def test_copyfile_missing_source(m, here):
    e = m.fails("copyfile nothing.txt x.txt")
    assert e.identifier == "MATLAB:COPYFILE:FileNotFound"
    assert e.exc.message == "No matching files named nothing.txt were found."
    s, msg, ident = m.values("[s, msg, id] = copyfile('nothing.txt', 'x.txt');", "s", "msg", "id")
    assert s is False and text(ident) == "MATLAB:COPYFILE:FileNotFound"


def test_copyfile_onto_itself(m, here):
    (here / "a.txt").write_text("a")
    e = m.fails("copyfile a.txt a.txt")
    assert e.identifier == "MATLAB:COPYFILE:SourceAndDestinationSame"


def test_movefile_renames_and_moves(m, here):
    (here / "a.txt").write_text("a")
    m.run("movefile a.txt b.txt")
    assert not (here / "a.txt").exists() and (here / "b.txt").read_text() == "a"
    (here / "c.dat").write_text("c")
    (here / "d.dat").write_text("d")
    m.run("movefile *.dat store")
    assert sorted(os.listdir(here / "store")) == ["c.dat", "d.dat"]
    (here / "folder").mkdir()
    m.run("movefile folder store")
    assert (here / "store" / "folder").is_dir()


def test_movefile_missing(m, here):
    e = m.fails("movefile none.txt x.txt")
    assert e.identifier == "MATLAB:MOVEFILE:FileNotFound"
    assert m.fails("movefile('a', 'b', 'g')").identifier == "MATLAB:MOVEFILE:InvalidFlag"


# ------------------------------------------------------------------ temporary names


def test_tempdir_and_tempname(m):
    d = text(m.value("x = tempdir;"))
    assert d.endswith(os.sep) and os.path.isdir(d)
    a, b = m.values("a = tempname; b = tempname;", "a", "b")
    assert text(a).startswith(d + "tp") and text(a) != text(b)
    assert not os.path.exists(text(a))
    c = m.value("x = tempname('/data');")
    assert text(c).startswith("/data/tp")
    assert type(m.value('x = tempname("/data");')) is StringArray


# ------------------------------------------------------------------ dir


def _listing(here):
    (here / "sub" / "deep").mkdir(parents=True)
    for p in ("a.txt", "b.m", "sub/c.txt", "sub/deep/d.txt"):
        (here / p).write_text("12345")


def names(listing) -> list[str]:
    return [char_text(listing.element(k)["name"]) for k in range(listing.elems.size)]


def test_dir_struct_fields(m, here):
    _listing(here)
    d = m.value("x = dir('a.txt');")
    assert d.fields == ["name", "folder", "date", "bytes", "isdir", "datenum"]
    e = d.element(0)
    assert char_text(e["name"]) == "a.txt" and char_text(e["folder"]) == str(here)
    assert e["bytes"] == 5.0 and e["isdir"] is False and e["datenum"] > 738000


def test_dir_folder_and_pattern(m, here):
    _listing(here)
    assert names(m.value("x = dir;")) == [".", "..", "a.txt", "b.m", "sub"]
    assert names(m.value("x = dir('*.m');")) == ["b.m"]
    assert names(m.value("x = dir('sub/*.txt');")) == ["c.txt"]
    assert m.value("x = dir('*.none');").shape == (0, 1)


def test_dir_recursive(m, here):
    _listing(here)
    d = m.value("x = dir('**/*.txt');")
    assert names(d) == ["a.txt", "c.txt", "d.txt"]
    folders = [char_text(d.element(k)["folder"]) for k in range(3)]
    assert folders == [str(here), str(here / "sub"), str(here / "sub" / "deep")]


def test_dir_display(m, here):
    _listing(here)
    assert m.run("dir *.txt") == "\na.txt  \n\n"
    out = m.run("dir **/*.txt")
    assert out == (f"\nFiles Found in: {here}\n\na.txt  \n"
                   f"\nFiles Found in: {here}/sub\n\nc.txt  \n"
                   f"\nFiles Found in: {here}/sub/deep\n\nd.txt  \n\n")


def test_dir_missing_warns(m, here):
    m.run("dir nothing")
    assert "Name is nonexistent or not a directory: nothing" in m.err.getvalue()


# ------------------------------------------------------------------ exist


def test_exist_files_and_folders(m, here):
    _listing(here)
    got = m.value(f"x = [exist('a.txt') exist('sub') exist('{here}/a.txt') exist('sub/c.txt') "
                  "exist('sub', 'file') exist('sub', 'dir') exist('a.txt', 'dir') exist('none')];")
    assert np.asarray(got).tolist() == [[2, 7, 2, 2, 7, 7, 0, 0]]


def test_exist_on_the_search_path(m, here):
    _listing(here)
    (here / "elsewhere").mkdir()
    m.run(f"addpath('{here}/sub/deep');")
    try:
        assert m.value("x = exist('d.txt');") == 2.0
    finally:
        m.run(f"rmpath('{here}/sub/deep');")


def test_copyfile_failing_halfway_keeps_the_old_file(m, here, monkeypatch):
    import shutil

    (here / "a.txt").write_text("new contents")
    (here / "b.txt").write_text("old")

    def broken_copy(source, target, **kwargs):
        with open(target, "w") as f:
            f.write("half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(shutil, "copy2", broken_copy)
    e = m.fails("copyfile a.txt b.txt")
    assert e.identifier == "MATLAB:COPYFILE:OSError"
    assert e.exc.message == "No space left on device."
    assert (here / "b.txt").read_text() == "old"
    assert sorted(os.listdir(here)) == ["a.txt", "b.txt"]


def test_movefile_to_another_file_system_failing_halfway_keeps_both_files(m, here, monkeypatch):
    import errno
    import shutil

    (here / "a.txt").write_text("new contents")
    (here / "b.txt").write_text("old")

    def cross_device(source, target):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    def broken_copy(source, target, **kwargs):
        with open(target, "w") as f:
            f.write("half")
        raise OSError(28, "No space left on device")

    # a rename across file systems fails, so the move copies, and the copy fails halfway
    monkeypatch.setattr(os, "rename", cross_device)
    monkeypatch.setattr(shutil, "copy2", broken_copy)
    e = m.fails("movefile a.txt b.txt")
    assert e.identifier == "MATLAB:MOVEFILE:OSError"
    assert (here / "b.txt").read_text() == "old"
    assert (here / "a.txt").read_text() == "new contents"
    assert sorted(os.listdir(here)) == ["a.txt", "b.txt"]
