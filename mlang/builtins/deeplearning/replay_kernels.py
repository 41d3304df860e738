"""Replay kernels: the data of a builtin's result on its arguments' data, computed
directly where that gives the builtin's own result (the same values, class and shape),
without the builtin's argument parsing; anything else calls the builtin."""

from __future__ import annotations

import math
from collections.abc import Callable
from types import FunctionType
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.ops import MATMUL
from mlang.autodiff.trace import Primitive, fit_gradient, result_data
from mlang.builtins.coerce import text_option
from mlang.builtins.deeplearning.tanh_replay import rule_contributions, slope_steps, step_value
from mlang.builtins.math.short_rows import SEQUENTIAL_SUM
from mlang.values.core import CHAR, FLOAT_DTYPES, char_text, numpy_agrees
from mlang.values.operators import OUTER_PRODUCT_MIN

# Element-wise operators whose result, for real arrays of one floating class (or an array
# and a double scalar) that NumPy broadcasts as MATLAB expands them, is NumPy's: computed
# directly, as the operators on dlarrays compute them (mlang.autodiff.ops.operator).
_ELEMENTWISE_KERNELS = {"plus": np.add, "minus": np.subtract, "times": np.multiply}


# Element-wise functions of one argument whose result for a real floating matrix (more
# than one element) is NumPy's function of it, computed quietly (the replay runs with
# NumPy's warnings off): tanh, exp (the builtin's quiet_result) and relu (fmax(x, 0)).
_REAL_MATRIX_KERNELS = {"tanh": np.tanh, "exp": np.exp, "relu": lambda x: np.fmax(x, 0)}


def computed(op: Any, raw: list, interp: Any) -> np.ndarray:
    """The data of the result of the builtin ``op`` on the data ``raw`` of its arguments."""
    name = op.name
    kernel = _ELEMENTWISE_KERNELS.get(name)
    if kernel is not None and len(raw) == 2 and numpy_agrees(raw[0], raw[1]):
        out = kernel(raw[0], raw[1])
        return out if type(out) is np.ndarray else np.array([[out]])
    if (name == "rdivide" or name == "mrdivide") and len(raw) == 2:
        x, y = raw  # as the operators on dlarrays divide (mlang.autodiff.ops.operator)
        if numpy_agrees(x, y) and (name == "rdivide" or type(y) is float or y.size == 1):
            out = np.true_divide(x, y)
            return out if type(out) is np.ndarray else np.array([[out]])
    kernel = _REAL_MATRIX_KERNELS.get(name)
    if kernel is not None and len(raw) == 1:
        x = raw[0]
        if type(x) is np.ndarray and x.dtype in FLOAT_DTYPES and x.ndim == 2 and x.size != 1:
            return kernel(x)
    if name == "power" and len(raw) == 2:
        x, b = raw  # a real power by an integer constant, as the operator on dlarrays takes it
        if type(b) is float and b.is_integer() and type(x) is np.ndarray and x.dtype in FLOAT_DTYPES:
            return x * x if b == 2.0 else np.power(x, b)
    if name == "uminus" and len(raw) == 1:
        x = raw[0]
        if type(x) is np.ndarray and x.dtype in FLOAT_DTYPES:
            return -x
    if name == "log" and len(raw) == 1:
        x = raw[0]
        if type(x) is np.ndarray and x.dtype in FLOAT_DTYPES and x.ndim == 2 and x.size != 1:
            try:  # real where NumPy raises no invalid flag (no negative input): the builtin's way
                with np.errstate(invalid="raise", divide="ignore", over="ignore", under="ignore"):
                    return np.log(x)
            except FloatingPointError:
                pass  # (complex elements: the builtin)
    if (name == "sum" or name == "mean") and len(raw) == 2:
        reduced = _reduction(name, raw[0], raw[1])
        if reduced is not None:
            return reduced
    if op.name == "mtimes" and len(raw) == 2:
        x, y = raw
        if type(x) is np.ndarray and type(y) is np.ndarray and x.ndim == 2 and y.ndim == 2 \
                and x.dtype is y.dtype and x.dtype in FLOAT_DTYPES and x.shape[1] == y.shape[0] \
                and x.size != 1 and y.size != 1:
            return x @ y
    return result_data(op.invoke(interp, raw, 1)[0])


def _reduction(name: str, x: Any, option: Any) -> np.ndarray | None:
    """sum(x, dim), sum(x, 'all') and mean(x, 'all') of a real floating matrix, by the
    steps the builtins take (None for other arguments)."""
    if type(x) is not np.ndarray or x.dtype not in FLOAT_DTYPES or x.ndim != 2 or not x.size:
        return None
    if type(option) is float:
        if name == "sum" and (option == 1.0 or option == 2.0):
            return x.sum(axis=int(option) - 1, keepdims=True)  # (sum's own direct path)
        return None
    if type(option) is not np.ndarray or option.dtype != CHAR or option.size != 3 \
            or char_text(option).lower() != "all":
        return None
    if name == "sum":
        return x.sum(keepdims=True).reshape(1, 1)  # (sum's own direct path)
    # mean's general path: the elements in column-major order, copied to double, summed
    values = x.reshape(-1, order="F").astype(np.float64)
    out = np.asarray(values.sum(axis=-1) / values.shape[-1]).reshape(1, 1)
    return out.astype(np.float32) if x.dtype == np.float32 else out


# ------------------------------------------------- kernels of a program's steps


def step_kernels(steps: list, end: int, results: frozenset | set = frozenset()) -> tuple[dict, dict]:
    """The kernels of the steps before ``end`` of an untraced replay (trace_cache.FirstOrder):
    by step index, what computes the step's value from (its arguments' data, the replay's
    memo), giving None where it declines, and what gives its rule's contributions from
    (rule, gradient, value, arguments' data, memo).  ``results``: the slots the program
    returns."""
    values: dict[int, Callable] = {}
    rules: dict[int, Callable] = {}
    slopes = slope_steps(steps, end)
    uses: dict[int, int] = {}  # (a tanh_backward step reads 1 - y.^2 in its value and its rule)
    for y_slot, backward in slopes.values():
        uses[y_slot] = uses.get(y_slot, 0) + (2 if backward else 1)
    for k, (y_slot, backward) in slopes.items():
        if uses[y_slot] < 2:
            continue  # (read once: made as the rule makes it, without a copy kept)
        if backward:
            values[k] = lambda raw, memo, y_slot=y_slot: step_value(raw, y_slot, memo)
        rules[k] = lambda rule, g, out, raw, memo, entry=(y_slot, backward): \
            rule_contributions(entry, rule, g, out, raw, memo)
    for k, step in enumerate(steps[:end]):
        op = step.op
        if op is MATMUL and len(step.args) == 4:
            ones = _ones_operand(step.args)
            if ones is not None:
                values[k] = lambda raw, memo, ones=ones: _outer_product_by_ones(raw, ones)
        elif getattr(op, "name", None) in ("sum", "mean") and getattr(op, "gradient", None) \
                and _plain_options(step.args):
            rules[k] = _mean_rule if op.name == "mean" else _sum_rule
            if op.name == "mean" and len(step.args) == 2 and _is_all(step.args[1][1]):
                values[k] = _mean_of_all
            elif op.name == "mean" and len(step.args) == 1:
                values[k] = _mean_of_vector
    for k in _sums_over_products(steps, end, results):
        values[k] = _added_in_place
    return values, rules


def _sums_over_products(steps: list, end: int, results: frozenset | set) -> list[int]:
    """The plus steps before ``end`` whose first argument is a matrix product (W*x + b, a
    layer written with operators) that nothing else reads: no other step, no result, and
    no rule but mtimes' (which reads its operands, not its value) and plus' own (which
    reads its arguments' shapes alone); the sum can be written over the product."""
    readers: dict[int, int] = {}
    made_by: dict[int, Any] = {}
    for step in steps:
        for s in _slots_read(step):
            readers[s] = readers.get(s, 0) + 1
        out = getattr(step, "out", None)
        if out is not None:
            made_by[out] = step.op
    found = []
    for k, step in enumerate(steps[:end]):
        if getattr(step, "op", None) is None or getattr(step.op, "name", None) != "plus" \
                or type(step.op) is Primitive or len(step.args) != 2:
            continue
        (a, _), (b, _) = step.args
        maker = made_by.get(a)
        if a is None or a == b or a in results or readers.get(a) != 1 or maker is None \
                or type(maker) is Primitive or getattr(maker, "name", None) != "mtimes":
            continue
        found.append(k)
    return found


def _slots_read(step: Any) -> list[int]:
    """The slots a step reads: an operation's arguments, a gradient step's y and sources."""
    if hasattr(step, "args"):
        return [s for s, _spec in step.args if s is not None]
    return [step.y, *step.sources]


def _added_in_place(raw: list, memo: dict) -> np.ndarray | None:
    """x + b written over x, a matrix product no other step reads, when NumPy's sum of the
    two is the builtin's (real arrays of one floating class) and has x's shape: the same
    values as a new sum (``computed``).  None for other arguments."""
    if len(raw) != 2:
        return None
    x, b = raw
    if type(x) is not np.ndarray or type(b) is not np.ndarray or x.dtype not in FLOAT_DTYPES \
            or b.dtype != x.dtype or x.base is not None or not x.flags.writeable \
            or x.ndim != b.ndim or not numpy_agrees(x, b) \
            or any(m != n and m != 1 for m, n in zip(b.shape, x.shape, strict=True)):
        return None
    return np.add(x, b, out=x)


def _is_all(v: Any) -> bool:
    return type(v) is np.ndarray and v.dtype == CHAR and v.size == 3 and char_text(v).lower() == "all"


def _mean_of_vector(raw: list, memo: dict) -> np.ndarray | None:
    """mean(x) of a real double row or column of SEQUENTIAL_SUM elements or more, by the
    builtin's own step for it (its sum divided by its number of elements); None for other
    arguments (the builtin takes them)."""
    x = raw[0]
    if type(x) is not np.ndarray or x.dtype != np.float64 or x.ndim != 2 \
            or x.size < SEQUENTIAL_SUM or (x.shape[0] != 1 and x.shape[1] != 1):
        return None
    return np.array([[float(x.sum() / x.size)]])


def _mean_of_all(raw: list, memo: dict) -> np.ndarray | None:
    """mean(x, 'all') of a real double matrix as _reduction computes it (the elements in
    column-major order summed, divided by their number), the option read when the program
    was made and no copy of elements already in that order (the same sum of the same
    elements in the same layout); None for other arguments."""
    x = raw[0]
    if type(x) is not np.ndarray or x.dtype != np.float64 or x.ndim != 2 or not x.size:
        return None
    values = x.reshape(-1, order="F")
    if not values.flags.c_contiguous:
        values = values.astype(np.float64)
    return np.array([[values.sum(axis=-1) / values.shape[-1]]])


def _ones_operand(args: tuple) -> int | None:
    """Which operand (0 or 1) of a matmul step is a constant real floating array of ones
    (a seed of ones through a layer), when the other is not a constant and the transpose
    flags are constants; None otherwise."""
    (sa, a), (sb, b), (st, ta), (su, tb) = args
    if st is not None or su is not None or type(ta) is not bool or type(tb) is not bool:
        return None
    for which, (s, v), other in ((0, (sa, a), sb), (1, (sb, b), sa)):
        if s is None and other is not None and type(v) is np.ndarray and v.dtype in FLOAT_DTYPES \
                and v.ndim == 2 and v.size and bool((v == 1.0).all()):
            return which
    return None


def _outer_product_by_ones(raw: list, ones: int) -> np.ndarray | None:
    """op(a) * op(b) when the inner dimension is 1 and one factor is ones, where
    matrix_product makes the outer product by einsum and adds +0: each element is the other
    factor's element times 1 (itself) plus +0, so the other factor plus +0, repeated (in
    einsum's C order).  None for products matrix_product computes otherwise."""
    a, b, ta, tb = raw
    if type(a) is not np.ndarray or type(b) is not np.ndarray or a.ndim != 2 or b.ndim != 2:
        return None
    x = a.T if ta else a
    y = b.T if tb else b
    if x.shape[1] != 1 or y.shape[0] != 1 or x.shape[0] * y.shape[1] < OUTER_PRODUCT_MIN \
            or x.dtype is not y.dtype or x.dtype not in FLOAT_DTYPES:
        return None
    out = np.empty((x.shape[0], y.shape[1]), x.dtype)
    out[...] = np.add(x if ones == 1 else y, 0.0)
    return out


def _plain_options(args: tuple) -> bool:
    """Whether a sum or mean step reduces a computed value with constant options none of
    which is 'omitnan' (its rule then reads no data but the gradient's)."""
    if not args or args[0][0] is None:
        return False
    return all(s is None and text_option(v) != "omitnan" for s, v in args[1:])


def _mean_rule(rule: Callable, g: Any, y: Any, raw: list, memo: dict) -> tuple:
    """The rule of mean with options that omit nothing: the gradient spread evenly."""
    x = raw[0]
    if type(x) is not np.ndarray:
        return rule(g, y, *raw)
    shape = x.shape
    options = len(raw) - 1
    if math.prod(shape) == 0:  # the mean of nothing (NaN) depends on no element
        return (None,) * (1 + options)
    count = math.prod(shape) / math.prod(ops.shape_of(y))
    return (ops.times(ops.expand_to(g, shape), 1 / count),) + (None,) * options


def _sum_rule(rule: Callable, g: Any, y: Any, raw: list, memo: dict) -> tuple:
    """The rule of sum with options that omit nothing: the gradient repeated."""
    return (ops.expand_to(g, ops.shape_of(raw[0])),) + (None,) * (len(raw) - 1)


# --------------------------------------- squared errors: mean((s - c).^2, 'all')


def squared_error_means(steps: list, active: tuple, targets: frozenset, results: frozenset | set
                        ) -> tuple[tuple, dict, dict]:
    """The untraced replay's backward steps (trace_cache.FirstOrder.active) with each
    chain mean(p, 'all') <- p = d.^2 <- d = s - c (c a constant array; p and d read by no
    other step, not returned, no variables) passed back in one rule: the gradient of s
    from the mean's, as the three rules compute it (squared_error_rule).  Also the kernels
    that note the power's and the minus' arguments for it (they compute nothing).  Only
    where no other contribution to s comes between the mean's rule and the minus' (the
    sums of s's contributions keep their order)."""
    readers: dict[int, int] = {}
    for step in steps:
        for s in _slots_read(step):
            readers[s] = readers.get(s, 0) + 1
    position = {entry[0]: i for i, entry in enumerate(active)}
    dropped: set[int] = set()
    replaced: dict[int, tuple] = {}
    values: dict[int, Callable] = {}
    rules: dict[int, Callable] = {}
    for i, (km, rule_m, out_m, parents_m) in enumerate(active):
        chain = _squared_error_chain(steps, km, parents_m, readers, targets, results)
        if chain is None:
            continue
        kp, kd, s = chain
        ip, id_ = position.get(kp), position.get(kd)
        if ip is None or id_ is None or not i < ip < id_ or active[ip][3] != (steps[kp].args[0][0], None) \
                or active[id_][3] != (s, None) \
                or any(s in entry[3] for entry in active[i + 1:id_] if entry[0] != kp):
            continue
        dropped.update((kp, kd))
        replaced[km] = (km, rule_m, out_m, (s, None))
        values[kp] = lambda raw, memo, kp=kp: _noted(raw, memo, kp)
        values[kd] = lambda raw, memo, kd=kd: _noted(raw, memo, kd)
        rules[km] = lambda rule, g, y, raw, memo, k=(kp, kd), chained=(active[ip][1], active[id_][1]): \
            squared_error_rule(rule, g, y, raw, memo, k, chained)
    if not replaced:
        return active, values, rules
    fused = tuple(replaced.get(entry[0], entry) for entry in active if entry[0] not in dropped)
    return fused, values, rules


def _squared_error_chain(steps: list, km: int, parents: tuple, readers: dict, targets: frozenset,
                         results: frozenset | set) -> tuple[int, int, int] | None:
    """(power step, minus step, s's slot) when step ``km`` is mean(p, 'all') of such a chain."""
    step = steps[km]
    if not _builtin_named(step.op, "mean") or len(step.args) != 2 or not _is_all(step.args[1][1]) \
            or step.args[1][0] is not None or parents != (step.args[0][0], None):
        return None
    p = step.args[0][0]
    kp = next((k for k in range(km) if getattr(steps[k], "out", None) == p), None)
    if kp is None:
        return None
    power = steps[kp]
    if not _builtin_named(power.op, "power") or len(power.args) != 2 or power.logical \
            or power.args[1] != (None, 2.0) or type(power.args[1][1]) is not float:
        return None
    d = power.args[0][0]
    kd = next((k for k in range(kp) if getattr(steps[k], "out", None) == d), None)
    if d is None or kd is None:
        return None
    minus = steps[kd]
    if not _builtin_named(minus.op, "minus") or len(minus.args) != 2 or minus.logical \
            or minus.args[0][0] is None or minus.args[1][0] is not None \
            or type(minus.args[1][1]) is not np.ndarray:
        return None
    if any(readers.get(x) != 1 or x in results or x in targets for x in (p, d)):
        return None
    return kp, kd, minus.args[0][0]


def _builtin_named(op: Any, name: str) -> bool:
    return type(op) is not Primitive and getattr(op, "name", None) == name \
        and getattr(op, "gradient", None) is not None


def _noted(raw: list, memo: dict, k: int) -> None:
    """A step's arguments kept for squared_error_rule (the step is computed as before)."""
    memo[("arguments", k)] = raw


def squared_error_rule(rule: Callable, g: Any, y: Any, raw: list, memo: dict, steps: tuple,
                       rules: tuple) -> tuple:
    """The gradient of s through mean(p, 'all'), p = d.^2, d = s - c: for real double
    arrays of one shape and a gradient that is no NaN, (g/count) .* (2 .* d), the mean's
    and the power's rules' products (the same products of the same numbers: a product of
    two numbers, neither a NaN, is the same either way round); otherwise the three rules
    one after another, as the replay would call them."""
    kp, kd = steps
    p = raw[0]
    d = memo[("arguments", kp)][0]
    s = memo[("arguments", kd)][0]
    if type(g) is np.ndarray and type(p) is np.ndarray and type(d) is np.ndarray \
            and type(s) is np.ndarray and g.dtype == p.dtype == d.dtype == s.dtype == np.float64 \
            and g.shape == (1, 1) and y.shape == (1, 1) and p.size and p.shape == d.shape == s.shape:
        share = g[0, 0] * (1 / (math.prod(p.shape) / 1))  # (the mean's rule: g expanded, times 1/count)
        if share == share:
            slope = 2.0 * d  # (the power's rule: 2 .* conj(d), then times the mean's gradient)
            return (np.multiply(slope, share, out=slope), None)
    g_p = _mean_rule(rule, g, y, raw, memo)[0]
    if g_p is None:
        return (None, None)
    g_d = _fitted(rules[0](_fitted(g_p, p), p, *memo[("arguments", kp)])[0], d)
    if g_d is None:
        return (None, None)
    return (rules[1](g_d, d, *memo[("arguments", kd)])[0], None)


def _fitted(c: Any, like: Any) -> Any:
    """A contribution as the replay's backward pass takes it in (trace_cache._untraced_gradient)."""
    if c is None:
        return None
    if type(c) is FunctionType:
        c = c()
    if type(c) is not np.ndarray or c.shape != like.shape \
            or (c.dtype is not like.dtype and c.dtype.kind != "c"):
        c = fit_gradient(c, like)
    return c
