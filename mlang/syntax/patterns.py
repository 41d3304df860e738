"""The tokenizer's regular expressions, and its look-ahead for ``[a, b] = ...``."""

from __future__ import annotations

import re

_INT_SUFFIX = r"(?:[su](?:8|16|32|64))?"
TOKEN = re.compile(
    r"(?P<ws>[ \t]+)"
    r"|(?P<nl>\n)"
    r"|(?P<cont>\.\.\.[^\n]*\n?)"
    r"|(?P<comment>%[^\n]*)"
    rf"|(?P<num>0[xX][0-9A-Fa-f]+{_INT_SUFFIX}|0[bB][01]+{_INT_SUFFIX}"
    r"|(?:\d+(?:\.(?![*/\\^'])\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ijIJ]?)"
    r"|(?P<name>[A-Za-z][A-Za-z0-9_]*)"
    r"|(?P<op>\.\*|\./|\.\\|\.\^|\.'|==|~=|<=|>=|&&|\|\||[-+*/\\^<>&|~:=@.])"
    r"|(?P<punct>[,;()\[\]{}])"
    r"|(?P<quote>')"
    r'|(?P<dquote>")'
)
# a binary operator (not '=', '~', '@' or a transpose) then a plain decimal number that
# nothing continues: the tokenizer reads runs of these in one go
OPERATOR_NUMBER = re.compile(
    r"(\.\*|\./|\.\\|\.\^|==|~=|<=|>=|&&|\|\||[-+*/\\^<>&|:])"
    r"((?:\d+(?:\.(?![*/\\^'])\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ijIJ]?)"
    r"(?=[ \t\n+\-*/\\^)\]},;:=<>&|~'\"%]|\Z)"
)
CHAR_LIT = re.compile(r"'((?:[^'\n]|'')*)'")
STRING_LIT = re.compile(r'"((?:[^"\n]|"")*)"')
WS = re.compile(r"[ \t]*")
# a binary operator at the start of a would-be command argument (rule C1)
BINARY_OP = re.compile(r"==|~=|<=|>=|&&|\|\||\.\*|\./|\.\\|\.\^|[-+*/\\^<>&|:]")


def assignment_list_at(text: str, i: int) -> bool:
    """Is the '[' at ``i`` the start of ``[a, b] = ...``?

    Scans ahead with the tokenizer's own patterns (quotes decided by the
    same value-end rule) to the matching ']' and looks for '=' after it.
    """
    match = TOKEN.match
    depth = 0
    value_end = False
    ws = False
    k = i
    while True:
        m = match(text, k)
        if m is None:
            return False
        kind = m.lastgroup
        k = m.end()
        if kind == "ws" or kind == "cont":
            ws = True
            continue
        if kind == "nl" or kind == "comment":
            return False
        if kind == "punct":
            c = m.group()
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0:
                    return assignment_follows(text, k)
            value_end = c in ")]}"
        elif kind == "quote":
            if not (value_end and not ws):  # a char literal, not a transpose
                lit = CHAR_LIT.match(text, k - 1)
                if lit is None:
                    return False
                k = lit.end()
            value_end = True
        elif kind == "dquote":
            lit = STRING_LIT.match(text, k - 1)
            if lit is None:
                return False
            k = lit.end()
            value_end = True
        else:
            value_end = kind in ("name", "num") or m.group() == ".'"
        ws = False


def assignment_follows(text: str, k: int) -> bool:
    """Is there an '=' (not '==') at ``k``, after spaces and continuations?"""
    while True:
        k = WS.match(text, k).end()
        if not text.startswith("...", k):
            break
        nl = text.find("\n", k)
        if nl < 0:
            return False
        k = nl + 1
    return text[k: k + 1] == "=" and text[k + 1: k + 2] != "="


# Keywords and operators, by the token types the tokenizer gives them.
KEYWORDS = {
    "if": "IF", "elseif": "ELSEIF", "else": "ELSE", "end": "END", "for": "FOR",
    "parfor": "PARFOR", "while": "WHILE", "switch": "SWITCH", "case": "CASE",
    "otherwise": "OTHERWISE", "try": "TRY", "catch": "CATCH", "break": "BREAK",
    "continue": "CONTINUE", "return": "RETURN", "global": "GLOBAL",
    "persistent": "PERSISTENT", "function": "FUNCTION",
}
UNSUPPORTED_KEYWORDS = {"classdef": "classdef", "spmd": "spmd"}
OCTAVE_ENDS = {
    "endif", "endfor", "endwhile", "endfunction", "endswitch", "end_try_catch",
    "endparfor", "end_unwind_protect", "unwind_protect", "endspmd",
}
BLOCK_OPENERS = {"IF", "FOR", "PARFOR", "WHILE", "SWITCH", "TRY", "FUNCTION"}
# keywords after which a statement may follow on the same line
STATEMENT_FOLLOWS = {"ELSE", "TRY", "OTHERWISE"}

OPERATORS = {
    "+": "PLUS", "-": "MINUS", "*": "STAR", "/": "SLASH", "\\": "BACKSLASH",
    "^": "CARET", ".*": "DOTSTAR", "./": "DOTSLASH", ".\\": "DOTBACKSLASH",
    ".^": "DOTCARET", ".'": "DOTTRANSPOSE", "==": "EQ", "~=": "NE", "<": "LT",
    "<=": "LE", ">": "GT", ">=": "GE", "&": "AND", "|": "OR", "&&": "ANDAND",
    "||": "OROR", "~": "NOT", ":": "COLON", "=": "ASSIGN", "@": "AT", ".": "DOT",
}
