"""mlang: a MATLAB-compatible interpreter with automatic differentiation.

``mlang.Session`` (the Python API, ``mlang.api``) loads on first use, so ``import mlang``
stays as cheap as the command line's ``--version`` needs it to be.
"""

import importlib

__version__ = "0.1.0"

# The names mlang.api gives the package; the API sits above every layer, so it is fetched
# by name on first use rather than imported here.
_API = frozenset({"Session", "MatlabError", "MatlabFunction", "PythonFunction", "Workspace"})


def __getattr__(name: str) -> object:
    if name in _API:
        return getattr(importlib.import_module("mlang.api"), name)
    raise AttributeError(f"module 'mlang' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])
