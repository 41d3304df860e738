"""The function list (mlang --list-functions, docs/functions.md) and help for every builtin."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from mlang.builtins.session.function_list import function_table, markdown, summary_of
from mlang.evaluation.interpreter import STDLIB, Interpreter
from mlang.frontends.cli import main
from mlang.registry import BUILTINS, builtin, load_all

DOCS = Path(__file__).resolve().parents[1] / "docs" / "functions.md"


def test_every_builtin_has_help() -> None:
    load_all()
    out = io.StringIO()
    interp = Interpreter(stdout=out)
    missing = []
    for name in sorted(BUILTINS):
        out.seek(0)
        out.truncate()
        interp.eval(f"help('{name}')")
        if not BUILTINS[name].help.strip() or "No help found" in out.getvalue():
            missing.append(name)
    assert missing == []


def test_the_table_lists_builtins_and_stdlib_with_families() -> None:
    entries = {e.name: e for e in function_table(STDLIB)}
    assert entries["sum"].family == "math/reductions"
    assert entries["sum"].summary.startswith("Sum of elements")
    assert entries["hilb"].family == "stdlib" and entries["hilb"].summary == "Hilbert matrix"
    assert set(BUILTINS) <= set(entries)


def test_summaries_skip_the_syntax_lines() -> None:
    assert summary_of("S = sum(A)\nS = sum(A,'all')\n\nSum of elements. More.") == "Sum of elements"
    assert summary_of("[V,D] = eig(A)\n\nEigenvalues and eigenvectors.") == "Eigenvalues and eigenvectors"
    assert summary_of("tf = isfield(S, f) is true when f is a field.\n\nMore.") == \
        "tf = isfield(S, f) is true when f is a field"
    assert summary_of("") == ""


def test_docs_functions_page_is_up_to_date(capsys) -> None:
    assert main(["--list-functions"]) == 0
    printed = capsys.readouterr().out
    assert printed == markdown(function_table(STDLIB))
    assert DOCS.read_text(encoding="utf-8") == printed, \
        "docs/functions.md is stale: run  mlang --list-functions > docs/functions.md"


def test_a_builtin_taking_nargout_must_take_it_by_keyword() -> None:
    def positional(x, nargout=1):  # would be counted as a second MATLAB input
        return x

    def keyword(x, *, nargout=1):
        return x

    with pytest.raises(TypeError, match="keyword-only"):
        builtin("positional_nargout_example", nargout=True)(positional)
    builtin("keyword_nargout_example", nargout=True)(keyword)
    try:
        entry = BUILTINS["keyword_nargout_example"]
        assert (entry.min_in, entry.max_in, entry.wants_nargout) == (1, 1, True)
    finally:
        del BUILTINS["keyword_nargout_example"]
    assert "positional_nargout_example" not in BUILTINS
