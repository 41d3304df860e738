"""Options of the optimisation functions: optimset and optimget, and how fzero,
fminbnd, fminsearch and lsqnonneg read them and call the user's function."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none
from mlang.display import func2str_text
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import EMPTY, char_row, char_text, class_of, to_double_array
from mlang.values.handle import FunctionHandle
from mlang.values.struct import Struct

# The options of MATLAB's own solvers, in optimset's order.
OPTIM_NAMES = ("Display", "MaxFunEvals", "MaxIter", "TolFun", "TolX", "FunValCheck",
               "OutputFcn", "PlotFcns")

EPS = float(np.finfo(float).eps)

# Each solver's defaults, as optimset(solver) returns them.
DEFAULTS: dict[str, dict[str, Any]] = {
    "fzero": {"Display": "notify", "TolX": EPS, "FunValCheck": "off"},
    "fminbnd": {"Display": "notify", "MaxFunEvals": 500.0, "MaxIter": 500.0, "TolX": 1e-4,
                "FunValCheck": "off"},
    "fminsearch": {"Display": "notify", "MaxFunEvals": "200*numberofvariables",
                   "MaxIter": "200*numberofvariables", "TolFun": 1e-4, "TolX": 1e-4,
                   "FunValCheck": "off"},
    "lsqnonneg": {"Display": "notify", "TolX": "10*eps*norm(C,1)*length(C)"},
}


def _match(name: str, func: str) -> str:
    low = name.lower()
    found = [n for n in OPTIM_NAMES if n.lower().startswith(low)] if low else []
    exact = [n for n in found if n.lower() == low]
    if len(exact) == 1:
        return exact[0]
    if not found:
        raise error(f"MATLAB:{func}:InvalidParamName",
                    f"Unrecognized parameter name '{name}'. Please see the options table in "
                    "the documentation for a list of acceptable options.")
    if len(found) > 1:
        raise error(f"MATLAB:{func}:AmbiguousParamName",
                    f"Ambiguous parameter name '{name}' ({', '.join(found)}).")
    return found[0]


def _as_value(v: Any) -> Any:
    return char_row(v) if isinstance(v, str) else v


@builtin()
def optimset(*args: Any) -> Struct:
    """options = optimset(Name,Value,...)
    options = optimset
    options = optimset(optimfun)
    options = optimset(oldopts,Name,Value,...)
    options = optimset(oldopts,newopts)

    Create or modify the options structure of fzero, fminbnd, fminsearch and
    lsqnonneg; optimset('fminsearch') gives that solver's defaults."""
    values: dict[str, Any] = {n: EMPTY for n in OPTIM_NAMES}
    if len(args) == 1 and text_or_none(args[0]) is not None:
        solver = text_or_none(args[0]) or ""
        if solver not in DEFAULTS:
            raise error("MATLAB:optimset:NoDefaultsForFcn",
                        f"No default options available for the function '{solver}'.")
        values.update({k: _as_value(v) for k, v in DEFAULTS[solver].items()})
        return Struct.scalar(values)
    k = 0
    while k < len(args) and type(args[k]) is Struct:
        for field, v in args[k].element(0).items():
            if field in values and not (type(v) is np.ndarray and v.size == 0):
                values[field] = v
        k += 1
    if (len(args) - k) % 2:
        raise error("MATLAB:optimset:ArgNameValueMismatch",
                    "Arguments must occur in name-value pairs.")
    for j in range(k, len(args), 2):
        name = text_or_none(args[j])
        if name is None:
            raise error("MATLAB:optimset:ExpectedStringOrStructArg",
                        f"Expected argument {j + 1} to be a string parameter name or an options "
                        "structure created with OPTIMSET.")
        values[_match(name, "optimset")] = args[j + 1]
    return Struct.scalar(values)


@builtin()
def optimget(options: Any, name: Any, default: Any = None) -> Any:
    """val = optimget(options,'param')
    val = optimget(options,'param',default)

    The value of one optimisation option; default (or []) when it is not set."""
    if type(options) is not Struct and not (type(options) is np.ndarray and options.size == 0):
        raise error("MATLAB:optimget:Arg1NotStruct",
                    "First argument must be an options structure created with OPTIMSET.")
    text = text_or_none(name)
    if text is None:
        raise error("MATLAB:optimget:Arg2NotString", "Second argument must be a string.")
    fallback = EMPTY if default is None else default
    if type(options) is not Struct:
        return fallback
    fields = options.element(0)
    field = next((f for f in fields if f.lower() == text.lower()), None) or _match(text,
                                                                                    "optimget")
    v = fields.get(field)
    return fallback if v is None or (type(v) is np.ndarray and v.size == 0) else v


class Options:
    """A solver's options: the user's optimset structure over the solver's defaults."""

    def __init__(self, options: Any, solver: str) -> None:
        self.given = options.element(0) if type(options) is Struct else {}
        if options is not None and type(options) is not Struct and not (
                type(options) is np.ndarray and options.size == 0):
            raise error(f"MATLAB:{solver}:OptionsNotStruct",
                        "Options must be a structure created with OPTIMSET.")
        self.defaults = DEFAULTS[solver]

    def raw(self, name: str) -> Any:
        v = self.given.get(name)
        if v is None or (type(v) is np.ndarray and v.size == 0):
            return self.defaults.get(name)
        return char_text(v) if class_of(v) == "char" else v

    def number(self, name: str, n: int = 1) -> float:
        v = self.raw(name)
        if isinstance(v, str):
            found = re.fullmatch(r"\s*(\d+)\s*\*\s*numberofvariables\s*", v.lower())
            if found is None:
                raise error("MATLAB:optimset:invalidOption",
                            f"Option '{name}' must be a number.")
            return float(found.group(1)) * n
        a = to_double_array(v).real.reshape(-1)
        if a.size != 1 or np.isnan(a[0]):  # a NaN tolerance or limit would never be met
            raise error("MATLAB:optimset:invalidOption", f"Option '{name}' must be a number.")
        return float(a[0])

    def display(self) -> str:
        v = self.raw("Display")
        return str(v).lower() if v is not None else "notify"


class Objective:
    """The user's function of one argument (with the extra parameters), counted; with
    FunValCheck 'on', a complex, NaN (or, for fzero, infinite) value is an error."""

    def __init__(self, interp: Any, fun: Any, extra: tuple, solver: str,
                 opts: Options) -> None:
        self.interp, self.fun, self.extra, self.solver = interp, fun, list(extra), solver
        self.count = 0
        check = opts.raw("FunValCheck")
        self.check = isinstance(check, str) and check.lower() == "on"

    def __call__(self, x: Any) -> float:
        self.count += 1
        out = self.interp.call_value(self.fun, [x, *self.extra], 1)
        if not out:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        a = to_double_array(out[0])
        if a.size != 1:
            raise error(f"MATLAB:{self.solver}:ObjectiveNotScalar",
                        "Objective function must return a scalar value.")
        v = a.reshape(-1)[0]
        value = complex(v) if a.dtype.kind == "c" else float(v)
        if self.check:
            self._check(value)
        return value

    def _check(self, value: float | complex) -> None:
        kind = ("ComplexFval", "a complex value") if isinstance(value, complex) else (
            ("NaNFval", "NaN") if math.isnan(value) else
            ("InfFval", "Inf or -Inf") if math.isinf(value) and self.solver == "fzero" else
            None)
        if kind is not None:
            name = (func2str_text(self.fun) if type(self.fun) is FunctionHandle and
                    self.fun.is_anonymous else getattr(self.fun, "name", "") or
                    char_text(self.fun))
            raise error(f"MATLAB:{self.solver}:checkfun:{kind[0]}",
                        f"User function '{name}' returned {kind[1]} when evaluated;\n "
                        f"{self.solver.upper()} cannot continue.")


def output_struct(**fields: Any) -> Struct:
    """The output structure of a solver: texts as char rows, counts as doubles."""
    return Struct.scalar({k: char_row(v) if isinstance(v, str) else float(v) if
                          isinstance(v, int) else v for k, v in fields.items()})


class OutputFunctions:
    """The OutputFcn option: one function or a cell array of them, each called as
    stop = outfun(x,optimValues,state); any true stop ends the solver."""

    def __init__(self, interp: Any, opts: Options) -> None:
        self.interp = interp
        given = opts.raw("OutputFcn")
        if given is None:
            self.fcns: list = []
        elif class_of(given) == "cell":
            self.fcns = [v for v in given.data.reshape(-1, order="F")]
        else:
            self.fcns = [given]

    def __bool__(self) -> bool:
        return bool(self.fcns)

    def __call__(self, x: Any, state: str, **values: Any) -> bool:
        stop = False
        optim_values = output_struct(**values)
        for fcn in self.fcns:
            out = self.interp.call_value(fcn, [x, optim_values, char_row(state)], 1)
            if out and state != "done":
                v = to_double_array(out[0])
                stop = stop or bool(v.size and np.all(v != 0))
        return stop


STOPPED_MESSAGE = "Optimization terminated prematurely by user."
