"""Sparse matrices: construction, display, operators, indexing, assignment,
concatenation, the sparse builtins and the sparse forms of other functions.

Numbers are MATLAB's documented examples or GNU Octave's results."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.registry import BUILTINS
from mlang.values.core import char_text
from mlang.values.sparse import SparseLogical, SparseMatrix, is_sparse
from mlang.values.sparse_calls import sparse_call

DOC_A = "A = [0 0 0 5; 0 2 0 0; 1 3 0 0; 0 0 4 0];"


def full_of(v: object) -> np.ndarray:
    assert is_sparse(v), f"expected a sparse matrix, got {type(v).__name__}"
    return v.matrix.toarray()  # type: ignore[attr-defined]


def call(m, name: str, args: list, nargout: int = 1) -> list:
    """A builtin called the way the call path calls it with a sparse argument."""
    return sparse_call(BUILTINS[name], m.interp, args, nargout)


# ------------------------------------------------------------------ construction


def test_sparse_of_full_matrix_display_is_matlabs(m):
    out = m.run(DOC_A + "S = sparse(A)")
    assert out == ("\nS = \n\n  4×4 sparse double matrix (5 nonzeros)\n\n"
                   "   (3,1)        1\n   (2,2)        2\n   (3,2)        3\n"
                   "   (4,3)        4\n   (1,4)        5\n\n")


def test_sparse_class_size_and_predicates(m):
    c, sz, n, e, sp, fsp = m.values(
        DOC_A + "S = sparse(A); c = class(S); sz = size(S); n = numel(S); "
        "e = isempty(sparse(0,3)); sp = issparse(S); fsp = issparse(A);",
        "c", "sz", "n", "e", "sp", "fsp")
    assert char_text(c) == "double"
    assert char_text(m.value("x = class(sparse(true));")) == "logical"
    assert sz.tolist() == [[4.0, 4.0]] and n == 16.0
    assert e is True and sp is True and fsp is False


def test_sparse_m_n_is_all_zero(m):
    out = m.run("S = sparse(3,2)")
    assert out == "\nS = \n\n  3×2 sparse double matrix\n\n   All zero\n\n"
    s = m.value("x = sparse(3,2);")
    assert type(s) is SparseMatrix and s.shape == (3, 2) and s.nnz == 0 and s.nzmax == 1
    assert type(m.value("x = sparse(2,2,'logical');")) is SparseLogical


def test_sparse_triplets_sum_duplicates(m):
    x = m.value("x = sparse([1 1 2 3], [1 1 2 3], [2 3 4 0]);")
    assert full_of(x).tolist() == [[5, 0, 0], [0, 4, 0], [0, 0, 0]]
    assert x.nnz == 2 and x.nzmax == 4
    # scalar expansion of v and one index
    y = m.value("x = sparse(1:3, 2, 7);")
    assert full_of(y).tolist() == [[0, 7], [0, 7], [0, 7]]


def test_sparse_triplets_with_size_and_nzmax(m):
    # MATLAB's documented examples
    out = m.run("i = [900 1000]; j = [900 1000]; v = [10 100]; S = sparse(i,j,v,1500,1500); "
                "sz = size(S)")
    assert "     1500        1500" in out or "1500        1500" in out
    s = m.value("x = sparse(1:10,1:10,5,20,20,100);")
    assert s.shape == (20, 20) and s.nnz == 10 and s.nzmax == 100
    assert m.value("x = nzmax(sparse(1:10,1:10,5,20,20,100));") == 100.0


def test_sparse_logical_values_or_duplicates(m):
    x = m.value("x = sparse([1 1], [1 1], [true true]);")
    assert type(x) is SparseLogical and full_of(x).tolist() == [[True]]


def test_sparse_errors(m):
    assert m.fails("sparse([1 2],[1],[1 2 3])").identifier == "MATLAB:samelen"
    assert "non-negative integers" in m.fails("sparse(-1,2)").message
    assert m.fails("sparse(0.5,1,1)").message == "Index into matrix must be an integer."
    assert m.fails("sparse(0,1,1)").message == "Index into matrix must be positive."
    assert m.fails("sparse([1 3],[1 1],[1 1],2,2)").message == "Index exceeds array bounds."
    assert m.fails("sparse(single(1))").message == "Input matrix must be double or logical."
    assert m.fails("sparse(1,2,3,4)").identifier == "MATLAB:minrhs"
    assert m.fails("sparse(2,2,'int8')").message == "Type name must be 'double' or 'logical'."


def test_full(m):
    x = m.value("x = full(sparse([1 0; 0 2]));")
    assert type(x) is np.ndarray and x.tolist() == [[1, 0], [0, 2]]
    assert m.value("x = full([1 2]);").tolist() == [[1, 2]]
    assert m.value("x = full(sparse(5));") == 5.0
    assert m.fails("full({1})").identifier == "MATLAB:full:invalidType"


# ------------------------------------------------------------------ display


@pytest.mark.parametrize("code, header", [
    ("S = sparse([1;0;2])", "  3×1 sparse double column vector (2 nonzeros)"),
    ("S = sparse([1 0 2])", "  1×3 sparse double row vector (2 nonzeros)"),
    ("S = sparse(5)", "  sparse double"),
    ("S = sparse([])", "  0×0 empty sparse double matrix"),
    ("S = sparse(1,0)", "  1×0 empty sparse double row vector"),
    ("S = sparse([true false; false true])", "  2×2 sparse logical array (2 nonzeros)"),
    ("S = sparse([1i 0; 0 0])", "  2×2 sparse complex double matrix (1 nonzero)"),
])
def test_display_headers(m, code, header):
    lines = m.run(code).split("\n")
    assert lines[3] == header


def test_display_one_nonzero_and_widths(m):
    out = m.run("S = sparse([0 0; 1 0])")
    assert out == ("\nS = \n\n  2×2 sparse double matrix (1 nonzero)\n\n"
                   "   (2,1)        1\n\n")
    out = m.run("S = sparse([10 0 0; 0 0 100])")
    assert "   (1,1)       10\n   (2,3)      100\n" in out


# ------------------------------------------------------------------ operators


def test_sparse_plus_sparse_is_sparse(m):
    x = m.value("S = sparse([1 0 2; 0 3 0]); x = S + S;")
    assert full_of(x).tolist() == [[2, 0, 4], [0, 6, 0]]
    assert full_of(m.value("S = sparse([1 0 2; 0 3 0]); x = S - S;")).tolist() == [[0] * 3] * 2


def test_sparse_plus_full_or_scalar_is_full(m):
    x = m.value("S = sparse([1 0; 0 2]); x = S + 1;")
    assert type(x) is np.ndarray and x.tolist() == [[2, 1], [1, 3]]
    y = m.value("S = sparse([1 0; 0 2]); x = [1 1; 1 1] - S;")
    assert type(y) is np.ndarray and y.tolist() == [[0, 1], [1, -1]]


def test_times_keeps_sparse(m):
    assert full_of(m.value("S = sparse([1 0; 0 2]); x = S .* [5 6; 7 8];")).tolist() == \
        [[5, 0], [0, 16]]
    assert full_of(m.value("S = sparse([1 0; 0 2]); x = 3 * S;")).tolist() == [[3, 0], [0, 6]]
    assert full_of(m.value("S = sparse([1 0; 0 2]); x = S .* S;")).tolist() == [[1, 0], [0, 4]]
    assert full_of(m.value("S = sparse([1 0; 0 2]); x = S / 2;")).tolist() == [[0.5, 0], [0, 1]]
    # 0 * NaN is NaN: every element
    assert np.isnan(full_of(m.value("S = sparse([1 0; 0 2]); x = S .* NaN;"))).all()


def test_mtimes(m):
    x = m.value("S = sparse([1 0 2; 0 3 0]); x = S * S';")
    assert full_of(x).tolist() == [[5, 0], [0, 9]]
    y = m.value("S = sparse([1 0 2; 0 3 0]); x = S * [1; 2; 3];")
    assert type(y) is np.ndarray and y.tolist() == [[7], [6]]
    z = m.value("S = sparse([1 0 2; 0 3 0]); x = [1 1] * S;")
    assert type(z) is np.ndarray and z.tolist() == [[1, 3, 2]]
    assert m.fails("S = sparse(eye(2)); S * ones(3,1)").identifier == "MATLAB:innerdim"


def test_mldivide_and_mrdivide(m):
    x = m.value("S = sparse([4 1; 1 3]); x = S \\ [1; 2];")
    assert type(x) is np.ndarray
    np.testing.assert_allclose(x.ravel(), [1 / 11, 7 / 11])
    y = m.value("S = sparse([4 1; 1 3]); x = S \\ sparse([1; 2]);")
    np.testing.assert_allclose(full_of(y).ravel(), [1 / 11, 7 / 11])
    z = m.value("S = sparse([1 2; 3 4]); x = S / S;")
    np.testing.assert_allclose(full_of(z), np.eye(2), atol=1e-12)


def test_mpower_and_power(m):
    assert full_of(m.value("x = sparse([1 2; 3 4])^2;")).tolist() == [[7, 10], [15, 22]]
    assert full_of(m.value("x = sparse([1 2; 3 4]).^2;")).tolist() == [[1, 4], [9, 16]]
    x = m.value("x = 2.^sparse([1 2; 3 4]);")
    assert type(x) is np.ndarray and x.tolist() == [[2, 4], [8, 16]]


def test_transposes(m):
    x = m.value("x = sparse([1 0 2; 0 3 0])';")
    assert full_of(x).tolist() == [[1, 0], [0, 3], [2, 0]]
    y = m.value("x = sparse([1i 0])';")
    assert full_of(y).tolist() == [[-1j], [0]]
    z = m.value("x = sparse([1i 0]).';")
    assert full_of(z).tolist() == [[1j], [0]]


def test_unary_and_comparisons(m):
    assert full_of(m.value("x = -sparse([1 0]);")).tolist() == [[-1, 0]]
    x = m.value("x = ~sparse([1 0]);")
    assert type(x) is SparseLogical and full_of(x).tolist() == [[False, True]]
    y = m.value("x = sparse([1 0 3]) > 2;")
    assert type(y) is SparseLogical and full_of(y).tolist() == [[False, False, True]]
    z = m.value("x = sparse([1 0 3]) == [1 1 1];")
    assert type(z) is SparseLogical and full_of(z).tolist() == [[True, False, False]]
    w = m.value("x = sparse([true false]) & sparse([true true]);")
    assert type(w) is SparseLogical and full_of(w).tolist() == [[True, False]]


def test_operator_size_errors(m):
    assert "incompatible sizes" in m.fails("S = sparse(eye(2)); S + ones(3)").message
    assert m.fails("sparse(eye(2)) .* int8(3)").identifier == "MATLAB:UndefinedFunction"


# ------------------------------------------------------------------ indexing


def test_indexing_gives_sparse(m):
    code = "S = sparse([1 0 2; 0 3 0]); "
    a = m.value(code + "x = S(2,2);")
    assert type(a) is SparseMatrix and full_of(a).tolist() == [[3]]
    assert full_of(m.value(code + "x = S(:,3);")).tolist() == [[2], [0]]
    assert full_of(m.value(code + "x = S(end,:);")).tolist() == [[0, 3, 0]]
    assert full_of(m.value(code + "x = S(4);")).tolist() == [[3]]
    assert full_of(m.value(code + "x = S([1 5 6]);")).tolist() == [[1, 2, 0]]
    assert full_of(m.value(code + "x = S(:);")).tolist() == [[1], [0], [0], [3], [2], [0]]
    assert full_of(m.value(code + "x = S(logical([1 0 1; 0 1 0]));")).tolist() == [[1], [3], [2]]
    assert full_of(m.value(code + "x = S([2 1], [3 1]);")).tolist() == [[0, 0], [2, 1]]


def test_indexing_errors(m):
    e = m.fails("S = sparse(eye(2)); S(3,1)")
    assert e.identifier == "MATLAB:badsubscript" and "position 1" in e.message
    assert "must not exceed 4" in m.fails("S = sparse(eye(2)); S(5)").message
    assert m.fails("S = sparse(eye(2)); S(0)").identifier == "MATLAB:badsubscript"


def test_assignment(m):
    x = m.value("x = sparse([1 0 2; 0 3 0]); x(1,2) = 7;")
    assert full_of(x).tolist() == [[1, 7, 2], [0, 3, 0]]
    y = m.value("x = sparse([1 0 2; 0 3 0]); x(3,4) = 1;")
    assert full_of(y).tolist() == [[1, 0, 2, 0], [0, 3, 0, 0], [0, 0, 0, 1]]
    z = m.value("x = sparse([1 0; 0 2]); x(2,2) = 0;")
    assert z.nnz == 1
    w = m.value("x = sparse(2,2); x(:) = 1:4;")
    assert full_of(w).tolist() == [[1, 3], [2, 4]]
    v = m.value("x = speye(3); x(2,:) = [4 5 6];")
    assert full_of(v).tolist() == [[1, 0, 0], [4, 5, 6], [0, 0, 1]]
    u = m.value("x = sparse(1,0); x(4) = 3;")
    assert full_of(u).tolist() == [[0, 0, 0, 3]]
    # a new variable given a sparse value is sparse; a full one stays full
    assert is_sparse(m.value("x(2,2) = sparse(3);"))
    f = m.value("x = zeros(2); x(1,1) = sparse(3);")
    assert type(f) is np.ndarray and f.tolist() == [[3, 0], [0, 0]]
    assert m.fails("x = sparse(eye(2)); x(:,:) = [1 2 3];").identifier == \
        "MATLAB:subsassigndimmismatch"
    assert m.fails("x = sparse(eye(2)); x(7) = 1;").identifier == "MATLAB:indexed:growVector"


def test_deletion(m):
    assert full_of(m.value("x = sparse([1 2; 3 4]); x(1,:) = [];")).tolist() == [[3, 4]]
    assert full_of(m.value("x = sparse([1 2; 3 4]); x(:,2) = [];")).tolist() == [[1], [3]]
    assert full_of(m.value("x = sparse([1 2; 3 4]); x([1 4]) = [];")).tolist() == [[3, 2]]
    assert m.value("x = sparse([1 2; 3 4]); x(:) = [];").shape == (0, 0)
    assert m.fails("x = sparse([1 2; 3 4]); x(1,1) = [];").identifier == "MATLAB:nullAssignment"


def test_concatenation(m):
    x = m.value("S = sparse([1 0; 0 2]); x = [S S];")
    assert full_of(x).tolist() == [[1, 0, 1, 0], [0, 2, 0, 2]]
    y = m.value("S = sparse([1 0; 0 2]); x = [S; S];")
    assert full_of(y).tolist() == [[1, 0], [0, 2], [1, 0], [0, 2]]
    z = m.value("x = [speye(2) [1; 2]];")
    assert full_of(z).tolist() == [[1, 0, 1], [0, 1, 2]]
    w = m.value("x = [sparse(true) sparse(false)];")
    assert type(w) is SparseLogical
    assert m.fails("x = [speye(2) [1; 2; 3]];").identifier == "MATLAB:catenate:dimensionMismatch"


# ------------------------------------------------------------------ builtins


def test_nonzeros_and_nzmax(m):
    assert m.value("x = nonzeros(sparse([0 3; 4 0]));").tolist() == [[4], [3]]
    assert m.value("x = nonzeros([0 3; 4 0]);").tolist() == [[4], [3]]
    assert m.value("x = nzmax(sparse([0 1; 0 0]));") == 1.0
    assert m.value("x = nzmax(sparse(3,3));") == 1.0
    assert m.value("x = nzmax(ones(2,3));") == 6.0


def test_spones_speye_spalloc(m):
    r = m.value("x = spones(sparse([0 3; -4 0]));")
    assert full_of(r).tolist() == [[0, 1], [1, 0]]
    assert full_of(m.value("x = spones([0 2 0]);")).tolist() == [[0, 1, 0]]
    assert full_of(m.value("x = speye(2,3);")).tolist() == [[1, 0, 0], [0, 1, 0]]
    assert full_of(m.value("x = speye(2);")).tolist() == [[1, 0], [0, 1]]
    assert full_of(m.value("x = speye([3 2]);")).tolist() == [[1, 0], [0, 1], [0, 0]]
    assert m.value("x = speye;").shape == (1, 1)
    a = m.value("x = spalloc(3,4,10);")
    assert a.shape == (3, 4) and a.nnz == 0 and a.nzmax == 10
    assert m.fails("speye(2,3,4)").identifier == "MATLAB:TooManyInputs"


def test_sprand_and_sprandn(m):
    x = m.value("rng(7); x = sprand(20,30,0.1);")
    assert type(x) is SparseMatrix and x.shape == (20, 30)
    assert 0 < x.nnz <= 60 and x.nzmax == 60
    assert ((x.matrix.data > 0) & (x.matrix.data < 1)).all()
    y = m.value("rng(7); x = sprand(sparse([1 0; 0 5]));")
    assert (full_of(y) != 0).tolist() == [[True, False], [False, True]]
    z = m.value("rng(7); x = sprandn(10,10,0.5);")
    assert z.shape == (10, 10) and z.nnz > 0 and (z.matrix.data < 0).any()
    assert m.value("x = sprand(3,3,0);").nnz == 0
    assert m.fails("sprand(2,2,-1)").message == "Density must be nonnegative."


def test_spdiags_extraction(m):
    # Octave's results
    b = m.value("x = spdiags([1 2 3; 4 5 6; 7 8 9]);")
    assert b.tolist() == [[7, 4, 1, 0, 0], [0, 8, 5, 2, 0], [0, 0, 9, 6, 3]]
    b2, d = m.values("[b, d] = spdiags(magic(4));", "b", "d")
    assert b2.tolist() == [[4, 9, 5, 16, 0, 0, 0], [0, 14, 7, 11, 2, 0, 0],
                           [0, 0, 15, 6, 10, 3, 0], [0, 0, 0, 1, 12, 8, 13]]
    assert d.ravel().tolist() == [-3, -2, -1, 0, 1, 2, 3]
    b3 = m.value("x = spdiags(reshape(1:12,4,3)');")
    assert b3.tolist() == [[0, 0, 1, 2, 3, 4], [0, 5, 6, 7, 8, 0], [9, 10, 11, 12, 0, 0]]
    b4 = m.value("x = spdiags(sparse(magic(3)), [0 1]);")
    assert b4.tolist() == [[8, 0], [5, 1], [2, 7]]


def test_spdiags_construction(m):
    c = m.value("x = spdiags([1 2 3 4; 5 6 7 8; 9 10 11 12]', [-1 0 1], 4, 4);")
    assert full_of(c).tolist() == [[5, 10, 0, 0], [1, 6, 11, 0], [0, 2, 7, 12], [0, 0, 3, 8]]
    wide = m.value("x = spdiags([1 2 3 4; 5 6 7 8; 9 10 11 12]', [-1 0 1], 3, 5);")
    assert full_of(wide).tolist() == [[5, 9, 0, 0, 0], [2, 6, 10, 0, 0], [0, 3, 7, 11, 0]]
    tall = m.value("x = spdiags([1 2 3 4 5; 5 6 7 8 9; 9 10 11 12 13]', [-1 0 1], 5, 3);")
    assert full_of(tall).tolist() == [[5, 10, 0], [1, 6, 11], [0, 2, 7], [0, 0, 3], [0, 0, 0]]
    r = m.value("x = spdiags([10;20;30], 0, speye(3) + sparse([0 1 0; 0 0 0; 0 0 0]));")
    assert full_of(r).tolist() == [[10, 1, 0], [0, 20, 0], [0, 0, 30]]
    assert m.fails("spdiags([1 2],[0 1 2],3,3)").identifier == "MATLAB:spdiags:InvalidSizeBin"


# ------------------------------------------- sparse forms through the call path


def test_sparse_forms_of_nnz_find_sum(m):
    s = m.value("x = sparse([1 0 -2; 0 3 0]);")
    assert call(m, "nnz", [s]) == [3.0]
    rows, cols, vals = call(m, "find", [s], 3)
    assert rows.ravel().tolist() == [1, 2, 1] and cols.ravel().tolist() == [1, 2, 3]
    assert vals.ravel().tolist() == [1, 3, -2]
    assert call(m, "find", [s])[0].ravel().tolist() == [1, 4, 5]
    assert call(m, "find", [s, 1.0])[0] == 1.0
    total = call(m, "sum", [s])[0]
    assert type(total) is SparseMatrix and full_of(total).tolist() == [[1, 3, -2]]
    assert full_of(call(m, "sum", [s, 2.0])[0]).tolist() == [[-1], [3]]
    assert full_of(call(m, "sum", [s, m.value("x = 'all';")])[0]).tolist() == [[2]]
    row = m.value("x = sparse([0 5 0 6]);")
    assert call(m, "find", [row])[0].tolist() == [[2, 4]]


def test_sparse_forms_zero_preserving_and_full_fallback(m):
    s = m.value("x = sparse([1 0 -2; 0 3 0]);")
    a = call(m, "abs", [s])[0]
    assert type(a) is SparseMatrix and full_of(a).tolist() == [[1, 0, 2], [0, 3, 0]]
    top = call(m, "max", [s])[0]
    assert type(top) is np.ndarray and top.tolist() == [[1, 3, 0]]
    assert call(m, "isequal", [s, m.value("x = [1 0 -2; 0 3 0];")]) == [True]
    assert call(m, "size", [s])[0].tolist() == [[2, 3]]
    lg = call(m, "logical", [s])[0]
    assert type(lg) is SparseLogical and lg.nnz == 3


def test_sparse_forms_of_tril_triu_diag(m):
    s = m.value("x = sparse([1 0 -2; 0 3 0; 4 0 5]);")
    low = call(m, "tril", [s])[0]
    assert type(low) is SparseMatrix and full_of(low).tolist() == [[1, 0, 0], [0, 3, 0], [4, 0, 5]]
    assert full_of(call(m, "triu", [s, 1.0])[0]).tolist() == [[0, 0, -2], [0, 0, 0], [0, 0, 0]]
    assert full_of(call(m, "diag", [s])[0]).tolist() == [[1], [3], [5]]
    assert full_of(call(m, "diag", [s, -2.0])[0]).tolist() == [[4]]
    v = m.value("x = sparse([0 7]);")
    assert full_of(call(m, "diag", [v, 1.0])[0]).tolist() == [[0, 0, 0], [0, 0, 7], [0, 0, 0]]
    assert call(m, "diag", [s, 5.0])[0].shape == (0, 1)


def test_help_text(m):
    for name in ("sparse", "full", "issparse", "spdiags", "sprand", "speye"):
        assert BUILTINS[name].help.split("\n")[0].strip()
    assert "sparse(i,j,v,m,n,nz)" in BUILTINS["sparse"].help


def test_logical_sparse_arithmetic_is_double(m):
    x = m.value("L = sparse([true false true]); x = L + L;")
    assert type(x) is SparseMatrix and full_of(x).tolist() == [[2, 0, 2]]
    y = m.value("L = sparse([true false true]); x = L * 3;")
    assert type(y) is SparseMatrix and full_of(y).tolist() == [[3, 0, 3]]
    z = m.value("L = sparse([true false true]); x = +L;")
    assert type(z) is SparseMatrix
    empty_sum = call(m, "sum", [m.value("x = sparse([]);")])[0]
    assert full_of(empty_sum).tolist() == [[0]]


def test_assigning_a_cell_into_sparse_fails(m):
    e = m.fails("x = speye(2); x(1) = {1};")
    assert e.identifier == "MATLAB:invalidConversion"
    assert e.message == "Conversion to double from cell is not possible."


def test_builtins_called_from_matlab_code_see_sparse_arguments(m):
    m.run("S = sparse([1 2 3], [1 2 3], [4 -5 6]); n = nnz(S); [i, j, v] = find(S); "
          "t = sum(S); a = abs(S); f = isequal(S, full(S)); x = max(S);")
    vars = m.interp.base.vars
    assert vars["n"] == 3.0 and vars["f"] is True
    np.testing.assert_array_equal(np.hstack([vars["i"], vars["j"], vars["v"]]),
                                  [[1, 1, 4], [2, 2, -5], [3, 3, 6]])
    assert is_sparse(vars["t"]) and full_of(vars["t"]).tolist() == [[4, -5, 6]]
    assert is_sparse(vars["a"]) and full_of(vars["a"]).tolist() == [[4, 0, 0], [0, 5, 0], [0, 0, 6]]
    np.testing.assert_array_equal(vars["x"], [[4, 0, 6]])  # computed on the full form


def test_a_sparse_condition_is_true_when_every_element_is_nonzero(m):
    assert m.run("S = sparse([1 0; 0 1]); if S(1,1), disp('a'), end; "
                 "if S, disp('b'), else, disp('c'), end") == "a\nc\n"


def test_functions_that_hand_arguments_on_keep_them_sparse(m):
    # feval calls its function on the sparse matrix itself (abs keeps it sparse); deal and
    # struct hand it on as it is
    values = m.values(
        DOC_A + "S = sparse(-A); a = feval('abs', S); b = feval(@abs, S); c = feval(@(x) x * 2, S); "
        "[d, e] = deal(S); t = struct('f', S); f = t.f; g = feval('full', S);",
        "a", "b", "c", "d", "e", "f", "g")
    *kept, made_full = values
    doc = np.array([[0, 0, 0, 5], [0, 2, 0, 0], [1, 3, 0, 0], [0, 0, 4, 0]], dtype=float)
    for got, want in zip(kept, [doc, doc, -2 * doc, -doc, -doc, -doc], strict=True):
        np.testing.assert_array_equal(full_of(got), want)
    assert not is_sparse(made_full)
    np.testing.assert_array_equal(made_full, -doc)
