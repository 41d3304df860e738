"""The argument coercers (mlang/builtins/coerce.py): what each kind accepts, and the one
error identifier and message each kind of bad argument gets."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace

import numpy as np
import pytest

from mlang.builtins import coerce
from mlang.errors import RUNNING, MatlabError
from mlang.values.cell import Cell
from mlang.values.core import CHAR, char_matrix, char_row
from mlang.values.string import StringArray


def cell(*items: object) -> Cell:
    data = np.empty((1, len(items)), dtype=object)
    for k, x in enumerate(items):
        data[0, k] = x
    return Cell(data)


def strings(*items: str | None) -> StringArray:
    return StringArray(np.array([list(items)], dtype=object))


def failure(fn, *args, **kwargs) -> tuple[str, str]:
    with pytest.raises(MatlabError) as info:
        fn(*args, **kwargs)
    return info.value.identifier, info.value.message


# ---------------------------------------------------------------------- texts


def test_text_scalars():
    assert coerce.text_scalar(char_row("abc")) == "abc"
    assert coerce.text_scalar(np.zeros((0, 0), dtype=CHAR)) == ""
    assert coerce.text_scalar(strings("xy")) == "xy"
    assert coerce.text_scalar(strings(None)) == ""
    assert coerce.text_option(char_row("ALL")) == "all"
    assert coerce.text_or_none(3.0) is None
    assert coerce.text_or_none(char_matrix(["a", "b"])) is None


@pytest.mark.parametrize("value", [3.0, char_matrix(["a", "b"]), strings("a", "b"),
                                   cell(char_row("a"))])
def test_a_bad_text_scalar_has_one_error(value):
    assert failure(coerce.text_scalar, value, "Pattern") == \
        ("MATLAB:invalidInput", "Pattern must be a character vector or string scalar.")


def test_text_lists():
    assert coerce.text_list(char_row("a")) == ["a"]
    assert coerce.text_list(cell(char_row("a"), char_row("bc"))) == ["a", "bc"]
    assert coerce.text_list(strings("a", None)) == ["a", ""]
    rows = char_matrix(["ab ", "cde"])
    assert coerce.text_list(rows, char_rows_allowed=True) == ["ab", "cde"]
    texts = coerce.text_array(cell(char_row("a"), char_row("b")))
    assert (texts.kind, texts.shape, texts.items) == ("cell", (1, 2), ["a", "b"])


@pytest.mark.parametrize("value", [3.0, cell(1.0), cell(strings("a")),
                                   char_matrix(["ab", "cd"])])
def test_a_bad_list_of_texts_has_one_error(value):
    expected = ("MATLAB:invalidInput", "Names must be a string array, character vector, or cell "
                                        "array of character vectors.")
    assert failure(coerce.text_list, value, "Names") == expected
    assert failure(coerce.text_array, value, "Names") == expected


# ---------------------------------------------------------------- dimensions


def test_dimensions():
    assert coerce.dim_argument(2.0) == 1
    assert coerce.dims_argument(np.array([[3.0, 1.0]])) == [2, 0]
    assert coerce.dims_argument(np.array([[1.0, 1.0]]), repeats=True) == [0, 0]
    for bad in (0.0, 1.5, np.array([[1.0, 2.0]]), cell(1.0), 1 + 2j):
        identifier, message = failure(coerce.dim_argument, bad)
        assert identifier == "MATLAB:getdimarg:invalidDim"
        assert message == "Dimension argument must be a positive integer scalar within indexing range."
    assert failure(coerce.dims_argument, np.array([[1.0, 1.0]])) == (
        "MATLAB:getdimarg:invalidDim",
        "Dimension argument must be a positive integer scalar or a vector of unique positive integers.")


# ------------------------------------------------------------ name=value options


def test_options():
    args = (char_row("ignorecase"), True, char_row("Other"), 2.0)
    assert coerce.options(args, ("IgnoreCase", "Other")) == {"IgnoreCase": True, "Other": 2.0}
    assert coerce.options((char_row("Uni"), False), ("UniformOutput",), partial=True) == \
        {"UniformOutput": False}
    data, given = coerce.split_options((1.0, 2.0, char_row("Mode"), 3.0), ("Mode",))
    assert (data, given) == ([1.0, 2.0], {"Mode": 3.0})
    assert coerce.option_flag(1.0) is True


def test_bad_options():
    assert failure(coerce.options, (char_row("Mode"),), ("Mode",)) == \
        ("MATLAB:InputParser:ParamMissingValue", "Parameter names must be followed by values.")
    assert failure(coerce.options, (char_row("Bogus"), 1.0), ("Mode",)) == \
        ("MATLAB:InputParser:UnmatchedParameter", "'Bogus' is not a recognized parameter.")
    assert failure(coerce.options, (3.0, 1.0), ("Mode",)) == \
        ("MATLAB:invalidInput", "Parameter name must be a character vector or string scalar.")
    assert failure(coerce.option_flag, char_row("yes"), "IgnoreCase") == \
        ("MATLAB:InputParser:ArgumentFailedValidation", "IgnoreCase must be a logical scalar.")


# ---------------------------------------------------------------------- sizes


def test_sizes():
    assert coerce.size_arguments([]) == (1, 1)
    assert coerce.size_arguments([3.0]) == (3, 3)
    assert coerce.size_arguments([2.0, -1.0]) == (2, 0)
    assert coerce.size_arguments([np.array([[2.0, 3.0, 4.0]])]) == (2, 3, 4)
    assert coerce.size_arguments([np.zeros((0, 0))]) == (0, 0)
    assert coerce.size_arguments([2 + 1j, True]) == (2, 1)
    assert coerce.sizes_and_class([2.0, char_row("int8")], ("double", "int8")) == ([2.0], "int8")
    assert coerce.sizes_and_class([2.0, char_row("like"), char_row("a")], ("double",)) == \
        ([2.0], "double")


@contextmanager
def patch_limit(nbytes: int) -> Iterator[None]:
    """Run as if a session with this maximum array size were running."""
    token = RUNNING.set(SimpleNamespace(max_array_bytes=nbytes, warn=lambda *a: None))
    try:
        yield
    finally:
        RUNNING.reset(token)


@pytest.mark.parametrize("args, identifier, message", [
    ([cell(1.0)], "MATLAB:NonNumericInput", "Size inputs must be numeric."),
    ([np.ones((2, 2))], "MATLAB:NonVectorInput", "Size vector must be a row vector with real elements."),
    ([2.0, np.ones((1, 2))], "MATLAB:NonScalarInput", "Size inputs must be scalar."),
    ([1.5], "MATLAB:NonIntegerInput", "Size inputs must be integers."),
    ([np.array([[np.inf]])], "MATLAB:NonIntegerInput", "Size inputs must be integers."),
    ([2.0 ** 50, 2.0], "MATLAB:array:SizeLimitExceeded",
     "Requested 1125899906842624x2 array exceeds maximum array size preference."),
    ([1e5, 1e5], "MATLAB:array:SizeLimitExceeded",
     "Requested 100000x100000 (74.5GB) array exceeds maximum array size preference (8.0GB). "
     "This might cause MATLAB to become unresponsive."),
])
def test_bad_sizes(args, identifier, message):
    # The size check reads the session's maximum array size: no interpreter runs here,
    # so fix the default for the message.
    with patch_limit(8 * 2**30):
        assert failure(coerce.size_arguments, args) == (identifier, message)


def test_a_class_not_allowed():
    assert failure(coerce.sizes_and_class, [2.0, char_row("int8")], ("double", "single")) == \
        ("MATLAB:invalidClassName", "Class name must be 'double' or 'single'.")
