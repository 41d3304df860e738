"""Plans of plain dlfeval calls: a model function that only calls traced deep learning
builtins is recorded at its first call for an input pattern, and later calls with that
pattern replay its operations on the new arrays instead of running its code.

This is what dlaccelerate does (trace_cache.py), taken only where running the code and
replaying its trace cannot differ: the function (a function of a file, named by the
handle, called at the outermost dlfeval) is a list of assignments, ended by semicolons,
of expressions made of calls of ``PLANNED_CALLS`` (deterministic, traced operations that
print nothing, warn of nothing and compute only from their arguments), the operators of
``PLANNED_OPERATORS``, calls of other functions of files whose code is of the same kind,
and subscripts by literals, on its inputs, the fields of its inputs and the results of
earlier statements, with literal options; every name it calls resolves to that builtin
or function (checked again whenever the path changes); and the recorded program passes a
single first-order gradient back (``untraced_replay``), its higher-order dlgradient calls
taken in as their operations (trace_cache._inlined_calls), with no matrix division by
anything but a constant scalar (a singular matrix warns).  Values that are not dlarrays
are part of the pattern (trace_cache.pattern_key), so a replay sees exactly the values
the recorded call saw.  Anything else runs the function's code, as do new patterns once
a function has ``PATTERNS_KEPT`` programs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff.dlarray import map_dlarrays, strip
from mlang.autodiff.trace import traced_input
from mlang.builtins.deeplearning.dlarrays import ACCELERATED, RECORDERS
from mlang.builtins.deeplearning.trace_cache import (
    GradientStep,
    pattern_key,
    recorded_call,
    replay_untraced,
    untraced_replay,
)
from mlang.evaluation.frame import RECURSION_LIMIT
from mlang.evaluation.functions import UserFunction
from mlang.syntax import ast
from mlang.values.handle import FunctionHandle

# Builtins whose calls a plan replays: each computes its result from its arguments alone
# through traced operations (nothing random, no state kept outside the trace, no output,
# no warning), and errors only on the sizes, classes and option values of its arguments.
PLANNED_CALLS = frozenset({"fullyconnect", "tanh", "sigmoid", "relu", "mse", "forward",
                           "dlgradient", "exp", "log", "sum", "mean", "size", "true", "false",
                           "softmax", "crossentropy"})
# (crossentropy's weights and 'Mask' given as dlarrays enter its operation as constants:
# its result is then marked as no operation a program replays (trace.read_as_constant), so
# the recording is not kept and the function's code runs)
# Operators whose results are those of traced builtins (plus, mtimes, ...) on dlarrays,
# and of the operands alone on other values; '/' and '\\' only by a constant scalar
# (checked on the recorded program: see _replayable)
PLANNED_OPERATORS = frozenset({"+", "-", ".*", "./", "*", "/", ".^"})
PLANNED_UNARY = frozenset({"-", "+"})
PLANNED_POSTFIX = frozenset({"'", ".'"})
NESTING_MAX = 8  # levels of functions a planned function calls (deeper: the code runs)

# interp.family_state key: the plans of the session's model functions (FunctionPlans by
# function)
PLANS = "deep.dlfeval_plans"
PATTERNS_KEPT = 8  # programs kept per function: past that, new patterns run the code
FUNCTIONS_KEPT = 64  # functions with plans at most (then the table starts afresh)



class FunctionPlans:
    """What is known of one function: the names its code calls (None: not plannable),
    whether dlfeval's calls of it have stopped trying plans, the path generation the names
    were last found to resolve in and what they resolved to, and its programs by pattern."""

    __slots__ = ("calls", "declined", "generation", "programs", "resolution")

    def __init__(self, calls: frozenset[str] | None) -> None:
        self.calls = calls
        self.declined = False  # (its code may still be planned as part of another function's)
        self.generation = -1
        self.programs: dict[tuple, Any] = {}
        self.resolution: tuple = ()  # what the names called resolved to when recorded


def planned_call(interp: Any, fun: object, args: tuple, nargout: int) -> list | None:
    """The results of ``dlfeval(fun, args...)`` at the outermost level through a plan of
    ``fun`` (recorded now, or replayed), stripped of their traces as dlfeval returns them;
    None when ``fun`` has no plan for these inputs (dlfeval then calls it itself)."""
    if type(fun) is not FunctionHandle or fun.params is not None or fun.scope is not None:
        return None
    target = fun.target or interp.resolve(fun.name)  # (as the handle's call finds it)
    if type(target) is not UserFunction:
        return None
    state = interp.family_state
    if state.get(RECORDERS) or state.get(ACCELERATED):
        return None  # (inside an accelerated call: dlgradient's defaults differ there)
    if interp.depth + 1 + NESTING_MAX >= RECURSION_LIMIT:
        return None  # (the call itself, or one it makes, could fail)
    plans = state.get(PLANS)
    if plans is None:
        plans = state[PLANS] = {}
    plan = _plan_of(plans, target)
    if plan.calls is None or plan.declined or not _resolved(interp, plans, target, plan):
        return None
    inputs: list = []
    key = pattern_key(list(args), nargout, True, inputs, as_traced=True)
    if key is None or any(x.node is not None for x in inputs):
        return None
    program = plan.programs.get(key)
    if program is not None:
        if not untraced_replay(program, interp):
            return None
        return replay_untraced(program, interp, inputs)
    if len(plan.programs) >= PATTERNS_KEPT:
        plan.declined = True  # patterns keep changing (new data each call): the code runs
        return None
    return _recorded(interp, fun, args, nargout, plan, key)


def _plan_of(plans: dict, fn: UserFunction) -> FunctionPlans:
    plan = plans.get(fn)
    if plan is None:
        if len(plans) >= FUNCTIONS_KEPT:
            plans.clear()
        plan = plans[fn] = FunctionPlans(_planned_calls(fn))
    return plan


def _resolved(interp: Any, plans: dict, fn: UserFunction, plan: FunctionPlans) -> bool:
    """Whether every name ``fn``'s code calls (and the code of the functions it calls)
    resolves as the path stands to what a plan can stand for (``_resolutions``); its
    programs are dropped when a name has come to mean another function."""
    if plan.generation == interp.generation:
        return True
    found: list = []
    if not _resolutions(interp, plans, fn, plan.calls, (fn,), found):
        return False
    if len(found) != len(plan.resolution) or any(a is not b for a, b in zip(found, plan.resolution,
                                                                        strict=False)):
        plan.programs.clear()  # (recorded through other functions)
        plan.resolution = tuple(found)
    plan.generation = interp.generation
    return True


def _resolutions(interp: Any, plans: dict, fn: UserFunction, calls: frozenset[str],
                 callers: tuple, found: list) -> bool:
    """Whether every name of ``calls`` (those ``fn``'s code calls) resolves to the builtin of PLANNED_CALLS of
    that name or to a function of a file whose code a plan can stand for (not one of its
    ``callers``: no recursion), each noted in ``found``."""
    builtins = interp.builtins
    for name in sorted(calls):
        target = interp.lookup(name, fn.unit)
        found.append(target)
        if target is None:
            return False
        if name in PLANNED_CALLS and target is builtins.get(name):
            continue
        if type(target) is not UserFunction or target in callers or len(callers) >= NESTING_MAX:
            return False
        called = _plan_of(plans, target).calls
        if called is None or not _resolutions(interp, plans, target, called, (*callers, target), found):
            return False
    return True


def _recorded(interp: Any, fun: FunctionHandle, args: tuple, nargout: int, plan: FunctionPlans,
              key: tuple) -> list:
    """dlfeval's call of ``fun``, made as dlfeval makes it, its program kept for ``key``."""
    traced_inputs: list = []

    def traced(x: Any) -> Any:
        x = traced_input(x)
        traced_inputs.append(x)
        return x

    traced_args = [map_dlarrays(a, traced) for a in args]

    def call() -> list:  # (as dlfeval calls it: tracing on)
        interp.dl_depth += 1
        try:
            return interp.call_value(fun, traced_args, nargout)
        finally:
            interp.dl_depth -= 1

    outs, program = recorded_call(interp, traced_inputs, call)
    if program is not None and untraced_replay(program, interp) and _replayable(program):
        plan.programs[key] = program
    else:
        # what stops a replay is mostly the code itself (no gradient, two of them, a matrix
        # division): the function's later calls run its code without reading their pattern
        plan.declined = True
    return [strip(v) for v in outs]


def _replayable(program: Any) -> bool:
    """Whether the recorded program's gradient step is of first derivatives and its
    matrix divisions are by constant scalars (a matrix would warn when singular)."""
    for k, step in enumerate(program.steps):
        if type(step) is GradientStep:
            if step.higher and k == program.first_order.at:
                return False  # (the code makes a traced pass: not replayed untraced)
            continue
        name = getattr(step.op, "name", None)
        if name in ("mrdivide", "mldivide", "mpower"):
            s, divisor = step.args[1] if name == "mrdivide" else step.args[0]
            if name == "mpower" or s is not None or not _scalar_constant(divisor):
                return False
    return True


def _scalar_constant(v: Any) -> bool:
    return type(v) is float or (type(v) is np.ndarray and v.size == 1 and v.dtype.kind == "f")


# ------------------------------------------------------------ the code


def _planned_calls(fn: UserFunction) -> frozenset[str] | None:
    """The names a function's code calls, when its code is what a plan can stand for (see
    the module's notes); None otherwise."""
    node = fn.node
    if fn.parent is not None or node.functions or node.arguments or fn.varargin \
            or fn.varargout or not all(node.params):
        return None
    assigned: set[str] = set()
    for stmt in node.body:
        if type(stmt) is ast.Assign:
            targets = [stmt.target]
        elif type(stmt) is ast.MultiAssign:
            targets = stmt.targets
        else:
            return None
        for t in targets:
            if type(t) is not ast.Name:
                return None
            assigned.add(t.name)
    variables = set(node.params) | assigned | set(node.outputs)
    calls: set[str] = set()
    defined = set(node.params)
    for stmt in node.body:
        if stmt.show:
            return None
        if type(stmt) is ast.MultiAssign and not _is_call(stmt.value, variables):
            return None  # (several outputs of anything else: a comma-separated list)
        if not _plain_expression(stmt.value, defined, variables, calls):
            return None
        targets = [stmt.target] if type(stmt) is ast.Assign else stmt.targets
        defined.update(t.name for t in targets)
    return frozenset(calls)


def _is_call(e: ast.Node, variables: set[str]) -> bool:
    return type(e) is ast.Index and not e.braces and type(e.base) is ast.Name \
        and e.base.name not in variables


def _plain_expression(e: ast.Node, defined: set[str], variables: set[str], calls: set[str]) -> bool:
    """Whether ``e`` is made of variables already set, their fields, literals, subscripts
    of variables by literals, operators of PLANNED_OPERATORS and calls (their names noted
    in ``calls``: each must resolve to a builtin of PLANNED_CALLS or a plannable function)."""
    t = type(e)
    if t is ast.Name:
        if e.name in defined:
            return True
        if e.name in variables:
            return False  # (not set yet)
        calls.add(e.name)  # a call with no arguments
        return True
    if t is ast.Field:
        return _plain_expression(e.base, defined, variables, calls)
    if t is ast.Number or t is ast.Char:
        return True
    if t is ast.Paren:
        return _plain_expression(e.expr, defined, variables, calls)
    if t is ast.Binary:
        return e.op in PLANNED_OPERATORS and _plain_expression(e.left, defined, variables, calls) \
            and _plain_expression(e.right, defined, variables, calls)
    if t is ast.Unary:
        return e.op in PLANNED_UNARY and _plain_expression(e.operand, defined, variables, calls)
    if t is ast.Postfix:
        return e.op in PLANNED_POSTFIX and _plain_expression(e.operand, defined, variables, calls)
    if _is_call(e, variables):
        name = e.base.name
        calls.add(name)
        return all(_plain_expression(a, defined, variables, calls) for a in e.args)
    if t is ast.Index and not e.braces and type(e.base) is ast.Name and e.base.name in defined:
        # a subscript of a variable by numbers and colons (no end: it reads the size)
        return all(type(a) is ast.Number or type(a) is ast.Colon for a in e.args)
    return False
