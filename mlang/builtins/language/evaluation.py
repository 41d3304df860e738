"""Running code and functions by name: eval, evalc, evalin, assignin and feval; function
handles from and to text (func2str, str2func).

Code runs in "the caller's workspace" (``introspection.caller_frame``) or in the
base workspace.
"""

from __future__ import annotations

import gc
import io
from codecs import utf_16_le_decode as _decode_utf16  # (no lookup of the codec per call)
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_scalar
from mlang.builtins.language.introspection import caller_frame, isvarname
from mlang.display import func2str_text
from mlang.errors import MatlabError, MatlabSyntaxError, error
from mlang.evaluation.compiler import Compiler
from mlang.evaluation.frame import Frame
from mlang.registry import builtin
from mlang.syntax import ast
from mlang.values.core import char_row
from mlang.values.handle import FunctionHandle
from mlang.values.objects import FUNCTION_LIKE


def _text(value: Any, what: str) -> str:
    """``text_scalar(value, what)``, with a contiguous char row (the usual argument) decoded
    at once, as ``char_text`` decodes it."""
    if (type(value) is np.ndarray and value.ndim == 2 and value.shape[0] == 1
            and value.dtype.kind == "V" and value.flags.c_contiguous):
        return _decode_utf16(value, "surrogatepass")[0]
    return text_scalar(value, what)


def _workspace(interp: Any, which: Any) -> Frame:
    """The frame evalin/assignin act on: 'base' or 'caller'."""
    name = _text(which, "Workspace")
    if name == "base":
        return interp.base
    if name == "caller":
        frames = interp.frames
        return frames[-2] if len(frames) >= 2 else frames[0]
    raise error("MATLAB:evalin:invalidWorkspace",
                "Context must be 'caller' or 'base'.")


def run_code(interp: Any, code: str, frame: Frame, nargout: int) -> Any:
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
    except MatlabSyntaxError as exc:  # bad text given to eval is an error try/catch can catch
        raise catchable(exc) from None
    finally:
        if pushed:
            frames.pop()


def catchable(exc: MatlabSyntaxError) -> MatlabError:
    """A syntax error in text given to a function, as a runtime error try/catch catches."""
    return error("MATLAB:m_incomplete_statement" if exc.incomplete else "MATLAB:m_parse_error",
                 exc.message)


def _expression_outputs(interp: Any, code: str, frame: Frame, nargout: int) -> Any:
    # Parsing and compiling a long text make many objects that all stay until the tree is
    # compiled, with no reference cycles among them: the cyclic collector is paused for
    # both, and the tree is dropped before it resumes, so that the collector never walks it
    # (the count of new objects it keeps falls again as they are freed).
    collecting = gc.isenabled()
    gc.disable()
    try:
        compiled = _compile_expression(interp, code, frame)
    finally:
        if collecting:
            gc.enable()
    values = compiled(frame, nargout)
    if len(values) < nargout:
        raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
    return tuple(values[:nargout]) if nargout > 1 else values[0]


def _compile_expression(interp: Any, code: str, frame: Frame) -> Any:
    """The code giving the outputs of the one expression ``code`` (compiled once for each
    calling file and declared global and persistent names: ``interp.parsed`` keeps it)."""
    program, forms = interp.parsed(code, frame.vars)
    body = program.body
    if len(body) != 1 or type(body[0]) is not ast.ExprStmt or program.functions:
        raise error("MATLAB:eval:invalidExpression",
                    "The expression to evaluate must give a value: assignments and "
                    "statements cannot be evaluated with output arguments.")
    if frame.persistent or frame.global_names:
        key: tuple = ("outputs", frame.unit, frozenset(frame.global_names), frozenset(frame.persistent or ()))
    else:  # (the usual workspace, which declares no names: its key made at once)
        key = ("outputs", frame.unit)
    compiled = forms.get(key)
    if compiled is None:
        compiler = Compiler(interp, frame.unit, set(frame.global_names), set(frame.persistent or ()))
        compiled = forms[key] = compiler.expr_outputs(body[0].expr)
    return compiled


def _run_or_catch(interp: Any, code: str, catch_code: Any, frame: Frame, nargout: int) -> Any:
    """eval's and evalin's run: ``code``, or when it fails and there is one, ``catch_code``."""
    if catch_code is None:
        return run_code(interp, code, frame, nargout)
    try:
        return run_code(interp, code, frame, nargout)
    except MatlabError:
        return run_code(interp, _text(catch_code, "Expression"), frame, nargout)


@builtin(name="eval", interp=True, max_out=None, nargout=True)
def eval_(interp: Any, code: Any, catch_code: Any = None, *, nargout: int = 0) -> Any:
    """eval(expression) runs the MATLAB code in expression in the current workspace.

    eval(expression, catchExpression) runs catchExpression if expression fails.
    [out1, ..., outN] = eval(expression) returns the values of the expression."""
    text = _text(code, "Expression")
    if catch_code is None:
        return run_code(interp, text, caller_frame(interp), nargout)
    return _run_or_catch(interp, text, catch_code, caller_frame(interp), nargout)


@builtin(interp=True, max_out=None, nargout=True)
def evalc(interp: Any, code: Any, *, nargout: int = 0) -> Any:
    """results = evalc(expression) runs expression as eval does and returns what it would
    have written to the Command Window (results and warnings; lines end in newlines).

    [results, out1, ..., outN] = evalc(expression) also returns the expression's values."""
    text = _text(code, "Expression")
    saved = interp.out, interp.err, interp.at_line_start
    captured = io.StringIO()
    interp.out = interp.err = captured
    interp.at_line_start = True
    try:
        values = run_code(interp, text, caller_frame(interp), nargout - 1)
    finally:
        interp.out, interp.err, interp.at_line_start = saved
    results = char_row(captured.getvalue())
    if nargout <= 1:
        return results
    return (results, *values) if nargout > 2 else (results, values)


@builtin(interp=True, max_out=None, nargout=True)
def evalin(interp: Any, workspace: Any, code: Any, catch_code: Any = None, *,
           nargout: int = 0) -> Any:
    """evalin(workspace, expression) runs expression in the 'base' or 'caller' workspace."""
    frame = _workspace(interp, workspace)
    text = _text(code, "Expression")
    if catch_code is None:
        return run_code(interp, text, frame, nargout)
    return _run_or_catch(interp, text, catch_code, frame, nargout)


@builtin(interp=True, max_out=0, dl="native")
def assignin(interp: Any, workspace: Any, name: Any, value: Any) -> None:
    """assignin(workspace, var, val) assigns val to variable var in the 'base' or 'caller' workspace."""
    frame = _workspace(interp, workspace)
    text = text_scalar(name, "Variable name")
    if not isvarname(char_row(text)):
        raise error("MATLAB:assigninInvalidVariable",
                    f'Invalid variable name "{text}" in ASSIGNIN.')
    frame.vars[text] = value


@builtin(interp=True, max_out=None, nargout=True, dl="native")
def feval(interp: Any, fn: Any, *args: Any, nargout: int = 0) -> Any:
    """[y1, ..., yN] = feval(fun, x1, ..., xM) calls fun (a handle or a function name)."""
    if type(fn) is FunctionHandle or type(fn) in FUNCTION_LIKE:
        out = interp.call_value(fn, list(args), nargout)
    else:
        name = text_scalar(fn, "Function name")
        target = interp.lookup(name, caller_frame(interp).unit)
        if target is None:
            raise error("MATLAB:UndefinedFunction",
                        f"Unrecognized function or variable '{name}'.")
        out = interp.invoke(target, list(args), nargout, caller_frame(interp))
    if nargout <= 1:
        return out[0] if out else None
    return tuple(out)


@builtin()
def func2str(fn: Any) -> np.ndarray:
    """str = func2str(fh) is the text of a function handle: 'sin', '@(x)x.^2'."""
    if type(fn) is not FunctionHandle:
        is_handle = type(fn) in FUNCTION_LIKE and getattr(fn, "matlab_class", "") == "function_handle"
        text = getattr(fn, "text", None) if is_handle else None
        if type(text) is not str:
            raise error("MATLAB:func2str:InputNotFunctionHandle",
                        "Input must be a function handle.")
        return char_row(text.removeprefix("@"))  # a named handle's text has no '@': 'py.f'
    return char_row(func2str_text(fn) if fn.is_anonymous else fn.name)


@builtin(interp=True)
def str2func(interp: Any, text: Any) -> FunctionHandle:
    """fh = str2func(str) makes a function handle from a name or from '@(x) ...' text.

    An anonymous function made this way sees none of the caller's variables."""
    source = text_scalar(text, "Input").strip()
    if source.startswith("@"):
        return _anonymous_function(interp, source)
    name = source
    unit = caller_frame(interp).unit
    return FunctionHandle(name=name, target=unit.local(name) if unit is not None else None)


def _anonymous_function(interp: Any, source: str) -> FunctionHandle:
    """The handle made from the text of one anonymous function (or '@name'), in a workspace
    of its own; text that does not parse is an error try/catch catches."""
    unit = caller_frame(interp).unit
    try:
        program, forms = interp.parsed(source, frozenset())
    except MatlabSyntaxError as exc:
        raise catchable(exc) from None
    body = program.body
    if (program.functions or len(body) != 1 or type(body[0]) is not ast.ExprStmt
            or type(body[0].expr) not in (ast.Lambda, ast.FuncHandle)):
        raise error("MATLAB:str2func:invalidInput", "Invalid function handle text.")
    key = ("str2func", unit)
    make = forms.get(key)
    if make is None:  # (compiled once for each calling file: ``interp.parsed`` keeps it)
        make = forms[key] = Compiler(interp, unit, set(), set()).expr_outputs(body[0].expr)
    return make(Frame(interp, unit), 1)[0]
