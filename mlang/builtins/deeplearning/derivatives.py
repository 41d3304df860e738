"""Derivatives of model outputs with respect to their inputs, for physics-informed losses:
dljacobian, dldivergence and dllaplacian.

Each is built on the backward pass of dlgradient (``mlang.autodiff.trace.backward``).
The outputs ``u`` hold their components along the operation dimension ``dim``; every
other dimension of ``u`` holds independent observations (a batch).  As in MATLAB, the
derivatives of component k are the gradient of the sum of ``u``'s component k over the
batch: the observations being independent, the gradient at each observation is that
observation's own derivative.  So a Jacobian takes one backward pass per component of
``u``, and a Laplacian one more per component of ``x``.

The passes keep the trace (later dlgradient calls of the loss go through ``u``), and
'EnableHigherDerivatives' (true by default, as MathWorks documents) records them, so
that the results can be differentiated again (a loss made of them can be trained).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import backward
from mlang.builtins.coerce import integer_scalar, option_flag, options
from mlang.builtins.deeplearning.dlarrays import not_traced, variable_not_traced
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import fix_shape, to_str

_OPTIONS = ("EnableHigherDerivatives",)


def _arguments(interp: Any, name: str, u: object, x: object, dim: object,
               rest: tuple) -> tuple[DlArray, DlArray, int, bool]:
    """The checked arguments: traced u and x (unformatted views), the 0-based operation
    dimension, and whether the result is traced for higher derivatives."""
    given = options(rest, _OPTIONS)
    higher = option_flag(given.get("EnableHigherDerivatives", True), "EnableHigherDerivatives")
    if type(u) is not DlArray or u.node is None or interp.dl_depth == 0:
        raise not_traced()
    if type(x) is not DlArray or x.node is None:
        raise variable_not_traced()
    if u.data.dtype.kind == "c" or x.data.dtype.kind == "c":
        raise error(f"deep:{name}:ComplexNotSupported",
                    f"Inputs to {name} must be real.")
    axis = _dimension(dim, u)
    return DlArray(u.data, "", u.node), DlArray(x.data, "", x.node), axis, higher


def _dimension(dim: object, u: DlArray) -> int:
    """The operation dimension: a positive integer, or a label of formatted ``u``."""
    if type(dim) is np.ndarray and dim.dtype.kind == "V" or type(dim) is str:
        label = to_str(dim).upper()
        if len(label) != 1 or label not in u.fmt:
            raise error("deep:dlarray:InvalidDimension",
                        "Operation dimension must be a positive integer or the label of a "
                        "dimension of the input.")
        return u.fmt.index(label)
    message = "Operation dimension must be a positive integer scalar."
    d = integer_scalar(dim.data if type(dim) is DlArray else dim, message,
                       "deep:dlarray:InvalidDimension")
    if d < 1:
        raise error("deep:dlarray:InvalidDimension", message)
    return d - 1


def _size(shape: tuple[int, ...], axis: int) -> int:
    return shape[axis] if axis < len(shape) else 1


def _slice_positions(shape: tuple[int, ...], axis: int, k: int) -> np.ndarray:
    """Column-major positions of the elements whose index along ``axis`` is ``k``."""
    if axis >= len(shape):
        return np.arange(int(np.prod(shape)))
    numbers = np.arange(int(np.prod(shape))).reshape(shape, order="F")
    return np.take(numbers, [k], axis=axis).reshape(-1, order="F")


def _without(shape: tuple[int, ...], axis: int) -> tuple[int, ...]:
    """``shape`` with size 1 along ``axis``."""
    full = list(shape) + [1] * (axis + 1 - len(shape))
    full[axis] = 1
    return fix_shape(tuple(full))


def _component_sum(u: DlArray, axis: int, k: int) -> DlArray:
    """The traced scalar sum over the batch of component k of ``u``."""
    positions = _slice_positions(u.data.shape, axis, k)
    return ops.call("sum", ops.take(u, positions, (len(positions), 1)))


def _gradient(y: DlArray, x: DlArray, higher: bool) -> Any:
    """dlgradient(y, x) keeping the trace: a raw array, or a traced dlarray (``higher``)."""
    if y.node is None:  # y does not depend on any traced value (a zero first derivative)
        zeros = np.zeros_like(x.data)
        return DlArray(zeros) if higher else zeros
    return backward(y, [x], higher, True)[0]


def _pick(g: Any, shape: tuple[int, ...], axis: int, k: int) -> Any:
    """Component k of ``g`` (shaped like x) along ``axis``, traced when ``g`` is."""
    positions = _slice_positions(shape, axis, k)
    out_shape = _without(shape, axis)
    if type(g) is DlArray:
        return ops.take(g, positions, out_shape)
    return g.reshape(-1, order="F")[positions].reshape(out_shape, order="F")


def _add(total: Any, part: Any) -> Any:
    if total is None:
        return part
    if type(total) is np.ndarray and type(part) is np.ndarray:
        return total + part
    return ops.plus(total, part)


def _result(value: Any, like: DlArray) -> DlArray:
    if type(value) is DlArray:
        return value
    return DlArray(value.astype(like.data.dtype, copy=False))


@builtin(interp=True, dl="native")
def dljacobian(interp: Any, u: object, x: object, dim: object, *opts: object) -> DlArray:
    """jac = dljacobian(u, x, dim)  Jacobian of the model outputs u (components along
    dimension dim, observations along the others) with respect to the input data x:
    jac(k,...) is the derivative of component k of u with respect to x, for each
    observation; its size is [size(u,dim) size(x)], without the leading 1 when u has one
    component
    jac = dljacobian(u, x, dim, 'EnableHigherDerivatives', tf)  trace the computation so
    that jac can be differentiated again (default true)"""
    u, x, axis, higher = _arguments(interp, "dljacobian", u, x, dim, opts)
    count = _size(u.data.shape, axis)
    rows = [_gradient(_component_sum(u, axis, k), x, higher) for k in range(count)]
    xshape = x.data.shape
    if count == 1:
        return _result(rows[0], x)
    shape = fix_shape((count, *xshape))
    n = x.data.size
    if not higher:
        out = np.empty((count, n), dtype=x.data.dtype)
        for k, g in enumerate(rows):
            out[k] = g.reshape(-1, order="F")
        return DlArray(out.reshape(shape, order="F"))
    flat = [ops.reshape_to(g if type(g) is DlArray else DlArray(g), (1, n)) for g in rows]
    return ops.reshape_to(ops.call("vertcat", *flat), shape)


@builtin(interp=True, dl="native")
def dldivergence(interp: Any, u: object, x: object, dim: object, *opts: object) -> DlArray:
    """div = dldivergence(u, x, dim)  divergence of the model outputs u with respect to the
    input data x: the sum over the components k along dimension dim of the derivative of
    u's component k with respect to x's component k, for each observation (u and x have
    the same size along dim; div has size 1 along it)
    div = dldivergence(u, x, dim, 'EnableHigherDerivatives', tf)  trace the computation
    so that div can be differentiated again (default true)"""
    u, x, axis, higher = _arguments(interp, "dldivergence", u, x, dim, opts)
    count = _size(u.data.shape, axis)
    xshape = x.data.shape
    if count != _size(xshape, axis):
        raise error("deep:dldivergence:SizeMismatch",
                    "The size of the input data must match the size of the model outputs in "
                    "the operation dimension.")
    total = None
    for k in range(count):
        g = _gradient(_component_sum(u, axis, k), x, higher)
        total = _add(total, _pick(g, xshape, axis, k))
    return _result(total, x)


@builtin(interp=True, dl="native")
def dllaplacian(interp: Any, u: object, x: object, dim: object, *opts: object) -> DlArray:
    """lap = dllaplacian(u, x, dim)  Laplacian of the model outputs u with respect to the
    input data x: for each component of u along dimension dim and each observation, the
    sum of its second derivatives with respect to the components of x along dim (lap has
    the size of x, with size(u,dim) along dim)
    lap = dllaplacian(u, x, dim, 'EnableHigherDerivatives', tf)  trace the computation so
    that lap can be differentiated again (default true)"""
    u, x, axis, higher = _arguments(interp, "dllaplacian", u, x, dim, opts)
    xshape = x.data.shape
    inputs = _size(xshape, axis)
    parts = []
    for c in range(_size(u.data.shape, axis)):
        first = _gradient(_component_sum(u, axis, c), x, True)  # differentiated again below
        total = None
        for i in range(inputs):
            second = _gradient(_total(_pick(first, xshape, axis, i)), x, higher)
            total = _add(total, _pick(second, xshape, axis, i))
        if total is None:  # x has no components along dim
            total = np.zeros(_without(xshape, axis), dtype=x.data.dtype)
        parts.append(total)
    if len(parts) == 1:
        return _result(parts[0], x)
    return _result(ops.call("cat", float(axis + 1), *parts), x)


def _total(v: DlArray) -> DlArray:
    """The scalar sum of all elements of ``v`` (traced when ``v`` is)."""
    return ops.call("sum", ops.reshape_to(v, (v.data.size, 1)))
