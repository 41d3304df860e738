"""Replay kernels: the data of a builtin's result on its arguments' data, computed
directly where that gives the builtin's own result (the same values, class and shape),
without the builtin's argument parsing; anything else calls the builtin."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff.trace import result_data
from mlang.values.core import CHAR, FLOAT_DTYPES, char_text, numpy_agrees

# Element-wise operators whose result, for real arrays of one floating class (or an array
# and a double scalar) that NumPy broadcasts as MATLAB expands them, is NumPy's: computed
# directly, as the operators on dlarrays compute them (mlang.autodiff.ops.operator).
_ELEMENTWISE_KERNELS = {"plus": np.add, "minus": np.subtract, "times": np.multiply}


# Element-wise functions of one argument whose result for a real floating matrix (more
# than one element) is NumPy's function of it, computed quietly (the replay runs with
# NumPy's warnings off): tanh, exp (the builtin's quiet_result) and relu (fmax(x, 0)).
_REAL_MATRIX_KERNELS = {"tanh": np.tanh, "exp": np.exp, "relu": lambda x: np.fmax(x, 0)}


def computed(op: Any, raw: list, interp: Any) -> np.ndarray:
    """The data of the result of the builtin ``op`` on the data ``raw`` of its arguments."""
    name = op.name
    kernel = _ELEMENTWISE_KERNELS.get(name)
    if kernel is not None and len(raw) == 2 and numpy_agrees(raw[0], raw[1]):
        out = kernel(raw[0], raw[1])
        return out if type(out) is np.ndarray else np.array([[out]])
    if (name == "rdivide" or name == "mrdivide") and len(raw) == 2:
        x, y = raw  # as the operators on dlarrays divide (mlang.autodiff.ops.operator)
        if numpy_agrees(x, y) and (name == "rdivide" or type(y) is float or y.size == 1):
            out = np.true_divide(x, y)
            return out if type(out) is np.ndarray else np.array([[out]])
    kernel = _REAL_MATRIX_KERNELS.get(name)
    if kernel is not None and len(raw) == 1:
        x = raw[0]
        if type(x) is np.ndarray and x.dtype in FLOAT_DTYPES and x.ndim == 2 and x.size != 1:
            return kernel(x)
    if name == "power" and len(raw) == 2:
        x, b = raw  # a real power by an integer constant, as the operator on dlarrays takes it
        if type(b) is float and b.is_integer() and type(x) is np.ndarray and x.dtype in FLOAT_DTYPES:
            return x * x if b == 2.0 else np.power(x, b)
    if name == "uminus" and len(raw) == 1:
        x = raw[0]
        if type(x) is np.ndarray and x.dtype in FLOAT_DTYPES:
            return -x
    if name == "log" and len(raw) == 1:
        x = raw[0]
        if type(x) is np.ndarray and x.dtype in FLOAT_DTYPES and x.ndim == 2 and x.size != 1:
            try:  # real where NumPy raises no invalid flag (no negative input): the builtin's way
                with np.errstate(invalid="raise", divide="ignore", over="ignore", under="ignore"):
                    return np.log(x)
            except FloatingPointError:
                pass  # (complex elements: the builtin)
    if (name == "sum" or name == "mean") and len(raw) == 2:
        reduced = _reduction(name, raw[0], raw[1])
        if reduced is not None:
            return reduced
    if op.name == "mtimes" and len(raw) == 2:
        x, y = raw
        if type(x) is np.ndarray and type(y) is np.ndarray and x.ndim == 2 and y.ndim == 2 \
                and x.dtype is y.dtype and x.dtype in FLOAT_DTYPES and x.shape[1] == y.shape[0] \
                and x.size != 1 and y.size != 1:
            return x @ y
    return result_data(op.invoke(interp, raw, 1)[0])


def _reduction(name: str, x: Any, option: Any) -> np.ndarray | None:
    """sum(x, dim), sum(x, 'all') and mean(x, 'all') of a real floating matrix, by the
    steps the builtins take (None for other arguments)."""
    if type(x) is not np.ndarray or x.dtype not in FLOAT_DTYPES or x.ndim != 2 or not x.size:
        return None
    if type(option) is float:
        if name == "sum" and (option == 1.0 or option == 2.0):
            return x.sum(axis=int(option) - 1, keepdims=True)  # (sum's own direct path)
        return None
    if type(option) is not np.ndarray or option.dtype != CHAR or option.size != 3 \
            or char_text(option).lower() != "all":
        return None
    if name == "sum":
        return x.sum(keepdims=True).reshape(1, 1)  # (sum's own direct path)
    # mean's general path: the elements in column-major order, copied to double, summed
    values = x.reshape(-1, order="F").astype(np.float64)
    out = np.asarray(values.sum(axis=-1) / values.shape[-1]).reshape(1, 1)
    return out.astype(np.float32) if x.dtype == np.float32 else out
