"""A Command Window driven through prompt_toolkit's pipe input, typed by a second thread.

The REPL runs in the test's main thread (so Ctrl-C can be delivered as a real
SIGINT); the typist thread sends keys, waiting where a key's effect must land
first (a Tab completion, a running loop) before typing on.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from mlang.evaluation.interpreter import Interpreter
from mlang.frontends.repl import CommandWindow

UP = "\x1b[A"
CTRL_C = "\x03"
CTRL_R = "\x12"
ESCAPE_ENTER = "\x1b\r"
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the Command Window did not get there in time")
        time.sleep(0.01)


class Console:
    """One Command Window with its output captured; ``session(script)`` runs it.

    ``script`` is a list of steps: a string is typed; a callable is waited on
    (until it returns true) before the next step.  After the last step the input
    closes, which ends the session as Ctrl-D does.
    """

    def __init__(self, history: str | None = None) -> None:
        self.out = io.StringIO()
        self.interp = Interpreter(stdout=self.out, stderr=self.out)
        self.history = history

    def session(self, steps: list) -> int:
        with create_pipe_input() as keys:
            window = CommandWindow(self.interp, history=self.history, input=keys, output=DummyOutput())
            self.window = window
            failure: list[BaseException] = []

            def type_steps() -> None:
                try:
                    for step in steps:
                        if callable(step):
                            wait_for(step)
                        else:
                            keys.send_text(step)
                except BaseException as exc:  # reported by the test, not lost in the thread
                    failure.append(exc)
                finally:
                    keys.close()

            typist = threading.Thread(target=type_steps, daemon=True)
            typist.start()
            status = window.run()
            typist.join(5)
            if failure:
                raise failure[0]
            return status

    def history_loaded(self) -> bool:
        """Whether the history file has been read (prompt_toolkit reads it in the background)."""
        window = getattr(self, "window", None)
        if window is None or self.history is None:
            return False
        with open(self.history, encoding="utf-8") as f:
            wanted = sum(1 for line in f if line.startswith("# "))
        return len(window.session.history.get_strings()) >= wanted

    def buffer_text(self) -> str:
        return self.window.session.default_buffer.text

    def output(self) -> str:
        return self.out.getvalue()


@pytest.fixture
def console() -> Console:
    return Console()
