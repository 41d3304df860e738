"""Writing image files: imwrite (PNG, JPEG, GIF, BMP, TIFF, PBM/PGM/PPM).

The data's class decides the samples written, as in MATLAB: uint8 as it is, uint16 as
16-bit samples (PNG, TIFF), double and single as values in [0,1] scaled by 255, logical
as a 1-bit image; an indexed image (imwrite(X, map, filename)) keeps its indices (double
indices are 1-based and become 0-based).  Every file is written through atomic_path or
atomic_file, so a failed write leaves an existing file as it was.  GIF files are put
together by image_gif.py (appending keeps the file's frames byte for byte); appending a
page to a TIFF file rewrites all its pages (Pillow cannot add one in place).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_option, text_or_none, text_scalar
from mlang.builtins.files import image_gif, image_png16
from mlang.builtins.files.atomic import atomic_file, atomic_path
from mlang.builtins.files.images import MATLAB_FORMAT, image_format, quiet
from mlang.errors import MatlabError, error, warn
from mlang.registry import builtin
from mlang.values.core import class_of, to_array, to_double_array

# The name=value options each format takes (names as MATLAB spells them).
_OPTIONS = {
    "PNG": ("Alpha", "BitDepth", "Author", "Description", "Copyright", "CreationTime", "Software",
            "Disclaimer", "Warning", "Source", "Comment", "Title", "Transparency", "ResolutionUnit",
            "XResolution", "YResolution"),
    "JPEG": ("Quality", "Comment", "Mode", "BitDepth"),
    "GIF": ("LoopCount", "DelayTime", "WriteMode", "DisposalMethod", "TransparentColor",
            "BackgroundColor", "Comment"),
    "TIFF": ("Compression", "WriteMode", "Resolution", "Description"),
    "BMP": (),
    "PPM": (),
}
_ALPHA_CLASSES = ("double", "single", "uint8", "uint16", "logical")
_GIF_DISPOSAL = {"donotspecify": 0, "leaveinplace": 1, "restorebg": 2, "restoreprevious": 3}
_TIFF_COMPRESSION = {"none": "raw", "packbits": "packbits", "lzw": "tiff_lzw",
                     "deflate": "tiff_adobe_deflate", "jpeg": "jpeg",
                     "ccitt": "group4", "fax3": "group3", "fax4": "group4"}


def _bad(identifier: str, message: str) -> MatlabError:
    return error(f"MATLAB:imagesci:imwrite:{identifier}", message)


def _number(options: dict[str, Any], name: str) -> float:
    """A real numeric scalar option (NaN refused, Inf allowed)."""
    value = options[name]
    values = to_double_array(value).reshape(-1) if class_of(value) in _ALPHA_CLASSES else None
    if values is None or values.size != 1 or values.dtype.kind == "c" or np.isnan(values[0]):
        raise _bad("badOptionValue", f"{name} must be a real numeric scalar.")
    return float(values[0])


def _parse(args: tuple) -> tuple[Any, Any, str, str, dict[str, Any]]:
    """(data, map or None, file name, Pillow format, options) from imwrite's arguments."""
    data, rest = args[0], list(args[1:])
    cmap = None
    if not rest:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    if text_or_none(rest[0]) is None:
        cmap = rest.pop(0)
        if not rest or text_or_none(rest[0]) is None:
            raise _bad("badFilename", "The file name must be a character vector or string scalar.")
    filename = text_or_none(rest.pop(0)) or ""
    fmt = None
    if rest and len(rest) % 2 and (word := text_or_none(rest[0])) is not None:
        fmt = image_format(word)
        if fmt is None:
            raise _bad("invalidSyntaxOrFormat", f'Invalid format "{word}" or missing parameter value.')
        rest.pop(0)
    if fmt is None:
        fmt = image_format(os.path.splitext(filename)[1])
        if fmt is None:
            raise _bad("fileFormat", "Unable to determine the file format from the file name.")
    if len(rest) % 2:
        raise _bad("invalidSyntaxOrFormat", "Parameter names must be followed by values.")
    found: dict[str, Any] = {}
    allowed = _OPTIONS[fmt]
    for k in range(0, len(rest), 2):
        word = text_option(rest[k])
        match = next((n for n in allowed if n.lower() == word), None)
        if match is None:
            name = text_or_none(rest[k])
            kind = MATLAB_FORMAT[fmt].upper()
            raise _bad("unknownParam", f'"{name}" is not a recognized parameter for {kind} files.'
                       if name else "Parameter names must be text.")
        found[match] = rest[k + 1]
    return data, cmap, filename, fmt, found


def _check_data(data: Any) -> np.ndarray:
    cls = class_of(data)
    if cls not in ("double", "single", "uint8", "uint16", "logical", "int8", "int16", "int32", "uint32",
                   "int64", "uint64"):
        raise error("MATLAB:invalidType", "Expected DATA to be one of these types:\n\nnumeric, logical"
                                          f"\n\nInstead its type was {cls}.")
    a = to_array(data)
    if a.size == 0:
        raise error("MATLAB:expectedNonempty", "Expected DATA to be nonempty.")
    if a.dtype.kind == "c":
        raise error("MATLAB:expectedReal", "Expected DATA to be real.")
    return a


def _scaled8(a: np.ndarray) -> np.ndarray:
    """Image values as uint8: [0,1] doubles scaled by 255, uint16 divided by 257."""
    if a.dtype == np.uint8:
        return a
    if a.dtype == np.bool_:
        return a.astype(np.uint8) * 255
    if a.dtype == np.uint16:
        return np.round(a / 257.0).astype(np.uint8)
    values = np.nan_to_num(a.astype(np.float64), nan=0.0)
    return np.round(np.clip(values, 0.0, 1.0) * 255.0).astype(np.uint8)


def _scaled16(a: np.ndarray) -> np.ndarray:
    if a.dtype == np.uint16:
        return a
    if a.dtype == np.uint8:
        return a.astype(np.uint16) * 257
    if a.dtype == np.bool_:
        return a.astype(np.uint16) * 65535
    values = np.nan_to_num(a.astype(np.float64), nan=0.0)
    return np.round(np.clip(values, 0.0, 1.0) * 65535.0).astype(np.uint16)


def _indices(x: np.ndarray) -> np.ndarray:
    """An indexed image's 0-based indices as uint8 (double indices are 1-based)."""
    if x.dtype.kind == "f":
        values = np.nan_to_num(x.astype(np.float64), nan=1.0) - 1.0
    else:
        values = x.astype(np.float64)
    if values.size and (values.min() < 0 or values.max() > 255):
        raise _bad("tooManyColors", "Indexed images written to a file may have at most 256 colors "
                                    "(indices 0 to 255).")
    return np.round(values).astype(np.uint8)


def _palette(cmap: Any) -> np.ndarray:
    """A colormap (K-by-3, values in [0,1]) as K-by-3 bytes."""
    m = to_double_array(cmap)
    if m.ndim != 2 or m.shape[1] != 3 or m.shape[0] == 0 or m.dtype.kind == "c":
        raise _bad("invalidColormap", "The colormap must be a K-by-3 array of values in [0, 1].")
    if m.shape[0] > 256:
        raise _bad("tooManyColormapEntries", "The colormap may have at most 256 entries.")
    if np.any(np.isnan(m)) or m.min() < 0 or m.max() > 1:
        raise _bad("invalidColormap", "The colormap must be a K-by-3 array of values in [0, 1].")
    return np.round(m * 255.0).astype(np.uint8)


def _frames_of(a: np.ndarray, fmt: str) -> list[np.ndarray]:
    """The images of the data: one for M-by-N(-by-C), several for M-by-N-by-C-by-K (GIF, TIFF)."""
    channels_allowed = (1, 3, 4) if fmt == "TIFF" else (1, 3)
    if a.ndim == 4 and fmt in ("GIF", "TIFF"):
        return [a[:, :, :, k] if a.shape[2] > 1 else a[:, :, 0, k] for k in range(a.shape[3])]
    if a.ndim == 3 and a.shape[2] in channels_allowed:
        return [a if a.shape[2] > 1 else a[:, :, 0]]
    if a.ndim == 2:
        return [a]
    frames = ", or M-by-N-by-1-by-K for several frames." if fmt == "GIF" else "."
    raise _bad("invalidImageSize", "The image data must be M-by-N (grayscale or indexed) or M-by-N-by-3 "
                                   "(truecolor)" + frames)


def _unsupported_class(a: np.ndarray, fmt: str) -> MatlabError:
    return _bad("unsupportedDataType", f"Image data of class {class_of(a)} cannot be written to a "
                                       f"{MATLAB_FORMAT[fmt].upper()} file.")


# ------------------------------------------------------------------------- frames


def pillow_image(values: np.ndarray, mode: str) -> Any:
    """A Pillow image of ``mode`` ('1', 'L', 'P', 'I;16', 'RGB', 'CMYK') from an M-by-N(-by-C)
    array, built from its bytes (a palette image starts with a gray palette)."""
    # Pillow on first use: keeps start-up fast
    from PIL import Image

    height, width = values.shape[:2]
    if mode == "1":
        raw = np.packbits(values.astype(bool), axis=1).tobytes()
    elif mode == "I;16":
        raw = np.ascontiguousarray(values, dtype="<u2").tobytes()
    else:
        raw = np.ascontiguousarray(values, dtype=np.uint8).tobytes()
    return Image.frombytes(mode, (width, height), raw)


def _pillow_frame(a: np.ndarray, palette: np.ndarray | None, fmt: str, options: dict[str, Any]) -> Any:
    """One frame as a Pillow image ready for ``fmt``."""
    if a.dtype.kind in "iu" and a.dtype not in (np.uint8, np.uint16):
        raise _unsupported_class(a, fmt)
    if palette is not None:
        indices = _indices(a)
        if fmt in ("JPEG", "PPM"):  # no palettes: written as the colours
            table = np.zeros((256, 3), dtype=np.uint8)
            table[:len(palette)] = palette
            return pillow_image(np.ascontiguousarray(table[indices]), "RGB")
        img = pillow_image(indices, "P")
        img.putpalette(palette.reshape(-1).tolist())
        return img
    if a.ndim == 3:
        if a.dtype == np.uint16 and fmt not in ("PNG",):
            raise _bad("unsupported16bit", f"16-bit color images cannot be written to a "
                                           f"{MATLAB_FORMAT[fmt].upper()} file.")
        if fmt == "GIF":
            # MATLAB's writegif refuses an M-by-N-by-3 array (its 3-D size check); imwrite's
            # documentation: RGB images cannot be written to GIF files.
            raise error("MATLAB:imagesci:writegif:badSize",
                        "RGB images cannot be written to GIF files; convert them with rgb2ind first.")
        return pillow_image(_scaled8(a), "CMYK" if a.shape[2] == 4 else "RGB")
    if a.dtype == np.bool_:
        if fmt in ("PNG", "BMP", "TIFF", "PPM"):
            return pillow_image(np.ascontiguousarray(a), "1")
        if fmt == "GIF":
            img = pillow_image(a.astype(np.uint8), "P")
            img.putpalette([0, 0, 0, 255, 255, 255])
            return img
        return pillow_image(_scaled8(a), "L")
    if a.dtype == np.uint16 or fmt == "PNG" and _bit_depth(options) == 16:
        if fmt not in ("PNG", "TIFF", "PPM"):
            raise _bad("unsupported16bit", f"16-bit images cannot be written to a "
                                           f"{MATLAB_FORMAT[fmt].upper()} file.")
        return pillow_image(np.ascontiguousarray(_scaled16(a)), "I;16")
    gray = _scaled8(a)
    if fmt == "GIF":
        img = pillow_image(gray, "P")
        img.putpalette(np.repeat(np.arange(256, dtype=np.uint8), 3).tolist())
        return img
    return pillow_image(np.ascontiguousarray(gray), "L")


def _bit_depth(options: dict[str, Any]) -> int | None:
    if "BitDepth" not in options:
        return None
    value = _number(options, "BitDepth")
    if value not in (1, 2, 4, 8, 12, 16):
        raise _bad("invalidBitDepth", "BitDepth must be 1, 2, 4, 8, 12 or 16.")
    return int(value)


# -------------------------------------------------------------------------- PNG


def _write_png(path: str, a: np.ndarray, palette: np.ndarray | None, options: dict[str, Any]) -> None:
    # Pillow on first use: keeps start-up fast
    from PIL import PngImagePlugin

    depth = _bit_depth(options)
    if depth in (2, 4, 12) or depth == 1 and (a.ndim == 3 or palette is not None):
        raise _bad("invalidBitDepth", f"BitDepth {depth} is not supported for this PNG image.")
    if depth == 1:
        a = _scaled8(a) >= 128 if a.dtype != np.bool_ else a
    elif depth == 8 and palette is None and a.dtype != np.uint8:
        a = _scaled8(a)
    alpha = options.get("Alpha")
    if alpha is not None:
        alpha_values = to_array(alpha) if class_of(alpha) in _ALPHA_CLASSES else None
        if alpha_values is None or alpha_values.dtype.kind == "c":
            raise _bad("badAlpha", "The alpha data must be a real numeric or logical array.")
        if alpha_values.shape != a.shape[:2]:
            raise _bad("badAlphaSize", "The alpha data must have the same number of rows and columns as "
                                       "the image.")
    sixteen = palette is None and (depth == 16 or depth is None and a.dtype == np.uint16)
    if sixteen and (a.ndim == 3 or alpha is not None):
        a16 = _scaled16(a)
        alpha16 = None if alpha is None else _scaled16(to_array(alpha))
        with atomic_file(path) as f:
            image_png16.write(f, a16, alpha16)
        return
    img = _pillow_frame(a, palette, "PNG", options)
    if alpha is not None:
        alpha8 = pillow_image(np.ascontiguousarray(_scaled8(to_array(alpha))), "L")
        img = img.convert("RGBA" if img.mode in ("RGB", "P") else "LA")
        img.putalpha(alpha8)
    save: dict[str, Any] = {"format": "PNG"}
    if "Transparency" in options:
        save["transparency"] = _png_transparency(options["Transparency"], img.mode)
    if "XResolution" in options or "YResolution" in options:
        unit = text_option(options["ResolutionUnit"]) if "ResolutionUnit" in options else "unknown"
        x = _number(options, "XResolution" if "XResolution" in options else "YResolution")
        y = _number(options, "YResolution" if "YResolution" in options else "XResolution")
        if unit == "meter":  # Pillow takes dots per inch
            save["dpi"] = (x * 0.0254, y * 0.0254)
    info = PngImagePlugin.PngInfo()
    for key in ("Author", "Description", "Copyright", "CreationTime", "Software", "Disclaimer", "Warning",
                "Source", "Comment", "Title"):
        if key in options:
            info.add_text(key, text_scalar(options[key], key))
    with atomic_path(path) as temporary:
        img.save(temporary, pnginfo=info, **save)


def _png_transparency(value: Any, mode: str) -> Any:
    """PNG's simple transparency: an alpha per colormap entry (indexed), or the one gray
    value or RGB colour (values in [0,1]) drawn transparent."""
    values = to_double_array(value).reshape(-1) if class_of(value) in _ALPHA_CLASSES else None
    if values is None or values.dtype.kind == "c":
        raise _bad("badTransparency", "Transparency must be real values in [0, 1].")
    levels = np.round(np.clip(np.nan_to_num(values), 0, 1) * 255).astype(int)
    if mode == "P":
        return bytes(levels.tolist())
    if mode == "L" and levels.size == 1:
        return int(levels[0])
    if mode == "RGB" and levels.size == 3:
        return tuple(int(v) for v in levels)
    raise _bad("badTransparency", "Transparency must be a value per colormap entry (indexed images), "
                                  "one gray value or an RGB colour.")


# -------------------------------------------------------------------------- GIF


def _gif_number(options: dict[str, Any], name: str, low: float, high: float) -> float | None:
    if name not in options:
        return None
    value = _number(options, name)
    if not (low <= value <= high or name == "LoopCount" and value == float("inf")):
        raise error(f"MATLAB:imagesci:writegif:bad{name}", f"{name} must be a scalar between {low:g} and "
                                                           f"{high:g}" + (" or Inf." if name == "LoopCount"
                                                                          else "."))
    return value


def _colour_index(value: Any, name: str, one_based: bool) -> int:
    """A colormap index option as a 0-based index (1-based when the image is double)."""
    index = to_double_array(value).reshape(-1) if class_of(value) in _ALPHA_CLASSES else np.zeros(0)
    start = 1 if one_based else 0
    if index.size != 1 or index.dtype.kind == "c" or index[0] != np.floor(index[0]) \
            or not start <= index[0] <= 255 + start:
        raise error(f"MATLAB:imagesci:writegif:bad{name}", f"{name} must be an index into the colormap.")
    return int(index[0]) - start


def _write_gif(path: str, frames: list[Any], options: dict[str, Any], one_based: bool) -> None:
    mode = text_option(options["WriteMode"]) if "WriteMode" in options else "overwrite"
    if mode not in ("overwrite", "append"):
        raise error("MATLAB:imagesci:writegif:badWriteMode", "WriteMode must be 'overwrite' or 'append'.")
    delay = _gif_number(options, "DelayTime", 0, 655)
    loop = _gif_number(options, "LoopCount", 0, 65535)
    disposal = 0
    if "DisposalMethod" in options:
        word = text_option(options["DisposalMethod"])
        if word not in _GIF_DISPOSAL:
            raise error("MATLAB:imagesci:writegif:badDisposalMethod",
                        "DisposalMethod must be 'leaveInPlace', 'restoreBG', 'restorePrevious' or "
                        "'doNotSpecify'.")
        disposal = _GIF_DISPOSAL[word]
    delay_cs = int(round((delay or 0) * 100))
    transparency = _colour_index(options["TransparentColor"], "TransparentColor", one_based) \
        if "TransparentColor" in options else None
    try:
        encoded = [image_gif.encode(f) for f in frames]
    except (ValueError, IndexError) as exc:
        raise error("MATLAB:imagesci:writegif:encodeFailed",
                    f"The frame could not be encoded: {exc}.") from None
    if len({(f.width, f.height) for f in encoded}) != 1:
        raise error("MATLAB:imagesci:writegif:frameSize", "The frames must all have the same size.")
    delays = [delay_cs] * len(encoded)
    if mode == "append" and os.path.isfile(path):
        if loop is not None:
            # MATLAB's writegif warns and ignores a file-wide option when appending.
            warn("MATLAB:imagesci:writegif:badParameterInAppendMode",
                 "The LOOPCOUNT parameter is ignored when WriteMode is 'append'.")
        with open(path, "rb") as f:
            existing = f.read()
        content = image_gif.appended(existing, encoded, delays, disposal, transparency, path)
    else:
        # LoopCount n plays the animation n+1 times; 0 (or none) once, with no looping block
        loop_count = None if not loop else (0 if loop == float("inf") else int(loop))
        background = _colour_index(options["BackgroundColor"], "BackgroundColor", one_based) \
            if "BackgroundColor" in options else 0
        comment = text_scalar(options["Comment"], "Comment") if "Comment" in options else None
        content = image_gif.new_file(encoded, delays, disposal, loop_count, transparency, background, comment)
    with atomic_file(path) as f:
        f.write(content)


# ------------------------------------------------------------------------- TIFF


def _write_tiff(path: str, frames: list[Any], options: dict[str, Any]) -> None:
    # Pillow on first use: keeps start-up fast
    from PIL import Image

    mode = text_option(options["WriteMode"]) if "WriteMode" in options else "overwrite"
    if mode not in ("overwrite", "append"):
        raise error("MATLAB:imagesci:writetif:badWriteMode", "WriteMode must be 'overwrite' or 'append'.")
    save: dict[str, Any] = {"format": "TIFF"}
    if "Compression" in options:
        word = text_option(options["Compression"])
        if word not in _TIFF_COMPRESSION:
            raise error("MATLAB:imagesci:writetif:badCompression",
                        "Compression must be 'none', 'packbits', 'lzw', 'deflate', 'jpeg' or 'ccitt'.")
        save["compression"] = _TIFF_COMPRESSION[word]
        modes = {f.mode for f in frames}
        if save["compression"] in ("group3", "group4") and modes != {"1"}:
            raise error("MATLAB:imagesci:writetif:badCompressionForData",
                        f"Compression '{word}' is valid only for binary (logical) images.")
        if word == "jpeg" and not modes <= {"L", "RGB"}:
            raise error("MATLAB:imagesci:writetif:badCompressionForData",
                        "Compression 'jpeg' is valid only for 8-bit grayscale and RGB images.")
    if "Resolution" in options:
        value = options["Resolution"]
        r = to_double_array(value).reshape(-1) if class_of(value) in _ALPHA_CLASSES else np.zeros(0)
        if r.size not in (1, 2) or r.dtype.kind == "c" or not np.all(r > 0):
            raise error("MATLAB:imagesci:writetif:badResolution",
                        "Resolution must be one or two positive numbers (dots per inch).")
        save["resolution_unit"] = 2
        save["dpi"] = (float(r[0]), float(r[-1]))
    if "Description" in options:
        save["description"] = text_scalar(options["Description"], "Description")
    pages = list(frames)
    if mode == "append" and os.path.isfile(path):
        existing = []
        try:
            with quiet(), Image.open(path) as old:
                if old.format != "TIFF":
                    raise ValueError("it is not a TIFF file")
                for k in range(getattr(old, "n_frames", 1)):
                    old.seek(k)
                    existing.append(old.copy())
        except Exception as exc:  # noqa: BLE001 - Pillow fails in many ways on a bad file
            raise error("MATLAB:imagesci:writetif:notTIFF", f'Cannot append to "{path}": {exc}.') from None
        pages = existing + pages
    if len(pages) > 1:
        save["save_all"] = True
        save["append_images"] = pages[1:]
    with atomic_path(path) as temporary:
        pages[0].save(temporary, **save)


# ------------------------------------------------------------------------ imwrite


@builtin(max_out=0)
def imwrite(*args: Any) -> None:
    """imwrite  Write image to graphics file.
    imwrite(A, filename) writes image A (M-by-N grayscale or M-by-N-by-3 truecolor) to the
    file, its format taken from the extension: uint8 and uint16 data as they are, double
    and single data in [0,1] scaled by 255, logical data as a 1-bit image.
    imwrite(X, map, filename) writes the indexed image X with its colormap map (double
    indices are 1-based, uint8 indices 0-based).
    imwrite(___, fmt) names the format: 'png', 'jpg', 'gif', 'bmp', 'tif', 'pbm', 'pgm', 'ppm'.
    imwrite(___, Name, Value) sets format options: PNG 'Alpha', 'BitDepth' (1, 8, 16) and
    text chunks ('Author', 'Title'...); JPEG 'Quality' (0-100, default 75), 'Comment'; GIF
    'LoopCount' (Inf: forever), 'DelayTime' (seconds), 'WriteMode' ('overwrite' or
    'append': add a frame), 'DisposalMethod', 'TransparentColor'; TIFF 'Compression',
    'WriteMode', 'Resolution', 'Description'."""
    if not args:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    data, cmap, filename, fmt, options = _parse(args)
    a = _check_data(data)
    palette = None if cmap is None else _palette(cmap)
    if a.dtype == np.float32 and fmt in ("GIF", "TIFF"):
        a = a.astype(np.float64)
    images = _frames_of(a, fmt)
    if images[0].ndim == 3 and palette is not None:
        raise _bad("invalidImageSize", "An indexed image must be M-by-N.")
    try:
        if fmt == "PNG":
            if len(images) > 1:
                raise _bad("invalidImageSize", "PNG files hold one image.")
            _write_png(filename, images[0], palette, options)
        elif fmt == "GIF":
            _write_gif(filename, [_pillow_frame(f, palette, fmt, options) for f in images], options,
                       a.dtype.kind == "f")
        elif fmt == "TIFF":
            _write_tiff(filename, [_pillow_frame(f, palette, fmt, options) for f in images], options)
        else:
            img = _pillow_frame(images[0], palette, fmt, options)
            save: dict[str, Any] = {"format": fmt}
            if fmt == "JPEG":
                save.update(_jpeg_options(options))
                if img.mode == "1":
                    img = img.convert("L")
            if fmt == "BMP" and img.mode == "I;16":
                raise _bad("unsupported16bit", "16-bit images cannot be written to a BMP file.")
            with atomic_path(filename) as temporary:
                img.save(temporary, **save)
    except (ValueError, TypeError, KeyError) as exc:  # Pillow refusing the data for this format
        raise _bad("writeFailed", f"The image could not be written as a {MATLAB_FORMAT[fmt].upper()} file: "
                                  f"{exc}.") from None
    except OSError as exc:
        folder = os.path.dirname(os.path.abspath(filename))
        if not os.path.isdir(folder):
            raise _bad("filePathNotFound", f'Unable to open file "{filename}" for writing. The folder '
                                           "does not exist.") from None
        raise _bad("fileOpen", f'Unable to open file "{filename}" for writing. You might not have write '
                               "permission.") from exc


def _jpeg_options(options: dict[str, Any]) -> dict[str, Any]:
    save: dict[str, Any] = {}
    if "Quality" in options:
        q = _number(options, "Quality")
        if not 0 <= q <= 100:
            raise error("MATLAB:imagesci:writejpg:badQuality", "Quality must be a scalar between 0 and 100.")
        save["quality"] = int(round(q))
    else:
        save["quality"] = 75
    if "Comment" in options:
        save["comment"] = text_scalar(options["Comment"], "Comment").encode("latin-1", "replace")
    if "Mode" in options and text_option(options["Mode"]) not in ("lossy",):
        raise error("MATLAB:imagesci:writejpg:losslessUnsupported", "Only 'lossy' JPEG files can be written.")
    if "BitDepth" in options and _bit_depth(options) != 8:
        raise error("MATLAB:imagesci:writejpg:badBitDepth", "Only 8-bit JPEG files can be written.")
    return save

