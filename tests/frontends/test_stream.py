"""``mlang`` with standard input from a pipe: statements run without prompts."""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mlang.evaluation.interpreter import Interpreter
from mlang.frontends.repl import run_stream


def mlang(*args: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mlang", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_a_piped_statement_runs_and_shows_its_value():
    done = mlang(stdin="x = 1+1\n")
    assert (done.returncode, done.stdout, done.stderr) == (0, "\nx =\n\n     2\n\n", "")


def test_blocks_span_lines_and_errors_do_not_stop_later_statements():
    done = mlang(stdin="s = 0;\nfor k = 1:4\n  s = s + k;\nend\ny = nosuch + 1\nfprintf('%d\\n', s)\n")
    assert done.stdout == "10\n"
    assert done.stderr == "Unrecognized function or variable 'nosuch'.\n"
    assert done.returncode == 1  # a statement failed


def test_exit_ends_the_input_with_its_status():
    done = mlang(stdin="fprintf('a\\n')\nexit(4)\nfprintf('b\\n')\n")
    assert (done.returncode, done.stdout) == (4, "a\n")


def test_input_ending_inside_a_block_is_a_syntax_error():
    done = mlang(stdin="for k = 1:3\n  disp(k)\n")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith("Error: At least one END is missing")


def test_no_input_is_no_work():
    assert mlang(stdin="").returncode == 0


def test_dash_i_runs_the_script_then_reads_statements_in_its_workspace(tmp_path):
    script = tmp_path / "setup.m"
    script.write_text("rate = 0.25;\n")
    done = mlang("-i", str(script), stdin="steps = rate * 8\n")
    assert (done.returncode, done.stdout, done.stderr) == (0, "\nsteps =\n\n     2\n\n", "")


def test_dash_i_goes_on_after_a_failing_script(tmp_path):
    script = tmp_path / "broken.m"
    script.write_text("a = 3;\nerror('setup failed');\n")
    done = mlang("-i", str(script), stdin="fprintf('%d\\n', a)\n")
    assert done.stdout == "3\n"
    assert done.stderr == "setup failed\n\nError in broken (line 2)\nerror('setup failed');\n"
    assert done.returncode == 1


def test_dash_e_with_dash_i_keeps_the_workspace():
    done = mlang("-e", "w = 7;", "-i", stdin="fprintf('%d\\n', w * 2)\n")
    assert (done.returncode, done.stdout) == (0, "14\n")


ROOT = Path(__file__).parent.parent.parent
# golden scripts without local functions (those cannot be typed at the prompt)
GOLDEN = sorted(m for m in [*(ROOT / "tests" / "golden").glob("*/*.m"), *(ROOT / "examples").glob("*.m")]
                if m.with_suffix(".out").exists()
                and not re.search(r"^\s*function\b", m.read_text(), re.M))


@pytest.mark.parametrize("script", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_script_fed_line_by_line_prints_what_the_script_prints(script):
    """The Command Window's chunking (needs_more_input) cuts a script into statements that
    run exactly as the whole file does."""
    text = script.read_text()
    out = io.StringIO()
    interp = Interpreter(stdout=out, stderr=io.StringIO())
    interp.path.append(str(script.parent))
    run_stream(interp, io.StringIO(text))  # (some golden scripts end on purpose with an error)
    assert out.getvalue() == script.with_suffix(".out").read_text()


def test_ctrl_c_stops_piped_input():
    proc = subprocess.Popen([sys.executable, "-m", "mlang"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdin.write("warning('looping'); while true, end\nfprintf('never\\n')\n")
    proc.stdin.flush()
    assert proc.stderr.readline() == "Warning: looping\n"  # (warnings are flushed at once)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out, err) == (1, "", "Operation terminated by user.\n")
