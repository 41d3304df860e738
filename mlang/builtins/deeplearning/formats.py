"""Data formats for the deep learning operations: one way for every operation to read
its input's layout and to give its output in the input's form.

An operation (fullyconnect, dlconv, batchnorm, the losses...) works on a formatted
dlarray in MATLAB's canonical label order (S..., C, B, T, U...), so it finds a
dimension by its label (``fmt.index('C')``).  ``formatted_input`` gives it one from
any input: a formatted dlarray as it is; an unformatted dlarray or a numeric array
labelled by the ``DataFormat`` option (permuted to canonical order when the option's
order is another, and recorded in the trace when traced).  ``output_like`` turns the
result back into the input's form: formatted for a formatted input; for an unformatted
input, an unformatted dlarray with its dimensions in the order the ``DataFormat``
option gave them (numeric inputs give dlarrays too, as in MATLAB).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mlang.autodiff import ops
from mlang.autodiff.dlarray import DlArray, as_data, check_format, format_plan
from mlang.builtins.coerce import text_scalar
from mlang.errors import error
from mlang.values.core import fix_shape


@dataclass(frozen=True, slots=True)
class InputForm:
    """How an operation's input was given: formatted or not, and the order of the labels
    the DataFormat option gave (for an unformatted input)."""

    was_formatted: bool
    given_order: str = ""


def data_format_option(given: dict[str, Any]) -> str | None:
    """The validated ``DataFormat`` option of a parsed name=value dictionary (None: absent)."""
    if "DataFormat" not in given:
        return None
    return check_format(text_scalar(given["DataFormat"], "DataFormat"))


def formatted_input(x: Any, data_format: str | None, function: str,
                    required: str = "") -> tuple[DlArray, InputForm]:
    """``x`` as a formatted dlarray in canonical label order, and how it was given
    (``function`` names the operation in errors it reports itself).

    ``data_format`` is the DataFormat option (None when not given); ``required`` lists
    labels the operation needs (e.g. "C"): MATLAB's error when one is missing."""
    if type(x) is DlArray and x.fmt:
        if data_format is not None:
            raise error("deep:dlarray:DataFormatFormattedInput",
                        "Input data must be an unformatted dlarray or numeric array when "
                        "specifying the 'DataFormat' option.")
        y, form = x, InputForm(True)
    else:
        if data_format is None:
            raise error("deep:dlarray:UnformattedInput",
                        "Input data must be a formatted dlarray, or specify the data format "
                        "using the 'DataFormat' option.")
        base = x if type(x) is DlArray else DlArray(as_data(x))
        y, form = relabel(base, data_format), InputForm(False, data_format)
    missing = [label for label in required if label not in y.fmt]
    if missing:
        raise error("deep:dlarray:MissingDimension",
                    f"Input data must have a '{missing[0]}' dimension.")
    return y, form


def relabel(x: DlArray, labels: str) -> DlArray:
    """An unformatted dlarray given the format ``labels`` (in its data's dimension order):
    reshaped and permuted to canonical order, recorded in the trace when traced."""
    full_shape, order, fmt_sorted = format_plan(x.data.shape, labels)
    shape = fix_shape(full_shape)
    y = x if shape == x.data.shape else ops.reshape_to(x, shape)
    if order is not None:
        y = ops.call("permute", y, np.array([[k + 1.0 for k in order]]))
    return DlArray(ops.data_of(y) if type(y) is not DlArray else y.data, fmt_sorted,
                   y.node if type(y) is DlArray else None)


def output_like(y: DlArray, form: InputForm) -> DlArray:
    """The result of an operation in the form its input was given in."""
    if form.was_formatted or not y.fmt:
        return y
    # an unformatted input: the output's labels in the order the DataFormat option gave
    # them (labels the option did not name keep their canonical place after them)
    present = y.fmt
    order_labels = [label for label in form.given_order if label in present]
    wanted = _ordered(present, order_labels)
    if wanted != present:
        positions = _permutation(present, wanted)
        z = ops.call("permute", DlArray(y.data, "", y.node), np.array([[p + 1.0 for p in positions]]))
        return DlArray(z.data, "", z.node)
    return DlArray(y.data, "", y.node)


def _ordered(present: str, order_labels: list[str]) -> str:
    """``present``'s labels rearranged: those of ``order_labels`` first, in that order
    (each occurrence used once), then the rest in canonical order."""
    remaining = list(present)
    out = []
    for label in order_labels:
        if label in remaining:
            remaining.remove(label)
            out.append(label)
    return "".join(out + remaining)


def _permutation(present: str, wanted: str) -> list[int]:
    """The positions in ``present`` of each label of ``wanted`` (repeated labels in order)."""
    used: list[int] = []
    for label in wanted:
        k = next(i for i, lab in enumerate(present) if lab == label and i not in used)
        used.append(k)
    return used


def in_label_order(x: DlArray, labels: str) -> DlArray:
    """A formatted dlarray as an unformatted one with its dimensions in the order of
    ``labels`` (stripdims(X, FMT)): ``labels`` holds the same labels as X's format."""
    labels = check_format(labels)
    if sorted(labels) != sorted(x.fmt):
        raise error("deep:dlarray:InvalidFormat",
                    f"Invalid data format '{labels}'. The format must contain the same "
                    f"dimension labels as the input data ('{x.fmt}').")
    return output_like(x, InputForm(False, labels))
