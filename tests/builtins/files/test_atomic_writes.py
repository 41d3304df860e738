"""Every builtin that writes a whole file leaves an existing file as it was, and nothing
else behind, when the write fails halfway.

The failure is injected at the last step every such write shares (the rename of the
finished temporary file over the target, mlang/builtins/files/atomic.py), so the whole
file has been produced when it fails: the strongest case for a half-written file.
A second test fails the write before anything is produced: a value that cannot be written.
"""

from __future__ import annotations

import io
import os

import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter

SETUP = ("T = table([1;2], {'a';'b'}, 'VariableNames', {'N', 'Name'}); M = magic(3); "
         "C = {1, 'x'; 2, 'y'}; img = uint8(magic(8)); map = gray8; s = \"text\";")

WRITES = {
    "save v7": ("old.mat", "save('old.mat', 'M', 'C')"),
    "save v7.3": ("old.mat", "save('old.mat', 'M', 'T', '-v7.3')"),
    "save -append": ("old.mat", "save('old.mat', 'T', '-append')"),
    "save -ascii": ("old.txt", "save('old.txt', 'M', '-ascii')"),
    "writetable csv": ("old.csv", "writetable(T, 'old.csv')"),
    "writetable xlsx": ("old.xlsx", "writetable(T, 'old.xlsx')"),
    "writetable append": ("old.csv", "writetable(T, 'old.csv', 'WriteMode', 'append')"),
    "writematrix": ("old.csv", "writematrix(M, 'old.csv')"),
    "writematrix xlsx": ("old.xlsx", "writematrix(M, 'old.xlsx')"),
    "writecell": ("old.csv", "writecell(C, 'old.csv')"),
    "csvwrite": ("old.csv", "csvwrite('old.csv', M)"),
    "dlmwrite": ("old.txt", "dlmwrite('old.txt', M)"),
    "dlmwrite -append": ("old.txt", "dlmwrite('old.txt', M, '-append')"),
    "imwrite png": ("old.png", "imwrite(img, 'old.png')"),
    "imwrite gif append": ("old.gif", "imwrite(img, map, 'old.gif', 'WriteMode', 'append')"),
    "writelines": ("old.txt", "writelines(s, 'old.txt')"),
    "copyfile": ("old.txt", "copyfile('source.txt', 'old.txt')"),
}


def _session() -> Interpreter:
    it = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    it.eval("gray8 = repmat(linspace(0, 1, 256)', 1, 3);")
    it.eval(SETUP)
    return it


def _old_file(it: Interpreter, name: str) -> bytes:
    """A valid file of the kind the write produces, made before the failing write."""
    if name.endswith(".mat"):
        it.eval(f"old = 1; save('{name}', 'old');")
    elif name.endswith(".xlsx"):
        it.eval(f"writematrix([7 8 9], '{name}');")
    elif name.endswith(".png"):
        it.eval(f"imwrite(uint8(ones(4)), '{name}');")
    elif name.endswith(".gif"):
        it.eval(f"imwrite(uint8(ones(4)), gray8, '{name}');")
    else:
        with open(name, "w") as f:
            f.write("old contents\n")
    with open(name, "rb") as f:
        return f.read()


@pytest.mark.parametrize("case", sorted(WRITES))
def test_a_write_failing_at_the_end_leaves_the_old_file(case, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "source.txt").write_text("new contents\n")
    it = _session()
    name, code = WRITES[case]
    before = _old_file(it, name)
    listing = sorted(os.listdir(tmp_path))

    def disk_full(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(MatlabError):
        it.eval(code)
    monkeypatch.undo()
    assert (tmp_path / name).read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == listing  # no temporary file left


@pytest.mark.parametrize(("name", "code"), [
    ("old.mat", "save('old.mat', 'M', 'nosuchvariable')"),
    ("old.csv", "writetable(M, 'old.csv')"),
    ("old.csv", "writecell({1, {2}}, 'old.csv')"),
    ("old.png", "imwrite({1}, 'old.png')"),
    ("old.txt", "writelines(5, 'old.txt')"),
    ("old.txt", "dlmwrite('old.txt', {1})"),
])
def test_a_value_that_cannot_be_written_leaves_the_old_file(name, code, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    it = _session()
    before = _old_file(it, name)
    listing = sorted(os.listdir(tmp_path))
    with pytest.raises(MatlabError):
        it.eval(code)
    assert (tmp_path / name).read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == listing
