"""The Command Window: mlang's interactive read-eval-print loop.

``CommandWindow`` reads code at a ``>> `` prompt (prompt_toolkit: history,
Ctrl-R search, highlighting, Tab completion) and runs it in one interpreter's
base workspace.  Whether Enter runs the code or opens another line is decided
by the lexer (``needs_more_input``): an open block, an open ``[``/``{`` or a
trailing ``...`` asks for more.  ``run_stream`` is the same loop without the
terminal: it reads statements from a pipe (``echo "x = 1+1" | mlang``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from mlang.errors import ExitRequest
from mlang.evaluation.interpreter import STDLIB
from mlang.frontends.reporting import report_internal_error, run_reported
from mlang.syntax.lexer import KEYWORDS, needs_more_input
from mlang.values.struct import Struct

PROMPT = ">> "
CONTINUATION = "   "  # continuation lines line up with the code after the prompt
INDENT = "    "

# Commands whose arguments are file or folder names (command syntax: cd myfolder).
FILE_COMMANDS = frozenset({"cd", "dir", "ls", "type", "run", "load", "save", "edit", "addpath",
                           "rmpath", "delete", "mkdir", "rmdir", "open", "exist", "what"})
_FIELD_CHAIN = re.compile(r"([A-Za-z]\w*(?:\.[A-Za-z]\w*)*)\.(\w*)$")
_WORD = re.compile(r"[A-Za-z]\w*$")
_COMMAND_ARG = re.compile(r"^\s*([A-Za-z]\w*)\s+(?![=(])(.*)$")


def history_path() -> Path:
    """Where the Command Window keeps its history: the user's data folder."""
    if os.name == "nt":
        base = os.environ.get("APPDATA") or os.path.expanduser("~")
    else:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "mlang" / "history"


class CommandWindow:
    """An interactive session on ``interp``'s base workspace.

    ``input``/``output`` are prompt_toolkit's (a pipe input and DummyOutput in
    tests); by default the terminal.  ``history`` is a file path, or None for
    history kept in memory only.
    """

    def __init__(self, interp: Any, *, history: str | os.PathLike[str] | None = None,
                 input: Any = None, output: Any = None, debug: bool = False) -> None:
        self.interp = interp
        self.debug = debug
        self.session = self._prompt_session(history, input, output)

    def run(self) -> int:
        """Read and run code until Ctrl-D, ``exit`` or ``quit``; returns the exit status."""
        while True:
            try:
                if not self.interp.at_line_start:
                    self.interp.write("\n")  # fprintf('abc') leaves the cursor mid-line
                self.interp.out.flush()
                code = self.session.prompt(PROMPT)
                execute(self.interp, code, self.debug)
            except KeyboardInterrupt:
                continue  # Ctrl-C at the prompt (or between runs): a fresh prompt
            except EOFError:
                return 0
            except ExitRequest as exc:
                return exc.status
            except Exception as exc:  # a bug in the Command Window itself: report it, go on
                report_internal_error(self.interp, exc, f"{type(exc).__name__}: {exc}", self.debug)

    # ------------------------------------------------------------ prompt

    def _prompt_session(self, history: str | os.PathLike[str] | None, input: Any, output: Any) -> Any:
        # prompt_toolkit and Pygments are heavy: piped input (run_stream) never loads them.
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory
        from prompt_toolkit.lexers import PygmentsLexer
        from pygments.lexers.matlab import MatlabLexer

        store: Any = InMemoryHistory()
        if history is not None:
            try:
                Path(history).parent.mkdir(parents=True, exist_ok=True)
                Path(history).touch()
                store = FileHistory(str(history))
            except OSError:
                pass  # a read-only home: history lasts for this session only
        return PromptSession(
            history=store, lexer=PygmentsLexer(MatlabLexer), completer=MatlabCompleter(self.interp),
            complete_while_typing=False, multiline=True, key_bindings=self._key_bindings(),
            enable_history_search=True,  # as in MATLAB: x then Up recalls the last line starting with x
            prompt_continuation=CONTINUATION, input=input, output=output,
        )

    def _key_bindings(self) -> Any:
        # (prompt_toolkit: loaded with the prompt, see _prompt_session)
        from prompt_toolkit.enums import DEFAULT_BUFFER
        from prompt_toolkit.filters import completion_is_selected, has_focus
        from prompt_toolkit.key_binding import KeyBindings
        from prompt_toolkit.keys import Keys

        kb = KeyBindings()
        editing = has_focus(DEFAULT_BUFFER)  # not while Ctrl-R's search field has the keys

        @kb.add("enter", filter=editing & ~completion_is_selected)
        def _enter(event: Any) -> None:
            """Run the code when it is a whole statement, else open the next line."""
            buffer = event.current_buffer
            if self.needs_more(buffer.text):
                buffer.insert_text("\n")
            else:
                buffer.validate_and_handle()

        @kb.add("escape", "enter", filter=editing)
        def _newline(event: Any) -> None:
            """Alt-Enter: a new line even when the code is complete."""
            event.current_buffer.insert_text("\n")

        @kb.add("tab", filter=editing & ~completion_is_selected)
        def _tab(event: Any) -> None:
            """Indent at the start of a line, complete anywhere else (again: the next choice)."""
            buffer = event.current_buffer
            if buffer.complete_state is not None:
                buffer.complete_next()
            elif not buffer.document.current_line_before_cursor.strip():
                buffer.insert_text(INDENT)
            else:
                buffer.start_completion(insert_common_part=True)

        @kb.add(Keys.BracketedPaste, filter=editing)
        def _paste(event: Any) -> None:
            """A pasted block ending with a newline runs at once, as MATLAB runs it."""
            data = event.data.replace("\r\n", "\n").replace("\r", "\n")
            buffer = event.current_buffer
            buffer.insert_text(data.rstrip("\n") if data.endswith("\n") else data)
            if data.endswith("\n") and not self.needs_more(buffer.text):
                buffer.validate_and_handle()
            elif data.endswith("\n"):
                buffer.insert_text("\n")

        return kb

    def needs_more(self, code: str) -> bool:
        try:
            return needs_more_input(code, self.interp.base.vars.keys())
        except Exception:  # a lexer bug: run the code, which reports it as an internal error
            return False


def execute(interp: Any, code: str, debug: bool = False) -> BaseException | None:
    """Run statements in the base workspace as the Command Window does: errors reported,
    the workspace kept. Returns what stopped them, if anything."""
    if not code.strip():
        return None
    interp.notice_file_changes()  # (function files saved since the last input run anew)
    stopped = run_reported(interp, lambda: interp.eval(code), debug)
    shown = run_reported(interp, interp.input_done, debug)  # figures drawn by the input
    return stopped if stopped is not None else shown


def run_stream(interp: Any, stream: TextIO, debug: bool = False) -> int:
    """Run statements read from ``stream`` (not a terminal) as the Command Window would,
    without prompts.  An error is reported and reading goes on; the exit status is 1
    when any statement failed, and Ctrl-C stops reading."""
    failed = False
    lines: list[str] = []
    while True:
        line = stream.readline()
        if line:
            lines.append(line.rstrip("\n"))
            if needs_more_input("\n".join(lines), interp.base.vars.keys()):
                continue
        elif not lines:
            return 1 if failed else 0
        code = "\n".join(lines)
        lines = []
        try:
            stopped = execute(interp, code, debug)
        except ExitRequest as exc:
            return exc.status
        if isinstance(stopped, KeyboardInterrupt):
            return 1
        failed = failed or stopped is not None


# ---------------------------------------------------------------- completion


class MatlabCompleter(Completer):
    """Tab completion: variables, struct fields after ``.``, functions (builtins, the
    stdlib, files on the path), keywords, and file names inside quotes or after
    commands such as ``cd`` and ``load``."""

    def __init__(self, interp: Any) -> None:
        self.interp = interp
        self.paths = PathCompleter(expanduser=True)
        self.folders = PathCompleter(expanduser=True, only_directories=True)

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        try:
            yield from self._completions(document, complete_event)
        except Exception:  # completion must never end the session; offer nothing instead
            return

    def _completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        line = document.current_line_before_cursor
        quote = open_quote(line)
        if quote is not None:
            yield from self._files(line[quote + 1:], complete_event)
            return
        command = _COMMAND_ARG.match(line)
        if command and command.group(1) in FILE_COMMANDS and command.group(1) not in self._variables():
            argument = command.group(2).split(" ")[-1]
            completer = self.folders if command.group(1) == "cd" else self.paths
            yield from completer.get_completions(Document(argument), complete_event)
            return
        chain = _FIELD_CHAIN.search(line)
        if chain:
            prefix = chain.group(2)
            for name in self._fields(chain.group(1).split(".")):
                if name.startswith(prefix):
                    yield Completion(name, -len(prefix), display_meta="field")
            return
        word = _WORD.search(line)
        if word is None:
            return
        prefix = word.group()
        for name, meta in self._names():
            if name.startswith(prefix):
                yield Completion(name, -len(prefix), display_meta=meta)

    def _files(self, fragment: str, event: CompleteEvent) -> Iterable[Completion]:
        return self.paths.get_completions(Document(fragment), event)

    def _variables(self) -> dict[str, Any]:
        return self.interp.base.vars

    def _fields(self, chain: list[str]) -> list[str]:
        """The field names of the struct that ``a.b.c`` names (first element of arrays)."""
        value = self._variables().get(chain[0])
        for name in chain[1:]:
            if type(value) is not Struct or name not in value.fields or not value.elems.size:
                return []
            value = value.element(0)[name]
        return list(value.fields) if type(value) is Struct else []

    def _names(self) -> list[tuple[str, str]]:
        """Every name worth offering, each once, variables first."""
        found: dict[str, str] = {}
        for name in sorted(self._variables()):
            found.setdefault(name, "variable")
        functions = set(self.interp.builtins)
        for folder in [*self.interp.search_dirs(), str(STDLIB)]:
            functions.update(_m_files(folder))
        for name in sorted(functions):
            found.setdefault(name, "function")
        for name in sorted(KEYWORDS):
            found.setdefault(name, "keyword")
        return list(found.items())


def _m_files(folder: str) -> list[str]:
    try:
        return [f[:-2] for f in os.listdir(folder) if f.endswith(".m") and f[:-2].isidentifier()]
    except OSError:
        return []


def open_quote(line: str) -> int | None:
    """Where the text literal left open at the end of ``line`` starts, or None.

    A ``'`` right after a value (a name, a number, a closing bracket, a literal)
    is a transpose, not a quote.
    """
    start: int | None = None
    closer = ""
    prev = " "  # the last character outside literals
    i = 0
    while i < len(line):
        c = line[i]
        if start is not None:
            if c == closer:
                if line[i + 1: i + 2] == closer:
                    i += 2  # a doubled quote inside the literal
                    continue
                start, prev = None, closer
        elif c == '"' or (c == "'" and not (prev.isalnum() or prev in "_)]}'.\"")):
            start, closer = i, c
        elif c == "%":
            return None  # a comment: nothing to complete
        else:
            prev = " " if c.isspace() else c
        i += 1
    return start
