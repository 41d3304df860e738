"""``name(args)`` at its plainest: no argument is ``:``, uses ``end``, can give a
comma-separated list or is name=value, and ``name`` is an ordinary name.

The variable is indexed, or the function is called directly (resolved once
per path generation, as ``ReferenceCompiler.calls`` does, without going
through ``interp.invoke``): a target that offers a ``direct_call`` for the
site's argument count (a compiled user function with named inputs and
outputs, a builtin whose counts fit) is called through it, its checks made
once at resolution.  ``x(k)`` of a real double array with one double
index, in range, is read inline; everything else takes ``indexing.index``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import MatlabError, error
from mlang.evaluation.compiler.runtime import MISSING, Code, constant_of
from mlang.evaluation.frame import Frame
from mlang.registry import MISSING_LITERAL, MISSING_VALUE, first_value
from mlang.values import indexing
from mlang.values.handle import FunctionHandle
from mlang.values.objects import FUNCTION_LIKE


def listing(codes: list[Code]) -> Callable[[Frame], list]:
    """Code giving the list of the values of ``codes`` (short lists written out, constants
    put in as they are)."""
    if not codes:
        return lambda frame: []
    constants = [constant_of(code) for code in codes]
    if all(value is not MISSING for value in constants):
        values = tuple(constants)
        return lambda frame: list(values)
    if len(codes) == 1:
        a = codes[0]
        return lambda frame: [a(frame)]
    if len(codes) == 2:
        a, b = codes
        first, second = constants
        if first is not MISSING:
            return lambda frame: [first, b(frame)]
        if second is not MISSING:
            return lambda frame: [a(frame), second]
        return lambda frame: [a(frame), b(frame)]
    if len(codes) == 3:
        a, b, c = codes
        first, second, third = constants
        if second is not MISSING and third is not MISSING:  # reshape(x, 2, 2)
            return lambda frame: [a(frame), second, third]
        if first is not MISSING and third is not MISSING:  # linspace(0, x, 3)
            return lambda frame: [first, b(frame), third]
        return lambda frame: [a(frame), b(frame), c(frame)]
    return lambda frame: [code(frame) for code in codes]


def plain_call_or_index(interp: Any, unit: Any, name: str, codes: list[Code]
                        ) -> tuple[Callable[[Frame, int], list], Code]:
    """(code giving ``nargout`` outputs, code giving the one value) of ``name(args)``."""
    args = listing(codes)
    index = indexing.index
    count = len(codes)
    # the path generation resolved in, the target, the target's direct call for nargout 0
    # and 1 (None: its general ``call``) and its direct call for the one value (None: none)
    # and, for one or two arguments, the direct value taking them as they are (None: none);
    # then, for one or two arguments, the builtin's own function to call here (None: none),
    # the argument classes that route its calls, and whether it takes nargout=1
    cache: list[Any] = [-1, None, None, None, None, None, None, None, False]
    float64 = np.dtype(np.float64)
    only = codes[0] if count == 1 else None
    # x([1 3]): the positions of a literal index, worked out once
    at_positions = None if only is None or not hasattr(only, "literal_array") \
        else indexing.fixed_index(only.literal_array)
    # the arguments written as literals, for a builtin's specialized call
    literals = tuple(MISSING_LITERAL if v is MISSING else v for v in map(constant_of, codes))

    def resolve(frame: Frame) -> Any:
        target = interp.lookup(name, unit)
        if target is None:
            raise error("MATLAB:UndefinedFunction", f"Unrecognized function or variable '{name}'.")
        direct = getattr(target, "direct_call", None)
        cache[2] = None if direct is None else direct(interp, count, 0)
        cache[3] = None if direct is None else direct(interp, count, 1)
        direct_value = getattr(target, "direct_value", None)
        cache[4] = None if direct_value is None else direct_value(interp, count, literals)
        # (a function that specializes on this site's literals keeps its specialized call)
        of_args = getattr(target, "direct_value_of", None)
        cache[5] = None if of_args is None else of_args(count, literals)
        inline_call = getattr(target, "inline_call", None)
        inline = None if inline_call is None or count not in (1, 2) else inline_call(count, literals)
        cache[6], cache[7], cache[8] = (None, None, False) if inline is None else inline
        cache[1] = target
        cache[0] = interp.generation
        return target

    def of_value(base: Any, values: list, nargout: int) -> list:
        if type(base) is FunctionHandle:
            return interp.invoke(base, values, nargout)
        if type(base) in FUNCTION_LIKE:
            return base.call_as_function(interp, values, nargout)
        return [index(base, values)]

    def run(frame: Frame, nargout: int) -> list:
        base = frame.vars.get(name, MISSING)
        if base is MISSING:
            values = args(frame)
            if cache[0] != interp.generation:
                resolve(frame)
            if nargout <= 1:
                direct = cache[2 + nargout]
                if direct is not None:
                    return direct(interp, values, nargout)
            return cache[1].call(interp, values, nargout, frame)
        return of_value(base, args(frame), nargout)

    def value(frame: Frame) -> Any:
        base = frame.vars.get(name, MISSING)
        if base is MISSING:
            values = args(frame)
            if cache[0] != interp.generation:
                resolve(frame)
            direct_value = cache[4]
            if direct_value is not None:
                v = direct_value(interp, values)
                if v is MISSING_VALUE:
                    raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
                return v
            return function_value(frame, values)
        return variable_value(frame, base)

    def variable_value(frame: Frame, base: Any) -> Any:
        return _first_output(of_value(base, args(frame), 1))

    def function_value(frame: Frame, values: list) -> Any:
        """The one value of the function resolved in ``cache`` called on ``values``."""
        direct_value = cache[4]
        if direct_value is not None:
            return _given(direct_value(interp, values))
        direct = cache[3]
        return _first_output(direct(interp, values, 1) if direct is not None
                             else cache[1].call(interp, values, 1, frame))

    def positional_value(frame: Frame, *values: Any) -> Any:
        """``function_value`` through the direct value taking one or two arguments as they
        are, when the function has one."""
        if cache[0] != interp.generation:
            resolve(frame)
        of_args = cache[5]
        if of_args is None:
            return function_value(frame, list(values))
        return _given(of_args(interp, *values))

    # a literal argument is read as it is (its code gives that same object each time)
    if count == 1:
        only_literal = literals[0]
        only_is_literal = only_literal is not MISSING_LITERAL
        only_variable = getattr(only, "variable", None)

        def value_of_one(frame: Frame) -> Any:
            vars = frame.vars
            base = vars.get(name, MISSING)
            if base is MISSING:
                if only_is_literal:
                    a = only_literal
                elif only_variable is not None:
                    a = vars.get(only_variable, MISSING)
                    if a is MISSING:
                        a = only(frame)
                else:
                    a = only(frame)
                if cache[0] == interp.generation:
                    fn = cache[6]
                    if fn is not None and type(a) not in cache[7]:  # the function itself
                        try:
                            v = fn(a, nargout=1) if cache[8] else fn(a)
                        except MatlabError as exc:
                            cache[1].label(exc)
                            raise
                        return v if v is not None and type(v) is not tuple else _given(first_value(v))
                    of_one = cache[5]
                    if of_one is not None:
                        v = of_one(interp, a)
                        if v is MISSING_VALUE:
                            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
                        return v
                return positional_value(frame, a)
            if type(base) is np.ndarray:
                if at_positions is not None:
                    picked = at_positions(base)
                    if picked is not None:
                        return picked
                k = only(frame)
                if type(k) is float and base.dtype is float64 and base.ndim == 2:
                    i = int(k) if k.is_integer() else 0  # (NaN, Inf: the general path's error)
                    if i == k and 1 <= i <= base.size:
                        rows = base.shape[0]
                        return base.item((i - 1) % rows, (i - 1) // rows)
                return index(base, [k])
            return variable_value(frame, base)

        return run, value_of_one
    if count == 2:
        first, second = codes
        first_literal, second_literal = literals
        first_is_literal = first_literal is not MISSING_LITERAL
        second_is_literal = second_literal is not MISSING_LITERAL
        first_variable = getattr(first, "variable", None)
        second_variable = getattr(second, "variable", None)

        def value_of_two(frame: Frame) -> Any:
            vars = frame.vars
            base = vars.get(name, MISSING)
            if base is MISSING:
                if first_is_literal:
                    a = first_literal
                elif first_variable is not None:
                    a = vars.get(first_variable, MISSING)
                    if a is MISSING:
                        a = first(frame)
                else:
                    a = first(frame)
                if second_is_literal:
                    b = second_literal
                elif second_variable is not None:
                    b = vars.get(second_variable, MISSING)
                    if b is MISSING:
                        b = second(frame)
                else:
                    b = second(frame)
                if cache[0] == interp.generation:
                    fn = cache[6]
                    if fn is not None:  # the function itself
                        routes = cache[7]
                        if type(a) not in routes and type(b) not in routes:
                            try:
                                v = fn(a, b, nargout=1) if cache[8] else fn(a, b)
                            except MatlabError as exc:
                                cache[1].label(exc)
                                raise
                            return v if v is not None and type(v) is not tuple else _given(first_value(v))
                    of_two = cache[5]
                    if of_two is not None:
                        v = of_two(interp, a, b)
                        if v is MISSING_VALUE:
                            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
                        return v
                return positional_value(frame, a, b)
            if type(base) is np.ndarray:  # x(i, j) of an array
                return index(base, [first(frame), second(frame)])
            return variable_value(frame, base)

        return run, value_of_two
    return run, value


def _given(value: Any) -> Any:
    """A direct value, or MATLAB's error when the function gave none."""
    if value is MISSING_VALUE:
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    return value


def _first_output(outputs: list) -> Any:
    """The first of a call's outputs, or MATLAB's error when it gave none."""
    if not outputs:
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    return outputs[0]
