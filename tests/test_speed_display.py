"""Double scalars are displayed through their own short path: exactly the lines the array
path gives a 1x1 double, in every format and for every kind of number."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlang import display
from mlang.display import Style
from mlang.display import numbers as display_numbers

NUMBERS = [0.0, -0.0, 1.0, -1.0, 3.5, -3.5, 999.0, 1000.0, 123456.0, 1e9 - 1, 1e9, 1e10, 0.001, 0.0011,
           1e-5, -1e-5, 999.9999, 1000.5, 99.99995, 100.5, math.pi, -math.pi * 1e6, 1e300, 5e-324,
           2.0 ** 53, 2.0 ** 53 + 2, math.nan, math.inf, -math.inf, 0.1 + 0.2, 12345.678, 1 / 3]
FORMATS = ["short", "long", "shortE", "longE", "shortG", "longG", "shortEng", "longEng", "hex", "+",
           "bank", "rat"]


@pytest.mark.parametrize("x", NUMBERS)
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("compact", [False, True])
def test_double_scalar_lines_as_a_1x1_array(x: float, fmt: str, compact: bool) -> None:
    style = Style(fmt, compact, 80)
    as_array = np.array([[x]])
    assert display.disp_lines(x, style) == display.disp_lines(as_array, style)
    assert display.display_lines("x", x, style) == display.display_lines("x", as_array, style)


def test_the_short_path_is_taken_for_plain_formats() -> None:
    assert display._double_scalar_lines(3.5, Style("short", False, 80)) == ["    3.5000"]
    assert display._double_scalar_lines(3.5, Style("hex", False, 80)) is None


ARRAYS = [np.array([[1.0, 2.5, -3.0]]), np.array([[1.0, 2.0], [3.0, 1e5]]), np.array([[np.nan, np.inf, 2.0]]),
          np.array([[1e-4, 5.0, 7.0]]), np.array([[-0.0, 0.0]]), np.array([[1e10, 1.0]]),
          np.array([[np.nan, np.nan]]), np.arange(32.0).reshape(4, 8) / 7, np.array([[2.0 ** 60, 3.0]]),
          np.array([[1.5, 2.5]], dtype=np.float32)]


@pytest.mark.parametrize("index", range(len(ARRAYS)))
@pytest.mark.parametrize("fmt", FORMATS)
def test_short_arrays_format_as_long_ones(monkeypatch: pytest.MonkeyPatch, index: int, fmt: str) -> None:
    # the same numbers looked at with NumPy (no array counts as short) give the same lines
    style = Style(fmt, False, 80)
    a = ARRAYS[index]
    monkeypatch.setattr(display, "_short_real_lines", lambda a, single, style: None)  # (the lists' other path)
    quick = display.disp_lines(a, style)
    monkeypatch.setattr(display_numbers, "_FEW", -1)
    assert quick == display.disp_lines(a, style)
