"""Robustness with dlarrays: awkward inputs give a MATLAB value or a MATLAB error.

Every builtin of the numeric and deep learning modules is called with argument
lists that hold at least one dlarray (untraced or traced, of several shapes,
classes and formats) among unusual plain values; the differentiable ones are
then differentiated.  A Python exception would reach users as an internal error.
ROBUST_N=5000 MLANG_HYPOTHESIS_RANDOM=1 runs a longer, fresh search.
"""

from __future__ import annotations

import io
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlang.autodiff.dlarray import DlArray
from mlang.autodiff.trace import backward, traced_input
from mlang.errors import RUNNING, MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.registry import load_all
from mlang.values.core import char_row

MODULES = {"shape", "construct", "rearrange", "equality", "types", "elementwise", "rounding", "integers",
           "operators", "linalg", "polynomials", "reductions", "extrema", "cumulative", "sorting",
           "sets", "find", "constants",
           "dlarrays", "activations"}
SKIP = {"dlfeval", "dlgradient"}  # need a function or a trace: tested on their own

DLARRAYS = [
    "dlarray(5)", "dlarray(-2.5)", "dlarray(0)", "dlarray([1 2 3])", "dlarray([1;2;3])",
    "dlarray([1 2;3 4])", "dlarray(zeros(0,3))", "dlarray(zeros(0,0))", "dlarray([1 NaN Inf])",
    "dlarray(single([1.5 NaN]))", "dlarray([1+2i 3])", "dlarray(rand(2,3,2))",
    "dlarray(rand(3,4),'CB')", "dlarray(rand(2,3,4),'SCB')", "dlarray(true)", "dlarray([true false])",
]
PLAIN = [
    "zeros(0,0)", "zeros(1,0)", "5", "-1", "0.5", "NaN", "Inf", "3+4i", "[1 2 3]", "[1;2;3]",
    "[1 2;3 4]", "int8([-5 0 7])", "single(2)", "true", "''", "'abc'", "'all'", "'omitnan'",
    "'like'", "\"str\"", "{}", "{1,'a'}", "struct('x',1)", "@sin", "rand(2,3,2)", "2", "3",
]


def _names() -> list[str]:
    registry = load_all()
    return sorted(name for name, entry in registry.items()
                  if entry.fn.__module__.rsplit(".", 1)[-1] in MODULES and name not in SKIP)


NAMES = _names()


@pytest.fixture(scope="module")
def interp() -> Interpreter:
    it = Interpreter(stdout=io.StringIO())
    it.eval("\n".join(f"d{k} = {src};" for k, src in enumerate(DLARRAYS)))
    it.eval("\n".join(f"p{k} = {src};" for k, src in enumerate(PLAIN)))
    return it


def _value(it: Interpreter, pick: tuple[str, int, bool]) -> object:
    kind, k, traced = pick
    v = it.base.vars[f"{kind}{k}"]
    return traced_input(v) if traced and type(v) is DlArray else v


picks = st.one_of(
    st.tuples(st.just("d"), st.integers(0, len(DLARRAYS) - 1), st.booleans()),
    st.tuples(st.just("p"), st.integers(0, len(PLAIN) - 1), st.just(False)))


@settings(max_examples=int(os.environ.get("ROBUST_N", "500")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(NAMES),
       first=st.tuples(st.just("d"), st.integers(0, len(DLARRAYS) - 1), st.booleans()),
       rest=st.lists(picks, max_size=3), position=st.integers(0, 3), nargout=st.integers(0, 2))
def test_awkward_dlarray_arguments_never_raise_python_errors(
        interp: Interpreter, name: str, first: tuple, rest: list, position: int, nargout: int) -> None:
    args = [_value(interp, p) for p in rest]
    args.insert(min(position, len(args)), _value(interp, first))
    token = RUNNING.set(interp)
    interp.dl_depth += 1  # as inside dlfeval
    try:
        outs = load_all()[name].call(interp, args, nargout)
        y = outs[0] if outs else None
        leaves = [a for a in args if type(a) is DlArray and a.node is not None]
        if type(y) is DlArray and y.node is not None and leaves:
            loss = load_all()["sum"].call(interp, [y, char_row("all")], 1)[0]
            if type(loss) is DlArray and loss.data.dtype.kind != "c" and loss.node is not None:
                backward(loss, leaves, False, True)
                backward(loss, leaves, True, True)
    except MatlabError:
        pass
    finally:
        interp.dl_depth -= 1
        RUNNING.reset(token)


SYMBOLS = ["+", "-", ".*", "./", ".\\", ".^", "*", "/", "\\", "^", "==", "<", "&", "|"]


@settings(max_examples=int(os.environ.get("ROBUST_N", "300")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(symbol=st.sampled_from(SYMBOLS),
       first=st.tuples(st.just("d"), st.integers(0, len(DLARRAYS) - 1), st.booleans()),
       other=picks, swap=st.booleans(), index=st.lists(picks, min_size=1, max_size=2))
def test_operators_indexing_and_concatenation_with_dlarrays(
        interp: Interpreter, symbol: str, first: tuple, other: tuple, swap: bool, index: list) -> None:
    from mlang.values import concat, indexing, operators

    a, b = _value(interp, first), _value(interp, other)
    if swap:
        a, b = b, a
    subscripts = [_value(interp, p) for p in index]
    token = RUNNING.set(interp)
    interp.dl_depth += 1
    try:
        for step in (lambda: operators.binary(symbol, a, b),
                     lambda: concat.concatenate([[a, b]]),
                     lambda: concat.concatenate([[a], [b]]),
                     lambda: indexing.index(a, subscripts),
                     lambda: indexing.assign(a, subscripts, b),
                     lambda: operators.transpose(a, True)):
            try:
                y = step()
            except MatlabError:
                continue
            leaves = [v for v in (a, b) if type(v) is DlArray and v.node is not None]
            if type(y) is DlArray and y.node is not None and leaves:
                loss = load_all()["sum"].call(interp, [load_all()["real"].call(interp, [y], 1)[0],
                                                       char_row("all")], 1)[0]
                try:
                    backward(loss, leaves, False, True)
                    backward(loss, leaves, True, True)
                except MatlabError:
                    pass
    finally:
        interp.dl_depth -= 1
        RUNNING.reset(token)
