"""imread, imwrite and imfinfo: formats, classes, GIF animation, errors, atomic writes."""

from __future__ import annotations

import os

import numpy as np
import pytest
from PIL import Image

from mlang.values.core import char_text
from mlang.values.struct import Struct


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


GRAY = "A = uint8(reshape(0:11, 3, 4) * 20);"
RGB = GRAY + " R = cat(3, A, flipud(A), fliplr(A));"


# ------------------------------------------------------------------ round trips


@pytest.mark.parametrize("ext", ["png", "bmp", "tif", "pgm"])
def test_grayscale_uint8_round_trips(m, ext):
    b = m.value(GRAY + f" imwrite(A, 'g.{ext}'); x = imread('g.{ext}');")
    assert b.dtype == np.uint8 and b.shape == (3, 4)
    np.testing.assert_array_equal(b, np.arange(12).reshape(4, 3).T * 20)


@pytest.mark.parametrize("ext", ["png", "bmp", "tif", "ppm"])
def test_truecolor_round_trips(m, ext):
    assert m.value(RGB + f" imwrite(R, 'c.{ext}'); x = isequal(imread('c.{ext}'), R);") is True


def test_jpeg_reads_back_close_to_what_was_written(m):
    r, size100, size10 = m.values(
        RGB + " R = repmat(R, 8, 8); imwrite(R, 'q.jpg', 'Quality', 100); x = imread('q.jpg');"
        " imwrite(R, 'l.jpg', 'Quality', 10); d1 = dir('q.jpg'); d2 = dir('l.jpg');"
        " s1 = d1.bytes; s2 = d2.bytes;", "x", "s1", "s2")
    assert r.dtype == np.uint8 and r.shape == (24, 32, 3)
    assert size100 > size10
    gray = m.value(GRAY + " imwrite(A, 'g.jpg'); x = imread('g.jpg');")
    assert gray.shape == (3, 4)
    assert np.abs(gray.astype(int) - np.arange(12).reshape(4, 3).T * 20).max() <= 8


def test_double_images_are_scaled_by_255(m):
    x = m.value("imwrite([0 0.5; 1 0.25; 2 -1], 'd.png'); x = imread('d.png');")
    np.testing.assert_array_equal(x, [[0, 128], [255, 64], [255, 0]])
    assert x.dtype == np.uint8


def test_logical_images_are_1_bit(m):
    x, depth = m.values("L = logical([1 0 1; 0 1 0]); imwrite(L, 'b.png'); x = imread('b.png');"
                        " i = imfinfo('b.png'); d = i.BitDepth;", "x", "d")
    assert x.dtype == np.bool_
    np.testing.assert_array_equal(x, [[True, False, True], [False, True, False]])
    assert depth == 1.0


def test_uint16_png_keeps_16_bits(m):
    x, depth = m.values("U = uint16(reshape(0:11, 3, 4) * 5000 + 1); imwrite(U, 'u.png');"
                        " x = imread('u.png'); i = imfinfo('u.png'); d = i.BitDepth;", "x", "d")
    assert x.dtype == np.uint16 and x[2, 3] == 55001
    assert depth == 16.0


def test_uint16_rgb_png_and_16_bit_alpha(m):
    same, same_alpha, depth = m.values(
        "U = uint16(reshape(0:11, 3, 4) * 5000 + 7); U3 = cat(3, U, U + 1, 65535 - U);"
        " al = uint16(ones(3, 4) * 40000); imwrite(U3, 'u3.png', 'Alpha', al);"
        " [x, map, a] = imread('u3.png'); s = isequal(x, U3); sa = isequal(a, al);"
        " i = imfinfo('u3.png'); d = i.BitDepth;", "s", "sa", "d")
    assert same is True and same_alpha is True and depth == 64.0


def test_16_bit_png_from_another_writer_with_row_filters(m, tmp_path):
    # rows written with the Sub, Up, Average and Paeth filters
    import struct
    import zlib

    rng = np.random.default_rng(1)
    image = rng.integers(0, 65536, size=(4, 5, 3), dtype=np.uint16)
    raw = image.astype(">u2").reshape(4, 15).view(np.uint8).astype(np.int64)
    bpp = 6
    rows = []
    for r, kind in enumerate((1, 2, 3, 4)):
        line, above = raw[r], raw[r - 1] if r else np.zeros(30, dtype=np.int64)
        filtered = []
        for x in range(30):
            a = line[x - bpp] if x >= bpp else 0
            b = above[x]
            c = above[x - bpp] if x >= bpp else 0
            if kind == 1:
                pred = a
            elif kind == 2:
                pred = b
            elif kind == 3:
                pred = (a + b) // 2
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            filtered.append((line[x] - pred) % 256)
        rows.append(bytes([kind] + filtered))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 5, 4, 16, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))
    (tmp_path / "f.png").write_bytes(data)
    x = m.value("x = imread('f.png');")
    assert x.dtype == np.uint16
    np.testing.assert_array_equal(x, image)


def test_indexed_png_gives_indices_and_colormap(m):
    x, cmap = m.values("X = uint8([0 1; 2 1]); map = [0 0 0; 1 0 0; 0 1 0]; imwrite(X, map, 'i.png');"
                       " [x, m] = imread('i.png');", "x", "m")
    np.testing.assert_array_equal(x, [[0, 1], [2, 1]])
    assert x.dtype == np.uint8
    np.testing.assert_array_equal(cmap, [[0, 0, 0], [1, 0, 0], [0, 1, 0]])


def test_double_indices_are_one_based(m):
    x = m.value("imwrite([1 2; 3 2], [0 0 0; 1 0 0; 0 1 0], 'i.bmp'); x = imread('i.bmp');")
    np.testing.assert_array_equal(x, [[0, 1], [2, 1]])


def test_indexed_image_to_jpeg_is_written_as_its_colours(m):
    x = m.value("imwrite(ones(8), [1 0 0], 'r.jpg'); x = imread('r.jpg');")
    assert x.shape == (8, 8, 3) and x[0, 0, 0] > 240 and x[0, 0, 1] < 15


def test_alpha_is_a_separate_output(m):
    x, alpha, none = m.values(RGB + " imwrite(R, 'a.png', 'Alpha', double(A) / 255);"
                              " imwrite(R, 'b.png'); [x, map, al] = imread('a.png');"
                              " [~, ~, none] = imread('b.png');", "x", "al", "none")
    assert x.shape == (3, 4, 3)
    np.testing.assert_array_equal(alpha, np.arange(12).reshape(4, 3).T * 20)
    assert none.shape == (0, 0)


def test_images_made_by_pillow(m, tmp_path):
    Image.new("LA", (3, 2), (10, 200)).save(tmp_path / "la.png")
    Image.new("RGBA", (3, 2), (1, 2, 3, 4)).save(tmp_path / "rgba.png")
    pal = Image.new("P", (2, 2))
    pal.putpalette([0, 0, 0, 255, 255, 255])
    pal.putpixel((1, 0), 1)
    pal.save(tmp_path / "p.gif")
    x, alpha = m.values("[x, ~, al] = imread('la.png');", "x", "al")
    assert x.shape == (2, 3) and x[0, 0] == 10 and alpha[0, 0] == 200
    x, alpha = m.values("[x, ~, al] = imread('rgba.png');", "x", "al")
    assert x.shape == (2, 3, 3) and list(x[0, 0]) == [1, 2, 3] and alpha[1, 2] == 4
    x, cmap = m.values("[x, map] = imread('p.gif');", "x", "map")
    np.testing.assert_array_equal(x, [[0, 1], [0, 0]])
    np.testing.assert_array_equal(cmap[:2], [[0, 0, 0], [1, 1, 1]])


def test_format_argument_completes_the_name(m):
    m.run(GRAY + " imwrite(A, 'g.png');")
    assert m.value("x = imread('g', 'png');").shape == (3, 4)
    assert m.value("x = size(imread('g.png', 'png'));").tolist() == [[3.0, 4.0]]


def test_files_on_the_path_are_found(m, tmp_path):
    folder = tmp_path / "pics"
    folder.mkdir()
    Image.new("L", (2, 2), 9).save(folder / "on_path.png")
    try:
        x = m.value(f"addpath('{folder}'); x = imread('on_path.png');")
    finally:
        m.interp.path.clear()
    assert x[0, 0] == 9


def test_pixel_region(m):
    x = m.value(GRAY + " imwrite(A, 'g.png'); x = imread('g.png', 'PixelRegion', {[2 3], [1 2 4]});")
    np.testing.assert_array_equal(x, [[20, 140], [40, 160]])  # columns 1:2:4


def test_multipage_tiff(m):
    x, one, count = m.values(
        GRAY + " imwrite(A, 't.tif'); imwrite(A + 1, 't.tif', 'WriteMode', 'append');"
        " imwrite(A + 2, 't.tif', 'WriteMode', 'append', 'Compression', 'lzw');"
        " x = imread('t.tif', 3); one = imread('t.tif'); n = numel(imfinfo('t.tif'));", "x", "one", "n")
    assert x[0, 0] == 2 and one[0, 0] == 0 and count == 3.0


# ------------------------------------------------------------------------ GIF


ANIMATION = """
for k = 1:3
  f = uint8(zeros(4, 5, 3)); f(:,:,1) = 50*k; f(2,k,2) = 200;
  [imind, cm] = rgb2ind(f, 256);
  if k == 1
    imwrite(imind, cm, 'anim.gif', 'gif', 'Loopcount', inf, 'DelayTime', 0.1);
  else
    imwrite(imind, cm, 'anim.gif', 'gif', 'WriteMode', 'append', 'DelayTime', 0.2);
  end
end
"""


def test_gif_animation_appends_frames(m, tmp_path):
    info = m.value(ANIMATION + "x = imfinfo('anim.gif');")
    assert isinstance(info, Struct) and info.shape == (1, 3)
    delays = [info.element(k)["DelayTime"] for k in range(3)]
    assert delays == [10.0, 20.0, 20.0]
    assert info.element(0)["LoopCount"] == float("inf")
    assert char_text(info.element(0)["Format"]) == "GIF"
    for k in range(3):
        frame = info.element(k)
        assert char_text(frame["ColorType"]) == "indexed"
        table = np.round(frame["ColorTable"] * 255)
        assert [50.0 * (k + 1), 0, 0] in table.tolist() and [50.0 * (k + 1), 200, 0] in table.tolist()
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".part")]


def test_gif_frames_all_and_frame_index(m):
    a, cmap, second = m.values(ANIMATION + "[a, map] = imread('anim.gif', 'Frames', 'all');"
                               " b = imread('anim.gif', 2);", "a", "map", "b")
    assert a.shape == (4, 5, 1, 3) and a.dtype == np.uint8
    colours = np.round(cmap * 255)
    for k in range(3):
        frame = colours[a[:, :, 0, k]]
        assert frame[0, 0].tolist() == [50.0 * (k + 1), 0, 0]
        assert frame[1, k].tolist() == [50.0 * (k + 1), 200, 0]
    assert second.shape == (4, 5)
    np.testing.assert_array_equal(second, a[:, :, 0, 1])


def test_gif_multiframe_array_and_grayscale(m):
    a = m.value("X = uint8(zeros(2, 3, 1, 2)); X(:,:,1,2) = 1; imwrite(X, [0 0 0; 1 1 1], 'm.gif');"
                " x = imread('m.gif', 'Frames', 'all');")
    assert a.shape == (2, 3, 1, 2)
    assert a[:, :, 0, 0].max() == 0 and a[:, :, 0, 1].min() == 1
    g = m.value(GRAY + " imwrite(A, 'g.gif'); x = imread('g.gif');")
    np.testing.assert_array_equal(g, np.arange(12).reshape(4, 3).T * 20)


def test_gif_errors(m):
    assert m.fails("imwrite(rand(3, 3, 3), 'x.gif');").identifier == "MATLAB:imagesci:writegif:badSize"
    assert m.fails("imwrite(uint16(ones(3)), 'x.gif');").identifier == \
        "MATLAB:imagesci:imwrite:unsupported16bit"
    m.run("imwrite(uint8(ones(3)), 'x.gif');")
    # A file-wide option while appending is a warning in MATLAB's writegif, and is ignored.
    m.run("imwrite(uint8(ones(3)), 'x.gif', 'WriteMode', 'append', 'LoopCount', 2);")
    assert m.interp.lastwarn[1] == "MATLAB:imagesci:writegif:badParameterInAppendMode"
    assert m.value("n = numel(imfinfo('x.gif'));", "n") == 2
    assert m.fails("imwrite(uint8(ones(4)), 'x.gif', 'WriteMode', 'append');").identifier == \
        "MATLAB:imagesci:writegif:frameSize"
    assert m.fails("imwrite(uint8(ones(3)), 'x.gif', 'DelayTime', -1);").identifier == \
        "MATLAB:imagesci:writegif:badDelayTime"
    assert m.fails("x = imread('x.gif', 5);").identifier == "MATLAB:imagesci:imread:badImageIndex"


# --------------------------------------------------------------------- imfinfo


def test_imfinfo_fields(m, tmp_path):
    info = m.value(RGB + " imwrite(R, 'c.png'); x = imfinfo('c.png');")
    d = info.element(0)
    assert list(d)[:9] == ["Filename", "FileModDate", "FileSize", "Format", "FormatVersion", "Width",
                           "Height", "BitDepth", "ColorType"]
    assert char_text(d["Filename"]) == str(tmp_path / "c.png")
    assert d["FileSize"] == float(os.path.getsize(tmp_path / "c.png"))
    assert (char_text(d["Format"]), d["Width"], d["Height"], d["BitDepth"]) == ("png", 4.0, 3.0, 24.0)
    assert char_text(d["ColorType"]) == "truecolor"
    assert char_text(d["Transparency"]) == "none"
    assert len(char_text(d["FileModDate"])) == 20  # dd-Mmm-yyyy HH:MM:SS
    gray = m.value(GRAY + " imwrite(A, 'g.jpg'); x = imfinfo('g.jpg');").element(0)
    assert char_text(gray["Format"]) == "jpg" and char_text(gray["ColorType"]) == "grayscale"
    assert gray["BitDepth"] == 8.0 and gray["NumberOfSamples"] == 1.0
    indexed = m.value("imwrite([1 2], [0 0 0; 1 1 1], 'i.png'); x = imfinfo('i.png');").element(0)
    assert char_text(indexed["ColorType"]) == "indexed"
    np.testing.assert_array_equal(indexed["Colormap"], [[0, 0, 0], [1, 1, 1]])


# ---------------------------------------------------------------------- errors


def test_missing_file(m):
    e = m.fails("x = imread('nope.png');")
    assert e.identifier == "MATLAB:imagesci:imread:fileDoesNotExist"
    assert e.exc.message == 'File "nope.png" does not exist.'
    e = m.fails("x = imfinfo('nope.png');")
    assert e.identifier == "MATLAB:imagesci:imfinfo:fileOpen"
    assert e.exc.message == 'Unable to open file "nope.png" for reading.'


def test_folder_and_unreadable_file(m, tmp_path):
    (tmp_path / "folder.png").mkdir()
    assert m.fails("x = imread('folder.png');").identifier == "MATLAB:imagesci:imread:fileReadPermission"
    locked = tmp_path / "locked.png"
    Image.new("L", (1, 1)).save(locked)
    locked.chmod(0)
    try:
        if not os.access(locked, os.R_OK):  # root reads anything
            assert m.fails("x = imread('locked.png');").identifier == \
                "MATLAB:imagesci:imread:fileReadPermission"
    finally:
        locked.chmod(0o644)


def test_not_an_image_and_corrupt_data(m, tmp_path):
    (tmp_path / "text.png").write_text("not an image")
    e = m.fails("x = imread('text.png');")
    assert e.identifier == "MATLAB:imagesci:imread:fileFormat"
    assert e.exc.message == "Unable to determine the file format."
    assert m.fails("x = imfinfo('text.png');").identifier == "MATLAB:imagesci:imfinfo:whatFormat"
    Image.new("RGB", (40, 40), (9, 9, 9)).save(tmp_path / "whole.png")
    (tmp_path / "cut.png").write_bytes((tmp_path / "whole.png").read_bytes()[:60])
    assert m.fails("x = imread('cut.png');").identifier == "MATLAB:imagesci:png:libraryFailure"


def test_bad_imwrite_arguments(m):
    e = m.fails("imwrite({1}, 'x.png');")
    assert e.identifier == "MATLAB:invalidType"
    assert e.exc.message.endswith("Instead its type was cell.")
    assert m.fails("imwrite('abc', 'x.png');").identifier == "MATLAB:invalidType"
    assert m.fails("imwrite([], 'x.png');").identifier == "MATLAB:expectedNonempty"
    assert m.fails("imwrite(rand(3), 'x.xyz');").identifier == "MATLAB:imagesci:imwrite:fileFormat"
    assert m.fails("imwrite(rand(3), 'noextension');").identifier == "MATLAB:imagesci:imwrite:fileFormat"
    assert m.fails("imwrite(rand(3), 'x.png', 'Quality', 5);").identifier == \
        "MATLAB:imagesci:imwrite:unknownParam"
    assert m.fails("imwrite(rand(3), 'x.jpg', 'Quality', 500);").identifier == \
        "MATLAB:imagesci:writejpg:badQuality"
    assert m.fails("imwrite(rand(3, 3, 5), 'x.png');").identifier == "MATLAB:imagesci:imwrite:invalidImageSize"
    assert m.fails("imwrite(int32(ones(3)), 'x.png');").identifier == \
        "MATLAB:imagesci:imwrite:unsupportedDataType"
    assert m.fails("imwrite(ones(2), [0 0 0 0], 'x.png');").identifier == \
        "MATLAB:imagesci:imwrite:invalidColormap"
    assert m.fails("imwrite(ones(2) * 300, zeros(256, 3), 'x.png');").identifier == \
        "MATLAB:imagesci:imwrite:tooManyColors"
    assert m.fails("imwrite(rand(3), 'missing_folder/x.png');").identifier == \
        "MATLAB:imagesci:imwrite:filePathNotFound"
    assert m.fails("x = imread(3);").identifier == "MATLAB:invalidInput"


def test_failed_write_leaves_the_old_file(m, tmp_path, monkeypatch):
    m.run(GRAY + " imwrite(A, 'keep.png'); imwrite(A, 'keep.gif');")
    before = (tmp_path / "keep.png").read_bytes()
    before_gif = (tmp_path / "keep.gif").read_bytes()

    def broken_save(self, fp, *args, **kwargs):
        with open(fp, "wb") as f:
            f.write(b"half")
        raise OSError("disk full")

    with monkeypatch.context() as patch:
        patch.setattr(Image.Image, "save", broken_save)
        assert m.fails("imwrite(rand(3), 'keep.png');").identifier == "MATLAB:imagesci:imwrite:fileOpen"

    def broken_sync(fd):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:  # files written by mlang itself: GIF, 16-bit colour PNG
        patch.setattr(os, "fsync", broken_sync)
        assert m.fails("imwrite(uint8(ones(3, 4)), 'keep.gif', 'WriteMode', 'append');").identifier == \
            "MATLAB:imagesci:imwrite:fileOpen"
        assert m.fails("imwrite(uint16(ones(3, 4, 3)), 'keep.png');").identifier == \
            "MATLAB:imagesci:imwrite:fileOpen"
    assert (tmp_path / "keep.png").read_bytes() == before
    assert (tmp_path / "keep.gif").read_bytes() == before_gif
    assert sorted(os.listdir(tmp_path)) == ["keep.gif", "keep.png"]


def test_identical_frames_stay_separate_frames(m):
    count, delays = m.values("X = uint8(ones(3, 4)); imwrite(X, [0 0 0; 1 1 1], 'same.gif', 'DelayTime', 0.5);"
                             " for k = 1:3, imwrite(X, [0 0 0; 1 1 1], 'same.gif', 'WriteMode', 'append',"
                             " 'DelayTime', 0.25); end; i = imfinfo('same.gif'); n = numel(i);"
                             " d = [i.DelayTime];", "n", "d")
    assert count == 4.0
    np.testing.assert_array_equal(delays, [[50, 25, 25, 25]])


def test_append_to_a_file_that_is_not_a_gif(m, tmp_path):
    (tmp_path / "fake.gif").write_text("plain text")
    assert m.fails("imwrite(uint8(ones(2)), 'fake.gif', 'WriteMode', 'append');").identifier == \
        "MATLAB:imagesci:writegif:notGIF"
    assert (tmp_path / "fake.gif").read_text() == "plain text"


# --------------------------------------------------------------------- options


def test_png_options(m, tmp_path):
    m.run("imwrite([1 2; 2 1], [0 0 0; 1 1 1], 'tr.png', 'Transparency', [0 1]);"
          " imwrite(rand(3, 3, 3), 'res.png', 'XResolution', 3780, 'ResolutionUnit', 'meter',"
          " 'Title', 'pixels');")
    info = m.value("x = imfinfo('tr.png');").element(0)
    assert char_text(info["Transparency"]) == "simple"
    res = m.value("x = imfinfo('res.png');").element(0)
    assert res["XResolution"] == 3780.0 and char_text(res["ResolutionUnit"]) == "meter"
    with Image.open(tmp_path / "res.png") as img:
        assert img.info["Title"] == "pixels"


def test_background_colour_composites_the_alpha(m):
    x, alpha = m.values("imwrite(zeros(2, 2, 3), 'bg.png', 'Alpha', [0 1; 0.5 0]);"
                        " [x, ~, al] = imread('bg.png', 'BackgroundColor', [1 0 0]);", "x", "al")
    assert x[0, 0].tolist() == [255, 0, 0] and x[0, 1].tolist() == [0, 0, 0]
    assert x[1, 0].tolist() == [127, 0, 0]  # alpha 128/255 of black over red
    assert alpha.shape == (0, 0)


def test_gif_transparent_colour_is_one_based_for_double_indices(m, tmp_path):
    m.run("imwrite([1 2; 3 2], [0 0 0; 1 0 0; 0 1 0], 't.gif', 'TransparentColor', 2, 'Comment', 'hi');")
    with Image.open(tmp_path / "t.gif") as img:
        assert img.info["transparency"] == 1 and img.info["comment"] == b"hi"


def test_auto_orient_turns_a_jpeg(m, tmp_path):
    img = Image.new("RGB", (4, 2), (200, 10, 10))
    exif = img.getexif()
    exif[0x0112] = 6  # rotated 90 degrees
    img.save(tmp_path / "turned.jpg", exif=exif)
    assert m.value("x = size(imread('turned.jpg'));").tolist() == [[2.0, 4.0, 3.0]]
    assert m.value("x = size(imread('turned.jpg', 'AutoOrient', true));").tolist() == [[4.0, 2.0, 3.0]]


def test_larger_gif_frames_round_trip_exactly(m):
    same, same_map, second, loop = m.values(
        "rng(1); R = uint8(rand(40, 50, 3) * 255); [x, map] = rgb2ind(R, 64, 'nodither');"
        " imwrite(x, map, 'big.gif', 'LoopCount', 3); [y, m2] = imread('big.gif');"
        " s = isequal(x, y); sm = isequal(m2(1:size(map, 1), :), map);"
        " imwrite(x, map, 'big.gif', 'WriteMode', 'append'); [z, m3] = imread('big.gif', 2);"
        " t = isequal(ind2rgb(z, m3), ind2rgb(x, map)); i = imfinfo('big.gif'); n = i(1).LoopCount;",
        "s", "sm", "t", "n")
    assert same is True and same_map is True and second is True and loop == 3.0


def test_bad_option_values(m):
    m.run("imwrite(uint8(ones(4, 5, 3)), 'r.png', 'Alpha', ones(4, 5));")
    assert m.fails("imwrite(rand(3), 'o.png', 'Alpha', 1+2i);").identifier == "MATLAB:imagesci:imwrite:badAlpha"
    assert m.fails("imwrite(rand(3), 'o.png', 'Alpha', ones(2));").identifier == \
        "MATLAB:imagesci:imwrite:badAlphaSize"
    assert m.fails("imwrite(rand(3), 'o.png', 'BitDepth', 3);").identifier == \
        "MATLAB:imagesci:imwrite:invalidBitDepth"
    assert m.fails("imwrite(rand(3), 'o.jpg', 'Quality', []);").identifier == \
        "MATLAB:imagesci:imwrite:badOptionValue"
    assert m.fails("imwrite(rand(3), 'o.gif', 'LoopCount', 1e6);").identifier == \
        "MATLAB:imagesci:writegif:badLoopCount"
    assert m.fails("imwrite(rand(3), 'o.tif', 'Compression', 'zip');").identifier == \
        "MATLAB:imagesci:writetif:badCompression"
    assert m.fails("imwrite(rand(3), 'o.tif', 'Compression', 'ccitt');").identifier == \
        "MATLAB:imagesci:writetif:badCompressionForData"
    assert m.fails("x = imread('r.png', 'PixelRegion', {[1 2+1i], [1 2]});").identifier == \
        "MATLAB:imagesci:imread:badPixelRegion"
    assert m.fails("x = imread('r.png', 'BackgroundColor', [1 2]);").identifier == \
        "MATLAB:imagesci:imread:badBackgroundColor"
    assert m.fails("x = imread('r.png', 'Frames', 0);").identifier == "MATLAB:imagesci:imread:badImageIndex"
    assert m.fails("x = imread('r.png', 'Colour', 1);").identifier == "MATLAB:imagesci:imread:unknownParam"
