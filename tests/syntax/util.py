"""Helpers for front-end tests: parse a snippet and show its tree as s-expressions."""

from __future__ import annotations

import pytest

from mlang.errors import MatlabSyntaxError
from mlang.syntax import parse
from mlang.syntax.ast import Program, dump


def program(src: str, variables: frozenset[str] = frozenset()) -> Program:
    return parse(src, "test.m", variables)


def tree(src: str, variables: frozenset[str] = frozenset()) -> str:
    """The dump of each top-level statement and function of ``src``, one per line."""
    prog = program(src, variables)
    return "\n".join(dump(node) for node in [*prog.body, *prog.functions])


def syntax_error(src: str) -> MatlabSyntaxError:
    """The syntax error ``src`` raises (fails the test if it parses)."""
    with pytest.raises(MatlabSyntaxError) as info:
        parse(src, "test.m")
    return info.value
