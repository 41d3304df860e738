"""The Jupyter kernel: each cell runs as Command Window input in one persistent session.

Output goes to the notebook as the Command Window shows it (``stream`` messages, stdout
and stderr); an uncaught error ends the cell with an ``error`` message carrying MATLAB's
report; figures drawn or changed by a cell are shown below it as PNG images and written
nowhere else; Tab completion and Shift-Tab help reuse the Command Window's completer and
``help`` text; interrupting a cell stops it with MATLAB's "Operation terminated by user."
and keeps the workspace.
"""

from __future__ import annotations

import base64
import re
import threading
from typing import Any

from ipykernel.kernelapp import IPKernelApp
from ipykernel.kernelbase import Kernel
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

import mlang
from mlang.api.session import Session
from mlang.builtins.graphics.inline import inline_options, new_figure_images
from mlang.builtins.session.helptext import help_text
from mlang.errors import ExitRequest, InternalError, MatlabError, MatlabSyntaxError, report
from mlang.frontends.repl import MatlabCompleter
from mlang.frontends.reporting import INTERRUPTED, read_source_line
from mlang.syntax.lexer import needs_more_input

# How often a running cell's output reaches the notebook (seconds): often enough to watch a
# loop print, seldom enough not to send a message per character.
FLUSH_INTERVAL = 0.1
# A cell's own code in an error's stack: MATLAB names the place, as it names a script.
CELL_NAME = "cell"
_NAME_AT = re.compile(r"[A-Za-z]\w*(?:\.[A-Za-z]\w*)*")


class CellStream:
    """What MATLAB writes to stdout or stderr, sent to the notebook as ``stream`` messages:
    collected, and sent at most FLUSH_INTERVAL after it was written (a timer sends what a
    long-running statement wrote last), or when flushed."""

    def __init__(self, kernel: MlangKernel, name: str) -> None:
        self.kernel = kernel
        self.name = name
        self.parts: list[str] = []
        self.lock = threading.Lock()  # the timer's thread sends too
        self.timer: threading.Timer | None = None

    def write(self, text: str) -> int:
        with self.lock:
            self.parts.append(text)
            if self.timer is None:
                self.timer = threading.Timer(FLUSH_INTERVAL, self.flush)
                self.timer.daemon = True
                self.timer.start()
        return len(text)

    def flush(self) -> None:
        with self.lock:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            if not self.parts:
                return
            text, self.parts = "".join(self.parts), []
            # ipykernel's iopub socket may be sent to from any thread
            self.kernel.send_response(self.kernel.iopub_socket, "stream",
                                      {"name": self.name, "text": text})

    def isatty(self) -> bool:
        return False


class CellInput:
    """What input() and keyboard read: the notebook's input box, when the front end allows
    it; else nothing (end of input)."""

    def __init__(self, kernel: MlangKernel) -> None:
        self.kernel = kernel

    def readline(self) -> str:
        if not self.kernel.stdin_allowed:
            return ""
        self.kernel.flush_output()
        try:
            return self.kernel.raw_input("") + "\n"
        except (EOFError, RuntimeError):  # no front end to ask
            return ""


class MlangKernel(Kernel):
    """mlang in Jupyter (ipykernel's Kernel: the wire protocol; mlang.Session: the code)."""

    implementation = "mlang"
    implementation_version = mlang.__version__
    language = "matlab"
    language_version = mlang.__version__
    language_info = {
        "name": "matlab",
        "version": mlang.__version__,
        "mimetype": "text/x-matlab",
        "file_extension": ".m",
        "codemirror_mode": "octave",
        "pygments_lexer": "matlab",
    }
    banner = (f"mlang {mlang.__version__}: MATLAB-compatible. "
              "Shift-Tab on a name shows its help; figures appear below their cell.")
    help_links = [{"text": "MATLAB documentation", "url": "https://www.mathworks.com/help/matlab/"}]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.out = CellStream(self, "stdout")
        self.err = CellStream(self, "stderr")
        self.matlab = Session(stdout=self.out, stderr=self.err)  # type: ignore[arg-type]
        self.interp = self.matlab.interpreter
        self.interp.options["figures"] = inline_options()
        self.interp.inp = CellInput(self)
        self.completer = MatlabCompleter(self.interp)
        self.stdin_allowed = False

    # ------------------------------------------------------------ running a cell

    async def do_execute(self, code: str, silent: bool, store_history: bool = True,
                         user_expressions: dict | None = None, allow_stdin: bool = False,
                         **_: Any) -> dict[str, Any]:
        self.stdin_allowed = allow_stdin
        interp = self.interp
        interp.at_line_start = True
        failure: dict[str, Any] | None = None
        payload: list[dict] = []
        try:
            if code.strip():
                interp.notice_file_changes()  # (function files saved since the last cell)
                interp.eval(code)
        except ExitRequest:
            payload.append({"source": "ask_exit", "keepkernel": False})
        except (MatlabError, MatlabSyntaxError, InternalError, KeyboardInterrupt) as exc:
            failure = self._failure(exc, code)
        except Exception as exc:  # a bug in mlang: reported as one, and the kernel goes on
            failure = self._failure(InternalError(f"{type(exc).__name__}: {exc}"), code)
        try:
            interp.input_done()  # what the families do after each input (no figure files)
        except MatlabError as exc:
            failure = failure or self._failure(exc, code)
        self.flush_output()
        if not silent:
            self._show_figures()
        if failure is not None:
            self.send_response(self.iopub_socket, "error", failure)
            return {"status": "error", "execution_count": self.execution_count, **failure}
        return {"status": "ok", "execution_count": self.execution_count, "payload": payload,
                "user_expressions": {}}

    def flush_output(self) -> None:
        self.out.flush()
        self.err.flush()

    def _failure(self, exc: BaseException, code: str) -> dict[str, Any]:
        """An error message's content: ename (the identifier), evalue (the message) and
        MATLAB's report as the traceback lines."""
        interp = self.interp
        if isinstance(exc, KeyboardInterrupt):
            interp.back_at_prompt()
            return {"ename": "KeyboardInterrupt", "evalue": INTERRUPTED, "traceback": [INTERRUPTED]}
        if not interp.at_line_start:
            interp.write("\n")  # the report starts on its own line, as in the Command Window
        if isinstance(exc, MatlabSyntaxError):
            identifier = "MATLAB:m_incomplete_statement" if exc.incomplete else "MATLAB:m_parse_error"
            return {"ename": identifier, "evalue": exc.message, "traceback": str(exc).split("\n")}
        if isinstance(exc, InternalError):
            text = f"mlang internal error (a bug in mlang, not in your code): {exc}"
            return {"ename": "mlang:internalError", "evalue": str(exc), "traceback": [text]}
        syntax = getattr(exc, "syntax", None)  # a file that could not be parsed was run
        if isinstance(syntax, MatlabSyntaxError):
            text = str(syntax)
        else:
            text = report(exc.exc, read_source_line).rstrip("\n") + _cell_frames(exc, code)  # type: ignore[attr-defined]
        return {"ename": exc.identifier or "MATLAB:error",  # type: ignore[attr-defined]
                "evalue": exc.message, "traceback": text.split("\n")}  # type: ignore[attr-defined]

    def _show_figures(self) -> None:
        for number, png in new_figure_images(self.interp):
            self.send_response(self.iopub_socket, "display_data", {
                "data": {"image/png": base64.b64encode(png).decode("ascii"),
                         "text/plain": f"<Figure {number}>"},
                "metadata": {}})

    # ------------------------------------------------------------ editing help

    async def do_complete(self, code: str, cursor_pos: int) -> dict[str, Any]:
        document = Document(code, cursor_pos)
        found = list(self.completer.get_completions(document, CompleteEvent(completion_requested=True)))
        start = cursor_pos + min((c.start_position for c in found), default=0)
        matches = [c.text for c in found]
        types = [{"start": cursor_pos + c.start_position, "end": cursor_pos, "text": c.text,
                  "type": c.display_meta_text or ""} for c in found]
        return {"status": "ok", "matches": matches, "cursor_start": start, "cursor_end": cursor_pos,
                "metadata": {"_jupyter_types_experimental": types}}

    async def do_inspect(self, code: str, cursor_pos: int, detail_level: int = 0,
                         omit_sections: Any = ()) -> dict[str, Any]:
        name = name_at(code, cursor_pos)
        text = None
        if name:
            with self.interp.running():
                text = help_text(self.interp, name)
        data = {"text/plain": text} if text else {}
        return {"status": "ok", "found": bool(text), "data": data, "metadata": {}}

    async def do_is_complete(self, code: str) -> dict[str, Any]:
        try:
            more = needs_more_input(code, self.interp.base.vars.keys())
        except Exception:  # a lexer bug: let the cell run, which reports it
            more = False
        return {"status": "incomplete", "indent": ""} if more else {"status": "complete"}

    async def do_shutdown(self, restart: bool) -> dict[str, Any]:
        try:
            self.interp.finish()
        except Exception:  # the kernel is going away whatever its families do
            pass
        self.flush_output()
        return {"status": "ok", "restart": restart}


def _cell_frames(exc: MatlabError, code: str) -> str:
    """The ``Error in cell (line N)`` lines for the stack frames in the cell's own code
    (the report leaves out frames without a file)."""
    lines = code.split("\n")
    text = []
    for frame in exc.exc.stack:
        if not frame.file and not frame.name and 0 < frame.line <= len(lines):
            text += ["", f"Error in {CELL_NAME} (line {frame.line})", lines[frame.line - 1]]
    return "\n" + "\n".join(text) if text else ""


def name_at(code: str, cursor_pos: int) -> str:
    """The name (``a.b`` chains: the first part) under or just before the cursor."""
    for match in _NAME_AT.finditer(code):
        if match.start() <= cursor_pos <= match.end():
            return match.group().split(".")[0] if "." in match.group() else match.group()
    return ""


def launch(argv: list[str]) -> None:
    """Start the kernel (``python -m mlang.kernel -f CONNECTION_FILE``)."""
    IPKernelApp.launch_instance(argv=argv, kernel_class=MlangKernel)
