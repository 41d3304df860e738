"""Introspection: class, isa, exist, isvarname, inputname, and nargin/nargout
(of the running function, or declared by a named one); ``find_file`` finds a
file on the search path for exist, help, type and which.

"The caller's workspace" is ``interp.frames[-1]`` (``caller_frame``): builtins
run without a frame of their own, so the innermost frame is the code that
called them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none, text_scalar
from mlang.builtins.text.forms import empty_char
from mlang.errors import error
from mlang.evaluation.frame import Frame
from mlang.evaluation.functions import ScriptCall, UserFunction
from mlang.evaluation.interpreter import NAME_LENGTH_MAX
from mlang.registry import Builtin, builtin
from mlang.values.core import INT_CLASSES, NUMERIC_CLASSES, char_row, class_of
from mlang.values.handle import FunctionHandle

KEYWORDS = frozenset({
    "break", "case", "catch", "classdef", "continue", "else", "elseif", "end", "for",
    "function", "global", "if", "otherwise", "parfor", "persistent", "return", "spmd",
    "switch", "try", "while",
})
FLOAT_CLASSES = ("double", "single")
CLASS_GROUPS = {"numeric": NUMERIC_CLASSES, "float": FLOAT_CLASSES, "integer": INT_CLASSES}


def caller_frame(interp: Any) -> Frame:
    """The workspace of the code that called the builtin running now."""
    return interp.frames[-1]


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
    return is_a(value, text_scalar(name, "Class name"))


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
    text = text_scalar(name, "Name")
    what = text_scalar(kind).lower() if kind is not None else "all"
    if not text:  # names nothing (it would otherwise name the current folder)
        return 0.0
    frame = caller_frame(interp)
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
    text = text_or_none(s)
    if text is None:
        return False
    return (len(text) <= NAME_LENGTH_MAX and text not in KEYWORDS
            and re.fullmatch(r"[A-Za-z]\w*", text, re.ASCII) is not None)


@builtin()
def inputname(n: Any) -> np.ndarray:
    """name = inputname(argNumber) is the caller's variable name of an input; mlang gives ''."""
    return empty_char()


def _function_target(interp: Any, fn: Any) -> Any:
    """What a function name or handle refers to, local functions of the caller first."""
    if type(fn) is FunctionHandle:
        if fn.is_anonymous:
            return fn
        name = fn.name
        if fn.target is not None:
            return fn.target
    else:
        name = text_scalar(fn, "Function name")
        if "/" in name or os.sep in name or name.endswith(".m"):
            return _file_function(interp, name)
    target = interp.lookup(name, caller_frame(interp).unit)
    if target is None:
        raise error("MATLAB:narginout:functionDoesnotExist",
                    f"Function '{name}' does not exist.")
    return target


def _file_function(interp: Any, name: str) -> Any:
    """The main function (or the script) of the file a path or 'name.m' names."""
    path = find_file(interp, name)
    if path is None or path.suffix != ".m":
        raise error("MATLAB:narginout:functionDoesnotExist",
                    f"Function '{name}' does not exist.")
    unit = interp.unit_for(path)
    return ScriptCall(unit) if unit.is_script else unit.primary


def _count(interp: Any, fn: Any, inputs: bool) -> float:
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
        raise error("MATLAB:nargin:isScript", f"'{target.name}' is a script.")
    if inputs:
        return float(target.max_in) if target.max_in is not None else -float(target.min_in + 1)
    return float(target.max_out) if target.max_out is not None else -1.0


def _running_count(interp: Any, inputs: bool) -> float:
    frame = caller_frame(interp)
    name = "nargin" if inputs else "nargout"
    if frame.function is None:
        raise error(f"MATLAB:{name}:notInFunction",
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
