"""Deep or long input: long operator chains work, too-deep nesting is a syntax error,
and no entry point ends in Python's RecursionError."""

from __future__ import annotations

import io
import subprocess
import sys
import time

import pytest

from mlang.errors import NESTING_LIMIT, MatlabSyntaxError
from mlang.evaluation.interpreter import Interpreter
from mlang.frontends.cli import main
from mlang.syntax import ast, parse, parse_file
from mlang.syntax.unparse import unparse

DEEP = NESTING_LIMIT - 1
TOO_DEEP_MESSAGE = f"Nesting of {{, [, and ( cannot exceed a depth of {NESTING_LIMIT}."


def run(code: str) -> tuple[str, Interpreter]:
    out = io.StringIO()
    interp = Interpreter(stdout=out, stderr=out)
    interp.eval(code)
    return out.getvalue(), interp


def test_ten_thousand_binary_operators_parse_compile_and_run():
    _, interp = run("x = " + "+".join(["1"] * 10000) + ";")
    assert interp.get("x") == 10000.0


def test_long_chains_keep_left_associativity_and_short_circuits():
    _, interp = run("x = " + "-".join(["1"] * 200) + "; y = " + " && ".join(["true"] * 200)
                    + " && false; z = " + " || ".join(["false"] * 200) + " || 1;")
    assert interp.get("x") == 1.0 - 199.0
    assert interp.get("y") is False or interp.get("y") == 0
    assert interp.get("z") is True or interp.get("z") == 1


def test_many_prefix_operators():
    _, interp = run("x = " + "-" * 990 + "1; y = " + "~" * 3001 + "0; z = " + "-" * 9999 + "2;")
    assert interp.get("x") == 1.0
    assert bool(interp.get("y")) is True
    assert interp.get("z") == -2.0


def test_prefix_operator_chain_still_binds_tighter_than_times_and_looser_than_power():
    tree = parse("x = " + "-" * 70 + "2^2*3;")
    assert type(tree.body[0].value) is ast.Binary  # (-...-(2^2)) * 3
    _, interp = run("x = " + "-" * 71 + "2^2*3;")
    assert interp.get("x") == -12.0


def test_precedence_climbing_matches_matlab_on_mixed_operators():
    cases = {"a = 1:2:7:3;": "(: (: 1 2 7) 3)", "a = -2^-3';": "(- (' (^ 2 (- 3))))",
             "a = 1 < 2:3 + 4 == 5;": "(== (< 1 (: 2 (+ 3 4))) 5)",
             "a = ~x' * y.^2';": "(* (~ (' x)) (' (.^ y 2)))"}
    for code, expected in cases.items():
        assert ast.dump(parse(code).body[0].value) == expected, code


@pytest.mark.parametrize("opening, closing", [("[", "]"), ("{", "}"), ("(", ")"), ("abs(", ")")])
def test_nesting_just_within_the_limit_runs(opening, closing):
    out, _ = run("x = " + opening * DEEP + "-1" + closing * DEEP + "; disp(class(x))")
    assert out == ("cell\n" if opening == "{" else "double\n")


@pytest.mark.parametrize("opening, closing", [("[", "]"), ("{", "}"), ("(", ")"), ("abs(", ")")])
def test_nesting_beyond_the_limit_is_a_syntax_error(opening, closing):
    with pytest.raises(MatlabSyntaxError) as caught:
        parse("x = " + opening * 4000 + "1" + closing * 4000)
    assert caught.value.message == TOO_DEEP_MESSAGE


def test_nested_anonymous_functions_and_blocks_are_limited_too():
    with pytest.raises(MatlabSyntaxError) as caught:
        parse("f = " + "@() " * 2000 + "1;")
    assert caught.value.message == TOO_DEEP_MESSAGE
    with pytest.raises(MatlabSyntaxError) as caught:
        parse("if 1\n" * 2000 + "end\n" * 2000)
    assert caught.value.message == TOO_DEEP_MESSAGE
    out, _ = run("f = " + "@() " * DEEP + "7;\n" + "if 1\n" * DEEP + "disp(class(f))\n" + "end\n" * DEEP)
    assert out == "function_handle\n"


def test_deep_nesting_takes_linear_time():
    start = time.process_time()
    run("x = " + "abs(" * DEEP + "1" + ")" * DEEP + ";")
    assert time.process_time() - start < 5


def test_dump_unparse_and_the_cache_handle_a_long_chain(tmp_path):
    source = "x = " + "+".join(["1"] * 10000) + ";\n"
    tree = parse(source)
    expected = ast.dump(tree)  # (== on trees this deep would itself recurse)
    assert expected.count("(+") == 9999
    assert ast.dump(parse(unparse(tree))) == expected
    assert len(ast.pretty(tree).splitlines()) > 9999
    f = tmp_path / "long.m"
    f.write_text(source)
    assert ast.dump(parse_file(f)) == expected
    assert ast.dump(parse_file(f)) == expected  # again, from the cache when it was stored


def test_command_line_entry_points_give_no_traceback(tmp_path):
    deep = tmp_path / "deep.m"
    deep.write_text("x = " + "[" * 4000 + "1" + "]" * 4000 + "\n")
    long = tmp_path / "long.m"
    long.write_text("x = " + "+".join(["1"] * 10000) + "\n")
    for args, stdin in [([str(deep)], ""), (["--parse", str(deep)], ""),
                        (["-e", deep.read_text()], ""), ([], deep.read_text())]:
        done = subprocess.run([sys.executable, "-m", "mlang", *args], input=stdin,
                              capture_output=True, text=True, timeout=120)
        assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr, args
        assert TOO_DEEP_MESSAGE in done.stderr, args
    for args in ([str(long)], ["--parse", str(long)]):
        done = subprocess.run([sys.executable, "-m", "mlang", *args], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0 and done.stderr == "", args
    assert "10000" in subprocess.run([sys.executable, "-m", "mlang", str(long)],
                                     capture_output=True, text=True, timeout=120).stdout


def test_eval_of_deep_text_is_a_catchable_error():
    code = "x = " + "[" * 4000 + "1" + "]" * 4000
    out, _ = run(f"try, eval('{code}'); catch e, disp(e.message), end")
    assert out == TOO_DEEP_MESSAGE + "\n"


def test_parse_tree_printer_handles_rows_of_nested_literals(tmp_path, capsys):
    f = tmp_path / "rows.m"
    f.write_text("x = [[1 2]; [3 4]];\nc = {{1}, {2, [3]}};\n")
    assert main(["--parse", str(f)]) == 0
    assert capsys.readouterr().out == (
        "script\n(assign x (matrix ((matrix (1 2))) ((matrix (3 4)))) ;)\n"
        "(assign c (cell ((cell (1)) (cell (2 (matrix (3)))))) ;)\n")
