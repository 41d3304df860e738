"""Short arrays of whole character codes become char directly (``codes_to_char``): the
result must be what the general conversion (rounding, clipping) gives."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.builtins.text.create import codes_to_char
from mlang.values.core import CHAR

from .running import run

CASES = [
    [[65.0]], [[72.0, 105.0]], [[0.0, -0.0, 65535.0]], [[65.5, 66.0]], [[-1.0, 70000.0]],
    [[np.nan, 66.0]], [[np.inf, 1.0]], [[0xD800, 0xDFFF, 0x10FFFF]], [[1.0], [2.0]],
    np.arange(64.0).reshape(8, 8).tolist(), [[1e300, 3.0]], [[2.49999, 97.0]],
]


def _general(a: np.ndarray) -> np.ndarray:
    # more elements than the direct conversion takes: the general path, then the same part
    wide = np.concatenate([a] * 65, axis=1)
    return codes_to_char(wide)[:, :a.shape[1]]


@pytest.mark.parametrize("values", CASES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_short_code_arrays_convert_as_the_general_path_does(values, order):
    a = np.array(values, dtype=np.float64, order=order)
    fast = codes_to_char(a)
    general = _general(a)
    assert fast.dtype == CHAR and fast.shape == a.shape
    np.testing.assert_array_equal(fast.view(np.uint16), general.view(np.uint16))


def test_char_of_numbers_in_matlab():
    _, out = run("disp(char(65)); disp(char([72 105])); disp(double(char([65.5 -3 7e4])));")
    assert out.split() == ["A", "Hi", "66", "0", "65535"]


STRREP_CASES = [("abc", "b", "x"), ("abcb", "b", ""), ("b", "b", ""), ("aaaa", "aa", "x"),
                ("abc", "", "x"), ("", "a", "b"), ("héllo wörld", "ö", "oe"), ("a😀b", "😀", "-"),
                ("abababa", "aba", "X"), ("xyz", "q", "r")]


@pytest.mark.parametrize(("s", "old", "new"), STRREP_CASES)
def test_strrep_of_char_rows_matches_its_string_form(s, old, new):
    from mlang.builtins.text.transform import strrep
    from mlang.values.core import char_row, char_text
    from mlang.values.string import StringArray

    def char_arg(t: str) -> np.ndarray:
        return char_row(t) if t else np.zeros((1, 0), dtype=CHAR)  # a 1x0 row: a char row

    fast = strrep(char_arg(s), char_arg(old), char_arg(new))
    general = strrep(StringArray(np.array([[s]], dtype=object)), char_arg(old), char_arg(new))
    assert fast.dtype == CHAR and fast.ndim == 2 and fast.shape[0] == 1
    assert char_text(fast) == general.data[0, 0]
    if not general.data[0, 0]:
        assert fast.shape == (1, 0)


FIND_CASES = [("abc", "b"), ("abcb", "b"), ("aaaa", "aa"), ("abc", "q"), ("", "a"), ("b", "b"),
              ("héllo", "l"), ("xyxyx", "xyx"), ("ab", "abc")]


@pytest.mark.parametrize(("s", "pat"), FIND_CASES)
def test_strfind_in_a_short_char_row_matches_the_general_path(s, pat):
    from mlang.builtins.text.search import strfind
    from mlang.values.core import char_row
    from mlang.values.string import StringArray

    text = char_row(s) if s else np.zeros((1, 0), dtype=CHAR)
    fast = strfind(text, char_row(pat))
    general = strfind(StringArray(np.array([[s]], dtype=object)), char_row(pat))
    assert type(fast) is type(general)
    if type(general) is np.ndarray:
        assert fast.shape == general.shape and fast.dtype == general.dtype
    np.testing.assert_array_equal(fast, general)
    forced = strfind(text, char_row(pat), char_row("ForceCellOutput"), True)
    np.testing.assert_array_equal(forced.data[0, 0], general)
