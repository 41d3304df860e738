"""fileread, readlines, writelines and type on text files."""

from __future__ import annotations

import os

import pytest

from mlang.values.core import char_text


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def strings(v) -> list:
    return list(v.data.ravel(order="F"))


def test_fileread_keeps_bytes_exact(m, in_tmp):
    (in_tmp / "f.txt").write_bytes("a\r\nb\u00e9\n".encode())
    x = m.value("x = fileread('f.txt');")
    assert x.shape == (1, 6) and char_text(x) == "a\r\nb\u00e9\n"


def test_fileread_encoding(m, in_tmp):
    (in_tmp / "l.txt").write_bytes(b"caf\xe9")
    assert char_text(m.value("x = fileread('l.txt', 'Encoding', 'ISO-8859-1');")) == "caf\u00e9"
    (in_tmp / "w.txt").write_bytes("\u20ac".encode("cp1252"))
    assert char_text(m.value("x = fileread('w.txt', 'Encoding', 'windows-1252');")) == "\u20ac"


def test_fileread_empty_file(m, in_tmp):
    (in_tmp / "e.txt").write_bytes(b"")
    assert m.value("x = fileread('e.txt');").shape == (0, 0)


def test_fileread_missing_file(m):
    exc = m.fails("fileread('nope.txt')")
    assert exc.identifier == "MATLAB:fileread:cannotOpenFile"
    assert exc.exc.message == "Could not open file nope.txt. No such file or directory."


def test_fileread_folder(m, in_tmp):
    (in_tmp / "d").mkdir()
    assert m.fails("fileread('d')").identifier == "MATLAB:fileread:cannotOpenFile"


def test_readlines_default_and_trailing_line(m, in_tmp):
    (in_tmp / "r.txt").write_bytes(b"one\r\n  two \n\nthree\n")
    x = m.value("x = readlines('r.txt');")
    assert x.shape == (5, 1)
    assert strings(x) == ["one", "  two ", "", "three", ""]


def test_readlines_rules(m, in_tmp):
    (in_tmp / "r.txt").write_bytes(b"one\n  two \n\nthree")
    x = m.value("x = readlines('r.txt', 'EmptyLineRule', 'skip', 'WhitespaceRule', 'trim');")
    assert strings(x) == ["one", "two", "three"]
    x = m.value("x = readlines('r.txt', 'WhitespaceRule', 'trimleading');")
    assert strings(x)[1] == "two "
    x = m.value("x = readlines('r.txt', 'LineEnding', 'o');")
    assert strings(x)[0] == ""
    assert m.fails("readlines('r.txt', 'EmptyLineRule', 'error')").identifier == "MATLAB:textio:io:EmptyLine"


def test_readlines_missing(m):
    exc = m.fails("readlines('nope.txt')")
    assert exc.identifier == "MATLAB:textio:textio:FileNotFound"
    assert "Unable to find or open 'nope.txt'" in exc.exc.message


def test_writelines_overwrite_append(m, in_tmp):
    m.run('writelines(["a"; "b"], "w.txt");')
    assert (in_tmp / "w.txt").read_bytes() == b"a\nb\n"
    m.run("writelines({'c', 'd'}, 'w.txt', 'WriteMode', 'append', 'LineEnding', '\\r\\n');")
    assert (in_tmp / "w.txt").read_bytes() == b"a\nb\nc\r\nd\r\n"
    m.run("writelines('only', 'w.txt');")
    assert (in_tmp / "w.txt").read_bytes() == b"only\n"


def test_writelines_round_trip_with_readlines(m, in_tmp):
    x = m.value('writelines(["x"; "\u00fc"], "rt.txt"); x = readlines("rt.txt", "EmptyLineRule", "skip");')
    assert strings(x) == ["x", "\u00fc"]


def test_writelines_failure_leaves_file_and_no_temporary(m, in_tmp, monkeypatch):
    (in_tmp / "keep.txt").write_bytes(b"old\n")

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    exc = m.fails('writelines(["new"; "txt"], "keep.txt")')
    assert exc.identifier.startswith("MATLAB:textio:")
    assert (in_tmp / "keep.txt").read_bytes() == b"old\n"
    assert sorted(p.name for p in in_tmp.iterdir()) == ["keep.txt"]


def test_writelines_bad_folder(m):
    assert m.fails("writelines('x', '/no/such/folder/a.txt')").identifier.startswith("MATLAB:textio:")


def test_type_prints_text_file(m, in_tmp):
    (in_tmp / "notes.txt").write_text("line 1\nline 2\n")
    assert m.run("type notes.txt") == "\nline 1\nline 2\n\n"
    assert m.run("type('notes.txt')") == "\nline 1\nline 2\n\n"
    (in_tmp / "data.csv").write_text("1,2")
    assert m.run("type data.csv") == "\n1,2\n\n"
