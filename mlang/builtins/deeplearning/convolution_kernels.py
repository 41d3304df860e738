"""Convolution and pooling kernels: NumPy forward passes and the differentiable
primitives the deep learning builtins (dlconv, dltranspconv, avgpool...) are built of.

Every kernel works on arrays in one "core" layout: the k dimensions convolved over
first, then the channels, then everything else (batch, time...) flattened into one
dimension N, i.e. (S1..Sk, C, N).  Weights are (K1..Kk, Cg, Fg, G): filter size,
channels per group, filters per group, groups.  Arrays may arrive with MATLAB's
trailing singleton dimensions dropped; each kernel restores them.

The primitives are closed under taking vector-Jacobian products, so gradients of every
order exist:
- CONV(x, w) (a strided, dilated cross-correlation without padding) has gradients
  CONVT(g, w) for x and WGRAD(x, g) for w;
- CONVT (the transposed convolution) has gradients CONV and WGRAD;
- WGRAD (the weights gradient) has gradients CONVT and CONV;
- PAD (constant padding) and CROP are each other's gradients;
- AVG (window sums times a scale) and AVGT are each other's gradients.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from mlang.autodiff import ops
from mlang.autodiff.trace import Primitive
from mlang.values.core import fix_shape
from mlang.values.limits import check_array_size

Ints = tuple[int, ...]
# (k, stride, dilation, groups): how a convolution slides over its k dimensions
ConvConfig = tuple[int, Ints, Ints, int]

_LETTERS_O = "abc"  # output positions (up to three convolved dimensions)
_LETTERS_K = "def"  # filter taps


def explicit(a: np.ndarray, ndim: int) -> np.ndarray:
    """``a`` with the trailing singleton dimensions MATLAB's shape dropped put back."""
    if a.ndim >= ndim:
        return a
    return a.reshape(a.shape + (1,) * (ndim - a.ndim))


def stored(a: np.ndarray) -> np.ndarray:
    """``a`` in MATLAB's shape (trailing singletons beyond the second dropped)."""
    shape = fix_shape(a.shape)
    return a if shape == a.shape else a.reshape(shape)


def dims(shape: tuple[int, ...], k: int) -> Ints:
    """The first ``k`` sizes of a MATLAB shape (dropped singletons count)."""
    return tuple((tuple(shape) + (1,) * k)[:k])


def float_type(*arrays: Any) -> np.dtype:
    """The class of a result: single when any operand is single, as in MATLAB."""
    for a in arrays:
        if getattr(a, "dtype", None) == np.float32:
            return np.dtype(np.float32)
    return np.dtype(np.float64)


def windows(x: np.ndarray, k: int, size: Ints, stride: Ints, dilation: Ints) -> np.ndarray:
    """A view of the windows of ``x`` (S..., C, N): shape (O..., C, N, K...)."""
    spans = tuple((n - 1) * d + 1 for n, d in zip(size, dilation, strict=True))
    view = sliding_window_view(x, spans, axis=tuple(range(k)))
    picks = tuple(slice(None, None, s) for s in stride) + (slice(None), slice(None)) \
        + tuple(slice(None, None, d) for d in dilation)
    return view[picks]


def _scatter_taps(cols: np.ndarray, k: int, size: Ints, out_shape: Ints, stride: Ints,
                  dilation: Ints, dtype: np.dtype) -> np.ndarray:
    """Sum the per-tap contributions ``cols`` (K..., O..., C, N) into an array of
    ``out_shape`` (S..., C, N): the adjoint of taking windows."""
    out = np.zeros(out_shape, dtype=dtype)
    counts = cols.shape[k:2 * k]
    for tap in np.ndindex(*size):  # one strided add per filter tap (a few), vectorised otherwise
        out[_tap_slices(tap, counts, stride, dilation)] += cols[tap]
    return out


# ------------------------------------------------------------------ convolution


def _tap_slices(tap: Ints, counts: Ints, stride: Ints, dilation: Ints) -> tuple:
    """The positions one filter tap meets: a strided slice per convolved dimension."""
    return tuple(slice(t * d, t * d + (o - 1) * s + 1, s)
                 for t, d, o, s in zip(tap, dilation, counts, stride, strict=True))


def _stacked_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(..., N, C) @ (C, F): stacked matrix products, or one product over a copy when the
    stacked matrices are thin (few observations)."""
    if a.shape[-2] >= 8:
        return a @ b
    return (a.reshape(-1, a.shape[-1]) @ b).reshape(a.shape[:-1] + (b.shape[-1],))


def _conv(x: np.ndarray, w: np.ndarray, cfg: ConvConfig) -> np.ndarray:
    k, stride, dilation, groups = cfg
    dtype = float_type(x, w)
    x = explicit(x, k + 2)
    w = explicit(w, k + 3)
    size = w.shape[:k]
    if groups == 1:
        # one matrix product per filter tap, over (position, observation) x channel
        spans = tuple((n - 1) * d + 1 for n, d in zip(size, dilation, strict=True))
        counts = tuple((n - span) // s + 1 for n, span, s in zip(x.shape[:k], spans, stride, strict=True))
        xt = np.ascontiguousarray(np.moveaxis(x, k, -1), dtype=dtype)  # (S..., N, C)
        taps = w[..., 0].astype(dtype, copy=False)
        out = np.zeros(counts + (x.shape[k + 1], w.shape[k + 1]), dtype=dtype)
        for tap in np.ndindex(*size):
            out += _stacked_product(xt[_tap_slices(tap, counts, stride, dilation)], taps[tap])
        return stored(np.ascontiguousarray(np.moveaxis(out, -1, k)))
    win = windows(x, k, size, stride, dilation)  # (O..., C, N, K...)
    o, t = _LETTERS_O[:k], _LETTERS_K[:k]
    cg, fg = w.shape[k], w.shape[k + 1]
    grouped = win.reshape(win.shape[:k] + (groups, cg) + win.shape[k + 1:])
    out = np.einsum(f"{o}gcn{t},{t}cfg->{o}gfn", grouped, w, optimize=True)
    out = out.reshape(out.shape[:k] + (groups * fg, out.shape[-1]))
    return stored(np.ascontiguousarray(out, dtype=dtype))


def _convt(g: np.ndarray, w: np.ndarray, cfg: ConvConfig, x_size: Ints) -> np.ndarray:
    """The transposed convolution: the gradient of CONV for its input, of spatial size
    ``x_size`` (positions no window reached get 0)."""
    k, stride, dilation, groups = cfg
    dtype = float_type(g, w)
    g = explicit(g, k + 2)
    w = explicit(w, k + 3)
    size = w.shape[:k]
    cg = w.shape[k]
    n = g.shape[k + 1]
    if groups == 1:
        counts = g.shape[:k]
        gt = np.ascontiguousarray(np.moveaxis(g, k, -1), dtype=dtype)  # (O..., N, F)
        taps = w[..., 0].astype(dtype, copy=False)
        out = np.zeros(tuple(x_size) + (n, cg), dtype=dtype)
        for tap in np.ndindex(*size):
            out[_tap_slices(tap, counts, stride, dilation)] += _stacked_product(gt, taps[tap].T)
        return stored(np.ascontiguousarray(np.moveaxis(out, -1, k)))
    o, t = _LETTERS_O[:k], _LETTERS_K[:k]
    fg = w.shape[k + 1]
    grouped = g.reshape(g.shape[:k] + (groups, fg, n))
    cols = np.einsum(f"{o}gfn,{t}cfg->{t}{o}gcn", grouped, w, optimize=True)
    cols = cols.reshape(cols.shape[:2 * k] + (groups * cg, n))
    out = _scatter_taps(cols, k, size, tuple(x_size) + (groups * cg, n), stride, dilation, dtype)
    return stored(out)


def _wgrad(x: np.ndarray, g: np.ndarray, cfg: ConvConfig, size: Ints) -> np.ndarray:
    """The gradient of CONV for its weights (filter size ``size``)."""
    k, stride, dilation, groups = cfg
    dtype = float_type(x, g)
    x = explicit(x, k + 2)
    g = explicit(g, k + 2)
    win = windows(x, k, size, stride, dilation)  # (O..., C, N, K...)
    summed = list(range(k)) + [k + 1]
    if groups == 1:
        out = np.tensordot(win, g, axes=(summed, summed))  # (C, K..., F)
        out = np.moveaxis(out, 0, k)[..., np.newaxis]
    else:
        o, t = _LETTERS_O[:k], _LETTERS_K[:k]
        c, f = x.shape[k] // groups, g.shape[k] // groups
        grouped = win.reshape(win.shape[:k] + (groups, c) + win.shape[k + 1:])
        gg = g.reshape(g.shape[:k] + (groups, f, g.shape[k + 1]))
        out = np.einsum(f"{o}gcn{t},{o}gfn->{t}cfg", grouped, gg, optimize=True)
    return stored(np.ascontiguousarray(out, dtype=dtype))


def _spatial(v: Any, k: int) -> Ints:
    return dims(ops.shape_of(v), k)


CONV = Primitive("dlconv", _conv, lambda gy, y, x, w, cfg: (
    lambda: convt(gy, w, cfg, _spatial(x, cfg[0])),
    lambda: wgrad(x, gy, cfg, _spatial(w, cfg[0])), None))
CONVT = Primitive("dltranspconv", _convt, lambda gy, y, g, w, cfg, x_size: (
    lambda: conv(gy, w, cfg),
    lambda: wgrad(gy, g, cfg, _spatial(w, cfg[0])), None, None))
WGRAD = Primitive("dlconv_weights", _wgrad, lambda gy, y, x, g, cfg, size: (
    lambda: convt(g, gy, cfg, _spatial(x, cfg[0])),
    lambda: conv(x, gy, cfg), None, None))


def conv(x: Any, w: Any, cfg: ConvConfig) -> Any:
    """The valid cross-correlation of ``x`` (S..., C, N) with weights (K..., Cg, Fg, G)."""
    return ops.apply(CONV, x, w, cfg)


def convt(g: Any, w: Any, cfg: ConvConfig, x_size: Ints) -> Any:
    return ops.apply(CONVT, g, w, cfg, tuple(x_size))


def wgrad(x: Any, g: Any, cfg: ConvConfig, size: Ints) -> Any:
    return ops.apply(WGRAD, x, g, cfg, tuple(size))


# ------------------------------------------------------------------ padding

# pads: ((before, after), ...) for each of the k leading dimensions


def padded(x: np.ndarray, width: tuple, **how: Any) -> np.ndarray:
    """``np.pad`` after checking the padded size (huge padding is MATLAB's size error)."""
    check_array_size(tuple(n + b + a for n, (b, a) in zip(x.shape, width, strict=True)), x.dtype)
    return np.pad(x, width, **how)


def _pad(x: np.ndarray, k: int, pads: tuple, value: float) -> np.ndarray:
    x = explicit(x, k + 2)
    width = tuple(pads) + ((0, 0),) * (x.ndim - k)
    return stored(padded(x, width, constant_values=value))


def _crop(g: np.ndarray, k: int, pads: tuple) -> np.ndarray:
    g = explicit(g, k + 2)
    picks = tuple(slice(b, n - a) for (b, a), n in zip(pads, g.shape, strict=False))
    return stored(np.ascontiguousarray(g[picks]))


PAD = Primitive("pad", _pad, lambda gy, y, x, k, pads, value: (crop(gy, k, pads), None, None, None))
CROP = Primitive("crop", _crop, lambda gy, y, g, k, pads: (pad(gy, k, pads, 0.0), None, None))


def pad(x: Any, k: int, pads: tuple, value: float = 0.0) -> Any:
    """``x`` padded with a constant along its first ``k`` dimensions."""
    if not any(b or a for b, a in pads):
        return x
    return ops.apply(PAD, x, k, tuple(pads), float(value))


def crop(g: Any, k: int, pads: tuple) -> Any:
    """``g`` without ``pads`` elements at each end of its first ``k`` dimensions."""
    if not any(b or a for b, a in pads):
        return g
    return ops.apply(CROP, g, k, tuple(pads))


MIRROR_MODES = {"symmetric-include-edge": "symmetric", "symmetric-exclude-edge": "reflect",
                "replicate": "edge"}


def pad_mirrored(x: Any, k: int, pads: tuple, mode: str) -> Any:
    """``x`` padded by reflection or replication (a PaddingValue word): each new element
    copies one of ``x``, so this is a gather, differentiable through ops.take."""
    if not any(b or a for b, a in pads):
        return x
    shape = ops.shape_of(x)
    full = dims(shape, max(k + 2, len(shape)))
    numbers = np.arange(int(np.prod(full))).reshape(full, order="F")
    width = tuple(pads) + ((0, 0),) * (len(full) - k)
    source = padded(numbers, width, mode=MIRROR_MODES[mode])  # type: ignore[call-overload]
    return ops.take(x, source.reshape(-1, order="F"), fix_shape(source.shape))


# ------------------------------------------------------------------ pooling

# (k, pool size, stride): how a pooling window slides
PoolConfig = tuple[int, Ints, Ints]


def _avg(x: np.ndarray, cfg: PoolConfig, scale: np.ndarray) -> np.ndarray:
    """Window sums times ``scale`` (one number per output position)."""
    k, size, stride = cfg
    x = explicit(x, k + 2)
    win = windows(x, k, size, stride, (1,) * k)
    total = win.sum(axis=tuple(range(k + 2, 2 * k + 2)))
    return stored(total * scale.reshape(scale.shape + (1, 1)).astype(x.dtype, copy=False))


def _avgt(g: np.ndarray, cfg: PoolConfig, scale: np.ndarray, x_size: Ints) -> np.ndarray:
    """The adjoint of AVG: each output's share spread over its window."""
    k, size, stride = cfg
    g = explicit(g, k + 2) * scale.reshape(scale.shape + (1, 1)).astype(g.dtype, copy=False)
    cols = np.broadcast_to(g, size + g.shape)
    return stored(_scatter_taps(cols, k, size, tuple(x_size) + g.shape[k:], stride, (1,) * k, g.dtype))


AVG = Primitive("avgpool", _avg, lambda gy, y, x, cfg, scale: (
    avgt(gy, cfg, scale, _spatial(x, cfg[0])), None, None))
AVGT = Primitive("avgpool_adjoint", _avgt, lambda gy, y, g, cfg, scale, x_size: (
    avg(gy, cfg, scale), None, None, None))


def avg(x: Any, cfg: PoolConfig, scale: np.ndarray) -> Any:
    return ops.apply(AVG, x, cfg, scale)


def avgt(g: Any, cfg: PoolConfig, scale: np.ndarray, x_size: Ints) -> Any:
    return ops.apply(AVGT, g, cfg, scale, tuple(x_size))


def max_positions(x: np.ndarray, k: int, size: Ints, stride: Ints, pads: tuple) -> tuple[np.ndarray, Ints]:
    """The column-major positions in ``x`` (S..., C, N; raw) of the maximum of each pooling
    window (padding never wins; ties go to the first in MATLAB's order; NaN counts as
    largest), and the output's core shape."""
    x = explicit(x, k + 2)
    if x.dtype.kind == "b":
        x = x.astype(np.float64)
    before = tuple(b for b, _ in pads)
    if any(b or a for b, a in pads):
        x = padded(x, tuple(pads) + ((0, 0),) * 2, constant_values=-np.inf)
    counts = tuple((n - p) // s + 1 for n, p, s in zip(x.shape[:k], size, stride, strict=True))
    nan = bool(np.isnan(x).any())
    best = None
    chosen = np.zeros(counts + x.shape[k:], dtype=np.intp)
    # taps in column-major order, each a vectorised comparison over every window
    taps = [tuple(reversed(t)) for t in np.ndindex(*reversed(size))]
    for j, tap in enumerate(taps):
        values = x[_tap_slices(tap, counts, stride, (1,) * k)]
        if best is None:
            best = values.copy()
            continue
        wins = values > best
        if nan:
            wins |= np.isnan(values) & ~np.isnan(best)
        np.copyto(best, values, where=wins)
        chosen[wins] = j
    # positions in the unpadded input: coordinates times column-major strides
    shape = tuple(n - b - a for n, (b, a) in zip(x.shape[:k], pads, strict=True)) + x.shape[k:]
    steps = np.cumprod((1,) + shape[:-1])
    tap_coords = np.array(taps, dtype=np.intp).reshape(len(taps), k)
    pos = np.zeros(chosen.shape, dtype=np.intp)
    for i in range(k + 2):
        along = [1] * (k + 2)
        along[i] = chosen.shape[i]
        coord = np.arange(chosen.shape[i]).reshape(along)
        if i < k:
            coord = coord * stride[i] + tap_coords[chosen, i] - before[i]
        pos += coord * steps[i]
    return pos.reshape(-1, order="F"), counts + x.shape[k:]
