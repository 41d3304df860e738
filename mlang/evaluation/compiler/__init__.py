"""AST → Python closures, compiled once per function and run many times.

Every node is turned into a closure taking the running ``Frame``; node types
are dispatched here, at compile time, never while the program runs.  Hot
paths are inlined: double scalars are Python floats and scalar arithmetic on
them is plain Python; ``x(i) = v`` writes in place when the array is not
shared; ``for k = a:b`` loops over Python floats without building the range.

Errors: a block's runner records the line of the statement that failed
(zero cost until something fails).

``Compiler`` is put together from one part per kind of node, each in its own
module: ``expressions``, ``calls_and_indexing``, ``assignment``,
``statements``; ``runtime`` holds what the compiled code shares while it runs,
``facts`` what compiling asks about whole subtrees (answered once per node).
"""

from __future__ import annotations

from typing import Any

from mlang.evaluation.compiler.assignment import AssignmentCompiler
from mlang.evaluation.compiler.calls_and_indexing import ReferenceCompiler
from mlang.evaluation.compiler.expressions import ExpressionCompiler
from mlang.evaluation.compiler.facts import TreeFacts
from mlang.evaluation.compiler.runtime import Code
from mlang.evaluation.compiler.statements import StatementCompiler
from mlang.syntax import ast


class Compiler(StatementCompiler, AssignmentCompiler, ReferenceCompiler, ExpressionCompiler,
               ast.Visitor):
    """Compiles the code of one scope (a script, a function body, an anonymous function).

    Each node type has its ``visit_<Node>`` method in one of the parts; the
    table from node type to method is built once, for the class.
    """

    # Nodes that are no value on their own: `~` is compiled by the output list that
    # holds it, name=value by the argument list.
    COMPILED_BY_PARENT = (ast.Tilde, ast.NamedArg)

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
        self.facts = TreeFacts()  # shared with the compilers of anonymous functions inside
        self._statements: dict[int, tuple[ast.Node, Code]] = {}

    def expr(self, node: ast.Node) -> Code:
        """Code computing the value of an expression."""
        return self.visit(node)

    def statement(self, node: ast.Node) -> Code:
        """Code running one statement, compiled once: a loop written as source and the
        general path around it both ask for the statements inside."""
        found = self._statements.get(id(node))
        if found is not None:
            return found[1]
        code = self.visit(node)
        self._statements[id(node)] = (node, code)  # (the node kept: its id stays its own)
        return code


__all__ = ["Code", "Compiler"]
