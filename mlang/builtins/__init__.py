"""The builtin functions, grouped by family.

Every module of every sub-package registers its functions with ``@builtin``
when ``mlang.registry.load_all`` imports it; ``coerce`` reads the arguments
they share (texts, dimensions, options, sizes).

* ``data``: arrays and their shape, classes and conversions, cells, structs,
  containers.Map;
* ``math``: element-wise math, linear algebra, polynomials, reductions,
  sorting, sets, random numbers, constants;
* ``text``: string functions, regular expressions, sprintf and printing;
* ``language``: errors and warnings, introspection, eval and feval, validators;
* ``session``: the workspace, help, the search path, interaction, timing,
  the display format;
* ``deeplearning``: dlarray, dlfeval, dlgradient, the functional layer
  (fullyconnect, dlconv, batchnorm, lstm...), losses and optimizers;
* ``networks``: layer objects, dlnetwork and layerGraph;
* ``datastores``: arrayDatastore, combine, transform and minibatchqueue;
* ``training``: trainingOptions, trainingProgressMonitor and trainnet;
* ``graphics``: plotting functions accepted as no-ops.
"""
