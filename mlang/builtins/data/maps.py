"""containers.Map: the constructor and the functions keys, values, isKey and remove
(the map itself is ``mlang.values.containers_map.MapObject``)."""

from __future__ import annotations

from typing import Any

from mlang.builtins.coerce import NUMERIC_OR_LOGICAL, option_flag, options, text_option, text_or_none
from mlang.errors import error
from mlang.registry import builtin
from mlang.values import indexing
from mlang.values.cell import Cell
from mlang.values.containers_map import KEY_TYPES, VALUE_TYPES, MapObject
from mlang.values.core import class_of, is_text, numel, to_array
from mlang.values.string import StringArray

MAP_OPTIONS = ("KeyType", "ValueType", "UniformValues")


def _require_map(m: Any, fn: str) -> MapObject:
    if type(m) is not MapObject:
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{fn}' for input arguments of type '{class_of(m)}'.")
    return m


@builtin(name="containers.Map", dl="native")
def containers_map(*args: Any) -> MapObject:
    """M = containers.Map creates an empty map (char keys, any values).

    M = containers.Map(keySet, valueSet) maps each key to the matching value.
    M = containers.Map(keySet, valueSet, 'UniformValues', false) allows values
    of any type. M = containers.Map('KeyType', kType, 'ValueType', vType)
    creates an empty map for those key and value types."""
    if not args:
        return MapObject()
    if text_option(args[0]) in ("keytype", "valuetype"):
        given = _map_options(args)
        return MapObject(given.get("KeyType", "char"), given.get("ValueType", "any"))
    if len(args) < 2:
        raise error("MATLAB:Containers:Map:NoValues",
                    "The number of keys and values must be the same.")
    given = _map_options(args[2:])
    if set(given) - {"UniformValues"}:
        raise error("MATLAB:Containers:Map:InvalidOption",
                    "Only 'UniformValues' can be given with keys and values.")
    keys, key_type = _map_keys(args[0])
    values = _map_values(args[1], len(keys))
    uniform = given.get("UniformValues", True)
    m = MapObject(key_type, _value_type(values) if uniform else "any")
    for k, v in zip(keys, values, strict=True):
        m.subsasgn_paren([k], v)
    return m


def _map_options(args: tuple) -> dict[str, Any]:
    """The options of containers.Map: 'KeyType' and 'ValueType' (checked names of types)
    and 'UniformValues' (a flag)."""
    found = options(args, MAP_OPTIONS)
    for name, value in found.items():
        if name == "UniformValues":
            found[name] = option_flag(value, name)
            continue
        text = text_or_none(value)
        allowed = KEY_TYPES if name == "KeyType" else VALUE_TYPES
        if text not in allowed:
            raise error(f"MATLAB:Containers:Map:Unsupported{name}",
                        f"Unsupported {name} '{text or ''}' specified. Valid values are "
                        + ", ".join(f"'{t}'" for t in allowed) + ".")
        found[name] = text
    return found


def _map_keys(keys: Any) -> tuple[list, str]:
    """The keys of containers.Map(keys, values) and the KeyType they imply."""
    if type(keys) is Cell:
        items = keys.values()
    elif type(keys) is StringArray:
        items = [StringArray.scalar(s or "") for s in keys.data.ravel(order="F")]
    elif is_text(keys):
        return [keys], "char"
    elif class_of(keys) in NUMERIC_OR_LOGICAL:
        a = to_array(keys)
        cls = class_of(keys)
        key_type = cls if cls in KEY_TYPES else "double"
        return [indexing.index(keys, [float(k + 1)]) for k in range(a.size)], key_type
    else:
        raise error("MATLAB:Containers:Map:InvalidKeyType",
                    "Specified key type does not match the type expected for this container.")
    if all(is_text(k) for k in items):
        return items, "char"
    if all(class_of(k) in NUMERIC_OR_LOGICAL and numel(k) == 1 for k in items):
        return items, "double"
    raise error("MATLAB:Containers:Map:InvalidKeyType",
                "Specified key type does not match the type expected for this container.")


def _map_values(values: Any, n: int) -> list:
    if type(values) is Cell:
        items = values.values()
    elif n == 1:
        items = [values]
    elif class_of(values) in NUMERIC_OR_LOGICAL or type(values) is StringArray:
        items = [indexing.index(values, [float(k + 1)]) for k in range(numel(values))]
    else:
        items = [values]
    if len(items) != n:
        raise error("MATLAB:Containers:Map:NumKeysValuesMismatch",
                    "The number of keys and values must be the same.")
    return items


def _value_type(values: list) -> str:
    """The ValueType of a map made from uniform values: their class when all are scalars of
    one class, 'char' when all are character vectors, else 'any'."""
    if not values:
        return "any"
    classes = {class_of(v) for v in values}
    if len(classes) != 1:
        return "any"
    cls = classes.pop()
    if cls == "char":
        ok = all(v.ndim == 2 and v.shape[0] <= 1 for v in values)
        return "char" if ok else "any"
    if cls in VALUE_TYPES and all(numel(v) == 1 for v in values):
        return cls
    return "any"


@builtin()
def keys(m: Any) -> Cell:
    """keySet = keys(M) returns the keys of Map M, sorted, in a 1-by-n cell array."""
    return _require_map(m, "keys").keys_cell()


@builtin()
def values(m: Any, key_set: Any = None) -> Cell:
    """valueSet = values(M) returns the values of Map M in the order of keys(M).

    values(M, keySet) returns the values for the keys in cell array keySet."""
    return _require_map(m, "values").values_cell(key_set)


@builtin()
def isKey(m: Any, key: Any) -> Any:
    """tf = isKey(M, key) is true when Map M has the key (a cell of keys gives an array)."""
    return _require_map(m, "isKey").is_key(key)


@builtin()
def remove(m: Any, key: Any) -> MapObject:
    """M = remove(M, keySet) removes the keys (a key or a cell of keys) from Map M."""
    return _require_map(m, "remove").remove(key)
