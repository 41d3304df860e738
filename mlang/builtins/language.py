"""Language-level builtins: errors and warnings, introspection, evaluation, validators.

* errors: error, MException (and its methods throw, rethrow, throwAsCaller,
  addCause, getReport), assert;
* warnings: warning (messages and on/off state), lastwarn;
* introspection: class, isa, exist, isvarname, inputname, nargin/nargout
  of a named function;
* evaluation: eval, evalin, assignin, feval, func2str, str2func, clear,
  tic/toc;
* validators: validateattributes and the mustBe* functions, with MATLAB's
  messages (``arguments`` blocks call the same functions).

who, whos, clc, exit and quit are in ``workspace``; help, doc, type and
which in ``helptext``.

"The caller's workspace" is ``interp.frames[-1]``: builtins run without a
frame of their own, so the innermost frame is the code that called them.
"""

from __future__ import annotations

import fnmatch
import math
import os
import re
import time
from pathlib import Path
from typing import Any

import numpy as np

from mlang.builtins.printing import format_text
from mlang.errors import MatlabError, MException, report, running_interpreter
from mlang.errors import error as _matlab_error
from mlang.evaluation.frame import Frame
from mlang.registry import Builtin, builtin
from mlang.values.cell import Cell
from mlang.values.core import (
    INT_CLASSES,
    NUMERIC_CLASSES,
    char_row,
    class_of,
    is_text,
    is_true,
    numel,
    size_of,
    to_array,
    to_double_array,
    to_str,
)
from mlang.values.handle import FunctionHandle
from mlang.values.string import StringArray
from mlang.values.struct import Struct

# "component:component[:...]": how error/warning/assert tell an identifier from a message
_IDENTIFIER = re.compile(r"^[A-Za-z][\w-]*(:[\w-]+)+$")
KEYWORDS = frozenset({
    "break", "case", "catch", "classdef", "continue", "else", "elseif", "end", "for",
    "function", "global", "if", "otherwise", "parfor", "persistent", "return", "spmd",
    "switch", "try", "while",
})
NAME_LENGTH_MAX = 63
FLOAT_CLASSES = ("double", "single")
CLASS_GROUPS = {"numeric": NUMERIC_CLASSES, "float": FLOAT_CLASSES, "integer": INT_CLASSES}


# ------------------------------------------------------------------ helpers


def _text(v: Any, what: str = "Input") -> str:
    """The text of a char row vector or string scalar argument."""
    if type(v) is np.ndarray and v.dtype.kind == "U" and (v.size == 0 or v.shape[0] == 1):
        return to_str(v)
    if type(v) is StringArray and v.data.size == 1:
        return v.scalar_text()
    raise _matlab_error("MATLAB:invalidInput", f"{what} must be a character vector or string scalar.")


def _texts(v: Any) -> list[str]:
    """A list of names given as char, string array or cell array of char."""
    if type(v) is Cell:
        return [_text(x) for x in v.values()]
    if type(v) is StringArray:
        return ["" if s is None else s for s in v.data.ravel(order="F")]
    return [_text(v)]


def is_identifier(text: str) -> bool:
    """Is ``text`` a message identifier (``component:mnemonic``)?"""
    return bool(_IDENTIFIER.match(text))


def _identifier_and_message(args: tuple | list) -> tuple[str, str]:
    """error/warning/assert arguments: ``(msg)``, ``(fmt, A...)`` or ``(id, fmt, A...)``.

    A lone argument is the message as it stands; with more than one, the
    message is a format, and a first argument shaped like an identifier is one.
    """
    first = _text(args[0], "Message")
    if len(args) == 1:
        return "", first
    if is_identifier(first):
        return first, format_text(_text(args[1], "Message"), list(args[2:]))
    return "", format_text(first, list(args[1:]))


def _caller(interp: Any) -> Frame:
    return interp.frames[-1]


def _raise(interp: Any, exc: MException, skip_frames: int = 0) -> None:
    """Throw ``exc`` from the calling code (``skip_frames`` 1: from the caller's caller)."""
    frames = interp.frames
    caller = frames[-1 - skip_frames] if len(frames) > skip_frames else frames[0]
    exc.name_caller(caller.name)
    err = MatlabError(exc)
    if skip_frames:
        # The stack starts at the caller's caller: the calling frame records nothing.
        err.located = frames[-1]  # type: ignore[attr-defined]
    raise err


def _number_text(x: float) -> str:
    """A number as MATLAB's messages write it (like num2str: up to 4 decimals, no trailing zeros)."""
    if isinstance(x, (bool, np.bool_)):
        return "1" if x else "0"
    if isinstance(x, (complex, np.complexfloating)):
        z = complex(x)
        sign = "-" if z.imag < 0 or (z.imag == 0 and math.copysign(1, z.imag) < 0) else "+"
        return f"{_number_text(z.real)}{sign}{_number_text(abs(z.imag))}i"
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.5g}"


def _empty_char() -> np.ndarray:
    return np.zeros((0, 0), dtype="<U1")


# ------------------------------------------------------------------- errors


@builtin(interp=True, max_out=0, dl="data")
def error_(interp: Any, *args: Any) -> None:
    """error(msg) throws an error with message msg.

    error(fmt, A1, ..., An) formats the message as sprintf does.
    error(errID, fmt, A1, ..., An) also sets the identifier (component:mnemonic).
    error(errorStruct) uses the fields message and identifier.
    An empty message throws nothing."""
    if not args:
        raise _matlab_error("MATLAB:minrhs", "Not enough input arguments.")
    if type(args[0]) is Struct:
        if len(args) > 1:
            raise _matlab_error("MATLAB:TooManyInputs", "Too many input arguments.")
        identifier, message = _struct_error(args[0])
    elif type(args[0]) is np.ndarray and args[0].size == 0 and len(args) == 1:
        return None
    else:
        identifier, message = _identifier_and_message(args)
    if not message:
        return None
    _raise(interp, MException(identifier, message))
    return None


def _struct_error(s: Struct) -> tuple[str, str]:
    if s.elems.size == 0:
        return "", ""
    fields = s.element(0)
    message = to_str(fields["message"]) if "message" in fields and is_text(fields["message"]) else ""
    identifier = to_str(fields["identifier"]) if "identifier" in fields and \
        is_text(fields["identifier"]) else ""
    return identifier, message


@builtin(name="MException")
def mexception(identifier: Any, fmt: Any, *args: Any) -> MException:
    """ME = MException(errID, msg, A1, ..., An) creates an exception object.

    The message is formatted as sprintf does; throw(ME) throws it."""
    ident = _text(identifier, "Identifier")
    if ident and not is_identifier(ident):
        raise _matlab_error("MATLAB:MException:InvalidIdentifier",
                            f"The identifier \"{ident}\" is not a valid message identifier.")
    return MException(ident, format_text(_text(fmt, "Message"), list(args)))


def _exception(v: Any) -> MException:
    if type(v) is MException:
        return v
    if type(v) is Struct:  # rethrow(errorStruct), the pre-MException form
        identifier, message = _struct_error(v)
        return MException(identifier, message)
    raise _matlab_error("MATLAB:invalidInput", "Input must be an MException object.")


@builtin(interp=True, max_out=0)
def throw(interp: Any, exc: Any) -> None:
    """throw(ME) throws the exception ME; its stack starts where throw is called."""
    thrown = _exception(exc).copy()
    thrown.stack = []
    _raise(interp, thrown)


@builtin(interp=True, max_out=0)
def rethrow(interp: Any, exc: Any) -> None:
    """rethrow(ME) throws ME again, keeping the stack of where it was first thrown."""
    again = _exception(exc).copy()
    err = MatlabError(again)
    # The stack already holds this frame (where the error was caught): do not add it twice.
    err.located = interp.frames[-1]  # type: ignore[attr-defined]
    raise err


@builtin(interp=True, max_out=0)
def throwAsCaller(interp: Any, exc: Any) -> None:
    """throwAsCaller(ME) throws ME as if from the caller of the running function."""
    thrown = _exception(exc).copy()
    thrown.stack = []
    _raise(interp, thrown, skip_frames=1)


@builtin()
def addCause(exc: Any, cause: Any) -> MException:
    """ME = addCause(ME, causeException) records causeException as a cause of ME."""
    if type(exc) is not MException or type(cause) is not MException:
        raise _matlab_error("MATLAB:invalidInput", "Inputs must be MException objects.")
    out = exc.copy()
    out.cause.append(cause)
    return out


@builtin()
def getReport(exc: Any, *options: Any) -> np.ndarray:
    """msg = getReport(ME) is the error report MATLAB prints for ME.

    getReport(ME, 'basic') gives only the "Error using" line and the message."""
    me = _exception(exc)
    kind = _text(options[0]).lower() if options else "extended"
    if kind == "basic":
        text = (f"Error using {me.function}\n" if me.function else "") + me.message
    else:
        text = report(me).rstrip("\n")
    return char_row(text)


def exception_method(exc: MException, name: str) -> Any:
    """``ME.name`` for a method: throwing ones act at once, the others give a callable."""
    interp = running_interpreter()
    if name in ("throw", "rethrow", "throwAsCaller"):
        interp.builtins[name].call(interp, [exc], 0)
    target: Builtin = interp.builtins[name]

    def body(frame: Frame, nargout: int) -> list:
        extra = frame.vars["varargin"].values()
        return target.call(interp, [exc, *extra], max(nargout, 1))

    return FunctionHandle(params=["varargin"], body=body, captured={},
                          text=f"@(varargin){name}(ME,varargin{{:}})")


@builtin(name="assert", interp=True, max_out=0, dl="data")
def assert_(interp: Any, cond: Any, *args: Any) -> None:
    """assert(cond) throws an error when cond is false.

    assert(cond, msg), assert(cond, fmt, A1, ..., An) and
    assert(cond, errID, fmt, A1, ..., An) set the message and identifier."""
    if type(cond) not in (bool, float) and not (type(cond) is np.ndarray and cond.dtype.kind in "fiub"):
        raise _matlab_error("MATLAB:assertion:LogicalScalar",
                            "Condition input must be a scalar logical or a numeric value.")
    if is_true(cond):
        return None
    if args:
        identifier, message = _identifier_and_message(args)
    else:
        identifier, message = "MATLAB:assertion:failed", "Assertion failed."
    raise _matlab_error(identifier, message)


# ----------------------------------------------------------------- warnings


_WARNING_STATES = ("on", "off", "query")


@builtin(interp=True, max_out=1, nargout=True, dl="data")
def warning(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """warning(msg) displays "Warning: msg" on standard error.

    warning(fmt, A1, ..., An) and warning(warnID, fmt, A1, ..., An) format it.
    warning('off', warnID) and warning('on', warnID) disable and enable a
    warning; warning('off', 'all') disables all of them. warning('query', warnID)
    and s = warning(...) give the state as a struct (identifier, state);
    warning(s) restores a saved state."""
    if not args:
        return _state_struct(interp, ["all"]) if nargout else None
    if type(args[0]) is Struct:
        _restore_states(interp, args[0])
        return None
    first = _text(args[0], "Message")
    if first.lower() in _WARNING_STATES and len(args) <= 2:
        ids = ["all"] if len(args) == 1 else [_text(args[1], "Identifier")]
        previous = _state_struct(interp, ids)
        if first.lower() != "query":
            for ident in ids:
                _set_warning(interp, ident, first.lower())
        elif not nargout:
            state = _warning_state(interp, ids[0])
            interp.write(f"The state of warning '{ids[0]}' is '{state}'.\n" if ids[0] != "all"
                         else f"All warnings have the state '{state}'.\n")
        return previous if nargout else None
    identifier, message = _identifier_and_message(args)
    if message:
        interp.warn(identifier, message)
        interp.err.flush()  # keep the warning in order with the output around it
    return None


def _warning_state(interp: Any, identifier: str) -> str:
    off = interp.warnings_off
    return "off" if "all" in off or identifier in off else "on"


def _set_warning(interp: Any, identifier: str, state: str) -> None:
    if identifier in ("backtrace", "verbose"):
        return  # display modes: mlang prints no backtraces
    off = interp.warnings_off
    if identifier == "all":
        off.clear()
        if state == "off":
            off.add("all")
    elif state == "off":
        off.add(identifier)
    else:
        off.discard(identifier)


def _state_struct(interp: Any, identifiers: list[str]) -> Struct:
    elems = np.empty((len(identifiers), 1), dtype=object)
    for i, ident in enumerate(identifiers):
        elems[i, 0] = {"identifier": char_row(ident), "state": char_row(_warning_state(interp, ident))}
    return Struct(["identifier", "state"], elems)


def _restore_states(interp: Any, states: Struct) -> None:
    if not {"identifier", "state"} <= set(states.fields):
        raise _matlab_error("MATLAB:warning:invalidInput",
                            "Warning state structure must have fields 'identifier' and 'state'.")
    for fields in states.elems.ravel(order="F"):
        ident, state = fields["identifier"], fields["state"]
        if not (is_text(ident) and is_text(state)):
            raise _matlab_error("MATLAB:warning:invalidInput",
                                "Warning state structure must contain text values.")
        _set_warning(interp, to_str(ident), to_str(state).lower())


@builtin(interp=True, max_out=2, nargout=True)
def lastwarn(interp: Any, message: Any = None, identifier: Any = None, *, nargout: int = 1) -> Any:
    """[msg, warnID] = lastwarn gives the last warning's message and identifier.

    lastwarn(msg, warnID) sets them."""
    old_message, old_id = interp.lastwarn
    if message is not None:
        interp.lastwarn = (_text(message), _text(identifier) if identifier is not None else "")
    out = (char_row(old_message), char_row(old_id))
    return out if nargout >= 2 else out[0]


# ------------------------------------------------------------ introspection


@builtin(name="class", dl="native")
def class_(value: Any) -> np.ndarray:
    """className = class(obj) is the name of the class of obj."""
    return char_row(class_of(value))


def is_a(value: Any, name: str) -> bool:
    """MATLAB's isa: a class name, or one of the groups numeric, float, integer."""
    cls = class_of(value)
    group = CLASS_GROUPS.get(name)
    if group is not None:
        return cls in group
    return cls == name


@builtin(dl="native")
def isa(value: Any, name: Any) -> bool:
    """tf = isa(A, dataType) is true when A is of class dataType.

    dataType may also be 'numeric', 'float' or 'integer'."""
    return is_a(value, _text(name, "Class name"))


def find_file(interp: Any, name: str, add_m: bool = True) -> Path | None:
    """A file called ``name`` (with ``add_m``, else ``name.m`` when ``name`` has no
    extension): as a path from the current folder, then in each search folder."""
    candidates = [name]
    if add_m and not os.path.splitext(name)[1]:
        candidates.append(name + ".m")
    for c in candidates:
        if os.path.isfile(c):
            return Path(os.path.abspath(c))
        if not os.path.isabs(c):
            for folder in interp.search_dirs():
                p = Path(folder) / c
                if p.is_file():
                    return p.absolute()
    return None


def _is_folder(interp: Any, name: str) -> bool:
    if os.path.isabs(name):
        return os.path.isdir(name)
    return any((Path(folder) / name).is_dir() for folder in interp.search_dirs())


@builtin(interp=True)
def exist(interp: Any, name: Any, kind: Any = None) -> float:
    """e = exist(name) tells what name is: 1 a variable, 2 a file (.m or other),
    5 a built-in function, 7 a folder, 0 nothing.

    exist(name, searchType) looks only for 'var', 'builtin', 'file' or 'dir'."""
    text = _text(name, "Name")
    what = _text(kind).lower() if kind is not None else "all"
    frame = _caller(interp)
    if what in ("all", "var") and (text in frame.vars or text in frame.global_names):
        return 1.0
    if what == "var":
        return 0.0
    target = interp.resolve(text) if text.isidentifier() else None
    if what in ("all", "builtin") and type(target) is Builtin:
        return 5.0
    if what == "builtin":
        return 0.0
    if what in ("all", "file") and (target is not None and type(target) is not Builtin
                                    or find_file(interp, text) is not None):
        return 2.0
    if _is_folder(interp, text):
        return 7.0
    return 0.0


@builtin()
def isvarname(s: Any) -> bool:
    """tf = isvarname(s) is true when s is a valid variable name."""
    if not is_text(s) or (type(s) is StringArray and s.data.size != 1):
        return False
    if type(s) is np.ndarray and s.size and s.shape[0] != 1:
        return False
    text = to_str(s)
    return (len(text) <= NAME_LENGTH_MAX and text not in KEYWORDS
            and re.fullmatch(r"[A-Za-z]\w*", text, re.ASCII) is not None)


@builtin()
def inputname(n: Any) -> np.ndarray:
    """name = inputname(argNumber) is the caller's variable name of an input; mlang gives ''."""
    return _empty_char()


def _function_target(interp: Any, fn: Any) -> Any:
    """What a function name or handle refers to, local functions of the caller first."""
    if type(fn) is FunctionHandle:
        if fn.is_anonymous:
            return fn
        name = fn.name
        if fn.target is not None:
            return fn.target
    else:
        name = _text(fn, "Function name")
    target = interp.lookup(name, _caller(interp).unit)
    if target is None:
        raise _matlab_error("MATLAB:narginout:functionDoesnotExist",
                            f"Function '{name}' does not exist.")
    return target


def _count(interp: Any, fn: Any, inputs: bool) -> float:
    from mlang.evaluation.functions import ScriptCall, UserFunction

    target = _function_target(interp, fn)
    t = type(target)
    if t is FunctionHandle:  # anonymous
        params = target.params or []
        if not inputs:
            return -1.0  # an anonymous function gives whatever its expression gives
        return -float(len(params)) if params and params[-1] == "varargin" else float(len(params))
    if t is UserFunction:
        options = {spec.name[0] for block in target.node.arguments for spec in block.specs
                   if len(spec.name) > 1}
        if inputs and options:  # name=value options: count the positional inputs only
            return float(sum(1 for p in target.params if p not in options))
        names = target.params if inputs else target.outputs
        variadic = target.varargin if inputs else target.varargout
        return -float(len(names)) if variadic else float(len(names))
    if t is ScriptCall:
        raise _matlab_error("MATLAB:nargin:isScript", f"'{target.name}' is a script.")
    if inputs:
        return float(target.max_in) if target.max_in is not None else -float(target.min_in + 1)
    return float(target.max_out) if target.max_out is not None else -1.0


def _running_count(interp: Any, inputs: bool) -> float:
    frame = _caller(interp)
    name = "nargin" if inputs else "nargout"
    if frame.function is None:
        raise _matlab_error(f"MATLAB:{name}:notInFunction",
                            f"You can only call {name} from within a MATLAB function.")
    return float(frame.nargin if inputs else frame.nargout)


@builtin(interp=True)
def nargin(interp: Any, fn: Any = None) -> float:
    """n = nargin(fun) is how many inputs fun declares (negative: the last is varargin).

    Inside a function, nargin is how many inputs the call passed."""
    return _running_count(interp, True) if fn is None else _count(interp, fn, True)


@builtin(interp=True)
def nargout(interp: Any, fn: Any = None) -> float:
    """n = nargout(fun) is how many outputs fun declares (negative: the last is varargout).

    Inside a function, nargout is how many outputs the call requested."""
    return _running_count(interp, False) if fn is None else _count(interp, fn, False)


# --------------------------------------------------------------- evaluation


def _workspace(interp: Any, which: Any) -> Frame:
    """The frame evalin/assignin act on: 'base' or 'caller'."""
    name = _text(which, "Workspace")
    if name == "base":
        return interp.base
    if name == "caller":
        frames = interp.frames
        return frames[-2] if len(frames) >= 2 else frames[0]
    raise _matlab_error("MATLAB:evalin:invalidWorkspace",
                        "Context must be 'caller' or 'base'.")


def _run_code(interp: Any, code: str, frame: Frame, nargout: int) -> Any:
    """Run ``code`` in ``frame``; with outputs requested, evaluate it as one expression."""
    frames = interp.frames
    pushed = frames[-1] is not frame
    if pushed:  # builtins inside the code (clear, exist, who) must see this workspace
        frames.append(frame)
    try:
        if nargout <= 0:
            interp.eval(code, frame)
            return None
        return _expression_outputs(interp, code, frame, nargout)
    finally:
        if pushed:
            frames.pop()


def _expression_outputs(interp: Any, code: str, frame: Frame, nargout: int) -> Any:
    from mlang.evaluation.compiler import Compiler
    from mlang.syntax import ast

    program = interp.parser.parse(code, "", set(frame.vars))
    body = program.body
    if len(body) != 1 or type(body[0]) is not ast.ExprStmt or program.functions:
        raise _matlab_error("MATLAB:eval:invalidExpression",
                            "The expression to evaluate must give a value: assignments and "
                            "statements cannot be evaluated with output arguments.")
    persistent = set(frame.persistent) if frame.persistent is not None else set()
    compiler = Compiler(interp, frame.unit, set(frame.global_names), persistent)
    values = compiler.expr_outputs(body[0].expr)(frame, nargout)
    if len(values) < nargout:
        raise _matlab_error("MATLAB:TooManyOutputs", "Too many output arguments.")
    return tuple(values[:nargout]) if nargout > 1 else values[0]


@builtin(name="eval", interp=True, max_out=None, nargout=True)
def eval_(interp: Any, code: Any, catch_code: Any = None, *, nargout: int = 0) -> Any:
    """eval(expression) runs the MATLAB code in expression in the current workspace.

    eval(expression, catchExpression) runs catchExpression if expression fails.
    [out1, ..., outN] = eval(expression) returns the values of the expression."""
    text = _text(code, "Expression")
    frame = _caller(interp)
    if catch_code is None:
        return _run_code(interp, text, frame, nargout)
    try:
        return _run_code(interp, text, frame, nargout)
    except MatlabError:
        return _run_code(interp, _text(catch_code, "Expression"), frame, nargout)


@builtin(interp=True, max_out=None, nargout=True)
def evalin(interp: Any, workspace: Any, code: Any, catch_code: Any = None, *,
           nargout: int = 0) -> Any:
    """evalin(workspace, expression) runs expression in the 'base' or 'caller' workspace."""
    frame = _workspace(interp, workspace)
    text = _text(code, "Expression")
    if catch_code is None:
        return _run_code(interp, text, frame, nargout)
    try:
        return _run_code(interp, text, frame, nargout)
    except MatlabError:
        return _run_code(interp, _text(catch_code, "Expression"), frame, nargout)


@builtin(interp=True, max_out=0, dl="native")
def assignin(interp: Any, workspace: Any, name: Any, value: Any) -> None:
    """assignin(workspace, var, val) assigns val to variable var in the 'base' or 'caller' workspace."""
    frame = _workspace(interp, workspace)
    text = _text(name, "Variable name")
    if not isvarname(char_row(text)):
        raise _matlab_error("MATLAB:assigninInvalidVariable",
                            f'Invalid variable name "{text}" in ASSIGNIN.')
    frame.vars[text] = value


@builtin(interp=True, max_out=None, nargout=True, dl="native")
def feval(interp: Any, fn: Any, *args: Any, nargout: int = 0) -> Any:
    """[y1, ..., yN] = feval(fun, x1, ..., xM) calls fun (a handle or a function name)."""
    if type(fn) is FunctionHandle:
        out = interp.call_handle(fn, list(args), nargout)
    else:
        name = _text(fn, "Function name")
        target = interp.lookup(name, _caller(interp).unit)
        if target is None:
            raise _matlab_error("MATLAB:UndefinedFunction",
                                f"Unrecognized function or variable '{name}'.")
        out = interp.invoke(target, list(args), nargout, _caller(interp))
    if nargout <= 1:
        return out[0] if out else None
    return tuple(out)


@builtin()
def func2str(fn: Any) -> np.ndarray:
    """str = func2str(fh) is the text of a function handle: 'sin', '@(x)x.^2'."""
    if type(fn) is not FunctionHandle:
        raise _matlab_error("MATLAB:func2str:InputNotFunctionHandle",
                            "Input must be a function handle.")
    from mlang.display import func2str_text

    return char_row(func2str_text(fn) if fn.is_anonymous else fn.name)


@builtin(interp=True)
def str2func(interp: Any, text: Any) -> FunctionHandle:
    """fh = str2func(str) makes a function handle from a name or from '@(x) ...' text.

    An anonymous function made this way sees none of the caller's variables."""
    source = _text(text, "Input").strip()
    if source.startswith("@"):
        scratch = Frame(interp, _caller(interp).unit)
        interp.eval(f"mlangStr2funcHandle = {source};", scratch)
        handle = scratch.vars["mlangStr2funcHandle"]
        if type(handle) is not FunctionHandle:
            raise _matlab_error("MATLAB:str2func:invalidInput", "Invalid function handle text.")
        return handle
    name = source
    unit = _caller(interp).unit
    return FunctionHandle(name=name, target=unit.local(name) if unit is not None else None)


# clear -------------------------------------------------------------------

_CLEAR_ALL = ("all", "-all")
_CLEAR_VARIABLES = ("variables", "-variables", "var", "-var")
_CLEAR_FUNCTIONS = ("functions", "-functions", "fun", "-fun")
_CLEAR_GLOBALS = ("global", "-global", "globals", "-globals")
_CLEAR_NOTHING = ("classes", "-classes", "import", "-import", "java", "-java", "mex", "-mex")


@builtin(interp=True, max_out=0)
def clear(interp: Any, *items: Any) -> None:
    """clear removes all variables from the current workspace.

    clear name1 ... nameN removes those (wildcards * allowed); clear -regexp
    expr1 ... removes the variables matching the expressions; clear global
    removes global variables; clear functions forgets persistent variables;
    clear all does all of these."""
    frame = _caller(interp)
    words = [_text(x) for x in items]
    if not words or (words[0] in _CLEAR_VARIABLES and len(words) == 1):
        frame.vars.clear()
        return
    head = words[0]
    if head in _CLEAR_ALL:
        frame.vars.clear()
        interp.globals.clear()
        frame.global_names.clear()
        _clear_functions(interp)
    elif head in _CLEAR_FUNCTIONS:
        _clear_functions(interp)
    elif head in _CLEAR_GLOBALS:
        names = words[1:]
        for n in list(interp.globals) if not names else _matching(list(interp.globals), names):
            interp.globals.pop(n, None)
            frame.global_names.discard(n)
    elif head == "-regexp":
        patterns = [re.compile(p) for p in words[1:]]
        for n in [n for n in frame.vars if any(p.search(n) for p in patterns)]:
            del frame.vars[n]
    elif head in _CLEAR_NOTHING:
        return
    else:
        names = words[1:] if head in _CLEAR_VARIABLES else words
        for n in _matching(list(frame.vars), names):
            del frame.vars[n]
        for n in _matching(list(frame.global_names), names):
            frame.global_names.discard(n)  # the global itself lives on


def _matching(candidates: list[str], patterns: list[str]) -> list[str]:
    return [c for c in candidates if any(fnmatch.fnmatchcase(c, p) for p in patterns)]


def _clear_functions(interp: Any) -> None:
    """Forget compiled functions' persistent variables and every resolved name."""
    for _, unit in getattr(interp, "_units", {}).values():
        for fn in unit.functions.values():
            fn.persistent.clear()
    interp.invalidate()


# tic / toc ---------------------------------------------------------------


def _timer_start(interp: Any) -> int | None:
    return getattr(interp, "tic_start", None)


@builtin()
def cputime() -> float:
    """t = cputime is the CPU time in seconds used by this MATLAB session."""
    import time

    return time.process_time()


@builtin(interp=True, nargout=True)
def tic(interp: Any, *, nargout: int = 0) -> Any:
    """tic starts a stopwatch timer; toc reads it. t = tic returns an identifier for toc(t)."""
    now = time.perf_counter_ns() // 1000
    if nargout:
        return np.array([[now]], dtype=np.uint64)
    interp.tic_start = now
    return None


@builtin(interp=True, nargout=True)
def toc(interp: Any, start: Any = None, *, nargout: int = 0) -> Any:
    """elapsed = toc is the time in seconds since tic; toc alone prints it.

    toc(t) measures from the tic that returned t."""
    now = time.perf_counter_ns() // 1000
    if start is None:
        begin = _timer_start(interp)
        if begin is None:
            raise _matlab_error("MATLAB:toc:callTicFirst",
                                "You must call TIC without an output argument before calling "
                                "TOC without an input argument.")
    else:
        stamp = to_array(start) if type(start) in (float, np.ndarray) else None
        if stamp is None or stamp.size != 1 or stamp.dtype.kind not in "iuf" \
                or not np.isfinite(stamp).all():
            raise _matlab_error("MATLAB:toc:invalidInput",
                                "Input argument must be a timer value returned by TIC.")
        begin = int(stamp.reshape(-1)[0])
    elapsed = (now - begin) / 1e6
    if nargout:
        return elapsed
    interp.write(f"Elapsed time is {elapsed:.6f} seconds.\n")
    return None


# --------------------------------------------------------------- validators


def _fail(name: str, message: str) -> MatlabError:
    return _matlab_error(f"MATLAB:validators:{name}", message)


def _is_numeric(v: Any) -> bool:
    return class_of(v) in NUMERIC_CLASSES


def _numeric_values(v: Any, allow_logical: bool = True) -> np.ndarray:
    """The values of a numeric (or logical) input, as float64/complex128 for comparisons."""
    if not (_is_numeric(v) or allow_logical and class_of(v) == "logical"):
        raise _fail("mustBeNumericOrLogical", "Value must be numeric or logical.")
    a = to_array(v)
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def _real_values(v: Any) -> np.ndarray:
    a = _numeric_values(v)
    if a.dtype.kind == "c":
        raise _fail("mustBeReal", "Value must be real.")
    return a


def _compare_all(v: Any, test: Any, name: str, message: str) -> None:
    a = _real_values(v)
    with np.errstate(invalid="ignore"):
        if not bool(np.all(test(a))):
            raise _fail(name, message)


@builtin(name="mustBePositive", max_out=0)
def must_be_positive(v: Any) -> None:
    """mustBePositive(value) throws an error unless value > 0."""
    _compare_all(v, lambda a: a > 0, "mustBePositive", "Value must be positive.")


@builtin(name="mustBeNonnegative", max_out=0)
def must_be_nonnegative(v: Any) -> None:
    """mustBeNonnegative(value) throws an error unless value >= 0."""
    _compare_all(v, lambda a: a >= 0, "mustBeNonnegative", "Value must be nonnegative.")


@builtin(name="mustBeNegative", max_out=0)
def must_be_negative(v: Any) -> None:
    """mustBeNegative(value) throws an error unless value < 0."""
    _compare_all(v, lambda a: a < 0, "mustBeNegative", "Value must be negative.")


@builtin(name="mustBeNonpositive", max_out=0)
def must_be_nonpositive(v: Any) -> None:
    """mustBeNonpositive(value) throws an error unless value <= 0."""
    _compare_all(v, lambda a: a <= 0, "mustBeNonpositive", "Value must be nonpositive.")


@builtin(name="mustBeNonzero", max_out=0)
def must_be_nonzero(v: Any) -> None:
    """mustBeNonzero(value) throws an error if any element of value is zero."""
    if np.any(_numeric_values(v) == 0):
        raise _fail("mustBeNonzero", "Value must not be zero.")


@builtin(name="mustBeInteger", max_out=0)
def must_be_integer(v: Any) -> None:
    """mustBeInteger(value) throws an error unless every element is a whole number."""
    a = _numeric_values(v)
    ok = a.dtype.kind != "c" and bool(np.all(np.isfinite(a))) and bool(np.all(a == np.floor(a)))
    if not ok:
        raise _fail("mustBeInteger", "Value must be integer.")


@builtin(name="mustBeNumeric", max_out=0)
def must_be_numeric(v: Any) -> None:
    """mustBeNumeric(value) throws an error unless value is numeric."""
    if not _is_numeric(v):
        raise _fail("mustBeNumeric", "Value must be numeric.")


@builtin(name="mustBeNumericOrLogical", max_out=0)
def must_be_numeric_or_logical(v: Any) -> None:
    """mustBeNumericOrLogical(value) throws an error unless value is numeric or logical."""
    _numeric_values(v)


@builtin(name="mustBeReal", max_out=0)
def must_be_real(v: Any) -> None:
    """mustBeReal(value) throws an error if value has an imaginary part."""
    if not (_is_numeric(v) or class_of(v) in ("logical", "char")) or \
            to_array(v).dtype.kind == "c":
        raise _fail("mustBeReal", "Value must be real.")


@builtin(name="mustBeFinite", max_out=0)
def must_be_finite(v: Any) -> None:
    """mustBeFinite(value) throws an error if value has NaN or Inf elements."""
    if not bool(np.all(np.isfinite(_numeric_values(v)))):
        raise _fail("mustBeFinite", "Value must be finite.")


@builtin(name="mustBeNonNan", max_out=0)
def must_be_non_nan(v: Any) -> None:
    """mustBeNonNan(value) throws an error if value has NaN elements."""
    if bool(np.any(np.isnan(_numeric_values(v)))):
        raise _fail("mustBeNonNan", "Value must not be NaN.")


@builtin(name="mustBeNonempty", max_out=0)
def must_be_nonempty(v: Any) -> None:
    """mustBeNonempty(value) throws an error if value is empty."""
    if numel(v) == 0:
        raise _fail("mustBeNonempty", "Value must not be empty.")


@builtin(name="mustBeScalarOrEmpty", max_out=0)
def must_be_scalar_or_empty(v: Any) -> None:
    """mustBeScalarOrEmpty(value) throws an error unless value is a scalar or empty."""
    if numel(v) > 1:
        raise _fail("mustBeScalarOrEmpty", "Value must be scalar or empty.")


@builtin(name="mustBeVector", max_out=0)
def must_be_vector(v: Any) -> None:
    """mustBeVector(value) throws an error unless value is a 1-by-n or n-by-1 vector."""
    shape = size_of(v)
    if len(shape) != 2 or (shape[0] != 1 and shape[1] != 1):
        raise _fail("mustBeVector", "Value must be a 1-by-n vector or an n-by-1 vector.")


@builtin(name="mustBeRow", max_out=0)
def must_be_row(v: Any) -> None:
    """mustBeRow(value) throws an error unless value is a 1-by-n row vector."""
    shape = size_of(v)
    if len(shape) != 2 or shape[0] != 1:
        raise _fail("mustBeRow", "Value must be a row vector.")


@builtin(name="mustBeColumn", max_out=0)
def must_be_column(v: Any) -> None:
    """mustBeColumn(value) throws an error unless value is an n-by-1 column vector."""
    shape = size_of(v)
    if len(shape) != 2 or shape[1] != 1:
        raise _fail("mustBeColumn", "Value must be a column vector.")


def _bound(v: Any) -> float:
    if class_of(v) not in _NUMERIC_OR_LOGICAL:
        raise _matlab_error("MATLAB:validators:mustBeNumeric", "Bound must be numeric or logical.")
    a = to_array(v)
    if a.size != 1:
        raise _matlab_error("MATLAB:validators:mustBeScalar", "Bound must be a scalar.")
    return float(a.reshape(-1)[0].real)


_NUMERIC_OR_LOGICAL = (*NUMERIC_CLASSES, "logical")


def _comparison(name: str, words: str, test: Any) -> Any:
    def check(v: Any, c: Any) -> None:
        bound = _bound(c)
        _compare_all(v, lambda a: test(a, bound), name,
                     f"Value must be {words} {_number_text(bound)}.")

    check.__doc__ = f"{name}(value, c) throws an error unless every element of value is {words} c."
    return check


builtin(name="mustBeGreaterThan", max_out=0)(
    _comparison("mustBeGreaterThan", "greater than", lambda a, c: a > c))
builtin(name="mustBeGreaterThanOrEqual", max_out=0)(
    _comparison("mustBeGreaterThanOrEqual", "greater than or equal to", lambda a, c: a >= c))
builtin(name="mustBeLessThan", max_out=0)(
    _comparison("mustBeLessThan", "less than", lambda a, c: a < c))
builtin(name="mustBeLessThanOrEqual", max_out=0)(
    _comparison("mustBeLessThanOrEqual", "less than or equal to", lambda a, c: a <= c))


_RANGE_FLAGS = ("inclusive", "exclusive", "exclude-lower", "exclude-upper")


@builtin(name="mustBeInRange", max_out=0)
def must_be_in_range(v: Any, lower: Any, upper: Any, *flags: Any) -> None:
    """mustBeInRange(value, lower, upper) throws an error unless lower <= value <= upper.

    Flags 'inclusive', 'exclusive', 'exclude-lower' and 'exclude-upper' change the bounds."""
    words = [_text(f).lower() for f in flags]
    for w in words:
        if w not in _RANGE_FLAGS:
            raise _matlab_error("MATLAB:validators:invalidBoundFlag",
                                f"Invalid bound flag '{w}'.")
    open_low = "exclusive" in words or "exclude-lower" in words
    open_high = "exclusive" in words or "exclude-upper" in words
    lo, hi = _bound(lower), _bound(upper)
    low_text = ("greater than " if open_low else "greater than or equal to ") + _number_text(lo)
    high_text = ("less than " if open_high else "less than or equal to ") + _number_text(hi)

    def inside(a: np.ndarray) -> np.ndarray:
        above = a > lo if open_low else a >= lo
        below = a < hi if open_high else a <= hi
        return above & below

    _compare_all(v, inside, "mustBeInRange", f"Value must be {low_text}, and {high_text}.")


def _text_elements(v: Any) -> list[str] | None:
    """The pieces of text in a text value (char vector, string array, cellstr); None if not text."""
    t = type(v)
    if t is np.ndarray and v.dtype.kind == "U":
        return [to_str(v)] if v.size == 0 or (v.ndim == 2 and v.shape[0] == 1) else None
    if t is StringArray:
        return ["" if s is None else s for s in v.data.ravel(order="F")]
    if t is Cell:
        pieces = [_text_elements(x) for x in v.values()]
        if any(p is None or type(x) is not np.ndarray for p, x in zip(pieces, v.values(), strict=True)):
            return None
        return [p[0] for p in pieces]  # type: ignore[index]
    return None


_TEXT_MESSAGE = "Value must be a character vector, string array, or cell array of character vectors."


@builtin(name="mustBeText", max_out=0)
def must_be_text(v: Any) -> None:
    """mustBeText(value) throws an error unless value is a char vector, string array or cellstr."""
    if _text_elements(v) is None:
        raise _fail("mustBeText", _TEXT_MESSAGE)


@builtin(name="mustBeTextScalar", max_out=0)
def must_be_text_scalar(v: Any) -> None:
    """mustBeTextScalar(value) throws an error unless value is a char vector or string scalar."""
    if type(v) is Cell or _text_elements(v) is None or \
            (type(v) is StringArray and v.data.size != 1):
        raise _fail("mustBeTextScalar", "Value must be a character vector or string scalar.")


@builtin(name="mustBeNonzeroLengthText", max_out=0)
def must_be_nonzero_length_text(v: Any) -> None:
    """mustBeNonzeroLengthText(value) throws an error unless value is text of one or more characters."""
    pieces = _text_elements(v)
    if pieces is None or not pieces or any(not p for p in pieces):
        raise _fail("mustBeNonzeroLengthText", "Value must be text with one or more characters.")


def _set_item_text(x: Any) -> str:
    if type(x) is str:
        return f"'{x}'"
    return _number_text(x)


def _set_items(s: Any) -> list:
    """Elements of mustBeMember's set: strings, or numbers."""
    pieces = _text_elements(s)
    if pieces is not None and type(s) is not np.ndarray:
        return list(pieces)
    if type(s) is np.ndarray and s.dtype.kind == "U":
        return [to_str(s)] if s.shape[0] <= 1 else ["".join(r) for r in s.tolist()]
    a = to_array(s)
    return [x.item() for x in a.ravel(order="F")]


@builtin(name="mustBeMember", max_out=0)
def must_be_member(v: Any, s: Any) -> None:
    """mustBeMember(value, S) throws an error unless every element of value is in the set S."""
    items = _set_items(s)
    pieces = _text_elements(v)
    if pieces is not None:
        ok = all(p in items for p in pieces) if all(type(i) is str for i in items) else False
    elif type(v) in (float, bool, complex, np.ndarray):
        numbers = {complex(x) for x in items if type(x) is not str}
        # Characters compare by their codes, as ismember does.
        ok = all(complex(x) in numbers for x in to_double_array(v).ravel(order="F").tolist())
    else:
        ok = False
    if not ok:
        listing = "\n".join("    " + _set_item_text(i) for i in items)
        raise _fail("mustBeMember", f"Value must be a member of this set:\n{listing}")


@builtin(name="mustBeA", max_out=0)
def must_be_a(v: Any, classes: Any) -> None:
    """mustBeA(value, classNames) throws an error unless value is of one of the named classes."""
    names = _texts(classes)
    if not names:
        raise _matlab_error("MATLAB:validators:mustBeA",
                            "Class names must be a nonempty list of class names.")
    if class_of(v) in names:
        return
    quoted = [f"'{n}'" for n in names]
    if len(quoted) == 1:
        listing = quoted[0]
    elif len(quoted) == 2:
        listing = f"{quoted[0]} or {quoted[1]}"
    else:
        listing = ", ".join(quoted[:-1]) + ", or " + quoted[-1]
    raise _fail("mustBeA", f"Value must be of the following types: {listing}.")


@builtin(name="mustBeNonsparse", max_out=0)
def must_be_nonsparse(v: Any) -> None:
    """mustBeNonsparse(value) throws an error if value is sparse (mlang has no sparse arrays)."""
    return None


# validateattributes --------------------------------------------------------


def _arg_index(v: Any) -> int:
    """validateattributes' argIndex: a positive whole number."""
    if class_of(v) in _NUMERIC_OR_LOGICAL and numel(v) == 1:
        x = to_double_array(v).reshape(-1)[0]
        if not np.iscomplexobj(x) and math.isfinite(x) and x == math.floor(x) and x >= 1:
            return int(x)
    raise _matlab_error("MATLAB:validateattributes:badArgPosition",
                        "Input argument position must be a positive integer.")


def _described(func: str, var: str, index: int | None) -> str:
    """How validateattributes names the input: 'input', 'X', 'input number 2, X,'."""
    if index is not None:
        return f"input number {index}, {var}," if var else f"input number {index}"
    return var or "input"


@builtin(max_out=0)
def validateattributes(value: Any, classes: Any, attributes: Any, *where: Any) -> None:
    """validateattributes(A, classes, attributes) checks A's class and attributes.

    validateattributes(A, classes, attributes, funcName, varName, argIndex)
    names the function and input in the message. Classes may include
    'numeric'; attributes include 'scalar', 'vector', 'row', 'column',
    'nonempty', '2d', 'square', 'real', 'finite', 'nonnan', 'integer',
    'positive', 'nonnegative', 'nonzero', 'binary', 'even', 'odd',
    'increasing', 'decreasing', 'nondecreasing', 'nonincreasing',
    '>', '>=', '<', '<=' (each with a value), 'size', 'numel', 'nrows',
    'ncols', 'ndims'."""
    func, var, index = "", "", None
    rest = list(where)
    if rest and not is_text(rest[0]):
        index = _arg_index(rest.pop(0))
    else:
        if rest:
            func = _text(rest.pop(0))
        if rest:
            var = _text(rest.pop(0))
        if rest:
            index = _arg_index(rest.pop(0))
    who = _described(func, var, index)

    def fail(suffix: str, message: str) -> MatlabError:
        exc = _matlab_error(f"MATLAB:{func + ':' if func else ''}{suffix}", message)
        if func:
            exc.exc.name_caller(func)
        return exc

    names = _texts(classes) if not (type(classes) is Cell and classes.data.size == 0) else []
    if names and not any(is_a(value, n) for n in names):
        raise fail("invalidType", f"Expected {who} to be one of these types:\n\n"
                                  f"{', '.join(names)}\n\nInstead its type was {class_of(value)}.")
    items = attributes.values() if type(attributes) is Cell else []
    i = 0
    while i < len(items):
        attr = _text(items[i]).lower()
        needs_value = attr in _ATTRIBUTES_WITH_VALUE
        argument = items[i + 1] if needs_value and i + 1 < len(items) else None
        _check_attribute(value, attr, argument, who, fail)
        i += 2 if needs_value else 1


_ATTRIBUTES_WITH_VALUE = (">", ">=", "<", "<=", "size", "numel", "nrows", "ncols", "ndims")


def _check_attribute(value: Any, attr: str, argument: Any, who: str, fail: Any) -> None:
    shape = size_of(value)
    n = numel(value)
    shape_checks = {
        "scalar": (n == 1, "expectedScalar", "a scalar"),
        "vector": (len(shape) == 2 and (shape[0] == 1 or shape[1] == 1), "expectedVector",
                   "a vector"),
        "row": (len(shape) == 2 and shape[0] == 1, "expectedRow", "a row vector"),
        "column": (len(shape) == 2 and shape[1] == 1, "expectedColumn", "a column vector"),
        "nonempty": (n > 0, "expectedNonempty", "nonempty"),
        "2d": (len(shape) == 2, "expected2D", "two-dimensional"),
        "square": (len(shape) == 2 and shape[0] == shape[1], "expectedSquare", "a square matrix"),
        "nonsparse": (True, "", ""),
    }
    if attr in shape_checks:
        ok, suffix, words = shape_checks[attr]
        if not ok:
            raise fail(suffix, f"Expected {who} to be {words}.")
        return
    if attr in ("size", "numel", "nrows", "ncols", "ndims"):
        _check_count(shape, attr, argument, who, fail)
        return
    a = to_array(value) if type(value) in (float, bool, complex, np.ndarray) else None
    if a is None:
        raise fail("invalidType", f"Expected {who} to be numeric.")
    if a.dtype.kind == "U":
        a = a.view(np.uint32).astype(np.float64) if a.size else np.zeros(a.shape)
    real = a.real.astype(np.float64)
    value_checks = {
        "real": (a.dtype.kind != "c", "expectedReal", "real"),
        "finite": (bool(np.all(np.isfinite(a))), "expectedFinite", "finite"),
        "nonnan": (not bool(np.any(np.isnan(a))), "expectedNonNaN", "non-NaN"),
        "integer": (bool(np.all(np.isfinite(real) & (real == np.round(real)))), "expectedInteger",
                    "integer-valued"),
        "positive": (bool(np.all(real > 0)), "expectedPositive", "positive"),
        "nonnegative": (bool(np.all(real >= 0)), "expectedNonnegative", "nonnegative"),
        "nonzero": (bool(np.all(a != 0)), "expectedNonZero", "nonzero"),
        "binary": (bool(np.all((real == 0) | (real == 1))), "expectedBinary", "binary"),
        "even": (bool(np.all(np.mod(real, 2) == 0)), "expectedEven", "even"),
        "odd": (bool(np.all(np.mod(real, 2) == 1)), "expectedOdd", "odd"),
        "increasing": (bool(np.all(np.diff(real.ravel(order="F")) > 0)), "expectedIncreasing",
                       "strictly increasing"),
        "decreasing": (bool(np.all(np.diff(real.ravel(order="F")) < 0)), "expectedDecreasing",
                       "strictly decreasing"),
        "nondecreasing": (bool(np.all(np.diff(real.ravel(order="F")) >= 0)),
                          "expectedNondecreasing", "nondecreasing"),
        "nonincreasing": (bool(np.all(np.diff(real.ravel(order="F")) <= 0)),
                          "expectedNonincreasing", "nonincreasing"),
    }
    if attr in value_checks:
        ok, suffix, words = value_checks[attr]
        if not ok:
            raise fail(suffix, f"Expected {who} to be {words}.")
        return
    comparisons = {">": (np.greater, "expectedGreater"), ">=": (np.greater_equal, "notGreaterEqual"),
                   "<": (np.less, "expectedLess"), "<=": (np.less_equal, "notLessEqual")}
    if attr in comparisons:
        test, suffix = comparisons[attr]
        bound = _bound(argument)
        if not bool(np.all(test(real, bound))):
            raise fail(suffix, f"Expected {who} to be an array with all of the values "
                               f"{attr} {_number_text(bound)}.")
        return
    raise _matlab_error("MATLAB:validateattributes:badAttribute",
                        f"Unrecognized attribute '{attr}'.")


def _check_count(shape: tuple[int, ...], attr: str, argument: Any, who: str, fail: Any) -> None:
    wanted = to_array(argument).ravel(order="F").astype(np.float64)
    if attr == "size":
        dims = list(shape) + [1] * max(0, len(wanted) - len(shape))
        ok = len(dims) == len(wanted) and all(
            math.isnan(w) or d == w for d, w in zip(dims, wanted, strict=True))
        if not ok:
            want = "x".join("N" if math.isnan(w) else str(int(w)) for w in wanted)
            raise fail("incorrectSize", f"Expected {who} to be of size {want} when it is "
                                        f"actually size {'x'.join(map(str, shape))}.")
        return
    actual = {"numel": math.prod(shape), "nrows": shape[0], "ncols": shape[1],
              "ndims": len(shape)}[attr]
    words = {"numel": "number of elements", "nrows": "number of rows",
             "ncols": "number of columns", "ndims": "number of dimensions"}[attr]
    suffix = {"numel": "incorrectNumel", "nrows": "incorrectNumrows", "ncols": "incorrectNumcols",
              "ndims": "incorrectNumdims"}[attr]
    if actual != int(wanted[0]):
        raise fail(suffix, f"Expected {who} to be an array with {words} equal to {int(wanted[0])}.")
