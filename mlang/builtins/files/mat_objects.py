"""MATLAB objects <-> their stored properties in a MAT-file's subsystem data.

The classes mlang saves and loads as MATLAB does (``mat_subsystem`` holds the layout):

* ``string``: one property ``any`` (``mat_strings``);
* ``datetime``: ``data`` (milliseconds since 1970-01-01 as doubles: the clock reading
  of an unzoned datetime, the UTC instant of a zoned one; MATLAB may add the part
  below a millisecond as the imaginary part), ``fmt`` ('' for the default format),
  ``tz`` ('' unzoned), and in newer releases ``isDateOnly``;
* ``duration``: ``millis`` (doubles) and ``fmt``;
* ``categorical``: ``codes`` (the smallest unsigned integer type that holds them, 0 for
  <undefined>), ``categoryNames`` (a cell column), ``isOrdinal``, ``isProtected``;
* ``table``: ``data`` (a 1-by-N cell of the variables), ``ndims`` (2), ``nrows``,
  ``rownames`` (a cell column, {} for none), ``nvars``, ``varnames`` (1-by-N cellstr)
  and ``props``, a struct of the table's other properties (Description, UserData,
  DimensionNames, VariableDescriptions, VariableUnits, ...).

Property values are MATLAB values; an object held inside one (a string variable of a
table) is stored as its reference.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.files.mat_strings import strings_from_words, words_from_strings
from mlang.builtins.files.mat_subsystem import Subsystem, SubsystemBuilder, parse_reference
from mlang.values.categorical import CategoricalArray
from mlang.values.cell import Cell
from mlang.values.core import char_row, char_rows, class_of, is_text, to_str
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.table import DEFAULT_DIMENSION_NAMES, Table, height_of
from mlang.values.time_calendar import DEFAULT_DATE_FORMAT, DEFAULT_DURATION_FORMAT, DEFAULT_FORMAT
from mlang.values.time_datetime import DatetimeArray
from mlang.values.time_duration import DurationArray

OBJECT_TYPES = (StringArray, DatetimeArray, DurationArray, Table, CategoricalArray)
# What a table's props struct holds besides the properties mlang keeps (MATLAB's defaults).
_TABLE_PROPS_VERSION = 4.0


def is_object(value: Any) -> bool:
    """Whether a value is saved as an object in the subsystem data."""
    return type(value) in OBJECT_TYPES


# ------------------------------------------------------------------- writing


def store(value: Any, builder: SubsystemBuilder) -> tuple[str, np.ndarray]:
    """Add an object (and the objects it holds) to the subsystem; its class name and
    the reference the variable stores."""
    object_id = builder.start()
    class_name = class_of(value)
    properties = [(name, nested(item, builder)) for name, item in _properties(value)]
    builder.finish(object_id, class_name, properties)
    return class_name, builder.reference_of(object_id, class_name)


def check_properties(value: Any, check_leaf: Callable[[Any], Any]) -> None:
    """Call ``check_leaf`` on every value an object's properties hold that is not an
    object, a cell or a struct (it raises for one the format cannot hold), so that an
    object is refused before any of it is stored."""
    for _, item in _properties(value):
        _check_value(item, check_leaf)


def _check_value(value: Any, check_leaf: Callable[[Any], Any]) -> None:
    if is_object(value):
        check_properties(value, check_leaf)
    elif type(value) is Cell:
        for item in value.data.ravel():
            _check_value(item, check_leaf)
    elif type(value) is Struct:
        for element in value.elems.ravel():
            for item in element.values():
                _check_value(item, check_leaf)
    else:
        check_leaf(value)


def nested(value: Any, builder: SubsystemBuilder) -> Any:
    """A property value with the objects inside it replaced by their references."""
    if is_object(value):
        return store(value, builder)[1]
    if type(value) is Cell:
        items = np.empty(value.data.shape, dtype=object)
        for index, item in np.ndenumerate(value.data):
            items[index] = nested(item, builder)
        return Cell(items)
    if type(value) is Struct:
        elems = np.empty(value.elems.shape, dtype=object)
        for index, element in np.ndenumerate(value.elems):
            elems[index] = {f: nested(element[f], builder) for f in value.fields}
        return Struct(list(value.fields), elems)
    return value


def _cellstr_row(texts: list[str] | None) -> Cell:
    if not texts:
        return Cell.empty((0, 0))
    items = np.empty((1, len(texts)), dtype=object)
    for k, text in enumerate(texts):
        items[0, k] = char_row(text)
    return Cell(items)


def _properties(value: Any) -> list[tuple[str, Any]]:
    t = type(value)
    if t is StringArray:
        return [("any", words_from_strings(value))]
    if t is DatetimeArray:
        fmt = "" if value.fmt == DEFAULT_FORMAT else value.fmt
        return [("data", np.array(value.data, dtype=np.float64)), ("tz", char_row(value.zone)),
                ("fmt", char_row(fmt))]
    if t is DurationArray:
        return [("millis", np.array(value.data, dtype=np.float64)), ("fmt", char_row(value.fmt))]
    if t is CategoricalArray:
        return _categorical_properties(value)
    return _table_properties(value)


def _categorical_properties(value: CategoricalArray) -> list[tuple[str, Any]]:
    count = len(value.names)
    kind = next(k for k in (np.uint8, np.uint16, np.uint32, np.uint64) if count <= np.iinfo(k).max)
    names = np.empty((count, 1), dtype=object)
    for k, name in enumerate(value.names):
        names[k, 0] = char_row(name)
    names_cell = Cell(names) if count else Cell.empty((0, 1))
    return [("categoryNames", names_cell), ("codes", np.asarray(value.codes).astype(kind)),
            ("isOrdinal", np.array([[value.ordinal]])), ("isProtected", np.array([[value.protected]]))]


def _table_properties(t: Table) -> list[tuple[str, Any]]:
    data = np.empty((1, len(t.variables)), dtype=object)
    for k, variable in enumerate(t.variables):
        data[0, k] = variable
    if t.row_names:
        rows = np.empty((len(t.row_names), 1), dtype=object)
        for k, text in enumerate(t.row_names):
            rows[k, 0] = char_row(text)
        row_names = Cell(rows)
    else:
        row_names = Cell.empty((0, 0))
    props = Struct.scalar({
        "useVariableNamesOriginal": np.array([[False]]),
        "useDimensionNamesOriginal": np.array([[False]]),
        "CustomProps": Struct.scalar({}),
        "VariableCustomProps": Struct.scalar({}),
        "versionSavedFrom": _TABLE_PROPS_VERSION,
        "minCompatibleVersion": 1.0,
        "incompatibilityMsg": char_row(""),
        "VersionSavedFrom": _TABLE_PROPS_VERSION,
        "Description": char_row(t.description),
        "VariableNamesOriginal": Cell.empty((0, 0)),
        "DimensionNames": _cellstr_row(list(t.dimension_names)),
        "DimensionNamesOriginal": Cell.empty((0, 0)),
        "UserData": t.user_data,
        "VariableDescriptions": _cellstr_row(t.variable_descriptions),
        "VariableUnits": _cellstr_row(t.variable_units),
        # MATLAB holds continuity as objects of an enumeration mlang does not write
        "VariableContinuity": Cell.empty((0, 0)),
    })
    return [("data", Cell(data)), ("varnames", _cellstr_row(t.names)), ("nrows", float(t.nrows)),
            ("nvars", float(len(t.variables))), ("rownames", row_names), ("ndims", 2.0), ("props", props)]


# ------------------------------------------------------------------- reading


def load_reference(words: list[int], subsystem: Subsystem | None, busy: frozenset = frozenset(),
                   expected: str | None = None) -> Any:
    """The value a stored reference points to (of class ``expected``, when the variable
    names its class); None when mlang cannot represent it."""
    parsed = parse_reference(words) if subsystem is not None else None
    if parsed is None:
        return None
    _, ids, class_id = parsed
    if len(ids) != 1 or ids[0] in busy:  # an array of objects, or an object holding itself
        return None
    try:
        class_name = subsystem.class_name(class_id)
        stored = subsystem.properties(ids[0])
    except (IndexError, ValueError):
        return None
    if expected is not None and expected != class_name:
        return None

    def prop(name: str) -> Any:
        raw = stored.get(name)
        if raw is None:
            return None
        if type(raw) is tuple:  # stored in the metadata: a name or a number
            return char_row(raw[1]) if raw[0] == "name" else float(raw[1])
        return subsystem.decode(raw, busy | {ids[0]})

    try:
        return _from_properties(class_name, prop)
    except (IndexError, KeyError, TypeError, ValueError, AttributeError):
        return None


def reference_class(words: list[int], subsystem: Subsystem | None) -> str:
    """The class a stored reference names (for messages)."""
    parsed = parse_reference(words) if subsystem is not None else None
    if parsed is None:
        return "object"
    try:
        return subsystem.class_name(parsed[2]) or "object"
    except (IndexError, ValueError):
        return "object"


def _text(value: Any, default: str = "") -> str:
    return to_str(value) if value is not None and is_text(value) else default


def _texts(value: Any) -> list[str]:
    if type(value) is Cell:
        return [to_str(item) if is_text(item) else "" for item in value.data.ravel(order="F")]
    if type(value) is StringArray:
        return [t or "" for t in value.data.ravel(order="F")]
    if type(value) is np.ndarray and value.size and is_text(value):
        return char_rows(value)
    return []


def _millis(value: Any) -> np.ndarray:
    a = np.asarray(value)
    if a.dtype.kind == "c":  # the part below a millisecond is kept as the imaginary part
        a = a.real + a.imag
    a = a.astype(np.float64)
    return a.reshape(1, 1) if a.ndim < 2 else a


def _from_properties(class_name: str, prop: Any) -> Any:
    if class_name == "string":
        words = prop("any")
        if words is None:
            return None
        return strings_from_words(np.asarray(words).astype(np.uint64).ravel(order="F"))
    if class_name == "datetime":
        data = prop("data")
        if data is None:
            return None
        date_only = prop("isDateOnly")
        fmt = _text(prop("fmt"))
        if not fmt:
            fmt = DEFAULT_DATE_FORMAT if date_only is not None and np.any(date_only) else DEFAULT_FORMAT
        return DatetimeArray(_millis(data), fmt, _text(prop("tz")))
    if class_name == "duration":
        millis = prop("millis")
        return None if millis is None else DurationArray(_millis(millis),
                                                         _text(prop("fmt")) or DEFAULT_DURATION_FORMAT)
    if class_name == "table":
        return _table(prop)
    if class_name == "categorical":
        codes = prop("codes")
        if codes is None:
            return None
        codes = np.asarray(codes).astype(np.uint32)
        flags = [prop(n) for n in ("isOrdinal", "isProtected")]
        ordinal, protected = (f is not None and bool(np.any(f)) for f in flags)
        return CategoricalArray(codes.reshape(1, 1) if codes.ndim < 2 else codes,
                                _texts(prop("categoryNames")), ordinal, protected)
    return None


def _table(prop: Any) -> Table | None:
    data = prop("data")
    if type(data) is not Cell:
        return None
    variables = list(data.data.ravel(order="F"))
    names = _texts(prop("varnames"))
    nrows = prop("nrows")
    count = int(np.asarray(nrows).reshape(-1)[0]) if nrows is not None else None
    if len(names) != len(variables) or any(height_of(v) != count for v in variables if count is not None):
        return None  # a variable that could not be read
    row_names = _texts(prop("rownames")) or None
    props = prop("props")
    extra: dict[str, Any] = {}
    if type(props) is Struct and props.elems.size == 1:
        p = props.element(0)
        extra["description"] = _text(p.get("Description"))
        if "UserData" in p:
            extra["user_data"] = p["UserData"]
        dimension_names = _texts(p.get("DimensionNames"))
        extra["dimension_names"] = (tuple(dimension_names) if len(dimension_names) == 2
                                    else DEFAULT_DIMENSION_NAMES)
        extra["variable_units"] = _texts(p.get("VariableUnits")) or None
        extra["variable_descriptions"] = _texts(p.get("VariableDescriptions")) or None
    return Table(variables, names, row_names, nrows=count, **extra)


def contains_object(value: Any) -> bool:
    """Whether a value is, or holds in its cells and fields, an object."""
    if is_object(value):
        return True
    if type(value) is Cell:
        return any(contains_object(item) for item in value.data.ravel())
    if type(value) is Struct:
        return any(contains_object(element[f]) for element in value.elems.ravel() for f in value.fields)
    return False
