"""MATLAB's ``inputParser``: a handle object describing a function's inputs (required,
optional and name-value arguments with defaults and validation functions) that parses
an argument list into ``Results``.

Like every handle, an inputParser is changed in place: ``p.addRequired('x')`` and
``addRequired(p, 'x')`` both change ``p`` for every variable that holds it.  The
methods are also functions (addRequired, addOptional, addParameter, addParamValue,
parse), as in MATLAB.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.builtins.coerce import NUMERIC_OR_LOGICAL, text_list, text_option, text_or_none, text_scalar
from mlang.builtins.language.evaluation import func2str
from mlang.builtins.text.forms import cell_of, row
from mlang.errors import MatlabError, error, running_interpreter
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import char_text, class_of, is_true, numel, to_double_array
from mlang.values.handle import FunctionHandle
from mlang.values.objects import DisplayText, MatlabObject
from mlang.values.string import StringArray
from mlang.values.struct import Struct

_NAME = re.compile(r"[A-Za-z]\w*\Z")
_FLAGS = ("CaseSensitive", "KeepUnmatched", "PartialMatching", "StructExpand")


class _Argument:
    __slots__ = ("name", "kind", "default", "validator")

    def __init__(self, name: str, kind: str, default: Any, validator: Any) -> None:
        self.name = name
        self.kind = kind  # "required", "optional" or "parameter"
        self.default = default
        self.validator = validator


def _parse_error(identifier: str, message: str, function: str) -> MatlabError:
    exc = error(identifier, message)
    if function:
        exc.exc.name_caller(function)
    return exc


class InputParser(MatlabObject):
    """An inputParser: the argument schema, the settings, and the last parse's results."""

    matlab_class = "inputParser"
    __slots__ = ("arguments", "function_name", "flags", "results", "unmatched",
                 "using_defaults")

    def __init__(self) -> None:
        self.arguments: list[_Argument] = []
        self.function_name = ""
        self.flags = {"CaseSensitive": False, "KeepUnmatched": False, "PartialMatching": True,
                      "StructExpand": True}
        self.results: dict[str, Any] = {}
        self.unmatched: dict[str, Any] = {}
        self.using_defaults: list[str] = []

    # ------------------------------------------------------------ schema

    def _of_kind(self, kind: str) -> list[_Argument]:
        return [a for a in self.arguments if a.kind == kind]

    def add(self, kind: str, args: list) -> None:
        """addRequired(name, validator), addOptional(name, default, validator),
        addParameter(name, default, validator, 'PartialMatchPriority', n)."""
        least = 1 if kind == "required" else 2
        most = 2 if kind == "required" else 3 if kind == "optional" else 5
        if len(args) < least:
            raise error("MATLAB:minrhs", "Not enough input arguments.")
        if len(args) > most or (kind == "parameter" and len(args) == 4):
            raise error("MATLAB:TooManyInputs", "Too many input arguments.")
        name = text_or_none(args[0])
        if name is None or not _NAME.match(name):
            raise error("MATLAB:InputParser:InvalidName",
                        "Argument name must be a valid MATLAB variable name (a character vector "
                        "or string scalar starting with a letter).")
        if len(name) > 63:
            raise error("MATLAB:InputParser:InvalidName",
                        f"'{name}' is longer than the maximum name length of 63 characters.")
        rest = list(args[1:])
        default = None if kind == "required" else rest.pop(0)
        validator = rest.pop(0) if rest else None
        if kind == "parameter" and rest:
            if text_option(rest[0]) != "partialmatchpriority":
                raise error("MATLAB:InputParser:UnmatchedParameter",
                            f"'{text_or_none(rest[0]) or ''}' is not a recognized parameter.")
        if validator is not None and type(validator) is not FunctionHandle:
            raise error("MATLAB:InputParser:ValidationFunctionNotAFunctionHandle",
                        "Validation function must be a function handle.")
        if any(a.name.lower() == name.lower() if not self.flags["CaseSensitive"]
               else a.name == name for a in self.arguments):
            raise error("MATLAB:InputParser:DuplicateParameter",
                        f"An argument named '{name}' already exists in the schema.")
        if kind == "required" and (self._of_kind("optional") or self._of_kind("parameter")):
            raise error("MATLAB:InputParser:RequiredAfterOptional",
                        "Required arguments must be added before optional or parameter "
                        "arguments.")
        if kind == "optional" and self._of_kind("parameter"):
            raise error("MATLAB:InputParser:OptionalAfterParameter",
                        "Optional arguments must be added before parameter arguments.")
        self.arguments.append(_Argument(name, kind, default, validator))

    # ------------------------------------------------------------ parsing

    def _validate(self, arg: _Argument, value: Any, position: int | None) -> None:
        """Run an argument's validation function (MATLAB's message when it fails)."""
        if arg.validator is None:
            return
        interp = running_interpreter()
        what = f"'{arg.name}'"
        try:
            out = interp.call_value(arg.validator, [value], 0)
        except MatlabError as exc:
            raise _parse_error("MATLAB:InputParser:ArgumentFailedValidation",
                               f"The value of {what} is invalid. {exc.message}",
                               self.function_name) from None
        if out and not _passes(out[0]):
            test = char_text(func2str(arg.validator))
            raise _parse_error("MATLAB:InputParser:ArgumentFailedValidation",
                               f"The value of {what} is invalid. It must satisfy the function: "
                               f"{test}.", self.function_name)

    def _passes_quietly(self, arg: _Argument, value: Any) -> bool:
        if arg.validator is None:
            return True
        try:
            out = running_interpreter().call_value(arg.validator, [value], 0)
        except MatlabError:
            return False
        return not out or _passes(out[0])

    def _match(self, name: str, params: list[_Argument]) -> _Argument | None:
        """The parameter a given name stands for (exact, else a unique leading part)."""
        same = (lambda a, b: a == b) if self.flags["CaseSensitive"] else \
            (lambda a, b: a.lower() == b.lower())
        for p in params:
            if same(p.name, name):
                return p
        if not self.flags["PartialMatching"] or not name:
            return None
        fold = (lambda s: s) if self.flags["CaseSensitive"] else str.lower
        found = [p for p in params if fold(p.name).startswith(fold(name))]
        if len(found) > 1:
            names = ", ".join(f"'{p.name}'" for p in found)
            raise _parse_error("MATLAB:InputParser:AmbiguousParameter",
                               f"Expected a parameter name to match only one of these: {names}. "
                               f"'{name}' matches more than one.", self.function_name)
        return found[0] if found else None

    def _starts_parameters(self, value: Any, params: list[_Argument]) -> bool:
        """Whether an argument in an optional position begins the name-value pairs."""
        if type(value) is Struct and self.flags["StructExpand"] and params:
            return True
        name = text_or_none(value)
        if name is None:
            return False
        try:
            return self._match(name, params) is not None
        except MatlabError:
            return True

    def parse(self, args: list) -> None:
        """parse(args...): fill Results, UsingDefaults and Unmatched."""
        required = self._of_kind("required")
        optional = self._of_kind("optional")
        params = self._of_kind("parameter")
        fn = self.function_name
        if len(args) < len(required):
            raise _parse_error("MATLAB:minrhs", "Not enough input arguments.", fn)
        results: dict[str, Any] = {}
        for k, arg in enumerate(required):
            self._validate(arg, args[k], k + 1)
            results[arg.name] = args[k]
        pos = len(required)
        for arg in optional:
            if pos >= len(args):
                break
            value = args[pos]
            if self._starts_parameters(value, params):
                break
            if text_or_none(value) is not None and params and \
                    not self._passes_quietly(arg, value):
                break  # text that fails the validation is read as a parameter name
            self._validate(arg, value, pos + 1)
            results[arg.name] = value
            pos += 1
        unmatched: dict[str, Any] = {}
        pairs = self._pairs(args[pos:], params, pos < len(required) + len(optional))
        for name, value in pairs:
            p = self._match(name, params)
            if p is None:
                if self.flags["KeepUnmatched"]:
                    unmatched[name] = value
                    continue
                raise _parse_error("MATLAB:InputParser:UnmatchedParameter",
                                   f"'{name}' is not a recognized parameter. For a list of "
                                   "valid name-value pair arguments, see the documentation "
                                   "for this function.", fn)
            self._validate(p, value, None)
            results[p.name] = value
        defaults = [a.name for a in self.arguments if a.name not in results]
        for a in self.arguments:
            if a.name not in results:
                results[a.name] = a.default
        self.results = {name: results[name] for name in sorted(results)}
        self.unmatched = unmatched
        self.using_defaults = defaults

    def _pairs(self, rest: list, params: list[_Argument], optional_open: bool) -> list:
        """Name-value pairs (a struct counts as its fields when StructExpand is set)."""
        fn = self.function_name
        pairs: list = []
        k = 0
        while k < len(rest):
            value = rest[k]
            if type(value) is Struct and self.flags["StructExpand"] and value.elems.size == 1:
                element = value.element(0)
                pairs.extend((name, element[name]) for name in value.fields)
                k += 1
                continue
            name = text_or_none(value)
            if name is None:
                if not params and not self.flags["KeepUnmatched"]:
                    raise _parse_error("MATLAB:TooManyInputs", "Too many input arguments.", fn)
                if optional_open and k == 0:
                    raise _parse_error(
                        "MATLAB:InputParser:ArgumentFailedValidation",
                        "Argument is not a valid optional argument or parameter name.", fn)
                raise _parse_error("MATLAB:InputParser:ParamMustBeChar",
                                   "Expected a string scalar or character vector for the "
                                   "parameter name.", fn)
            if k + 1 >= len(rest):
                raise _parse_error("MATLAB:InputParser:ParamMissingValue",
                                   f"No value was given for '{name}'. Name-value pair "
                                   "arguments require a name followed by a value.", fn)
            pairs.append((name, rest[k + 1]))
            k += 2
        return pairs

    # ------------------------------------------------------------ properties

    def property_names(self) -> list[str]:
        return ["FunctionName", "CaseSensitive", "KeepUnmatched", "PartialMatching",
                "StructExpand", "Parameters", "Results", "Unmatched", "UsingDefaults"]

    def get_property(self, name: str) -> Any:
        if name == "FunctionName":
            return row(self.function_name)
        if name in self.flags:
            return self.flags[name]
        if name == "Parameters":
            names = sorted(a.name for a in self.arguments)
            return cell_of([row(n) for n in names], (1, len(names)))
        if name == "Results":
            return Struct.scalar(self.results)
        if name == "Unmatched":
            return Struct.scalar(self.unmatched)
        if name == "UsingDefaults":
            return cell_of([row(n) for n in self.using_defaults], (1, len(self.using_defaults)))
        method = self.method(name)
        if method is not None:
            return method([])
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> InputParser:
        if name == "FunctionName":
            text = text_or_none(value)
            if text is None:
                raise error("MATLAB:InputParser:InvalidFunctionName",
                            "FunctionName must be a character vector or string scalar.")
            self.function_name = text
            return self
        if name in self.flags:
            if class_of(value) not in NUMERIC_OR_LOGICAL or numel(value) != 1:
                raise error("MATLAB:InputParser:InvalidPropertyValue",
                            f"{name} must be a logical scalar.")
            self.flags[name] = is_true(value)
            return self
        if name in ("Parameters", "Results", "Unmatched", "UsingDefaults"):
            raise error("MATLAB:class:SetProhibited",
                        f"Unable to set the '{name}' property of class 'inputParser' because it "
                        "is read-only.")
        return super().set_property(name, value)

    # ------------------------------------------------------------ methods

    def method(self, name: str) -> Callable[[list], Any] | None:
        methods: dict[str, Callable[[list], Any]] = {
            "addRequired": lambda args: self.add("required", args),
            "addOptional": lambda args: self.add("optional", args),
            "addParameter": lambda args: self.add("parameter", args),
            "addParamValue": lambda args: self.add("parameter", args),
            "parse": self.parse,
        }
        return methods.get(name)

    def call_method(self, name: str, args: list) -> Any:
        """``p.name(args...)``: the methods have no outputs (None: nothing is shown)."""
        fn = self.method(name)
        if fn is None:
            return super().call_method(name, args)
        fn(args)
        return None

    # ------------------------------------------------------------ display

    def display_properties(self) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = [("FunctionName", DisplayText(f"'{self.function_name}'"))]
        for flag in _FLAGS:
            out.append((flag, DisplayText("1" if self.flags[flag] else "0")))
        for name in ("Parameters", "Results", "Unmatched", "UsingDefaults"):
            out.append((name, self.get_property(name)))
        return out

    def __repr__(self) -> str:
        return f"InputParser({[a.name for a in self.arguments]})"


def _passes(value: Any) -> bool:
    """A validation function's answer: a true value (all nonzero, not empty)."""
    if type(value) is StringArray:
        return False
    try:
        return is_true(value)
    except MatlabError:
        return False


# ------------------------------------------------------------ functions


@builtin(name="inputParser", dl="native")
def input_parser() -> InputParser:
    """p = inputParser creates an input parser: define the inputs of a function with
    addRequired, addOptional and addParameter, then parse(p, varargin{:}) and read
    p.Results.

    Properties: FunctionName, CaseSensitive (false), KeepUnmatched (false),
    PartialMatching (true), StructExpand (true); after parsing, Results, UsingDefaults,
    Unmatched and Parameters."""
    return InputParser()


def _parser(p: Any, fname: str) -> InputParser:
    if type(p) is not InputParser:
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{fname}' for input arguments of type '{class_of(p)}'.")
    return p


@builtin(max_out=0)
def addRequired(p: Any, *args: Any) -> None:
    """addRequired(p, argName, validationFcn) adds a required positional argument to
    inputParser p; validationFcn (optional) must return true or throw for a valid value."""
    _parser(p, "addRequired").add("required", list(args))


@builtin(max_out=0)
def addOptional(p: Any, *args: Any) -> None:
    """addOptional(p, argName, defaultVal, validationFcn) adds an optional positional
    argument to inputParser p (after the required ones)."""
    _parser(p, "addOptional").add("optional", list(args))


@builtin(max_out=0)
def addParameter(p: Any, *args: Any) -> None:
    """addParameter(p, paramName, defaultVal, validationFcn) adds a name-value argument to
    inputParser p. addParameter(..., 'PartialMatchPriority', n) is accepted."""
    _parser(p, "addParameter").add("parameter", list(args))


@builtin(max_out=0)
def addParamValue(p: Any, *args: Any) -> None:
    """addParamValue(p, paramName, defaultVal, validationFcn) adds a name-value argument
    (the older name of addParameter)."""
    _parser(p, "addParamValue").add("parameter", list(args))


@builtin(name="parse", max_out=0)
def parse_inputs(p: Any, *args: Any) -> None:
    """parse(p, args...) parses the arguments by inputParser p's schema: the results are
    in p.Results, the arguments that took their defaults in p.UsingDefaults and (with
    KeepUnmatched) the unknown name-value pairs in p.Unmatched."""
    _parser(p, "parse").parse(list(args))



# ------------------------------------------------------------ validatestring


def _arg_position(v: Any) -> int:
    x = to_double_array(v).reshape(-1) if class_of(v) in NUMERIC_OR_LOGICAL else None
    if x is None or x.size != 1 or np.iscomplexobj(x) or not np.isfinite(x[0]) or \
            x[0] != np.floor(x[0]) or x[0] < 1:
        raise error("MATLAB:validatestring:badArgPosition",
                    "Input argument position must be a positive integer.")
    return int(x[0])


@builtin()
def validatestring(s: Any, valid: Any, *where: Any) -> Any:
    """validStr = validatestring(str, validStrings) is the element of validStrings that str
    matches: case is ignored and str may be the start of it. When str starts several of
    them and each of those starts with the shortest, the shortest is chosen.
    validatestring(str, validStrings, funcName, varName, argIndex) names the function and
    the input in the error message.

    validStr has the type of str (a character vector or a string scalar)."""
    func, var, index = "", "", None
    rest = list(where)
    if len(rest) > 3:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if rest and text_or_none(rest[0]) is None:
        index = _arg_position(rest.pop(0))
        if rest:
            raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if rest:
        func = text_scalar(rest.pop(0), "Function name")
    if rest:
        var = text_scalar(rest.pop(0), "Variable name")
    if rest:
        index = _arg_position(rest.pop(0))
    if index is not None:
        who = f"input number {index}, {var}," if var else f"input number {index}"
    else:
        who = var or "input"

    def fail(suffix: str, message: str) -> MatlabError:
        exc = error(f"MATLAB:{func + ':' if func else 'validatestring:'}{suffix}", message)
        if func:
            exc.exc.name_caller(func)
        return exc

    if type(valid) is Cell and valid.data.size == 0 or \
            type(valid) not in (Cell, StringArray) and text_or_none(valid) is None:
        raise error("MATLAB:validatestring:invalidStringArray",
                    "Valid strings must be a cell array of character vectors or a string array.")
    choices = text_list(valid, "Valid strings")
    text = text_or_none(s)
    listed = ", ".join(f"'{c}'" for c in choices)
    if text is None:
        raise fail("invalidType", f"Expected {who} to be one of these types:\n\nchar, string\n\n"
                                  f"Instead its type was {class_of(s)}.")
    wanted = text.lower()
    exact = [c for c in choices if c.lower() == wanted]
    found = exact or ([c for c in choices if c.lower().startswith(wanted)] if wanted else [])
    if not found:
        raise fail("unrecognizedStringChoice",
                   f"Expected {who} to match one of these values:\n\n{listed}\n\n"
                   f"The input, '{text}', did not match any of the valid values.")
    shortest = min(found, key=len)
    if any(not c.lower().startswith(shortest.lower()) for c in found):
        raise fail("ambiguousStringChoice",
                   f"Expected {who} to match one of these values:\n\n{listed}\n\n"
                   f"The input, '{text}', matched more than one valid value.")
    return StringArray.scalar(shortest) if type(s) is StringArray else row(shortest)
