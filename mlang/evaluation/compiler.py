"""AST → Python closures, compiled once per function and run many times.

Every node is turned into a closure taking the running ``Frame``; node types
are dispatched here, at compile time, never while the program runs.  Hot
paths are inlined: double scalars are Python floats and scalar arithmetic on
them is plain Python; ``x(i) = v`` writes in place when the array is not
shared; ``for k = a:b`` loops over Python floats without building the range.

Errors: a block's runner records the line of the statement that failed
(zero cost until something fails).
"""

from __future__ import annotations

import math
import operator
import sys
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.errors import InternalError, MatlabError, MatlabSyntaxError, StackFrame, error
from mlang.evaluation.frame import BreakLoop, ContinueLoop, Frame, ReturnFromFunction
from mlang.syntax import ast
from mlang.values import indexing, operators
from mlang.values.cell import Cell
from mlang.values.concat import concatenate, make_cell
from mlang.values.core import (
    EMPTY,
    char_row,
    class_of,
    is_true,
    size_of,
)
from mlang.values.handle import FunctionHandle
from mlang.values.indexing import COLON
from mlang.values.objects import kind_of
from mlang.values.ranges import colon_range
from mlang.values.string import StringArray
from mlang.values.struct import Struct

Code = Callable[[Frame], Any]
MISSING = object()
CONTROL = (BreakLoop, ContinueLoop, ReturnFromFunction)


# Python's own operators give MATLAB's result on two double scalars (floats), some
# only when a guard holds (no division by zero, no negative base to a fractional power).
SCALAR_OPS: dict[str, Callable[[float, float], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, ".*": operator.mul,
    "/": operator.truediv, "./": operator.truediv, "^": operator.pow, ".^": operator.pow,
    "==": operator.eq, "~=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}
SCALAR_GUARDS: dict[str, Callable[[float, float], bool]] = {
    "/": lambda a, b: b != 0.0, "./": lambda a, b: b != 0.0,
    "^": lambda a, b: a >= 0.0 or b.is_integer(), ".^": lambda a, b: a >= 0.0 or b.is_integer(),
}


def _double_constant(node: ast.Node) -> float | None:
    if type(node) is ast.Number and node.cls == "double" and type(node.value) is not complex:
        return float(node.value)
    return None


def locate(exc: BaseException, frame: Frame, line: int) -> None:
    """Record, once per frame, where a MATLAB error passed through this frame."""
    if isinstance(exc, MatlabError):
        if getattr(exc, "located", None) is not frame:
            exc.located = frame  # type: ignore[attr-defined]
            unit = frame.unit
            exc.exc.stack.append(StackFrame(unit.file if unit else "", frame.name or
                                            (unit.name if unit else ""), line))


def _internal(exc: Exception, frame: Frame, line: int) -> InternalError:
    unit = frame.unit
    where = f"{unit.file if unit else '<input>'} (line {line})"
    err = InternalError(f"{type(exc).__name__}: {exc} [at {where}]")
    err.__cause__ = exc
    err.line = line  # type: ignore[attr-defined]
    return err


def located(exc: BaseException, frame: Frame, line: int) -> BaseException:
    """What to raise when a statement at ``line`` failed with ``exc``.

    MATLAB errors get their location; control flow passes through; a Python
    exception from inside mlang becomes a clearly marked internal error.
    """
    if isinstance(exc, MatlabError):
        locate(exc, frame, line)
        return exc
    if isinstance(exc, (*CONTROL, InternalError, KeyboardInterrupt, MatlabSyntaxError,
                        BrokenPipeError)):
        return exc  # (a closed output pipe ends the run: the command line handles it)
    if isinstance(exc, RecursionError):
        return error("MATLAB:recursionLimit",
                     "Maximum recursion limit reached. Use set(0,'RecursionLimit',N) to change "
                     "the limit.")
    if isinstance(exc, Exception):
        return _internal(exc, frame, line)
    return exc


def run_statements(stmts: list[Code], lines: list[int], frame: Frame) -> None:
    """Run compiled statements, recording where an error happened."""
    s = None
    try:
        for s in stmts:
            s(frame)
    except BaseException as exc:
        raise located(exc, frame, lines[stmts.index(s)]) from None


def _truth(v: Any) -> bool:
    t = type(v)
    if t is bool:
        return v
    if t is float:
        if v != v:
            raise error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        return v != 0.0
    return is_true(v)


def _scalar_truth(v: Any, op: str) -> bool:
    """Operand of && or ||: must be a logical scalar (or convertible)."""
    t = type(v)
    if t is bool:
        return v
    if t is float:
        return _truth(v)
    if t is np.ndarray and v.size == 1 and class_of(v) in operators.ARITHMETIC_CLASSES:
        x = v.reshape(-1)[0]
        return _truth(float(ord(x)) if v.dtype.kind == "U" else complex(x) if v.dtype.kind == "c"
                      else float(x))
    if t is DlArray:
        return _scalar_truth(v.data, op)
    raise error("MATLAB:nonLogicalConditional",
                "Operands to the || and && operators must be convertible to logical scalar values.")


def _selection_count(cell: Cell, values: list) -> int:
    """How many elements ``c{values}`` names, also beyond the end of ``c`` (for
    ``[c{1:3}] = f(...)``, which creates or grows ``c``)."""
    try:
        return len(indexing.brace_index(cell, values))
    except MatlabError:
        pass
    shape = cell.data.shape
    count = 1
    for k, v in enumerate(values):
        if v is COLON:
            count *= cell.data.size if len(values) == 1 else (shape[k] if k < len(shape) else 1)
        elif type(v) is np.ndarray and v.dtype == np.bool_:
            count *= int(np.count_nonzero(v))
        else:
            count *= indexing.numel_of(v)
    return max(count, 1)


def end_value(value: Any, position: int, count: int) -> float:
    """What ``end`` means in index position ``position`` (0-based) of ``count`` indices."""
    shape = size_of(value)
    if count == 1:
        n = 1
        for d in shape:
            n *= d
        return float(n)
    if position < count - 1:
        return float(shape[position]) if position < len(shape) else 1.0
    n = 1
    for d in shape[position:]:
        n *= d
    return float(n)


def _contains_end(node: Any) -> bool:
    """Does an index argument use ``end`` for the array being indexed (not a nested index)?"""
    t = type(node)
    if t is ast.End:
        return True
    # an `end` inside a nested index belongs to it if it indexes a variable, but to this
    # index if it is a function call (x(min(end, 3))): only known at run time
    for name in getattr(node, "__slots__", ()):
        if name in ("line", "col", "file"):
            continue
        child = getattr(node, name, None)
        if isinstance(child, ast.Node) and _contains_end(child):
            return True
        if isinstance(child, list):
            for c in child:
                if isinstance(c, ast.Node) and _contains_end(c):
                    return True
                if isinstance(c, list) and any(isinstance(x, ast.Node) and _contains_end(x) for x in c):
                    return True
    return False


def _free_names(node: Any, out: set[str]) -> set[str]:
    """Names an expression reads (for anonymous-function capture)."""
    t = type(node)
    if t is ast.Name:
        out.add(node.name)
        return out
    if t is ast.Lambda:
        inner = _free_names(node.body, set())
        out |= inner - {p for p in node.params if p}
        return out
    for name in getattr(node, "__slots__", ()):
        if name in ("line", "col", "file"):
            continue
        child = getattr(node, name, None)
        if isinstance(child, ast.Node):
            _free_names(child, out)
        elif isinstance(child, list):
            for c in child:
                if isinstance(c, ast.Node):
                    _free_names(c, out)
                elif isinstance(c, list):
                    for x in c:
                        if isinstance(x, ast.Node):
                            _free_names(x, out)
    return out


class Compiler:
    """Compiles the code of one scope (a script, a function body, an anonymous function)."""

    def __init__(self, interp: Any, unit: Any, global_names: set[str] | None = None,
                 persistent_names: set[str] | None = None, params: set[str] | None = None,
                 outer_names: set[str] | None = None) -> None:
        self.interp = interp
        self.unit = unit
        self.outer_names = outer_names or set()  # a nested function's variables shared with its parent
        self.params = params or set()  # a function's inputs: unset means not passed
        self.global_names = global_names or set()
        self.persistent_names = persistent_names or set()
        self.special_names = self.global_names | self.persistent_names | self.outer_names
        self._expr: dict[type, Callable[[Any], Code]] = {
            ast.Number: self.number, ast.Char: self.char, ast.String: self.string,
            ast.Name: self.name, ast.Colon: self.colon, ast.End: self.end,
            ast.Unary: self.unary, ast.Postfix: self.postfix, ast.Binary: self.binary,
            ast.Range: self.range, ast.Index: self.index_expr, ast.Field: self.field_expr,
            ast.DynField: self.field_expr, ast.FuncHandle: self.handle, ast.Lambda: self.lambda_,
            ast.Paren: self.paren, ast.Matrix: self.matrix, ast.Cell: self.cell,
        }
        self._stmt: dict[type, Callable[[Any], Code]] = {
            ast.ExprStmt: self.expr_stmt, ast.Assign: self.assign, ast.MultiAssign: self.multi_assign,
            ast.Command: self.command, ast.If: self.if_, ast.For: self.for_, ast.While: self.while_,
            ast.Switch: self.switch, ast.Try: self.try_, ast.Break: self.break_,
            ast.Continue: self.continue_, ast.Return: self.return_, ast.Global: self.global_,
            ast.Persistent: self.persistent,
        }

    # --------------------------------------------------------------- blocks

    def block(self, stmts: list[ast.Node]) -> Code:
        return self.block_of([self.statement(s) for s in stmts], [s.line for s in stmts])

    def block_of(self, codes: list[Code], lines: list[int]) -> Code:
        """Run compiled statements in order, recording where an error happened."""
        if not codes:
            return lambda frame: None
        if len(codes) == 1:
            only = codes[0]
            line = lines[0]

            def run_one(frame: Frame) -> None:
                try:
                    only(frame)
                except BaseException as exc:
                    raise located(exc, frame, line) from None

            return run_one
        return lambda frame: run_statements(codes, lines, frame)

    def statement(self, node: ast.Node) -> Code:
        return self._stmt[type(node)](node)

    # ---------------------------------------------------------- expressions

    def expr(self, node: ast.Node) -> Code:
        return self._expr[type(node)](node)

    def number(self, node: ast.Number) -> Code:
        value = node.value
        if node.cls != "double":
            v = np.array([[value]], dtype=node.cls)
            return lambda frame: v
        if type(value) is complex:
            c = complex(value)
            return lambda frame: c
        f = float(value)
        return lambda frame: f

    def char(self, node: ast.Char) -> Code:
        v = char_row(node.value)
        return lambda frame: v

    def string(self, node: ast.String) -> Code:
        text = node.value

        def make(frame: Frame) -> StringArray:
            return StringArray.scalar(text)

        return make

    def colon(self, node: ast.Colon) -> Code:
        return lambda frame: COLON

    def end(self, node: ast.End) -> Code:
        def end_(frame: Frame) -> float:
            if not frame.end_stack:
                raise error("MATLAB:badEnd", "'end' is only valid in an index into an array.")
            value, position, count = frame.end_stack[-1]
            if value is MISSING:
                raise error("MATLAB:badEnd",
                            "'end' is not valid in a call to a function; it can only index arrays.")
            return end_value(value, position, count)

        return end_

    def paren(self, node: ast.Paren) -> Code:
        return self.expr(node.expr)

    # names -------------------------------------------------------------

    def name(self, node: ast.Name) -> Code:
        name = node.name
        if name in self.global_names:
            return lambda frame: self._global_get(frame, name)
        if name in self.persistent_names:
            return lambda frame: frame.persistent[name]  # type: ignore[index]
        if name in self.outer_names:
            return self._outer_get(name, node)
        if name in ("nargin", "nargout"):
            return self.call_count(name)
        if name in self.params:
            def param(frame: Frame) -> Any:
                try:
                    return frame.vars[name]
                except KeyError:
                    raise error("MATLAB:minrhs", "Not enough input arguments.") from None

            return param
        call = self.caller(name, node)

        def get(frame: Frame) -> Any:
            try:
                return frame.vars[name]
            except KeyError:
                return call(frame, [], 1)

        return get

    def call_count(self, name: str) -> Code:
        """``nargin``/``nargout`` inside a function: the counts of the running call."""
        def count(frame: Frame) -> Any:
            if name in frame.vars:
                return frame.vars[name]
            if frame.function is None:
                raise error("MATLAB:nargin:notInFunction" if name == "nargin" else
                            "MATLAB:nargout:notInFunction",
                            f"You can only call {name} from within a MATLAB function.")
            return float(frame.nargin if name == "nargin" else frame.nargout)

        return count

    def _outer_get(self, name: str, node: ast.Node) -> Code:
        """A variable shared with the parent function: read in the parent's workspace."""
        call = self.caller(name, node)

        def outer_get(frame: Frame) -> Any:
            outer = frame.outer
            if outer is not None and name in outer.vars:
                return outer.vars[name]
            try:
                return frame.vars[name]
            except KeyError:
                return call(frame, [], 1)

        return outer_get

    def _global_get(self, frame: Frame, name: str) -> Any:
        try:
            return self.interp.globals[name]
        except KeyError:
            return EMPTY

    def caller(self, name: str, node: ast.Node) -> Callable[[Frame, list, int], Any]:
        """A call of function ``name`` returning its first output (nargout >= 1 context)."""
        calls = self.calls(name, node)

        def call_one(frame: Frame, args: list, nargout: int) -> Any:
            out = calls(frame, args, nargout)
            if not out:
                raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
            return out[0]

        return call_one

    def calls(self, name: str, node: ast.Node) -> Callable[[Frame, list, int], list]:
        """A call of function ``name`` returning all requested outputs, resolved once."""
        interp = self.interp
        unit = self.unit
        cache: list[Any] = [-1, None]

        def call(frame: Frame, args: list, nargout: int) -> list:
            if cache[0] != interp.generation:
                target = interp.lookup(name, unit)
                if target is None:
                    raise error("MATLAB:UndefinedFunction",
                                f"Unrecognized function or variable '{name}'.")
                cache[0] = interp.generation
                cache[1] = target
            return interp.invoke(cache[1], args, nargout, frame)

        return call

    # operators ----------------------------------------------------------

    def unary(self, node: ast.Unary) -> Code:
        operand = self.expr(node.operand)
        op = node.op
        if op == "-":
            uminus = operators.uminus

            def neg(frame: Frame) -> Any:
                v = operand(frame)
                if type(v) is float:
                    return -v
                return uminus(v)

            return neg
        if op == "~":
            logical_not = operators.logical_not

            def not_(frame: Frame) -> Any:
                v = operand(frame)
                if type(v) is bool:
                    return not v
                if type(v) is float:
                    if v != v:
                        raise error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
                    return v == 0.0
                return logical_not(v)

            return not_
        uplus = operators.uplus
        return lambda frame: uplus(operand(frame))

    def postfix(self, node: ast.Postfix) -> Code:
        operand = self.expr(node.operand)
        conjugate = node.op == "'"
        transpose = operators.transpose

        def tr(frame: Frame) -> Any:
            v = operand(frame)
            if type(v) is float:
                return v
            return transpose(v, conjugate)

        return tr

    def binary(self, node: ast.Binary) -> Code:
        op = node.op
        left = self.expr(node.left)
        right = self.expr(node.right)
        if op == "&&" or op == "||":
            return self.short_circuit(op, left, right)
        general = operators.binary
        scalar = SCALAR_OPS.get(op)
        if scalar is None:
            return lambda frame: general(op, left(frame), right(frame))
        # Double scalars are Python floats: compute them inline.  Operands that are a
        # plain variable or a constant are read directly instead of through a closure.
        var_l, var_r = self.plain_variable(node.left), self.plain_variable(node.right)
        const_r = _double_constant(node.right)
        guard = SCALAR_GUARDS.get(op)
        if var_l is not None and const_r is not None and guard is None:
            def var_const(frame: Frame) -> Any:
                try:
                    a = frame.vars[var_l]
                except KeyError:
                    a = left(frame)
                if type(a) is float:
                    return scalar(a, const_r)
                return general(op, a, const_r)
            return var_const
        if var_l is not None and var_r is not None and guard is None:
            def var_var(frame: Frame) -> Any:
                vars = frame.vars
                try:
                    a = vars[var_l]
                except KeyError:
                    a = left(frame)
                try:
                    b = vars[var_r]
                except KeyError:
                    b = right(frame)
                if type(a) is float and type(b) is float:
                    return scalar(a, b)
                return general(op, a, b)
            return var_var
        if var_l is not None and guard is None:
            def var_any(frame: Frame) -> Any:
                try:
                    a = frame.vars[var_l]
                except KeyError:
                    a = left(frame)
                b = right(frame)
                if type(a) is float and type(b) is float:
                    return scalar(a, b)
                return general(op, a, b)
            return var_any
        if const_r is not None and guard is None:
            def any_const(frame: Frame) -> Any:
                a = left(frame)
                if type(a) is float:
                    return scalar(a, const_r)
                return general(op, a, const_r)
            return any_const
        if guard is None:
            def any_any(frame: Frame) -> Any:
                a = left(frame)
                b = right(frame)
                if type(a) is float and type(b) is float:
                    return scalar(a, b)
                return general(op, a, b)
            return any_any

        def guarded(frame: Frame) -> Any:
            a = left(frame)
            b = right(frame)
            if type(a) is float and type(b) is float and guard(a, b):
                try:
                    return scalar(a, b)
                except (OverflowError, ZeroDivisionError):
                    pass
            return general(op, a, b)
        return guarded

    def plain_variable(self, node: ast.Node) -> str | None:
        """The name, if ``node`` reads an ordinary variable (or calls a function)."""
        if type(node) is ast.Name and node.name not in self.special_names \
                and node.name not in ("nargin", "nargout"):
            return node.name
        return None

    def short_circuit(self, op: str, left: Code, right: Code) -> Code:
        if op == "&&":
            def and_(frame: Frame) -> bool:
                return _scalar_truth(left(frame), "&&") and _scalar_truth(right(frame), "&&")
            return and_

        def or_(frame: Frame) -> bool:
            return _scalar_truth(left(frame), "||") or _scalar_truth(right(frame), "||")
        return or_

    def range(self, node: ast.Range) -> Code:
        start = self.expr(node.start)
        stop = self.expr(node.stop)
        if node.step is None:
            return lambda frame: colon_range(start(frame), 1.0, stop(frame))
        step = self.expr(node.step)
        return lambda frame: colon_range(start(frame), step(frame), stop(frame))

    # literals -------------------------------------------------------------

    def elements(self, nodes: list[ast.Node]) -> Callable[[Frame], list]:
        """Values of a list of expressions, with comma-separated lists expanded."""
        parts = [(self.multi(n), True) if self.may_expand(n) else (self.expr(n), False)
                 for n in nodes]
        if not any(expand for _, expand in parts):
            codes = [c for c, _ in parts]
            if len(codes) == 1:
                only = codes[0]
                return lambda frame: [only(frame)]
            return lambda frame: [c(frame) for c in codes]

        def values(frame: Frame) -> list:
            out: list = []
            for code, expand in parts:
                if expand:
                    out.extend(code(frame))
                else:
                    out.append(code(frame))
            return out

        return values

    def matrix(self, node: ast.Matrix) -> Code:
        rows = [self.elements(r) for r in node.rows]
        if not rows:
            return lambda frame: np.zeros((0, 0))
        if len(rows) == 1:
            row = rows[0]

            def row_matrix(frame: Frame) -> Any:
                values = row(frame)
                if all(type(v) is float for v in values):
                    return np.array([values]) if len(values) != 1 else values[0]
                return concatenate([values])

            return row_matrix

        def full(frame: Frame) -> Any:
            return concatenate([r(frame) for r in rows])

        return full

    def cell(self, node: ast.Cell) -> Code:
        rows = [self.elements(r) for r in node.rows]
        return lambda frame: make_cell([r(frame) for r in rows])

    # handles ------------------------------------------------------------

    def handle(self, node: ast.FuncHandle) -> Code:
        name = node.name
        unit = self.unit

        def make(frame: Frame) -> FunctionHandle:
            target = unit.local(name) if unit is not None else None
            scope = frame if target is not None and target.parent is not None else None
            return FunctionHandle(name=name, target=target, scope=scope)

        return make

    def lambda_(self, node: ast.Lambda) -> Code:
        params = node.params
        free = sorted(_free_names(node.body, set()) - {p for p in params if p})
        inner = Compiler(self.interp, self.unit)
        body_calls = inner.expr_outputs(node.body)
        from mlang.syntax.unparse import unparse

        text = unparse(node).strip()

        def make(frame: Frame) -> FunctionHandle:
            vars = frame.vars
            captured = {n: vars[n] for n in free if n in vars}
            return FunctionHandle(params=params, body=body_calls, captured=captured, text=text,
                                  target=self.unit, node=node)

        return make

    def expr_outputs(self, node: ast.Node) -> Callable[[Frame, int], list]:
        """Code giving ``nargout`` outputs of an expression (a call passes nargout on)."""
        if type(node) is ast.Index and not node.braces and type(node.base) is ast.Name:
            return self.call_or_index(node)
        if type(node) is ast.Name:
            name = node.name
            calls = self.calls(name, node)

            def name_outputs(frame: Frame, nargout: int) -> list:
                try:
                    return [frame.vars[name]]
                except KeyError:
                    return calls(frame, [], nargout)

            return name_outputs
        if self.may_expand(node):
            multi = self.multi(node)
            return lambda frame, nargout: multi(frame)
        code = self.expr(node)
        return lambda frame, nargout: [code(frame)]

    # indexing -------------------------------------------------------------

    def may_expand(self, node: ast.Node) -> bool:
        """Can this expression produce a comma-separated list (c{:}, s.f of an array)?"""
        t = type(node)
        return (t is ast.Index and node.braces) or t is ast.Field or t is ast.DynField

    def index_args(self, nodes: list[ast.Node]) -> tuple[Callable[[Frame], list], bool]:
        """Code for index arguments, and whether any of them uses ``end``."""
        uses_end = any(_contains_end(n) for n in nodes)
        parts = []
        for n in nodes:
            if type(n) is ast.NamedArg:
                key = char_row(n.name)
                value = self.expr(n.value)
                parts.append((lambda frame, key=key, value=value: [key, value(frame)], True))
            elif self.may_expand(n):
                parts.append((self.multi(n), True))
            else:
                parts.append((self.expr(n), False))
        if not uses_end and not any(e for _, e in parts):
            codes = [c for c, _ in parts]
            if len(codes) == 1:
                only = codes[0]
                return (lambda frame: [only(frame)]), False
            return (lambda frame: [c(frame) for c in codes]), False
        count = len(nodes)

        def values(frame: Frame, base: Any = MISSING) -> list:
            out: list = []
            if base is MISSING:  # a function call: `end` keeps referring to an enclosing index
                for code, expand in parts:
                    if expand:
                        out.extend(code(frame))
                    else:
                        out.append(code(frame))
                return out
            stack = frame.end_stack
            for position, (code, expand) in enumerate(parts):
                stack.append((base, position, count))
                try:
                    if expand:
                        out.extend(code(frame))
                    else:
                        out.append(code(frame))
                finally:
                    stack.pop()
            return out

        return values, uses_end

    def call_or_index(self, node: ast.Index) -> Callable[[Frame, int], list]:
        """``name(args)``: index the variable, or call the function, with nargout outputs."""
        name = node.base.name  # type: ignore[attr-defined]
        args, uses_end = self.index_args(node.args)
        calls = self.calls(name, node)
        index = indexing.index
        if name in self.special_names:
            base_code = self.name(node.base)  # type: ignore[arg-type]

            def special(frame: Frame, nargout: int) -> list:
                base = base_code(frame)
                return [index(base, args(frame, base) if uses_end else args(frame))]

            return special

        is_param = name in self.params
        has_colon = any(type(a) is ast.Colon for a in node.args)

        def run(frame: Frame, nargout: int) -> list:
            base = frame.vars.get(name, MISSING)
            if base is MISSING:
                if is_param:
                    raise error("MATLAB:minrhs", "Not enough input arguments.")
                values = args(frame) if not uses_end else args(frame, MISSING)
                return calls(frame, _colons_as_text(values) if has_colon else values, nargout)
            values = args(frame, base) if uses_end else args(frame)
            if type(base) is FunctionHandle:
                return self.interp.invoke(base, _colons_as_text(values) if has_colon else values,
                                          nargout)
            return [index(base, values)]

        return run

    def index_expr(self, node: ast.Index) -> Code:
        if not node.braces and type(node.base) is ast.Name:
            run = self.call_or_index(node)

            def first(frame: Frame) -> Any:
                out = run(frame, 1)
                if not out:
                    raise error("MATLAB:TooManyOutputs", "Too many output arguments.")
                return out[0]

            return first
        multi = self.multi(node)
        root = self.plain_variable(node.base)
        if root is None or len(node.args) != 1 or self.may_expand(node.args[0]) \
                or _contains_end(node.args[0]) or type(node.args[0]) is ast.NamedArg:
            return lambda frame: _single(multi(frame))
        arg = self.expr(node.args[0])

        def brace_element(frame: Frame) -> Any:  # c{k}: the hot case
            b = frame.vars.get(root)
            if type(b) is not Cell:
                return _single(multi(frame))
            k = arg(frame)
            if type(k) is float:
                data = b.data
                i = int(k) if k.is_integer() else 0  # (NaN, Inf: the general path's error)
                if i == k and 1 <= i <= data.size and data.ndim == 2:
                    rows = data.shape[0]
                    return data[(i - 1) % rows, (i - 1) // rows]
            return _single(indexing.brace_index(b, [k]))

        return brace_element

    def field_expr(self, node: ast.Node) -> Code:
        multi = self.multi(node)
        root = self.plain_variable(node.base) if type(node) is ast.Field else None
        if root is None:
            return lambda frame: _single(multi(frame))
        fname = node.name

        def field(frame: Frame) -> Any:  # s.f on a scalar struct: the hot case
            b = frame.vars.get(root)
            if type(b) is Struct:
                elems = b.elems
                if elems.size == 1:
                    d = elems.item(0)
                    if fname in d:
                        return d[fname]
            return _single(multi(frame))

        return field

    def multi(self, node: ast.Node, dotted_names: bool = True) -> Callable[[Frame], list]:
        """Code for a reference that may give a comma-separated list."""
        t = type(node)
        dotted = _dotted_call(node) if dotted_names else None
        if dotted is not None:
            return self.dotted_call(node, *dotted)
        if t is ast.Index:
            if not node.braces and type(node.base) is ast.Name:
                run = self.call_or_index(node)
                return lambda frame: run(frame, 1)
            base = self.single_ref(node.base)
            args, uses_end = self.index_args(node.args)
            if node.braces:
                brace = indexing.brace_index

                def braces(frame: Frame) -> list:
                    b = base(frame)
                    return brace(b, args(frame, b) if uses_end else args(frame))

                return braces
            index = indexing.index
            method = node.base.name if type(node.base) is ast.Field else None
            method_base = self.single_ref(node.base.base) if method is not None else None

            def parens(frame: Frame) -> list:
                if method_base is not None:  # obj.method(args): a method call on an object
                    obj = method_base(frame)
                    kind = kind_of(obj)
                    if kind is not None and kind.method(obj, method) is not None:
                        return [kind.call_method(obj, method, args(frame))]
                b = base(frame)
                values = args(frame, b) if uses_end else args(frame)
                if type(b) is FunctionHandle:
                    return self.interp.invoke(b, _colons_as_text(values), 1)[:1]
                return [index(b, values)]

            return parens
        if t is ast.Field or t is ast.DynField:
            base = self.single_ref(node.base)
            if t is ast.Field:
                fname = node.name

                def field(frame: Frame) -> list:
                    return get_field(base(frame), fname)

                return field
            name_code = self.expr(node.name)

            def dyn_field(frame: Frame) -> list:
                from mlang.values.core import to_str

                return get_field(base(frame), to_str(name_code(frame)))

            return dyn_field
        code = self.expr(node)
        return lambda frame: [code(frame)]

    def dotted_call(self, node: ast.Node, root: str, name: str, args_nodes: list | None
                    ) -> Callable[[Frame], list]:
        """``pkg.fn(args)``: a call of a dotted function name, unless ``pkg`` is a variable."""
        normal = self.multi(node, dotted_names=False)
        calls = self.calls(name, node)
        args = self.index_args(args_nodes)[0] if args_nodes is not None else (lambda frame: [])

        def run(frame: Frame) -> list:
            if root in frame.vars:
                return normal(frame)
            return calls(frame, args(frame), 1)

        return run

    def single_ref(self, node: ast.Node) -> Code:
        """The base of an index or field access: exactly one value."""
        if type(node) is ast.Name:
            return self.expr(node)
        multi = self.multi(node)
        return lambda frame: _single(multi(frame), intermediate=True)

    # ------------------------------------------------------------ statements

    def expr_stmt(self, node: ast.ExprStmt) -> Code:
        expr = node.expr
        show = node.show
        interp = self.interp
        if type(expr) is ast.Name:  # a variable displays under its own name; a call sets ans
            name = expr.name
            if name in self.special_names:
                get = self.expr(expr)

                def show_special(frame: Frame) -> None:
                    value = get(frame)
                    if show:
                        interp.display(name, value)

                return show_special
            calls = self.calls(name, expr)

            def name_stmt(frame: Frame) -> None:
                value = frame.vars.get(name, MISSING)
                if value is not MISSING:
                    if show:
                        interp.display(name, value)
                    return
                out = calls(frame, [], 0)
                if out:
                    frame.vars["ans"] = out[0]
                    if show:
                        interp.display("ans", out[0])

            return name_stmt
        if type(expr) is ast.Index and not expr.braces and type(expr.base) is ast.Name:
            run = self.call_or_index(expr)

            def call_stmt(frame: Frame) -> None:
                out = run(frame, 0)
                if out:
                    frame.vars["ans"] = out[0]
                    if show:
                        interp.display("ans", out[0])

            return call_stmt
        if self.may_expand(expr):
            multi = self.multi(expr)

            def list_stmt(frame: Frame) -> None:
                for v in multi(frame):
                    frame.vars["ans"] = v
                    if show:
                        interp.display("ans", v)

            return list_stmt
        code = self.expr(expr)

        def value_stmt(frame: Frame) -> None:
            v = code(frame)
            frame.vars["ans"] = v
            if show:
                interp.display("ans", v)

        return value_stmt

    def command(self, node: ast.Command) -> Code:
        calls = self.calls(node.name, node)
        args = [char_row(a) for a in node.args]
        show = node.show
        interp = self.interp
        name = node.name

        def command(frame: Frame) -> None:
            if name in frame.vars:
                raise error("MATLAB:UndefinedFunction",
                            f"'{name}' is a variable here, so '{name} {' '.join(node.args)}' "
                            "cannot be read as a command. Use function syntax.")
            out = calls(frame, list(args), 0)
            if out:
                frame.vars["ans"] = out[0]
                if show:
                    interp.display("ans", out[0])

        return command

    # assignment -----------------------------------------------------------

    def assign(self, node: ast.Assign) -> Code:
        target = node.target
        value = self.expr(node.value)
        store = self.store(target)
        show = node.show
        interp = self.interp
        root = _root_name(target)
        if type(target) is ast.Name and _appends_to(root, node.value) and root not in self.special_names:
            return self._append_assign(root, node.value.rows[0][1:], value, show)

        if type(target) is ast.Name and root not in self.special_names:
            def assign_name(frame: Frame) -> None:
                v = value(frame)
                frame.vars[root] = v
                if show:
                    interp.display(root, v)

            if not show:
                def assign_quiet(frame: Frame) -> None:
                    frame.vars[root] = value(frame)

                return assign_quiet
            return assign_name

        quick = None if show else self._quick_index_store(target, value)
        if quick is not None:
            return quick
        get_root = self.expr(ast.Name(root))

        def assign_(frame: Frame) -> None:
            store(frame, value(frame))
            if show:
                interp.display(root, get_root(frame))

        return assign_

    def _quick_index_store(self, target: ast.Node, value: Code) -> Code | None:
        """``x(i) = expr;`` with one plain index: one closure for the whole statement,
        writing in place when ``x`` is an unshared double array (the hottest loop store)."""
        if type(target) is not ast.Index or target.braces or len(target.args) != 1:
            return None
        root = self.plain_variable(target.base)
        arg_node = target.args[0]
        if root is None or self.may_expand(arg_node) or type(arg_node) in (ast.NamedArg, ast.Colon) \
                or _contains_end(arg_node):
            return None
        index = self.expr(arg_node)
        general = self._store_index(root, target.args, *self.index_args(target.args))
        getrefcount = sys.getrefcount
        float64 = np.dtype(np.float64)

        def quick_store(frame: Frame) -> None:
            v = value(frame)
            vars = frame.vars
            base = vars.get(root)
            if type(base) is np.ndarray and type(v) is float and base.dtype is float64:
                k = index(frame)
                if type(k) is float and base.ndim == 2:
                    i = int(k) if k.is_integer() else 0  # (NaN, Inf: the general path's error)
                    if i == k and 1 <= i <= base.size and getrefcount(base) <= 3 \
                            and (base.base is None or indexing.owns_storage(base)):
                        rows = base.shape[0]
                        base[(i - 1) % rows, (i - 1) // rows] = v
                        return
                general_with_index(frame, base, k, v)
                return
            general(frame, v)

        def general_with_index(frame: Frame, base: Any, k: Any, v: Any) -> None:
            # the index is already evaluated: do not evaluate it twice
            owned = getrefcount(base) <= 4  # + the caller's local
            vars = frame.vars
            if type(k) is float and k == base.size + 1 and owned:
                grown = _append_to_growth_view(frame, root, base)
                if grown is not None:
                    grown[-1, -1] = v
                    vars[root] = grown
                    return
            _assign_and_track(frame, root, base, [k], v, owned)

        return quick_store

    def _append_assign(self, root: str, part_nodes: list, value: Code, show: bool) -> Code:
        """``x = [x, a, b]`` on a row vector: appended in an over-allocated buffer."""
        parts = [self.expr(n) for n in part_nodes]
        getrefcount = sys.getrefcount
        interp = self.interp

        def append(frame: Frame) -> None:
            vars = frame.vars
            cur = vars.get(root)
            if type(cur) is np.ndarray and cur.ndim == 2 and cur.shape[0] == 1 \
                    and getrefcount(cur) <= 3:
                values = [p(frame) for p in parts]
                new = _append_row(frame, root, cur, values)
                if new is None:
                    new = concatenate([[cur, *values]])
                vars[root] = new
            else:
                vars[root] = value(frame)
            if show:
                interp.display(root, vars[root])

        return append

    def store(self, target: ast.Node) -> Callable[[Frame, Any], None]:
        """Code that stores a value into an assignment target (a name or a chain)."""
        chain = _chain(target)
        root = chain[0]
        ops = chain[1:]
        if root in self.global_names:
            read, write = self._global_access(root)
        elif root in self.outer_names:
            def read(frame: Frame) -> Any:
                return (frame.outer or frame).vars.get(root, MISSING)

            def write(frame: Frame, v: Any) -> None:
                (frame.outer or frame).vars[root] = v
        elif root in self.persistent_names:
            def read(frame: Frame) -> Any:
                return frame.persistent.get(root, MISSING)  # type: ignore[union-attr]

            def write(frame: Frame, v: Any) -> None:
                frame.persistent[root] = v  # type: ignore[index]
        else:
            read = write = None  # type: ignore[assignment]
        if not ops:
            if write is not None:
                return write

            def store_name(frame: Frame, v: Any) -> None:
                frame.vars[root] = v

            return store_name
        compiled = [self._compile_op(op) for op in ops]
        if read is None and len(compiled) == 1 and compiled[0][0] == "()":
            return self._store_index(root, ops[0][1], compiled[0][1], compiled[0][2])
        if read is None and len(compiled) == 1 and compiled[0][0] == "{}":
            return self._store_brace(root, compiled[0])
        if read is None and all(op[0] == "." for op in compiled):
            return self._store_fields(root, [op[1] for op in compiled], compiled)

        def store_chain(frame: Frame, v: Any) -> None:
            if read is None:
                current = frame.vars.get(root)
            else:
                current = read(frame)
                current = None if current is MISSING else current
            new = _assign_path(frame, current, compiled, 0, v)
            if write is None:
                frame.vars[root] = new
            else:
                write(frame, new)

        return store_chain

    def _store_index(self, root: str, arg_nodes: list, args: Callable, uses_end: bool
                     ) -> Callable[[Frame, Any], None]:
        """``x(i) = v``: in place when ``x`` is not shared; ``x(end+1) = v`` appends in O(1)."""
        getrefcount = sys.getrefcount
        owns_storage = indexing.owns_storage
        appends = _is_end_plus_one(arg_nodes)

        def store_index(frame: Frame, v: Any) -> None:
            vars = frame.vars
            base = vars.get(root)
            if appends and base is not None:
                values = [float(indexing.numel_of(base) + 1)]
            elif uses_end:
                values = args(frame, base if base is not None else np.zeros((0, 0)))
            else:
                values = args(frame)
            if (type(base) is np.ndarray and type(v) is float and len(values) == 1
                    and type(values[0]) is float and base.dtype == np.float64 and base.ndim == 2):
                k = values[0]
                i = int(k) if k.is_integer() else 0  # (NaN, Inf: the general path's error)
                n = base.size
                if i == k and 1 <= i <= n and getrefcount(base) <= 3 and owns_storage(base):
                    rows = base.shape[0]
                    base[(i - 1) % rows, (i - 1) // rows] = v
                    return
                if i == n + 1 and getrefcount(base) <= 3:
                    grown = _append_to_growth_view(frame, root, base)
                    if grown is not None:
                        grown[-1, -1] = v
                        vars[root] = grown
                        return
            _assign_and_track(frame, root, base, values, v, base is not None and getrefcount(base) <= 3)

        return store_index

    def _store_brace(self, root: str, op: tuple) -> Callable[[Frame, Any], None]:
        """``c{i} = v``: in place when the cell is not shared."""
        args, uses_end = op[1], op[2]
        getrefcount = sys.getrefcount
        owns_storage = indexing.owns_storage
        compiled = [op]

        def store_brace(frame: Frame, v: Any) -> None:
            vars = frame.vars
            base = vars.get(root)
            if type(base) is not Cell:
                vars[root] = _assign_path(frame, base, compiled, 0, v)
                return
            values = args(frame, base) if uses_end else args(frame)
            data = base.data
            if len(values) == 1 and type(values[0]) is float and data.ndim == 2 \
                    and getrefcount(base) <= 3 and getrefcount(data) <= 3 and owns_storage(data):
                k = values[0]
                i = int(k) if k.is_integer() else 0  # (NaN, Inf: the general path's error)
                if i == k and 1 <= i <= data.size:
                    rows = data.shape[0]
                    data[(i - 1) % rows, (i - 1) // rows] = v
                    return
            wrapped = Cell(np.empty((1, 1), dtype=object))
            wrapped.data[0, 0] = v
            owned = getrefcount(base) <= 3 and getrefcount(data) <= 3
            vars[root] = indexing.assign(base, values, wrapped, owned)

        return store_brace

    def _store_fields(self, root: str, names: list, compiled: list) -> Callable[[Frame, Any], None]:
        """``s.a.b = v``: in place when every struct on the way is a private scalar."""
        getrefcount = sys.getrefcount
        path = names[:-1]
        last = names[-1]

        def store_fields(frame: Frame, v: Any) -> None:
            vars = frame.vars
            cur = vars.get(root)
            # each object below is held by its container and by `cur` (and getrefcount)
            for name in path:
                if type(cur) is not Struct or getrefcount(cur) > 3:
                    break
                elems = cur.elems
                if elems.size != 1 or getrefcount(elems) > 3 or elems.base is not None:
                    break
                d = elems.item(0)
                if getrefcount(d) > 3 or name not in d:
                    break
                cur = d[name]
            else:
                if type(cur) is Struct and getrefcount(cur) <= 3:
                    elems = cur.elems
                    if elems.size == 1 and getrefcount(elems) <= 3 and elems.base is None:
                        d = elems.item(0)
                        if getrefcount(d) <= 3 and last in d:
                            d[last] = v
                            return
            cur = None
            vars[root] = _assign_path(frame, vars.get(root), compiled, 0, v)

        return store_fields

    def _global_access(self, name: str) -> tuple[Code, Callable[[Frame, Any], None]]:
        interp = self.interp

        def read(frame: Frame) -> Any:
            return interp.globals.get(name, MISSING)

        def write(frame: Frame, v: Any) -> None:
            interp.globals[name] = v

        return read, write

    def _compile_op(self, op: tuple) -> tuple:
        kind, payload = op
        if kind in ("()", "{}"):
            args, uses_end = self.index_args(payload)
            return (kind, args, uses_end)
        if kind == ".":
            return (kind, payload, False)
        return (kind, self.expr(payload), False)  # dynamic field

    def multi_assign(self, node: ast.MultiAssign) -> Code:
        targets = [self.target(t) for t in node.targets]
        outputs = self.expr_outputs(node.value)
        names = [None if type(t) is ast.Tilde else _root_name(t) for t in node.targets]
        getters = [None if n is None else self.expr(ast.Name(n)) for n in names]
        show = node.show
        interp = self.interp
        static = all(count is None for count, _ in targets)
        nout_static = len(targets)

        def assign_many(frame: Frame) -> None:
            counts = [1 if count is None else count(frame) for count, _ in targets]
            nout = nout_static if static else sum(counts)
            values = outputs(frame, nout)
            needed = nout
            while needed and targets_ignored(targets, counts, needed - 1):
                needed -= 1
            if len(values) < needed:
                raise error("MATLAB:TooManyOutputs" if values else "MATLAB:needMoreRhsOutputs",
                            "Too many output arguments." if values else
                            "Insufficient number of outputs from right hand side of equal sign "
                            "to satisfy assignment.")
            pos = 0
            for (count, st), c in zip(targets, counts, strict=True):
                part = values[pos:pos + c]
                pos += c
                if st is not None and part:
                    st(frame, part if count is not None else part[0])
            if show:
                for n, g in zip(names, getters, strict=True):
                    if n is not None:
                        interp.display(n, g(frame))  # type: ignore[misc]

        return assign_many

    def target(self, node: ast.Node) -> tuple[Callable[[Frame], int] | None, Any]:
        """An output target: (None, store) for one value, or (count, store_list) for a
        comma-separated list target such as ``s.f`` of a struct array or ``c{:}``."""
        if type(node) is ast.Tilde:
            return None, None
        if type(node) is ast.Field:
            base_get = self._optional(node.base)
            base_store = self.store(node.base)
            fname = node.name
            single = self.store(node)

            def count_fields(frame: Frame) -> int:
                base = base_get(frame)
                return base.elems.size if type(base) is Struct and base.elems.size > 1 else -1

            def store_fields(frame: Frame, values: Any) -> None:
                if type(values) is not list:
                    values = [values]
                base = base_get(frame)
                if type(base) is Struct and base.elems.size > 1:
                    out = base.copy()
                    out.add_field(fname)
                    for d, v in zip(out.elems.ravel(order="F"), values, strict=True):
                        d[fname] = v
                    base_store(frame, out)
                else:
                    single(frame, values[0])

            return (lambda frame: max(count_fields(frame), 1)), store_fields
        if type(node) is ast.Index and node.braces:
            base_get = self._optional(node.base)
            base_store = self.store(node.base)
            args, uses_end = self.index_args(node.args)

            def selected(frame: Frame) -> tuple[Any, list, int]:
                base = base_get(frame)
                cell = base if type(base) is Cell else Cell.empty()
                values = args(frame, cell) if uses_end else args(frame)
                return cell, values, _selection_count(cell, values)

            def count_cells(frame: Frame) -> int:
                return selected(frame)[2]

            def store_cells(frame: Frame, values: Any) -> None:
                if type(values) is not list:
                    values = [values]
                cell, index_values, count = selected(frame)
                if count == 1:
                    wrapped = Cell(np.empty((1, 1), dtype=object))
                    wrapped.data[0, 0] = values[0]
                else:
                    wrapped = Cell.row(values)
                base_store(frame, indexing.assign(cell, index_values, wrapped))

            return count_cells, store_cells
        return None, self.store(node)

    def _optional(self, node: ast.Node) -> Code:
        """The value of a reference, or None when it does not exist yet."""
        if type(node) is ast.Name and node.name not in self.special_names:
            name = node.name
            return lambda frame: frame.vars.get(name)
        code = self.expr(node)

        def get(frame: Frame) -> Any:
            try:
                return code(frame)
            except MatlabError:
                return None

        return get

    # control flow ----------------------------------------------------------

    def if_(self, node: ast.If) -> Code:
        clauses = [(self.expr(c), self.block(b)) for c, b in node.clauses]
        orelse = self.block(node.orelse) if node.orelse is not None else None
        if len(clauses) == 1:
            cond, body = clauses[0]

            def if_one(frame: Frame) -> None:
                c = cond(frame)
                if c is True or (c is not False and _truth(c)):
                    body(frame)
                elif orelse is not None:
                    orelse(frame)

            return if_one

        def if_many(frame: Frame) -> None:
            for cond, body in clauses:
                c = cond(frame)
                if c is True or (c is not False and _truth(c)):
                    body(frame)
                    return
            if orelse is not None:
                orelse(frame)

        return if_many

    def while_(self, node: ast.While) -> Code:
        cond = self.expr(node.cond)
        body = self.block(node.body)

        def while_loop(frame: Frame) -> None:
            while True:
                c = cond(frame)
                if not (c is True or (c is not False and _truth(c))):
                    return
                try:
                    body(frame)
                except BreakLoop:
                    return
                except ContinueLoop:
                    continue

        return while_loop

    def for_(self, node: ast.For) -> Code:
        var = node.var.name  # type: ignore[attr-defined]
        codes = [self.statement(st) for st in node.body]
        lines = [st.line for st in node.body]
        body = self.block_of(codes, lines)
        store = self.store(node.var)
        it = node.iterable
        if type(it) is ast.Range and var not in self.special_names:
            start = self.expr(it.start)
            step = self.expr(it.step) if it.step is not None else (lambda frame: 1.0)
            stop = self.expr(it.stop)

            def for_range(frame: Frame) -> None:
                a, s, b = start(frame), step(frame), stop(frame)
                if type(a) is float and type(s) is float and type(b) is float and s != 0.0 \
                        and math.isfinite(a) and math.isfinite(s) and math.isfinite(b):
                    n = math.floor((b - a) / s + 1e-10) + 1 if (b - a) / s >= -1e-10 else 0
                    if n <= 0:
                        frame.vars[var] = np.zeros((1, 0))
                        return
                    vars = frame.vars
                    st = None
                    for k in range(n):
                        vars[var] = a + k * s
                        try:
                            for st in codes:
                                st(frame)
                        except BreakLoop:
                            return
                        except ContinueLoop:
                            continue
                        except BaseException as exc:
                            raise located(exc, frame, lines[codes.index(st)]) from None
                    return
                _for_values(frame, colon_range(a, s, b), store, body, var)

            return for_range
        iterable = self.expr(it)
        return lambda frame: _for_values(frame, iterable(frame), store, body, var)

    def switch(self, node: ast.Switch) -> Code:
        subject = self.expr(node.subject)
        cases = [(self.expr(v), self.block(b)) for v, b in node.cases]
        otherwise = self.block(node.otherwise) if node.otherwise is not None else None

        def switch(frame: Frame) -> None:
            s = subject(frame)
            for value, body in cases:
                if _case_matches(s, value(frame)):
                    body(frame)
                    return
            if otherwise is not None:
                otherwise(frame)

        return switch

    def try_(self, node: ast.Try) -> Code:
        body = self.block(node.body)
        catch = self.block(node.catch_body) if node.catch_body is not None else None
        var = node.catch_var

        def try_(frame: Frame) -> None:
            try:
                body(frame)
            except MatlabError as exc:
                if var is not None:
                    frame.vars[var] = exc.exc
                if catch is not None:
                    catch(frame)

        return try_

    def break_(self, node: ast.Break) -> Code:
        def brk(frame: Frame) -> None:
            raise BreakLoop

        return brk

    def continue_(self, node: ast.Continue) -> Code:
        def cont(frame: Frame) -> None:
            raise ContinueLoop

        return cont

    def return_(self, node: ast.Return) -> Code:
        def ret(frame: Frame) -> None:
            raise ReturnFromFunction

        return ret

    def global_(self, node: ast.Global) -> Code:
        names = node.names
        interp = self.interp

        def declare(frame: Frame) -> None:
            for n in names:
                if n not in interp.globals:
                    interp.globals[n] = frame.vars.pop(n, EMPTY) if n in frame.vars else EMPTY
                frame.vars.pop(n, None)
                frame.global_names.add(n)

        return declare

    def persistent(self, node: ast.Persistent) -> Code:
        names = node.names

        def declare(frame: Frame) -> None:
            store = frame.persistent
            if store is None:
                raise error("MATLAB:persistentOutsideFunction",
                            "Persistent variables can only be declared in a function.")
            for n in names:
                store.setdefault(n, EMPTY)

        return declare


# ------------------------------------------------------------------ helpers


def _single(values: list, intermediate: bool = False) -> Any:
    if len(values) == 1:
        return values[0]
    if not values:
        raise error("MATLAB:index:expected_one_output_from_expression" if intermediate else
                    "MATLAB:TooManyOutputs",
                    "Insufficient number of outputs from right hand side of equal sign to "
                    "satisfy assignment." if not intermediate else
                    "Expected one output from a curly brace or dot indexing expression, but "
                    "there were 0 results.")
    raise error("MATLAB:index:expected_one_output_from_expression",
                f"Expected one output from a curly brace or dot indexing expression, but there "
                f"were {len(values)} results.")


def get_field(base: Any, name: str) -> list:
    """``base.name``: one value per struct element (a comma-separated list)."""
    t = type(base)
    if t is Struct:
        if name not in base.fields:
            raise error("MATLAB:nonExistentField",
                        f"Unrecognized field name \"{name}\".")
        if base.elems.size == 1:
            return [base.elems.reshape(-1)[0][name]]
        return [d[name] for d in base.elems.ravel(order="F")]
    kind = kind_of(base)
    if kind is not None:
        return [kind.get_property(base, name)]
    raise error("MATLAB:structRefFromNonStruct",
                "Dot indexing is not supported for variables of this type.")


def _appends_to(name: str, value: ast.Node) -> bool:
    """Is ``value`` the row literal ``[name, ...]`` (and nothing in it can be a list)?"""
    if type(value) is not ast.Matrix or len(value.rows) != 1 or len(value.rows[0]) < 2:
        return False
    first = value.rows[0][0]
    return type(first) is ast.Name and first.name == name and not any(
        type(n) in (ast.Field, ast.DynField) or (type(n) is ast.Index and n.braces)
        for n in value.rows[0][1:])


def _append_row(frame: Frame, name: str, cur: np.ndarray, values: list) -> np.ndarray | None:
    """``[cur, values...]`` for a row ``cur`` and rows of its own class, written into an
    over-allocated buffer (reused when ``cur`` is a view of one that nobody else sees);
    None when the general concatenation rules are needed."""
    dtype = cur.dtype
    pieces = []
    for v in values:
        t = type(v)
        if t is np.ndarray:
            if v.dtype != dtype or v.ndim != 2 or (v.shape[0] != 1 and v.size):
                return None
            if v.size:
                pieces.append(v[0])
        elif t is float and dtype == np.float64:
            pieces.append((v,))
        else:
            return None
    n = cur.shape[1] if cur.size else 0
    if cur.size == 0 and cur.shape != (0, 0) and cur.shape[0] != 1:
        return None
    total = n + sum(len(p) for p in pieces)
    buffer = None
    growth = frame.growth
    if growth is not None and cur.base is not None:
        ref = growth.get(name)
        if ref is not None and ref() is cur:
            candidate = cur.base
            if sys.getrefcount(candidate) <= 3 and candidate.shape[0] == 1 \
                    and candidate.shape[1] >= total:
                buffer = candidate
    if buffer is None:
        buffer = np.empty((1, max(2 * total, 16)), dtype=dtype)
        if n:
            buffer[0, :n] = cur[0]
    pos = n
    for p in pieces:
        buffer[0, pos:pos + len(p)] = p
        pos += len(p)
    new = buffer[:, :total]
    _remember_growth_view(frame, name, new)
    return new


_COLON_TEXT = char_row(":")


def _colons_as_text(values: list) -> list:
    """A function called with ``:`` receives the character ':' (only indexing reads it as all)."""
    return [_COLON_TEXT if v is COLON else v for v in values]


def _is_end_plus_one(arg_nodes: list) -> bool:
    """Is the index list exactly ``(end+1)``?"""
    if len(arg_nodes) != 1:
        return False
    a = arg_nodes[0]
    return (type(a) is ast.Binary and a.op == "+" and type(a.left) is ast.End
            and type(a.right) is ast.Number and a.right.value == 1 and a.right.cls == "double")


def _remember_growth_view(frame: Frame, name: str, view: np.ndarray) -> None:
    """Note that ``name`` holds a leading slice of a growth buffer (a weak reference:
    remembering must not count as sharing)."""
    growth = frame.growth
    if growth is None:
        growth = frame.growth = {}
    growth[name] = weakref.ref(view)


def _assign_and_track(frame: Frame, name: str, base: Any, index: list, v: Any, owned: bool) -> None:
    """``name(index) = v`` through the general assignment; a vector that grew is now a
    leading slice of a growth buffer, which is remembered for O(1) appends."""
    size_before = base.size if type(base) is np.ndarray else (0 if base is None else -1)
    new = indexing.assign(base, index, v, owned)
    frame.vars[name] = new
    if type(new) is np.ndarray and new.base is not None and new.size > size_before >= 0:
        _remember_growth_view(frame, name, new)


def _append_to_growth_view(frame: Frame, name: str, view: np.ndarray) -> np.ndarray | None:
    """``view`` one element longer, in its growth buffer, if it is the one remembered for
    ``name``, the buffer has room, and nothing else looks into the buffer."""
    growth = frame.growth
    if growth is None:
        return None
    ref = growth.get(name)
    if ref is None or ref() is not view:
        return None
    buffer = view.base
    if sys.getrefcount(buffer) > 3:  # the view's reference, `buffer`, getrefcount's
        return None
    rows, cols = view.shape
    if rows == 1 and buffer.shape[0] == 1 and buffer.shape[1] > cols:
        grown = buffer[:, :cols + 1]
    elif cols == 1 and buffer.shape[1] == 1 and buffer.shape[0] > rows:
        grown = buffer[:rows + 1, :]
    else:
        return None
    growth[name] = weakref.ref(grown)
    return grown


def targets_ignored(targets: list, counts: list, index: int) -> bool:
    """Is output number ``index`` (0-based) going to a ``~``?"""
    pos = 0
    for (_, st), c in zip(targets, counts, strict=True):
        if pos <= index < pos + c:
            return st is None
        pos += c
    return False


def _chain(target: ast.Node) -> list:
    """``s(1).f{2}`` → ['s', ('()', args), ('.', 'f'), ('{}', args)]."""
    ops: list = []
    node = target
    while True:
        t = type(node)
        if t is ast.Name:
            return [node.name, *reversed(ops)]
        if t is ast.Index:
            ops.append(("{}" if node.braces else "()", node.args))
        elif t is ast.Field:
            ops.append((".", node.name))
        elif t is ast.DynField:
            ops.append((".()", node.name))
        else:
            raise error("MATLAB:invalidAssignment", "Invalid assignment target.")
        node = node.base


def _dotted_call(node: ast.Node) -> tuple[str, str, list | None] | None:
    """``a.b.c(args)`` or ``a.b.c`` with a Name root: (root, 'a.b.c', args or None)."""
    args = None
    if type(node) is ast.Index and not node.braces and type(node.base) is ast.Field:
        args = node.args
        node = node.base
    if type(node) is not ast.Field:
        return None
    parts = []
    while type(node) is ast.Field:
        parts.append(node.name)
        node = node.base
    if type(node) is not ast.Name:
        return None
    return node.name, ".".join([node.name, *reversed(parts)]), args


def _root_name(target: ast.Node) -> str:
    return _chain(target)[0]


def _op_args(frame: Frame, op: tuple, current: Any) -> list:
    args, uses_end = op[1], op[2]
    if uses_end:
        return args(frame, current if current is not None else np.zeros((0, 0)))
    return args(frame)


def _assign_path(frame: Frame, current: Any, ops: list, i: int, value: Any) -> Any:
    """The new value of ``current`` after assigning ``value`` at ``ops[i:]``."""
    op = ops[i]
    kind = op[0]
    last = i == len(ops) - 1
    if kind == "()":
        args = _op_args(frame, op, current)
        if last:
            return indexing.assign(current, args, value)
        # x(i).f = v / x(i){...}: work on the selected element
        if current is None:
            current = Struct.empty((0, 0)) if ops[i + 1][0] in (".", ".()") else Cell.empty()
        if type(current) is Struct and ops[i + 1][0] == ".":
            if ops[i + 1][1] not in current.fields:  # a new field belongs to every element
                current = current.copy()
                current.add_field(ops[i + 1][1])
        try:
            sub = indexing.index(current, args)
        except MatlabError:
            sub = None
        if type(sub) is Struct and sub.elems.size == 0:
            sub = None
        if sub is None and type(current) is Struct:
            sub = Struct.scalar(dict.fromkeys(current.fields, EMPTY))
        new_sub = _assign_path(frame, sub, ops, i + 1, value)
        return indexing.assign(current, args, new_sub)
    if kind == "{}":
        args = _op_args(frame, op, current)
        if current is None:
            current = Cell.empty()
        elif type(current) is np.ndarray and current.size == 0:
            current = Cell.empty(current.shape)
        if type(current) is not Cell:
            raise error("MATLAB:cellAssToNonCell",
                        "Unable to perform assignment because brace indexing is not supported "
                        "for variables of this type. Use parentheses instead.")
        if last:
            cell_value = Cell(np.empty((1, 1), dtype=object))
            cell_value.data[0, 0] = value
            return indexing.assign(current, args, cell_value)
        try:
            sub_list = indexing.brace_index(current, args)
            sub = sub_list[0] if len(sub_list) == 1 else None
        except MatlabError:
            sub = None
        new_sub = _assign_path(frame, sub, ops, i + 1, value)
        wrapped = Cell(np.empty((1, 1), dtype=object))
        wrapped.data[0, 0] = new_sub
        return indexing.assign(current, args, wrapped)
    # field
    if kind == ".":
        name = op[1]
    else:
        from mlang.values.core import to_str

        name = to_str(op[1](frame))
    if current is None or (type(current) is np.ndarray and current.size == 0):
        current = Struct.scalar()
    if type(current) is not Struct:
        kind = kind_of(current)
        if kind is not None and last:
            return kind.set_property(current, name, value)
        raise error("MATLAB:structAssToNonStruct",
                    "Unable to perform assignment because dot indexing is not supported for "
                    "variables of this type.")
    if current.elems.size != 1:
        if last and current.elems.size > 1:
            raise error("MATLAB:index:expected_one_output_from_expression",
                        "Unable to perform assignment because the dot indexing produced "
                        "more than one result.")
    out = current.copy() if current.elems.size else Struct.scalar()
    element = out.elems.reshape(-1)[0]
    if name not in out.fields:
        out.add_field(name)
    if last:
        element[name] = value
    else:
        element[name] = _assign_path(frame, element.get(name) if name in element else None,
                                     ops, i + 1, value)
    return out


def _for_values(frame: Frame, values: Any, store: Callable, body: Code, var: str) -> None:
    """``for var = values``: one iteration per column."""
    t = type(values)
    if t is float or t is bool or t is complex:
        columns: Any = [values]
    elif t is np.ndarray:
        if values.size == 0:
            frame.vars[var] = np.zeros((0, 0)) if values.shape == (0, 0) else values
            return
        cols = values.reshape(values.shape[0], -1, order="F")
        if cols.shape[0] == 1 and values.dtype == np.float64:
            columns = [float(x) for x in cols[0]]
        else:
            columns = [indexing.rewrap(values, cols[:, j:j + 1]) for j in range(cols.shape[1])]
    elif t is Cell:
        data = values.data
        if data.size == 0:
            return
        cols = data.reshape(data.shape[0], -1, order="F")
        columns = [Cell(cols[:, j:j + 1].copy()) for j in range(cols.shape[1])]
    elif t is Struct:
        elems = values.elems
        cols = elems.reshape(elems.shape[0], -1, order="F")
        columns = [Struct(list(values.fields), cols[:, j:j + 1].copy()) for j in range(cols.shape[1])]
    elif t is StringArray:
        data = values.data
        cols = data.reshape(data.shape[0], -1, order="F")
        columns = [StringArray(cols[:, j:j + 1].copy()) for j in range(cols.shape[1])]
    else:
        columns = [values]
    for v in columns:
        store(frame, v)
        try:
            body(frame)
        except BreakLoop:
            return
        except ContinueLoop:
            continue


def _case_matches(subject: Any, case: Any) -> bool:
    if type(case) is Cell:
        return any(_case_matches(subject, c) for c in case.values())
    from mlang.values.core import is_text, to_str

    if is_text(subject) or is_text(case):
        if not (is_text(subject) and is_text(case)):
            return False
        return to_str(subject) == to_str(case)
    if type(subject) is float and type(case) is float:
        return subject == case
    try:
        a = np.asarray(indexing.data_of(subject))
        b = np.asarray(indexing.data_of(case))
    except MatlabError:
        return False
    if a.size == 0 or b.size == 0:
        return a.size == 0 and b.size == 0 and False
    if b.size != 1 and a.size != 1:
        return False
    return bool(np.all(operators.to_logical(operators.compare("==", subject, case))))
