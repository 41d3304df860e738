"""The fast paths of element-wise operators and math builtins on short double arrays and
scalars give exactly what the general paths give: the same class, shape, values (NaN, Inf
and the sign of zero included) and the same errors."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.values import operators

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, 2.5, -3.0, 7.0, 1e-300, 1e300, -1e308, math.inf, -math.inf, math.nan]
ROWS = [
    np.array([[5.0, 6.0, 3.0]]),
    np.array([[0.0, -0.0, math.nan, math.inf, -math.inf, 1e308, -2.5, 1e-310]]),
    np.array([[1.0], [-2.0], [0.5]]),
    np.array([[1.0, -2.0], [3.0, -0.0]]),
    np.array([[4.0]]),
    np.zeros((0, 3)),
    np.zeros((1, 0)),
]


def same(x: object, y: object) -> None:
    """x and y are the same MATLAB value: type, dtype, shape and every bit of every element."""
    assert type(x) is type(y), (x, y)
    if type(x) is np.ndarray:
        assert x.dtype == y.dtype and x.shape == y.shape, (x, y)
        if x.dtype.kind in "fc":
            numbers = ~np.isnan(x.real)  # (the sign of a NaN carries no meaning)
            assert np.array_equal(np.signbit(x.real)[numbers], np.signbit(y.real)[numbers])
            assert np.array_equal(x, y, equal_nan=True), (x, y)
        else:
            assert np.array_equal(x, y), (x, y)
    elif type(x) is float:
        assert (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y)), (x, y)
    elif type(x) is complex:
        same(x.real, y.real)
        same(x.imag, y.imag)
    else:
        assert x == y, (x, y)


def outcome(fn, *args: object) -> object:
    """fn's value, or its MATLAB error identifier."""
    try:
        with np.errstate(all="ignore"):
            return fn(*args)
    except MatlabError as e:
        return ("error", e.identifier)


def same_outcome(x: object, y: object) -> None:
    if type(x) is tuple or type(y) is tuple:
        assert type(x) is tuple and type(y) is tuple and x == y, (x, y)
    else:
        same(x, y)


def slow_forms(v: object) -> list[object]:
    """Forms of a value the fast paths do not take but that mean the same: a 1x1 array for a
    scalar, an array with a trailing singleton dimension."""
    if type(v) is float:
        return [np.full((1, 1), v)]
    if type(v) is bool:
        return [np.full((1, 1), v)]
    if type(v) is np.ndarray:
        return [v.reshape(v.shape + (1,))]
    return []


SYMBOLS = ["+", "-", "*", ".*", "/", "./", ".\\", "^", ".^", "==", "~=", "<", "<=", ">", ">="]


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_array_and_scalar_operators_match_general_path(symbol: str) -> None:
    for v, s in itertools.product(ROWS, SPECIAL + [True, False]):
        for a, b in ((v, s), (s, v)):
            if symbol in ("^",) and type(a) is np.ndarray and a.shape[0] != a.shape[1]:
                continue
            fast = outcome(operators.binary, symbol, a, b)
            for slow_a in [a, *slow_forms(a)]:
                for slow_b in [b, *slow_forms(b)]:
                    if slow_a is a and slow_b is b:
                        continue
                    if symbol in ("*", "/", "^", "\\") and (
                            (type(slow_a) is np.ndarray and slow_a.ndim > 2)
                            or (type(slow_b) is np.ndarray and slow_b.ndim > 2)):
                        continue
                    slow = outcome(operators.binary, symbol, slow_a, slow_b)
                    if type(slow) is np.ndarray and slow.ndim == 2 and slow.size == 1 \
                            and slow.dtype == np.float64:
                        slow = float(slow[0, 0])
                    same_outcome(fast, slow)


@pytest.mark.parametrize("symbol", ["+", "-", ".*", "./", ".^", "==", "<", ">="])
def test_two_double_arrays_match_general_path(symbol: str) -> None:
    for v in ROWS:
        for w in (v, v[::-1].copy(), np.full(v.shape, 2.0), np.full(v.shape, -0.0)):
            fast = outcome(operators.binary, symbol, v, w)
            slow = outcome(operators.binary, symbol, v.reshape(v.shape + (1,)), w)
            if type(slow) is np.ndarray and slow.size == 1:
                slow = slow.reshape(1, 1)
                slow = float(slow[0, 0]) if slow.dtype == np.float64 else bool(slow[0, 0])
            same_outcome(fast, slow)


def test_mismatched_shapes_keep_their_error() -> None:
    a, b = np.ones((1, 3)), np.ones((1, 2))
    for symbol in ("./", ".^", "+", ">", "=="):
        assert outcome(operators.binary, symbol, a, b) == ("error", "MATLAB:sizeDimensionsMustMatch")


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_logical_and_double_scalars(symbol: str) -> None:
    for a, b in itertools.product(SPECIAL + [True, False], repeat=2):
        if type(a) is float and type(b) is float:
            continue
        fast = outcome(operators.binary, symbol, a, b)
        slow = outcome(operators.binary, symbol, np.full((1, 1), a), np.full((1, 1), b))
        same_outcome(fast, slow)


def test_true_plus_true_is_a_double() -> None:
    out = operators.binary("+", True, True)
    assert type(out) is float and out == 2.0
    assert operators.binary(">", True, 0.5) is True
    assert type(operators.binary("-", False, True)) is float


def test_other_classes_keep_their_rules() -> None:
    v = np.array([[1.0, 2.0, 3.0]])
    assert operators.binary("./", v.astype(np.float32), 2.0).dtype == np.float32
    assert operators.binary("./", v.astype(np.int8), 2.0).dtype == np.int8
    assert operators.binary(".^", v.astype(np.uint16), 2.0).dtype == np.uint16
    assert operators.binary(">", v.astype(np.int8), 2.0).dtype == np.bool_
    out = operators.binary(".^", np.array([[-8.0, 4.0]]), 0.5)
    assert out.dtype == np.complex128
    same(operators.binary("./", np.array([[1.0, 0.0, -1.0]]), 0.0), np.array([[math.inf, math.nan, -math.inf]]))


# ------------------------------------------------------------------ builtins

SCALARS = [0.0, -0.0, 1.0, -1.0, 3.0, -3.0, 2.5, -7.5, 12.0, 0.1, 1e-310, 1e300, -1e300,
           math.inf, -math.inf, math.nan]


def builtin_functions() -> dict[str, object]:
    from mlang.builtins.math import constants, elementwise, extrema, integers, rounding

    return {
        "max": extrema.max_, "min": extrema.min_, "mod": rounding.mod, "rem": rounding.rem,
        "atan2": elementwise.atan2, "hypot": elementwise.hypot, "gcd": integers.gcd,
        "lcm": integers.lcm, "log2": elementwise.log2, "abs": rounding.abs_,
        "floor": rounding.floor, "ceil": rounding.ceil, "fix": rounding.fix,
        "Inf": constants.inf_upper, "inf": constants.inf_lower, "NaN": constants.nan_upper,
        "nan": constants.nan_lower,
    }


def same_as_slow_forms(fn, *args: object) -> None:
    """fn on the arguments gives what it gives on forms of them its fast paths do not take."""
    fast = outcome(fn, *args)
    for k, arg in enumerate(args):
        for slow_arg in slow_forms(arg):
            slow_args = args[:k] + (slow_arg,) + args[k + 1:]
            slow = outcome(fn, *slow_args)
            if type(slow) is np.ndarray and slow.size == 1 and slow.dtype == np.float64:
                slow = float(slow.reshape(-1)[0])
            elif type(slow) is np.ndarray and slow.ndim == 3 and slow.shape[2] == 1:
                slow = slow.reshape(slow.shape[:2])
            same_outcome(fast, slow)


@pytest.mark.parametrize("name", ["max", "min", "mod", "rem"])
def test_array_and_scalar_builtins_match_general_path(name: str) -> None:
    fn = builtin_functions()[name]
    integral_rows = [np.array([[5.0, -6.0, 3.0, 0.0, -0.0, 12.0, -12.0, 9e15]]), np.arange(-20.0, 21.0).reshape(1, -1)]
    for v in ROWS + integral_rows:
        for s in SCALARS:
            same_as_slow_forms(fn, v, s)
            same_as_slow_forms(fn, s, v)


@pytest.mark.parametrize("name", ["atan2", "hypot", "gcd", "lcm", "max", "min", "mod", "rem"])
def test_two_scalar_builtins_match_general_path(name: str) -> None:
    fn = builtin_functions()[name]
    values = SCALARS + [4.0, 6.0, -4.0, 2.0 ** 60, 9007199254740993.0, 1e20]
    for a, b in itertools.product(values, repeat=2):
        same_as_slow_forms(fn, a, b)


def test_gcd_and_lcm_errors_and_classes() -> None:
    fns = builtin_functions()
    assert outcome(fns["gcd"], 2.5, 4.0) == ("error", "MATLAB:gcd:NonIntInputs")
    assert outcome(fns["lcm"], 0.0, 4.0) == ("error", "MATLAB:lcm:InputNotPosInt")
    assert outcome(fns["lcm"], math.inf, 4.0) == ("error", "MATLAB:lcm:NonIntInputs")
    assert fns["gcd"](np.array([[12]], dtype=np.int8), 18.0).dtype == np.int8
    assert type(fns["gcd"](12.0, 18.0)) is float and fns["gcd"](-12.0, 18.0) == 6.0
    same_as_slow_forms(fns["lcm"], 2.0 ** 1000, 3.0 ** 600)  # past realmax: Inf
    assert fns["lcm"](2.0 ** 1000, 3.0 ** 600) == math.inf


@pytest.mark.parametrize("name", ["log2", "abs", "floor", "ceil", "fix"])
def test_one_argument_builtins_match_general_path(name: str) -> None:
    fn = builtin_functions()[name]
    for x in SCALARS + [-2.0, 0.5, 1024.0, 5e-324]:
        same_as_slow_forms(fn, x)
    for v in ROWS:
        same_as_slow_forms(fn, v)
    for cls in (np.float32, np.int8, np.uint64, np.bool_):  # other classes: the general path
        v = np.array([[1, 0, 3]], dtype=cls)
        fast = outcome(fn, v)
        same_outcome(fast, outcome(fn, v.reshape(1, 3, 1)) if type(fast) is tuple else fast)
        if type(fast) is np.ndarray and cls is not np.bool_:
            assert fast.dtype == np.dtype(cls) or name == "log2"


@pytest.mark.parametrize("name", ["Inf", "inf", "NaN", "nan"])
def test_constants_without_arguments(name: str) -> None:
    fn = builtin_functions()[name]
    same(fn(), fn(1.0))
    same(fn(), fn(1.0, 1.0))


def test_max_min_other_classes_keep_their_rules() -> None:
    fns = builtin_functions()
    v = np.array([[1.0, 5.0, math.nan]])
    assert fns["max"](v.astype(np.float32), 2.0).dtype == np.float32
    assert fns["max"](np.array([[1, 5]], dtype=np.int8), 2.6).tolist() == [[3, 5]]
    same_as_slow_forms(fns["min"], np.array([[True, False]]), True)
    same(fns["max"](v, 2.0), np.array([[2.0, 5.0, 2.0]]))
    same(fns["min"](v, math.nan), v)
    out = fns["max"](np.array([[1 + 2j, -3.0]]), 2.0)
    assert out.dtype == np.complex128


def test_libm_sensitive_scalars_match_general_path() -> None:
    """atan2, hypot and log2 of double scalars take NumPy's values (Python's math module
    rounds some of them differently): random values and a few known to differ."""
    fns = builtin_functions()
    rng = np.random.default_rng(7)
    xs = (rng.standard_normal(3000) * 10.0 ** rng.integers(-30, 30, 3000)).tolist()
    ys = (rng.standard_normal(3000) * 10.0 ** rng.integers(-30, 30, 3000)).tolist()
    pairs = list(zip(ys, xs, strict=True)) + [
        (float.fromhex("0x1.7193775dab7ecp-61"), float.fromhex("-0x1.1de76112e43a4p-63")),
        (float.fromhex("0x1.05c1c29ebad54p+1"), float.fromhex("-0x1.1735d42a71a31p+3")),
        (float.fromhex("0x1.72b47191342dcp-75"), float.fromhex("0x1.ba6a775d4ad97p-75"))]
    for y, x in pairs:
        same_as_slow_forms(fns["atan2"], y, x)
        same_as_slow_forms(fns["hypot"], y, x)
    for x in xs + [float.fromhex(h) for h in ("0x1.02a410107dc54p-2", "0x1.20a8fef91fe06p+0",
                                               "0x1.90632789de1f7p-1")]:
        same_as_slow_forms(fns["log2"], abs(x))


def test_negated_double_arrays_match_general_path() -> None:
    for v in ROWS:
        fast = operators.uminus(v)
        slow = operators.uminus(v.reshape(v.shape + (1,)))
        same(fast, slow if type(slow) is float else slow.reshape(v.shape))
        assert fast is not v
    assert type(operators.uminus(np.array([[2.0]]))) is float


def test_square_roots_of_short_rows_match_general_path() -> None:
    from mlang.builtins.math import elementwise

    sqrt = elementwise.__dict__.get("sqrt") or _registered("sqrt")
    rng = np.random.default_rng(3)
    rows = [np.array([[4.0, 2.0, 0.0, -0.0, math.inf, math.nan, 1e-310, 1e308]]),
            np.array([[2.0, -1.0]]), np.array([[-math.inf, 4.0]]), np.array([[3.0, 5.0, 7.0]])]
    rows += [rng.uniform(0, 10.0 ** rng.integers(-300, 300), (1, 8)) for _ in range(300)]
    for v in rows:  # a column takes the general path
        fast, slow = outcome(sqrt, v), outcome(sqrt, v.T.copy())
        same_outcome(fast, slow.T if type(slow) is np.ndarray else slow)


def _registered(name: str) -> object:
    from mlang.evaluation.interpreter import Interpreter

    it = Interpreter()
    return lambda x: (it.set("x__", x), it.eval(f"y__ = {name}(x__);"), it.get("y__"))[2]


@pytest.mark.parametrize("symbol", ["./", "/", ".^", "==", "<", ">="])
def test_no_floating_point_warning_reaches_a_library_caller(symbol: str) -> None:
    """Division by zero, Inf/Inf and overflow give MATLAB's values without a word: MATLAB
    code runs with NumPy's warnings off, and a Python caller's own error state is kept."""
    import warnings

    from mlang.evaluation.interpreter import Interpreter

    interp = Interpreter()
    with np.errstate(all="warn"), warnings.catch_warnings():
        before = np.geterr()
        warnings.simplefilter("error")
        for v in ROWS:
            interp.set("v", v)
            for s in SPECIAL:
                interp.set("s", s)
                interp.eval(f"r = v {symbol} s; r = s {symbol} v;" if symbol != "/" else "r = v / s;")
            if symbol != "/":
                interp.eval(f"r = v {symbol} v; r = v {symbol} zeros(size(v));")
        assert np.geterr() == before


@pytest.mark.parametrize("name", ["exp", "sin", "cos", "tan", "sinh", "cosh", "tanh", "atan", "sec", "expm1"])
def test_math_of_double_arrays_is_numpys(name: str) -> None:
    from mlang.builtins.math import elementwise

    fn = next(f for n, f, *_ in elementwise._MATH if n == name)
    for v in ROWS:
        with np.errstate(all="ignore"):
            expected = np.asarray(fn(v))
        got = elementwise._math(name, fn, v)
        same(got, float(expected[0, 0]) if expected.size == 1 else expected)
        assert type(elementwise._math(name, fn, np.array([[True, False]]))) is np.ndarray


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_logical_arrays_and_double_scalars_match_general_path(symbol: str) -> None:
    masks = [np.array([[True, False, True]]), np.array([[True], [False]]), np.array([[False]]),
             np.zeros((0, 2), dtype=bool), np.array([[True, False], [False, True]])]
    for m, s in itertools.product(masks, SPECIAL + [True]):
        if symbol == "^" and m.shape[0] != m.shape[1]:
            continue
        fast = outcome(operators.binary, symbol, m, s)
        if symbol in ("*", "/", "^", "\\"):  # matrix operators: a 1x1 array for the scalar
            slow = outcome(operators.binary, symbol, m, np.full((1, 1), s))
        else:
            slow = outcome(operators.binary, symbol, m.reshape(m.shape + (1,)), s)
        if type(slow) is np.ndarray and slow.ndim == 3:
            slow = slow.reshape(slow.shape[:2])
        same_outcome(fast, slow)
