"""The ``mlang`` command line (front-end part): --parse, --version, -h."""

from __future__ import annotations

import subprocess
import sys

import pytest

import mlang
from mlang.frontends.cli import main


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mlang", *args],
                          capture_output=True, text=True, timeout=60)


def test_parse_prints_the_tree(tmp_path, capsys):
    f = tmp_path / "demo.m"
    f.write_text("x = 1 + 2;\nhold on\n")
    assert main(["--parse", str(f)]) == 0
    out = capsys.readouterr().out
    assert out == "script\n(assign x (+ 1 2) ;)\n(command hold 'on')\n"


def test_parse_reports_a_syntax_error_in_matlab_layout(tmp_path, capsys):
    f = tmp_path / "bad.m"
    f.write_text("x = 1;\ny = (2 + 3\n")
    assert main(["--parse", str(f)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "Error: File: bad.m Line: 2 Column: 5",
        "Unbalanced or unexpected parenthesis or bracket.",
        "y = (2 + 3",
        "    ^",
    ]


def test_parse_of_a_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main(["--parse", str(tmp_path / "nope.m")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_function_file(tmp_path, capsys):
    f = tmp_path / "f.m"
    f.write_text("function y = f(x)\n  y = x';\n")
    assert main(["--parse", str(f)]) == 0
    assert capsys.readouterr().out == "function file\n(function f (in x) (out y) (assign y (' x) ;))\n"


def test_version_and_help_through_python_m():
    version = run("--version")
    assert version.returncode == 0
    assert version.stdout == f"mlang {mlang.__version__}\n"
    usage = run("-h")
    assert usage.returncode == 0
    assert "mlang --parse FILE" in usage.stdout


@pytest.mark.parametrize("argv", [["script.m"], []])
def test_not_yet_available_modes_say_so(argv, capsys):
    assert main(argv) == 2
    assert "not built yet" in capsys.readouterr().err
