"""Statistics: cov, corrcoef, histc and histcounts.

cov and corrcoef take the columns of a matrix as variables and its rows as
observations (a vector is one variable); the two-argument forms treat both
arrays as one variable each.  histcounts picks its bin edges with MATLAB's
automatic rules: integer data spanning few values get one bin per integer,
other data a "nice" bin width (1, 2, 3, 5 or 10 times a power of ten) near
the width of Scott's rule, with the edges on multiples of that width.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from mlang.builtins.coerce import checked_shape, dim_argument, options, text_option, text_or_none
from mlang.builtins.data.shape import first_nonsingleton
from mlang.builtins.math.elementwise import floating, require_real
from mlang.builtins.math.reductions import along_last, back_from_last
from mlang.errors import MatlabError, error
from mlang.registry import builtin
from mlang.values.core import class_of, is_text, result, to_double_array, to_str

# ------------------------------------------------------------------ helpers


def _single(*arrays: np.ndarray) -> bool:
    return any(a.dtype in (np.float32, np.complex64) for a in arrays)


def _finish(values: np.ndarray, single: bool) -> object:
    values = np.asarray(values)
    if single:
        values = values.astype(np.complex64 if values.dtype.kind == "c" else np.float32)
    return result(values)


def _observations(name: str, a: np.ndarray) -> np.ndarray:
    """A data argument as observations × variables (a vector is one variable)."""
    if a.ndim > 2:
        raise error(f"MATLAB:{name}:InputDim", "Inputs must be 2-D.")
    if a.shape[0] == 1 or a.shape == (0, 0):  # a row vector (or []) is one variable
        return a.reshape(-1, 1)
    return a


def _two_variables(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.size != b.size:
        raise error(f"MATLAB:{name}:XYlengthMismatch",
                    "The number of elements in A and B must match.")
    return np.column_stack([a.ravel(order="F"), b.ravel(order="F")])


def _data_and_flags(name: str, args: tuple) -> tuple[list[np.ndarray], list[object]]:
    """The numeric arguments and the text arguments, in order."""
    data, texts = [], []
    for v in args:
        if is_text(v):
            texts.append(v)
        else:
            data.append(floating(name, v))
    return data, texts


def _covariance(x: np.ndarray, weights: np.ndarray | None, normalise_by_n: bool) -> np.ndarray:
    """The covariance matrix of the rows of ``x`` (no NaN handling)."""
    n = x.shape[0]
    p = x.shape[1]
    if n == 0:
        return np.full((p, p), np.nan)
    with np.errstate(all="ignore"):
        if weights is not None:
            total = weights.sum()
            mu = (weights[:, None] * x).sum(axis=0) / total
            xc = x - mu
            c = (xc.conj().T * weights) @ xc / total
        else:
            xc = x - x.mean(axis=0)
            denom = n if normalise_by_n or n == 1 else n - 1
            c = xc.conj().T @ xc / denom
    return 0.5 * (c + c.conj().T)


def _pairwise(x: np.ndarray, fn) -> np.ndarray:
    """``fn`` of every pair of columns, each pair using the rows where both are not NaN."""
    p = x.shape[1]
    out = np.empty((p, p), dtype=np.result_type(x.dtype, np.float64))
    for i in range(p):
        for j in range(i, p):
            keep = ~(np.isnan(x[:, i]) | np.isnan(x[:, j]))
            v = fn(x[keep][:, [i, j]])
            out[i, j] = v[0, 1]
            out[j, i] = v[1, 0]
            if i == j:
                out[i, i] = v[0, 0]
    return out


# ---------------------------------------------------------------------- cov


@builtin()
def cov(a: object, *args: object) -> object:
    """C = cov(A)
    C = cov(A,B)
    C = cov(___,w)
    C = cov(___,nanflag)

    Covariance: of the columns of A (a vector: its variance), or of A(:) and B(:).
    w = 0 (default) normalizes by N-1, w = 1 by N; with two data arguments w may be a
    weight vector.  nanflag: 'includenan' (default), 'omitrows' or 'partialrows'."""
    data, texts = _data_and_flags("cov", (a, *args))
    flag = "includenan"
    for t in texts:
        flag = text_option(t) or ""
        if flag not in ("includenan", "omitrows", "partialrows"):
            raise error("MATLAB:cov:unknownFlag", f"Invalid option '{to_str(t)}'.")
    if len(data) > 3:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    weight: np.ndarray | None = None
    if len(data) == 3 or len(data) == 2 and data[1].size == 1 and data[0].size != 1:
        weight = data.pop()
    single = _single(*data)
    if len(data) == 2:
        x = _two_variables("cov", *data)
    else:
        x = _observations("cov", data[0])
    x = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    weights, by_n = _weights(weight, x.shape[0])
    if flag == "omitrows" and x.dtype.kind in "fc":
        keep = ~np.isnan(x).any(axis=1)
        x = x[keep]
        weights = None if weights is None else weights[keep]
    if flag == "partialrows":
        c = _pairwise(x, lambda v: _covariance(v, None, by_n))
    else:
        c = _covariance(x, weights, by_n)
    return _finish(c, single)


def _weights(w: np.ndarray | None, n: int) -> tuple[np.ndarray | None, bool]:
    """A weight vector (or None) and whether to normalize by N, from the w argument."""
    if w is None:
        return None, False
    require_real("cov", w)
    flat = w.ravel()
    if flat.size == 1 and flat[0] in (0, 1):
        return None, bool(flat[0] == 1)
    if flat.size != n or (flat < 0).any() or w.ndim > 2 or min(w.shape) > 1:
        raise error("MATLAB:cov:invalidWgts",
                    "W must be 0, 1, or a vector of nonnegative weights whose length equals "
                    "the number of observations.")
    return flat.astype(np.float64), False


# ----------------------------------------------------------------- corrcoef


def _correlation(x: np.ndarray) -> np.ndarray:
    c = _covariance(x, None, False)
    with np.errstate(all="ignore"):
        d = np.sqrt(np.real(np.diag(c)))
        r = c / np.outer(d, d)
    if r.dtype.kind == "c":
        r.real = np.clip(r.real, -1, 1)
    else:
        r = np.clip(r, -1, 1)
    np.fill_diagonal(r, np.sign(np.diag(r).real))  # exactly 1 on the diagonal (NaN stays)
    return r


@builtin(nargout=True, max_out=4)
def corrcoef(a: object, *args: object, nargout: int = 1) -> object:
    """R = corrcoef(A)
    R = corrcoef(A,B)
    [R,P] = corrcoef(___)
    [R,P,RL,RU] = corrcoef(___)
    ___ = corrcoef(___,Name,Value)

    Correlation coefficients of the columns of A, or of A(:) and B(:); P holds the
    p-values of the test of no correlation, RL and RU the bounds of the 100*(1-Alpha)%
    confidence intervals.  Options: 'Alpha' (0.05) and 'Rows' ('all', 'complete' or
    'pairwise')."""
    items = [a, *args]
    k = 1
    while k < len(items) and not is_text(items[k]):
        k += 1
    data = [floating("corrcoef", v) for v in items[:k]]
    if len(data) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    found = options(items[k:], ("Alpha", "Rows"))
    alpha = 0.05
    if "Alpha" in found:
        al = to_double_array(found["Alpha"])
        if al.size != 1 or not 0 < al.ravel()[0] < 1:
            raise error("MATLAB:corrcoef:invalidAlpha", "The 'Alpha' parameter must be a "
                        "scalar between 0 and 1.")
        alpha = float(al.ravel()[0])
    rows = "all"
    if "Rows" in found:
        rows = text_option(found["Rows"]) or ""
        if rows not in ("all", "complete", "pairwise"):
            raise error("MATLAB:corrcoef:invalidRowChoice",
                        "Valid row choices are 'all', 'complete', and 'pairwise'.")
    single = _single(*data)
    x = _two_variables("corrcoef", *data) if len(data) == 2 else _observations("corrcoef", data[0])
    x = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    p = x.shape[1]
    if rows == "complete":
        x = x[~np.isnan(x).any(axis=1)]
    if rows == "pairwise":
        r = _pairwise(x, _correlation)
        n = np.array([[np.sum(~(np.isnan(x[:, i]) | np.isnan(x[:, j]))) for j in range(p)]
                      for i in range(p)], dtype=np.float64)
    else:
        r = _correlation(x)
        n = np.full((p, p), float(x.shape[0]))
    outs = [_finish(r, single)]
    if nargout > 1:
        outs.extend(_finish(v, single) for v in _significance(r, n, alpha, nargout))
    return tuple(outs) if nargout > 1 else outs[0]


def _significance(r: np.ndarray, n: np.ndarray, alpha: float, nargout: int) -> list[np.ndarray]:
    """P-values (Student's t test) and, if wanted, the confidence bounds (Fisher's z)."""
    from scipy import special, stats  # SciPy on first use: keeps start-up fast

    rr = np.real(r)
    with np.errstate(all="ignore"):
        t = rr * np.sqrt((n - 2) / (1 - rr ** 2))
        pv = 2 * stats.t.sf(np.abs(t), n - 2)
        pv = np.where(n > 2, pv, np.nan)
        np.fill_diagonal(pv, 1.0)
        out = [pv]
        if nargout > 2:
            z = 0.5 * np.log((1 + rr) / (1 - rr))
            half = np.where(n > 3, -special.ndtri(alpha / 2) / np.sqrt(n - 3), np.nan)
            out += [np.tanh(z - half), np.tanh(z + half)]
    return out


# -------------------------------------------------------------------- histc


def _edges(name: str, v: object) -> np.ndarray:
    e = floating(name, v)
    require_real(name, e)
    e = e.ravel(order="F").astype(np.float64)
    if (np.diff(e) < 0).any() or np.isnan(e).any():
        raise error(f"MATLAB:{name}:InvalidEdges",
                    "Edge vector must be monotonically non-decreasing.")
    return e


def _bins(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The 1-based bin of each value with edges(k) <= x < edges(k+1), the last bin also
    holding x == edges(end); 0 outside the edges and for NaN."""
    k = np.searchsorted(edges, x, side="right")
    if edges.size:
        k = np.where((x < edges[0]) | (x > edges[-1]) | np.isnan(x), 0, k)
    return k


@builtin(nargout=True, max_out=2)
def histc(x: object, edges: object, dim: object = None, *, nargout: int = 1) -> object:
    """bincounts = histc(x,binranges)
    bincounts = histc(x,binranges,dim)
    [bincounts,ind] = histc(___)

    Histogram counts: the number of elements with binranges(k) <= x < binranges(k+1),
    the last count being the elements equal to binranges(end); ind is each element's
    bin (0 outside the ranges)."""
    cls = class_of(x)
    if cls not in ("double", "single", "logical", "char") and not cls.startswith(("int", "uint")):
        raise error("MATLAB:histc:InvalidInput", "First input must be a real, non-sparse array.")
    xs = to_double_array(x)
    require_real("histc", xs)
    e = _edges("histc", edges)
    axis = first_nonsingleton(xs.shape) if dim is None else dim_argument(dim)
    moved = along_last(xs, axis)
    bins = _bins(moved, e)
    counts = np.zeros(moved.shape[:-1] + (e.size,))
    for k in range(e.size):
        counts[..., k] = (bins == k + 1).sum(axis=-1)
    n = result(back_from_last(counts, axis))
    if nargout < 2:
        return n
    return n, result(back_from_last(bins.astype(np.float64), axis))


# --------------------------------------------------------------- histcounts

_MAX_INTEGER_BINS = 65536
_NORMALIZATIONS = ("count", "countdensity", "cumcount", "probability", "percentage", "pdf", "cdf")
_METHODS = ("auto", "scott", "fd", "integers", "sturges", "sqrt")


def _nice_width(raw: float) -> float:
    """The bin width 1, 2, 3, 5 or 10 times a power of ten nearest above ``raw``."""
    power = 10.0 ** math.floor(math.log10(raw))
    rel = raw / power
    for limit, factor in ((1.5, 1), (2.5, 2), (4, 3), (7.5, 5)):
        if rel < limit:
            return factor * power
    return 10 * power


def _split(lo: float, hi: float, count: int) -> np.ndarray:
    """``count`` equal bins from lo to hi, found without overflow when hi - lo is beyond
    the largest double."""
    t = np.arange(count + 1) / count
    return lo * (1 - t) + hi * t


def _half_step(v: float, rounding: Callable[[float], int]) -> float:
    """v rounded to a multiple of 1/2; beyond 2^52 every double already is one (and
    doubling it could overflow)."""
    return v if abs(v) >= 2.0 ** 52 else rounding(2 * v) / 2


def _bin_picker(xmin: float, xmax: float, nbins: int | None, raw: float) -> np.ndarray:
    """Edges covering [xmin, xmax]: a nice width near ``raw`` with the edges on its
    multiples, or exactly ``nbins`` bins of a rounded width."""
    xscale = max(abs(xmin), abs(xmax))
    xrange = xmax - xmin
    if not math.isfinite(xrange) or not math.isfinite(raw):
        return _split(xmin, xmax, 1 if nbins is None else nbins)
    raw = max(raw, np.spacing(xscale))
    if xrange > max(math.sqrt(np.spacing(xscale)), np.finfo(float).tiny):
        if nbins is None:
            width = _nice_width(raw)
            left = max(min(width * math.floor(xmin / width), xmin), -np.finfo(float).max)
            count = max(1, math.ceil((xmax - left) / width))
        else:
            power = 10.0 ** math.floor(math.log10(raw))
            width = power * math.floor(raw / power)
            left = max(min(width * math.floor(xmin / width), xmin), -np.finfo(float).max)
            if nbins > 1:
                low = (xmax - left) / nbins
                high = (xmax - left) / (nbins - 1)
                p10 = 10.0 ** math.floor(math.log10(high - low))
                width = p10 * math.ceil(low / p10)
            count = nbins
        right = min(max(left + count * width, xmax), np.finfo(float).max)
    else:
        # nearly constant data: bins of unit width around them
        count = 1 if nbins is None else nbins
        span = max(1, math.ceil(count * np.spacing(xscale)))
        left, right = _half_step(xmin - span / 4, math.floor), _half_step(xmax + span / 4, math.ceil)
        width = (right - left) / count
    if not math.isfinite(width):
        return np.linspace(left, right, count + 1)
    return np.concatenate([[left], left + np.arange(1, count) * width, [right]])


def _limited_edges(lo: float, hi: float, raw: float, nbins: int | None) -> np.ndarray:
    """Edges exactly spanning bin limits, with a nice width near ``raw``."""
    if nbins is None:
        if hi - lo > 0:
            ratio = (hi - lo) / _nice_width(max(raw, np.spacing(hi)))
            if ratio > _MAX_INTEGER_BINS * 16:
                raise _too_many_bins()
            nbins = max(1, math.ceil(ratio))
        else:
            nbins = 1
    return np.linspace(lo, hi, nbins + 1)


def _integer_edges(xmin: float, xmax: float, limits: bool) -> np.ndarray:
    """One bin per integer (wider, a power of ten, beyond 65536 bins), centred on them."""
    xrange = xmax - xmin
    if xrange > _MAX_INTEGER_BINS:
        width = 10.0 ** math.ceil(math.log10(xrange / _MAX_INTEGER_BINS))
    elif np.spacing(max(abs(xmin), abs(xmax))) > 1:
        width = 2.0 ** math.ceil(math.log2(np.spacing(max(abs(xmin), abs(xmax)))))
    else:
        width = 1.0
    if limits:
        inner_lo = width * math.floor(xmin / width + 0.5) + width / 2
        inner = np.arange(inner_lo, xmax, width)
        return np.concatenate([[xmin], inner[inner > xmin], [xmax]])
    lo = width * round(xmin / width)
    hi = width * round(xmax / width)
    count = int(round((hi - lo) / width)) + 1
    return lo - width / 2 + np.arange(count + 1) * width


def _auto_edges(x: np.ndarray, method: str, nbins: int | None,
                limits: tuple[float, float] | None) -> np.ndarray:
    if limits is not None:
        x = x[(x >= limits[0]) & (x <= limits[1])]
        xmin, xmax = limits
    elif x.size:
        xmin, xmax = float(x.min()), float(x.max())
    else:
        return np.arange(float(nbins if nbins is not None else 1) + 1)
    xrange = xmax - xmin
    if not math.isfinite(xrange):  # a range beyond the largest double
        return _split(xmin, xmax, 1 if nbins is None else nbins)
    if nbins is not None:
        if limits is not None:
            return np.linspace(xmin, xmax, nbins + 1)
        return _bin_picker(xmin, xmax, nbins, xrange / nbins)
    integer_data = x.size > 0 and bool(np.all(x == np.round(x)))
    if method == "integers" or method == "auto" and integer_data and xrange <= 50 \
            and max(abs(xmin), abs(xmax)) <= 2.0 ** 52:
        return _integer_edges(xmin, xmax, limits is not None)
    n = max(x.size, 1)
    if method in ("auto", "scott"):
        raw = 3.5 * (float(np.std(x, ddof=1)) if x.size > 1 else 0.0) / n ** (1 / 3)
    elif method == "fd":
        q75, q25 = np.percentile(x, [75, 25]) if x.size else (0.0, 0.0)
        raw = 2 * (q75 - q25) / n ** (1 / 3)
    elif method == "sturges":
        raw = xrange / max(math.ceil(math.log2(n) + 1), 1)
    else:  # sqrt
        raw = xrange / max(math.ceil(math.sqrt(n)), 1)
    if limits is not None:
        return _limited_edges(xmin, xmax, raw, None)
    return _bin_picker(xmin, xmax, None, raw)


def _too_many_bins() -> MatlabError:
    return error("MATLAB:histcounts:MaxNBinsExceeded",
                 "The number of bins exceeds the maximum number of bins allowed. "
                 "Increase the bin width.")


def _width_edges(x: np.ndarray, width: float, limits: tuple[float, float] | None) -> np.ndarray:
    if limits is not None:
        lo, hi = limits
        ratio = (hi - lo) / width
        if ratio > _MAX_INTEGER_BINS * 16:
            raise _too_many_bins()
        count = max(1, math.ceil(ratio - 1e-12))
        edges = lo + np.arange(count + 1) * width
        edges[-1] = min(edges[-1], hi) if edges[-1] >= hi else hi
        return edges
    if not x.size:
        return np.array([0.0, width])
    xmin, xmax = float(x.min()), float(x.max())
    if not (xmax - xmin) / width <= _MAX_INTEGER_BINS * 16 or not math.isfinite(xmin / width):
        raise _too_many_bins()
    left = width * math.floor(xmin / width)
    count = max(1, math.ceil((xmax - left) / width))
    if count > _MAX_INTEGER_BINS * 16:
        raise _too_many_bins()
    return left + np.arange(count + 1) * width


def _positive_scalar(v: object, what: str, integer: bool = False) -> float:
    a = to_double_array(v)
    value = float(a.ravel()[0]) if a.size == 1 and a.dtype.kind != "c" else -1.0
    if not value > 0 or not math.isfinite(value) or integer and value != math.floor(value):
        kind = "positive integer" if integer else "positive finite"
        raise error("MATLAB:histcounts:InvalidInput", f"{what} must be a {kind} scalar.")
    return value


@builtin(nargout=True, max_out=3)
def histcounts(x: object, *args: object, nargout: int = 1) -> object:
    """[N,edges] = histcounts(X)
    [N,edges] = histcounts(X,nbins)
    [N,edges] = histcounts(X,edges)
    [N,edges,bin] = histcounts(___)
    [___] = histcounts(___,Name,Value)

    Histogram bin counts of the elements of X (edges(k) <= X < edges(k+1), the last bin
    including its right edge) with automatically chosen uniform bins, nbins bins or the
    given edges.  Options: 'BinWidth', 'BinLimits', 'BinMethod' ('auto', 'scott', 'fd',
    'integers', 'sturges', 'sqrt'), 'NumBins', 'BinEdges' and 'Normalization' ('count',
    'probability', 'percentage', 'countdensity', 'pdf', 'cumcount', 'cdf')."""
    cls = class_of(x)
    if cls not in ("double", "single", "logical") and not cls.startswith(("int", "uint")):
        raise error("MATLAB:histcounts:NonNumericX", "Input X must be numeric or logical.")
    xs = to_double_array(x)
    require_real("histcounts", xs)
    single = cls == "single"
    split = 1 if args and text_or_none(args[0]) is None else 0
    positional, named = list(args[:split]), list(args[split:])
    found = options(named, ("BinWidth", "BinLimits", "BinMethod", "NumBins", "BinEdges",
                            "Normalization"))
    data = xs.ravel(order="F")
    finite = data[~np.isnan(data)]
    limits = None
    if "BinLimits" in found:
        lim = to_double_array(found["BinLimits"]).ravel()
        if lim.size != 2 or not lim[0] <= lim[1] or not np.isfinite(lim).all():
            raise error("MATLAB:histcounts:InvalidBinLimits",
                        "BinLimits must be a 2-element vector of finite, increasing values.")
        limits = (float(lim[0]), float(lim[1]))
    method = "auto"
    if "BinMethod" in found:
        method = text_option(found["BinMethod"]) or ""
        if method not in _METHODS:
            raise error("MATLAB:histcounts:InvalidBinMethod",
                        "BinMethod must be 'auto', 'scott', 'fd', 'integers', 'sturges' or 'sqrt'.")
    nbins: int | None = None
    if positional:
        spec = to_double_array(positional[0])
        if spec.size == 1:
            nbins = int(_positive_scalar(spec, "Number of bins", integer=True))
        else:
            found["BinEdges"] = spec
    if "NumBins" in found:
        nbins = int(_positive_scalar(found["NumBins"], "NumBins", integer=True))
    if nbins is not None:
        checked_shape((1, nbins + 1), "double")
    finite_data = finite[np.isfinite(finite)]
    if "BinEdges" in found:
        edges = _edges("histcounts", found["BinEdges"])
        if edges.size < 2:
            raise error("MATLAB:histcounts:InvalidEdges",
                        "Bin edges must be a vector with at least 2 elements.")
    elif "BinWidth" in found:
        edges = _width_edges(finite_data, _positive_scalar(found["BinWidth"], "BinWidth"), limits)
    else:
        edges = _auto_edges(finite_data, method, nbins, limits)
    bins = _bins(data, edges)
    if edges.size:
        bins = np.where(bins > edges.size - 1, edges.size - 1, bins)  # the closed last bin
    counts = np.bincount(bins, minlength=edges.size)[1:edges.size].astype(np.float64)
    norm = "count"
    if "Normalization" in found:
        norm = text_option(found["Normalization"]) or ""
        if norm not in _NORMALIZATIONS:
            raise error("MATLAB:histcounts:InvalidNormalization",
                        "Normalization must be 'count', 'countdensity', 'cumcount', "
                        "'probability', 'percentage', 'pdf' or 'cdf'.")
    widths = np.diff(edges)
    total = float(data.size)
    with np.errstate(all="ignore"):
        values = {
            "count": lambda: counts,
            "countdensity": lambda: counts / widths,
            "cumcount": lambda: np.cumsum(counts),
            "probability": lambda: counts / total,
            "percentage": lambda: 100 * counts / total,
            "pdf": lambda: counts / total / widths,
            "cdf": lambda: np.cumsum(counts) / total,
        }[norm]()
    n_out = result(values.reshape(1, -1))
    if nargout < 2:
        return n_out
    edge_out = _finish(edges.reshape(1, -1), single)
    if nargout < 3:
        return n_out, edge_out
    return n_out, edge_out, result(bins.astype(np.float64).reshape(xs.shape, order="F"))
