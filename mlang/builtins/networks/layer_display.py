"""How layers show themselves in the Command Window.

One layer::

      FullyConnectedLayer with properties:

              Name: ''

       Hyperparameters
         InputSize: 'auto'
        OutputSize: 10

       Learnable Parameters
           Weights: []
              Bias: []

      Show all properties

The names of all groups are right-aligned together (the longest indented four), each
group under its title; a group with nothing to show is left out.  Only the ungrouped
properties and the groups "Hyperparameters", "Learnable Parameters" and "State
Parameters" are shown: properties of any other group (the documentation's "Parameters and
Initialization", "Learning Rate and Regularization") and those declared ``shown=False``
are what MATLAB keeps for "Show all properties", the line that ends the display of a
layer with learnable parameters.  The newer layer classes (``SHOWS_EMPTY_GROUPS``, as the
sigmoidLayer and swishLayer pages show them) list both parameter groups even when empty::

      SigmoidLayer with properties:

        Name: 'sig1'

       Learnable Parameters
        No properties.

       State Parameters
        No properties.

      Show all properties

An array of layers::

      3×1 Layer array with layers:

         1   ''      Feature Input     2 features
         2   'fc'    Fully Connected   10 fully connected layer
         3   ''      ReLU              ReLU

Numbers right-aligned in six places, then the quoted names, the layer types and the
descriptions, each column as wide as its widest entry and three blanks apart.
"""

from __future__ import annotations

from typing import Any

from mlang.builtins.networks.layer import GROUPS, Layer
from mlang.display import Style, disp_lines
from mlang.values.struct import Struct

TIMES = "\u00d7"
BLANK = None  # a blank line of format loose


def _value_texts(pairs: list[tuple[str, Any]], style: Style) -> list[str]:
    """``name: value`` lines, the names right-aligned together, as a struct's fields show
    (so values look as they do everywhere else: 'auto', 10, [28 28 3], [10×2 single])."""
    shown = disp_lines(Struct.scalar(dict(pairs)), style)
    return [line for line in shown if line is not None][:len(pairs)]


def layer_lines(layer: Layer, style: Style) -> list:
    """The display of one layer below ``layer =`` (and what ``disp(layer)`` prints)."""
    entries = [(group, name) for group, name in layer.displayed_properties()
               if group == "" or group in GROUPS]
    title = type(layer).display_name or layer.matlab_class.rsplit(".", 1)[-1]
    header = f"  {title} with properties:"
    if not entries:
        return [f"  {title} with no properties."]
    texts = _value_texts([(name, layer.get_property(name)) for _, name in entries], style)
    by_group: dict[str, list[str]] = {}
    for (group, _), text in zip(entries, texts, strict=True):
        by_group.setdefault(group, []).append(text)
    lines: list = [header]
    if "" in by_group:
        lines += [BLANK, *by_group[""]]
    for group in GROUPS:  # other groups (initialisers, learning rates) are left out
        if group in by_group:
            lines += [BLANK, f"   {group}", *by_group[group]]
        elif layer.SHOWS_EMPTY_GROUPS and group != "Hyperparameters":
            lines += [BLANK, f"   {group}", "    No properties."]
    if layer.shows_all_properties_link():
        lines += [BLANK, "  Show all properties"]
    return lines


def _dims(shape: tuple[int, ...]) -> str:
    return TIMES.join(str(n) for n in shape)


def array_lines(layers: list[Layer], shape: tuple[int, ...]) -> list:
    """The display of an array of layers below ``layers =``."""
    header = f"  {_dims(shape)} Layer array with layers:"
    if not layers:
        return [header]
    names = [f"'{layer.name}'" for layer in layers]
    types = [layer.LAYER_TYPE for layer in layers]
    name_width = max(len(n) for n in names)
    type_width = max(len(t) for t in types)
    rows = []
    for k, (layer, name, kind) in enumerate(zip(layers, names, types, strict=True), start=1):
        rows.append(f"{k:>6}   {name.ljust(name_width)}   {kind.ljust(type_width)}   "
                    f"{layer.description()}")
    return [header, BLANK, *rows]
