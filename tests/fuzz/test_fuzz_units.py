"""The fuzzer's parts: the generator, the mutator, the classifier and the minimiser."""

from __future__ import annotations

import dataclasses
import os
import random
import signal
import tempfile
import time

import pytest

from mlang.syntax import ast
from mlang.syntax.parser import default_parser
from tests.fuzz.campaign import _ddmin, make_case, minimise_case
from tests.fuzz.generate import ProgramGenerator
from tests.fuzz.mutate import INVALID_BYTES, load_corpus, mutate
from tests.fuzz.runner import Limits, Program, run_one, warm_up

SCRATCH = tempfile.mkdtemp(prefix="mlang-fuzz-unit-")
FAST = Limits(seconds=1.0, memory_mb=512)


@pytest.fixture(scope="module", autouse=True)
def _loaded() -> None:
    warm_up()


def run(text: str, prepare=None, limits: Limits = FAST):
    return run_one(Program(text.encode()), limits, SCRATCH, prepare=prepare)


def replace_builtin(name: str, fn):
    """A ``prepare`` hook for the child: the builtin ``name`` runs ``fn`` instead."""
    def prepare(interp) -> None:
        interp.builtins = dict(interp.builtins)
        interp.builtins[name] = dataclasses.replace(interp.builtins[name], fn=fn)
    return prepare


# ------------------------------------------------------------ generator and mutator


def test_generated_programs_are_deterministic_and_parse():
    parser = default_parser()
    seen: set[type] = set()
    for seed in range(60):
        tree, text = ProgramGenerator(random.Random(seed)).program_text()
        assert ProgramGenerator(random.Random(seed)).program_text()[1] == text
        assert parser.parse(text, "fuzzprog.m") == tree
        seen.update(type(node) for node in ast.walk(tree))
    wanted = {ast.Assign, ast.MultiAssign, ast.If, ast.For, ast.While, ast.Switch, ast.Try,
              ast.Index, ast.Field, ast.Range, ast.Matrix, ast.Cell, ast.Lambda, ast.Binary,
              ast.Function, ast.FuncHandle, ast.End, ast.Colon}
    assert wanted <= seen


def test_mutations_are_deterministic_and_reach_odd_bytes():
    corpus = load_corpus()
    assert corpus
    outputs = [mutate(random.Random(i), corpus)[1] for i in range(400)]
    assert outputs == [mutate(random.Random(i), corpus)[1] for i in range(400)]
    assert any(any(bad in data for bad in INVALID_BYTES) for data in outputs)
    assert any(b"\r\n" in data for data in outputs)
    assert make_case(3, 7, corpus).program.data == make_case(3, 7, corpus).program.data


# ------------------------------------------------------------ classifier


def test_a_finished_program_ran():
    assert run("x = 1 + 1; disp(x)").outcome == "ran"


def test_matlab_errors_are_classified_as_such():
    assert run("error('my:id', 'boom')").outcome == "matlab_error"
    assert run("x = [1 2").outcome == "matlab_error"  # a syntax error
    assert run("undefined_function_xyz(3)").outcome == "matlab_error"


def test_a_python_exception_inside_a_builtin_is_an_internal_error():
    def broken(*args):
        raise ZeroDivisionError("injected")
    result = run("y = sum([1 2 3]);", replace_builtin("sum", broken))
    assert result.outcome == "internal_error"
    assert result.exc_type == "ZeroDivisionError"
    assert result.signature.startswith("internal_error:ZeroDivisionError@")


def test_an_exception_escaping_the_front_end_is_a_traceback():
    def prepare(interp) -> None:
        def explode(text, name="script"):
            raise LookupError("injected")
        interp.run_source = explode
    result = run("x = 1;", prepare)
    assert result.outcome == "traceback" and result.exc_type == "LookupError"


def test_an_operation_that_never_returns_is_a_hang_and_a_loop_is_slow():
    def stuck(*args):
        while True:
            time.sleep(0.001)
    started = time.monotonic()
    assert run("sum(1)", replace_builtin("sum", stuck), Limits(seconds=0.5)).outcome == "hang"
    assert run("while true, end", limits=Limits(seconds=0.5)).outcome == "slow"
    assert time.monotonic() - started < 10


def test_a_dying_child_is_a_crash():
    def die(*args):
        os.kill(os.getpid(), signal.SIGSEGV)
    result = run("sum(1)", replace_builtin("sum", die))
    assert result.outcome == "crash"
    assert "sum" in result.traceback or "Fatal Python error" in result.traceback


# ------------------------------------------------------------ minimiser


def test_ddmin_finds_the_one_needed_line():
    lines = [f"line {i}" for i in range(40)]
    assert _ddmin(lines, lambda kept: "line 17" in kept) == ["line 17"]


def test_minimise_keeps_the_failing_statement():
    def broken(*args):
        raise ZeroDivisionError("injected")
    prepare = replace_builtin("cumsum", broken)
    text = "a = 1;\nb = 2;\nc = cumsum(7);\nd = 4;\n"
    first = run(text, prepare)

    from tests.fuzz import campaign
    original = campaign.run_one
    campaign.run_one = lambda program, limits, scratch: original(program, limits, scratch, prepare=prepare)
    try:
        case = campaign.Case(0, Program(text.encode()))
        minimal = minimise_case(case, first.signature, FAST, SCRATCH)
    finally:
        campaign.run_one = original
    assert minimal.strip() == b"c = cumsum(7);"
