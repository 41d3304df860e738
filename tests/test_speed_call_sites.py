"""The call sites' fast paths give exactly what the general paths give.

* A run of ``+``/``-`` (``total + a + b - c``) computed in one loop (``sum_chain``) against the
  same operators applied one at a time: the parenthesised form, which compiles to one closure
  for each operator, and ``operators.binary`` in Python.
* A builtin's function called by the call site itself (``Builtin.inline_call``) and a
  specialized call taking its arguments as they are (``direct_value_of``) against the
  builtin's general ``call``: the same value, class and bits, the same error identifiers and
  messages, with the function's name ("Error using f"), and the routes (sparse, dlarray)
  kept.  Each site runs in a loop, so that it runs again once resolved.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import numpy as np
import pytest

from mlang.errors import MatlabError
from mlang.evaluation.interpreter import Interpreter
from mlang.registry import BUILTINS, MISSING_LITERAL
from mlang.values import operators
from mlang.values.cell import Cell
from mlang.values.core import char_row

from .running import run
from .test_speed_small_builtins import same

NAN, INF = math.nan, math.inf

OPERANDS = ["1", "-0", "0", "NaN", "Inf", "-Inf", "1e308", "2.5", "true", "false", "int8(100)",
            "int8(-100)", "single(1.5)", "[1 2 3]", "[1; 2]", "'ab'", "1+2i", "[]", "zeros(1, 0)",
            "{1}", "uint8(200)", "[true false true]"]


def _outcome(source: str) -> tuple:
    """(display, or the error identifier and message) of running ``source``."""
    try:
        _, out = run(source)
        return ("ok", out)
    except MatlabError as exc:
        return ("error", exc.exc.identifier, str(exc))


@pytest.mark.parametrize("ops", [("+", "+", "+"), ("-", "+", "-"), ("+", "-", "+", "+", "-")])
def test_sum_chains_match_the_operators_one_at_a_time(ops: tuple) -> None:
    rng = np.random.default_rng(len(ops))
    for _ in range(60):
        terms = [OPERANDS[i] for i in rng.integers(0, len(OPERANDS), len(ops) + 1)]
        chained = terms[0]
        nested = terms[0]
        for op, term in zip(ops, terms[1:], strict=True):
            chained = f"{chained} {op} ({term})"
            nested = f"({nested}) {op} ({term})"  # (a parenthesised left: one closure an operator)
        setup = "".join(f"x{i} = {t}; " for i, t in enumerate(terms))
        chained_names, nested_names = "x0", "x0"
        for i, op in enumerate(ops, 1):
            chained_names = f"{chained_names} {op} x{i}"
            nested_names = f"({nested_names}) {op} x{i}"
        for loop in (False, True):
            body = f"y = {chained}; z = {chained_names}; disp(class(y)); disp(y); disp(class(z)); disp(z)"
            reference = f"y = {nested}; z = {nested_names}; disp(class(y)); disp(y); disp(class(z)); disp(z)"
            if loop:
                body, reference = (f"for k = 1:2, {b}; end" for b in (body, reference))
            assert _outcome(setup + body) == _outcome(setup + reference), (chained, loop)


def test_sum_chains_of_double_scalars_keep_every_bit() -> None:
    values = [0.1, 0.2, 0.3, 1e16, 1.0, -1e16, -0.0, 0.0, NAN, INF, -INF, 1e308, 1e308, 5e-324, -0.0]
    rng = np.random.default_rng(5)
    for _ in range(40):
        chosen = [values[i] for i in rng.integers(0, len(values), 6)]
        ops = ["+" if s else "-" for s in rng.integers(0, 2, 5)]
        names = [f"v{i}" for i in range(6)]
        setup = "".join(f"{n} = {_literal(v)}; " for n, v in zip(names, chosen, strict=True))
        expr = names[0] + "".join(f" {op} {n}" for op, n in zip(ops, names[1:], strict=True))
        interp, _ = run(setup + f"y = {expr};")  # (not in a loop: loops are written as Python)
        expected = chosen[0]
        for op, v in zip(ops, chosen[1:], strict=True):
            expected = operators.binary(op, expected, v)
        got = interp.base.vars["y"]
        assert type(got) is float, (expr, chosen)
        same(got, expected)


def _literal(v: float) -> str:
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Inf" if v > 0 else "-Inf"
    return "-0" if v == 0.0 and math.copysign(1.0, v) < 0 else repr(v)


def _run_script(tmp_path: Path, script: str) -> str:
    """What the script ``script`` prints, with the function ``t`` (prints numel(x), returns x)
    beside it."""
    (tmp_path / "t.m").write_text("function r = t(x)\nfprintf('%d ', numel(x)); r = x;\nend\n")
    (tmp_path / "main.m").write_text(script)
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    interp.run_file(tmp_path / "main.m")
    return out.getvalue()


def test_sum_chains_evaluate_their_terms_in_order_and_stop_at_an_error(tmp_path: Path) -> None:
    out = _run_script(tmp_path, "y = t(1) + t([1 2]) - t(3) + t(4); disp(y)\n")
    assert out.split() == ["1", "2", "1", "1", "3", "4"]
    chained = "try, y = t(1) + t([1 2]) + t([1 2 3]) + t(4); catch e, disp(e.identifier), end\n"
    out = _run_script(tmp_path, chained)
    nested = _run_script(tmp_path, chained.replace("t(1) + t([1 2]) + t([1 2 3])",
                                                   "((t(1) + t([1 2])) + t([1 2 3]))"))
    assert out == nested
    assert out.split() == ["1", "2", "3", "MATLAB:sizeDimensionsMustMatch"]


# builtins called at one- and two-argument sites: (name, argument lists)
SITES = [
    ("abs", [(-3.0,), (-0.0,), (NAN,), (np.array([[1.0, -2.0]]),), (np.array([[-128]], dtype=np.int8),), (True,),
             (1 + 2j,)]),
    ("numel", [(np.zeros((2, 3)),), (3.0,), (char_row("ab"),)]),
    ("max", [(np.array([[5.0, 6.0, 3.0]]),), (np.array([[NAN, 1.0]]),), (np.zeros((1, 0)),),
             (np.array([[1.0, 2.0]]), 1.5), (3.0, NAN)]),
    ("any", [(np.array([[False, True]]),), (np.array([[NAN]]),), (np.zeros((0, 0)),)]),
    ("mod", [(5.0, 7.0), (-5.0, 3.0), (5.0, 0.0), (-0.0, 3.0), (INF, 2.0), (np.array([[1.0, 9.0]]), 4.0),
             (np.array([[7]], dtype=np.int8), 2.5), (1 + 1j, 2.0)]),
    ("gcd", [(12.0, 18.0), (1.5, 2.0), (np.array([[4]], dtype=np.int8), 6.0)]),
    ("atan2", [(1.0, 1.0), (-0.0, -1.0), (NAN, 1.0), (1 + 1j, 1.0)]),
    ("dot", [(np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]])), (np.array([[1.0]]), np.array([[1.0, 2.0]]))]),
    ("isempty", [(np.zeros((1, 0)),), (2.0,)]),
    ("round", [(2.5,), (-2.5,), (np.array([[0.5, 1.5]]),)]),
    ("sqrt", [(-4.0,), (4.0,)]),
    ("fileparts", [(char_row("a/b.m"),)]),  # (outputs returned as a tuple)
    ("meshgrid", [(np.array([[1.0, 2.0]]),)]),
    ("cart2pol", [(1.0, 2.0)]),
]


def _general(name: str, args: tuple) -> tuple:
    """What the builtin's general ``call`` gives: ("ok", value) or the error it raises."""
    interp, _ = run("")
    try:
        return ("ok", BUILTINS[name].call(interp, list(args), 1)[0])
    except MatlabError as exc:
        return ("error", exc.exc.identifier, exc.exc.message, exc.exc.function)


def _general_no_value(name: str, args: tuple) -> tuple:
    """The error the general path raises for the value of a call giving none."""
    interp, _ = run("")
    try:
        interp.run_source(f"y = feval('{name}', " + ", ".join(map(str, args)) + ");")
    except MatlabError as exc:
        return ("error", exc.exc.identifier, exc.exc.message, exc.exc.function)
    raise AssertionError(name)


def _at_site(name: str, args: tuple) -> tuple:
    """What the call site ``name(a)`` or ``name(a, b)`` gives on its later runs (the first
    resolves the function)."""
    names = ", ".join(f"a{i}" for i in range(len(args)))
    interp, _ = run("")
    interp.base.vars.update({f"a{i}": a for i, a in enumerate(args)})
    outcomes = []
    for _ in range(2):
        try:  # (in a cell: a statement that written loops leave to its compiled closures)
            interp.run_source(f"for k = 1:3, c = {{{name}({names})}}; end; y = c{{1}};")
            outcomes.append(("ok", interp.base.vars["y"]))
        except MatlabError as exc:
            outcomes.append(("error", exc.exc.identifier, exc.exc.message, exc.exc.function))
    assert outcomes[0][0] == outcomes[1][0]
    return outcomes[1]


@pytest.mark.parametrize(("name", "cases"), SITES)
def test_a_builtin_called_by_its_site_gives_what_its_call_gives(name: str, cases: list) -> None:
    for args in cases:
        expected = _general(name, args)
        got = _at_site(name, args)
        assert got[0] == expected[0], (name, args, got, expected)
        if got[0] == "ok":
            same(got[1], expected[1])
        else:
            assert got == expected, (name, args)
            assert got[3] == name  # "Error using abs"


# (good arguments, arguments the function raises an error for)
FAILING = [("abs", (1.0,), (Cell.filled((1, 1)),)), ("mod", (1.0, 2.0), (Cell.filled((1, 1)), 2.0)),
           ("mod", (1.0, 2.0), (np.zeros((1, 2)), np.zeros((1, 3)))),
           ("atan2", (1.0, 2.0), (1.0, np.zeros((1, 3), dtype=np.float32) + 1j))]


@pytest.mark.parametrize(("name", "good", "bad"), FAILING)
def test_an_error_at_a_resolved_site_is_the_general_one(name: str, good: tuple, bad: tuple) -> None:
    interp, _ = run("")
    interp.base.vars.update({f"a{i}": a for i, a in enumerate(good)})
    interp.base.vars.update({f"b{i}": b for i, b in enumerate(bad)})
    swap = " ".join(f"a{i} = b{i};" for i in range(len(good)))
    names = ", ".join(f"a{i}" for i in range(len(good)))
    with pytest.raises(MatlabError) as raised:  # (the site resolved, then called on the bad ones)
        interp.run_source(f"for k = 1:3, if k == 3, {swap} end; c = {{{name}({names})}}; end")
    assert interp.base.vars["k"] == 3.0
    got = raised.value.exc
    assert ("error", got.identifier, got.message, got.function) == _general(name, bad)
    assert got.function == name  # "Error using mod"


def test_a_site_of_a_function_without_a_value_raises_too_many_outputs() -> None:
    assert _at_site("disp", (1.0,)) == _general_no_value("disp", (1.0,))


def test_routed_arguments_keep_their_routes_at_inline_sites() -> None:
    s = run("s = sparse([1 0 -2]);")[0].base.vars["s"]
    for name, args in (("abs", (s,)), ("mod", (s, 2.0)), ("atan2", (1.0, s))):
        expected, got = _general(name, args), _at_site(name, args)
        assert type(got[1]) is type(expected[1]), name
        same(_dense(got[1]), _dense(expected[1]))
    assert type(_at_site("abs", (s,))[1]) is type(s)  # (sparse stays sparse)
    _, out = run("x = dlarray([1 -2]); for k = 1:2, y = abs(x); z = atan2(x, 1); end; "
                 "disp(class(y)); disp(extractdata(y)); disp(class(z))")
    assert out.split() == ["dlarray", "1", "2", "dlarray"]


def _dense(x: object) -> object:
    return x.full() if hasattr(x, "full") else x


def test_inline_call_is_declined_where_it_does_not_apply() -> None:
    none = (MISSING_LITERAL,)
    assert BUILTINS["abs"].inline_call(1, none) == (BUILTINS["abs"].fn, BUILTINS["abs"].routes, False)
    assert BUILTINS["max"].inline_call(2, none * 2)[2] is True  # takes nargout=1
    assert BUILTINS["abs"].inline_call(2, none * 2) is None  # too many inputs
    assert BUILTINS["size"].inline_call(2, (MISSING_LITERAL, 1.0)) is None  # specialized
    interp_builtins = [b for b in (BUILTINS.get(n) for n in ("eval", "feval", "cellfun")) if b is not None]
    assert interp_builtins and all(b.wants_interp for b in interp_builtins)
    assert all(b.inline_call(1, none) is None for b in interp_builtins)


SPECIALIZED = [
    ("size", (MISSING_LITERAL, 1.0), [(np.zeros((2, 3)), 1.0), (np.zeros((2, 3, 4)), 1.0), (char_row("abc"), 1.0)]),
    ("find", (MISSING_LITERAL, 1.0), [(np.array([[0.0, 2.0, 3.0]]), 1.0), (np.zeros((1, 3)), 1.0),
                                      (np.array([[0.0, -0.0]]), 1.0), (np.array([[NAN]]), 1.0)]),
    ("zeros", (1.0, 2.0), [(1.0, 2.0)]),
    ]


@pytest.mark.parametrize(("name", "literals", "cases"), SPECIALIZED)
def test_a_specialized_positional_call_gives_the_specialized_list_call(name: str, literals: tuple,
                                                                        cases: list) -> None:
    builtin = BUILTINS[name]
    interp, _ = run("")
    positional = builtin.direct_value_of(len(literals), literals)
    listed = builtin.direct_value(interp, len(literals), literals)
    assert positional is not None and listed is not None
    for args in cases:
        same(positional(interp, *args), listed(interp, list(args)))


def test_hypot_of_two_literals_is_its_value_worked_out_once() -> None:
    hypot = BUILTINS["hypot"]
    interp, _ = run("")
    values = [3.0, 4.0, -0.0, 0.0, 1e308, -1e308, 5e-324, NAN, INF, -INF, 0.1]
    for a in values:
        for b in values:
            common = hypot.specialize((a, b))
            same(common([a, b]), hypot.call(interp, [a, b], 1)[0])
            same(hypot.direct_value_of(2, (a, b))(interp, a, b), hypot.call(interp, [a, b], 1)[0])
    for literals in ((3.0, MISSING_LITERAL), (MISSING_LITERAL, MISSING_LITERAL), (3.0, 1 + 2j),
                     (3.0, np.array([[4]], dtype=np.int8)), (char_row("a"), 4.0), (3.0,)):
        assert hypot.specialize(literals) is None
    _, out = run("for k = 1:3, c = {hypot(3, 4), hypot(1e308, 1e308), hypot(3, single(4))}; end; "
                 "disp(c{1}); disp(c{2}); disp(class(c{3})); disp(c{3})")
    assert out.split() == ["5", "1.4142e+308", "single", "5"]


def test_literal_arguments_are_read_as_they_are() -> None:
    calls = "mod(7, 3), atan2(1, -2), abs(-3), numel('abc'), max([1 5], 3), find([0 1 1], 1), " \
            "mod(-0, 5), size(zeros(2, 3), 2), hypot(3, -4), upper('ab'), isfield(struct('a', 1), 'b')"
    literal = run(f"for k = 1:3, c = {{{calls}}}; end")[0].base.vars["c"]
    variables = calls
    for text, name in (("7", "x7"), ("3", "x3"), ("-2", "xm2"), ("'abc'", "xabc"), ("1", "x1")):
        variables = variables.replace(f"({text},", f"({name},").replace(f", {text})", f", {name})")
    assert variables != calls
    general = run(f"x7 = 7; x3 = 3; xm2 = -2; xabc = 'abc'; x1 = 1; for k = 1:3, c = {{{variables}}}; end"
                  )[0].base.vars["c"]
    for a, b in zip(literal.data.reshape(-1), general.data.reshape(-1), strict=True):
        same(a, b)


def test_three_arguments_with_literals_are_listed_in_place() -> None:
    calls = "reshape(x, 2, 2), linspace(0, k, 3), linspace(k, 1, 3), repmat(x, 1, k), cat(2, x, k), " \
            "repmat(7, k, 2), max(x, [], 2)"
    shown = "; ".join(f"disp(c{{{i}}}); disp(class(c{{{i}}}))" for i in range(1, 8))
    _, literal = run(f"x = [1 2 3 4]; for k = 1:3, c = {{{calls}}}; end; {shown}")
    variables = calls.replace("2, 2", "two, two").replace("(0,", "(zero,").replace(", 3)", ", three)") \
        .replace(", 1, ", ", one, ").replace("(2,", "(two,").replace("(7, k, 2)", "(seven, k, two)") \
        .replace("[], 2)", "[], two)")
    _, general = run(f"x = [1 2 3 4]; one = 1; two = 2; three = 3; zero = 0; seven = 7; "
                     f"for k = 1:3, c = {{{variables}}}; end; {shown}")
    assert variables.count("two") == 5 and "seven" in variables
    assert literal == general
    assert literal.split()[:5] == ["1", "3", "2", "4", "double"]


@pytest.mark.parametrize("site", ["max(a, b)", "mod(a, 3)", "numel(a)", "max(a, pi)", "max(pi, a)",
                                  "max(a, undefined_thing)", "max(undefined_thing, a)", "abs(a)",
                                  "abs(undefined_thing)", "abs(pi)", "max(a, 2)"])
@pytest.mark.parametrize("a", ["[1 5 3]", "2", "int8(7)", "'ab'", "{1}"])
def test_variable_arguments_read_by_the_site_as_the_general_path(site: str, a: str) -> None:
    """A site reads a variable argument itself (its code runs only when the name is no
    variable: a function such as pi, or an undefined name): the same outcome as feval,
    which takes its arguments through the general call of three or more."""
    b = "[4 0 9]"
    name, args = site[:-1].split("(", 1)
    general = f"feval('{name}', {args})"
    loop = "for t = 1:3, y = {}; end; disp(y)"
    same_value = _outcome(f"a = {a}; b = {b}; " + loop.format(site))
    assert same_value == _outcome(f"a = {a}; b = {b}; " + loop.format(general))


def test_a_function_input_read_by_the_site(tmp_path: Path) -> None:
    (tmp_path / "with_input.m").write_text(
        "function y = with_input(a, b)\ny = max(a, b) + numel(a);\nend\n")
    interp = Interpreter(stdout=io.StringIO())
    interp.eval(f"addpath('{tmp_path}'); y = with_input([1 5], 3);")
    same(interp.get("y"), np.array([[5.0, 7.0]]))
    with pytest.raises(MatlabError) as caught:
        interp.eval("z = with_input([1 5]);")
    assert caught.value.identifier == "MATLAB:minrhs"
