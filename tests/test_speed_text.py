"""Long char rows searched, case-mapped and replaced a block at a time give what the
general paths give.

strfind, upper, lower and strrep of a long row work on blocks of SEARCH_BLOCK
characters (``builtins.text.long_text``); the blocks are made small here so that
occurrences fall across their cuts.  Every answer is compared with Python's own text
methods on the same text, and its class, size and values with the general path's.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from mlang.builtins.text import long_text
from mlang.builtins.text.search import strfind
from mlang.builtins.text.transform import lower, strrep, upper
from mlang.values.core import CHAR, char_row, char_text
from tests.builtins.text.test_text_fast_paths import _overlapping_starts

LONG = long_text.VECTOR_SEARCH_FROM + 123


def _row(text: str) -> np.ndarray:
    return char_row(text)


def _texts(seed: int, alphabet: str, count: int = 6) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(LONG + rng.randint(0, 300))) for _ in range(count)]


@pytest.fixture(params=[1 << 16, 7, 64, 1000])
def block(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(long_text, "SEARCH_BLOCK", request.param)
    return request.param


@pytest.mark.parametrize("pattern", ["a", "ab", "aa", "aba", "abcab", "bbbb", "c", "abcabcab", "é", "zz"])
def test_strfind_of_a_long_row_finds_every_occurrence(block, pattern):
    for text in _texts(len(pattern), "abc" + ("é" if "é" in pattern else "")):
        got = strfind(_row(text), _row(pattern))
        expected = _overlapping_starts(text, pattern)
        if len(expected) == 1:
            assert type(got) is float and got == expected[0]
        elif expected:
            assert type(got) is np.ndarray and got.shape == (1, len(expected)) and got.dtype == np.float64
            assert got.tolist() == [expected]
        else:
            assert type(got) is np.ndarray and got.shape == (1, 0)


def test_strfind_of_a_long_row_with_one_occurrence_gives_a_double():
    text = "x" * LONG + "abc"
    assert strfind(_row(text), _row("abc")) == LONG + 1.0
    assert strfind(_row(text), _row("b"), _row("ForceCellOutput"), True).data[0, 0] == LONG + 2.0


def test_find_codes_matches_the_whole_row_comparison(block):
    rng = np.random.default_rng(5)
    codes = rng.integers(97, 100, size=LONG).astype(np.uint16)
    for m in range(1, 7):
        pattern = codes[100:100 + m].copy()
        hits = np.ones(codes.size - m + 1, dtype=bool)
        for j in range(m):
            hits &= codes[j:codes.size - m + 1 + j] == pattern[j]
        assert np.array_equal(long_text.find_codes(codes, pattern), np.flatnonzero(hits))
    assert long_text.find_codes(codes[:2], codes[:3]).size == 0


def _same_chars(got: object, expected: str, shape: tuple[int, ...]) -> None:
    assert type(got) is np.ndarray and got.dtype == CHAR and got.shape == shape
    assert char_text(got) == expected


@pytest.mark.parametrize("convert", [upper, lower])
def test_case_of_long_ascii_rows_and_matrices(block, convert):
    python = str.upper if convert is upper else str.lower
    printable = "".join(chr(c) for c in range(128))
    for text in _texts(3, printable, 3) + _texts(4, "aZ@[`{", 2):
        _same_chars(convert(_row(text)), python(text), (1, len(text)))
    matrix = np.ascontiguousarray(_row("aBz{Q`@" * 1200).reshape(7, 1200, order="F"))
    got = convert(matrix)
    assert got.shape == matrix.shape and got.dtype == CHAR
    expected = python(char_text(matrix))  # (column-major text of both)
    assert char_text(got) == expected


@pytest.mark.parametrize("convert", [upper, lower])
def test_case_of_long_rows_beyond_ascii_takes_the_general_path(convert):
    python = str.upper if convert is upper else str.lower
    for extra in ["é", "ß", "ÿ", "µ", "Σ", "İ", "\U0001d400"]:
        text = "aBc" * (LONG // 3) + extra + "xY ΣΣ a"
        got = convert(_row(text))
        expected = "".join(c2 if len(c2 := python(c)) == 1 else c for c in text) \
            if len(python(text)) != len(text) else python(text)
        assert char_text(got) == expected
    strided = _row("aBc" * LONG)[:, ::2]  # not contiguous: the general path
    assert char_text(convert(strided)) == python(("aBc" * LONG)[::2])
    assert convert(np.zeros((1, 0), dtype=CHAR)).shape == (1, 0)


@pytest.mark.parametrize(("old", "new"), [("def", "XY"), ("ab", ""), ("abc", "Z"), ("a", ""),
                                          ("bca", "b"), ("abcd", "xyz"), ("ca", "é"), ("def", "XYZW"),
                                          ("ab", "xyz"), ("a", "xy"), ("cd", "cdcd"), ("b", "xyz"),
                                          ("abc", "abcabcab")])
def test_strrep_of_long_rows_in_blocks(block, old, new):
    for text in _texts(len(old) + len(new), "abcdef") + ["def" * (LONG // 3), old * LONG, "x" * LONG]:
        _same_chars(strrep(_row(text), _row(old), _row(new)), text.replace(old, new),
                    (1, len(text.replace(old, new))) if text.replace(old, new) else (1, 0))


def test_strrep_of_long_rows_beyond_one_byte_and_of_longer_replacements(block):
    text = "abcdef" * (LONG // 6) + "ā" + "abc"
    _same_chars(strrep(_row(text), _row("bc"), _row("x")), text.replace("bc", "x"),
                (1, len(text.replace("bc", "x"))))
    plain = "abcdef" * (LONG // 6)
    _same_chars(strrep(_row(plain), _row("bc"), _row("xyz")), plain.replace("bc", "xyz"),
                (1, len(plain.replace("bc", "xyz"))))
    _same_chars(strrep(_row(plain), _row("bc"), _row("ā")), plain.replace("bc", "ā"),
                (1, len(plain.replace("bc", "ā"))))


def test_a_shortened_result_owns_its_memory_and_can_be_written():
    text = "abcdef" * (LONG // 6)
    got = strrep(_row(text), _row("cd"), _row("Q"))
    assert got.base is None and got.flags.writeable and got.flags.c_contiguous
    got.view(np.uint16)[0, 0] = ord("z")
    assert char_text(got) == "z" + text.replace("cd", "Q")[1:]
    positions = long_text.find_positions(_row(text).view(np.uint16).reshape(-1), np.array([97], np.uint16))
    assert positions.base is None and positions.tolist() == [k + 1.0 for k in range(0, len(text), 6)]


def test_results_without_room_for_the_longest_answer(monkeypatch):
    real_empty = np.empty

    def refused(shape, dtype=float, **kwargs):  # results (doubles, chars) refused, not buffers
        if np.dtype(dtype) in (np.dtype(float), CHAR):
            raise MemoryError
        return real_empty(shape, dtype, **kwargs)

    text = "abcdef" * (LONG // 6)
    row = _row(text)
    codes = row.view(np.uint16).reshape(-1)
    monkeypatch.setattr(long_text.np, "empty", refused)
    assert long_text.find_positions(codes, np.array([98], np.uint16)).tolist() == [
        k + 2.0 for k in range(0, len(text), 6)]
    assert long_text.replace_in_blocks(row, b"cd", b"Q") is None


def test_numpy_asks_for_no_huge_pages_while_code_runs():
    import io

    from mlang.evaluation import interpreter as module

    previous = module._ask_for_huge_pages(True)
    try:
        interp = module.Interpreter(stdout=io.StringIO())
        seen = []
        with interp.running():
            seen.append(module._ask_for_huge_pages(False))
            with interp.running():  # (nested runs, as eval inside code)
                seen.append(module._ask_for_huge_pages(False))
            seen.append(module._ask_for_huge_pages(False))
        assert seen == [False, False, False]
        assert module._ask_for_huge_pages(True) is True  # as it was before the run
    finally:
        module._ask_for_huge_pages(previous)
