"""The one protocol for MATLAB values with behaviour of their own (objects).

Numeric, logical and char arrays, cells, structs and strings are the values
layer's own business.  Every other class of value -- function handles,
``containers.Map``, MException, dlarray, and the classes still to come
(tables, networks, layers, datastores, graphics handles) -- plugs in here:
it subclasses ``MatlabObject`` and overrides the hooks it needs.  A class
defined below this layer (MException, in ``mlang.errors``) gets a subclass
that speaks for it, named by ``represents``.

Indexing, indexed assignment, field access, concatenation, operators and
display find an object's behaviour in one way only: ``kind_of(value)``, one
dictionary lookup by Python type, whose hooks are called with the value as
their first argument (``kind.get_property(value, name)``).  For a class that
subclasses ``MatlabObject`` itself, its kind is its own class, so the hooks
are ordinary methods.  ``class(x)`` is the class attribute ``matlab_class``.

A hook returning ``NotImplemented`` leaves the value to MATLAB's default
behaviour (usually an error naming the class).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from mlang.errors import error

# Python type of a value -> the MatlabObject subclass holding its behaviour.  Filled as
# classes are defined (code structure, the same in every interpreter), never at run time;
# hot paths test ``type(v) in OBJECT_KINDS`` before anything else.
OBJECT_KINDS: dict[type, type[MatlabObject]] = {}

# The Python types of objects called like functions (``call_as_function``): ``f(args)`` on
# such a value is a call, not indexing.
FUNCTION_LIKE: set[type] = set()

class RouteTable(dict):
    """Python type -> route, with copies that leave one type out (``without``) kept up to
    date as routes are set."""

    def __init__(self) -> None:
        super().__init__()
        self._copies: list[tuple[type, dict]] = []

    def __setitem__(self, cls: type, route: Any) -> None:
        dict.__setitem__(self, cls, route)
        for left_out, copy in self._copies:
            if cls is not left_out:
                copy[cls] = route

    def without(self, left_out: type) -> dict:
        """A plain dict of the routes of every type but ``left_out``, now and later."""
        copy = {cls: route for cls, route in self.items() if cls is not left_out}
        self._copies.append((left_out, copy))
        return copy


# Python type of a value -> how a builtin call with such a value among its arguments is
# made (``call_builtin``): filled for the kinds that override it, and by the registry for
# dlarray and sparse matrices.  The call path does one lookup an argument.
CALL_ROUTES: RouteTable = RouteTable()


def read_only_property(name: str, class_name: str) -> Exception:
    """MATLAB's error for assigning the read-only property ``name`` of a ``class_name``."""
    return error("MATLAB:class:SetProhibited",
                 f"Unable to set the '{name}' property of class '{class_name}' because it is "
                 "read-only.")


def kind_of(value: object) -> type[MatlabObject] | None:
    """The behaviour of an object value; None for arrays, cells, structs and strings."""
    return OBJECT_KINDS.get(type(value))


def binary_operator(symbol: str, a: object, b: object) -> Any:
    """``a symbol b`` by the first operand's kind that implements it (NotImplemented: none)."""
    kind = OBJECT_KINDS.get(type(a))
    if kind is not None:
        out = kind.binary_operator(symbol, a, b)
        if out is not NotImplemented:
            return out
    kind = OBJECT_KINDS.get(type(b))
    return NotImplemented if kind is None else kind.binary_operator(symbol, a, b)


def unary_operator(symbol: str, a: object) -> Any:
    """``symbol a`` by the operand's kind (NotImplemented: not an object, or no such hook)."""
    kind = OBJECT_KINDS.get(type(a))
    return NotImplemented if kind is None else kind.unary_operator(a, symbol)


class DisplayText(str):
    """A property value shown as this text, as is, in an object's display."""


class MatlabObject:
    """Base class of object values: every hook has MATLAB's default behaviour."""

    __slots__ = ()
    matlab_class: ClassVar[str] = ""
    # The class shown in a display's "Name with properties:" header (default: the last
    # part of matlab_class).
    display_name: ClassVar[str | None] = None
    # A class defined below the values layer that this subclass speaks for.
    represents: ClassVar[type | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        OBJECT_KINDS[cls.represents or cls] = cls
        if cls.call_builtin is not MatlabObject.call_builtin:
            CALL_ROUTES[cls.represents or cls] = cls.call_builtin
        if cls.call_as_function is not MatlabObject.call_as_function:
            FUNCTION_LIKE.add(cls.represents or cls)

    @property
    def shape(self) -> tuple[int, ...]:
        return (1, 1)

    # ------------------------------------------------------------ indexing

    def subsref_paren(self, args: list) -> Any:
        """``x(args...)``."""
        return NotImplemented

    def subsasgn_paren(self, args: list, rhs: Any) -> Any:
        """``x(args...) = rhs``: the new value of ``x``."""
        return NotImplemented

    def subsref_brace(self, args: list) -> Any:
        """``x{args...}``: the list of values it gives (a comma-separated list)."""
        return NotImplemented

    def subsasgn_brace(self, args: list, rhs: Any) -> Any:
        """``x{args...} = rhs``: the new value of ``x``."""
        return NotImplemented

    @staticmethod
    def assign_into(target: Any, args: list, rhs: Any) -> Any:
        """``target(args...) = rhs`` for a plain ``target`` and an ``rhs`` of this kind."""
        return NotImplemented

    @staticmethod
    def concatenate(rows: list[list]) -> Any:
        """``[row1; row2; ...]`` where some element is of this kind."""
        return NotImplemented

    def call_as_function(self, interp: Any, args: list, nargout: int) -> list:
        """``x(args...)``, ``feval(x, ...)`` and ``dlfeval(x, ...)`` for an object that is
        called like a function (an accelerated function): the list of its outputs."""
        raise NotImplementedError

    @staticmethod
    def call_builtin(builtin: Any, interp: Any, args: list, nargout: int) -> Any:
        """``builtin(args...)`` where an argument is of this kind: the list of outputs, or
        NotImplemented to leave the call to the builtin's own code.  ``builtin`` has
        ``name`` and ``invoke(interp, args, nargout)`` (a call without argument checks)."""
        return NotImplemented

    # -------------------------------------------- properties and methods

    def property_names(self) -> list[str]:
        return []

    def get_property(self, name: str) -> Any:
        """``x.name``: a property, or a method called without arguments."""
        raise error("MATLAB:noSuchMethodOrField",
                    f"Unrecognized method, property, or field '{name}' for class "
                    f"'{self.matlab_class}'.")

    def property_list(self, name: str) -> list:
        """``x.name`` as a comma-separated list: one value per element of an object array
        (``{layers.Name}``); one value by default."""
        return [OBJECT_KINDS[type(self)].get_property(self, name)]

    def set_property(self, name: str, value: Any) -> Any:
        """``x.name = value``: the new value of ``x``."""
        raise error("MATLAB:noPublicFieldForClass",
                    f"Unrecognized property '{name}' for class '{self.matlab_class}'.")

    def method(self, name: str) -> Callable[[list], Any] | None:
        """The method ``name`` as a function of its further arguments (None: none)."""
        return None

    def call_method(self, name: str, args: list) -> Any:
        """``x.name(args...)``."""
        fn = self.method(name)
        if fn is None:
            raise error("MATLAB:noSuchMethodOrField",
                        f"Unrecognized method, property, or field '{name}' for class "
                        f"'{self.matlab_class}'.")
        return fn(args)

    # ------------------------------------------------------------ operators

    @staticmethod
    def binary_operator(symbol: str, a: Any, b: Any) -> Any:
        """``a symbol b`` (MATLAB's symbol: ``+``, ``.*``, ``==``, ``&``...) where ``a``
        or ``b`` is of this kind."""
        return NotImplemented

    def columns(self) -> list | None:
        """The values ``for v = x`` takes, one per column; None: the object itself, once."""
        return None

    def unary_operator(self, symbol: str) -> Any:
        """``-x``, ``+x``, ``~x``, ``x.'`` or ``x'`` (symbols ``-``, ``+``, ``~``,
        ``.'``, ``'``)."""
        return NotImplemented

    # ---------------------------------------------------------------- text

    def text_elements(self) -> Any:
        """The elements as text, for ``string(x)``, ``char(x)`` and ``cellstr(x)``: an object
        ndarray of ``str`` (None for a missing element) shaped like the value; None when the
        class has no text form (the conversion errors name the class)."""
        return None

    def truth(self) -> bool:
        """The value as the condition of ``if`` or ``while`` (``values.core.is_true``)."""
        raise error("MATLAB:invalidConversion",
                    f"Conversion to logical from {self.matlab_class} is not possible.")

    # -------------------------------------------------------------- display

    def display_properties(self) -> list[tuple[str, Any]]:
        """The (name, value) pairs an object's display lists; a ``DisplayText`` value is
        shown as written."""
        return [(name, self.get_property(name)) for name in self.property_names()]

    def display_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        """The display's lines below ``x =`` when they are not a property list; None for the
        property list.  ``array_lines(a)`` gives the lines of a plain array's data."""
        return None

    def disp_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        """The lines ``disp(x)`` prints (default: those of the display's body)."""
        return OBJECT_KINDS[type(self)].display_body(self, style, array_lines)
