"""imresize: MATLAB's separable resampling.

Each of the first two dimensions is resampled in turn (the one shrinking most first):
output pixel i samples the input at u = i/scale + (1 - 1/scale)/2, from the input pixels
within half the kernel's width of u, weighted by the kernel and normalised to sum 1.
When shrinking with antialiasing (the default for every method but 'nearest') the
kernel is stretched by 1/scale, so it averages over the pixels an output pixel covers.
Pixels beyond the edges mirror the image (symmetric padding).  Integer images are
rounded and saturated after each pass, as MATLAB does; logical images are resized as
uint8 0/255 and thresholded at 128.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import checked_shape, option_flag, text_option, text_or_none
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of, result, to_array, to_double_array
from mlang.values.limits import MAX_ELEMENTS, too_many_elements
from mlang.values.operators import to_class


def _cubic(x: np.ndarray) -> np.ndarray:
    """Keys' cubic convolution kernel with a = -0.5."""
    ax = np.abs(x)
    ax2, ax3 = ax * ax, ax * ax * ax
    return ((1.5 * ax3 - 2.5 * ax2 + 1) * (ax <= 1)
            + (-0.5 * ax3 + 2.5 * ax2 - 4 * ax + 2) * ((ax > 1) & (ax <= 2)))


def _triangle(x: np.ndarray) -> np.ndarray:
    return (x + 1) * ((x >= -1) & (x < 0)) + (1 - x) * ((x >= 0) & (x <= 1))


def _box(x: np.ndarray) -> np.ndarray:
    return ((x >= -0.5) & (x < 0.5)).astype(np.float64)


def _lanczos(lobes: int) -> Callable[[np.ndarray], np.ndarray]:
    def kernel(x: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            value = (lobes * np.sin(np.pi * x) * np.sin(np.pi * x / lobes)
                     / (np.pi ** 2 * x * x))
        value = np.where(x == 0, 1.0, value)
        return value * (np.abs(x) < lobes)
    return kernel


# method name: (kernel, width)
KERNELS: dict[str, tuple[Callable[[np.ndarray], np.ndarray], float]] = {
    "nearest": (_box, 1.0), "box": (_box, 1.0),
    "bilinear": (_triangle, 2.0), "triangle": (_triangle, 2.0),
    "bicubic": (_cubic, 4.0), "cubic": (_cubic, 4.0),
    "lanczos2": (_lanczos(2), 4.0), "lanczos3": (_lanczos(3), 6.0),
}


def contributions(in_length: int, out_length: int, scale: float, kernel: Callable, width: float,
                  antialiasing: bool) -> tuple[np.ndarray, np.ndarray]:
    """(weights, 0-based input indices), each out_length-by-P: which input pixels make
    each output pixel, and how much."""
    if scale < 1 and antialiasing:
        def h(x: np.ndarray) -> np.ndarray:
            return scale * kernel(scale * x)
        width = width / scale
    else:
        h = kernel
    x = np.arange(1, out_length + 1, dtype=np.float64)
    u = x / scale + 0.5 * (1 - 1 / scale)
    left = np.floor(u - width / 2)
    taps = int(math.ceil(width)) + 2
    indices = left[:, None] + np.arange(taps)[None, :]
    weights = h(u[:, None] - indices)
    sums = weights.sum(axis=1, keepdims=True)
    weights = np.divide(weights, sums, out=np.zeros_like(weights), where=sums != 0)
    mirror = np.concatenate([np.arange(in_length), np.arange(in_length - 1, -1, -1)])
    positions = mirror[np.mod(indices.astype(np.int64) - 1, mirror.size)]
    keep = np.any(weights != 0, axis=0)
    return weights[:, keep], positions[:, keep]


def _resize_dim(a: np.ndarray, axis: int, weights: np.ndarray, positions: np.ndarray,
                cls: str) -> np.ndarray:
    """Resample along ``axis``; integer classes rounded and saturated."""
    shape = [1] * a.ndim
    shape[axis] = weights.shape[0]
    source = a.astype(np.float64, copy=False)
    out = np.zeros(a.shape[:axis] + (weights.shape[0],) + a.shape[axis + 1:])
    for p in range(weights.shape[1]):
        out += weights[:, p].reshape(shape) * np.take(source, positions[:, p], axis=axis)
    return to_class(out, cls) if cls not in ("double",) else out


def _size_argument(v: Any, in_shape: tuple[int, int]) -> tuple[tuple[int, int], tuple[float, float]]:
    """(output rows and columns, scale of each) from a scale or an [m n] size."""
    spec = to_double_array(v).reshape(-1) if class_of(v) not in ("cell", "struct", "string") else None
    if spec is None or spec.dtype.kind == "c" or spec.size not in (1, 2):
        raise error("MATLAB:imresize:badScaleOrSize",
                    "The scale or size input must be a positive scalar or a two-element vector.")
    rows, cols = in_shape
    if spec.size == 1:
        scale = float(spec[0])
        if not math.isfinite(scale) or scale <= 0:
            raise error("MATLAB:imresize:expectedPositive", "The scale factor must be positive.")
        out_rows, out_cols = scale * rows, scale * cols
        if out_rows * out_cols > MAX_ELEMENTS:
            raise too_many_elements()
        return (int(math.ceil(out_rows)), int(math.ceil(out_cols))), (scale, scale)
    m, n = float(spec[0]), float(spec[1])
    if math.isnan(m) and math.isnan(n):
        raise error("MATLAB:imresize:bothNaN", "At most one element of the output size may be NaN.")
    for value in (m, n):
        if not math.isnan(value) and (value <= 0 or value != math.floor(value) or math.isinf(value)):
            raise error("MATLAB:imresize:badOutputSize",
                        "The output size must be a two-element vector of positive integers.")
    if math.isnan(m):
        scale = n / cols if cols else 0.0
        return (int(math.ceil(scale * rows)), int(n)), (scale, scale)
    if math.isnan(n):
        scale = m / rows if rows else 0.0
        return (int(m), int(math.ceil(scale * cols))), (scale, scale)
    if m * n > MAX_ELEMENTS:
        raise too_many_elements()
    return (int(m), int(n)), (m / rows if rows else 1.0, n / cols if cols else 1.0)


@builtin()
def imresize(image: Any, *args: Any) -> object:
    """imresize  Resize image.
    B = imresize(A, scale) resizes A by the factor scale (rows and columns: ceil(scale*size)).
    B = imresize(A, [m n]) resizes A to m-by-n; with NaN for one of them, it keeps the
    aspect ratio.
    B = imresize(___, method): 'nearest', 'bilinear', 'bicubic' (the default), 'box',
    'triangle', 'lanczos2', 'lanczos3'.
    B = imresize(___, 'Antialiasing', tf) sets antialiasing when shrinking (on by default
    except for 'nearest'); 'Method', 'Scale' and 'OutputSize' name=value options are taken too.
    B has A's class (integers rounded and saturated); the first two dimensions are
    resized, the others (colour planes) kept."""
    cls = class_of(image)
    if cls not in ("double", "single", "uint8", "uint16", "uint32", "int8", "int16", "int32", "logical"):
        raise error("MATLAB:imresize:invalidType",
                    "Expected input number 1, A, to be one of these types:\n\nnumeric, logical\n\n"
                    f"Instead its type was {cls}.")
    a = to_array(image)
    if a.dtype.kind == "c":
        raise error("MATLAB:imresize:expectedReal", "Expected input number 1, A, to be real.")
    rest = list(args)
    size_spec = None
    if rest and text_or_none(rest[0]) is None:
        size_spec = rest.pop(0)
    method = "bicubic"
    if rest and text_option(rest[0]) in KERNELS:
        method = text_option(rest.pop(0)) or method
    if len(rest) % 2:
        raise error("MATLAB:imresize:badParamValue", "Parameter names must be followed by values.")
    antialiasing = None
    for k in range(0, len(rest), 2):
        name = text_option(rest[k])
        value = rest[k + 1]
        if name == "method":
            method = text_option(value) or ""
            if method not in KERNELS:
                raise error("MATLAB:imresize:unrecognizedMethod",
                            f'Unrecognized method "{text_or_none(value)}".')
        elif name == "antialiasing":
            antialiasing = option_flag(value, "Antialiasing")
        elif name in ("scale", "outputsize"):
            size_spec = value
        else:
            raise error("MATLAB:imresize:unknownParam", f'Unknown parameter "{text_or_none(rest[k])}".')
    if size_spec is None:
        raise error("MATLAB:imresize:missingScaleOrSize", "The scale factor or output size is missing.")
    if antialiasing is None:
        antialiasing = method != "nearest"
    kernel, width = KERNELS[method]
    (out_rows, out_cols), scales = _size_argument(size_spec, (a.shape[0], a.shape[1]))
    checked_shape((out_rows, out_cols, *a.shape[2:]), "double")
    if a.size == 0 or out_rows == 0 or out_cols == 0:
        return result(np.zeros((out_rows, out_cols, *a.shape[2:]), dtype=a.dtype))
    logical = cls == "logical"
    work_cls = "uint8" if logical else cls
    data = a.astype(np.uint8) * 255 if logical else a
    out_sizes = (out_rows, out_cols)
    for axis in sorted((0, 1), key=lambda d: scales[d]):  # the dimension shrinking most first
        weights, positions = contributions(data.shape[axis], out_sizes[axis], scales[axis], kernel, width,
                                           antialiasing)
        data = _resize_dim(data, axis, weights, positions, work_cls)
    if logical:
        return result(data > 128)
    return result(data if data.dtype == a.dtype else to_class(data, cls))
