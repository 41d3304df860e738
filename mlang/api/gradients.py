"""Session.grad: a MATLAB loss and its gradients through dlfeval/dlgradient, as NumPy.

The parameters become dlarrays (a dict: a struct of dlarrays), dlfeval traces a call of
the loss on them, and dlgradient differentiates it inside that call, exactly as a MATLAB
training loop would write ``[loss, g] = dlfeval(@modelLoss, w, X, Y)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from mlang.api.conversions import from_matlab, to_matlab
from mlang.autodiff.dlarray import DlArray
from mlang.errors import error
from mlang.values.objects import MatlabObject
from mlang.values.struct import Struct


class _TracedCall(MatlabObject):
    """A Python function given MATLAB values as they are (traced dlarrays stay traced),
    for dlfeval to call."""

    matlab_class = "function_handle"
    __slots__ = ("run",)

    def __init__(self, run: Callable[[Any, list, int], list]) -> None:
        self.run = run

    def call_as_function(self, interp: Any, args: list, nargout: int) -> list:
        return self.run(interp, args, nargout)


def as_dlarray(value: Any, session: Any) -> Any:
    """A parameter as dlfeval needs it: numbers as a double (or single) dlarray; a dict
    as a struct of them; a dlarray as it is."""
    if type(value) is DlArray:
        return value
    if isinstance(value, Mapping):
        return Struct.scalar({k: as_dlarray(x, session) for k, x in value.items()})
    matlab = to_matlab(value, session)
    data = np.asarray(matlab)
    if data.dtype.kind not in "fc":
        data = data.astype(np.float64)
    if data.ndim < 2:
        data = data.reshape(1, 1)
    return DlArray(data)


def _shaped_like(gradient: Any, param: Any) -> Any:
    """A gradient in the shape of the parameter the caller gave (a 1-D array stays 1-D,
    a float gives a float)."""
    if isinstance(param, Mapping) and isinstance(gradient, dict):
        return {k: _shaped_like(gradient[k], param[k]) if k in gradient else None for k in param}
    if isinstance(param, float | int) and not isinstance(param, bool):
        return float(np.real(gradient))
    if isinstance(param, (np.ndarray, list, tuple)):
        shape = np.shape(param)
        grad = np.asarray(gradient)
        if grad.size == int(np.prod(shape)):
            return grad.reshape(shape)
    return gradient


def value_and_gradients(session: Any, loss: Any, params: list, data: list) -> tuple[float, list]:
    """``(loss, gradients)`` of ``loss(params..., data...)`` (see Session.grad)."""
    if not params:
        raise error("MATLAB:minrhs", "Not enough input arguments.")
    interp = session.interpreter
    count = len(params)

    def loss_and_gradients(interp: Any, args: list, nargout: int) -> list:
        value = interp.call_value(loss, args, 1)
        if not value:
            raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
        gradients = interp.invoke(interp.resolve("dlgradient"), [value[0], *args[:count]], count)
        return [value[0], *gradients]

    traced = [as_dlarray(p, session) for p in params]
    extra = [to_matlab(d, session) for d in data]
    with interp.running():
        out = interp.invoke(interp.resolve("dlfeval"), [_TracedCall(loss_and_gradients), *traced, *extra],
                            count + 1, interp.base)
    value = out[0].data if type(out[0]) is DlArray else np.asarray(out[0])
    if np.size(value) != 1:
        raise error("deep:dlgradient:ValueNotScalar",
                    "Value to differentiate must be a traced real dlarray scalar.")
    gradients = [_shaped_like(from_matlab(g, session), p) for g, p in zip(out[1:], params, strict=True)]
    return float(np.real(np.asarray(value).reshape(-1)[0])), gradients
