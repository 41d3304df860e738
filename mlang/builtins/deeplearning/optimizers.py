"""Optimizers for custom training loops: adamupdate, sgdmupdate, rmspropupdate and
dlupdate.

Each takes its parameters, gradients and states in any parameter container
(``containers.map_parameters``: a dlarray, a numeric array, a struct, a cell array, a
Learnables table, later a network) and returns the same containers.  The updates run
on the data of the dlarrays: they are not differentiable, their results are untraced,
and each parameter keeps its class (single or double) and its data format.
"""

from __future__ import annotations

import math
import operator
from sys import getrefcount
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning.adam_steps import adam_arrays, adam_step_into
from mlang.builtins.deeplearning.adam_steps import adam_step as adam_step
from mlang.builtins.deeplearning.containers import (
    CONTAINER_KINDS,
    is_missing,
    map_parameter_rows,
    map_parameters,
    owned_buffers,
)
from mlang.errors import MatlabError, error
from mlang.registry import builtin
from mlang.values.cell import Cell
from mlang.values.core import class_of, result, to_array
from mlang.values.struct import Struct
from mlang.values.table import Table

# ------------------------------------------------------------ arguments

_REAL_FLOATS = (np.dtype(np.float64), np.dtype(np.float32))


def _invalid(function: str, kind: str, message: str) -> Exception:
    return error(f"MATLAB:{function}:{kind}", message)


def hyperparameter(value: Any, name: str, default: float, function: str, *,
                   positive: bool = False, below_one: bool = False,
                   at_most_one: bool = False, integer: bool = False) -> float:
    """A real scalar setting (learning rate, decay, epsilon...) checked as
    validateattributes would: ``[]`` or absent gives the default."""
    if value is None:
        return default
    if type(value) is float:  # a double scalar as the interpreter holds one (a loop counter)
        return _checked_setting(value, name, function, positive, below_one, at_most_one, integer)
    data = value.data if type(value) is DlArray else value
    if type(data) is np.ndarray and data.size == 0 and data.dtype.kind in "fiub":
        return default
    cls = class_of(data)
    if cls not in ("double", "single", "int8", "int16", "int32", "int64", "uint8", "uint16",
                   "uint32", "uint64", "logical"):
        raise _invalid(function, "invalidType",
                       f"Expected {name} to be one of these types:\n\ndouble, single, int8, "
                       "int16, int32, int64, uint8, uint16, uint32, uint64\n\n"
                       f"Instead its type was {cls}.")
    array = to_array(data)
    if array.size != 1:
        raise _invalid(function, "expectedScalar", f"Expected {name} to be a scalar.")
    if array.dtype.kind == "c":
        raise _invalid(function, "expectedReal", f"Expected {name} to be real.")
    return _checked_setting(float(array.reshape(-1)[0]), name, function, positive, below_one,
                            at_most_one, integer)


def _checked_setting(number: float, name: str, function: str, positive: bool, below_one: bool,
                     at_most_one: bool, integer: bool) -> float:
    """A real scalar setting's value, checked for the attributes asked for."""
    if not math.isfinite(number):
        raise _invalid(function, "expectedFinite", f"Expected {name} to be finite.")
    if integer and number != round(number):
        raise _invalid(function, "expectedInteger", f"Expected {name} to be integer-valued.")
    if positive and number <= 0:
        raise _invalid(function, "expectedPositive", f"Expected {name} to be positive.")
    if number < 0:
        raise _invalid(function, "expectedNonnegative", f"Expected {name} to be nonnegative.")
    if below_one and number >= 1:
        raise _invalid(function, "notLess", f"Expected {name} to be less than 1.")
    if at_most_one and number > 1:
        raise _invalid(function, "notLessEqual",
                       f"Expected {name} to be less than or equal to 1.")
    return number


def parameter_data(value: Any, what: str, function: str) -> np.ndarray:
    """The floating-point data of a parameter, gradient or state."""
    if type(value) is DlArray and value.data.dtype in _REAL_FLOATS:
        return value.data  # the common case, first
    if value is None:  # an empty gradient where a parameter stands
        raise error(f"deep:{function}:InvalidInput", f"{what} must not be empty.")
    data = value.data if type(value) is DlArray else value
    cls = class_of(data)
    if cls not in ("double", "single"):
        raise error(f"deep:{function}:InvalidInput",
                    f"{what} must be dlarray objects or numeric arrays of type single or "
                    f"double, not {cls}.")
    array = to_array(data)
    if array.dtype.kind == "c":
        raise error(f"deep:{function}:InvalidInput", f"{what} must be real.")
    return array


def _same_size(a: np.ndarray, b: np.ndarray, what: str, function: str) -> np.ndarray:
    if a.shape != b.shape:
        raise error(f"deep:{function}:SizeMismatch",
                    f"{what} must be the same size as the parameters.")
    return b


def _like(data: np.ndarray, template: Any, dl: bool) -> Any:
    """``data`` as a dlarray with ``template``'s format (when ``dl``) or a plain array."""
    if dl:
        return DlArray(data, template.fmt if type(template) is DlArray else "")
    return result(data)


def _step_inputs(p: Any, g: Any, function: str) -> tuple[np.ndarray, np.ndarray, bool, Any]:
    """A parameter's data, its gradient's (in the parameter's class), whether the results
    are dlarrays, and the value whose format they take."""
    pd = parameter_data(p, "Parameters", function)
    gd = _same_size(pd, parameter_data(g, "Gradients", function), "Gradients", function)
    if gd.dtype != pd.dtype:
        gd = gd.astype(pd.dtype)
    dl = type(p) is DlArray or type(g) is DlArray
    return pd, gd, dl, (p if type(p) is DlArray else g)


def _state(s: Any, pd: np.ndarray, what: str, function: str) -> np.ndarray | None:
    if s is None:
        return None
    sd = _same_size(pd, parameter_data(s, what, function), what, function)
    return sd if sd.dtype == pd.dtype else sd.astype(pd.dtype)


# ------------------------------------------------------------ Adam


def _unshared(data: np.ndarray | None, owned: Any) -> bool:
    """Whether ``data`` may be overwritten: held only by its input and owning its memory."""
    return data is not None and data.base is None and id(data) in owned


def _owned(value: Any, position: int, donated: frozenset) -> set[int]:
    """The ids of the arrays of input ``position`` that may be written in place."""
    return owned_buffers(value) if position in donated else _NONE_OWNED


_NONE_OWNED: frozenset = frozenset()


@builtin(dl="native", max_out=3, reuses={0: 0, 1: 2, 2: 3}, interp=True)
def adamupdate(interp: Any, params: object, grad: object, avg_grad: object, avg_sq_grad: object,
               iteration: object, learn_rate: object = None, grad_decay: object = None,
               sq_grad_decay: object = None, epsilon: object = None, *,
               donated: frozenset = _NONE_OWNED) -> tuple:
    """[params, avgGrad, avgSqGrad] = adamupdate(params, grad, avgGrad, avgSqGrad, iteration)  Adam
    update: one step of adaptive moment estimation for the parameters PARAMS
    adamupdate(..., learnRate, gradDecay, sqGradDecay, epsilon)  the global learning rate
    (0.001), the decay of the gradient moving average (0.9), of the squared gradient
    moving average (0.999), and the denominator offset (1e-8)
    PARAMS, GRAD and the states are dlarrays, numeric arrays, structs, cell arrays or
    Learnables tables of them; the states are [] on the first iteration.  With the moving
    averages m and v, the update is
        m = gradDecay*m + (1-gradDecay)*grad,  v = sqGradDecay*v + (1-sqGradDecay)*grad.^2
        params = params - learnRate*(m/(1-gradDecay^t)) ./ (sqrt(v/(1-sqGradDecay^t)) + epsilon)"""
    name = "adamupdate"
    t = hyperparameter(iteration, "iteration", 1.0, name, positive=True, integer=True)
    lr = hyperparameter(learn_rate, "learnRate", 0.001, name, positive=True)
    beta1 = hyperparameter(grad_decay, "gradDecay", 0.9, name, below_one=True)
    beta2 = hyperparameter(sq_grad_decay, "sqGradDecay", 0.999, name, below_one=True)
    eps = hyperparameter(epsilon, "epsilon", 1e-8, name, positive=True)
    # bias corrections of the two moving averages at iteration t, folded into two scalars:
    # (m/c1) / (sqrt(v/c2) + eps) = (sqrt(c2)/c1) * m / (sqrt(v) + eps*sqrt(c2))
    root_c2 = math.sqrt(1 - beta2 ** t)
    step_scale = lr * root_c2 / (1 - beta1 ** t)
    offset = eps * root_c2
    layouts = interp.family_state.setdefault(TOGETHER_LAYOUTS, {})
    # (before anything here holds a part of them: the counts are the containers' own)
    in_place = len(donated) == 3 and bool(layouts) \
        and _rows_owned(params, avg_grad, avg_sq_grad, layouts)
    stepped = _adam_container_step(params, grad, avg_grad, avg_sq_grad, beta1, beta2, offset,
                                step_scale, layouts, in_place)
    if stepped is not None:
        return stepped
    # (before the walk below holds any part of them: the counts are the containers' own)
    if donated and not _small_together(params):
        own_p, own_m, own_v = (_owned(params, 0, donated), _owned(avg_grad, 2, donated),
                               _owned(avg_sq_grad, 3, donated))
    else:
        own_p = own_m = own_v = _NONE_OWNED

    def update(rows: list[tuple]) -> list[tuple]:
        inputs = []
        for p, g, m, v in rows:
            if type(p) is DlArray and type(g) is DlArray and type(m) is DlArray and type(v) is DlArray:
                # a training loop's step: dlarrays of one class and size (checked as below)
                pd, gd, md, vd = p.data, g.data, m.data, v.data
                if pd.dtype in _REAL_FLOATS and gd.dtype is pd.dtype and md.dtype is pd.dtype \
                        and vd.dtype is pd.dtype and pd.shape == gd.shape == md.shape == vd.shape:
                    inputs.append((pd, gd, md, vd))
                    continue
            pd, gd, _, _ = _step_inputs(p, g, name)
            md = _state(m, pd, "Moving average of gradients", name)
            vd = _state(v, pd, "Moving average of squared gradients", name)
            inputs.append((pd, gd, md, vd))
        # every check is made: from here on, arrays nothing else reaches may be overwritten
        results = _adam_together(inputs, beta1, beta2, offset, step_scale, layouts)
        if results is None:
            results = [adam_arrays(pd, gd, md, vd, beta1, beta2, offset, step_scale,
                                    _unshared(pd, own_p), _unshared(md, own_m), _unshared(vd, own_v))
                       for pd, gd, md, vd in inputs]
        out = []
        for (p, g, _, _), (new_p, m_new, v_new) in zip(rows, results, strict=True):
            if type(p) is DlArray:  # the usual case: dlarrays of the parameter's format
                fmt = p.fmt
                out.append((DlArray(new_p, fmt), DlArray(m_new, fmt), DlArray(v_new, fmt)))
                continue
            dl = type(g) is DlArray
            out.append((_like(new_p, g, dl), _like(m_new, g, dl), _like(v_new, g, dl)))
        return out

    return tuple(map_parameter_rows(update, params, grad, avg_grad, avg_sq_grad, nout=3,
                                    missing_allowed=True, shaped_like=(0, 1, 1)))


def _struct_values(value: Any, fields: list[str]) -> list | None:
    """The values of a scalar struct with exactly these fields in this order; None for
    anything else."""
    if type(value) is not Struct or value.fields != fields or value.elems.size != 1:
        return None
    return list(map(value.elems.item().__getitem__, fields))


def _struct_columns(params: Struct, others: tuple) -> list | None:
    """The parameters of a scalar struct and the matching values of ``others`` (scalar
    structs of the same fields in the same order, or ``[]``: None for its column)."""
    fields = params.fields
    columns: list = [list(map(params.elems.item().__getitem__, fields))]
    for other in others:
        if is_missing(other):
            columns.append(None)
            continue
        values = _struct_values(other, fields)
        if values is None or other.elems.shape != params.elems.shape:
            return None
        columns.append(values)
    return columns


def _container_columns(params: Any, others: tuple) -> list | None:
    """The parameters of a container of arrays (a network, a table, a cell array) and the
    matching values of ``others`` (``[]``: None), as ``map_parameter_rows`` pairs them;
    None when a container holds another or the structures do not match (the general path
    then walks them, or reports the mismatch)."""
    kind = CONTAINER_KINDS.get(type(params))
    if kind is None:
        return None
    columns: list = [kind.children(params)]
    try:
        for other in others:
            columns.append(None if is_missing(other) else kind.matching_children(params, other))
    except MatlabError:
        return None
    return columns


def _adam_container_step(params: Any, grad: Any, avg_grad: Any, avg_sq_grad: Any, beta1: float,
                         beta2: float, offset: float, step_scale: float, layouts: dict,
                         in_place: bool = False) -> tuple | None:
    """adamupdate's results in a training loop's usual case, computed with no general walk
    of the containers: a scalar struct, a network (its gradients and states Learnables
    tables, or ``[]``), a cell array or a table of dlarrays, of real data of one class and of
    matching sizes, small enough to be updated together.  None for anything else (the
    general path then checks and walks).  ``in_place``: the arrays of a remembered joint
    step that the parameters and states hold may be overwritten (see _rows_owned)."""
    is_struct = type(params) is Struct and params.elems.size == 1
    if is_struct:
        columns = _struct_columns(params, (grad, avg_grad, avg_sq_grad))
    elif type(params) in CONTAINER_KINDS:
        columns = _container_columns(params, (grad, avg_grad, avg_sq_grad))
    else:
        return None
    if columns is None or columns[1] is None:
        return None
    ps, gs, ms, vs = columns
    n = len(ps)
    if len(gs) != n or ms is not None and len(ms) != n or vs is not None and len(vs) != n:
        return None
    stepped = _remembered_step(ps, gs, ms, vs, beta1, beta2, offset, step_scale, layouts, in_place)
    if stepped is None:
        stepped = _checked_step(ps, gs, ms, vs, beta1, beta2, offset, step_scale, layouts)
        if stepped is None:
            return None
    if in_place and _held_as_they_are(ps, ms, vs, stepped):
        # written over the arrays the inputs hold: the inputs, where they are what the
        # containers would be rebuilt as
        kept = _containers_kept(params, grad, avg_grad, avg_sq_grad, is_struct)
        if kept is not None:
            return kept
        new_params, new_avg, new_avg_sq = ps, ms, vs
    else:
        fmts = list(map(_FMT, ps))
        new_params, new_avg, new_avg_sq = (list(map(DlArray, datas, fmts)) for datas in stepped)
    if is_struct:
        fields, shape = params.fields, params.elems.shape
        return tuple(_scalar_struct(fields, shape, dict(zip(fields, values, strict=True)))
                     for values in (new_params, new_avg, new_avg_sq))
    # the states take the gradients' structure (a network's are Learnables tables), as in
    # map_parameter_rows
    states = grad if type(grad) is not type(params) else params
    state_kind = CONTAINER_KINDS[type(states)]
    return (CONTAINER_KINDS[type(params)].rebuild(params, new_params),
            state_kind.rebuild(states, new_avg), state_kind.rebuild(states, new_avg_sq))


def _held_as_they_are(ps: list, ms: list, vs: list, stepped: tuple) -> bool:
    """Whether the parameters and states (dlarrays) are the dlarrays the step's results
    would be made as: each holds its new data array, in its parameter's format."""
    new_ps, new_ms, new_vs = stepped
    for k, p in enumerate(ps):
        m, v = ms[k], vs[k]
        if p.data is not new_ps[k] or m.data is not new_ms[k] or v.data is not new_vs[k] \
                or m.fmt != p.fmt or v.fmt != p.fmt:
            return False
    return True


def _containers_kept(params: Any, grad: Any, avg_grad: Any, avg_sq_grad: Any,
                     is_struct: bool) -> tuple | None:
    """The inputs themselves as adamupdate's results, when their parameters and states are
    the results (``_held_as_they_are``) and the containers rebuilt around them would be
    the same values: scalar structs (of the parameters' fields in order and size, as
    _struct_columns checked), a network, and states that are the gradients' Learnables
    tables with another Value; None otherwise."""
    if is_struct:
        return params, avg_grad, avg_sq_grad
    if getattr(type(params), "matlab_class", None) != "dlnetwork" or type(grad) is not Table \
            or not _table_like(avg_grad, grad) or not _table_like(avg_sq_grad, grad):
        return None
    return params, avg_grad, avg_sq_grad


_TABLE_ATTRIBUTES = ("description", "user_data", "dimension_names", "variable_units",
                     "variable_descriptions", "variable_continuity")


def _table_like(table: Any, grad: Table) -> bool:
    """Whether ``table`` is ``grad`` with another Value variable (a cell array of its
    height): what TableKind.rebuild makes of ``grad`` with ``table``'s values."""
    if type(table) is not Table or table.names != grad.names or table.nrows != grad.nrows \
            or table.row_names != grad.row_names:
        return False
    value = grad.names.index("Value")
    for k, variable in enumerate(table.variables):
        if k == value:
            if type(variable) is not Cell or type(grad.variables[k]) is not Cell \
                    or variable.data.shape != grad.variables[k].data.shape:
                return False
        elif variable is not grad.variables[k]:
            return False
    return all(getattr(table, name) is getattr(grad, name) for name in _TABLE_ATTRIBUTES)


def _checked_step(ps: list, gs: list, ms: list | None, vs: list | None, beta1: float,
                  beta2: float, offset: float, step_scale: float,
                  layouts: dict) -> tuple[list, list, list] | None:
    """The joint step of matching columns of parameters, gradients and states (``ms`` and
    ``vs`` None on the first step), each checked; None when they do not qualify."""
    n = len(ps)
    pds, gds = [], []
    mds = None if ms is None else []
    vds = None if vs is None else []
    total = 0
    for k, p in enumerate(ps):
        g = gs[k]
        if type(p) is not DlArray or type(g) is not DlArray:
            return None
        pd, gd = p.data, g.data
        dtype = pd.dtype
        if dtype not in _REAL_FLOATS or gd.dtype is not dtype or gd.shape != pd.shape:
            return None
        total += pd.size
        if total > _TOGETHER:
            return None  # too large to be updated together: the general path, at once
        pds.append(pd)
        gds.append(gd)
        if ms is not None:
            m = ms[k]
            if type(m) is not DlArray or m.data.dtype is not dtype or m.data.shape != pd.shape:
                return None
            mds.append(m.data)
        if vs is not None:
            v = vs[k]
            if type(v) is not DlArray or v.data.dtype is not dtype or v.data.shape != pd.shape:
                return None
            vds.append(v.data)
    if n and any(pd.dtype is not pds[0].dtype for pd in pds):
        return None  # parameters of several classes: stepped one by one
    return _adam_together_columns(pds, gds, mds, vds, beta1, beta2, offset, step_scale, layouts)


_FMT = operator.attrgetter("fmt")
_DATA = operator.attrgetter("data")


def _remembered_step(ps: list, gs: list, ms: list | None, vs: list | None, beta1: float,
                     beta2: float, offset: float, step_scale: float, layouts: dict,
                     in_place: bool = False) -> tuple[list, list, list] | None:
    """``_checked_step`` in a training loop's next step: the parameters and moving averages
    are the very arrays the last joint step returned (its remembered layout), so they are
    known to qualify and only the gradients are checked.  The same arithmetic on the same
    rows (written over them when ``in_place``); None for anything else."""
    if not layouts or ms is None or vs is None or not ps or type(ps[0]) is not DlArray:
        return None
    remembered = layouts.get(id(ps[0].data))
    if remembered is None:
        return None
    p_views, m_views, v_views = remembered.views
    n = len(p_views)
    if len(ps) != n:
        return None
    dtype = remembered.buffer.dtype
    for k in range(n):
        p, g, m, v = ps[k], gs[k], ms[k], vs[k]
        if type(p) is not DlArray or type(g) is not DlArray or type(m) is not DlArray \
                or type(v) is not DlArray or p.data is not p_views[k] or m.data is not m_views[k] \
                or v.data is not v_views[k]:
            return None
        gd = g.data
        if gd.dtype is not dtype or gd.shape != p_views[k].shape:
            return None
    del layouts[id(ps[0].data)]
    rows = remembered.buffer
    if not in_place:
        return _joint_step(rows[0], list(map(_DATA, gs)), rows[1], rows[2], p_views, beta1,
                           beta2, offset, step_scale, layouts)
    gd_all = np.concatenate(list(map(_DATA, gs)), axis=None)
    pd_all, md_all, vd_all = rows
    adam_step_into(pd_all, gd_all, md_all, vd_all, pd_all, md_all, vd_all, np.empty_like(gd_all),
               beta1, beta2, offset, step_scale, True, True)
    if len(layouts) >= _LAYOUTS_KEPT:
        layouts.clear()
    layouts[id(p_views[0])] = remembered  # (the same arrays, holding the new values)
    return list(p_views), list(m_views), list(v_views)


def _rows_owned(params: Any, avg_grad: Any, avg_sq_grad: Any, layouts: dict) -> bool:
    """Whether the parameters and moving averages (donated inputs) hold every array of a
    remembered joint step, each reached through them alone: every object on the way held
    once, each array held by its dlarray alone, and no other view of their buffer.  Their
    next step may then be written over them."""
    columns = []
    for value in (params, avg_grad, avg_sq_grad):
        kind = CONTAINER_KINDS.get(type(value))
        children = None if kind is None else kind.owned_children(value)
        if not children:
            return False
        columns.append(children)
    first = columns[0][0]
    remembered = layouts.get(id(first.data)) if type(first) is DlArray else None
    del first  # (its reference would count as another holder)
    if remembered is None:
        return False
    for row in range(3):
        children = columns[row]
        views = remembered.views[row]
        n = len(views)
        if len(children) != n:
            return False
        for k in range(n):  # (by index: a zip would hold the items once more)
            child = children[k]
            view = views[k]
            # references: the container's, the list's, `child`, getrefcount's argument
            if type(child) is not DlArray or child.node is not None or child.data is not view \
                    or getrefcount(child) > 4:
                return False
            # references: the dlarray's, the remembered list's, `view`, getrefcount's argument
            if getrefcount(view) > 4:
                return False
    # references: each view's base, the remembered buffer's, getrefcount's argument
    return getrefcount(remembered.buffer) <= 3 * len(remembered.views[0]) + 2


def _scalar_struct(fields: list[str], shape: tuple[int, ...], values: dict) -> Struct:
    elems = np.empty(shape, dtype=object)
    elems.reshape(-1)[0] = values
    return Struct(list(fields), elems)


def _small_together(params: Any) -> bool:
    """Whether ``params`` is a container of several arrays small enough in all to be
    updated together (``_adam_together``: new arrays then, whatever holds the old ones)."""
    kind = CONTAINER_KINDS.get(type(params))
    if kind is None:
        return False
    children = kind.children(params)
    if len(children) < 2:
        return False
    total = 0
    for child in children:
        if type(child) is DlArray:
            total += child.data.size
        elif type(child) is np.ndarray:
            total += child.size
        else:
            return False
    return total <= _TOGETHER


# Parameters with this many elements in all at most are updated together, as one array:
# for small parameters the cost of an update is that of its NumPy calls, not of the arithmetic.
_TOGETHER = 65536


# interp.family_state key: the last results of _adam_together by the id of their first
# parameter (see _Together)
TOGETHER_LAYOUTS = "deep.adam_together_layouts"
# layouts remembered at most (one per set of parameters trained in turn)
_LAYOUTS_KEPT = 8


class _Together:
    """The results of one ``_adam_together`` step: the buffer whose rows hold the new
    parameters and moving averages laid end to end, and the views of it returned.  When
    the next step is given these same views (a training loop's next step), the rows are
    its inputs as they are, with no concatenation."""

    __slots__ = ("buffer", "views")

    def __init__(self, buffer: np.ndarray, views: tuple) -> None:
        self.buffer = buffer
        self.views = views  # per row of the buffer, the views of it, in parameter order


def _laid_out(arrays: tuple, remembered: _Together | None, row: int) -> np.ndarray:
    """``arrays`` laid end to end: a row of the remembered buffer when they are its views
    in order (they are never written in place: see _unshared), else a new concatenation."""
    if remembered is not None and len(arrays) == len(remembered.views[row]) \
            and all(map(operator.is_, arrays, remembered.views[row])):
        return remembered.buffer[row]
    # (axis None: each array is read flat, in NumPy's order, with no reshape of its own)
    return np.concatenate(arrays, axis=None)


def _adam_together(inputs: list[tuple], beta1: float, beta2: float, offset: float,
                   step_scale: float, layouts: dict | None = None) -> list[tuple] | None:
    """The Adam step of several small parameters of one class computed on their elements
    laid end to end (the same arithmetic element by element); None when they do not qualify.
    (The results are views of one new buffer: for parameters this small, the cost of a step
    is that of its NumPy calls, which writing into the old arrays one by one would multiply.)
    ``layouts`` (the session's, kept between calls) remembers the results by the id of
    their first parameter, so that the next step reads them without copying them."""
    if len(inputs) < 2:
        return None
    pds, gds, mds, vds = zip(*inputs, strict=True)
    dtype = pds[0].dtype
    has_m, has_v = mds[0] is not None, vds[0] is not None
    for pd, md, vd in zip(pds, mds, vds, strict=True):
        if pd.dtype is not dtype or (md is not None) is not has_m or (vd is not None) is not has_v:
            return None
    stepped = _adam_together_columns(pds, gds, mds if has_m else None, vds if has_v else None,
                                     beta1, beta2, offset, step_scale, layouts)
    return None if stepped is None else list(zip(*stepped, strict=True))


def _adam_together_columns(pds: Any, gds: Any, mds: Any, vds: Any, beta1: float, beta2: float,
                           offset: float, step_scale: float,
                           layouts: dict | None) -> tuple[list, list, list] | None:
    """``_adam_together`` on the parameters' data ``pds`` and the matching gradients and
    states (``mds``, ``vds`` None on the first step), checked by the caller to be of one
    class: the new parameters and states as three lists, or None when they do not qualify."""
    n = len(pds)
    if n < 2:
        return None
    sizes = [pd.size for pd in pds]
    total = sum(sizes)
    if total > _TOGETHER:
        return None
    remembered = layouts.pop(id(pds[0]), None) if layouts is not None else None
    if remembered is not None and remembered.buffer.shape != (3, total):
        remembered = None
    pd_all = _laid_out(pds, remembered, 0)
    md_all = _laid_out(mds, remembered, 1) if mds is not None else None
    vd_all = _laid_out(vds, remembered, 2) if vds is not None else None
    return _joint_step(pd_all, gds, md_all, vd_all, pds, beta1, beta2, offset, step_scale, layouts)


def _joint_step(pd_all: np.ndarray, gds: Any, md_all: np.ndarray | None, vd_all: np.ndarray | None,
                like: Any, beta1: float, beta2: float, offset: float, step_scale: float,
                layouts: dict | None) -> tuple[list, list, list]:
    """The Adam step of parameters laid end to end in ``pd_all`` (their states in ``md_all``
    and ``vd_all``, None on the first step) with gradients ``gds``: the new parameters and
    states as views of one new buffer, in the shapes of the arrays ``like``."""
    gd_all = np.concatenate(gds, axis=None)
    buffer = np.empty((3, gd_all.size), dtype=pd_all.dtype)
    new_p, m_new, v_new = buffer
    adam_step_into(pd_all, gd_all, md_all, vd_all, new_p, m_new, v_new, new_p, beta1, beta2, offset,
               step_scale)
    # views of the three results (a view is never written in place: see _unshared)
    new_ps, new_ms, new_vs = [], [], []
    start = 0
    for pd in like:
        end = start + pd.size
        shape = pd.shape
        new_ps.append(new_p[start:end].reshape(shape))
        new_ms.append(m_new[start:end].reshape(shape))
        new_vs.append(v_new[start:end].reshape(shape))
        start = end
    if layouts is not None:
        if len(layouts) >= _LAYOUTS_KEPT:
            layouts.clear()
        layouts[id(new_ps[0])] = _Together(buffer, (new_ps, new_ms, new_vs))
    return new_ps, new_ms, new_vs


# ------------------------------------------------------------ SGDM


@builtin(dl="native", max_out=2, reuses={0: 0, 1: 2})
def sgdmupdate(params: object, grad: object, vel: object, learn_rate: object = None,
               momentum: object = None, *, donated: frozenset = _NONE_OWNED) -> tuple:
    """[params, vel] = sgdmupdate(params, grad, vel)  update parameters by stochastic
    gradient descent with momentum
    sgdmupdate(..., learnRate, momentum)  the learning rate (0.01) and the momentum (0.9)
    The velocity VEL is [] on the first iteration; the update is
        vel = momentum*vel - learnRate*grad,  params = params + vel"""
    name = "sgdmupdate"
    lr = hyperparameter(learn_rate, "learnRate", 0.01, name, positive=True)
    mu = hyperparameter(momentum, "momentum", 0.9, name, at_most_one=True)
    own_p, own_v = _owned(params, 0, donated), _owned(vel, 2, donated)

    def update(rows: list[tuple]) -> list[tuple]:
        inputs = []
        for p, g, v in rows:
            pd, gd, dl, fmt_from = _step_inputs(p, g, name)
            inputs.append((pd, gd, _state(v, pd, "Parameter velocities", name), dl, fmt_from))
        out = []
        # every check is made: from here on, arrays nothing else reaches may be overwritten
        for pd, gd, vd, dl, fmt_from in inputs:
            new_p, v_new = sgdm_step(pd, gd, vd, lr, mu, _unshared(pd, own_p), _unshared(vd, own_v))
            out.append((_like(new_p, fmt_from, dl), _like(v_new, fmt_from, dl)))
        return out

    return tuple(map_parameter_rows(update, params, grad, vel, nout=2, missing_allowed=True,
                                    shaped_like=(0, 1)))


def sgdm_step(pd: np.ndarray, gd: np.ndarray, vd: np.ndarray | None, lr: float,
              mu: float, p_in_place: bool = False, v_in_place: bool = False) -> tuple:
    """One SGDM step of a parameter's data (``vd`` None on the first): the new parameter
    and velocity (new arrays, or the old ones overwritten where told: the same operations,
    a sum's terms swapped)."""
    if v_in_place:
        vd *= mu
        vd += np.multiply(gd, -lr)
        v_new = vd
    else:
        v_new = gd * -lr
        if vd is not None:
            v_new += mu * vd
    if p_in_place:
        pd += v_new
        return pd, v_new
    return pd + v_new, v_new


# ------------------------------------------------------------ RMSProp


@builtin(dl="native", max_out=2, reuses={0: 0, 1: 2})
def rmspropupdate(params: object, grad: object, avg_sq_grad: object, learn_rate: object = None,
                  sq_grad_decay: object = None, epsilon: object = None, *,
                  donated: frozenset = _NONE_OWNED) -> tuple:
    """[params, avgSqGrad] = rmspropupdate(params, grad, avgSqGrad)  update parameters by
    root mean square propagation (RMSProp)
    rmspropupdate(..., learnRate, sqGradDecay, epsilon)  the learning rate (0.001), the
    decay of the squared gradient moving average (0.9) and the denominator offset (1e-8)
    The state AVGSQGRAD is [] on the first iteration; the update is
        v = sqGradDecay*v + (1-sqGradDecay)*grad.^2,
        params = params - learnRate*grad ./ (sqrt(v) + epsilon)"""
    name = "rmspropupdate"
    lr = hyperparameter(learn_rate, "learnRate", 0.001, name, positive=True)
    beta = hyperparameter(sq_grad_decay, "sqGradDecay", 0.9, name, below_one=True)
    eps = hyperparameter(epsilon, "epsilon", 1e-8, name, positive=True)
    own_p, own_v = _owned(params, 0, donated), _owned(avg_sq_grad, 2, donated)

    def update(rows: list[tuple]) -> list[tuple]:
        inputs = []
        for p, g, v in rows:
            pd, gd, dl, fmt_from = _step_inputs(p, g, name)
            vd = _state(v, pd, "Moving average of squared gradients", name)
            inputs.append((pd, gd, vd, dl, fmt_from))
        out = []
        # every check is made: from here on, arrays nothing else reaches may be overwritten
        for pd, gd, vd, dl, fmt_from in inputs:
            new_p, v_new = rmsprop_step(pd, gd, vd, lr, beta, eps, _unshared(pd, own_p),
                                        _unshared(vd, own_v))
            out.append((_like(new_p, fmt_from, dl), _like(v_new, fmt_from, dl)))
        return out

    return tuple(map_parameter_rows(update, params, grad, avg_sq_grad, nout=2,
                                    missing_allowed=True, shaped_like=(0, 1)))


def rmsprop_step(pd: np.ndarray, gd: np.ndarray, vd: np.ndarray | None, lr: float, beta: float,
                 eps: float, p_in_place: bool = False, v_in_place: bool = False) -> tuple:
    """One RMSProp step of a parameter's data (``vd`` None on the first): the new parameter
    and moving average of squared gradients (new arrays, or the old ones overwritten where
    told: the same operations, a sum's terms swapped)."""
    v_new = gd * gd
    v_new *= 1 - beta
    if v_in_place:
        vd *= beta
        vd += v_new
        v_new = vd
    elif vd is not None:
        v_new += beta * vd
    denominator = np.sqrt(v_new)
    denominator += eps
    step = gd * lr
    step /= denominator
    if p_in_place:
        pd -= step
        return pd, v_new
    return pd - step, v_new


# ------------------------------------------------------------ dlupdate


@builtin(interp=True, nargout=True, max_out=None, dl="native")
def dlupdate(interp: Any, fun: object, params: object, *more: object, nargout: int = 1) -> tuple:
    """params = dlupdate(FUN, params)  apply FUN to each parameter of a container (a
    dlarray, a numeric array, a struct, a cell array, a Learnables table or a network)
    [params, X1, ..., Xm] = dlupdate(FUN, params, A1, ..., An)  FUN is called as
    [p, x1, ..., xm] = FUN(p, a1, ..., an) on each parameter with the matching parts of
    A1, ..., An (containers of the same structure); each output is a container shaped
    like PARAMS"""
    nout = max(nargout, 1)

    def apply(*values: Any) -> list:
        outs = interp.call_value(fun, list(values), nout)
        if len(outs) < nout:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        return outs

    return tuple(map_parameters(apply, params, *more, nout=nout))
