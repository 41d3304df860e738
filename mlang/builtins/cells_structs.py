"""Cell arrays, structures and containers.Map: creation, conversion, and the
function-application builtins cellfun and arrayfun."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import MatlabError, error
from mlang.registry import builtin
from mlang.values import indexing
from mlang.values.cell import Cell
from mlang.values.concat import cat
from mlang.values.containers_map import KEY_TYPES, VALUE_TYPES, MapObject
from mlang.values.core import (
    EMPTY,
    INT_CLASSES,
    char_row,
    class_of,
    fix_shape,
    is_text,
    is_true,
    numel,
    result,
    size_of,
    to_array,
    to_str,
)
from mlang.values.handle import FunctionHandle
from mlang.values.string import StringArray
from mlang.values.struct import Struct

FIELD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
NUMERIC_CLASSES = ("double", "single", "logical", *INT_CLASSES)


# ------------------------------------------------------------------ helpers


def _text(v: object) -> str | None:
    """The text of a char row or string scalar; None for anything else."""
    if type(v) is np.ndarray and v.dtype.kind == "U" and (v.ndim == 2 and v.shape[0] <= 1):
        return to_str(v)
    if type(v) is StringArray and v.data.size == 1:
        return v.scalar_text()
    return None


def _names(v: object, what: str = "Field names") -> list[str]:
    """Field names given as a char row, a char matrix (one per row), a cell or a string array."""
    text = _text(v)
    if text is not None:
        return [text]
    if type(v) is np.ndarray and v.dtype.kind == "U":
        return ["".join(r).rstrip() for r in v.reshape(v.shape[0], -1).tolist()]
    if type(v) is Cell:
        out = []
        for x in v.values():
            t = _text(x)
            if t is None:
                raise error("MATLAB:InputParser:ArgumentFailedValidation",
                            f"{what} must be character vectors or string scalars.")
            out.append(t)
        return out
    if type(v) is StringArray:
        return ["" if s is None else s for s in v.data.ravel(order="F")]
    raise error("MATLAB:InputParser:ArgumentFailedValidation",
                f"{what} must be a character vector, a string array or a cell array of "
                "character vectors.")


def _column_cell(values: list) -> Cell:
    data = np.empty((len(values), 1), dtype=object)
    for i, v in enumerate(values):
        data[i, 0] = v
    return Cell(data)


def _from_flat(values: list, shape: tuple[int, ...]) -> np.ndarray:
    """An object array of ``shape`` holding ``values`` in column-major order."""
    flat = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        flat[i] = v
    return flat.reshape(shape, order="F")


def _check_field_name(name: str) -> None:
    if not FIELD_NAME.match(name):
        raise error("MATLAB:AddField:InvalidFieldName", f"Invalid field name \"{name}\".")


def _size_arg(v: object) -> list[int]:
    """Sizes from one size argument (a scalar or a size vector); negatives count as 0."""
    if class_of(v) not in NUMERIC_CLASSES:
        raise error("MATLAB:cell:invalidInput", "Size inputs must be numeric.")
    a = to_array(v).ravel(order="F")
    if a.dtype.kind == "c":
        a = a.real  # as zeros and ones do, the imaginary parts of sizes are ignored
    if a.dtype.kind == "f" and (np.isnan(a).any() or (a != np.floor(a)).any()):
        raise error("MATLAB:NonIntegerInput", "Size inputs must be integers.")
    if a.dtype.kind == "f" and np.isinf(a).any():
        raise _too_big()
    return [max(int(x), 0) for x in a]


def _too_big() -> Exception:
    return error("MATLAB:array:SizeLimitExceeded",
                 "Requested array exceeds the maximum possible variable size.")


def _dims(args: tuple) -> tuple[int, ...]:
    """The size that cell(...)-style size arguments describe."""
    if not args:
        return (0, 0)
    if len(args) == 1:
        sizes = _size_arg(args[0])
        if len(sizes) == 1:
            return (sizes[0], sizes[0])
        if not sizes:
            raise error("MATLAB:checkDimCommon:nonEmptyDimInput",
                        "Size vector must have at least one element.")
        return fix_shape(tuple(sizes))
    sizes = []
    for a in args:
        if numel(a) != 1:
            raise error("MATLAB:checkDimCommon:nonScalarSizeInput",
                        "Size inputs must be scalar.")
        sizes.extend(_size_arg(a))
    return fix_shape(tuple(sizes))


# -------------------------------------------------------------------- cells


MAX_ELEMENTS = 2**31  # refuse sizes no machine could hold, rather than exhaust memory


@builtin()
def cell(*dims: Any) -> Cell:
    """C = cell(n) creates an n-by-n cell array of empty matrices.

    C = cell(sz1,...,szN) or cell([sz1 ... szN]) creates a cell array of that size."""
    shape = _dims(dims)
    if int(np.prod(shape, dtype=object)) > MAX_ELEMENTS or any(n > MAX_ELEMENTS for n in shape):
        raise _too_big()
    return Cell.filled(shape)


@builtin(dl="native")
def iscell(x: Any) -> bool:
    """tf = iscell(A) is true when A is a cell array."""
    return type(x) is Cell


@builtin(dl="native")
def isstruct(x: Any) -> bool:
    """tf = isstruct(A) is true when A is a structure array."""
    return type(x) is Struct


@builtin()
def num2cell(a: Any, dims: Any = None) -> Cell:
    """C = num2cell(A) puts each element of A in its own cell (C has A's size).

    C = num2cell(A, dim) keeps whole slices along the dimensions dim together."""
    if dims is None:
        data = indexing.data_of(a) if type(a) is not Cell else a.data
        n = data.size
        if type(a) is np.ndarray and data.dtype == np.float64:
            values: list = [float(x) for x in data.ravel(order="F")]
        else:
            values = [indexing.index(a, [float(k + 1)]) for k in range(n)]
        return Cell(_from_flat(values, size_of(a)))
    return _num2cell_dims(a, sorted({d - 1 for d in _size_arg(dims)}))


def _num2cell_dims(a: Any, axes: list[int]) -> Cell:
    if any(d < 0 for d in axes):
        raise error("MATLAB:num2cell:dimensionOutOfRange", "Dimensions must be positive integers.")
    data = indexing.data_of(a)
    # Dimensions beyond A's own are singletons: keeping them together changes nothing.
    axes = [d for d in axes if d < data.ndim]
    out_shape = tuple(1 if d in axes else n for d, n in enumerate(data.shape))
    count = int(np.prod(out_shape))
    values = []
    for k in range(count):
        position = np.unravel_index(k, out_shape, order="F")
        picks = tuple(slice(None) if d in axes else slice(p, p + 1) for d, p in enumerate(position))
        piece = data[picks]
        values.append(indexing.rewrap(a, piece.reshape(fix_shape(piece.shape), order="F")))
    return Cell(_from_flat(values, fix_shape(out_shape)))


@builtin()
def cell2mat(c: Any) -> Any:
    """M = cell2mat(C) concatenates the contents of the cells of C into one array."""
    if type(c) is not Cell:
        raise error("MATLAB:cell2mat:NotACell", "Input must be a cell array.")
    contents = c.values()
    if not contents:
        return np.zeros((0, 0))
    for x in contents:
        if type(x) is Cell or not (type(x) is Struct or class_of(x) in (*NUMERIC_CLASSES, "char")):
            raise error("MATLAB:cell2mat:UnsupportedCellContent",
                        "CELL2MAT does not support cell arrays containing cell arrays or objects.")
    first = class_of(contents[0])
    if any(class_of(x) != first for x in contents):
        raise error("MATLAB:cell2mat:MixedDataTypes",
                    "All contents of the input cell array must be of the same data type.")
    if len(contents) == 1:
        return contents[0]
    # As MATLAB does: join along the last dimension first, then each earlier one.
    parts = c.data
    while parts.ndim > 1:
        axis = parts.ndim - 1
        joined = np.empty(parts.shape[:-1], dtype=object)
        for position in np.ndindex(joined.shape):
            joined[position] = cat(list(parts[position]), axis)
        parts = joined
    return cat(list(parts), 0)


@builtin(max_out=None, nargout=True, dl="native")
def deal(*args: Any, nargout: int = 1) -> Any:
    """[B1,...,Bn] = deal(A1,...,An) copies each input to the matching output.

    [B1,...,Bn] = deal(A) copies A to every output."""
    wanted = max(nargout, 1)
    if len(args) == 1:
        return args[0] if wanted == 1 else tuple(args * wanted)
    if len(args) != wanted:
        raise error("MATLAB:deal:narginNargoutMismatch",
                    "The number of outputs should match the number of inputs.")
    return args[0] if wanted == 1 else tuple(args)


# ------------------------------------------------------------------ structs


@builtin(dl="native")
def struct(*args: Any) -> Any:
    """s = struct(field1,value1,...,fieldN,valueN) creates a structure.

    A cell value makes a struct array of the cell's size, one element per
    cell; other values are copied to every element. struct() has no fields;
    struct([]) is a 0-by-0 struct with no fields."""
    if not args:
        return Struct.scalar()
    if len(args) == 1:
        only = args[0]
        if type(only) is Struct:
            return only
        if class_of(only) in NUMERIC_CLASSES and numel(only) == 0:
            return Struct.empty((0, 0))
        names = getattr(only, "property_names", None)
        if names is not None:
            return Struct.scalar({n: only.get_property(n) for n in names()})
        raise error("MATLAB:struct:FieldValuePairs",
                    "Field and value input arguments must come in pairs.")
    if len(args) % 2:
        raise error("MATLAB:struct:FieldValuePairs",
                    "Field and value input arguments must come in pairs.")
    fields: list[str] = []
    values = []
    for i in range(0, len(args), 2):
        name = _text(args[i])
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
    return Struct(fields, _from_flat(elems, shape))


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
        return _column_cell([char_row(f) if f else np.zeros((1, 0), dtype="<U1") for f in s.fields])
    names = getattr(s, "property_names", None)
    if names is not None:
        return _column_cell([char_row(f) for f in names()])
    raise error("MATLAB:fieldnames:InvalidInput",
                f"Invalid input argument of type '{class_of(s)}'. Input must be a structure or "
                "a Java or COM object.")


@builtin(dl="native")
def isfield(s: Any, names: Any) -> Any:
    """tf = isfield(S, field) is true when field is a field of structure S.

    With a cell array of names, tf is a logical array of the same size."""
    if type(s) is not Struct:
        return False
    present = set(s.fields)
    if type(names) is Cell:
        out = np.zeros(names.shape, dtype=bool)
        flat_in, flat_out = names.data.reshape(-1), out.reshape(-1)
        for i in range(flat_in.size):
            flat_out[i] = _text(flat_in[i]) in present
        return result(out)
    if type(names) is StringArray:
        out = np.zeros(names.shape, dtype=bool)
        flat_in, flat_out = names.data.reshape(-1), out.reshape(-1)
        for i in range(flat_in.size):
            flat_out[i] = flat_in[i] in present
        return result(out)
    return _text(names) in present


@builtin()
def rmfield(s: Any, names: Any) -> Struct:
    """s = rmfield(s, field) removes a field (or a cell array of fields) from structure s."""
    if type(s) is not Struct:
        raise error("MATLAB:rmfield:InvalidInput", "First argument must be a structure.")
    remove = _names(names)
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
        name = _text(step)
        if name is None:
            raise error("MATLAB:getfield:InvalidType",
                        "Field names must be character vectors or string scalars.")
        if type(value) is not Struct:
            getter = getattr(value, "get_property", None)
            if getter is None:
                raise error("MATLAB:structRefFromNonStruct",
                            "Dot indexing is not supported for variables of this type.")
            value = getter(name)
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
        try:
            sub = indexing.index(current, args) if current is not None else None
        except MatlabError:
            sub = None
        if type(sub) is Struct and sub.elems.size == 0:
            sub = None
        return indexing.assign(current, args, _set_path(sub, rest, value))
    name = _text(step)
    if name is None:
        raise error("MATLAB:setfield:InvalidType",
                    "Field names must be character vectors or string scalars.")
    if current is None or (class_of(current) in NUMERIC_CLASSES and numel(current) == 0):
        current = Struct.scalar()
    elif type(current) is Struct and current.elems.size == 0:  # s = struct([]); s.a = 1
        current = Struct.scalar(dict.fromkeys(current.fields, EMPTY))
    if type(current) is not Struct:
        setter = getattr(current, "set_property", None)
        if setter is not None and not rest:
            return setter(name, value)
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
        new = _names(order)
    elif class_of(order) in NUMERIC_CLASSES:
        positions = _size_arg(order)
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
    names = _names(fields)
    for name in names:
        _check_field_name(name)
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise error("MATLAB:DuplicateFieldName", f"Duplicate field name \"{dup}\".")
    axes = _size_arg(dim)
    if len(axes) != 1 or axes[0] < 1:
        raise error("MATLAB:cell2struct:InvalidDim", "Dimension must be a positive integer scalar.")
    axis = axes[0] - 1
    data = c.data
    if data.ndim <= axis:
        data = data.reshape(data.shape + (1,) * (axis + 1 - data.ndim))
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


# -------------------------------------------------------- cellfun / arrayfun

LEGACY_CELLFUN = ("isempty", "islogical", "isreal", "length", "ndims", "prodofsize", "size",
                  "isclass")
OPTION_NAMES = ("UniformOutput", "ErrorHandler")


def _option_name(v: object) -> str | None:
    """Which cellfun/arrayfun option a text argument names (prefixes allowed), if any."""
    text = _text(v)
    if not text:
        return None
    for name in OPTION_NAMES:
        if name.lower().startswith(text.lower()):
            return name
    return None


def _split_options(fn_name: str, rest: tuple) -> tuple[list, bool, Any]:
    """Data inputs, the UniformOutput flag and the ErrorHandler from cellfun/arrayfun inputs."""
    data = [rest[0]] if rest else []
    i = 1
    while i < len(rest) and not (is_text(rest[i]) and _option_name(rest[i]) is not None):
        data.append(rest[i])
        i += 1
    uniform, handler = True, None
    while i < len(rest):
        name = _option_name(rest[i])
        if name is None or i + 1 >= len(rest):
            raise error(f"MATLAB:{fn_name}:UnknownOption" if name is None else
                        f"MATLAB:{fn_name}:MissingOptionValue",
                        "Name-value arguments must come in pairs, with names 'UniformOutput' "
                        "or 'ErrorHandler'.")
        value = rest[i + 1]
        if name == "UniformOutput":
            if class_of(value) not in NUMERIC_CLASSES or numel(value) != 1:
                raise error(f"MATLAB:{fn_name}:NotALogicalScalar",
                            "UniformOutput must be a logical scalar.")
            uniform = is_true(value)
        else:
            if type(value) is not FunctionHandle:
                raise error(f"MATLAB:{fn_name}:NotAFunctionHandle",
                            "ErrorHandler must be a function handle.")
            handler = value
        i += 2
    return data, uniform, handler


def _check_same_size(fn_name: str, inputs: list) -> tuple[int, ...]:
    shape = size_of(inputs[0])
    for k, v in enumerate(inputs[1:], 3):
        other = size_of(v)
        if other != shape:
            n = max(len(shape), len(other))
            a, b = shape + (1,) * (n - len(shape)), other + (1,) * (n - len(other))
            d = next(i for i in range(n) if a[i] != b[i])
            raise error(f"MATLAB:{fn_name}:ArgumentMismatch",
                        "All of the input arguments must be of the same size and shape.\n"
                        f"Previous inputs had size {a[d]} in dimension {d + 1}. "
                        f"Input #{k} has size {b[d]}")
    return shape


def _element_getter(v: Any) -> Callable[[int], Any]:
    """k → the k-th element (0-based, column-major) of v, as arrayfun passes it."""
    if type(v) is np.ndarray and v.dtype == np.float64:
        flat = v.ravel(order="F")
        return lambda k: float(flat[k])
    if type(v) is np.ndarray and v.dtype == np.bool_:
        flat_b = v.ravel(order="F")
        return lambda k: bool(flat_b[k])
    if type(v) in (float, bool, complex):
        return lambda k: v
    indexing.data_of(v)  # errors for values that cannot be indexed
    return lambda k: indexing.index(v, [float(k + 1)])


UNIFORM_CLASSES = (*NUMERIC_CLASSES, "char", "struct", "string")


def _check_uniform(fn_name: str, value: Any, first: Any, index: int, output: int) -> None:
    """A UniformOutput result must be a scalar of a concatenable class, the same as the first."""
    cls = class_of(value)
    if cls not in UNIFORM_CLASSES:
        raise error(f"MATLAB:{fn_name}:UnimplementedOutputArrayType",
                    f"{cls} output type is not supported. Set 'UniformOutput' to false.")
    if numel(value) != 1:
        raise error(f"MATLAB:{fn_name}:NotAScalarOutput",
                    f"Non-scalar in Uniform output, at index {index}, output {output}.\n"
                    "Set 'UniformOutput' to false.")
    if first is not None and class_of(first) != cls:
        raise error(f"MATLAB:{fn_name}:MismatchInOutputTypes",
                    f"Mismatch in type of outputs, at index {index}, output {output} "
                    f"({cls} versus {class_of(first)}).\nSet 'UniformOutput' to false.")


def _uniform_array(values: list, shape: tuple[int, ...]) -> Any:
    """Scalars of one class joined into an array of ``shape`` (column-major)."""
    if not values:
        return np.zeros(shape)
    first = values[0]
    if type(first) is Struct:
        joined = cat(values, 1)
        return Struct(joined.fields, joined.elems.reshape(shape, order="F"))
    if type(first) is StringArray:
        return StringArray(_from_flat([v.data.reshape(-1)[0] for v in values], shape))
    scalars = [to_array(v).reshape(-1)[0] for v in values]
    dtype = to_array(first).dtype
    if dtype.kind == "f" and any(to_array(v).dtype.kind == "c" for v in values):
        dtype = np.complex128 if dtype == np.float64 else np.complex64
    flat = np.array(scalars, dtype=dtype)
    return result(flat.reshape(shape, order="F"))


def _apply(interp: Any, fn_name: str, fn: Any, inputs: list, uniform: bool, handler: Any,
           nargout: int) -> Any:
    """Call fn on the elements of inputs, collecting nargout outputs (uniform or in cells)."""
    shape = _check_same_size(fn_name, inputs)
    getters = [_element_getter(v) if fn_name == "arrayfun" else _cell_getter(v) for v in inputs]
    n = int(np.prod(shape))
    wanted = max(nargout, 1)
    columns: list[list] = [[] for _ in range(wanted)]
    for k in range(n):
        args = [get(k) for get in getters]
        try:
            out = interp.call_value(fn, args, nargout)
        except MatlabError as exc:
            if handler is None:
                raise
            info = Struct.scalar({"message": char_row(exc.message),
                                  "identifier": char_row(exc.identifier),
                                  "index": float(k + 1)})
            out = interp.call_value(handler, [info, *args], nargout)
        if nargout == 0 and not out:
            if k == 0:
                wanted = 0  # fn gives no output (disp, say): call it for its effects only
            continue
        if len(out) < wanted:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        for j in range(wanted):
            if uniform:
                _check_uniform(fn_name, out[j], columns[j][0] if columns[j] else None, k + 1, j + 1)
            columns[j].append(out[j])
    if wanted == 0 or (nargout == 0 and n and not columns[0]):
        return None
    if uniform:
        outputs = [_uniform_array(col, shape) for col in columns]
    else:
        outputs = [Cell(_from_flat(col, shape)) for col in columns]
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _cell_getter(c: Any) -> Callable[[int], Any]:
    flat = c.data.ravel(order="F")
    return lambda k: flat[k]


def _legacy_cellfun(name: str, c: Cell, extra: list) -> Any:
    """cellfun's fast built-in names ('isempty', 'length', 'size', 'isclass', ...)."""
    values = c.values()
    if name == "size":
        if len(extra) != 1:
            raise error("MATLAB:cellfun:NotEnoughInputs", "Not enough input arguments.")
        d = _size_arg(extra[0])[0]
        out = [float((size_of(v) + (1,) * d)[d - 1]) if d >= 1 else 0.0 for v in values]
    elif name == "isclass":
        if len(extra) != 1:
            raise error("MATLAB:cellfun:NotEnoughInputs", "Not enough input arguments.")
        cls = to_str(extra[0])
        out = [class_of(v) == cls for v in values]
    elif extra:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    elif name == "isempty":
        out = [numel(v) == 0 for v in values]
    elif name == "islogical":
        out = [class_of(v) == "logical" for v in values]
    elif name == "isreal":
        out = [class_of(v) in (*NUMERIC_CLASSES, "char") and to_array(v).dtype.kind != "c"
               for v in values]
    elif name == "length":
        out = [float(max(size_of(v)) if numel(v) else 0) for v in values]
    elif name == "ndims":
        out = [float(len(size_of(v))) for v in values]
    else:  # prodofsize
        out = [float(numel(v)) for v in values]
    dtype = bool if out and type(out[0]) is bool else np.float64
    if not out:
        dtype = bool if name.startswith("is") else np.float64
    return result(np.array(out, dtype=dtype).reshape(c.shape, order="F"))


def _check_function(fn_name: str, fn: Any) -> None:
    if type(fn) is not FunctionHandle and _text(fn) is None:
        raise error(f"MATLAB:{fn_name}:InvalidFunction",
                    "First input must be a function handle or a function name.")


@builtin(interp=True, nargout=True, max_out=None, dl="native")
def cellfun(interp: Any, fn: Any, *rest: Any, nargout: int = 1) -> Any:
    """A = cellfun(func, C) applies func to the contents of each cell of C.

    A = cellfun(func, C1, ..., Cn) calls func(C1{i}, ..., Cn{i}).
    [A1, ..., Am] = cellfun(...) collects m outputs.
    cellfun(..., 'UniformOutput', false) returns cell arrays; with true (the
    default) every output must be a scalar. cellfun(..., 'ErrorHandler', h)
    calls h(S, inputs...) when func errors."""
    _check_function("cellfun", fn)
    if not rest:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    name = _text(fn)
    if name in LEGACY_CELLFUN and type(rest[0]) is Cell and \
            not any(is_text(r) and _option_name(r) for r in rest[1:]) and nargout <= 1:
        if name in ("size", "isclass") or len(rest) == 1:
            return _legacy_cellfun(name, rest[0], list(rest[1:]))
    inputs, uniform, handler = _split_options("cellfun", rest)
    for k, v in enumerate(inputs, 2):
        if type(v) is not Cell:
            raise error("MATLAB:cellfun:NotACell",
                        f"Input #{k} expected to be a cell array, was {class_of(v)} instead.")
    return _apply(interp, "cellfun", fn, inputs, uniform, handler, nargout)


@builtin(interp=True, nargout=True, max_out=None)
def arrayfun(interp: Any, fn: Any, *rest: Any, nargout: int = 1) -> Any:
    """B = arrayfun(func, A) applies func to each element of array A.

    A may be numeric, logical, char, a struct array, a cell array (func gets
    1-by-1 cells) or a string array. Options and several inputs/outputs work
    as for cellfun: 'UniformOutput' and 'ErrorHandler'."""
    _check_function("arrayfun", fn)
    if not rest:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    inputs, uniform, handler = _split_options("arrayfun", rest)
    return _apply(interp, "arrayfun", fn, inputs, uniform, handler, nargout)


# ----------------------------------------------------------- containers.Map


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
    if _map_option(args[0]) in ("KeyType", "ValueType"):
        options = _map_options(args)
        return MapObject(options.get("KeyType", "char"), options.get("ValueType", "any"))
    if len(args) < 2:
        raise error("MATLAB:Containers:Map:NoValues",
                    "The number of keys and values must be the same.")
    options = _map_options(args[2:])
    if set(options) - {"UniformValues"}:
        raise error("MATLAB:Containers:Map:InvalidOption",
                    "Only 'UniformValues' can be given with keys and values.")
    keys, key_type = _map_keys(args[0])
    values = _map_values(args[1], len(keys))
    uniform = options.get("UniformValues", True)
    m = MapObject(key_type, _value_type(values) if uniform else "any")
    for k, v in zip(keys, values, strict=True):
        m.subsasgn_paren([k], v)
    return m


def _map_option(v: Any) -> str | None:
    text = _text(v)
    if text is None:
        return None
    for name in ("KeyType", "ValueType", "UniformValues"):
        if text.lower() == name.lower():
            return name
    return None


def _map_options(args: tuple) -> dict[str, Any]:
    if len(args) % 2:
        raise error("MATLAB:Containers:Map:InvalidOption",
                    "Name-value arguments must come in pairs.")
    options: dict[str, Any] = {}
    for i in range(0, len(args), 2):
        name = _map_option(args[i])
        value = args[i + 1]
        if name is None:
            raise error("MATLAB:Containers:Map:InvalidOption",
                        "Valid options are 'KeyType', 'ValueType' and 'UniformValues'.")
        if name == "UniformValues":
            options[name] = is_true(value)
            continue
        text = _text(value)
        allowed = KEY_TYPES if name == "KeyType" else VALUE_TYPES
        if text not in allowed:
            raise error(f"MATLAB:Containers:Map:Unsupported{name}",
                        f"Unsupported {name} '{text or ''}' specified. Valid values are "
                        + ", ".join(f"'{t}'" for t in allowed) + ".")
        options[name] = text
    return options


def _map_keys(keys: Any) -> tuple[list, str]:
    """The keys of containers.Map(keys, values) and the KeyType they imply."""
    if type(keys) is Cell:
        items = keys.values()
    elif type(keys) is StringArray:
        items = [StringArray.scalar(s or "") for s in keys.data.ravel(order="F")]
    elif is_text(keys):
        return [keys], "char"
    elif class_of(keys) in NUMERIC_CLASSES:
        a = to_array(keys)
        cls = class_of(keys)
        key_type = cls if cls in KEY_TYPES else "double"
        return [indexing.index(keys, [float(k + 1)]) for k in range(a.size)], key_type
    else:
        raise error("MATLAB:Containers:Map:InvalidKeyType",
                    "Specified key type does not match the type expected for this container.")
    if all(is_text(k) for k in items):
        return items, "char"
    if all(class_of(k) in NUMERIC_CLASSES and numel(k) == 1 for k in items):
        return items, "double"
    raise error("MATLAB:Containers:Map:InvalidKeyType",
                "Specified key type does not match the type expected for this container.")


def _map_values(values: Any, n: int) -> list:
    if type(values) is Cell:
        items = values.values()
    elif n == 1:
        items = [values]
    elif class_of(values) in NUMERIC_CLASSES or type(values) is StringArray:
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

