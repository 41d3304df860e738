"""The grammar's shift/reduce conflicts are pinned: a new one must fail CI.

Every known conflict is a unary-or-binary sign after a complete operand in a
statement header, e.g. ``if x -1``: shifting reads ``x - 1`` (the expression
continues), which is how MATLAB reads it outside brackets.
"""

from __future__ import annotations

import io
import logging
import re
from collections import Counter

from lark import logger as lark_logger

from mlang.syntax.make_tables import make_lark

# (terminal, rule); Lark's generated helper rules (e.g. ``__opseq_star_12``) are
# written ``<star>`` so that numbering changes elsewhere do not matter.
EXPECTED = Counter({
    (sign, rule): 1
    for sign in ("PLUS", "MINUS")
    for rule in ("opseq : atom", "opseq : atom <star>", "opseq : <star> atom",
                 "opseq : <star> atom <star>")
})


def grammar_conflicts() -> tuple[Counter, str]:
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    old_level = lark_logger.level
    lark_logger.addHandler(handler)
    lark_logger.setLevel(logging.DEBUG)
    try:
        make_lark(debug=True)
    finally:
        lark_logger.removeHandler(handler)
        lark_logger.setLevel(old_level)
    log = buffer.getvalue()
    found = Counter(
        (m.group(1), re.sub(r"__\w+?_star_\d+", "<star>", m.group(3).strip()))
        for m in re.finditer(r"Shift/Reduce conflict for terminal (\w+): \(resolving as (\w+)\)\n"
                             r"\s*\* <([^>]*)>", log)
    )
    return found, log


def test_conflict_set_is_pinned():
    found, log = grammar_conflicts()
    assert "Reduce/Reduce" not in log
    assert "resolving as reduce" not in log
    assert found == EXPECTED, log


def test_conflicts_resolve_as_matlab_reads_them():
    from tests.syntax.util import tree

    assert tree("if x -1\n y = 1; end") == "(if ((- x 1) (assign y 1 ;)))"
    assert tree("while n +1, n = 0; end") == "(while (+ n 1) (assign n 0 ;))"
