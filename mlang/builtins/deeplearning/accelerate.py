"""dlaccelerate and its AcceleratedFunction object (class deep.AcceleratedFunction).

An accelerated function keeps a trace cache, as in MATLAB: the first call with a new
input pattern (the size, class, format and traced state of each dlarray input, the value
of every other input, the number of outputs) runs the function and records its
operations; later calls with that pattern replay them on the new data without running
the function's code (trace_cache.py).  A pattern whose call cannot be replayed, inputs
mlang keeps no traces for (objects other than dlnetworks of the layers
trace_cache.py lists, function handles), and new
patterns once the cache holds CacheSize traces run the function itself.  CheckMode is
kept as a property; mlang does not compare replayed results with the function's.

An AcceleratedFunction is a handle object, as in MATLAB: setting a property through one
copy changes it for every copy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray, map_dlarrays, strip
from mlang.autodiff.trace import traced_input
from mlang.builtins.coerce import option_flag, text_scalar
from mlang.builtins.deeplearning.dlarrays import ACCELERATED
from mlang.builtins.deeplearning.trace_cache import (
    pattern_key,
    recorded_call,
    replay,
    replay_untraced,
    untraced_replay,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, class_of, to_double_array
from mlang.values.handle import FunctionHandle
from mlang.values.objects import DisplayText, MatlabObject

_PROPERTIES = ("Function", "Enabled", "CacheSize", "HitRate", "Occupancy", "CheckMode",
               "CheckTolerance")
_READ_ONLY = ("Function", "HitRate", "Occupancy")
_MISSING = object()  # an input pattern not in the cache


class AcceleratedFunction(MatlabObject):
    """An accelerated deep learning function: call it as the function it wraps."""

    matlab_class = "deep.AcceleratedFunction"
    display_name = "AcceleratedFunction"
    __slots__ = ("function", "enabled", "cache_size", "check_mode", "check_tolerance", "interp",
                 "calls", "hits", "cache")

    def __init__(self, function: FunctionHandle, interp: Any) -> None:
        self.function = function
        self.enabled = True
        self.cache_size = 50.0
        self.check_mode = "none"
        self.check_tolerance = 1e-4
        self.interp = interp  # the session that made it, for calls written x = f(args)
        self.calls = 0  # calls while enabled, and how many of them replayed a cached trace
        self.hits = 0
        self.cache: dict[tuple, Any] = {}  # input pattern -> its program, None: not replayable

    def call_as_function(self, interp: Any, args: list, nargout: int) -> list:
        """accfun(...), [a, b] = accfun(...), feval and dlfeval of it."""
        return self._call(interp, list(args), nargout, False)

    def call_outermost(self, interp: Any, args: list, nargout: int) -> list:
        """The call of dlfeval(accfun, ...) at the outermost level, whose results' traces
        dlfeval drops: gradients only returned are computed without tracing them.  The
        inputs ``args`` are not yet traced: a trace replayed on the arrays alone needs no
        trace of them, any other call traces them as dlfeval does."""
        if self.enabled:
            found: list[DlArray] = []
            key = pattern_key(args, nargout, True, found, as_traced=True)
            if key is not None and all(x.node is None for x in found):
                program = self.cache.get(key)
                if program is not None and untraced_replay(program, interp):
                    self.calls += 1
                    self.hits += 1
                    return replay_untraced(program, interp, found)
        return self._call(interp, [map_dlarrays(a, traced_input) for a in args], nargout, True)

    def _call(self, interp: Any, args: list, nargout: int, outermost: bool) -> list:
        if not self.enabled:  # a disabled accelerated function is the function itself
            return interp.call_handle(self.function, args, nargout)
        self.calls += 1
        inputs: list[DlArray] = []
        key = pattern_key(args, nargout, interp.dl_depth > 0, inputs)
        if key is not None:
            program = self.cache.get(key, _MISSING)
            if program is _MISSING:
                if len(self.cache) < self.cache_size:
                    outs, self.cache[key] = self._record(interp, args, nargout, inputs)
                    return outs
            elif program is not None:
                self.hits += 1
                return replay(program, interp, inputs, outermost)
        return self._plain(interp, args, nargout)

    def _plain(self, interp: Any, args: list, nargout: int) -> list:
        state = interp.family_state
        # dlgradient enables higher derivatives by default inside an accelerated function
        state[ACCELERATED] = state.get(ACCELERATED, 0) + 1
        try:
            return interp.call_handle(self.function, args, nargout)
        finally:
            state[ACCELERATED] -= 1

    def _record(self, interp: Any, args: list, nargout: int, found: list[DlArray]) -> tuple[list, Any]:
        """The results of a call run as the function itself, and its program (None when
        it cannot be replayed).  Untraced inputs (``found``: the call's dlarrays) outside
        dlfeval are traced for the call (so that its operations leave a trace to read),
        and its results untraced again."""
        inputs: list[DlArray] = []
        untraced = interp.dl_depth == 0 and all(x.node is None for x in found)

        def note(x: DlArray) -> DlArray:
            if untraced:
                x = traced_input(x)
            inputs.append(x)
            return x

        args = [map_dlarrays(a, note) for a in args]
        outs, program = recorded_call(interp, inputs, lambda: self._plain(interp, args, nargout))
        if untraced:
            outs = [strip(v) for v in outs]
        return outs, program

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
        if name == "HitRate":  # percent of the calls that reused a cached trace
            return 100.0 * self.hits / self.calls if self.calls else 0.0
        if name == "Occupancy":  # percent of the cache's places taken
            return 100.0 * len(self.cache) / self.cache_size
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
        self.cache.clear()
        self.calls = self.hits = 0

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
    CacheSize, HitRate, Occupancy, CheckMode ('none' or 'tolerance') and CheckTolerance

    The first call with each new pattern of inputs (dlarray sizes, classes and formats,
    other inputs' values, number of outputs) runs FUN and caches its trace; later calls
    with that pattern replay the trace.  HitRate and Occupancy are percentages."""
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
