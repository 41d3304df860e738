"""MATLAB's sparse matrices: 2-D double (real or complex) or logical arrays holding only
their nonzero elements, over SciPy's compressed sparse column format.

``class(S)`` is ``'double'`` or ``'logical'`` (``issparse`` tells them apart from full
arrays), so a sparse matrix is an object value whose ``matlab_class`` is that of its
elements: ``SparseMatrix`` for double, ``SparseLogical`` for logical.  ``matrix`` is a
``scipy.sparse.csc_matrix`` kept canonical (sorted indices, no duplicates, no explicit
zeros), so its stored entries are in MATLAB's column-major order; ``nzmax`` is the
allocated room MATLAB reports.

Operators follow MATLAB's rules for which results are sparse: both operands sparse
gives sparse; ``S+F``, ``S*F`` and ``S\\F`` with a full ``F`` give full; ``S.*F``,
``S./F``, ``S&F``, comparisons and scalar multiples keep the sparse form.

SciPy is imported on first use (inside functions): nothing here runs at start-up.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from mlang.errors import error
from mlang.values import operators
from mlang.values.cell import Cell
from mlang.values.core import char_codes, class_of, is_true, result, to_array
from mlang.values.indexing import assign
from mlang.values.objects import OBJECT_KINDS, MatlabObject
from mlang.values.subscripts import _index_array, _linear_result_shape

_ELEMENT_CLASSES = ("double", "logical", "char")


class SparseMatrix(MatlabObject):
    """A sparse double matrix (real or complex)."""

    matlab_class = "double"
    __slots__ = ("matrix", "nzmax")
    __array_ufunc__ = None  # NumPy operators defer to the object instead of boxing it

    def __init__(self, matrix: Any, nzmax: int | None = None) -> None:
        self.matrix = matrix
        self.nzmax = max(int(matrix.nnz), 1) if nzmax is None else max(int(nzmax), matrix.nnz, 1)

    @property
    def shape(self) -> tuple[int, int]:
        m, n = self.matrix.shape
        return (int(m), int(n))

    @property
    def nnz(self) -> int:
        return int(self.matrix.nnz)

    def truth(self) -> bool:
        return is_true(self.full())

    def full(self) -> object:
        """The full array (through ``result``: 1×1 becomes a scalar)."""
        return result(self.matrix.toarray(order="F"))

    # ------------------------------------------------------------ indexing

    def subsref_paren(self, args: list) -> Any:
        if not args:
            return self
        return index_sparse(self, args)

    def subsasgn_paren(self, args: list, rhs: Any) -> Any:
        return assign_sparse(self, args, rhs)

    @staticmethod
    def assign_into(target: Any, args: list, rhs: Any) -> Any:
        if type(target) is Cell:
            return NotImplemented  # c(k) = sparse: the cell's own rules
        if target is None:
            return assign_sparse(wrap(_empty_matrix(rhs.matrix.dtype)), args, rhs)
        if type(target) in OBJECT_KINDS:
            return NotImplemented
        # a full array stays full: the sparse values are stored as full ones
        return assign(target, args, rhs.full())

    @staticmethod
    def concatenate(rows: list[list]) -> Any:
        return concatenate_sparse(rows)

    # ------------------------------------------------------------ operators

    @staticmethod
    def binary_operator(symbol: str, a: Any, b: Any) -> Any:
        return binary(symbol, a, b)

    def unary_operator(self, symbol: str) -> Any:
        if symbol == "-":
            return wrap(-_arith(self.matrix))
        if symbol == "+":
            return wrap(_arith(self.matrix))
        if symbol == ".'":
            return wrap(self.matrix.T)
        if symbol == "'":
            return wrap(self.matrix.conj().T)
        if symbol == "~":
            return from_full(operators.logical_not(self.full()), sparse_out=True)
        return NotImplemented

    # -------------------------------------------------------------- display

    def display_body(self, style: Any, array_lines: Any) -> list:
        """MATLAB's sparse display: a header naming size, class and the nonzero count,
        then one ``(row,col)  value`` line per nonzero in column-major order."""
        lines: list = [_header(self)]
        if 0 in self.shape:
            return lines
        if self.nnz == 0:
            return [*lines, None, "   All zero"]
        coo = self.matrix.tocoo()
        rows, cols, vals = coo.row, coo.col, coo.data
        order = np.lexsort((rows, cols))
        rows, cols, vals = rows[order], cols[order], vals[order]
        labels = [f"({r + 1},{c + 1})" for r, c in zip(rows.tolist(), cols.tolist(), strict=True)]
        width = max(len(t) for t in labels)
        texts = _value_texts(vals.astype(np.float64) if vals.dtype == np.bool_ else vals,
                             array_lines)
        value_width = max(len(t) for t in texts)
        body = [f"   {label:>{width}}{text:>{value_width}}"
                for label, text in zip(labels, texts, strict=True)]
        return [*lines, None, *body]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.shape[0]}x{self.shape[1]}, nnz={self.nnz})"


class SparseLogical(SparseMatrix):
    """A sparse logical matrix."""

    matlab_class = "logical"
    __slots__ = ()


# ------------------------------------------------------------------ building


def is_sparse(v: object) -> bool:
    t = type(v)
    return t is SparseMatrix or t is SparseLogical


def wrap(matrix: Any, nzmax: int | None = None) -> SparseMatrix:
    """A sparse value holding ``matrix`` (any SciPy sparse form), made canonical; a complex
    matrix whose imaginary parts are all zero becomes real (as full results do)."""
    # SciPy on first use: keeps start-up fast
    import scipy.sparse

    m = scipy.sparse.csc_matrix(matrix)
    if m.dtype.kind == "c" and not m.data.imag.any():
        m = m.real
    if m.dtype.kind == "f" and m.dtype != np.float64 or m.dtype.kind in "iu":
        m = m.astype(np.float64)
    elif m.dtype.kind == "c" and m.dtype != np.complex128:
        m = m.astype(np.complex128)
    m.sum_duplicates()
    m.eliminate_zeros()
    m.sort_indices()
    cls = SparseLogical if m.dtype == np.bool_ else SparseMatrix
    return cls(m, nzmax)


def _empty_matrix(dtype: np.dtype, shape: tuple[int, int] = (0, 0)) -> Any:
    # SciPy on first use: keeps start-up fast
    import scipy.sparse

    return scipy.sparse.csc_matrix(shape, dtype=dtype)


def full_numbers(v: object, symbol: str = "sparse") -> np.ndarray:
    """The ndarray a full operand brings into a sparse operation: double or logical (char
    as its codes); 2-D only."""
    cls = class_of(v)
    if cls not in _ELEMENT_CLASSES:
        if cls == "single":
            raise error("MATLAB:sparseSingle",
                        "Sparse single array arithmetic operations are not supported.")
        raise error("MATLAB:UndefinedFunction",
                    f"Operator '{symbol}' is not supported for operands of type '{cls}' "
                    "combined with sparse.")
    a = to_array(v)
    if a.dtype.kind == "V":
        a = char_codes(a).astype(np.float64)
    if a.ndim > 2:
        raise error("MATLAB:sparfcn:ndArray", "Sparse N-D arrays are not supported.")
    return a


def from_full(v: object, sparse_out: bool = True) -> object:
    """A full result made sparse (when ``sparse_out``), else as it is."""
    if not sparse_out or is_sparse(v):
        return v
    return wrap(full_numbers(v))


def to_full(v: object) -> object:
    """A value with any sparse form made full."""
    return v.full() if is_sparse(v) else v  # type: ignore[attr-defined]


def _arith(m: Any) -> Any:
    """A matrix as numbers for arithmetic (logical counts as double)."""
    return m.astype(np.float64) if m.dtype == np.bool_ else m


# ------------------------------------------------------------------ operators


_SPARSE_IF_ANY = frozenset({".*", "==", "~=", "<", "<=", ">", ">=", "&", "|"})


def _is_scalar_value(v: object) -> bool:
    t = type(v)
    return t is float or t is bool or t is complex or \
        (t is np.ndarray and v.size == 1) or (is_sparse(v) and v.shape == (1, 1))  # type: ignore[attr-defined]


def _scalar_number(v: object) -> complex | float:
    a = to_array(to_full(v)) if not is_sparse(v) else v.matrix.toarray()  # type: ignore[attr-defined]
    if a.dtype.kind == "V":
        a = char_codes(a)
    x = a.reshape(-1)[0].item()
    return float(x) if not isinstance(x, complex) else x


def _finite(x: complex | float) -> bool:
    return bool(np.isfinite(x))


def binary(symbol: str, a: Any, b: Any) -> object:
    """``a symbol b`` where ``a`` or ``b`` is sparse."""
    sa, sb = is_sparse(a), is_sparse(b)
    for v in (a, b):
        if not is_sparse(v):
            full_numbers(v, symbol)  # the class check (errors for single, integers...)
    if symbol in ("*", "\\", "/", "^"):
        return _matrix_operator(symbol, a, b)
    both = sa and sb
    if symbol in ("+", "-"):
        if both and a.shape == b.shape:
            x, y = _arith(a.matrix), _arith(b.matrix)
            return wrap(x + y if symbol == "+" else x - y)
        return from_full(_dense(symbol, a, b), sparse_out=both)
    if symbol == ".*":
        if both and a.shape == b.shape:
            return wrap(_arith(a.matrix).multiply(_arith(b.matrix)))
        s, other = (a, b) if sa else (b, a)
        if _is_scalar_value(other) and not is_sparse(other):
            x = _scalar_number(other)
            if _finite(x):
                return wrap(_arith(s.matrix) * x)
        elif not is_sparse(other) and other.shape == s.shape:
            f = full_numbers(other)
            if np.isfinite(f).all():
                return wrap(_arith(s.matrix).multiply(f.astype(np.float64) if f.dtype == np.bool_ else f))
        return from_full(_dense(symbol, a, b))
    if symbol in ("./", ".\\"):
        num, den = (a, b) if symbol == "./" else (b, a)
        if is_sparse(num) and not is_sparse(den) and _is_scalar_value(den):
            x = _scalar_number(den)
            if x != 0 and _finite(x):
                return wrap(_arith(num.matrix) / x)
        return from_full(_dense(symbol, a, b))
    if symbol == ".^":
        if sa and not sb and _is_scalar_value(b):
            p = _scalar_number(b)
            if isinstance(p, float) and p > 0 and np.isfinite(p) and \
                    (p == int(p) or a.matrix.dtype.kind != "c" and (a.matrix.data >= 0).all()):
                m = _arith(a.matrix).copy()
                m.data = m.data ** p
                return wrap(m)
        return from_full(_dense(symbol, a, b), sparse_out=sa)
    if symbol in _SPARSE_IF_ANY:
        return from_full(_dense(symbol, a, b))
    return NotImplemented


def _dense(symbol: str, a: Any, b: Any) -> object:
    """The operator computed on full forms (MATLAB's size rules and errors)."""
    return operators.binary(symbol, to_full(a), to_full(b))


def _matrix_operator(symbol: str, a: Any, b: Any) -> object:
    sa, sb = is_sparse(a), is_sparse(b)
    if symbol == "*":
        if _is_scalar_value(a) or _is_scalar_value(b):
            return binary(".*", a, b)
        if a.shape[1] != b.shape[0]:
            return operators.mtimes(to_full(a), to_full(b))  # MATLAB's inner-dimension error
        x = _arith(a.matrix) if sa else full_numbers(a)
        y = _arith(b.matrix) if sb else full_numbers(b)
        if sa and sb:
            return wrap(x @ y)
        if x.dtype == np.bool_:
            x = x.astype(np.float64)
        if y.dtype == np.bool_:
            y = y.astype(np.float64)
        return result(np.asarray(x @ y))
    if symbol == "\\":
        if _is_scalar_value(a):
            return binary(".\\", a, b)
        return _solve(a, b)
    if symbol == "/":
        if _is_scalar_value(b):
            return binary("./", a, b)
        # a / b is (b.' \ a.').'
        bt = b.unary_operator(".'") if sb else operators.transpose(b)
        at = a.unary_operator(".'") if sa else operators.transpose(a)
        x = _solve(bt, at)
        return x.unary_operator(".'") if is_sparse(x) else operators.transpose(x)
    # ^: a sparse square matrix to a nonnegative integer power stays sparse
    if sa and not sb and _is_scalar_value(b):
        p = _scalar_number(b)
        m, n = a.shape
        if m == n and isinstance(p, float) and p >= 0 and p == int(p):
            # SciPy on first use: keeps start-up fast
            import scipy.sparse

            out = scipy.sparse.identity(m, format="csc")
            base = _arith(a.matrix)
            k = int(p)
            while k:
                if k & 1:
                    out = out @ base
                base = base @ base
                k >>= 1
            return wrap(out)
    return from_full(operators.mpower(to_full(a), to_full(b)), sparse_out=sa and sb)


def _solve(a: Any, b: Any) -> object:
    """``a \\ b`` with ``a`` a matrix: SciPy's sparse solver for a square sparse ``a``
    (sparse ``b`` gives sparse), MATLAB's full solver otherwise."""
    sa, sb = is_sparse(a), is_sparse(b)
    m, n = a.shape
    if sa and m == n and b.shape[0] == m and m > 0:
        # SciPy on first use: keeps start-up fast
        import scipy.sparse.linalg

        rhs = _arith(b.matrix) if sb else full_numbers(b)
        if rhs.dtype == np.bool_:
            rhs = rhs.astype(np.float64)
        with warnings.catch_warnings():
            warnings.simplefilter("error", scipy.sparse.linalg.MatrixRankWarning)
            try:
                x = scipy.sparse.linalg.spsolve(_arith(a.matrix), rhs)
            except (scipy.sparse.linalg.MatrixRankWarning, RuntimeError):
                x = None  # singular: the full solver gives MATLAB's warning and values
        if x is not None:
            if sb:
                return wrap(x if scipy.sparse.issparse(x) else
                            np.asarray(x).reshape(m, -1, order="F"))
            return result(np.asarray(x).reshape(m, -1, order="F"))
    out = operators.mldivide(to_full(a), to_full(b))
    return from_full(out, sparse_out=sa and sb)


# ------------------------------------------------------------------ indexing


def _positions_lookup(s: SparseMatrix, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For 0-based linear positions: which are stored, and the stored values there."""
    m = s.shape[0]
    mat = s.matrix
    cols = np.repeat(np.arange(mat.shape[1]), np.diff(mat.indptr))
    stored = cols.astype(np.int64) * m + mat.indices  # sorted: the matrix is canonical
    where = np.searchsorted(stored, positions)
    where = np.minimum(where, max(stored.size - 1, 0))
    hit = stored[where] == positions if stored.size else np.zeros(positions.shape, dtype=bool)
    return hit, mat.data[where[hit]] if stored.size else mat.data[:0]


def index_sparse(s: SparseMatrix, args: list) -> SparseMatrix:
    """``S(args...)``: always sparse."""
    # SciPy on first use: keeps start-up fast
    import scipy.sparse

    m, n = s.shape
    nargs = len(args)
    if nargs == 1:
        arg = args[0]
        total = m * n
        idx = _index_array(arg, total, None, 1)
        if isinstance(idx, slice):
            coo = s.matrix.tocoo()
            where = coo.col.astype(np.int64) * m + coo.row
            return wrap(scipy.sparse.csc_matrix((coo.data, (where, np.zeros_like(where))),
                                                shape=(total, 1), dtype=s.matrix.dtype), s.nzmax)
        positions = idx.astype(np.int64)
        out_shape = _linear_result_shape((m, n), arg, positions.size)
        if len(out_shape) > 2:
            raise error("MATLAB:sparfcn:ndArray", "Sparse N-D arrays are not supported.")
        hit, values = _positions_lookup(s, positions)
        k = np.flatnonzero(hit)
        rows_out = out_shape[0]
        out = scipy.sparse.csc_matrix((values, (k % rows_out, k // rows_out)), shape=out_shape,
                                      dtype=s.matrix.dtype)
        return wrap(out)
    for pos in range(2, nargs):
        extra = _index_array(args[pos], 1, pos + 1, nargs)
        if not isinstance(extra, slice) and extra.size != 1:
            raise error("MATLAB:sparfcn:ndArray", "Sparse N-D arrays are not supported.")
    r = _index_array(args[0], m, 1, nargs)
    c = _index_array(args[1], n, 2, nargs)
    mat = s.matrix
    picked = mat[:, c] if not isinstance(c, slice) else mat
    picked = picked[r, :] if not isinstance(r, slice) else picked
    return wrap(picked)


def _rhs_values(rhs: object) -> np.ndarray:
    """The values an assignment stores, as a full 2-D array."""
    if is_sparse(rhs):
        return rhs.matrix.toarray()  # type: ignore[attr-defined]
    cls = class_of(rhs)
    if cls not in _ELEMENT_CLASSES:
        raise error("MATLAB:invalidConversion", f"Conversion to double from {cls} is not possible.")
    return full_numbers(rhs)


def _out_dtype(target: np.dtype, values: np.ndarray) -> np.dtype:
    if target == np.bool_ and values.dtype == np.bool_:
        return np.dtype(np.bool_)
    if target.kind == "c" or values.dtype.kind == "c":
        return np.dtype(np.complex128)
    return np.dtype(np.float64)


def _mismatch() -> Exception:
    return error("MATLAB:subsassigndimmismatch",
                 "Unable to perform assignment because the size of the left side is not equal "
                 "to the size of the right side.")


def assign_sparse(s: SparseMatrix, args: list, rhs: object) -> SparseMatrix:
    """``S(args...) = rhs``: the new sparse matrix (grown when indices pass its end)."""
    if not args:
        raise error("MATLAB:index:assignmentNoSubscripts",
                    "An indexing expression on the left side of an assignment must have at "
                    "least one subscript.")
    if type(rhs) is np.ndarray and rhs.shape == (0, 0) and rhs.dtype == np.float64:
        return delete_sparse(s, args)
    values = _rhs_values(rhs)
    m, n = s.shape
    if len(args) == 1:
        idx = _index_array(args[0], None, None, 1)
        positions = np.arange(m * n) if isinstance(idx, slice) else idx.astype(np.int64)
        count = positions.size
        if values.size != 1 and values.size != count:
            raise error("MATLAB:index:assignmentDimensionMismatch" if count else
                        "MATLAB:subsassignnumelmismatch",
                        "Unable to perform assignment because the left and right sides have a "
                        "different number of elements.")
        flat = np.broadcast_to(values.reshape(-1, order="F"), (count,))
        new_m, new_n = m, n
        if count and positions.max() >= m * n:
            top = int(positions.max()) + 1
            if n == 1 and m > 1:
                new_m, new_n = top, 1
            elif m <= 1:
                new_m, new_n = 1, top  # a row, a scalar or an empty grows to the right
            else:
                raise error("MATLAB:indexed:growVector",
                            "Attempt to grow array along ambiguous dimension.")
        rows, cols = positions % max(new_m, 1), positions // max(new_m, 1)
        return _store(s, (new_m, new_n), rows, cols, flat, None)
    nargs = len(args)
    for pos in range(2, nargs):
        extra = _index_array(args[pos], None, pos + 1, nargs)
        if isinstance(extra, slice) or extra.size != 1 or extra[0] != 0:
            raise error("MATLAB:sparfcn:ndArray", "Sparse N-D arrays are not supported.")
    r = _index_array(args[0], None, 1, nargs)
    c = _index_array(args[1], None, 2, nargs)
    rows = np.arange(m) if isinstance(r, slice) else r.astype(np.int64)
    cols = np.arange(n) if isinstance(c, slice) else c.astype(np.int64)
    if isinstance(r, slice) and m == 0 and n == 0 and values.size:
        rows = np.arange(values.shape[0])
    if isinstance(c, slice) and m == 0 and n == 0 and values.size:
        cols = np.arange(values.shape[1] if values.ndim > 1 else 1)
    shape = (rows.size, cols.size)
    if values.size == 1:
        block = np.broadcast_to(values.reshape(1, 1), shape)
    elif values.shape == shape:
        block = values
    elif values.size == rows.size * cols.size and \
            [d for d in values.shape if d != 1] == [d for d in shape if d != 1]:
        block = values.reshape(shape, order="F")
    else:
        raise _mismatch()
    new_m = max(m, int(rows.max()) + 1 if rows.size else 0)
    new_n = max(n, int(cols.max()) + 1 if cols.size else 0)
    rr, cc = np.meshgrid(rows, cols, indexing="ij")
    return _store(s, (new_m, new_n), rr.reshape(-1, order="F"), cc.reshape(-1, order="F"),
                  block.reshape(-1, order="F"), None)


def delete_sparse(s: SparseMatrix, args: list) -> SparseMatrix:
    """``S(args...) = []``: rows, columns or (linearly) elements removed."""
    # SciPy on first use: keeps start-up fast
    import scipy.sparse

    m, n = s.shape
    if len(args) == 1:
        idx = _index_array(args[0], m * n, None, 1)
        if isinstance(idx, slice):
            return wrap(_empty_matrix(s.matrix.dtype))
        if idx.size == 0:
            return s
        keep = np.ones(m * n, dtype=bool)
        keep[idx] = False
        coo = s.matrix.tocoo()
        where = coo.col.astype(np.int64) * m + coo.row
        survive = keep[where]
        # the positions that stay, renumbered in order
        new_pos = np.cumsum(keep) - 1
        count = int(keep.sum())
        shape = (count, 1) if n == 1 and m != 1 else (1, count)
        pos = new_pos[where[survive]]
        rows, cols = (pos, np.zeros_like(pos)) if shape[1] == 1 else (np.zeros_like(pos), pos)
        return wrap(scipy.sparse.csc_matrix((coo.data[survive], (rows, cols)), shape=shape,
                                            dtype=s.matrix.dtype))
    sizes = (m, n, *[1] * (len(args) - 2))
    idxs = [_index_array(a, size, pos, len(args))
            for pos, (a, size) in enumerate(zip(args, sizes, strict=True), 1)]
    partial = [d for d, i in enumerate(idxs)
               if not (isinstance(i, slice) or np.array_equal(np.unique(i), np.arange(sizes[d])))]
    if len(partial) > 1:
        raise error("MATLAB:nullAssignment",
                    "A null assignment can have only one non-colon index.")
    if not partial:
        named = [d for d, i in enumerate(idxs) if not isinstance(i, slice)]
        axis = named[0] if len(named) == 1 else 0
        return wrap(_empty_matrix(s.matrix.dtype, (0, n) if axis == 0 else (m, 0)))
    d = partial[0]
    if d > 1:
        return s
    keep = np.ones((m, n)[d], dtype=bool)
    keep[idxs[d]] = False
    kept = np.flatnonzero(keep)
    return wrap(s.matrix[kept, :] if d == 0 else s.matrix[:, kept])


def _store(s: SparseMatrix, shape: tuple[int, int], rows: np.ndarray, cols: np.ndarray,
           values: np.ndarray, nzmax: int | None) -> SparseMatrix:
    """``s`` grown to ``shape`` with ``values`` written at (rows, cols); a later write to
    the same place wins, as in MATLAB."""
    # SciPy on first use: keeps start-up fast
    import scipy.sparse

    dtype = _out_dtype(s.matrix.dtype, values)
    if rows.size:
        # the last write to a place wins: keep each place's last occurrence
        keys = cols.astype(np.int64) * max(shape[0], 1) + rows
        _, last = np.unique(keys[::-1], return_index=True)
        keep = keys.size - 1 - last
        rows, cols, values = rows[keep], cols[keep], values[keep]
    old = s.matrix.tocoo()
    m = shape[0]
    old_keys = old.col.astype(np.int64) * max(m, 1) + old.row
    new_keys = cols.astype(np.int64) * max(m, 1) + rows
    survive = ~np.isin(old_keys, new_keys)
    all_rows = np.concatenate([old.row[survive], rows])
    all_cols = np.concatenate([old.col[survive], cols])
    all_vals = np.concatenate([old.data[survive].astype(dtype), np.asarray(values).astype(dtype)])
    out = scipy.sparse.csc_matrix((all_vals, (all_rows, all_cols)), shape=shape, dtype=dtype)
    return wrap(out, max(s.nzmax, 1) if nzmax is None else nzmax)


# ------------------------------------------------------------- concatenation


def concatenate_sparse(rows: list[list]) -> object:
    """``[a b; c d]`` with some element sparse: a sparse result."""
    # SciPy on first use: keeps start-up fast
    import scipy.sparse

    built = []
    for row in rows:
        parts = []
        for v in row:
            if type(v) in OBJECT_KINDS and not is_sparse(v):
                return NotImplemented
            if type(v) is Cell:
                return NotImplemented
            mat = v.matrix if is_sparse(v) else scipy.sparse.csc_matrix(full_numbers(v, "[]"))
            if mat.shape == (0, 0):
                continue
            parts.append(mat)
        if not parts:
            continue
        heights = {p.shape[0] for p in parts}
        if len(heights) > 1:
            raise error("MATLAB:catenate:dimensionMismatch",
                        "Dimensions of arrays being concatenated are not consistent.")
        built.append(scipy.sparse.hstack(parts, format="csc") if len(parts) > 1 else parts[0])
    if not built:
        return wrap(_empty_matrix(np.dtype(np.float64)))
    widths = {b.shape[1] for b in built}
    if len(widths) > 1:
        raise error("MATLAB:catenate:dimensionMismatch",
                    "Dimensions of arrays being concatenated are not consistent.")
    out = scipy.sparse.vstack(built, format="csc") if len(built) > 1 else built[0]
    dtypes = {p.dtype for p in built}
    if np.dtype(np.bool_) in dtypes and len(dtypes) > 1:
        out = out.astype(np.complex128 if any(d.kind == "c" for d in dtypes) else np.float64)
    return wrap(out)


# ------------------------------------------------------------------- display


def _header(s: SparseMatrix) -> str:
    m, n = s.shape
    size = f"{m}\u00d7{n}"
    logical = s.matrix.dtype == np.bool_
    kind = "logical" if logical else ("complex double" if s.matrix.dtype.kind == "c" else "double")
    count = s.nnz
    nonzeros = "" if count == 0 or (m, n) == (1, 1) else \
        f" ({count} nonzero{'s' if count != 1 else ''})"
    if m == 0 or n == 0:
        if logical:
            return f"  {size} empty sparse logical array"
        shape = "row vector" if m == 1 else ("column vector" if n == 1 else "matrix")
        return f"  {size} empty sparse {kind} {shape}"
    if (m, n) == (1, 1):
        return f"  sparse {kind}"
    if logical:
        return f"  {size} sparse logical array{nonzeros}"
    shape = "row vector" if m == 1 else ("column vector" if n == 1 else "matrix")
    return f"  {size} sparse {kind} {shape}{nonzeros}"


def _value_texts(vals: np.ndarray, array_lines: Any) -> list[str]:
    """The nonzero values as the full display writes them, one text each."""
    column = vals.reshape(-1, 1)
    lines = [t for t in array_lines(column) if t]
    if len(lines) == vals.size:
        return ["   " + t for t in lines]
    # a common scale factor would be shown: each value is written on its own instead
    texts = []
    for v in vals.tolist():
        own = [t for t in array_lines(np.array([[v]], dtype=vals.dtype)) if t]
        texts.append("   " + (own[-1] if own else str(v)))
    return texts


# The classes of sparse values (what a builtin call checks its arguments against).
SPARSE_TYPES = (SparseMatrix, SparseLogical)
