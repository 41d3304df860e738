"""``arguments`` blocks: defaults for missing inputs, then class, size and validator checks.

What a call does, in MATLAB's order, for each declared input:

* a missing optional input gets its default (which may use earlier inputs);
  a missing required one is "Not enough input arguments.";
* the value is converted to the declared class (``double``, ``char``,
  ``string``, ``logical``, integer classes ...), then fitted to the declared
  size (``(1,:)`` takes a column vector and makes it a row; a scalar
  expands to a fixed size), then every validator function is called;
* name=value options (``opts.Name``): the arguments after the positional
  ones are Name,Value pairs, collected into the struct ``opts`` with the
  declared defaults for names not given.

A failure is reported as MATLAB does: ``Invalid argument at position N.``
(or ``Invalid name-value argument 'Name'.``) followed by the validator's
message, under "Error using <function>".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mlang.errors import MatlabError, MException
from mlang.errors import error as matlab_error
from mlang.syntax import ast
from mlang.values.cell import Cell
from mlang.values.core import (
    INT_CLASSES,
    NUMERIC_CLASSES,
    char_row,
    class_of,
    result,
    size_of,
    to_array,
    to_str,
)
from mlang.values.operators import to_class
from mlang.values.string import StringArray
from mlang.values.struct import Struct
from mlang.values.text import to_string_array

Validator = Callable[[Any, Any], None]  # (frame, value) -> None, raises when invalid


@dataclass
class ArgumentSpec:
    """One compiled line of an arguments block."""

    name: str  # the input's name, or the options struct's name
    option: str | None  # the option's name for ``opts.Name`` lines
    dims: list[int | None] | None  # None in a dimension: any length (``:``)
    cls: str | None
    validators: list[Validator] = field(default_factory=list)
    default: Callable[[Any], Any] | None = None

    @property
    def label(self) -> str:
        return self.option or self.name


class ArgumentChecks:
    """The input ``arguments`` blocks of one function, run after its inputs are bound.

    ``max_inputs`` is None when the function takes name=value options: any
    number of trailing Name,Value arguments may follow the positional ones.
    """

    def __init__(self, compiler: Any, blocks: list[ast.ArgumentsBlock],
                 params: list[str | None]) -> None:
        # Output blocks only describe outputs; Repeating blocks are not validated yet.
        specs = [s for b in blocks if not {"Output", "Repeating"} & set(b.attributes)
                 for s in b.specs]
        compiled = [_compile_spec(compiler, s) for s in specs]
        self.positional = [s for s in compiled if s.option is None]
        self.options: dict[str, list[ArgumentSpec]] = {}
        for s in compiled:
            if s.option is not None:
                self.options.setdefault(s.name, []).append(s)
        self.params = params
        self.positional_params = [p for p in params if p not in self.options]
        varargin = bool(params) and params[-1] == "varargin"
        self.max_inputs: int | None = None if self.options or varargin else len(params)

    def __call__(self, frame: Any, args: list) -> None:
        vars = frame.vars
        given = self._positional_count(args)
        for p in self.options:
            vars.pop(p, None)  # bound to a Name by position: the options are rebuilt below
        for i, p in enumerate(self.positional_params[:given]):
            if p is not None and p != "varargin":
                vars[p] = args[i]
        for p in self.positional_params[given:]:
            if p is not None:
                vars.pop(p, None)
        for spec in self.positional:
            self._check_positional(frame, spec)
        if self.options:
            self._bind_options(frame, args[given:])

    # ------------------------------------------------------------ positional

    def _positional_count(self, args: list) -> int:
        """How many of ``args`` are positional: the rest are Name,Value pairs.

        An optional positional input may be left out before the options: text
        naming an option, where an optional input would be, starts the pairs.
        """
        fixed = [p for p in self.positional_params if p != "varargin"]
        count = min(len(args), len(fixed))
        if not self.options:
            return count
        names = {s.label.lower() for specs in self.options.values() for s in specs}
        required = sum(1 for s in self.positional if s.default is None)
        for i in range(required, count):
            if _option_name(args[i]) in names and (len(args) - i) % 2 == 0:
                return i
        return count

    def _check_positional(self, frame: Any, spec: ArgumentSpec) -> None:
        vars = frame.vars
        if spec.name not in vars:
            if spec.default is None:
                raise _function_error(frame, "MATLAB:minrhs", "Not enough input arguments.")
            value = spec.default(frame)
            where = f"Invalid default value for argument '{spec.name}'."
        else:
            value = vars[spec.name]
            where = f"Invalid argument at position {self._position(spec)}."
        vars[spec.name] = _validated(frame, spec, value, where, lambda v: vars.__setitem__(spec.name, v))

    def _position(self, spec: ArgumentSpec) -> int:
        return self.params.index(spec.name) + 1 if spec.name in self.params else 0

    # --------------------------------------------------------------- options

    def _bind_options(self, frame: Any, pairs: list) -> None:
        if len(pairs) % 2:
            raise _function_error(frame, "MATLAB:TooManyInputs", _BAD_LIST)
        by_name = {s.label.lower(): (struct_name, s)
                   for struct_name, specs in self.options.items() for s in specs}
        given: dict[str, dict[str, Any]] = {name: {} for name in self.options}
        for k in range(0, len(pairs), 2):
            found = _match_option(by_name, pairs[k])
            if found is None:
                raise _function_error(frame, "MATLAB:TooManyInputs", _BAD_LIST)
            struct_name, spec = found
            given[struct_name][spec.label] = pairs[k + 1]
        for struct_name, specs in self.options.items():
            _OptionsStruct(frame, struct_name).fill(specs, given[struct_name])


class _OptionsStruct:
    """The struct of name=value options being built in a call's workspace."""

    def __init__(self, frame: Any, name: str) -> None:
        self.frame = frame
        self.name = name
        self.fields: dict[str, Any] = {}

    def store(self, field_name: str, value: Any) -> None:
        self.fields[field_name] = value
        # defaults and validators may read the struct built so far (opts.Other)
        self.frame.vars[self.name] = Struct.scalar(self.fields)

    def fill(self, specs: list[ArgumentSpec], given: dict[str, Any]) -> None:
        """Given values and defaults in declaration order, then each one validated."""
        self.frame.vars[self.name] = Struct.scalar({})
        for s in specs:
            if s.label in given:
                self.store(s.label, given[s.label])
            elif s.default is not None:
                self.store(s.label, s.default(self.frame))
        for s in specs:
            if s.label not in self.fields:
                continue
            where = (f"Invalid name-value argument '{s.label}'." if s.label in given
                     else f"Invalid default value for argument '{self.name}.{s.label}'.")
            label = s.label
            self.store(label, _validated(self.frame, s, self.fields[label], where,
                                         lambda v, label=label: self.store(label, v)))


_BAD_LIST = ("Invalid argument list. Check for wrong number of positional arguments or placement "
             "of positional arguments after name-value pairs. Also, check for name-value pairs "
             "with invalid names or not specified in pairs.")


def compile_arguments(compiler: Any, blocks: list[ast.ArgumentsBlock], params: list) -> ArgumentChecks:
    """Code run after a call binds its inputs: fills defaults and validates."""
    return ArgumentChecks(compiler, blocks, params)


# ---------------------------------------------------------------- compiling


def _compile_spec(compiler: Any, spec: ast.ArgumentSpec) -> ArgumentSpec:
    name = spec.name[0]
    option = spec.name[1] if len(spec.name) > 1 else None
    dims = None
    if spec.size is not None:
        dims = [None if type(d) is ast.Colon else int(d.value) for d in spec.size]  # type: ignore[attr-defined]
    default = compiler.expr(spec.default) if spec.default is not None else None
    validators = [_compile_validator(compiler, v) for v in spec.validators]
    return ArgumentSpec(name, option, dims, spec.cls, validators, default)


def _compile_validator(compiler: Any, node: ast.Node) -> Validator:
    """A validator: a bare function name gets the value; a call is run as written."""
    if type(node) is ast.Name:
        call = compiler.calls(node.name, node)
        return lambda frame, value: call(frame, [value], 0)
    outputs = compiler.expr_outputs(node)
    return lambda frame, value: outputs(frame, 0)


# --------------------------------------------------------------- validating


def _validated(frame: Any, spec: ArgumentSpec, value: Any, where: str,
               store: Callable[[Any], None]) -> Any:
    """``value`` converted to the spec's class and size, after its validators accept it."""
    try:
        if spec.cls is not None:
            value = convert_class(value, spec.cls)
        if spec.dims is not None:
            value = fit_size(value, spec.dims)
        store(value)  # validator calls such as mustBeMember(x, ...) read the variable
        for check in spec.validators:
            check(frame, value)
    except MatlabError as exc:
        raise _function_error(frame, exc.identifier, f"{where} {exc.message}") from None
    return value


def _function_error(frame: Any, identifier: str, message: str) -> MatlabError:
    exc = MException(identifier, message)
    exc.name_caller(frame.name)
    return MatlabError(exc)


def _option_name(v: Any) -> str | None:
    if type(v) is np.ndarray and v.dtype.kind == "V" and v.ndim == 2 and v.shape[0] == 1:
        return to_str(v).lower()
    if type(v) is StringArray and v.data.size == 1:
        return v.scalar_text().lower()
    return None


def _match_option(by_name: dict[str, Any], name: Any) -> Any:
    """The option a Name argument means: case-insensitive, unambiguous prefixes allowed."""
    text = _option_name(name)
    if text is None:
        return None
    if text in by_name:
        return by_name[text]
    matches = [s for key, s in by_name.items() if key.startswith(text)]
    return matches[0] if len(matches) == 1 and text else None


def convert_class(value: Any, cls: str) -> Any:
    """MATLAB's implicit conversion of an argument to its declared class."""
    have = class_of(value)
    if have == cls:
        return value
    convertible = NUMERIC_CLASSES + ("logical", "char")
    if cls in convertible and have in convertible:
        return _convert_array(value, cls)
    if cls in convertible and have == "string" and cls == "char":
        return char_row(value.scalar_text()) if value.data.size == 1 else _conversion_error(cls)
    if cls == "string" and (have in convertible or have == "cell"):
        return to_string_array(value)
    if cls in NUMERIC_CLASSES and have == "string":
        return _numbers_from_strings(value, cls)
    return _conversion_error(cls)


def _convert_array(value: Any, cls: str) -> Any:
    a = to_array(value)
    if cls in INT_CLASSES and a.dtype.kind == "c":
        _conversion_error(cls)
    if cls == "logical":
        if a.dtype.kind == "c" or (a.dtype.kind == "f" and np.isnan(a).any()):
            _conversion_error(cls)
    if a.dtype.kind == "V":
        a = a.view(np.uint32).reshape(a.shape).astype(np.float64) if a.size else np.zeros(a.shape)
    elif a.dtype.kind == "b" and cls != "logical":
        a = a.astype(np.float64)
    out = to_class(a, cls)
    if cls == "double":
        out = out.astype(np.complex128 if out.dtype.kind == "c" else np.float64, copy=False)
    return result(out)


def _numbers_from_strings(value: StringArray, cls: str) -> Any:
    flat = value.data.ravel(order="F")
    numbers = np.empty(flat.size)
    for i, s in enumerate(flat):
        try:
            numbers[i] = float(s) if s is not None else np.nan
        except ValueError:
            numbers[i] = np.nan
    return _convert_array(result(numbers.reshape(value.shape, order="F")), cls)


def _conversion_error(cls: str) -> Any:
    raise matlab_error("MATLAB:validation:UnableToConvert",
                       f"Value must be of type {cls} or be convertible to {cls}.")


def fit_size(value: Any, dims: list[int | None]) -> Any:
    """``value`` fitted to a declared size: exact, a vector turned around, or a scalar expanded."""
    shape = tuple(size_of(value))
    want = list(dims) + [1] * (len(shape) - len(dims))
    have = list(shape) + [1] * (len(want) - len(shape))
    if all(w is None or w == h for w, h in zip(want, have, strict=True)):
        return value
    fixed = [w for w in want if w is not None]
    if _is_vector_spec(want) and _is_vector(shape):
        n = int(np.prod(shape))
        target = tuple(n if w is None else w for w in want)
        if all(w is None or w == t for w, t in zip(want, target, strict=True)):
            return _reshape(value, target)
    if int(np.prod(shape)) == 1 and len(fixed) == len(want):
        return _expand(value, tuple(fixed))
    raise matlab_error("MATLAB:validation:IncompatibleSize", _size_message(dims))


def _is_vector_spec(want: list[int | None]) -> bool:
    return want in ([1, None], [None, 1])


def _is_vector(shape: tuple[int, ...]) -> bool:
    return len(shape) == 2 and (shape[0] == 1 or shape[1] == 1)


def _reshape(value: Any, shape: tuple[int, ...]) -> Any:
    t = type(value)
    if t is Cell:
        return Cell(value.data.reshape(shape, order="F"))
    if t is StringArray:
        return StringArray(value.data.reshape(shape, order="F"))
    if t is Struct:
        return Struct(list(value.fields), value.elems.reshape(shape, order="F"))
    return result(to_array(value).reshape(shape, order="F"))


def _expand(value: Any, shape: tuple[int, ...]) -> Any:
    t = type(value)
    if t is Cell:
        return Cell(np.full(shape, value.data.reshape(-1)[0], dtype=object))
    if t is StringArray:
        return StringArray(np.full(shape, value.data.reshape(-1)[0], dtype=object))
    if t in (float, bool, complex, np.ndarray):
        return result(np.broadcast_to(to_array(value), shape).copy())
    raise matlab_error("MATLAB:validation:IncompatibleSize", _size_message(list(shape)))


def _size_message(dims: list[int | None]) -> str:
    if dims == [1, 1]:
        return "Value must be a scalar."
    if dims == [1, None]:
        return "Value must be a row vector."
    if dims == [None, 1]:
        return "Value must be a column vector."
    text = "x".join(":" if d is None else str(d) for d in dims)
    return f"Value must be of size {text}."


__all__ = ["ArgumentChecks", "compile_arguments", "convert_class", "fit_size"]
