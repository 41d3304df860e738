"""MATLAB's ``containers.Map``: a handle object mapping char or numeric keys to values.

A Map is a handle: every variable holding it sees the same entries, so
``m2 = m; m2('k') = 1`` changes ``m`` too.  That is why, unlike every other
value in mlang, a ``MapObject`` is mutated in place.

Keys are held as Python ``str`` (KeyType char) or numbers (the numeric key
types); ``keys(m)`` lists them sorted, character keys by character code
(uppercase before lowercase) as MATLAB does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.core import (
    CHAR,
    INT_CLASSES,
    char_row,
    class_of,
    is_text,
    numel,
    result,
    scalar_value,
    to_array,
    to_str,
)
from mlang.values.handle import FunctionHandle
from mlang.values.objects import DisplayText, MatlabObject
from mlang.values.operators import to_class

KEY_TYPES = ("char", "double", "single", "int32", "uint32", "int64", "uint64")
VALUE_TYPES = ("any", "char", "logical", "double", "single", *INT_CLASSES)


def no_key() -> Exception:
    return error("MATLAB:Containers:Map:NoKey", "The specified key is not present in this container.")


def key_type_mismatch() -> Exception:
    return error("MATLAB:Containers:TypeMismatch",
                 "Specified key type does not match the type expected for this container.")


def value_type_mismatch() -> Exception:
    return error("MATLAB:Containers:TypeMismatch",
                 "Specified value type does not match the type expected for this container.")


class MapObject(MatlabObject):
    """A ``containers.Map``: ``entries`` maps normalised keys to MATLAB values."""

    matlab_class = "containers.Map"
    display_name = "Map"
    __slots__ = ("key_type", "value_type", "entries")

    def __init__(self, key_type: str = "char", value_type: str = "any") -> None:
        self.key_type = key_type
        self.value_type = value_type
        self.entries: dict[Any, Any] = {}

    # ------------------------------------------------------------ size

    @property
    def shape(self) -> tuple[int, int]:
        """size(M) is [Count 1] (so length(M) is Count)."""
        return (len(self.entries), 1)

    @property
    def count(self) -> int:
        return len(self.entries)

    # ------------------------------------------------------------ keys

    def normalise_key(self, key: object) -> Any:
        """The dict key for a MATLAB key value (errors when its type does not fit)."""
        if self.key_type == "char":
            if not is_text(key) or (type(key) is np.ndarray and key.ndim == 2 and key.shape[0] > 1):
                raise key_type_mismatch()
            return to_str(key)
        if is_text(key) or class_of(key) not in ("double", "single", "logical", *INT_CLASSES) \
                or numel(key) != 1:
            raise key_type_mismatch()
        x = scalar_value(key)
        if isinstance(x, complex):
            raise key_type_mismatch()
        if self.key_type in ("double", "single"):
            return float(np.float32(x)) if self.key_type == "single" else float(x)
        if isinstance(x, int) and not isinstance(x, bool):
            return x
        return int(to_class(np.array([[float(x)]]), self.key_type)[0, 0])

    def key_value(self, key: Any) -> object:
        """The MATLAB value of a stored key (what keys(M) lists)."""
        if self.key_type == "char":
            return char_row(key) if key else np.zeros((1, 0), dtype=CHAR)
        if self.key_type == "double":
            return float(key)
        return np.array([[key]], dtype=self.key_type)

    def sorted_keys(self) -> list:
        return sorted(self.entries)

    # ---------------------------------------------------------- values

    def check_value(self, value: object) -> object:
        """The value as stored under this map's ValueType (errors when it does not fit)."""
        vt = self.value_type
        if vt == "any":
            return value
        if vt == "char":
            if type(value) is np.ndarray and value.dtype.kind == "V" and \
                    (value.ndim == 2 and value.shape[0] <= 1):
                return value
            raise value_type_mismatch()
        cls = class_of(value)
        if cls not in ("double", "single", "logical", *INT_CLASSES) or numel(value) != 1:
            raise value_type_mismatch()
        if cls == vt:
            return value
        a = to_array(value)
        if vt == "double":
            return result(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
        return result(to_class(a, vt))

    # --------------------------------------------------------- indexing

    def subsref_paren(self, args: list) -> object:
        """``M(key)``: the value stored under key."""
        if len(args) != 1:
            raise error("MATLAB:Containers:Map:OnlyOneKey",
                        "Only one key can be specified for a containers.Map.")
        key = self.normalise_key(args[0])
        try:
            return self.entries[key]
        except KeyError:
            raise no_key() from None

    def subsasgn_paren(self, args: list, rhs: object) -> MapObject:
        """``M(key) = value``: stores in place (a Map is a handle) and returns the map."""
        if len(args) != 1:
            raise error("MATLAB:Containers:Map:OnlyOneKey",
                        "Only one key can be specified for a containers.Map.")
        self.entries[self.normalise_key(args[0])] = self.check_value(rhs)
        return self

    # ---------------------------------------------------------- methods

    def keys_cell(self) -> Cell:
        return Cell.row([self.key_value(k) for k in self.sorted_keys()])

    def values_cell(self, key_set: object = None) -> Cell:
        if key_set is None:
            return Cell.row([self.entries[k] for k in self.sorted_keys()])
        if type(key_set) is not Cell:
            raise error("MATLAB:Containers:Map:KeySetNotCell",
                        "Key set must be specified as a cell array.")
        data = np.empty(key_set.shape, dtype=object)
        flat_in = key_set.data.reshape(-1)
        flat_out = data.reshape(-1)
        for i in range(flat_in.size):
            key = self.normalise_key(flat_in[i])
            if key not in self.entries:
                raise no_key()
            flat_out[i] = self.entries[key]
        return Cell(data)

    def is_key(self, key: object) -> object:
        if type(key) is Cell:
            out = np.zeros(key.shape, dtype=bool)
            flat_in = key.data.reshape(-1)
            flat_out = out.reshape(-1)
            for i in range(flat_in.size):
                flat_out[i] = self._has(flat_in[i])
            return result(out)
        return self._has(key)

    def _has(self, key: object) -> bool:
        return self.normalise_key(key) in self.entries

    def remove(self, key: object) -> MapObject:
        """Removes the keys (all must be present first) and returns the map."""
        keys = key.values() if type(key) is Cell else [key]
        normalised = [self.normalise_key(k) for k in keys]
        for k in normalised:
            if k not in self.entries:
                raise no_key()
        for k in normalised:
            self.entries.pop(k, None)
        return self

    def method(self, name: str) -> Callable[[list], object] | None:
        """The method ``name`` as a function of its further arguments (None: no such method)."""
        methods: dict[str, Callable[[list], object]] = {
            "keys": lambda args: self.keys_cell(),
            "values": lambda args: self.values_cell(*args[:1]),
            "isKey": lambda args: self.is_key(*args[:1]),
            "remove": lambda args: self.remove(*args[:1]),
            "length": lambda args: float(self.count),
        }
        return methods.get(name)

    def call_method(self, name: str, args: list) -> object:
        """``M.name(args...)``: a method call."""
        fn = self.method(name)
        if fn is None:
            raise error("MATLAB:noSuchMethodOrField",
                        f"Unrecognized method, property, or field '{name}' for class "
                        "'containers.Map'.")
        needs_arg = name in ("isKey", "remove")
        if len(args) > (1 if name in ("values", "isKey", "remove") else 0):
            raise error("MATLAB:TooManyInputs", "Too many input arguments.")
        if needs_arg and not args:
            raise error("MATLAB:minrhs", "Not enough input arguments.")
        return fn(args)

    # ------------------------------------------------------- properties

    def property_names(self) -> list[str]:
        return ["Count", "KeyType", "ValueType"]

    def get_property(self, name: str) -> object:
        """``M.Count``, ``M.KeyType``, ``M.ValueType``; ``M.keys`` etc. call the method."""
        if name == "Count":
            return float(self.count)
        if name == "KeyType":
            return char_row(self.key_type)
        if name == "ValueType":
            return char_row(self.value_type)
        if name in ("keys", "values", "length"):
            return self.call_method(name, [])
        if name in ("isKey", "remove"):
            return self._bound(name)
        raise error("MATLAB:noSuchMethodOrField",
                    f"Unrecognized method, property, or field '{name}' for class 'containers.Map'.")

    def set_property(self, name: str, value: object) -> MapObject:
        if name in ("Count", "KeyType", "ValueType"):
            raise error("MATLAB:class:SetProhibited",
                        f"Unable to set the '{name}' property of class 'containers.Map' because "
                        "it is read-only.")
        raise error("MATLAB:noPublicFieldForClass",
                    f"Unrecognized property '{name}' for class 'containers.Map'.")

    def _bound(self, name: str) -> object:
        """``M.isKey`` read as a value: a handle calling the method on this map, so that
        ``M.isKey(k)`` works while the evaluator treats it as indexing a handle."""
        def body(frame: Any, nargout: int) -> list:
            varargin = frame.vars.get("varargin")
            return [self.call_method(name, varargin.values() if varargin is not None else [])]

        return FunctionHandle(params=["varargin"], body=body, captured={},
                              text=f"@(varargin){name}(M,varargin{{:}})")

    # ---------------------------------------------------------- display

    def display_properties(self) -> list[tuple[str, Any]]:
        return [("Count", float(self.count)), ("KeyType", DisplayText(self.key_type)),
                ("ValueType", DisplayText(self.value_type))]

    def __repr__(self) -> str:
        return f"MapObject({self.key_type}->{self.value_type}, {self.count} entries)"
