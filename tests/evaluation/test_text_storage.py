"""How char arrays are stored: UTF-16 code units, two bytes a character, as in MATLAB."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.builtins.text.search import _find_all_codes, find_all
from mlang.values.core import CHAR, char_codes, char_matrix, char_row, char_rows, char_text, class_of
from tests.running import run


def test_a_char_takes_two_bytes() -> None:
    interp, out = run("s = repmat('ab', 1, 5e5); w = whos('s'); disp(w.bytes)")
    s = interp.base.vars["s"]
    assert s.dtype == CHAR and s.nbytes == 2_000_000
    assert out.strip() == "2000000"


def test_char_stays_apart_from_uint16() -> None:
    interp, out = run("u = uint16([97 98]); c = char(u); c(1) = 'z'; disp(u); disp(class(c)); "
                      "d = uint16(c); d(2) = 1; disp(c)")
    assert out == "   97   98\n\nchar\nzb\n"
    assert class_of(interp.base.vars["d"]) == "uint16"


def test_codes_read_from_a_char_are_copies() -> None:
    _, out = run("x = 'abc'; y = double(x); y(1) = 0; z = x + 0; z(2) = 0; disp(x)")
    assert out == "abc\n"


def test_characters_beyond_the_basic_plane_take_two_code_units() -> None:
    interp, out = run("s = 'a😀'; disp(size(s)); disp(double(s)); disp(s)")
    assert out == "     1     3\n\n          97       55357       56832\n\na😀\n"
    assert char_text(interp.base.vars["s"]) == interp.get("s") == "a😀"


def test_growing_a_char_array_fills_with_char_zero() -> None:
    _, out = run("s = 'abc'; s(5) = 'e'; disp(double(s)); t = strtrim([char(0) ' x ' char(0)]); disp(size(t))")
    assert out == "    97    98    99     0   101\n\n     1     1\n\n"


def test_conversions_saturate_to_the_char_range() -> None:
    _, out = run("disp(double(char([-5 65 70000])))")
    assert out == "           0          65       65535\n\n"


def test_text_helpers_round_trip() -> None:
    m = char_matrix(["ab", "c", ""])
    assert m.shape == (3, 2) and char_rows(m) == ["ab", "c ", "  "]
    assert char_text(m) == "ac b  "  # column-major, as MATLAB's m(:)'
    assert char_text(char_row("héllo")) == "héllo"
    assert char_row("").shape == (0, 0) and char_matrix([]).shape == (0, 0)
    assert char_codes(char_row("AZ")).tolist() == [[65, 90]]
    assert char_row("x").flags.writeable and char_matrix(["x"]).flags.writeable


def test_case_conversion_keeps_one_character_per_element() -> None:
    _, out = run("disp(upper('straße')); disp(lower(['AB'; 'CD']))")
    assert out == "STRAßE\nab\ncd\n"


@pytest.mark.parametrize("pattern", ["a", "aa", "aba", "xyz", "b"])
def test_long_text_search_agrees_with_the_character_loop(pattern: str) -> None:
    rng = np.random.default_rng(7)
    text = "".join(rng.choice(list("abx"), size=6000))
    fast = _find_all_codes(text, pattern)
    slow, k = [], text.find(pattern)
    while k >= 0:
        slow.append(k)
        k = text.find(pattern, k + 1)
    assert fast is not None and fast.tolist() == slow == find_all(text, pattern).tolist()
    assert _find_all_codes("😀" + text, pattern) is None  # positions would differ


def test_strrep_replaces_overlapping_occurrences_in_long_text() -> None:
    _, out = run("s = strrep(repmat('aaa', 1, 2000), 'aa', 'b'); disp(numel(s)); "
                 "t = strrep(repmat('abcdef', 1, 2000), 'cd', 'X'); disp(numel(t)); disp(t(1:6))")
    # every one of the 5999 overlapping 'aa' becomes 'b'; 'cd' cannot overlap
    assert out == "        5999\n\n       10000\n\nabXefa\n"


def test_char_matrices_cross_to_python_as_one_character_strings() -> None:
    interp, _ = run("m = ['ab'; 'cd']; s = 'xy';")
    m = interp.get("m")
    assert m.dtype == np.dtype("<U1") and m.tolist() == [["a", "b"], ["c", "d"]]
    assert interp.get("s") == "xy"
    interp.set("back", m)
    interp.set("names", np.array(["xy", "z"]))
    interp.eval("disp(class(back)); disp(back(2, :)); disp(class(names)); disp(names(2))")
    assert char_rows(interp.base.vars["back"]) == ["ab", "cd"]
    assert class_of(interp.base.vars["names"]) == "string"


def test_numbers_of_every_class_joined_to_text_become_clipped_codes() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no cast overflow on the way
        interp, _ = run("x = double([true 'a']); y = double([uint8(200) 'a']); "
                        "z = double([intmax('uint64') 'a']); w = double([int8(-5) 'a']);")
    v = interp.base.vars
    assert [v[n].tolist() for n in "xyzw"] == [[[1.0, 97.0]], [[200.0, 97.0]],
                                               [[65535.0, 97.0]], [[0.0, 97.0]]]
