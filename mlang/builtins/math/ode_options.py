"""ODE solver options: odeset and odeget, and how the solvers read them."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import EMPTY, char_text, class_of, to_double_array
from mlang.values.struct import Struct

# MATLAB's option names, in the order odeset lists them.
ODE_NAMES = (
    "AbsTol", "BDF", "Events", "InitialStep", "Jacobian", "JConstant", "JPattern", "Mass",
    "MassSingular", "MaxOrder", "MaxStep", "NonNegative", "NormControl", "OutputFcn",
    "OutputSel", "Refine", "RelTol", "Stats", "Vectorized", "MStateDependence", "MvPattern",
    "InitialSlope",
)


def _match(name: str, func: str) -> str:
    """The option a (case-insensitive, possibly partial) name stands for: an exact match
    wins, otherwise the name must start exactly one option name."""
    low = name.lower()
    found = [n for n in ODE_NAMES if n.lower().startswith(low)] if low else []
    if not found:
        raise error(f"MATLAB:{func}:InvalidPropName", f"Unrecognized property name '{name}'.")
    if len(found) > 1:
        exact = [n for n in found if n.lower() == low]
        if len(exact) != 1:
            raise error(f"MATLAB:{func}:AmbiguousPropName",
                        f"Ambiguous property name '{name}' ({', '.join(found)}).")
        return exact[0]
    return found[0]


@builtin()
def odeset(*args: Any) -> Struct:
    """options = odeset(Name,Value,...)
    options = odeset(oldopts,Name,Value,...)
    options = odeset(oldopts,newopts)
    odeset

    Create or modify the options structure of the ODE solvers.  Names are
    case-insensitive and may be shortened to any unambiguous leading part."""
    values: dict[str, Any] = {n: EMPTY for n in ODE_NAMES}
    k = 0
    while k < len(args) and type(args[k]) is Struct:
        given = args[k]
        if not given.is_scalar():
            raise error("MATLAB:odeset:NoPropName",
                        f"Expected argument {k + 1} to be a string property name.")
        for field, v in given.element(0).items():
            if field in values and not _is_empty(v):
                values[field] = v
        k += 1
    if (len(args) - k) % 2:
        raise error("MATLAB:odeset:ArgNameValueMismatch",
                    "Arguments must occur in name-value pairs.")
    for j in range(k, len(args), 2):
        name = text_or_none(args[j])
        if name is None:
            raise error("MATLAB:odeset:NoPropName",
                        f"Expected argument {j + 1} to be a string property name.")
        values[_match(name, "odeset")] = args[j + 1]
    return Struct.scalar(values)


def _is_empty(v: Any) -> bool:
    return type(v) is np.ndarray and v.size == 0


@builtin()
def odeget(options: Any, name: Any, default: Any = None) -> Any:
    """v = odeget(options,'name')
    v = odeget(options,'name',default)

    The value of one option of an odeset structure; default (or []) when the
    option is not set."""
    if not _is_empty(options) and type(options) is not Struct:
        raise error("MATLAB:odeget:Arg1NotODESETstruct",
                    "First argument must be an options structure created with ODESET.")
    text = text_or_none(name)
    if text is None:
        raise error("MATLAB:odeget:InvalidPropName", "Property name must be a character vector.")
    field = _match(text, "odeget")
    fallback = EMPTY if default is None else default
    if type(options) is not Struct:
        return fallback
    value = options.element(0).get(field)
    return fallback if value is None or _is_empty(value) else value


class OdeOptions:
    """The options a solver reads, from an odeset structure (or [])."""

    def __init__(self, options: Any, solver: str) -> None:
        if not _is_empty(options) and type(options) is not Struct:
            raise error("MATLAB:odearguments:InvalidOptions",
                        "Options must be a structure created with ODESET.")
        self.fields: dict[str, Any] = options.element(0) if type(options) is Struct else {}
        self.solver = solver

    def get(self, name: str) -> Any:
        v = self.fields.get(name)
        return None if v is None or _is_empty(v) else v

    def number(self, name: str, default: float) -> float:
        """A positive scalar option (RelTol, MaxStep, InitialStep), with MATLAB's error."""
        v = self.get(name)
        if v is None:
            return default
        a = to_double_array(v).real.reshape(-1)
        if a.size != 1 or not a[0] > 0:
            if name == "RelTol":
                raise error("MATLAB:odearguments:RelTolNotPosScalar",
                            "RelTol must be a positive scalar.")
            raise error(f"MATLAB:odearguments:{name}LEzero", f"{name} must be greater than zero.")
        return float(a[0])

    def vector(self, name: str, default: float, neq: int) -> np.ndarray:
        """AbsTol: a positive scalar, or a vector with one tolerance per equation."""
        v = self.get(name)
        if v is None:
            return np.full(neq, default)
        a = to_double_array(v).real.reshape(-1)
        if np.any(a <= 0):
            raise error("MATLAB:odearguments:AbsTolNotPos", "AbsTol must be positive.")
        if a.size not in (1, neq):
            raise error("MATLAB:odearguments:SizeAbsTol",
                        f"Solving with {self.solver} requires a scalar AbsTol, or a vector "
                        f"AbsTol of length {neq}")
        return np.broadcast_to(a, (neq,)).astype(np.float64)

    def flag(self, name: str) -> bool:
        v = self.get(name)
        if v is None:
            return False
        if class_of(v) == "char":
            return char_text(v).lower() == "on"
        return bool(np.all(to_double_array(v)))


def _no_plot(t: Any = None, y: Any = None, flag: Any = None, *rest: Any) -> bool:
    return False


for _name, _what in (("odeplot", "the solution against time"),
                     ("odephas2", "a two-dimensional phase plane"),
                     ("odephas3", "a three-dimensional phase plane")):
    builtin(_name, help=f"status = {_name}(t,y,flag)\n\nODE output function that plots "
                        f"{_what}; mlang draws no figures, so it only returns false "
                        "(integration continues).")(_no_plot)
