"""load decodes MATLAB string arrays: a v5 MAT-file built here in MATLAB's layout (an
opaque MCOS object referring to the subsystem data holding the strings)."""

from __future__ import annotations

import struct

import numpy as np
import pytest

MI_INT8, MI_UINT8, MI_INT32, MI_UINT32, MI_UINT64, MI_MATRIX = 1, 2, 5, 6, 13, 14
MX_CELL, MX_STRUCT, MX_OPAQUE, MX_DOUBLE, MX_INT32, MX_UINT8, MX_UINT32, MX_UINT64 = 1, 2, 17, 6, 12, 9, 13, 15


def element(mdtype: int, payload: bytes) -> bytes:
    return struct.pack("<II", mdtype, len(payload)) + payload + b"\0" * (-len(payload) % 8)


def matrix(*parts: bytes) -> bytes:
    return element(MI_MATRIX, b"".join(parts))


def flags(mclass: int) -> bytes:
    return element(MI_UINT32, struct.pack("<II", mclass, 0))


def dims(shape: tuple[int, ...]) -> bytes:
    return element(MI_INT32, struct.pack(f"<{len(shape)}i", *shape))


def numeric(mclass: int, mdtype: int, values: np.ndarray, name: bytes = b"") -> bytes:
    return matrix(flags(mclass), dims(values.shape), element(MI_INT8, name),
                  element(mdtype, values.tobytes(order="F")))


def column_cell(items: list[bytes]) -> bytes:
    return matrix(flags(MX_CELL), dims((len(items), 1)), element(MI_INT8, b""), *items)


def opaque(name: bytes, cls: bytes, arr: bytes) -> bytes:
    return matrix(flags(MX_OPAQUE), element(MI_INT8, name), element(MI_INT8, b"MCOS"),
                  element(MI_INT8, cls), arr)


def u32(*values: int) -> bytes:
    return struct.pack(f"<{len(values)}I", *values)


def string_words(texts: list[str | None], shape: tuple[int, int]) -> np.ndarray:
    units = b"".join((t or "").encode("utf-16-le", "surrogatepass") for t in texts)
    units += b"\0" * (-len(units) % 8)
    lengths = [0xFFFFFFFFFFFFFFFF if t is None else len(t.encode("utf-16-le", "surrogatepass")) // 2
               for t in texts]
    words = [1, 2, *shape, *lengths, *np.frombuffer(units, "<u8").tolist()]
    return np.array(words, dtype=np.uint64).reshape(-1, 1)


def subsystem(words: np.ndarray) -> bytes:
    names = b"any\0string\0"
    names += b"\0" * (-len(names) % 8)
    region1 = u32(0, 0, 0, 0, 0, 2, 0, 0)
    region2 = u32(0, 0) + u32(1, 1, 1, 0)
    region3 = u32(0, 0, 0, 0, 0, 0) + u32(1, 0, 0, 1, 0, 1)
    region4 = u32(0, 0)
    region5 = u32(0, 0)
    start = 40 + len(names)
    offsets = [start]
    for region in (region1, region2, region3, region4, region5):
        offsets.append(offsets[-1] + len(region))
    offsets += [offsets[-1]] * (8 - len(offsets))
    metadata = u32(4, 2, *offsets) + names + region1 + region2 + region3 + region4 + region5
    cells = [numeric(MX_UINT8, MI_UINT8, np.frombuffer(metadata, np.uint8).reshape(-1, 1)),
             numeric(MX_DOUBLE, MI_UINT8, np.zeros((0, 0), np.uint8)),
             numeric(MX_UINT64, MI_UINT64, words),
             column_cell([]), numeric(MX_INT32, MI_INT32, np.zeros((2, 1), np.int32)), column_cell([])]
    wrapper = opaque(b"", b"FileWrapper__", column_cell(cells))
    mcos = matrix(flags(MX_STRUCT), dims((1, 1)), element(MI_INT8, b""),
                  element(MI_INT32, struct.pack("<i", 32)), element(MI_INT8, b"MCOS".ljust(32, b"\0")), wrapper)
    return b"\x00\x01IM\0\0\0\0" + mcos


def string_file(texts: list[str | None], shape: tuple[int, int]) -> bytes:
    variable = opaque(b"s", b"string", numeric(MX_UINT32, MI_UINT32,
                                                np.array([[0xDD000000], [2], [1], [1], [1], [1]], np.uint32)))
    extra = numeric(MX_DOUBLE, MI_UINT8, np.array([[7]], np.uint8), b"n")
    offset = 128 + len(variable) + len(extra)
    system = numeric(MX_UINT8, MI_UINT8, np.frombuffer(subsystem(string_words(texts, shape)), np.uint8)
                     .reshape(1, -1))
    header = b"MATLAB 5.0 MAT-file, Platform: GLNXA64".ljust(116, b" ") + struct.pack("<Q", offset) + b"\x00\x01IM"
    return header + variable + extra + system


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_string_array_is_decoded(m, here):
    (here / "s.mat").write_bytes(string_file(["ab", "é😀", None], (1, 3)))
    m.run("load s.mat")
    s = m.interp.base.vars["s"]
    assert type(s).__name__ == "StringArray"
    assert s.shape == (1, 3)
    assert s.data.tolist() == [["ab", "é😀", None]]
    assert m.interp.base.vars["n"] == 7.0
    assert m.err.getvalue() == ""


def test_string_matrix_and_selected_variable(m, here):
    (here / "s.mat").write_bytes(string_file(["a", "b", "c", "d"], (2, 2)))
    m.run("S = load('s.mat', 's'); x = S.s(1, 2);")
    assert m.interp.base.vars["x"].data.tolist() == [["c"]]


def test_undecodable_object_is_skipped_with_a_warning(m, here):
    data = bytearray(string_file(["ab"], (1, 1)))
    data[116:124] = b"\0" * 8  # no subsystem offset: MATLAB's data is still there, but say the
    (here / "s.mat").write_bytes(bytes(data).replace(b"string", b"strinG", 1))
    m.run("x = 1; load s.mat")
    assert "s" not in m.interp.base.vars
    assert m.interp.lastwarn[1] == "MATLAB:load:cannotLoadClass"


def test_string_array_in_a_v73_file(m, here):
    h5py = pytest.importorskip("h5py")
    from tests.builtins.files.test_mat_foreign import _attrs

    words = string_words(["xy", None], (2, 1))
    # the same subsystem metadata as the version 5 file, as MATLAB stores it in HDF5
    system = subsystem(words)
    metadata_start = system.index(b"\x04\x00\x00\x00\x02\x00\x00\x00")
    metadata = np.frombuffer(system[metadata_start:metadata_start + 176], np.uint8)
    with h5py.File(here / "s.mat", "w", userblock_size=512) as f:
        refs = f.create_group("#refs#")
        parts = [metadata.reshape(1, -1), np.zeros((2,), np.uint64), words.T]
        wrapper = np.empty((len(parts), 1), dtype=h5py.ref_dtype)
        for k, part in enumerate(parts):
            wrapper[k, 0] = refs.create_dataset(f"p{k}", data=part).ref
        sub = f.create_group("#subsystem#")
        _attrs(sub.create_dataset("MCOS", data=wrapper.T), "FileWrapper__")
        _attrs(f.create_dataset("s", data=np.array([[0xDD000000, 2, 1, 1, 1, 1]], np.uint32)), "string",
               MATLAB_object_decode=np.int32(3))
    m.run("load s.mat")
    s = m.interp.base.vars["s"]
    assert s.shape == (2, 1) and s.data.tolist() == [["xy"], [None]]


def test_append_keeps_strings_readable(m, here):
    (here / "s.mat").write_bytes(string_file(["keep", "me"], (1, 2)))
    m.run("y = 3; save('s.mat', 'y', '-append'); clear; load s.mat")
    v = m.interp.base.vars
    assert v["s"].data.tolist() == [["keep", "me"]] and v["y"] == 3.0 and v["n"] == 7.0
    m.run("n = 8; save('s.mat', 'n', '-append'); clear; load s.mat")
    assert m.interp.base.vars["n"] == 8.0 and m.interp.base.vars["s"].shape == (1, 2)
