"""jsonencode: MATLAB values as JSON text, with MATLAB's mapping.

* a logical or numeric scalar is a JSON number or boolean; NaN and Inf are null
  (with ``ConvertInfAndNaN`` false: NaN, Infinity, -Infinity);
* a vector (1×n or n×1) is a flat array, a matrix an array of its rows, an N-D array
  nested arrays (the first dimension outermost); an empty array is [];
* a char row or string scalar is a string ('' is ""), a char matrix or string array
  an array of strings, a missing string null;
* a scalar struct or containers.Map is an object, a struct array an array of objects;
* a cell array is an array of its elements in column-major order;
* a table is an array of objects, one a row; a datetime or duration the text it shows.

Numbers are written with 15 significant digits when that reads back as the same double,
else with 17 (``3``, ``1.5``, ``1e+20``, ``3.1415926535897931``).
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none
from mlang.builtins.text.forms import is_char, row
from mlang.errors import error
from mlang.registry import BUILTINS, builtin
from mlang.values.cell import Cell
from mlang.values.containers_map import MapObject
from mlang.values.core import char_rows, char_text, class_of
from mlang.values.sparse import SPARSE_TYPES
from mlang.values.sparse_calls import SPARSE_AWARE
from mlang.values.string import StringArray
from mlang.values.struct import Struct


class Number(str):
    """A number already written as JSON text."""


def format_double(x: float) -> str:
    text = f"{x:.15g}"
    if float(text) != x:
        text = f"{x:.17g}"
    return text


def format_single(x: float) -> str:
    value = np.float32(x)
    text = f"{x:.7g}"
    if np.float32(float(text)) != value:
        text = f"{x:.9g}"
    return text


# Classes jsonencode writes through a conversion: a table as its rows (an array of
# objects), dates and durations as the text they display.
_CONVERSIONS = {"table": "table2struct", "datetime": "string", "duration": "string",
                "calendarDuration": "string", "categorical": "string"}


class Encoder:
    def __init__(self, interp: Any, convert_inf_nan: bool) -> None:
        self.interp = interp
        self.convert = convert_inf_nan

    def number(self, x: Any, cls: str) -> Any:
        if isinstance(x, (bool, np.bool_)):
            return bool(x)
        if cls not in ("double", "single"):
            return Number(str(int(x)))
        x = float(x)
        if not math.isfinite(x):
            if self.convert:
                return None
            return Number("NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity"))
        if x == 0:
            return Number("0")
        return Number(format_double(x) if cls == "double" else format_single(x))

    def encode(self, v: Any) -> Any:
        t = type(v)
        if t is bool:
            return v
        if t is float or t is int:
            return self.number(v, "double")
        if t is complex:
            raise _complex()
        if t is np.ndarray:
            return self.array(v)
        if t is StringArray:
            return self.layout(v.data, lambda s: s)
        if t is Cell:
            return [self.encode(x) for x in v.data.ravel(order="F")]
        if t is Struct:
            if v.elems.size == 1 and v.elems.ndim == 2:
                return self.struct_element(v.fields, v.element(0))
            return self.layout(v.elems, lambda d: self.struct_element(v.fields, d))
        if t is MapObject:
            keys = v.keys_cell().data.ravel(order="F")
            values = v.values_cell().data.ravel(order="F")
            return {_key_text(k): self.encode(x) for k, x in zip(keys, values, strict=True)}
        if t in SPARSE_TYPES:
            raise error("MATLAB:json:UnsupportedSparseDataType",
                        "jsonencode does not support sparse arrays.")
        conversion = BUILTINS.get(_CONVERSIONS.get(class_of(v), ""))
        if conversion is not None:
            return self.encode(conversion.call(self.interp, [v], 1)[0])
        raise error("MATLAB:json:UnsupportedDataType",
                    f"jsonencode does not support values of class '{class_of(v)}'.")

    def struct_element(self, fields: list[str], element: dict) -> dict:
        return {name: self.encode(element[name]) for name in fields}

    def array(self, a: np.ndarray) -> Any:
        if is_char(a):
            if a.size == 0:
                return ""
            rows = char_rows(a) if a.ndim == 2 else [char_text(a)]
            return rows[0] if len(rows) == 1 else rows
        if a.dtype.kind == "c":
            raise _complex()
        cls = class_of(a)
        if a.size == 1 and a.ndim == 2:
            return self.number(a.reshape(-1)[0], cls)
        return self.layout(a, lambda x: self.number(x, cls))

    def layout(self, a: np.ndarray, item: Any) -> Any:
        """An array's elements as JSON: a scalar alone, a vector flat, a matrix by rows,
        more dimensions nested with the first outermost; empty is []."""
        if a.size == 0:
            return []
        if a.size == 1 and a.ndim == 2:
            return item(a.reshape(-1)[0])
        if a.ndim == 2 and 1 in a.shape:
            return [item(x) for x in a.reshape(-1)]
        return self.nested(a, item)

    def nested(self, a: np.ndarray, item: Any) -> list:
        if a.ndim == 1:
            return [item(x) for x in a]
        return [self.nested(a[k], item) for k in range(a.shape[0])]


def _complex() -> Exception:
    return error("MATLAB:json:UnsupportedComplexDataType",
                 "jsonencode does not support complex numbers.")


def _key_text(key: Any) -> str:
    text = text_or_none(key)
    if text is not None:
        return text
    return format_double(float(key))


# ------------------------------------------------------------ writing


def _string(s: str | None) -> str:
    return "null" if s is None else json.dumps(s, ensure_ascii=False)


def write(node: Any, pretty: bool, indent: str = "") -> str:
    if node is None:
        return "null"
    if node is True:
        return "true"
    if node is False:
        return "false"
    if isinstance(node, Number):
        return str(node)
    if isinstance(node, str):
        return _string(node)
    if isinstance(node, dict):
        if not node:
            return "{}"
        if not pretty:
            return "{" + ",".join(f"{_string(k)}:{write(v, False)}" for k, v in node.items()) + "}"
        inner = indent + "  "
        body = ",\n".join(f"{inner}{_string(k)}: {write(v, True, inner)}" for k, v in node.items())
        return "{\n" + body + "\n" + indent + "}"
    if not node:
        return "[]"
    if not pretty:
        return "[" + ",".join(write(v, False) for v in node) + "]"
    inner = indent + "  "
    return "[\n" + ",\n".join(inner + write(v, True, inner) for v in node) + "\n" + indent + "]"


# ------------------------------------------------------------ the builtin

_OPTIONS = ("ConvertInfAndNaN", "PrettyPrint")


def _flag(v: Any, name: str) -> bool:
    if class_of(v) not in ("logical", "double", "single", "int8", "int16", "int32", "int64",
                           "uint8", "uint16", "uint32", "uint64") or np.size(v) != 1:
        raise error("MATLAB:json:InvalidOptionValue", f"Value of '{name}' must be a logical scalar.")
    return bool(np.asarray(v).reshape(-1)[0])


def encode_options(args: tuple) -> tuple[bool, bool]:
    """(ConvertInfAndNaN, PrettyPrint) from name-value arguments."""
    found = {"ConvertInfAndNaN": True, "PrettyPrint": False}
    if len(args) % 2:
        raise error("MATLAB:json:ParamMissingValue", "Parameter names must be followed by values.")
    for k in range(0, len(args), 2):
        name = text_or_none(args[k])
        match = next((o for o in _OPTIONS if name is not None and o.lower() == name.lower()), None)
        if match is None:
            raise error("MATLAB:json:UnmatchedParameter",
                        f"'{name if name is not None else ''}' is not a recognized parameter. For a "
                        "list of valid name-value pair arguments, see the documentation for this "
                        "function.")
        found[match] = _flag(args[k + 1], match)
    return found["ConvertInfAndNaN"], found["PrettyPrint"]


@builtin(interp=True)
def jsonencode(interp: Any, data: Any, *options: Any) -> np.ndarray:
    """txt = jsonencode(data) is the JSON text (a character vector) of a MATLAB value.

    jsonencode(data, 'PrettyPrint', true) indents it, one value a line;
    jsonencode(data, 'ConvertInfAndNaN', false) writes NaN and Inf as NaN, Infinity and
    -Infinity (by default they are null).  Structs become objects, vectors flat arrays,
    matrices arrays of rows, cell arrays arrays, char and strings JSON strings."""
    convert, pretty = encode_options(options)
    return row(write(Encoder(interp, convert).encode(data), pretty))


# a sparse argument reaches jsonencode as it is, to be refused
SPARSE_AWARE.add("jsonencode")
