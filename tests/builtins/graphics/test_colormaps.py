"""Colormap functions: values against GNU Octave and MATLAB's published tables, shapes,
the default length, the count argument's errors, and colormap_by_name for the core."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from mlang.builtins.graphics import colormaps
from mlang.builtins.graphics.colormaps import (
    COLORMAPS,
    DEFAULT_COLOR_ORDER,
    colormap_by_name,
    is_colormap_name,
)
from mlang.errors import MatlabError

NAMES = ["parula", "turbo", "hsv", "hot", "cool", "spring", "summer", "autumn", "winter", "gray",
         "bone", "copper", "pink", "sky", "jet", "lines", "colorcube", "prism", "flag", "white"]


def test_every_colormap_is_a_builtin(m):
    assert sorted(COLORMAPS) == sorted(NAMES)
    for name in NAMES:
        c = m.value(f"c = {name}(5);", "c")
        assert c.shape == (5, 3) and c.dtype == np.float64, name
        assert c.min() >= 0 and c.max() <= 1, name


@pytest.mark.parametrize("name", NAMES)
def test_default_length_is_256_without_a_figure(m, name):
    assert m.value(f"c = {name};", "c").shape == (256, 3)
    assert m.value(f"c = {name}();", "c").shape == (256, 3)


@pytest.mark.parametrize("name", [n for n in NAMES if n != "hsv"])
def test_zero_and_negative_counts_give_no_rows(m, name):
    assert m.value(f"c = {name}(0);", "c").shape == (0, 3)
    assert m.value(f"c = {name}(-4);", "c").shape == (0, 3)


def test_hsv_of_zero_is_the_empty_matrix(m):
    assert m.value("c = hsv(0);", "c").shape == (0, 0)


# ----------------------------------------------------------- values (Octave agrees)


def test_jet(m):
    assert m.value("c = jet(4);", "c").tolist() == [[0, 0, 1], [0, 1, 1], [1, 1, 0], [1, 0, 0]]
    assert m.value("c = jet(5);", "c").tolist() == [
        [0, 0.5, 1], [0, 1, 1], [0.5, 1, 0.5], [1, 1, 0], [1, 0.5, 0]]
    assert m.value("c = jet(1);", "c").tolist() == [[0, 1, 1]]
    j = m.value("c = jet(64);", "c")
    assert j[0].tolist() == [0, 0, 0.5625] and j[-1].tolist() == [0.5, 0, 0]


def test_gray_and_its_relatives(m):
    assert m.value("c = gray(3);", "c").tolist() == [[0, 0, 0], [0.5, 0.5, 0.5], [1, 1, 1]]
    assert m.value("c = gray(1);", "c").tolist() == [[0, 0, 0]]
    np.testing.assert_allclose(m.value("c = bone(3);", "c"),
                               [[0, 0, 0.125], [0.4375, 0.5625, 0.5625], [1, 1, 1]])
    np.testing.assert_allclose(m.value("c = copper(3);", "c"),
                               [[0, 0, 0], [0.625, 0.3906, 0.24875], [1, 0.7812, 0.4975]])
    np.testing.assert_allclose(m.value("c = pink(3);", "c"),
                               [[np.sqrt(1 / 3), 0, 0], [np.sqrt(2 / 3), np.sqrt(2 / 3), np.sqrt(1 / 3)],
                                [1, 1, 1]])


def test_hot(m):
    assert m.value("c = hot(6);", "c").tolist() == [
        [0.5, 0, 0], [1, 0, 0], [1, 0.5, 0], [1, 1, 0], [1, 1, 0.5], [1, 1, 1]]
    assert m.value("c = hot(1);", "c").tolist() == [[1, 1, 1]]
    assert m.value("c = hot(2);", "c").tolist() == [[1, 1, 0.5], [1, 1, 1]]


def test_linear_maps(m):
    assert m.value("c = cool(3);", "c").tolist() == [[0, 1, 1], [0.5, 0.5, 1], [1, 0, 1]]
    assert m.value("c = spring(2);", "c").tolist() == [[1, 0, 1], [1, 1, 0]]
    assert m.value("c = summer(2);", "c").tolist() == [[0, 0.5, 0.4], [1, 1, 0.4]]
    assert m.value("c = autumn(3);", "c").tolist() == [[1, 0, 0], [1, 0.5, 0], [1, 1, 0]]
    assert m.value("c = winter(3);", "c").tolist() == [[0, 0, 1], [0, 0.5, 0.75], [0, 1, 0.5]]
    assert m.value("c = white(2);", "c").tolist() == [[1, 1, 1], [1, 1, 1]]


def test_hsv(m):
    assert m.value("c = hsv(6);", "c").tolist() == [
        [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 1, 1], [0, 0, 1], [1, 0, 1]]
    np.testing.assert_allclose(m.value("c = hsv(4);", "c"),
                               [[1, 0, 0], [0.5, 1, 0], [0, 1, 1], [0.5, 0, 1]])


def test_repeating_maps(m):
    assert m.value("c = prism(7);", "c").tolist()[5:] == [[2 / 3, 0, 1], [1, 0, 0]]
    assert m.value("c = flag(5);", "c").tolist() == [
        [1, 0, 0], [1, 1, 1], [0, 0, 1], [0, 0, 0], [1, 0, 0]]
    lines = m.value("c = lines(9);", "c")
    np.testing.assert_array_equal(lines[:7], DEFAULT_COLOR_ORDER)
    np.testing.assert_array_equal(lines[7:], DEFAULT_COLOR_ORDER[:2])


def test_colorcube(m):
    c9 = m.value("c = colorcube(9);", "c")
    assert c9.tolist() == [[1, 1, 0], [0, 1, 1], [1, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1],
                           [0, 0, 0], [0.5, 0.5, 0.5], [1, 1, 1]]
    c64 = m.value("c = colorcube(64);", "c")
    assert c64.shape == (64, 3)
    np.testing.assert_allclose(c64[-6:], np.repeat(np.arange(2, 8).reshape(-1, 1) / 7, 3, axis=1))
    assert m.value("c = colorcube(5);", "c").tolist() == m.value("c = gray(5);", "c").tolist()


# ------------------------------------------------------------ the tabulated maps


def test_parula_is_matlabs_table(m):
    p = m.value("c = parula(256);", "c")
    np.testing.assert_allclose(p[0], [0.2422, 0.1504, 0.6603])
    np.testing.assert_allclose(p[1], [0.2444, 0.1534, 0.6728])
    np.testing.assert_allclose(p[-1], [0.9769, 0.9839, 0.0805])
    # parula(64) interpolates the table at 1 + 85/21 k
    p64 = m.value("c = parula(64);", "c")
    np.testing.assert_allclose(p64[1], [0.250390476190476, 0.164995238095238, 0.707614285714286])
    np.testing.assert_allclose(p64[3], [0.264728571428571, 0.197757142857143, 0.795214285714286])
    # one color: linspace(1, 256, 1) is 256, the last row
    np.testing.assert_allclose(m.value("c = parula(1);", "c"), [[0.9769, 0.9839, 0.0805]])
    np.testing.assert_allclose(m.value("c = parula(3);", "c")[1], [0.0704, 0.7457, 0.7258])


def test_turbo_matches_matlab_samples(m):
    t = m.value("c = turbo(10);", "c")
    np.testing.assert_allclose(t[:6], [[0.1900, 0.0718, 0.2322], [0.2737, 0.3835, 0.8449],
                                       [0.2093, 0.6654, 0.9760], [0.1034, 0.8960, 0.7150],
                                       [0.4483, 0.9959, 0.3694], [0.7824, 0.9376, 0.2033]], atol=5e-5)
    np.testing.assert_allclose(m.value("c = turbo(3);", "c"),
                               [[0.18995, 0.07176, 0.23217], [0.638425, 0.99097, 0.236465],
                                [0.4796, 0.01583, 0.01055]])


def test_sky_matches_matlab_samples(m):
    s = m.value("c = sky(256);", "c")
    np.testing.assert_allclose(s[:3], [[0.9, 0.9447, 0.9741], [0.896471, 0.942748, 0.973186],
                                       [0.892941, 0.940796, 0.972272]], atol=5e-7)
    np.testing.assert_allclose(s[-1], [0, 0.447, 0.741])


# --------------------------------------------------------------- the count argument


def test_count_of_other_classes(m):
    assert m.value("c = gray(int8(3));", "c").tolist() == [[0, 0, 0], [0.5, 0.5, 0.5], [1, 1, 1]]
    assert m.value("c = hot(true);", "c").tolist() == [[1, 1, 1]]
    assert m.value("c = jet(single(4));", "c").dtype == np.float64


@pytest.mark.parametrize(("code", "identifier", "message"), [
    ("jet(2.5)", "MATLAB:NonIntegerInput", "Size inputs must be integers."),
    ("parula(NaN)", "MATLAB:NonIntegerInput", "Size inputs must be integers."),
    ("gray(Inf)", "MATLAB:NonIntegerInput", "Size inputs must be integers."),
    ("hot([2 3])", "MATLAB:NonScalarInput", "Size inputs must be scalar."),
    ("turbo([])", "MATLAB:NonScalarInput", "Size inputs must be scalar."),
    ("jet('a')", "MATLAB:NonNumericInput", "Size inputs must be numeric."),
    ("lines({3})", "MATLAB:NonNumericInput", "Size inputs must be numeric."),
    ("jet(1, 2)", "MATLAB:TooManyInputs", "Too many input arguments."),
    ("jet(1e20)", "MATLAB:array:SizeLimitExceeded",
     "Requested 100000000000000000000x3 array exceeds maximum array size preference."),
])
def test_count_errors(m, code, identifier, message):
    exc = m.fails(f"c = {code};").exc
    assert (exc.identifier, exc.message) == (identifier, message)


def test_display(m):
    assert m.run("c = gray(3)") == (
        "\nc =\n\n         0         0         0\n    0.5000    0.5000    0.5000\n"
        "    1.0000    1.0000    1.0000\n\n")


# ------------------------------------------------------------ the core's interface


def test_colormap_by_name():
    np.testing.assert_array_equal(colormap_by_name("jet", 4), [[0, 0, 1], [0, 1, 1], [1, 1, 0], [1, 0, 0]])
    assert colormap_by_name("Parula").shape == (256, 3)
    assert colormap_by_name("gray", -2).shape == (0, 3)
    assert is_colormap_name("HOT") and not is_colormap_name("viridis")
    with pytest.raises(MatlabError) as info:
        colormap_by_name("viridis", 4)
    assert info.value.exc.identifier == "MATLAB:UndefinedFunction"


def test_default_color_order():
    assert DEFAULT_COLOR_ORDER.shape == (7, 3)
    np.testing.assert_array_equal(DEFAULT_COLOR_ORDER[0], [0, 0.447, 0.741])
    np.testing.assert_array_equal(DEFAULT_COLOR_ORDER[1], [0.85, 0.325, 0.098])
    assert not DEFAULT_COLOR_ORDER.flags.writeable


def test_hooks_give_the_figure_length_and_color_order(m, monkeypatch):
    monkeypatch.setattr(colormaps, "_figure_colormap_length", lambda interp: 64)
    monkeypatch.setattr(colormaps, "_current_color_order", lambda interp: np.array([[1.0, 0, 0], [0, 0, 1]]))
    assert m.value("c = parula;", "c").shape == (64, 3)
    assert m.value("c = lines(3);", "c").tolist() == [[1, 0, 0], [0, 0, 1], [1, 0, 0]]
    assert m.value("c = jet(4);", "c").shape == (4, 3)  # an explicit count wins
    monkeypatch.setattr(colormaps, "_figure_colormap_length", lambda interp: None)
    assert m.value("c = hot;", "c").shape == (256, 3)


def test_use_hooks_register_readers(monkeypatch):
    monkeypatch.setattr(colormaps, "_figure_colormap_length", None)
    monkeypatch.setattr(colormaps, "_current_color_order", None)
    colormaps.use_figure_colormap_length(lambda interp: 16)
    colormaps.use_current_color_order(lambda interp: None)
    assert colormaps.default_length(object()) == 16
    assert colormaps.color_order(object()) is DEFAULT_COLOR_ORDER
    assert colormaps.default_length() == 256


def test_no_matplotlib_import():
    code = ("import sys; from mlang.builtins.graphics import colormaps as c; c.parula_map(8); "
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
