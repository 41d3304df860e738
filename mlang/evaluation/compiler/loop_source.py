"""Loops written out as Python source: the scalar statements of a loop's body inline.

A ``for k = a:b`` or ``while`` loop becomes one Python function; so does the
body of a user function (its top-level statements, written the same way).  In its
body, statements made of double scalars are written out as Python code:
``s = s + k*0.5``, ``x(k) = x(k-1)*0.5 + k``, ``if s >= 100 && c < 3``,
``break``, ``continue``.  Each such statement first reads its variables and
checks they are what the inline code assumes (Python floats; real double
arrays for ``x(k)``, indices in range, an unshared array to write); when a
check fails, the statement runs its compiled closure instead (the general
path), which gives MATLAB's full semantics: other classes, NaN conditions,
growth, errors.  The inline code has no effect before its checks pass (it
only reads), so the general path starts the statement afresh.  Statements
of any other kind run their compiled closures.  Errors are located at the
line of the statement that raised them, as ``run_statements`` does.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.evaluation.compiler.assignment import is_end_plus_one
from mlang.evaluation.compiler.loop_runtime import (
    _FALLBACK,
    _PURE_BUILTINS,
    ROW_MAKERS,
    Attempts,
    PureCall,
    _empty_row,
    append_cell_element,
    append_element,
    count_of,
    element,
    element2,
    element2_at,
    element_at,
    element_last,
    number,
    number_at,
    number_last,
    row2,
    row3,
    row4,
    store_element,
    store_element2,
    store_element_at,
)
from mlang.evaluation.compiler.runtime import MISSING, Code, located, truth
from mlang.evaluation.frame import BreakLoop, ContinueLoop
from mlang.syntax import ast
from mlang.values.operators import scalar_power
from mlang.values.ranges import double_range_length

getrefcount = sys.getrefcount

_ARITHMETIC = {"+": "+", "-": "-", "*": "*", ".*": "*", "/": "/", "./": "/"}
_COMPARISON = {"==": "==", "~=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_FLOAT, _LOGICAL, _ARRAY = "float", "bool", "array"
# how deep written code nests (statements in ifs, operators in expressions): well within
# what Python's parser accepts
MAX_NESTING = 24


def _literal_position(node: ast.Node) -> int | None:
    """The 0-based position a literal whole double index >= 1 stands for (else None)."""
    if type(node) is ast.Number and node.cls == "double" and type(node.value) is not complex:
        value = float(node.value)
        if value.is_integer() and 1 <= value < 2.0 ** 53:
            return int(value) - 1
    return None


class LoopWriter:
    """Writes one loop's Python source; ``compiler`` gives the closures of the general paths."""

    def __init__(self, compiler: Any, loop: ast.For | ast.While | list[ast.Node],
                 variables: set[str] | None = None) -> None:
        self.compiler = compiler
        self.lines: list[str] = []
        self.names: dict[str, Any] = {}  # what the source refers to: closures, constants
        self.temps = 0
        self.live_flags: list[tuple[str, str]] = []  # (local, Attempts object) of each attempt
        self.inlined = 0  # statements written inline (none: the loop is not worth writing)
        # a name the loop assigns is a variable in it (as are ``variables``: a function's
        # inputs); others may be functions (pi, i, mod)
        self.assigned: set[str] = set(variables or ())
        for n in (node for top in (loop if type(loop) is list else [loop]) for node in ast.walk(top)):
            if type(n) is ast.Assign:
                self.assigned.add(_root(n.target))
            elif type(n) is ast.MultiAssign:
                self.assigned.update(_root(t) for t in n.targets)
            elif type(n) is ast.For:
                self.assigned.add(_root(n.var))

    # ------------------------------------------------------------ naming

    def ref(self, value: Any, stem: str) -> str:
        name = f"{stem}{len(self.names)}"
        self.names[name] = value
        return name

    def temp(self) -> str:
        self.temps += 1
        return f"t{self.temps}"

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    # ------------------------------------------------------------ expressions

    def variable(self, node: ast.Node) -> str | None:
        """The name, if ``node`` is an ordinary variable here (not a function's name)."""
        name = self.compiler.plain_variable(node)
        if name is None:
            return None
        if name not in self.assigned and (self.compiler.interp.builtins.get(name) is not None
                                          or (self.compiler.unit is not None
                                              and self.compiler.unit.local(name) is not None)):
            return None
        return name

    def scalar(self, node: ast.Node, reads: list, checks: list, level: int = 0,
               end: str | None = None, operand: bool = False) -> tuple[str, str] | None:
        """(Python expression, its type) computing ``node`` on double scalars, with the
        variable reads it needs (``reads``) and the checks they must pass (``checks``);
        None when ``node`` is not such an expression.  ``end`` is what ``end`` stands for
        here (inside an index); an ``operand`` of arithmetic or a comparison may also be a
        logical array's element."""
        if level > MAX_NESTING:  # (Python's parser limits nesting; deep trees stay closures)
            return None
        t = type(node)
        if t is ast.Paren:
            return self.scalar(node.expr, reads, checks, level + 1, end, operand)
        if t is ast.Number:
            if node.cls != "double" or type(node.value) is complex:
                return None
            return self.ref(float(node.value), "c"), _FLOAT
        if t is ast.End:
            return (end, _FLOAT) if end is not None else None
        if t is ast.Name:
            name = self.variable(node)
            if name is None:
                return None
            for read_name, tmp, array in reads:
                if read_name == name and not array:
                    return tmp, _FLOAT
            tmp = self.temp()
            reads.append((name, tmp, False))
            checks.append(f"type({tmp}) is float")
            return tmp, _FLOAT
        if t is ast.Unary and node.op == "-":
            inner = self.scalar(node.operand, reads, checks, level + 1, end)
            if inner is None or inner[1] != _FLOAT:
                return None
            return f"(-{inner[0]})", _FLOAT
        if t is ast.Binary:
            return self.binary(node, reads, checks, level + 1, end)
        if t is ast.Index and not node.braces and type(node.base) is ast.Name \
                and node.base.name in _PURE_BUILTINS and self.variable(node.base) is None:
            return self.pure_call(node, reads, checks, level, end)
        if t is ast.Index and not node.braces and len(node.args) in (1, 2):
            return self.element(node, reads, checks, level, end, operand)
        return None

    def pure_call(self, node: ast.Index, reads: list, checks: list, level: int, end: str | None
                  ) -> tuple[str, str] | None:
        """``f(a, b)`` of a builtin in ``_PURE_BUILTINS``: its arguments are double scalars
        or variables holding anything."""
        name = node.base.name  # type: ignore[attr-defined]
        unit = self.compiler.unit
        if unit is not None and unit.local(name) is not None:
            return None
        args = []
        for arg in node.args:
            if type(arg) is ast.Name and self.compiler.plain_variable(arg) is not None:
                tmp = self.temp()
                reads.append((arg.name, tmp, True))
                checks.append(f"{tmp} is not MISSING")
                args.append(tmp)
                continue
            if type(arg) in (ast.Colon, ast.NamedArg) or self.compiler.facts.contains_end(arg):
                return None
            value = self.scalar(arg, reads, checks, level + 1, end)
            if value is None:
                return None
            args.append(value[0])
        shadow = self.temp()  # a variable of the function's name, made where the loop cannot see
        reads.append((name, shadow, True))
        checks.append(f"{shadow} is MISSING")
        kind = _PURE_BUILTINS[name]
        call = self.ref(PureCall(self.compiler.interp, self.compiler.unit, name, len(args),
                                 float if kind == _FLOAT else bool), "f")
        checks.insert(0, f"{call}.live")
        return f"{call}({', '.join(args)})", kind

    def element(self, node: ast.Index, reads: list, checks: list, level: int, end: str | None,
                operand: bool) -> tuple[str, str] | None:
        """``x(k)``, ``x(end)``, ``x(i, j)`` of a double array variable ``x``."""
        name = self.variable(node.base)
        args = node.args
        if name is None or any(type(a) in (ast.Colon, ast.NamedArg) for a in args):
            return None
        array = self.temp()
        literal = [_literal_position(a) for a in args]
        if None not in literal:  # literal whole indices: checked here, once
            reads.append((name, array, True))
            if len(args) == 2:
                return f"element2_at({array}, {literal[0]}, {literal[1]})", _FLOAT
            return f"{'number_at' if operand else 'element_at'}({array}, {literal[0]})", _FLOAT
        if len(args) == 1 and type(args[0]) is ast.End:
            reads.append((name, array, True))
            return f"{'number_last' if operand else 'element_last'}({array})", _FLOAT
        if len(args) == 2:
            if any(self.compiler.facts.contains_end(a) for a in args):
                return None
            first = self.scalar(args[0], reads, checks, level + 1, end)
            second = self.scalar(args[1], reads, checks, level + 1, end) if first is not None else None
            if first is None or second is None or first[1] != _FLOAT or second[1] != _FLOAT:
                return None
            reads.append((name, array, True))
            return f"element2({array}, {first[0]}, {second[0]})", _FLOAT
        index = self.scalar(args[0], reads, checks, level + 1, f"count_of({array})")
        if index is None or index[1] != _FLOAT:
            return None
        reads.append((name, array, True))
        return f"{'number' if operand else 'element'}({array}, {index[0]})", _FLOAT

    def binary(self, node: ast.Binary, reads: list, checks: list, level: int, end: str | None = None
               ) -> tuple[str, str] | None:
        op = node.op
        numeric = op in _ARITHMETIC or op in _COMPARISON or op in ("^", ".^")
        left = self.scalar(node.left, reads, checks, level, end, numeric)
        right = self.scalar(node.right, reads, checks, level, end, numeric) if left is not None else None
        if left is None or right is None:
            return None
        if op in ("&&", "||"):
            if left[1] != _LOGICAL or right[1] != _LOGICAL:
                return None
            return f"({left[0]} {'and' if op == '&&' else 'or'} {right[0]})", _LOGICAL
        if op in _ARITHMETIC:
            # logical operands count as 0 and 1 and give a double (two Python bools give an int)
            if left[1] == _LOGICAL and right[1] == _LOGICAL:
                return f"(float({left[0]}) {_ARITHMETIC[op]} {right[0]})", _FLOAT
            return f"({left[0]} {_ARITHMETIC[op]} {right[0]})", _FLOAT
        if left[1] != _FLOAT or right[1] != _FLOAT:
            return None
        if op in _COMPARISON:
            return f"({left[0]} {_COMPARISON[op]} {right[0]})", _LOGICAL
        if op in ("^", ".^") and type(node.right) is ast.Number and node.right.cls == "double" \
                and type(node.right.value) is not complex and float(node.right.value).is_integer():
            # (an integer power of a double is real) NumPy's power, as v.^p raises elements;
            # a square is x*x there too
            if float(node.right.value) == 2.0 and left[0].isidentifier():
                return f"({left[0]} * {left[0]})", _FLOAT
            return f"scalar_power({left[0]}, {right[0]})", _FLOAT
        return None

    def attempt(self, depth: int, expr: tuple[str, str] | None, reads: list, checks: list,
                target: str) -> None:
        """Source setting ``ok`` and, when ok, ``target`` to the value of ``expr`` (a
        comma-separated list of targets, values)."""
        attempts = self.ref(Attempts(), "a")
        # (whether it is still tried: a local of the written function, read from the
        # Attempts object as the function starts, is quicker to test than its attribute)
        live = f"live_{attempts}"
        self.live_flags.append((live, attempts))
        self.emit(depth, f"if not {live}:")
        self.emit(depth + 1, "ok = False")
        self.emit(depth, "else:")
        depth += 1
        self.emit(depth, "try:")
        for name, tmp, _ in reads:
            self.emit(depth + 1, f"{tmp} = vars.get({name!r}, MISSING)")
        self.emit(depth + 1, f"ok = {' and '.join(checks) if checks else 'True'}")
        self.emit(depth + 1, "if ok:")
        self.emit(depth + 2, f"{target} = {expr[0]}")  # type: ignore[index]
        self.emit(depth, "except FALLBACK:")
        self.emit(depth + 1, "ok = False")
        if reads:  # let go of what was read (arrays too, when a check failed): a store
            # must see an array unshared
            self.emit(depth, " = ".join(tmp for _, tmp, _ in reads) + " = None")
        self.emit(depth, "if not ok:")
        self.emit(depth + 1, f"{live} = {attempts}.missed()")

    # ------------------------------------------------------------ statements

    def statements(self, stmts: list[ast.Node], depth: int) -> None:
        if not stmts:
            self.emit(depth, "pass")
        for st in stmts:
            self.statement(st, depth)

    def statement(self, st: ast.Node, depth: int) -> None:
        self.emit(depth, f"ln = {st.line}")
        t = type(st)
        if depth > MAX_NESTING:  # (deeply nested ifs stay closures)
            self.emit(depth, f"{self.ref(self.compiler.statement(st), 'g')}(frame)")
            return
        if t is ast.Break:
            self.emit(depth, "break")
            return
        if t is ast.Continue:
            self.emit(depth, "continue")
            return
        # (each elseif nests one level deeper: a long chain stays a closure)
        if t is ast.If and depth + len(st.clauses) <= MAX_NESTING and self.if_statement(st, depth):
            return
        if t is ast.Assign and not st.show and self.assignment(st, depth):
            self.inlined += 1
            return
        if t is ast.For and depth + 3 <= MAX_NESTING and self.range_for(st, depth):
            return
        self.emit(depth, self.general_path(st))

    def general_path(self, st: ast.Node) -> str:
        """Source running statement ``st``'s compiled code; ``x = value;`` stores the value
        itself (one call fewer: what the statement's code does, ``frame.vars`` being ``vars``)."""
        code = self.compiler.statement(st)
        stored = getattr(code, "stored_value", None)
        if stored is not None:
            root, value = stored
            return f"vars[{root!r}] = {self.ref(value, 'g')}(frame)"
        return f"{self.ref(code, 'g')}(frame)"

    def range_for(self, st: ast.For, depth: int) -> bool:
        """``for var = a:s:b`` inside written code: a Python loop over the double range, its
        body written too (entering it costs no call); any other range, the general loop."""
        var = st.var.name  # type: ignore[attr-defined]
        if type(st.iterable) is not ast.Range or var in self.compiler.special_names:
            return False
        start, step, stop, other = self.compiler.for_range_parts(st)
        a, s, b, n, j = (self.temp() for _ in range(5))
        self.emit(depth, f"{a} = {self.ref(start, 'e')}(frame)")
        self.emit(depth, f"{s} = {self.ref(step, 'e')}(frame)")
        self.emit(depth, f"{b} = {self.ref(stop, 'e')}(frame)")
        self.emit(depth, f"{n} = double_range_length({a}, {s}, {b})")
        self.emit(depth, f"if {n} is None:")
        self.emit(depth + 1, f"{self.ref(other, 'g')}(frame, {a}, {s}, {b})")
        self.emit(depth, f"elif {n} <= 0:")
        self.emit(depth + 1, f"vars[{var!r}] = empty_row()")
        self.emit(depth, "else:")
        self.emit(depth + 1, f"for {j} in range({n}):")
        self.emit(depth + 2, f"vars[{var!r}] = {a} + {j} * {s}")
        self.emit(depth + 2, "try:")  # a break or continue of general code in the body ends here
        self.statements(st.body, depth + 3)
        self.emit(depth + 2, "except BreakLoop:")
        self.emit(depth + 3, "break")
        self.emit(depth + 2, "except ContinueLoop:")
        self.emit(depth + 3, "continue")
        self.emit(depth, f"{a} = {s} = {b} = None")
        return True

    def row_of_scalars(self, node: ast.Matrix, target: str, reads: list, checks: list
                       ) -> tuple[str, str] | None:
        """``[a, b + 1, c]``: a row of two or more double scalars, made as the general path
        makes a row of Python floats (``np.array([values])``).  Not a row of literals only
        (made once), nor ``x = [x, ...]`` (an append, with its own growth path)."""
        if len(node.rows) != 1 or len(node.rows[0]) < 2 \
                or all(type(n) is ast.Number for n in node.rows[0]) \
                or any(type(n) is ast.Name and n.name == target for n in node.rows[0]):
            return None
        parts = []
        for item in node.rows[0]:
            if self.compiler.may_expand(item):
                return None
            part = self.scalar(item, reads, checks)
            if part is None or part[1] != _FLOAT:
                return None
            parts.append(part[0])
        maker = ROW_MAKERS.get(len(parts))
        if maker is not None:
            return f"{maker}({', '.join(parts)})", _ARRAY
        return f"array([[{', '.join(parts)}]])", _ARRAY

    def assignment(self, st: ast.Assign, depth: int) -> bool:
        target = st.target
        reads: list = []
        checks: list = []
        if type(target) is ast.Name:
            name = self.compiler.plain_variable(target)
            value = None if name is None else self.scalar(st.value, reads, checks) \
                if type(st.value) is not ast.Matrix else self.row_of_scalars(st.value, name, reads, checks)
            if value is None:
                return False
            general = self.general_path(st)
            self.attempt(depth, value, reads, checks, "v")
            self.emit(depth, "if ok:")
            self.emit(depth + 1, f"vars[{name!r}] = v")
            if value[1] == _ARRAY:  # let go of it: a store into the variable must see it unshared
                self.emit(depth + 1, "v = None")
            self.emit(depth, "else:")
            self.emit(depth + 1, general)
            return True
        if type(target) is ast.Index and target.braces and is_end_plus_one(target.args):
            name = self.compiler.plain_variable(target.base)
            value = self.scalar(st.value, reads, checks) if name is not None else None
            if value is None or value[1] != _FLOAT:
                return False
            general = self.ref(self.compiler.statement(st), "g")
            self.attempt(depth, value, reads, checks, "v")
            self.emit(depth, f"if not (ok and append_cell_element(frame, vars, {name!r}, v)):")
            self.emit(depth + 1, f"{general}(frame)")
            return True
        if type(target) is ast.Index and not target.braces and len(target.args) == 1:
            name = self.compiler.plain_variable(target.base)
            arg = target.args[0]
            if name is not None and is_end_plus_one(target.args):
                value = self.scalar(st.value, reads, checks)
                if value is None or value[1] != _FLOAT:
                    return False
                general = self.ref(self.compiler.statement(st), "g")
                self.attempt(depth, value, reads, checks, "v")
                self.emit(depth, f"if not (ok and append_element(frame, vars, {name!r}, v)):")
                self.emit(depth + 1, f"{general}(frame)")
                return True
            if name is None or type(arg) in (ast.Colon, ast.NamedArg) \
                    or self.compiler.facts.contains_end(arg):
                return False
            position = _literal_position(arg)
            if position is not None:  # x(2) = v: the index checked here, once
                value = self.scalar(st.value, reads, checks)
                if value is None or value[1] != _FLOAT:
                    return False
                general = self.ref(self.compiler.statement(st), "g")
                self.attempt(depth, value, reads, checks, "v")
                self.emit(depth, f"if not (ok and store_element_at(vars, {name!r}, {position}, v)):")
                self.emit(depth + 1, f"{general}(frame)")
                return True
            index = self.scalar(arg, reads, checks)
            value = self.scalar(st.value, reads, checks) if index is not None else None
            if index is None or value is None or index[1] != _FLOAT or value[1] != _FLOAT:
                return False
            general = self.ref(self.compiler.statement(st), "g")
            self.attempt(depth, (f"{index[0]}, {value[0]}", _FLOAT), reads, checks, "k, v")
            self.emit(depth, f"if not (ok and store_element(vars, {name!r}, k, v)):")
            self.emit(depth + 1, f"{general}(frame)")
            return True
        if type(target) is ast.Index and not target.braces and len(target.args) == 2:
            return self.matrix_store(st, target, depth)
        return False

    def matrix_store(self, st: ast.Assign, target: ast.Index, depth: int) -> bool:
        """``x(i, j) = v`` with double scalars: in place into an unshared double matrix."""
        name = self.compiler.plain_variable(target.base)
        args = target.args
        if name is None or any(type(a) in (ast.Colon, ast.NamedArg) or self.compiler.facts.contains_end(a)
                               for a in args):
            return False
        reads: list = []
        checks: list = []
        parts = [self.scalar(a, reads, checks) for a in (*args, st.value)]
        if any(p is None or p[1] != _FLOAT for p in parts):
            return False
        general = self.ref(self.compiler.statement(st), "g")
        self.attempt(depth, (", ".join(p[0] for p in parts), _FLOAT), reads, checks,  # type: ignore[index]
                     "r, c, v")
        self.emit(depth, f"if not (ok and store_element2(vars, {name!r}, r, c, v)):")
        self.emit(depth + 1, f"{general}(frame)")
        return True

    def condition(self, cond: ast.Node, depth: int) -> None:
        """Source setting ``c`` to whether ``cond`` holds (MATLAB's truth rules)."""
        reads: list = []
        checks: list = []
        expr = self.scalar(cond, reads, checks)
        general = self.ref(self.compiler.expr(cond), "e")
        if expr is None:
            self.emit(depth, f"c = {general}(frame)")
            self.emit(depth, "c = c is True or (c is not False and truth(c))")
            return
        self.inlined += 1
        self.attempt(depth, expr, reads, checks, "c")
        self.emit(depth, "if not ok:")
        self.emit(depth + 1, f"c = {general}(frame)")
        self.emit(depth + 1, "c = c is True or (c is not False and truth(c))")
        if expr[1] == _FLOAT:
            self.emit(depth, "elif type(c) is float:")
            self.emit(depth + 1, "c = truth(c)")

    def if_statement(self, st: ast.If, depth: int) -> bool:
        for k, (cond, body) in enumerate(st.clauses):
            if k:
                self.emit(depth + k - 1, "else:")
            self.condition(cond, depth + k)
            self.emit(depth + k, "if c:")
            self.statements(body, depth + k + 1)
        last = len(st.clauses) - 1
        if st.orelse is not None:
            self.emit(depth + last, "else:")
            self.statements(st.orelse, depth + last + 1)
        return True

    # ------------------------------------------------------------ loops

    def namespace(self) -> dict[str, Any]:
        """What the written source refers to."""
        return {"MISSING": MISSING, "FALLBACK": _FALLBACK, "element": element, "number": number,
                "element2": element2, "count_of": count_of, "element_at": element_at,
                "number_at": number_at, "element2_at": element2_at, "number_last": number_last,
                "element_last": element_last, "store_element": store_element,
                "store_element_at": store_element_at,
                "store_element2": store_element2, "append_element": append_element,
                "append_cell_element": append_cell_element,
                "truth": truth, "located": located, "double_range_length": double_range_length,
                "empty_row": _empty_row, "scalar_power": scalar_power, "array": np.array,
                "row2": row2, "row3": row3, "row4": row4,
                "BreakLoop": BreakLoop, "ContinueLoop": ContinueLoop, **self.names}

    def start_flags(self) -> None:
        """The written function's first lines set each attempt's local flag (after
        ``vars = frame.vars``)."""
        self.lines[2:2] = [f"    {live} = {attempts}.live" for live, attempts in self.live_flags]

    def body_function(self, stmts: list[ast.Node]) -> Code | None:
        """A function's body as one Python function, if anything in it was written inline."""
        self.lines = ["def body(frame):", "    vars = frame.vars", "    ln = 0", "    try:"]
        self.statements(stmts, 2)
        self.lines += ["    except BaseException as exc:",
                       "        raise located(exc, frame, ln) from None"]
        if not self.inlined:
            return None
        self.start_flags()
        namespace = self.namespace()
        exec(compile("\n".join(self.lines), "<mlang function>", "exec"), namespace)  # noqa: S102
        return namespace["body"]

    def function(self, header: str, loop_lines: list[str], body: list[ast.Node], depth: int
                 ) -> Callable | None:
        """The loop's function, if anything in it was written inline."""
        self.lines = [header, "    vars = frame.vars", "    ln = 0", "    try:"]
        self.lines.extend(loop_lines)
        self.emit(depth, "try:")
        self.statements(body, depth + 1)
        self.emit(depth, "except BreakLoop:")
        self.emit(depth + 1, "break")
        self.emit(depth, "except ContinueLoop:")
        self.emit(depth + 1, "continue")
        self.lines += ["    except BaseException as exc:",
                       "        raise located(exc, frame, ln) from None"]
        if not self.inlined:
            return None
        self.start_flags()
        namespace = self.namespace()
        exec(compile("\n".join(self.lines), "<mlang loop>", "exec"), namespace)  # noqa: S102
        return namespace["loop"]


def function_body(compiler: Any, stmts: list[ast.Node]) -> Code | None:
    """A function's body written as one Python function (its inputs are variables), or None
    when none of its statements is written inline."""
    return LoopWriter(compiler, stmts, compiler.params).body_function(stmts)


def range_loop(compiler: Any, node: ast.For, var: str) -> Callable[[Any, float, float, int], None] | None:
    """``for var = a:s:b`` over ``n`` double values: ``loop(frame, a, s, n)``, or None."""
    writer = LoopWriter(compiler, node)
    head = ["        for j in range(count):", f"            vars[{var!r}] = first + j * step"]
    return writer.function("def loop(frame, first, step, count):", head, node.body, 3)


def while_loop(compiler: Any, node: ast.While) -> Code | None:
    """``while cond ... end``: ``loop(frame)``, or None."""
    writer = LoopWriter(compiler, node)
    writer.emit(3, f"ln = {node.line}")
    writer.condition(node.cond, 3)
    writer.emit(3, "if not c:")
    writer.emit(4, "break")
    return writer.function("def loop(frame):", ["        while True:", *writer.lines], node.body, 3)


def _root(target: Any) -> str:
    """The variable an assignment target writes ('' for none)."""
    while type(target) is not ast.Name:
        if not hasattr(target, "base"):
            return ""
        target = target.base
    return target.name

