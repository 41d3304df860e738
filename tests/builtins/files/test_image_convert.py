"""im2double and the other class conversions, rgb2gray, ind2rgb, rgb2ind and imresize."""

from __future__ import annotations

import numpy as np
import pytest

WEIGHTS = np.array([0.298936021293775, 0.587043074451121, 0.114020904255103])


# ---------------------------------------------------------------- class conversions


def test_im2double(m):
    np.testing.assert_allclose(m.value("x = im2double(uint8([0 255 128]));"), [[0, 1, 128 / 255]])
    np.testing.assert_allclose(m.value("x = im2double(uint16([0 65535]));"), [[0, 1]])
    np.testing.assert_allclose(m.value("x = im2double(int16([-32768 0 32767]));"),
                               [[0, 32768 / 65535, 1]])
    assert m.value("x = im2double(true);") == 1.0
    assert m.value("x = im2double(0.25);") == 0.25
    np.testing.assert_array_equal(m.value("x = im2double(uint8([0 4]), 'indexed');"), [[1, 5]])


def test_im2single(m):
    x = m.value("x = im2single(uint8([0 51]));")
    assert x.dtype == np.float32
    np.testing.assert_allclose(x, [[0, 0.2]], rtol=1e-6)


def test_im2uint8_rounds_and_saturates(m):
    x = m.value("x = im2uint8([0 0.5 1 1.2 -1 NaN 0.002]);")
    assert x.dtype == np.uint8
    np.testing.assert_array_equal(x, [[0, 128, 255, 255, 0, 0, 1]])
    np.testing.assert_array_equal(m.value("x = im2uint8(uint16([0 257 65535 300]));"), [[0, 1, 255, 1]])
    np.testing.assert_array_equal(m.value("x = im2uint8(logical([1 0]));"), [[255, 0]])
    np.testing.assert_array_equal(m.value("x = im2uint8([1 2 256], 'indexed');"), [[0, 1, 255]])
    assert m.fails("x = im2uint8([1 257], 'indexed');").identifier == \
        "MATLAB:im2uint8:tooManyColorsFor8bitStorage"


def test_im2uint16_and_im2int16(m):
    np.testing.assert_array_equal(m.value("x = im2uint16(uint8([0 1 255]));"), [[0, 257, 65535]])
    np.testing.assert_array_equal(m.value("x = im2uint16(int16([-32768 0]));"), [[0, 32768]])
    np.testing.assert_array_equal(m.value("x = im2uint16([0.5 2]);"), [[32768, 65535]])
    x = m.value("x = im2int16([0 1]);")
    assert x.dtype == np.int16
    np.testing.assert_array_equal(x, [[-32768, 32767]])


def test_conversion_errors(m):
    e = m.fails("x = im2double('abc');")
    assert e.identifier == "MATLAB:im2double:invalidType"
    assert e.exc.message.endswith("Instead its type was char.")
    assert m.fails("x = im2double(int32(1));").identifier == "MATLAB:im2double:invalidType"
    assert m.fails("x = im2uint8(1, 'other');").identifier == "MATLAB:im2uint8:invalidIndexedOption"


def test_display_of_a_converted_image(m):
    assert m.run("x = im2uint8([0 0.5 1])") == "\nx =\n\n  1×3 uint8 row vector\n\n     0   128   255\n\n"


# ------------------------------------------------------------------------ rgb2gray


def test_rgb2gray_weights_and_rounding(m):
    x = m.value("x = rgb2gray(uint8(cat(3, [200 10], [100 20], [50 30])));")
    assert x.dtype == np.uint8
    expected = np.round(np.array([[200, 100, 50], [10, 20, 30]]) @ WEIGHTS)
    np.testing.assert_array_equal(x, [expected])
    y = m.value("x = rgb2gray(cat(3, 0.5, 0.2, 0.1));")
    assert y == pytest.approx(0.5 * WEIGHTS[0] + 0.2 * WEIGHTS[1] + 0.1 * WEIGHTS[2], abs=1e-15)
    z = m.value("x = rgb2gray(uint16(cat(3, 65535, 65535, 65535)));")
    assert z.dtype == np.uint16 and z[0, 0] == 65535


def test_rgb2gray_of_a_colormap(m):
    x = m.value("x = rgb2gray([1 0 0; 0.5 0.5 0.5; 1 1 1]);")
    np.testing.assert_allclose(x[:, 0], [WEIGHTS[0], 0.5, 1.0], atol=1e-15)
    np.testing.assert_array_equal(x[:, 0], x[:, 2])


def test_rgb2gray_errors(m):
    assert m.fails("x = rgb2gray(rand(3, 3, 2));").identifier == "MATLAB:images:rgb2gray:invalidInputSizeRGB"
    assert m.fails("x = rgb2gray(rand(3, 2));").identifier == "MATLAB:images:rgb2gray:invalidSizeForColormap"
    assert m.fails("x = rgb2gray(single(rand(3, 3)));").identifier == \
        "MATLAB:images:rgb2gray:notAValidColormap"


# ------------------------------------------------------------------------- ind2rgb


def test_ind2rgb_index_bases_and_clamping(m):
    cmap = "map = [0 0 0; 1 0 0; 0 0 1];"
    x = m.value(cmap + " x = ind2rgb(uint8([0 1; 2 9]), map);")
    assert x.shape == (2, 2, 3) and x.dtype == np.float64
    np.testing.assert_array_equal(x[0, 1], [1, 0, 0])
    np.testing.assert_array_equal(x[1, 0], [0, 0, 1])
    np.testing.assert_array_equal(x[1, 1], [0, 0, 1])  # beyond the map: its last colour
    y = m.value(cmap + " x = ind2rgb([1 2; 3 0], map);")
    np.testing.assert_array_equal(y[0, 1], [1, 0, 0])
    np.testing.assert_array_equal(y[1, 1], [0, 0, 0])
    assert m.fails("x = ind2rgb(1.5, [0 0 0; 1 1 1]);").identifier == "MATLAB:badsubscript"
    assert m.fails("x = ind2rgb(1, [0 0]);").identifier == "MATLAB:ind2rgb:invalidColormap"


# ------------------------------------------------------------------------- rgb2ind


def test_rgb2ind_keeps_few_colours_exactly(m):
    x, cmap = m.values("f = uint8(zeros(4, 5, 3)); f(:,:,1) = 100; f(2,3,2) = 200;"
                       " [x, map] = rgb2ind(f, 256); back = ind2rgb(x, map);", "x", "map")
    assert x.dtype == np.uint8 and cmap.shape == (2, 3)
    back = m.value("f = uint8(zeros(4, 5, 3)); f(:,:,1) = 100; f(2,3,2) = 200;"
                   " [x, map] = rgb2ind(f, 256); y = isequal(im2uint8(ind2rgb(x, map)), f);", "y")
    assert back is True


def test_rgb2ind_reduces_colours(m):
    x, cmap = m.values("rng(0); R = rand(20, 30, 3); [x, map] = rgb2ind(R, 16, 'nodither');", "x", "map")
    assert cmap.shape[0] <= 16 and cmap.shape[1] == 3
    assert x.dtype == np.uint8 and int(x.max()) < cmap.shape[0]
    dithered, cmap2 = m.values("rng(0); R = rand(20, 30, 3); [x, map] = rgb2ind(R, 8);", "x", "map")
    assert int(dithered.max()) < cmap2.shape[0] <= 8


def test_rgb2ind_with_a_colormap_and_a_tolerance(m):
    x = m.value("R = cat(3, [0.9 0.1], [0.1 0.1], [0.1 0.8]); x = rgb2ind(R, [1 0 0; 0 0 1], 'nodither');")
    np.testing.assert_array_equal(x, [[0, 1]])
    x, cmap = m.values("R = cat(3, [0.9 0.1], [0.1 0.1], [0.1 0.8]); [x, map] = rgb2ind(R, 0.5);", "x", "map")
    np.testing.assert_array_equal(cmap[x[0]], [[1, 0, 0], [0, 0, 1]])
    assert m.fails("x = rgb2ind(rand(2, 2), 4);").identifier == "MATLAB:rgb2ind:invalidInputSize"
    assert m.fails("x = rgb2ind(rand(2, 2, 3), 4, 'sometimes');").identifier == \
        "MATLAB:rgb2ind:invalidDitherOption"


# ------------------------------------------------------------------------ imresize


def test_imresize_bilinear_matches_matlab(m):
    x = m.value("x = imresize([1 2; 3 4], 2, 'bilinear');")
    np.testing.assert_allclose(x, [[1, 1.25, 1.75, 2], [1.5, 1.75, 2.25, 2.5],
                                   [2.5, 2.75, 3.25, 3.5], [3, 3.25, 3.75, 4]])


def test_imresize_shrinking_antialiases(m):
    # the triangle kernel stretched to 4 pixels: weights 1/8, 3/8, 3/8, 1/8 with mirrored edges
    np.testing.assert_allclose(m.value("x = imresize([1 2 3 4], 0.5, 'bilinear');"), [[1.625, 3.375]])
    np.testing.assert_allclose(m.value("x = imresize([1 2 3 4], 0.5, 'bilinear', 'Antialiasing', false);"),
                               [[1.5, 3.5]])
    np.testing.assert_array_equal(m.value("x = imresize([1 2 3 4], 0.5, 'nearest');"), [[2, 4]])


def test_imresize_bicubic_default(m):
    x = m.value("x = imresize([1 2 3 4], [1 8]);")
    # Keys' cubic at offsets +-0.25 and +-0.75, edges mirrored
    w = np.array([-0.0234375, 0.2265625, 0.8671875, -0.0703125])
    assert x[0, 2] == pytest.approx(w @ np.array([1, 1, 2, 3]))
    assert x[0, 3] == pytest.approx(w[::-1] @ np.array([1, 2, 3, 4]))
    assert m.value("x = imresize(magic(4), 1);").tolist() == [[16, 2, 3, 13], [5, 11, 10, 8],
                                                               [9, 7, 6, 12], [4, 14, 15, 1]]


def test_imresize_sizes_classes_and_channels(m):
    assert m.value("x = size(imresize(zeros(10, 20), [5 NaN]));").tolist() == [[5.0, 10.0]]
    assert m.value("x = size(imresize(zeros(10, 20), [NaN 7]));").tolist() == [[4.0, 7.0]]
    assert m.value("x = size(imresize(zeros(10, 20, 3), 0.33));").tolist() == [[4.0, 7.0, 3.0]]
    x = m.value("x = imresize(uint8([0 255; 255 0]), 2);")
    assert x.dtype == np.uint8 and x.max() == 255 and x.min() == 0  # overshoot saturates
    assert m.value("x = imresize(single(magic(4)), 1.5);").dtype == np.float32
    b = m.value("x = imresize(logical([1 0; 0 1]), 2);")
    assert b.dtype == np.bool_ and b.shape == (4, 4)
    same = m.value("x = imresize([1 2; 3 4], 'Scale', 2, 'Method', 'bilinear');")
    assert same[0, 1] == 1.25


def test_imresize_errors(m):
    assert m.fails("x = imresize(1, 'bilinear');").identifier == "MATLAB:imresize:missingScaleOrSize"
    assert m.fails("x = imresize(1, -2);").identifier == "MATLAB:imresize:expectedPositive"
    assert m.fails("x = imresize(1, [NaN NaN]);").identifier == "MATLAB:imresize:bothNaN"
    assert m.fails("x = imresize(1, [2.5 3]);").identifier == "MATLAB:imresize:badOutputSize"
    assert m.fails("x = imresize({1}, 2);").identifier == "MATLAB:imresize:invalidType"
    assert m.fails("x = imresize(1, 2, 'Method', 'fancy');").identifier == "MATLAB:imresize:unrecognizedMethod"


def test_rgb2ind_more_than_256_colours_gives_uint16_indices(m):
    x, cmap, same = m.values("rng(2); R = rand(20, 20, 3); [x, map] = rgb2ind(R, 1000);"
                             " s = isequal(ind2rgb(x, map), R);", "x", "map", "s")
    assert x.dtype == np.uint16 and cmap.shape == (400, 3) and same is True
