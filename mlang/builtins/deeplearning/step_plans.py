"""Plans of plain dlfeval calls: a model function that only calls traced deep learning
builtins is recorded at its first call for an input pattern, and later calls with that
pattern replay its operations on the new arrays instead of running its code.

This is what dlaccelerate does (trace_cache.py), taken only where running the code and
replaying its trace cannot differ: the function (a function of a file, named by the
handle, called at the outermost dlfeval) is a list of assignments, ended by semicolons,
of calls of ``PLANNED_CALLS`` (deterministic, traced operations that print nothing, warn
of nothing and compute only from their arguments) on its inputs, the fields of its
inputs and the results of earlier calls, with literal options; every name it calls
resolves to that builtin (checked again whenever the path changes); and the recorded
program passes a single first-order gradient back (``untraced_replay``).  Values that are not dlarrays
are part of the pattern (trace_cache.pattern_key), so a replay sees exactly the values
the recorded call saw.  Anything else runs the function's code, as do new patterns once
a function has ``PATTERNS_KEPT`` programs.
"""

from __future__ import annotations

from typing import Any

from mlang.autodiff.dlarray import map_dlarrays, strip
from mlang.autodiff.trace import next_number, traced_input
from mlang.builtins.deeplearning.dlarrays import ACCELERATED, RECORDERS
from mlang.builtins.deeplearning.trace_cache import (
    Unsupported,
    extract,
    pattern_key,
    pop_recorder,
    push_recorder,
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
                           "dlgradient"})

# interp.family_state key: the plans of the session's model functions (FunctionPlans by
# function)
PLANS = "deep.dlfeval_plans"
PATTERNS_KEPT = 8  # programs kept per function: past that, new patterns run the code
FUNCTIONS_KEPT = 64  # functions with plans at most (then the table starts afresh)

_NOT_RECORDED = object()  # a pattern whose call could not be recorded


class FunctionPlans:
    """What is known of one function: the builtins its code calls (None: not plannable),
    the path generation they were last found to resolve to in, and its programs by pattern
    (None for a pattern whose call cannot be replayed)."""

    __slots__ = ("calls", "generation", "programs")

    def __init__(self, calls: frozenset[str] | None) -> None:
        self.calls = calls
        self.generation = -1
        self.programs: dict[tuple, Any] = {}


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
    if interp.depth + 1 >= RECURSION_LIMIT:
        return None  # (the call itself would fail)
    plans = state.get(PLANS)
    if plans is None:
        plans = state[PLANS] = {}
    plan = plans.get(target)
    if plan is None:
        if len(plans) >= FUNCTIONS_KEPT:
            plans.clear()
        plan = plans[target] = FunctionPlans(_planned_calls(target))
    if plan.calls is None:
        return None
    if plan.generation != interp.generation:
        builtins = interp.builtins
        for name in plan.calls:
            found = interp.lookup(name, target.unit)
            if found is None or found is not builtins.get(name):
                return None
        plan.generation = interp.generation
    inputs: list = []
    key = pattern_key(list(args), nargout, True, inputs, as_traced=True)
    if key is None or any(x.node is not None for x in inputs):
        return None
    program = plan.programs.get(key)
    if program is not None:
        if program is _NOT_RECORDED or not untraced_replay(program, interp):
            return None
        return replay_untraced(program, interp, inputs)
    if len(plan.programs) >= PATTERNS_KEPT:
        plan.calls = None  # patterns keep changing (new data each call): the code runs
        return None
    return _recorded(interp, fun, args, nargout, plan, key)


def _recorded(interp: Any, fun: FunctionHandle, args: tuple, nargout: int, plan: FunctionPlans,
              key: tuple) -> list:
    """dlfeval's call of ``fun``, made as dlfeval makes it, its program kept for ``key``."""
    traced_inputs: list = []

    def traced(x: Any) -> Any:
        x = traced_input(x)
        traced_inputs.append(x)
        return x

    traced_args = [map_dlarrays(a, traced) for a in args]
    state = interp.family_state
    recorder = push_recorder(state)
    start = next_number()
    interp.dl_depth += 1
    try:
        outs = interp.call_value(fun, traced_args, nargout)
    finally:
        interp.dl_depth -= 1
        pop_recorder(state)
    try:
        program = extract(traced_inputs, recorder, outs, start)
    except Unsupported:
        program = None
    plan.programs[key] = program if program is not None and untraced_replay(program, interp) \
        else _NOT_RECORDED
    return [strip(v) for v in outs]


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
    """Whether ``e`` is made of variables already set, their fields, literals and calls of
    PLANNED_CALLS (their names noted in ``calls``)."""
    t = type(e)
    if t is ast.Name:
        return e.name in defined
    if t is ast.Field:
        return _plain_expression(e.base, defined, variables, calls)
    if t is ast.Number or t is ast.Char:
        return True
    if t is ast.Paren:
        return _plain_expression(e.expr, defined, variables, calls)
    if _is_call(e, variables):
        name = e.base.name
        if name not in PLANNED_CALLS:
            return False
        calls.add(name)
        return all(_plain_expression(a, defined, variables, calls) for a in e.args)
    return False
