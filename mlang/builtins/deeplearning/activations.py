"""Activation functions: sigmoid, relu, leakyrelu, gelu and softmax, with their
gradient rules."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import Primitive
from mlang.builtins.coerce import options, split_options, text_option
from mlang.builtins.deeplearning.formats import data_format_option, formatted_input, output_like
from mlang.builtins.math.elementwise import floating
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of, result


def _data(x: Any) -> np.ndarray:
    return x.data if type(x) is DlArray else x


def _floating(x: object) -> np.ndarray:
    return floating("activation", x)


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


def _gelu_rule(g: Any, y: Any, x: Any, *settings: Any) -> tuple:
    if _tanh_approximation(settings):
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
    return (ops.times(g, ops.conj(d)),) + (None,) * len(settings)


def _tanh_approximation(given: tuple) -> bool:
    """Whether gelu's options ask for the tanh approximation."""
    approximation = options(given, ("Approximation",)).get("Approximation")
    if approximation is None:
        return False
    kind = text_option(approximation)
    if kind not in ("none", "tanh"):
        raise error("deep:gelu:InvalidApproximation", "Approximation must be 'none' or 'tanh'.")
    return kind == "tanh"


@builtin(gradient=_gelu_rule)
def gelu(x: object, *settings: object) -> object:
    """Y = gelu(X)  Gaussian error linear unit X.*Phi(X)
    Y = gelu(X, 'Approximation', 'tanh')  the tanh approximation"""
    from scipy.special import erf  # scipy is heavy: imported on first use

    a = _floating(x)
    if a.dtype.kind == "c":
        raise error("deep:gelu:ComplexInput", "Input data must be real.")
    if _tanh_approximation(settings):
        y = 0.5 * a * (1 + np.tanh(_SQRT_2_OVER_PI * (a + 0.044715 * a ** 3)))
    else:
        y = 0.5 * a * (1 + erf(a / math.sqrt(2)))
    return result(np.asarray(y, dtype=a.dtype))


def _softmax(x: np.ndarray, dim: int) -> np.ndarray:
    if x.dtype == np.bool_:
        x = x.astype(np.float64)  # logical data computes as double, as in other activations
    if x.size == 0:
        return x.copy()
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


@builtin(dl="traced")
def softmax(x: object, *settings: object) -> object:
    """Y = softmax(X)  softmax over the channel ('C') dimension of a formatted dlarray
    Y = softmax(X, 'DataFormat', FMT)  for an unformatted input with format FMT (the
    result is unformatted, its dimensions in the input's order)"""
    positional, given = split_options(settings, ("DataFormat",))
    if positional:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if type(x) is not DlArray:
        _floating(x)  # (the class check of the other activations)
    xf, form = formatted_input(x, data_format_option(given), "softmax")
    if "C" not in xf.fmt:
        raise error("deep:softmax:NoChannelDimension",
                    "Invalid input data. The input must be a formatted dlarray with a channel "
                    "('C') dimension, or specify the format with the 'DataFormat' option.")
    y = ops.apply(SOFTMAX, DlArray(xf.data, "", xf.node), xf.fmt.index("C"))
    return output_like(DlArray(y.data, xf.fmt, y.node), form)
