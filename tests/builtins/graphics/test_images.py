"""image, imagesc, imshow, colormap, clim/caxis and colorbar: the artists and handles."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.colors import to_rgb
from PIL import Image

from mlang.builtins.graphics.colormaps import gray_map, jet_map, parula_map

PARULA = parula_map(256)


def text(value) -> str:
    return value.tobytes().decode("utf-16-le") if hasattr(value, "tobytes") else str(value)


def pixels(g, name="im"):
    """The RGB(A) array the image artist draws, row 1 first."""
    return np.asarray(g.get(name).artist.get_array())


def test_imagesc_scales_the_colours_over_the_data(g):
    g.run("im = imagesc([1 2; 3 5]); lims = clim; cls = class(im); m = im.CDataMapping;")
    assert np.array_equal(g.get("lims"), [[1, 5]])
    assert text(g.get("cls")) == "matlab.graphics.primitive.Image"
    assert text(g.get("m")) == "scaled"
    rgb = pixels(g)
    assert np.allclose(rgb[0, 0, :3], PARULA[0])
    assert np.allclose(rgb[1, 1, :3], PARULA[-1])
    assert np.allclose(rgb[1, 0, :3], PARULA[128])  # (3 - 1) / 4 * 256 = 128
    ax = g.get("im").parent.artist
    assert ax.yaxis_inverted()  # images show row 1 at the top
    assert ax.get_xlim() == pytest.approx((0.5, 2.5))
    assert sorted(ax.get_ylim()) == pytest.approx([0.5, 2.5])


def test_imagesc_with_ranges_places_the_pixel_centres(g):
    g.run("im = imagesc([-2 2], [0 1], magic(5)); xd = im.XData; yd = im.YData;")
    assert g.get("im").artist.get_extent() == pytest.approx([-2.5, 2.5, -0.125, 1.125])
    assert np.array_equal(g.get("xd"), [[-2, 2]])
    assert np.array_equal(g.get("yd"), [[0, 1]])


def test_imagesc_colour_limits_argument(g):
    g.run("im = imagesc([0 10], [0 5]); lims = clim; mode = clim('mode');")
    assert np.array_equal(g.get("lims"), [[0, 5]])
    assert text(g.get("mode")) == "manual"
    rgb = pixels(g)
    assert np.allclose(rgb[0, 1, :3], PARULA[-1])  # 10 is above the limits


def test_image_maps_values_directly_and_true_colour(g):
    g.run("colormap(jet(4)); im = image([1 2; 3 9]);")
    rgb = pixels(g)
    jet = jet_map(4)
    assert np.allclose(rgb[0, 0, :3], jet[0]) and np.allclose(rgb[0, 1, :3], jet[1])
    assert np.allclose(rgb[1, 1, :3], jet[3])  # beyond the map: its last colour
    g.run("figure; im = image(uint8(cat(3, [255 0], [0 255], [0 0])));")
    rgb = pixels(g)
    assert np.allclose(rgb[0, 0], [1, 0, 0]) and np.allclose(rgb[0, 1], [0, 1, 0])


def test_image_name_value_cdata_and_property_changes(g):
    g.run("im = image('CData', [1 2 3]); im.CDataMapping = 'scaled'; im.CData = [4 5 6];"
          "lims = clim; c = im.CData;")
    assert np.array_equal(g.get("lims"), [[4, 6]])
    assert np.array_equal(g.get("c"), [[4, 5, 6]])
    assert np.allclose(pixels(g)[0, 2, :3], PARULA[-1])


def test_imshow_grayscale_ranges(g):
    g.run("im = imshow(uint8([0 128; 255 64])); lims = clim; ax = gca; vis = ax.Visible;")
    assert np.array_equal(g.get("lims"), [[0, 255]])
    assert text(g.get("vis")) == "off"
    rgb = pixels(g)
    assert np.allclose(rgb[0, 0, :3], 0) and np.allclose(rgb[1, 0, :3], 1)
    ax = g.get("ax").artist
    assert ax.get_aspect() == 1.0 and ax.yaxis_inverted()
    g.run("figure; im = imshow([0.25 0.5]); lims = clim;")
    assert np.array_equal(g.get("lims"), [[0, 1]])
    assert np.allclose(pixels(g)[0, 0, :3], gray_map(256)[64])
    g.run("figure; im = imshow([1 2; 3 4], [2 3]); lims = clim;")
    assert np.array_equal(g.get("lims"), [[2, 3]])
    g.run("figure; im = imshow([1 2; 3 4], []); lims = clim;")
    assert np.array_equal(g.get("lims"), [[1, 4]])


def test_imshow_rgb_and_indexed(g):
    g.run("im = imshow(cat(3, [1 0], [0 0], [0 1]));")
    rgb = pixels(g)
    assert np.allclose(rgb[0, 0], [1, 0, 0]) and np.allclose(rgb[0, 1], [0, 0, 1])
    g.run("figure; im = imshow([1 2], [1 0 0; 0 1 0]); c = colormap(gca);")
    assert np.allclose(pixels(g)[0, 1, :3], [0, 1, 0])
    assert np.array_equal(g.get("c"), [[1, 0, 0], [0, 1, 0]])


def test_imshow_reads_a_file(g, tmp_path):
    g.run("imwrite(uint8([0 255; 255 0]), 'pic.png'); im = imshow('pic.png'); s = size(im.CData);")
    assert np.array_equal(g.get("s"), [[2, 2]])
    assert np.allclose(pixels(g)[0, 1, :3], 1)


def test_image_errors(g):
    assert g.fails("imagesc()").identifier == "MATLAB:narginchk:notEnoughInputs"
    assert g.fails("imagesc({1})").identifier == "MATLAB:imagesc:InvalidData"
    assert g.fails("imshow([1 2], [3 1])").identifier == "MATLAB:images:imshow:invalidDisplayRange"
    assert g.fails("im = imagesc(1); im.CDataMapping = 'odd';").identifier == "MATLAB:hg:InvalidPropertyValue"
    assert g.fails("im = imagesc(1); im.Nope = 1;").identifier == "MATLAB:hg:InvalidProperty"


def test_image_display(g):
    out = g.run("im = image([1 2])")
    assert out == ("\nim = \n\n  Image with properties:\n\n           CData: [1 2]\n"
                   "    CDataMapping: 'direct'\n\n")


# ---------------------------------------------------------------- colormap and clim


def test_colormap_sets_the_figure_and_returns_it(g):
    g.run("im = imagesc([1 2]); colormap jet; c = colormap; f = gcf; fc = f.Colormap;")
    assert np.allclose(g.get("c"), jet_map(256))
    assert np.allclose(g.get("fc"), jet_map(256))
    assert np.allclose(pixels(g)[0, 1, :3], jet_map(256)[-1])
    g.run("colormap(gray(2)); c = colormap; d = jet;")
    assert np.array_equal(g.get("c"), [[0, 0, 0], [1, 1, 1]])
    assert g.get("d").shape == (2, 3)  # a colormap function takes the figure's length
    g.run("colormap default; c = colormap;")
    assert np.allclose(g.get("c"), PARULA)


def test_colormap_of_one_axes(g):
    g.run("a1 = subplot(1, 2, 1); i1 = imagesc([1 2]); a2 = subplot(1, 2, 2); i2 = imagesc([1 2]);"
          "colormap(a1, 'hot'); c1 = colormap(a1); c2 = a2.Colormap;")
    assert not np.allclose(g.get("c1"), g.get("c2"))
    assert np.allclose(g.get("c2"), PARULA)
    assert np.allclose(pixels(g, "i1")[0, 1, :3], [1, 1, 1])


def test_colormap_errors(g):
    assert g.fails("colormap([1 2])").identifier == "MATLAB:colormap:InvalidNumberColumns"
    assert g.fails("colormap([2 0 0])").identifier == "MATLAB:colormap:InvalidInputRange"
    assert g.fails("colormap('nosuchmap')").identifier == "MATLAB:colormap:InvalidInputs"


@pytest.mark.parametrize("function", ["clim", "caxis"])
def test_clim_and_caxis(g, function):
    g.run(f"im = imagesc([0 4]); {function}([1 3]); a = {function}; ax = gca; m = ax.CLimMode;")
    assert np.array_equal(g.get("a"), [[1, 3]])
    assert text(g.get("m")) == "manual"
    assert np.allclose(pixels(g)[0, 0, :3], PARULA[0]) and np.allclose(pixels(g)[0, 1, :3], PARULA[-1])
    g.run(f"{function}('auto'); a = {function}; m = {function}('mode');")
    assert np.array_equal(g.get("a"), [[0, 4]])
    assert text(g.get("m")) == "auto"
    g.run(f"ax.CLim = [2 8]; a = {function}(ax);")
    assert np.array_equal(g.get("a"), [[2, 8]])
    assert g.fails(f"{function}([3 1])").identifier == f"MATLAB:{function}:InvalidInput"
    assert g.fails(f"{function}('sideways')").identifier == f"MATLAB:{function}:InvalidInput"


def test_clim_of_constant_data_and_empty_axes(g):
    g.run("a = clim; imagesc(ones(2) * 3); b = clim;")
    assert np.array_equal(g.get("a"), [[0, 1]])
    assert np.array_equal(g.get("b"), [[2, 4]])


# ---------------------------------------------------------------- colorbar


def test_colorbar_shows_the_colour_limits(g):
    g.run("imagesc([2 6]); cb = colorbar; lims = cb.Limits; loc = cb.Location; cls = class(cb);"
          "p = cb.Parent; f = gcf;")
    assert text(g.get("cls")) == "matlab.graphics.illustration.ColorBar"
    assert text(g.get("loc")) == "eastoutside"
    assert np.allclose(g.get("lims"), [[2, 6]])
    assert g.get("p") is g.get("f")
    g.run("clim([0 10]); lims = cb.Limits; t = cb.Ticks;")
    assert np.allclose(g.get("lims"), [[0, 10]])
    assert np.allclose(g.get("t"), [[0, 2, 4, 6, 8, 10]])
    bar = g.get("cb").artist
    assert np.allclose(bar.cmap(0.999)[:3], PARULA[-1])


def test_colorbar_locations_label_and_off(g):
    g.run("imagesc(magic(3)); cb = colorbar('southoutside'); cb.Label.String = 'units';"
          "cb2 = colorbar('Location', 'west'); ok = isvalid(cb); loc = cb2.Location;")
    assert not g.get("ok")  # a new colorbar replaces the old one
    assert text(g.get("loc")) == "west"
    assert g.get("cb2").artist.orientation == "vertical"
    g.run("colorbar('off'); ok = isvalid(cb2);")
    assert not g.get("ok")
    g.run("cb = colorbar('northoutside'); cb.Label.String = 'units';")
    assert g.get("cb").artist.orientation == "horizontal"
    assert g.get("cb").artist.ax.xaxis.label.get_text() == "units"
    assert g.fails("colorbar('sideways')").identifier == "MATLAB:colorbar:InvalidLocation"
    assert g.fails("cb.Location = 'up'").identifier == "MATLAB:hg:InvalidPropertyValue"


def test_colorbar_follows_the_colormap(g):
    g.run("imagesc([1 2]); cb = colorbar; colormap(gray);")
    assert np.allclose(g.get("cb").artist.cmap(0.999)[:3], [1, 1, 1])


# ---------------------------------------------------------------- the seeds' example


SEEDS = """
[re, im] = meshgrid(linspace(-2, 2, 9));
xGrad = re + 1i * im;
y = real((2 + 3i) * xGrad);
gradPlot = conj(2 + 3i) * ones(size(xGrad));
imagesc([-2,2],[-2,2],y); axis xy; colorbar; hold on;
quiver(real(xGrad),imag(xGrad),real(gradPlot),imag(gradPlot),"k");
title("Real Value and Gradient","Re$(f(x)) = $ Re$((2+3i)x)$","interpreter","latex")
ax = gca; kids = ax.Children;
"""


def test_seeds_complex_gradient_example(g, tmp_path):
    g.run(SEEDS)
    kids = g.get("kids").items
    assert [type(k).__name__ for k in kids] == ["Quiver", "Image"]
    quiver, image = kids
    assert image.artist.get_extent() == pytest.approx([-2.25, 2.25, -2.25, 2.25])
    assert not image.parent.artist.yaxis_inverted()  # axis xy
    segments = quiver.artist.get_segments()
    assert len(segments) == 3 * 81
    assert to_rgb(quiver.artist.get_colors()[0]) == (0.0, 0.0, 0.0)
    shaft = segments[0]
    direction = shaft[1] - shaft[0]
    assert direction[0] > 0 and direction[1] < 0  # along 2 - 3i
    assert np.allclose(direction[1] / direction[0], -1.5)
    assert np.array_equal(g.value("l = clim;", "l"), [[-10, 10]])
    g.finish()
    png = tmp_path / "figures" / "figure1.png"
    with Image.open(png) as picture:
        pixels_ = np.asarray(picture.convert("RGB"))
    assert pixels_.shape[0] > 100 and len(np.unique(pixels_.reshape(-1, 3), axis=0)) > 50


def test_images_turn_the_y_axis_down_unless_held(g):
    g.run("imagesc(magic(3)); ax = gca; d1 = ax.YDir; axis xy; d2 = ax.YDir; axis ij; d3 = ax.YDir;")
    assert [text(g.get(n)) for n in ("d1", "d2", "d3")] == ["reverse", "normal", "reverse"]
    g.run("axis xy; hold on; imagesc(magic(3) + 10); d = ax.YDir; lims = clim;")
    assert text(g.get("d")) == "normal"
    assert np.array_equal(g.get("lims"), [[1, 19]])  # the colour limits span both images
    g.run("figure; plot(1:3); hold on; im = imagesc([1 2]); d = get(gca, 'YDir');")
    assert text(g.get("d")) == "normal"
    g.run("hold off; imagesc([1 2]); d = get(gca, 'YDir');")
    assert text(g.get("d")) == "reverse"


def test_imshow_options(g):
    g.run("im = imshow([0 0.5 1], 'Colormap', [1 0 0; 0 0 1], 'InitialMagnification', 200, 'Border', 'tight');"
          "m = im.CDataMapping; lims = clim;")
    assert text(g.get("m")) == "scaled" and np.array_equal(g.get("lims"), [[0, 1]])
    assert np.allclose(pixels(g)[0, 0, :3], [1, 0, 0]) and np.allclose(pixels(g)[0, 2, :3], [0, 0, 1])
    g.run("figure; im = imshow(int16([-32768 32767]), 'DisplayRange', [0 10]); lims = clim;")
    assert np.array_equal(g.get("lims"), [[0, 10]])
    g.run("figure; im = imshow(int16([-32768 32767])); lims = clim;")
    assert np.array_equal(g.get("lims"), [[-32768, 32767]])
    g.run("figure; a = axes; figure; im = imshow(true(2), 'Parent', a); p = im.Parent;")
    assert g.get("p") is g.get("a")
    assert g.fails("imshow(1, 'DisplayRange', [2 1])").identifier == "MATLAB:images:imshow:invalidDisplayRange"


def test_colormap_after_imshow_recolours_it(g):
    g.run("im = imshow([0 1], []); colormap jet; c = colormap(gca);")
    assert np.allclose(g.get("c"), jet_map(256))
    assert np.allclose(pixels(g)[0, 1, :3], jet_map(256)[-1])


def test_colour_limits_near_the_largest_double_still_draw(g):
    # the span of such limits overflows: the colorbar draws, CLim keeps the data's range
    g.run("im = imagesc([-1.5e308 0; 1e308 1.7e308]); cb = colorbar; lims = clim; drawnow")
    assert np.array_equal(g.get("lims"), [[-1.5e308, 1.7e308]])
    low, high = g.get("cb").artist.ax.get_ylim()
    assert np.isfinite(high - low) and high > 0 > low
