"""Two double scalars (Python floats) given to an operator's general entry point
(``operators.binary``: the functional forms plus, minus, times, power, eq..., and every
caller of ``binary`` such as arrayfun with @plus) are computed directly, as the evaluator
computes ``a + b``.  The result must be what the array path gives for the same values:
the same class, value, NaN and sign of zero, and a complex result where MATLAB gives one."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlang.values import operators
from mlang.values.operators import SCALAR_OPS

from .running import run

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.0, -8.0, 0.5, 1 / 3, 1e-310, 1e200, -1e200, 1e308,
           math.inf, -math.inf, math.nan, 3.0, 7.25]
RNG = np.random.default_rng(11)
RANDOM = [float(v) for v in RNG.standard_normal(12) * 10.0 ** RNG.integers(-5, 6, 12)]
PAIRS = [(a, b) for a in SPECIAL for b in SPECIAL] + list(zip(RANDOM, RANDOM[::-1], strict=True))


def _as_array(v: object) -> np.ndarray:
    return np.asarray(v).reshape(-1)


def _same(fast: object, general: np.ndarray) -> None:
    got, want = _as_array(fast), _as_array(general)[:1]
    assert got.dtype.kind == want.dtype.kind  # double, complex or logical alike
    if want.dtype.kind == "b":
        assert type(fast) in (bool, np.bool_) or fast.dtype == np.bool_  # a logical scalar
    np.testing.assert_array_equal(got, want)
    for part in ((got.real, want.real), (got.imag, want.imag)) if want.dtype.kind == "c" \
            else ((got, want),):
        assert np.signbit(part[0]).tolist() == np.signbit(part[1]).tolist()


@pytest.mark.parametrize("symbol", sorted(SCALAR_OPS))
def test_two_double_scalars_give_what_the_array_path_gives(symbol):
    for a, b in PAIRS:
        with np.errstate(all="ignore"):
            if symbol in ("^", ".^"):  # a^b is what each element of [a a].^b is, to the bit
                general = operators.binary(".^", np.array([[a, a]]), b)
            elif symbol in ("*", "/"):
                general = operators.binary(symbol, np.array([[a]]), np.array([[b]]))
            else:
                general = operators.binary(symbol, np.array([[a, a]]), np.array([[b, b]]))
            fast = operators.binary(symbol, a, b)
        _same(fast, general)


def test_functional_forms_of_operators_on_scalars_match_the_operators():
    _, out = run("""
    a = -8; b = 1/3; z = 0;
    disp(isequal(plus(2, 3), 2 + 3)); disp(class(eq(2, 2)));
    disp(power(a, b)); disp(rdivide(1, z)); disp(rdivide(-1, z)); disp(rdivide(z, z));
    disp(power(10, 400)); disp(1 / minus(z, 0)); disp(times(1e200, 1e200));
    disp(arrayfun(@plus, [1 2], [3 4]));
    """)
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    assert lines[0] == "1"
    assert lines[1] == "logical"
    assert lines[2] == "1.0000 + 1.7321i"
    assert lines[3:8] == ["Inf", "-Inf", "NaN", "Inf", "Inf"]
    assert lines[8] == "Inf"
    assert lines[9].split() == ["4", "6"]


def _one_bit_pattern(v: object) -> tuple:
    a = np.asarray(v, dtype=np.float64).reshape(-1)[:1]
    return a.dtype.kind, a.tobytes() if not np.isnan(a).any() else "nan"


@pytest.mark.parametrize("name", ["round", "sign"])
def test_rounding_a_double_scalar_gives_the_array_paths_bits(name):
    from mlang.registry import BUILTINS

    fn = BUILTINS[name].fn
    values = SPECIAL + RANDOM + [-0.5, 0.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                                 4503599627370495.5, -4503599627370495.5, 2.0 ** 60 + 0.0, -1e-320]
    for x in values:
        fast = fn(x)
        assert type(fast) is float
        general = fn(np.array([[x, x]]))
        assert _one_bit_pattern(fast) == _one_bit_pattern(general), x


LOGICAL_VALUES = [0.0, -0.0, 1.0, -2.5, math.inf, True, False]


@pytest.mark.parametrize("symbol", ["&", "|"])
def test_logical_operators_of_two_scalars_give_a_logical_scalar_as_arrays_do(symbol):
    for a in LOGICAL_VALUES:
        for b in LOGICAL_VALUES:
            fast = operators.binary(symbol, a, b)
            general = operators.binary(symbol, np.array([[a, a]]), np.array([[b, b]]))
            assert type(fast) is bool
            assert fast == bool(general[0, 0])


def test_not_xor_true_and_false_of_scalars():
    from mlang.registry import BUILTINS

    xor = BUILTINS["xor"].fn
    for a in LOGICAL_VALUES:
        assert operators.logical_not(a) is bool(operators.logical_not(np.array([[a, a]]))[0, 0])
        for b in LOGICAL_VALUES:
            fast = xor(a, b)
            assert type(fast) is bool
            assert fast == bool(xor(np.array([[a, a]]), np.array([[b, b]]))[0, 0])
    assert BUILTINS["true"].fn() is True and BUILTINS["false"].fn() is False


def test_nan_in_a_scalar_logical_operation_is_matlabs_error():
    _, out = run("""
    for code = {'and(NaN, 1)', 'or(0, NaN)', 'xor(NaN, 0)', 'not(NaN)', 'NaN & true'}
        try
            eval([code{1} ';']);
        catch err
            disp(err.identifier);
        end
    end
    """)
    assert out.split() == ["MATLAB:nologicalnan"] * 5
