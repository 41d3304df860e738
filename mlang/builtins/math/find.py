"""find: the indices (and values) of nonzero elements."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import integer_scalar, text_option
from mlang.builtins.math.reductions import nonzero_values
from mlang.builtins.math.short_rows import short_truths
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import result, to_array


def _literal_first(literals: tuple) -> Any:
    """find(X, 1) with the 1 written as a literal: a function giving the position of the first
    nonzero element of a short logical or real double vector (NotImplemented for anything
    else, and when there is none), see Builtin.specialize."""
    if len(literals) != 2 or type(literals[1]) is not float or literals[1] != 1.0:
        return None

    def first_nonzero(args: list) -> Any:
        values = short_truths(args[0])
        if values is not None:
            for k, v in enumerate(values):
                if v:  # (NaN is nonzero)
                    return k + 1.0
        return NotImplemented

    return first_nonzero


@builtin(max_out=3, nargout=True, dl="data", specialize=_literal_first)
def find(x: Any, n: Any = None, direction: Any = None, *, nargout: int = 1) -> object:
    """k = find(X)
    k = find(X,n)
    k = find(X,n,direction)
    [row,col] = find(___)
    [row,col,v] = find(___)

    Indices of nonzero elements: the first (or, with 'last', the last) n of them."""
    if type(n) is float and n == 1.0 and nargout <= 1 and direction is None:
        values = short_truths(x)
        if values is not None:
            # the first nonzero of a few elements, read as Python values (NaN is nonzero)
            for k, v in enumerate(values):
                if v:
                    return k + 1.0
    if nargout <= 1 and direction is None and type(x) is np.ndarray and x.ndim == 2 \
            and (x.dtype == np.bool_ or x.dtype == np.float64) and (x.shape[0] == 1 or x.shape[1] == 1):
        # a logical or real double row or column, all of it or its first n: a vector's
        # column-major positions are its positions in memory
        if type(n) is float and n == 1.0 and x.dtype == np.bool_ and x.size:
            first = int(x.argmax())  # the first true element (or 0 when there is none)
            if x.flat[first]:
                return float(first + 1)
        if n is None or (type(n) is float and n >= 1.0 and n.is_integer()):
            positions = x.reshape(-1).nonzero()[0]
            if n is not None and n < positions.size:
                positions = positions[:int(n)]
            out_shape = (1, positions.size) if x.shape[0] == 1 else (positions.size, 1)
            return result((positions + 1.0).reshape(out_shape))
    a = nonzero_values(x, "find")
    positions = np.flatnonzero(a.reshape(-1, order="F"))
    if n is not None:
        positions = positions[find_limit(n, direction, positions.size)]
    shape = a.shape
    # a row (or scalar) input gives rows, [] gives [], anything else columns
    if shape == (0, 0):
        out_shape: tuple[int, int] = (0, 0)
    elif len(shape) == 2 and shape[0] == 1:
        out_shape = (1, positions.size)
    else:
        out_shape = (positions.size, 1)
    if nargout <= 1:
        return result((positions + 1).astype(np.float64).reshape(out_shape))
    height = max(shape[0], 1)
    r = result((positions % height + 1).astype(np.float64).reshape(out_shape))
    c = result((positions // height + 1).astype(np.float64).reshape(out_shape))
    if nargout == 2:
        return r, c
    picked = to_array(x).reshape(-1, order="F")[positions].reshape(out_shape)
    return r, c, result(picked)


def find_limit(n: Any, direction: Any, found: int) -> slice:
    """Which of ``found`` indices ``find(X, n, direction)`` keeps: the first or the last n."""
    message = "Second argument must be a positive scalar integer."
    count = integer_scalar(n, message, "MATLAB:find:nonIntegerNumberOfElements")
    if count < 1:
        raise error("MATLAB:find:nonIntegerNumberOfElements", message)
    where = "first" if direction is None else text_option(direction)
    if where not in ("first", "last"):
        raise error("MATLAB:find:invalidDirection", "Direction must be 'first' or 'last'.")
    return slice(None, count) if where == "first" else slice(max(found - count, 0), None)
