"""Helpers shared by the network tests: a model loss function file, errors of code run with
inputs, numbers out of dlarrays, texts out of cells, random test data."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.errors import MatlabError
from mlang.values.core import to_str

# A model loss function file: the mean squared error of a network's forward pass and its
# gradients with respect to the learnables
MODEL_LOSS = """
function [loss, grads] = modelLoss(net, X, T)
    Y = forward(net, X);
    loss = mse(Y, T);
    grads = dlgradient(loss, net.Learnables);
end
"""


def fails(m: Any, code: str, **inputs: Any) -> MatlabError:
    """The MATLAB error of ``code`` run with the workspace variables ``inputs``."""
    with pytest.raises(MatlabError) as info:
        m.run(code, **inputs)
    return info.value


def data(v: Any) -> np.ndarray:
    """The numbers of a value (a dlarray's data) as doubles."""
    return np.asarray(v.data if type(v) is DlArray else v, dtype=np.float64)


def texts(cell: Any) -> list[str]:
    """The texts of a cell array, in column-major order."""
    return [to_str(x) for x in cell.data.ravel(order="F")]


def rand(*shape: int, seed: int = 0) -> np.ndarray:
    """Standard normal numbers of this shape, the same for a given seed."""
    return np.random.default_rng(seed).standard_normal(shape)
