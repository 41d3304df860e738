"""Compiling expressions: literals, names, operators, ranges, brackets, handles, lambdas.

Double scalars are Python floats, and scalar arithmetic on them is plain
Python; operands that are a plain variable or a constant are read directly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import reduce as fold
from typing import Any

import numpy as np

from mlang.errors import error
from mlang.evaluation.compiler.binary_ops import binary_code
from mlang.evaluation.compiler.runtime import MISSING, Code, constant_code, constant_of, scalar_truth
from mlang.evaluation.frame import Frame
from mlang.syntax import ast
from mlang.values import operators
from mlang.values.concat import concatenate, joined_arrays, joined_pair, make_cell, short_double_row
from mlang.values.core import EMPTY, char_row, size_of
from mlang.values.handle import FunctionHandle
from mlang.values.indexing import COLON
from mlang.values.operators import SCALAR_GUARDS, SCALAR_OPS
from mlang.values.ranges import colon_range
from mlang.values.string import StringArray

# Python's own operators give MATLAB's result on two double scalars (floats), some
# only when a guard holds (no division by zero, no negative base to a fractional power).
# Operators whose chains of double constants fold in one call (see binary_chain): Python's
# operator never fails on two floats and gives a float.
_FOLDED = frozenset({"+", "-", "*", ".*"})
_ONE_OPERATOR = re.compile(r"\++|-+")  # the stretches of one operator in a SumRun's ops


def _double_constant(node: ast.Node) -> float | None:
    if type(node) is ast.Number and node.cls == "double" and type(node.value) is not complex:
        return float(node.value)
    return None


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


# ``+``/``-`` runs at least this long (``total + a + b + c``) are computed in one loop (see
# sum_chain): a closure for each operator costs more than a turn of the loop.
SUM_CHAIN = 3

# Operator chains at least this long (`1+1+...+1`, `----x`) compile to one loop
# instead of nested closures, so that neither compiling nor running them recurses.
LONG_CHAIN = 64


def _chain_length(node: ast.Node, kind: type[ast.Node], link: str) -> int:
    """How many ``kind`` nodes follow each other down the ``link`` field (up to LONG_CHAIN)."""
    n = 0
    while type(node) is kind and n < LONG_CHAIN:
        node = getattr(node, link)
        n += 1
    return n


def _negate(v: Any) -> Any:
    return -v if type(v) is float else operators.uminus(v)


def _not(v: Any) -> Any:
    if type(v) is bool:
        return not v
    if type(v) is float:
        if v != v:
            raise error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        return v == 0.0
    return operators.logical_not(v)


_PREFIX_STEPS = {"-": _negate, "~": _not, "+": operators.uplus}


class ExpressionCompiler:
    """The part of ``Compiler`` that compiles expressions (a mixin: it calls the other parts)."""

    def visit_Number(self, node: ast.Number) -> Code:
        value = node.value
        if node.cls != "double":
            return constant_code(np.array([[value]], dtype=node.cls))
        if type(value) is complex:
            return constant_code(complex(value))
        return constant_code(float(value))

    def visit_Char(self, node: ast.Char) -> Code:
        return constant_code(char_row(node.value))

    def visit_String(self, node: ast.String) -> Code:
        text = node.value

        def make(frame: Frame) -> StringArray:
            return StringArray.scalar(text)

        return make

    def visit_Colon(self, node: ast.Colon) -> Code:
        return lambda frame: COLON

    def visit_End(self, node: ast.End) -> Code:
        def end_(frame: Frame) -> float:
            if not frame.end_stack:
                raise error("MATLAB:badEnd", "'end' is only valid in an index into an array.")
            value, position, count = frame.end_stack[-1]
            if value is MISSING:
                raise error("MATLAB:badEnd",
                            "'end' is not valid in a call to a function; it can only index arrays.")
            return end_value(value, position, count)

        return end_

    def visit_Paren(self, node: ast.Paren) -> Code:
        return self.expr(node.expr)

    # names -------------------------------------------------------------

    def visit_Name(self, node: ast.Name) -> Code:
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

            param.variable = name  # type: ignore[attr-defined]
            return param
        call = self.caller(name, node)

        def get(frame: Frame) -> Any:
            try:
                return frame.vars[name]
            except KeyError:
                return call(frame, [], 1)

        # a call site may read the variable itself, and run this code only when it is missing
        get.variable = name  # type: ignore[attr-defined]
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

    # operators ----------------------------------------------------------

    def visit_Unary(self, node: ast.Unary) -> Code:
        if _chain_length(node, ast.Unary, "operand") >= LONG_CHAIN:
            return self.prefix_chain(node)
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

    def visit_Postfix(self, node: ast.Postfix) -> Code:
        if _chain_length(node, ast.Postfix, "operand") >= LONG_CHAIN:
            return self.postfix_chain(node)
        operand = self.expr(node.operand)
        conjugate = node.op == "'"
        transpose = operators.transpose

        def tr(frame: Frame) -> Any:
            v = operand(frame)
            if type(v) is float:
                return v
            return transpose(v, conjugate)

        return tr

    def prefix_chain(self, node: ast.Unary) -> Code:
        """A long run of prefix operators, applied in a loop (innermost first)."""
        steps = []
        while type(node) is ast.Unary:
            steps.append(_PREFIX_STEPS[node.op])
            node = node.operand
        steps.reverse()
        operand = self.expr(node)

        def prefixes(frame: Frame) -> Any:
            v = operand(frame)
            for step in steps:
                v = step(v)
            return v

        return prefixes

    def postfix_chain(self, node: ast.Postfix) -> Code:
        """A long run of transposes (``x.'.'.'``), applied in a loop (innermost first)."""
        conjugates = []
        while type(node) is ast.Postfix:
            conjugates.append(node.op == "'")
            node = node.operand
        conjugates.reverse()
        operand = self.expr(node)
        transpose = operators.transpose

        def postfixes(frame: Frame) -> Any:
            v = operand(frame)
            if type(v) is float:
                return v
            for conjugate in conjugates:
                v = transpose(v, conjugate)
            return v

        return postfixes

    def binary_chain(self, node: ast.Binary) -> Code:
        """A long left-leaning run of binary operators (``a+b+c+...``), computed in a loop."""
        # Steps (op, code, constant, scalar, guard): a real double literal operand is kept as
        # its value, with no code (None); consecutive ones after the same operator that never
        # fails on two doubles (+, -, *) are one step with a list of them, folded in one call
        # on a double; && and || take code.  Made walking the chain from its end, then turned.
        steps: list[tuple] = []
        binary, number, scalar_op, guard_of = ast.Binary, ast.Number, SCALAR_OPS.get, SCALAR_GUARDS.get
        folded_op = None  # the operator of the last step made, when it holds a list of constants
        constants: list[float] = []
        push = constants.append
        while type(node) is binary:
            op, right = node.op, node.right
            node = node.left
            if type(right) is number and right.cls == "double":
                value = right.value
                if op == folded_op and type(value) is float:  # the common case first
                    push(value)
                    continue
                if op != "&&" and op != "||" and type(value) is not complex:
                    value = float(value)
                    if op in _FOLDED:
                        folded_op = op
                        constants = [value]
                        push = constants.append
                        steps.append((op, None, constants, scalar_op(op), None))
                        continue
                    steps.append((op, None, value, scalar_op(op), guard_of(op)))
                    folded_op = None
                    continue
            steps.append((op, right, None, scalar_op(op), guard_of(op)))
            folded_op = None
        while type(node) is ast.SumRun:  # its pairs: a step for each stretch of one operator
            for stretch in reversed(list(_ONE_OPERATOR.finditer(node.ops))):
                op = stretch.group()[0]
                steps.append((op, None, node.values[stretch.start():stretch.end()][::-1],
                              scalar_op(op), None))
            node = node.first
        first = self.expr(node)
        steps.reverse()
        for k, (op, right, constant, scalar, guard) in enumerate(steps):
            if type(constant) is list:
                constant.reverse()
            elif right is not None:
                steps[k] = (op, self.expr(right), None, scalar, guard)
        general = operators.binary

        def chain(frame: Frame) -> Any:
            v = first(frame)
            for op, right, constant, scalar, guard in steps:
                if op == "&&":
                    v = scalar_truth(v, op) and scalar_truth(right(frame), op)
                elif op == "||":
                    v = scalar_truth(v, op) or scalar_truth(right(frame), op)
                elif type(constant) is list:
                    if type(v) is float:  # double scalars inline, as visit_Binary computes them
                        v = fold(scalar, constant, v)
                    else:
                        for b in constant:
                            v = general(op, v, b) if type(v) is not float else scalar(v, b)
                else:
                    b = constant if constant is not None else right(frame)
                    # double scalars computed inline, as visit_Binary does
                    if scalar is not None and type(v) is float and type(b) is float \
                            and (guard is None or guard(v, b)):
                        try:
                            v = scalar(v, b)
                            continue
                        except (OverflowError, ZeroDivisionError):
                            pass
                    v = general(op, v, b)
            return v

        return chain

    def sum_chain(self, node: ast.Binary) -> Code | None:
        """``a + b - c + ...``: a left-leaning run of at least SUM_CHAIN ``+``/``-`` operators
        (and fewer than LONG_CHAIN) computed in one loop instead of a closure for each
        operator (None for a shorter run).  The operands are computed in the nested closures'
        order, and each step is what ``visit_Binary`` computes: Python's operator on two
        double scalars, ``operators.binary`` on anything else."""
        rights: list[tuple[str, ast.Node]] = []
        binary = ast.Binary
        while type(node) is binary and (node.op == "+" or node.op == "-"):
            rights.append((node.op, node.right))
            node = node.left
        if len(rights) < SUM_CHAIN:
            return None
        first = self.expr(node)  # compiled left to right, as the nested closures are
        rights.reverse()
        codes = tuple(self.expr(right) for _, right in rights)
        general = operators.binary
        if all(op == "+" for op, _ in rights):
            def sum_(frame: Frame) -> Any:
                v = first(frame)
                for code in codes:
                    b = code(frame)
                    if type(v) is float and type(b) is float:
                        v += b
                    else:
                        v = general("+", v, b)
                return v

            return sum_
        steps = tuple((op, code) for (op, _), code in zip(rights, codes, strict=True))

        def plus_minus(frame: Frame) -> Any:
            v = first(frame)
            for op, code in steps:
                b = code(frame)
                if type(v) is float and type(b) is float:
                    v = v + b if op == "+" else v - b
                else:
                    v = general(op, v, b)
            return v

        return plus_minus

    def visit_Binary(self, node: ast.Binary) -> Code:
        if _chain_length(node, ast.Binary, "left") >= LONG_CHAIN:
            return self.binary_chain(node)
        op = node.op
        if op == "+" or op == "-":
            chain = self.sum_chain(node)
            if chain is not None:
                return chain
        left = self.expr(node.left)
        right = self.expr(node.right)
        if op == "&&" or op == "||":
            return self.short_circuit(op, left, right)
        if op not in SCALAR_OPS:
            general = operators.binary
            return lambda frame: general(op, left(frame), right(frame))
        return binary_code(op, left, right, self.plain_variable(node.left),
                           self.plain_variable(node.right), _double_constant(node.left),
                           _double_constant(node.right))

    def plain_variable(self, node: ast.Node) -> str | None:
        """The name, if ``node`` reads an ordinary variable (or calls a function)."""
        if type(node) is ast.Name and node.name not in self.special_names \
                and node.name not in ("nargin", "nargout"):
            return node.name
        return None

    def short_circuit(self, op: str, left: Code, right: Code) -> Code:
        if op == "&&":
            def and_(frame: Frame) -> bool:
                return scalar_truth(left(frame), "&&") and scalar_truth(right(frame), "&&")
            return and_

        def or_(frame: Frame) -> bool:
            return scalar_truth(left(frame), "||") or scalar_truth(right(frame), "||")
        return or_

    def visit_Range(self, node: ast.Range) -> Code:
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
            if len(codes) == 2:  # (list displays: quicker than a comprehension)
                first, second = codes
                return lambda frame: [first(frame), second(frame)]
            if len(codes) == 3:
                first, second, third = codes
                return lambda frame: [first(frame), second(frame), third(frame)]
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

    def visit_SumRun(self, node: ast.SumRun) -> Code:
        return self.binary_chain(node)  # type: ignore[arg-type]

    def visit_NumericMatrix(self, node: ast.NumericMatrix) -> Code:
        """A big literal of plain numbers: one double matrix, made once."""
        rows = node.values
        if len({len(r) for r in rows}) != 1:  # MATLAB's concatenation error, at run time
            return self.visit_Matrix(node.lower())
        value = np.array(rows, dtype=float)
        # a copy each time: the value is the program's, stores into x = [...] must not reach it
        return lambda frame: value.copy()

    def visit_Matrix(self, node: ast.Matrix, variables: bool = True) -> Code:
        literal = self._literal_row(node.rows[0]) if len(node.rows) == 1 else None
        if literal is not None:
            return literal
        of_variables = self._matrix_of_variables(node) if variables else None
        if of_variables is not None:
            return of_variables
        rows = [self.elements(r) for r in node.rows]
        if not rows:
            return lambda frame: np.zeros((0, 0))
        if len(rows) == 1:
            row = rows[0]

            def row_matrix(frame: Frame) -> Any:
                values = row(frame)
                for v in values:  # (a loop: quicker than all() over a generator)
                    if type(v) is not float:
                        break
                else:
                    return np.array([values]) if len(values) != 1 else values[0]
                joined = short_double_row(values)
                if joined is None:
                    joined = joined_arrays(values, 1)
                return joined if joined is not None else concatenate([values])

            return row_matrix

        def full(frame: Frame) -> Any:
            return concatenate([r(frame) for r in rows])

        return full

    def _matrix_of_variables(self, node: ast.Matrix) -> Code | None:
        """``[a, b, c]`` or ``[a; b]``: two or more names, one row or one column.  When all
        are variables holding non-empty arrays of one class (double, char, logical) that
        fit, joined at once; anything else (a function's name, other classes, scalars)
        takes the general code."""
        rows = node.rows
        if len(rows) == 1:
            nodes, axis = rows[0], 1
        elif all(len(r) == 1 for r in rows):
            nodes, axis = [r[0] for r in rows], 0
        else:
            return None
        names = [self.plain_variable(n) for n in nodes]
        if len(names) < 2 or None in names:
            return None
        general = self.visit_Matrix(node, variables=False)
        if len(names) == 2:
            first, second = names

            def pair(frame: Frame) -> Any:
                vars = frame.vars
                a, b = vars.get(first), vars.get(second)
                if type(a) is np.ndarray and type(b) is np.ndarray:
                    joined = joined_pair(a, b, axis)
                    if joined is not None:
                        return joined
                return general(frame)

            return pair
        if len(names) == 3:  # (a list display: quicker than a comprehension over the names)
            first, second, third = names

            def triple(frame: Frame) -> Any:
                get = frame.vars.get
                joined = joined_arrays([get(first), get(second), get(third)], axis)
                return joined if joined is not None else general(frame)

            return triple

        def several(frame: Frame) -> Any:
            vars = frame.vars
            joined = joined_arrays([vars.get(n) for n in names], axis)
            return joined if joined is not None else general(frame)

        return several

    def _literal_row(self, nodes: list[ast.Node]) -> Code | None:
        """``[1 3]``, a row of two or more double literals: made once, copied each time
        (stores into ``x = [...]`` must not reach it); ``literal_array`` gives it to index
        sites that read it without copying."""
        if len(nodes) < 2 or any(self.may_expand(n) for n in nodes):
            return None
        constants = [constant_of(self.expr(n)) for n in nodes]
        if not all(type(v) is float for v in constants):
            return None
        value = np.array([constants])
        value.flags.writeable = False

        def literal_row(frame: Frame) -> Any:
            return value.copy()

        literal_row.literal_array = value  # type: ignore[attr-defined]
        return literal_row

    def visit_Cell(self, node: ast.Cell) -> Code:
        rows = [self.elements(r) for r in node.rows]
        return lambda frame: make_cell([r(frame) for r in rows])

    # handles ------------------------------------------------------------

    def visit_FuncHandle(self, node: ast.FuncHandle) -> Code:
        name = node.name
        unit = self.unit

        def make(frame: Frame) -> FunctionHandle:
            target = unit.local(name) if unit is not None else None
            scope = frame if target is not None and target.parent is not None else None
            return FunctionHandle(name=name, target=target, scope=scope)

        return make

    def visit_Lambda(self, node: ast.Lambda) -> Code:
        params = node.params
        free = sorted(self.facts.free_names(node))
        inner = type(self)(self.interp, self.unit)
        inner.facts = self.facts
        body_calls = inner.expr_outputs(node.body)

        def make(frame: Frame) -> FunctionHandle:
            vars = frame.vars
            captured = {n: vars[n] for n in free if n in vars}
            # no source text: the tree gives it when asked (func2str, display), and
            # writing it out here for every level of nested functions is quadratic
            return FunctionHandle(params=params, body=body_calls, captured=captured,
                                  target=self.unit, node=node)

        return make
