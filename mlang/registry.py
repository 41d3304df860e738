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
import sys
from collections import abc
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import dl_call
from mlang.errors import MatlabError, error
from mlang.values.categorical import CategoricalArray
from mlang.values.objects import CALL_ROUTES
from mlang.values.sparse import SPARSE_TYPES
from mlang.values.sparse_calls import sparse_call
from mlang.values.table import Table

# Builtins that take dlarrays as they are (``dl`` modes): no route for them.
_TAKES_DLARRAYS = ("native", "traced")
_ROUTES_BUT_DLARRAY = CALL_ROUTES.without(DlArray)

# What ``Builtin.direct_value``'s call gives when the function returns no value.
MISSING_VALUE = object()
# An argument a call site does not pass as a literal (see ``Builtin.specialize``).
MISSING_LITERAL = object()


def _only_value(out: Any) -> Any:
    """The first of what a builtin's function returned (a tuple of outputs, one output,
    or None: none)."""
    if out is None:
        return MISSING_VALUE
    if type(out) is tuple:
        return out[0] if out else MISSING_VALUE
    return out


def first_value(out: Any) -> Any:
    """What a direct value gives for what the function returned (MISSING_VALUE for none)."""
    return _only_value(out) if out is None or type(out) is tuple else out


def _specialized_of(common: abc.Callable[[list], Any], listed: abc.Callable[[Any, list], Any],
                    count: int) -> abc.Callable[..., Any]:
    """``direct_value``'s specialized call taking its one or two arguments as they are:
    ``common`` on them, ``listed`` (the general direct value) when it declines."""
    if count == 1:
        def specialized_one(interp: Any, a: Any) -> Any:
            value = common([a])
            return listed(interp, [a]) if value is NotImplemented else value
        return specialized_one

    def specialized_two(interp: Any, a: Any, b: Any) -> Any:
        value = common([a, b])
        return listed(interp, [a, b]) if value is NotImplemented else value
    return specialized_two


def _first(outputs: list) -> Any:
    """The first of a list of outputs."""
    return outputs[0] if outputs else MISSING_VALUE


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
    # Output index -> the input index whose arrays that output may be written into (an
    # optimizer's new parameters into the old ones): see ``call_donating``.
    reuses: dict[int, int] | None = None
    # Given the arguments a call site passes as literals (MISSING_LITERAL for the others), a
    # function of the arguments giving the one value for the common case (NotImplemented for
    # any other), or None: see ``direct_value``.
    specialize: abc.Callable[[tuple], abc.Callable[[list], Any] | None] | None = None

    # Set from the fields above (__post_init__): the counts as plain numbers, and whether
    # the function takes the MATLAB arguments alone, so the common call is one test each.
    max_in_count: int = field(default=0, init=False)
    max_out_count: int = field(default=0, init=False)
    plain: bool = field(default=False, init=False)
    # The argument classes whose calls take another route (CALL_ROUTES): without dlarray
    # for a function that takes dlarrays as they are, whose route would only decline.
    routes: dict = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.max_in_count = sys.maxsize if self.max_in is None else self.max_in
        self.max_out_count = sys.maxsize if self.max_out is None else self.max_out
        self.plain = not (self.wants_interp or self.wants_nargout)
        self.routes = _ROUTES_BUT_DLARRAY if self.dl in _TAKES_DLARRAYS else CALL_ROUTES

    def call(self, interp: Any, args: list, nargout: int, frame: Any = None) -> list:
        """Call with MATLAB's argument checks; always returns a list of outputs.  An error
        not yet labelled with a function is labelled with this one ("Error using f")."""
        try:
            n = len(args)
            if n > self.max_in_count or n < self.min_in or nargout > self.max_out_count:
                self._check_counts(n, nargout)
            routes = self.routes
            for a in args:
                if type(a) in routes:  # one lookup an argument on the common path
                    return self._routed(interp, args, nargout)
            if self.plain:
                out = self.fn(*args)
            elif self.wants_interp:
                out = (self.fn(interp, *args, nargout=nargout) if self.wants_nargout
                       else self.fn(interp, *args))
            else:
                out = self.fn(*args, nargout=nargout)
            if type(out) is tuple:
                return list(out)
            return [] if out is None else [out]
        except MatlabError as exc:
            if not exc.exc.function:
                exc.exc.function = self.name
            raise

    def direct_call(self, interp: Any, count: int, nargout: int
                    ) -> abc.Callable[[Any, list, int], list] | None:
        """What a call site passing ``count`` arguments for ``nargout`` outputs may call
        instead of ``call``: ``call_plain`` or ``call_counted`` when the counts fit (checked
        once, here), else None."""
        if self.min_in <= count <= self.max_in_count and nargout <= self.max_out_count:
            return self.call_plain if self.plain else self.call_counted
        return None

    def direct_value(self, interp: Any, count: int, literals: tuple = ()
                     ) -> abc.Callable[[Any, list], Any] | None:
        """What a call site passing ``count`` arguments for its one value may call instead of
        ``direct_call``'s call for nargout 1: the value itself, with no list around it
        (MISSING_VALUE when the function gives none), or None when the counts do not fit.
        ``literals``: the site's arguments known when it is compiled (MISSING_LITERAL for the
        others), for the function's ``specialize``."""
        general = self._direct_value(count)
        if general is None or self.specialize is None or len(literals) != count:
            return general
        common = self.specialize(literals)
        if common is None:
            return general

        def specialized(interp: Any, args: list) -> Any:
            value = common(args)
            return general(interp, args) if value is NotImplemented else value

        return specialized

    def _direct_value(self, count: int) -> abc.Callable[[Any, list], Any] | None:
        """``direct_value`` but for ``specialize``: the call of ``fn`` written in one
        function (``nargout=1`` passed when the function takes it: a keyword in the call
        costs less than a partial)."""
        if not (self.min_in <= count <= self.max_in_count and self.max_out_count >= 1):
            return None
        fn, one_output = self.fn, self.wants_nargout
        wants_interp, routes_only, routes, label = self.wants_interp, self._routes_only, self.routes, \
            self.label

        def value(interp: Any, args: list) -> Any:
            try:
                for a in args:
                    if type(a) in routes:
                        routed = routes_only(interp, args, 1)
                        if routed is not NotImplemented:
                            return _first(routed)
                        break  # every route declined: the function itself
                if one_output:
                    out = fn(interp, *args, nargout=1) if wants_interp else fn(*args, nargout=1)
                else:
                    out = fn(interp, *args) if wants_interp else fn(*args)
            except MatlabError as exc:
                label(exc)
                raise
            return _only_value(out) if out is None or type(out) is tuple else out

        return value

    def direct_value_of(self, count: int, literals: tuple = ()) -> abc.Callable[..., Any] | None:
        """``direct_value`` for a site passing one or two arguments (``literals`` as for
        ``direct_value``), taking them as they are, ``value(interp, a)`` or ``value(interp,
        a, b)``; None for other counts."""
        if count not in (1, 2) or not (self.min_in <= count <= self.max_in_count
                                       and self.max_out_count >= 1):
            return None
        listed = self._direct_value(count)
        common = self.specialize(literals) if self.specialize is not None \
            and len(literals) == count else None
        if common is not None:
            return _specialized_of(common, listed, count)  # type: ignore[arg-type]
        fn, one_output = self.fn, self.wants_nargout
        routes, label = self.routes, self.label
        if self.wants_interp:
            def with_interp(interp: Any, *args: Any) -> Any:
                return listed(interp, list(args))  # type: ignore[misc]
            return with_interp
        if count == 1:
            def one(interp: Any, a: Any) -> Any:
                if type(a) in routes:
                    return listed(interp, [a])  # type: ignore[misc]
                try:
                    out = fn(a, nargout=1) if one_output else fn(a)
                except MatlabError as exc:
                    label(exc)
                    raise
                return _only_value(out) if out is None or type(out) is tuple else out
            return one

        def two(interp: Any, a: Any, b: Any) -> Any:
            if type(a) in routes or type(b) in routes:
                return listed(interp, [a, b])  # type: ignore[misc]
            try:
                out = fn(a, b, nargout=1) if one_output else fn(a, b)
            except MatlabError as exc:
                label(exc)
                raise
            return _only_value(out) if out is None or type(out) is tuple else out
        return two

    def inline_call(self, count: int, literals: tuple = ()
                    ) -> tuple[abc.Callable[..., Any], dict, bool] | None:
        """What a call site passing ``count`` arguments (``literals`` as for ``direct_value``)
        for its one value needs to call the function itself, as ``direct_value_of``'s call
        does: (the function, the argument classes that route their calls elsewhere, whether
        the function takes ``nargout=1``).  The site calls ``fn(*args)`` (or ``fn(*args,
        nargout=1)``) when no argument's class is in the routes, labels a MatlabError with
        ``label``, and takes the first output of a tuple or None as ``first_value`` does.
        None when the counts do not fit, the function wants the interpreter, or it
        specializes on the site's literals."""
        if self.wants_interp or not (self.min_in <= count <= self.max_in_count
                                     and self.max_out_count >= 1):
            return None
        if self.specialize is not None and len(literals) == count \
                and self.specialize(literals) is not None:
            return None
        return self.fn, self.routes, self.wants_nargout

    def label(self, exc: MatlabError) -> None:
        """Label ``exc`` with this function ("Error using f") unless it has a function."""
        if not exc.exc.function:
            exc.exc.function = self.name

    def call_plain(self, interp: Any, args: list, nargout: int) -> list:
        """``call`` of a function that takes the MATLAB arguments alone, for counts already
        known to fit."""
        try:
            routes = self.routes
            for a in args:
                if type(a) in routes:  # one lookup an argument on the common path
                    routed = self._routes_only(interp, args, nargout)
                    if routed is not NotImplemented:
                        return routed
                    break  # every route declined: the function itself
            out = self.fn(*args)
            if type(out) is tuple:
                return list(out)
            return [] if out is None else [out]
        except MatlabError as exc:
            if not exc.exc.function:
                exc.exc.function = self.name
            raise

    def call_counted(self, interp: Any, args: list, nargout: int) -> list:
        """``call`` for counts already known to fit."""
        try:
            routes = self.routes
            for a in args:
                if type(a) in routes:
                    routed = self._routes_only(interp, args, nargout)
                    if routed is not NotImplemented:
                        return routed
                    break  # every route declined: the function itself
            if self.wants_interp:
                out = (self.fn(interp, *args, nargout=nargout) if self.wants_nargout
                       else self.fn(interp, *args))
            else:
                out = self.fn(*args, nargout=nargout) if self.wants_nargout else self.fn(*args)
            if type(out) is tuple:
                return list(out)
            return [] if out is None else [out]
        except MatlabError as exc:
            if not exc.exc.function:
                exc.exc.function = self.name
            raise

    def call_donating(self, interp: Any, args: list, nargout: int, candidates: list[int]) -> list:
        """``call`` for a statement ``[..., x, ...] = f(..., x, ...)`` whose target ``x`` is the
        variable passed as input ``i`` where ``reuses`` pairs them, for each ``i`` in
        ``candidates``.  An input the caller's workspace and ``args`` alone hold is donated:
        the function gets those inputs as the keyword ``donated`` (a frozenset of input
        indices) and may write the arrays inside them that nothing else reaches in place,
        once every check that can raise has passed."""
        try:
            n = len(args)
            if n > self.max_in_count or n < self.min_in or nargout > self.max_out_count:
                self._check_counts(n, nargout)
            if any(map(self.routes.__contains__, map(type, args))):
                out = self._routes_only(interp, args, nargout)
                if out is not NotImplemented:
                    return out
            getrefcount = sys.getrefcount
            # references to a donated input: the workspace's, the list's, getrefcount's argument
            donated = frozenset([i for i in candidates if getrefcount(args[i]) <= 3])
            if self.wants_interp:
                out = (self.fn(interp, *args, nargout=nargout, donated=donated) if self.wants_nargout
                       else self.fn(interp, *args, donated=donated))
            else:
                out = (self.fn(*args, nargout=nargout, donated=donated) if self.wants_nargout
                       else self.fn(*args, donated=donated))
            if type(out) is tuple:
                return list(out)
            return [] if out is None else [out]
        except MatlabError as exc:
            if not exc.exc.function:
                exc.exc.function = self.name
            raise

    def _check_counts(self, n: int, nargout: int) -> None:
        if n > self.max_in_count:
            raise error("MATLAB:TooManyInputs", "Too many input arguments.")
        if n < self.min_in:
            raise error("MATLAB:minrhs", "Not enough input arguments.")
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")

    def _routes_only(self, interp: Any, args: list, nargout: int) -> Any:
        """``_routed`` without the function itself: NotImplemented when every route declines
        (a function of its own, so that no local of the caller is left holding an argument)."""
        declined = None
        for a in args:
            route = CALL_ROUTES.get(type(a))
            # a route sees all the arguments, so one that declined declines again
            if route is not None and route is not declined:
                out = route(self, interp, args, nargout)
                if out is not NotImplemented:
                    return out
                declined = route
        return NotImplemented

    def _routed(self, interp: Any, args: list, nargout: int) -> list:
        """A call with an argument whose class routes its own calls (dlarray, sparse,
        tables, objects): each route in turn, then the function itself."""
        out = self._routes_only(interp, args, nargout)
        return self.invoke(interp, args, nargout) if out is NotImplemented else out

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


class Registry(dict):
    """The builtins by name, filled on first use.

    A builtin's module is imported the first time its name is looked up (``[]``, ``get``,
    ``in``): the library index (``mlang.builtins.function_index``, written by ``python -m
    mlang.builtins --write-index`` and checked by a test) says which module registers which
    name.  So a program loads only the families it calls, and start-up loads none.  Names
    can be listed without loading anything; ``items``/``values`` load the whole library."""

    def __init__(self) -> None:
        super().__init__()
        self._index: dict[str, str] | None = None
        # while the library is scanned for the index: the module each name is registered by
        self.scanned_modules: dict[str, str] | None = None

    def index(self) -> dict[str, str]:
        """Name -> module (relative to the library package) of every builtin of the library."""
        if self._index is None:
            try:
                self._index = importlib.import_module(LIBRARY + ".function_index").MODULES
            except ImportError:  # an index not written yet: the names come from a scan
                self._index = {}
        return self._index

    def _load(self, name: str) -> bool:
        """Import the module that registers ``name``; whether the name is now registered."""
        module = self.index().get(name)
        if module is None:
            return False
        importlib.import_module(f"{LIBRARY}.{module}")
        return dict.__contains__(self, name)

    def __missing__(self, name: str) -> Builtin:
        if self._load(name):
            return dict.__getitem__(self, name)
        raise KeyError(name)

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        entry = dict.get(self, name)
        if entry is None and self._load(name):
            return dict.__getitem__(self, name)
        return default if entry is None else entry

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or (type(name) is str and self._load(name))

    def names(self) -> set[str]:
        """Every builtin's name, loaded or not (nothing is imported)."""
        return set(self.index()) | set(dict.keys(self))

    def __iter__(self) -> abc.Iterator[str]:  # type: ignore[override]
        return iter(sorted(self.names()))

    def keys(self) -> Any:  # type: ignore[override]
        return sorted(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def items(self) -> Any:  # type: ignore[override]
        load_all()
        return dict.items(self)

    def values(self) -> Any:  # type: ignore[override]
        load_all()
        return dict.values(self)


BUILTINS = Registry()
# Gradient rules call builtins by name: the autodiff layer gets the table from here.
ops.use_builtins(BUILTINS)


def _dl_route(builtin: Builtin, interp: Any, args: list, nargout: int) -> Any:
    """A call with a dlarray argument is traced, unless the builtin takes dlarrays as they are."""
    if builtin.dl in _TAKES_DLARRAYS:
        return NotImplemented
    return dl_call(builtin, interp, args, nargout)


# Argument classes whose calls take another route: dlarray (traced) and sparse matrices join
# the object kinds that route their own calls (datetime, duration...).
CALL_ROUTES[DlArray] = _dl_route
for _sparse_type in SPARSE_TYPES:
    CALL_ROUTES[_sparse_type] = sparse_call

# Value classes whose calls are answered from tables that library modules fill as they load
# (a table's own sortrows and join, categorical forms, sparse forms).  Such a value can be
# made by a module that does not fill them (readtable, load), so the first call routed for
# the class imports the modules that do.
COMPANION_MODULES: dict[type, tuple[str, ...]] = {
    Table: ("data.tables", "data.table_functions", "data.table_joins"),
    CategoricalArray: ("data.categoricals",),
    **{sparse_type: ("math.sparse",) for sparse_type in SPARSE_TYPES},
}


def _loading_route(cls: type, modules: tuple[str, ...]) -> abc.Callable[..., Any]:
    loaded_route = CALL_ROUTES[cls]

    def route(builtin: Builtin, interp: Any, args: list, nargout: int) -> Any:
        for module in modules:
            importlib.import_module(f"{LIBRARY}.{module}")
        CALL_ROUTES[cls] = loaded_route
        return loaded_route(builtin, interp, args, nargout)

    return route


for _cls, _modules in COMPANION_MODULES.items():
    CALL_ROUTES[_cls] = _loading_route(_cls, _modules)

# The package whose modules register the builtin functions.
LIBRARY = "mlang.builtins"


def builtin(name: str | None = None, *, nargout: bool = False, interp: bool = False,
            max_out: int | None = 1, help: str | None = None,
            gradient: abc.Callable | None = None, dl: str | None = None,
            argument_names: bool = False, reuses: dict[int, int] | None = None,
            specialize: abc.Callable | None = None) -> abc.Callable:
    """Register a builtin.  Input counts come from the Python signature.  ``reuses`` maps an
    output to the input whose arrays it may be written into (``Builtin.call_donating``)."""

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
            reuses=reuses,
            specialize=specialize,
        )
        if dict.__contains__(BUILTINS, entry.name):
            raise ValueError(f"builtin {entry.name} registered twice")
        BUILTINS[entry.name] = entry
        if BUILTINS.scanned_modules is not None:
            BUILTINS.scanned_modules[entry.name] = _registering_module()
        return fn

    return register


def library() -> Registry:
    """The registry of builtins, its modules imported on first use (the library package
    itself is imported now: it plugs the display into the interpreter)."""
    importlib.import_module(LIBRARY)
    return BUILTINS


def load_all() -> Registry:
    """Import every module of the builtin library (they register themselves) and return the
    registry.  The library is this layer's plug-in, found by name, so the registry never
    imports the layers above it."""
    import pkgutil  # (only when a family or the whole library loads: a cost at start-up)

    package = importlib.import_module(LIBRARY)
    for info in pkgutil.walk_packages(package.__path__, LIBRARY + "."):
        importlib.import_module(info.name)
    return BUILTINS


def load_family(package: str) -> None:
    """Import every module of a family of builtins: a family whose modules add properties,
    methods or call forms to each other's objects as they load calls this from its
    ``__init__``, so that the first of its functions called loads the whole family."""
    import pkgutil  # (as above)

    for info in pkgutil.iter_modules(importlib.import_module(package).__path__):
        importlib.import_module(f"{package}.{info.name}")


def scan_library() -> dict[str, str]:
    """Name -> registering module (relative to the library) of every builtin: the library
    index.  Run in a fresh process, before anything of the library is imported."""
    BUILTINS.scanned_modules = {}
    try:
        load_all()
        return dict(sorted(BUILTINS.scanned_modules.items()))
    finally:
        BUILTINS.scanned_modules = None


def _registering_module() -> str:
    """The library module whose top-level code is registering a builtin now (a helper of
    another module may be doing the registering on its behalf)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_name != "<module>":
        frame = frame.f_back
    name = frame.f_globals.get("__name__", "") if frame is not None else ""
    return name.removeprefix(LIBRARY + ".")
