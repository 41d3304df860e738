"""The node classes: equality without positions, repr, defaults, pickling."""

from __future__ import annotations

import copy
import pickle

import pytest

from mlang.syntax import ast, parse


def test_equality_ignores_positions_and_number_text() -> None:
    assert ast.Number(1.0, text="1", line=3, col=4) == ast.Number(1.0, text="1.0")
    assert ast.Number(1.0) != ast.Number(1.0, "int8")
    assert ast.Name("a") != ast.Char("a")
    assert ast.Colon(line=1) == ast.Colon(line=2)
    assert ast.Break() != ast.Continue()
    nan = float("nan")
    assert ast.Number(nan) == ast.Number(nan)  # the same object, as with tuples and lists
    assert ast.Number(nan) != ast.Number(float("nan"))


def test_repr_shows_the_compared_fields() -> None:
    assert repr(ast.Number(1.0, text="1", line=2)) == "Number(value=1.0, cls='double')"
    assert repr(ast.Binary("+", ast.Name("a"), ast.End())) == \
        "Binary(op='+', left=Name(name='a'), right=End())"


def test_nodes_are_unhashable_and_defaults_are_fresh_lists() -> None:
    with pytest.raises(TypeError):
        hash(ast.Name("a"))
    a, b = ast.Function("f", [], [], []), ast.Function("g", [], [], [])
    assert a.functions == [] and a.functions is not b.functions
    assert ast.ArgumentSpec(["x"]).validators == []
    assert ast.Function("f", [], [], []).has_end is True


def test_keywords_and_positions() -> None:
    node = ast.Index(ast.Name("x"), [], braces=True, line=2, col=3, file="f.m")
    assert (node.braces, node.line, node.col, node.file) == (True, 2, 3, "f.m")
    with pytest.raises(TypeError):
        ast.Name("a", 1)  # type: ignore[call-arg]  # positions are keyword-only
    with pytest.raises(AttributeError):
        ast.Name("a").other = 1  # type: ignore[attr-defined]


def test_pickle_and_copy_keep_every_field_and_position() -> None:
    tree = parse("function y = f(x)\n  y = [1 -2; 3 4]' + x(end).a{2};\nend\n", "f.m")
    for clone in (pickle.loads(pickle.dumps(tree)), copy.deepcopy(tree)):
        assert clone == tree
        pairs = zip(ast.walk(clone), ast.walk(tree), strict=True)
        assert all((a.line, a.col, a.file) == (b.line, b.col, b.file) for a, b in pairs)
