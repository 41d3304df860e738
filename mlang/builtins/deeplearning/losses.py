"""Loss functions of the Deep Learning Toolbox: mse, l1loss, l2loss, huber, crossentropy
and indexcrossentropy, each one recorded operation with its gradient rule beside it.

A loss is computed on its predictions in canonical label order (S..., C, B, T, U) against
targets in the same layout; weights, masks and the normalisation are one constant array
of factors (see ``loss_inputs``).  A reduced loss is an unformatted 1x1 dlarray; with
'Reduction','none' the unreduced values keep the predictions' form.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray, as_data
from mlang.autodiff.trace import Node, Primitive, read_as_constant
from mlang.builtins.coerce import NUMERIC_OR_LOGICAL
from mlang.builtins.deeplearning.formats import (
    InputForm,
    data_format_option,
    output_like,
    relabel,
)
from mlang.builtins.deeplearning.loss_inputs import (
    NORMALIZATIONS,
    REDUCTIONS,
    choice,
    mask_array,
    predictions,
    prepare,
    scale_factors,
    split_loss_arguments,
    weights_array,
)
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of, fix_shape, to_array

# ------------------------------------------------------- regression losses


def _regression(y: np.ndarray, t: Any, scale: Any, kind: str, delta: float, reduce: bool) -> np.ndarray:
    d = y - t
    if kind == "l2":
        values = d * d
    elif kind == "l1":
        values = np.abs(d)
    else:  # huber: quadratic within the transition point, linear beyond it
        size = np.abs(d)
        values = np.where(size <= delta, 0.5 * d * d, delta * (size - 0.5 * delta))
    values = _single_if_any(values * scale, y, t)
    if reduce:
        return _sum_all(values, scale)
    return values


def _sum_all(values: np.ndarray, scale: Any) -> np.ndarray:
    """A loss's scaled values summed, as a 1-by-1 array."""
    total = values.sum()
    if not values.size and type(scale) is float:
        total = total * scale  # no observations: 0/0 is NaN when the loss divides by them
    return np.array([[total]], dtype=values.dtype)


def _regression_rule(g: Any, out: Any, y: Any, t: Any, scale: Any, kind: str, delta: float,
                     reduce: bool) -> tuple:
    if kind == "l2" and type(scale) is float and type(g) is np.ndarray and type(y) is np.ndarray \
            and type(t) is np.ndarray and g.ndim == y.ndim == t.ndim and g.dtype.kind == "f" \
            and y.dtype.kind == "f" and t.dtype.kind == "f":
        # first derivatives of real data (mse, l2loss): the products ops computes below
        gd = g * (scale * (2.0 * (y - t)))
        return (gd, lambda: -gd, None, None, None, None)
    d = ops.minus(y, t)
    if kind == "l2":
        slope = ops.times(2.0, d)
    elif kind == "l1":
        slope = np.sign(ops.data_of(d))  # piecewise constant
    else:
        raw = ops.data_of(d)
        inner = np.abs(raw) <= delta
        slope = ops.plus(ops.where(inner, d), np.where(inner, 0, delta * np.sign(raw)).astype(raw.dtype))
    gd = ops.times(g, ops.times(scale, slope))
    return (gd, lambda: ops.uminus(gd), None, None, None, None)


REGRESSION = Primitive("regression_loss", _regression, _regression_rule)


def _finish(z: DlArray, y: DlArray, form: InputForm, reduce: bool) -> DlArray:
    """A reduced loss as an unformatted scalar; unreduced values in the input's form."""
    if reduce:
        return DlArray(z.data, "", z.node)
    return output_like(DlArray(z.data, y.fmt, z.node), form)


def _targets_value(t: DlArray, y: DlArray) -> Any:
    """The targets as an argument of a loss operation: raw data (in the predictions' class
    when that is single) unless traced."""
    if t.node is not None:
        return t
    return t.data.astype(np.float32) if y.data.dtype == np.float32 else t.data


def _single_if_any(values: np.ndarray, y: np.ndarray, t: Any) -> np.ndarray:
    """Loss values are single when predictions or targets are."""
    if values.dtype == np.float64 and (y.dtype == np.float32 or getattr(t, "dtype", None) == np.float32):
        return values.astype(np.float32)
    return values


_REGRESSION_OPTIONS = ("DataFormat", "Mask", "NormalizationFactor", "Reduction", "WeightsFormat")


def _regression_loss(function: str, kind: str, args: tuple, extra: tuple[str, ...] = ()) -> Any:
    values, given = split_loss_arguments(args, _REGRESSION_OPTIONS + extra, 3)
    if len(values) < 2:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    y, t, form, data_format = prepare(values[0], values[1], given, function)
    reduce = choice(given.get("Reduction", "sum"), REDUCTIONS, function, "Reduction") == "sum"
    normalization = choice(given.get("NormalizationFactor", "batch-size"), NORMALIZATIONS,
                           function, "NormalizationFactor")
    weights = weights_array(values[2], y, data_format, given.get("WeightsFormat")) \
        if len(values) > 2 else None
    mask = mask_array(given["Mask"], y, data_format) if "Mask" in given else None
    scale = scale_factors(y, weights, mask, normalization, reduce, function)
    delta = _transition_point(given.get("TransitionPoint", 1.0)) if kind == "huber" else 0.0
    z = ops.apply(REGRESSION, y, _targets_value(t, y), scale, kind, delta, reduce)
    z = read_as_constant(z, *_untraced(values[1]), *values[2:], given.get("Mask"),
                         given.get("TransitionPoint"))
    return _finish(z, y, form, reduce)


def _untraced(targets: Any) -> tuple:
    """The targets when the loss reads them as constant data (an untraced dlarray)."""
    return (targets,) if type(targets) is DlArray and targets.node is None else ()


def _transition_point(value: Any) -> float:
    data = value.data if type(value) is DlArray else value
    arr = np.asarray(data)
    if class_of(data) not in ("double", "single") or arr.size != 1 or arr.dtype.kind == "c" \
            or not np.isfinite(arr).all() or float(arr.reshape(-1)[0]) <= 0:
        raise error("deep:huber:InvalidTransitionPoint",
                    "TransitionPoint must be a finite positive real scalar.")
    return float(arr.reshape(-1)[0])



def _half_per_observation(y: DlArray) -> float:
    """mse's factor: a half over the batch size (NaN for an empty batch: 0/0, as MATLAB's sum
    over no observations divided by none)."""
    n = y.shape[y.fmt.index("B")] if "B" in y.fmt else 1
    return 0.5 / n if n else math.nan

@builtin(dl="traced")
def mse(y: object, targets: object, *settings: object) -> object:
    """loss = mse(Y, targets)  half mean squared error: sum((Y-targets).^2)/2 divided by
    the number of observations (the size of the 'B' dimension)
    loss = mse(Y, targets, 'DataFormat', FMT)  for unformatted Y
    The result is an unformatted 1x1 dlarray.
    mse(A, B)  for numeric A and B: the mean of (A-B).^2 over the elements that are not NaN"""
    if type(y) is not DlArray and type(targets) is not DlArray and not settings:
        return _plain_mse(y, targets)
    if not settings and type(y) is DlArray and y.fmt and y.data.dtype in _REAL_FLOATS:
        t = _plain_targets(y, targets)
        if t is not None:  # formatted predictions, targets of their layout: nothing to line up
            scale = _half_per_observation(y)
            if type(t) is np.ndarray:  # plain targets: the one operation recorded directly
                return read_as_constant(_recorded_l2(y, t, scale), *_untraced(targets))
            z = ops.apply(REGRESSION, y, t, scale, "l2", 0.0, True)
            return DlArray(z.data, "", z.node)
    values, given = split_loss_arguments((y, targets, *settings), ("DataFormat",), 2)
    y_, t, form, _ = prepare(values[0], values[1], given, "mse")
    scale = _half_per_observation(y_)
    z = ops.apply(REGRESSION, y_, _targets_value(t, y_), scale, "l2", 0.0, True)
    z = read_as_constant(z, *_untraced(values[1]))
    return _finish(z, y_, form, True)


_REAL_FLOATS = (np.dtype(np.float64), np.dtype(np.float32))


def _recorded_l2(y: DlArray, t: np.ndarray, scale: float) -> DlArray:
    """The reduced l2 loss of real predictions ``y`` against plain real targets ``t``:
    what ``ops.apply(REGRESSION, ...)`` records, made at once (an unformatted 1x1 result)."""
    data = y.data
    out = _regression(data, t, scale, "l2", 0.0, True)
    node = y.node
    if node is None:
        return DlArray(out, "")
    return DlArray(out, "", Node((node, None, None, None, None, None), REGRESSION.gradient,
                                 (y, t, scale, "l2", 0.0, True), (data, t, scale, "l2", 0.0, True),
                                 out, REGRESSION))


def _plain_targets(y: DlArray, targets: object) -> Any:
    """The targets of formatted predictions ``y`` as ``mse`` passes them to its operation,
    when they need no lining up (real floating-point data of the stored shape of ``y``, plain
    or a dlarray of its format); None otherwise (the general path then checks them)."""
    if type(targets) is np.ndarray:
        data = targets
    elif type(targets) is DlArray and targets.fmt == y.fmt:
        data = targets.data
    else:
        return None
    if data.dtype not in _REAL_FLOATS or data.shape != y.data.shape or y.data.ndim > len(y.fmt):
        return None
    if type(targets) is DlArray:
        return _targets_value(targets, y)
    return data.astype(np.float32) if y.data.dtype == np.float32 else data


def _plain_mse(a: object, b: object) -> object:
    """The mean squared error of two numeric arrays (the performance-function form, which
    leaves NaN values out)."""
    for v in (a, b):
        if class_of(v) not in NUMERIC_OR_LOGICAL:
            raise error("MATLAB:mse:InvalidInput", "Inputs must be numeric or logical arrays.")
    x, z = to_array(a), to_array(b)
    for v in (x, z):
        if v.dtype.kind == "c":
            raise error("deep:dlarray:ComplexNotSupported", "Complex input data is not supported.")
    if x.shape != z.shape and x.size != 1 and z.size != 1:
        raise error("MATLAB:sizeDimensionsMustMatch", "Arrays have incompatible sizes for this operation.")
    dtype = np.float32 if np.float32 in (x.dtype, z.dtype) else np.float64
    d = x.astype(dtype) - z.astype(dtype)
    present = d[~np.isnan(d)]
    value = np.mean(present * present) if present.size else np.nan
    return np.array([[value]], dtype=dtype) if dtype == np.float32 else float(value)


@builtin(dl="traced")
def l1loss(*args: object) -> object:
    """loss = l1loss(Y, targets)  L1 loss: sum(abs(Y-targets)) divided by the number of
    observations (mean absolute error)
    loss = l1loss(Y, targets, weights)  weighted ('C', 'B' or element weights)
    Options: 'DataFormat', 'Mask', 'NormalizationFactor' ('batch-size', 'all-elements',
    'mask-included', 'none'), 'Reduction' ('sum', 'none'), 'WeightsFormat'."""
    return _regression_loss("l1loss", "l1", args)


@builtin(dl="traced")
def l2loss(*args: object) -> object:
    """loss = l2loss(Y, targets)  L2 loss: sum((Y-targets).^2) divided by the number of
    observations (mean squared error)
    loss = l2loss(Y, targets, weights)  weighted ('C', 'B' or element weights)
    Options: 'DataFormat', 'Mask', 'NormalizationFactor' ('batch-size', 'all-elements',
    'mask-included', 'none'), 'Reduction' ('sum', 'none'), 'WeightsFormat'."""
    return _regression_loss("l2loss", "l2", args)


@builtin(dl="traced")
def huber(*args: object) -> object:
    """loss = huber(Y, targets)  Huber loss: 0.5*d.^2 where abs(d) <= 1, else abs(d)-0.5,
    for d = Y-targets, summed and divided by the number of observations
    loss = huber(Y, targets, weights)  weighted ('C', 'B' or element weights)
    Options: 'TransitionPoint' (1), 'DataFormat', 'Mask', 'NormalizationFactor',
    'Reduction' ('sum', 'none'), 'WeightsFormat'."""
    return _regression_loss("huber", "huber", args, ("TransitionPoint",))


# ------------------------------------------------------ classification losses


def _bounded(y: np.ndarray) -> np.ndarray:
    """Values below eps raised to eps (log(0) never happens), as MATLAB bounds them."""
    tiny = np.finfo(y.dtype).eps
    return np.where(y < tiny, tiny, y)


def _crossentropy(y: np.ndarray, t: Any, scale: Any, multilabel: bool, reduce: str,
                  channel: int) -> np.ndarray:
    values = t * np.log(_bounded(y))
    if multilabel:
        values = values + (1 - t) * np.log(_bounded(1 - y))
    values = _single_if_any(-(values * scale), y, t)
    if reduce == "all":
        return _sum_all(values, scale)
    if reduce == "channel":
        return values.sum(axis=channel, keepdims=True).reshape(
            fix_shape(values.shape[:channel] + (1,) + values.shape[channel + 1:]))
    return values


def _bounded_op(v: Any) -> tuple[Any, np.ndarray]:
    """``v`` with values below eps replaced by eps (differentiable: slope 0 there), and
    where it was left as it was."""
    raw = ops.data_of(v)
    tiny = np.finfo(raw.dtype).eps
    kept = raw >= tiny
    kept_or_nan = kept | np.isnan(raw)
    return ops.plus(ops.where(kept_or_nan, v), np.where(kept_or_nan, 0, tiny).astype(raw.dtype)), \
        kept_or_nan


def _crossentropy_rule(g: Any, out: Any, y: Any, t: Any, scale: Any, multilabel: bool,
                       reduce: str, channel: int) -> tuple:
    p, kept = _bounded_op(y)
    gs = ops.times(g, scale)  # g expands over the channel dimension for 'channel'

    def grad_y() -> Any:
        slope = ops.where(kept, ops.rdivide(t, p))
        if multilabel:
            q, kept_q = _bounded_op(ops.minus(1.0, y))
            slope = ops.minus(slope, ops.where(kept_q, ops.rdivide(ops.minus(1.0, t), q)))
        return ops.uminus(ops.times(gs, slope))

    def grad_t() -> Any:
        logs = ops.call("log", p)
        if multilabel:
            q, _ = _bounded_op(ops.minus(1.0, y))
            logs = ops.minus(logs, ops.call("log", q))
        return ops.uminus(ops.times(gs, logs))

    return (grad_y, grad_t, None, None, None, None)


CROSSENTROPY = Primitive("crossentropy_loss", _crossentropy, _crossentropy_rule)

_CROSSENTROPY_OPTIONS = ("DataFormat", "Mask", "NormalizationFactor", "Reduction", "WeightsFormat",
                         "ClassificationMode", "TargetCategories")


def _classification_mode(given: dict[str, Any]) -> bool:
    """Whether the options ask for multi-label (independent classes) cross-entropy."""
    if "ClassificationMode" in given and "TargetCategories" in given:
        raise error("deep:dlarray:ClassificationModeTargetCategoriesClash",
                    "Specify either 'ClassificationMode' or 'TargetCategories', not both.")
    if "TargetCategories" in given:
        return choice(given["TargetCategories"], ("exclusive", "independent"), "crossentropy",
                      "TargetCategories") == "independent"
    mode = choice(given.get("ClassificationMode", "single-label"), ("single-label", "multilabel"),
                  "crossentropy", "ClassificationMode")
    return mode == "multilabel"


@builtin(dl="traced")
def crossentropy(*args: object) -> object:
    """loss = crossentropy(Y, targets)  categorical cross-entropy -sum(targets.*log(Y))
    over the 'C' dimension, summed and divided by the number of observations
    loss = crossentropy(Y, targets, weights)  weighted ('C' class weights, 'B'
    observation weights, or one weight an element)
    Options: 'ClassificationMode' ('single-label', 'multilabel': binary cross-entropy of
    independent classes), 'DataFormat', 'Mask', 'NormalizationFactor' ('batch-size',
    'all-elements', 'mask-included', 'none'), 'Reduction' ('sum', 'none'), 'WeightsFormat',
    'TargetCategories' ('exclusive', 'independent': the older form of ClassificationMode).
    Predictions below eps count as eps, so log(0) never occurs."""
    values, given = split_loss_arguments(args, _CROSSENTROPY_OPTIONS, 3)
    if len(values) < 2:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    multilabel = _classification_mode(given)
    y, t, form, data_format = prepare(values[0], values[1], given, "crossentropy", required="C")
    return _classification_loss("crossentropy", y, _targets_value(t, y), form, data_format, values,
                                given, multilabel, "elements", _untraced(values[1]))


def _classification_loss(function: str, y: DlArray, t: Any, form: InputForm,
                         data_format: str | None, values: list, given: dict[str, Any],
                         multilabel: bool, unreduced: str, read: tuple) -> DlArray:
    """The loss's operation; ``read``: its targets when it reads them as constant data."""
    reduce = choice(given.get("Reduction", "sum"), REDUCTIONS, function, "Reduction") == "sum"
    normalization = choice(given.get("NormalizationFactor", "batch-size"), NORMALIZATIONS,
                           function, "NormalizationFactor")
    weights = weights_array(values[2], y, data_format, given.get("WeightsFormat")) \
        if len(values) > 2 else None
    mask = mask_array(given["Mask"], y, data_format) if "Mask" in given else None
    scale = scale_factors(y, weights, mask, normalization, reduce, function)
    channel = y.fmt.index("C")
    mode = "all" if reduce else unreduced
    z = ops.apply(CROSSENTROPY, y, t, scale, multilabel, mode, channel)
    z = read_as_constant(z, *read, *values[2:], given.get("Mask"))
    if reduce:
        return DlArray(z.data, "", z.node)
    return output_like(DlArray(z.data, y.fmt, z.node), form)


@builtin(dl="traced")
def indexcrossentropy(*args: object) -> object:
    """loss = indexcrossentropy(Y, targets)  cross-entropy against integer class indices:
    -sum(log(Y(targets))) over the observations, divided by the number of observations
    loss = indexcrossentropy(Y, targets, weights)  weighted ('C', 'B' or element weights)
    targets has Y's size with a 'C' dimension of size 1.  Options: 'DataFormat', 'Mask',
    'NormalizationFactor', 'Reduction' ('sum', 'none': one value an observation and
    position), 'WeightsFormat'."""
    values, given = split_loss_arguments(args, _REGRESSION_OPTIONS, 3)
    if len(values) < 2:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    data_format = data_format_option(given)
    y, form = predictions(values[0], data_format, "indexcrossentropy", required="C")
    onehot = _one_hot(values[1], y, data_format)
    # (the class indices, traced or not, are read as constant one-hot targets)
    return _classification_loss("indexcrossentropy", y, onehot, form, data_format, values, given,
                                False, "channel", (values[1],))


def _one_hot(targets: Any, y: DlArray, data_format: str | None) -> np.ndarray:
    """Class indices as one-hot targets in the layout of ``y``."""
    data = as_data(targets).astype(np.float64, copy=False)
    channel = y.fmt.index("C")
    classes = y.shape[channel]
    if type(targets) is DlArray and targets.fmt:
        labelled = DlArray(data, targets.fmt)
    else:
        labelled = relabel(DlArray(data), data_format if data_format is not None else y.fmt)
    wanted = tuple(1 if k == channel else n for k, n in enumerate(y.shape))
    # the targets' labelled sizes, leaving out singletons the predictions have no label for
    given = [(label, n) for label, n in zip(labelled.fmt, labelled.shape, strict=True)
             if not (n == 1 and (label == "C" or label not in y.fmt))]
    expected = [(label, n) for label, n in zip(y.fmt, wanted, strict=True) if label != "C"]
    if given != [(label, n) for label, n in expected if not (n == 1 and label not in labelled.fmt)]:
        raise error("deep:dlarray:LossSizeMismatch",
                    "Size of targets must match the size of the predictions, with a 'C' "
                    "dimension of size 1.")
    index = labelled.data.reshape(wanted, order="F")
    if not np.all((index == np.round(index)) & (index >= 1) & (index <= classes)):
        raise error("deep:indexcrossentropy:InvalidTargets",
                    f"Targets must be integer class indices between 1 and {classes}.")
    shape = [1] * len(wanted)
    shape[channel] = classes
    onehot = (index - 1 == np.arange(classes).reshape(shape, order="F")).astype(y.data.dtype)
    return onehot.reshape(y.data.shape, order="F")


