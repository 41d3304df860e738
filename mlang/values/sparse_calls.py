"""How a function call treats sparse arguments: the one entry point ``sparse_call``,
for the call path to use when an argument is a sparse matrix (as ``dl_call`` is
used for dlarray arguments).

A builtin sees a sparse argument in one of four ways:

* its sparse form (``SPARSE_FORMS``, by name), filled by the modules that define
  them (``mlang.builtins.math.sparse``: nnz, find, sum...);
* as it is, when the builtin handles sparse values itself or needs only their size or
  class (``SPARSE_AWARE``: the sparse builtins, size, class, the operators...);
* on the stored values only, for functions that map zero to zero (abs, sqrt, round...):
  the result keeps the sparsity pattern and stays sparse, as in MATLAB;
* made full, for everything else (the result is full).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.values.core import to_array
from mlang.values.sparse import is_sparse, to_full, wrap

# name -> fn(args, nargout) returning the list of outputs
SPARSE_FORMS: dict[str, Callable[[list, int], list]] = {}

# Builtins that take sparse arguments as they are.
SPARSE_AWARE: set[str] = {
    "size", "numel", "length", "ndims", "isempty", "isscalar", "isvector", "ismatrix",
    "isrow", "iscolumn", "issquare", "class", "isa", "isnumeric", "islogical", "isfloat",
    "isinteger", "ischar", "iscell", "isstruct", "isobject", "disp", "display",
    "plus", "minus", "times", "rdivide", "ldivide", "power", "mtimes", "mrdivide",
    "mldivide", "mpower", "eq", "ne", "lt", "le", "gt", "ge", "and", "or", "not",
    "uminus", "uplus", "transpose", "ctranspose", "horzcat", "vertcat",
    # functions that hand their arguments on as they are
    "feval", "deal", "struct",
}

# Element-wise functions with f(0) == 0: computed on the stored values, result sparse.
ZERO_PRESERVING = frozenset({
    "abs", "sqrt", "sin", "tan", "sinh", "tanh", "asin", "atan", "asinh", "atanh",
    "round", "fix", "floor", "ceil", "real", "imag", "conj", "sign", "expm1", "log1p",
    "deg2rad", "rad2deg", "sind", "tand", "sinpi",
})


def sparse_call(builtin: Any, interp: Any, args: list, nargout: int) -> list:
    """``builtin(args...)`` where some argument is sparse (``builtin`` has ``name`` and
    ``invoke(interp, args, nargout)``)."""
    name = builtin.name
    form = SPARSE_FORMS.get(name)
    if form is not None:
        return form(args, nargout)
    if name in SPARSE_AWARE:
        return builtin.invoke(interp, args, nargout)
    if name in ZERO_PRESERVING and len(args) == 1 and is_sparse(args[0]):
        return [map_stored(args[0], lambda data: builtin.invoke(interp, [data], 1)[0])]
    return builtin.invoke(interp, [to_full(a) for a in args], nargout)


def map_stored(s: Any, fn: Callable[[np.ndarray], object]) -> object:
    """A sparse matrix with ``fn`` applied to its stored values (a column array)."""
    mat = s.matrix.copy()
    data = mat.data.reshape(-1, 1)
    if data.dtype == np.bool_:
        data = data.astype(np.float64)
    out = to_array(fn(data)).reshape(-1)
    if out.dtype.kind not in "fcb":
        return fn(to_array(s.full()))  # a class sparse cannot hold: the full result
    mat = mat.astype(out.dtype) if mat.dtype != out.dtype else mat
    mat.data = out
    return wrap(mat)
