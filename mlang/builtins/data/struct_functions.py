"""Functions over structures and indexing as functions: structfun (a function applied to
each field), substruct (an indexing path as a struct array), subsref and subsasgn
(indexing and indexed assignment along such a path)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, split_options, text_or_none
from mlang.builtins.data.structs import assign_through_index, setfield
from mlang.builtins.text.forms import object_array
from mlang.errors import MatlabError, error
from mlang.registry import builtin
from mlang.values import indexing
from mlang.values.cell import Cell
from mlang.values.core import char_row, class_of, numel, result, to_array
from mlang.values.handle import FunctionHandle
from mlang.values.objects import kind_of
from mlang.values.struct import Struct

# ---------------------------------------------------------------- structfun

_UNIFORM_CLASSES = ("double", "single", "logical", "char", "int8", "uint8", "int16", "uint16",
                    "int32", "uint32", "int64", "uint64")


def _uniform_column(values: list) -> Any:
    """Scalars of one class as a column (MATLAB's class for the concatenation)."""
    if not values:
        return np.zeros((0, 1))
    scalars = [to_array(v).reshape(-1)[0] for v in values]
    dtype = to_array(values[0]).dtype
    if any(to_array(v).dtype.kind == "c" for v in values) and dtype.kind == "f":
        dtype = np.complex128 if dtype == np.float64 else np.complex64
    return result(np.array(scalars, dtype=dtype).reshape(-1, 1))


@builtin(interp=True, nargout=True, max_out=None)
def structfun(interp: Any, fn: Any, s: Any, *opts: Any, nargout: int = 1) -> Any:
    """A = structfun(func, S) applies func to each field of scalar structure S; A is a
    column vector with one element per field (func must return scalars).
    [A1, ..., Am] = structfun(...) collects m outputs.
    structfun(..., 'UniformOutput', false) returns structures with S's fields holding the
    outputs; structfun(..., 'ErrorHandler', h) calls h(err, value) when func errors
    (err has the fields message, identifier and index)."""
    if type(fn) is not FunctionHandle and text_or_none(fn) is None:
        raise error("MATLAB:structfun:InvalidFunction",
                    "First input must be a function handle or a function name.")
    if type(s) is not Struct:
        raise error("MATLAB:structfun:NotAStruct",
                    f"Input #2 expected to be a structure, was {class_of(s)} instead.")
    if s.elems.size != 1:
        raise error("MATLAB:structfun:StructMustBeScalar",
                    "Inputs to STRUCTFUN must be scalar structures.")
    rest, given = split_options(opts, ("UniformOutput", "ErrorHandler"), partial=True)
    if rest:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    uniform = option_flag(given["UniformOutput"], "UniformOutput") \
        if "UniformOutput" in given else True
    handler = given.get("ErrorHandler")
    if handler is not None and type(handler) is not FunctionHandle:
        raise error("MATLAB:structfun:NotAFunctionHandle", "ErrorHandler must be a function handle.")
    element = s.element(0)
    wanted = max(nargout, 1)
    columns: list[list] = [[] for _ in range(wanted)]
    for k, name in enumerate(s.fields):
        value = element[name]
        try:
            out = interp.call_value(fn, [value], nargout)
        except MatlabError as exc:
            if handler is None:
                raise
            info = Struct.scalar({"message": char_row(exc.message),
                                  "identifier": char_row(exc.identifier),
                                  "index": float(k + 1)})
            out = interp.call_value(handler, [info, value], nargout)
        if nargout == 0 and not out:
            wanted = 0
            continue
        if len(out) < wanted:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        for j in range(wanted):
            v = out[j]
            if uniform:
                _check_uniform(v, columns[j][0] if columns[j] else None, k + 1)
            columns[j].append(v)
    if wanted == 0:
        return None
    if uniform:
        outputs = [_uniform_column(col) for col in columns]
    else:
        outputs = [Struct.scalar(dict(zip(s.fields, col, strict=True))) for col in columns]
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _check_uniform(value: Any, first: Any, index: int) -> None:
    cls = class_of(value)
    if cls not in _UNIFORM_CLASSES:
        raise error("MATLAB:structfun:UnimplementedOutputArrayType",
                    f"{cls} output type is not supported. Set 'UniformOutput' to false.")
    if numel(value) != 1:
        raise error("MATLAB:structfun:NotAScalarOutput",
                    f"Non-scalar in Uniform output, at index {index}, output 1.\n"
                    "Set 'UniformOutput' to false.")
    if first is not None and class_of(first) != cls:
        raise error("MATLAB:structfun:MismatchInOutputTypes",
                    f"Mismatch in type of outputs, at index {index}, output 1 "
                    f"({cls} versus {class_of(first)}).\nSet 'UniformOutput' to false.")


# --------------------------------------------------------------- substruct

_TYPES = ("()", "{}", ".")


def _bad_substruct(which: str, message: str) -> Exception:
    return error(f"MATLAB:substruct:{which}", message)


@builtin()
def substruct(*args: Any) -> Struct:
    """S = substruct(type1, subs1, type2, subs2, ...) makes the indexing path for subsref
    and subsasgn: a 1-by-n struct array with fields type ('()', '{}' or '.') and subs (a
    cell array of subscripts for '()' and '{}', a field name for '.').

    S = substruct('()', {1 ':'}, '.', 'f') stands for (1,:).f."""
    if not args or len(args) % 2:
        raise error("MATLAB:substruct:nargin",
                    "SUBSTRUCT must have at least 2 input arguments, and the number of input "
                    "arguments must be even.")
    elems = []
    for k in range(0, len(args), 2):
        kind = text_or_none(args[k])
        subs = args[k + 1]
        if kind not in _TYPES:
            raise _bad_substruct("type", "TYPE must be one of '()', '{}' or '.'.")
        if kind == ".":
            if text_or_none(subs) is None:
                raise _bad_substruct("subsDotChar", "SUBS must be a character vector or "
                                     "string scalar for a '.' subscript.")
        elif type(subs) is not Cell and not (type(subs) is np.ndarray and subs.dtype.kind == "V"
                                             and text_or_none(subs) == ":"):
            raise _bad_substruct("subsCell",
                                 "SUBS must be a cell array for '()' and '{}' subscripts.")
        elems.append({"type": char_row(kind), "subs": subs})
    return Struct(["type", "subs"], object_array(elems, (1, len(elems))))


# ---------------------------------------------------------- subsref, subsasgn


def _path(s: Any) -> list[tuple[str, Any]]:
    """An indexing path (a struct array with fields type and subs) as (type, subscripts)
    pairs: the subscripts are a list for '()' and '{}', the field name for '.'."""
    if type(s) is not Struct or "type" not in s.fields or "subs" not in s.fields:
        raise error("MATLAB:subsArgNotStruct",
                    "Second argument must be a struct array with fields 'type' and 'subs'.")
    steps = []
    for d in s.elems.ravel(order="F"):
        kind = text_or_none(d["type"])
        subs = d["subs"]
        if kind not in _TYPES:
            raise error("MATLAB:subsTypeMustBeSquigglyOrSmooth",
                        "Subscript type must be '()', '{}' or '.'.")
        if kind == ".":
            name = text_or_none(subs)
            if name is None:
                raise error("MATLAB:subsFieldMustBeChar",
                            "Field name must be a character vector or string scalar.")
            steps.append((kind, name))
        elif type(subs) is Cell:
            steps.append((kind, subs.values()))
        elif text_or_none(subs) == ":":
            steps.append((kind, [subs]))
        else:
            raise error("MATLAB:subsSubsMustBeCellOrChar",
                        "Subscripts for '()' and '{}' must be a cell array.")
    return steps


def _field_values(value: Any, name: str) -> list:
    if type(value) is Struct:
        if name not in value.fields:
            raise error("MATLAB:nonExistentField", f"Unrecognized field name \"{name}\".")
        return [d[name] for d in value.elems.ravel(order="F")]
    kind = kind_of(value)
    if kind is not None:
        return [kind.get_property(value, name)]
    raise error("MATLAB:structRefFromNonStruct",
                "Dot indexing is not supported for variables of this type.")


def _one(values: list) -> Any:
    if len(values) != 1:
        raise error("MATLAB:index:expected_one_output_from_expression",
                    "Expected one output from a curly brace or dot indexing expression, but "
                    f"there were {len(values)} results.")
    return values[0]


@builtin(interp=True, nargout=True, max_out=None, dl="native")
def subsref(interp: Any, a: Any, s: Any, *, nargout: int = 1) -> Any:
    """B = subsref(A, S) indexes A along the path S made by substruct: subsref(A,
    substruct('()', {2}, '.', 'f')) is A(2).f.  Where the last step gives several values
    (A{:}, A.f of a struct array), [B1, ..., Bn] = subsref(...) returns them."""
    steps = _path(s)
    values = [a]
    for k, (kind, subs) in enumerate(steps):
        current = _one(values) if k else a
        if kind == "()":
            if type(current) is FunctionHandle:
                values = interp.call_value(current, subs, max(nargout, 1)
                                           if k == len(steps) - 1 else 1)
            else:
                values = [indexing.index(current, subs)]
        elif kind == "{}":
            if type(current) is not Cell:
                raise error("MATLAB:cellRefFromNonCell",
                            "Brace indexing is not supported for variables of this type.")
            values = indexing.brace_index(current, subs)
        else:
            values = _field_values(current, subs)
    if nargout <= 1:
        return _one(values) if len(values) != 0 or nargout == 1 else None
    if len(values) < nargout:
        raise error("MATLAB:needMoreRhsOutputs",
                    "Insufficient number of outputs from right hand side of equal sign to "
                    "satisfy assignment.")
    return tuple(values[:nargout])


def _assign(current: Any, steps: list, value: Any) -> Any:
    """``current`` with ``value`` stored along ``steps``."""
    if not steps:
        return value
    (kind, subs), rest = steps[0], steps[1:]
    if kind == "()":
        if not rest:
            return indexing.assign(current, subs, value)
        return assign_through_index(current, subs, lambda sub: _assign(sub, rest, value))
    if kind == "{}":
        if current is None or (type(current) is np.ndarray and current.size == 0):
            current = Cell.empty()
        if type(current) is not Cell:
            raise error("MATLAB:cellAssToNonCell",
                        "Unable to perform assignment because brace indexing is not supported "
                        "for variables of this type. Use parentheses instead.")
        sub = None
        if rest:
            try:
                found = indexing.brace_index(current, subs)
                sub = found[0] if len(found) == 1 else None
            except MatlabError:
                sub = None
        wrapped = Cell(object_array([_assign(sub, rest, value)], (1, 1)))
        return indexing.assign(current, subs, wrapped)
    old = None
    if rest and type(current) is Struct and subs in current.fields and current.elems.size == 1:
        old = current.element(0)[subs]
    elif rest and kind_of(current) is not None:
        old = _one(_field_values(current, subs))
    return setfield(current, char_row(subs), _assign(old, rest, value))


@builtin(dl="native")
def subsasgn(a: Any, s: Any, b: Any) -> Any:
    """A = subsasgn(A, S, B) assigns B along the path S made by substruct:
    subsasgn(A, substruct('()', {2}, '.', 'f'), B) is A(2).f = B.  A may be [] to build a
    new value."""
    steps = _path(s)
    if not steps:
        raise error("MATLAB:subsasgn:EmptySubscript", "The subscript structure must not be empty.")
    start = None if type(a) is np.ndarray and a.size == 0 and a.dtype == np.float64 else a
    return _assign(start, steps, b)

