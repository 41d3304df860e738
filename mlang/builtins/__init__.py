"""The builtin functions, grouped by family.

Every module of every sub-package registers its functions with ``@builtin``
when it is imported.  The registry imports a module the first time one of its
names is looked up (``function_index.py``, written by ``python -m mlang.builtins
--write-index``, says which module registers which name), so a program loads only
what it calls.  ``coerce`` reads the arguments the functions share (texts,
dimensions, options, sizes).

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
* ``graphics``: figures, axes and plots drawn with matplotlib.
"""

import importlib  # noqa: E402

from mlang.evaluation.interpreter import Interpreter  # noqa: E402


def _display_on_first_result(interp: Interpreter, name: str, value: object) -> None:
    """Results are shown by the display module, which plugs itself into the interpreter as
    it loads: loaded with the first result shown (a program that shows none never loads it)."""
    importlib.import_module("mlang.display")
    Interpreter.result_display(interp, name, value)


if not hasattr(Interpreter, "result_display"):
    Interpreter.result_display = _display_on_first_result
