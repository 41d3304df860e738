"""The inputs the loss functions share: predictions, targets, weights and masks brought to
one layout, the name=value options they take, and the normalisation factor of a reduced
loss.

Every loss works on its predictions as a formatted dlarray in canonical label order (see
``formats.formatted_input``).  Targets and masks take the predictions' format unless they
bring their own; weights may label a subset of the dimensions ('C' class weights, 'B'
observation weights) and are expanded along the others.  Weights and masks enter the
computation as one constant array of scale factors (with the normalisation folded in), so
each loss is a single recorded operation.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray, as_data, check_format
from mlang.builtins.coerce import options, text_scalar
from mlang.builtins.deeplearning.formats import (
    InputForm,
    data_format_option,
    formatted_input,
    relabel,
)
from mlang.errors import error
from mlang.values.core import class_of, fix_shape

NORMALIZATIONS = ("batch-size", "all-elements", "mask-included", "none")
REDUCTIONS = ("sum", "none")


def choice(value: object, allowed: tuple[str, ...], function: str, option: str) -> str:
    """A text option matched against ``allowed`` as validatestring does (case ignored,
    a leading part enough when it names one choice)."""
    if type(value) is str:  # a default
        return value
    text = text_scalar(value, option).lower() if class_of(value) in ("char", "string") else None
    if text:
        exact = [a for a in allowed if a == text]
        partial = [a for a in allowed if a.startswith(text)]
        if exact or len(partial) == 1:
            return (exact or partial)[0]
    listed = ", ".join(f"'{a}'" for a in allowed)
    raise error(f"MATLAB:{function}:unrecognizedStringChoice",
                f"Expected {option} to match one of these values:\n\n{listed}\n\n"
                f"The input did not match any of the valid values.")


def split_loss_arguments(args: tuple, names: tuple[str, ...],
                         positional: int) -> tuple[list, dict[str, Any]]:
    """The positional arguments (predictions, targets and, when ``positional`` is 3, the
    weights: the third argument unless it is text) and the parsed name=value options."""
    count = min(2, len(args))
    if positional > 2 and len(args) > 2 and class_of(args[2]) not in ("char", "string"):
        count = 3
    rest = args[count:]
    if rest and class_of(rest[0]) not in ("char", "string"):
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    return list(args[:count]), options(rest, names)


def prepare(y_in: Any, targets: Any, given: dict[str, Any], function: str,
            required: str = "") -> tuple[DlArray, Any, InputForm, str | None]:
    """Predictions as a formatted dlarray in canonical order, the targets in the same
    layout (a dlarray, traced when given traced), the input's form and the DataFormat."""
    data_format = data_format_option(given)
    y, form = predictions(y_in, data_format, function, required)
    t = align(targets, y, data_format)
    if t.shape != y.shape:
        raise _size_mismatch()
    return y, t, form, data_format


def predictions(y_in: Any, data_format: str | None, function: str,
                required: str = "") -> tuple[DlArray, InputForm]:
    """The predictions as a formatted dlarray in canonical order: single or double data."""
    _check_values(y_in)
    if class_of(y_in.data if type(y_in) is DlArray else y_in) == "logical":
        raise error("deep:dlarray:LogicalsNotSupported", "Logical input data is not supported.")
    return formatted_input(y_in, data_format, function, required=required)


def _check_values(v: Any) -> None:
    data = v.data if type(v) is DlArray else v
    if type(data) is np.ndarray and data.dtype.kind == "c" or type(data) is complex:
        raise error("deep:dlarray:ComplexNotSupported", "Complex input data is not supported.")


def _size_mismatch() -> Exception:
    return error("deep:dlarray:LossSizeMismatch",
                 "Size of predictions and targets must match.")


def align(value: Any, y: DlArray, data_format: str | None) -> DlArray:
    """A targets-like argument in the layout of the predictions ``y``: a formatted dlarray
    keeps its labels (which must be those of ``y``); anything else takes the DataFormat
    option's labels, or those of ``y``."""
    _check_values(value)
    if type(value) is DlArray and value.fmt:
        if value.fmt != y.fmt:
            raise error("deep:dlarray:LossDescriptorMismatch",
                        "Format of predictions and targets must match.")
        return value
    if class_of(value) == "logical":
        raise error("deep:dlarray:LogicalsNotSupported", "Logical input data is not supported.")
    base = value if type(value) is DlArray else DlArray(as_data(value))
    labels = data_format if data_format is not None else y.fmt
    if len(fix_shape(base.data.shape)) > max(len(labels), 2):
        raise _size_mismatch()  # more dimensions than the predictions have labels
    return relabel(base, labels)


def expand_like(value: Any, labels: str, y: DlArray, what: str) -> np.ndarray:
    """A constant array (weights, mask) labelled ``labels`` (canonical order) expanded to
    the stored shape of ``y``: each of its dimensions must be that of ``y`` or 1."""
    data = np.asarray(value, dtype=np.float64)
    full = list(data.shape) + [1] * (len(labels) - data.ndim)
    if any(n != 1 for n in full[len(labels):]):
        raise _weights_error(what)
    # both label strings are in canonical order, so the labelled dimensions keep their
    # order in y: a column-major reshape puts each in its place
    target = [1] * len(y.fmt)
    used: list[int] = []
    for k, label in enumerate(labels):
        position = next((i for i, lab in enumerate(y.fmt) if lab == label and i not in used), None)
        if position is None:
            if full[k] != 1:
                raise _weights_error(what)
            continue
        used.append(position)
        target[position] = full[k]
    shape = y.shape
    if any(t not in (1, s) for t, s in zip(target, shape, strict=True)):
        raise _weights_error(what)
    expanded = np.broadcast_to(data.reshape(target, order="F"), shape)
    return np.array(expanded.reshape(y.data.shape, order="F"))


def _weights_error(what: str) -> Exception:
    return error("deep:dlarray:LossWeightsSizeMismatch",
                 f"Size of {what} must match the size of the predictions, or be 1, in each "
                 "dimension.")


def weights_array(weights: Any, y: DlArray, data_format: str | None,
                  weights_format: Any) -> np.ndarray:
    """The weights as factors of ``y``'s elements: labelled by their own format, by the
    WeightsFormat option, or (unformatted) as an array of ``y``'s size, a vector of class
    weights (the 'C' size) or of observation weights (the 'B' size)."""
    _check_values(weights)
    data = as_data(weights)
    if type(weights) is DlArray and weights.fmt:
        if weights_format is not None:
            raise error("deep:dlarray:LossWeightsFormatFormattedInput",
                        "Weights must be unformatted when specifying the 'WeightsFormat' option.")
        return expand_like(data, weights.fmt, y, "weights")
    if weights_format is not None:
        labelled = relabel(DlArray(data), check_format(text_scalar(weights_format, "WeightsFormat")))
        return expand_like(labelled.data, labelled.fmt, y, "weights")
    if data.size == int(np.prod(y.shape)) and data.ndim > 1 and sum(n > 1 for n in data.shape) > 1:
        labelled = relabel(DlArray(data), data_format if data_format is not None else y.fmt)
        return expand_like(labelled.data, labelled.fmt, y, "weights")
    if sum(n > 1 for n in data.shape) <= 1:
        n = data.size
        for label in "CB":
            if label in y.fmt and y.shape[y.fmt.index(label)] == n:
                return expand_like(data.reshape(-1), label, y, "weights")
        if n == 1:
            return np.full(y.data.shape, float(data.reshape(-1)[0]))
    raise _weights_error("weights")


def mask_array(mask: Any, y: DlArray, data_format: str | None) -> np.ndarray:
    """The mask as 0/1 factors of ``y``'s elements (its own format, else that of ``y``)."""
    _check_values(mask)
    data = as_data(mask)
    if type(mask) is DlArray and mask.fmt:
        return expand_like(data != 0, mask.fmt, y, "mask")
    labelled = relabel(DlArray(data), data_format if data_format is not None else y.fmt)
    return expand_like(labelled.data != 0, labelled.fmt, y, "mask")


def observations(y: DlArray) -> int:
    """The number of observations: the size of the 'B' dimension (1 without one)."""
    return y.shape[y.fmt.index("B")] if "B" in y.fmt else 1


def divisor(kind: str, y: DlArray, mask: np.ndarray | None, function: str) -> float | np.ndarray:
    """What a summed loss is divided by: a number, or (mask-included) one count of
    included elements a observation, shaped to expand over ``y``'s data."""
    if kind == "batch-size":
        return float(observations(y))
    if kind == "all-elements":
        return float(np.prod(y.shape))
    if kind == "none":
        return 1.0
    if mask is None:
        raise error(f"deep:{function}:MaskIncludedWithoutMask",
                    "To use the 'mask-included' normalization factor, specify the 'Mask' option.")
    if "B" not in y.fmt:
        return max(float(mask.sum()), 1.0)
    b = y.fmt.index("B")
    full = mask.reshape(y.shape, order="F")
    axes = tuple(k for k in range(full.ndim) if k != b)
    counts = full.sum(axis=axes, keepdims=True)
    counts = np.maximum(counts, 1.0)  # an observation with nothing included adds nothing
    return np.broadcast_to(counts, full.shape).reshape(y.data.shape, order="F")


def scale_factors(y: DlArray, weights: np.ndarray | None, mask: np.ndarray | None,
                  normalization: str, reduce: bool, function: str) -> Any:
    """The constant factors of a loss's elements: weights times mask, divided by the
    normalisation factor when the loss is reduced.  A Python float when they are all one
    number (the common case: no weights, no mask)."""
    dtype = y.data.dtype if y.data.dtype.kind == "f" else np.dtype(np.float64)
    scale: Any = 1.0
    if weights is not None:
        scale = weights
    if mask is not None:
        scale = scale * mask
    if reduce:
        n = divisor(normalization, y, mask, function)
        # no observations: the sum over none (0) divided by none is NaN
        scale = scale * math.nan if type(n) in (int, float) and n == 0 else scale / n
    if type(scale) is float:
        return scale
    return np.asarray(scale, dtype=dtype)
