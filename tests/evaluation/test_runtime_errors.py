"""MATLAB's identifiers and messages for the common runtime errors, and the way an
uncaught error, or a bug inside mlang, reaches the user."""

from __future__ import annotations

import io

import pytest

from mlang.errors import InternalError, MatlabError
from mlang.evaluation.interpreter import Interpreter

FUNCTIONS = """
function y = one_in(x)
    y = x + 1;
end
function y = uses_missing(a, b)
    y = a + b;
end
"""

CASES = [
    ("y = q + 1;", "MATLAB:UndefinedFunction", "Unrecognized function or variable 'q'."),
    ("y = undefined_fn(3);", "MATLAB:UndefinedFunction",
     "Unrecognized function or variable 'undefined_fn'."),
    ("x = [1 2 3]; y = x(4);", "MATLAB:badsubscript",
     "Index exceeds the number of array elements. Index must not exceed 3."),
    ("A = [1 2; 3 4]; y = A(3, 1);", "MATLAB:badsubscript",
     "Index in position 1 exceeds array bounds. Index must not exceed 2."),
    ("x = [1 2 3]; y = x(0);", "MATLAB:badsubscript",
     "Array indices must be positive integers or logical values."),
    ("x = [1 2 3]; y = x(1.5);", "MATLAB:badsubscript",
     "Array indices must be positive integers or logical values."),
    ("y = [1 2 3] + [1 2];", "MATLAB:sizeDimensionsMustMatch",
     "Arrays have incompatible sizes for this operation."),
    ("y = [1 2 3] .* [1; 2] + ones(2, 2);", "MATLAB:sizeDimensionsMustMatch",
     "Arrays have incompatible sizes for this operation."),
    ("y = [1 2 3] * [4 5 6];", "MATLAB:innerdim",
     "Incorrect dimensions for matrix multiplication. Check that the number of columns in the "
     "first matrix matches the number of rows in the second matrix. To operate on each element "
     "of the matrix individually, use TIMES (.*) for elementwise multiplication."),
    ("y = [[1 2]; [3 4 5]];", "MATLAB:catenate:dimensionMismatch",
     "Dimensions of arrays being concatenated are not consistent."),
    ("y = [[1; 2], [3; 4; 5]];", "MATLAB:catenate:dimensionMismatch",
     "Dimensions of arrays being concatenated are not consistent."),
    ("y = one_in(1, 2);", "MATLAB:TooManyInputs", "Too many input arguments."),
    ("[a, b] = one_in(1);", "MATLAB:TooManyOutputs", "Too many output arguments."),
    ("y = uses_missing(1);", "MATLAB:minrhs", "Not enough input arguments."),
    ("y = sqrt(1, 2);", "MATLAB:TooManyInputs", "Too many input arguments."),
    ("y = {1} + 1;", "MATLAB:UndefinedFunction",
     "Operator '+' is not supported for operands of type 'cell'."),
    ("y = int8(1) + int16(1);", "MATLAB:mixedClasses",
     "Integers can only be combined with integers of the same class, or scalar doubles."),
    ("x = [1 2 3]; x([1 2]) = [1 2 3];", "MATLAB:subsassignnumelmismatch",
     "Unable to perform assignment because the left and right sides have different numbers "
     "of elements."),
    ("s.a = 1; y = s.b;", "MATLAB:nonExistentField", 'Unrecognized field name "b".'),
    ("x = 5; y = x{1};", "MATLAB:cellRefFromNonCell",
     "Brace indexing is not supported for variables of this type."),
    ("x = 5; y = x.f;", "MATLAB:structRefFromNonStruct",
     "Dot indexing is not supported for variables of this type."),
    ("if [1 NaN], end", "MATLAB:nologicalnan", "NaN's cannot be converted to logicals."),
    ("y = [1 2] || 1;", "MATLAB:nonLogicalConditional",
     "Operands to the || and && operators must be convertible to logical scalar values."),
]


@pytest.mark.parametrize("code, identifier, message", CASES, ids=[c for c, _, _ in CASES])
def test_runtime_error(code, identifier, message):
    it = Interpreter(stdout=io.StringIO())
    with pytest.raises(MatlabError) as info:
        it.run_source(code + "\n" + FUNCTIONS)
    assert (info.value.identifier, info.value.message) == (identifier, message)


@pytest.mark.parametrize("code, identifier, message", CASES[:6], ids=[c for c, _, _ in CASES[:6]])
def test_runtime_errors_are_caught_by_try(code, identifier, message):
    it = Interpreter(stdout=io.StringIO())
    it.run_source(f"try\n{code}\ncatch err\n i = err.identifier; m = err.message;\nend\n" + FUNCTIONS)
    assert (it.get("i"), it.get("m")) == (identifier, message)


def test_a_bug_inside_a_builtin_is_an_internal_error_with_the_matlab_location(monkeypatch):
    from mlang.registry import BUILTINS

    def broken(*args):
        raise ZeroDivisionError("deliberate")

    monkeypatch.setattr(BUILTINS["numel"], "fn", broken)
    it = Interpreter(stdout=io.StringIO())
    with pytest.raises(InternalError) as info:
        it.run_source("a = 1;\nb = numel(a);\n", "where")
    assert "ZeroDivisionError: deliberate" in str(info.value)
    assert "where.m (line 2)" in str(info.value)


def test_python_api_converts_to_and_from_numpy():
    import numpy as np

    it = Interpreter(stdout=io.StringIO())
    it.set("A", np.array([[1.0, 2.0], [3.0, 4.0]]))
    it.set("name", "mlang")
    it.set("opts", {"rate": 0.5, "tags": ["a", "b"]})
    it.eval("B = A' * 2; n = numel(name); r = opts.rate * 4; t = opts.tags{2};")
    assert it.get("B").tolist() == [[2.0, 6.0], [4.0, 8.0]]
    assert (it.get("n"), it.get("r"), it.get("t")) == (5.0, 2.0, "b")
    assert it.call("max", np.array([3.0, 9.0, 4.0])) == 9.0
