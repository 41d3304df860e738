"""The compiler's table from node type to compiling method knows every expression and
statement, and each entry compiles real nodes to code."""

from __future__ import annotations

import io

from mlang.evaluation.compiler import Compiler
from mlang.evaluation.functions import CompiledUnit
from mlang.evaluation.interpreter import Interpreter
from mlang.syntax import ast
from tests.syntax.every_node import every_node_program


def test_compiler_has_a_method_for_every_statement():
    assert set(ast.STATEMENT_TYPES) <= set(Compiler.visitors)


def test_compiler_has_a_method_for_every_expression_except_those_compiled_by_their_parent():
    assert set(Compiler.COMPILED_BY_PARENT) <= set(ast.EXPRESSION_TYPES)
    compiled_alone = set(ast.EXPRESSION_TYPES) - set(Compiler.COMPILED_BY_PARENT)
    assert compiled_alone <= set(Compiler.visitors)


def test_compiler_table_holds_only_expressions_and_statements():
    known = set(ast.EXPRESSION_TYPES) | set(ast.STATEMENT_TYPES) | set(ast.LOWERED_TYPES)
    assert set(Compiler.visitors) <= known
    assert not set(Compiler.visitors) & set(Compiler.COMPILED_BY_PARENT)


def test_every_statement_and_expression_of_the_sample_compiles_to_code():
    program = every_node_program()
    compiler = Compiler(Interpreter(stdout=io.StringIO()), CompiledUnit(program, "every_node.m"))
    compiled = set()
    for node in ast.walk(program.functions[0]):
        t = type(node)
        if t in ast.STATEMENT_TYPES:
            assert callable(compiler.statement(node))
        elif t in ast.EXPRESSION_TYPES and t not in Compiler.COMPILED_BY_PARENT \
                or t in ast.LOWERED_TYPES:
            assert callable(compiler.expr(node))
        else:
            continue
        compiled.add(t)
    assert compiled == set(Compiler.visitors)
