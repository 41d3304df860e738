"""attention: multi-head scaled dot-product attention on dlarrays.

Queries, keys and values are brought to (channels, batch, sequence) matrices, split into
heads (contiguous blocks of channels), and each head computes
``values * softmax(scale * keys' * queries)`` page by page (pagemtimes), the softmax
taken over the keys.  Everything is a differentiable operation, so the trace gives
derivatives of every order.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray, as_data
from mlang.autodiff.trace import Primitive, read_as_constant
from mlang.builtins.coerce import options, text_option
from mlang.builtins.deeplearning.formats import InputForm, data_format_option, formatted_input, output_like
from mlang.builtins.deeplearning.recurrent import permute, reshape
from mlang.builtins.math.random import rand
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, class_of, fix_shape

_OPTIONS = ("DataFormat", "Scale", "PaddingMask", "AttentionMask", "DropoutProbability")


# ------------------------------------------------------------ masked softmax


def _masked_softmax(s: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """softmax over the first dimension (the keys), masked entries given weight 0."""
    if s.size == 0:  # no keys or no queries (a sequence of no steps)
        return np.zeros_like(s)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if mask is None:
            e = np.exp(s - s.max(axis=0, keepdims=True))
        else:
            top = np.where(mask, s, -np.inf).max(axis=0, keepdims=True)
            e = np.exp(s - np.where(np.isfinite(top), top, 0)) * mask
        return e / e.sum(axis=0, keepdims=True)


def _masked_softmax_rule(g: Any, y: Any, s: Any, mask: Any) -> tuple:
    gy = ops.times(g, y)
    return (ops.minus(gy, ops.times(y, ops.call("sum", gy, 1.0))), None)


MASKED_SOFTMAX = Primitive("masked_softmax", _masked_softmax, _masked_softmax_rule)


# ------------------------------------------------------------ layouts


class _Layout:
    """A formatted input as a (channels, batch, sequence) dlarray, and its sizes."""

    def __init__(self, x: DlArray, what: str) -> None:
        fmt = x.fmt
        sequence = [k for k, label in enumerate(fmt) if label in "ST"]
        if "U" in fmt or len(sequence) > 1:
            raise error("deep:attention:InvalidFormat",
                        f"{what} must have a channel ('C') dimension and may have a batch ('B') "
                        "dimension and at most one spatial ('S') or time ('T') dimension.")
        shape = x.shape
        self.fmt = fmt
        self.channels = shape[fmt.index("C")]
        self.batch = shape[fmt.index("B")] if "B" in fmt else 1
        self.length = shape[sequence[0]] if sequence else 1
        order = [fmt.index("C")] + ([fmt.index("B")] if "B" in fmt else []) + sequence
        data = _plain(DlArray(x.data, "", x.node), what)
        if order != sorted(order):
            data = permute(data, tuple(order))
        self.cbn = reshape(data, (self.channels, self.batch, self.length))


def _plain(x: DlArray, what: str) -> DlArray:
    kind = x.data.dtype.kind
    if kind == "c":
        raise error("deep:attention:ComplexInput", f"{what} must be real.")
    if kind == "b":
        return ops.call("double", x)
    return x


def _inputs(queries: Any, keys: Any, values: Any, data_format: str | None) -> tuple:
    q, form = formatted_input(queries, data_format, "attention", required="C")
    fmt = q.fmt if data_format is None else data_format
    out = [q]
    for v in (keys, values):
        if type(v) is DlArray and v.fmt:
            if data_format is not None:
                formatted_input(v, data_format, "attention")  # (MATLAB's error)
            out.append(v)
        else:
            out.append(formatted_input(v, fmt, "attention", required="C")[0])
    return out, form


# ------------------------------------------------------------ options


def _num_heads(v: Any) -> int:
    data = as_data(v) if class_of(v) in ("double", "single", "logical") or type(v) is DlArray else None
    if data is None or data.size != 1 or not np.isfinite(data).all() or data.reshape(-1)[0] < 1 \
            or data.reshape(-1)[0] != int(data.reshape(-1)[0]):
        raise error("deep:attention:InvalidNumHeads", "Number of heads must be a positive integer.")
    return int(data.reshape(-1)[0])


def _scale(given: dict, channels: int) -> float:
    v = given.get("Scale")
    if v is None or text_option(v) == "auto":
        return 1.0 / math.sqrt(channels)
    if class_of(v) not in ("double", "single") or np.size(as_data(v)) != 1:
        raise error("deep:attention:InvalidScale", "Scale must be 'auto' or a numeric scalar.")
    return float(as_data(v).reshape(-1)[0])


def _dropout(given: dict) -> float:
    v = given.get("DropoutProbability", 0.0)
    data = as_data(v) if class_of(v) in ("double", "single") else None
    if data is None or data.size != 1 or not 0 <= float(data.reshape(-1)[0]) < 1:
        raise error("deep:attention:InvalidDropoutProbability",
                    "Dropout probability must be a numeric scalar in the range [0, 1).")
    return float(data.reshape(-1)[0])


def _mask_data(v: Any) -> np.ndarray:
    data = v.data if type(v) is DlArray else (as_data(v) if class_of(v) in ("double", "single", "logical")
                                              else None)
    if data is None or data.dtype.kind == "c":
        raise error("deep:attention:InvalidMask", "Masks must be numeric or logical arrays.")
    return data != 0


def _attention_mask(given: dict, nk: int, nq: int, batch: int) -> np.ndarray | None:
    """The attention mask as a (keys, queries, 1, batch) logical array (None: no mask)."""
    v = given.get("AttentionMask")
    if v is None:
        return None
    kind = text_option(v)
    if kind is not None:
        kind = kind.lower()
        if kind == "none":
            return None
        if kind == "causal":
            return (np.arange(nk)[:, None] <= np.arange(nq)[None, :])[:, :, None, None]
        raise error("deep:attention:InvalidAttentionMask",
                    "Attention mask must be 'none', 'causal', or a numeric or logical array.")
    mask = _mask_data(v)
    if mask.shape[:2] != (nk, nq) or (mask.ndim == 3 and mask.shape[2] != batch) or mask.ndim > 3:
        raise error("deep:attention:InvalidAttentionMaskSize",
                    f"Attention mask must be a {nk}-by-{nq} matrix or a {nk}-by-{nq}-by-{batch} "
                    "array (number of keys by number of queries by number of observations).")
    return mask.reshape(nk, nq, 1, mask.shape[2] if mask.ndim == 3 else 1)


def _padding_mask(given: dict, keys: DlArray, layout: _Layout) -> np.ndarray | None:
    """The padding mask as a (keys, 1, 1, batch) logical array: the first channel of a mask
    laid out like the keys."""
    v = given.get("PaddingMask")
    if v is None:
        return None
    if type(v) is DlArray and v.fmt:
        if v.fmt.replace("C", "") != layout.fmt.replace("C", ""):
            raise error("deep:attention:InvalidPaddingMask",
                        "The format of the padding mask must match the format of the keys.")
        mask = DlArray(_mask_data(v).astype(np.float64), v.fmt)
    else:
        mask = DlArray(_mask_data(v).astype(np.float64), "")
        fmt = layout.fmt
        shape = mask.shape + (1,) * (len(fmt) - len(mask.shape))
        if len(shape) > len(fmt):
            raise error("deep:attention:InvalidPaddingMaskSize",
                        "The padding mask must have the layout of the keys.")
        mask = DlArray(mask.data, fmt)
    fmt = mask.fmt
    sizes = mask.shape
    data = mask.data.reshape(sizes, order="F")
    if "C" in fmt:
        data = np.take(data, [0], axis=fmt.index("C"))
    labels = [label for label in fmt if label != "C"]
    data = data.reshape([n for n, label in zip(sizes, fmt, strict=True) if label != "C"], order="F")
    batch = data.shape[labels.index("B")] if "B" in labels else 1
    length = int(data.size // max(batch, 1))
    if batch != layout.batch or length != layout.length:
        raise error("deep:attention:InvalidPaddingMaskSize",
                    "The batch and sequence dimensions of the padding mask must match those of "
                    "the keys and values.")
    if "B" in labels and labels.index("B") != 0:
        data = np.moveaxis(data, labels.index("B"), 0)  # (batch, length)
    data = data.reshape(batch, length, order="F").T != 0  # (keys, batch)
    return data[:, None, None, :]


# ------------------------------------------------------------ attention


@builtin(dl="traced", nargout=True, max_out=2, interp=True)
def attention(interp: Any, queries: object, keys: object, values: object, num_heads: object,
              *settings: object, nargout: int = 1) -> object:
    """Y = attention(queries, keys, values, numHeads)  multi-head scaled dot-product attention
    [Y, weights] = attention(...)  also the attention weights, a keys-by-queries-by-heads-by-
        observations unformatted dlarray
    attention(..., 'DataFormat', FMT)  the dimension labels of unformatted inputs
    attention(..., 'Scale', S)  'auto' (1/sqrt of the channels per head of the keys) or a number
    attention(..., 'PaddingMask', M)  0 where a key-value pair is padding (laid out like keys)
    attention(..., 'AttentionMask', M)  'none' (default), 'causal', or a keys-by-queries
        (-by-observations) array that is 0 where attention is prevented
    attention(..., 'DropoutProbability', P)  dropout on the attention weights"""
    args = (queries, keys, values, num_heads)
    if not any(type(a) is DlArray for a in args):
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function 'attention' for input arguments of type '{class_of(queries)}'.")
    given = options(settings, _OPTIONS)
    heads = _num_heads(num_heads)
    (q, k, v), form = _inputs(queries, keys, values, data_format_option(given))
    lq, lk, lv = _Layout(q, "Queries"), _Layout(k, "Keys"), _Layout(v, "Values")
    _check_sizes(lq, lk, lv, heads)
    batch, nq, nk = lq.batch, lq.length, lk.length
    dq, dv = lq.channels // heads, lv.channels // heads
    parts = [lq.cbn, lk.cbn, lv.cbn]
    if any(p.data.dtype == np.float32 for p in parts):
        parts = [p if p.data.dtype == np.float32 else ops.call("single", p) for p in parts]
    cq, ck, cv = parts
    # (channels per head, sequence, heads, batch) pages
    qh = permute(reshape(cq, (dq, heads, batch, nq)), (0, 3, 1, 2))
    kh = permute(reshape(ck, (dq, heads, batch, nk)), (0, 3, 1, 2))
    vh = permute(reshape(cv, (dv, heads, batch, nk)), (0, 3, 1, 2))
    scores = ops.call("pagemtimes", kh, char_row("transpose"), qh, char_row("none"))
    scores = ops.times(scores, _scale(given, lk.channels // heads))
    mask = _combined_mask(given, k, lk, nk, nq, heads, batch)
    weights = ops.apply(MASKED_SOFTMAX, scores, mask)
    p = _dropout(given)
    if p > 0:
        weights = ops.times(weights, _dropout_mask(interp, ops.shape_of(weights), p, weights.data.dtype))
    y = ops.call("pagemtimes", vh, weights)  # (dv, queries, heads, batch)
    y = reshape(permute(y, (0, 2, 3, 1)), (lv.channels, batch, nq))
    y = _like_queries(y, lq, lv.channels, form)
    # (the number of heads and the options' values are read as constants)
    y = read_as_constant(y, num_heads, *settings)
    weights = read_as_constant(weights, num_heads, *settings)
    if nargout <= 1:
        return y
    return y, DlArray(weights.data, "", weights.node)


def _check_sizes(lq: _Layout, lk: _Layout, lv: _Layout, heads: int) -> None:
    if lk.channels != lq.channels:
        raise error("deep:attention:InvalidKeysSize",
                    "The channel dimensions of the queries and the keys must have the same size.")
    if lk.length != lv.length:
        raise error("deep:attention:InvalidValuesSize",
                    "The keys and the values must have the same number of time or spatial steps.")
    if not lq.batch == lk.batch == lv.batch:
        raise error("deep:attention:InvalidBatchSize",
                    "The queries, keys and values must have the same number of observations.")
    if lq.channels % heads or lv.channels % heads:
        raise error("deep:attention:InvalidNumHeads",
                    "The number of heads must divide the number of channels of the queries, "
                    "keys and values.")


def _combined_mask(given: dict, keys: DlArray, lk: _Layout, nk: int, nq: int, heads: int,
                   batch: int) -> np.ndarray | None:
    """Padding and attention masks together, in the shape of the scores (None: no mask)."""
    masks = [m for m in (_padding_mask(given, keys, lk), _attention_mask(given, nk, nq, batch))
             if m is not None]
    if not masks:
        return None
    full = np.ones((nk, nq, heads, batch), dtype=bool)
    for m in masks:
        full &= m
    return full.reshape(fix_shape(full.shape), order="F")


def _dropout_mask(interp: Any, shape: tuple[int, ...], p: float, dtype: Any) -> np.ndarray:
    n = int(np.prod(shape))
    draws = np.asarray(rand(interp, float(n), 1.0), dtype=np.float64).reshape(shape, order="F")
    return ((draws >= p) / (1 - p)).astype(dtype)


def _like_queries(y: Any, lq: _Layout, channels: int, form: InputForm) -> DlArray:
    """The (channels, batch, sequence) result laid out and labelled as the queries are."""
    fmt = lq.fmt
    axis = {"C": 0, "B": 1, "S": 2, "T": 2}
    order = [axis[label] for label in fmt]
    order += [k for k in range(3) if k not in order]  # absent dimensions are singletons
    if order != sorted(order):
        y = permute(y, tuple(order))
    size = {"C": channels, "B": lq.batch, "S": lq.length, "T": lq.length}
    y = reshape(y, tuple(size[label] for label in fmt))
    return output_like(DlArray(y.data, fmt, y.node), form)
