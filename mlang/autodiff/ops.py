"""Differentiable operations for writing gradient rules.

Each function takes raw arrays (first derivatives: computed directly, with
NumPy fast paths where MATLAB and NumPy agree) or dlarrays (the backward
pass being traced for higher derivatives: dispatched through the registered
builtin, so it is recorded with that builtin's own gradient rule).  Rules
written with these therefore have derivatives of every order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray, as_data
from mlang.autodiff.trace import (
    Primitive,
    align_formats,
    apply_direct,
    dl_call,
    record,
    trimmed_format,
)
from mlang.values import indexing
from mlang.values.concat import cat
from mlang.values.core import FLOAT_DTYPES, numpy_agrees
from mlang.values.operators import matrix_product

# Builtins by name, for rules that call MATLAB functions.  The registry of callables, a
# layer above, hands its table over (use_builtins), so autodiff never imports it.
_builtins: dict[str, Any] = {}


def use_builtins(table: dict[str, Any]) -> None:
    global _builtins
    _builtins = table


def _builtin(name: str) -> Any:
    return _builtins[name]


def call(name: str, *args: Any) -> Any:
    """The MATLAB builtin ``name`` applied to ``args``: an array (raw arguments) or a
    dlarray (dlarray arguments, recorded when traced)."""
    b = _builtin(name)
    for a in args:
        if type(a) is DlArray:
            return dl_call(b, None, list(args), 1)[0]
    return raw(b.invoke(None, list(args), 1)[0])


OPERATOR_NAMES = {"+": "plus", "-": "minus", ".*": "times", "./": "rdivide", ".\\": "ldivide",
                  ".^": "power", "*": "mtimes", "/": "mrdivide", "\\": "mldivide", "^": "mpower",
                  "==": "eq", "~=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge",
                  "&": "and", "|": "or"}


# Real double operands of one shape (or a scalar and an array) need none of MATLAB's
# class and size rules: these operators are computed directly.
_KERNELS = {"+": np.add, "-": np.subtract, ".*": np.multiply, "./": np.true_divide,
            "*": np.multiply, "/": np.true_divide}
_FLOATS = FLOAT_DTYPES


def operator(symbol: str, a: Any, b: Any) -> Any:
    """A binary operator with a dlarray operand."""
    if type(a) is DlArray and type(b) is DlArray:
        if a.fmt != b.fmt and a.fmt and b.fmt:
            (a, b), fmt = align_formats([a, b])  # dimensions lined up by label
            y = operator(symbol, a, b)
            if type(y) is not DlArray:
                return y
            return DlArray(y.data, trimmed_format(fmt, y.data.shape), y.node)
        if symbol == "*":  # a matrix product (the kernel below is for a scalar operand)
            x, y = a.data, b.data
            if x.ndim == 2 and y.ndim == 2 and x.dtype is y.dtype and x.dtype in _FLOATS \
                    and x.shape[1] == y.shape[0] and x.size != 1 and y.size != 1:
                return record(_builtin("mtimes"), (a, b), (x, y), matrix_product(x, y))
    kernel = _KERNELS.get(symbol)
    if kernel is not None:
        x = a.data if type(a) is DlArray else a
        y = b.data if type(b) is DlArray else b
        if numpy_agrees(x, y) and (symbol != "*" or type(x) is float or type(y) is float
                                      or x.size == 1 or y.size == 1) \
                and (symbol != "/" or type(y) is float or y.size == 1):
            if symbol == "./" or symbol == "/":
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    out = kernel(x, y)
            else:
                out = kernel(x, y)
            if type(out) is not np.ndarray:
                out = np.array([[out]])
            return record(_builtin(OPERATOR_NAMES[symbol]), (a, b), (x, y), out)
    if symbol == ".^" and type(b) is float and type(a) is DlArray and a.data.dtype in _FLOATS \
            and b.is_integer():
        x = a.data
        out = x * x if b == 2.0 else np.power(x, b)  # an integer power is real
        return record(_builtin("power"), (a, b), (x, b), out)
    return dl_call(_builtin(OPERATOR_NAMES[symbol]), None, [a, b], 1)[0]


def apply(p: Primitive, *args: Any) -> Any:
    for a in args:
        if type(a) is DlArray:
            if not p.direct:
                return dl_call(p, None, list(args), 1)[0]
            return apply_direct(p, args)  # as dl_call does
    return p.fn(*args)


def raw(v: Any) -> np.ndarray:
    """A MATLAB value as an ndarray (Python scalars become 1×1)."""
    if type(v) is np.ndarray:
        return v
    return np.array([[v]])


def _same_ndim(a: Any, b: Any) -> bool:
    """Raw numbers NumPy's operators treat as MATLAB does: numeric arrays of one rank, or
    an array and a double scalar."""
    ta, tb = type(a), type(b)
    if ta is np.ndarray:
        return a.dtype.kind in "fcb" and (tb is float or (tb is np.ndarray and a.ndim == b.ndim
                                                          and b.dtype.kind in "fcb"))
    return ta is float and tb is np.ndarray and b.dtype.kind in "fcb"


# --------------------------------------------------------- arithmetic


def _traced_or_general(symbol: str, a: Any, b: Any) -> Any:
    if type(a) is DlArray or type(b) is DlArray:
        return operator(symbol, a, b)
    return call(OPERATOR_NAMES[symbol], a, b)


def plus(a: Any, b: Any) -> Any:
    if _same_ndim(a, b):
        return a + b
    return _traced_or_general("+", a, b)


def minus(a: Any, b: Any) -> Any:
    if _same_ndim(a, b):
        return a - b
    return _traced_or_general("-", a, b)


def times(a: Any, b: Any) -> Any:
    if _same_ndim(a, b):
        return a * b
    return _traced_or_general(".*", a, b)


def rdivide(a: Any, b: Any) -> Any:
    if _same_ndim(a, b):
        return a / b  # (the backward pass runs with NumPy's warnings off)
    return _traced_or_general("./", a, b)


def uminus(a: Any) -> Any:
    if type(a) is np.ndarray:
        return -a
    if type(a) is DlArray and a.data.dtype in _FLOATS:
        return record(_builtin("uminus"), (a,), (a.data,), -a.data)
    return call("uminus", a)


def mtimes(a: Any, b: Any) -> Any:
    if type(a) is np.ndarray and type(b) is np.ndarray and a.ndim == 2 and b.ndim == 2 \
            and a.shape[1] == b.shape[0] and a.dtype.kind in "fc" and b.dtype.kind in "fc":
        return matrix_product(a, b)
    return call("mtimes", a, b)


def _matmul(a: np.ndarray, b: np.ndarray, ta: bool, tb: bool) -> np.ndarray:
    return matrix_product(a.T if ta else a, b.T if tb else b)


def _matmul_rule(g: Any, c: Any, a: Any, b: Any, ta: bool, tb: bool) -> tuple:
    # c = op(a) op(b) with op a transpose or not; each gradient is one more product
    if not ta and not tb:
        return (lambda: matmul(g, b, False, True), lambda: matmul(a, g, True, False), None, None)
    if ta and not tb:
        return (lambda: matmul(b, g, False, True), lambda: matmul(a, g, False, False), None, None)
    if not ta and tb:
        return (lambda: matmul(g, b, False, False), lambda: matmul(g, a, True, False), None, None)
    return (lambda: matmul(b, g, True, True), lambda: matmul(g, a, True, True), None, None)


MATMUL = Primitive("matmul", _matmul, _matmul_rule)


def matmul(a: Any, b: Any, ta: bool = False, tb: bool = False) -> Any:
    """op(a) * op(b) for real matrices, op a transpose when ``ta``/``tb``: one operation
    (a transposed operand is not a separate step)."""
    if type(a) is np.ndarray and type(b) is np.ndarray and a.dtype.kind == "f" \
            and b.dtype.kind == "f":
        return _matmul(a, b, ta, tb)
    return apply(MATMUL, a, b, ta, tb)


def transpose(a: Any) -> Any:
    if type(a) is np.ndarray and a.ndim == 2:
        return a.T
    return call("transpose", a)


def ctranspose(a: Any) -> Any:
    if type(a) is np.ndarray and a.ndim == 2:
        return a.conj().T if a.dtype.kind == "c" else a.T
    return call("ctranspose", a)


def data_of(v: Any) -> Any:
    """The raw data of a dlarray (other values as they are): for parts of a rule
    that are piecewise constant and need no trace."""
    return v.data if type(v) is DlArray else v


def conj(a: Any) -> Any:
    """conj, free for real values (the common case in rules)."""
    if type(a) is float:
        return a
    data = a.data if type(a) is DlArray else a
    if type(data) is np.ndarray and data.dtype.kind != "c":
        return a
    if type(a) is np.ndarray:
        return a.conj()
    return call("conj", a)


def real(a: Any) -> Any:
    data = a.data if type(a) is DlArray else a
    if type(data) is np.ndarray and data.dtype.kind != "c" or type(data) is float:
        return a
    if type(a) is np.ndarray:
        return a.real
    return call("real", a)


def where(mask: np.ndarray, a: Any) -> Any:
    """``a`` where ``mask`` holds, 0 elsewhere (``mask`` a raw logical array)."""
    if type(a) is np.ndarray and a.shape == mask.shape and a.dtype.kind == "f":
        return a * mask  # (faster than np.where; the gradients it masks are finite)
    return times(a, mask)


# --------------------------------------------------------- shapes


def _sum_to(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sum ``g`` down to ``shape`` (undo implicit expansion)."""
    if g.shape == shape:
        return g
    n = max(g.ndim, len(shape))
    gshape = g.shape + (1,) * (n - g.ndim)
    target = tuple(shape) + (1,) * (n - len(shape))
    g = g.reshape(gshape)
    axes = tuple(k for k in range(n) if target[k] == 1 and gshape[k] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return g.reshape(shape)


def _expand_to(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Repeat ``g`` along its singleton dimensions to ``shape`` (implicit expansion)."""
    if g.shape == shape:
        return g
    if g.size == 1:
        return np.full(shape, g.reshape(-1)[0])
    n = max(g.ndim, len(shape))
    out = np.empty(tuple(shape) + (1,) * (n - len(shape)), dtype=g.dtype)
    out[...] = g.reshape(g.shape + (1,) * (n - g.ndim))
    return out.reshape(shape)


SUM_TO = Primitive("sum_to", lambda g, shape: _sum_to(g, shape),
                   lambda gy, y, g, shape: (expand_to(gy, _shape(g)), None))
EXPAND_TO = Primitive("expand_to", lambda g, shape: _expand_to(g, shape),
                      lambda gy, y, g, shape: (sum_to(gy, _shape(g)), None))
RESHAPE_TO = Primitive("reshape_to", lambda g, shape: g.reshape(shape, order="F"),
                       lambda gy, y, g, shape: (reshape_to(gy, _shape(g)), None))


def _shape(v: Any) -> tuple[int, ...]:
    return v.data.shape if type(v) is DlArray else np.shape(v)


def sum_to(g: Any, shape: tuple[int, ...]) -> Any:
    if type(g) is np.ndarray:
        return _sum_to(g, tuple(shape))
    if type(g) is float:
        return np.full(shape, g) if shape != (1, 1) else np.array([[g]])
    return apply(SUM_TO, g, tuple(shape))


def expand_to(g: Any, shape: tuple[int, ...]) -> Any:
    if type(g) is np.ndarray:
        return _expand_to(g, tuple(shape))
    if type(g) is float:
        return np.full(shape, g)
    return apply(EXPAND_TO, g, tuple(shape))


def reshape_to(g: Any, shape: tuple[int, ...]) -> Any:
    if type(g) is np.ndarray:
        return g.reshape(shape, order="F")
    if type(g) is float:
        return np.full(shape, g)
    return apply(RESHAPE_TO, g, tuple(shape))


def shape_of(v: Any) -> tuple[int, ...]:
    """The stored shape of a raw array or dlarray (Python scalars are 1×1)."""
    if type(v) is DlArray:
        return v.data.shape
    if type(v) is np.ndarray:
        return v.shape
    return getattr(v, "shape", (1, 1))


def unbroadcast(g: Any, like: Any) -> Any:
    """The part of ``g`` belonging to an operand of shape ``like`` that was expanded."""
    t = type(like)
    if t is np.ndarray:
        shape = like.shape
    elif t is DlArray:
        shape = like.data.shape
    else:
        shape = getattr(like, "shape", (1, 1))
    tg = type(g)
    if tg is np.ndarray:
        if g.shape == shape:  # nothing was expanded (most rules' case)
            return g
    elif tg is DlArray and g.data.shape == shape:  # (a sum_to node would be an identity)
        return g
    return sum_to(g, shape)


# ------------------------------------------- functions that move elements


def _take(x: np.ndarray, pos: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The elements of ``x`` at column-major positions ``pos``, as an array of ``shape``."""
    picked = x[np.unravel_index(pos, x.shape, order="F")] if x.ndim > 1 else x[pos]
    return picked.reshape(shape, order="F")


def _put(g: np.ndarray, pos: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Zeros of ``shape`` with the elements of ``g`` added at positions ``pos``."""
    if len(pos) == 1:
        out = np.zeros(shape, dtype=g.dtype if g.dtype.kind in "fc" else np.float64)
        out[np.unravel_index(pos[0], shape, order="F")] = g.reshape(-1)[0]
        return out
    size = int(np.prod(shape))
    flat = g.reshape(-1, order="F")
    if flat.dtype.kind == "c":
        out = np.bincount(pos, flat.real, size) + 1j * np.bincount(pos, flat.imag, size)
    else:
        out = np.bincount(pos, flat.astype(np.float64, copy=False), size)
    dtype = g.dtype if g.dtype.kind in "fc" else np.float64
    return out.astype(dtype, copy=False).reshape(shape, order="F")


TAKE = Primitive("take", _take, lambda g, y, x, pos, shape: (put(g, pos, shape_of(x)), None, None))
PUT = Primitive("put", _put, lambda gy, y, g, pos, shape: (take(gy, pos, shape_of(g)), None, None))


def take(x: Any, pos: np.ndarray, shape: tuple[int, ...]) -> Any:
    return apply(TAKE, x, pos, tuple(shape))


def put(g: Any, pos: np.ndarray, shape: tuple[int, ...]) -> Any:
    return apply(PUT, g, pos, tuple(shape))


def _invoker(name: str) -> Any:
    b = _builtin(name)
    return lambda *args: b.invoke(None, list(args), 1)[0]


def moves_elements(forward: Any, first: int = 0, count: int | None = 1) -> Any:
    """The gradient rule of a function that only moves or copies the elements of its
    array arguments (``args[first:first+count]``, all the rest when ``count`` is None):
    reshape, permute, repmat, flip, cat, indexing...  The function is run once more on
    element numbers to learn where each output element came from, and the gradient is
    gathered back along that map.  ``forward`` is a builtin name or a function."""

    def rule(g: Any, y: Any, *args: Any) -> tuple:
        fn = forward if callable(forward) else _invoker(forward)
        end = len(args) if count is None else first + count
        numbered = [data_of(a) for a in args]
        spans = []
        next_id = 1  # 0 marks output elements that come from no argument (growth fill)
        for k in range(first, end):
            if type(args[k]) not in (DlArray, np.ndarray, float, bool, complex):
                continue  # (a cell or other value among the arguments: no gradient, no numbers)
            shape = shape_of(args[k])
            n = int(np.prod(shape))
            numbered[k] = np.arange(next_id, next_id + n, dtype=np.float64).reshape(shape, order="F")
            spans.append((k, next_id, n))
            next_id += n
        ids = raw(fn(*numbered)).reshape(-1, order="F").astype(np.intp)
        grads: list[Any] = [None] * len(args)
        for k, start, n in spans:
            if n == 0:
                continue
            mine = (ids >= start) & (ids < start + n)
            sources = ids[mine] - start
            if mine.all():
                grads[k] = put(g, sources, shape_of(args[k]))
            elif mine.any():
                picked = take(g, np.nonzero(mine)[0], (len(sources), 1))
                grads[k] = put(picked, sources, shape_of(args[k]))
        return tuple(grads)

    return rule


# ------------------------------------------------------ indexing a dlarray


def _index(x: np.ndarray, args: list) -> np.ndarray:
    if type(x) is np.ndarray and x.ndim == 2 and len(args) == 2 and x.dtype.kind in "fb":
        line = _line(x.shape, args)  # (complex data: indexing drops a zero imaginary part)
        if line is not None and 0 <= line[1] < x.shape[line[0]]:  # a row or column in range
            k = line[1]  # (a view, as indexing makes it)
            return x[k:k + 1, :] if line[0] == 0 else x[:, k:k + 1]
    return raw(indexing.index(x, args))


def _assign(x: np.ndarray, v: Any, args: list) -> np.ndarray:
    return raw(indexing.assign(x, args, v))


def _scalar_position(shape: tuple[int, ...], args: list) -> np.ndarray | None:
    """The column-major position picked by all-scalar subscripts x(i) or x(i,j) of a matrix
    (a whole row or column is a _line)."""
    if len(args) == 1 and type(args[0]) is float:
        return np.array([int(args[0]) - 1])
    if len(args) == 2 and len(shape) == 2:
        i, j = args
        if type(i) is float and type(j) is float:
            return np.array([int(i) - 1 + (int(j) - 1) * shape[0]])
    return None


_index_moves = moves_elements(_index)


def _line(shape: tuple[int, ...], args: list) -> tuple[int, int] | None:
    """(0, i) for a whole row x(i,:) and (1, j) for a whole column x(:,j) of a matrix (the
    subscript is in range: x was indexed)."""
    if len(args) != 2 or len(shape) != 2:
        return None
    i, j = args
    if type(i) is float and j is indexing.COLON and i.is_integer():
        return (0, int(i) - 1)
    if i is indexing.COLON and type(j) is float and j.is_integer():
        return (1, int(j) - 1)
    return None


def _line_positions(line: tuple[int, int], shape: tuple[int, ...]) -> np.ndarray:
    if line[0] == 0:
        return np.arange(shape[1]) * shape[0] + line[1]
    return np.arange(shape[0]) + line[1] * shape[0]


def _put_line(g: np.ndarray, line: tuple[int, int], shape: tuple[int, ...]) -> np.ndarray:
    """_put of ``g`` at the positions of a row or column ``line`` of a matrix of ``shape``,
    written into the line (the sum _put makes from zeros turns -0 into +0: so does + 0.0)."""
    if g.dtype.kind != "f" or g.size != shape[1 - line[0]] or g.size == 1:
        return _put(g, _line_positions(line, shape), shape)
    out = np.zeros(shape, dtype=g.dtype, order="F")  # (laid out as _put's)
    np.add(g.reshape(-1), 0.0, out=out[line[1]] if line[0] == 0 else out[:, line[1]])
    return out


def _take_line(x: np.ndarray, line: tuple[int, int], shape: tuple[int, ...]) -> np.ndarray:
    """_take of the row or column ``line`` of the matrix ``x``, as an array of ``shape``."""
    k = line[1]
    picked = x[k:k + 1, :] if line[0] == 0 else x[:, k:k + 1]
    return picked.reshape(shape, order="F").copy()


PUT_LINE = Primitive("put_line", _put_line,
                     lambda gy, y, g, line, shape: (take_line(gy, line, shape_of(g)), None, None))
TAKE_LINE = Primitive("take_line", _take_line,
                      lambda g, y, x, line, shape: (put_line(g, line, shape_of(x)), None, None))


def put_line(g: Any, line: tuple[int, int], shape: tuple[int, ...]) -> Any:
    if type(g) is np.ndarray:
        return _put_line(g, line, tuple(shape))
    return apply(PUT_LINE, g, line, tuple(shape))


def take_line(x: Any, line: tuple[int, int], shape: tuple[int, ...]) -> Any:
    if type(x) is np.ndarray:
        return _take_line(x, line, tuple(shape))
    return apply(TAKE_LINE, x, line, tuple(shape))


def _index_rule(g: Any, y: Any, x: Any, args: list) -> tuple:
    shape = shape_of(x)
    line = _line(shape, args)
    if line is not None:  # a row or column: the common case, without element positions
        return (put_line(g, line, shape), None)
    pos = _scalar_position(shape, args)
    if pos is not None:
        return (put(g, pos, shape), None)
    return _index_moves(g, y, x, args)


INDEX = Primitive("index", _index, _index_rule)
ASSIGN = Primitive("assign", _assign, moves_elements(_assign, 0, 2))


def _plain_indices(args: list) -> list:
    return [a.data if type(a) is DlArray else a for a in args]


def index(x: DlArray, args: list) -> Any:
    """``x(args...)`` for a dlarray ``x``."""
    data = x.data
    if data.ndim == 2 and len(args) == 1 and type(args[0]) is float and args[0].is_integer() \
            and 1 <= args[0] <= data.size:
        k = int(args[0]) - 1  # x(k): one element, the common case in loops
        r, c = k % data.shape[0], k // data.shape[0]
        return record(INDEX, (x, args), (data, args), data[r:r + 1, c:c + 1].copy())
    return apply(INDEX, x, _plain_indices(args))


def assign(x: Any, args: list, v: Any) -> Any:
    """``x(args...) = v`` where ``x`` or ``v`` is a dlarray: a new dlarray."""
    if type(x) is not DlArray:
        x = DlArray(np.zeros((0, 0)) if x is None else as_data(x))
    if type(v) is not DlArray:
        as_data(v)  # only numbers and logicals go into a dlarray
    return dl_call(ASSIGN, None, [x, v, _plain_indices(args)], 1)[0]


def concatenate(rows: list[list]) -> Any:
    """``[a, b; c, d]`` with a dlarray among the values."""
    joined = [call("horzcat", *row) if any(type(v) is DlArray for v in row) else cat(row, 1)
              for row in rows]
    if len(joined) == 1:
        return joined[0]
    return call("vertcat", *joined) if any(type(v) is DlArray for v in joined) else cat(joined, 0)
