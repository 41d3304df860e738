"""The registry of callables: the one registry of builtin functions, and the
``Callable`` interface of everything the interpreter can call.

Each builtin is registered once, with everything about it in one place: its
MATLAB name, how many inputs and outputs it takes, its help text, whether it
needs the interpreter, and (for differentiable functions, later) its gradient
rule.  Adding a function is a local change: write it in a module under
``mlang/builtins`` with the ``@builtin`` decorator.

How a builtin treats dlarray arguments (``dl``):

* ``"differentiable"`` (implied by a ``gradient`` rule): computed on the data,
  the result is a dlarray, recorded in the trace when an input is traced;
  the rule (see ``mlang.autodiff.trace``) sits beside the function;
* ``"constant"``: computed on the data, the result is an untraced dlarray
  (comparisons, logical operators);
* ``"data"``: computed on the data, the result is a plain value (text output);
* ``"native"``: the function handles dlarrays itself (size, class, dlfeval...);
* ``"traced"``: the function handles dlarrays itself and records its own derivatives,
  reading the data format (dlconv, batchnorm, lstm, the losses...): differentiable, so
  the gradient-check suite must cover it, like a function with a ``gradient`` rule;
* None: MATLAB's "Undefined function ... for input arguments of type 'dlarray'".

A builtin's Python function receives MATLAB values positionally (``*args``
for a variable number) and returns one value, or a tuple of values for
several outputs.  With ``nargout=True`` it also receives the number of
outputs requested as the keyword ``nargout``; with ``interp=True`` the
running interpreter comes first.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections import abc
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import dl_call
from mlang.errors import MatlabError, error
from mlang.values.objects import CALL_ROUTES
from mlang.values.sparse import SPARSE_TYPES
from mlang.values.sparse_calls import sparse_call


@runtime_checkable
class Callable(Protocol):
    """Anything the interpreter can call: a builtin, a user function, a script, a function
    handle, a traced primitive.  ``call`` takes MATLAB values and the number of outputs
    wanted and returns a list of outputs; ``frame`` is the calling workspace (scripts run
    in it, nested functions find their parent through it), None for the base workspace."""

    name: str

    def call(self, interp: Any, args: list, nargout: int, frame: Any = None) -> list: ...


@dataclass(slots=True)
class Builtin:
    name: str
    fn: abc.Callable[..., Any]
    min_in: int
    max_in: int | None  # None: any number
    max_out: int | None
    help: str
    wants_nargout: bool = False
    wants_interp: bool = False
    gradient: abc.Callable[..., Any] | None = field(default=None)
    dl: str | None = None
    # Told the variable names of its arguments (as inputname gives them): the evaluator leaves
    # them in the interpreter's family_state["argument_names"] just before the call.
    wants_argument_names: bool = False

    def call(self, interp: Any, args: list, nargout: int, frame: Any = None) -> list:
        """Call with MATLAB's argument checks; always returns a list of outputs.  An error
        not yet labelled with a function is labelled with this one ("Error using f")."""
        try:
            n = len(args)
            if self.max_in is not None and n > self.max_in:
                raise error("MATLAB:TooManyInputs", "Too many input arguments.")
            if n < self.min_in:
                raise error("MATLAB:minrhs", "Not enough input arguments.")
            if self.max_out is not None and nargout > self.max_out:
                raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
            declined = None
            for a in args:
                route = CALL_ROUTES.get(type(a))  # one lookup an argument on the common path
                # a route sees all the arguments, so one that declined declines again
                if route is not None and route is not declined:
                    out = route(self, interp, args, nargout)
                    if out is not NotImplemented:
                        return out
                    declined = route
            return self.invoke(interp, args, nargout)
        except MatlabError as exc:
            if not exc.exc.function:
                exc.exc.function = self.name
            raise

    def invoke(self, interp: Any, args: list, nargout: int) -> list:
        """Call without the argument checks."""
        if self.wants_interp:
            out = (self.fn(interp, *args, nargout=nargout) if self.wants_nargout
                   else self.fn(interp, *args))
        else:
            out = self.fn(*args, nargout=nargout) if self.wants_nargout else self.fn(*args)
        if out is None:
            return []
        if type(out) is tuple:
            return list(out)
        return [out]


BUILTINS: dict[str, Builtin] = {}
# Gradient rules call builtins by name: the autodiff layer gets the table from here.
ops.use_builtins(BUILTINS)


def _dl_route(builtin: Builtin, interp: Any, args: list, nargout: int) -> Any:
    """A call with a dlarray argument is traced, unless the builtin takes dlarrays as they are."""
    if builtin.dl == "native" or builtin.dl == "traced":
        return NotImplemented
    return dl_call(builtin, interp, args, nargout)


# Argument classes whose calls take another route: dlarray (traced) and sparse matrices join
# the object kinds that route their own calls (datetime, duration...).
CALL_ROUTES[DlArray] = _dl_route
for _sparse_type in SPARSE_TYPES:
    CALL_ROUTES[_sparse_type] = sparse_call

# The package whose modules register the builtin functions.
LIBRARY = "mlang.builtins"


def builtin(name: str | None = None, *, nargout: bool = False, interp: bool = False,
            max_out: int | None = 1, help: str | None = None,
            gradient: abc.Callable | None = None, dl: str | None = None,
            argument_names: bool = False) -> abc.Callable:
    """Register a builtin.  Input counts come from the Python signature."""

    def register(fn: abc.Callable) -> abc.Callable:
        params = list(inspect.signature(fn).parameters.values())
        wanted = next((p for p in params if p.name == "nargout"), None)
        if nargout and (wanted is None or wanted.kind != wanted.KEYWORD_ONLY):
            # a positional nargout would be counted as a MATLAB input
            raise TypeError(f"builtin {fn.__name__}: nargout must be a keyword-only parameter")
        if interp:
            params = params[1:]
        params = [p for p in params if p.kind != p.KEYWORD_ONLY]
        variadic = any(p.kind == p.VAR_POSITIONAL for p in params)
        fixed = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        min_in = sum(1 for p in fixed if p.default is p.empty)
        entry = Builtin(
            name=name or fn.__name__.rstrip("_"),
            fn=fn,
            min_in=min_in,
            max_in=None if variadic else len(fixed),
            max_out=max_out,
            help=inspect.cleandoc(help or fn.__doc__ or ""),
            wants_nargout=nargout,
            wants_interp=interp,
            gradient=gradient,
            dl="differentiable" if gradient is not None else dl,
            wants_argument_names=argument_names,
        )
        if entry.name in BUILTINS:
            raise ValueError(f"builtin {entry.name} registered twice")
        BUILTINS[entry.name] = entry
        return fn

    return register


def load_all() -> dict[str, Builtin]:
    """Import every module of the builtin library (they register themselves) and return the
    registry.  The library is this layer's plug-in, found by name, so the registry never
    imports the layers above it."""
    package = importlib.import_module(LIBRARY)
    for info in pkgutil.walk_packages(package.__path__, LIBRARY + "."):
        importlib.import_module(info.name)
    return BUILTINS
