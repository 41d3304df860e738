"""Deep Learning Toolbox networks: layer objects, dlnetwork and layerGraph.

``layer.py`` is the contract every layer class follows (properties, options,
initialisation, forward and predict); the layer families live in their own
modules and register their constructors with ``@builtin``.
"""

from mlang.registry import load_family

# The modules extend each other's objects as they load: the family loads as one.
load_family(__name__)
