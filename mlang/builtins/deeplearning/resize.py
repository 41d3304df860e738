"""dlresize: resizing the spatial dimensions of a dlarray by nearest-neighbour or linear
interpolation.

Both methods are linear maps along each spatial dimension, so each dimension is one
product with an interpolation matrix (the RESAMPLE primitive below), whose gradient is
the product with the transposed matrix: derivatives of every order.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray, as_data
from mlang.autodiff.trace import Primitive, read_as_constant
from mlang.builtins.coerce import options, text_option
from mlang.builtins.deeplearning import convolution_kernels as kernels
from mlang.builtins.deeplearning.convolution import from_core, require_real, to_core
from mlang.builtins.deeplearning.formats import data_format_option, formatted_input, output_like
from mlang.errors import error
from mlang.registry import builtin


def _resample(x: np.ndarray, axis: int, ndim: int, matrix: np.ndarray) -> np.ndarray:
    """``matrix`` (out x in) applied along dimension ``axis`` of ``x`` (``ndim`` dimensions)."""
    x = kernels.explicit(x, ndim)
    out = np.tensordot(matrix.astype(x.dtype, copy=False), x, axes=([1], [axis]))
    return kernels.stored(np.ascontiguousarray(np.moveaxis(out, 0, axis)))


RESAMPLE = Primitive("dlresize", _resample, lambda gy, y, x, axis, ndim, matrix: (
    ops.apply(RESAMPLE, gy, axis, ndim, np.ascontiguousarray(matrix.T)), None, None, None))


def _round_half_away(v: np.ndarray) -> np.ndarray:
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


def interpolation_matrix(n_in: int, n_out: int, scale: float, method: str, transform: str,
                         rounding: str) -> np.ndarray:
    """The (n_out x n_in) matrix taking samples on n_in points to n_out points."""
    out = np.arange(n_out, dtype=np.float64)
    if transform == "half-pixel":
        source = (out + 0.5) / scale - 0.5
    else:
        source = out / scale
    matrix = np.zeros((n_out, n_in))
    rows = np.arange(n_out)
    if method == "nearest":
        if rounding == "round":
            picked = _round_half_away(source)
        elif rounding == "floor":
            picked = np.floor(source)
        else:  # onnx-10: the source position of the asymmetric mapping, rounded down
            picked = np.floor(out / scale)
        matrix[rows, np.clip(picked, 0, n_in - 1).astype(np.intp)] = 1.0
        return matrix
    source = np.clip(source, 0, n_in - 1)
    low = np.floor(source).astype(np.intp)
    high = np.minimum(low + 1, n_in - 1)
    frac = source - low
    np.add.at(matrix, (rows, low), 1.0 - frac)
    np.add.at(matrix, (rows, high), frac)
    return matrix


def _choice(given: dict, name: str, allowed: tuple[str, ...], default: str) -> str:
    if name not in given:
        return default
    word = text_option(given[name])
    if word not in allowed:
        quoted = ", ".join(f"'{a}'" for a in allowed)
        raise error(f"deep:dlresize:Invalid{name}", f"{name} must be one of {quoted}.")
    return word


def _positive_vector(v: Any, k: int, name: str, nan_allowed: bool = False) -> np.ndarray:
    data = v.data if type(v) is DlArray else v
    a = np.asarray(as_data(data), dtype=np.float64).reshape(-1)
    ok = np.isnan(a) if nan_allowed else np.zeros(a.shape, dtype=bool)
    if a.size not in (1, k) or np.any(~ok & ~(np.isfinite(a) & (a > 0))) or ok.all():
        raise error(f"deep:dlresize:Invalid{name}",
                    f"{name} must be a positive scalar or a vector with one element for each "
                    "spatial dimension.")
    return np.broadcast_to(a, (k,)).copy()


@builtin(dl="traced")
def dlresize(x: object, *settings: object) -> object:
    """Y = dlresize(X, 'Scale', S)  resize the spatial dimensions of a dlarray

    Y = dlresize(X, 'Scale', S)  resize the spatial ('S') dimensions of the formatted dlarray X
    by the factors S (output size floor(inputSize .* S))
    Y = dlresize(X, 'OutputSize', SZ)  resize to SZ (a NaN entry keeps the aspect ratio)
    Y = dlresize(..., 'Method', M)  'nearest' (default) or 'linear'
    Y = dlresize(..., 'GeometricTransformMode', G)  'half-pixel' (default) or 'asymmetric'
    Y = dlresize(..., 'NearestRoundingMode', R)  'round' (default), 'floor' or 'onnx-10'
    Y = dlresize(..., 'DataFormat', FMT)  for unformatted X"""
    given = options(settings, ("Scale", "OutputSize", "Method", "GeometricTransformMode",
                               "NearestRoundingMode", "DataFormat"))
    require_real("dlresize", x)
    y, form = formatted_input(x, data_format_option(given), "dlresize")
    axes = tuple(i for i, label in enumerate(y.fmt) if label == "S")
    if not axes:
        raise error("deep:dlresize:NoSpatialDimension", "Input data must have a spatial ('S') dimension.")
    if ("Scale" in given) == ("OutputSize" in given):
        raise error("deep:dlresize:ScaleOrOutputSize",
                    "Specify exactly one of the 'Scale' and 'OutputSize' options.")
    method = _choice(given, "Method", ("nearest", "linear"), "nearest")
    transform = _choice(given, "GeometricTransformMode", ("half-pixel", "asymmetric"), "half-pixel")
    rounding = _choice(given, "NearestRoundingMode", ("round", "floor", "onnx-10"), "round")
    core, layout = to_core(y, axes)
    k = layout.k
    in_size = kernels.dims(ops.shape_of(core), k)
    if "Scale" in given:
        scales = _positive_vector(given["Scale"], k, "Scale")
        out_size = [math.floor(n * s + 1e-9) for n, s in zip(in_size, scales, strict=True)]
    else:
        wanted = _positive_vector(given["OutputSize"], k, "OutputSize", nan_allowed=True)
        if np.any(~np.isnan(wanted) & (wanted != np.floor(wanted))):
            raise error("deep:dlresize:InvalidOutputSize", "OutputSize must contain positive integers.")
        known = [w / n for w, n in zip(wanted, in_size, strict=True) if not np.isnan(w)]
        scales = np.array([known[0] if np.isnan(w) else w / n for w, n in zip(wanted, in_size, strict=True)])
        out_size = [math.floor(n * s + 1e-9) if np.isnan(w) else int(w)
                    for w, n, s in zip(wanted, in_size, scales, strict=True)]
    if min(out_size) < 1:
        raise error("deep:dlresize:EmptyOutput", "The resized spatial dimensions must not be empty.")
    out = core
    for axis in range(k):
        if out_size[axis] == in_size[axis] and scales[axis] == 1:
            continue
        matrix = interpolation_matrix(in_size[axis], out_size[axis], float(scales[axis]), method,
                                      transform, rounding)
        out = ops.apply(RESAMPLE, out, axis, k + 2, matrix)
    return read_as_constant(output_like(from_core(out, layout), form), *settings)
