"""Reading image files: imread (PNG, JPEG, GIF, BMP, TIFF, PBM/PGM/PPM) and imfinfo.

Pixels come back as MATLAB returns them: a grayscale image as an M-by-N array, a
truecolor one as M-by-N-by-3, an indexed one as the M-by-N indices (0-based uint8) with
its colormap (doubles in [0,1]), 1-bit images as logical, 16-bit ones as uint16; the
alpha channel of a PNG is a separate output.  Pillow decodes, except 16-bit colour PNG
files, which Pillow would reduce to 8 bits (image_png16.py reads those).
"""

from __future__ import annotations

import contextlib
import os
import warnings
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, text_option, text_or_none, text_scalar
from mlang.builtins.files import image_gif, image_png16
from mlang.builtins.language.introspection import find_file
from mlang.errors import MatlabError, error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import EMPTY, char_row, class_of, to_double_array
from mlang.values.struct import Struct

# File extensions MATLAB knows, and the Pillow format each names.
PILLOW_FORMAT = {"png": "PNG", "jpg": "JPEG", "jpeg": "JPEG", "gif": "GIF", "bmp": "BMP",
                 "tif": "TIFF", "tiff": "TIFF", "pbm": "PPM", "pgm": "PPM", "ppm": "PPM",
                 "pnm": "PPM"}
# MATLAB's name for a format (imfinfo's Format field), by Pillow format.
MATLAB_FORMAT = {"PNG": "png", "JPEG": "jpg", "GIF": "GIF", "BMP": "bmp", "TIFF": "tif",
                 "PPM": "PPM"}
_EXTENSIONS = {"PNG": ("png",), "JPEG": ("jpg", "jpeg"), "GIF": ("gif",), "BMP": ("bmp",),
               "TIFF": ("tif", "tiff"), "PPM": ("pbm", "pgm", "ppm", "pnm")}
_NUMBERS = ("double", "single", "uint8", "uint16", "int8", "int16", "int32", "uint32", "logical")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def image_format(text: str) -> str | None:
    """The Pillow format a MATLAB format name or extension names ('png', '.JPG'), or None."""
    return PILLOW_FORMAT.get(text.lower().lstrip("."))


# ------------------------------------------------------------------ finding the file


def find_image_file(interp: Any, name: str, fmt: str | None, function: str) -> str:
    """The full name of an image file to read: ``name`` as given, then ``name.ext`` for the
    extensions of ``fmt``, each in the current folder and then on the path."""
    candidates = [name]
    if fmt is not None:
        candidates += [f"{name}.{ext}" for ext in _EXTENSIONS[fmt]]
    for candidate in candidates:
        found = find_file(interp, candidate, add_m=False)
        if found is not None:
            if not os.access(found, os.R_OK):
                raise _cannot_open(function, name)
            return str(found)
    if os.path.isdir(name):
        raise _cannot_open(function, name)
    if function == "imfinfo":
        raise error("MATLAB:imagesci:imfinfo:fileOpen", f'Unable to open file "{name}" for reading.')
    raise error(f"MATLAB:imagesci:{function}:fileDoesNotExist", f'File "{name}" does not exist.')


def _cannot_open(function: str, name: str) -> MatlabError:
    if function == "imfinfo":
        return error("MATLAB:imagesci:imfinfo:fileOpen", f'Unable to open file "{name}" for reading.')
    return error(f"MATLAB:imagesci:{function}:fileReadPermission",
                 f'Can\'t open file "{name}" for reading;\nyou may not have read permission.')


def open_image(path: str, function: str) -> Any:
    """The file opened by Pillow; MATLAB's error when it is no image Pillow knows."""
    # Pillow on first use: keeps start-up fast
    from PIL import Image, UnidentifiedImageError

    try:
        with quiet():
            return Image.open(path)
    except UnidentifiedImageError:
        if function == "imfinfo":
            raise error("MATLAB:imagesci:imfinfo:whatFormat", "Unable to determine file format.") from None
        raise error(f"MATLAB:imagesci:{function}:fileFormat",
                    "Unable to determine the file format.") from None
    except PermissionError as exc:
        raise _cannot_open(function, path) from exc
    except Exception as exc:  # noqa: BLE001 - Pillow's format plugins fail in many ways on bad data
        raise corrupt(image_format(os.path.splitext(path)[1]), exc) from None


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """A context in which Pillow's warnings about odd files (truncated tags...) stay silent:
    the file reads, or fails with a MATLAB error."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def corrupt(fmt: str | None, exc: BaseException) -> MatlabError:
    """MATLAB's error for a file whose data cannot be decoded."""
    name = MATLAB_FORMAT.get(fmt or "", "image").lower()
    reason = str(exc).rstrip(".") or type(exc).__name__
    return error(f"MATLAB:imagesci:{name}:libraryFailure",
                 f"The {name.upper()} file could not be read: {reason}.")


# ---------------------------------------------------------------------- pixels


def pixels(img: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The decoded frame as MATLAB's (A, map, alpha): map and alpha empty when absent."""
    mode = img.mode
    no_map = EMPTY
    if mode == "1":
        return np.array(img, dtype=bool), no_map, EMPTY
    if mode == "P" or mode == "PA":
        indices = np.array(img.getchannel(0) if mode == "PA" else img, dtype=np.uint8)
        return indices, palette_map(img), EMPTY
    if mode == "L":
        return np.array(img, dtype=np.uint8), no_map, EMPTY
    if mode == "LA":
        both = np.array(img, dtype=np.uint8)
        return both[:, :, 0].copy(), no_map, both[:, :, 1].copy()
    if mode in ("I;16", "I;16L", "I;16B", "I;16N"):
        return np.array(img).astype(np.uint16), no_map, EMPTY
    if mode == "I":
        values = np.array(img)
        if img.format == "PNG" or (values.size and values.min() >= 0 and values.max() <= 65535):
            return values.astype(np.uint16), no_map, EMPTY
        return values.astype(np.int32), no_map, EMPTY
    if mode == "F":
        return np.array(img, dtype=np.float32), no_map, EMPTY
    if mode == "CMYK":
        return np.array(img, dtype=np.uint8), no_map, EMPTY
    if mode in ("RGBA", "RGBa"):
        both = np.array(img.convert("RGBA") if mode == "RGBa" else img, dtype=np.uint8)
        return both[:, :, :3].copy(), no_map, both[:, :, 3].copy()
    return np.array(img.convert("RGB"), dtype=np.uint8), no_map, EMPTY


def palette_map(img: Any) -> np.ndarray:
    """The colormap of a palette image: one row per colour, doubles in [0,1]."""
    values = img.getpalette() or []
    channels = 3 if img.palette is None or img.palette.mode[:3] == "RGB" else 1
    colours = np.array(values, dtype=np.float64).reshape(-1, channels)
    if channels == 1:
        colours = np.repeat(colours, 3, axis=1)
    return colours[:, :3] / 255.0


def colour_keys(rgb: np.ndarray) -> np.ndarray:
    """Each pixel of an M-by-N-by-3 uint8 image as one integer (0xRRGGBB)."""
    planes = rgb.astype(np.int64)
    return (planes[..., 0] << 16) | (planes[..., 1] << 8) | planes[..., 2]


def _frame_indices(img: Any, cmap: list[tuple[int, int, int]]) -> np.ndarray:
    """A GIF frame as indices into a colormap shared by the frames read: Pillow gives later
    frames as RGB, so each of their colours is looked up in ``cmap`` (byte triples), added
    to it while it has fewer than 256 colours, else replaced by the nearest one."""
    rgb = np.array(img.convert("RGB"), dtype=np.uint8)
    keys, inverse = np.unique(colour_keys(rgb), return_inverse=True)
    where = {(r << 16) | (g << 8) | b: k for k, (r, g, b) in enumerate(cmap)}
    lookup = np.zeros(len(keys), dtype=np.uint8)
    missing = []
    for k, key in enumerate(keys.tolist()):
        if key not in where and len(cmap) < 256:
            where[key] = len(cmap)
            cmap.append((key >> 16, (key >> 8) & 255, key & 255))
        if key in where:
            lookup[k] = where[key]
        else:
            missing.append(k)
    if missing:  # the map is full: the nearest colour
        table = np.array(cmap, dtype=np.float64)
        wanted = keys[missing]
        colours = np.stack([wanted >> 16, (wanted >> 8) & 255, wanted & 255], axis=1).astype(np.float64)
        distance = ((colours[:, None, :] - table[None, :, :]) ** 2).sum(axis=2)
        lookup[missing] = distance.argmin(axis=1)
    return lookup[inverse.reshape(-1)].reshape(rgb.shape[:2])


def _gif_frames(img: Any, wanted: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """GIF frames as M-by-N-by-1-by-K indices and their colormap: the first frame's colour
    table, extended by the colours of later frames that it lacks."""
    img.seek(0)
    img.load()
    first = np.array(img, dtype=np.uint8) if img.mode == "P" else None
    table = np.round(palette_map(img) * 255).astype(int) if img.mode == "P" else np.zeros((0, 3), int)
    cmap = [tuple(row) for row in table.tolist()]
    stack = []
    for k in wanted:
        img.seek(k)
        img.load()
        stack.append(first if k == 0 and first is not None else _frame_indices(img, cmap))
    return np.stack(stack, axis=2)[:, :, None, :], np.array(cmap, dtype=np.float64) / 255.0


# ---------------------------------------------------------------------- imread


def _read_arguments(args: tuple) -> tuple[str | None, list[int] | str | None, dict[str, Any]]:
    """imread's arguments after the file name: the format, the frames (a list of 0-based
    indices or 'all') and the name=value options."""
    rest = list(args)
    fmt = None
    if rest and (text := text_or_none(rest[0])) is not None and image_format(text):
        fmt = image_format(text)
        rest.pop(0)
    frames: list[int] | str | None = None
    if rest and text_or_none(rest[0]) is None:
        frames = _frame_list(rest.pop(0))
    if len(rest) % 2:
        if rest and text_or_none(rest[0]) is not None and not image_format(text_or_none(rest[0]) or ""):
            raise error("MATLAB:imagesci:imread:fileFormat", "Unable to determine the file format.")
        raise error("MATLAB:imagesci:imread:paramValuePairs", "Parameter names must be followed by values.")
    found: dict[str, Any] = {}
    for k in range(0, len(rest), 2):
        name = text_option(rest[k])
        if name is None:
            raise error("MATLAB:imagesci:imread:badParameterName", "Parameter names must be text.")
        if name in ("frames", "index"):
            frames = _frame_list(rest[k + 1])
        elif name in ("backgroundcolor", "pixelregion", "autoorient"):
            found[name] = rest[k + 1]
        else:
            raise error("MATLAB:imagesci:imread:unknownParam",
                        f'Unknown parameter name "{text_scalar(rest[k])}".')
    return fmt, frames, found


def _frame_list(v: Any) -> list[int] | str:
    """Image numbers (1-based in MATLAB) as 0-based indices, or 'all'."""
    word = text_option(v)
    if word == "all":
        return "all"
    if class_of(v) not in _NUMBERS or class_of(v) == "logical":
        raise error("MATLAB:imagesci:imread:badImageIndex", "The image index must be a positive integer.")
    values = to_double_array(v).reshape(-1)
    if values.dtype.kind == "c" or not np.all(np.isfinite(values)) or np.any(values < 1) \
            or np.any(values != np.floor(values)):
        raise error("MATLAB:imagesci:imread:badImageIndex", "The image index must be a positive integer.")
    return [int(x) - 1 for x in values]


@builtin(interp=True, nargout=True, max_out=3)
def imread(interp: Any, filename: Any, *args: Any, nargout: int = 1) -> tuple:
    """imread  Read image from graphics file.
    A = imread(filename) reads the image in filename, its format found from its contents:
    an M-by-N array for a grayscale image, M-by-N-by-3 for a truecolor one (uint8, uint16
    for 16-bit data, logical for 1-bit data).
    A = imread(filename, fmt) also tries filename.fmt ('png', 'jpg', 'gif', 'bmp', 'tif').
    A = imread(___, idx) and imread(___, 'Frames', idx) read image idx of a GIF or TIFF
    file ('all' for every frame of a GIF: an M-by-N-by-1-by-K array).
    [X, map] = imread(___) returns an indexed image's indices (uint8, 0-based) and its
    colormap (K-by-3 doubles in [0,1]); map is [] for other images.
    [A, map, alpha] = imread(___) also returns a PNG file's alpha channel ([] if none).
    Options: 'PixelRegion', {rows, cols} reads part of the image; 'BackgroundColor', c
    composites an image with alpha over the colour c (alpha is then []); 'AutoOrient',
    true turns a JPEG image as its Exif orientation says."""
    name = text_scalar(filename, "Filename")
    fmt, frames, options = _read_arguments(args)
    path = find_image_file(interp, name, fmt, "imread")
    img = open_image(path, "imread")
    with img, quiet():
        try:
            if "autoorient" in options and option_flag(options["autoorient"], "AutoOrient"):
                # Pillow on first use: keeps start-up fast
                from PIL import ImageOps

                img = ImageOps.exif_transpose(img)
            if img.format == "PNG" and image_png16.is_png16_colour(path):
                (a, alpha), cmap = image_png16.read(path), EMPTY
            else:
                a, cmap, alpha = _read_frames(img, frames)
        except MatlabError:
            raise
        except Exception as exc:  # noqa: BLE001 - Pillow's decoders fail in many ways on bad data
            raise corrupt(img.format, exc) from None
    if "backgroundcolor" in options and alpha.size:
        a, alpha = _on_background(a, alpha, options["backgroundcolor"]), EMPTY
    if "pixelregion" in options:
        a, alpha = _pixel_region(a, alpha, options["pixelregion"])
    return (a if a.dtype != np.bool_ or a.size != 1 else bool(a[0, 0])), cmap, alpha


def _read_frames(img: Any, frames: list[int] | str | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    count = getattr(img, "n_frames", 1)
    wanted = list(range(count)) if frames == "all" else (frames or [0])
    for k in wanted:
        if k >= count:
            raise error("MATLAB:imagesci:imread:badImageIndex",
                        f"Invalid image index {k + 1}: the file has {count} image{'s' * (count != 1)}.")
    if img.format == "GIF" and wanted != [0]:
        data, cmap = _gif_frames(img, wanted)
        return (data[:, :, 0, 0] if len(wanted) == 1 else data), cmap, EMPTY
    if len(wanted) == 1:
        img.seek(wanted[0])
        img.load()
        return pixels(img)
    # several images of a TIFF file: M-by-N-by-C-by-K
    stack = []
    for k in wanted:
        img.seek(k)
        img.load()
        stack.append(pixels(img))
    if len({s[0].shape for s in stack}) != 1 or len({s[0].dtype for s in stack}) != 1:
        raise error("MATLAB:imagesci:imread:frameSizes", "The images in the file differ in size or class.")
    data = np.stack([s[0] if s[0].ndim == 3 else s[0][:, :, None] for s in stack], axis=3)
    return data, stack[0][1], EMPTY


def _on_background(a: np.ndarray, alpha: np.ndarray, colour: Any) -> np.ndarray:
    """The image composited over a background colour (values in [0,1]) by its alpha."""
    top = 65535.0 if a.dtype == np.uint16 else 255.0
    background = to_double_array(colour).reshape(-1) * top if class_of(colour) in _NUMBERS else np.zeros(0)
    channels = a.shape[2] if a.ndim == 3 else 1
    if background.size not in (1, channels) or background.dtype.kind == "c" or np.any(np.isnan(background)):
        raise error("MATLAB:imagesci:imread:badBackgroundColor",
                    "BackgroundColor must have one value per color channel, each in [0, 1].")
    weight = alpha.astype(np.float64) / top
    if a.ndim == 3:
        weight = weight[:, :, None]
    mixed = a.astype(np.float64) * weight + background * (1 - weight)
    return np.round(np.clip(mixed, 0, top)).astype(a.dtype)


def _pixel_region(a: np.ndarray, alpha: np.ndarray, region: Any) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns a 'PixelRegion' {rows, cols} names ([start stop] or
    [start increment stop], 1-based)."""
    if type(region) is not Cell or region.data.size != 2:
        raise error("MATLAB:imagesci:imread:badPixelRegion",
                    "PixelRegion must be a cell array of two vectors {ROWS, COLS}.")
    picks = []
    for axis, part in enumerate(region.data.ravel(order="F")):
        v = to_double_array(part).reshape(-1) if class_of(part) in _NUMBERS else np.zeros(0)
        if v.size not in (2, 3) or v.dtype.kind == "c" or np.any(v < 1) or np.any(v != np.floor(v)):
            raise error("MATLAB:imagesci:imread:badPixelRegion",
                        "PixelRegion must be a cell array of two vectors {ROWS, COLS}.")
        start, step, stop = (v[0], 1, v[1]) if v.size == 2 else v
        stop = min(stop, a.shape[axis])
        picks.append(np.arange(int(start) - 1, int(stop), int(step)))
    a = a[np.ix_(picks[0], picks[1])] if a.ndim == 2 else a[picks[0]][:, picks[1]]
    if alpha.size:
        alpha = alpha[np.ix_(picks[0], picks[1])]
    return a, alpha


# --------------------------------------------------------------------- imfinfo


def _mod_date(path: str) -> np.ndarray:
    when = datetime.fromtimestamp(os.stat(path).st_mtime)
    return char_row(f"{when.day:02d}-{_MONTHS[when.month - 1]}-{when.year} "
                    f"{when.hour:02d}:{when.minute:02d}:{when.second:02d}")


_BITS = {"1": 1, "L": 8, "P": 8, "LA": 16, "RGB": 24, "RGBA": 32, "CMYK": 32, "I;16": 16,
         "I;16B": 16, "I;16L": 16, "I": 32, "F": 32, "YCbCr": 24, "PA": 16}
_SAMPLES = {"1": 1, "L": 1, "P": 1, "LA": 2, "RGB": 3, "RGBA": 4, "CMYK": 4, "I;16": 1, "I;16B": 1,
            "I;16L": 1, "I": 1, "F": 1, "YCbCr": 3, "PA": 2}


def _colour_type(mode: str) -> str:
    if mode in ("P", "PA"):
        return "indexed"
    if mode in ("RGB", "RGBA", "YCbCr", "CMYK", "RGBX"):
        return "truecolor"
    return "grayscale"


def _frame_info(img: Any, path: str, size: int, png16: tuple[int, int] | None) -> dict[str, Any]:
    """The fields of one image's imfinfo struct."""
    fmt = img.format
    mode = img.mode
    bits = _BITS.get(mode, 8)
    if fmt == "PNG" and png16 is not None:
        bits = png16[0] * {2: 3, 4: 2, 6: 4}.get(png16[1], 1)
    width, height = img.size
    info: dict[str, Any] = {
        "Filename": char_row(path),
        "FileModDate": _mod_date(path),
        "FileSize": float(size),
        "Format": char_row(MATLAB_FORMAT.get(fmt, fmt.lower())),
        "FormatVersion": char_row({"GIF": "89a", "BMP": "Version 3 (Microsoft Windows 3.x)"}.get(fmt, ""))
        if fmt in ("GIF", "BMP") else EMPTY,
        "Width": float(width),
        "Height": float(height),
        "BitDepth": float(bits),
        "ColorType": char_row(_colour_type(mode)),
    }
    if fmt == "GIF":
        version = img.info.get("version", b"GIF89a").decode("ascii", "replace")
        info["FormatVersion"] = char_row(version[3:])
        info["ColorType"] = char_row("indexed")
        info["FormatSignature"] = char_row(version)
        info["BackgroundColor"] = float(img.info.get("background", 0))
    elif fmt == "PNG":
        info["Colormap"] = palette_map(img) if mode == "P" else EMPTY
        transparency = "alpha" if mode in ("RGBA", "LA", "PA") else \
            ("simple" if "transparency" in img.info else "none")
        info["Transparency"] = char_row(transparency)
        info["InterlaceType"] = char_row("adam7" if img.info.get("interlace") else "none")
        dpi = img.info.get("dpi")  # Pillow gives the pixels per metre of pHYs as dots per inch
        info["XResolution"] = float(round(dpi[0] / 0.0254)) if dpi else EMPTY
        info["YResolution"] = float(round(dpi[1] / 0.0254)) if dpi else EMPTY
        info["ResolutionUnit"] = char_row("meter") if dpi else EMPTY
    elif fmt == "JPEG":
        info["NumberOfSamples"] = float(_SAMPLES.get(mode, 3))
        info["CodingMethod"] = char_row("Huffman")
        info["CodingProcess"] = char_row("Progressive" if img.info.get("progressive") else "Sequential")
        info["Comment"] = _comment(img.info.get("comment"))
    elif fmt == "BMP":
        info["Colormap"] = palette_map(img) if mode == "P" else EMPTY
        info["NumColormapEntries"] = float(len(img.getpalette() or []) // 3) if mode == "P" else 0.0
        info["CompressionType"] = char_row("none")
    elif fmt == "TIFF":
        info["SamplesPerPixel"] = float(_SAMPLES.get(mode, 1))
        compression = str(img.info.get("compression", "raw"))
        info["Compression"] = char_row({"raw": "Uncompressed", "tiff_lzw": "LZW", "packbits": "PackBits",
                                        "tiff_deflate": "Deflate", "tiff_adobe_deflate": "Deflate",
                                        "jpeg": "JPEG"}.get(compression, compression))
        info["Colormap"] = palette_map(img) if mode == "P" else EMPTY
    return info


_DISPOSAL_NAMES = {1: "DoNotDispose", 2: "RestoreBackground", 3: "RestorePrevious"}


def _gif_info(path: str, infos: list[dict[str, Any]]) -> None:
    """The fields of each GIF frame read from the file's blocks: Pillow gives later frames
    as RGB images, without their colour tables."""
    with open(path, "rb") as f:
        loop, frames = image_gif.describe(f.read())
    for info, frame in zip(infos, frames, strict=False):
        colours = np.frombuffer(frame.table, dtype=np.uint8).reshape(-1, 3).astype(np.float64) / 255.0
        info["BitDepth"] = float(frame.bits)
        info["ColorTable"] = colours if colours.size else EMPTY
        info["Interlaced"] = char_row("yes" if frame.interlaced else "no")
        info["Left"], info["Top"] = float(frame.left + 1), float(frame.top + 1)
        info["DelayTime"] = float(frame.delay)
        info["LoopCount"] = EMPTY if loop is None else (float("inf") if loop == 0 else float(loop))
        info["DisposalMethod"] = char_row(_DISPOSAL_NAMES.get(frame.disposal, "DoNotSpecify"))


def _comment(comment: Any) -> Any:
    if not comment:
        return EMPTY
    text = comment.decode("latin-1") if isinstance(comment, bytes) else str(comment)
    cells = np.empty((1, 1), dtype=object)
    cells[0, 0] = char_row(text)
    return Cell(cells)


@builtin(interp=True)
def imfinfo(interp: Any, filename: Any, fmt: Any = None) -> Struct:
    """imfinfo  Information about graphics file.
    info = imfinfo(filename) returns a struct describing the image file: Filename (full
    path), FileModDate, FileSize (bytes), Format, FormatVersion, Width, Height, BitDepth
    (bits per pixel), ColorType ('truecolor', 'grayscale' or 'indexed') and fields of
    the format (the colormap, transparency, GIF delays and loop count...).  A file with
    several images (an animated GIF, a multipage TIFF) gives one element per image.
    info = imfinfo(filename, fmt) also tries filename.fmt."""
    name = text_scalar(filename, "Filename")
    wanted = None
    if fmt is not None:
        wanted = image_format(text_scalar(fmt, "Format"))
        if wanted is None:
            raise error("MATLAB:imagesci:imfinfo:unknownFormat",
                        f'"{text_scalar(fmt)}" is not a recognized format.')
    path = find_image_file(interp, name, wanted, "imfinfo")
    size = os.path.getsize(path)
    img = open_image(path, "imfinfo")
    infos = []
    with img, quiet():
        png16 = image_png16.png_depth(path) if img.format == "PNG" else None
        try:
            for k in range(getattr(img, "n_frames", 1)):
                img.seek(k)
                infos.append(_frame_info(img, path, size, png16))
            if img.format == "GIF":
                _gif_info(path, infos)
        except MatlabError:
            raise
        except Exception as exc:  # noqa: BLE001 - Pillow's decoders fail in many ways on bad data
            raise corrupt(img.format, exc) from None
    fields = list(infos[0])
    elems = np.empty((1, len(infos)), dtype=object)
    for k, d in enumerate(infos):
        elems[0, k] = {f: d.get(f, EMPTY) for f in fields}
    return Struct(fields, elems)
