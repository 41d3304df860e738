"""Bugs the program fuzzer (tests/fuzz) found, each with its minimal program."""

from __future__ import annotations

import io

import numpy as np
import pytest

from mlang.errors import MatlabError, MatlabSyntaxError
from mlang.evaluation.interpreter import Interpreter
from tests.running import run


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


@pytest.mark.parametrize("code, message", [
    ("x = 1;\nbreak", "A BREAK statement appeared outside of a loop. Use RETURN instead."),
    ("x = 1:3; continue", "A CONTINUE may only be used within a FOR or WHILE loop."),
    ("if true\n  break\nend", "A BREAK statement appeared outside of a loop. Use RETURN instead."),
    ("f()\nfunction f()\n  try\n    continue\n  end\nend",
     "A CONTINUE may only be used within a FOR or WHILE loop."),
])
def test_break_and_continue_outside_a_loop_are_syntax_errors(code: str, message: str) -> None:
    interp = Interpreter(stdout=io.StringIO())
    with pytest.raises(MatlabSyntaxError) as info:
        interp.run_source(code, "prog")
    assert info.value.message == message


def test_break_and_continue_inside_loops_still_work() -> None:
    _, out = run("s = 0; for k = 1:5, if k == 2, continue, end, if k == 4, break, end, "
                 "s = s + k; end, while true, try, break, end, end, disp(s)")
    assert out.split() == ["4"]


def test_a_name_longer_than_any_file_name_is_unrecognized() -> None:
    name = "c" * 300
    with pytest.raises(MatlabError) as info:
        run(f"x = {name};")
    assert info.value.identifier == "MATLAB:UndefinedFunction"


@pytest.mark.parametrize("make_empty", [
    "e = struct('f', 1, 'g', {});",
    "e = \"a\"; e(1) = []; e = reshape(e, 0, 0);",
])
def test_a_for_loop_over_an_empty_struct_or_string_array_runs_no_iteration(make_empty: str) -> None:
    interp, _ = run(make_empty + " n = 0; for b = e, n = n + 1; end")
    assert interp.get("n") == 0.0


def test_a_persistent_variable_used_before_its_declaration_is_a_syntax_error() -> None:
    interp = Interpreter(stdout=io.StringIO())
    code = ("disp(f())\nfunction n = f()\nif isempty(count)\n  n = 0;\nend\n"
            "persistent count\nn = 1;\nend")
    with pytest.raises(MatlabSyntaxError) as info:
        interp.run_source(code, "prog")
    assert info.value.message == "The PERSISTENT declaration must precede any use of the variable count."
    _, out = run_file_text("disp(f()); disp(f());\nfunction n = f()\npersistent count\n"
                           "if isempty(count), count = 0; end\ncount = count + 1; n = count;\nend")
    assert out.split() == ["1", "2"]


def run_file_text(text: str) -> tuple[Interpreter, str]:
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    interp.run_source(text, "prog")
    return interp, out.getvalue()


def test_a_long_row_in_a_cell_is_summarised_without_formatting_it() -> None:
    _, out = run("c = {1:1e6, [1 2 3]}")
    assert "{1×1000000 double}    {[1 2 3]}" in out


def test_char_zero_is_false_in_a_short_circuit_operator() -> None:
    _, out = run("t = char(0); if t || false, disp('yes'), else, disp('no'), end")
    assert out.split() == ["no"]


def test_char_codes_outside_the_range_saturate() -> None:
    interp, _ = run("r = double(-2:'a'); c = double(char([-2 70000 65]));")
    assert interp.get("r")[0, :3].tolist() == [0.0, 0.0, 0.0]
    assert interp.get("r")[0, -1] == 97.0
    assert interp.get("c").tolist() == [[0.0, 65535.0, 65.0]]


def test_softmax_of_an_empty_dlarray_is_empty() -> None:
    interp, _ = run("y = extractdata(softmax(dlarray(zeros(0, 3), 'CB'))); n = numel(y);")
    assert interp.get("n") == 0.0


def test_an_infinite_dimension_is_a_matlab_error() -> None:
    with pytest.raises(MatlabError) as info:
        run("A = [1 2 3; 4 5 6]; s = sum(A, 1e309);")
    assert info.value.identifier == "MATLAB:getdimarg:invalidDim"


def test_any_number_of_trailing_singleton_subscripts() -> None:
    ones = ",".join(["1"] * 111)
    interp, _ = run(f"x = [5 6]; y = x({ones}); z = zeros(2, 2); z({ones}) = 3; "
                    f"w = ones({ones}); c = x(1, 2, {ones});")
    assert interp.get("y") == 5.0 and interp.get("w") == 1.0 and interp.get("c") == 6.0
    assert interp.get("z").tolist() == [[3, 0], [0, 0]]
    with pytest.raises(MatlabError) as info:
        run(f"z = zeros(2, 2); z({ones}, 2) = 3;")
    assert info.value.identifier == "MATLAB:array:SizeLimitExceeded"


def test_engineering_format_of_the_smallest_subnormal() -> None:
    _, out = run("format shortEng; disp(eps(0)); x = [1e-320 1]")
    assert out.splitlines()[0].strip() == "4.9407e-324"
    assert "9.9999e-321" in out and "1.0000e+000" in out


def test_residue_without_fractions_is_the_direct_term() -> None:
    interp, _ = run("[b, a] = residue([], [], 2); [b0, a0] = residue([], [], []);")
    assert (interp.get("b"), interp.get("a"), interp.get("b0"), interp.get("a0")) == (2.0, 1.0, 0.0, 1.0)


def test_a_complex_value_stored_into_a_logical_array_makes_it_complex_double() -> None:
    interp, _ = run("x = true(1, 2); x(1) = 1i;")
    assert interp.get("x").tolist() == [[1j, 1 + 0j]]


def test_the_gradient_of_a_power_with_a_char_exponent_takes_its_code() -> None:
    interp, _ = run("f = @(w) dlgradient(sum(w .^ 'a'), w); g = extractdata(dlfeval(f, dlarray([1.5 2])));")
    expected = 97 * np.array([1.5, 2.0]) ** 96
    np.testing.assert_allclose(interp.get("g").ravel(), expected, rtol=1e-12)


@pytest.mark.parametrize("a, b, equal", [
    ("{dlarray([1 2])}", "{dlarray([1 2])}", True),
    ("{dlarray(1)}", "{1}", True),
    ("{dlarray(1)}", "{dlarray(2)}", False),
    ("{sparse([1 0 2])}", "{sparse([1 0 2])}", True),
    ("{sparse(1)}", "{sparse(2)}", False),
    ("{categorical({'x'})}", "{categorical({'x'})}", True),
    ("{categorical({'x'})}", "{categorical({'y'})}", False),
    ("{datetime(2020, 1, 1)}", "{datetime(2020, 1, 1)}", True),
    ("struct('a', dlarray([1 2]))", "struct('a', dlarray([1 2]))", True),
    ("table(categorical({'a'; 'b'}))", "table(categorical({'a'; 'b'}))", True),
])
def test_isequal_looks_inside_containers_at_values_of_every_class(a, b, equal) -> None:
    interp, _ = run(f"t = isequal({a}, {b}); n = isequaln({a}, {b});")
    assert interp.get("t") is equal and interp.get("n") is equal


def test_isequaln_of_nan_dlarrays_inside_a_cell() -> None:
    interp, _ = run("t = isequal({dlarray(NaN)}, {dlarray(NaN)}); n = isequaln({dlarray(NaN)}, {dlarray(NaN)});")
    assert (interp.get("t"), interp.get("n")) == (False, True)
