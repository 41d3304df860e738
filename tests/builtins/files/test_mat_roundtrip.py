"""save then load keeps every value's class, size, complexity and data (-v7, -v6, -v7.3, -v4)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.builtins.files.mat_helpers import same

pytest.importorskip("h5py")

VALUES = r"""
d = [1 2; 3 4]; ds = 5; sg = single([1.5 2]); i8 = int8([-1 2]); u8 = uint8(200); i16 = int16(-3);
u16 = uint16(7); i32 = int32(-9); u32 = uint32(9); i64 = -int64(2)^62; u64 = intmax('uint64');
lg = [true false; false true]; lg1 = true; ch = 'hello'; chm = ['ab';'cd']; cu = ['üé€' 55357 56832];
cz = ['a' char(0) 'b']; z = [1+2i, 3-4i]; zs = single(1i); zz = 2i;
c = {1, 'ab'; {int8(5), {}}, []}; s.a = 1; s.b = {'x'}; s.n.deep = [1 2 3];
sa = struct('f', {1, 'two', []}); es = struct('a', {}); e00 = []; e10 = zeros(1,0); e03 = zeros(0,3);
ec = cell(0,3); ech = ''; ech10 = char(zeros(1,0)); ei8 = int8(zeros(0,2)); elg = true(0,1);
sp = sparse([1 0; 0 2.5]); spz = sparse([1i 0; 0 2]); spl = sparse([true false; false true]); spe = sparse(3,4);
nd = reshape(1:24, 2, 3, 4); ndc = cat(3, {1}, {2}); fs = struct(); ndi = reshape(uint8(1:8), 2, 2, 2);
nan_inf = [NaN Inf -Inf]; ssa = repmat(struct('p', 1, 'q', 'r'), 2, 2);
"""


@pytest.mark.parametrize("version", ["-v7", "-v6", "-v7.3", "-nocompression"])
def test_every_class_round_trips(m, tmp_path, monkeypatch, version):
    monkeypatch.chdir(tmp_path)
    m.run(VALUES)
    originals = dict(m.interp.base.vars)
    m.run(VALUES + f"save('all.mat', '{version}'); clear; load all.mat")
    loaded = m.interp.base.vars
    assert set(loaded) == set(originals)
    bad = [n for n in originals if not same(originals[n], loaded[n])]
    assert bad == []
    assert m.err.getvalue() == ""


@pytest.mark.parametrize("version", ["-v7", "-v7.3"])
def test_struct_output_keeps_the_file_order(m, tmp_path, monkeypatch, version):
    monkeypatch.chdir(tmp_path)
    m.run(f"b = 1; a = 'x'; save('f.mat', 'b', 'a', '{version}'); S = load('f.mat'); n = fieldnames(S);")
    names = [m.interp.base.vars["n"].data[k, 0].view(np.uint16).tobytes().decode("utf-16-le") for k in range(2)]
    assert sorted(names) == ["a", "b"]
    assert m.value("b = 1; a = 'x'; save('f.mat', 'b', 'a'); S = load('f.mat'); x = S.b;") == 1.0


def test_v4_keeps_matrices_and_text(m, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = "d = [1 2; 3 4]; z = [1i 2]; ch = ['ab';'cd']; sp = sparse([0 1; 2 0]); e = zeros(0,3);"
    m.run(code)
    originals = dict(m.interp.base.vars)
    m.run(code + "save('v4.mat', '-v4'); clear; load v4.mat")
    assert all(same(originals[n], m.interp.base.vars[n]) for n in originals)


def test_v4_leaves_out_what_it_cannot_hold(m, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    m.run("c = {1}; x = int8(3); save('v4.mat', '-v4'); clear; load v4.mat")
    assert "c" not in m.interp.base.vars
    assert m.interp.base.vars["x"] == 3.0  # version 4 keeps numbers as double
    assert "Variable 'c' was not saved" in m.err.getvalue()


def test_dlarray_is_saved_as_its_data(m, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    x = m.value("d = dlarray([1 2 3]); save f.mat d; clear d; load f.mat; x = d;")
    assert same(x, np.array([[1.0, 2.0, 3.0]]))
