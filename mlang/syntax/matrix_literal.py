"""A short way through the front end for a big ``[...]`` holding only decimal numbers.

Big numeric literals (a table pasted into a script, a generated data file) are
most of their file's tokens.  When everything between ``[`` and ``]`` is real
decimal numbers, each with at most one sign written right against it, separated
by blanks, single commas between two numbers, ``;`` and newlines (with ``%``
comments and ``...`` continuations), and there are at least ``MIN_ELEMENTS`` of
them, the tokenizer reads the values here and hands the grammar one token, which
becomes an ``ast.NumericMatrix``.  Its ``lower()`` gives the ``Matrix`` the general
path makes, with the same nodes and positions (``-2`` is ``Unary('-', Number(2))``).

Anything else (``[1 - 2]``, ``[1-2]``, names, ``3i``, ``0xFF``, ``1'``, leading or
doubled commas, block comments, a missing ``]``) returns None, and the general
path tokenizes the bracket with all of MATLAB's rules.
"""

from __future__ import annotations

import re

from mlang.syntax import ast

# Smaller literals keep the general path's Matrix of Number nodes.
MIN_ELEMENTS = 32

_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_ELEMENT = re.compile(rf"([+-]?)({_NUMBER})")
# a stretch of one row on one line: elements apart by blanks or by one comma
_SEGMENT = re.compile(
    rf"[ \t]*(?:[+-]?{_NUMBER}(?:(?:[ \t]*,[ \t]*|[ \t]+)[+-]?{_NUMBER})*[ \t]*)?")
# characters that no plain number, blank or separator contains; float() reads the rest,
# and within these characters its grammar is _NUMBER with an optional sign
_OTHER = re.compile(r"[^0-9.eE+\- \t,;]")


def scan(text: str, start: int) -> tuple[list[list[float]], int, int] | None:
    """The rows of values of the literal whose ``[`` is at ``start``, the index just past
    its ``]`` and the number of newlines inside; None when it is not for this path."""
    rows: list[list[float]] = []
    row: list[float] = []
    pos = start + 1
    n = len(text)
    newlines = 0
    other = _OTHER.search
    count = 0
    while True:
        nl = text.find("\n", pos)
        end_of_line = nl if nl >= 0 else n
        code_end = end_of_line
        percent = text.find("%", pos, end_of_line)
        if percent >= 0:
            if text[percent + 1: percent + 2] in ("{", "}"):
                return None  # a block comment's own rules
            code_end = percent
        continued = False
        dots = text.find("...", pos, code_end)
        if dots >= 0:
            if dots > pos and text[dots - 1] not in " \t":
                return None  # '1...' and ',...' read differently
            code_end = dots
            continued = True
        close = text.find("]", pos, code_end)
        if close >= 0:
            code_end = close
        if other(text, pos, code_end) is not None:
            return None
        segments = text[pos:code_end].split(";")
        last = len(segments) - 1
        for k, segment in enumerate(segments):
            if "," in segment:
                if _SEGMENT.fullmatch(segment) is None:
                    return None
                segment = segment.replace(",", " ")
            try:
                row.extend(map(float, segment.split()))
            except ValueError:  # '1-2', '1 - 2', 'e5', ...
                return None
            if row and (k < last or close < 0 and not continued):  # a ';' or a line ends the row
                rows.append(row)
                count += len(row)
                row = []
        if close >= 0:
            if row:
                rows.append(row)
                count += len(row)
            if count < MIN_ELEMENTS:
                return None
            return rows, close + 1, newlines
        if nl < 0:
            return None  # no ']': the general path reports it
        newlines += 1
        pos = nl + 1


def matrix_rows(source: str, line: int, col: int, file: str) -> list[list[ast.Expr]]:
    """The rows of Number (and signed: Unary) nodes of ``source``, a literal that ``scan``
    accepted whose ``[`` is at ``line``, ``col``: the nodes of the general path."""
    rows: list[list[ast.Expr]] = []
    row: list[ast.Expr] = []
    line_start = 1 - col  # where the '[' line would start, were source all of the text
    pos = 1
    while True:
        nl = source.find("\n", pos)
        end_of_line = nl if nl >= 0 else len(source)
        code_end = end_of_line
        percent = source.find("%", pos, end_of_line)
        if percent >= 0:
            code_end = percent
        dots = source.find("...", pos, code_end)
        continued = dots >= 0
        if continued:
            code_end = dots
        close = source.find("]", pos, code_end)
        if close >= 0:
            code_end = close
        seg_start = pos
        while True:
            semi = source.find(";", seg_start, code_end)
            seg_end = semi if semi >= 0 else code_end
            for m in _ELEMENT.finditer(source, seg_start, seg_end):
                sign, digits = m.groups()
                at = m.start(2)
                number: ast.Expr = ast.Number(float(digits), "double", text=digits, line=line,
                                              col=at - line_start + 1, file=file)
                if sign:
                    number = ast.Unary(sign, number, line=line, col=at - line_start, file=file)
                row.append(number)
            if semi < 0:
                break
            if row:
                rows.append(row)
                row = []
            seg_start = semi + 1
        if close >= 0 or nl < 0:
            if row:
                rows.append(row)
            return rows
        if not continued and row:
            rows.append(row)
            row = []
        line += 1
        line_start = nl + 1
        pos = nl + 1
