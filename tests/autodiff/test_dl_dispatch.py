"""A builtin called with a dlarray argument gives what going through the routes of the
argument classes gives; and dlgradient given no option names takes its variables as they
are, as the option parser does."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import traced_input
from mlang.builtins.deeplearning import dlarrays
from mlang.errors import MatlabError
from mlang.registry import BUILTINS
from mlang.values.core import char_row


def _through_routes(name: str, args: list, nargout: int = 1) -> list:
    b = BUILTINS[name]
    out = b._routes_only(None, args, nargout)
    return b.invoke(None, args, nargout) if out is NotImplemented else out


def _same(a: object, b: object) -> None:
    assert type(a) is type(b)
    if type(a) is DlArray:
        assert a.fmt == b.fmt and (a.node is None) == (b.node is None)
        assert a.data.dtype == b.data.dtype
        np.testing.assert_array_equal(a.data, b.data)
        if a.node is not None:
            na, nb = a.node, b.node
            if na.op is None and nb.op is None and len(na.parents) == len(nb.parents) == 1:
                # (a result read_as_constant marked: its own identity node, over the operation's)
                na, nb = na.parents[0], nb.parents[0]
            assert na.parents == nb.parents and na.op is nb.op
    else:
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


CASES = [
    ("tanh", lambda x: [x]),
    ("plus", lambda x: [x, 2.0]),
    ("plus", lambda x: [2.0, x]),
    ("sum", lambda x: [x, 2.0]),
    ("gt", lambda x: [x, 0.0]),  # constant
    ("num2str", lambda x: [x]),  # data
    ("size", lambda x: [x]),  # native
    ("mse", lambda x: [x, DlArray(np.zeros(x.data.shape), x.fmt)]),  # traced
]


@pytest.mark.parametrize("name, make", CASES)
@pytest.mark.parametrize("data", [np.array([[1.0, -2.0, np.nan], [0.5, 3.0, 0.0]]),
                                  np.array([[1.0, 2.0]], dtype=np.float32),
                                  np.array([[True, False]]), np.zeros((0, 2))])
@pytest.mark.parametrize("traced", [False, True])
def test_call_matches_the_routes(name, make, data, traced):
    if name == "mse" and data.dtype.kind == "b":
        return
    x = DlArray(data, "CB" if name == "mse" else "")
    if traced:
        x = traced_input(x)
    args = make(x)
    b = BUILTINS[name]
    try:
        expected = _through_routes(name, list(args), 1)
    except MatlabError as exc:
        with pytest.raises(MatlabError) as info:
            b.call(None, list(args), 1)
        assert info.value.identifier == exc.identifier
        return
    got = b.call(None, list(args), 1)
    assert len(got) == len(expected)
    for a, e in zip(got, expected, strict=True):
        _same(a, e)


def test_function_undefined_for_dlarray():
    b = BUILTINS["fopen"]
    with pytest.raises(MatlabError) as info:
        b.call(None, [DlArray(np.ones((1, 1)))], 1)
    assert info.value.identifier == "MATLAB:UndefinedFunction"


@pytest.mark.parametrize("accelerated", [False, True])
def test_gradient_variables_without_option_names(accelerated):
    x = traced_input(DlArray(np.ones((2, 2))))
    variables = (x, DlArray(np.ones((1, 1))))
    fast = dlarrays._split_options(variables, accelerated)
    assert fast == ([*variables], {"RetainData": False, "EnableHigherDerivatives": accelerated,
                                   "AllowComplex": True})
    names, flags = dlarrays._split_options(variables + (char_row("RetainData"), True), accelerated)
    assert names == [*variables] and flags["RetainData"] is True
    with pytest.raises(MatlabError):
        dlarrays._split_options(variables + (char_row("Retain"),), accelerated)
