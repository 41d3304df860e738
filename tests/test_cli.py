"""The ``mlang`` command line (front-end part): --parse, --version, -h."""

from __future__ import annotations

import subprocess
import sys

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
    assert version.stdout.startswith(f"mlang {mlang.__version__} (numpy ")
    assert "; optional: h5py " in version.stdout
    usage = run("-h")
    assert usage.returncode == 0
    assert "mlang --parse FILE" in usage.stdout


def test_script_runs_and_exits_0(tmp_path):
    f = tmp_path / "ok.m"
    f.write_text("x = 2 + 3;\nfprintf('x is %d\\n', x);\n")
    done = run(str(f))
    assert (done.returncode, done.stdout, done.stderr) == (0, "x is 5\n", "")


def test_uncaught_error_is_reported_matlab_style_with_exit_1(tmp_path):
    f = tmp_path / "bad.m"
    f.write_text("disp('before')\ny = [1 2 3];\nz = y(5);\n")
    done = run(str(f))
    assert done.returncode == 1
    assert done.stdout == "before\n"
    assert done.stderr.splitlines() == [
        "Index exceeds the number of array elements. Index must not exceed 3.",
        "",
        "Error in bad (line 3)",
        "z = y(5);",
    ]


def test_error_in_a_function_names_it(tmp_path):
    f = tmp_path / "calls.m"
    f.write_text("r = twice(1, 2);\nfunction y = twice(x)\n  y = 2*x;\nend\n")
    done = run(str(f))
    assert done.returncode == 1
    assert done.stderr.splitlines()[:2] == ["Error using twice", "Too many input arguments."]


def test_dash_e_runs_code():
    done = run("-e", "a = 6*7; fprintf('%d\\n', a)")
    assert (done.returncode, done.stdout) == (0, "42\n")


def test_syntax_error_in_a_script_exits_1(tmp_path):
    f = tmp_path / "syn.m"
    f.write_text("x = (1 + \n")
    done = run(str(f))
    assert done.returncode == 1
    assert done.stderr.startswith("Error: File: syn.m Line: 1 Column: 5")


def test_numpy_warnings_do_not_reach_the_user():
    done = run("-e", "y = [1 -1 0] ./ 0; z = log(0); w = sqrt(-1); fprintf('%g ', y); fprintf('\\n')")
    assert (done.returncode, done.stdout, done.stderr) == (0, "Inf -Inf NaN \n", "")


def test_a_closed_output_pipe_stops_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "mlang", "-e", "for k = 1:200000, disp(k), end"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().strip() == b"1"
    proc.stdout.close()  # the reader goes away, as with `mlang script.m | head -1`
    assert proc.wait(timeout=60) == 0
    assert b"internal error" not in proc.stderr.read()


def test_a_library_that_fails_to_load_is_one_marked_line(monkeypatch, capsys):
    import mlang.evaluation.interpreter as interpreter

    def broken(*args, **kwargs):
        raise ValueError("builtin plot registered twice")

    monkeypatch.setattr(interpreter, "Interpreter", broken)
    assert main(["-e", "x = 1;"]) == 1
    err = capsys.readouterr().err
    assert err == ("mlang internal error (a bug in mlang, not in your code): "
                   "ValueError: builtin plot registered twice\n")
