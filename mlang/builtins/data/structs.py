"""Structures: struct, fieldnames, isfield, rmfield, getfield, setfield, orderfields,
isstruct, struct2cell and cell2struct."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import NUMERIC_OR_LOGICAL, dim_argument, text_list, text_or_none
from mlang.builtins.text.forms import cell_of, object_array, row
from mlang.errors import MatlabError, error
from mlang.registry import builtin
from mlang.values import indexing
from mlang.values.cell import Cell
from mlang.values.core import EMPTY, char_row, char_text, class_of, fix_shape, numel, result, to_double_array
from mlang.values.objects import CALL_ROUTES, kind_of
from mlang.values.string import StringArray
from mlang.values.struct import Struct

FIELD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


def _check_field_name(name: str) -> None:
    if not FIELD_NAME.match(name):
        raise error("MATLAB:AddField:InvalidFieldName", f"Invalid field name \"{name}\".")


def _field_names(v: object) -> list[str]:
    """Field names given as a char row, a char matrix (one per row), a cell or a string array."""
    return text_list(v, "Field names", char_rows_allowed=True)


@builtin(dl="native")
def isstruct(x: Any) -> bool:
    """tf = isstruct(A) is true when A is a structure array."""
    return type(x) is Struct


# ------------------------------------------------------------------ structs


_OBJECT = np.dtype(object)


def _literal_field(literals: tuple) -> Callable[[list], Any] | None:
    """struct('name', value) with a valid field name written as a literal char row: a function
    making the scalar struct of a value that is not a cell (NotImplemented for a cell or a
    value whose class routes the call), the name read once here (see Builtin.specialize)."""
    if len(literals) != 2:
        return None
    name = literals[0]
    if type(name) is not np.ndarray or name.dtype.kind != "V" or name.ndim != 2 or name.shape[0] != 1:
        return None
    text = char_text(name)
    if not FIELD_NAME.match(text):
        return None

    def scalar_struct(args: list) -> Any:
        value = args[1]
        if type(value) is Cell or type(value) in CALL_ROUTES:
            return NotImplemented
        elems = np.empty((1, 1), dtype=_OBJECT)
        elems[0, 0] = {text: value}
        return Struct([text], elems)

    return scalar_struct


@builtin(dl="native", specialize=_literal_field)
def struct(*args: Any) -> Any:
    """s = struct(field1,value1,...,fieldN,valueN) creates a structure.

    A cell value makes a struct array of the cell's size, one element per
    cell; other values are copied to every element. struct() has no fields;
    struct([]) is a 0-by-0 struct with no fields."""
    if len(args) == 2:
        quick = _scalar_struct(args[0], args[1])
        if quick is not None:
            return quick
    if not args:
        return Struct.scalar()
    if len(args) == 1:
        only = args[0]
        if type(only) is Struct:
            return only
        if class_of(only) in NUMERIC_OR_LOGICAL and numel(only) == 0:
            return Struct.empty((0, 0))
        kind = kind_of(only)
        names = kind.property_names(only) if kind is not None else []
        if names:  # an object: its properties
            return Struct.scalar({n: kind.get_property(only, n) for n in names})
        raise error("MATLAB:struct:FieldValuePairs",
                    "Field and value input arguments must come in pairs.")
    if len(args) % 2:
        raise error("MATLAB:struct:FieldValuePairs",
                    "Field and value input arguments must come in pairs.")
    fields: list[str] = []
    values = []
    for i in range(0, len(args), 2):
        name = text_or_none(args[i])
        if name is None:
            raise error("MATLAB:struct:FieldNameNotChar",
                        "Field names must be non-empty character vectors or string scalars.")
        _check_field_name(name)
        if name in fields:
            raise error("MATLAB:DuplicateFieldName", f"Duplicate field name \"{name}\".")
        fields.append(name)
        values.append(args[i + 1])
    shape = _struct_shape(values)
    n = int(np.prod(shape))
    # per field: one value per element (a non-scalar cell), or one value for all of them
    columns = [v.data.ravel(order="F") if type(v) is Cell and v.data.size != 1 else
               [v.data.reshape(-1)[0] if type(v) is Cell else v] * n for v in values]
    elems = [{name: column[k] for name, column in zip(fields, columns, strict=True)}
             for k in range(n)]
    return Struct(fields, object_array(elems, shape))


def _scalar_struct(name: Any, value: Any) -> Struct | None:
    """struct(name, value) of a valid field name given as a char row and a value that is not
    a cell: a scalar struct, made directly (None for anything else)."""
    if type(value) is Cell or type(name) is not np.ndarray or name.dtype.kind != "V" \
            or name.ndim != 2 or name.shape[0] != 1:
        return None
    text = char_text(name)
    if not FIELD_NAME.match(text):
        return None
    elems = np.empty((1, 1), dtype=object)
    elems[0, 0] = {text: value}
    return Struct([text], elems)


def _struct_shape(values: list) -> tuple[int, ...]:
    """The size of struct(...)'s result: that of its non-scalar cell values (all the same)."""
    shape: tuple[int, ...] | None = None
    first = 0
    for i, v in enumerate(values):
        if type(v) is Cell and v.data.size != 1:
            if shape is None:
                shape, first = v.shape, i
            elif v.shape != shape:
                raise error("MATLAB:struct:DimensionMismatch",
                            f"Array dimensions of input {2 * i + 2} must match those of input "
                            f"{2 * first + 2} or be scalar.")
    return shape if shape is not None else (1, 1)


@builtin()
def fieldnames(s: Any, *options: Any) -> Cell:
    """names = fieldnames(S) returns the field names of structure S in a column cell array."""
    if type(s) is Struct:
        return cell_of([char_row(f) if f else row("") for f in s.fields], (len(s.fields), 1))
    kind = kind_of(s)
    listed = kind.property_names(s) if kind is not None else []
    if listed:
        return cell_of([char_row(f) for f in listed], (len(listed), 1))
    raise error("MATLAB:fieldnames:InvalidInput",
                f"Invalid input argument of type '{class_of(s)}'. Input must be a structure or "
                "a Java or COM object.")


def _literal_name(literals: tuple) -> Callable[[list], Any] | None:
    """isfield(S, 'name') with the name written as a literal char row: a function telling
    whether a struct has that field (NotImplemented for anything but a struct), the name read
    once here (see Builtin.specialize)."""
    if len(literals) != 2 or type(literals[1]) is not np.ndarray:
        return None
    text = text_or_none(literals[1])
    if text is None:
        return None

    def has_field(args: list) -> Any:
        s = args[0]
        return text in s.fields if type(s) is Struct else NotImplemented

    return has_field


@builtin(dl="native", specialize=_literal_name)
def isfield(s: Any, names: Any) -> Any:
    """tf = isfield(S, field) is true when field is a field of structure S.

    With a cell array of names, tf is a logical array of the same size."""
    if type(s) is not Struct:
        return False
    if type(names) is np.ndarray:
        return text_or_none(names) in s.fields
    present = set(s.fields)
    if type(names) is Cell:
        out = np.zeros(names.shape, dtype=bool)
        flat_in, flat_out = names.data.reshape(-1), out.reshape(-1)
        for i in range(flat_in.size):
            flat_out[i] = text_or_none(flat_in[i]) in present
        return result(out)
    if type(names) is StringArray:
        out = np.zeros(names.shape, dtype=bool)
        flat_in, flat_out = names.data.reshape(-1), out.reshape(-1)
        for i in range(flat_in.size):
            flat_out[i] = flat_in[i] in present
        return result(out)
    return text_or_none(names) in s.fields


@builtin()
def rmfield(s: Any, names: Any) -> Struct:
    """s = rmfield(s, field) removes a field (or a cell array of fields) from structure s."""
    if type(s) is not Struct:
        raise error("MATLAB:rmfield:InvalidInput", "First argument must be a structure.")
    remove = _field_names(names)
    for name in remove:
        if name not in s.fields:
            raise error("MATLAB:rmfield:InvalidFieldname",
                        f"A field named '{name}' doesn't exist.")
    out = s.copy()
    gone = set(remove)
    out.fields = [f for f in s.fields if f not in gone]
    for d in out.elems.reshape(-1):
        for name in gone:
            d.pop(name, None)
    return out


@builtin(dl="native")
def getfield(s: Any, *path: Any) -> Any:
    """value = getfield(S, field) is S.(field).

    getfield(S, {i}, field, {j}, ...) follows the path S(i).field(j)..."""
    if not path:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    value = s
    for step in path:
        if type(step) is Cell:
            value = indexing.index(value, step.values())
            continue
        name = text_or_none(step)
        if name is None:
            raise error("MATLAB:getfield:InvalidType",
                        "Field names must be character vectors or string scalars.")
        if type(value) is not Struct:
            kind = kind_of(value)
            if kind is None:
                raise error("MATLAB:structRefFromNonStruct",
                            "Dot indexing is not supported for variables of this type.")
            value = kind.get_property(value, name)
            continue
        if name not in value.fields:
            raise error("MATLAB:nonExistentField", f"Unrecognized field name \"{name}\".")
        if value.elems.size == 0:
            raise error("MATLAB:index:expected_one_output_from_expression",
                        "Expected one output from a curly brace or dot indexing expression, but "
                        "there were 0 results.")
        value = value.element(0)[name]
    return value


@builtin(dl="native")
def setfield(s: Any, *path_and_value: Any) -> Any:
    """s = setfield(s, field, value) sets s.(field) = value.

    setfield(s, {i}, field, {j}, value) sets s(i).field(j) = value."""
    if len(path_and_value) < 2:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    *path, value = path_and_value
    return _set_path(s, path, value)


def assign_through_index(current: Any, args: list, inner: Callable[[Any], Any]) -> Any:
    """``current(args...)`` replaced by ``inner`` of its present value (None where there
    is none yet): how setfield and subsasgn store below an index, as MATLAB's
    ``s(k).f = v`` does."""
    try:
        sub = indexing.index(current, args) if current is not None else None
    except MatlabError:
        sub = None
    if type(sub) is Struct and sub.elems.size == 0:
        sub = None
    if sub is None and type(current) is Struct:  # s(k).f = v past the end: a new element
        sub = Struct.scalar(dict.fromkeys(current.fields, EMPTY))
    new = inner(sub)
    if type(current) is Struct and type(new) is Struct:
        extra = [f for f in new.fields if f not in current.fields]
        if extra:  # s(k).newfield = v adds the field to every element, as MATLAB does
            current = current.copy()
            for f in extra:
                current.add_field(f)
    return indexing.assign(current, args, new)


def _set_path(current: Any, path: list, value: Any) -> Any:
    """``current`` with ``value`` stored at ``path`` (cells index, texts name fields)."""
    if not path:
        return value
    step, rest = path[0], path[1:]
    if type(step) is Cell:
        args = step.values()
        if not args:
            raise error("MATLAB:setfield:emptySubscript",
                        "Subscripts in a cell array must not be empty.")
        if not rest:
            return indexing.assign(current, args, value)
        return assign_through_index(current, args, lambda sub: _set_path(sub, rest, value))
    name = text_or_none(step)
    if name is None:
        raise error("MATLAB:setfield:InvalidType",
                    "Field names must be character vectors or string scalars.")
    if current is None or (class_of(current) in NUMERIC_OR_LOGICAL and numel(current) == 0):
        current = Struct.scalar()
    elif type(current) is Struct and current.elems.size == 0:  # s = struct([]); s.a = 1
        current = Struct.scalar(dict.fromkeys(current.fields, EMPTY))
    if type(current) is not Struct:
        kind = kind_of(current)
        if kind is not None and not rest:
            return kind.set_property(current, name, value)
        raise error("MATLAB:structAssToNonStruct",
                    "Unable to perform assignment because dot indexing is not supported for "
                    "variables of this type.")
    if current.elems.size != 1:
        raise error("MATLAB:index:expected_one_output_from_expression",
                    "Unable to perform assignment because the dot indexing produced "
                    "more than one result." if current.elems.size else
                    "Unable to perform assignment with 0 elements on the right-hand side.")
    _check_field_name(name)
    out = current.copy()
    if name not in out.fields:
        out.add_field(name)
    element = out.element(0)
    element[name] = _set_path(element[name] if name in current.fields else None, rest, value)
    return out


@builtin(max_out=2, nargout=True)
def orderfields(s: Any, order: Any = None, *, nargout: int = 1) -> Any:
    """s = orderfields(s1) orders the fields of s1 by name (character codes).

    orderfields(s1, s2) uses the field order of structure s2; orderfields(s1, C)
    the names in cell array C; orderfields(s1, P) the permutation vector P.
    [s, P] = orderfields(...) also returns the permutation used."""
    if type(s) is not Struct:
        raise error("MATLAB:orderfields:InvalidInput",
                    "First argument must be a struct.")
    fields = s.fields
    if order is None:
        new = sorted(fields)
    elif type(order) is Struct:
        new = list(order.fields)
    elif type(order) in (Cell, StringArray):
        new = _field_names(order)
    elif class_of(order) in NUMERIC_OR_LOGICAL:
        positions = _whole_numbers(order)
        if sorted(positions) != list(range(1, len(fields) + 1)):
            raise error("MATLAB:orderfields:InvalidPermutation",
                        "Invalid permutation vector.")
        new = [fields[p - 1] for p in positions]
    else:
        raise error("MATLAB:orderfields:InvalidSecondInput",
                    "Second argument must be a struct, a cell array of names or a permutation "
                    "vector.")
    if sorted(new) != sorted(fields):
        raise error("MATLAB:orderfields:FieldsMismatch" if type(order) is Struct else
                    "MATLAB:orderfields:InvalidFieldNames",
                    "The field names of the structures must match." if type(order) is Struct else
                    "Cell array of field names must contain all field names of the structure.")
    out = Struct(new, s.copy().elems)
    if nargout < 2:
        return out
    perm = np.array([[float(fields.index(f) + 1)] for f in new]).reshape(len(new), 1)
    return out, result(perm)


def _whole_numbers(v: Any) -> list[int]:
    """The elements of a permutation vector (any value that is not a whole number is -1,
    which no permutation holds)."""
    values = to_double_array(v).ravel(order="F").real
    return [int(x) if np.isfinite(x) and x == np.floor(x) else -1 for x in values]


@builtin()
def struct2cell(s: Any) -> Cell:
    """C = struct2cell(S) returns the field values of S in a cell array.

    For an m-by-n struct array with p fields, C is p-by-m-by-n."""
    if type(s) is not Struct:
        raise error("MATLAB:struct2cell:InvalidInput", "Input must be a structure.")
    p = len(s.fields)
    shape = (p, *s.shape)
    data = np.empty(shape, dtype=object)
    elems = s.elems
    for position in np.ndindex(elems.shape):
        d = elems[position]
        for i, f in enumerate(s.fields):
            data[(i, *position)] = d[f]
    return Cell(data.reshape(fix_shape(shape), order="F") if len(shape) > 2 else data)


@builtin()
def cell2struct(c: Any, fields: Any, dim: Any = 1.0) -> Struct:
    """s = cell2struct(C, fields, dim) makes a struct array from the cells of C.

    The cells along dimension dim become the fields named by fields; the
    remaining dimensions give the size of s."""
    if type(c) is not Cell:
        raise error("MATLAB:cell2struct:ArgNotCell", "Input must be a cell array.")
    names = _field_names(fields)
    for name in names:
        _check_field_name(name)
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise error("MATLAB:DuplicateFieldName", f"Duplicate field name \"{dup}\".")
    axis = dim_argument(dim)
    data = c.data
    if data.ndim <= axis:  # every dimension past the last is the same singleton one
        data = data.reshape(data.shape + (1,))
        axis = data.ndim - 1
    if data.shape[axis] != len(names):
        raise error("MATLAB:cell2struct:ArgMismatch",
                    "Number of field names must match number of fields in new structure.")
    moved = np.moveaxis(data, axis, 0)
    rest = moved.shape[1:]
    shape = (rest[0], 1) if len(rest) == 1 else fix_shape(rest)
    elems = np.empty(rest, dtype=object)
    for position in np.ndindex(rest):
        column = moved[(slice(None), *position)]
        elems[position] = {n: column[i] for i, n in enumerate(names)}
    return Struct(names, elems.reshape(shape, order="F"))
