"""The dlarray value: construction, formats, queries, conversions, indexing and errors."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.values.core import CHAR, char_text
from tests.builtins.conftest import Session


@pytest.fixture(scope="module")
def m() -> Session:
    return Session()


def dl(value: object) -> DlArray:
    assert type(value) is DlArray, f"expected a dlarray, got {type(value).__name__}"
    return value  # type: ignore[return-value]


def text(value: object) -> str:
    """A char row vector as a Python string."""
    return char_text(np.asarray(value))


def row(*values: float) -> np.ndarray:
    return np.array([values], dtype=float)


# ---------------------------------------------------------------- construction


def test_dlarray_of_numeric_data(m: Session) -> None:
    x = dl(m.value("x = dlarray([1 2; 3 4]);"))
    assert x.fmt == "" and x.node is None
    np.testing.assert_array_equal(x.data, [[1, 2], [3, 4]])
    assert x.data.dtype == np.float64
    assert text(m.value("x = class(dlarray(5));")) == "dlarray"
    assert dl(m.value("x = dlarray(5);")).data.shape == (1, 1)


@pytest.mark.parametrize(("source", "underlying"), [
    ("[1 2]", "double"), ("single([1 2])", "single"), ("[true false]", "logical"),
    ("[1+2i 3]", "double"), ("single(1i)", "single"),
])
def test_underlying_type_follows_the_data(m: Session, source: str, underlying: str) -> None:
    assert text(m.value(f"x = underlyingType(dlarray({source}));")) == underlying


def test_dlarray_of_a_dlarray_is_a_copy(m: Session) -> None:
    a, b = m.values("a = dlarray([1 2],'CB'); b = dlarray(a);", "a", "b")
    np.testing.assert_array_equal(dl(b).data, dl(a).data)
    assert dl(b).fmt == "CB"


def test_new_format_replaces_the_old_one(m: Session) -> None:
    y = dl(m.value("x = dlarray(ones(2,3),'SC'); y = dlarray(x,'CB');", "y"))
    assert y.fmt == "CB"
    assert y.data.shape == (2, 3)


@pytest.mark.parametrize("source", ["'abc'", "int8(1)", "{1}", "struct('a',1)", '"s"'])
def test_data_must_be_single_double_or_logical(m: Session, source: str) -> None:
    e = m.fails(f"x = dlarray({source});")
    assert all(word in e.message for word in ("double", "single", "logical"))


# ---------------------------------------------------------------- formats


def test_format_permutes_dimensions_to_canonical_order(m: Session) -> None:
    m.run("X = reshape(1:24,2,3,4); Z = dlarray(X,'TCB'); s = size(Z); d = dims(Z); "
          "P = isequal(extractdata(Z), permute(X,[2 3 1]));")
    vars = m.interp.base.vars
    np.testing.assert_array_equal(vars["s"], row(3, 4, 2))
    assert text(vars["d"]) == "CBT"
    assert vars["P"] is True


def test_ts_format_is_stored_as_st(m: Session) -> None:
    m.run("Z = dlarray([1 2 3; 4 5 6],'TS'); d = dims(Z); D = extractdata(Z);")
    vars = m.interp.base.vars
    assert text(vars["d"]) == "ST"
    np.testing.assert_array_equal(vars["D"], [[1, 4], [2, 5], [3, 6]])


@pytest.mark.parametrize(("fmt", "expected"), [
    ("SSCB", "SSCB"), ("BCSS", "SSCB"), ("UTBCS", "SCBTU"), ("CBT", "CBT"), ("TU", "TU"),
    ("SU", "SU"), ("US", "SU"),
])
def test_sorted_formats(m: Session, fmt: str, expected: str) -> None:
    x = dl(m.value(f"x = dlarray(ones(2,2),'{fmt}');"))
    assert x.fmt == expected
    assert text(m.value("d = dims(x);", "d", x=x)) == expected


def test_one_label_for_a_vector_makes_a_column_with_a_u_dimension(m: Session) -> None:
    for source in ("[1 2 3]", "[1; 2; 3]"):
        m.run(f"v = dlarray({source},'C'); s = size(v); d = dims(v);")
        vars = m.interp.base.vars
        np.testing.assert_array_equal(vars["s"], row(3, 1))
        assert text(vars["d"]) == "CU"


@pytest.mark.parametrize("fmt", ["CC", "SCC", "BB", "TT", "CBTC"])
def test_repeated_c_b_or_t_is_an_error(m: Session, fmt: str) -> None:
    e = m.fails(f"x = dlarray(ones(2,2),'{fmt}');")
    assert fmt in e.message and "at most one" in e.message


@pytest.mark.parametrize("fmt", ["SX", "Q", "S1", "S C"])
def test_unknown_label_is_an_error(m: Session, fmt: str) -> None:
    e = m.fails(f"x = dlarray(ones(2,2),'{fmt}');")
    assert "'S', 'C', 'B', 'T' and 'U'" in e.message


def test_fewer_labels_than_dimensions_is_an_error(m: Session) -> None:
    e = m.fails("x = dlarray(ones(2,3,4),'SS');")
    assert "Number of dimension labels (2)" in e.message


def test_trailing_singleton_u_labels_are_ignored(m: Session) -> None:
    # MATLAB's dlarray page: singleton trailing 'U' dimensions after the second are ignored
    assert text(m.value("d = dims(dlarray(ones(2,3),'SSUU'));", "d")) == "SS"
    assert text(m.value("d = dims(dlarray(ones(2,3,1,2),'SSUU'));", "d")) == "SSUU"
    assert text(m.value("d = dims(dlarray(ones(2,1),'CU'));", "d")) == "CU"


# ---------------------------------------------------------------- dims, finddim, stripdims


def test_dims_of_unformatted_is_empty_char(m: Session) -> None:
    d = m.value("d = dims(dlarray([1 2]));", "d")
    assert d.shape == (0, 0) and d.dtype == CHAR


def test_finddim(m: Session) -> None:
    m.run('X = dlarray(randn(6,5,4,3,2),"SSCBT"); a = finddim(X,"S"); b = finddim(X,"B"); '
          "c = finddim(X,'U'); d = finddim(dlarray([1 2]),'S');")
    vars = m.interp.base.vars
    np.testing.assert_array_equal(vars["a"], row(1, 2))
    assert vars["b"] == 4.0
    assert vars["c"].size == 0 and vars["d"].size == 0


def test_stripdims_keeps_the_stored_order(m: Session) -> None:
    m.run("X = dlarray(reshape(1:6,2,3),'TS'); Y = stripdims(X); d = dims(Y); s = size(Y);")
    vars = m.interp.base.vars
    y = dl(vars["Y"])
    assert y.fmt == "" and text(vars["d"]) == ""
    np.testing.assert_array_equal(vars["s"], row(3, 2))
    np.testing.assert_array_equal(y.data, [[1, 2], [3, 4], [5, 6]])


def test_stripdims_keeps_the_trace(m: Session) -> None:
    g = dl(m.value("g = dlfeval(@(x) dlgradient(sum(stripdims(x).^2,'all'), x), "
                   "dlarray([1 2; 3 4],'SC'));", "g"))
    np.testing.assert_array_equal(g.data, [[2, 4], [6, 8]])


@pytest.mark.parametrize("fn", ["dims", "stripdims", "extractdata"])
def test_dlarray_functions_reject_plain_arrays(m: Session, fn: str) -> None:
    e = m.fails(f"y = {fn}([1 2]);")
    assert e.message == f"Undefined function '{fn}' for input arguments of type 'double'."


# ---------------------------------------------------------------- extractdata, isdlarray


@pytest.mark.parametrize(("source", "dtype"), [
    ("[1 2; 3 4]", np.float64), ("single([1 2])", np.float32), ("[true false]", np.bool_),
    ("[1+1i 2]", np.complex128),
])
def test_extractdata_returns_the_plain_array(m: Session, source: str, dtype: type) -> None:
    m.run(f"y = extractdata(dlarray({source})); c = class(y);")
    y = m.interp.base.vars["y"]
    assert type(y) is np.ndarray and y.dtype == dtype
    assert text(m.interp.base.vars["c"]) in ("double", "single", "logical")


def test_extractdata_of_a_scalar_is_a_plain_scalar(m: Session) -> None:
    assert m.value("y = extractdata(dlarray(2.5));", "y") == 2.5


def test_extractdata_applies_the_format_permutation(m: Session) -> None:
    y = m.value("y = extractdata(dlarray([1 2 3; 4 5 6],'TS'));", "y")
    np.testing.assert_array_equal(y, [[1, 4], [2, 5], [3, 6]])


def test_extractdata_is_untraced(m: Session) -> None:
    # only the leading x term carries a gradient
    g = dl(m.value("fun = @(x)dlgradient(x + atan(extractdata(x)),x); g = dlfeval(fun,dlarray(2.5));",
                   "g"))
    assert g.data[0, 0] == 1.0


def test_isdlarray(m: Session) -> None:
    m.run("a = isdlarray(dlarray(1)); b = isdlarray(1); c = isdlarray({dlarray(1)}); "
          "d = isdlarray(dlarray([1 2]) > 1);")
    vars = m.interp.base.vars
    assert (vars["a"], vars["b"], vars["c"], vars["d"]) == (True, False, False, True)


# ---------------------------------------------------------------- class, isa, conversions


def test_class_and_isa(m: Session) -> None:
    m.run("x = dlarray(single([1 2])); c = class(x); a = isa(x,'dlarray'); b = isa(x,'double'); "
          "s = isa(x,'single');")
    vars = m.interp.base.vars
    assert text(vars["c"]) == "dlarray"
    assert (vars["a"], vars["b"], vars["s"]) == (True, False, False)


@pytest.mark.parametrize(("code", "dtype"), [
    ("y = single(dlarray([1.5 2]));", np.float32),
    ("y = double(dlarray(single([1.5 2])));", np.float64),
    ("y = double(dlarray([1.5 2]));", np.float64),
    ("y = single(dlarray([1 2]) > 1);", np.float32),
])
def test_conversions_keep_a_dlarray(m: Session, code: str, dtype: type) -> None:
    y = dl(m.value(code, "y"))
    assert y.data.dtype == dtype
    assert text(m.value("c = class(y);", "c", y=y)) == "dlarray"


def test_conversions_keep_values_and_format(m: Session) -> None:
    y = dl(m.value("y = single(dlarray([1.5 2.25],'CB'));", "y"))
    assert y.fmt == "CB"
    np.testing.assert_array_equal(y.data, np.array([[1.5, 2.25]], dtype=np.float32))


def test_single_arithmetic_stays_single(m: Session) -> None:
    y = dl(m.value("y = dlarray(single([1 2])) * 2 + 1;", "y"))
    assert y.data.dtype == np.float32


# ---------------------------------------------------------------- size and indexing


def test_size_numel_ndims(m: Session) -> None:
    m.run("X = dlarray(ones(2,3,4)); s = size(X); n = numel(X); k = ndims(X); r = size(X,2); "
          "[a,b] = size(X); l = length(X); e = isempty(X);")
    vars = m.interp.base.vars
    np.testing.assert_array_equal(vars["s"], row(2, 3, 4))
    assert (vars["n"], vars["k"], vars["r"], vars["a"], vars["b"]) == (24.0, 3.0, 3.0, 2.0, 12.0)
    assert (vars["l"], vars["e"]) == (4.0, False)


def test_size_of_a_formatted_array_is_in_canonical_order(m: Session) -> None:
    np.testing.assert_array_equal(m.value("s = size(dlarray(ones(2,3),'CS'));", "s"), row(3, 2))


@pytest.mark.parametrize(("expr", "expected"), [
    ("X(end)", [[6]]), ("X(2,:)", [[4, 5, 6]]), ("X(:,end)", [[3], [6]]),
    ("X(end,end-1)", [[5]]), ("X([1 2],[3 1])", [[3, 1], [6, 4]]), ("X(:)'", [[1, 4, 2, 5, 3, 6]]),
    ("X(X > 3)'", [[4, 5, 6]]), ("X(logical([1 0 1; 0 0 1]))'", [[1, 3, 6]]),
])
def test_indexing_gives_dlarrays(m: Session, expr: str, expected: list) -> None:
    y = dl(m.value(f"X = dlarray([1 2 3; 4 5 6]); y = {expr};", "y"))
    np.testing.assert_array_equal(y.data, expected)


def test_indexing_keeps_the_format(m: Session) -> None:
    y = dl(m.value("X = dlarray(ones(2,3),'SC'); y = X(:,1);", "y"))
    assert y.fmt == "SC" and y.data.shape == (2, 1)


def test_indexed_assignment(m: Session) -> None:
    y = dl(m.value("y = dlarray([1 2 3; 4 5 6]); y(1,1) = 10; y(:,3) = [0; 0];", "y"))
    np.testing.assert_array_equal(y.data, [[10, 2, 0], [4, 5, 0]])


def test_assignment_grows_a_dlarray(m: Session) -> None:
    y = dl(m.value("y = dlarray([1 2]); y(4) = 4;", "y"))
    np.testing.assert_array_equal(y.data, [[1, 2, 0, 4]])
    y = dl(m.value("y = dlarray([1 2; 3 4]); y(3,1) = 9;", "y"))
    np.testing.assert_array_equal(y.data, [[1, 2], [3, 4], [9, 0]])
    y = dl(m.value("y = dlarray([1 2 3]); y(2) = [];", "y"))
    np.testing.assert_array_equal(y.data, [[1, 3]])


def test_assignment_by_end(m: Session) -> None:
    y = dl(m.value("y = dlarray([1 2; 3 4]); y(end,1) = 9; y(end) = 8;", "y"))
    np.testing.assert_array_equal(y.data, [[1, 2], [9, 8]])


def test_assignment_grows_with_end_plus_one(m: Session) -> None:
    y = dl(m.value("y = dlarray([1 2]); y(end+1) = 3; y(end+1) = 4;", "y"))
    np.testing.assert_array_equal(y.data, [[1, 2, 3, 4]])


def test_growing_a_matrix_by_linear_index_is_ambiguous(m: Session) -> None:
    e = m.fails("y = dlarray(ones(2,3)); y(7) = 1;")
    assert e.message == "Attempt to grow array along ambiguous dimension."


def test_assignment_of_a_dlarray_element_in_a_loop(m: Session) -> None:
    # the pattern of the dlgradient page: preallocated dlarrays filled element by element
    y = dl(m.value("Y = dlarray(zeros(3,1)); for i = 1:3, Y(i) = dlarray(i^2); end", "Y"))
    np.testing.assert_array_equal(y.data, [[1], [4], [9]])


# ---------------------------------------------------------------- concatenation


@pytest.mark.parametrize(("code", "expected"), [
    ("y = [dlarray(1) 2; 3 dlarray(4)];", [[1, 2], [3, 4]]),
    ("a = dlarray([1 2]); y = [a; a];", [[1, 2], [1, 2]]),
    ("a = dlarray([1; 2]); y = [a [3; 4]];", [[1, 3], [2, 4]]),
    ("y = [1 dlarray(2)];", [[1, 2]]),
])
def test_concatenation_with_dlarrays(m: Session, code: str, expected: list) -> None:
    y = dl(m.value(code, "y"))
    np.testing.assert_array_equal(y.data, expected)


def test_concatenation_keeps_the_trace(m: Session) -> None:
    g = dl(m.value("g = dlfeval(@(x) dlgradient(sum([x 2*x; x.^2 1], 'all'), x), dlarray(3));", "g"))
    assert g.data[0, 0] == 9.0


def test_concatenation_keeps_the_format(m: Session) -> None:
    y = dl(m.value("a = dlarray([1 2; 3 4],'SC'); y = [a a];", "y"))
    assert y.fmt == "SC" and y.data.shape == (2, 4)


# ---------------------------------------------------------------- comparisons


@pytest.mark.parametrize(("op", "expected"), [
    (">", [[False, False, True]]), ("<=", [[True, True, False]]), ("==", [[False, True, False]]),
    ("~=", [[True, False, True]]), (">=", [[False, True, True]]), ("<", [[True, False, False]]),
])
def test_comparisons_give_logical_dlarrays(m: Session, op: str, expected: list) -> None:
    m.run(f"t = dlarray([1 2 3]) {op} 2; u = underlyingType(t);")
    t = dl(m.interp.base.vars["t"])
    assert t.data.dtype == np.bool_ and t.node is None
    np.testing.assert_array_equal(t.data, expected)
    assert text(m.interp.base.vars["u"]) == "logical"


def test_comparison_of_traced_values_carries_no_gradient(m: Session) -> None:
    g = dl(m.value("g = dlfeval(@(x) dlgradient(sum(x .* (x > 1)), x), dlarray([1 2 3]));", "g"))
    np.testing.assert_array_equal(g.data, [[0, 1, 1]])


def test_logical_dlarray_in_a_condition(m: Session) -> None:
    assert m.run("x = dlarray([1 2]); if x(2) > 1, disp('yes'), end") == "yes\n"


# ---------------------------------------------------------------- functions without dlarray support


@pytest.mark.parametrize("code", [
    "y = primes(dlarray(10));", "y = factorial(dlarray([1 2]));", "y = gcd(dlarray(4), 6);",
    "y = gcd(4, dlarray(6));",
])
def test_function_without_dlarray_support_is_an_error(m: Session, code: str) -> None:
    name = code.split("(")[0].split("= ")[1]
    e = m.fails(code)
    assert e.message == f"Undefined function '{name}' for input arguments of type 'dlarray'."
    assert e.identifier == "MATLAB:UndefinedFunction"


# ---------------------------------------------------------------- GPU helpers


def test_gather_returns_its_arguments_and_there_is_no_gpu(m: Session) -> None:
    x = dl(m.value("x = gather(dlarray([1 2]));"))
    np.testing.assert_array_equal(x.data, [[1, 2]])
    assert m.values("[a, b] = gather(3, 'text');", "a", "b")[0] == 3.0
    assert m.value("x = canUseGPU;") is False


def test_gather_keeps_the_trace(m: Session) -> None:
    out = m.run("g = dlfeval(@(x) dlgradient(sum(gather(x).^2), x), dlarray([1 2])); disp(extractdata(g))")
    assert out.split() == ["2", "4"]
