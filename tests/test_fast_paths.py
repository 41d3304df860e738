"""The evaluator's fast paths give what the general paths give.

Each case runs twice: as written, where the fast path applies, and with the
fast path switched off (the module's reference counter made to report a
shared value, or the compiled shortcut left out), so the general path runs;
values, classes and errors must agree.
"""

from __future__ import annotations

import io
import types

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.evaluation.compiler import element_stores
from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import class_of

ALWAYS_SHARED = types.SimpleNamespace(getrefcount=lambda obj: 1000)


def outcome(code: str, names: list[str]) -> tuple:
    """(the named variables' classes and values, or the error identifier) after ``code``."""
    interp = Interpreter(stdout=io.StringIO())
    try:
        interp.run_source(code)
    except MatlabError as exc:
        return ("error", exc.identifier)
    found = []
    for name in names:
        v = interp.base.vars.get(name)
        found.append((class_of(v) if v is not None else None, _plain(v)))
    return tuple(found)


def _plain(v: object) -> object:
    """A comparable form of a value (struct arrays as shape and field dicts)."""
    fields = getattr(v, "fields", None)
    if fields is not None and hasattr(v, "elems"):
        return (tuple(v.elems.shape), list(fields),
                [{k: _plain(d[k]) for k in fields} for d in v.elems.reshape(-1, order="F")])
    if type(v) is np.ndarray:
        return (v.shape, str(v.dtype), v.tolist())
    return repr(v)


def both_ways(monkeypatch: pytest.MonkeyPatch, module: types.ModuleType, code: str,
              names: list[str]) -> tuple:
    fast = outcome(code, names)
    with monkeypatch.context() as m:
        m.setattr(module, "sys", ALWAYS_SHARED)
        general = outcome(code, names)
    assert fast == general
    return fast


STRUCT_CASES = [
    "s = struct('a', {}, 'b', {}); for i = 1:20, s(i).a = i; s(i).b = s(i).a * 2; end",
    "s = struct('a', {1; 2}); for i = 1:5, s(i).a = -i; end",  # a column grows as a column
    "s = struct('a', {}); s(1).a = 'x'; s(2).a = {1}; s(3).a = int8(4); s(2).a = NaN;",
    "s = struct('a', {1 2 3}); t = s; s(2).a = 9; r = t(2).a;",  # a shared array is not changed
    "s = struct('a', {1 2 3}); s(2).b = 5;",  # a new field: every element has it
    "s = struct('a', {1 2; 3 4}); s(3).a = 0;",
    "s = struct('a', {1 2; 3 4}); s(5).a = 0;",  # ambiguous growth: the error
    "s = struct('a', {1 2}); s(0).a = 1;",
    "s = struct('a', {1 2}); s(1.5).a = 1;",
    "s = struct('a', {1 2}); s(NaN).a = 1;",
    "s = struct('a', {1 2}); s(4).a = 1;",  # a gap: filled with empty elements
    "s = struct('a', {1 2}); s(end+1).a = 3; s(end).a = 4;",
    "s = struct('a', {1 2}); r = reshape(s, 2, 1); r(1).a = 7;",  # a view of shared elements
    "s = struct('a', {1 2 3}); for e = s, e.a = 0; end",
    "s = 5; s(2).a = 1;",  # not a struct
    "clear s; s(3).a = 1;",
    "s = struct('a', {1 2}); q = s(1:2); q(1).a = 42;",
]


@pytest.mark.parametrize("code", STRUCT_CASES)
def test_struct_element_field_stores(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    both_ways(monkeypatch, element_stores, code, ["s", "t", "r", "q", "e"])


def test_struct_array_filled_in_a_loop_is_right() -> None:
    found = outcome("s = struct('a', {}); for i = 1:50, s(i).a = i; end; "
                    "t = s; s(10).a = -1; n = numel(s); r = t(10).a; u = s(10).a;",
                    ["n", "r", "u"])
    assert [v for _, v in found] == ["50.0", "10.0", "-1.0"]
