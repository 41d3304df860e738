"""Compiled files (scripts and function files) and user-defined functions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from mlang.errors import MatlabError, MatlabSyntaxError, error
from mlang.evaluation.arguments import compile_arguments
from mlang.evaluation.compiler import Code, Compiler, loop_source
from mlang.evaluation.frame import RECURSION_LIMIT, Frame, ReturnFromFunction
from mlang.syntax import ast
from mlang.syntax.build import check_loop_exits, check_persistent
from mlang.values.cell import Cell


def _declared(stmts: list[ast.Node], kind: type[ast.Global] | type[ast.Persistent]) -> set[str]:
    """Names declared global/persistent anywhere in a body (nested functions are not
    in a body: they are the function's ``functions``)."""
    return {name for stmt in stmts for node in ast.walk(stmt) if isinstance(node, kind)
            for name in node.names}


def _names_used(fn: ast.Function) -> set[str]:
    """Every name a function's own code mentions (its nested functions aside)."""
    names: set[str] = set(p for p in fn.params if p) | set(fn.outputs)
    for stmt in fn.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name):  # (a for loop's variable is a Name too)
                names.add(node.name)
            elif isinstance(node, ast.Try) and node.catch_var:
                names.add(node.catch_var)
            elif isinstance(node, ast.Global | ast.Persistent):
                names.update(node.names)
    return names


class UserFunction:
    """A function written in MATLAB: compiled on its first call."""

    def __init__(self, node: ast.Function, unit: CompiledUnit,
                 parent: UserFunction | None = None) -> None:
        self.node = node
        self.parent = parent  # the enclosing function of a nested function
        self._names: set[str] | None = None
        # a nested function shares with its parent the variables both of them use
        self.shared: set[str] = set()
        if parent is not None:
            own = set(node.params) | set(node.outputs)
            self.shared = (self.names_used & (parent.names_used | parent.shared)) - own
        self.name = node.name
        self.unit = unit
        self.params = node.params
        self.outputs = node.outputs
        self.varargin = bool(node.params) and node.params[-1] == "varargin"
        self.varargout = bool(node.outputs) and node.outputs[-1] == "varargout"
        self.persistent: dict[str, Any] = {}
        self._body: Code | None = None
        self._arguments: Any = None
        # named inputs and outputs only, compiled: calls take the short path in `call`
        self._simple = False
        self._input_count = len(self.params)
        self._output_count = len(self.outputs)
        self._first_output = self.outputs[0] if self.outputs else None

    @property
    def names_used(self) -> set[str]:
        """The names this function's own code mentions (worked out once: each of its
        nested functions asks)."""
        if self._names is None:
            self._names = _names_used(self.node)
        return self._names

    @property
    def max_inputs(self) -> int | None:
        return None if self.varargin else len(self.params)

    def compile(self, interp: Any) -> Code:
        if self._body is None:
            body = self.node.body
            check_loop_exits(body)
            check_persistent(self.node)
            compiler = Compiler(interp, self.unit, _declared(body, ast.Global),
                                _declared(body, ast.Persistent),
                                {p for p in self.params if p and p != "varargin"},
                                self.shared)
            # (its scalar statements written inline as Python source, when it has any)
            self._body = loop_source.function_body(compiler, body) or compiler.block(body)
            if self.node.arguments:
                self._arguments = compile_arguments(compiler, self.node.arguments, self.params)
            self._simple = (self._arguments is None and self.parent is None and not self.varargin
                            and not self.varargout and all(self.params))
        return self._body

    def direct_call(self, interp: Any, count: int, nargout: int
                    ) -> Callable[[Any, list, int], list] | None:
        """What a call site passing ``count`` arguments for ``nargout`` outputs may call
        instead of ``call``: ``_call_simple`` when its checks are sure to pass (known once
        the function is compiled: it is compiled now), else None."""
        self.compile(interp)
        if self._simple and count <= self._input_count and nargout <= self._output_count:
            return self._call_simple
        return None

    def call(self, interp: Any, args: list, nargout: int, caller: Frame | None = None) -> list:
        """Run the function on ``args`` for ``nargout`` outputs."""
        if self._simple and len(args) <= self._input_count and nargout <= self._output_count:
            return self._call_simple(interp, args, nargout)
        return self._call_general(interp, args, nargout, caller)

    def _call_simple(self, interp: Any, args: list, nargout: int) -> list:
        """``call`` of a compiled function with named inputs and outputs only (no
        varargin, varargout, ``~`` input, arguments block or parent), given no more
        arguments and outputs than it has: what ``_call_general`` does, with the checks
        and choices already made (a method of its own: faster than written into ``call``)."""
        n = len(args)
        params = self.params
        # the workspace, written out for short argument lists (dict(zip()) costs several times more)
        if n == 1:
            vars = {params[0]: args[0]}
        elif n == 2:
            vars = {params[0]: args[0], params[1]: args[1]}
        else:
            vars = dict(zip(params, args, strict=False))  # (fewer arguments: unset)
        vars = self._run_simple(interp, vars, n, nargout)
        if nargout <= 1:
            first = self._first_output
            if first in vars:
                return [vars[first]]
            if nargout == 0 or first is None:
                return []
        return self._collect(vars, nargout)

    def direct_value_of(self, count: int, literals: tuple = ()) -> Callable[..., Any] | None:
        """For a call site passing one or two arguments for one value, once compiled:
        ``value(interp, a)`` or ``value(interp, a, b)``, ``_call_simple`` taking the
        arguments as they are and giving the value itself (no lists made); None for other
        sites (they take ``call``); ``literals``: as a builtin's, unused."""
        if not (self._simple and count in (1, 2) and count <= self._input_count
                and self._output_count >= 1):
            return None
        run, first, params = self._run_simple, self._first_output, self.params

        def value_of(interp: Any, vars: dict) -> Any:
            vars = run(interp, vars, count, 1)
            return vars[first] if first in vars else self._collect(vars, 1)[0]

        if count == 1:
            only = params[0]
            return lambda interp, a: value_of(interp, {only: a})
        one, two = params[0], params[1]
        return lambda interp, a, b: value_of(interp, {one: a, two: b})

    def _run_simple(self, interp: Any, vars: dict, nargin: int, nargout: int) -> dict:
        """Run the compiled body in a new workspace holding ``vars``; the workspace after it."""
        frame = Frame(interp, self.unit, self, nargin, nargout, vars, self.persistent)
        if interp.depth >= RECURSION_LIMIT:
            interp.enter_call()  # (raises MATLAB's error)
        interp.depth += 1
        frames = interp.frames
        frames.append(frame)
        try:
            self._body(frame)  # type: ignore[misc]
        except ReturnFromFunction:
            pass
        except MatlabError as exc:
            exc.located = None  # type: ignore[attr-defined]  # let the caller add its frame
            raise
        finally:
            frames.pop()
            interp.depth -= 1  # (leave_call)
        return frame.vars  # (the body may have replaced the workspace's dict)

    def _call_general(self, interp: Any, args: list, nargout: int, caller: Frame | None) -> list:
        body = self._body or self.compile(interp)
        params = self.params
        n = len(args)
        if self._arguments is not None:  # name=value options may follow the parameters
            limit = self._arguments.max_inputs
        else:
            limit = None if self.varargin else len(params)
        if limit is not None and n > limit:
            raise self._error("MATLAB:TooManyInputs", "Too many input arguments.")
        if nargout > len(self.outputs) and not self.varargout:
            raise self._error("MATLAB:TooManyOutputs", "Too many output arguments.")
        frame = Frame(interp, self.unit, self, n, nargout)
        frame.persistent = self.persistent
        if self.parent is not None:
            frame.outer = self._parent_frame(caller)
        vars = frame.vars
        fixed = len(params) - 1 if self.varargin else len(params)
        for i in range(min(n, fixed)):
            p = params[i]
            if p is not None:
                vars[p] = args[i]
        if self.varargin:
            vars["varargin"] = Cell.row(list(args[fixed:]))
        interp.enter_call()
        interp.frames.append(frame)
        try:
            if self._arguments is not None:
                self._arguments(frame, args)
            body(frame)
        except ReturnFromFunction:
            pass
        except MatlabError as exc:
            exc.located = None  # type: ignore[attr-defined]  # let the caller add its frame
            raise
        finally:
            interp.frames.pop()
            interp.leave_call()
        return self._collect(vars, nargout)

    def _parent_frame(self, caller: Frame | None) -> Frame | None:
        """The running workspace of this nested function's parent, seen from the caller
        (the parent itself, a sibling, or this function calling itself)."""
        f = caller
        while f is not None:
            if f.function is self.parent:
                return f
            f = f.outer
        return None

    def _error(self, identifier: str, message: str) -> MatlabError:
        exc = error(identifier, message)
        exc.exc.function = self.name
        return exc

    def _collect(self, vars: dict, nargout: int) -> list:
        outputs = self.outputs
        out: list = []
        wanted = max(nargout, 1)
        names = outputs[:-1] if self.varargout else outputs
        for i, name in enumerate(names[:wanted]):
            if name in vars:
                out.append(vars[name])
            elif i < nargout:
                raise error("MATLAB:unassignedOutputs",
                            f'Output argument "{name}" (and possibly others) not assigned a value '
                            f'in the execution with "{self.name}" function.')
            else:
                return out
        if self.varargout and len(out) < wanted:
            extra = vars.get("varargout")
            if extra is not None:
                if type(extra) is not Cell:
                    raise error("MATLAB:varargoutNotCell", "varargout must be a cell array.")
                needed = wanted - len(out)
                values = extra.values()
                if len(values) < needed and nargout > len(out):
                    raise error("MATLAB:unassignedOutputs",
                                f'Output argument "varargout{{{len(values) + 1}}}" (and possibly '
                                f'others) not assigned a value in the execution with '
                                f'"{self.name}" function.')
                out.extend(values[:needed])
            elif nargout > len(out):
                raise error("MATLAB:unassignedOutputs",
                            f'Output argument "varargout" (and possibly others) not assigned a '
                            f'value in the execution with "{self.name}" function.')
        return out

    def __repr__(self) -> str:
        return f"UserFunction({self.name})"


class CompiledUnit:
    """A parsed ``.m`` file (or code typed at the prompt): its functions and its script body."""

    def __init__(self, program: ast.Program, file: str = "", name: str = "") -> None:
        self.program = program
        self.file = file
        self.name = name or (Path(file).stem if file else "")
        self.is_script = program.is_script
        self.functions: dict[str, UserFunction] = {}
        for fn in program.functions:
            self._add(fn)
        self._scripts: dict[tuple[frozenset[str], frozenset[str]], Code] = {}

    def _add(self, fn: ast.Function, parent: UserFunction | None = None) -> None:
        function = UserFunction(fn, self, parent)
        self.functions.setdefault(fn.name, function)
        for nested in fn.functions:
            self._add(nested, function)

    def local(self, name: str) -> UserFunction | None:
        return self.functions.get(name)

    @property
    def primary(self) -> UserFunction | None:
        if self.is_script or not self.program.functions:
            return None
        return self.functions[self.program.functions[0].name]

    def script_code(self, interp: Any, frame: Frame | None = None) -> Code:
        """The script body compiled to run in ``frame``: names that workspace already
        declared global (or persistent, in a function) keep meaning those here."""
        known_globals = frozenset(frame.global_names) if frame is not None else frozenset()
        known_persistent = frozenset(frame.persistent or ()) if frame is not None else frozenset()
        key = (known_globals, known_persistent)
        code = self._scripts.get(key)
        if code is None:
            body = self.program.body
            check_loop_exits(body)
            compiler = Compiler(interp, self, _declared(body, ast.Global) | known_globals,
                                set(known_persistent))
            code = self._scripts[key] = compiler.block(body)
        return code

    def run(self, interp: Any, frame: Frame) -> None:
        """Run a script's statements in ``frame`` (the caller's workspace)."""
        code = self.script_code(interp, frame)
        saved = frame.unit
        frame.unit = self
        try:
            code(frame)
        except ReturnFromFunction:
            pass
        finally:
            frame.unit = saved


class ScriptCall:
    """A script found on the path, called by name: it runs in the caller's workspace."""

    def __init__(self, unit: CompiledUnit) -> None:
        self.unit = unit
        self.name = unit.name

    def call(self, interp: Any, args: list, nargout: int, frame: Frame | None = None) -> list:
        if frame is None:
            frame = interp.base
        if args or nargout:
            raise error("MATLAB:scriptNotFunction",
                        f"Attempt to execute SCRIPT {self.name} as a function:\n{self.unit.file}")
        self.unit.run(interp, frame)
        return []



class FileSyntaxError(MatlabError):
    """A syntax error in a file loaded while code runs (a function called by name, a
    script given to run): an MException try/catch can catch, as in MATLAB.  ``syntax``
    is the syntax error itself, for a report in its own layout when nothing catches it."""

    def __init__(self, syntax: MatlabSyntaxError) -> None:
        where = f"File: {Path(syntax.file).name} Line: {syntax.line} Column: {syntax.col}\n"
        super().__init__("MATLAB:m_incomplete_statement" if syntax.incomplete
                         else "MATLAB:m_parse_error", where + syntax.message)
        self.syntax = syntax


class UnreadableFile:
    """A ``.m`` file found by name that cannot be read or parsed: exist and which still
    see it (it is there), calling it raises the read or syntax error."""

    def __init__(self, file: str, problem: MatlabError) -> None:
        self.file = file
        self.name = Path(file).stem
        self.identifier = problem.identifier
        self.message = problem.message
        self.syntax = problem.syntax if type(problem) is FileSyntaxError else None

    def call(self, interp: Any, args: list, nargout: int, frame: Frame | None = None) -> list:
        # a new error each call: the stack of a raised error grows as it unwinds
        if self.syntax is not None:
            raise FileSyntaxError(self.syntax)
        raise error(self.identifier, self.message)
