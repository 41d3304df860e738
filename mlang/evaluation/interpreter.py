"""The interpreter: one MATLAB session and everything it holds.

All mutable state lives here (workspaces, globals, path, format, warning
state, caches), so two interpreters in one process never interfere.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

import numpy as np

import mlang.stdlib
from mlang.errors import RUNNING, MatlabError, MatlabSyntaxError, error
from mlang.evaluation.frame import RECURSION_LIMIT, Frame
from mlang.evaluation.functions import CompiledUnit, FileSyntaxError, ScriptCall, UnreadableFile
from mlang.evaluation.stack_room import with_room
from mlang.registry import library
from mlang.syntax.cache import FileReadError, parse_file
from mlang.syntax.parser import default_parser
from mlang.values.cell import Cell
from mlang.values.convert import from_python, to_python
from mlang.values.core import to_str
from mlang.values.handle import FunctionHandle
from mlang.values.limits import DEFAULT_MAX_ARRAY_BYTES
from mlang.values.objects import FUNCTION_LIKE

# The one place that says where the stdlib is: the package mlang.stdlib, which
# pyproject.toml maps from the top-level stdlib/ folder (editable or not).
STDLIB = Path(mlang.stdlib.__file__).parent
# MATLAB's namelengthmax: no function or file name is longer.
NAME_LENGTH_MAX = 63
PYTHON_STACK_LIMIT = 20000
# The texts given to eval (and evalin, str2num, str2func) whose parse an interpreter keeps:
# at most this many texts, each of at most this many characters (a long text is seldom run
# twice, and its tree is large), with at most this many forms derived from each tree.
TEXT_CACHE_TEXTS = 256
TEXT_CACHE_LONGEST = 2000
TEXT_CACHE_FORMS = 8
# A run of the characters a name is made of: every name the lexer reads in a text is the end
# of one such run (a name is a letter then as many of them as follow).
_WORD_RUN = re.compile(r"[A-Za-z0-9_]+")


# Whether NumPy advises huge pages for large arrays: set, returning the previous setting
# (NumPy 2 has it in numpy._core, NumPy 1 in numpy.core).
_ask_for_huge_pages = getattr(getattr(getattr(np, "_core", None) or np.core, "multiarray", None),
                              "_set_madvise_hugepage", lambda ask: False)


def _recursion_limit_error() -> MatlabError:
    return error("MATLAB:recursionLimit", "Maximum recursion limit reached. Use "
                 "set(0,'RecursionLimit',N) to change the limit.")


class ParsedText:
    """A text as an interpreter keeps it (``Interpreter.parsed``): the names the lexer could
    read in it, and by the workspace's variables among those names (command syntax: ``hold on``
    is a call unless ``hold`` is a variable), the tree and what callers derived from it."""

    __slots__ = ("names", "trees")

    def __init__(self, text: str) -> None:
        names = set()
        for run in _WORD_RUN.findall(text):
            for start, first in enumerate(run):
                if first.isalpha():
                    names.add(run[start:])
        self.names = tuple(names)
        # variables among ``names`` -> (tree, the forms derived from it by key)
        self.trees: dict[tuple[str, ...], tuple[Any, dict[Any, Any]]] = {}


class Interpreter:
    """A MATLAB session: ``run_file``, ``eval``, ``get``/``set`` from Python."""

    def __init__(self, stdout: TextIO | None = None, stderr: TextIO | None = None,
                 stdin: TextIO | None = None) -> None:
        self.out = stdout or sys.stdout
        self.err = stderr or sys.stderr
        self.inp = stdin or sys.stdin  # what input() and pause read
        self.parser = default_parser()  # one per thread: a parser holds state only while parsing
        self.builtins = library()
        self.base = Frame(self)
        self.globals: dict[str, Any] = {}
        self.path: list[str] = []  # addpath folders, searched after the current folder
        self.script_dirs: list[str] = []  # folders of the scripts being run
        self.generation = 0  # bumped when what a name resolves to may have changed
        self._resolved: dict[str, Any] = {}
        # what the resolved names were found by: each search folder's and each resolved
        # file's modification time (see ``notice_file_changes``)
        self._stamps: dict[str, int] = {}
        self._units: dict[str, tuple[int, CompiledUnit]] = {}
        self._texts: dict[str, ParsedText] = {}  # short texts already parsed (see ``parsed``)
        self.format = "short"
        self.compact = False
        self.warnings_off: set[str] = set()
        self.lastwarn: tuple[str, str] = ("", "")
        self.depth = 0
        self.in_stack_room = False  # whether code runs below a with_room frame already
        self.frames: list[Frame] = [self.base]  # the call stack (for evalin, dbstack)
        self.at_line_start = True  # whether the last output ended a line (display framing)
        self.tic_start: float | None = None  # the time of the last tic
        self.random: Any = None  # the random number generator (made on first use)
        self.random_seed = 0
        self.dl_depth = 0  # how many dlfeval calls are running (tracing is on inside them)
        self.pause_enabled = True  # pause('off') makes pause return at once
        # MATLAB's maximum array size preference, in bytes: larger requests are refused
        self.max_array_bytes = DEFAULT_MAX_ARRAY_BYTES
        # State a family of builtins keeps for this session, keyed by family ("files": the
        # open-file table...): builtins plug in their own state without this class knowing it.
        self.family_state: dict[str, Any] = {}
        # What the front end asked of the families ("figures": where and how figures go),
        # read by a family when it first loads.
        self.options: dict[str, Any] = {}
        # What a family of builtins does when the session's program ends (a training monitor
        # prints its last progress line; figures are written): run by ``finish``.
        self.at_end: list[Callable[[], None]] = []
        # What a family does after each input a Command Window runs (figures are shown or
        # written as drawn): run by ``input_done``.
        self.after_input: list[Callable[[], None]] = []
        # How pause(n) waits n seconds: open figure windows keep drawing while it waits
        self.wait: Callable[[float], None] = time.sleep

    def input_done(self) -> None:
        """A Command Window ran one input: run the families' after-input actions."""
        for action in list(self.after_input):
            action()

    def finish(self) -> None:
        """End the session's program: run the families' end actions once, in order."""
        actions, self.at_end = self.at_end, []
        for action in actions:
            action()

    # ------------------------------------------------------------ running

    def run_file(self, path: str | os.PathLike[str]) -> None:
        """Run a script file in the base workspace (a function file: call it with no arguments)."""
        path = Path(path).resolve()
        try:
            unit = self.unit_for(path)
        except FileSyntaxError as exc:  # the file run is itself unparsable: nothing can catch it
            raise exc.syntax from None
        folder = str(path.parent)
        self.script_dirs.insert(0, folder)
        self.invalidate()
        try:
            with self.running():
                self.in_room(self.run_unit, unit, self.base)
        finally:
            self.script_dirs.remove(folder)
            self.invalidate()

    def run_source(self, text: str, name: str = "script") -> None:
        """Run the text of a script (local functions allowed) in the base workspace."""
        program = self.parser.parse(text, f"{name}.m")
        unit = CompiledUnit(program, f"{name}.m", name)
        with self.running():
            self.in_room(self.run_unit, unit, self.base)

    def run_unit(self, unit: CompiledUnit, frame: Frame) -> None:
        """Run a compiled file in ``frame``: a script's statements, or a function file's
        main function called with no arguments."""
        if unit.is_script:
            unit.run(self, frame)
        elif unit.primary is not None:
            self.invoke(unit.primary, [], 0, frame)

    def eval(self, code: str, frame: Frame | None = None) -> None:
        """Run MATLAB statements in the base workspace (or ``frame``)."""
        frame = frame or self.base
        program, forms = self.parsed(code, frame.vars)
        if program.functions:
            raise error("MATLAB:evalFunctionDefinition",
                        "Function definitions are not supported in this context. Functions can "
                        "only be created as local or nested functions in code files.")
        owner = frame.unit
        # the compiled form depends on the tree and on the calling file (its local functions):
        # kept by the file (the unit itself, not its id, so that a new unit never matches),
        # with the unit's code for a workspace that declares no global or persistent names
        compiled = forms.get(owner)
        if compiled is None:
            unit = CompiledUnit(program, "", owner.name if owner else "")
            unit.functions = owner.functions if owner is not None else {}
            if owner is not None:  # (compiling does not read it: errors and handles made there do)
                unit.file = owner.file
            compiled = forms[owner] = [unit, None]
        unit = compiled[0]
        if RUNNING.get() is not self:
            with self.running():
                code_fn = unit.script_code(self, frame)
                try:
                    self.in_room(code_fn, frame)
                finally:
                    frame.unit = owner
            return
        # called by code this interpreter runs (eval in a loop): ``running``'s settings hold
        # already, and only its RecursionError-to-MATLAB-error step is needed
        try:
            if frame.persistent or frame.global_names:
                code_fn = unit.script_code(self, frame)
            else:  # (what script_code gives for no declared names, kept at hand)
                code_fn = compiled[1] or unit.script_code(self, frame)
                compiled[1] = code_fn
            if self.in_stack_room:  # (what in_room does then)
                code_fn(frame)
            else:
                self.in_room(code_fn, frame)
        except RecursionError:
            raise _recursion_limit_error() from None
        finally:
            frame.unit = owner

    def parsed(self, code: str, variables: dict[str, Any] | set[str]) -> tuple[Any, dict[Any, Any]]:
        """The tree of ``code`` parsed as code run where ``variables`` are the variables, and a
        dict where callers keep what they derive from that tree alone (compiled forms), by
        keys of their own.  A short text parsed before (with the same variables among the
        names in it) is not parsed again; a syntax error is raised again on every call."""
        texts = self._texts
        entry = texts.get(code)
        if entry is None:
            if len(code) > TEXT_CACHE_LONGEST:
                return self.parser.parse(code, "", set(variables)), {}
            if len(texts) >= TEXT_CACHE_TEXTS:
                del texts[next(iter(texts))]  # the text kept longest
            entry = texts[code] = ParsedText(code)
        names = entry.names
        key = tuple([name for name in names if name in variables]) if names else ()
        found = entry.trees.get(key)
        if found is not None:
            forms = found[1]
            if len(forms) >= TEXT_CACHE_FORMS:
                forms.clear()
            return found
        program = self.parser.parse(code, "", set(variables))
        if len(entry.trees) >= TEXT_CACHE_FORMS:
            entry.trees.clear()
        found = entry.trees[key] = (program, {})
        return found

    def in_room(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` from a frame that reserves a chunk of Python's frame stack for the
        calls below it (``stack_room``), unless an outer run already did."""
        if self.in_stack_room:
            return fn(*args)
        self.in_stack_room = True
        try:
            return with_room(fn, *args)
        finally:
            self.in_stack_room = False

    @contextmanager
    def running(self) -> Iterator[None]:
        """While MATLAB code runs: this interpreter is the current one, Python's stack
        limit leaves room for MATLAB's recursion limit (calls nest several Python frames
        deep), NumPy's floating-point warnings are off: MATLAB's arithmetic gives Inf,
        NaN or a saturated integer without a word, so none may reach the caller's stderr,
        and NumPy does not ask for huge pages for large arrays: the first touch of a fresh
        huge page costs from one to ten times as much as the ordinary pages of the same
        memory depending on the machine's other work (a page of memory each fault either
        way), and MATLAB code makes many large arrays that live briefly."""
        token = RUNNING.set(self)
        limit = sys.getrecursionlimit()
        if limit < PYTHON_STACK_LIMIT:
            sys.setrecursionlimit(PYTHON_STACK_LIMIT)
        huge_pages = _ask_for_huge_pages(False)
        try:
            with np.errstate(all="ignore"):  # a context variable: only this run is affected
                yield
        except RecursionError:  # outside any statement (compiling deep code): still MATLAB's error
            raise _recursion_limit_error() from None
        finally:
            _ask_for_huge_pages(huge_pages)
            sys.setrecursionlimit(limit)
            RUNNING.reset(token)

    def get(self, name: str) -> Any:
        """A base-workspace variable converted to Python/NumPy."""
        if name not in self.base.vars:
            raise KeyError(name)
        return to_python(self.base.vars[name])

    def set(self, name: str, value: Any) -> None:
        """Set a base-workspace variable from a Python/NumPy value."""
        self.base.vars[name] = from_python(value)

    def call(self, name: str, *args: Any, nargout: int = 1) -> Any:
        """Call a MATLAB function from Python; returns one value or a tuple."""
        target = self.resolve(name)
        if target is None:
            raise error("MATLAB:UndefinedFunction", f"Unrecognized function or variable '{name}'.")
        with self.running():
            out = self.in_room(self.invoke, target, [from_python(a) for a in args], nargout, self.base)
        values = [to_python(v) for v in out]
        return values[0] if nargout == 1 and values else tuple(values)

    @staticmethod
    def is_terminal(stream: Any) -> bool:
        """Whether ``stream`` is an interactive terminal (clc, beep and pause ask)."""
        try:
            return bool(stream.isatty())
        except (AttributeError, ValueError):
            return False

    def back_at_prompt(self) -> None:
        """Forget calls that an interruption (Ctrl-C) may have left half-unwound."""
        self.depth = 0
        del self.frames[1:]
        self.dl_depth = 0

    # ------------------------------------------------------------ calling

    def enter_call(self) -> None:
        self.depth += 1
        if self.depth > RECURSION_LIMIT:
            self.depth -= 1
            raise error("MATLAB:recursionLimit",
                        f"Maximum recursion limit of {RECURSION_LIMIT} reached.")

    def leave_call(self) -> None:
        self.depth -= 1

    def invoke(self, target: Any, args: list, nargout: int, frame: Frame | None = None) -> list:
        """Call anything callable (``mlang.registry.Callable``): a builtin, a user function,
        a script, a function handle."""
        return target.call(self, args, nargout, frame)

    def call_handle(self, handle: FunctionHandle, args: list, nargout: int) -> list:
        params = handle.params
        if params is not None:  # anonymous
            varargin = bool(params) and params[-1] == "varargin"
            if len(args) > len(params) and not varargin:
                raise error("MATLAB:TooManyInputs", "Too many input arguments.")
            vars = dict(handle.captured) if handle.captured else {}
            if varargin or None in params:
                for p, a in zip(params, args, strict=False):
                    if p is not None:
                        vars[p] = a
                if varargin:
                    vars["varargin"] = Cell.row(list(args[len(params) - 1:]))
            else:
                vars.update(zip(params, args, strict=False))
            # its own workspace on the stack: eval, exist and who inside the body see it;
            # errors raised there are named after the code that called the handle
            frames = self.frames
            caller = frames[-1]
            frame = Frame(self, handle.target, None, len(args), nargout, vars, None,
                          caller.function.name if caller.function is not None else caller.label)
            frames.append(frame)
            try:
                return handle.body(frame, nargout)  # type: ignore[misc]
            finally:
                frames.pop()
        target = handle.target or self.resolve(handle.name)
        if target is None:
            raise error("MATLAB:UndefinedFunction",
                        f"Unrecognized function or variable '{handle.name}'.")
        return self.invoke(target, args, nargout, handle.scope)

    def call_value(self, fn: Any, args: list, nargout: int = 1) -> list:
        """Call a function given as a handle or a name (feval, cellfun, ...)."""
        if type(fn) is FunctionHandle:
            return self.call_handle(fn, args, nargout)
        if type(fn) in FUNCTION_LIKE:
            return fn.call_as_function(self, args, nargout)
        name = to_str(fn)
        target = self.resolve(name)
        if target is None:
            raise error("MATLAB:UndefinedFunction", f"Unrecognized function or variable '{name}'.")
        return self.invoke(target, args, nargout)

    # ---------------------------------------------------------- resolution

    def invalidate(self) -> None:
        """Forget resolved names (the path or the current folder changed)."""
        self.generation += 1
        self._resolved.clear()
        self._stamps.clear()

    def notice_file_changes(self) -> None:
        """Forget resolved names when a file they were resolved to was saved, or a search
        folder's listing changed (a file added, removed or renamed), since they were
        resolved: as MATLAB runs a function file's saved text at its next call.  One stat
        a folder and a file; called as an input starts (the Command Window's, a Python
        session's eval and call), not inside running code."""
        for path, stamp in self._stamps.items():
            try:
                changed = os.stat(path).st_mtime_ns != stamp
            except OSError:
                changed = True
            if changed:
                self.invalidate()
                return

    def _stamp(self, path: str) -> None:
        if path not in self._stamps:
            try:
                self._stamps[path] = os.stat(path).st_mtime_ns
            except OSError:
                pass

    def search_dirs(self) -> list[str]:
        return [*self.script_dirs, os.getcwd(), *self.path]

    def lookup(self, name: str, unit: Any) -> Any:
        """What ``name`` calls from code in ``unit``: its file's local function first,
        then ``resolve``.  None when nothing is found."""
        target = unit.local(name) if unit is not None else None
        return target if target is not None else self.resolve(name)

    def resolve(self, name: str) -> Any:
        """What a function name means: a file on the path, a builtin, a stdlib function."""
        found = self._resolved.get(name)
        if found is not None:
            return found
        target = None
        if len(name) > NAME_LENGTH_MAX:
            return None  # no file can have that name (the file system refuses it)
        searched = []
        for folder in self.search_dirs():
            searched.append(folder)
            candidate = Path(folder) / f"{name}.m"
            if candidate.is_file():
                target = self._file_target(candidate)
                searched.append(str(candidate))
                break
        if target is None:
            target = self.builtins.get(name)
        if target is None:
            candidate = STDLIB / f"{name}.m"
            if candidate.is_file():
                target = self._file_target(candidate)
        if target is not None and type(target) is not UnreadableFile:  # it may become readable
            self._resolved[name] = target
            for path in searched:  # (a file added to a folder searched first would win)
                self._stamp(path)
        return target

    def _file_target(self, path: Path) -> Any:
        try:
            unit = self.unit_for(path)
        except (FileReadError, FileSyntaxError) as exc:  # still found by name; the error
            return UnreadableFile(str(path), exc)  # comes when it is run
        if unit.is_script:
            return ScriptCall(unit)
        return unit.primary

    def unit_for(self, path: Path) -> CompiledUnit:
        """The compiled form of a file, recompiled when the file changes.  A syntax error
        in it is a FileSyntaxError: code that loads a file as it runs can catch that."""
        key = str(path)
        mtime = path.stat().st_mtime_ns
        cached = self._units.get(key)
        if cached is not None and cached[0] == mtime:
            return cached[1]
        try:
            program = parse_file(path, self.parser)
        except MatlabSyntaxError as exc:
            raise FileSyntaxError(exc) from None
        unit = CompiledUnit(program, key)
        self._units[key] = (mtime, unit)
        return unit

    # ------------------------------------------------------------- output

    def write(self, text: str) -> None:
        if text:
            self.out.write(text)
            self.at_line_start = text.endswith("\n")

    def display(self, name: str, value: Any) -> None:
        """Show a result as ``name = value`` does without a semicolon."""
        Interpreter.result_display(self, name, value)

    # How results are shown: display(interp, name, value).  The display layer, above this
    # one, registers its function when imported (mlang.display), so no import goes upward.
    result_display: Callable[[Interpreter, str, Any], None]

    def read_line(self, prompt: str = "") -> str | None:
        """A line typed by the user (for input, pause), without its newline; None at end of input."""
        self.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        self.at_line_start = True  # the user's Enter ended the prompt's line
        return line.rstrip("\r\n") if line else None

    def warn(self, identifier: str, message: str) -> None:
        self.lastwarn = (message, identifier)
        if "all" in self.warnings_off or identifier in self.warnings_off:
            return
        self.out.flush()
        self.err.write(f"Warning: {message}\n")
        self.err.flush()


__all__ = ["Interpreter"]
