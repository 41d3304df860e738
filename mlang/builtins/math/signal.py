"""Signal processing: the fft family, fftshift, nextpow2, filter, conv2, convn and filter2."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.builtins.coerce import checked_shape, dim_argument, integer_scalar, text_option
from mlang.builtins.data.shape import first_nonsingleton, is_placeholder, padded, rewrap_shaped
from mlang.builtins.math.linalg import as_floats, float_result, is_vector_array
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import INT_CLASSES, class_of, fix_shape, result, to_array, to_double_array
from mlang.values.indexing import data_of

# ------------------------------------------------------------------------ fft

_FFT_TYPES = ("double", "single", "logical", *INT_CLASSES)


def _fft_input(x: object, name: str) -> np.ndarray:
    cls = class_of(x)
    if cls not in _FFT_TYPES:
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{name}' for input arguments of type '{cls}'.")
    return to_double_array(x)


def _length(v: object, name: str) -> int | None:
    """A transform length argument (None for [] or absent)."""
    if v is None or is_placeholder(v):
        return None
    message = "Transform length must be a nonnegative integer scalar."
    n = integer_scalar(v, message, f"MATLAB:{name}:invalidLength")
    if n < 0:
        raise error(f"MATLAB:{name}:invalidLength", message)
    return n


def _symmetry_flag(args: list, name: str) -> tuple[list, bool]:
    """The trailing 'symmetric' / 'nonsymmetric' option of the inverse transforms."""
    if args:
        option = text_option(args[-1])
        if option is not None:
            if option not in ("symmetric", "nonsymmetric"):
                raise error(f"MATLAB:{name}:unrecognizedString", "Unrecognized string input.")
            return args[:-1], option == "symmetric"
    return args, False


def _is_conjugate_symmetric(a: np.ndarray, axes: list[int]) -> bool:
    """Whether ``a`` equals its own conjugate with every index k along ``axes`` taken
    to (n - k) mod n: its inverse transform is then real."""
    if a.dtype.kind != "c":
        return False
    mirrored = a
    for ax in axes:
        mirrored = np.roll(np.flip(mirrored, axis=ax), 1, axis=ax)
    return bool(np.array_equal(a, np.conj(mirrored)))


def _transform(x: object, name: str, axes: list[int], lengths: list[int | None],
               inverse: bool, symmetric: bool = False) -> object:
    a = _fft_input(x, name)
    ndim = max([a.ndim, *(ax + 1 for ax in axes)])
    a = padded(a, ndim)
    sizes = [a.shape[ax] if n is None else n for ax, n in zip(axes, lengths, strict=True)]
    shape = list(a.shape)
    for ax, n in zip(axes, sizes, strict=True):
        shape[ax] = n
    checked_shape(tuple(shape), "double")
    if any(n == 0 for n in sizes) or a.size == 0:
        out = np.zeros(shape, dtype=a.dtype)
        return float_result(out.reshape(fix_shape(out.shape)), x)
    # pad or truncate to the transform lengths first, so the symmetry test sees the data used
    for ax, n in zip(axes, sizes, strict=True):
        if a.shape[ax] > n:
            a = np.take(a, np.arange(n), axis=ax)
        elif a.shape[ax] < n:
            widths = [(0, 0)] * a.ndim
            widths[ax] = (0, n - a.shape[ax])
            a = np.pad(a, widths)
    if not inverse:
        out = np.fft.fftn(a, axes=axes)
    elif symmetric or _is_conjugate_symmetric(a, axes):
        # only the first half along the first axis is read, as MATLAB does with 'symmetric'
        order = list(reversed(axes))
        first = axes[0]
        half = np.take(a, np.arange(sizes[0] // 2 + 1), axis=first)
        out = np.fft.irfftn(half, s=[sizes[axes.index(ax)] for ax in order], axes=order)
    else:
        out = np.fft.ifftn(a, axes=axes)
    return float_result(out.reshape(fix_shape(out.shape)), x)


def _one_dim(x: object, args: list, name: str) -> tuple[int, int | None]:
    """The axis and transform length of fft/ifft from (n, dim)."""
    if len(args) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    n = _length(args[0], name) if args else None
    a = _fft_input(x, name)
    if len(args) > 1:
        axis = dim_argument(args[1])
    elif a.size == 0 and a.shape == (0, 0):
        axis = 0
    else:
        axis = first_nonsingleton(a.shape)
    return axis, n


def _resized(g: Any, axis: int, m: int) -> Any:
    """``g`` cut or padded with zeros to m elements along ``axis`` (the adjoint of the
    transforms' own padding and truncation)."""
    shape = ops.shape_of(g)
    shape = shape + (1,) * (axis + 1 - len(shape))
    n = shape[axis]
    if n == m:
        return g
    target = shape[:axis] + (m,) + shape[axis + 1:]
    bigger = shape if n > m else target
    block = [slice(None)] * len(shape)
    block[axis] = slice(0, min(n, m))
    numbers = np.arange(math.prod(bigger)).reshape(bigger, order="F")[tuple(block)]
    positions = numbers.reshape(-1, order="F")
    if n > m:
        return ops.take(g, positions, fix_shape(target))
    return ops.put(g, positions, fix_shape(target))


def _transform_rule(g: Any, y: Any, x: Any, *args: Any, inverse: bool) -> tuple:
    """The gradient of the linear map y = F x (MATLAB's convention for complex values:
    F' applied to the output's gradient): N*ifft for fft, fft/N for ifft, then the
    adjoint of the padding or truncation to N points."""
    name = "ifft" if inverse else "fft"

    def gradient() -> Any:
        rest, symmetric = _symmetry_flag(list(args), name) if inverse else (list(args), False)
        data = ops.data_of(x)
        axis, n = _one_dim(data, rest, name)
        m = padded(to_array(data), axis + 1).shape[axis]
        size = m if n is None else n
        if size == 0:
            return np.zeros(ops.shape_of(x))  # nothing of x reached the output
        dim = float(axis + 1)
        if not inverse:
            back = ops.times(ops.call("ifft", g, np.zeros((0, 0)), dim), float(size))
        else:
            # with 'symmetric' the output is real by construction: only g's real part counts
            back = ops.rdivide(ops.call("fft", ops.real(g) if symmetric else g, np.zeros((0, 0)),
                                        dim), float(size))
            if symmetric:  # only the first half was read, its inner terms twice
                weights = np.zeros(size)
                weights[0] = 1.0
                weights[1:(size + 1) // 2] = 2.0
                if size % 2 == 0:
                    weights[size // 2] = 1.0
                shape = [1] * max(axis + 1, 2)
                shape[axis] = size
                back = ops.times(back, weights.reshape(shape, order="F"))
        return _resized(back, axis, m)

    return (gradient,) + (None,) * len(args)


def _fft_rule(g: Any, y: Any, x: Any, *args: Any) -> tuple:
    return _transform_rule(g, y, x, *args, inverse=False)


def _ifft_rule(g: Any, y: Any, x: Any, *args: Any) -> tuple:
    return _transform_rule(g, y, x, *args, inverse=True)


@builtin(gradient=_fft_rule)
def fft(x: Any, *args: Any) -> object:
    """Y = fft(X)
    Y = fft(X,n)
    Y = fft(X,n,dim)

    Discrete Fourier transform along the first dimension whose size is not 1
    (or dim), padded with zeros or truncated to n points."""
    axis, n = _one_dim(x, list(args), "fft")
    return _transform(x, "fft", [axis], [n], inverse=False)


@builtin(gradient=_ifft_rule)
def ifft(x: Any, *args: Any) -> object:
    """X = ifft(Y)
    X = ifft(Y,n)
    X = ifft(Y,n,dim)
    X = ifft(___,symflag)

    Inverse discrete Fourier transform. With 'symmetric' (or when Y is
    conjugate symmetric) the result is real."""
    rest, symmetric = _symmetry_flag(list(args), "ifft")
    axis, n = _one_dim(x, rest, "ifft")
    return _transform(x, "ifft", [axis], [n], inverse=True, symmetric=symmetric)


def _two_dim(x: object, args: list, name: str, inverse: bool, symmetric: bool) -> object:
    if len(args) == 1 or len(args) > 2:
        raise error("MATLAB:TooManyInputs" if len(args) > 2 else "MATLAB:minrhs",
                    "Too many input arguments." if len(args) > 2 else "Not enough input arguments.")
    lengths = [_length(v, name) for v in args] if args else [None, None]
    return _transform(x, name, [0, 1], lengths, inverse, symmetric)


@builtin()
def fft2(x: Any, *args: Any) -> object:
    """Y = fft2(X)
    Y = fft2(X,m,n)

    2-D discrete Fourier transform (of each page of an N-D array), padded or
    truncated to m-by-n."""
    return _two_dim(x, list(args), "fft2", False, False)


@builtin()
def ifft2(x: Any, *args: Any) -> object:
    """X = ifft2(Y)
    X = ifft2(Y,m,n)
    X = ifft2(___,symflag)

    2-D inverse discrete Fourier transform."""
    rest, symmetric = _symmetry_flag(list(args), "ifft2")
    return _two_dim(x, rest, "ifft2", True, symmetric)


def _n_dim(x: object, args: list, name: str, inverse: bool, symmetric: bool) -> object:
    a = _fft_input(x, name)
    if args and not is_placeholder(args[0]):
        if class_of(args[0]) not in _FFT_TYPES:  # text is no size vector
            raise error(f"MATLAB:{name}:invalidSize", "Size vector must be a numeric vector.")
        sz = to_double_array(args[0]).reshape(-1)
        if sz.size < a.ndim or not is_vector_array(to_double_array(args[0])):
            raise error(f"MATLAB:{name}:invalidSize",
                        "Size vector must have at least as many elements as the input has "
                        "dimensions.")
        lengths: list[int | None] = [_length(float(v.real), name) for v in sz]
    else:
        lengths = [None] * a.ndim
    return _transform(x, name, list(range(len(lengths))), lengths, inverse, symmetric)


@builtin()
def fftn(x: Any, sz: Any = None) -> object:
    """Y = fftn(X)
    Y = fftn(X,sz)

    N-D discrete Fourier transform, padded or truncated to the size sz."""
    return _n_dim(x, [] if sz is None else [sz], "fftn", False, False)


@builtin()
def ifftn(x: Any, *args: Any) -> object:
    """X = ifftn(Y)
    X = ifftn(Y,sz)
    X = ifftn(___,symflag)

    N-D inverse discrete Fourier transform."""
    rest, symmetric = _symmetry_flag(list(args), "ifftn")
    if len(rest) > 1:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    return _n_dim(x, rest, "ifftn", True, symmetric)


def _shift(x: object, dim: object, inverse: bool) -> object:
    a = data_of(x)  # any array: numbers, text, cells, structs
    if dim is None:
        axes = list(range(a.ndim))
    else:
        axis = dim_argument(dim)
        if axis >= a.ndim:
            return x
        axes = [axis]
    shifts = [(-(a.shape[ax] // 2) if inverse else a.shape[ax] // 2) for ax in axes]
    return rewrap_shaped(x, np.roll(a, shifts, axis=axes))


@builtin()
def fftshift(x: Any, dim: Any = None) -> object:
    """Y = fftshift(X)
    Y = fftshift(X,dim)

    Move the zero-frequency component to the centre: swaps the halves of
    every dimension (or of dimension dim)."""
    return _shift(x, dim, inverse=False)


@builtin()
def ifftshift(x: Any, dim: Any = None) -> object:
    """X = ifftshift(Y)
    X = ifftshift(Y,dim)

    Undo fftshift: move the zero-frequency component back to the start."""
    return _shift(x, dim, inverse=True)


@builtin()
def nextpow2(n: Any) -> object:
    """P = nextpow2(A)

    Exponent of the next power of 2: the smallest integers P with
    2.^P >= abs(A) (0 for 0)."""
    cls = class_of(n)
    if cls not in ("double", "single", "logical", *INT_CLASSES):
        raise error("MATLAB:nextpow2:wrongInput", "Input must be numeric.")
    a = np.abs(to_double_array(n))
    with np.errstate(all="ignore"):
        f, p = np.frexp(a)
        out = p.astype(np.float64)
        out[f == 0.5] -= 1  # exact powers of 2
        out[~np.isfinite(a)] = a[~np.isfinite(a)]
    if cls in INT_CLASSES:
        return result(out.astype(np.dtype(cls)))
    return float_result(out, n)


# --------------------------------------------------------------------- filter


def _coefficients(v: object, what: str) -> np.ndarray:
    c = as_floats(v, "filter")
    if c.size == 0 or not is_vector_array(c):
        raise error("MATLAB:filter:invalidInputs" if c.size else "MATLAB:filter:emptyInput",
                    f"{what} must be a nonempty vector." if c.size == 0 else
                    f"Filter coefficients {what} must be vectors.")
    return c.reshape(-1)


@builtin(max_out=2, nargout=True)
def filter(b: Any, a: Any, x: Any, zi: Any = None, dim: Any = None, *, nargout: int = 1) -> object:
    """y = filter(b,a,x)
    y = filter(b,a,x,zi)
    y = filter(b,a,x,zi,dim)
    [y,zf] = filter(___)

    1-D digital filter (rational transfer function b/a, direct form II
    transposed) along the first dimension whose size is not 1, or dim; zi
    and zf are the initial and final delay conditions."""
    num, den = _coefficients(b, "b"), _coefficients(a, "a")
    if den[0] == 0:
        raise error("MATLAB:filter:firstElementOfDenominatorFilterZero",
                    "First denominator filter coefficient must be non-zero.")
    data = as_floats(x, "filter")
    axis = first_nonsingleton(data.shape) if dim is None else dim_argument(dim)
    data = padded(data, axis + 1)
    order = max(num.size, den.size) - 1
    moved = np.moveaxis(data, axis, 0)
    state_shape = (order,) + moved.shape[1:]
    if zi is None or is_placeholder(zi):
        state = np.zeros(state_shape)
    else:
        state = as_floats(zi, "filter")
        if state.size != math.prod(state_shape):
            raise error("MATLAB:filter:invalidInitialConditions",
                        "Initial conditions must be a vector of length max(length(a),length(b))-1, "
                        "or an array with the leading dimension of size "
                        "max(length(a),length(b))-1 and with remaining dimensions matching those "
                        "of x.")
        state = state.reshape(state_shape, order="F")
    # SciPy on first use: keeps start-up fast
    from scipy import signal as sps

    if order == 0:  # lfilter wants no state for a gain
        y = moved * (num[0] / den[0])
        zf = np.zeros(state_shape)
    elif moved.size == 0:  # nothing to filter: the delays keep their initial values
        y = moved.astype(np.result_type(moved, num, den, state))
        zf = state
    else:
        y, zf = sps.lfilter(num, den, moved, axis=0, zi=state)
    out = np.moveaxis(y, 0, axis)
    y_value = float_result(out.reshape(fix_shape(out.shape)), b, a, x)
    if nargout < 2:
        return y_value
    return y_value, float_result(zf.reshape(fix_shape(zf.shape)), b, a, x)


# ------------------------------------------------------------------ convolution

_SHAPES = ("full", "same", "valid")


def _shape_option(v: object, name: str) -> str:
    mode = text_option(v)
    if mode not in _SHAPES:
        raise error(f"MATLAB:{name}:unknownShapeParameter", "Shape must be 'full', 'same', or 'valid'.")
    return mode  # type: ignore[return-value]


def _convolve(a: np.ndarray, k: np.ndarray, mode: str) -> np.ndarray:
    """N-D convolution with MATLAB's shapes: 'same' is the central part the size of a,
    'valid' the part computed without the zero padding."""
    ndim = max(a.ndim, k.ndim)
    a, k = padded(a, ndim), padded(k, ndim)
    dtype = np.result_type(a.dtype, k.dtype, np.float64)
    if a.size == 0 or k.size == 0:
        full = np.zeros(tuple(max(p + q - 1, 0) for p, q in zip(a.shape, k.shape, strict=True)),
                        dtype=dtype)
    else:
        # SciPy on first use: keeps start-up fast
        from scipy import signal as sps

        # direct sums are exact for whole numbers, as MATLAB's are; the FFT only for big inputs
        method = "direct" if a.size * k.size <= 4_000_000 else "auto"
        full = sps.convolve(a.astype(dtype), k.astype(dtype), mode="full", method=method)
    if mode == "full":
        return full
    index = []
    for p, q in zip(a.shape, k.shape, strict=True):
        if mode == "same":
            start = q // 2
            index.append(slice(start, start + p))
        else:
            n = max(p - q + 1, 0) if q else 0
            index.append(slice(q - 1 if q else 0, (q - 1 if q else 0) + n))
    out = full[tuple(index)]
    if mode == "same" and out.shape != a.shape:  # an empty kernel: zeros the size of a
        out = np.zeros(a.shape, dtype=dtype)
    return out


@builtin()
def conv2(*args: Any) -> object:
    """C = conv2(A,B)
    C = conv2(u,v,A)
    C = conv2(___,shape)

    2-D convolution; with vectors u and v, A is convolved with u down its
    columns and with v along its rows. shape is 'full' (default), 'same' or
    'valid'."""
    values = list(args)
    mode = "full"
    if values and text_option(values[-1]) is not None:
        mode = _shape_option(values.pop(), "conv2")
    if len(values) < 2:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    if len(values) > 3:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    arrays = [as_floats(v, "conv2") for v in values]
    if any(m.ndim > 2 for m in arrays):
        raise error("MATLAB:conv2:inputsMustBe2D", "N-D arrays are not supported.")
    if len(values) == 3:
        u, v, a = arrays
        if not (is_vector_array(u) or u.size == 0) or not (is_vector_array(v) or v.size == 0):
            raise error("MATLAB:conv2:firstTwoInputsMustBeVectors",
                        "First two inputs must be vectors.")
        kernel = np.outer(u.reshape(-1), v.reshape(-1))
        out = _convolve(a, kernel, mode)
    else:
        out = _convolve(arrays[0], arrays[1], mode)
    return float_result(out, *values)


@builtin()
def convn(a: Any, b: Any, shape: Any = None) -> object:
    """C = convn(A,B)
    C = convn(A,B,shape)

    N-D convolution; shape is 'full' (default), 'same' or 'valid'."""
    mode = "full" if shape is None else _shape_option(shape, "convn")
    out = _convolve(as_floats(a, "convn"), as_floats(b, "convn"), mode)
    return float_result(out.reshape(fix_shape(out.shape)), a, b)


@builtin()
def filter2(b: Any, x: Any, shape: Any = None) -> object:
    """Y = filter2(H,X)
    Y = filter2(H,X,shape)

    2-D digital filter (correlation of X with H); shape is 'same' (default),
    'full' or 'valid'."""
    mode = "same" if shape is None else _shape_option(shape, "filter2")
    kernel, data = as_floats(b, "filter2"), as_floats(x, "filter2")
    if kernel.ndim > 2 or data.ndim > 2:
        raise error("MATLAB:filter2:inputsMustBe2D", "N-D arrays are not supported.")
    out = _convolve(data, kernel[::-1, ::-1], mode)  # conv2(X, rot90(H,2), shape)
    return float_result(out, b, x)
