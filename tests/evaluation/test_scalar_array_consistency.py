"""A double scalar computes what the same value computes as an element of an array: x^p in
a loop equals the elements of v.^p, bit for bit, whichever path the loop takes (written
as Python source, or the general closures), so a loop and its vectorised form agree."""

from __future__ import annotations

import numpy as np
import pytest

from ..running import run

BASES = "[linspace(0.01, 60, 997), -linspace(0.3, 9, 101), 0, 1, 2, 1e-300, 1e300]"
EXPONENTS = ["3", "2", "2.5", "-2", "0.5", "10", "-1", "1/3", "7"]


@pytest.mark.parametrize("power", [".^", "^"])
def test_scalar_power_in_a_loop_equals_the_elements_of_the_array_power(power):
    elementwise = ".^"  # the array's power is always the element-wise one
    interp, _ = run(f"""
    x = {BASES}; bad = [];
    for p = [{', '.join(EXPONENTS)}]
        y = x {elementwise} p;
        for i = 1:numel(x)
            t = x(i);
            s = t {power} p;
            if s ~= y(i) && ~(isnan(s) && isnan(y(i))), bad(end+1) = p; end
        end
    end
    """)
    assert np.asarray(interp.base.vars["bad"]).size == 0


def test_written_loop_powers_equal_the_array_power():
    # whole-number exponents written as literals: the loop is written as Python source
    for p in ("3", "2", "-2", "10"):
        interp, _ = run(f"""
        x = linspace(0.01, 60, 997); y = x .^ {p}; n = 0;
        for i = 1:numel(x)
            t = x(i);
            if t ^ {p} ~= y(i), n = n + 1; end
        end
        s = 0;
        for i = 1:numel(x)
            t = x(i);
            s = s + t ^ {p};
        end
        """)
        assert interp.base.vars["n"] == 0, p
        expected = 0.0
        for value in np.asarray(interp.base.vars["y"]).ravel().tolist():
            expected += value
        assert interp.base.vars["s"] == expected, p


def test_complex_and_negative_powers_keep_matlab_values():
    _, out = run("disp((-8)^(1/3)); disp(2^-1); disp((-2)^3); disp(0^-1); disp((-0)^0.5)")
    assert out.split() == ["1.0000", "+", "1.7321i", "0.5000", "-8", "Inf", "0"]


ELEMENTARY = ["sqrt", "exp", "expm1", "log", "log10", "log1p", "sin", "cos", "tan", "sec", "csc",
              "cot", "asin", "acos", "atan", "acot", "asec", "acsc", "sinh", "cosh", "tanh",
              "sech", "csch", "coth", "asinh", "acosh", "atanh"]


@pytest.mark.parametrize("name", ELEMENTARY)
def test_elementary_function_of_a_scalar_equals_the_element_of_the_array_result(name):
    # the inputs cross every real-domain edge (negative, |x| > 1, x < 1, 0, -0, Inf, NaN)
    interp, _ = run(f"""
    x = [linspace(-5, 5, 1001), 0, -0, Inf, -Inf, NaN, 1e-300, 710, -745, 1e10];
    y = {name}(x); bad = 0;
    for i = 1:numel(x)
        if ~isequaln({name}(x(i)), y(i)), bad = bad + 1; end
    end
    t = 0;
    for i = 1:numel(x)
        u = x(i);
        t = t + (u > 0 && u < 4 && {name}(u) ~= y(i));
    end
    """)
    assert interp.base.vars["bad"] == 0
    assert interp.base.vars["t"] == 0


@pytest.mark.parametrize("name, inside, outside", [("log", "[0.3 2 7]", "-1"), ("sqrt", "[0.3 2 7]", "-4"),
                                                   ("acos", "[0.3 -0.7 0.9]", "2"),
                                                   ("atanh", "[0.3 -0.7 0.9]", "-3"),
                                                   ("acosh", "[1.5 2 7]", "0.5"),
                                                   ("log1p", "[0.3 2 7]", "-2")])
def test_real_elements_keep_their_real_values_beside_complex_ones(name, inside, outside):
    interp, _ = run(f"r = {name}({inside}); c = {name}([{inside}, {outside}]);")
    real, mixed = interp.base.vars["r"], interp.base.vars["c"]
    assert mixed.dtype.kind == "c" and mixed[0, -1].imag != 0
    np.testing.assert_array_equal(mixed[0, :-1].real, real[0])
    assert not mixed[0, :-1].imag.any()


def test_the_sign_of_a_zero_power_is_one_for_every_size():
    # NumPy's square root for an exponent of 0.5 keeps -0's sign; every path passes it on
    interp, _ = run("z = -0; a = z ^ 0.5; b = z .^ 0.5; c = [z] .^ [0.5]; d = [z z] .^ 0.5; "
                    "e = power(z, 0.5); f = [z z] .^ [0.5 0.5];")
    signs = [np.signbit(np.asarray(interp.base.vars[n])).ravel().tolist() for n in "abcdef"]
    assert signs == [[True], [True], [True], [True, True], [True], [False, False]]


OPERATORS = {"+": "plus", "-": "minus", "*": "mtimes", ".*": "times", "/": "mrdivide",
             "./": "rdivide", ".^": "power", "^": "mpower", "==": "eq", "<": "lt", ">=": "ge"}


@pytest.mark.parametrize("op", sorted(OPERATORS))
def test_a_constant_before_a_variable_is_the_operator_function(op):
    # `2 * v` reads v directly (a constant written on the left): the same as the function form
    checks = "\n".join(
        f"        try, r1 = {c} {op} v; catch e1, r1 = e1.identifier; end\n"
        f"        try, r2 = {OPERATORS[op]}({c}, v); catch e2, r2 = e2.identifier; end\n"
        f"        same(end+1) = isequaln(r1, r2) && strcmp(class(r1), class(r2)) "
        f"&& isequal(signbit_of(r1), signbit_of(r2));"
        for c in ("2", "0", "0.5", "3"))  # (a minus sign before a literal is unary minus: -0 .^ v is -(0 .^ v))
    interp, _ = run(f"""
    values = {{3, -0, [1 2 3], int8([4 -5]), [true false], 'ab', [], NaN, single(2.5), 7}};
    signbit_of = @(x) isnumeric(x) && isreal(x) && ~isempty(x) && all(1 ./ double(x(:)) < 0);
    same = true(1, 0);
    for k = 1:numel(values)
        v = values{{k}};
{checks}
    end
    p = 2 {op} pi;
    """)
    assert np.asarray(interp.base.vars["same"]).size == 40
    assert np.asarray(interp.base.vars["same"]).all()
    assert interp.base.vars["p"] is not None
