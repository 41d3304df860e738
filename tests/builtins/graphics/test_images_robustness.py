"""Awkward arguments to the image, colour, surface, contour and quiver functions give
MATLAB errors, never Python ones."""

from __future__ import annotations

import pytest

from tests.builtins.graphics.awkward import awkward_calls, python_failures

FUNCTIONS = ["imagesc", "image", "imshow", "colormap", "clim", "caxis", "colorbar", "surf", "mesh",
             "pcolor", "shading", "view", "contour", "contourf", "quiver", "quiver3"]
ARGUMENTS = ["[]", "'r'", "'k'", "{1}", "-1", "0", "NaN", "1:3", "'on'", "[1 2; 3 4]", "1+2i", "uint8(3)",
             "true", "\"text\"", "gca", "@sin", "zeros(2,2,2)", "rand(3,3,3)", "'off'", "[NaN NaN; NaN NaN]"]


@pytest.mark.filterwarnings("error::numpy.exceptions.ComplexWarning")
def test_awkward_arguments_give_only_matlab_errors(g):
    failures = []
    for name in FUNCTIONS:
        failures += python_failures(g, awkward_calls(name, ARGUMENTS, {1: 1, 2: 11, 3: 131, 4: 2999}))
        g.interp.eval("close all;")
    assert failures == []


VALUES = ["[]", "'r'", "'none'", "'flat'", "{1}", "-1", "0", "NaN", "Inf", "[1 2 3]", "[0 1]", "'on'",
          "[1 2; 3 4]", "1+2i", "true", "\"text\"", "gca", "[0.2 0.4 0.6]", "1e300", "zeros(2,2,2)"]
OBJECTS = {
    "h = imagesc(magic(3))": ["CData", "XData", "YData", "CDataMapping", "AlphaData"],
    "h = surf(magic(3))": ["XData", "YData", "ZData", "CData", "FaceColor", "EdgeColor", "FaceAlpha", "LineStyle",
                       "LineWidth", "CDataMapping"],
    "[~, h] = contour(magic(4))": ["ZData", "XData", "LevelList", "LevelListMode", "LineColor", "ShowText", "Fill",
                          "LineWidth", "LineStyle"],
    "h = quiver(1:2, 1:2, [1 2], [2 1])": ["UData", "XData", "Color", "AutoScale", "AutoScaleFactor",
                                       "MaxHeadSize", "ShowArrowHead", "Marker", "LineStyle"],
}


@pytest.mark.filterwarnings("error::numpy.exceptions.ComplexWarning")
def test_awkward_property_values_give_only_matlab_errors(g, tmp_path):
    failures = []
    for maker, names in OBJECTS.items():
        g.interp.eval(f"close all; {maker}; cb = colorbar; ax = gca; s = get(h); s = get(cb); s = get(ax);"
                      "s = get(gcf); disp(h); disp(cb);")
        for name in names + ["CLim", "Colormap", "View"]:
            target = "ax" if name in ("CLim", "Colormap", "View") else "h"
            failures += python_failures(g, (f"{target}.{name} = {value};" for value in VALUES), f"{maker}: ")
        for name in ("Location", "Limits", "Ticks", "TickLabels", "Direction", "FontSize"):
            failures += python_failures(g, (f"cb.{name} = {value};" for value in VALUES), f"{maker}: ")
        g.interp.eval("drawnow; saveas(gcf, 'x.png');")
    assert failures == []
