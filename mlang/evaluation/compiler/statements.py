"""Compiling statements and blocks: expression statements, commands, control flow,
declarations.

A block's runner records the line of the statement that failed (zero cost
until something fails); ``break``, ``continue`` and ``return`` travel as
Python exceptions; ``for k = a:b`` over Python floats runs the body's
statements inline.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import MatlabError, error
from mlang.evaluation.compiler import loop_source
from mlang.evaluation.compiler.runtime import MISSING, Code, located, run_statements, truth
from mlang.evaluation.frame import BreakLoop, ContinueLoop, Frame, ReturnFromFunction
from mlang.syntax import ast
from mlang.values import indexing, operators
from mlang.values.cell import Cell
from mlang.values.core import EMPTY, char_row, is_text, to_str
from mlang.values.objects import kind_of
from mlang.values.ranges import colon_range, double_range_length
from mlang.values.string import StringArray
from mlang.values.struct import Struct


class StatementCompiler:
    """The part of ``Compiler`` that compiles statements (a mixin: it calls the other parts)."""

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

    def visit_ExprStmt(self, node: ast.ExprStmt) -> Code:
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
        method_call = type(expr) is ast.Index and not expr.braces and type(expr.base) is ast.Field
        if self.may_expand(expr) or method_call:  # obj.method(...) may return nothing
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

    def visit_Command(self, node: ast.Command) -> Code:
        if node.name == "!":
            return self.shell_escape(node)
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

    def shell_escape(self, node: ast.Command) -> Code:
        """``!command``: system(command), its output shown, its status not."""
        args = [char_row(node.args[0] if node.args else "")]
        interp = self.interp

        def shell(frame: Frame) -> None:
            target = interp.resolve("system")
            if target is None:
                raise error("MATLAB:UndefinedFunction", "Shell escapes are not available.")
            interp.invoke(target, list(args), 0, frame)

        return shell

    # control flow ----------------------------------------------------------

    def visit_If(self, node: ast.If) -> Code:
        clauses = [(self.expr(c), self.block(b)) for c, b in node.clauses]
        orelse = self.block(node.orelse) if node.orelse is not None else None
        if len(clauses) == 1:
            cond, body = clauses[0]

            def if_one(frame: Frame) -> None:
                c = cond(frame)
                if c is True or (c is not False and truth(c)):
                    body(frame)
                elif orelse is not None:
                    orelse(frame)

            return if_one

        def if_many(frame: Frame) -> None:
            for cond, body in clauses:
                c = cond(frame)
                if c is True or (c is not False and truth(c)):
                    body(frame)
                    return
            if orelse is not None:
                orelse(frame)

        return if_many

    def visit_While(self, node: ast.While) -> Code:
        written = loop_source.while_loop(self, node)
        if written is not None:
            return written
        cond = self.expr(node.cond)
        body = self.block(node.body)

        def while_loop(frame: Frame) -> None:
            while True:
                c = cond(frame)
                if not (c is True or (c is not False and truth(c))):
                    return
                try:
                    body(frame)
                except BreakLoop:
                    return
                except ContinueLoop:
                    continue

        return while_loop

    def visit_For(self, node: ast.For) -> Code:
        var = node.var.name  # type: ignore[attr-defined]
        codes = [self.statement(st) for st in node.body]
        lines = [st.line for st in node.body]
        body = self.block_of(codes, lines)
        store = self.store(node.var)
        it = node.iterable
        if type(it) is ast.Range and var not in self.special_names:
            start, step, stop, other = self.for_range_parts(node, store, body)
            written = loop_source.range_loop(self, node, var)
            if written is not None:
                def for_written(frame: Frame) -> None:
                    a, s, b = start(frame), step(frame), stop(frame)
                    n = double_range_length(a, s, b)
                    if n is None:
                        other(frame, a, s, b)
                    elif n <= 0:
                        frame.vars[var] = np.zeros((1, 0))
                    else:
                        written(frame, a, s, n)

                return for_written

            def for_range(frame: Frame) -> None:
                a, s, b = start(frame), step(frame), stop(frame)
                n = double_range_length(a, s, b)
                if n is not None:
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
                other(frame, a, s, b)

            return for_range
        iterable = self.expr(it)
        return lambda frame: _for_values(frame, iterable(frame), store, body, var)

    def for_range_parts(self, node: ast.For, store: Callable | None = None, body: Code | None = None
                        ) -> tuple[Code, Code, Code, Callable[[Frame, Any, Any, Any], None]]:
        """The code of ``for var = a:s:b``'s ends and step, and the loop over a range of
        anything but finite double scalars given them (``other(frame, a, s, b)``)."""
        it = node.iterable
        var = node.var.name  # type: ignore[attr-defined]
        start = self.expr(it.start)
        step = self.expr(it.step) if it.step is not None else (lambda frame: 1.0)
        stop = self.expr(it.stop)
        if store is None or body is None:
            store = self.store(node.var)
            body = self.block_of([self.statement(st) for st in node.body], [st.line for st in node.body])

        def other(frame: Frame, a: Any, s: Any, b: Any) -> None:
            _for_values(frame, colon_range(a, s, b), store, body, var)

        return start, step, stop, other

    def visit_Switch(self, node: ast.Switch) -> Code:
        subject = self.expr(node.subject)
        cases = [(self.expr(v), self.block(b), _literal_case(v)) for v, b in node.cases]
        otherwise = self.block(node.otherwise) if node.otherwise is not None else None

        def switch(frame: Frame) -> None:
            s = subject(frame)
            # a double scalar, a char array or a string scalar is looked up in the literal cases' sets:
            # what _case_matches gives, without building and comparing the case values
            kind = type(s)
            if kind is float:
                key, slot = s, 1
            elif (kind is np.ndarray and s.dtype.kind == "V") or (kind is StringArray and s.data.size == 1):
                key, slot = to_str(s), 0
            else:
                key = slot = None
            for value, body, literal in cases:
                if literal is not None and slot is not None:
                    matched = key in literal[slot]
                else:
                    matched = _case_matches(s, value(frame))
                if matched:
                    body(frame)
                    return
            if otherwise is not None:
                otherwise(frame)

        return switch

    def visit_Try(self, node: ast.Try) -> Code:
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

    def visit_Break(self, node: ast.Break) -> Code:
        def brk(frame: Frame) -> None:
            raise BreakLoop

        return brk

    def visit_Continue(self, node: ast.Continue) -> Code:
        def cont(frame: Frame) -> None:
            raise ContinueLoop

        return cont

    def visit_Return(self, node: ast.Return) -> Code:
        def ret(frame: Frame) -> None:
            raise ReturnFromFunction

        return ret

    # declarations ----------------------------------------------------------

    def visit_Global(self, node: ast.Global) -> Code:
        names = node.names
        interp = self.interp

        def declare(frame: Frame) -> None:
            for n in names:
                if n not in interp.globals:
                    interp.globals[n] = frame.vars.pop(n, EMPTY) if n in frame.vars else EMPTY
                frame.vars.pop(n, None)
                frame.global_names.add(n)

        return declare

    def visit_Persistent(self, node: ast.Persistent) -> Code:
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
        if elems.size == 0:
            return
        cols = elems.reshape(elems.shape[0], -1, order="F")
        columns = [Struct(list(values.fields), cols[:, j:j + 1].copy()) for j in range(cols.shape[1])]
    elif t is StringArray:
        data = values.data
        if data.size == 0:
            return
        cols = data.reshape(data.shape[0], -1, order="F")
        columns = [StringArray(cols[:, j:j + 1].copy()) for j in range(cols.shape[1])]
    else:
        kind = kind_of(values)
        found = None if kind is None else kind.columns(values)
        columns = [values] if found is None else found
    for v in columns:
        store(frame, v)
        try:
            body(frame)
        except BreakLoop:
            return
        except ContinueLoop:
            continue


def _literal_case(node: ast.Node) -> tuple[frozenset[str], frozenset[float]] | None:
    """The texts and the doubles a case of literals ('abc', "abc", 3, or a cell of them)
    matches, or None for any other case expression (evaluated when reached)."""
    if type(node) is ast.Cell:
        if len({len(row) for row in node.rows}) > 1:  # rows that do not join: the error
            return None
        items = [e for row in node.rows for e in row]
    else:
        items = [node]
    texts, numbers = set(), set()
    for e in items:
        kind = type(e)
        if kind is ast.Char:
            texts.add(to_str(char_row(e.value)))
        elif kind is ast.String:
            texts.add(e.value)
        elif kind is ast.Number and e.cls == "double" and type(e.value) is not complex:
            numbers.add(float(e.value))
        else:
            return None
    return frozenset(texts), frozenset(numbers)


def _case_matches(subject: Any, case: Any) -> bool:
    if type(case) is Cell:
        return any(_case_matches(subject, c) for c in case.values())

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
