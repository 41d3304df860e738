"""Every way of calling a builtin gives the same outputs and errors when an argument's class
routes calls: a route that answers (a dlarray traced through dl_call) and one that declines
(a builtin that takes dlarrays as they are), for each kind of function (with or without the
interpreter and nargout), with outputs none, one or several."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff.dlarray import DlArray
from mlang.errors import MatlabError, error
from mlang.evaluation.interpreter import Interpreter
from mlang.registry import MISSING_VALUE, Builtin


def _outputs(out):
    return [o.data if type(o) is DlArray else o for o in out]


def _kinds(result, dl):
    """One builtin of each kind, all returning ``result(args)``."""
    def plain(*args):
        return result(args)

    def with_interp(interp, *args):
        return result(args)

    def with_nargout(*args, nargout=1):
        return result(args)

    def interp_nargout(interp, *args, nargout=1):
        return result(args)

    return [Builtin("f", plain, 0, None, None, "", dl=dl),
            Builtin("f", with_interp, 0, None, None, "", wants_interp=True, dl=dl),
            Builtin("f", with_nargout, 0, None, None, "", wants_nargout=True, dl=dl),
            Builtin("f", interp_nargout, 0, None, None, "", wants_interp=True, wants_nargout=True, dl=dl)]


def _every_way(b, interp, args):
    """The outputs of ``b`` called through call, direct_call and direct_value (first output)."""
    general = b.call(interp, list(args), 1)
    direct = b.direct_call(interp, len(args), 1)(interp, list(args), 1)
    value = b.direct_value(interp, len(args))(interp, list(args))
    return general, direct, value


RESULTS = {"none": lambda args: None, "one": lambda args: args[0],
           "several": lambda args: (args[0], 7.0), "empty tuple": lambda args: ()}


@pytest.mark.parametrize("dl", ["native", "differentiable", "data"])
@pytest.mark.parametrize("result", list(RESULTS))
def test_routed_calls_give_the_outputs_of_the_general_call(dl, result):
    interp = Interpreter()
    x = DlArray(np.array([[1.0, np.nan]], np.float32), "CB")
    for b in _kinds(RESULTS[result], dl):
        if dl != "native" and result in ("none", "empty tuple"):
            continue  # (a traced function gives a value)
        general, direct, value = _every_way(b, interp, [x, 2.0])
        assert type(general) is list and type(direct) is list
        assert _outputs(direct) == _outputs(general) or \
            all(np.array_equal(a, b, equal_nan=True) for a, b in zip(_outputs(direct), _outputs(general),
                                                                     strict=True))
        first = general[0] if general else MISSING_VALUE
        if first is MISSING_VALUE:
            assert value is MISSING_VALUE
        else:
            assert type(value) is type(first)
            want, got = _outputs([first, value])
            np.testing.assert_array_equal(got, want)
        if dl == "native":  # the function itself gets the dlarray as it is
            assert general and general[0] is x or not general


def test_errors_of_a_declined_route_are_labelled_with_the_function():
    def fails(*args):
        raise error("test:fails", "Fails.")

    interp = Interpreter()
    x = DlArray(np.ones((1, 2)))
    b = Builtin("fails", fails, 0, None, None, "", dl="native")
    for call in (lambda: b.call(interp, [x], 1), lambda: b.direct_call(interp, 1, 1)(interp, [x], 1),
                 lambda: b.direct_value(interp, 1)(interp, [x])):
        with pytest.raises(MatlabError) as caught:
            call()
        assert caught.value.exc.function == "fails"
        assert caught.value.exc.identifier == "test:fails"


def test_a_route_table_copy_without_a_class_follows_the_table():
    from mlang.values.objects import RouteTable

    class Kept: ...

    class LeftOut: ...

    class Later: ...

    table = RouteTable()
    table[Kept] = "kept"
    table[LeftOut] = "left out"
    copy = table.without(LeftOut)
    assert copy == {Kept: "kept"}
    table[Later] = "later"  # set after the copy was made
    table[Kept] = "replaced"
    table[LeftOut] = "still left out"
    assert copy == {Kept: "replaced", Later: "later"}
    assert dict(table) == {Kept: "replaced", LeftOut: "still left out", Later: "later"}


def test_functions_taking_dlarrays_skip_only_the_dlarray_route():
    from mlang.registry import BUILTINS, CALL_ROUTES

    for name in ("fullyconnect", "mse", "dlfeval", "dlgradient", "adamupdate"):
        routes = BUILTINS[name].routes
        assert DlArray not in routes
        assert set(routes) == set(CALL_ROUTES) - {DlArray}
    assert BUILTINS["tanh"].routes is CALL_ROUTES  # traced through the dlarray route


@pytest.mark.parametrize("way", ["call", "direct_call", "direct_value"])
def test_a_function_taking_dlarrays_still_routes_another_class_among_its_arguments(way):
    # a sparse matrix beside a dlarray: the sparse route is asked as before
    interp = Interpreter()
    seen = []

    def native(*args):
        seen.append([type(a).__name__ for a in args])
        return args[0]

    b = Builtin("g", native, 0, None, None, "", dl="native")
    x = DlArray(np.ones((2, 2)))
    interp.eval("s = sparse([1 0; 0 2]);")
    s = interp.base.vars["s"]
    args = [x, s]
    if way == "call":
        out = b.call(interp, list(args), 1)[0]
    elif way == "direct_call":
        out = b.direct_call(interp, 2, 1)(interp, list(args), 1)[0]
    else:
        out = b.direct_value(interp, 2)(interp, list(args))
    # the sparse route ran: it gives a function of no sparse method the matrix made full
    assert type(s).__name__ != "ndarray"
    assert seen == [["DlArray", "ndarray"]]
    assert type(out) is DlArray
