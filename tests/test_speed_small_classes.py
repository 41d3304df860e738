"""Direct paths for short operands of the other classes give exactly what the general paths
give: integer-class arithmetic on scalars, rows and columns (in Python numbers), round of short
double rows and columns, rand and randn of plain sizes,
sprintf of short double arrays, regexp and regexprep of char rows,
products and transposes of double matrices, a double scalar with a double array, exp, sin
and cos of short double arrays, strcmp of two char arrays.

Each direct path is compared with the general path on the same values in a form the direct
path does not take (a copy with a trailing singleton dimension), over many values including
the edge cases (NaN, Inf, -0, the class limits, halves, division by zero)."""

from __future__ import annotations

import io
import math
import warnings

import numpy as np
import pytest

from mlang.builtins.math import elementwise as elementwise_functions
from mlang.builtins.math import integers as integer_functions
from mlang.builtins.math import random as random_functions
from mlang.builtins.math import rounding as rounding_functions
from mlang.builtins.math.rounding import abs_, round_, sign
from mlang.builtins.text import printing
from mlang.builtins.text import regexp as regexp_functions
from mlang.builtins.text import search as search_functions
from mlang.builtins.text.forms import object_array
from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.values import operators
from mlang.values.cell import Cell
from mlang.values.core import char_row, result
from mlang.values.integer_arithmetic import short_narrow_int
from mlang.values.string import StringArray
from mlang.values.struct import Struct

NARROW = ["int8", "uint8", "int16", "uint16", "int32", "uint32"]
DOUBLES = [math.nan, math.inf, -math.inf, 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.0, -7.0,
           7.25, 1e300, -1e300, 5e-324, 0.49999999999999994, 1e10, -1e10, 255.5, 4294967295.5]
SYMBOLS = ["+", "-", ".*", "./", ".\\"]


def _general_form(v: object) -> object:
    """The same value in a form the direct paths leave to the general path."""
    if type(v) is float or type(v) is bool:
        return np.array(v).reshape(1, 1, 1)
    return v.reshape(v.shape + (1,))


def _same(fast: object, general: object) -> None:
    assert type(fast) is type(general)
    if type(fast) is np.ndarray:
        assert fast.dtype == general.dtype
        assert fast.shape == general.shape
        assert fast.flags.c_contiguous == general.flags.c_contiguous
    np.testing.assert_array_equal(fast, general)


def _integers(cls: str) -> list[np.ndarray]:
    info = np.iinfo(cls)
    picks = [info.min, info.max, 0, 1, 2, 3, info.max - 1, info.min + 1, info.max // 2, 7, 100]
    rng = np.random.default_rng(sum(map(ord, cls)))
    rand = rng.integers(info.min, info.max, 16, endpoint=True)
    return [np.array([[p]], dtype=cls) for p in picks] + [
        np.array([picks[:3]], dtype=cls), np.array(picks[3:7], dtype=cls).reshape(-1, 1),
        np.array([rand], dtype=cls), rand.astype(cls).reshape(-1, 1), np.array([picks], dtype=cls)]


def _compare_through(fn, symbol: str, a: object, b: object) -> None:
    """``fn(symbol, a, b)`` gives what it gives the general forms of a and b (or the same error)."""
    try:
        general = fn(symbol, _general_form(a), _general_form(b))
    except MatlabError as err:
        with pytest.raises(MatlabError) as caught:
            fn(symbol, a, b)
        assert caught.value.identifier == err.identifier
        return
    _same(fn(symbol, a, b), general)


def _compare(symbol: str, a: object, b: object) -> None:
    _compare_through(operators.elementwise, symbol, a, b)


@pytest.mark.parametrize("cls", NARROW)
@pytest.mark.parametrize("symbol", SYMBOLS)
def test_short_integers_with_a_double_scalar(cls, symbol):
    for ints in _integers(cls):
        for d in DOUBLES:
            assert short_narrow_int(symbol, ints, d) is not None or d == 0.0 or symbol == ".\\"
            _compare(symbol, ints, d)
            _compare(symbol, d, ints)


@pytest.mark.parametrize("cls", NARROW)
@pytest.mark.parametrize("symbol", SYMBOLS)
def test_short_integers_of_one_class(cls, symbol):
    values = _integers(cls)
    scalars = [v for v in values if v.size == 1]
    for a in values:
        for b in scalars:
            _compare(symbol, a, b)
            _compare(symbol, b, a)
        _compare(symbol, a, a)
        _compare(symbol, a, a[..., ::-1].copy() if a.shape[0] == 1 else a[::-1].copy())


def _compare_binary(symbol: str, a: object, b: object) -> None:
    _compare_through(operators.binary, symbol, a, b)


@pytest.mark.parametrize("cls", NARROW)
@pytest.mark.parametrize("symbol", ["+", "-", "*", ".*", "/", "./", ".\\", "\\", ".^", "<", "=="])
def test_operators_of_short_integers_and_double_scalars(cls, symbol):
    wholes = [2.0, -3.0, 0.0, -0.0, 2.0 ** 21, -(2.0 ** 21), 2.0 ** 21 + 1, 1e10, 255.0, 65536.0]
    for ints in _integers(cls):
        for d in DOUBLES + wholes:
            with np.errstate(all="ignore"):
                _compare_binary(symbol, ints, d)
                _compare_binary(symbol, d, ints)
        for other in _integers(cls):
            if other.size == 1 or other.shape == ints.shape:
                with np.errstate(all="ignore"):
                    _compare_binary(symbol, ints, other)
                    _compare_binary(symbol, other, ints)


def test_the_direct_path_is_taken_and_leaves_the_rest():
    u8 = np.array([[1, 2, 3]], dtype=np.uint8)
    assert short_narrow_int("+", u8, 2.0) is not None
    assert short_narrow_int("+", u8, u8) is not None
    assert short_narrow_int("./", u8, u8.reshape(3, 1)) is None  # implicit expansion
    assert short_narrow_int("./", u8, 0.0) is None  # division by zero: the general path
    assert short_narrow_int(".^", u8, 2.5) is None and short_narrow_int(".^", u8, 2.0) is not None
    assert short_narrow_int("+", u8, np.array([[1.0]])) is None  # a double array
    assert short_narrow_int("+", u8, True) is None
    assert short_narrow_int("+", u8.astype(np.int64), 2.0) is None  # 64 bits: exact path
    assert short_narrow_int("+", np.arange(17, dtype=np.int8).reshape(1, -1), 2.0) is None
    assert short_narrow_int("+", np.ones((2, 2), dtype=np.int8), 2.0) is None


@pytest.mark.parametrize(("a", "b", "identifier"), [
    (np.array([[1, 2]], dtype=np.int8), np.array([[1, 2]], dtype=np.int16), "MATLAB:mixedClasses"),
    (np.array([[1, 2, 3]], dtype=np.int8), np.array([[1, 2]], dtype=np.int8),
     "MATLAB:sizeDimensionsMustMatch"),
    (np.array([[1]], dtype=np.uint8), 1j, "MATLAB:complexIntegerArithmetic"),
])
def test_bad_operands_keep_their_errors(a, b, identifier):
    for symbol in ("+", ".*", "./"):
        with pytest.raises(MatlabError) as caught:
            operators.binary(symbol, a, b)
        assert caught.value.identifier == identifier


def test_matrix_operators_with_integer_scalars():
    i32 = np.array([[7]], dtype=np.int32)
    u8 = np.array([[1, 2, 3]], dtype=np.uint8)
    _same(operators.binary("*", u8, 2.5), operators.elementwise(".*", _general_form(u8), 2.5))
    _same(operators.binary("*", 2.5, u8), operators.elementwise(".*", 2.5, _general_form(u8)))
    _same(operators.binary("/", i32, 2.0), np.array([[4]], dtype=np.int32))  # 3.5 rounds away
    _same(operators.binary("/", -i32, 2.0), np.array([[-4]], dtype=np.int32))
    _same(operators.binary("*", i32, u8.astype(np.int32)), np.array([[7, 14, 21]], dtype=np.int32))
    _same(operators.binary("+", u8, 300.0), np.array([[255, 255, 255]], dtype=np.uint8))
    _same(operators.binary("-", u8, 2.5), np.array([[0, 0, 1]], dtype=np.uint8))  # -1.5, -0.5, 0.5


# ------------------------------------------------------------------ round of short arrays

ROUNDED = [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, -0.0, 0.0,
           math.nan, math.inf, -math.inf, 4503599627370495.5, 4503599627370497.0, -0.3, 0.7, 1e300,
           5e-324, -5e-324, 2.675, -7.5]


def _bits(v: object) -> tuple:
    a = np.asarray(v)
    return a.dtype, a.shape, a.flags.c_contiguous, a.tobytes()


@pytest.mark.parametrize("shape", [(1, 2), (1, 3), (1, 8), (2, 1), (8, 1), (1, 9), (2, 3), (0, 3)])
def test_round_of_short_double_arrays_gives_the_general_paths_bits(shape):
    rng = np.random.default_rng(5)
    pool = np.array(ROUNDED + list(rng.standard_normal(40) * 10.0 ** rng.integers(-3, 17, 40)))
    count = int(np.prod(shape))
    for start in range(0, pool.size, max(count, 1)):
        x = np.resize(np.roll(pool, -start), count).reshape(shape)
        fast = round_(x)
        general = round_(x.reshape(shape + (1,)))
        assert _bits(fast) == _bits(general)


# ------------------------------------------------------------------ rand and randn


class _Session:
    """The interpreter's random state, as rand and randn use it."""

    def __init__(self, seed: int) -> None:
        self.random = np.random.RandomState(seed)
        self.random_seed = seed


class _Zeros:
    """A stream of zeros: the one uniform with no finite normal quantile."""

    def random_sample(self, n: int | None = None) -> object:
        return 0.0 if n is None else np.zeros(n)


DOUBLE = char_row("double")
SIZES = [(), (0.0,), (1.0,), (3.0,), (3.0, 1.0), (1.0, 3.0), (2.0, 5.0), (0.0, 4.0), (-2.0, 3.0),
         (1.0, 1.0), (4.0, 0.0)]


@pytest.mark.parametrize("name", ["rand", "randn"])
def test_rand_and_randn_of_plain_sizes_give_the_general_paths_numbers(name):
    fn = getattr(random_functions, name)
    for seed in (5489, 7, 12345):
        fast_session, general_session = _Session(seed), _Session(seed)
        for sizes in SIZES * 3:
            fast = fn(fast_session, *sizes)
            general = fn(general_session, *sizes, DOUBLE)  # (a class name: the general path)
            assert type(fast) is type(general)
            assert _bits(fast) == _bits(general)


@pytest.mark.parametrize("name", ["rand", "randn"])
def test_rand_and_randn_leave_other_sizes_to_the_general_path(name):
    fn = getattr(random_functions, name)
    for bad in [(1.5,), (math.nan,), (math.inf, 1.0), (2.0, -math.inf)]:
        with pytest.raises(MatlabError):
            fn(_Session(1), *bad)
    assert random_functions._plain_shape((2.0, 3.0, 1.0)) is None
    assert random_functions._plain_shape((np.array([[2.0, 3.0]]),)) is None
    assert random_functions._plain_shape((2.0 ** 21, 1.0)) is None
    session = _Session(3)
    assert fn(session, 2.0, 3.0, 1.0).shape == (2, 3)


def test_randn_of_a_zero_uniform_is_the_general_paths_value():
    fast, general = _Session(0), _Session(0)
    fast.random = general.random = _Zeros()
    assert random_functions.randn(fast) == random_functions.randn(general, DOUBLE) == \
        random_functions.randn(general, 1.0, 1.0, DOUBLE)
    np.testing.assert_array_equal(random_functions.randn(fast, 3.0, 1.0),
                                  random_functions.randn(general, 3.0, 1.0, DOUBLE))
    assert math.isfinite(random_functions.randn(fast))


# ------------------------------------------------------------------ sprintf of short arrays

SHORT_FORMATS = ["%d,", "%d", "%i|%u\\n", "%5.2f %g;", "%d:%.3e;", "%x %X.", "100%% %d\\n", "%+05d|",
                 "%d-%d,", "%-8.3f|", "%G", "%s,", "%c", "plain", "%d %s", "%*d", "%o"]
SHORT_DATA = [
    [np.array([[3.0, 4.0, 1.0]])], [np.array([[1.0], [2.0], [3.0], [4.0]])], [np.array([[1.5, 2.0]])],
    [np.array([[1.0, math.nan]])], [np.array([[math.inf, 2.0]])], [np.array([[-0.0, 0.0, -3.0, 1e20]])],
    [np.array([[1.0, 2.0], [3.0, 4.0]])], [np.arange(1.0, 64.0).reshape(1, -1)], [np.arange(1.0, 65.0)],
    [np.array([[1.0, 2.0, 3.0]], dtype=np.float32) / 4], [3.0, np.array([[4.0, 5.0, 6.0]])],
    [np.array([[1.0, 2.0]]), np.zeros((0, 3))], [np.array([[1, 2]], dtype=np.int32)],
    [np.array([[1.0 + 2.0j, 3.0]])], [np.array([[2.0**60, -(2.0**53)]])], [np.array([[0.1, 1 / 3]])],
    [np.array([[65.0, 66.0]])], [np.array([[1.0, 2.0, 3.0]]), np.array([[4.0, 5.0, 6.0]])],
]


def _general_text(monkeypatch, fmt: str, args: list) -> str:
    with monkeypatch.context() as patch:
        for quick in ("_one_pass", "_whole_rounds", "_short_rounds"):
            patch.setattr(printing, quick, lambda *_: None)
        return printing.format_text(fmt, list(args))


@pytest.mark.parametrize("fmt", SHORT_FORMATS)
def test_sprintf_of_short_arrays_gives_the_general_rules_text(monkeypatch, fmt):
    for args in SHORT_DATA:
        try:
            expected = _general_text(monkeypatch, fmt, args)
        except MatlabError as err:
            with pytest.raises(MatlabError) as caught:
                printing.format_text(fmt, list(args))
            assert caught.value.identifier == err.identifier
            continue
        assert printing.format_text(fmt, list(args)) == expected
        text = printing.sprintf(char_row(fmt), *args)
        assert printing.char_text(text) == expected if text.size else expected == ""


def test_sprintf_of_short_arrays_takes_the_direct_path():
    plan = printing._one_pass_plan("%d,")
    assert printing._short_rounds(plan, [np.array([[3.0, 4.0, 1.0]])]) == "3,4,1,"
    assert printing._short_rounds(plan, [np.array([[3.0, 4.5]])]) is None  # %e for a fraction
    assert printing._short_rounds(printing._one_pass_plan("%d %d,"), [np.array([[1.0, 2.0, 3.0]])]) is None
    assert printing._short_rounds(plan, [np.arange(1.0, 65.0)]) is None  # _whole_rounds's size


# ------------------------------------------------------------------ regexprep of char rows

PATTERNS = ["b", r"(\w)(\d)", "^a", "x*", "(?<name>b)", r"\s+", ".", "a|b", "(a)(b)?", "[", r"\d+$", "é"]
REPLACEMENTS = ["x", "$1", "$2$1", "$0", r"\n", "$<name>", "", "${upper($0)}", "$9", r"\$", "[$0]"]
TEXTS = ["abcabc", "a1b2 c3", "", "  a b\n", "éab", "x\U0001F600b", "abba"]


def _regexprep_general(interp: object, *args: object) -> object:
    return regexp_functions.regexprep(interp, *args, char_row("matchcase"))  # (the default option)


def test_regexprep_of_char_rows_gives_the_general_paths_text():
    interp = Interpreter(stdout=io.StringIO())
    for pattern in PATTERNS:
        for replacement in REPLACEMENTS:
            for text in TEXTS:
                args = (char_row(text) if text else np.zeros((1, 0), dtype=char_row("a").dtype),
                        char_row(pattern), char_row(replacement))
                try:
                    general = _regexprep_general(interp, *args)
                except Exception as err:  # (a ${code} may not parse: a syntax error)
                    with pytest.raises(type(err)) as caught:
                        regexp_functions.regexprep(interp, *args)
                    assert str(caught.value) == str(err)
                    continue
                fast = regexp_functions.regexprep(interp, *args)
                assert _bits(fast) == _bits(general)


def test_regexprep_takes_the_direct_path_only_without_code():
    assert regexp_functions._row_substitution(char_row("b").tobytes(), char_row("x").tobytes())("abc") == "axc"
    assert regexp_functions._row_substitution(char_row("b").tobytes(), char_row("${1}").tobytes()) is None


# ------------------------------------------------------------------ double matrices

def _doubles(shape: tuple[int, int], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    pool = np.array([0.0, -0.0, 1.0, -1.0, 0.5, 1e308, -1e308, 1e-310, math.inf, -math.inf, math.nan, 3.0])
    values = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
    special = rng.random(shape) < 0.2
    values[special] = rng.choice(pool, int(special.sum()))
    return values


MATRIX_SHAPES = [((3, 3), (3, 1)), ((1, 3), (3, 1)), ((3, 1), (1, 3)), ((2, 3), (3, 4)), ((1, 1), (1, 3)),
                 ((3, 2), (3, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((4, 1), (1, 1)), ((3, 3), (3, 3))]


def test_products_of_double_matrices_give_mtimes_values():
    for seed, (sa, sb) in enumerate(MATRIX_SHAPES * 5):
        a, b = _doubles(sa, seed), _doubles(sb, seed + 100)
        with np.errstate(all="ignore"):
            try:
                general = operators.mtimes(a, b)
            except MatlabError as err:
                with pytest.raises(MatlabError) as caught:
                    operators.binary("*", a, b)
                assert caught.value.identifier == err.identifier
                continue
            assert _bits(operators.binary("*", a, b)) == _bits(general)
            assert type(operators.binary("*", a, b)) is type(general)


def test_transpose_of_double_matrices():
    for seed, shape in enumerate([(1, 3), (3, 1), (3, 3), (2, 5), (0, 3), (1, 1), (1, 0)]):
        a = _doubles(shape, seed)
        fortran = np.asfortranarray(a)
        for conjugate in (False, True):
            got = operators.transpose(a, conjugate)
            if a.size == 1:
                assert type(got) is float and got == a[0, 0]
                continue
            assert _bits(got) == _bits(np.ascontiguousarray(a.T))
            assert _bits(operators.transpose(fortran, conjugate)) == _bits(got)


@pytest.mark.parametrize("symbol", ["+", "-", ".*", "*", "==", "~=", "<", "<=", ">", ">="])
def test_a_double_scalar_with_a_double_array(symbol):
    for seed, shape in enumerate([(1, 3), (3, 1), (2, 2), (1, 1), (0, 3)]):
        b = _doubles(shape, seed)
        for a in (2.0, -0.0, math.inf, math.nan, 1e308):
            with np.errstate(all="ignore"):
                fast = operators.binary(symbol, a, b)
                general = operators.binary(symbol, np.array(a).reshape(1, 1, 1), b)
            assert type(fast) is type(general)
            assert _bits(fast) == _bits(general)


@pytest.mark.parametrize("name", ["exp", "sin", "cos"])
def test_math_of_short_double_arrays_warns_of_nothing_and_gives_numpy_values(name):
    fn = {"exp": np.exp, "sin": np.sin, "cos": np.cos}[name]
    builtin_fn = elementwise_functions._math
    inputs = [np.array([[1.0, 2.0, 3.0]]), np.array([[709.0, -1e308]]), np.array([[709.5, 1.0]]),
              np.array([[math.nan, 1.0]]), np.array([[1.0, math.nan, 800.0]]), np.array([[math.inf, 0.0]]),
              np.array([[-math.inf, 0.0]]), np.array([[1.0], [2.0]]), np.array([[1e308, -1e308]]),
              np.arange(9.0).reshape(1, -1), np.array([[-0.0, 5e-324]]), np.zeros((0, 3))]
    for x in inputs:
        with np.errstate(all="ignore"):
            expected = result(np.asarray(fn(x)))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = builtin_fn(name, fn, x)
        assert _bits(got) == _bits(expected)


# ------------------------------------------------------------------ strcmp of char arrays

def _chars(text: str, shape: tuple[int, ...] | None = None) -> np.ndarray:
    a = char_row(text) if text else np.zeros((1, 0), dtype=char_row("a").dtype)
    return a if shape is None else a.reshape(shape, order="F")


def test_strcmp_of_char_arrays_gives_the_general_answer():
    empty = np.zeros((0, 0), dtype=char_row("a").dtype)
    values = [_chars("abc"), _chars("abd"), _chars("ab"), _chars(""), empty, _chars("x\U0001F600"),
              _chars("abcdef", (2, 3)), np.asfortranarray(_chars("abcdef", (2, 3))), _chars("abcdef", (3, 2)),
              _chars("abc", (3, 1)), _chars("abcdef", (1, 3, 2)), _chars("abc")[:, ::-1], _chars("cba"),
              np.zeros((0, 3), dtype=empty.dtype), _chars("é"), _chars("e")]
    for a in values:
        for b in values:
            fast = search_functions.strcmp(a, b)
            general = search_functions._compare(a, b, lambda x, y: x == y, "strcmp", same_size=True)
            assert type(fast) is bool and fast == general


def test_squares_of_short_double_arrays_give_the_general_values():
    for seed, shape in enumerate([(1, 3), (3, 1), (2, 2), (1, 8), (1, 9), (3, 3), (1, 1), (0, 3)] * 4):
        a = _doubles(shape, seed)
        if seed % 3 == 0 and a.size:
            a.flat[seed % a.size] = (1.5e154, -2e154, math.nan, 1e153)[seed % 4]
        with np.errstate(all="ignore"):
            general = operators.elementwise(".^", a.reshape(shape + (1,)), 2.0)
        with np.errstate(all="ignore"):  # (as MATLAB code runs)
            fast = operators.binary(".^", a, 2.0)
        assert type(fast) is type(general)
        assert _bits(fast) == _bits(general)


def test_quotients_of_short_double_arrays_give_the_general_values():
    specials = [0.0, -0.0, math.inf, -math.inf, math.nan, 1e308, 1e-308, 5e-324, 1e-300, 1e300]
    for seed, shape in enumerate([(1, 3), (3, 1), (2, 2), (1, 8), (1, 9), (1, 1), (0, 3)] * 12):
        a, b = _doubles(shape, seed), _doubles(shape, seed + 1)
        if a.size and seed % 2:
            a.flat[seed % a.size] = specials[seed % len(specials)]
            b.flat[(seed // 2) % b.size] = specials[(seed // 3) % len(specials)]
        with np.errstate(all="ignore"):
            general = operators.elementwise("./", a.reshape(shape + (1,)), b.reshape(shape + (1,)))
        with np.errstate(all="ignore"):  # (as MATLAB code runs)
            fast = operators.binary("./", a, b)
        assert type(fast) is type(general)
        assert _bits(fast) == _bits(general)


# ------------------------------------------------------------------ regexp of char rows

def _deep(v: object) -> object:
    """A comparable form of a value: cells and structs by their parts, arrays by their bits."""
    if type(v) is Cell:
        return "cell", v.shape, [_deep(x) for x in v.data.ravel(order="F")]
    if type(v) is Struct:
        return "struct", list(v.fields), v.elems.shape, \
            [{k: _deep(x) for k, x in e.items()} for e in v.elems.ravel(order="F")]
    if type(v) is tuple:
        return [_deep(x) for x in v]
    if type(v) is np.ndarray:
        return _bits(v)
    return type(v), v


REGEXP_PATTERNS = [r"\d+", "o", r"(\w+) (\w+)", r"(?<first>\w)(?<rest>\w*)", "x*", "^h", "[", r"(a)|(l)"]
REGEXP_OPTIONS = [(), ("match",), ("match", "once"), ("tokens",), ("names",), ("split",), ("start", "end"),
                  ("tokenExtents",), ("once",), ("emptymatch", "match"), ("ignorecase", "match"),
                  ("forceCellOutput", "match"), ("tokens", "once"), ("bogus",), ("names", "once")]


@pytest.mark.parametrize("fname", ["regexp", "regexpi"])
def test_regexp_of_char_rows_gives_the_general_paths_outputs(monkeypatch, fname):
    fn = getattr(regexp_functions, fname)
    for pattern in REGEXP_PATTERNS:
        for options in REGEXP_OPTIONS:
            for text in ["hello world 123", "", "HeLLo", "a1 b22"]:
                args = (_chars(text), char_row(pattern), *map(char_row, options))
                for nargout in (0, 1, 2, 3):
                    try:
                        with monkeypatch.context() as patch:
                            patch.setattr(regexp_functions, "_is_row", lambda v: False)
                            general = fn(*args, nargout=nargout)
                    except MatlabError as err:
                        with pytest.raises(MatlabError) as caught:
                            fn(*args, nargout=nargout)
                        assert caught.value.identifier == err.identifier
                        continue
                    assert _deep(fn(*args, nargout=nargout)) == _deep(general)


def test_strcmp_of_a_cell_array_and_a_char_array_gives_the_general_answer():
    empty = np.zeros((0, 0), dtype=char_row("a").dtype)
    items = [_chars("abc"), _chars("abd"), _chars(""), empty, _chars("abcdef", (2, 3)), 3.0,
             np.array([[97.0, 98.0, 99.0]]), Cell(np.empty((0, 0), dtype=object)), _chars("x\U0001F600"),
             _chars("abc", (3, 1))]
    texts = [_chars("abc"), _chars(""), empty, _chars("abcdef", (2, 3)), _chars("x\U0001F600"),
             _chars("abc", (3, 1))]
    cells = [Cell(object_array(items[:k], (k, 1))) for k in range(len(items) + 1)]
    cells += [Cell(object_array(items[:6], (2, 3))), Cell(object_array(items, (1, len(items)))),
              Cell(object_array([items[0], StringArray.scalar("abc")], (1, 2)))]
    for cell in cells:
        for text in texts:
            for a, b in ((cell, text), (text, cell)):
                fast = search_functions.strcmp(a, b)
                general = search_functions._compare(a, b, lambda x, y: x == y, "strcmp", same_size=True)
                assert _deep(fast) == _deep(general)


def test_strfind_in_a_short_char_row_gives_the_general_positions():
    for text in ["hello world 123", "aaaa", "abcabc", "", "x\U0001F600x\U0001F600", "o", "no match here"]:
        for pattern in ["o", "aa", "abc", "x", "\U0001F600", "zz", "hello world 1234"]:
            fast = search_functions.strfind(_chars(text), char_row(pattern))
            general = search_functions._index_row(search_functions.find_all(text, pattern))
            assert _deep(fast) == _deep(general)


def test_strcmpi_and_strncmp_of_char_arrays_give_the_general_answers():
    empty = np.zeros((0, 0), dtype=char_row("a").dtype)
    values = [_chars("abc"), _chars("ABD"), _chars("ab"), _chars(""), empty, _chars("x\U0001F600y"),
              _chars("x\U0001F600z"), _chars("abcdef", (2, 3)), _chars("ABCDEF", (2, 3)), _chars("abc", (3, 1)),
              _chars("ABC"), _chars("Straße"), _chars("STRASSE")]
    for a in values:
        for b in values:
            fast = search_functions.strcmpi(a, b)
            general = search_functions._compare(a, b, lambda x, y: x.lower() == y.lower(), "strcmpi",
                                                same_size=True)
            assert type(fast) is bool and fast == general
            for n in (0.0, 1.0, 2.0, 3.0, 10.0, 1e300):
                k = int(n)
                fast = search_functions.strncmp(a, b, n)
                general = search_functions._compare(a, b, lambda x, y, k=k: x[:k] == y[:k], "strncmp")
                assert type(fast) is bool and fast == general
    for bad in (-1.0, 1.5, math.nan, math.inf):
        with pytest.raises(MatlabError):
            search_functions.strncmp(_chars("abc"), _chars("abd"), bad)


# ------------------------------------------------------------------ a double array and a scalar

SCALARS = [2.0, 3.0, -1.0, 0.5, -0.5, 0.0, -0.0, 1.0, 16.0, 17.0, -16.0, 1e-15, 1e15, 1e300, -2.5,
           math.inf, -math.inf, math.nan, 1 / 3]


@pytest.mark.parametrize("symbol", ["+", "-", ".*", "*", "./", "/", ".\\", ".^"])
def test_a_double_array_and_a_double_scalar_with_every_element_wise_operator(symbol):
    shapes = [(1, 3), (3, 1), (2, 2), (1, 8), (1, 9), (1, 1), (0, 3), (3, 3)]
    arrays = [np.array([[1e200, 2.0, 3.0]]), np.array([[1e-200, 4.0]]), np.array([[0.0, 2.0]]),
              np.array([[16.5, 2.0, -3.0]]), np.array([[1e16, 1.5]]), np.array([[1e15, 1e-15, 16.0]])]
    for seed, shape in enumerate(shapes * 3 + [None] * len(arrays)):
        a = _doubles(shape, seed) if shape is not None else arrays[seed - 3 * len(shapes)]
        if seed % 4 == 1:
            a = np.abs(a)  # no negative base: real powers
        if seed % 4 == 2 and a.size and shape is not None:
            a.flat[0] = (1e15, 1e-15, 0.0, 1e16)[seed % 3]
        for b in SCALARS:
            for x, y in ((a, b), (b, a)):
                if symbol in ("/",) and type(y) is np.ndarray and y.size != 1:
                    continue  # (mrdivide by a matrix: not element-wise)
                with warnings.catch_warnings(record=True) as general_warned:
                    warnings.simplefilter("always")
                    general = operators.binary(symbol, _general_form(x), _general_form(y))
                with warnings.catch_warnings(record=True) as fast_warned:
                    warnings.simplefilter("always")
                    fast = operators.binary(symbol, x, y)
                assert type(fast) is type(general)
                assert _bits(fast) == _bits(general), (symbol, x, y)
                assert len(fast_warned) <= len(general_warned)  # (no NumPy warning of its own)


# ------------------------------------------------------------------ logical and integer operators

def _logicals() -> list[object]:
    rng = np.random.default_rng(9)
    return [np.array([[True, False, True]]), np.array([[False], [True]]), rng.random((3, 3)) < 0.5,
            np.zeros((0, 3), dtype=bool), np.array([[True]]), np.array([[1.0, 0.0, -2.0]]),
            np.array([[0.0, math.nan, 1.0]]), np.array([[math.inf, -0.0]]), np.arange(9.0).reshape(1, 9),
            np.array([[2.0], [0.0]]), np.zeros((0, 3)), True, False, 0.0, 3.0, math.nan]


@pytest.mark.parametrize("symbol", ["&", "|"])
def test_logical_operators_give_the_general_answers(symbol):
    values = _logicals()
    for a in values:
        for b in values:
            try:
                general = operators.binary(symbol, _general_form(a), _general_form(b))
            except MatlabError as err:
                with pytest.raises(MatlabError) as caught:
                    operators.binary(symbol, a, b)
                assert caught.value.identifier == err.identifier
                continue
            fast = operators.binary(symbol, a, b)
            assert type(fast) is type(general)
            assert _bits(fast) == _bits(general)


def test_logical_not_gives_the_general_answer():
    for a in _logicals():
        try:
            general = operators.logical_not(_general_form(a))
        except MatlabError as err:
            with pytest.raises(MatlabError) as caught:
                operators.logical_not(a)
            assert caught.value.identifier == err.identifier
            continue
        fast = operators.logical_not(a)
        assert type(fast) is type(general)
        assert _bits(fast) == _bits(general)


@pytest.mark.parametrize("cls", NARROW)
def test_comparisons_and_negation_of_short_integers(cls):
    for ints in _integers(cls) + [np.asfortranarray(np.arange(6, dtype=cls).reshape(2, 3))]:
        for symbol in ("==", "~=", "<", "<=", ">", ">="):
            for d in DOUBLES:
                _compare_binary(symbol, ints, d)
                _compare_binary(symbol, d, ints)
            _compare_binary(symbol, ints, ints)
            _compare_binary(symbol, ints, ints[..., ::-1].copy())
        fast, general = operators.uminus(ints), operators.uminus(_general_form(ints))
        assert _bits(fast) == _bits(general)


@pytest.mark.parametrize("cls", NARROW)
def test_abs_of_integer_arrays(cls):
    for ints in _integers(cls) + [np.asfortranarray(np.arange(6, dtype=cls).reshape(2, 3))]:
        fast, general = abs_(ints), abs_(_general_form(ints))
        if cls.startswith("u"):
            assert fast is ints and np.shares_memory(general, ints)  # (the general path: its input)
        else:
            assert _bits(fast) == _bits(general)


def _math_function(name: str) -> object:
    """The element-wise function ``name`` as its builtin computes it (the table's entry)."""
    for entry_name, fn, _, complex_when, _ in elementwise_functions._MATH:
        if entry_name == name:
            return lambda x: elementwise_functions._math(name, fn, x, complex_when)
    raise KeyError(name)


@pytest.mark.parametrize("name", ["sign", "abs", "log", "log10", "exp", "sin", "cos"])
def test_sign_abs_and_logarithms_of_double_arrays(monkeypatch, name):
    call = {"sign": sign, "abs": abs_}.get(name) or _math_function(name)
    inputs = [np.array([[1.0, 2.0, 3.0]]), np.array([[5e-324, math.inf, math.nan, 1.0]]),
              np.array([[math.nan, 1.0]]), np.array([[0.0, 1.0]]), np.array([[-1.0, 2.0]]),
              np.array([[-0.0, math.inf]]), np.array([[-math.inf, 3.0]]), np.arange(1.0, 10.0).reshape(1, 9),
              np.array([[1.0], [0.5]]), np.zeros((0, 3)), np.array([[2.0, 3.0], [4.0, 5.0]]),
              np.array([[800.0, 1.0]]), np.array([[1e308, -1e308]])]
    for x in inputs:
        with warnings.catch_warnings(record=True) as general_warned, monkeypatch.context() as patch:
            warnings.simplefilter("always")
            patch.setattr(elementwise_functions, "_QUIET_RANGE", {})  # (no direct path of any size)
            general = call(_general_form(x))
        with warnings.catch_warnings(record=True) as fast_warned:
            warnings.simplefilter("always")
            fast = call(x)
        assert _bits(fast) == _bits(general)
        assert len(fast_warned) <= len(general_warned)


@pytest.mark.parametrize("name", ["hypot", "atan2"])
def test_hypot_and_atan2_of_doubles_give_the_general_values(monkeypatch, name):
    fn = getattr(elementwise_functions, name)
    values = [_doubles((1, 3), 1), _doubles((1, 3), 2), _doubles((3, 1), 3), _doubles((2, 2), 4), 2.0, -0.0,
              math.nan, math.inf, np.array([[1.0]]), np.zeros((0, 3))]
    for a in values:
        for b in values:
            _same_as_without(monkeypatch, elementwise_functions, "_double_pair", fn, a, b)


def _same_as_without(monkeypatch, module, fast_path: str, fn, a: object, b: object) -> None:
    """``fn(a, b)`` gives what it gives with ``module.fast_path`` declining (or the same error)."""
    try:
        with monkeypatch.context() as patch:
            patch.setattr(module, fast_path, lambda *_: None)
            general = fn(a, b)
    except MatlabError as err:
        with pytest.raises(MatlabError) as caught:
            fn(a, b)
        assert caught.value.identifier == err.identifier
        return
    fast = fn(a, b)
    assert type(fast) is type(general)
    assert _bits(fast) == _bits(general)


def test_randperm_of_a_whole_double_gives_the_general_permutation():
    for seed in (1, 5489, 77):
        fast_session, general_session = _Session(seed), _Session(seed)
        for n in (0.0, 1.0, 2.0, 5.0, 8.0, 30.0, 5.0, 1.0):
            fast = random_functions.randperm(fast_session, n)
            general = random_functions.randperm(general_session, np.array([[n]]))  # (an array: general)
            assert type(fast) is type(general)
            assert _bits(fast) == _bits(general)
    for bad in (-1.0, 1.5, math.nan, math.inf):
        with pytest.raises(MatlabError):
            random_functions.randperm(_Session(1), bad)


@pytest.mark.parametrize("cls", NARROW)
@pytest.mark.parametrize("name", ["bitand", "bitor", "bitxor"])
def test_bit_functions_of_short_integers(monkeypatch, cls, name):
    fn = getattr(integer_functions, name)
    info = np.iinfo(cls)
    doubles = [0.0, -0.0, 3.0, 255.0, float(info.max), float(info.min), -1.0, 1.5, 256.0, 1e10, math.nan]
    for ints in _integers(cls):
        others = doubles + [ints, ints[..., ::-1].copy(), np.array([[1]], dtype=cls)]
        for other in others:
            for a, b in ((ints, other), (other, ints)):
                _same_as_without(monkeypatch, integer_functions, "_narrow_bits", fn, a, b)


@pytest.mark.parametrize("cls", NARROW)
@pytest.mark.parametrize("name", ["mod", "rem"])
def test_remainders_of_short_integers_and_a_double(cls, name):
    fn = getattr(rounding_functions, name)
    for ints in _integers(cls):
        for d in DOUBLES + [3.0, -3.0, 7.0, 2.5, -2.5]:
            fast = fn(ints, d)
            general = fn(_general_form(ints), d)
            assert _bits(fast) == _bits(general)


@pytest.mark.parametrize("cls", NARROW)
def test_whole_powers_of_short_integers(cls):
    for ints in _integers(cls):
        for p in [0.0, 1.0, 2.0, 3.0, 5.0, 17.0, 31.0, 32.0, 63.0, 64.0, 65.0, 2.5, -1.0, -0.0, math.nan]:
            for symbol in (".^", "^") if ints.size == 1 else (".^",):
                with np.errstate(all="ignore"):
                    _compare_binary(symbol, ints, p)


@pytest.mark.parametrize("cls", NARROW)
def test_bitshift_of_short_integers_by_a_whole_double(cls):
    bits = np.iinfo(cls).bits
    for ints in _integers(cls):
        for k in [0.0, -0.0, 1.0, 2.0, -1.0, -3.0, bits - 1.0, 1.0 - bits, float(bits), -float(bits), 100.0,
                  1.5, math.nan]:
            try:
                general = integer_functions.bitshift(_general_form(ints), k)
            except MatlabError as err:
                with pytest.raises(MatlabError) as caught:
                    integer_functions.bitshift(ints, k)
                assert caught.value.identifier == err.identifier
                continue
            fast = integer_functions.bitshift(ints, k)
            assert _bits(fast) == _bits(general), (ints, k)
