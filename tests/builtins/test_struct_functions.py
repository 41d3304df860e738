"""structfun, substruct, subsref and subsasgn."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.values.cell import Cell
from mlang.values.core import char_text
from mlang.values.struct import Struct

SETUP = "s.a = 1; s.b = [2 3]; s.c = 4;"


def test_structfun_uniform(m):
    np.testing.assert_array_equal(m.value(SETUP + "x = structfun(@numel, s);"),
                                  [[1.0], [2.0], [1.0]])
    x = m.value(SETUP + "x = structfun(@(v) v(1) > 1, s);")
    assert x.dtype == bool and x.ravel().tolist() == [False, True, True]
    lo, hi = m.values(SETUP + "[lo, hi] = structfun(@(v) deal(min(v), max(v)), s);", "lo", "hi")
    np.testing.assert_array_equal(lo, [[1.0], [2.0], [4.0]])
    np.testing.assert_array_equal(hi, [[1.0], [3.0], [4.0]])
    x = m.value("s = struct(); x = structfun(@numel, s);")
    assert x.shape == (0, 1)


def test_structfun_nonuniform(m):
    x = m.value(SETUP + "x = structfun(@(v) v * 2, s, 'UniformOutput', false);")
    assert type(x) is Struct and x.fields == ["a", "b", "c"]
    np.testing.assert_array_equal(x.element(0)["b"], [[4.0, 6.0]])
    assert x.element(0)["c"] == 8.0


def test_structfun_error_handler(m):
    x = m.value(SETUP + "x = structfun(@(v) v(2), s, 'ErrorHandler', @(e, v) -e.index);")
    np.testing.assert_array_equal(x, [[-1.0], [3.0], [-3.0]])
    x = m.value(SETUP + "x = structfun(@(v) v(5), s, "
                "'ErrorHandler', @(e, v) strcmp(e.identifier, 'MATLAB:badsubscript'));")
    assert x.ravel().tolist() == [True, True, True]


def test_substruct(m):
    x = m.value("x = substruct('()', {1, ':'}, '.', 'f');")
    assert x.shape == (1, 2) and x.fields == ["type", "subs"]
    assert char_text(x.element(0)["type"]) == "()"
    assert char_text(x.element(1)["type"]) == "." and char_text(x.element(1)["subs"]) == "f"
    assert type(x.element(0)["subs"]) is Cell


def test_subsref(m):
    assert m.value("q = struct('f', {10, 20}); x = subsref(q, substruct('()', {2}, '.', 'f'));") \
        == 20.0
    assert m.value("c = {1, 'two', [3 4]}; x = subsref(c, substruct('{}', {3}, '()', {2}));") \
        == 4.0
    a, b = m.values("c = {1, 'two'}; [a, b] = subsref(c, substruct('{}', {':'}));", "a", "b")
    assert a == 1.0 and char_text(b) == "two"
    np.testing.assert_array_equal(m.value("x = subsref(magic(3), substruct('()', {2, ':'}));"),
                                  [[3.0, 5.0, 7.0]])
    assert m.value("f = @(v) v + 1; x = subsref(f, substruct('()', {5}));") == 6.0
    assert m.value("s.a.b = 3; x = subsref(s, substruct('.', 'a', '.', 'b'));") == 3.0


def test_subsasgn(m):
    x = m.value("x = subsasgn(struct('f', 1), substruct('.', 'g', '{}', {2}), 'hi');")
    assert type(x) is Struct and x.fields == ["f", "g"]
    assert char_text(x.element(0)["g"].data[0, 1]) == "hi"
    np.testing.assert_array_equal(m.value("x = subsasgn([], substruct('()', {3}), 7);"),
                                  [[0.0, 0.0, 7.0]])
    assert m.value("q = struct('f', {10, 20}); z = subsasgn(q, substruct('()', {2}, '.', 'f'), "
                   "99); x = z(2).f;") == 99.0
    np.testing.assert_array_equal(
        m.value("x = subsasgn(magic(3), substruct('()', {':', 1}), 0);"),
        [[0, 1, 6], [0, 5, 7], [0, 9, 2]])
    assert m.value("x = subsasgn(struct(), substruct('.', 'a', '.', 'b'), 5); x = x.a.b;") == 5.0


@pytest.mark.parametrize("code, identifier", [
    ("structfun(@numel, 5)", "MATLAB:structfun:NotAStruct"),
    ("structfun(@numel, struct('a', {1, 2}))", "MATLAB:structfun:StructMustBeScalar"),
    ("s.a = [1 2]; structfun(@(v) v, s)", "MATLAB:structfun:NotAScalarOutput"),
    ("s.a = 1; s.b = 'x'; structfun(@(v) v, s)", "MATLAB:structfun:MismatchInOutputTypes"),
    ("s.a = 1; structfun(@(v) {v}, s)", "MATLAB:structfun:UnimplementedOutputArrayType"),
    ("s.a = 1; structfun(@(v) v, s, 'ErrorHandler', 3)", "MATLAB:structfun:NotAFunctionHandle"),
    ("substruct('()')", "MATLAB:substruct:nargin"),
    ("substruct('[]', {1})", "MATLAB:substruct:type"),
    ("substruct('()', 1)", "MATLAB:substruct:subsCell"),
    ("substruct('.', 1)", "MATLAB:substruct:subsDotChar"),
    ("subsref(1, 2)", "MATLAB:subsArgNotStruct"),
    ("subsref(5, substruct('{}', {1}))", "MATLAB:cellRefFromNonCell"),
    ("subsref(struct('a', 1), substruct('.', 'b'))", "MATLAB:nonExistentField"),
    ("subsref([1 2], substruct('()', {3}))", "MATLAB:badsubscript"),
])
def test_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier
