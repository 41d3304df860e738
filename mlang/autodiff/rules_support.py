"""Differentiable helpers shared by the gradient rules of reductions, linear
algebra and shape functions.

Like ``mlang.autodiff.ops``, each helper works on raw arrays (first
derivatives) and on traced dlarrays (higher derivatives), built only from
operations that carry their own gradients.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.trace import Primitive


def select(x: Any, mask: np.ndarray) -> Any:
    """``x`` where the raw logical ``mask`` holds and exactly 0 elsewhere, even where
    ``x`` is NaN or Inf (unlike multiplying by the mask)."""
    shape = ops.shape_of(x)
    mask = np.broadcast_to(mask.reshape(mask.shape + (1,) * (len(shape) - mask.ndim)), shape)
    if mask.all():
        return x
    if type(x) is np.ndarray:
        return np.where(mask, x, 0).astype(x.dtype, copy=False)
    positions = np.flatnonzero(mask.reshape(-1, order="F"))
    picked = ops.take(x, positions, (positions.size, 1))
    return ops.put(picked, positions, shape)


def replace(x: Any, mask: np.ndarray, value: float = 1.0) -> Any:
    """``x`` with the elements where ``mask`` holds replaced by the constant ``value``."""
    if not mask.any():
        return x
    return ops.plus(select(x, ~mask), np.where(mask, value, 0.0).reshape(ops.shape_of(x)))


def vecdim(axes: list[int]) -> Any:
    """The MATLAB dimension argument (a double, or a row of doubles) for 0-based ``axes``."""
    if len(axes) == 1:
        return float(axes[0] + 1)
    return np.array([[a + 1.0 for a in axes]])


def keepdims_count(mask: np.ndarray, axes: list[int], shape: tuple[int, ...]) -> np.ndarray:
    """How many elements of ``mask`` hold along ``axes``, shaped like the reduction's result
    (``shape`` is the result's stored shape)."""
    ndim = max(mask.ndim, max(axes) + 1)
    full = mask.reshape(mask.shape + (1,) * (ndim - mask.ndim))
    counts = full.sum(axis=tuple(axes), keepdims=True).astype(np.float64)
    return counts.reshape(shape, order="F")


def expand_along(values: np.ndarray, axes: list[int], shape: tuple[int, ...]) -> np.ndarray:
    """A raw array of the reduction's result (singletons along ``axes``) repeated to ``shape``."""
    ndim = max(len(shape), values.ndim, max(axes) + 1 if axes else 0)
    v = values.reshape(values.shape + (1,) * (ndim - values.ndim))
    full = tuple(shape) + (1,) * (ndim - len(shape))
    return np.broadcast_to(v, full).reshape(shape)


def sign(x: Any) -> Any:
    """sign(x) as a function of ``x``: a constant for real values, x./abs(x) (0 at 0) for
    complex ones, whose derivative is not zero."""
    data = ops.data_of(x)
    if data.dtype.kind != "c":
        return np.sign(data.astype(np.float64) if data.dtype.kind == "b" else data)
    return ops.rdivide(x, replace(ops.call("abs", x), data == 0))


# ------------------------------------------------ the top singular pair of a matrix


def _top_outer(x: np.ndarray) -> np.ndarray:
    """u1*v1' for the largest singular value of ``x`` (the gradient of norm(x)); zeros for a
    zero matrix, NaN for a matrix with NaN or Inf."""
    if not np.all(np.isfinite(x)):
        return np.full(x.shape, np.nan, dtype=np.result_type(x, np.float64))
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    if s.size == 0 or s[0] == 0:
        return np.zeros(x.shape, dtype=np.result_type(x, np.float64))
    return np.outer(u[:, 0], vh[0, :])


def _top_outer_gradient(h: Any, out: Any, x: Any) -> tuple:
    """The vector-Jacobian product of X -> u1*v1' (distinct top singular value), from the
    perturbation of the singular vectors, as a linear function of ``h``.  With
    dP = U'*dX*V and den(j) = s1^2 - sj^2, u_j'*du1 = (s1*dP(j,1) + sj*conj(dP(1,j)))/den(j)
    and v_j'*dv1 = (sj*dP(j,1) + s1*conj(dP(1,j)))/den(j); the parts outside the span of
    U and V are (I-U*U')*dX*v1/s1 and (I-V*V')*dX'*u1/s1, and for complex X the phase
    of the pair adds 1i*imag(dP(1,1))/s1*u1*v1'."""
    data = ops.data_of(x)
    if not np.all(np.isfinite(data)):
        return (np.full(data.shape, np.nan),)
    u, s, vh = np.linalg.svd(data, full_matrices=False)
    if s.size == 0 or s[0] == 0:
        return (np.zeros(data.shape),)
    uh = np.ascontiguousarray(u.conj().T)
    v = np.ascontiguousarray(vh.conj().T)
    u1, v1h, s1 = u[:, :1], vh[:1, :], float(s[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        gap = s1 * s1 - s * s
        c1 = np.where(gap > 0, s1 / gap, 0.0).reshape(-1, 1)
        cj = np.where(gap > 0, s / gap, 0.0).reshape(-1, 1)
    c1[0] = cj[0] = 0.0
    conj = ops.conj
    hv1 = ops.mtimes(h, v[:, :1])  # h*v1
    u1h_h = ops.mtimes(np.ascontiguousarray(u1.conj().T), h)  # u1'*h
    a = ops.mtimes(uh, hv1)  # a(j) = u_j'*h*v1
    b = ops.transpose(ops.mtimes(u1h_h, v))  # b(j) = u1'*h*v_j
    c = ops.plus(ops.times(a, c1), ops.times(conj(b), cj))
    d = ops.plus(ops.times(conj(a), cj), ops.times(b, c1))
    out_x = ops.plus(ops.mtimes(ops.mtimes(u, c), v1h), ops.mtimes(u1, ops.mtimes(ops.transpose(d), vh)))
    outside_u = ops.minus(hv1, ops.mtimes(u, a))  # (I - U*U')*h*v1
    outside_v = ops.minus(u1h_h, ops.mtimes(ops.transpose(b), vh))  # u1'*h*(I - V*V')
    out_x = ops.plus(out_x, ops.mtimes(outside_u, v1h / s1))
    out_x = ops.plus(out_x, ops.mtimes(u1 / s1, outside_v))
    if data.dtype.kind == "c":
        a1 = ops.take(a, np.array([0]), (1, 1))
        phase = ops.times(ops.minus(a1, conj(a1)), 0.5 / s1)  # 1i*imag(a1)/s1
        out_x = ops.plus(out_x, ops.times(phase, np.outer(u1, v1h)))
    return (out_x,)


TOP_OUTER = Primitive("top_singular_outer", _top_outer, _top_outer_gradient)


def top_singular_outer(x: Any) -> Any:
    """u1*v1' of the top singular pair of the matrix ``x`` (differentiable)."""
    return ops.apply(TOP_OUTER, x)
