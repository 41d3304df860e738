"""Deep Learning Toolbox networks: layer objects, dlnetwork and layerGraph.

``layer.py`` is the contract every layer class follows (properties, options,
initialisation, forward and predict); the layer families live in their own
modules and register their constructors with ``@builtin``.
"""
