"""Weight and bias initialisers of the layers, as the Deep Learning Toolbox defines them.

Every initialiser draws from the session's random stream through ``rand`` and ``randn``
themselves, so ``rng(seed)`` makes a network's initial parameters reproducible.  The
parameters are single precision, as MATLAB makes them.

An initialiser is named by a text (``"glorot"``, ``"he"``, ``"orthogonal"``,
``"narrow-normal"``, ``"zeros"``, ``"ones"``; recurrent layers add
``"unit-forget-gate"`` for their bias) or given as a function handle called with the
size of the parameter.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_option
from mlang.errors import error
from mlang.registry import BUILTINS
from mlang.values.core import char_row, class_of, to_array
from mlang.values.handle import FunctionHandle
from mlang.values.limits import check_array_size

WEIGHT_INITIALIZERS = ("glorot", "he", "orthogonal", "narrow-normal", "zeros", "ones")
BIAS_INITIALIZERS = ("zeros", "narrow-normal", "ones")


def _draw(interp: Any, function: str, shape: tuple[int, ...]) -> np.ndarray:
    size = np.array([[float(n) for n in shape]]) if len(shape) > 1 else float(shape[0])
    out = BUILTINS[function].invoke(interp, [size], 1)[0]
    return np.asarray(to_array(out), dtype=np.float64).reshape(shape, order="F")


def checked_initializer(value: Any, names: tuple[str, ...], what: str) -> Any:
    """An initialiser given to a layer constructor: one of ``names`` (as a char row, in
    MATLAB's spelling) or a function handle."""
    if type(value) is FunctionHandle:
        return value
    word = value if isinstance(value, str) else text_option(value)
    if word is None or word not in names:
        listed = ", ".join(f"'{n}'" for n in names)
        raise error("MATLAB:validators:mustBeMember",
                    f"Value of '{what}' must be a function handle or one of {listed}.")
    return char_row(word)


def initial_values(interp: Any, how: Any, shape: tuple[int, ...], fan_in: int,
                   fan_out: int) -> np.ndarray:
    """A parameter of ``shape`` made by the initialiser ``how`` (a name or a function
    handle) for a layer with ``fan_in`` inputs and ``fan_out`` outputs per unit: a
    single-precision array."""
    if type(how) is FunctionHandle:
        got = interp.call_handle(how, [np.array([[float(n) for n in shape]])], 1)
        data = np.asarray(to_array(got[0]) if got else np.zeros(0))
        if data.size != math.prod(shape):
            raise error("nnet_cnn:internal:cnn:layer:InvalidInitializerSize",
                        f"The initializer function must return an array of size "
                        f"{'x'.join(str(n) for n in shape)}, not {class_of(got[0]) if got else 'nothing'} "
                        f"of {data.size} elements.")
        single = np.complex64 if data.dtype.kind == "c" else np.float32  # complex stays complex
        return data.reshape(shape, order="F").astype(single)
    word = how if isinstance(how, str) else text_option(how)
    check_array_size(tuple(shape), np.float32)
    if word == "zeros":
        data = np.zeros(shape)
    elif word == "ones":
        data = np.ones(shape)
    elif word == "glorot":
        bound = math.sqrt(6.0 / max(fan_in + fan_out, 1))
        data = bound * (2.0 * _draw(interp, "rand", shape) - 1.0)
    elif word == "he":
        data = math.sqrt(2.0 / max(fan_in, 1)) * _draw(interp, "randn", shape)
    elif word == "narrow-normal":
        data = 0.01 * _draw(interp, "randn", shape)
    elif word == "orthogonal":
        data = _orthogonal(interp, shape)
    else:
        raise error("MATLAB:validators:mustBeMember", f"Unknown initializer '{word}'.")
    return np.asarray(data, dtype=np.float32)


def _orthogonal(interp: Any, shape: tuple[int, ...]) -> np.ndarray:
    """Q of the QR factorisation of a normal matrix, with the signs of R's diagonal, for
    a parameter of ``shape`` seen as (first dimension) x (the rest)."""
    rows = shape[0]
    cols = math.prod(shape[1:]) if len(shape) > 1 else 1
    z = _draw(interp, "randn", (max(rows, cols), min(rows, cols)))
    q, r = np.linalg.qr(z)
    q = q * np.sign(np.where(np.diag(r) == 0, 1.0, np.diag(r)))
    q = q if rows >= cols else q.T
    return q.reshape(shape, order="F")
