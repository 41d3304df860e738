"""dlaccelerate and its AcceleratedFunction object (class deep.AcceleratedFunction).

MATLAB's accelerated function caches the traces of calls to a deep learning function
and reuses them when the same input pattern comes again.  mlang keeps the object, its
properties and its methods, and calls the underlying function every time (through the
interpreter's function-handle call): results are always those of the function itself,
the cache stays empty (HitRate and Occupancy 0), and CheckMode has nothing to compare.

An AcceleratedFunction is a handle object, as in MATLAB: setting a property through one
copy changes it for every copy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import option_flag, text_scalar
from mlang.builtins.deeplearning.dlarrays import ACCELERATED
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, class_of, to_double_array
from mlang.values.handle import FunctionHandle
from mlang.values.objects import DisplayText, MatlabObject

_PROPERTIES = ("Function", "Enabled", "CacheSize", "HitRate", "Occupancy", "CheckMode",
               "CheckTolerance")
_READ_ONLY = ("Function", "HitRate", "Occupancy")


class AcceleratedFunction(MatlabObject):
    """An accelerated deep learning function: call it as the function it wraps."""

    matlab_class = "deep.AcceleratedFunction"
    display_name = "AcceleratedFunction"
    __slots__ = ("function", "enabled", "cache_size", "check_mode", "check_tolerance", "interp",
                 "calls")

    def __init__(self, function: FunctionHandle, interp: Any) -> None:
        self.function = function
        self.enabled = True
        self.cache_size = 50.0
        self.check_mode = "none"
        self.check_tolerance = 1e-4
        self.interp = interp  # the session that made it, for calls written x = f(args)
        self.calls = 0

    def call_as_function(self, interp: Any, args: list, nargout: int) -> list:
        """accfun(...), [a, b] = accfun(...), feval and dlfeval of it."""
        self.calls += 1
        if not self.enabled:  # a disabled accelerated function is the function itself
            return interp.call_handle(self.function, list(args), nargout)
        state = interp.family_state
        # dlgradient enables higher derivatives by default inside an accelerated function
        state[ACCELERATED] = state.get(ACCELERATED, 0) + 1
        try:
            return interp.call_handle(self.function, list(args), nargout)
        finally:
            state[ACCELERATED] -= 1

    def subsref_paren(self, args: list) -> Any:
        outs = self.call_as_function(self.interp, args, 1)
        if not outs:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        return outs[0]

    # ------------------------------------------------------------ properties

    def property_names(self) -> list[str]:
        return list(_PROPERTIES)

    def get_property(self, name: str) -> Any:
        if name == "Function":
            return self.function
        if name == "Enabled":
            return self.enabled
        if name == "CacheSize":
            return self.cache_size
        if name in ("HitRate", "Occupancy"):
            return 0.0  # nothing is cached: every call runs the function
        if name == "CheckMode":
            return char_row(self.check_mode)
        if name == "CheckTolerance":
            return self.check_tolerance
        fn = self.method(name)
        if fn is not None:
            return fn([])
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> AcceleratedFunction:
        if name in _READ_ONLY:
            raise error("MATLAB:class:SetProhibited",
                        f"Unable to set the '{name}' property of class 'AcceleratedFunction' "
                        "because it is read-only.")
        if name == "Enabled":
            self.enabled = option_flag(value, "Enabled")
        elif name == "CacheSize":
            self.cache_size = float(_positive(value, "CacheSize", integer=True))
        elif name == "CheckMode":
            mode = text_scalar(value, "CheckMode").lower()
            if mode not in ("none", "tolerance"):
                raise error("MATLAB:validators:mustBeMember",
                            "Value must be 'none' or 'tolerance'.")
            self.check_mode = mode
        elif name == "CheckTolerance":
            self.check_tolerance = _positive(value, "CheckTolerance", integer=False)
        else:
            return super().set_property(name, value)
        return self

    def method(self, name: str) -> Any:
        if name == "clearCache":
            return lambda args: self.clear_cache()
        return None

    def clear_cache(self) -> None:
        self.calls = 0

    def display_properties(self) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = []
        for name in _PROPERTIES:
            value = self.get_property(name)
            if name == "Enabled":
                value = DisplayText("1" if self.enabled else "0")
            out.append((name, value))
        return out


def _positive(value: Any, name: str, integer: bool) -> float:
    try:
        a = to_double_array(value)
    except Exception:  # a value with no numbers: the same message as a bad number
        a = np.array([])
    if a.size != 1 or a.dtype.kind == "c" or not np.isfinite(a.reshape(-1)[0].real) \
            or a.reshape(-1)[0] <= 0 or integer and a.reshape(-1)[0] % 1:
        kind = "positive integer" if integer else "positive number"
        raise error("MATLAB:validators:mustBePositive", f"{name} must be a {kind}.")
    return float(a.reshape(-1)[0])


@builtin(interp=True)
def dlaccelerate(interp: Any, fun: object) -> AcceleratedFunction:
    """accfun = dlaccelerate(FUN)  an AcceleratedFunction object for the deep learning
    function FUN (a function handle), called as FUN itself; properties Function, Enabled,
    CacheSize, HitRate, Occupancy, CheckMode ('none' or 'tolerance') and CheckTolerance.
    mlang runs FUN at every call (it keeps no cache of traces)"""
    if type(fun) is AcceleratedFunction:
        return fun
    if type(fun) is not FunctionHandle:
        raise error("deep:dlaccelerate:InvalidInput",
                    f"Input must be a function handle, not {class_of(fun)}.")
    return AcceleratedFunction(fun, interp)


@builtin("clearCache", max_out=0)
def clear_cache(accfun: object) -> None:
    """clearCache(accfun)  clear the trace cache of an AcceleratedFunction object"""
    if type(accfun) is not AcceleratedFunction:
        raise error("MATLAB:UndefinedFunction",
                    "Undefined function 'clearCache' for input arguments of type "
                    f"'{class_of(accfun)}'.")
    accfun.clear_cache()
