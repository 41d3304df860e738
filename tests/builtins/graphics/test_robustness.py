"""Awkward arguments to the graphics core give MATLAB errors, never Python ones."""

from __future__ import annotations

import pytest

from mlang.errors import MatlabError
from tests.builtins.graphics.awkward import awkward_calls, python_failures

FUNCTIONS = ["plot", "plot3", "line", "semilogx", "loglog", "figure", "subplot", "axes", "hold",
             "close", "clf", "cla", "tiledlayout", "nexttile", "set", "get", "isgraphics", "getframe",
             "frame2im", "saveas", "exportgraphics", "print", "drawnow", "gobjects", "ishold"]
ARGUMENTS = ["[]", "'r'", "'LineWidth'", "{1}", "struct('a', 1)", "-1", "0", "NaN", "1:3", "'on'",
             "[1 2; 3 4]", "1+2i", "int8(3)", "true", "\"text\"", "gca", "gcf", "@sin", "zeros(2,2,2)",
             "'x.png'", "groot"]


@pytest.mark.filterwarnings("error::numpy.exceptions.ComplexWarning")
def test_awkward_arguments_give_only_matlab_errors(g):
    failures = []
    for name in FUNCTIONS:
        failures += python_failures(g, awkward_calls(name, ARGUMENTS, {1: 1, 2: 7, 3: 97}))
        g.interp.eval("close all;")
    assert failures == []


VALUES = ["[]", "'r'", "'none'", "{1}", "-1", "0", "NaN", "Inf", "[1 2 3]", "[0 1]", "'on'", "[1 2; 3 4]",
          "1+2i", "true", "\"text\"", "gca", "'$\\frac{1'", "'x^{2'", "[0.2 0.4 0.6]", "1e300"]


@pytest.mark.filterwarnings("error::numpy.exceptions.ComplexWarning")
def test_awkward_property_values_never_break_drawing(g, tmp_path):
    g.run("h = plot(1:3); t = get(gca, 'Title'); set(t, 'String', 'x'); ax = gca; f = gcf; r = groot;")
    for name in ("h", "t", "ax", "f", "r"):
        handle = g.get(name)
        for prop in handle.property_names():
            for value in VALUES:
                try:
                    g.interp.eval(f"set({name}, '{prop}', {value});")
                except MatlabError:
                    pass
        g.interp.eval("drawnow;")
    g.interp.eval("saveas(f, 'after.png');")
    assert (tmp_path / "after.png").stat().st_size > 0
