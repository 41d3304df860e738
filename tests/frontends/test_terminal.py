"""The ``mlang`` command in a real terminal (a pseudo-terminal): prompt, Ctrl-C, Ctrl-D."""

from __future__ import annotations

import os
import re
import select
import struct
import sys
import time

import pytest

pty = pytest.importorskip("pty")
fcntl = pytest.importorskip("fcntl")
termios = pytest.importorskip("termios")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\x1b\][^\x07]*\x07|\r")


class Terminal:
    """``python -m mlang`` (plus ``args``) on a pseudo-terminal, with its screen text."""

    def __init__(self, home: str, *args: str, stdout_file: str | None = None) -> None:
        env = {**os.environ, "HOME": home, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1",
               "COLUMNS": "80", "LINES": "24"}
        env.pop("XDG_DATA_HOME", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: mlang with the terminal as its controlling tty
            if stdout_file is not None:
                os.dup2(os.open(stdout_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
            os.execve(sys.executable, [sys.executable, "-m", "mlang", *args], env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.raw = ""

    def read_until(self, pattern: str, timeout: float = 30.0) -> str:
        """Screen text (escape sequences dropped) up to a match of ``pattern``, consumed."""
        deadline = time.monotonic() + timeout
        while True:
            text = ANSI.sub("", self.raw)
            found = re.search(pattern, text)
            if found:
                self.raw = text[found.end():]
                return text[:found.end()]
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {pattern!r} on the screen; it shows {text!r}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    self.raw += os.read(self.fd, 4096).decode("utf-8", "replace")
                except OSError:  # the child closed the terminal
                    raise AssertionError(f"mlang ended; the screen showed {text!r}") from None

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        try:  # a test that failed midway leaves mlang running
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except OSError:
            pass

    def exit_status(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                os.read(self.fd, 4096)  # drain, so the child never blocks on output
            except OSError:
                pass
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.05)
        os.kill(self.pid, 9)
        raise AssertionError("mlang did not exit")


@pytest.fixture
def terminal(tmp_path):
    with Terminal(str(tmp_path)) as term:
        yield term


def test_a_session_in_a_terminal(terminal, tmp_path):
    terminal.read_until(">>")
    terminal.type("x = 1 + 1\r")
    assert re.search(r"x =\n+\s+2\n", terminal.read_until(r"x =\n+\s+2\n"))
    terminal.read_until(">>")
    terminal.type("m = [1 2\r3 4]\r")  # a matrix over two lines, shown in the terminal's width
    terminal.read_until(r"m =\n\n     1     2\n     3     4\n")
    terminal.read_until(">>")

    # Ctrl-C stops a running loop; the workspace is kept
    terminal.type("fprintf('looping\\n'); while true, end\r")
    terminal.read_until("looping\n")
    time.sleep(0.2)
    terminal.type("\x03")
    terminal.read_until("Operation terminated by user.")
    terminal.read_until(">>")
    terminal.type("y = x * 3\r")
    terminal.read_until(r"y =\n+\s+6\n")
    terminal.read_until(">>")

    # Ctrl-C at the prompt drops the line typed so far
    terminal.type("abandoned")
    terminal.read_until("abandoned")
    terminal.type("\x03")
    terminal.read_until(">>")
    terminal.type("z = 5\r")
    screen = terminal.read_until(r"z =\n+\s+5\n")
    assert "Unrecognized" not in screen
    terminal.read_until(">>")

    terminal.type("\x04")  # Ctrl-D leaves
    assert terminal.exit_status() == 0
    history = (tmp_path / ".local" / "share" / "mlang" / "history").read_text()
    assert "+x = 1 + 1\n" in history and "+z = 5\n" in history and "abandoned" not in history


def test_dash_i_stays_in_the_command_window_after_the_script(tmp_path):
    script = tmp_path / "prepare.m"
    script.write_text("epochs = 12;\n")
    with Terminal(str(tmp_path), "-i", str(script)) as term:
        term.read_until(">>")
        term.type("epochs\r")
        term.read_until(r"epochs =\n+\s+12\n")
        term.read_until(">>")
        term.type("exit(5)\r")
        assert term.exit_status() == 5


def test_with_results_going_to_a_file_the_prompt_stays_on_the_terminal(tmp_path):
    results = tmp_path / "results.txt"
    with Terminal(str(tmp_path), stdout_file=str(results)) as term:
        term.read_until(">>")
        term.type("v = 5\r")
        term.read_until(">>")
        term.type("exit\r")
        assert term.exit_status() == 0
    assert results.read_text().endswith("\nv =\n\n     5\n\n")
