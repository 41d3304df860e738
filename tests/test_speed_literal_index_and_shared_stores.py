"""Literal index rows (``x([1 3])``, positions worked out when the code is compiled), literal
rows made once and copied, and ``x(k) = v`` on an array another value shares: the same
values and errors as the general paths, and no value reaches another."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.values import concat, indexing
from mlang.values.subscripts import COLON, owns_storage
from tests.running import run
from tests.test_speed_small_indexing import same, same_outcome

BASES = [
    "[10 20 30 40]", "[10; 20; 30; 40]", "[1 2; 3 4]", "magic(4)", "7", "[]", "zeros(1, 0)",
    "int8([1 2 3])", "single([1.5 2 3])", "[true false true]", "'abcd'", "[1+2i 3 4]",
    "{1, 'a', 3}", "string({'a', 'b', 'c'})", "reshape(1:8, 2, 2, 2)", "[NaN -0 Inf]",
    "struct('f', {1, 2, 3})",
]
INDICES = [
    "[1 3]", "[3 1 2]", "[2 2]", "[1 4]", "[4 1]", "[0 1]", "[1.5 2]", "[NaN 1]", "[Inf 1]",
    "[1 2 3 4 4 3 2 1]", "[1 -1]", "[1e20 1]",
]


def same_value(fast: object, slow: object) -> None:
    """Two outcomes (a value, or an error's identifier and message) are the same."""
    if type(fast) is np.ndarray and type(slow) is np.ndarray:
        same(fast, slow)
    else:
        assert type(fast) is type(slow) and repr(fast) == repr(slow)


def outcome_of(code: str, name: str) -> object:
    try:
        interp, _ = run(code)
    except MatlabError as e:
        return ("error", e.identifier, str(e))
    return interp.get(name)


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("literal", INDICES)
def test_literal_index_row_as_general(base: str, literal: str) -> None:
    # in a function, in a loop: the compiled paths; `idx` held in a variable: the general one
    fast = outcome_of(f"x = {base}; for t = 1:2, y = x({literal}); end", "y")
    slow = outcome_of(f"x = {base}; idx = {literal}; for t = 1:2, y = x(idx); end", "y")
    if type(fast) is tuple or type(slow) is tuple:
        assert fast == slow
    elif type(fast) is np.ndarray:
        same(fast, slow)
    else:
        assert type(fast) is type(slow) and repr(fast) == repr(slow)


def test_literal_index_positions_checked_once() -> None:
    at = indexing.fixed_index(np.array([[3.0, 1.0]]))
    assert at is not None
    row = np.array([[5.0, 6.0, 7.0]])
    same(at(row), indexing.index(row, [np.array([[3.0, 1.0]])]))
    assert at(np.array([[5.0, 6.0]])) is None  # too short: the general path's error
    assert at(np.array([[1, 2, 3]], dtype=np.int8)) is None
    for bad in ([[0.0, 1.0]], [[1.5, 1.0]], [[math.nan, 1.0]], [[1.0]], [[1.0], [2.0]]):
        assert indexing.fixed_index(np.array(bad)) is None


def test_literal_row_is_a_new_array_each_time() -> None:
    interp, out = run(
        "c = cell(1, 3);\n"
        "for k = 1:3\n"
        "    y = [1 2 3];\n"
        "    y(k) = 0;\n"
        "    c{k} = y;\n"
        "end\n"
        "z = [1 2 3];\n"
        "disp([c{:}]); disp(z)")
    assert out.split() == ["0", "2", "3", "1", "0", "3", "1", "2", "0", "1", "2", "3"]


@pytest.mark.parametrize("sharer, check", [
    ("d = v(:);", "d"), ("d = v;", "d"), ("s.f = v;", "s.f"), ("c = {v};", "c{1}"),
    ("d = v(1, :);", "d"), ("f = @() v;", "f()"),
])
def test_store_into_a_shared_array_leaves_the_sharer(sharer: str, check: str) -> None:
    interp, out = run(f"v = [1 2 3]; {sharer}\n"
                      "for k = 1:3\n"
                      "    v(k) = 10 * k;\n"
                      "end\n"
                      f"disp(v); disp(sum({check}))")
    assert out.split() == ["10", "20", "30", "6"]


@pytest.mark.parametrize("value", ["7", "-0", "NaN", "Inf", "1e308"])
@pytest.mark.parametrize("base", ["[1 2 3]", "[1; 2; 3]", "[1 2; 3 4]"])
@pytest.mark.parametrize("position", ["1", "2", "3", "4", "5", "0", "1.5"])
def test_store_into_a_shared_array_as_general(value: str, base: str, position: str) -> None:
    # shared through a view (`d = v(:)`) and through a struct: the quick store copies;
    # an index held in a cell goes the general way
    fast = outcome_of(f"v = {base}; d = v(:); v({position}) = {value};", "v")
    slow = outcome_of(f"v = {base}; d = v(:); c = {{{position}}}; v(c{{:}}) = {value};", "v")
    same_outcome(fast, slow)


def test_builtin_calls_in_written_loops_follow_what_the_name_means(tmp_path) -> None:
    # a local function of the file, then a file on the path added between two calls
    (tmp_path / "calls_mod.m").write_text(
        "function s = calls_mod(n)\ns = 0;\nfor k = 1:n\n    s = s + mod(k, 3) + abs(-k);\nend\nend\n"
        "function r = mod(a, b)\nr = 100;\nend\n")
    (tmp_path / "calls_abs.m").write_text(
        "function s = calls_abs(n)\ns = 0;\nfor k = 1:n\n    s = s + abs(-k);\nend\nend\n")
    later = tmp_path / "later"
    later.mkdir()
    (later / "abs.m").write_text("function r = abs(x)\nr = 1000;\nend\n")
    interp, _ = run(f"addpath('{tmp_path}'); a = calls_mod(3); b = calls_abs(3);")
    assert interp.get("a") == 300.0 + 6.0
    assert interp.get("b") == 6.0
    interp.eval(f"addpath('{later}'); c = calls_abs(3);")
    assert interp.get("c") == 3000.0


JOIN_VALUES = ["[1 2 3]", "[4; 5]", "[1 2; 3 4]", "7", "[]", "zeros(1, 0)", "zeros(0, 3)",
               "int8([1 2 3])", "single([1 2])", "[true false]", "'ab'", "[1i 2]", "{1, 2}",
               "string('s')", "reshape(1:8, 2, 2, 2)", "[NaN -0 Inf]", "struct('f', 1)", "['ab'; 'cd']",
               "''", "'x'", "true", "[true; false]", "char([55357 56832])"]


@pytest.mark.parametrize("a", JOIN_VALUES)
@pytest.mark.parametrize("b", JOIN_VALUES)
@pytest.mark.parametrize("form", ["[a; b]", "[a, b]", "[a, b, a]", "[b; a; b]"])
def test_matrix_of_variables_as_general(a: str, b: str, form: str) -> None:
    general = form.replace("a", "(a)").replace("b", "(b)")  # not plain names: the general code
    fast = outcome_of(f"a = {a}; b = {b}; for t = 1:2, y = {form}; end", "y")
    slow = outcome_of(f"a = {a}; b = {b}; for t = 1:2, y = {general}; end", "y")
    same_value(fast, slow)


@pytest.mark.parametrize("code, expected", [
    ("a = [1 2]; y = [a; pi];", None),  # a function's name: the general code
    ("y = [pi, pi];", None),
    ("a = [1 2]; y = [a, undefined_name];", "MATLAB:UndefinedFunction"),
    ("a = [1 2]; y = [a; a]; y(1) = 5; z = a;", None),  # the join is an array of its own
])
def test_matrix_of_names_that_are_not_all_variables(code: str, expected: str | None) -> None:
    got = outcome_of(code, "y")
    if expected is not None:
        assert type(got) is tuple and got[1] == expected
        return
    general = outcome_of(code.replace("[a", "[(a)").replace("[pi", "[(pi)"), "y")
    same(got, general)


def test_joined_arrays_declines_what_it_does_not_join() -> None:
    row = np.array([[1.0, 2.0]])
    same(concat.joined_arrays([row, row], 0), np.array([[1.0, 2.0], [1.0, 2.0]]))
    same(concat.joined_arrays([row, row], 1), np.array([[1.0, 2.0, 1.0, 2.0]]))
    for values, axis in [([row, np.ones((1, 3))], 0), ([row, np.ones((2, 1))], 1), ([row, 1.0], 1),
                         ([row, row.astype(np.float32)], 0), ([row, np.zeros((0, 2))], 0),
                         ([1.0, row], 1), ([row, np.ones((1, 2, 2))], 1)]:
        assert concat.joined_arrays(values, axis) is None


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("span", ["1:2", "2:3", "2:4", "1:end", "2:end", "3:end", "4:end", "5:end",
                                  "0:2", "1.5:3", "2:10", "3:2", "2:2", "1:1e20"])
def test_fixed_range_index_as_general(base: str, span: str) -> None:
    general = span.replace("end", "numel(x)")
    fast = outcome_of(f"x = {base}; for t = 1:2, y = x({span}); end", "y")
    slow = outcome_of(f"x = {base}; idx = {general}; for t = 1:2, y = x(idx); end", "y")
    same_value(fast, slow)
    if type(fast) is np.ndarray:
        assert owns_storage(fast)  # an array of its own, as before


def test_written_statements_let_go_of_what_they_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # `e = v / 2` is tried inline, reads the array v, fails its check and runs its general
    # code: the store that follows still finds v unshared and writes it in place
    from mlang.evaluation.compiler import loop_source

    in_place = []
    store = loop_source.store_element

    def counting(vars: dict, name: str, k: float, v: float) -> bool:
        in_place.append(store(vars, name, k, v))
        return in_place[-1]

    monkeypatch.setattr(loop_source, "store_element", counting)
    interp, _ = run("v = zeros(1, 3); for k = 1:3, e = v / 2; f = v + k; v(k) = k; end")
    same(interp.get("v"), np.array([[1.0, 2.0, 3.0]]))
    assert in_place == [True, True, True]


ROW_PARTS = ["k", "[1 2 3]", "[-0 NaN]", "zeros(1, 0)", "[1; 2]", "int8(5)", "single(2)", "true",
             "'a'", "1:20", "{1}", "[]", "1i", "[1 2; 3 4]"]


@pytest.mark.parametrize("a", ROW_PARTS)
@pytest.mark.parametrize("b", ROW_PARTS)
def test_short_double_rows_as_general(a: str, b: str) -> None:
    # [a, b, k] (not all names: the row code) against the general concatenation
    fast = outcome_of(f"k = 3; for t = 1:2, y = [{a}, {b}, k]; end", "y")
    slow = outcome_of(f"k = 3; for t = 1:2, y = horzcat({a}, {b}, k); end", "y")
    same_value(fast, slow)
    assert concat.short_double_row([np.array([[1.0, 2.0]])]) is None  # one part: as it is


@pytest.mark.parametrize("call", ["y = probe_prints(1);", "y = probe_prints(1, 2);",
                                  "y = probe_prints(1) + 1;"])
def test_a_call_for_a_value_the_function_does_not_give_runs_once(
        monkeypatch: pytest.MonkeyPatch, call: str) -> None:
    from mlang.registry import BUILTINS, Builtin

    calls = []
    probe = Builtin(name="probe_prints", fn=lambda *args: calls.append(args), min_in=1, max_in=2,
                    max_out=1, help="")
    monkeypatch.setitem(BUILTINS, "probe_prints", probe)
    # three times at one site: resolved at the first, called directly at the others
    interp, _ = run(f"ids = {{}}; for t = 1:3, try, {call} catch e, ids{{end+1}} = e.identifier; end, end")
    assert interp.get("ids") == ["MATLAB:TooManyOutputs"] * 3
    assert len(calls) == 3


SUBSCRIPT_BASES = ["magic(4)", "[1 2 3 4]", "[1; 2; 3]", "7", "zeros(0, 3)", "int8(magic(3))",
                   "'abcd'", "[true false; false true]", "[1+2i 3; 4 5]", "[1+2i 3; 4 5i]",
                   "reshape(1:8, 2, 2, 2)", "single(magic(3))", "{1, 2; 3, 4}", "[NaN -0; Inf 1]"]
SUBSCRIPTS = ["1:2", "2:end", ":", "1", "end", "end:-1:1", "1:2:end", "2:1", "0:1", "1.5:2", "1:5",
              "3:-1:1", "1:1"]


@pytest.mark.parametrize("base", SUBSCRIPT_BASES)
@pytest.mark.parametrize("rows", SUBSCRIPTS)
@pytest.mark.parametrize("cols", ["1:2", ":", "2", "end", "2:end", "1:0"])
def test_two_subscripts_with_ranges_as_general(base: str, rows: str, cols: str) -> None:
    # the general path: ``index`` on the subscripts' values (``end`` standing for the sizes)
    try:
        fast = run(f"x = {base}; for t = 1:2, y = x({rows}, {cols}); end")[0].base.vars["y"]
    except MatlabError as e:
        fast = ("error", e.identifier, str(e))
    interp, _ = run(f"x = {base}; ends = size(x); ends = [ends(1), prod(ends(2:end))]; "
                    f"r = {rows.replace('end', 'ends(1)') if rows != ':' else 0}; "
                    f"c = {cols.replace('end', 'ends(2)') if cols != ':' else 0};")
    subscripts = [COLON if sub == ":" else interp.base.vars[name] for sub, name in ((rows, "r"), (cols, "c"))]
    try:
        slow = indexing.index(interp.base.vars["x"], subscripts)
    except MatlabError as e:
        slow = ("error", e.identifier, str(e))
    same_value(fast, slow)


BLOCK_TARGETS = [np.arange(12.0).reshape(3, 4), np.zeros((1, 3)), np.zeros((3, 1)), np.zeros((1, 1)),
                 np.zeros((0, 3)), np.arange(6).reshape(2, 3).astype(np.int8),
                 np.asfortranarray(np.arange(6.0).reshape(2, 3)), np.zeros((2, 2, 2))]
BLOCK_SUBSCRIPTS = [COLON, 1.0, 2.0, 4.0, 0.0, 1.5, math.nan, np.array([[1.0, 2.0]])]
BLOCK_VALUES = [7.0, -0.0, math.nan, np.array([[1.0, 2.0, 3.0, 4.0]]), np.array([[1.0], [2.0], [3.0]]),
                np.array([[1.0, 2.0, 3.0]]), np.zeros((0, 0)), np.array([[1.0, 2.0], [3.0, 4.0]]), True,
                np.array([[1, 2, 3]], dtype=np.int8), 1j, np.ones((2, 2, 3))]


@pytest.mark.parametrize("target", range(len(BLOCK_TARGETS)))
@pytest.mark.parametrize("rows", range(len(BLOCK_SUBSCRIPTS)))
@pytest.mark.parametrize("cols", range(len(BLOCK_SUBSCRIPTS)))
@pytest.mark.parametrize("rhs", range(len(BLOCK_VALUES)))
def test_assign_block_as_general(target: int, rows: int, cols: int, rhs: int) -> None:
    subscripts = [BLOCK_SUBSCRIPTS[rows], BLOCK_SUBSCRIPTS[cols]]
    value = BLOCK_VALUES[rhs]
    fast_target = BLOCK_TARGETS[target].copy(order="A")
    fast = indexing.assign_block(fast_target, subscripts, value, True)
    if fast is None:
        return  # declined: the general path runs
    try:
        slow = indexing.assign(BLOCK_TARGETS[target].copy(order="A"), subscripts, value, True)
    except MatlabError as e:
        pytest.fail(f"the block store took what the general store refuses: {e.identifier}")
    same(fast, slow)
    # not owned: the target is left as it was
    kept = BLOCK_TARGETS[target].copy(order="A")
    shared = indexing.assign_block(kept, subscripts, value, False)
    same(shared, indexing.assign(BLOCK_TARGETS[target].copy(order="A"), subscripts, value, False))
    same(kept, BLOCK_TARGETS[target])


@pytest.mark.parametrize("code, name, expected", [
    ("A = zeros(2, 3); B = A; A(2, :) = [1 2 3];", "B", np.zeros((2, 3))),
    ("A = zeros(2, 3); for k = 1:3, A(2, :) = [k 2 3]; end", "A", np.array([[0.0, 0, 0], [3, 2, 3]])),
    ("A = zeros(2, 3); s.f = A; A(:, 2) = 5;", "s", None),
    ("A = zeros(2, 3); A(:, 2) = [1; 2];", "A", np.array([[0.0, 1, 0], [0, 2, 0]])),
    ("A = zeros(2, 3); A(:, 2) = [1 2];", "A", np.array([[0.0, 1, 0], [0, 2, 0]])),
])
def test_block_stores_in_code(code: str, name: str, expected: object) -> None:
    interp, _ = run(code)
    if name == "s":
        same(interp.base.vars["s"].elems[0, 0]["f"], np.zeros((2, 3)))
    else:
        same(interp.base.vars[name], expected)


MASK_BASES = ["[1 5 2 7]", "[1; 5; 2; 7]", "[1 5; 2 7]", "int8([1 5 2 7])", "'abcd'", "{1, 5; 2, 7}",
              "[1+1i 5 2 7]", "[NaN -0 5 Inf]", "single([1 5 2 7])", "[true false true true]",
              "string({'a', 'b', 'c', 'd'})", "zeros(1, 0)", "reshape(1:8, 2, 2, 2)"]
MASKS = ["[true false true false]", "[true true; true false]", "[true; false; true; false]", "[true false; true false]",
         "false(1, 4)", "true(1, 4)", "[false false false true]", "false(1, 0)", "true",
         "[true false true]", "logical([1 0 1 0 1])"]


@pytest.mark.parametrize("base", MASK_BASES)
@pytest.mark.parametrize("mask", MASKS)
def test_logical_mask_index_as_general(monkeypatch: pytest.MonkeyPatch, base: str, mask: str) -> None:
    def outcome() -> object:
        try:
            return run(f"x = {base}; m = {mask}; y = x(m);")[0].base.vars["y"]
        except MatlabError as e:
            return ("error", e.identifier)

    fast = outcome()
    monkeypatch.setattr(indexing, "_BOOL_DTYPE", None)  # no mask is of this dtype: the general path
    slow = outcome()
    same_value(fast, slow)


@pytest.fixture
def attempts_made(monkeypatch: pytest.MonkeyPatch) -> list:
    """The Attempts objects written loops make from now on, in order."""
    from mlang.evaluation.compiler import loop_source

    made: list = []

    class Counting(loop_source.Attempts):
        __slots__ = ()

        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    monkeypatch.setattr(loop_source, "Attempts", Counting)
    return made


def test_inline_statements_on_arrays_stop_being_tried(attempts_made: list) -> None:
    from mlang.evaluation.compiler import loop_source

    interp, _ = run("v = [1 2 3]; s = 0; for k = 1:40, e = v / 2; s = s + k; end")
    same(interp.get("e"), np.array([[0.5, 1.0, 1.5]]))
    assert interp.get("s") == 820.0
    array_statement, scalar_statement = attempts_made
    assert not array_statement.live and array_statement.misses == loop_source.Attempts.MISSES
    assert scalar_statement.live and scalar_statement.misses == 0


def test_a_statement_no_longer_tried_stays_so_when_the_loop_runs_again(attempts_made: list,
                                                                      tmp_path) -> None:
    from mlang.evaluation.compiler import loop_source

    (tmp_path / "halves.m").write_text(
        "function e = halves(v, n)\nfor k = 1:n\n    e = v / 2;\nend\nend\n")
    interp, _ = run(f"addpath('{tmp_path}'); a = halves([1 2 3], 20); b = halves([1 2 3], 10); "
                    "c = halves(4, 3);")
    same(interp.get("b"), np.array([[0.5, 1.0, 1.5]]))
    assert interp.get("c") == 2.0
    (attempts,) = attempts_made
    assert not attempts.live and attempts.misses == loop_source.Attempts.MISSES


RANGE_ENDS = [0.0, 1.0, -1.0, 0.1, 0.3, 1e16, -2.5, 3.0, 1 / 3, 2.0 ** 52, 1e-300, 7.0]
RANGE_STEPS = [1.0, -1.0, 0.1, 0.2, -0.3, 1 / 3, 2.0, 1e15, 0.7]


@pytest.mark.parametrize("a", RANGE_ENDS)
@pytest.mark.parametrize("s", RANGE_STEPS)
@pytest.mark.parametrize("count", [2, 3, 5, 15, 16, 17])
def test_short_ranges_as_long_ones(monkeypatch: pytest.MonkeyPatch, a: float, s: float, count: int) -> None:
    from mlang.values import ranges

    for b in (a + s * (count - 1), a + s * (count - 1) * (1 + 1e-16), a + s * (count - 0.5),
              round(a + s * (count - 1), 10)):
        quick = ranges.colon_range(a, s, b)
        with monkeypatch.context() as m:
            m.setattr(ranges, "_SHORT", 0)
            same(quick, ranges.colon_range(a, s, b))


@pytest.mark.parametrize("target", ["[1 5 2 7]", "[1; 5; 2; 7]", "[1 5; 2 7]", "7", "int8([1 5 2 7])",
                                    "single([1 5 2 7])", "[1+1i 5 2 7]", "zeros(1, 0)", "'abcd'"])
@pytest.mark.parametrize("mask", ["x > 2", "x > 100", "true(size(x))", "[true false true false]",
                                  "[true; false]", "logical([1 0 1 0 1])"])
@pytest.mark.parametrize("rhs", ["0", "-0", "NaN", "[9 8]", "1i", "int8(3)", "true", "[]"])
def test_masked_stores_as_general(monkeypatch: pytest.MonkeyPatch, target: str, mask: str, rhs: str) -> None:
    code = f"x = {target}; y = x; m = {mask}; x(m) = {rhs};"

    def outcome() -> object:
        try:
            interp, _ = run(code)
        except MatlabError as e:
            return ("error", e.identifier)
        return interp.base.vars["x"], interp.base.vars["y"]

    fast = outcome()
    monkeypatch.setattr(indexing, "assign_masked", lambda *args: None)  # the general path
    slow = outcome()
    if len(fast) == 2 and type(fast[0]) is str:  # an error
        assert fast == slow
        return
    for a, b in zip(fast, slow, strict=True):
        same_value(a, b)


@pytest.mark.parametrize("start", ["[]", "zeros(1, 0)", "zeros(0, 1)", "zeros(0, 3)", "5", "-0", "int8([])",
                                   "''", "single([])", "{}", "true", "[1 2]"])
@pytest.mark.parametrize("value", ["7", "NaN", "int8(3)", "'a'", "true"])
def test_appends_that_start_a_vector_as_general(monkeypatch: pytest.MonkeyPatch, start: str, value: str) -> None:
    from mlang.evaluation.compiler import assignment, loop_runtime

    code = f"x = {start}; y = x; x(end+1) = {value}; x(end+1) = 2; x(end+1) = 3;"

    def outcome() -> object:
        try:
            interp, _ = run(code + f" for t = 1:2, z = {start}; z(end+1) = {value}; z(end+1) = 4; end")
        except MatlabError as e:
            return ("error", e.identifier)
        return tuple(interp.base.vars[n] for n in ("x", "y", "z"))

    fast = outcome()
    monkeypatch.setattr(assignment, "append_to_start", lambda *args: False)
    monkeypatch.setattr(loop_runtime, "append_to_start", lambda *args: False)
    slow = outcome()
    assert len(fast) == len(slow)
    for a, b in zip(fast, slow, strict=True):
        same_value(a, b)
