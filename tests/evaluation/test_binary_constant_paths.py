"""A binary operator with a double constant or a double scalar variable on one side and an
array on the other (``2*v``, ``v/2``, ``v.^2``, ``v > k``) computes, on the compiled code's
direct path, what ``operators.binary`` computes: the same class, shape and bits, errors
included, for every kind of array (the direct path takes real double matrices only)."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.values import operators

from ..running import run

OPERATORS = ["+", "-", "*", ".*", "/", "./", ".^", "^", "==", "~=", "<", "<=", ">", ">=", "\\", ".\\"]
CONSTANTS = ["2", "0", "-0", "1e308", "0.5", "-3", "Inf", "NaN"]
ARRAYS = {
    "row": "[1.5, -2, 0, -0, Inf, -Inf, NaN, 1e308]",
    "matrix": "[1 2; -3 4.25]",
    "one": "ones(1, 1) * 3",  # a 1x1 array: a scalar result
    "empty": "zeros(1, 0)",
    "column": "[1; -2; 3]",
    "single": "single([1.5 -2 3])",
    "int8": "int8([1 -2 100])",
    "logical": "[true false true]",
    "complex": "[1+2i, -3, 0.5i]",
    "char": "'abc'",
    "nd": "ones(2, 1, 2) * 1.5",
}


def _same(a: object, b: object) -> bool:
    if type(a) is not type(b):
        return False
    if type(a) is np.ndarray:
        return a.dtype == b.dtype and a.shape == b.shape and \
            a.tobytes(order="F") == np.ascontiguousarray(b).tobytes(order="F") and \
            np.array_equal(np.signbit(np.real(a)), np.signbit(np.real(b)))
    if type(a) is float:
        return (a == b or (a != a and b != b)) and np.signbit(a) == np.signbit(b)
    return a == b


def _outcome(fn):
    try:
        return "ok", fn()
    except MatlabError as exc:
        return "error", (exc.identifier, exc.message)


def _compiled(source: str, name: str):
    def value():
        interp, _ = run(source)
        return interp.base.vars[name]
    return _outcome(value)


@pytest.mark.parametrize("kind", sorted(ARRAYS))
@pytest.mark.parametrize("op", OPERATORS)
def test_constant_and_array_either_way_round(kind, op):
    interp, _ = run(f"v = {ARRAYS[kind]};")
    v = interp.base.vars["v"]
    for text in CONSTANTS:
        c = float(text.replace("Inf", "inf").replace("NaN", "nan"))
        first = f"({text})" if text.startswith("-") else text  # (-3 .^ v is -(3 .^ v))
        for source, expected in (
                (f"v = {ARRAYS[kind]}; y = v {op} {text};", lambda c=c: operators.binary(op, v, c)),
                (f"v = {ARRAYS[kind]}; y = {first} {op} v;", lambda c=c: operators.binary(op, c, v)),
                # an operand that is no plain variable, and one that is a scalar variable
                (f"v = {ARRAYS[kind]}; y = (v + 0) {op} {text};",
                 lambda c=c: operators.binary(op, operators.binary("+", v, 0.0), c)),
                (f"v = {ARRAYS[kind]}; k = {text}; y = v {op} k;", lambda c=c: operators.binary(op, v, c))):
            got, want = _compiled(source, "y"), _outcome(expected)
            assert got[0] == want[0], source
            if got[0] == "ok":
                assert _same(got[1], want[1]), (source, got[1], want[1])
            else:
                assert got[1] == want[1], source


def test_scalars_keep_python_floats_and_guards():
    interp, _ = run("a = 3; b = a / 0; c = 0 / a; d = (-8) .^ 0.5; e = a ^ 2; f = 2 > a; g = a .^ 0.5;")
    vars = interp.base.vars
    assert vars["b"] == np.inf and type(vars["b"]) is float
    assert vars["c"] == 0.0 and not np.signbit(vars["c"])
    assert vars["d"] == operators.binary(".^", -8.0, 0.5)  # complex, by the general path
    assert vars["e"] == 9.0 and vars["f"] is False and vars["g"] == 3.0 ** 0.5


def test_results_are_fresh_arrays():
    # the constant's 0-d form is never written into, and each result is the operator's own
    interp, _ = run("v = [1 2 3]; for k = 1:3, a = v * 2; a(1) = 10 * k; b = 2 * v; end; c = v / 2;")
    vars = interp.base.vars
    assert vars["a"].tolist() == [[30.0, 4.0, 6.0]]
    assert vars["b"].tolist() == [[2.0, 4.0, 6.0]]
    assert vars["c"].tolist() == [[0.5, 1.0, 1.5]]
