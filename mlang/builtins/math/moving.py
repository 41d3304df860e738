"""Moving-window statistics: movmean, movsum, movmax, movmin, movmedian, movstd,
movvar and movprod, and smoothdata.

A window of k elements is centred on each element (for an even k, on it and
the one before it); [kb kf] takes kb elements before and kf after.  The data
along the working dimension is padded so that every element has a full
window, and a mask tells the padding from the data; the 'Endpoints' option
says what the windows that reach past the ends give: a statistic of the part
inside ('shrink', the default), nothing ('discard') or a fill value ('fill',
NaN, or a number).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np

from mlang.builtins.coerce import dim_argument, options, text_option, text_or_none
from mlang.builtins.data.shape import first_nonsingleton
from mlang.builtins.math.elementwise import ARITHMETIC, bad_type
from mlang.builtins.math.reductions import along_last, back_from_last
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import INT_CLASSES, char_row, class_of, result, to_array, to_double_array
from mlang.values.operators import to_class

# ---------------------------------------------------------------- arguments


def _window(name: str, v: object) -> tuple[int, int]:
    """The elements before and after each element in its window."""
    if class_of(v) not in ARITHMETIC or text_or_none(v) is not None:
        raise error(f"MATLAB:{name}:invalidWindowLength",
                    "Window length must be a finite scalar or 2-element vector of nonnegative "
                    "numbers.")
    w = to_double_array(v).ravel()
    if w.dtype.kind == "c" or not np.isfinite(w).all():
        w = np.array([-1.0])
    if w.size == 1 and w[0] > 0:
        k = float(w[0])
        # a window shorter than one element holds just the element itself
        return math.floor(k / 2), max(math.floor((k - 1) / 2), 0)
    if w.size == 2 and (w >= 0).all():
        return int(w[0]), int(w[1])
    raise error(f"MATLAB:{name}:invalidWindowLength",
                "Window length must be a finite scalar or 2-element vector of nonnegative numbers.")


class _Request:
    """A call's arguments: the data, the window, the dimension and the options."""

    def __init__(self, name: str, x: object, k: object, rest: tuple, weighted: bool) -> None:
        cls = class_of(x)
        if cls not in ARITHMETIC or cls == "char":
            raise bad_type(name)
        self.cls = cls
        self.data = to_array(x)
        self.before, self.after = _window(name, k)
        self.normalise_by_n = False
        self.dim: int | None = None
        self.omit = False
        self.endpoints: str | float = "shrink"
        items = list(rest)
        if weighted and items and text_or_none(items[0]) is None:
            w = to_double_array(items.pop(0)).ravel()
            if w.size == 0:
                pass
            elif w.size != 1 or w[0] not in (0, 1):
                raise error(f"MATLAB:{name}:invalidWeight",
                            "Normalization weight must be 0 or 1.")
            else:
                self.normalise_by_n = bool(w[0] == 1)
        if items and text_or_none(items[0]) is None:
            self.dim = dim_argument(items.pop(0))
        while items and text_option(items[0]) in ("omitnan", "includenan", "omitmissing",
                                                  "includemissing"):
            self.omit = text_option(items.pop(0)) in ("omitnan", "omitmissing")
        found = options(items, ("Endpoints", "SamplePoints"))
        if "SamplePoints" in found:
            raise error(f"MATLAB:{name}:SamplePointsUnsupported",
                        "'SamplePoints' is not supported.")
        if "Endpoints" in found:
            self.endpoints = _endpoints(name, found["Endpoints"])

    def axis(self) -> int:
        return first_nonsingleton(self.data.shape) if self.dim is None else self.dim


def _endpoints(name: str, v: object) -> str | float:
    text = text_option(v)
    if text in ("shrink", "discard", "fill"):
        return text if text != "fill" else math.nan
    if text is None and class_of(v) in ARITHMETIC:
        a = to_double_array(v).ravel()
        if a.size == 1 and a.dtype.kind != "c":
            return float(a[0])
    raise error(f"MATLAB:{name}:invalidEndpoints",
                "Endpoints must be 'shrink', 'discard', 'fill', or a numeric or logical scalar.")


# ---------------------------------------------------------------- computing

# The most window elements made into one array at a time.
_BLOCK_ELEMENTS = 1 << 22


def _moving(name: str, x: object, k: object, rest: tuple, stat: Callable,
            keeps_class: bool = False, weighted: bool = False) -> object:
    req = _Request(name, x, k, rest, weighted)
    a = req.data
    single = a.dtype in (np.float32, np.complex64)
    values = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    axis = req.axis()
    moved = along_last(values, axis)
    n = moved.shape[-1]
    # a window reaching past both ends acts like one reaching just past them
    kb, kf = min(req.before, n), min(req.after, n)
    width = kb + kf + 1
    if moved.size == 0 or n == 0:
        out = moved
    else:
        pad = [(0, 0)] * (moved.ndim - 1) + [(kb, kf)]
        padded = np.pad(moved, pad)
        inside = np.pad(np.ones(n, dtype=bool), (kb, kf))
        windows = np.lib.stride_tricks.sliding_window_view(padded, width, axis=-1)
        masks = np.lib.stride_tricks.sliding_window_view(inside, width)
        # in blocks of positions, so that the windows made into arrays stay small
        block = max(1, _BLOCK_ELEMENTS // (width * max(1, moved.size // n)))
        parts = []
        for start in range(0, n, block):
            w = windows[..., start:start + block, :]
            mask = np.broadcast_to(masks[start:start + block], w.shape)
            nan = np.isnan(w) & mask
            valid = mask & ~nan if req.omit else mask
            with np.errstate(all="ignore"):
                parts.append(np.asarray(stat(w, valid, nan, req)))
        out = np.concatenate(parts, axis=-1)
        full = np.zeros(n, dtype=bool)
        full[kb:max(n - kf, kb)] = True
        if req.endpoints == "discard":
            out = out[..., full]
        elif req.endpoints != "shrink":
            out = np.where(full, out, req.endpoints)
    out = back_from_last(np.asarray(out), axis)
    if keeps_class and (req.cls in INT_CLASSES):
        return result(to_class(out, req.cls))
    if single:
        out = out.astype(np.complex64 if out.dtype.kind == "c" else np.float32)
    return result(out)


def _sum(w: np.ndarray, valid: np.ndarray, nan: np.ndarray, req: _Request) -> np.ndarray:
    return np.where(valid, w, 0).sum(axis=-1)


def _count(valid: np.ndarray) -> np.ndarray:
    return valid.sum(axis=-1)


def _mean(w: np.ndarray, valid: np.ndarray, nan: np.ndarray, req: _Request) -> np.ndarray:
    count = _count(valid)
    return np.where(count > 0, _sum(w, valid, nan, req) / np.maximum(count, 1), np.nan)


def _prod(w: np.ndarray, valid: np.ndarray, nan: np.ndarray, req: _Request) -> np.ndarray:
    return np.where(valid, w, 1).prod(axis=-1)


def _extreme(pick: Callable, fill: float) -> Callable:
    def stat(w: np.ndarray, valid: np.ndarray, nan: np.ndarray, req: _Request) -> np.ndarray:
        out = pick(np.where(valid & ~nan, w, fill), axis=-1)
        has_value = (valid & ~nan).any(axis=-1)
        out = np.where(has_value, out, np.nan)
        return out if req.omit else np.where(nan.any(axis=-1), np.nan, out)
    return stat


def _median(w: np.ndarray, valid: np.ndarray, nan: np.ndarray, req: _Request) -> np.ndarray:
    with warnings.catch_warnings():  # an all-NaN window gives NaN, as intended
        warnings.simplefilter("ignore", RuntimeWarning)
        out = np.nanmedian(np.where(valid & ~nan, w, np.nan), axis=-1)
    return out if req.omit else np.where(nan.any(axis=-1), np.nan, out)


def _var(w: np.ndarray, valid: np.ndarray, nan: np.ndarray, req: _Request) -> np.ndarray:
    count = _count(valid)
    mean = _mean(w, valid, nan, req)
    dev = np.where(valid, w - mean[..., None], 0)
    squares = (np.abs(dev) ** 2).sum(axis=-1)
    denom = np.where(req.normalise_by_n | (count == 1), count, count - 1)
    return np.where(count > 0, squares / np.maximum(denom, 1), np.nan)


def _std(w: np.ndarray, valid: np.ndarray, nan: np.ndarray, req: _Request) -> np.ndarray:
    return np.sqrt(_var(w, valid, nan, req))


@builtin()
def movmean(x: object, k: object, *args: object) -> object:
    """M = movmean(A,k)
    M = movmean(A,[kb kf])
    M = movmean(___,dim)
    M = movmean(___,nanflag)
    M = movmean(___,'Endpoints',endpoints)

    Moving mean over a sliding window of k elements (or kb before and kf after)."""
    return _moving("movmean", x, k, args, _mean)


@builtin()
def movsum(x: object, k: object, *args: object) -> object:
    """M = movsum(A,k)
    M = movsum(A,[kb kf])
    M = movsum(___,dim)
    M = movsum(___,nanflag)
    M = movsum(___,'Endpoints',endpoints)

    Moving sum over a sliding window of k elements (or kb before and kf after)."""
    return _moving("movsum", x, k, args, _sum)


@builtin()
def movprod(x: object, k: object, *args: object) -> object:
    """M = movprod(A,k)
    M = movprod(A,[kb kf])
    M = movprod(___,dim)
    M = movprod(___,nanflag)
    M = movprod(___,'Endpoints',endpoints)

    Moving product over a sliding window of k elements (or kb before and kf after)."""
    return _moving("movprod", x, k, args, _prod)


@builtin()
def movmax(x: object, k: object, *args: object) -> object:
    """M = movmax(A,k)
    M = movmax(A,[kb kf])
    M = movmax(___,dim)
    M = movmax(___,nanflag)
    M = movmax(___,'Endpoints',endpoints)

    Moving maximum over a sliding window of k elements (or kb before and kf after)."""
    return _moving("movmax", x, k, args, _extreme(np.max, -np.inf), keeps_class=True)


@builtin()
def movmin(x: object, k: object, *args: object) -> object:
    """M = movmin(A,k)
    M = movmin(A,[kb kf])
    M = movmin(___,dim)
    M = movmin(___,nanflag)
    M = movmin(___,'Endpoints',endpoints)

    Moving minimum over a sliding window of k elements (or kb before and kf after)."""
    return _moving("movmin", x, k, args, _extreme(np.min, np.inf), keeps_class=True)


@builtin()
def movmedian(x: object, k: object, *args: object) -> object:
    """M = movmedian(A,k)
    M = movmedian(A,[kb kf])
    M = movmedian(___,dim)
    M = movmedian(___,nanflag)
    M = movmedian(___,'Endpoints',endpoints)

    Moving median over a sliding window of k elements (or kb before and kf after)."""
    return _moving("movmedian", x, k, args, _median)


@builtin()
def movvar(x: object, k: object, *args: object) -> object:
    """M = movvar(A,k)
    M = movvar(A,[kb kf])
    M = movvar(___,w)
    M = movvar(___,dim)
    M = movvar(___,nanflag)
    M = movvar(___,'Endpoints',endpoints)

    Moving variance over a sliding window of k elements (or kb before and kf after);
    w = 0 normalizes by N-1, w = 1 by N."""
    return _moving("movvar", x, k, args, _var, weighted=True)


@builtin()
def movstd(x: object, k: object, *args: object) -> object:
    """M = movstd(A,k)
    M = movstd(A,[kb kf])
    M = movstd(___,w)
    M = movstd(___,dim)
    M = movstd(___,nanflag)
    M = movstd(___,'Endpoints',endpoints)

    Moving standard deviation over a sliding window of k elements (or kb before and kf after);
    w = 0 normalizes by N-1, w = 1 by N."""
    return _moving("movstd", x, k, args, _std, weighted=True)


# --------------------------------------------------------------- smoothdata

_SMOOTHING = {"movmean": _mean, "movmedian": _median}


def _default_window(a: np.ndarray, factor: float) -> int:
    """The moving-average length that removes about 100*factor percent of the energy of
    the data's spectrum (the documented heuristic), at least 1."""
    x = a[np.isfinite(a)]
    n = x.size
    if n < 2:
        return 1
    if x.dtype.kind == "c":  # both halves of the spectrum, folded onto |frequency|
        spectrum = np.abs(np.fft.fft(x - x.mean())) ** 2
        f = np.minimum(np.arange(n), n - np.arange(n)) / n
    else:
        spectrum = np.abs(np.fft.rfft(x - x.mean())) ** 2
        f = np.arange(spectrum.size) / n
    total = spectrum.sum()
    if total == 0:
        return 1

    def attenuation(w: int) -> float:
        with np.errstate(all="ignore"):
            h = np.where(f == 0, 1.0, np.sin(np.pi * f * w) / (w * np.sin(np.pi * f)))
        return float((spectrum * (1 - h ** 2)).sum() / total)

    # the attenuation grows with the window length: the shortest window reaching the
    # factor is found by bisection
    lo, hi = 1, n
    if attenuation(hi) < factor:
        return n
    while lo < hi:
        mid = (lo + hi) // 2
        if attenuation(mid) >= factor:
            hi = mid
        else:
            lo = mid + 1
    return lo


@builtin(nargout=True, max_out=2)
def smoothdata(x: object, *args: object, nargout: int = 1) -> object:
    """B = smoothdata(A)
    B = smoothdata(A,dim)
    B = smoothdata(___,method)
    B = smoothdata(___,method,window)
    B = smoothdata(___,nanflag)
    B = smoothdata(___,'SmoothingFactor',factor)
    [B,window] = smoothdata(___)

    Smooth noisy data with a moving window: method 'movmean' (default) or 'movmedian';
    without a window, its length is the one that attenuates about 100*factor percent
    (factor 0.25 by default) of the energy of the data.  NaN values are omitted unless
    'includenan' is given."""
    cls = class_of(x)
    if cls not in ARITHMETIC or cls == "char":
        raise bad_type("smoothdata")
    items = list(args)
    dim = None
    if items and text_or_none(items[0]) is None:
        dim = dim_argument(items.pop(0))
    method = "movmean"
    window: object = None
    if items and text_option(items[0]) in ("movmean", "movmedian", "gaussian", "lowess",
                                           "loess", "rlowess", "rloess", "sgolay"):
        method = text_option(items.pop(0))  # type: ignore[assignment]
        if method not in _SMOOTHING:
            raise error("MATLAB:smoothdata:methodUnsupported",
                        f"Smoothing method '{method}' is not supported.")
        if items and text_or_none(items[0]) is None:
            window = items.pop(0)
    flag = "omitnan"
    while items and text_option(items[0]) in ("omitnan", "includenan", "omitmissing",
                                              "includemissing"):
        flag = text_option(items.pop(0))  # type: ignore[assignment]
    found = options(items, ("SmoothingFactor",))
    a = to_double_array(x) if cls != "single" else to_array(x)
    axis = first_nonsingleton(a.shape) if dim is None else dim
    if window is None:
        factor = 0.25
        if "SmoothingFactor" in found:
            fv = to_double_array(found["SmoothingFactor"]).ravel()
            if fv.size != 1 or not 0 <= fv[0] <= 1:
                raise error("MATLAB:smoothdata:invalidSmoothingFactor",
                            "Smoothing factor must be a scalar between 0 and 1.")
            factor = float(fv[0])
        moved = along_last(a, axis)
        lengths = [_default_window(v, factor) for v in moved.reshape(-1, moved.shape[-1])] \
            if moved.size else [1]
        window = float(max(1, round(float(np.mean(lengths)))))
    out = _moving(method, a, window, (float(axis + 1), char_row(flag)), _SMOOTHING[method])
    if nargout > 1:
        return out, window
    return out
