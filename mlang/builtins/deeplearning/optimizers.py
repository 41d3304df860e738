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
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.builtins.deeplearning.containers import map_parameter_rows, map_parameters
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of, result, to_array

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
    number = float(array.reshape(-1)[0])
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


# ------------------------------------------------------------ blocks

# Element-wise updates of larger parameters run block by block, so that each block's
# operands and temporaries stay in the processor's cache from one step to the next.
_BLOCK = 32768


def _blocks(*arrays: np.ndarray | None) -> Any:
    """Matching pieces of same-shaped arrays (None stays None): blocks of their flat data
    when all share one memory order and are large, else the whole arrays once."""
    present = [a for a in arrays if a is not None]
    size = present[0].size
    order = None
    if size > 2 * _BLOCK:
        if all(a.flags.c_contiguous for a in present):
            order = "C"
        elif all(a.flags.f_contiguous for a in present):
            order = "F"
    if order is None:
        yield arrays
        return
    flat = [None if a is None else a.reshape(-1, order=order) for a in arrays]
    for start in range(0, size, _BLOCK):
        yield [None if a is None else a[start:start + _BLOCK] for a in flat]


# ------------------------------------------------------------ Adam


@builtin(dl="native", max_out=3)
def adamupdate(params: object, grad: object, avg_grad: object, avg_sq_grad: object,
               iteration: object, learn_rate: object = None, grad_decay: object = None,
               sq_grad_decay: object = None, epsilon: object = None) -> tuple:
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
        results = _adam_together(inputs, beta1, beta2, offset, step_scale)
        if results is None:
            results = [_adam_arrays(*row, beta1, beta2, offset, step_scale) for row in inputs]
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


# Parameters with this many elements in all at most are updated together, as one array:
# for small parameters the cost of an update is that of its NumPy calls, not of the arithmetic.
_TOGETHER = 65536


def _adam_together(inputs: list[tuple], beta1: float, beta2: float, offset: float,
                   step_scale: float) -> list[tuple] | None:
    """The Adam step of several small parameters of one class computed on their elements
    laid end to end (the same arithmetic element by element); None when they do not qualify."""
    if len(inputs) < 2:
        return None
    dtype = inputs[0][0].dtype
    has_m, has_v = inputs[0][2] is not None, inputs[0][3] is not None
    total = 0
    for pd, _, md, vd in inputs:
        if pd.dtype is not dtype or (md is not None) != has_m or (vd is not None) != has_v:
            return None
        total += pd.size
    if total > _TOGETHER:
        return None
    # (axis None: each array is read flat, in NumPy's order, with no reshape of its own)
    pd_all = np.concatenate([a[0] for a in inputs], axis=None)
    gd_all = np.concatenate([a[1] for a in inputs], axis=None)
    md_all = np.concatenate([a[2] for a in inputs], axis=None) if has_m else None
    vd_all = np.concatenate([a[3] for a in inputs], axis=None) if has_v else None
    new_p, m_new, v_new = np.empty((3, total), dtype=dtype)
    _adam_step(pd_all, gd_all, md_all, vd_all, new_p, m_new, v_new, beta1, beta2, offset, step_scale)
    results = []
    start = 0
    for pd, _, _, _ in inputs:
        end = start + pd.size
        shape = pd.shape
        # views of the three results (shared buffers are copied before any write in place)
        results.append((new_p[start:end].reshape(shape), m_new[start:end].reshape(shape),
                        v_new[start:end].reshape(shape)))
        start = end
    return results


def adam_step(pd: np.ndarray, gd: np.ndarray, md: np.ndarray | None, vd: np.ndarray | None,
              t: float, lr: float, beta1: float, beta2: float, eps: float) -> tuple:
    """One Adam step of a parameter's data at iteration ``t`` (``md`` and ``vd`` None on the
    first): the new parameter and moving averages, as ``adamupdate`` computes them."""
    # bias corrections of the two moving averages at iteration t, folded into two scalars:
    # (m/c1) / (sqrt(v/c2) + eps) = (sqrt(c2)/c1) * m / (sqrt(v) + eps*sqrt(c2))
    root_c2 = math.sqrt(1 - beta2 ** t)
    return _adam_arrays(pd, gd, md, vd, beta1, beta2, eps * root_c2, lr * root_c2 / (1 - beta1 ** t))


def _adam_arrays(pd: np.ndarray, gd: np.ndarray, md: np.ndarray | None, vd: np.ndarray | None,
                 beta1: float, beta2: float, offset: float, step_scale: float) -> tuple:
    new_p, m_new, v_new = np.empty_like(gd), np.empty_like(gd), np.empty_like(gd)
    for block in _blocks(pd, gd, md, vd, new_p, m_new, v_new):
        _adam_step(*block, beta1, beta2, offset, step_scale)
    return new_p, m_new, v_new


def _adam_step(pd: np.ndarray, gd: np.ndarray, md: np.ndarray | None, vd: np.ndarray | None,
               new_p: np.ndarray, m_new: np.ndarray, v_new: np.ndarray, beta1: float,
               beta2: float, offset: float, step_scale: float) -> None:
    """One Adam step on matching arrays, written into new_p, m_new and v_new (new_p is
    the scratch space until the last operation)."""
    np.multiply(gd, 1 - beta1, out=m_new)
    if md is not None:
        m_new += np.multiply(md, beta1, out=new_p)
    np.multiply(gd, gd, out=v_new)
    v_new *= 1 - beta2
    if vd is not None:
        v_new += np.multiply(vd, beta2, out=new_p)
    denominator = np.sqrt(v_new, out=new_p)
    denominator += offset
    step = np.divide(m_new, denominator, out=new_p)
    step *= step_scale
    np.subtract(pd, step, out=new_p)


# ------------------------------------------------------------ SGDM


@builtin(dl="native", max_out=2)
def sgdmupdate(params: object, grad: object, vel: object, learn_rate: object = None,
               momentum: object = None) -> tuple:
    """[params, vel] = sgdmupdate(params, grad, vel)  update parameters by stochastic
    gradient descent with momentum
    sgdmupdate(..., learnRate, momentum)  the learning rate (0.01) and the momentum (0.9)
    The velocity VEL is [] on the first iteration; the update is
        vel = momentum*vel - learnRate*grad,  params = params + vel"""
    name = "sgdmupdate"
    lr = hyperparameter(learn_rate, "learnRate", 0.01, name, positive=True)
    mu = hyperparameter(momentum, "momentum", 0.9, name, at_most_one=True)

    def update(p: Any, g: Any, v: Any) -> tuple:
        pd, gd, dl, fmt_from = _step_inputs(p, g, name)
        new_p, v_new = sgdm_step(pd, gd, _state(v, pd, "Parameter velocities", name), lr, mu)
        return _like(new_p, fmt_from, dl), _like(v_new, fmt_from, dl)

    return tuple(map_parameters(update, params, grad, vel, nout=2, missing_allowed=True,
                                shaped_like=(0, 1)))


def sgdm_step(pd: np.ndarray, gd: np.ndarray, vd: np.ndarray | None, lr: float,
              mu: float) -> tuple:
    """One SGDM step of a parameter's data (``vd`` None on the first): the new parameter
    and velocity."""
    v_new = gd * -lr
    if vd is not None:
        v_new += mu * vd
    return pd + v_new, v_new


# ------------------------------------------------------------ RMSProp


@builtin(dl="native", max_out=2)
def rmspropupdate(params: object, grad: object, avg_sq_grad: object, learn_rate: object = None,
                  sq_grad_decay: object = None, epsilon: object = None) -> tuple:
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

    def update(p: Any, g: Any, v: Any) -> tuple:
        pd, gd, dl, fmt_from = _step_inputs(p, g, name)
        vd = _state(v, pd, "Moving average of squared gradients", name)
        new_p, v_new = rmsprop_step(pd, gd, vd, lr, beta, eps)
        return _like(new_p, fmt_from, dl), _like(v_new, fmt_from, dl)

    return tuple(map_parameters(update, params, grad, avg_sq_grad, nout=2,
                                missing_allowed=True, shaped_like=(0, 1)))


def rmsprop_step(pd: np.ndarray, gd: np.ndarray, vd: np.ndarray | None, lr: float, beta: float,
                 eps: float) -> tuple:
    """One RMSProp step of a parameter's data (``vd`` None on the first): the new parameter
    and moving average of squared gradients."""
    v_new = gd * gd
    v_new *= 1 - beta
    if vd is not None:
        v_new += beta * vd
    denominator = np.sqrt(v_new)
    denominator += eps
    step = gd * lr
    step /= denominator
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
