"""Deep Learning Toolbox: dlarray, dlfeval, dlgradient, extractdata, data formats,
and the basic activations (sigmoid, relu, leakyrelu, gelu, softmax).

A dlfeval call traces the dlarrays in its arguments; operations on them are
recorded (``mlang.autodiff.trace``) and dlgradient runs the backward pass.
Outside dlfeval nothing is traced: dlfeval returns untraced values.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import (
    DlArray,
    as_data,
    check_format,
    format_plan,
    formatted,
    map_dlarrays,
    strip,
)
from mlang.autodiff.trace import Primitive, backward, traced_input, undefined_for_dlarray
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import CHAR, char_row, class_of, fix_shape, is_text, result, to_str

# ------------------------------------------------------------- the value


@builtin(dl="native")
def dlarray(x: object, fmt: object = None) -> DlArray:
    """dlX = dlarray(X)  deep learning array for automatic differentiation
    dlX = dlarray(X, FMT)  with data format FMT: labels 'S' (spatial), 'C' (channel),
    'B' (batch), 'T' (time), 'U' (unspecified), permuted to the order S, C, B, T, U"""
    if fmt is None:
        if type(x) is DlArray:
            return x
        return DlArray(as_data(x))
    if not is_text(fmt):
        raise error("deep:dlarray:InvalidFormat", "Data format must be a string scalar or character vector.")
    labels = to_str(fmt)
    if type(x) is DlArray:
        if x.fmt:
            x = DlArray(x.data, "", x.node)
        if x.node is not None:
            return _relabel_traced(x, labels)
    data, fmt_sorted = formatted(as_data(x), labels)
    return DlArray(data, fmt_sorted)


def _relabel_traced(x: DlArray, labels: str) -> DlArray:
    """A traced dlarray given a format: reshaping and permuting are recorded in the trace."""
    full_shape, order, fmt_sorted = format_plan(x.data.shape, labels)
    shape = fix_shape(full_shape)
    y = x if shape == x.data.shape else ops.reshape_to(x, shape)
    if order is not None:
        y = ops.call("permute", y, np.array([[k + 1.0 for k in order]]))
    return DlArray(y.data, fmt_sorted, y.node)


@builtin(dl="native")
def extractdata(x: object) -> object:
    """X = extractdata(dlX)  the data of a dlarray as a plain array (untraced)"""
    if type(x) is not DlArray:
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function 'extractdata' for input arguments of type '{class_of(x)}'.")
    return result(x.data)


@builtin(dl="native")
def isdlarray(x: object) -> bool:
    """tf = isdlarray(X)  true for a dlarray"""
    return type(x) is DlArray


@builtin("underlyingType", dl="native")
def underlying_type(x: object) -> np.ndarray:
    """c = underlyingType(X)  the class of the data inside X (class(X) for other values)"""
    if type(x) is DlArray:
        return char_row(x.underlying)
    return char_row(class_of(x))


@builtin(dl="native")
def dims(x: object) -> np.ndarray:
    """fmt = dims(dlX)  the data format of a dlarray ('' when unformatted)"""
    if type(x) is not DlArray:
        raise undefined_for_type("dims", x)
    return char_row(x.fmt) if x.fmt else np.empty((0, 0), dtype=CHAR)


@builtin(dl="native")
def finddim(x: object, label: object) -> object:
    """dim = finddim(dlX, label)  the dimensions of dlX labelled LABEL"""
    if type(x) is not DlArray:
        raise undefined_for_type("finddim", x)
    wanted = to_str(label).upper()
    found = [float(k + 1) for k, lab in enumerate(x.fmt) if lab == wanted]
    return result(np.array([found])) if found else np.zeros((1, 0))


@builtin(dl="native")
def stripdims(x: object, fmt: object = None) -> object:
    """Y = stripdims(dlX)  dlX without its data format (the trace is kept)"""
    if type(x) is not DlArray:
        raise undefined_for_type("stripdims", x)
    return DlArray(x.data, "", x.node)


def undefined_for_type(name: str, x: object) -> Exception:
    if type(x) is DlArray:
        return undefined_for_dlarray(name)
    return error("MATLAB:UndefinedFunction",
                 f"Undefined function '{name}' for input arguments of type '{class_of(x)}'.")


# ------------------------------------------------------ dlfeval, dlgradient


@builtin(interp=True, nargout=True, max_out=None, dl="native")
def dlfeval(interp: Any, fun: object, *args: object, nargout: int = 1) -> object:
    """[y1,...,yk] = dlfeval(FUN, x1,...,xn)  evaluate FUN with every dlarray in its
    arguments traced, so that dlgradient can differentiate inside it"""
    traced = [map_dlarrays(a, traced_input) for a in args]
    interp.dl_depth += 1
    try:
        outs = interp.call_value(fun, traced, nargout)
    finally:
        interp.dl_depth -= 1
    if interp.dl_depth == 0:
        outs = [strip(v) for v in outs]
    return tuple(outs)


_OPTIONS = {"retaindata": "RetainData", "enablehigherderivatives": "EnableHigherDerivatives",
            "allowcomplex": "AllowComplex"}


def _split_options(args: tuple) -> tuple[list, dict[str, bool]]:
    options = {"RetainData": False, "EnableHigherDerivatives": False, "AllowComplex": True}
    k = len(args)
    while k >= 2 and is_text(args[k - 2]) and to_str(args[k - 2]).lower() in _OPTIONS:
        k -= 2
    variables = list(args[:k])
    rest = args[k:]
    for name, value in zip(rest[0::2], rest[1::2], strict=True):
        options[_OPTIONS[to_str(name).lower()]] = _flag(value)
    for v in variables:
        if is_text(v):
            raise error("deep:dlgradient:InvalidOption",
                        f"'{to_str(v)}' is not a valid option. Options are 'RetainData', "
                        "'EnableHigherDerivatives' and 'AllowComplex'.")
    return variables, options


def _flag(v: object) -> bool:
    from mlang.values.core import is_true

    return bool(is_true(ops.raw(v.data) if type(v) is DlArray else v))


def _not_traced() -> Exception:
    return error("deep:dlgradient:ValueNotTraced",
                 "Value to differentiate is not traced. It must be a traced real dlarray "
                 "scalar. Use dlgradient inside a function called by dlfeval to trace the "
                 "variables.")


@builtin(interp=True, nargout=True, max_out=None, dl="native")
def dlgradient(interp: Any, y: object, *args: object, nargout: int = 1) -> object:
    """[g1,...,gk] = dlgradient(y, x1,...,xk)  gradients of the scalar y with respect to
    x1,...,xk (dlarrays, or cells and structs of them), inside a function called by dlfeval
    dlgradient(..., 'RetainData', tf)  keep the trace for further dlgradient calls
    dlgradient(..., 'EnableHigherDerivatives', tf)  trace the backward pass too, so the
    gradients can be differentiated again
    dlgradient(..., 'AllowComplex', tf)  allow complex variables and gradients"""
    variables, options = _split_options(args)
    if not variables:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    if nargout > len(variables):
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    if type(y) is not DlArray or y.node is None or interp.dl_depth == 0:
        raise _not_traced()
    if y.data.size != 1 or y.data.dtype.kind == "c":
        raise error("deep:dlgradient:ValueNotScalar",
                    "Value to differentiate must be a traced real dlarray scalar.")
    leaves: list[DlArray] = []
    for v in variables:
        _collect(v, leaves, options["AllowComplex"])
    higher = options["EnableHigherDerivatives"]
    grads = iter(backward(y, leaves, higher, options["RetainData"]))

    def gradient_of(x: DlArray) -> DlArray:
        g = next(grads)
        if type(g) is DlArray:
            return DlArray(g.data, x.fmt, g.node)
        return DlArray(g, x.fmt)

    return tuple(map_dlarrays(v, gradient_of) for v in variables)


def _collect(v: object, leaves: list[DlArray], allow_complex: bool) -> None:
    """The dlarrays in a variable to differentiate with respect to, each checked."""
    def check(x: DlArray) -> DlArray:
        if x.node is None:
            raise error("deep:dlgradient:VariableNotTraced",
                        "Variable to differentiate with respect to is not traced. It must be "
                        "a dlarray input of the function called by dlfeval, or a value "
                        "computed from one.")
        if not allow_complex and x.data.dtype.kind == "c":
            raise error("deep:dlgradient:ComplexNotAllowed",
                        "Variable to differentiate with respect to is complex. To compute "
                        "complex gradients, set 'AllowComplex' to true.")
        leaves.append(x)
        return x

    from mlang.values.cell import Cell
    from mlang.values.struct import Struct

    if type(v) not in (DlArray, Cell, Struct):
        raise error("deep:dlgradient:InvalidVariable",
                    "Variable to differentiate with respect to must be a dlarray, or a cell "
                    f"array or structure containing dlarrays, not {class_of(v)}.")
    map_dlarrays(v, check)


# ------------------------------------------------------------ activations


def _sigmoid(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return 1 / (1 + np.exp(-x))


@builtin(gradient=lambda g, y, x: (ops.times(g, ops.conj(ops.times(y, ops.minus(1.0, y)))),))
def sigmoid(x: object) -> object:
    """Y = sigmoid(X)  logistic sigmoid 1./(1+exp(-X))"""
    return result(_sigmoid(_floating(x)))


@builtin(gradient=lambda g, y, x: (ops.where(ops.raw(_data(x) > 0), g),))
def relu(x: object) -> object:
    """Y = relu(X)  rectified linear unit max(X, 0); its derivative at 0 is 0"""
    a = _floating(x)
    return result(np.fmax(a, 0))  # max(x, 0): NaN gives 0, as MATLAB's max ignores NaN


def _leaky_scale(scale: object) -> float:
    if scale is None:
        return 0.01
    data = ops.raw(_data(scale)) if class_of(_data(scale)) in ("double", "single") else None
    if data is None or data.size != 1 or data.dtype.kind == "c":
        raise error("deep:leakyrelu:InvalidScale", "Scale must be a real numeric scalar.")
    return float(data.reshape(-1)[0])


@builtin(gradient=lambda g, y, x, scale=None: (
    ops.times(g, np.where(_data(x) > 0, 1.0, _leaky_scale(scale)).astype(_data(x).dtype)), None))
def leakyrelu(x: object, scale: object = None) -> object:
    """Y = leakyrelu(X)  leaky rectified linear unit, X for X > 0 and 0.01*X otherwise
    Y = leakyrelu(X, SCALE)  SCALE*X for X <= 0"""
    a = _floating(x)
    s = _leaky_scale(scale)
    return result(np.where(a > 0, a, s * a).astype(a.dtype, copy=False))


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)


def _gelu_rule(g: Any, y: Any, x: Any, *options: Any) -> tuple:
    if _tanh_approximation(options):
        # d/dx 0.5x(1+tanh(u)), u = c(x + 0.044715x^3)
        x2 = ops.times(x, x)
        u = ops.times(ops.plus(x, ops.times(0.044715, ops.times(x2, x))), _SQRT_2_OVER_PI)
        t = ops.call("tanh", u)
        du = ops.times(ops.plus(1.0, ops.times(3 * 0.044715, x2)), _SQRT_2_OVER_PI)
        d = ops.plus(ops.times(0.5, ops.plus(1.0, t)),
                     ops.times(ops.times(0.5, x), ops.times(ops.minus(1.0, ops.times(t, t)), du)))
    else:
        # Phi(x) + x phi(x)
        cdf = ops.times(0.5, ops.plus(1.0, ops.call("erf", ops.times(x, 1 / math.sqrt(2)))))
        pdf = ops.times(1 / math.sqrt(2 * math.pi), ops.call("exp", ops.times(-0.5, ops.times(x, x))))
        d = ops.plus(cdf, ops.times(x, pdf))
    return (ops.times(g, ops.conj(d)),) + (None,) * len(options)


def _tanh_approximation(options: tuple) -> bool:
    if not options:
        return False
    if len(options) != 2 or to_str(options[0]).lower() != "approximation":
        raise error("deep:gelu:InvalidOption", "Expected option 'Approximation'.")
    kind = to_str(options[1]).lower()
    if kind not in ("none", "tanh"):
        raise error("deep:gelu:InvalidApproximation", "Approximation must be 'none' or 'tanh'.")
    return kind == "tanh"


@builtin(gradient=_gelu_rule)
def gelu(x: object, *options: object) -> object:
    """Y = gelu(X)  Gaussian error linear unit X.*Phi(X)
    Y = gelu(X, 'Approximation', 'tanh')  the tanh approximation"""
    from scipy.special import erf

    a = _floating(x)
    if a.dtype.kind == "c":
        raise error("deep:gelu:ComplexInput", "Input data must be real.")
    if _tanh_approximation(options):
        y = 0.5 * a * (1 + np.tanh(_SQRT_2_OVER_PI * (a + 0.044715 * a ** 3)))
    else:
        y = 0.5 * a * (1 + erf(a / math.sqrt(2)))
    return result(np.asarray(y, dtype=a.dtype))


def _softmax(x: np.ndarray, dim: int) -> np.ndarray:
    if x.ndim <= dim:
        return np.ones_like(x)
    shifted = x - x.max(axis=dim, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=dim, keepdims=True)


def _softmax_rule(g: Any, y: Any, x: Any, dim: int) -> tuple:
    gy = ops.times(g, y)
    total = ops.call("sum", gy, float(dim + 1))
    return (ops.minus(gy, ops.times(y, total)), None)


SOFTMAX = Primitive("softmax", _softmax, _softmax_rule)


@builtin(dl="native")
def softmax(x: object, *options: object) -> object:
    """Y = softmax(X)  softmax over the channel ('C') dimension of a formatted dlarray
    Y = softmax(X, 'DataFormat', FMT)  for an unformatted input with format FMT"""
    fmt = x.fmt if type(x) is DlArray else ""
    if options:
        if len(options) != 2 or to_str(options[0]).lower() != "dataformat":
            raise error("deep:softmax:InvalidOption", "Expected option 'DataFormat'.")
        fmt = check_format(to_str(options[1]))
    if "C" not in fmt:
        raise error("deep:softmax:NoChannelDimension",
                    "Invalid input data. The input must be a formatted dlarray with a channel "
                    "('C') dimension, or specify the format with the 'DataFormat' option.")
    dim = fmt.index("C")
    if type(x) is DlArray:
        return ops.apply(SOFTMAX, x, dim)
    return result(_softmax(_floating(x), dim))


# ------------------------------------------------------------------ helpers


def _data(x: Any) -> np.ndarray:
    return x.data if type(x) is DlArray else x


def _floating(x: object) -> np.ndarray:
    from mlang.builtins.elementwise import floating

    return floating("activation", x)


# ------------------------------------------------------------ GPU (none)


@builtin(dl="native", nargout=True, max_out=None)
def gather(*args: object, nargout: int = 1) -> object:
    """X = gather(A)  the data of a GPU array in host memory; mlang computes on the CPU,
    so every array (dlarrays included) is returned as it is"""
    return args if len(args) > 1 else (args[0] if args else None)


@builtin("canUseGPU")
def can_use_gpu() -> bool:
    """tf = canUseGPU  whether a GPU is available for computation: false in mlang"""
    return False
