"""16-bit colour PNG files (48-bit RGB, 64-bit RGBA, 32-bit gray+alpha), which Pillow
reads only as 8 bits a sample and cannot write: a small PNG reader and writer for them.

The reader undoes the five PNG row filters (Sub and Up vectorised over the row; Average
and Paeth, whose bytes depend on their left neighbours, a pixel at a time) and refuses
interlaced files.  The writer stores each row unfiltered and deflated.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

from mlang.errors import error

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# colour types with several samples a pixel: samples, and whether the last is alpha
_SAMPLES = {0: 1, 2: 3, 4: 2, 6: 4}


def png_depth(path: str) -> tuple[int, int] | None:
    """(bit depth, colour type) from a PNG file's header, None if it is no PNG file."""
    try:
        with open(path, "rb") as f:
            head = f.read(33)
    except OSError:
        return None
    if len(head) < 33 or head[:8] != SIGNATURE or head[12:16] != b"IHDR":
        return None
    return head[24], head[25]


def is_png16_colour(path: str) -> bool:
    """Whether the file is a 16-bit PNG with colour or alpha samples (Pillow would reduce it)."""
    found = png_depth(path)
    return found is not None and found[0] == 16 and found[1] in (2, 4, 6)


def _corrupt(reason: str) -> Exception:
    return error("MATLAB:imagesci:png:libraryFailure", f"The PNG file could not be read: {reason}.")


def read(path: str) -> tuple[np.ndarray, np.ndarray]:
    """The image (uint16, M-by-N-by-3 or M-by-N) and its alpha channel ([] if none)."""
    with open(path, "rb") as f:
        data = f.read()
    pos = 8
    width = height = colour = interlace = 0
    compressed = bytearray()
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length:
            raise _corrupt("the file is truncated")
        if kind == b"IHDR":
            width, height, _, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed += body
        elif kind == b"IEND":
            break
        pos += 12 + length
    if interlace:
        raise error("MATLAB:imagesci:png:interlaced",
                    "Interlaced 16-bit colour PNG files are not supported.")
    samples = _SAMPLES[colour]
    try:
        raw = zlib.decompress(bytes(compressed))
    except zlib.error as exc:
        raise _corrupt(str(exc)) from None
    stride = width * samples * 2
    if len(raw) < height * (stride + 1):
        raise _corrupt("the image data is truncated")
    rows = np.frombuffer(raw, dtype=np.uint8, count=height * (stride + 1)).reshape(height, stride + 1)
    pixels = _unfilter(rows, samples * 2)
    values = pixels.view(">u2").reshape(height, width, samples).astype(np.uint16)
    has_alpha = colour in (4, 6)
    colour_part = values[:, :, :samples - 1] if has_alpha else values
    if colour_part.shape[2] == 1:
        colour_part = colour_part[:, :, 0]
    alpha = values[:, :, samples - 1].copy() if has_alpha else np.zeros((0, 0))
    return np.ascontiguousarray(colour_part), alpha


def _unfilter(rows: np.ndarray, bpp: int) -> np.ndarray:
    """The raw bytes of each row with its PNG filter undone."""
    height, stride = rows.shape[0], rows.shape[1] - 1
    out = np.zeros((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.int64)
    for r in range(height):
        kind = rows[r, 0]
        line = rows[r, 1:].astype(np.int64)
        if kind == 0:
            recon = line
        elif kind == 1:  # Sub: a running sum over each byte position of a pixel
            recon = np.cumsum(line.reshape(-1, bpp), axis=0).reshape(-1) % 256
        elif kind == 2:  # Up
            recon = (line + previous) % 256
        elif kind in (3, 4):
            recon = _sequential(line, previous, bpp, kind)
        else:
            raise _corrupt(f"unknown row filter {kind}")
        out[r] = recon
        previous = recon.astype(np.int64)
    return out


def _sequential(line: np.ndarray, above: np.ndarray, bpp: int, kind: int) -> np.ndarray:
    """Average (3) or Paeth (4) filtering undone a pixel at a time."""
    recon = np.zeros_like(line)
    left = np.zeros(bpp, dtype=np.int64)
    upper_left = np.zeros(bpp, dtype=np.int64)
    for x in range(0, line.size, bpp):
        up = above[x:x + bpp]
        if kind == 3:
            value = (line[x:x + bpp] + (left + up) // 2) % 256
        else:
            p = left + up - upper_left
            pa, pb, pc = np.abs(p - left), np.abs(p - up), np.abs(p - upper_left)
            predictor = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, upper_left))
            value = (line[x:x + bpp] + predictor) % 256
        recon[x:x + bpp] = value
        left, upper_left = value, up
    return recon


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def write(f: object, image: np.ndarray, alpha: np.ndarray | None) -> None:
    """Write a uint16 image (M-by-N or M-by-N-by-3) and optional uint16 alpha as a 16-bit
    PNG to the open binary file ``f``."""
    planes = image[:, :, None] if image.ndim == 2 else image
    if alpha is not None:
        planes = np.concatenate([planes, alpha[:, :, None]], axis=2)
    height, width, samples = planes.shape
    colour = {1: 0, 2: 4, 3: 2, 4: 6}[samples]
    big = planes.astype(">u2").reshape(height, width * samples).view(np.uint8)
    rows = np.concatenate([np.zeros((height, 1), dtype=np.uint8), big], axis=1)
    header = struct.pack(">IIBBBBB", width, height, 16, colour, 0, 0, 0)
    f.write(SIGNATURE + _chunk(b"IHDR", header)  # type: ignore[attr-defined]
            + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)) + _chunk(b"IEND", b""))
