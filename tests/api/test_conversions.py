"""Every row of the README's conversions table, both ways, through a Session."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import mlang


@pytest.fixture()
def m():
    return mlang.Session()


def matlab_class(m, name):
    return m.eval(f"class({name})", nargout=1)


def matlab_size(m, name):
    return tuple(int(x) for x in np.ravel(m.eval(f"size({name})", nargout=1)))


@pytest.mark.parametrize("dtype, cls", [
    (np.float64, "double"), (np.float32, "single"), (np.int8, "int8"), (np.int16, "int16"),
    (np.int32, "int32"), (np.int64, "int64"), (np.uint8, "uint8"), (np.uint16, "uint16"),
    (np.uint32, "uint32"), (np.uint64, "uint64"), (np.bool_, "logical"),
])
def test_numeric_arrays_keep_dtype_and_shape(m, dtype, cls):
    a = (np.arange(6).reshape(2, 3) % 2).astype(dtype)
    m["a"] = a
    assert matlab_class(m, "a") == cls
    assert matlab_size(m, "a") == (2, 3)
    assert m.eval("a(2, 1)", nargout=1) == a[1, 0]  # element order: NumPy's (i, j) is MATLAB's (i, j)
    back = m["a"]
    assert back.dtype == a.dtype and back.shape == (2, 3)
    np.testing.assert_array_equal(back, a)
    m.eval(f"b = {cls}([1 0 1; 0 1 0]);")
    assert m["b"].dtype == a.dtype


def test_one_dimensional_arrays_are_rows_and_nd_arrays_keep_their_shape(m):
    m["v"] = np.array([1.0, 2.0, 3.0])
    assert matlab_size(m, "v") == (1, 3)
    assert m["v"].shape == (1, 3)
    cube = np.arange(24.0).reshape(2, 3, 4)
    m["c"] = cube
    assert matlab_size(m, "c") == (2, 3, 4)
    assert m.eval("c(2, 3, 4)", nargout=1) == cube[1, 2, 3]
    np.testing.assert_array_equal(m["c"], cube)
    m["z"] = np.array(5.0)  # 0-d: a scalar
    assert m["z"] == 5.0 and isinstance(m["z"], float)


def test_complex_and_empty_arrays(m):
    m["c"] = np.array([[1 + 2j, 3.0]])
    assert m.eval("isreal(c)", nargout=1) is False
    np.testing.assert_array_equal(m["c"], [[1 + 2j, 3]])
    m["c64"] = np.array([1j, 2], dtype=np.complex64)
    assert matlab_class(m, "c64") == "single"
    m["e"] = np.zeros((0, 3))
    assert matlab_size(m, "e") == (0, 3)
    assert m["e"].shape == (0, 3)
    m.eval("n = NaN(1, 2);")
    assert np.isnan(m["n"]).all()


def test_python_scalars(m):
    for name, value, cls in [("f", 2.5, "double"), ("i", 7, "double"), ("b", True, "logical"),
                             ("z", 1 + 2j, "double")]:
        m[name] = value
        assert matlab_class(m, name) == cls
        assert m[name] == value and type(m[name]) is type(value if name != "i" else 7.0)
    m["n"] = None
    assert matlab_size(m, "n") == (0, 0)


def test_numpy_scalars_keep_their_class(m):
    m["s"] = np.float32(1.5)
    m["k"] = np.int16(-3)
    assert matlab_class(m, "s") == "single" and matlab_class(m, "k") == "int16"
    assert m["s"] == np.float32(1.5) and m["s"].dtype == np.float32
    assert m["k"] == -3 and m["k"].dtype == np.int16


def test_char_and_strings(m):
    m["t"] = "héllo"
    assert matlab_class(m, "t") == "char" and matlab_size(m, "t") == (1, 5)
    assert m["t"] == "héllo"
    m.eval("e = '';")
    assert m["e"] == ""
    m.eval("cm = ['ab'; 'cd'];")
    back = m["cm"]
    assert back.dtype == np.dtype("<U1") and back.tolist() == [["a", "b"], ["c", "d"]]
    m["cm2"] = back
    assert matlab_class(m, "cm2") == "char" and m.eval("isequal(cm, cm2)", nargout=1)
    m.eval('s = "one"; sa = ["a" "bc"; "d" "e"];')
    assert m["s"] == "one"
    sa = m["sa"]
    assert sa.dtype == object and sa.shape == (2, 2) and sa[0, 1] == "bc"
    m["sa2"] = sa
    assert matlab_class(m, "sa2") == "string" and m.eval("isequal(sa, sa2)", nargout=1)
    m["u"] = np.array(["x", "yz"])
    assert matlab_class(m, "u") == "string" and matlab_size(m, "u") == (1, 2)
    m["one"] = np.array("word")
    assert matlab_class(m, "one") == "string" and m["one"] == "word"


def test_cells_are_lists(m):
    m["c"] = [1.0, "a", [True, False], {"x": 1}]
    assert matlab_class(m, "c") == "cell" and matlab_size(m, "c") == (1, 4)
    assert m.eval("class(c{3})", nargout=1) == "logical"
    back = m["c"]
    assert back[0] == 1.0 and back[1] == "a" and back[3] == {"x": 1.0}
    np.testing.assert_array_equal(back[2], [[True, False]])
    m.eval("cm = {1, 'a'; 2, 'b'}; ce = {};")
    cm = m["cm"]
    assert cm.shape == (2, 2) and cm.dtype == object and cm[1, 1] == "b"
    m["cm2"] = cm
    assert m.eval("isequal(cm, cm2)", nargout=1)
    assert m["ce"] == []
    m["nums"] = [1, 2, 3]
    assert matlab_class(m, "nums") == "double" and matlab_size(m, "nums") == (1, 3)


def test_structs_and_struct_arrays(m):
    m["s"] = {"a": 1.0, "b": "text", "inner": {"v": np.array([1.0, 2.0])}}
    assert matlab_class(m, "s") == "struct"
    assert m.eval("s.inner.v(2)", nargout=1) == 2.0
    back = m["s"]
    assert list(back) == ["a", "b", "inner"] and back["b"] == "text"
    m["sa"] = [{"x": 1.0}, {"x": 2.0}]
    assert matlab_class(m, "sa") == "struct" and matlab_size(m, "sa") == (1, 2)
    assert m.eval("sa(2).x", nargout=1) == 2.0
    assert m["sa"] == [{"x": 1.0}, {"x": 2.0}]
    m.eval("e = struct([]); grid = repmat(struct('k', 1), 2, 2);")
    assert m["e"] == []
    assert m["grid"].shape == (2, 2) and m["grid"][1, 1] == {"k": 1.0}


def test_maps_are_dicts(m):
    m.eval("M = containers.Map({'k', 'j'}, {3, 'v'}); N = containers.Map([1 2], {5, 6});")
    assert m["M"] == {"k": 3.0, "j": "v"}
    assert m["N"] == {1.0: 5.0, 2.0: 6.0}
    m["P"] = {"not a name": 1.0, "x": 2.0}
    assert matlab_class(m, "P") == "containers.Map"
    assert m.eval("P('not a name')", nargout=1) == 1.0
    m["Q"] = {3: "three"}
    assert m.eval("Q(3)", nargout=1) == "three"


def test_dlarrays_are_numpy_arrays(m):
    m.eval("D = dlarray([1 2; 3 4]);")
    back = m["D"]
    assert isinstance(back, np.ndarray) and back.shape == (2, 2)
    m["E"] = m.dlarray(np.ones((3, 2)), "CB")
    assert matlab_class(m, "E") == "dlarray" and m.eval("dims(E)", nargout=1) == "CB"
    np.testing.assert_array_equal(m["E"], np.ones((3, 2)))


def test_function_handles_and_python_callables(m):
    square = m.eval("@(x) x.^2", nargout=1)
    assert square(3.0) == 9.0
    assert "@(x)x.^2" in repr(square)
    m["sq"] = square  # back into MATLAB as the same handle
    assert m.eval("sq(4)", nargout=1) == 16.0
    m["f"] = lambda x: x + 1
    assert matlab_class(m, "f") == "function_handle"
    assert m.eval("f(2)", nargout=1) == 3.0
    np.testing.assert_array_equal(m.eval("cellfun(f, {1, 2})", nargout=1), [[2.0, 3.0]])
    assert m["f"](5) == 6  # the Python function itself comes back
    mx, where = m.function("max")(np.array([4.0, 8.0, 1.0]), nargout=2)
    assert (mx, where) == (8.0, 2.0)


def test_other_values_pass_through_unchanged(m):
    m.eval("d = datetime(2024, 1, 2);")
    value = m["d"]
    m["d2"] = value
    assert m.eval("isequal(d, d2)", nargout=1)


@pytest.mark.skipif(importlib.util.find_spec("pandas") is None, reason="pandas is not installed")
def test_tables_are_data_frames(m):
    import pandas as pd

    m.eval("T = table([1; 2], {'a'; 'b'}, 'VariableNames', {'n', 't'}, 'RowNames', {'r1', 'r2'});")
    frame = m["T"]
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["n", "t"] and list(frame.index) == ["r1", "r2"]
    assert frame["n"].tolist() == [1.0, 2.0] and frame["t"].tolist() == ["a", "b"]
    m["T2"] = frame
    assert m.eval("isequal(T, T2)", nargout=1)
    m["P"] = pd.DataFrame({"a": [1.5, 2.5]})
    assert matlab_class(m, "P") == "table" and m.eval("P.a(2)", nargout=1) == 2.5


def test_unconvertible_values_are_type_errors(m):
    with pytest.raises(TypeError):
        m["x"] = object()
    with pytest.raises(TypeError):
        m["y"] = np.array([b"a"])
