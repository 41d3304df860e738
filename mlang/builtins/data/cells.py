"""Cell arrays: cell, iscell, num2cell, cell2mat, deal, and the function-application
builtins cellfun and arrayfun (with their options 'UniformOutput' and 'ErrorHandler')."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from mlang.builtins.coerce import (
    NUMERIC_OR_LOGICAL,
    dim_argument,
    dims_argument,
    option_flag,
    size_arguments,
    split_options,
    text_or_none,
    text_scalar,
)
from mlang.builtins.data.construct import SMALL_SIZE, ones, small_shape, zeros
from mlang.builtins.text.forms import object_array
from mlang.errors import MatlabError, error
from mlang.registry import BUILTINS, MISSING_LITERAL, Builtin, builtin
from mlang.syntax import ast
from mlang.values import indexing
from mlang.values.cell import Cell
from mlang.values.concat import cat
from mlang.values.core import char_row, char_text, class_of, fix_shape, numel, result, size_of, to_array
from mlang.values.handle import FunctionHandle
from mlang.values.objects import CALL_ROUTES, FUNCTION_LIKE
from mlang.values.string import StringArray
from mlang.values.struct import Struct

# refuse sizes no machine could hold, rather than exhaust memory
MAX_CELLS = 2**31


def _literal_size(literals: tuple) -> Callable[[list], Cell] | None:
    """cell(m, n) or cell(n) with the sizes written as literals (of a ``small_shape`` size): a
    function giving a new cell of empty matrices each call, copied from one made here (see
    Builtin.specialize)."""
    if any(v is MISSING_LITERAL for v in literals):
        return None
    small = small_shape(literals)
    if small is None:
        return None
    template = Cell.filled(small).data
    template.flags.writeable = False  # (only its copies leave here)
    return lambda args: Cell(template.copy())


@builtin(specialize=_literal_size)
def cell(*dims: Any) -> Cell:
    """C = cell(n) creates an n-by-n cell array of empty matrices.

    C = cell(sz1,...,szN) or cell([sz1 ... szN]) creates a cell array of that size."""
    small = small_shape(dims)
    if small is not None:
        return Cell.filled(small)
    shape = fix_shape(size_arguments(dims, "cell")) if dims else (0, 0)
    if int(np.prod(shape, dtype=object)) > MAX_CELLS or any(n > MAX_CELLS for n in shape):
        raise error("MATLAB:array:SizeLimitExceeded",
                    "Requested array exceeds the maximum possible variable size.")
    return Cell.filled(shape)


@builtin(dl="native")
def iscell(x: Any) -> bool:
    """tf = iscell(A) is true when A is a cell array."""
    return type(x) is Cell


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
        return Cell(object_array(values, size_of(a)))
    return _num2cell_dims(a, sorted(set(dims_argument(dims, repeats=True))))


def _num2cell_dims(a: Any, axes: list[int]) -> Cell:
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
    return Cell(object_array(values, fix_shape(out_shape)))


@builtin()
def cell2mat(c: Any) -> Any:
    """M = cell2mat(C) concatenates the contents of the cells of C into one array."""
    if type(c) is not Cell:
        raise error("MATLAB:cell2mat:NotACell", "Input must be a cell array.")
    contents = c.values()
    if not contents:
        return np.zeros((0, 0))
    for x in contents:
        if type(x) is Cell or not (type(x) is Struct or class_of(x) in (*NUMERIC_OR_LOGICAL, "char")):
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


# -------------------------------------------------------- cellfun / arrayfun

LEGACY_CELLFUN = ("isempty", "islogical", "isreal", "length", "ndims", "prodofsize", "size",
                  "isclass")
LEGACY_ONE_INPUT = frozenset(LEGACY_CELLFUN) - {"size", "isclass"}  # the names taking C alone
OPTION_NAMES = ("UniformOutput", "ErrorHandler")


def _split_options(fn_name: str, rest: tuple) -> tuple[list, bool, Any]:
    """Data inputs, the UniformOutput flag and the ErrorHandler from cellfun/arrayfun inputs."""
    if len(rest) >= 3:  # (A, ..., 'UniformOutput', flag) spelt out in full: the usual call
        word, flag = rest[-2], rest[-1]
        kind = type(flag)
        if (kind is bool or (kind is float and flag == flag)) and type(word) is np.ndarray \
                and word.dtype.kind == "V" and word.shape == (1, 13) \
                and char_text(word).lower() == "uniformoutput" \
                and all(_not_text(v) for v in rest[1:-2]):  # no option named before it
            return list(rest[:-2]), bool(flag), None
    data, given = split_options(rest, OPTION_NAMES, partial=True, start=1)
    uniform = option_flag(given["UniformOutput"], "UniformOutput") if "UniformOutput" in given else True
    handler = given.get("ErrorHandler")
    if handler is not None and type(handler) is not FunctionHandle:
        raise error(f"MATLAB:{fn_name}:NotAFunctionHandle", "ErrorHandler must be a function handle.")
    return data, uniform, handler


def _not_text(v: Any) -> bool:
    """A cell array or a numeric or logical value: no option name."""
    kind = type(v)
    return kind is Cell or kind is float or kind is bool or (kind is np.ndarray and v.dtype.kind != "V")


def _check_same_size(fn_name: str, inputs: list) -> tuple[int, ...]:
    shape = size_of(inputs[0])
    if len(inputs) == 1:
        return shape
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


def _elements(v: Any, n: int) -> Iterable[Any]:
    """The n elements (column-major) of v, each as arrayfun passes it; values other than
    double and logical arrays are indexed one element at a time, as the calls need them."""
    if type(v) is np.ndarray and (v.dtype == np.float64 or v.dtype == np.bool_):
        return v.ravel(order="F").tolist()  # Python floats or bools
    if type(v) in (float, bool, complex):
        return (v,)
    if type(v) is Struct and v.elems.ndim == 2:
        return _struct_elements(v)
    indexing.data_of(v)  # errors for values that cannot be indexed
    return (indexing.index(v, [float(k + 1)]) for k in range(n))


def _struct_elements(v: Struct) -> Iterable[Struct]:
    """The elements of a struct array each as v(k) gives it: a 1-by-1 struct of its own."""
    fields = v.fields
    for fields_of_one in v.elems.ravel(order="F").tolist():
        elems = np.empty((1, 1), dtype=object)
        elems[0, 0] = dict(fields_of_one)
        yield Struct(list(fields), elems)


UNIFORM_CLASSES = (*NUMERIC_OR_LOGICAL, "char", "struct", "string")


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


def _scalars_array(values: list, dtype: Any, shape: tuple[int, ...]) -> Any:
    """Python scalars (column-major) as the value of an array of ``shape``."""
    if len(shape) == 2 and shape[0] == 1:  # a row: made in its shape, no reshape
        return result(np.array([values], dtype=dtype))
    return result(np.array(values, dtype=dtype).reshape(shape, order="F"))


def _uniform_array(values: list, shape: tuple[int, ...]) -> Any:
    """Scalars of one class joined into an array of ``shape`` (column-major)."""
    if not values:
        return np.zeros(shape)
    first = values[0]
    kind = type(first)
    if kind is float or kind is bool:
        # the common outputs (numel, isempty, x*2 on doubles): Python scalars, one class
        for v in values:
            if type(v) is not kind:
                break
        else:
            return _scalars_array(values, np.float64 if kind is float else np.bool_, shape)
    if type(first) is Struct:
        joined = cat(values, 1)
        return Struct(joined.fields, joined.elems.reshape(shape, order="F"))
    if type(first) is StringArray:
        return StringArray(object_array([v.data.reshape(-1)[0] for v in values], shape))
    scalars = [to_array(v).reshape(-1)[0] for v in values]
    dtype = to_array(first).dtype
    if dtype.kind == "f" and any(to_array(v).dtype.kind == "c" for v in values):
        dtype = np.complex128 if dtype == np.float64 else np.complex64
    flat = np.array(scalars, dtype=dtype)
    return result(flat.reshape(shape, order="F"))


def _cells_of(values: list, shape: tuple[int, ...]) -> Cell:
    """The values (column-major) as a cell array of ``shape``, each held as it is."""
    return Cell(np.fromiter(values, dtype=object, count=len(values)).reshape(shape, order="F"))


def _element_caller(interp: Any, fn: Any, nargout: int) -> Callable[[list], list]:
    """The call of fn on one element's arguments, with fn looked up once for the whole
    cellfun/arrayfun call (interp.call_value would look it up again for every element)."""
    # (closures rather than partial(..., nargout=...): a keyword argument costs on every call)
    if type(fn) is FunctionHandle:
        if fn.params is not None:  # anonymous
            call_handle = interp.call_handle
            return lambda args: call_handle(fn, args, nargout)
        target, scope = fn.target or interp.resolve(fn.name), fn.scope
    elif type(fn) in FUNCTION_LIKE:
        call_as_function = fn.call_as_function
        return lambda args: call_as_function(interp, args, nargout)
    else:
        name = text_or_none(fn)
        target, scope = (interp.resolve(name) if name else None), None
    if target is None:  # no such function: call_value raises MATLAB's error at the first element
        call_value = interp.call_value
        return lambda args: call_value(fn, args, nargout)
    call = target.call  # its fourth parameter is not named alike everywhere: passed by position
    return lambda args: call(interp, args, nargout, scope)


# Builtins without side effects whose value depends on their one argument alone: cellfun
# may call their Python function on every cell directly (and again through the general path
# when one errors, so that errors come in MATLAB's order).
PURE_BUILTINS = frozenset({
    "numel", "length", "ndims", "isempty", "isscalar", "isvector", "isrow", "iscolumn",
    "ismatrix", "islogical", "isnumeric", "ischar", "iscell", "isstruct", "isfloat",
    "isinteger", "isreal", "iscellstr", "isstring", "class", "upper", "lower", "strtrim", "deblank",
    "fliplr", "flipud", "str2double",
})


def _pure_builtin(interp: Any, fn: Any, inputs: list, nargout: int) -> Builtin | None:
    """The builtin fn names when it is one of PURE_BUILTINS and each cell can be passed to
    its Python function directly: one cell array input, at most one output, and no cell
    whose class routes its own calls (objects, dlarray, sparse, tables)."""
    if len(inputs) != 1 or nargout > 1:
        return None
    if type(fn) is FunctionHandle:
        if fn.params is not None:
            return None
        target = fn.target or interp.resolve(fn.name)
    else:
        name = text_or_none(fn) if type(fn) not in FUNCTION_LIKE else None
        target = interp.resolve(name) if name else None
    if type(target) is not Builtin or target.name not in PURE_BUILTINS or not target.plain \
            or target.min_in > 1 or target.max_in_count < 1:
        return None
    routes = CALL_ROUTES
    for v in inputs[0].data.flat:
        if type(v) in routes:
            return None
    return target


def _direct_outputs(target: Builtin, cells: Cell) -> list | None:
    """The builtin's value on each cell, or None when it errors on one or gives anything but
    one value (the general path then calls it again and reports as usual)."""
    fn = target.fn
    try:
        out = [fn(v) for v in cells.data.ravel(order="F").tolist()]
    except MatlabError:
        return None
    for v in out:
        if v is None or type(v) is tuple:
            return None
    return out


# Operators that act element by element on a double array as on each of its elements;
# COMPARISONS give logical values, which arithmetic takes as double (numbers, as MATLAB does).
ELEMENTWISE = {"+": np.add, "-": np.subtract, ".*": np.multiply, "./": np.divide}
COMPARISONS = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
               "==": np.equal, "~=": np.not_equal}
# elementwise only with a scalar on the right (either side for *): x*2, 2*x, x/4
SCALAR_SIDED = {"*": np.multiply, "/": np.divide}

VectorCode = tuple[Callable[[np.ndarray], Any], bool]  # (x -> value, whether the value is scalar)


def _as_number(v: Any) -> Any:
    return v.astype(np.float64) if type(v) is np.ndarray and v.dtype == np.bool_ else v


def _vector_body(handle: FunctionHandle, constant_row: Callable[[Any], np.ndarray | None]
                 ) -> Callable[[np.ndarray], np.ndarray] | None:
    """The body of an anonymous function of one input made of +, -, .*, ./, comparisons,
    unary minus, * and / by a scalar, double literals and captured double scalars, as a
    function of a double array of inputs: what each call on one double gives, all at once
    (None for any other body)."""
    node = handle.node
    if type(node) is not ast.Lambda or len(node.params) != 1 or node.params[0] in (None, "varargin"):
        return None
    param, captured = node.params[0], handle.captured or {}

    def build(e: Any) -> VectorCode | None:
        kind = type(e)
        if kind is ast.Paren:
            return build(e.expr)
        if kind is ast.Name:
            if e.name == param:
                return (lambda x: x), False
            value = captured.get(e.name)
            return ((lambda x: value), True) if type(value) is float else None
        if kind is ast.Number:
            if e.cls != "double" or type(e.value) is complex:
                return None
            constant = float(e.value)
            return (lambda x: constant), True
        if kind is ast.Unary and e.op == "-":
            inner = build(e.operand)
            if inner is None:
                return None
            f = inner[0]
            return (lambda x: -_as_number(f(x))), inner[1]
        if kind is not ast.Binary:
            return None
        left, right = build(e.left), build(e.right)
        if left is None or right is None:
            return None
        if e.op in ("^", ".^") and type(e.right) is ast.Number and e.right.value == 2 \
                and e.right.cls == "double":
            base = left[0]
            return (lambda x: np.square(_as_number(base(x)))), left[1]
        lf, rf, scalar = left[0], right[0], left[1] and right[1]
        compare = COMPARISONS.get(e.op)
        if compare is not None:
            return (lambda x: compare(lf(x), rf(x))), scalar
        op = ELEMENTWISE.get(e.op)
        if op is None:
            op = SCALAR_SIDED.get(e.op)
            if op is None or not (right[1] or (e.op == "*" and left[1])):
                return None
        return (lambda x: op(_as_number(lf(x)), _as_number(rf(x)))), scalar

    body = node.body
    if type(body) is ast.Binary and body.op in ("*", ".*"):  # x*ones(1,m), zeros(1,m).*x
        row_right = constant_row(body.right)
        row_left = constant_row(body.left) if row_right is None else None
        if row_right is not None or row_left is not None:
            code = build(body.left if row_right is not None else body.right)
            if code is None or code[1]:
                return None
            f = code[0]
            if row_right is not None:
                return lambda x: np.multiply.outer(_as_number(f(x)), row_right).reshape(x.size, 1, -1)
            return lambda x: np.multiply.outer(row_left, _as_number(f(x))).T.reshape(x.size, 1, -1)
    if type(body) is ast.Matrix and len(body.rows) == 1 and len(body.rows[0]) > 1:
        parts = [build(e) for e in body.rows[0]]
        if any(p is None for p in parts) or all(p[1] for p in parts):  # type: ignore[index]
            return None
        return lambda x: _row_of_parts([p[0](x) for p in parts], x.size)  # type: ignore[index]
    code = build(body)
    if code is None or code[1]:  # a body not using its input: the general path
        return None
    return code[0]


def _row_of_parts(parts: list, n: int) -> Any:
    """[a b ...] for each of n inputs, as an n-by-1-by-m array (None when a part is logical:
    the general path joins those by the class rules)."""
    if any(type(p) is np.ndarray and p.dtype != np.float64 for p in parts):
        return None
    columns = [p if type(p) is np.ndarray else np.full(n, p) for p in parts]
    return np.stack(columns, axis=1).reshape(n, 1, len(parts))


# Builtins whose call with literal sizes (1, m) a vectorised body may take as a constant row.
FILLED_ROWS = {"ones": (ones, 1.0), "zeros": (zeros, 0.0)}


def _builtin_row(interp: Any, handle: FunctionHandle, e: Any) -> np.ndarray | None:
    """The values of ones(1,m) or zeros(1,m) (literal sizes, 2 <= m <= SMALL_SIZE) in the body
    of an anonymous function, when that name calls the builtin there (no variable, local
    function or file of that name); None for any other expression."""
    if type(e) is not ast.Index or e.braces or type(e.base) is not ast.Name or len(e.args) != 2:
        return None
    name = e.base.name
    filled = FILLED_ROWS.get(name)
    if filled is None or name in (handle.captured or {}) or name in (handle.params or ()):
        return None
    sizes = []
    for a in e.args:
        if type(a) is not ast.Number or a.cls != "double" or type(a.value) is complex:
            return None
        sizes.append(a.value)
    width = sizes[1]
    if sizes[0] != 1 or not 2 <= width <= SMALL_SIZE or width != int(width):
        return None
    target = interp.lookup(name, handle.target)
    if type(target) is not Builtin or target.fn is not filled[0]:
        return None
    return np.full(int(width), filled[1])


def _vector_apply(interp: Any, fn_name: str, fn: Any, inputs: list, shape: tuple[int, ...],
                  uniform: bool, nargout: int) -> Any:
    """fn applied to all the doubles of the one input at once, or None when the general
    path must call it element by element (see _vector_body)."""
    if type(fn) is not FunctionHandle or fn.params is None or len(inputs) != 1 or nargout > 1:
        return None
    v = inputs[0]
    if fn_name == "cellfun":
        flat = v.data.ravel(order="F")
        if not all(type(x) is float for x in flat):
            return None
        x = np.array(flat.tolist(), dtype=np.float64)
    elif type(v) is np.ndarray and v.dtype == np.float64:
        x = v.ravel(order="F")
    else:
        return None
    body = _vector_body(fn, lambda e: _builtin_row(interp, fn, e)) if x.size else None
    if body is None:
        return None
    with np.errstate(all="ignore"):  # x/0 is Inf, 0/0 NaN, as for one double
        out = body(x)
    if out is None or (out.ndim == 3 and uniform):  # rows are not scalar outputs
        return None
    if out.ndim == 3:
        return _cells_of(list(out), shape)  # each a 1-by-m row
    if uniform:
        return result(out.reshape(shape, order="F"))
    return _cells_of(out.tolist(), shape)


def _apply(interp: Any, fn_name: str, fn: Any, inputs: list, uniform: bool, handler: Any,
           nargout: int) -> Any:
    """Call fn on the elements of inputs, collecting nargout outputs (uniform or in cells)."""
    shape = _check_same_size(fn_name, inputs)
    if fn_name == "cellfun":
        target = _pure_builtin(interp, fn, inputs, nargout)
        values = _direct_outputs(target, inputs[0]) if target is not None else None
        if values is not None:
            if uniform:
                kind = _check_uniform_column(fn_name, values)
                if kind is not None:  # Python scalars of one class (the usual outputs)
                    return _scalars_array(values, np.float64 if kind is float else np.bool_, shape)
                return _uniform_array(values, shape)
            return _cells_of(values, shape)
    vector = _vector_apply(interp, fn_name, fn, inputs, shape, uniform, nargout)
    if vector is not None:
        return vector
    n = math.prod(shape)
    if fn_name == "arrayfun":
        sources = [_elements(v, n) for v in inputs]
    else:
        sources = [v.data.ravel(order="F").tolist() for v in inputs]
    if len(sources) == 1:
        calls: Iterable[list] = ([x] for x in sources[0])
    else:
        calls = map(list, zip(*sources, strict=False))  # each element's argument list (sizes agree)
    call = _element_caller(interp, fn, nargout)
    if nargout == 1:
        column = _one_output(interp, fn_name, call, calls, uniform, handler)
        return _uniform_array(column, shape) if uniform else _cells_of(column, shape)
    wanted = max(nargout, 1)
    columns: list[list] = [[] for _ in range(wanted)]
    outputs_at = list(enumerate(columns))
    for k, args in enumerate(calls):
        try:
            out = call(args)
        except MatlabError as exc:
            if handler is None:
                raise
            out = _handle_error(interp, handler, exc, k, args, nargout)
        if nargout == 0 and not out:
            if k == 0:
                wanted = 0  # fn gives no output (disp, say): call it for its effects only
                outputs_at = []
            continue
        if len(out) < wanted:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        for j, column in outputs_at:
            value = out[j]
            if uniform:
                kind = type(value)
                # a double or logical scalar like the first output needs no further check
                if not (column and (kind is float or kind is bool) and type(column[0]) is kind):
                    _check_uniform(fn_name, value, column[0] if column else None, k + 1, j + 1)
            column.append(value)
    if wanted == 0 or (nargout == 0 and n and not columns[0]):
        return None
    if uniform:
        outputs = [_uniform_array(col, shape) for col in columns]
    else:
        outputs = [_cells_of(col, shape) for col in columns]
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _one_output(interp: Any, fn_name: str, call: Callable[[list], list], calls: Iterable[list],
                uniform: bool, handler: Any) -> list:
    """_apply's loop for one output: fn's first output on each element's arguments."""
    column: list = []
    append = column.append
    for k, args in enumerate(calls):
        try:
            out = call(args)
        except MatlabError as exc:
            if handler is None:
                raise
            out = _handle_error(interp, handler, exc, k, args, 1)
        if not out:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        value = out[0]
        if uniform:
            kind = type(value)
            # a double or logical scalar like the first output needs no further check
            if not (column and (kind is float or kind is bool) and type(column[0]) is kind):
                _check_uniform(fn_name, value, column[0] if column else None, k + 1, 1)
        append(value)
    return column


def _handle_error(interp: Any, handler: Any, exc: MatlabError, k: int, args: list, nargout: int) -> list:
    """The ErrorHandler's outputs in place of fn's, for the error fn gave on element k."""
    info = Struct.scalar({"message": char_row(exc.message),
                          "identifier": char_row(exc.identifier),
                          "index": float(k + 1)})
    return interp.call_value(handler, [info, *args], nargout)


def _check_uniform_column(fn_name: str, values: list) -> type | None:
    """The UniformOutput checks of _apply on one column of outputs, in order; the values'
    type when they are all Python floats or all bools (else None)."""
    first = values[0] if values else None
    kind = type(first)
    if kind is float or kind is bool:  # a double or logical scalar first: check the others
        alike = True
        for k, value in enumerate(values):
            if type(value) is not kind:
                _check_uniform(fn_name, value, first, k + 1, 1)
                alike = False
        return kind if alike else None
    for k, value in enumerate(values):
        if not (k and (kind is float or kind is bool) and type(value) is kind):
            _check_uniform(fn_name, value, first if k else None, k + 1, 1)
    return None


def _legacy_cellfun(name: str, c: Cell, extra: list) -> Any:
    """cellfun's fast built-in names ('isempty', 'length', 'size', 'isclass', ...)."""
    values = c.data.ravel(order="F").tolist()
    if name == "isempty":  # the usual one, first
        out = [v.size == 0 if type(v) is np.ndarray else numel(v) == 0 for v in values]
    elif name == "size":
        if len(extra) != 1:
            raise error("MATLAB:cellfun:NotEnoughInputs", "Not enough input arguments.")
        d = dim_argument(extra[0]) + 1
        out = [float((size_of(v) + (1,) * d)[d - 1]) for v in values]
    elif name == "isclass":
        if len(extra) != 1:
            raise error("MATLAB:cellfun:NotEnoughInputs", "Not enough input arguments.")
        cls = text_scalar(extra[0], "Class name")
        out = [class_of(v) == cls for v in values]
    elif extra:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    elif name == "islogical":
        out = [class_of(v) == "logical" for v in values]
    elif name == "isreal":
        is_real = BUILTINS["isreal"].fn  # one rule for @isreal and 'isreal' (sparse, dlarray)
        out = [bool(is_real(v)) for v in values]
    elif name == "length":
        out = [float(max(v.shape) if v.size else 0) if type(v) is np.ndarray
               else float(max(size_of(v)) if numel(v) else 0) for v in values]
    elif name == "ndims":
        out = [float(len(size_of(v))) for v in values]
    else:  # prodofsize
        out = [float(numel(v)) for v in values]
    dtype = bool if out and type(out[0]) is bool else np.float64
    if not out:
        dtype = bool if name.startswith("is") else np.float64
    return _scalars_array(out, dtype, c.data.shape)


def _check_function(fn_name: str, fn: Any) -> str | None:
    """The function's name when it is given as text (None for a handle), or MATLAB's error
    for anything that is no function."""
    kind = type(fn)
    if kind is FunctionHandle or kind in FUNCTION_LIKE:
        return None
    if kind is np.ndarray and fn.dtype.kind == "V" and fn.ndim == 2 and fn.shape[0] == 1:
        return char_text(fn)  # a char row: text_or_none's answer, read directly
    name = text_or_none(fn)
    if name is None:
        raise error(f"MATLAB:{fn_name}:InvalidFunction",
                    "First input must be a function handle or a function name.")
    return name


@builtin(interp=True, nargout=True, max_out=None, dl="native")
def cellfun(interp: Any, fn: Any, *rest: Any, nargout: int = 1) -> Any:
    """A = cellfun(func, C) applies func to the contents of each cell of C.

    A = cellfun(func, C1, ..., Cn) calls func(C1{i}, ..., Cn{i}).
    [A1, ..., Am] = cellfun(...) collects m outputs.
    cellfun(..., 'UniformOutput', false) returns cell arrays; with true (the
    default) every output must be a scalar. cellfun(..., 'ErrorHandler', h)
    calls h(S, inputs...) when func errors."""
    name = _check_function("cellfun", fn)
    if len(rest) == 1 and type(rest[0]) is Cell:  # one cell array and no options
        if name in LEGACY_ONE_INPUT and nargout <= 1 and name != "isreal":
            return _legacy_cellfun(name, rest[0], [])
        inputs, uniform, handler = list(rest), True, None
    elif not rest:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    else:
        inputs, uniform, handler = _split_options("cellfun", rest)
    if name in LEGACY_CELLFUN and type(rest[0]) is Cell and len(inputs) == len(rest) and nargout <= 1 \
            and not (name == "isreal" and any(type(v) in CALL_ROUTES for v in rest[0].data.flat)):
        if name in ("size", "isclass") or len(rest) == 1:
            return _legacy_cellfun(name, rest[0], list(rest[1:]))
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
    if len(rest) == 1:  # one array and no options
        inputs, uniform, handler = list(rest), True, None
    elif not rest:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    else:
        inputs, uniform, handler = _split_options("arrayfun", rest)
    return _apply(interp, "arrayfun", fn, inputs, uniform, handler, nargout)
