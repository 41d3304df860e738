"""``[x, m] = f(x, g, m)`` where ``f`` is a builtin that may write an output into the arrays of
an input (``Builtin.reuses``: an optimizer's new parameters and states into the old ones).

When target ``k`` is the plain variable passed as the input that output ``k`` may reuse, the
old value becomes unobservable once the statement stores its results, so the call offers that
input for donation (``Builtin.call_donating``): the builtin writes in place only what nothing
but the variable reaches (reference counts at each level), else makes new arrays as always.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlang.errors import error
from mlang.evaluation.compiler.plain_calls import listing
from mlang.evaluation.frame import Frame
from mlang.syntax import ast


def donating_outputs(compiler: Any, node: ast.MultiAssign) -> Callable[[Frame, int], list] | None:
    """Code giving the outputs of the statement's call, offering its donatable inputs; None
    when no target is a plain variable passed as an input of a plain call."""
    value = node.value
    if type(value) is not ast.Index or value.braces or type(value.base) is not ast.Name:
        return None
    name = value.base.name
    special = compiler.special_names
    if name in special or name in compiler.params or any(type(a) is ast.Colon for a in value.args):
        return None
    arg_names = [a.name if type(a) is ast.Name and a.name not in special else None for a in value.args]
    # (output k, input i, variable): target k is the variable passed as input i
    pairs = tuple((k, i, t.name) for k, t in enumerate(node.targets) if type(t) is ast.Name
                  for i, a in enumerate(arg_names) if a == t.name)
    if not pairs:
        return None
    codes = compiler.plain_arg_codes(value.args)
    if codes is None:
        return None
    args = listing(codes)
    general = compiler.expr_outputs(value)
    interp = compiler.interp
    unit = compiler.unit
    cache: list[Any] = [-1, None, None]  # the path generation resolved in, the target, its reuses

    def outputs(frame: Frame, nargout: int) -> list:
        variables = frame.vars
        if name in variables:
            return general(frame, nargout)
        if cache[0] != interp.generation:
            target = interp.lookup(name, unit)
            if target is None:
                raise error("MATLAB:UndefinedFunction", f"Unrecognized function or variable '{name}'.")
            cache[1] = target
            cache[2] = getattr(target, "reuses", None)
            cache[0] = interp.generation
        reuses = cache[2]
        if not reuses:
            return general(frame, nargout)
        target = cache[1]
        values = args(frame)
        candidates = [i for k, i, var in pairs
                      if k < nargout and reuses.get(k) == i and variables.get(var) is values[i]]
        if not candidates:
            return target.call(interp, values, nargout, frame)
        return target.call_donating(interp, values, nargout, candidates)

    return outputs
