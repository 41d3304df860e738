"""The AST walker (``children``, ``walk``), the node-type lists, and the per-node tables
of the front end: each must know every node type."""

from __future__ import annotations

import re

import pytest

from mlang.syntax import ast, parse, sexpr
from mlang.syntax.unparse import ExpressionWriter, _Writer
from tests.syntax.every_node import every_node_program

# node classes that are neither an expression nor a statement
OTHER_NODES = {ast.ArgumentSpec, ast.ArgumentsBlock, ast.Function, ast.Program}


def expression(src: str) -> ast.Node:
    return parse(f"x = {src};").body[0].value


def names(nodes) -> list[str]:
    return [type(n).__name__ for n in nodes]


def nodes_anywhere_in(value) -> list[ast.Node]:
    """The outermost nodes in a field value, found without the walker's field lists."""
    if isinstance(value, ast.Node):
        return [value]
    if isinstance(value, list | tuple):
        return [n for item in value for n in nodes_anywhere_in(item)]
    return []


# ------------------------------------------------------------------ node types


def test_node_types_are_every_node_class_of_the_module():
    classes = {v for v in vars(ast).values()
               if isinstance(v, type) and issubclass(v, ast.Node) and v is not ast.Node}
    assert set(ast.NODE_TYPES) == classes
    assert len(ast.NODE_TYPES) == len(classes)


def test_every_node_type_is_an_expression_a_statement_or_a_known_other():
    expressions, statements = set(ast.EXPRESSION_TYPES), set(ast.STATEMENT_TYPES)
    assert not expressions & statements
    lowered = set(ast.LOWERED_TYPES)
    assert not lowered & (expressions | statements | OTHER_NODES)
    assert expressions | statements | OTHER_NODES | lowered == set(ast.NODE_TYPES)


def test_every_node_type_occurs_in_the_sample_file():
    seen = {type(n) for n in ast.walk(every_node_program())}
    assert seen == set(ast.NODE_TYPES)


# ---------------------------------------------------------------------- children


def test_children_of_a_binary_operation_are_its_operands_in_order():
    node = expression("a + b * c")
    left, right = ast.children(node)
    assert left == ast.Name("a")
    assert right == ast.Binary("*", ast.Name("b"), ast.Name("c"))


def test_children_flatten_matrix_rows_row_by_row():
    node = expression("[1, 2; 3, 4]")
    assert [n.value for n in ast.children(node)] == [1, 2, 3, 4]


def test_children_of_an_if_are_conditions_then_bodies_then_else():
    node = parse("if a\n b\nelseif c\n d\nelse\n e\nend").body[0]
    assert names(ast.children(node)) == ["Name", "ExprStmt", "Name", "ExprStmt", "ExprStmt"]
    assert [n.name for n in ast.children(node) if type(n) is ast.Name] == ["a", "c"]


def test_children_skip_missing_optional_parts():
    assert names(ast.children(expression("1:3"))) == ["Number", "Number"]
    assert names(ast.children(expression("1:2:3"))) == ["Number", "Number", "Number"]


def test_leaves_have_no_children():
    for src in ("1", "'a'", '"a"', "a", "@sin"):
        assert list(ast.children(expression(src))) == []


def test_children_of_a_function_are_its_statements_nested_functions_and_arguments():
    fn = every_node_program().functions[0]
    kids = list(ast.children(fn))
    assert kids[:len(fn.body)] == fn.body
    assert kids[len(fn.body):] == [*fn.functions, *fn.arguments]


def test_children_find_every_node_held_in_any_field():
    """Compares ``children`` with a search of every field of every node: a field
    that holds nodes but is missing from the walker's field list fails here."""
    for node in ast.walk(every_node_program()):
        expected = [child for name in type(node).__slots__
                    for child in nodes_anywhere_in(getattr(node, name))]
        found = list(ast.children(node))
        assert len(found) == len(expected), type(node).__name__
        assert all(a is b for a, b in zip(found, expected, strict=True)), type(node).__name__


def test_child_fields_are_the_fields_annotated_with_nodes():
    node_words = {t.__name__ for t in ast.NODE_TYPES} | {"Expr", "Stmt"}
    for cls in ast.NODE_TYPES:
        annotated = [name for name in cls.__slots__
                     if node_words & set(re.findall(r"\w+", cls.__annotations__[name]))]
        assert list(ast.CHILD_FIELDS[cls]) == annotated, cls.__name__


# -------------------------------------------------------------------------- walk


def test_walk_is_preorder_and_starts_with_the_node_itself():
    node = parse("x = f(a, b{end});").body[0]
    assert names(ast.walk(node)) == [
        "Assign", "Name", "Index", "Name", "Name", "Index", "Name", "End"]
    walked = list(ast.walk(node))
    assert walked[0] is node
    assert [n.name for n in walked if type(n) is ast.Name] == ["x", "f", "a", "b"]


def test_walk_of_a_leaf_is_the_leaf():
    leaf = ast.Name("a")
    assert list(ast.walk(leaf)) == [leaf]


def test_walk_reaches_into_lambdas_and_nested_functions():
    program = every_node_program()
    walked = list(ast.walk(program))
    assert program.functions[0].functions[0] in walked
    lam = next(n for n in walked if type(n) is ast.Lambda)
    assert [n.name for n in ast.walk(lam) if type(n) is ast.Name] == ["t", "a"]


def test_walk_visits_each_node_once():
    walked = list(ast.walk(every_node_program()))
    assert len({id(n) for n in walked}) == len(walked)


# --------------------------------------------------------------- per-node tables


def test_expression_writer_has_a_method_for_every_expression():
    assert set(ExpressionWriter.visitors) == set(ast.EXPRESSION_TYPES)


def test_statement_writer_has_a_method_for_every_other_node():
    assert set(_Writer.visitors) == (set(ast.NODE_TYPES) - set(ast.EXPRESSION_TYPES)
                                     - set(ast.LOWERED_TYPES))


def test_dump_has_an_entry_for_every_node():
    assert set(sexpr.SExpression.visitors) == set(ast.NODE_TYPES)
    for node in ast.walk(every_node_program()):
        assert ast.dump(node)


def test_visitor_rejects_a_method_for_a_node_type_that_does_not_exist():
    with pytest.raises(TypeError, match="Nmae"):
        type("Misspelt", (ast.Visitor,), {"visit_Nmae": lambda self, node: None})


def test_visitor_dispatches_on_the_node_class_and_reports_a_missing_method():
    class Kinds(ast.Visitor):
        def visit_Name(self, node: ast.Name) -> str:
            return "name " + node.name

        def visit_Number(self, node: ast.Number) -> str:
            return "number"

        visit_Char = visit_Number

    kinds = Kinds()
    assert set(Kinds.visitors) == {ast.Name, ast.Number, ast.Char}
    assert kinds.visit(ast.Name("q")) == "name q"
    assert kinds.visit(ast.Char("c")) == "number"
    with pytest.raises(TypeError, match="visit_Colon"):
        kinds.visit(ast.Colon())
