"""Every layer constructor of the networks family: called with its minimal arguments it gives
a layer object that declares the layer contract and displays without error."""

from __future__ import annotations

import re

import pytest

from mlang.builtins.networks.layer import Layer
from mlang.errors import MatlabError
from mlang.registry import load_all

PACKAGE = "mlang.builtins.networks"

# Minimal argument lists tried in turn until one makes a layer: none, a size or count, two
# of them (a filter size and a filter count, a dimension and a number of inputs), a function,
# an image size, an input size with its data format.
CANDIDATE_ARGUMENTS = ("", "2", "2, 2", "@sin", "[4 4 1]", "[3 NaN], 'CB'", "3, 'CB'")


# Functions that edit a network (addInputLayer, replaceLayer) end in "Layer" too.
NETWORK_EDITING = re.compile(r"(add|replace|remove|connect|disconnect)[A-Z]")


def layer_constructors() -> list[str]:
    return sorted(name for name, entry in load_all().items()
                  if name.endswith("Layer") and entry.fn.__module__.startswith(PACKAGE + ".")
                  and not NETWORK_EDITING.match(name))


def test_constructors_found():
    names = layer_constructors()
    for name in ("additionLayer", "concatenationLayer", "depthConcatenationLayer",
                 "multiplicationLayer", "functionLayer"):
        assert name in names


@pytest.mark.parametrize("name", layer_constructors())
def test_minimal_layer_displays(m, name):
    failures = []
    for args in CANDIDATE_ARGUMENTS:
        try:
            layer = m.value(f"L = {name}({args});", "L")
        except MatlabError as err:
            failures.append(f"{name}({args}): {err.identifier}: {err.message}")
            continue
        break
    else:
        pytest.fail("no minimal call made a layer:\n" + "\n".join(failures))
    assert isinstance(layer, Layer)
    assert layer.LAYER_TYPE and layer.DEFAULT_NAME
    assert layer.matlab_class.startswith("nnet.")
    assert isinstance(layer.description(), str) and layer.description()
    assert isinstance(layer.input_names(), list) and isinstance(layer.output_names(), list)
    shown = m.run("L = x", x=layer)
    assert shown.startswith("\nL = \n")
    assert layer.matlab_class.rsplit(".", 1)[-1] in shown
    assert m.run("disp(x)", x=layer)
