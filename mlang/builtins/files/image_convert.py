"""Image classes and colours: im2double, im2single, im2uint8, im2uint16, im2int16,
rgb2gray, ind2rgb and rgb2ind.

Class conversions keep an image's dynamic range: doubles and singles in [0,1], uint8 in
[0,255], uint16 in [0,65535], int16 in [-32768,32767], logical false/true as the extremes.
Integer results are rounded and saturated.  With 'indexed' they convert colormap indices
instead (1-based for double and single, 0-based for integers).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import text_option
from mlang.builtins.files.image_write import pillow_image
from mlang.builtins.files.images import colour_keys
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of, result, to_array
from mlang.values.operators import to_class

# MATLAB's luminance weights: the first row of the inverse of the NTSC (YIQ) transform.
GRAY_WEIGHTS = (0.298936021293775, 0.587043074451121, 0.114020904255103)

_RANGE = {"uint8": (0.0, 255.0), "uint16": (0.0, 65535.0), "int16": (-32768.0, 32767.0)}
_IMAGE_CLASSES = ("double", "logical", "uint8", "uint16", "int16", "single")


def _image(fn: str, v: Any, allowed: tuple[str, ...] = _IMAGE_CLASSES) -> np.ndarray:
    cls = class_of(v)
    if cls not in allowed:
        raise error(f"MATLAB:{fn}:invalidType",
                    f"Expected input number 1, I, to be one of these types:\n\n{', '.join(allowed)}"
                    f"\n\nInstead its type was {cls}.")
    a = to_array(v)
    if a.dtype.kind == "c":
        raise error(f"MATLAB:{fn}:expectedReal", "Expected input number 1, I, to be real.")
    return a


def _unit_values(a: np.ndarray) -> np.ndarray:
    """An image's values on the [0,1] scale, as float64."""
    cls = class_of(a)
    if cls in _RANGE:
        low, high = _RANGE[cls]
        return (a.astype(np.float64) - low) / (high - low)
    return a.astype(np.float64)


def _from_unit(values: np.ndarray, cls: str) -> np.ndarray:
    """[0,1] values as an image of class ``cls`` (rounded and saturated for integers)."""
    if cls in ("double", "single"):
        return to_class(values, cls)
    low, high = _RANGE[cls]
    return to_class(values * (high - low) + low, cls)


def _indexed_flag(fn: str, flag: Any) -> bool:
    if flag is None:
        return False
    if text_option(flag) != "indexed":
        raise error(f"MATLAB:{fn}:invalidIndexedOption", "The second input must be 'indexed'.")
    return True


def _convert(fn: str, image: Any, flag: Any, cls: str) -> object:
    indexed = _indexed_flag(fn, flag)
    a = _image(fn, image)
    source = class_of(a)
    if source == cls:
        return image
    if indexed:
        return _convert_indices(fn, a, source, cls)
    if source == "logical":
        low, high = (0.0, 1.0) if cls in ("double", "single") else _RANGE[cls]
        return result(to_class(np.where(a, high, low if cls != "int16" else -32768.0), cls))
    return result(_from_unit(_unit_values(a), cls))


def _convert_indices(fn: str, a: np.ndarray, source: str, cls: str) -> object:
    """Colormap indices in another class: 1-based in double/single, 0-based in integers."""
    values = a.astype(np.float64)
    if source in ("double", "single"):
        values = values - 1.0
    if cls in ("double", "single"):
        return result(to_class(values + 1.0, cls))
    if cls == "int16":
        raise error(f"MATLAB:{fn}:invalidIndexedOption", "Indexed images cannot be converted to int16.")
    high = _RANGE[cls][1]
    if values.size and (values.max() > high or values.min() < 0):
        bits = "8" if cls == "uint8" else "16"
        raise error(f"MATLAB:{fn}:tooManyColorsFor{bits}bitStorage",
                    f"Too many colors for {bits}-bit integer storage.")
    return result(to_class(np.round(values), cls))


@builtin()
def im2double(image: Any, flag: Any = None) -> object:
    """im2double  Convert image to double precision.
    I2 = im2double(I) rescales uint8, uint16 and int16 images to [0,1] doubles (logical
    and single values convert as they are).
    I2 = im2double(X, 'indexed') converts colormap indices: 0-based integer indices
    become 1-based doubles."""
    return _convert("im2double", image, flag, "double")


@builtin()
def im2single(image: Any, flag: Any = None) -> object:
    """im2single  Convert image to single precision.
    I2 = im2single(I) rescales uint8, uint16 and int16 images to [0,1] singles.
    I2 = im2single(X, 'indexed') converts 0-based integer indices to 1-based singles."""
    return _convert("im2single", image, flag, "single")


@builtin()
def im2uint8(image: Any, flag: Any = None) -> object:
    """im2uint8  Convert image to 8-bit unsigned integers.
    I2 = im2uint8(I) rescales the image to [0,255]: doubles and singles in [0,1] times
    255 (rounded, out-of-range values saturated), uint16 values divided by 257.
    I2 = im2uint8(X, 'indexed') converts 1-based double indices to 0-based uint8 ones."""
    return _convert("im2uint8", image, flag, "uint8")


@builtin()
def im2uint16(image: Any, flag: Any = None) -> object:
    """im2uint16  Convert image to 16-bit unsigned integers.
    I2 = im2uint16(I) rescales the image to [0,65535]: doubles and singles in [0,1] times
    65535, uint8 values times 257, int16 values plus 32768.
    I2 = im2uint16(X, 'indexed') converts 1-based double indices to 0-based uint16 ones."""
    return _convert("im2uint16", image, flag, "uint16")


@builtin()
def im2int16(image: Any) -> object:
    """im2int16  Convert image to 16-bit signed integers.
    I2 = im2int16(I) rescales the image to [-32768,32767]."""
    return _convert("im2int16", image, None, "int16")


# ------------------------------------------------------------------------ rgb2gray


@builtin()
def rgb2gray(image: Any) -> object:
    """rgb2gray  Convert RGB image or colormap to grayscale.
    I = rgb2gray(RGB) weighs the red, green and blue planes of an M-by-N-by-3 image by
    0.2989, 0.5870 and 0.1140 (the luminance of Rec. ITU-R BT.601); I has the class of
    RGB (rounded for integer classes).
    newmap = rgb2gray(map) returns the grayscale colormap of a K-by-3 colormap."""
    cls = class_of(image)
    a = to_array(image) if cls not in ("cell", "struct", "string") else None
    if a is not None and a.ndim == 3:
        if a.shape[2] != 3:
            raise error("MATLAB:images:rgb2gray:invalidInputSizeRGB", "RGB must be an M-by-N-by-3 array.")
        if cls in ("logical", "char") or a.dtype.kind == "c":
            raise error("MATLAB:rgb2gray:invalidType",
                        "Expected input number 1, RGB, to be one of these types:\n\nnumeric\n\n"
                        f"Instead its type was {cls}.")
        planes = a.astype(np.float64)
        gray = (planes[:, :, 0] * GRAY_WEIGHTS[0] + planes[:, :, 1] * GRAY_WEIGHTS[1]
                + planes[:, :, 2] * GRAY_WEIGHTS[2])
        return result(to_class(gray, cls))
    if a is not None and a.ndim == 2:
        if a.shape[1] != 3 or a.shape[0] < 1:
            raise error("MATLAB:images:rgb2gray:invalidSizeForColormap", "MAP must be a m x 3 array.")
        if cls != "double" or a.dtype.kind == "c":
            raise error("MATLAB:images:rgb2gray:notAValidColormap", "MAP must be a double array.")
        gray = np.clip(a @ np.array(GRAY_WEIGHTS), 0.0, 1.0)
        return result(np.repeat(gray[:, None], 3, axis=1))
    raise error("MATLAB:images:rgb2gray:invalidInputSize", "Input must be an RGB image or a colormap.")


# ------------------------------------------------------------------------- ind2rgb


@builtin()
def ind2rgb(x: Any, cmap: Any) -> object:
    """ind2rgb  Convert indexed image to RGB image.
    RGB = ind2rgb(X, map) looks up each index of X in the colormap map (K-by-3) and
    returns an M-by-N-by-3 image of map's class.  Integer and logical indices are
    0-based, double and single ones 1-based; indices beyond the map are clamped to it."""
    cls = class_of(x)
    if cls not in ("double", "single", "uint8", "uint16", "logical"):
        raise error("MATLAB:ind2rgb:invalidType",
                    "Expected input number 1, X, to be one of these types:\n\ndouble, single, uint8, uint16, "
                    f"logical\n\nInstead its type was {cls}.")
    table = to_array(cmap) if class_of(cmap) in ("double", "single") else None
    if table is None or table.ndim != 2 or table.shape[1] != 3 or table.shape[0] == 0:
        raise error("MATLAB:ind2rgb:invalidColormap", "The colormap must be a K-by-3 array of class double "
                                                      "or single.")
    indices = to_array(x)
    if indices.dtype.kind == "c":
        raise error("MATLAB:ind2rgb:expectedReal", "Expected input number 1, X, to be real.")
    indices = indices.astype(np.float64)
    if cls in ("uint8", "uint16", "logical"):
        indices = indices + 1.0
    elif indices.size and (np.any(np.isnan(indices)) or np.any(indices != np.floor(indices))):
        raise error("MATLAB:badsubscript", "Array indices must be positive integers or logical values.")
    rows = np.clip(indices, 1, table.shape[0]).astype(np.intp) - 1
    return result(table[rows])  # the shape of X, then 3


# ------------------------------------------------------------------------- rgb2ind


def _rgb_unit(fn: str, image: Any) -> np.ndarray:
    a = _image(fn, image, ("uint8", "uint16", "double", "single"))
    if a.ndim != 3 or a.shape[2] != 3:
        raise error("MATLAB:rgb2ind:invalidInputSize", "RGB must be an M-by-N-by-3 array.")
    return np.clip(np.nan_to_num(_unit_values(a), nan=0.0), 0.0, 1.0)


def _index_class(count: int, indices: np.ndarray) -> np.ndarray:
    """Indices (0-based) as uint8 for up to 256 colours, uint16 for more, else 1-based doubles."""
    if count <= 256:
        return indices.astype(np.uint8)
    if count <= 65536:
        return indices.astype(np.uint16)
    return indices.astype(np.float64) + 1.0


def unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows, sorted, and for each row of ``rows`` the number of its distinct row
    (np.unique with axis=0, faster: one lexsort of the columns)."""
    order = np.lexsort(rows.T[::-1])
    ranked = rows[order]
    starts = np.ones(len(ranked), dtype=bool)
    starts[1:] = np.any(ranked[1:] != ranked[:-1], axis=1)
    inverse = np.empty(len(rows), dtype=np.intp)
    inverse[order] = np.cumsum(starts) - 1
    return ranked[starts], inverse


def _nearest(colours: np.ndarray, table: np.ndarray) -> np.ndarray:
    """For each colour (rows of ``colours``), the row of ``table`` nearest to it."""
    nearest = np.empty(len(colours), dtype=np.intp)
    step = max(1, 2_000_000 // max(len(table), 1))
    for start in range(0, len(colours), step):
        block = colours[start:start + step]
        distance = ((block[:, None, :] - table[None, :, :]) ** 2).sum(axis=2)
        nearest[start:start + step] = distance.argmin(axis=1)
    return nearest


def _pillow_rgb(unit: np.ndarray) -> Any:
    return pillow_image(np.round(unit * 255.0).astype(np.uint8), "RGB")


def _dithered(unit: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Floyd-Steinberg dithering of the image to a colormap of up to 256 colours."""
    # Pillow on first use: keeps start-up fast
    from PIL import Image

    palette = Image.new("P", (1, 1))
    entries = np.round(table * 255.0).astype(np.uint8)
    padded = np.concatenate([entries, np.repeat(entries[-1:], 256 - len(entries), axis=0)])
    palette.putpalette(padded.reshape(-1).tolist())
    quantized = _pillow_rgb(unit).quantize(palette=palette, dither=Image.Dither.FLOYDSTEINBERG)
    return np.minimum(np.array(quantized, dtype=np.intp), len(entries) - 1)


@builtin(nargout=True, max_out=2)
def rgb2ind(image: Any, how: Any, dither: Any = None, *, nargout: int = 1) -> tuple:
    """rgb2ind  Convert RGB image to indexed image.
    [X, map] = rgb2ind(RGB, n) quantizes the image to at most n colours (an image with
    no more than n colours keeps them exactly); X is uint8 for up to 256 colours,
    uint16 for more.
    [X, map] = rgb2ind(RGB, tol) quantizes uniformly, each channel to 1/tol steps.
    X = rgb2ind(RGB, map) maps each pixel to the nearest colour of the colormap map.
    rgb2ind(___, 'nodither') maps to the nearest colour; 'dither' (the default) diffuses
    the quantization error (Floyd-Steinberg)."""
    unit = _rgb_unit("rgb2ind", image)
    use_dither = True
    if dither is not None:
        word = text_option(dither)
        if word not in ("dither", "nodither"):
            raise error("MATLAB:rgb2ind:invalidDitherOption",
                        "The dither option must be 'dither' or 'nodither'.")
        use_dither = word == "dither"
    height, width = unit.shape[:2]
    flat = unit.reshape(-1, 3)
    spec = to_array(how) if class_of(how) in ("double", "single", "uint8", "uint16") else None
    if spec is None:
        raise error("MATLAB:rgb2ind:invalidInput", "The second input must be a number of colors, a "
                                                   "tolerance or a colormap.")
    if spec.dtype.kind == "c":
        raise error("MATLAB:rgb2ind:invalidInput", "The second input must be real.")
    spec = spec.astype(np.float64)
    if spec.ndim == 2 and spec.shape[1] == 3 and spec.size > 1:  # a colormap
        table = spec
        if use_dither and len(table) <= 256:
            indices = _dithered(unit, table)
        else:
            colours, inverse = unique_rows(flat)
            indices = _nearest(colours, table)[inverse].reshape(height, width)
        return result(_index_class(len(table), indices)), table
    if spec.size != 1 or not np.isfinite(spec.reshape(-1)[0]) or spec.reshape(-1)[0] <= 0:
        raise error("MATLAB:rgb2ind:invalidInput", "The number of colors must be a positive integer, or "
                                                   "the tolerance a number between 0 and 1.")
    value = float(spec.reshape(-1)[0])
    if value < 1:  # a tolerance: uniform quantization
        levels = int(np.floor(1.0 / value)) + 1
        stepped = np.round(flat * (levels - 1)) / (levels - 1)
        table, inverse = unique_rows(stepped)
        return result(_index_class(len(table), inverse.reshape(height, width))), table
    if value != np.floor(value) or value > 65536:
        raise error("MATLAB:rgb2ind:invalidInput", "The number of colors must be an integer from 1 to 65536.")
    count = int(value)
    bytes_ = np.round(flat * 255.0).astype(np.uint8)
    keys, key_inverse = np.unique(colour_keys(bytes_), return_inverse=True)
    if len(keys) <= count:  # few enough colours (as bytes; checked exactly): keep them exactly
        colours, inverse = unique_rows(flat)
        if len(colours) <= count:
            return result(_index_class(len(colours), inverse.reshape(height, width))), colours
    # Pillow on first use: keeps start-up fast
    from PIL import Image

    reduced = _pillow_rgb(unit).quantize(colors=min(count, 256), method=Image.Quantize.MEDIANCUT,
                                         dither=Image.Dither.NONE)
    used = len(reduced.getcolors(256) or [])
    table = np.array(reduced.getpalette()[:3 * max(used, 1)], dtype=np.float64).reshape(-1, 3) / 255.0
    table = table[:max(1, int(np.array(reduced).max()) + 1)]
    if use_dither:
        indices = _dithered(unit, table)
    else:
        colours = np.stack([keys >> 16, (keys >> 8) & 255, keys & 255], axis=1) / 255.0
        indices = _nearest(colours, table)[key_inverse.reshape(-1)].reshape(height, width)
    return result(_index_class(len(table), indices)), table
