"""Bugs the program fuzzer (tests/fuzz) found, each with its minimal program."""

from __future__ import annotations

import io

import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter


def run(code: str) -> tuple[Interpreter, str]:
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    interp.eval(code)
    return interp, out.getvalue()


def test_format_rat_shows_a_subnormal_number() -> None:
    _, out = run("format rat; y = [4/3 eps(-0)]")
    assert out == "\ny =\n\n   4/3     0\n\n"


def test_dec2hex_below_the_int64_range_is_a_matlab_error() -> None:
    with pytest.raises(MatlabError) as info:
        run("dec2hex(-1e300, 3)")
    assert info.value.identifier == "MATLAB:dec2hex:NegativeInput"
    _, out = run("h = dec2hex(-1)")
    assert "'FF'" in out


def test_softmax_of_logical_data_computes_as_double() -> None:
    interp, _ = run("s = extractdata(softmax(dlarray([true; false], 'CB')));")
    s = interp.get("s")
    assert s.shape == (2, 1)
    assert abs(s[0, 0] - 0.7310585786300049) < 1e-12 and abs(s.sum() - 1.0) < 1e-12


@pytest.mark.parametrize("code", ["h = true(1e308, 0);", "z = zeros(0, 1e300);", "c = cell(1e20, 0);"])
def test_an_empty_array_with_a_huge_dimension_is_a_matlab_error(code: str) -> None:
    with pytest.raises(MatlabError) as info:
        run(code)
    assert info.value.identifier == "MATLAB:array:SizeLimitExceeded"
