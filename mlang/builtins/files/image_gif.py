"""GIF files written frame by frame, as MATLAB writes them.

Pillow compresses each frame (its LZW coder), but the file is put together here: Pillow's
own animation writer merges identical consecutive frames and re-palettes frames, and it
cannot add a frame to an existing file.  Appending ('WriteMode', 'append') keeps the
existing file's bytes and inserts the new frame, with its own colour table, before the
trailer; the result is written through atomic_path like every other write.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass
from typing import Any

from mlang.errors import MatlabError, error

TRAILER = b"\x3b"


@dataclass(slots=True)
class EncodedFrame:
    """One frame compressed: its colour table (padded to a power of two), the table's size
    field, and the LZW minimum code size with the data sub-blocks."""

    width: int
    height: int
    table: bytes
    size_bits: int
    data: bytes


def _skip_sub_blocks(data: bytes, pos: int) -> int:
    """The position after a chain of sub-blocks (ending with a zero-length block)."""
    while True:
        if pos >= len(data):
            raise ValueError("the file ends inside a block")
        length = data[pos]
        pos += 1 + length
        if length == 0:
            return pos


def _colour_table(data: bytes, pos: int, packed: int) -> tuple[bytes, int, int]:
    """(table bytes, size field, position after) for a descriptor whose packed byte has
    the table flag; an empty table when the flag is clear."""
    if not packed & 0x80:
        return b"", 0, pos
    size_bits = packed & 0x07
    length = 3 * (2 ** (size_bits + 1))
    return data[pos:pos + length], size_bits, pos + length


def encode(img: Any) -> EncodedFrame:
    """A palette image compressed as a GIF frame (Pillow's coder, one frame alone)."""
    buffer = io.BytesIO()
    img.save(buffer, format="GIF", optimize=False, interlace=False)  # the descriptor is written here
    data = buffer.getvalue()
    width, height, packed = struct.unpack("<HHB", data[6:11])
    table, size_bits, pos = _colour_table(data, 13, packed)
    while data[pos] != 0x2C:  # skip extensions up to the image
        if data[pos] != 0x21:
            raise ValueError("unexpected block in a frame")
        pos = _skip_sub_blocks(data, pos + 2)
    local_packed = data[pos + 9]
    local, local_bits, start = _colour_table(data, pos + 10, local_packed)
    if local:
        table, size_bits = local, local_bits
    end = _skip_sub_blocks(data, start + 1)
    return EncodedFrame(width, height, table, size_bits, data[start:end])


def frame_blocks(frame: EncodedFrame, delay: int, disposal: int, transparency: int | None,
                 local_table: bool) -> bytes:
    """A graphic control extension and the image (with its own colour table if asked)."""
    flags = (disposal & 0x07) << 2 | (1 if transparency is not None else 0)
    control = b"\x21\xf9\x04" + struct.pack("<BHB", flags, delay, transparency or 0) + b"\x00"
    packed = (0x80 | frame.size_bits) if local_table else 0
    descriptor = b"\x2c" + struct.pack("<HHHHB", 0, 0, frame.width, frame.height, packed)
    return control + descriptor + (frame.table if local_table else b"") + frame.data


def new_file(frames: list[EncodedFrame], delays: list[int], disposal: int, loop: int | None,
             transparency: int | None, background: int, comment: str | None) -> bytes:
    """A whole GIF: the first frame's table global, later frames with their own."""
    first = frames[0]
    screen = struct.pack("<HHBBB", first.width, first.height, 0xF0 | first.size_bits, background, 0)
    parts = [b"GIF89a", screen, first.table]
    if loop is not None:
        parts.append(b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00")
    if comment:
        text = comment.encode("latin-1", "replace")
        chunks = [text[k:k + 255] for k in range(0, len(text), 255)]
        parts.append(b"\x21\xfe" + b"".join(bytes([len(c)]) + c for c in chunks) + b"\x00")
    for k, frame in enumerate(frames):
        parts.append(frame_blocks(frame, delays[k], disposal, transparency, local_table=k > 0))
    parts.append(TRAILER)
    return b"".join(parts)


def appended(existing: bytes, frames: list[EncodedFrame], delays: list[int], disposal: int,
             transparency: int | None, path: str) -> bytes:
    """The existing GIF with the frames added before its trailer."""
    if existing[:6] not in (b"GIF87a", b"GIF89a"):
        raise error("MATLAB:imagesci:writegif:notGIF", f'Cannot append to "{path}": it is not a GIF file.')
    try:
        width, height, packed = struct.unpack("<HHB", existing[6:11])
        _, _, pos = _colour_table(existing, 13, packed)
        while pos < len(existing) and existing[pos] != 0x3B:
            if existing[pos] == 0x21:
                pos = _skip_sub_blocks(existing, pos + 2)
            elif existing[pos] == 0x2C:
                _, _, start = _colour_table(existing, pos + 10, existing[pos + 9])
                pos = _skip_sub_blocks(existing, start + 1)
            else:
                raise ValueError(f"unknown block 0x{existing[pos]:02x}")
    except (ValueError, IndexError, struct.error) as exc:
        raise error("MATLAB:imagesci:writegif:corruptFile", f'Cannot append to "{path}": {exc}.') from None
    for frame in frames:
        if frame.width > width or frame.height > height:
            raise frame_too_big()
    added = b"".join(frame_blocks(f, delays[k], disposal, transparency, local_table=True)
                     for k, f in enumerate(frames))
    return b"GIF89a" + existing[6:pos] + added + TRAILER


@dataclass(slots=True)
class FrameInfo:
    """What imfinfo reports of one frame: its colour table (the global one when the frame
    has none), the table's bits, delay (hundredths of a second), disposal and interlacing."""

    table: bytes
    bits: int
    delay: int
    disposal: int
    interlaced: bool
    left: int
    top: int


def describe(data: bytes) -> tuple[int | None, list[FrameInfo]]:
    """The loop count (None without a looping block) and the frames of a GIF file."""
    _, _, packed = struct.unpack("<HHB", data[6:11])
    global_table, global_bits, pos = _colour_table(data, 13, packed)
    loop: int | None = None
    delay = disposal = 0
    frames: list[FrameInfo] = []
    while pos < len(data) and data[pos] != 0x3B:
        if data[pos] == 0x21:
            label = data[pos + 1]
            if label == 0xF9 and data[pos + 2] >= 4:
                flags, delay = struct.unpack("<BH", data[pos + 3:pos + 6])
                disposal = (flags >> 2) & 0x07
            elif label == 0xFF and data[pos + 3:pos + 14] == b"NETSCAPE2.0" and data[pos + 14] >= 3:
                loop = struct.unpack("<H", data[pos + 16:pos + 18])[0]
            pos = _skip_sub_blocks(data, pos + 2)
        elif data[pos] == 0x2C:
            left, top, _, _, local_packed = struct.unpack("<HHHHB", data[pos + 1:pos + 10])
            table, bits, start = _colour_table(data, pos + 10, local_packed)
            if not table:
                table, bits = global_table, global_bits
            frames.append(FrameInfo(table, bits + 1, delay, disposal, bool(local_packed & 0x40), left, top))
            delay = disposal = 0
            pos = _skip_sub_blocks(data, start + 1)
        else:
            raise ValueError(f"unknown block 0x{data[pos]:02x}")
    return loop, frames


def frame_too_big() -> MatlabError:
    return error("MATLAB:imagesci:writegif:frameSize",
                 "The appended frame must not be larger than the frames in the file.")
