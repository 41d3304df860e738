"""fopen, fclose, fprintf to files, line reading, positions, fscanf, fread and fwrite."""

from __future__ import annotations

import os

import numpy as np
import pytest

from mlang.values.core import char_text


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch, m):
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    m.run("fclose('all');")


def text(v) -> str:
    return char_text(v)


def test_fprintf_writes_and_counts_bytes(m, in_tmp):
    n = m.value("fid = fopen('a.txt', 'w'); n = fprintf(fid, '%d,%d\\n', [1 2; 3 4]); fclose(fid);", "n")
    assert n == 8.0
    assert (in_tmp / "a.txt").read_bytes() == b"1,3\n2,4\n"


def test_fprintf_counts_encoded_bytes(m, in_tmp):
    n = m.value("fid = fopen('u.txt', 'w'); n = fprintf(fid, 'h\u00e9'); fclose(fid);", "n")
    assert n == 3.0
    assert (in_tmp / "u.txt").read_bytes() == "h\u00e9".encode()


def test_fids_start_at_3_and_are_reused(m):
    a, b, c = m.values("a = fopen('x', 'w'); b = fopen('y', 'w'); fclose(a); c = fopen('z', 'w');",
                       "a", "b", "c")
    assert (a, b, c) == (3.0, 4.0, 3.0)
    fids = m.value("x = fopen('all');")
    assert fids.tolist() == [[3.0, 4.0]]
    assert m.value("x = fclose('all');") == 0.0
    assert m.value("x = fopen('all');").shape == (0, 0)


def test_fopen_missing_file_gives_minus_one_and_message(m):
    fid, msg = m.values("[fid, msg] = fopen('missing.txt');", "fid", "msg")
    assert fid == -1.0
    assert text(msg) == "No such file or directory"


def test_fopen_folder_gives_minus_one(m, in_tmp):
    (in_tmp / "sub").mkdir()
    fid, msg = m.values("[fid, msg] = fopen('sub');", "fid", "msg")
    assert fid == -1.0 and text(msg) == "Is a directory"


def test_fopen_describes_open_file(m, in_tmp):
    (in_tmp / "d.txt").write_text("x")
    name, perm, fmt, enc = m.values(
        "fid = fopen('d.txt', 'r', 'b', 'latin1'); [name, perm, fmt, enc] = fopen(fid);",
        "name", "perm", "fmt", "enc")
    assert text(name) == str(in_tmp / "d.txt")
    assert (text(perm), text(fmt), text(enc)) == ("rb", "ieee-be", "ISO-8859-1")
    perm = m.value("fid = fopen('e.txt', 'wt'); [~, x] = fopen(fid);")
    assert text(perm) == "wt"
    assert m.value("x = fopen(99);").shape == (0, 0)


def test_fopen_invalid_permission(m):
    assert m.fails("fopen('a.txt', 'q')").identifier == "MATLAB:fopen:InvalidPermission"


def test_invalid_fid_errors(m):
    for code in ("fprintf(7, 'x')", "fgetl(12)", "fread(5)", "fclose(9)", "feof(3)",
                 "ftell(-1)", "fwrite(8, 1)", "fscanf(4, '%d')"):
        exc = m.fails(code)
        assert exc.identifier == "MATLAB:FileIO:InvalidFid"
        assert str(exc.exc.message) == ("Invalid file identifier. Use fopen to generate a valid "
                                        "file identifier.")


def test_fgetl_fgets_feof(m, in_tmp):
    (in_tmp / "l.txt").write_bytes(b"one\r\ntwo\nlast")
    out = m.run("""fid = fopen('l.txt');
a = fgetl(fid); b = fgets(fid); e1 = feof(fid); c = fgetl(fid); e2 = feof(fid); d = fgetl(fid);""")
    assert out == ""
    a, b, e1, c, e2, d = (m.interp.base.vars[k] for k in ("a", "b", "e1", "c", "e2", "d"))
    assert text(a) == "one" and text(b) == "two\n" and text(c) == "last"
    assert (e1, e2, d) == (0.0, 1.0, -1.0)


def test_feof_loop_reads_every_line(m, in_tmp):
    (in_tmp / "p.txt").write_text("a\nbb\nccc\n")
    out = m.run("fid = fopen('p.txt'); while ~feof(fid), disp(fgetl(fid)); end")
    assert out == "a\nbb\nccc\n"


def test_fgets_nchar_and_terminator(m, in_tmp):
    (in_tmp / "g.txt").write_text("abcdef\nxy\n")
    a, b, t = m.values("fid = fopen('g.txt'); a = fgets(fid, 4); [b, t] = fgets(fid);", "a", "b", "t")
    assert text(a) == "abcd" and text(b) == "ef\n" and text(t) == "\n"


def test_fseek_ftell_frewind_ferror(m, in_tmp):
    (in_tmp / "s.bin").write_bytes(bytes(range(10)))
    vals = m.values("""fid = fopen('s.bin');
s1 = fseek(fid, 4, 'bof'); p1 = ftell(fid); x = fread(fid, 1);
s2 = fseek(fid, -2, 'eof'); y = fread(fid, 1); s3 = fseek(fid, 1, 0); p3 = ftell(fid);
s4 = fseek(fid, -20, -1); [msg, num] = ferror(fid); frewind(fid); p5 = ftell(fid);
ferror(fid, 'clear'); msg2 = ferror(fid);""", "s1", "p1", "x", "s2", "y", "s3", "p3", "s4", "msg",
                    "num", "p5", "msg2")
    assert vals[:8] == [0.0, 4.0, 4.0, 0.0, 8.0, 0.0, 10.0, -1.0]
    assert text(vals[8]) == "Offset is bad - before beginning-of-file."
    assert vals[9] != 0.0 and vals[10] == 0.0 and vals[11].size == 0


def test_fscanf_continues_from_position(m, in_tmp):
    (in_tmp / "n.txt").write_text("3\n1.5 2.5 3.5\nrest")
    n, a, line, cnt = m.values("""fid = fopen('n.txt'); n = fscanf(fid, '%d', 1);
[a, cnt] = fscanf(fid, '%f', [1 3]); line = fgetl(fid); line = fgetl(fid);""", "n", "a", "line", "cnt")
    assert n == 3.0 and a.tolist() == [[1.5, 2.5, 3.5]] and cnt == 3.0 and text(line) == "rest"


def test_fscanf_text_and_eof(m, in_tmp):
    (in_tmp / "w.txt").write_text("hello world")
    s, e = m.values("fid = fopen('w.txt'); s = fscanf(fid, '%s'); e = feof(fid);", "s", "e")
    assert text(s) == "helloworld" and e == 1.0


def test_fwrite_fread_round_trip(m, in_tmp):
    a, n, b, c = m.values("""fid = fopen('b.bin', 'w'); fwrite(fid, [1 2 300 -5]);
fwrite(fid, [1.5 -2], 'double', 0, 'b'); fwrite(fid, int16([-3 7]), 'int16'); fclose(fid);
fid = fopen('b.bin'); [a, n] = fread(fid, 4); b = fread(fid, 2, 'double', 0, 'ieee-be');
c = fread(fid, Inf, '*int16');""", "a", "n", "b", "c")
    assert a.tolist() == [[1.0], [2.0], [255.0], [0.0]] and n == 4.0
    assert b.tolist() == [[1.5], [-2.0]]
    assert c.dtype == np.int16 and c.ravel().tolist() == [-3, 7]
    assert (in_tmp / "b.bin").read_bytes()[:4] == bytes([1, 2, 255, 0])


def test_fwrite_returns_count_and_rounds(m, in_tmp):
    n = m.value("fid = fopen('r.bin', 'w'); x = fwrite(fid, [1.4 1.6 -0.6], 'int8'); fclose(fid);")
    assert n == 3.0
    assert (in_tmp / "r.bin").read_bytes() == bytes([1, 2, 255])


def test_fread_sizes_and_outputs(m, in_tmp):
    (in_tmp / "m.bin").write_bytes(bytes(range(1, 8)))
    a, b, c, d = m.values("""fid = fopen('m.bin'); a = fread(fid, [2 Inf]); frewind(fid);
b = fread(fid, [2 2], 'uint8=>uint8'); frewind(fid); c = fread(fid, 2, 'uint8', 1); frewind(fid);
d = fread(fid, '*char')';""", "a", "b", "c", "d")
    assert a.tolist() == [[1, 3, 5, 7], [2, 4, 6, 0]]
    assert b.dtype == np.uint8 and b.tolist() == [[1, 3], [2, 4]]
    assert c.tolist() == [[1.0], [3.0]]
    assert text(d) == "".join(chr(k) for k in range(1, 8))


def test_fread_machine_format_of_fopen(m, in_tmp):
    (in_tmp / "e.bin").write_bytes(b"\x01\x02")
    assert m.value("fid = fopen('e.bin', 'r', 'b'); x = fread(fid, 1, 'uint16');") == 258.0
    assert m.value("fid = fopen('e.bin', 'r', 'l'); x = fread(fid, 1, 'uint16');") == 513.0


def test_fread_count_at_end_and_empty(m, in_tmp):
    (in_tmp / "z.bin").write_bytes(b"")
    a, n, e = m.values("fid = fopen('z.bin'); e0 = feof(fid); [a, n] = fread(fid); e = feof(fid);",
                       "a", "n", "e")
    assert a.shape == (0, 0) and n == 0.0 and e == 1.0
    assert m.interp.base.vars["e0"] == 0.0


def test_fread_utf8_chars(m, in_tmp):
    (in_tmp / "c.txt").write_bytes("h\u00e9!".encode())
    a = m.value("fid = fopen('c.txt'); x = fread(fid, 2, '*char')';")
    assert text(a) == "h\u00e9"


def test_fread_bad_precision(m, in_tmp):
    (in_tmp / "q.bin").write_bytes(b"1")
    e = m.fails("fid = fopen('q.bin'); fread(fid, 1, 'quux')")
    assert e.identifier == "MATLAB:fread:InvalidPrecision"
    assert e.exc.message == "Invalid precision."


def test_encoding_latin1_written(m, in_tmp):
    m.run("fid = fopen('l1.txt', 'w', 'n', 'ISO-8859-1'); fprintf(fid, 'caf\u00e9'); fclose(fid);")
    assert (in_tmp / "l1.txt").read_bytes() == b"caf\xe9"
    line = m.value("fid = fopen('l1.txt', 'r', 'n', 'latin1'); x = fgetl(fid);")
    assert text(line) == "caf\u00e9"


def test_append_and_read_write_modes(m, in_tmp):
    (in_tmp / "ap.txt").write_text("ab")
    m.run("fid = fopen('ap.txt', 'a'); fprintf(fid, 'cd'); fclose(fid);")
    assert (in_tmp / "ap.txt").read_text() == "abcd"
    x = m.value("fid = fopen('ap.txt', 'r+'); fseek(fid, 1, 'bof'); fwrite(fid, 'Z'); frewind(fid); "
                "x = fgetl(fid);")
    assert text(x) == "aZcd"


def test_fopen_searches_path_for_reading(m, in_tmp):
    (in_tmp / "lib").mkdir()
    (in_tmp / "lib" / "onpath.txt").write_text("found")
    x = m.value("addpath(fullfile(pwd, 'lib')); fid = fopen('onpath.txt'); x = fgetl(fid); "
                "rmpath(fullfile(pwd, 'lib'));")
    assert text(x) == "found"


def test_writes_keep_newlines(m, in_tmp):
    m.run("fid = fopen('nl.txt', 'wt'); fprintf(fid, 'a\\r\\nb\\n'); fclose(fid);")
    assert (in_tmp / "nl.txt").read_bytes() == b"a\r\nb\n"


def test_bit_precisions(m, in_tmp):
    m.run("fid = fopen('bits.bin', 'w'); fwrite(fid, [1 2 3 -1 7], 'bit4'); fclose(fid);")
    assert (in_tmp / "bits.bin").read_bytes() == bytes([0x21, 0xF3, 0x07])
    a, b, c = m.values("""fid = fopen('bits.bin'); a = fread(fid, Inf, 'ubit4'); frewind(fid);
b = fread(fid, 5, 'bit4=>int8'); fclose(fid); fid = fopen('bits.bin', 'r', 'b');
c = fread(fid, 2, 'ubit4');""", "a", "b", "c")
    assert flat_list(a) == [1, 2, 3, 15, 7, 0]
    assert b.dtype == np.int8 and flat_list(b) == [1, 2, 3, -1, 7]
    assert flat_list(c) == [2, 1]


def flat_list(a) -> list:
    return np.asarray(a).ravel(order="F").tolist()


def test_utf16_text_round_trip(m, in_tmp):
    a, b = m.values("""fid = fopen('u16.txt', 'w', 'n', 'UTF-16LE'); fprintf(fid, 'ab\\n');
fprintf(fid, 'c\\n'); fclose(fid); fid = fopen('u16.txt', 'r', 'n', 'UTF-16LE');
a = fgetl(fid); b = fgetl(fid);""", "a", "b")
    assert (text(a), text(b)) == ("ab", "c")
    assert (in_tmp / "u16.txt").read_bytes() == "ab\nc\n".encode("utf-16-le")


def test_unknown_encoding_warns_and_uses_utf8(m):
    enc = m.value("fid = fopen('k.txt', 'w', 'n', 'no-such-code'); [~, ~, ~, x] = fopen(fid);")
    assert text(enc) == "UTF-8"
    assert "not supported" in m.err.getvalue()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may open any file")
def test_fopen_without_permission(m, in_tmp):
    (in_tmp / "locked.txt").write_text("x")
    os.chmod(in_tmp / "locked.txt", 0)
    fid, msg = m.values("[fid, msg] = fopen('locked.txt');", "fid", "msg")
    assert fid == -1.0 and text(msg) == "Permission denied"


def test_fwrite_to_standard_output(m):
    assert m.run("fwrite(1, 'hi');") == "hi"


def test_failed_seek_keeps_position(m, in_tmp):
    (in_tmp / "k.bin").write_bytes(b"abcdef")
    s, p = m.values("fid = fopen('k.bin'); fseek(fid, 2, 'bof'); s = fseek(fid, -10, 'eof'); p = ftell(fid);",
                    "s", "p")
    assert (s, p) == (-1.0, 2.0)
