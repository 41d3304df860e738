"""The quick paths taken by operators, indexing and concatenation of short rows (the
statements of bench/matlab/small_arrays.m) give exactly what the general paths give: the
same class, dtype, shape, layout and values (NaN, Inf and the sign of zero included), and
decline (to the general path, with its errors) whatever they do not cover."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.values import concat, indexing, operators
from mlang.values.core import char_row, result
from mlang.values.double_arithmetic import ARITH
from mlang.values.subscripts import COLON
from tests.running import run
from tests.test_speed_small_indexing import outcome


def same(x: object, y: object) -> None:
    """x and y are the same MATLAB value: type, dtype, shape, layout and every bit."""
    assert type(x) is type(y), (x, y)
    if type(x) is np.ndarray:
        assert x.dtype == y.dtype and x.shape == y.shape, (x, y)
        assert x.flags.c_contiguous == y.flags.c_contiguous, (x, y)
        assert x.flags.f_contiguous == y.flags.f_contiguous, (x, y)
        assert x.flags.writeable == y.flags.writeable
        assert x.tobytes() == y.tobytes(), (x, y)
    elif type(x) is float:
        assert (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y))
    else:
        assert x == y, (x, y)


def same_outcome(x: object, y: object) -> None:
    if type(x) is tuple or type(y) is tuple:
        assert x == y
    else:
        same(x, y)


ROW = np.array([[0.0, -0.0, math.nan, math.inf, -math.inf, 1e308, -2.5, 7.0]])
MATRIX = np.arange(12.0).reshape(3, 4)

# ------------------------------------------------------------ [a, b, c] and [a; b]

PARTS = [
    np.array([[1.0, -0.0]]), np.array([[math.nan, math.inf, 3.0]]), np.array([[2.0], [-1.0]]),
    MATRIX, MATRIX[1:2, ::-1], MATRIX[:, 1:2], np.array([[True, False]]), np.array([[True], [False]]),
    char_row("ab"), char_row("xyz").reshape(1, 3), np.zeros((1, 0)), np.zeros((0, 0)), np.zeros((0, 2)),
    np.array([[1, 2]], dtype=np.int8), np.array([[1.5 + 2j, 3.0]]), np.ones((1, 2, 2)), np.ones((2, 2, 1))[:, :, 0],
    np.array([[1.0, 2.0]], dtype=np.float32), 4.0, True,
]


def _general(values: list, axis: int) -> object:
    rows = [values] if axis == 1 else [[v] for v in values]
    return outcome(concat.concatenate, rows)


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("count", [2, 3])
def test_joined_arrays_is_the_general_join_or_declines(axis: int, count: int) -> None:
    taken = 0
    for values in itertools.product(PARTS, repeat=count):
        values = list(values)
        quick = concat.joined_arrays(values, axis)
        if quick is None:
            continue
        taken += 1
        same(quick, _general(values, axis))
        assert all(quick is not v for v in values)
    assert taken > 10


@pytest.mark.parametrize("axis", [0, 1])
def test_joined_pair_is_joined_arrays_of_the_two(axis: int) -> None:
    arrays = [p for p in PARTS if type(p) is np.ndarray]
    taken = 0
    for a, b in itertools.product(arrays, repeat=2):
        quick, listed = concat.joined_pair(a, b, axis), concat.joined_arrays([a, b], axis)
        if listed is None:
            assert quick is None
            continue
        taken += 1
        same(quick, listed)
        assert quick is not a and quick is not b
    assert taken > 10


def test_joined_arrays_covers_short_rows_and_declines_misfits() -> None:
    a, b = np.array([[1.0, 2.0]]), np.array([[3.0, 4.0, 5.0]])
    same(concat.joined_arrays([a, b, a], 1), np.array([[1.0, 2.0, 3.0, 4.0, 5.0, 1.0, 2.0]]))
    same(concat.joined_arrays([b, b], 0), np.array([[3.0, 4.0, 5.0], [3.0, 4.0, 5.0]]))
    assert concat.joined_arrays([a, b], 0) is None  # (the general path's size error)
    assert concat.joined_arrays([a, np.array([[1, 2]], dtype=np.int8)], 1) is None
    assert concat.joined_arrays([a, np.array([[True, False]])], 1) is None
    assert concat.joined_arrays([a, np.zeros((1, 0))], 1) is None
    assert concat.joined_arrays([np.ones((1, 2, 2)), np.ones((1, 2, 2))], 1) is None
    assert concat.joined_arrays([a, np.ones((1, 2, 2))], 1) is None
    assert concat.joined_arrays([4.0, a], 1) is None


CONCAT_CODE = """
a = [1 2]; b = [3 4 5]; c = [true false]; s = 'ab'; e = zeros(1, 0);
x1 = [a, b, a]; x2 = [b; b]; x3 = [a, c]; x4 = [s, s]; x5 = [a, e, a]; x6 = [c, c, c];
x7 = [a, int8(b), a]; x8 = [s, a, s]; x9 = [a; a; a]; x10 = [c; c];
"""


def test_concatenation_of_variables_in_code() -> None:
    interp, _ = run(CONCAT_CODE)
    got = {k: interp.base.vars[k] for k in interp.base.vars if k.startswith("x")}
    a, b, c = np.array([[1.0, 2.0]]), np.array([[3.0, 4.0, 5.0]]), np.array([[True, False]])
    same(got["x1"], np.array([[1.0, 2.0, 3.0, 4.0, 5.0, 1.0, 2.0]]))
    same(got["x2"], np.concatenate([b, b], 0))
    same(got["x3"], np.array([[1.0, 2.0, 1.0, 0.0]]))
    same(got["x4"], concat.concatenate([[char_row("ab"), char_row("ab")]]))
    same(got["x5"], np.array([[1.0, 2.0, 1.0, 2.0]]))
    same(got["x6"], np.concatenate([c, c, c], 1))
    same(got["x7"], np.array([[1, 2, 3, 4, 5, 1, 2]], dtype=np.int8))
    same(got["x8"], concat.concatenate([[char_row("ab"), a, char_row("ab")]]))
    same(got["x9"], np.concatenate([a, a, a], 0))
    same(got["x10"], np.concatenate([c, c], 0))


@pytest.mark.parametrize("code, message", [
    ("a = [1 2]; b = [1 2 3]; x = [a; b];", "Dimensions of arrays being concatenated are not consistent."),
    ("a = [1 2]; b = [1; 2; 3]; x = [a, b, a];", "Dimensions of arrays being concatenated are not consistent."),
    ("a = [1 2]; x = [a, q, a];", "Unrecognized function or variable 'q'."),
])
def test_concatenation_errors_are_the_general_paths(code: str, message: str) -> None:
    with pytest.raises(MatlabError) as e:
        run(code)
    assert message in str(e.value)


def test_rows_of_two_and_three_expressions() -> None:
    interp, _ = run("k = 2; x = [k, k + 1, k - 2]; y = [k, 'a']; z = [int8(k), 2.7]; c = {1, 2};"
                    " w = [c{:}, k]; u = [k + 1, k]; t = [k, [1 2], k];")
    vars = interp.base.vars
    same(vars["x"], np.array([[2.0, 3.0, 0.0]]))
    same(vars["y"], concat.concatenate([[2.0, char_row("a")]]))
    same(vars["z"], np.array([[2, 3]], dtype=np.int8))
    same(vars["w"], np.array([[1.0, 2.0, 2.0]]))
    same(vars["u"], np.array([[3.0, 2.0]]))
    same(vars["t"], np.array([[2.0, 1.0, 2.0, 2.0]]))


# ------------------------------------------------------------ v(:) and v([1 3])

INDEXED = [
    ROW, ROW[:, ::-1], ROW[:, ::2], MATRIX, MATRIX[1:2, :], MATRIX[:, 2:3], MATRIX.T, np.array([[5.0]]),
    np.zeros((1, 0)), np.zeros((0, 3)), np.array([[True, False, True]]), char_row("abc"),
    np.array([[1, 2, 3]], dtype=np.int16), np.array([[1 + 2j, 3.0]]), np.ones((1, 3, 2)),
    np.array([[1.0, 2.0]], dtype=np.float32),
]


@pytest.mark.parametrize("value", INDEXED, ids=range(len(INDEXED)))
def test_index_all_is_the_general_colon(value: np.ndarray) -> None:
    quick = indexing.index_all(value)
    same(quick, indexing.index(value, [COLON]))
    assert quick is not value


@pytest.mark.parametrize("literal", [[1.0, 3.0], [3.0, 1.0, 3.0], [2.0, 2.0], [1.0, 9.0], [1.0, 13.0]])
@pytest.mark.parametrize("value", INDEXED, ids=range(len(INDEXED)))
def test_fixed_index_is_the_general_index(value: np.ndarray, literal: list) -> None:
    index = np.array([literal])
    at_positions = indexing.fixed_index(index)
    assert at_positions is not None
    quick = at_positions(value)
    general = outcome(indexing.index, value, [index])
    if quick is None:  # declined: what it does not cover
        assert value.dtype != np.float64 or value.ndim != 2 or value.size < max(literal)
        return
    same(quick, general)


# ------------------------------------------------------------ v / 2 and v .^ 2

OPERANDS = [ROW, MATRIX, MATRIX[::-1, 1:3], np.array([[3.0]]), np.array([[-0.0]]), np.zeros((1, 0)),
            np.zeros((0, 0)), np.array([[-2.0, 0.5, -0.0]])]
DIVISORS = [2.0, -0.0, 0.0, math.nan, math.inf, -3.0, 1e-310]


@pytest.mark.parametrize("symbol", ["/", "./"])
@pytest.mark.parametrize("a", OPERANDS, ids=range(len(OPERANDS)))
def test_array_divided_by_scalar_is_the_general_division(a: np.ndarray, symbol: str) -> None:
    for b in DIVISORS:
        with np.errstate(all="ignore"):
            general = result(ARITH["./"](a, np.array([[b]])))
            same(operators.binary(symbol, a, b), general)
            same(operators.mrdivide(a, b) if symbol == "/" else operators.elementwise("./", a, b), general)


@pytest.mark.parametrize("a", OPERANDS, ids=range(len(OPERANDS)))
def test_array_squared_is_the_general_power(a: np.ndarray) -> None:
    # ((-0) .^ 0.5 is left out: NumPy's scalar-exponent loop takes a square root there, and
    # the 1x1 and longer general paths differ in the sign of that zero)
    for p in [2.0, 3.0, 1.5, -2.0, math.nan]:
        with np.errstate(all="ignore"):
            general = result(ARITH[".^"](a, np.array([[p]])))
            same(operators.binary(".^", a, p), general)


def test_declined_operands_keep_their_classes() -> None:
    mask = np.array([[True, False]])
    same(operators.binary("/", mask, 2.0), np.array([[0.5, 0.0]]))
    same(operators.binary(".^", mask, 2.0), np.array([[1.0, 0.0]]))
    same(operators.binary("/", np.array([[3, 4]], dtype=np.int8), 2.0), np.array([[2, 2]], dtype=np.int8))
    single = operators.binary("/", np.array([[1.0, 2.0]], dtype=np.float32), 3.0)
    assert single.dtype == np.float32
    negative = np.array([[-8.0, 4.0]])
    same(operators.binary(".^", negative, 0.5), result(ARITH[".^"](negative, np.array([[0.5]]))))
    assert operators.binary(".^", negative, 0.5).dtype == np.complex128
    # a scalar over an array is mrdivide's (its size error), not element-wise division
    same_outcome(outcome(operators.binary, "/", 2.0, np.array([[1.0, 2.0]])),
                 outcome(operators.mrdivide, 2.0, np.array([[1.0, 2.0]])))
    assert type(outcome(operators.binary, "/", 2.0, np.array([[1.0, 2.0]]))) is tuple


# ------------------------------------------------------------ the benchmark's loop

def test_small_arrays_loop_values() -> None:
    code = """
    total = 0; count = 0; n = 40;
    for k = 1:n
        v = [k, k + 1, k - 2];
        a = v(1:2); b = v(2:end); c = v([1 3]); d = v(:); e = v / 2; f = v .^ 2;
        g = 2 * v + 1; h = v > k; w = [v; v]; x = [a, b, c]; v(2) = k;
        count = count + (k > n/2) + h(2);
        total = total + a(1) + b(end) + c(2) + d(3) + e(1) + f(3) + g(2) + w(2, 3) + x(6) + v(2) + sum(h);
    end
    """
    interp, _ = run(code)
    vars = interp.base.vars
    ks = np.arange(1.0, 41.0)
    # a(1) + b(end) + c(2) + d(3) + e(1) + f(3) + g(2) + w(2, 3) + x(6) + v(2) + sum(h)
    expect = float(np.sum(ks + 5 * (ks - 2) + ks / 2 + (ks - 2) ** 2 + (2 * (ks + 1) + 1) + ks + 1))
    assert vars["total"] == expect and vars["count"] == 60.0
    same(vars["d"], np.array([[40.0], [41.0], [38.0]]))
    same(vars["x"], np.array([[40.0, 41.0, 41.0, 38.0, 40.0, 38.0]]))
    same(vars["w"], np.array([[40.0, 41.0, 38.0], [40.0, 41.0, 38.0]]))
    same(vars["e"], np.array([[20.0, 20.5, 19.0]]))
    same(vars["f"], np.array([[1600.0, 1681.0, 1444.0]]))


# ------------------------------------------------------------ x(2), x(end), w(2, 3) in written loops

LITERAL_READS = ["x(1)", "x(2)", "x(3)", "x(6)", "x(end)", "x(2, 3)", "x(1, 1)", "x(3, 1)", "x(0)", "x(1.5)",
                 "x(2, 0)", "(x(end) + x(end))", "(x(1) + x(3))", "(x(end) + x(1))", "(x(2) + x(end))", "(x(1, 2) + x(2, 1))"]
HELD = ["[4 5 6]", "[4; -0; 6]", "[1 2 3; 4 5 6]", "[1 2 3; 4 5 6; 7 8 9]", "[true false true]", "int8([1 2 3])", "'abc'",
        "zeros(1, 0)", "single([1 2 3])", "[1+2i 3 4]", "7", "{1, 2, 3}", "[NaN -Inf 0 1 2 3]",
        "ones(2, 2, 2)"]


@pytest.mark.parametrize("held", HELD)
def test_literal_element_reads_in_written_loops_are_the_general_reads(
        monkeypatch: pytest.MonkeyPatch, held: str) -> None:
    from mlang.evaluation.compiler import loop_source
    from tests.test_fast_paths import outcome as program_outcome

    for read in LITERAL_READS:
        # as an operand (a logical element counts as a double) and as a value of its own
        code = (f"s = 0; t = 0; for k = 1:3, x = {held}; s = s + {read} * k; t = {read}; "
                "if k == 2, x = [9 8 7]; end, end")
        written = program_outcome(code, ["s", "t", "x", "k"])
        with monkeypatch.context() as m:
            m.setattr(loop_source, "range_loop", lambda compiler, node, var: None)
            general = program_outcome(code, ["s", "t", "x", "k"])
        assert written == general, code


def test_literal_element_reads_are_written_inline() -> None:
    from mlang.evaluation.compiler import loop_source

    sources: list[str] = []
    real = loop_source.LoopWriter.function

    def spy(self, *args):  # type: ignore[no-untyped-def]
        out = real(self, *args)
        sources.append("\n".join(self.lines))
        return out

    loop_source.LoopWriter.function = spy  # type: ignore[method-assign]
    try:
        interp, _ = run("x = [1 2 3; 4 5 6]; s = 0; for k = 1:2, s = s + x(2) + x(end) + x(2, 3); end")
    finally:
        loop_source.LoopWriter.function = real  # type: ignore[method-assign]
    assert interp.base.vars["s"] == 2 * (4.0 + 6.0 + 6.0)
    assert any("number_at(" in s and "number_last(" in s and "element2_at(" in s for s in sources)


ARRAY_STATEMENT_LOOPS = [
    "x = [1 2 3]; for k = 1:4, y = x + k; x = y * 2; z = [x, y]; w = z(2:end); end",
    "x = [1 2 3]; for k = 1:3, y = x / k; x = y; if k == 2, x = int8(x); end, end",
    "x = [1 2 3]; for k = 1:3, y = x + k; x = q + 1; end",
    "x = [1 2 3]; for k = 1:3, y = x(k + 1); x = [x, k]; end",
    "s = 'ab'; for k = 1:2, y = [s, s]; s = y(1:end - 1); end",
    "k = 0; while k < 3, k = k + 1; y = [k, k]; x = y'; end",
]


@pytest.mark.parametrize("code", ARRAY_STATEMENT_LOOPS)
def test_array_statements_of_written_loops_store_as_their_code(monkeypatch: pytest.MonkeyPatch,
                                                                code: str) -> None:
    from mlang.evaluation.compiler import loop_source
    from tests.test_fast_paths import outcome as program_outcome

    names = ["x", "y", "z", "w", "s", "k"]
    written = program_outcome(code, names)
    with monkeypatch.context() as m:
        m.setattr(loop_source, "range_loop", lambda compiler, node, var: None)
        m.setattr(loop_source, "while_loop", lambda compiler, node: None)
        general = program_outcome(code, names)
    assert written == general, code


def test_a_failing_array_statement_leaves_its_variable() -> None:
    import io

    from mlang.evaluation.interpreter import Interpreter

    interp = Interpreter(stdout=io.StringIO())
    with pytest.raises(MatlabError) as e:
        interp.run_source("x = [1 2 3]; y = 0;\nfor k = 1:3\n  y = x + k;\n  y = [x; 1 2];\nend")
    assert "Dimensions of arrays being concatenated are not consistent." in str(e.value)
    assert [frame.line for frame in e.value.exc.stack] == [4]
    same(interp.base.vars["y"], np.array([[2.0, 3.0, 4.0]]))


ROWS_OF_SCALARS = [
    "x = [k, k + 1, k - 2];", "x = [k, s];", "x = [-k, k ^ 2, k / 0];", "x = [k, y(2)];", "x = [k, h(1)];",
    "x = [s, s * 2];", "x = [k, 1];", "x = [k, mod(k, 2), max(k, s)];", "x = [k, y(end), y(2, 1)];",
    "x = [x, k];", "x = [k, s, -k, k / 3];", "x = [k, s, k, -k, k];", "x = [k, k > 2];", "x = [k, y(9)];", "x = [k, q];", "x = [k, 1e308 * 10, -0];", "x = [k; k];", "x = [k, [1 2]];",
]


@pytest.mark.parametrize("row", ROWS_OF_SCALARS)
def test_rows_of_scalars_in_written_loops_are_the_general_rows(monkeypatch: pytest.MonkeyPatch,
                                                               row: str) -> None:
    from mlang.evaluation.compiler import loop_source
    from tests.test_fast_paths import outcome as program_outcome

    # s and y change class midway: the written row gives way to the general one
    code = ("x = 0; s = 2; y = [5 6 7]; h = [true false]; for k = 1:4, "
            f"{row} z = x; x(1) = 9; if k == 2, s = int8(3); y = 'abc'; end, end")
    names = ["x", "z", "s", "k"]
    written = program_outcome(code, names)
    with monkeypatch.context() as m:
        m.setattr(loop_source, "range_loop", lambda compiler, node, var: None)
        general = program_outcome(code, names)
    assert written == general, code


def test_a_row_of_scalars_is_a_fresh_array_each_time() -> None:
    interp, _ = run("c = {}; for k = 1:3, x = [k, k + 1]; c{k} = x; x(1) = 0; end")
    cells = interp.base.vars["c"].data
    for k in range(3):
        same(cells[0, k], np.array([[k + 1.0, k + 2.0]]))
    same(interp.base.vars["x"], np.array([[0.0, 4.0]]))


def test_a_row_of_scalars_is_written_inline() -> None:
    from mlang.evaluation.compiler import loop_source

    sources: list[str] = []
    real = loop_source.LoopWriter.function

    def spy(self, *args):  # type: ignore[no-untyped-def]
        out = real(self, *args)
        sources.append("\n".join(self.lines))
        return out

    loop_source.LoopWriter.function = spy  # type: ignore[method-assign]
    try:
        interp, _ = run("for k = 1:3, v = [k, k + 1, k - 2]; w = [1, 2]; x = [x0, k]; end")
    except MatlabError:
        pass
    finally:
        loop_source.LoopWriter.function = real  # type: ignore[method-assign]
    assert any("row3(t" in s for s in sources)
    assert not any("array([[c" in s for s in sources)  # (a row of literals is made once)


def test_rows_made_element_by_element_are_numpy_rows() -> None:
    from mlang.evaluation.compiler import loop_runtime

    values = [1.5, -0.0, math.nan, math.inf, -math.inf, 1e-310, 2.0 ** 60 + 1, 1 / 3]
    for maker, n in ((loop_runtime.row2, 2), (loop_runtime.row3, 3), (loop_runtime.row4, 4)):
        for start in range(len(values) - n + 1):
            part = values[start:start + n]
            made, want = maker(*part), np.array([part])
            same(made, want)
            assert made.tobytes() == want.tobytes() and made.flags.c_contiguous and made.flags.writeable
            assert made.flags.owndata
