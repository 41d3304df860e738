"""The arithmetic of an Adam step on arrays: the element-wise operations adamupdate makes
(optimizers.py), on whole arrays or block by block."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

# ------------------------------------------------------------ blocks

# Element-wise updates of larger parameters run block by block, so that each block's
# operands and temporaries stay in the processor's cache from one step to the next: blocks
# of _BLOCK_BYTES (32768 doubles, 65536 singles).
_BLOCK_BYTES = 262144


def _block_length(data: np.ndarray) -> int:
    return _BLOCK_BYTES // data.itemsize


def _blocks(*arrays: np.ndarray | None) -> Any:
    """Matching pieces of same-shaped arrays (None stays None): blocks of their flat data
    when all share one memory order and are large, else the whole arrays once."""
    present = [a for a in arrays if a is not None]
    size = present[0].size
    block = _block_length(present[0])
    order = None
    if size > 2 * block:
        if all(a.flags.c_contiguous for a in present):
            order = "C"
        elif all(a.flags.f_contiguous for a in present):
            order = "F"
    if order is None:
        yield arrays
        return
    flat = [None if a is None else a.reshape(-1, order=order) for a in arrays]
    for start in range(0, size, block):
        yield [None if a is None else a[start:start + block] for a in flat]



def adam_step(pd: np.ndarray, gd: np.ndarray, md: np.ndarray | None, vd: np.ndarray | None,
              t: float, lr: float, beta1: float, beta2: float, eps: float) -> tuple:
    """One Adam step of a parameter's data at iteration ``t`` (``md`` and ``vd`` None on the
    first): the new parameter and moving averages, as ``adamupdate`` computes them."""
    # bias corrections of the two moving averages at iteration t, folded into two scalars:
    # (m/c1) / (sqrt(v/c2) + eps) = (sqrt(c2)/c1) * m / (sqrt(v) + eps*sqrt(c2))
    root_c2 = math.sqrt(1 - beta2 ** t)
    return adam_arrays(pd, gd, md, vd, beta1, beta2, eps * root_c2, lr * root_c2 / (1 - beta1 ** t))


def adam_arrays(pd: np.ndarray, gd: np.ndarray, md: np.ndarray | None, vd: np.ndarray | None,
                 beta1: float, beta2: float, offset: float, step_scale: float,
                 p_in_place: bool = False, m_in_place: bool = False, v_in_place: bool = False) -> tuple:
    """The Adam step of one parameter: new arrays, or the old ones overwritten where told."""
    new_p = pd if p_in_place else np.empty_like(gd)
    m_new = md if m_in_place else np.empty_like(gd)
    v_new = vd if v_in_place else np.empty_like(gd)
    scratch = None
    for block in _blocks(pd, gd, md, vd, new_p, m_new, v_new):
        if not p_in_place:
            space = block[4]  # the new parameter's space, until its last operation
        elif block[0] is pd:  # the whole arrays at once
            space = np.empty_like(gd)
        else:
            if scratch is None:
                scratch = np.empty(_block_length(gd), dtype=gd.dtype)
            space = scratch[:block[0].size]
        adam_step_into(*block, space, beta1, beta2, offset, step_scale, m_in_place, v_in_place)
    return new_p, m_new, v_new


def adam_step_into(pd: np.ndarray, gd: np.ndarray, md: np.ndarray | None, vd: np.ndarray | None,
               new_p: np.ndarray, m_new: np.ndarray, v_new: np.ndarray, space: np.ndarray,
               beta1: float, beta2: float, offset: float, step_scale: float,
               m_in_place: bool = False, v_in_place: bool = False) -> None:
    """One Adam step on matching arrays, written into new_p, m_new and v_new (new arrays,
    or md and vd overwritten where told: the same operations, a sum's terms swapped), with
    ``space`` for the intermediate results (new_p itself when it is a new array)."""
    if m_in_place:  # m_new is md's memory
        np.multiply(gd, 1 - beta1, out=space)
        md *= beta1
        md += space
    else:
        np.multiply(gd, 1 - beta1, out=m_new)
        if md is not None:
            m_new += np.multiply(md, beta1, out=space)
    if v_in_place:
        np.square(gd, out=space)  # (g .* g, the same bits: one operand to read)
        space *= 1 - beta2
        vd *= beta2
        vd += space
    else:
        np.square(gd, out=v_new)
        v_new *= 1 - beta2
        if vd is not None:
            v_new += np.multiply(vd, beta2, out=space)
    denominator = np.sqrt(v_new, out=space)
    denominator += offset
    step = np.divide(m_new, denominator, out=space)
    step *= step_scale
    np.subtract(pd, step, out=new_p)
