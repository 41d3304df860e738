"""load reads MAT-files written by other programs: SciPy (versions 4, 5/7) and h5py in
the layout MATLAB gives version 7.3 files."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.io
import scipy.sparse

from tests.builtins.files.mat_helpers import same


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("compress", [False, True])
def test_scipy_version_5_file(m, here, compress):
    cell = np.empty((1, 2), dtype=object)
    cell[0, 0] = np.array([[1.0]])
    cell[0, 1] = np.array(["text"])
    record = np.empty((1, 1), dtype=[("a", object), ("b", object)])
    record[0, 0] = (np.array([[1, 2]], dtype=np.int16), np.array(["hi"]))
    scipy.io.savemat(here / "f.mat", {
        "d": np.arange(6.0).reshape(2, 3), "i": np.array([[3]], dtype=np.uint8), "t": "abc",
        "z": np.array([[1 + 2j]]), "c": cell, "s": record, "b": np.array([[True, False]]),
        "sp": scipy.sparse.csc_matrix(np.eye(2)), "u": "üñ"}, do_compression=compress)
    m.run("load f.mat")
    v = m.interp.base.vars
    assert same(v["d"], np.arange(6.0).reshape(2, 3))
    assert v["i"].dtype == np.uint8 and v["i"][0, 0] == 3
    assert m.value("load f.mat; x = [t '|' u];").view(np.uint16).tobytes().decode("utf-16-le") == "abc|üñ"
    assert v["z"] == 1 + 2j
    assert m.value("load f.mat; x = c{2};").view(np.uint16).tobytes().decode("utf-16-le") == "text"
    assert same(m.value("load f.mat; x = s.a;"), np.array([[1, 2]], dtype=np.int16))
    assert same(m.value("load f.mat; x = b;"), np.array([[True, False]]))
    assert m.value("load f.mat; x = full(sp(2,2));") == 1.0


def test_scipy_version_4_file(m, here):
    scipy.io.savemat(here / "old.mat", {"a": np.array([[1.0, 2.0], [3.0, 4.0]]), "t": np.array(["ab"])},
                     format="4")
    assert same(m.value("load old.mat; x = a;"), np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert m.value("load old.mat; x = t;").view(np.uint16).tolist() == [[97, 98]]


def _attrs(ds, cls, **extra):
    ds.attrs["MATLAB_class"] = np.bytes_(cls)
    for k, v in extra.items():
        ds.attrs[k] = v
    return ds


def test_matlab_v73_layout(m, here):
    h5py = pytest.importorskip("h5py")
    path = here / "v73.mat"
    with h5py.File(path, "w", userblock_size=512) as f:
        _attrs(f.create_dataset("A", data=np.arange(6.0).reshape(3, 2)), "double")  # 2x3 in MATLAB
        _attrs(f.create_dataset("name", data=np.array([[104], [105]], dtype=np.uint16)), "char",
               MATLAB_int_decode=np.int32(2))
        _attrs(f.create_dataset("flag", data=np.array([[1]], dtype=np.uint8)), "logical")
        _attrs(f.create_dataset("none", data=np.array([0, 3], dtype=np.uint64)), "double",
               MATLAB_empty=np.uint8(1))
        refs = f.create_group("#refs#")
        _attrs(refs.create_dataset("a", data=np.array([[7.0]])), "double")
        _attrs(refs.create_dataset("b", data=np.array([[8]], dtype=np.int32)), "int32")
        cell = np.empty((2, 1), dtype=h5py.ref_dtype)  # a 1x2 cell in MATLAB
        cell[0, 0], cell[1, 0] = refs["a"].ref, refs["b"].ref
        _attrs(f.create_dataset("C", data=cell), "cell")
        g = _attrs(f.create_group("S"), "struct")
        _attrs(g.create_dataset("x", data=np.array([[5.0]])), "double")
        cplx = np.zeros((1, 1), dtype=[("real", np.float64), ("imag", np.float64)])
        cplx["real"], cplx["imag"] = 1, -1
        _attrs(f.create_dataset("Z", data=cplx), "double")
    with open(path, "r+b") as f:
        f.write(b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: today HDF5 schema 1.00 .".ljust(116)
                + b"\0" * 8 + b"\x00\x02IM")
    m.run("load v73.mat")
    v = m.interp.base.vars
    assert same(v["A"], np.arange(6.0).reshape(3, 2).T)
    assert v["name"].view(np.uint16).tolist() == [[104, 105]]
    assert v["flag"] is True
    assert same(v["none"], np.zeros((0, 3)))
    assert v["C"].shape == (1, 2) and v["C"].data[0, 0] == 7.0 and v["C"].data[0, 1].dtype == np.int32
    assert v["S"].element(0)["x"] == 5.0
    assert v["Z"] == 1 - 1j
    assert m.value("S = load('v73.mat', 'A'); x = size(S.A);").tolist() == [[2.0, 3.0]]


def test_mlang_v73_file_has_the_matlab_header(m, here):
    pytest.importorskip("h5py")
    m.run("x = 1; save('f.mat', 'x', '-v7.3')")
    head = (here / "f.mat").read_bytes()[:128]
    assert head.startswith(b"MATLAB 7.3 MAT-file") and head[124:128] == b"\x00\x02IM"
    assert (here / "f.mat").read_bytes()[512:520] == b"\x89HDF\r\n\x1a\n"


def test_mlang_v7_file_reads_in_scipy(m, here):
    m.run("x = [1 2; 3 4]; t = ['ab'; 'cd']; c = {1, 'q'}; s.f = int8(3); save f.mat")
    got = scipy.io.loadmat(here / "f.mat")
    assert np.array_equal(got["x"], [[1, 2], [3, 4]])
    assert got["t"].tolist() == ["ab", "cd"]
    assert got["s"]["f"][0, 0].dtype == np.int8


def _scipy_data(name):
    import os

    import scipy.io.matlab as matlab

    path = os.path.join(os.path.dirname(matlab.__file__), "tests", "data", name)
    if not os.path.isfile(path):
        pytest.skip("SciPy's test files are not installed")
    return path


def test_matlab_function_handles(m, here):
    import shutil

    shutil.copy(_scipy_data("some_functions.mat"), here / "fh.mat")
    m.run("S = load('fh.mat'); x = func2str(S.nCf);")
    assert m.interp.base.vars["x"].view(np.uint16).tobytes().decode("utf-16-le") == "nCountFun"
    assert m.interp.base.vars["S"].fields == ["a", "b", "c", "nCf"]
    # anonymous handles keep their captured workspace in an object mlang cannot decode
    assert "Cannot load variable 'parabola'" in m.err.getvalue()


def test_matlab_object_is_skipped_with_a_warning(m, here):
    import shutil

    shutil.copy(_scipy_data("testobject_7.4_GLNX86.mat"), here / "obj.mat")
    m.run("x = 1; load obj.mat")
    assert m.interp.base.vars == {"x": 1.0}
    assert m.interp.lastwarn[1] == "MATLAB:load:cannotLoadClass"


def _copy_scipy_data(name, here):
    import shutil

    shutil.copy(_scipy_data(name), here / name)
    return name


def test_files_written_by_matlab(m, here):
    # genuine MATLAB files shipped with SciPy's tests: version 7.3 (HDF5), unicode text,
    # a struct array, complex sparse, and a big-endian version 6 file
    for name in ("testhdf5_7.4_GLNX86.mat", "testunicode_7.4_GLNX86.mat", "teststructarr_7.4_GLNX86.mat",
                 "testsparsecomplex_7.4_GLNX86.mat", "testdouble_6.1_SOL2.mat", "teststring_6.1_SOL2.mat"):
        _copy_scipy_data(name, here)
    v = m.interp.base.vars
    m.run("load testhdf5_7.4_GLNX86.mat")
    assert np.allclose(v["testdouble"], np.linspace(0, 2 * np.pi, 9).reshape(1, 9))
    m.run("load testunicode_7.4_GLNX86.mat")
    assert v["testunicode"].view(np.uint16).tobytes().decode("utf-16-le").startswith("Japanese: \nすべて")
    m.run("load teststructarr_7.4_GLNX86.mat")
    assert v["teststructarr"].shape == (1, 2) and v["teststructarr"].fields == ["one", "two"]
    m.run("load testsparsecomplex_7.4_GLNX86.mat")
    assert v["testsparsecomplex"].matrix[0, 0] == 1 + 1j and v["testsparsecomplex"].shape == (3, 5)
    m.run("load testdouble_6.1_SOL2.mat")
    assert v["testdouble"].dtype == np.float64 and v["testdouble"].dtype.isnative
    assert np.allclose(v["testdouble"], np.linspace(0, 2 * np.pi, 9).reshape(1, 9))
    m.run("load teststring_6.1_SOL2.mat")  # big-endian char data
    assert v["teststring"].view(np.uint16).tobytes().decode("utf-16-le").startswith('"Do nine men')


@pytest.mark.parametrize("name", ["corrupted_zlib_data.mat", "malformed1.mat", "bad_miuint32.mat"])
def test_damaged_files_give_matlab_errors(m, here, name):
    _copy_scipy_data(name, here)
    assert m.fails(f"load {name}").identifier == "MATLAB:load:unableToReadMatFile"
